//===- Artifact.h - ahead-of-time compilation to an artifact dir -*- C++ -*-===//
//
// The AOT artifact (DESIGN.md section 7): lib<name>.so exporting
// `pd_entry(void **args)`, <name>.h, <name>.weights (64-byte aligned records)
// and manifest.json describing inputs, outputs, weights and the target.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_CODEGEN_ARTIFACT_H
#define PADDLEMLIR_CODEGEN_ARTIFACT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

namespace mlir::pd {
struct CompileOptions {
  std::string name = "model"; // artifact name: lib<name>.so, <name>.h
  std::string target = "cpu"; // cpu (cuda: not yet)
  std::string precision = "fp32";
  /// Static shapes for inputs, replacing dynamic dims (e.g. image=1x3x224x224).
  std::map<std::string, std::vector<int64_t>> inputShapes;
  bool optimize = true;
  /// Place intermediate buffers in one arena per instance (pd-plan-memory),
  /// so runs after the first allocate nothing for them.
  bool memoryPlan = true;
  /// Print the static memory plan (pd-plan-memory report) to stderr.
  bool memoryReport = false;
  /// Library kernels for conv/matmul: "onednn" (the runtime's
  /// libpdrt_kernels.so, copied into the artifact when used) or "none".
  std::string kernels = "onednn";
  /// Split generated loops over the threads of the kernel library's OpenMP
  /// pool (pd-parallelize-ops); the artifact then needs libpdrt_kernels.so.
  bool parallel = true;
  /// Activation layout between oneDNN convolutions: "auto" (the faster of
  /// NHWC and nChw8c, timed at compile time for static shapes; else NHWC on
  /// AVX-512 hosts, nChw8c without), "nhwc", "nchw8c", "nchw16c".
  std::string convLayout = "auto";
  /// 3x3 convolutions in nChw8c: "auto" (Winograd F(2x2, 3x3) where timed
  /// faster at compile time), "direct" (oneDNN's), "winograd" (every
  /// eligible one).
  std::string convAlgorithm = "auto";
  /// LLVM CPU the generated code is tuned for and may use the instructions
  /// of: "host" (this machine's CPU and features) or a name such as
  /// x86-64-v3 or znver4, to build for other machines (or for tools like
  /// valgrind that do not decode AVX-512).
  std::string cpu = "host";
};

/// Compiles `module` (a pd module with @main, as the importers produce it)
/// into an artifact directory. Emits diagnostics and fails on any error.
LogicalResult compileToArtifact(ModuleOp module, const CompileOptions &options,
                                llvm::StringRef outDir);

/// The element type name used in manifests and headers ("float32", ...).
std::string dtypeName(Type elementType);
} // namespace mlir::pd

#endif // PADDLEMLIR_CODEGEN_ARTIFACT_H

//===- Artifact.h - ahead-of-time compilation to an artifact dir -*- C++ -*-===//
//
// The AOT artifact (DESIGN.md section 7): lib<name>.so exporting
// `pd_entry(void **args)`, <name>.h, <name>.weights (64-byte aligned records)
// and manifest.json describing inputs, outputs, weights and the target.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_DRIVER_DRIVER_H
#define PADDLEMLIR_DRIVER_DRIVER_H

#include "PaddleMLIR/Driver/CompileOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir::pd {
/// Compiles `module` (a pd module with @main, as the importers produce it)
/// into an artifact directory. Emits diagnostics and fails on any error,
/// including options this compiler cannot build yet.
LogicalResult compileToArtifact(ModuleOp module, const CompileOptions &options,
                                llvm::StringRef outDir);

/// The steps of compileToArtifact that write no files: option checks,
/// --input-shape, the graph and codegen pipelines and the translation to
/// LLVM IR with the artifact's entry points (`pd_entry`, `pd_arena_bytes`),
/// before LLVM's optimizations. Convolution layouts are chosen without
/// timing. Returns null after a diagnostic. The fuzzers (test/Fuzz) use it
/// to compile without a linker.
std::unique_ptr<llvm::Module> compileToLLVMIR(ModuleOp module, const CompileOptions &options,
                                              llvm::LLVMContext &llvmCtx);

/// The element type name used in manifests and headers ("float32", ...).
std::string dtypeName(Type elementType);
} // namespace mlir::pd

#endif // PADDLEMLIR_DRIVER_DRIVER_H

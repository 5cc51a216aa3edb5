//===- Target.h - what each code generation target provides -----*- C++ -*-===//
//
// The driver (lib/Driver) takes a graph-level pd module to an artifact
// through one CodegenTarget: the target refuses options it cannot honour,
// lowers the module, and writes the artifact's shared library. Everything
// else in an artifact (header, weights, manifest, the interface they
// describe) is the same for every target and stays in the driver.
//
// Per-target code lives in lib/CodeGen/CPU and lib/CodeGen/CUDA; what
// both use (pd -> bufferized linalg, the memory plan, the host library's
// entry points) sits at the top of lib/CodeGen.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_CODEGEN_TARGET_H
#define PADDLEMLIR_CODEGEN_TARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir::pd {
/// What code generation needs of the compile options. The driver fills it
/// from CompileOptions; a target reads the fields that concern it.
struct CodegenOptions {
  /// Intermediate buffers in one planned arena; print the plan.
  bool memoryPlan = true;
  bool memoryReport = false;

  // CPU
  /// LLVM CPU name, or "host" (this machine's CPU and features).
  std::string cpu = "host";
  /// convert-pd-to-linalg's kernels: "onednn" or "none".
  std::string kernels = "onednn";
  /// Outlined ops split over the runtime's threads.
  bool parallel = true;
  /// pd-kernel-layouts' block (0: automatic, -1: NHWC, 8, 16) and winograd.
  int64_t convBlock = 0;
  std::string winograd = "auto";
  /// Whether pd-kernel-layouts may time kernels to choose layouts.
  bool measure = false;
  /// LLVM's loop unroller (off for train steps, whose generated loops it
  /// slows down: HostLibrary.cpp).
  bool unrollLoops = true;

  // CUDA
  /// The GPU architecture the kernels are built for (sm_NN).
  std::string cudaArch = "sm_90";
  /// The CUDA toolkit whose ptxas assembles the kernels.
  std::string cudaToolkit = "/usr/local/cuda";
  /// CUDA: let cuBLASLt use TF32 for fp32 matrix products (--allow-tf32).
  bool allowTf32 = false;
  /// CUDA, tests only (--cuda-emulate): the launches run as host loops, for
  /// the tests' CUDA driver whose device memory is host memory.
  bool cudaEmulate = false;
  /// CUDA: the kernels' index arithmetic, 32 or 64 bits
  /// (--cuda-index-bitwidth).
  int64_t cudaIndexBitwidth = 32;
};

/// One code generation target.
class CodegenTarget {
public:
  virtual ~CodegenTarget();
  /// The --target spelling, recorded as the manifest's target kind.
  virtual llvm::StringRef kind() const = 0;
  /// Refuses options this target cannot build, before any work is done;
  /// the diagnostic goes to `where`.
  virtual LogicalResult checkOptions(ModuleOp where, const CodegenOptions &options) const = 0;
  /// Lowers a graph-level pd module in place to what writeLibrary takes.
  virtual LogicalResult lower(ModuleOp module, const CodegenOptions &options) const = 0;
  /// The lowered module's host code as LLVM IR with the artifact's entry
  /// points, before LLVM's optimizations; null after a diagnostic.
  virtual std::unique_ptr<llvm::Module> translate(ModuleOp lowered, llvm::StringRef fingerprint,
                                                  llvm::LLVMContext &llvmCtx) const = 0;
  /// Writes lib<name>.so of the lowered module into `outDir`, linked with
  /// the runtime library the target needs (the CPU's kernel library only
  /// when `linkKernels`); sets `record` to the manifest's target record
  /// ({"kind": ..., and what the code was built for: "cpu", or "arch" and
  /// "kernels"}).
  virtual LogicalResult writeLibrary(ModuleOp lowered, const CodegenOptions &options,
                                     llvm::StringRef outDir, llvm::StringRef name,
                                     llvm::StringRef fingerprint, bool linkKernels,
                                     llvm::json::Object &record) const = 0;
};

/// The targets (lib/CodeGen/CPU/Target.cpp, lib/CodeGen/CUDA/Target.cpp).
const CodegenTarget &getCPUTarget();
const CodegenTarget &getCUDATarget();

/// The kernel library (libpdrt_kernels.so) CPU artifacts link and
/// pd-kernel-layouts times kernels with: $PADDLE_MLIR_KERNELS_LIB, else one
/// beside the binary holding this code (the Python package installs it
/// there), else <bin>/../lib of the compiler, else the build tree's.
std::string kernelsLibraryPath();

/// The CUDA runtime library (libpdrt_cuda.so) cuda artifacts link, found
/// the same way ($PADDLE_MLIR_CUDA_RUNTIME_LIB first).
std::string cudaRuntimeLibraryPath();

/// libpdrt_mpi.so, the MPI backend multi-rank jobs load (found like the
/// kernel library; $PADDLE_MLIR_MPI_LIB first); empty when this build has
/// none (no MPI at build time).
std::string mpiBackendLibraryPath();

/// libpdrt_nccl.so, the NCCL backend (PADDLE_MLIR_COMM_BACKEND=nccl), found
/// the same way ($PADDLE_MLIR_NCCL_LIB first); empty when not built.
std::string ncclBackendLibraryPath();
} // namespace mlir::pd

#endif // PADDLEMLIR_CODEGEN_TARGET_H

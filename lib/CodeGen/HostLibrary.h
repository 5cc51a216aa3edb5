//===- HostLibrary.h - the host side of every artifact's library -*- C++ -*-===//
//
// Steps every target's writeLibrary shares: the host code of an artifact
// is LLVM IR with the runtime's entry points, compiled for a CPU and linked
// into lib<name>.so.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_LIB_CODEGEN_HOSTLIBRARY_H
#define PADDLEMLIR_LIB_CODEGEN_HOSTLIBRARY_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir::pd::host {
/// The LLVM CPU name and feature string for `requested` ("host": this
/// machine's CPU and features; else a CPU name, which brings its own
/// features). Fails, naming the CPU, when LLVM does not know it (LLVM itself
/// would only warn and fall back to a generic CPU).
LogicalResult resolveCpu(ModuleOp where, llvm::StringRef requested, std::string &cpu,
                         std::string &features);

/// The lowered module (LLVM dialect) as LLVM IR with the artifact's entry
/// points `pd_entry`, `pd_arena_bytes` and `pd_model_fingerprint`, before
/// any LLVM optimization; null after a diagnostic.
std::unique_ptr<llvm::Module> translate(ModuleOp lowered, llvm::StringRef fingerprint,
                                        llvm::LLVMContext &llvmCtx);

/// Optimizes the translated module for `requestedCpu` (LLVM -O3; with
/// `unrollLoops` false, loops are unrolled only where vectorization
/// interleaves them) and writes an object file; sets `cpu` to the CPU it
/// was built for.
LogicalResult emitObject(ModuleOp lowered, llvm::StringRef fingerprint, llvm::StringRef objPath,
                         llvm::StringRef requestedCpu, std::string &cpu, bool unrollLoops = true);

/// Emits the object file and links `outDir`/lib<name>.so with the support
/// routines and the runtime libraries `runtimes` (each copied beside it),
/// leaving no intermediate files. Sets `cpu` as emitObject does.
LogicalResult buildLibrary(ModuleOp lowered, llvm::StringRef outDir, llvm::StringRef name,
                           llvm::StringRef fingerprint, llvm::StringRef requestedCpu,
                           llvm::ArrayRef<std::string> runtimes, std::string &cpu,
                           bool unrollLoops = true);
} // namespace mlir::pd::host

#endif // PADDLEMLIR_LIB_CODEGEN_HOSTLIBRARY_H

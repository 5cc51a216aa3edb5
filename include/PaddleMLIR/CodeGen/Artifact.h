//===- Artifact.h - ahead-of-time compilation to an artifact dir -*- C++ -*-===//
//
// The AOT artifact (DESIGN.md section 7): lib<name>.so exporting
// `pd_entry(void **args)`, <name>.h, <name>.weights (64-byte aligned records)
// and manifest.json describing inputs, outputs, weights and the target.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_CODEGEN_ARTIFACT_H
#define PADDLEMLIR_CODEGEN_ARTIFACT_H

#include "PaddleMLIR/CodeGen/CompileOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::pd {
/// Compiles `module` (a pd module with @main, as the importers produce it)
/// into an artifact directory. Emits diagnostics and fails on any error,
/// including options this compiler cannot build yet.
LogicalResult compileToArtifact(ModuleOp module, const CompileOptions &options,
                                llvm::StringRef outDir);

/// The element type name used in manifests and headers ("float32", ...).
std::string dtypeName(Type elementType);
} // namespace mlir::pd

#endif // PADDLEMLIR_CODEGEN_ARTIFACT_H

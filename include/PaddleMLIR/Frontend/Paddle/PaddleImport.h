//===- PaddleImport.h - Paddle model files -> pd module --------*- C++ -*-===//
#ifndef PADDLEMLIR_FRONTEND_PADDLE_PADDLEIMPORT_H
#define PADDLEMLIR_FRONTEND_PADDLE_PADDLEIMPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::pd {
/// Imports a Paddle inference model into a pd module with one `@main`.
///
/// `model` is a Fluid 1.x `__model__` (parameters one file per variable
/// beside it, or a combined `__params__`), a 2.x `*.pdmodel` (parameters in
/// the `.pdiparams` of the same stem), or a directory holding either.
/// `params`, when not empty, names the combined parameter file explicitly.
///
/// Feeds become arguments in `col` order, fetches results in `col` order
/// (both carry their Paddle names as `pd.name`), persistable variables become
/// `ml_program.global`s holding `dense_resource` data, and each op a pd op
/// located at "<type> #<index> -> <outputs>" in the model file. Errors are
/// emitted as diagnostics and yield a null module.
OwningOpRef<ModuleOp> importPaddleModel(MLIRContext *ctx, llvm::StringRef model,
                                        llvm::StringRef params = {});

/// Registers the dialects the importer produces.
void registerPaddleImportDialects(DialectRegistry &registry);
} // namespace mlir::pd

#endif // PADDLEMLIR_FRONTEND_PADDLE_PADDLEIMPORT_H

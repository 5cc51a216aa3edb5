//===- PaddleExport.h - pd module -> Paddle 2.x model files ----*- C++ -*-===//
#ifndef PADDLEMLIR_FRONTEND_PADDLE_PADDLEEXPORT_H
#define PADDLEMLIR_FRONTEND_PADDLE_PADDLEEXPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::pd {
/// Writes `@main` of `module` as `<dir>/<stem>.pdmodel` plus the combined
/// `<dir>/<stem>.pdiparams`, in Paddle's layout: feed ops first (reverse
/// `col` order), fetch ops last, every attribute of each op spelled out,
/// auxiliary outputs Paddle expects (XShape, batch_norm statistics, dropout
/// Mask, layer_norm Mean/Variance) recreated, and parameter records sorted
/// by variable name. Variable names come from `pd.name` argument/result
/// attributes, global symbols and the importer's op locations. Emits a
/// diagnostic and fails on anything it cannot express.
LogicalResult exportPaddleModel(ModuleOp module, llvm::StringRef dir,
                                llvm::StringRef stem = "model");
} // namespace mlir::pd

#endif // PADDLEMLIR_FRONTEND_PADDLE_PADDLEEXPORT_H

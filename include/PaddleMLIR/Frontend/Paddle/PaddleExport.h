//===- PaddleExport.h - pd module -> Paddle 2.x model files ----*- C++ -*-===//
#ifndef PADDLEMLIR_FRONTEND_PADDLE_PADDLEEXPORT_H
#define PADDLEMLIR_FRONTEND_PADDLE_PADDLEEXPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <string>
#include <vector>

namespace mlir::pd {
/// One parameter record of an exported `.pdiparams`: where its data starts
/// in the file and how many bytes it has.
struct ExportedParameter {
  std::string name;
  size_t offset = 0, nbytes = 0;
};

/// Writes `@main` of `module` as `<dir>/<stem>.pdmodel` plus the combined
/// `<dir>/<stem>.pdiparams`, in Paddle's layout: feed ops first (reverse
/// `col` order), fetch ops last, every attribute of each op spelled out,
/// auxiliary outputs Paddle expects (XShape, batch_norm statistics, dropout
/// Mask, layer_norm Mean/Variance) recreated, and parameter records sorted
/// by variable name. Variable names come from `pd.name` argument/result
/// attributes, global symbols and the importer's op locations. Emits a
/// diagnostic and fails on anything it cannot express. With `written`,
/// appends each parameter record in file order.
LogicalResult exportPaddleModel(ModuleOp module, llvm::StringRef dir,
                                llvm::StringRef stem = "model",
                                std::vector<ExportedParameter> *written = nullptr);
} // namespace mlir::pd

#endif // PADDLEMLIR_FRONTEND_PADDLE_PADDLEEXPORT_H

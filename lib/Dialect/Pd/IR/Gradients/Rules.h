//===- Rules.h - shared pieces of the pd gradient rules ---------*- C++ -*-===//
//
// The external model that routes PdGradient::buildGradients to the
// `gradient(OpT, GradientBuilder &)` overload of an op, and the per-family
// attach functions.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_LIB_DIALECT_PD_IR_GRADIENTS_RULES_H
#define PADDLEMLIR_LIB_DIALECT_PD_IR_GRADIENTS_RULES_H

#include "PaddleMLIR/Dialect/Pd/IR/PdGradient.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

namespace mlir::pd {
/// Calls the rule `gradient(OpT, GradientBuilder &)`, found by
/// argument-dependent lookup in mlir::pd where each family defines its own.
template <typename OpT>
struct GradientRuleModel : PdGradient::ExternalModel<GradientRuleModel<OpT>, OpT> {
  LogicalResult buildGradients(Operation *op, GradientBuilder &g) const {
    return gradient(cast<OpT>(op), g);
  }
};

template <typename... OpTs> void attachRules(MLIRContext *ctx) {
  (OpTs::template attachInterface<GradientRuleModel<OpTs>>(*ctx), ...);
}

/// Static shape of a ranked tensor value.
inline ArrayRef<int64_t> shapeOf(Value v) { return cast<RankedTensorType>(v.getType()).getShape(); }
inline int64_t rankOf(Value v) { return cast<RankedTensorType>(v.getType()).getRank(); }

void attachElementwiseGradients(MLIRContext *ctx);
void attachLinearGradients(MLIRContext *ctx);
void attachShapeGradients(MLIRContext *ctx);
void attachNNGradients(MLIRContext *ctx);
void attachRandomGradients(MLIRContext *ctx);
void attachCollectiveGradients(MLIRContext *ctx);
} // namespace mlir::pd

#endif // PADDLEMLIR_LIB_DIALECT_PD_IR_GRADIENTS_RULES_H

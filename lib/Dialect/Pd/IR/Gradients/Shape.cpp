//===- Shape.cpp - gradient rules: reshapes, transposes, copies -----------===//
//
// Ops that only move elements: the gradient moves them back.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

namespace mlir::pd {
/// The gradient of an op whose result is its operand 0 with another shape.
static LogicalResult reshapeBack(Operation *op, GradientBuilder &g) {
  g.setGrad(0, g.reshape(g.resultGrad(0), shapeOf(op->getOperand(0))));
  return success();
}

static LogicalResult gradient(Reshape2Op op, GradientBuilder &g) { return reshapeBack(op, g); }
static LogicalResult gradient(FlattenContiguousRangeOp op, GradientBuilder &g) {
  return reshapeBack(op, g);
}
static LogicalResult gradient(Flatten2Op op, GradientBuilder &g) { return reshapeBack(op, g); }
static LogicalResult gradient(Squeeze2Op op, GradientBuilder &g) { return reshapeBack(op, g); }
static LogicalResult gradient(Unsqueeze2Op op, GradientBuilder &g) { return reshapeBack(op, g); }
static LogicalResult gradient(AssignOp op, GradientBuilder &g) { return reshapeBack(op, g); }

static LogicalResult gradient(Transpose2Op op, GradientBuilder &g) {
  ArrayRef<int32_t> perm = op.getAxis();
  SmallVector<int32_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = static_cast<int32_t>(i);
  g.setGrad(0, g.transpose(g.resultGrad(0), inverse));
  return success();
}

void attachShapeGradients(MLIRContext *ctx) {
  attachRules<Reshape2Op, FlattenContiguousRangeOp, Flatten2Op, Squeeze2Op, Unsqueeze2Op, AssignOp,
              Transpose2Op>(ctx);
}
} // namespace mlir::pd

//===- Builder.cpp - GradientBuilder and the rules' registration ----------===//

#include "Rules.h"

#include "PaddleMLIR/Dialect/Pd/IR/PdGradient.cpp.inc"

using namespace mlir;
using namespace mlir::pd;

GradientBuilder::GradientBuilder(OpBuilder &builder, Operation *op, ArrayRef<Value> resultGrads,
                                 ArrayRef<bool> needed)
    : b(builder), op(op), loc(op->getLoc()), resultGrads(resultGrads), needed(needed),
      grads(op->getNumOperands(), Value()) {}

void GradientBuilder::setGrad(unsigned i, Value grad) {
  if (!grad || !needed[i])
    return;
  grads[i] = grads[i] ? add(grads[i], grad) : grad;
}

InFlightDiagnostic GradientBuilder::emitError() { return op->emitError(); }

Type GradientBuilder::placeholder() { return b.getNoneType(); }

Value GradientBuilder::infer(Operation *created) {
  SmallVector<Type> types;
  auto iface = cast<PdShapeInference>(created);
  if (failed(iface.inferResultTypes(types, /*emitErrors=*/true)) ||
      types.size() != created->getNumResults()) {
    // A rule built an op its shape rules reject: an internal error, named
    // on the op being differentiated.
    op->emitError() << "internal error: the gradient rule of '" << op->getName()
                    << "' built an invalid '" << created->getName() << "'";
    return created->getResult(0);
  }
  for (auto [result, type] : llvm::zip(created->getResults(), types))
    result.setType(type);
  return created->getResult(0);
}

Value GradientBuilder::add(Value x, Value y, int32_t axis) {
  return make<ElementwiseAddOp>(x, y, axis);
}
Value GradientBuilder::sub(Value x, Value y, int32_t axis) {
  return make<ElementwiseSubOp>(x, y, axis);
}
Value GradientBuilder::mul(Value x, Value y, int32_t axis) {
  return make<ElementwiseMulOp>(x, y, axis);
}
Value GradientBuilder::div(Value x, Value y, int32_t axis) {
  return make<ElementwiseDivOp>(x, y, axis);
}

Value GradientBuilder::scale(Value x, double s, double bias) {
  return make<ScaleOp>(x, Value(), b.getF32FloatAttr(s), b.getF32FloatAttr(bias),
                       b.getBoolAttr(true));
}

Value GradientBuilder::full(Value like, double value) {
  return make<FillAnyLikeOp>(like, b.getF32FloatAttr(value), b.getI32IntegerAttr(-1));
}

Value GradientBuilder::select(Value cond, Value x, Value y) { return make<WhereOp>(cond, x, y); }
Value GradientBuilder::greater(Value x, Value y) { return make<GreaterThanOp>(x, y, -1); }
Value GradientBuilder::less(Value x, Value y) { return make<LessThanOp>(x, y, -1); }

Value GradientBuilder::sumKeep(Value x, ArrayRef<int32_t> dims) {
  return make<ReduceSumOp>(x, b.getDenseI32ArrayAttr(dims), b.getBoolAttr(true),
                           b.getBoolAttr(false), b.getI32IntegerAttr(-1), b.getI32IntegerAttr(-1));
}

Value GradientBuilder::reshape(Value x, ArrayRef<int64_t> shape) {
  if (shapeOf(x) == shape)
    return x;
  SmallVector<int32_t> s(shape.begin(), shape.end());
  return make<Reshape2Op>(x, Value(), ValueRange(), b.getDenseI32ArrayAttr(s));
}

Value GradientBuilder::transpose(Value x, ArrayRef<int32_t> perm) {
  return make<Transpose2Op>(x, b.getDenseI32ArrayAttr(perm), b.getStringAttr("AnyLayout"));
}

Value GradientBuilder::matmul(Value x, Value y, bool transX, bool transY) {
  return make<MatmulV2Op>(x, y, b.getBoolAttr(transX), b.getBoolAttr(transY));
}

Value GradientBuilder::sumToShape(Value grad, Value operand, int64_t offset) {
  ArrayRef<int64_t> g = shapeOf(grad), o = shapeOf(operand);
  SmallVector<int32_t> dims;
  for (int64_t d = 0; d < (int64_t)g.size(); ++d) {
    int64_t k = d - offset;
    bool covered = k >= 0 && k < (int64_t)o.size();
    if (!covered || (o[k] == 1 && g[d] != 1))
      dims.push_back(d);
  }
  Value summed = dims.empty() ? grad : sumKeep(grad, dims);
  return reshape(summed, o);
}

int64_t mlir::pd::elementwiseOffset(int64_t bigRank, int64_t smallRank, int32_t axis) {
  return axis < 0 ? bigRank - smallRank : axis;
}

void mlir::pd::attachGradientRules(MLIRContext *ctx) {
  attachElementwiseGradients(ctx);
  attachLinearGradients(ctx);
  attachShapeGradients(ctx);
  attachNNGradients(ctx);
  attachRandomGradients(ctx);
  attachCollectiveGradients(ctx);
}

//===- Linear.cpp - gradient rules: mul, matmul, matmul_v2, fc ------------===//
//
// The products of a matrix product's gradient are matrix products again
// (matmul_v2 with transposes), so they reach oneDNN like the forward ones.
// Batch dims a broadcast operand lacks are summed back.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

namespace mlir::pd {
namespace {
int64_t product(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

/// Gradients of out = op(X) @ op(Y) (op: optional transpose of the last two
/// dims), both operands of rank >= 2, dOut scaled by `alpha` first.
LogicalResult matmulGradient(GradientBuilder &g, Value x, Value y, bool tx, bool ty, double alpha) {
  if (rankOf(x) < 2 || rankOf(y) < 2)
    return g.emitError() << "no gradient rule for a matrix product of a 1-D operand yet";
  Value dOut = g.resultGrad(0);
  if (alpha != 1.0)
    dOut = g.scale(dOut, alpha);
  int64_t rank = rankOf(dOut);
  if (g.needs(0)) {
    Value dx = !tx ? g.matmul(dOut, y, false, !ty) : g.matmul(y, dOut, ty, true);
    g.setGrad(0, g.sumToShape(dx, x, rank - rankOf(x)));
  }
  if (g.needs(1)) {
    Value dy = !ty ? g.matmul(x, dOut, !tx, false) : g.matmul(dOut, x, true, tx);
    g.setGrad(1, g.sumToShape(dy, y, rank - rankOf(y)));
  }
  return success();
}

/// Gradients of X flattened to [prod(X[:xn]), prod(X[xn:])] times W
/// flattened at `wn`, the result shaped as `out`.
void flatProductGradient(GradientBuilder &g, Value x, Value w, Value dOut, int64_t xn, int64_t wn,
                         unsigned xIndex, unsigned wIndex) {
  ArrayRef<int64_t> xs = shapeOf(x), ws = shapeOf(w);
  int64_t m = product(xs.take_front(xn)), k = product(xs.drop_front(xn));
  int64_t n = product(ws.drop_front(wn));
  Value dOut2 = g.reshape(dOut, {m, n});
  if (g.needs(xIndex))
    g.setGrad(xIndex, g.reshape(g.matmul(dOut2, g.reshape(w, {k, n}), false, true), xs));
  if (g.needs(wIndex))
    g.setGrad(wIndex, g.reshape(g.matmul(g.reshape(x, {m, k}), dOut2, true, false), ws));
}
} // namespace

static LogicalResult gradient(MatmulV2Op op, GradientBuilder &g) {
  return matmulGradient(g, op.getX(), op.getY(), op.getTransX(), op.getTransY(), 1.0);
}

static LogicalResult gradient(MatmulOp op, GradientBuilder &g) {
  return matmulGradient(g, op.getX(), op.getY(), op.getTranspose_X(), op.getTranspose_Y(),
                        op.getAlpha().convertToDouble());
}

static LogicalResult gradient(MulOp op, GradientBuilder &g) {
  flatProductGradient(g, op.getX(), op.getY(), g.resultGrad(0), op.getXNumColDims(),
                      op.getYNumColDims(), 0, 1);
  return success();
}

static LogicalResult gradient(FcOp op, GradientBuilder &g) {
  Value out = op.getOut(), dOut = g.resultGrad(0);
  StringRef act = op.getActivationType();
  if (act == "relu")
    dOut = g.select(g.greater(out, g.full(out, 0.0)), dOut, g.full(dOut, 0.0));
  else if (!act.empty())
    return g.emitError() << "no gradient rule for 'pd.fc' with activation '" << act
                         << "' yet (train the unfused program)";
  if (op.getPaddingWeights())
    return g.emitError() << "no gradient rule for 'pd.fc' with padded weights";
  Value input = op.getInput(), w = op.getW();
  int64_t n = op.getInNumColDims();
  flatProductGradient(g, input, w, dOut, n, 1, 0, 1);
  if (Value bias = op.getBias(); bias && g.needs(2)) {
    int64_t m = product(shapeOf(input).take_front(n)), cols = shapeOf(w).back();
    Value rows = g.sumKeep(g.reshape(dOut, {m, cols}), {0});
    g.setGrad(2, g.reshape(rows, shapeOf(bias)));
  }
  return success();
}

void attachLinearGradients(MLIRContext *ctx) {
  attachRules<MatmulV2Op, MatmulOp, MulOp, FcOp>(ctx);
}
} // namespace mlir::pd

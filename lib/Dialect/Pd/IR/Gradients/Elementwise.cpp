//===- Elementwise.cpp - gradient rules: elementwise, activations, losses -===//
//
// Binary elementwise ops with Paddle's axis broadcasting (the gradient of a
// broadcast operand is summed back to its shape), activations, softmax and
// log_softmax, softmax_with_cross_entropy, cross_entropy2, mean and the
// sum/mean reductions.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include <cmath>

namespace mlir::pd {
namespace {
enum class Binary { Add, Sub, Mul, Div };

/// The offsets of X and Y in the result's dims (Paddle's axis rule: the
/// lower-rank operand starts at `axis`, or is aligned to the end).
std::pair<int64_t, int64_t> offsets(Value x, Value y, int32_t axis) {
  int64_t rx = rankOf(x), ry = rankOf(y);
  if (rx >= ry)
    return {0, elementwiseOffset(rx, ry, axis)};
  return {elementwiseOffset(ry, rx, axis), 0};
}

template <typename OpT> LogicalResult binaryGradient(OpT op, GradientBuilder &g, Binary kind) {
  Value x = op.getX(), y = op.getY(), dOut = g.resultGrad(0);
  auto [offX, offY] = offsets(x, y, op.getAxis());
  // The axis that broadcasts `v` (at `off` in the result) against dOut.
  auto axisOf = [&](Value v, int64_t off) -> int32_t {
    return rankOf(v) < rankOf(dOut) ? static_cast<int32_t>(off) : -1;
  };
  switch (kind) {
  case Binary::Add:
  case Binary::Sub:
    if (g.needs(0))
      g.setGrad(0, g.sumToShape(dOut, x, offX));
    if (g.needs(1))
      g.setGrad(1, g.sumToShape(kind == Binary::Sub ? g.scale(dOut, -1.0) : dOut, y, offY));
    return success();
  case Binary::Mul:
    if (g.needs(0))
      g.setGrad(0, g.sumToShape(g.mul(dOut, y, axisOf(y, offY)), x, offX));
    if (g.needs(1))
      g.setGrad(1, g.sumToShape(g.mul(dOut, x, axisOf(x, offX)), y, offY));
    return success();
  case Binary::Div:
    if (g.needs(0))
      g.setGrad(0, g.sumToShape(g.div(dOut, y, axisOf(y, offY)), x, offX));
    if (g.needs(1)) {
      // d(x / y)/dy = -out / y.
      Value t = g.div(g.mul(dOut, op.getOut()), y, axisOf(y, offY));
      g.setGrad(1, g.sumToShape(g.scale(t, -1.0), y, offY));
    }
    return success();
  }
  return failure();
}

/// dOut * f'(x) for a unary op, where `derivative` is f'.
LogicalResult unary(GradientBuilder &g, Value derivative) {
  g.setGrad(0, g.mul(g.resultGrad(0), derivative));
  return success();
}

int64_t normalize(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }
} // namespace

static LogicalResult gradient(ElementwiseAddOp op, GradientBuilder &g) {
  return binaryGradient(op, g, Binary::Add);
}
static LogicalResult gradient(ElementwiseSubOp op, GradientBuilder &g) {
  return binaryGradient(op, g, Binary::Sub);
}
static LogicalResult gradient(ElementwiseMulOp op, GradientBuilder &g) {
  return binaryGradient(op, g, Binary::Mul);
}
static LogicalResult gradient(ElementwiseDivOp op, GradientBuilder &g) {
  return binaryGradient(op, g, Binary::Div);
}

static LogicalResult gradient(ReluOp op, GradientBuilder &g) {
  Value out = op.getOut(), dOut = g.resultGrad(0);
  g.setGrad(0, g.select(g.greater(out, g.full(out, 0.0)), dOut, g.full(dOut, 0.0)));
  return success();
}

static LogicalResult gradient(Relu6Op op, GradientBuilder &g) {
  Value x = op.getX(), dOut = g.resultGrad(0), zero = g.full(dOut, 0.0);
  double threshold = op.getThreshold().convertToDouble();
  Value inside = g.select(g.less(x, g.full(x, threshold)), dOut, zero);
  g.setGrad(0, g.select(g.greater(x, g.full(x, 0.0)), inside, zero));
  return success();
}

static LogicalResult gradient(LeakyReluOp op, GradientBuilder &g) {
  Value x = op.getX(), dOut = g.resultGrad(0);
  double alpha = op.getAlpha().convertToDouble();
  g.setGrad(0, g.select(g.greater(x, g.full(x, 0.0)), dOut, g.scale(dOut, alpha)));
  return success();
}

static LogicalResult gradient(SigmoidOp op, GradientBuilder &g) {
  Value out = op.getOut();
  return unary(g, g.mul(out, g.scale(out, -1.0, 1.0)));
}

static LogicalResult gradient(TanhOp op, GradientBuilder &g) {
  return unary(g, g.scale(g.make<SquareOp>(op.getOut()), -1.0, 1.0));
}

static LogicalResult gradient(GeluOp op, GradientBuilder &g) {
  Value x = op.getX();
  if (!op.getApproximate()) {
    // Phi(x) + x * phi(x).
    Value cdf = g.scale(g.make<ErfOp>(g.scale(x, M_SQRT1_2)), 0.5, 0.5);
    Value pdf =
        g.scale(g.make<ExpOp>(g.scale(g.make<SquareOp>(x), -0.5)), 0.5 * M_2_SQRTPI * M_SQRT1_2);
    return unary(g, g.add(cdf, g.mul(x, pdf)));
  }
  // out = 0.5 x (1 + tanh(k (x + c x^3))):
  // out' = 0.5 (1 + t) + 0.5 x (1 - t^2) k (1 + 3 c x^2).
  const double k = M_2_SQRTPI * M_SQRT1_2, c = 0.044715;
  Value x2 = g.make<SquareOp>(x);
  Value t = g.make<TanhOp>(g.scale(g.add(x, g.scale(g.mul(x2, x), c)), k));
  Value sech2 = g.scale(g.make<SquareOp>(t), -1.0, 1.0);
  Value inner = g.scale(x2, 3.0 * c * k, k);
  Value second = g.mul(g.scale(x, 0.5), g.mul(sech2, inner));
  return unary(g, g.add(g.scale(t, 0.5, 0.5), second));
}

static LogicalResult gradient(SwishOp op, GradientBuilder &g) {
  // s = sigmoid(beta x): out' = s (1 + beta x (1 - s)).
  Value x = op.getX();
  double beta = op.getBeta().convertToDouble();
  Value s = g.make<SigmoidOp>(g.scale(x, beta));
  Value t = g.mul(g.scale(x, beta), g.scale(s, -1.0, 1.0));
  return unary(g, g.mul(s, g.scale(t, 1.0, 1.0)));
}

static LogicalResult gradient(SiluOp op, GradientBuilder &g) {
  Value x = op.getX(), s = g.make<SigmoidOp>(x);
  Value t = g.mul(x, g.scale(s, -1.0, 1.0));
  return unary(g, g.mul(s, g.scale(t, 1.0, 1.0)));
}

static LogicalResult gradient(HardSwishOp op, GradientBuilder &g) {
  // 0 below -offset, threshold / scale above threshold - offset, and
  // (2 x + offset) / scale between.
  Value x = op.getX();
  double threshold = op.getThreshold().convertToDouble(), scale = op.getScale().convertToDouble(),
         offset = op.getOffset().convertToDouble();
  Value middle = g.scale(x, 2.0 / scale, offset / scale);
  Value upper =
      g.select(g.less(x, g.full(x, threshold - offset)), middle, g.full(x, threshold / scale));
  return unary(g, g.select(g.greater(x, g.full(x, -offset)), upper, g.full(x, 0.0)));
}

static LogicalResult gradient(SquareOp op, GradientBuilder &g) {
  return unary(g, g.scale(op.getX(), 2.0));
}

static LogicalResult gradient(ExpOp op, GradientBuilder &g) { return unary(g, op.getOut()); }

static LogicalResult gradient(LogOp op, GradientBuilder &g) {
  g.setGrad(0, g.div(g.resultGrad(0), op.getX()));
  return success();
}

static LogicalResult gradient(SqrtOp op, GradientBuilder &g) {
  g.setGrad(0, g.div(g.resultGrad(0), g.scale(op.getOut(), 2.0)));
  return success();
}

static LogicalResult gradient(AbsOp op, GradientBuilder &g) {
  return unary(g, g.make<SignOp>(op.getX()));
}

static LogicalResult gradient(ScaleOp op, GradientBuilder &g) {
  if (op.getScaleTensor())
    return g.emitError() << "no gradient rule for 'pd.scale' with a ScaleTensor input yet";
  g.setGrad(0, g.scale(g.resultGrad(0), op.getScale().convertToDouble()));
  return success();
}

/// out * (dOut - sum(dOut * out)) along `axis`.
static Value softmaxBackward(GradientBuilder &g, Value out, Value dOut, int32_t axis) {
  Value s = g.sumKeep(g.mul(dOut, out), {axis});
  return g.mul(out, g.sub(dOut, s));
}

static LogicalResult gradient(SoftmaxOp op, GradientBuilder &g) {
  Value out = op.getOut();
  g.setGrad(0, softmaxBackward(g, out, g.resultGrad(0),
                               static_cast<int32_t>(normalize(op.getAxis(), rankOf(out)))));
  return success();
}

static LogicalResult gradient(LogSoftmaxOp op, GradientBuilder &g) {
  Value out = op.getOut(), dOut = g.resultGrad(0);
  int32_t axis = static_cast<int32_t>(normalize(op.getAxis(), rankOf(out)));
  g.setGrad(0, g.sub(dOut, g.mul(g.make<ExpOp>(out), g.sumKeep(dOut, {axis}))));
  return success();
}

static LogicalResult gradient(SoftmaxWithCrossEntropyOp op, GradientBuilder &g) {
  Value logits = op.getLogits(), label = op.getLabel(), softmax = op.getSoftmax();
  int64_t rank = rankOf(logits), axis = normalize(op.getAxis(), rank);
  if (op.getSoftLabel() || !op.getUseSoftmax() || axis != rank - 1)
    return g.emitError() << "the gradient of 'pd.softmax_with_cross_entropy' is built for hard "
                            "labels and the softmax over the last axis only";
  Value grad;
  if (Value dLoss = g.resultGrad(1)) {
    // (softmax - one_hot(label)) * dLoss, zero where label == ignore_index.
    ArrayRef<int64_t> shape = shapeOf(label);
    Value flat = g.reshape(label, shape.drop_back());
    int32_t classes = static_cast<int32_t>(shapeOf(logits).back());
    Value oneHot =
        g.make<OneHotV2Op>(flat, Value(), g.getBuilder().getI32IntegerAttr(classes),
                           g.getBuilder().getI32IntegerAttr(5), g.getBuilder().getBoolAttr(true));
    Value keep = g.make<NotEqualOp>(label, g.full(label, op.getIgnoreIndex()), -1);
    Value mask = g.make<CastOp>(keep, g.getBuilder().getI32IntegerAttr(0),
                                g.getBuilder().getI32IntegerAttr(5));
    grad = g.mul(g.sub(softmax, oneHot), g.mul(dLoss, mask));
  }
  if (Value dSoftmax = g.resultGrad(0)) {
    Value s = softmaxBackward(g, softmax, dSoftmax, static_cast<int32_t>(axis));
    grad = grad ? g.add(grad, s) : s;
  }
  g.setGrad(0, grad);
  return success();
}

static LogicalResult gradient(CrossEntropy2Op op, GradientBuilder &g) {
  // Y = -log(x[label]), MatchX = x[label], both 0 where label ==
  // ignore_index: dX = one_hot(label) * (MatchX@GRAD - Y@GRAD / x[label]),
  // zero on ignored rows.
  Value x = op.getX(), label = op.getLabel();
  OpBuilder &b = g.getBuilder();
  Value flat = g.reshape(label, shapeOf(label).drop_back());
  int32_t classes = static_cast<int32_t>(shapeOf(x).back());
  Value oneHot = g.make<OneHotV2Op>(flat, Value(), b.getI32IntegerAttr(classes),
                                    b.getI32IntegerAttr(5), b.getBoolAttr(true));
  Value keep = g.make<NotEqualOp>(label, g.full(label, op.getIgnoreIndex()), -1);
  Value mask = g.make<CastOp>(keep, b.getI32IntegerAttr(0), b.getI32IntegerAttr(5));
  Value coef;
  if (Value dY = g.resultGrad(0)) {
    // x[label], 1 on ignored rows (whose one-hot row may be all zeros).
    int32_t last = static_cast<int32_t>(rankOf(x) - 1);
    Value picked = g.sumKeep(g.mul(x, oneHot), {last});
    Value safe = g.select(keep, picked, g.full(picked, 1.0));
    coef = g.scale(g.div(dY, safe), -1.0);
  }
  if (Value dMatch = g.resultGrad(1))
    coef = coef ? g.add(coef, dMatch) : dMatch;
  g.setGrad(0, g.mul(oneHot, g.mul(coef, mask)));
  return success();
}

static LogicalResult gradient(MeanOp op, GradientBuilder &g) {
  Value x = op.getX();
  double n = static_cast<double>(cast<RankedTensorType>(x.getType()).getNumElements());
  g.setGrad(0, g.mul(g.full(x, 1.0 / n), g.resultGrad(0)));
  return success();
}

/// dOut broadcast back over the reduced dims of x, times `factor`.
template <typename OpT> static LogicalResult reduceGradient(OpT op, GradientBuilder &g, bool mean) {
  Value x = op.getX(), dOut = g.resultGrad(0);
  int64_t rank = rankOf(x);
  SmallVector<int64_t> kept(shapeOf(x));
  double count = 1;
  llvm::SmallDenseSet<int64_t> dims;
  if (op.getReduceAll() || op.getDim().empty())
    for (int64_t d = 0; d < rank; ++d)
      dims.insert(d);
  else
    for (int32_t d : op.getDim())
      dims.insert(normalize(d, rank));
  for (int64_t d : dims) {
    count *= kept[d];
    kept[d] = 1;
  }
  Value expanded = g.mul(g.full(x, mean ? 1.0 / count : 1.0), g.reshape(dOut, kept));
  g.setGrad(0, expanded);
  return success();
}

static LogicalResult gradient(ReduceSumOp op, GradientBuilder &g) {
  return reduceGradient(op, g, /*mean=*/false);
}
static LogicalResult gradient(ReduceMeanOp op, GradientBuilder &g) {
  return reduceGradient(op, g, /*mean=*/true);
}

void attachElementwiseGradients(MLIRContext *ctx) {
  attachRules<ElementwiseAddOp, ElementwiseSubOp, ElementwiseMulOp, ElementwiseDivOp, ReluOp,
              Relu6Op, LeakyReluOp, SigmoidOp, TanhOp, GeluOp, SwishOp, SiluOp, HardSwishOp,
              SquareOp, ExpOp, LogOp, SqrtOp, AbsOp, ScaleOp, SoftmaxOp, LogSoftmaxOp,
              SoftmaxWithCrossEntropyOp, CrossEntropy2Op, MeanOp, ReduceSumOp, ReduceMeanOp>(ctx);
}
} // namespace mlir::pd

//===- NN.cpp - gradient rules: convolutions and pooling ------------------===//
//
// conv2d / depthwise_conv2d: the input's gradient is the transposed
// convolution of the output's gradient with the same filter; the filter's
// is a convolution of the input with the output's gradient, the batch taking
// the place of the channels (stride and dilation swap roles), cropped to the
// filter's size. pool2d: pd.pool2d_grad, which routes each output's gradient
// to its window.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

namespace mlir::pd {
namespace {
/// The explicit paddings {top, bottom, left, right} of a conv, or failure
/// for SAME / VALID forms the rule does not resolve.
FailureOr<std::array<int32_t, 4>> explicitPads(GradientBuilder &g, ArrayRef<int32_t> p,
                                               StringRef algorithm) {
  if (algorithm == "VALID")
    return std::array<int32_t, 4>{0, 0, 0, 0};
  if (algorithm != "EXPLICIT") {
    (void)(g.emitError() << "no gradient rule for padding_algorithm '" << algorithm << "' yet");
    return failure();
  }
  if (p.size() == 2)
    return std::array<int32_t, 4>{p[0], p[0], p[1], p[1]};
  return std::array<int32_t, 4>{p[0], p[1], p[2], p[3]};
}

template <typename ConvT> LogicalResult convGradient(ConvT op, GradientBuilder &g) {
  if (op.getDataFormat() == "NHWC")
    return g.emitError() << "no gradient rule for NHWC convolutions yet";
  FailureOr<std::array<int32_t, 4>> pads =
      explicitPads(g, op.getPaddings(), op.getPaddingAlgorithm());
  if (failed(pads))
    return failure();
  OpBuilder &b = g.getBuilder();
  Value x = op.getInput(), w = op.getFilter(), dOut = g.resultGrad(0);
  ArrayRef<int64_t> xs = shapeOf(x), ws = shapeOf(w);
  int32_t groups = op.getGroups();
  auto padsAttr = b.getDenseI32ArrayAttr(*pads);
  if (g.needs(0)) {
    SmallVector<int32_t> size = {static_cast<int32_t>(xs[2]), static_cast<int32_t>(xs[3])};
    g.setGrad(0, g.make<Conv2dTransposeOp>(
                     dOut, w, op.getStridesAttr(), padsAttr, b.getStringAttr("EXPLICIT"),
                     b.getI32IntegerAttr(groups), op.getDilationsAttr(), b.getStringAttr("NCHW"),
                     b.getDenseI32ArrayAttr({}), b.getDenseI32ArrayAttr(size)));
  }
  if (g.needs(1)) {
    // dW[o, ci, kh, kw] = sum_{n, oh, ow} dOut[n, o, oh, ow] *
    //   x[n, group(o) * C/g + ci, oh * s + kh * d - pad, ...]: a grouped
    // convolution of x laid out [C/g, g * N, H, W] with dOut laid out
    // [O, N, OH, OW] as the filter.
    int64_t n = xs[0], c = xs[1], cg = c / groups;
    Value xr = g.reshape(x, {n, groups, cg, xs[2], xs[3]});
    Value xt = g.reshape(g.transpose(xr, {2, 1, 0, 3, 4}), {cg, groups * n, xs[2], xs[3]});
    Value dt = g.transpose(dOut, {1, 0, 2, 3});
    Value full =
        g.make<Conv2dOp>(xt, dt, op.getDilationsAttr(), padsAttr, b.getStringAttr("EXPLICIT"),
                         b.getI32IntegerAttr(groups), op.getStridesAttr(), b.getStringAttr("NCHW"));
    ArrayRef<int64_t> fs = shapeOf(full);
    Value cropped = full;
    if (fs[2] != ws[2] || fs[3] != ws[3]) {
      cropped = g.make<SliceOp>(
          full, Value(), Value(), ValueRange(), ValueRange(), b.getDenseI32ArrayAttr({2, 3}),
          b.getDenseI32ArrayAttr({0, 0}),
          b.getDenseI32ArrayAttr({static_cast<int32_t>(ws[2]), static_cast<int32_t>(ws[3])}),
          b.getDenseI32ArrayAttr({}), b.getDenseI32ArrayAttr({}));
    }
    g.setGrad(1, g.transpose(cropped, {1, 0, 2, 3}));
  }
  return success();
}
} // namespace

static LogicalResult gradient(Conv2dOp op, GradientBuilder &g) { return convGradient(op, g); }
static LogicalResult gradient(DepthwiseConv2dOp op, GradientBuilder &g) {
  return convGradient(op, g);
}

static LogicalResult gradient(Pool2dOp op, GradientBuilder &g) {
  if (op.getDataFormat() == "NHWC")
    return g.emitError() << "no gradient rule for NHWC pooling yet";
  if (op.getCeilMode() || op.getPaddingAlgorithm() == "SAME")
    return g.emitError() << "no gradient rule for pool2d with ceil_mode or SAME padding yet";
  g.setGrad(0, g.make<Pool2dGradOp>(
                   op.getX(), op.getOut(), g.resultGrad(0), op.getPoolingTypeAttr(),
                   op.getKsizeAttr(), op.getGlobalPoolingAttr(), op.getStridesAttr(),
                   op.getPaddingsAttr(), op.getExclusiveAttr(), op.getAdaptiveAttr(),
                   op.getCeilModeAttr(), op.getDataFormatAttr(), op.getPaddingAlgorithmAttr()));
  return success();
}

void attachNNGradients(MLIRContext *ctx) {
  attachRules<Conv2dOp, DepthwiseConv2dOp, Pool2dOp>(ctx);
}
} // namespace mlir::pd

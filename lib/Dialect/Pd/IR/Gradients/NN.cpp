//===- NN.cpp - gradient rules: convolutions, pooling, embeddings --------===//
//
// conv2d / depthwise_conv2d: pd.conv2d_grad_input and pd.conv2d_grad_filter
// with the convolution's attributes (padding made explicit), which lower to
// oneDNN's backward-data and backward-weights primitives (or to loops where
// oneDNN does not apply, as for f64). pool2d: pd.pool2d_grad, which routes each output's gradient
// to its window. lookup_table(_v2): pd.lookup_table_v2_grad, which adds each
// id's row of the output's gradient to the table's row. batch_norm_train
// (a train step's batch_norm): pd.batch_norm_train_grad.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

namespace mlir::pd {
namespace {
constexpr int32_t kToNCHW[] = {0, 3, 1, 2}, kToNHWC[] = {0, 2, 3, 1};

/// conv2d / depthwise_conv2d. The gradient ops take NCHW operands and
/// explicit paddings: an NHWC convolution's gradients are computed on
/// transposed views (the filter is OIHW in both layouts), SAME and VALID
/// resolve to explicit paddings from the input size (pd-append-backward
/// runs on static shapes only).
template <typename ConvT> LogicalResult convGradient(ConvT op, GradientBuilder &g) {
  bool nhwc = op.getDataFormat() == "NHWC";
  Value x = op.getInput(), w = op.getFilter(), dOut = g.resultGrad(0);
  if (nhwc) {
    x = g.transpose(x, kToNCHW);
    dOut = g.transpose(dOut, kToNCHW);
  }
  ArrayRef<int64_t> xs = shapeOf(x), ws = shapeOf(w);
  std::array<int64_t, 4> pads =
      windowPads({xs[2], xs[3]}, {ws[2], ws[3]}, op.getStrides(), op.getDilations(),
                 op.getPaddings(), op.getPaddingAlgorithm());
  OpBuilder &b = g.getBuilder();
  SmallVector<int32_t> pads32(pads.begin(), pads.end());
  auto padsAttr = b.getDenseI32ArrayAttr(pads32);
  auto explicitAttr = b.getStringAttr("EXPLICIT"), nchw = b.getStringAttr("NCHW");
  if (g.needs(0)) {
    Value dx = g.make<Conv2dGradInputOp>(x, w, dOut, op.getStridesAttr(), padsAttr, explicitAttr,
                                         op.getGroupsAttr(), op.getDilationsAttr(), nchw);
    g.setGrad(0, nhwc ? g.transpose(dx, kToNHWC) : dx);
  }
  if (g.needs(1))
    g.setGrad(1, g.make<Conv2dGradFilterOp>(x, w, dOut, op.getStridesAttr(), padsAttr, explicitAttr,
                                            op.getGroupsAttr(), op.getDilationsAttr(), nchw));
  return success();
}
} // namespace

static LogicalResult gradient(Conv2dOp op, GradientBuilder &g) { return convGradient(op, g); }
static LogicalResult gradient(DepthwiseConv2dOp op, GradientBuilder &g) {
  return convGradient(op, g);
}

/// pool2d: pd.pool2d_grad over NCHW operands (an NHWC pool's on transposed
/// views); its lowering resolves SAME and VALID and takes ceil_mode's
/// partial windows from the output's size, as the forward does.
static LogicalResult gradient(Pool2dOp op, GradientBuilder &g) {
  bool nhwc = op.getDataFormat() == "NHWC";
  Value x = op.getX(), out = op.getOut(), dOut = g.resultGrad(0);
  if (nhwc) {
    x = g.transpose(x, kToNCHW);
    out = g.transpose(out, kToNCHW);
    dOut = g.transpose(dOut, kToNCHW);
  }
  Value dx = g.make<Pool2dGradOp>(
      x, out, dOut, op.getPoolingTypeAttr(), op.getKsizeAttr(), op.getGlobalPoolingAttr(),
      op.getStridesAttr(), op.getPaddingsAttr(), op.getExclusiveAttr(), op.getAdaptiveAttr(),
      op.getCeilModeAttr(), g.getBuilder().getStringAttr("NCHW"), op.getPaddingAlgorithmAttr());
  g.setGrad(0, nhwc ? g.transpose(dx, kToNHWC) : dx);
  return success();
}

static LogicalResult gradient(BatchNormTrainOp op, GradientBuilder &g) {
  // The statistics feed only the running averages, which take no gradient.
  if (g.resultGrad(1) || g.resultGrad(2))
    return g.emitError() << "no gradient rule through batch_norm_train's SavedMean or "
                            "SavedVariance";
  Value dy = g.resultGrad(0);
  if (!dy)
    return success();
  Type st = op.getScale().getType();
  auto grad = BatchNormTrainGradOp::create(
      g.getBuilder(), g.getLoc(), op.getX().getType(), st, st, op.getX(), op.getScale(),
      op.getSavedMean(), op.getSavedVariance(), dy, op.getEpsilonAttr(), op.getDataLayoutAttr());
  if (g.needs(0))
    g.setGrad(0, grad.getXGrad());
  if (g.needs(1))
    g.setGrad(1, grad.getScaleGrad());
  if (g.needs(2))
    g.setGrad(2, grad.getBiasGrad());
  return success();
}

static LogicalResult gradient(LookupTableV2Op op, GradientBuilder &g) {
  g.setGrad(0, g.make<LookupTableV2GradOp>(op.getW(), op.getIds(), g.resultGrad(0),
                                           op.getPaddingIdxAttr()));
  return success();
}

static LogicalResult gradient(LookupTableOp op, GradientBuilder &g) {
  // Ids [..., 1]: the v2 gradient of the ids without their trailing dim.
  Value ids = g.reshape(op.getIds(), shapeOf(op.getIds()).drop_back());
  g.setGrad(0,
            g.make<LookupTableV2GradOp>(op.getW(), ids, g.resultGrad(0), op.getPaddingIdxAttr()));
  return success();
}

void attachNNGradients(MLIRContext *ctx) {
  attachRules<Conv2dOp, DepthwiseConv2dOp, Pool2dOp, LookupTableV2Op, LookupTableOp,
              BatchNormTrainOp>(ctx);
}
} // namespace mlir::pd

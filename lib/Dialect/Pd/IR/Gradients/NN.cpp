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
  auto padsAttr = b.getDenseI32ArrayAttr(*pads);
  auto explicitAttr = b.getStringAttr("EXPLICIT");
  if (g.needs(0))
    g.setGrad(0, g.make<Conv2dGradInputOp>(x, w, dOut, op.getStridesAttr(), padsAttr, explicitAttr,
                                           op.getGroupsAttr(), op.getDilationsAttr(),
                                           op.getDataFormatAttr()));
  if (g.needs(1))
    g.setGrad(1, g.make<Conv2dGradFilterOp>(x, w, dOut, op.getStridesAttr(), padsAttr, explicitAttr,
                                            op.getGroupsAttr(), op.getDilationsAttr(),
                                            op.getDataFormatAttr()));
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

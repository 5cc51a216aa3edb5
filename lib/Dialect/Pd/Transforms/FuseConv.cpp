//===- FuseConv.cpp - the pd-fuse-conv pass -------------------------------===//
//
// C++ patterns rather than DRR: folding batch_norm rewrites weight data.
//
//===----------------------------------------------------------------------===//

#include "Constants.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::pd {
#define GEN_PASS_DEF_PDFUSECONVPASS
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h.inc"

namespace {

template <typename ConvOp>
FusedConv2dOp makeFused(PatternRewriter &rewriter, ConvOp conv, Type resultType, Value filter,
                        Value bias) {
  return FusedConv2dOp::create(
      rewriter, conv.getLoc(), resultType, conv.getInput(), filter, bias,
      /*ResidualData=*/Value(), conv.getStridesAttr(), conv.getPaddingsAttr(),
      conv.getPaddingAlgorithmAttr(), conv.getGroupsAttr(), conv.getDilationsAttr(),
      conv.getDataFormatAttr(), StringAttr(), FloatAttr(), FloatAttr(), BoolAttr());
}

/// The per-channel `y = a * x + c` of an inference batch_norm or an
/// affine_channel whose parameters are constants.
struct ChannelAffine {
  std::vector<double> a, c;
};

std::optional<ChannelAffine> channelAffine(BatchNormOp bn) {
  if (bn.getDataLayout() == "NHWC")
    return std::nullopt;
  auto scale = constantData(bn.getScale()), shift = constantData(bn.getBias());
  auto mean = constantData(bn.getMean()), var = constantData(bn.getVariance());
  if (!scale || !shift || !mean || !var)
    return std::nullopt;
  ChannelAffine f;
  double eps = bn.getEpsilon().convertToDouble();
  for (size_t k = 0; k < scale->size(); ++k) {
    f.a.push_back((*scale)[k] / std::sqrt(double((*var)[k]) + eps));
    f.c.push_back((*shift)[k] - (*mean)[k] * f.a.back());
  }
  return f;
}

std::optional<ChannelAffine> channelAffine(AffineChannelOp ac) {
  if (ac.getDataLayout() == "NHWC")
    return std::nullopt;
  auto scale = constantData(ac.getScale()), bias = constantData(ac.getBias());
  if (!scale || !bias || scale->size() != bias->size())
    return std::nullopt;
  return ChannelAffine{std::vector<double>(scale->begin(), scale->end()),
                       std::vector<double>(bias->begin(), bias->end())};
}

/// conv2d / depthwise_conv2d / fused_conv2d (bias only) followed by a
/// constant per-channel affine (batch_norm in inference, affine_channel):
/// W' = W * a per output channel, b' = b * a + c -> fused_conv2d.
template <typename RootOp> struct FoldChannelAffine : OpRewritePattern<RootOp> {
  using OpRewritePattern<RootOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(RootOp root, PatternRewriter &rewriter) const override {
    Operation *conv = root.getX().getDefiningOp();
    if (!conv || !conv->hasOneUse())
      return failure();
    Value filter, bias;
    StringRef format;
    auto fusedConv = dyn_cast<FusedConv2dOp>(conv);
    if (auto c = dyn_cast<Conv2dOp>(conv)) {
      filter = c.getFilter();
      format = c.getDataFormat();
    } else if (auto c = dyn_cast<DepthwiseConv2dOp>(conv)) {
      filter = c.getFilter();
      format = c.getDataFormat();
    } else if (fusedConv && !fusedConv.getResidualData() && fusedConv.getFuseActivation().empty()) {
      filter = fusedConv.getFilter();
      bias = fusedConv.getBias();
      format = fusedConv.getDataFormat();
    } else {
      return failure();
    }
    std::optional<ChannelAffine> f = channelAffine(root);
    auto w = constantData(filter);
    auto ftype = cast<RankedTensorType>(filter.getType());
    int64_t outC = ftype.getDimSize(0);
    if (format == "NHWC" || !f || !w || (int64_t)f->a.size() != outC)
      return failure();
    std::vector<float> b(outC, 0.0f);
    if (bias) {
      auto bd = constantData(bias);
      if (!bd || (int64_t)bd->size() != outC)
        return failure();
      b = *bd;
    }
    int64_t per = ftype.getNumElements() / outC;
    for (int64_t k = 0; k < outC; ++k) {
      for (int64_t i = 0; i < per; ++i)
        (*w)[k * per + i] = float((*w)[k * per + i] * f->a[k]);
      b[k] = float(b[k] * f->a[k] + f->c[k]);
    }
    std::string tag = std::is_same_v<RootOp, BatchNormOp> ? ".bn_folded" : ".affine_folded";
    Value newFilter = newConstant(rewriter, conv, globalName(filter, "conv") + tag, ftype, *w);
    Value newBias = newConstant(rewriter, conv, globalName(root.getBias(), "conv") + tag,
                                RankedTensorType::get({outC}, rewriter.getF32Type()), b);
    if (fusedConv) {
      rewriter.modifyOpInPlace(fusedConv, [&] {
        fusedConv.getFilterMutable().assign(newFilter);
        fusedConv.getBiasMutable().assign(newBias);
      });
      rewriter.replaceOp(root, fusedConv.getResult());
      return success();
    }
    rewriter.setInsertionPoint(root);
    FusedConv2dOp fused = isa<Conv2dOp>(conv) ? makeFused(rewriter, cast<Conv2dOp>(conv),
                                                          root.getType(), newFilter, newBias)
                                              : makeFused(rewriter, cast<DepthwiseConv2dOp>(conv),
                                                          root.getType(), newFilter, newBias);
    rewriter.replaceOp(root, fused.getResult());
    rewriter.eraseOp(conv);
    return success();
  }
};

/// conv + elementwise_add(constant [C], axis 1) -> fused_conv2d with Bias.
template <typename ConvOp> struct FuseBiasAdd : OpRewritePattern<ElementwiseAddOp> {
  using OpRewritePattern<ElementwiseAddOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ElementwiseAddOp add, PatternRewriter &rewriter) const override {
    auto conv = add.getX().template getDefiningOp<ConvOp>();
    auto bias = dyn_cast<RankedTensorType>(add.getY().getType());
    if (!conv || !conv->hasOneUse() || add.getAxis() != 1 || !bias || bias.getRank() != 1 ||
        conv.getDataFormat() == "NHWC" || !constantData(add.getY()) ||
        bias.getDimSize(0) != cast<RankedTensorType>(conv.getFilter().getType()).getDimSize(0))
      return failure();
    auto fused = makeFused(rewriter, conv, add.getType(), conv.getFilter(), add.getY());
    rewriter.replaceOp(add, fused.getResult());
    rewriter.eraseOp(conv);
    return success();
  }
};

/// fused_conv2d + elementwise_add(same-shaped tensor) -> ResidualData.
struct FuseResidual : OpRewritePattern<ElementwiseAddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ElementwiseAddOp add, PatternRewriter &rewriter) const override {
    for (int side = 0; side < 2; ++side) {
      Value mine = side ? add.getY() : add.getX(), other = side ? add.getX() : add.getY();
      auto fused = mine.getDefiningOp<FusedConv2dOp>();
      if (!fused || !fused->hasOneUse() || fused.getResidualData() ||
          !fused.getFuseActivation().empty() || other.getType() != add.getType() ||
          mine.getType() != add.getType())
        continue;
      // The residual must be defined before the conv that will read it.
      if (Operation *def = other.getDefiningOp())
        if (def->getBlock() == fused->getBlock() && fused->isBeforeInBlock(def))
          continue;
      rewriter.modifyOpInPlace(fused, [&] {
        fused.getResidualDataMutable().assign(other);
        fused.setFuseResidualConnection(true);
      });
      rewriter.replaceOp(add, fused.getResult());
      return success();
    }
    return failure();
  }
};

/// A conv2d without bias (no batch_norm after it) as a fused_conv2d, so an
/// activation can join it; null when `v` is not one such conv read only
/// there. A depthwise_conv2d without bias stays itself (its activation
/// apart), so --quantize-exclude=depthwise_conv2d still finds it.
FusedConv2dOp asFusedConv(PatternRewriter &rewriter, Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || !def->hasOneUse())
    return {};
  if (auto fused = dyn_cast<FusedConv2dOp>(def))
    return fused;
  auto conv = dyn_cast<Conv2dOp>(def);
  if (!conv)
    return {};
  rewriter.setInsertionPoint(conv);
  FusedConv2dOp fused = makeFused(rewriter, conv, conv.getType(), conv.getFilter(), Value());
  rewriter.replaceOp(conv, fused.getResult());
  return fused;
}

/// (fused_)conv2d + activation -> fuse_activation.
template <typename ActOp> struct FuseActivation : OpRewritePattern<ActOp> {
  FuseActivation(MLIRContext *ctx, StringRef name) : OpRewritePattern<ActOp>(ctx), name(name) {}
  LogicalResult matchAndRewrite(ActOp act, PatternRewriter &rewriter) const override {
    if constexpr (std::is_same_v<ActOp, HardSwishOp>) {
      if (!act.getThreshold().isExactlyValue(6.0) || !act.getScale().isExactlyValue(6.0) ||
          !act.getOffset().isExactlyValue(3.0))
        return failure();
    }
    if constexpr (std::is_same_v<ActOp, SwishOp>) {
      if (!act.getBeta().isExactlyValue(1.0))
        return failure();
    }
    // Last: it rewrites a plain conv (which then has no activation).
    FusedConv2dOp fused = asFusedConv(rewriter, act.getX());
    if (!fused || !fused.getFuseActivation().empty())
      return failure();
    double alpha = 0.0;
    if constexpr (std::is_same_v<ActOp, Relu6Op>)
      alpha = act.getThreshold().convertToDouble();
    if constexpr (std::is_same_v<ActOp, LeakyReluOp>)
      alpha = act.getAlpha().convertToDouble();
    rewriter.modifyOpInPlace(fused, [&] {
      fused.setFuseActivation(name);
      fused.setFuseAlpha(APFloat(float(alpha)));
    });
    rewriter.replaceOp(act, fused.getResult());
    return success();
  }
  std::string name;
};

/// fused_conv2d + clip(min 0, max M > 0) -> relu6 with threshold M (ONNX
/// exports ReLU6 as Clip); clip(0, +inf) -> relu.
struct FuseClip : OpRewritePattern<ClipOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ClipOp clip, PatternRewriter &rewriter) const override {
    auto fused = clip.getX().getDefiningOp<FusedConv2dOp>();
    float lo = clip.getMin().convertToFloat(), hi = clip.getMax().convertToFloat();
    if (!fused || !fused->hasOneUse() || !fused.getFuseActivation().empty() || clip.getMinInput() ||
        clip.getMaxInput() || lo != 0.f || !(hi > 0.f))
      return failure();
    bool relu = std::isinf(hi);
    rewriter.modifyOpInPlace(fused, [&] {
      fused.setFuseActivation(relu ? "relu" : "relu6");
      fused.setFuseAlpha(APFloat(relu ? 0.f : hi));
    });
    rewriter.replaceOp(clip, fused.getResult());
    return success();
  }
};

struct PdFuseConvPass : impl::PdFuseConvPassBase<PdFuseConvPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<FoldChannelAffine<BatchNormOp>, FoldChannelAffine<AffineChannelOp>,
                 FuseBiasAdd<Conv2dOp>, FuseBiasAdd<DepthwiseConv2dOp>, FuseResidual, FuseClip>(
        ctx);
    patterns.add<FuseActivation<ReluOp>>(ctx, "relu");
    patterns.add<FuseActivation<Relu6Op>>(ctx, "relu6");
    patterns.add<FuseActivation<LeakyReluOp>>(ctx, "leaky_relu");
    patterns.add<FuseActivation<SigmoidOp>>(ctx, "sigmoid");
    patterns.add<FuseActivation<HardSwishOp>>(ctx, "hard_swish");
    patterns.add<FuseActivation<SwishOp>>(ctx, "swish");
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    eraseUnusedGlobals(getOperation());
  }
};
} // namespace
} // namespace mlir::pd

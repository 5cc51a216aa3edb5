//===- FuseConv.cpp - the pd-fuse-conv pass -------------------------------===//
//
// C++ patterns rather than DRR: folding batch_norm rewrites weight data.
//
//===----------------------------------------------------------------------===//

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
/// The f32 data of a constant global read by `v`, if any.
std::optional<std::vector<float>> constantData(Value v) {
  auto load = v.getDefiningOp<ml_program::GlobalLoadConstOp>();
  if (!load)
    return std::nullopt;
  auto global =
      SymbolTable::lookupNearestSymbolFrom<ml_program::GlobalOp>(load, load.getGlobalAttr());
  if (!global || !global.getValueAttr())
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(global.getType());
  if (!type || !type.getElementType().isF32() || !type.hasStaticShape())
    return std::nullopt;
  Attribute value = *global.getValue();
  if (auto res = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = res.getRawHandle().getBlob();
    if (!blob || blob->getData().size() != size_t(type.getNumElements()) * 4)
      return std::nullopt;
    std::vector<float> out(type.getNumElements());
    std::memcpy(out.data(), blob->getData().data(), out.size() * 4);
    return out;
  }
  if (auto dense = dyn_cast<DenseFPElementsAttr>(value)) {
    std::vector<float> out;
    for (APFloat f : dense.getValues<APFloat>())
      out.push_back(f.convertToFloat());
    return out;
  }
  return std::nullopt;
}

/// A new private global holding `data`, loaded before `before`.
Value newConstant(PatternRewriter &rewriter, Operation *before, StringRef base,
                  RankedTensorType type, ArrayRef<float> data) {
  auto module = before->getParentOfType<ModuleOp>();
  std::string name = base.str();
  for (int i = 1; module.lookupSymbol(name); ++i)
    name = (base + "_" + Twine(i)).str();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  std::string key = name;
  for (char &c : key)
    if (!isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.')
      c = '_';
  auto blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      ArrayRef<char>(reinterpret_cast<const char *>(data.data()), data.size() * 4), 64);
  auto global =
      ml_program::GlobalOp::create(rewriter, before->getLoc(), name, type, false,
                                   DenseResourceElementsAttr::get(type, key, std::move(blob)),
                                   rewriter.getStringAttr("private"));
  rewriter.setInsertionPoint(before);
  return ml_program::GlobalLoadConstOp::create(rewriter, before->getLoc(), type,
                                               SymbolRefAttr::get(global));
}

std::string globalName(Value v) {
  auto load = v.getDefiningOp<ml_program::GlobalLoadConstOp>();
  return load ? load.getGlobal().getLeafReference().str() : "conv";
}

template <typename ConvOp>
FusedConv2dOp makeFused(PatternRewriter &rewriter, ConvOp conv, Type resultType, Value filter,
                        Value bias) {
  return FusedConv2dOp::create(
      rewriter, conv.getLoc(), resultType, conv.getInput(), filter, bias,
      /*ResidualData=*/Value(), conv.getStridesAttr(), conv.getPaddingsAttr(),
      conv.getPaddingAlgorithmAttr(), conv.getGroupsAttr(), conv.getDilationsAttr(),
      conv.getDataFormatAttr(), StringAttr(), FloatAttr(), FloatAttr(), BoolAttr());
}

/// conv + batch_norm(is_test) with constant operands -> fused_conv2d.
template <typename ConvOp> struct FoldBatchNorm : OpRewritePattern<BatchNormOp> {
  using OpRewritePattern<BatchNormOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormOp bn, PatternRewriter &rewriter) const override {
    auto conv = bn.getX().template getDefiningOp<ConvOp>();
    if (!conv || !conv->hasOneUse() || conv.getDataFormat() == "NHWC" ||
        bn.getDataLayout() == "NHWC")
      return failure();
    auto filter = constantData(conv.getFilter());
    auto scale = constantData(bn.getScale()), shift = constantData(bn.getBias());
    auto mean = constantData(bn.getMean()), var = constantData(bn.getVariance());
    if (!filter || !scale || !shift || !mean || !var)
      return failure();
    auto ftype = cast<RankedTensorType>(conv.getFilter().getType());
    int64_t outC = ftype.getDimSize(0);
    if ((int64_t)scale->size() != outC)
      return failure();
    int64_t per = ftype.getNumElements() / outC;
    double eps = bn.getEpsilon().convertToDouble();
    std::vector<float> w(*filter), b(outC);
    for (int64_t c = 0; c < outC; ++c) {
      double a = (*scale)[c] / std::sqrt(double((*var)[c]) + eps);
      for (int64_t i = 0; i < per; ++i)
        w[c * per + i] = float((*filter)[c * per + i] * a);
      b[c] = float((*shift)[c] - (*mean)[c] * a);
    }
    Value newFilter =
        newConstant(rewriter, conv, globalName(conv.getFilter()) + ".bn_folded", ftype, w);
    Value newBias = newConstant(rewriter, conv, globalName(bn.getBias()) + ".bn_folded",
                                RankedTensorType::get({outC}, rewriter.getF32Type()), b);
    rewriter.setInsertionPoint(bn);
    auto fused = makeFused(rewriter, conv, bn.getType(), newFilter, newBias);
    rewriter.replaceOp(bn, fused.getResult());
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

/// fused_conv2d + activation -> fuse_activation.
template <typename ActOp> struct FuseActivation : OpRewritePattern<ActOp> {
  FuseActivation(MLIRContext *ctx, StringRef name) : OpRewritePattern<ActOp>(ctx), name(name) {}
  LogicalResult matchAndRewrite(ActOp act, PatternRewriter &rewriter) const override {
    auto fused = act.getX().template getDefiningOp<FusedConv2dOp>();
    if (!fused || !fused->hasOneUse() || !fused.getFuseActivation().empty())
      return failure();
    double alpha = 0.0;
    if constexpr (std::is_same_v<ActOp, Relu6Op>)
      alpha = act.getThreshold().convertToDouble();
    if constexpr (std::is_same_v<ActOp, LeakyReluOp>)
      alpha = act.getAlpha().convertToDouble();
    if constexpr (std::is_same_v<ActOp, HardSwishOp>) {
      if (!act.getThreshold().isExactlyValue(6.0) || !act.getScale().isExactlyValue(6.0) ||
          !act.getOffset().isExactlyValue(3.0))
        return failure();
    }
    if constexpr (std::is_same_v<ActOp, SwishOp>) {
      if (!act.getBeta().isExactlyValue(1.0))
        return failure();
    }
    rewriter.modifyOpInPlace(fused, [&] {
      fused.setFuseActivation(name);
      fused.setFuseAlpha(APFloat(float(alpha)));
    });
    rewriter.replaceOp(act, fused.getResult());
    return success();
  }
  std::string name;
};

struct PdFuseConvPass : impl::PdFuseConvPassBase<PdFuseConvPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<FoldBatchNorm<Conv2dOp>, FoldBatchNorm<DepthwiseConv2dOp>, FuseBiasAdd<Conv2dOp>,
                 FuseBiasAdd<DepthwiseConv2dOp>, FuseResidual>(ctx);
    patterns.add<FuseActivation<ReluOp>>(ctx, "relu");
    patterns.add<FuseActivation<Relu6Op>>(ctx, "relu6");
    patterns.add<FuseActivation<LeakyReluOp>>(ctx, "leaky_relu");
    patterns.add<FuseActivation<SigmoidOp>>(ctx, "sigmoid");
    patterns.add<FuseActivation<HardSwishOp>>(ctx, "hard_swish");
    patterns.add<FuseActivation<SwishOp>>(ctx, "swish");
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // Weights the fusions replaced are no longer read.
    ModuleOp module = getOperation();
    for (auto global : llvm::make_early_inc_range(module.getOps<ml_program::GlobalOp>()))
      if (SymbolTable::symbolKnownUseEmpty(global, module))
        global.erase();
  }
};
} // namespace
} // namespace mlir::pd

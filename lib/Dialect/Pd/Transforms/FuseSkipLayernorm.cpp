//===- FuseSkipLayernorm.cpp - the pd-fuse-skip-layernorm pass ------------===//

#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::pd {
#define GEN_PASS_DEF_PDFUSESKIPLAYERNORMPASS
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h.inc"

namespace {
struct FuseSkipLayernorm : OpRewritePattern<LayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LayerNormOp ln, PatternRewriter &rewriter) const override {
    auto add = ln.getX().getDefiningOp<ElementwiseAddOp>();
    auto type = cast<RankedTensorType>(ln.getType());
    if (!add || !add->hasOneUse() || !ln.getScale() || !ln.getBias() ||
        ln.getBeginNormAxis() != type.getRank() - 1 ||
        add.getX().getType() != add.getY().getType() || add.getX().getType() != type)
      return failure();
    auto fused =
        SkipLayernormOp::create(rewriter, ln.getLoc(), type, add.getX(), add.getY(), ln.getScale(),
                                ln.getBias(), ln.getEpsilonAttr(), rewriter.getI32IntegerAttr(-1));
    rewriter.replaceOp(ln, fused.getResult());
    rewriter.eraseOp(add);
    return success();
  }
};

struct PdFuseSkipLayernormPass : impl::PdFuseSkipLayernormPassBase<PdFuseSkipLayernormPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseSkipLayernorm>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::pd

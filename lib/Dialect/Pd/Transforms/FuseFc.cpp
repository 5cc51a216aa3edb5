//===- FuseFc.cpp - the pd-fuse-fc pass -----------------------------------===//

#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::pd {
#define GEN_PASS_DEF_PDFUSEFCPASS
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h.inc"

namespace {
bool isConstant(Value v) { return v.getDefiningOp<ml_program::GlobalLoadConstOp>() != nullptr; }

/// matmul/mul + elementwise_add(bias [N]) -> fc.
struct FuseMatmulBias : OpRewritePattern<ElementwiseAddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ElementwiseAddOp add, PatternRewriter &rewriter) const override {
    Operation *mm = add.getX().getDefiningOp();
    if (!mm || !mm->hasOneUse())
      return failure();
    Value x, w;
    int64_t numCol;
    if (auto m = dyn_cast<MatmulV2Op>(mm)) {
      if (m.getTransX() || m.getTransY())
        return failure();
      x = m.getX(), w = m.getY();
      numCol = cast<RankedTensorType>(x.getType()).getRank() - 1;
    } else if (auto m = dyn_cast<MulOp>(mm)) {
      if (m.getYNumColDims() != 1)
        return failure();
      x = m.getX(), w = m.getY();
      numCol = m.getXNumColDims();
    } else {
      return failure();
    }
    auto wt = cast<RankedTensorType>(w.getType());
    auto bt = cast<RankedTensorType>(add.getY().getType());
    auto out = cast<RankedTensorType>(add.getType());
    int64_t axis = add.getAxis();
    if (wt.getRank() != 2 || !isConstant(w) || !isConstant(add.getY()) || bt.getRank() != 1 ||
        bt.getDimSize(0) != wt.getDimSize(1) || numCol < 1 ||
        !(axis == -1 || axis == out.getRank() - 1))
      return failure();
    auto fc = FcOp::create(rewriter, add.getLoc(), add.getType(), x, w, add.getY(),
                           rewriter.getI32IntegerAttr(numCol), StringAttr(), BoolAttr());
    rewriter.replaceOp(add, fc.getResult());
    rewriter.eraseOp(mm);
    return success();
  }
};

template <typename ActOp> struct FuseFcActivation : OpRewritePattern<ActOp> {
  FuseFcActivation(MLIRContext *ctx, StringRef name) : OpRewritePattern<ActOp>(ctx), name(name) {}
  LogicalResult matchAndRewrite(ActOp act, PatternRewriter &rewriter) const override {
    auto fc = act.getX().template getDefiningOp<FcOp>();
    if (!fc || !fc->hasOneUse() || !fc.getActivationType().empty())
      return failure();
    if constexpr (std::is_same_v<ActOp, GeluOp>)
      if (act.getApproximate())
        return failure();
    rewriter.modifyOpInPlace(fc, [&] { fc.setActivationType(name); });
    rewriter.replaceOp(act, fc.getResult());
    return success();
  }
  std::string name;
};

struct PdFuseFcPass : impl::PdFuseFcPassBase<PdFuseFcPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseMatmulBias>(&getContext());
    patterns.add<FuseFcActivation<ReluOp>>(&getContext(), "relu");
    patterns.add<FuseFcActivation<GeluOp>>(&getContext(), "gelu");
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::pd

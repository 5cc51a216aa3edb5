//===- FuseFc.cpp - the pd-fuse-fc pass -----------------------------------===//

#include "Constants.h"
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
    // The product may be either operand (ONNX exports bias + x @ W).
    Value prod = add.getX(), bias = add.getY();
    if (!isa_and_nonnull<MatmulV2Op, MulOp>(prod.getDefiningOp()) && add.getAxis() == -1 &&
        add.getType() == add.getY().getType())
      std::swap(prod, bias);
    Operation *mm = prod.getDefiningOp();
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
    auto bt = cast<RankedTensorType>(bias.getType());
    auto out = cast<RankedTensorType>(add.getType());
    int64_t axis = add.getAxis();
    if (wt.getRank() != 2 || !isConstant(w) || !isConstant(bias) || bt.getRank() != 1 ||
        bt.getDimSize(0) != wt.getDimSize(1) || numCol < 1 ||
        !(axis == -1 || axis == out.getRank() - 1))
      return failure();
    // Named after both: the add's output variable first (what the fc writes).
    Location loc = rewriter.getFusedLoc({add.getLoc(), mm->getLoc()});
    auto fc = FcOp::create(rewriter, loc, add.getType(), x, w, bias,
                           rewriter.getI32IntegerAttr(numCol), StringAttr(), BoolAttr());
    rewriter.replaceOp(add, fc.getResult());
    rewriter.eraseOp(mm);
    return success();
  }
};

/// The value of a one-element f32 constant, if `v` is one.
std::optional<float> scalarConstant(Value v) {
  std::optional<std::vector<float>> d = constantData(v);
  if (!d || d->size() != 1)
    return std::nullopt;
  return (*d)[0];
}

/// x * (erf(x / sqrt(2)) + 1) * 0.5, the exact GELU as exporters write it
/// (operands of the commutative ops in either order), -> gelu.
struct FuseErfGelu : OpRewritePattern<ElementwiseMulOp> {
  using OpRewritePattern::OpRewritePattern;
  static bool near(std::optional<float> v, double want) {
    return v && std::abs(*v - want) <= 1e-4 * std::abs(want);
  }
  LogicalResult matchAndRewrite(ElementwiseMulOp outer, PatternRewriter &rewriter) const override {
    // outer = inner * 0.5
    auto [innerV, half] = std::pair{outer.getX(), outer.getY()};
    if (!near(scalarConstant(half), 0.5))
      std::swap(innerV, half);
    auto inner = innerV.getDefiningOp<ElementwiseMulOp>();
    if (!inner || !inner->hasOneUse() || !near(scalarConstant(half), 0.5))
      return failure();
    // inner = x * (erf(x / c) + 1)
    for (auto [x, plusOne] :
         {std::pair{inner.getX(), inner.getY()}, {inner.getY(), inner.getX()}}) {
      auto add = plusOne.getDefiningOp<ElementwiseAddOp>();
      if (!add || !add->hasOneUse())
        continue;
      Value erfV = add.getX(), one = add.getY();
      if (!near(scalarConstant(one), 1.0))
        std::swap(erfV, one);
      auto erf = erfV.getDefiningOp<ErfOp>();
      if (!erf || !erf->hasOneUse() || !near(scalarConstant(one), 1.0))
        continue;
      auto div = erf.getX().getDefiningOp<ElementwiseDivOp>();
      if (!div || !div->hasOneUse() || div.getX() != x ||
          !near(scalarConstant(div.getY()), 1.4142135623730951) || x.getType() != outer.getType())
        continue;
      rewriter.replaceOpWithNewOp<GeluOp>(outer, outer.getType(), x, BoolAttr());
      return success();
    }
    return failure();
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
    patterns.add<FuseMatmulBias, FuseErfGelu>(&getContext());
    patterns.add<FuseFcActivation<ReluOp>>(&getContext(), "relu");
    patterns.add<FuseFcActivation<GeluOp>>(&getContext(), "gelu");
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::pd

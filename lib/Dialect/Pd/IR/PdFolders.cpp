//===- PdFolders.cpp - folders and canonicalization of pd ops ------------===//
//
// Identities that hold at inference time (assign, scale 1/0, dropout in
// upscale_in_train mode, identity transposes and reshapes), constant shapes,
// and rewrites that merge chains of transposes and reshapes.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::pd;

/// X itself when the op only restates it (same type on both sides).
static OpFoldResult sameValue(Value x, Value result) {
  return x.getType() == result.getType() ? OpFoldResult(x) : OpFoldResult();
}

OpFoldResult AssignOp::fold(FoldAdaptor) { return sameValue(getX(), getOut()); }

OpFoldResult ScaleOp::fold(FoldAdaptor) {
  if (getScaleTensor() || !getScale().isExactlyValue(1.0) || !getBias().isZero())
    return {};
  return sameValue(getX(), getOut());
}

OpFoldResult CastOp::fold(FoldAdaptor) { return sameValue(getX(), getOut()); }

OpFoldResult DropoutOp::fold(FoldAdaptor) {
  // At inference upscale_in_train is the identity; downgrade_in_infer scales
  // by (1 - p), which is the identity only for p = 0.
  bool identity = getDropoutImplementation() == "upscale_in_train" || getDropoutProb().isZero();
  return getIsTest() && identity ? sameValue(getX(), getOut()) : OpFoldResult();
}

OpFoldResult Transpose2Op::fold(FoldAdaptor) {
  for (auto [i, p] : llvm::enumerate(getAxis()))
    if ((int64_t)i != p)
      return {};
  return sameValue(getX(), getOut());
}

static bool staticSame(Value x, Value result) {
  auto t = cast<RankedTensorType>(x.getType());
  return t.hasStaticShape() && t == result.getType();
}

OpFoldResult Reshape2Op::fold(FoldAdaptor) {
  if (getShapeInput() || !getShapeTensor().empty() || !staticSame(getX(), getOut()))
    return {};
  return getX();
}

OpFoldResult Squeeze2Op::fold(FoldAdaptor) { return sameValue(getX(), getOut()); }

OpFoldResult Unsqueeze2Op::fold(FoldAdaptor) {
  return getAxesTensor() || !getAxesTensorList().empty() ? OpFoldResult()
                                                         : sameValue(getX(), getOut());
}

OpFoldResult FlattenContiguousRangeOp::fold(FoldAdaptor) { return sameValue(getX(), getOut()); }

OpFoldResult ExpandV2Op::fold(FoldAdaptor) {
  if (getShapeInput() || !getExpandShapesTensor().empty() || !staticSame(getX(), getOut()))
    return {};
  return getX();
}

OpFoldResult TileOp::fold(FoldAdaptor) {
  if (getRepeatTimesInput() || !getRepeatTimesTensor().empty() ||
      !llvm::all_of(getRepeatTimes(), [](int32_t r) { return r == 1; }))
    return {};
  return sameValue(getX(), getOut());
}

OpFoldResult ShapeOp::fold(FoldAdaptor) {
  auto in = cast<RankedTensorType>(getInput().getType());
  if (!in.hasStaticShape())
    return {};
  SmallVector<int32_t> dims(in.getShape().begin(), in.getShape().end());
  return DenseIntElementsAttr::get(cast<ShapedType>(getOut().getType()), ArrayRef<int32_t>(dims));
}

OpFoldResult FillConstantOp::fold(FoldAdaptor) {
  auto type = cast<RankedTensorType>(getOut().getType());
  if (getValueTensor() || getShapeTensor() || !getShapeTensorList().empty() ||
      !type.hasStaticShape() || !getStrValue().empty())
    return {};
  Type elem = type.getElementType();
  double v = getValue().convertToDouble();
  if (auto f = dyn_cast<FloatType>(elem))
    return DenseElementsAttr::get(type, Attribute(FloatAttr::get(f, v)));
  if (auto i = dyn_cast<IntegerType>(elem))
    return DenseElementsAttr::get(type, Attribute(IntegerAttr::get(i, static_cast<int64_t>(v))));
  return {};
}

namespace {
/// transpose2(transpose2(x, p), q) -> transpose2(x, p o q).
struct MergeTransposes : OpRewritePattern<Transpose2Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Transpose2Op op, PatternRewriter &rewriter) const override {
    auto inner = op.getX().getDefiningOp<Transpose2Op>();
    if (!inner)
      return failure();
    SmallVector<int32_t> perm;
    for (int32_t q : op.getAxis())
      perm.push_back(inner.getAxis()[q]);
    auto merged = Transpose2Op::create(rewriter, op.getLoc(), op.getType(), inner.getX(),
                                       rewriter.getDenseI32ArrayAttr(perm), op.getDataFormatAttr());
    rewriter.replaceOp(op, merged.getResult());
    return success();
  }
};

/// reshape2(reshape2(x)) -> reshape2(x) when the outer result is static.
struct MergeReshapes : OpRewritePattern<Reshape2Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Reshape2Op op, PatternRewriter &rewriter) const override {
    auto inner = op.getX().getDefiningOp<Reshape2Op>();
    auto type = cast<RankedTensorType>(op.getType());
    if (!inner || !type.hasStaticShape() || op.getShapeInput() || !op.getShapeTensor().empty())
      return failure();
    SmallVector<int32_t> shape(type.getShape().begin(), type.getShape().end());
    auto merged =
        Reshape2Op::create(rewriter, op.getLoc(), type, inner.getX(), /*Shape=*/Value(),
                           /*ShapeTensor=*/ValueRange(), rewriter.getDenseI32ArrayAttr(shape));
    rewriter.replaceOp(op, merged.getResult());
    return success();
  }
};
} // namespace

void Transpose2Op::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *ctx) {
  results.add<MergeTransposes>(ctx);
}

void Reshape2Op::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *ctx) {
  results.add<MergeReshapes>(ctx);
}

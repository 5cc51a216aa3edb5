//===- PdFolders.cpp - folders and canonicalization of pd ops ------------===//
//
// Identities that hold at inference time (assign, scale 1/0, dropout in
// upscale_in_train mode, identity transposes and reshapes), constant shapes,
// and rewrites that merge chains of transposes and reshapes. Small integer
// constants fold through slice, concat, cast and elementwise add/sub/mul,
// and a reshape2 whose shape operands are constants takes them as its
// attribute: the shape -> slice -> arithmetic -> reshape2 chains 2.x
// programs compute their reshapes with become static shapes once the input
// shape is bound.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::pd;

/// X itself when the op only restates it (same type on both sides).
static OpFoldResult sameValue(Value x, Value result) {
  return x.getType() == result.getType() ? OpFoldResult(x) : OpFoldResult();
}

static bool staticSame(Value x, Value result) {
  auto t = cast<RankedTensorType>(x.getType());
  return t.hasStaticShape() && t == result.getType();
}

OpFoldResult AssignOp::fold(FoldAdaptor) { return sameValue(getX(), getOut()); }

OpFoldResult ScaleOp::fold(FoldAdaptor) {
  if (getScaleTensor() || !getScale().isExactlyValue(1.0) || !getBias().isZero())
    return {};
  return sameValue(getX(), getOut());
}

/// Folds of integer shape arithmetic stop at this many elements.
static constexpr int64_t kMaxFoldElements = 1024;

/// The integer elements of a small constant operand, or nothing.
static std::optional<SmallVector<APInt>> smallInts(Attribute a) {
  auto dense = dyn_cast_if_present<DenseIntElementsAttr>(a);
  if (!dense || dense.getNumElements() > kMaxFoldElements)
    return std::nullopt;
  return SmallVector<APInt>(dense.getValues<APInt>());
}

/// `type` (static, integer elements) holding `values`.
static OpFoldResult intConstant(Type type, ArrayRef<APInt> values) {
  auto t = cast<RankedTensorType>(type);
  if (!t.hasStaticShape() || !t.getElementType().isInteger() || t.getElementType().isInteger(1) ||
      t.getNumElements() != (int64_t)values.size())
    return {};
  return DenseElementsAttr::get(t, values);
}

/// A small constant restated in the static result type (the reshapes of
/// shape lists).
static OpFoldResult reshapedConstant(Attribute x, Type result) {
  auto dense = dyn_cast_if_present<DenseElementsAttr>(x);
  auto type = cast<RankedTensorType>(result);
  if (!dense || !type.hasStaticShape() || dense.getNumElements() > kMaxFoldElements ||
      dense.getNumElements() != type.getNumElements())
    return {};
  return dense.reshape(type);
}

OpFoldResult Reshape2Op::fold(FoldAdaptor a) {
  if (OpFoldResult c = reshapedConstant(a.getX(), getOut().getType()))
    return c;
  if (getShapeInput() || !getShapeTensor().empty() || !staticSame(getX(), getOut()))
    return {};
  return getX();
}

OpFoldResult Squeeze2Op::fold(FoldAdaptor a) {
  if (OpFoldResult c = reshapedConstant(a.getX(), getOut().getType()))
    return c;
  return sameValue(getX(), getOut());
}

OpFoldResult Unsqueeze2Op::fold(FoldAdaptor a) {
  if (OpFoldResult c = reshapedConstant(a.getX(), getOut().getType()))
    return c;
  return getAxesTensor() || !getAxesTensorList().empty() ? OpFoldResult()
                                                         : sameValue(getX(), getOut());
}

OpFoldResult CastOp::fold(FoldAdaptor a) {
  if (OpFoldResult same = sameValue(getX(), getOut()))
    return same;
  // Integer to integer (a shape cast to int64): sign-extended or truncated.
  auto out = cast<RankedTensorType>(getOut().getType());
  std::optional<SmallVector<APInt>> in = smallInts(a.getX());
  if (!in || !out.getElementType().isInteger() || out.getElementType().isInteger(1) ||
      cast<ShapedType>(getX().getType()).getElementType().isInteger(1))
    return {};
  unsigned width = out.getElementType().getIntOrFloatBitWidth();
  for (APInt &v : *in)
    v = v.sextOrTrunc(width);
  return intConstant(out, *in);
}

OpFoldResult SliceOp::fold(FoldAdaptor a) {
  if (getStartsTensor() || getEndsTensor() || !getStartsTensorList().empty() ||
      !getEndsTensorList().empty())
    return {};
  std::optional<SmallVector<APInt>> in = smallInts(a.getInput());
  auto inType = cast<RankedTensorType>(getInput().getType());
  if (!in || getStarts().size() != getAxes().size() || getEnds().size() != getAxes().size())
    return {};
  int64_t rank = inType.getRank();
  SmallVector<int64_t> lo(rank, 0), size(inType.getShape());
  for (auto [i, axis] : llvm::enumerate(getAxes())) {
    int64_t ax = axis < 0 ? axis + rank : axis;
    if (ax < 0 || ax >= rank)
      return {};
    int64_t d = size[ax], start = getStarts()[i], end = getEnds()[i];
    start = std::clamp<int64_t>(start < 0 ? start + d : start, 0, d);
    end = std::clamp<int64_t>(end < 0 ? end + d : end, 0, d);
    lo[ax] = start;
    size[ax] = std::max<int64_t>(end - start, 0);
  }
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t k = rank - 2; k >= 0; --k)
    strides[k] = strides[k + 1] * inType.getDimSize(k + 1);
  int64_t n = 1;
  for (int64_t d : size)
    n *= d;
  SmallVector<APInt> out;
  for (int64_t j = 0; j < n; ++j) {
    int64_t rest = j, src = 0;
    for (int64_t k = rank - 1; k >= 0; --k) {
      src += (lo[k] + rest % size[k]) * strides[k];
      rest /= size[k];
    }
    out.push_back((*in)[src]);
  }
  return intConstant(getOut().getType(), out);
}

OpFoldResult ConcatOp::fold(FoldAdaptor a) {
  // 1-D integer lists (shapes assembled from pieces).
  if (getAxisTensor() || cast<RankedTensorType>(getOut().getType()).getRank() != 1)
    return {};
  SmallVector<APInt> out;
  for (Attribute part : a.getX()) {
    std::optional<SmallVector<APInt>> values = smallInts(part);
    if (!values)
      return {};
    out.append(values->begin(), values->end());
  }
  return intConstant(getOut().getType(), out);
}

/// Integer elementwise arithmetic on constants of one shape, or with a
/// one-element side broadcast.
template <typename OpTy, typename Fn>
static OpFoldResult foldIntBinary(OpTy op, Attribute x, Attribute y, Fn fn) {
  std::optional<SmallVector<APInt>> a = smallInts(x), b = smallInts(y);
  if (!a || !b || a->empty() || b->empty())
    return {};
  auto out = cast<RankedTensorType>(op.getOut().getType());
  if (!out.hasStaticShape())
    return {};
  size_t n = out.getNumElements();
  if ((a->size() != n && a->size() != 1) || (b->size() != n && b->size() != 1))
    return {};
  SmallVector<APInt> r;
  for (size_t i = 0; i < n; ++i)
    r.push_back(fn((*a)[a->size() == 1 ? 0 : i], (*b)[b->size() == 1 ? 0 : i]));
  return intConstant(out, r);
}

OpFoldResult ElementwiseAddOp::fold(FoldAdaptor a) {
  return foldIntBinary(*this, a.getX(), a.getY(), [](APInt x, APInt y) { return x + y; });
}

OpFoldResult ElementwiseSubOp::fold(FoldAdaptor a) {
  return foldIntBinary(*this, a.getX(), a.getY(), [](APInt x, APInt y) { return x - y; });
}

OpFoldResult ElementwiseMulOp::fold(FoldAdaptor a) {
  return foldIntBinary(*this, a.getX(), a.getY(), [](APInt x, APInt y) { return x * y; });
}

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
      !type.hasStaticShape())
    return {};
  Type elem = type.getElementType();
  double v = getValue().convertToDouble();
  // Paddle writes the value as text too (str_value), exact where the float
  // attribute is not (large integers); it wins when present.
  StringRef text = getStrValue();
  if (!text.empty()) {
    if (auto i = dyn_cast<IntegerType>(elem)) {
      // As a signed 64-bit number: StringRef's APInt parse gives "8" four
      // bits, which would read back as -8.
      int64_t exact;
      if (i.getWidth() == 1 || text.getAsInteger(10, exact))
        return {};
      return DenseElementsAttr::get(
          type, Attribute(IntegerAttr::get(i, APInt(64, exact, /*isSigned=*/true)
                                                  .sextOrTrunc(i.getWidth()))));
    }
    if (text.getAsDouble(v))
      return {};
  }
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
/// reshape2 with a constant Shape or constant ShapeTensor list ->
/// reshape2 with those values as its shape attribute (same meaning: 0
/// copies a dim, -1 is inferred); pd-infer-shapes then refines its type.
struct ConstantReshapeShape : OpRewritePattern<Reshape2Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Reshape2Op op, PatternRewriter &rewriter) const override {
    if (!op.getShapeInput() && op.getShapeTensor().empty())
      return failure();
    SmallVector<int32_t> shape;
    auto append = [&](Value v) {
      DenseIntElementsAttr dense;
      if (!matchPattern(v, m_Constant(&dense)))
        return false;
      for (const APInt &d : dense.getValues<APInt>())
        shape.push_back(static_cast<int32_t>(d.getSExtValue()));
      return true;
    };
    if (op.getShapeInput() ? !append(op.getShapeInput())
                           : !llvm::all_of(op.getShapeTensor(), append))
      return failure();
    if (!op.getShapeInput()) {
      // One value per list entry, as the op's own shape function counts.
      if (shape.size() != op.getShapeTensor().size())
        return failure();
    }
    auto merged = Reshape2Op::create(rewriter, op.getLoc(), op.getType(), op.getX(),
                                     /*Shape=*/Value(), /*ShapeTensor=*/ValueRange(),
                                     rewriter.getDenseI32ArrayAttr(shape));
    rewriter.replaceOp(op, merged.getResult());
    return success();
  }
};
} // namespace

void Transpose2Op::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *ctx) {
  results.add<MergeTransposes>(ctx);
}

void Reshape2Op::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *ctx) {
  results.add<MergeReshapes, ConstantReshapeShape>(ctx);
}

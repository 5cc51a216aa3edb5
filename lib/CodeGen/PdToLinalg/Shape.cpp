//===- Shape.cpp - pd reshape-like ops, transpose, concat -> tensor/linalg -===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::lowering;

namespace {
Value idx(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// tensor.reshape of x to `type` with the given (index) sizes.
Value reshapeTo(OpBuilder &b, Location loc, Value x, RankedTensorType type, ArrayRef<Value> sizes) {
  if (x.getType() == type)
    return x;
  auto shapeType = RankedTensorType::get({(int64_t)sizes.size()}, b.getIndexType());
  Value shape = tensor::FromElementsOp::create(b, loc, shapeType, sizes);
  return tensor::ReshapeOp::create(b, loc, type, x, shape);
}

/// Sizes of `type` where each dynamic dim is the next dynamic dim of x (for
/// ops that only add or remove static unit dims).
SmallVector<Value> sizesKeepingDynamicOrder(OpBuilder &b, Location loc, Value x,
                                            RankedTensorType type) {
  auto in = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> dynIn;
  for (int64_t i = 0; i < in.getRank(); ++i)
    if (in.isDynamicDim(i))
      dynIn.push_back(i);
  SmallVector<Value> sizes;
  size_t next = 0;
  for (int64_t i = 0; i < type.getRank(); ++i)
    sizes.push_back(type.isDynamicDim(i)
                        ? tensor::DimOp::create(b, loc, x, dynIn[next++]).getResult()
                        : idx(b, loc, type.getDimSize(i)));
  return sizes;
}

Value dimOf(OpBuilder &b, Location loc, Value x, int64_t i) {
  auto t = cast<RankedTensorType>(x.getType());
  return t.isDynamicDim(i) ? tensor::DimOp::create(b, loc, x, i).getResult()
                           : idx(b, loc, t.getDimSize(i));
}

struct Reshape2Lowering : OpConversionPattern<Reshape2Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(Reshape2Op op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    if (a.getShapeInput() || !a.getShapeTensor().empty())
      return r.notifyMatchFailure(op, "reshape2 with a run-time shape is not supported yet");
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getX();
    SmallVector<Value> sizes;
    int minusOne = -1;
    for (auto [i, d] : llvm::enumerate(op.getShape())) {
      if (d == 0)
        sizes.push_back(dimOf(r, loc, x, i));
      else if (d == -1) {
        minusOne = i;
        sizes.push_back(Value());
      } else
        sizes.push_back(idx(r, loc, d));
    }
    if (minusOne >= 0) {
      Value total = idx(r, loc, 1), known = idx(r, loc, 1);
      for (int64_t i = 0; i < cast<RankedTensorType>(x.getType()).getRank(); ++i)
        total = arith::MulIOp::create(r, loc, total, dimOf(r, loc, x, i));
      for (auto [i, s] : llvm::enumerate(sizes))
        if ((int)i != minusOne)
          known = arith::MulIOp::create(r, loc, known, s);
      sizes[minusOne] = arith::DivUIOp::create(r, loc, total, known);
    }
    r.replaceOp(op, reshapeTo(r, loc, x, type, sizes));
    return success();
  }
};

template <typename OpTy> struct UnitDimReshapeLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getOperands()[0];
    if (op->getNumOperands() != 1)
      return r.notifyMatchFailure(op, "run-time axes are not supported yet");
    r.replaceOp(
        op, reshapeTo(r, op.getLoc(), x, type, sizesKeepingDynamicOrder(r, op.getLoc(), x, type)));
    return success();
  }
};

struct FlattenLowering : OpConversionPattern<FlattenContiguousRangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(FlattenContiguousRangeOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX();
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    int64_t start = op.getStartAxis() < 0 ? op.getStartAxis() + rank : op.getStartAxis();
    int64_t stop = op.getStopAxis() < 0 ? op.getStopAxis() + rank : op.getStopAxis();
    SmallVector<Value> sizes;
    for (int64_t i = 0; i < start; ++i)
      sizes.push_back(dimOf(r, loc, x, i));
    Value p = idx(r, loc, 1);
    for (int64_t i = start; i <= stop; ++i)
      p = arith::MulIOp::create(r, loc, p, dimOf(r, loc, x, i));
    sizes.push_back(p);
    for (int64_t i = stop + 1; i < rank; ++i)
      sizes.push_back(dimOf(r, loc, x, i));
    r.replaceOp(op, reshapeTo(r, loc, x, cast<RankedTensorType>(op.getType()), sizes));
    return success();
  }
};

struct Transpose2Lowering : OpConversionPattern<Transpose2Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(Transpose2Op op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t> perm(op.getAxis().begin(), op.getAxis().end());
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (type.isDynamicDim(i))
        dyn.push_back(tensor::DimOp::create(r, loc, a.getX(), perm[i]));
    Value init = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(), dyn);
    r.replaceOp(op, linalg::TransposeOp::create(r, loc, a.getX(), init, perm).getResult());
    return success();
  }
};

struct ConcatLowering : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ConcatOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    if (a.getAxisTensor())
      return r.notifyMatchFailure(op, "concat with a run-time axis is not supported yet");
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + type.getRank() : op.getAxis();
    Value first = a.getX().front();
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      if (!type.isDynamicDim(i))
        continue;
      if (i != axis) {
        dyn.push_back(dimOf(r, loc, first, i));
        continue;
      }
      Value s = idx(r, loc, 0);
      for (Value v : a.getX())
        s = arith::AddIOp::create(r, loc, s, dimOf(r, loc, v, i));
      dyn.push_back(s);
    }
    Value out = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(), dyn);
    Value offset = idx(r, loc, 0);
    for (Value v : a.getX()) {
      int64_t rank = type.getRank();
      SmallVector<OpFoldResult> offs(rank, r.getIndexAttr(0)), sizes,
          strides(rank, r.getIndexAttr(1));
      for (int64_t i = 0; i < rank; ++i)
        sizes.push_back(getAsOpFoldResult(dimOf(r, loc, v, i)));
      offs[axis] = offset;
      out = tensor::InsertSliceOp::create(r, loc, v, out, offs, sizes, strides);
      offset = arith::AddIOp::create(r, loc, offset, dimOf(r, loc, v, axis));
    }
    r.replaceOp(op, out);
    return success();
  }
};

/// slice / strided_slice with attribute starts, ends (and positive strides):
/// Paddle/ONNX clamping (negative indices count from the end) computed on
/// index values, so dynamic dims work; decrease_axis drops size-1 dims.
template <typename OpTy> struct SliceLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    if (op->getNumOperands() != 1)
      return r.notifyMatchFailure(op, "run-time starts/ends are not supported yet");
    Location loc = op.getLoc();
    Value x = a.getInput();
    auto xt = cast<RankedTensorType>(x.getType());
    auto rt = cast<RankedTensorType>(op.getType());
    ArrayRef<int32_t> axes = op.getAxes(), starts = op.getStarts(), ends = op.getEnds();
    SmallVector<int64_t> steps(axes.size(), 1);
    if constexpr (std::is_same_v<OpTy, StridedSliceOp>)
      for (auto [k, v] : llvm::enumerate(op.getStrides()))
        steps[k] = v;
    if (starts.size() != axes.size() || ends.size() != axes.size() ||
        llvm::any_of(steps, [](int64_t v) { return v <= 0; }))
      return r.notifyMatchFailure(op, "only positive strides are supported");
    int64_t rank = xt.getRank();
    SmallVector<OpFoldResult> offsets(rank, r.getIndexAttr(0)),
        sizes = tensor::getMixedSizes(r, loc, x), strides(rank, r.getIndexAttr(1));
    auto cst = [&](int64_t v) { return idx(r, loc, v); };
    for (size_t k = 0; k < axes.size(); ++k) {
      int64_t axis = axes[k] < 0 ? axes[k] + rank : axes[k];
      if (axis < 0 || axis >= rank)
        return r.notifyMatchFailure(op, "axis out of range");
      Value dim = dimOf(r, loc, x, axis);
      auto clampIndex = [&](int64_t v) -> Value {
        Value i = v < 0 ? arith::AddIOp::create(r, loc, dim, cst(v)).getResult() : cst(v);
        i = arith::MaxSIOp::create(r, loc, i, cst(0));
        return arith::MinSIOp::create(r, loc, i, dim);
      };
      Value s = clampIndex(starts[k]), e = clampIndex(ends[k]);
      Value len = arith::MaxSIOp::create(r, loc, arith::SubIOp::create(r, loc, e, s), cst(0));
      // ceil(len / step)
      Value n = arith::DivSIOp::create(
          r, loc, arith::AddIOp::create(r, loc, len, cst(steps[k] - 1)), cst(steps[k]));
      offsets[axis] = s;
      sizes[axis] = n;
      strides[axis] = r.getIndexAttr(steps[k]);
    }
    Value y = tensor::ExtractSliceOp::create(r, loc, x, offsets, sizes, strides);
    auto yt = cast<RankedTensorType>(y.getType());
    if (yt.getRank() != rt.getRank()) {
      // decrease_axis: drop the sliced size-1 dims; each joins the group of
      // the kept dim before it (or the first kept dim).
      ArrayRef<int32_t> dec = op.getDecreaseAxis();
      SmallVector<ReassociationIndices> groups;
      ReassociationIndices pending;
      SmallVector<int64_t> staticShape(yt.getShape());
      for (int64_t i = 0; i < yt.getRank(); ++i) {
        if (llvm::is_contained(dec, i)) {
          staticShape[i] = 1; // size 1 by construction; make it static
          if (groups.empty())
            pending.push_back(i);
          else
            groups.back().push_back(i);
          continue;
        }
        pending.push_back(i);
        groups.push_back(pending);
        pending.clear();
      }
      y = tensor::CastOp::create(r, loc, RankedTensorType::get(staticShape, yt.getElementType()),
                                 y);
      y = tensor::CollapseShapeOp::create(r, loc, y, groups);
    }
    if (y.getType() != rt)
      y = tensor::CastOp::create(r, loc, rt, y);
    r.replaceOp(op, y);
    return success();
  }
};

/// split: consecutive tensor.extract_slice pieces along the axis (num equal
/// parts, or the sections with at most one -1 taking the rest).
struct SplitLowering : OpConversionPattern<SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SplitOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    if (op.getAxisTensor() || !op.getSectionsTensorList().empty())
      return r.notifyMatchFailure(op, "run-time axis or sections are not supported");
    Location loc = op.getLoc();
    Value x = a.getX();
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    Value dim = tensor::DimOp::create(r, loc, x, axis);
    int64_t known = 0;
    for (int32_t s : op.getSections())
      known += s > 0 ? s : 0;
    SmallVector<Value> pieces;
    Value offset = idx(r, loc, 0);
    for (Value res : op.getResults()) {
      auto pt = cast<RankedTensorType>(res.getType());
      Value size;
      if (!pt.isDynamicDim(axis))
        size = idx(r, loc, pt.getDimSize(axis));
      else if (op.getNum() > 0)
        size = arith::DivSIOp::create(r, loc, dim, idx(r, loc, op.getNum()));
      else
        size = arith::SubIOp::create(r, loc, dim, idx(r, loc, known));
      SmallVector<OpFoldResult> offsets(rank, r.getIndexAttr(0)),
          sizes = tensor::getMixedSizes(r, loc, x), strides(rank, r.getIndexAttr(1));
      offsets[axis] = offset;
      sizes[axis] = size;
      Value piece = tensor::ExtractSliceOp::create(r, loc, x, offsets, sizes, strides);
      if (piece.getType() != pt)
        piece = tensor::CastOp::create(r, loc, pt, piece);
      pieces.push_back(piece);
      offset = arith::AddIOp::create(r, loc, offset, size);
    }
    r.replaceOp(op, pieces);
    return success();
  }
};
} // namespace

void mlir::pd::populatePdShapeToTensorPatterns(RewritePatternSet &p) {
  p.add<Reshape2Lowering, FlattenLowering, Transpose2Lowering, ConcatLowering,
        UnitDimReshapeLowering<Squeeze2Op>, UnitDimReshapeLowering<Unsqueeze2Op>,
        SliceLowering<SliceOp>, SliceLowering<StridedSliceOp>, SplitLowering>(p.getContext());
}

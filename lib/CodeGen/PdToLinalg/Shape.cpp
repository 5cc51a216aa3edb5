//===- Shape.cpp - pd reshape-like ops, transpose, concat -> tensor/linalg -===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::lowering;

namespace {
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

/// The sizes of a reshape of x to the run-time target sizes `s` (index
/// values): 0 copies the input dim at that position, -1 takes the rest.
SmallVector<Value> runtimeShape(OpBuilder &b, Location loc, Value x, SmallVector<Value> s) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  Value one = idx(b, loc, 1), total = one, known = one;
  auto eq = [&](Value v, int64_t c) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v, idx(b, loc, c)).getResult();
  };
  for (int64_t i = 0; i < rank; ++i)
    total = arith::MulIOp::create(b, loc, total, dimOf(b, loc, x, i));
  for (auto [i, v] : llvm::enumerate(s)) {
    if ((int64_t)i < rank)
      v = arith::SelectOp::create(b, loc, eq(v, 0), dimOf(b, loc, x, i), v);
    known =
        arith::MulIOp::create(b, loc, known, arith::SelectOp::create(b, loc, eq(v, -1), one, v));
  }
  // A zero-sized known part leaves nothing for -1 to take; avoid dividing by 0.
  Value rest = arith::DivUIOp::create(b, loc, total,
                                      arith::SelectOp::create(b, loc, eq(known, 0), one, known));
  for (Value &v : s)
    v = arith::SelectOp::create(b, loc, eq(v, -1), rest, v);
  return s;
}

/// Sizes of an unsqueeze of x at the run-time `axes` (negative entries
/// count from the end of the result of rank `outRank`).
SmallVector<Value> runtimeUnsqueeze(OpBuilder &b, Location loc, Value x, Value axes,
                                    int64_t outRank) {
  SmallVector<Value> ax = indexElements(b, loc, axes);
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  Value zero = idx(b, loc, 0), one = idx(b, loc, 1), rankOut = idx(b, loc, outRank);
  for (Value &a : ax) {
    Value neg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, a, zero);
    a = arith::SelectOp::create(b, loc, neg, arith::AddIOp::create(b, loc, a, rankOut), a);
  }
  SmallVector<Value> sizes;
  Value consumed = zero; // input dims placed so far
  for (int64_t j = 0; j < outRank; ++j) {
    Value isAxis = arith::ConstantIntOp::create(b, loc, 0, 1);
    for (Value a : ax)
      isAxis = arith::OrIOp::create(
          b, loc, isAxis,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, a, idx(b, loc, j)));
    Value d = one;
    for (int64_t k = 0; k < rank; ++k)
      d = arith::SelectOp::create(
          b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, consumed, idx(b, loc, k)),
          dimOf(b, loc, x, k), d);
    sizes.push_back(arith::SelectOp::create(b, loc, isAxis, one, d));
    consumed = arith::SelectOp::create(b, loc, isAxis, consumed,
                                       arith::AddIOp::create(b, loc, consumed, one));
  }
  return sizes;
}

struct Reshape2Lowering : OpConversionPattern<Reshape2Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(Reshape2Op op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getX();
    // Paddle's precedence: the ShapeTensor list (one single-element tensor
    // per target dim), then the Shape tensor, then the `shape` attribute.
    if (!a.getShapeTensor().empty()) {
      SmallVector<Value> s;
      for (Value t : a.getShapeTensor()) {
        auto tt = cast<RankedTensorType>(t.getType());
        if (!tt.hasStaticShape() || tt.getNumElements() != 1)
          return r.notifyMatchFailure(op, "a ShapeTensor entry is not a single element");
        SmallVector<Value> zeros(tt.getRank(), idx(r, loc, 0));
        Value e = tensor::ExtractOp::create(r, loc, t, zeros);
        s.push_back(arith::IndexCastOp::create(r, loc, r.getIndexType(), e));
      }
      if ((int64_t)s.size() != type.getRank())
        return r.notifyMatchFailure(op, "the ShapeTensor list's length is not the result rank");
      r.replaceOp(op, reshapeTo(r, loc, x, type, runtimeShape(r, loc, x, s)));
      return success();
    }
    if (a.getShapeInput()) {
      SmallVector<Value> s = indexElements(r, loc, a.getShapeInput());
      if ((int64_t)s.size() != type.getRank())
        return r.notifyMatchFailure(op, "the Shape tensor's length is not the result rank");
      r.replaceOp(op, reshapeTo(r, loc, x, type, runtimeShape(r, loc, x, s)));
      return success();
    }
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
    if constexpr (std::is_same_v<OpTy, Unsqueeze2Op>) {
      if (a.getAxesTensor() && a.getAxesTensorList().empty()) {
        r.replaceOp(
            op, reshapeTo(r, op.getLoc(), x, type,
                          runtimeUnsqueeze(r, op.getLoc(), x, a.getAxesTensor(), type.getRank())));
        return success();
      }
    }
    if (op->getNumOperands() != 1)
      return r.notifyMatchFailure(op, "run-time axes lists are not supported");
    r.replaceOp(
        op, reshapeTo(r, op.getLoc(), x, type, sizesKeepingDynamicOrder(r, op.getLoc(), x, type)));
    return success();
  }
};

/// `x` reshaped to `type`, whose dims are the products of x's dims over
/// consecutive ranges starting at each of `starts` (an empty range is 1).
Value flattenRanges(ConversionPatternRewriter &r, Location loc, Value x, RankedTensorType type,
                    ArrayRef<int64_t> starts) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  SmallVector<Value> sizes;
  for (size_t g = 0; g < starts.size(); ++g) {
    int64_t end = g + 1 < starts.size() ? starts[g + 1] : rank;
    Value p;
    for (int64_t i = starts[g]; i < end; ++i) {
      Value d = dimOf(r, loc, x, i);
      p = p ? arith::MulIOp::create(r, loc, p, d).getResult() : d;
    }
    sizes.push_back(p ? p : idx(r, loc, 1));
  }
  return reshapeTo(r, loc, x, type, sizes);
}

/// Where each flattened result dim's range of input dims starts.
SmallVector<int64_t> flattenStarts(FlattenContiguousRangeOp op, int64_t rank) {
  int64_t start = op.getStartAxis() < 0 ? op.getStartAxis() + rank : op.getStartAxis();
  int64_t stop = op.getStopAxis() < 0 ? op.getStopAxis() + rank : op.getStopAxis();
  SmallVector<int64_t> starts;
  for (int64_t i = 0; i <= start; ++i)
    starts.push_back(i);
  for (int64_t i = stop + 1; i < rank; ++i)
    starts.push_back(i);
  return starts;
}
/// flatten2 (Fluid): a matrix of dims [0, axis) by dims [axis, rank).
SmallVector<int64_t> flattenStarts(Flatten2Op op, int64_t rank) {
  return {0, std::min<int64_t>(op.getAxis(), rank)};
}

template <typename FlattenOp> struct FlattenLowering : OpConversionPattern<FlattenOp> {
  using OpConversionPattern<FlattenOp>::OpConversionPattern;
  LogicalResult matchAndRewrite(FlattenOp op, typename FlattenOp::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Value x = a.getX();
    SmallVector<int64_t> starts = flattenStarts(op, cast<RankedTensorType>(x.getType()).getRank());
    r.replaceOp(op, flattenRanges(r, op.getLoc(), x, cast<RankedTensorType>(op.getType()), starts));
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

/// Concats of more inputs than this lower to one tensor.concat.
constexpr size_t kWideConcat = 8;

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
    // A wide concat (a recommender's hundreds of pooled features) is one
    // tensor.concat: bufferized as one allocation and a copy per input. A
    // chain of that many insert_slices into one destination costs
    // one-shot bufferization's conflict analysis minutes (400 inputs: 405 s).
    if (a.getX().size() > kWideConcat) {
      Value cat = tensor::ConcatOp::create(r, loc, axis, a.getX());
      if (cat.getType() != type)
        cat = tensor::CastOp::create(r, loc, type, cat);
      r.replaceOp(op, cat);
      return success();
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

/// stack: each input inserted at its position along the new axis (a
/// rank-reducing insert_slice of unit size there).
struct StackLowering : OpConversionPattern<StackOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(StackOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t rank = type.getRank();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    // Each input, cast to the joined shape (the result's without the axis),
    // gets the unit axis by expand_shape and is inserted whole: a
    // rank-reducing insert_slice would leave open which unit dim the input
    // lacks, and canonicalization may pick another than `axis`.
    SmallVector<int64_t> inShape(type.getShape());
    inShape.erase(inShape.begin() + axis);
    auto inType = RankedTensorType::get(inShape, type.getElementType());
    SmallVector<int64_t> unitShape(type.getShape());
    unitShape[axis] = 1;
    auto unitType = RankedTensorType::get(unitShape, type.getElementType());
    SmallVector<ReassociationIndices> groups;
    for (int64_t i = 0; i < rank; ++i) {
      if (i == axis)
        continue;
      groups.push_back({i});
    }
    if (!groups.empty()) {
      ReassociationIndices &g = axis == 0 ? groups.front() : groups[axis - 1];
      if (axis == 0)
        g.insert(g.begin(), 0);
      else
        g.push_back(axis);
    }
    SmallVector<Value> units;
    for (Value v : a.getX()) {
      if (v.getType() != inType)
        v = tensor::CastOp::create(r, loc, inType, v);
      SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(r, loc, v);
      sizes.insert(sizes.begin() + axis, r.getIndexAttr(1));
      units.push_back(tensor::ExpandShapeOp::create(r, loc, unitType, v, groups, sizes));
    }
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < rank; ++i)
      if (type.isDynamicDim(i))
        dyn.push_back(i == axis ? idx(r, loc, units.size()) : dimOf(r, loc, units.front(), i));
    Value out = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(), dyn);
    for (auto [k, v] : llvm::enumerate(units)) {
      SmallVector<OpFoldResult> offs(rank, r.getIndexAttr(0)), strides(rank, r.getIndexAttr(1));
      SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(r, loc, v);
      offs[axis] = r.getIndexAttr(k);
      out = tensor::InsertSliceOp::create(r, loc, v, out, offs, sizes, strides);
    }
    r.replaceOp(op, out);
    return success();
  }
};

/// unstack: result k is the slice at k along the axis, that axis dropped (a
/// rank-reducing extract_slice).
struct UnstackLowering : OpConversionPattern<UnstackOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(UnstackOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX();
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    SmallVector<Value> results;
    for (auto [k, res] : llvm::enumerate(op.getResults())) {
      SmallVector<OpFoldResult> offs(rank, r.getIndexAttr(0)), sizes,
          strides(rank, r.getIndexAttr(1));
      for (int64_t i = 0; i < rank; ++i)
        sizes.push_back(i == axis ? r.getIndexAttr(1) : getAsOpFoldResult(dimOf(r, loc, x, i)));
      offs[axis] = r.getIndexAttr(k);
      results.push_back(tensor::ExtractSliceOp::create(
          r, loc, cast<RankedTensorType>(res.getType()), x, offs, sizes, strides));
    }
    r.replaceOp(op, results);
    return success();
  }
};

/// The start tensor of a slice op (StartsTensor), its ends and strides
/// (strided_slice only); null when given by attributes.
Value startsTensor(SliceOp op) { return op.getStartsTensor(); }
Value endsTensor(SliceOp op) { return op.getEndsTensor(); }
Value stridesTensor(SliceOp) { return {}; }
Value startsTensor(StridedSliceOp op) { return op.getStartsTensor(); }
Value endsTensor(StridedSliceOp op) { return op.getEndsTensor(); }
Value stridesTensor(StridedSliceOp op) { return op.getStridesTensor(); }

/// slice / strided_slice with starts, ends and strides from attributes or
/// 1-D tensors: ONNX/Paddle clamping (negative indices count from the end;
/// with a negative stride the start is clamped to [0, d-1] and the end to
/// [-1, d-1]) computed on index values, so dynamic dims and run-time
/// values work. Static positive strides take a tensor.extract_slice;
/// negative or run-time strides a gather loop. decrease_axis drops the
/// sliced size-1 dims.
template <typename OpTy> struct SliceLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getInput();
    auto xt = cast<RankedTensorType>(x.getType());
    auto rt = cast<RankedTensorType>(op.getType());
    ArrayRef<int32_t> axes = op.getAxes();
    size_t n = axes.size();
    auto fromTensor = [&](Value t, ArrayRef<int32_t> attr,
                          int64_t def) -> std::optional<SmallVector<Value>> {
      SmallVector<Value> v;
      if (t) {
        v = indexElements(r, loc, t);
        if (v.size() != n)
          return std::nullopt;
        return v;
      }
      if (!attr.empty() && attr.size() != n)
        return std::nullopt;
      for (size_t k = 0; k < n; ++k)
        v.push_back(idx(r, loc, attr.empty() ? def : attr[k]));
      return v;
    };
    ArrayRef<int32_t> stridesAttr;
    if constexpr (std::is_same_v<OpTy, StridedSliceOp>) {
      stridesAttr = op.getStrides();
      if (!op.getStridesTensorList().empty())
        return r.notifyMatchFailure(op, "tensor lists are not supported");
    }
    if (!op.getStartsTensorList().empty() || !op.getEndsTensorList().empty())
      return r.notifyMatchFailure(op, "tensor lists are not supported");
    Value stT = stridesTensor(op);
    auto starts = fromTensor(startsTensor(op), op.getStarts(), 0);
    auto ends = fromTensor(endsTensor(op), op.getEnds(), 0);
    auto steps = fromTensor(stT, stridesAttr, 1);
    if (!starts || !ends || !steps)
      return r.notifyMatchFailure(op, "starts, ends and strides need one entry per axis");
    bool staticPositive = !stT && llvm::all_of(stridesAttr, [](int32_t v) { return v > 0; });
    int64_t rank = xt.getRank();
    SmallVector<OpFoldResult> offsets(rank, r.getIndexAttr(0)),
        sizes = tensor::getMixedSizes(r, loc, x), strides(rank, r.getIndexAttr(1));
    auto lt = [&](Value p, Value q) {
      return arith::CmpIOp::create(r, loc, arith::CmpIPredicate::slt, p, q).getResult();
    };
    auto clamp = [&](Value v, Value lo, Value hi) {
      return arith::MinSIOp::create(r, loc, arith::MaxSIOp::create(r, loc, v, lo), hi).getResult();
    };
    Value zero = idx(r, loc, 0), minusOne = idx(r, loc, -1);
    for (size_t k = 0; k < n; ++k) {
      int64_t axis = axes[k] < 0 ? axes[k] + rank : axes[k];
      if (axis < 0 || axis >= rank)
        return r.notifyMatchFailure(op, "axis out of range");
      Value dim = dimOf(r, loc, x, axis), last = arith::AddIOp::create(r, loc, dim, minusOne);
      auto wrap = [&](Value v) {
        return arith::SelectOp::create(r, loc, lt(v, zero), arith::AddIOp::create(r, loc, v, dim),
                                       v)
            .getResult();
      };
      Value s = wrap((*starts)[k]), e = wrap((*ends)[k]), step = (*steps)[k];
      Value sPos = clamp(s, zero, dim), ePos = clamp(e, zero, dim);
      if (!staticPositive) {
        Value neg = lt(step, zero);
        s = arith::SelectOp::create(r, loc, neg, clamp(s, zero, last), sPos);
        e = arith::SelectOp::create(r, loc, neg, clamp(e, minusOne, last), ePos);
      } else {
        s = sPos;
        e = ePos;
      }
      Value len = arith::CeilDivSIOp::create(r, loc, arith::SubIOp::create(r, loc, e, s), step);
      offsets[axis] = s;
      sizes[axis] = arith::MaxSIOp::create(r, loc, len, zero).getResult();
      strides[axis] = staticPositive
                          ? OpFoldResult(r.getIndexAttr(stridesAttr.empty() ? 1 : stridesAttr[k]))
                          : OpFoldResult(step);
    }
    Value y;
    if (staticPositive) {
      y = tensor::ExtractSliceOp::create(r, loc, x, offsets, sizes, strides);
    } else {
      // out[i] = x[offset + i * stride] per dim.
      SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
      auto gt = RankedTensorType::get(shape, xt.getElementType());
      SmallVector<Value> dyn = getValueOrCreateConstantIndexOp(r, loc, sizes);
      SmallVector<Value> offV = getValueOrCreateConstantIndexOp(r, loc, offsets),
                         strV = getValueOrCreateConstantIndexOp(r, loc, strides);
      y = generateTensor(r, loc, gt, dyn, [&](OpBuilder &b, Location l) -> Value {
        SmallVector<Value> at;
        for (int64_t i = 0; i < rank; ++i)
          at.push_back(arith::AddIOp::create(
              b, l, offV[i],
              arith::MulIOp::create(b, l, linalg::IndexOp::create(b, l, i), strV[i])));
        return tensor::ExtractOp::create(b, l, x, at);
      });
    }
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
    if (op.getAxisTensor())
      return r.notifyMatchFailure(op, "a run-time axis is not supported");
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
    ValueRange runtimeSections = a.getSectionsTensorList();
    if (!runtimeSections.empty() && runtimeSections.size() != op.getNumResults())
      return r.notifyMatchFailure(op, "needs one section tensor per result");
    for (auto [i, res] : llvm::enumerate(op.getResults())) {
      auto pt = cast<RankedTensorType>(res.getType());
      Value size;
      if (!runtimeSections.empty())
        size = arith::IndexCastOp::create(r, loc, r.getIndexType(),
                                          extractScalar(r, loc, runtimeSections[i]));
      else if (!pt.isDynamicDim(axis))
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
  p.add<Reshape2Lowering, FlattenLowering<FlattenContiguousRangeOp>, FlattenLowering<Flatten2Op>,
        Transpose2Lowering, ConcatLowering, UnitDimReshapeLowering<Squeeze2Op>,
        UnitDimReshapeLowering<Unsqueeze2Op>, SliceLowering<SliceOp>, SliceLowering<StridedSliceOp>,
        SplitLowering, StackLowering, UnstackLowering>(p.getContext());
}

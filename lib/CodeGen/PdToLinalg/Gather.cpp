//===- Gather.cpp - pd lookups, fills and scans -> linalg ----------------===//
//
// lookup_table_v2 (embedding gather), gather, index_select, take_along_axis,
// flip, tril_triu, fill_any_like, cumsum (as a masked reduction, O(n^2)
// along the axis, fine for sequence lengths), the writes index_put and
// set_value, and where_index / masked_select, whose result size depends on
// the data (the kernel library's pdk_nonzero lists the positions, generated
// code gathers from them).
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Runtime/KernelABI.h"
#include "Utils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::lowering;

namespace {
struct LookupTableV2Lowering : OpConversionPattern<LookupTableV2Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LookupTableV2Op op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value w = a.getW(), ids = a.getIds();
    auto wt = cast<RankedTensorType>(w.getType());
    auto it = cast<RankedTensorType>(ids.getType());
    int64_t rank = type.getRank();
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < rank; ++i)
      if (type.isDynamicDim(i))
        dyn.push_back(i < it.getRank() ? tensor::DimOp::create(r, loc, ids, i).getResult()
                                       : tensor::DimOp::create(r, loc, w, 1).getResult());
    Value init = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(), dyn);
    SmallVector<AffineExpr> idExprs;
    for (int64_t i = 0; i < it.getRank(); ++i)
      idExprs.push_back(r.getAffineDimExpr(i));
    SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, idExprs, r.getContext()),
                                   r.getMultiDimIdentityMap(rank)};
    SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
    int64_t pad = op.getPaddingIdx();
    auto gen = linalg::GenericOp::create(
        r, loc, TypeRange{type}, ValueRange{ids}, ValueRange{init}, maps, iters,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value id = arith::IndexCastOp::create(b, l, b.getIndexType(), args[0]);
          Value row = clampedIndex(b, l, args[0], w, 0, /*wrapNegative=*/false);
          Value col = linalg::IndexOp::create(b, l, rank - 1);
          Value v = tensor::ExtractOp::create(b, l, w, ValueRange{row, col});
          if (pad != -1) {
            int64_t p = pad < 0 ? pad + wt.getDimSize(0) : pad;
            Value isPad = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, id,
                                                arith::ConstantIndexOp::create(b, l, p));
            v = arith::SelectOp::create(b, l, isPad, scalar(b, l, v.getType(), 0.0), v);
          }
          linalg::YieldOp::create(b, l, v);
        });
    r.replaceOp(op, gen.getResult(0));
    return success();
  }
};

/// out[i] = x[i with i[axis] = index[indexMap(i)]]: the result of `type`
/// (dynamic sizes `dyn`) reads x at each position, the axis coordinate taken
/// from `index` (negative ids counted from the end, clamped into range).
Value gatherAlongAxis(OpBuilder &r, Location loc, RankedTensorType type, ValueRange dyn, Value x,
                      Value index, AffineMap indexMap, int64_t axis) {
  int64_t rank = type.getRank();
  Value init = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(), dyn);
  SmallVector<AffineMap> maps = {indexMap, r.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  auto gen = linalg::GenericOp::create(
      r, loc, TypeRange{type}, ValueRange{index}, ValueRange{init}, maps, iters,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value id = clampedIndex(b, l, args[0], x, axis, /*wrapNegative=*/true);
        SmallVector<Value> at;
        for (int64_t i = 0; i < rank; ++i)
          at.push_back(i == axis ? id : linalg::IndexOp::create(b, l, i).getResult());
        linalg::YieldOp::create(b, l, tensor::ExtractOp::create(b, l, x, at).getResult());
      });
  return gen.getResult(0);
}

/// x's slices along `axis` at the positions of the 1-D `index` (gather
/// and index_select).
Value gatherByIndex(OpBuilder &r, Location loc, RankedTensorType type, Value x, Value index,
                    int64_t axis) {
  int64_t rank = type.getRank();
  SmallVector<Value> dyn;
  for (int64_t i = 0; i < rank; ++i)
    if (type.isDynamicDim(i))
      dyn.push_back(i == axis ? tensor::DimOp::create(r, loc, index, 0).getResult()
                              : tensor::DimOp::create(r, loc, x, i).getResult());
  AffineMap indexMap = AffineMap::get(rank, 0, {r.getAffineDimExpr(axis)}, r.getContext());
  return gatherAlongAxis(r, loc, type, dyn, x, index, indexMap, axis);
}

/// gather(X, Index [n], axis): out[.., i, ..] = X[.., Index[i], ..], with
/// negative indices counted from the end and indices clamped into range.
struct GatherLowering : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(GatherOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    if (a.getAxisInput())
      return r.notifyMatchFailure(op, "a run-time axis is not supported");
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getX(), index = a.getIndex();
    auto xt = cast<RankedTensorType>(x.getType());
    auto it = cast<RankedTensorType>(index.getType());
    int64_t rank = xt.getRank(), axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    if (it.getRank() != 1 || type.getRank() != rank || axis < 0 || axis >= rank)
      return r.notifyMatchFailure(op, "expects a 1-D index");
    r.replaceOp(op, gatherByIndex(r, loc, type, x, index, axis));
    return success();
  }
};

/// index_select(X, Index [n], dim): gather along dim (the same reads).
struct IndexSelectLowering : OpConversionPattern<IndexSelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(IndexSelectOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getX(), index = a.getIndex();
    int64_t rank = type.getRank(), axis = op.getDim() < 0 ? op.getDim() + rank : op.getDim();
    r.replaceOp(op, gatherByIndex(r, loc, type, x, index, axis));
    return success();
  }
};

/// gather_nd(X, Index): out[i..., j...] = X[Index[i..., 0], ...,
/// Index[i..., q-1], j...] with q = Index's last dim (negative indices
/// count from the end, then clamped into range).
struct GatherNdLowering : OpConversionPattern<GatherNdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(GatherNdOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getX(), index = a.getIndex();
    auto it = cast<RankedTensorType>(index.getType());
    int64_t batch = it.getRank() - 1, q = it.getDimSize(batch), rank = type.getRank();
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < rank; ++i)
      if (type.isDynamicDim(i))
        dyn.push_back(i < batch ? tensor::DimOp::create(r, loc, index, i).getResult()
                                : tensor::DimOp::create(r, loc, x, q + i - batch).getResult());
    r.replaceOp(op, generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
                  SmallVector<Value> at, idxAt;
                  for (int64_t i = 0; i < batch; ++i)
                    idxAt.push_back(linalg::IndexOp::create(b, l, i));
                  for (int64_t j = 0; j < q; ++j) {
                    SmallVector<Value> pos = idxAt;
                    pos.push_back(arith::ConstantIndexOp::create(b, l, j));
                    Value id = tensor::ExtractOp::create(b, l, index, pos);
                    at.push_back(clampedIndex(b, l, id, x, j, /*wrapNegative=*/true));
                  }
                  for (int64_t i = batch; i < rank; ++i)
                    at.push_back(linalg::IndexOp::create(b, l, i));
                  return tensor::ExtractOp::create(b, l, x, at);
                }));
    return success();
  }
};

/// scatter_nd_add(X, Index, Updates): a loop over Index's leading dims (in
/// order, so repeated tuples accumulate) adding each update slice into the
/// slice of X its tuple (negative entries wrapped, clamped) addresses.
struct ScatterNdAddLowering : OpConversionPattern<ScatterNdAddOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ScatterNdAddOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX(), index = a.getIndex(), updates = a.getUpdates();
    auto xt = cast<RankedTensorType>(x.getType());
    auto it = cast<RankedTensorType>(index.getType());
    int64_t batch = it.getRank() - 1, q = it.getDimSize(batch), rank = xt.getRank();
    if (ShapedType::isDynamic(q) || q > rank ||
        cast<RankedTensorType>(updates.getType()).getRank() != batch + rank - q)
      return r.notifyMatchFailure(op, "Updates must be Index's leading dims + X's trailing dims");
    auto sliceType = RankedTensorType::get(xt.getShape().drop_front(q), xt.getElementType());
    bool isFloat = isa<FloatType>(xt.getElementType());
    Value zero = arith::ConstantIndexOp::create(r, loc, 0),
          one = arith::ConstantIndexOp::create(r, loc, 1);
    SmallVector<Value> ivs;
    std::function<Value(OpBuilder &, int64_t, Value)> loops = [&](OpBuilder &b, int64_t d,
                                                                  Value acc) -> Value {
      if (d < batch) {
        Value n = tensor::DimOp::create(b, loc, index, d);
        auto loop = scf::ForOp::create(b, loc, zero, n, one, ValueRange{acc},
                                       [&](OpBuilder &nb, Location, Value iv, ValueRange iter) {
                                         ivs.push_back(iv);
                                         scf::YieldOp::create(nb, loc, loops(nb, d + 1, iter[0]));
                                         ivs.pop_back();
                                       });
        return loop.getResult(0);
      }
      SmallVector<OpFoldResult> xOff, xSizes, xStrides(rank, b.getIndexAttr(1));
      for (int64_t j = 0; j < q; ++j) {
        SmallVector<Value> pos = ivs;
        pos.push_back(arith::ConstantIndexOp::create(b, loc, j));
        Value id = tensor::ExtractOp::create(b, loc, index, pos);
        xOff.push_back(clampedIndex(b, loc, id, acc, j, /*wrapNegative=*/true));
        xSizes.push_back(b.getIndexAttr(1));
      }
      SmallVector<OpFoldResult> uOff(ivs.begin(), ivs.end()), uSizes(batch, b.getIndexAttr(1)),
          uStrides(batch + rank - q, b.getIndexAttr(1));
      for (int64_t i = q; i < rank; ++i) {
        OpFoldResult size = tensor::getMixedSize(b, loc, acc, i);
        xOff.push_back(b.getIndexAttr(0));
        xSizes.push_back(size);
        uOff.push_back(b.getIndexAttr(0));
        uSizes.push_back(size);
      }
      Value cur = tensor::ExtractSliceOp::create(b, loc, sliceType, acc, xOff, xSizes, xStrides);
      Value upd =
          tensor::ExtractSliceOp::create(b, loc, sliceType, updates, uOff, uSizes, uStrides);
      auto sum = elementwise(b, loc, sliceType, ValueRange{cur, upd}, {0, 0},
                             [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
                               return isFloat
                                          ? arith::AddFOp::create(nb, l, v[0], v[1]).getResult()
                                          : arith::AddIOp::create(nb, l, v[0], v[1]).getResult();
                             });
      return tensor::InsertSliceOp::create(b, loc, *sum, acc, xOff, xSizes, xStrides);
    };
    r.replaceOp(op, loops(r, 0, freshCopy(r, loc, x)));
    return success();
  }
};

/// scatter(X, Ids, Updates): row Ids[i] of X becomes row i of Updates, in
/// order (a repeated id keeps its last row); without overwrite the rows Ids
/// address are zeroed first and every update is added into its row. Ids
/// are clamped into X's rows.
struct ScatterLowering : OpConversionPattern<ScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ScatterOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX(), ids = a.getIds(), updates = a.getUpdates();
    auto xt = cast<RankedTensorType>(x.getType());
    auto it = cast<RankedTensorType>(ids.getType());
    int64_t rank = xt.getRank();
    Type elem = xt.getElementType();
    bool isFloat = isa<FloatType>(elem);
    if (!isFloat && !elem.isSignlessInteger())
      return r.notifyMatchFailure(op, "scatter takes float or signed integer elements");
    SmallVector<int64_t> rowShape(xt.getShape().drop_front());
    rowShape.insert(rowShape.begin(), 1);
    auto rowType = RankedTensorType::get(rowShape, elem);
    Value zero = arith::ConstantIndexOp::create(r, loc, 0),
          one = arith::ConstantIndexOp::create(r, loc, 1);
    Value n = tensor::DimOp::create(r, loc, updates, 0);
    auto rowAt = [&](OpBuilder &b, Value t, Value row, SmallVector<OpFoldResult> &off,
                     SmallVector<OpFoldResult> &sizes) {
      off.assign({row});
      sizes.assign({b.getIndexAttr(1)});
      for (int64_t d = 1; d < rank; ++d) {
        off.push_back(b.getIndexAttr(0));
        sizes.push_back(tensor::getMixedSize(b, loc, t, d));
      }
    };
    SmallVector<OpFoldResult> strides(rank, r.getIndexAttr(1));
    // One pass over the ids: body(b, i, row, acc) returns the new acc.
    auto pass = [&](Value init, function_ref<Value(OpBuilder &, Value, Value, Value)> body) {
      auto loop = scf::ForOp::create(r, loc, zero, n, one, ValueRange{init},
                                     [&](OpBuilder &b, Location, Value i, ValueRange iter) {
                                       SmallVector<Value> pos = {i};
                                       if (it.getRank() == 2)
                                         pos.push_back(zero);
                                       Value id = tensor::ExtractOp::create(b, loc, ids, pos);
                                       Value row = clampedIndex(b, loc, id, iter[0], 0,
                                                                /*wrapNegative=*/false);
                                       scf::YieldOp::create(b, loc, body(b, i, row, iter[0]));
                                     });
      return loop.getResult(0);
    };
    // Row i of Updates, sized like the rows of `t` (X's shape).
    auto updateRow = [&](OpBuilder &b, Value i, Value t) {
      SmallVector<OpFoldResult> off, sizes;
      rowAt(b, t, i, off, sizes);
      return tensor::ExtractSliceOp::create(b, loc, rowType, updates, off, sizes, strides)
          .getResult();
    };
    Value acc = freshCopy(r, loc, x);
    if (op.getOverwrite()) {
      acc = pass(acc, [&](OpBuilder &b, Value i, Value row, Value t) -> Value {
        SmallVector<OpFoldResult> off, sizes;
        rowAt(b, t, row, off, sizes);
        return tensor::InsertSliceOp::create(b, loc, updateRow(b, i, t), t, off, sizes, strides);
      });
    } else {
      acc = pass(acc, [&](OpBuilder &b, Value, Value row, Value t) -> Value {
        SmallVector<OpFoldResult> off, sizes;
        rowAt(b, t, row, off, sizes);
        SmallVector<Value> dyn;
        for (int64_t d = 1; d < rank; ++d)
          if (rowType.isDynamicDim(d))
            dyn.push_back(tensor::DimOp::create(b, loc, t, d));
        Value z = filled(b, loc, rowType, dyn, 0.0);
        return tensor::InsertSliceOp::create(b, loc, z, t, off, sizes, strides);
      });
      acc = pass(acc, [&](OpBuilder &b, Value i, Value row, Value t) -> Value {
        SmallVector<OpFoldResult> off, sizes;
        rowAt(b, t, row, off, sizes);
        Value cur = tensor::ExtractSliceOp::create(b, loc, rowType, t, off, sizes, strides);
        auto sum = elementwise(b, loc, rowType, ValueRange{cur, updateRow(b, i, t)}, {0, 0},
                               [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
                                 return isFloat
                                            ? arith::AddFOp::create(nb, l, v[0], v[1]).getResult()
                                            : arith::AddIOp::create(nb, l, v[0], v[1]).getResult();
                               });
        return tensor::InsertSliceOp::create(b, loc, *sum, t, off, sizes, strides);
      });
    }
    r.replaceOp(op, acc);
    return success();
  }
};

/// `v` read at the coordinates `at` of a shape it broadcasts to (aligned to
/// the right; its size-1 dims read 0, and every coordinate is clamped into
/// range so a read can never go out of bounds).
Value broadcastRead(OpBuilder &b, Location l, Value v, ArrayRef<Value> at) {
  auto vt = cast<RankedTensorType>(v.getType());
  int64_t vr = vt.getRank(), off = (int64_t)at.size() - vr;
  Value zero = arith::ConstantIndexOp::create(b, l, 0),
        one = arith::ConstantIndexOp::create(b, l, 1);
  SmallVector<Value> pos;
  for (int64_t j = 0; j < vr; ++j) {
    if (vt.getDimSize(j) == 1 || off + j < 0) {
      pos.push_back(zero);
      continue;
    }
    Value last = arith::SubIOp::create(b, l, tensor::DimOp::create(b, l, v, j), one);
    Value c = arith::MinSIOp::create(b, l, arith::MaxSIOp::create(b, l, at[off + j], zero), last);
    pos.push_back(c);
  }
  return tensor::ExtractOp::create(b, l, v, pos);
}

Value addOrSet(OpBuilder &b, Location l, Value old, Value v, bool accumulate) {
  v = convertScalar(b, l, v, old.getType());
  if (!accumulate)
    return v;
  if (isa<FloatType>(v.getType()))
    return arith::AddFOp::create(b, l, old, v);
  if (v.getType().isInteger(1))
    return arith::OrIOp::create(b, l, old, v);
  return arith::AddIOp::create(b, l, old, v);
}

/// index_put(x, indices, value, accumulate): x with x[indices] = value (or
/// += value). Two forms have a fixed result: one bool mask over x's
/// leading dims (value broadcast to the selected elements: where(mask,
/// value, x)), and integer index tensors of one shape [n] addressing x's
/// leading dims (a loop over n, in order, writing or adding value's rows
/// or its broadcast; index tensors of a higher rank are flattened, with
/// the value's dims that match them). A value with one entry per true mask
/// element depends on the data and is not supported.
struct IndexPutLowering : OpConversionPattern<IndexPutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(IndexPutOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX(), value = a.getValue();
    ValueRange indices = a.getIndices();
    auto xt = cast<RankedTensorType>(x.getType());
    auto vt = cast<RankedTensorType>(value.getType());
    int64_t rank = xt.getRank();
    bool accumulate = op.getAccumulate();
    if (indices.empty() || (int64_t)indices.size() > rank)
      return r.notifyMatchFailure(op, "expects 1 to rank(x) index tensors");
    auto it0 = cast<RankedTensorType>(indices[0].getType());
    if (it0.getElementType().isInteger(1)) {
      int64_t k = it0.getRank();
      if (indices.size() != 1 || k > rank || k == 0)
        return r.notifyMatchFailure(op, "expects one bool mask over x's leading dims");
      // The value must broadcast to x's trailing dims: any dim of it that
      // lands on a masked dim must be 1.
      for (int64_t j = 0; j < vt.getRank(); ++j)
        if (rank - vt.getRank() + j < k && vt.getDimSize(j) != 1)
          return r.notifyMatchFailure(op, "a value per selected element depends on the data");
      if (vt.getRank() > rank)
        return r.notifyMatchFailure(op, "the value has a higher rank than x");
      Value mask = indices[0];
      auto y = elementwise(r, loc, xt, ValueRange{x, mask, value}, {0, 0, rank - vt.getRank()},
                           [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                             Value nv = addOrSet(b, l, v[0], v[2], accumulate);
                             return arith::SelectOp::create(b, l, v[1], nv, v[0]);
                           });
      if (failed(y))
        return failure();
      r.replaceOp(op, *y);
      return success();
    }
    int64_t m = indices.size();
    auto st = cast<RankedTensorType>(indices[0].getType());
    if (st.getRank() == 0 || !isa<IntegerType>(st.getElementType()))
      return r.notifyMatchFailure(op, "integer index tensors must have rank >= 1");
    for (Value t : indices)
      if (t.getType() != st)
        return r.notifyMatchFailure(op, "the index tensors must share one shape");
    SmallVector<Value> flatIndices(indices.begin(), indices.end());
    if (st.getRank() > 1) {
      // Index tensors of shape S address the positions of S in row-major
      // order: S flattened to one dim, and with it the value's dims that
      // line up with S (all of S's, or all 1).
      ReassociationIndices all;
      for (int64_t d = 0; d < st.getRank(); ++d)
        all.push_back(d);
      for (Value &t : flatIndices)
        t = tensor::CollapseShapeOp::create(r, loc, t, ArrayRef<ReassociationIndices>{all});
      int64_t lead = vt.getRank() - (rank - m);
      if (lead > 0) {
        bool same = lead == st.getRank();
        bool ones = true;
        for (int64_t j = 0; j < lead; ++j) {
          same = same && vt.getDimSize(j) == st.getDimSize(j);
          ones = ones && vt.getDimSize(j) == 1;
        }
        if (!same && !ones)
          return r.notifyMatchFailure(op, "the value broadcasts over part of the index shape");
        SmallVector<ReassociationIndices> groups(1);
        for (int64_t j = 0; j < vt.getRank(); ++j) {
          if (j < lead)
            groups[0].push_back(j);
          else
            groups.push_back({j});
        }
        value = tensor::CollapseShapeOp::create(r, loc, value, groups);
        vt = cast<RankedTensorType>(value.getType());
      }
    }
    indices = flatIndices;
    // The updated rows: value aligned to the right of [n, x's trailing dims].
    if (vt.getRank() > rank - m + 1)
      return r.notifyMatchFailure(op, "the value has a higher rank than the updated rows");
    SmallVector<int64_t> trailing(xt.getShape().drop_front(m));
    auto sliceType = RankedTensorType::get(trailing, xt.getElementType());
    Value zero = arith::ConstantIndexOp::create(r, loc, 0),
          one = arith::ConstantIndexOp::create(r, loc, 1);
    Value n = tensor::DimOp::create(r, loc, indices[0], 0);
    auto loop = scf::ForOp::create(
        r, loc, zero, n, one, ValueRange{freshCopy(r, loc, x)},
        [&](OpBuilder &b, Location l, Value i, ValueRange it) {
          Value acc = it[0];
          SmallVector<OpFoldResult> off, sizes, strides(rank, b.getIndexAttr(1));
          for (int64_t j = 0; j < m; ++j) {
            Value id = tensor::ExtractOp::create(b, l, indices[j], ValueRange{i});
            off.push_back(clampedIndex(b, l, id, acc, j, /*wrapNegative=*/true));
            sizes.push_back(b.getIndexAttr(1));
          }
          for (int64_t j = m; j < rank; ++j) {
            off.push_back(b.getIndexAttr(0));
            sizes.push_back(tensor::getMixedSize(b, l, acc, j));
          }
          Value cur = tensor::ExtractSliceOp::create(b, l, sliceType, acc, off, sizes, strides);
          SmallVector<Value> dyn = dynSizesFrom(b, l, cur, sliceType);
          Value upd = generateTensor(b, l, sliceType, dyn, [&](OpBuilder &nb, Location nl) {
            SmallVector<Value> at = {i};
            for (int64_t d = 0; d < (int64_t)trailing.size(); ++d)
              at.push_back(linalg::IndexOp::create(nb, nl, d));
            SmallVector<Value> here(at.begin() + 1, at.end());
            Value old = tensor::ExtractOp::create(nb, nl, cur, here);
            return addOrSet(nb, nl, old, broadcastRead(nb, nl, value, at), accumulate);
          });
          scf::YieldOp::create(
              b, l, tensor::InsertSliceOp::create(b, l, upd, acc, off, sizes, strides).getResult());
        });
    r.replaceOp(op, loop.getResult(0));
    return success();
  }
};

/// set_value: a copy of Input where each position inside the strided slice
/// (axes, starts/ends/steps from the attributes or the run-time tensor
/// lists, Python's clamping, negative steps too) takes the value
/// (ValueTensor, or the attribute values of `shape`) broadcast against the
/// slice's shape with decrease_axes removed and none_axes inserted.
struct SetValueLowering : OpConversionPattern<SetValueOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SetValueOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getInput();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t rank = xt.getRank();
    ArrayRef<int64_t> axes = op.getAxes();
    size_t na = axes.size();
    auto list = [&](ValueRange ts, ArrayRef<int64_t> attr,
                    int64_t def) -> std::optional<SmallVector<Value>> {
      SmallVector<Value> v;
      if (!ts.empty()) {
        for (Value t : ts)
          v.push_back(
              arith::IndexCastOp::create(r, loc, r.getIndexType(), extractScalar(r, loc, t)));
      } else if (attr.empty()) {
        for (size_t k = 0; k < na; ++k)
          v.push_back(arith::ConstantIndexOp::create(r, loc, def));
      } else {
        for (int64_t e : attr)
          v.push_back(arith::ConstantIndexOp::create(r, loc, e));
      }
      if (v.size() != na)
        return std::nullopt;
      return v;
    };
    auto starts = list(a.getStartsTensorList(), op.getStarts(), 0);
    auto ends = list(a.getEndsTensorList(), op.getEnds(), INT64_MAX);
    auto steps = list(a.getStepsTensorList(), op.getSteps(), 1);
    if (!starts || !ends || !steps)
      return r.notifyMatchFailure(op, "starts, ends and steps must have one entry per axis");
    for (int64_t ax : axes)
      if (ax < 0 || ax >= rank)
        return r.notifyMatchFailure(op, "an axis is out of range");
    for (int64_t d : op.getDecreaseAxes())
      if (!llvm::is_contained(axes, d))
        return r.notifyMatchFailure(op, "a decrease axis is not a sliced axis");
    Value value = a.getValueTensor();
    if (!value) {
      SmallVector<int64_t> shape(op.getShape());
      auto vt = RankedTensorType::get(shape, xt.getElementType());
      Type et = xt.getElementType();
      DenseElementsAttr attr;
      int64_t count = vt.getNumElements();
      auto fits = [&](size_t size) { return (int64_t)size == count; };
      if (et.isInteger(1) && fits(op.getBoolValues().size())) {
        SmallVector<bool> v;
        for (int32_t e : op.getBoolValues())
          v.push_back(e != 0);
        attr = DenseElementsAttr::get(vt, ArrayRef<bool>(v));
      } else if (isa<FloatType>(et) && fits(op.getFp32Values().size())) {
        SmallVector<APFloat> v;
        for (float e : op.getFp32Values()) {
          APFloat f(e);
          bool lost;
          f.convert(cast<FloatType>(et).getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
          v.push_back(f);
        }
        attr = DenseElementsAttr::get(vt, v);
      } else if (isa<IntegerType>(et) && !et.isInteger(1)) {
        SmallVector<APInt> v;
        unsigned w = et.getIntOrFloatBitWidth();
        if (fits(op.getInt64Values().size()))
          for (int64_t e : op.getInt64Values())
            v.push_back(APInt(w, e, /*isSigned=*/true, /*implicitTrunc=*/true));
        else if (fits(op.getInt32Values().size()))
          for (int32_t e : op.getInt32Values())
            v.push_back(APInt(w, e, /*isSigned=*/true, /*implicitTrunc=*/true));
        else
          return r.notifyMatchFailure(op, "no value list of the input's dtype fits `shape`");
        attr = DenseElementsAttr::get(vt, v);
      }
      if (!attr)
        return r.notifyMatchFailure(op, "no value list of the input's dtype fits `shape`");
      value = arith::ConstantOp::create(r, loc, vt, attr);
    }
    // Per sliced axis: the clamped start, the step and the element count.
    Value zero = arith::ConstantIndexOp::create(r, loc, 0),
          one = arith::ConstantIndexOp::create(r, loc, 1);
    SmallVector<Value> st(rank), sp(rank), cnt(rank);
    for (size_t k = 0; k < na; ++k) {
      int64_t d = axes[k];
      Value dim = tensor::DimOp::create(r, loc, x, d);
      Value step = (*steps)[k];
      Value pos = arith::CmpIOp::create(r, loc, arith::CmpIPredicate::sgt, step, zero);
      auto wrap = [&](Value v) {
        Value neg = arith::CmpIOp::create(r, loc, arith::CmpIPredicate::slt, v, zero);
        return arith::SelectOp::create(r, loc, neg, arith::AddIOp::create(r, loc, v, dim), v);
      };
      auto clamp = [&](Value v, Value lo, Value hi) {
        return arith::MinSIOp::create(r, loc, arith::MaxSIOp::create(r, loc, v, lo), hi);
      };
      Value minus1 = arith::ConstantIndexOp::create(r, loc, -1);
      Value dimM1 = arith::SubIOp::create(r, loc, dim, one);
      // Step > 0: start and end in [0, dim]; step < 0: in [-1, dim - 1].
      Value lo = arith::SelectOp::create(r, loc, pos, zero, minus1);
      Value hi = arith::SelectOp::create(r, loc, pos, dim, dimM1);
      // Huge ends (INT64_MAX) stay huge after wrap; the clamp brings them in.
      Value s = clamp(wrap((*starts)[k]), lo, hi), e = clamp(wrap((*ends)[k]), lo, hi);
      Value span = arith::SelectOp::create(r, loc, pos, arith::SubIOp::create(r, loc, e, s),
                                           arith::SubIOp::create(r, loc, s, e));
      Value absStep =
          arith::SelectOp::create(r, loc, pos, step, arith::SubIOp::create(r, loc, zero, step));
      Value c =
          arith::CeilDivSIOp::create(r, loc, span, arith::MaxSIOp::create(r, loc, absStep, one));
      st[d] = s;
      sp[d] = step;
      cnt[d] = arith::MaxSIOp::create(r, loc, c, zero);
    }
    ArrayRef<int64_t> decrease = op.getDecreaseAxes(), none = op.getNoneAxes();
    auto y = generateTensor(r, loc, xt, dynSizesFrom(r, loc, x, xt), [&](OpBuilder &b, Location l) {
      SmallVector<Value> p;
      for (int64_t d = 0; d < rank; ++d)
        p.push_back(linalg::IndexOp::create(b, l, d));
      Value old = tensor::ExtractOp::create(b, l, x, p);
      Value inside = arith::ConstantIntOp::create(b, l, b.getI1Type(), 1);
      SmallVector<Value> coords;
      for (int64_t d = 0; d < rank; ++d) {
        if (!st[d]) {
          coords.push_back(p[d]);
          continue;
        }
        Value rel = arith::SubIOp::create(b, l, p[d], st[d]);
        Value q = arith::DivSIOp::create(b, l, rel, sp[d]);
        Value exact = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            arith::RemSIOp::create(b, l, rel, sp[d]), zero);
        Value inRange = arith::AndIOp::create(
            b, l, arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, q, zero),
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, q, cnt[d]));
        inside = arith::AndIOp::create(b, l, inside, arith::AndIOp::create(b, l, exact, inRange));
        if (!llvm::is_contained(decrease, d))
          coords.push_back(q);
      }
      for (int64_t n : none)
        if (n >= 0 && n <= (int64_t)coords.size())
          coords.insert(coords.begin() + n, zero);
      Value nv = convertScalar(b, l, broadcastRead(b, l, value, coords), old.getType());
      return arith::SelectOp::create(b, l, inside, nv, old).getResult();
    });
    r.replaceOp(op, y);
    return success();
  }
};

/// take_along_axis(X, Index, Axis): out[i] = X[i with i[Axis] = Index[i]],
/// negative indices counted from the end, clamped into range.
struct TakeAlongAxisLowering : OpConversionPattern<TakeAlongAxisOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TakeAlongAxisOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getInput(), index = a.getIndex();
    int64_t rank = type.getRank(), axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    r.replaceOp(op, gatherAlongAxis(r, loc, type, dynSizesFrom(r, loc, index, type), x, index,
                                    r.getMultiDimIdentityMap(rank), axis));
    return success();
  }
};

/// flip(X, axis): out[i] = X[i with i[d] = size(d) - 1 - i[d] for d in axis].
struct FlipLowering : OpConversionPattern<FlipOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(FlipOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getX();
    int64_t rank = type.getRank();
    SmallVector<bool> flipped(rank, false);
    for (int32_t d : op.getAxis()) {
      int64_t k = d < 0 ? d + rank : d;
      if (k < 0 || k >= rank)
        return r.notifyMatchFailure(op, "axis out of range");
      flipped[k] = true;
    }
    r.replaceOp(op, generateTensor(r, loc, type, dynSizesFrom(r, loc, x, type),
                                   [&](OpBuilder &b, Location l) -> Value {
                                     SmallVector<Value> at;
                                     for (int64_t i = 0; i < rank; ++i) {
                                       Value idx = linalg::IndexOp::create(b, l, i);
                                       if (flipped[i]) {
                                         Value last = arith::SubIOp::create(
                                             b, l, tensor::DimOp::create(b, l, x, i),
                                             arith::ConstantIndexOp::create(b, l, 1));
                                         idx = arith::SubIOp::create(b, l, last, idx);
                                       }
                                       at.push_back(idx);
                                     }
                                     return tensor::ExtractOp::create(b, l, x, at);
                                   }));
    return success();
  }
};

/// roll: out[i] = x[(i - shift) mod n] along each listed axis; without
/// axes, the same over the flattened tensor.
struct RollLowering : OpConversionPattern<RollOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(RollOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getX();
    int64_t rank = type.getRank();
    ArrayRef<int64_t> axes = op.getAxis();
    // The shifts (index values): the ShiftsTensor's, read at run time, or
    // the attribute's.
    SmallVector<Value> shifts;
    if (a.getShiftsTensor()) {
      shifts = indexElements(r, loc, a.getShiftsTensor());
      if (shifts.empty())
        return r.notifyMatchFailure(op, "ShiftsTensor needs a static length");
    } else {
      for (int64_t v : op.getShifts())
        shifts.push_back(arith::ConstantIndexOp::create(r, loc, v));
    }
    if (rank == 0 || (axes.empty() ? shifts.size() != 1 : shifts.size() != axes.size()))
      return r.notifyMatchFailure(op, "shifts must match axis (one shift without axes)");
    // Without axes: roll the flattened tensor as one axis.
    Value src = x;
    SmallVector<int64_t> along(axes.begin(), axes.end());
    if (axes.empty() && rank != 1) {
      SmallVector<ReassociationIndices> all(1);
      for (int64_t i = 0; i < rank; ++i)
        all[0].push_back(i);
      src = tensor::CollapseShapeOp::create(r, loc, x, all);
      along = {0};
    }
    auto st = cast<RankedTensorType>(src.getType());
    SmallVector<Value> shiftOf(st.getRank());
    for (auto [d, s] : llvm::zip(along, shifts)) {
      int64_t k = d < 0 ? d + st.getRank() : d;
      if (k < 0 || k >= st.getRank())
        return r.notifyMatchFailure(op, "axis out of range");
      shiftOf[k] = shiftOf[k] ? arith::AddIOp::create(r, loc, shiftOf[k], s).getResult() : s;
    }
    for (Value &s : shiftOf)
      if (s && isConstantIntValue(s, 0))
        s = Value();
    Value y = generateTensor(
        r, loc, st, dynSizesFrom(r, loc, src, st), [&](OpBuilder &b, Location l) -> Value {
          SmallVector<Value> at;
          for (int64_t i = 0; i < st.getRank(); ++i) {
            Value idx = linalg::IndexOp::create(b, l, i);
            if (shiftOf[i]) {
              // (i - s) mod n with the shift reduced into [0, n) first.
              Value n = tensor::DimOp::create(b, l, src, i);
              Value s = arith::RemSIOp::create(b, l, shiftOf[i], n);
              Value t = arith::AddIOp::create(b, l, arith::SubIOp::create(b, l, idx, s), n);
              idx = arith::RemSIOp::create(b, l, t, n);
            }
            at.push_back(idx);
          }
          return tensor::ExtractOp::create(b, l, src, at);
        });
    if (src != x)
      y = tensor::ExpandShapeOp::create(r, loc, type, y, SmallVector<ReassociationIndices>{[&] {
                                          ReassociationIndices all;
                                          for (int64_t i = 0; i < rank; ++i)
                                            all.push_back(i);
                                          return all;
                                        }()},
                                        tensor::getMixedSizes(r, loc, x));
    r.replaceOp(op, y);
    return success();
  }
};

/// pixel_shuffle: out[n, c, h r + i, w r + j] = x[n, c r^2 + i r + j, h, w]
/// (channels last with NHWC).
struct PixelShuffleLowering : OpConversionPattern<PixelShuffleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PixelShuffleOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getX();
    bool nhwc = op.getDataFormat() == "NHWC";
    int64_t f = op.getUpscaleFactor();
    int64_t cDim = nhwc ? 3 : 1, hDim = nhwc ? 1 : 2, wDim = nhwc ? 2 : 3;
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < 4; ++i) {
      if (!type.isDynamicDim(i))
        continue;
      Value d = tensor::DimOp::create(r, loc, x, i);
      Value fv = arith::ConstantIndexOp::create(r, loc, f);
      if (i == cDim)
        d = arith::DivSIOp::create(r, loc, d, arith::MulIOp::create(r, loc, fv, fv));
      else if (i == hDim || i == wDim)
        d = arith::MulIOp::create(r, loc, d, fv);
      dyn.push_back(d);
    }
    r.replaceOp(
        op, generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
          auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, l, v).getResult(); };
          SmallVector<Value> at(4);
          at[0] = linalg::IndexOp::create(b, l, 0);
          Value oh = linalg::IndexOp::create(b, l, hDim), ow = linalg::IndexOp::create(b, l, wDim);
          Value i = arith::RemSIOp::create(b, l, oh, c(f)),
                j = arith::RemSIOp::create(b, l, ow, c(f));
          at[hDim] = arith::DivSIOp::create(b, l, oh, c(f));
          at[wDim] = arith::DivSIOp::create(b, l, ow, c(f));
          Value ch = arith::MulIOp::create(b, l, linalg::IndexOp::create(b, l, cDim), c(f * f));
          at[cDim] = arith::AddIOp::create(
              b, l, ch, arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, i, c(f)), j));
          return tensor::ExtractOp::create(b, l, x, at);
        }));
    return success();
  }
};

/// tril_triu: keeps X[.., i, j] where j - i <= diagonal (lower) or
/// j - i >= diagonal (upper), zero elsewhere.
struct TrilTriuLowering : OpConversionPattern<TrilTriuOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TrilTriuOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t rank = type.getRank();
    if (rank < 2)
      return r.notifyMatchFailure(op, "tril_triu needs rank >= 2");
    int64_t diag = op.getDiagonal();
    bool lower = op.getLower();
    auto res = elementwise(
        r, loc, type, ValueRange{a.getX()}, {0},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value i = linalg::IndexOp::create(b, l, rank - 2),
                j = linalg::IndexOp::create(b, l, rank - 1);
          Value d = arith::SubIOp::create(b, l, j, i);
          Value keep = arith::CmpIOp::create(
              b, l, lower ? arith::CmpIPredicate::sle : arith::CmpIPredicate::sge, d,
              arith::ConstantIndexOp::create(b, l, diag));
          return arith::SelectOp::create(b, l, keep, args[0], scalar(b, l, args[0].getType(), 0.0));
        });
    if (failed(res))
      return failure();
    r.replaceOp(op, *res);
    return success();
  }
};

struct FillAnyLikeLowering : OpConversionPattern<FillAnyLikeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(FillAnyLikeOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Value out = filled(r, op.getLoc(), type, dynSizesFrom(r, op.getLoc(), a.getX(), type),
                       op.getValue().convertToDouble());
    r.replaceOp(op, out);
    return success();
  }
};

/// out[.., i, ..] = sum over j <= i (j < i when exclusive; j >= i / j > i
/// when reversed) of x[.., j, ..].
struct CumsumLowering : OpConversionPattern<CumsumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(CumsumOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    if (op.getFlatten())
      return r.notifyMatchFailure(op, "cumsum with flatten is not supported yet");
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t rank = type.getRank();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    Value init = filled(r, loc, type, dynSizesFrom(r, loc, a.getX(), type), 0.0);
    // Iteration space: the output dims plus j (the summed position) last.
    SmallVector<AffineExpr> in, out;
    for (int64_t i = 0; i < rank; ++i) {
      in.push_back(i == axis ? r.getAffineDimExpr(rank) : r.getAffineDimExpr(i));
      out.push_back(r.getAffineDimExpr(i));
    }
    SmallVector<AffineMap> maps = {AffineMap::get(rank + 1, 0, in, r.getContext()),
                                   AffineMap::get(rank + 1, 0, out, r.getContext())};
    SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
    iters.push_back(utils::IteratorType::reduction);
    bool exclusive = op.getExclusive(), reverse = op.getReverse();
    // Summed positions j: j <= i (j < i when exclusive); reversed, j >= i.
    auto pred = reverse ? (exclusive ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::sge)
                        : (exclusive ? arith::CmpIPredicate::slt : arith::CmpIPredicate::sle);
    bool isFloatElem = isa<FloatType>(type.getElementType());
    auto gen = linalg::GenericOp::create(
        r, loc, TypeRange{type}, ValueRange{a.getX()}, ValueRange{init}, maps, iters,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value i = linalg::IndexOp::create(b, l, axis), j = linalg::IndexOp::create(b, l, rank);
          Value take = arith::CmpIOp::create(b, l, pred, j, i);
          Value v =
              arith::SelectOp::create(b, l, take, args[0], scalar(b, l, args[0].getType(), 0.0));
          Value s = isFloatElem ? arith::AddFOp::create(b, l, args[1], v).getResult()
                                : arith::AddIOp::create(b, l, args[1], v).getResult();
          linalg::YieldOp::create(b, l, s);
        });
    r.replaceOp(op, gen.getResult(0));
    return success();
  }
};
} // namespace

namespace {
/// The flat positions of the non-zero elements of `cond` (any element
/// type): pdk_nonzero over `cond != 0` as i1, into i64 [1 + numel]
/// (count, positions); returns that tensor and the count as an index.
std::pair<Value, Value> nonzeroPositions(ConversionPatternRewriter &r, Location loc, Value cond) {
  auto ct = cast<RankedTensorType>(cond.getType());
  if (!ct.getElementType().isInteger(1)) {
    auto boolType = RankedTensorType::get(ct.getShape(), r.getI1Type());
    cond =
        *elementwise(r, loc, boolType, ValueRange{cond}, {0},
                     [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                       Value zero = scalar(b, l, v[0].getType(), 0.0);
                       if (isa<FloatType>(v[0].getType()))
                         return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, v[0], zero);
                       return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, v[0], zero);
                     });
  }
  Value numel = idx(r, loc, 1);
  for (int64_t i = 0; i < ct.getRank(); ++i)
    numel = r.createOrFold<arith::MulIOp>(loc, numel, r.createOrFold<tensor::DimOp>(loc, cond, i));
  Value words = r.createOrFold<arith::AddIOp>(loc, numel, idx(r, loc, 1));
  std::optional<int64_t> fixed = getConstantIntValue(words);
  SmallVector<Value> dyn;
  if (!fixed)
    dyn.push_back(words);
  Value empty = tensor::EmptyOp::create(
      r, loc, SmallVector<int64_t>{fixed ? *fixed : ShapedType::kDynamic}, r.getI64Type(), dyn);
  auto call = KernelCallOp::create(r, loc, empty.getType(), "pdk_nonzero", ValueRange{cond}, empty,
                                   r.getDenseI64ArrayAttr({0}), r.getDenseI64ArrayAttr({}),
                                   r.getDenseF32ArrayAttr({}));
  Value pos = call.getResult();
  Value count = tensor::ExtractOp::create(r, loc, pos, ValueRange{idx(r, loc, 0)});
  return {pos, arith::IndexCastOp::create(r, loc, r.getIndexType(), count)};
}

/// Position `k` (an index) of the list nonzeroPositions made.
Value positionAt(OpBuilder &b, Location loc, Value pos, Value k) {
  Value at = arith::AddIOp::create(b, loc, k, idx(b, loc, 1));
  Value v = tensor::ExtractOp::create(b, loc, pos, ValueRange{at});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

/// where_index: Out[k, d] = coordinate d of the k-th non-zero position.
struct WhereIndexLowering : OpConversionPattern<WhereIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WhereIndexOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value cond = a.getCondition();
    auto [pos, count] = nonzeroPositions(r, loc, cond);
    int64_t rank = cast<RankedTensorType>(cond.getType()).getRank();
    SmallVector<Value> dims;
    for (int64_t i = 0; i < rank; ++i)
      dims.push_back(r.createOrFold<tensor::DimOp>(loc, cond, i));
    auto type = cast<RankedTensorType>(op.getType());
    r.replaceOp(op, generateTensor(r, loc, type, {count}, [&](OpBuilder &b, Location l) -> Value {
                  Value flat = positionAt(b, l, pos, linalg::IndexOp::create(b, l, 0));
                  Value d = linalg::IndexOp::create(b, l, 1);
                  // Coordinate d: (flat / prod(dims[d+1:])) % dims[d], picked
                  // among the rank candidates.
                  SmallVector<Value> coords(rank);
                  Value rest = flat;
                  for (int64_t i = rank - 1; i >= 0; --i) {
                    coords[i] = arith::RemUIOp::create(b, l, rest, dims[i]);
                    rest = arith::DivUIOp::create(b, l, rest, dims[i]);
                  }
                  Value out = coords.back();
                  for (int64_t i = rank - 2; i >= 0; --i) {
                    Value is =
                        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, d, idx(b, l, i));
                    out = arith::SelectOp::create(b, l, is, coords[i], out);
                  }
                  return arith::IndexCastOp::create(b, l, type.getElementType(), out);
                }));
    return success();
  }
};

/// masked_select: Y[k] = X (flattened) at the k-th true position of Mask.
struct MaskedSelectLowering : OpConversionPattern<MaskedSelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MaskedSelectOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    auto [pos, count] = nonzeroPositions(r, loc, a.getMask());
    if (xt.getRank() != 1) {
      SmallVector<ReassociationIndices> all(1);
      for (int64_t i = 0; i < xt.getRank(); ++i)
        all[0].push_back(i);
      x = tensor::CollapseShapeOp::create(r, loc, x, all);
    }
    auto type = cast<RankedTensorType>(op.getType());
    r.replaceOp(op, generateTensor(r, loc, type, {count}, [&](OpBuilder &b, Location l) -> Value {
                  Value at = positionAt(b, l, pos, linalg::IndexOp::create(b, l, 0));
                  return tensor::ExtractOp::create(b, l, x, ValueRange{at});
                }));
    return success();
  }
};
/// unique: sel = pdk_unique(X, or X flattened without an axis) i32
/// [1 + 3R] (R the rows along the axis); K = sel[0] and
///   Out = X with the rows sel[1 + k] (k < K) along the axis,
///   Indices[k] = sel[1 + k], Index[r] = sel[1 + R + r],
///   Counts[k] = sel[1 + 2R + k].
struct UniqueLowering : OpConversionPattern<UniqueOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(UniqueOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    namespace uq = pdk::unique;
    Location loc = op.getLoc();
    Value x = a.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    Type elem = xt.getElementType();
    int64_t kind = -1;
    if (elem.isF32())
      kind = uq::F32;
    else if (elem.isF64())
      kind = uq::F64;
    else if (elem.isInteger(32))
      kind = uq::I32;
    else if (elem.isInteger(64))
      kind = uq::I64;
    if (kind < 0) {
      op.emitOpError("is computed for float32, float64, int32 and int64 only, got ") << xt;
      return failure();
    }
    int64_t axis = 0;
    if (op.getAxis().empty()) {
      SmallVector<ReassociationIndices> all(1);
      for (int64_t i = 0; i < xt.getRank(); ++i)
        all[0].push_back(i);
      x = xt.getRank() == 0
              ? tensor::ExpandShapeOp::create(r, loc, RankedTensorType::get({1}, elem), x,
                                              SmallVector<ReassociationIndices>{})
                    .getResult()
              : tensor::CollapseShapeOp::create(r, loc, x, all).getResult();
      xt = cast<RankedTensorType>(x.getType());
    } else {
      axis = op.getAxis().front() < 0 ? op.getAxis().front() + xt.getRank() : op.getAxis().front();
    }
    auto c = [&](int64_t v) { return idx(r, loc, v); };
    Value rows = r.createOrFold<tensor::DimOp>(loc, x, axis);
    SmallVector<int64_t> ints(uq::NumInts);
    ints[uq::Elem] = kind;
    ints[uq::Axis] = axis;
    ints[uq::Sorted] = op.getIsSorted() || !op.getAxis().empty();
    Value sel = selectionCall(
        r, loc, "pdk_unique", op, ValueRange{x},
        r.createOrFold<arith::AddIOp>(loc, c(1), r.createOrFold<arith::MulIOp>(loc, c(3), rows)),
        ints, {});
    Value count = arith::IndexCastOp::create(r, loc, r.getIndexType(),
                                             tensor::ExtractOp::create(r, loc, sel, c(0)));
    auto word = [&](OpBuilder &b, Location l, Value base, Value i) -> Value {
      Value at = arith::AddIOp::create(b, l, base, i);
      return tensor::ExtractOp::create(b, l, sel, at);
    };
    // Out: x's shape with K rows along the axis.
    auto outType = cast<RankedTensorType>(op.getOut().getType());
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < outType.getRank(); ++i)
      if (outType.isDynamicDim(i))
        dyn.push_back(i == axis ? count : r.createOrFold<tensor::DimOp>(loc, x, i));
    SmallVector<Value> results;
    results.push_back(generateTensor(r, loc, outType, dyn, [&](OpBuilder &b, Location l) -> Value {
      SmallVector<Value> at;
      for (int64_t i = 0; i < outType.getRank(); ++i)
        at.push_back(linalg::IndexOp::create(b, l, i));
      at[axis] =
          arith::IndexCastOp::create(b, l, b.getIndexType(), word(b, l, idx(b, l, 1), at[axis]));
      return tensor::ExtractOp::create(b, l, x, at);
    }));
    // The index results: `size` words from `base`, in the result's type.
    auto words = [&](Value result, Value base, Value size) {
      auto type = cast<RankedTensorType>(result.getType());
      SmallVector<Value> sizes;
      if (type.isDynamicDim(0))
        sizes.push_back(size);
      results.push_back(generateTensor(r, loc, type, sizes, [&](OpBuilder &b, Location l) -> Value {
        Value w = word(b, l, base, linalg::IndexOp::create(b, l, 0));
        return type.getElementType().isInteger(32)
                   ? w
                   : arith::ExtSIOp::create(b, l, type.getElementType(), w).getResult();
      }));
    };
    if (op.getIndices())
      words(op.getIndices(), c(1), count);
    if (op.getIndex())
      words(op.getIndex(), r.createOrFold<arith::AddIOp>(loc, c(1), rows), rows);
    if (op.getCounts())
      words(
          op.getCounts(),
          r.createOrFold<arith::AddIOp>(loc, c(1), r.createOrFold<arith::MulIOp>(loc, c(2), rows)),
          count);
    replaceWithDeclaredTypes(r, op, results);
    return success();
  }
};
} // namespace

void mlir::pd::populatePdGatherToLinalgPatterns(RewritePatternSet &p) {
  p.add<LookupTableV2Lowering, GatherLowering, IndexSelectLowering, GatherNdLowering,
        ScatterNdAddLowering, IndexPutLowering, SetValueLowering, TakeAlongAxisLowering,
        FlipLowering, TrilTriuLowering, FillAnyLikeLowering, CumsumLowering, WhereIndexLowering,
        MaskedSelectLowering>(p.getContext());
  p.add<RollLowering, PixelShuffleLowering, ScatterLowering, UniqueLowering>(p.getContext());
}

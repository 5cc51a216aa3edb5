//===- Gather.cpp - pd lookups, fills and scans -> linalg ----------------===//
//
// lookup_table_v2 (embedding gather), gather, take_along_axis, flip,
// tril_triu, fill_any_like, and cumsum (as a masked reduction, O(n^2) along
// the axis, fine for sequence lengths).
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "Utils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

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
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < rank; ++i)
      if (type.isDynamicDim(i))
        dyn.push_back(i == axis ? tensor::DimOp::create(r, loc, index, 0).getResult()
                                : tensor::DimOp::create(r, loc, x, i).getResult());
    AffineMap indexMap = AffineMap::get(rank, 0, {r.getAffineDimExpr(axis)}, r.getContext());
    r.replaceOp(op, gatherAlongAxis(r, loc, type, dyn, x, index, indexMap, axis));
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
    r.replaceOp(op, loops(r, 0, x));
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

void mlir::pd::populatePdGatherToLinalgPatterns(RewritePatternSet &p) {
  p.add<LookupTableV2Lowering, GatherLowering, GatherNdLowering, ScatterNdAddLowering,
        TakeAlongAxisLowering, FlipLowering, TrilTriuLowering, FillAnyLikeLowering, CumsumLowering>(
      p.getContext());
}

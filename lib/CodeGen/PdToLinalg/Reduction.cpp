//===- Reduction.cpp - pd reductions and products -> linalg --------------===//
//
// reduce_* (sum, mean, max, min, prod, all, any), logsumexp, p_norm, dist,
// dot, norm, size, Fluid's one-element isinf / isnan / isfinite, mv, bmm,
// arg_max and arg_min.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>
#include <limits>
#include <type_traits>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::lowering;

namespace {
/// reduce_sum / reduce_mean / reduce_max / reduce_min / reduce_prod over
/// `dim` (or all dims), with keep_dim restoring the reduced dims as size 1.
/// Float and (except mean) signed integer elements.
/// The dims a reduction of a rank-`rank` tensor folds, sorted and unique:
/// all of them with `all` (or for a 0-d input), else `dims` (negative
/// ones from the end; an empty list folds all, as Paddle does).
SmallVector<int64_t> reducedDims(int64_t rank, bool all, ArrayRef<int32_t> dims) {
  SmallVector<int64_t> out;
  if (all || rank == 0 || dims.empty()) {
    for (int64_t i = 0; i < rank; ++i)
      out.push_back(i);
    return out;
  }
  for (int32_t d : dims)
    out.push_back(d < 0 ? d + rank : d);
  llvm::sort(out);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/// `x` with the reduced `dims` of a reduction result `y` put back as size
/// 1, so that `y` broadcasts against `x`.
Value keepReducedDims(OpBuilder &b, Location loc, Value y, Value x, ArrayRef<int64_t> dims) {
  auto xt = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(xt.getShape());
  for (int64_t d : dims)
    shape[d] = 1;
  auto kt = RankedTensorType::get(shape, cast<RankedTensorType>(y.getType()).getElementType());
  return *restoreReducedDims(b, loc, y, kt, dims, xt.getRank());
}

/// Replaces the reduction `op` by `y` (the kept dims of its input, of rank
/// `rank`, with `dims` folded) in the op's result shape.
LogicalResult replaceWithReduction(ConversionPatternRewriter &r, Operation *op, Value y,
                                   ArrayRef<int64_t> dims, int64_t rank) {
  auto restored = restoreReducedDims(
      r, op->getLoc(), y, cast<RankedTensorType>(op->getResult(0).getType()), dims, rank);
  if (failed(restored))
    return r.notifyMatchFailure(op, "unexpected reduction result shape");
  r.replaceOp(op, *restored);
  return success();
}

template <typename OpTy> struct ReduceLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    auto rt = cast<RankedTensorType>(op.getType());
    Type elem = xt.getElementType();
    constexpr bool isMax = std::is_same_v<OpTy, ReduceMaxOp>;
    constexpr bool isMin = std::is_same_v<OpTy, ReduceMinOp>;
    constexpr bool isProd = std::is_same_v<OpTy, ReduceProdOp>;
    constexpr bool isMean = std::is_same_v<OpTy, ReduceMeanOp>;
    bool isF = isa<FloatType>(elem);
    bool isInt =
        isa<IntegerType>(elem) && elem.getIntOrFloatBitWidth() > 1 && !elem.isUnsignedInteger();
    if ((!isF && !(isInt && !isMean)) || rt.getElementType() != elem)
      return r.notifyMatchFailure(op, "float or signed integer reductions only");
    int64_t rank = xt.getRank();
    SmallVector<int64_t> dims = reducedDims(rank, op.getReduceAll(), op.getDim());
    double init = isMax    ? -std::numeric_limits<double>::infinity()
                  : isMin  ? std::numeric_limits<double>::infinity()
                  : isProd ? 1.0
                           : 0.0;
    Value y = reduceDims(r, loc, x, dims, init,
                         [&](OpBuilder &b, Location l, Value acc, Value v) -> Value {
                           if (isMax)
                             return isF ? arith::MaximumFOp::create(b, l, acc, v).getResult()
                                        : arith::MaxSIOp::create(b, l, acc, v).getResult();
                           if (isMin)
                             return isF ? arith::MinimumFOp::create(b, l, acc, v).getResult()
                                        : arith::MinSIOp::create(b, l, acc, v).getResult();
                           if (isProd)
                             return isF ? arith::MulFOp::create(b, l, acc, v).getResult()
                                        : arith::MulIOp::create(b, l, acc, v).getResult();
                           return isF ? arith::AddFOp::create(b, l, acc, v).getResult()
                                      : arith::AddIOp::create(b, l, acc, v).getResult();
                         });
    if constexpr (isMean) {
      Value count = arith::ConstantIndexOp::create(r, loc, 1);
      for (int64_t d : dims)
        count = arith::MulIOp::create(r, loc, count, tensor::DimOp::create(r, loc, x, d));
      Value n = arith::UIToFPOp::create(r, loc, elem,
                                        arith::IndexCastOp::create(r, loc, r.getI64Type(), count));
      auto yt = cast<RankedTensorType>(y.getType());
      y = *elementwise(r, loc, yt, ValueRange{y}, {0},
                       [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                         return arith::DivFOp::create(b, l, v[0], n);
                       });
    }
    return replaceWithReduction(r, op, y, dims, rank);
  }
};

/// reduce_all / reduce_any over booleans.
template <typename OpTy, bool All> struct BoolReduceLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Value x = a.getX();
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    SmallVector<int64_t> dims = reducedDims(rank, op.getReduceAll(), op.getDim());
    Value y = reduceDims(r, op.getLoc(), x, dims, All ? 1.0 : 0.0,
                         [](OpBuilder &b, Location l, Value acc, Value v) -> Value {
                           if (All)
                             return arith::AndIOp::create(b, l, acc, v);
                           return arith::OrIOp::create(b, l, acc, v);
                         });
    return replaceWithReduction(r, op, y, dims, rank);
  }
};

/// logsumexp: m + log(sum(exp(x - m))) with m the maximum over the dims
/// (0 where that is infinite, so all -inf gives -inf and +inf gives +inf).
struct LogsumexpLowering : OpConversionPattern<LogsumexpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LogsumexpOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    SmallVector<int64_t> dims = reducedDims(xt.getRank(), op.getReduceAll(), op.getAxis());
    Value m = reduceDims(r, loc, x, dims, -std::numeric_limits<double>::infinity(),
                         [](OpBuilder &b, Location l, Value acc, Value v) -> Value {
                           return arith::MaximumFOp::create(b, l, acc, v);
                         });
    auto mt = cast<RankedTensorType>(m.getType());
    m = *elementwise(
        r, loc, mt, ValueRange{m}, {0}, [](OpBuilder &b, Location l, ValueRange v) -> Value {
          Value inf = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                                            math::AbsFOp::create(b, l, v[0]),
                                            scalar(b, l, v[0].getType(), INFINITY));
          return arith::SelectOp::create(b, l, inf, scalar(b, l, v[0].getType(), 0), v[0]);
        });
    Value mk = keepReducedDims(r, loc, m, x, dims);
    Value e = *elementwise(
        r, loc, xt, ValueRange{x, mk}, {0, 0}, [](OpBuilder &b, Location l, ValueRange v) -> Value {
          return math::ExpOp::create(b, l, arith::SubFOp::create(b, l, v[0], v[1]));
        });
    Value sum =
        reduceDims(r, loc, e, dims, 0.0, [](OpBuilder &b, Location l, Value acc, Value v) -> Value {
          return arith::AddFOp::create(b, l, acc, v);
        });
    Value y =
        *elementwise(r, loc, mt, ValueRange{sum, m}, {0, 0},
                     [](OpBuilder &b, Location l, ValueRange v) -> Value {
                       return arith::AddFOp::create(b, l, math::LogOp::create(b, l, v[0]), v[1]);
                     });
    return replaceWithReduction(r, op, y, dims, xt.getRank());
  }
};

/// The vector p-norm of x over `dims`: (sum |x|^p)^(1/p); max |x| for
/// p = inf, min |x| for p = -inf, the nonzero count for p = 0.
Value pNormOver(OpBuilder &r, Location loc, Value x, ArrayRef<int64_t> dims, double p) {
  auto xt = cast<RankedTensorType>(x.getType());
  Type elem = xt.getElementType();
  Value ax = *elementwise(
      r, loc, xt, ValueRange{x}, {0}, [&](OpBuilder &b, Location l, ValueRange v) -> Value {
        Value m = math::AbsFOp::create(b, l, v[0]);
        if (p == 0) {
          Value nz =
              arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, v[0], scalar(b, l, elem, 0));
          return arith::UIToFPOp::create(b, l, elem, nz);
        }
        if (std::isinf(p) || p == 1)
          return m;
        if (p == 2)
          return arith::MulFOp::create(b, l, m, m);
        return math::PowFOp::create(b, l, m, scalar(b, l, elem, p));
      });
  double init = std::isinf(p) ? (p > 0 ? 0.0 : std::numeric_limits<double>::infinity()) : 0.0;
  Value y = reduceDims(r, loc, ax, dims, init,
                       [&](OpBuilder &b, Location l, Value acc, Value v) -> Value {
                         if (std::isinf(p))
                           return p > 0 ? arith::MaximumFOp::create(b, l, acc, v).getResult()
                                        : arith::MinimumFOp::create(b, l, acc, v).getResult();
                         return arith::AddFOp::create(b, l, acc, v);
                       });
  if (std::isinf(p) || p == 0 || p == 1)
    return y;
  auto yt = cast<RankedTensorType>(y.getType());
  return *elementwise(r, loc, yt, ValueRange{y}, {0},
                      [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                        if (p == 2)
                          return math::SqrtOp::create(b, l, v[0]);
                        return math::PowFOp::create(b, l, v[0], scalar(b, l, elem, 1.0 / p));
                      });
}

/// p_norm along the axis (all elements with asvector).
struct PNormLowering : OpConversionPattern<PNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PNormOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto xt = cast<RankedTensorType>(a.getX().getType());
    SmallVector<int64_t> dims = reducedDims(xt.getRank(), op.getAsvector(), {op.getAxis()});
    Value y = pNormOver(r, op.getLoc(), a.getX(), dims, op.getPorder().convertToDouble());
    return replaceWithReduction(r, op, y, dims, xt.getRank());
  }
};

/// dist: the p-norm of all elements of x - y (broadcast both ways).
struct DistLowering : OpConversionPattern<DistOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(DistOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    SmallVector<Type> diffType;
    if (failed(inferBroadcastTypes(op, a.getX().getType(), a.getY().getType(), -1, false, diffType,
                                   false)))
      return r.notifyMatchFailure(op, "X and Y do not broadcast");
    auto dt = cast<RankedTensorType>(diffType.front());
    int64_t rank = dt.getRank();
    auto offset = [&](Value v) { return rank - cast<RankedTensorType>(v.getType()).getRank(); };
    auto diff = elementwise(r, loc, dt, ValueRange{a.getX(), a.getY()},
                            {offset(a.getX()), offset(a.getY())},
                            [](OpBuilder &b, Location l, ValueRange v) -> Value {
                              return arith::SubFOp::create(b, l, v[0], v[1]);
                            });
    if (failed(diff))
      return r.notifyMatchFailure(op, "cannot size x - y");
    SmallVector<int64_t> dims = reducedDims(rank, true, {});
    Value y = pNormOver(r, loc, *diff, dims, op.getP().convertToDouble());
    return replaceWithReduction(r, op, y, dims, rank);
  }
};

/// dot: sum over the last dim of x * y, kept as size 1.
struct DotLowering : OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(DotOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto xt = cast<RankedTensorType>(a.getX().getType());
    Type elem = xt.getElementType();
    bool isFloat = isa<FloatType>(elem);
    if (!isFloat && !elem.isSignlessInteger())
      return r.notifyMatchFailure(op, "dot takes float or signed integer elements");
    SmallVector<int64_t> shape(xt.getShape());
    if (ShapedType::isDynamic(shape.back()))
      shape.back() = cast<RankedTensorType>(a.getY().getType()).getShape().back();
    auto pt = RankedTensorType::get(shape, elem);
    auto prod = elementwise(r, loc, pt, ValueRange{a.getX(), a.getY()}, {0, 0},
                            [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                              return isFloat ? arith::MulFOp::create(b, l, v[0], v[1]).getResult()
                                             : arith::MulIOp::create(b, l, v[0], v[1]).getResult();
                            });
    if (failed(prod))
      return r.notifyMatchFailure(op, "cannot size x * y");
    SmallVector<int64_t> dims = {xt.getRank() - 1};
    Value y =
        reduceDims(r, loc, *prod, dims, 0.0, [&](OpBuilder &b, Location l, Value acc, Value v) {
          return isFloat ? arith::AddFOp::create(b, l, acc, v).getResult()
                         : arith::AddIOp::create(b, l, acc, v).getResult();
        });
    return replaceWithReduction(r, op, y, dims, xt.getRank());
  }
};

/// norm: Norm = sqrt(sum(x^2) + epsilon) along the axis (kept as size 1)
/// and Out = x / Norm.
struct NormLowering : OpConversionPattern<NormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(NormOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t rank = xt.getRank(), axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    double eps = op.getEpsilon().convertToDouble();
    Type elem = xt.getElementType();
    SmallVector<int64_t> dims = {axis};
    Value sq =
        reduceDims(r, loc, x, dims, 0.0, [](OpBuilder &b, Location l, Value acc, Value v) -> Value {
          return arith::AddFOp::create(b, l, acc, arith::MulFOp::create(b, l, v, v));
        });
    sq = *elementwise(r, loc, cast<RankedTensorType>(sq.getType()), ValueRange{sq}, {0},
                      [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                        return math::SqrtOp::create(
                            b, l, arith::AddFOp::create(b, l, v[0], scalar(b, l, elem, eps)));
                      });
    Value norm = keepReducedDims(r, loc, sq, x, dims);
    auto out =
        elementwise(r, loc, cast<RankedTensorType>(op.getOut().getType()), ValueRange{x, norm},
                    {0, 0}, [](OpBuilder &b, Location l, ValueRange v) -> Value {
                      return arith::DivFOp::create(b, l, v[0], v[1]);
                    });
    if (failed(out))
      return r.notifyMatchFailure(op, "cannot size the result");
    Value n = norm;
    if (n.getType() != op.getNorm().getType())
      n = tensor::CastOp::create(r, loc, op.getNorm().getType(), n);
    r.replaceOp(op, ValueRange{*out, n});
    return success();
  }
};

/// size: the product of the input's dims as a one-element int64 tensor.
struct SizeLowering : OpConversionPattern<SizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SizeOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value v =
        arith::IndexCastOp::create(r, loc, r.getI64Type(), elementCount(r, loc, a.getInput()));
    r.replaceOpWithNewOp<tensor::FromElementsOp>(op, op.getType(), ValueRange{v});
    return success();
  }
};

/// Fluid's isinf / isnan (any element) and isfinite (every element) as one
/// boolean.
template <typename OpTy> struct AnyElementTestLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    constexpr bool all = std::is_same_v<OpTy, IsfiniteOp>;
    Location loc = op.getLoc();
    Value x = a.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    auto bt = RankedTensorType::get(xt.getShape(), r.getI1Type());
    Value test = *elementwise(
        r, loc, bt, ValueRange{x}, {0}, [](OpBuilder &b, Location l, ValueRange v) -> Value {
          Value inf = scalar(b, l, v[0].getType(), INFINITY);
          Value mag = math::AbsFOp::create(b, l, v[0]);
          if (std::is_same_v<OpTy, IsnanOp>)
            return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, v[0], v[0]);
          if (std::is_same_v<OpTy, IsinfOp>)
            return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, mag, inf);
          return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, mag, inf);
        });
    SmallVector<int64_t> dims = reducedDims(xt.getRank(), true, {});
    Value y = reduceDims(r, loc, test, dims, all ? 1.0 : 0.0,
                         [](OpBuilder &b, Location l, Value acc, Value v) -> Value {
                           if (all)
                             return arith::AndIOp::create(b, l, acc, v);
                           return arith::OrIOp::create(b, l, acc, v);
                         });
    return replaceWithReduction(r, op, y, dims, xt.getRank());
  }
};

/// mv (linalg.matvec) and bmm (linalg.batch_matmul) into zeroed results.
struct MvLowering : OpConversionPattern<MvOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MvOp op, OpAdaptor a, ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value> dyn;
    if (type.isDynamicDim(0))
      dyn.push_back(tensor::DimOp::create(r, op.getLoc(), a.getX(), 0));
    Value init = filled(r, op.getLoc(), type, dyn, 0.0);
    r.replaceOp(op, linalg::MatvecOp::create(r, op.getLoc(), TypeRange{type},
                                             ValueRange{a.getX(), a.getVec()}, ValueRange{init})
                        .getResult(0));
    return success();
  }
};

struct BmmLowering : OpConversionPattern<BmmOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BmmOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Location loc = op.getLoc();
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < 3; ++i)
      if (type.isDynamicDim(i))
        dyn.push_back(tensor::DimOp::create(r, loc, i == 2 ? a.getY() : a.getX(), i));
    Value init = filled(r, loc, type, dyn, 0.0);
    r.replaceOp(op, linalg::BatchMatmulOp::create(r, loc, TypeRange{type},
                                                  ValueRange{a.getX(), a.getY()}, ValueRange{init})
                        .getResult(0));
    return success();
  }
};

/// arg_max / arg_min: the first position of the extreme value along `axis`
/// (of the flattened input with `flatten`), as int32 or int64.
template <typename OpTy> struct ArgLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    constexpr bool isMax = std::is_same_v<OpTy, ArgMaxOp>;
    Location loc = op.getLoc();
    Value x = a.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    auto rt = cast<RankedTensorType>(op.getType());
    Type elem = xt.getElementType();
    bool isF = isa<FloatType>(elem);
    if (!isF &&
        (!isa<IntegerType>(elem) || elem.getIntOrFloatBitWidth() == 1 || elem.isUnsignedInteger()))
      return r.notifyMatchFailure(op, "float or signed integer input only");
    // A 0-d input holds one element, at index 0 (and a rank-0
    // collapse_shape, which flatten would build, is invalid: fuzz_compile
    // crashed the converter with one).
    if (xt.getRank() == 0) {
      if (!rt.hasStaticShape())
        return r.notifyMatchFailure(op, "dynamic result of a 0-d input");
      r.replaceOp(op, filled(r, loc, rt, {}, 0.0));
      return success();
    }
    int64_t axis = op.getAxis();
    if (op.getFlatten()) {
      SmallVector<ReassociationIndices> all(1);
      for (int64_t i = 0; i < xt.getRank(); ++i)
        all[0].push_back(i);
      x = tensor::CollapseShapeOp::create(r, loc, x, all);
      xt = cast<RankedTensorType>(x.getType());
      axis = 0;
    }
    int64_t rank = xt.getRank();
    if (axis < 0)
      axis += rank;
    SmallVector<int64_t> kept;
    SmallVector<AffineExpr> keptExprs;
    SmallVector<Value> dyn;
    SmallVector<utils::IteratorType> iters;
    for (int64_t i = 0; i < rank; ++i) {
      iters.push_back(i == axis ? utils::IteratorType::reduction : utils::IteratorType::parallel);
      if (i == axis)
        continue;
      kept.push_back(xt.getDimSize(i));
      keptExprs.push_back(r.getAffineDimExpr(i));
      if (xt.isDynamicDim(i))
        dyn.push_back(tensor::DimOp::create(r, loc, x, i));
    }
    auto valType = RankedTensorType::get(kept, elem);
    auto idxType = RankedTensorType::get(kept, rt.getElementType());
    double worst =
        isMax ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    Value accV = filled(r, loc, valType, dyn, worst), accI = filled(r, loc, idxType, dyn, 0.0);
    AffineMap keptMap = AffineMap::get(rank, 0, keptExprs, r.getContext());
    SmallVector<AffineMap> maps = {r.getMultiDimIdentityMap(rank), keptMap, keptMap};
    auto gen = linalg::GenericOp::create(
        r, loc, TypeRange{valType, idxType}, ValueRange{x}, ValueRange{accV, accI}, maps, iters,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value better;
          if (isF)
            better = arith::CmpFOp::create(
                b, l, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, args[0],
                args[1]);
          else
            better = arith::CmpIOp::create(
                b, l, isMax ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt, args[0],
                args[1]);
          Value pos = arith::IndexCastOp::create(b, l, rt.getElementType(),
                                                 linalg::IndexOp::create(b, l, axis));
          linalg::YieldOp::create(
              b, l,
              ValueRange{arith::SelectOp::create(b, l, better, args[0], args[1]).getResult(),
                         arith::SelectOp::create(b, l, better, pos, args[2]).getResult()});
        });
    auto restored = restoreReducedDims(r, loc, gen.getResult(1), rt, {axis}, rank);
    if (failed(restored))
      return r.notifyMatchFailure(op, "unexpected result shape");
    r.replaceOp(op, *restored);
    return success();
  }
};

} // namespace

void mlir::pd::populatePdReductionToLinalgPatterns(RewritePatternSet &p) {
  p.add<ReduceLowering<ReduceSumOp>, ReduceLowering<ReduceMeanOp>, ReduceLowering<ReduceMaxOp>,
        ReduceLowering<ReduceMinOp>, ReduceLowering<ReduceProdOp>, ArgLowering<ArgMaxOp>,
        ArgLowering<ArgMinOp>, BoolReduceLowering<ReduceAllOp, true>,
        BoolReduceLowering<ReduceAnyOp, false>, LogsumexpLowering, PNormLowering, MvLowering,
        BmmLowering, DistLowering, DotLowering, NormLowering, SizeLowering,
        AnyElementTestLowering<IsinfOp>, AnyElementTestLowering<IsnanOp>,
        AnyElementTestLowering<IsfiniteOp>>(p.getContext());
}

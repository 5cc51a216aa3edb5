//===- Metrics.cpp - pd losses and metrics of eval programs -> linalg ------===//
//
// The loss and metric ops Fluid evaluation programs keep after
// save_inference_model, with Paddle's forward semantics:
//   cross_entropy2  Y[r] = -log(X[r, label[r]]) with +-inf held to +-1e20
//                   (Paddle's TolerableValue), MatchX[r] = X[r, label[r]];
//                   both 0 where label[r] == ignore_index
//   mean            sum of all elements / count, shape [1]
//   top_k           the k largest along the last dim, sorted descending,
//                   equal values in index order; indices int64
//   top_k_v2        the same along any axis, largest or smallest first
//   argsort         the whole axis sorted, ascending or descending
//   accuracy        Correct = rows whose Label is among their Indices,
//                   Total = rows, Accuracy = Correct / Total
// The ranks of the sorts come from comparing every pair of a line (O(n^2)
// per line): these ops sit at the end of a classifier or a detection head,
// on a few thousand values.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::lowering;

namespace {

/// The indices of the current linalg.generic iteration, one per dim.
SmallVector<Value> positions(OpBuilder &b, Location l, int64_t rank) {
  SmallVector<Value> p;
  for (int64_t d = 0; d < rank; ++d)
    p.push_back(linalg::IndexOp::create(b, l, d));
  return p;
}

/// scf.for from 0 to n carrying `init`; `body(i, carried)` returns the next.
Value loop(OpBuilder &b, Location l, Value n, ValueRange init,
           function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)> body,
           unsigned result = 0) {
  auto f = scf::ForOp::create(b, l, idx(b, l, 0), n, idx(b, l, 1), init,
                              [&](OpBuilder &nb, Location nl, Value i, ValueRange it) {
                                scf::YieldOp::create(nb, nl, body(nb, nl, i, it));
                              });
  return f.getResult(result);
}

struct CrossEntropy2Lowering : OpConversionPattern<CrossEntropy2Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(CrossEntropy2Op op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getY().getType());
    Value x = a.getX(), label = a.getLabel();
    int64_t rank = type.getRank();
    int64_t ignore = op.getIgnoreIndex();
    SmallVector<Value> dyn = dynSizesFrom(r, loc, x, type);
    auto gen = [&](bool loss) {
      return generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
        SmallVector<Value> p = positions(b, l, rank);
        Value lbl = tensor::ExtractOp::create(b, l, label, p);
        Type lt = lbl.getType();
        Value ignored = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, lbl,
                                              scalar(b, l, lt, static_cast<double>(ignore)));
        SmallVector<Value> q = p;
        q.back() = clampedIndex(b, l, lbl, x, rank - 1, /*wrapNegative=*/false);
        Value v = tensor::ExtractOp::create(b, l, x, q);
        Type et = v.getType();
        if (loss) {
          Value lg = math::LogOp::create(b, l, v);
          lg = arith::MaximumFOp::create(b, l, lg, scalar(b, l, et, -1e20));
          lg = arith::MinimumFOp::create(b, l, lg, scalar(b, l, et, 1e20));
          v = arith::NegFOp::create(b, l, lg);
        }
        return arith::SelectOp::create(b, l, ignored, scalar(b, l, et, 0.0), v);
      });
    };
    Value y = gen(true);
    Value match = gen(false);
    r.replaceOp(op, {y, match});
    return success();
  }
};

struct MeanLowering : OpConversionPattern<MeanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MeanOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    auto type = cast<RankedTensorType>(op.getType());
    if (type.getRank() != 1 || type.isDynamicDim(0) || type.getDimSize(0) != 1)
      return r.notifyMatchFailure(op, "result is not [1]");
    int64_t rank = xt.getRank();
    Value init = filled(r, loc, type, {}, 0.0);
    SmallVector<AffineMap> maps{r.getMultiDimIdentityMap(rank),
                                AffineMap::get(rank, 0, r.getAffineConstantExpr(0))};
    SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::reduction);
    Value sum = linalg::GenericOp::create(
                    r, loc, type, ValueRange{x}, ValueRange{init}, maps, iters,
                    [](OpBuilder &b, Location l, ValueRange args) {
                      linalg::YieldOp::create(
                          b, l, arith::AddFOp::create(b, l, args[0], args[1]).getResult());
                    })
                    .getResult(0);
    Value count = idx(r, loc, 1);
    for (int64_t d = 0; d < rank; ++d)
      count = arith::MulIOp::create(r, loc, count, tensor::DimOp::create(r, loc, x, d));
    Type et = type.getElementType();
    Value n = arith::UIToFPOp::create(r, loc, et,
                                      arith::IndexCastUIOp::create(r, loc, r.getI64Type(), count));
    auto out = elementwise(r, loc, type, ValueRange{sum}, {0},
                           [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                             return arith::DivFOp::create(b, l, args[0], n);
                           });
    if (failed(out))
      return failure();
    r.replaceOp(op, *out);
    return success();
  }
};

/// x[m] ranks before x[i] in a sort (descending or ascending) that keeps
/// index order among equal values.
Value before(OpBuilder &b, Location l, Value xm, Value xi, Value m, Value i, bool descending) {
  bool isF = isa<FloatType>(xm.getType());
  auto fp = descending ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT;
  auto ip = descending ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt;
  Value ahead = isF ? arith::CmpFOp::create(b, l, fp, xm, xi).getResult()
                    : arith::CmpIOp::create(b, l, ip, xm, xi).getResult();
  Value eq = isF ? arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, xm, xi).getResult()
                 : arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, xm, xi).getResult();
  Value lower = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, m, i);
  return arith::OrIOp::create(b, l, ahead, arith::AndIOp::create(b, l, eq, lower));
}

/// The first `k` elements of x along `axis` in sorted order and their
/// positions: the values in `valType`, the indices (int64) in `idxType`.
/// Each element's rank is the number of elements of its line that sort
/// before it, a permutation of the line, so the sort is stable.
std::pair<Value, Value> sortAlongAxis(ConversionPatternRewriter &r, Location loc, Value x,
                                      int64_t axis, bool descending, Value k,
                                      RankedTensorType valType, RankedTensorType idxType) {
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t rank = xt.getRank();
  Value n = tensor::DimOp::create(r, loc, x, axis);
  auto rankType = RankedTensorType::get(xt.getShape(), r.getIndexType());
  Value ranks = generateTensor(
      r, loc, rankType, dynSizesFrom(r, loc, x, rankType), [&](OpBuilder &b, Location l) {
        SmallVector<Value> p = positions(b, l, rank);
        Value i = p[axis];
        Value xi = tensor::ExtractOp::create(b, l, x, p);
        return loop(b, l, n, ValueRange{idx(b, l, 0)},
                    [&](OpBuilder &nb, Location nl, Value m, ValueRange it) {
                      SmallVector<Value> q = p;
                      q[axis] = m;
                      Value xm = tensor::ExtractOp::create(nb, nl, x, q);
                      Value inc =
                          arith::SelectOp::create(nb, nl, before(nb, nl, xm, xi, m, i, descending),
                                                  idx(nb, nl, 1), idx(nb, nl, 0));
                      return SmallVector<Value>{arith::AddIOp::create(nb, nl, it[0], inc)};
                    });
      });
  SmallVector<Value> dyn;
  for (int64_t d = 0; d < rank; ++d)
    if (valType.isDynamicDim(d))
      dyn.push_back(d == axis ? k : tensor::DimOp::create(r, loc, x, d).getResult());
  // The element whose rank is j.
  auto pick = [&](bool value, RankedTensorType type) {
    return generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
      SmallVector<Value> p = positions(b, l, rank);
      Value j = p[axis];
      Value found =
          loop(b, l, n, ValueRange{idx(b, l, 0)},
               [&](OpBuilder &nb, Location nl, Value i, ValueRange it) {
                 SmallVector<Value> q = p;
                 q[axis] = i;
                 Value ri = tensor::ExtractOp::create(nb, nl, ranks, q);
                 Value hit = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq, ri, j);
                 return SmallVector<Value>{arith::SelectOp::create(nb, nl, hit, i, it[0])};
               });
      if (!value)
        return arith::IndexCastOp::create(b, l, type.getElementType(), found);
      SmallVector<Value> q = p;
      q[axis] = found;
      return tensor::ExtractOp::create(b, l, x, q);
    });
  };
  return {pick(true, valType), pick(false, idxType)};
}

/// top_k (the last dim, largest first), top_k_v2 (axis, largest or
/// smallest; `sorted = false` also gets sorted order, which Paddle allows)
/// and argsort (the whole axis).
template <typename OpTy> struct SortLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t rank = xt.getRank();
    if (rank == 0)
      return r.notifyMatchFailure(op, "a 0-d input is not supported");
    int64_t axis = rank - 1;
    bool descending = true;
    Value k;
    if constexpr (std::is_same_v<OpTy, ArgsortOp>) {
      axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
      descending = op.getDescending();
      k = tensor::DimOp::create(r, loc, x, axis);
    } else {
      if constexpr (std::is_same_v<OpTy, TopKV2Op>) {
        axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
        descending = op.getLargest();
      }
      if (a.getKInput()) {
        k = arith::IndexCastOp::create(r, loc, r.getIndexType(),
                                       extractScalar(r, loc, a.getKInput()));
        // k is clamped to the axis so the gather loop never reads past it.
        k = arith::MinSIOp::create(r, loc, k, tensor::DimOp::create(r, loc, x, axis));
      } else {
        k = idx(r, loc, op.getK());
      }
    }
    auto valType = cast<RankedTensorType>(op.getOut().getType());
    auto idxType = cast<RankedTensorType>(op.getIndices().getType());
    auto [values, indices] = sortAlongAxis(r, loc, x, axis, descending, k, valType, idxType);
    r.replaceOp(op, {values, indices});
    return success();
  }
};

struct AccuracyLowering : OpConversionPattern<AccuracyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AccuracyOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value ind = a.getIndices(), label = a.getLabel();
    Value rows = tensor::DimOp::create(r, loc, ind, 0), k = tensor::DimOp::create(r, loc, ind, 1);
    auto i32 = r.getI32Type();
    auto countType = RankedTensorType::get({1}, i32);
    Value correct = generateTensor(r, loc, countType, {}, [&](OpBuilder &b, Location l) -> Value {
      Value zero = arith::ConstantIntOp::create(b, l, i32, 0);
      return loop(
          b, l, rows, ValueRange{zero}, [&](OpBuilder &nb, Location nl, Value i, ValueRange it) {
            Value lbl = tensor::ExtractOp::create(nb, nl, label, ValueRange{i, idx(nb, nl, 0)});
            Value no = arith::ConstantIntOp::create(nb, nl, nb.getI1Type(), 0);
            Value hit = loop(nb, nl, k, ValueRange{no},
                             [&](OpBuilder &b2, Location l2, Value j, ValueRange it2) {
                               Value v = tensor::ExtractOp::create(b2, l2, ind, ValueRange{i, j});
                               Value w = convertScalar(b2, l2, lbl, v.getType());
                               Value eq =
                                   arith::CmpIOp::create(b2, l2, arith::CmpIPredicate::eq, v, w);
                               return SmallVector<Value>{arith::OrIOp::create(b2, l2, it2[0], eq)};
                             });
            Value inc = arith::ExtUIOp::create(nb, nl, i32, hit);
            return SmallVector<Value>{arith::AddIOp::create(nb, nl, it[0], inc)};
          });
    });
    Value total = generateTensor(r, loc, countType, {}, [&](OpBuilder &b, Location l) -> Value {
      return arith::IndexCastOp::create(b, l, i32, rows);
    });
    auto accType = cast<RankedTensorType>(op.getAccuracy().getType());
    Type et = accType.getElementType();
    auto acc = elementwise(r, loc, accType, ValueRange{correct, total}, {0, 0},
                           [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                             Value c = arith::SIToFPOp::create(b, l, et, args[0]);
                             Value t = arith::SIToFPOp::create(b, l, et, args[1]);
                             return arith::DivFOp::create(b, l, c, t);
                           });
    if (failed(acc))
      return failure();
    auto cast1 = [&](Value v, Value res) {
      return v.getType() == res.getType()
                 ? v
                 : tensor::CastOp::create(r, loc, res.getType(), v).getResult();
    };
    r.replaceOp(op, {cast1(*acc, op.getAccuracy()), cast1(correct, op.getCorrect()),
                     cast1(total, op.getTotal())});
    return success();
  }
};
} // namespace

void mlir::pd::populatePdMetricsToLinalgPatterns(RewritePatternSet &p) {
  p.add<CrossEntropy2Lowering, MeanLowering, SortLowering<TopKOp>, SortLowering<TopKV2Op>,
        SortLowering<ArgsortOp>, AccuracyLowering>(p.getContext());
}

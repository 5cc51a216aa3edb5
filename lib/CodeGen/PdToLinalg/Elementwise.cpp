//===- Elementwise.cpp - pd elementwise ops -> linalg.generic ------------===//
//
// Activations (prelu included), Paddle-broadcasting binary ops, comparisons,
// scale, clip, dropout (inference), cast, assign, sum and affine_channel.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::lowering;

namespace {
Value cst(OpBuilder &b, Location loc, Value like, double v) {
  return scalar(b, loc, like.getType(), v);
}

bool isFloat(Value v) { return isa<FloatType>(v.getType()); }

Value maxOf(OpBuilder &b, Location loc, Value x, Value y) {
  return isFloat(x) ? arith::MaximumFOp::create(b, loc, x, y).getResult()
                    : arith::MaxSIOp::create(b, loc, x, y).getResult();
}
Value minOf(OpBuilder &b, Location loc, Value x, Value y) {
  return isFloat(x) ? arith::MinimumFOp::create(b, loc, x, y).getResult()
                    : arith::MinSIOp::create(b, loc, x, y).getResult();
}
Value mulOf(OpBuilder &b, Location loc, Value x, Value y) {
  return isFloat(x) ? arith::MulFOp::create(b, loc, x, y).getResult()
                    : arith::MulIOp::create(b, loc, x, y).getResult();
}
Value addOf(OpBuilder &b, Location loc, Value x, Value y) {
  return isFloat(x) ? arith::AddFOp::create(b, loc, x, y).getResult()
                    : arith::AddIOp::create(b, loc, x, y).getResult();
}
/// Lowers a one-input op whose result has the input's shape.
template <typename OpTy> struct UnaryLowering : OpConversionPattern<OpTy> {
  using Body = std::function<Value(OpTy, OpBuilder &, Location, Value)>;
  UnaryLowering(MLIRContext *ctx, Body body)
      : OpConversionPattern<OpTy>(ctx), body(std::move(body)) {}
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    Value x = adaptor.getOperands()[0];
    auto r = elementwise(
        rewriter, op.getLoc(), type, ValueRange{x}, {0},
        [&](OpBuilder &b, Location loc, ValueRange args) { return body(op, b, loc, args[0]); });
    if (failed(r))
      return rewriter.notifyMatchFailure(op, "cannot size the result");
    rewriter.replaceOp(op, *r);
    return success();
  }
  Body body;
};

template <typename T> auto axisOf(T op, int) -> decltype(int64_t(op.getAxis())) {
  return op.getAxis();
}
template <typename T> int64_t axisOf(T, long) { return -1; }

/// Lowers a Paddle binary op with its axis broadcasting rule. Unsigned
/// integer operands (uint8) take `unsignedBody` on the values
/// reinterpreted as signless (ops without one do not match them).
template <typename OpTy> struct BinaryLowering : OpConversionPattern<OpTy> {
  using Body = std::function<Value(OpBuilder &, Location, Value, Value)>;
  BinaryLowering(MLIRContext *ctx, Body body, Body unsignedBody)
      : OpConversionPattern<OpTy>(ctx), body(std::move(body)),
        unsignedBody(std::move(unsignedBody)) {}
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    Value x = adaptor.getX(), y = adaptor.getY();
    int64_t axis = axisOf(op, 0);
    int64_t rx = cast<RankedTensorType>(x.getType()).getRank();
    int64_t ry = cast<RankedTensorType>(y.getType()).getRank();
    int64_t ox = rx >= ry ? 0 : alignOffset(ry, rx, axis);
    int64_t oy = rx >= ry ? alignOffset(rx, ry, axis) : 0;
    Type elem = cast<RankedTensorType>(x.getType()).getElementType();
    bool isUnsigned = elem.isUnsignedInteger();
    if (isUnsigned && !unsignedBody)
      return rewriter.notifyMatchFailure(op, "no unsigned form");
    auto r = elementwise(rewriter, op.getLoc(), type, ValueRange{x, y}, {ox, oy},
                         [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
                           if (!isUnsigned)
                             return body(b, loc, args[0], args[1]);
                           Type signless = b.getIntegerType(elem.getIntOrFloatBitWidth());
                           auto as = [&](Value v, Type t) {
                             return UnrealizedConversionCastOp::create(b, loc, t, v).getResult(0);
                           };
                           Value xs = as(args[0], signless);
                           Value ys = as(args[1], signless);
                           Value res = unsignedBody(b, loc, xs, ys);
                           return res.getType() == signless ? as(res, elem) : res;
                         });
    if (failed(r))
      return rewriter.notifyMatchFailure(op, "cannot size the result");
    rewriter.replaceOp(op, *r);
    return success();
  }
  Body body, unsignedBody;
};

struct CastLowering : OpConversionPattern<CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(CastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto r = elementwise(rewriter, op.getLoc(), type, ValueRange{adaptor.getX()}, {0},
                         [&](OpBuilder &b, Location loc, ValueRange args) {
                           return convertScalar(b, loc, args[0], type.getElementType());
                         });
    if (failed(r))
      return failure();
    rewriter.replaceOp(op, *r);
    return success();
  }
};

/// where(c, x, y) with numpy broadcasting of all three operands.
struct WhereLowering : OpConversionPattern<WhereOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WhereOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value> in = {adaptor.getCondition(), adaptor.getX(), adaptor.getY()};
    SmallVector<int64_t> offsets;
    for (Value v : in)
      offsets.push_back(type.getRank() - cast<RankedTensorType>(v.getType()).getRank());
    auto r = elementwise(rewriter, op.getLoc(), type, in, offsets,
                         [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
                           return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
                         });
    if (failed(r))
      return failure();
    rewriter.replaceOp(op, *r);
    return success();
  }
};

/// sum: the elementwise sum of same-shaped inputs (uint8 wraps, as the
/// other integer adds).
struct SumLowering : OpConversionPattern<SumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SumOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Type elem = type.getElementType();
    SmallVector<int64_t> offsets(a.getX().size(), 0);
    auto y = elementwise(r, op.getLoc(), type, a.getX(), offsets,
                         [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                           auto as = [&](Value x, Type t) {
                             return UnrealizedConversionCastOp::create(b, l, t, x).getResult(0);
                           };
                           Type signless = elem.isUnsignedInteger()
                                               ? b.getIntegerType(elem.getIntOrFloatBitWidth())
                                               : elem;
                           Value acc = signless == elem ? v[0] : as(v[0], signless);
                           for (Value x : v.drop_front())
                             acc = addOf(b, l, acc, signless == elem ? x : as(x, signless));
                           return signless == elem ? acc : as(acc, elem);
                         });
    if (failed(y))
      return r.notifyMatchFailure(op, "cannot size the result");
    r.replaceOp(op, *y);
    return success();
  }
};

/// The channel dim of a layout attribute (NHWC-like: the last; else 1).
int64_t channelDimOf(StringRef layout, int64_t rank) {
  return layout == "NHWC" || layout == "NDHWC" || layout == "NLC" ? rank - 1 : 1;
}

/// `t` as a 1-D tensor (its elements in order).
Value flatten1D(OpBuilder &b, Location loc, Value t) {
  auto tt = cast<RankedTensorType>(t.getType());
  if (tt.getRank() == 1)
    return t;
  ReassociationIndices all;
  for (int64_t i = 0; i < tt.getRank(); ++i)
    all.push_back(i);
  if (tt.getRank() == 0)
    return tensor::ExpandShapeOp::create(b, loc, RankedTensorType::get({1}, tt.getElementType()), t,
                                         ArrayRef<ReassociationIndices>{});
  return tensor::CollapseShapeOp::create(b, loc, t, ArrayRef<ReassociationIndices>{all});
}

/// prelu: x > 0 ? x : alpha * x, with one alpha for all elements, one per
/// channel, or one per element of a sample (alpha read flattened).
struct PreluLowering : OpConversionPattern<PreluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PreluOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX(), alpha = flatten1D(r, loc, a.getAlpha());
    auto type = cast<RankedTensorType>(op.getType());
    int64_t rank = type.getRank();
    StringRef mode = op.getMode();
    if (mode != "all" && mode != "channel" && mode != "element")
      return r.notifyMatchFailure(op, "unknown mode");
    int64_t ch = channelDimOf(op.getDataFormat(), rank);
    SmallVector<Value> dims;
    for (int64_t i = 0; i < rank; ++i)
      dims.push_back(tensor::DimOp::create(r, loc, x, i));
    Value y = generateTensor(
        r, loc, type, dynSizesFrom(r, loc, x, type), [&](OpBuilder &b, Location l) -> Value {
          SmallVector<Value> at;
          for (int64_t i = 0; i < rank; ++i)
            at.push_back(linalg::IndexOp::create(b, l, i));
          Value k = idx(b, l, 0);
          if (mode == "channel") {
            k = at[ch];
          } else if (mode == "element") {
            for (int64_t i = 1; i < rank; ++i)
              k = arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, k, dims[i]), at[i]);
          }
          Value v = tensor::ExtractOp::create(b, l, x, at);
          Value s = tensor::ExtractOp::create(b, l, alpha, ValueRange{k});
          Value pos = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, v, cst(b, l, v, 0));
          return arith::SelectOp::create(b, l, pos, v, arith::MulFOp::create(b, l, s, v));
        });
    r.replaceOp(op, y);
    return success();
  }
};

/// affine_channel: x * scale[c] + bias[c] along the layout's channel dim.
struct AffineChannelLowering : OpConversionPattern<AffineChannelOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AffineChannelOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getType());
    int64_t ch = channelDimOf(op.getDataLayout(), type.getRank());
    Value scale = flatten1D(r, op.getLoc(), a.getScale()),
          bias = flatten1D(r, op.getLoc(), a.getBias());
    auto y = elementwise(r, op.getLoc(), type, ValueRange{a.getX(), scale, bias}, {0, ch, ch},
                         [](OpBuilder &b, Location l, ValueRange v) -> Value {
                           return arith::AddFOp::create(
                               b, l, arith::MulFOp::create(b, l, v[0], v[1]), v[2]);
                         });
    if (failed(y))
      return r.notifyMatchFailure(op, "cannot size the result");
    r.replaceOp(op, *y);
    return success();
  }
};

/// assign (and other identities that survive) forward their operand.
struct AssignLowering : OpConversionPattern<AssignOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AssignOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    if (x.getType() != op.getType())
      x = tensor::CastOp::create(rewriter, op.getLoc(), op.getType(), x);
    rewriter.replaceOp(op, x);
    return success();
  }
};

template <typename OpTy>
void addUnary(RewritePatternSet &p, typename UnaryLowering<OpTy>::Body body) {
  p.add<UnaryLowering<OpTy>>(p.getContext(), std::move(body));
}
/// bitwise_right_shift with the given is_arithmetic (false: logical for
/// signed values too).
template <bool Arithmetic> struct RightShiftLowering : BinaryLowering<BitwiseRightShiftOp> {
  using Base = BinaryLowering<BitwiseRightShiftOp>;
  using Base::Base;
  LogicalResult matchAndRewrite(BitwiseRightShiftOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    if (op.getIsArithmetic() != Arithmetic)
      return r.notifyMatchFailure(op, "other is_arithmetic");
    return Base::matchAndRewrite(op, a, r);
  }
};

template <typename OpTy>
void addBinary(RewritePatternSet &p, typename BinaryLowering<OpTy>::Body body,
               typename BinaryLowering<OpTy>::Body unsignedBody = nullptr) {
  p.add<BinaryLowering<OpTy>>(p.getContext(), std::move(body), std::move(unsignedBody));
}

template <typename F, typename I> typename BinaryLowering<ElementwiseAddOp>::Body arith2() {
  return [](OpBuilder &b, Location loc, Value x, Value y) -> Value {
    if (isFloat(x))
      return F::create(b, loc, x, y);
    return I::create(b, loc, x, y);
  };
}

template <arith::CmpFPredicate F, arith::CmpIPredicate I>
typename BinaryLowering<EqualOp>::Body compare() {
  return [](OpBuilder &b, Location loc, Value x, Value y) -> Value {
    if (isFloat(x))
      return arith::CmpFOp::create(b, loc, F, x, y);
    return arith::CmpIOp::create(b, loc, I, x, y);
  };
}
} // namespace

void mlir::pd::populatePdElementwiseToLinalgPatterns(RewritePatternSet &p) {
  addUnary<ReluOp>(
      p, [](ReluOp, OpBuilder &b, Location l, Value x) { return maxOf(b, l, x, cst(b, l, x, 0)); });
  addUnary<Relu6Op>(p, [](Relu6Op op, OpBuilder &b, Location l, Value x) {
    return minOf(b, l, maxOf(b, l, x, cst(b, l, x, 0)),
                 cst(b, l, x, op.getThreshold().convertToDouble()));
  });
  addUnary<LeakyReluOp>(p, [](LeakyReluOp op, OpBuilder &b, Location l, Value x) {
    return applyActivation(b, l, x, "leaky_relu", op.getAlpha().convertToDouble());
  });
  addUnary<SigmoidOp>(
      p, [](SigmoidOp, OpBuilder &b, Location l, Value x) { return sigmoid(b, l, x); });
  // silu(x) = x * sigmoid(x) (swish with beta 1).
  addUnary<SiluOp>(p, [](SiluOp, OpBuilder &b, Location l, Value x) -> Value {
    return arith::MulFOp::create(b, l, x, sigmoid(b, l, x));
  });
  addUnary<TanhOp>(p, [](TanhOp, OpBuilder &b, Location l, Value x) -> Value {
    return math::TanhOp::create(b, l, x);
  });
  addUnary<ExpOp>(p, [](ExpOp, OpBuilder &b, Location l, Value x) -> Value {
    return math::ExpOp::create(b, l, x);
  });
  addUnary<LogOp>(p, [](LogOp, OpBuilder &b, Location l, Value x) -> Value {
    return math::LogOp::create(b, l, x);
  });
  addUnary<SqrtOp>(p, [](SqrtOp, OpBuilder &b, Location l, Value x) -> Value {
    return math::SqrtOp::create(b, l, x);
  });
  addUnary<RsqrtOp>(p, [](RsqrtOp, OpBuilder &b, Location l, Value x) -> Value {
    return math::RsqrtOp::create(b, l, x);
  });
  addUnary<ErfOp>(p, [](ErfOp, OpBuilder &b, Location l, Value x) -> Value {
    return math::ErfOp::create(b, l, x);
  });
  // Unary math with a direct math-dialect op (libm or LLVM intrinsics).
  auto mathUnary = [&p]<typename OpTy, typename MathOp>() {
    addUnary<OpTy>(p, [](OpTy, OpBuilder &b, Location l, Value x) -> Value {
      return MathOp::create(b, l, x);
    });
  };
  mathUnary.operator()<SinOp, math::SinOp>();
  mathUnary.operator()<CosOp, math::CosOp>();
  mathUnary.operator()<TanOp, math::TanOp>();
  mathUnary.operator()<AsinOp, math::AsinOp>();
  mathUnary.operator()<AcosOp, math::AcosOp>();
  mathUnary.operator()<AtanOp, math::AtanOp>();
  mathUnary.operator()<SinhOp, math::SinhOp>();
  mathUnary.operator()<CoshOp, math::CoshOp>();
  mathUnary.operator()<AsinhOp, math::AsinhOp>();
  mathUnary.operator()<AcoshOp, math::AcoshOp>();
  mathUnary.operator()<AtanhOp, math::AtanhOp>();
  mathUnary.operator()<FloorOp, math::FloorOp>();
  mathUnary.operator()<CeilOp, math::CeilOp>();
  addUnary<ReciprocalOp>(p, [](ReciprocalOp, OpBuilder &b, Location l, Value x) -> Value {
    return arith::DivFOp::create(b, l, cst(b, l, x, 1.0), x);
  });
  addUnary<SignOp>(p, [](SignOp, OpBuilder &b, Location l, Value x) -> Value {
    Value zero = cst(b, l, x, 0);
    Value pos = compare<arith::CmpFPredicate::OGT, arith::CmpIPredicate::sgt>()(b, l, x, zero);
    Value neg = compare<arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt>()(b, l, x, zero);
    Value r = arith::SelectOp::create(b, l, neg, cst(b, l, x, -1), zero);
    // NaN keeps NaN (neither comparison holds): select x itself there.
    if (isFloat(x)) {
      Value nan = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, x, x);
      r = arith::SelectOp::create(b, l, nan, x, r);
    }
    return arith::SelectOp::create(b, l, pos, cst(b, l, x, 1), r);
  });
  addUnary<SoftsignOp>(p, [](SoftsignOp, OpBuilder &b, Location l, Value x) -> Value {
    Value d = arith::AddFOp::create(b, l, cst(b, l, x, 1.0), math::AbsFOp::create(b, l, x));
    return arith::DivFOp::create(b, l, x, d);
  });
  addUnary<SoftplusOp>(p, [](SoftplusOp op, OpBuilder &b, Location l, Value x) -> Value {
    double beta = op.getBeta().convertToDouble();
    Value bx = arith::MulFOp::create(b, l, x, cst(b, l, x, beta));
    Value sp = arith::DivFOp::create(
        b, l, math::Log1pOp::create(b, l, math::ExpOp::create(b, l, bx)), cst(b, l, x, beta));
    Value big = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, bx,
                                      cst(b, l, x, op.getThreshold().convertToDouble()));
    return arith::SelectOp::create(b, l, big, x, sp);
  });
  // alpha * (exp(x) - 1) for x <= 0, x otherwise.
  auto elu = [](OpBuilder &b, Location l, Value x, double alpha) -> Value {
    Value neg = arith::MulFOp::create(b, l, math::ExpM1Op::create(b, l, x), cst(b, l, x, alpha));
    Value pos = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, x, cst(b, l, x, 0));
    return arith::SelectOp::create(b, l, pos, x, neg);
  };
  addUnary<EluOp>(p, [elu](EluOp op, OpBuilder &b, Location l, Value x) -> Value {
    return elu(b, l, x, op.getAlpha().convertToDouble());
  });
  addUnary<SeluOp>(p, [elu](SeluOp op, OpBuilder &b, Location l, Value x) -> Value {
    return arith::MulFOp::create(b, l, elu(b, l, x, op.getAlpha().convertToDouble()),
                                 cst(b, l, x, op.getScale().convertToDouble()));
  });
  addUnary<CeluOp>(p, [](CeluOp op, OpBuilder &b, Location l, Value x) -> Value {
    double alpha = op.getAlpha().convertToDouble();
    Value e = math::ExpM1Op::create(b, l, arith::DivFOp::create(b, l, x, cst(b, l, x, alpha)));
    Value neg = minOf(b, l, cst(b, l, x, 0), arith::MulFOp::create(b, l, e, cst(b, l, x, alpha)));
    return arith::AddFOp::create(b, l, maxOf(b, l, x, cst(b, l, x, 0)), neg);
  });
  addUnary<ThresholdedReluOp>(
      p, [](ThresholdedReluOp op, OpBuilder &b, Location l, Value x) -> Value {
        Value keep = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, x,
                                           cst(b, l, x, op.getThreshold().convertToDouble()));
        return arith::SelectOp::create(b, l, keep, x, cst(b, l, x, 0));
      });
  mathUnary.operator()<Log2Op, math::Log2Op>();
  mathUnary.operator()<Log10Op, math::Log10Op>();
  mathUnary.operator()<Log1pOp, math::Log1pOp>();
  mathUnary.operator()<RoundOp, math::RoundOp>(); // halves away from zero, as std::round
  // log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|)): no overflow either way.
  addUnary<LogsigmoidOp>(p, [](LogsigmoidOp, OpBuilder &b, Location l, Value x) -> Value {
    Value e = math::ExpOp::create(b, l, arith::NegFOp::create(b, l, math::AbsFOp::create(b, l, x)));
    return arith::SubFOp::create(b, l, minOf(b, l, x, cst(b, l, x, 0)),
                                 math::Log1pOp::create(b, l, e));
  });
  addUnary<HardShrinkOp>(p, [](HardShrinkOp op, OpBuilder &b, Location l, Value x) -> Value {
    Value t = cst(b, l, x, op.getThreshold().convertToDouble());
    Value keep = arith::OrIOp::create(
        b, l, arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, x, t),
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x, arith::NegFOp::create(b, l, t)));
    return arith::SelectOp::create(b, l, keep, x, cst(b, l, x, 0));
  });
  addUnary<SoftshrinkOp>(p, [](SoftshrinkOp op, OpBuilder &b, Location l, Value x) -> Value {
    double lambda = op.getLambda().convertToDouble();
    Value above = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, x, cst(b, l, x, lambda));
    Value below = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x, cst(b, l, x, -lambda));
    Value r = arith::SelectOp::create(
        b, l, below, arith::AddFOp::create(b, l, x, cst(b, l, x, lambda)), cst(b, l, x, 0));
    return arith::SelectOp::create(b, l, above,
                                   arith::SubFOp::create(b, l, x, cst(b, l, x, lambda)), r);
  });
  addUnary<TanhShrinkOp>(p, [](TanhShrinkOp, OpBuilder &b, Location l, Value x) -> Value {
    return arith::SubFOp::create(b, l, x, math::TanhOp::create(b, l, x));
  });
  auto clipTo = [](OpBuilder &b, Location l, Value x, APFloat lo, APFloat hi) -> Value {
    return minOf(b, l, maxOf(b, l, x, cst(b, l, x, lo.convertToDouble())),
                 cst(b, l, x, hi.convertToDouble()));
  };
  addUnary<BreluOp>(p, [clipTo](BreluOp op, OpBuilder &b, Location l, Value x) -> Value {
    return clipTo(b, l, x, op.getTMin(), op.getTMax());
  });
  addUnary<HardtanhOp>(p, [clipTo](HardtanhOp op, OpBuilder &b, Location l, Value x) -> Value {
    return clipTo(b, l, x, op.getTMin(), op.getTMax());
  });
  addUnary<IsfiniteV2Op>(p, [](IsfiniteV2Op, OpBuilder &b, Location l, Value x) -> Value {
    // Ordered and below infinity in magnitude (NaN compares false).
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, math::AbsFOp::create(b, l, x),
                                 cst(b, l, x, INFINITY));
  });
  addUnary<IsinfV2Op>(p, [](IsinfV2Op, OpBuilder &b, Location l, Value x) -> Value {
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, math::AbsFOp::create(b, l, x),
                                 cst(b, l, x, INFINITY));
  });
  addUnary<IsnanV2Op>(p, [](IsnanV2Op, OpBuilder &b, Location l, Value x) -> Value {
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, x, x);
  });
  addUnary<AbsOp>(p, [](AbsOp, OpBuilder &b, Location l, Value x) -> Value {
    if (isFloat(x))
      return math::AbsFOp::create(b, l, x);
    return math::AbsIOp::create(b, l, x);
  });
  addUnary<SquareOp>(p,
                     [](SquareOp, OpBuilder &b, Location l, Value x) { return mulOf(b, l, x, x); });
  addUnary<PowOp>(p, [](PowOp op, OpBuilder &b, Location l, Value x) -> Value {
    return math::PowFOp::create(b, l, x, cst(b, l, x, op.getFactor().convertToDouble()));
  });
  addUnary<GeluOp>(p, [](GeluOp op, OpBuilder &b, Location l, Value x) -> Value {
    if (!op.getApproximate())
      return applyActivation(b, l, x, "gelu", 0.0);
    // tanh form: 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
    Value x3 = arith::MulFOp::create(b, l, arith::MulFOp::create(b, l, x, x), x);
    Value t =
        arith::AddFOp::create(b, l, x, arith::MulFOp::create(b, l, x3, cst(b, l, x, 0.044715)));
    Value inner = math::TanhOp::create(
        b, l, arith::MulFOp::create(b, l, t, cst(b, l, x, std::sqrt(2.0 / M_PI))));
    return arith::MulFOp::create(b, l, arith::MulFOp::create(b, l, x, cst(b, l, x, 0.5)),
                                 arith::AddFOp::create(b, l, cst(b, l, x, 1.0), inner));
  });
  addUnary<SwishOp>(p, [](SwishOp op, OpBuilder &b, Location l, Value x) -> Value {
    Value bx = arith::MulFOp::create(b, l, x, cst(b, l, x, op.getBeta().convertToDouble()));
    return arith::MulFOp::create(b, l, x, sigmoid(b, l, bx));
  });
  addUnary<HardSwishOp>(p, [](HardSwishOp op, OpBuilder &b, Location l, Value x) -> Value {
    Value t = addOf(b, l, x, cst(b, l, x, op.getOffset().convertToDouble()));
    t = minOf(b, l, maxOf(b, l, t, cst(b, l, x, 0)),
              cst(b, l, x, op.getThreshold().convertToDouble()));
    return arith::DivFOp::create(b, l, arith::MulFOp::create(b, l, x, t),
                                 cst(b, l, x, op.getScale().convertToDouble()));
  });
  addUnary<HardSigmoidOp>(p, [](HardSigmoidOp op, OpBuilder &b, Location l, Value x) -> Value {
    Value t = addOf(b, l, mulOf(b, l, x, cst(b, l, x, op.getSlope().convertToDouble())),
                    cst(b, l, x, op.getOffset().convertToDouble()));
    return minOf(b, l, maxOf(b, l, t, cst(b, l, x, 0)), cst(b, l, x, 1));
  });
  addUnary<ScaleOp>(p, [](ScaleOp op, OpBuilder &b, Location l, Value x) -> Value {
    Value s = cst(b, l, x, op.getScale().convertToDouble()),
          bias = cst(b, l, x, op.getBias().convertToDouble());
    return op.getBiasAfterScale() ? addOf(b, l, mulOf(b, l, x, s), bias)
                                  : mulOf(b, l, addOf(b, l, x, bias), s);
  });
  addUnary<IncrementOp>(p, [](IncrementOp op, OpBuilder &b, Location l, Value x) -> Value {
    return addOf(b, l, x, cst(b, l, x, op.getStep().convertToDouble()));
  });
  addUnary<ClipOp>(p, [](ClipOp op, OpBuilder &b, Location l, Value x) {
    return minOf(b, l, maxOf(b, l, x, cst(b, l, x, op.getMin().convertToDouble())),
                 cst(b, l, x, op.getMax().convertToDouble()));
  });
  addUnary<DropoutOp>(p, [](DropoutOp op, OpBuilder &b, Location l, Value x) -> Value {
    if (op.getDropoutImplementation() == "upscale_in_train")
      return x;
    return arith::MulFOp::create(b, l, x,
                                 cst(b, l, x, 1.0 - op.getDropoutProb().convertToDouble()));
  });
  addUnary<LogicalNotOp>(p, [](LogicalNotOp, OpBuilder &b, Location l, Value x) -> Value {
    return arith::XOrIOp::create(b, l, x, cst(b, l, x, 1));
  });

  // Unsigned (uint8) forms: wrapping add/sub/mul, unsigned div/max/min/rem.
  addBinary<ElementwiseAddOp>(p, arith2<arith::AddFOp, arith::AddIOp>(),
                              arith2<arith::AddFOp, arith::AddIOp>());
  addBinary<ElementwiseSubOp>(p, arith2<arith::SubFOp, arith::SubIOp>(),
                              arith2<arith::SubFOp, arith::SubIOp>());
  addBinary<ElementwiseMulOp>(p, arith2<arith::MulFOp, arith::MulIOp>(),
                              arith2<arith::MulFOp, arith::MulIOp>());
  addBinary<ElementwiseDivOp>(p, arith2<arith::DivFOp, arith::DivSIOp>(),
                              arith2<arith::DivFOp, arith::DivUIOp>());
  addBinary<ElementwiseMaxOp>(p, arith2<arith::MaximumFOp, arith::MaxSIOp>(),
                              arith2<arith::MaximumFOp, arith::MaxUIOp>());
  addBinary<ElementwiseMinOp>(p, arith2<arith::MinimumFOp, arith::MinSIOp>(),
                              arith2<arith::MinimumFOp, arith::MinUIOp>());
  addBinary<ElementwisePowOp>(p, [](OpBuilder &b, Location l, Value x, Value y) -> Value {
    return math::PowFOp::create(b, l, x, y);
  });
  // floor(x / y), rounded toward negative infinity as Python's // (and
  // Paddle's floor_divide since 2.6; integer quotients of operands of one
  // sign, the indices programs compute, agree with every version).
  addBinary<ElementwiseFloordivOp>(
      p,
      [](OpBuilder &b, Location l, Value x, Value y) -> Value {
        if (isFloat(x))
          return math::FloorOp::create(b, l, arith::DivFOp::create(b, l, x, y));
        return arith::FloorDivSIOp::create(b, l, x, y);
      },
      arith2<arith::DivFOp, arith::DivUIOp>());
  // Python-style remainder: the result takes the sign of the divisor.
  addBinary<ElementwiseModOp>(
      p,
      [](OpBuilder &b, Location l, Value x, Value y) -> Value {
        Value zero = cst(b, l, x, 0);
        Value r = isFloat(x) ? arith::RemFOp::create(b, l, x, y).getResult()
                             : arith::RemSIOp::create(b, l, x, y).getResult();
        auto negative = compare<arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt>();
        Value nz = compare<arith::CmpFPredicate::UNE, arith::CmpIPredicate::ne>()(b, l, r, zero);
        Value signsDiffer =
            arith::XOrIOp::create(b, l, negative(b, l, r, zero), negative(b, l, y, zero));
        Value fix = arith::AndIOp::create(b, l, nz, signsDiffer);
        return arith::SelectOp::create(b, l, fix, addOf(b, l, r, y), r);
      },
      arith2<arith::RemFOp, arith::RemUIOp>());
  // Shifts by the bit width or more (or by a negative amount, seen
  // unsigned) give 0, or the sign fill for an arithmetic right shift;
  // arith's shifts would give poison there.
  auto shift = [](bool left, bool arithmetic) {
    return [=](OpBuilder &b, Location l, Value x, Value y) -> Value {
      Value width = cst(b, l, y, x.getType().getIntOrFloatBitWidth());
      Value tooFar = arith::CmpIOp::create(b, l, arith::CmpIPredicate::uge, y, width);
      if (!left && arithmetic) {
        Value last = arith::SubIOp::create(b, l, width, cst(b, l, y, 1));
        return arith::ShRSIOp::create(b, l, x, arith::SelectOp::create(b, l, tooFar, last, y));
      }
      Value s = left ? arith::ShLIOp::create(b, l, x, y).getResult()
                     : arith::ShRUIOp::create(b, l, x, y).getResult();
      return arith::SelectOp::create(b, l, tooFar, cst(b, l, x, 0), s);
    };
  };
  addBinary<BitwiseLeftShiftOp>(p, shift(true, true), shift(true, false));
  p.add<RightShiftLowering<true>>(p.getContext(), shift(false, true), shift(false, false));
  p.add<RightShiftLowering<false>>(p.getContext(), shift(false, false), shift(false, false));
  addBinary<EqualOp>(p, compare<arith::CmpFPredicate::OEQ, arith::CmpIPredicate::eq>());
  addBinary<NotEqualOp>(p, compare<arith::CmpFPredicate::UNE, arith::CmpIPredicate::ne>());
  addBinary<LessThanOp>(p, compare<arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt>());
  addBinary<GreaterThanOp>(p, compare<arith::CmpFPredicate::OGT, arith::CmpIPredicate::sgt>());
  addBinary<LessEqualOp>(p, compare<arith::CmpFPredicate::OLE, arith::CmpIPredicate::sle>(),
                         compare<arith::CmpFPredicate::OLE, arith::CmpIPredicate::ule>());
  addBinary<GreaterEqualOp>(p, compare<arith::CmpFPredicate::OGE, arith::CmpIPredicate::sge>(),
                            compare<arith::CmpFPredicate::OGE, arith::CmpIPredicate::uge>());
  // The bitwise ops take integers or bools (Pd_BitsTensor): on i1 they are
  // the logical ops.
  auto andI = [](OpBuilder &b, Location l, Value x, Value y) -> Value {
    return arith::AndIOp::create(b, l, x, y);
  };
  auto orI = [](OpBuilder &b, Location l, Value x, Value y) -> Value {
    return arith::OrIOp::create(b, l, x, y);
  };
  auto xorI = [](OpBuilder &b, Location l, Value x, Value y) -> Value {
    return arith::XOrIOp::create(b, l, x, y);
  };
  // On uint8 the same bit operations, on the values seen as signless.
  addBinary<BitwiseAndOp>(p, andI, andI);
  addBinary<BitwiseOrOp>(p, orI, orI);
  addBinary<BitwiseXorOp>(p, xorI, xorI);
  addUnary<BitwiseNotOp>(p, [](BitwiseNotOp, OpBuilder &b, Location l, Value x) -> Value {
    Type elem = x.getType();
    if (!elem.isUnsignedInteger())
      return arith::XOrIOp::create(b, l, x, cst(b, l, x, -1));
    Type signless = b.getIntegerType(elem.getIntOrFloatBitWidth());
    auto as = [&](Value v, Type t) {
      return UnrealizedConversionCastOp::create(b, l, t, v).getResult(0);
    };
    Value bits = as(x, signless);
    return as(arith::XOrIOp::create(b, l, bits, cst(b, l, bits, -1)), elem);
  });
  addBinary<LogicalAndOp>(p, andI);
  addBinary<LogicalOrOp>(p, orI);
  addBinary<LogicalXorOp>(p, xorI);
  p.add<CastLowering, AssignLowering, WhereLowering, SumLowering, PreluLowering,
        AffineChannelLowering>(p.getContext());
}

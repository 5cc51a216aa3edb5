//===- Quant.cpp - pd fake quantization ops (inference) -> linalg ---------===//
//
// The fake quantization ops of QAT programs, with the semantics Paddle's
// kernels have at inference (is_test); bin = 2^(bit_length - 1) - 1 and
// inv(s) = 1 / s, or 1 / (s + 1e-6) when s <= 1e-30:
//   quantize(x, s)  round_type 1 (Paddle's default): round(bin * inv(s) *
//                   clip(x, -s, s)), rounding half away from zero;
//                   round_type 0: clip(round_half_even(bin * inv(s) * x),
//                   -bin - 1, bin)
//   fake_quantize_moving_average_abs_max             quantize(x, InScale)
//   fake_quantize_dequantize_moving_average_abs_max  quantize(x, InScale) * s / bin
//   fake_channel_wise_quantize_dequantize_abs_max    the same with s[c] = max |x|
//                   over the slice c of quant_axis (computed from the weight;
//                   OutScale = s)
//   fake_dequantize_max_abs               x * Scale / max_range
//   fake_channel_wise_dequantize_max_abs  one scale: x * s[c] / bin(quant_bits[0])
//                   along quant_axis; two (a mul/matmul output): x * s0[c] * s1
//                   / (bin(bits0) * bin(bits1)) with c along dim 1
// The moving-average ops pass InScale through as OutScale.
//   quantize_linear / dequantize_linear (PaddleSlim 2.x)  quantize(x, s) /
//                   x * s / bin, s per tensor or s[c] along quant_axis; the
//                   zero point is not used (Paddle's kernels are symmetric)
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
double binCount(int64_t bits) { return std::ldexp(1.0, static_cast<int>(bits) - 1) - 1.0; }

Value cst(OpBuilder &b, Location l, Value like, double v) {
  return scalar(b, l, like.getType(), v);
}

/// inv(s) as Paddle computes it.
Value inverse(OpBuilder &b, Location l, Value s) {
  Value one = cst(b, l, s, 1.0);
  Value tiny = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLE, s, cst(b, l, s, 1e-30));
  Value eps = arith::AddFOp::create(b, l, s, cst(b, l, s, 1e-6));
  return arith::DivFOp::create(b, l, one, arith::SelectOp::create(b, l, tiny, eps, s));
}

/// The quantized value (an integer held in a float) of x with scale s.
Value quantize(OpBuilder &b, Location l, Value x, Value s, double bin, int64_t roundType) {
  Value binV = cst(b, l, x, bin);
  Value invS = inverse(b, l, s);
  if (roundType == 0) {
    Value q = arith::MulFOp::create(b, l, arith::MulFOp::create(b, l, binV, invS), x);
    q = math::RoundEvenOp::create(b, l, q);
    q = arith::MinimumFOp::create(b, l, q, binV);
    return arith::MaximumFOp::create(b, l, q, cst(b, l, x, -bin - 1));
  }
  Value negS = arith::NegFOp::create(b, l, s);
  Value c = arith::MinimumFOp::create(b, l, arith::MaximumFOp::create(b, l, x, negS), s);
  Value q = arith::MulFOp::create(b, l, arith::MulFOp::create(b, l, binV, invS), c);
  return math::RoundOp::create(b, l, q);
}

Value dequantize(OpBuilder &b, Location l, Value q, Value s, double bin) {
  return arith::DivFOp::create(b, l, arith::MulFOp::create(b, l, q, s), cst(b, l, q, bin));
}

/// x (quant-)dequantized elementwise with the one-element scale tensor.
template <typename OpTy, bool Dequantize> struct MovingAverageLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getOut().getType());
    double bin = binCount(op.getBitLength());
    int64_t roundType = op.getRoundType();
    Location loc = op.getLoc();
    Value s = extractScalar(r, loc, a.getInScale());
    auto out = elementwise(r, loc, type, ValueRange{a.getX()}, {0},
                           [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                             Value q = quantize(b, l, args[0], s, bin, roundType);
                             return Dequantize ? dequantize(b, l, q, s, bin) : q;
                           });
    if (failed(out))
      return r.notifyMatchFailure(op, "cannot size the result");
    Value scale = a.getInScale();
    if (scale.getType() != op.getOutScale().getType())
      scale = tensor::CastOp::create(r, loc, op.getOutScale().getType(), scale);
    r.replaceOp(op, {*out, scale});
    return success();
  }
};

/// Per-channel max |x| along `axis` (a reduction over every other dim).
Value channelAbsMax(OpBuilder &b, Location loc, Value x, int64_t axis) {
  auto xt = cast<RankedTensorType>(x.getType());
  auto st = RankedTensorType::get({xt.getDimSize(axis)}, xt.getElementType());
  SmallVector<Value> dyn;
  if (st.isDynamicDim(0))
    dyn.push_back(tensor::DimOp::create(b, loc, x, axis));
  Value init = filled(b, loc, st, dyn, 0.0);
  int64_t rank = xt.getRank();
  SmallVector<AffineMap> maps{b.getMultiDimIdentityMap(rank),
                              AffineMap::get(rank, 0, b.getAffineDimExpr(axis))};
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::reduction);
  iters[axis] = utils::IteratorType::parallel;
  return linalg::GenericOp::create(b, loc, st, ValueRange{x}, ValueRange{init}, maps, iters,
                                   [](OpBuilder &nb, Location l, ValueRange args) {
                                     Value m = arith::MaximumFOp::create(
                                         nb, l, math::AbsFOp::create(nb, l, args[0]), args[1]);
                                     linalg::YieldOp::create(nb, l, m);
                                   })
      .getResult(0);
}

struct ChannelWiseQuantDequantLowering
    : OpConversionPattern<FakeChannelWiseQuantizeDequantizeAbsMaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(FakeChannelWiseQuantizeDequantizeAbsMaxOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getOut().getType());
    int64_t axis = op.getQuantAxis();
    double bin = binCount(op.getBitLength());
    int64_t roundType = op.getRoundType();
    Location loc = op.getLoc();
    Value scales = channelAbsMax(r, loc, a.getX(), axis);
    auto out = elementwise(r, loc, type, ValueRange{a.getX(), scales}, {0, axis},
                           [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                             Value q = quantize(b, l, args[0], args[1], bin, roundType);
                             return dequantize(b, l, q, args[1], bin);
                           });
    if (failed(out))
      return r.notifyMatchFailure(op, "cannot size the result");
    if (scales.getType() != op.getOutScale().getType())
      scales = tensor::CastOp::create(r, loc, op.getOutScale().getType(), scales);
    r.replaceOp(op, {*out, scales});
    return success();
  }
};

struct DequantizeMaxAbsLowering : OpConversionPattern<FakeDequantizeMaxAbsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(FakeDequantizeMaxAbsOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getOut().getType());
    Location loc = op.getLoc();
    Value s = extractScalar(r, loc, a.getScale());
    double range = op.getMaxRange().convertToDouble();
    auto out = elementwise(r, loc, type, ValueRange{a.getX()}, {0},
                           [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                             return dequantize(b, l, args[0], s, range);
                           });
    if (failed(out))
      return r.notifyMatchFailure(op, "cannot size the result");
    r.replaceOp(op, *out);
    return success();
  }
};

struct ChannelWiseDequantizeLowering : OpConversionPattern<FakeChannelWiseDequantizeMaxAbsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(FakeChannelWiseDequantizeMaxAbsOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getOut().getType());
    Location loc = op.getLoc();
    ArrayRef<int32_t> bits = op.getQuantBits();
    ValueRange scales = a.getScales();
    double range = binCount(bits[0]);
    int64_t axis = op.getQuantAxis();
    Value second;
    if (scales.size() == 2) {
      range *= binCount(bits[1]);
      axis = 1;
      second = extractScalar(r, loc, scales[1]);
    }
    auto out = elementwise(r, loc, type, ValueRange{a.getX(), scales[0]}, {0, axis},
                           [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                             Value s = args[1];
                             if (second)
                               s = arith::MulFOp::create(b, l, s, second);
                             return dequantize(b, l, args[0], s, range);
                           });
    if (failed(out))
      return r.notifyMatchFailure(op, "cannot size the result");
    r.replaceOp(op, *out);
    return success();
  }
};

/// pd.quantize: saturate(round_half_even(x / scale) + zero_point) to
/// [-127, 127] (i8; [-128, 127] with full_range) or [0, 255] (ui8).
struct QuantizeLowering : OpConversionPattern<QuantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(QuantizeOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getType());
    bool isUnsigned = type.getElementType().isUnsignedInteger();
    double scale = op.getScale().convertToDouble(), zp = op.getZeroPoint();
    double lo = isUnsigned ? 0.0 : op.getFullRange() ? -128.0 : -127.0;
    double hi = isUnsigned ? 255.0 : 127.0;
    auto out = elementwise(r, op.getLoc(), type, ValueRange{a.getX()}, {0},
                           [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                             Value x = args[0];
                             Value q = arith::DivFOp::create(b, l, x, cst(b, l, x, scale));
                             q = math::RoundEvenOp::create(b, l, q);
                             if (zp != 0)
                               q = arith::AddFOp::create(b, l, q, cst(b, l, x, zp));
                             // maxnumf/minnumf: a NaN input becomes the lower bound.
                             q = arith::MaxNumFOp::create(b, l, q, cst(b, l, x, lo));
                             q = arith::MinNumFOp::create(b, l, q, cst(b, l, x, hi));
                             return convertScalar(b, l, q, type.getElementType());
                           });
    if (failed(out))
      return r.notifyMatchFailure(op, "cannot size the result");
    r.replaceOp(op, *out);
    return success();
  }
};

/// pd.dequantize: (q - zero_point) * scale.
struct DequantizeLowering : OpConversionPattern<DequantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(DequantizeOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getType());
    double scale = op.getScale().convertToDouble(), zp = op.getZeroPoint();
    auto out = elementwise(r, op.getLoc(), type, ValueRange{a.getX()}, {0},
                           [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                             Value q = convertScalar(b, l, args[0], type.getElementType());
                             if (zp != 0)
                               q = arith::SubFOp::create(b, l, q, cst(b, l, q, zp));
                             return arith::MulFOp::create(b, l, q, cst(b, l, q, scale));
                           });
    if (failed(out))
      return r.notifyMatchFailure(op, "cannot size the result");
    r.replaceOp(op, *out);
    return success();
  }
};
/// PaddleSlim 2.x's quantize_linear / dequantize_linear (inference),
/// symmetric as Paddle's kernels are (the zero point is not used):
///   quantize_linear    quantize(x, s) with round_type as above
///   dequantize_linear  x * s / bin
/// with s the one scale (quant_axis -1) or s[c] along quant_axis.
template <typename OpTy, bool Quantize> struct LinearQuantLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getY().getType());
    auto st = cast<RankedTensorType>(a.getScale().getType());
    Type f32 = r.getF32Type();
    int64_t axis = op.getQuantAxis();
    if (!type.getElementType().isF32() || !st.getElementType().isF32())
      return r.notifyMatchFailure(op, "only float32 results and scales");
    if (axis >= type.getRank() || (axis >= 0 && st.getRank() != 1))
      return r.notifyMatchFailure(op, "quant_axis out of range, or scales not 1-D");
    if (axis < 0 && (!st.hasStaticShape() || st.getNumElements() != 1))
      return r.notifyMatchFailure(op, "a per-tensor scale has one element");
    double bin = binCount(op.getBitLength());
    int64_t roundType = op.getRoundType();
    Location loc = op.getLoc();
    Value one = axis < 0 ? extractScalar(r, loc, a.getScale()) : Value();
    SmallVector<Value> ins{a.getX()};
    SmallVector<int64_t> offsets{0};
    if (axis >= 0) {
      ins.push_back(a.getScale());
      offsets.push_back(axis);
    }
    auto out = elementwise(
        r, loc, type, ins, offsets, [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value x = convertScalar(b, l, args[0], f32);
          Value s = one ? one : args[1];
          return Quantize ? quantize(b, l, x, s, bin, roundType) : dequantize(b, l, x, s, bin);
        });
    if (failed(out))
      return r.notifyMatchFailure(op, "cannot size the result");
    r.replaceOp(op, *out);
    return success();
  }
};
} // namespace

void mlir::pd::populatePdQuantToLinalgPatterns(RewritePatternSet &p) {
  p.add<MovingAverageLowering<FakeQuantizeMovingAverageAbsMaxOp, false>,
        MovingAverageLowering<FakeQuantizeDequantizeMovingAverageAbsMaxOp, true>,
        ChannelWiseQuantDequantLowering, DequantizeMaxAbsLowering, ChannelWiseDequantizeLowering,
        QuantizeLowering, DequantizeLowering, LinearQuantLowering<QuantizeLinearOp, true>,
        LinearQuantLowering<DequantizeLinearOp, false>>(p.getContext());
}

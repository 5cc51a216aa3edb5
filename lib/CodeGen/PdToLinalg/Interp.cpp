//===- Interp.cpp - pd nearest/bilinear interpolation -> linalg ----------===//
//
// nearest_interp(_v2) and bilinear_interp(_v2) become one output-only
// linalg.generic that computes each output element's source coordinates and
// reads the input with tensor.extract. Sizes and scales given at run time
// (OutSize, SizeTensor, Scale) are read before the generic, so one artifact
// serves every size.
//
// Paddle's rules (phi interpolate_kernel.cc for v2, Fluid interpolate_op.h
// for v1), per spatial axis with input size `in` and output size `out`:
//
//   output size   SizeTensor, else OutSize, else trunc(in * scale) for a
//                 positive scale (the Scale input, else the attribute),
//                 else out_h / out_w.
//   ratio         align_corners: (in - 1) / (out - 1);
//                 v2 with a scale (input or attribute; not with SizeTensor):
//                 float(1.0 / scale), even when OutSize set the size;
//                 otherwise in / out (always so for v1).
//                 0 when out <= 1; 1 on both axes when in == out on both
//                 (Paddle copies the input then).
//   nearest       src = trunc(ratio * o), with align_corners
//                 trunc(ratio * o + 0.5) (round half up).
//   bilinear      align_mode 0 without align_corners (half-pixel):
//                 s = ratio * (o + 0.5) - 0.5, i0 = max(trunc(s), 0),
//                 frac = max(s, 0) - i0; otherwise s = ratio * o,
//                 i0 = trunc(s), frac = s - i0. i1 = min(i0 + 1, in - 1);
//                 out = lerp over (i0, i1) with weights (1 - frac, frac).
//
// Source indices are clamped into the input (Paddle reads out of bounds when
// OutSize exceeds trunc(in * scale) with a scale attribute).
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "Utils.h"

#include <tuple>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::lowering;

namespace {
/// An index value as f32.
Value indexToF32(OpBuilder &b, Location loc, Value v) {
  Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
  return arith::SIToFPOp::create(b, loc, b.getF32Type(), i);
}

/// trunc(v) (toward zero, as a C++ cast) of an f32 as an index.
Value truncToIndex(OpBuilder &b, Location loc, Value v) {
  Value i = arith::FPToSIOp::create(b, loc, b.getI64Type(), v);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), i);
}

Value clampIndex(OpBuilder &b, Location loc, Value v, Value size) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value last = arith::SubIOp::create(b, loc, size, arith::ConstantIndexOp::create(b, loc, 1));
  return arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, v, zero), last);
}

/// The attributes and operands both op generations share.
struct InterpArgs {
  Value x, outSize, scaleInput;
  ValueRange sizeTensors;
  bool nhwc, alignCorners, v1;
  int64_t alignMode, outH, outW;
  /// Scales from attributes (h, w); <= 0 when not given.
  float scaleH, scaleW;
};

FailureOr<Value> lowerInterp(Operation *op, const InterpArgs &a, bool nearest,
                             ConversionPatternRewriter &r) {
  Location loc = op->getLoc();
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  auto xt = cast<RankedTensorType>(a.x.getType());
  Type elem = xt.getElementType();
  if (!isa<FloatType>(elem) || xt.getRank() != 4)
    return failure();
  Type f32 = r.getF32Type();
  int64_t hDim = a.nhwc ? 1 : 2, wDim = a.nhwc ? 2 : 3;
  Value inH = tensor::DimOp::create(r, loc, a.x, hDim);
  Value inW = tensor::DimOp::create(r, loc, a.x, wDim);

  // Scales (f32), null when none applies. SizeTensor overrides every scale.
  Value scaleH, scaleW;
  if (a.sizeTensors.empty()) {
    if (a.scaleInput) {
      auto st = cast<RankedTensorType>(a.scaleInput.getType());
      if (st.getRank() != 1)
        return failure();
      auto at = [&](int64_t i) -> Value {
        Value idx = arith::ConstantIndexOp::create(r, loc, i);
        if (i > 0) // a one-element Scale serves both axes
          idx = arith::MinSIOp::create(
              r, loc, idx,
              arith::SubIOp::create(r, loc, tensor::DimOp::create(r, loc, a.scaleInput, 0),
                                    arith::ConstantIndexOp::create(r, loc, 1)));
        Value v = tensor::ExtractOp::create(r, loc, a.scaleInput, ValueRange{idx});
        return convertScalar(r, loc, v, f32);
      };
      scaleH = at(0);
      // v1 reads only the first element.
      scaleW = a.v1 ? scaleH : at(1);
    } else if (a.scaleH > 0 && a.scaleW > 0) {
      scaleH = scalar(r, loc, f32, a.scaleH);
      scaleW = scalar(r, loc, f32, a.scaleW);
    }
  }
  Value zeroF = scalar(r, loc, f32, 0.0);

  // Output sizes: the result type's when static, else Paddle's rule.
  auto outSizeOf = [&](int64_t i, Value in, Value scale, int64_t attr) -> Value {
    int64_t d = a.nhwc ? 1 + i : 2 + i;
    if (!type.isDynamicDim(d))
      return arith::ConstantIndexOp::create(r, loc, type.getDimSize(d));
    if (!a.sizeTensors.empty()) {
      Value v = extractScalar(r, loc, a.sizeTensors[i]);
      return arith::IndexCastOp::create(r, loc, r.getIndexType(), v);
    }
    if (a.outSize) {
      Value v = tensor::ExtractOp::create(r, loc, a.outSize,
                                          ValueRange{arith::ConstantIndexOp::create(r, loc, i)});
      return arith::IndexCastOp::create(r, loc, r.getIndexType(), v);
    }
    Value fallback = arith::ConstantIndexOp::create(r, loc, attr);
    if (!scale)
      return fallback;
    Value scaled =
        truncToIndex(r, loc, arith::MulFOp::create(r, loc, indexToF32(r, loc, in), scale));
    Value positive = arith::CmpFOp::create(r, loc, arith::CmpFPredicate::OGT, scale, zeroF);
    return arith::SelectOp::create(r, loc, positive, scaled, fallback);
  };
  Value outH = outSizeOf(0, inH, scaleH, a.outH);
  Value outW = outSizeOf(1, inW, scaleW, a.outW);

  Value one = arith::ConstantIndexOp::create(r, loc, 1);
  Value oneF = scalar(r, loc, f32, 1.0);
  auto ratioOf = [&](Value in, Value out, Value scale) -> Value {
    Value inF = indexToF32(r, loc, in), outF = indexToF32(r, loc, out);
    Value ratio;
    if (a.alignCorners) {
      ratio = arith::DivFOp::create(r, loc, arith::SubFOp::create(r, loc, inF, oneF),
                                    arith::SubFOp::create(r, loc, outF, oneF));
    } else {
      ratio = arith::DivFOp::create(r, loc, inF, outF);
      if (!a.v1 && scale) {
        // float(1.0 / scale), the reciprocal taken in double as Paddle does.
        Type f64 = r.getF64Type();
        Value inv = arith::DivFOp::create(r, loc, scalar(r, loc, f64, 1.0),
                                          arith::ExtFOp::create(r, loc, f64, scale));
        Value positive = arith::CmpFOp::create(r, loc, arith::CmpFPredicate::OGT, scale, zeroF);
        ratio = arith::SelectOp::create(r, loc, positive, arith::TruncFOp::create(r, loc, f32, inv),
                                        ratio);
      }
    }
    Value big = arith::CmpIOp::create(r, loc, arith::CmpIPredicate::sgt, out, one);
    return arith::SelectOp::create(r, loc, big, ratio, zeroF);
  };
  Value ratioH = ratioOf(inH, outH, scaleH);
  Value ratioW = ratioOf(inW, outW, scaleW);
  Value same = arith::AndIOp::create(
      r, loc, arith::CmpIOp::create(r, loc, arith::CmpIPredicate::eq, inH, outH),
      arith::CmpIOp::create(r, loc, arith::CmpIPredicate::eq, inW, outW));
  ratioH = arith::SelectOp::create(r, loc, same, oneF, ratioH);
  ratioW = arith::SelectOp::create(r, loc, same, oneF, ratioW);

  SmallVector<Value> dyn;
  for (int64_t d = 0; d < 4; ++d) {
    if (!type.isDynamicDim(d))
      continue;
    if (d == hDim)
      dyn.push_back(outH);
    else if (d == wDim)
      dyn.push_back(outW);
    else
      dyn.push_back(tensor::DimOp::create(r, loc, a.x, d));
  }

  // f64 inputs interpolate in f64, the others in f32 (Paddle's MPType).
  Type acc = elem.isF64() ? elem : f32;
  bool halfPixel = a.alignMode == 0 && !a.alignCorners;
  return generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
    SmallVector<Value> at;
    for (int64_t d = 0; d < 4; ++d)
      at.push_back(linalg::IndexOp::create(b, l, d));
    Value oy = indexToF32(b, l, at[hDim]), ox = indexToF32(b, l, at[wDim]);
    Value half = scalar(b, l, f32, 0.5);
    auto read = [&](Value y, Value x) -> Value {
      SmallVector<Value> idx(at);
      idx[hDim] = y;
      idx[wDim] = x;
      return tensor::ExtractOp::create(b, l, a.x, idx);
    };
    if (nearest) {
      auto src = [&](Value ratio, Value o, Value in) {
        Value s = arith::MulFOp::create(b, l, ratio, o);
        if (a.alignCorners)
          s = arith::AddFOp::create(b, l, s, half);
        return clampIndex(b, l, truncToIndex(b, l, s), in);
      };
      return read(src(ratioH, oy, inH), src(ratioW, ox, inW));
    }
    // The two neighbours along one axis and the weight of the second.
    auto axis = [&](Value ratio, Value o, Value in) -> std::tuple<Value, Value, Value> {
      Value s =
          halfPixel
              ? arith::SubFOp::create(
                    b, l, arith::MulFOp::create(b, l, ratio, arith::AddFOp::create(b, l, o, half)),
                    half)
                    .getResult()
              : arith::MulFOp::create(b, l, ratio, o).getResult();
      Value i0 = clampIndex(b, l, truncToIndex(b, l, s), in);
      Value i1 = arith::MinSIOp::create(
          b, l, arith::AddIOp::create(b, l, i0, arith::ConstantIndexOp::create(b, l, 1)),
          arith::SubIOp::create(b, l, in, arith::ConstantIndexOp::create(b, l, 1)));
      if (halfPixel)
        s = arith::MaximumFOp::create(b, l, s, scalar(b, l, f32, 0.0));
      Value frac = arith::SubFOp::create(b, l, s, indexToF32(b, l, i0));
      return {i0, i1, convertScalar(b, l, frac, acc)};
    };
    auto [y0, y1, fy] = axis(ratioH, oy, inH);
    auto [x0, x1, fx] = axis(ratioW, ox, inW);
    Value oneA = scalar(b, l, acc, 1.0);
    Value gy = arith::SubFOp::create(b, l, oneA, fy), gx = arith::SubFOp::create(b, l, oneA, fx);
    auto term = [&](Value y, Value x, Value wy, Value wx) -> Value {
      Value v = convertScalar(b, l, read(y, x), acc);
      return arith::MulFOp::create(b, l, arith::MulFOp::create(b, l, v, wy), wx);
    };
    Value sum = arith::AddFOp::create(
        b, l,
        arith::AddFOp::create(
            b, l, arith::AddFOp::create(b, l, term(y0, x0, gy, gx), term(y1, x0, fy, gx)),
            term(y0, x1, gy, fx)),
        term(y1, x1, fy, fx));
    return convertScalar(b, l, sum, elem);
  });
}

template <typename OpTy, bool Nearest> struct InterpV2Lowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    auto scale = op.getScale();
    InterpArgs args{a.getX(),
                    a.getOutSizeInput(),
                    a.getScaleInput(),
                    a.getSizeTensor(),
                    op.getDataLayout() == "NHWC",
                    op.getAlignCorners(),
                    /*v1=*/false,
                    op.getAlignMode(),
                    op.getOutH(),
                    op.getOutW(),
                    scale.empty() ? -1.f : scale[0],
                    scale.empty() ? -1.f : scale.back()};
    auto y = lowerInterp(op, args, Nearest, r);
    if (failed(y))
      return r.notifyMatchFailure(op, "needs a 4-D float input and a 1-D Scale");
    r.replaceOp(op, *y);
    return success();
  }
};

template <typename OpTy, bool Nearest> struct InterpV1Lowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    float scale = op.getScale().convertToFloat();
    InterpArgs args{a.getX(),
                    a.getOutSizeInput(),
                    a.getScaleInput(),
                    a.getSizeTensor(),
                    op.getDataLayout() == "NHWC",
                    op.getAlignCorners(),
                    /*v1=*/true,
                    op.getAlignMode(),
                    op.getOutH(),
                    op.getOutW(),
                    scale,
                    scale};
    auto y = lowerInterp(op, args, Nearest, r);
    if (failed(y))
      return r.notifyMatchFailure(op, "needs a 4-D float input and a 1-D Scale");
    r.replaceOp(op, *y);
    return success();
  }
};
} // namespace

void mlir::pd::populatePdInterpToLinalgPatterns(RewritePatternSet &p) {
  p.add<InterpV2Lowering<NearestInterpV2Op, true>, InterpV2Lowering<BilinearInterpV2Op, false>,
        InterpV1Lowering<NearestInterpOp, true>, InterpV1Lowering<BilinearInterpOp, false>>(
      p.getContext());
}

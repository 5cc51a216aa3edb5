//===- Interp.cpp - pd interpolation (resize) ops -> linalg ---------------===//
//
// nearest, linear (1-D), bilinear, trilinear (3-D) and bicubic
// interpolation, v2 and Fluid's v1, become one output-only linalg.generic
// that computes each output element's source coordinates and reads the
// input with tensor.extract. Sizes and scales given at run time (OutSize,
// SizeTensor, Scale) are read before the generic, so one artifact serves
// every size.
//
// Paddle's rules (phi interpolate_kernel.cc for v2, Fluid interpolate_op.h
// for v1), per spatial axis with input size `in` and output size `out`:
//
//   output size   SizeTensor, else OutSize, else trunc(in * scale) for a
//                 positive scale (the Scale input, else the attribute),
//                 else out_d / out_h / out_w.
//   ratio         align_corners: (in - 1) / (out - 1);
//                 v2 with a scale (input or attribute; not with SizeTensor):
//                 float(1.0 / scale), even when OutSize set the size;
//                 otherwise in / out (always so for v1).
//                 0 when out <= 1; 1 on every axis when in == out on all
//                 (Paddle copies the input then).
//   nearest       src = trunc(ratio * o), with align_corners
//                 trunc(ratio * o + 0.5) (round half up).
//   (bi/tri)linear align_mode 0 without align_corners (half-pixel):
//                 s = ratio * (o + 0.5) - 0.5, i0 = max(trunc(s), 0),
//                 frac = max(s, 0) - i0; otherwise s = ratio * o,
//                 i0 = trunc(s), frac = s - i0. i1 = min(i0 + 1, in - 1);
//                 out = lerp over (i0, i1) with weights (1 - frac, frac).
//   bicubic       s = ratio * o with align_corners, else
//                 ratio * (o + 0.5) - 0.5 (align_mode plays no part);
//                 taps floor(s) - 1 .. floor(s) + 2 clamped into the input,
//                 Keys' weights with A = -0.75 for t = s - floor(s).
//
// Source indices are clamped into the input (Paddle reads out of bounds when
// OutSize exceeds trunc(in * scale) with a scale attribute).
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <array>
#include <functional>
#include <type_traits>

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

enum class Method { Nearest, Linear, Cubic };

/// The attributes and operands both op generations share.
struct InterpArgs {
  Value x, outSize, scaleInput;
  ValueRange sizeTensors;
  bool channelLast, alignCorners, v1;
  int64_t alignMode;
  /// out_d, out_h, out_w.
  std::array<int64_t, 3> outAttr;
  /// Scales from attributes, one per spatial dim; <= 0 when not given.
  SmallVector<float, 3> attrScale;
};

/// Keys' cubic convolution weights (A = -0.75) of the four taps at
/// offsets -1, 0, 1, 2 from floor(s), for the fraction t = s - floor(s).
std::array<Value, 4> cubicWeights(OpBuilder &b, Location l, Value t) {
  Type ty = t.getType();
  auto c = [&](double v) { return scalar(b, l, ty, v); };
  auto mul = [&](Value x, Value y) { return arith::MulFOp::create(b, l, x, y).getResult(); };
  auto add = [&](Value x, Value y) { return arith::AddFOp::create(b, l, x, y).getResult(); };
  auto sub = [&](Value x, Value y) { return arith::SubFOp::create(b, l, x, y).getResult(); };
  const double A = -0.75;
  // |x| <= 1: ((A + 2) x - (A + 3)) x^2 + 1
  auto near = [&](Value x) { return add(mul(sub(mul(c(A + 2), x), c(A + 3)), mul(x, x)), c(1)); };
  // 1 < |x| < 2: ((A x - 5 A) x + 8 A) x - 4 A
  auto far = [&](Value x) {
    return sub(mul(add(mul(sub(mul(c(A), x), c(5 * A)), x), c(8 * A)), x), c(4 * A));
  };
  Value u = sub(c(1), t);
  return {far(add(t, c(1))), near(t), near(u), far(add(u, c(1)))};
}

FailureOr<Value> lowerInterp(Operation *op, const InterpArgs &a, Method method,
                             ConversionPatternRewriter &r) {
  Location loc = op->getLoc();
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  auto xt = cast<RankedTensorType>(a.x.getType());
  Type elem = xt.getElementType();
  int64_t rank = xt.getRank(), k = rank - 2;
  if (!isa<FloatType>(elem) || k < 1 || k > 3)
    return failure();
  Type f32 = r.getF32Type();
  SmallVector<int64_t> dims; // the spatial dims, outermost first
  SmallVector<Value> in;
  for (int64_t i = 0; i < k; ++i) {
    dims.push_back(a.channelLast ? 1 + i : 2 + i);
    in.push_back(tensor::DimOp::create(r, loc, a.x, dims.back()));
  }

  // Scales (f32), null when none applies. SizeTensor overrides every scale.
  SmallVector<Value> scales(k);
  if (a.sizeTensors.empty()) {
    if (a.scaleInput) {
      auto st = cast<RankedTensorType>(a.scaleInput.getType());
      if (st.getRank() != 1)
        return failure();
      Value last = arith::SubIOp::create(r, loc, tensor::DimOp::create(r, loc, a.scaleInput, 0),
                                         arith::ConstantIndexOp::create(r, loc, 1));
      for (int64_t i = 0; i < k; ++i) {
        // A one-element Scale serves every axis; v1 reads only the first.
        Value at = arith::ConstantIndexOp::create(r, loc, a.v1 ? 0 : i);
        if (!a.v1 && i > 0)
          at = arith::MinSIOp::create(r, loc, at, last);
        Value v = tensor::ExtractOp::create(r, loc, a.scaleInput, ValueRange{at});
        scales[i] = convertScalar(r, loc, v, f32);
      }
    } else if (llvm::all_of(a.attrScale, [](float v) { return v > 0; })) {
      for (int64_t i = 0; i < k; ++i)
        scales[i] = scalar(r, loc, f32, a.attrScale[i]);
    }
  }
  Value zeroF = scalar(r, loc, f32, 0.0);

  // Output sizes: the result type's when static, else Paddle's rule.
  SmallVector<Value> out;
  for (int64_t i = 0; i < k; ++i) {
    int64_t d = dims[i];
    if (!type.isDynamicDim(d)) {
      out.push_back(arith::ConstantIndexOp::create(r, loc, type.getDimSize(d)));
      continue;
    }
    if (!a.sizeTensors.empty()) {
      Value v = extractScalar(r, loc, a.sizeTensors[i]);
      out.push_back(arith::IndexCastOp::create(r, loc, r.getIndexType(), v));
      continue;
    }
    if (a.outSize) {
      Value v = tensor::ExtractOp::create(r, loc, a.outSize,
                                          ValueRange{arith::ConstantIndexOp::create(r, loc, i)});
      out.push_back(arith::IndexCastOp::create(r, loc, r.getIndexType(), v));
      continue;
    }
    Value fallback = arith::ConstantIndexOp::create(r, loc, a.outAttr[3 - k + i]);
    if (!scales[i]) {
      out.push_back(fallback);
      continue;
    }
    Value scaled =
        truncToIndex(r, loc, arith::MulFOp::create(r, loc, indexToF32(r, loc, in[i]), scales[i]));
    Value positive = arith::CmpFOp::create(r, loc, arith::CmpFPredicate::OGT, scales[i], zeroF);
    out.push_back(arith::SelectOp::create(r, loc, positive, scaled, fallback));
  }

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
  // Paddle copies the input when every spatial size is unchanged.
  Value same = arith::ConstantIntOp::create(r, loc, 1, 1);
  for (int64_t i = 0; i < k; ++i)
    same = arith::AndIOp::create(
        r, loc, same, arith::CmpIOp::create(r, loc, arith::CmpIPredicate::eq, in[i], out[i]));
  SmallVector<Value> ratios;
  for (int64_t i = 0; i < k; ++i)
    ratios.push_back(
        arith::SelectOp::create(r, loc, same, oneF, ratioOf(in[i], out[i], scales[i])));

  SmallVector<Value> dyn;
  for (int64_t d = 0; d < rank; ++d) {
    if (!type.isDynamicDim(d))
      continue;
    auto it = llvm::find(dims, d);
    dyn.push_back(it != dims.end() ? out[it - dims.begin()]
                                   : tensor::DimOp::create(r, loc, a.x, d).getResult());
  }

  // f64 inputs interpolate in f64, the others in f32 (Paddle's MPType).
  Type acc = elem.isF64() ? elem : f32;
  bool halfPixel = a.alignMode == 0 && !a.alignCorners;
  return generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
    SmallVector<Value> at;
    for (int64_t d = 0; d < rank; ++d)
      at.push_back(linalg::IndexOp::create(b, l, d));
    Value half = scalar(b, l, f32, 0.5);
    Value oneI = arith::ConstantIndexOp::create(b, l, 1);
    // Reads x at the spatial positions `pos` (one per spatial dim).
    auto read = [&](ArrayRef<Value> pos) -> Value {
      SmallVector<Value> idx(at);
      for (int64_t i = 0; i < k; ++i)
        idx[dims[i]] = pos[i];
      return convertScalar(b, l, tensor::ExtractOp::create(b, l, a.x, idx), acc);
    };
    auto outF = [&](int64_t i) { return indexToF32(b, l, at[dims[i]]); };
    if (method == Method::Nearest) {
      SmallVector<Value> pos;
      for (int64_t i = 0; i < k; ++i) {
        Value s = arith::MulFOp::create(b, l, ratios[i], outF(i));
        if (a.alignCorners)
          s = arith::AddFOp::create(b, l, s, half);
        pos.push_back(clampIndex(b, l, truncToIndex(b, l, s), in[i]));
      }
      return tensor::ExtractOp::create(b, l, a.x, [&] {
        SmallVector<Value> idx(at);
        for (int64_t i = 0; i < k; ++i)
          idx[dims[i]] = pos[i];
        return idx;
      }());
    }
    // Per axis: the taps (indices) and their weights.
    SmallVector<SmallVector<Value, 4>> taps(k), weights(k);
    for (int64_t i = 0; i < k; ++i) {
      Value o = outF(i);
      if (method == Method::Cubic) {
        // s = ratio * o, or ratio * (o + 0.5) - 0.5 without align_corners;
        // taps floor(s) - 1 .. floor(s) + 2, clamped.
        Value s =
            a.alignCorners
                ? arith::MulFOp::create(b, l, ratios[i], o).getResult()
                : arith::SubFOp::create(
                      b, l,
                      arith::MulFOp::create(b, l, ratios[i], arith::AddFOp::create(b, l, o, half)),
                      half)
                      .getResult();
        Value fl = math::FloorOp::create(b, l, s);
        Value base = truncToIndex(b, l, fl);
        Value t = convertScalar(b, l, arith::SubFOp::create(b, l, s, fl), acc);
        for (int64_t j = 0; j < 4; ++j)
          taps[i].push_back(clampIndex(
              b, l, arith::AddIOp::create(b, l, base, arith::ConstantIndexOp::create(b, l, j - 1)),
              in[i]));
        auto w = cubicWeights(b, l, t);
        weights[i].assign(w.begin(), w.end());
        continue;
      }
      Value s =
          halfPixel
              ? arith::SubFOp::create(
                    b, l,
                    arith::MulFOp::create(b, l, ratios[i], arith::AddFOp::create(b, l, o, half)),
                    half)
                    .getResult()
              : arith::MulFOp::create(b, l, ratios[i], o).getResult();
      Value i0 = clampIndex(b, l, truncToIndex(b, l, s), in[i]);
      Value i1 = arith::MinSIOp::create(b, l, arith::AddIOp::create(b, l, i0, oneI),
                                        arith::SubIOp::create(b, l, in[i], oneI));
      if (halfPixel)
        s = arith::MaximumFOp::create(b, l, s, scalar(b, l, f32, 0.0));
      Value frac = convertScalar(b, l, arith::SubFOp::create(b, l, s, indexToF32(b, l, i0)), acc);
      taps[i] = {i0, i1};
      weights[i] = {arith::SubFOp::create(b, l, scalar(b, l, acc, 1.0), frac), frac};
    }
    if (method == Method::Linear) {
      // Paddle's order: the sum over the 2^k corners with the first
      // spatial axis varying fastest, each term x * w_0 * w_1 * ...
      Value sum;
      for (int64_t c = 0; c < (int64_t(1) << k); ++c) {
        SmallVector<Value> pos;
        for (int64_t i = 0; i < k; ++i)
          pos.push_back(taps[i][(c >> i) & 1]);
        Value term = read(pos);
        for (int64_t i = 0; i < k; ++i)
          term = arith::MulFOp::create(b, l, term, weights[i][(c >> i) & 1]);
        sum = sum ? arith::AddFOp::create(b, l, sum, term).getResult() : term;
      }
      return convertScalar(b, l, sum, elem);
    }
    // Bicubic, as Paddle nests it: cubic sums along the last axis, then
    // a cubic sum of those along the one before.
    std::function<Value(int64_t, SmallVector<Value> &)> combine =
        [&](int64_t i, SmallVector<Value> &pos) -> Value {
      if (i == k)
        return read(pos);
      Value sum;
      for (size_t j = 0; j < taps[i].size(); ++j) {
        pos.push_back(taps[i][j]);
        Value term = arith::MulFOp::create(b, l, combine(i + 1, pos), weights[i][j]);
        pos.pop_back();
        sum = sum ? arith::AddFOp::create(b, l, sum, term).getResult() : term;
      }
      return sum;
    };
    SmallVector<Value> pos;
    return convertScalar(b, l, combine(0, pos), elem);
  });
}

template <typename OpTy> Method methodOf() {
  if constexpr (std::is_same_v<OpTy, NearestInterpV2Op> || std::is_same_v<OpTy, NearestInterpOp>)
    return Method::Nearest;
  else if constexpr (std::is_same_v<OpTy, BicubicInterpV2Op> ||
                     std::is_same_v<OpTy, BicubicInterpOp>)
    return Method::Cubic;
  else
    return Method::Linear;
}

/// Both op generations: v1's scale is one scalar for every axis (and only
/// sets the size); v2's has one entry per axis, or one for all.
template <typename OpTy> struct InterpLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    constexpr bool v1 = std::is_same_v<decltype(op.getScale()), APFloat>;
    int64_t k = std::max<int64_t>(cast<RankedTensorType>(a.getX().getType()).getRank() - 2, 0);
    SmallVector<float, 3> scales(k, -1.f);
    if constexpr (v1) {
      scales.assign(k, op.getScale().convertToFloat());
    } else {
      ArrayRef<float> scale = op.getScale();
      for (int64_t i = 0; i < k && !scale.empty(); ++i)
        scales[i] = scale[std::min<size_t>(i, scale.size() - 1)];
    }
    InterpArgs args{a.getX(),
                    a.getOutSizeInput(),
                    a.getScaleInput(),
                    a.getSizeTensor(),
                    op.getDataLayout() == "NHWC" || op.getDataLayout() == "NDHWC",
                    op.getAlignCorners(),
                    v1,
                    op.getAlignMode(),
                    {op.getOutD(), op.getOutH(), op.getOutW()},
                    scales};
    auto y = lowerInterp(op, args, methodOf<OpTy>(), r);
    if (failed(y))
      return r.notifyMatchFailure(op, "needs a float input of 1 to 3 spatial dims, a 1-D Scale");
    r.replaceOp(op, *y);
    return success();
  }
};
} // namespace

void mlir::pd::populatePdInterpToLinalgPatterns(RewritePatternSet &p) {
  p.add<InterpLowering<NearestInterpV2Op>, InterpLowering<BilinearInterpV2Op>,
        InterpLowering<LinearInterpV2Op>, InterpLowering<TrilinearInterpV2Op>,
        InterpLowering<BicubicInterpV2Op>, InterpLowering<NearestInterpOp>,
        InterpLowering<BilinearInterpOp>, InterpLowering<LinearInterpOp>,
        InterpLowering<TrilinearInterpOp>, InterpLowering<BicubicInterpOp>>(p.getContext());
}

//===- Train.cpp - pd training ops -> linalg ------------------------------===//
//
// one_hot_v2, the optimizer updates (sgd, momentum, adam, adamw),
// softmax_with_cross_entropy (rewritten
// into softmax, log_softmax, one_hot_v2 and a reduction, which the other
// patterns lower), pool2d_grad and lookup_table_v2_grad, lookup_table
// (rewritten into lookup_table_v2), and batch_norm_train and its gradient
// (a few fused passes each).
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::lowering;

namespace {
/// one_hot_v2(X, depth): out[i..., c] = X[i...] == c; a label outside
/// [0, depth) gives a row of zeros.
struct OneHotV2Lowering : OpConversionPattern<OneHotV2Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(OneHotV2Op op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    if (op.getDepthTensor())
      return r.notifyMatchFailure(op, "run-time depth");
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getX();
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < rank; ++i)
      if (type.isDynamicDim(i))
        dyn.push_back(tensor::DimOp::create(r, loc, x, i));
    Type elem = type.getElementType();
    r.replaceOp(op, generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
                  SmallVector<Value> at;
                  for (int64_t i = 0; i < rank; ++i)
                    at.push_back(linalg::IndexOp::create(b, l, i));
                  Value id = tensor::ExtractOp::create(b, l, x, at);
                  Value c = arith::IndexCastOp::create(b, l, id.getType(),
                                                       linalg::IndexOp::create(b, l, rank));
                  Value eq = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, id, c);
                  return arith::SelectOp::create(b, l, eq, scalar(b, l, elem, 1.0),
                                                 scalar(b, l, elem, 0.0));
                }));
    return success();
  }
};

/// sgd: param - lr[0] * grad.
struct SgdLowering : OpConversionPattern<SgdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SgdOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value lr = extractScalar(r, loc, a.getLearningRate());
    FailureOr<Value> out = elementwise(r, loc, type, {a.getParam(), a.getGrad()}, {0, 0},
                                       [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                                         Value step = arith::MulFOp::create(b, l, lr, v[1]);
                                         return arith::SubFOp::create(b, l, v[0], step);
                                       });
    if (failed(out))
      return failure();
    r.replaceOp(op, *out);
    return success();
  }
};

/// One linalg.generic over the static shape of `type` reading `inputs`
/// (each of that shape) and writing `numResults` new tensors of it, each
/// element computed by `body`.
SmallVector<Value>
updateElementwise(OpBuilder &b, Location loc, RankedTensorType type, ValueRange inputs,
                  unsigned numResults,
                  function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<Value> inits;
  for (unsigned i = 0; i < numResults; ++i)
    inits.push_back(tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType()));
  SmallVector<AffineMap> maps(inputs.size() + numResults, b.getMultiDimIdentityMap(type.getRank()));
  SmallVector<utils::IteratorType> iters(type.getRank(), utils::IteratorType::parallel);
  SmallVector<Type> types(numResults, type);
  auto generic = linalg::GenericOp::create(
      b, loc, types, inputs, inits, maps, iters, [&](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(nb, nl, body(nb, nl, args.take_front(inputs.size())));
      });
  return SmallVector<Value>(generic.getResults());
}

/// A one-element tensor of `type` holding `v`.
Value scalarTensor(OpBuilder &b, Location loc, RankedTensorType type, Value v) {
  return tensor::FromElementsOp::create(b, loc, type, ValueRange{v});
}

/// momentum (Paddle's dense kernel): g = rescale_grad * grad (+ coeff *
/// param with l2_decay); velocity' = mu * velocity + g; param' = param -
/// lr * velocity', or with Nesterov param - lr * (g + mu * velocity').
struct MomentumLowering : OpConversionPattern<MomentumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MomentumOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(a.getParam().getType());
    if (!type.hasStaticShape())
      return r.notifyMatchFailure(op, "static shapes");
    Location loc = op.getLoc();
    Type elem = type.getElementType();
    Value lr = extractScalar(r, loc, a.getLearningRate());
    bool nesterov = op.getUseNesterov(), l2 = op.getRegularizationMethod() == "l2_decay";
    double mu = op.getMu().convertToDouble(), rescale = op.getRescaleGrad().convertToDouble(),
           coeff = op.getRegularizationCoeff().convertToDouble();
    SmallVector<Value> out = updateElementwise(
        r, loc, type, {a.getParam(), a.getGrad(), a.getVelocity()}, 2,
        [&](OpBuilder &b, Location l, ValueRange v) -> SmallVector<Value> {
          Value g = v[1];
          if (rescale != 1.0)
            g = arith::MulFOp::create(b, l, g, scalar(b, l, elem, rescale));
          if (l2)
            g = arith::AddFOp::create(b, l, g,
                                      arith::MulFOp::create(b, l, v[0], scalar(b, l, elem, coeff)));
          Value muV = scalar(b, l, elem, mu);
          Value vel = arith::AddFOp::create(b, l, arith::MulFOp::create(b, l, v[2], muV), g);
          Value dir = nesterov
                          ? arith::AddFOp::create(b, l, g, arith::MulFOp::create(b, l, vel, muV))
                          : vel;
          Value p = arith::SubFOp::create(b, l, v[0], arith::MulFOp::create(b, l, dir, lr));
          return {p, vel};
        });
    r.replaceOp(op, out);
    return success();
  }
};

/// adam and adamw (Paddle's dense kernels): m1' = b1 m1 + (1 - b1) g,
/// m2' = b2 m2 + (1 - b2) g^2, param' = param - lr * sqrt(1 - b2^t) /
/// (1 - b1^t) * m1' / (sqrt(m2') + eps * sqrt(1 - b2^t)), the powers
/// advanced by one factor; adamw with with_decay first scales param by
/// 1 - lr * lr_ratio * coeff and uses lr * lr_ratio.
template <typename AdamLike> struct AdamLowering : OpConversionPattern<AdamLike> {
  using OpConversionPattern<AdamLike>::OpConversionPattern;
  using Adaptor = typename AdamLike::Adaptor;
  LogicalResult matchAndRewrite(AdamLike op, Adaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(a.getParam().getType());
    if (!type.hasStaticShape())
      return r.notifyMatchFailure(op, "static shapes");
    Location loc = op.getLoc();
    Type elem = type.getElementType();
    double beta1 = op.getBeta1().convertToDouble(), beta2 = op.getBeta2().convertToDouble(),
           eps = op.getEpsilon().convertToDouble();
    double ratio = 1.0, coeff = 0.0;
    if constexpr (std::is_same_v<AdamLike, AdamwOp>) {
      ratio = op.getLrRatio().convertToDouble();
      if (op.getWithDecay())
        coeff = op.getCoeff().convertToDouble();
    }
    Value lr = extractScalar(r, loc, a.getLearningRate());
    if (ratio != 1.0)
      lr = arith::MulFOp::create(r, loc, lr, scalar(r, loc, elem, ratio));
    Value b1Pow = extractScalar(r, loc, a.getBeta1Pow());
    Value b2Pow = extractScalar(r, loc, a.getBeta2Pow());
    Value one = scalar(r, loc, elem, 1.0);
    Value sqrtB2 = math::SqrtOp::create(r, loc, arith::SubFOp::create(r, loc, one, b2Pow));
    Value stepLr = arith::DivFOp::create(r, loc, arith::MulFOp::create(r, loc, lr, sqrtB2),
                                         arith::SubFOp::create(r, loc, one, b1Pow));
    Value epsHat = arith::MulFOp::create(r, loc, scalar(r, loc, elem, eps), sqrtB2);
    Value decay =
        coeff != 0.0
            ? arith::SubFOp::create(r, loc, one,
                                    arith::MulFOp::create(r, loc, lr, scalar(r, loc, elem, coeff)))
            : Value();
    SmallVector<Value> out = updateElementwise(
        r, loc, type, {a.getParam(), a.getGrad(), a.getMoment1(), a.getMoment2()}, 3,
        [&](OpBuilder &b, Location l, ValueRange v) -> SmallVector<Value> {
          Value p = v[0], g = v[1];
          if (decay)
            p = arith::MulFOp::create(b, l, p, decay);
          auto mix = [&](Value m, double beta, Value x) -> Value {
            return arith::AddFOp::create(
                b, l, arith::MulFOp::create(b, l, m, scalar(b, l, elem, beta)),
                arith::MulFOp::create(b, l, x, scalar(b, l, elem, 1.0 - beta)));
          };
          Value m1 = mix(v[2], beta1, g);
          Value m2 = mix(v[3], beta2, arith::MulFOp::create(b, l, g, g));
          Value denom = arith::AddFOp::create(b, l, math::SqrtOp::create(b, l, m2), epsHat);
          Value upd = arith::MulFOp::create(b, l, stepLr, arith::DivFOp::create(b, l, m1, denom));
          return {arith::SubFOp::create(b, l, p, upd), m1, m2};
        });
    auto powType = cast<RankedTensorType>(a.getBeta1Pow().getType());
    out.push_back(scalarTensor(r, loc, powType,
                               arith::MulFOp::create(r, loc, b1Pow, scalar(r, loc, elem, beta1))));
    out.push_back(scalarTensor(r, loc, cast<RankedTensorType>(a.getBeta2Pow().getType()),
                               arith::MulFOp::create(r, loc, b2Pow, scalar(r, loc, elem, beta2))));
    r.replaceOp(op, out);
    return success();
  }
};

/// A training dropout (is_test false, with its Seed operand): element i is
/// kept when u >= dropout_prob, u = the top 24 bits of splitmix64(seed *
/// 0xD1B54A32D192ED03 + step * 0x9E3779B97F4A7C15 + i) / 2^24, i the
/// row-major index and step the Seed operand's value. The mask is a pure
/// function of (seed, step, i): the same for any thread count and again in
/// the backward pass. Kept elements are scaled by 1 / (1 - p) with
/// upscale_in_train.
struct DropoutTrainLowering : OpConversionPattern<DropoutOp> {
  DropoutTrainLowering(MLIRContext *ctx) : OpConversionPattern(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(DropoutOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    if (op.getIsTest() || !a.getSeedInput())
      return r.notifyMatchFailure(op, "inference dropout");
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getX();
    int64_t rank = type.getRank();
    Type elem = type.getElementType();
    Type i64 = r.getI64Type();
    Value step = extractScalar(r, loc, a.getSeedInput());
    if (step.getType() != i64)
      step = arith::ExtSIOp::create(r, loc, i64, step);
    SmallVector<Value> dims;
    for (int64_t d = 0; d < rank; ++d)
      dims.push_back(tensor::DimOp::create(r, loc, x, d));
    auto c64 = [&](OpBuilder &b, Location l, uint64_t v) -> Value {
      return arith::ConstantIntOp::create(b, l, i64, static_cast<int64_t>(v));
    };
    double p = op.getDropoutProb().convertToDouble();
    double scale =
        op.getDropoutImplementation() == "upscale_in_train" && p < 1 ? 1.0 / (1.0 - p) : 1.0;
    uint64_t seed = static_cast<uint64_t>(static_cast<uint32_t>(op.getSeed()));
    Value key = arith::AddIOp::create(
        r, loc, c64(r, loc, seed * 0xD1B54A32D192ED03ull),
        arith::MulIOp::create(r, loc, step, c64(r, loc, 0x9E3779B97F4A7C15ull)));
    FailureOr<Value> out =
        elementwise(r, loc, type, {x}, {0}, [&](OpBuilder &b, Location l, ValueRange v) -> Value {
          Value linear = arith::ConstantIndexOp::create(b, l, 0);
          for (int64_t d = 0; d < rank; ++d)
            linear = arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, linear, dims[d]),
                                           linalg::IndexOp::create(b, l, d));
          Value z =
              arith::AddIOp::create(b, l, key, arith::IndexCastUIOp::create(b, l, i64, linear));
          z = counterHash(b, l, z);
          Value bits = arith::ShRUIOp::create(b, l, z, c64(b, l, 40));
          Value u = arith::MulFOp::create(b, l, arith::UIToFPOp::create(b, l, elem, bits),
                                          scalar(b, l, elem, 1.0 / (1 << 24)));
          Value keep =
              arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGE, u, scalar(b, l, elem, p));
          Value scaled =
              scale == 1.0
                  ? v[0]
                  : arith::MulFOp::create(b, l, v[0], scalar(b, l, elem, scale)).getResult();
          return arith::SelectOp::create(b, l, keep, scaled, scalar(b, l, elem, 0.0));
        });
    if (failed(out))
      return failure();
    r.replaceOp(op, *out);
    return success();
  }
};

/// softmax_with_cross_entropy with hard labels over the last axis:
/// Softmax = softmax(logits), Loss = -sum(one_hot(label) * log_softmax),
/// 0 where label == ignore_index.
struct SoftmaxWithCrossEntropyLowering : OpConversionPattern<SoftmaxWithCrossEntropyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SoftmaxWithCrossEntropyOp op, OpAdaptor,
                                ConversionPatternRewriter &r) const override {
    auto logitsType = cast<RankedTensorType>(op.getLogits().getType());
    int64_t rank = logitsType.getRank();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    if (op.getSoftLabel() || !op.getUseSoftmax() || axis != rank - 1 ||
        logitsType.isDynamicDim(rank - 1))
      return r.notifyMatchFailure(op, "soft labels, no softmax, or not the static last axis");
    Location loc = op.getLoc();
    Value logits = op.getLogits(), label = op.getLabel();
    auto labelType = cast<RankedTensorType>(label.getType());
    auto lossType = cast<RankedTensorType>(op.getLoss().getType());
    Type elem = logitsType.getElementType();
    Value softmax = SoftmaxOp::create(r, loc, logitsType, logits, -1);
    Value logSoftmax = LogSoftmaxOp::create(r, loc, logitsType, logits, -1);
    SmallVector<int32_t> flatShape;
    for (int64_t d : labelType.getShape().drop_back())
      flatShape.push_back(ShapedType::isDynamic(d) ? 0 : static_cast<int32_t>(d));
    auto flatType =
        RankedTensorType::get(labelType.getShape().drop_back(), labelType.getElementType());
    Value flat = Reshape2Op::create(r, loc, flatType, label, Value(), ValueRange(),
                                    r.getDenseI32ArrayAttr(flatShape));
    int32_t classes = static_cast<int32_t>(logitsType.getShape().back());
    Value oneHot =
        OneHotV2Op::create(r, loc, logitsType, flat, Value(), r.getI32IntegerAttr(classes),
                           r.getI32IntegerAttr(5), r.getBoolAttr(true));
    Value picked = ElementwiseMulOp::create(r, loc, logitsType, oneHot, logSoftmax, -1);
    Value sum = ReduceSumOp::create(r, loc, lossType, picked,
                                    r.getDenseI32ArrayAttr({static_cast<int32_t>(rank - 1)}),
                                    r.getBoolAttr(true), r.getBoolAttr(false),
                                    r.getI32IntegerAttr(-1), r.getI32IntegerAttr(-1));
    Value ignore = FillAnyLikeOp::create(
        r, loc, labelType, label, r.getF32FloatAttr(op.getIgnoreIndex()), r.getI32IntegerAttr(-1));
    auto boolType = RankedTensorType::get(labelType.getShape(), r.getI1Type());
    Value keep = NotEqualOp::create(r, loc, boolType, label, ignore, -1);
    auto maskType = RankedTensorType::get(labelType.getShape(), elem);
    Value mask = CastOp::create(r, loc, maskType, keep, r.getI32IntegerAttr(0),
                                r.getI32IntegerAttr(elem.isF64() ? 6 : 5));
    Value negated = ScaleOp::create(r, loc, lossType, sum, Value(), r.getF32FloatAttr(-1.0f),
                                    r.getF32FloatAttr(0.0f), r.getBoolAttr(true));
    Value loss = ElementwiseMulOp::create(r, loc, lossType, negated, mask, -1);
    r.replaceOp(op, {softmax, loss});
    return success();
  }
};
/// pool2d_grad (NCHW, static shapes): each input cell gathers, from the
/// output positions whose window holds it, the gradient's share an average
/// gave it, or the whole gradient where it is the window's first maximum
/// (Paddle's rule, which PyTorch shares), read from X and Out. Windows are those of the forward
/// lowering: explicit (or SAME-resolved) padding clamped to the input, so
/// ceil_mode's last partial window too, adaptive windows
/// [floor(i * H / OH), ceil((i + 1) * H / OH)), global pooling one window.
struct Pool2dGradLowering : OpConversionPattern<Pool2dGradOp> {
  /// `parallel`: the gather form (convert-pd-to-linalg{parallel-gradients}).
  Pool2dGradLowering(MLIRContext *ctx, bool parallel)
      : OpConversionPattern(ctx), parallel(parallel) {}
  bool parallel;
  LogicalResult matchAndRewrite(Pool2dGradOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto xt = cast<RankedTensorType>(a.getX().getType());
    auto ot = cast<RankedTensorType>(a.getOutGrad().getType());
    if (op.getDataFormat() == "NHWC" || !xt.hasStaticShape() || !ot.hasStaticShape())
      return r.notifyMatchFailure(op, "NCHW, static shapes");
    Location loc = op.getLoc();
    Type elem = xt.getElementType();
    int64_t H = xt.getDimSize(2), W = xt.getDimSize(3), OH = ot.getDimSize(2),
            OW = ot.getDimSize(3);
    bool isMax = op.getPoolingType() == "max";
    bool global = op.getGlobalPooling();
    bool adaptive = op.getAdaptive() && !global;
    ArrayRef<int32_t> ks = op.getKsize(), st = op.getStrides();
    int64_t kh = global ? H : ks[0], kw = global ? W : ks[1];
    std::array<int64_t, 4> pads = {0, 0, 0, 0};
    if (!global && !adaptive)
      pads = resolvePads(xt, {kh, kw}, st, {1, 1}, op.getPaddings(), op.getPaddingAlgorithm());
    bool exclusive = op.getExclusive() || adaptive || global;
    Value x = a.getX(), out = a.getOut(), dOut = a.getOutGrad();

    auto cst = [&](OpBuilder &b, Location l, int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, l, v);
    };
    // [start, end) of the window of output index `i` along a dim of input
    // size `in`, output size `outSize`, kernel `k`, stride `s`, pad `p`.
    auto window = [&](OpBuilder &b, Location l, Value i, int64_t in, int64_t outSize, int64_t k,
                      int64_t s, int64_t p) -> std::pair<Value, Value> {
      if (global)
        return {cst(b, l, 0), cst(b, l, in)};
      if (adaptive)
        return adaptiveBin(b, l, i, cst(b, l, in), cst(b, l, outSize));
      Value start =
          arith::SubIOp::create(b, l, arith::MulIOp::create(b, l, i, cst(b, l, s)), cst(b, l, p));
      Value end = arith::AddIOp::create(b, l, start, cst(b, l, k));
      return {arith::MaxSIOp::create(b, l, start, cst(b, l, 0)),
              arith::MinSIOp::create(b, l, end, cst(b, l, in))};
    };

    // The serial scatter: each output position adds its gradient to its
    // window (its first maximum, or each cell's share).
    auto scatter = [&]() -> Value {
      Value init = filled(r, loc, xt, {}, 0.0);
      Value zero = cst(r, loc, 0), one = cst(r, loc, 1);
      auto loop = [&](OpBuilder &b, Location l, int64_t n, Value acc,
                      function_ref<Value(OpBuilder &, Location, Value, Value)> body) {
        return scf::ForOp::create(b, l, cst(b, l, 0), cst(b, l, n), cst(b, l, 1), ValueRange{acc},
                                  [&](OpBuilder &nb, Location nl, Value iv, ValueRange args) {
                                    scf::YieldOp::create(nb, nl, body(nb, nl, iv, args[0]));
                                  })
            .getResult(0);
      };
      Value result = loop(
          r, loc, xt.getDimSize(0), init, [&](OpBuilder &b0, Location l0, Value n, Value acc0) {
            return loop(
                b0, l0, xt.getDimSize(1), acc0,
                [&](OpBuilder &b1, Location l1, Value c, Value acc1) {
                  return loop(
                      b1, l1, OH, acc1, [&](OpBuilder &b2, Location l2, Value i, Value acc2) {
                        auto [h0, h1] = window(b2, l2, i, H, OH, kh, st[0], pads[0]);
                        return loop(
                            b2, l2, OW, acc2,
                            [&, h0 = h0, h1 = h1](OpBuilder &b, Location l, Value j,
                                                  Value acc) -> Value {
                              auto [w0, w1] = window(b, l, j, W, OW, kw, st[1], pads[2]);
                              Value g =
                                  tensor::ExtractOp::create(b, l, dOut, ValueRange{n, c, i, j});
                              if (!isMax) {
                                Value count = exclusive
                                                  ? arith::MulIOp::create(
                                                        b, l, arith::SubIOp::create(b, l, h1, h0),
                                                        arith::SubIOp::create(b, l, w1, w0))
                                                        .getResult()
                                                  : cst(b, l, kh * kw);
                                Value countF = arith::SIToFPOp::create(
                                    b, l, elem,
                                    arith::IndexCastOp::create(b, l, b.getI64Type(), count));
                                Value share = arith::DivFOp::create(b, l, g, countF);
                                auto rows = scf::ForOp::create(
                                    b, l, h0, h1, one, ValueRange{acc},
                                    [&](OpBuilder &rb, Location rl, Value h, ValueRange ra) {
                                      auto cols = scf::ForOp::create(
                                          rb, rl, w0, w1, one, ValueRange{ra[0]},
                                          [&](OpBuilder &cb, Location cl, Value w, ValueRange ca) {
                                            Value old = tensor::ExtractOp::create(
                                                cb, cl, ca[0], ValueRange{n, c, h, w});
                                            Value sum = arith::AddFOp::create(cb, cl, old, share);
                                            scf::YieldOp::create(
                                                cb, cl,
                                                tensor::InsertOp::create(cb, cl, sum, ca[0],
                                                                         ValueRange{n, c, h, w})
                                                    .getResult());
                                          });
                                      scf::YieldOp::create(rb, rl, cols.getResult(0));
                                    });
                                return rows.getResult(0);
                              }
                              // The first (row-major) cell of the window equal to the maximum.
                              Value m =
                                  tensor::ExtractOp::create(b, l, out, ValueRange{n, c, i, j});
                              Value no = arith::ConstantIntOp::create(b, l, 0, 1);
                              auto rows = scf::ForOp::create(
                                  b, l, h0, h1, one, ValueRange{no, zero, zero},
                                  [&](OpBuilder &rb, Location rl, Value h, ValueRange ra) {
                                    auto cols = scf::ForOp::create(
                                        rb, rl, w0, w1, one, ra,
                                        [&](OpBuilder &cb, Location cl, Value w, ValueRange ca) {
                                          Value v = tensor::ExtractOp::create(
                                              cb, cl, x, ValueRange{n, c, h, w});
                                          Value eq = arith::CmpFOp::create(
                                              cb, cl, arith::CmpFPredicate::OEQ, v, m);
                                          Value yes = arith::ConstantIntOp::create(cb, cl, 1, 1);
                                          Value take = arith::AndIOp::create(
                                              cb, cl, eq,
                                              arith::XOrIOp::create(cb, cl, ca[0], yes));
                                          scf::YieldOp::create(
                                              cb, cl,
                                              ValueRange{
                                                  arith::OrIOp::create(cb, cl, ca[0], take),
                                                  arith::SelectOp::create(cb, cl, take, h, ca[1]),
                                                  arith::SelectOp::create(cb, cl, take, w, ca[2])});
                                        });
                                    scf::YieldOp::create(rb, rl, cols.getResults());
                                  });
                              Value found = rows.getResult(0), ah = rows.getResult(1),
                                    aw = rows.getResult(2);
                              Value old =
                                  tensor::ExtractOp::create(b, l, acc, ValueRange{n, c, ah, aw});
                              Value add =
                                  arith::SelectOp::create(b, l, found, g, scalar(b, l, elem, 0.0));
                              Value sum = arith::AddFOp::create(b, l, old, add);
                              return tensor::InsertOp::create(b, l, sum, acc,
                                                              ValueRange{n, c, ah, aw})
                                  .getResult();
                            });
                      });
                });
          });
      return result;
    };
    if (!parallel) {
      // On the CPU, a serial scatter over the output positions: less work
      // than the gather below, which a few cores do not win back.
      r.replaceOp(op, scatter());
      return success();
    }
    // One element of dX per parallel iteration: the sum, over the windows
    // that hold it (output rows i in [iLo, iHi], columns likewise; every
    // window for adaptive pooling, which checks), of their share of the
    // gradient, in the order the windows come (as a scatter would add
    // them). No two iterations write the same element, so the nest runs in
    // parallel (a GPU grid, the CPU's threads).
    auto range = [&](OpBuilder &b, Location l, Value at, int64_t in, int64_t outSize, int64_t k,
                     int64_t s, int64_t p) -> std::pair<Value, Value> {
      if (global || adaptive)
        return {cst(b, l, 0), cst(b, l, outSize)};
      // at in [i * s - p, i * s - p + k): i from ceil((at + p - k + 1) / s)
      // to floor((at + p) / s).
      Value lo = arith::CeilDivSIOp::create(
          b, l, arith::AddIOp::create(b, l, at, cst(b, l, p - k + 1)), cst(b, l, s));
      Value hi = arith::FloorDivSIOp::create(b, l, arith::AddIOp::create(b, l, at, cst(b, l, p)),
                                             cst(b, l, s));
      return {arith::MaxSIOp::create(b, l, lo, cst(b, l, 0)),
              arith::MinSIOp::create(b, l, arith::AddIOp::create(b, l, hi, cst(b, l, 1)),
                                     cst(b, l, outSize))};
    };
    Value one = cst(r, loc, 1);
    auto sumOver = [&](OpBuilder &b, Location l, Value lo, Value hi, Value acc,
                       function_ref<Value(OpBuilder &, Location, Value, Value)> body) {
      return scf::ForOp::create(b, l, lo, hi, one, ValueRange{acc},
                                [&](OpBuilder &nb, Location nl, Value iv, ValueRange args) {
                                  scf::YieldOp::create(nb, nl, body(nb, nl, iv, args[0]));
                                })
          .getResult(0);
    };
    // A result of `type` computed by `body` at each (n, c, row, column),
    // every iteration on its own: a linalg.generic of four parallel loops.
    auto eachElement =
        [&](RankedTensorType type,
            function_ref<Value(OpBuilder &, Location, Value, Value, Value, Value)> body) {
          Value empty = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType());
          auto idMap = r.getMultiDimIdentityMap(4);
          return linalg::GenericOp::create(
                     r, loc, TypeRange{type}, ValueRange{}, ValueRange{empty},
                     ArrayRef<AffineMap>{idMap},
                     SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
                     [&](OpBuilder &b, Location l, ValueRange) {
                       Value v = body(
                           b, l, linalg::IndexOp::create(b, l, 0), linalg::IndexOp::create(b, l, 1),
                           linalg::IndexOp::create(b, l, 2), linalg::IndexOp::create(b, l, 3));
                       linalg::YieldOp::create(b, l, v);
                     })
              .getResult(0);
        };
    // Max pooling, first pass (parallel over the windows): the position
    // h * W + w of each window's first maximum (row-major), -1 where none
    // equals the maximum (NaN).
    Value firstMax;
    if (isMax) {
      firstMax = eachElement(
          RankedTensorType::get(ot.getShape(), r.getI32Type()),
          [&](OpBuilder &b, Location l, Value n, Value c, Value i, Value j) -> Value {
            auto [h0, h1] = window(b, l, i, H, OH, kh, st[0], pads[0]);
            auto [w0, w1] = window(b, l, j, W, OW, kw, st[1], pads[2]);
            Value m = tensor::ExtractOp::create(b, l, out, ValueRange{n, c, i, j});
            Value none = arith::ConstantIntOp::create(b, l, -1, 32);
            auto rows = scf::ForOp::create(
                b, l, h0, h1, one, ValueRange{none},
                [&](OpBuilder &rb, Location rl, Value y, ValueRange ra) {
                  auto cols = scf::ForOp::create(
                      rb, rl, w0, w1, one, ra,
                      [&](OpBuilder &cb, Location cl, Value xi, ValueRange ca) {
                        Value v = tensor::ExtractOp::create(cb, cl, x, ValueRange{n, c, y, xi});
                        Value eq = arith::CmpFOp::create(cb, cl, arith::CmpFPredicate::OEQ, v, m);
                        // Not found yet: still -1.
                        Value unset =
                            arith::CmpIOp::create(cb, cl, arith::CmpIPredicate::slt, ca[0],
                                                  arith::ConstantIntOp::create(cb, cl, 0, 32));
                        Value pos = arith::IndexCastOp::create(
                            cb, cl, cb.getI32Type(),
                            arith::AddIOp::create(
                                cb, cl, arith::MulIOp::create(cb, cl, y, cst(cb, cl, W)), xi));
                        Value take = arith::AndIOp::create(cb, cl, eq, unset);
                        scf::YieldOp::create(
                            cb, cl, arith::SelectOp::create(cb, cl, take, pos, ca[0]).getResult());
                      });
                  scf::YieldOp::create(rb, rl, cols.getResults());
                });
            return rows.getResult(0);
          });
    }
    auto contribution = [&](OpBuilder &b, Location l, Value n, Value c, Value h, Value w, Value i,
                            Value j) -> Value {
      Value g = tensor::ExtractOp::create(b, l, dOut, ValueRange{n, c, i, j});
      Value zeroF = scalar(b, l, elem, 0.0);
      if (!isMax) {
        // (Adaptive windows are all visited: those that hold the cell count.)
        auto [h0, h1] = window(b, l, i, H, OH, kh, st[0], pads[0]);
        auto [w0, w1] = window(b, l, j, W, OW, kw, st[1], pads[2]);
        Value inside = arith::AndIOp::create(
            b, l,
            arith::AndIOp::create(b, l,
                                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, h, h0),
                                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, h, h1)),
            arith::AndIOp::create(b, l,
                                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, w, w0),
                                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, w, w1)));
        Value count = exclusive ? arith::MulIOp::create(b, l, arith::SubIOp::create(b, l, h1, h0),
                                                        arith::SubIOp::create(b, l, w1, w0))
                                      .getResult()
                                : cst(b, l, kh * kw);
        Value countF = arith::SIToFPOp::create(
            b, l, elem, arith::IndexCastOp::create(b, l, b.getI64Type(), count));
        return arith::SelectOp::create(b, l, inside, arith::DivFOp::create(b, l, g, countF), zeroF);
      }
      // The window's first maximum (row-major, found by the first pass)
      // takes its gradient.
      Value at = tensor::ExtractOp::create(b, l, firstMax, ValueRange{n, c, i, j});
      Value mine = arith::IndexCastOp::create(
          b, l, b.getI32Type(),
          arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, h, cst(b, l, W)), w));
      return arith::SelectOp::create(
          b, l, arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, at, mine), g, zeroF);
    };
    Value result =
        eachElement(xt, [&](OpBuilder &b, Location l, Value n, Value c, Value h, Value w) -> Value {
          auto [i0, i1] = range(b, l, h, H, OH, kh, st[0], pads[0]);
          auto [j0, j1] = range(b, l, w, W, OW, kw, st[1], pads[2]);
          Value sum = sumOver(
              b, l, i0, i1, scalar(b, l, elem, 0.0),
              [&, j0 = j0, j1 = j1](OpBuilder &ib, Location il, Value i, Value acc) {
                return sumOver(ib, il, j0, j1, acc,
                               [&](OpBuilder &jb, Location jl, Value j, Value acc2) -> Value {
                                 return arith::AddFOp::create(
                                     jb, jl, acc2, contribution(jb, jl, n, c, h, w, i, j));
                               });
              });
          return sum;
        });
    r.replaceOp(op, result);
    return success();
  }
};

/// lookup_table_v2_grad (static shapes): a zero table and a loop over the
/// ids that adds each one's row of Out@GRAD to the table's row. Ids are
/// clamped into [0, V) as the forward lowering reads them; padding_idx rows
/// get nothing.
struct LookupTableV2GradLowering : OpConversionPattern<LookupTableV2GradOp> {
  /// `parallel`: the gather form (convert-pd-to-linalg{parallel-gradients}).
  LookupTableV2GradLowering(MLIRContext *ctx, bool parallel)
      : OpConversionPattern(ctx), parallel(parallel) {}
  bool parallel;
  LogicalResult matchAndRewrite(LookupTableV2GradOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto wt = cast<RankedTensorType>(a.getW().getType());
    auto it = cast<RankedTensorType>(a.getIds().getType());
    auto dt = cast<RankedTensorType>(a.getOutGrad().getType());
    if (!wt.hasStaticShape() || !it.hasStaticShape() || !dt.hasStaticShape() || it.getRank() < 1)
      return r.notifyMatchFailure(op, "static shapes and Ids of rank >= 1");
    Location loc = op.getLoc();
    int64_t n = it.getNumElements(), rows = wt.getDimSize(0), cols = wt.getDimSize(1);
    // Ids as [N], Out@GRAD as [N, D].
    SmallVector<ReassociationIndices> idsGroups{{}}, gradGroups{{}, {it.getRank()}};
    for (int64_t i = 0; i < it.getRank(); ++i) {
      idsGroups[0].push_back(i);
      gradGroups[0].push_back(i);
    }
    Value ids = a.getIds(), dOut = a.getOutGrad();
    if (it.getRank() > 1) {
      ids = tensor::CollapseShapeOp::create(r, loc, ids, idsGroups);
      dOut = tensor::CollapseShapeOp::create(r, loc, dOut, gradGroups);
    }
    Type elem = wt.getElementType();
    int64_t pad = op.getPaddingIdx();
    bool hasPad = pad != -1;
    if (pad < 0)
      pad += rows;
    auto cst = [&](OpBuilder &b, Location l, int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, l, v);
    };
    Value init = filled(r, loc, wt, {}, 0.0);
    if (parallel) {
      r.replaceOp(op, gather(r, loc, ids, dOut, init, n, rows, cols, hasPad, pad));
      return success();
    }
    auto outer = scf::ForOp::create(
        r, loc, cst(r, loc, 0), cst(r, loc, n), cst(r, loc, 1), ValueRange{init},
        [&](OpBuilder &b, Location l, Value i, ValueRange acc) {
          auto [row, skip] = rowOf(b, l, ids, i, init, hasPad, pad);
          auto inner = scf::ForOp::create(
              b, l, cst(b, l, 0), cst(b, l, cols), cst(b, l, 1), acc,
              [&](OpBuilder &ib, Location il, Value j, ValueRange table) {
                Value g = tensor::ExtractOp::create(ib, il, dOut, ValueRange{i, j});
                g = arith::SelectOp::create(ib, il, skip, scalar(ib, il, elem, 0.0), g);
                Value old = tensor::ExtractOp::create(ib, il, table[0], ValueRange{row, j});
                Value sum = arith::AddFOp::create(ib, il, old, g);
                scf::YieldOp::create(
                    ib, il,
                    tensor::InsertOp::create(ib, il, sum, table[0], ValueRange{row, j})
                        .getResult());
              });
          scf::YieldOp::create(b, l, inner.getResults());
        });
    r.replaceOp(op, outer.getResult(0));
    return success();
  }

  /// Id `i`'s row of the table (clamped into it as the forward lowering
  /// reads it) and whether it is the padding row, which gets nothing.
  static std::pair<Value, Value> rowOf(OpBuilder &b, Location l, Value ids, Value i, Value table,
                                       bool hasPad, int64_t pad) {
    Value id = tensor::ExtractOp::create(b, l, ids, ValueRange{i});
    Value row = clampedIndex(b, l, id, table, 0, /*wrapNegative=*/false);
    Value padding = arith::ConstantIntOp::create(b, l, 0, 1);
    if (hasPad)
      padding = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                      arith::IndexCastOp::create(b, l, b.getIndexType(), id),
                                      arith::ConstantIndexOp::create(b, l, pad));
    return {row, padding};
  }

  /// The gather form: a serial pass over the ids, last to first, links
  /// each to the next id of the same row (`next`, with `head` the first of
  /// each row; padding ids are left out), then each element (row, j) of
  /// the table, in parallel, sums Out@GRAD[i, j] over its row's ids in
  /// order (as the scatter adds them). The serial pass touches N ids, not
  /// N x D elements.
  Value gather(ConversionPatternRewriter &r, Location loc, Value ids, Value dOut, Value init,
               int64_t n, int64_t rows, int64_t cols, bool hasPad, int64_t pad) const {
    Type i32 = r.getI32Type();
    auto cst = [&](OpBuilder &b, Location l, int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, l, v);
    };
    Value none = arith::ConstantIntOp::create(r, loc, -1, 32);
    Value head0 = linalg::FillOp::create(r, loc, ValueRange{none},
                                         ValueRange{tensor::EmptyOp::create(r, loc, rows, i32)})
                      .getResult(0);
    Value next0 = linalg::FillOp::create(r, loc, ValueRange{none},
                                         ValueRange{tensor::EmptyOp::create(r, loc, n, i32)})
                      .getResult(0);
    auto links = scf::ForOp::create(
        r, loc, cst(r, loc, 0), cst(r, loc, n), cst(r, loc, 1), ValueRange{head0, next0},
        [&](OpBuilder &b, Location l, Value k, ValueRange acc) {
          // i = n - 1 - k: last to first, so each row's list runs first to last.
          Value i = arith::SubIOp::create(b, l, cst(b, l, n - 1), k);
          auto [row, padding] = rowOf(b, l, ids, i, init, hasPad, pad);
          auto linked = scf::IfOp::create(
              b, l, padding, [&](OpBuilder &eb, Location el) { scf::YieldOp::create(eb, el, acc); },
              [&](OpBuilder &tb, Location tl) {
                Value first = tensor::ExtractOp::create(tb, tl, acc[0], ValueRange{row});
                Value next = tensor::InsertOp::create(tb, tl, first, acc[1], ValueRange{i});
                Value head = tensor::InsertOp::create(
                    tb, tl, arith::IndexCastOp::create(tb, tl, tb.getI32Type(), i), acc[0],
                    ValueRange{row});
                scf::YieldOp::create(tb, tl, ValueRange{head, next});
              });
          scf::YieldOp::create(b, l, linked.getResults());
        });
    Value head = links.getResult(0), next = links.getResult(1);
    auto type = cast<RankedTensorType>(init.getType());
    Type elem = type.getElementType();
    auto idMap = r.getMultiDimIdentityMap(2);
    return linalg::GenericOp::create(
               r, loc, TypeRange{type}, ValueRange{},
               ValueRange{tensor::EmptyOp::create(r, loc, type.getShape(), elem)},
               ArrayRef<AffineMap>{idMap},
               SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
               [&](OpBuilder &b, Location l, ValueRange) {
                 Value row = linalg::IndexOp::create(b, l, 0), j = linalg::IndexOp::create(b, l, 1);
                 Value first = tensor::ExtractOp::create(b, l, head, ValueRange{row});
                 Value zero = scalar(b, l, elem, 0.0);
                 auto walk = scf::WhileOp::create(
                     b, l, TypeRange{i32, elem}, ValueRange{first, zero},
                     [&](OpBuilder &cb, Location cl, ValueRange args) {
                       Value more =
                           arith::CmpIOp::create(cb, cl, arith::CmpIPredicate::sge, args[0],
                                                 arith::ConstantIntOp::create(cb, cl, 0, 32));
                       scf::ConditionOp::create(cb, cl, more, args);
                     },
                     [&](OpBuilder &wb, Location wl, ValueRange args) {
                       Value i = arith::IndexCastOp::create(wb, wl, wb.getIndexType(), args[0]);
                       Value g = tensor::ExtractOp::create(wb, wl, dOut, ValueRange{i, j});
                       Value sum = arith::AddFOp::create(wb, wl, args[1], g);
                       Value after = tensor::ExtractOp::create(wb, wl, next, ValueRange{i});
                       scf::YieldOp::create(wb, wl, ValueRange{after, sum});
                     });
                 linalg::YieldOp::create(b, l, walk.getResult(1));
               })
        .getResult(0);
  }
};

/// lookup_table (Paddle 1.x, Ids [..., 1]): lookup_table_v2 of the ids
/// without their trailing dim, which the gather patterns lower.
struct LookupTableLowering : OpConversionPattern<LookupTableOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LookupTableOp op, OpAdaptor,
                                ConversionPatternRewriter &r) const override {
    auto it = cast<RankedTensorType>(op.getIds().getType());
    if (it.getRank() < 1)
      return r.notifyMatchFailure(op, "Ids of rank >= 1");
    Location loc = op.getLoc();
    SmallVector<int32_t> flatShape;
    for (int64_t d : it.getShape().drop_back())
      flatShape.push_back(ShapedType::isDynamic(d) ? 0 : static_cast<int32_t>(d));
    auto flatType = RankedTensorType::get(it.getShape().drop_back(), it.getElementType());
    Value flat = Reshape2Op::create(r, loc, flatType, op.getIds(), Value(), ValueRange(),
                                    r.getDenseI32ArrayAttr(flatShape));
    r.replaceOpWithNewOp<LookupTableV2Op>(op, op.getType(), op.getW(), flat, op.getPaddingIdxAttr(),
                                          op.getIsSparseAttr());
    return success();
  }
};
} // namespace

namespace {
/// The shared frame of the batch_norm_train lowerings: X's static type, its
/// channel dim, the per-channel type, the element count per channel, and
/// generics over X's iteration space (per-channel operands read through
/// the channel map).
struct ChannelFrame {
  RankedTensorType xt, ct;
  int64_t rank = 0, ch = 0;
  double count = 0;
  Type elem;

  static FailureOr<ChannelFrame> of(Value x, StringRef layout, ArrayRef<Value> perChannel) {
    ChannelFrame f;
    f.xt = cast<RankedTensorType>(x.getType());
    if (!f.xt.hasStaticShape() || f.xt.getRank() < 2)
      return failure();
    f.rank = f.xt.getRank();
    f.ch = layout == "NHWC" ? f.rank - 1 : 1;
    f.elem = f.xt.getElementType();
    int64_t c = f.xt.getDimSize(f.ch);
    f.ct = RankedTensorType::get({c}, f.elem);
    f.count = static_cast<double>(f.xt.getNumElements() / std::max<int64_t>(c, 1));
    for (Value v : perChannel)
      if (cast<RankedTensorType>(v.getType()) != f.ct)
        return failure();
    return f;
  }
  AffineMap full(MLIRContext *ctx) const { return AffineMap::getMultiDimIdentityMap(rank, ctx); }
  AffineMap chan(MLIRContext *ctx) const {
    return AffineMap::get(rank, 0, {getAffineDimExpr(ch, ctx)}, ctx);
  }
  /// A generic over X's dims reading `fullIns` (X-shaped) and `chanIns`
  /// (per channel) into `outs`: per channel (a reduction over every other
  /// dim) when `reduce`, else X-shaped.
  Value build(OpBuilder &b, Location loc, ValueRange fullIns, ValueRange chanIns, bool reduce,
              int64_t numOuts, function_ref<void(OpBuilder &, Location, ValueRange)> body,
              SmallVectorImpl<Value> *results = nullptr) const {
    MLIRContext *ctx = b.getContext();
    SmallVector<Value> ins(fullIns);
    ins.append(chanIns.begin(), chanIns.end());
    SmallVector<AffineMap> maps(fullIns.size(), full(ctx));
    maps.append(chanIns.size(), chan(ctx));
    SmallVector<Value> outs;
    for (int64_t i = 0; i < numOuts; ++i) {
      outs.push_back(reduce ? filled(b, loc, ct, {}, 0.0)
                            : tensor::EmptyOp::create(b, loc, xt.getShape(), elem).getResult());
      maps.push_back(reduce ? chan(ctx) : full(ctx));
    }
    SmallVector<utils::IteratorType> iters(rank, reduce ? utils::IteratorType::reduction
                                                        : utils::IteratorType::parallel);
    iters[ch] = utils::IteratorType::parallel;
    SmallVector<Type> types(numOuts, reduce ? Type(ct) : Type(xt));
    auto g = linalg::GenericOp::create(b, loc, types, ins, outs, maps, iters, body);
    if (results)
      results->append(g.getResults().begin(), g.getResults().end());
    return g.getResult(0);
  }
  /// An elementwise generic over per-channel operands.
  Value perChannel(OpBuilder &b, Location loc, ValueRange ins,
                   function_ref<Value(OpBuilder &, Location, ValueRange)> fn) const {
    MLIRContext *ctx = b.getContext();
    AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
    SmallVector<AffineMap> maps(ins.size() + 1, id);
    Value init = tensor::EmptyOp::create(b, loc, ct.getShape(), elem);
    return linalg::GenericOp::create(
               b, loc, TypeRange{ct}, ins, ValueRange{init}, maps,
               SmallVector<utils::IteratorType>{utils::IteratorType::parallel},
               [&](OpBuilder &nb, Location l, ValueRange a) {
                 linalg::YieldOp::create(nb, l, fn(nb, l, a.drop_back()));
               })
        .getResult(0);
  }
  /// v * k per channel.
  Value scaled(OpBuilder &b, Location loc, Value v, double k) const {
    return perChannel(b, loc, {v}, [&](OpBuilder &nb, Location l, ValueRange a) {
      return arith::MulFOp::create(nb, l, a[0], scalar(nb, l, elem, k)).getResult();
    });
  }
  /// 1 / sqrt(var + eps) per channel.
  Value rstd(OpBuilder &b, Location loc, Value var, double eps) const {
    return perChannel(b, loc, {var}, [&](OpBuilder &nb, Location l, ValueRange a) {
      Value s =
          math::SqrtOp::create(nb, l, arith::AddFOp::create(nb, l, a[0], scalar(nb, l, elem, eps)));
      return arith::DivFOp::create(nb, l, scalar(nb, l, elem, 1.0), s).getResult();
    });
  }
};

/// batch_norm_train: the mean (one pass), the biased variance of the
/// centered values (a second pass), then y = (x - mean) * rstd * scale +
/// bias (a third); rstd = 1 / sqrt(var + epsilon) per channel.
struct BatchNormTrainLowering : OpConversionPattern<BatchNormTrainOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BatchNormTrainOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto f = ChannelFrame::of(a.getX(), op.getDataLayout(), {a.getScale(), a.getBias()});
    if (failed(f))
      return r.notifyMatchFailure(op, "needs a static X and 1-D Scale/Bias of its channels");
    double eps = op.getEpsilon().convertToDouble(), inv = 1.0 / f->count;
    Value x = a.getX();
    Value sum = f->build(r, loc, {x}, {}, true, 1, [&](OpBuilder &b, Location l, ValueRange v) {
      linalg::YieldOp::create(b, l, arith::AddFOp::create(b, l, v[1], v[0]).getResult());
    });
    Value mean = f->scaled(r, loc, sum, inv);
    Value sq = f->build(r, loc, {x}, {mean}, true, 1, [&](OpBuilder &b, Location l, ValueRange v) {
      Value d = arith::SubFOp::create(b, l, v[0], v[1]);
      Value acc = arith::AddFOp::create(b, l, v[2], arith::MulFOp::create(b, l, d, d));
      linalg::YieldOp::create(b, l, acc);
    });
    Value var = f->scaled(r, loc, sq, inv);
    Value rstd = f->rstd(r, loc, var, eps);
    Value y = f->build(
        r, loc, {x}, {mean, rstd, a.getScale(), a.getBias()}, false, 1,
        [&](OpBuilder &b, Location l, ValueRange v) {
          Value n = arith::MulFOp::create(b, l, arith::SubFOp::create(b, l, v[0], v[1]), v[2]);
          Value o = arith::AddFOp::create(b, l, arith::MulFOp::create(b, l, n, v[3]), v[4]);
          linalg::YieldOp::create(b, l, o);
        });
    r.replaceOp(op, {y, mean, var});
    return success();
  }
};

/// batch_norm_train_grad, with xhat = (x - mean) * rstd and M the count per
/// channel: one pass sums dy and dy * (x - mean) per channel; then
/// dBias = sum(dy), dScale = rstd * sum(dy * (x - mean)), and a second pass
/// dx = scale * rstd * (dy - sum(dy) / M - xhat * dScale / M).
struct BatchNormTrainGradLowering : OpConversionPattern<BatchNormTrainGradOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BatchNormTrainGradOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto f = ChannelFrame::of(a.getX(), op.getDataLayout(),
                              {a.getScale(), a.getSavedMean(), a.getSavedVariance()});
    if (failed(f) || a.getYGrad().getType() != a.getX().getType())
      return r.notifyMatchFailure(op, "needs static X / Y@GRAD and 1-D per-channel operands");
    double eps = op.getEpsilon().convertToDouble(), inv = 1.0 / f->count;
    Value x = a.getX(), dy = a.getYGrad(), mean = a.getSavedMean();
    Value rstd = f->rstd(r, loc, a.getSavedVariance(), eps);
    SmallVector<Value> sums;
    f->build(
        r, loc, {dy, x}, {mean}, true, 2,
        [&](OpBuilder &b, Location l, ValueRange v) {
          Value d = arith::SubFOp::create(b, l, v[1], v[2]);
          Value s0 = arith::AddFOp::create(b, l, v[3], v[0]);
          Value s1 = arith::AddFOp::create(b, l, v[4], arith::MulFOp::create(b, l, v[0], d));
          linalg::YieldOp::create(b, l, ValueRange{s0, s1});
        },
        &sums);
    Value dBias = sums[0];
    Value dScale =
        f->perChannel(r, loc, {sums[1], rstd}, [&](OpBuilder &b, Location l, ValueRange v) {
          return arith::MulFOp::create(b, l, v[0], v[1]).getResult();
        });
    Value dx = f->build(
        r, loc, {dy, x}, {mean, rstd, a.getScale(), dBias, dScale}, false, 1,
        [&](OpBuilder &b, Location l, ValueRange v) {
          Value m = scalar(b, l, f->elem, inv);
          Value xhat = arith::MulFOp::create(b, l, arith::SubFOp::create(b, l, v[1], v[2]), v[3]);
          Value t = arith::SubFOp::create(b, l, v[0], arith::MulFOp::create(b, l, v[5], m));
          t = arith::SubFOp::create(
              b, l, t, arith::MulFOp::create(b, l, xhat, arith::MulFOp::create(b, l, v[6], m)));
          Value k = arith::MulFOp::create(b, l, v[4], v[3]);
          linalg::YieldOp::create(b, l, arith::MulFOp::create(b, l, k, t).getResult());
        });
    r.replaceOp(op, {dx, dScale, dBias});
    return success();
  }
};
} // namespace

void mlir::pd::populatePdTrainToLinalgPatterns(RewritePatternSet &p, bool parallelGradients) {
  p.add<DropoutTrainLowering>(p.getContext());
  p.add<Pool2dGradLowering, LookupTableV2GradLowering>(p.getContext(), parallelGradients);
  p.add<OneHotV2Lowering, SgdLowering, MomentumLowering, AdamLowering<AdamOp>,
        AdamLowering<AdamwOp>, SoftmaxWithCrossEntropyLowering, LookupTableLowering,
        BatchNormTrainLowering, BatchNormTrainGradLowering>(p.getContext());
}

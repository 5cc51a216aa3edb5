//===- NN.cpp - pd conv, normalization, pooling, softmax -> linalg -------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <functional>
#include <limits>
#include <tuple>
#include <type_traits>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::lowering;

namespace {
DenseIntElementsAttr i64Vec(OpBuilder &b, ArrayRef<int64_t> v) {
  return DenseIntElementsAttr::get(RankedTensorType::get({(int64_t)v.size()}, b.getI64Type()), v);
}

/// The paddings of an NCHW tensor's spatial dims (top, bottom, left,
/// right), each known at compile time or computed at run time.
using SpatialPads = std::array<OpFoldResult, 4>;

SpatialPads staticPads(OpBuilder &b, std::array<int64_t, 4> p) {
  return {b.getIndexAttr(p[0]), b.getIndexAttr(p[1]), b.getIndexAttr(p[2]), b.getIndexAttr(p[3])};
}

/// Pads the two spatial dims of an NCHW tensor with `value`.
Value padSpatial(OpBuilder &b, Location loc, Value x, const SpatialPads &p, double value) {
  if (llvm::all_of(p, [](OpFoldResult v) { return isConstantIntValue(v, 0); }))
    return x;
  auto t = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(t.getShape());
  auto grow = [](int64_t d, OpFoldResult lo, OpFoldResult hi) {
    auto l = getConstantIntValue(lo), h = getConstantIntValue(hi);
    return ShapedType::isDynamic(d) || !l || !h ? ShapedType::kDynamic : d + *l + *h;
  };
  shape[2] = grow(shape[2], p[0], p[1]);
  shape[3] = grow(shape[3], p[2], p[3]);
  SmallVector<OpFoldResult> low = {b.getIndexAttr(0), b.getIndexAttr(0), p[0], p[2]};
  SmallVector<OpFoldResult> high = {b.getIndexAttr(0), b.getIndexAttr(0), p[1], p[3]};
  Value pad = scalar(b, loc, t.getElementType(), value);
  return tensor::PadOp::create(b, loc, RankedTensorType::get(shape, t.getElementType()), x, low,
                               high, pad);
}

Value padSpatial(OpBuilder &b, Location loc, Value x, std::array<int64_t, 4> p, double value) {
  return padSpatial(b, loc, x, staticPads(b, p), value);
}

/// The paddings of a window (k, stride s, dilation d) sliding over NCHW
/// `x` whose spatial dims may be dynamic: `fixed` (explicit or VALID) on
/// a dynamic dim as given; SAME computed from the run-time size as Paddle
/// does (out = ceil(H / s), the odd pixel at the end); with `ceil`, more
/// padding at the end so that the last partial window exists. Static dims
/// get constants (`fixed` already holds SAME's pads there).
SpatialPads runtimeWindowPads(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> k,
                              ArrayRef<int64_t> s, ArrayRef<int64_t> d,
                              std::array<int64_t, 4> fixed, bool same, bool ceil) {
  auto t = cast<RankedTensorType>(x.getType());
  SpatialPads p;
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  for (int i = 0; i < 2; ++i) {
    int64_t eff = d[i] * (k[i] - 1) + 1, size = t.getDimSize(2 + i);
    if (!ShapedType::isDynamic(size)) {
      int64_t lo = fixed[2 * i], hi = fixed[2 * i + 1];
      if (ceil) {
        int64_t out = (size + lo + hi - eff + s[i] - 1) / s[i] + 1;
        hi += std::max<int64_t>((out - 1) * s[i] + eff - (size + lo + hi), 0);
      }
      p[2 * i] = b.getIndexAttr(lo);
      p[2 * i + 1] = b.getIndexAttr(hi);
      continue;
    }
    if (!same && !ceil) {
      p[2 * i] = b.getIndexAttr(fixed[2 * i]);
      p[2 * i + 1] = b.getIndexAttr(fixed[2 * i + 1]);
      continue;
    }
    Value h = tensor::DimOp::create(b, loc, x, 2 + i);
    // (lo + hi) rather than padded sizes keeps explicit pads constant.
    int64_t fixedSum = fixed[2 * i] + fixed[2 * i + 1];
    Value lo, hi, sum = c(fixedSum);
    if (same) {
      Value out = arith::CeilDivSIOp::create(b, loc, h, c(s[i]));
      Value span = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, arith::SubIOp::create(b, loc, out, c(1)), c(s[i])),
          c(eff));
      sum = arith::MaxSIOp::create(b, loc, arith::SubIOp::create(b, loc, span, h), c(0));
      lo = arith::DivSIOp::create(b, loc, sum, c(2));
      hi = arith::SubIOp::create(b, loc, sum, lo);
    }
    if (ceil) {
      Value padded = arith::AddIOp::create(b, loc, h, sum);
      Value num = arith::AddIOp::create(b, loc, padded, c(s[i] - 1 - eff));
      Value last =
          arith::MulIOp::create(b, loc, arith::DivSIOp::create(b, loc, num, c(s[i])), c(s[i]));
      Value extra = arith::MaxSIOp::create(
          b, loc,
          arith::SubIOp::create(b, loc, arith::AddIOp::create(b, loc, last, c(eff)), padded), c(0));
      hi = arith::AddIOp::create(b, loc, hi ? hi : c(fixed[2 * i + 1]), extra);
    }
    p[2 * i] = lo ? OpFoldResult(lo) : OpFoldResult(b.getIndexAttr(fixed[2 * i]));
    p[2 * i + 1] = hi;
  }
  return p;
}

/// Dynamic output sizes of a sliding window over a padded NCHW tensor:
/// (padded - (d * (k - 1) + 1)) / s + 1 for the spatial dims, the batch as is.
SmallVector<Value> windowDynSizes(OpBuilder &b, Location loc, Value padded, RankedTensorType out,
                                  ArrayRef<int64_t> k, ArrayRef<int64_t> s, ArrayRef<int64_t> d) {
  SmallVector<Value> dyn;
  for (int64_t i = 0; i < out.getRank(); ++i) {
    if (!out.isDynamicDim(i))
      continue;
    Value in = tensor::DimOp::create(b, loc, padded, i);
    if (i < 2) {
      dyn.push_back(in);
      continue;
    }
    int64_t eff = d[i - 2] * (k[i - 2] - 1) + 1;
    Value num = arith::SubIOp::create(b, loc, in, arith::ConstantIndexOp::create(b, loc, eff));
    Value q = arith::DivSIOp::create(b, loc, num, arith::ConstantIndexOp::create(b, loc, s[i - 2]));
    dyn.push_back(arith::AddIOp::create(b, loc, q, arith::ConstantIndexOp::create(b, loc, 1)));
  }
  return dyn;
}

/// The NCHW convolution of `op` with result type `resultType` (`nchwView`:
/// the input of an NHWC op already permuted to NCHW by the caller, and
/// `resultType` too).
template <typename OpTy>
FailureOr<Value> buildConv(OpTy op, Value input, Value filter, ConversionPatternRewriter &rewriter,
                           RankedTensorType resultType, bool nchwView = false) {
  Location loc = op.getLoc();
  if (op.getDataFormat() == "NHWC" && !nchwView)
    return (LogicalResult)rewriter.notifyMatchFailure(
        op, "NHWC convolution is not supported by the CPU backend yet");
  auto in = cast<RankedTensorType>(input.getType());
  auto f = cast<RankedTensorType>(filter.getType());
  if (!f.hasStaticShape())
    return (LogicalResult)rewriter.notifyMatchFailure(op, "the filter must have a static shape");
  int64_t groups = op.getGroups();
  auto pads = resolvePads(in, {f.getDimSize(2), f.getDimSize(3)}, op.getStrides(),
                          op.getDilations(), op.getPaddings(), op.getPaddingAlgorithm());
  SmallVector<int64_t> strides(op.getStrides().begin(), op.getStrides().end());
  SmallVector<int64_t> dil(op.getDilations().begin(), op.getDilations().end());
  // SAME over a dynamic spatial dim: its pads are computed at run time.
  Value padded =
      padSpatial(rewriter, loc, input,
                 runtimeWindowPads(rewriter, loc, input, {f.getDimSize(2), f.getDimSize(3)},
                                   strides, dil, pads, op.getPaddingAlgorithm() == "SAME", false),
                 0.0);
  SmallVector<Value> dyn = windowDynSizes(rewriter, loc, padded, resultType,
                                          {f.getDimSize(2), f.getDimSize(3)}, strides, dil);
  Value init = filled(rewriter, loc, resultType, dyn, 0.0);
  Value result;
  int64_t cin = in.getDimSize(1);
  if (groups == 1) {
    result = linalg::Conv2DNchwFchwOp::create(rewriter, loc, TypeRange{resultType},
                                              ValueRange{padded, filter}, ValueRange{init},
                                              i64Vec(rewriter, strides), i64Vec(rewriter, dil))
                 .getResult(0);
  } else if (groups == cin && f.getDimSize(0) == cin && f.getDimSize(1) == 1) {
    // Depthwise: filter [C, 1, kh, kw] -> [C, kh, kw].
    auto f3 = RankedTensorType::get({f.getDimSize(0), f.getDimSize(2), f.getDimSize(3)},
                                    f.getElementType());
    Value filter3 = tensor::CollapseShapeOp::create(
        rewriter, loc, f3, filter, ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}});
    result = linalg::DepthwiseConv2DNchwChwOp::create(
                 rewriter, loc, TypeRange{resultType}, ValueRange{padded, filter3},
                 ValueRange{init}, i64Vec(rewriter, strides), i64Vec(rewriter, dil))
                 .getResult(0);
  } else {
    // Grouped: [N, C, H, W] as [N, G, C/G, H, W], the filter [F, C/G, kh,
    // kw] as [G, F/G, C/G, kh, kw], the result [N, G, F/G, oh, ow] merged.
    int64_t fout = f.getDimSize(0);
    if (groups < 1 || ShapedType::isDynamic(cin) || cin % groups || fout % groups ||
        f.getDimSize(1) != cin / groups)
      return (LogicalResult)rewriter.notifyMatchFailure(op, "unsupported group shape");
    auto split = [&](Value t, int64_t parts) {
      auto tt = cast<RankedTensorType>(t.getType());
      SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, t);
      sizes[1] = rewriter.getIndexAttr(tt.getDimSize(1) / parts);
      sizes.insert(sizes.begin() + 1, rewriter.getIndexAttr(parts));
      SmallVector<int64_t> shape(tt.getShape());
      shape[1] /= parts;
      shape.insert(shape.begin() + 1, parts);
      return tensor::ExpandShapeOp::create(
                 rewriter, loc, RankedTensorType::get(shape, tt.getElementType()), t,
                 SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}}, sizes)
          .getResult();
    };
    auto f5 = RankedTensorType::get(
        {groups, fout / groups, cin / groups, f.getDimSize(2), f.getDimSize(3)},
        f.getElementType());
    Value filter5 = tensor::ExpandShapeOp::create(
        rewriter, loc, f5, filter, SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
    Value init5 = split(init, groups);
    Value conv = linalg::Conv2DNgchwGfchwOp::create(rewriter, loc, TypeRange{init5.getType()},
                                                    ValueRange{split(padded, groups), filter5},
                                                    ValueRange{init5}, i64Vec(rewriter, strides),
                                                    i64Vec(rewriter, dil))
                     .getResult(0);
    result = tensor::CollapseShapeOp::create(
        rewriter, loc, resultType, conv, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
  }
  return result;
}

/// conv2d / depthwise_conv2d; an NHWC one is computed on an NCHW view of
/// its input (the filter is OIHW in both layouts) and its result
/// transposed back.
template <typename OpTy>
LogicalResult lowerConv(OpTy op, Value input, Value filter, ConversionPatternRewriter &rewriter) {
  bool nhwc = op.getDataFormat() == "NHWC";
  auto type = cast<RankedTensorType>(op.getType());
  if (nhwc) {
    input = permute(rewriter, op.getLoc(), input, kNHWCToNCHW);
    SmallVector<int64_t> shape;
    for (int64_t p : kNHWCToNCHW)
      shape.push_back(type.getDimSize(p));
    type = RankedTensorType::get(shape, type.getElementType());
  }
  auto r = buildConv(op, input, filter, rewriter, type, nhwc);
  if (failed(r))
    return failure();
  rewriter.replaceOp(op, nhwc ? permute(rewriter, op.getLoc(), *r, kNCHWToNHWC) : *r);
  return success();
}

/// act(conv(Input, Filter) + Bias[c] (+ ResidualData)) as conv + one epilogue.
struct FusedConv2dLowering : OpConversionPattern<FusedConv2dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(FusedConv2dOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    // The op's verifier limits fuse_activation to names applyActivation handles.
    StringRef act = op.getFuseActivation();
    auto conv = buildConv(op, a.getInput(), a.getFilter(), r, cast<RankedTensorType>(op.getType()));
    if (failed(conv))
      return failure();
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value> ins = {*conv};
    SmallVector<int64_t> offs = {0};
    if (a.getBias()) {
      ins.push_back(a.getBias());
      offs.push_back(1);
    }
    if (a.getResidualData()) {
      ins.push_back(a.getResidualData());
      offs.push_back(0);
    }
    bool hasBias = bool(a.getBias()), hasRes = bool(a.getResidualData());
    double alpha = op.getFuseAlpha().convertToDouble();
    auto y = elementwise(r, op.getLoc(), type, ins, offs,
                         [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                           Value x = v[0];
                           if (hasBias)
                             x = arith::AddFOp::create(b, l, x, v[1]);
                           if (hasRes)
                             x = arith::AddFOp::create(b, l, x, v[hasBias ? 2 : 1]);
                           return applyActivation(b, l, x, act, alpha);
                         });
    if (failed(y))
      return failure();
    r.replaceOp(op, *y);
    return success();
  }
};

struct Conv2dLowering : OpConversionPattern<Conv2dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(Conv2dOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    return lowerConv(op, a.getInput(), a.getFilter(), r);
  }
};
struct DepthwiseConv2dLowering : OpConversionPattern<DepthwiseConv2dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(DepthwiseConv2dOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    return lowerConv(op, a.getInput(), a.getFilter(), r);
  }
};

/// x * a[c] + b[c] with a = scale / sqrt(var + eps), b = bias - mean * a.
struct BatchNormLowering : OpConversionPattern<BatchNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BatchNormOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t ch = op.getDataLayout() == "NHWC" ? type.getRank() - 1 : 1;
    double eps = op.getEpsilon().convertToDouble();
    auto vecType = cast<RankedTensorType>(a.getScale().getType());
    auto coef = elementwise(r, loc, vecType, ValueRange{a.getScale(), a.getVariance()}, {0, 0},
                            [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                              Value e = scalar(b, l, v[1].getType(), eps);
                              Value s =
                                  math::SqrtOp::create(b, l, arith::AddFOp::create(b, l, v[1], e));
                              return arith::DivFOp::create(b, l, v[0], s);
                            });
    if (failed(coef))
      return failure();
    auto shift = elementwise(r, loc, vecType, ValueRange{a.getBias(), a.getMean(), *coef},
                             {0, 0, 0}, [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                               return arith::SubFOp::create(
                                   b, l, v[0], arith::MulFOp::create(b, l, v[1], v[2]));
                             });
    if (failed(shift))
      return failure();
    auto y = elementwise(r, loc, type, ValueRange{a.getX(), *coef, *shift}, {0, ch, ch},
                         [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                           return arith::AddFOp::create(
                               b, l, arith::MulFOp::create(b, l, v[0], v[1]), v[2]);
                         });
    if (failed(y))
      return failure();
    r.replaceOp(op, *y);
    return success();
  }
};

/// A linalg.generic over x's shape reading x and per-row values (x's dims
/// without `dims`).
FailureOr<Value> withRows(OpBuilder &b, Location loc, Value x, ValueRange rows,
                          ArrayRef<int64_t> dims,
                          function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  auto t = cast<RankedTensorType>(x.getType());
  SmallVector<AffineExpr> kept;
  for (int64_t i = 0; i < t.getRank(); ++i)
    if (!llvm::is_contained(dims, i))
      kept.push_back(b.getAffineDimExpr(i));
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(t.getRank())};
  for (size_t i = 0; i < rows.size(); ++i)
    maps.push_back(AffineMap::get(t.getRank(), 0, kept, b.getContext()));
  maps.push_back(b.getMultiDimIdentityMap(t.getRank()));
  Value init =
      tensor::EmptyOp::create(b, loc, t.getShape(), t.getElementType(), dynSizesFrom(b, loc, x, t));
  SmallVector<Value> ins = {x};
  llvm::append_range(ins, rows);
  SmallVector<utils::IteratorType> iters(t.getRank(), utils::IteratorType::parallel);
  return linalg::GenericOp::create(b, loc, TypeRange{t}, ins, ValueRange{init}, maps, iters,
                                   [&](OpBuilder &nb, Location nl, ValueRange args) {
                                     linalg::YieldOp::create(nb, nl,
                                                             body(nb, nl, args.drop_back()));
                                   })
      .getResult(0);
}

Value softmax(OpBuilder &b, Location loc, Value x, int64_t axis, bool log) {
  Value mx = reduceDims(b, loc, x, {axis}, -std::numeric_limits<double>::infinity(),
                        [](OpBuilder &nb, Location l, Value acc, Value v) -> Value {
                          return arith::MaximumFOp::create(nb, l, acc, v);
                        });
  Value shifted =
      *withRows(b, loc, x, {mx}, {axis}, [](OpBuilder &nb, Location l, ValueRange v) -> Value {
        return arith::SubFOp::create(nb, l, v[0], v[1]);
      });
  Value sum = reduceDims(b, loc, shifted, {axis}, 0.0,
                         [](OpBuilder &nb, Location l, Value acc, Value v) -> Value {
                           return arith::AddFOp::create(nb, l, acc, math::ExpOp::create(nb, l, v));
                         });
  return *withRows(b, loc, shifted, {sum}, {axis},
                   [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
                     if (log)
                       return arith::SubFOp::create(nb, l, v[0], math::LogOp::create(nb, l, v[1]));
                     return arith::DivFOp::create(nb, l, math::ExpOp::create(nb, l, v[0]), v[1]);
                   });
}

template <typename OpTy, bool Log> struct SoftmaxLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    int64_t rank = cast<RankedTensorType>(op.getType()).getRank();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    Value y = softmax(r, op.getLoc(), a.getX(), axis, Log);
    if (y.getType() != op.getType())
      y = tensor::CastOp::create(r, op.getLoc(), op.getType(), y);
    r.replaceOp(op, y);
    return success();
  }
};

/// Layer normalization over the last dim of x, then scale and bias.
FailureOr<Value> layerNormLastDim(Operation *op, ConversionPatternRewriter &r, Value x, Value scale,
                                  Value bias, double eps) {
  Location loc = op->getLoc();
  auto t = cast<RankedTensorType>(x.getType());
  int64_t begin = t.getRank() - 1;
  int64_t n = t.getDimSize(begin);
  if (ShapedType::isDynamic(n))
    return (LogicalResult)r.notifyMatchFailure(op, "the normalized dim must be static");
  SmallVector<int64_t> dims = {begin};
  Type elem = t.getElementType();
  auto add = [](OpBuilder &b, Location l, Value acc, Value v) -> Value {
    return arith::AddFOp::create(b, l, acc, v);
  };
  Value sum = reduceDims(r, loc, x, dims, 0.0, add);
  Value centered =
      *withRows(r, loc, x, {sum}, dims, [&](OpBuilder &b, Location l, ValueRange v) -> Value {
        return arith::SubFOp::create(b, l, v[0],
                                     arith::DivFOp::create(b, l, v[1], scalar(b, l, elem, n)));
      });
  Value sq = reduceDims(
      r, loc, centered, dims, 0.0, [](OpBuilder &b, Location l, Value acc, Value v) -> Value {
        return arith::AddFOp::create(b, l, acc, arith::MulFOp::create(b, l, v, v));
      });
  Value norm =
      *withRows(r, loc, centered, {sq}, dims, [&](OpBuilder &b, Location l, ValueRange v) -> Value {
        Value var = arith::DivFOp::create(b, l, v[1], scalar(b, l, elem, n));
        Value inv =
            math::RsqrtOp::create(b, l, arith::AddFOp::create(b, l, var, scalar(b, l, elem, eps)));
        return arith::MulFOp::create(b, l, v[0], inv);
      });
  SmallVector<Value> ins = {norm};
  SmallVector<int64_t> offs = {0};
  if (scale) {
    ins.push_back(scale);
    offs.push_back(begin);
  }
  if (bias) {
    ins.push_back(bias);
    offs.push_back(begin);
  }
  bool hasScale = bool(scale), hasBias = bool(bias);
  auto y = elementwise(r, loc, t, ins, offs, [&](OpBuilder &b, Location l, ValueRange v) -> Value {
    Value out = v[0];
    if (hasScale)
      out = arith::MulFOp::create(b, l, out, v[1]);
    if (hasBias)
      out = arith::AddFOp::create(b, l, out, v[hasScale ? 2 : 1]);
    return out;
  });
  return y;
}

struct LayerNormLowering : OpConversionPattern<LayerNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LayerNormOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX();
    auto t = cast<RankedTensorType>(x.getType());
    int64_t rank = t.getRank(), begin = op.getBeginNormAxis();
    if (begin < 0 || begin >= rank)
      return r.notifyMatchFailure(op, "begin_norm_axis out of range");
    if (begin == rank - 1) {
      auto y =
          layerNormLastDim(op, r, x, a.getScale(), a.getBias(), op.getEpsilon().convertToDouble());
      if (failed(y))
        return failure();
      r.replaceOp(op, *y);
      return success();
    }
    // Several normalized dims (Scale and Bias hold their product): X as
    // [rows, K], normalized over its last dim, then back to X's shape. With
    // begin_norm_axis 0 the rows are one: [K] -> [1, K].
    int64_t k = 1;
    for (int64_t i = begin; i < rank; ++i) {
      if (t.isDynamicDim(i))
        return r.notifyMatchFailure(op, "the normalized dims must be static");
      k *= t.getDimSize(i);
    }
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(r, loc, x);
    ReassociationIndices lead, tail;
    for (int64_t i = 0; i < rank; ++i)
      (i < begin ? lead : tail).push_back(i);
    Value rows;
    SmallVector<ReassociationIndices> groups;
    if (begin == 0) {
      groups = {tail};
      Value flat = tensor::CollapseShapeOp::create(r, loc, x, groups);
      rows =
          tensor::ExpandShapeOp::create(r, loc, RankedTensorType::get({1, k}, t.getElementType()),
                                        flat, ArrayRef<ReassociationIndices>{{0, 1}});
    } else {
      groups = {lead, tail};
      rows = tensor::CollapseShapeOp::create(r, loc, x, groups);
    }
    auto y =
        layerNormLastDim(op, r, rows, a.getScale(), a.getBias(), op.getEpsilon().convertToDouble());
    if (failed(y))
      return failure();
    Value out = *y;
    if (begin == 0)
      out = tensor::CollapseShapeOp::create(r, loc, out, ArrayRef<ReassociationIndices>{{0, 1}});
    out = tensor::ExpandShapeOp::create(r, loc, t, out, groups, sizes);
    if (out.getType() != op.getType())
      out = tensor::CastOp::create(r, loc, op.getType(), out);
    r.replaceOp(op, out);
    return success();
  }
};

/// group_norm (NCHW, any rank >= 2): X viewed as [N, G, C / G, L] (L the
/// spatial elements, possibly dynamic), normalized over its last two dims
/// with the mean and the (biased) variance of each (n, g), then the
/// per-channel scale and bias. instance_norm is the case G = C.
int64_t groupsOf(GroupNormOp op, int64_t) { return op.getGroups(); }
int64_t groupsOf(InstanceNormOp, int64_t channels) { return channels; }
StringRef layoutOf(GroupNormOp op) { return op.getDataLayout(); }
StringRef layoutOf(InstanceNormOp) { return "NCHW"; }

template <typename OpTy> struct GroupNormLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX();
    auto t = cast<RankedTensorType>(x.getType());
    int64_t rank = t.getRank(), c = t.getDimSize(1);
    if (layoutOf(op) == "NHWC")
      return r.notifyMatchFailure(op, "group_norm is supported in NCHW only");
    if (ShapedType::isDynamic(c))
      return r.notifyMatchFailure(op, "group and instance norms need a static channel count");
    int64_t groups = groupsOf(op, c);
    if (c % groups != 0)
      return r.notifyMatchFailure(op, "the channels are not divisible by groups");
    Type elem = t.getElementType();
    // [N, C, S...] -> [N, C, L] -> [N, G, C / G, L].
    SmallVector<ReassociationIndices> toNCL = {{0}, {1}, {}};
    for (int64_t i = 2; i < rank; ++i)
      toNCL.back().push_back(i);
    Value ncl = x;
    if (rank == 2) {
      ncl = tensor::ExpandShapeOp::create(r, loc,
                                          RankedTensorType::get({t.getDimSize(0), c, 1}, elem), x,
                                          ArrayRef<ReassociationIndices>{{0}, {1, 2}});
    } else if (rank > 3) {
      ncl = tensor::CollapseShapeOp::create(r, loc, x, toNCL);
    }
    auto nclType = cast<RankedTensorType>(ncl.getType());
    auto groupedType = RankedTensorType::get(
        {nclType.getDimSize(0), groups, c / groups, nclType.getDimSize(2)}, elem);
    SmallVector<OpFoldResult> groupedShape = {tensor::getMixedSize(r, loc, ncl, 0),
                                              r.getIndexAttr(groups), r.getIndexAttr(c / groups),
                                              tensor::getMixedSize(r, loc, ncl, 2)};
    Value grouped = tensor::ExpandShapeOp::create(
        r, loc, groupedType, ncl, ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}}, groupedShape);
    // The element count of a group, as a float.
    Value count = arith::MulIOp::create(r, loc, tensor::DimOp::create(r, loc, grouped, 3),
                                        arith::ConstantIndexOp::create(r, loc, c / groups));
    count = arith::SIToFPOp::create(r, loc, elem,
                                    arith::IndexCastOp::create(r, loc, r.getI64Type(), count));
    SmallVector<int64_t> dims = {2, 3};
    Value sum = reduceDims(r, loc, grouped, dims, 0.0,
                           [](OpBuilder &b, Location l, Value acc, Value v) -> Value {
                             return arith::AddFOp::create(b, l, acc, v);
                           });
    Value centered = *withRows(
        r, loc, grouped, {sum}, dims, [&](OpBuilder &b, Location l, ValueRange v) -> Value {
          return arith::SubFOp::create(b, l, v[0], arith::DivFOp::create(b, l, v[1], count));
        });
    Value sq = reduceDims(
        r, loc, centered, dims, 0.0, [](OpBuilder &b, Location l, Value acc, Value v) -> Value {
          return arith::AddFOp::create(b, l, acc, arith::MulFOp::create(b, l, v, v));
        });
    double eps = op.getEpsilon().convertToDouble();
    Value norm = *withRows(r, loc, centered, {sq}, dims,
                           [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                             Value var = arith::DivFOp::create(b, l, v[1], count);
                             Value inv = math::RsqrtOp::create(
                                 b, l, arith::AddFOp::create(b, l, var, scalar(b, l, elem, eps)));
                             return arith::MulFOp::create(b, l, v[0], inv);
                           });
    // Back to X's shape, with the scale and bias: y[n, c, s...] =
    // norm[n, c / (C / G), c % (C / G), linear(s...)] * scale[c] + bias[c]
    // (a gather: the expand_shape of L into several dynamic dims is not
    // something the memref lowering takes).
    SmallVector<Value> dyn, spatial;
    for (int64_t i = 0; i < rank; ++i) {
      if (t.isDynamicDim(i))
        dyn.push_back(tensor::DimOp::create(r, loc, x, i));
      if (i >= 2)
        spatial.push_back(tensor::DimOp::create(r, loc, x, i));
    }
    Value scale = a.getScale(), bias = a.getBias();
    Value y = generateTensor(r, loc, t, dyn, [&](OpBuilder &b, Location l) -> Value {
      auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, l, v); };
      Value n = linalg::IndexOp::create(b, l, 0), ch = linalg::IndexOp::create(b, l, 1);
      Value lin = cst(0);
      for (int64_t i = 2; i < rank; ++i)
        lin = arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, lin, spatial[i - 2]),
                                    linalg::IndexOp::create(b, l, i));
      Value g = arith::DivUIOp::create(b, l, ch, cst(c / groups));
      Value j = arith::RemUIOp::create(b, l, ch, cst(c / groups));
      Value v = tensor::ExtractOp::create(b, l, norm, ValueRange{n, g, j, lin});
      if (scale)
        v = arith::MulFOp::create(b, l, v, tensor::ExtractOp::create(b, l, scale, ValueRange{ch}));
      if (bias)
        v = arith::AddFOp::create(b, l, v, tensor::ExtractOp::create(b, l, bias, ValueRange{ch}));
      return v;
    });
    r.replaceOp(op, y);
    return success();
  }
};

/// skip_layernorm: layer_norm(X + Y) over the last dim.
struct SkipLayernormLowering : OpConversionPattern<SkipLayernormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SkipLayernormOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getType());
    int64_t begin = op.getBeginNormAxis();
    if (begin != -1 && begin != type.getRank() - 1)
      return r.notifyMatchFailure(op, "skip_layernorm is supported over the last dim only");
    auto sum = elementwise(r, op.getLoc(), type, ValueRange{a.getX(), a.getY()}, {0, 0},
                           [](OpBuilder &b, Location l, ValueRange v) -> Value {
                             return arith::AddFOp::create(b, l, v[0], v[1]);
                           });
    if (failed(sum))
      return failure();
    auto y =
        layerNormLastDim(op, r, *sum, a.getScale(), a.getBias(), op.getEpsilon().convertToDouble());
    if (failed(y))
      return failure();
    r.replaceOp(op, *y);
    return success();
  }
};

/// fused_embedding_eltwise_layernorm: one generic gathers and sums a row of
/// every table, then the shared last-dim layer norm.
struct FusedEmbeddingLowering : OpConversionPattern<FusedEmbeddingEltwiseLayernormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(FusedEmbeddingEltwiseLayernormOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    ValueRange ids = a.getIds(), embs = a.getEmbs();
    if (type.getRank() != 3 || ids.empty() || ids.size() != embs.size())
      return r.notifyMatchFailure(op, "expects [B, S] ids and one table per ids");
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < 2; ++i)
      if (type.isDynamicDim(i))
        dyn.push_back(tensor::DimOp::create(r, loc, ids[0], i));
    if (type.isDynamicDim(2))
      return r.notifyMatchFailure(op, "the hidden size must be static");
    Value init = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(), dyn);
    AffineMap idMap =
        AffineMap::get(3, 0, {r.getAffineDimExpr(0), r.getAffineDimExpr(1)}, r.getContext());
    SmallVector<AffineMap> maps(ids.size(), idMap);
    maps.push_back(r.getMultiDimIdentityMap(3));
    SmallVector<utils::IteratorType> iters(3, utils::IteratorType::parallel);
    SmallVector<Value> tables(embs.begin(), embs.end());
    auto gen = linalg::GenericOp::create(
        r, loc, TypeRange{type}, ids, ValueRange{init}, maps, iters,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value col = linalg::IndexOp::create(b, l, 2);
          Value sum;
          for (size_t k = 0; k < tables.size(); ++k) {
            Value row = clampedIndex(b, l, args[k], tables[k], 0, /*wrapNegative=*/false);
            Value v = tensor::ExtractOp::create(b, l, tables[k], ValueRange{row, col});
            sum = sum ? arith::AddFOp::create(b, l, sum, v).getResult() : v;
          }
          linalg::YieldOp::create(b, l, sum);
        });
    auto y = layerNormLastDim(op, r, gen.getResult(0), a.getScale(), a.getBias(),
                              op.getEpsilon().convertToDouble());
    if (failed(y))
      return failure();
    r.replaceOp(op, *y);
    return success();
  }
};

/// multihead_matmul, decomposed into the pd ops the unfused block is made of
/// (one [H, 3H] projection, heads split by reshape + transpose, batched
/// matmuls, softmax), which the patterns here then lower. Measured on BERT:
/// a direct 5-loop lowering reading Q, K, V in place was 3x slower than the
/// ops below, whose loops LLVM vectorizes. With a bf16 weight
/// (pd-auto-mixed-precision) the projection, Q, K, V and the context are
/// bf16 and both batched matmuls compute in bf16, while the scores are
/// written in f32 for the scale, mask and softmax (black), whose result is
/// narrowed again for the second matmul.
struct MultiheadMatmulLowering : OpConversionPattern<MultiheadMatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MultiheadMatmulOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto xt = cast<RankedTensorType>(a.getInput().getType());
    auto wt = cast<RankedTensorType>(a.getW().getType());
    int64_t n = op.getHeadNumber(), hidden = xt.getRank() == 3 ? xt.getDimSize(2) : -1;
    if (xt.getRank() != 3 || ShapedType::isDynamic(hidden) || hidden % n != 0 ||
        !wt.hasStaticShape() || wt.getRank() != 3 || wt.getDimSize(0) != hidden ||
        wt.getDimSize(1) != 3 || wt.getDimSize(2) != hidden || !op.getTranspose_Q() ||
        !op.getTranspose_K() || !op.getTranspose_V())
      return r.notifyMatchFailure(op, "expects Input [B, S, H], W [H, 3, H], static H");
    int64_t d = hidden / n, B = xt.getDimSize(0), S = xt.getDimSize(1);
    bool low = wt.getElementType().isBF16();
    // The element type of the projection, Q, K, V and the context (`f`),
    // and of the scores and probabilities (`fs`).
    Type f = low ? wt.getElementType() : xt.getElementType();
    Type fs = low ? r.getF32Type() : f;
    auto make = [&](StringRef name, ValueRange operands, ArrayRef<NamedAttribute> attrs,
                    ArrayRef<int64_t> shape, ArrayRef<int32_t> segments = {},
                    Type elem = {}) -> Value {
      OperationState state(loc, ("pd." + name).str());
      state.addOperands(operands);
      state.addAttributes(attrs);
      if (!segments.empty())
        state.addAttribute("operandSegmentSizes", r.getDenseI32ArrayAttr(segments));
      state.addTypes(RankedTensorType::get(shape, elem ? elem : f));
      return r.create(state)->getResult(0);
    };
    Value x = a.getInput();
    if (low && !xt.getElementType().isBF16())
      x = make("cast", {x},
               {r.getNamedAttr("in_dtype", r.getI32IntegerAttr(5)),
                r.getNamedAttr("out_dtype", r.getI32IntegerAttr(22))},
               xt.getShape());
    auto ints = [&](StringRef name, ArrayRef<int32_t> v) {
      return r.getNamedAttr(name, r.getDenseI32ArrayAttr(v));
    };
    int32_t h32 = int32_t(hidden), n32 = int32_t(n), d32 = int32_t(d);
    Value w2 = make("reshape2", {a.getW()}, {ints("shape", {h32, 3 * h32})}, {hidden, 3 * hidden},
                    {1, 0, 0});
    Value b1 = make("reshape2", {a.getBias()}, {ints("shape", {3 * h32})}, {3 * hidden}, {1, 0, 0},
                    cast<RankedTensorType>(a.getBias().getType()).getElementType());
    Value qkv = make("fc", {x, w2, b1}, {r.getNamedAttr("in_num_col_dims", r.getI32IntegerAttr(2))},
                     {B, S, 3 * hidden});
    Value split =
        make("reshape2", {qkv}, {ints("shape", {0, 0, 3, n32, d32})}, {B, S, 3, n, d}, {1, 0, 0});
    Value heads = make("transpose2", {split}, {ints("axis", {2, 0, 3, 1, 4})}, {3, B, n, S, d});
    auto part = [&](int32_t t) {
      return make("slice", {heads},
                  {ints("axes", {0}), ints("starts", {t}), ints("ends", {t + 1}),
                   ints("decrease_axis", {0})},
                  {B, n, S, d}, {1, 0, 0, 0, 0});
    };
    Value q = part(0), k = part(1), v = part(2);
    Value scores = make("matmul_v2", {q, k}, {r.getNamedAttr("trans_y", r.getBoolAttr(true))},
                        {B, n, S, S}, {}, fs);
    scores =
        make("scale", {scores}, {r.getNamedAttr("scale", op.getAlphaAttr())}, {B, n, S, S}, {}, fs);
    if (Value mask = a.getBiasQK())
      scores = make("elementwise_add", {scores, mask}, {}, {B, n, S, S}, {}, fs);
    Value probs = make("softmax", {scores}, {}, {B, n, S, S}, {}, fs);
    if (low)
      probs = make("cast", {probs},
                   {r.getNamedAttr("in_dtype", r.getI32IntegerAttr(5)),
                    r.getNamedAttr("out_dtype", r.getI32IntegerAttr(22))},
                   {B, n, S, S});
    Value ctx = make("matmul_v2", {probs, v}, {}, {B, n, S, d});
    Value merged = make("transpose2", {ctx}, {ints("axis", {0, 2, 1, 3})}, {B, S, n, d});
    Value y = make("reshape2", {merged}, {ints("shape", {0, 0, h32})}, {B, S, hidden}, {1, 0, 0});
    auto yt = cast<RankedTensorType>(op.getType());
    if (cast<RankedTensorType>(y.getType()).getElementType() != yt.getElementType())
      y = make("cast", {y},
               {r.getNamedAttr("in_dtype", r.getI32IntegerAttr(22)),
                r.getNamedAttr("out_dtype", r.getI32IntegerAttr(5))},
               {B, S, hidden}, {}, yt.getElementType());
    if (y.getType() != op.getType())
      y = tensor::CastOp::create(r, loc, op.getType(), y);
    r.replaceOp(op, y);
    return success();
  }
};

/// The transposed convolution of x [N, Cin, H, W] with w [Cin, Cout/groups,
/// kH, kW] into `type` (NCHW) as a gather: each output element sums
/// x[n, ic, ih, iw] * w[ic, oc % cpg, kh, kw] over the input channels of
/// its group and the kernel taps with oh + pad_top - kh * dil_h =
/// ih * stride_h (same for w). A direct loop nest: transposed convolutions
/// are rare in inference models, and training on f32 uses oneDNN instead.
Value transposedConv(OpBuilder &r, Location loc, RankedTensorType type, Value x, Value w,
                     ValueRange dynSizes, std::array<int64_t, 4> pads, ArrayRef<int32_t> st,
                     ArrayRef<int32_t> dil, int64_t groups) {
  auto wt = cast<RankedTensorType>(w.getType());
  int64_t cinPerGroup = wt.getDimSize(0) / groups, coutPerGroup = wt.getDimSize(1);
  // The input's spatial sizes (constants when static), read in the body.
  Value H = tensor::DimOp::create(r, loc, x, 2), W = tensor::DimOp::create(r, loc, x, 3);
  Type elem = type.getElementType();
  Value acc = filled(r, loc, type, dynSizes, 0.0);
  // Loops: n, oc, oh, ow (parallel), icg, kh, kw (reduction); the taps
  // tensor only gives the reduction loops their extents.
  Value taps = tensor::EmptyOp::create(
      r, loc, ArrayRef<int64_t>{cinPerGroup, wt.getDimSize(2), wt.getDimSize(3)}, elem);
  MLIRContext *ctx = r.getContext();
  SmallVector<AffineMap> maps = {
      AffineMap::get(7, 0, {r.getAffineDimExpr(4), r.getAffineDimExpr(5), r.getAffineDimExpr(6)},
                     ctx),
      AffineMap::get(7, 0,
                     {r.getAffineDimExpr(0), r.getAffineDimExpr(1), r.getAffineDimExpr(2),
                      r.getAffineDimExpr(3)},
                     ctx)};
  SmallVector<utils::IteratorType> iters(4, utils::IteratorType::parallel);
  iters.append(3, utils::IteratorType::reduction);
  auto gen = linalg::GenericOp::create(
      r, loc, TypeRange{type}, ValueRange{taps}, ValueRange{acc}, maps, iters,
      [&](OpBuilder &b, Location l, ValueRange args) {
        auto idx = [&](int64_t d) { return linalg::IndexOp::create(b, l, d).getResult(); };
        auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, l, v).getResult(); };
        Value n = idx(0), oc = idx(1), oh = idx(2), ow = idx(3), icg = idx(4), kh = idx(5),
              kw = idx(6);
        Value g = arith::DivUIOp::create(b, l, oc, c(coutPerGroup));
        Value ocg = arith::RemUIOp::create(b, l, oc, c(coutPerGroup));
        Value ic = arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, g, c(cinPerGroup)), icg);
        Value valid = arith::ConstantIntOp::create(b, l, 1, 1);
        // The input position along one spatial dim, and whether it exists.
        auto source = [&](Value o, Value k, int64_t pad, int64_t s, int64_t d, Value size) {
          Value num = arith::SubIOp::create(b, l, arith::AddIOp::create(b, l, o, c(pad)),
                                            arith::MulIOp::create(b, l, k, c(d)));
          Value q = arith::DivSIOp::create(b, l, num, c(s));
          Value ok = arith::AndIOp::create(
              b, l, arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, num, c(0)),
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                    arith::RemSIOp::create(b, l, num, c(s)), c(0)));
          ok = arith::AndIOp::create(
              b, l, ok, arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, q, size));
          valid = arith::AndIOp::create(b, l, valid, ok);
          return arith::SelectOp::create(b, l, ok, q, c(0)).getResult();
        };
        Value ih = source(oh, kh, pads[0], st[0], dil[0], H);
        Value iw = source(ow, kw, pads[2], st[1], dil[1], W);
        Value xv = tensor::ExtractOp::create(b, l, x, ValueRange{n, ic, ih, iw});
        Value wv = tensor::ExtractOp::create(b, l, w, ValueRange{ic, ocg, kh, kw});
        Value prod = arith::MulFOp::create(b, l, xv, wv);
        prod = arith::SelectOp::create(b, l, valid, prod, scalar(b, l, elem, 0.0));
        linalg::YieldOp::create(b, l, arith::AddFOp::create(b, l, args[1], prod).getResult());
      });
  return gen.getResult(0);
}

/// A transposed convolution of the op's source with its filter into its
/// result (NCHW, explicit or VALID padding, static shapes): conv2d_transpose
/// (source: Input), and conv2d_grad_input (source: the output's gradient,
/// Input giving only the shape) where oneDNN's backward-data primitive does
/// not apply (f64; NHWC is refused by the rule).
template <typename OpTy> struct TransposedConvLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  static Value source(typename OpTy::Adaptor a) {
    if constexpr (std::is_same_v<OpTy, Conv2dGradInputOp>)
      return a.getOutputGrad();
    else
      return a.getInput();
  }
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    if (op.getDataFormat() == "NHWC" || op.getPaddingAlgorithm() == "SAME")
      return r.notifyMatchFailure(op, "NCHW with explicit or VALID padding only");
    auto type = cast<RankedTensorType>(op.getType());
    Value x = source(a), w = a.getFilter();
    auto xt = cast<RankedTensorType>(x.getType());
    auto wt = cast<RankedTensorType>(w.getType());
    if (!wt.hasStaticShape() || xt.isDynamicDim(1) || type.isDynamicDim(1))
      return r.notifyMatchFailure(op, "needs a static filter and static channels");
    std::array<int64_t, 4> pads = {0, 0, 0, 0};
    if (op.getPaddingAlgorithm() != "VALID")
      pads = pads4(op.getPaddings());
    auto st = op.getStrides(), dil = op.getDilations();
    // Dynamic result sizes: the batch of the source; a spatial size from
    // Input (the gradient's shape) or (H - 1) * s - pads + d * (k - 1) + 1
    // + output_padding (output_size makes it static).
    SmallVector<Value> dyn;
    Location loc = op.getLoc();
    auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(r, loc, v).getResult(); };
    for (int64_t i = 0; i < 4; ++i) {
      if (!type.isDynamicDim(i))
        continue;
      if (i == 0) {
        dyn.push_back(tensor::DimOp::create(r, loc, x, 0));
        continue;
      }
      if constexpr (std::is_same_v<OpTy, Conv2dGradInputOp>) {
        dyn.push_back(tensor::DimOp::create(r, loc, a.getInput(), i));
      } else {
        int64_t j = i - 2;
        ArrayRef<int32_t> outPad = op.getOutputPadding();
        int64_t fixed = -pads[2 * j] - pads[2 * j + 1] + dil[j] * (wt.getDimSize(i) - 1) + 1 +
                        (outPad.empty() ? 0 : outPad[j]);
        Value h = tensor::DimOp::create(r, loc, x, i);
        Value scaled =
            arith::MulIOp::create(r, loc, arith::SubIOp::create(r, loc, h, c(1)), c(st[j]));
        dyn.push_back(arith::AddIOp::create(r, loc, scaled, c(fixed)));
      }
    }
    r.replaceOp(op, transposedConv(r, loc, type, x, w, dyn, pads, st, dil, op.getGroups()));
    return success();
  }
};

/// conv2d_grad_filter: dW[o, ci, kh, kw] = sum over n, oh, ow of
/// dY[n, o, oh, ow] * xpad[n, group(o) * C/g + ci, oh * s + kh * d, ...]
/// (xpad: the input padded as the convolution pads it), one generic with
/// the output's gradient as its input and the padded input gathered.
struct Conv2dGradFilterLowering : OpConversionPattern<Conv2dGradFilterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(Conv2dGradFilterOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    if (op.getDataFormat() == "NHWC" || op.getPaddingAlgorithm() == "SAME")
      return r.notifyMatchFailure(op, "NCHW with explicit or VALID padding only");
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getInput(), dy = a.getOutputGrad();
    auto xt = cast<RankedTensorType>(x.getType());
    auto dyt = cast<RankedTensorType>(dy.getType());
    if (!type.hasStaticShape() || llvm::any_of(llvm::seq<unsigned>(1, 4), [&](unsigned i) {
          return xt.isDynamicDim(i) || dyt.isDynamicDim(i);
        }))
      return r.notifyMatchFailure(op, "needs static shapes (batch may be dynamic)");
    std::array<int64_t, 4> pads = {0, 0, 0, 0};
    if (op.getPaddingAlgorithm() != "VALID")
      pads = pads4(op.getPaddings());
    Value xp = padSpatial(r, loc, x, pads, 0.0);
    int64_t groups = op.getGroups(), outPerGroup = type.getDimSize(0) / groups,
            inPerGroup = type.getDimSize(1);
    auto st = op.getStrides();
    auto dil = op.getDilations();
    Value acc = filled(r, loc, type, {}, 0.0);
    // Loops: o, ci, kh, kw (parallel), n, oh, ow (reduction).
    MLIRContext *ctx = r.getContext();
    auto d = [&](unsigned i) { return r.getAffineDimExpr(i); };
    SmallVector<AffineMap> maps = {AffineMap::get(7, 0, {d(4), d(0), d(5), d(6)}, ctx),
                                   AffineMap::get(7, 0, {d(0), d(1), d(2), d(3)}, ctx)};
    SmallVector<utils::IteratorType> iters(4, utils::IteratorType::parallel);
    iters.append(3, utils::IteratorType::reduction);
    auto gen = linalg::GenericOp::create(
        r, loc, TypeRange{type}, ValueRange{dy}, ValueRange{acc}, maps, iters,
        [&](OpBuilder &b, Location l, ValueRange args) {
          auto idx = [&](int64_t i) { return linalg::IndexOp::create(b, l, i).getResult(); };
          auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, l, v).getResult(); };
          auto mul = [&](Value v, int64_t k) { return arith::MulIOp::create(b, l, v, c(k)); };
          auto add = [&](Value u, Value v) { return arith::AddIOp::create(b, l, u, v); };
          Value o = idx(0), ci = idx(1), kh = idx(2), kw = idx(3), n = idx(4), oh = idx(5),
                ow = idx(6);
          Value ch = add(mul(arith::DivUIOp::create(b, l, o, c(outPerGroup)), inPerGroup), ci);
          Value ih = add(mul(oh, st[0]), mul(kh, dil[0]));
          Value iw = add(mul(ow, st[1]), mul(kw, dil[1]));
          Value xv = tensor::ExtractOp::create(b, l, xp, ValueRange{n, ch, ih, iw});
          Value prod = arith::MulFOp::create(b, l, args[0], xv);
          linalg::YieldOp::create(b, l, arith::AddFOp::create(b, l, args[1], prod).getResult());
        });
    r.replaceOp(op, gen.getResult(0));
    return success();
  }
};

/// Adaptive pooling of NCHW `x` to the bins of `type` (Paddle's
/// AdaptStartIndex / AdaptEndIndex): output row i covers input rows
/// [floor(i * H / OH), ceil((i + 1) * H / OH)), columns alike; averages divide
/// by the bin's own size. Each output element loops over its bin, so H and W
/// may be dynamic.
Value adaptivePool(OpBuilder &r, Location loc, Value x, RankedTensorType type, bool isMax) {
  Type elem = type.getElementType();
  Value h = tensor::DimOp::create(r, loc, x, 2), w = tensor::DimOp::create(r, loc, x, 3);
  Value oh = arith::ConstantIndexOp::create(r, loc, type.getDimSize(2));
  Value ow = arith::ConstantIndexOp::create(r, loc, type.getDimSize(3));
  SmallVector<Value> dyn;
  for (int64_t d = 0; d < 2; ++d)
    if (type.isDynamicDim(d))
      dyn.push_back(tensor::DimOp::create(r, loc, x, d));
  double init = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
  return generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
    Value n = linalg::IndexOp::create(b, l, 0), c = linalg::IndexOp::create(b, l, 1);
    Value one = arith::ConstantIndexOp::create(b, l, 1);
    auto bin = [&](int64_t d, Value in, Value out) -> std::pair<Value, Value> {
      return adaptiveBin(b, l, linalg::IndexOp::create(b, l, d), in, out);
    };
    // Plain variables: the loop bodies below capture them.
    Value h0, h1, w0, w1;
    std::tie(h0, h1) = bin(2, h, oh);
    std::tie(w0, w1) = bin(3, w, ow);
    Value start = scalar(b, l, elem, init);
    auto rows = scf::ForOp::create(
        b, l, h0, h1, one, ValueRange{start},
        [&](OpBuilder &rb, Location rl, Value y, ValueRange racc) {
          auto cols = scf::ForOp::create(
              rb, rl, w0, w1, one, ValueRange{racc[0]},
              [&](OpBuilder &cb, Location cl, Value xi, ValueRange cacc) {
                Value v = tensor::ExtractOp::create(cb, cl, x, ValueRange{n, c, y, xi});
                Value next = isMax ? arith::MaximumFOp::create(cb, cl, cacc[0], v).getResult()
                                   : arith::AddFOp::create(cb, cl, cacc[0], v).getResult();
                scf::YieldOp::create(cb, cl, next);
              });
          scf::YieldOp::create(rb, rl, cols.getResult(0));
        });
    Value acc = rows.getResult(0);
    if (isMax)
      return acc;
    Value count = arith::MulIOp::create(b, l, arith::SubIOp::create(b, l, h1, h0),
                                        arith::SubIOp::create(b, l, w1, w0));
    Value countF = arith::SIToFPOp::create(b, l, elem,
                                           arith::IndexCastOp::create(b, l, b.getI64Type(), count));
    return arith::DivFOp::create(b, l, acc, countF);
  });
}

struct Pool2dLowering : OpConversionPattern<Pool2dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(Pool2dOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    if (!isa<FloatType>(cast<RankedTensorType>(op.getType()).getElementType()))
      return r.notifyMatchFailure(op, "int8 pooling runs on the oneDNN kernel only (max pooling "
                                      "with static channels and image size)");
    Location loc = op.getLoc();
    // NHWC: pooled on an NCHW view of the input, the result transposed back.
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getX();
    bool nhwc = op.getDataFormat() == "NHWC";
    if (nhwc) {
      x = permute(r, loc, x, kNHWCToNCHW);
      SmallVector<int64_t> shape;
      for (int64_t p : kNHWCToNCHW)
        shape.push_back(type.getDimSize(p));
      type = RankedTensorType::get(shape, type.getElementType());
    }
    auto done = [&](Value y) -> LogicalResult {
      r.replaceOp(op, nhwc ? permute(r, loc, y, kNCHWToNHWC) : y);
      return success();
    };
    auto in = cast<RankedTensorType>(x.getType());
    bool isMax = op.getPoolingType() == "max";
    double init = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
    auto combine = [isMax](OpBuilder &b, Location l, Value acc, Value v) -> Value {
      return isMax ? arith::MaximumFOp::create(b, l, acc, v).getResult()
                   : arith::AddFOp::create(b, l, acc, v).getResult();
    };
    bool global = op.getGlobalPooling() ||
                  (op.getAdaptive() && op.getKsize()[0] == 1 && op.getKsize()[1] == 1);
    if (global) {
      Value red = reduceDims(r, loc, x, {2, 3}, init, combine);
      if (!isMax) {
        // The divisor H * W, read at run time when a spatial dim is dynamic.
        Value hw = arith::MulIOp::create(r, loc, tensor::DimOp::create(r, loc, x, 2),
                                         tensor::DimOp::create(r, loc, x, 3));
        Value count = arith::SIToFPOp::create(
            r, loc, in.getElementType(), arith::IndexCastOp::create(r, loc, r.getI64Type(), hw));
        auto rt = cast<RankedTensorType>(red.getType());
        red = *elementwise(r, loc, rt, ValueRange{red}, {0},
                           [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                             return arith::DivFOp::create(b, l, v[0], count);
                           });
      }
      Value y = tensor::ExpandShapeOp::create(r, loc, type, red,
                                              ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
      return done(y);
    }
    if (op.getAdaptive()) {
      return done(adaptivePool(r, loc, x, type, isMax));
    }
    auto ks = op.getKsize();
    auto st = op.getStrides();
    auto pads =
        resolvePads(in, {ks[0], ks[1]}, st, {1, 1}, op.getPaddings(), op.getPaddingAlgorithm());
    bool dynamicSpatial = in.isDynamicDim(2) || in.isDynamicDim(3);
    // ceil_mode: extra high padding so the last partial window exists.
    int64_t oh = type.getDimSize(2), ow = type.getDimSize(3);
    int64_t H = in.getDimSize(2), W = in.getDimSize(3);
    SpatialPads p;
    if (dynamicSpatial) {
      p = runtimeWindowPads(r, loc, x, {ks[0], ks[1]}, {st[0], st[1]}, {1, 1}, pads,
                            op.getPaddingAlgorithm() == "SAME", op.getCeilMode());
    } else {
      int64_t extraH = std::max<int64_t>((oh - 1) * st[0] + ks[0] - (H + pads[0] + pads[1]), 0);
      int64_t extraW = std::max<int64_t>((ow - 1) * st[1] + ks[1] - (W + pads[2] + pads[3]), 0);
      p = staticPads(r, {pads[0], pads[1] + extraH, pads[2], pads[3] + extraW});
    }
    // The ceil_mode overhang counts as padding: exclusive averages divide
    // by the cells inside the input.
    bool padded = !llvm::all_of(p, [](OpFoldResult v) { return isConstantIntValue(v, 0); });
    Value paddedIn = padSpatial(r, loc, x, p, init);
    SmallVector<int64_t> stl = {st[0], st[1]};
    SmallVector<Value> dyn = windowDynSizes(r, loc, paddedIn, type, {ks[0], ks[1]}, stl, {1, 1});
    Value acc = filled(r, loc, type, dyn, init);
    Value window =
        tensor::EmptyOp::create(r, loc, ArrayRef<int64_t>{ks[0], ks[1]}, type.getElementType());
    SmallVector<int64_t> strides = {st[0], st[1]}, dil = {1, 1};
    Value y;
    if (isMax)
      y = linalg::PoolingNchwMaxOp::create(r, loc, TypeRange{type}, ValueRange{paddedIn, window},
                                           ValueRange{acc}, i64Vec(r, strides), i64Vec(r, dil))
              .getResult(0);
    else
      y = linalg::PoolingNchwSumOp::create(r, loc, TypeRange{type}, ValueRange{paddedIn, window},
                                           ValueRange{acc}, i64Vec(r, strides), i64Vec(r, dil))
              .getResult(0);
    if (!isMax && (!op.getExclusive() || !padded)) {
      double count = double(ks[0] * ks[1]);
      y = *elementwise(
          r, loc, type, ValueRange{y}, {0}, [&](OpBuilder &b, Location l, ValueRange v) -> Value {
            return arith::DivFOp::create(b, l, v[0], scalar(b, l, type.getElementType(), count));
          });
    } else if (!isMax && dynamicSpatial) {
      // Exclusive over a run-time size: each position divides by its
      // window's cells inside the input, counted in the loop body.
      Value top = getValueOrCreateConstantIndexOp(r, loc, p[0]);
      Value left = getValueOrCreateConstantIndexOp(r, loc, p[2]);
      Value h = tensor::DimOp::create(r, loc, x, 2), w = tensor::DimOp::create(r, loc, x, 3);
      y = *elementwise(
          r, loc, type, ValueRange{y}, {0}, [&](OpBuilder &b, Location l, ValueRange v) -> Value {
            auto c = [&](int64_t n) { return arith::ConstantIndexOp::create(b, l, n).getResult(); };
            auto cells = [&](int64_t dim, Value pad, Value size, int64_t k, int64_t s) -> Value {
              Value start = arith::SubIOp::create(
                  b, l, arith::MulIOp::create(b, l, linalg::IndexOp::create(b, l, dim), c(s)), pad);
              Value end =
                  arith::MinSIOp::create(b, l, arith::AddIOp::create(b, l, start, c(k)), size);
              return arith::SubIOp::create(b, l, end, arith::MaxSIOp::create(b, l, start, c(0)));
            };
            Value rows = cells(2, top, h, ks[0], st[0]);
            Value cols = cells(3, left, w, ks[1], st[1]);
            Value n = arith::MulIOp::create(b, l, rows, cols);
            Value nf = arith::SIToFPOp::create(b, l, type.getElementType(),
                                               arith::IndexCastOp::create(b, l, b.getI64Type(), n));
            return arith::DivFOp::create(b, l, v[0], nf);
          });
    } else if (!isMax) {
      // Divisors per output position: the window size, or with `exclusive`
      // the number of window cells inside the unpadded input.
      SmallVector<float> counts;
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          int64_t h0 = i * st[0] - pads[0], w0 = j * st[1] - pads[2];
          int64_t hs = std::max<int64_t>(h0, 0), he = std::min<int64_t>(h0 + ks[0], H);
          int64_t ws = std::max<int64_t>(w0, 0), we = std::min<int64_t>(w0 + ks[1], W);
          counts.push_back(op.getExclusive() ? float((he - hs) * (we - ws)) : float(ks[0] * ks[1]));
        }
      auto ct = RankedTensorType::get({oh, ow}, type.getElementType());
      Value c = arith::ConstantOp::create(r, loc, ct,
                                          DenseElementsAttr::get(ct, ArrayRef<float>(counts)));
      y = *elementwise(r, loc, type, ValueRange{y, c}, {0, 2},
                       [](OpBuilder &b, Location l, ValueRange v) -> Value {
                         return arith::DivFOp::create(b, l, v[0], v[1]);
                       });
    }
    return done(y);
  }
};

/// conv3d (NCDHW): the padded input and the filter contracted by one
/// linalg.generic over (n, f, od, oh, ow, c, kd, kh, kw), with input channel
/// (f floordiv (C_out / groups)) * (C_in / groups) + c. Paddings are
/// [pd, ph, pw] or (begin, end) per spatial dim; SAME puts the odd pixel at
/// the end, as Paddle does.
struct Conv3dLowering : OpConversionPattern<Conv3dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(Conv3dOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getInput(), w = a.getFilter();
    auto xt = cast<RankedTensorType>(x.getType());
    auto wt = cast<RankedTensorType>(w.getType());
    auto type = cast<RankedTensorType>(op.getType());
    if (!wt.hasStaticShape())
      return r.notifyMatchFailure(op, "the filter shape is not static");
    for (int64_t i = 1; i < 5; ++i)
      if (type.isDynamicDim(i) || xt.isDynamicDim(i))
        return r.notifyMatchFailure(op, "only the batch dim may be dynamic");
    ArrayRef<int32_t> st = op.getStrides(), dl = op.getDilations(), p = op.getPaddings();
    SmallVector<int64_t> lo(3), hi(3);
    for (int64_t i = 0; i < 3; ++i) {
      lo[i] = p.size() == 6 ? p[2 * i] : p[i];
      hi[i] = p.size() == 6 ? p[2 * i + 1] : p[i];
      int64_t in = xt.getDimSize(2 + i), k = wt.getDimSize(2 + i);
      if (op.getPaddingAlgorithm() == "VALID") {
        lo[i] = hi[i] = 0;
      } else if (op.getPaddingAlgorithm() == "SAME") {
        int64_t out = (in + st[i] - 1) / st[i];
        int64_t total = std::max<int64_t>((out - 1) * st[i] + dl[i] * (k - 1) + 1 - in, 0);
        lo[i] = total / 2;
        hi[i] = total - lo[i];
      }
    }
    Type elem = xt.getElementType();
    if (llvm::any_of(lo, [](int64_t v) { return v != 0; }) ||
        llvm::any_of(hi, [](int64_t v) { return v != 0; })) {
      SmallVector<int64_t> shape(xt.getShape());
      SmallVector<OpFoldResult> low(2, r.getIndexAttr(0)), high(2, r.getIndexAttr(0));
      for (int64_t i = 0; i < 3; ++i) {
        shape[2 + i] += lo[i] + hi[i];
        low.push_back(r.getIndexAttr(lo[i]));
        high.push_back(r.getIndexAttr(hi[i]));
      }
      x = tensor::PadOp::create(r, loc, RankedTensorType::get(shape, elem), x, low, high,
                                scalar(r, loc, elem, 0.0));
    }
    int64_t groups = op.getGroups();
    int64_t og = wt.getDimSize(0) / groups, cg = wt.getDimSize(1);
    SmallVector<Value> dyn;
    if (type.isDynamicDim(0))
      dyn.push_back(tensor::DimOp::create(r, loc, x, 0));
    Value init = filled(r, loc, type, dyn, 0.0);
    auto d = [&](unsigned i) { return r.getAffineDimExpr(i); };
    // Dims: n=0 f=1 od=2 oh=3 ow=4 c=5 kd=6 kh=7 kw=8.
    SmallVector<AffineExpr> in{d(0), d(1).floorDiv(og) * cg + d(5)};
    for (int64_t i = 0; i < 3; ++i)
      in.push_back(d(2 + i) * st[i] + d(6 + i) * dl[i]);
    SmallVector<AffineMap> maps{
        AffineMap::get(9, 0, in, r.getContext()),
        AffineMap::get(9, 0, {d(1), d(5), d(6), d(7), d(8)}, r.getContext()),
        AffineMap::get(9, 0, {d(0), d(1), d(2), d(3), d(4)}, r.getContext())};
    SmallVector<utils::IteratorType> iters(5, utils::IteratorType::parallel);
    iters.append(4, utils::IteratorType::reduction);
    Value y =
        linalg::GenericOp::create(r, loc, type, ValueRange{x, w}, ValueRange{init}, maps, iters,
                                  [](OpBuilder &b, Location l, ValueRange args) {
                                    Value m = arith::MulFOp::create(b, l, args[0], args[1]);
                                    linalg::YieldOp::create(
                                        b, l, arith::AddFOp::create(b, l, args[2], m).getResult());
                                  })
            .getResult(0);
    r.replaceOp(op, y);
    return success();
  }
};
/// pool3d (NCDHW or NDHWC), as Paddle's Pool3dFunctor: each output element
/// loops over its window clipped to the input, [o * s - lo, o * s - lo + k)
/// within [0, in) (adaptive: [floor(o * in / out), ceil((o + 1) * in / out));
/// global: the whole input); max, or the average over the window's cells
/// in the input (exclusive or adaptive) or over ksize's product.
struct Pool3dLowering : OpConversionPattern<Pool3dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(Pool3dOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX();
    auto type = cast<RankedTensorType>(op.getType());
    Type elem = type.getElementType();
    int64_t first = op.getDataFormat() == "NDHWC" ? 1 : 2;
    bool isMax = op.getPoolingType() == "max", global = op.getGlobalPooling(),
         adaptive = op.getAdaptive(), exclusive = op.getExclusive() || adaptive;
    ArrayRef<int32_t> ks = op.getKsize(), st = op.getStrides(), p = op.getPaddings();
    StringRef algo = op.getPaddingAlgorithm();
    SmallVector<Value> in, lo, out;
    for (int64_t i = 0; i < 3; ++i) {
      in.push_back(tensor::DimOp::create(r, loc, x, first + i));
      Value k = idx(r, loc, ks[i]), s = idx(r, loc, st[i]);
      Value l = idx(r, loc, algo == "VALID" ? 0 : p.size() == 6 ? p[2 * i] : p[i]);
      Value h = idx(r, loc, algo == "VALID" ? 0 : p.size() == 6 ? p[2 * i + 1] : p[i]);
      Value o;
      if (algo == "SAME") {
        // out = ceil(in / s), the padding split with the odd cell at the end.
        o = arith::CeilDivSIOp::create(r, loc, in[i], s);
        Value need = arith::SubIOp::create(
            r, loc,
            arith::AddIOp::create(
                r, loc,
                arith::MulIOp::create(r, loc, arith::SubIOp::create(r, loc, o, idx(r, loc, 1)), s),
                k),
            in[i]);
        l = arith::DivSIOp::create(r, loc, arith::MaxSIOp::create(r, loc, need, idx(r, loc, 0)),
                                   idx(r, loc, 2));
      } else {
        Value span = arith::SubIOp::create(
            r, loc, arith::AddIOp::create(r, loc, arith::AddIOp::create(r, loc, in[i], l), h), k);
        o = op.getCeilMode() ? arith::CeilDivSIOp::create(r, loc, span, s).getResult()
                             : arith::DivSIOp::create(r, loc, span, s).getResult();
        o = arith::AddIOp::create(r, loc, o, idx(r, loc, 1));
      }
      if (global)
        o = idx(r, loc, 1);
      else if (adaptive)
        o = idx(r, loc, ks[i]);
      if (!type.isDynamicDim(first + i))
        o = idx(r, loc, type.getDimSize(first + i));
      lo.push_back(l);
      out.push_back(o);
    }
    SmallVector<Value> dyn;
    for (int64_t d = 0; d < 5; ++d)
      if (type.isDynamicDim(d))
        dyn.push_back(d >= first && d < first + 3
                          ? out[d - first]
                          : tensor::DimOp::create(r, loc, x, d).getResult());
    Value y = generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
      SmallVector<Value> at;
      for (int64_t d = 0; d < 5; ++d)
        at.push_back(linalg::IndexOp::create(b, l, d));
      Value zero = idx(b, l, 0), one = idx(b, l, 1);
      SmallVector<Value> starts, ends;
      Value count = one;
      for (int64_t i = 0; i < 3; ++i) {
        Value o = at[first + i], s0, e0;
        if (global) {
          s0 = zero;
          e0 = in[i];
        } else if (adaptive) {
          std::tie(s0, e0) = adaptiveBin(b, l, o, in[i], out[i]);
        } else {
          s0 = arith::SubIOp::create(b, l, arith::MulIOp::create(b, l, o, idx(b, l, st[i])), lo[i]);
          e0 = arith::MinSIOp::create(b, l, arith::AddIOp::create(b, l, s0, idx(b, l, ks[i])),
                                      in[i]);
          s0 = arith::MaxSIOp::create(b, l, s0, zero);
        }
        starts.push_back(s0);
        ends.push_back(e0);
        count = arith::MulIOp::create(b, l, count, arith::SubIOp::create(b, l, e0, s0));
      }
      Value init = scalar(b, l, elem, isMax ? -std::numeric_limits<double>::infinity() : 0.0);
      std::function<Value(OpBuilder &, int64_t, Value, SmallVector<Value> &)> loop =
          [&](OpBuilder &ob, int64_t i, Value acc, SmallVector<Value> &pos) -> Value {
        if (i == 3) {
          SmallVector<Value> idxs(at);
          for (int64_t j = 0; j < 3; ++j)
            idxs[first + j] = pos[j];
          Value v = tensor::ExtractOp::create(ob, l, x, idxs);
          return isMax ? arith::MaximumFOp::create(ob, l, acc, v).getResult()
                       : arith::AddFOp::create(ob, l, acc, v).getResult();
        }
        auto f = scf::ForOp::create(ob, l, starts[i], ends[i], one, ValueRange{acc},
                                    [&](OpBuilder &nb, Location nl, Value iv, ValueRange iter) {
                                      pos.push_back(iv);
                                      Value next = loop(nb, i + 1, iter[0], pos);
                                      pos.pop_back();
                                      scf::YieldOp::create(nb, nl, next);
                                    });
        return f.getResult(0);
      };
      SmallVector<Value> pos;
      Value acc = loop(b, 0, init, pos);
      if (isMax)
        return acc;
      Value div = exclusive ? count : idx(b, l, int64_t(ks[0]) * ks[1] * ks[2]);
      Value divF = arith::SIToFPOp::create(b, l, elem,
                                           arith::IndexCastOp::create(b, l, b.getI64Type(), div));
      return arith::DivFOp::create(b, l, acc, divF);
    });
    r.replaceOp(op, y);
    return success();
  }
};
} // namespace

void mlir::pd::populatePdNNToLinalgPatterns(RewritePatternSet &p) {
  p.add<Conv2dLowering, DepthwiseConv2dLowering, TransposedConvLowering<Conv2dTransposeOp>,
        TransposedConvLowering<Conv2dGradInputOp>, Conv2dGradFilterLowering, FusedConv2dLowering,
        BatchNormLowering, LayerNormLowering, GroupNormLowering<GroupNormOp>,
        GroupNormLowering<InstanceNormOp>, SkipLayernormLowering, FusedEmbeddingLowering,
        MultiheadMatmulLowering, Pool2dLowering, SoftmaxLowering<SoftmaxOp, false>,
        SoftmaxLowering<LogSoftmaxOp, true>>(p.getContext());
  p.add<Conv3dLowering, Pool3dLowering, TransposedConvLowering<DepthwiseConv2dTransposeOp>>(
      p.getContext());
}

//===- NN.cpp - pd conv, norm, pool, interp, activation types -------------===//
//
// Hand-written PdShapeInference (catalogue `infer = "custom"`) of the pd
// convolution, normalization, pooling, interpolation, activations.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "PaddleMLIR/Dialect/Pd/IR/Einsum.h"

#include <cmath>
#include <type_traits>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::shapefns;

//===----------------------------------------------------------------------===//
// Convolution, normalization, pooling
//===----------------------------------------------------------------------===//

std::array<int64_t, 4> mlir::pd::windowPads(ArrayRef<int64_t> spatial, ArrayRef<int64_t> k,
                                            ArrayRef<int32_t> s, ArrayRef<int32_t> d,
                                            ArrayRef<int32_t> paddings, StringRef algo) {
  if (algo == "VALID")
    return {0, 0, 0, 0};
  if (algo != "SAME")
    return expandPads(paddings);
  std::array<int64_t, 4> p{};
  for (int i = 0; i < 2; ++i) {
    int64_t out = (spatial[i] + s[i] - 1) / s[i];
    int64_t total = std::max<int64_t>((out - 1) * s[i] + d[i] * (k[i] - 1) + 1 - spatial[i], 0);
    p[2 * i] = total / 2;
    p[2 * i + 1] = total - total / 2;
  }
  return p;
}

LogicalResult Conv2dOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return convShape({*this, emit}, getInput(), getFilter(), getStrides(), getPaddings(),
                   getPaddingAlgorithm(), getGroups(), getDilations(), getDataFormat(), types);
}

LogicalResult DepthwiseConv2dOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return convShape({*this, emit}, getInput(), getFilter(), getStrides(), getPaddings(),
                   getPaddingAlgorithm(), getGroups(), getDilations(), getDataFormat(), types);
}

LogicalResult FusedConv2dOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(convShape(c, getInput(), getFilter(), getStrides(), getPaddings(),
                       getPaddingAlgorithm(), getGroups(), getDilations(), getDataFormat(), types)))
    return failure();
  if (failed(c.vec(getBias(), "Bias", rt(getFilter()).getDimSize(0))))
    return failure();
  return residualShape(c, getResidualData(), types.front());
}

/// deformable_conv(_v1): the NCHW convolution shape, plus Offset [N, 2 *
/// deformable_groups * KH * KW, OH, OW] and Mask [N, deformable_groups *
/// KH * KW, OH, OW]; input channels divisible by deformable_groups.
template <typename OpTy>
static LogicalResult deformableConvShape(OpTy op, Value mask, bool emit,
                                         SmallVectorImpl<Type> &types) {
  Checker c{op, emit};
  if (failed(convShape(c, op.getInput(), op.getFilter(), op.getStrides(), op.getPaddings(),
                       "EXPLICIT", op.getGroups(), op.getDilations(), "NCHW", types)))
    return failure();
  auto in = rt(op.getInput()), f = rt(op.getFilter());
  ArrayRef<int64_t> out = rt(types.front()).getShape();
  int64_t dg = op.getDeformableGroups(), cin = in.getDimSize(1);
  if (!isDyn(cin) && cin % dg != 0)
    return c.fail("input channels (" + Twine(cin) + ") must be divisible by deformable_groups (" +
                  Twine(dg) + ")");
  int64_t taps = prod({f.getDimSize(2), f.getDimSize(3)});
  auto check = [&](Value v, StringRef slot, int64_t perTap) -> LogicalResult {
    if (!v)
      return success();
    if (failed(c.rank(v, slot, 4, 4)))
      return failure();
    SmallVector<int64_t> want{out[0], isDyn(taps) ? kDyn : perTap * dg * taps, out[2], out[3]};
    auto t = rt(v);
    for (int i = 0; i < 4; ++i)
      if (conflict(t.getDimSize(i), want[i]))
        return c.fail(slot + " " + shapeStr(t.getShape()) + " must be " + shapeStr(want) +
                      " for deformable_groups " + Twine(dg) + " and a " +
                      shapeStr({f.getDimSize(2), f.getDimSize(3)}) + " kernel");
    return success();
  };
  return failure(failed(check(op.getOffset(), "Offset", 2)) || failed(check(mask, "Mask", 1)));
}

LogicalResult DeformableConvOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return deformableConvShape(*this, getMask(), emit, types);
}

LogicalResult DeformableConvV1Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return deformableConvShape(*this, Value(), emit, types);
}

template <typename OpTy>
static LogicalResult transposedConvShape(OpTy op, bool emit, SmallVectorImpl<Type> &types) {
  Checker c{op, emit};
  if (failed(c.rank(op.getInput(), "Input", 4, 4)) ||
      failed(c.rank(op.getFilter(), "Filter", 4, 4)))
    return failure();
  auto in = rt(op.getInput()), f = rt(op.getFilter());
  bool nhwc = op.getDataFormat() == "NHWC";
  int64_t cin = in.getDimSize(nhwc ? 3 : 1);
  if (conflict(cin, f.getDimSize(0)))
    return c.fail("input channels (" + Twine(cin) + ") must equal Filter dim 0 (" +
                  Twine(f.getDimSize(0)) + ")");
  int64_t cout = isDyn(f.getDimSize(1)) ? kDyn : f.getDimSize(1) * op.getGroups();
  auto pads = expandPads(op.getPaddings());
  auto strides = op.getStrides(), dil = op.getDilations();
  ArrayRef<int32_t> outPad = op.getOutputPadding(), outSize = op.getOutputSize();
  if (!outPad.empty() && outPad.size() != 2)
    return c.fail("output_padding must have 2 elements");
  if (!outSize.empty() && outSize.size() != 2)
    return c.fail("output_size must have 2 elements");
  int64_t sp[2];
  for (int i = 0; i < 2; ++i) {
    int64_t d = in.getDimSize(nhwc ? 1 + i : 2 + i), k = f.getDimSize(2 + i);
    int64_t lo = pads[2 * i], hi = pads[2 * i + 1];
    if (op.getPaddingAlgorithm() == "VALID")
      lo = hi = 0;
    if (isDyn(d) || isDyn(k)) {
      sp[i] = outSize.empty() ? kDyn : outSize[i];
      continue;
    }
    int64_t o = op.getPaddingAlgorithm() == "SAME"
                    ? d * strides[i]
                    : (d - 1) * strides[i] - lo - hi + dil[i] * (k - 1) + 1;
    if (!outSize.empty()) {
      if (outSize[i] < o || outSize[i] >= o + strides[i])
        return c.fail("output_size " + Twine(outSize[i]) + " must be in [" + Twine(o) + ", " +
                      Twine(o + strides[i]) + ")");
      o = outSize[i];
    } else if (!outPad.empty()) {
      o += outPad[i];
    }
    if (o <= 0)
      return c.fail("output spatial size is not positive");
    sp[i] = o;
  }
  int64_t n = in.getDimSize(0);
  SmallVector<int64_t> out = nhwc ? SmallVector<int64_t>{n, sp[0], sp[1], cout}
                                  : SmallVector<int64_t>{n, cout, sp[0], sp[1]};
  types.push_back(tensor(out, in.getElementType()));
  return success();
}

LogicalResult Conv2dTransposeOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return transposedConvShape(*this, emit, types);
}

LogicalResult DepthwiseConv2dTransposeOp::inferResultTypes(SmallVectorImpl<Type> &types,
                                                           bool emit) {
  return transposedConvShape(*this, emit, types);
}

LogicalResult BatchNormOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  if (failed(normParams({*this, emit}, getX(), getDataLayout(), 2,
                        {{getScale(), "Scale"},
                         {getBias(), "Bias"},
                         {getMean(), "Mean"},
                         {getVariance(), "Variance"}})))
    return failure();
  types.push_back(getX().getType());
  return success();
}

LogicalResult BatchNormTrainOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  if (failed(normParams({*this, emit}, getX(), getDataLayout(), 2,
                        {{getScale(), "Scale"}, {getBias(), "Bias"}})))
    return failure();
  types.push_back(getX().getType());
  types.push_back(getScale().getType());
  types.push_back(getScale().getType());
  return success();
}

LogicalResult BatchNormTrainGradOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(normParams(c, getX(), getDataLayout(), 2,
                        {{getScale(), "Scale"},
                         {getSavedMean(), "SavedMean"},
                         {getSavedVariance(), "SavedVariance"}})))
    return failure();
  auto x = rt(getX()), dy = rt(getYGrad());
  bool same = x.getRank() == dy.getRank() && x.getElementType() == dy.getElementType();
  for (int64_t i = 0; same && i < x.getRank(); ++i)
    same = !conflict(x.getDimSize(i), dy.getDimSize(i));
  if (!same)
    return c.fail("Y@GRAD must have X's shape " + shapeStr(x.getShape()) +
                  " and element type, got " + shapeStr(dy.getShape()));
  types.push_back(getX().getType());
  types.push_back(getScale().getType());
  types.push_back(getScale().getType());
  return success();
}

LogicalResult InstanceNormOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  if (failed(normParams({*this, emit}, getX(), "NCHW", 3,
                        {{getScale(), "Scale"}, {getBias(), "Bias"}})))
    return failure();
  types.push_back(getX().getType());
  return success();
}

LogicalResult GroupNormOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(
          normParams(c, getX(), getDataLayout(), 2, {{getScale(), "Scale"}, {getBias(), "Bias"}})))
    return failure();
  int64_t ch = rt(getX()).getDimSize(channelDim(getDataLayout(), rt(getX()).getRank()));
  if (!isDyn(ch) && ch % getGroups() != 0)
    return c.fail("channels (" + Twine(ch) + ") must be divisible by groups (" +
                  Twine(getGroups()) + ")");
  types.push_back(getX().getType());
  return success();
}

LogicalResult LayerNormOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  int64_t begin = getBeginNormAxis();
  if (begin >= x.getRank())
    return c.fail("begin_norm_axis " + Twine(begin) + " must be less than the rank " +
                  Twine(x.getRank()));
  int64_t n = prod(x.getShape().drop_front(begin));
  if (failed(c.vec(getScale(), "Scale", n)) || failed(c.vec(getBias(), "Bias", n)))
    return failure();
  types.push_back(x);
  return success();
}

LogicalResult SkipLayernormOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX()), y = rt(getY());
  if (x.getRank() != y.getRank() || x.getElementType() != y.getElementType() ||
      llvm::any_of(llvm::zip(x.getShape(), y.getShape()),
                   [](auto p) { return conflict(std::get<0>(p), std::get<1>(p)); }))
    return c.fail("X and Y must have the same shape");
  int64_t h = x.getRank() ? x.getDimSize(x.getRank() - 1) : 1;
  if (failed(c.vec(getScale(), "Scale", h)) || failed(c.vec(getBias(), "Bias", h)))
    return failure();
  types.push_back(x);
  return success();
}

LogicalResult Pool2dOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getX(), "X", 4, 4)))
    return failure();
  auto x = rt(getX());
  bool nhwc = getDataFormat() == "NHWC";
  int64_t n = x.getDimSize(0), ch = x.getDimSize(nhwc ? 3 : 1);
  auto ks = getKsize();
  if (!getGlobalPooling() && (ks[0] < 1 || ks[1] < 1))
    return c.fail("ksize must be positive unless global_pooling is set");
  auto pads = expandPads(getPaddings());
  int64_t sp[2];
  for (int i = 0; i < 2; ++i) {
    int64_t d = x.getDimSize(nhwc ? 1 + i : 2 + i);
    if (getGlobalPooling())
      sp[i] = 1;
    else if (getAdaptive())
      sp[i] = ks[i];
    else
      sp[i] = windowOut(d, ks[i], getStrides()[i], pads[2 * i], pads[2 * i + 1], 1,
                        getPaddingAlgorithm(), getCeilMode());
    if (!isDyn(sp[i]) && sp[i] <= 0)
      return c.fail("output spatial size is not positive (ksize larger than padded input)");
  }
  SmallVector<int64_t> out =
      nhwc ? SmallVector<int64_t>{n, sp[0], sp[1], ch} : SmallVector<int64_t>{n, ch, sp[0], sp[1]};
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult Pool3dOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getX(), "X", 5, 5)))
    return failure();
  auto x = rt(getX());
  int64_t first = getDataFormat() == "NDHWC" ? 1 : 2;
  auto ks = getKsize();
  if (!getGlobalPooling() && llvm::any_of(ks, [](int32_t k) { return k < 1; }))
    return c.fail("ksize must be positive unless global_pooling is set");
  ArrayRef<int32_t> p = getPaddings();
  SmallVector<int64_t> out(x.getShape());
  for (int i = 0; i < 3; ++i) {
    int64_t d = x.getDimSize(first + i), o;
    int64_t lo = p.size() == 6 ? p[2 * i] : p[i], hi = p.size() == 6 ? p[2 * i + 1] : p[i];
    if (getGlobalPooling())
      o = 1;
    else if (getAdaptive())
      o = ks[i];
    else
      o = windowOut(d, ks[i], getStrides()[i], lo, hi, 1, getPaddingAlgorithm(), getCeilMode());
    if (!isDyn(o) && o <= 0)
      return c.fail("output spatial size is not positive (ksize larger than padded input)");
    out[first + i] = o;
  }
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult AffineChannelOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  if (failed(normParams({*this, emit}, getX(), getDataLayout(), 2,
                        {{getScale(), "Scale"}, {getBias(), "Bias"}})))
    return failure();
  types.push_back(getX().getType());
  return success();
}

LogicalResult Pad3dOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getX(), "X", 5, 5)))
    return failure();
  auto x = rt(getX());
  SmallVector<int64_t> out(x.getShape());
  bool ndhwc = getDataFormat() == "NDHWC";
  // paddings = [left, right, top, bottom, front, back] for W, H, D.
  int64_t wDim = ndhwc ? 3 : 4;
  auto p = getPaddings();
  for (int i = 0; i < 3; ++i) {
    int64_t d = wDim - i;
    if (getPaddingsInput())
      out[d] = kDyn;
    else if (!isDyn(out[d]))
      out[d] += p[2 * i] + p[2 * i + 1];
  }
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

namespace {
/// What the interpolation ops (v2 and Fluid's v1) share for shape inference.
struct InterpSpec {
  Value x, outSize, scaleInput;
  size_t sizeTensors;
  StringRef layout, method, wantMethod;
  /// out_d, out_h, out_w.
  std::array<int64_t, 3> outAttr;
  int64_t alignMode;
  /// v2: one scale per spatial dim (one entry: all of them); v1: one
  /// scalar, used if > 0.
  SmallVector<float, 3> scale;
  bool v1;
};

/// The spatial dims an interpolation method resizes.
int64_t interpSpatialDims(StringRef method) {
  return method == "linear" ? 1 : method == "trilinear" ? 3 : 2;
}
} // namespace

/// Paddle's size rule: SizeTensor, else OutSize, else a scale (the Scale
/// input, else the attribute) times the input size, else out_d / out_h /
/// out_w. Sizes given at run time make the spatial dims dynamic.
static LogicalResult interpShape(const Checker &c, const InterpSpec &s,
                                 SmallVectorImpl<Type> &types) {
  int64_t k = interpSpatialDims(s.wantMethod);
  if (failed(c.rank(s.x, "X", k + 2, k + 2)))
    return failure();
  bool channelLast = s.layout == "NHWC" || s.layout == "NDHWC";
  if ((s.layout == "NCDHW" || s.layout == "NDHWC") && k != 3)
    return c.fail("data_layout must be NCHW or NHWC for a " + Twine(k + 2) + "-D X, got '" +
                  s.layout + "'");
  if (s.method != s.wantMethod)
    return c.fail("interp_method must be '" + s.wantMethod + "', got '" + s.method + "'");
  if (s.alignMode > 1)
    return c.fail("align_mode must be 0 or 1, got " + Twine(s.alignMode));
  static const char *names[] = {"out_d", "out_h", "out_w"};
  std::string sizeNames, sizeWords; // "out_h, out_w" and "out_h and out_w"
  for (int64_t i = 3 - k; i < 3; ++i) {
    sizeNames += (sizeNames.empty() ? "" : ", ") + std::string(names[i]);
    sizeWords += (i == 3 - k ? "" : i == 2 ? " and " : ", ") + std::string(names[i]);
  }
  auto x = rt(s.x);
  if (s.outSize) {
    auto t = rt(s.outSize);
    if (t.getRank() != 1 || conflict(t.getDimSize(0), k))
      return c.fail("OutSize must be a 1-D tensor of " + Twine(k) + " elements (" + sizeNames +
                    ")");
  }
  if (s.sizeTensors && (int64_t)s.sizeTensors != k)
    return c.fail("SizeTensor must hold " + Twine(k) + " tensors (" + sizeNames + "), got " +
                  Twine(s.sizeTensors));
  if (s.scaleInput) {
    auto t = rt(s.scaleInput);
    int64_t n = prod(t.getShape());
    if (t.getRank() != 1 || (!isDyn(n) && (n < 1 || n > k)))
      return c.fail("Scale must be a 1-D tensor of 1 to " + Twine(k) + " elements");
  }
  SmallVector<float, 3> scales(k, -1.f);
  if (s.v1) {
    scales.assign(k, s.scale.empty() ? 0.f : s.scale[0]);
  } else if (!s.scale.empty()) {
    if (s.scale.size() != 1 && (int64_t)s.scale.size() != k)
      return c.fail("scale must have 1 or " + Twine(k) + " elements, got " + Twine(s.scale.size()));
    for (int64_t i = 0; i < k; ++i) {
      scales[i] = s.scale.size() == 1 ? s.scale[0] : s.scale[i];
      if (scales[i] <= 0)
        return c.fail("scale must be positive");
    }
  }
  int64_t first = channelLast ? 1 : 2;
  SmallVector<int64_t> out(x.getShape());
  bool runtime = s.sizeTensors || s.outSize || s.scaleInput;
  bool byScale = llvm::all_of(scales, [](float v) { return v > 0; });
  bool byAttr =
      llvm::all_of(ArrayRef<int64_t>(s.outAttr).drop_front(3 - k), [](int64_t v) { return v > 0; });
  if (!runtime && !byScale && !byAttr)
    return c.fail("needs " + sizeWords + ", a scale, or a size input");
  for (int64_t i = 0; i < k; ++i) {
    int64_t in = x.getDimSize(first + i), o;
    if (runtime)
      o = kDyn;
    else if (byScale) // Paddle truncates the float product.
      o = isDyn(in) ? kDyn : static_cast<int64_t>(static_cast<float>(in) * scales[i]);
    else
      o = s.outAttr[3 - k + i];
    out[first + i] = o;
  }
  ArrayRef<int64_t> sizes = ArrayRef<int64_t>(out).slice(first, k);
  if (llvm::any_of(sizes, [](int64_t o) { return !isDyn(o) && o < 1; })) {
    std::string str;
    for (int64_t o : sizes)
      str += (str.empty() ? "" : "x") + (isDyn(o) ? std::string("?") : std::to_string(o));
    return c.fail("output size " + str + " is not positive");
  }
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

/// Both op generations: v1's scale is one scalar (it only sets the size).
template <typename OpTy>
static LogicalResult interpOpShape(OpTy op, StringRef method, bool emit,
                                   SmallVectorImpl<Type> &types) {
  constexpr bool v1 = std::is_same_v<decltype(op.getScale()), APFloat>;
  SmallVector<float, 3> scale;
  if constexpr (v1)
    scale.push_back(op.getScale().convertToFloat());
  else
    scale.assign(op.getScale().begin(), op.getScale().end());
  InterpSpec s{op.getX(),
               op.getOutSizeInput(),
               op.getScaleInput(),
               op.getSizeTensor().size(),
               op.getDataLayout(),
               op.getInterpMethod(),
               method,
               {op.getOutD(), op.getOutH(), op.getOutW()},
               op.getAlignMode(),
               scale,
               v1};
  return interpShape({op, emit}, s, types);
}

#define PD_INTERP_SHAPE(OP, METHOD)                                                                \
  LogicalResult OP::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {                    \
    return interpOpShape(*this, METHOD, emit, types);                                              \
  }
PD_INTERP_SHAPE(BilinearInterpV2Op, "bilinear")
PD_INTERP_SHAPE(NearestInterpV2Op, "nearest")
PD_INTERP_SHAPE(LinearInterpV2Op, "linear")
PD_INTERP_SHAPE(TrilinearInterpV2Op, "trilinear")
PD_INTERP_SHAPE(BicubicInterpV2Op, "bicubic")
PD_INTERP_SHAPE(BilinearInterpOp, "bilinear")
PD_INTERP_SHAPE(NearestInterpOp, "nearest")
PD_INTERP_SHAPE(LinearInterpOp, "linear")
PD_INTERP_SHAPE(TrilinearInterpOp, "trilinear")
PD_INTERP_SHAPE(BicubicInterpOp, "bicubic")
#undef PD_INTERP_SHAPE

//===----------------------------------------------------------------------===//
// Activations and elementwise
//===----------------------------------------------------------------------===//

LogicalResult PreluOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  int64_t want = 1;
  if (getMode() == "channel") {
    if (x.getRank() < 2)
      return c.fail("channel mode needs X of rank >= 2");
    want = x.getDimSize(channelDim(getDataFormat(), x.getRank()));
  } else if (getMode() == "element") {
    want = prod(x.getShape().drop_front());
  }
  int64_t have = prod(rt(getAlpha()).getShape());
  if (conflict(have, want))
    return c.fail("Alpha has " + Twine(have) + " elements but mode '" + getMode() + "' needs " +
                  Twine(want));
  types.push_back(x);
  return success();
}

LogicalResult SoftmaxOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  if (failed(Checker{*this, emit}.axis(getAxis(), rt(getX()).getRank())))
    return failure();
  types.push_back(getX().getType());
  return success();
}

LogicalResult SoftmaxWithCrossEntropyOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto logits = rt(getLogits()), label = rt(getLabel());
  auto axis = c.axis(getAxis(), logits.getRank());
  if (failed(axis))
    return failure();
  if (label.getRank() != logits.getRank())
    return c.fail("Label must have the rank of Logits (" + Twine(logits.getRank()) + "), got " +
                  Twine(label.getRank()));
  bool intLabel = isa<IntegerType>(label.getElementType());
  if (getSoftLabel() == intLabel)
    return c.fail(getSoftLabel() ? "a soft Label must be float"
                                 : "a hard Label must be an integer");
  SmallVector<int64_t> loss(logits.getShape());
  loss[*axis] = 1;
  types.push_back(logits);
  types.push_back(tensor(loss, logits.getElementType()));
  return success();
}

namespace {
/// The optimizer ops' operand checks: every `state` operand has Param's
/// shape, every `scalar` operand (learning rate, beta powers) one element,
/// all of Param's element type.
LogicalResult checkOptimizerOperands(const Checker &c, Value param,
                                     ArrayRef<std::pair<StringRef, Value>> state,
                                     ArrayRef<std::pair<StringRef, Value>> scalars) {
  auto p = rt(param);
  for (auto [slot, v] : state) {
    auto t = rt(v);
    if (t.getElementType() != p.getElementType() || t.getRank() != p.getRank() ||
        llvm::any_of(llvm::zip(t.getShape(), p.getShape()),
                     [](auto d) { return conflict(std::get<0>(d), std::get<1>(d)); }))
      return c.fail(slot + " must have Param's type " + shapeStr(p.getShape()) + ", got " +
                    shapeStr(t.getShape()));
  }
  for (auto [slot, v] : scalars) {
    auto t = rt(v);
    if (t.getElementType() != p.getElementType() || conflict(prod(t.getShape()), 1))
      return c.fail(slot + " must be one element of Param's element type, got shape " +
                    shapeStr(t.getShape()));
  }
  return success();
}
} // namespace

LogicalResult MomentumOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  if (failed(checkOptimizerOperands(Checker{*this, emit}, getParam(),
                                    {{"Grad", getGrad()}, {"Velocity", getVelocity()}},
                                    {{"LearningRate", getLearningRate()}})))
    return failure();
  types.push_back(getParam().getType());
  types.push_back(getVelocity().getType());
  return success();
}

template <typename AdamLike>
static LogicalResult inferAdamTypes(AdamLike op, SmallVectorImpl<Type> &types, bool emit) {
  if (failed(checkOptimizerOperands(
          Checker{op, emit}, op.getParam(),
          {{"Grad", op.getGrad()}, {"Moment1", op.getMoment1()}, {"Moment2", op.getMoment2()}},
          {{"LearningRate", op.getLearningRate()},
           {"Beta1Pow", op.getBeta1Pow()},
           {"Beta2Pow", op.getBeta2Pow()}})))
    return failure();
  for (Value v :
       {op.getParam(), op.getMoment1(), op.getMoment2(), op.getBeta1Pow(), op.getBeta2Pow()})
    types.push_back(v.getType());
  return success();
}

LogicalResult AdamOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return inferAdamTypes(*this, types, emit);
}

LogicalResult AdamwOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return inferAdamTypes(*this, types, emit);
}

LogicalResult LogSoftmaxOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  if (failed(Checker{*this, emit}.axis(getAxis(), rt(getX()).getRank())))
    return failure();
  types.push_back(getX().getType());
  return success();
}

LogicalResult ClipOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  if (getMin().convertToFloat() > getMax().convertToFloat())
    return Checker{*this, emit}.fail("min must not exceed max");
  types.push_back(getX().getType());
  return success();
}

LogicalResult CastOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  Type out = elementTypeFromPaddleDtype(getContext(), getOutDtype());
  if (!out)
    return c.fail("out_dtype " + Twine(getOutDtype()) + " is not a tensor dtype");
  Type in = elementTypeFromPaddleDtype(getContext(), getInDtype());
  if (in != rt(getX()).getElementType())
    return c.fail("in_dtype " + Twine(getInDtype()) + " does not match the element type of X");
  types.push_back(tensor(rt(getX()).getShape(), out));
  return success();
}

/// The branches may differ in size (only the one taken is read): a dim is
/// static where every input has it the same.
LogicalResult SelectInputOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (getX().empty())
    return c.fail("needs at least one input");
  auto mask = rt(getMask());
  if (!mask.hasStaticShape() || mask.getNumElements() != 1)
    return c.fail("Mask must hold one element, got " + shapeStr(mask.getShape()));
  auto first = rt(getX().front());
  SmallVector<int64_t> shape(first.getShape());
  for (Value v : getX()) {
    auto t = rt(v);
    if (t.getRank() != first.getRank() || t.getElementType() != first.getElementType())
      return c.fail("inputs must share rank and element type");
    for (int64_t i = 0; i < t.getRank(); ++i)
      if (shape[i] != t.getDimSize(i))
        shape[i] = ShapedType::kDynamic;
  }
  types.push_back(tensor(shape, first.getElementType()));
  return success();
}

LogicalResult WhereOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  SmallVector<Type> xy;
  if (failed(inferBroadcastTypes(*this, getX().getType(), getY().getType(), -1, false, xy, emit)))
    return failure();
  auto cond = rt(getCondition());
  SmallVector<Type> withCond;
  auto boolXY = tensor(rt(xy.front()).getShape(), cond.getElementType());
  if (failed(inferBroadcastTypes(*this, boolXY, cond, -1, false, withCond, emit)))
    return failure();
  types.push_back(tensor(rt(withCond.front()).getShape(), rt(xy.front()).getElementType()));
  return success();
}

//===- PdShapeFns.cpp - result-type inference of pd ops ------------------===//
//
// Hand-written PdShapeInference for the ops whose catalogue entry says
// `infer = "custom"`, plus the fused ops. Each function applies the checks
// Paddle's InferShape applies and propagates dynamic dims as `?`.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Dialect/Pd/IR/Einsum.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

#include <cmath>

using namespace mlir;
using namespace mlir::pd;

namespace {
constexpr int64_t kDyn = ShapedType::kDynamic;
bool isDyn(int64_t d) { return ShapedType::isDynamic(d); }
bool conflict(int64_t a, int64_t b) { return !isDyn(a) && !isDyn(b) && a != b; }

RankedTensorType rt(Value v) { return cast<RankedTensorType>(v.getType()); }
RankedTensorType rt(Type t) { return cast<RankedTensorType>(t); }
Type tensor(ArrayRef<int64_t> shape, Type elem) { return RankedTensorType::get(shape, elem); }

int64_t prod(ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims) {
    if (isDyn(d))
      return kDyn;
    p *= d;
  }
  return p;
}

std::string shapeStr(ArrayRef<int64_t> dims) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(dims))
    s += (i ? ", " : "") + (isDyn(d) ? std::string("?") : std::to_string(d));
  return s + "]";
}

/// Emits (when asked) one diagnostic on the op and returns failure.
struct Checker {
  Operation *op;
  bool emit;
  LogicalResult fail(const Twine &msg) const {
    if (emit)
      op->emitOpError(msg);
    return failure();
  }
  /// Normalizes `axis` against `rank` (negative counts from the end).
  FailureOr<int64_t> axis(int64_t axis, int64_t rank, StringRef what = "axis") const {
    int64_t a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank) {
      (void)fail(what + " " + Twine(axis) + " is out of range for rank " + Twine(rank));
      return failure();
    }
    return a;
  }
  LogicalResult rank(Value v, StringRef slot, int64_t lo, int64_t hi) const {
    int64_t r = rt(v).getRank();
    if (r < lo || r > hi)
      return fail(slot + " must have rank " +
                  (lo == hi ? Twine(lo) : Twine(lo) + " to " + Twine(hi)) + ", got " + Twine(r));
    return success();
  }
  /// A per-channel parameter: 1-D with `size` elements (when both static).
  LogicalResult vec(Value v, StringRef slot, int64_t size) const {
    if (!v)
      return success();
    auto t = rt(v);
    int64_t n = prod(t.getShape());
    if (t.getRank() > 2 || conflict(n, size))
      return fail(slot + " must have " + (isDyn(size) ? Twine("C") : Twine(size)) +
                  " elements, got shape " + shapeStr(t.getShape()));
    return success();
  }
};

int64_t channelDim(StringRef layout, int64_t rank) {
  return layout == "NHWC" || layout == "NDHWC" ? rank - 1 : 1;
}

/// Output size of a sliding window along one spatial dim.
int64_t windowOut(int64_t in, int64_t k, int64_t stride, int64_t padLo, int64_t padHi,
                  int64_t dilation, StringRef algo, bool ceilMode = false) {
  if (isDyn(in) || isDyn(k))
    return kDyn;
  if (algo == "SAME")
    return (in + stride - 1) / stride;
  if (algo == "VALID")
    padLo = padHi = 0;
  int64_t eff = dilation * (k - 1) + 1;
  int64_t num = in + padLo + padHi - eff;
  return (ceilMode ? (num + stride - 1) / stride : num / stride) + 1;
}

/// Paddle paddings: [ph, pw] or [top, bottom, left, right].
std::array<int64_t, 4> expandPads(ArrayRef<int32_t> p) {
  if (p.size() == 4)
    return {p[0], p[1], p[2], p[3]};
  return {p[0], p[0], p[1], p[1]};
}

LogicalResult convShape(const Checker &c, Value input, Value filter, ArrayRef<int32_t> strides,
                        ArrayRef<int32_t> paddings, StringRef algo, int64_t groups,
                        ArrayRef<int32_t> dilations, StringRef format,
                        SmallVectorImpl<Type> &types) {
  if (failed(c.rank(input, "Input", 4, 4)) || failed(c.rank(filter, "Filter", 4, 4)))
    return failure();
  auto in = rt(input), f = rt(filter);
  bool nhwc = format == "NHWC";
  int64_t cin = in.getDimSize(nhwc ? 3 : 1);
  int64_t cout = f.getDimSize(0);
  if (!isDyn(f.getDimSize(1)) && conflict(cin, f.getDimSize(1) * groups))
    return c.fail("input channels (" + Twine(cin) + ") must equal Filter dim 1 (" +
                  Twine(f.getDimSize(1)) + ") times groups (" + Twine(groups) + ")");
  if (!isDyn(cout) && cout % groups != 0)
    return c.fail("output channels (" + Twine(cout) + ") must be divisible by groups (" +
                  Twine(groups) + ")");
  auto pads = expandPads(paddings);
  int64_t h = windowOut(in.getDimSize(nhwc ? 1 : 2), f.getDimSize(2), strides[0], pads[0], pads[1],
                        dilations[0], algo);
  int64_t w = windowOut(in.getDimSize(nhwc ? 2 : 3), f.getDimSize(3), strides[1], pads[2], pads[3],
                        dilations[1], algo);
  if ((!isDyn(h) && h <= 0) || (!isDyn(w) && w <= 0))
    return c.fail("output spatial size " + shapeStr({h, w}) +
                  " is not positive (filter larger than padded input)");
  int64_t n = in.getDimSize(0);
  SmallVector<int64_t> out =
      nhwc ? SmallVector<int64_t>{n, h, w, cout} : SmallVector<int64_t>{n, cout, h, w};
  types.push_back(tensor(out, in.getElementType()));
  return success();
}

LogicalResult normParams(const Checker &c, Value x, StringRef layout, int64_t minRank,
                         ArrayRef<std::pair<Value, StringRef>> params) {
  if (failed(c.rank(x, "X", minRank, 5)))
    return failure();
  int64_t ch = rt(x).getDimSize(channelDim(layout, rt(x).getRank()));
  for (auto [v, name] : params)
    if (failed(c.vec(v, name, ch)))
      return failure();
  return success();
}

/// Shared by the reshape-like ops: checks the element count is preserved.
LogicalResult sameNumel(const Checker &c, RankedTensorType in, ArrayRef<int64_t> out) {
  int64_t a = prod(in.getShape()), b = prod(out);
  if (conflict(a, b))
    return c.fail("cannot reshape " + shapeStr(in.getShape()) + " (" + Twine(a) + " elements) to " +
                  shapeStr(out) + " (" + Twine(b) + " elements)");
  return success();
}

/// Number of elements of a 1-D shape operand, if static.
int64_t listLen(Value v) {
  auto t = rt(v);
  return t.getRank() == 0 ? 1 : (t.getRank() == 1 ? t.getDimSize(0) : kDyn);
}

LogicalResult reduceShape(const Checker &c, Value x, ArrayRef<int32_t> dims, bool keep, bool all,
                          int64_t outDtype, SmallVectorImpl<Type> &types) {
  auto t = rt(x);
  int64_t r = t.getRank();
  Type elem = t.getElementType();
  if (outDtype >= 0) {
    elem = elementTypeFromPaddleDtype(x.getContext(), outDtype);
    if (!elem)
      return c.fail("out_dtype " + Twine(outDtype) + " is not a tensor dtype");
  }
  llvm::SmallSet<int64_t, 8> red;
  if (all || dims.empty()) {
    for (int64_t i = 0; i < r; ++i)
      red.insert(i);
  } else {
    for (int32_t d : dims) {
      auto a = c.axis(d, r, "dim");
      if (failed(a))
        return failure();
      if (!red.insert(*a).second)
        return c.fail("dim " + Twine(d) + " is listed twice");
    }
  }
  SmallVector<int64_t> out;
  for (int64_t i = 0; i < r; ++i) {
    if (!red.contains(i))
      out.push_back(t.getDimSize(i));
    else if (keep)
      out.push_back(1);
  }
  if (out.empty())
    out.push_back(1); // Paddle <= 2.4 keeps full reductions 1-D.
  types.push_back(tensor(out, elem));
  return success();
}

LogicalResult matmulShape(const Checker &c, Value xv, Value yv, bool tx, bool ty,
                          SmallVectorImpl<Type> &types) {
  auto x = rt(xv), y = rt(yv);
  if (x.getRank() < 1 || y.getRank() < 1)
    return c.fail("X and Y must have rank >= 1");
  SmallVector<int64_t> xs(x.getShape()), ys(y.getShape());
  bool xVec = xs.size() == 1, yVec = ys.size() == 1;
  if (xVec)
    xs.insert(xs.begin(), 1);
  if (yVec)
    ys.push_back(1);
  int64_t xr = xs.size(), yr = ys.size();
  int64_t m = xs[xr - (tx ? 1 : 2)], kx = xs[xr - (tx ? 2 : 1)];
  int64_t ky = ys[yr - (ty ? 1 : 2)], n = ys[yr - (ty ? 2 : 1)];
  if (xVec && tx) // a transposed vector stays a vector
    std::swap(m, kx);
  if (conflict(kx, ky))
    return c.fail("contraction dims differ: X has " + Twine(kx) + ", Y has " + Twine(ky));
  ArrayRef<int64_t> bx = ArrayRef<int64_t>(xs).drop_back(2),
                    by = ArrayRef<int64_t>(ys).drop_back(2);
  size_t nb = std::max(bx.size(), by.size());
  SmallVector<int64_t> out(nb, 1);
  for (size_t i = 0; i < nb; ++i) {
    int64_t a = i + bx.size() >= nb ? bx[i + bx.size() - nb] : 1;
    int64_t b = i + by.size() >= nb ? by[i + by.size() - nb] : 1;
    if (a == 1)
      out[i] = b;
    else if (b == 1)
      out[i] = a;
    else if (conflict(a, b))
      return c.fail("batch dims are not broadcastable: " + Twine(a) + " vs " + Twine(b));
    else
      out[i] = isDyn(a) ? b : a;
  }
  if (!xVec)
    out.push_back(m);
  if (!yVec)
    out.push_back(n);
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

/// Result type whose rank is known but whose dims are all dynamic.
Type unknownDims(int64_t rank, Type elem) { return tensor(SmallVector<int64_t>(rank, kDyn), elem); }
} // namespace

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

namespace {
/// A conv's residual (if any) has the output's shape.
LogicalResult residualShape(const Checker &c, Value r, Type outType) {
  if (!r)
    return success();
  auto out = rt(outType);
  if (rt(r).getRank() != out.getRank() ||
      llvm::any_of(llvm::zip(rt(r).getShape(), out.getShape()),
                   [](auto p) { return conflict(std::get<0>(p), std::get<1>(p)); }))
    return c.fail("ResidualData shape " + shapeStr(rt(r).getShape()) +
                  " differs from the output shape " + shapeStr(out.getShape()));
  return success();
}
} // namespace

LogicalResult FusedConv2dOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(convShape(c, getInput(), getFilter(), getStrides(), getPaddings(),
                       getPaddingAlgorithm(), getGroups(), getDilations(), getDataFormat(), types)))
    return failure();
  if (failed(c.vec(getBias(), "Bias", rt(getFilter()).getDimSize(0))))
    return failure();
  return residualShape(c, getResidualData(), types.front());
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

template <typename OpTy>
static LogicalResult interpV2Shape(OpTy op, StringRef method, bool emit,
                                   SmallVectorImpl<Type> &types) {
  InterpSpec s{op.getX(),
               op.getOutSizeInput(),
               op.getScaleInput(),
               op.getSizeTensor().size(),
               op.getDataLayout(),
               op.getInterpMethod(),
               method,
               {op.getOutD(), op.getOutH(), op.getOutW()},
               op.getAlignMode(),
               SmallVector<float, 3>(op.getScale()),
               /*v1=*/false};
  return interpShape({op, emit}, s, types);
}

template <typename OpTy>
static LogicalResult interpV1Shape(OpTy op, StringRef method, bool emit,
                                   SmallVectorImpl<Type> &types) {
  InterpSpec s{op.getX(),
               op.getOutSizeInput(),
               op.getScaleInput(),
               op.getSizeTensor().size(),
               op.getDataLayout(),
               op.getInterpMethod(),
               method,
               {op.getOutD(), op.getOutH(), op.getOutW()},
               op.getAlignMode(),
               SmallVector<float, 3>{op.getScale().convertToFloat()},
               /*v1=*/true};
  return interpShape({op, emit}, s, types);
}

#define PD_INTERP_SHAPE(OP, GEN, METHOD)                                                           \
  LogicalResult OP::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {                    \
    return GEN(*this, METHOD, emit, types);                                                        \
  }
PD_INTERP_SHAPE(BilinearInterpV2Op, interpV2Shape, "bilinear")
PD_INTERP_SHAPE(NearestInterpV2Op, interpV2Shape, "nearest")
PD_INTERP_SHAPE(LinearInterpV2Op, interpV2Shape, "linear")
PD_INTERP_SHAPE(TrilinearInterpV2Op, interpV2Shape, "trilinear")
PD_INTERP_SHAPE(BicubicInterpV2Op, interpV2Shape, "bicubic")
PD_INTERP_SHAPE(BilinearInterpOp, interpV1Shape, "bilinear")
PD_INTERP_SHAPE(NearestInterpOp, interpV1Shape, "nearest")
PD_INTERP_SHAPE(LinearInterpOp, interpV1Shape, "linear")
PD_INTERP_SHAPE(TrilinearInterpOp, interpV1Shape, "trilinear")
PD_INTERP_SHAPE(BicubicInterpOp, interpV1Shape, "bicubic")
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

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

LogicalResult MulOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX()), y = rt(getY());
  int64_t xn = getXNumColDims(), yn = getYNumColDims();
  if (xn >= x.getRank())
    return c.fail("x_num_col_dims " + Twine(xn) + " must be less than the rank of X (" +
                  Twine(x.getRank()) + ")");
  if (yn >= y.getRank())
    return c.fail("y_num_col_dims " + Twine(yn) + " must be less than the rank of Y (" +
                  Twine(y.getRank()) + ")");
  int64_t kx = prod(x.getShape().drop_front(xn)), ky = prod(y.getShape().take_front(yn));
  if (conflict(kx, ky))
    return c.fail("contraction sizes differ: X gives " + Twine(kx) + ", Y gives " + Twine(ky));
  SmallVector<int64_t> out(x.getShape().take_front(xn));
  llvm::append_range(out, y.getShape().drop_front(yn));
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult MatmulOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return matmulShape({*this, emit}, getX(), getY(), getTranspose_X(), getTranspose_Y(), types);
}

LogicalResult MatmulV2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return matmulShape({*this, emit}, getX(), getY(), getTransX(), getTransY(), types);
}

namespace {
/// The fc result: Input flattened at `n` times the 2-D `w`, with elements
/// of type `elem`.
LogicalResult fcShape(const Checker &c, Value input, Value w, Value bias, int64_t n, Type elem,
                      SmallVectorImpl<Type> &types) {
  auto in = rt(input), wt = rt(w);
  if (failed(c.rank(w, "W", 2, 2)))
    return failure();
  if (n >= in.getRank())
    return c.fail("in_num_col_dims " + Twine(n) + " must be less than the rank of Input (" +
                  Twine(in.getRank()) + ")");
  int64_t k = prod(in.getShape().drop_front(n));
  if (conflict(k, wt.getDimSize(0)))
    return c.fail("Input flattens to K = " + Twine(k) + " but W has " + Twine(wt.getDimSize(0)) +
                  " rows");
  if (failed(c.vec(bias, "Bias", wt.getDimSize(1))))
    return failure();
  SmallVector<int64_t> out(in.getShape().take_front(n));
  out.push_back(wt.getDimSize(1));
  types.push_back(tensor(out, elem));
  return success();
}

/// The element type of a quantized op's `out_dtype`.
Type quantOutType(MLIRContext *ctx, StringRef dtype) {
  if (dtype == "int8")
    return IntegerType::get(ctx, 8);
  if (dtype == "uint8")
    return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  return Float32Type::get(ctx);
}

/// Per-channel scales: one positive finite value per channel.
LogicalResult channelScales(const Checker &c, ArrayRef<float> scales, StringRef what,
                            int64_t channels) {
  if (!isDyn(channels) && static_cast<int64_t>(scales.size()) != channels)
    return c.fail(what + " has " + Twine(scales.size()) + " values for " + Twine(channels) +
                  " channels");
  for (float s : scales)
    if (!(s > 0.f) || !std::isfinite(s))
      return c.fail(what + " must be positive and finite, got " + std::to_string(s));
  return success();
}

/// An int8 result needs a usable output scale.
LogicalResult outputScale(const Checker &c, StringRef dtype, float scale) {
  if (dtype != "float32" && (!(scale > 0.f) || !std::isfinite(scale)))
    return c.fail("output_scale must be positive and finite for out_dtype " + dtype + ", got " +
                  std::to_string(scale));
  return success();
}
} // namespace

LogicalResult FcOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return fcShape({*this, emit}, getInput(), getW(), getBias(), getInNumColDims(),
                 rt(getInput()).getElementType(), types);
}

//===----------------------------------------------------------------------===//
// Quantized ops (PdQuantOps.td)
//===----------------------------------------------------------------------===//

LogicalResult QuantizeOp::inferResultTypes(SmallVectorImpl<Type> &types, bool) {
  types.push_back(tensor(rt(getX()).getShape(), quantOutType(getContext(), getDtype())));
  return success();
}

LogicalResult DequantizeOp::inferResultTypes(SmallVectorImpl<Type> &types, bool) {
  types.push_back(tensor(rt(getX()).getShape(), Float32Type::get(getContext())));
  return success();
}

LogicalResult QuantizedConv2dOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(convShape(c, getInput(), getFilter(), getStrides(), getPaddings(),
                       getPaddingAlgorithm(), getGroups(), getDilations(), getDataFormat(), types)))
    return failure();
  int64_t cout = rt(getFilter()).getDimSize(0);
  if (failed(c.vec(getBias(), "Bias", cout)) ||
      failed(channelScales(c, getFilterScales(), "filter_scales", cout)) ||
      failed(outputScale(c, getOutDtype(), getOutputScale().convertToFloat())))
    return failure();
  if (getResidualData() && getOutDtype() != "float32")
    return c.fail("a residual needs out_dtype float32, got " + getOutDtype());
  if (failed(residualShape(c, getResidualData(), types.front())))
    return failure();
  types.front() = tensor(rt(types.front()).getShape(), quantOutType(getContext(), getOutDtype()));
  return success();
}

LogicalResult QuantizedFcOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(fcShape(c, getInput(), getW(), getBias(), getInNumColDims(),
                     quantOutType(getContext(), getOutDtype()), types)))
    return failure();
  if (failed(outputScale(c, getOutDtype(), getOutputScale().convertToFloat())))
    return failure();
  return channelScales(c, getWeightScales(), "weight_scales", rt(getW()).getDimSize(1));
}

LogicalResult MultiheadMatmulOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getInput(), "Input", 3, 3)) || failed(c.rank(getW(), "W", 3, 3)) ||
      failed(c.rank(getBias(), "Bias", 2, 2)))
    return failure();
  auto in = rt(getInput()), w = rt(getW()), b = rt(getBias());
  int64_t h = in.getDimSize(2);
  if (conflict(w.getDimSize(0), h) || conflict(w.getDimSize(1), 3) || conflict(w.getDimSize(2), h))
    return c.fail("W must be [H, 3, H] with H = " + Twine(h) + ", got " + shapeStr(w.getShape()));
  if (conflict(b.getDimSize(0), 3) || conflict(b.getDimSize(1), h))
    return c.fail("Bias must be [3, H] with H = " + Twine(h) + ", got " + shapeStr(b.getShape()));
  if (!isDyn(h) && h % getHeadNumber() != 0)
    return c.fail("hidden size " + Twine(h) + " must be divisible by head_number " +
                  Twine(getHeadNumber()));
  if (Value qk = getBiasQK())
    if (rt(qk).getRank() != 4 && rt(qk).getRank() != 2)
      return c.fail("BiasQK must have rank 2 or 4");
  types.push_back(in);
  return success();
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult Reshape2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  ArrayRef<int32_t> shape = getShape();
  bool runtime = getShapeInput() || !getShapeTensor().empty();
  if (runtime) {
    int64_t rank = !shape.empty()    ? (int64_t)shape.size()
                   : getShapeInput() ? listLen(getShapeInput())
                                     : (int64_t)getShapeTensor().size();
    if (isDyn(rank))
      return c.fail("the rank of the result is unknown (Shape has a dynamic length)");
    types.push_back(unknownDims(rank, x.getElementType()));
    return success();
  }
  if (shape.empty())
    return c.fail("needs a shape attribute or a Shape/ShapeTensor input");
  SmallVector<int64_t> out;
  int inferIdx = -1;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (d == 0) {
      if ((int64_t)i >= x.getRank())
        return c.fail("shape[" + Twine(i) + "] = 0 copies a dim the input does not have");
      out.push_back(x.getDimSize(i));
    } else if (d == -1) {
      if (inferIdx >= 0)
        return c.fail("shape has more than one -1");
      inferIdx = i;
      out.push_back(kDyn);
    } else if (d < -1) {
      return c.fail("shape[" + Twine(i) + "] = " + Twine(d) + " is invalid");
    } else {
      out.push_back(d);
    }
  }
  if (inferIdx >= 0) {
    int64_t total = prod(x.getShape());
    int64_t known = 1;
    for (auto [i, d] : llvm::enumerate(out))
      if ((int)i != inferIdx)
        known = isDyn(d) || isDyn(known) ? kDyn : known * d;
    if (!isDyn(total) && !isDyn(known)) {
      if (known == 0 || total % known != 0)
        return c.fail("cannot infer the -1 dim: " + Twine(total) +
                      " elements are not divisible by " + Twine(known));
      out[inferIdx] = total / known;
    }
  }
  if (failed(sameNumel(c, x, out)))
    return failure();
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult Transpose2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  ArrayRef<int32_t> perm = getAxis();
  if ((int64_t)perm.size() != x.getRank())
    return c.fail("axis has " + Twine(perm.size()) + " entries but X has rank " +
                  Twine(x.getRank()));
  SmallVector<bool> seen(perm.size(), false);
  SmallVector<int64_t> out;
  for (int32_t p : perm) {
    if (p < 0 || p >= (int64_t)perm.size() || seen[p])
      return c.fail("axis is not a permutation of [0, " + Twine(perm.size()) + ")");
    seen[p] = true;
    out.push_back(x.getDimSize(p));
  }
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult FlattenContiguousRangeOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  int64_t r = std::max<int64_t>(x.getRank(), 1);
  auto start = c.axis(getStartAxis(), r, "start_axis");
  if (failed(start))
    return failure();
  auto stop = c.axis(getStopAxis(), r, "stop_axis");
  if (failed(stop))
    return failure();
  if (*start > *stop)
    return c.fail("start_axis must not be after stop_axis");
  SmallVector<int64_t> out(x.getShape().take_front(*start));
  out.push_back(x.getRank() ? prod(x.getShape().slice(*start, *stop - *start + 1)) : 1);
  llvm::append_range(out, x.getShape().drop_front(std::min<int64_t>(*stop + 1, x.getRank())));
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult Flatten2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  auto x = rt(getX());
  int64_t a = getAxis();
  if (a > x.getRank())
    return Checker{*this, emit}.fail("axis " + Twine(a) + " exceeds the rank " +
                                     Twine(x.getRank()));
  types.push_back(tensor({prod(x.getShape().take_front(a)), prod(x.getShape().drop_front(a))},
                         x.getElementType()));
  return success();
}

LogicalResult Squeeze2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  SmallVector<bool> drop(x.getRank(), false);
  if (getAxes().empty()) {
    for (int64_t i = 0; i < x.getRank(); ++i)
      drop[i] = x.getDimSize(i) == 1;
  }
  for (int32_t a : getAxes()) {
    auto n = c.axis(a, x.getRank(), "axes entry");
    if (failed(n))
      return failure();
    // Like Paddle, a listed dim that is not 1 is kept.
    drop[*n] = x.getDimSize(*n) == 1;
  }
  SmallVector<int64_t> out;
  for (int64_t i = 0; i < x.getRank(); ++i)
    if (!drop[i])
      out.push_back(x.getDimSize(i));
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult Unsqueeze2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  if (getAxesTensor() || !getAxesTensorList().empty()) {
    int64_t n = getAxesTensor() ? listLen(getAxesTensor()) : (int64_t)getAxesTensorList().size();
    if (isDyn(n))
      return c.fail("the rank of the result is unknown (AxesTensor has a dynamic length)");
    types.push_back(unknownDims(x.getRank() + n, x.getElementType()));
    return success();
  }
  if (getAxes().empty())
    return c.fail("needs axes");
  SmallVector<int64_t> out(x.getShape());
  for (int32_t a : getAxes()) {
    int64_t cur = out.size();
    int64_t pos = a < 0 ? a + cur + 1 : a;
    if (pos < 0 || pos > cur)
      return c.fail("axes entry " + Twine(a) + " is out of range for rank " + Twine(cur));
    out.insert(out.begin() + pos, 1);
  }
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult ConcatOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (getX().empty())
    return c.fail("needs at least one input");
  auto first = rt(getX().front());
  int64_t r = first.getRank();
  for (Value v : getX()) {
    if (rt(v).getRank() != r)
      return c.fail("all inputs must have the same rank");
    if (rt(v).getElementType() != first.getElementType())
      return c.fail("all inputs must have the same element type");
  }
  if (getAxisTensor()) {
    types.push_back(unknownDims(r, first.getElementType()));
    return success();
  }
  auto axis = c.axis(getAxis(), r);
  if (failed(axis))
    return failure();
  SmallVector<int64_t> out(first.getShape());
  out[*axis] = 0;
  for (Value v : getX()) {
    for (int64_t i = 0; i < r; ++i) {
      int64_t d = rt(v).getDimSize(i);
      if (i == *axis) {
        out[i] = isDyn(d) || isDyn(out[i]) ? kDyn : out[i] + d;
      } else if (conflict(out[i], d)) {
        return c.fail("inputs differ in dim " + Twine(i) + " (" + Twine(out[i]) + " vs " +
                      Twine(d) + ")");
      } else if (isDyn(out[i])) {
        out[i] = d;
      }
    }
  }
  types.push_back(tensor(out, first.getElementType()));
  return success();
}

LogicalResult SplitOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  int64_t nOut = getNumResults();
  if (getAxisTensor() || !getSectionsTensorList().empty()) {
    for (int64_t i = 0; i < nOut; ++i)
      types.push_back(unknownDims(x.getRank(), x.getElementType()));
    return success();
  }
  auto axis = c.axis(getAxis(), x.getRank());
  if (failed(axis))
    return failure();
  int64_t d = x.getDimSize(*axis);
  SmallVector<int64_t> sizes;
  if (getNum() > 0) {
    if (!getSections().empty())
      return c.fail("num and sections must not both be set");
    if (!isDyn(d) && d % getNum() != 0)
      return c.fail("dim " + Twine(d) + " is not divisible by num " + Twine(getNum()));
    sizes.assign(getNum(), isDyn(d) ? kDyn : d / getNum());
  } else {
    if (getSections().empty())
      return c.fail("needs num or sections");
    int64_t known = 0, unknown = -1;
    for (auto [i, s] : llvm::enumerate(getSections())) {
      if (s == -1) {
        if (unknown >= 0)
          return c.fail("sections has more than one -1");
        unknown = i;
      } else if (s < 0) {
        return c.fail("sections entries must be >= 0 or -1");
      } else {
        known += s;
      }
      sizes.push_back(s == -1 ? kDyn : s);
    }
    if (!isDyn(d)) {
      if (unknown >= 0)
        sizes[unknown] = d - known;
      if ((unknown < 0 && known != d) || (unknown >= 0 && known > d))
        return c.fail("sections sum to " + Twine(known) + " but the dim is " + Twine(d));
    }
  }
  if ((int64_t)sizes.size() != nOut)
    return c.fail("produces " + Twine(sizes.size()) + " parts but has " + Twine(nOut) + " results");
  for (int64_t s : sizes) {
    SmallVector<int64_t> out(x.getShape());
    out[*axis] = s;
    types.push_back(tensor(out, x.getElementType()));
  }
  return success();
}

/// Shared by slice and strided_slice.
static LogicalResult sliceShape(const Checker &c, RankedTensorType x, ArrayRef<int32_t> axes,
                                ArrayRef<int32_t> starts, ArrayRef<int32_t> ends,
                                ArrayRef<int32_t> strides, ArrayRef<int32_t> decrease, bool runtime,
                                SmallVectorImpl<Type> &types) {
  if (!runtime && (starts.size() != axes.size() || ends.size() != axes.size()))
    return c.fail("axes, starts and ends must have the same length");
  if (!strides.empty() && strides.size() != axes.size())
    return c.fail("strides must have one entry per axis");
  SmallVector<int64_t> out(x.getShape());
  for (auto [i, a] : llvm::enumerate(axes)) {
    auto ax = c.axis(a, x.getRank(), "axes entry");
    if (failed(ax))
      return failure();
    int64_t d = x.getDimSize(*ax);
    int64_t step = strides.empty() ? 1 : strides[i];
    if (step == 0)
      return c.fail("strides must not be 0");
    if (runtime || isDyn(d)) {
      out[*ax] = kDyn;
      continue;
    }
    int64_t s = starts[i], e = ends[i];
    auto clampIdx = [&](int64_t v, bool isEnd) {
      if (v < 0)
        v += d;
      int64_t lo = step > 0 ? 0 : -1, hi = step > 0 ? d : d - 1;
      (void)isEnd;
      return std::min(std::max(v, lo), hi);
    };
    s = clampIdx(s, false);
    e = clampIdx(e, true);
    int64_t len = step > 0 ? (e - s + step - 1) / step : (s - e + (-step) - 1) / (-step);
    out[*ax] = std::max<int64_t>(len, 0);
  }
  SmallVector<int64_t> fin;
  for (int64_t i = 0; i < x.getRank(); ++i) {
    if (llvm::is_contained(decrease, i)) {
      if (conflict(out[i], 1))
        return c.fail("decrease_axis " + Twine(i) + " has size " + Twine(out[i]) + ", not 1");
      continue;
    }
    fin.push_back(out[i]);
  }
  types.push_back(tensor(fin, x.getElementType()));
  return success();
}

LogicalResult SliceOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  bool runtime = getStartsTensor() || getEndsTensor() || !getStartsTensorList().empty() ||
                 !getEndsTensorList().empty();
  return sliceShape({*this, emit}, rt(getInput()), getAxes(), getStarts(), getEnds(), {},
                    getDecreaseAxis(), runtime, types);
}

LogicalResult StridedSliceOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  bool runtime = getStartsTensor() || getEndsTensor() || getStridesTensor() ||
                 !getStartsTensorList().empty() || !getEndsTensorList().empty() ||
                 !getStridesTensorList().empty();
  return sliceShape({*this, emit}, rt(getInput()), getAxes(), getStarts(), getEnds(), getStrides(),
                    getDecreaseAxis(), runtime, types);
}

LogicalResult EinsumOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  SmallVector<RankedTensorType> operands;
  for (Value v : getOperands()) {
    operands.push_back(rt(v));
    if (operands.back().getElementType() != operands.front().getElementType())
      return c.fail("all operands must have the same element type");
  }
  if (operands.empty())
    return c.fail("needs at least one operand");
  std::string error;
  auto spec = parseEinsum(getEquation(), operands, error);
  if (!spec)
    return c.fail(error);
  SmallVector<int64_t> out;
  for (int64_t l : spec->operandLoops.back())
    out.push_back(spec->loopSizes[l]);
  types.push_back(tensor(out, operands.front().getElementType()));
  return success();
}

LogicalResult StackOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (getX().empty())
    return c.fail("needs at least one input");
  auto first = rt(getX().front());
  SmallVector<int64_t> shape(first.getShape());
  for (Value v : getX()) {
    auto t = rt(v);
    if (t.getRank() != first.getRank() || t.getElementType() != first.getElementType())
      return c.fail("all inputs must have the same rank and element type");
    for (int64_t i = 0; i < t.getRank(); ++i) {
      if (conflict(shape[i], t.getDimSize(i)))
        return c.fail("all inputs must have the same shape");
      if (isDyn(shape[i]))
        shape[i] = t.getDimSize(i);
    }
  }
  auto axis = c.axis(getAxis(), first.getRank() + 1);
  if (failed(axis))
    return failure();
  shape.insert(shape.begin() + *axis, getX().size());
  types.push_back(tensor(shape, first.getElementType()));
  return success();
}

LogicalResult UnstackOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  auto axis = c.axis(getAxis(), x.getRank());
  if (failed(axis))
    return failure();
  int64_t d = x.getDimSize(*axis);
  int64_t n = getNumResults();
  if (conflict(d, n))
    return c.fail("dim " + Twine(*axis) + " has size " + Twine(d) + " but there are " + Twine(n) +
                  " results");
  if (getNum() != 0 && getNum() != n)
    return c.fail("num " + Twine(getNum()) + " differs from the " + Twine(n) + " results");
  SmallVector<int64_t> out(x.getShape());
  out.erase(out.begin() + *axis);
  for (int64_t i = 0; i < n; ++i)
    types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult ExpandV2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  ArrayRef<int32_t> shape = getShape();
  if (getShapeInput() || !getExpandShapesTensor().empty()) {
    int64_t rank =
        getShapeInput() ? listLen(getShapeInput()) : (int64_t)getExpandShapesTensor().size();
    if (isDyn(rank))
      return c.fail("the rank of the result is unknown (Shape has a dynamic length)");
    types.push_back(unknownDims(rank, x.getElementType()));
    return success();
  }
  if ((int64_t)shape.size() < x.getRank())
    return c.fail("shape has " + Twine(shape.size()) + " entries, fewer than the rank " +
                  Twine(x.getRank()));
  int64_t off = shape.size() - x.getRank();
  SmallVector<int64_t> out;
  for (auto [i, s] : llvm::enumerate(shape)) {
    int64_t in = (int64_t)i >= off ? x.getDimSize(i - off) : 1;
    if (s == -1) {
      if ((int64_t)i < off)
        return c.fail("shape[" + Twine(i) + "] = -1 has no input dim to keep");
      out.push_back(in);
    } else if (s <= 0) {
      return c.fail("shape[" + Twine(i) + "] = " + Twine(s) + " is invalid");
    } else {
      if (in != 1 && conflict(in, s))
        return c.fail("cannot expand dim of size " + Twine(in) + " to " + Twine(s));
      out.push_back(s);
    }
  }
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult TileOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  if (getRepeatTimesInput() || !getRepeatTimesTensor().empty()) {
    int64_t n = getRepeatTimesInput() ? listLen(getRepeatTimesInput())
                                      : (int64_t)getRepeatTimesTensor().size();
    if (isDyn(n))
      return c.fail("the rank of the result is unknown (RepeatTimes has a dynamic length)");
    types.push_back(unknownDims(std::max<int64_t>(n, x.getRank()), x.getElementType()));
    return success();
  }
  ArrayRef<int32_t> reps = getRepeatTimes();
  int64_t r = std::max<int64_t>(reps.size(), x.getRank());
  SmallVector<int64_t> out;
  for (int64_t i = 0; i < r; ++i) {
    int64_t xi = i - (r - x.getRank()), ri = i - (r - (int64_t)reps.size());
    int64_t d = xi >= 0 ? x.getDimSize(xi) : 1;
    int64_t rep = ri >= 0 ? reps[ri] : 1;
    out.push_back(isDyn(d) ? kDyn : d * rep);
  }
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult ExpandOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  int64_t r = x.getRank();
  if (getExpandTimesInput() || !getExpandTimesTensor().empty()) {
    int64_t n = getExpandTimesInput() ? listLen(getExpandTimesInput())
                                      : (int64_t)getExpandTimesTensor().size();
    if (conflict(n, r))
      return c.fail("ExpandTimes has " + Twine(n) + " entries for rank " + Twine(r));
    types.push_back(unknownDims(r, x.getElementType()));
    return success();
  }
  ArrayRef<int32_t> times = getExpandTimes();
  if ((int64_t)times.size() != r)
    return c.fail("expand_times has " + Twine(times.size()) + " entries for rank " + Twine(r));
  SmallVector<int64_t> out;
  for (int64_t i = 0; i < r; ++i)
    out.push_back(isDyn(x.getDimSize(i)) ? kDyn : x.getDimSize(i) * times[i]);
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult ExpandAsV2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  SmallVector<int64_t> target;
  if (getY())
    target.assign(rt(getY()).getShape().begin(), rt(getY()).getShape().end());
  else
    for (int32_t v : getTargetShape())
      target.push_back(v == -1 ? kDyn : v);
  if (!getY() && getTargetShape().empty())
    return c.fail("needs Y or a target_shape");
  int64_t off = (int64_t)target.size() - x.getRank();
  if (off < 0)
    return c.fail("the target rank " + Twine(target.size()) + " is below X's rank " +
                  Twine(x.getRank()));
  for (int64_t i = 0; i < (int64_t)target.size(); ++i) {
    if (!getY() && i < off && isDyn(target[i]))
      return c.fail("target_shape[" + Twine(i) + "] = -1 has no input dim to keep");
    if (!getY() && getTargetShape()[i] != -1 && getTargetShape()[i] <= 0)
      return c.fail("target_shape[" + Twine(i) + "] = " + Twine(getTargetShape()[i]) +
                    " is invalid");
    if (i < off)
      continue;
    int64_t in = x.getDimSize(i - off);
    if (!getY() && getTargetShape()[i] == -1)
      target[i] = in;
    else if (in != 1 && conflict(in, target[i]))
      return c.fail("cannot expand dim of size " + Twine(in) + " to " + Twine(target[i]));
    else if (isDyn(target[i]) && !isDyn(in) && in != 1)
      target[i] = in;
  }
  types.push_back(tensor(target, x.getElementType()));
  return success();
}

LogicalResult MeshgridOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (getX().empty())
    return c.fail("needs at least one input");
  SmallVector<int64_t> grid;
  for (Value v : getX()) {
    if (failed(c.rank(v, "X", 0, 1)))
      return failure();
    if (rt(v).getElementType() != rt(getX().front()).getElementType())
      return c.fail("all inputs must have the same element type");
    grid.push_back(rt(v).getRank() == 0 ? 1 : rt(v).getDimSize(0));
  }
  for (size_t i = 0; i < getX().size(); ++i)
    types.push_back(tensor(grid, rt(getX().front()).getElementType()));
  return success();
}

LogicalResult PadOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  ArrayRef<int32_t> p = getPaddings();
  if ((int64_t)p.size() != 2 * x.getRank())
    return c.fail("paddings has " + Twine(p.size()) + " entries, rank " + Twine(x.getRank()) +
                  " needs " + Twine(2 * x.getRank()));
  SmallVector<int64_t> out(x.getShape());
  for (int64_t i = 0; i < x.getRank(); ++i)
    if (!isDyn(out[i]))
      out[i] += p[2 * i] + p[2 * i + 1];
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult Pad2dOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getX(), "X", 4, 4)))
    return failure();
  auto x = rt(getX());
  if (getPaddingsInput() && conflict(listLen(getPaddingsInput()), 4))
    return c.fail("Paddings must hold 4 values");
  SmallVector<int64_t> out(x.getShape());
  int64_t h = getDataFormat() == "NHWC" ? 1 : 2;
  ArrayRef<int32_t> p = getPaddings();
  for (int64_t i = 0; i < 2; ++i) {
    int64_t d = h + i;
    if (getPaddingsInput())
      out[d] = kDyn;
    else if (!isDyn(out[d]))
      out[d] += p[2 * i] + p[2 * i + 1];
  }
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult ScatterOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX()), ids = rt(getIds()), upd = rt(getUpdates());
  if (ids.getRank() > 2 || (ids.getRank() == 2 && conflict(ids.getDimSize(1), 1)))
    return c.fail("Ids must be 1-D (or [N, 1]), got shape " + shapeStr(ids.getShape()));
  if (x.getRank() < 1 || upd.getRank() != x.getRank())
    return c.fail("Updates must have X's rank " + Twine(x.getRank()) + ", got shape " +
                  shapeStr(upd.getShape()));
  if (conflict(upd.getDimSize(0), ids.getRank() == 0 ? 1 : ids.getDimSize(0)))
    return c.fail("Updates has " + Twine(upd.getDimSize(0)) + " rows but Ids has " +
                  Twine(ids.getDimSize(0)));
  for (int64_t i = 1; i < x.getRank(); ++i)
    if (conflict(upd.getDimSize(i), x.getDimSize(i)))
      return c.fail("Updates has shape " + shapeStr(upd.getShape()) + " but X has " +
                    shapeStr(x.getShape()));
  if (upd.getElementType() != x.getElementType())
    return c.fail("Updates must have X's element type");
  types.push_back(x);
  return success();
}

LogicalResult GatherOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX()), idx = rt(getIndex());
  if (idx.getRank() > 1 && !(idx.getRank() == 2 && idx.getDimSize(1) == 1))
    return c.fail("Index must be 1-D, got shape " + shapeStr(idx.getShape()));
  if (getAxisInput()) {
    types.push_back(unknownDims(x.getRank(), x.getElementType()));
    return success();
  }
  auto axis = c.axis(getAxis(), x.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> out(x.getShape());
  out[*axis] = idx.getRank() == 0 ? 1 : idx.getDimSize(0);
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult IndexSelectOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX()), idx = rt(getIndex());
  if (idx.getRank() != 1)
    return c.fail("Index must be 1-D, got shape " + shapeStr(idx.getShape()));
  auto dim = c.axis(getDim(), x.getRank(), "dim");
  if (failed(dim))
    return failure();
  SmallVector<int64_t> out(x.getShape());
  out[*dim] = idx.getDimSize(0);
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult GatherNdOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX()), idx = rt(getIndex());
  if (idx.getRank() < 1)
    return c.fail("Index must have rank >= 1");
  int64_t k = idx.getDimSize(idx.getRank() - 1);
  if (isDyn(k))
    return c.fail("the last dim of Index must be static");
  if (k > x.getRank())
    return c.fail("the last dim of Index (" + Twine(k) + ") exceeds the rank of X (" +
                  Twine(x.getRank()) + ")");
  SmallVector<int64_t> out(idx.getShape().drop_back());
  llvm::append_range(out, x.getShape().drop_front(k));
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult TakeAlongAxisOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getInput()), idx = rt(getIndex());
  if (idx.getRank() != x.getRank())
    return c.fail("Index must have the rank of Input (" + Twine(x.getRank()) + "), got " +
                  Twine(idx.getRank()));
  if (failed(c.axis(getAxis(), x.getRank())))
    return failure();
  types.push_back(tensor(idx.getShape(), x.getElementType()));
  return success();
}

LogicalResult LookupTableOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getW(), "W", 2, 2)))
    return failure();
  auto ids = rt(getIds());
  if (ids.getRank() < 1 || conflict(ids.getDimSize(ids.getRank() - 1), 1))
    return c.fail("the last dim of Ids must be 1, got shape " + shapeStr(ids.getShape()));
  SmallVector<int64_t> out(ids.getShape().drop_back());
  out.push_back(rt(getW()).getDimSize(1));
  types.push_back(tensor(out, rt(getW()).getElementType()));
  return success();
}

LogicalResult LookupTableV2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getW(), "W", 2, 2)))
    return failure();
  SmallVector<int64_t> out(rt(getIds()).getShape());
  out.push_back(rt(getW()).getDimSize(1));
  types.push_back(tensor(out, rt(getW()).getElementType()));
  return success();
}

LogicalResult LookupTableV2GradOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getW(), "W", 2, 2)))
    return failure();
  auto w = rt(getW()), ids = rt(getIds()), dOut = rt(getOutGrad());
  SmallVector<int64_t> want(ids.getShape());
  want.push_back(w.getDimSize(1));
  bool ok = dOut.getRank() == static_cast<int64_t>(want.size()) &&
            dOut.getElementType() == w.getElementType();
  for (int64_t i = 0; ok && i < dOut.getRank(); ++i)
    ok = !conflict(dOut.getDimSize(i), want[i]);
  if (!ok)
    return c.fail("Out@GRAD must have shape " + shapeStr(want) +
                  " (Ids' shape, then W's row size) and W's element type, got shape " +
                  shapeStr(dOut.getShape()));
  types.push_back(w);
  return success();
}

LogicalResult FusedEmbeddingEltwiseLayernormOp::inferResultTypes(SmallVectorImpl<Type> &types,
                                                                 bool emit) {
  Checker c{*this, emit};
  if (getIds().empty() || getIds().size() != getEmbs().size())
    return c.fail("needs one or more Ids with one Embs table each");
  auto ids0 = rt(getIds().front());
  int64_t h = kDyn;
  for (auto [ids, emb] : llvm::zip(getIds(), getEmbs())) {
    if (rt(ids).getShape() != ids0.getShape())
      return c.fail("all Ids must have the same shape");
    if (failed(c.rank(emb, "Embs", 2, 2)))
      return failure();
    int64_t eh = rt(emb).getDimSize(1);
    if (conflict(h, eh))
      return c.fail("all Embs must have the same width");
    if (isDyn(h))
      h = eh;
  }
  if (failed(c.vec(getScale(), "Scale", h)) || failed(c.vec(getBias(), "Bias", h)))
    return failure();
  SmallVector<int64_t> out(ids0.getShape());
  out.push_back(h);
  types.push_back(tensor(out, rt(getEmbs().front()).getElementType()));
  return success();
}

LogicalResult OneHotV2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  Type elem = elementTypeFromPaddleDtype(getContext(), getDtype());
  if (!elem)
    return c.fail("dtype " + Twine(getDtype()) + " is not a tensor dtype");
  int64_t depth = getDepth();
  if (getDepthTensor())
    depth = kDyn;
  else if (depth <= 0)
    return c.fail("depth must be positive (or given by depth_tensor)");
  SmallVector<int64_t> out(rt(getX()).getShape());
  out.push_back(depth);
  types.push_back(tensor(out, elem));
  return success();
}

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

LogicalResult FillConstantOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  Type elem = elementTypeFromPaddleDtype(getContext(), getDtype());
  if (!elem)
    return c.fail("dtype " + Twine(getDtype()) + " is not a tensor dtype");
  if (getShapeTensor() || !getShapeTensorList().empty()) {
    int64_t n = getShapeTensor() ? listLen(getShapeTensor()) : (int64_t)getShapeTensorList().size();
    if (isDyn(n))
      return c.fail("the rank of the result is unknown (ShapeTensor has a dynamic length)");
    types.push_back(unknownDims(n, elem));
    return success();
  }
  SmallVector<int64_t> out;
  for (int64_t d : getShape()) {
    if (d < -1)
      return c.fail("shape entries must be >= -1");
    out.push_back(d == -1 ? kDyn : d);
  }
  types.push_back(tensor(out, elem));
  return success();
}

LogicalResult FillAnyLikeOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Type elem = rt(getX()).getElementType();
  if (getDtype() >= 0) {
    elem = elementTypeFromPaddleDtype(getContext(), getDtype());
    if (!elem)
      return Checker{*this, emit}.fail("dtype " + Twine(getDtype()) + " is not a tensor dtype");
  }
  types.push_back(tensor(rt(getX()).getShape(), elem));
  return success();
}

LogicalResult ShapeOp::inferResultTypes(SmallVectorImpl<Type> &types, bool) {
  types.push_back(tensor({rt(getInput()).getRank()}, IntegerType::get(getContext(), 32)));
  return success();
}

LogicalResult RangeOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  for (auto [v, name] :
       {std::pair<Value, StringRef>{getStart(), "Start"}, {getEnd(), "End"}, {getStep(), "Step"}}) {
    if (conflict(prod(rt(v).getShape()), 1))
      return c.fail(name + " must hold one element");
    if (rt(v).getElementType() != rt(getStart()).getElementType())
      return c.fail("Start, End and Step must have the same element type");
  }
  types.push_back(tensor({kDyn}, rt(getStart()).getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and index ops
//===----------------------------------------------------------------------===//

#define PD_REDUCE_SHAPE(OP)                                                                        \
  LogicalResult OP::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {                    \
    return reduceShape({*this, emit}, getX(), getDim(), getKeepDim(), getReduceAll(),              \
                       getOutDtype(), types);                                                      \
  }
PD_REDUCE_SHAPE(ReduceMeanOp)
PD_REDUCE_SHAPE(ReduceSumOp)
PD_REDUCE_SHAPE(ReduceMaxOp)
PD_REDUCE_SHAPE(ReduceMinOp)
PD_REDUCE_SHAPE(ReduceProdOp)
PD_REDUCE_SHAPE(ReduceAllOp)
PD_REDUCE_SHAPE(ReduceAnyOp)
#undef PD_REDUCE_SHAPE

LogicalResult LogsumexpOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return reduceShape({*this, emit}, getX(), getAxis(), getKeepdim(), getReduceAll(), -1, types);
}

LogicalResult PNormOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  int32_t axis = getAxis();
  if (!getAsvector() && failed(c.axis(axis, rt(getX()).getRank())))
    return failure();
  return reduceShape(c, getX(), ArrayRef<int32_t>(axis), getKeepdim(), getAsvector(), -1, types);
}

LogicalResult PixelShuffleOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getX(), "X", 4, 4)))
    return failure();
  auto x = rt(getX());
  bool nhwc = getDataFormat() == "NHWC";
  int64_t f = getUpscaleFactor(), ch = x.getDimSize(nhwc ? 3 : 1);
  if (!isDyn(ch) && ch % (f * f))
    return c.fail("channels (" + Twine(ch) + ") must be a multiple of upscale_factor^2 (" +
                  Twine(f * f) + ")");
  auto scaled = [&](int64_t d) { return isDyn(d) ? kDyn : d * f; };
  int64_t n = x.getDimSize(0), h = scaled(x.getDimSize(nhwc ? 1 : 2)),
          w = scaled(x.getDimSize(nhwc ? 2 : 3)), oc = isDyn(ch) ? kDyn : ch / (f * f);
  types.push_back(
      tensor(nhwc ? SmallVector<int64_t>{n, h, w, oc} : SmallVector<int64_t>{n, oc, h, w},
             x.getElementType()));
  return success();
}

LogicalResult MvOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getX(), "X", 2, 2)) || failed(c.rank(getVec(), "Vec", 1, 1)))
    return failure();
  auto x = rt(getX()), v = rt(getVec());
  if (conflict(x.getDimSize(1), v.getDimSize(0)))
    return c.fail("X has " + Twine(x.getDimSize(1)) + " columns but Vec has " +
                  Twine(v.getDimSize(0)) + " elements");
  if (x.getElementType() != v.getElementType())
    return c.fail("operands must have the same element type");
  types.push_back(tensor({x.getDimSize(0)}, x.getElementType()));
  return success();
}

LogicalResult BmmOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getX(), "X", 3, 3)) || failed(c.rank(getY(), "Y", 3, 3)))
    return failure();
  auto x = rt(getX()), y = rt(getY());
  if (conflict(x.getDimSize(0), y.getDimSize(0)))
    return c.fail("batch sizes differ: " + Twine(x.getDimSize(0)) + " and " +
                  Twine(y.getDimSize(0)));
  if (conflict(x.getDimSize(2), y.getDimSize(1)))
    return c.fail("X has K = " + Twine(x.getDimSize(2)) + " but Y has " + Twine(y.getDimSize(1)) +
                  " rows");
  if (x.getElementType() != y.getElementType())
    return c.fail("operands must have the same element type");
  int64_t batch = isDyn(x.getDimSize(0)) ? y.getDimSize(0) : x.getDimSize(0);
  types.push_back(tensor({batch, x.getDimSize(1), y.getDimSize(2)}, x.getElementType()));
  return success();
}

LogicalResult MeanOp::inferResultTypes(SmallVectorImpl<Type> &types, bool) {
  types.push_back(tensor({1}, rt(getX()).getElementType()));
  return success();
}

LogicalResult DotOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX()), y = rt(getY());
  if (failed(c.rank(getX(), "X", 1, 2)))
    return failure();
  if (x.getRank() != y.getRank() || x.getElementType() != y.getElementType())
    return c.fail("X and Y must have the same rank and element type");
  SmallVector<int64_t> out;
  for (int64_t i = 0; i < x.getRank(); ++i) {
    if (conflict(x.getDimSize(i), y.getDimSize(i)))
      return c.fail("X has shape " + shapeStr(x.getShape()) + " but Y has " +
                    shapeStr(y.getShape()));
    out.push_back(isDyn(x.getDimSize(i)) ? y.getDimSize(i) : x.getDimSize(i));
  }
  out.back() = 1; // Paddle <= 2.4 keeps the reduced dim.
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult DistOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  SmallVector<Type> diff;
  if (failed(inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), -1, false,
                                 diff, emit)))
    return failure();
  types.push_back(tensor({1}, rt(getX()).getElementType()));
  return success();
}

LogicalResult NormOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  auto x = rt(getX());
  auto axis = Checker{*this, emit}.axis(getAxis(), x.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> norm(x.getShape());
  norm[*axis] = 1;
  types.push_back(x);
  types.push_back(tensor(norm, x.getElementType()));
  return success();
}

LogicalResult SizeOp::inferResultTypes(SmallVectorImpl<Type> &types, bool) {
  types.push_back(tensor({1}, IntegerType::get(getContext(), 64)));
  return success();
}

#define PD_ANY_ELEMENT_TEST(OP)                                                                    \
  LogicalResult OP::inferResultTypes(SmallVectorImpl<Type> &types, bool) {                         \
    types.push_back(tensor({1}, IntegerType::get(getContext(), 1)));                               \
    return success();                                                                              \
  }
PD_ANY_ELEMENT_TEST(IsinfOp)
PD_ANY_ELEMENT_TEST(IsnanOp)
PD_ANY_ELEMENT_TEST(IsfiniteOp)
#undef PD_ANY_ELEMENT_TEST

LogicalResult SumOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (getX().empty())
    return c.fail("needs at least one input");
  auto first = rt(getX().front());
  SmallVector<int64_t> shape(first.getShape());
  for (Value v : getX()) {
    auto t = rt(v);
    if (t.getElementType() != first.getElementType() || t.getRank() != first.getRank())
      return c.fail("all inputs must have the same shape and element type");
    for (int64_t i = 0; i < t.getRank(); ++i) {
      if (conflict(shape[i], t.getDimSize(i)))
        return c.fail("all inputs must have the same shape and element type");
      if (isDyn(shape[i]))
        shape[i] = t.getDimSize(i);
    }
  }
  types.push_back(tensor(shape, first.getElementType()));
  return success();
}

static LogicalResult argShape(const Checker &c, RankedTensorType x, int64_t axis, bool keep,
                              bool flatten, int64_t dtype, SmallVectorImpl<Type> &types) {
  if (dtype != 2 && dtype != 3)
    return c.fail("dtype must be 2 (int32) or 3 (int64), got " + Twine(dtype));
  Type elem = elementTypeFromPaddleDtype(x.getContext(), dtype);
  if (flatten) {
    types.push_back(tensor({1}, elem));
    return success();
  }
  auto a = c.axis(axis, x.getRank());
  if (failed(a))
    return failure();
  SmallVector<int64_t> out(x.getShape());
  if (keep)
    out[*a] = 1;
  else
    out.erase(out.begin() + *a);
  types.push_back(tensor(out, elem));
  return success();
}

LogicalResult ArgMaxOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return argShape({*this, emit}, rt(getX()), getAxis(), getKeepdims(), getFlatten(), getDtype(),
                  types);
}

LogicalResult ArgMinOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return argShape({*this, emit}, rt(getX()), getAxis(), getKeepdims(), getFlatten(), getDtype(),
                  types);
}

LogicalResult TopKV2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  auto axis = c.axis(getAxis(), x.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> out(x.getShape());
  int64_t d = out[*axis];
  if (getKInput()) {
    out[*axis] = kDyn;
  } else {
    if (!isDyn(d) && getK() > d)
      return c.fail("k (" + Twine(getK()) + ") exceeds the size of the axis (" + Twine(d) + ")");
    out[*axis] = getK();
  }
  types.push_back(tensor(out, x.getElementType()));
  types.push_back(tensor(out, IntegerType::get(getContext(), 64)));
  return success();
}

LogicalResult ArgsortOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  auto x = rt(getX());
  if (x.getRank() > 0 && failed(Checker{*this, emit}.axis(getAxis(), x.getRank())))
    return failure();
  types.push_back(x);
  types.push_back(tensor(x.getShape(), IntegerType::get(getContext(), 64)));
  return success();
}

LogicalResult CumsumOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  auto x = rt(getX());
  if (getFlatten()) {
    types.push_back(tensor({prod(x.getShape())}, x.getElementType()));
    return success();
  }
  if (failed(Checker{*this, emit}.axis(getAxis(), x.getRank())))
    return failure();
  types.push_back(x);
  return success();
}

//===----------------------------------------------------------------------===//
// Quantization
//===----------------------------------------------------------------------===//

static LogicalResult scalarScale(const Checker &c, Value scale, StringRef name) {
  if (conflict(prod(rt(scale).getShape()), 1))
    return c.fail(name + " must hold one element, got shape " + shapeStr(rt(scale).getShape()));
  return success();
}

LogicalResult FakeQuantizeMovingAverageAbsMaxOp::inferResultTypes(SmallVectorImpl<Type> &types,
                                                                  bool emit) {
  if (failed(scalarScale({*this, emit}, getInScale(), "InScale")))
    return failure();
  types.push_back(getX().getType());
  types.push_back(getInScale().getType());
  return success();
}

LogicalResult
FakeQuantizeDequantizeMovingAverageAbsMaxOp::inferResultTypes(SmallVectorImpl<Type> &types,
                                                              bool emit) {
  if (failed(scalarScale({*this, emit}, getInScale(), "InScale")))
    return failure();
  types.push_back(getX().getType());
  types.push_back(getInScale().getType());
  return success();
}

LogicalResult
FakeChannelWiseQuantizeDequantizeAbsMaxOp::inferResultTypes(SmallVectorImpl<Type> &types,
                                                            bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  if (getQuantAxis() > 1 || getQuantAxis() >= x.getRank())
    return c.fail("quant_axis must be 0 or 1 and less than the rank");
  types.push_back(x);
  types.push_back(tensor({x.getDimSize(getQuantAxis())}, x.getElementType()));
  return success();
}

LogicalResult FakeDequantizeMaxAbsOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  if (failed(scalarScale({*this, emit}, getScale(), "Scale")))
    return failure();
  types.push_back(getX().getType());
  return success();
}

LogicalResult FakeChannelWiseDequantizeMaxAbsOp::inferResultTypes(SmallVectorImpl<Type> &types,
                                                                  bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  if (getScales().empty() || getScales().size() > 2)
    return c.fail("needs one or two Scales");
  if (getQuantBits().size() != getScales().size())
    return c.fail("quant_bits must have one entry per Scales input");
  if (getQuantAxis() >= x.getRank())
    return c.fail("quant_axis " + Twine(getQuantAxis()) + " is out of range for rank " +
                  Twine(x.getRank()));
  // With two scales (a conv or mul output dequantized by the weight's
  // per-channel scale and the activation's scale) Paddle takes the channels
  // along dim 1, whatever quant_axis says.
  int64_t axis = getScales().size() == 2 ? 1 : getQuantAxis();
  if (axis >= x.getRank())
    return c.fail("two Scales need X of rank >= 2");
  if (failed(c.vec(getScales().front(), "Scales[0]", x.getDimSize(axis))))
    return failure();
  if (getScales().size() == 2 && failed(scalarScale(c, getScales()[1], "Scales[1]")))
    return failure();
  types.push_back(x);
  return success();
}

static LogicalResult linearQuantCheck(const Checker &c, RankedTensorType x, Value scale,
                                      int64_t axis) {
  if (axis == -1)
    return scalarScale(c, scale, "Scale");
  if (axis >= x.getRank())
    return c.fail("quant_axis " + Twine(axis) + " is out of range for rank " + Twine(x.getRank()));
  return c.vec(scale, "Scale", x.getDimSize(axis));
}

LogicalResult QuantizeLinearOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  if (failed(linearQuantCheck({*this, emit}, rt(getX()), getScale(), getQuantAxis())))
    return failure();
  types.push_back(getX().getType());
  return success();
}

LogicalResult DequantizeLinearOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  auto x = rt(getX());
  if (failed(linearQuantCheck({*this, emit}, x, getScale(), getQuantAxis())))
    return failure();
  types.push_back(tensor(x.getShape(), rt(getScale()).getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Detection heads
//===----------------------------------------------------------------------===//

SmallVector<std::pair<float, float>> mlir::pd::priorBoxHalfSizes(PriorBoxOp op) {
  // Paddle's aspect-ratio list: 1 first, each attribute value once (values
  // within 1e-6 of one already listed are dropped), followed by its
  // reciprocal under `flip`.
  SmallVector<float> ratios{1.0f};
  for (float ar : op.getAspectRatios()) {
    if (llvm::any_of(ratios, [&](float r) { return std::fabs(ar - r) < 1e-6f; }))
      continue;
    ratios.push_back(ar);
    if (op.getFlip())
      ratios.push_back(1.0f / ar);
  }
  auto minSizes = op.getMinSizes();
  auto maxSizes = op.getMaxSizes();
  SmallVector<std::pair<float, float>> out;
  auto ratioBox = [&](float minSize, float ar) {
    out.push_back({minSize * std::sqrt(ar) / 2.0f, minSize / std::sqrt(ar) / 2.0f});
  };
  for (size_t s = 0; s < minSizes.size(); ++s) {
    float minSize = minSizes[s];
    float square = maxSizes.empty() ? 0.0f : std::sqrt(minSize * maxSizes[s]) / 2.0f;
    if (op.getMinMaxAspectRatiosOrder()) {
      // Caffe's order: the min square, the min-max square, the other ratios.
      out.push_back({minSize / 2.0f, minSize / 2.0f});
      if (!maxSizes.empty())
        out.push_back({square, square});
      for (float ar : ratios)
        if (std::fabs(ar - 1.0f) >= 1e-6f)
          ratioBox(minSize, ar);
    } else {
      for (float ar : ratios)
        ratioBox(minSize, ar);
      if (!maxSizes.empty())
        out.push_back({square, square});
    }
  }
  return out;
}

LogicalResult AnchorGeneratorOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getInput(), "Input", 4, 4)))
    return failure();
  if (getStride().size() != 2)
    return c.fail("stride must have 2 elements (width, height), got " + Twine(getStride().size()));
  if (getVariances().size() != 4)
    return c.fail("variances must have 4 elements, got " + Twine(getVariances().size()));
  if (getAnchorSizes().empty() || getAspectRatios().empty())
    return c.fail("needs at least one anchor size and one aspect ratio");
  if (llvm::any_of(getAspectRatios(), [](float v) { return !(v > 0); }) ||
      llvm::any_of(getStride(), [](float v) { return !(v > 0); }))
    return c.fail("aspect ratios and strides must be positive");
  auto x = rt(getInput());
  int64_t n = getAnchorSizes().size() * getAspectRatios().size();
  Type t = tensor({x.getDimSize(2), x.getDimSize(3), n, 4}, x.getElementType());
  types.push_back(t);
  types.push_back(t);
  return success();
}

LogicalResult PriorBoxOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getInput(), "Input", 4, 4)) || failed(c.rank(getImage(), "Image", 4, 4)))
    return failure();
  if (getMinSizes().empty())
    return c.fail("min_sizes must not be empty");
  if (llvm::any_of(getMinSizes(), [](float v) { return !(v > 0.0f); }))
    return c.fail("min_sizes must be positive");
  if (!getMaxSizes().empty()) {
    if (getMaxSizes().size() != getMinSizes().size())
      return c.fail("max_sizes must be empty or have one entry per min_sizes entry");
    for (auto [lo, hi] : llvm::zip(getMinSizes(), getMaxSizes()))
      if (!(hi > lo))
        return c.fail("each max_sizes entry must be larger than its min_sizes entry");
  }
  if (llvm::any_of(getAspectRatios(), [](float v) { return !(v > 0.0f); }))
    return c.fail("aspect_ratios must be positive");
  if (getVariances().size() != 4)
    return c.fail("variances must have 4 entries, got " + Twine(getVariances().size()));
  auto in = rt(getInput());
  int64_t priors = priorBoxHalfSizes(*this).size();
  Type t = tensor({in.getDimSize(2), in.getDimSize(3), priors, 4}, in.getElementType());
  types.push_back(t);
  types.push_back(t);
  return success();
}

LogicalResult BoxCoderOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getPriorBox(), "PriorBox", 2, 2)))
    return failure();
  auto prior = rt(getPriorBox());
  if (conflict(prior.getDimSize(1), 4))
    return c.fail("PriorBox must be [M, 4], got " + shapeStr(prior.getShape()));
  if (getPriorBoxVar()) {
    auto var = rt(getPriorBoxVar());
    if (var.getRank() != 2 || conflict(var.getDimSize(0), prior.getDimSize(0)) ||
        conflict(var.getDimSize(1), 4))
      return c.fail("PriorBoxVar must have PriorBox's shape, got " + shapeStr(var.getShape()));
    if (!getVariance().empty())
      return c.fail("PriorBoxVar and the variance attribute must not both be given");
  }
  if (!getVariance().empty() && getVariance().size() != 4)
    return c.fail("variance must be empty or have 4 entries");
  auto target = rt(getTargetBox());
  if (getCodeType() == "encode_center_size") {
    if (target.getRank() != 2 || conflict(target.getDimSize(1), 4))
      return c.fail("TargetBox must be [N, 4] to encode, got " + shapeStr(target.getShape()));
    types.push_back(
        tensor({target.getDimSize(0), prior.getDimSize(0), 4}, target.getElementType()));
    return success();
  }
  if (target.getRank() != 3 || conflict(target.getDimSize(2), 4))
    return c.fail("TargetBox must be [N, M, 4] to decode, got " + shapeStr(target.getShape()));
  if (getAxis() > 1)
    return c.fail("axis must be 0 or 1");
  if (conflict(target.getDimSize(getAxis() == 0 ? 1 : 0), prior.getDimSize(0)))
    return c.fail("TargetBox " + shapeStr(target.getShape()) +
                  " does not have one box per prior (" + Twine(prior.getDimSize(0)) +
                  ") along its dim " + Twine(getAxis() == 0 ? 1 : 0));
  types.push_back(target);
  return success();
}

LogicalResult YoloBoxOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getX(), "X", 4, 4)) || failed(c.rank(getImgSize(), "ImgSize", 2, 2)))
    return failure();
  auto anchors = getAnchors();
  if (anchors.empty() || anchors.size() % 2)
    return c.fail("anchors must hold (width, height) pairs, got " + Twine(anchors.size()) +
                  " numbers");
  auto x = rt(getX());
  int64_t an = anchors.size() / 2, classes = getClassNum();
  int64_t channels = an * (5 + classes) + (getIouAware() ? an : 0);
  if (conflict(x.getDimSize(1), channels))
    return c.fail("X has " + Twine(x.getDimSize(1)) + " channels; " + Twine(an) + " anchors and " +
                  Twine(classes) + " classes need " + Twine(channels));
  auto size = rt(getImgSize());
  if (conflict(size.getDimSize(1), 2) || conflict(size.getDimSize(0), x.getDimSize(0)))
    return c.fail("ImgSize must be [N, 2] (height, width per image), got " +
                  shapeStr(size.getShape()));
  int64_t cells = prod({x.getDimSize(2), x.getDimSize(3)});
  int64_t boxes = isDyn(cells) ? kDyn : an * cells;
  types.push_back(tensor({x.getDimSize(0), boxes, 4}, x.getElementType()));
  types.push_back(tensor({x.getDimSize(0), boxes, classes}, x.getElementType()));
  return success();
}

bool mlir::pd::isDataSized(OpResult r) {
  Operation *op = r.getOwner();
  if (isa<MulticlassNmsOp, MulticlassNms2Op, MulticlassNms3Op, MatrixNmsOp, GenerateProposalsOp,
          GenerateProposalsV2Op>(op))
    return r.getResultNumber() < 2; // boxes and scores or indices, not the counts per image
  if (auto fpn = dyn_cast<DistributeFpnProposalsOp>(op)) // each level's RoIs
    return int64_t(r.getResultNumber()) < fpn.getProperties().resultSegmentSizes[0];
  return isa<WhereIndexOp, MaskedSelectOp>(op);
}

LogicalResult WhereIndexOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getCondition(), "Condition", 1, 8)))
    return failure();
  types.push_back(tensor({kDyn, rt(getCondition()).getRank()}, IntegerType::get(getContext(), 64)));
  return success();
}

LogicalResult MaskedSelectOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX()), m = rt(getMask());
  bool same = x.getRank() == m.getRank();
  for (int64_t i = 0; same && i < x.getRank(); ++i)
    same = !conflict(x.getDimSize(i), m.getDimSize(i));
  if (!same)
    return c.fail("Mask " + shapeStr(m.getShape()) + " must have the shape of X " +
                  shapeStr(x.getShape()) + " (broadcasting is not supported)");
  types.push_back(tensor({kDyn}, x.getElementType()));
  return success();
}

/// The multiclass_nms family: BBoxes [N, M, 4], Scores [N, C, M]; or, with
/// `roisNum` (multiclass_nms3's RoisNum [N]), the boxes of all images
/// stacked, BBoxes [M, C, 4] (one box per class) and Scores [M, C]. Returns
/// N (the batch) or failure. The count of kept boxes depends on the data, so
/// the results' first dims are dynamic.
static FailureOr<int64_t> nmsBatch(const Checker &c, Value boxes, Value scores,
                                   Value roisNum = Value()) {
  auto no = [&](const Twine &msg) -> FailureOr<int64_t> {
    (void)c.fail(msg);
    return failure();
  };
  if (rt(scores).getRank() == 2) {
    if (!roisNum)
      return no("2-D Scores need RoisNum (multiclass_nms3) to group the boxes per image; boxes "
                "grouped by LoD are not supported yet");
    if (failed(c.rank(boxes, "BBoxes", 3, 3)) || failed(c.rank(roisNum, "RoisNum", 1, 1)))
      return failure();
    auto b = rt(boxes), s = rt(scores);
    if (conflict(b.getDimSize(2), 4))
      return no("BBoxes must hold 4 coordinates per box (xmin, ymin, xmax, ymax), got " +
                shapeStr(b.getShape()));
    if (conflict(b.getDimSize(0), s.getDimSize(0)) || conflict(b.getDimSize(1), s.getDimSize(1)))
      return no("BBoxes " + shapeStr(b.getShape()) + " and Scores " + shapeStr(s.getShape()) +
                " must be [M, C, 4] and [M, C]");
    return rt(roisNum).getDimSize(0);
  }
  if (failed(c.rank(boxes, "BBoxes", 3, 3)) || failed(c.rank(scores, "Scores", 3, 3)))
    return failure();
  auto b = rt(boxes), s = rt(scores);
  if (conflict(b.getDimSize(2), 4))
    return no("BBoxes must hold 4 coordinates per box (xmin, ymin, xmax, ymax), got " +
              shapeStr(b.getShape()));
  if (conflict(b.getDimSize(0), s.getDimSize(0)) || conflict(b.getDimSize(1), s.getDimSize(2)))
    return no("BBoxes " + shapeStr(b.getShape()) + " and Scores " + shapeStr(s.getShape()) +
              " must be [N, M, 4] and [N, C, M]");
  return isDyn(b.getDimSize(0)) ? s.getDimSize(0) : b.getDimSize(0);
}

LogicalResult MulticlassNmsOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(nmsBatch(c, getBBoxes(), getScores())))
    return failure();
  // [kept, 6], or [1, 1] holding -1 when nothing is kept.
  types.push_back(tensor({kDyn, kDyn}, rt(getBBoxes()).getElementType()));
  return success();
}

/// Out [kept, 6], Index [kept, 1] (i32) and, with `withCounts`, the count
/// per image [N] (i32): multiclass_nms2 / multiclass_nms3 / matrix_nms.
static LogicalResult nmsResults(const Checker &c, Value boxes, Value scores, bool withCounts,
                                SmallVectorImpl<Type> &types, Value roisNum = Value()) {
  FailureOr<int64_t> n = nmsBatch(c, boxes, scores, roisNum);
  if (failed(n))
    return failure();
  Type i32 = IntegerType::get(boxes.getContext(), 32);
  types.push_back(tensor({kDyn, 6}, rt(boxes).getElementType()));
  types.push_back(tensor({kDyn, 1}, i32));
  if (withCounts)
    types.push_back(tensor({*n}, i32));
  return success();
}

LogicalResult MulticlassNms2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return nmsResults(Checker{*this, emit}, getBBoxes(), getScores(), /*withCounts=*/false, types);
}

LogicalResult MulticlassNms3Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return nmsResults(Checker{*this, emit}, getBBoxes(), getScores(), /*withCounts=*/true, types,
                    getRoisNum());
}

LogicalResult MatrixNmsOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return nmsResults(Checker{*this, emit}, getBBoxes(), getScores(), /*withCounts=*/true, types);
}

/// generate_proposals(_v2): Scores [N, A, H, W], BboxDeltas [N, 4A, H, W],
/// the image sizes [N, `imCols`], Anchors and Variances of H * W * A boxes
/// (Paddle's [H, W, A, 4]). RpnRois [kept, 4], RpnRoiProbs [kept, 1] and
/// RpnRoisNum [N] (i32).
static LogicalResult proposalResults(const Checker &c, Value scores, Value deltas, Value im,
                                     StringRef imSlot, int64_t imCols, Value anchors,
                                     Value variances, SmallVectorImpl<Type> &types) {
  if (failed(c.rank(scores, "Scores", 4, 4)) || failed(c.rank(deltas, "BboxDeltas", 4, 4)) ||
      failed(c.rank(im, imSlot, 2, 2)))
    return failure();
  auto s = rt(scores), d = rt(deltas), i = rt(im);
  ArrayRef<int64_t> ss = s.getShape(), ds = d.getShape();
  if (conflict(ss[0], ds[0]) || conflict(ss[2], ds[2]) || conflict(ss[3], ds[3]) ||
      (!isDyn(ss[1]) && conflict(ss[1] * 4, ds[1])))
    return c.fail("BboxDeltas " + shapeStr(ds) + " must be [N, 4A, H, W] for Scores " +
                  shapeStr(ss) + " [N, A, H, W]");
  if (conflict(i.getDimSize(0), ss[0]) || conflict(i.getDimSize(1), imCols))
    return c.fail(imSlot + " must be [N, " + Twine(imCols) + "], got " + shapeStr(i.getShape()));
  for (auto [v, slot] : {std::pair(anchors, "Anchors"), std::pair(variances, "Variances")}) {
    auto t = rt(v);
    if (t.getRank() == 0 || conflict(t.getShape().back(), 4))
      return c.fail(Twine(slot) + " must hold 4 values per anchor, got " + shapeStr(t.getShape()));
    if (t.hasStaticShape() && !isDyn(ss[1]) && !isDyn(ss[2]) && !isDyn(ss[3]) &&
        t.getNumElements() != ss[1] * ss[2] * ss[3] * 4)
      return c.fail(Twine(slot) + " " + shapeStr(t.getShape()) +
                    " must hold H * W * A = " + Twine(ss[1] * ss[2] * ss[3]) + " boxes");
  }
  Type f = s.getElementType();
  types.push_back(tensor({kDyn, 4}, f));
  types.push_back(tensor({kDyn, 1}, f));
  types.push_back(tensor({ss[0]}, IntegerType::get(scores.getContext(), 32)));
  return success();
}

LogicalResult GenerateProposalsOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return proposalResults({*this, emit}, getScores(), getBboxDeltas(), getImInfo(), "ImInfo", 3,
                         getAnchors(), getVariances(), types);
}

LogicalResult GenerateProposalsV2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return proposalResults({*this, emit}, getScores(), getBboxDeltas(), getImShape(), "ImShape", 2,
                         getAnchors(), getVariances(), types);
}

/// distribute_fpn_proposals: FpnRois [R, 4] grouped per image by RoisNum
/// [N]; per pyramid level (max_level - min_level + 1) its RoIs [?, 4] and,
/// when the program asks for them, their counts per image [N] (i32);
/// RestoreIndex [R, 1] (i32).
LogicalResult DistributeFpnProposalsOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getFpnRois(), "FpnRois", 2, 2)))
    return failure();
  auto rois = rt(getFpnRois());
  if (conflict(rois.getDimSize(1), 4))
    return c.fail("FpnRois must be [R, 4] (xmin, ymin, xmax, ymax), got " +
                  shapeStr(rois.getShape()));
  if (!getRoisNum())
    return c.fail("FpnRois without RoisNum (RoIs grouped per image by LoD) are not supported yet");
  if (failed(c.rank(getRoisNum(), "RoisNum", 1, 1)))
    return failure();
  int64_t levels = int64_t(getMaxLevel()) - getMinLevel() + 1;
  if (levels < 1)
    return c.fail("max_level (" + Twine(getMaxLevel()) + ") must be at least min_level (" +
                  Twine(getMinLevel()) + ")");
  ArrayRef<int32_t> seg = getProperties().resultSegmentSizes;
  if (seg[0] != levels || (seg[2] != 0 && seg[2] != levels))
    return c.fail("levels " + Twine(getMinLevel()) + " to " + Twine(getMaxLevel()) + " need " +
                  Twine(levels) + " MultiFpnRois (and 0 or " + Twine(levels) +
                  " MultiLevelRoIsNum) results, got " + Twine(seg[0]) + " and " + Twine(seg[2]));
  Type i32 = IntegerType::get(getContext(), 32);
  for (int64_t l = 0; l < levels; ++l)
    types.push_back(tensor({kDyn, 4}, rois.getElementType()));
  types.push_back(tensor({rois.getDimSize(0), 1}, i32));
  for (int32_t l = 0; l < seg[2]; ++l)
    types.push_back(tensor({rt(getRoisNum()).getDimSize(0)}, i32));
  return success();
}

/// roi_align: X [N, C, H, W], ROIs [K, 4], RoisNum [N] (the boxes of each
/// image, in order); Out [K, C, pooled_height, pooled_width].
LogicalResult RoiAlignOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getX(), "X", 4, 4)) || failed(c.rank(getROIs(), "ROIs", 2, 2)))
    return failure();
  auto x = rt(getX()), r = rt(getROIs());
  if (conflict(r.getDimSize(1), 4))
    return c.fail("ROIs must be [K, 4] (xmin, ymin, xmax, ymax), got " + shapeStr(r.getShape()));
  if (getRoisNum()) {
    if (failed(c.rank(getRoisNum(), "RoisNum", 1, 1)))
      return failure();
    if (conflict(rt(getRoisNum()).getDimSize(0), x.getDimSize(0)))
      return c.fail("RoisNum " + shapeStr(rt(getRoisNum()).getShape()) +
                    " must count the boxes of each of the " + Twine(x.getDimSize(0)) + " images");
  } else if (x.getDimSize(0) != 1) {
    return c.fail("ROIs without RoisNum (boxes assigned to images by LoD) are supported for a "
                  "batch of 1 only, got X " +
                  shapeStr(x.getShape()));
  }
  types.push_back(tensor({r.getDimSize(0), x.getDimSize(1), getPooledHeight(), getPooledWidth()},
                         x.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Ops of real programs that had blocked their import (issue 23)
//===----------------------------------------------------------------------===//

LogicalResult Conv3dOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getInput(), "Input", 5, 5)) || failed(c.rank(getFilter(), "Filter", 5, 5)))
    return failure();
  if (getDataFormat() == "NDHWC")
    return c.fail("data_format NDHWC is not supported; only NCDHW");
  auto in = rt(getInput()), f = rt(getFilter());
  int64_t groups = getGroups();
  int64_t cin = in.getDimSize(1), cout = f.getDimSize(0);
  if (!isDyn(f.getDimSize(1)) && conflict(cin, f.getDimSize(1) * groups))
    return c.fail("input channels (" + Twine(cin) + ") must equal Filter dim 1 (" +
                  Twine(f.getDimSize(1)) + ") times groups (" + Twine(groups) + ")");
  if (!isDyn(cout) && cout % groups != 0)
    return c.fail("output channels (" + Twine(cout) + ") must be divisible by groups (" +
                  Twine(groups) + ")");
  // Paddings: [pd, ph, pw] or one (begin, end) pair per spatial dim.
  ArrayRef<int32_t> p = getPaddings();
  SmallVector<int64_t> out{in.getDimSize(0), cout};
  for (int64_t i = 0; i < 3; ++i) {
    int64_t lo = p.size() == 6 ? p[2 * i] : p[i], hi = p.size() == 6 ? p[2 * i + 1] : p[i];
    int64_t o = windowOut(in.getDimSize(2 + i), f.getDimSize(2 + i), getStrides()[i], lo, hi,
                          getDilations()[i], getPaddingAlgorithm());
    if (!isDyn(o) && o <= 0)
      return c.fail("output spatial size along dim " + Twine(2 + i) +
                    " is not positive (filter larger than padded input)");
    out.push_back(o);
  }
  types.push_back(tensor(out, in.getElementType()));
  return success();
}

LogicalResult GridSamplerOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getX(), "X", 4, 4)) || failed(c.rank(getGrid(), "Grid", 4, 4)))
    return failure();
  auto x = rt(getX()), g = rt(getGrid());
  if (conflict(g.getDimSize(3), 2))
    return c.fail("Grid must have a last dim of 2 (x, y), got shape " + shapeStr(g.getShape()));
  if (conflict(x.getDimSize(0), g.getDimSize(0)))
    return c.fail("X and Grid must have the same batch size, got " + shapeStr(x.getShape()) +
                  " and " + shapeStr(g.getShape()));
  int64_t n = isDyn(x.getDimSize(0)) ? g.getDimSize(0) : x.getDimSize(0);
  types.push_back(
      tensor({n, x.getDimSize(1), g.getDimSize(1), g.getDimSize(2)}, x.getElementType()));
  return success();
}

LogicalResult AssignValueOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  Type elem = elementTypeFromPaddleDtype(getContext(), getDtype());
  if (!elem)
    return c.fail("dtype " + Twine(getDtype()) + " is not a tensor dtype");
  SmallVector<int64_t> shape;
  for (int32_t d : getShape()) {
    if (d < 0)
      return c.fail("shape entries must be >= 0, got " + Twine(d));
    shape.push_back(d);
  }
  // Paddle reads the list that matches dtype (bool, int32, int64, float32).
  int64_t n = elem.isInteger(1)    ? (int64_t)getBoolValues().size()
              : elem.isInteger(32) ? (int64_t)getInt32Values().size()
              : elem.isInteger(64) ? (int64_t)getInt64Values().size()
              : elem.isF32()       ? (int64_t)getFp32Values().size()
                                   : -1;
  if (n < 0)
    return c.fail("dtype " + Twine(getDtype()) +
                  " has no value list (bool, int32, int64 or "
                  "float32 only)");
  if (n != prod(shape))
    return c.fail("holds " + Twine(n) + " values for shape " + shapeStr(shape) + " (" +
                  Twine(prod(shape)) + " elements)");
  types.push_back(tensor(shape, elem));
  return success();
}

LogicalResult FillConstantBatchSizeLikeOp::inferResultTypes(SmallVectorImpl<Type> &types,
                                                            bool emit) {
  Checker c{*this, emit};
  Type elem = elementTypeFromPaddleDtype(getContext(), getDtype());
  if (!elem)
    return c.fail("dtype " + Twine(getDtype()) + " is not a tensor dtype");
  auto in = rt(getInput());
  int64_t inIdx = getInputDimIdx(), outIdx = getOutputDimIdx();
  if (inIdx >= in.getRank())
    return c.fail("input_dim_idx " + Twine(inIdx) + " is out of range for Input of rank " +
                  Twine(in.getRank()));
  if (outIdx >= (int64_t)getShape().size())
    return c.fail("output_dim_idx " + Twine(outIdx) + " is out of range for shape " +
                  shapeStr(SmallVector<int64_t>(getShape().begin(), getShape().end())));
  SmallVector<int64_t> out;
  for (auto [i, d] : llvm::enumerate(getShape())) {
    if ((int64_t)i == outIdx)
      out.push_back(in.getDimSize(inIdx));
    else if (d < 0)
      return c.fail("shape entry " + Twine(i) + " is " + Twine(d) +
                    "; only the output_dim_idx entry may be negative");
    else
      out.push_back(d);
  }
  types.push_back(tensor(out, elem));
  return success();
}

LogicalResult CrossEntropy2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX()), l = rt(getLabel());
  if (x.getRank() < 1)
    return c.fail("X must have rank >= 1");
  bool ok = l.getRank() == x.getRank() && !conflict(l.getShape().back(), 1);
  for (int64_t i = 0; ok && i + 1 < x.getRank(); ++i)
    ok = !conflict(l.getDimSize(i), x.getDimSize(i));
  if (!ok)
    return c.fail("Label must have X's shape with a last dim of 1 (hard labels), got " +
                  shapeStr(l.getShape()) + " for X " + shapeStr(x.getShape()));
  SmallVector<int64_t> out(x.getShape());
  out.back() = 1;
  types.push_back(tensor(out, x.getElementType()));
  types.push_back(tensor(out, x.getElementType()));
  return success();
}

LogicalResult TopKOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  if (x.getRank() < 1)
    return c.fail("X must have rank >= 1");
  SmallVector<int64_t> out(x.getShape());
  if (getKInput()) {
    out.back() = kDyn;
  } else {
    if (!isDyn(out.back()) && getK() > out.back())
      return c.fail("k (" + Twine(getK()) + ") exceeds the size of the last dim (" +
                    Twine(out.back()) + ")");
    out.back() = getK();
  }
  types.push_back(tensor(out, x.getElementType()));
  types.push_back(tensor(out, IntegerType::get(getContext(), 64)));
  return success();
}

LogicalResult AccuracyOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getIndices(), "Indices", 2, 2)) || failed(c.rank(getLabel(), "Label", 2, 2)))
    return failure();
  auto idx = rt(getIndices()), l = rt(getLabel());
  if (conflict(l.getDimSize(1), 1) || conflict(l.getDimSize(0), idx.getDimSize(0)))
    return c.fail("Label must have shape [N, 1] for Indices " + shapeStr(idx.getShape()) +
                  ", got " + shapeStr(l.getShape()));
  types.push_back(tensor({1}, rt(getOut()).getElementType()));
  types.push_back(tensor({1}, IntegerType::get(getContext(), 32)));
  types.push_back(tensor({1}, IntegerType::get(getContext(), 32)));
  return success();
}

//===- Common.h - helpers of the pd result-type inference ------*- C++ -*-===//
//
// What the hand-written PdShapeInference functions of ShapeFns/*.cpp share:
// dynamic-dim arithmetic, the Checker that words their errors, and the
// shape rules several op families apply (windows, paddings, reductions,
// matrix products). Each function applies the checks Paddle's InferShape
// applies and propagates dynamic dims as `?`.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_LIB_DIALECT_PD_IR_SHAPEFNS_COMMON_H
#define PADDLEMLIR_LIB_DIALECT_PD_IR_SHAPEFNS_COMMON_H

#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <array>
#include <string>

namespace mlir::pd::shapefns {
constexpr int64_t kDyn = ShapedType::kDynamic;
inline bool isDyn(int64_t d) { return ShapedType::isDynamic(d); }
inline bool conflict(int64_t a, int64_t b) { return !isDyn(a) && !isDyn(b) && a != b; }

inline RankedTensorType rt(Value v) { return cast<RankedTensorType>(v.getType()); }
inline RankedTensorType rt(Type t) { return cast<RankedTensorType>(t); }
inline Type tensor(ArrayRef<int64_t> shape, Type elem) {
  return RankedTensorType::get(shape, elem);
}

inline int64_t prod(ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims) {
    if (isDyn(d))
      return kDyn;
    p *= d;
  }
  return p;
}

inline std::string shapeStr(ArrayRef<int64_t> dims) {
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

/// The join of inputs that must share one shape and element type (sum,
/// stack): each dim static where any input has it static. `rankMsg` when
/// ranks or element types differ, `shapeMsg` when a static dim conflicts.
inline FailureOr<SmallVector<int64_t>> joinSameShape(const Checker &c, ValueRange xs,
                                                     StringRef rankMsg, StringRef shapeMsg) {
  if (xs.empty()) {
    (void)c.fail("needs at least one input");
    return failure();
  }
  auto first = rt(xs.front());
  SmallVector<int64_t> shape(first.getShape());
  for (Value v : xs) {
    auto t = rt(v);
    if (t.getRank() != first.getRank() || t.getElementType() != first.getElementType()) {
      (void)c.fail(rankMsg);
      return failure();
    }
    for (int64_t i = 0; i < t.getRank(); ++i) {
      if (conflict(shape[i], t.getDimSize(i))) {
        (void)c.fail(shapeMsg);
        return failure();
      }
      if (isDyn(shape[i]))
        shape[i] = t.getDimSize(i);
    }
  }
  return shape;
}

/// uniform_random(_batch_size_like): min must not exceed max.
inline LogicalResult uniformRange(const Checker &c, APFloat min, APFloat max) {
  float lo = min.convertToFloat(), hi = max.convertToFloat();
  if (lo <= hi)
    return success();
  return c.fail("min (" + llvm::formatv("{0}", lo).str() + ") must not exceed max (" +
                llvm::formatv("{0}", hi).str() + ")");
}

/// The lengths operand of a sequence op: present (the importer fills it
/// from the LoD feed `x`, the op's `slot`, comes from) and 1-D integer.
inline FailureOr<int64_t> sequenceCount(const Checker &c, Value x, Value lengths,
                                        StringRef slot = "X") {
  if (!lengths) {
    (void)c.fail("needs the sequence lengths of a LoD input; " + slot +
                 " carries no LoD (its rows are not sequences of a LoD feed)");
    return failure();
  }
  if (failed(c.rank(lengths, "Lengths", 1, 1)) || failed(c.rank(x, slot, 1, 8)))
    return failure();
  return rt(lengths).getDimSize(0);
}

inline int64_t channelDim(StringRef layout, int64_t rank) {
  return layout == "NHWC" || layout == "NDHWC" ? rank - 1 : 1;
}

/// Output size of a sliding window along one spatial dim.
inline int64_t windowOut(int64_t in, int64_t k, int64_t stride, int64_t padLo, int64_t padHi,
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
inline std::array<int64_t, 4> expandPads(ArrayRef<int32_t> p) {
  if (p.size() == 4)
    return {p[0], p[1], p[2], p[3]};
  return {p[0], p[0], p[1], p[1]};
}

inline LogicalResult convShape(const Checker &c, Value input, Value filter,
                               ArrayRef<int32_t> strides, ArrayRef<int32_t> paddings,
                               StringRef algo, int64_t groups, ArrayRef<int32_t> dilations,
                               StringRef format, SmallVectorImpl<Type> &types) {
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

inline LogicalResult normParams(const Checker &c, Value x, StringRef layout, int64_t minRank,
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
inline LogicalResult sameNumel(const Checker &c, RankedTensorType in, ArrayRef<int64_t> out) {
  int64_t a = prod(in.getShape()), b = prod(out);
  if (conflict(a, b))
    return c.fail("cannot reshape " + shapeStr(in.getShape()) + " (" + Twine(a) + " elements) to " +
                  shapeStr(out) + " (" + Twine(b) + " elements)");
  return success();
}

/// Number of elements of a 1-D shape operand, if static.
inline int64_t listLen(Value v) {
  auto t = rt(v);
  return t.getRank() == 0 ? 1 : (t.getRank() == 1 ? t.getDimSize(0) : kDyn);
}

inline LogicalResult reduceShape(const Checker &c, Value x, ArrayRef<int32_t> dims, bool keep,
                                 bool all, int64_t outDtype, SmallVectorImpl<Type> &types) {
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

inline LogicalResult matmulShape(const Checker &c, Value xv, Value yv, bool tx, bool ty,
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
inline Type unknownDims(int64_t rank, Type elem) {
  return tensor(SmallVector<int64_t>(rank, kDyn), elem);
}
/// A conv's residual (if any) has the output's shape.
inline LogicalResult residualShape(const Checker &c, Value r, Type outType) {
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

} // namespace mlir::pd::shapefns

#endif // PADDLEMLIR_LIB_DIALECT_PD_IR_SHAPEFNS_COMMON_H

//===- Shape.cpp - pd shape and creation result types ---------------------===//
//
// Hand-written PdShapeInference (catalogue `infer = "custom"`) of the pd
// shape manipulation and creation ops.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "PaddleMLIR/Dialect/Pd/IR/Einsum.h"

#include <cmath>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::shapefns;

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
  FailureOr<SmallVector<int64_t>> joined =
      joinSameShape(c, getX(), "all inputs must have the same rank and element type",
                    "all inputs must have the same shape");
  if (failed(joined))
    return failure();
  SmallVector<int64_t> shape = *joined;
  auto first = rt(getX().front());
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

LogicalResult ExpandAsOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX()), t = rt(getTargetTensor());
  if (x.getRank() != t.getRank())
    return c.fail("target_tensor has rank " + Twine(t.getRank()) + " but X has rank " +
                  Twine(x.getRank()));
  for (int64_t i = 0; i < x.getRank(); ++i) {
    int64_t in = x.getDimSize(i), to = t.getDimSize(i);
    if (!isDyn(in) && !isDyn(to) && (in == 0 ? to != 0 : to % in != 0))
      return c.fail("target_tensor's dim " + Twine(i) + " (" + Twine(to) +
                    ") is not a multiple of X's (" + Twine(in) + ")");
  }
  types.push_back(tensor(t.getShape(), x.getElementType()));
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

/// fill_constant and uniform_random: a tensor of `dtype` shaped by the
/// ShapeTensor, the ShapeTensorList or the shape attribute (-1: dynamic).
static LogicalResult creationShape(const Checker &c, int64_t dtype, Value shapeTensor,
                                   ValueRange shapeList, ArrayRef<int64_t> shape,
                                   SmallVectorImpl<Type> &types, bool floatOnly = false) {
  Type elem = elementTypeFromPaddleDtype(c.op->getContext(), dtype);
  if (!elem)
    return c.fail("dtype " + Twine(dtype) + " is not a tensor dtype");
  if (floatOnly && !isa<FloatType>(elem))
    return c.fail("dtype " + Twine(dtype) + " must be a floating-point type");
  if (shapeTensor || !shapeList.empty()) {
    int64_t n = shapeTensor ? listLen(shapeTensor) : (int64_t)shapeList.size();
    if (isDyn(n))
      return c.fail("the rank of the result is unknown (ShapeTensor has a dynamic length)");
    types.push_back(unknownDims(n, elem));
    return success();
  }
  SmallVector<int64_t> out;
  for (int64_t d : shape) {
    if (d < -1)
      return c.fail("shape entries must be >= -1");
    out.push_back(d == -1 ? kDyn : d);
  }
  types.push_back(tensor(out, elem));
  return success();
}

LogicalResult FillConstantOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return creationShape({*this, emit}, getDtype(), getShapeTensor(), getShapeTensorList(),
                       getShape(), types);
}

LogicalResult UniformRandomOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(uniformRange(c, getMin(), getMax())))
    return failure();
  return creationShape(c, getDtype(), getShapeTensor(), getShapeTensorList(), getShape(), types,
                       /*floatOnly=*/true);
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

//===- Reduction.cpp - pd reduction and index result types ----------------===//
//
// Hand-written PdShapeInference (catalogue `infer = "custom"`) of the pd
// reductions and index ops.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "PaddleMLIR/Dialect/Pd/IR/Einsum.h"

#include <cmath>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::shapefns;

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
  const char *msg = "all inputs must have the same shape and element type";
  FailureOr<SmallVector<int64_t>> shape = joinSameShape({*this, emit}, getX(), msg, msg);
  if (failed(shape))
    return failure();
  types.push_back(tensor(*shape, rt(getX().front()).getElementType()));
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

/// unique: without `axis` over the flattened x (Out [K], Index [numel]);
/// with one axis over the slices along it (Out of x's shape with K there,
/// Index [dim]). K depends on the data. Indices, Index and Counts are
/// optional results of the index dtype.
LogicalResult UniqueOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX());
  Type index = elementTypeFromPaddleDtype(getContext(), getDtype());
  if (!index || !index.isInteger() || (!index.isInteger(32) && !index.isInteger(64)))
    return c.fail("dtype " + Twine(getDtype()) + " must be int32 (2) or int64 (3)");
  ArrayRef<int32_t> axes = getAxis();
  if (axes.size() > 1)
    return c.fail("takes at most one axis, got " + Twine(axes.size()));
  SmallVector<int64_t> out;
  int64_t rows = prod(x.getShape());
  if (axes.empty()) {
    out.push_back(kDyn);
  } else {
    auto axis = c.axis(axes.front(), x.getRank());
    if (failed(axis))
      return failure();
    out.assign(x.getShape().begin(), x.getShape().end());
    rows = out[*axis];
    out[*axis] = kDyn;
  }
  types.push_back(tensor(out, x.getElementType()));
  ArrayRef<int32_t> seg = getProperties().resultSegmentSizes;
  if (seg[1])
    types.push_back(tensor({kDyn}, index));
  if (seg[2])
    types.push_back(tensor({rows}, index));
  if (seg[3])
    types.push_back(tensor({kDyn}, index));
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

//===- Collective.cpp - result types of the collective and p2p ops -------===//
//
// c_allgather stacks the ranks' tensors along dim 0, c_reducescatter splits
// dim 0 among them, recv_v2 takes its type from attributes and send_v2 has
// no result. The ops with X's type (allreduce, broadcast, barrier) use the
// catalogue's `same:X` rule.
//
//===----------------------------------------------------------------------===//
#include "Common.h"

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::shapefns;

/// X with dim 0 divided into `n` equal parts (reducescatter, shard_batch):
/// a static dim 0 must divide by `n` (the attribute `attr`).
static LogicalResult splitDim0(const Checker &c, Value x, int64_t n, StringRef attr, StringRef how,
                               SmallVectorImpl<Type> &types) {
  RankedTensorType t = rt(x);
  if (t.getRank() < 1)
    return c.fail("X must have rank >= 1 (" + how + " along dim 0), got a scalar");
  SmallVector<int64_t> shape(t.getShape());
  if (!isDyn(shape[0])) {
    if (shape[0] % n != 0)
      return c.fail("dim 0 of X (" + Twine(shape[0]) + ") must be divisible by " + attr + " (" +
                    Twine(n) + ")");
    shape[0] /= n;
  }
  types.push_back(tensor(shape, t.getElementType()));
  return success();
}

LogicalResult CAllgatherOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  RankedTensorType x = rt(getX());
  if (x.getRank() < 1)
    return c.fail("X must have rank >= 1 (gathered along dim 0), got a scalar");
  SmallVector<int64_t> shape(x.getShape());
  if (!isDyn(shape[0]))
    shape[0] *= getNranks();
  types.push_back(tensor(shape, x.getElementType()));
  return success();
}

LogicalResult CReducescatterOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return splitDim0({*this, emit}, getX(), getNranks(), "nranks", "scattered", types);
}

LogicalResult SendV2Op::inferResultTypes(SmallVectorImpl<Type> &, bool emit) {
  Checker c{*this, emit};
  if (getDynamicShape())
    return c.fail("dynamic_shape (the shape sent before the data) is not supported; the receiver "
                  "needs out_shape");
  return success();
}

LogicalResult RecvV2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (getDynamicShape())
    return c.fail("dynamic_shape (the shape sent before the data) is not supported; give "
                  "out_shape");
  Type elem = elementTypeFromPaddleDtype(getContext(), getDtype());
  if (!elem)
    return c.fail("dtype " + Twine(getDtype()) + " is not a tensor dtype");
  if (getOutShape().empty())
    return c.fail("out_shape is empty; recv_v2 needs the shape of the tensor it receives");
  SmallVector<int64_t> shape;
  for (int32_t d : getOutShape()) {
    if (d == 0 || d < -1)
      return c.fail("out_shape entries must be >= 1 or -1 (unknown), got " + Twine(d));
    shape.push_back(d == -1 ? kDyn : d);
  }
  types.push_back(tensor(shape, elem));
  return success();
}

LogicalResult ShardBatchOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return splitDim0({*this, emit}, getX(), getDevices(), "devices", "split", types);
}

LogicalResult IsStageOp::inferResultTypes(SmallVectorImpl<Type> &types, bool) {
  types.push_back(tensor({1}, IntegerType::get(getContext(), 1)));
  return success();
}

LogicalResult IsStageOp::verify() {
  if (getStage() >= getStages())
    return emitOpError("stage ") << getStage() << " is not one of the " << getStages() << " stages";
  auto t = dyn_cast<RankedTensorType>(getType());
  if (!t || !isOneBool(t))
    return emitOpError("result must be a boolean tensor of one element, got ") << getType();
  return success();
}

LogicalResult AllreduceStartOp::inferResultTypes(SmallVectorImpl<Type> &types, bool) {
  types.push_back(getX().getType());
  return success();
}

LogicalResult AllreduceWaitOp::inferResultTypes(SmallVectorImpl<Type> &types, bool) {
  types.push_back(getX().getType());
  return success();
}

//===- Program.cpp - result types of real-program ops ---------------------===//
//
// Hand-written PdShapeInference (catalogue `infer = "custom"`) of the pd
// ops of real programs that had blocked their import.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "PaddleMLIR/Dialect/Pd/IR/Einsum.h"

#include <cmath>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::shapefns;

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

/// The *_batch_size_like ops: `shape` with entry output_dim_idx taken
/// from Input's dim input_dim_idx.
static LogicalResult batchSizeLikeShape(const Checker &c, Value input, int64_t dtype,
                                        ArrayRef<int32_t> shape, int64_t inIdx, int64_t outIdx,
                                        SmallVectorImpl<Type> &types, bool floatOnly = false) {
  Type elem = elementTypeFromPaddleDtype(c.op->getContext(), dtype);
  if (!elem)
    return c.fail("dtype " + Twine(dtype) + " is not a tensor dtype");
  if (floatOnly && !isa<FloatType>(elem))
    return c.fail("dtype " + Twine(dtype) + " must be a floating-point type");
  auto in = rt(input);
  if (inIdx >= in.getRank())
    return c.fail("input_dim_idx " + Twine(inIdx) + " is out of range for Input of rank " +
                  Twine(in.getRank()));
  if (outIdx >= (int64_t)shape.size())
    return c.fail("output_dim_idx " + Twine(outIdx) + " is out of range for shape " +
                  shapeStr(SmallVector<int64_t>(shape.begin(), shape.end())));
  SmallVector<int64_t> out;
  for (auto [i, d] : llvm::enumerate(shape)) {
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

LogicalResult FillConstantBatchSizeLikeOp::inferResultTypes(SmallVectorImpl<Type> &types,
                                                            bool emit) {
  return batchSizeLikeShape({*this, emit}, getInput(), getDtype(), getShape(), getInputDimIdx(),
                            getOutputDimIdx(), types);
}

LogicalResult UniformRandomBatchSizeLikeOp::inferResultTypes(SmallVectorImpl<Type> &types,
                                                             bool emit) {
  Checker c{*this, emit};
  if (failed(uniformRange(c, getMin(), getMax())))
    return failure();
  return batchSizeLikeShape(c, getInput(), getDtype(), getShape(), getInputDimIdx(),
                            getOutputDimIdx(), types, /*floatOnly=*/true);
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

//===----------------------------------------------------------------------===//
// Tensor arrays: a value [N, element dims...] stacks the N elements.
//===----------------------------------------------------------------------===//

static LogicalResult oneIndex(const Checker &c, Value i) {
  auto t = rt(i);
  if (!t.hasStaticShape() || t.getNumElements() != 1)
    return c.fail("I must hold one index, got " + shapeStr(t.getShape()));
  return success();
}

LogicalResult WriteToArrayOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(oneIndex(c, getI())))
    return failure();
  auto x = rt(getX());
  SmallVector<int64_t> shape{ShapedType::kDynamic};
  shape.append(x.getShape().begin(), x.getShape().end());
  if (Value array = getArray()) {
    auto a = rt(array);
    if (a.getRank() != x.getRank() + 1 || a.getElementType() != x.getElementType())
      return c.fail("X must be an element of Array (rank " + Twine(a.getRank() - 1) +
                    ", the same element type)");
    for (int64_t d = 0; d < x.getRank(); ++d)
      if (a.getDimSize(d + 1) != x.getDimSize(d))
        shape[d + 1] = ShapedType::kDynamic;
  }
  types.push_back(tensor(shape, x.getElementType()));
  return success();
}

LogicalResult ReadFromArrayOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(oneIndex(c, getI())))
    return failure();
  auto a = rt(getX());
  if (a.getRank() < 1)
    return c.fail("X must be a tensor array (rank >= 1)");
  types.push_back(tensor(a.getShape().drop_front(), a.getElementType()));
  return success();
}

LogicalResult LodArrayLengthOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (rt(getX()).getRank() < 1)
    return c.fail("X must be a tensor array (rank >= 1)");
  types.push_back(tensor({1}, IntegerType::get(getContext(), 64)));
  return success();
}

LogicalResult TensorArrayToTensorOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto a = rt(getX());
  if (a.getRank() < 2)
    return c.fail("X must be a tensor array of tensors (rank >= 2)");
  int64_t n = a.getDimSize(0);
  SmallVector<int64_t> elem(a.getShape().drop_front());
  int64_t rank = elem.size();
  auto axis = c.axis(getAxis(), getUseStack() ? rank + 1 : rank);
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape = elem;
  if (getUseStack())
    shape.insert(shape.begin() + *axis, n);
  else
    shape[*axis] = isDyn(n) || isDyn(elem[*axis]) ? ShapedType::kDynamic : n * elem[*axis];
  types.push_back(tensor(shape, a.getElementType()));
  types.push_back(tensor({n}, IntegerType::get(getContext(), 32)));
  return success();
}

LogicalResult IsEmptyOp::inferResultTypes(SmallVectorImpl<Type> &types, bool) {
  types.push_back(tensor({1}, IntegerType::get(getContext(), 1)));
  return success();
}

//===- Linear.cpp - pd matrix product and quant result types --------------===//
//
// Hand-written PdShapeInference (catalogue `infer = "custom"`) of the pd
// matrix products and quantized ops.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "PaddleMLIR/Dialect/Pd/IR/Einsum.h"

#include <cmath>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::shapefns;

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
  if (Value r = getResidualData()) {
    bool int8Residual = !rt(r).getElementType().isF32();
    if (!int8Residual && getOutDtype() != "float32")
      return c.fail("a float32 residual needs out_dtype float32, got " + getOutDtype());
    float rs = getResidualScale().convertToFloat();
    if (int8Residual && !(rs > 0.f && std::isfinite(rs)))
      return c.fail("an int8 residual needs a positive finite residual_scale, got " +
                    std::to_string(rs));
  }
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

bool mlir::pd::batchFitsProduct(RankedTensorType operand, RankedTensorType result) {
  int64_t bt = operand.getRank() - 2, nb = result.getRank() - 2;
  bool allOne = true, same = bt == nb;
  for (int64_t j = 0; j < bt; ++j) {
    allOne &= operand.getDimSize(j) == 1;
    if (same && operand.getDimSize(j) != result.getDimSize(j))
      same = false;
  }
  return allOne || same;
}

LogicalResult QuantizedMatmulOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getX(), "X", 2, 8)) || failed(c.rank(getY(), "Y", 2, 8)))
    return failure();
  float alpha = getAlpha().convertToFloat();
  if (!(alpha != 0.f) || !std::isfinite(alpha))
    return c.fail("alpha must be finite and nonzero, got " + std::to_string(alpha));
  if (failed(matmulShape(c, getX(), getY(), getTransX(), getTransY(), types)))
    return failure();
  types.front() = tensor(rt(types.front()).getShape(), Float32Type::get(getContext()));
  return success();
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

//===- OneDNN.cpp - pd conv / matmul -> pd.kernel_call of oneDNN kernels --===//
//
// With convert-pd-to-linalg{kernels=onednn} these patterns take precedence
// over the linalg lowerings for the ops and forms the runtime's oneDNN
// kernels (lib/Runtime/Kernels/) compute: fp32 NCHW convolutions (plain,
// grouped, depthwise, with fused bias / residual / activation) and matrix
// products (fc, matmul_v2 with equal or broadcast batch), softmax /
// log_softmax along one axis, and max pooling right after a convolution.
// Other forms fall through to the linalg patterns. The operands and fields
// of each call are laid out as PaddleMLIR/Runtime/KernelABI.h says, which
// the kernels read too.
//
//===----------------------------------------------------------------------===//

#include "../PdToLinalg/Utils.h"

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Runtime/KernelABI.h"
#include "llvm/TargetParser/Host.h"

#include <dlfcn.h>
#include <map>
#include <utility>
#include <vector>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::lowering;

namespace {
/// Benefit above the linalg lowerings of the same ops.
constexpr unsigned kKernelBenefit = 10;

/// The kernels' activation code (pdk::act) of a Paddle activation; -1 when
/// they have none.
int64_t activationCode(StringRef act) {
  return llvm::StringSwitch<int64_t>(act)
      .Cases({"", "identity"}, pdk::act::None)
      .Case("relu", pdk::act::Relu)
      .Case("relu6", pdk::act::Relu6)
      .Case("leaky_relu", pdk::act::LeakyRelu)
      .Case("sigmoid", pdk::act::Sigmoid)
      .Case("tanh", pdk::act::Tanh)
      .Case("swish", pdk::act::Swish)
      .Case("hard_swish", pdk::act::HardSwish)
      .Case("gelu", pdk::act::Gelu)
      .Default(-1);
}

bool isF32(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.getElementType().isF32();
}

bool isBf16(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.getElementType().isBF16();
}

/// The bf16 kernels' element type code (pdk::ftype) of an f32 or bf16
/// operand or result type.
int64_t ftypeOf(Type t) {
  return cast<RankedTensorType>(t).getElementType().isBF16() ? pdk::ftype::BF16 : pdk::ftype::F32;
}

/// A model parameter: an argument of the entry function that
/// pd-externalize-weights marked with `pd.weight` (constant for the life of
/// the loaded model, so the kernel may pack it once).
bool isWeight(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return false;
  auto fn = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return fn && arg.getOwner()->isEntryBlock() &&
         fn.getArgAttr(arg.getArgNumber(), "pd.weight") != nullptr;
}

/// `v` as a 1-D tensor (a bias given as [N], [1, N], [1, N, 1, 1], ...).
Value flatten1D(OpBuilder &b, Location loc, Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  if (t.getRank() == 1)
    return v;
  ReassociationIndices all;
  for (int64_t i = 0; i < t.getRank(); ++i)
    all.push_back(i);
  auto flat = RankedTensorType::get({t.getNumElements()}, t.getElementType());
  return tensor::CollapseShapeOp::create(b, loc, flat, v, ArrayRef<ReassociationIndices>{all});
}

/// The inputs of a kernel call and the `slots` that map the kernel's
/// operand slots to them (-1: absent).
struct CallOperands {
  SmallVector<Value> inputs;
  SmallVector<int64_t> slots;
  explicit CallOperands(int64_t numSlots) : slots(numSlots, -1) {}
  /// Passes `v` in `slot`.
  void set(int64_t slot, Value v) {
    slots[slot] = inputs.size();
    inputs.push_back(v);
  }
};

/// Replaces `op` with a kernel call writing a new tensor of its result type.
void replaceWithCall(ConversionPatternRewriter &r, Operation *op, StringRef callee,
                     ValueRange inputs, ArrayRef<int64_t> slots, ArrayRef<int64_t> ints,
                     ArrayRef<float> floats, ValueRange dynSizes) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Value init = tensor::EmptyOp::create(r, op->getLoc(), type, dynSizes);
  auto call = KernelCallOp::create(r, op->getLoc(), TypeRange{type}, r.getStringAttr(callee),
                                   inputs, init, r.getDenseI64ArrayAttr(slots),
                                   r.getDenseI64ArrayAttr(ints), r.getDenseF32ArrayAttr(floats));
  // Recorded in the artifact's manifest (which op went to which kernel).
  call->setAttr("pd.from", r.getStringAttr(op->getName().getStringRef()));
  r.replaceOp(op, call.getResult());
}

/// The geometry every convolution kernel (pdk_conv2d, pdk_qconv2d, the
/// backward kernels) leads with: strides, pads (top, bottom, left, right),
/// dilations and groups.
void setConvGeometry(SmallVectorImpl<int64_t> &ints, ArrayRef<int32_t> s,
                     const std::array<int64_t, 4> &p, ArrayRef<int32_t> d, int64_t groups) {
  namespace conv = pdk::conv;
  ints[conv::StrideH] = s[0];
  ints[conv::StrideW] = s[1];
  ints[conv::PadTop] = p[0];
  ints[conv::PadBottom] = p[1];
  ints[conv::PadLeft] = p[2];
  ints[conv::PadRight] = p[3];
  ints[conv::DilationH] = d[0];
  ints[conv::DilationW] = d[1];
  ints[conv::Groups] = groups;
}

/// The fields pdk_conv2d and pdk_qconv2d both lead with: the geometry and
/// the activation code.
void setConvFields(SmallVectorImpl<int64_t> &ints, ArrayRef<int32_t> s,
                   const std::array<int64_t, 4> &p, ArrayRef<int32_t> d, int64_t groups,
                   int64_t code) {
  namespace conv = pdk::conv;
  static_assert(int64_t(conv::StrideH) == int64_t(pdk::qconv::StrideH) &&
                    int64_t(conv::PadTop) == int64_t(pdk::qconv::PadTop) &&
                    int64_t(conv::DilationH) == int64_t(pdk::qconv::DilationH) &&
                    int64_t(conv::Groups) == int64_t(pdk::qconv::Groups) &&
                    int64_t(conv::Activation) == int64_t(pdk::qconv::Activation),
                "conv:: and qconv:: lead with the same fields");
  setConvGeometry(ints, s, p, d, groups);
  ints[conv::Activation] = code;
}

/// The dynamic sizes of an NCHW convolution's result: the batch, and a
/// dynamic image size (in + pads - (dilation * (k - 1) + 1)) / stride + 1,
/// at least 0 (an image smaller than the window fails in the kernel with its
/// message).
SmallVector<Value> convResultDynamicDims(OpBuilder &r, Location loc, Value input,
                                         RankedTensorType type, RankedTensorType f,
                                         ArrayRef<int32_t> s, ArrayRef<int32_t> d,
                                         ArrayRef<int64_t> p) {
  SmallVector<Value> dyn;
  if (type.isDynamicDim(0))
    dyn.push_back(tensor::DimOp::create(r, loc, input, 0));
  for (int64_t i = 2; i < 4; ++i) {
    if (!type.isDynamicDim(i))
      continue;
    int64_t span = d[i - 2] * (f.getDimSize(i) - 1) + 1;
    Value size = tensor::DimOp::create(r, loc, input, i);
    Value padded = arith::AddIOp::create(
        r, loc, size,
        arith::ConstantIndexOp::create(r, loc, p[2 * (i - 2)] + p[2 * (i - 2) + 1] - span));
    Value out =
        arith::AddIOp::create(r, loc,
                              arith::FloorDivSIOp::create(
                                  r, loc, padded, arith::ConstantIndexOp::create(r, loc, s[i - 2])),
                              arith::ConstantIndexOp::create(r, loc, 1));
    dyn.push_back(arith::MaxSIOp::create(r, loc, out, arith::ConstantIndexOp::create(r, loc, 0)));
  }
  return dyn;
}

/// conv2d / depthwise_conv2d / fused_conv2d -> pdk_conv2d.
template <typename OpTy> struct ConvToKernel : OpConversionPattern<OpTy> {
  ConvToKernel(MLIRContext *ctx) : OpConversionPattern<OpTy>(ctx, kKernelBenefit) {}

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Value input = a.getInput(), filter = a.getFilter(), bias, res;
    StringRef act = "";
    float alpha = 0.f, beta = 0.f;
    if constexpr (std::is_same_v<OpTy, FusedConv2dOp>) {
      bias = a.getBias();
      res = a.getResidualData();
      act = op.getFuseActivation();
      alpha = op.getFuseAlpha().convertToFloat();
      beta = op.getFuseBeta().convertToFloat();
    }
    auto type = cast<RankedTensorType>(op.getType());
    auto in = dyn_cast<RankedTensorType>(input.getType());
    auto f = dyn_cast<RankedTensorType>(filter.getType());
    // A bf16 filter (pd-auto-mixed-precision) selects pdk_conv2d_bf16, which
    // takes f32 or bf16 activations; fp32 needs f32 everywhere.
    bool low = isBf16(filter);
    auto floatOk = [&](Value v) { return isF32(v) || (low && isBf16(v)); };
    if (op.getDataFormat() == "NHWC" || !floatOk(input) || !(low || isF32(filter)) || !in || !f ||
        in.getRank() != 4 || !f.hasStaticShape() || !floatOk(op.getResult()))
      return r.notifyMatchFailure(op, "not an fp32 or bf16 NCHW convolution with a static filter");
    // Dynamic image sizes are fine (oneDNN primitives are made per run-time
    // shape and cached); SAME paddings depend on them, so those convolutions
    // need static sizes here (generated code computes them at run time).
    bool same = op.getPaddingAlgorithm() == "SAME";
    for (int64_t i = 1; i < 4; ++i)
      if ((in.isDynamicDim(i) || type.isDynamicDim(i)) && (i == 1 || same))
        return r.notifyMatchFailure(op, i == 1 ? "dynamic channels"
                                               : "SAME paddings over a dynamic image size");
    int64_t groups = op.getGroups(), code = activationCode(act);
    if (code < 0 || groups < 1 || in.getDimSize(1) != f.getDimSize(1) * groups ||
        f.getDimSize(0) % groups != 0)
      return r.notifyMatchFailure(op, "unsupported activation or group shape");
    if (bias && (!isF32(bias) ||
                 cast<RankedTensorType>(bias.getType()).getNumElements() != f.getDimSize(0)))
      return r.notifyMatchFailure(op, "bias is not one value per output channel");
    if (res &&
        (!floatOk(res) || cast<RankedTensorType>(res.getType()).getShape() != type.getShape()))
      return r.notifyMatchFailure(op, "residual must have the result's shape");
    auto s = op.getStrides();
    auto d = op.getDilations();
    auto p = resolvePads(in, {f.getDimSize(2), f.getDimSize(3)}, s, d, op.getPaddings(),
                         op.getPaddingAlgorithm());
    Location loc = op.getLoc();
    namespace conv = pdk::conv;
    CallOperands ops(conv::NumSlots);
    ops.set(conv::Input, input);
    ops.set(conv::Filter, filter);
    if (bias)
      ops.set(conv::Bias, flatten1D(r, loc, bias));
    if (res)
      ops.set(conv::Residual, res);
    SmallVector<int64_t> ints(low ? int64_t{pdk::bconv::NumInts} : int64_t{conv::NumInts});
    setConvFields(ints, s, p, d, groups, code);
    ints[conv::ConstWeights] = isWeight(op.getFilter()) ? 1 : 0;
    // pd-kernel-layouts may change these.
    ints[conv::SrcLayout] = ints[conv::ResLayout] = ints[conv::DstLayout] = pdk::layout::NCHW;
    if (low) {
      ints[pdk::bconv::SrcType] = ftypeOf(input.getType());
      ints[pdk::bconv::ResType] = res ? ftypeOf(res.getType()) : pdk::ftype::F32;
      ints[pdk::bconv::DstType] = ftypeOf(type);
    }
    SmallVector<float> floats(conv::NumFloats);
    floats[conv::Alpha] = alpha;
    floats[conv::Beta] = beta;
    SmallVector<Value> dyn = convResultDynamicDims(r, loc, input, type, f, s, d, p);
    replaceWithCall(r, op, low ? "pdk_conv2d_bf16" : "pdk_conv2d", ops.inputs, ops.slots, ints,
                    floats, dyn);
    return success();
  }
};

/// The kernels' element type code (pdk::qtype) of an int8-kernel operand.
int64_t qtypeOf(Type t) {
  Type e = cast<RankedTensorType>(t).getElementType();
  if (e.isF32())
    return pdk::qtype::F32;
  if (e.isUnsignedInteger(8))
    return pdk::qtype::U8;
  return pdk::qtype::S8;
}

/// Per-channel scales as a constant operand of an int8 kernel call.
Value scalesOperand(OpBuilder &b, Location loc, ArrayRef<float> scales) {
  auto type = RankedTensorType::get({static_cast<int64_t>(scales.size())}, b.getF32Type());
  return arith::ConstantOp::create(b, loc, type, DenseElementsAttr::get(type, scales));
}

/// pd.quantized_conv2d -> pdk_qconv2d.
struct QuantizedConvToKernel : OpConversionPattern<QuantizedConv2dOp> {
  QuantizedConvToKernel(MLIRContext *ctx)
      : OpConversionPattern<QuantizedConv2dOp>(ctx, kKernelBenefit) {}

  LogicalResult matchAndRewrite(QuantizedConv2dOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto in = cast<RankedTensorType>(a.getInput().getType());
    auto f = cast<RankedTensorType>(a.getFilter().getType());
    int64_t code = activationCode(op.getFuseActivation());
    if (!f.hasStaticShape() || !isWeight(op.getFilter()) || code < 0)
      return r.notifyMatchFailure(op, "needs a constant static filter and a known activation");
    bool same = op.getPaddingAlgorithm() == "SAME";
    for (int64_t i = 1; i < 4; ++i)
      if ((in.isDynamicDim(i) || type.isDynamicDim(i)) && (i == 1 || same))
        return r.notifyMatchFailure(op, i == 1 ? "dynamic channels"
                                               : "SAME paddings over a dynamic image size");
    auto s = op.getStrides();
    auto d = op.getDilations();
    auto p = resolvePads(in, {f.getDimSize(2), f.getDimSize(3)}, s, d, op.getPaddings(),
                         op.getPaddingAlgorithm());
    Location loc = op.getLoc();
    namespace qconv = pdk::qconv;
    CallOperands ops(qconv::NumSlots);
    ops.set(qconv::Input, a.getInput());
    ops.set(qconv::Filter, a.getFilter());
    if (Value bias = a.getBias())
      ops.set(qconv::Bias, flatten1D(r, loc, bias));
    if (Value res = a.getResidualData())
      ops.set(qconv::Residual, res);
    ops.set(qconv::Scales, scalesOperand(r, loc, op.getFilterScales()));
    SmallVector<int64_t> ints(qconv::NumInts);
    setConvFields(ints, s, p, d, op.getGroups(), code);
    ints[qconv::SrcType] = qtypeOf(in);
    ints[qconv::DstType] = qtypeOf(type);
    // pd-kernel-layouts may change these.
    ints[qconv::SrcLayout] = ints[qconv::ResLayout] = ints[qconv::DstLayout] = pdk::layout::NCHW;
    ints[qconv::ResType] =
        a.getResidualData() ? qtypeOf(a.getResidualData().getType()) : pdk::qtype::F32;
    SmallVector<float> floats(qconv::NumFloats);
    floats[qconv::Alpha] = op.getFuseAlpha().convertToFloat();
    floats[qconv::Beta] = op.getFuseBeta().convertToFloat();
    floats[qconv::SrcScale] = op.getInputScale().convertToFloat();
    floats[qconv::DstScale] = op.getOutputScale().convertToFloat();
    floats[qconv::ResScale] = op.getResidualScale().convertToFloat();
    SmallVector<Value> dyn = convResultDynamicDims(r, loc, a.getInput(), type, f, s, d, p);
    replaceWithCall(r, op, "pdk_qconv2d", ops.inputs, ops.slots, ints, floats, dyn);
    return success();
  }
};

/// pd.quantized_fc -> pdk_qmatmul (kind Fc).
struct QuantizedFcToKernel : OpConversionPattern<QuantizedFcOp> {
  QuantizedFcToKernel(MLIRContext *ctx) : OpConversionPattern<QuantizedFcOp>(ctx, kKernelBenefit) {}

  LogicalResult matchAndRewrite(QuantizedFcOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto in = cast<RankedTensorType>(a.getInput().getType());
    auto w = cast<RankedTensorType>(a.getW().getType());
    int64_t code = activationCode(op.getActivationType());
    if (!w.hasStaticShape() || !isWeight(op.getW()) || code < 0)
      return r.notifyMatchFailure(op, "needs a constant static weight and a known activation");
    for (int64_t i = op.getInNumColDims(); i < in.getRank(); ++i)
      if (in.isDynamicDim(i))
        return r.notifyMatchFailure(op, "the flattened K dims must be static");
    Location loc = op.getLoc();
    namespace qmm = pdk::qmatmul;
    CallOperands ops(qmm::NumSlots);
    ops.set(qmm::A, a.getInput());
    ops.set(qmm::B, a.getW());
    if (Value bias = a.getBias())
      ops.set(qmm::Bias, flatten1D(r, loc, bias));
    ops.set(qmm::Scales, scalesOperand(r, loc, op.getWeightScales()));
    SmallVector<int64_t> ints(qmm::NumInts);
    ints[qmm::Kind] = pdk::matmul::Fc;
    ints[qmm::Activation] = code;
    ints[qmm::SrcType] = qtypeOf(in);
    ints[qmm::DstType] = qtypeOf(type);
    SmallVector<float> floats(qmm::NumFloats);
    floats[qmm::Alpha] = 0.f;
    floats[qmm::SrcScale] = op.getInputScale().convertToFloat();
    floats[qmm::DstScale] = op.getOutputScale().convertToFloat();
    SmallVector<Value> dyn;
    for (int64_t i = 0; i + 1 < type.getRank(); ++i)
      if (type.isDynamicDim(i))
        dyn.push_back(tensor::DimOp::create(r, loc, a.getInput(), i));
    replaceWithCall(r, op, "pdk_qmatmul", ops.inputs, ops.slots, ints, floats, dyn);
    return success();
  }
};

/// The integer fields of a pdk_matmul call.
SmallVector<int64_t> matmulInts(int64_t kind, bool transA, bool transB, int64_t code,
                                bool constWeights) {
  namespace mm = pdk::matmul;
  SmallVector<int64_t> ints(mm::NumInts);
  ints[mm::Kind] = kind;
  ints[mm::TransA] = transA ? 1 : 0;
  ints[mm::TransB] = transB ? 1 : 0;
  ints[mm::Activation] = code;
  ints[mm::ConstWeights] = constWeights ? 1 : 0;
  return ints;
}

/// `ints` of pdk_matmul extended to pdk_matmul_bf16's (the element types of
/// A, B and the result).
SmallVector<int64_t> bf16MatmulInts(SmallVector<int64_t> ints, Value a, Value b, Type result) {
  ints.resize(pdk::bmatmul::NumInts);
  ints[pdk::bmatmul::AType] = ftypeOf(a.getType());
  ints[pdk::bmatmul::BType] = ftypeOf(b.getType());
  ints[pdk::bmatmul::DstType] = ftypeOf(result);
  return ints;
}

/// The float fields of a pdk_matmul call (no activation parameter yet).
SmallVector<float> matmulFloats() {
  SmallVector<float> floats(pdk::matmul::NumFloats);
  floats[pdk::matmul::Alpha] = 0.f;
  return floats;
}

/// fc -> pdk_matmul (kind Fc: Input flattened to [M, K]).
struct FcToKernel : OpConversionPattern<FcOp> {
  FcToKernel(MLIRContext *ctx) : OpConversionPattern<FcOp>(ctx, kKernelBenefit) {}

  LogicalResult matchAndRewrite(FcOp op, OpAdaptor a, ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto w = dyn_cast<RankedTensorType>(a.getW().getType());
    auto in = dyn_cast<RankedTensorType>(a.getInput().getType());
    int64_t code = activationCode(op.getActivationType());
    // A bf16 weight selects pdk_matmul_bf16 (f32 or bf16 input and result).
    bool low = isBf16(a.getW());
    auto floatOk = [&](Value v) { return isF32(v) || (low && isBf16(v)); };
    if (!floatOk(a.getInput()) || !(low || isF32(a.getW())) || !in || !w || w.getRank() != 2 ||
        !w.hasStaticShape() || op.getPaddingWeights() || code < 0 || !floatOk(op.getResult()))
      return r.notifyMatchFailure(op, "not an fp32 or bf16 fc with a static 2-D weight");
    int64_t ncol = op.getInNumColDims();
    for (int64_t i = ncol; i < in.getRank(); ++i)
      if (in.isDynamicDim(i))
        return r.notifyMatchFailure(op, "the flattened K dims must be static");
    Value bias = a.getBias();
    if (bias && (!isF32(bias) ||
                 cast<RankedTensorType>(bias.getType()).getNumElements() != w.getDimSize(1)))
      return r.notifyMatchFailure(op, "bias is not one value per output column");
    Location loc = op.getLoc();
    CallOperands ops(pdk::matmul::NumSlots);
    ops.set(pdk::matmul::A, a.getInput());
    ops.set(pdk::matmul::B, a.getW());
    if (bias)
      ops.set(pdk::matmul::Bias, flatten1D(r, loc, bias));
    SmallVector<Value> dyn;
    for (int64_t i = 0; i + 1 < type.getRank(); ++i)
      if (type.isDynamicDim(i))
        dyn.push_back(tensor::DimOp::create(r, loc, a.getInput(), i));
    SmallVector<int64_t> ints =
        matmulInts(pdk::matmul::Fc, false, false, code, isWeight(op.getW()));
    if (low)
      ints = bf16MatmulInts(ints, a.getInput(), a.getW(), type);
    replaceWithCall(r, op, low ? "pdk_matmul_bf16" : "pdk_matmul", ops.inputs, ops.slots, ints,
                    matmulFloats(), dyn);
    return success();
  }
};

/// matmul_v2 -> pdk_matmul (kind Batched), when each operand's batch dims are
/// absent, all 1, or exactly the result's.
/// The dynamic result dims of a batched product of `x` and `y` (rank >= 2
/// each, batch dims all 1 or the result's), or failure with why.
FailureOr<SmallVector<Value>> batchedProductDims(OpBuilder &b, Location loc, Value x, Value y,
                                                 RankedTensorType type, bool tx, bool ty,
                                                 std::string &why) {
  auto xt = cast<RankedTensorType>(x.getType()), yt = cast<RankedTensorType>(y.getType());
  int64_t nb = type.getRank() - 2;
  if (!batchFitsProduct(xt, type) || !batchFitsProduct(yt, type)) {
    why = "batch dims broadcast partially";
    return failure();
  }
  SmallVector<Value> dyn;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (!type.isDynamicDim(i))
      continue;
    Value v;
    if (i < nb) {
      for (auto [o, t] : {std::pair<Value, RankedTensorType>{x, xt}, {y, yt}})
        if (!v && t.getRank() == type.getRank() && t.isDynamicDim(i))
          v = tensor::DimOp::create(b, loc, o, i);
    } else if (i == nb) {
      v = tensor::DimOp::create(b, loc, x, tx ? xt.getRank() - 1 : xt.getRank() - 2);
    } else {
      v = tensor::DimOp::create(b, loc, y, ty ? yt.getRank() - 2 : yt.getRank() - 1);
    }
    if (!v) {
      why = "cannot size a dynamic batch dim";
      return failure();
    }
    dyn.push_back(v);
  }
  return dyn;
}

struct MatmulV2ToKernel : OpConversionPattern<MatmulV2Op> {
  MatmulV2ToKernel(MLIRContext *ctx) : OpConversionPattern<MatmulV2Op>(ctx, kKernelBenefit) {}

  LogicalResult matchAndRewrite(MatmulV2Op op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Value x = a.getX(), y = a.getY();
    auto type = cast<RankedTensorType>(op.getType());
    auto xt = dyn_cast<RankedTensorType>(x.getType()), yt = dyn_cast<RankedTensorType>(y.getType());
    // A bf16 operand selects pdk_matmul_bf16 (each side f32 or bf16).
    bool low = isBf16(x) || isBf16(y);
    auto floatOk = [&](Value v) { return isF32(v) || (low && isBf16(v)); };
    if (!floatOk(x) || !floatOk(y) || !xt || !yt || xt.getRank() < 2 || yt.getRank() < 2 ||
        type.getRank() < 2 || !floatOk(op.getResult()))
      return r.notifyMatchFailure(op, "not an fp32 or bf16 matrix product of rank >= 2 operands");
    bool tx = op.getTransX(), ty = op.getTransY();
    std::string why;
    FailureOr<SmallVector<Value>> dyn = batchedProductDims(r, op.getLoc(), x, y, type, tx, ty, why);
    if (failed(dyn))
      return r.notifyMatchFailure(op, why);
    CallOperands ops(pdk::matmul::NumSlots);
    ops.set(pdk::matmul::A, x);
    ops.set(pdk::matmul::B, y);
    SmallVector<int64_t> ints =
        matmulInts(pdk::matmul::Batched, tx, ty, pdk::act::None, isWeight(op.getY()));
    if (low)
      ints = bf16MatmulInts(ints, x, y, type);
    replaceWithCall(r, op, low ? "pdk_matmul_bf16" : "pdk_matmul", ops.inputs, ops.slots, ints,
                    matmulFloats(), *dyn);
    return success();
  }
};

/// pd.quantized_matmul -> pdk_qbmatmul (both sides run-time int8 tensors).
struct QuantizedMatmulToKernel : OpConversionPattern<QuantizedMatmulOp> {
  QuantizedMatmulToKernel(MLIRContext *ctx)
      : OpConversionPattern<QuantizedMatmulOp>(ctx, kKernelBenefit) {}

  LogicalResult matchAndRewrite(QuantizedMatmulOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getType());
    bool tx = op.getTransX(), ty = op.getTransY();
    std::string why;
    FailureOr<SmallVector<Value>> dyn =
        batchedProductDims(r, op.getLoc(), a.getX(), a.getY(), type, tx, ty, why);
    if (failed(dyn))
      return r.notifyMatchFailure(op, why);
    CallOperands ops(pdk::matmul::NumSlots);
    ops.set(pdk::matmul::A, a.getX());
    ops.set(pdk::matmul::B, a.getY());
    SmallVector<int64_t> ints =
        matmulInts(pdk::matmul::Batched, tx, ty, pdk::act::None, /*constWeights=*/false);
    ints.push_back(qtypeOf(a.getX().getType()));
    ints.push_back(qtypeOf(a.getY().getType()));
    SmallVector<float> floats(pdk::qbmatmul::NumFloats);
    floats[pdk::qbmatmul::Scale] =
        static_cast<float>(double(op.getAlpha().convertToFloat()) *
                           op.getXScale().convertToFloat() * op.getYScale().convertToFloat());
    replaceWithCall(r, op, "pdk_qbmatmul", ops.inputs, ops.slots, ints, floats, *dyn);
    return success();
  }
};

/// softmax / log_softmax -> pdk_softmax (ints: axis, log). oneDNN's
/// softmax is vectorized and threaded; the generated one calls libm's
/// scalar expf per element (BERT-base: 12 x 12 x 128 x 128 per sequence).
template <typename OpTy, bool Log> struct SoftmaxToKernel : OpConversionPattern<OpTy> {
  SoftmaxToKernel(MLIRContext *ctx) : OpConversionPattern<OpTy>(ctx, kKernelBenefit) {}

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Value x = a.getX();
    auto type = cast<RankedTensorType>(op.getType());
    auto xt = dyn_cast<RankedTensorType>(x.getType());
    // oneDNN 2.6 takes at most 6 dims here (DNNL_MAX_NDIMS is 12, but
    // softmax is only implemented up to 6).
    if (!isF32(x) || !xt || xt.getRank() < 1 || xt.getRank() > 6 || xt != type)
      return r.notifyMatchFailure(op, "not an fp32 softmax of rank 1 to 6");
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + type.getRank() : op.getAxis();
    if (axis < 0 || axis >= type.getRank())
      return r.notifyMatchFailure(op, "axis out of range");
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (type.isDynamicDim(i))
        dyn.push_back(tensor::DimOp::create(r, op.getLoc(), x, i));
    CallOperands ops(pdk::softmax::NumSlots);
    ops.set(pdk::softmax::Input, x);
    SmallVector<int64_t> ints(pdk::softmax::NumInts);
    ints[pdk::softmax::Axis] = axis;
    ints[pdk::softmax::Log] = Log ? 1 : 0;
    replaceWithCall(r, op, "pdk_softmax", ops.inputs, ops.slots, ints, {}, dyn);
    return success();
  }
};

/// conv2d_grad_input -> pdk_conv2d_backward_data, conv2d_grad_filter ->
/// pdk_conv2d_backward_weights (fp32 NCHW with static shapes, as a train
/// step has): oneDNN's backward primitives instead of the loop nests.
template <typename OpTy, bool Data> struct ConvGradToKernel : OpConversionPattern<OpTy> {
  ConvGradToKernel(MLIRContext *ctx) : OpConversionPattern<OpTy>(ctx, kKernelBenefit) {}

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    namespace cg = pdk::convgrad;
    Value x = a.getInput(), w = a.getFilter(), dy = a.getOutputGrad();
    auto xt = dyn_cast<RankedTensorType>(x.getType());
    auto wt = dyn_cast<RankedTensorType>(w.getType());
    auto dyt = dyn_cast<RankedTensorType>(dy.getType());
    if (op.getDataFormat() == "NHWC" || op.getPaddingAlgorithm() == "SAME" || !isF32(x) ||
        !isF32(w) || !isF32(dy) || !xt || !wt || !dyt || !xt.hasStaticShape() ||
        !wt.hasStaticShape() || !dyt.hasStaticShape() || xt.getRank() != 4 || wt.getRank() != 4 ||
        dyt.getRank() != 4)
      return r.notifyMatchFailure(op, "not an fp32 NCHW convolution with static shapes");
    int64_t groups = op.getGroups();
    if (groups < 1 || xt.getDimSize(1) != wt.getDimSize(1) * groups ||
        wt.getDimSize(0) % groups != 0)
      return r.notifyMatchFailure(op, "unsupported group shape");
    auto s = op.getStrides();
    auto d = op.getDilations();
    auto p = resolvePads(xt, {wt.getDimSize(2), wt.getDimSize(3)}, s, d, op.getPaddings(),
                         op.getPaddingAlgorithm());
    CallOperands ops(cg::NumSlots);
    if (Data)
      ops.set(cg::Filter, w);
    else
      ops.set(cg::Input, x);
    ops.set(cg::OutputGrad, dy);
    SmallVector<int64_t> ints(cg::NumInts);
    setConvGeometry(ints, s, p, d, groups);
    replaceWithCall(r, op, Data ? "pdk_conv2d_backward_data" : "pdk_conv2d_backward_weights",
                    ops.inputs, ops.slots, ints, {}, {});
    return success();
  }
};

/// Max pool2d right after a convolution kernel (fp32, or int8 with a float
/// result; or such a pooling) -> pdk_pool2d, so the activations between the
/// convolutions before and after it can stay in their layout
/// (pd-kernel-layouts; the generated pooling reads plain NCHW, which cost
/// ResNet-50 a reorder before the stem's pooling and one per convolution
/// after it). int8 pooling (pd-quantize's: max over quantized values, or an
/// average from one int8 tensor to another, `pd.int8_rescale` the change
/// of step) always. Elsewhere pooling stays generated code.
struct PoolToKernel : OpConversionPattern<Pool2dOp> {
  PoolToKernel(MLIRContext *ctx) : OpConversionPattern<Pool2dOp>(ctx, kKernelBenefit) {}

  LogicalResult matchAndRewrite(Pool2dOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Value x = a.getX();
    auto type = cast<RankedTensorType>(op.getType());
    auto in = dyn_cast<RankedTensorType>(x.getType());
    // int8 pooling (pd-quantize's, over quantized values) runs only here.
    bool int8 = in && in.getElementType().isInteger(8);
    bool avg = op.getPoolingType() == "avg";
    if (int8 && avg) {
      // pd-quantize makes these only where this kernel runs them; the
      // generated pooling would average the integers as they are.
      if (failed(int8AvgFits(op, in, type)))
        return op.emitOpError("int8 average pooling needs a fixed NCHW window over static "
                              "channels and image size without ceil_mode overhang");
    } else {
      auto producer = x.getDefiningOp<KernelCallOp>();
      if (!int8 && (!producer ||
                    (producer.getCallee() != "pdk_conv2d" && producer.getCallee() != "pdk_pool2d" &&
                     producer.getCallee() != "pdk_qconv2d")))
        return r.notifyMatchFailure(op, "not right after a convolution or pooling kernel");
      if (avg || op.getGlobalPooling() || op.getAdaptive() || op.getDataFormat() == "NHWC" ||
          !(int8 || isF32(x)) || !in || in.getRank() != 4 ||
          type.getElementType() != in.getElementType())
        return r.notifyMatchFailure(op, "not an fp32 or int8 NCHW max pooling with a fixed window");
      // The padding ceil_mode adds below depends on the image size; over a
      // dynamic one the generated pooling computes it.
      for (int64_t i = 1; i < 4; ++i)
        if (in.isDynamicDim(i) || type.isDynamicDim(i))
          return r.notifyMatchFailure(op, "dynamic channels or image size");
    }
    SmallVector<int64_t> ks, st, p;
    int64_t extraH, extraW;
    window(op, in, type, ks, st, p, extraH, extraW);
    SmallVector<Value> dyn;
    if (type.isDynamicDim(0))
      dyn.push_back(tensor::DimOp::create(r, op.getLoc(), x, 0));
    namespace pool = pdk::pool;
    CallOperands ops(pool::NumSlots);
    ops.set(pool::Input, x);
    SmallVector<int64_t> ints(pool::NumInts);
    ints[pool::Kind] = !avg                ? pool::Max
                       : op.getExclusive() ? pool::AvgExcludePadding
                                           : pool::AvgIncludePadding;
    ints[pool::WindowH] = ks[0];
    ints[pool::WindowW] = ks[1];
    ints[pool::StrideH] = st[0];
    ints[pool::StrideW] = st[1];
    ints[pool::PadTop] = p[0];
    ints[pool::PadBottom] = p[1] + extraH;
    ints[pool::PadLeft] = p[2];
    ints[pool::PadRight] = p[3] + extraW;
    // pd-kernel-layouts may change these.
    ints[pool::SrcLayout] = ints[pool::DstLayout] = pdk::layout::NCHW;
    ints[pool::DataType] = int8 ? qtypeOf(in) : pdk::qtype::F32;
    ints[pool::DstDataType] = int8 ? qtypeOf(type) : pdk::qtype::F32;
    float rescale = 1.f;
    if (auto f = op->getAttrOfType<FloatAttr>("pd.int8_rescale"))
      rescale = f.getValue().convertToFloat();
    replaceWithCall(r, op, "pdk_pool2d", ops.inputs, ops.slots, ints, {rescale}, dyn);
    return success();
  }

  /// The window, strides and paddings (top, bottom, left, right) of `op`
  /// over a static image, and the extra bottom / right padding ceil_mode's
  /// last partial window needs (padding never wins a max).
  static void window(Pool2dOp op, RankedTensorType in, RankedTensorType type,
                     SmallVectorImpl<int64_t> &ks, SmallVectorImpl<int64_t> &st,
                     SmallVectorImpl<int64_t> &p, int64_t &extraH, int64_t &extraW) {
    if (op.getGlobalPooling()) {
      ks.assign({in.getDimSize(2), in.getDimSize(3)});
      st.assign({1, 1});
      p.assign({0, 0, 0, 0});
    } else {
      ks.assign(op.getKsize().begin(), op.getKsize().end());
      st.assign(op.getStrides().begin(), op.getStrides().end());
      auto pads = resolvePads(in, {ks[0], ks[1]}, op.getStrides(), {1, 1}, op.getPaddings(),
                              op.getPaddingAlgorithm());
      p.assign(pads.begin(), pads.end());
    }
    extraH = std::max<int64_t>(
        (type.getDimSize(2) - 1) * st[0] + ks[0] - (in.getDimSize(2) + p[0] + p[1]), 0);
    extraW = std::max<int64_t>(
        (type.getDimSize(3) - 1) * st[1] + ks[1] - (in.getDimSize(3) + p[2] + p[3]), 0);
  }

  static LogicalResult int8AvgFits(Pool2dOp op, RankedTensorType in, RankedTensorType type) {
    if (op.getAdaptive() || op.getDataFormat() == "NHWC" || in.getRank() != 4 ||
        !type.getElementType().isInteger(8))
      return failure();
    for (int64_t i = 1; i < 4; ++i)
      if (in.isDynamicDim(i) || type.isDynamicDim(i))
        return failure();
    SmallVector<int64_t> ks, st, p;
    int64_t extraH, extraW;
    window(op, in, type, ks, st, p, extraH, extraW);
    return success(extraH == 0 && extraW == 0);
  }
};
} // namespace

namespace mlir::pd {
#define GEN_PASS_DEF_PDKERNELLAYOUTSPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"
} // namespace mlir::pd

namespace {
namespace conv = pdk::conv;
namespace pool = pdk::pool;
namespace timing = pdk::timing;
using pdk::layout::NChw16c;
using pdk::layout::NChw8c;
using pdk::layout::NHWC;

bool isConvCall(Operation *op) {
  auto call = dyn_cast_or_null<KernelCallOp>(op);
  // A call with rank-5 (channel-blocked) sides keeps the layouts
  // pd-train-layouts gave it.
  return call && (call.getCallee() == "pdk_conv2d" || call.getCallee() == "pdk_conv2d_bf16") &&
         call.getResult() && cast<RankedTensorType>(call.getResult().getType()).getRank() == 4 &&
         cast<RankedTensorType>(call.getInputs()[call.getSlots()[conv::Input]].getType())
                 .getRank() == 4;
}

/// pdk_conv2d_bf16 (bconv:: fields; no Winograd form).
bool isBf16ConvCall(KernelCallOp call) { return call.getCallee() == "pdk_conv2d_bf16"; }

bool isPoolCall(Operation *op) {
  auto call = dyn_cast_or_null<KernelCallOp>(op);
  return call && call.getCallee() == "pdk_pool2d" && call.getResult();
}

/// The activation slot (`input` or `residual`) that `use` feeds in a call
/// `isCall` accepts, or -1.
int64_t activationSlotOf(OpOperand &use, bool (*isCall)(Operation *), int64_t input,
                         int64_t residual) {
  auto call = dyn_cast<KernelCallOp>(use.getOwner());
  if (!call || !isCall(call) || use.getOperandNumber() >= call.getInputs().size())
    return -1;
  ArrayRef<int64_t> slots = call.getSlots();
  for (int64_t s : {input, residual})
    if (slots[s] == static_cast<int64_t>(use.getOperandNumber()))
      return s;
  return -1;
}

/// The conv slot `use` feeds (input or residual), or -1.
int64_t convSlotOf(OpOperand &use) {
  return activationSlotOf(use, isConvCall, conv::Input, conv::Residual);
}

/// The ints of kernel calls as a layout plan changes them: a copy of a
/// call's ints on first use.
struct PlanInts {
  DenseMap<Operation *, SmallVector<int64_t>> plan;
  SmallVector<int64_t> &operator()(KernelCallOp call) {
    auto it = plan.find(call);
    if (it == plan.end())
      it = plan.try_emplace(call, SmallVector<int64_t>(call.getInts())).first;
    return it->second;
  }
};

/// Whether `use` may read a tensor in the convolutions' layout: a conv's
/// input or residual, a `tensor.dim` (the logical shape is unchanged), or
/// the input of a pooling call whose result only such uses read.
bool readsLayout(OpOperand &use) {
  Operation *user = use.getOwner();
  if (isa<tensor::DimOp>(user) || convSlotOf(use) >= 0)
    return true;
  return isPoolCall(user) && use.getOperandNumber() == 0 &&
         llvm::all_of(cast<KernelCallOp>(user).getResult().getUses(), readsLayout);
}

/// The ints every conv (and pool) call gets when activations between
/// convolutions use layout `b` (calls not listed keep theirs). Poolings
/// between convolutions take the layout on both sides.
DenseMap<Operation *, SmallVector<int64_t>> layoutPlan(Operation *root, int64_t b) {
  SmallVector<KernelCallOp> producers;
  root->walk([&](KernelCallOp call) {
    if (!isConvCall(call))
      return;
    auto type = cast<RankedTensorType>(call.getResult().getType());
    if (b != NHWC && type.getDimSize(1) % b != 0)
      return;
    if (llvm::all_of(call.getResult().getUses(), readsLayout))
      producers.push_back(call);
  });
  PlanInts ints;
  // The readers of a tensor in layout `b` (readsLayout holds for each).
  std::function<void(Value)> readInLayout = [&](Value v) {
    for (OpOperand &use : v.getUses()) {
      auto call = dyn_cast<KernelCallOp>(use.getOwner());
      if (!call)
        continue;
      if (int64_t slot = convSlotOf(use); slot >= 0) {
        ints(call)[slot == conv::Input ? conv::SrcLayout : conv::ResLayout] = b;
      } else if (isPoolCall(call)) {
        ints(call)[pool::SrcLayout] = b;
        ints(call)[pool::DstLayout] = b;
        readInLayout(call.getResult());
      }
    }
  };
  for (KernelCallOp p : producers) {
    ints(p)[conv::DstLayout] = b;
    readInLayout(p.getResult());
  }
  return ints.plan;
}

/// An int8 convolution call (pdk_qconv2d) with a result.
bool isQConvCall(Operation *op) {
  auto call = dyn_cast_or_null<KernelCallOp>(op);
  return call && call.getCallee() == "pdk_qconv2d" && call.getResult();
}

/// The int8 conv slot `use` feeds (input or residual), or -1.
int64_t qconvSlotOf(OpOperand &use) {
  return activationSlotOf(use, isQConvCall, pdk::qconv::Input, pdk::qconv::Residual);
}

/// A linalg.generic computing each element from the same element of its
/// inputs (identity maps over operands of one shape, parallel loops, an
/// output it does not read): a quantize, a dequantize, an activation, an
/// add of two such tensors. It computes the same whatever order the
/// elements have in memory, so a layout passes through it when every input
/// has that layout.
bool isLayoutTransparent(Operation *op) {
  auto g = dyn_cast<linalg::GenericOp>(op);
  if (!g || g.getNumDpsInputs() < 1 || g.getNumDpsInits() != 1 || g->getNumResults() != 1 ||
      g.getNumReductionLoops() != 0 || g.payloadUsesValueFromOperand(g.getDpsInitOperand(0)))
    return false;
  auto out = dyn_cast<RankedTensorType>(g->getResult(0).getType());
  if (!out)
    return false;
  for (OpOperand *in : g.getDpsInputOperands()) {
    auto t = dyn_cast<RankedTensorType>(in->get().getType());
    if (!t || t.getShape() != out.getShape())
      return false;
  }
  return llvm::all_of(g.getIndexingMapsArray(), [](AffineMap m) { return m.isIdentity(); });
}

/// The tensors `op` (a pooling call or an elementwise map) computes its
/// result from, element for element.
SmallVector<Value> layoutSources(Operation *op) {
  if (isPoolCall(op))
    return {op->getOperand(0)};
  SmallVector<Value> ins;
  for (OpOperand *in : cast<linalg::GenericOp>(op).getDpsInputOperands())
    ins.push_back(in->get());
  return ins;
}

/// The ints of the int8 conv and pool calls whose activations go channels
/// last: oneDNN 2.6's int8 convolutions want NHWC (on every ISA), so the
/// tensors from int8 convolutions to int8 convolutions stay NHWC, through
/// pooling calls and elementwise maps (the next block's quantizer; a QAT
/// program's residual add of two int8 tensors), and the reorders around
/// each call go. The largest such set: every candidate (an int8 conv's
/// result, a pooling's or a map's) to begin with, then out goes any whose
/// reader needs the plain layout (anything but an int8 conv, a `tensor.dim`,
/// or a pooling or map whose result stays) or, for a pooling or a map,
/// whose sources are not all channels last; until nothing changes.
DenseMap<Operation *, SmallVector<int64_t>> channelsLastPlan(Operation *root) {
  namespace qconv = pdk::qconv;
  llvm::SetVector<Value> last;
  root->walk([&](Operation *op) {
    if ((isQConvCall(op) || isPoolCall(op) || isLayoutTransparent(op)) &&
        cast<RankedTensorType>(op->getResult(0).getType()).getRank() == 4)
      last.insert(op->getResult(0));
  });
  auto stays = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (!isQConvCall(def))
      for (Value in : layoutSources(def))
        if (!last.contains(in))
          return false;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<tensor::DimOp>(user) || qconvSlotOf(use) >= 0)
        continue;
      bool passes = (isPoolCall(user) && use.getOperandNumber() == 0) ||
                    (isLayoutTransparent(user) && cast<linalg::GenericOp>(user).isDpsInput(&use));
      if (!passes || !last.contains(user->getResult(0)))
        return false;
    }
    return true;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (Value v : SmallVector<Value>(last.begin(), last.end()))
      if (!stays(v)) {
        last.remove(v);
        changed = true;
      }
  }
  PlanInts ints;
  for (Value v : last) {
    auto call = dyn_cast<KernelCallOp>(v.getDefiningOp());
    if (call && isQConvCall(call))
      ints(call)[qconv::DstLayout] = NHWC;
    else if (call)
      ints(call)[pool::SrcLayout] = ints(call)[pool::DstLayout] = NHWC;
    for (OpOperand &use : v.getUses())
      if (int64_t slot = qconvSlotOf(use); slot >= 0)
        ints(cast<KernelCallOp>(
            use.getOwner()))[slot == qconv::Input ? qconv::SrcLayout : qconv::ResLayout] = NHWC;
  }
  return ints.plan;
}

const char *layoutName(int64_t b) {
  return b == NHWC ? "nhwc" : b == NChw8c ? "nChw8c" : b == NChw16c ? "nChw16c" : "nchw";
}

struct PdKernelLayoutsPass : mlir::pd::impl::PdKernelLayoutsPassBase<PdKernelLayoutsPass> {
  using Base::Base;
  void runOnOperation() override {
    int64_t b = block;
    func::FuncOp fn = getOperation();
    winogradTimings.clear();
    if (winograd != "auto" && winograd != "never" && winograd != "always" &&
        winograd != "always4") {
      fn.emitError("pd-kernel-layouts: winograd must be auto, never, always or always4, not '")
          << winograd << "'";
      return signalPassFailure();
    }
    if (StringRef(winograd).starts_with("always") && b == NChw16c) {
      fn.emitError("pd-kernel-layouts: winograd=")
          << winograd << " needs nChw8c or NHWC (block 8, -1 or 0), not nChw16c";
      return signalPassFailure();
    }
    if (b == 0) {
      llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
      // What oneDNN 2.6 picks for `any`: NHWC for its AVX-512 brgemm
      // convolutions (nChw16c there cost a reorder on each side: 43% of
      // MobileNetV2's oneDNN time), nChw8c for the AVX2 ones. On AVX-512
      // hosts both kinds of kernels exist, and which is faster depends on
      // the shapes (MobileNetV2 batch 8: nChw8c 29 ms, NHWC 34 ms; ResNet-50
      // batch 8: NHWC 5% faster), so with a kernel library to measure with
      // and static shapes, the convolutions are timed both ways. AVX2 hosts
      // are timed too: oneDNN has NHWC kernels there as well, and where it
      // has none the call falls back to a reorder, which the timing sees.
      b = features.lookup("avx512f") ? NHWC : NChw8c;
      if (!measure.empty()) {
        std::optional<int64_t> chosen =
            choose(fn, {b, b == NHWC ? int64_t{NChw8c} : int64_t{NHWC}});
        if (!chosen)
          return signalPassFailure();
        b = *chosen;
      }
    } else if (b != NChw8c && b != NChw16c && b != NHWC) {
      fn.emitError("pd-kernel-layouts: block must be 8, 16, -1 (NHWC) or 0, not ") << b;
      return signalPassFailure();
    }
    for (auto &[op, ints] : layoutPlan(fn, b))
      cast<KernelCallOp>(op).setInts(ints);
    for (auto &[op, ints] : channelsLastPlan(fn))
      cast<KernelCallOp>(op).setInts(ints);
    // The choice (with the times when measured) for the artifact's manifest.
    int64_t convs = 0;
    fn.walk([&](KernelCallOp c) { convs += isConvCall(c); });
    if (convs == 0)
      return;
    MLIRContext *ctx = fn.getContext();
    SmallVector<NamedAttribute> record;
    if (auto done = fn->getAttrOfType<DictionaryAttr>("pd.conv_layout"))
      record.append(done.begin(), done.end());
    else
      record = {NamedAttribute(StringAttr::get(ctx, "choice"), StringAttr::get(ctx, layoutName(b))),
                NamedAttribute(StringAttr::get(ctx, "convolutions"),
                               IntegerAttr::get(IntegerType::get(ctx, 64), convs))};
    // Winograd convolutions (pdk_conv2d_winograd, ..._winograd4) run in
    // nChw8c and NHWC.
    if ((b == NChw8c || b == NHWC) && winograd != "never") {
      std::optional<SmallVector<NamedAttribute>> w = chooseWinograd(fn, b);
      if (!w)
        return signalPassFailure();
      record.append(*w);
    }
    if (untimedFlops > 0)
      record.emplace_back(StringAttr::get(ctx, "untimed_gflop"),
                          FloatAttr::get(Float64Type::get(ctx), untimedFlops / 1e9));
    fn->setAttr("pd.conv_layout", DictionaryAttr::get(ctx, record));
  }

  using TimeFn = double (*)(const int64_t *, const float *, int64_t, int64_t, int64_t);
  TimeFn timeFn = nullptr;

  /// pdk_time_conv2d of the kernel library `measure` (loaded once), or null
  /// with an error on `fn`.
  TimeFn timer(func::FuncOp fn) {
    if (timeFn)
      return timeFn;
    // RTLD_LOCAL keeps the kernel library's symbols out of the global
    // scope. A model loaded later in this process (paddle_mlir.compile and
    // run) gets this same instance through its soname, so there is one
    // primitive cache and one error slot (python/tests/test_api.py checks a
    // kernel failure still reaches the run). Never closed: oneDNN and
    // libgomp stay loaded.
    void *lib = dlopen(measure.c_str(), RTLD_NOW | RTLD_LOCAL);
    timeFn = lib ? reinterpret_cast<TimeFn>(dlsym(lib, "pdk_time_conv2d")) : nullptr;
    if (!timeFn) {
      const char *error = dlerror();
      fn.emitError("pd-kernel-layouts: cannot time convolutions with '")
          << measure << "': " << (error ? error : "no pdk_time_conv2d");
    }
    return timeFn;
  }

  /// Timings already taken, by everything a timing depends on (the
  /// parameters with the operand dims, presence bits, algorithm): models
  /// repeat the same convolution many times (a VAE decoder's 43 come in a
  /// dozen shapes), and each is timed once.
  std::map<std::pair<std::vector<int64_t>, std::vector<float>>, double> timings;

  /// The fastest of 5 runs of conv `call` with parameters `ints` and
  /// algorithm `algo` (a timing::Algorithm: direct or Winograd), in
  /// ms; negative if the kernel fails or refuses.
  double timeCall(TimeFn time, KernelCallOp call, SmallVector<int64_t> ints, int algo) {
    ArrayRef<int64_t> slots = call.getSlots();
    auto append = [&](Value v) {
      auto t = cast<RankedTensorType>(v.getType());
      ints.push_back(t.getRank());
      ints.append(t.getShape().begin(), t.getShape().end());
    };
    for (int64_t s : slots)
      if (s >= 0)
        append(call.getInputs()[s]);
    append(call.getResult());
    SmallVector<float> floats(call.getFloats());
    int64_t present = (slots[conv::Bias] >= 0 ? timing::HasBias : 0) |
                      (slots[conv::Residual] >= 0 ? timing::HasResidual : 0);
    int64_t mode = isBf16ConvCall(call) ? algo | timing::Bf16 : algo;
    std::vector<int64_t> key(ints.begin(), ints.end());
    key.push_back(present);
    key.push_back(mode);
    auto [it, fresh] = timings.try_emplace({key, std::vector<float>(floats.begin(), floats.end())});
    if (fresh)
      it->second = time(ints.data(), floats.data(), present, /*iterations=*/5, mode);
    return it->second;
  }

  /// Compile-time timing stops being worth it past this many floating-point
  /// operations in one pass over the distinct convolutions: each is run 5
  /// times per candidate, so 2e11 (a few seconds a pass on two cores) bounds
  /// the timing to about a minute. A VAE decoder at a 224 x 224 latent has
  /// 100 times that; it then gets the host's default like dynamic shapes.
  static constexpr double kTimingBudgetFlops = 2e11;
  /// The floating-point operations of the distinct convolutions last seen
  /// over the budget (0: none), for the manifest.
  double untimedFlops = 0;

  /// 2 * output elements * (input channels per group * kernel taps) of a
  /// static conv call.
  static double convFlops(KernelCallOp call) {
    auto out = cast<RankedTensorType>(call.getResult().getType());
    auto filter = cast<RankedTensorType>(call.getInputs()[call.getSlots()[conv::Filter]].getType());
    double taps = 1;
    for (int64_t d : filter.getShape().drop_front())
      taps *= static_cast<double>(d);
    return 2.0 * static_cast<double>(out.getNumElements()) * taps;
  }

  /// The conv calls of `fn` that `keep` accepts; `untimable` is set when
  /// one of them has an operand of dynamic shape, or when timing them would
  /// take more than kTimingBudgetFlops a pass (then nothing is timed).
  SmallVector<KernelCallOp> convCalls(
      func::FuncOp fn, bool &untimable,
      function_ref<bool(KernelCallOp)> keep = [](KernelCallOp) { return true; }) {
    SmallVector<KernelCallOp> convs;
    fn.walk([&](KernelCallOp call) {
      if (!isConvCall(call) || !keep(call))
        return;
      convs.push_back(call);
      for (Value v : call->getOperands())
        if (auto t = dyn_cast<RankedTensorType>(v.getType()))
          untimable |= !t.hasStaticShape();
    });
    if (untimable)
      return convs;
    // Distinct configurations only: they are timed once each.
    std::map<std::vector<int64_t>, double> distinct;
    for (KernelCallOp call : convs) {
      std::vector<int64_t> key(call.getInts().begin(), call.getInts().end());
      for (Value v : call->getOperands())
        if (auto t = dyn_cast<RankedTensorType>(v.getType()))
          key.insert(key.end(), t.getShape().begin(), t.getShape().end());
      distinct[key] = convFlops(call);
    }
    double flops = 0;
    for (auto &entry : distinct)
      flops += entry.second;
    if (flops > kTimingBudgetFlops) {
      untimable = true;
      untimedFlops = flops;
    }
    return convs;
  }

  /// Whether pdk_conv2d_winograd computes conv `call` with parameters
  /// `ints` (the call's own, or those a candidate layout would give it).
  static bool winogradEligible(KernelCallOp call, ArrayRef<int64_t> ints) {
    if (isBf16ConvCall(call))
      return false;
    ArrayRef<int64_t> slots = call.getSlots();
    auto f = cast<RankedTensorType>(call.getInputs()[slots[conv::Filter]].getType());
    return pdk::winogradFields(ints.data(), slots[conv::Residual] >= 0) && f.getDimSize(2) == 3 &&
           f.getDimSize(3) == 3 && f.getDimSize(0) % 8 == 0 && f.getDimSize(1) % 8 == 0;
  }

  /// The Winograd kernel of algorithm `algo` (Winograd2 or Winograd4).
  static StringRef winogradKernel(int algo) {
    return algo == timing::Winograd4 ? "pdk_conv2d_winograd4" : "pdk_conv2d_winograd";
  }

  /// Times conv `call` with parameters `ints` directly and with both
  /// Winograd kernels (in an order that alternates with `n`, as for the
  /// layouts). Returns {direct ms, fastest ms, its algorithm}; direct ms is
  /// negative if oneDNN cannot run it.
  std::tuple<double, double, int> timeAlgorithms(TimeFn time, KernelCallOp call,
                                                 ArrayRef<int64_t> ints, size_t n) {
    std::array<double, timing::NumAlgorithms> ms;
    for (int k = 0; k < timing::NumAlgorithms; ++k) {
      int algo = n % 2 ? timing::NumAlgorithms - 1 - k : k;
      ms[algo] = timeCall(time, call, SmallVector<int64_t>(ints), algo);
    }
    int best = fastestAlgorithm(ms);
    return {ms[0], ms[best], best};
  }

  /// The algorithm with the smallest time in `ms` (by algorithm; negative:
  /// not run or refused), 0 (direct) unless a Winograd kernel beats it.
  static int fastestAlgorithm(const std::array<double, timing::NumAlgorithms> &ms) {
    int best = timing::Direct;
    for (int algo = timing::Winograd2; algo < timing::NumAlgorithms; ++algo)
      if (ms[algo] >= 0 && ms[algo] < ms[best])
        best = algo;
    return best;
  }

  /// Switches eligible convolutions to a Winograd kernel (all of them to
  /// one, or with `winograd=auto` each to the fastest timed algorithm) and
  /// returns what to record. None on failure.
  std::optional<SmallVector<NamedAttribute>> chooseWinograd(func::FuncOp fn, int64_t b) {
    bool dynamic = false;
    SmallVector<KernelCallOp> eligible = convCalls(
        fn, dynamic, [](KernelCallOp call) { return winogradEligible(call, call.getInts()); });
    MLIRContext *ctx = fn.getContext();
    auto i64 = [&](int64_t v) { return IntegerAttr::get(IntegerType::get(ctx, 64), v); };
    SmallVector<NamedAttribute> record;
    record.emplace_back(StringAttr::get(ctx, "winograd_eligible"), i64(eligible.size()));
    SmallVector<std::pair<KernelCallOp, int>> chosen;
    auto recordTimes = [&](double directTotal, double winogradTotal) {
      record.emplace_back(StringAttr::get(ctx, "winograd_direct_ms"),
                          FloatAttr::get(Float64Type::get(ctx), directTotal));
      record.emplace_back(StringAttr::get(ctx, "winograd_ms"),
                          FloatAttr::get(Float64Type::get(ctx), winogradTotal));
    };
    if (StringRef(winograd).starts_with("always")) {
      for (KernelCallOp call : eligible)
        chosen.push_back({call, winograd == "always4" ? timing::Winograd4 : timing::Winograd2});
    } else if (auto it = winogradTimings.find(b);
               it != winogradTimings.end() && winograd == "auto" && !eligible.empty()) {
      // Timed with the layouts (choose).
      for (KernelCallOp call : eligible)
        if (int algo = it->second.faster.lookup(call))
          chosen.push_back({call, algo});
      recordTimes(it->second.directMs, it->second.winogradMs);
    } else if (winograd == "auto" && !measure.empty() && !dynamic && !eligible.empty()) {
      TimeFn time = timer(fn);
      if (!time)
        return std::nullopt;
      double directTotal = 0, winogradTotal = 0;
      for (auto [n, call] : llvm::enumerate(eligible)) {
        auto [direct, best, algo] = timeAlgorithms(time, call, call.getInts(), n);
        if (direct < 0) {
          call.emitError("pd-kernel-layouts: oneDNN cannot run this convolution");
          return std::nullopt;
        }
        directTotal += direct;
        winogradTotal += best;
        if (algo)
          chosen.push_back({call, algo});
      }
      recordTimes(directTotal, winogradTotal);
    }
    int64_t f4 = 0;
    for (auto [call, algo] : chosen) {
      call.setCallee(winogradKernel(algo));
      f4 += algo == timing::Winograd4;
    }
    record.emplace_back(StringAttr::get(ctx, "winograd"), i64(chosen.size()));
    record.emplace_back(StringAttr::get(ctx, "winograd4"), i64(f4));
    return record;
  }

  /// What choose measured of the Winograd kernels in one candidate layout:
  /// the eligible convolutions one of them ran faster (and which), and the
  /// totals over all eligible ones with the direct kernel and with the
  /// fastest.
  struct WinogradTiming {
    DenseMap<Operation *, int> faster; // the faster algorithm (Winograd2 or 4)
    double directMs = 0, winogradMs = 0;
  };
  /// By candidate block; filled by choose unless winograd=never.
  DenseMap<int64_t, WinogradTiming> winogradTimings;

  /// Times every conv call of `fn` with each candidate layout through
  /// pdk_time_conv2d of the kernel library `measure`; returns the fastest
  /// candidate (the first when shapes are dynamic or nothing is measured)
  /// and records the times on `fn` (pd.conv_layout). A convolution that
  /// may run Winograd in a candidate layout is timed with both Winograd
  /// kernels as well and counts at the fastest there (winograd=auto) or at
  /// the fixed kernel's (always, always4), so the layouts are compared as
  /// they would run. None on failure.
  std::optional<int64_t> choose(func::FuncOp fn, ArrayRef<int64_t> candidates) {
    bool dynamic = false;
    SmallVector<KernelCallOp> convs = convCalls(fn, dynamic);
    if (convs.empty() || dynamic)
      return candidates.front();
    TimeFn time = timer(fn);
    if (!time)
      return std::nullopt;
    MLIRContext *ctx = fn.getContext();
    SmallVector<NamedAttribute> times;
    int64_t best = candidates.front();
    double bestMs = -1;
    // Each convolution is timed with every candidate back to back (in an
    // order that alternates between convolutions), so drift in the
    // machine's speed (a noisy VM, other processes) hits all candidates
    // alike; each time is the fastest of 5 runs.
    SmallVector<DenseMap<Operation *, SmallVector<int64_t>>> plans;
    for (int64_t b : candidates)
      plans.push_back(layoutPlan(fn, b));
    SmallVector<double> totals(candidates.size(), 0.0);
    bool withWinograd = winograd != "never";
    // The algorithm every eligible convolution gets, if fixed (always...;
    // Direct: not fixed).
    int fixed = winograd == "always"    ? timing::Winograd2
                : winograd == "always4" ? timing::Winograd4
                                        : timing::Direct;
    for (auto [n, call] : llvm::enumerate(convs)) {
      // What to time: (candidate, algorithm), in alternating order.
      SmallVector<std::pair<size_t, int>> runs;
      SmallVector<SmallVector<int64_t>> ints;
      for (size_t c = 0; c < candidates.size(); ++c) {
        auto it = plans[c].find(call);
        ints.push_back(it == plans[c].end() ? SmallVector<int64_t>(call.getInts()) : it->second);
        runs.push_back({c, timing::Direct});
        if (withWinograd && winogradEligible(call, ints.back()))
          for (int algo = timing::Winograd2; algo < timing::NumAlgorithms; ++algo)
            if (!fixed || algo == fixed)
              runs.push_back({c, algo});
      }
      if (n % 2)
        std::reverse(runs.begin(), runs.end());
      SmallVector<std::array<double, timing::NumAlgorithms>> ms(candidates.size(),
                                                                {-1.0, -1.0, -1.0});
      for (auto [c, algo] : runs) {
        ms[c][algo] = timeCall(time, call, ints[c], algo);
        if (ms[c][algo] < 0 && algo == timing::Direct) {
          call.emitError("pd-kernel-layouts: oneDNN cannot run this convolution with layout ")
              << layoutName(candidates[c]);
          return std::nullopt;
        }
      }
      for (size_t c = 0; c < candidates.size(); ++c) {
        int best = fastestAlgorithm(ms[c]);
        int used = fixed && ms[c][fixed] >= 0 ? fixed : best;
        totals[c] += ms[c][used];
        if (!withWinograd || !winogradEligible(call, ints[c]))
          continue;
        WinogradTiming &t = winogradTimings[candidates[c]];
        t.directMs += ms[c][timing::Direct];
        t.winogradMs += ms[c][best];
        if (best)
          t.faster[call] = best;
      }
    }
    for (auto [b, total] : llvm::zip(candidates, totals)) {
      times.emplace_back(StringAttr::get(ctx, std::string(layoutName(b)) + "_ms"),
                         FloatAttr::get(Float64Type::get(ctx), total));
      if (bestMs < 0 || total < bestMs) {
        bestMs = total;
        best = b;
      }
    }
    times.emplace_back(StringAttr::get(ctx, "choice"), StringAttr::get(ctx, layoutName(best)));
    times.emplace_back(StringAttr::get(ctx, "convolutions"),
                       IntegerAttr::get(IntegerType::get(ctx, 64), convs.size()));
    fn->setAttr("pd.conv_layout", DictionaryAttr::get(ctx, times));
    return best;
  }
};
} // namespace

void mlir::pd::populatePdToOneDNNPatterns(RewritePatternSet &patterns) {
  patterns.add<ConvToKernel<Conv2dOp>, ConvToKernel<DepthwiseConv2dOp>, ConvToKernel<FusedConv2dOp>,
               ConvGradToKernel<Conv2dGradInputOp, true>,
               ConvGradToKernel<Conv2dGradFilterOp, false>, FcToKernel, MatmulV2ToKernel,
               SoftmaxToKernel<SoftmaxOp, false>, SoftmaxToKernel<LogSoftmaxOp, true>, PoolToKernel,
               QuantizedConvToKernel, QuantizedFcToKernel, QuantizedMatmulToKernel>(
      patterns.getContext());
}

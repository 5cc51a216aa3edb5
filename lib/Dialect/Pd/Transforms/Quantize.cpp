//===- Quantize.cpp - the pd-quantize pass --------------------------------===//
//
// Fake-quantized convolutions and matrix products -> pd.quantized_conv2d /
// pd.quantized_fc (see the pass description in Passes.td and
// docs/Quantization.md). Two steps over each function:
//   1. every eligible compute op, in program order, is rewritten with a
//      float32 result: pd.quantize of the fake quantizer's input, int8
//      weights (a new global) with per-channel scales;
//   2. a quantized op whose result is read only by pd.quantize ops of one
//      scale and dtype writes that int8 tensor itself.
// The compute ops that stay float32 get `pd.fp32_reason`; fake quantizers
// left without readers are erased.
//
//===----------------------------------------------------------------------===//

#include "Constants.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Calibration.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

namespace mlir::pd {
#define GEN_PASS_DEF_PDQUANTIZEPASS
#define GEN_PASS_DEF_PDUNFREEZEQUANTPASS
#define GEN_PASS_DEF_PDINT8ATTRIBUTESPASS
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h.inc"

namespace {
/// Largest magnitude of a symmetric 8-bit quantizer (Paddle's bin_cnt).
constexpr double kBin = 127.0;

/// A per-tensor 8-bit fake quantizer in front of a compute op: the float
/// value it quantizes, its step (threshold / 127 for int8, threshold / 255
/// for uint8) and the int8 type it stands for.
struct ActivationQuant {
  Value input;
  double step;
  bool isUnsigned = false;
  /// int8 down to -128, as Paddle's round_type 0 quantizers clamp (else
  /// [-127, 127], the range of the abs-max quantizers that clip first).
  bool fullRange = false;
  /// A pair calibration inserted (not the program's own quantizer).
  bool calibrated = false;
};

/// The single value of a one-element constant, if any.
std::optional<double> scalarConstant(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t || !t.hasStaticShape() || t.getNumElements() != 1)
    return std::nullopt;
  if (std::optional<std::vector<float>> d = constantData(v))
    return (*d)[0];
  std::optional<std::vector<char>> bytes = constantBytes(v);
  if (!bytes || !t.getElementType().isInteger())
    return std::nullopt;
  int64_t x = 0;
  unsigned width = t.getElementTypeBitWidth() / 8;
  std::memcpy(&x, bytes->data(), std::min<size_t>(width, 8));
  if (width < 8 && (x >> (width * 8 - 1)) & 1)
    x |= ~((int64_t(1) << (width * 8)) - 1); // sign-extend
  return static_cast<double>(x);
}

/// The scale a quantizer in test mode reads, for `scale` its OutScale
/// result: Fluid's frozen programs write OutScale into the InScale
/// variable, so later readers of that variable (the dequantize op) read the
/// quantizer's result, which in test mode is InScale unchanged.
Value testScale(Value scale) {
  for (int guard = 0; guard < 8; ++guard) {
    auto r = dyn_cast<OpResult>(scale);
    if (!r || r.getResultNumber() != 1)
      return scale;
    if (auto q = dyn_cast<FakeQuantizeMovingAverageAbsMaxOp>(r.getOwner()); q && q.getIsTest())
      scale = q.getInScale();
    else if (auto q = dyn_cast<FakeQuantizeDequantizeMovingAverageAbsMaxOp>(r.getOwner());
             q && q.getIsTest())
      scale = q.getInScale();
    else
      return scale;
  }
  return scale;
}

/// Why `v` has no usable per-tensor int8 quantizer in front of it, or the
/// quantizer. `unrecognised` is set when there is a fake quantizer, but not
/// in a form with an int8 kernel.
FailureOr<ActivationQuant> activationQuant(Value v, std::string &why, bool &unrecognised) {
  Operation *def = v.getDefiningOp();
  unrecognised = true;
  auto threshold = [&](Value scale) -> std::optional<double> {
    std::optional<double> t = scalarConstant(testScale(scale));
    if (!t || !(*t > 0) || !std::isfinite(*t))
      return std::nullopt;
    return t;
  };
  if (auto q = dyn_cast_or_null<FakeQuantizeDequantizeMovingAverageAbsMaxOp>(def)) {
    if (q.getBitLength() != 8) {
      why = "its input's fake quantizer has bit_length " + std::to_string(q.getBitLength());
      return failure();
    }
    std::optional<double> t = threshold(q.getInScale());
    if (!t) {
      why = "its input's fake quantizer has no constant positive scale";
      return failure();
    }
    return ActivationQuant{q.getX(), *t / kBin};
  }
  // The form calibration inserts (pd-insert-quantizers): our own pair.
  if (auto dq = dyn_cast_or_null<DequantizeOp>(def)) {
    auto q = dq.getX().getDefiningOp<QuantizeOp>();
    if (!q || q.getScale() != dq.getScale() || q.getZeroPoint() != 0 || dq.getZeroPoint() != 0) {
      why = "its input's pd.dequantize is not the inverse of a pd.quantize with zero point 0";
      return failure();
    }
    return ActivationQuant{q.getX(), q.getScale().convertToDouble(), q.getDtype() == "uint8", false,
                           dq->hasAttr("pd.calibrated")};
  }
  if (auto dq = dyn_cast_or_null<DequantizeLinearOp>(def)) {
    auto q = dq.getX().getDefiningOp<QuantizeLinearOp>();
    if (!q || q.getQuantAxis() != -1 || dq.getQuantAxis() != -1 || q.getBitLength() != 8 ||
        dq.getBitLength() != 8) {
      why = "its input's dequantize_linear is not a per-tensor 8-bit quantize_linear pair";
      return failure();
    }
    std::optional<double> t = threshold(q.getScale()), t2 = threshold(dq.getScale());
    std::optional<double> z = scalarConstant(q.getZeroPoint()),
                          z2 = scalarConstant(dq.getZeroPoint());
    if (!t || !t2 || *t != *t2 || !z || !z2 || *z != 0 || *z2 != 0) {
      why = "its input's quantize_linear pair has no equal constant scales with zero point 0";
      return failure();
    }
    return ActivationQuant{q.getX(), *t / kBin, false, q.getRoundType() == 0};
  }
  if (auto q = dyn_cast_or_null<FakeQuantizeMovingAverageAbsMaxOp>(def)) {
    // Fluid's frozen form, which pd-unfreeze-quant rewrites when it holds.
    auto frozen = q->getAttrOfType<StringAttr>("pd.frozen_reason");
    why = "its input is the integer output of fake_quantize_moving_average_abs_max, but " +
          (frozen ? frozen.getValue().str()
                  : std::string("no fake_channel_wise_dequantize_max_abs or "
                                "fake_dequantize_max_abs follows it (Fluid's frozen form)"));
    return failure();
  }
  unrecognised = false;
  why = "its input has no 8-bit fake quantizer (no scale to run it in int8 with)";
  return failure();
}

/// Symmetric int8 weights with one scale per slice along `axis`: scale =
/// max |w| / 127 (1 for an all-zero slice), q = round_half_even(w / scale).
struct Int8Weights {
  std::vector<int8_t> data;
  std::vector<float> scales;
};
Int8Weights quantizeWeights(ArrayRef<float> w, ArrayRef<int64_t> shape, int64_t axis) {
  int64_t channels = shape[axis], inner = 1;
  for (size_t i = axis + 1; i < shape.size(); ++i)
    inner *= shape[i];
  Int8Weights r;
  std::vector<double> amax(channels, 0.0);
  for (size_t i = 0; i < w.size(); ++i) {
    int64_t c = (static_cast<int64_t>(i) / inner) % channels;
    amax[c] = std::max(amax[c], std::fabs(static_cast<double>(w[i])));
  }
  r.scales.resize(channels);
  for (int64_t c = 0; c < channels; ++c)
    r.scales[c] = amax[c] > 0 ? static_cast<float>(amax[c] / kBin) : 1.f;
  r.data.resize(w.size());
  for (size_t i = 0; i < w.size(); ++i) {
    int64_t c = (static_cast<int64_t>(i) / inner) % channels;
    double q = std::nearbyint(w[i] / static_cast<double>(r.scales[c]));
    r.data[i] = static_cast<int8_t>(std::clamp(q, -kBin, kBin));
  }
  return r;
}

Value int8Constant(OpBuilder &b, Operation *before, Value like, StringRef suffix,
                   const Int8Weights &w) {
  auto t = cast<RankedTensorType>(like.getType());
  auto type = RankedTensorType::get(t.getShape(), b.getI8Type());
  return newConstantBytes(
      b, before, globalName(like, "weight") + suffix.str(), type,
      ArrayRef<char>(reinterpret_cast<const char *>(w.data.data()), w.data.size()));
}

/// The int8 input of a quantized op; a calibrated one is marked so (step 2
/// may also quantize a residual with it).
Value quantizeInput(OpBuilder &b, Location loc, const ActivationQuant &a) {
  auto t = cast<RankedTensorType>(a.input.getType());
  Type element = a.isUnsigned ? Type(b.getIntegerType(8, /*isSigned=*/false)) : b.getI8Type();
  auto q = QuantizeOp::create(b, loc, RankedTensorType::get(t.getShape(), element), a.input,
                              b.getF32FloatAttr(static_cast<float>(a.step)), b.getI32IntegerAttr(0),
                              b.getStringAttr(a.isUnsigned ? "uint8" : "int8"),
                              a.fullRange && !a.isUnsigned ? b.getUnitAttr() : UnitAttr());
  if (a.calibrated)
    q->setAttr("pd.calibrated", b.getUnitAttr());
  return q;
}

/// What the new int8 op keeps of the op it replaces: its layer number
/// (pd.layer, from calibration) and the op type it was.
void carryOver(Operation *from, Operation *to) {
  to->setAttr("pd.quantized_from",
              StringAttr::get(to->getContext(), from->getName().stripDialect()));
  if (Attribute layer = from->getAttr("pd.layer"))
    to->setAttr("pd.layer", layer);
}

RankedTensorType withF32(Type t) {
  return RankedTensorType::get(cast<RankedTensorType>(t).getShape(),
                               Float32Type::get(t.getContext()));
}

/// One frozen (conv or mul) -> dequantize pair of a Fluid program, rewritten
/// to the quantize-dequantize form. Returns false when `deq` is not one;
/// when it dequantizes a conv or mul on a frozen quantizer but cannot be
/// rewritten, the quantizer records why (`pd.frozen_reason`, which
/// pd-quantize reports).
bool unfreeze(OpBuilder &b, Operation *deq) {
  Value acc, actScaleValue;
  // Per-channel weight factor: w'[c] = w[c] * factor[c] (one value: all).
  std::vector<double> factor;
  std::string why;
  if (auto d = dyn_cast<FakeChannelWiseDequantizeMaxAbsOp>(deq)) {
    acc = d.getX();
    ArrayRef<int32_t> bits = d.getQuantBits();
    if (d.getScales().size() != 2 || bits.size() != 2)
      why = "its fake_channel_wise_dequantize_max_abs has " + std::to_string(d.getScales().size()) +
            " scales (the frozen form has a weight and an activation scale)";
    else if (bits[0] != 8 || bits[1] != 8)
      why = "its fake_channel_wise_dequantize_max_abs has quant_bits " + std::to_string(bits[0]) +
            ", " + std::to_string(bits[1]) + " (int8 needs 8, 8)";
    else if (std::optional<std::vector<float>> sw = constantData(d.getScales()[0]))
      for (float v : *sw)
        factor.push_back(v / kBin);
    else
      why = "the weight scales of its fake_channel_wise_dequantize_max_abs are not constants";
    if (d.getScales().size() == 2)
      actScaleValue = d.getScales()[1];
  } else if (auto d = dyn_cast<FakeDequantizeMaxAbsOp>(deq)) {
    acc = d.getX();
    double range = d.getMaxRange().convertToDouble();
    if (!(range > 0) || !std::isfinite(range))
      why = "its fake_dequantize_max_abs has max_range " + std::to_string(range);
    else
      factor.push_back(kBin / range);
    actScaleValue = d.getScale();
  } else {
    return false;
  }
  Operation *op = acc.getDefiningOp();
  if (!op || !isa<Conv2dOp, DepthwiseConv2dOp, MulOp>(op))
    return false;
  auto q = op->getOperand(0).getDefiningOp<FakeQuantizeMovingAverageAbsMaxOp>();
  if (!q)
    return false;
  auto refuse = [&](const std::string &reason) {
    q->setAttr("pd.frozen_reason", b.getStringAttr(reason));
    return false;
  };
  if (!why.empty())
    return refuse(why);
  if (!acc.hasOneUse())
    return refuse("the integer result of its " + op->getName().stripDialect().str() +
                  " has readers other than the dequantize op");
  if (q.getBitLength() != 8)
    return refuse("the quantizer has bit_length " + std::to_string(q.getBitLength()));
  std::optional<double> t = scalarConstant(testScale(q.getInScale()));
  std::optional<double> actScale =
      actScaleValue ? scalarConstant(testScale(actScaleValue)) : std::nullopt;
  if (!t || !(*t > 0))
    return refuse("the quantizer's InScale is not a positive model constant");
  if (!actScale || *actScale != *t)
    return refuse("the dequantize op's activation scale is not the quantizer's scale");
  Value w = op->getOperand(1);
  std::optional<std::vector<float>> data = constantData(w);
  auto wt = cast<RankedTensorType>(w.getType());
  if (!data)
    return refuse("the weight of its " + op->getName().stripDialect().str() +
                  " is not a model constant");
  // The output channel of the weight: dim 0 of a filter, dim 1 of a mul's
  // 2-D weight.
  bool isMul = isa<MulOp>(op);
  if (isMul && (wt.getRank() != 2 || cast<MulOp>(op).getYNumColDims() != 1))
    return refuse("its mul's weight is not 2-D with y_num_col_dims 1");
  int64_t channels = isMul ? wt.getDimSize(1) : wt.getDimSize(0);
  if (factor.size() != 1 && static_cast<int64_t>(factor.size()) != channels)
    return refuse("the dequantize op has " + std::to_string(factor.size()) + " weight scales for " +
                  std::to_string(channels) + " output channels");
  std::vector<float> scaled(data->size());
  int64_t inner = isMul ? 1 : static_cast<int64_t>(data->size()) / channels;
  for (size_t i = 0; i < data->size(); ++i) {
    int64_t c = isMul ? static_cast<int64_t>(i) % channels : static_cast<int64_t>(i) / inner;
    scaled[i] = static_cast<float>((*data)[i] * factor[factor.size() == 1 ? 0 : c]);
  }
  b.setInsertionPoint(op);
  Value w2 = newConstant(b, op, globalName(w, "weight") + ".dequantized", wt, scaled);
  auto qdq = FakeQuantizeDequantizeMovingAverageAbsMaxOp::create(
      b, q.getLoc(), q.getOut().getType(), q.getOutScale().getType(), q.getX(), q.getInScale(),
      Value(), Value(), q.getMovingRateAttr(), q.getBitLengthAttr(), b.getBoolAttr(true),
      q.getRoundTypeAttr());
  Operation *clone = b.clone(*op);
  clone->setOperand(0, qdq.getOut());
  clone->setOperand(1, w2);
  clone->setLoc(b.getFusedLoc({op->getLoc(), deq->getLoc()}));
  deq->getResult(0).replaceAllUsesWith(clone->getResult(0));
  deq->erase();
  op->erase();
  return true;
}

/// Erases the ops of `func`'s body nothing reads (last first, so chains go).
void eraseDeadOps(func::FuncOp func) {
  for (Block &block : func.getBody())
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
      if (isOpTriviallyDead(&op))
        op.erase();
}

struct PdUnfreezeQuantPass : impl::PdUnfreezeQuantPassBase<PdUnfreezeQuantPass> {
  void runOnOperation() override {
    OpBuilder b(&getContext());
    SmallVector<Operation *> deqs;
    getOperation().walk([&](Operation *op) {
      if (isa<FakeChannelWiseDequantizeMaxAbsOp, FakeDequantizeMaxAbsOp>(op))
        deqs.push_back(op);
    });
    bool changed = false;
    for (Operation *d : deqs)
      changed |= unfreeze(b, d);
    if (!changed)
      return;
    for (auto func : getOperation().getOps<func::FuncOp>())
      eraseDeadOps(func);
    eraseUnusedGlobals(getOperation());
  }
};

struct PdInt8AttributesPass : impl::PdInt8AttributesPassBase<PdInt8AttributesPass> {
  void runOnOperation() override {
    OpBuilder b(&getContext());
    // One pair per tensor and step, so the producer can later write the
    // int8 tensor itself for all of its readers.
    std::map<std::pair<void *, float>, Value> pairs;
    getOperation().walk([&](Operation *op) {
      auto asked = op->getAttrOfType<StringAttr>("pd.int8");
      if (!asked || op->getNumOperands() == 0)
        return;
      Value input = op->getOperand(0);
      std::string name = op->getName().stripDialect().str();
      if (hasProgramQuantizer(input) ||
          isa_and_nonnull<FakeQuantizeMovingAverageAbsMaxOp>(input.getDefiningOp()))
        return; // the program's own quantizer wins
      if (asked.getValue().starts_with("bit_length")) {
        op->emitWarning() << name << " asks for int8 (enable_int8) with " << asked.getValue()
                          << "; only 8-bit quantization has int8 kernels, so it stays float32";
        return;
      }
      std::optional<double> threshold;
      if (auto t = op->getAttrOfType<FloatAttr>("pd.int8_input_threshold"))
        threshold = t.getValueAsDouble();
      else if (auto r = dyn_cast<OpResult>(input); r && r.getResultNumber() == 0)
        if (auto t = r.getOwner()->getAttrOfType<FloatAttr>("pd.out_threshold"))
          threshold = t.getValueAsDouble();
      if (!threshold) {
        op->emitWarning() << name
                          << " asks for int8 (enable_int8) but has no input scale (Input_scale, "
                             "input_scale or Input0_scale / X0_scale) and the op before it no "
                             "out_threshold, so it stays float32";
        return;
      }
      if (!(*threshold > 0) || !std::isfinite(*threshold)) {
        op->emitWarning() << name << " asks for int8 with an input threshold of " << *threshold
                          << " (thresholds are positive), so it stays float32";
        return;
      }
      float step = static_cast<float>(*threshold / kBin);
      Value &dq = pairs[{input.getAsOpaquePointer(), step}];
      if (!dq)
        dq = quantizeDequantize(b, input, step, /*isUnsigned=*/false);
      op->setOperand(0, dq);
    });
  }
};

bool isComputeCandidate(Operation *op) {
  return isa<FusedConv2dOp, Conv2dOp, DepthwiseConv2dOp, FcOp, MulOp, MatmulOp, MatmulV2Op>(op);
}

struct PdQuantizePass : impl::PdQuantizePassBase<PdQuantizePass> {
  using PdQuantizePassBase::PdQuantizePassBase;

  /// Set by activationQuant: the op's input has a fake quantizer, but not
  /// one with an int8 form.
  bool unrecognised = false;

  bool excluded(Operation *op) const {
    return matchesOpPattern(op, SmallVector<std::string>(exclude.begin(), exclude.end()));
  }

  /// Rewrites `op` (a conv) to pd.quantized_conv2d, or says why not.
  LogicalResult convert(OpBuilder &b, Operation *op, Value input, Value filter, Value bias,
                        Value residual, StringRef act, float alpha, float beta, std::string &why) {
    auto conv = [&](auto c) {
      b.setInsertionPoint(op);
      FailureOr<ActivationQuant> a = activationQuant(input, why, unrecognised);
      if (failed(a))
        return failure();
      if (c.getDataFormat() == "NHWC") {
        why = "NHWC convolutions have no int8 kernel yet";
        return failure();
      }
      std::optional<std::vector<float>> w = constantData(filter);
      if (!w) {
        why = "its filter is not a model constant";
        return failure();
      }
      auto ft = cast<RankedTensorType>(filter.getType());
      Int8Weights q = quantizeWeights(*w, ft.getShape(), 0);
      Value wq = int8Constant(b, op, filter, ".int8", q);
      Value xq = quantizeInput(b, op->getLoc(), *a);
      // A residual calibration quantized (ResNet's shortcut) is read as the
      // int8 tensor; the conv that makes it can then write it as int8.
      Value res = residual;
      float residualScale = 1.f;
      if (auto dq = res ? res.getDefiningOp<DequantizeOp>() : DequantizeOp())
        if (auto rq = dq.getX().getDefiningOp<QuantizeOp>();
            rq && dq->hasAttr("pd.calibrated") && rq.getZeroPoint() == 0 &&
            dq.getZeroPoint() == 0 && rq.getScale() == dq.getScale()) {
          rq->setAttr("pd.calibrated", b.getUnitAttr());
          res = rq.getResult();
          residualScale = rq.getScale().convertToFloat();
        }
      auto qc = QuantizedConv2dOp::create(
          b, op->getLoc(), withF32(op->getResult(0).getType()), xq, wq, bias, res,
          c.getStridesAttr(), c.getPaddingsAttr(), c.getPaddingAlgorithmAttr(), c.getGroupsAttr(),
          c.getDilationsAttr(), b.getStringAttr("NCHW"), b.getStringAttr(act),
          b.getF32FloatAttr(alpha), b.getF32FloatAttr(beta),
          b.getF32FloatAttr(static_cast<float>(a->step)), b.getDenseF32ArrayAttr(q.scales),
          b.getF32FloatAttr(1.f), b.getStringAttr("float32"), b.getF32FloatAttr(residualScale));
      carryOver(op, qc);
      op->getResult(0).replaceAllUsesWith(qc.getResult());
      op->erase();
      return success();
    };
    if (auto c = dyn_cast<FusedConv2dOp>(op))
      return conv(c);
    if (auto c = dyn_cast<Conv2dOp>(op))
      return conv(c);
    return conv(cast<DepthwiseConv2dOp>(op));
  }

  /// Rewrites `op` (X flattened at `numCol` times a 2-D W) to
  /// pd.quantized_fc, or says why not.
  LogicalResult convertFc(OpBuilder &b, Operation *op, Value x, Value w, Value bias, int64_t numCol,
                          StringRef act, std::string &why) {
    b.setInsertionPoint(op);
    FailureOr<ActivationQuant> a = activationQuant(x, why, unrecognised);
    if (failed(a))
      return failure();
    auto wt = cast<RankedTensorType>(w.getType());
    std::optional<std::vector<float>> data = constantData(w);
    if (!data || wt.getRank() != 2) {
      why = "its weight is not a 2-D model constant";
      return failure();
    }
    Int8Weights q = quantizeWeights(*data, wt.getShape(), 1);
    Value wq = int8Constant(b, op, w, ".int8", q);
    Value xq = quantizeInput(b, op->getLoc(), *a);
    auto fc = QuantizedFcOp::create(
        b, op->getLoc(), withF32(op->getResult(0).getType()), xq, wq, bias,
        b.getI32IntegerAttr(static_cast<int32_t>(numCol)), b.getStringAttr(act),
        b.getF32FloatAttr(static_cast<float>(a->step)), b.getDenseF32ArrayAttr(q.scales),
        b.getF32FloatAttr(1.f), b.getStringAttr("float32"));
    carryOver(op, fc);
    op->getResult(0).replaceAllUsesWith(fc.getResult());
    op->erase();
    return success();
  }

  /// Rewrites `op`, a product of two activations (`x` by `y`, transposed
  /// by `tx` / `ty`, times `alpha`), to pd.quantized_matmul when both have
  /// per-tensor quantizers, or says why not.
  LogicalResult convertProduct(OpBuilder &b, Operation *op, Value x, Value y, bool tx, bool ty,
                               double alpha, std::string &why) {
    auto xt = cast<RankedTensorType>(x.getType()), yt = cast<RankedTensorType>(y.getType());
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    if (xt.getRank() < 2 || yt.getRank() < 2) {
      why = "a product with a vector operand has no int8 form";
      return failure();
    }
    // The kernel's batches: each side's batch dims all 1 or the result's.
    if (!batchFitsProduct(xt, type) || !batchFitsProduct(yt, type)) {
      why = "its batch dims broadcast partially (the int8 product takes each side's batch as "
            "all 1 or the result's)";
      return failure();
    }
    b.setInsertionPoint(op);
    std::string whyY;
    bool unrecognisedY = false;
    FailureOr<ActivationQuant> ax = activationQuant(x, why, unrecognised);
    FailureOr<ActivationQuant> ay = activationQuant(y, whyY, unrecognisedY);
    if (failed(ax) || failed(ay)) {
      // Both activations need a quantizer: say what is missing, for X first.
      if (failed(ax))
        why = "X: " + why;
      else
        why = "Y: " + whyY, unrecognised = unrecognisedY;
      return failure();
    }
    if (ay->isUnsigned) {
      why = "Y is quantized to uint8, and the int8 product needs a signed right-hand side";
      return failure();
    }
    Value xq = quantizeInput(b, op->getLoc(), *ax), yq = quantizeInput(b, op->getLoc(), *ay);
    auto mm =
        QuantizedMatmulOp::create(b, op->getLoc(), withF32(type), xq, yq, b.getBoolAttr(tx),
                                  b.getBoolAttr(ty), b.getF32FloatAttr(static_cast<float>(alpha)),
                                  b.getF32FloatAttr(static_cast<float>(ax->step)),
                                  b.getF32FloatAttr(static_cast<float>(ay->step)));
    carryOver(op, mm);
    op->getResult(0).replaceAllUsesWith(mm.getResult());
    op->erase();
    return success();
  }

  /// Step 1 for one op; false when it is not a compute op at all.
  bool visit(OpBuilder &b, Operation *op) {
    std::string why;
    unrecognised = false;
    LogicalResult done = failure();
    if (isComputeCandidate(op)) {
      // The accuracy check of calibration moved it back to float32.
      if (auto fallback = op->getAttrOfType<StringAttr>("pd.quant_fallback")) {
        op->setAttr("pd.fp32_reason", fallback);
        op->removeAttr("pd.quant_fallback");
        return true;
      }
    }
    if (auto c = dyn_cast<FusedConv2dOp>(op)) {
      if (!excluded(op))
        done = convert(b, op, c.getInput(), c.getFilter(), c.getBias(), c.getResidualData(),
                       c.getFuseActivation(), c.getFuseAlpha().convertToFloat(),
                       c.getFuseBeta().convertToFloat(), why);
    } else if (isa<Conv2dOp, DepthwiseConv2dOp>(op)) {
      if (!excluded(op))
        done = convert(b, op, op->getOperand(0), op->getOperand(1), Value(), Value(), "", 0.f, 0.f,
                       why);
    } else if (auto fc = dyn_cast<FcOp>(op)) {
      if (!excluded(op))
        done = convertFc(b, op, fc.getInput(), fc.getW(), fc.getBias(), fc.getInNumColDims(),
                         fc.getActivationType(), why);
    } else if (auto m = dyn_cast<MulOp>(op)) {
      if (excluded(op)) {
      } else if (m.getYNumColDims() != 1) {
        why = "mul with y_num_col_dims other than 1 has no int8 form";
      } else {
        done = convertFc(b, op, m.getX(), m.getY(), Value(), m.getXNumColDims(), "", why);
      }
    } else if (auto m = dyn_cast<MatmulOp>(op)) {
      auto xt = cast<RankedTensorType>(m.getX().getType());
      auto yt = cast<RankedTensorType>(m.getY().getType());
      if (excluded(op)) {
      } else if (!constantBytes(m.getY())) {
        done = convertProduct(b, op, m.getX(), m.getY(), m.getTranspose_X(), m.getTranspose_Y(),
                              m.getAlpha().convertToDouble(), why);
      } else if (m.getTranspose_X() || m.getTranspose_Y() ||
                 m.getAlpha().convertToDouble() != 1.0 || yt.getRank() != 2 || xt.getRank() < 2) {
        why = "only matmul of an untransposed [.., M, K] by a 2-D weight, alpha 1, has an int8 "
              "form";
      } else {
        done = convertFc(b, op, m.getX(), m.getY(), Value(), xt.getRank() - 1, "", why);
      }
    } else if (auto m = dyn_cast<MatmulV2Op>(op)) {
      auto xt = cast<RankedTensorType>(m.getX().getType());
      auto yt = cast<RankedTensorType>(m.getY().getType());
      if (excluded(op)) {
      } else if (!constantBytes(m.getY())) {
        done = convertProduct(b, op, m.getX(), m.getY(), m.getTransX(), m.getTransY(), 1.0, why);
      } else if (m.getTransX() || m.getTransY() || yt.getRank() != 2 || xt.getRank() < 2) {
        why = "only matmul_v2 of an untransposed [.., M, K] by a 2-D weight has an int8 form";
      } else {
        done = convertFc(b, op, m.getX(), m.getY(), Value(), xt.getRank() - 1, "", why);
      }
    } else {
      return false;
    }
    if (failed(done)) {
      if (why.empty())
        why = "excluded by --quantize-exclude";
      op->setAttr("pd.fp32_reason", b.getStringAttr(why));
      if (unrecognised)
        op->setAttr("pd.quant_unrecognised", b.getUnitAttr());
    }
    return true;
  }

  /// Step 2, first: `c`'s float residual, when calibration quantizes the
  /// same tensor for an int8 op before `c`, is read as that int8 tensor
  /// (`residual_scale` its scale), so the tensors between ResNet's blocks
  /// can be int8 (the requantization below then makes their producers
  /// write them). The residual is rounded to the tensor's int8 grid, as
  /// oneDNN's int8 ResNets do; calibration's accuracy check runs the
  /// result. A program's own quantizers are left as the program says.
  void int8Residual(QuantizedConv2dOp c) {
    Value r = c.getResidualData();
    if (!r || !cast<RankedTensorType>(r.getType()).getElementType().isF32())
      return;
    for (Operation *user : r.getUsers()) {
      auto q = dyn_cast<QuantizeOp>(user);
      if (!q || !q->hasAttr("pd.calibrated") || q.getZeroPoint() != 0 ||
          q->getBlock() != c->getBlock() || !q->isBeforeInBlock(c))
        continue;
      c.getResidualDataMutable().assign(q.getResult());
      c.setResidualScaleAttr(q.getScaleAttr());
      return;
    }
  }

  /// Step 2, first: the program's per-tensor fake quantizers that float
  /// ops still read (on a residual add's inputs, a pooling's, ...) become
  /// pd.quantize -> pd.dequantize pairs of the same step. The quantized
  /// tensor is then one the op before may write as int8 (the
  /// requantization below: a QAT ResNet's last conv of a block writes
  /// int8, the add reads two int8 tensors), and the float op reads its
  /// real value as before (rounding half to even, as the int8 ops'
  /// quantizers do; Paddle's abs-max quantizers round ties away from zero).
  void splitFakeQuantizers(OpBuilder &b, func::FuncOp func) {
    SmallVector<Operation *> fakes;
    func.walk([&](Operation *op) {
      if (isa<FakeQuantizeDequantizeMovingAverageAbsMaxOp, DequantizeLinearOp>(op))
        fakes.push_back(op);
    });
    bool ignored = false;
    for (Operation *f : fakes) {
      Value v = f->getResult(0);
      std::string why;
      FailureOr<ActivationQuant> a = activationQuant(v, why, ignored);
      if (v.use_empty() || failed(a) ||
          !cast<RankedTensorType>(v.getType()).getElementType().isF32())
        continue;
      b.setInsertionPointAfter(f);
      Value q = quantizeInput(b, f->getLoc(), *a);
      auto dq = DequantizeOp::create(b, f->getLoc(), v.getType(), q,
                                     b.getF32FloatAttr(static_cast<float>(a->step)),
                                     b.getI32IntegerAttr(0));
      v.replaceAllUsesWith(dq.getResult());
    }
    eraseDeadOps(func);
  }

  /// The pd.quantize ops reading `v`, when every reader is one and they
  /// agree (scale, dtype, range; zero point 0), else none.
  static SmallVector<QuantizeOp> equalQuantizers(Value v) {
    SmallVector<QuantizeOp> qs;
    for (Operation *user : v.getUsers()) {
      auto q = dyn_cast<QuantizeOp>(user);
      if (!q || q.getZeroPoint() != 0 ||
          (!qs.empty() && (q.getScale() != qs[0].getScale() || q.getDtype() != qs[0].getDtype() ||
                           q.getFullRange() != qs[0].getFullRange())))
        return {};
      qs.push_back(q);
    }
    return qs;
  }

  /// `with` (already of their int8 type) in place of the quantizers `qs`,
  /// which are erased.
  static void replaceQuantizers(ArrayRef<QuantizeOp> qs, Value with) {
    for (QuantizeOp q : qs) {
      q.getResult().replaceAllUsesWith(with);
      q.erase();
    }
  }

  /// The operands `op` moves or selects data of, element for element,
  /// when quantizing its result is quantizing them: the data of a concat,
  /// a reshape, transpose, flatten, squeeze or unsqueeze, and a max
  /// pooling's input (rounding and saturation are monotone, so
  /// quantize(max(a, b)) = max(quantize(a), quantize(b)), and padding never
  /// wins a max). Pooling only where its int8 kernel runs: a fixed NCHW
  /// window over static channels and image size.
  static SmallVector<unsigned> quantizableThrough(Operation *op) {
    if (auto p = dyn_cast<Pool2dOp>(op)) {
      auto in = cast<RankedTensorType>(p.getX().getType());
      auto out = cast<RankedTensorType>(p.getType());
      if (p.getPoolingType() != "max" || p.getGlobalPooling() || p.getAdaptive() ||
          p.getDataFormat() == "NHWC" || in.getRank() != 4)
        return {};
      for (int64_t i = 1; i < 4; ++i)
        if (in.isDynamicDim(i) || out.isDynamicDim(i))
          return {};
      return {0};
    }
    if (auto c = dyn_cast<ConcatOp>(op)) {
      auto [start, length] = c.getODSOperandIndexAndLength(0);
      SmallVector<unsigned> r;
      for (unsigned i = 0; i < length; ++i)
        r.push_back(start + i);
      return r;
    }
    if (isa<Reshape2Op, Transpose2Op, FlattenContiguousRangeOp, Squeeze2Op, Unsqueeze2Op>(op))
      return {0};
    return {};
  }

  /// Step 2, third: such an op whose result only equal quantizers read
  /// works on the quantized tensors instead (exact), so the ops before it
  /// may write int8 (below): ResNet's stem conv before its max pooling,
  /// the branches of a concat, a conv before a reshape.
  void quantizeBefore(OpBuilder &b, Operation *op) {
    SmallVector<unsigned> data = quantizableThrough(op);
    if (data.empty() || op->getNumResults() != 1 ||
        !cast<RankedTensorType>(op->getResult(0).getType()).getElementType().isF32() ||
        llvm::any_of(data, [&](unsigned i) {
          return !cast<RankedTensorType>(op->getOperand(i).getType()).getElementType().isF32();
        }))
      return;
    SmallVector<QuantizeOp> qs = equalQuantizers(op->getResult(0));
    if (qs.empty())
      return;
    b.setInsertionPoint(op);
    Type element = qs[0].getType().getElementType();
    auto int8Like = [&](Value v) {
      return RankedTensorType::get(cast<RankedTensorType>(v.getType()).getShape(), element);
    };
    Operation *moved = b.clone(*op);
    b.setInsertionPoint(moved); // the quantizers before the op that reads them
    for (unsigned i : data) {
      Value x = op->getOperand(i);
      moved->setOperand(i, QuantizeOp::create(b, op->getLoc(), int8Like(x), x, qs[0].getScaleAttr(),
                                              qs[0].getZeroPointAttr(), qs[0].getDtypeAttr(),
                                              qs[0].getFullRangeAttr()));
    }
    moved->getResult(0).setType(int8Like(op->getResult(0)));
    replaceQuantizers(qs, moved->getResult(0));
    op->erase();
  }

  /// Step 2: `op`'s float result read only by equal pd.quantize ops.
  template <typename OpTy> void fuseRequantize(OpTy op) {
    Value r = op->getResult(0);
    if (op.getOutDtype() != "float32")
      return;
    SmallVector<QuantizeOp> qs = equalQuantizers(r);
    if (qs.empty())
      return;
    op.setOutDtypeAttr(qs[0].getDtypeAttr());
    op.setOutputScaleAttr(qs[0].getScaleAttr());
    r.setType(qs[0].getType());
    replaceQuantizers(qs, r);
  }

  /// Step 2: an average pooling between two quantizers (QAT programs that
  /// quantize pooling inputs; Inception's pooling branches): avg(dequantize
  /// (q, s_in)) read only by equal quantizers of step s_out becomes the
  /// pooling of q itself, from int8 to int8, the average times s_in / s_out
  /// before rounding (`pd.int8_rescale`; oneDNN's int8 pooling). Exact up
  /// to float rounding: avg(s_in * q) = s_in * avg(q). Only where that
  /// kernel runs: a fixed NCHW window over static channels and image size,
  /// explicit or valid paddings, no ceil_mode.
  void int8AveragePool(OpBuilder &b, Pool2dOp pool) {
    auto in = cast<RankedTensorType>(pool.getX().getType());
    auto out = cast<RankedTensorType>(pool.getType());
    if (pool.getPoolingType() != "avg" || pool.getAdaptive() || pool.getCeilMode() ||
        pool.getDataFormat() == "NHWC" || pool.getPaddingAlgorithm() == "SAME" ||
        in.getRank() != 4 || !in.getElementType().isF32())
      return;
    for (int64_t i = 1; i < 4; ++i)
      if (in.isDynamicDim(i) || out.isDynamicDim(i))
        return;
    auto dq = pool.getX().getDefiningOp<DequantizeOp>();
    if (!dq || dq.getZeroPoint() != 0)
      return;
    SmallVector<QuantizeOp> qs = equalQuantizers(pool.getResult());
    // pd.pool2d keeps its element type (int8 to int8, uint8 to uint8).
    if (qs.empty() || qs[0].getType().getElementType() !=
                          cast<RankedTensorType>(dq.getX().getType()).getElementType())
      return;
    b.setInsertionPoint(pool);
    auto moved = cast<Pool2dOp>(b.clone(*pool));
    moved->setOperand(0, dq.getX());
    moved.getResult().setType(qs[0].getType());
    moved->setAttr("pd.int8_rescale", b.getF32FloatAttr(dq.getScale().convertToFloat() /
                                                        qs[0].getScale().convertToFloat()));
    replaceQuantizers(qs, moved.getResult());
    pool.erase();
    if (dq.use_empty())
      dq.erase();
  }

  /// The int8 quantized conv behind `v` = dequantize(conv result), when
  /// that conv has no residual and no activation yet and nothing else
  /// reads its result or `v`.
  static QuantizedConv2dOp soleInt8Conv(Value v) {
    auto dq = v.getDefiningOp<DequantizeOp>();
    if (!dq || dq.getZeroPoint() != 0 || !v.hasOneUse())
      return {};
    auto c = dq.getX().getDefiningOp<QuantizedConv2dOp>();
    if (!c || c.getOutDtype() == "float32" || c.getResidualData() ||
        !c.getFuseActivation().empty() || !c.getResult().hasOneUse() ||
        c.getOutputScale() != dq.getScale())
      return {};
    return c;
  }

  /// Step 2, last: a QAT residual add, dequantize(conv) + dequantize(t)
  /// (and a relu after it), where the conv writes int8 only for the add and
  /// t is an int8 tensor: the conv takes t as its int8 residual (scale
  /// `residual_scale`) and the relu as its activation, and writes what the
  /// add's readers quantize (else float32). The conv's own output quantizer
  /// drops out, as in Paddle Inference's int8 passes (which fuse the add
  /// into the conv): one rounding less than the program's fake quantizers.
  void fuseQatResidual(OpBuilder &b, ElementwiseAddOp add) {
    Value x = add.getX(), y = add.getY();
    if (x.getType() != y.getType())
      return;
    for (int side = 0; side < 2; ++side) {
      QuantizedConv2dOp c = soleInt8Conv(side ? y : x);
      auto other = (side ? x : y).getDefiningOp<DequantizeOp>();
      // The conv moves down to the add: only within one block (never into a
      // loop body it would then run in every iteration).
      if (!c || !other || other.getZeroPoint() != 0 || c->getBlock() != add->getBlock())
        continue;
      if (cast<RankedTensorType>(c.getType()).getShape() !=
          cast<RankedTensorType>(add.getType()).getShape())
        continue;
      Operation *relu = nullptr;
      Value result = add.getResult();
      if (result.hasOneUse() && isa<ReluOp>(*result.getUsers().begin())) {
        relu = *result.getUsers().begin();
        result = relu->getResult(0);
      }
      auto dq = cast<DequantizeOp>((side ? y : x).getDefiningOp());
      // The shortcut may be computed after the conv (ResNet's downsampling
      // branch): the conv moves down to the add, past nothing it reads.
      c->moveBefore(add);
      c.getResidualDataMutable().assign(other.getX());
      c.setResidualScaleAttr(other.getScaleAttr());
      if (relu)
        c.setFuseActivationAttr(b.getStringAttr("relu"));
      // The conv computes the (relu'd) sum in float32; then it writes what
      // the sum's readers quantize, when they all quantize alike.
      c.setOutDtypeAttr(b.getStringAttr("float32"));
      c.setOutputScaleAttr(b.getF32FloatAttr(1.f));
      c.getResult().setType(withF32(c.getType()));
      result.replaceAllUsesWith(c.getResult());
      if (relu)
        relu->erase();
      add.erase();
      dq.erase();
      if (other.use_empty())
        other.erase();
      fuseRequantize(c);
      return;
    }
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    for (auto func : module.getOps<func::FuncOp>()) {
      SmallVector<Operation *> ops;
      func.walk([&](Operation *op) { ops.push_back(op); });
      for (Operation *op : ops)
        visit(b, op);
      // Quantizers calibration inserted (not the program's own) that an op
      // left in float32 still reads: that op reads the float value instead.
      func.walk([&](DequantizeOp dq) {
        if (!dq->hasAttr("pd.calibrated") || dq.use_empty())
          return;
        if (auto q = dq.getX().getDefiningOp<QuantizeOp>())
          dq.getResult().replaceAllUsesWith(q.getX());
      });
      // The fake quantizers (and scale loads) nothing reads any more; they
      // would otherwise count as float readers below.
      eraseDeadOps(func);
      func.walk([](FakeQuantizeMovingAverageAbsMaxOp q) { q->removeAttr("pd.frozen_reason"); });
      splitFakeQuantizers(b, func);
      SmallVector<Operation *> quantized;
      func.walk([&](Operation *op) {
        if (isa<QuantizedConv2dOp, QuantizedFcOp>(op))
          quantized.push_back(op);
      });
      for (Operation *op : quantized)
        if (auto c = dyn_cast<QuantizedConv2dOp>(op))
          int8Residual(c);
      SmallVector<Pool2dOp> pools;
      func.walk([&](Pool2dOp p) { pools.push_back(p); });
      for (Pool2dOp p : pools)
        int8AveragePool(b, p);
      // Last first, so a chain of such ops moves to int8 as a whole.
      SmallVector<Operation *> movers;
      func.walk([&](Operation *op) {
        if (!quantizableThrough(op).empty())
          movers.push_back(op);
      });
      for (Operation *op : llvm::reverse(movers))
        quantizeBefore(b, op);
      for (Operation *op : quantized) {
        if (auto c = dyn_cast<QuantizedConv2dOp>(op)) {
          Value r = c.getResidualData();
          if (!r || !cast<RankedTensorType>(r.getType()).getElementType().isF32())
            fuseRequantize(c);
        } else {
          fuseRequantize(cast<QuantizedFcOp>(op));
        }
      }
      SmallVector<ElementwiseAddOp> adds;
      func.walk([&](ElementwiseAddOp add) { adds.push_back(add); });
      for (ElementwiseAddOp add : adds)
        fuseQatResidual(b, add);
    }
    // The mark was for int8Residual only.
    module.walk([](QuantizeOp q) { q->removeAttr("pd.calibrated"); });
    eraseUnusedGlobals(module);
  }
};
} // namespace
} // namespace mlir::pd

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

namespace mlir::pd {
#define GEN_PASS_DEF_PDQUANTIZEPASS
#define GEN_PASS_DEF_PDUNFREEZEQUANTPASS
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

/// Why `v` has no usable per-tensor int8 quantizer in front of it, or the
/// quantizer.
FailureOr<ActivationQuant> activationQuant(Value v, std::string &why) {
  Operation *def = v.getDefiningOp();
  auto threshold = [&](Value scale) -> std::optional<double> {
    std::optional<double> t = scalarConstant(scale);
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
    return ActivationQuant{q.getX(), q.getScale().convertToDouble(), q.getDtype() == "uint8"};
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
    return ActivationQuant{q.getX(), *t / kBin};
  }
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

Value quantizeInput(OpBuilder &b, Location loc, const ActivationQuant &a) {
  auto t = cast<RankedTensorType>(a.input.getType());
  Type element = a.isUnsigned ? Type(b.getIntegerType(8, /*isSigned=*/false)) : b.getI8Type();
  return QuantizeOp::create(b, loc, RankedTensorType::get(t.getShape(), element), a.input,
                            b.getF32FloatAttr(static_cast<float>(a.step)), b.getI32IntegerAttr(0),
                            b.getStringAttr(a.isUnsigned ? "uint8" : "int8"));
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
/// to the quantize-dequantize form; false when `deq` is not one.
bool unfreeze(OpBuilder &b, Operation *deq) {
  Value acc;
  std::optional<double> actScale;
  // Per-channel weight factor: w'[c] = w[c] * factor[c] (one value: all).
  std::vector<double> factor;
  if (auto d = dyn_cast<FakeChannelWiseDequantizeMaxAbsOp>(deq)) {
    ArrayRef<int32_t> bits = d.getQuantBits();
    if (d.getScales().size() != 2 || bits.size() != 2 || bits[0] != 8 || bits[1] != 8)
      return false;
    std::optional<std::vector<float>> sw = constantData(d.getScales()[0]);
    actScale = scalarConstant(d.getScales()[1]);
    if (!sw)
      return false;
    for (float v : *sw)
      factor.push_back(v / kBin);
    acc = d.getX();
  } else if (auto d = dyn_cast<FakeDequantizeMaxAbsOp>(deq)) {
    double range = d.getMaxRange().convertToDouble();
    actScale = scalarConstant(d.getScale());
    if (!(range > 0))
      return false;
    factor.push_back(kBin / range);
    acc = d.getX();
  } else {
    return false;
  }
  Operation *op = acc.getDefiningOp();
  if (!op || !acc.hasOneUse() || !actScale || !isa<Conv2dOp, DepthwiseConv2dOp, MulOp>(op))
    return false;
  auto q = op->getOperand(0).getDefiningOp<FakeQuantizeMovingAverageAbsMaxOp>();
  if (!q || q.getBitLength() != 8)
    return false;
  std::optional<double> t = scalarConstant(q.getInScale());
  Value w = op->getOperand(1);
  std::optional<std::vector<float>> data = constantData(w);
  auto wt = cast<RankedTensorType>(w.getType());
  if (!t || *t != *actScale || !data)
    return false;
  // The output channel of the weight: dim 0 of a filter, dim 1 of a mul's
  // 2-D weight.
  bool isMul = isa<MulOp>(op);
  if (isMul && (wt.getRank() != 2 || cast<MulOp>(op).getYNumColDims() != 1))
    return false;
  int64_t channels = isMul ? wt.getDimSize(1) : wt.getDimSize(0);
  if (factor.size() != 1 && static_cast<int64_t>(factor.size()) != channels)
    return false;
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
      for (Block &block : func.getBody())
        for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
          if (isOpTriviallyDead(&op))
            op.erase();
    eraseUnusedGlobals(getOperation());
  }
};

bool isComputeCandidate(Operation *op) {
  return isa<FusedConv2dOp, Conv2dOp, DepthwiseConv2dOp, FcOp, MulOp, MatmulV2Op>(op);
}

struct PdQuantizePass : impl::PdQuantizePassBase<PdQuantizePass> {
  using PdQuantizePassBase::PdQuantizePassBase;

  bool excluded(Operation *op) const {
    return matchesOpPattern(op, SmallVector<std::string>(exclude.begin(), exclude.end()));
  }

  /// Rewrites `op` (a conv) to pd.quantized_conv2d, or says why not.
  LogicalResult convert(OpBuilder &b, Operation *op, Value input, Value filter, Value bias,
                        Value residual, StringRef act, float alpha, float beta, std::string &why) {
    auto conv = [&](auto c) {
      b.setInsertionPoint(op);
      FailureOr<ActivationQuant> a = activationQuant(input, why);
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
      auto qc = QuantizedConv2dOp::create(
          b, op->getLoc(), withF32(op->getResult(0).getType()), xq, wq, bias, residual,
          c.getStridesAttr(), c.getPaddingsAttr(), c.getPaddingAlgorithmAttr(), c.getGroupsAttr(),
          c.getDilationsAttr(), b.getStringAttr("NCHW"), b.getStringAttr(act),
          b.getF32FloatAttr(alpha), b.getF32FloatAttr(beta),
          b.getF32FloatAttr(static_cast<float>(a->step)), b.getDenseF32ArrayAttr(q.scales),
          b.getF32FloatAttr(1.f), b.getStringAttr("float32"));
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
    FailureOr<ActivationQuant> a = activationQuant(x, why);
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

  /// Step 1 for one op; false when it is not a compute op at all.
  bool visit(OpBuilder &b, Operation *op) {
    std::string why;
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
    } else if (auto m = dyn_cast<MatmulV2Op>(op)) {
      auto xt = cast<RankedTensorType>(m.getX().getType());
      auto yt = cast<RankedTensorType>(m.getY().getType());
      if (excluded(op)) {
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
    }
    return true;
  }

  /// Step 2: `op`'s float result read only by equal pd.quantize ops.
  template <typename OpTy> void fuseRequantize(OpTy op) {
    Value r = op->getResult(0);
    if (op.getOutDtype() != "float32" || r.use_empty())
      return;
    QuantizeOp first;
    for (Operation *user : r.getUsers()) {
      auto q = dyn_cast<QuantizeOp>(user);
      if (!q || q.getZeroPoint() != 0 ||
          (first && (q.getScale() != first.getScale() || q.getDtype() != first.getDtype())))
        return;
      first = first ? first : q;
    }
    op.setOutDtypeAttr(first.getDtypeAttr());
    op.setOutputScaleAttr(first.getScaleAttr());
    r.setType(first.getType());
    for (Operation *user : llvm::make_early_inc_range(r.getUsers())) {
      user->getResult(0).replaceAllUsesWith(r);
      user->erase();
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
      for (Block &block : func.getBody())
        for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
          if (isOpTriviallyDead(&op))
            op.erase();
      SmallVector<Operation *> quantized;
      func.walk([&](Operation *op) {
        if (isa<QuantizedConv2dOp, QuantizedFcOp>(op))
          quantized.push_back(op);
      });
      for (Operation *op : quantized) {
        if (auto c = dyn_cast<QuantizedConv2dOp>(op)) {
          if (!c.getResidualData())
            fuseRequantize(c);
        } else {
          fuseRequantize(cast<QuantizedFcOp>(op));
        }
      }
    }
    eraseUnusedGlobals(module);
  }
};
} // namespace
} // namespace mlir::pd

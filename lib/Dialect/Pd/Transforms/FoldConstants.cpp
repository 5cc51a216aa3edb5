//===- FoldConstants.cpp - the pd-fold-constants pass ---------------------===//
//
// Evaluates ops whose operands are all parameters or constants at compile
// time and writes the results back as new dense_resource globals: weight
// reshapes and transposes, scales and casts of parameters, elementwise
// arithmetic between parameters, and fake quant-dequant of weights (QAT
// programs), so the fusion passes and the code see plain constants.
//
//===----------------------------------------------------------------------===//

#include "Constants.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <cstring>

namespace mlir::pd {
#define GEN_PASS_DEF_PDFOLDCONSTANTSPASS
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h.inc"

namespace {
/// A constant operand: its static type and raw bytes.
struct Data {
  RankedTensorType type;
  std::vector<char> bytes;
  int64_t elemBytes() const { return type.getElementTypeBitWidth() / 8; }
};

std::optional<Data> constantOperand(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isIntOrFloat() ||
      type.getElementTypeBitWidth() % 8 != 0)
    return std::nullopt;
  if (auto bytes = constantBytes(v))
    return Data{type, std::move(*bytes)};
  DenseElementsAttr dense;
  if (!matchPattern(v, m_Constant(&dense)))
    return std::nullopt;
  size_t elem = type.getElementTypeBitWidth() / 8, n = type.getNumElements();
  std::vector<char> out(n * elem);
  ArrayRef<char> raw = dense.getRawData();
  for (size_t i = 0; i < n; ++i)
    std::memcpy(out.data() + i * elem, raw.data() + (dense.isSplat() ? 0 : i * elem), elem);
  return Data{type, std::move(out)};
}

/// Element access as double for the arithmetic folds (f32/f64 and integers).
bool numeric(Type t) {
  return t.isF32() || t.isF64() ||
         (t.isInteger() && (t.getIntOrFloatBitWidth() == 8 || t.getIntOrFloatBitWidth() == 16 ||
                            t.getIntOrFloatBitWidth() == 32 || t.getIntOrFloatBitWidth() == 64));
}

double load(const Data &d, int64_t i) {
  Type t = d.type.getElementType();
  const char *p = d.bytes.data() + i * d.elemBytes();
  auto get = [&](auto tag) {
    decltype(tag) v;
    std::memcpy(&v, p, sizeof(v));
    return double(v);
  };
  if (t.isF32())
    return get(float());
  if (t.isF64())
    return get(double());
  bool u = t.isUnsignedInteger();
  switch (t.getIntOrFloatBitWidth()) {
  case 8:
    return u ? get(uint8_t()) : get(int8_t());
  case 16:
    return u ? get(uint16_t()) : get(int16_t());
  case 32:
    return u ? get(uint32_t()) : get(int32_t());
  default:
    return u ? get(uint64_t()) : get(int64_t());
  }
}

void store(std::vector<char> &bytes, Type t, int64_t i, double v) {
  int64_t size = t.getIntOrFloatBitWidth() / 8;
  char *p = bytes.data() + i * size;
  auto put = [&](auto x) { std::memcpy(p, &x, sizeof(x)); };
  if (t.isF32())
    return put(float(v));
  if (t.isF64())
    return put(v);
  bool u = t.isUnsignedInteger();
  switch (size) {
  case 1:
    return u ? put(uint8_t(v)) : put(int8_t(v));
  case 2:
    return u ? put(uint16_t(v)) : put(int16_t(v));
  case 4:
    return u ? put(uint32_t(v)) : put(int32_t(v));
  default:
    return u ? put(uint64_t(v)) : put(int64_t(v));
  }
}

std::vector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int64_t k = (int64_t)shape.size() - 2; k >= 0; --k)
    s[k] = s[k + 1] * shape[k + 1];
  return s;
}

/// Offset of operand `d` (aligned at dim `offset` of `out`, size-1 dims
/// broadcast) for every flat index of `out`.
std::vector<int64_t> broadcastIndex(const Data &d, RankedTensorType out, int64_t offset) {
  ArrayRef<int64_t> os = out.getShape(), ds = d.type.getShape();
  std::vector<int64_t> ostr = stridesOf(os), dstr = stridesOf(ds), idx(out.getNumElements());
  for (int64_t i = 0; i < out.getNumElements(); ++i) {
    int64_t off = 0;
    for (size_t k = 0; k < ds.size(); ++k) {
      int64_t pos = (i / ostr[offset + k]) % os[offset + k];
      off += (ds[k] == 1 ? 0 : pos) * dstr[k];
    }
    idx[i] = off;
  }
  return idx;
}

/// The folded bytes of every result of `op`, or nothing if it does not fold.
/// Paddle's quantization of x with scale s to an integer held in a float,
/// in float32 and in the order of Paddle's kernels (and of the lowering in
/// Quant.cpp), so a value whose scaled form lands on .5 rounds as Paddle's
/// does; bnt = 2^(bits - 1) - 1:
///   round_type 0: clamp(rint((bnt * inv(s)) * x), -bnt - 1, bnt)
///   round_type 1: round((bnt * inv(s)) * clip(x, -s, s)), half away from 0
/// with inv(s) = 1 / s, or 1 / (s + 1e-6) for s <= 1e-30.
float paddleQuantize(float x, float s, float bnt, int64_t roundType) {
  float k = bnt * (1.0f / (s <= 1e-30f ? s + 1e-6f : s));
  if (roundType == 0)
    return std::max(std::min(std::nearbyint(k * x), bnt), -bnt - 1.0f);
  return std::round(k * std::max(std::min(x, s), -s));
}

std::optional<SmallVector<std::vector<char>>> evaluate(Operation *op, ArrayRef<Data> in) {
  SmallVector<RankedTensorType> types;
  for (Type t : op->getResultTypes()) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || !rt.hasStaticShape() || !rt.getElementType().isIntOrFloat() ||
        rt.getElementTypeBitWidth() % 8 != 0)
      return std::nullopt;
    types.push_back(rt);
  }
  RankedTensorType out = types[0];
  int64_t n = out.getNumElements();
  std::vector<char> result(n * (out.getElementTypeBitWidth() / 8));
  Type elem = out.getElementType();

  // Same data, new shape.
  if (isa<Reshape2Op, Squeeze2Op, Unsqueeze2Op, FlattenContiguousRangeOp, Flatten2Op, AssignOp>(
          op)) {
    if (in[0].type.getElementType() != elem || in[0].bytes.size() != result.size())
      return std::nullopt;
    return SmallVector<std::vector<char>>{in[0].bytes};
  }
  if (auto t = dyn_cast<Transpose2Op>(op)) {
    ArrayRef<int32_t> perm = t.getAxis();
    ArrayRef<int64_t> is = in[0].type.getShape();
    std::vector<int64_t> istr = stridesOf(is), ostr = stridesOf(out.getShape());
    int64_t e = in[0].elemBytes();
    for (int64_t i = 0; i < n; ++i) {
      int64_t src = 0;
      for (size_t k = 0; k < perm.size(); ++k)
        src += ((i / ostr[k]) % out.getDimSize(k)) * istr[perm[k]];
      std::memcpy(result.data() + i * e, in[0].bytes.data() + src * e, e);
    }
    return SmallVector<std::vector<char>>{result};
  }
  if (!numeric(elem) ||
      !llvm::all_of(in, [](const Data &d) { return numeric(d.type.getElementType()); }))
    return std::nullopt;
  if (auto s = dyn_cast<ScaleOp>(op)) {
    if (s.getScaleTensor())
      return std::nullopt;
    double a = s.getScale().convertToDouble(), b = s.getBias().convertToDouble();
    bool after = s.getBiasAfterScale();
    for (int64_t i = 0; i < n; ++i) {
      double x = load(in[0], i);
      store(result, elem, i, after ? a * x + b : a * (x + b));
    }
    return SmallVector<std::vector<char>>{result};
  }
  if (isa<CastOp>(op)) {
    for (int64_t i = 0; i < n; ++i)
      store(result, elem, i, load(in[0], i));
    return SmallVector<std::vector<char>>{result};
  }
  if (isa<ElementwiseAddOp, ElementwiseSubOp, ElementwiseMulOp, ElementwiseDivOp>(op)) {
    if (!elem.isF32() && !elem.isF64())
      return std::nullopt; // integer division and overflow rules: leave to run time
    auto axisAttr = op->getAttrOfType<IntegerAttr>("axis");
    int64_t axis = axisAttr ? axisAttr.getInt() : -1;
    int64_t rx = in[0].type.getRank(), ry = in[1].type.getRank(), ro = out.getRank();
    int64_t offY = axis == -1 || ry > rx ? ro - ry : axis + (ro - rx);
    if (offY < 0 || offY + ry > ro)
      return std::nullopt;
    std::vector<int64_t> ix = broadcastIndex(in[0], out, ro - rx);
    std::vector<int64_t> iy = broadcastIndex(in[1], out, offY);
    for (int64_t i = 0; i < n; ++i) {
      double x = load(in[0], ix[i]), y = load(in[1], iy[i]), r;
      if (isa<ElementwiseAddOp>(op))
        r = x + y;
      else if (isa<ElementwiseSubOp>(op))
        r = x - y;
      else if (isa<ElementwiseMulOp>(op))
        r = x * y;
      else
        r = x / y;
      store(result, elem, i, r);
    }
    return SmallVector<std::vector<char>>{result};
  }
  if (isa<QuantizeLinearOp, DequantizeLinearOp>(op)) {
    // PaddleSlim 2.x: a weight's (de)quantization with constant scales, per
    // tensor (quant_axis -1) or along quant_axis, in float32; symmetric, the
    // zero point unused as in Paddle: quantize_linear is paddleQuantize,
    // dequantize_linear (x * s) / bnt.
    auto q = dyn_cast<QuantizeLinearOp>(op);
    int64_t axis = q ? q.getQuantAxis() : cast<DequantizeLinearOp>(op).getQuantAxis();
    int64_t bits = q ? q.getBitLength() : cast<DequantizeLinearOp>(op).getBitLength();
    int64_t channels = axis < 0 ? 1 : out.getDimSize(axis);
    if (!elem.isF32() || axis >= out.getRank() || in[1].type.getNumElements() != channels)
      return std::nullopt;
    int64_t stride = axis < 0 ? 1 : stridesOf(out.getShape())[axis];
    float bnt = static_cast<float>(std::pow(2.0, bits - 1) - 1);
    for (int64_t i = 0; i < n; ++i) {
      float s = static_cast<float>(load(in[1], axis < 0 ? 0 : (i / stride) % channels));
      float x = static_cast<float>(load(in[0], i));
      store(result, elem, i, q ? paddleQuantize(x, s, bnt, q.getRoundType()) : x * s / bnt);
    }
    return SmallVector<std::vector<char>>{result};
  }
  if (auto q = dyn_cast<FakeChannelWiseQuantizeDequantizeAbsMaxOp>(op)) {
    // Per channel along quant_axis, s = max|x|: y = paddleQuantize(x, s) *
    // s / bnt, in float32.
    int64_t axis = q.getQuantAxis();
    if (!elem.isF32() || axis >= out.getRank())
      return std::nullopt;
    float bnt = static_cast<float>(std::pow(2.0, q.getBitLength() - 1) - 1);
    int64_t channels = out.getDimSize(axis), stride = stridesOf(out.getShape())[axis];
    std::vector<float> scale(channels, 0.0f);
    for (int64_t i = 0; i < n; ++i) {
      int64_t c = (i / stride) % channels;
      scale[c] = std::max(scale[c], std::fabs(static_cast<float>(load(in[0], i))));
    }
    for (int64_t i = 0; i < n; ++i) {
      float s = scale[(i / stride) % channels], x = static_cast<float>(load(in[0], i));
      store(result, elem, i, paddleQuantize(x, s, bnt, q.getRoundType()) * s / bnt);
    }
    std::vector<char> scales(channels * 4);
    if ((int64_t)types[1].getNumElements() != channels || !types[1].getElementType().isF32())
      return std::nullopt;
    for (int64_t c = 0; c < channels; ++c)
      store(scales, types[1].getElementType(), c, scale[c]);
    return SmallVector<std::vector<char>>{result, scales};
  }
  return std::nullopt;
}

struct PdFoldConstantsPass : impl::PdFoldConstantsPassBase<PdFoldConstantsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder builder(&getContext());
    // A matmul_v2 reading a constant 2-D Y transposed (ONNX Gemm with
    // transB) reads a transposed copy instead, folded below; the plain
    // [K, N] weight lets pd-fuse-fc make it an fc.
    module.walk([&](MatmulV2Op mm) {
      auto yt = dyn_cast<RankedTensorType>(mm.getY().getType());
      if (!mm.getTransY() || !yt || yt.getRank() != 2 ||
          !mm.getY().getDefiningOp<ml_program::GlobalLoadConstOp>())
        return;
      builder.setInsertionPoint(mm);
      auto type = RankedTensorType::get({yt.getDimSize(1), yt.getDimSize(0)}, yt.getElementType());
      auto t = Transpose2Op::create(builder, mm.getLoc(), type, mm.getY(),
                                    builder.getDenseI32ArrayAttr({1, 0}), StringAttr());
      mm.getYMutable().assign(t.getResult());
      mm.setTransY(false);
    });
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<PdDialect>(op->getDialect()) && op->getNumOperands() > 0 && op->getNumRegions() == 0)
        ops.push_back(op);
    });
    // Program order: a fold's new global feeds the folds after it.
    for (Operation *op : ops) {
      SmallVector<Data> in;
      for (Value v : op->getOperands()) {
        std::optional<Data> d = constantOperand(v);
        if (!d)
          break;
        in.push_back(std::move(*d));
      }
      if (in.size() != op->getNumOperands())
        continue;
      std::optional<SmallVector<std::vector<char>>> results = evaluate(op, in);
      if (!results)
        continue;
      std::string base =
          globalName(op->getOperand(0), "const") + "." + op->getName().stripDialect().str();
      for (auto [result, bytes] : llvm::zip(op->getResults(), *results))
        result.replaceAllUsesWith(
            newConstantBytes(builder, op, base, cast<RankedTensorType>(result.getType()), bytes));
      op->erase();
    }
    module.walk([](ml_program::GlobalLoadConstOp load) {
      if (load->use_empty())
        load->erase();
    });
    eraseUnusedGlobals(module);
  }
};
} // namespace
} // namespace mlir::pd

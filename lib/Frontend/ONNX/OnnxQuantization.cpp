//===- OnnxQuantization.cpp - ONNX quantization ops -----------------------===//
//
// QuantizeLinear/DequantizeLinear (affine, composed), and the integer and
// QLinear matmul/conv products computed in f64 and requantized.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporter.h"

using namespace mlir;
using namespace mlir::pd::onnx_import;

static LogicalResult importQuantizeLinear(OnnxImporter &im) {
  const std::string &t = im.node->op_type();
  // ONNX's affine quantization, composed: y = saturate(round(x / scale) +
  // zero_point) and x = (q - zero_point) * scale, per tensor or along
  // `axis`. (pd.quantize_linear is Paddle's symmetric form, which also
  // divides by 2^(bits-1) - 1.)
  auto x = im.input(0), scale = im.input(1);
  if (failed(x) || failed(scale))
    return failure();
  auto st = cast<RankedTensorType>(scale->getType());
  int64_t axis = -1;
  if (st.getRank() > 0 && st.getNumElements() != 1) {
    axis = im.attrInt("axis", 1);
    if (axis < 0)
      axis += im.rankOf(*x);
  }
  Type f32t = im.b.getF32Type();
  FailureOr<Value> zp = failure();
  if (im.hasInput(2)) {
    auto z = im.input(2);
    if (failed(z))
      return failure();
    zp = im.castTo(*z, f32t);
    if (failed(zp))
      return failure();
  }
  if (t == "DequantizeLinear") {
    auto xf = im.castTo(*x, f32t);
    if (failed(xf))
      return failure();
    if (succeeded(zp))
      xf = im.pd1("elementwise_sub", {*xf, *zp}, {im.i32("axis", axis)});
    if (failed(xf))
      return failure();
    return im.define(0, im.pd1("elementwise_mul", {*xf, *scale}, {im.i32("axis", axis)}));
  }
  Type out = IntegerType::get(im.ctx, 8, IntegerType::Unsigned);
  if (im.hasInput(2))
    out = cast<ShapedType>(im.input(2)->getType()).getElementType();
  if (!out.isInteger(8) && !out.isUnsignedInteger(8))
    return im.nodeError("only int8 and uint8 quantization is supported");
  auto q = im.pd1("elementwise_div", {*x, *scale}, {im.i32("axis", axis)});
  if (failed(q))
    return failure();
  q = im.roundHalfEven(*q);
  if (succeeded(q) && succeeded(zp))
    q = im.pd1("elementwise_add", {*q, *zp}, {im.i32("axis", axis)});
  if (failed(q))
    return failure();
  bool u = out.isUnsignedInteger();
  q = im.pd1("clip", {*q}, {im.f32("min", u ? 0.0 : -128.0), im.f32("max", u ? 255.0 : 127.0)},
             {1, 0, 0});
  if (failed(q))
    return failure();
  return im.define(0, im.castTo(*q, out));
}

LogicalResult OnnxImporter::quantizedProduct() {
  StringRef t = node->op_type();
  bool qlinear = t.starts_with("QLinear"), conv = t.contains("Conv");
  // Operand positions: MatMulInteger/ConvInteger (a, b, a_zp, b_zp);
  // QLinear* (a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp[, bias]).
  int ia = 0, ib = qlinear ? 3 : 1, iaz = qlinear ? 2 : 2, ibz = qlinear ? 5 : 3;
  auto a = input(ia), bv = input(ib);
  if (failed(a) || failed(bv))
    return failure();
  int64_t rankA = rankOf(*a), rankB = rankOf(*bv);
  if (conv && (rankA != 4 || rankB != 4))
    return nodeError("only 2-D (NCHW) integer convolutions are supported");
  Chain op{*this};
  Type i32t = b.getI32Type(), f64t = b.getF64Type();
  // A per-row (matmul A: [M] -> [M, 1]) or per-output-channel (conv
  // weights: [M] -> [M, 1, 1, 1]; conv result: [M] -> [M, 1, 1]) vector
  // reshaped to broadcast against its tensor; scalars and [1] stay.
  auto along = [&](Value v, int64_t trailing) -> Value {
    auto vt = cast<RankedTensorType>(v.getType());
    if (!v || vt.getRank() == 0 || vt.getNumElements() == 1 || trailing == 0)
      return v;
    SmallVector<int64_t> shape = {vt.getDimSize(0)};
    shape.append(trailing, 1);
    return op("reshape2", {v}, {ints("shape", shape)}, {1, 0, 0});
  };
  auto shifted = [&](Value v, int zpIndex, int64_t trailing) -> Value {
    Value vi = castTo(v, f64t).value_or(Value());
    if (!vi || !hasInput(zpIndex))
      return vi;
    auto zp = input(zpIndex);
    if (failed(zp))
      return op.ok = false, Value();
    Value zi = castTo(*zp, f64t).value_or(Value());
    return op("elementwise_sub", {vi, along(zi, trailing)});
  };
  // a's zero point / scale: per row of a 2-D matmul A; b's: per column of
  // B (broadcasts as is) or per output channel of conv weights.
  Value ai = shifted(*a, iaz, conv ? 0 : 1);
  Value bi = shifted(*bv, ibz, conv ? 3 : 0);
  if (!ai || !bi || !op.ok)
    return failure();
  Value acc;
  if (conv) {
    const onnx::NodeProto *outer = node;
    onnx::NodeProto n2 = *outer;
    n2.set_op_type("Conv");
    n2.clear_input();
    std::string tag = "__qconv_" + std::to_string(expansions++) + "_";
    env[tag + "x"] = ai;
    env[tag + "w"] = bi;
    n2.add_input(tag + "x");
    n2.add_input(tag + "w");
    n2.set_output(0, tag + "y");
    node = &n2;
    LogicalResult ok = convPool("Conv");
    node = outer;
    if (failed(ok))
      return failure();
    acc = env[tag + "y"];
  } else {
    acc = op("matmul_v2", {ai, bi});
  }
  if (!qlinear)
    return op.ok ? define(0, castTo(acc, i32t)) : failure();

  if (conv && hasInput(8)) { // int32 bias, one per output channel
    auto bias = input(8);
    if (failed(bias))
      return failure();
    acc = op("elementwise_add", {acc, along(castTo(*bias, f64t).value_or(Value()), 2)});
  }
  auto sa = input(1), sb = input(4), sy = input(6), zy = input(7);
  if (failed(sa) || failed(sb) || failed(sy) || failed(zy))
    return failure();
  Type out = cast<ShapedType>(zy->getType()).getElementType();
  if (!out.isInteger(8) && !out.isUnsignedInteger(8))
    return nodeError("only int8 and uint8 outputs are supported");
  // The multiplier in f32 (the scales' type), applied in f64.
  Value mult = op("elementwise_mul", {along(*sa, conv ? 0 : 1), along(*sb, conv ? 2 : 0)});
  mult = op("elementwise_div", {mult, *sy});
  Value y = op("elementwise_mul", {acc, castTo(mult, f64t).value_or(Value())});
  if (!op.ok)
    return failure();
  y = roundHalfEven(y).value_or(Value());
  y = op("elementwise_add", {y, castTo(*zy, f64t).value_or(Value())});
  bool u = out.isUnsignedInteger();
  y = op("clip", {y}, {f32("min", u ? 0.0 : -128.0), f32("max", u ? 255.0 : 127.0)}, {1, 0, 0});
  if (!op.ok)
    return failure();
  return define(0, castTo(y, out));
}

void mlir::pd::onnx_import::registerQuantizationConverters(ConverterTable &table) {
  table.add({"QuantizeLinear", "DequantizeLinear"}, importQuantizeLinear);
  table.add({"MatMulInteger", "ConvInteger", "QLinearMatMul", "QLinearConv"},
            [](OnnxImporter &im) { return im.quantizedProduct(); });
}

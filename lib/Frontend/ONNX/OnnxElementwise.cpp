//===- OnnxElementwise.cpp - ONNX elementwise and math ops ----------------===//
//
// Unary and binary elementwise ops, activations, comparisons and logic,
// Cast, Clip, Where, MatMul, Gemm, Einsum, Softmax and Hardmax, CumSum.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cfloat>

using namespace mlir;
using namespace mlir::pd::onnx_import;

static LogicalResult importBinary(OnnxImporter &im, StringRef pdName) {
  const std::string &t = im.node->op_type();
  auto x = im.input(0), y = im.input(1);
  if (failed(x) || failed(y))
    return failure();
  // Pow's exponent may have another type than the base.
  Type ex = cast<ShapedType>(x->getType()).getElementType();
  Type ey = cast<ShapedType>(y->getType()).getElementType();
  if (t == "Pow" && !isa<FloatType>(ex)) {
    // Integer powers: computed in f64 (exact while the result fits its
    // 53-bit mantissa), then cast back to the base's type.
    Type f64 = im.b.getF64Type();
    auto xf = im.castTo(*x, f64), yf = im.castTo(*y, f64);
    if (failed(xf) || failed(yf))
      return failure();
    auto p = im.pd1("elementwise_pow", {*xf, *yf}, {im.i32("axis", -1)});
    if (failed(p))
      return failure();
    return im.define(0, im.castTo(*p, ex));
  }
  if (t == "Pow" && ex != ey) {
    if (paddleDtype(ex) < 0 || paddleDtype(ey) < 0)
      return im.nodeError("unsupported operand types");
    y = im.pd1("cast", {*y},
               {im.i32("in_dtype", paddleDtype(ey)), im.i32("out_dtype", paddleDtype(ex))});
    if (failed(y))
      return failure();
  }
  return im.define(0, im.pd1(pdName, {*x, *y}, {im.i32("axis", -1)}));
}

static LogicalResult importMaxMin(OnnxImporter &im) {
  const onnx::NodeProto &n = *im.node;
  const std::string &t = n.op_type();
  if (n.input_size() < 1)
    return im.nodeError("needs at least one input");
  auto acc = im.input(0);
  if (failed(acc))
    return failure();
  Value v = *acc;
  for (int i = 1; i < n.input_size(); ++i) {
    auto y = im.input(i);
    if (failed(y))
      return failure();
    auto r =
        im.pd1(t == "Max" ? "elementwise_max" : "elementwise_min", {v, *y}, {im.i32("axis", -1)});
    if (failed(r))
      return failure();
    v = *r;
  }
  return im.define(0, v);
}

static LogicalResult importNeg(OnnxImporter &im) {
  return im.define(0, im.pd1("scale", {*im.input(0)}, {im.f32("scale", -1.0)}));
}

static LogicalResult importLeakyRelu(OnnxImporter &im) {
  return im.define(
      0, im.pd1("leaky_relu", {*im.input(0)}, {im.f32("alpha", im.attrFloat("alpha", 0.01))}));
}

static LogicalResult importHardSigmoid(OnnxImporter &im) {
  return im.define(0, im.pd1("hard_sigmoid", {*im.input(0)},
                             {im.f32("slope", im.attrFloat("alpha", 0.2)),
                              im.f32("offset", im.attrFloat("beta", 0.5))}));
}

static LogicalResult importHardSwish(OnnxImporter &im) {
  return im.define(0, im.pd1("hard_swish", {*im.input(0)}));
}

static LogicalResult importPRelu(OnnxImporter &im) {
  // max(x, 0) + slope * min(x, 0), with ONNX broadcasting of the slope.
  auto x = im.input(0), s = im.input(1);
  if (failed(x) || failed(s))
    return failure();
  Value zero = im.scalarConst(cast<ShapedType>(x->getType()).getElementType(), 0.0);
  auto pos = im.pd1("elementwise_max", {*x, zero});
  auto neg = im.pd1("elementwise_min", {*x, zero});
  if (failed(pos) || failed(neg))
    return failure();
  auto scaled = im.pd1("elementwise_mul", {*neg, *s});
  if (failed(scaled))
    return failure();
  return im.define(0, im.pd1("elementwise_add", {*pos, *scaled}));
}

static LogicalResult importSoftmax(OnnxImporter &im) {
  const std::string &t = im.node->op_type();
  auto x = im.input(0);
  if (failed(x))
    return failure();
  int64_t rank = im.rankOf(*x);
  int64_t axis = im.attrInt("axis", im.opset >= 13 ? -1 : 1);
  if (axis < 0)
    axis += rank;
  std::string op = t == "Softmax" ? "softmax" : "log_softmax";
  if (im.opset >= 13 || axis == rank - 1)
    return im.define(0, im.pd1(op, {*x}, {im.i32("axis", axis)}));
  // Before opset 13: softmax over the flattened dims [axis, rank).
  auto xt = cast<RankedTensorType>(x->getType());
  if (!xt.hasStaticShape())
    return im.nodeError("softmax over several dims (opset < 13) needs static shapes");
  int64_t outer = 1;
  for (int64_t k = 0; k < axis; ++k)
    outer *= xt.getDimSize(k);
  auto flat = im.pd1("reshape2", {*x}, {im.ints("shape", {outer, -1})}, {1, 0, 0});
  if (failed(flat))
    return failure();
  auto sm = im.pd1(op, {*flat}, {im.i32("axis", 1)});
  if (failed(sm))
    return failure();
  return im.define(0, im.pd1("reshape2", {*sm}, {im.ints("shape", xt.getShape())}, {1, 0, 0}));
}

static LogicalResult importMatMul(OnnxImporter &im) {
  auto x = im.input(0), y = im.input(1);
  if (failed(x) || failed(y))
    return failure();
  return im.define(0, im.pd1("matmul_v2", {*x, *y}));
}

static LogicalResult importGemm(OnnxImporter &im) {
  auto a = im.input(0), bv = im.input(1);
  if (failed(a) || failed(bv))
    return failure();
  auto y = im.pd1("matmul_v2", {*a, *bv},
                  {im.flag("trans_x", im.attrInt("transA", 0) != 0),
                   im.flag("trans_y", im.attrInt("transB", 0) != 0)});
  if (failed(y))
    return failure();
  double alpha = im.attrFloat("alpha", 1.0), beta = im.attrFloat("beta", 1.0);
  if (alpha != 1.0)
    y = im.pd1("scale", {*y}, {im.f32("scale", alpha)});
  if (failed(y) || !im.hasInput(2))
    return im.define(0, y);
  auto c = im.input(2);
  if (failed(c))
    return failure();
  Value cv = *c;
  if (beta != 1.0) {
    auto scaled = im.pd1("scale", {cv}, {im.f32("scale", beta)});
    if (failed(scaled))
      return failure();
    cv = *scaled;
  }
  return im.define(0, im.pd1("elementwise_add", {*y, cv}, {im.i32("axis", -1)}));
}

static LogicalResult importCast(OnnxImporter &im) {
  const std::string &t = im.node->op_type();
  auto x = im.input(0);
  if (failed(x))
    return failure();
  Type to = elementType(im.ctx, im.attrInt("to", 0));
  if (t == "CastLike") {
    auto like = im.input(1);
    if (failed(like))
      return failure();
    to = cast<ShapedType>(like->getType()).getElementType();
  }
  return im.define(0, im.castTo(*x, to));
}

static LogicalResult importClip(OnnxImporter &im) {
  auto x = im.input(0);
  if (failed(x))
    return failure();
  double lo = -FLT_MAX, hi = FLT_MAX;
  if (im.opset < 11) {
    lo = im.attrFloat("min", lo);
    hi = im.attrFloat("max", hi);
  } else {
    for (int i = 1; i <= 2; ++i) {
      if (!im.hasInput(i))
        continue;
      const ConstTensor *c = im.constInput(i);
      std::optional<double> v = c ? c->scalar() : std::nullopt;
      if (!v) {
        // Run-time bounds: max(x, min) then min(., max).
        Value y = *x;
        for (int k = 1; k <= 2; ++k) {
          if (!im.hasInput(k))
            continue;
          auto bound = im.input(k);
          if (failed(bound))
            return failure();
          auto r = im.pd1(k == 1 ? "elementwise_max" : "elementwise_min", {y, *bound});
          if (failed(r))
            return failure();
          y = *r;
        }
        return im.define(0, y);
      }
      (i == 1 ? lo : hi) = *v;
    }
  }
  return im.define(0, im.pd1("clip", {*x}, {im.f32("min", lo), im.f32("max", hi)}, {1, 0, 0}));
}

static LogicalResult importWhere(OnnxImporter &im) {
  auto c = im.input(0), x = im.input(1), y = im.input(2);
  if (failed(c) || failed(x) || failed(y))
    return failure();
  return im.define(0, im.pd1("where", {*c, *x, *y}));
}

static LogicalResult importShrink(OnnxImporter &im) {
  // x < -lambd: x + bias; x > lambd: x - bias; else 0.
  auto x = im.input(0);
  if (failed(x))
    return failure();
  Type elem = cast<ShapedType>(x->getType()).getElementType();
  double lambd = im.attrFloat("lambd", 0.5), bias = im.attrFloat("bias", 0.0);
  auto low = im.pd1("less_than", {*x, im.scalarConst(elem, -lambd)});
  auto high = im.pd1("greater_than", {*x, im.scalarConst(elem, lambd)});
  auto plus = im.pd1("scale", {*x}, {im.f32("bias", bias)});
  auto minus = im.pd1("scale", {*x}, {im.f32("bias", -bias)});
  if (failed(low) || failed(high) || failed(plus) || failed(minus))
    return failure();
  auto inner = im.pd1("where", {*high, *minus, im.scalarConst(elem, 0.0)});
  if (failed(inner))
    return failure();
  return im.define(0, im.pd1("where", {*low, *plus, *inner}));
}

static LogicalResult importBitShift(OnnxImporter &im) {
  auto x = im.input(0), y = im.input(1);
  if (failed(x) || failed(y))
    return failure();
  std::string dir = im.attrStr("direction", "");
  if (dir != "LEFT" && dir != "RIGHT")
    return im.nodeError("direction must be LEFT or RIGHT, not '" + dir + "'");
  return im.define(0,
                   im.pd1(dir == "LEFT" ? "bitwise_left_shift" : "bitwise_right_shift", {*x, *y}));
}

static LogicalResult importEinsum(OnnxImporter &im) {
  const onnx::NodeProto &n = *im.node;
  SmallVector<Value> in;
  for (int i = 0; i < n.input_size(); ++i) {
    auto v = im.input(i);
    if (failed(v))
      return failure();
    in.push_back(*v);
  }
  return im.define(0, im.pd1("einsum", in, {im.str("equation", im.attrStr("equation", ""))}));
}

static LogicalResult importEluCelu(OnnxImporter &im, Value x) {
  const std::string &t = im.node->op_type();
  return im.define(
      0, im.pd1(t == "Elu" ? "elu" : "celu", {x}, {im.f32("alpha", im.attrFloat("alpha", 1.0))}));
}

static LogicalResult importSelu(OnnxImporter &im, Value x) {
  return im.define(0, im.pd1("selu", {x},
                             {im.f32("alpha", im.attrFloat("alpha", 1.67326319217681884765625)),
                              im.f32("scale", im.attrFloat("gamma", 1.05070102214813232421875))}));
}

static LogicalResult importThresholdedRelu(OnnxImporter &im, Value x) {
  return im.define(
      0, im.pd1("thresholded_relu", {x}, {im.f32("threshold", im.attrFloat("alpha", 1.0))}));
}

static LogicalResult importIsInf(OnnxImporter &im, Value x) {
  Type elem = cast<ShapedType>(x.getType()).getElementType();
  auto zero = [&]() { return im.scalarConst(elem, 0.0); };
  // isinf, restricted to one sign by detect_positive / detect_negative.
  auto mask = im.pd1("isinf_v2", {x});
  for (auto [name, cmp] : {std::pair<StringRef, StringRef>{"detect_positive", "less_than"},
                           {"detect_negative", "greater_than"}}) {
    if (failed(mask) || im.attrInt(name, 1))
      continue;
    auto sign = im.pd1(cmp, {x, zero()});
    mask = failed(sign) ? sign : im.pd1("logical_and", {*mask, *sign});
  }
  return im.define(0, mask);
}

static LogicalResult importOrEqual(OnnxImporter &im, Value x) {
  const std::string &t = im.node->op_type();
  auto y = im.input(1);
  if (failed(y))
    return failure();
  auto strict = im.pd1(t == "GreaterOrEqual" ? "greater_than" : "less_than", {x, *y});
  auto eq = im.pd1("equal", {x, *y});
  if (failed(strict) || failed(eq))
    return failure();
  return im.define(0, im.pd1("logical_or", {*strict, *eq}));
}

static LogicalResult importMod(OnnxImporter &im, Value x) {
  Type elem = cast<ShapedType>(x.getType()).getElementType();
  auto zero = [&]() { return im.scalarConst(elem, 0.0); };
  auto y = im.input(1);
  if (failed(y))
    return failure();
  // elementwise_mod takes the divisor's sign; fmod takes the dividend's:
  // where they differ (and r != 0), fmod = r - y.
  auto r = im.pd1("elementwise_mod", {x, *y});
  if (failed(r) || !im.attrInt("fmod", 0))
    return im.define(0, r);
  auto nz = im.pd1("not_equal", {*r, zero()});
  auto rn = im.pd1("less_than", {*r, zero()});
  auto xn = im.pd1("less_than", {x, zero()});
  if (failed(nz) || failed(rn) || failed(xn))
    return failure();
  auto differ = im.pd1("logical_xor", {*rn, *xn});
  if (failed(differ))
    return failure();
  auto fix = im.pd1("logical_and", {*nz, *differ});
  auto shifted = im.pd1("elementwise_sub", {*r, *y});
  if (failed(fix) || failed(shifted))
    return failure();
  return im.define(0, im.pd1("where", {*fix, *shifted, *r}));
}

static LogicalResult importCumSum(OnnxImporter &im, Value x) {
  const ConstTensor *c = im.constInput(1);
  std::optional<double> axis = c ? c->scalar() : std::nullopt;
  // A 1-D input has one axis: any valid run-time axis (0 or -1) means it.
  if (!axis && im.rankOf(x) == 1)
    axis = 0.0;
  if (!axis) {
    // Run-time axis: the cumsum along the dim the axis names.
    auto axisV = im.input(1);
    if (failed(axisV))
      return failure();
    auto mask = im.axisMask(*axisV, im.rankOf(x));
    if (failed(mask))
      return failure();
    Value out;
    for (int64_t d = 0; d < im.rankOf(x); ++d) {
      auto c = im.pd1("cumsum", {x},
                      {im.i32("axis", d), im.flag("exclusive", im.attrInt("exclusive", 0) != 0),
                       im.flag("reverse", im.attrInt("reverse", 0) != 0)});
      if (failed(c))
        return failure();
      if (!out) {
        out = *c;
        continue;
      }
      auto m = im.sliceElement(*mask, d);
      if (failed(m))
        return failure();
      auto w = im.pd1("where", {*m, *c, out});
      if (failed(w))
        return failure();
      out = *w;
    }
    return im.define(0, out);
  }
  int64_t a = int64_t(*axis);
  if (a < 0)
    a += im.rankOf(x);
  return im.define(0,
                   im.pd1("cumsum", {x},
                          {im.i32("axis", a), im.flag("exclusive", im.attrInt("exclusive", 0) != 0),
                           im.flag("reverse", im.attrInt("reverse", 0) != 0)}));
}

static LogicalResult importSumMean(OnnxImporter &im, Value x) {
  const std::string &t = im.node->op_type();
  Value acc = x;
  for (int i = 1; i < im.node->input_size(); ++i) {
    auto y = im.input(i);
    if (failed(y))
      return failure();
    auto r = im.pd1("elementwise_add", {acc, *y});
    if (failed(r))
      return failure();
    acc = *r;
  }
  if (t == "Sum" || im.node->input_size() == 1)
    return im.define(0, acc);
  return im.define(0, im.pd1("scale", {acc}, {im.f32("scale", 1.0 / im.node->input_size())}));
}

static LogicalResult importRound(OnnxImporter &im, Value x) {
  return im.define(0, im.roundHalfEven(x));
}

static LogicalResult importHardmax(OnnxImporter &im, Value x) {
  Type elem = cast<ShapedType>(x.getType()).getElementType();
  // 1 at the first maximum along the axis: arg_max compared with the
  // positions 0..n-1 laid along that axis.
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t rank = xt.getRank(), axis = im.attrInt("axis", im.opset >= 13 ? -1 : 1);
  if (axis < 0)
    axis += rank;
  if (im.opset < 13 && axis != rank - 1)
    return im.nodeError(
        "Hardmax over flattened dims (opset < 13) is only supported for the last axis");
  int64_t size = xt.getDimSize(axis);
  if (ShapedType::isDynamic(size))
    return im.nodeError("needs a static size along the axis");
  auto am = im.pd1("arg_max", {x},
                   {im.b.getNamedAttr("axis", im.b.getI64IntegerAttr(axis)),
                    im.flag("keepdims", true), im.i32("dtype", 3)});
  if (failed(am))
    return failure();
  SmallVector<int64_t> iotaShape(rank - axis, 1);
  iotaShape[0] = size;
  std::vector<int64_t> iota;
  for (int64_t k = 0; k < size; ++k)
    iota.push_back(k);
  Value pos = im.intConst(RankedTensorType::get(iotaShape, im.b.getIntegerType(64)), iota);
  auto hit = im.pd1("equal", {*am, pos});
  if (failed(hit))
    return failure();
  return im.define(0, im.castTo(*hit, elem));
}

FailureOr<Value> OnnxImporter::roundHalfEven(Value x) {
  // floor(x) + 1 where the fraction is above 0.5, or is 0.5 and floor(x)
  // is odd.
  Type elem = cast<ShapedType>(x.getType()).getElementType();
  auto f = pd1("floor", {x});
  if (failed(f))
    return failure();
  auto frac = pd1("elementwise_sub", {x, *f});
  if (failed(frac))
    return failure();
  Value half = scalarConst(elem, 0.5);
  auto above = pd1("greater_than", {*frac, half});
  auto tie = pd1("equal", {*frac, half});
  auto parity = pd1("elementwise_mod", {*f, scalarConst(elem, 2.0)});
  if (failed(above) || failed(tie) || failed(parity))
    return failure();
  auto odd = pd1("equal", {*parity, scalarConst(elem, 1.0)});
  if (failed(odd))
    return failure();
  auto tieUp = pd1("logical_and", {*tie, *odd});
  if (failed(tieUp))
    return failure();
  auto up = pd1("logical_or", {*above, *tieUp});
  auto next = pd1("scale", {*f}, {f32("bias", 1.0)});
  if (failed(up) || failed(next))
    return failure();
  return pd1("where", {*up, *next, *f});
}

void mlir::pd::onnx_import::registerElementwiseConverters(ConverterTable &table) {
  static const std::pair<StringRef, StringRef> unary[] = {
      {"Relu", "relu"},         {"Sigmoid", "sigmoid"},
      {"Tanh", "tanh"},         {"Exp", "exp"},
      {"Log", "log"},           {"Sqrt", "sqrt"},
      {"Erf", "erf"},           {"Abs", "abs"},
      {"Sin", "sin"},           {"Cos", "cos"},
      {"Tan", "tan"},           {"Asin", "asin"},
      {"Acos", "acos"},         {"Atan", "atan"},
      {"Sinh", "sinh"},         {"Cosh", "cosh"},
      {"Asinh", "asinh"},       {"Acosh", "acosh"},
      {"Atanh", "atanh"},       {"Floor", "floor"},
      {"Ceil", "ceil"},         {"Reciprocal", "reciprocal"},
      {"Sign", "sign"},         {"Softsign", "softsign"},
      {"Softplus", "softplus"}, {"IsNaN", "isnan_v2"},
      {"Not", "logical_not"}};
  for (auto [onnxName, pdName] : unary)
    table.add({onnxName}, [pdName](OnnxImporter &im) -> LogicalResult {
      auto x = im.input(0);
      if (failed(x))
        return failure();
      return im.define(0, im.pd1(pdName, {*x}));
    });
  static const std::pair<StringRef, StringRef> binary[] = {
      {"Add", "elementwise_add"},  {"Sub", "elementwise_sub"}, {"Mul", "elementwise_mul"},
      {"Div", "elementwise_div"},  {"Pow", "elementwise_pow"}, {"Equal", "equal"},
      {"Greater", "greater_than"}, {"Less", "less_than"}};
  for (auto [onnxName, pdName] : binary)
    table.add({onnxName}, [pdName](OnnxImporter &im) { return importBinary(im, pdName); });
  static const std::pair<StringRef, StringRef> logic[] = {
      {"And", "logical_and"}, {"Or", "logical_or"}, {"Xor", "logical_xor"}};
  for (auto [onnxName, pdName] : logic)
    table.add({onnxName}, withInput0([pdName](OnnxImporter &im, Value x) -> LogicalResult {
                auto y = im.input(1);
                if (failed(y))
                  return failure();
                return im.define(0, im.pd1(pdName, {x, *y}));
              }));
  table.add({"Max", "Min"}, importMaxMin);
  table.add({"Neg"}, importNeg);
  table.add({"LeakyRelu"}, importLeakyRelu);
  table.add({"HardSigmoid"}, importHardSigmoid);
  table.add({"HardSwish"}, importHardSwish);
  table.add({"PRelu"}, importPRelu);
  table.add({"Softmax", "LogSoftmax"}, importSoftmax);
  table.add({"MatMul"}, importMatMul);
  table.add({"Gemm"}, importGemm);
  table.add({"Cast", "CastLike"}, importCast);
  table.add({"Clip"}, importClip);
  table.add({"Where"}, importWhere);
  table.add({"Shrink"}, importShrink);
  table.add({"BitShift"}, importBitShift);
  table.add({"Einsum"}, importEinsum);
  table.add({"Elu", "Celu"}, withInput0(importEluCelu));
  table.add({"Selu"}, withInput0(importSelu));
  table.add({"ThresholdedRelu"}, withInput0(importThresholdedRelu));
  table.add({"IsInf"}, withInput0(importIsInf));
  table.add({"GreaterOrEqual", "LessOrEqual"}, withInput0(importOrEqual));
  table.add({"Mod"}, withInput0(importMod));
  table.add({"CumSum"}, withInput0(importCumSum));
  table.add({"Sum", "Mean"}, withInput0(importSumMean));
  table.add({"Round"}, withInput0(importRound));
  table.add({"Hardmax"}, withInput0(importHardmax));
}

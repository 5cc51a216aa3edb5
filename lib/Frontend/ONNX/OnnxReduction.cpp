//===- OnnxReduction.cpp - ONNX reductions, ArgMax/ArgMin, TopK -----------===//
//
// The Reduce* ops (constant or run-time axes), ArgMax/ArgMin and TopK.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>

using namespace mlir;
using namespace mlir::pd::onnx_import;

static LogicalResult importArgMaxMin(OnnxImporter &im, Value x) {
  const std::string &t = im.node->op_type();
  int64_t rank = im.rankOf(x), axis = im.attrInt("axis", 0);
  if (axis < 0)
    axis += rank;
  std::string op = t == "ArgMax" ? "arg_max" : "arg_min";
  bool keep = im.attrInt("keepdims", 1) != 0;
  SmallVector<NamedAttribute> attrs = {im.b.getNamedAttr("axis", im.b.getI64IntegerAttr(axis)),
                                       im.flag("keepdims", keep), im.i32("dtype", 3)};
  if (!im.attrInt("select_last_index", 0))
    return im.define(0, im.pd1(op, {x}, attrs));
  // The last extreme: the first one of the reversed axis, mapped back.
  int64_t size = cast<RankedTensorType>(x.getType()).getDimSize(axis);
  if (ShapedType::isDynamic(size))
    return im.nodeError("select_last_index needs a static size along the axis");
  auto flipped = im.pd1("flip", {x}, {im.ints("axis", {axis})});
  if (failed(flipped))
    return failure();
  auto first = im.pd1(op, {*flipped}, attrs);
  if (failed(first))
    return failure();
  return im.define(
      0, im.pd1("scale", {*first}, {im.f32("scale", -1.0), im.f32("bias", double(size - 1))}));
}

static LogicalResult importReduceProd(OnnxImporter &im, Value x) {
  return im.define(0, im.reduceOf("reduce_prod", x));
}

static LogicalResult importReduceL1L2(OnnxImporter &im, Value x) {
  const std::string &t = im.node->op_type();
  auto pre = im.pd1(t == "ReduceL1" ? "abs" : "square", {x});
  if (failed(pre))
    return failure();
  auto sum = im.reduceOf("reduce_sum", *pre);
  if (failed(sum) || t != "ReduceL2")
    return im.define(0, sum);
  return im.define(0, im.pd1("sqrt", {*sum}));
}

static LogicalResult importReduceLogSum(OnnxImporter &im, Value x) {
  auto sum = im.reduceOf("reduce_sum", x);
  if (failed(sum))
    return failure();
  return im.define(0, im.pd1("log", {*sum}));
}

static LogicalResult importReduceLogSumExp(OnnxImporter &im, Value x) {
  // log(sum(exp(x - m))) + m with m the max, so large inputs do not
  // overflow.
  auto mKeep = im.reduceOf("reduce_max", x, true);
  auto m = im.reduceOf("reduce_max", x);
  if (failed(mKeep) || failed(m))
    return failure();
  auto shifted = im.pd1("elementwise_sub", {x, *mKeep});
  if (failed(shifted))
    return failure();
  auto e = im.pd1("exp", {*shifted});
  if (failed(e))
    return failure();
  auto sum = im.reduceOf("reduce_sum", *e);
  if (failed(sum))
    return failure();
  auto lg = im.pd1("log", {*sum});
  if (failed(lg))
    return failure();
  return im.define(0, im.pd1("elementwise_add", {*lg, *m}));
}

/// ReduceMean/Sum/Max/Min/Prod: axes from the attribute or (ReduceSum >= 13)
/// input.
FailureOr<Value> OnnxImporter::reduceOf(StringRef pdName, Value x, std::optional<bool> keepOpt) {
  bool keep = keepOpt.value_or(attrInt("keepdims", 1) != 0);
  if (auto axesV = runtimeInput(1))
    if (auto at = dyn_cast<RankedTensorType>(axesV->getType());
        at && at.hasStaticShape() && at.getNumElements() > 0)
      return reduceRuntimeAxes(pdName, x, *axesV, keep);
  auto axes = intsFrom("axes", 1);
  if (failed(axes))
    return failure();
  bool all = !*axes || (*axes)->empty();
  if (all && attrInt("noop_with_empty_axes", 0))
    return x;
  SmallVector<NamedAttribute> attrs = {flag("keep_dim", keep), flag("reduce_all", all)};
  attrs.push_back(ints("dim", all ? std::vector<int64_t>{0} : **axes));
  auto y = pd1(pdName, {x}, attrs);
  // A full reduction without keepdims is a scalar in ONNX, [1] in Paddle.
  if (succeeded(y) && !keep && rankOf(*y) == 1 && all)
    y = pd1("squeeze2", {*y}, {ints("axes", {0})});
  return y;
}

LogicalResult OnnxImporter::reduce(StringRef pdName) {
  auto x = input(0);
  if (failed(x))
    return failure();
  return define(0, reduceOf(pdName, *x));
}

FailureOr<Value> OnnxImporter::reduceRuntimeAxes(StringRef pdName, Value x, Value axes, bool keep) {
  Type i64 = b.getI64Type();
  int64_t rank = rankOf(x), k = cast<RankedTensorType>(axes.getType()).getNumElements();
  auto mask = axisMask(axes, rank);
  if (failed(mask))
    return failure();
  Value y = x;
  for (int64_t d = 0; d < rank; ++d) {
    auto m = sliceElement(*mask, d);
    if (failed(m))
      return failure();
    auto r = pd1(pdName, {y}, {ints("dim", {d}), flag("keep_dim", true)});
    if (failed(r))
      return failure();
    auto w = pd1("where", {*m, *r, y});
    if (failed(w))
      return failure();
    y = *w;
  }
  SmallVector<int64_t> iota, zeros(rank, 0), ones(rank, 1);
  for (int64_t d = 0; d < rank; ++d)
    iota.push_back(d);
  auto vecT = RankedTensorType::get({rank}, i64);
  auto dims = pd1("shape", {x});
  if (failed(dims))
    return failure();
  auto dims64 = castTo(*dims, i64);
  if (failed(dims64))
    return failure();
  auto ends = pd1("where", {*mask, intConst(RankedTensorType::get({1}, i64), {1}), *dims64});
  if (failed(ends))
    return failure();
  auto sliced = pd1("strided_slice", {y, intConst(vecT, zeros), *ends, intConst(vecT, ones)},
                    {ints("axes", iota)}, {1, 1, 1, 1, 0, 0, 0});
  if (failed(sliced) || keep)
    return sliced;
  auto shape = keptDims(x, *mask, rank - k);
  if (failed(shape))
    return failure();
  return pd1("reshape2", {*sliced, *shape}, {}, {1, 1, 0});
}

LogicalResult OnnxImporter::topK() {
  auto xIn = input(0);
  if (failed(xIn))
    return failure();
  Value x = *xIn;
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t rank = xt.getRank(), axis = attrInt("axis", -1);
  if (axis < 0)
    axis += rank;
  std::optional<int64_t> k;
  if (opset < 10) {
    if (attr("k"))
      k = attrInt("k", 1);
  } else if (const ConstTensor *c = constInput(1)) {
    if (c->ints().size() == 1)
      k = c->ints()[0];
  }
  int64_t n = xt.getDimSize(axis);
  // A run-time k: sort the whole (short) axis, then keep the first k.
  std::optional<Value> kRuntime = k ? std::nullopt : runtimeInput(1);
  if (!k && (!kRuntime || ShapedType::isDynamic(n) || n > 64))
    return nodeError("k must be a constant (or a run-time k on a static axis of at most 64)");
  if (!k)
    k = n;
  if (ShapedType::isDynamic(n) || *k < 1 || *k > n)
    return nodeError("needs a static axis size and 1 <= k <= size");
  if (!isa<FloatType>(xt.getElementType()))
    return nodeError("only float inputs are supported (picked values are masked with infinity)");
  bool largest = attrInt("largest", 1) != 0;
  Type i64 = b.getI64Type();
  // Positions along the axis, shaped to broadcast against x.
  SmallVector<int64_t> posShape(rank, 1), pos;
  posShape[axis] = n;
  for (int64_t i = 0; i < n; ++i)
    pos.push_back(i);
  Value positions = intConst(RankedTensorType::get(posShape, i64), pos);
  Value masked = scalarConst(xt.getElementType(), largest ? -INFINITY : INFINITY);
  SmallVector<NamedAttribute> argAttrs = {b.getNamedAttr("axis", b.getI64IntegerAttr(axis)),
                                          flag("keepdims", true), i32("dtype", 3)};
  SmallVector<Value> values, indices;
  Value cur = x;
  for (int64_t i = 0; i < *k; ++i) {
    auto pick = pd1(largest ? "arg_max" : "arg_min", {cur}, argAttrs);
    if (failed(pick))
      return failure();
    auto v = pd1("take_along_axis", {x, *pick}, {i32("Axis", axis)});
    if (failed(v))
      return failure();
    values.push_back(*v);
    indices.push_back(*pick);
    if (i + 1 == *k)
      break;
    auto hit = pd1("equal", {positions, *pick});
    if (failed(hit))
      return failure();
    auto next = pd1("where", {*hit, masked, cur});
    if (failed(next))
      return failure();
    cur = *next;
  }
  auto cat = [&](ArrayRef<Value> parts) -> FailureOr<Value> {
    auto all = pd1("concat", parts, {i32("axis", axis)}, {int32_t(parts.size()), 0});
    if (failed(all) || !kRuntime)
      return all;
    return pd1("slice", {*all, *kRuntime}, {ints("axes", {axis}), ints("starts", {0})},
               {1, 0, 1, 0, 0});
  };
  if (failed(define(0, cat(values))))
    return failure();
  return define(1, cat(indices));
}

void mlir::pd::onnx_import::registerReductionConverters(ConverterTable &table) {
  static const std::pair<StringRef, StringRef> direct[] = {{"ReduceMean", "reduce_mean"},
                                                           {"ReduceSum", "reduce_sum"},
                                                           {"ReduceMax", "reduce_max"},
                                                           {"ReduceMin", "reduce_min"}};
  for (auto [onnxName, pdName] : direct)
    table.add({onnxName}, [pdName](OnnxImporter &im) { return im.reduce(pdName); });
  table.add({"ReduceProd"}, withInput0(importReduceProd));
  table.add({"ReduceL1", "ReduceL2", "ReduceSumSquare"}, withInput0(importReduceL1L2));
  table.add({"ReduceLogSum"}, withInput0(importReduceLogSum));
  table.add({"ReduceLogSumExp"}, withInput0(importReduceLogSumExp));
  table.add({"ArgMax", "ArgMin"}, withInput0(importArgMaxMin));
  table.add({"TopK"}, [](OnnxImporter &im) { return im.topK(); });
}

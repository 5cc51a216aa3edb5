//===- OnnxTensor.cpp - ONNX tensor and shape ops -------------------------===//
//
// Constants, shape arithmetic folded at import (Shape, Size, and integer
// math on constants), reshapes and views, Slice/Gather/Scatter, Expand, Pad,
// Resize, Tile/Range/OneHot and ConstantOfShape.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSet.h"

#include <climits>

using namespace mlir;
using namespace mlir::pd::onnx_import;

static LogicalResult importConstant(OnnxImporter &im) {
  const onnx::NodeProto &n = *im.node;
  std::string outName = n.output_size() ? n.output(0) : std::string();
  const auto *v = im.attr("value");
  if (!v) {
    // The scalar and list forms.
    Type i64 = im.b.getIntegerType(64);
    if (const auto *a = im.attr("value_int")) {
      im.consts[outName] = intTensor({}, i64, {a->i()});
      return success();
    }
    if (const auto *a = im.attr("value_ints")) {
      std::vector<int64_t> vals(a->ints().begin(), a->ints().end());
      im.consts[outName] = intTensor({int64_t(vals.size())}, i64, vals);
      return success();
    }
    const auto *f = im.attr("value_float");
    const auto *fs = im.attr("value_floats");
    if (f || fs) {
      std::vector<float> vals = f ? std::vector<float>{f->f()}
                                  : std::vector<float>(fs->floats().begin(), fs->floats().end());
      SmallVector<int64_t> shape;
      if (fs)
        shape.push_back(int64_t(vals.size()));
      ConstTensor c{RankedTensorType::get(shape, im.b.getF32Type()), {}};
      c.bytes.resize(vals.size() * 4);
      std::memcpy(c.bytes.data(), vals.data(), c.bytes.size());
      im.consts[outName] = std::move(c);
      return success();
    }
  }
  if (!v || !v->has_t())
    return im.nodeError("only the 'value', 'value_int(s)' and 'value_float(s)' forms of Constant "
                        "are supported");
  auto c = im.readTensor(v->t());
  if (failed(c))
    return failure();
  im.consts[outName] = std::move(*c);
  return success();
}

static LogicalResult importIdentity(OnnxImporter &im) {
  const onnx::NodeProto &n = *im.node;
  const std::string &t = n.op_type();
  std::string outName = n.output_size() ? n.output(0) : std::string();
  if (t == "Dropout" && n.output_size() > 1 && !n.output(1).empty()) {
    // Inference: nothing is dropped, the mask is all true.
    auto x = im.input(0);
    if (failed(x))
      return failure();
    auto xt = cast<RankedTensorType>(x->getType());
    if (!xt.hasStaticShape())
      return im.nodeError("the mask output of Dropout needs a static shape");
    auto mt = RankedTensorType::get(xt.getShape(), im.b.getI1Type());
    im.env[n.output(1)] =
        arith::ConstantOp::create(im.b, im.loc, mt, DenseElementsAttr::get(mt, true));
  }
  if (t == "Dropout" && im.hasInput(2)) {
    // Training mode drops nothing only with a ratio of 0.
    const ConstTensor *training = im.constInput(2);
    const ConstTensor *ratio = im.constInput(1);
    std::optional<double> r = ratio ? ratio->scalar() : std::nullopt;
    bool dropsNothing = im.hasInput(1) && r && *r == 0.0;
    if ((!training || training->bytes.empty() || training->bytes[0] != 0) && !dropsNothing)
      return im.nodeError("training-mode Dropout is not supported (inference only)");
  }
  if (const ConstTensor *c = im.constInput(0)) {
    im.consts[outName] = *c;
    return success();
  }
  return im.define(0, im.input(0));
}

static LogicalResult importReshape(OnnxImporter &im) {
  if (auto shapeV = im.runtimeInput(1)) {
    auto x = im.input(0);
    if (failed(x))
      return failure();
    auto xt = cast<RankedTensorType>(x->getType());
    if (im.attrInt("allowzero", 0)) {
      // A 0 in the shape is a zero-sized dim, which only an empty input
      // can have: an empty input takes the shape as given, a non-empty
      // one reshapes as usual (a 0 there would be invalid either way).
      if (!xt.hasStaticShape())
        return im.nodeError("allowzero with a run-time shape needs a static input shape");
      if (xt.getNumElements() == 0) {
        int dtype = paddleDtype(xt.getElementType());
        if (dtype < 0)
          return im.nodeError("the element type is not supported");
        return im.define(0,
                         im.pd1("fill_constant", {*shapeV}, {im.i32("dtype", dtype)}, {0, 1, 0}));
      }
    }
    return im.define(0, im.pd1("reshape2", {*x, *shapeV}, {}, {1, 1, 0}));
  }
  auto x = im.input(0);
  auto shape = im.intsFrom("shape", 1);
  if (failed(x) || failed(shape))
    return failure();
  if (!*shape)
    return im.nodeError("the shape input is missing");
  if (im.attrInt("allowzero", 0) && llvm::is_contained(**shape, 0))
    return im.nodeError("allowzero with a 0 in the shape is not supported");
  return im.define(0, im.pd1("reshape2", {*x}, {im.ints("shape", **shape)}, {1, 0, 0}));
}

static LogicalResult importFlatten(OnnxImporter &im) {
  auto x = im.input(0);
  if (failed(x))
    return failure();
  int64_t rank = im.rankOf(*x), axis = im.attrInt("axis", 1);
  if (axis < 0)
    axis += rank;
  Value v = *x;
  if (axis == 0 || axis == rank) {
    auto flat = im.pd1("flatten_contiguous_range", {v},
                       {im.i32("start_axis", 0), im.i32("stop_axis", int32_t(rank - 1))});
    if (failed(flat))
      return failure();
    return im.define(
        0, im.pd1("unsqueeze2", {*flat}, {im.ints("axes", {axis == 0 ? 0 : 1})}, {1, 0, 0}));
  }
  if (axis < rank - 1) {
    auto r = im.pd1("flatten_contiguous_range", {v},
                    {im.i32("start_axis", int32_t(axis)), im.i32("stop_axis", int32_t(rank - 1))});
    if (failed(r))
      return failure();
    v = *r;
  }
  if (axis > 1) {
    auto r = im.pd1("flatten_contiguous_range", {v},
                    {im.i32("start_axis", 0), im.i32("stop_axis", int32_t(axis - 1))});
    if (failed(r))
      return failure();
    v = *r;
  }
  return im.define(0, v);
}

static LogicalResult importTranspose(OnnxImporter &im) {
  auto x = im.input(0);
  if (failed(x))
    return failure();
  int64_t rank = im.rankOf(*x);
  std::vector<int64_t> perm;
  for (int64_t k = rank - 1; k >= 0; --k)
    perm.push_back(k);
  perm = im.attrInts("perm").value_or(perm);
  return im.define(0, im.pd1("transpose2", {*x}, {im.ints("axis", perm)}));
}

static LogicalResult importConcat(OnnxImporter &im) {
  const onnx::NodeProto &n = *im.node;
  SmallVector<Value> in;
  for (int i = 0; i < n.input_size(); ++i) {
    auto v = im.input(i);
    if (failed(v))
      return failure();
    in.push_back(*v);
  }
  int64_t axis = im.attrInt("axis", 0);
  if (axis < 0 && !in.empty())
    axis += im.rankOf(in[0]);
  return im.define(0, im.pd1("concat", in, {im.i32("axis", axis)}, {int32_t(in.size()), 0}));
}

static LogicalResult importSplit(OnnxImporter &im) {
  const onnx::NodeProto &n = *im.node;
  auto x = im.input(0);
  if (failed(x))
    return failure();
  if (auto splitV = im.runtimeInput(1)) {
    // Run-time sizes: one 1-element slice of the split tensor per output.
    int64_t axis = im.attrInt("axis", 0);
    if (axis < 0)
      axis += im.rankOf(*x);
    SmallVector<Value> sections;
    for (int i = 0; i < n.output_size(); ++i) {
      auto piece = im.sliceElement(*splitV, i);
      if (failed(piece))
        return failure();
      sections.push_back(*piece);
    }
    SmallVector<Value> operands = {*x};
    operands.append(sections);
    auto op = im.pd("split", operands, {im.i32("axis", axis)}, n.output_size(),
                    {1, 0, int32_t(sections.size())});
    if (failed(op))
      return failure();
    for (int i = 0; i < n.output_size(); ++i)
      if (failed(im.define(i, (*op)->getResult(i))))
        return failure();
    return success();
  }
  auto split = im.intsFrom("split", 1);
  if (failed(x) || failed(split))
    return failure();
  int64_t axis = im.attrInt("axis", 0);
  if (axis < 0)
    axis += im.rankOf(*x);
  SmallVector<NamedAttribute> attrs = {im.i32("axis", axis)};
  if (*split && !(*split)->empty())
    attrs.push_back(im.ints("sections", **split));
  else
    attrs.push_back(im.i32("num", n.output_size()));
  auto op = im.pd("split", {*x}, attrs, n.output_size(), {1, 0, 0});
  if (failed(op))
    return failure();
  for (int i = 0; i < n.output_size(); ++i)
    if (failed(im.define(i, (*op)->getResult(i))))
      return failure();
  return success();
}

static LogicalResult importSqueeze(OnnxImporter &im) {
  const std::string &t = im.node->op_type();
  auto x = im.input(0);
  if (failed(x))
    return failure();
  if (auto axesV = im.runtimeInput(1); axesV && t == "Unsqueeze")
    return im.define(0, im.pd1("unsqueeze2", {*x, *axesV}, {}, {1, 1, 0}));
  if (auto axesV = im.runtimeInput(1); axesV && t == "Squeeze") {
    auto at = cast<RankedTensorType>(axesV->getType());
    auto mask = im.axisMask(*axesV, im.rankOf(*x));
    if (failed(mask))
      return failure();
    auto shape = im.keptDims(*x, *mask, im.rankOf(*x) - at.getNumElements());
    if (failed(shape))
      return failure();
    return im.define(0, im.pd1("reshape2", {*x, *shape}, {}, {1, 1, 0}));
  }
  auto axes = im.intsFrom("axes", 1);
  if (failed(x) || failed(axes))
    return failure();
  std::vector<int64_t> a = axes->value_or(std::vector<int64_t>{});
  if (t == "Squeeze")
    return im.define(0, im.pd1("squeeze2", {*x}, {im.ints("axes", a)}));
  // Unsqueeze axes refer to the output rank.
  int64_t outRank = im.rankOf(*x) + a.size();
  for (int64_t &v : a)
    if (v < 0)
      v += outRank;
  llvm::sort(a);
  return im.define(0, im.pd1("unsqueeze2", {*x}, {im.ints("axes", a)}, {1, 0, 0}));
}

static LogicalResult importSlice(OnnxImporter &im) {
  auto x = im.input(0);
  if (failed(x))
    return failure();
  std::optional<std::vector<int64_t>> starts, ends, axes, steps;
  if (im.opset < 10) {
    starts = im.attrInts("starts");
    ends = im.attrInts("ends");
    axes = im.attrInts("axes");
  } else {
    for (int i = 1; i <= 4; ++i)
      if (im.runtimeInput(i))
        return im.define(0, im.sliceRuntime(*x));
    auto s = im.intsFrom("", 1), e = im.intsFrom("", 2), a = im.intsFrom("", 3),
         st = im.intsFrom("", 4);
    if (failed(s) || failed(e) || failed(a) || failed(st))
      return failure();
    starts = *s;
    ends = *e;
    axes = *a;
    steps = *st;
  }
  if (!starts || !ends || starts->size() != ends->size())
    return im.nodeError("starts and ends must be constants of the same length");
  if (!axes) {
    axes = std::vector<int64_t>();
    for (size_t k = 0; k < starts->size(); ++k)
      axes->push_back(k);
  }
  int64_t rank = im.rankOf(*x);
  for (int64_t &a : *axes)
    if (a < 0)
      a += rank;
  bool unit = !steps || llvm::all_of(*steps, [](int64_t s) { return s == 1; });
  SmallVector<NamedAttribute> attrs = {im.ints("axes", *axes), im.ints("starts", *starts),
                                       im.ints("ends", *ends)};
  if (unit)
    return im.define(0, im.pd1("slice", {*x}, attrs, {1, 0, 0, 0, 0}));
  attrs.push_back(im.ints("strides", *steps));
  return im.define(0, im.pd1("strided_slice", {*x}, attrs, {1, 0, 0, 0, 0, 0, 0}));
}

static LogicalResult importGather(OnnxImporter &im) {
  auto x = im.input(0), idx = im.input(1);
  if (failed(x) || failed(idx))
    return failure();
  int64_t axis = im.attrInt("axis", 0);
  if (axis < 0)
    axis += im.rankOf(*x);
  // Rows of a 2-D float table picked by an index tensor of any rank (an
  // embedding lookup, e.g. BERT's word embeddings): lookup_table_v2.
  // Its ids are clamped into range, where ONNX would wrap negative ones.
  auto xt = dyn_cast<RankedTensorType>(x->getType());
  auto it = dyn_cast<RankedTensorType>(idx->getType());
  if (axis == 0 && xt && it && it.getRank() != 1 && xt.getRank() == 2 &&
      isa<FloatType>(xt.getElementType()))
    return im.define(0, im.pd1("lookup_table_v2", {*x, *idx}));
  if (it && it.getRank() == 1)
    return im.define(0, im.pd1("gather", {*x, *idx}, {im.i32("axis", axis)}, {1, 1, 0}));
  // Other index ranks: gather by the flattened index, then give the
  // result x.shape[:axis] + index.shape + x.shape[axis+1:].
  if (!xt || !it || !xt.hasStaticShape() || !it.hasStaticShape())
    return im.nodeError("an index of rank other than 1 needs static shapes");
  auto flat = im.pd1("reshape2", {*idx}, {im.ints("shape", {it.getNumElements()})}, {1, 0, 0});
  if (failed(flat))
    return failure();
  auto g = im.pd1("gather", {*x, *flat}, {im.i32("axis", axis)}, {1, 1, 0});
  if (failed(g))
    return failure();
  std::vector<int64_t> shape(xt.getShape().begin(), xt.getShape().begin() + axis);
  shape.insert(shape.end(), it.getShape().begin(), it.getShape().end());
  shape.insert(shape.end(), xt.getShape().begin() + axis + 1, xt.getShape().end());
  if (shape.empty())
    return im.define(0, im.pd1("squeeze2", {*g}, {im.ints("axes", {0})}));
  return im.define(0, im.pd1("reshape2", {*g}, {im.ints("shape", shape)}, {1, 0, 0}));
}

static LogicalResult importGatherND(OnnxImporter &im) {
  auto x = im.input(0), idx = im.input(1);
  if (failed(x) || failed(idx))
    return failure();
  if (im.attrInt("batch_dims", 0) != 0)
    return im.nodeError("batch_dims other than 0 is not supported");
  return im.define(0, im.pd1("gather_nd", {*x, *idx}));
}

static LogicalResult importGatherElements(OnnxImporter &im, Value x) {
  auto idx = im.input(1);
  if (failed(idx))
    return failure();
  int64_t axis = im.attrInt("axis", 0);
  if (axis < 0)
    axis += im.rankOf(x);
  return im.define(0, im.pd1("take_along_axis", {x, *idx}, {im.i32("Axis", axis)}));
}

static LogicalResult importExpand(OnnxImporter &im) {
  auto x = im.input(0);
  if (failed(x))
    return failure();
  if (auto shapeV = im.runtimeInput(1)) {
    auto st = cast<RankedTensorType>(shapeV->getType());
    if (st.getRank() != 1 || st.isDynamicDim(0) || st.getDimSize(0) < im.rankOf(*x))
      return im.nodeError("a run-time shape needs a static length of at least the input rank");
    return im.define(0, im.pd1("expand_v2", {*x, *shapeV}, {}, {1, 1, 0}));
  }
  auto shape = im.intsFrom("", 1);
  if (failed(x) || failed(shape))
    return failure();
  if (!*shape)
    return im.nodeError("the shape input must be a constant");
  // ONNX broadcasts both ways: the result dim is max(in, shape) per dim.
  auto xt = cast<RankedTensorType>(x->getType());
  std::vector<int64_t> target = **shape;
  int64_t rank = std::max<int64_t>(xt.getRank(), target.size());
  std::vector<int64_t> out(rank);
  for (int64_t k = 0; k < rank; ++k) {
    int64_t ik = k - (rank - xt.getRank()), sk = k - (rank - (int64_t)target.size());
    int64_t in = ik >= 0 ? xt.getDimSize(ik) : 1, s = sk >= 0 ? target[sk] : 1;
    out[k] = s == 1 ? (ShapedType::isDynamic(in) ? -1 : in) : s;
  }
  return im.define(0, im.pd1("expand_v2", {*x}, {im.ints("shape", out)}, {1, 0, 0}));
}

static LogicalResult importTrilu(OnnxImporter &im, Value x) {
  Type elem = cast<ShapedType>(x.getType()).getElementType();
  auto zero = [&]() { return im.scalarConst(elem, 0.0); };
  bool upper = im.attrInt("upper", 1) != 0;
  int64_t k = 0;
  if (im.hasInput(1)) {
    const ConstTensor *c = im.constInput(1);
    if (!c) {
      // A run-time k: compare a constant (j - i) grid with it.
      auto xt = cast<RankedTensorType>(x.getType());
      int64_t rank = xt.getRank();
      if (rank < 2 || xt.isDynamicDim(rank - 2) || xt.isDynamicDim(rank - 1))
        return im.nodeError("a run-time k needs static sizes of the last two dims");
      auto kv = im.input(1);
      if (failed(kv))
        return failure();
      int64_t rows = xt.getDimSize(rank - 2), cols = xt.getDimSize(rank - 1);
      auto kt = cast<RankedTensorType>(kv->getType());
      std::vector<int64_t> diff;
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
          diff.push_back(j - i);
      Value grid = im.intConst(RankedTensorType::get({rows, cols}, kt.getElementType()), diff);
      auto outside = im.pd1(upper ? "less_than" : "greater_than", {grid, *kv});
      if (failed(outside))
        return failure();
      auto keep = im.pd1("logical_not", {*outside});
      if (failed(keep))
        return failure();
      return im.define(0, im.pd1("where", {*keep, x, zero()}));
    }
    std::optional<double> v = c->scalar();
    if (!v)
      return im.nodeError("k must hold one integer");
    k = int64_t(*v);
  }
  return im.define(0, im.pd1("tril_triu", {x}, {im.i32("diagonal", k), im.flag("lower", !upper)}));
}

static LogicalResult importDepthSpace(OnnxImporter &im, Value x) {
  const std::string &t = im.node->op_type();
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t bs = im.attrInt("blocksize", 0);
  if (xt.getRank() != 4 || !xt.hasStaticShape() || bs <= 0)
    return im.nodeError("needs a static 4-D input and a positive blocksize");
  int64_t N = xt.getDimSize(0), C = xt.getDimSize(1), H = xt.getDimSize(2), W = xt.getDimSize(3);
  std::vector<int64_t> split, perm, merged;
  if (t == "DepthToSpace") {
    if (C % (bs * bs))
      return im.nodeError("channels must be divisible by blocksize^2");
    bool crd = im.attrStr("mode", "DCR") == "CRD";
    split = crd ? std::vector<int64_t>{N, C / (bs * bs), bs, bs, H, W}
                : std::vector<int64_t>{N, bs, bs, C / (bs * bs), H, W};
    perm = crd ? std::vector<int64_t>{0, 1, 4, 2, 5, 3} : std::vector<int64_t>{0, 3, 4, 1, 5, 2};
    merged = {N, C / (bs * bs), H * bs, W * bs};
  } else {
    if (H % bs || W % bs)
      return im.nodeError("spatial dims must be divisible by blocksize");
    split = {N, C, H / bs, bs, W / bs, bs};
    perm = {0, 3, 5, 1, 2, 4};
    merged = {N, C * bs * bs, H / bs, W / bs};
  }
  auto r6 = im.pd1("reshape2", {x}, {im.ints("shape", split)}, {1, 0, 0});
  if (failed(r6))
    return failure();
  auto tr = im.pd1("transpose2", {*r6}, {im.ints("axis", perm)});
  if (failed(tr))
    return failure();
  return im.define(0, im.pd1("reshape2", {*tr}, {im.ints("shape", merged)}, {1, 0, 0}));
}

static LogicalResult importEyeLike(OnnxImporter &im, Value x) {
  Type elem = cast<ShapedType>(x.getType()).getElementType();
  auto xt = cast<RankedTensorType>(x.getType());
  if (xt.getRank() != 2 || !xt.hasStaticShape())
    return im.nodeError("needs a static 2-D input");
  Type out = im.attr("dtype") ? elementType(im.ctx, im.attrInt("dtype", 1)) : elem;
  if (!out || out.isUnsignedInteger())
    return im.nodeError("unsupported dtype");
  int64_t rows = xt.getDimSize(0), cols = xt.getDimSize(1), k = im.attrInt("k", 0);
  auto ot = RankedTensorType::get({rows, cols}, out);
  SmallVector<Attribute> vals;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      double v = j - i == k ? 1.0 : 0.0;
      vals.push_back(isa<FloatType>(out) ? Attribute(im.b.getFloatAttr(out, v))
                                         : Attribute(im.b.getIntegerAttr(out, int64_t(v))));
    }
  return im.define(
      0, Value(arith::ConstantOp::create(im.b, im.loc, ot, DenseElementsAttr::get(ot, vals))));
}

static LogicalResult importConstantOfShape(OnnxImporter &im, Value x) {
  ConstTensor fillv = intTensor({1}, im.b.getF32Type(), {});
  fillv.bytes.assign(4, 0);
  if (const auto *v = im.attr("value")) {
    auto c = im.readTensor(v->t());
    if (failed(c))
      return failure();
    if (c->type.getNumElements() != 1)
      return im.nodeError("value must hold one element");
    fillv = *c;
  }
  const ConstTensor *shape = im.constInput(0);
  if (!shape) {
    // Run-time shape: fill_constant with a ShapeTensor (integers go
    // through str_value so 64-bit values stay exact).
    Type fe = fillv.type.getElementType();
    int dtype = paddleDtype(fe);
    std::optional<double> value = fillv.scalar();
    if (dtype < 0 || !value)
      return im.nodeError("the value's type is not supported");
    SmallVector<NamedAttribute> attrs = {im.i32("dtype", dtype), im.f32("value", *value)};
    if (isa<IntegerType>(fe))
      attrs.push_back(im.str("str_value", std::to_string(int64_t(*value))));
    return im.define(0, im.pd1("fill_constant", {x}, attrs, {0, 1, 0}));
  }
  std::vector<int64_t> dims = shape->ints();
  ConstTensor out{RankedTensorType::get(dims, fillv.type.getElementType()), {}};
  int64_t count = out.type.getNumElements();
  for (int64_t i = 0; i < count; ++i)
    out.bytes.insert(out.bytes.end(), fillv.bytes.begin(), fillv.bytes.end());
  im.consts[im.node->output(0)] = std::move(out);
  return success();
}

bool OnnxImporter::foldShapeMath() {
  const std::string &t = node->op_type();
  if (node->output_size() != 1)
    return false;
  const std::string &out = node->output(0);
  Type i64 = b.getIntegerType(64);
  // The static type of input 0, whether an imported value or a constant.
  auto staticInputType = [&]() -> RankedTensorType {
    RankedTensorType type;
    auto it = env.find(node->input(0));
    if (it != env.end())
      type = dyn_cast<RankedTensorType>(it->second.getType());
    else if (const ConstTensor *c = constInput(0))
      type = c->type;
    return type && type.hasStaticShape() ? type : RankedTensorType();
  };
  if (t == "Shape") {
    RankedTensorType type = staticInputType();
    if (!type)
      return false;
    int64_t rank = type.getRank(), start = attrInt("start", 0), end = attrInt("end", rank);
    start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
    end = std::clamp<int64_t>(end < 0 ? end + rank : end, 0, rank);
    std::vector<int64_t> dims(type.getShape().begin() + start,
                              type.getShape().begin() + std::max(start, end));
    consts[out] = intTensor({int64_t(dims.size())}, i64, dims);
    return true;
  }
  if (t == "Size") {
    RankedTensorType type = staticInputType();
    if (!type)
      return false;
    consts[out] = intTensor({}, i64, {type.getNumElements()});
    return true;
  }
  static const llvm::StringSet<> foldable = {"Gather",  "Add",    "Sub",       "Mul",
                                             "Div",     "Concat", "Unsqueeze", "Squeeze",
                                             "Reshape", "Cast",   "Slice",     "Neg"};
  if (!foldable.contains(t) || node->input_size() == 0)
    return false;
  std::vector<const ConstTensor *> in;
  for (int i = 0; i < node->input_size(); ++i) {
    if (!hasInput(i)) {
      in.push_back(nullptr);
      continue;
    }
    const ConstTensor *c = constInput(i);
    if (!c || !c->type.getElementType().isSignlessInteger() ||
        (c->type.getElementTypeBitWidth() != 64 && c->type.getElementTypeBitWidth() != 32) ||
        c->type.getNumElements() > 64)
      return false;
    in.push_back(c);
  }
  const ConstTensor &x = *in[0];
  std::vector<int64_t> xv = x.ints();
  Type elem = x.type.getElementType();
  auto shapeOf = [](const ConstTensor &c) {
    return std::vector<int64_t>(c.type.getShape().begin(), c.type.getShape().end());
  };
  if (t == "Add" || t == "Sub" || t == "Mul" || t == "Div") {
    const ConstTensor &y = *in[1];
    std::vector<int64_t> yv = y.ints();
    bool xs = xv.size() == 1, ys = yv.size() == 1;
    if (!xs && !ys && shapeOf(x) != shapeOf(y))
      return false;
    const ConstTensor &big = xs && !ys ? y : x;
    std::vector<int64_t> r(std::max(xv.size(), yv.size()));
    for (size_t i = 0; i < r.size(); ++i) {
      int64_t a = xv[xs ? 0 : i], c = yv[ys ? 0 : i];
      if (t == "Div" && c == 0)
        return false;
      r[i] = t == "Add" ? a + c : t == "Sub" ? a - c : t == "Mul" ? a * c : a / c;
    }
    consts[out] = intTensor(shapeOf(big), elem, r);
    return true;
  }
  if (t == "Neg") {
    std::vector<int64_t> r;
    for (int64_t v : xv)
      r.push_back(-v);
    consts[out] = intTensor(shapeOf(x), elem, r);
    return true;
  }
  if (t == "Gather") {
    if (x.type.getRank() != 1 || !in[1])
      return false;
    std::vector<int64_t> r;
    for (int64_t i : in[1]->ints()) {
      int64_t k = i < 0 ? i + (int64_t)xv.size() : i;
      if (k < 0 || k >= (int64_t)xv.size())
        return false;
      r.push_back(xv[k]);
    }
    consts[out] = intTensor(shapeOf(*in[1]), elem, r);
    return true;
  }
  if (t == "Concat") {
    std::vector<int64_t> r;
    for (const ConstTensor *c : in) {
      if (!c || c->type.getRank() != 1 || c->type.getElementType() != elem)
        return false;
      auto v = c->ints();
      r.insert(r.end(), v.begin(), v.end());
    }
    consts[out] = intTensor({int64_t(r.size())}, elem, r);
    return true;
  }
  if (t == "Unsqueeze" || t == "Squeeze" || t == "Reshape") {
    // Only the shape changes: take it from the node's axes/shape.
    std::vector<int64_t> shape = shapeOf(x);
    std::vector<int64_t> arg =
        attrInts(t == "Reshape" ? "shape" : "axes")
            .value_or(in.size() > 1 && in[1] ? in[1]->ints() : std::vector<int64_t>{});
    if (t == "Reshape") {
      if (llvm::any_of(arg, [](int64_t d) { return d <= 0; }))
        return false;
      shape = arg;
    } else if (t == "Unsqueeze") {
      int64_t rank = shape.size() + arg.size();
      for (int64_t &a : arg)
        a = a < 0 ? a + rank : a;
      llvm::sort(arg);
      for (int64_t a : arg)
        shape.insert(shape.begin() + std::min<int64_t>(a, shape.size()), 1);
    } else {
      std::vector<int64_t> kept;
      for (int64_t k = 0; k < (int64_t)shape.size(); ++k) {
        bool drop = arg.empty() ? shape[k] == 1
                                : llvm::is_contained(arg, k) ||
                                      llvm::is_contained(arg, k - (int64_t)shape.size());
        if (!drop)
          kept.push_back(shape[k]);
      }
      shape = kept;
    }
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    if (n != (int64_t)xv.size())
      return false;
    consts[out] = intTensor(shape, elem, xv);
    return true;
  }
  if (t == "Cast") {
    Type to = elementType(ctx, attrInt("to", 0));
    if (!to || !to.isSignlessInteger() ||
        (to.getIntOrFloatBitWidth() != 64 && to.getIntOrFloatBitWidth() != 32))
      return false;
    consts[out] = intTensor(shapeOf(x), to, xv);
    return true;
  }
  if (t == "Slice") {
    if (x.type.getRank() != 1 || in.size() < 3 || !in[1] || !in[2])
      return false;
    int64_t n = xv.size(), start = in[1]->ints()[0], end = in[2]->ints()[0];
    int64_t step = in.size() > 4 && in[4] ? in[4]->ints()[0] : 1;
    if (step != 1)
      return false;
    start = std::clamp<int64_t>(start < 0 ? start + n : start, 0, n);
    end = std::clamp<int64_t>(end < 0 ? end + n : end, 0, n);
    std::vector<int64_t> r(xv.begin() + start, xv.begin() + std::max(start, end));
    consts[out] = intTensor({int64_t(r.size())}, elem, r);
    return true;
  }
  return false;
}

FailureOr<Value> OnnxImporter::sliceRuntime(Value x) {
  Type i64 = b.getI64Type();
  int64_t rank = rankOf(x);
  auto asI64 = [&](int i) -> FailureOr<Value> {
    auto v = input(i);
    if (failed(v))
      return failure();
    return castTo(*v, i64);
  };
  auto starts = asI64(1), ends = asI64(2);
  if (failed(starts) || failed(ends))
    return failure();
  auto st = cast<RankedTensorType>(starts->getType());
  if (st.getRank() != 1 || st.isDynamicDim(0))
    return (LogicalResult)nodeError("starts needs a static length");
  int64_t n = st.getDimSize(0);
  auto vec = [&](int64_t len, ArrayRef<int64_t> vals) {
    return intConst(RankedTensorType::get({len}, i64), vals);
  };
  Value steps = vec(n, SmallVector<int64_t>(n, 1));
  if (hasInput(4)) {
    auto v = asI64(4);
    if (failed(v))
      return failure();
    steps = *v;
  }
  std::optional<std::vector<int64_t>> axesC;
  Value axesV;
  if (!hasInput(3)) {
    axesC = std::vector<int64_t>();
    for (int64_t k = 0; k < n; ++k)
      axesC->push_back(k);
  } else if (const ConstTensor *c = constInput(3)) {
    axesC = c->ints();
  } else {
    auto v = asI64(3);
    if (failed(v))
      return failure();
    axesV = *v;
  }
  if (axesC) {
    for (int64_t &a : *axesC)
      if (a < 0)
        a += rank;
    return pd1("strided_slice", {x, *starts, *ends, steps}, {ints("axes", *axesC)},
               {1, 1, 1, 1, 0, 0, 0});
  }
  // Run-time axes: starts/ends/steps for every dim of x, picked by a
  // [n, rank] match of the (normalized) axes against 0..rank-1; dims not
  // listed take the whole range.
  Chain op{*this};
  SmallVector<int64_t> iota;
  for (int64_t k = 0; k < rank; ++k)
    iota.push_back(k);
  Value zero = vec(1, {0});
  Value neg = op("less_than", {axesV, zero});
  Value axesN = op("where", {neg, op("elementwise_add", {axesV, vec(1, {rank})}), axesV});
  Value match =
      op("equal", {op("unsqueeze2", {axesN}, {ints("axes", {1})}, {1, 0, 0}), vec(rank, iota)});
  auto pick = [&](Value v, int64_t def) {
    Value col = op("unsqueeze2", {v}, {ints("axes", {1})}, {1, 0, 0});
    Value sum = op("reduce_sum", {op("where", {match, col, zero})},
                   {ints("dim", {0}), flag("keep_dim", false)});
    Value count = op("reduce_sum", {op("cast", {match}, {i32("in_dtype", 0), i32("out_dtype", 3)})},
                     {ints("dim", {0}), flag("keep_dim", false)});
    return op("where", {op("greater_than", {count, zero}), sum, vec(1, {def})});
  };
  Value fs = pick(*starts, 0), fe = pick(*ends, INT64_MAX), fst = pick(steps, 1);
  Value y = op("strided_slice", {x, fs, fe, fst}, {ints("axes", iota)}, {1, 1, 1, 1, 0, 0, 0});
  if (!op.ok)
    return failure();
  return y;
}

LogicalResult OnnxImporter::resize() {
  auto xIn = input(0);
  if (failed(xIn))
    return failure();
  Value x = *xIn;
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t rank = xt.getRank();
  bool upsample = node->op_type() == "Upsample";
  std::string mode = attrStr("mode", "nearest");
  if (mode == "bilinear")
    mode = "linear";
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return nodeError("mode '" + mode + "' is not supported");
  // Resize-10 and Upsample: asymmetric coordinates, nearest = floor.
  bool v11 = !upsample && opset >= 11;
  std::string ctm = v11 ? attrStr("coordinate_transformation_mode", "half_pixel") : "asymmetric";
  std::string nearest = v11 ? attrStr("nearest_mode", "round_prefer_floor") : "floor";
  double cubicA = attrFloat("cubic_coeff_a", -0.75), extrap = attrFloat("extrapolation_value", 0);
  bool exclude = attrInt("exclude_outside", 0) != 0;
  static const llvm::StringSet<> modes = {"half_pixel",           "pytorch_half_pixel",
                                          "align_corners",        "asymmetric",
                                          "tf_half_pixel_for_nn", "tf_crop_and_resize"};
  if (!modes.contains(ctm))
    return nodeError("coordinate_transformation_mode '" + ctm + "' is not supported");
  static const llvm::StringSet<> nearestModes = {"round_prefer_floor", "round_prefer_ceil", "floor",
                                                 "ceil"};
  if (!nearestModes.contains(nearest))
    return nodeError("nearest_mode '" + nearest + "' is not supported");
  if (!isa<FloatType>(xt.getElementType()) && mode != "nearest")
    return nodeError("linear and cubic modes need a float input");

  // Where the scales, sizes and roi come from.
  int scalesIdx = upsample ? (opset >= 9 ? 1 : -1) : (opset >= 11 ? 2 : 1);
  int sizesIdx = v11 ? 3 : -1, roiIdx = v11 ? 1 : -1;
  auto nonEmpty = [&](int i) {
    if (i < 0 || !hasInput(i))
      return false;
    auto v = valueOf(node->input(i));
    if (const ConstTensor *c = constInput(i))
      return c->type.getNumElements() != 0;
    auto t = succeeded(v) ? dyn_cast<RankedTensorType>(v->getType()) : RankedTensorType();
    return !(t && t.hasStaticShape() && t.getNumElements() == 0);
  };
  bool useSizes = nonEmpty(sizesIdx);
  std::optional<std::vector<double>> scalesC;
  std::optional<std::vector<int64_t>> sizesC;
  if (upsample && opset < 9) {
    auto a = attr("scales");
    if (!a)
      return nodeError("the scales attribute is missing");
    scalesC = std::vector<double>(a->floats().begin(), a->floats().end());
  } else if (useSizes) {
    if (const ConstTensor *c = constInput(sizesIdx))
      sizesC = c->ints();
  } else if (!nonEmpty(scalesIdx)) {
    return nodeError("needs scales or sizes");
  } else if (const ConstTensor *c = constInput(scalesIdx)) {
    scalesC = c->floats();
  }
  if ((scalesC && (int64_t)scalesC->size() != rank) || (sizesC && (int64_t)sizesC->size() != rank))
    return nodeError("scales/sizes need one entry per input dim");

  Chain op{*this};
  Type f32 = b.getF32Type(), i64 = b.getI64Type();
  auto f = [&](double v) {
    auto type = RankedTensorType::get({1}, f32);
    return (Value)arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, b.getF32FloatAttr(float(v))));
  };
  auto i = [&](int64_t v) { return intConst(RankedTensorType::get({1}, i64), {v}); };
  auto castF = [&](Value v) {
    if (!v)
      return op.ok = false, Value();
    auto c = castTo(v, f32);
    return succeeded(c) ? *c : (op.ok = false, Value());
  };
  auto castI = [&](Value v) {
    if (!v)
      return op.ok = false, Value();
    auto c = castTo(v, i64);
    return succeeded(c) ? *c : (op.ok = false, Value());
  };
  auto add = [&](Value p, Value q) { return op("elementwise_add", {p, q}); };
  auto sub = [&](Value p, Value q) { return op("elementwise_sub", {p, q}); };
  auto mul = [&](Value p, Value q) { return op("elementwise_mul", {p, q}); };
  auto div = [&](Value p, Value q) { return op("elementwise_div", {p, q}); };
  auto elem = [&](int idx, int64_t d) { // element d of input idx as a [1] tensor
    auto v = input(idx);
    if (failed(v))
      return op.ok = false, Value();
    return op.element(*v, d);
  };
  Value shapeOfX;
  Value y = x;
  for (int64_t d = 0; d < rank && op.ok; ++d) {
    int64_t nStatic = xt.getDimSize(d);
    if (ctm != "tf_crop_and_resize") {
      if (scalesC && (*scalesC)[d] == 1.0)
        continue;
      if (sizesC && (*sizesC)[d] == nStatic)
        continue;
    }
    Value n;
    if (ShapedType::isDynamic(nStatic)) {
      if (!shapeOfX)
        shapeOfX = op("shape", {x});
      n = castF(op.element(shapeOfX, d));
    } else {
      n = f(double(nStatic));
    }
    // Scale s, float output length L and integer output length m.
    Value s, len, m;
    if (useSizes) {
      m = sizesC ? i((*sizesC)[d]) : castI(elem(sizesIdx, d));
      len = castF(m);
      s = div(len, n);
    } else {
      s = scalesC ? f((*scalesC)[d]) : castF(elem(scalesIdx, d));
      len = mul(n, s);
      m = castI(op("floor", {len}));
    }
    Value o = castF(op("range", {i(0), m, i(1)}));
    Value half = f(0.5), one = f(1.0), lenIsOne = op("equal", {len, one});
    Value nm1 = sub(n, one);
    Value c; // source coordinate per output index
    if (ctm == "half_pixel" || ctm == "pytorch_half_pixel") {
      c = sub(div(add(o, half), s), half);
      if (ctm == "pytorch_half_pixel")
        c = op("where", {op("greater_than", {len, one}), c, f(0.0)});
    } else if (ctm == "tf_half_pixel_for_nn") {
      c = div(add(o, half), s);
    } else if (ctm == "asymmetric") {
      c = div(o, s);
    } else if (ctm == "align_corners") {
      c = op("where", {lenIsOne, f(0.0), div(mul(o, nm1), sub(len, one))});
    } else { // tf_crop_and_resize
      if (!hasInput(roiIdx))
        return nodeError("tf_crop_and_resize needs roi");
      Value r0 = castF(elem(roiIdx, d)), r1 = castF(elem(roiIdx, rank + d));
      Value span = mul(sub(r1, r0), nm1);
      c = op("where", {lenIsOne, div(span, f(2.0)), div(mul(o, span), sub(len, one))});
      c = add(c, mul(r0, nm1));
    }
    Value nI = castI(n);
    Value last = sub(nI, i(1));
    auto clampIdx = [&](Value v) {
      return op("elementwise_min", {op("elementwise_max", {v, i(0)}), last});
    };
    auto gather = [&](Value idx) {
      return op("gather", {y, clampIdx(idx)}, {i32("axis", int32_t(d))}, {1, 1, 0});
    };
    auto weighted = [&](Value g, Value w) {
      Value wc = castTo(w, xt.getElementType()).value_or(Value());
      return op("elementwise_mul", {g, wc}, {i32("axis", int32_t(d))});
    };
    Value out;
    if (mode == "nearest") {
      Value r = nearest == "round_prefer_floor"  ? op("ceil", {sub(c, half)})
                : nearest == "round_prefer_ceil" ? op("floor", {add(c, half)})
                : nearest == "floor"             ? op("floor", {c})
                                                 : op("ceil", {c});
      out = gather(castI(r));
    } else {
      Value x0f = op("floor", {c}), t = sub(c, x0f), x0 = castI(x0f);
      SmallVector<std::pair<int64_t, Value>> taps; // offset from x0, weight
      if (mode == "linear") {
        taps = {{0, sub(one, t)}, {1, t}};
      } else {
        double a = cubicA;
        // Keys kernel: |d| <= 1: ((a+2)d - (a+3))d^2 + 1;
        //              1 < |d| < 2: ((a d - 5a) d + 8a) d - 4a.
        auto inner = [&](Value v) {
          return add(mul(mul(sub(mul(f(a + 2), v), f(a + 3)), v), v), one);
        };
        auto outer = [&](Value v) {
          return sub(mul(add(mul(sub(mul(f(a), v), f(5 * a)), v), f(8 * a)), v), f(4 * a));
        };
        taps = {{-1, outer(add(one, t))},
                {0, inner(t)},
                {1, inner(sub(one, t))},
                {2, outer(sub(f(2.0), t))}};
        if (exclude) {
          Value total;
          for (auto &[k, w] : taps) {
            Value at = add(x0, i(k));
            Value inside =
                op("logical_and", {op("greater_than", {at, i(-1)}), op("less_than", {at, nI})});
            w = op("where", {inside, w, f(0.0)});
            total = total ? add(total, w) : w;
          }
          for (auto &[k, w] : taps)
            w = div(w, total);
        }
      }
      for (auto &[k, w] : taps) {
        Value term = weighted(gather(k ? add(x0, i(k)) : x0), w);
        out = out ? add(out, term) : term;
      }
    }
    if (ctm == "tf_crop_and_resize") {
      Value e = castTo(f(extrap), xt.getElementType()).value_or(Value());
      out = op.replaceOutside(c, f(0.0), nm1, e, out, rank - d - 1);
    }
    y = out;
  }
  if (!op.ok)
    return failure();
  return define(0, y);
}

LogicalResult OnnxImporter::shapeFromData() {
  const std::string &t = node->op_type();
  auto x = input(0);
  if (failed(x))
    return failure();
  if (t == "Range") {
    auto limit = input(1), delta = input(2);
    if (failed(limit) || failed(delta))
      return failure();
    return define(0, pd1("range", {*x, *limit, *delta}));
  }
  if (t == "Tile") {
    if (const ConstTensor *c = constInput(1))
      return define(0, pd1("tile", {*x}, {ints("repeat_times", c->ints())}, {1, 0, 0}));
    auto reps = input(1);
    if (failed(reps))
      return failure();
    return define(0, pd1("tile", {*x, *reps}, {}, {1, 1, 0}));
  }
  // OneHot(indices, depth, values): values[1] where the (wrapped) index
  // equals the position along the new axis, else values[0].
  auto depthIn = input(1), values = input(2);
  if (failed(depthIn) || failed(values))
    return failure();
  int64_t rank = rankOf(*x) + 1, axis = attrInt("axis", -1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return nodeError("axis is out of range");
  Type i64 = b.getI64Type();
  auto idx = castTo(*x, i64);
  auto depthF = castTo(*depthIn, b.getF32Type());
  if (failed(idx) || failed(depthF))
    return failure();
  auto depth = castTo(*depthF, i64); // ONNX takes depth's value, truncated
  auto idxKeep = pd1("unsqueeze2", {*idx}, {ints("axes", {axis})}, {1, 0, 0});
  if (failed(depth) || failed(idxKeep))
    return failure();
  auto one = intConst(RankedTensorType::get({1}, i64), {1}),
       zero = intConst(RankedTensorType::get({1}, i64), {0});
  auto positions = pd1("range", {zero, *depth, one});
  if (failed(positions))
    return failure();
  // Wrap negative indices: idx < 0 ? idx + depth : idx.
  auto isNeg = pd1("less_than", {*idxKeep, zero});
  auto plus = pd1("elementwise_add", {*idxKeep, *depth});
  if (failed(isNeg) || failed(plus))
    return failure();
  auto wrapped = pd1("where", {*isNeg, *plus, *idxKeep});
  SmallVector<int64_t> shape(rank - axis, 1);
  shape[0] = -1;
  auto posCol = pd1("reshape2", {*positions}, {ints("shape", shape)}, {1, 0, 0});
  if (failed(wrapped) || failed(posCol))
    return failure();
  auto hit = pd1("equal", {*wrapped, *posCol});
  auto off = sliceElement(*values, 0);
  auto on = sliceElement(*values, 1);
  if (failed(hit) || failed(off) || failed(on))
    return failure();
  return define(0, pd1("where", {*hit, *on, *off}));
}

FailureOr<Value> OnnxImporter::axisMask(Value axes, int64_t rank) {
  Type i64 = b.getI64Type();
  auto at = cast<RankedTensorType>(axes.getType());
  if (at.getRank() > 1 || !at.hasStaticShape())
    return (LogicalResult)nodeError("run-time axes need a static length");
  int64_t k = at.getNumElements();
  auto vec = [&](ArrayRef<int64_t> vals) {
    return intConst(RankedTensorType::get({(int64_t)vals.size()}, i64), vals);
  };
  SmallVector<int64_t> iota;
  for (int64_t d = 0; d < rank; ++d)
    iota.push_back(d);
  Chain op{*this};
  auto a = castTo(axes, i64);
  if (failed(a))
    return failure();
  Value v = op("reshape2", {*a}, {ints("shape", {k})}, {1, 0, 0});
  Value axesN =
      op("where", {op("less_than", {v, vec({0})}), op("elementwise_add", {v, vec({rank})}), v});
  Value match = op("equal", {op("unsqueeze2", {axesN}, {ints("axes", {1})}, {1, 0, 0}), vec(iota)});
  Value count = op("reduce_sum", {op("cast", {match}, {i32("in_dtype", 0), i32("out_dtype", 3)})},
                   {ints("dim", {0}), flag("keep_dim", false)});
  Value mask = op("greater_than", {count, vec({0})});
  if (!op.ok)
    return failure();
  return mask;
}

FailureOr<Value> OnnxImporter::keptDims(Value x, Value mask, int64_t kept) {
  Type i64 = b.getI64Type();
  int64_t rank = rankOf(x);
  Chain op{*this};
  auto col = [&](Value v) { return op("unsqueeze2", {v}, {ints("axes", {1})}, {1, 0, 0}); };
  auto toI64 = [&](Value v) {
    return op("cast", {v},
              {i32("in_dtype", paddleDtype(cast<ShapedType>(v.getType()).getElementType())),
               i32("out_dtype", 3)});
  };
  // Position of each kept dim in the result: (number of kept dims up to
  // and including it) - 1; listed dims match no position.
  Value keep = op("logical_not", {mask});
  Value pos = op("elementwise_sub", {op("cumsum", {toI64(keep)}, {i32("axis", 0)}),
                                     intConst(RankedTensorType::get({1}, i64), {1})});
  SmallVector<int64_t> iota;
  for (int64_t j = 0; j < kept; ++j)
    iota.push_back(j);
  Value at =
      op("logical_and",
         {op("equal", {col(pos), intConst(RankedTensorType::get({kept}, i64), iota)}), col(keep)});
  Value dims = toI64(op("shape", {x}));
  Value shape = op("reduce_sum", {op("elementwise_mul", {toI64(at), col(dims)})},
                   {ints("dim", {0}), flag("keep_dim", false)});
  (void)rank;
  if (!op.ok)
    return failure();
  return shape;
}

LogicalResult OnnxImporter::pad() {
  auto xIn = input(0);
  if (failed(xIn))
    return failure();
  Value x = *xIn;
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t rank = xt.getRank();
  std::string mode = attrStr("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge")
    return nodeError("mode '" + mode + "' is not supported");
  Type i64 = b.getI64Type();
  auto i = [&](int64_t v) { return intConst(RankedTensorType::get({1}, i64), {v}); };
  std::optional<std::vector<int64_t>> padsC;
  Value padsV;
  if (opset < 11) {
    padsC = attrInts("pads");
  } else if (const ConstTensor *c = constInput(1)) {
    padsC = c->ints();
  } else {
    auto v = input(1);
    if (failed(v))
      return failure();
    auto cv = castTo(*v, i64);
    if (failed(cv))
      return failure();
    padsV = *cv;
  }
  if (!padsC && !padsV)
    return nodeError("the pads are missing");
  if (padsC && (int64_t)padsC->size() != 2 * rank)
    return nodeError("pads needs " + Twine(2 * rank) + " entries");
  if (padsC && llvm::all_of(*padsC, [](int64_t p) { return p == 0; }))
    return define(0, x); // exporters emit zero pads before pooling
  // The constant fill value, in x's element type.
  Value fill;
  if (mode == "constant") {
    if (opset < 11) {
      fill = scalarConst(xt.getElementType(), attrFloat("value", 0.0));
    } else if (hasInput(2)) {
      auto v = input(2);
      if (failed(v))
        return failure();
      fill = *v;
    } else {
      fill = scalarConst(xt.getElementType(), 0.0);
    }
  }
  Chain op{*this};
  auto padAt = [&](int64_t k) {
    if (padsC)
      return i((*padsC)[k]);
    return op.element(padsV, k);
  };
  Value shapeOfX;
  Value y = x;
  // One gather per padded dim: output position p reads input index
  // p - before, mapped into range by the mode (constant: masked after).
  for (int64_t d = 0; d < rank && op.ok; ++d) {
    if (padsC && (*padsC)[d] == 0 && (*padsC)[rank + d] == 0)
      continue;
    Value n;
    if (ShapedType::isDynamic(xt.getDimSize(d))) {
      if (!shapeOfX)
        shapeOfX = op("cast", {op("shape", {x})}, {i32("in_dtype", 2), i32("out_dtype", 3)});
      n = op.element(shapeOfX, d);
    } else {
      n = i(xt.getDimSize(d));
    }
    Value before = padAt(d), after = padAt(rank + d);
    Value zero = i(0), last = op("elementwise_sub", {n, i(1)});
    Value idx = op(
        "range", {op("elementwise_sub", {zero, before}), op("elementwise_add", {n, after}), i(1)});
    Value src;
    if (mode == "reflect") {
      Value r =
          op("where", {op("less_than", {idx, zero}), op("elementwise_sub", {zero, idx}), idx});
      Value mirrored = op("elementwise_sub", {op("elementwise_add", {last, last}), r});
      src = op("where", {op("greater_than", {r, last}), mirrored, r});
    }
    Value clamped = op("elementwise_min", {op("elementwise_max", {src ? src : idx, zero}), last});
    Value out = op("gather", {y, clamped}, {i32("axis", int32_t(d))}, {1, 1, 0});
    if (mode == "constant") {
      out = op.replaceOutside(idx, zero, last, fill, out, rank - d - 1);
    }
    y = out;
  }
  if (!op.ok)
    return failure();
  return define(0, y);
}

LogicalResult OnnxImporter::scatter() {
  auto data = input(0), indices = input(1), updates = input(2);
  if (failed(data) || failed(indices) || failed(updates))
    return failure();
  std::string reduction = attrStr("reduction", "none");
  if (reduction != "none" && reduction != "add")
    return nodeError("reduction '" + reduction + "' is not supported");
  Chain op{*this};
  Type i64 = b.getI64Type();
  Value idx = *indices;
  if (node->op_type() != "ScatterND") {
    // Element (i...) of indices addresses data at (i... with i[axis]
    // replaced by the index): build those tuples along a new last dim.
    auto it = cast<RankedTensorType>(idx.getType());
    int64_t rank = it.getRank(), axis = attrInt("axis", 0);
    if (axis < 0)
      axis += rank;
    if (!it.hasStaticShape() || axis < 0 || axis >= rank)
      return nodeError("needs static index shapes and a valid axis");
    idx = castTo(idx, i64).value_or(Value());
    SmallVector<Value> parts;
    for (int64_t d = 0; d < rank; ++d) {
      Value coord = idx;
      if (d != axis) {
        SmallVector<int64_t> vals;
        for (int64_t e = 0, n = it.getNumElements(); e < n; ++e) {
          int64_t rem = e;
          for (int64_t k = rank - 1; k > d; --k)
            rem /= it.getDimSize(k);
          vals.push_back(rem % it.getDimSize(d));
        }
        coord = intConst(RankedTensorType::get(it.getShape(), i64), vals);
      }
      parts.push_back(op("unsqueeze2", {coord}, {ints("axes", {rank})}, {1, 0, 0}));
    }
    idx = op("concat", parts, {i32("axis", rank)}, {int32_t(parts.size()), 0});
  }
  Value y;
  if (reduction == "add") {
    y = op("scatter_nd_add", {*data, idx, *updates});
  } else {
    Value zeros = op("fill_any_like", {*data}, {f32("value", 0.0)});
    Value ones = op("fill_any_like", {*updates}, {f32("value", 1.0)});
    Value hits = op("scatter_nd_add", {zeros, idx, ones});
    Value placed = op("scatter_nd_add", {zeros, idx, *updates});
    Value hit = op("greater_than", {hits, zeros});
    y = op("where", {hit, placed, *data});
  }
  if (!op.ok)
    return failure();
  return define(0, y);
}

void mlir::pd::onnx_import::registerTensorConverters(ConverterTable &table) {
  table.add({"Constant"}, importConstant);
  table.add({"Identity", "Dropout"}, importIdentity);
  table.add({"Reshape"}, importReshape);
  table.add({"Flatten"}, importFlatten);
  table.add({"Transpose"}, importTranspose);
  table.add({"Concat"}, importConcat);
  table.add({"Split"}, importSplit);
  table.add({"Squeeze", "Unsqueeze"}, importSqueeze);
  table.add({"Slice"}, importSlice);
  table.add({"Gather"}, importGather);
  table.add({"GatherND"}, importGatherND);
  table.add({"GatherElements"}, withInput0(importGatherElements));
  table.add({"Expand"}, importExpand);
  table.add({"Pad"}, [](OnnxImporter &im) { return im.pad(); });
  table.add({"Resize", "Upsample"}, [](OnnxImporter &im) { return im.resize(); });
  table.add({"ScatterND", "ScatterElements", "Scatter"},
            [](OnnxImporter &im) { return im.scatter(); });
  table.add({"Tile", "Range", "OneHot"}, [](OnnxImporter &im) { return im.shapeFromData(); });
  table.add({"Trilu"}, withInput0(importTrilu));
  table.add({"DepthToSpace", "SpaceToDepth"}, withInput0(importDepthSpace));
  table.add({"EyeLike"}, withInput0(importEyeLike));
  table.add({"ConstantOfShape"}, withInput0(importConstantOfShape));
}

//===- OnnxNN.cpp - ONNX convolution, pooling, normalization --------------===//
//
// Conv/ConvTranspose (1-D, 2-D, 3-D as 2-D per depth tap), MaxPool/AveragePool
// (pool2d, or one strided slice per kernel tap), the global pools, and
// Batch/Layer/Instance normalization and LRN.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>

using namespace mlir;
using namespace mlir::pd::onnx_import;

static LogicalResult importGlobalPool(OnnxImporter &im) {
  const std::string &t = im.node->op_type();
  auto x = im.input(0);
  if (failed(x))
    return failure();
  if (im.rankOf(*x) != 4)
    return im.nodeError("only 2-D (NCHW) inputs are supported");
  return im.define(0, im.pd1("pool2d", {*x},
                             {im.str("pooling_type", t == "GlobalMaxPool" ? "max" : "avg"),
                              im.ints("ksize", {1, 1}), im.flag("global_pooling", true)}));
}

static LogicalResult importBatchNorm(OnnxImporter &im) {
  const onnx::NodeProto &n = *im.node;
  if (im.attrInt("training_mode", 0) || (n.output_size() > 1 && im.opset >= 14))
    return im.batchNormTraining();
  if (n.output_size() > 1)
    return im.nodeError("training-mode outputs of opsets before 14 are not supported");
  SmallVector<Value> in;
  for (int i = 0; i < 5; ++i) {
    auto v = im.input(i);
    if (failed(v))
      return failure();
    in.push_back(*v);
  }
  // Paddle limits epsilon to [0, 1e-3]; a larger one moves into the
  // variance (var + eps with epsilon 0 is the same normalization).
  double eps = im.attrFloat("epsilon", 1e-5);
  if (eps > 1e-3) {
    auto shifted = im.pd1("scale", {in[4]}, {im.f32("scale", 1.0), im.f32("bias", eps)});
    if (failed(shifted))
      return failure();
    in[4] = *shifted;
    eps = 0.0;
  }
  return im.define(0, im.pd1("batch_norm", in, {im.f32("epsilon", eps), im.flag("is_test", true)}));
}

static LogicalResult importLayerNorm(OnnxImporter &im) {
  const onnx::NodeProto &n = *im.node;
  auto x = im.input(0), scale = im.input(1);
  if (failed(x) || failed(scale))
    return failure();
  auto xt = cast<RankedTensorType>(x->getType());
  int64_t rank = xt.getRank(), axis = im.attrInt("axis", -1);
  if (axis < 0)
    axis += rank;
  double eps = im.attrFloat("epsilon", 1e-5);
  SmallVector<Value> in = {*x, *scale};
  if (im.hasInput(2)) {
    auto bias = im.input(2);
    if (failed(bias))
      return failure();
    in.push_back(*bias);
  }
  std::vector<int64_t> all;
  for (int64_t k = axis; k < rank; ++k)
    all.push_back(k);
  // Mean and 1 / sqrt(var + eps) over the normalized dims, kept as
  // size-1 dims (the optional outputs, and the whole computation when
  // epsilon is above pd.layer_norm's range).
  Value mean, centered, invStd;
  bool wantMean = n.output_size() > 1 && !n.output(1).empty();
  bool wantInv = n.output_size() > 2 && !n.output(2).empty();
  if ((wantMean || wantInv || eps > 1e-3) &&
      failed(im.normStats(*x, all, eps, mean, centered, invStd)))
    return failure();
  SmallVector<NamedAttribute> attrs = {im.f32("epsilon", eps), im.i32("begin_norm_axis", axis)};
  FailureOr<Value> y;
  if (eps > 1e-3) {
    y = im.pd1("elementwise_mul", {centered, invStd});
    for (size_t k = 1; k < in.size() && succeeded(y); ++k)
      y = im.pd1(k == 1 ? "elementwise_mul" : "elementwise_add", {*y, in[k]});
  } else if (axis == rank - 1) {
    y = im.pd1("layer_norm", in, attrs, {1, 1, int32_t(in.size() - 2)});
  } else {
    // Normalizing over dims [axis, rank): a 2-D [outer, inner] view
    // normalized over its last dim, scale and bias flattened to [inner].
    if (!xt.hasStaticShape())
      return im.nodeError("normalization over several dims needs static shapes");
    int64_t outer = 1, inner = 1;
    for (int64_t k = 0; k < rank; ++k)
      (k < axis ? outer : inner) *= xt.getDimSize(k);
    SmallVector<Value> flat;
    for (auto [k, v] : llvm::enumerate(in)) {
      auto vt = cast<RankedTensorType>(v.getType());
      if (k > 0 && (!vt.hasStaticShape() || vt.getNumElements() != inner))
        return im.nodeError("scale and bias must have the normalized dims' shape");
      auto f = im.pd1("reshape2", {v},
                      {im.ints("shape", k == 0 ? std::vector<int64_t>{outer, inner}
                                               : std::vector<int64_t>{inner})},
                      {1, 0, 0});
      if (failed(f))
        return failure();
      flat.push_back(*f);
    }
    attrs[1] = im.i32("begin_norm_axis", 1);
    auto y2 = im.pd1("layer_norm", flat, attrs, {1, 1, int32_t(flat.size() - 2)});
    if (failed(y2))
      return failure();
    y = im.pd1("reshape2", {*y2}, {im.ints("shape", xt.getShape())}, {1, 0, 0});
  }
  if (failed(im.define(0, y)))
    return failure();
  if (wantMean && failed(im.define(1, FailureOr<Value>(mean))))
    return failure();
  if (wantInv && failed(im.define(2, FailureOr<Value>(invStd))))
    return failure();
  return success();
}

static LogicalResult importInstanceNorm(OnnxImporter &im, Value x) {
  // Per sample and channel over the spatial dims, then the per-channel
  // scale and bias.
  auto scale = im.input(1), bias = im.input(2);
  if (failed(scale) || failed(bias))
    return failure();
  int64_t rank = im.rankOf(x);
  if (rank < 3)
    return im.nodeError("needs rank >= 3");
  std::vector<int64_t> spatial;
  for (int64_t k = 2; k < rank; ++k)
    spatial.push_back(k);
  Value mean, centered, inv;
  if (failed(im.normStats(x, spatial, im.attrFloat("epsilon", 1e-5), mean, centered, inv)))
    return failure();
  auto y = im.pd1("elementwise_mul", {centered, inv});
  if (failed(y))
    return failure();
  y = im.pd1("elementwise_mul", {*y, *scale}, {im.i32("axis", 1)});
  if (failed(y))
    return failure();
  return im.define(0, im.pd1("elementwise_add", {*y, *bias}, {im.i32("axis", 1)}));
}

static LogicalResult importLRN(OnnxImporter &im, Value x) {
  // x / (bias + alpha / size * sum of x^2 over `size` neighbouring
  // channels)^beta; the windowed channel sum is an average pool (padding
  // counted, so it divides by size) over a [N, 1, C, H*W] view.
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t size = im.attrInt("size", 0);
  if (xt.getRank() != 4 || !xt.hasStaticShape() || size <= 0)
    return im.nodeError("needs a static 4-D input and a positive size");
  int64_t N = xt.getDimSize(0), C = xt.getDimSize(1), HW = xt.getDimSize(2) * xt.getDimSize(3);
  auto sq = im.pd1("square", {x});
  if (failed(sq))
    return failure();
  auto view = im.pd1("reshape2", {*sq}, {im.ints("shape", {N, 1, C, HW})}, {1, 0, 0});
  if (failed(view))
    return failure();
  int64_t before = (size - 1) / 2, after = size - 1 - before;
  auto pooled = im.pd1("pool2d", {*view},
                       {im.str("pooling_type", "avg"), im.ints("ksize", {size, 1}),
                        im.ints("strides", {1, 1}), im.ints("paddings", {before, after, 0, 0}),
                        im.flag("exclusive", false)});
  if (failed(pooled))
    return failure();
  auto back = im.pd1("reshape2", {*pooled}, {im.ints("shape", xt.getShape())}, {1, 0, 0});
  if (failed(back))
    return failure();
  auto base = im.pd1(
      "scale", {*back},
      {im.f32("scale", im.attrFloat("alpha", 1e-4)), im.f32("bias", im.attrFloat("bias", 1.0))});
  if (failed(base))
    return failure();
  auto denom = im.pd1("pow", {*base}, {im.f32("factor", im.attrFloat("beta", 0.75))});
  if (failed(denom))
    return failure();
  return im.define(0, im.pd1("elementwise_div", {x, *denom}));
}

/// Conv, ConvTranspose, MaxPool, AveragePool: 2-D only.
LogicalResult OnnxImporter::convPool(StringRef kind) {
  auto x = input(0);
  if (failed(x))
    return failure();
  auto xt = cast<RankedTensorType>(x->getType());
  if (kind == "MaxPool" || kind == "AveragePool") {
    auto dil = attrInts("dilations");
    bool dilated = dil && llvm::any_of(*dil, [](int64_t d) { return d != 1; });
    bool indices = node->output_size() > 1 && !node->output(1).empty();
    if (xt.getRank() > 4 || dilated || indices || xt.getElementType().isUnsignedInteger())
      return poolTaps(kind);
  }
  if (xt.getRank() == 3)
    return convPool1d(kind);
  if (xt.getRank() == 5 && (kind == "Conv" || kind == "ConvTranspose"))
    return convTaps3d(kind);
  if (xt.getRank() != 4)
    return nodeError("only 1-D and 2-D (NCL, NCHW) inputs are supported, got rank " +
                     Twine(xt.getRank()));
  std::vector<int64_t> strides = attrInts("strides").value_or(std::vector<int64_t>{1, 1});
  std::vector<int64_t> dil = attrInts("dilations").value_or(std::vector<int64_t>{1, 1});
  std::optional<std::vector<int64_t>> kernel = attrInts("kernel_shape");
  Value w;
  if (kind == "Conv" || kind == "ConvTranspose") {
    auto wv = input(1);
    if (failed(wv))
      return failure();
    w = *wv;
    auto wt = cast<RankedTensorType>(w.getType());
    if (wt.getRank() != 4)
      return nodeError("the weight must have rank 4, got rank " + Twine(wt.getRank()));
    kernel = std::vector<int64_t>{wt.getDimSize(2), wt.getDimSize(3)};
  }
  if (!kernel || kernel->size() != 2)
    return nodeError("kernel_shape must have 2 entries");
  // Read per spatial dim below (a 1-entry strides read past its end, and
  // the garbage stride divided by zero).
  if (strides.size() != 2 || dil.size() != 2)
    return nodeError("strides and dilations must have 2 entries, got " + Twine(strides.size()) +
                     " and " + Twine(dil.size()));
  // pads [h_begin, w_begin, h_end, w_end] -> Paddle [top, bottom, left, right]
  std::vector<int64_t> pads = attrInts("pads").value_or(std::vector<int64_t>{0, 0, 0, 0});
  std::string autoPad = attrStr("auto_pad", "NOTSET");
  if (pads.size() != 4)
    return nodeError("pads must have 4 entries");
  auto outShape = attrInts("output_shape");
  std::optional<std::vector<int64_t>> extraOutPad;
  if (kind == "ConvTranspose" && autoPad != "VALID" &&
      (outShape || autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")) {
    // The pads that give output_shape (or input * stride for SAME_*):
    // total = stride * (in - 1) + output_padding + (k - 1) * dil + 1 - out,
    // the odd half at the end for SAME_UPPER, at the start otherwise.
    std::vector<int64_t> outPad = attrInts("output_padding").value_or(std::vector<int64_t>{0, 0});
    if (outShape && outShape->size() < 2)
      return nodeError("output_shape must have at least 2 entries");
    if (outPad.size() != 2)
      return nodeError("output_padding must have 2 entries");
    for (int k = 0; k < 2; ++k) {
      int64_t in = xt.getDimSize(2 + k);
      if (ShapedType::isDynamic(in))
        return nodeError("output_shape / auto_pad needs static spatial dims");
      int64_t target = outShape ? (*outShape)[outShape->size() - 2 + k] : in * strides[k];
      int64_t total = strides[k] * (in - 1) + outPad[k] + ((*kernel)[k] - 1) * dil[k] + 1 - target;
      if (total < 0) {
        // Larger than the full result: the extra rows come from
        // output_padding at the end.
        outPad[k] -= total;
        extraOutPad = outPad;
        total = 0;
      }
      int64_t half = total / 2;
      bool upper = autoPad == "SAME_UPPER";
      pads[k] = upper ? half : total - half;
      pads[k + 2] = upper ? total - half : half;
    }
  } else if (autoPad == "VALID") {
    pads = {0, 0, 0, 0};
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (int k = 0; k < 2; ++k) {
      int64_t in = xt.getDimSize(2 + k);
      if (ShapedType::isDynamic(in))
        return nodeError("auto_pad " + autoPad + " needs static spatial dims");
      int64_t out = (in + strides[k] - 1) / strides[k];
      int64_t total =
          std::max<int64_t>(0, (out - 1) * strides[k] + ((*kernel)[k] - 1) * dil[k] + 1 - in);
      int64_t small = total / 2, big = total - small;
      pads[k] = autoPad == "SAME_UPPER" ? small : big;
      pads[k + 2] = autoPad == "SAME_UPPER" ? big : small;
    }
  } else if (autoPad != "NOTSET") {
    return nodeError("auto_pad '" + autoPad + "' is not supported");
  }
  std::vector<int64_t> paddle = {pads[0], pads[2], pads[1], pads[3]};
  SmallVector<NamedAttribute> attrs = {ints("strides", strides), ints("paddings", paddle)};
  FailureOr<Value> y;
  if (kind == "Conv" || kind == "ConvTranspose") {
    int64_t group = attrInt("group", 1);
    attrs.push_back(ints("dilations", dil));
    attrs.push_back(i32("groups", group));
    auto wt = cast<RankedTensorType>(w.getType());
    std::string op = "conv2d";
    if (kind == "ConvTranspose") {
      op = "conv2d_transpose";
      if (auto outPad = extraOutPad ? extraOutPad : attrInts("output_padding"))
        attrs.push_back(ints("output_padding", *outPad));
    } else if (group > 1 && group == xt.getDimSize(1) && wt.getDimSize(1) == 1) {
      op = "depthwise_conv2d";
    }
    y = pd1(op, {*x, w}, attrs);
    if (succeeded(y) && hasInput(2)) {
      auto bias = input(2);
      if (failed(bias))
        return failure();
      y = pd1("elementwise_add", {*y, *bias}, {i32("axis", 1)});
    }
  } else {
    if (llvm::any_of(dil, [](int64_t d) { return d != 1; }))
      return nodeError("pooling with dilations is not supported");
    if (node->output_size() > 1 && !node->output(1).empty())
      return nodeError("the Indices output of MaxPool is not supported");
    if (attrInt("storage_order", 0) != 0)
      return nodeError("storage_order 1 is not supported");
    attrs.push_back(str("pooling_type", kind == "MaxPool" ? "max" : "avg"));
    attrs.push_back(ints("ksize", *kernel));
    attrs.push_back(flag("ceil_mode", attrInt("ceil_mode", 0) != 0));
    attrs.push_back(flag("exclusive", attrInt("count_include_pad", 0) == 0));
    y = pd1("pool2d", {*x}, attrs);
  }
  return define(0, y);
}

/// A 1-D Conv/ConvTranspose/pool as the 2-D one over a unit height: the
/// node is rewritten with 2-D attributes and unsqueezed operands, then its
/// result squeezed back.
LogicalResult OnnxImporter::convPool1d(StringRef kind) {
  const onnx::NodeProto *outer = node;
  onnx::NodeProto n2 = *outer;
  for (auto &a : *n2.mutable_attribute()) {
    std::vector<int64_t> v(a.ints().begin(), a.ints().end());
    if (a.name() == "pads" && v.size() == 2)
      v = {0, v[0], 0, v[1]};
    else if ((a.name() == "strides" || a.name() == "dilations" || a.name() == "kernel_shape" ||
              a.name() == "output_shape") &&
             v.size() == 1)
      v = {1, v[0]};
    else if (a.name() == "output_padding" && v.size() == 1)
      v = {0, v[0]};
    else
      continue;
    a.clear_ints();
    for (int64_t x : v)
      a.add_ints(x);
  }
  std::string tag = "__1d_" + std::to_string(expansions++) + "_";
  int operands = kind == "Conv" || kind == "ConvTranspose" ? 2 : 1;
  for (int i = 0; i < operands; ++i) {
    auto v = input(i);
    if (failed(v))
      return failure();
    auto u = pd1("unsqueeze2", {*v}, {ints("axes", {2})}, {1, 0, 0});
    if (failed(u))
      return failure();
    env[tag + std::to_string(i)] = *u;
    n2.set_input(i, tag + std::to_string(i));
  }
  n2.set_output(0, tag + "y");
  node = &n2;
  LogicalResult ok = convPool(kind);
  node = outer;
  if (failed(ok))
    return failure();
  return define(0, pd1("squeeze2", {env[tag + "y"]}, {ints("axes", {2})}));
}

LogicalResult OnnxImporter::convTaps3d(StringRef kind) {
  auto x = input(0), w = input(1);
  if (failed(x) || failed(w))
    return failure();
  auto xt = cast<RankedTensorType>(x->getType());
  auto wt = cast<RankedTensorType>(w->getType());
  bool transpose = kind == "ConvTranspose";
  std::string autoPad = attrStr("auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "VALID")
    return nodeError("3-D " + kind.str() + " supports auto_pad NOTSET and VALID only, not " +
                     autoPad);
  if (transpose && attrInts("output_shape"))
    return nodeError("3-D ConvTranspose with output_shape is not supported");
  std::vector<int64_t> strides = attrInts("strides").value_or(std::vector<int64_t>{1, 1, 1});
  std::vector<int64_t> dil = attrInts("dilations").value_or(std::vector<int64_t>{1, 1, 1});
  std::vector<int64_t> pads = attrInts("pads").value_or(std::vector<int64_t>{0, 0, 0, 0, 0, 0});
  std::vector<int64_t> outPad = attrInts("output_padding").value_or(std::vector<int64_t>{0, 0, 0});
  if (autoPad == "VALID")
    pads = {0, 0, 0, 0, 0, 0};
  if (strides.size() != 3 || dil.size() != 3 || pads.size() != 6 || outPad.size() != 3)
    return nodeError("strides, dilations, output_padding need 3 entries and pads 6");
  int64_t din = xt.getDimSize(2), kd = wt.getDimSize(2);
  if (ShapedType::isDynamic(din) || ShapedType::isDynamic(kd))
    return nodeError("3-D " + kind.str() + " needs a static input and kernel depth");
  int64_t s = strides[0], d = dil[0], pb = pads[0], pe = pads[3];
  int64_t dout = transpose ? s * (din - 1) + outPad[0] + d * (kd - 1) + 1 - pb - pe
                           : (din + pb + pe - d * (kd - 1) - 1) / s + 1;
  if (dout <= 0)
    return nodeError("the output depth would be " + Twine(dout));

  // The 2-D node every tap runs: the same op without bias, with the
  // height/width half of each attribute.
  const onnx::NodeProto *outer = node;
  onnx::NodeProto n2 = *outer;
  while (n2.input_size() > 2)
    n2.mutable_input()->RemoveLast();
  for (auto &a : *n2.mutable_attribute()) {
    std::vector<int64_t> v(a.ints().begin(), a.ints().end());
    if (a.name() == "pads")
      v = {pads[1], pads[2], pads[4], pads[5]};
    else if (a.name() == "strides" || a.name() == "dilations" || a.name() == "kernel_shape" ||
             a.name() == "output_padding")
      v.erase(v.begin());
    else
      continue;
    a.clear_ints();
    for (int64_t e : v)
      a.add_ints(e);
  }
  Chain op{*this};
  auto depthSlice = [&](Value v, int64_t i) {
    Value sl = op("slice", {v}, {ints("axes", {2}), ints("starts", {i}), ints("ends", {i + 1})},
                  {1, 0, 0, 0, 0});
    return op("squeeze2", {sl}, {ints("axes", {2})});
  };
  std::string tag = "__3d_" + std::to_string(expansions++) + "_";
  auto tap = [&](int64_t id, int64_t k) -> Value {
    Value xs = depthSlice(*x, id), ws = depthSlice(*w, k);
    if (!op.ok)
      return Value();
    std::string t = tag + std::to_string(id) + "_" + std::to_string(k) + "_";
    env[t + "x"] = xs;
    env[t + "w"] = ws;
    n2.set_input(0, t + "x");
    n2.set_input(1, t + "w");
    n2.set_output(0, t + "y");
    node = &n2;
    LogicalResult ok = convPool(kind);
    node = outer;
    if (failed(ok))
      return op.ok = false, Value();
    return env[t + "y"];
  };
  SmallVector<Value> planes;
  Value anyTap;
  for (int64_t od = 0; od < dout && op.ok; ++od) {
    Value sum;
    for (int64_t k = 0; k < kd && op.ok; ++k) {
      // Conv: od reads id = od * s - pb + k * d. Transpose: id writes
      // od = id * s - pb + k * d.
      int64_t id = od * s - pb + k * d;
      if (transpose) {
        int64_t num = od + pb - k * d;
        if (num % s != 0)
          continue;
        id = num / s;
      }
      if (id < 0 || id >= din)
        continue;
      Value y = tap(id, k);
      sum = sum ? op("elementwise_add", {sum, y}) : y;
    }
    if (!sum) { // only padding meets here: zeros of a tap's shape
      if (!anyTap)
        anyTap = tap(0, 0);
      sum = op("scale", {anyTap}, {f32("scale", 0.0)});
    }
    anyTap = anyTap ? anyTap : sum;
    planes.push_back(op("unsqueeze2", {sum}, {ints("axes", {2})}, {1, 0, 0}));
  }
  Value y = planes.size() == 1
                ? planes[0]
                : op("concat", planes, {i32("axis", 2)}, {int32_t(planes.size()), 0});
  if (op.ok && hasInput(2)) {
    auto bias = input(2);
    if (failed(bias))
      return failure();
    y = op("elementwise_add", {y, *bias}, {i32("axis", 1)});
  }
  if (!op.ok)
    return failure();
  return define(0, y);
}

LogicalResult OnnxImporter::poolTaps(StringRef kind) {
  auto xIn = input(0);
  if (failed(xIn))
    return failure();
  Value x = *xIn;
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t rank = xt.getRank(), k = rank - 2;
  if (k < 1 || !xt.hasStaticShape())
    return nodeError("pooling this way needs a static N, C, spatial... input");
  bool isMax = kind == "MaxPool";
  Type elem = xt.getElementType();
  bool wantIndices = isMax && node->output_size() > 1 && !node->output(1).empty();
  if (!isa<FloatType>(elem) && (!isMax || wantIndices || !elem.isUnsignedInteger(8)))
    return nodeError("integer pooling is supported for uint8 max pooling without indices");
  auto kernel = attrInts("kernel_shape");
  if (!kernel || (int64_t)kernel->size() != k)
    return nodeError("kernel_shape must have " + Twine(k) + " entries");
  std::vector<int64_t> ones(k, 1);
  std::vector<int64_t> strides = attrInts("strides").value_or(ones);
  std::vector<int64_t> dil = attrInts("dilations").value_or(ones);
  std::vector<int64_t> pads = attrInts("pads").value_or(std::vector<int64_t>(2 * k, 0));
  if ((int64_t)strides.size() != k || (int64_t)dil.size() != k || (int64_t)pads.size() != 2 * k)
    return nodeError("strides, dilations and pads must match the spatial rank");
  std::string autoPad = attrStr("auto_pad", "NOTSET");
  bool ceilMode = attrInt("ceil_mode", 0) != 0;
  int storage = attrInt("storage_order", 0);
  if (storage && k != 2)
    return nodeError("storage_order 1 needs a 2-D pool");
  SmallVector<int64_t> in(xt.getShape().drop_front(2)), out(k);
  for (int64_t i = 0; i < k; ++i) {
    int64_t span = (kernel->at(i) - 1) * dil[i] + 1;
    if (autoPad == "VALID") {
      pads[i] = pads[k + i] = 0;
    } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      int64_t o = (in[i] + strides[i] - 1) / strides[i];
      int64_t total = std::max<int64_t>(0, (o - 1) * strides[i] + span - in[i]);
      int64_t small = total / 2;
      pads[i] = autoPad == "SAME_UPPER" ? small : total - small;
      pads[k + i] = total - pads[i];
    } else if (autoPad != "NOTSET") {
      return nodeError("auto_pad '" + autoPad + "' is not supported");
    }
    int64_t room = in[i] + pads[i] + pads[k + i] - span;
    if (room < 0)
      return nodeError("the kernel is larger than the padded input");
    // ONNX's formula (opsets <= 17): no rule dropping a last window that
    // starts in the end padding.
    out[i] = (ceilMode ? (room + strides[i] - 1) / strides[i] : room / strides[i]) + 1;
    // Room for windows that reach past the end padding (ceil_mode).
    pads[k + i] =
        std::max<int64_t>(pads[k + i], (out[i] - 1) * strides[i] + span - in[i] - pads[i]);
  }
  // Pad with a value that never wins (max) or adds nothing (avg); uint8
  // goes through a float fill cast to uint8.
  Value padded = x;
  for (int64_t i = 0; i < k; ++i) {
    SmallVector<Value> parts;
    for (int64_t side = 0; side < 2; ++side) {
      int64_t p = pads[side * k + i];
      if (p == 0)
        continue;
      SmallVector<int64_t> shape(cast<RankedTensorType>(padded.getType()).getShape());
      shape[2 + i] = p;
      Type fillElem = isa<FloatType>(elem) ? elem : b.getF32Type();
      auto fill = pd1("fill_constant", {},
                      {b.getNamedAttr("shape", b.getDenseI64ArrayAttr(shape)),
                       f32("value", isMax && isa<FloatType>(elem) ? -INFINITY : 0.0),
                       i32("dtype", paddleDtype(fillElem))},
                      {0, 0, 0});
      if (failed(fill))
        return failure();
      Value f = *fill;
      if (fillElem != elem) {
        auto c = castTo(f, elem);
        if (failed(c))
          return failure();
        f = *c;
      }
      parts.push_back(f);
      if (side == 0)
        parts.push_back(padded);
    }
    if (parts.empty())
      continue;
    if (pads[i] == 0)
      parts.insert(parts.begin(), padded);
    auto cat = pd1("concat", parts, {i32("axis", 2 + i)}, {int32_t(parts.size()), 0});
    if (failed(cat))
      return failure();
    padded = *cat;
  }
  // One strided slice per kernel tap, combined.
  int64_t taps = 1;
  for (int64_t v : *kernel)
    taps *= v;
  SmallVector<int64_t> axes, tap(k, 0);
  for (int64_t i = 0; i < k; ++i)
    axes.push_back(2 + i);
  int64_t N = xt.getDimSize(0), C = xt.getDimSize(1), plane = 1;
  for (int64_t v : in)
    plane *= v;
  SmallVector<int64_t> idxShape = {N, C};
  llvm::append_range(idxShape, out);
  auto idxType = RankedTensorType::get(idxShape, b.getI64Type());
  Value best, bestIdx;
  for (int64_t t = 0; t < taps; ++t) {
    SmallVector<int64_t> starts, ends;
    for (int64_t i = 0; i < k; ++i) {
      starts.push_back(tap[i] * dil[i]);
      ends.push_back(tap[i] * dil[i] + (out[i] - 1) * strides[i] + 1);
    }
    auto v = pd1(
        "strided_slice", {padded},
        {ints("axes", axes), ints("starts", starts), ints("ends", ends), ints("strides", strides)},
        {1, 0, 0, 0, 0, 0, 0});
    if (failed(v))
      return failure();
    Value idx;
    if (wantIndices) {
      // The input element each output reads at this tap, flattened over
      // N, C and the spatial dims (row major, or column major over H, W).
      SmallVector<int64_t> vals;
      SmallVector<int64_t> o(k, 0);
      int64_t count = idxType.getNumElements() / (N * C);
      for (int64_t nc = 0; nc < N * C; ++nc)
        for (int64_t e = 0; e < count; ++e) {
          int64_t rem = e, flat = 0;
          SmallVector<int64_t> p(k);
          for (int64_t i = k - 1; i >= 0; --i) {
            o[i] = rem % out[i];
            rem /= out[i];
          }
          for (int64_t i = 0; i < k; ++i)
            p[i] = o[i] * strides[i] - pads[i] + tap[i] * dil[i];
          if (storage)
            flat = p[0] + p[1] * in[0];
          else
            for (int64_t i = 0; i < k; ++i)
              flat = flat * in[i] + p[i];
          vals.push_back(nc * plane + flat);
        }
      idx = intConst(idxType, vals);
    }
    if (!best) {
      best = *v;
      bestIdx = idx;
    } else if (!isMax) {
      auto s = pd1("elementwise_add", {best, *v});
      if (failed(s))
        return failure();
      best = *s;
    } else if (!wantIndices) {
      auto m = pd1("elementwise_max", {best, *v});
      if (failed(m))
        return failure();
      best = *m;
    } else {
      // Strictly greater: among equal values the earlier tap (lower index)
      // stays.
      auto gt = pd1("greater_than", {*v, best});
      if (failed(gt))
        return failure();
      auto m = pd1("where", {*gt, *v, best});
      auto mi = pd1("where", {*gt, idx, bestIdx});
      if (failed(m) || failed(mi))
        return failure();
      best = *m;
      bestIdx = *mi;
    }
    for (int64_t i = k - 1; i >= 0; --i) {
      if (++tap[i] < kernel->at(i))
        break;
      tap[i] = 0;
    }
  }
  if (!isMax) {
    // Divide by the window size, or by the inputs (not pads) it covers.
    SmallVector<int64_t> cntShape = {1, 1};
    llvm::append_range(cntShape, out);
    auto cntType = RankedTensorType::get(cntShape, elem);
    bool includePad = attrInt("count_include_pad", 0) != 0;
    SmallVector<Attribute> counts;
    SmallVector<int64_t> o(k, 0);
    for (int64_t e = 0, n = cntType.getNumElements(); e < n; ++e) {
      int64_t rem = e, c = 1;
      for (int64_t i = k - 1; i >= 0; --i) {
        o[i] = rem % out[i];
        rem /= out[i];
      }
      for (int64_t i = 0; i < k; ++i) {
        int64_t valid = 0;
        for (int64_t j = 0; j < kernel->at(i); ++j) {
          int64_t p = o[i] * strides[i] - pads[i] + j * dil[i];
          // count_include_pad counts the declared pads, not ceil_mode's
          // extra room past them.
          int64_t hi = includePad ? in[i] + attrInts("pads").value_or(pads)[k + i] : in[i];
          int64_t lo = includePad ? -pads[i] : 0;
          valid += p >= lo && p < hi;
        }
        c *= valid;
      }
      counts.push_back(b.getFloatAttr(elem, double(std::max<int64_t>(c, 1))));
    }
    Value cnt = arith::ConstantOp::create(b, loc, cntType, DenseElementsAttr::get(cntType, counts));
    auto avg = pd1("elementwise_div", {best, cnt});
    if (failed(avg))
      return failure();
    best = *avg;
  }
  if (failed(define(0, best)))
    return failure();
  return wantIndices ? define(1, bestIdx) : success();
}

LogicalResult OnnxImporter::normStats(Value x, ArrayRef<int64_t> dims, double eps, Value &mean,
                                      Value &centered, Value &invStd, Value *variance) {
  SmallVector<NamedAttribute> red = {flag("keep_dim", true), ints("dim", dims)};
  auto m = pd1("reduce_mean", {x}, red);
  if (failed(m))
    return failure();
  auto c = pd1("elementwise_sub", {x, *m});
  if (failed(c))
    return failure();
  auto sq = pd1("square", {*c});
  if (failed(sq))
    return failure();
  auto var = pd1("reduce_mean", {*sq}, red);
  if (failed(var))
    return failure();
  auto shifted = pd1("scale", {*var}, {f32("bias", eps)});
  if (failed(shifted))
    return failure();
  auto inv = pd1("rsqrt", {*shifted});
  if (failed(inv))
    return failure();
  mean = *m;
  centered = *c;
  invStd = *inv;
  if (variance)
    *variance = *var;
  return success();
}

LogicalResult OnnxImporter::batchNormTraining() {
  SmallVector<Value> in;
  for (int i = 0; i < 5; ++i) {
    auto v = input(i);
    if (failed(v))
      return failure();
    in.push_back(*v);
  }
  Value x = in[0];
  int64_t rank = rankOf(x);
  if (rank < 2)
    return nodeError("needs an input of rank >= 2");
  SmallVector<int64_t> dims = {0};
  for (int64_t d = 2; d < rank; ++d)
    dims.push_back(d);
  Value mean, centered, invStd, var;
  if (failed(normStats(x, dims, attrFloat("epsilon", 1e-5), mean, centered, invStd, &var)))
    return failure();
  auto normed = pd1("elementwise_mul", {centered, invStd});
  if (failed(normed))
    return failure();
  auto scaled = pd1("elementwise_mul", {*normed, in[1]}, {i32("axis", 1)});
  if (failed(scaled) ||
      failed(define(0, pd1("elementwise_add", {*scaled, in[2]}, {i32("axis", 1)}))))
    return failure();
  // running = input * momentum + current * (1 - momentum), per channel.
  double momentum = attrFloat("momentum", 0.9);
  for (auto [k, cur, run] : {std::tuple<int, Value, Value>{1, mean, in[3]}, {2, var, in[4]}}) {
    auto flat = pd1("reshape2", {cur}, {ints("shape", {-1})}, {1, 0, 0});
    if (failed(flat))
      return failure();
    auto a = pd1("scale", {run}, {f32("scale", momentum)});
    auto c = pd1("scale", {*flat}, {f32("scale", 1.0 - momentum)});
    if (failed(a) || failed(c) || failed(define(k, pd1("elementwise_add", {*a, *c}))))
      return failure();
  }
  return success();
}

void mlir::pd::onnx_import::registerNNConverters(ConverterTable &table) {
  table.add({"Conv", "ConvTranspose", "MaxPool", "AveragePool"},
            [](OnnxImporter &im) { return im.convPool(im.node->op_type()); });
  table.add({"GlobalAveragePool", "GlobalMaxPool"}, importGlobalPool);
  table.add({"BatchNormalization"}, importBatchNorm);
  table.add({"LayerNormalization"}, importLayerNorm);
  table.add({"InstanceNormalization"}, withInput0(importInstanceNorm));
  table.add({"LRN"}, withInput0(importLRN));
}

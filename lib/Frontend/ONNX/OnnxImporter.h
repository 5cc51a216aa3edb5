//===- OnnxImporter.h - ONNX importer state, helpers, converters -*- C++ -*-===//
//
// Private to lib/Frontend/ONNX: the importer's state and node helpers that
// the op-family files (OnnxElementwise.cpp, OnnxNN.cpp, OnnxTensor.cpp,
// OnnxReduction.cpp, OnnxQuantization.cpp, OnnxControl.cpp) share, and the
// table they register their converters in. OnnxImport.cpp walks the graph
// and dispatches each node through the table.
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_LIB_FRONTEND_ONNX_ONNXIMPORTER_H
#define PADDLEMLIR_LIB_FRONTEND_ONNX_ONNXIMPORTER_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <onnx/onnx_pb.h>

#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace mlir::pd::onnx_import {
/// A compile-time tensor: type and little-endian bytes (bools one per byte).
struct ConstTensor {
  RankedTensorType type;
  std::vector<char> bytes;

  std::vector<int64_t> ints() const {
    std::vector<int64_t> out;
    Type e = type.getElementType();
    size_t n = type.getNumElements();
    for (size_t i = 0; i < n; ++i) {
      if (e.isInteger(64)) {
        int64_t v;
        std::memcpy(&v, bytes.data() + 8 * i, 8);
        out.push_back(v);
      } else if (e.isInteger(32)) {
        int32_t v;
        std::memcpy(&v, bytes.data() + 4 * i, 4);
        out.push_back(v);
      }
    }
    return out;
  }
  /// The values of a float tensor (f32 or f64) as doubles.
  std::vector<double> floats() const {
    std::vector<double> out;
    Type e = type.getElementType();
    for (int64_t i = 0; i < type.getNumElements(); ++i) {
      if (e.isF32()) {
        float v;
        std::memcpy(&v, bytes.data() + 4 * i, 4);
        out.push_back(v);
      } else if (e.isF64()) {
        double v;
        std::memcpy(&v, bytes.data() + 8 * i, 8);
        out.push_back(v);
      }
    }
    return out;
  }
  std::optional<double> scalar() const {
    if (type.getNumElements() != 1)
      return std::nullopt;
    Type e = type.getElementType();
    if (e.isF32()) {
      float v;
      std::memcpy(&v, bytes.data(), 4);
      return v;
    }
    if (e.isF64()) {
      double v;
      std::memcpy(&v, bytes.data(), 8);
      return v;
    }
    std::vector<int64_t> i = ints();
    if (i.size() == 1)
      return double(i[0]);
    return std::nullopt;
  }
};

ConstTensor intTensor(ArrayRef<int64_t> shape, Type elem, ArrayRef<int64_t> values);
/// The element type of an ONNX TensorProto data type (null if none).
Type elementType(MLIRContext *ctx, int32_t dt);
/// The ONNX TensorProto data type of an element type (0 if none).
int32_t onnxDtype(Type t);
/// Paddle's VarType code of an element type (for pd.cast).
int paddleDtype(Type t);
int32_t clampI32(int64_t v);

class ConverterTable;

/// One model's import. The converters in the op-family files read the node
/// being imported (`node`) through the helpers below and define its outputs.
class OnnxImporter {
public:
  OnnxImporter(MLIRContext *ctx, StringRef path) : ctx(ctx), b(ctx), path(path.str()) {}
  OwningOpRef<ModuleOp> run();

  Location fileLoc() { return FileLineColLoc::get(ctx, path, 0, 0); }
  LogicalResult fail(Location loc, const Twine &msg) {
    emitError(loc) << msg;
    return failure();
  }
  /// Error on the current node, naming it, its op type and the opset.
  LogicalResult nodeError(const Twine &msg) {
    return fail(loc, "ONNX node '" + node->name() + "' (" + node->op_type() + ", opset " +
                         Twine(opset) + "): " + msg);
  }
  FailureOr<ConstTensor> readTensor(const onnx::TensorProto &t);
  LogicalResult importNode(const onnx::NodeProto &n, int index);

  // Node helpers.
  bool hasInput(int i) const { return i < node->input_size() && !node->input(i).empty(); }
  FailureOr<Value> input(int i);
  /// The value of `name`; a constant is materialized on its first use.
  FailureOr<Value> valueOf(const std::string &name);
  const ConstTensor *constInput(int i) const {
    if (!hasInput(i))
      return nullptr;
    auto it = consts.find(node->input(i));
    return it == consts.end() ? nullptr : &it->second;
  }
  const onnx::AttributeProto *attr(StringRef name) const {
    for (const auto &a : node->attribute())
      if (a.name() == name)
        return &a;
    return nullptr;
  }
  int64_t attrInt(StringRef name, int64_t def) const {
    const auto *a = attr(name);
    return a ? a->i() : def;
  }
  double attrFloat(StringRef name, double def) const {
    const auto *a = attr(name);
    return a ? a->f() : def;
  }
  std::string attrStr(StringRef name, StringRef def) const {
    const auto *a = attr(name);
    return a ? a->s() : def.str();
  }
  std::optional<std::vector<int64_t>> attrInts(StringRef name) const {
    const auto *a = attr(name);
    if (!a)
      return std::nullopt;
    return std::vector<int64_t>(a->ints().begin(), a->ints().end());
  }
  /// Input i when it is a value computed at run time (not a constant).
  std::optional<Value> runtimeInput(int i) {
    if (!hasInput(i) || constInput(i))
      return std::nullopt;
    auto it = env.find(node->input(i));
    if (it == env.end())
      return std::nullopt;
    return it->second;
  }
  /// Ints from an attribute (older opsets) or a constant input (newer ones).
  FailureOr<std::optional<std::vector<int64_t>>> intsFrom(StringRef attrName, int inputIndex);

  /// Creates pd.<name> and infers its result types.
  FailureOr<Operation *> pd(StringRef name, ValueRange operands, ArrayRef<NamedAttribute> attrs,
                            unsigned results = 1, ArrayRef<int32_t> segments = {});
  FailureOr<Value> pd1(StringRef name, ValueRange operands, ArrayRef<NamedAttribute> attrs = {},
                       ArrayRef<int32_t> segments = {}) {
    auto op = pd(name, operands, attrs, 1, segments);
    if (failed(op))
      return failure();
    return (*op)->getResult(0);
  }
  LogicalResult define(int output, FailureOr<Value> v) {
    if (failed(v))
      return failure();
    if (output < node->output_size() && !node->output(output).empty())
      env[node->output(output)] = *v;
    return success();
  }
  NamedAttribute i32(StringRef n, int64_t v) { return b.getNamedAttr(n, b.getI32IntegerAttr(v)); }
  NamedAttribute f32(StringRef n, double v) {
    return b.getNamedAttr(n, b.getF32FloatAttr(float(v)));
  }
  NamedAttribute ints(StringRef n, ArrayRef<int64_t> v) {
    SmallVector<int32_t> c;
    for (int64_t x : v)
      c.push_back(clampI32(x));
    return b.getNamedAttr(n, b.getDenseI32ArrayAttr(c));
  }
  NamedAttribute str(StringRef n, StringRef v) { return b.getNamedAttr(n, b.getStringAttr(v)); }
  NamedAttribute flag(StringRef n, bool v) { return b.getNamedAttr(n, b.getBoolAttr(v)); }
  Value scalarConst(Type elem, double v);
  int64_t rankOf(Value v) { return cast<RankedTensorType>(v.getType()).getRank(); }

  FailureOr<Value> castTo(Value x, Type to);
  /// A constant tensor of `type` holding `values` (integer types).
  Value intConst(RankedTensorType type, ArrayRef<int64_t> values);
  /// Element k of the 1-D tensor v, as a [1] tensor.
  FailureOr<Value> sliceElement(Value v, int64_t k) {
    return pd1("slice", {v}, {ints("axes", {0}), ints("starts", {k}), ints("ends", {k + 1})},
               {1, 0, 0, 0, 0});
  }
  /// Builds pd ops one after another, stopping at the first failure (which
  /// has reported its error): later calls, and calls with a null operand,
  /// return null and leave `ok` false.
  struct Chain {
    OnnxImporter &im;
    bool ok = true;
    Value operator()(StringRef name, SmallVector<Value> in, ArrayRef<NamedAttribute> attrs = {},
                     ArrayRef<int32_t> seg = {}) {
      if (!ok || llvm::any_of(in, [](Value v) { return !v; }))
        return ok = false, Value();
      auto r = im.pd1(name, in, attrs, seg);
      ok = succeeded(r);
      return ok ? *r : Value();
    }
    /// where(pos < low or pos > high, fill, out): pos is the 1-D position
    /// along a dim of `out` followed by `trailing` more dims.
    Value replaceOutside(Value pos, Value low, Value high, Value fill, Value out,
                         int64_t trailing) {
      Chain &op = *this;
      Value outside =
          op("logical_or", {op("less_than", {pos, low}), op("greater_than", {pos, high})});
      SmallVector<int64_t> shape(trailing + 1, 1);
      shape[0] = -1;
      outside = op("reshape2", {outside}, {im.ints("shape", shape)}, {1, 0, 0});
      return op("where", {outside, fill, out});
    }
    Value element(Value v, int64_t k) {
      if (!ok || !v)
        return ok = false, Value();
      auto r = im.sliceElement(v, k);
      ok = succeeded(r);
      return ok ? *r : Value();
    }
  };

  // Defined in OnnxTensor.cpp.
  /// Shape arithmetic on compile-time integer tensors (Shape of a static
  /// tensor, and Gather/Add/Sub/Mul/Div/Concat/Unsqueeze/Squeeze/Reshape/
  /// Cast/Slice of constants), as exporters emit for reshapes.
  bool foldShapeMath();
  /// Slice with run-time starts/ends/axes/steps (opset >= 10).
  FailureOr<Value> sliceRuntime(Value x);
  /// Resize (opsets 10-17) and Upsample: separable 1-D interpolation per
  /// resized dim from gathers and weights.
  LogicalResult resize();
  /// A [rank] bool tensor: whether each dim is listed in the run-time
  /// `axes` (static length; negative entries count from the end).
  FailureOr<Value> axisMask(Value axes, int64_t rank);
  /// The [kept] i64 shape of x without the dims `mask` lists.
  FailureOr<Value> keptDims(Value x, Value mask, int64_t kept);
  /// Pad (constant, reflect, edge; constant or run-time pads): one gather
  /// per padded dim with the source index mapped by the mode.
  LogicalResult pad();
  /// ScatterND, ScatterElements and Scatter (reduction none or add) through
  /// scatter_nd_add: ScatterElements' indices become full index tuples;
  /// "none" places the updates where a scatter of ones lands, data
  /// elsewhere.
  LogicalResult scatter();
  /// Tile, Range and OneHot: ops whose result shape may come from data.
  LogicalResult shapeFromData();

  // Defined in OnnxNN.cpp.
  LogicalResult convPool(StringRef kind);
  LogicalResult convPool1d(StringRef kind);
  /// A 3-D Conv/ConvTranspose (NCDHW) as 2-D ones per depth tap: output
  /// depth slice od sums the 2-D op of input slice id with kernel slice kd
  /// over every (id, kd) that meets at od; slices are then stacked. Work
  /// grows with depth x kernel depth: right for small 3-D layers, no fast
  /// path for video-sized ones.
  LogicalResult convTaps3d(StringRef kind);
  /// MaxPool/AveragePool of any spatial rank, with dilations, MaxPool's
  /// Indices output or uint8 data: one strided slice of the padded input
  /// per kernel tap, combined by max (with the winning input index) or
  /// summed and divided by the window's count.
  LogicalResult poolTaps(StringRef kind);
  /// Mean, x - mean and 1 / sqrt(var + eps) of x over `dims` (kept as
  /// size-1 dims): the statistics of the normalization ops.
  LogicalResult normStats(Value x, ArrayRef<int64_t> dims, double eps, Value &mean, Value &centered,
                          Value &invStd, Value *variance = nullptr);
  /// BatchNormalization with training_mode: batch statistics over all dims
  /// but the channel, and the updated running mean and variance.
  LogicalResult batchNormTraining();

  // Defined in OnnxReduction.cpp.
  LogicalResult reduce(StringRef pdName);
  /// The reduction `pdName` of x over the node's axes (attribute or input
  /// 1); `keep` overrides the node's keepdims.
  FailureOr<Value> reduceOf(StringRef pdName, Value x, std::optional<bool> keep = std::nullopt);
  /// Reduction over run-time axes: reduces every listed dim in turn
  /// (broadcast back, so shapes stay put), then slices the reduced dims to
  /// 1 and, without keepdims, reshapes them away.
  FailureOr<Value> reduceRuntimeAxes(StringRef pdName, Value x, Value axes, bool keep);
  /// TopK with a constant k: k rounds of arg max (min) along the axis, each
  /// masking the pick (O(k n); ties keep the lower index first).
  LogicalResult topK();

  // Defined in OnnxQuantization.cpp.
  /// MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv: the product of
  /// the zero-point-shifted operands in f64 (exact for 8-bit operands: pd's
  /// matmul and conv are floating-point ops), then for QLinear*
  /// the requantization y = saturate(round(acc * sa * sb / sy) + zy) with
  /// per-tensor, per-row (matmul A) or per-output-channel scales and zero
  /// points.
  LogicalResult quantizedProduct();

  // Defined in OnnxElementwise.cpp.
  /// Rounds half to even (ONNX Round), from floor, mod and where.
  FailureOr<Value> roundHalfEven(Value x);

  // Defined in OnnxControl.cpp.
  /// An op without a direct mapping whose ONNX schema defines it as a
  /// function: imports the function body's nodes in its place.
  LogicalResult expandFunction();

  MLIRContext *ctx;
  OpBuilder b;
  std::string path;
  onnx::ModelProto model;
  int64_t opset = 0;
  ModuleOp module;
  llvm::StringMap<Value> env;
  llvm::StringMap<ConstTensor> consts;
  const onnx::NodeProto *node = nullptr;
  Location loc = UnknownLoc::get(ctx);
  int globalCount = 0;
  int expansions = 0;
};

/// Imports the importer's current node (`im.node`), defining its outputs;
/// reports its own errors.
using Converter = std::function<LogicalResult(OnnxImporter &im)>;

/// The converters by ONNX op type (default domain), each for a range of
/// opsets: an op whose semantics changed between opsets can register one
/// converter per range. A node with no converter for its op type and opset
/// is expanded into its ONNX function body, or refused.
class ConverterTable {
public:
  static constexpr int64_t kAnyOpset = std::numeric_limits<int64_t>::max();
  /// Registers `fn` for each of `opTypes` at opsets [sinceOpset, untilOpset].
  void add(std::initializer_list<StringRef> opTypes, Converter fn, int64_t sinceOpset = 0,
           int64_t untilOpset = kAnyOpset);
  /// The converter for `opType` at `opset`, or null.
  const Converter *lookup(StringRef opType, int64_t opset) const;

private:
  struct Entry {
    int64_t sinceOpset, untilOpset;
    Converter fn;
  };
  llvm::StringMap<SmallVector<Entry, 1>> entries;
};

/// A converter that first reads input 0 (failing on a missing one and
/// materializing a constant as data) and hands it to `fn`: the ops composed
/// from several pd ops all begin so.
Converter withInput0(std::function<LogicalResult(OnnxImporter &im, Value x)> fn);

// One per op-family file; OnnxImport.cpp calls them all, once, to build its
// table.
void registerElementwiseConverters(ConverterTable &table);
void registerNNConverters(ConverterTable &table);
void registerTensorConverters(ConverterTable &table);
void registerReductionConverters(ConverterTable &table);
void registerQuantizationConverters(ConverterTable &table);
} // namespace mlir::pd::onnx_import

#endif // PADDLEMLIR_LIB_FRONTEND_ONNX_ONNXIMPORTER_H

//===- OnnxImport.cpp - ONNX model -> pd dialect --------------------------===//
//
// Parses the model with Debian's libonnx (ModelProto, checker), then maps
// every node to pd ops with ONNX semantics. Values that must be known at
// compile time (Reshape's shape, Slice's starts, Squeeze's axes, ...) are
// read from initializers and Constant nodes; initializers are materialized
// as ml_program globals only when a node reads them as data.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Frontend/ONNX/OnnxImport.h"

#include "PaddleMLIR/Dialect/Pd/IR/PdDialect.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include <onnx/checker.h>
#include <onnx/defs/function.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <cfloat>
#include <climits>
#include <cstring>

using namespace mlir;
using namespace mlir::pd;

namespace {
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

ConstTensor intTensor(ArrayRef<int64_t> shape, Type elem, ArrayRef<int64_t> values) {
  ConstTensor c{RankedTensorType::get(shape, elem), {}};
  size_t size = elem.getIntOrFloatBitWidth() / 8;
  c.bytes.resize(values.size() * size);
  for (size_t i = 0; i < values.size(); ++i) {
    if (size == 8)
      std::memcpy(c.bytes.data() + 8 * i, &values[i], 8);
    else {
      int32_t v = int32_t(values[i]);
      std::memcpy(c.bytes.data() + 4 * i, &v, 4);
    }
  }
  return c;
}

Type elementType(MLIRContext *ctx, int32_t dt) {
  Builder b(ctx);
  switch (dt) {
  case onnx::TensorProto::FLOAT:
    return b.getF32Type();
  case onnx::TensorProto::DOUBLE:
    return b.getF64Type();
  case onnx::TensorProto::FLOAT16:
    return b.getF16Type();
  case onnx::TensorProto::BFLOAT16:
    return b.getBF16Type();
  case onnx::TensorProto::INT8:
    return b.getIntegerType(8);
  case onnx::TensorProto::UINT8:
    return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  case onnx::TensorProto::UINT16:
    return IntegerType::get(ctx, 16, IntegerType::Unsigned);
  case onnx::TensorProto::UINT32:
    return IntegerType::get(ctx, 32, IntegerType::Unsigned);
  case onnx::TensorProto::UINT64:
    return IntegerType::get(ctx, 64, IntegerType::Unsigned);
  case onnx::TensorProto::INT16:
    return b.getIntegerType(16);
  case onnx::TensorProto::INT32:
    return b.getIntegerType(32);
  case onnx::TensorProto::INT64:
    return b.getIntegerType(64);
  case onnx::TensorProto::BOOL:
    return b.getI1Type();
  default:
    return nullptr;
  }
}

/// The ONNX TensorProto data type of an element type (0 if none).
int32_t onnxDtype(Type t) {
  if (t.isF32())
    return onnx::TensorProto::FLOAT;
  if (t.isF64())
    return onnx::TensorProto::DOUBLE;
  if (t.isF16())
    return onnx::TensorProto::FLOAT16;
  if (t.isBF16())
    return onnx::TensorProto::BFLOAT16;
  if (t.isUnsignedInteger(8))
    return onnx::TensorProto::UINT8;
  if (t.isUnsignedInteger(16))
    return onnx::TensorProto::UINT16;
  if (t.isUnsignedInteger(32))
    return onnx::TensorProto::UINT32;
  if (t.isUnsignedInteger(64))
    return onnx::TensorProto::UINT64;
  if (t.isInteger(1))
    return onnx::TensorProto::BOOL;
  if (t.isInteger(8))
    return onnx::TensorProto::INT8;
  if (t.isInteger(16))
    return onnx::TensorProto::INT16;
  if (t.isInteger(32))
    return onnx::TensorProto::INT32;
  if (t.isInteger(64))
    return onnx::TensorProto::INT64;
  return 0;
}

/// Paddle's VarType code of an element type (for pd.cast).
int paddleDtype(Type t) {
  if (t.isUnsignedInteger(16))
    return mlir::pd::kUInt16Dtype;
  if (t.isUnsignedInteger(32))
    return mlir::pd::kUInt32Dtype;
  if (t.isUnsignedInteger(64))
    return mlir::pd::kUInt64Dtype;
  if (t.isInteger(1))
    return 0;
  if (t.isInteger(16))
    return 1;
  if (t.isInteger(32))
    return 2;
  if (t.isInteger(64))
    return 3;
  if (t.isF16())
    return 4;
  if (t.isF32())
    return 5;
  if (t.isF64())
    return 6;
  if (t.isUnsignedInteger(8))
    return 20;
  if (t.isInteger(8))
    return 21;
  if (t.isBF16())
    return 22;
  return -1;
}

int32_t clampI32(int64_t v) {
  return int32_t(std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, v)));
}

class OnnxImporter {
public:
  OnnxImporter(MLIRContext *ctx, StringRef path) : ctx(ctx), b(ctx), path(path.str()) {}
  OwningOpRef<ModuleOp> run();

private:
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

  /// Shape arithmetic on compile-time integer tensors (Shape of a static
  /// tensor, and Gather/Add/Sub/Mul/Div/Concat/Unsqueeze/Squeeze/Reshape/
  /// Cast/Slice of constants), as exporters emit for reshapes.
  bool foldShapeMath();
  LogicalResult convPool(StringRef kind);
  LogicalResult convPool1d(StringRef kind);
  /// A 3-D Conv/ConvTranspose (NCDHW) as 2-D ones per depth tap: output
  /// depth slice od sums the 2-D op of input slice id with kernel slice kd
  /// over every (id, kd) that meets at od; slices are then stacked. Work
  /// grows with depth x kernel depth: right for small 3-D layers, no fast
  /// path for video-sized ones.
  LogicalResult convTaps3d(StringRef kind);
  /// MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv: the product of
  /// the zero-point-shifted operands in f64 (exact for 8-bit operands: pd's
  /// matmul and conv are floating-point ops), then for QLinear*
  /// the requantization y = saturate(round(acc * sa * sb / sy) + zy) with
  /// per-tensor, per-row (matmul A) or per-output-channel scales and zero
  /// points.
  LogicalResult quantizedProduct();
  LogicalResult reduce(StringRef pdName);
  /// The reduction `pdName` of x over the node's axes (attribute or input
  /// 1); `keep` overrides the node's keepdims.
  FailureOr<Value> reduceOf(StringRef pdName, Value x, std::optional<bool> keep = std::nullopt);
  /// Ops composed from pd ops (logic, arg max/min, reduction variants,
  /// normalizations, ...); std::nullopt when the op is not one of them
  /// (listed in its dispatch set).
  std::optional<LogicalResult> importComposite();
  /// An op without a direct mapping whose ONNX schema defines it as a
  /// function: imports the function body's nodes in its place.
  LogicalResult expandFunction();
  FailureOr<Value> castTo(Value x, Type to);
  /// A constant tensor of `type` holding `values` (integer types).
  Value intConst(RankedTensorType type, ArrayRef<int64_t> values);
  /// Mean, x - mean and 1 / sqrt(var + eps) of x over `dims` (kept as
  /// size-1 dims): the statistics of the normalization ops.
  LogicalResult normStats(Value x, ArrayRef<int64_t> dims, double eps, Value &mean, Value &centered,
                          Value &invStd, Value *variance = nullptr);
  /// Builds pd ops one after another, stopping at the first failure (which
  /// has reported its error): later calls, and calls with a null operand,
  /// return null and leave `ok` false.
  /// Element k of the 1-D tensor v, as a [1] tensor.
  FailureOr<Value> sliceElement(Value v, int64_t k) {
    return pd1("slice", {v}, {ints("axes", {0}), ints("starts", {k}), ints("ends", {k + 1})},
               {1, 0, 0, 0, 0});
  }
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
  /// Reduction over run-time axes: reduces every listed dim in turn
  /// (broadcast back, so shapes stay put), then slices the reduced dims to
  /// 1 and, without keepdims, reshapes them away.
  FailureOr<Value> reduceRuntimeAxes(StringRef pdName, Value x, Value axes, bool keep);
  /// Pad (constant, reflect, edge; constant or run-time pads): one gather
  /// per padded dim with the source index mapped by the mode.
  LogicalResult pad();
  /// MaxPool/AveragePool of any spatial rank, with dilations, MaxPool's
  /// Indices output or uint8 data: one strided slice of the padded input
  /// per kernel tap, combined by max (with the winning input index) or
  /// summed and divided by the window's count.
  LogicalResult poolTaps(StringRef kind);
  /// ScatterND, ScatterElements and Scatter (reduction none or add) through
  /// scatter_nd_add: ScatterElements' indices become full index tuples;
  /// "none" places the updates where a scatter of ones lands, data
  /// elsewhere.
  LogicalResult scatter();
  /// TopK with a constant k: k rounds of arg max (min) along the axis, each
  /// masking the pick (O(k n); ties keep the lower index first).
  LogicalResult topK();
  /// Tile, Range and OneHot: ops whose result shape may come from data.
  LogicalResult shapeFromData();
  /// BatchNormalization with training_mode: batch statistics over all dims
  /// but the channel, and the updated running mean and variance.
  LogicalResult batchNormTraining();
  /// Rounds half to even (ONNX Round), from floor, mod and where.
  FailureOr<Value> roundHalfEven(Value x);

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

FailureOr<ConstTensor> OnnxImporter::readTensor(const onnx::TensorProto &t) {
  Type elem = elementType(ctx, t.data_type());
  if (!elem)
    return (LogicalResult)fail(fileLoc(), "tensor '" + t.name() + "' has unsupported data type " +
                                              Twine(t.data_type()));
  if (t.data_location() == onnx::TensorProto::EXTERNAL)
    return (LogicalResult)fail(fileLoc(), "tensor '" + t.name() +
                                              "' keeps its data in an external file, which is "
                                              "not supported");
  SmallVector<int64_t> shape(t.dims().begin(), t.dims().end());
  ConstTensor c{RankedTensorType::get(shape, elem), {}};
  int64_t n = c.type.getNumElements();
  size_t esize = elem.isInteger(1) ? 1 : elem.getIntOrFloatBitWidth() / 8;
  c.bytes.resize(n * esize);
  if (t.has_raw_data()) {
    if (t.raw_data().size() != c.bytes.size())
      return (LogicalResult)fail(fileLoc(), "tensor '" + t.name() + "' has " +
                                                Twine(t.raw_data().size()) + " bytes, expected " +
                                                Twine(c.bytes.size()));
    std::memcpy(c.bytes.data(), t.raw_data().data(), c.bytes.size());
    return c;
  }
  auto fill = [&](const auto &field, auto convert) -> LogicalResult {
    if ((int64_t)field.size() != n)
      return fail(fileLoc(), "tensor '" + t.name() + "' has " + Twine(field.size()) +
                                 " values, expected " + Twine(n));
    for (int64_t i = 0; i < n; ++i)
      convert(field.Get(i), c.bytes.data() + i * esize);
    return success();
  };
  auto copyAs = [&](auto tag) {
    return [](auto v, char *p) {
      decltype(tag) x = static_cast<decltype(tag)>(v);
      std::memcpy(p, &x, sizeof(x));
    };
  };
  LogicalResult ok = success();
  switch (t.data_type()) {
  case onnx::TensorProto::FLOAT:
    ok = fill(t.float_data(), copyAs(float()));
    break;
  case onnx::TensorProto::DOUBLE:
    ok = fill(t.double_data(), copyAs(double()));
    break;
  case onnx::TensorProto::INT64:
    ok = fill(t.int64_data(), copyAs(int64_t()));
    break;
  case onnx::TensorProto::INT32:
    ok = fill(t.int32_data(), copyAs(int32_t()));
    break;
  case onnx::TensorProto::UINT32:
    ok = fill(t.uint64_data(), copyAs(uint32_t()));
    break;
  case onnx::TensorProto::UINT64:
    ok = fill(t.uint64_data(), copyAs(uint64_t()));
    break;
  case onnx::TensorProto::INT16:
    ok = fill(t.int32_data(), copyAs(int16_t()));
    break;
  case onnx::TensorProto::UINT16:
    ok = fill(t.int32_data(), copyAs(uint16_t()));
    break;
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
  case onnx::TensorProto::BOOL:
    ok = fill(t.int32_data(), copyAs(int8_t()));
    break;
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
    ok = fill(t.int32_data(), copyAs(uint16_t()));
    break;
  default:
    ok = fail(fileLoc(), "tensor '" + t.name() + "' has no data");
  }
  if (failed(ok))
    return failure();
  return c;
}

Value OnnxImporter::scalarConst(Type elem, double v) {
  auto type = RankedTensorType::get({}, elem);
  Attribute a = isa<FloatType>(elem) ? Attribute(b.getFloatAttr(elem, v))
                                     : Attribute(b.getIntegerAttr(elem, int64_t(v)));
  return arith::ConstantOp::create(b, loc, type, DenseElementsAttr::get(type, a));
}

FailureOr<Value> OnnxImporter::input(int i) {
  if (!hasInput(i))
    return (LogicalResult)nodeError("input " + Twine(i) + " is missing");
  auto v = valueOf(node->input(i));
  if (failed(v))
    return (LogicalResult)nodeError("input '" + node->input(i) +
                                    "' is not defined before the node");
  return v;
}

FailureOr<Value> OnnxImporter::valueOf(const std::string &name) {
  auto it = env.find(name);
  if (it != env.end())
    return it->second;
  auto c = consts.find(name);
  if (c == consts.end())
    return failure();
  // First use of a constant as data: a global (weights) or, for bools, an
  // inline constant.
  const ConstTensor &t = c->second;
  Value v;
  if (t.type.getElementType().isInteger(1)) {
    SmallVector<bool> bits(t.bytes.begin(), t.bytes.end());
    v = arith::ConstantOp::create(b, loc, t.type, DenseElementsAttr::get(t.type, bits));
  } else {
    std::string symbol = name;
    for (char &ch : symbol)
      if (!isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '.')
        ch = '_';
    if (symbol.empty() || isdigit(static_cast<unsigned char>(symbol[0])))
      symbol = "c_" + symbol;
    std::string unique = symbol;
    for (int k = 1; module.lookupSymbol(unique); ++k)
      unique = symbol + "_" + std::to_string(k);
    auto blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(t.bytes, 64);
    OpBuilder gb = OpBuilder::atBlockBegin(module.getBody());
    auto global = ml_program::GlobalOp::create(
        gb, NameLoc::get(b.getStringAttr("initializer " + name), fileLoc()), unique, t.type,
        /*is_mutable=*/false, DenseResourceElementsAttr::get(t.type, unique, std::move(blob)),
        b.getStringAttr("private"));
    v = ml_program::GlobalLoadConstOp::create(b, loc, t.type, SymbolRefAttr::get(global));
    ++globalCount;
  }
  env[name] = v;
  return v;
}

FailureOr<std::optional<std::vector<int64_t>>> OnnxImporter::intsFrom(StringRef attrName,
                                                                      int inputIndex) {
  if (auto a = attrInts(attrName))
    return std::optional<std::vector<int64_t>>(*a);
  if (!hasInput(inputIndex))
    return std::optional<std::vector<int64_t>>();
  const ConstTensor *c = constInput(inputIndex);
  if (!c && runtimeInput(inputIndex))
    if (auto t = dyn_cast<RankedTensorType>((*runtimeInput(inputIndex)).getType());
        t && t.hasStaticShape() && t.getNumElements() == 0)
      return std::optional<std::vector<int64_t>>(std::vector<int64_t>{}); // empty list
  if (!c)
    return (LogicalResult)nodeError("input '" + node->input(inputIndex) +
                                    "' must be a constant (initializer or Constant node)");
  return std::optional<std::vector<int64_t>>(c->ints());
}

FailureOr<Operation *> OnnxImporter::pd(StringRef name, ValueRange operands,
                                        ArrayRef<NamedAttribute> attrs, unsigned results,
                                        ArrayRef<int32_t> segments) {
  // Unsigned integers (uint8) are a storage type for quantized data, with
  // arithmetic only in the elementwise ops below.
  static const llvm::StringSet<> unsignedOk = {"cast",
                                               "strided_slice",
                                               "concat",
                                               "dequantize_linear",
                                               "quantize_linear",
                                               "elementwise_add",
                                               "elementwise_sub",
                                               "elementwise_mul",
                                               "elementwise_div",
                                               "elementwise_max",
                                               "elementwise_min",
                                               "elementwise_mod",
                                               "bitwise_left_shift",
                                               "bitwise_right_shift"};
  if (!unsignedOk.contains(name))
    for (Value v : operands)
      if (cast<ShapedType>(v.getType()).getElementType().isUnsignedInteger())
        return (LogicalResult)nodeError("unsigned integer operands are not supported");
  OperationState state(loc, ("pd." + name).str());
  state.addOperands(operands);
  state.addAttributes(attrs);
  if (!segments.empty())
    state.addAttribute("operandSegmentSizes", b.getDenseI32ArrayAttr(segments));
  Type elem =
      operands.empty() ? b.getF32Type() : cast<ShapedType>(operands[0].getType()).getElementType();
  for (unsigned i = 0; i < results; ++i)
    state.addTypes(UnrankedTensorType::get(elem));
  Operation *op = b.create(state);
  auto shaped = dyn_cast<PdShapeInference>(op);
  SmallVector<Type> inferred;
  if (!shaped || failed(shaped.inferResultTypes(inferred, /*emitErrors=*/true)) ||
      inferred.size() != results) {
    op->erase();
    return (LogicalResult)nodeError("cannot map to pd." + name + " (shapes or attributes)");
  }
  for (auto [r, t] : llvm::zip(op->getResults(), inferred))
    r.setType(t);
  return op;
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
    kernel = std::vector<int64_t>{wt.getDimSize(2), wt.getDimSize(3)};
  }
  if (!kernel || kernel->size() != 2)
    return nodeError("kernel_shape must have 2 entries");
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

LogicalResult OnnxImporter::importNode(const onnx::NodeProto &n, int index) {
  node = &n;
  std::string outName = n.output_size() ? n.output(0) : std::string();
  loc = NameLoc::get(
      b.getStringAttr(n.op_type() + " '" + n.name() + "' #" + Twine(index) + " -> " + outName),
      fileLoc());
  const std::string &t = n.op_type();
  if (!n.domain().empty() && n.domain() != "ai.onnx")
    return nodeError("operator domain '" + n.domain() + "' is not supported");
  // Below opset 7 a node is accepted when its op has not changed since:
  // the schema in effect is the one in effect at opset 7 (so e.g. the
  // legacy broadcasting of binary ops is refused).
  if (opset < 7) {
    const auto *then = onnx::OpSchemaRegistry::Schema(t, int(opset), "");
    const auto *now = onnx::OpSchemaRegistry::Schema(t, 7, "");
    if (!then || !now || then->SinceVersion() != now->SinceVersion())
      return nodeError("this op's semantics before opset 7 (version " +
                       Twine(then ? then->SinceVersion() : 0) + ") are not supported");
  }

  static const llvm::StringMap<std::string> unary = {
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
  static const llvm::StringMap<std::string> binary = {
      {"Add", "elementwise_add"},  {"Sub", "elementwise_sub"}, {"Mul", "elementwise_mul"},
      {"Div", "elementwise_div"},  {"Pow", "elementwise_pow"}, {"Equal", "equal"},
      {"Greater", "greater_than"}, {"Less", "less_than"}};

  if (t == "Constant") {
    const auto *v = attr("value");
    if (!v) {
      // The scalar and list forms.
      Type i64 = b.getIntegerType(64);
      if (const auto *a = attr("value_int")) {
        consts[outName] = intTensor({}, i64, {a->i()});
        return success();
      }
      if (const auto *a = attr("value_ints")) {
        std::vector<int64_t> vals(a->ints().begin(), a->ints().end());
        consts[outName] = intTensor({int64_t(vals.size())}, i64, vals);
        return success();
      }
      const auto *f = attr("value_float");
      const auto *fs = attr("value_floats");
      if (f || fs) {
        std::vector<float> vals = f ? std::vector<float>{f->f()}
                                    : std::vector<float>(fs->floats().begin(), fs->floats().end());
        SmallVector<int64_t> shape;
        if (fs)
          shape.push_back(int64_t(vals.size()));
        ConstTensor c{RankedTensorType::get(shape, b.getF32Type()), {}};
        c.bytes.resize(vals.size() * 4);
        std::memcpy(c.bytes.data(), vals.data(), c.bytes.size());
        consts[outName] = std::move(c);
        return success();
      }
    }
    if (!v || !v->has_t())
      return nodeError("only the 'value', 'value_int(s)' and 'value_float(s)' forms of Constant "
                       "are supported");
    auto c = readTensor(v->t());
    if (failed(c))
      return failure();
    consts[outName] = std::move(*c);
    return success();
  }
  if (foldShapeMath())
    return success();
  if (t == "Identity" || t == "Dropout") {
    if (t == "Dropout" && n.output_size() > 1 && !n.output(1).empty()) {
      // Inference: nothing is dropped, the mask is all true.
      auto x = input(0);
      if (failed(x))
        return failure();
      auto xt = cast<RankedTensorType>(x->getType());
      if (!xt.hasStaticShape())
        return nodeError("the mask output of Dropout needs a static shape");
      auto mt = RankedTensorType::get(xt.getShape(), b.getI1Type());
      env[n.output(1)] = arith::ConstantOp::create(b, loc, mt, DenseElementsAttr::get(mt, true));
    }
    if (t == "Dropout" && hasInput(2)) {
      // Training mode drops nothing only with a ratio of 0.
      const ConstTensor *training = constInput(2);
      const ConstTensor *ratio = constInput(1);
      std::optional<double> r = ratio ? ratio->scalar() : std::nullopt;
      bool dropsNothing = hasInput(1) && r && *r == 0.0;
      if ((!training || training->bytes.empty() || training->bytes[0] != 0) && !dropsNothing)
        return nodeError("training-mode Dropout is not supported (inference only)");
    }
    if (const ConstTensor *c = constInput(0)) {
      consts[outName] = *c;
      return success();
    }
    return define(0, input(0));
  }
  if (auto it = unary.find(t); it != unary.end()) {
    auto x = input(0);
    if (failed(x))
      return failure();
    return define(0, pd1(it->second, {*x}));
  }
  if (auto it = binary.find(t); it != binary.end()) {
    auto x = input(0), y = input(1);
    if (failed(x) || failed(y))
      return failure();
    // Pow's exponent may have another type than the base.
    Type ex = cast<ShapedType>(x->getType()).getElementType();
    Type ey = cast<ShapedType>(y->getType()).getElementType();
    if (t == "Pow" && !isa<FloatType>(ex)) {
      // Integer powers: computed in f64 (exact while the result fits its
      // 53-bit mantissa), then cast back to the base's type.
      Type f64 = b.getF64Type();
      auto xf = castTo(*x, f64), yf = castTo(*y, f64);
      if (failed(xf) || failed(yf))
        return failure();
      auto p = pd1("elementwise_pow", {*xf, *yf}, {i32("axis", -1)});
      if (failed(p))
        return failure();
      return define(0, castTo(*p, ex));
    }
    if (t == "Pow" && ex != ey) {
      if (paddleDtype(ex) < 0 || paddleDtype(ey) < 0)
        return nodeError("unsupported operand types");
      y = pd1("cast", {*y}, {i32("in_dtype", paddleDtype(ey)), i32("out_dtype", paddleDtype(ex))});
      if (failed(y))
        return failure();
    }
    return define(0, pd1(it->second, {*x, *y}, {i32("axis", -1)}));
  }
  if (t == "Max" || t == "Min") {
    if (n.input_size() < 1)
      return nodeError("needs at least one input");
    auto acc = input(0);
    if (failed(acc))
      return failure();
    Value v = *acc;
    for (int i = 1; i < n.input_size(); ++i) {
      auto y = input(i);
      if (failed(y))
        return failure();
      auto r = pd1(t == "Max" ? "elementwise_max" : "elementwise_min", {v, *y}, {i32("axis", -1)});
      if (failed(r))
        return failure();
      v = *r;
    }
    return define(0, v);
  }
  if (t == "Neg")
    return define(0, pd1("scale", {*input(0)}, {f32("scale", -1.0)}));
  if (t == "LeakyRelu")
    return define(0, pd1("leaky_relu", {*input(0)}, {f32("alpha", attrFloat("alpha", 0.01))}));
  if (t == "HardSigmoid")
    return define(
        0, pd1("hard_sigmoid", {*input(0)},
               {f32("slope", attrFloat("alpha", 0.2)), f32("offset", attrFloat("beta", 0.5))}));
  if (t == "HardSwish")
    return define(0, pd1("hard_swish", {*input(0)}));
  if (t == "PRelu") {
    // max(x, 0) + slope * min(x, 0), with ONNX broadcasting of the slope.
    auto x = input(0), s = input(1);
    if (failed(x) || failed(s))
      return failure();
    Value zero = scalarConst(cast<ShapedType>(x->getType()).getElementType(), 0.0);
    auto pos = pd1("elementwise_max", {*x, zero});
    auto neg = pd1("elementwise_min", {*x, zero});
    if (failed(pos) || failed(neg))
      return failure();
    auto scaled = pd1("elementwise_mul", {*neg, *s});
    if (failed(scaled))
      return failure();
    return define(0, pd1("elementwise_add", {*pos, *scaled}));
  }
  if (t == "Softmax" || t == "LogSoftmax") {
    auto x = input(0);
    if (failed(x))
      return failure();
    int64_t rank = rankOf(*x);
    int64_t axis = attrInt("axis", opset >= 13 ? -1 : 1);
    if (axis < 0)
      axis += rank;
    std::string op = t == "Softmax" ? "softmax" : "log_softmax";
    if (opset >= 13 || axis == rank - 1)
      return define(0, pd1(op, {*x}, {i32("axis", axis)}));
    // Before opset 13: softmax over the flattened dims [axis, rank).
    auto xt = cast<RankedTensorType>(x->getType());
    if (!xt.hasStaticShape())
      return nodeError("softmax over several dims (opset < 13) needs static shapes");
    int64_t outer = 1;
    for (int64_t k = 0; k < axis; ++k)
      outer *= xt.getDimSize(k);
    auto flat = pd1("reshape2", {*x}, {ints("shape", {outer, -1})}, {1, 0, 0});
    if (failed(flat))
      return failure();
    auto sm = pd1(op, {*flat}, {i32("axis", 1)});
    if (failed(sm))
      return failure();
    return define(0, pd1("reshape2", {*sm}, {ints("shape", xt.getShape())}, {1, 0, 0}));
  }
  if (t == "MatMul") {
    auto x = input(0), y = input(1);
    if (failed(x) || failed(y))
      return failure();
    return define(0, pd1("matmul_v2", {*x, *y}));
  }
  if (t == "Gemm") {
    auto a = input(0), bv = input(1);
    if (failed(a) || failed(bv))
      return failure();
    auto y = pd1(
        "matmul_v2", {*a, *bv},
        {flag("trans_x", attrInt("transA", 0) != 0), flag("trans_y", attrInt("transB", 0) != 0)});
    if (failed(y))
      return failure();
    double alpha = attrFloat("alpha", 1.0), beta = attrFloat("beta", 1.0);
    if (alpha != 1.0)
      y = pd1("scale", {*y}, {f32("scale", alpha)});
    if (failed(y) || !hasInput(2))
      return define(0, y);
    auto c = input(2);
    if (failed(c))
      return failure();
    Value cv = *c;
    if (beta != 1.0) {
      auto scaled = pd1("scale", {cv}, {f32("scale", beta)});
      if (failed(scaled))
        return failure();
      cv = *scaled;
    }
    return define(0, pd1("elementwise_add", {*y, cv}, {i32("axis", -1)}));
  }
  if (t == "Conv" || t == "ConvTranspose" || t == "MaxPool" || t == "AveragePool")
    return convPool(t);
  if (t == "GlobalAveragePool" || t == "GlobalMaxPool") {
    auto x = input(0);
    if (failed(x))
      return failure();
    if (rankOf(*x) != 4)
      return nodeError("only 2-D (NCHW) inputs are supported");
    return define(0, pd1("pool2d", {*x},
                         {str("pooling_type", t == "GlobalMaxPool" ? "max" : "avg"),
                          ints("ksize", {1, 1}), flag("global_pooling", true)}));
  }
  if (t == "BatchNormalization") {
    if (attrInt("training_mode", 0) || (n.output_size() > 1 && opset >= 14))
      return batchNormTraining();
    if (n.output_size() > 1)
      return nodeError("training-mode outputs of opsets before 14 are not supported");
    SmallVector<Value> in;
    for (int i = 0; i < 5; ++i) {
      auto v = input(i);
      if (failed(v))
        return failure();
      in.push_back(*v);
    }
    // Paddle limits epsilon to [0, 1e-3]; a larger one moves into the
    // variance (var + eps with epsilon 0 is the same normalization).
    double eps = attrFloat("epsilon", 1e-5);
    if (eps > 1e-3) {
      auto shifted = pd1("scale", {in[4]}, {f32("scale", 1.0), f32("bias", eps)});
      if (failed(shifted))
        return failure();
      in[4] = *shifted;
      eps = 0.0;
    }
    return define(0, pd1("batch_norm", in, {f32("epsilon", eps), flag("is_test", true)}));
  }
  if (t == "Reshape") {
    if (auto shapeV = runtimeInput(1)) {
      auto x = input(0);
      if (failed(x))
        return failure();
      auto xt = cast<RankedTensorType>(x->getType());
      if (attrInt("allowzero", 0)) {
        // A 0 in the shape is a zero-sized dim, which only an empty input
        // can have: an empty input takes the shape as given, a non-empty
        // one reshapes as usual (a 0 there would be invalid either way).
        if (!xt.hasStaticShape())
          return nodeError("allowzero with a run-time shape needs a static input shape");
        if (xt.getNumElements() == 0) {
          int dtype = paddleDtype(xt.getElementType());
          if (dtype < 0)
            return nodeError("the element type is not supported");
          return define(0, pd1("fill_constant", {*shapeV}, {i32("dtype", dtype)}, {0, 1, 0}));
        }
      }
      return define(0, pd1("reshape2", {*x, *shapeV}, {}, {1, 1, 0}));
    }
    auto x = input(0);
    auto shape = intsFrom("shape", 1);
    if (failed(x) || failed(shape))
      return failure();
    if (!*shape)
      return nodeError("the shape input is missing");
    if (attrInt("allowzero", 0) && llvm::is_contained(**shape, 0))
      return nodeError("allowzero with a 0 in the shape is not supported");
    return define(0, pd1("reshape2", {*x}, {ints("shape", **shape)}, {1, 0, 0}));
  }
  if (t == "Flatten") {
    auto x = input(0);
    if (failed(x))
      return failure();
    int64_t rank = rankOf(*x), axis = attrInt("axis", 1);
    if (axis < 0)
      axis += rank;
    Value v = *x;
    if (axis == 0 || axis == rank) {
      auto flat = pd1("flatten_contiguous_range", {v},
                      {i32("start_axis", 0), i32("stop_axis", int32_t(rank - 1))});
      if (failed(flat))
        return failure();
      return define(0, pd1("unsqueeze2", {*flat}, {ints("axes", {axis == 0 ? 0 : 1})}, {1, 0, 0}));
    }
    if (axis < rank - 1) {
      auto r = pd1("flatten_contiguous_range", {v},
                   {i32("start_axis", int32_t(axis)), i32("stop_axis", int32_t(rank - 1))});
      if (failed(r))
        return failure();
      v = *r;
    }
    if (axis > 1) {
      auto r = pd1("flatten_contiguous_range", {v},
                   {i32("start_axis", 0), i32("stop_axis", int32_t(axis - 1))});
      if (failed(r))
        return failure();
      v = *r;
    }
    return define(0, v);
  }
  if (t == "Transpose") {
    auto x = input(0);
    if (failed(x))
      return failure();
    int64_t rank = rankOf(*x);
    std::vector<int64_t> perm;
    for (int64_t k = rank - 1; k >= 0; --k)
      perm.push_back(k);
    perm = attrInts("perm").value_or(perm);
    return define(0, pd1("transpose2", {*x}, {ints("axis", perm)}));
  }
  if (t == "Concat") {
    SmallVector<Value> in;
    for (int i = 0; i < n.input_size(); ++i) {
      auto v = input(i);
      if (failed(v))
        return failure();
      in.push_back(*v);
    }
    int64_t axis = attrInt("axis", 0);
    if (axis < 0 && !in.empty())
      axis += rankOf(in[0]);
    return define(0, pd1("concat", in, {i32("axis", axis)}, {int32_t(in.size()), 0}));
  }
  if (t == "Split") {
    auto x = input(0);
    if (failed(x))
      return failure();
    if (auto splitV = runtimeInput(1)) {
      // Run-time sizes: one 1-element slice of the split tensor per output.
      int64_t axis = attrInt("axis", 0);
      if (axis < 0)
        axis += rankOf(*x);
      SmallVector<Value> sections;
      for (int i = 0; i < n.output_size(); ++i) {
        auto piece = sliceElement(*splitV, i);
        if (failed(piece))
          return failure();
        sections.push_back(*piece);
      }
      SmallVector<Value> operands = {*x};
      operands.append(sections);
      auto op = pd("split", operands, {i32("axis", axis)}, n.output_size(),
                   {1, 0, int32_t(sections.size())});
      if (failed(op))
        return failure();
      for (int i = 0; i < n.output_size(); ++i)
        if (failed(define(i, (*op)->getResult(i))))
          return failure();
      return success();
    }
    auto split = intsFrom("split", 1);
    if (failed(x) || failed(split))
      return failure();
    int64_t axis = attrInt("axis", 0);
    if (axis < 0)
      axis += rankOf(*x);
    SmallVector<NamedAttribute> attrs = {i32("axis", axis)};
    if (*split && !(*split)->empty())
      attrs.push_back(ints("sections", **split));
    else
      attrs.push_back(i32("num", n.output_size()));
    auto op = pd("split", {*x}, attrs, n.output_size(), {1, 0, 0});
    if (failed(op))
      return failure();
    for (int i = 0; i < n.output_size(); ++i)
      if (failed(define(i, (*op)->getResult(i))))
        return failure();
    return success();
  }
  if (t == "Squeeze" || t == "Unsqueeze") {
    auto x = input(0);
    if (failed(x))
      return failure();
    if (auto axesV = runtimeInput(1); axesV && t == "Unsqueeze")
      return define(0, pd1("unsqueeze2", {*x, *axesV}, {}, {1, 1, 0}));
    if (auto axesV = runtimeInput(1); axesV && t == "Squeeze") {
      auto at = cast<RankedTensorType>(axesV->getType());
      auto mask = axisMask(*axesV, rankOf(*x));
      if (failed(mask))
        return failure();
      auto shape = keptDims(*x, *mask, rankOf(*x) - at.getNumElements());
      if (failed(shape))
        return failure();
      return define(0, pd1("reshape2", {*x, *shape}, {}, {1, 1, 0}));
    }
    auto axes = intsFrom("axes", 1);
    if (failed(x) || failed(axes))
      return failure();
    std::vector<int64_t> a = axes->value_or(std::vector<int64_t>{});
    if (t == "Squeeze")
      return define(0, pd1("squeeze2", {*x}, {ints("axes", a)}));
    // Unsqueeze axes refer to the output rank.
    int64_t outRank = rankOf(*x) + a.size();
    for (int64_t &v : a)
      if (v < 0)
        v += outRank;
    llvm::sort(a);
    return define(0, pd1("unsqueeze2", {*x}, {ints("axes", a)}, {1, 0, 0}));
  }
  if (t == "Slice") {
    auto x = input(0);
    if (failed(x))
      return failure();
    std::optional<std::vector<int64_t>> starts, ends, axes, steps;
    if (opset < 10) {
      starts = attrInts("starts");
      ends = attrInts("ends");
      axes = attrInts("axes");
    } else {
      for (int i = 1; i <= 4; ++i)
        if (runtimeInput(i))
          return define(0, sliceRuntime(*x));
      auto s = intsFrom("", 1), e = intsFrom("", 2), a = intsFrom("", 3), st = intsFrom("", 4);
      if (failed(s) || failed(e) || failed(a) || failed(st))
        return failure();
      starts = *s;
      ends = *e;
      axes = *a;
      steps = *st;
    }
    if (!starts || !ends || starts->size() != ends->size())
      return nodeError("starts and ends must be constants of the same length");
    if (!axes) {
      axes = std::vector<int64_t>();
      for (size_t k = 0; k < starts->size(); ++k)
        axes->push_back(k);
    }
    int64_t rank = rankOf(*x);
    for (int64_t &a : *axes)
      if (a < 0)
        a += rank;
    bool unit = !steps || llvm::all_of(*steps, [](int64_t s) { return s == 1; });
    SmallVector<NamedAttribute> attrs = {ints("axes", *axes), ints("starts", *starts),
                                         ints("ends", *ends)};
    if (unit)
      return define(0, pd1("slice", {*x}, attrs, {1, 0, 0, 0, 0}));
    attrs.push_back(ints("strides", *steps));
    return define(0, pd1("strided_slice", {*x}, attrs, {1, 0, 0, 0, 0, 0, 0}));
  }
  if (t == "Gather") {
    auto x = input(0), idx = input(1);
    if (failed(x) || failed(idx))
      return failure();
    int64_t axis = attrInt("axis", 0);
    if (axis < 0)
      axis += rankOf(*x);
    // Rows of a 2-D float table picked by an index tensor of any rank (an
    // embedding lookup, e.g. BERT's word embeddings): lookup_table_v2.
    // Its ids are clamped into range, where ONNX would wrap negative ones.
    auto xt = dyn_cast<RankedTensorType>(x->getType());
    auto it = dyn_cast<RankedTensorType>(idx->getType());
    if (axis == 0 && xt && it && it.getRank() != 1 && xt.getRank() == 2 &&
        isa<FloatType>(xt.getElementType()))
      return define(0, pd1("lookup_table_v2", {*x, *idx}));
    if (it && it.getRank() == 1)
      return define(0, pd1("gather", {*x, *idx}, {i32("axis", axis)}, {1, 1, 0}));
    // Other index ranks: gather by the flattened index, then give the
    // result x.shape[:axis] + index.shape + x.shape[axis+1:].
    if (!xt || !it || !xt.hasStaticShape() || !it.hasStaticShape())
      return nodeError("an index of rank other than 1 needs static shapes");
    auto flat = pd1("reshape2", {*idx}, {ints("shape", {it.getNumElements()})}, {1, 0, 0});
    if (failed(flat))
      return failure();
    auto g = pd1("gather", {*x, *flat}, {i32("axis", axis)}, {1, 1, 0});
    if (failed(g))
      return failure();
    std::vector<int64_t> shape(xt.getShape().begin(), xt.getShape().begin() + axis);
    shape.insert(shape.end(), it.getShape().begin(), it.getShape().end());
    shape.insert(shape.end(), xt.getShape().begin() + axis + 1, xt.getShape().end());
    if (shape.empty())
      return define(0, pd1("squeeze2", {*g}, {ints("axes", {0})}));
    return define(0, pd1("reshape2", {*g}, {ints("shape", shape)}, {1, 0, 0}));
  }
  if (t == "ReduceMean")
    return reduce("reduce_mean");
  if (t == "ReduceSum")
    return reduce("reduce_sum");
  if (t == "ReduceMax")
    return reduce("reduce_max");
  if (t == "ReduceMin")
    return reduce("reduce_min");
  if (t == "Cast" || t == "CastLike") {
    auto x = input(0);
    if (failed(x))
      return failure();
    Type to = elementType(ctx, attrInt("to", 0));
    if (t == "CastLike") {
      auto like = input(1);
      if (failed(like))
        return failure();
      to = cast<ShapedType>(like->getType()).getElementType();
    }
    return define(0, castTo(*x, to));
  }
  if (t == "Clip") {
    auto x = input(0);
    if (failed(x))
      return failure();
    double lo = -FLT_MAX, hi = FLT_MAX;
    if (opset < 11) {
      lo = attrFloat("min", lo);
      hi = attrFloat("max", hi);
    } else {
      for (int i = 1; i <= 2; ++i) {
        if (!hasInput(i))
          continue;
        const ConstTensor *c = constInput(i);
        std::optional<double> v = c ? c->scalar() : std::nullopt;
        if (!v) {
          // Run-time bounds: max(x, min) then min(., max).
          Value y = *x;
          for (int k = 1; k <= 2; ++k) {
            if (!hasInput(k))
              continue;
            auto bound = input(k);
            if (failed(bound))
              return failure();
            auto r = pd1(k == 1 ? "elementwise_max" : "elementwise_min", {y, *bound});
            if (failed(r))
              return failure();
            y = *r;
          }
          return define(0, y);
        }
        (i == 1 ? lo : hi) = *v;
      }
    }
    return define(0, pd1("clip", {*x}, {f32("min", lo), f32("max", hi)}, {1, 0, 0}));
  }
  if (t == "Where") {
    auto c = input(0), x = input(1), y = input(2);
    if (failed(c) || failed(x) || failed(y))
      return failure();
    return define(0, pd1("where", {*c, *x, *y}));
  }
  if (t == "Expand") {
    auto x = input(0);
    if (failed(x))
      return failure();
    if (auto shapeV = runtimeInput(1)) {
      auto st = cast<RankedTensorType>(shapeV->getType());
      if (st.getRank() != 1 || st.isDynamicDim(0) || st.getDimSize(0) < rankOf(*x))
        return nodeError("a run-time shape needs a static length of at least the input rank");
      return define(0, pd1("expand_v2", {*x, *shapeV}, {}, {1, 1, 0}));
    }
    auto shape = intsFrom("", 1);
    if (failed(x) || failed(shape))
      return failure();
    if (!*shape)
      return nodeError("the shape input must be a constant");
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
    return define(0, pd1("expand_v2", {*x}, {ints("shape", out)}, {1, 0, 0}));
  }
  if (t == "Pad")
    return pad();
  if (t == "LayerNormalization") {
    auto x = input(0), scale = input(1);
    if (failed(x) || failed(scale))
      return failure();
    auto xt = cast<RankedTensorType>(x->getType());
    int64_t rank = xt.getRank(), axis = attrInt("axis", -1);
    if (axis < 0)
      axis += rank;
    double eps = attrFloat("epsilon", 1e-5);
    SmallVector<Value> in = {*x, *scale};
    if (hasInput(2)) {
      auto bias = input(2);
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
        failed(normStats(*x, all, eps, mean, centered, invStd)))
      return failure();
    SmallVector<NamedAttribute> attrs = {f32("epsilon", eps), i32("begin_norm_axis", axis)};
    FailureOr<Value> y;
    if (eps > 1e-3) {
      y = pd1("elementwise_mul", {centered, invStd});
      for (size_t k = 1; k < in.size() && succeeded(y); ++k)
        y = pd1(k == 1 ? "elementwise_mul" : "elementwise_add", {*y, in[k]});
    } else if (axis == rank - 1) {
      y = pd1("layer_norm", in, attrs, {1, 1, int32_t(in.size() - 2)});
    } else {
      // Normalizing over dims [axis, rank): a 2-D [outer, inner] view
      // normalized over its last dim, scale and bias flattened to [inner].
      if (!xt.hasStaticShape())
        return nodeError("normalization over several dims needs static shapes");
      int64_t outer = 1, inner = 1;
      for (int64_t k = 0; k < rank; ++k)
        (k < axis ? outer : inner) *= xt.getDimSize(k);
      SmallVector<Value> flat;
      for (auto [k, v] : llvm::enumerate(in)) {
        auto vt = cast<RankedTensorType>(v.getType());
        if (k > 0 && (!vt.hasStaticShape() || vt.getNumElements() != inner))
          return nodeError("scale and bias must have the normalized dims' shape");
        auto f = pd1("reshape2", {v},
                     {ints("shape", k == 0 ? std::vector<int64_t>{outer, inner}
                                           : std::vector<int64_t>{inner})},
                     {1, 0, 0});
        if (failed(f))
          return failure();
        flat.push_back(*f);
      }
      attrs[1] = i32("begin_norm_axis", 1);
      auto y2 = pd1("layer_norm", flat, attrs, {1, 1, int32_t(flat.size() - 2)});
      if (failed(y2))
        return failure();
      y = pd1("reshape2", {*y2}, {ints("shape", xt.getShape())}, {1, 0, 0});
    }
    if (failed(define(0, y)))
      return failure();
    if (wantMean && failed(define(1, FailureOr<Value>(mean))))
      return failure();
    if (wantInv && failed(define(2, FailureOr<Value>(invStd))))
      return failure();
    return success();
  }
  if (t == "QuantizeLinear" || t == "DequantizeLinear") {
    // ONNX's affine quantization, composed: y = saturate(round(x / scale) +
    // zero_point) and x = (q - zero_point) * scale, per tensor or along
    // `axis`. (pd.quantize_linear is Paddle's symmetric form, which also
    // divides by 2^(bits-1) - 1.)
    auto x = input(0), scale = input(1);
    if (failed(x) || failed(scale))
      return failure();
    auto st = cast<RankedTensorType>(scale->getType());
    int64_t axis = -1;
    if (st.getRank() > 0 && st.getNumElements() != 1) {
      axis = attrInt("axis", 1);
      if (axis < 0)
        axis += rankOf(*x);
    }
    Type f32t = b.getF32Type();
    FailureOr<Value> zp = failure();
    if (hasInput(2)) {
      auto z = input(2);
      if (failed(z))
        return failure();
      zp = castTo(*z, f32t);
      if (failed(zp))
        return failure();
    }
    if (t == "DequantizeLinear") {
      auto xf = castTo(*x, f32t);
      if (failed(xf))
        return failure();
      if (succeeded(zp))
        xf = pd1("elementwise_sub", {*xf, *zp}, {i32("axis", axis)});
      if (failed(xf))
        return failure();
      return define(0, pd1("elementwise_mul", {*xf, *scale}, {i32("axis", axis)}));
    }
    Type out = IntegerType::get(ctx, 8, IntegerType::Unsigned);
    if (hasInput(2))
      out = cast<ShapedType>(input(2)->getType()).getElementType();
    if (!out.isInteger(8) && !out.isUnsignedInteger(8))
      return nodeError("only int8 and uint8 quantization is supported");
    auto q = pd1("elementwise_div", {*x, *scale}, {i32("axis", axis)});
    if (failed(q))
      return failure();
    q = roundHalfEven(*q);
    if (succeeded(q) && succeeded(zp))
      q = pd1("elementwise_add", {*q, *zp}, {i32("axis", axis)});
    if (failed(q))
      return failure();
    bool u = out.isUnsignedInteger();
    q = pd1("clip", {*q}, {f32("min", u ? 0.0 : -128.0), f32("max", u ? 255.0 : 127.0)}, {1, 0, 0});
    if (failed(q))
      return failure();
    return define(0, castTo(*q, out));
  }
  if (t == "Resize" || t == "Upsample")
    return resize();
  if (t == "GatherND") {
    auto x = input(0), idx = input(1);
    if (failed(x) || failed(idx))
      return failure();
    if (attrInt("batch_dims", 0) != 0)
      return nodeError("batch_dims other than 0 is not supported");
    return define(0, pd1("gather_nd", {*x, *idx}));
  }
  if (t == "Shrink") {
    // x < -lambd: x + bias; x > lambd: x - bias; else 0.
    auto x = input(0);
    if (failed(x))
      return failure();
    Type elem = cast<ShapedType>(x->getType()).getElementType();
    double lambd = attrFloat("lambd", 0.5), bias = attrFloat("bias", 0.0);
    auto low = pd1("less_than", {*x, scalarConst(elem, -lambd)});
    auto high = pd1("greater_than", {*x, scalarConst(elem, lambd)});
    auto plus = pd1("scale", {*x}, {f32("bias", bias)});
    auto minus = pd1("scale", {*x}, {f32("bias", -bias)});
    if (failed(low) || failed(high) || failed(plus) || failed(minus))
      return failure();
    auto inner = pd1("where", {*high, *minus, scalarConst(elem, 0.0)});
    if (failed(inner))
      return failure();
    return define(0, pd1("where", {*low, *plus, *inner}));
  }
  if (t == "TopK")
    return topK();
  if (t == "BitShift") {
    auto x = input(0), y = input(1);
    if (failed(x) || failed(y))
      return failure();
    std::string dir = attrStr("direction", "");
    if (dir != "LEFT" && dir != "RIGHT")
      return nodeError("direction must be LEFT or RIGHT, not '" + dir + "'");
    return define(0, pd1(dir == "LEFT" ? "bitwise_left_shift" : "bitwise_right_shift", {*x, *y}));
  }
  if (t == "MatMulInteger" || t == "ConvInteger" || t == "QLinearMatMul" || t == "QLinearConv")
    return quantizedProduct();
  if (t == "ScatterND" || t == "ScatterElements" || t == "Scatter")
    return scatter();
  if (t == "Einsum") {
    SmallVector<Value> in;
    for (int i = 0; i < n.input_size(); ++i) {
      auto v = input(i);
      if (failed(v))
        return failure();
      in.push_back(*v);
    }
    return define(0, pd1("einsum", in, {str("equation", attrStr("equation", ""))}));
  }
  if (t == "Tile" || t == "Range" || t == "OneHot")
    return shapeFromData();
  if (auto handled = importComposite())
    return *handled;
  return expandFunction();
}

FailureOr<Value> OnnxImporter::castTo(Value x, Type to) {
  Type fromType = cast<ShapedType>(x.getType()).getElementType();
  if (fromType == to)
    return x;
  int from = paddleDtype(fromType);
  if (!to || paddleDtype(to) < 0 || from < 0)
    return (LogicalResult)nodeError("this cast's types are not supported");
  return pd1("cast", {x}, {i32("in_dtype", from), i32("out_dtype", paddleDtype(to))});
}

Value OnnxImporter::intConst(RankedTensorType type, ArrayRef<int64_t> values) {
  SmallVector<APInt> bits;
  for (int64_t v : values)
    bits.push_back(APInt(type.getElementTypeBitWidth(), uint64_t(v), /*isSigned=*/true));
  return arith::ConstantOp::create(b, loc, type, DenseElementsAttr::get(type, bits));
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

std::optional<LogicalResult> OnnxImporter::importComposite() {
  const std::string &t = node->op_type();
  static const llvm::StringMap<std::string> logic = {
      {"And", "logical_and"}, {"Or", "logical_or"}, {"Xor", "logical_xor"}};
  static const llvm::StringSet<> others = {"Elu",
                                           "Selu",
                                           "Celu",
                                           "ThresholdedRelu",
                                           "IsInf",
                                           "Mod",
                                           "ArgMax",
                                           "ArgMin",
                                           "GatherElements",
                                           "Trilu",
                                           "CumSum",
                                           "ReduceProd",
                                           "ReduceL1",
                                           "ReduceL2",
                                           "ReduceSumSquare",
                                           "ReduceLogSum",
                                           "ReduceLogSumExp",
                                           "Sum",
                                           "Mean",
                                           "GreaterOrEqual",
                                           "LessOrEqual",
                                           "ConstantOfShape",
                                           "Round",
                                           "Hardmax",
                                           "DepthToSpace",
                                           "SpaceToDepth",
                                           "EyeLike",
                                           "InstanceNormalization",
                                           "LRN"};
  if (!logic.contains(t) && !others.contains(t))
    return std::nullopt;
  auto x = input(0);
  if (failed(x))
    return failure();
  Type elem = cast<ShapedType>(x->getType()).getElementType();
  auto zero = [&]() { return scalarConst(elem, 0.0); };
  if (auto it = logic.find(t); it != logic.end()) {
    auto y = input(1);
    if (failed(y))
      return failure();
    return define(0, pd1(it->second, {*x, *y}));
  }
  if (t == "Elu" || t == "Celu")
    return define(0,
                  pd1(t == "Elu" ? "elu" : "celu", {*x}, {f32("alpha", attrFloat("alpha", 1.0))}));
  if (t == "Selu")
    return define(0, pd1("selu", {*x},
                         {f32("alpha", attrFloat("alpha", 1.67326319217681884765625)),
                          f32("scale", attrFloat("gamma", 1.05070102214813232421875))}));
  if (t == "ThresholdedRelu")
    return define(0, pd1("thresholded_relu", {*x}, {f32("threshold", attrFloat("alpha", 1.0))}));
  if (t == "IsInf") {
    // isinf, restricted to one sign by detect_positive / detect_negative.
    auto mask = pd1("isinf_v2", {*x});
    for (auto [name, cmp] : {std::pair<StringRef, StringRef>{"detect_positive", "less_than"},
                             {"detect_negative", "greater_than"}}) {
      if (failed(mask) || attrInt(name, 1))
        continue;
      auto sign = pd1(cmp, {*x, zero()});
      mask = failed(sign) ? sign : pd1("logical_and", {*mask, *sign});
    }
    return define(0, mask);
  }
  if (t == "GreaterOrEqual" || t == "LessOrEqual") {
    auto y = input(1);
    if (failed(y))
      return failure();
    auto strict = pd1(t == "GreaterOrEqual" ? "greater_than" : "less_than", {*x, *y});
    auto eq = pd1("equal", {*x, *y});
    if (failed(strict) || failed(eq))
      return failure();
    return define(0, pd1("logical_or", {*strict, *eq}));
  }
  if (t == "Mod") {
    auto y = input(1);
    if (failed(y))
      return failure();
    // elementwise_mod takes the divisor's sign; fmod takes the dividend's:
    // where they differ (and r != 0), fmod = r - y.
    auto r = pd1("elementwise_mod", {*x, *y});
    if (failed(r) || !attrInt("fmod", 0))
      return define(0, r);
    auto nz = pd1("not_equal", {*r, zero()});
    auto rn = pd1("less_than", {*r, zero()});
    auto xn = pd1("less_than", {*x, zero()});
    if (failed(nz) || failed(rn) || failed(xn))
      return failure();
    auto differ = pd1("logical_xor", {*rn, *xn});
    if (failed(differ))
      return failure();
    auto fix = pd1("logical_and", {*nz, *differ});
    auto shifted = pd1("elementwise_sub", {*r, *y});
    if (failed(fix) || failed(shifted))
      return failure();
    return define(0, pd1("where", {*fix, *shifted, *r}));
  }
  if (t == "ArgMax" || t == "ArgMin") {
    int64_t rank = rankOf(*x), axis = attrInt("axis", 0);
    if (axis < 0)
      axis += rank;
    std::string op = t == "ArgMax" ? "arg_max" : "arg_min";
    bool keep = attrInt("keepdims", 1) != 0;
    SmallVector<NamedAttribute> attrs = {b.getNamedAttr("axis", b.getI64IntegerAttr(axis)),
                                         flag("keepdims", keep), i32("dtype", 3)};
    if (!attrInt("select_last_index", 0))
      return define(0, pd1(op, {*x}, attrs));
    // The last extreme: the first one of the reversed axis, mapped back.
    int64_t size = cast<RankedTensorType>(x->getType()).getDimSize(axis);
    if (ShapedType::isDynamic(size))
      return nodeError("select_last_index needs a static size along the axis");
    auto flipped = pd1("flip", {*x}, {ints("axis", {axis})});
    if (failed(flipped))
      return failure();
    auto first = pd1(op, {*flipped}, attrs);
    if (failed(first))
      return failure();
    return define(0, pd1("scale", {*first}, {f32("scale", -1.0), f32("bias", double(size - 1))}));
  }
  if (t == "GatherElements") {
    auto idx = input(1);
    if (failed(idx))
      return failure();
    int64_t axis = attrInt("axis", 0);
    if (axis < 0)
      axis += rankOf(*x);
    return define(0, pd1("take_along_axis", {*x, *idx}, {i32("Axis", axis)}));
  }
  if (t == "Trilu") {
    bool upper = attrInt("upper", 1) != 0;
    int64_t k = 0;
    if (hasInput(1)) {
      const ConstTensor *c = constInput(1);
      if (!c) {
        // A run-time k: compare a constant (j - i) grid with it.
        auto xt = cast<RankedTensorType>(x->getType());
        int64_t rank = xt.getRank();
        if (rank < 2 || xt.isDynamicDim(rank - 2) || xt.isDynamicDim(rank - 1))
          return nodeError("a run-time k needs static sizes of the last two dims");
        auto kv = input(1);
        if (failed(kv))
          return failure();
        int64_t rows = xt.getDimSize(rank - 2), cols = xt.getDimSize(rank - 1);
        auto kt = cast<RankedTensorType>(kv->getType());
        std::vector<int64_t> diff;
        for (int64_t i = 0; i < rows; ++i)
          for (int64_t j = 0; j < cols; ++j)
            diff.push_back(j - i);
        Value grid = intConst(RankedTensorType::get({rows, cols}, kt.getElementType()), diff);
        auto outside = pd1(upper ? "less_than" : "greater_than", {grid, *kv});
        if (failed(outside))
          return failure();
        auto keep = pd1("logical_not", {*outside});
        if (failed(keep))
          return failure();
        return define(0, pd1("where", {*keep, *x, zero()}));
      }
      std::optional<double> v = c->scalar();
      if (!v)
        return nodeError("k must hold one integer");
      k = int64_t(*v);
    }
    return define(0, pd1("tril_triu", {*x}, {i32("diagonal", k), flag("lower", !upper)}));
  }
  if (t == "CumSum") {
    const ConstTensor *c = constInput(1);
    std::optional<double> axis = c ? c->scalar() : std::nullopt;
    // A 1-D input has one axis: any valid run-time axis (0 or -1) means it.
    if (!axis && rankOf(*x) == 1)
      axis = 0.0;
    if (!axis) {
      // Run-time axis: the cumsum along the dim the axis names.
      auto axisV = input(1);
      if (failed(axisV))
        return failure();
      auto mask = axisMask(*axisV, rankOf(*x));
      if (failed(mask))
        return failure();
      Value out;
      for (int64_t d = 0; d < rankOf(*x); ++d) {
        auto c = pd1("cumsum", {*x},
                     {i32("axis", d), flag("exclusive", attrInt("exclusive", 0) != 0),
                      flag("reverse", attrInt("reverse", 0) != 0)});
        if (failed(c))
          return failure();
        if (!out) {
          out = *c;
          continue;
        }
        auto m = sliceElement(*mask, d);
        if (failed(m))
          return failure();
        auto w = pd1("where", {*m, *c, out});
        if (failed(w))
          return failure();
        out = *w;
      }
      return define(0, out);
    }
    int64_t a = int64_t(*axis);
    if (a < 0)
      a += rankOf(*x);
    return define(0, pd1("cumsum", {*x},
                         {i32("axis", a), flag("exclusive", attrInt("exclusive", 0) != 0),
                          flag("reverse", attrInt("reverse", 0) != 0)}));
  }
  if (t == "ReduceProd")
    return define(0, reduceOf("reduce_prod", *x));
  if (t == "ReduceL1" || t == "ReduceL2" || t == "ReduceSumSquare") {
    auto pre = pd1(t == "ReduceL1" ? "abs" : "square", {*x});
    if (failed(pre))
      return failure();
    auto sum = reduceOf("reduce_sum", *pre);
    if (failed(sum) || t != "ReduceL2")
      return define(0, sum);
    return define(0, pd1("sqrt", {*sum}));
  }
  if (t == "ReduceLogSum") {
    auto sum = reduceOf("reduce_sum", *x);
    if (failed(sum))
      return failure();
    return define(0, pd1("log", {*sum}));
  }
  if (t == "ReduceLogSumExp") {
    // log(sum(exp(x - m))) + m with m the max, so large inputs do not
    // overflow.
    auto mKeep = reduceOf("reduce_max", *x, true);
    auto m = reduceOf("reduce_max", *x);
    if (failed(mKeep) || failed(m))
      return failure();
    auto shifted = pd1("elementwise_sub", {*x, *mKeep});
    if (failed(shifted))
      return failure();
    auto e = pd1("exp", {*shifted});
    if (failed(e))
      return failure();
    auto sum = reduceOf("reduce_sum", *e);
    if (failed(sum))
      return failure();
    auto lg = pd1("log", {*sum});
    if (failed(lg))
      return failure();
    return define(0, pd1("elementwise_add", {*lg, *m}));
  }
  if (t == "Sum" || t == "Mean") {
    Value acc = *x;
    for (int i = 1; i < node->input_size(); ++i) {
      auto y = input(i);
      if (failed(y))
        return failure();
      auto r = pd1("elementwise_add", {acc, *y});
      if (failed(r))
        return failure();
      acc = *r;
    }
    if (t == "Sum" || node->input_size() == 1)
      return define(0, acc);
    return define(0, pd1("scale", {acc}, {f32("scale", 1.0 / node->input_size())}));
  }
  if (t == "Round")
    return define(0, roundHalfEven(*x));
  if (t == "Hardmax") {
    // 1 at the first maximum along the axis: arg_max compared with the
    // positions 0..n-1 laid along that axis.
    auto xt = cast<RankedTensorType>(x->getType());
    int64_t rank = xt.getRank(), axis = attrInt("axis", opset >= 13 ? -1 : 1);
    if (axis < 0)
      axis += rank;
    if (opset < 13 && axis != rank - 1)
      return nodeError(
          "Hardmax over flattened dims (opset < 13) is only supported for the last axis");
    int64_t size = xt.getDimSize(axis);
    if (ShapedType::isDynamic(size))
      return nodeError("needs a static size along the axis");
    auto am = pd1("arg_max", {*x},
                  {b.getNamedAttr("axis", b.getI64IntegerAttr(axis)), flag("keepdims", true),
                   i32("dtype", 3)});
    if (failed(am))
      return failure();
    SmallVector<int64_t> iotaShape(rank - axis, 1);
    iotaShape[0] = size;
    std::vector<int64_t> iota;
    for (int64_t k = 0; k < size; ++k)
      iota.push_back(k);
    Value pos = intConst(RankedTensorType::get(iotaShape, b.getIntegerType(64)), iota);
    auto hit = pd1("equal", {*am, pos});
    if (failed(hit))
      return failure();
    return define(0, castTo(*hit, elem));
  }
  if (t == "DepthToSpace" || t == "SpaceToDepth") {
    auto xt = cast<RankedTensorType>(x->getType());
    int64_t bs = attrInt("blocksize", 0);
    if (xt.getRank() != 4 || !xt.hasStaticShape() || bs <= 0)
      return nodeError("needs a static 4-D input and a positive blocksize");
    int64_t N = xt.getDimSize(0), C = xt.getDimSize(1), H = xt.getDimSize(2), W = xt.getDimSize(3);
    std::vector<int64_t> split, perm, merged;
    if (t == "DepthToSpace") {
      if (C % (bs * bs))
        return nodeError("channels must be divisible by blocksize^2");
      bool crd = attrStr("mode", "DCR") == "CRD";
      split = crd ? std::vector<int64_t>{N, C / (bs * bs), bs, bs, H, W}
                  : std::vector<int64_t>{N, bs, bs, C / (bs * bs), H, W};
      perm = crd ? std::vector<int64_t>{0, 1, 4, 2, 5, 3} : std::vector<int64_t>{0, 3, 4, 1, 5, 2};
      merged = {N, C / (bs * bs), H * bs, W * bs};
    } else {
      if (H % bs || W % bs)
        return nodeError("spatial dims must be divisible by blocksize");
      split = {N, C, H / bs, bs, W / bs, bs};
      perm = {0, 3, 5, 1, 2, 4};
      merged = {N, C * bs * bs, H / bs, W / bs};
    }
    auto r6 = pd1("reshape2", {*x}, {ints("shape", split)}, {1, 0, 0});
    if (failed(r6))
      return failure();
    auto tr = pd1("transpose2", {*r6}, {ints("axis", perm)});
    if (failed(tr))
      return failure();
    return define(0, pd1("reshape2", {*tr}, {ints("shape", merged)}, {1, 0, 0}));
  }
  if (t == "EyeLike") {
    auto xt = cast<RankedTensorType>(x->getType());
    if (xt.getRank() != 2 || !xt.hasStaticShape())
      return nodeError("needs a static 2-D input");
    Type out = attr("dtype") ? elementType(ctx, attrInt("dtype", 1)) : elem;
    if (!out || out.isUnsignedInteger())
      return nodeError("unsupported dtype");
    int64_t rows = xt.getDimSize(0), cols = xt.getDimSize(1), k = attrInt("k", 0);
    auto ot = RankedTensorType::get({rows, cols}, out);
    SmallVector<Attribute> vals;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        double v = j - i == k ? 1.0 : 0.0;
        vals.push_back(isa<FloatType>(out) ? Attribute(b.getFloatAttr(out, v))
                                           : Attribute(b.getIntegerAttr(out, int64_t(v))));
      }
    return define(0,
                  Value(arith::ConstantOp::create(b, loc, ot, DenseElementsAttr::get(ot, vals))));
  }
  if (t == "InstanceNormalization") {
    // Per sample and channel over the spatial dims, then the per-channel
    // scale and bias.
    auto scale = input(1), bias = input(2);
    if (failed(scale) || failed(bias))
      return failure();
    int64_t rank = rankOf(*x);
    if (rank < 3)
      return nodeError("needs rank >= 3");
    std::vector<int64_t> spatial;
    for (int64_t k = 2; k < rank; ++k)
      spatial.push_back(k);
    Value mean, centered, inv;
    if (failed(normStats(*x, spatial, attrFloat("epsilon", 1e-5), mean, centered, inv)))
      return failure();
    auto y = pd1("elementwise_mul", {centered, inv});
    if (failed(y))
      return failure();
    y = pd1("elementwise_mul", {*y, *scale}, {i32("axis", 1)});
    if (failed(y))
      return failure();
    return define(0, pd1("elementwise_add", {*y, *bias}, {i32("axis", 1)}));
  }
  if (t == "LRN") {
    // x / (bias + alpha / size * sum of x^2 over `size` neighbouring
    // channels)^beta; the windowed channel sum is an average pool (padding
    // counted, so it divides by size) over a [N, 1, C, H*W] view.
    auto xt = cast<RankedTensorType>(x->getType());
    int64_t size = attrInt("size", 0);
    if (xt.getRank() != 4 || !xt.hasStaticShape() || size <= 0)
      return nodeError("needs a static 4-D input and a positive size");
    int64_t N = xt.getDimSize(0), C = xt.getDimSize(1), HW = xt.getDimSize(2) * xt.getDimSize(3);
    auto sq = pd1("square", {*x});
    if (failed(sq))
      return failure();
    auto view = pd1("reshape2", {*sq}, {ints("shape", {N, 1, C, HW})}, {1, 0, 0});
    if (failed(view))
      return failure();
    int64_t before = (size - 1) / 2, after = size - 1 - before;
    auto pooled =
        pd1("pool2d", {*view},
            {str("pooling_type", "avg"), ints("ksize", {size, 1}), ints("strides", {1, 1}),
             ints("paddings", {before, after, 0, 0}), flag("exclusive", false)});
    if (failed(pooled))
      return failure();
    auto back = pd1("reshape2", {*pooled}, {ints("shape", xt.getShape())}, {1, 0, 0});
    if (failed(back))
      return failure();
    auto base = pd1("scale", {*back},
                    {f32("scale", attrFloat("alpha", 1e-4)), f32("bias", attrFloat("bias", 1.0))});
    if (failed(base))
      return failure();
    auto denom = pd1("pow", {*base}, {f32("factor", attrFloat("beta", 0.75))});
    if (failed(denom))
      return failure();
    return define(0, pd1("elementwise_div", {*x, *denom}));
  }
  if (t == "ConstantOfShape") {
    ConstTensor fillv = intTensor({1}, b.getF32Type(), {});
    fillv.bytes.assign(4, 0);
    if (const auto *v = attr("value")) {
      auto c = readTensor(v->t());
      if (failed(c))
        return failure();
      if (c->type.getNumElements() != 1)
        return nodeError("value must hold one element");
      fillv = *c;
    }
    const ConstTensor *shape = constInput(0);
    if (!shape) {
      // Run-time shape: fill_constant with a ShapeTensor (integers go
      // through str_value so 64-bit values stay exact).
      Type fe = fillv.type.getElementType();
      int dtype = paddleDtype(fe);
      std::optional<double> value = fillv.scalar();
      if (dtype < 0 || !value)
        return nodeError("the value's type is not supported");
      SmallVector<NamedAttribute> attrs = {i32("dtype", dtype), f32("value", *value)};
      if (isa<IntegerType>(fe))
        attrs.push_back(str("str_value", std::to_string(int64_t(*value))));
      return define(0, pd1("fill_constant", {*x}, attrs, {0, 1, 0}));
    }
    std::vector<int64_t> dims = shape->ints();
    ConstTensor out{RankedTensorType::get(dims, fillv.type.getElementType()), {}};
    int64_t count = out.type.getNumElements();
    for (int64_t i = 0; i < count; ++i)
      out.bytes.insert(out.bytes.end(), fillv.bytes.begin(), fillv.bytes.end());
    consts[node->output(0)] = std::move(out);
    return success();
  }
  return nodeError("unsupported ONNX op");
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

LogicalResult OnnxImporter::expandFunction() {
  const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Schema(node->op_type(), int(opset), "");
  if (!schema || (!schema->HasFunction() && !schema->HasContextDependentFunction()))
    return nodeError("unsupported ONNX op");
  onnx::FunctionProto fn;
  if (schema->HasFunction()) {
    fn = *schema->GetFunction();
  } else {
    // Context-dependent bodies (e.g. the loss functions) depend on the
    // input types: describe each input's element type and shape.
    std::vector<onnx::TypeProto> types;
    for (int i = 0; i < node->input_size(); ++i) {
      onnx::TypeProto tp;
      if (hasInput(i)) {
        auto v = input(i);
        if (failed(v))
          return failure();
        auto vt = cast<RankedTensorType>(v->getType());
        auto *tt = tp.mutable_tensor_type();
        tt->set_elem_type(onnxDtype(vt.getElementType()));
        for (int64_t d : vt.getShape()) {
          auto *dim = tt->mutable_shape()->add_dim();
          if (!ShapedType::isDynamic(d))
            dim->set_dim_value(d);
        }
      }
      types.push_back(tp);
    }
    onnx::FunctionBodyBuildContextImpl fctx(*node, types);
    if (!schema->BuildContextDependentFunction(fctx, fn))
      return nodeError("unsupported ONNX op (its function body cannot be built for these inputs)");
  }
  // The body's nodes, with its names made unique and wired to this node's
  // inputs and outputs; imported under the body's own opset.
  onnx::GraphProto body;
  onnx::FunctionExpandHelper(*node, fn, body,
                             "__" + node->op_type() + "_" + std::to_string(expansions++) + "_");
  // An attribute that refers to one the node does not set takes the outer
  // op's declared default, or is absent from the inner node (so the inner
  // op takes its own default); the helper fills it with an empty value
  // instead (e.g. ignore_index = 0 in the softmax cross-entropy body).
  for (int i = 0; i < fn.node_size() && i < body.node_size(); ++i) {
    auto *attrs = body.mutable_node(i)->mutable_attribute();
    for (const auto &a : fn.node(i).attribute()) {
      if (a.ref_attr_name().empty() || attr(a.ref_attr_name()))
        continue;
      for (int k = attrs->size() - 1; k >= 0; --k)
        if (attrs->Get(k).name() == a.name())
          attrs->DeleteSubrange(k, 1);
      // The outer op's declared default, where it has one (e.g. MVN's axes).
      auto it = schema->attributes().find(a.ref_attr_name());
      if (it != schema->attributes().end() && it->second.default_value.type() != 0) {
        onnx::AttributeProto d = it->second.default_value;
        d.set_name(a.name());
        *attrs->Add() = d;
      }
    }
  }
  int64_t savedOpset = opset;
  for (const auto &o : fn.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      opset = o.version();
  const onnx::NodeProto *outer = node;
  LogicalResult result = success();
  for (int i = 0; i < body.node_size() && succeeded(result); ++i)
    result = importNode(body.node(i), i);
  node = outer;
  opset = savedOpset;
  if (failed(result))
    return fail(loc, "(while expanding ONNX node '" + outer->name() + "' (" + outer->op_type() +
                         ") into its function body)");
  return success();
}

OwningOpRef<ModuleOp> OnnxImporter::run() {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    emitError(fileLoc()) << "cannot read '" << path << "': " << buffer.getError().message();
    return nullptr;
  }
  if (!model.ParseFromArray((*buffer)->getBufferStart(), int((*buffer)->getBufferSize()))) {
    emitError(fileLoc()) << "'" << path << "' is not an ONNX model (protobuf parse failed)";
    return nullptr;
  }
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception &e) {
    std::string msg = e.what();
    std::replace(msg.begin(), msg.end(), '\n', ' ');
    emitError(fileLoc()) << "the ONNX checker rejects '" << path << "': " << msg;
    return nullptr;
  }
  for (const auto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      opset = o.version();
  if (opset < 1 || opset > 17) {
    emitError(fileLoc()) << "ONNX opset " << opset << " is not supported (1 to 17 are)";
    return nullptr;
  }
  const onnx::GraphProto &g = model.graph();
  OwningOpRef<ModuleOp> owned = ModuleOp::create(fileLoc());
  module = *owned;
  for (const auto &init : g.initializer()) {
    auto c = readTensor(init);
    if (failed(c))
      return nullptr;
    consts[init.name()] = std::move(*c);
  }
  SmallVector<Type> argTypes;
  SmallVector<Attribute> argAttrs;
  SmallVector<std::string> argNames;
  for (const auto &in : g.input()) {
    if (consts.count(in.name()))
      continue;
    const auto &tt = in.type().tensor_type();
    Type elem = elementType(ctx, tt.elem_type());
    if (!in.type().has_tensor_type() || !elem || !tt.has_shape()) {
      emitError(fileLoc()) << "graph input '" << in.name()
                           << "' must be a tensor of a supported type with a known rank";
      return nullptr;
    }
    SmallVector<int64_t> shape;
    for (const auto &d : tt.shape().dim())
      shape.push_back(d.has_dim_value() ? d.dim_value() : ShapedType::kDynamic);
    argTypes.push_back(RankedTensorType::get(shape, elem));
    argAttrs.push_back(b.getDictionaryAttr(b.getNamedAttr("pd.name", b.getStringAttr(in.name()))));
    argNames.push_back(in.name());
  }
  b.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(b, fileLoc(), "main", b.getFunctionType(argTypes, {}));
  func.setAllArgAttrs(argAttrs);
  Block *entry = func.addEntryBlock();
  for (auto [i, name] : llvm::enumerate(argNames))
    env[name] = entry->getArgument(i);
  b.setInsertionPointToEnd(entry);
  for (int i = 0; i < g.node_size(); ++i)
    if (failed(importNode(g.node(i), i)))
      return nullptr;
  SmallVector<Value> results;
  SmallVector<Attribute> resAttrs;
  node = nullptr;
  for (const auto &out : g.output()) {
    auto v = valueOf(out.name());
    if (failed(v)) {
      emitError(fileLoc()) << "graph output '" << out.name() << "' is not computed by any node";
      return nullptr;
    }
    results.push_back(*v);
    resAttrs.push_back(b.getDictionaryAttr(b.getNamedAttr("pd.name", b.getStringAttr(out.name()))));
  }
  func::ReturnOp::create(b, fileLoc(), results);
  func.setFunctionType(b.getFunctionType(argTypes, ValueRange(results).getTypes()));
  func.setAllResultAttrs(resAttrs);
  if (failed(verify(module)))
    return nullptr;
  return owned;
}
} // namespace

bool mlir::pd::isOnnxPath(StringRef path) { return path.ends_with(".onnx"); }

OwningOpRef<ModuleOp> mlir::pd::importOnnxModel(MLIRContext *ctx, StringRef path) {
  ctx->loadDialect<PdDialect, func::FuncDialect, ml_program::MLProgramDialect,
                   arith::ArithDialect>();
  OnnxImporter importer(ctx, path);
  return importer.run();
}

void mlir::pd::registerOnnxImportDialects(DialectRegistry &registry) {
  registry
      .insert<PdDialect, func::FuncDialect, ml_program::MLProgramDialect, arith::ArithDialect>();
}

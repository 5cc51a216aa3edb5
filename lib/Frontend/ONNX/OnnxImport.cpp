//===- OnnxImport.cpp - ONNX model -> pd dialect --------------------------===//
//
// Parses the model with Debian's libonnx (ModelProto, checker), then maps
// every node to pd ops with ONNX semantics. Values that must be known at
// compile time (Reshape's shape, Slice's starts, Squeeze's axes, ...) are
// read from initializers and Constant nodes; initializers are materialized
// as ml_program globals only when a node reads them as data.
//
// This file holds the importer core: the graph walk, initializers, the
// value table, diagnostics and the node helpers. Each node goes through
// the converter table the op-family files fill (OnnxElementwise.cpp,
// OnnxNN.cpp, OnnxTensor.cpp, OnnxReduction.cpp, OnnxQuantization.cpp),
// or else is expanded into its function body (OnnxControl.cpp).
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Frontend/ONNX/OnnxImport.h"
#include "OnnxImporter.h"

#include "PaddleMLIR/Dialect/Pd/IR/PdDialect.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <climits>
#include <cstring>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::onnx_import;

namespace mlir::pd::onnx_import {
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
int paddleDtype(Type t) { return static_cast<int>(mlir::pd::paddleDtypeOf(t)); }

int32_t clampI32(int64_t v) {
  return int32_t(std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, v)));
}
} // namespace mlir::pd::onnx_import

void ConverterTable::add(std::initializer_list<StringRef> opTypes, Converter fn, int64_t sinceOpset,
                         int64_t untilOpset) {
  for (StringRef opType : opTypes) {
    SmallVector<Entry, 1> &forOp = entries[opType];
    // Two families claiming one op at one opset is a programming error,
    // caught on the first import whatever the build type.
    for (const Entry &e : forOp)
      if (e.sinceOpset <= untilOpset && sinceOpset <= e.untilOpset)
        llvm::report_fatal_error("ONNX op " + opType + " has overlapping converters");
    forOp.push_back({sinceOpset, untilOpset, fn});
  }
}

const Converter *ConverterTable::lookup(StringRef opType, int64_t opset) const {
  auto it = entries.find(opType);
  if (it == entries.end())
    return nullptr;
  for (const Entry &e : it->second)
    if (e.sinceOpset <= opset && opset <= e.untilOpset)
      return &e.fn;
  return nullptr;
}

Converter
mlir::pd::onnx_import::withInput0(std::function<LogicalResult(OnnxImporter &im, Value x)> fn) {
  return [fn = std::move(fn)](OnnxImporter &im) -> LogicalResult {
    auto x = im.input(0);
    if (failed(x))
      return failure();
    return fn(im, *x);
  };
}

/// Every op family's converters, registered once on first use.
static const ConverterTable &converters() {
  static const ConverterTable table = [] {
    ConverterTable t;
    registerElementwiseConverters(t);
    registerNNConverters(t);
    registerTensorConverters(t);
    registerReductionConverters(t);
    registerQuantizationConverters(t);
    return t;
  }();
  return table;
}

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
  // Shape arithmetic on constants is evaluated before any converter runs.
  if (foldShapeMath())
    return success();
  if (const Converter *convert = converters().lookup(t, opset))
    return (*convert)(*this);
  return expandFunction();
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

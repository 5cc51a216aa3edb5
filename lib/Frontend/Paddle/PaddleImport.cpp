//===- PaddleImport.cpp - Paddle model files -> pd module ----------------===//

#include "PaddleMLIR/Frontend/Paddle/PaddleImport.h"
#include "Importer.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOpCatalog.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Frontend/Paddle/PaddleFormat.h"

#include "framework.pb.h"

#include <cmath>

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <set>

namespace pdp = paddle::framework::proto;
using namespace mlir;
using namespace mlir::pd;
namespace pdfmt = paddle_mlir::format;

namespace mlir::pd::paddle_import {

LogicalResult resolveFiles(MLIRContext *ctx, StringRef model, StringRef params, ModelFiles &out) {
  auto err = [&](const Twine &msg) {
    emitError(UnknownLoc::get(ctx)) << msg;
    return failure();
  };
  if (!llvm::sys::fs::exists(model))
    return err("model path '" + model + "' does not exist");
  std::string program = model.str();
  if (llvm::sys::fs::is_directory(model)) {
    SmallString<256> p(model);
    llvm::sys::path::append(p, "__model__");
    if (llvm::sys::fs::exists(p)) {
      program = p.str().str();
    } else {
      std::error_code ec;
      std::vector<std::string> found;
      for (llvm::sys::fs::directory_iterator it(model, ec), end; it != end && !ec; it.increment(ec))
        if (llvm::sys::path::extension(it->path()) == ".pdmodel")
          found.push_back(it->path());
      SmallString<256> lite(model);
      llvm::sys::path::append(lite, "model"); // Paddle-Lite's combined naming
      if (found.empty() && llvm::sys::fs::is_regular_file(lite))
        found.push_back(lite.str().str());
      if (found.size() != 1)
        return err("directory '" + model + "' holds " + Twine(found.size()) +
                   " *.pdmodel files and no __model__ or model file; name the model file");
      program = found.front();
    }
  }
  out.program = program;
  out.dir = llvm::sys::path::parent_path(program).str();
  if (out.dir.empty())
    out.dir = ".";
  if (!params.empty()) {
    if (!llvm::sys::fs::exists(params))
      return err("params file '" + params + "' does not exist");
    out.combinedParams = params.str();
    return success();
  }
  if (llvm::sys::path::extension(program) == ".pdmodel") {
    SmallString<256> p(program);
    llvm::sys::path::replace_extension(p, ".pdiparams");
    out.combinedParams = p.str().str(); // may be missing: only needed with parameters
    return success();
  }
  SmallString<256> p(out.dir);
  // Paddle-Lite names the pair model + params; Fluid __model__ + __params__
  // (or one file per parameter).
  llvm::sys::path::append(p,
                          llvm::sys::path::filename(program) == "model" ? "params" : "__params__");
  if (llvm::sys::fs::exists(p))
    out.combinedParams = p.str().str();
  return success();
}

const pdp::OpDesc::Attr *findAttr(const pdp::OpDesc &op, StringRef name) {
  for (const auto &a : op.attrs())
    if (a.name() == name)
      return &a;
  return nullptr;
}

const pdp::OpDesc::Var *findSlot(const google::protobuf::RepeatedPtrField<pdp::OpDesc::Var> &slots,
                                 StringRef name) {
  for (const auto &s : slots)
    if (s.parameter() == name)
      return &s;
  return nullptr;
}

std::string describeSlots(const google::protobuf::RepeatedPtrField<pdp::OpDesc::Var> &slots) {
  std::string s;
  for (const auto &v : slots) {
    if (!s.empty())
      s += "; ";
    s += v.parameter() + "=[";
    for (int i = 0; i < v.arguments_size(); ++i)
      s += (i ? ", " : "") + v.arguments(i);
    s += "]";
  }
  return s;
}

Location Importer::opLoc(const pdp::OpDesc &op, int index) {
  // Name the outputs pd models (in result order, so the exporter can reuse
  // them); ops without a catalogue entry list every output.
  std::vector<std::string> outs;
  if (const PdOpSpec *spec = lookupPdOpSpec(op.type())) {
    for (const PdSlotSpec &slot : spec->outputs)
      if (const pdp::OpDesc::Var *v = findSlot(op.outputs(), slot.name))
        outs.insert(outs.end(), v->arguments().begin(), v->arguments().end());
  } else {
    for (const auto &slot : op.outputs())
      outs.insert(outs.end(), slot.arguments().begin(), slot.arguments().end());
  }
  std::string name = op.type() + " #" + std::to_string(index) + " ->";
  for (size_t i = 0; i < outs.size(); ++i)
    name += (i ? ", " : " ") + outs[i];
  return NameLoc::get(StringAttr::get(ctx, name), fileLoc());
}

/// The tensor description of a variable: a LoD tensor's, or a SELECTED_ROWS
/// parameter's (the table of a sparse lookup_table, which an inference
/// program reads as a dense tensor).
const pdp::VarType::TensorDesc &tensorDesc(const pdp::VarDesc &var) {
  const auto &t = var.type();
  return t.type() == pdp::VarType::SELECTED_ROWS ? t.selected_rows() : t.lod_tensor().tensor();
}

FailureOr<RankedTensorType> Importer::varType(const pdp::VarDesc &var, Location loc,
                                              bool parameter) {
  const auto &t = var.type();
  bool denseTable = parameter && t.type() == pdp::VarType::SELECTED_ROWS;
  // A rank table (Fluid's DynamicRNN) is int64 [N, 2]: (sequence index,
  // length) of each sequence, longest first.
  if (t.type() == pdp::VarType::LOD_RANK_TABLE)
    return RankedTensorType::get({ShapedType::kDynamic, 2}, IntegerType::get(ctx, 64));
  // A tensor array is one tensor stacking its elements along a leading dim.
  bool array = t.type() == pdp::VarType::LOD_TENSOR_ARRAY && t.has_tensor_array();
  if (t.type() != pdp::VarType::LOD_TENSOR && !denseTable && !array)
    return fail(loc, "variable '" + var.name() + "' has type " + pdfmt::typeName(t.type()) +
                         ", which paddle-mlir does not support");
  const auto &desc = array ? t.tensor_array().tensor() : tensorDesc(var);
  Type elem = elementTypeFromPaddleDtype(ctx, desc.data_type());
  if (!elem)
    return fail(loc, "variable '" + var.name() + "' has element type " +
                         pdfmt::typeName(desc.data_type()) +
                         ", which paddle-mlir does not support");
  SmallVector<int64_t> dims;
  if (array)
    dims.push_back(ShapedType::kDynamic);
  for (int64_t d : desc.dims())
    dims.push_back(d < 0 ? ShapedType::kDynamic : d);
  return RankedTensorType::get(dims, elem);
}

LogicalResult Importer::loadParams(ArrayRef<const pdp::VarDesc *> params) {
  std::string combined;
  const uint8_t *data = nullptr;
  size_t size = 0, offset = 0;
  std::string error;
  bool useCombined = !files.combinedParams.empty() && llvm::sys::fs::exists(files.combinedParams);
  if (!params.empty() && !files.combinedParams.empty() && !useCombined &&
      llvm::sys::path::extension(files.program) == ".pdmodel")
    return fail(fileLoc(), "params file '" + files.combinedParams +
                               "' does not exist (the model has " + Twine(params.size()) +
                               " parameters)");
  if (useCombined) {
    if (!pdfmt::readFile(files.combinedParams, combined, error))
      return fail(fileLoc(), error);
    data = reinterpret_cast<const uint8_t *>(combined.data());
    size = combined.size();
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  for (const pdp::VarDesc *var : params) {
    Location loc = NameLoc::get(StringAttr::get(ctx, "parameter " + var->name()), fileLoc());
    auto type = varType(*var, loc, /*parameter=*/true);
    if (failed(type))
      return failure();
    std::string single;
    const uint8_t *recData = data;
    size_t recSize = size, recOff = offset;
    std::string where = files.combinedParams;
    if (!useCombined) {
      SmallString<256> p(files.dir);
      llvm::sys::path::append(p, var->name());
      where = p.str().str();
      if (!llvm::sys::fs::exists(p))
        return fail(loc,
                    "missing parameter file '" + where + "' for variable '" + var->name() + "'");
      if (!pdfmt::readFile(where, single, error))
        return fail(loc, error);
      recData = reinterpret_cast<const uint8_t *>(single.data());
      recSize = single.size();
      recOff = 0;
    }
    pdfmt::TensorRecord rec;
    if (!pdfmt::parseTensorRecord(recData, recSize, recOff, rec, error))
      return fail(loc, "parameter '" + var->name() + "' in '" + where + "': " + error +
                           (var->type().type() == pdp::VarType::SELECTED_ROWS
                                ? " (a SELECTED_ROWS parameter is read only when it is stored "
                                  "as a dense tensor)"
                                : ""));
    if (useCombined)
      offset = recOff;
    else if (recOff != recSize)
      return fail(loc, "parameter file '" + where + "' has " + Twine(recSize - recOff) +
                           " bytes after the tensor");
    Type elem = elementTypeFromPaddleDtype(ctx, rec.dtype);
    if (elem != type->getElementType())
      return fail(loc, "parameter '" + var->name() + "' is stored as " +
                           pdfmt::typeName(rec.dtype) + " but declared as " +
                           pdfmt::typeName(tensorDesc(*var).data_type()));
    auto stored = RankedTensorType::get(rec.dims, elem);
    bool dimsOk = stored.getRank() == type->getRank();
    for (int64_t i = 0; dimsOk && i < stored.getRank(); ++i)
      dimsOk = type->isDynamicDim(i) || type->getDimSize(i) == stored.getDimSize(i);
    if (!dimsOk) {
      std::string a, d;
      llvm::raw_string_ostream(a) << stored;
      llvm::raw_string_ostream(d) << *type;
      return fail(loc,
                  "parameter '" + var->name() + "' is stored as " + a + " but declared as " + d);
    }
    // Resource keys must be identifiers; the symbol keeps the Paddle name.
    std::string key = var->name();
    for (char &c : key)
      if (!isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.')
        c = '_';
    auto blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        ArrayRef<char>(reinterpret_cast<const char *>(rec.data), rec.nbytes), 64);
    auto attr = DenseResourceElementsAttr::get(stored, key, std::move(blob));
    auto global = ml_program::GlobalOp::create(b, loc, var->name(), stored, /*is_mutable=*/false,
                                               attr, b.getStringAttr("private"));
    globals[var->name()] = global;
  }
  if (useCombined && offset != size)
    return fail(fileLoc(), "params file '" + files.combinedParams + "' has " +
                               Twine(size - offset) + " bytes after the last of its " +
                               Twine(params.size()) +
                               " parameters (does it belong to this model?)");
  return success();
}

FailureOr<Value> Importer::lookup(const std::string &name, Location loc, const pdp::OpDesc &op,
                                  int index) {
  auto it = env.find(name);
  if (it != env.end())
    return it->second;
  auto g = globals.find(name);
  if (g != globals.end()) {
    Value v = ml_program::GlobalLoadConstOp::create(b, g->second.getLoc(), g->second.getType(),
                                                    SymbolRefAttr::get(g->second))
                  .getResult();
    env[name] = v;
    return v;
  }
  return fail(loc, "input variable '" + name + "' of op '" + op.type() + "' #" + Twine(index) +
                       " is not defined before use");
}

FailureOr<Attribute> Importer::convertAttr(const pdp::OpDesc::Attr &a, PdAttrKind kind,
                                           Location loc, const pdp::OpDesc &op) {
  auto bad = [&]() -> FailureOr<Attribute> {
    return fail(loc, "attribute '" + a.name() + "' of op '" + op.type() + "' has Paddle type " +
                         pdp::AttrType_Name(a.type()) + ", which does not fit its kind");
  };
  auto i32 = [&](int64_t v) -> FailureOr<Attribute> {
    if (v < INT32_MIN || v > INT32_MAX)
      return bad();
    return Attribute(b.getI32IntegerAttr(static_cast<int32_t>(v)));
  };
  switch (kind) {
  case PdAttrKind::Bool:
    if (a.type() == pdp::BOOLEAN)
      return Attribute(b.getBoolAttr(a.b()));
    if (a.type() == pdp::INT) // Fluid 1.x stores is_test as INT
      return Attribute(b.getBoolAttr(a.i() != 0));
    if (a.type() == pdp::LONG)
      return Attribute(b.getBoolAttr(a.l() != 0));
    return bad();
  case PdAttrKind::Int:
    if (a.type() == pdp::INT)
      return Attribute(b.getI32IntegerAttr(a.i()));
    if (a.type() == pdp::LONG)
      return i32(a.l());
    if (a.type() == pdp::BOOLEAN)
      return Attribute(b.getI32IntegerAttr(a.b()));
    return bad();
  case PdAttrKind::Long:
    if (a.type() == pdp::LONG)
      return Attribute(b.getI64IntegerAttr(a.l()));
    if (a.type() == pdp::INT)
      return Attribute(b.getI64IntegerAttr(a.i()));
    return bad();
  case PdAttrKind::Float:
    if (a.type() == pdp::FLOAT)
      return Attribute(b.getF32FloatAttr(a.f()));
    if (a.type() == pdp::FLOAT64)
      return Attribute(b.getF32FloatAttr(static_cast<float>(a.float64())));
    if (a.type() == pdp::INT)
      return Attribute(b.getF32FloatAttr(static_cast<float>(a.i())));
    if (a.type() == pdp::LONG)
      return Attribute(b.getF32FloatAttr(static_cast<float>(a.l())));
    return bad();
  case PdAttrKind::Float64:
    if (a.type() == pdp::FLOAT64)
      return Attribute(b.getF64FloatAttr(a.float64()));
    if (a.type() == pdp::FLOAT)
      return Attribute(b.getF64FloatAttr(a.f()));
    return bad();
  case PdAttrKind::String:
    if (a.type() == pdp::STRING)
      return Attribute(b.getStringAttr(a.s()));
    return bad();
  case PdAttrKind::Ints: {
    SmallVector<int32_t> v;
    if (a.type() == pdp::INTS) {
      v.assign(a.ints().begin(), a.ints().end());
    } else if (a.type() == pdp::LONGS) {
      for (int64_t l : a.longs()) {
        if (l < INT32_MIN || l > INT32_MAX)
          return bad();
        v.push_back(static_cast<int32_t>(l));
      }
    } else {
      return bad();
    }
    return Attribute(b.getDenseI32ArrayAttr(v));
  }
  case PdAttrKind::Longs: {
    SmallVector<int64_t> v;
    if (a.type() == pdp::LONGS)
      v.assign(a.longs().begin(), a.longs().end());
    else if (a.type() == pdp::INTS)
      v.assign(a.ints().begin(), a.ints().end());
    else
      return bad();
    return Attribute(b.getDenseI64ArrayAttr(v));
  }
  case PdAttrKind::Floats: {
    SmallVector<float> v;
    if (a.type() == pdp::FLOATS)
      v.assign(a.floats().begin(), a.floats().end());
    else if (a.type() == pdp::FLOAT64S)
      for (double d : a.float64s())
        v.push_back(static_cast<float>(d));
    else
      return bad();
    return Attribute(b.getDenseF32ArrayAttr(v));
  }
  case PdAttrKind::Strings: {
    if (a.type() != pdp::STRINGS)
      return bad();
    SmallVector<StringRef> v(a.strings().begin(), a.strings().end());
    return Attribute(b.getStrArrayAttr(v));
  }
  }
  return bad();
}

/// The join of two ranked tensor types (static where either is), or the
/// inferred type when they disagree.
Type refine(Type declared, Type inferred) {
  auto d = dyn_cast_or_null<RankedTensorType>(declared);
  auto i = dyn_cast<RankedTensorType>(inferred);
  if (!i)
    return inferred;
  if (!d || d.getRank() != i.getRank() || d.getElementType() != i.getElementType())
    return i;
  SmallVector<int64_t> dims;
  for (auto [x, y] : llvm::zip(d.getShape(), i.getShape())) {
    if (!ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) && x != y)
      return i;
    dims.push_back(ShapedType::isDynamic(x) ? y : x);
  }
  return RankedTensorType::get(dims, i.getElementType());
}

/// assign_value of Paddle 2.6+ keeps its elements in one `values` attribute
/// of Scalar messages (SCALARS) instead of a list per dtype: convert it to
/// the list its dtype selects (bool_values, int32_values, int64_values,
/// fp32_values), which older and newer Paddle both read, so the pd op has
/// one form. set_value of the same versions stores its values the same way.
static LogicalResult convertScalarValues(const pdp::OpDesc &op, OperationState &state, OpBuilder &b,
                                         Location loc) {
  const pdp::OpDesc::Attr *values = findAttr(op, "values");
  if ((op.type() != "assign_value" && op.type() != "set_value") || !values ||
      values->type() != pdp::SCALARS)
    return success();
  const std::string &name = op.type();
  const pdp::OpDesc::Attr *dtypeAttr = findAttr(op, "dtype");
  int64_t dtype = dtypeAttr ? dtypeAttr->i() : pdp::VarType::FP32;
  auto number = [](const pdp::Scalar &v) -> double {
    switch (v.type()) {
    case pdp::Scalar::BOOLEAN:
      return v.b();
    case pdp::Scalar::LONG:
      return static_cast<double>(v.i());
    default:
      return v.r();
    }
  };
  for (const pdp::Scalar &v : values->scalars())
    if (v.type() == pdp::Scalar::COMPLEX128 || !v.has_type()) {
      emitError(loc) << "op '" << name
                     << "' holds a complex or untyped value in 'values', which "
                        "paddle-mlir does not support";
      return failure();
    }
  SmallVector<int64_t> ints;
  SmallVector<float> floats;
  for (const pdp::Scalar &v : values->scalars()) {
    if (v.type() == pdp::Scalar::LONG)
      ints.push_back(v.i());
    else
      ints.push_back(static_cast<int64_t>(number(v)));
    floats.push_back(static_cast<float>(number(v)));
  }
  switch (dtype) {
  case pdp::VarType::BOOL:
  case pdp::VarType::INT32: {
    SmallVector<int32_t> v;
    for (int64_t i : ints) {
      if (i < INT32_MIN || i > INT32_MAX) {
        emitError(loc) << "op '" << name << "' value " << i << " does not fit its int32 dtype";
        return failure();
      }
      v.push_back(static_cast<int32_t>(dtype == pdp::VarType::BOOL ? i != 0 : i));
    }
    state.attributes.set(dtype == pdp::VarType::BOOL ? "bool_values" : "int32_values",
                         b.getDenseI32ArrayAttr(v));
    return success();
  }
  case pdp::VarType::INT64:
    state.attributes.set("int64_values", b.getDenseI64ArrayAttr(ints));
    return success();
  case pdp::VarType::FP32:
    state.attributes.set("fp32_values", b.getDenseF32ArrayAttr(floats));
    return success();
  default:
    emitError(loc) << "op '" << name << "' has dtype " << dtype
                   << ", which paddle-mlir does not support (bool, int32, int64, float32)";
    return failure();
  }
}

/// Values real programs carry in attributes that Paddle ignores in the
/// op's mode, replaced by ones the verifier accepts: global pooling ignores
/// `ksize`, and Fluid programs write [-1, -1] there.
static void normalizeIgnoredAttrs(OperationState &state) {
  // tile's repeat_times holds -1 placeholders where RepeatTimes or
  // repeat_times_tensor gives the values (Paddle reads only those then).
  if (state.name.getStringRef() == "pd.tile" && state.operands.size() > 1) {
    state.attributes.erase("repeat_times");
    return;
  }
  if (state.name.getStringRef() != "pd.pool2d")
    return;
  auto global = dyn_cast_or_null<BoolAttr>(state.attributes.get("global_pooling"));
  auto ksize = dyn_cast_or_null<DenseI32ArrayAttr>(state.attributes.get("ksize"));
  if (!global || !global.getValue() || !ksize)
    return;
  SmallVector<int32_t> k(ksize.asArrayRef());
  for (int32_t &v : k)
    v = std::max(v, 1);
  state.attributes.set("ksize", DenseI32ArrayAttr::get(state.getContext(), k));
}

/// pd.strided_slice bounds follow Python's (and ONNX's) rule: with a
/// negative stride the wrapped start and end clamp to [-1, d-1]. Paddle's
/// kernel differs in two places: an end of exactly -1 means "through
/// position 0" (Python's None), and a bound still negative after wrapping
/// clamps to 0. This rewrites the attribute bounds of negative-stride axes
/// to pd's rule (INT32_MIN for "through 0"; 0 where Paddle clamps and the
/// dim is static). Run-time bound tensors are taken as pd's rule.
static void paddleStridedSliceBounds(OperationState &state) {
  if (state.name.getStringRef() != "pd.strided_slice" || state.operands.size() != 1)
    return;
  auto get = [&](StringRef name) {
    auto a = dyn_cast_or_null<DenseI32ArrayAttr>(state.attributes.get(name));
    return a ? SmallVector<int32_t>(a.asArrayRef()) : SmallVector<int32_t>();
  };
  SmallVector<int32_t> axes = get("axes"), starts = get("starts"), ends = get("ends"),
                       strides = get("strides");
  auto x = dyn_cast<RankedTensorType>(state.operands[0].getType());
  if (!x || strides.size() != axes.size() || starts.size() != axes.size() ||
      ends.size() != axes.size())
    return;
  for (size_t k = 0; k < axes.size(); ++k) {
    if (strides[k] >= 0)
      continue;
    int64_t axis = axes[k] < 0 ? axes[k] + x.getRank() : axes[k];
    int64_t d = axis >= 0 && axis < x.getRank() ? x.getDimSize(axis) : ShapedType::kDynamic;
    bool known = !ShapedType::isDynamic(d);
    if (ends[k] == -1)
      ends[k] = INT32_MIN;
    else if (ends[k] < 0 && known && ends[k] + d < 0)
      ends[k] = 0;
    if (starts[k] < 0 && known && starts[k] + d < 0)
      starts[k] = 0;
  }
  MLIRContext *ctx = state.getContext();
  state.attributes.set("starts", DenseI32ArrayAttr::get(ctx, starts));
  state.attributes.set("ends", DenseI32ArrayAttr::get(ctx, ends));
}

/// Why an op that has no pd counterpart is not supported, for the kinds of
/// op that need more than a new lowering: sequences with LoD, recurrent
/// layers, control flow and results whose size depends on the data.
static StringRef unsupportedKind(StringRef type) {
  if (type.starts_with("sequence_") || llvm::is_contained({"linear_chain_crf"}, type))
    return "a LoD (variable-length sequence) op";
  if (llvm::is_contained({"dynamic_gru", "dynamic_lstm"}, type))
    return "a recurrent op";
  if (type == "nonzero")
    return "an op whose output size depends on the data";
  if (llvm::is_contained({"c_gen_nccl_id", "c_comm_init", "c_comm_init_all", "c_gen_bkcl_id",
                          "c_comm_init_multitrainer"},
                         type))
    return "a communicator set-up op of Paddle's startup program (the runtime makes the job's "
           "communicator; import the main program)";
  return "";
}

/// Fluid's DynamicRNN ops, as far as pd has them: a rank table of a
/// one-level LoD batch, that batch (or one with the same sequences) split
/// into an array over time steps, the array of plain tensors put back.
LogicalResult Importer::checkRankTableOp(const pdp::OpDesc &op, int index, Location loc,
                                         OperationState &state) {
  auto bad = [&](const Twine &msg) {
    return fail(loc, "op '" + op.type() + "' #" + Twine(index) + " of block " +
                         Twine(currentBlock) + ": " + msg);
  };
  Value x = state.operands.empty() ? Value() : state.operands[0];
  if (!x)
    return success();
  if (op.type() == "lod_rank_table" && !lodOf(x))
    return bad("X has no LoD; a rank table ranks the sequences of a LoD batch");
  if (op.type() == "lod_tensor_to_array" && (!lodOf(x) || lodLevel(x) > 1))
    return bad((lodOf(x) ? "X has " + std::to_string(lodLevel(x)) + " LoD levels"
                         : std::string("X has no LoD")) +
               "; only a batch with one LoD level becomes an array over time steps");
  if (op.type() == "array_to_lod_tensor" && arrayLengths.count(x))
    return bad("X is an array of LoD batches; only an array of tensors with one row per "
               "sequence becomes a LoD batch");
  return success();
}

/// pd keeps the last LoD level of a value: the ops that read only that
/// level take inputs with more (sequence_softmax, sequence_expand at the
/// last level, lod_reset); the other sequence ops are refused there, as
/// Paddle refuses most of them.
LogicalResult Importer::checkLodLevel(const pdp::OpDesc &op, int index, Location loc,
                                      OperationState &state) {
  const PdOpSpec *spec = lookupPdOpSpec(op.type());
  if (failed(checkRankTableOp(op, index, loc, state)))
    return failure();
  bool readsLod = llvm::any_of(spec->inputs, [](const PdSlotSpec &s) { return isLodSlot(s.name); });
  if (!readsLod || op.type() == "lod_reset")
    return success();
  for (Value operand : state.operands) {
    int level = lodLevel(operand);
    if (level <= 1)
      continue;
    if (op.type() == "sequence_softmax")
      return success();
    if (op.type() == "sequence_expand") {
      auto ref = dyn_cast_or_null<IntegerAttr>(state.attributes.get("ref_level"));
      int64_t r = ref ? ref.getInt() : -1;
      if (r == -1 || r == level - 1) {
        state.attributes.set("ref_level", b.getI32IntegerAttr(-1));
        return success();
      }
      return fail(loc, "op 'sequence_expand' #" + Twine(index) + ": ref_level " + Twine(r) +
                           " of a Y with " + Twine(level) +
                           " LoD levels is not supported yet (only its last level, " +
                           Twine(level - 1) + " or -1)");
    }
    return fail(loc, "op '" + op.type() + "' #" + Twine(index) + ": an input has " + Twine(level) +
                         " LoD levels; this op takes level-1 sequences only");
  }
  return success();
}

/// A pd op the importer adds to carry LoD lengths (pd.lod: the exporter
/// leaves it out), its result type from shape inference.
static Value lodHelper(Value v) {
  v.getDefiningOp()->setAttr("pd.lod", UnitAttr::get(v.getContext()));
  return v;
}

/// Tensor arrays of LoD batches: write_to_array also writes X's lengths
/// into the array's lengths array, read_from_array reads them back. An
/// array holds LoD batches or plain tensors, not both.
LogicalResult Importer::arrayLod(Operation *op, int index, Location loc) {
  auto bad = [&](const Twine &msg) {
    return fail(loc, "op '" + op->getName().stripDialect() + "' #" + Twine(index) + ": " + msg);
  };
  if (auto read = dyn_cast<ReadFromArrayOp>(op)) {
    if (Value lens = arrayLengths.lookup(read.getX())) {
      lodLengths[read.getResult()] =
          lodHelper(createPd("read_from_array", {lens, read.getI()}, {}, loc));
      if (lodLevel(read.getX()) > 1)
        lodLevels[read.getResult()] = lodLevel(read.getX());
    }
    return success();
  }
  auto write = cast<WriteToArrayOp>(op);
  Value x = write.getX(), prev = write.getArray();
  Value xLens = lodLengths.lookup(x), prevLens = prev ? arrayLengths.lookup(prev) : Value();
  auto emptyPrev = [&] {
    if (emptyArrays.contains(prev))
      return true;
    auto fill = prev.getDefiningOp<FillConstantOp>();
    return fill && cast<RankedTensorType>(prev.getType()).getDimSize(0) == 0;
  };
  if (xLens && prev && !prevLens && !emptyPrev())
    return bad("writes a LoD batch into an array that holds tensors without LoD");
  if (!xLens && prevLens)
    return bad("writes a tensor without LoD into an array of LoD batches");
  if (prevLens && lodLevel(prev) != lodLevel(x))
    return bad("writes a batch of " + Twine(lodLevel(x)) + " LoD levels into an array of " +
               Twine(lodLevel(prev)) + "-level batches");
  if (!xLens)
    return success();
  SmallVector<Value> operands{xLens, write.getI()};
  if (prevLens)
    operands.push_back(prevLens);
  arrayLengths[write.getResult()] = lodHelper(createPd("write_to_array", operands, {}, loc));
  if (lodLevel(x) > 1)
    lodLevels[write.getResult()] = lodLevel(x);
  return success();
}

/// The lengths of an empty LoD batch (no sequences: int64 [0]), or of an
/// empty array of LoD batches ([0, 0]), marked pd.lod.
Value Importer::emptyLengths(bool array, Location loc) {
  SmallVector<int64_t> shape(array ? 2 : 1, 0);
  return lodHelper(
      createPd("fill_constant", {},
               {b.getNamedAttr("operandSegmentSizes", b.getDenseI32ArrayAttr({0, 0, 0})),
                b.getNamedAttr("dtype", b.getI32IntegerAttr(3)),
                b.getNamedAttr("shape", b.getDenseI64ArrayAttr(shape))},
               loc));
}

/// Paddle's convolutions also take, for its oneDNN kernels, a Bias and a
/// ResidualData input and fuse_* attributes; programs saved after oneDNN
/// fusion, and quantization tools, write them. They become ops of their own
/// after the convolution, in oneDNN's order: + Bias per output channel,
/// + ResidualData (when fuse_residual_connection), then the activation
/// (relu; any other is refused by name). Returns false when `op` has none
/// of them.
FailureOr<bool> Importer::importConvFusedParts(const pdp::OpDesc &op, int index) {
  if (op.type() != "conv2d" && op.type() != "depthwise_conv2d")
    return false;
  auto flag = [&](StringRef name) {
    const pdp::OpDesc::Attr *a = findAttr(op, name);
    return a && (a->type() == pdp::BOOLEAN ? a->b() : a->i() != 0);
  };
  const pdp::OpDesc::Attr *actAttr = findAttr(op, "fuse_activation");
  std::string act = actAttr ? actAttr->s() : "";
  if (flag("fuse_relu"))
    act = "relu";
  const pdp::OpDesc::Var *bias = findSlot(op.inputs(), "Bias");
  const pdp::OpDesc::Var *res = findSlot(op.inputs(), "ResidualData");
  bool hasBias = bias && bias->arguments_size() > 0;
  bool hasRes = res && res->arguments_size() > 0 && flag("fuse_residual_connection");
  Location loc = opLoc(op, index);
  if (flag("fuse_brelu") || (act != "" && act != "relu" && act != "identity"))
    return fail(loc, "op '" + op.type() + "' #" + Twine(index) +
                         " has the oneDNN-fused activation '" +
                         (act.empty() ? std::string("brelu") : act) +
                         "' (fuse_activation / fuse_brelu), which is not supported yet; only relu");
  // A ResidualData without fuse_residual_connection is not read (as in
  // Paddle's kernel), but still leaves the op.
  if (!hasBias && !hasRes && act != "relu" && !(res && res->arguments_size() > 0))
    return false;
  if ((bias && bias->arguments_size() > 1) || (res && res->arguments_size() > 1))
    return fail(loc, "op '" + op.type() + "' #" + Twine(index) +
                         " takes at most one variable in Bias and in ResidualData");
  pdp::OpDesc plain = op;
  plain.clear_inputs();
  for (const auto &v : op.inputs())
    if (v.parameter() != "Bias" && v.parameter() != "ResidualData")
      *plain.add_inputs() = v;
  plain.clear_attrs();
  for (const auto &a : op.attrs())
    if (a.name() != "fuse_activation" && a.name() != "fuse_relu" &&
        a.name() != "fuse_residual_connection")
      *plain.add_attrs() = a;
  if (failed(importOp(plain, index)))
    return failure();
  const pdp::OpDesc::Var *out = findSlot(op.outputs(), "Output");
  const std::string &name = out->arguments(0);
  Value v = env[name];
  const pdp::OpDesc::Attr *fmt = findAttr(op, "data_format");
  int32_t channelAxis = fmt && fmt->s() == "NHWC" ? 3 : 1;
  auto operand = [&](const pdp::OpDesc::Var *slot) {
    return lookup(slot->arguments(0), loc, op, index);
  };
  if (hasBias) {
    auto bv = operand(bias);
    if (failed(bv))
      return failure();
    v = createPd("elementwise_add", {v, *bv},
                 {b.getNamedAttr("axis", b.getI32IntegerAttr(channelAxis))}, loc);
  }
  if (hasRes) {
    auto rv = operand(res);
    if (failed(rv))
      return failure();
    v = createPd("elementwise_add", {v, *rv}, {}, loc);
  }
  if (act == "relu")
    v = createPd("relu", v, {}, loc);
  env[name] = v;
  return true;
}

/// An attribute of a synthesized OpDesc.
static void setInts(pdp::OpDesc &d, StringRef name, ArrayRef<int64_t> values) {
  pdp::OpDesc::Attr *a = d.add_attrs();
  a->set_name(name.str());
  a->set_type(pdp::INTS);
  for (int64_t v : values)
    a->add_ints(static_cast<int32_t>(v));
}

/// Fluid 1.x ops whose 2.x successor pd has: reshape, transpose, squeeze,
/// unsqueeze and flatten are their *2 ops without the XShape output (the
/// same slots and attributes), so they import as those; crop and
/// crop_tensor with attribute offsets and a static shape (or Y's) as a
/// slice; one_hot (X [.., 1]) as one_hot_v2 of X without its last dim.
/// Returns false for any other op.
FailureOr<bool> Importer::importLegacyOp(const pdp::OpDesc &op, int index) {
  static const llvm::StringMap<StringRef> successors = {{"reshape", "reshape2"},
                                                        {"transpose", "transpose2"},
                                                        {"squeeze", "squeeze2"},
                                                        {"unsqueeze", "unsqueeze2"},
                                                        {"flatten", "flatten2"}};
  // Imports `d`, the successor's OpDesc, in place of `op`.
  auto importAs = [&](const pdp::OpDesc &d) -> FailureOr<bool> {
    if (failed(importOp(d, index)))
      return failure();
    return true;
  };
  if (auto it = successors.find(op.type()); it != successors.end()) {
    pdp::OpDesc d = op;
    d.set_type(it->second.str());
    return importAs(d);
  }
  // Fleet's stream synchronizations around collectives (Out is X, in
  // place): the runtime orders each collective with the computation
  // around it already, so each Out names its X's value.
  if (op.type() == "c_sync_calc_stream" || op.type() == "c_sync_comm_stream") {
    Location loc = opLoc(op, index);
    const pdp::OpDesc::Var *x = findSlot(op.inputs(), "X");
    const pdp::OpDesc::Var *out = findSlot(op.outputs(), "Out");
    if (!x || !out || x->arguments_size() != out->arguments_size())
      return fail(loc, "op '" + op.type() + "' #" + std::to_string(index) +
                           " needs as many Out variables as X variables");
    for (int i = 0; i < x->arguments_size(); ++i) {
      auto v = lookup(x->arguments(i), loc, op, index);
      if (failed(v))
        return failure();
      env[out->arguments(i)] = *v;
    }
    return true;
  }
  if (op.type() != "crop" && op.type() != "crop_tensor" && op.type() != "one_hot")
    return false;
  Location loc = opLoc(op, index);
  auto where = [&] { return "op '" + op.type() + "' #" + std::to_string(index); };
  const pdp::OpDesc::Var *x = findSlot(op.inputs(), "X");
  const pdp::OpDesc::Var *out = findSlot(op.outputs(), "Out");
  if (!x || x->arguments_size() != 1 || !out || out->arguments_size() != 1)
    return fail(loc, where() + " needs one X and one Out");
  auto xv = lookup(x->arguments(0), loc, op, index);
  if (failed(xv))
    return failure();
  auto xt = cast<RankedTensorType>(xv->getType());
  if (op.type() == "one_hot") {
    if (xt.getRank() < 1 || xt.getDimSize(xt.getRank() - 1) != 1)
      return fail(loc, where() + ": X's last dim must be 1 (Paddle's one_hot), got " +
                           Twine(xt.getRank() ? xt.getDimSize(xt.getRank() - 1) : 0));
    std::string squeezed = out->arguments(0) + "@one_hot_indices";
    env[squeezed] =
        createPd("squeeze2", *xv, {b.getNamedAttr("axes", b.getDenseI32ArrayAttr({-1}))}, loc);
    pdp::OpDesc d = op;
    d.set_type("one_hot_v2");
    for (pdp::OpDesc::Var &v : *d.mutable_inputs())
      if (v.parameter() == "X")
        v.set_arguments(0, squeezed);
    return importAs(d);
  }
  // crop / crop_tensor: Out = X[offsets : offsets + shape], a shape dim of
  // -1 (crop_tensor) meaning to the end.
  for (StringRef slot : {"Offsets", "OffsetsTensor", "Shape", "ShapeTensor"}) {
    const pdp::OpDesc::Var *v = findSlot(op.inputs(), slot);
    if (v && v->arguments_size() > 0)
      return fail(loc, where() + ": the " + slot +
                           " input (offsets or shape computed at run time) is not supported "
                           "yet; only the offsets and shape attributes");
  }
  int64_t rank = xt.getRank();
  SmallVector<int64_t> shape, offsets(rank, 0);
  if (const pdp::OpDesc::Attr *a = findAttr(op, "offsets"); a && a->ints_size() > 0) {
    if (a->ints_size() != rank)
      return fail(loc, where() + ": offsets has " + Twine(a->ints_size()) +
                           " values for X of rank " + Twine(rank));
    offsets.assign(a->ints().begin(), a->ints().end());
  }
  const pdp::OpDesc::Var *y = findSlot(op.inputs(), "Y");
  if (y && y->arguments_size() == 1) {
    auto yv = lookup(y->arguments(0), loc, op, index);
    if (failed(yv))
      return failure();
    auto yt = cast<RankedTensorType>(yv->getType());
    if (yt.getRank() != rank || !yt.hasStaticShape())
      return fail(loc, where() + ": Y must have X's rank and a static shape to crop to");
    shape.assign(yt.getShape().begin(), yt.getShape().end());
  } else if (const pdp::OpDesc::Attr *a = findAttr(op, "shape"); a && a->ints_size() == rank) {
    shape.assign(a->ints().begin(), a->ints().end());
  } else {
    return fail(loc, where() + " needs a shape attribute with one value per dim of X, or Y");
  }
  SmallVector<int64_t> axes, starts, ends;
  for (int64_t i = 0; i < rank; ++i) {
    if (offsets[i] < 0 || shape[i] < -1 || shape[i] == 0)
      return fail(loc, where() + ": offset " + Twine(offsets[i]) + " and size " + Twine(shape[i]) +
                           " of dim " + Twine(i) + " do not describe a crop");
    if (!xt.isDynamicDim(i) && offsets[i] + (shape[i] < 0 ? 1 : shape[i]) > xt.getDimSize(i))
      return fail(loc, where() + ": dim " + Twine(i) + " of X has " + Twine(xt.getDimSize(i)) +
                           " values, fewer than offset " + Twine(offsets[i]) + " + size " +
                           Twine(shape[i]));
    axes.push_back(i);
    starts.push_back(offsets[i]);
    ends.push_back(shape[i] < 0 ? INT32_MAX : offsets[i] + shape[i]);
  }
  pdp::OpDesc d;
  d.set_type("slice");
  pdp::OpDesc::Var *in = d.add_inputs();
  in->set_parameter("Input");
  in->add_arguments(x->arguments(0));
  *d.add_outputs() = *out;
  setInts(d, "axes", axes);
  setInts(d, "starts", starts);
  setInts(d, "ends", ends);
  setInts(d, "infer_flags", SmallVector<int64_t>(rank, 1));
  setInts(d, "decrease_axis", {});
  return importAs(d);
}

LogicalResult Importer::importOp(const pdp::OpDesc &op, int index) {
  Location loc = opLoc(op, index);
  if (FailureOr<bool> fused = importConvFusedParts(op, index); failed(fused) || *fused)
    return failure(failed(fused));
  if (FailureOr<bool> legacy = importLegacyOp(op, index); failed(legacy) || *legacy)
    return failure(failed(legacy));
  if (FailureOr<bool> lstm = importCudnnLstm(op, index); failed(lstm) || *lstm)
    return failure(failed(lstm));
  const PdOpSpec *spec = lookupPdOpSpec(op.type());
  if (!spec) {
    StringRef kind = unsupportedKind(op.type());
    return fail(loc, "unsupported Paddle op '" + op.type() + "' (" +
                         (kind.empty() ? Twine("") : kind + ", not supported yet; ") + "op #" +
                         Twine(index) + " of block " + Twine(currentBlock) +
                         "; inputs: " + describeSlots(op.inputs()) +
                         "; outputs: " + describeSlots(op.outputs()) + ")");
  }
  OperationState state(loc, "pd." + std::string(op.type()));
  SmallVector<int32_t> segments;
  bool hasSegments = llvm::count_if(spec->inputs, [](const PdSlotSpec &s) {
                       return s.arity != PdSlotArity::Required;
                     }) > 1;
  for (const PdSlotSpec &slot : spec->inputs) {
    if (isLodSlot(slot.name)) {
      // Not in Paddle's program: the lengths of the op's first LoD input
      // (Y's for sequence_expand(_as), whose X has no LoD).
      Value lengths;
      if (op.type() == "lod_reset") {
        // Out takes Y's LoD when Y has one, never X's.
        const pdp::OpDesc::Var *y = findSlot(op.inputs(), "Y");
        auto it = y && y->arguments_size() == 1 ? env.find(y->arguments(0)) : env.end();
        if (it != env.end())
          lengths = lodLengths.lookup(it->second);
      } else {
        for (Value operand : state.operands)
          if ((lengths = lodLengths.lookup(operand)))
            break;
      }
      if ((op.type() == "sequence_expand" || op.type() == "sequence_expand_as") &&
          !state.operands.empty() && lodLengths.count(state.operands[0]))
        return fail(loc, "op '" + op.type() + "' #" + Twine(index) +
                             ": X is a LoD batch; expanding whole sequences is not supported "
                             "yet (only an X whose row i goes with Y's sequence i)");
      if (lengths)
        state.addOperands(lengths);
      segments.push_back(lengths ? 1 : 0);
      continue;
    }
    if (op.type() == "write_to_array" && StringRef(slot.name) == "Array") {
      // Not a Paddle slot: Paddle writes the array in place; pd takes the
      // array the Out variable held before, if any.
      const pdp::OpDesc::Var *out = findSlot(op.outputs(), "Out");
      auto prev = out && out->arguments_size() == 1 ? env.find(out->arguments(0)) : env.end();
      if (prev != env.end())
        state.addOperands(prev->second);
      segments.push_back(prev != env.end() ? 1 : 0);
      continue;
    }
    const pdp::OpDesc::Var *v = findSlot(op.inputs(), slot.name);
    int n = v ? v->arguments_size() : 0;
    if (slot.arity == PdSlotArity::Required && n != 1)
      return fail(loc, "op '" + op.type() + "' #" + Twine(index) +
                           " needs exactly one variable in input slot '" + slot.name + "', got " +
                           Twine(n));
    if (slot.arity == PdSlotArity::Optional && n > 1)
      return fail(loc, "op '" + op.type() + "' #" + Twine(index) +
                           " takes at most one variable in input slot '" + slot.name + "', got " +
                           Twine(n));
    for (int i = 0; i < n; ++i) {
      auto value = lookup(v->arguments(i), loc, op, index);
      if (failed(value))
        return failure();
      FailureOr<Value> operand = int8AttrWeight(
          op, index, slot.name, *value, integerWeightAsFloat(op, slot.name, *value, loc), loc);
      if (failed(operand))
        return failure();
      state.addOperands(*operand);
    }
    segments.push_back(n);
  }
  for (const auto &v : op.inputs()) {
    bool known =
        llvm::any_of(spec->inputs, [&](const PdSlotSpec &s) { return v.parameter() == s.name; });
    if (!known && v.arguments_size() > 0)
      return fail(loc, "input slot '" + v.parameter() + "' of op '" + op.type() + "' #" +
                           Twine(index) + " is not supported by paddle-mlir");
  }
  if (hasSegments)
    state.addAttribute("operandSegmentSizes", b.getDenseI32ArrayAttr(segments));
  for (const PdAttrSpec &as : spec->attrs) {
    const pdp::OpDesc::Attr *a = findAttr(op, as.name);
    if (!a && !as.defaultValue)
      return fail(loc, "op '" + op.type() + "' #" + Twine(index) + " lacks attribute '" + as.name +
                           "', which has no default");
    if (!a)
      continue; // stripped or absent: the op's default applies
    auto attr = convertAttr(*a, as.kind, loc, op);
    if (failed(attr))
      return failure();
    state.addAttribute(as.name, *attr);
  }
  if (failed(convertScalarValues(op, state, b, loc)))
    return failure();
  normalizeIgnoredAttrs(state);
  paddleStridedSliceBounds(state);
  SmallVector<std::string> outNames;
  SmallVector<int32_t> outSegments;
  int lodResult = -1;
  for (const PdSlotSpec &slot : spec->outputs) {
    if (isLodResultSlot(slot.name)) {
      // Not in Paddle's program: the lengths of the LoD the op creates.
      lodResult = static_cast<int>(state.types.size());
      state.addTypes(RankedTensorType::get({ShapedType::kDynamic}, b.getI64Type()));
      outSegments.push_back(1);
      continue;
    }
    const pdp::OpDesc::Var *v = findSlot(op.outputs(), slot.name);
    int n = v ? v->arguments_size() : 0;
    outSegments.push_back(n);
    if (slot.arity == PdSlotArity::Required && n != 1)
      return fail(loc, "op '" + op.type() + "' #" + Twine(index) +
                           " needs exactly one variable in output slot '" + slot.name + "', got " +
                           Twine(n));
    if (slot.arity == PdSlotArity::Optional && n > 1)
      return fail(loc, "op '" + op.type() + "' #" + Twine(index) +
                           " takes at most one variable in output slot '" + slot.name + "', got " +
                           Twine(n));
    for (int i = 0; i < n; ++i) {
      const std::string &name = v->arguments(i);
      auto it = vars.find(name);
      if (it == vars.end())
        return fail(loc, "output variable '" + name + "' of op '" + op.type() + "' #" +
                             Twine(index) + " has no VarDesc");
      auto type = varType(*it->second, loc);
      if (failed(type))
        return failure();
      state.addTypes(*type);
      outNames.push_back(name);
    }
  }
  // Ops with more than one list of results (distribute_fpn_proposals) say
  // how many each slot has.
  if (llvm::count_if(spec->outputs,
                     [](const PdSlotSpec &o) { return o.arity != PdSlotArity::Required; }) > 1)
    state.addAttribute("resultSegmentSizes", b.getDenseI32ArrayAttr(outSegments));
  if (failed(checkLodLevel(op, index, loc, state)))
    return failure();
  // The attribute constraints (array sizes, ranges, enum spellings) first:
  // shape inference below reads the attributes and, like the verifier,
  // relies on them (a depthwise_conv2d with 3 paddings read past them).
  if (failed(state.name.verifyInherentAttrs(state.attributes, [&] {
        return emitError(loc) << "op '" << op.type() << "' #" << index << ": ";
      })))
    return failure();
  Operation *created = b.create(state);
  recordInt8Attrs(op, created);
  SmallVector<Type> inferred;
  auto shapeFn = dyn_cast<PdShapeInference>(created);
  bool sized = llvm::any_of(created->getResults(), [](OpResult r) { return isDataSized(r); });
  bool fromDataSized =
      llvm::any_of(created->getOperands(), [&](Value v) { return dataSized.contains(v); });
  if (shapeFn && succeeded(shapeFn.inferResultTypes(inferred, /*emitErrors=*/false)) &&
      inferred.size() == created->getNumResults())
    for (auto [result, type] : llvm::zip(created->getResults(), inferred))
      // Sizes that depend on the data come from shape inference alone.
      result.setType(sized || fromDataSized ? type : refine(result.getType(), type));
  for (OpResult result : created->getResults()) {
    auto t = dyn_cast<RankedTensorType>(result.getType());
    if (isDataSized(result) || (fromDataSized && !sized && t && !t.hasStaticShape()))
      dataSized.insert(result);
  }
  SmallVector<OpResult> named;
  for (OpResult result : created->getResults())
    if (static_cast<int>(result.getResultNumber()) != lodResult)
      named.push_back(result);
  for (auto [name, result] : llvm::zip(outNames, named))
    env[name] = result;
  // LoD: an op that makes one (im2sequence, lod_reset) gives its Out the
  // lengths it computes; a sequence op's pooled rows are no longer
  // sequences; any other op passes on the LoD of its first LoD input.
  auto reorder = dyn_cast<ReorderLodTensorByRankOp>(created);
  if (reorder && !reorder.getLengths()) {
    // Rows reordered: no LoD (its OutLengths, ones, is not used).
  } else if (lodResult >= 0) {
    Value lengths = created->getResult(lodResult);
    int level = 1;
    if (auto reset = dyn_cast<LodResetOp>(created)) {
      if (reset.getLengths())
        level = lodLevel(reset.getY());
      else if (reset.getAppend())
        level = lodLevel(reset.getX()) + 1;
    }
    for (OpResult result : named) {
      lodLengths[result] = lengths;
      if (level > 1)
        lodLevels[result] = level;
    }
  } else if (isa<WriteToArrayOp, ReadFromArrayOp>(created)) {
    if (failed(arrayLod(created, index, loc)))
      return failure();
  } else if (!isa<SequencePoolOp, LodRankTableOp, MaxSequenceLenOp, LodTensorToArrayOp>(created)) {
    // As Paddle's ShareLoD from the op's main input (X, Input, Ids): the
    // first operand that is not a weight; sequence_expand_as takes Y's.
    Value from;
    for (Value operand : created->getOperands())
      if (!operand.getDefiningOp<ml_program::GlobalLoadConstOp>()) {
        from = operand;
        break;
      }
    if (auto expandAs = dyn_cast<SequenceExpandAsOp>(created))
      from = expandAs.getY();
    if (Value lengths = from ? lodLengths.lookup(from) : Value())
      for (OpResult result : created->getResults()) {
        lodLengths[result] = lengths;
        if (lodLevel(from) > 1)
          lodLevels[result] = lodLevel(from);
      }
  }
  return success();
}

LogicalResult Importer::importBlock(int blockIdx) {
  const pdp::BlockDesc &block = program.blocks(blockIdx);
  int outer = currentBlock;
  currentBlock = blockIdx;
  for (int i = 0; i < block.ops_size(); ++i) {
    const auto &op = block.ops(i);
    if (op.type() == "feed" || op.type() == "fetch")
      continue;
    LogicalResult imported = op.type() == "while"               ? importWhile(op, i)
                             : op.type() == "conditional_block" ? importConditionalBlock(op, i)
                             : op.type() == "select_output"     ? importSelectOutput(op, i)
                                                                : importOp(op, i);
    if (failed(imported))
      return failure();
  }
  currentBlock = outer;
  return success();
}

/// A pd op built from its name, operands and attributes, its result type
/// from shape inference (for the ops the importer adds itself).
Value Importer::createPd(StringRef name, ValueRange operands, ArrayRef<NamedAttribute> attrs,
                         Location loc) {
  OperationState state(loc, ("pd." + name).str());
  state.addOperands(operands);
  state.addAttributes(attrs);
  state.addTypes(RankedTensorType::get({}, b.getF32Type()));
  Operation *op = b.create(state);
  SmallVector<Type> types;
  if (auto shapeFn = dyn_cast<PdShapeInference>(op))
    if (succeeded(shapeFn.inferResultTypes(types, /*emitErrors=*/true)) && types.size() == 1)
      op->getResult(0).setType(types[0]);
  return op->getResult(0);
}

namespace {
/// The convolutions and matrix products whose weight may be stored as
/// integers (frozen QAT, Paddle-Lite) and that Paddle Inference's and
/// Paddle-Lite's int8 attributes go on: the activation and weight slots
/// and the weight dim that indexes output channels.
struct WeightSlots {
  StringRef type, input, weight;
  int64_t axis;
};
constexpr WeightSlots kWeightSlots[] = {{"conv2d", "Input", "Filter", 0},
                                        {"depthwise_conv2d", "Input", "Filter", 0},
                                        {"conv2d_transpose", "Input", "Filter", 1},
                                        {"mul", "X", "Y", 1},
                                        {"matmul", "X", "Y", 1},
                                        {"matmul_v2", "X", "Y", 1},
                                        {"fc", "Input", "W", 1}};

const WeightSlots *weightSlots(StringRef type) {
  for (const WeightSlots &s : kWeightSlots)
    if (s.type == type)
      return &s;
  return nullptr;
}

/// The slots of an op whose `enable_int8` attribute is set, else null.
const WeightSlots *int8Slots(const pdp::OpDesc &op) {
  const WeightSlots *s = weightSlots(op.type());
  const pdp::OpDesc::Attr *a = s ? findAttr(op, "enable_int8") : nullptr;
  bool on = a && (a->type() == pdp::BOOLEAN ? a->b() : a->i() != 0);
  return on ? s : nullptr;
}
} // namespace

/// A convolution's or matrix product's weight stored as int8 / uint8
/// (Fluid's ConvertToInt8Pass keeps frozen QAT weights so) read as float32
/// through a pd.cast, which is exact and which the constant folder folds;
/// any other value unchanged.
Value Importer::integerWeightAsFloat(const pdp::OpDesc &op, StringRef slot, Value v, Location loc) {
  const WeightSlots *slots = weightSlots(op.type());
  bool isWeight = slots && slots->weight == slot;
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!isWeight || !t || !t.getElementType().isInteger(8) ||
      !v.getDefiningOp<ml_program::GlobalLoadConstOp>())
    return v;
  bool isUnsigned = t.getElementType().isUnsignedInteger();
  return createPd("cast", v,
                  {b.getNamedAttr("in_dtype", b.getI32IntegerAttr(isUnsigned ? pdp::VarType::UINT8
                                                                             : pdp::VarType::INT8)),
                   b.getNamedAttr("out_dtype", b.getI32IntegerAttr(pdp::VarType::FP32))},
                  loc);
}

namespace {
/// A float or float-list attribute's values (none when absent).
std::vector<double> attrFloats(const pdp::OpDesc &op, StringRef name) {
  const pdp::OpDesc::Attr *a = findAttr(op, name);
  if (!a)
    return {};
  switch (a->type()) {
  case pdp::FLOAT:
    return {a->f()};
  case pdp::FLOAT64:
    return {a->float64()};
  case pdp::FLOATS:
    return std::vector<double>(a->floats().begin(), a->floats().end());
  case pdp::FLOAT64S:
    return std::vector<double>(a->float64s().begin(), a->float64s().end());
  default:
    return {};
  }
}
} // namespace

/// The weight of an `enable_int8` op stored as integers (Paddle-Lite keeps
/// them so) in real units: the float32 values `asFloat` of the integers
/// times the per-output-channel steps of `weight_scale` (Lite 2.6 and
/// before) or `<Slot>0_scale` (later Lite), multiplied by a pd op the
/// constant folder folds. A float weight holds real values already (Paddle
/// Inference's quant_conv2d_dequant_fuse_pass multiplies them out) and is
/// returned as it is.
FailureOr<Value> Importer::int8AttrWeight(const pdp::OpDesc &op, int index, StringRef slot,
                                          Value stored, Value asFloat, Location loc) {
  const WeightSlots *s = int8Slots(op);
  auto t = dyn_cast<RankedTensorType>(stored.getType());
  if (!s || slot != s->weight || !t || !t.getElementType().isInteger())
    return asFloat;
  std::string named = (s->weight + "0_scale").str();
  std::vector<double> steps = attrFloats(op, "weight_scale");
  if (steps.empty())
    steps = attrFloats(op, named);
  std::string where = "op '" + op.type() + "' #" + std::to_string(index);
  if (!t.getElementType().isInteger(8))
    return fail(loc, where + " has enable_int8 and stores " + s->weight.str() + " as " +
                         std::to_string(t.getElementTypeBitWidth()) +
                         "-bit integers; only 8-bit integer weights are supported");
  if (steps.empty())
    return fail(loc, where + " has enable_int8 and integer " + s->weight.str() +
                         " values, but no weight_scale or " + named +
                         " attribute to give their real values");
  int64_t channels = t.getRank() > s->axis ? t.getDimSize(s->axis) : ShapedType::kDynamic;
  if (steps.size() != 1 && static_cast<int64_t>(steps.size()) != channels)
    return fail(loc, where + " has " + std::to_string(steps.size()) + " weight scales for " +
                         std::to_string(channels) + " output channels of " + s->weight.str());
  SmallVector<float> f(steps.begin(), steps.end());
  for (float v : f)
    if (!(v > 0) || !std::isfinite(v))
      return fail(loc, where + " has a weight scale of " + std::to_string(v) +
                           " (weight scales are positive)");
  Value scales =
      createPd("assign_value", {},
               {b.getNamedAttr("shape", b.getDenseI32ArrayAttr({static_cast<int32_t>(f.size())})),
                b.getNamedAttr("dtype", b.getI32IntegerAttr(pdp::VarType::FP32)),
                b.getNamedAttr("fp32_values", b.getDenseF32ArrayAttr(f))},
               loc);
  return createPd("elementwise_mul", {asFloat, scales},
                  {b.getNamedAttr("axis", b.getI32IntegerAttr(
                                              f.size() == 1 ? -1 : static_cast<int32_t>(s->axis)))},
                  loc);
}

/// What an op's int8 attributes say, as discardable attributes pd-int8-attributes
/// reads under --precision int8 (docs/Quantization.md): `pd.int8` on an
/// `enable_int8` convolution or matrix product ("", or "bit_length N" for
/// another width than 8), `pd.int8_input_threshold` its input's threshold
/// (abs max) whichever attribute gave it, and `pd.out_threshold` on any op
/// with Paddle's `out_threshold` (its first result's abs max). The exporter
/// writes them back (Input_scale, out_threshold).
void Importer::recordInt8Attrs(const pdp::OpDesc &op, Operation *created) {
  std::vector<double> out = attrFloats(op, "out_threshold");
  if (out.size() == 1 && created->getNumResults() > 0)
    created->setAttr("pd.out_threshold", b.getF32FloatAttr(static_cast<float>(out[0])));
  const WeightSlots *s = int8Slots(op);
  if (!s)
    return;
  const pdp::OpDesc::Attr *bits = findAttr(op, "bit_length");
  if (bits && bits->i() != 8) {
    created->setAttr("pd.int8", b.getStringAttr("bit_length " + std::to_string(bits->i())));
    return;
  }
  // Paddle Inference writes the threshold; Paddle-Lite the step
  // (threshold / 127), as a float or a one-element list.
  std::string named = (s->input + "0_scale").str();
  std::pair<StringRef, double> sources[] = {
      {"Input_scale", 1.0}, {"input_scale", 127.0}, {named, 127.0}};
  for (auto [name, factor] : sources) {
    std::vector<double> v = attrFloats(op, name);
    if (v.size() != 1)
      continue;
    created->setAttr("pd.int8", b.getStringAttr(""));
    created->setAttr("pd.int8_input_threshold",
                     b.getF32FloatAttr(static_cast<float>(v[0] * factor)));
    return;
  }
  created->setAttr("pd.int8", b.getStringAttr(""));
}

OwningOpRef<ModuleOp> Importer::run() {
  std::string bytes, error;
  if (!pdfmt::readFile(files.program, bytes, error)) {
    emitError(fileLoc()) << error;
    return nullptr;
  }
  if (!pdfmt::parseProgram(bytes.data(), bytes.size(), program, error)) {
    emitError(fileLoc()) << "cannot read Paddle program '" << files.program << "': " << error;
    return nullptr;
  }
  const pdp::BlockDesc &block = program.blocks(0);
  // Every block's variables: a while's sub-block declares its temporaries
  // (block 0's declaration wins for a name declared twice).
  for (const pdp::BlockDesc &b : program.blocks())
    for (const auto &v : b.vars())
      vars.emplace(v.name(), &v);

  // Feeds and fetches, by column.
  std::map<int, std::string> feeds, fetches;
  std::set<std::string> feedTargets;
  for (int i = 0; i < block.ops_size(); ++i) {
    const auto &op = block.ops(i);
    for (const auto &a : op.attrs())
      if ((a.type() == pdp::BLOCK || a.type() == pdp::BLOCKS) && op.type() != "while" &&
          op.type() != "conditional_block") {
        emitError(opLoc(op, i)) << "op '" << op.type() << "' #" << i
                                << " has a sub-block (control flow), which paddle-mlir does not "
                                   "support yet";
        return nullptr;
      }
    if (op.type() != "feed" && op.type() != "fetch")
      continue;
    const auto *col = findAttr(op, "col");
    bool isFeed = op.type() == "feed";
    const auto *slot = findSlot(isFeed ? op.outputs() : op.inputs(), isFeed ? "Out" : "X");
    if (!col || !slot || slot->arguments_size() != 1) {
      emitError(opLoc(op, i)) << "malformed '" << op.type() << "' op #" << i
                              << " (needs a 'col' attribute and one variable)";
      return nullptr;
    }
    auto &table = isFeed ? feeds : fetches;
    if (!table.emplace(col->i(), slot->arguments(0)).second) {
      emitError(opLoc(op, i)) << "two '" << op.type() << "' ops use col " << col->i();
      return nullptr;
    }
    if (isFeed)
      feedTargets.insert(slot->arguments(0));
  }
  if (feeds.empty() || fetches.empty()) {
    emitError(fileLoc()) << "program has no feed or no fetch ops; only inference programs "
                            "(saved with save_inference_model) can be imported";
    return nullptr;
  }

  // Parameters: persistable tensors that are not feed targets, in byte-wise
  // sorted name order (the order of combined params files).
  std::vector<const pdp::VarDesc *> params;
  for (const auto &[name, var] : vars) {
    if (!var->persistable() || feedTargets.count(name))
      continue;
    auto t = var->type().type();
    if (t == pdp::VarType::FEED_MINIBATCH || t == pdp::VarType::FETCH_LIST ||
        t == pdp::VarType::RAW)
      continue;
    params.push_back(var);
  }

  module = ModuleOp::create(fileLoc());
  OwningOpRef<ModuleOp> owned(module);
  if (failed(loadParams(params)))
    return nullptr;

  // A LoD feed (lod_level 1: a batch of variable-length sequences, rows
  // packed along dim 0) takes its sequence lengths as one more argument
  // right after it: NAME@lengths, int64 [N], marked pd.lod_of = NAME.
  SmallVector<Type> argTypes;
  SmallVector<Attribute> argAttrs;
  SmallVector<bool> isLengths;
  for (const auto &[col, name] : feeds) {
    auto it = vars.find(name);
    if (it == vars.end()) {
      emitError(fileLoc()) << "feed target '" << name << "' has no VarDesc";
      return nullptr;
    }
    auto type = varType(*it->second, fileLoc());
    if (failed(type))
      return nullptr;
    argTypes.push_back(*type);
    argAttrs.push_back(b.getDictionaryAttr(b.getNamedAttr("pd.name", b.getStringAttr(name))));
    isLengths.push_back(false);
    int lodLevel =
        it->second->type().has_lod_tensor() ? it->second->type().lod_tensor().lod_level() : 0;
    if (lodLevel > 1) {
      emitError(fileLoc()) << "feed '" << name << "' has LoD level " << lodLevel
                           << "; only level-1 sequences (one lengths list) are supported yet";
      return nullptr;
    }
    if (lodLevel == 1) {
      argTypes.push_back(RankedTensorType::get({ShapedType::kDynamic}, b.getI64Type()));
      argAttrs.push_back(
          b.getDictionaryAttr({b.getNamedAttr("pd.name", b.getStringAttr(name + "@lengths")),
                               b.getNamedAttr("pd.lod_of", b.getStringAttr(name))}));
      isLengths.push_back(true);
    }
  }
  b.setInsertionPointToEnd(module.getBody());
  func = func::FuncOp::create(b, fileLoc(), "main", b.getFunctionType(argTypes, {}));
  func.setAllArgAttrs(argAttrs);
  Block *entry = func.addEntryBlock();
  {
    unsigned arg = 0;
    for (const auto &feed : feeds) {
      Value data = entry->getArgument(arg++);
      env[feed.second] = data;
      if (arg < isLengths.size() && isLengths[arg])
        lodLengths[data] = entry->getArgument(arg++);
    }
  }
  b.setInsertionPointToEnd(entry);

  if (failed(importBlock(0)))
    return nullptr;

  SmallVector<Value> results;
  SmallVector<Attribute> resAttrs;
  for (const auto &[col, name] : fetches) {
    auto it = env.find(name);
    if (it == env.end()) {
      // Name the op that writes it: an output slot pd leaves out (an
      // auxiliary output Paddle keeps for training, such as layer_norm's
      // Mean and Variance) is never computed.
      const pdp::BlockDesc &block = program.blocks(0);
      for (int i = 0; i < block.ops_size(); ++i)
        for (const pdp::OpDesc::Var &v : block.ops(i).outputs())
          if (llvm::is_contained(v.arguments(), name)) {
            emitError(fileLoc()) << "fetch target '" << name << "' is output '" << v.parameter()
                                 << "' of op '" << block.ops(i).type() << "' #" << i
                                 << ", which paddle-mlir does not compute (an output kept for "
                                    "training); fetch another variable";
            return nullptr;
          }
      emitError(fileLoc()) << "fetch target '" << name << "' is not computed by the program";
      return nullptr;
    }
    results.push_back(it->second);
    resAttrs.push_back(b.getDictionaryAttr(b.getNamedAttr("pd.name", b.getStringAttr(name))));
  }
  func::ReturnOp::create(b, fileLoc(), results);
  func.setFunctionType(b.getFunctionType(argTypes, ValueRange(results).getTypes()));
  func.setAllResultAttrs(resAttrs);
  if (failed(verify(module)))
    return nullptr;
  return owned;
}
} // namespace mlir::pd::paddle_import

OwningOpRef<ModuleOp> mlir::pd::importPaddleModel(MLIRContext *ctx, StringRef model,
                                                  StringRef params) {
  ctx->loadDialect<PdDialect, func::FuncDialect, ml_program::MLProgramDialect>();
  paddle_import::ModelFiles files;
  if (failed(paddle_import::resolveFiles(ctx, model, params, files)))
    return nullptr;
  paddle_import::Importer importer(ctx, files);
  return importer.run();
}

void mlir::pd::registerPaddleImportDialects(DialectRegistry &registry) {
  registry.insert<PdDialect, func::FuncDialect, ml_program::MLProgramDialect>();
}

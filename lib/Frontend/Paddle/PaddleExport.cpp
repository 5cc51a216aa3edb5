//===- PaddleExport.cpp - pd module -> Paddle 2.x model files ------------===//

#include "PaddleMLIR/Frontend/Paddle/PaddleExport.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOpCatalog.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Frontend/Paddle/PaddleFormat.h"

#include "framework.pb.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <fstream>
#include <map>

namespace pdp = paddle::framework::proto;
using namespace mlir;
using namespace mlir::pd;
namespace pdfmt = paddle_mlir::format;

namespace {
int paddleDtype(Type t) {
  if (t.isF32())
    return pdp::VarType::FP32;
  if (t.isF16())
    return pdp::VarType::FP16;
  if (t.isBF16())
    return pdp::VarType::BF16;
  if (t.isF64())
    return pdp::VarType::FP64;
  if (auto i = dyn_cast<IntegerType>(t)) {
    if (i.getWidth() == 1)
      return pdp::VarType::BOOL;
    if (i.getWidth() == 8)
      return i.isUnsigned() ? pdp::VarType::UINT8 : pdp::VarType::INT8;
    if (i.isUnsigned()) // uint32 / uint64 (ONNX only): no Paddle VarType
      return -1;
    if (i.getWidth() == 16)
      return pdp::VarType::INT16;
    if (i.getWidth() == 32)
      return pdp::VarType::INT32;
    if (i.getWidth() == 64)
      return pdp::VarType::INT64;
  }
  return -1;
}

std::vector<std::string> splitList(StringRef s) {
  std::vector<std::string> out;
  SmallVector<StringRef> parts;
  s.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef p : parts)
    out.push_back(p.trim().str());
  return out;
}

/// Output variable names recorded by the importer in "type #i -> a, b".
std::vector<std::string> namesFromLoc(Location loc) {
  if (auto n = dyn_cast<NameLoc>(loc)) {
    StringRef s = n.getName().getValue();
    size_t arrow = s.find(" -> ");
    if (arrow != StringRef::npos)
      return splitList(s.drop_front(arrow + 4));
  }
  return {};
}

class Exporter {
public:
  Exporter(ModuleOp module) : module(module) {}
  LogicalResult run(StringRef dir, StringRef stem, std::vector<ExportedParameter> *written);

private:
  LogicalResult fail(Operation *op, const Twine &msg) {
    op->emitError(msg);
    return failure();
  }
  std::string fresh(StringRef base) {
    for (;;) {
      std::string n = (base + "_" + Twine(counter++) + ".tmp").str();
      if (!used.contains(n))
        return n;
    }
  }
  std::string claim(Value v, std::string want) {
    if (want.empty() || used.contains(want))
      want = fresh("tmp");
    used.insert(want);
    names[v] = want;
    return want;
  }
  pdp::VarDesc *addVar(const std::string &name, Type type, bool persistable = false);
  /// addVar for value `v`: a tensor array's variable where `v` is one.
  void addValueVar(const std::string &name, Value v);
  LogicalResult exportOp(Operation *op);
  LogicalResult exportRegionOp(Operation *op);
  void addAssign(const std::string &from, const std::string &to);
  LogicalResult addParameter(Operation *op, const std::string &name, ElementsAttr value);
  LogicalResult setAttr(Operation *op, pdp::OpDesc::Attr &a, PdAttrKind kind, Attribute value,
                        const char *deflt);
  void addAuxOutputs(Operation *op, pdp::OpDesc &desc);

  ModuleOp module;
  pdp::ProgramDesc program;
  pdp::BlockDesc *block = nullptr;
  llvm::DenseMap<Value, std::string> names;
  /// Variables declared so far (in any block): a tensor array written in
  /// place, or a loop's carried variable, is declared once.
  llvm::StringSet<> declared;
  /// The values that are tensor arrays (LOD_TENSOR_ARRAY variables).
  llvm::DenseSet<Value> arrays;
  /// The values that are DynamicRNN rank tables (LOD_RANK_TABLE variables).
  llvm::DenseSet<Value> rankTables;
  llvm::StringSet<> used;
  // name -> (record bytes, bytes of data that end the record), sorted.
  std::map<std::string, std::pair<std::string, size_t>> params;
  int counter = 0;
};

void Exporter::addValueVar(const std::string &name, Value v) {
  if (declared.contains(name))
    return;
  pdp::VarDesc *var = addVar(name, v.getType());
  if (rankTables.contains(v)) {
    var->mutable_type()->set_type(pdp::VarType::LOD_RANK_TABLE);
    var->mutable_type()->clear_lod_tensor();
    return;
  }
  if (!arrays.contains(v))
    return;
  // [N, element dims...] -> an array of elements.
  auto t = cast<RankedTensorType>(v.getType());
  auto *vt = var->mutable_type();
  vt->set_type(pdp::VarType::LOD_TENSOR_ARRAY);
  auto *td = vt->mutable_tensor_array()->mutable_tensor();
  td->set_data_type(vt->lod_tensor().tensor().data_type());
  for (int64_t d : t.getShape().drop_front())
    td->add_dims(ShapedType::isDynamic(d) ? -1 : d);
  vt->clear_lod_tensor();
}

pdp::VarDesc *Exporter::addVar(const std::string &name, Type type, bool persistable) {
  declared.insert(name);
  auto *var = block->add_vars();
  var->set_name(name);
  var->set_persistable(persistable);
  auto *vt = var->mutable_type();
  vt->set_type(pdp::VarType::LOD_TENSOR);
  auto *td = vt->mutable_lod_tensor()->mutable_tensor();
  auto t = cast<RankedTensorType>(type);
  td->set_data_type(static_cast<pdp::VarType::Type>(paddleDtype(t.getElementType())));
  for (int64_t d : t.getShape())
    td->add_dims(ShapedType::isDynamic(d) ? -1 : d);
  return var;
}

LogicalResult Exporter::addParameter(Operation *op, const std::string &name, ElementsAttr value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return fail(op, "cannot export parameter '" + name + "' of type " +
                        llvm::formatv("{0}", value.getType()).str() +
                        ": Paddle variables are ranked tensors");
  int dtype = paddleDtype(type.getElementType());
  if (dtype < 0 || pdfmt::elementSize(dtype) == 0)
    return fail(op, "cannot export a constant of element type " +
                        llvm::formatv("{0}", type.getElementType()).str());
  std::vector<int64_t> dims(type.getShape().begin(), type.getShape().end());
  std::string record;
  if (auto res = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = res.getRawHandle().getBlob();
    if (!blob)
      return fail(op, "parameter '" + name + "' has no data (its resource blob is missing)");
    ArrayRef<char> data = blob->getData();
    if (data.size() != static_cast<size_t>(type.getNumElements()) * pdfmt::elementSize(dtype))
      return fail(op, "parameter '" + name + "' holds " + Twine(data.size()) + " bytes, not the " +
                          Twine(type.getNumElements() * pdfmt::elementSize(dtype)) +
                          " its type needs");
    pdfmt::appendTensorRecord(record, dtype, dims, data.data(), data.size());
    params[name] = {std::move(record), data.size()};
  } else if (auto dense = dyn_cast<DenseIntOrFPElementsAttr>(value)) {
    ArrayRef<char> raw = dense.getRawData();
    std::string bytes;
    size_t elem = pdfmt::elementSize(dtype);
    if (dense.isSplat()) {
      for (int64_t i = 0; i < type.getNumElements(); ++i)
        bytes.append(raw.data(), elem);
    } else {
      bytes.assign(raw.data(), raw.size());
    }
    if (type.getElementType().isInteger(1)) // MLIR packs i1 as bits
      return fail(op, "cannot export a boolean constant");
    pdfmt::appendTensorRecord(record, dtype, dims, bytes.data(), bytes.size());
    params[name] = {std::move(record), bytes.size()};
  } else {
    return fail(op, "cannot export the value of parameter '" + name + "'");
  }
  addVar(name, type, /*persistable=*/true);
  return success();
}

/// The number spelled by a catalogue default (0 when it is not one; the
/// catalogue is generated, so that would be a generator bug, not an input).
static int64_t parseInt(StringRef s) {
  int64_t v = 0;
  return s.trim().getAsInteger(10, v) ? 0 : v;
}
static double parseFloat(StringRef s) {
  double v = 0;
  return s.trim().getAsDouble(v) ? 0.0 : v;
}

LogicalResult Exporter::setAttr(Operation *op, pdp::OpDesc::Attr &a, PdAttrKind kind,
                                Attribute value, const char *deflt) {
  StringRef text = deflt ? deflt : "";
  // A property whose attribute is not of the kind the catalogue names (an
  // enum, a nested array) is refused rather than cast blindly.
  auto wrong = [&]() {
    return fail(op, "attribute '" + a.name() + "' holds " + llvm::formatv("{0}", value).str() +
                        ", which this exporter cannot write as a Paddle attribute");
  };
  bool ok = true;
  auto ints = [&]() {
    std::vector<int64_t> v;
    if (auto arr = dyn_cast_or_null<DenseI32ArrayAttr>(value))
      v.assign(arr.asArrayRef().begin(), arr.asArrayRef().end());
    else if (auto arr = dyn_cast_or_null<DenseI64ArrayAttr>(value))
      v.assign(arr.asArrayRef().begin(), arr.asArrayRef().end());
    else if (value)
      ok = false;
    else
      for (const std::string &s : splitList(text))
        v.push_back(parseInt(s));
    return v;
  };
  auto intVal = [&]() -> int64_t {
    if (auto i = dyn_cast_or_null<IntegerAttr>(value))
      return i.getValue().getSExtValue();
    if (auto bv = dyn_cast_or_null<BoolAttr>(value))
      return bv.getValue();
    if (value)
      ok = false;
    return parseInt(text);
  };
  auto floatVal = [&]() -> double {
    if (auto f = dyn_cast_or_null<FloatAttr>(value))
      return f.getValueAsDouble();
    if (value)
      ok = false;
    return parseFloat(text);
  };
  switch (kind) {
  case PdAttrKind::Int:
    a.set_type(pdp::INT);
    a.set_i(static_cast<int32_t>(intVal()));
    break;
  case PdAttrKind::Long:
    a.set_type(pdp::LONG);
    a.set_l(intVal());
    break;
  case PdAttrKind::Bool:
    a.set_type(pdp::BOOLEAN);
    a.set_b(intVal() != 0);
    break;
  case PdAttrKind::Float:
    a.set_type(pdp::FLOAT);
    a.set_f(static_cast<float>(floatVal()));
    break;
  case PdAttrKind::Float64:
    a.set_type(pdp::FLOAT64);
    a.set_float64(floatVal());
    break;
  case PdAttrKind::String:
    a.set_type(pdp::STRING);
    if (auto str = dyn_cast_or_null<StringAttr>(value))
      a.set_s(str.getValue().str());
    else if (value)
      ok = false;
    else
      a.set_s(text.str());
    break;
  case PdAttrKind::Ints:
    a.set_type(pdp::INTS);
    for (int64_t v : ints())
      a.add_ints(static_cast<int32_t>(v));
    break;
  case PdAttrKind::Longs:
    a.set_type(pdp::LONGS);
    for (int64_t v : ints())
      a.add_longs(v);
    break;
  case PdAttrKind::Floats:
    a.set_type(pdp::FLOATS);
    if (auto arr = dyn_cast_or_null<DenseF32ArrayAttr>(value))
      for (float f : arr.asArrayRef())
        a.add_floats(f);
    else if (value)
      ok = false;
    else
      for (const std::string &s : splitList(text))
        a.add_floats(static_cast<float>(parseFloat(s)));
    break;
  case PdAttrKind::Strings:
    a.set_type(pdp::STRINGS);
    if (auto arr = dyn_cast_or_null<ArrayAttr>(value)) {
      for (Attribute s : arr) {
        auto str = dyn_cast<StringAttr>(s);
        if (!str)
          return wrong();
        a.add_strings(str.getValue().str());
      }
    } else if (value) {
      ok = false;
    } else {
      for (const std::string &s : splitList(text))
        a.add_strings(s);
    }
    break;
  }
  return ok ? success() : wrong();
}

/// Outputs Paddle's kernels expect but pd does not model.
void Exporter::addAuxOutputs(Operation *op, pdp::OpDesc &desc) {
  StringRef type = op->getName().stripDialect();
  // The ops below all have a result and an operand; any other op (e.g. a
  // fill_constant, which has no operand) has no auxiliary outputs.
  if (op->getNumResults() == 0 || op->getNumOperands() == 0)
    return;
  std::string out = names[op->getResult(0)];
  auto outSlot = [&](StringRef slot, const std::string &var) {
    auto *v = desc.add_outputs();
    v->set_parameter(slot.str());
    v->add_arguments(var);
  };
  auto inType = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!inType)
    return;
  if (llvm::is_contained({"reshape2", "transpose2", "squeeze2", "unsqueeze2", "flatten2",
                          "flatten_contiguous_range", "cross_entropy2"},
                         type)) {
    SmallVector<int64_t> dims{0};
    llvm::append_range(dims, inType.getShape());
    std::string name = out + ".xshape";
    addVar(name, RankedTensorType::get(dims, inType.getElementType()));
    outSlot("XShape", name);
  } else if (type == "batch_norm" && op->getNumOperands() >= 5) {
    outSlot("MeanOut", names[op->getOperand(3)]);
    outSlot("VarianceOut", names[op->getOperand(4)]);
    for (StringRef s : {"SavedMean", "SavedVariance"}) {
      std::string name = out + "." + s.lower();
      addVar(name, op->getOperand(1).getType());
      outSlot(s, name);
    }
  } else if (type == "dropout") {
    std::string name = out + ".mask";
    addVar(name, RankedTensorType::get(inType.getShape(), IntegerType::get(op->getContext(), 8,
                                                                           IntegerType::Unsigned)));
    outSlot("Mask", name);
  } else if (type == "layer_norm") {
    int64_t begin = cast<LayerNormOp>(op).getBeginNormAxis();
    int64_t rows = 1;
    for (int64_t d : inType.getShape().take_front(begin))
      rows =
          ShapedType::isDynamic(d) || ShapedType::isDynamic(rows) ? ShapedType::kDynamic : rows * d;
    for (StringRef s : {"Mean", "Variance"}) {
      std::string name = out + "." + s.lower();
      addVar(name, RankedTensorType::get({rows}, inType.getElementType()));
      outSlot(s, name);
    }
  }
}

/// The values a region op (pd.while, pd.conditional_block) starts its
/// variables from: the loop's inits, the block's defaults.
/// How many of a loop's carried values (a conditional block's results) are
/// LoD lengths the importer added (pd.lod_carried, after the variables): no
/// Paddle variables.
/// The int8 attributes the importer kept (pd.int8, pd.int8_input_threshold,
/// pd.out_threshold), in Paddle Inference's spelling.
/// The inverse of the importer's strided_slice rewrite: on a negative-stride
/// axis, an end that reaches past position 0 under pd's (Python's) rule is
/// Paddle's -1, and pd's -1 (which stops at d-1: nothing) is written as d-1
/// where the dim is static.
static void exportStridedSliceBounds(Operation *op, pdp::OpDesc &desc) {
  auto slice = dyn_cast<StridedSliceOp>(op);
  if (!slice || op->getNumOperands() != 1)
    return;
  auto x = cast<RankedTensorType>(slice.getInput().getType());
  ArrayRef<int32_t> axes = slice.getAxes(), strides = slice.getStrides();
  for (pdp::OpDesc::Attr &a : *desc.mutable_attrs()) {
    if (a.name() != "ends" || a.ints_size() != (int)axes.size() || strides.size() != axes.size())
      continue;
    for (size_t k = 0; k < axes.size(); ++k) {
      if (strides[k] >= 0)
        continue;
      int64_t axis = axes[k] < 0 ? axes[k] + x.getRank() : axes[k];
      int64_t d = x.getDimSize(axis);
      int64_t e = a.ints(k);
      if (e == INT32_MIN || (!ShapedType::isDynamic(d) && e < 0 && e + d < 0))
        a.set_ints(k, -1);
      else if (e == -1 && !ShapedType::isDynamic(d))
        a.set_ints(k, static_cast<int32_t>(d - 1));
    }
  }
}

static void addInt8Attrs(Operation *op, pdp::OpDesc &desc) {
  auto addFloat = [&](StringRef name, float v) {
    auto *a = desc.add_attrs();
    a->set_name(name.str());
    a->set_type(pdp::FLOAT);
    a->set_f(v);
  };
  if (auto t = op->getAttrOfType<FloatAttr>("pd.out_threshold"))
    addFloat("out_threshold", t.getValue().convertToFloat());
  auto asked = op->getAttrOfType<StringAttr>("pd.int8");
  if (!asked)
    return;
  auto *on = desc.add_attrs();
  on->set_name("enable_int8");
  on->set_type(pdp::BOOLEAN);
  on->set_b(true);
  int bits = 8;
  StringRef width = asked.getValue();
  if (width.consume_front("bit_length "))
    bits = static_cast<int>(parseInt(width));
  auto *length = desc.add_attrs();
  length->set_name("bit_length");
  length->set_type(pdp::INT);
  length->set_i(bits);
  if (auto t = op->getAttrOfType<FloatAttr>("pd.int8_input_threshold"))
    addFloat("Input_scale", t.getValue().convertToFloat());
}

static unsigned lodCarried(Operation *op) {
  auto n = op->getAttrOfType<IntegerAttr>("pd.lod_carried");
  return n ? static_cast<unsigned>(n.getInt()) : 0;
}

/// The values a region op's Paddle variables start from.
static OperandRange regionInits(Operation *op) {
  if (auto loop = dyn_cast<WhileOp>(op))
    return loop.getInits().drop_back(lodCarried(op));
  return cast<ConditionalBlockOp>(op).getDefaults().drop_back(lodCarried(op));
}

/// Whether region op `op` may write the variable it starts from `init`
/// straight into `init`'s variable: `init` is computed by an op, fed or
/// carried by an enclosing loop (not a parameter or constant), no second
/// slot starts from it, and nothing after `op` reads it. A conditional
/// block's body may read it (before writing it); a loop's may not (it
/// would read the variable of a later iteration).
static bool reusableInit(Value init, Operation *op) {
  Operation *def = init.getDefiningOp();
  if (def && isa<ml_program::GlobalLoadConstOp, arith::ConstantOp>(def))
    return false;
  if (llvm::count(regionInits(op), init) != 1)
    return false;
  bool bodyMayRead = isa<ConditionalBlockOp>(op);
  Block *block = op->getBlock();
  return llvm::all_of(init.getUsers(), [&](Operation *user) {
    Operation *top = block->findAncestorOpInBlock(*user);
    return top && (top == op ? user == op || bodyMayRead : top->isBeforeInBlock(op));
  });
}

void Exporter::addAssign(const std::string &from, const std::string &to) {
  auto *desc = block->add_ops();
  desc->set_type("assign");
  auto *x = desc->add_inputs();
  x->set_parameter("X");
  x->add_arguments(from);
  auto *out = desc->add_outputs();
  out->set_parameter("Out");
  out->add_arguments(to);
}

static void addSlot(google::protobuf::RepeatedPtrField<pdp::OpDesc::Var> *slots, StringRef param,
                    ArrayRef<std::string> args) {
  auto *v = slots->Add();
  v->set_parameter(param.str());
  for (const std::string &a : args)
    v->add_arguments(a);
}

/// A pd.while becomes Paddle's `while`, a pd.conditional_block Paddle's
/// conditional_block, each over a new sub-block. Each value the op starts
/// from and gives back is one variable: the init's own where nothing else
/// reads it (else a copy made before the op); the body's ops write their
/// results, and a yielded value that cannot be computed straight into its
/// variable is assigned to it at the end of the body, as Paddle's own
/// programs do.
LogicalResult Exporter::exportRegionOp(Operation *op) {
  bool isLoop = isa<WhileOp>(op);
  pdp::BlockDesc *outer = block;
  Block &body = op->getRegion(0).front();
  auto yield = cast<YieldOp>(body.getTerminator());
  OperandRange inits = regionInits(op);
  // The Paddle variables: the carried LoD lengths after them are left out.
  unsigned numVars = inits.size();
  ResultRange results = op->getResults().take_front(numVars);
  OperandRange yielded = yield.getValues().take_front(numVars);
  auto bodyArgs = body.getArguments().take_front(isLoop ? numVars : 0);
  SmallVector<std::string> vars;
  for (auto [init, result] : llvm::zip(inits, results)) {
    std::string name;
    if (reusableInit(init, op) && names.count(init)) {
      name = names[init];
      // The variable holds the result too: its VarDesc gets the dims that
      // differ (an empty placeholder's 0 rows, a loop's growing dim) as -1,
      // so the re-import does not take the init's sizes for the result's.
      auto rt = cast<RankedTensorType>(result.getType());
      for (pdp::VarDesc &var : *block->mutable_vars()) {
        if (var.name() != name || var.type().type() != pdp::VarType::LOD_TENSOR)
          continue;
        auto *dims = var.mutable_type()->mutable_lod_tensor()->mutable_tensor()->mutable_dims();
        for (int d = 0; d < dims->size() && d < rt.getRank(); ++d)
          if (rt.isDynamicDim(d))
            dims->Set(d, -1);
      }
    } else {
      name = fresh(isLoop ? "while_carried" : "conditional_out");
      used.insert(name);
      addValueVar(name, result);
      addAssign(names[init], name);
    }
    vars.push_back(name);
  }
  // Results named up front (fetch targets) get their value after the op.
  SmallVector<std::pair<OpResult, std::string>> after;
  for (auto [result, name] : llvm::zip(results, vars)) {
    auto it = names.find(result);
    if (it != names.end() && it->second != name)
      after.push_back({result, name});
    else
      names[result] = name;
  }

  block = program.add_blocks();
  block->set_idx(program.blocks_size() - 1);
  block->set_parent_idx(outer->idx());
  int bodyIdx = block->idx();
  // What the body reads as a variable's old value: the loop's block
  // arguments, the conditional block's defaults.
  SmallVector<Value> olds;
  for (auto [i, init] : llvm::enumerate(inits))
    olds.push_back(isLoop ? Value(body.getArgument(i)) : Value(init));
  if (isLoop)
    for (auto [arg, name] : llvm::zip(bodyArgs, vars))
      names[arg] = name;
  // A yielded value computed in the body writes its variable directly when
  // no later op of the body still reads the variable's old value; so does
  // the value a nested loop or conditional block that computes it starts
  // from (the nested op then writes that variable too).
  auto computedHere = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return def && def->getBlock() == &body && !names.count(v) &&
           !isa<ml_program::GlobalLoadConstOp, arith::ConstantOp>(def);
  };
  for (auto [i, v] : llvm::enumerate(yielded)) {
    if (!computedHere(v) || llvm::count(yielded, v) != 1)
      continue;
    auto oldReadAfter = [&, i = i](Operation *def) {
      return llvm::any_of(olds[i].getUsers(), [&](Operation *user) {
        Operation *top = body.findAncestorOpInBlock(*user);
        return top && top != def && def->isBeforeInBlock(top);
      });
    };
    for (Value cur = v; computedHere(cur) && !oldReadAfter(cur.getDefiningOp());) {
      names[cur] = vars[i];
      Operation *def = cur.getDefiningOp();
      if (!isa<WhileOp, ConditionalBlockOp>(def))
        break;
      Value init = regionInits(def)[cast<OpResult>(cur).getResultNumber()];
      if (!reusableInit(init, def))
        break;
      cur = init;
    }
  }
  for (Operation &nested : body.without_terminator())
    if (failed(exportOp(&nested)))
      return failure();
  for (auto [v, name] : llvm::zip(yielded, vars))
    if (names[v] != name)
      addAssign(names[v], name);
  block = outer;

  // What the body reads from outside (a loop's carried variables first).
  SmallVector<std::string> reads;
  auto read = [&](const std::string &n) {
    if (!llvm::is_contained(reads, n))
      reads.push_back(n);
  };
  if (isLoop)
    for (const std::string &n : vars)
      read(n);
  op->getRegion(0).walk([&](Operation *nested) {
    for (Value v : nested->getOperands())
      if (!op->getRegion(0).isAncestor(v.getParentRegion()) && names.count(v))
        read(names[v]);
  });
  auto *desc = block->add_ops();
  desc->set_type(isLoop ? "while" : "conditional_block");
  std::string scopes = fresh(isLoop ? "while_scopes" : "conditional_scope");
  used.insert(scopes);
  auto *scopesVar = block->add_vars();
  scopesVar->set_name(scopes);
  scopesVar->mutable_type()->set_type(pdp::VarType::STEP_SCOPES);
  if (isLoop) {
    addSlot(desc->mutable_inputs(), "X", reads);
    addSlot(desc->mutable_inputs(), "Condition", vars[0]);
    addSlot(desc->mutable_outputs(), "Out", vars);
    addSlot(desc->mutable_outputs(), "StepScopes", scopes);
  } else {
    auto cb = cast<ConditionalBlockOp>(op);
    SmallVector<std::string> conds;
    for (Value c : cb.getConds())
      conds.push_back(names[c]);
    addSlot(desc->mutable_inputs(), "Cond", conds);
    addSlot(desc->mutable_inputs(), "Input", reads);
    addSlot(desc->mutable_outputs(), "Out", vars);
    addSlot(desc->mutable_outputs(), "Scope", scopes);
  }
  auto *subBlock = desc->add_attrs();
  subBlock->set_name("sub_block");
  subBlock->set_type(pdp::BLOCK);
  subBlock->set_block_idx(bodyIdx);
  auto *flag = desc->add_attrs();
  flag->set_type(pdp::BOOLEAN);
  if (isLoop) {
    flag->set_name("is_test");
    flag->set_b(true);
  } else {
    flag->set_name("is_scalar_condition");
    flag->set_b(cast<ConditionalBlockOp>(op).getIsScalarCondition());
  }
  for (const auto &[result, from] : after) {
    addValueVar(names[result], result);
    addAssign(from, names[result]);
  }
  return success();
}

LogicalResult Exporter::exportOp(Operation *op) {
  // What the importer added to carry LoD lengths: Paddle keeps them as the
  // LoD of the variables.
  if (op->hasAttr("pd.lod"))
    return success();
  if (isa<WhileOp, ConditionalBlockOp>(op))
    return exportRegionOp(op);
  if (auto load = dyn_cast<ml_program::GlobalLoadConstOp>(op)) {
    names[load.getResult()] = load.getGlobal().getLeafReference().str();
    return success();
  }
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    auto value = dyn_cast<ElementsAttr>(cst.getValue());
    if (!value)
      return fail(op, "cannot export a non-tensor constant");
    std::string name = claim(cst.getResult(), fresh("constant"));
    return addParameter(op, name, value);
  }
  if (isa<func::ReturnOp>(op))
    return success();
  // An empty tensor array is a declared variable (Fluid's create_array).
  if (auto fill = dyn_cast<FillConstantOp>(op); fill && arrays.contains(fill.getResult())) {
    std::vector<std::string> locNames = namesFromLoc(op->getLoc());
    std::string name = names.count(fill.getResult())
                           ? names[fill.getResult()]
                           : claim(fill.getResult(), locNames.empty() ? "" : locNames[0]);
    addValueVar(name, fill.getResult());
    return success();
  }
  if (op->getDialect() == nullptr || op->getDialect()->getNamespace() != "pd")
    return fail(op, "cannot export '" + op->getName().getStringRef() + "' to a Paddle program");
  StringRef type = op->getName().stripDialect();
  const PdOpSpec *spec = lookupPdOpSpec(type);
  if (!spec)
    return fail(op, "pd op '" + type + "' has no catalogue entry");

  // write_to_array updates its array in place: the result is the array's
  // own variable where nothing after reads the old array, else a copy's.
  if (auto write = dyn_cast<WriteToArrayOp>(op); write && write.getArray()) {
    Value prev = write.getArray();
    Block *at = op->getBlock();
    bool inPlace = names.count(prev) &&
                   !isa_and_nonnull<ml_program::GlobalLoadConstOp>(prev.getDefiningOp()) &&
                   llvm::all_of(prev.getUsers(), [&](Operation *user) {
                     Operation *top = at->findAncestorOpInBlock(*user);
                     return top && (top == op || top->isBeforeInBlock(op));
                   });
    if (!names.count(write.getResult())) {
      if (inPlace)
        names[write.getResult()] = names[prev];
      else
        claim(write.getResult(), fresh("array"));
    }
    if (names[write.getResult()] != names[prev])
      addAssign(names[prev], names[write.getResult()]);
  }

  auto *desc = block->add_ops();
  desc->set_type(type.str());

  // Operand groups per slot: from operandSegmentSizes, or 1 per required slot
  // with the rest going to the one optional/list slot.
  SmallVector<int64_t> sizes;
  if (auto seg = dyn_cast_or_null<DenseI32ArrayAttr>(
          op->getInherentAttr("operandSegmentSizes").value_or(Attribute()))) {
    sizes.assign(seg.asArrayRef().begin(), seg.asArrayRef().end());
  } else {
    int64_t required = llvm::count_if(
        spec->inputs, [](const PdSlotSpec &s) { return s.arity == PdSlotArity::Required; });
    for (const PdSlotSpec &s : spec->inputs)
      sizes.push_back(s.arity == PdSlotArity::Required ? 1 : op->getNumOperands() - required);
  }
  int64_t grouped = 0;
  for (int64_t n : sizes)
    grouped += n;
  if (sizes.size() != spec->inputs.size() || grouped != op->getNumOperands() ||
      llvm::any_of(sizes, [](int64_t n) { return n < 0; }))
    return fail(op, "operands do not fit the " + Twine(spec->inputs.size()) +
                        " input slots of Paddle's '" + type + "' (" + Twine(op->getNumOperands()) +
                        " operands)");
  unsigned idx = 0;
  for (auto [slot, n] : llvm::zip(spec->inputs, sizes)) {
    if (isLodSlot(slot.name)) {
      idx += n; // the lengths travel as the LoD of the feed they come from
      continue;
    }
    if (isa<WriteToArrayOp>(op) && slot.name == StringRef("Array")) {
      idx += n; // Paddle writes the Out array in place
      continue;
    }
    if (n == 0)
      continue;
    auto *v = desc->add_inputs();
    v->set_parameter(slot.name);
    for (int64_t i = 0; i < n; ++i)
      v->add_arguments(names[op->getOperand(idx++)]);
  }

  // The lengths of a LoD the op creates (its last result) are no Paddle
  // variable: Paddle keeps them as Out's LoD.
  bool lodResult = !spec->outputs.empty() && isLodResultSlot(spec->outputs.back().name);
  unsigned paddleResults = op->getNumResults() - (lodResult ? 1 : 0);
  std::vector<std::string> locNames = namesFromLoc(op->getLoc());
  for (auto [i, r] : llvm::enumerate(op->getResults().take_front(paddleResults))) {
    auto it = names.find(r);
    if (it != names.end()) { // a fetch target named up front
      addValueVar(it->second, r);
      continue;
    }
    std::string want = i < locNames.size() ? locNames[i] : "";
    if (want.empty())
      want = fresh(type);
    addValueVar(claim(r, want), r);
  }
  // Result groups per slot: from resultSegmentSizes, or 1 per fixed slot
  // with the rest going to the one list slot.
  int64_t fixedOuts = llvm::count_if(
      spec->outputs, [](const PdSlotSpec &s) { return s.arity != PdSlotArity::List; });
  auto outSeg = dyn_cast_or_null<DenseI32ArrayAttr>(
      op->getInherentAttr("resultSegmentSizes").value_or(Attribute()));
  if (outSeg && outSeg.size() != (int64_t)spec->outputs.size())
    return fail(op, "resultSegmentSizes does not fit the " + Twine(spec->outputs.size()) +
                        " output slots of Paddle's '" + type + "'");
  unsigned ridx = 0;
  for (auto [i, slot] : llvm::enumerate(spec->outputs)) {
    int64_t n = outSeg                            ? outSeg[i]
                : slot.arity == PdSlotArity::List ? op->getNumResults() - fixedOuts
                                                  : 1;
    if ((outSeg && n == 0) || isLodResultSlot(slot.name))
      continue;
    auto *v = desc->add_outputs();
    v->set_parameter(slot.name);
    for (int64_t i = 0; i < n && ridx < op->getNumResults(); ++i)
      v->add_arguments(names[op->getResult(ridx++)]);
  }
  addAuxOutputs(op, *desc);

  for (const PdAttrSpec &as : spec->attrs) {
    Attribute value = op->getInherentAttr(as.name).value_or(Attribute());
    if (!value && !as.defaultValue)
      return fail(op, "required attribute '" + Twine(as.name) + "' is missing");
    auto *a = desc->add_attrs();
    a->set_name(as.name);
    if (failed(setAttr(op, *a, as.kind, value, as.defaultValue)))
      return failure();
  }
  addInt8Attrs(op, *desc);
  exportStridedSliceBounds(op, *desc);
  return success();
}

LogicalResult Exporter::run(StringRef dir, StringRef stem,
                            std::vector<ExportedParameter> *written) {
  auto funcs = llvm::to_vector(module.getOps<func::FuncOp>());
  func::FuncOp main;
  for (auto f : funcs)
    if (f.getSymName() == "main" || funcs.size() == 1)
      main = f;
  if (!main) {
    module.emitError("cannot export: the module has no @main function");
    return failure();
  }
  if (main.isExternal())
    return fail(main, "cannot export @" + main.getSymName() + ": it is a declaration (no body)");
  if (!main.getBody().hasOneBlock())
    return fail(main, "cannot export a function with control flow");
  // Every value needs a Paddle VarType: a ranked tensor (uint32 / uint64
  // from ONNX have none).
  auto noVarType = [&](Type t) {
    auto rt = dyn_cast<RankedTensorType>(t);
    return !rt || paddleDtype(rt.getElementType()) < 0;
  };
  for (BlockArgument arg : main.getArguments())
    if (noVarType(arg.getType()))
      return fail(main, "cannot export: argument #" + std::to_string(arg.getArgNumber()) +
                            " has type " + llvm::formatv("{0}", arg.getType()).str() +
                            ", which no Paddle VarType holds");
  WalkResult walk = main.walk([&](Operation *op) {
    for (Value r : op->getResults())
      if (noVarType(r.getType())) {
        (void)fail(op, "cannot export a result of type " + llvm::formatv("{0}", r.getType()).str() +
                           ", which no Paddle VarType holds");
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  block = program.add_blocks();
  block->set_idx(0);
  block->set_parent_idx(-1);
  program.mutable_version()->set_version(0);

  auto feedVar = block->add_vars();
  feedVar->set_name("feed");
  feedVar->set_persistable(true);
  feedVar->mutable_type()->set_type(pdp::VarType::FEED_MINIBATCH);
  auto fetchVar = block->add_vars();
  fetchVar->set_name("fetch");
  fetchVar->set_persistable(true);
  fetchVar->mutable_type()->set_type(pdp::VarType::FETCH_LIST);

  // Parameters: every global the program reads.
  for (auto global : module.getOps<ml_program::GlobalOp>()) {
    auto value = dyn_cast_or_null<ElementsAttr>(global.getValueAttr());
    if (!value)
      return fail(global, "global '" + global.getSymName() + "' has no tensor value");
    used.insert(global.getSymName());
    if (failed(addParameter(global, global.getSymName().str(), value)))
      return failure();
  }

  // Feeds, prepended in reverse col order as Paddle's save_inference_model does.
  // The sequence lengths of a LoD feed (pd.lod_of) are no feed of their
  // own: the feed's variable gets LoD level 1 instead.
  Block &body = main.getBody().front();
  SmallVector<BlockArgument> feedArgs;
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    if (main.getArgAttr(i, "pd.lod_of"))
      continue;
    auto nameAttr = main.getArgAttrOfType<StringAttr>(i, "pd.name");
    std::string name =
        claim(arg, nameAttr ? nameAttr.getValue().str() : "feed_" + std::to_string(i));
    pdp::VarDesc *var = addVar(name, arg.getType());
    if (i + 1 < body.getNumArguments() && main.getArgAttr(i + 1, "pd.lod_of"))
      var->mutable_type()->mutable_lod_tensor()->set_lod_level(1);
    feedArgs.push_back(arg);
  }
  for (int64_t i = feedArgs.size() - 1; i >= 0; --i) {
    auto *op = block->add_ops();
    op->set_type("feed");
    auto *x = op->add_inputs();
    x->set_parameter("X");
    x->add_arguments("feed");
    auto *out = op->add_outputs();
    out->set_parameter("Out");
    out->add_arguments(names[feedArgs[i]]);
    auto *col = op->add_attrs();
    col->set_name("col");
    col->set_type(pdp::INT);
    col->set_i(static_cast<int32_t>(i));
  }

  // A loop or conditional block writing a feed it may overwrite keeps it in the feed's
  // variable (Paddle programs fetch it under that name).
  main.walk([&](Operation *op) {
    if (isa<WhileOp, ConditionalBlockOp>(op))
      for (auto [init, result] : llvm::zip(regionInits(op), op->getResults()))
        if (isa<BlockArgument>(init) && names.count(init) && reusableInit(init, op))
          names[result] = names[init];
  });

  // Tensor arrays: what write_to_array and lod_tensor_to_array make, and
  // what loops, conditional blocks and assigns carry of it; rank tables
  // likewise from lod_rank_table.
  auto carried = [&](llvm::DenseSet<Value> &set, llvm::function_ref<bool(Operation *)> isSource) {
    for (bool changed = true; changed;) {
      changed = false;
      main.walk([&](Operation *op) {
        auto mark = [&](Value v) { changed |= set.insert(v).second; };
        if (isSource(op))
          mark(op->getResult(0));
        if (isa<AssignOp>(op) && set.contains(op->getOperand(0)))
          mark(op->getResult(0));
        if (isa<WhileOp, ConditionalBlockOp>(op))
          for (auto [i, init] : llvm::enumerate(regionInits(op)))
            if (set.contains(init) ||
                set.contains(
                    cast<YieldOp>(op->getRegion(0).front().getTerminator()).getValues()[i])) {
              mark(op->getResult(i));
              if (isa<WhileOp>(op))
                mark(op->getRegion(0).front().getArgument(i));
              // The importer's empty array for one declared without a value.
              if (init.getDefiningOp<FillConstantOp>() &&
                  cast<RankedTensorType>(init.getType()).getDimSize(0) == 0)
                mark(init);
            }
      });
    }
  };
  carried(arrays, [](Operation *op) { return isa<WriteToArrayOp, LodTensorToArrayOp>(op); });
  carried(rankTables, [](Operation *op) { return isa<LodRankTableOp>(op); });

  // Fetch targets keep their Paddle names even when the IR carries no
  // locations (e.g. it was printed without debug info).
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (auto [i, v] : llvm::enumerate(ret.getOperands()))
    if (auto nameAttr = main.getResultAttrOfType<StringAttr>(i, "pd.name"))
      if (!names.count(v) && v.getDefiningOp() &&
          !isa<ml_program::GlobalLoadConstOp>(v.getDefiningOp()))
        claim(v, nameAttr.getValue().str());

  // A loop or conditional block whose result is fetched keeps it in the fetch target's
  // variable from the start when its init may be written by the loop.
  main.walk([&](Operation *op) {
    if (isa<WhileOp, ConditionalBlockOp>(op))
      for (auto [init, result] : llvm::zip(regionInits(op), op->getResults()))
        if (names.count(result) && !names.count(init) && reusableInit(init, op))
          names[init] = names[result];
  });

  for (Operation &op : body)
    if (failed(exportOp(&op)))
      return failure();

  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    auto *op = block->add_ops();
    op->set_type("fetch");
    auto *x = op->add_inputs();
    x->set_parameter("X");
    x->add_arguments(names[v]);
    auto *out = op->add_outputs();
    out->set_parameter("Out");
    out->add_arguments("fetch");
    auto *col = op->add_attrs();
    col->set_name("col");
    col->set_type(pdp::INT);
    col->set_i(static_cast<int32_t>(i));
  }

  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    module.emitError("cannot create directory '" + dir + "': " + ec.message());
    return failure();
  }
  SmallString<256> modelPath(dir), paramsPath(dir);
  llvm::sys::path::append(modelPath, stem + ".pdmodel");
  llvm::sys::path::append(paramsPath, stem + ".pdiparams");
  std::string paramBytes;
  for (const auto &[name, entry] : params) {
    paramBytes += entry.first;
    if (written)
      written->push_back({name, paramBytes.size() - entry.second, entry.second});
  }
  std::ofstream m(modelPath.str().str(), std::ios::binary),
      p(paramsPath.str().str(), std::ios::binary);
  if (!m || !program.SerializeToOstream(&m) || !p ||
      !p.write(paramBytes.data(), static_cast<std::streamsize>(paramBytes.size()))) {
    module.emitError("cannot write '" + modelPath + "' and '" + paramsPath + "'");
    return failure();
  }
  return success();
}
} // namespace

LogicalResult mlir::pd::exportPaddleModel(ModuleOp module, StringRef dir, StringRef stem,
                                          std::vector<ExportedParameter> *written) {
  Exporter exporter(module);
  return exporter.run(dir, stem, written);
}

//===- Calibration.cpp - int8 candidate layers and calibrated quantizers -===//
//
// See include/PaddleMLIR/Dialect/Pd/Transforms/Calibration.h, and the pass
// descriptions of pd-observe-activations and pd-insert-quantizers.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Dialect/Pd/Transforms/Calibration.h"
#include "Constants.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

namespace mlir::pd {
#define GEN_PASS_DEF_PDOBSERVEACTIVATIONSPASS
#define GEN_PASS_DEF_PDINSERTQUANTIZERSPASS
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h.inc"

namespace {
bool isCandidate(Operation *op) {
  return isa<FusedConv2dOp, Conv2dOp, DepthwiseConv2dOp, FcOp, MulOp, MatmulOp, MatmulV2Op>(op) &&
         op->getNumOperands() > 0 && op->getNumResults() == 1 &&
         isa<RankedTensorType>(op->getOperand(0).getType()) &&
         cast<RankedTensorType>(op->getOperand(0).getType()).getElementType().isF32();
}

func::FuncOp mainOf(ModuleOp module) { return module.lookupSymbol<func::FuncOp>("main"); }

/// The float residual a fused convolution adds (ResNet's shortcut), which
/// calibration quantizes so the conv reads it as int8.
Value residualActivation(Operation *op) {
  auto c = dyn_cast<FusedConv2dOp>(op);
  Value r = c ? c.getResidualData() : Value();
  return r && cast<RankedTensorType>(r.getType()).getElementType().isF32() ? r : Value();
}

/// The right-hand side of a product of two activations (a matmul whose Y
/// is not a model constant), which the int8 product quantizes too.
Value secondActivation(Operation *op) {
  if (!isa<MatmulOp, MatmulV2Op>(op) || constantBytes(op->getOperand(1)))
    return Value();
  auto t = dyn_cast<RankedTensorType>(op->getOperand(1).getType());
  return t && t.getElementType().isF32() ? op->getOperand(1) : Value();
}

/// The Paddle variables in an op's location (a fused op has several).
SmallVector<std::string> variablesOf(Operation *op) {
  SmallVector<std::string> names;
  op->getLoc()->walk([&](Location l) {
    if (auto n = dyn_cast<NameLoc>(l)) {
      StringRef s = n.getName().getValue();
      size_t arrow = s.find(" -> ");
      if (arrow != StringRef::npos)
        names.push_back(s.substr(arrow + 4).str());
    }
    return WalkResult::advance();
  });
  return names;
}

} // namespace

std::string paddleVariableOf(Operation *op) {
  SmallVector<std::string> names = variablesOf(op);
  return names.empty() ? std::string() : names.front();
}

bool hasProgramQuantizer(Value activation) {
  Operation *def = activation.getDefiningOp();
  return def &&
         isa<FakeQuantizeDequantizeMovingAverageAbsMaxOp, DequantizeLinearOp, DequantizeOp>(def);
}

bool matchesOpPattern(Operation *op, ArrayRef<std::string> patterns) {
  if (patterns.empty())
    return false;
  std::string type = op->getName().stripDialect().str();
  SmallVector<std::string> names = variablesOf(op);
  for (const std::string &p : patterns) {
    llvm::Expected<llvm::GlobPattern> glob = llvm::GlobPattern::create(p);
    auto matches = [&](StringRef s) { return glob ? glob->match(s) : s == p; };
    if (!glob)
      llvm::consumeError(glob.takeError());
    if (matches(type) || llvm::any_of(names, matches))
      return true;
  }
  return false;
}

bool isFinalComputeOp(Operation *op) {
  // Nothing downstream of it (along any path, residual ones included) is
  // another layer with weights of its own; attention blocks and transposed
  // convolutions count as layers though they are not candidates.
  SmallVector<Value> work(op->getResults().begin(), op->getResults().end());
  llvm::DenseSet<Operation *> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isCandidate(user) ||
          isa<QuantizedConv2dOp, QuantizedFcOp, MultiheadMatmulOp, MatmulOp, Conv2dTransposeOp>(
              user))
        return false;
      if (seen.insert(user).second)
        work.append(user->getResults().begin(), user->getResults().end());
    }
  }
  return true;
}

SmallVector<QuantLayer> assignQuantLayers(ModuleOp module) {
  SmallVector<QuantLayer> layers;
  func::FuncOp main = mainOf(module);
  if (!main)
    return layers;
  Builder b(module.getContext());
  main.walk([&](Operation *op) {
    if (!isCandidate(op))
      return;
    int64_t id = static_cast<int64_t>(layers.size());
    op->setAttr("pd.layer", b.getI64IntegerAttr(id));
    layers.push_back({op, id, op->getOperand(0), secondActivation(op), residualActivation(op)});
  });
  return layers;
}

SmallVector<QuantLayer> collectQuantLayers(ModuleOp module) {
  SmallVector<QuantLayer> layers;
  if (func::FuncOp main = mainOf(module))
    main.walk([&](Operation *op) {
      auto id = op->getAttrOfType<IntegerAttr>("pd.layer");
      if (id && isCandidate(op))
        layers.push_back(
            {op, id.getInt(), op->getOperand(0), secondActivation(op), residualActivation(op)});
    });
  return layers;
}

llvm::DenseMap<Value, std::string> activationNames(ArrayRef<QuantLayer> layers) {
  llvm::DenseMap<Value, std::string> names;
  std::map<std::string, int> seen;
  SmallVector<Value> read;
  for (const QuantLayer &l : layers)
    llvm::append_range(read, l.tensors());
  for (Value v : read) {
    if (names.count(v))
      continue;
    std::string name;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto fn = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
      auto attr = fn ? fn.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "pd.name") : nullptr;
      name = attr ? attr.getValue().str() : "input_" + std::to_string(arg.getArgNumber());
    } else {
      Operation *def = v.getDefiningOp();
      name = paddleVariableOf(def);
      if (name.empty())
        name = def->getName().stripDialect().str() + ".out";
    }
    int n = ++seen[name];
    names[v] = n == 1 ? name : name + "#" + std::to_string(n);
  }
  return names;
}

Value quantizeDequantize(OpBuilder &b, Value v, float step, bool isUnsigned) {
  auto t = cast<RankedTensorType>(v.getType());
  Type element = isUnsigned ? Type(b.getIntegerType(8, /*isSigned=*/false)) : b.getI8Type();
  // Right after the tensor is defined, so it dominates every reader.
  OpBuilder::InsertionGuard guard(b);
  if (Operation *def = v.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
  auto q = QuantizeOp::create(b, v.getLoc(), RankedTensorType::get(t.getShape(), element), v,
                              b.getF32FloatAttr(step), b.getI32IntegerAttr(0),
                              b.getStringAttr(isUnsigned ? "uint8" : "int8"));
  return DequantizeOp::create(b, v.getLoc(), t, q.getResult(), b.getF32FloatAttr(step),
                              b.getI32IntegerAttr(0));
}

int64_t insertActivationQuantizers(ModuleOp module,
                                   const std::map<std::string, ActivationRange> &ranges,
                                   const std::map<int64_t, std::string> &fp32Layers) {
  SmallVector<QuantLayer> layers = collectQuantLayers(module);
  llvm::DenseMap<Value, std::string> names = activationNames(layers);
  OpBuilder b(module.getContext());
  int64_t inserted = 0;
  // One pair per tensor and signedness, however many layers read it, so a
  // producer whose readers are all quantized layers can write the int8
  // tensor itself.
  llvm::DenseMap<std::pair<Value, unsigned>, Value> shared;
  // Operand `index` of `l` (its activation, or the second one of a product
  // of two activations, which the int8 product takes signed) reads `v`
  // through a calibrated pair; false when `v` has no usable range.
  auto quantize = [&](OpOperand &operand, bool forceSigned) {
    Value v = operand.get();
    if (hasProgramQuantizer(v))
      return false; // a QAT program's own scale wins
    auto range = ranges.find(names[v]);
    if (range == ranges.end() || !(range->second.threshold > 0) ||
        !std::isfinite(range->second.threshold))
      return false;
    bool isUnsigned = range->second.isUnsigned && !forceSigned;
    Value &dq = shared[{v, isUnsigned ? 1u : 0u}];
    if (!dq) {
      float step = static_cast<float>(range->second.threshold / (isUnsigned ? 255.0 : 127.0));
      dq = quantizeDequantize(b, v, std::max(step, 1e-30f), isUnsigned);
      dq.getDefiningOp()->setAttr("pd.calibrated", b.getUnitAttr());
    }
    operand.set(dq);
    return true;
  };
  for (const QuantLayer &l : layers) {
    auto fallback = fp32Layers.find(l.id);
    if (fallback != fp32Layers.end()) {
      l.op->setAttr("pd.quant_fallback", b.getStringAttr(fallback->second));
      continue;
    }
    bool first = quantize(l.op->getOpOperand(0), false);
    if (l.second)
      quantize(l.op->getOpOperand(1), true);
    if (l.residual)
      for (OpOperand &o : l.op->getOpOperands())
        if (o.getOperandNumber() >= 2 && o.get() == l.residual) {
          quantize(o, false);
          break;
        }
    inserted += first;
  }
  return inserted;
}

void appendMainResults(ModuleOp module, ArrayRef<Value> values, ArrayRef<std::string> names) {
  func::FuncOp main = mainOf(module);
  if (!main || values.empty())
    return;
  auto ret = cast<func::ReturnOp>(main.getBody().back().getTerminator());
  SmallVector<Value> operands(ret.getOperands());
  SmallVector<Type> types(main.getResultTypes());
  unsigned first = static_cast<unsigned>(types.size());
  for (Value v : values) {
    operands.push_back(v);
    types.push_back(v.getType());
  }
  ret->setOperands(operands);
  main.setType(FunctionType::get(module.getContext(), main.getArgumentTypes(), types));
  for (size_t i = 0; i < names.size(); ++i)
    main.setResultAttr(first + static_cast<unsigned>(i), "pd.name",
                       StringAttr::get(module.getContext(), names[i]));
}

namespace {
struct PdObserveActivationsPass : impl::PdObserveActivationsPassBase<PdObserveActivationsPass> {
  void runOnOperation() override {
    SmallVector<QuantLayer> layers = assignQuantLayers(getOperation());
    llvm::DenseMap<Value, std::string> names = activationNames(layers);
    SmallVector<Value> values;
    SmallVector<std::string> resultNames;
    for (const QuantLayer &l : layers)
      for (Value v : l.tensors())
        if (!hasProgramQuantizer(v) && !llvm::is_contained(values, v)) {
          values.push_back(v);
          resultNames.push_back(names[v]);
        }
    appendMainResults(getOperation(), values, resultNames);
  }
};

struct PdInsertQuantizersPass : impl::PdInsertQuantizersPassBase<PdInsertQuantizersPass> {
  using PdInsertQuantizersPassBase::PdInsertQuantizersPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto fail = [&](const Twine &msg) {
      module.emitError("pd-insert-quantizers: '" + ranges + "': " + msg);
      signalPassFailure();
    };
    auto buffer = llvm::MemoryBuffer::getFile(ranges);
    if (!buffer)
      return fail("cannot read it: " + buffer.getError().message());
    llvm::Expected<llvm::json::Value> json = llvm::json::parse((*buffer)->getBuffer());
    if (!json)
      return fail("not JSON: " + llvm::toString(json.takeError()));
    const llvm::json::Object *root = json->getAsObject();
    const llvm::json::Object *tensors = root ? root->getObject("tensors") : nullptr;
    if (!tensors)
      return fail("no \"tensors\" object");
    std::map<std::string, ActivationRange> parsed;
    for (const auto &[key, value] : *tensors) {
      const llvm::json::Object *entry = value.getAsObject();
      std::optional<double> t = entry ? entry->getNumber("threshold") : std::nullopt;
      if (!t || !(*t > 0) || !std::isfinite(*t))
        return fail("tensor '" + key.str() + "' has no positive finite \"threshold\"");
      parsed[key.str()] = {*t, entry->getBoolean("unsigned").value_or(false)};
    }
    SmallVector<QuantLayer> layers = collectQuantLayers(module);
    if (layers.empty())
      layers = assignQuantLayers(module);
    llvm::DenseMap<Value, std::string> names = activationNames(layers);
    for (const auto &[name, range] : parsed)
      if (llvm::none_of(layers, [&, &name = name](const QuantLayer &l) {
            return llvm::any_of(l.tensors(), [&](Value v) { return names[v] == name; });
          }))
        return fail("tensor '" + name + "' is not the activation of any layer");
    std::map<int64_t, std::string> fp32;
    for (int64_t id : fp32Layers) {
      if (id < 0 || id >= static_cast<int64_t>(layers.size()))
        return fail("fp32-layers names layer " + Twine(id) + ", but the model has " +
                    Twine(layers.size()));
      fp32[id] = "fp32-layers";
    }
    insertActivationQuantizers(module, parsed, fp32);
  }
};
} // namespace
} // namespace mlir::pd

//===- Train.cpp - pd-append-loss, pd-append-backward, pd-append-optimizer ===//
//
// A train step as a rewrite of @main: the loss appended to the prediction,
// the gradients of the loss with respect to the parameters built by the
// ops' PdGradient rules, and an optimizer op per parameter whose result is
// stored back into the (now mutable) global (docs/Training.md).
//
//===----------------------------------------------------------------------===//

#include "../IR/Gradients/Rules.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdGradient.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Calibration.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/Builders.h"

namespace mlir::pd {
#define GEN_PASS_DEF_PDAPPENDLOSSPASS
#define GEN_PASS_DEF_PDAPPENDBACKWARDPASS
#define GEN_PASS_DEF_PDAPPENDOPTIMIZERPASS
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h.inc"

namespace {
constexpr StringLiteral kName = "pd.name", kGradOf = "pd.grad_of";

/// @main, or null after an error naming the pass.
func::FuncOp mainOf(ModuleOp module, StringRef pass) {
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main)
    module.emitError() << pass << ": the module has no @main function";
  return main;
}

/// Replaces @main's results by `values` with `attrs`.
void setResults(func::FuncOp main, ArrayRef<Value> values, ArrayRef<DictionaryAttr> attrs) {
  auto ret = cast<func::ReturnOp>(main.getBody().front().getTerminator());
  ret->setOperands(values);
  SmallVector<Type> types;
  for (Value v : values)
    types.push_back(v.getType());
  main.setFunctionType(
      FunctionType::get(main.getContext(), main.getBody().getArgumentTypes(), types));
  main.setAllResultAttrs(attrs);
}

DictionaryAttr named(Builder &b, StringRef name) {
  return b.getDictionaryAttr(b.getNamedAttr(kName, b.getStringAttr(name)));
}

bool isStatic(Type t) {
  auto r = dyn_cast<RankedTensorType>(t);
  return r && r.hasStaticShape();
}

//===----------------------------------------------------------------------===//
// pd-append-loss
//===----------------------------------------------------------------------===//

struct PdAppendLossPass : impl::PdAppendLossPassBase<PdAppendLossPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = mainOf(module, "pd-append-loss");
    if (!main)
      return signalPassFailure();
    if (lossOp != "softmax_with_cross_entropy") {
      main.emitError() << "pd-append-loss: unknown loss op '" << lossOp
                       << "' (expected softmax_with_cross_entropy)";
      return signalPassFailure();
    }
    auto ret = cast<func::ReturnOp>(main.getBody().front().getTerminator());
    int64_t index = output.empty() ? 0 : -1;
    for (unsigned i = 0; i < main.getNumResults() && index < 0; ++i)
      if (auto n = main.getResultAttrOfType<StringAttr>(i, kName); n && n.getValue() == output)
        index = i;
    if (index < 0 || index >= (int64_t)main.getNumResults()) {
      main.emitError() << "pd-append-loss: @main has no result named '" << output << "'";
      return signalPassFailure();
    }
    for (unsigned i = 0; i < main.getNumArguments(); ++i)
      if (auto n = main.getArgAttrOfType<StringAttr>(i, kName); n && n.getValue() == label) {
        main.emitError() << "pd-append-loss: @main already has an input named '" << label << "'";
        return signalPassFailure();
      }
    Value prediction = ret.getOperand(index);
    auto predType = dyn_cast<RankedTensorType>(prediction.getType());
    if (!predType || !isa<FloatType>(predType.getElementType()) || predType.getRank() < 1) {
      main.emitError() << "pd-append-loss: " << lossOp << " needs a float prediction of rank >= 1, "
                       << "got " << prediction.getType();
      return signalPassFailure();
    }
    OpBuilder b(ret);
    SmallVector<int64_t> labelShape(predType.getShape());
    labelShape.back() = 1;
    auto labelType = RankedTensorType::get(labelShape, b.getI64Type());
    unsigned argIndex = main.getNumArguments();
    if (failed(main.insertArgument(argIndex, labelType, named(b, label), main.getLoc())))
      return signalPassFailure();
    Value labelArg = main.getArgument(argIndex);
    Location loc = NameLoc::get(b.getStringAttr(lossOp), prediction.getLoc());
    auto lossType = RankedTensorType::get(labelShape, predType.getElementType());
    auto swce = SoftmaxWithCrossEntropyOp::create(b, loc, predType, lossType, prediction, labelArg,
                                                  false, -100, true, true, -1);
    auto mean = MeanOp::create(b, loc, RankedTensorType::get({1}, predType.getElementType()),
                               swce.getLoss());
    setResults(main, {mean.getResult()}, {named(b, "loss")});
  }
};

//===----------------------------------------------------------------------===//
// pd-append-backward
//===----------------------------------------------------------------------===//

/// Makes `global` mutable and its constant loads in `fn` plain loads, so no
/// pass folds the values a train step changes.
void makeMutable(ml_program::GlobalOp global, func::FuncOp fn) {
  global.setIsMutable(true);
  auto symbol = FlatSymbolRefAttr::get(global.getSymNameAttr());
  for (auto load : llvm::make_early_inc_range(fn.getBody().getOps<ml_program::GlobalLoadConstOp>()))
    if (load.getGlobal().getLeafReference() == global.getSymNameAttr()) {
      OpBuilder lb(load);
      auto mutableLoad =
          ml_program::GlobalLoadOp::create(lb, load.getLoc(), load.getType(), symbol);
      load.getResult().replaceAllUsesWith(mutableLoad.getResult());
      load.erase();
    }
}

/// batch_norm in training mode, as Paddle computes it: the batch's mean and
/// (biased) variance over every dim but the channel's normalize X; the
/// running statistics, when they are globals, become
/// momentum * running + (1 - momentum) * batch, stored back. As pd ops, so
/// the backward pass differentiates through the statistics.
LogicalResult decomposeBatchNorm(BatchNormOp bn, ModuleOp module, func::FuncOp fn) {
  if (bn.getUseGlobalStats())
    return success();
  auto xt = cast<RankedTensorType>(bn.getX().getType());
  if (!xt.hasStaticShape())
    return bn.emitError() << "pd-append-backward needs static shapes, but 'pd.batch_norm' has "
                          << xt << " (fix the input shapes, e.g. paddle-compile --input-shape)";
  int64_t rank = xt.getRank();
  int32_t channel = bn.getDataLayout() == "NHWC" ? static_cast<int32_t>(rank - 1) : 1;
  SmallVector<int32_t> dims;
  for (int32_t d = 0; d < rank; ++d)
    if (d != channel)
      dims.push_back(d);
  OpBuilder b(bn);
  GradientBuilder g(b, bn, {}, {});
  auto meanOf = [&](Value v) {
    return g.make<ReduceMeanOp>(v, b.getDenseI32ArrayAttr(dims), b.getBoolAttr(true),
                                b.getBoolAttr(false), b.getI32IntegerAttr(-1),
                                b.getI32IntegerAttr(-1));
  };
  double eps = bn.getEpsilon().convertToDouble(), momentum = bn.getMomentum().convertToDouble();
  Value x = bn.getX();
  Value mean = meanOf(x);
  Value centered = g.sub(x, mean);
  Value var = meanOf(g.make<SquareOp>(centered));
  Value normalized = g.div(centered, g.make<SqrtOp>(g.scale(var, 1.0, eps)));
  Value y = g.add(g.mul(normalized, bn.getScale(), channel), bn.getBias(), channel);
  bn.getY().replaceAllUsesWith(y);

  auto track = [&](Value running, Value batch) {
    auto load = running.getDefiningOp<ml_program::GlobalLoadConstOp>();
    if (!load)
      return;
    auto global = module.lookupSymbol<ml_program::GlobalOp>(load.getGlobal().getLeafReference());
    if (!global)
      return;
    OpBuilder eb(fn.getBody().front().getTerminator());
    GradientBuilder ge(eb, bn, {}, {});
    Value flat = ge.reshape(batch, shapeOf(running));
    Value updated = ge.add(ge.scale(running, momentum), ge.scale(flat, 1.0 - momentum));
    ml_program::GlobalStoreOp::create(eb, bn.getLoc(),
                                      FlatSymbolRefAttr::get(global.getSymNameAttr()), updated);
    global->setAttr("pd.stop_gradient", eb.getUnitAttr());
  };
  track(bn.getMean(), mean);
  track(bn.getVariance(), var);
  Value meanIn = bn.getMean(), varIn = bn.getVariance();
  bn.erase();
  for (Value v : {meanIn, varIn})
    if (auto load = v.getDefiningOp<ml_program::GlobalLoadConstOp>())
      if (auto global =
              module.lookupSymbol<ml_program::GlobalOp>(load.getGlobal().getLeafReference()))
        if (global->hasAttr("pd.stop_gradient"))
          makeMutable(global, fn);
  return success();
}

struct PdAppendBackwardPass : impl::PdAppendBackwardPassBase<PdAppendBackwardPass> {
  using Base::Base;

  /// The value `loss` names: a result of @main or a Paddle variable.
  Value findLoss(func::FuncOp main) {
    auto ret = cast<func::ReturnOp>(main.getBody().front().getTerminator());
    for (unsigned i = 0; i < main.getNumResults(); ++i)
      if (auto n = main.getResultAttrOfType<StringAttr>(i, kName); n && n.getValue() == loss)
        return ret.getOperand(i);
    Value found;
    main.walk([&](Operation *op) {
      if (!found && op->getNumResults() == 1 && isa<PdDialect>(op->getDialect()) &&
          paddleVariableOf(op) == loss)
        found = op->getResult(0);
    });
    return found;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = mainOf(module, "pd-append-backward");
    if (!main)
      return signalPassFailure();
    if (main.getBody().getBlocks().size() != 1) {
      main.emitError("pd-append-backward: @main must be one block (control flow is not "
                     "differentiated yet)");
      return signalPassFailure();
    }
    Block &block = main.getBody().front();
    // A train step computes batch_norm with the batch's statistics.
    SmallVector<BatchNormOp> norms(block.getOps<BatchNormOp>());
    for (BatchNormOp bn : norms)
      if (failed(decomposeBatchNorm(bn, module, main)))
        return signalPassFailure();
    Value lossValue = findLoss(main);
    if (!lossValue) {
      main.emitError() << "pd-append-backward: no result or variable named '" << loss << "'";
      return signalPassFailure();
    }
    auto lossType = dyn_cast<RankedTensorType>(lossValue.getType());
    if (!lossType || !lossType.hasStaticShape() || lossType.getNumElements() != 1 ||
        !isa<FloatType>(lossType.getElementType())) {
      main.emitError() << "pd-append-backward: the loss '" << loss
                       << "' must be a float tensor of one element, got " << lossValue.getType();
      return signalPassFailure();
    }

    // The parameters, and the values that depend on them.
    DenseMap<Value, StringAttr> paramOf;
    DenseSet<Value> dependent;
    for (Operation &op : block) {
      if (auto load = dyn_cast<ml_program::GlobalLoadConstOp>(op)) {
        auto global =
            module.lookupSymbol<ml_program::GlobalOp>(load.getGlobal().getLeafReference());
        auto t = dyn_cast<RankedTensorType>(load.getType());
        if (global && t && isa<FloatType>(t.getElementType()) &&
            !global->hasAttr("pd.stop_gradient")) {
          paramOf[load.getResult()] = global.getSymNameAttr();
          dependent.insert(load.getResult());
        }
        continue;
      }
      if (llvm::any_of(op.getOperands(), [&](Value v) { return dependent.contains(v); }))
        for (Value r : op.getResults())
          dependent.insert(r);
    }

    auto ret = cast<func::ReturnOp>(block.getTerminator());
    OpBuilder b(ret);
    DenseMap<Value, Value> grads;
    auto accumulate = [&](Value v, Value g) {
      Value &slot = grads[v];
      slot =
          slot ? ElementwiseAddOp::create(b, g.getLoc(), v.getType(), slot, g, -1).getResult() : g;
    };
    grads[lossValue] = FillAnyLikeOp::create(b, lossValue.getLoc(), lossType, lossValue,
                                             b.getF32FloatAttr(1.0f), b.getI32IntegerAttr(-1));

    // Reverse program order is a reverse topological order in one block.
    SmallVector<Operation *> forward;
    for (Operation &op : block)
      if (&op != ret.getOperation())
        forward.push_back(&op);
    for (Operation *op : llvm::reverse(forward)) {
      if (isa<ml_program::GlobalLoadConstOp>(op))
        continue;
      SmallVector<Value> resultGrads;
      bool any = false;
      for (Value r : op->getResults()) {
        Value g = grads.lookup(r);
        resultGrads.push_back(g);
        any |= static_cast<bool>(g);
      }
      SmallVector<bool> needed;
      bool anyNeeded = false;
      for (Value v : op->getOperands()) {
        auto t = dyn_cast<RankedTensorType>(v.getType());
        bool need = dependent.contains(v) && t && isa<FloatType>(t.getElementType());
        needed.push_back(need);
        anyNeeded |= need;
      }
      if (!any || !anyNeeded)
        continue;
      for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
        if (!isStatic(v.getType())) {
          op->emitError() << "pd-append-backward needs static shapes, but '" << op->getName()
                          << "' has a value of type " << v.getType()
                          << " (fix the input shapes, e.g. paddle-compile --input-shape)";
          return signalPassFailure();
        }
      auto rule = dyn_cast<PdGradient>(op);
      if (!rule) {
        op->emitError() << "no gradient rule for '" << op->getName()
                        << "', which lies between the parameters and the loss '" << loss << "'";
        return signalPassFailure();
      }
      GradientBuilder gb(b, op, resultGrads, needed);
      if (failed(rule.buildGradients(gb)))
        return signalPassFailure();
      for (auto [i, g] : llvm::enumerate(gb.operandGrads())) {
        if (!g)
          continue;
        Value operand = op->getOperand(i);
        auto gt = dyn_cast<RankedTensorType>(g.getType());
        auto ot = cast<RankedTensorType>(operand.getType());
        if (!gt || gt.getShape() != ot.getShape() || gt.getElementType() != ot.getElementType()) {
          op->emitError() << "internal error: the gradient rule of '" << op->getName()
                          << "' gave operand " << i << " a gradient of type " << g.getType()
                          << " for " << ot;
          return signalPassFailure();
        }
        accumulate(operand, g);
      }
    }

    // One gradient per parameter, summed over its loads, in global order.
    llvm::MapVector<StringAttr, Value> paramGrads;
    for (Operation &op : block)
      if (auto load = dyn_cast<ml_program::GlobalLoadConstOp>(op))
        if (auto it = paramOf.find(load.getResult()); it != paramOf.end())
          if (Value g = grads.lookup(load.getResult())) {
            Value &slot = paramGrads[it->second];
            slot =
                slot ? ElementwiseAddOp::create(b, g.getLoc(), g.getType(), slot, g, -1).getResult()
                     : g;
          }
    if (paramGrads.empty()) {
      main.emitError() << "pd-append-backward: the loss '" << loss
                       << "' depends on no trainable parameter";
      return signalPassFailure();
    }
    SmallVector<Value> values{lossValue};
    SmallVector<DictionaryAttr> attrs{named(b, loss)};
    for (auto &[name, g] : paramGrads) {
      values.push_back(g);
      attrs.push_back(
          b.getDictionaryAttr({b.getNamedAttr(kName, b.getStringAttr(name.getValue() + "@GRAD")),
                               b.getNamedAttr(kGradOf, name)}));
    }
    setResults(main, values, attrs);
  }
};

//===----------------------------------------------------------------------===//
// pd-append-optimizer
//===----------------------------------------------------------------------===//

struct PdAppendOptimizerPass : impl::PdAppendOptimizerPassBase<PdAppendOptimizerPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = mainOf(module, "pd-append-optimizer");
    if (!main)
      return signalPassFailure();
    if (optimizer != "sgd") {
      main.emitError() << "pd-append-optimizer: unknown optimizer '" << optimizer
                       << "' (expected sgd)";
      return signalPassFailure();
    }
    if (!(learningRate > 0)) {
      main.emitError() << "pd-append-optimizer: the learning rate must be positive, got "
                       << learningRate;
      return signalPassFailure();
    }
    Block &block = main.getBody().front();
    auto ret = cast<func::ReturnOp>(block.getTerminator());
    OpBuilder b(ret);
    SmallVector<Value> kept;
    SmallVector<DictionaryAttr> keptAttrs;
    SmallVector<std::pair<StringAttr, Value>> updates;
    for (unsigned i = 0; i < main.getNumResults(); ++i) {
      auto of = main.getResultAttrOfType<StringAttr>(i, kGradOf);
      if (of)
        updates.push_back({of, ret.getOperand(i)});
      if (!of || keepGradients) {
        kept.push_back(ret.getOperand(i));
        keptAttrs.push_back(main.getResultAttrDict(i) ? main.getResultAttrDict(i)
                                                      : b.getDictionaryAttr({}));
      }
    }
    if (updates.empty()) {
      main.emitError("pd-append-optimizer: @main returns no gradients (run pd-append-backward "
                     "first)");
      return signalPassFailure();
    }
    for (auto &[name, grad] : updates) {
      auto global = module.lookupSymbol<ml_program::GlobalOp>(name);
      if (!global) {
        main.emitError() << "pd-append-optimizer: no global '" << name.getValue() << "'";
        return signalPassFailure();
      }
      // Loads of a trained parameter read its current value, never a
      // constant folded at compile time.
      makeMutable(global, main);
      auto symbol = FlatSymbolRefAttr::get(name);
      Location loc =
          NameLoc::get(b.getStringAttr(optimizer + ":" + name.getValue()), grad.getLoc());
      Value param = ml_program::GlobalLoadOp::create(b, loc, global.getType(), symbol);
      auto elem = cast<RankedTensorType>(global.getType()).getElementType();
      Value lr = FillConstantOp::create(
          b, loc, RankedTensorType::get({1}, elem), Value(), Value(), ValueRange(),
          b.getDenseI64ArrayAttr({1}), b.getF32FloatAttr(static_cast<float>(learningRate)),
          b.getStringAttr(""), b.getI32IntegerAttr(elem.isF64() ? 6 : 5), b.getBoolAttr(false));
      Value updated = SgdOp::create(b, loc, global.getType(), param, lr, grad);
      ml_program::GlobalStoreOp::create(b, loc, symbol, updated);
    }
    setResults(main, kept, keptAttrs);
  }
};
} // namespace
} // namespace mlir::pd

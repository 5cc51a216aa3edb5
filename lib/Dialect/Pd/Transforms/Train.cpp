//===- Train.cpp - pd-append-loss, pd-append-backward, pd-append-optimizer ===//
//
// A train step as a rewrite of @main: the loss appended to the prediction,
// the gradients of the loss with respect to the parameters built by the
// ops' PdGradient rules, and an optimizer op per parameter whose result is
// stored back into the (now mutable) global (docs/Training.md).
//
//===----------------------------------------------------------------------===//

#include "../IR/Gradients/Rules.h"
#include "Constants.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdGradient.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Calibration.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/CostModel.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>

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
    // The label's classes and ignored value travel to the manifest, where
    // the runtime checks bound labels against them.
    DictionaryAttr labelAttrs = b.getDictionaryAttr(
        {b.getNamedAttr(kName, b.getStringAttr(label)),
         b.getNamedAttr("pd.label_classes", b.getI64IntegerAttr(predType.getShape().back())),
         b.getNamedAttr("pd.ignore_index", b.getI64IntegerAttr(-100))});
    if (predType.isDynamicDim(predType.getRank() - 1)) {
      main.emitError() << "pd-append-loss: the prediction's class dim must be static, got "
                       << prediction.getType();
      return signalPassFailure();
    }
    if (failed(main.insertArgument(argIndex, labelType, labelAttrs, main.getLoc())))
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

/// batch_norm in training mode, as Paddle computes it: pd.batch_norm_train
/// normalizes X with the batch's mean and (biased) variance over every dim
/// but the channel's (one fused op, whose rule is pd.batch_norm_train_grad);
/// the running statistics, when they are globals, become
/// momentum * running + (1 - momentum) * batch, stored back.
///
/// With `syncRanks` > 1 the statistics are those of the global batch of
/// `syncRanks` equal parts, one per rank: pd ops whose channel sums (of X,
/// then of the squared deviations) are summed over the ranks by
/// c_allreduce_sum, differentiated by the ops' own rules.
LogicalResult decomposeBatchNorm(BatchNormOp bn, ModuleOp module, func::FuncOp fn,
                                 int64_t syncRanks) {
  if (bn.getUseGlobalStats())
    return success();
  auto xt = cast<RankedTensorType>(bn.getX().getType());
  if (!xt.hasStaticShape())
    return bn.emitError() << "pd-append-backward needs static shapes, but 'pd.batch_norm' has "
                          << xt << " (fix the input shapes, e.g. paddle-compile --input-shape)";
  OpBuilder b(bn);
  Value mean, var;
  if (syncRanks > 1) {
    int64_t rank = xt.getRank();
    auto channel = static_cast<int32_t>(bn.getDataLayout() == "NHWC" ? rank - 1 : 1);
    SmallVector<int32_t> dims;
    for (int32_t d = 0; d < rank; ++d)
      if (d != channel)
        dims.push_back(d);
    double count = static_cast<double>(xt.getNumElements() / xt.getDimSize(channel)) *
                   static_cast<double>(syncRanks);
    GradientBuilder g(b, bn, {}, {});
    auto globalMean = [&](Value v) {
      return g.scale(g.make<CAllreduceSumOp>(g.sumKeep(v, dims), 0), 1.0 / count);
    };
    Value x = bn.getX();
    mean = globalMean(x);
    Value centered = g.sub(x, mean);
    var = globalMean(g.make<SquareOp>(centered));
    Value stddev = g.make<SqrtOp>(g.scale(var, 1.0, bn.getEpsilon().convertToDouble()));
    Value y = g.div(centered, stddev);
    y = g.add(g.mul(y, bn.getScale(), channel), bn.getBias(), channel);
    bn.getY().replaceAllUsesWith(y);
  } else {
    Type ct = bn.getScale().getType();
    auto train =
        BatchNormTrainOp::create(b, bn.getLoc(), xt, ct, ct, bn.getX(), bn.getScale(), bn.getBias(),
                                 bn.getEpsilonAttr(), bn.getDataLayoutAttr());
    mean = train.getSavedMean();
    var = train.getSavedVariance();
    bn.getY().replaceAllUsesWith(train.getY());
  }
  double momentum = bn.getMomentum().convertToDouble();

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

/// A new zero-initialized (or `init`-filled) mutable global of `type`
/// holding optimizer state, loaded before `before`; its name is `base` made
/// unique.
std::pair<ml_program::GlobalOp, Value> newStateGlobal(OpBuilder &b, Operation *before,
                                                      StringRef base, RankedTensorType type,
                                                      double init) {
  int64_t n = type.getNumElements();
  std::vector<char> bytes;
  if (type.getElementType().isF32()) {
    std::vector<float> v(n, static_cast<float>(init));
    bytes.assign(reinterpret_cast<char *>(v.data()), reinterpret_cast<char *>(v.data() + n));
  } else if (type.getElementType().isF64()) {
    std::vector<double> v(n, init);
    bytes.assign(reinterpret_cast<char *>(v.data()), reinterpret_cast<char *>(v.data() + n));
  } else {
    std::vector<int64_t> v(n, static_cast<int64_t>(init));
    bytes.assign(reinterpret_cast<char *>(v.data()), reinterpret_cast<char *>(v.data() + n));
  }
  Value load = newConstantBytes(b, before, base, type, bytes);
  auto constLoad = load.getDefiningOp<ml_program::GlobalLoadConstOp>();
  auto global = SymbolTable::lookupNearestSymbolFrom<ml_program::GlobalOp>(
      constLoad, constLoad.getGlobalAttr());
  global->setAttr("pd.optimizer_state", b.getUnitAttr());
  global->setAttr("pd.stop_gradient", b.getUnitAttr());
  OpBuilder lb(constLoad);
  Value value = ml_program::GlobalLoadOp::create(lb, constLoad.getLoc(), type,
                                                 FlatSymbolRefAttr::get(global.getSymNameAttr()))
                    .getResult();
  constLoad.getResult().replaceAllUsesWith(value);
  constLoad.erase();
  global.setIsMutable(true);
  return {global, value};
}

/// Training dropouts (is_test false) draw their masks from (seed, step,
/// element): each gets a distinct seed unless fix_seed, and as its Seed
/// operand the step counter @DROPOUT_STEP@ (a new int64 global incremented
/// by every step), or 0 with fix_seed (the same mask each step, as Paddle's
/// fixed seed gives). The gradient rule reuses the operand and attributes.
void seedDropouts(func::FuncOp main) {
  Block &block = main.getBody().front();
  SmallVector<DropoutOp> dropouts;
  for (auto op : block.getOps<DropoutOp>())
    if (!op.getIsTest() && !op.getSeedInput() && !op.getDropoutProb().isZero())
      dropouts.push_back(op);
  if (dropouts.empty())
    return;
  OpBuilder b(&block, block.begin());
  auto counterType = RankedTensorType::get({1}, b.getI64Type());
  Value step, zero;
  for (auto [i, op] : llvm::enumerate(dropouts)) {
    if (op.getFixSeed()) {
      if (!zero) {
        OpBuilder zb(&block, block.begin());
        GradientBuilder g(zb, op, {}, {});
        zero = g.make<FillConstantOp>(Value(), Value(), ValueRange(), zb.getDenseI64ArrayAttr({1}),
                                      zb.getF32FloatAttr(0.0f), zb.getStringAttr(""),
                                      zb.getI32IntegerAttr(3), zb.getBoolAttr(false));
      }
      op.getSeedInputMutable().assign(zero);
      continue;
    }
    if (!step) {
      Operation *ret = block.getTerminator();
      ml_program::GlobalOp counter;
      std::tie(counter, step) = newStateGlobal(b, ret, "@DROPOUT_STEP@", counterType, 0.0);
      step.getDefiningOp()->moveBefore(&block, block.begin());
      OpBuilder eb(ret);
      GradientBuilder g(eb, ret, {}, {});
      Value one = g.make<FillConstantOp>(
          Value(), Value(), ValueRange(), eb.getDenseI64ArrayAttr({1}), eb.getF32FloatAttr(1.0f),
          eb.getStringAttr(""), eb.getI32IntegerAttr(3), eb.getBoolAttr(false));
      ml_program::GlobalStoreOp::create(
          eb, ret->getLoc(), FlatSymbolRefAttr::get(counter.getSymNameAttr()), g.add(step, one));
    }
    op.setSeed(static_cast<int32_t>(i + 1));
    op.getSeedInputMutable().assign(step);
  }
}

/// layer_norm as pd ops, so the existing rules differentiate it: the mean
/// and biased variance over the dims from begin_norm_axis on normalize X,
/// then Scale and Bias (flat over those dims) are applied, reshaped to them.
/// A dynamic one is left alone: if it lies on the path to the loss, the
/// differentiation names it as needing static shapes.
void decomposeLayerNorm(LayerNormOp ln) {
  auto xt = cast<RankedTensorType>(ln.getX().getType());
  if (!xt.hasStaticShape())
    return;
  int32_t begin = ln.getBeginNormAxis();
  int64_t rank = xt.getRank();
  SmallVector<int32_t> dims;
  for (int32_t d = begin; d < rank; ++d)
    dims.push_back(d);
  ArrayRef<int64_t> normShape = xt.getShape().drop_front(begin);
  OpBuilder b(ln);
  GradientBuilder g(b, ln, {}, {});
  auto meanOf = [&](Value v) {
    return g.make<ReduceMeanOp>(v, b.getDenseI32ArrayAttr(dims), b.getBoolAttr(true),
                                b.getBoolAttr(false), b.getI32IntegerAttr(-1),
                                b.getI32IntegerAttr(-1));
  };
  Value x = ln.getX();
  Value centered = g.sub(x, meanOf(x));
  Value var = meanOf(g.make<SquareOp>(centered));
  Value eps = g.scale(var, 1.0, ln.getEpsilon().convertToDouble());
  Value y = g.div(centered, g.make<SqrtOp>(eps));
  if (Value scale = ln.getScale())
    y = g.mul(y, g.reshape(scale, normShape), begin);
  if (Value bias = ln.getBias())
    y = g.add(y, g.reshape(bias, normShape), begin);
  ln.getY().replaceAllUsesWith(y);
  ln.erase();
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
    if (syncBatchNormRanks < 1) {
      main.emitError("pd-append-backward: sync-batch-norm-ranks must be >= 1, got ")
          << static_cast<int64_t>(syncBatchNormRanks);
      return signalPassFailure();
    }
    // A train step computes batch_norm with the batch's statistics.
    SmallVector<BatchNormOp> norms(block.getOps<BatchNormOp>());
    for (BatchNormOp bn : norms)
      if (failed(decomposeBatchNorm(bn, module, main, syncBatchNormRanks)))
        return signalPassFailure();
    SmallVector<LayerNormOp> layerNorms(block.getOps<LayerNormOp>());
    for (LayerNormOp ln : layerNorms)
      decomposeLayerNorm(ln);
    seedDropouts(main);
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
      Operation *lastBefore = ret->getPrevNode();
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
      // A pipeline stage (pd-partition-devices{train-phase=forward}) runs
      // the gradient of each of its ops too.
      if (auto stage = op->getAttr("pd.stage"))
        for (Operation *created = lastBefore ? lastBefore->getNextNode() : &block.front();
             created != ret.getOperation(); created = created->getNextNode()) {
          created->setAttr("pd.stage", stage);
          created->setAttr("pd.backward", b.getUnitAttr());
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

/// `v` as people write it: 0.9, 1, 1e-08.
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

struct PdAppendOptimizerPass : impl::PdAppendOptimizerPassBase<PdAppendOptimizerPass> {
  using Base::Base;

  LogicalResult checkOptions(func::FuncOp main) {
    auto bad = [&]() {
      InFlightDiagnostic d = main.emitError();
      d << "pd-append-optimizer: ";
      return d;
    };
    if (optimizer != "sgd" && optimizer != "momentum" && optimizer != "adam" &&
        optimizer != "adamw")
      return bad() << "unknown optimizer '" << optimizer
                   << "' (expected sgd, momentum, adam or adamw)";
    if (!(learningRate > 0) || !std::isfinite(learningRate))
      return bad() << "the learning rate must be positive, got " << num(learningRate);
    if (!(momentum >= 0) || !std::isfinite(momentum))
      return bad() << "momentum must be >= 0, got " << num(momentum);
    if (!(beta1 >= 0 && beta1 < 1) || !(beta2 >= 0 && beta2 < 1))
      return bad() << "beta1 and beta2 must be in [0, 1), got " << num(beta1) << " and "
                   << num(beta2);
    if (!(epsilon >= 0))
      return bad() << "epsilon must be >= 0, got " << num(epsilon);
    if (!(clipNorm >= 0) || !std::isfinite(clipNorm))
      return bad() << "clip-norm must be >= 0 (0: no clipping), got " << num(clipNorm);
    if (!std::isfinite(weightDecay))
      return bad() << "weight-decay must be a number, got " << num(weightDecay);
    if (schedule != "constant" && schedule != "step" && schedule != "cosine")
      return bad() << "unknown schedule '" << schedule << "' (expected constant, step or cosine)";
    if (schedule == "step" && (stepSize <= 0 || !(gamma > 0)))
      return bad() << "the step schedule needs step-size > 0 and gamma > 0";
    if (schedule == "cosine" && totalSteps <= 0)
      return bad() << "the cosine schedule needs total-steps > 0";
    if (schedule == "cosine" && !(minLr >= 0 && minLr <= learningRate))
      return bad() << "min-lr must be in [0, lr], got " << num(minLr);
    if (warmupSteps < 0)
      return bad() << "warmup-steps must be >= 0, got " << static_cast<int64_t>(warmupSteps);
    return success();
  }

  /// The learning rate of this step as a [1] tensor: the schedule at the
  /// step counter t (the steps taken before this one), times t / warmup
  /// during the warmup; increments the counter.
  Value learningRateTensor(OpBuilder &b, GradientBuilder &g, func::FuncOp main, Type elem) {
    auto type = RankedTensorType::get({1}, elem);
    auto constant = [&](double v) {
      return g.make<FillConstantOp>(Value(), Value(), ValueRange(), b.getDenseI64ArrayAttr({1}),
                                    b.getF32FloatAttr(static_cast<float>(v)), b.getStringAttr(""),
                                    b.getI32IntegerAttr(elem.isF64() ? 6 : 5),
                                    b.getBoolAttr(false));
    };
    if (schedule == "constant" && warmupSteps == 0)
      return constant(learningRate);
    Operation *ret = main.getBody().front().getTerminator();
    auto counterType = RankedTensorType::get({1}, b.getI64Type());
    auto [counter, count] = newStateGlobal(b, ret, "@LR_DECAY_COUNTER@", counterType, 0.0);
    Value one = g.make<FillConstantOp>(Value(), Value(), ValueRange(), b.getDenseI64ArrayAttr({1}),
                                       b.getF32FloatAttr(1.0f), b.getStringAttr(""),
                                       b.getI32IntegerAttr(3), b.getBoolAttr(false));
    ml_program::GlobalStoreOp::create(
        b, ret->getLoc(), FlatSymbolRefAttr::get(counter.getSymNameAttr()), g.add(count, one));
    Value t = CastOp::create(b, ret->getLoc(), type, count, b.getI32IntegerAttr(3),
                             b.getI32IntegerAttr(elem.isF64() ? 6 : 5));
    // The schedule runs on the steps after the warmup.
    Value s = t;
    if (warmupSteps > 0)
      s = g.make<ElementwiseMaxOp>(g.scale(t, 1.0, -static_cast<double>(warmupSteps)),
                                   constant(0.0), -1);
    Value lr;
    if (schedule == "constant") {
      lr = constant(learningRate);
    } else if (schedule == "step") {
      // lr * gamma ^ floor(s / step_size); the division of integers is exact.
      Value k = g.make<FloorOp>(g.div(s, constant(static_cast<double>(stepSize))));
      lr = g.scale(g.make<ElementwisePowOp>(constant(gamma), k, -1), learningRate);
    } else {
      // min + (lr - min) * (1 + cos(pi * min(s, T) / T)) / 2.
      Value clamped = g.make<ElementwiseMinOp>(s, constant(static_cast<double>(totalSteps)), -1);
      Value c = g.make<CosOp>(g.scale(clamped, M_PI / static_cast<double>(totalSteps)));
      lr = g.scale(c, (learningRate - minLr) / 2, (learningRate - minLr) / 2 + minLr);
    }
    if (warmupSteps > 0) {
      Value ramp = g.make<ElementwiseMinOp>(g.div(t, constant(static_cast<double>(warmupSteps))),
                                            constant(1.0), -1);
      lr = g.mul(lr, ramp);
    }
    return lr;
  }

  /// `updates`' gradients in buckets of at most bucket-mb MiB, consecutive
  /// in the order backward computes them (the pass description).
  FailureOr<SmallVector<SmallVector<unsigned>>>
  formBuckets(ModuleOp module, Block &block, ArrayRef<std::pair<StringAttr, Value>> updates) {
    if (!(bucketMb > 0) || !std::isfinite(bucketMb))
      return module.emitError("pd-append-optimizer: bucket-mb must be > 0, got ") << bucketMb;
    for (auto &[name, grad] : updates)
      if (!cast<RankedTensorType>(grad.getType()).hasStaticShape() || !grad.getDefiningOp())
        return module.emitError("pd-append-optimizer: the gradient of '")
               << name.getValue() << "' has no static shape to average over the ranks";
    // The order backward computes the gradients in.
    DenseMap<Operation *, unsigned> position;
    for (auto [i, op] : llvm::enumerate(block))
      position[&op] = static_cast<unsigned>(i);
    SmallVector<unsigned> order(updates.size());
    std::iota(order.begin(), order.end(), 0u);
    llvm::stable_sort(order, [&](unsigned a, unsigned b) {
      return position[updates[a].second.getDefiningOp()] <
             position[updates[b].second.getDefiningOp()];
    });
    auto cap = static_cast<int64_t>(bucketMb * 1024 * 1024);
    SmallVector<SmallVector<unsigned>> buckets;
    int64_t fill = 0;
    for (unsigned i : order) {
      int64_t bytes = tensorBytes(updates[i].second.getType());
      if (buckets.empty() || fill + bytes > cap) {
        buckets.emplace_back();
        fill = 0;
      }
      buckets.back().push_back(i);
      fill += bytes;
    }
    return buckets;
  }

  /// Averages `updates`' gradients over `ranks` ranks in buckets (the
  /// pass description); records the buckets on `module`.
  LogicalResult averageGradients(ModuleOp module, Block &block,
                                 SmallVectorImpl<std::pair<StringAttr, Value>> &updates) {
    FailureOr<SmallVector<SmallVector<unsigned>>> formed = formBuckets(module, block, updates);
    if (failed(formed))
      return failure();
    SmallVector<SmallVector<unsigned>> &buckets = *formed;
    Builder attrs(module.getContext());
    SmallVector<Attribute> report;
    int64_t total = 0;
    for (auto [k, bucket] : llvm::enumerate(buckets)) {
      Operation *last = updates[bucket.back()].second.getDefiningOp();
      OpBuilder b(last->getBlock(), std::next(Block::iterator(last)));
      GradientBuilder g(b, last, {}, {});
      SmallVector<Value> flat;
      SmallVector<Attribute> names;
      int64_t bytes = 0;
      for (unsigned i : bucket) {
        Value grad = updates[i].second;
        auto t = cast<RankedTensorType>(grad.getType());
        flat.push_back(bucket.size() == 1 ? grad : g.reshape(grad, {t.getNumElements()}));
        names.push_back(updates[i].first);
        bytes += tensorBytes(grad.getType());
      }
      Value joined = flat.size() == 1 ? flat[0] : g.make<ConcatOp>(flat, Value(), 0);
      auto bucketAttr = b.getI64IntegerAttr(static_cast<int64_t>(k));
      Value sum;
      if (overlap) {
        // Started here, waited for where the update begins (the
        // optimizer's ops are built before `ret`).
        auto started =
            AllreduceStartOp::create(b, last->getLoc(), joined.getType(), joined, bucketAttr);
        b.setInsertionPoint(block.getTerminator());
        sum = AllreduceWaitOp::create(b, last->getLoc(), joined.getType(), started.getResult(),
                                      bucketAttr)
                  .getResult();
      } else {
        auto blocking = CAllreduceSumOp::create(b, last->getLoc(), joined.getType(), joined, 0);
        blocking->setAttr("pd.grad_bucket", bucketAttr);
        sum = blocking.getResult();
      }
      Value mean = g.scale(sum, 1.0 / static_cast<double>(ranks));
      if (bucket.size() == 1) {
        updates[bucket.front()].second = mean;
      } else {
        SmallVector<RankedTensorType> types;
        for (unsigned i : bucket)
          types.push_back(cast<RankedTensorType>(updates[i].second.getType()));
        for (auto [i, part] : llvm::zip(bucket, unpack(g, mean, types)))
          updates[i].second = part;
      }
      total += bytes;
      report.push_back(attrs.getDictionaryAttr(
          {attrs.getNamedAttr("bucket", attrs.getI64IntegerAttr(static_cast<int64_t>(k))),
           attrs.getNamedAttr("bytes", attrs.getI64IntegerAttr(bytes)),
           attrs.getNamedAttr("gradients", attrs.getArrayAttr(names))}));
    }
    // The buckets, and the bytes each rank sends per step (a ring
    // allreduce sends 2 (N-1)/N of the buffer).
    record(module, {{"strategy", attrs.getStringAttr("allreduce")},
                    {"buckets", attrs.getArrayAttr(report)},
                    {"allreduce_bytes_per_step",
                     attrs.getI64IntegerAttr(total * 2 * (ranks - 1) / ranks)}});
    return success();
  }

  /// Sets `entries` in the module's `pd.partition` record (begun by
  /// pd-partition-devices).
  static void record(ModuleOp module, ArrayRef<std::pair<StringRef, Attribute>> entries) {
    NamedAttrList attrs;
    if (auto old = module->getAttrOfType<DictionaryAttr>("pd.partition"))
      attrs.append(old.getValue());
    for (auto [name, value] : entries)
      attrs.set(name, value);
    module->setAttr("pd.partition", attrs.getDictionary(module.getContext()));
  }

  /// The parts flattened and joined along dim 0, followed by `pad` zeros.
  Value flatJoin(GradientBuilder &g, ArrayRef<Value> parts, int64_t pad) {
    SmallVector<Value> flat;
    for (Value v : parts) {
      auto t = cast<RankedTensorType>(v.getType());
      flat.push_back(t.getRank() == 1 ? v : g.reshape(v, {t.getNumElements()}));
    }
    if (pad > 0) {
      OpBuilder &b = g.getBuilder();
      Type elem = cast<RankedTensorType>(parts.front().getType()).getElementType();
      flat.push_back(g.make<FillConstantOp>(
          Value(), Value(), ValueRange(), b.getDenseI64ArrayAttr({pad}), b.getF32FloatAttr(0.0f),
          b.getStringAttr(""), b.getI32IntegerAttr(elem.isF64() ? 6 : 5), b.getBoolAttr(false)));
    }
    return flat.size() == 1 ? flat[0] : g.make<ConcatOp>(flat, Value(), 0);
  }

  /// The tensors of `types` read back in order from the front of `flat`.
  SmallVector<Value> unpack(GradientBuilder &g, Value flat, ArrayRef<RankedTensorType> types) {
    SmallVector<Value> out;
    int64_t offset = 0;
    for (RankedTensorType t : types) {
      int64_t n = t.getNumElements();
      Value part =
          g.make<SliceOp>(flat, Value(), Value(), ValueRange{}, ValueRange{}, ArrayRef<int32_t>{0},
                          ArrayRef<int32_t>{static_cast<int32_t>(offset)},
                          ArrayRef<int32_t>{static_cast<int32_t>(offset + n)}, ArrayRef<int32_t>{},
                          ArrayRef<int32_t>{});
      out.push_back(t.getRank() == 1 ? part : g.reshape(part, t.getShape()));
      offset += n;
    }
    return out;
  }

  /// A bucket of strategy=reduce: its gradients (indices into the
  /// updates), their elements, and this rank's averaged slice of `shard`
  /// elements.
  struct ShardedBucket {
    int64_t index;
    SmallVector<unsigned> members;
    int64_t elements, shard;
    Value shardGrad;
  };

  /// strategy=reduce: each bucket's gradients joined, padded to a multiple
  /// of the ranks and reduce-scattered right after its last gradient, this
  /// rank's slice scaled by 1/N; records the buckets on `module`. With
  /// keep-gradients the averaged gradients are gathered back into
  /// `updates`.
  LogicalResult scatterGradients(ModuleOp module, Block &block,
                                 SmallVectorImpl<std::pair<StringAttr, Value>> &updates,
                                 SmallVectorImpl<ShardedBucket> &out) {
    FailureOr<SmallVector<SmallVector<unsigned>>> formed = formBuckets(module, block, updates);
    if (failed(formed))
      return failure();
    Builder attrs(module.getContext());
    SmallVector<Attribute> report;
    int64_t padded = 0, stateBytes = 0;
    for (auto [k, members] : llvm::enumerate(*formed)) {
      Operation *last = updates[members.back()].second.getDefiningOp();
      OpBuilder b(last->getBlock(), std::next(Block::iterator(last)));
      GradientBuilder g(b, last, {}, {});
      SmallVector<Value> grads;
      SmallVector<RankedTensorType> types;
      SmallVector<Attribute> names;
      int64_t elements = 0, bytes = 0;
      for (unsigned i : members) {
        grads.push_back(updates[i].second);
        types.push_back(cast<RankedTensorType>(updates[i].second.getType()));
        names.push_back(updates[i].first);
        elements += types.back().getNumElements();
        bytes += tensorBytes(types.back());
      }
      int64_t shard = (elements + ranks - 1) / ranks;
      Value joined = flatJoin(g, grads, shard * ranks - elements);
      Value sum = g.make<CReducescatterOp>(joined, 0, static_cast<int32_t>(ranks));
      sum.getDefiningOp()->setAttr("pd.grad_bucket", b.getI64IntegerAttr(static_cast<int64_t>(k)));
      Value mean = g.scale(sum, 1.0 / static_cast<double>(ranks));
      out.push_back({static_cast<int64_t>(k), members, elements, shard, mean});
      if (keepGradients) {
        b.setInsertionPoint(block.getTerminator());
        GradientBuilder tail(b, block.getTerminator(), {}, {});
        Value all = tail.make<CAllgatherOp>(mean, 0, static_cast<int32_t>(ranks));
        for (auto [i, part] : llvm::zip(members, unpack(tail, all, types)))
          updates[i].second = part;
      }
      int64_t elemBytes = bytes / elements;
      padded += shard * ranks * elemBytes;
      stateBytes += shard * elemBytes;
      report.push_back(attrs.getDictionaryAttr(
          {attrs.getNamedAttr("bucket", attrs.getI64IntegerAttr(static_cast<int64_t>(k))),
           attrs.getNamedAttr("bytes", attrs.getI64IntegerAttr(bytes)),
           attrs.getNamedAttr("gradients", attrs.getArrayAttr(names)),
           attrs.getNamedAttr("shard_elements", attrs.getI64IntegerAttr(shard))}));
    }
    // A ring reduce-scatter and a ring allgather each send (N-1)/N of the
    // padded buffer: together what one allreduce sends. Each rank updates,
    // and keeps state for (one tensor for momentum, two for adam),
    // updated_bytes_per_rank.
    int64_t sent = padded * (ranks - 1) / ranks;
    record(module, {{"strategy", attrs.getStringAttr("reduce")},
                    {"buckets", attrs.getArrayAttr(report)},
                    {"reducescatter_bytes_per_step", attrs.getI64IntegerAttr(sent)},
                    {"allgather_bytes_per_step", attrs.getI64IntegerAttr(sent)},
                    {"updated_bytes_per_rank", attrs.getI64IntegerAttr(stateBytes)}});
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = mainOf(module, "pd-append-optimizer");
    if (!main || failed(checkOptions(main)))
      return signalPassFailure();
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
    SmallVector<ml_program::GlobalOp> globals;
    for (auto &[name, grad] : updates) {
      auto global = module.lookupSymbol<ml_program::GlobalOp>(name);
      if (!global) {
        main.emitError() << "pd-append-optimizer: no global '" << name.getValue() << "'";
        return signalPassFailure();
      }
      globals.push_back(global);
    }
    if (ranks < 1) {
      main.emitError("pd-append-optimizer: ranks must be >= 1, got ")
          << static_cast<int64_t>(ranks);
      return signalPassFailure();
    }
    bool sharded = ranks > 1 && strategy == "reduce";
    if (strategy != "allreduce" && strategy != "reduce") {
      main.emitError() << "pd-append-optimizer: unknown strategy '" << strategy
                       << "' (expected allreduce or reduce)";
      return signalPassFailure();
    }
    SmallVector<ShardedBucket> shards;
    if (ranks > 1) {
      if (failed(sharded ? scatterGradients(module, block, updates, shards)
                         : averageGradients(module, block, updates)))
        return signalPassFailure();
      // The results kept: gradients are the averaged ones, the loss the
      // mean of the ranks' losses.
      for (auto [value, attrs] : llvm::zip(kept, keptAttrs)) {
        if (auto of = attrs.getAs<StringAttr>(kGradOf)) {
          for (auto &[name, grad] : updates)
            if (name == of)
              value = grad;
          continue;
        }
        auto sum = CAllreduceSumOp::create(b, ret.getLoc(), value.getType(), value, 0);
        GradientBuilder avg(b, sum.getOperation(), {}, {});
        value = avg.scale(sum.getResult(), 1.0 / static_cast<double>(ranks));
      }
    }
    Type elem = cast<RankedTensorType>(globals.front().getType()).getElementType();
    Location loc = NameLoc::get(b.getStringAttr(optimizer), ret.getLoc());
    GradientBuilder g(b, ret, {}, {});
    Value lr = learningRateTensor(b, g, main, elem);
    auto store = [&](ml_program::GlobalOp global, Value value) {
      ml_program::GlobalStoreOp::create(b, loc, FlatSymbolRefAttr::get(global.getSymNameAttr()),
                                        value);
    };

    // What the optimizer updates: each parameter, or (strategy=reduce) this
    // rank's slice of each bucket's flattened parameters.
    struct Unit {
      std::string name;
      Value param, grad;
      std::function<void(Value)> write;
    };
    SmallVector<Unit> units;
    for (auto &global : globals)
      // Loads of a trained parameter read its current value, never a
      // constant folded at compile time.
      makeMutable(global, main);
    auto load = [&](StringAttr name, RankedTensorType type) {
      Location ploc = NameLoc::get(b.getStringAttr(optimizer + ":" + name.getValue()), loc);
      return ml_program::GlobalLoadOp::create(b, ploc, type, FlatSymbolRefAttr::get(name))
          .getResult();
    };
    if (!sharded) {
      for (auto [u, global] : llvm::zip(updates, globals)) {
        auto type = cast<RankedTensorType>(global.getType());
        ml_program::GlobalOp target = global;
        units.push_back({u.first.getValue().str(), load(u.first, type), u.second,
                         [&store, target](Value v) { store(target, v); }});
      }
    } else {
      for (ShardedBucket &bucket : shards) {
        SmallVector<Value> params;
        SmallVector<RankedTensorType> types;
        SmallVector<ml_program::GlobalOp> targets;
        for (unsigned i : bucket.members) {
          types.push_back(cast<RankedTensorType>(globals[i].getType()));
          params.push_back(load(updates[i].first, types.back()));
          targets.push_back(globals[i]);
        }
        Value joined = flatJoin(g, params, bucket.shard * ranks - bucket.elements);
        Value mine = g.make<ShardBatchOp>(joined, static_cast<int32_t>(ranks));
        units.push_back({"grad_bucket_" + std::to_string(bucket.index), mine, bucket.shardGrad,
                         [this, &g, &store, types, targets](Value v) {
                           Value all = g.make<CAllgatherOp>(v, 0, static_cast<int32_t>(ranks));
                           for (auto [part, target] : llvm::zip(unpack(g, all, types), targets))
                             store(target, part);
                         }});
      }
    }

    // Clipping by the global norm: g * clip / max(||g||, clip); with
    // sharded gradients the squares are summed over the ranks.
    if (clipNorm > 0) {
      Value sumSq;
      for (Unit &u : units) {
        SmallVector<int32_t> all;
        for (int64_t d = 0; d < rankOf(u.grad); ++d)
          all.push_back(static_cast<int32_t>(d));
        Value part = g.reshape(g.sumKeep(g.make<SquareOp>(u.grad), all), {1});
        sumSq = sumSq ? g.add(sumSq, part) : part;
      }
      if (sharded)
        sumSq = g.make<CAllreduceSumOp>(sumSq, 0);
      Value norm = g.make<SqrtOp>(sumSq);
      Value clip = g.full(norm, clipNorm);
      Value factor = g.div(clip, g.make<ElementwiseMaxOp>(norm, clip, -1));
      for (Unit &u : units)
        u.grad = g.mul(u.grad, factor);
    }

    bool adam = optimizer == "adam" || optimizer == "adamw";
    double decay = weightDecay >= 0 ? weightDecay : (optimizer == "adamw" ? 0.01 : 0.0);
    // Adam's bias correction reads beta1^t and beta2^t, shared by every
    // parameter; the first adam op's outputs advance them.
    Value beta1Pow, beta2Pow;
    ml_program::GlobalOp beta1Global, beta2Global;
    if (adam) {
      auto scalarType = RankedTensorType::get({1}, elem);
      std::tie(beta1Global, beta1Pow) =
          newStateGlobal(b, ret, "beta1_pow_acc_0", scalarType, beta1);
      std::tie(beta2Global, beta2Pow) =
          newStateGlobal(b, ret, "beta2_pow_acc_0", scalarType, beta2);
    }
    auto f32 = [&](double v) { return b.getF32FloatAttr(static_cast<float>(v)); };
    for (Unit &u : units) {
      Value param = u.param, grad = u.grad;
      auto type = cast<RankedTensorType>(param.getType());
      Location ploc = NameLoc::get(b.getStringAttr(optimizer + ":" + u.name), loc);
      if (decay > 0 && optimizer != "adamw")
        grad = g.add(grad, g.scale(param, decay));
      if (optimizer == "sgd") {
        u.write(SgdOp::create(b, ploc, type, param, lr, grad));
      } else if (optimizer == "momentum") {
        auto [vGlobal, velocity] = newStateGlobal(b, ret, u.name + "_velocity_0", type, 0.0);
        auto op =
            MomentumOp::create(b, ploc, type, type, param, grad, velocity, lr, f32(momentum),
                               b.getBoolAttr(nesterov), b.getStringAttr(""), f32(0.0), f32(1.0));
        u.write(op.getParamOut());
        store(vGlobal, op.getVelocityOut());
      } else {
        auto [m1Global, m1] = newStateGlobal(b, ret, u.name + "_moment1_0", type, 0.0);
        auto [m2Global, m2] = newStateGlobal(b, ret, u.name + "_moment2_0", type, 0.0);
        Type powType = beta1Pow.getType();
        SmallVector<Type> types{type, type, type, powType, powType};
        Operation *op;
        if (optimizer == "adam")
          op = AdamOp::create(b, ploc, types, param, grad, lr, m1, m2, beta1Pow, beta2Pow,
                              f32(beta1), f32(beta2), f32(epsilon));
        else
          op = AdamwOp::create(b, ploc, types, param, grad, lr, m1, m2, beta1Pow, beta2Pow,
                               f32(beta1), f32(beta2), f32(epsilon), f32(decay), f32(1.0),
                               b.getBoolAttr(decay > 0));
        u.write(op->getResult(0));
        store(m1Global, op->getResult(1));
        store(m2Global, op->getResult(2));
        if (beta1Global) {
          store(beta1Global, op->getResult(3));
          store(beta2Global, op->getResult(4));
          beta1Global = beta2Global = nullptr;
        }
      }
    }
    setResults(main, kept, keptAttrs);
  }
};
} // namespace
} // namespace mlir::pd

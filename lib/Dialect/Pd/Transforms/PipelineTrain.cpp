//===- PipelineTrain.cpp - pipeline training: stages, micro-batches, 1F1B -===//
//
// pd-partition-devices' train phases (Passes.td). The forward program is
// cut into stages and sized for one micro-batch; pd-append-backward tags
// each gradient op with its forward op's stage; the forward and backward
// ops then run once per micro-batch; after pd-append-optimizer every op
// has a stage, each stage's ops are ordered 1F1B, and one global order of
// all stages' work and transfers (found by simulating the schedule) gives
// each rank's program, so that blocking send/recv pairs cannot deadlock.
//
//===----------------------------------------------------------------------===//

#include "Partition.h"

#include "PaddleMLIR/Dialect/Pd/IR/PdGradient.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/CostModel.h"

#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::pd::partition {
namespace {
constexpr StringLiteral kStage = "pd.stage", kMicro = "pd.micro", kBackward = "pd.backward",
                        kState = "pd.pipeline_train";

int64_t intAttr(Operation *op, StringRef name) {
  auto a = op->getAttrOfType<IntegerAttr>(name);
  return a ? a.getInt() : -1;
}

/// @main's type from its arguments and what it returns.
void syncFunctionType(func::FuncOp main) {
  Block &body = main.getBody().front();
  main.setFunctionType(FunctionType::get(main.getContext(), body.getArgumentTypes(),
                                         body.getTerminator()->getOperandTypes()));
}

/// (micro-batches, batch) recorded by the forward phase.
FailureOr<std::pair<int64_t, int64_t>> phaseState(func::FuncOp main, StringRef phase) {
  auto state = main->getParentOfType<ModuleOp>()->getAttrOfType<DictionaryAttr>(kState);
  auto micro = state ? state.getAs<IntegerAttr>("micro_batches") : IntegerAttr();
  auto batch = state ? state.getAs<IntegerAttr>("batch") : IntegerAttr();
  if (!micro || !batch)
    return main.emitError("pd-partition-devices: train-phase=")
           << phase << " follows train-phase=forward, which has not run";
  return std::make_pair(micro.getInt(), batch.getInt());
}

/// Piece of a stage's schedule: ops run in program order.
struct Unit {
  SmallVector<Operation *> ops;
  /// Values computed by other stages that the ops read.
  llvm::SetVector<Value> needs;
};

/// One step of the global order: a stage runs a unit, or a value passes
/// from one stage to another.
struct Event {
  int64_t stage, unit; // unit < 0: a transfer
  Value value;
  int64_t to;
};

/// Every op of `staged` (in program order) gets a stage (the pass
/// description): its tag; a stored parameter's update and the work that
/// only feeds it, the first stage whose forward reads the parameter; else that of
/// its largest operand with a stage; else the earliest of its users'; else
/// the last of `n`.
DenseMap<Operation *, int64_t>
assignStages(Block &body, ArrayRef<Operation *> staged,
             const llvm::MapVector<StringAttr, ml_program::GlobalStoreOp> &storeOf, int64_t n) {
  DenseMap<Operation *, int64_t> stageOf;
  for (Operation *op : staged)
    if (int64_t s = intAttr(op, kStage); s >= 0)
      stageOf[op] = s;
  auto producerStage = [&](Value v) -> int64_t {
    Operation *def = v.getDefiningOp();
    auto it = def ? stageOf.find(def) : stageOf.end();
    return it == stageOf.end() ? -1 : it->second;
  };
  // A parameter's update belongs where its forward reads it (the first
  // such stage), and so does the work that only feeds the update (its
  // gradient's accumulation, clipping by its own factor, the optimizer
  // op): otherwise a large parameter (an embedding) would travel from the
  // stage computing its update to the stage reading it, every step.
  for (auto &[name, store] : storeOf) {
    int64_t first = -1;
    for (auto load : body.getOps<ml_program::GlobalLoadOp>())
      if (load.getGlobal().getLeafReference() == name)
        for (Operation *user : load->getUsers())
          if (int64_t s = intAttr(user, kStage);
              s >= 0 && !user->hasAttr(kBackward) && (first < 0 || s < first))
            first = s;
    if (first >= 0)
      stageOf[store] = first;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *op : llvm::reverse(staged)) {
      if (stageOf.count(op) || op->getNumResults() == 0)
        continue;
      int64_t agreed = -1;
      bool split = false;
      for (Operation *user : op->getUsers())
        if (auto it = stageOf.find(user); it != stageOf.end()) {
          split |= agreed >= 0 && agreed != it->second;
          agreed = it->second;
        }
      if (agreed >= 0 && !split && !op->hasAttr(kMicro)) {
        stageOf[op] = agreed;
        changed = true;
      }
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *op : staged) {
      if (stageOf.count(op))
        continue;
      int64_t best = -1, bestBytes = -1;
      for (Value v : op->getOperands())
        if (int64_t s = producerStage(v); s >= 0 && tensorBytes(v.getType()) > bestBytes) {
          best = s;
          bestBytes = tensorBytes(v.getType());
        }
      if (best >= 0) {
        stageOf[op] = best;
        changed = true;
      }
    }
    // The earliest stage among the users: a value then only flows to
    // later stages (an input's slice read by stages 0 and 1 belongs to 0).
    for (Operation *op : llvm::reverse(staged)) {
      if (stageOf.count(op))
        continue;
      int64_t first = -1;
      for (Operation *user : op->getUsers())
        if (auto it = stageOf.find(user); it != stageOf.end() && (first < 0 || it->second < first))
          first = it->second;
      if (first >= 0) {
        stageOf[op] = first;
        changed = true;
      }
    }
  }
  for (Operation *op : staged)
    stageOf.try_emplace(op, n - 1);
  return stageOf;
}

} // namespace

LogicalResult pipelineTrainForward(func::FuncOp main, int64_t devices, int64_t microBatches,
                                   StageMemory memory) {
  if (failed(checkPartitionable(main)))
    return failure();
  Block &body = main.getBody().front();
  // A train step also computes each parameter's gradient and update, whose
  // cost grows with the parameter's size rather than the op's FLOPs (an
  // embedding's dense gradient and update dwarf its lookup): each op counts
  // 8 passes over the trainable parameters it reads (the gradient written,
  // the update reading it, the parameter and two moments, and writing
  // them back), at CostModel's 8 per byte.
  auto updateCost = [&](Operation *op) {
    double bytes = 0;
    for (Value v : op->getOperands())
      if (ml_program::GlobalOp global = weightLoadedBy(v); global && isTrainable(global))
        bytes += static_cast<double>(tensorBytes(global.getType()));
    return 8.0 * 8.0 * bytes;
  };
  FailureOr<SmallVector<SmallVector<Operation *>>> stages =
      cutIntoStages(main, devices, updateCost, memory);
  if (failed(stages))
    return failure();
  Builder b(main.getContext());
  SmallVector<Operation *> work;
  for (auto [k, ops] : llvm::enumerate(*stages))
    for (Operation *op : ops) {
      op->setAttr(kStage, b.getI64IntegerAttr(static_cast<int64_t>(k)));
      work.push_back(op);
    }
  int64_t batch;
  FailureOr<int64_t> micro = chooseMicroBatches(main, devices, microBatches, batch);
  if (failed(micro))
    return failure();
  if (*micro > 1) {
    // Backward is built for one micro-batch.
    int64_t rows = batch / *micro;
    std::string split =
        "a micro-batch of " + std::to_string(rows) + " of the batch of " + std::to_string(batch);
    for (BlockArgument arg : body.getArguments()) {
      auto t = cast<RankedTensorType>(arg.getType());
      SmallVector<int64_t> shape(t.getShape());
      shape[0] = rows;
      arg.setType(t.clone(shape));
    }
    for (Operation *op : work)
      if (failed(inferAgain(op, split)))
        return failure();
    syncFunctionType(main);
  }
  main->getParentOfType<ModuleOp>()->setAttr(
      kState, b.getDictionaryAttr({b.getNamedAttr("micro_batches", b.getI64IntegerAttr(*micro)),
                                   b.getNamedAttr("batch", b.getI64IntegerAttr(batch))}));
  return success();
}

LogicalResult pipelineTrainMicro(func::FuncOp main) {
  FailureOr<std::pair<int64_t, int64_t>> state = phaseState(main, "micro");
  if (failed(state))
    return failure();
  auto [micro, batch] = *state;
  Block &body = main.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  OpBuilder b(ret);
  // One micro-batch's ops: those that depend on the inputs, and on the
  // globals such ops store (batch_norm's running statistics, which each
  // micro-batch updates in turn, below).
  DenseSet<Value> perMicroValues;
  SmallVector<Operation *> perMicro;
  auto collect = [&](ArrayRef<Value> seeds) {
    perMicroValues = DenseSet<Value>(seeds.begin(), seeds.end());
    perMicro.clear();
    for (Operation &op : body.without_terminator())
      if (llvm::any_of(op.getOperands(), [&](Value v) { return perMicroValues.contains(v); })) {
        perMicro.push_back(&op);
        perMicroValues.insert(op.result_begin(), op.result_end());
      }
  };
  SmallVector<Value> seeds(body.args_begin(), body.args_end());
  collect(seeds);
  DenseSet<StringAttr> chained;
  for (Operation *op : perMicro)
    if (auto store = dyn_cast<ml_program::GlobalStoreOp>(op))
      chained.insert(store.getGlobal().getLeafReference());
  for (auto load : body.getOps<ml_program::GlobalLoadOp>())
    if (chained.contains(load.getGlobal().getLeafReference()))
      seeds.push_back(load.getResult());
  collect(seeds);
  if (micro == 1) {
    for (Operation *op : perMicro)
      op->setAttr(kMicro, b.getI64IntegerAttr(0));
    return success();
  }
  // The inputs take the whole batch again; each micro-batch runs on its
  // slice, and the loss and gradients are the means of the micro-batches'.
  int64_t rows = batch / micro;
  for (BlockArgument arg : body.getArguments()) {
    auto t = cast<RankedTensorType>(arg.getType());
    SmallVector<int64_t> shape(t.getShape());
    shape[0] = batch;
    arg.setType(t.clone(shape));
  }
  unsigned numOut = ret.getNumOperands();
  SmallVector<SmallVector<Value>> parts(numOut);
  // A global a micro-batch stores (batch_norm's running statistics) is
  // updated once per micro-batch in turn, as if they ran one after the
  // other: micro-batch m reads m - 1's value, and only the last is stored.
  DenseMap<StringAttr, Value> latest;
  for (int64_t m = 0; m < micro; ++m) {
    auto tag = b.getI64IntegerAttr(m);
    IRMapping map;
    for (BlockArgument arg : body.getArguments()) {
      Value slice = sliceRows(b, main.getLoc(), arg, m * rows, (m + 1) * rows);
      slice.getDefiningOp()->setAttr(kMicro, tag);
      map.map(arg, slice);
    }
    for (Operation *op : perMicro) {
      for (Value v : op->getOperands())
        if (auto load = v.getDefiningOp<ml_program::GlobalLoadOp>())
          if (Value now = latest.lookup(load.getGlobal().getLeafReference()))
            map.map(v, now);
      if (auto store = dyn_cast<ml_program::GlobalStoreOp>(op)) {
        latest[store.getGlobal().getLeafReference()] = map.lookupOrDefault(store.getValue());
        if (m + 1 < micro)
          continue;
      }
      b.clone(*op, map)->setAttr(kMicro, tag);
    }
    for (unsigned i = 0; i < numOut; ++i)
      if (perMicroValues.contains(ret.getOperand(i)))
        parts[i].push_back(map.lookup(ret.getOperand(i)));
  }
  GradientBuilder g(b, ret, {}, {});
  for (unsigned i = 0; i < numOut; ++i) {
    if (parts[i].empty())
      continue;
    Value sum;
    // An embedding's gradient is a dense table scattered from a few rows:
    // one scatter of every micro-batch's rows instead of one table per
    // micro-batch and their sum (exact: the scatter-add is linear).
    SmallVector<LookupTableV2GradOp> scatters;
    auto first = parts[i].front().getDefiningOp<LookupTableV2GradOp>();
    for (Value part : parts[i])
      if (auto s = part.getDefiningOp<LookupTableV2GradOp>();
          first && s && s.getW() == first.getW() && s.getPaddingIdx() == first.getPaddingIdx() &&
          part.use_empty())
        scatters.push_back(s);
    if (scatters.size() == parts[i].size()) {
      SmallVector<Value> ids, grads;
      for (LookupTableV2GradOp s : scatters) {
        ids.push_back(s.getIds());
        grads.push_back(s.getOutGrad());
      }
      Value allIds = g.make<ConcatOp>(ids, Value(), 0);
      Value allGrads = g.make<ConcatOp>(grads, Value(), 0);
      sum = g.make<LookupTableV2GradOp>(first.getW(), allIds, allGrads, first.getPaddingIdxAttr());
      for (LookupTableV2GradOp s : scatters)
        s.erase();
    } else {
      sum = parts[i].front();
      for (Value part : ArrayRef<Value>(parts[i]).drop_front())
        sum = g.add(sum, part);
    }
    ret.setOperand(i, g.scale(sum, 1.0 / static_cast<double>(micro)));
  }
  for (Operation *op : llvm::reverse(perMicro))
    op->erase();
  syncFunctionType(main);
  return success();
}

LogicalResult pipelineTrainStages(func::FuncOp main, int64_t n, ArrayAttr &report,
                                  int64_t &microBatches) {
  FailureOr<std::pair<int64_t, int64_t>> state = phaseState(main, "stages");
  if (failed(state))
    return failure();
  int64_t micro = state->first;
  microBatches = micro;
  ModuleOp module = main->getParentOfType<ModuleOp>();
  module->removeAttr(kState);
  MLIRContext *ctx = main.getContext();
  Block &body = main.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  Location loc = main.getLoc();

  // The ops that compute (and the stores); constants and loads stay
  // outside the stages, where every rank has them.
  SmallVector<Operation *> staged;
  llvm::MapVector<StringAttr, ml_program::GlobalStoreOp> storeOf;
  for (Operation &op : body.without_terminator()) {
    if (op.getNumOperands() == 0)
      continue;
    if (auto store = dyn_cast<ml_program::GlobalStoreOp>(op)) {
      StringAttr name = store.getGlobal().getLeafReference();
      if (storeOf.count(name))
        return store.emitError("pd-partition-devices: '")
               << name.getValue() << "' is stored twice in one train step; a pipeline stage "
               << "must own each parameter";
      storeOf[name] = store;
    }
    staged.push_back(&op);
  }

  DenseMap<Operation *, int64_t> stageOf = assignStages(body, staged, storeOf, n);
  auto producerStage = [&](Value v) -> int64_t {
    Operation *def = v.getDefiningOp();
    auto it = def ? stageOf.find(def) : stageOf.end();
    return it == stageOf.end() ? -1 : it->second;
  };
  // A stored global belongs to the stage that stores it: other stages read
  // the value its rank loaded.
  auto ownerOf = [&](Value v) -> int64_t {
    auto load = v.getDefiningOp<ml_program::GlobalLoadOp>();
    if (!load)
      return -1;
    auto it = storeOf.find(load.getGlobal().getLeafReference());
    return it == storeOf.end() ? -1 : stageOf[it->second];
  };

  // Each stage's units in the 1F1B order: its work that no micro-batch
  // feeds, then the forwards (F) and backwards (B) of the micro-batches,
  // then its updates, one op each.
  DenseSet<Value> fromMicro;
  DenseSet<Operation *> backward;
  SmallVector<SmallVector<Unit>> units(n);
  SmallVector<SmallVector<Unit>> forwardOf(n, SmallVector<Unit>(micro)),
      backwardOf(n, SmallVector<Unit>(micro));
  SmallVector<Unit> pre(n);
  SmallVector<SmallVector<Unit>> post(n);
  for (Operation *op : staged) {
    int64_t s = stageOf[op];
    int64_t m = intAttr(op, kMicro);
    bool fed =
        m >= 0 || llvm::any_of(op->getOperands(), [&](Value v) { return fromMicro.contains(v); });
    if (fed)
      fromMicro.insert(op->result_begin(), op->result_end());
    if (isa<ml_program::GlobalStoreOp>(op))
      continue; // the stage's block returns the value
    if (m < 0) {
      if (fed) {
        post[s].emplace_back();
        post[s].back().ops.push_back(op);
      } else {
        pre[s].ops.push_back(op);
      }
      continue;
    }
    bool isBackward = op->hasAttr(kBackward) || llvm::any_of(op->getOperands(), [&](Value v) {
                        Operation *def = v.getDefiningOp();
                        return def && backward.contains(def);
                      });
    if (isBackward) {
      backward.insert(op);
      backwardOf[s][m].ops.push_back(op);
    } else {
      forwardOf[s][m].ops.push_back(op);
    }
  }
  for (int64_t s = 0; s < n; ++s) {
    // The first unit also makes the stage's own loads available.
    units[s].push_back(std::move(pre[s]));
    auto add = [&](Unit &u) {
      if (!u.ops.empty())
        units[s].push_back(std::move(u));
    };
    int64_t warm = std::min(n - 1 - s, micro);
    for (int64_t m = 0; m < warm; ++m)
      add(forwardOf[s][m]);
    for (int64_t m = 0; m + warm < micro; ++m) {
      add(forwardOf[s][m + warm]);
      add(backwardOf[s][m]);
    }
    for (int64_t m = micro - warm; m < micro; ++m)
      add(backwardOf[s][m]);
    for (Unit &u : post[s])
      add(u);
  }

  // What each unit reads from other stages, and which stages read each
  // value.
  llvm::MapVector<Value, llvm::SetVector<int64_t>> readers;
  auto sourceOf = [&](Value v) {
    int64_t s = producerStage(v);
    return s >= 0 ? s : ownerOf(v);
  };
  for (int64_t s = 0; s < n; ++s)
    for (Unit &u : units[s])
      for (Operation *op : u.ops)
        op->walk([&](Operation *inner) {
          for (Value v : inner->getOperands())
            if (int64_t from = sourceOf(v); from >= 0 && from != s) {
              u.needs.insert(v);
              readers[v].insert(s);
            }
        });
  // Stores return values of their own stage; the outputs go to rank 0.
  for (auto &[name, store] : storeOf)
    if (int64_t from = sourceOf(store.getValue()); from >= 0 && from != stageOf[store])
      return store.emitError("internal error: pd-partition-devices: a parameter's update is "
                             "computed outside the stage that owns it");

  // The global order: each step, every stage runs its next unit if its
  // inputs arrived in earlier steps, then what the units computed goes to
  // its readers. One unit per step keeps the stages in step, so that a
  // stage's backward of one micro-batch overlaps the next stage's forward
  // of the next.
  SmallVector<Event> events;
  SmallVector<size_t> next(n, 0);
  DenseSet<std::pair<Value, int64_t>> arrived;
  auto ownedLoads = [&](int64_t s) {
    SmallVector<Value> values;
    for (auto &[v, stages] : readers)
      if (ownerOf(v) == s)
        values.push_back(v);
    return values;
  };
  for (;;) {
    bool ran = false, left = false;
    SmallVector<std::pair<Value, int64_t>> computed;
    for (int64_t s = 0; s < n; ++s) {
      if (next[s] < units[s].size()) {
        Unit &u = units[s][next[s]];
        if (llvm::any_of(u.needs, [&](Value v) { return !arrived.contains({v, s}); })) {
          left = true;
          continue;
        }
        events.push_back({s, static_cast<int64_t>(next[s]), Value(), -1});
        for (Operation *op : u.ops)
          for (Value r : op->getResults())
            if (readers.count(r))
              computed.push_back({r, s});
        if (next[s] == 0)
          for (Value v : ownedLoads(s))
            computed.push_back({v, s});
        ++next[s];
        ran = true;
      }
      left |= next[s] < units[s].size();
    }
    for (auto &[v, s] : computed)
      for (int64_t t : readers[v]) {
        events.push_back({s, -1, v, t});
        arrived.insert({v, t});
      }
    if (!left)
      break;
    if (!ran) {
      InFlightDiagnostic d =
          main.emitError("internal error: pd-partition-devices: the 1F1B schedule stalls:");
      for (int64_t s = 0; s < n; ++s) {
        if (next[s] >= units[s].size())
          continue;
        Unit &u = units[s][next[s]];
        for (Value v : u.needs)
          if (!arrived.contains({v, s})) {
            Operation *def = v.getDefiningOp();
            d << " stage " << s << " (unit " << next[s] << " of " << units[s].size() << ", "
              << (u.ops.empty() ? StringRef("empty") : u.ops.front()->getName().getStringRef())
              << ") waits for " << (def ? def->getName().getStringRef() : StringRef("an argument"))
              << " of stage " << sourceOf(v) << ";";
            break;
          }
      }
      return failure();
    }
  }

  // The blocks: stage k's returns the outputs (stage 0) and the new values
  // of the globals it stores; another rank keeps zeros and its own copies.
  OpBuilder b(ret);
  auto loadOf = [&](ml_program::GlobalStoreOp store) -> Value {
    StringAttr name = store.getGlobal().getLeafReference();
    for (auto load : body.getOps<ml_program::GlobalLoadOp>())
      if (load.getGlobal().getLeafReference() == name)
        return load.getResult();
    return ml_program::GlobalLoadOp::create(b, loc, store.getValue().getType(), store.getGlobal())
        .getResult();
  };
  SmallVector<SmallVector<ml_program::GlobalStoreOp>> owned(n);
  for (auto &[name, store] : storeOf)
    owned[stageOf[store]].push_back(store);
  SmallVector<ConditionalBlockOp> blocks;
  for (int64_t k = 0; k < n; ++k) {
    SmallVector<Value> defaults;
    if (k == 0)
      for (Type type : main.getResultTypes()) {
        auto t = cast<RankedTensorType>(type);
        int32_t code = paddleDtypeCode(t.getElementType());
        if (code < 0 || !t.hasStaticShape())
          return ret.emitError("pd-partition-devices: an output of type ")
                 << t << " cannot pass between ranks";
        defaults.push_back(FillConstantOp::create(b, loc, t, Value(), Value(), ValueRange{},
                                                  t.getShape(), APFloat(0.0f), "", code, false));
      }
    for (ml_program::GlobalStoreOp store : owned[k])
      defaults.push_back(loadOf(store));
    auto flag = IsStageOp::create(b, loc, RankedTensorType::get({1}, b.getI1Type()),
                                  static_cast<int32_t>(k), static_cast<int32_t>(n));
    blocks.push_back(ConditionalBlockOp::create(b, loc, ValueRange(defaults).getTypes(),
                                                ValueRange{flag.getResult()}, defaults,
                                                /*isScalarCondition=*/true));
  }
  SmallVector<IRMapping> maps(n);
  SmallVector<int64_t> sentBytes(n, 0);
  auto at = [&](int64_t k) { return OpBuilder::atBlockEnd(&blocks[k].getBodyBlock()); };
  auto transfer = [&](Value v, int64_t from, int64_t to) -> LogicalResult {
    Value part = maps[from].lookupOrDefault(v);
    auto t = cast<RankedTensorType>(part.getType());
    if (!t.hasStaticShape() || paddleDtypeCode(t.getElementType()) < 0)
      return (v.getDefiningOp() ? v.getDefiningOp()->emitError() : main.emitError())
             << "pd-partition-devices: a value of type " << t << " passes from pipeline stage "
             << from << " to stage " << to
             << "; stages exchange static shapes of Paddle's types (fix the input shapes, e.g. "
                "with --input-shape)";
    OpBuilder sb = at(from);
    SendV2Op::create(sb, loc, part, 0, static_cast<int32_t>(to), false, false);
    sentBytes[from] += tensorBytes(t);
    OpBuilder rb = at(to);
    maps[to].map(v, receive(rb, loc, t, from));
    return success();
  };
  for (const Event &e : events) {
    if (e.unit < 0) {
      if (failed(transfer(e.value, e.stage, e.to)))
        return failure();
      continue;
    }
    OpBuilder eb = at(e.stage);
    for (Operation *op : units[e.stage][e.unit].ops) {
      Operation *clone = eb.clone(*op, maps[e.stage]);
      for (StringRef tag : {kStage, kMicro, kBackward})
        clone->removeAttr(tag);
    }
  }
  // The outputs other stages computed go to rank 0.
  unsigned numOut = ret.getNumOperands();
  for (unsigned i = 0; i < numOut; ++i) {
    Value v = ret.getOperand(i);
    if (int64_t from = producerStage(v); from > 0 && !maps[0].contains(v))
      if (failed(transfer(v, from, 0)))
        return failure();
  }
  for (int64_t k = 0; k < n; ++k) {
    SmallVector<Value> values;
    if (k == 0)
      for (Value v : ret.getOperands())
        values.push_back(maps[0].lookupOrDefault(v));
    for (ml_program::GlobalStoreOp store : owned[k])
      values.push_back(maps[k].lookupOrDefault(store.getValue()));
    OpBuilder yb = at(k);
    YieldOp::create(yb, loc, values);
  }
  // The stores take the blocks' results; the originals go.
  for (int64_t k = 0; k < n; ++k)
    for (auto [j, store] : llvm::enumerate(owned[k]))
      ml_program::GlobalStoreOp::create(b, store.getLoc(), store.getGlobal(),
                                        blocks[k].getResult((k == 0 ? numOut : 0) + j));
  for (unsigned i = 0; i < numOut; ++i)
    ret.setOperand(i, blocks[0].getResult(i));
  SmallVector<SmallVector<StringAttr>> ownedNames(n);
  for (int64_t k = 0; k < n; ++k)
    for (ml_program::GlobalStoreOp store : owned[k])
      ownedNames[k].push_back(store.getGlobal().getLeafReference());
  owned.clear();
  storeOf.clear();
  for (Operation *op : llvm::reverse(staged))
    op->erase();

  // The report: each stage's ops, cost, weights (read or owned) and what
  // it sends.
  Builder rb(ctx);
  SmallVector<Attribute> stages;
  for (int64_t k = 0; k < n; ++k) {
    int64_t flops = 0, bytes = 0, ops = 0;
    llvm::SetVector<StringAttr> weights;
    blocks[k].getBody().walk([&](Operation *op) {
      if (isa<PdDialect>(op->getDialect()) && !isa<YieldOp, SendV2Op, RecvV2Op>(op)) {
        OpCost c = estimateCost(op);
        flops += c.flops;
        bytes += c.bytes;
        ++ops;
      }
      for (Value v : op->getOperands()) {
        if (auto load = v.getDefiningOp<ml_program::GlobalLoadConstOp>())
          weights.insert(load.getGlobal().getLeafReference());
        if (auto load = v.getDefiningOp<ml_program::GlobalLoadOp>())
          weights.insert(load.getGlobal().getLeafReference());
      }
    });
    weights.insert(ownedNames[k].begin(), ownedNames[k].end());
    SmallVector<Attribute> names(weights.begin(), weights.end());
    SmallVector<Attribute> owns(ownedNames[k].begin(), ownedNames[k].end());
    stages.push_back(
        rb.getDictionaryAttr({rb.getNamedAttr("stage", rb.getI64IntegerAttr(k)),
                              rb.getNamedAttr("ops", rb.getI64IntegerAttr(ops)),
                              rb.getNamedAttr("flops", rb.getI64IntegerAttr(flops)),
                              rb.getNamedAttr("bytes", rb.getI64IntegerAttr(bytes)),
                              rb.getNamedAttr("sends_bytes", rb.getI64IntegerAttr(sentBytes[k])),
                              rb.getNamedAttr("weights", rb.getArrayAttr(names)),
                              rb.getNamedAttr("owns", rb.getArrayAttr(owns))}));
  }
  report = rb.getArrayAttr(stages);
  // Gradient rules may have tagged ops that stay outside the stages.
  main.walk([&](Operation *op) {
    for (StringRef tag : {kStage, kMicro, kBackward})
      op->removeAttr(tag);
  });
  return success();
}
} // namespace mlir::pd::partition

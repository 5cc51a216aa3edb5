//===- PartitionDevices.cpp - the pd-partition-devices pass ---------------===//
//
// Data-parallel inference: each rank computes its part of the batch and the
// parts are gathered back. Pipeline inference: each rank runs one stage of
// the program, a contiguous run of its ops balanced by the cost model, and
// passes activations to the next stage. Either way the partitioned program
// keeps the original's interface (docs/MultiDevice.md).
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/CostModel.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"
#include "Partition.h"

#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/IRMapping.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <limits>

namespace mlir::pd {
#define GEN_PASS_DEF_PDPARTITIONDEVICESPASS
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h.inc"

namespace partition {
/// Sets the result types of `op` from its shape function, after its
/// operands changed to a part of the batch (`part` says which, for errors).
LogicalResult inferAgain(Operation *op, StringRef part) {
  auto shapeFn = dyn_cast<PdShapeInference>(op);
  if (!shapeFn)
    return op->emitError("pd-partition-devices: cannot infer the types of '")
           << op->getName() << "' for " << part;
  SmallVector<Type> types;
  std::string why;
  LogicalResult inferred = success();
  {
    // The inference's own reason goes into the one error below.
    ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &d) {
      why = d.str();
      return success();
    });
    inferred = shapeFn.inferResultTypes(types, /*emitErrors=*/true);
  }
  if (failed(inferred))
    return op->emitError("pd-partition-devices: the op's shapes do not follow ")
           << part << " (an attribute may hold the batch size): " << why;
  for (auto [r, t] : llvm::zip(op->getResults(), types))
    r.setType(t);
  return success();
}

/// Paddle's VarType code of an element type that can pass between ranks
/// (recv_v2's and fill_constant's dtype attribute), -1 for the ONNX-only
/// unsigned types and others Paddle has no code for.
int32_t paddleDtypeCode(Type t) {
  int64_t code = paddleDtypeOf(t);
  return code >= 0 && code <= 22 ? static_cast<int32_t>(code) : -1;
}

ml_program::GlobalOp weightLoadedBy(Value v) {
  auto load = v.getDefiningOp<ml_program::GlobalLoadConstOp>();
  if (!load)
    return nullptr;
  return load->getParentOfType<ModuleOp>().lookupSymbol<ml_program::GlobalOp>(
      load.getGlobal().getLeafReference());
}

bool isTrainable(ml_program::GlobalOp global) {
  return !global->hasAttr("pd.stop_gradient") &&
         isa<FloatType>(cast<RankedTensorType>(global.getType()).getElementType());
}

/// Relative time of an op for balancing stages: FLOPs plus 8 per byte
/// read or written (a core moves a byte in about the time it does eight
/// floating-point operations of a convolution).
double weightOf(Operation *op) {
  OpCost c = estimateCost(op);
  return static_cast<double>(c.flops) + 8.0 * static_cast<double>(c.bytes);
}

/// Where `ops` (costs `w`) is cut into `n` contiguous non-empty stages with
/// the smallest largest stage: the first op of stages 1 .. n-1.
SmallVector<size_t> balancedCuts(ArrayRef<double> w, int64_t n, ArrayRef<double> held, double cap) {
  size_t m = w.size();
  SmallVector<double> prefix(m + 1, 0), heldPrefix(m + 1, 0);
  for (size_t i = 0; i < m; ++i) {
    prefix[i + 1] = prefix[i] + w[i];
    heldPrefix[i + 1] = heldPrefix[i] + (held.empty() ? 0.0 : held[i]);
  }
  // Whether ops [j, i) fit in one stage.
  auto fits = [&](size_t j, size_t i) { return cap <= 0 || heldPrefix[i] - heldPrefix[j] <= cap; };
  constexpr double kNone = std::numeric_limits<double>::infinity();
  // best[k][i]: the smallest largest stage of ops [0, i) in k + 1 stages.
  std::vector<std::vector<double>> best(n, std::vector<double>(m + 1, kNone));
  std::vector<std::vector<size_t>> from(n, std::vector<size_t>(m + 1, 0));
  for (size_t i = 0; i <= m; ++i)
    if (fits(0, i))
      best[0][i] = prefix[i];
  for (int64_t k = 1; k < n; ++k)
    for (size_t i = k + 1; i <= m; ++i)
      for (size_t j = k; j < i; ++j) {
        if (best[k - 1][j] == kNone || !fits(j, i))
          continue;
        double v = std::max(best[k - 1][j], prefix[i] - prefix[j]);
        if (v < best[k][i]) {
          best[k][i] = v;
          from[k][i] = j;
        }
      }
  if (best[n - 1][m] == kNone)
    return {};
  SmallVector<size_t> cuts(n - 1);
  size_t i = m;
  for (int64_t k = n - 1; k >= 1; --k) {
    i = from[k][i];
    cuts[k - 1] = i;
  }
  return cuts;
}

Value sliceRows(OpBuilder &b, Location loc, Value x, int64_t begin, int64_t end) {
  auto t = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(t.getShape());
  shape[0] = end - begin;
  return SliceOp::create(b, loc, t.clone(shape), x, Value(), Value(), ValueRange{}, ValueRange{},
                         ArrayRef<int32_t>{0}, ArrayRef<int32_t>{static_cast<int32_t>(begin)},
                         ArrayRef<int32_t>{static_cast<int32_t>(end)}, ArrayRef<int32_t>{},
                         ArrayRef<int32_t>{})
      .getResult();
}

/// recv_v2 of a static `type` tensor from rank `peer`, on ring 0.
Value receive(OpBuilder &b, Location loc, RankedTensorType type, int64_t peer) {
  SmallVector<int32_t> shape;
  for (int64_t d : type.getShape())
    shape.push_back(static_cast<int32_t>(d));
  return RecvV2Op::create(b, loc, type, /*ring_id=*/0, static_cast<int32_t>(peer),
                          paddleDtypeCode(type.getElementType()), shape, false, false)
      .getResult();
}

FailureOr<int64_t> chooseMicroBatches(func::FuncOp main, int64_t devices, int64_t requested,
                                      int64_t &batch) {
  batch = ShapedType::kDynamic;
  bool batched = main.getNumArguments() > 0;
  for (BlockArgument arg : main.getArguments()) {
    auto t = dyn_cast<RankedTensorType>(arg.getType());
    if (!t || t.getRank() < 1 || t.isDynamicDim(0) ||
        (!ShapedType::isDynamic(batch) && t.getDimSize(0) != batch)) {
      batched = false;
      break;
    }
    batch = t.getDimSize(0);
  }
  int64_t micro = requested;
  if (micro < 0)
    return main.emitError("pd-partition-devices: micro-batches must be >= 0, got ") << micro;
  if (micro == 0) {
    micro = 1;
    for (int64_t m = std::min<int64_t>(devices, batched ? batch : 1); m > 1; --m)
      if (batch % m == 0) {
        micro = m;
        break;
      }
  }
  if (micro > 1 && !batched)
    return main.emitError("pd-partition-devices: ")
           << micro << " micro-batches need every input to share a static batch along dim 0";
  if (micro > 1 && batch % micro != 0)
    return main.emitError("pd-partition-devices: a batch of ")
           << batch << " does not split into " << micro << " micro-batches";
  return micro;
}
std::string nameOf(func::FuncOp fn, unsigned i, bool result) {
  auto a = result ? fn.getResultAttrOfType<StringAttr>(i, "pd.name")
                  : fn.getArgAttrOfType<StringAttr>(i, "pd.name");
  return a ? a.getValue().str() : (result ? "output #" : "input #") + std::to_string(i);
}

/// Whether `op` talks to other ranks (a pd collective: CommResource).
bool communicates(Operation *op) {
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return false;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  return llvm::any_of(effects, [](const MemoryEffects::EffectInstance &e) {
    return isa<CommResource>(e.getResource());
  });
}

FailureOr<SmallVector<SmallVector<Operation *>>>
cutIntoStages(func::FuncOp main, int64_t n, llvm::function_ref<double(Operation *)> extra,
              StageMemory memory) {
  // The ops that compute; weights and constants (no operands) stay outside
  // the stages, where every stage can read them.
  SmallVector<Operation *> work;
  SmallVector<double> cost, held;
  llvm::DenseSet<Operation *> seen;
  for (Operation &op : main.getBody().front().without_terminator())
    if (op.getNumOperands() > 0) {
      work.push_back(&op);
      cost.push_back(weightOf(&op) + (extra ? extra(&op) : 0.0));
      // The weights this op is the first to read.
      double bytes = 0;
      for (Value v : op.getOperands())
        if (ml_program::GlobalOp global = weightLoadedBy(v); global && seen.insert(global).second)
          bytes += static_cast<double>(tensorBytes(global.getType())) *
                   (isTrainable(global) ? memory.trainableCopies : 1.0);
      held.push_back(bytes);
    }
  if (static_cast<int64_t>(work.size()) < n)
    return main.emitError("pd-partition-devices: the program has ")
           << work.size() << (work.size() == 1 ? " op that computes" : " ops that compute")
           << ", too few to cut into " << n << " pipeline stages of at least one op";
  // Contiguous runs of `work`, the first op of each from the cuts.
  SmallVector<size_t> cuts = balancedCuts(cost, n, held, memory.capBytes);
  if (cuts.empty() && n > 1) {
    // The smallest cap that admits a cut: the cut balancing what is held.
    SmallVector<size_t> byMemory = balancedCuts(held, n);
    double need = 0, sum = 0;
    for (size_t i = 0, k = 0; i <= held.size(); ++i) {
      if (i == held.size() || (k < byMemory.size() && i == byMemory[k])) {
        need = std::max(need, sum);
        sum = 0;
        ++k;
      }
      if (i < held.size())
        sum += held[i];
    }
    constexpr double kMiB = 1024.0 * 1024.0;
    std::string cap, least;
    llvm::raw_string_ostream(cap) << llvm::format("%.2f", memory.capBytes / kMiB);
    llvm::raw_string_ostream(least) << llvm::format("%.2f", std::ceil(need / kMiB * 100) / 100);
    return main.emitError("pd-partition-devices: no cut into ")
           << n << " pipeline stages keeps every stage's weights"
           << (memory.trainableCopies > 1 ? " and optimizer state" : "") << " within " << cap
           << " MiB (stage-memory-mb); the smallest limit that does is " << least << " MiB";
  }
  SmallVector<SmallVector<Operation *>> stages(n);
  for (size_t i = 0, k = 0; i < work.size(); ++i) {
    while (k + 1 < static_cast<size_t>(n) && i >= cuts[k])
      ++k;
    stages[k].push_back(work[i]);
  }
  return stages;
}

LogicalResult checkPartitionable(func::FuncOp main) {
  for (BlockArgument arg : main.getArguments())
    if (main.getArgAttr(arg.getArgNumber(), "pd.lod_of"))
      return main.emitError("pd-partition-devices: input '")
             << nameOf(main, arg.getArgNumber(), false)
             << "' holds the lengths of a LoD batch; splitting sequences among ranks "
             << "is not supported yet";
  for (Operation &op : main.getBody().getOps()) {
    if (op.getNumRegions() > 0)
      return op.emitError("pd-partition-devices: programs with control flow ('")
             << op.getName() << "') are not partitioned yet";
    // Its collectives would then reduce the parts of the batch too.
    if (communicates(&op) || isa<ShardBatchOp, IsStageOp>(op))
      return op.emitError("pd-partition-devices: the program already communicates ('")
             << op.getName() << "'); partitioning it again would change what its "
             << "collectives compute";
  }
  return success();
}

} // namespace partition

using namespace partition;

namespace {
struct PdPartitionDevicesPass : impl::PdPartitionDevicesPassBase<PdPartitionDevicesPass> {
  using Base::Base;

  LogicalResult partitionData(func::FuncOp main) {
    int64_t n = devices;
    if (failed(checkPartitionable(main)))
      return failure();
    // The batch: dim 0 of every input, the same where static.
    int64_t batch = ShapedType::kDynamic;
    for (BlockArgument arg : main.getArguments()) {
      auto t = dyn_cast<RankedTensorType>(arg.getType());
      std::string name = nameOf(main, arg.getArgNumber(), false);
      if (!t || t.getRank() < 1)
        return main.emitError("pd-partition-devices: input '")
               << name << "' has no dim 0 to split (data-parallel inference splits every input "
               << "along its batch, dim 0)";
      int64_t b = t.getDimSize(0);
      if (!ShapedType::isDynamic(b)) {
        if (!ShapedType::isDynamic(batch) && b != batch)
          return main.emitError("pd-partition-devices: input '")
                 << name << "' has " << b << " rows but another input has " << batch
                 << "; every input must share the batch along dim 0";
        batch = b;
        if (b % n != 0)
          return main.emitError("pd-partition-devices: input '")
                 << name << "' has a batch of " << b << ", which does not split among " << n
                 << " devices";
      }
    }
    // Each input's part.
    OpBuilder b(main.getContext());
    b.setInsertionPointToStart(&main.getBody().front());
    for (BlockArgument arg : main.getArguments()) {
      auto shard = ShardBatchOp::create(b, main.getLoc(), arg.getType(), arg,
                                        b.getI32IntegerAttr(static_cast<int32_t>(n)));
      SmallVector<Type> types;
      if (failed(shard.inferResultTypes(types, /*emitErrors=*/true)))
        return failure();
      shard.getResult().setType(cast<RankedTensorType>(types[0]));
      arg.replaceAllUsesExcept(shard.getResult(), shard);
    }
    // Result types for the parts, in program order.
    std::string split = "a split of the batch among " + std::to_string(n) + " devices";
    WalkResult walk = main.walk([&](Operation *op) {
      if (isa<ShardBatchOp, func::ReturnOp, func::FuncOp>(op) || op->getNumOperands() == 0)
        return WalkResult::advance(); // weights and constants keep theirs
      return failed(inferAgain(op, split)) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();

    // Each output gathered back along dim 0 (unless the outputs are the
    // rank's own: a train step's loss, before backward).
    auto ret = cast<func::ReturnOp>(main.getBody().front().getTerminator());
    b.setInsertionPoint(ret);
    auto setResultTypes = [&] {
      main.setFunctionType(
          FunctionType::get(main.getContext(), main.getArgumentTypes(), ret.getOperandTypes()));
    };
    if (!gatherOutputs) {
      setResultTypes();
      return success();
    }
    for (OpOperand &o : ret->getOpOperands()) {
      unsigned i = o.getOperandNumber();
      auto before = cast<RankedTensorType>(main.getResultTypes()[i]);
      auto part = dyn_cast<RankedTensorType>(o.get().getType());
      bool batched = part && part.getRank() >= 1 && before.getRank() == part.getRank();
      if (batched) {
        int64_t w = before.getDimSize(0), p = part.getDimSize(0);
        if (!ShapedType::isDynamic(w) && !ShapedType::isDynamic(p))
          batched = w == p * n;
        else
          batched = ShapedType::isDynamic(w) && ShapedType::isDynamic(p);
      }
      if (!batched)
        return ret.emitError("pd-partition-devices: output '")
               << nameOf(main, i, true) << "' (" << before
               << ") does not keep the batch along dim 0 (its part is " << o.get().getType()
               << "), so the ranks' parts cannot be gathered";
      // A ring allgather: each rank sends the n - 1 parts it does not
      // start with, (n - 1) / n of the whole output.
      if (before.hasStaticShape())
        gatherBytes += tensorBytes(before) / n * (n - 1);
      else
        gatherBytes = std::numeric_limits<int64_t>::min();
      auto gather = CAllgatherOp::create(
          b, ret.getLoc(), before, o.get(), /*ring_id=*/b.getI32IntegerAttr(0),
          /*nranks=*/b.getI32IntegerAttr(static_cast<int32_t>(n)), b.getBoolAttr(false));
      o.set(gather.getResult());
    }
    setResultTypes();
    return success();
  }

  /// The checks both modes share: no LoD input, no control flow, no
  /// collective already there.
  LogicalResult partitionPipeline(func::FuncOp main) {
    int64_t n = devices;
    if (failed(checkPartitionable(main)))
      return failure();
    MLIRContext *ctx = main.getContext();
    Block &body = main.getBody().front();
    auto ret = cast<func::ReturnOp>(body.getTerminator());

    StageMemory memory;
    memory.capBytes = stageMemoryMb * 1024.0 * 1024.0;
    FailureOr<SmallVector<SmallVector<Operation *>>> cut = cutIntoStages(main, n, nullptr, memory);
    if (failed(cut))
      return failure();
    SmallVector<SmallVector<Operation *>> &stages = *cut;
    SmallVector<Operation *> work;
    llvm::DenseMap<Operation *, int64_t> stageOf;
    for (auto [k, ops] : llvm::enumerate(stages))
      for (Operation *op : ops) {
        work.push_back(op);
        stageOf[op] = static_cast<int64_t>(k);
      }

    // Micro-batches: the inputs' shared static batch divided into parts.
    int64_t batch;
    FailureOr<int64_t> chosen = chooseMicroBatches(main, n, microBatches, batch);
    if (failed(chosen))
      return failure();
    int64_t micro = *chosen;
    int64_t rows = micro > 1 ? batch / micro : 0;
    std::string split = "a split of the batch into " + std::to_string(micro) + " micro-batches";

    auto stageOfValue = [&](Value v) -> int64_t {
      Operation *def = v.getDefiningOp();
      auto it = def ? stageOf.find(def) : stageOf.end();
      return it == stageOf.end() ? -1 : it->second;
    };
    // live[k]: the values stage k passes to stage k + 1 (computed at or
    // before k, read after k), in program order.
    SmallVector<SmallVector<Value>> live(n);
    for (Operation *op : work)
      for (Value v : op->getResults()) {
        int64_t last = -1;
        for (Operation *user : v.getUsers())
          if (auto it = stageOf.find(user); it != stageOf.end())
            last = std::max(last, it->second);
        for (int64_t k = stageOf[op]; k < last; ++k)
          live[k].push_back(v);
      }

    // Each output of a rank other than 0: zeros (no rows where dynamic).
    OpBuilder b(ctx);
    b.setInsertionPoint(ret);
    Location loc = main.getLoc();
    SmallVector<Value> defaults;
    for (Type type : main.getResultTypes()) {
      auto t = cast<RankedTensorType>(type);
      SmallVector<int64_t> shape;
      for (int64_t d : t.getShape())
        shape.push_back(ShapedType::isDynamic(d) ? 0 : d);
      int32_t code = paddleDtypeCode(t.getElementType());
      if (code < 0)
        return ret.emitError("pd-partition-devices: an output of element type ")
               << t.getElementType() << " cannot pass between ranks";
      defaults.push_back(
          FillConstantOp::create(b, loc, RankedTensorType::get(shape, t.getElementType()), Value(),
                                 Value(), ValueRange{}, shape, APFloat(0.0f), "", code, false));
    }

    // One conditional block per stage, each on its rank.
    SmallVector<ConditionalBlockOp> blocks;
    for (int64_t k = 0; k < n; ++k) {
      auto flag = IsStageOp::create(b, loc, RankedTensorType::get({1}, b.getI1Type()),
                                    static_cast<int32_t>(k), static_cast<int32_t>(n));
      auto block = ConditionalBlockOp::create(
          b, loc, k == 0 ? main.getResultTypes() : TypeRange{}, ValueRange{flag.getResult()},
          k == 0 ? ValueRange(defaults) : ValueRange{}, /*isScalarCondition=*/true);
      blocks.push_back(block);
    }

    // The type each value has in a micro-batch (what is sent and received).
    llvm::DenseMap<Value, Type> partType;
    // Per output: its value in each micro-batch, where a stage computes it.
    unsigned numOut = ret.getNumOperands();
    SmallVector<SmallVector<Value>> outParts(numOut);
    SmallVector<Value> outWhole(numOut);
    SmallVector<int64_t> sentBytes(n, 0);
    auto failLive = [&](Value v, int64_t k, Type type) {
      Operation *def = v.getDefiningOp();
      return def->emitError("pd-partition-devices: this value passes from pipeline stage ")
             << k << " to stage " << k + 1 << " with a dynamic shape (" << type
             << "); stages exchange static shapes (give the inputs static shapes, e.g. "
             << "with --input-shape)";
    };
    for (int64_t k = 0; k < n; ++k) {
      Block &stageBody = blocks[k].getBodyBlock();
      b.setInsertionPointToEnd(&stageBody);
      // Inputs this stage reads, sliced per micro-batch.
      SmallVector<BlockArgument> args;
      for (Operation *op : stages[k])
        for (Value v : op->getOperands())
          if (auto arg = dyn_cast<BlockArgument>(v);
              micro > 1 && arg && arg.getOwner() == &body && !llvm::is_contained(args, arg))
            args.push_back(arg);
      for (int64_t m = 0; m < micro; ++m) {
        IRMapping map;
        for (BlockArgument arg : args)
          map.map(arg, sliceRows(b, loc, arg, m * rows, (m + 1) * rows));
        if (k > 0)
          for (Value v : live[k - 1])
            map.map(v, receive(b, loc, cast<RankedTensorType>(partType.lookup(v)), k - 1));
        for (Operation *op : stages[k]) {
          Operation *clone = b.clone(*op, map);
          if (micro > 1 && failed(inferAgain(clone, split)))
            return failure();
          for (auto [r, c] : llvm::zip(op->getResults(), clone->getResults()))
            partType[r] = c.getType();
        }
        if (k + 1 < n)
          for (Value v : live[k]) {
            Value part = map.lookupOrDefault(v);
            auto t = cast<RankedTensorType>(part.getType());
            if (!t.hasStaticShape())
              return failLive(v, k, t);
            if (paddleDtypeCode(t.getElementType()) < 0)
              return v.getDefiningOp()->emitError("pd-partition-devices: a value of element type ")
                     << t.getElementType() << " cannot pass between pipeline stages";
            SendV2Op::create(b, loc, part, /*ring_id=*/0, /*peer=*/static_cast<int32_t>(k + 1),
                             false, false);
            sentBytes[k] += tensorBytes(t);
          }
        for (unsigned i = 0; i < numOut; ++i)
          if (stageOfValue(ret.getOperand(i)) == k)
            outParts[i].push_back(map.lookupOrDefault(ret.getOperand(i)));
      }
      // This stage's outputs: the micro-batches joined, then to rank 0.
      for (unsigned i = 0; i < numOut; ++i) {
        if (stageOfValue(ret.getOperand(i)) != k)
          continue;
        Value whole = outParts[i].front();
        if (micro > 1) {
          auto before = cast<RankedTensorType>(main.getResultTypes()[i]);
          auto part = cast<RankedTensorType>(whole.getType());
          if (part.getRank() < 1 || before.getRank() != part.getRank() || part.isDynamicDim(0) ||
              before.isDynamicDim(0) || part.getDimSize(0) * micro != before.getDimSize(0))
            return ret.emitError("pd-partition-devices: output '")
                   << nameOf(main, i, true) << "' (" << before
                   << ") does not keep the batch along dim 0 (its micro-batch is " << part
                   << "), so the micro-batches cannot be joined; use micro-batches=1";
          auto concat = ConcatOp::create(b, loc, before, outParts[i], Value(), 0);
          if (failed(inferAgain(concat, split)))
            return failure();
          whole = concat.getResult();
        }
        outWhole[i] = whole;
        if (k > 0) {
          auto t = cast<RankedTensorType>(whole.getType());
          if (!t.hasStaticShape())
            return ret.emitError("pd-partition-devices: output '")
                   << nameOf(main, i, true) << "' computed by pipeline stage " << k
                   << " has a dynamic shape (" << t << ") and cannot be sent to rank 0";
          SendV2Op::create(b, loc, whole, 0, 0, false, false);
          sentBytes[k] += tensorBytes(t);
        }
      }
      if (k > 0)
        YieldOp::create(b, loc, ValueRange{});
    }
    // Rank 0 receives the outputs the other stages computed, in output
    // order (each stage sends its own in that order).
    b.setInsertionPointToEnd(&blocks[0].getBodyBlock());
    SmallVector<Value> results;
    for (unsigned i = 0; i < numOut; ++i) {
      Value v = ret.getOperand(i);
      int64_t s = stageOfValue(v);
      if (s < 0) {
        results.push_back(v); // an input or a constant
      } else if (s == 0) {
        results.push_back(outWhole[i]);
      } else {
        results.push_back(receive(b, loc, cast<RankedTensorType>(outWhole[i].getType()), s));
      }
    }
    YieldOp::create(b, loc, results);

    // The stages replace the original ops.
    for (unsigned i = 0; i < numOut; ++i)
      ret.setOperand(i, blocks[0].getResult(i));
    for (Operation *op : llvm::reverse(work))
      op->erase();

    // The report: each stage's ops, cost, weights and what it sends.
    Builder rb(ctx);
    SmallVector<Attribute> report;
    for (int64_t k = 0; k < n; ++k) {
      int64_t flops = 0, bytes = 0;
      SmallVector<Attribute> weights;
      llvm::SmallPtrSet<Operation *, 16> seen;
      blocks[k].getBody().walk([&](Operation *op) {
        if (isa<PdDialect>(op->getDialect()) && !isa<YieldOp>(op)) {
          OpCost c = estimateCost(op);
          flops += c.flops;
          bytes += c.bytes;
        }
        for (Value v : op->getOperands())
          if (auto load = v.getDefiningOp<ml_program::GlobalLoadConstOp>();
              load && seen.insert(load).second)
            weights.push_back(rb.getStringAttr(load.getGlobal().getLeafReference().getValue()));
      });
      report.push_back(rb.getDictionaryAttr(
          {rb.getNamedAttr("stage", rb.getI64IntegerAttr(k)),
           rb.getNamedAttr("ops", rb.getI64IntegerAttr(static_cast<int64_t>(stages[k].size()))),
           rb.getNamedAttr("flops", rb.getI64IntegerAttr(flops)),
           rb.getNamedAttr("bytes", rb.getI64IntegerAttr(bytes)),
           rb.getNamedAttr("sends_bytes", rb.getI64IntegerAttr(sentBytes[k])),
           rb.getNamedAttr("weights", rb.getArrayAttr(weights))}));
    }
    pipelineReport = rb.getArrayAttr(report);
    usedMicroBatches = micro;
    return success();
  }

  ArrayAttr pipelineReport;
  int64_t usedMicroBatches = 0;
  // Data-parallel inference: the bytes each rank sends to gather the
  // outputs per run (negative: they depend on dynamic dims).
  int64_t gatherBytes = 0;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (mode != "data" && mode != "pipeline") {
      module.emitError("pd-partition-devices: mode '")
          << mode << "' is not supported (data or pipeline)";
      return signalPassFailure();
    }
    if (stageMemoryMb < 0 || paramCopies < 1 || (stageMemoryMb > 0 && mode != "pipeline")) {
      module.emitError("pd-partition-devices: stage-memory-mb (>= 0) and param-copies (>= 1) "
                       "apply to mode=pipeline");
      return signalPassFailure();
    }
    if (devices < 2) {
      module.emitError("pd-partition-devices: devices must be >= 2, got ")
          << static_cast<int64_t>(devices);
      return signalPassFailure();
    }
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main) {
      module.emitError("pd-partition-devices: the module has no @main");
      return signalPassFailure();
    }
    if (!trainPhase.empty()) {
      if (mode != "pipeline" ||
          (trainPhase != "forward" && trainPhase != "micro" && trainPhase != "stages")) {
        module.emitError("pd-partition-devices: train-phase '")
            << trainPhase << "' needs mode=pipeline and is one of forward, micro, stages";
        return signalPassFailure();
      }
      LogicalResult done = success();
      if (trainPhase == "forward")
        done = pipelineTrainForward(
            main, devices, microBatches,
            {stageMemoryMb * 1024.0 * 1024.0, static_cast<double>(paramCopies)});
      else if (trainPhase == "micro")
        done = pipelineTrainMicro(main);
      else
        done = pipelineTrainStages(main, devices, pipelineReport, usedMicroBatches);
      if (failed(done))
        return signalPassFailure();
      if (trainPhase != "stages")
        return;
    } else if (failed(mode == "data" ? partitionData(main) : partitionPipeline(main))) {
      return signalPassFailure();
    }
    Builder b(module.getContext());
    SmallVector<NamedAttribute> attrs = {b.getNamedAttr("mode", b.getStringAttr(mode)),
                                         b.getNamedAttr("devices", b.getI64IntegerAttr(devices))};
    if (pipelineReport) {
      if (!trainPhase.empty())
        attrs.push_back(b.getNamedAttr("schedule", b.getStringAttr("1F1B")));
      attrs.push_back(b.getNamedAttr("micro_batches", b.getI64IntegerAttr(usedMicroBatches)));
      attrs.push_back(b.getNamedAttr("stages", pipelineReport));
      // What the whole job sends per run (or train step): every stage's
      // activations (and, in training, gradients) to its neighbour.
      int64_t sends = 0;
      for (auto stage : pipelineReport.getAsRange<DictionaryAttr>())
        if (auto bytes = stage.getAs<IntegerAttr>("sends_bytes"))
          sends += bytes.getInt();
      attrs.push_back(b.getNamedAttr("sends_bytes_per_run", b.getI64IntegerAttr(sends)));
    } else if (mode == "data" && gatherOutputs && gatherBytes >= 0) {
      attrs.push_back(b.getNamedAttr("allgather_bytes_per_run", b.getI64IntegerAttr(gatherBytes)));
    }
    module->setAttr("pd.partition", b.getDictionaryAttr(attrs));
  }
};
} // namespace
} // namespace mlir::pd

//===- BlockReductions.cpp - one CUDA thread block per reduced element -----===//
//
// pd-gpu-map-loops gives every output element of a reduction its own
// thread, which loops over the reduced elements alone. That is slow twice
// over for the row reductions of softmax, layer_norm and reduce_*: a
// thread's loads are a whole row apart from its neighbour's (no
// coalescing), and a layer_norm over 768 features of 128 tokens runs 128
// threads on a GPU that holds 100k. This pass gives such a reduction one
// block per output element instead:
//
//   gpu.launch blocks(%b) in (outputs) threads(%t) in (T)
//     outer indices = %b delinearized
//     %p = scf.for %k = %t to length step T iter_args(%acc = neutral)
//            %acc combined with the body at the reduced indices of %k
//     %r = gpu.all_reduce <combiner> %p uniform
//     scf.if %t == 0: store (output's value combined with %r)
//
// Consecutive threads read consecutive elements of the row, and
// convert-gpu-to-nvvm lowers gpu.all_reduce to warp shuffles (shfl.sync
// .bfly), one shared-memory slot per warp and two barriers.
//
// pd-gpu-emulate-block-reductions (tests only) rewrites these launches
// into sequential host loops so that they can be run and compared with
// NumPy on a machine without a GPU.
//
//===----------------------------------------------------------------------===//

#include "../LoopUtils.h"
#include "PaddleMLIR/CodeGen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using gpu::AllReduceOperation;

namespace mlir::pd {
#define GEN_PASS_DEF_PDGPUBLOCKREDUCTIONSPASS
#define GEN_PASS_DEF_PDGPUEMULATEBLOCKREDUCTIONSPASS
#define GEN_PASS_DEF_PDGPUEMULATELAUNCHESPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"

namespace {
/// The gpu.all_reduce operation that combines partial results like `op`.
std::optional<AllReduceOperation> combinerKind(Operation *op) {
  using K = std::optional<AllReduceOperation>;
  return llvm::TypeSwitch<Operation *, K>(op)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return AllReduceOperation::ADD; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return AllReduceOperation::MUL; })
      .Case<arith::MaximumFOp>([](auto) { return AllReduceOperation::MAXIMUMF; })
      .Case<arith::MinimumFOp>([](auto) { return AllReduceOperation::MINIMUMF; })
      .Case<arith::MaxNumFOp>([](auto) { return AllReduceOperation::MAXNUMF; })
      .Case<arith::MinNumFOp>([](auto) { return AllReduceOperation::MINNUMF; })
      .Case<arith::MaxSIOp>([](auto) { return AllReduceOperation::MAXSI; })
      .Case<arith::MinSIOp>([](auto) { return AllReduceOperation::MINSI; })
      .Case<arith::MaxUIOp>([](auto) { return AllReduceOperation::MAXUI; })
      .Case<arith::MinUIOp>([](auto) { return AllReduceOperation::MINUI; })
      .Case<arith::AndIOp>([](auto) { return AllReduceOperation::AND; })
      .Case<arith::OrIOp>([](auto) { return AllReduceOperation::OR; })
      .Case<arith::XOrIOp>([](auto) { return AllReduceOperation::XOR; })
      .Default([](Operation *) { return K(); });
}

/// The neutral element of `kind` on `type` (f32 or i32): what a thread with
/// no element of the reduction contributes. (Not arith::getNeutralElement:
/// it gives +0 for addf, which is not neutral for -0.)
TypedAttr neutral(AllReduceOperation kind, Type type) {
  if (auto ft = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    switch (kind) {
    case AllReduceOperation::ADD: // -0 + x is x for every x, +0 included
      return FloatAttr::get(ft, APFloat::getZero(sem, /*Negative=*/true));
    case AllReduceOperation::MUL:
      return FloatAttr::get(ft, 1.0);
    case AllReduceOperation::MAXIMUMF:
    case AllReduceOperation::MAXNUMF:
      return FloatAttr::get(ft, APFloat::getInf(sem, /*Negative=*/true));
    case AllReduceOperation::MINIMUMF:
    case AllReduceOperation::MINNUMF:
      return FloatAttr::get(ft, APFloat::getInf(sem, /*Negative=*/false));
    default:
      return {};
    }
  }
  auto it = dyn_cast<IntegerType>(type);
  if (!it)
    return {};
  unsigned w = it.getWidth();
  switch (kind) {
  case AllReduceOperation::ADD:
  case AllReduceOperation::OR:
  case AllReduceOperation::XOR:
  case AllReduceOperation::MAXUI:
    return IntegerAttr::get(it, APInt::getZero(w));
  case AllReduceOperation::MUL:
    return IntegerAttr::get(it, APInt(w, 1));
  case AllReduceOperation::AND:
  case AllReduceOperation::MINUI:
    return IntegerAttr::get(it, APInt::getAllOnes(w));
  case AllReduceOperation::MAXSI:
    return IntegerAttr::get(it, APInt::getSignedMinValue(w));
  case AllReduceOperation::MINSI:
    return IntegerAttr::get(it, APInt::getSignedMaxValue(w));
  default:
    return {};
  }
}

/// `sizes`-shaped indices of the row-major position `flat`, innermost
/// fastest (unsigned division: positions are never negative).
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value flat, ArrayRef<int64_t> sizes) {
  SmallVector<Value> out(sizes.size());
  Value rest = flat;
  for (int64_t d = (int64_t)sizes.size() - 1; d >= 0; --d) {
    if (d == 0) {
      out[d] = rest;
      break;
    }
    Value size = arith::ConstantIndexOp::create(b, loc, sizes[d]);
    out[d] = b.createOrFold<arith::RemUIOp>(loc, rest, size);
    rest = b.createOrFold<arith::DivUIOp>(loc, rest, size);
  }
  return out;
}

/// A linalg.generic that one block per output element can reduce: its
/// loop sizes, how many of them are parallel (the leading ones), and per
/// output the combiner op of the body and which of its operands is the
/// output's value.
struct BlockReduction {
  linalg::GenericOp op;
  SmallVector<int64_t> sizes;
  unsigned outer = 0;
  int64_t outputs = 1, length = 1;
  SmallVector<Operation *> combiners;
  SmallVector<unsigned> accOperand;
  SmallVector<AllReduceOperation> kinds;
};

std::optional<BlockReduction> analyze(linalg::GenericOp op, int64_t minLength) {
  unsigned k = trailingReductions(op);
  if (k == 0)
    return std::nullopt;
  BlockReduction r;
  r.op = op;
  r.sizes = op.getStaticLoopRanges();
  unsigned n = r.sizes.size();
  r.outer = n - k;
  if (llvm::any_of(r.sizes, ShapedType::isDynamic))
    return std::nullopt;
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  for (unsigned d = 0; d < r.outer; ++d) {
    if (iters[d] != utils::IteratorType::parallel)
      return std::nullopt;
    r.outputs *= r.sizes[d];
  }
  for (unsigned d = r.outer; d < n; ++d)
    r.length *= r.sizes[d];
  if (r.length < minLength || r.outputs < 1)
    return std::nullopt;
  // Inputs read along the reduction: a slice of their own per output
  // (every outer loop indexes them), consecutive along the innermost loop.
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    if (!readsDimsFrom(map, r.outer))
      continue;
    for (unsigned d = 0; d < r.outer; ++d)
      if (!map.isFunctionOfDim(d))
        return std::nullopt;
    auto last = map.getNumResults() ? dyn_cast<AffineDimExpr>(map.getResults().back()) : nullptr;
    if (!last || last.getPosition() != n - 1)
      return std::nullopt;
  }
  // Each output: yielded = combiner(output value, value of the inputs only).
  Block &body = op.getRegion().front();
  unsigned numInputs = op.getNumDpsInputs();
  llvm::SmallPtrSet<Operation *, 8> tainted;
  for (Operation &o : body.without_terminator()) {
    bool readsOutput = false;
    o.walk([&](Operation *inner) {
      for (Value v : inner->getOperands()) {
        auto arg = dyn_cast<BlockArgument>(v);
        if ((arg && arg.getOwner() == &body && arg.getArgNumber() >= numInputs) ||
            (v.getDefiningOp() && tainted.contains(v.getDefiningOp())))
          readsOutput = true;
      }
    });
    if (readsOutput)
      tainted.insert(&o);
  }
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  for (auto [j, y] : llvm::enumerate(yield.getValues())) {
    BlockArgument acc = body.getArgument(numInputs + j);
    Type type = acc.getType();
    if (!(type.isF32() || type.isInteger(32)) || !acc.hasOneUse())
      return std::nullopt;
    Operation *c = y.getDefiningOp();
    if (!c || c->getBlock() != &body || c->getNumOperands() != 2 || c->getNumResults() != 1 ||
        acc.getUses().begin()->getOwner() != c)
      return std::nullopt;
    std::optional<AllReduceOperation> kind = combinerKind(c);
    if (!kind || !neutral(*kind, type))
      return std::nullopt;
    unsigned pos = c->getOperand(0) == acc ? 0 : 1;
    Value other = c->getOperand(1 - pos);
    if (other == acc || (other.getDefiningOp() && tainted.contains(other.getDefiningOp())))
      return std::nullopt;
    r.combiners.push_back(c);
    r.accOperand.push_back(pos);
    r.kinds.push_back(*kind);
  }
  // Nothing else may depend on an output's value.
  for (Operation *t : tainted)
    if (!llvm::is_contained(r.combiners, t))
      return std::nullopt;
  return r;
}

/// A copy of the combiner `c` on (acc, other) in its operand order.
Value combineLike(OpBuilder &b, Operation *c, unsigned accPos, Value acc, Value other) {
  OperationState state(c->getLoc(), c->getName());
  state.addOperands(accPos == 0 ? ValueRange{acc, other} : ValueRange{other, acc});
  state.addTypes(c->getResultTypes());
  state.addAttributes(c->getAttrs());
  return b.create(state)->getResult(0);
}

void rewrite(const BlockReduction &r, int64_t maxThreads) {
  linalg::GenericOp op = r.op;
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  OpBuilder b(op);
  auto c = [&](OpBuilder &ob, int64_t v) {
    return arith::ConstantIndexOp::create(ob, loc, v).getResult();
  };
  unsigned n = r.sizes.size();
  int64_t threads = std::min<int64_t>(maxThreads, llvm::alignTo(r.length, 32));
  Value one = c(b, 1);
  // A launch, not mapped scf.parallel loops: the canonicalizer would merge
  // those into one loop nest, losing the block/thread split.
  auto launch = gpu::LaunchOp::create(b, loc, c(b, r.outputs), one, one, c(b, threads), one, one);
  OpBuilder tb = OpBuilder::atBlockBegin(&launch.getBody().front());
  gpu::TerminatorOp::create(tb, loc);
  tb.setInsertionPointToStart(&launch.getBody().front());
  // The output element of this block: outer indices, reduced ones at 0.
  SmallVector<Value> outerIvs =
      delinearize(tb, loc, launch.getBlockIds().x, ArrayRef<int64_t>(r.sizes).take_front(r.outer));
  SmallVector<Value> atOutput(outerIvs);
  atOutput.append(n - r.outer, c(tb, 0));
  Value tid = launch.getThreadIds().x;

  SmallVector<Value> init;
  for (auto [j, kind] : llvm::enumerate(r.kinds)) {
    Type type = op.getRegion().front().getArgument(op.getNumDpsInputs() + j).getType();
    init.push_back(arith::ConstantOp::create(tb, loc, neutral(kind, type)));
  }
  Block &body = op.getRegion().front();
  unsigned numInputs = op.getNumDpsInputs();
  auto partial = scf::ForOp::create(
      tb, loc, tid, c(tb, r.length), c(tb, threads), init,
      [&](OpBuilder &fb, Location l, Value kk, ValueRange acc) {
        SmallVector<Value> ivs(outerIvs);
        llvm::append_range(ivs,
                           delinearize(fb, l, kk, ArrayRef<int64_t>(r.sizes).drop_front(r.outer)));
        IRMapping m;
        for (unsigned i = 0; i < numInputs; ++i) {
          OpOperand *in = op.getDpsInputOperand(i);
          Value v = in->get();
          if (isa<MemRefType>(v.getType()))
            v = memref::LoadOp::create(fb, l, v,
                                       indicesAt(fb, l, op.getMatchingIndexingMap(in), ivs));
          m.map(body.getArgument(i), v);
        }
        for (auto [j, a] : llvm::enumerate(acc))
          m.map(body.getArgument(numInputs + j), a);
        for (Operation &o : body.without_terminator()) {
          if (auto index = dyn_cast<linalg::IndexOp>(o)) {
            m.map(index.getResult(), ivs[index.getDim()]);
            continue;
          }
          fb.clone(o, m);
        }
        SmallVector<Value> next = llvm::map_to_vector(
            body.getTerminator()->getOperands(), [&](Value v) { return m.lookupOrDefault(v); });
        scf::YieldOp::create(fb, l, next);
      });
  SmallVector<Value> reduced;
  for (auto [j, kind] : llvm::enumerate(r.kinds))
    reduced.push_back(gpu::AllReduceOp::create(tb, loc, init[j].getType(), partial.getResult(j),
                                               gpu::AllReduceOperationAttr::get(ctx, kind),
                                               tb.getUnitAttr()));
  Value first = arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::eq, tid, c(tb, 0));
  auto store = scf::IfOp::create(tb, loc, first, /*withElseRegion=*/false);
  OpBuilder sb = store.getThenBodyBuilder();
  for (auto [j, out] : llvm::enumerate(op.getDpsInitsMutable())) {
    SmallVector<Value> at = indicesAt(sb, loc, op.getMatchingIndexingMap(&out), atOutput);
    Value old = memref::LoadOp::create(sb, loc, out.get(), at);
    Value v = combineLike(sb, r.combiners[j], r.accOperand[j], old, reduced[j]);
    memref::StoreOp::create(sb, loc, v, out.get(), at);
  }
  op.erase();
}

struct PdGpuBlockReductionsPass : impl::PdGpuBlockReductionsPassBase<PdGpuBlockReductionsPass> {
  using PdGpuBlockReductionsPassBase::PdGpuBlockReductionsPassBase;

  void runOnOperation() override {
    if (threads < 1) {
      getOperation().emitError("threads must be at least 1, not ") << static_cast<int64_t>(threads);
      return signalPassFailure();
    }
    std::vector<BlockReduction> found;
    getOperation().walk([&](linalg::GenericOp op) {
      if (std::optional<BlockReduction> r = analyze(op, minLength))
        found.push_back(*r);
    });
    for (const BlockReduction &r : found)
      rewrite(r, threads);
  }
};

/// `x` combined with `y` as gpu.all_reduce's `kind` does.
Value combineKind(OpBuilder &b, Location loc, AllReduceOperation kind, Value x, Value y) {
  bool fp = isa<FloatType>(x.getType());
  switch (kind) {
  case AllReduceOperation::ADD:
    return fp ? arith::AddFOp::create(b, loc, x, y).getResult()
              : arith::AddIOp::create(b, loc, x, y).getResult();
  case AllReduceOperation::MUL:
    return fp ? arith::MulFOp::create(b, loc, x, y).getResult()
              : arith::MulIOp::create(b, loc, x, y).getResult();
  case AllReduceOperation::MAXIMUMF:
    return arith::MaximumFOp::create(b, loc, x, y);
  case AllReduceOperation::MINIMUMF:
    return arith::MinimumFOp::create(b, loc, x, y);
  case AllReduceOperation::MAXNUMF:
    return arith::MaxNumFOp::create(b, loc, x, y);
  case AllReduceOperation::MINNUMF:
    return arith::MinNumFOp::create(b, loc, x, y);
  case AllReduceOperation::MAXSI:
    return arith::MaxSIOp::create(b, loc, x, y);
  case AllReduceOperation::MINSI:
    return arith::MinSIOp::create(b, loc, x, y);
  case AllReduceOperation::MAXUI:
    return arith::MaxUIOp::create(b, loc, x, y);
  case AllReduceOperation::MINUI:
    return arith::MinUIOp::create(b, loc, x, y);
  case AllReduceOperation::AND:
    return arith::AndIOp::create(b, loc, x, y);
  case AllReduceOperation::OR:
    return arith::OrIOp::create(b, loc, x, y);
  case AllReduceOperation::XOR:
    return arith::XOrIOp::create(b, loc, x, y);
  }
  llvm_unreachable("unknown all-reduce operation");
}

/// Replaces `launch` (a 1-D grid of 1-D blocks of constant size) by host
/// loops: over its blocks, and in each block over its threads three
/// times: the code before the reductions, the reductions, after them.
LogicalResult emulateReductions(gpu::LaunchOp launch) {
  Location loc = launch.getLoc();
  Block *body = &launch.getBody().front();
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 size = launch.getBlockSizeOperandValues();
  for (Value v : {grid.y, grid.z, size.y, size.z})
    if (getConstantIntValue(v) != 1)
      return launch.emitError("emulation needs a 1-D grid of 1-D blocks");
  Value bid = launch.getBlockIds().x, tid = launch.getThreadIds().x;
  // Code before the reductions that does not depend on the thread runs
  // once per block; the rest once per thread.
  SmallVector<Operation *> uniform, varying, after;
  SmallVector<gpu::AllReduceOp> reductions;
  llvm::SmallPtrSet<Operation *, 16> varyingSet;
  for (Operation &o : body->without_terminator()) {
    if (auto ar = dyn_cast<gpu::AllReduceOp>(o)) {
      if (!after.empty() || !ar.getOp())
        return ar.emitError("emulation needs gpu.all_reduce ops with an operation attribute, "
                            "one after the other");
      reductions.push_back(ar);
      continue;
    }
    if (!reductions.empty()) {
      after.push_back(&o);
      continue;
    }
    bool dependsOnThread = false;
    o.walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        dependsOnThread |=
            v == tid || (v.getDefiningOp() && varyingSet.contains(v.getDefiningOp()));
    });
    if (dependsOnThread) {
      varying.push_back(&o);
      varyingSet.insert(&o);
    } else {
      uniform.push_back(&o);
    }
  }
  for (Operation *o : after) {
    WalkResult w = o->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (v.getDefiningOp() && varyingSet.contains(v.getDefiningOp()))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (w.wasInterrupted())
      return o->emitError("emulation: this op after gpu.all_reduce uses a per-thread value "
                          "computed before it");
  }
  OpBuilder b(launch);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  scf::ForOp::create(
      b, loc, zero, grid.x, one, ValueRange{},
      [&](OpBuilder &bb, Location l, Value blockIndex, ValueRange) {
        IRMapping block;
        block.map(bid, blockIndex);
        for (Operation *o : uniform)
          bb.clone(*o, block);
        SmallVector<Value> buffers;
        for (gpu::AllReduceOp ar : reductions)
          buffers.push_back(memref::AllocaOp::create(
              bb, l, MemRefType::get({ShapedType::kDynamic}, ar.getType()), ValueRange{size.x}));
        // Each thread's partial values.
        scf::ForOp::create(bb, l, zero, size.x, one, ValueRange{},
                           [&](OpBuilder &fb, Location fl, Value t, ValueRange) {
                             IRMapping m = block;
                             m.map(tid, t);
                             for (Operation *o : varying)
                               fb.clone(*o, m);
                             for (auto [ar, buf] : llvm::zip(reductions, buffers))
                               memref::StoreOp::create(fb, fl, m.lookupOrDefault(ar.getValue()),
                                                       buf, ValueRange{t});
                             scf::YieldOp::create(fb, fl);
                           });
        // The block's reductions, in thread order (from thread 0's).
        IRMapping results = block;
        for (auto [ar, buf] : llvm::zip(reductions, buffers)) {
          AllReduceOperation kind = *ar.getOp();
          Value start = memref::LoadOp::create(bb, l, buf, ValueRange{zero});
          auto fold = scf::ForOp::create(
              bb, l, one, size.x, one, ValueRange{start},
              [&](OpBuilder &fb, Location fl, Value t, ValueRange acc) {
                Value v = memref::LoadOp::create(fb, fl, buf, ValueRange{t});
                scf::YieldOp::create(fb, fl, combineKind(fb, fl, kind, acc[0], v));
              });
          results.map(ar.getResult(), fold.getResult(0));
        }
        // What each thread does with them.
        scf::ForOp::create(bb, l, zero, size.x, one, ValueRange{},
                           [&](OpBuilder &fb, Location fl, Value t, ValueRange) {
                             IRMapping m = results;
                             m.map(tid, t);
                             for (Operation *o : after)
                               fb.clone(*o, m);
                             scf::YieldOp::create(fb, fl);
                           });
        scf::YieldOp::create(bb, l);
      });
  launch.erase();
  return success();
}

bool hasReductions(gpu::LaunchOp launch) {
  return llvm::any_of(launch.getBody().front(),
                      [](Operation &o) { return isa<gpu::AllReduceOp>(o); });
}

/// Replaces `launch`, whose threads do not synchronize, by loops over its
/// blocks and their threads (z outermost, x innermost) around its body.
LogicalResult emulatePlain(gpu::LaunchOp launch) {
  Region &body = launch.getBody();
  if (!body.hasOneBlock())
    return launch.emitError("emulation needs a launch body of one block");
  if (!launch.getWorkgroupAttributions().empty() || !launch.getPrivateAttributions().empty())
    return launch.emitError("emulation cannot run a launch with workgroup or private memory");
  WalkResult sync = body.walk([](Operation *o) {
    if (isa<gpu::BarrierOp, gpu::ShuffleOp, gpu::SubgroupReduceOp, gpu::AllReduceOp>(o)) {
      o->emitError("emulation runs a block's threads one after the other and cannot run '")
          << o->getName() << "' between them";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (sync.wasInterrupted())
    return failure();
  Location loc = launch.getLoc();
  OpBuilder b(launch);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 size = launch.getBlockSizeOperandValues();
  gpu::KernelDim3 bid = launch.getBlockIds(), tid = launch.getThreadIds();
  gpu::KernelDim3 gridIn = launch.getGridSize(), sizeIn = launch.getBlockSize();
  IRMapping m;
  m.map(gridIn.x, grid.x);
  m.map(gridIn.y, grid.y);
  m.map(gridIn.z, grid.z);
  m.map(sizeIn.x, size.x);
  m.map(sizeIn.y, size.y);
  m.map(sizeIn.z, size.z);
  // One loop per dimension of more than one; the ids of the others are 0.
  std::pair<Value, Value> dims[] = {{bid.z, grid.z}, {bid.y, grid.y}, {bid.x, grid.x},
                                    {tid.z, size.z}, {tid.y, size.y}, {tid.x, size.x}};
  OpBuilder inner = b;
  for (auto [id, count] : dims) {
    if (getConstantIntValue(count) == 1) {
      m.map(id, zero);
      continue;
    }
    auto loop = scf::ForOp::create(inner, loc, zero, count, one);
    m.map(id, loop.getInductionVar());
    inner.setInsertionPoint(loop.getBody()->getTerminator());
  }
  for (Operation &o : body.front().without_terminator())
    inner.clone(o, m);
  launch.erase();
  return success();
}

struct PdGpuEmulateBlockReductionsPass
    : impl::PdGpuEmulateBlockReductionsPassBase<PdGpuEmulateBlockReductionsPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp launch) {
      if (hasReductions(launch))
        launches.push_back(launch);
    });
    for (gpu::LaunchOp launch : launches)
      if (failed(emulateReductions(launch)))
        return signalPassFailure();
  }
};

struct PdGpuEmulateLaunchesPass : impl::PdGpuEmulateLaunchesPassBase<PdGpuEmulateLaunchesPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      if (failed(hasReductions(launch) ? emulateReductions(launch) : emulatePlain(launch)))
        return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::pd

//===- MapLoops.cpp - loop nests of a lowered model onto CUDA threads ------===//
//
// After convert-linalg-to-parallel-loops every generated op of @main is a
// top-level loop nest on buffers: an scf.parallel over its parallel
// dimensions (reduction dimensions as scf.for inside), or an scf.for nest
// for an op without parallel dimensions. This pass gives each nest a
// one-dimensional grid:
//
//   scf.parallel (%b) = (0) to (ceildiv(total, T))   mapped to block_x
//     scf.parallel (%t) = (0) to (T)                 mapped to thread_x
//       %i = %b * T + %t
//       scf.if %i < total: the nest's body at the indices %i delinearizes to
//
// so convert-parallel-loops-to-gpu makes one launch of T-thread blocks per
// op, whatever its rank (up to 2^31 blocks), with consecutive threads on
// consecutive innermost indices: coalesced loads and stores. Where the body
// is elementwise on buffers contiguous and aligned in the innermost
// dimension (vectorize() says when), each thread takes `vector-width`
// consecutive innermost elements with vector loads and stores (ld.global.v4
// for f32). A nest with no
// parallel loop runs as one thread. Views (reshape, squeeze, flatten:
// memref.collapse_shape, expand_shape, subviews) stay on the host and
// launch nothing. What is left on the host besides them is an op the CUDA
// target cannot run yet; the pass names it. Launches (those of
// pd-gpu-block-reductions) are only checked.
//
//===----------------------------------------------------------------------===//

#include "../ArenaViews.h"
#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

#include <functional>

using namespace mlir;

namespace mlir::pd {
#define GEN_PASS_DEF_PDGPUMAPLOOPSPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"

namespace {
gpu::ParallelLoopDimMappingAttr mapping(MLIRContext *ctx, gpu::Processor p) {
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  return gpu::ParallelLoopDimMappingAttr::get(ctx, p, id, id);
}

/// Host ops that compute nothing on tensor data: buffer management, views,
/// index arithmetic and constants.
bool staysOnHost(Operation *op) {
  if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp, memref::ViewOp, memref::SubViewOp,
          memref::CollapseShapeOp, memref::ExpandShapeOp, memref::ReinterpretCastOp,
          memref::ReshapeOp, memref::CastOp, memref::DimOp, memref::ExtractStridedMetadataOp,
          memref::AssumeAlignmentOp, memref::GetGlobalOp, func::ReturnOp>(op))
    return true;
  if (isa<arith::ConstantOp>(op)) // captured by the kernels that use it
    return true;
  // Library calls (pd-gpu-library-calls) on device addresses.
  if (auto call = dyn_cast<func::CallOp>(op))
    return call.getCallee().starts_with("pdcu_");
  if (isa<memref::ExtractAlignedPointerAsIndexOp>(op))
    return true;
  auto scalarInt = [](Type t) { return t.isIndex() || t.isInteger(); };
  return isa_and_nonnull<arith::ArithDialect>(op->getDialect()) &&
         llvm::all_of(op->getResultTypes(), scalarInt) &&
         llvm::all_of(op->getOperandTypes(), scalarInt);
}

/// Whether `memref`, read or written `width` elements at a time at innermost
/// indices that are multiples of `width`, is accessed at multiples of
/// `bytes` from an allocation's start: a static row-major buffer whose
/// innermost size is a multiple of `width`, that is @main's argument (the
/// runtime's allocations), a view of one at a multiple of `bytes`, or a
/// reshape of such.
bool alignedRowMajor(Value memref, int64_t width, int64_t bytes) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() || type.getRank() == 0 ||
      type.getShape().back() % width != 0)
    return false;
  for (Value v = memref;;) {
    if (isa<BlockArgument>(v))
      return true;
    Operation *def = v.getDefiningOp();
    if (auto view = dyn_cast_or_null<memref::ViewOp>(def)) {
      std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
      if (!shift || *shift % bytes != 0)
        return false;
      v = view.getSource();
    } else if (isa_and_nonnull<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::ReshapeOp,
                               memref::CastOp>(def)) {
      auto t = dyn_cast<MemRefType>(def->getOperand(0).getType());
      if (!t || !t.getLayout().isIdentity())
        return false;
      v = def->getOperand(0);
    } else {
      return false;
    }
  }
}

/// The elements per thread of the nest `par`: `width` when its body (one
/// block of memref loads and stores and elementwise arith/math ops) can
/// take `width` consecutive values of the innermost loop at once, else 1.
/// The innermost loop must run from 0 in steps of 1 to a multiple of
/// `width`, be the last index of every load and store that depends on it
/// and used nowhere else, and those buffers must be aligned for vector
/// accesses (alignedRowMajor). Stores must all depend on it.
int64_t vectorWidth(scf::ParallelOp par, int64_t width) {
  if (width <= 1)
    return 1;
  Value inner = par.getInductionVars().back();
  std::optional<int64_t> lb = getConstantIntValue(par.getLowerBound().back());
  std::optional<int64_t> ub = getConstantIntValue(par.getUpperBound().back());
  std::optional<int64_t> step = getConstantIntValue(par.getStep().back());
  if (!lb || !ub || !step || *lb != 0 || *step != 1 || *ub % width != 0)
    return 1;
  auto accessOk = [&](Value memref, ValueRange indices) {
    auto type = cast<MemRefType>(memref.getType());
    int64_t bytes = width * type.getElementTypeBitWidth() / 8;
    return !indices.empty() && indices.back() == inner &&
           llvm::none_of(indices.drop_back(), [&](Value i) { return i == inner; }) &&
           type.getElementTypeBitWidth() % 8 == 0 && alignedRowMajor(memref, width, bytes);
  };
  for (Operation &op : par.getBody()->without_terminator()) {
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      bool varying = llvm::is_contained(load.getIndices(), inner);
      if (varying && !accessOk(load.getMemRef(), load.getIndices()))
        return 1;
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (!accessOk(store.getMemRef(), store.getIndices()))
        return 1;
      continue;
    }
    bool elementwise = op.getNumRegions() == 0 &&
                       (op.hasTrait<OpTrait::Elementwise>() || isa<arith::ConstantOp>(op)) &&
                       isa<arith::ArithDialect, math::MathDialect>(op.getDialect());
    if (!elementwise || llvm::is_contained(op.getOperands(), inner))
      return 1;
  }
  return width;
}

/// Clones the body of `par` at `ib` with the innermost index `base` taking
/// `width` values at once (vectorWidth said it can): loads that depend on
/// it become vector loads, elementwise ops on them vector ops (uniform
/// operands broadcast), stores vector stores.
void cloneWidened(OpBuilder &ib, scf::ParallelOp par, IRMapping &ivs, int64_t width) {
  Location loc = par.getLoc();
  Value inner = par.getInductionVars().back();
  auto vecOf = [&](Type t) { return VectorType::get({width}, t); };
  auto widen = [&](Value v) -> Value {
    if (isa<VectorType>(v.getType()))
      return v;
    return vector::BroadcastOp::create(ib, loc, vecOf(v.getType()), v);
  };
  auto align = [&](Value memref) {
    return llvm::MaybeAlign(width * cast<MemRefType>(memref.getType()).getElementTypeBitWidth() /
                            8);
  };
  for (Operation &op : par.getBody()->without_terminator()) {
    auto mapped = [&](ValueRange vs) {
      return llvm::map_to_vector(vs, [&](Value v) { return ivs.lookupOrDefault(v); });
    };
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      if (llvm::is_contained(load.getIndices(), inner)) {
        Value v = vector::LoadOp::create(ib, load.getLoc(), vecOf(load.getType()), load.getMemRef(),
                                         mapped(load.getIndices()), /*nontemporal=*/false,
                                         align(load.getMemRef()));
        ivs.map(load.getResult(), v);
        continue;
      }
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      vector::StoreOp::create(ib, store.getLoc(),
                              widen(ivs.lookupOrDefault(store.getValueToStore())),
                              store.getMemRef(), mapped(store.getIndices()),
                              /*nontemporal=*/false, align(store.getMemRef()));
      continue;
    } else {
      SmallVector<Value> operands = mapped(op.getOperands());
      if (llvm::any_of(operands, [](Value v) { return isa<VectorType>(v.getType()); })) {
        // (Each op keeps its location: the manifest's kernel_ops reads it.)
        OperationState state(op.getLoc(), op.getName());
        state.addOperands(llvm::map_to_vector(operands, widen));
        state.addTypes(llvm::map_to_vector(op.getResultTypes(), vecOf));
        state.addAttributes(op.getAttrs());
        Operation *wide = ib.create(state);
        ivs.map(op.getResults(), wide->getResults());
        continue;
      }
    }
    ib.clone(op, ivs);
  }
}

struct PdGpuMapLoopsPass : impl::PdGpuMapLoopsPassBase<PdGpuMapLoopsPass> {
  using PdGpuMapLoopsPassBase::PdGpuMapLoopsPassBase;

  /// Replaces the top-level loop nest `nest` (an scf.parallel, or any other
  /// op run as a single thread) by a grid of `threads`-thread blocks.
  void map(Operation *nest) {
    MLIRContext *ctx = nest->getContext();
    Location loc = nest->getLoc();
    OpBuilder b(nest);
    auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
    SmallVector<Value> lbs, steps, counts;
    auto par = dyn_cast<scf::ParallelOp>(nest);
    // Each thread takes `width` consecutive innermost iterations.
    int64_t width = par ? vectorWidth(par, vectorWidthOption) : 1;
    if (par) {
      for (auto [lb, ub, step] :
           llvm::zip(par.getLowerBound(), par.getUpperBound(), par.getStep())) {
        // ceildiv(ub - lb, step); loops from linalg have lb 0 and step 1.
        Value span = b.createOrFold<arith::SubIOp>(loc, ub, lb);
        counts.push_back(b.createOrFold<arith::CeilDivSIOp>(loc, span, step));
        lbs.push_back(lb);
        steps.push_back(step);
      }
      if (width > 1) {
        counts.back() = c(*getConstantIntValue(counts.back()) / width);
        steps.back() = c(width);
      }
    }
    Value total = c(1);
    for (Value n : counts)
      total = b.createOrFold<arith::MulIOp>(loc, total, n);
    // A nest with no parallel loop gets one block of one thread.
    Value t = c(par ? threads : 1), zero = c(0), one = c(1);
    Value blocks = b.createOrFold<arith::CeilDivSIOp>(loc, total, t);
    auto grid =
        scf::ParallelOp::create(b, loc, ValueRange{zero}, ValueRange{blocks}, ValueRange{one});
    (void)gpu::setMappingAttr(grid, {mapping(ctx, gpu::Processor::BlockX)});
    OpBuilder gb = OpBuilder::atBlockBegin(grid.getBody());
    auto block = scf::ParallelOp::create(gb, loc, ValueRange{zero}, ValueRange{t}, ValueRange{one});
    (void)gpu::setMappingAttr(block, {mapping(ctx, gpu::Processor::ThreadX)});
    OpBuilder tb = OpBuilder::atBlockBegin(block.getBody());
    Value i = arith::AddIOp::create(tb, loc,
                                    arith::MulIOp::create(tb, loc, grid.getInductionVars()[0], t),
                                    block.getInductionVars()[0]);
    Value inside = arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::slt, i, total).getResult();
    auto guard = scf::IfOp::create(tb, loc, inside, /*withElseRegion=*/false);
    OpBuilder ib = guard.getThenBodyBuilder();
    IRMapping ivs;
    if (par) {
      // Innermost dimension fastest: consecutive threads, consecutive
      // elements.
      Value rest = i;
      SmallVector<Value> index(counts.size());
      for (int64_t d = (int64_t)counts.size() - 1; d >= 0; --d) {
        Value within = d == 0 ? rest : arith::RemUIOp::create(ib, loc, rest, counts[d]);
        if (d > 0)
          rest = arith::DivUIOp::create(ib, loc, rest, counts[d]);
        index[d] = ib.createOrFold<arith::AddIOp>(
            loc, lbs[d], ib.createOrFold<arith::MulIOp>(loc, within, steps[d]));
      }
      for (auto [iv, v] : llvm::zip(par.getInductionVars(), index))
        ivs.map(iv, v);
      if (width > 1) {
        cloneWidened(ib, par, ivs, width);
      } else {
        for (Operation &o : par.getBody()->without_terminator())
          ib.clone(o, ivs);
      }
    } else {
      ib.clone(*nest, ivs);
    }
    nest->erase();
  }

  /// A buffer copy (bufferization's memref.copy) as a parallel loop nest.
  void copyAsLoops(memref::CopyOp copy) {
    OpBuilder b(copy);
    Location loc = copy.getLoc();
    auto type = cast<MemRefType>(copy.getSource().getType());
    SmallVector<Value> zeros, ubs, ones;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      zeros.push_back(arith::ConstantIndexOp::create(b, loc, 0));
      ones.push_back(arith::ConstantIndexOp::create(b, loc, 1));
      ubs.push_back(b.createOrFold<memref::DimOp>(loc, copy.getSource(), d));
    }
    if (type.getRank() == 0) {
      // A scalar: a one-iteration loop, so it still runs on the device.
      zeros.push_back(arith::ConstantIndexOp::create(b, loc, 0));
      ones.push_back(arith::ConstantIndexOp::create(b, loc, 1));
      ubs.push_back(ones.back());
    }
    scf::ParallelOp::create(b, loc, zeros, ubs, ones,
                            [&](OpBuilder &pb, Location l, ValueRange ivs) {
                              ValueRange at = type.getRank() ? ivs : ValueRange{};
                              Value v = memref::LoadOp::create(pb, l, copy.getSource(), at);
                              memref::StoreOp::create(pb, l, v, copy.getTarget(), at);
                            });
    copy.erase();
  }

  /// Loop-free scalar code in `block` (an op on rank-0 or all-ones shapes
  /// whose one-iteration loops canonicalization removed: loads, scalar
  /// arithmetic, a store) becomes a one-iteration parallel loop, which runs
  /// as one thread on the device. The run taken is the loads and
  /// side-effect-free arithmetic right before each store, so no other
  /// write comes between a load and its new place.
  void wrapScalarCode(Block &block) {
    SmallVector<memref::StoreOp> stores;
    for (Operation &op : block)
      if (auto store = dyn_cast<memref::StoreOp>(op))
        stores.push_back(store);
    for (memref::StoreOp store : stores) {
      SmallVector<Operation *> run; // nearest first
      for (Operation *o = store->getPrevNode(); o; o = o->getPrevNode()) {
        bool scalar = isa<memref::LoadOp>(o) ||
                      (o->getNumRegions() == 0 &&
                       isa_and_nonnull<arith::ArithDialect, math::MathDialect>(o->getDialect()) &&
                       isMemoryEffectFree(o));
        if (!scalar)
          break;
        run.push_back(o);
      }
      OpBuilder b(store);
      Location loc = store.getLoc();
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      scf::ParallelOp::create(b, loc, ValueRange{zero}, ValueRange{one}, ValueRange{one},
                              [&](OpBuilder &pb, Location, ValueRange) {
                                IRMapping m;
                                for (Operation *o : llvm::reverse(run))
                                  pb.clone(*o, m);
                                pb.clone(*store, m);
                              });
      store.erase();
      // Users before their operands: what only the store used goes.
      for (Operation *o : run)
        if (o->use_empty())
          o->erase();
    }
  }

  /// What `memref` views: a constant's get_global, an argument of `fn`,
  /// or null (anything else).
  static Value root(Value memref) {
    while (Operation *def = memref.getDefiningOp()) {
      if (isa<memref::GetGlobalOp>(def))
        return memref;
      if (!isa<memref::ViewOp, memref::SubViewOp, memref::CollapseShapeOp, memref::ExpandShapeOp,
               memref::ReinterpretCastOp, memref::ReshapeOp, memref::CastOp>(def))
        return {};
      memref = def->getOperand(0);
    }
    return memref;
  }

  /// The bytes of the arena that `memref` lies in (its memref.view's);
  /// none when unknown.
  static std::optional<std::pair<int64_t, int64_t>> arenaBytes(Value memref) {
    Value view = arenaView(memref);
    return view ? viewRange(view) : std::nullopt;
  }

  /// Whether `op` may write what a load from `memref` (whose root is
  /// `base`) reads: a store in it, or a library call given an address, into
  /// a view of `base`; for the arena, only into bytes that overlap
  /// `memref`'s (the memory plan gives live buffers disjoint bytes).
  static bool mayWrite(Operation *op, Value memref, Value base, bool arena) {
    std::optional<std::pair<int64_t, int64_t>> read;
    if (arena && !(read = arenaBytes(memref)))
      return true;
    WalkResult w = op->walk([&](Operation *inner) {
      Value target;
      if (auto store = dyn_cast<memref::StoreOp>(inner))
        target = store.getMemRef();
      else if (auto store = dyn_cast<vector::StoreOp>(inner))
        target = store.getBase();
      else if (auto ptr = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(inner))
        target = ptr.getSource(); // an address for a call
      if (!target || root(target) != base)
        return WalkResult::advance();
      if (!arena)
        return WalkResult::interrupt();
      std::optional<std::pair<int64_t, int64_t>> written = arenaBytes(target);
      return !written || (written->first < read->second && read->first < written->second)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    return w.wasInterrupted();
  }

  /// Whether a load from `memref` at `load` reads the same wherever it
  /// runs up to `last` (an op after it in its block): `memref` views a
  /// constant, or an argument of `fn` (an input, a weight, a trained weight,
  /// the arena) that nothing from `load` through `last` writes where the
  /// load reads (a train step updates its trained weights in place; the
  /// memory plan hands a buffer's arena bytes to another after its last
  /// use, which the load may have been).
  static bool stableUntil(Value memref, Operation *load, Operation *last, func::FuncOp fn) {
    Value base = root(memref);
    if (!base)
      return false;
    if (base.getDefiningOp())
      return true; // a constant
    auto arg = dyn_cast<BlockArgument>(base);
    if (!arg || !arg.getOwner()->isEntryBlock() || arg.getOwner()->getParentOp() != fn)
      return false;
    bool arena = static_cast<bool>(fn.getArgAttr(arg.getArgNumber(), "pd.arena"));
    for (Operation *o = load->getNextNode(); o; o = o->getNextNode()) {
      if (mayWrite(o, memref, base, arena))
        return false;
      if (o == last)
        return true;
    }
    return false;
  }

  /// Scalars that loop-invariant code motion left in front of the nests
  /// that use them (the load of a quantizer's one-element scale or of
  /// Adam's power of beta, float arithmetic on it) move into each of those
  /// nests, since host code cannot read device memory: a load only when it
  /// reads the same there (stableUntil).
  void sinkScalars(Block &block, func::FuncOp fn) {
    SmallVector<Operation *> candidates;
    for (Operation &op : block) {
      bool scalar = isa<memref::LoadOp>(op) ||
                    (op.getNumRegions() == 0 && !staysOnHost(&op) &&
                     isa_and_nonnull<arith::ArithDialect, math::MathDialect>(op.getDialect()) &&
                     isMemoryEffectFree(&op));
      if (scalar)
        candidates.push_back(&op);
    }
    // Users first, so that a chain moves whole.
    for (Operation *op : llvm::reverse(candidates)) {
      llvm::SmallSetVector<Operation *, 4> nests;
      bool inNests = !op->use_empty();
      Operation *last = nullptr;
      for (Operation *user : op->getUsers()) {
        Operation *top = block.findAncestorOpInBlock(*user);
        if (!top || top == user || !isa<scf::ParallelOp, scf::ForOp>(top)) {
          inNests = false;
          break;
        }
        nests.insert(top);
        if (!last || last->isBeforeInBlock(top))
          last = top;
      }
      if (!inNests)
        continue;
      if (auto load = dyn_cast<memref::LoadOp>(op))
        if (!stableUntil(load.getMemRef(), op, last, fn))
          continue;
      for (Operation *nest : nests) {
        OpBuilder b = OpBuilder::atBlockBegin(&nest->getRegion(0).front());
        Operation *copy = b.clone(*op);
        op->replaceUsesWithIf(copy->getResults(), [&](OpOperand &use) {
          return nest->isProperAncestor(use.getOwner());
        });
      }
      op->erase();
    }
  }

  /// Maps the loop nests of `fn`; false (with an error) when it holds a
  /// host op that is neither a nest nor a view.
  bool mapFunction(func::FuncOp fn) {
    SmallVector<memref::CopyOp> copies;
    fn.walk([&](memref::CopyOp c) { copies.push_back(c); });
    for (memref::CopyOp c : copies)
      copyAsLoops(c);
    SmallVector<Operation *> nests;
    // The host code: @main's blocks and the branches of its scf.if ops (a
    // pipeline stage runs on the host when the rank is its own).
    std::function<bool(Block &)> scan = [&](Block &block) {
      wrapScalarCode(block);
      sinkScalars(block, fn);
      for (Operation &op : block) {
        // (Top-level stores are in one-iteration loops now.)
        if (isa<scf::ParallelOp, scf::ForOp, gpu::LaunchOp>(op)) {
          nests.push_back(&op);
          continue;
        }
        if (auto branch = dyn_cast<scf::IfOp>(op)) {
          for (Region *r : {&branch.getThenRegion(), &branch.getElseRegion()})
            for (Block &b : *r)
              if (!scan(b))
                return false;
          continue;
        }
        if (!staysOnHost(&op) && !isa<scf::YieldOp>(op)) {
          op.emitError("the cuda target cannot run '")
              << op.getName() << "' yet (only generated loop nests and buffer views)";
          return false;
        }
      }
      return true;
    };
    for (Block &block : fn.getBody())
      if (!scan(block))
        return false;
    for (Operation *nest : nests) {
      if (indexBitwidth == 32 && !fitsIn32Bits(nest))
        return false;
      if (nest->getNumRegions() == 1)
        sinkConstants(nest);
      // pd-gpu-block-reductions' launches are kernels already.
      if (!isa<gpu::LaunchOp>(nest))
        map(nest);
    }
    return true;
  }

  /// Whether `v` is a constant tensor: a memref.global, or a view of one.
  static bool isConstantTensor(Value v) {
    for (Operation *def = v.getDefiningOp(); def; def = def->getOperand(0).getDefiningOp()) {
      if (isa<memref::GetGlobalOp>(def))
        return true;
      if (!isa<memref::SubViewOp, memref::CollapseShapeOp, memref::ExpandShapeOp, memref::ReshapeOp,
               memref::CastOp, memref::ReinterpretCastOp>(def))
        return false;
    }
    return false;
  }

  /// The copy inside `body` (before `at`) of the constant tensor `v` (its
  /// memref.get_global and the views on it, and what those read: index
  /// constants, a reshape's shape tensor), made once per value.
  static Value cloneInto(Value v, OpBuilder &b, IRMapping &copies) {
    if (Value done = copies.lookupOrNull(v))
      return done;
    Operation *def = v.getDefiningOp();
    if (!def || (!isConstantTensor(v) && !isa<arith::ConstantOp>(def)))
      return v;
    for (Value operand : def->getOperands())
      cloneInto(operand, b, copies);
    b.clone(*def, copies);
    return copies.lookup(v);
  }

  /// Constant tensors (memref.global, directly or through views) that
  /// `nest` reads are read by the kernel from its own copy: their
  /// get_global and views move into the nest, so gpu-kernel-outlining puts
  /// the global in the kernel's module and it travels in the cubin instead
  /// of being a host address.
  void sinkConstants(Operation *nest) {
    Region &region = nest->getRegion(0);
    OpBuilder b = OpBuilder::atBlockBegin(&region.front());
    IRMapping copies;
    nest->walk([&](Operation *op) {
      for (OpOperand &use : op->getOpOperands()) {
        Value v = use.get();
        if (!isa<MemRefType>(v.getType()) || !isConstantTensor(v) ||
            nest->isProperAncestor(v.getDefiningOp()))
          continue;
        use.set(cloneInto(v, b, copies));
        sunk.push_back(v.getDefiningOp());
      }
    });
  }

  /// Host copies of sunk constants that nothing reads any more, erased
  /// once every nest is mapped (a view first, then what it viewed).
  void eraseDeadSunk() {
    llvm::SmallPtrSet<Operation *, 16> pending(sunk.begin(), sunk.end());
    for (bool changed = true; changed;) {
      changed = false;
      for (Operation *op : llvm::to_vector(pending)) {
        if (!op->use_empty())
          continue;
        for (Value v : op->getOperands())
          if (Operation *def = v.getDefiningOp())
            pending.insert(def);
        pending.erase(op);
        op->erase();
        changed = true;
      }
    }
    sunk.clear();
  }

  SmallVector<Operation *> sunk;

  /// Whether every buffer `nest` accesses spans fewer than 2^31 elements,
  /// so kernels may index in 32 bits; else an error naming the buffer.
  bool fitsIn32Bits(Operation *nest) {
    constexpr int64_t kLimit = int64_t(1) << 31;
    WalkResult r = nest->walk([&](Operation *op) {
      for (Value v : op->getOperands()) {
        auto type = dyn_cast<MemRefType>(v.getType());
        if (!type)
          continue;
        SmallVector<int64_t> strides;
        int64_t offset = 0;
        bool known =
            type.hasStaticShape() && succeeded(type.getStridesAndOffset(strides, offset)) &&
            !ShapedType::isDynamic(offset) && llvm::none_of(strides, ShapedType::isDynamic);
        int64_t extent = offset + 1;
        for (auto [size, stride] : llvm::zip(type.getShape(), strides))
          extent += known ? (size - 1) * stride : 0;
        if (known && extent < kLimit)
          continue;
        op->emitError("32-bit kernel indexing (index-bitwidth=32) cannot address ")
            << type << (known ? " (" + std::to_string(extent) + " elements)" : std::string())
            << "; compile with --cuda-index-bitwidth 64 (index-bitwidth=64)";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return !r.wasInterrupted();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (indexBitwidth != 32 && indexBitwidth != 64) {
      module.emitError("index-bitwidth must be 32 or 64, not ")
          << static_cast<int64_t>(indexBitwidth);
      return signalPassFailure();
    }
    // Launch sizes, the memory plan and the kernels are static for now:
    // name a dynamic input rather than fail on the size helpers it needs.
    if (auto main = module.lookupSymbol<func::FuncOp>("main")) {
      for (BlockArgument arg : main.getArguments()) {
        auto type = dyn_cast<MemRefType>(arg.getType());
        if (!type || type.hasStaticShape() || main.getArgAttr(arg.getArgNumber(), "pd.arena"))
          continue;
        auto name = main.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "pd.name");
        main.emitError("the cuda target needs static shapes for now: input ")
            << (name ? "'" + name.getValue().str() + "'" : "#" + std::to_string(arg.getArgNumber()))
            << " is " << type << " (fix its dims, e.g. paddle-compile --input-shape)";
        return signalPassFailure();
      }
    }
    for (auto fn : module.getOps<func::FuncOp>())
      if (!fn.isDeclaration() && !mapFunction(fn))
        return signalPassFailure();
    eraseDeadSunk();
  }
};
} // namespace
} // namespace mlir::pd

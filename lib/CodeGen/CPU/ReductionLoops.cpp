//===- ReductionLoops.cpp - reductions accumulate in registers -------------===//
//
// convert-linalg-to-loops lowers a reduction as a load, update and store of
// its output element at every iteration. LLVM can only vectorize such a loop
// after promoting that element to a register, which needs proof that no
// input aliases it; the proof rarely survives outlining and tiling, so
// per-channel sums (batch_norm statistics and their gradients), row
// reductions and the like ran as scalar chains of dependent adds, several
// times below memory speed.
//
// This pass lowers a linalg.generic on buffers whose innermost loops are
// reductions its outputs do not index: loops over the other dimensions load
// each output element once, an scf.for nest over the trailing reductions
// carries the partial results as iteration arguments, and the final values
// are stored after it. The inner loop then holds loads and arithmetic only,
// a reduction LLVM vectorizes (partial sums; pd-outline-ops marks the float
// ops of reductions reassociable). Other ops keep convert-linalg-to-loops.
//
//===----------------------------------------------------------------------===//

#include "../LoopUtils.h"
#include "PaddleMLIR/CodeGen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace mlir::pd {
#define GEN_PASS_DEF_PDREDUCTIONLOOPSPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"

/// How many trailing loops of `op` are reductions that no output's indexing
/// map uses (0: the op is not one this pass lowers).
unsigned trailingReductions(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() == 0)
    return 0;
  SmallVector<utils::IteratorType> kinds = op.getIteratorTypesArray();
  unsigned n = kinds.size(), k = 0;
  auto usedByOutput = [&](unsigned dim) {
    for (OpOperand &init : op.getDpsInitsMutable())
      if (op.getMatchingIndexingMap(&init).isFunctionOfDim(dim))
        return true;
    return false;
  };
  while (k < n && kinds[n - 1 - k] == utils::IteratorType::reduction && !usedByOutput(n - 1 - k))
    ++k;
  // Scalar outputs of a full reduction (k == n) work too: no outer loops.
  return k;
}

/// Whether `map` reads any loop dimension from `first` on.
bool readsDimsFrom(AffineMap map, unsigned first) {
  for (unsigned d = first; d < map.getNumDims(); ++d)
    if (map.isFunctionOfDim(d))
      return true;
  return false;
}

/// The element of `buffer` that `map` selects at loop indices `ivs`.
SmallVector<Value> indicesAt(OpBuilder &b, Location loc, AffineMap map, ValueRange ivs) {
  SmallVector<Value> indices;
  for (unsigned r = 0; r < map.getNumResults(); ++r) {
    AffineMap one = map.getSubMap({r});
    if (auto dim = dyn_cast<AffineDimExpr>(one.getResult(0)))
      indices.push_back(ivs[dim.getPosition()]);
    else
      indices.push_back(affine::AffineApplyOp::create(b, loc, one, ivs));
  }
  return indices;
}

namespace {
/// Reassociation of a rank-`r` buffer that merges its last `k` dims.
SmallVector<ReassociationIndices> trailingGroups(unsigned r, unsigned k) {
  SmallVector<ReassociationIndices> groups;
  for (unsigned i = 0; i + k < r; ++i)
    groups.push_back({(int64_t)i});
  ReassociationIndices last;
  for (unsigned i = r - k; i < r; ++i)
    last.push_back(i);
  groups.push_back(last);
  return groups;
}

/// Whether the `k` trailing loops can run as one loop over their product:
/// each input either ignores them or indexes its own trailing `k` dims with
/// them in order, over memory that is contiguous there (a collapsible view),
/// and the body does not read their indices. With it a 56x56 spatial sum is
/// one loop of 3136 that LLVM vectorizes, not 56 short rows it unrolls.
bool collapsible(linalg::GenericOp op, unsigned k) {
  unsigned n = op.getNumLoops();
  if (k < 2)
    return false;
  bool readsInner = false;
  op.getRegion().walk([&](linalg::IndexOp index) { readsInner |= index.getDim() >= n - k; });
  if (readsInner)
    return false;
  for (OpOperand *in : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(in->get().getType());
    AffineMap map = op.getMatchingIndexingMap(in);
    if (!readsDimsFrom(map, n - k))
      continue;
    unsigned r = map.getNumResults();
    if (!type || r < k)
      return false;
    for (unsigned i = 0; i < r; ++i) {
      AffineExpr e = map.getResult(i);
      if (i >= r - k) {
        auto dim = dyn_cast<AffineDimExpr>(e);
        if (!dim || dim.getPosition() != n - k + (i - (r - k)))
          return false;
      } else if (readsDimsFrom(map.getSubMap({i}), n - k)) {
        return false;
      }
    }
    if (!memref::CollapseShapeOp::isGuaranteedCollapsible(type, trailingGroups(r, k)))
      return false;
  }
  return true;
}

void lower(linalg::GenericOp op, unsigned k) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto linalgOp = cast<linalg::LinalgOp>(op.getOperation());
  SmallVector<Range> ranges = linalgOp.createLoopRanges(b, loc);
  unsigned n = ranges.size(), outer = n - k;
  auto value = [&](OpFoldResult r) { return getValueOrCreateConstantIndexOp(b, loc, r); };
  SmallVector<Value> lbs, ubs, steps;
  for (const Range &r : ranges) {
    lbs.push_back(value(r.offset));
    ubs.push_back(value(r.size));
    steps.push_back(value(r.stride));
  }
  Block &body = op.getRegion().front();
  unsigned numInputs = op.getNumDpsInputs();

  // One inner loop over the product of the trailing dims when the inputs
  // allow it (loop ranges start at 0 with step 1): the inputs that read
  // those dims are viewed with them merged.
  bool merge = collapsible(op, k);
  SmallVector<Value> inputs;
  for (unsigned i = 0; i < numInputs; ++i)
    inputs.push_back(op.getDpsInputOperand(i)->get());
  SmallVector<bool> merged(numInputs, false);
  SmallVector<Value> innerLbs(ArrayRef<Value>(lbs).drop_front(outer)),
      innerUbs(ArrayRef<Value>(ubs).drop_front(outer)),
      innerSteps(ArrayRef<Value>(steps).drop_front(outer));
  if (merge) {
    Value count = innerUbs[0];
    for (unsigned i = 1; i < k; ++i)
      count = b.createOrFold<arith::MulIOp>(loc, count, innerUbs[i]);
    innerLbs = {innerLbs[0]};
    innerUbs = {count};
    innerSteps = {innerSteps[0]};
    for (unsigned i = 0; i < numInputs; ++i) {
      AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(i));
      if (!readsDimsFrom(map, outer))
        continue;
      merged[i] = true;
      inputs[i] = memref::CollapseShapeOp::create(b, loc, inputs[i],
                                                  trailingGroups(map.getNumResults(), k));
    }
  }

  auto buildInner = [&](OpBuilder &ob, Location l, ValueRange outerIvs) {
    // Indices at these outer indices with the trailing dims at 0, for what
    // does not read them (the outputs).
    SmallVector<Value> atOuter(outerIvs);
    Value zero = arith::ConstantIndexOp::create(ob, l, 0);
    atOuter.append(k, zero);
    SmallVector<Value> init;
    SmallVector<SmallVector<Value>> outIndices;
    for (OpOperand &out : op.getDpsInitsMutable()) {
      outIndices.push_back(indicesAt(ob, l, op.getMatchingIndexingMap(&out), atOuter));
      init.push_back(memref::LoadOp::create(ob, l, out.get(), outIndices.back()));
    }
    scf::LoopNest nest = scf::buildLoopNest(
        ob, l, innerLbs, innerUbs, innerSteps, init,
        [&](OpBuilder &ib, Location il, ValueRange innerIvs, ValueRange acc) -> scf::ValueVector {
          SmallVector<Value> ivs(outerIvs);
          if (merge)
            ivs.append(k, innerIvs[0]); // only merged inputs read these
          else
            ivs.append(innerIvs.begin(), innerIvs.end());
          IRMapping map;
          for (unsigned i = 0; i < numInputs; ++i) {
            Value v = inputs[i];
            AffineMap m = op.getMatchingIndexingMap(op.getDpsInputOperand(i));
            if (merged[i]) {
              // The leading results do not read the trailing dims.
              SmallVector<Value> idx =
                  indicesAt(ib, il, m.getSliceMap(0, m.getNumResults() - k), atOuter);
              idx.push_back(innerIvs[0]);
              v = memref::LoadOp::create(ib, il, v, idx);
            } else if (isa<MemRefType>(v.getType())) {
              v = memref::LoadOp::create(ib, il, v, indicesAt(ib, il, m, ivs));
            }
            map.map(body.getArgument(i), v);
          }
          for (auto [j, a] : llvm::enumerate(acc))
            map.map(body.getArgument(numInputs + j), a);
          scf::ValueVector results;
          for (Operation &o : body) {
            if (auto index = dyn_cast<linalg::IndexOp>(o)) {
              map.map(index.getResult(), ivs[index.getDim()]);
              continue;
            }
            if (auto yield = dyn_cast<linalg::YieldOp>(o)) {
              for (Value v : yield.getValues())
                results.push_back(map.lookupOrDefault(v));
              continue;
            }
            ib.clone(o, map);
          }
          return results;
        });
    for (auto [j, out] : llvm::enumerate(op.getDpsInitsMutable()))
      memref::StoreOp::create(ob, l, nest.results[j], out.get(), outIndices[j]);
  };

  if (outer == 0) {
    buildInner(b, loc, {});
  } else {
    scf::buildLoopNest(b, loc, ArrayRef<Value>(lbs).take_front(outer),
                       ArrayRef<Value>(ubs).take_front(outer),
                       ArrayRef<Value>(steps).take_front(outer),
                       [&](OpBuilder &ob, Location l, ValueRange ivs) { buildInner(ob, l, ivs); });
  }
  op.erase();
}

struct PdReductionLoopsPass : impl::PdReductionLoopsPassBase<PdReductionLoopsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, unsigned>> ops;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (unsigned k = trailingReductions(op))
        ops.push_back({op, k});
    });
    for (auto [op, k] : ops)
      lower(op, k);
  }
};
} // namespace
} // namespace mlir::pd

//===- OutlineOps.cpp - one function per bufferized linalg op -------------===//
//
// A model's @main holds every op of the program. LLVM optimizes such a
// function poorly (loop passes give up or crawl on a function of 100k+
// instructions) and slowly. Outlining each linalg op on buffers into its own
// private function keeps every loop nest in a small function LLVM optimizes
// fully; the artifact marks these functions noinline. An output buffer that
// cannot overlap any input (another allocation, or a disjoint constant range
// of the same arena) gets `llvm.noalias`, so the loops vectorize without
// run-time alias checks.
//
//===----------------------------------------------------------------------===//

#include "../ArenaViews.h"
#include "PaddleMLIR/CodeGen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

#include <optional>

using namespace mlir;

namespace mlir::pd {
#define GEN_PASS_DEF_PDOUTLINEOPSPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"

namespace {
/// The allocation (or function argument) a buffer is a view of.
Value rootOf(Value v) {
  while (auto like = dyn_cast_or_null<ViewLikeOpInterface>(v.getDefiningOp()))
    v = like.getViewSource();
  return v;
}

/// True when `out` and `in` are views of different buffers that cannot
/// overlap: distinct allocations, an allocation and an argument, or two
/// arguments (the runtime never passes overlapping buffers).
bool differentBuffers(Value out, Value in) {
  Value a = rootOf(out), b = rootOf(in);
  if (a == b)
    return false;
  auto isAlloc = [](Value r) {
    return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(r.getDefiningOp());
  };
  return isAlloc(a) || isAlloc(b) || (isa<BlockArgument>(a) && isa<BlockArgument>(b));
}

bool provablyDisjoint(Value out, Value in) {
  if (differentBuffers(out, in))
    return true;
  Value va = arenaView(out), vb = arenaView(in);
  if (!va || !vb)
    return false;
  // Different slots of the memory plan: both are live here, so they do not
  // overlap (whatever their offsets).
  auto sa = va.getDefiningOp()->getAttrOfType<IntegerAttr>(kArenaSlotAttr);
  auto sb = vb.getDefiningOp()->getAttrOfType<IntegerAttr>(kArenaSlotAttr);
  if (sa && sb && sa.getInt() != sb.getInt())
    return true;
  auto ra = viewRange(va), rb = viewRange(vb);
  return ra && rb && (ra->second <= rb->first || rb->second <= ra->first);
}

/// Lets LLVM vectorize a floating-point reduction: the float arith ops of a
/// linalg op with a reduction loop get `reassoc` (and `contract`), so the
/// sum of a row may be computed in several partial sums. Without it the
/// loop vectorizer keeps the sequential order: scalar code, one element
/// per cycle at best (BERT's layer_norm means and variances).
void allowReassociation(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumReductionLoops() == 0)
    return;
  op->walk([](arith::ArithFastMathInterface fm) {
    if (!isa<FloatType>(getElementTypeOrSelf(fm->getResult(0).getType())))
      return;
    auto flags = fm.getFastMathFlagsAttr() ? fm.getFastMathFlagsAttr().getValue()
                                           : arith::FastMathFlags::none;
    flags = flags | arith::FastMathFlags::reassoc | arith::FastMathFlags::contract;
    fm->setAttr(fm.getFastMathAttrName(), arith::FastMathFlagsAttr::get(fm->getContext(), flags));
  });
}

struct PdOutlineOpsPass : impl::PdOutlineOpsPassBase<PdOutlineOpsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    int64_t counter = 0;
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp fn : funcs) {
      if (fn.isExternal() || fn.getSymName().starts_with(kOutlinedPrefix))
        continue;
      // A strided memref.copy (e.g. into the interior of a padded buffer)
      // would become a call of the generic element-by-element memrefCopy;
      // as a linalg.copy it is outlined below into a loop nest LLVM
      // vectorizes (ResNet-50: memrefCopy was 2.8% of the run).
      fn.walk([&](memref::CopyOp copy) {
        auto src = cast<MemRefType>(copy.getSource().getType());
        auto dst = cast<MemRefType>(copy.getTarget().getType());
        if (src.getLayout().isIdentity() && dst.getLayout().isIdentity())
          return; // lowered to one memcpy
        b.setInsertionPoint(copy);
        linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(), copy.getTarget());
        copy.erase();
      });
      SmallVector<linalg::LinalgOp> ops;
      fn.walk([&](linalg::LinalgOp op) {
        if (op.hasPureBufferSemantics() && op->getParentOfType<linalg::LinalgOp>() == nullptr)
          ops.push_back(op);
      });
      for (linalg::LinalgOp op : ops)
        outline(b, module, op, counter++);
    }
  }

  void outline(OpBuilder &b, ModuleOp module, linalg::LinalgOp op, int64_t id) {
    // Values the op uses: its operands and anything its body captures.
    // Constants are cloned into the new function instead.
    SetVector<Value> captured;
    for (Value v : op->getOperands())
      captured.insert(v);
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    SmallVector<Value> args;
    SmallVector<Operation *> constants;
    for (Value v : captured) {
      Operation *def = v.getDefiningOp();
      if (def && def->hasTrait<OpTrait::ConstantLike>())
        constants.push_back(def);
      else
        args.push_back(v);
    }
    SmallVector<Type> types;
    for (Value v : args)
      types.push_back(v.getType());
    b.setInsertionPoint(op->getParentOfType<func::FuncOp>());
    std::string name = (kOutlinedPrefix + Twine(id)).str();
    auto fn = func::FuncOp::create(b, op.getLoc(), name, b.getFunctionType(types, {}));
    fn.setPrivate();
    Block *body = fn.addEntryBlock();
    IRMapping map;
    for (auto [v, a] : llvm::zip(args, body->getArguments()))
      map.map(v, a);
    b.setInsertionPointToStart(body);
    for (Operation *c : constants)
      map.map(c->getResult(0), b.clone(*c)->getResult(0));
    Operation *copy = b.clone(*op, map);
    func::ReturnOp::create(b, op.getLoc());
    allowReassociation(copy);

    // noalias on an output that overlaps no other buffer operand.
    for (OpOperand &init : op.getDpsInitsMutable()) {
      Value out = init.get();
      bool ok = true;
      for (Value other : args)
        if (other != out && isa<MemRefType>(other.getType()) && !provablyDisjoint(out, other))
          ok = false;
      if (llvm::count(args, out) != 1)
        ok = false;
      if (ok)
        fn.setArgAttr(llvm::find(args, out) - args.begin(), "llvm.noalias", b.getUnitAttr());
    }

    b.setInsertionPoint(op);
    func::CallOp::create(b, op.getLoc(), fn, args);
    op->erase();
  }
};
} // namespace
} // namespace mlir::pd

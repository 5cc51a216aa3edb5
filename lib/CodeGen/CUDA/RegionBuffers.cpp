//===- RegionBuffers.cpp - arena slots for the buffers of @main's branches ===//
//
// pd-plan-memory places the buffers allocated in @main's entry block; the
// ones a pipeline stage (an scf.if on the rank) allocates inside its
// branches stay on the heap, which the CPU can read but a GPU cannot. This
// pass, run on the CUDA target before the plan, moves those allocations in
// front of their scf.if and gives each memref result of the scf.if a
// buffer of its own that every branch fills, so that the plan places them
// all in the device arena and no branch yields host memory (a constant).
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace mlir::pd {
#define GEN_PASS_DEF_PDGPUREGIONBUFFERSPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"

namespace {
/// The splat value of the constant `v` is a view of, if any.
std::optional<TypedAttr> splatConstant(Value v) {
  auto get = v.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return std::nullopt;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(get, get.getNameAttr());
  auto init = global ? dyn_cast_or_null<DenseElementsAttr>(global.getConstantInitValue())
                     : DenseElementsAttr();
  if (!init || !init.isSplat())
    return std::nullopt;
  return init.getSplatValue<TypedAttr>();
}

bool staticBuffer(Type t) {
  auto m = dyn_cast<MemRefType>(t);
  return m && m.hasStaticShape() && m.getLayout().isIdentity();
}

struct PdGpuRegionBuffersPass : impl::PdGpuRegionBuffersPassBase<PdGpuRegionBuffersPass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.isExternal())
      return;
    SmallVector<scf::IfOp> branches;
    for (Operation &op : fn.front())
      if (auto i = dyn_cast<scf::IfOp>(op))
        branches.push_back(i);
    for (scf::IfOp branch : branches)
      if (failed(prepare(branch)))
        return signalPassFailure();
  }

  LogicalResult prepare(scf::IfOp branch) {
    OpBuilder top(branch);
    Location loc = branch.getLoc();
    // Each memref result: a buffer before the scf.if that both branches
    // fill where they yield.
    SmallVector<Value> results;
    for (OpResult r : branch.getResults()) {
      if (!isa<MemRefType>(r.getType())) {
        results.push_back(Value());
        continue;
      }
      if (!staticBuffer(r.getType()))
        return branch.emitError("the cuda target needs branch results with static shapes and "
                                "identity layouts, not ")
               << r.getType();
      results.push_back(memref::AllocOp::create(top, loc, cast<MemRefType>(r.getType()),
                                                top.getI64IntegerAttr(64)));
    }
    for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()}) {
      if (region->empty())
        continue;
      auto yield = cast<scf::YieldOp>(region->front().getTerminator());
      OpBuilder b(yield);
      for (auto [i, buffer] : llvm::enumerate(results)) {
        if (!buffer)
          continue;
        Value yielded = yield.getOperand(i);
        if (std::optional<TypedAttr> splat = splatConstant(yielded))
          linalg::FillOp::create(b, loc, ValueRange{arith::ConstantOp::create(b, loc, *splat)},
                                 ValueRange{buffer});
        else
          memref::CopyOp::create(b, loc, yielded, buffer);
      }
    }
    // The scf.if without memref results: their uses read the buffers.
    SmallVector<Type> kept;
    for (auto [r, buffer] : llvm::zip(branch.getResults(), results))
      if (!buffer)
        kept.push_back(r.getType());
    auto replacement = scf::IfOp::create(top, loc, kept, branch.getCondition(),
                                         /*withElseRegion=*/false);
    replacement.getThenRegion().takeBody(branch.getThenRegion());
    replacement.getElseRegion().takeBody(branch.getElseRegion());
    for (Region *region : {&replacement.getThenRegion(), &replacement.getElseRegion()}) {
      if (region->empty())
        continue;
      auto yield = cast<scf::YieldOp>(region->front().getTerminator());
      SmallVector<Value> operands;
      for (auto [v, buffer] : llvm::zip(yield.getOperands(), results))
        if (!buffer)
          operands.push_back(v);
      OpBuilder yb(yield);
      scf::YieldOp::create(yb, yield.getLoc(), operands);
      yield.erase();
    }
    unsigned k = 0;
    for (auto [r, buffer] : llvm::zip(branch.getResults(), results))
      r.replaceAllUsesWith(buffer ? buffer : replacement.getResult(k++));
    branch.erase();
    // The branches' own buffers move in front of the scf.if.
    SmallVector<memref::AllocOp> allocs;
    replacement.walk([&](memref::AllocOp a) { allocs.push_back(a); });
    for (memref::AllocOp a : allocs) {
      if (!a.getOperands().empty() || !staticBuffer(a.getType()))
        return a.emitError("the cuda target needs the buffers of a branch to have static shapes, "
                           "not ")
               << a.getType();
      a->moveBefore(replacement);
    }
    return success();
  }
};
} // namespace
} // namespace mlir::pd

//===- ExternalizeWeights.cpp - parameter globals -> @main arguments -----===//

#include "PaddleMLIR/CodeGen/Passes.h"

#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/Builders.h"

namespace mlir::pd {
#define GEN_PASS_DEF_PDEXTERNALIZEWEIGHTSPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"

namespace {
struct PdExternalizeWeightsPass : impl::PdExternalizeWeightsPassBase<PdExternalizeWeightsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main) {
      module.emitError("pd-externalize-weights: the module has no @main");
      return signalPassFailure();
    }
    // One argument per global, in the order globals are declared.
    llvm::DenseMap<StringAttr, BlockArgument> args;
    Block &entry = main.getBody().front();
    for (auto global : llvm::make_early_inc_range(module.getOps<ml_program::GlobalOp>())) {
      unsigned index = main.getNumArguments();
      if (failed(main.insertArgument(
              index, global.getType(),
              DictionaryAttr::get(&getContext(),
                                  {NamedAttribute(StringAttr::get(&getContext(), "pd.weight"),
                                                  global.getSymNameAttr())}),
              global.getLoc())))
        return signalPassFailure();
      args[global.getSymNameAttr()] = entry.getArgument(index);
    }
    WalkResult walk = main.walk([&](ml_program::GlobalLoadConstOp load) {
      auto it = args.find(load.getGlobal().getLeafReference());
      if (it == args.end()) {
        load.emitError("load of an unknown global");
        return WalkResult::interrupt();
      }
      load.getResult().replaceAllUsesWith(it->second);
      load.erase();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    for (auto global : llvm::make_early_inc_range(module.getOps<ml_program::GlobalOp>()))
      global.erase();
    // A result that is an argument (an identity model, a weight returned as
    // is) gets its own buffer: the runtime frees results and never owns
    // inputs or weights.
    main.walk([&](func::ReturnOp ret) {
      OpBuilder b(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        // Reshape-like ops bufferize to views, so a result reached from an
        // argument only through them aliases the argument too.
        Value src = operand.get();
        while (Operation *def = src.getDefiningOp()) {
          if (!isa<Reshape2Op, Squeeze2Op, Unsqueeze2Op, FlattenContiguousRangeOp, Flatten2Op,
                   AssignOp, tensor::CastOp>(def))
            break;
          src = def->getOperand(0);
        }
        auto type = dyn_cast<RankedTensorType>(operand.get().getType());
        if (!isa<BlockArgument>(src) || !type)
          continue;
        // The copy gives the sizes (alloc_tensor takes no dynamic sizes
        // with a copy).
        operand.set(bufferization::AllocTensorOp::create(b, ret.getLoc(), type, ValueRange{},
                                                         operand.get()));
      }
    });
    // The runtime calls @main through its C interface.
    main->setAttr("llvm.emit_c_interface", UnitAttr::get(&getContext()));
  }
};
} // namespace
} // namespace mlir::pd

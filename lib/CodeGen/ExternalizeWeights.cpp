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
    // A constant global is `pd.weight` (kernels may pack it once); a
    // mutable one (a trained parameter) is `pd.param`: the runtime keeps a
    // copy per instance and writes its updates back after each run.
    for (auto global : llvm::make_early_inc_range(module.getOps<ml_program::GlobalOp>())) {
      unsigned index = main.getNumArguments();
      StringRef kind = global.getIsMutable() ? "pd.param" : "pd.weight";
      if (failed(main.insertArgument(
              index, global.getType(),
              DictionaryAttr::get(
                  &getContext(),
                  {NamedAttribute(StringAttr::get(&getContext(), kind), global.getSymNameAttr())}),
              global.getLoc())))
        return signalPassFailure();
      args[global.getSymNameAttr()] = entry.getArgument(index);
    }
    auto argOf = [&](Operation *op, SymbolRefAttr sym) -> Value {
      auto it = args.find(sym.getLeafReference());
      if (it == args.end()) {
        op->emitError("load or store of an unknown global");
        return nullptr;
      }
      return it->second;
    };
    // Stores become results named after the global, marked `pd.update`,
    // in program order (collectInterface lists them in the same order).
    SmallVector<std::pair<StringAttr, Value>> stores;
    WalkResult walk = main.walk([&](Operation *op) {
      Value arg;
      if (auto load = dyn_cast<ml_program::GlobalLoadConstOp>(op))
        arg = argOf(op, load.getGlobal());
      else if (auto load = dyn_cast<ml_program::GlobalLoadOp>(op))
        arg = argOf(op, load.getGlobal());
      else if (auto store = dyn_cast<ml_program::GlobalStoreOp>(op)) {
        if (!argOf(op, store.getGlobal()))
          return WalkResult::interrupt();
        stores.push_back({store.getGlobal().getLeafReference(), store.getValue()});
        op->erase();
        return WalkResult::skip();
      } else
        return WalkResult::advance();
      if (!arg)
        return WalkResult::interrupt();
      op->getResult(0).replaceAllUsesWith(arg);
      op->erase();
      return WalkResult::skip();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    if (!stores.empty()) {
      auto ret = cast<func::ReturnOp>(entry.getTerminator());
      SmallVector<Value> values(ret.getOperands());
      SmallVector<DictionaryAttr> attrs;
      for (unsigned i = 0; i < main.getNumResults(); ++i)
        attrs.push_back(main.getResultAttrDict(i) ? main.getResultAttrDict(i)
                                                  : DictionaryAttr::get(&getContext()));
      OpBuilder b(ret);
      for (auto &[name, value] : stores) {
        // The update is written into the parameter's own buffer (the
        // argument), so a train step allocates nothing for it and the
        // runtime copies nothing back: bufferization computes it in place
        // where no later read of the old value conflicts, else copies it in.
        BlockArgument arg = args.lookup(name);
        if (arg && arg.getType() == value.getType())
          value = bufferization::MaterializeInDestinationOp::create(b, ret.getLoc(), value, arg)
                      .getResult();
        values.push_back(value);
        attrs.push_back(b.getDictionaryAttr(
            {b.getNamedAttr("pd.name", name), b.getNamedAttr("pd.update", name)}));
      }
      ret->setOperands(values);
      SmallVector<Type> types;
      for (Value v : values)
        types.push_back(v.getType());
      main.setFunctionType(FunctionType::get(&getContext(), main.getArgumentTypes(), types));
      main.setAllResultAttrs(attrs);
    }
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

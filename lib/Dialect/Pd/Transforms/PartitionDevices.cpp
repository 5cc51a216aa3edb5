//===- PartitionDevices.cpp - the pd-partition-devices pass ---------------===//
//
// Data-parallel inference: each rank computes its part of the batch and the
// parts are gathered back, so the partitioned program keeps the original's
// interface (docs/MultiDevice.md).
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir::pd {
#define GEN_PASS_DEF_PDPARTITIONDEVICESPASS
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h.inc"

namespace {
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

struct PdPartitionDevicesPass : impl::PdPartitionDevicesPassBase<PdPartitionDevicesPass> {
  using Base::Base;

  LogicalResult partitionData(func::FuncOp main) {
    int64_t n = devices;
    // The batch: dim 0 of every input, the same where static.
    int64_t batch = ShapedType::kDynamic;
    for (BlockArgument arg : main.getArguments()) {
      auto t = dyn_cast<RankedTensorType>(arg.getType());
      std::string name = nameOf(main, arg.getArgNumber(), false);
      if (main.getArgAttr(arg.getArgNumber(), "pd.lod_of"))
        return main.emitError("pd-partition-devices: input '")
               << name << "' holds the lengths of a LoD batch; splitting sequences among ranks "
               << "is not supported yet";
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
    for (Operation &op : main.getBody().getOps()) {
      if (op.getNumRegions() > 0)
        return op.emitError("pd-partition-devices: programs with control flow ('")
               << op.getName() << "') are not partitioned yet";
      // Its collectives would then reduce the parts of the batch too.
      if (communicates(&op) || isa<ShardBatchOp>(op))
        return op.emitError("pd-partition-devices: the program already communicates ('")
               << op.getName() << "'); partitioning it again would change what its "
               << "collectives compute";
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
    WalkResult walk = main.walk([&](Operation *op) {
      if (isa<ShardBatchOp, func::ReturnOp, func::FuncOp>(op))
        return WalkResult::advance();
      auto shapeFn = dyn_cast<PdShapeInference>(op);
      if (!shapeFn) {
        if (op->getNumOperands() == 0)
          return WalkResult::advance(); // weights and constants
        op->emitError("pd-partition-devices: cannot infer the types of '")
            << op->getName() << "' for a part of the batch";
        return WalkResult::interrupt();
      }
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
      if (failed(inferred)) {
        op->emitError("pd-partition-devices: the op's shapes do not follow a split of the batch "
                      "among ")
            << n << " devices (an attribute may hold the batch size): " << why;
        return WalkResult::interrupt();
      }
      for (auto [r, t] : llvm::zip(op->getResults(), types))
        r.setType(t);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();

    // Each output gathered back along dim 0.
    auto ret = cast<func::ReturnOp>(main.getBody().front().getTerminator());
    b.setInsertionPoint(ret);
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
      auto gather = CAllgatherOp::create(
          b, ret.getLoc(), before, o.get(), /*ring_id=*/b.getI32IntegerAttr(0),
          /*nranks=*/b.getI32IntegerAttr(static_cast<int32_t>(n)), b.getBoolAttr(false));
      o.set(gather.getResult());
    }
    main.setFunctionType(
        FunctionType::get(main.getContext(), main.getArgumentTypes(), ret.getOperandTypes()));
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (mode != "data") {
      module.emitError("pd-partition-devices: mode '")
          << mode << "' is not supported (data; pipeline is planned)";
      return signalPassFailure();
    }
    if (devices < 2) {
      module.emitError("pd-partition-devices: devices must be >= 2, got ") << devices;
      return signalPassFailure();
    }
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main) {
      module.emitError("pd-partition-devices: the module has no @main");
      return signalPassFailure();
    }
    if (failed(partitionData(main)))
      return signalPassFailure();
    Builder b(module.getContext());
    module->setAttr("pd.partition",
                    b.getDictionaryAttr({b.getNamedAttr("mode", b.getStringAttr(mode)),
                                         b.getNamedAttr("devices", b.getI64IntegerAttr(devices))}));
  }
};
} // namespace
} // namespace mlir::pd

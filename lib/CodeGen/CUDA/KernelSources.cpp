//===- KernelSources.cpp - the Paddle ops each generated kernel computes --===//
//
// For the manifest: after gpu-kernel-outlining, each gpu.module (one
// kernel) is listed with the Paddle ops its body came from, read from the
// importer's locations ("relu #12 -> relu_3.tmp_0"), which the lowering
// keeps on the ops it creates.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace mlir::pd {
#define GEN_PASS_DEF_PDGPUKERNELSOURCESPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"

namespace {
/// The op's index in the program ("type #index -> ..."), for ordering.
unsigned programIndex(StringRef name) {
  unsigned index = 0;
  (void)name.split(" #").second.split(' ').first.getAsInteger(10, index);
  return index;
}

void sortByProgramOrder(SmallVectorImpl<StringRef> &names) {
  llvm::stable_sort(names,
                    [](StringRef a, StringRef b) { return programIndex(a) < programIndex(b); });
}
} // namespace

SmallVector<StringRef> sourceOpsOf(Location loc) {
  llvm::SetVector<StringRef> names;
  loc->walk([&](Location inner) {
    if (auto name = dyn_cast<NameLoc>(inner)) {
      // The importer's op locations ("type #index -> outputs"); the
      // weights' ("parameter w") name no op.
      StringRef text = name.getName().getValue();
      if (text.contains(" #") && !text.starts_with("parameter "))
        names.insert(text);
    }
    return WalkResult::advance();
  });
  SmallVector<StringRef> ordered = names.takeVector();
  sortByProgramOrder(ordered);
  return ordered;
}

namespace {
struct PdGpuKernelSourcesPass : impl::PdGpuKernelSourcesPassBase<PdGpuKernelSourcesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<NamedAttribute> kernels;
    Builder b(module.getContext());
    module.walk([&](gpu::GPUModuleOp kernel) {
      llvm::SetVector<StringRef> names;
      kernel.walk([&](Operation *op) {
        for (StringRef name : sourceOpsOf(op->getLoc()))
          names.insert(name);
      });
      SmallVector<StringRef> ordered = names.takeVector();
      sortByProgramOrder(ordered);
      SmallVector<Attribute> list;
      for (StringRef name : ordered)
        list.push_back(b.getStringAttr(name));
      kernels.push_back(b.getNamedAttr(kernel.getSymName(), b.getArrayAttr(list)));
    });
    module->setAttr("pd.kernel_sources", b.getDictionaryAttr(kernels));
  }
};
} // namespace
} // namespace mlir::pd

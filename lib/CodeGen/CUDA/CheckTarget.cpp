//===- CheckTarget.cpp - refuse a chip or PTX version NVPTX cannot build --===//

#include "PaddleMLIR/CodeGen/Passes.h"

using namespace mlir;

namespace mlir::pd {
#define GEN_PASS_DEF_PDCHECKCUDATARGETPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"

namespace {
struct PdCheckCudaTargetPass : impl::PdCheckCudaTargetPassBase<PdCheckCudaTargetPass> {
  using PdCheckCudaTargetPassBase::PdCheckCudaTargetPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    int first = minimumPtxVersion(chip);
    if (first == 0) {
      module.emitError() << "unknown CUDA architecture '" << chip
                         << "' (known: sm_50 to sm_90a, sm_100, sm_101, sm_120 and their 'a' "
                            "forms)";
      return signalPassFailure();
    }
    StringRef digits = ptx;
    unsigned version = 0;
    if (!digits.consume_front("+ptx") || digits.getAsInteger(10, version)) {
      module.emitError() << "the PTX version must be written +ptxNN (e.g. +ptx80), not '" << ptx
                         << "'";
      return signalPassFailure();
    }
    if ((int)version < first) {
      module.emitError() << "PTX " << version / 10 << "." << version % 10 << " (" << ptx
                         << ") cannot target " << chip << ", which needs PTX " << first / 10 << "."
                         << first % 10 << " or later";
      return signalPassFailure();
    }
  }
};
} // namespace
} // namespace mlir::pd

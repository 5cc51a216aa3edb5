//===- FuseElementwise.cpp - elementwise fusion without recomputation ----===//

#include "PaddleMLIR/CodeGen/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::pd {
#define GEN_PASS_DEF_PDFUSEELEMENTWISEPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"

namespace {
struct PdFuseElementwisePass : impl::PdFuseElementwisePassBase<PdFuseElementwisePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(patterns, [](OpOperand *operand) {
      auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
      return consumer && consumer.getNumLoops() == consumer.getNumParallelLoops();
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::pd

//===- Collective.cpp - gradient rules: collectives -----------------------===//
//
// In data-parallel training every rank differentiates its own loss and the
// objective is the sum (or mean) of the ranks' losses. A value summed over
// the ranks by c_allreduce_sum feeds every rank's loss, so the gradient of
// each rank's input is the sum over the ranks of the gradients its result
// received: c_allreduce_sum again, on the same ring. (sync batch_norm's
// statistics are such sums.)
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

namespace mlir::pd {
LogicalResult gradient(CAllreduceSumOp op, GradientBuilder &g) {
  g.setGrad(0, g.make<CAllreduceSumOp>(g.resultGrad(0), op.getRingIdAttr()));
  return success();
}

void attachCollectiveGradients(MLIRContext *ctx) { attachRules<CAllreduceSumOp>(ctx); }
} // namespace mlir::pd

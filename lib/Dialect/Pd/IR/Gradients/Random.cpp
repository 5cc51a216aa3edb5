//===- Random.cpp - gradient rules: dropout -------------------------------===//
//
// A training dropout draws its mask from a counter-based hash of (seed,
// step, element index), so applying the same dropout (same Seed operand and
// attributes) to the output's gradient multiplies it by the very same mask
// and scale: that is the input's gradient.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

namespace mlir::pd {
LogicalResult gradient(DropoutOp op, GradientBuilder &g) {
  if (op.getIsTest()) {
    // Inference dropout is a constant scale (or the identity).
    double keep = op.getDropoutImplementation() == "upscale_in_train"
                      ? 1.0
                      : 1.0 - op.getDropoutProb().convertToDouble();
    g.setGrad(0, g.scale(g.resultGrad(0), keep));
    return success();
  }
  if (!op.getSeedInput())
    return g.emitError() << "a training dropout needs its Seed operand (pd-append-backward adds "
                            "the step counter)";
  g.setGrad(0, g.make<DropoutOp>(g.resultGrad(0), op.getSeedInput(), op.getDropoutProbAttr(),
                                 op.getIsTestAttr(), op.getDropoutImplementationAttr(),
                                 op.getFixSeedAttr(), op.getSeedAttr()));
  return success();
}

void attachRandomGradients(MLIRContext *ctx) { attachRules<DropoutOp>(ctx); }
} // namespace mlir::pd

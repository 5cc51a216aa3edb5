//===- LowPrecision.cpp - pd ops on bf16 / f16 tensors, computed in f32 ---===//
//
// pd-auto-mixed-precision leaves ops on bf16 (or f16) tensors. The oneDNN
// kernels compute convolutions and matrix products in bf16 themselves
// (OneDNN.cpp, at a higher benefit); every other such op is computed here
// in f32 on the widened values and its result narrowed again: the pattern
// rewrites it to pd.cast (to f32) -> the same op on f32 -> pd.cast (back),
// which the other patterns then lower, and the elementwise fusion merges
// the casts into the op's loop (one pass reading and writing bf16). Exact
// for the data-movement ops, which therefore keep their low-precision
// types and lower directly (a bf16 copy is a 16-bit copy).
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

using namespace mlir;
using namespace mlir::pd;

namespace {
/// Above the linalg lowerings, below the oneDNN kernels' benefit (10).
constexpr unsigned kBenefit = 5;

bool isLow(Type t) {
  auto r = dyn_cast<RankedTensorType>(t);
  return r && (r.getElementType().isBF16() || r.getElementType().isF16());
}

/// Paddle's VarType codes of the float types (pd.cast's attributes).
int32_t varTypeOf(Type t) { return t.isBF16() ? 22 : t.isF16() ? 4 : t.isF32() ? 5 : 6; }

Value castTo(OpBuilder &b, Location loc, Value v, Type elem) {
  auto t = cast<RankedTensorType>(v.getType());
  return CastOp::create(b, loc, t.clone(elem), v,
                        b.getI32IntegerAttr(varTypeOf(t.getElementType())),
                        b.getI32IntegerAttr(varTypeOf(elem)));
}

struct ComputeInF32 : ConversionPattern {
  ComputeInF32(MLIRContext *ctx) : ConversionPattern(MatchAnyOpTypeTag(), kBenefit, ctx) {}

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &r) const override {
    if (!op->getDialect() || !isa<PdDialect>(op->getDialect()) || isa<CastOp, KernelCallOp>(op) ||
        op->getNumRegions() != 0)
      return failure();
    // Copies and views: exact in any type.
    if (isa<Reshape2Op, Transpose2Op, FlattenContiguousRangeOp, Flatten2Op, Squeeze2Op,
            Unsqueeze2Op, ConcatOp, SplitOp, SliceOp, AssignOp>(op))
      return failure();
    if (llvm::none_of(op->getOperandTypes(), isLow) && llvm::none_of(op->getResultTypes(), isLow))
      return failure();
    // Decomposed into bf16 matrix products by its own lowering (NN.cpp).
    if (auto m = dyn_cast<MultiheadMatmulOp>(op))
      if (cast<RankedTensorType>(m.getW().getType()).getElementType().isBF16())
        return failure();
    Location loc = op->getLoc();
    Type f32 = r.getF32Type();
    SmallVector<Value> wide;
    for (Value v : operands)
      wide.push_back(isLow(v.getType()) ? castTo(r, loc, v, f32) : v);
    Operation *clone = r.clone(*op);
    clone->setOperands(wide);
    SmallVector<Value> results;
    for (auto [old, res] : llvm::zip(op->getResults(), clone->getResults())) {
      if (!isLow(old.getType())) {
        results.push_back(res);
        continue;
      }
      res.setType(cast<RankedTensorType>(old.getType()).clone(f32));
      results.push_back(Value());
    }
    r.setInsertionPointAfter(clone);
    for (auto [i, old] : llvm::enumerate(op->getResults()))
      if (!results[i])
        results[i] = castTo(r, loc, clone->getResult(i),
                            cast<RankedTensorType>(old.getType()).getElementType());
    r.replaceOp(op, results);
    return success();
  }
};
} // namespace

void mlir::pd::populatePdLowPrecisionToF32Patterns(RewritePatternSet &p) {
  p.add<ComputeInF32>(p.getContext());
}

//===- ControlFlow.cpp - pd.while to scf.while -----------------------------===//
//
// The loop keeps its tensors: scf.while's "before" region reads the
// condition (the first carried value), the "after" region is pd.while's
// body, whose ops the same conversion lowers in place. Bufferization then
// gives the carried values their buffers.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::pd;

namespace {
struct WhileToScf : OpConversionPattern<WhileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WhileOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    TypeRange types = op.getResultTypes();
    SmallVector<Value> inits;
    for (auto [v, type] : llvm::zip(adaptor.getInits(), types))
      inits.push_back(v.getType() == type ? v
                                          : tensor::CastOp::create(r, loc, type, v).getResult());
    auto loop = scf::WhileOp::create(r, loc, types, inits);
    SmallVector<Location> locs(types.size(), loc);
    Block *before = r.createBlock(&loop.getBefore(), {}, types, locs);
    Value cond = before->getArgument(0);
    auto condType = cast<RankedTensorType>(cond.getType());
    SmallVector<Value> zeros(condType.getRank(), arith::ConstantIndexOp::create(r, loc, 0));
    Value flag = tensor::ExtractOp::create(r, loc, cond, zeros);
    scf::ConditionOp::create(r, loc, flag, before->getArguments());
    r.inlineRegionBefore(op.getBody(), loop.getAfter(), loop.getAfter().end());
    r.replaceOp(op, loop.getResults());
    return success();
  }
};

struct YieldToScf : OpConversionPattern<YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &r) const override {
    SmallVector<Value> values;
    for (auto [v, type] : llvm::zip(adaptor.getValues(), op->getParentOp()->getResultTypes()))
      values.push_back(
          v.getType() == type ? v : tensor::CastOp::create(r, op.getLoc(), type, v).getResult());
    r.replaceOpWithNewOp<scf::YieldOp>(op, values);
    return success();
  }
};
} // namespace

void mlir::pd::populatePdControlFlowToScfPatterns(RewritePatternSet &patterns) {
  patterns.add<WhileToScf, YieldToScf>(patterns.getContext());
}

//===- ControlFlow.cpp - pd.while / pd.conditional_block to scf -----------===//
//
// The loop keeps its tensors: scf.while's "before" region reads the
// condition (the first carried value), the "after" region is pd.while's
// body, whose ops the same conversion lowers in place. Bufferization then
// gives the carried values their buffers. A conditional_block becomes an
// scf.if whose else branch yields the defaults; select_input a chain of
// selects on the mask.
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
/// `values` cast to `types` where they are more static.
SmallVector<Value> castAll(OpBuilder &b, Location loc, ValueRange values, TypeRange types) {
  SmallVector<Value> out;
  for (auto [v, type] : llvm::zip(values, types))
    out.push_back(v.getType() == type ? v : tensor::CastOp::create(b, loc, type, v).getResult());
  return out;
}

/// The one element of a one-element tensor.
Value onlyElement(OpBuilder &b, Location loc, Value t) {
  auto type = cast<RankedTensorType>(t.getType());
  SmallVector<Value> zeros(type.getRank(), arith::ConstantIndexOp::create(b, loc, 0));
  return tensor::ExtractOp::create(b, loc, t, zeros);
}

struct WhileToScf : OpConversionPattern<WhileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WhileOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    TypeRange types = op.getResultTypes();
    auto loop = scf::WhileOp::create(r, loc, types, castAll(r, loc, adaptor.getInits(), types));
    SmallVector<Location> locs(types.size(), loc);
    Block *before = r.createBlock(&loop.getBefore(), {}, types, locs);
    Value flag = onlyElement(r, loc, before->getArgument(0));
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
    r.replaceOpWithNewOp<scf::YieldOp>(
        op, castAll(r, op.getLoc(), adaptor.getValues(), op->getParentOp()->getResultTypes()));
    return success();
  }
};

struct ConditionalBlockToScf : OpConversionPattern<ConditionalBlockOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ConditionalBlockOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value flag;
    if (op.getIsScalarCondition()) {
      flag = onlyElement(r, loc, adaptor.getConds()[0]);
    } else {
      // Runs when every condition tensor has an element.
      flag = arith::ConstantIntOp::create(r, loc, 1, 1);
      for (Value c : adaptor.getConds()) {
        auto type = cast<RankedTensorType>(c.getType());
        Value n = arith::ConstantIndexOp::create(r, loc, 1);
        for (int64_t i = 0; i < type.getRank(); ++i)
          n = arith::MulIOp::create(r, loc, n, tensor::DimOp::create(r, loc, c, i));
        Value some = arith::CmpIOp::create(r, loc, arith::CmpIPredicate::ne, n,
                                           arith::ConstantIndexOp::create(r, loc, 0));
        flag = arith::AndIOp::create(r, loc, flag, some);
      }
    }
    TypeRange types = op.getResultTypes();
    auto ifOp = scf::IfOp::create(r, loc, types, flag, /*withElseRegion=*/true);
    // Then: the body (its pd.yield becomes scf.yield); else: the defaults.
    r.eraseBlock(&ifOp.getThenRegion().front());
    r.inlineRegionBefore(op.getBody(), ifOp.getThenRegion(), ifOp.getThenRegion().end());
    Block &otherwise = ifOp.getElseRegion().front();
    r.setInsertionPointToEnd(&otherwise);
    scf::YieldOp::create(r, loc, castAll(r, loc, adaptor.getDefaults(), types));
    r.replaceOp(op, ifOp.getResults());
    return success();
  }
};

/// X[Mask]: the last input unless the mask names an earlier one.
struct SelectInputToSelects : OpConversionPattern<SelectInputOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SelectInputOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Type type = op.getType();
    SmallVector<Value> xs;
    for (Value x : adaptor.getX())
      xs.push_back(castAll(r, loc, x, type).front());
    Value mask = onlyElement(r, loc, adaptor.getMask());
    Value out = xs.back();
    for (int64_t i = static_cast<int64_t>(xs.size()) - 2; i >= 0; --i) {
      Value k = arith::ConstantIntOp::create(r, loc, mask.getType(), i);
      Value is = arith::CmpIOp::create(r, loc, arith::CmpIPredicate::eq, mask, k);
      out = arith::SelectOp::create(r, loc, is, xs[i], out);
    }
    r.replaceOp(op, out);
    return success();
  }
};
} // namespace

void mlir::pd::populatePdControlFlowToScfPatterns(RewritePatternSet &patterns) {
  patterns.add<WhileToScf, YieldToScf, ConditionalBlockToScf, SelectInputToSelects>(
      patterns.getContext());
}

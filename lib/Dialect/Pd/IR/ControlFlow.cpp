//===- ControlFlow.cpp - pd.while and pd.conditional_block ----------------===//

#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::pd;

void WhileOp::build(OpBuilder &b, OperationState &state, TypeRange types, ValueRange inits) {
  state.addOperands(inits);
  state.addTypes(types);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (auto [type, v] : llvm::zip(types, inits))
    block->addArgument(type, v.getLoc());
}

/// Whether `value` can be carried as `carried`: the same element type and
/// rank, and every static dim of `carried` the same in `value`.
static bool fits(Type value, Type carried) {
  auto v = cast<RankedTensorType>(value), c = cast<RankedTensorType>(carried);
  if (v.getElementType() != c.getElementType() || v.getRank() != c.getRank())
    return false;
  for (auto [x, y] : llvm::zip(v.getShape(), c.getShape()))
    if (!ShapedType::isDynamic(y) && x != y)
      return false;
  return true;
}

YieldOp WhileOp::getYield() { return dyn_cast<YieldOp>(getBodyBlock().getTerminator()); }

LogicalResult WhileOp::verify() {
  if (getInits().empty())
    return emitOpError("needs at least the condition as a carried value");
  if (getInits().size() != getNumResults())
    return emitOpError("has ") << getInits().size() << " carried values but " << getNumResults()
                               << " results";
  for (auto [i, init, type] : llvm::enumerate(getInits(), getResultTypes()))
    if (!fits(init.getType(), type))
      return emitOpError("carried value #")
             << i << " of type " << init.getType() << " does not fit its result type " << type;
  auto cond = cast<RankedTensorType>(getResultTypes()[0]);
  if (!cond.getElementType().isInteger(1) || !cond.hasStaticShape() || cond.getNumElements() != 1)
    return emitOpError("condition (the first carried value) must be a boolean tensor of one "
                       "element, got ")
           << cond;
  return success();
}

LogicalResult WhileOp::verifyRegions() {
  Block &body = getBodyBlock();
  if (body.getArgumentTypes() != getResultTypes())
    return emitOpError("body arguments must have the result types");
  auto yield = dyn_cast_or_null<YieldOp>(body.empty() ? nullptr : &body.back());
  if (!yield)
    return emitOpError("body must end with pd.yield");
  if (yield.getValues().size() != getNumResults())
    return yield.emitOpError("must yield one value per carried value (")
           << getNumResults() << "), got " << yield.getValues().size();
  for (auto [i, v, type] : llvm::enumerate(yield.getValues(), getResultTypes()))
    if (!fits(v.getType(), type))
      return yield.emitOpError("value #")
             << i << " of type " << v.getType() << " does not fit the carried type " << type;
  return success();
}

void ConditionalBlockOp::build(OpBuilder &b, OperationState &state, TypeRange types,
                               ValueRange conds, ValueRange defaults, bool isScalarCondition) {
  state.addOperands(conds);
  state.addOperands(defaults);
  state.addAttribute(getOperandSegmentSizesAttrName(state.name),
                     b.getDenseI32ArrayAttr({static_cast<int32_t>(conds.size()),
                                             static_cast<int32_t>(defaults.size())}));
  state.addAttribute(getIsScalarConditionAttrName(state.name), b.getBoolAttr(isScalarCondition));
  state.addTypes(types);
  state.addRegion()->push_back(new Block());
}

YieldOp ConditionalBlockOp::getYield() { return dyn_cast<YieldOp>(getBodyBlock().getTerminator()); }

LogicalResult ConditionalBlockOp::verify() {
  if (getConds().empty())
    return emitOpError("needs a condition");
  if (getIsScalarCondition()) {
    auto cond = cast<RankedTensorType>(getConds()[0].getType());
    if (getConds().size() != 1 || !cond.getElementType().isInteger(1) || !cond.hasStaticShape() ||
        cond.getNumElements() != 1)
      return emitOpError("with is_scalar_condition needs one boolean tensor of one element as "
                         "its condition, got ")
             << getConds().size() << " of type " << cond;
  }
  if (getDefaults().size() != getNumResults())
    return emitOpError("has ") << getDefaults().size() << " defaults but " << getNumResults()
                               << " results";
  for (auto [i, v, type] : llvm::enumerate(getDefaults(), getResultTypes()))
    if (!fits(v.getType(), type))
      return emitOpError("default #")
             << i << " of type " << v.getType() << " does not fit its result type " << type;
  return success();
}

LogicalResult ConditionalBlockOp::verifyRegions() {
  Block &body = getBodyBlock();
  if (body.getNumArguments() != 0)
    return emitOpError("body takes no arguments");
  auto yield = dyn_cast_or_null<YieldOp>(body.empty() ? nullptr : &body.back());
  if (!yield)
    return emitOpError("body must end with pd.yield");
  if (yield.getValues().size() != getNumResults())
    return yield.emitOpError("must yield one value per result (")
           << getNumResults() << "), got " << yield.getValues().size();
  for (auto [i, v, type] : llvm::enumerate(yield.getValues(), getResultTypes()))
    if (!fits(v.getType(), type))
      return yield.emitOpError("value #")
             << i << " of type " << v.getType() << " does not fit the result type " << type;
  return success();
}

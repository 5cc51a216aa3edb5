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

/// The body of region op `op` ends with a pd.yield of one value per result,
/// each fitting its result type (`what` / `typeWhat` name them in errors).
static LogicalResult verifyYield(Operation *op, Block &body, StringRef what, StringRef typeWhat) {
  auto yield = dyn_cast_or_null<YieldOp>(body.empty() ? nullptr : &body.back());
  if (!yield)
    return op->emitOpError("body must end with pd.yield");
  if (yield.getValues().size() != op->getNumResults())
    return yield.emitOpError("must yield one value per ")
           << what << " (" << op->getNumResults() << "), got " << yield.getValues().size();
  for (auto [i, v, type] : llvm::enumerate(yield.getValues(), op->getResultTypes()))
    if (!fits(v.getType(), type))
      return yield.emitOpError("value #")
             << i << " of type " << v.getType() << " does not fit the " << typeWhat << " " << type;
  return success();
}

bool mlir::pd::isOneBool(Type t) {
  auto type = dyn_cast<RankedTensorType>(t);
  return type && type.getElementType().isInteger(1) && type.hasStaticShape() &&
         type.getNumElements() == 1;
}

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
  if (!isOneBool(getResultTypes()[0]))
    return emitOpError("condition (the first carried value) must be a boolean tensor of one "
                       "element, got ")
           << getResultTypes()[0];
  return success();
}

LogicalResult WhileOp::verifyRegions() {
  Block &body = getBodyBlock();
  if (body.getArgumentTypes() != getResultTypes())
    return emitOpError("body arguments must have the result types");
  return verifyYield(*this, body, "carried value", "carried type");
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

LogicalResult ConditionalBlockOp::verify() {
  if (getConds().empty())
    return emitOpError("needs a condition");
  if (getIsScalarCondition()) {
    if (getConds().size() != 1 || !isOneBool(getConds()[0].getType()))
      return emitOpError("with is_scalar_condition needs one boolean tensor of one element as "
                         "its condition, got ")
             << getConds().size() << " of type " << getConds()[0].getType();
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
  return verifyYield(*this, body, "result", "result type");
}

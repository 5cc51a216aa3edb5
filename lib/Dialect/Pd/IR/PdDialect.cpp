//===- PdDialect.cpp - pd dialect registration and constants -------------===//

#include "PaddleMLIR/Dialect/Pd/IR/PdDialect.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdGradient.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::pd;

#include "PaddleMLIR/Dialect/Pd/IR/PdOpsDialect.cpp.inc"

void PdDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.cpp.inc"
      >();
  attachGradientRules(getContext());
}

// Folded values (constant shapes, filled tensors) become arith.constant.
Operation *PdDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                          Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type)
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, typed);
}

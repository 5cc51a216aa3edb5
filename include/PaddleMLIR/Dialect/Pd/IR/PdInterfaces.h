//===- PdInterfaces.h - pd op interfaces ------------------------*- C++ -*-===//
#ifndef PADDLEMLIR_DIALECT_PD_IR_PDINTERFACES_H
#define PADDLEMLIR_DIALECT_PD_IR_PDINTERFACES_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::pd {
/// Verifier of PdShapeInference: infers the result types (emitting the
/// op's own diagnostic on failure) and rejects declared result types that
/// contradict the inferred ones.
LogicalResult verifyInferredTypes(Operation *op);
} // namespace mlir::pd

#include "PaddleMLIR/Dialect/Pd/IR/PdInterfaces.h.inc"

#endif // PADDLEMLIR_DIALECT_PD_IR_PDINTERFACES_H

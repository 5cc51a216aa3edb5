//===- PdDialect.h - the pd dialect -----------------------------*- C++ -*-===//
#ifndef PADDLEMLIR_DIALECT_PD_IR_PDDIALECT_H
#define PADDLEMLIR_DIALECT_PD_IR_PDDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Dialect.h"

#include "PaddleMLIR/Dialect/Pd/IR/PdOpsDialect.h.inc"

#endif // PADDLEMLIR_DIALECT_PD_IR_PDDIALECT_H

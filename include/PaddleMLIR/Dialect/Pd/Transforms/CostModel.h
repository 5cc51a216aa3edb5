//===- CostModel.h - FLOPs and bytes of pd ops ------------------*- C++ -*-===//
//
// A first-order cost of each graph-level pd op: the floating-point (or
// integer multiply-add) operations it performs and the bytes it reads and
// writes, from its operand and result types. The manifest reports it per op
// (paddle-compile), and pipeline partitioning balances stages by it.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_DIALECT_PD_TRANSFORMS_COSTMODEL_H
#define PADDLEMLIR_DIALECT_PD_TRANSFORMS_COSTMODEL_H

#include "mlir/IR/Operation.h"

#include <cstdint>

namespace mlir::pd {
struct OpCost {
  /// Operations: 2 per multiply-add of a convolution or matrix product, 1
  /// per output element of an elementwise op, a few per element of a
  /// normalization or softmax, 0 for data movement (reshapes, transposes,
  /// gathers, casts, collectives).
  int64_t flops = 0;
  /// Bytes of every operand (weights included) and result.
  int64_t bytes = 0;
};

/// The cost of `op`, each dynamic dim counted as 1 (the costs of one
/// program then compare, and scale with the batch the same way).
OpCost estimateCost(Operation *op);

/// The bytes of a tensor of type `t` (sub-byte elements count as one
/// byte, dynamic dims as 1; 0 for a type that is not shaped).
int64_t tensorBytes(Type t);
} // namespace mlir::pd

#endif // PADDLEMLIR_DIALECT_PD_TRANSFORMS_COSTMODEL_H

//===- Einsum.h - einsum equation parsing ------------------------*- C++ -*-===//
//
// Shared by pd.einsum's shape function and its lowering: an equation such
// as "bij,bjk->bik" (numpy's notation, with "..." for broadcast dims and
// the implicit output when "->" is absent) becomes a loop nest: which loop
// indexes each operand dim and each result dim.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_DIALECT_PD_IR_EINSUM_H
#define PADDLEMLIR_DIALECT_PD_IR_EINSUM_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::pd {
struct EinsumSpec {
  /// Loops: the result's (parallel) loops first, then the summed ones.
  int64_t numLoops = 0, numParallel = 0;
  /// Per loop, its size (dynamic when no operand has it static).
  SmallVector<int64_t> loopSizes;
  /// Per operand dim, its loop, or -1 for a size-1 dim broadcast against a
  /// larger "..." dim (read at index 0); the last entry is the result's.
  SmallVector<SmallVector<int64_t>> operandLoops;
  /// Per loop: the operand and dim that give its size (for dynamic sizes
  /// at run time).
  SmallVector<std::pair<int64_t, int64_t>> loopSource;
};

/// Parses `equation` for operands of the given shapes; on error returns
/// std::nullopt and sets `error`.
std::optional<EinsumSpec> parseEinsum(StringRef equation, ArrayRef<RankedTensorType> operands,
                                      std::string &error);
} // namespace mlir::pd

#endif // PADDLEMLIR_DIALECT_PD_IR_EINSUM_H

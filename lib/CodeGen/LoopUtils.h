//===- LoopUtils.h - helpers shared by the passes that lower linalg to loops ===//
//
// pd-reduction-loops (CPU) and pd-gpu-block-reductions (CUDA) both lower
// linalg.generic ops whose innermost loops are reductions; these are the
// questions and index computations they share.
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_LIB_CODEGEN_LOOPUTILS_H
#define PADDLEMLIR_LIB_CODEGEN_LOOPUTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::pd {
/// How many trailing loops of `op` (on buffers) are reductions that no
/// output's indexing map uses; 0 when there are none.
unsigned trailingReductions(linalg::GenericOp op);

/// Whether `map` reads any loop dimension from `first` on.
bool readsDimsFrom(AffineMap map, unsigned first);

/// The indices of the element that `map` selects at loop indices `ivs`
/// (affine.apply where a result is not a plain dimension).
SmallVector<Value> indicesAt(OpBuilder &b, Location loc, AffineMap map, ValueRange ivs);
} // namespace mlir::pd

#endif // PADDLEMLIR_LIB_CODEGEN_LOOPUTILS_H

//===- ArenaViews.h - where a buffer lies in the memory plan's arena -*- C++ -*-===//
//
// pd-outline-ops (CPU) and pd-gpu-map-loops (CUDA) both ask whether two
// buffers of the arena can overlap: after pd-plan-memory each is a
// memref.view of the arena at a byte shift, possibly seen through
// reshapes, casts and subviews.
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_LIB_CODEGEN_ARENAVIEWS_H
#define PADDLEMLIR_LIB_CODEGEN_ARENAVIEWS_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <optional>
#include <utility>

namespace mlir::pd {
/// Byte range of a memref.view result at a constant shift with a static
/// size.
inline std::optional<std::pair<int64_t, int64_t>> viewRange(Value v) {
  auto view = v.getDefiningOp<memref::ViewOp>();
  if (!view)
    return std::nullopt;
  std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
  auto type = view.getType();
  if (!shift || !type.hasStaticShape())
    return std::nullopt;
  int64_t bytes = type.getNumElements() * type.getElementTypeBitWidth() / 8;
  return std::make_pair(*shift, *shift + bytes);
}

/// The memref.view of an arena that `v` is or lies within (through reshapes,
/// casts and subviews, which stay inside the memory they view).
inline Value arenaView(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<memref::ViewOp>(def))
      return v;
    if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::CastOp, memref::SubViewOp>(
            def))
      return nullptr;
    v = def->getOperand(0);
  }
  return nullptr;
}
} // namespace mlir::pd

#endif // PADDLEMLIR_LIB_CODEGEN_ARENAVIEWS_H

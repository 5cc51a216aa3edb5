//===- PdOps.h - pd op declarations -----------------------------*- C++ -*-===//
#ifndef PADDLEMLIR_DIALECT_PD_IR_PDOPS_H
#define PADDLEMLIR_DIALECT_PD_IR_PDOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "PaddleMLIR/Dialect/Pd/IR/PdDialect.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdInterfaces.h"

namespace mlir::pd {
/// Result type of a Paddle elementwise binary op: X and Y broadcast with
/// Paddle's rule (the lower-rank operand aligned at `axis`, or trailing when
/// axis is -1). With `boolResult` the element type is i1.
LogicalResult inferBroadcastTypes(Operation *op, Type x, Type y, int64_t axis, bool boolResult,
                                  SmallVectorImpl<Type> &types, bool emitErrors);

/// Dtype codes for uint16 / uint32 / uint64, which no Paddle VarType.Type
/// holds: pd uses them (in pd.cast and friends) for tensors of ONNX models
/// only.
constexpr int64_t kUInt16Dtype = 1016, kUInt32Dtype = 1032, kUInt64Dtype = 1064;

/// Maps a Paddle VarType.Type code (or one of the kUInt*Dtype codes) to an
/// MLIR element type (null if the code is not a tensor element type).
Type elementTypeFromPaddleDtype(MLIRContext *ctx, int64_t code);
/// The inverse: the code of an element type, -1 for none.
int64_t paddleDtypeOf(Type t);

/// The state a rank shares with the other ranks through collective and
/// point-to-point ops (pd.c_allreduce_*, pd.send_v2, ...): each reads and
/// writes it, which keeps them alive and in program order.
/// Marks a pd.kernel_call that communicates (pdk_collective): it keeps the
/// CommResource effects of the op it came from.
constexpr llvm::StringLiteral kCommAttr = "pd.comm";

struct CommResource : public SideEffects::Resource::Base<CommResource> {
  StringRef getName() final { return "pd.communication"; }
};
} // namespace mlir::pd

#define GET_OP_CLASSES
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h.inc"

namespace mlir::pd {
/// The (half-width, half-height) of each prior a pd.prior_box puts at every
/// feature-map position, in Paddle's output order (before dividing by the
/// image size).
SmallVector<std::pair<float, float>> priorBoxHalfSizes(PriorBoxOp op);

/// Whether result `r` of a pd op has a size that depends on the values
/// computed, not only on the input shapes: the boxes an NMS op keeps, the
/// positions where_index finds, the elements masked_select picks.
bool isDataSized(OpResult r);

/// Whether `t` is a boolean tensor of one element: the condition of a
/// pd.while or of a scalar pd.conditional_block.
bool isOneBool(Type t);

/// The explicit paddings {top, bottom, left, right} of a 2-D window
/// (conv/pool) over spatial sizes `spatial` (H, W) with kernel `k`, strides
/// `s` and dilations `d`: Paddle's 2- or 4-element `paddings` for EXPLICIT,
/// zeros for VALID, and for SAME the padding that makes the output
/// ceil(in / stride), its odd pixel at the end (needs static sizes).
std::array<int64_t, 4> windowPads(ArrayRef<int64_t> spatial, ArrayRef<int64_t> k,
                                  ArrayRef<int32_t> s, ArrayRef<int32_t> d,
                                  ArrayRef<int32_t> paddings, StringRef algo);

/// Whether the batch dims of `operand` (those before its last two) are all
/// 1 or equal to those of the product's `result`: what the batched matrix
/// kernels take (pdk_matmul, pdk_qbmatmul), unlike a partial broadcast.
bool batchFitsProduct(RankedTensorType operand, RankedTensorType result);
} // namespace mlir::pd

#endif // PADDLEMLIR_DIALECT_PD_IR_PDOPS_H

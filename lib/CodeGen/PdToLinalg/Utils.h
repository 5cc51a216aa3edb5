//===- Utils.h - helpers shared by the pd -> linalg patterns ----*- C++ -*-===//
#ifndef PADDLEMLIR_LIB_CODEGEN_PDTOLINALG_UTILS_H
#define PADDLEMLIR_LIB_CODEGEN_PDTOLINALG_UTILS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

#include <array>

namespace mlir::pd::lowering {
/// An index constant.
Value idx(OpBuilder &b, Location loc, int64_t v);

/// A value of the (float or integer) element type.
Value scalar(OpBuilder &b, Location loc, Type elem, double v);

/// Converts a scalar between element types with arith casts (unsigned
/// integers are reinterpreted as signless around the arith ops).
Value convertScalar(OpBuilder &b, Location loc, Value v, Type to);

/// The single element of a one-element tensor (any rank).
Value extractScalar(OpBuilder &b, Location loc, Value t);

/// The number of elements of tensor `t` (the product of its dims), index.
Value elementCount(OpBuilder &b, Location loc, Value t);

/// Bytes of one value of element type `t` in memory (i1 takes a byte).
int64_t valueBytes(Type t);

/// The elements of a 1-D integer tensor of static length as index values
/// (empty when the length is not static).
SmallVector<Value> indexElements(OpBuilder &b, Location loc, Value t);

/// Sizes of the dynamic dims of `type`, taken from `src` (same rank).
SmallVector<Value> dynSizesFrom(OpBuilder &b, Location loc, Value src, RankedTensorType type);

/// Dynamic sizes of an elementwise result: each dynamic result dim is read
/// from an input that has it (input k aligned at offsets[k]) and is dynamic.
FailureOr<SmallVector<Value>> elementwiseDynSizes(OpBuilder &b, Location loc, RankedTensorType type,
                                                  ValueRange inputs, ArrayRef<int64_t> offsets);

/// tensor.empty of `type` filled with `value`.
Value filled(OpBuilder &b, Location loc, RankedTensorType type, ValueRange dynSizes, double value);

/// The indexing map of an input of rank r aligned at `offset` inside an
/// iteration space of `out`'s rank; static size-1 dims that the result
/// broadcasts become constant 0.
AffineMap broadcastMap(RankedTensorType in, RankedTensorType out, int64_t offset);

/// A linalg.generic computing `body` elementwise over the inputs (each
/// aligned at offsets[k], broadcast where its dims are 1).
FailureOr<Value> elementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                             ValueRange inputs, ArrayRef<int64_t> offsets,
                             function_ref<Value(OpBuilder &, Location, ValueRange)> body);

/// A pd.kernel_call of `callee` on `ins` into a fresh i32 selection buffer
/// of `words` words, named after `from` in the manifest; its result is the
/// filled buffer. `slotMap` maps the kernel's slots to `ins` (-1: absent;
/// empty: slot i is input i). The data-sized ops (NMS, proposals, unique)
/// gather their results from such a selection.
Value selectionCall(OpBuilder &r, Location loc, StringRef callee, Operation *from, ValueRange ins,
                    Value words, ArrayRef<int64_t> ints, ArrayRef<float> floats,
                    ArrayRef<int64_t> slotMap = {});

/// A tensor of `type` (i32, its first dim `size` where dynamic, any other
/// dims 1) holding the selection words sel[base + i] along its first dim.
Value selectionWords(OpBuilder &r, Location loc, Value sel, Value base, RankedTensorType type,
                     Value size);

/// Checks the operands of a kernel over LoD sequences: `data` f32 and
/// `lengths` present and int64; otherwise one error on `op`.
LogicalResult checkSequenceOperands(Operation *op, ValueRange data, Value lengths);

/// Replaces `op` by `results`, each cast to the op's declared type where
/// that is more static.
void replaceWithDeclaredTypes(ConversionPatternRewriter &r, Operation *op,
                              SmallVector<Value> results);

/// splitmix64's finalizer of z + 0x9E3779B97F4A7C15 (i64 in, i64 out): the
/// counter-based generator of dropout masks and uniform_random, a pure
/// function of its input.
Value counterHash(OpBuilder &b, Location loc, Value z);

/// tensor.reshape of x (row-major, the same values) to `type`, whose dims
/// are the index values `sizes`; x itself where it has that type.
Value reshapeTo(OpBuilder &b, Location loc, Value x, RankedTensorType type, ArrayRef<Value> sizes);

/// A tensor of `type` (its dynamic dims from `dynSizes`) whose every
/// element is `body` (which reads its position with linalg.index): an
/// output-only linalg.generic, for gathers and generated values.
Value generateTensor(OpBuilder &b, Location loc, RankedTensorType type, ValueRange dynSizes,
                     function_ref<Value(OpBuilder &, Location)> body);

/// An integer id (any int type) as an index into dim `dim` of `t`, clamped
/// into [0, size) so a bad id can never read out of bounds; with
/// `wrapNegative`, negative ids count from the end first.
Value clampedIndex(OpBuilder &b, Location loc, Value id, Value t, int64_t dim, bool wrapNegative);

/// The input range [floor(i * in / out), ceil((i + 1) * in / out)) of
/// output index `i` of adaptive pooling (index values).
std::pair<Value, Value> adaptiveBin(OpBuilder &b, Location loc, Value i, Value in, Value out);

/// A new tensor holding a copy of `t` (bufferization.alloc_tensor with
/// copy), for loops that update a tensor in place: without it one-shot
/// bufferization may write into `t`'s buffer, which can be the caller's
/// input or a weight.
Value freshCopy(OpBuilder &b, Location loc, Value t);

/// 1 / (1 + exp(-x)).
Value sigmoid(OpBuilder &b, Location loc, Value x);

/// The activations fused ops name (fuse_activation / activation_type), as
/// scalar code: "", identity, relu, relu6 (alpha = threshold, 0 means 6),
/// leaky_relu (alpha), sigmoid, swish, hard_swish, tanh, gelu (erf form).
/// Returns null for an unknown name.
Value applyActivation(OpBuilder &b, Location loc, Value x, StringRef act, double alpha);

/// `v` with its dims permuted: result dim i is `v`'s dim perm[i].
Value permute(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> perm);

/// The permutations between NHWC and NCHW (result dim i = source dim p[i]).
inline constexpr int64_t kNHWCToNCHW[] = {0, 3, 1, 2}, kNCHWToNHWC[] = {0, 2, 3, 1};

/// Paddle's 2- or 4-element paddings as {top, bottom, left, right}.
std::array<int64_t, 4> pads4(ArrayRef<int32_t> p);

/// Explicit paddings {top, bottom, left, right} of a conv/pool over the NCHW
/// input `in` with kernel `k`, strides `s` and dilations `d`, resolving
/// SAME (needs static spatial dims) and VALID.
std::array<int64_t, 4> resolvePads(RankedTensorType in, ArrayRef<int64_t> k, ArrayRef<int32_t> s,
                                   ArrayRef<int32_t> d, ArrayRef<int32_t> paddings, StringRef algo);

/// A reduction over `dims` of x into a tensor without those dims (the
/// combine function folds each element into the accumulator, which starts
/// at `init`).
Value reduceDims(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> dims, double init,
                 function_ref<Value(OpBuilder &, Location, Value, Value)> combine);

/// A reduction's result y (x's dims without `dims`) reshaped to the op's
/// result type `rt`: size-1 dims restored (keep_dim), or Paddle's [1] for a
/// full reduction. Each reduced dim joins the group of the kept dim before
/// it (or the first kept dim).
FailureOr<Value> restoreReducedDims(OpBuilder &b, Location loc, Value y, RankedTensorType rt,
                                    ArrayRef<int64_t> dims, int64_t rank);

/// Paddle's alignment offset of a rank-`small` operand against rank `big`.
inline int64_t alignOffset(int64_t big, int64_t small, int64_t axis) {
  return axis == -1 ? big - small : axis;
}
} // namespace mlir::pd::lowering

#endif // PADDLEMLIR_LIB_CODEGEN_PDTOLINALG_UTILS_H

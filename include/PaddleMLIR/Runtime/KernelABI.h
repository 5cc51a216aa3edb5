//===- KernelABI.h - Operand layout of the pd.kernel_call kernels --------===//
//
// The one description of what the compiler (lib/CodeGen/CPU,
// lib/CodeGen/MemoryPlan.cpp) writes into a `pd.kernel_call` and what the
// kernel library (lib/Runtime/Kernels) reads back. Plain C++ constants, no
// MLIR and no oneDNN, so both sides include it.
//
// Every kernel is
//   void pdk_<name>(const int64_t *ptrs, const int64_t *ints, const float *floats)
// `ptrs` holds one data pointer per slot (null for an absent optional slot)
// and then the destination, at index NumSlots; `ints` the kernel's integer
// fields (NumInts of them) followed by rank and dims of each present slot's
// operand and of the destination; `floats` its float fields. The call's
// `slots` attribute maps each slot to an input of the op (-1: absent).
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_RUNTIME_KERNELABI_H
#define PADDLEMLIR_RUNTIME_KERNELABI_H

#include <cstdint>
#include <initializer_list>

namespace pdk {

/// The version of this operand layout. Raise it whenever a kernel's slots,
/// fields or their meaning change: a model library records the version it
/// was compiled for (`pd_kernel_abi`), the kernel library exports its own
/// (`pdk_abi_version`), and the runtime refuses a model whose version the
/// kernel library in the process does not have (every model in a process
/// shares the first libpdrt_kernels.so loaded, so an artifact of another
/// build would otherwise read its fields wrongly). 2: int8 layouts and
/// residuals (qconv), the pooling data type. 3: layouts of the convolution
/// gradients (convgrad) and channel-blocked operands of rank 5.
inline constexpr int64_t kKernelAbiVersion = 4;

/// Values of a channel-layout field (conv source / residual / destination,
/// pooling source / destination); pd-kernel-layouts sets them.
namespace layout {
enum : int64_t {
  NCHW = 0,     // plain
  NChw8c = 8,   // channel blocks of 8
  NChw16c = 16, // channel blocks of 16
  NHWC = -1,    // channels last
};
} // namespace layout

/// Fused activation codes (conv and matmul `Activation` fields).
namespace act {
enum : int64_t { None = 0, Relu, Relu6, LeakyRelu, Sigmoid, Tanh, Swish, HardSwish, Gelu };
} // namespace act

/// pdk_conv2d and its Winograd variants (pdk_conv2d_winograd,
/// pdk_conv2d_winograd4), which take the same operands and fields.
namespace conv {
enum Slot : int64_t { Input, Filter, Bias, Residual, NumSlots };
enum Int : int64_t {
  StrideH,
  StrideW,
  PadTop,
  PadBottom,
  PadLeft,
  PadRight,
  DilationH, // Paddle's: 1 is none
  DilationW,
  Groups,
  Activation,   // an act:: code
  ConstWeights, // 1: the filter is a model parameter (packed once), else 0
  SrcLayout,    // layout:: values
  ResLayout,
  DstLayout,
  NumInts
};
enum Float : int64_t { Alpha, Beta, NumFloats }; // of the activation
} // namespace conv

/// pdk_matmul: out = act(A x B + bias).
namespace matmul {
enum Slot : int64_t { A, B, Bias, NumSlots };
enum Int : int64_t {
  Kind,   // a Kind value
  TransA, // 0 / 1
  TransB,
  Activation,   // an act:: code
  ConstWeights, // 1: B is a model parameter (packed once), else 0
  NumInts
};
enum Kind : int64_t {
  Batched = 0, // all operands rank >= 2, leading dims are batch (1 or the output's)
  Fc = 1,      // A flattened to [M, K], M the product of the output's leading dims
};
enum Float : int64_t { Alpha, NumFloats }; // of the activation
} // namespace matmul

/// Element types of the bf16 kernels' activation operands (bconv:: and
/// bmatmul::).
namespace ftype {
enum : int64_t { F32 = 0, BF16 = 1 };
} // namespace ftype

/// pdk_conv2d_backward_data / pdk_conv2d_backward_weights: the gradients of
/// an fp32 NCHW convolution (plain, grouped or depthwise; Paddle's filter
/// layout [O, C/groups, KH, KW]) by oneDNN's backward primitives, for
/// training. backward_data: Out = dL/dInput from Filter and OutputGrad (the
/// Input slot absent: the destination gives its shape); backward_weights:
/// Out = dL/dFilter from Input and OutputGrad (the Filter slot absent).
/// The integer fields are conv::'s geometry (StrideH .. Groups, at the same
/// indices), then the layouts (layout::) of the input side (Input, or the
/// destination of backward_data) and of OutputGrad.
///
/// A side in layout NChw16c may be given as a rank-5 operand [N, C/16, H,
/// W, 16] (pd-train-layouts: the train step's activations stay blocked);
/// pdk_conv2d takes its Input and destination that way too.
namespace convgrad {
enum Slot : int64_t { Input, Filter, OutputGrad, NumSlots };
enum Int : int64_t { XLayout = conv::Groups + 1, DyLayout, NumInts };
constexpr int64_t NumFloats = 0;
} // namespace convgrad

/// pdk_conv2d_bf16: pdk_conv2d computed by a oneDNN bf16 convolution
/// (bf16 products, f32 accumulation): the slots of conv::, the Filter bf16
/// and the Bias f32; the integer fields are conv::'s, then the element
/// types (ftype::) of Input, Residual and the destination, each f32 or
/// bf16 (an f32 side is converted inside the kernel, with the reorder that
/// changes its layout anyway).
namespace bconv {
enum Int : int64_t { SrcType = conv::NumInts, ResType, DstType, NumInts };
} // namespace bconv

/// pdk_matmul_bf16: pdk_matmul computed by a oneDNN bf16 matmul (bf16
/// products, f32 accumulation): matmul::'s slots and fields, then the
/// element types (ftype::) of A, B and the destination; Bias f32.
namespace bmatmul {
enum Int : int64_t { AType = matmul::NumInts, BType, DstType, NumInts };
} // namespace bmatmul

/// Element types of the int8 kernels' operands (qconv:: and qmatmul::).
namespace qtype {
enum : int64_t { F32 = 0, S8 = 1, U8 = 2 };
} // namespace qtype

/// pdk_qconv2d: an int8 2-D convolution (plain, grouped, depthwise; the
/// logical shapes NCHW, the data plain NCHW or channels last by the layout
/// fields; oneDNN picks its own layouts inside). In real units,
/// with every zero point 0:
///   x = SrcScale * Input          (Input s8 or u8, per tensor)
///   w[o] = Scales[o] * Filter[o]  (Filter s8 [O, I/groups, KH, KW], per
///                                  output channel, a model constant)
///   y = act(conv(x, w) + Bias [+ r])          (Bias f32; r = Residual
///                                              for ResType F32, or
///                                              ResScale * Residual for
///                                              ResType S8 / U8)
///   Out = y                                   (DstType F32), or
///   Out = saturate(round_half_even(y / DstScale))   (DstType S8 / U8)
/// An f32 residual needs DstType F32. The filter (and the scales) are
/// re-laid out once per primitive, like pdk_conv2d's constant weights.
namespace qconv {
enum Slot : int64_t { Input, Filter, Bias, Residual, Scales, NumSlots };
enum Int : int64_t {
  StrideH,
  StrideW,
  PadTop,
  PadBottom,
  PadLeft,
  PadRight,
  DilationH, // Paddle's: 1 is none
  DilationW,
  Groups,
  Activation, // an act:: code
  SrcType,    // qtype:: S8 or U8
  DstType,    // qtype:: F32, S8 or U8
  SrcLayout,  // layout:: NCHW or NHWC (pd-kernel-layouts sets NHWC between
  ResLayout,  // int8 kernels; the logical shape stays NCHW)
  DstLayout,
  ResType, // qtype:: of Residual (F32 when there is none)
  NumInts
};
enum Float : int64_t { Alpha, Beta, SrcScale, DstScale, ResScale, NumFloats };
} // namespace qconv

/// pdk_qmatmul: an int8 matrix product with a constant right-hand side,
/// out = act(A x B + Bias) in real units as for qconv: A is SrcScale * A
/// (s8 or u8; kind Fc flattens it to [M, K], kind Batched takes [.., M, K]
/// with the output's batch), B[:, n] is Scales[n] * B[:, n] (s8 [K, N], a
/// model constant shared by every batch), Bias f32 [N], Out f32 or
/// requantized by DstScale as for qconv.
namespace qmatmul {
enum Slot : int64_t { A, B, Bias, Scales, NumSlots };
enum Int : int64_t {
  Kind,       // a matmul::Kind value
  Activation, // an act:: code
  SrcType,    // qtype:: S8 or U8
  DstType,    // qtype:: F32, S8 or U8
  NumInts
};
enum Float : int64_t { Alpha, SrcScale, DstScale, NumFloats };
} // namespace qmatmul

/// pdk_qbmatmul: an int8 matrix product of two run-time tensors (an
/// attention's Q x K^T and P x V), out = Scale * (A x B) in f32, A s8 or u8
/// and B s8 as integers (the caller folds alpha and both tensors' steps
/// into Scale). The slots are matmul::'s (no Bias), the integer fields
/// matmul::'s with Kind Batched (batch dims 1 or the output's, transposes
/// by TransA / TransB, Activation None, ConstWeights 0), then the element
/// types (qtype::) of A and B.
namespace qbmatmul {
enum Int : int64_t { AType = matmul::NumInts, BType, NumInts };
enum Float : int64_t { Scale = matmul::NumFloats, NumFloats };
} // namespace qbmatmul

/// pdk_softmax: softmax or log-softmax along one axis.
namespace softmax {
enum Slot : int64_t { Input, NumSlots };
enum Int : int64_t { Axis, Log, NumInts }; // Log: 0 / 1
constexpr int64_t NumFloats = 0;
} // namespace softmax

/// pdk_reorder: an fp32 activation [N, C, H, W] from one channel layout
/// to another (layout:: values; a NChw16c side may be a rank-5 operand),
/// by oneDNN's reorder: pd-train-layouts' conversions between a train
/// step's blocked activations and plain readers.
namespace reorder {
enum Slot : int64_t { Input, NumSlots };
enum Int : int64_t { SrcLayout, DstLayout, NumInts };
constexpr int64_t NumFloats = 0;
} // namespace reorder

/// pdk_pool2d: 4-D pooling right after a convolution.
namespace pool {
enum Slot : int64_t { Input, NumSlots };
enum Int : int64_t {
  Kind, // a Kind value
  WindowH,
  WindowW,
  StrideH,
  StrideW,
  PadTop,
  PadBottom, // includes any ceil_mode overhang
  PadLeft,
  PadRight,  // likewise
  SrcLayout, // layout:: values
  DstLayout,
  DataType,    // qtype:: F32, S8 or U8 of the source (max pooling commutes with
               // quantization: the destination's too)
  DstDataType, // qtype:: of the destination
  NumInts
};
/// Averages divide by the window's elements inside the image (exclusive,
/// Paddle's default) or by the whole window (padding counts as zeros).
enum Kind : int64_t { Max = 0, AvgExcludePadding = 1, AvgIncludePadding = 2 };
/// Rescale: an int8 average is multiplied by it before it is rounded to the
/// destination (the source's step over the destination's); 1 otherwise.
enum Float : int64_t { Rescale, NumFloats };
} // namespace pool

/// pdk_multiclass_nms and pdk_matrix_nms: Paddle's multiclass and matrix
/// NMS over BBoxes [N, M, 4] and Scores [N, C, M] (fp32). The destination is
/// an i32 selection of 1 + N + EntryWords * capacity entries: the total
/// kept, the count per image, then per kept box in Paddle's output order
/// (image, label, box, score as float bits; matrix NMS's score is the
/// decayed one); the compiler gathers the results from it (the count is
/// known only after the run).
namespace nms {
/// RoisNum (optional; pdk_multiclass_nms only): with it, the boxes of all
/// images are stacked, Boxes [M, C, 4] and Scores [M, C], RoisNum[n] rows
/// per image, and the selection's box field is the row in Boxes.
enum Slot : int64_t { Boxes, Scores, RoisNum, NumSlots };
enum Int : int64_t { Background, NmsTopK, KeepTopK, Normalized, NumInts };
enum Float : int64_t { ScoreThreshold, NmsThreshold, NmsEta, NumFloats };
/// Words per kept box after the header.
constexpr int64_t EntryWords = 4;
} // namespace nms

/// pdk_matrix_nms's fields (slots and selection as nms::).
namespace matrixnms {
enum Int : int64_t { Background, NmsTopK, KeepTopK, Normalized, UseGaussian, NumInts };
enum Float : int64_t { ScoreThreshold, PostThreshold, GaussianSigma, NumFloats };
} // namespace matrixnms

/// pdk_generate_proposals: Paddle's RPN proposals (generate_proposals and
/// generate_proposals_v2). Scores [N, A, H, W], Deltas [N, 4A, H, W], ImInfo
/// [N, 2 or 3] (height, width[, scale]), Anchors and Variances of H * W * A
/// boxes. The destination is an i32 selection of 1 + N + EntryWords *
/// capacity words: the total kept, the count per image, then per kept
/// proposal in output order its xmin, ymin, xmax, ymax and score as float
/// bits; the compiler gathers RpnRois, RpnRoiProbs and RpnRoisNum from it.
namespace proposals {
enum Slot : int64_t { Scores, Deltas, ImInfo, Anchors, Variances, NumSlots };
enum Int : int64_t {
  PreNmsTopN,
  PostNmsTopN,
  PixelOffset, // 1: extents count the last pixel (+1), IoU of pixel boxes
  ScaledSize,  // 1 (generate_proposals): min_size compares in ImInfo's scale
  NumInts
};
enum Float : int64_t { NmsThresh, MinSize, Eta, NumFloats };
constexpr int64_t EntryWords = 5;
} // namespace proposals

/// pdk_distribute_fpn_proposals: each RoI's FPN level, floor(refer_level +
/// log2(sqrt(area) / refer_scale + 1e-6)) clamped to [min_level,
/// max_level] (area with +1 pixel extents when PixelOffset). Rois [R, 4],
/// RoisNum [N] (summing to R). The destination is i32 [L + L * N + 2R]
/// for L levels: the count per level, the count per level and image
/// (level-major), RestoreIndex (each RoI's position in the level-ordered
/// list), then that list (the RoI at each position).
namespace fpn {
enum Slot : int64_t { Rois, RoisNum, NumSlots };
enum Int : int64_t { MinLevel, MaxLevel, ReferLevel, ReferScale, PixelOffset, NumInts };
constexpr int64_t NumFloats = 0;
} // namespace fpn

/// pdk_collect_fpn_proposals: the post_nms_topN best-scored RoIs of all
/// levels (ties: the later RoI of the concatenation first, as Paddle's
/// stable sort with a >= comparison leaves them), regrouped by image in
/// that order. Scores [R] (the levels' scores concatenated), RoisNum [L, N]
/// (per level, its RoIs per image; level l's row counts sum to its R_l).
/// The destination is i32 [N + K], K = min(post_nms_topN, R): the kept
/// count per image, then each kept RoI's row in the concatenated RoIs.
namespace collectfpn {
enum Slot : int64_t { Scores, RoisNum, NumSlots };
enum Int : int64_t { PostNmsTopN, NumInts };
constexpr int64_t NumFloats = 0;
} // namespace collectfpn

/// pdk_unique: the distinct slices of Input viewed as [outer, R, inner]
/// around dim Axis (slice r = Input[:, r, :], compared element by element
/// in row-major order), ascending (lexicographic) when Sorted, else in
/// order of first appearance. The destination is i32 [1 + 3R]: K, then per
/// distinct slice the first row holding it (R words, K used), the inverse
/// map (each row's distinct slice, R words), then the counts (R words, K
/// used).
namespace unique {
enum Slot : int64_t { Input, NumSlots };
enum Int : int64_t {
  Elem, // the element type: one of ElemKind
  Axis,
  Sorted,
  NumInts
};
enum ElemKind : int64_t { F32, F64, I32, I64 };
constexpr int64_t NumFloats = 0;
} // namespace unique

/// pdk_sequence_pool: pools each sequence of a LoD batch. X [T, D...] packs
/// the rows of N sequences whose lengths are Lengths [N] (int64, summing
/// to T); the destination is [N, D...]: f32 pooled values, or with
/// Index = 1 the i32 row of X holding each maximum (MAX; -1 for the other
/// pool types and for empty sequences). An empty sequence pools to
/// PadValue.
namespace seqpool {
enum Slot : int64_t { X, Lengths, NumSlots };
enum Int : int64_t { PoolType, Index, NumInts };
enum Float : int64_t { PadValue, NumFloats };
enum Type : int64_t { Average, Sum, Sqrt, Max, Last, First };
} // namespace seqpool

/// pdk_sequence_context: the context rows of sequence_conv. X [T, D]
/// packs N sequences (Lengths [N], int64, summing to T); destination row t
/// [Length * D] is, for k < Length, row t + Start + k of X where that row
/// lies in t's sequence, else zeros (the im2col of a 1-D convolution that
/// never reads across sequences).
namespace seqcontext {
enum Slot : int64_t { X, Lengths, NumSlots };
enum Int : int64_t { Start, Length, NumInts };
constexpr int64_t NumFloats = 0;
} // namespace seqcontext

/// pdk_rnn: Paddle's multi-layer (optionally bidirectional) LSTM, GRU or
/// simple RNN over a time-major batch, in fp32. Input [T, N, I]; H0 (and C0
/// for LSTM) [L*D, N, H]; optional Lengths [N] (i32 or i64: LengthsI64);
/// then the WeightList as the program has it: W_ih [G*H, in], W_hh [G*H, H]
/// per layer and direction, then b_ih, b_hh [G*H] in the same order.
/// Sequence n runs only its first Lengths[n] steps (the backward direction
/// from step Lengths[n] - 1 down); later output rows are zero. The
/// destination is f32 [T*N*D*H + S*L*D*N*H], S = 2 for LSTM else 1: Out
/// [T, N, D*H], then the final h [L*D, N, H], then (LSTM) the final c.
namespace rnn {
enum Slot : int64_t { Input, H0, C0, Lengths, FirstWeight };
enum Int : int64_t { Mode, Layers, Directions, Hidden, LengthsI64, NumInts };
enum Mode : int64_t { Lstm, Gru, RnnTanh, RnnRelu };
constexpr int64_t NumFloats = 0;
/// The slot count for `layers` x `directions` cells (4 tensors each).
constexpr int64_t numSlots(int64_t layers, int64_t directions) {
  return FirstWeight + 4 * layers * directions;
}
} // namespace rnn

/// pdk_lod_rnn: Fluid's `gru` and `lstm` over a LoD batch. Input [T, G*H]
/// packs the already projected steps of N sequences (Lengths [N], int64,
/// summing to T); each sequence runs on its own (last row first when
/// Reverse) from its row of H0 (and C0) [N, H], or from zeros. Weight
/// holds the hidden-to-gate weights as Fluid stores them: for GRU the
/// update and reset gates' [H, 2H] then the candidate's [H, H] (both
/// row-major, one after the other); for LSTM [H, 4H] in the gate order
/// candidate, input, forget, output. Bias [1, G*H] (LSTM with Peepholes:
/// [1, 7H], the last 3H the input, forget and output peephole weights).
/// The destination is f32 [T*H] (GRU: Hidden) or [2*T*H] (LSTM: Hidden
/// then Cell), rows in the input's order.
/// LSTMP (Fluid's `lstmp`) is the LSTM above with hidden size D whose
/// hidden state is projected: r = ProjAct(h x ProjWeight [D, P]), clipped
/// to [-ProjClip, ProjClip] when ProjClip > 0 (the initial r from H0 [N, D]
/// the same, unclipped, as Paddle does); Weight [P, 4D] reads r; the cell
/// is clipped to [-CellClip, CellClip] when CellClip > 0. The destination
/// is [T*P + T*D]: Projection then Cell.
namespace lodrnn {
enum Slot : int64_t { Input, H0, C0, Weight, Bias, Lengths, ProjWeight, NumSlots };
enum Int : int64_t {
  Mode,
  Reverse,
  OriginMode,
  Peepholes,
  GateAct,
  CellAct,
  CandidateAct,
  ProjAct,
  NumInts
};
enum Mode : int64_t { Gru, Lstm, Lstmp };
enum Act : int64_t { Sigmoid, Tanh, Relu, Identity };
enum Float : int64_t { CellClip, ProjClip, NumFloats };
} // namespace lodrnn

/// pdk_crf_decoding: Viterbi decoding of a linear-chain CRF per sequence of
/// a LoD batch. Emission [T, D] (Lengths [N], int64, summing to T),
/// Transition [D + 2, D]: row 0 the start weights, row 1 the end weights,
/// row 2 + j the weights from tag j to each tag. The destination is i64
/// [T, 1]: each row's tag on its sequence's best path (on equal scores the
/// lower tag, as Paddle's strict comparisons keep the first maximum).
namespace crf {
enum Slot : int64_t { Emission, Transition, Lengths, NumSlots };
constexpr int64_t NumInts = 0, NumFloats = 0;
} // namespace crf

/// pdk_sequence_softmax: softmax over the rows of each sequence of X [T]
/// or [T, 1] (f32), Lengths [N] int64 summing to T.
namespace seqsoftmax {
enum Slot : int64_t { X, Lengths, NumSlots };
constexpr int64_t NumInts = 0, NumFloats = 0;
} // namespace seqsoftmax

/// pdk_sequence_expand: sequence_expand(_as) of an X without LoD: Out [T,
/// ...] holds row n of X [N, ...] (ElemBytes per value) Lengths[n] times,
/// sequence after sequence; Lengths [N] int64 sums to T.
namespace seqexpand {
enum Slot : int64_t { X, Lengths, NumSlots };
enum Int : int64_t { ElemBytes, NumInts };
constexpr int64_t NumFloats = 0;
} // namespace seqexpand

/// pdk_lod_offsets: lod_reset's new LoD given as offsets [0, ..., T]
/// (Y's data or target_lod; int64, or int32 with OffsetsIs32) into
/// Lengths [K] int64 (K + 1 offsets). Offsets that do not start at 0,
/// decrease, or do not end at X's T rows are an error.
namespace lodoffsets {
enum Slot : int64_t { Offsets, X, NumSlots };
enum Int : int64_t { OffsetsIs32, NumInts };
constexpr int64_t NumFloats = 0;
} // namespace lodoffsets

/// pdk_sequence_reshape: the lengths of sequence_reshape's Out: Lengths [N]
/// int64 of X [T, Width] re-cut to rows of NewDim values; a sequence whose
/// values do not fill whole rows is an error.
namespace seqreshape {
enum Slot : int64_t { Lengths, X, NumSlots };
enum Int : int64_t { Width, NewDim, NumInts };
constexpr int64_t NumFloats = 0;
} // namespace seqreshape

/// pdk_box_clip: box_clip of Input [T, ..., 4k] (f32) with Lengths [N]
/// int64 and ImInfo [N, 3] (h, w, scale): each coordinate clipped to
/// [0, round(w / scale) - 1] (x) or [0, round(h / scale) - 1] (y).
namespace boxclip {
enum Slot : int64_t { Input, ImInfo, Lengths, NumSlots };
constexpr int64_t NumInts = 0, NumFloats = 0;
} // namespace boxclip

/// pdk_array_write: write_to_array. Out [M, ...] (M = max(N, I + 1) as the
/// caller computed it) = Array [N, ...] (absent without HasArray; the X
/// pointer stands in) with X at index I[0], zeros between; ElemBytes per
/// value; I is int64, or int32 with IndexIs32. A negative index, or an X
/// whose dims are not an element's, is an error.
namespace arraywrite {
enum Slot : int64_t { X, I, Array, NumSlots };
enum Int : int64_t { ElemBytes, IndexIs32, HasArray, NumInts };
constexpr int64_t NumFloats = 0;
} // namespace arraywrite

/// pdk_array_read: read_from_array. Out = Array[I[0]] of Array [N, ...];
/// an index outside [0, N) is an error naming it.
namespace arrayread {
enum Slot : int64_t { Array, I, NumSlots };
enum Int : int64_t { ElemBytes, IndexIs32, NumInts };
constexpr int64_t NumFloats = 0;
} // namespace arrayread

/// Fluid's DynamicRNN (see the pd catalogue): a rank table is int64
/// [N, 2], row j = (sequence index, length) of the j-th longest sequence,
/// ties in batch order; an array over time steps holds every sequence at
/// each step, in rank order, zero past its end.
///
/// pdk_lod_rank_table: the rank table of Lengths [N] (int64, each >= 0).
namespace rankTable {
enum Slot : int64_t { Lengths, NumSlots };
constexpr int64_t NumInts = 0, NumFloats = 0;
} // namespace rankTable

/// pdk_rank_table_info: from a rank table, by Kind: int64 [1] holding the
/// longest length (0 without sequences) or the total length, or int64 [N]
/// holding the lengths in batch order.
namespace rankInfo {
enum Slot : int64_t { Table, NumSlots };
enum Int : int64_t { Kind, NumInts };
enum KindValue : int64_t { MaxLength, TotalLength, Lengths };
constexpr int64_t NumFloats = 0;
} // namespace rankInfo

/// pdk_lod_to_array: lod_tensor_to_array. X [T, ...] packed (sequence i's
/// rows follow sequences 0 ... i - 1; T must be the table's total length)
/// into Out [M, N, ...]: Out[t][j] = row t of the j-th ranked sequence, zero
/// where t is past its end (M >= the longest length).
/// pdk_array_to_lod: array_to_lod_tensor, the inverse: X [M, N, ...] into
/// Out [T, ...]; an array of fewer elements than a sequence needs is an
/// error naming it.
/// pdk_reorder_by_rank: reorder_lod_tensor_by_rank of an X without LoD:
/// Out[j] = X[index of the j-th ranked sequence]; X must have N rows.
namespace lodArray {
enum Slot : int64_t { X, Table, NumSlots };
enum Int : int64_t { ElemBytes, NumInts };
constexpr int64_t NumFloats = 0;
} // namespace lodArray

/// pdk_shrink_memory: shrink_rnn_memory. Out = X [R, ...] with the rows of
/// the sequences from K on zeroed, K the number of sequences longer than
/// I[0]: rows K ... R - 1, or with HasLengths the rows after X's first K
/// sequences (Lengths [N], int64, X's LoD in rank order).
namespace shrinkMemory {
enum Slot : int64_t { X, I, Table, Lengths, NumSlots };
enum Int : int64_t { ElemBytes, IndexIs32, HasLengths, NumInts };
constexpr int64_t NumFloats = 0;
} // namespace shrinkMemory

/// pdk_reorder_sequences: reorder_lod_tensor_by_rank of a LoD batch X
/// [T, ...] (Lengths [N], int64, in batch order): Out holds X's sequences
/// in the table's rank order.
namespace reorderSequences {
enum Slot : int64_t { X, Table, Lengths, NumSlots };
enum Int : int64_t { ElemBytes, NumInts };
constexpr int64_t NumFloats = 0;
} // namespace reorderSequences

/// pdk_viterbi_decode: Paddle 2.x's viterbi_decode. Input [N, T, D]
/// (sequence n is its first Length[n] rows; Length [N], int64, each in
/// [0, T]), Transition [D, D] (from-tag rows); with BosEos, row D - 1 is
/// added at the first step and row D - 2 after the last. Index = 0 writes
/// the best scores, f32 [N]; Index = 1 the paths as i32 [1 + N*T]: the
/// width W = min(T, max Length), then row n's tags at [1 + n*T, + W), zero
/// past its length (ties: the lower tag).
namespace viterbi {
enum Slot : int64_t { Input, Transition, Length, NumSlots };
enum Int : int64_t { BosEos, Index, NumInts };
constexpr int64_t NumFloats = 0;
} // namespace viterbi

/// pdk_nonzero: the row-major positions of the non-zero bytes of an i1 (one
/// byte per element) tensor. The destination is i64 [1 + numel]: the
/// count, then the flat positions in increasing order.
namespace nonzero {
enum Slot : int64_t { Input, NumSlots };
constexpr int64_t NumInts = 0, NumFloats = 0;
} // namespace nonzero

/// pdk_collective: one collective or point-to-point op of a multi-rank
/// program (pd.c_allreduce_*, c_broadcast, c_allgather, c_reducescatter,
/// send_v2, recv_v2, barrier) through the process's communicator (the
/// MPI backend under mpirun, otherwise one rank). Input is X (absent for
/// recv_v2); the destination is Out (for send_v2 a 1-element i64
/// placeholder). Seq numbers the program's
/// collectives from 0, in program order, for error messages.
namespace comm {
enum Slot : int64_t { Input, NumSlots };
enum Int : int64_t {
  Kind,     // a Kind value
  RingId,   // Paddle's ring_id (0: all ranks)
  ReduceOp, // a Reduce value (allreduce, reducescatter)
  Peer,     // root (broadcast) or peer rank (send, recv)
  Nranks,   // the rank count the program was written for (allgather,
            // reducescatter; 0: not given)
  Dtype,    // a Dtype value: the element type of X / Out
  Seq,      // position among the program's collectives
  NumInts
};
constexpr int64_t NumFloats = 0;
/// Rank: this process's rank into an i64 [1] destination, checked as for
/// Shard (libpdrt_cuda asks it before copying a part on the device).
/// Shard: pd.shard_batch, rows rank * B/Nranks ... of X (dim 0: B) into
/// the destination; B must divide by Nranks, the job's rank count.
/// Stage: the same without X, for pd.is_stage (pipeline stage Peer of a
/// pipeline of Nranks stages); the job must have Nranks ranks.
/// AllReduceStart / AllReduceWait (pd.allreduce_start / _wait): a sum of
/// the destination in place, started by the one call and finished by the
/// other, which name it by Peer (the gradient bucket).
enum Kind : int64_t {
  AllReduce,
  Broadcast,
  AllGather,
  ReduceScatter,
  Send,
  Recv,
  Barrier,
  Rank,
  Stage,
  AllReduceStart,
  AllReduceWait,
  Shard
};
/// Or-ed into Kind by libpdrt_cuda when X and the destination are device
/// memory (the NCCL backend takes them as they are): pdk_collective then
/// never writes the destination itself, not even zeros after a failure.
constexpr int64_t OnDevice = 256;
enum Reduce : int64_t { Sum, Max, Min, Prod };
enum Dtype : int64_t { F32, F64, I32, I64, I8, U8, Bool, F16, BF16 };
/// Bytes of one element of a Dtype.
inline int64_t dtypeBytes(int64_t dtype) {
  return dtype == F64 || dtype == I64    ? 8
         : dtype == F32 || dtype == I32  ? 4
         : dtype == F16 || dtype == BF16 ? 2
                                         : 1;
}
} // namespace comm

/// pdk_time_conv2d(ints, floats, present, iterations, winograd), which
/// pd-kernel-layouts calls to time a pdk_conv2d call.
namespace timing {
/// Bits of `present`: which optional conv slots exist.
constexpr int64_t HasBias = 1, HasResidual = 2;
/// Values of `winograd`: the kernel that is timed.
enum Algorithm : int {
  Direct = 0,    // pdk_conv2d
  Winograd2 = 1, // pdk_conv2d_winograd, F(2x2, 3x3)
  Winograd4 = 2, // pdk_conv2d_winograd4, F(4x4, 3x3)
  NumAlgorithms
};
/// Or-ed into `winograd`: time pdk_conv2d_bf16 (bconv:: fields) instead.
constexpr int64_t Bf16 = 16;
} // namespace timing

/// Whether conv fields `ints` are ones the Winograd kernels compute
/// (shapes aside: 3x3 filters and channel counts multiples of 8 are checked
/// by each side on its own view of the operands): stride, padding,
/// dilation and groups 1, constant weights, source / residual (if
/// `hasResidual`) / destination all in nChw8c or all in NHWC, and an
/// activation the kernel applies as a clamp (none, relu, relu6, leaky
/// relu).
inline bool winogradFields(const int64_t *ints, bool hasResidual) {
  for (int64_t f : {conv::StrideH, conv::StrideW, conv::PadTop, conv::PadBottom, conv::PadLeft,
                    conv::PadRight, conv::DilationH, conv::DilationW, conv::Groups})
    if (ints[f] != 1)
      return false;
  int64_t a = ints[conv::Activation], src = ints[conv::SrcLayout];
  return (a == act::None || a == act::Relu || a == act::Relu6 || a == act::LeakyRelu) &&
         ints[conv::ConstWeights] != 0 && (src == layout::NChw8c || src == layout::NHWC) &&
         ints[conv::DstLayout] == src && (!hasResidual || ints[conv::ResLayout] == src);
}

} // namespace pdk

#endif // PADDLEMLIR_RUNTIME_KERNELABI_H

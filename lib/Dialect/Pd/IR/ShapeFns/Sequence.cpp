//===- Sequence.cpp - pd LoD sequence op types ----------------------------===//
//
// Hand-written PdShapeInference of the ops over LoD sequences: a batch of
// N variable-length sequences is its rows packed along dim 0 ([T, ...],
// T the total length) plus the lengths [N] the importer passes in the
// op's `Lengths` operand (see isLodSlot).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::shapefns;

LogicalResult SequencePoolOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  FailureOr<int64_t> n = sequenceCount(c, getX(), getLengths());
  if (failed(n))
    return failure();
  SmallVector<int64_t> out(rt(getX()).getShape());
  out[0] = *n;
  types.push_back(tensor(out, rt(getX()).getElementType()));
  if (getMaxIndex())
    types.push_back(tensor(out, IntegerType::get(getContext(), 32)));
  return success();
}

LogicalResult SequenceConvOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(sequenceCount(c, getX(), getLengths())) || failed(c.rank(getX(), "X", 2, 2)) ||
      failed(c.rank(getFilter(), "Filter", 2, 2)))
    return failure();
  // Paddle's own kernel accepts only stride 1; trainable padding rows are
  // a training feature inference programs do not use.
  if (getContextStride() != 1)
    return c.fail("contextStride must be 1 (as Paddle requires), got " + Twine(getContextStride()));
  if (getPaddingTrainable())
    return c.fail("paddingTrainable = true (padding rows learned in PaddingData) is not "
                  "supported; only zero padding is");
  int64_t d = rt(getX()).getDimSize(1), rows = rt(getFilter()).getDimSize(0);
  int64_t want = isDyn(d) ? kDyn : d * getContextLength();
  if (conflict(rows, want))
    return c.fail("Filter must have contextLength * D = " + Twine(want) + " rows, got " +
                  Twine(rows));
  types.push_back(tensor({rt(getX()).getDimSize(0), rt(getFilter()).getDimSize(1)},
                         rt(getX()).getElementType()));
  return success();
}

LogicalResult CrfDecodingOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  // Paddle's padded form (Emission [N, T, D] with Length) and its Label
  // form (each row: does the label agree with the path) are not inference
  // paths of the programs seen so far.
  if (getLength())
    return c.fail("the padded form (Emission [N, T, D] with Length) is not supported; only LoD "
                  "Emission is");
  if (getLabel())
    return c.fail("Label (comparing the decoded path with labels) is not supported; only decoding "
                  "is");
  if (failed(sequenceCount(c, getEmission(), getLengths(), "Emission")) ||
      failed(c.rank(getEmission(), "Emission", 2, 2)) ||
      failed(c.rank(getTransition(), "Transition", 2, 2)))
    return failure();
  int64_t d = rt(getEmission()).getDimSize(1);
  auto t = rt(getTransition());
  if (conflict(t.getDimSize(1), d) || conflict(t.getDimSize(0), isDyn(d) ? kDyn : d + 2))
    return c.fail("Transition must be [D + 2, D] for D = " + Twine(d) + " tags, got " +
                  shapeStr(t.getShape()));
  types.push_back(tensor({rt(getEmission()).getDimSize(0), 1}, IntegerType::get(getContext(), 64)));
  return success();
}

LogicalResult ViterbiDecodeOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getInput(), "Input", 3, 3)) ||
      failed(c.rank(getTransition(), "Transition", 2, 2)) ||
      failed(c.rank(getLength(), "Length", 1, 1)))
    return failure();
  auto x = rt(getInput()), t = rt(getTransition());
  int64_t d = x.getDimSize(2);
  if (conflict(t.getDimSize(0), d) || conflict(t.getDimSize(1), d))
    return c.fail("Transition must be [D, D] for D = " + Twine(d) + " tags, got " +
                  shapeStr(t.getShape()));
  if (getIncludeBosEosTag() && !isDyn(d) && d < 2)
    return c.fail("include_bos_eos_tag needs at least 2 tags (the start and stop rows), got " +
                  Twine(d));
  if (conflict(rt(getLength()).getDimSize(0), x.getDimSize(0)))
    return c.fail("Length must have N = " + Twine(x.getDimSize(0)) + " elements, got " +
                  shapeStr(rt(getLength()).getShape()));
  if (!rt(getLength()).getElementType().isInteger(64))
    return c.fail("Length must be int64");
  types.push_back(tensor({x.getDimSize(0)}, x.getElementType()));
  // The path width is min(T, max Length): known only at run time.
  types.push_back(tensor({x.getDimSize(0), kDyn}, IntegerType::get(getContext(), 64)));
  return success();
}

/// sequence_expand / sequence_expand_as with X without LoD: row i of X for
/// each row of Y's sequence i, so Out has Y's rows.
static LogicalResult expandRows(Operation *op, Value x, Value y, Value lengths,
                                SmallVectorImpl<Type> &types, bool emit) {
  Checker c{op, emit};
  FailureOr<int64_t> n = sequenceCount(c, y, lengths, "Y");
  if (failed(n) || failed(c.rank(x, "X", 1, 8)))
    return failure();
  auto xt = rt(x);
  if (conflict(xt.getDimSize(0), *n))
    return c.fail("X has " + Twine(xt.getDimSize(0)) + " rows but Y has " + Twine(*n) +
                  " sequences (row i of X is repeated for Y's sequence i)");
  SmallVector<int64_t> out(xt.getShape());
  out[0] = rt(y).getDimSize(0);
  types.push_back(tensor(out, xt.getElementType()));
  return success();
}

LogicalResult SequenceExpandOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  if (getRefLevel() != -1 && getRefLevel() != 0) {
    Checker c{*this, emit};
    return c.fail("ref_level " + Twine(getRefLevel()) +
                  " is not supported (Y has one LoD level: -1 or 0)");
  }
  return expandRows(*this, getX(), getY(), getLengths(), types, emit);
}

LogicalResult SequenceExpandAsOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return expandRows(*this, getX(), getY(), getLengths(), types, emit);
}

LogicalResult Im2sequenceOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  // With Y (each image's real size, a training-time input) Paddle sizes
  // every image's sequence separately; inference programs do not pass it.
  if (getY())
    return c.fail("Y (each image's real size) is not supported; only whole images are");
  if (failed(c.rank(getX(), "X", 4, 4)))
    return failure();
  auto x = rt(getX());
  ArrayRef<int32_t> k = getKernels(), s = getStrides(), p = getPaddings();
  int64_t oh = windowOut(x.getDimSize(2), k[0], s[0], p[0], p[2], 1, "EXPLICIT");
  int64_t ow = windowOut(x.getDimSize(3), k[1], s[1], p[1], p[3], 1, "EXPLICIT");
  if ((!isDyn(oh) && oh < 1) || (!isDyn(ow) && ow < 1))
    return c.fail("the " + Twine(k[0]) + "x" + Twine(k[1]) + " kernel does not fit the padded " +
                  shapeStr(x.getShape().drop_front(2)) + " image");
  int64_t n = x.getDimSize(0), ch = x.getDimSize(1);
  types.push_back(
      tensor({prod({n, oh, ow}), isDyn(ch) ? kDyn : ch * k[0] * k[1]}, x.getElementType()));
  types.push_back(tensor({n}, IntegerType::get(getContext(), 64)));
  return success();
}

LogicalResult LodResetOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getX(), "X", 1, 8)))
    return failure();
  int64_t rows = rt(getX()).getDimSize(0), n = kDyn;
  if (getLengths()) {
    // Y is a LoD batch: Out takes its LoD (Paddle ignores `append` then).
    if (!getY())
      return c.fail("Lengths without Y: the lengths are Y's LoD");
    if (failed(c.rank(getLengths(), "Lengths", 1, 1)))
      return failure();
    n = rt(getLengths()).getDimSize(0);
  } else if (getY()) {
    auto y = rt(getY());
    if (!y.getElementType().isInteger(32) && !y.getElementType().isInteger(64))
      return c.fail("Y without LoD holds the new offsets and must be int32 or int64, got " +
                    Twine(y.getElementType().isF32() ? "float32" : "another type"));
    if (failed(c.rank(getY(), "Y", 1, 2)))
      return failure();
    int64_t k = prod(y.getShape());
    if (!isDyn(k) && k < 2)
      return c.fail("Y must hold at least 2 offsets [0, ..., T], got " + Twine(k));
    n = isDyn(k) ? kDyn : k - 1;
  } else {
    ArrayRef<int32_t> lod = getTargetLod();
    if (lod.size() < 2)
      return c.fail("needs Y or a target_lod of at least 2 offsets [0, ..., T]");
    if (lod.front() != 0)
      return c.fail("target_lod must start at 0, got " + Twine(lod.front()));
    for (size_t i = 1; i < lod.size(); ++i)
      if (lod[i] < lod[i - 1])
        return c.fail("target_lod must not decrease (" + Twine(lod[i - 1]) + " then " +
                      Twine(lod[i]) + ")");
    if (!isDyn(rows) && lod.back() != rows)
      return c.fail("target_lod ends at " + Twine(lod.back()) + " but X has " + Twine(rows) +
                    " rows");
    n = static_cast<int64_t>(lod.size()) - 1;
  }
  types.push_back(getX().getType());
  types.push_back(tensor({n}, IntegerType::get(getContext(), 64)));
  return success();
}

LogicalResult SequenceReshapeOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  FailureOr<int64_t> n = sequenceCount(c, getX(), getLengths());
  if (failed(n) || failed(c.rank(getX(), "X", 2, 2)))
    return failure();
  auto x = rt(getX());
  int64_t rows = x.getDimSize(0), d = x.getDimSize(1), w = getNewDim();
  int64_t out = kDyn;
  if (!isDyn(rows) && !isDyn(d)) {
    if ((rows * d) % w != 0)
      return c.fail("X's " + Twine(rows * d) + " values do not fill rows of new_dim " + Twine(w));
    out = rows * d / w;
  }
  types.push_back(tensor({out, w}, x.getElementType()));
  types.push_back(tensor({*n}, IntegerType::get(getContext(), 64)));
  return success();
}

LogicalResult BoxClipOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  FailureOr<int64_t> n = sequenceCount(c, getInput(), getLengths(), "Input");
  if (failed(n) || failed(c.rank(getInput(), "Input", 2, 8)) ||
      failed(c.rank(getImInfo(), "ImInfo", 2, 2)))
    return failure();
  auto x = rt(getInput()), info = rt(getImInfo());
  int64_t last = x.getDimSize(x.getRank() - 1);
  if (!isDyn(last) && last % 4 != 0)
    return c.fail("Input's last dim must hold whole boxes (a multiple of 4), got " + Twine(last));
  if (conflict(info.getDimSize(1), 3))
    return c.fail("ImInfo must be [N, 3] (height, width, scale), got " + shapeStr(info.getShape()));
  if (conflict(info.getDimSize(0), *n))
    return c.fail("ImInfo has " + Twine(info.getDimSize(0)) + " rows but Input has " + Twine(*n) +
                  " images (sequences)");
  if (info.getElementType() != x.getElementType())
    return c.fail("ImInfo must have Input's element type");
  types.push_back(x);
  return success();
}

//===----------------------------------------------------------------------===//
// Fluid's DynamicRNN: rank tables (int64 [N, 2], row j = (sequence index,
// length) of the j-th longest sequence) and the arrays over time steps
// they index, every element at the batch's N rows (see the catalogue).
//===----------------------------------------------------------------------===//

static LogicalResult rankTable(const Checker &c, Value table) {
  auto t = rt(table);
  if (t.getRank() != 2 || conflict(t.getDimSize(1), 2) || !t.getElementType().isInteger(64))
    return c.fail("RankTable must be a rank table (int64 [N, 2]), got " + shapeStr(t.getShape()));
  return success();
}

LogicalResult LodRankTableOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (!getLengths())
    return c.fail("X must be a LoD batch (its sequence lengths in Lengths)");
  // pd keeps one LoD level (the last): level 0 of a one-level batch.
  if (getLevel() != 0)
    return c.fail("level " + Twine(getLevel()) +
                  " is not supported; only level 0 of a batch with one LoD level is");
  if (failed(c.rank(getLengths(), "Lengths", 1, 1)))
    return failure();
  types.push_back(tensor({rt(getLengths()).getDimSize(0), 2}, IntegerType::get(getContext(), 64)));
  return success();
}

LogicalResult MaxSequenceLenOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(rankTable(c, getRankTable())))
    return failure();
  types.push_back(tensor({1}, IntegerType::get(getContext(), 64)));
  return success();
}

LogicalResult LodTensorToArrayOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(rankTable(c, getRankTable())) || failed(c.rank(getX(), "X", 1, 8)))
    return failure();
  auto x = rt(getX());
  SmallVector<int64_t> shape{kDyn, rt(getRankTable()).getDimSize(0)};
  shape.append(x.getShape().begin() + 1, x.getShape().end());
  types.push_back(tensor(shape, x.getElementType()));
  return success();
}

LogicalResult ArrayToLodTensorOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(rankTable(c, getRankTable())) || failed(c.rank(getX(), "X", 2, 9)))
    return failure();
  auto x = rt(getX());
  int64_t n = rt(getRankTable()).getDimSize(0);
  if (conflict(x.getDimSize(1), n))
    return c.fail("X's elements must have one row per sequence of RankTable (" + Twine(n) +
                  "), got " + Twine(x.getDimSize(1)));
  SmallVector<int64_t> shape{kDyn};
  shape.append(x.getShape().begin() + 2, x.getShape().end());
  types.push_back(tensor(shape, x.getElementType()));
  types.push_back(tensor({isDyn(n) ? x.getDimSize(1) : n}, IntegerType::get(getContext(), 64)));
  return success();
}

LogicalResult ReorderLodTensorByRankOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(rankTable(c, getRankTable())) || failed(c.rank(getX(), "X", 1, 8)))
    return failure();
  int64_t n = rt(getRankTable()).getDimSize(0);
  if (Value lengths = getLengths()) {
    if (failed(c.rank(lengths, "Lengths", 1, 1)))
      return failure();
    if (conflict(rt(lengths).getDimSize(0), n))
      return c.fail("X must have one sequence per row of RankTable (" + Twine(n) + "), got " +
                    Twine(rt(lengths).getDimSize(0)));
  } else if (conflict(rt(getX()).getDimSize(0), n)) {
    return c.fail("X without LoD must have one row per sequence of RankTable (" + Twine(n) +
                  "), got " + Twine(rt(getX()).getDimSize(0)));
  }
  types.push_back(getX().getType());
  types.push_back(tensor({n}, IntegerType::get(getContext(), 64)));
  return success();
}

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

/// The lengths operand of a sequence op: present (the importer fills it
/// from the LoD feed X comes from) and 1-D integer.
static FailureOr<int64_t> sequenceCount(const Checker &c, Value x, Value lengths) {
  if (!lengths) {
    (void)c.fail("needs the sequence lengths of a LoD input; X carries no LoD (its rows are not "
                 "sequences of a LoD feed)");
    return failure();
  }
  if (failed(c.rank(lengths, "Lengths", 1, 1)) || failed(c.rank(x, "X", 1, 8)))
    return failure();
  return rt(lengths).getDimSize(0);
}

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

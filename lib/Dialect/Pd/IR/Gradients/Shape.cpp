//===- Shape.cpp - gradient rules: reshapes, transposes, copies, slices ---===//
//
// Ops that only move elements: the gradient moves them back. concat's
// inputs take slices of the output's gradient, split's input the concat of
// its outputs' gradients, and slice's input the output's gradient padded with
// zeros (as concats) back to its shape.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include <algorithm>

namespace mlir::pd {
/// The gradient of an op whose result is its operand 0 with another shape.
static LogicalResult reshapeBack(Operation *op, GradientBuilder &g) {
  g.setGrad(0, g.reshape(g.resultGrad(0), shapeOf(op->getOperand(0))));
  return success();
}

static LogicalResult gradient(Reshape2Op op, GradientBuilder &g) { return reshapeBack(op, g); }
static LogicalResult gradient(FlattenContiguousRangeOp op, GradientBuilder &g) {
  return reshapeBack(op, g);
}
static LogicalResult gradient(Flatten2Op op, GradientBuilder &g) { return reshapeBack(op, g); }
static LogicalResult gradient(Squeeze2Op op, GradientBuilder &g) { return reshapeBack(op, g); }
static LogicalResult gradient(Unsqueeze2Op op, GradientBuilder &g) { return reshapeBack(op, g); }
static LogicalResult gradient(AssignOp op, GradientBuilder &g) { return reshapeBack(op, g); }

static LogicalResult gradient(Transpose2Op op, GradientBuilder &g) {
  ArrayRef<int32_t> perm = op.getAxis();
  SmallVector<int32_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = static_cast<int32_t>(i);
  g.setGrad(0, g.transpose(g.resultGrad(0), inverse));
  return success();
}

namespace {
int64_t normalize(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }

/// `x[start:end]` along `axis`.
Value sliceAlong(GradientBuilder &g, Value x, int64_t axis, int64_t start, int64_t end) {
  OpBuilder &b = g.getBuilder();
  return g.make<SliceOp>(x, Value(), Value(), ValueRange(), ValueRange(),
                         b.getDenseI32ArrayAttr({static_cast<int32_t>(axis)}),
                         b.getDenseI32ArrayAttr({static_cast<int32_t>(start)}),
                         b.getDenseI32ArrayAttr({static_cast<int32_t>(end)}),
                         b.getDenseI32ArrayAttr({}), b.getDenseI32ArrayAttr({}));
}

/// A zero tensor of `shape` with the element type of `like`.
Value zeros(GradientBuilder &g, ArrayRef<int64_t> shape, Value like) {
  Type elem = cast<RankedTensorType>(like.getType()).getElementType();
  OpBuilder &b = g.getBuilder();
  // Paddle's float dtype codes: fp16, fp32, fp64, bf16.
  int32_t code = 5;
  for (int32_t c : {4, 5, 6, 22})
    if (elementTypeFromPaddleDtype(b.getContext(), c) == elem)
      code = c;
  return g.make<FillConstantOp>(Value(), Value(), ValueRange(), b.getDenseI64ArrayAttr(shape),
                                b.getF32FloatAttr(0.0f), b.getStringAttr(""),
                                b.getI32IntegerAttr(code), b.getBoolAttr(false));
}

/// `x` with `before` zeros in front and `after` behind along `axis`.
Value padAlong(GradientBuilder &g, Value x, int64_t axis, int64_t before, int64_t after) {
  SmallVector<Value> parts;
  auto zerosOf = [&](int64_t n) {
    SmallVector<int64_t> shape(shapeOf(x));
    shape[axis] = n;
    return zeros(g, shape, x);
  };
  if (before > 0)
    parts.push_back(zerosOf(before));
  parts.push_back(x);
  if (after > 0)
    parts.push_back(zerosOf(after));
  if (parts.size() == 1)
    return x;
  return g.make<ConcatOp>(parts, Value(), static_cast<int32_t>(axis));
}
} // namespace

static LogicalResult gradient(ConcatOp op, GradientBuilder &g) {
  if (op.getAxisTensor())
    return g.emitError() << "no gradient rule for 'pd.concat' with a run-time AxisTensor (only "
                            "the axis attribute)";
  Value dOut = g.resultGrad(0);
  int64_t axis = normalize(op.getAxis(), rankOf(dOut)), offset = 0;
  for (auto [i, x] : llvm::enumerate(op.getX())) {
    int64_t size = shapeOf(x)[axis];
    if (g.needs(i))
      g.setGrad(i, sliceAlong(g, dOut, axis, offset, offset + size));
    offset += size;
  }
  return success();
}

static LogicalResult gradient(SplitOp op, GradientBuilder &g) {
  if (op.getAxisTensor() || !op.getSectionsTensorList().empty())
    return g.emitError() << "no gradient rule for 'pd.split' with a run-time AxisTensor or "
                            "SectionsTensorList (only the num, sections and axis attributes)";
  SmallVector<Value> parts;
  for (auto [i, out] : llvm::enumerate(op.getOut()))
    parts.push_back(g.resultGrad(i) ? g.resultGrad(i) : g.full(out, 0.0));
  int32_t axis = static_cast<int32_t>(normalize(op.getAxis(), rankOf(op.getX())));
  g.setGrad(0, parts.size() == 1 ? parts.front() : g.make<ConcatOp>(parts, Value(), axis));
  return success();
}

static LogicalResult gradient(SliceOp op, GradientBuilder &g) {
  if (op.getStartsTensor() || op.getEndsTensor() || !op.getStartsTensorList().empty() ||
      !op.getEndsTensorList().empty())
    return g.emitError() << "no gradient rule for 'pd.slice' with run-time starts or ends (only "
                            "the starts and ends attributes)";
  Value x = op.getInput();
  ArrayRef<int64_t> xs = shapeOf(x);
  int64_t rank = rankOf(x);
  // The output's gradient with the decreased dims restored as size 1.
  SmallVector<int64_t> full(xs);
  SmallVector<std::array<int64_t, 3>> cuts; // {axis, start, length}
  for (auto [a, s, e] : llvm::zip(op.getAxes(), op.getStarts(), op.getEnds())) {
    int64_t axis = normalize(a, rank), d = xs[axis];
    auto clamp = [&](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + d : v, 0, d); };
    int64_t start = clamp(s), len = std::max<int64_t>(clamp(e) - start, 0);
    full[axis] = len;
    cuts.push_back({axis, start, len});
  }
  if (llvm::any_of(full, [](int64_t d) { return d == 0; })) {
    g.setGrad(0, g.full(x, 0.0));
    return success();
  }
  Value grad = g.reshape(g.resultGrad(0), full);
  for (auto [axis, start, len] : cuts)
    grad = padAlong(g, grad, axis, start, xs[axis] - start - len);
  g.setGrad(0, grad);
  return success();
}

void attachShapeGradients(MLIRContext *ctx) {
  attachRules<Reshape2Op, FlattenContiguousRangeOp, Flatten2Op, Squeeze2Op, Unsqueeze2Op, AssignOp,
              Transpose2Op, ConcatOp, SplitOp, SliceOp>(ctx);
}
} // namespace mlir::pd

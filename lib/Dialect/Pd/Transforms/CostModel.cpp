//===- CostModel.cpp - FLOPs and bytes of pd ops, and pd-cost-report ------===//

#include "PaddleMLIR/Dialect/Pd/Transforms/CostModel.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::pd;

namespace {
int64_t dimOr1(int64_t d) { return ShapedType::isDynamic(d) ? 1 : d; }

int64_t numel(Type t) {
  auto s = dyn_cast<ShapedType>(t);
  if (!s || !s.hasRank())
    return 0;
  int64_t n = 1;
  for (int64_t d : s.getShape())
    n *= dimOr1(d);
  return n;
}

int64_t dim(Value v, int64_t i) {
  auto t = cast<ShapedType>(v.getType());
  if (i < 0)
    i += t.getRank();
  return i >= 0 && i < t.getRank() ? dimOr1(t.getDimSize(i)) : 1;
}

/// Product of dims [from, rank) of v.
int64_t tail(Value v, int64_t from) {
  int64_t n = 1, r = cast<ShapedType>(v.getType()).getRank();
  for (int64_t i = from; i < r; ++i)
    n *= dim(v, i);
  return n;
}

/// Multiply-adds per output element of a convolution: (C_in / groups) x
/// the window, from the filter [C_out, C_in / groups, k...].
int64_t convFlops(Value filter, Value out) { return 2 * numel(out.getType()) * tail(filter, 1); }

bool isDataMovement(Operation *op) {
  StringRef n = op->getName().stripDialect();
  static const char *names[] = {"reshape2",
                                "reshape",
                                "transpose2",
                                "transpose",
                                "squeeze2",
                                "squeeze",
                                "unsqueeze2",
                                "unsqueeze",
                                "flatten2",
                                "flatten",
                                "flatten_contiguous_range",
                                "concat",
                                "split",
                                "slice",
                                "strided_slice",
                                "gather",
                                "gather_nd",
                                "lookup_table",
                                "lookup_table_v2",
                                "cast",
                                "assign",
                                "shape",
                                "fill_constant",
                                "fill_any_like",
                                "fill_constant_batch_size_like",
                                "expand_v2",
                                "expand",
                                "expand_as_v2",
                                "tile",
                                "stack",
                                "unstack",
                                "dropout",
                                "shard_batch",
                                "one_hot",
                                "one_hot_v2",
                                "assign_value",
                                "pad",
                                "pad2d",
                                "pad3d",
                                "crop",
                                "crop_tensor"};
  for (const char *s : names)
    if (n == s)
      return true;
  return n.starts_with("c_") || n == "send_v2" || n == "recv_v2" || n == "barrier";
}
} // namespace

int64_t mlir::pd::tensorBytes(Type t) {
  auto s = dyn_cast<ShapedType>(t);
  if (!s)
    return 0;
  unsigned bits = s.getElementType().getIntOrFloatBitWidth();
  return numel(t) * std::max<int64_t>(1, bits / 8);
}

OpCost mlir::pd::estimateCost(Operation *op) {
  OpCost c;
  // A lookup reads the rows it gathers (as many bytes as it writes), not
  // its whole table: an embedding's table is mostly never touched.
  Value table;
  if (isa<LookupTableOp, LookupTableV2Op, GatherOp, IndexSelectOp, GatherNdOp>(op))
    table = op->getOperand(0);
  for (Value v : op->getOperands())
    c.bytes += v == table && op->getNumResults() ? tensorBytes(op->getResult(0).getType())
                                                 : tensorBytes(v.getType());
  for (Value v : op->getResults())
    c.bytes += tensorBytes(v.getType());
  if (op->getNumResults() == 0 || isDataMovement(op))
    return c;
  Value out = op->getResult(0);
  int64_t outN = numel(out.getType());
  if (auto o = dyn_cast<Conv2dOp>(op))
    c.flops = convFlops(o.getFilter(), out);
  else if (auto o = dyn_cast<DepthwiseConv2dOp>(op))
    c.flops = convFlops(o.getFilter(), out);
  else if (auto o = dyn_cast<FusedConv2dOp>(op))
    c.flops =
        convFlops(o.getFilter(), out) + (o.getBias() ? outN : 0) + (o.getResidualData() ? outN : 0);
  else if (auto o = dyn_cast<Conv3dOp>(op))
    c.flops = convFlops(o.getFilter(), out);
  else if (auto o = dyn_cast<Conv2dTransposeOp>(op))
    // Each input element scatters into C_out / groups x the window.
    c.flops = 2 * numel(o.getInput().getType()) * tail(o.getFilter(), 1);
  else if (auto o = dyn_cast<MatmulV2Op>(op))
    c.flops = 2 * outN * dim(o.getX(), o.getTransX() ? -2 : -1);
  else if (auto o = dyn_cast<MatmulOp>(op))
    c.flops = 2 * outN * dim(o.getX(), o.getTranspose_X() ? -2 : -1);
  else if (auto o = dyn_cast<MulOp>(op))
    c.flops = 2 * outN * tail(o.getX(), o.getXNumColDims());
  else if (auto o = dyn_cast<FcOp>(op))
    c.flops = 2 * outN * tail(o.getInput(), o.getInNumColDims()) + (o.getBias() ? outN : 0);
  else if (auto o = dyn_cast<Pool2dOp>(op)) {
    auto k = o.getKsize();
    c.flops = o.getGlobalPooling() || o.getAdaptive() ? numel(o.getX().getType())
                                                      : outN * int64_t(k[0]) * int64_t(k[1]);
  } else if (isa<SoftmaxOp, LayerNormOp, BatchNormOp, InstanceNormOp, GroupNormOp>(op))
    // Normalizations: mean, variance (or max, sum), scale and shift.
    c.flops = 5 * numel(op->getOperand(0).getType());
  else if (op->getName().stripDialect().starts_with("reduce_"))
    c.flops = numel(op->getOperand(0).getType());
  else
    c.flops = outN; // elementwise: one per output element
  return c;
}

namespace mlir::pd {
#define GEN_PASS_DEF_PDCOSTREPORTPASS
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h.inc"

namespace {
struct PdCostReportPass : impl::PdCostReportPassBase<PdCostReportPass> {
  void runOnOperation() override {
    Builder b(&getContext());
    int64_t flops = 0, bytes = 0;
    getOperation().walk([&](Operation *op) {
      if (!op->getDialect() || !isa<PdDialect>(op->getDialect()))
        return;
      OpCost c = estimateCost(op);
      flops += c.flops;
      bytes += c.bytes;
      op->setAttr("pd.cost",
                  b.getDictionaryAttr({b.getNamedAttr("flops", b.getI64IntegerAttr(c.flops)),
                                       b.getNamedAttr("bytes", b.getI64IntegerAttr(c.bytes))}));
    });
    getOperation()->setAttr(
        "pd.cost", b.getDictionaryAttr({b.getNamedAttr("flops", b.getI64IntegerAttr(flops)),
                                        b.getNamedAttr("bytes", b.getI64IntegerAttr(bytes))}));
  }
};
} // namespace
} // namespace mlir::pd

//===- ControlFlow.cpp - pd.while / pd.conditional_block to scf -----------===//
//
// The loop keeps its tensors: scf.while's "before" region reads the
// condition (the first carried value), the "after" region is pd.while's
// body, whose ops the same conversion lowers in place. Bufferization then
// gives the carried values their buffers. A conditional_block becomes an
// scf.if whose else branch yields the defaults; select_input a chain of
// selects on the mask. A tensor array is one tensor stacking its elements
// along a leading dim: writes and reads copy an element through the
// pdk_array_* kernels (which check the index), the length is that dim.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Runtime/KernelABI.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::pd;

namespace {
/// `values` cast to `types` where they are more static.
SmallVector<Value> castAll(OpBuilder &b, Location loc, ValueRange values, TypeRange types) {
  SmallVector<Value> out;
  for (auto [v, type] : llvm::zip(values, types))
    out.push_back(v.getType() == type ? v : tensor::CastOp::create(b, loc, type, v).getResult());
  return out;
}

struct WhileToScf : OpConversionPattern<WhileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WhileOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    TypeRange types = op.getResultTypes();
    auto loop = scf::WhileOp::create(r, loc, types, castAll(r, loc, adaptor.getInits(), types));
    SmallVector<Location> locs(types.size(), loc);
    Block *before = r.createBlock(&loop.getBefore(), {}, types, locs);
    Value flag = lowering::extractScalar(r, loc, before->getArgument(0));
    scf::ConditionOp::create(r, loc, flag, before->getArguments());
    r.inlineRegionBefore(op.getBody(), loop.getAfter(), loop.getAfter().end());
    r.replaceOp(op, loop.getResults());
    return success();
  }
};

struct YieldToScf : OpConversionPattern<YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &r) const override {
    r.replaceOpWithNewOp<scf::YieldOp>(
        op, castAll(r, op.getLoc(), adaptor.getValues(), op->getParentOp()->getResultTypes()));
    return success();
  }
};

struct ConditionalBlockToScf : OpConversionPattern<ConditionalBlockOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ConditionalBlockOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value flag;
    if (op.getIsScalarCondition()) {
      flag = lowering::extractScalar(r, loc, adaptor.getConds()[0]);
    } else {
      // Runs when every condition tensor has an element.
      flag = arith::ConstantIntOp::create(r, loc, 1, 1);
      for (Value c : adaptor.getConds()) {
        Value some =
            arith::CmpIOp::create(r, loc, arith::CmpIPredicate::ne,
                                  lowering::elementCount(r, loc, c), lowering::idx(r, loc, 0));
        flag = arith::AndIOp::create(r, loc, flag, some);
      }
    }
    TypeRange types = op.getResultTypes();
    auto ifOp = scf::IfOp::create(r, loc, types, flag, /*withElseRegion=*/true);
    // Then: the body (its pd.yield becomes scf.yield); else: the defaults.
    r.eraseBlock(&ifOp.getThenRegion().front());
    r.inlineRegionBefore(op.getBody(), ifOp.getThenRegion(), ifOp.getThenRegion().end());
    // (Without results, the builder already ended the else block with an
    // empty yield.)
    Block &otherwise = ifOp.getElseRegion().front();
    r.setInsertionPointToEnd(&otherwise);
    if (otherwise.empty() || !otherwise.back().hasTrait<OpTrait::IsTerminator>())
      scf::YieldOp::create(r, loc, castAll(r, loc, adaptor.getDefaults(), types));
    r.replaceOp(op, ifOp.getResults());
    return success();
  }
};

/// X[Mask]: the last input unless the mask names an earlier one.
struct SelectInputToSelects : OpConversionPattern<SelectInputOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SelectInputOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Type type = op.getType();
    SmallVector<Value> xs;
    for (Value x : adaptor.getX())
      xs.push_back(castAll(r, loc, x, type).front());
    Value mask = lowering::extractScalar(r, loc, adaptor.getMask());
    Value out = xs.back();
    for (int64_t i = static_cast<int64_t>(xs.size()) - 2; i >= 0; --i) {
      Value k = arith::ConstantIntOp::create(r, loc, mask.getType(), i);
      Value is = arith::CmpIOp::create(r, loc, arith::CmpIPredicate::eq, mask, k);
      out = arith::SelectOp::create(r, loc, is, xs[i], out);
    }
    r.replaceOp(op, out);
    return success();
  }
};

bool isI32(Value index) {
  return cast<RankedTensorType>(index.getType()).getElementType().isInteger(32);
}

/// write_to_array -> pdk_array_write into [max(N, I + 1), ...], the
/// element dims from the array where it has elements (so the kernel checks
/// X against them), else from X.
struct WriteToArrayLowering : OpConversionPattern<WriteToArrayOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WriteToArrayOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    namespace aw = pdk::arraywrite;
    Location loc = op.getLoc();
    Value x = a.getX(), array = a.getArray();
    auto type = cast<RankedTensorType>(op.getType());
    Value i = arith::IndexCastOp::create(r, loc, r.getIndexType(),
                                         lowering::extractScalar(r, loc, a.getI()));
    // At least one row: a negative index is the kernel's error to report.
    Value rows =
        arith::MaxSIOp::create(r, loc, arith::AddIOp::create(r, loc, i, lowering::idx(r, loc, 1)),
                               lowering::idx(r, loc, 1));
    if (array)
      rows = arith::MaxSIOp::create(r, loc, rows, tensor::DimOp::create(r, loc, array, 0));
    // An empty array (a declared one) takes its element dims from X.
    Value empty;
    if (array)
      empty =
          arith::CmpIOp::create(r, loc, arith::CmpIPredicate::eq,
                                tensor::DimOp::create(r, loc, array, 0), lowering::idx(r, loc, 0));
    SmallVector<Value> dyn;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      if (d == 0) {
        dyn.push_back(rows);
        continue;
      }
      Value fromX = tensor::DimOp::create(r, loc, x, d - 1);
      dyn.push_back(array ? arith::SelectOp::create(r, loc, empty, fromX,
                                                    tensor::DimOp::create(r, loc, array, d))
                                .getResult()
                          : fromX);
    }
    Value init = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(), dyn);
    SmallVector<int64_t> ints(aw::NumInts);
    ints[aw::ElemBytes] = lowering::valueBytes(type.getElementType());
    ints[aw::IndexIs32] = isI32(a.getI());
    ints[aw::HasArray] = array != nullptr;
    auto k = KernelCallOp::create(r, loc, type, "pdk_array_write",
                                  ValueRange{x, a.getI(), array ? array : x}, init,
                                  r.getDenseI64ArrayAttr({aw::X, aw::I, aw::Array}),
                                  r.getDenseI64ArrayAttr(ints), r.getDenseF32ArrayAttr({}));
    k->setAttr("pd.from", r.getStringAttr("write_to_array"));
    r.replaceOp(op, k.getResult());
    return success();
  }
};

struct ReadFromArrayLowering : OpConversionPattern<ReadFromArrayOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ReadFromArrayOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    namespace ar = pdk::arrayread;
    Location loc = op.getLoc();
    Value array = a.getX();
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value> dyn;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        dyn.push_back(tensor::DimOp::create(r, loc, array, d + 1));
    Value init = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(), dyn);
    SmallVector<int64_t> ints(ar::NumInts);
    ints[ar::ElemBytes] = lowering::valueBytes(type.getElementType());
    ints[ar::IndexIs32] = isI32(a.getI());
    auto k = KernelCallOp::create(r, loc, type, "pdk_array_read", ValueRange{array, a.getI()}, init,
                                  r.getDenseI64ArrayAttr({ar::Array, ar::I}),
                                  r.getDenseI64ArrayAttr(ints), r.getDenseF32ArrayAttr({}));
    k->setAttr("pd.from", r.getStringAttr("read_from_array"));
    r.replaceOp(op, k.getResult());
    return success();
  }
};

struct LodArrayLengthLowering : OpConversionPattern<LodArrayLengthOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LodArrayLengthOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value n = arith::IndexCastOp::create(r, loc, r.getI64Type(),
                                         tensor::DimOp::create(r, loc, a.getX(), 0));
    r.replaceOpWithNewOp<tensor::FromElementsOp>(op, op.getType(), ValueRange{n});
    return success();
  }
};

/// is_empty: whether the product of X's dims is zero.
struct IsEmptyLowering : OpConversionPattern<IsEmptyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(IsEmptyOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value none =
        arith::CmpIOp::create(r, loc, arith::CmpIPredicate::eq,
                              lowering::elementCount(r, loc, a.getX()), lowering::idx(r, loc, 0));
    r.replaceOpWithNewOp<tensor::FromElementsOp>(op, op.getType(), ValueRange{none});
    return success();
  }
};

/// Stacking moves the array's leading dim to `axis`; concatenating then
/// merges it with the element dim there (element k's row j lands at
/// k * size + j).
struct TensorArrayToTensorLowering : OpConversionPattern<TensorArrayToTensorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TensorArrayToTensorOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value array = a.getX();
    auto arrayType = cast<RankedTensorType>(array.getType());
    int64_t rank = arrayType.getRank() - 1;
    bool stack = op.getUseStack();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + (stack ? rank + 1 : rank) : op.getAxis();
    SmallVector<int64_t> perm;
    for (int64_t d = 1; d <= axis; ++d)
      perm.push_back(d);
    perm.push_back(0);
    for (int64_t d = axis + 1; d <= rank; ++d)
      perm.push_back(d);
    Value moved = lowering::permute(r, loc, array, perm);
    if (!stack) {
      SmallVector<ReassociationIndices> groups;
      for (int64_t d = 0; d <= rank; ++d) {
        if (d == axis + 1)
          continue;
        groups.push_back(d == axis ? ReassociationIndices{d, d + 1} : ReassociationIndices{d});
      }
      moved = tensor::CollapseShapeOp::create(r, loc, moved, groups);
    }
    auto outType = cast<RankedTensorType>(op.getOut().getType());
    if (moved.getType() != outType)
      moved = tensor::CastOp::create(r, loc, outType, moved);
    // OutIndex: each element's size along axis (stacked too, as Paddle; 1
    // where a stack's axis is past the element's dims).
    auto indexType = cast<RankedTensorType>(op.getOutIndex().getType());
    Value size = axis < rank ? tensor::DimOp::create(r, loc, array, axis + 1).getResult()
                             : lowering::idx(r, loc, 1);
    size = arith::IndexCastOp::create(r, loc, r.getI32Type(), size);
    SmallVector<Value> dyn;
    if (indexType.isDynamicDim(0))
      dyn.push_back(tensor::DimOp::create(r, loc, array, 0));
    Value empty = tensor::EmptyOp::create(r, loc, indexType.getShape(), r.getI32Type(), dyn);
    Value sizes = linalg::FillOp::create(r, loc, size, empty).getResult(0);
    r.replaceOp(op, {moved, sizes});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Fluid's DynamicRNN: rank tables and the arrays over time steps they index
// (every element at the batch's N rows, see the catalogue), each op one call
// of the kernels in lib/Runtime/Kernels/Array.cpp. The sizes the data sets
// (the longest and the total length) come from pdk_rank_table_info first.
//===----------------------------------------------------------------------===//

/// A call of `kernel` on `operands` (slots[k]: the operand in the
/// kernel's slot k, -1 for none) into a new tensor of `type` whose dynamic
/// dims are `dyn`.
Value rankCall(OpBuilder &b, Location loc, Operation *op, StringRef kernel, RankedTensorType type,
               ValueRange dyn, ValueRange operands, ArrayRef<int64_t> slots,
               ArrayRef<int64_t> ints) {
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(), dyn);
  auto k = KernelCallOp::create(b, loc, type, kernel, operands, init, b.getDenseI64ArrayAttr(slots),
                                b.getDenseI64ArrayAttr(ints), b.getDenseF32ArrayAttr({}));
  k->setAttr("pd.from", b.getStringAttr(op->getName().stripDialect()));
  return k.getResult();
}

/// The dynamic dims of `type`, dim d taken from `shape(d)`.
SmallVector<Value> dynDims(RankedTensorType type, llvm::function_ref<Value(int64_t)> shape) {
  SmallVector<Value> dyn;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dyn.push_back(shape(d));
  return dyn;
}

/// pdk_rank_table_info of `kind`: int64 [1], or [N] for the lengths.
Value rankInfo(OpBuilder &b, Location loc, Operation *op, Value table, int64_t kind) {
  namespace ri = pdk::rankInfo;
  int64_t n = kind == ri::Lengths ? cast<RankedTensorType>(table.getType()).getDimSize(0) : 1;
  auto type = RankedTensorType::get({n}, b.getI64Type());
  SmallVector<Value> dyn;
  if (ShapedType::isDynamic(n))
    dyn.push_back(tensor::DimOp::create(b, loc, table, 0));
  return rankCall(b, loc, op, "pdk_rank_table_info", type, dyn, table, {ri::Table}, {kind});
}

Value rankInfoIndex(OpBuilder &b, Location loc, Operation *op, Value table, int64_t kind) {
  return arith::IndexCastOp::create(
      b, loc, b.getIndexType(), lowering::extractScalar(b, loc, rankInfo(b, loc, op, table, kind)));
}

struct LodRankTableLowering : OpConversionPattern<LodRankTableOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LodRankTableOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Value lengths = a.getLengths();
    if (!lengths || !cast<RankedTensorType>(lengths.getType()).getElementType().isInteger(64))
      return op.emitOpError("needs X's int64 sequence lengths");
    auto type = cast<RankedTensorType>(op.getType());
    Location loc = op.getLoc();
    auto dyn = dynDims(type, [&](int64_t) { return tensor::DimOp::create(r, loc, lengths, 0); });
    r.replaceOp(op, rankCall(r, loc, op, "pdk_lod_rank_table", type, dyn, lengths,
                             {pdk::rankTable::Lengths}, {}));
    return success();
  }
};

struct MaxSequenceLenLowering : OpConversionPattern<MaxSequenceLenOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MaxSequenceLenOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    r.replaceOp(op, rankInfo(r, op.getLoc(), op, a.getRankTable(), pdk::rankInfo::MaxLength));
    return success();
  }
};

struct LodTensorToArrayLowering : OpConversionPattern<LodTensorToArrayOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LodTensorToArrayOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    namespace la = pdk::lodArray;
    Location loc = op.getLoc();
    Value x = a.getX(), table = a.getRankTable();
    auto type = cast<RankedTensorType>(op.getType());
    auto dyn = dynDims(type, [&](int64_t d) -> Value {
      if (d == 0)
        return rankInfoIndex(r, loc, op, table, pdk::rankInfo::MaxLength);
      return tensor::DimOp::create(r, loc, d == 1 ? table : x, d == 1 ? 0 : d - 1);
    });
    SmallVector<int64_t> ints(la::NumInts);
    ints[la::ElemBytes] = lowering::valueBytes(type.getElementType());
    r.replaceOp(op, rankCall(r, loc, op, "pdk_lod_to_array", type, dyn, {x, table},
                             {la::X, la::Table}, ints));
    return success();
  }
};

struct ArrayToLodTensorLowering : OpConversionPattern<ArrayToLodTensorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ArrayToLodTensorOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    namespace la = pdk::lodArray;
    Location loc = op.getLoc();
    Value x = a.getX(), table = a.getRankTable();
    auto type = cast<RankedTensorType>(op.getOut().getType());
    auto dyn = dynDims(type, [&](int64_t d) -> Value {
      if (d == 0)
        return rankInfoIndex(r, loc, op, table, pdk::rankInfo::TotalLength);
      return tensor::DimOp::create(r, loc, x, d + 1);
    });
    SmallVector<int64_t> ints(la::NumInts);
    ints[la::ElemBytes] = lowering::valueBytes(type.getElementType());
    Value out =
        rankCall(r, loc, op, "pdk_array_to_lod", type, dyn, {x, table}, {la::X, la::Table}, ints);
    Value lengths = rankInfo(r, loc, op, table, pdk::rankInfo::Lengths);
    r.replaceOp(op, ValueRange{out, r.createOrFold<tensor::CastOp>(
                                        loc, op.getOutLengths().getType(), lengths)});
    return success();
  }
};

struct ShrinkRnnMemoryLowering : OpConversionPattern<ShrinkRnnMemoryOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ShrinkRnnMemoryOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    namespace sm = pdk::shrinkMemory;
    Location loc = op.getLoc();
    Value x = a.getX(), lengths = a.getLengths();
    auto type = cast<RankedTensorType>(op.getType());
    auto it = cast<RankedTensorType>(a.getI().getType());
    if (type.getRank() < 1 || !it.hasStaticShape() || it.getNumElements() != 1)
      return op.emitOpError("needs a memory X of rank >= 1 and one step index I");
    auto dyn = dynDims(type, [&](int64_t d) { return tensor::DimOp::create(r, loc, x, d); });
    SmallVector<int64_t> ints(sm::NumInts);
    ints[sm::ElemBytes] = lowering::valueBytes(type.getElementType());
    ints[sm::IndexIs32] = isI32(a.getI());
    ints[sm::HasLengths] = lengths != nullptr;
    // slots[k]: the operand in slot k (-1: none).
    SmallVector<Value> operands{x, a.getI(), a.getRankTable()};
    SmallVector<int64_t> slots{0, 1, 2, -1};
    if (lengths) {
      operands.push_back(lengths);
      slots[sm::Lengths] = 3;
    }
    r.replaceOp(op, rankCall(r, loc, op, "pdk_shrink_memory", type, dyn, operands, slots, ints));
    return success();
  }
};

/// reorder_lod_tensor_by_rank: rows (pdk_reorder_by_rank) or, for a LoD
/// batch, whole sequences (pdk_reorder_sequences), whose lengths reorder
/// as rows.
struct ReorderLodTensorByRankLowering : OpConversionPattern<ReorderLodTensorByRankOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ReorderLodTensorByRankOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    namespace la = pdk::lodArray;
    namespace rs = pdk::reorderSequences;
    Location loc = op.getLoc();
    Value x = a.getX(), table = a.getRankTable(), lengths = a.getLengths();
    auto type = cast<RankedTensorType>(op.getOut().getType());
    auto lenType = cast<RankedTensorType>(op.getOutLengths().getType());
    if (type.getRank() < 1)
      return op.emitOpError("needs an X of rank >= 1");
    auto dyn = dynDims(type, [&](int64_t d) { return tensor::DimOp::create(r, loc, x, d); });
    auto lenDyn =
        dynDims(lenType, [&](int64_t) { return tensor::DimOp::create(r, loc, table, 0); });
    int64_t bytes = lowering::valueBytes(type.getElementType());
    if (!lengths) {
      Value out = rankCall(r, loc, op, "pdk_reorder_by_rank", type, dyn, {x, table},
                           {la::X, la::Table}, {bytes});
      Value empty = tensor::EmptyOp::create(r, loc, lenType.getShape(), r.getI64Type(), lenDyn);
      Value one = arith::ConstantIntOp::create(r, loc, r.getI64Type(), 1);
      Value ones = linalg::FillOp::create(r, loc, ValueRange{one}, ValueRange{empty}).getResult(0);
      r.replaceOp(op, ValueRange{out, ones});
      return success();
    }
    Value out = rankCall(r, loc, op, "pdk_reorder_sequences", type, dyn, {x, table, lengths},
                         {rs::X, rs::Table, rs::Lengths}, {bytes});
    Value newLengths = rankCall(r, loc, op, "pdk_reorder_by_rank", lenType, lenDyn,
                                {lengths, table}, {la::X, la::Table}, {8});
    r.replaceOp(op, ValueRange{out, newLengths});
    return success();
  }
};
} // namespace

void mlir::pd::populatePdControlFlowToScfPatterns(RewritePatternSet &patterns) {
  patterns.add<WhileToScf, YieldToScf, ConditionalBlockToScf, SelectInputToSelects,
               WriteToArrayLowering, ReadFromArrayLowering, LodArrayLengthLowering,
               TensorArrayToTensorLowering, IsEmptyLowering, LodRankTableLowering,
               MaxSequenceLenLowering, LodTensorToArrayLowering, ArrayToLodTensorLowering,
               ShrinkRnnMemoryLowering, ReorderLodTensorByRankLowering>(patterns.getContext());
}

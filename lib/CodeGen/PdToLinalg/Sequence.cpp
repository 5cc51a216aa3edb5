//===- Sequence.cpp - pd LoD sequence ops -> kernel calls -----------------===//
//
// Ops over a batch of variable-length sequences (rows packed along dim 0,
// the lengths in the op's Lengths operand) call the kernels of
// lib/Runtime/Kernels/Sequence.cpp, which check the run-time lengths
// against the rows before reading them.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Runtime/KernelABI.h"
#include "Utils.h"

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::lowering;

namespace {
/// sequence_pool -> pdk_sequence_pool (fp32): Out, and MaxIndex by a
/// second call in index mode when the program has it.
struct SequencePoolLowering : OpConversionPattern<SequencePoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SequencePoolOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    namespace sp = pdk::seqpool;
    Location loc = op.getLoc();
    Value x = a.getX(), lengths = a.getLengths();
    auto type = cast<RankedTensorType>(op.getOut().getType());
    if (!lengths || !type.getElementType().isF32() ||
        !cast<RankedTensorType>(lengths.getType()).getElementType().isInteger(64)) {
      op.emitOpError("is computed in fp32 with int64 sequence lengths, got ")
          << x.getType() << " and " << (lengths ? lengths.getType() : Type());
      return failure();
    }
    int64_t kind = llvm::StringSwitch<int64_t>(op.getPooltype())
                       .Case("AVERAGE", sp::Average)
                       .Case("SUM", sp::Sum)
                       .Case("SQRT", sp::Sqrt)
                       .Case("MAX", sp::Max)
                       .Case("LAST", sp::Last)
                       .Default(sp::First);
    auto call = [&](RankedTensorType t, bool index) -> Value {
      SmallVector<Value> dyn;
      for (int64_t i = 0; i < t.getRank(); ++i)
        if (t.isDynamicDim(i))
          dyn.push_back(r.createOrFold<tensor::DimOp>(loc, i == 0 ? lengths : x, i == 0 ? 0 : i));
      Value init = tensor::EmptyOp::create(r, loc, t.getShape(), t.getElementType(), dyn);
      SmallVector<int64_t> ints(sp::NumInts);
      ints[sp::PoolType] = kind;
      ints[sp::Index] = index;
      SmallVector<float> floats(sp::NumFloats);
      floats[sp::PadValue] = op.getPadValue().convertToFloat();
      auto k = KernelCallOp::create(r, loc, t, "pdk_sequence_pool", ValueRange{x, lengths}, init,
                                    r.getDenseI64ArrayAttr({sp::X, sp::Lengths}),
                                    r.getDenseI64ArrayAttr(ints), r.getDenseF32ArrayAttr(floats));
      k->setAttr("pd.from", r.getStringAttr("sequence_pool"));
      return k.getResult();
    };
    SmallVector<Value> results{call(type, false)};
    if (op.getMaxIndex())
      results.push_back(call(cast<RankedTensorType>(op.getMaxIndex().getType()), true));
    r.replaceOp(op, results);
    return success();
  }
};
} // namespace

void mlir::pd::populatePdSequenceToLinalgPatterns(RewritePatternSet &p) {
  p.add<SequencePoolLowering>(p.getContext());
}

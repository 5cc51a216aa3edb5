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
    if (failed(checkSequenceOperands(op, x, lengths)))
      return failure();
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

/// sequence_conv -> pdk_sequence_context (each row's context window inside
/// its sequence, [T, L*D]) then a matrix product with Filter [L*D, M].
struct SequenceConvLowering : OpConversionPattern<SequenceConvOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SequenceConvOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    namespace sc = pdk::seqcontext;
    Location loc = op.getLoc();
    Value x = a.getX(), lengths = a.getLengths();
    auto type = cast<RankedTensorType>(op.getOut().getType());
    if (failed(checkSequenceOperands(op, ValueRange{x, a.getFilter()}, lengths)))
      return failure();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t len = op.getContextLength(), d = xt.getDimSize(1);
    auto ctxType = RankedTensorType::get({xt.getDimSize(0), ShapedType::isDynamic(d) ? d : d * len},
                                         r.getF32Type());
    SmallVector<Value> dyn;
    Value rows = r.createOrFold<tensor::DimOp>(loc, x, 0);
    if (ctxType.isDynamicDim(0))
      dyn.push_back(rows);
    if (ctxType.isDynamicDim(1))
      dyn.push_back(r.createOrFold<arith::MulIOp>(loc, r.createOrFold<tensor::DimOp>(loc, x, 1),
                                                  idx(r, loc, len)));
    Value init = tensor::EmptyOp::create(r, loc, ctxType.getShape(), r.getF32Type(), dyn);
    SmallVector<int64_t> ints(sc::NumInts);
    ints[sc::Start] = op.getContextStart();
    ints[sc::Length] = len;
    auto k = KernelCallOp::create(r, loc, ctxType, "pdk_sequence_context", ValueRange{x, lengths},
                                  init, r.getDenseI64ArrayAttr({sc::X, sc::Lengths}),
                                  r.getDenseI64ArrayAttr(ints), r.getDenseF32ArrayAttr({}));
    k->setAttr("pd.from", r.getStringAttr("sequence_conv"));
    SmallVector<Value> outDyn;
    if (type.isDynamicDim(0))
      outDyn.push_back(rows);
    if (type.isDynamicDim(1))
      outDyn.push_back(r.createOrFold<tensor::DimOp>(loc, a.getFilter(), 1));
    Value zero = filled(r, loc, type, outDyn, 0.0);
    r.replaceOp(op, linalg::MatmulOp::create(r, loc, ValueRange{k.getResult(), a.getFilter()},
                                             ValueRange{zero})
                        .getResult(0));
    return success();
  }
};

/// sequence_softmax -> pdk_sequence_softmax, the shape of X.
struct SequenceSoftmaxLowering : OpConversionPattern<SequenceSoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SequenceSoftmaxOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX(), lengths = a.getLengths();
    if (failed(checkSequenceOperands(op, x, lengths)))
      return failure();
    auto type = cast<RankedTensorType>(op.getType());
    Value init = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(),
                                         dynSizesFrom(r, loc, x, type));
    auto k =
        KernelCallOp::create(r, loc, type, "pdk_sequence_softmax", ValueRange{x, lengths}, init,
                             r.getDenseI64ArrayAttr({pdk::seqsoftmax::X, pdk::seqsoftmax::Lengths}),
                             r.getDenseI64ArrayAttr({}), r.getDenseF32ArrayAttr({}));
    k->setAttr("pd.from", r.getStringAttr("sequence_softmax"));
    r.replaceOp(op, k.getResult());
    return success();
  }
};

/// sequence_expand(_as) of an X without LoD -> pdk_sequence_expand into
/// [rows of Y, X's row dims].
template <typename OpTy> struct SequenceExpandLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX(), lengths = a.getLengths();
    if (!lengths || !cast<RankedTensorType>(lengths.getType()).getElementType().isInteger(64))
      return op.emitOpError("needs Y's int64 sequence lengths");
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value> dyn;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        dyn.push_back(tensor::DimOp::create(r, loc, d == 0 ? a.getY() : x, d));
    Value init = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(), dyn);
    int64_t bytes = valueBytes(type.getElementType());
    auto k =
        KernelCallOp::create(r, loc, type, "pdk_sequence_expand", ValueRange{x, lengths}, init,
                             r.getDenseI64ArrayAttr({pdk::seqexpand::X, pdk::seqexpand::Lengths}),
                             r.getDenseI64ArrayAttr({bytes}), r.getDenseF32ArrayAttr({}));
    k->setAttr("pd.from", r.getStringAttr(op->getName().stripDialect()));
    r.replaceOp(op, k.getResult());
    return success();
  }
};

/// im2sequence -> one generated element per (patch, patch value): row
/// (n, i, j), column (c, ky, kx) reads X[n, c, i*sy - up + ky, j*sx - left
/// + kx], zero outside the image; OutLengths [N] = OH*OW.
struct Im2sequenceLowering : OpConversionPattern<Im2sequenceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(Im2sequenceOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX();
    if (!cast<RankedTensorType>(x.getType()).getElementType().isF32())
      return op.emitOpError("supports float32 X only");
    ArrayRef<int32_t> k = op.getKernels(), s = op.getStrides(), p = op.getPaddings();
    auto dim = [&](int64_t d) { return r.createOrFold<tensor::DimOp>(loc, x, d); };
    Value n = dim(0), c = dim(1), h = dim(2), w = dim(3);
    // (in + both paddings - kernel) / stride + 1, at least 0.
    auto windows = [&](Value in, int64_t kk, int64_t st, int64_t lo, int64_t hi) {
      Value num = r.createOrFold<arith::SubIOp>(
          loc, r.createOrFold<arith::AddIOp>(loc, in, idx(r, loc, lo + hi)), idx(r, loc, kk));
      Value q = r.createOrFold<arith::AddIOp>(
          loc, r.createOrFold<arith::FloorDivSIOp>(loc, num, idx(r, loc, st)), idx(r, loc, 1));
      return r.createOrFold<arith::MaxSIOp>(loc, q, idx(r, loc, 0));
    };
    Value oh = windows(h, k[0], s[0], p[0], p[2]), ow = windows(w, k[1], s[1], p[1], p[3]);
    Value per = r.createOrFold<arith::MulIOp>(loc, oh, ow);
    auto type = cast<RankedTensorType>(op.getOut().getType());
    SmallVector<Value> dyn;
    if (type.isDynamicDim(0))
      dyn.push_back(r.createOrFold<arith::MulIOp>(loc, n, per));
    if (type.isDynamicDim(1))
      dyn.push_back(r.createOrFold<arith::MulIOp>(loc, c, idx(r, loc, int64_t(k[0]) * k[1])));
    Value out = generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
      auto div = [&](Value v, Value d) { return arith::DivUIOp::create(b, l, v, d).getResult(); };
      auto rem = [&](Value v, Value d) { return arith::RemUIOp::create(b, l, v, d).getResult(); };
      auto cst = [&](int64_t v) { return idx(b, l, v); };
      Value row = linalg::IndexOp::create(b, l, 0), col = linalg::IndexOp::create(b, l, 1);
      Value j = rem(row, ow), rest = div(row, ow), i = rem(rest, oh), img = div(rest, oh);
      Value kx = rem(col, cst(k[1])), crest = div(col, cst(k[1]));
      Value ky = rem(crest, cst(k[0])), ch = div(crest, cst(k[0]));
      auto at = [&](Value o, int64_t st, int64_t pad, Value kk) {
        Value v = arith::MulIOp::create(b, l, o, cst(st));
        return arith::AddIOp::create(b, l, arith::SubIOp::create(b, l, v, cst(pad)), kk)
            .getResult();
      };
      Value y = at(i, s[0], p[0], ky), xx = at(j, s[1], p[1], kx);
      auto inRange = [&](Value v, Value size) {
        Value ge = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, v, cst(0));
        Value lt = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, v, size);
        return arith::AndIOp::create(b, l, ge, lt).getResult();
      };
      Value inside = arith::AndIOp::create(b, l, inRange(y, h), inRange(xx, w));
      Value yc = arith::SelectOp::create(b, l, inside, y, cst(0));
      Value xc = arith::SelectOp::create(b, l, inside, xx, cst(0));
      Value v = tensor::ExtractOp::create(b, l, x, ValueRange{img, ch, yc, xc});
      return arith::SelectOp::create(b, l, inside, v, scalar(b, l, b.getF32Type(), 0.0));
    });
    auto lenType = cast<RankedTensorType>(op.getOutLengths().getType());
    SmallVector<Value> lenDyn;
    if (lenType.isDynamicDim(0))
      lenDyn.push_back(n);
    Value perI64 = arith::IndexCastOp::create(r, loc, r.getI64Type(), per);
    Value empty = tensor::EmptyOp::create(r, loc, lenType.getShape(), r.getI64Type(), lenDyn);
    Value lengths =
        linalg::FillOp::create(r, loc, ValueRange{perI64}, ValueRange{empty}).getResult(0);
    r.replaceOp(op, ValueRange{out, lengths});
    return success();
  }
};

/// lod_reset: Out is X itself; OutLengths are Y's lengths (Y with LoD),
/// or pdk_lod_offsets of Y's data or of target_lod, which checks them.
struct LodResetLowering : OpConversionPattern<LodResetOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LodResetOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX();
    auto type = cast<RankedTensorType>(op.getOutLengths().getType());
    if (Value lengths = a.getLengths()) {
      if (!cast<RankedTensorType>(lengths.getType()).getElementType().isInteger(64))
        return op.emitOpError("needs Y's int64 sequence lengths");
      r.replaceOp(op, ValueRange{x, r.createOrFold<tensor::CastOp>(loc, type, lengths)});
      return success();
    }
    Value offsets = a.getY();
    if (!offsets) {
      ArrayRef<int32_t> lod = op.getTargetLod();
      auto t = RankedTensorType::get({static_cast<int64_t>(lod.size())}, r.getI32Type());
      offsets = arith::ConstantOp::create(r, loc, DenseIntElementsAttr::get(t, lod));
    }
    auto ot = cast<RankedTensorType>(offsets.getType());
    SmallVector<Value> dyn;
    if (type.isDynamicDim(0))
      dyn.push_back(
          r.createOrFold<arith::SubIOp>(loc, elementCount(r, loc, offsets), idx(r, loc, 1)));
    Value init = tensor::EmptyOp::create(r, loc, type.getShape(), r.getI64Type(), dyn);
    auto k =
        KernelCallOp::create(r, loc, type, "pdk_lod_offsets", ValueRange{offsets, x}, init,
                             r.getDenseI64ArrayAttr({pdk::lodoffsets::Offsets, pdk::lodoffsets::X}),
                             r.getDenseI64ArrayAttr({ot.getElementType().isInteger(32) ? 1 : 0}),
                             r.getDenseF32ArrayAttr({}));
    k->setAttr("pd.from", r.getStringAttr("lod_reset"));
    r.replaceOp(op, ValueRange{x, k.getResult()});
    return success();
  }
};

/// sequence_reshape: Out is X's values re-cut to rows of new_dim (a
/// reshape); pdk_sequence_reshape computes (and checks) the new lengths.
struct SequenceReshapeLowering : OpConversionPattern<SequenceReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SequenceReshapeOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    namespace sr = pdk::seqreshape;
    Location loc = op.getLoc();
    Value x = a.getX(), lengths = a.getLengths();
    // Any dtype: the values only move.
    if (failed(checkSequenceOperands(op, ValueRange{}, lengths)))
      return failure();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t width = xt.getDimSize(1), newDim = op.getNewDim();
    if (ShapedType::isDynamic(width))
      return op.emitOpError("needs X's row width known at compile time");
    auto type = cast<RankedTensorType>(op.getOut().getType());
    Value rows = r.createOrFold<arith::DivUIOp>(
        loc,
        r.createOrFold<arith::MulIOp>(loc, r.createOrFold<tensor::DimOp>(loc, x, 0),
                                      idx(r, loc, width)),
        idx(r, loc, newDim));
    Value out = reshapeTo(r, loc, x, type, {rows, idx(r, loc, newDim)});
    auto lenType = cast<RankedTensorType>(op.getOutLengths().getType());
    SmallVector<Value> dyn;
    if (lenType.isDynamicDim(0))
      dyn.push_back(r.createOrFold<tensor::DimOp>(loc, lengths, 0));
    Value init = tensor::EmptyOp::create(r, loc, lenType.getShape(), r.getI64Type(), dyn);
    SmallVector<int64_t> ints(sr::NumInts);
    ints[sr::Width] = width;
    ints[sr::NewDim] = newDim;
    auto k = KernelCallOp::create(r, loc, lenType, "pdk_sequence_reshape", ValueRange{lengths, x},
                                  init, r.getDenseI64ArrayAttr({sr::Lengths, sr::X}),
                                  r.getDenseI64ArrayAttr(ints), r.getDenseF32ArrayAttr({}));
    k->setAttr("pd.from", r.getStringAttr("sequence_reshape"));
    r.replaceOp(op, ValueRange{out, k.getResult()});
    return success();
  }
};

/// box_clip -> pdk_box_clip (each image's boxes against its ImInfo row).
struct BoxClipLowering : OpConversionPattern<BoxClipOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BoxClipOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    namespace bc = pdk::boxclip;
    Location loc = op.getLoc();
    Value x = a.getInput(), lengths = a.getLengths();
    if (failed(checkSequenceOperands(op, ValueRange{x, a.getImInfo()}, lengths)))
      return failure();
    auto type = cast<RankedTensorType>(op.getType());
    Value init = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(),
                                         dynSizesFrom(r, loc, x, type));
    auto k =
        KernelCallOp::create(r, loc, type, "pdk_box_clip", ValueRange{x, a.getImInfo(), lengths},
                             init, r.getDenseI64ArrayAttr({bc::Input, bc::ImInfo, bc::Lengths}),
                             r.getDenseI64ArrayAttr({}), r.getDenseF32ArrayAttr({}));
    k->setAttr("pd.from", r.getStringAttr("box_clip"));
    r.replaceOp(op, k.getResult());
    return success();
  }
};

/// crf_decoding -> pdk_crf_decoding (Viterbi per sequence), i64 [T, 1].
struct CrfDecodingLowering : OpConversionPattern<CrfDecodingOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(CrfDecodingOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getEmission(), lengths = a.getLengths();
    if (failed(checkSequenceOperands(op, ValueRange{x, a.getTransition()}, lengths)))
      return failure();
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value> dyn;
    if (type.isDynamicDim(0))
      dyn.push_back(r.createOrFold<tensor::DimOp>(loc, x, 0));
    Value init = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(), dyn);
    auto k = KernelCallOp::create(
        r, loc, type, "pdk_crf_decoding", ValueRange{x, a.getTransition(), lengths}, init,
        r.getDenseI64ArrayAttr({pdk::crf::Emission, pdk::crf::Transition, pdk::crf::Lengths}),
        r.getDenseI64ArrayAttr({}), r.getDenseF32ArrayAttr({}));
    k->setAttr("pd.from", r.getStringAttr("crf_decoding"));
    r.replaceOp(op, k.getResult());
    return success();
  }
};

/// viterbi_decode -> pdk_viterbi_decode twice: the scores (f32 [N]), then
/// the paths as i32 words whose first holds the data-dependent width.
struct ViterbiDecodeLowering : OpConversionPattern<ViterbiDecodeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ViterbiDecodeOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    namespace vd = pdk::viterbi;
    Location loc = op.getLoc();
    Value x = a.getInput();
    if (failed(checkSequenceOperands(op, ValueRange{x, a.getTransition()}, a.getLength())))
      return failure();
    SmallVector<Value, 3> ins{x, a.getTransition(), a.getLength()};
    Value n = r.createOrFold<tensor::DimOp>(loc, x, 0),
          steps = r.createOrFold<tensor::DimOp>(loc, x, 1);
    SmallVector<int64_t> ints(vd::NumInts);
    ints[vd::BosEos] = op.getIncludeBosEosTag();
    auto scoreType = cast<RankedTensorType>(op.getScores().getType());
    SmallVector<Value> dyn;
    if (scoreType.isDynamicDim(0))
      dyn.push_back(n);
    Value init = tensor::EmptyOp::create(r, loc, scoreType.getShape(), r.getF32Type(), dyn);
    auto scores =
        KernelCallOp::create(r, loc, scoreType, "pdk_viterbi_decode", ins, init,
                             r.getDenseI64ArrayAttr({vd::Input, vd::Transition, vd::Length}),
                             r.getDenseI64ArrayAttr(ints), r.getDenseF32ArrayAttr({}));
    scores->setAttr("pd.from", r.getStringAttr("viterbi_decode"));
    ints[vd::Index] = 1;
    Value words = r.createOrFold<arith::AddIOp>(loc, idx(r, loc, 1),
                                                r.createOrFold<arith::MulIOp>(loc, n, steps));
    Value sel = selectionCall(r, loc, "pdk_viterbi_decode", op, ins, words, ints, {});
    Value width = arith::IndexCastOp::create(
        r, loc, r.getIndexType(), tensor::ExtractOp::create(r, loc, sel, idx(r, loc, 0)));
    auto pathType = cast<RankedTensorType>(op.getPath().getType());
    SmallVector<Value> pathDyn;
    if (pathType.isDynamicDim(0))
      pathDyn.push_back(n);
    if (pathType.isDynamicDim(1))
      pathDyn.push_back(width);
    Value path = generateTensor(r, loc, pathType, pathDyn, [&](OpBuilder &b, Location l) -> Value {
      Value at = arith::AddIOp::create(
          b, l, idx(b, l, 1),
          arith::AddIOp::create(
              b, l, arith::MulIOp::create(b, l, linalg::IndexOp::create(b, l, 0), steps),
              linalg::IndexOp::create(b, l, 1)));
      return arith::ExtSIOp::create(b, l, b.getI64Type(), tensor::ExtractOp::create(b, l, sel, at));
    });
    r.replaceOp(op, ValueRange{scores.getResult(), path});
    return success();
  }
};
} // namespace

void mlir::pd::populatePdSequenceToLinalgPatterns(RewritePatternSet &p) {
  p.add<SequencePoolLowering, SequenceConvLowering, CrfDecodingLowering, ViterbiDecodeLowering,
        SequenceSoftmaxLowering, SequenceExpandLowering<SequenceExpandOp>,
        SequenceExpandLowering<SequenceExpandAsOp>, Im2sequenceLowering, LodResetLowering,
        SequenceReshapeLowering, BoxClipLowering>(p.getContext());
}

//===- Generate.cpp - pd ops that build tensors -> linalg/tensor ----------===//
//
// range, fill_constant, expand_v2, tile and shape, including their run-time forms
// (sizes read from a tensor operand, so the result shape may depend on data;
// such results are sized at run time and live on the heap).
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::lowering;

namespace {
/// Dynamic sizes of `type` from `sizes` (one index value per dim).
SmallVector<Value> dynamicOnly(RankedTensorType type, ArrayRef<Value> sizes) {
  SmallVector<Value> dyn;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      dyn.push_back(sizes[i]);
  return dyn;
}

/// range(start, end, step): max(ceil((end - start) / step), 0) elements.
struct RangeLowering : OpConversionPattern<RangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(RangeOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Type elem = type.getElementType();
    Value start = extractScalar(r, loc, a.getStart()), end = extractScalar(r, loc, a.getEnd()),
          step = extractScalar(r, loc, a.getStep());
    Value n;
    if (isa<FloatType>(elem)) {
      Value q = arith::DivFOp::create(r, loc, arith::SubFOp::create(r, loc, end, start), step);
      n = arith::FPToSIOp::create(r, loc, r.getI64Type(), math::CeilOp::create(r, loc, q));
      n = arith::IndexCastOp::create(r, loc, r.getIndexType(), n);
    } else {
      Value diff = arith::SubIOp::create(r, loc, end, start);
      n = arith::IndexCastOp::create(r, loc, r.getIndexType(),
                                     arith::CeilDivSIOp::create(r, loc, diff, step));
    }
    n = arith::MaxSIOp::create(r, loc, n, idx(r, loc, 0));
    SmallVector<Value> dyn;
    if (type.isDynamicDim(0))
      dyn.push_back(n);
    r.replaceOp(op, generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
                  Value i = linalg::IndexOp::create(b, l, 0);
                  Value iv = arith::IndexCastOp::create(b, l, b.getI64Type(), i);
                  if (isa<FloatType>(elem)) {
                    iv = arith::SIToFPOp::create(b, l, elem, iv);
                    return arith::AddFOp::create(b, l, start,
                                                 arith::MulFOp::create(b, l, iv, step));
                  }
                  if (elem.getIntOrFloatBitWidth() < 64)
                    iv = arith::TruncIOp::create(b, l, elem, iv);
                  return arith::AddIOp::create(b, l, start, arith::MulIOp::create(b, l, iv, step));
                }));
    return success();
  }
};

/// The values of a list of one-element integer tensors (0-D or [1]; Paddle's
/// lists of shape tensors) as indices.
SmallVector<Value> scalarElements(OpBuilder &b, Location loc, ValueRange list) {
  SmallVector<Value> out;
  for (Value t : list) {
    SmallVector<Value> at(cast<RankedTensorType>(t.getType()).getRank(), idx(b, loc, 0));
    Value v = tensor::ExtractOp::create(b, loc, t, at);
    out.push_back(arith::IndexCastOp::create(b, loc, b.getIndexType(), v));
  }
  return out;
}

/// fill_constant with a static shape, a run-time ShapeTensor or a list of
/// one-element shape tensors (ShapeTensorList, one per dim); the value
/// comes from ValueTensor, str_value (exact for large integers) or value.
struct FillConstantLowering : OpConversionPattern<FillConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(FillConstantOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value> sizes;
    if (!a.getShapeTensorList().empty())
      sizes = scalarElements(r, loc, a.getShapeTensorList());
    else if (a.getShapeTensor())
      sizes = indexElements(r, loc, a.getShapeTensor());
    else
      for (int64_t d : type.getShape())
        sizes.push_back(ShapedType::isDynamic(d) ? Value() : idx(r, loc, d));
    if (llvm::any_of(sizes, [](Value v) { return !v; }) || (int64_t)sizes.size() != type.getRank())
      return r.notifyMatchFailure(op, "the shape is not known");
    Value init = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(),
                                         dynamicOnly(type, sizes));
    Value v;
    if (a.getValueTensor()) {
      v = convertScalar(r, loc, extractScalar(r, loc, a.getValueTensor()), type.getElementType());
    } else {
      double value = op.getValue().convertToDouble();
      if (!op.getStrValue().empty() && StringRef(op.getStrValue()).getAsDouble(value))
        return r.notifyMatchFailure(op, "str_value is not a number");
      v = scalar(r, loc, type.getElementType(), value);
    }
    r.replaceOp(op, linalg::FillOp::create(r, loc, ValueRange{v}, ValueRange{init}).getResult(0));
    return success();
  }
};

/// assign_value: a constant from the value list of its dtype.
struct AssignValueLowering : OpConversionPattern<AssignValueOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AssignValueOp op, OpAdaptor,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.hasStaticShape())
      return r.notifyMatchFailure(op, "the shape is not static");
    Type elem = type.getElementType();
    DenseElementsAttr value;
    if (elem.isInteger(1)) {
      SmallVector<bool> v;
      for (int32_t x : op.getBoolValues())
        v.push_back(x != 0);
      value = DenseElementsAttr::get(type, ArrayRef<bool>(v));
    } else if (elem.isInteger(32)) {
      value = DenseElementsAttr::get(type, op.getInt32Values());
    } else if (elem.isInteger(64)) {
      value = DenseElementsAttr::get(type, op.getInt64Values());
    } else if (elem.isF32()) {
      value = DenseElementsAttr::get(type, op.getFp32Values());
    } else {
      return r.notifyMatchFailure(op, "unsupported dtype");
    }
    r.replaceOpWithNewOp<arith::ConstantOp>(op, type, value);
    return success();
  }
};

/// fill_constant_batch_size_like: `shape` with dim output_dim_idx read from
/// Input's dim input_dim_idx, filled with str_value (when set) or value.
struct FillConstantBatchSizeLikeLowering : OpConversionPattern<FillConstantBatchSizeLikeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(FillConstantBatchSizeLikeOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      if (!type.isDynamicDim(i))
        continue;
      if (i != op.getOutputDimIdx())
        return r.notifyMatchFailure(op, "only output_dim_idx may be dynamic");
      dyn.push_back(tensor::DimOp::create(r, loc, a.getInput(), op.getInputDimIdx()));
    }
    double value = op.getValue().convertToDouble();
    if (!op.getStrValue().empty() && StringRef(op.getStrValue()).getAsDouble(value))
      return r.notifyMatchFailure(op, "str_value is not a number");
    Value init = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(), dyn);
    Value v = scalar(r, loc, type.getElementType(), value);
    r.replaceOp(op, linalg::FillOp::create(r, loc, ValueRange{v}, ValueRange{init}).getResult(0));
    return success();
  }
};

/// expand_v2: broadcasts x (aligned to the trailing dims) to the target
/// shape; a -1, or (as in ONNX Expand) a 1 over a larger input dim, keeps
/// the input dim. Input dims that are dynamic are never broadcast.

struct ExpandV2Lowering : OpConversionPattern<ExpandV2Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ExpandV2Op op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t rank = type.getRank(), off = rank - xt.getRank();
    SmallVector<Value> target;
    if (!a.getExpandShapesTensor().empty())
      target = scalarElements(r, loc, a.getExpandShapesTensor());
    else if (a.getShapeInput())
      target = indexElements(r, loc, a.getShapeInput());
    else
      for (int32_t s : op.getShape())
        target.push_back(idx(r, loc, s));
    if ((int64_t)target.size() != rank || off < 0)
      return r.notifyMatchFailure(op, "the shape does not match the result rank");
    SmallVector<Value> sizes;
    for (int64_t i = 0; i < rank; ++i) {
      if (!type.isDynamicDim(i)) {
        sizes.push_back(idx(r, loc, type.getDimSize(i)));
        continue;
      }
      Value s = target[i];
      if (i >= off) {
        Value in = tensor::DimOp::create(r, loc, x, i - off);
        Value keep = arith::OrIOp::create(
            r, loc, arith::CmpIOp::create(r, loc, arith::CmpIPredicate::eq, s, idx(r, loc, -1)),
            arith::CmpIOp::create(r, loc, arith::CmpIPredicate::eq, s, idx(r, loc, 1)));
        s = arith::SelectOp::create(r, loc, keep, in, s);
      }
      sizes.push_back(s);
    }
    Value init = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(),
                                         dynamicOnly(type, sizes));
    SmallVector<AffineMap> maps = {broadcastMap(xt, type, off), r.getMultiDimIdentityMap(rank)};
    SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        r, loc, TypeRange{type}, ValueRange{x}, ValueRange{init}, maps, iters,
        [](OpBuilder &b, Location l, ValueRange args) { linalg::YieldOp::create(b, l, args[0]); });
    r.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// tile: out[i] = x[i mod dim(x)] with out dims = x dims * repeat_times
/// (x aligned to the trailing dims).
struct TileLowering : OpConversionPattern<TileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TileOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t rank = type.getRank(), off = rank - xt.getRank();
    SmallVector<Value> reps;
    if (!a.getRepeatTimesTensor().empty())
      reps = scalarElements(r, loc, a.getRepeatTimesTensor());
    else if (a.getRepeatTimesInput())
      reps = indexElements(r, loc, a.getRepeatTimesInput());
    else
      for (int32_t v : op.getRepeatTimes())
        reps.push_back(idx(r, loc, v));
    while ((int64_t)reps.size() < rank)
      reps.insert(reps.begin(), idx(r, loc, 1));
    if ((int64_t)reps.size() != rank || off < 0)
      return r.notifyMatchFailure(op, "repeat_times does not match the result rank");
    SmallVector<Value> sizes, inDims;
    for (int64_t i = 0; i < rank; ++i) {
      Value in = i >= off ? tensor::DimOp::create(r, loc, x, i - off).getResult() : idx(r, loc, 1);
      inDims.push_back(in);
      sizes.push_back(arith::MulIOp::create(r, loc, in, reps[i]));
    }
    r.replaceOp(op, generateTensor(r, loc, type, dynamicOnly(type, sizes),
                                   [&](OpBuilder &b, Location l) -> Value {
                                     SmallVector<Value> at;
                                     for (int64_t i = off; i < rank; ++i)
                                       at.push_back(arith::RemUIOp::create(
                                           b, l, linalg::IndexOp::create(b, l, i), inDims[i]));
                                     return tensor::ExtractOp::create(b, l, x, at);
                                   }));
    return success();
  }
};
/// shape: the dims of the input as a 1-D tensor of the result's integers.
struct ShapeLowering : OpConversionPattern<ShapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ShapeOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value> dims;
    for (OpFoldResult d : tensor::getMixedSizes(r, loc, a.getInput()))
      dims.push_back(arith::IndexCastOp::create(r, loc, type.getElementType(),
                                                getValueOrCreateConstantIndexOp(r, loc, d)));
    r.replaceOpWithNewOp<tensor::FromElementsOp>(op, type, dims);
    return success();
  }
};
} // namespace

void mlir::pd::populatePdGenerateToLinalgPatterns(RewritePatternSet &p) {
  p.add<RangeLowering, FillConstantLowering, ExpandV2Lowering, TileLowering, ShapeLowering,
        AssignValueLowering, FillConstantBatchSizeLikeLowering>(p.getContext());
}

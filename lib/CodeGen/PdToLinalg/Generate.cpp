//===- Generate.cpp - pd ops that build tensors -> linalg/tensor ----------===//
//
// range, fill_constant, uniform_random, expand_v2 / expand_as_v2, tile /
// expand, meshgrid, shape and the padding ops, including
// their run-time forms (sizes read from a tensor operand, so the result shape may depend on data;
// such results are sized at run time and live on the heap).
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

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

/// The sizes of a creation op's result (fill_constant, uniform_random):
/// from a list of one-element shape tensors (one per dim), a run-time
/// ShapeTensor, or the static result type; empty when not known.
SmallVector<Value> creationSizes(OpBuilder &b, Location loc, RankedTensorType type,
                                 Value shapeTensor, ValueRange shapeList) {
  SmallVector<Value> sizes;
  if (!shapeList.empty())
    sizes = scalarElements(b, loc, shapeList);
  else if (shapeTensor)
    sizes = indexElements(b, loc, shapeTensor);
  else
    for (int64_t d : type.getShape())
      sizes.push_back(ShapedType::isDynamic(d) ? Value() : idx(b, loc, d));
  if (llvm::any_of(sizes, [](Value v) { return !v; }) || (int64_t)sizes.size() != type.getRank())
    return {};
  return sizes;
}

/// The dynamic sizes of a *_batch_size_like result: only output_dim_idx may
/// be dynamic, taken from Input's dim input_dim_idx.
FailureOr<SmallVector<Value>> batchSizeLikeSizes(OpBuilder &b, Location loc, RankedTensorType type,
                                                 Value input, int64_t inIdx, int64_t outIdx) {
  SmallVector<Value> dyn;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (!type.isDynamicDim(i))
      continue;
    if (i != outIdx)
      return failure();
    dyn.push_back(tensor::DimOp::create(b, loc, input, inIdx));
  }
  return dyn;
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
    SmallVector<Value> sizes =
        creationSizes(r, loc, type, a.getShapeTensor(), a.getShapeTensorList());
    if (sizes.empty() && type.getRank() > 0)
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

/// uniform_random(_batch_size_like): element p (row-major) is min + (max -
/// min) * u, u in [0, 1) from the top 24 (f32) or 53 (f64) bits of
/// counterHash(seed * 0xD1B54A32D192ED03 + p): a pure function of the seed
/// and the position, the same on every run and for any thread count (Paddle
/// draws a fresh seed when seed is 0; here seed 0 is a seed like any other).
/// With diag_num > 0, positions k * (diag_step + 1), k < diag_num, hold
/// diag_val.
template <typename OpTy>
Value uniformRandom(OpBuilder &r, Location loc, OpTy op, RankedTensorType type, ValueRange dyn) {
  Type elem = type.getElementType();
  Type i64 = r.getI64Type();
  int64_t rank = type.getRank();
  uint64_t seed = static_cast<uint64_t>(static_cast<uint32_t>(op.getSeed()));
  double lo = op.getMin().convertToDouble(), hi = op.getMax().convertToDouble();
  int64_t diagNum = op.getDiagNum(), diagStep = op.getDiagStep();
  double diagVal = op.getDiagVal().convertToDouble();
  bool wide = elem.getIntOrFloatBitWidth() > 32;
  Value init = tensor::EmptyOp::create(r, loc, type.getShape(), elem, dyn);
  SmallVector<Value> dims;
  for (int64_t d = 0; d < rank; ++d)
    dims.push_back(r.createOrFold<tensor::DimOp>(loc, init, d));
  return generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
    auto c64 = [&](int64_t v) { return arith::ConstantIntOp::create(b, l, i64, v).getResult(); };
    Value linear = idx(b, l, 0);
    for (int64_t d = 0; d < rank; ++d)
      linear = arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, linear, dims[d]),
                                     linalg::IndexOp::create(b, l, d));
    Value p = arith::IndexCastUIOp::create(b, l, i64, linear);
    Value z = counterHash(
        b, l, arith::AddIOp::create(b, l, c64(int64_t(seed * 0xD1B54A32D192ED03ull)), p));
    int shift = wide ? 11 : 40;
    Value bits = arith::ShRUIOp::create(b, l, z, c64(shift));
    Value u = arith::MulFOp::create(b, l, arith::UIToFPOp::create(b, l, elem, bits),
                                    scalar(b, l, elem, std::ldexp(1.0, -(64 - shift))));
    Value v = arith::AddFOp::create(b, l, scalar(b, l, elem, lo),
                                    arith::MulFOp::create(b, l, scalar(b, l, elem, hi - lo), u));
    if (diagNum <= 0)
      return v;
    Value stride = c64(diagStep + 1);
    Value onDiag = arith::AndIOp::create(
        b, l,
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                              arith::RemUIOp::create(b, l, p, stride), c64(0)),
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult,
                              arith::DivUIOp::create(b, l, p, stride), c64(diagNum)));
    return arith::SelectOp::create(b, l, onDiag, scalar(b, l, elem, diagVal), v);
  });
}

struct UniformRandomLowering : OpConversionPattern<UniformRandomOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(UniformRandomOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value> sizes =
        creationSizes(r, op.getLoc(), type, a.getShapeTensor(), a.getShapeTensorList());
    if (sizes.empty() && type.getRank() > 0)
      return r.notifyMatchFailure(op, "the shape is not known");
    r.replaceOp(op, uniformRandom(r, op.getLoc(), op, type, dynamicOnly(type, sizes)));
    return success();
  }
};

struct UniformRandomBatchSizeLikeLowering : OpConversionPattern<UniformRandomBatchSizeLikeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(UniformRandomBatchSizeLikeOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    auto type = cast<RankedTensorType>(op.getType());
    FailureOr<SmallVector<Value>> dyn = batchSizeLikeSizes(
        r, op.getLoc(), type, a.getInput(), op.getInputDimIdx(), op.getOutputDimIdx());
    if (failed(dyn))
      return r.notifyMatchFailure(op, "only output_dim_idx may be dynamic");
    r.replaceOp(op, uniformRandom(r, op.getLoc(), op, type, *dyn));
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
    FailureOr<SmallVector<Value>> dyn =
        batchSizeLikeSizes(r, loc, type, a.getInput(), op.getInputDimIdx(), op.getOutputDimIdx());
    if (failed(dyn))
      return r.notifyMatchFailure(op, "only output_dim_idx may be dynamic");
    double value = op.getValue().convertToDouble();
    if (!op.getStrValue().empty() && StringRef(op.getStrValue()).getAsDouble(value))
      return r.notifyMatchFailure(op, "str_value is not a number");
    Value init = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(), *dyn);
    Value v = scalar(r, loc, type.getElementType(), value);
    r.replaceOp(op, linalg::FillOp::create(r, loc, ValueRange{v}, ValueRange{init}).getResult(0));
    return success();
  }
};

/// expand_v2: broadcasts x (aligned to the trailing dims) to the target
/// shape; a -1, or (as in ONNX Expand) a 1 over a larger input dim, keeps
/// the input dim. Input dims that are dynamic are never broadcast.

/// x broadcast to `type`, aligned to its trailing dims, the result dims
/// being `target` (index values): a -1, or a 1 over a larger input dim (as
/// in ONNX Expand), keeps the input dim.
Value broadcastTo(OpBuilder &r, Location loc, Value x, RankedTensorType type,
                  ArrayRef<Value> target) {
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank(), off = rank - xt.getRank();
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
  return linalg::GenericOp::create(r, loc, TypeRange{type}, ValueRange{x}, ValueRange{init}, maps,
                                   iters,
                                   [](OpBuilder &b, Location l, ValueRange args) {
                                     linalg::YieldOp::create(b, l, args[0]);
                                   })
      .getResult(0);
}

struct ExpandV2Lowering : OpConversionPattern<ExpandV2Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ExpandV2Op op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    auto xt = cast<RankedTensorType>(a.getX().getType());
    SmallVector<Value> target;
    if (!a.getExpandShapesTensor().empty())
      target = scalarElements(r, loc, a.getExpandShapesTensor());
    else if (a.getShapeInput())
      target = indexElements(r, loc, a.getShapeInput());
    else
      for (int32_t s : op.getShape())
        target.push_back(idx(r, loc, s));
    if ((int64_t)target.size() != type.getRank() || type.getRank() < xt.getRank())
      return r.notifyMatchFailure(op, "the shape does not match the result rank");
    r.replaceOp(op, broadcastTo(r, loc, a.getX(), type, target));
    return success();
  }
};

/// expand_as_v2: broadcast to Y's dims (read at run time), or to
/// target_shape without Y.
struct ExpandAsV2Lowering : OpConversionPattern<ExpandAsV2Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ExpandAsV2Op op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value> target;
    if (a.getY()) {
      for (int64_t i = 0; i < type.getRank(); ++i)
        target.push_back(tensor::DimOp::create(r, loc, a.getY(), i));
    } else {
      for (int32_t s : op.getTargetShape())
        target.push_back(idx(r, loc, s));
    }
    if ((int64_t)target.size() != type.getRank())
      return r.notifyMatchFailure(op, "the target does not match the result rank");
    r.replaceOp(op, broadcastTo(r, loc, a.getX(), type, target));
    return success();
  }
};

/// Fluid's expand_as: out[i] = x[i mod dim(x)], the result of
/// target_tensor's dims (tiling: each a multiple of x's, checked by the
/// shape function where both are static).
struct ExpandAsLowering : OpConversionPattern<ExpandAsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ExpandAsOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getX();
    SmallVector<Value> sizes, inDims;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      sizes.push_back(tensor::DimOp::create(r, loc, a.getTargetTensor(), i));
      inDims.push_back(tensor::DimOp::create(r, loc, x, i));
    }
    r.replaceOp(op, generateTensor(r, loc, type, dynamicOnly(type, sizes),
                                   [&](OpBuilder &b, Location l) -> Value {
                                     SmallVector<Value> at;
                                     for (int64_t i = 0; i < type.getRank(); ++i)
                                       at.push_back(arith::RemUIOp::create(
                                           b, l, linalg::IndexOp::create(b, l, i), inDims[i]));
                                     return tensor::ExtractOp::create(b, l, x, at);
                                   }));
    return success();
  }
};

/// meshgrid: result i (of rank n) repeats input i along dim i.
struct MeshgridLowering : OpConversionPattern<MeshgridOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MeshgridOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    SmallVector<Value> ins, sizes;
    for (Value v : a.getX()) {
      auto vt = cast<RankedTensorType>(v.getType());
      if (vt.getRank() == 0)
        v = tensor::ExpandShapeOp::create(r, loc, RankedTensorType::get({1}, vt.getElementType()),
                                          v, ArrayRef<ReassociationIndices>{});
      ins.push_back(v);
      sizes.push_back(tensor::DimOp::create(r, loc, v, 0));
    }
    int64_t n = ins.size();
    SmallVector<Value> results;
    for (int64_t i = 0; i < n; ++i) {
      auto type = cast<RankedTensorType>(op.getResult(i).getType());
      Value init = tensor::EmptyOp::create(r, loc, type.getShape(), type.getElementType(),
                                           dynamicOnly(type, sizes));
      SmallVector<AffineMap> maps = {AffineMap::get(n, 0, r.getAffineDimExpr(i)),
                                     r.getMultiDimIdentityMap(n)};
      SmallVector<utils::IteratorType> iters(n, utils::IteratorType::parallel);
      results.push_back(linalg::GenericOp::create(r, loc, TypeRange{type}, ValueRange{ins[i]},
                                                  ValueRange{init}, maps, iters,
                                                  [](OpBuilder &b, Location l, ValueRange args) {
                                                    linalg::YieldOp::create(b, l, args[0]);
                                                  })
                            .getResult(0));
    }
    r.replaceOp(op, results);
    return success();
  }
};

/// The repeat counts of tile and of Fluid's expand: the list of scalar
/// tensors, else the 1-D tensor, else the attribute.
SmallVector<Value> repeatCounts(OpBuilder &b, Location loc, TileOp op, TileOp::Adaptor a) {
  if (!a.getRepeatTimesTensor().empty())
    return scalarElements(b, loc, a.getRepeatTimesTensor());
  if (a.getRepeatTimesInput())
    return indexElements(b, loc, a.getRepeatTimesInput());
  SmallVector<Value> reps;
  for (int32_t v : op.getRepeatTimes())
    reps.push_back(idx(b, loc, v));
  return reps;
}
SmallVector<Value> repeatCounts(OpBuilder &b, Location loc, ExpandOp op, ExpandOp::Adaptor a) {
  if (!a.getExpandTimesTensor().empty())
    return scalarElements(b, loc, a.getExpandTimesTensor());
  if (a.getExpandTimesInput())
    return indexElements(b, loc, a.getExpandTimesInput());
  SmallVector<Value> reps;
  for (int32_t v : op.getExpandTimes())
    reps.push_back(idx(b, loc, v));
  return reps;
}

/// tile (and Fluid's expand): out[i] = x[i mod dim(x)] with out dims = x
/// dims * the repeat counts (x aligned to the trailing dims).
template <typename OpTy> struct TileLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value x = a.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t rank = type.getRank(), off = rank - xt.getRank();
    SmallVector<Value> reps = repeatCounts(r, loc, op, a);
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
/// x padded by lo[i] before and hi[i] after each dim i (index values, null
/// for no padding): "constant" fills `value`, "reflect" mirrors without
/// repeating the edge, "replicate" / "edge" repeats it, "circular" wraps
/// around. Every read is clamped into the input, so paddings larger than
/// the input (which Paddle rejects for reflect) never read out of bounds.
FailureOr<Value> padTensor(OpBuilder &b, Location loc, Value x, RankedTensorType type,
                           ArrayRef<Value> lo, ArrayRef<Value> hi, StringRef mode, double value) {
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t rank = xt.getRank();
  if (type.getRank() != rank || (int64_t)lo.size() != rank || (int64_t)hi.size() != rank)
    return failure();
  Type elem = xt.getElementType();
  if (mode == "constant") {
    SmallVector<OpFoldResult> low, high;
    for (int64_t i = 0; i < rank; ++i) {
      low.push_back(lo[i] ? getAsOpFoldResult(lo[i]) : b.getIndexAttr(0));
      high.push_back(hi[i] ? getAsOpFoldResult(hi[i]) : b.getIndexAttr(0));
    }
    Value padded = tensor::PadOp::create(b, loc, type, x, low, high, scalar(b, loc, elem, value));
    return padded;
  }
  if (mode != "reflect" && mode != "replicate" && mode != "edge" && mode != "circular")
    return failure();
  SmallVector<Value> in, sizes;
  for (int64_t i = 0; i < rank; ++i) {
    in.push_back(tensor::DimOp::create(b, loc, x, i));
    Value s = in.back();
    if (lo[i])
      s = arith::AddIOp::create(b, loc, s, lo[i]);
    if (hi[i])
      s = arith::AddIOp::create(b, loc, s, hi[i]);
    sizes.push_back(s);
  }
  return generateTensor(b, loc, type, dynamicOnly(type, sizes), [&](OpBuilder &nb, Location l) {
    Value zero = idx(nb, l, 0), one = idx(nb, l, 1);
    SmallVector<Value> at;
    for (int64_t i = 0; i < rank; ++i) {
      Value j = linalg::IndexOp::create(nb, l, i);
      if (!lo[i] && !hi[i]) {
        at.push_back(j);
        continue;
      }
      if (lo[i])
        j = arith::SubIOp::create(nb, l, j, lo[i]);
      Value n = in[i], last = arith::SubIOp::create(nb, l, n, one);
      if (mode == "reflect") {
        // -j before the start, 2 (n - 1) - j after the end.
        Value neg = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, j, zero);
        j = arith::SelectOp::create(nb, l, neg, arith::SubIOp::create(nb, l, zero, j), j);
        Value past = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sgt, j, last);
        Value mirrored = arith::SubIOp::create(nb, l, arith::AddIOp::create(nb, l, last, last), j);
        j = arith::SelectOp::create(nb, l, past, mirrored, j);
      } else if (mode == "circular") {
        Value m = arith::RemSIOp::create(nb, l, j, n);
        Value neg = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, m, zero);
        j = arith::SelectOp::create(nb, l, neg, arith::AddIOp::create(nb, l, m, n), m);
      }
      at.push_back(arith::MinSIOp::create(nb, l, arith::MaxSIOp::create(nb, l, j, zero), last));
    }
    return tensor::ExtractOp::create(nb, l, x, at).getResult();
  });
}

/// The paddings of a pad op as index values: from its tensor operand when
/// it has one (its static length must be `count`), else the attribute.
FailureOr<SmallVector<Value>> padAmounts(OpBuilder &b, Location loc, Value tensor,
                                         ArrayRef<int32_t> attr, size_t count) {
  SmallVector<Value> v;
  if (tensor) {
    v = indexElements(b, loc, tensor);
  } else {
    for (int32_t p : attr)
      v.push_back(idx(b, loc, p));
  }
  if (v.size() != count)
    return failure();
  return v;
}

/// The dim padding pair i pads: pad3d lists [left, right, top, bottom,
/// front, back] for W, H and D of NCDHW / NDHWC; Fluid's pad2d [top, bottom,
/// left, right] for H and W of NCHW / NHWC ("edge" repeats the border).
int64_t paddedDim(Pad3dOp op, int64_t i) { return (op.getDataFormat() == "NDHWC" ? 3 : 4) - i; }
int64_t paddedDim(Pad2dOp op, int64_t i) { return (op.getDataFormat() == "NHWC" ? 1 : 2) + i; }
double padValue(Pad3dOp op) { return op.getValue().convertToDouble(); }
double padValue(Pad2dOp op) { return op.getPadValue().convertToDouble(); }

template <typename OpTy> struct SpatialPadLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t rank = type.getRank(), pairs = rank - 2;
    auto p = padAmounts(r, loc, a.getPaddingsInput(), op.getPaddings(), 2 * pairs);
    if (failed(p))
      return r.notifyMatchFailure(op, "Paddings must hold 2 values per spatial dim");
    SmallVector<Value> lo(rank), hi(rank);
    for (int64_t i = 0; i < pairs; ++i) {
      lo[paddedDim(op, i)] = (*p)[2 * i];
      hi[paddedDim(op, i)] = (*p)[2 * i + 1];
    }
    auto y = padTensor(r, loc, a.getX(), type, lo, hi, op.getMode(), padValue(op));
    if (failed(y))
      return r.notifyMatchFailure(op, "unsupported padding mode");
    r.replaceOp(op, *y);
    return success();
  }
};

/// Fluid's pad: constant padding of every dim.
struct PadLowering : OpConversionPattern<PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PadOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    ArrayRef<int32_t> p = op.getPaddings();
    if ((int64_t)p.size() != 2 * type.getRank())
      return r.notifyMatchFailure(op, "paddings does not match the rank");
    SmallVector<Value> lo, hi;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      lo.push_back(idx(r, loc, p[2 * i]));
      hi.push_back(idx(r, loc, p[2 * i + 1]));
    }
    auto y =
        padTensor(r, loc, a.getX(), type, lo, hi, "constant", op.getPadValue().convertToDouble());
    if (failed(y))
      return failure();
    r.replaceOp(op, *y);
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
  p.add<RangeLowering, FillConstantLowering, ExpandV2Lowering, TileLowering<TileOp>,
        TileLowering<ExpandOp>, ExpandAsLowering, ExpandAsV2Lowering, MeshgridLowering, PadLowering,
        SpatialPadLowering<Pad2dOp>, ShapeLowering, AssignValueLowering,
        FillConstantBatchSizeLikeLowering, SpatialPadLowering<Pad3dOp>>(p.getContext());
  p.add<UniformRandomLowering, UniformRandomBatchSizeLikeLowering>(p.getContext());
}

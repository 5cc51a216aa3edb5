//===- MatMul.cpp - pd mul / matmul / matmul_v2 -> linalg.generic --------===//
//
// One batched contraction with numpy broadcasting of the batch dims and the
// transposes folded into the indexing maps.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/Einsum.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::lowering;

namespace {
FailureOr<Value> contraction(OpBuilder &b, Location loc, Value x, Value y, bool tx, bool ty,
                             RankedTensorType outType) {
  auto xt = cast<RankedTensorType>(x.getType()), yt = cast<RankedTensorType>(y.getType());
  int64_t rx = xt.getRank(), ry = yt.getRank(), R = outType.getRank();
  if (rx < 2 || ry < 2 || R < 2)
    return failure();
  MLIRContext *ctx = b.getContext();
  int64_t nb = R - 2;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  // Loop order: batch..., m, then (k, n) so the innermost loop walks rows of
  // Y and of the output contiguously; when Y is transposed, (n, k) so both
  // operands are read along k.
  int64_t kDim = ty ? R : R - 1, nDim = ty ? R - 1 : R;
  auto operandMap = [&](RankedTensorType t, bool trans, bool isX) {
    SmallVector<AffineExpr> e;
    int64_t bt = t.getRank() - 2;
    for (int64_t j = 0; j < bt; ++j) {
      int64_t i = nb - bt + j;
      bool bcast = t.getDimSize(j) == 1 && outType.getDimSize(i) != 1;
      e.push_back(bcast ? getAffineConstantExpr(0, ctx) : d(i));
    }
    AffineExpr outer = isX ? d(R - 2) : d(nDim), k = d(kDim);
    if (isX)
      trans ? (e.push_back(k), e.push_back(outer)) : (e.push_back(outer), e.push_back(k));
    else
      trans ? (e.push_back(outer), e.push_back(k)) : (e.push_back(k), e.push_back(outer));
    return AffineMap::get(R + 1, 0, e, ctx);
  };
  SmallVector<Value> dyn;
  for (int64_t i = 0; i < R; ++i) {
    if (!outType.isDynamicDim(i))
      continue;
    Value found;
    if (i < nb) {
      for (auto [v, t] : {std::pair<Value, RankedTensorType>{x, xt}, {y, yt}}) {
        int64_t j = i - (nb - (t.getRank() - 2));
        if (!found && j >= 0 && t.isDynamicDim(j))
          found = tensor::DimOp::create(b, loc, v, j);
      }
    } else if (i == R - 2) {
      found = tensor::DimOp::create(b, loc, x, tx ? rx - 1 : rx - 2);
    } else {
      found = tensor::DimOp::create(b, loc, y, ty ? ry - 2 : ry - 1);
    }
    if (!found)
      return failure();
    dyn.push_back(found);
  }
  Value init = filled(b, loc, outType, dyn, 0.0);
  SmallVector<AffineExpr> outExprs;
  for (int64_t i = 0; i < R - 1; ++i)
    outExprs.push_back(d(i));
  outExprs.push_back(d(nDim));
  SmallVector<AffineMap> maps = {operandMap(xt, tx, true), operandMap(yt, ty, false),
                                 AffineMap::get(R + 1, 0, outExprs, ctx)};
  SmallVector<utils::IteratorType> iters(R + 1, utils::IteratorType::parallel);
  iters[kDim] = utils::IteratorType::reduction;
  return linalg::GenericOp::create(
             b, loc, TypeRange{outType}, ValueRange{x, y}, ValueRange{init}, maps, iters,
             [](OpBuilder &nb2, Location l, ValueRange a) {
               Value m = arith::MulFOp::create(nb2, l, a[0], a[1]);
               linalg::YieldOp::create(nb2, l, ValueRange{arith::AddFOp::create(nb2, l, a[2], m)});
             })
      .getResult(0);
}

/// Collapses dims [0, n) and [n, rank) of a tensor into a matrix.
Value toMatrix(OpBuilder &b, Location loc, Value v, int64_t n) {
  auto t = cast<RankedTensorType>(v.getType());
  if (t.getRank() == 2 && n == 1)
    return v;
  ReassociationIndices lead, tail;
  for (int64_t i = 0; i < t.getRank(); ++i)
    (i < n ? lead : tail).push_back(i);
  auto prod = [&](ArrayRef<int64_t> dims) {
    int64_t p = 1;
    for (int64_t i : dims) {
      if (t.isDynamicDim(i))
        return ShapedType::kDynamic;
      p *= t.getDimSize(i);
    }
    return p;
  };
  auto mt = RankedTensorType::get({prod(lead), prod(tail)}, t.getElementType());
  return tensor::CollapseShapeOp::create(b, loc, mt, v, ArrayRef<ReassociationIndices>{lead, tail});
}

struct MulLowering : OpConversionPattern<MulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MulOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto outType = cast<RankedTensorType>(op.getType());
    Value x = toMatrix(r, loc, a.getX(), op.getXNumColDims());
    Value y = toMatrix(r, loc, a.getY(), op.getYNumColDims());
    auto xt = cast<RankedTensorType>(x.getType()), yt = cast<RankedTensorType>(y.getType());
    auto mt = RankedTensorType::get({xt.getDimSize(0), yt.getDimSize(1)}, outType.getElementType());
    auto m = contraction(r, loc, x, y, false, false, mt);
    if (failed(m))
      return r.notifyMatchFailure(op, "unsupported mul shapes");
    Value out = *m;
    if (mt != outType) {
      int64_t xn = op.getXNumColDims();
      ReassociationIndices lead, tail;
      for (int64_t i = 0; i < outType.getRank(); ++i)
        (i < xn ? lead : tail).push_back(i);
      out = tensor::ExpandShapeOp::create(r, loc, outType, out,
                                          ArrayRef<ReassociationIndices>{lead, tail});
    }
    r.replaceOp(op, out);
    return success();
  }
};

template <typename OpTy>
LogicalResult lowerMatmul(OpTy op, Value x, Value y, bool tx, bool ty, double alpha,
                          ConversionPatternRewriter &r) {
  Location loc = op.getLoc();
  auto outType = cast<RankedTensorType>(op.getType());
  // A vector operand (NumPy's rule, transposes ignored): X [K] is [1, K],
  // Y [K] is [K, 1], and that unit dim is dropped from the product.
  auto xt = cast<RankedTensorType>(x.getType()), yt = cast<RankedTensorType>(y.getType());
  bool xVec = xt.getRank() == 1, yVec = yt.getRank() == 1;
  auto asMatrix = [&](Value v, bool row) {
    auto t = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape =
        row ? SmallVector<int64_t>{1, t.getDimSize(0)} : SmallVector<int64_t>{t.getDimSize(0), 1};
    return tensor::ExpandShapeOp::create(r, loc, RankedTensorType::get(shape, t.getElementType()),
                                         v, ArrayRef<ReassociationIndices>{{0, 1}})
        .getResult();
  };
  RankedTensorType productType = outType;
  if (xVec || yVec) {
    SmallVector<int64_t> shape(outType.getShape());
    if (xVec && yVec)
      shape = {1, 1};
    else if (xVec)
      shape.insert(shape.end() - 1, 1);
    else
      shape.push_back(1);
    productType = RankedTensorType::get(shape, outType.getElementType());
    if (xVec) {
      x = asMatrix(x, /*row=*/true);
      tx = false;
    }
    if (yVec) {
      y = asMatrix(y, /*row=*/false);
      ty = false;
    }
  }
  auto m = contraction(r, loc, x, y, tx, ty, productType);
  if (failed(m))
    return r.notifyMatchFailure(op, "matmul operands of these ranks are not supported");
  Value out = *m;
  if (productType != outType) {
    // Merge the unit dim into its neighbour (both vectors: drop both).
    int64_t rank = productType.getRank();
    SmallVector<ReassociationIndices> groups;
    if (outType.getRank() > 0) {
      for (int64_t i = 0; i < rank - 2; ++i)
        groups.push_back({i});
      groups.push_back({rank - 2, rank - 1});
    }
    out = tensor::CollapseShapeOp::create(r, loc, outType, out, groups);
  }
  if (alpha != 1.0)
    out = *elementwise(r, loc, outType, ValueRange{out}, {0},
                       [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                         return arith::MulFOp::create(
                             b, l, v[0], scalar(b, l, outType.getElementType(), alpha));
                       });
  r.replaceOp(op, out);
  return success();
}

/// fc: flatten Input at in_num_col_dims, multiply by W, add Bias, activate.
struct FcLowering : OpConversionPattern<FcOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(FcOp op, OpAdaptor a, ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    StringRef act = op.getActivationType();
    auto outType = cast<RankedTensorType>(op.getType());
    int64_t n = op.getInNumColDims();
    int64_t inRank = cast<RankedTensorType>(a.getInput().getType()).getRank();
    // Contract the last dim directly (no reshapes) when in_num_col_dims is
    // rank - 1; otherwise flatten to a matrix, which needs a 2-D result.
    Value x = a.getInput();
    if (n != inRank - 1) {
      if (outType.getRank() != 2)
        return r.notifyMatchFailure(op,
                                    "fc with in_num_col_dims < rank - 1 and a result of rank > 2");
      x = toMatrix(r, loc, x, n);
    }
    auto m = contraction(r, loc, x, a.getW(), false, false, outType);
    if (failed(m))
      return failure();
    SmallVector<Value> ins = {*m};
    SmallVector<int64_t> offs = {0};
    if (a.getBias()) {
      Value bias = a.getBias();
      auto bt = cast<RankedTensorType>(bias.getType());
      if (bt.getRank() == 2) // [1, N] -> [N]
        bias = tensor::CollapseShapeOp::create(
            r, loc, RankedTensorType::get({bt.getDimSize(1)}, bt.getElementType()), bias,
            ArrayRef<ReassociationIndices>{{0, 1}});
      ins.push_back(bias);
      offs.push_back(outType.getRank() - 1);
    }
    bool hasBias = bool(a.getBias());
    auto y = elementwise(
        r, loc, outType, ins, offs, [&](OpBuilder &b, Location l, ValueRange v) -> Value {
          Value x = hasBias ? arith::AddFOp::create(b, l, v[0], v[1]).getResult() : v[0];
          // fc has no alpha attribute: leaky_relu uses Paddle's default 0.02.
          return applyActivation(b, l, x, act, act == "leaky_relu" ? 0.02 : 0.0);
        });
    if (failed(y))
      return failure();
    r.replaceOp(op, *y);
    return success();
  }
};

struct MatmulV2Lowering : OpConversionPattern<MatmulV2Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MatmulV2Op op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    return lowerMatmul(op, a.getX(), a.getY(), op.getTransX(), op.getTransY(), 1.0, r);
  }
};
struct MatmulLowering : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MatmulOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    return lowerMatmul(op, a.getX(), a.getY(), op.getTranspose_X(), op.getTranspose_Y(),
                       op.getAlpha().convertToDouble(), r);
  }
};
/// einsum: one linalg.generic over the equation's loops (result dims
/// parallel, summed letters reductions) accumulating the operands' product.
struct EinsumLowering : OpConversionPattern<EinsumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(EinsumOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<RankedTensorType> types;
    for (Value v : a.getOperands())
      types.push_back(cast<RankedTensorType>(v.getType()));
    std::string error;
    auto spec = parseEinsum(op.getEquation(), types, error);
    if (!spec)
      return r.notifyMatchFailure(op, error);
    MLIRContext *ctx = r.getContext();
    SmallVector<AffineMap> maps;
    for (const auto &loops : spec->operandLoops) {
      SmallVector<AffineExpr> e;
      for (int64_t l : loops)
        e.push_back(l < 0 ? getAffineConstantExpr(0, ctx) : getAffineDimExpr(l, ctx));
      maps.push_back(AffineMap::get(spec->numLoops, 0, e, ctx));
    }
    SmallVector<Value> dyn;
    for (auto [k, l] : llvm::enumerate(spec->operandLoops.back()))
      if (type.isDynamicDim(k)) {
        auto [operand, dim] = spec->loopSource[l];
        dyn.push_back(tensor::DimOp::create(r, loc, a.getOperands()[operand], dim));
      }
    Value init = filled(r, loc, type, dyn, 0.0);
    SmallVector<utils::IteratorType> iters(spec->numLoops, utils::IteratorType::reduction);
    for (int64_t l = 0; l < spec->numParallel; ++l)
      iters[l] = utils::IteratorType::parallel;
    auto generic = linalg::GenericOp::create(
        r, loc, TypeRange{type}, a.getOperands(), ValueRange{init}, maps, iters,
        [&](OpBuilder &b, Location l, ValueRange args) {
          bool isFloat = isa<FloatType>(args[0].getType());
          Value p = args[0];
          for (Value v : args.drop_front().drop_back())
            p = isFloat ? arith::MulFOp::create(b, l, p, v).getResult()
                        : arith::MulIOp::create(b, l, p, v).getResult();
          Value acc = args.back();
          linalg::YieldOp::create(b, l,
                                  isFloat ? arith::AddFOp::create(b, l, acc, p).getResult()
                                          : arith::AddIOp::create(b, l, acc, p).getResult());
        });
    r.replaceOp(op, generic.getResult(0));
    return success();
  }
};
} // namespace

void mlir::pd::populatePdMatMulToLinalgPatterns(RewritePatternSet &p) {
  p.add<MulLowering, MatmulV2Lowering, MatmulLowering, FcLowering, EinsumLowering>(p.getContext());
}

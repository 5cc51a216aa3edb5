//===- Sampling.cpp - pd grid_sampler, deformable_conv -> linalg ----------===//
//
// grid_sampler(X [N, C, H, W], Grid [N, Ho, Wo, 2]) -> [N, C, Ho, Wo], with
// Paddle's rules (the x coordinate is Grid[..., 0] and runs along W):
//   unnormalize  align_corners: (g + 1) / 2 * (size - 1)
//                otherwise:     ((g + 1) * size - 1) / 2
//   padding      zeros: samples outside the image read 0; border: the
//                coordinate is clipped to [0, size - 1]; reflection: it is
//                reflected about [0, size - 1] (align_corners) or
//                [-0.5, size - 0.5], then clipped
//   mode         bilinear: the four neighbours weighted by distance;
//                nearest: the neighbour at round(coordinate), half away
//                from zero
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::lowering;

namespace {
struct GridSamplerLowering : OpConversionPattern<GridSamplerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(GridSamplerOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX(), grid = a.getGrid();
    auto type = cast<RankedTensorType>(op.getType());
    Type et = type.getElementType();
    bool align = op.getAlignCorners();
    StringRef padding = op.getPaddingMode();
    bool nearest = op.getMode() == "nearest";
    // Result dims: N and (Ho, Wo) from Grid dims 0, 1, 2; C from X dim 1.
    const int64_t gridDim[4] = {0, -1, 1, 2};
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < 4; ++i)
      if (type.isDynamicDim(i))
        dyn.push_back(i == 1 ? tensor::DimOp::create(r, loc, x, 1).getResult()
                             : tensor::DimOp::create(r, loc, grid, gridDim[i]).getResult());
    Value hIdx = tensor::DimOp::create(r, loc, x, 2), wIdx = tensor::DimOp::create(r, loc, x, 3);
    auto toF = [&](OpBuilder &b, Location l, Value i) -> Value {
      return arith::SIToFPOp::create(b, l, et, arith::IndexCastOp::create(b, l, b.getI64Type(), i));
    };
    Value y = generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
      auto c = [&](double v) { return scalar(b, l, et, v); };
      auto add = [&](Value p, Value q) { return arith::AddFOp::create(b, l, p, q).getResult(); };
      auto sub = [&](Value p, Value q) { return arith::SubFOp::create(b, l, p, q).getResult(); };
      auto mul = [&](Value p, Value q) { return arith::MulFOp::create(b, l, p, q).getResult(); };
      auto clip = [&](Value v, Value lo, Value hi) {
        return arith::MinimumFOp::create(b, l, arith::MaximumFOp::create(b, l, v, lo), hi)
            .getResult();
      };
      Value n = linalg::IndexOp::create(b, l, 0), ch = linalg::IndexOp::create(b, l, 1);
      Value i = linalg::IndexOp::create(b, l, 2), j = linalg::IndexOp::create(b, l, 3);
      Value zero = arith::ConstantIndexOp::create(b, l, 0);
      Value one = arith::ConstantIndexOp::create(b, l, 1);
      // The source coordinate along a dim of `size` for normalized g.
      auto source = [&](Value g, Value sizeIdx) -> Value {
        Value size = toF(b, l, sizeIdx);
        Value last = sub(size, c(1));
        Value v = align ? mul(mul(add(g, c(1)), c(0.5)), last)
                        : mul(sub(mul(add(g, c(1)), size), c(1)), c(0.5));
        if (padding == "border")
          return clip(v, c(0), last);
        if (padding == "reflection") {
          Value lo = align ? c(0) : c(-0.5);
          Value span = align ? last : size;
          Value d = math::AbsFOp::create(b, l, sub(v, lo));
          Value flips = math::FloorOp::create(b, l, arith::DivFOp::create(b, l, d, span));
          Value extra = sub(d, mul(flips, span));
          Value odd = arith::CmpFOp::create(
              b, l, arith::CmpFPredicate::ONE,
              sub(flips, mul(c(2), math::FloorOp::create(b, l, mul(flips, c(0.5))))), c(0));
          Value refl =
              arith::SelectOp::create(b, l, odd, add(sub(span, extra), lo), add(extra, lo));
          // A span of 0 (size 1 with align_corners) maps everything to 0.
          Value degenerate = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLE, span, c(0));
          refl = arith::SelectOp::create(b, l, degenerate, c(0), refl);
          return clip(refl, c(0), last);
        }
        return v;
      };
      Value gx = tensor::ExtractOp::create(b, l, grid, ValueRange{n, i, j, zero});
      Value gy = tensor::ExtractOp::create(b, l, grid, ValueRange{n, i, j, one});
      Value sx = source(gx, wIdx), sy = source(gy, hIdx);
      // x[n, ch, yi, xi], or 0 when (yi, xi) (float, integral) is outside.
      auto at = [&](Value yf, Value xf) -> Value {
        Value wLast = sub(toF(b, l, wIdx), c(1)), hLast = sub(toF(b, l, hIdx), c(1));
        auto ge = [&](Value p, Value q) {
          return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGE, p, q).getResult();
        };
        auto le = [&](Value p, Value q) {
          return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLE, p, q).getResult();
        };
        Value inside =
            arith::AndIOp::create(b, l, arith::AndIOp::create(b, l, ge(xf, c(0)), le(xf, wLast)),
                                  arith::AndIOp::create(b, l, ge(yf, c(0)), le(yf, hLast)));
        auto idxOf = [&](Value f, Value last) {
          Value cl = clip(f, c(0), last);
          return arith::IndexCastOp::create(b, l, b.getIndexType(),
                                            arith::FPToSIOp::create(b, l, b.getI64Type(), cl))
              .getResult();
        };
        Value v = tensor::ExtractOp::create(b, l, x,
                                            ValueRange{n, ch, idxOf(yf, hLast), idxOf(xf, wLast)});
        return arith::SelectOp::create(b, l, inside, v, c(0));
      };
      if (nearest)
        return at(math::RoundOp::create(b, l, sy), math::RoundOp::create(b, l, sx));
      Value x0 = math::FloorOp::create(b, l, sx), y0 = math::FloorOp::create(b, l, sy);
      Value x1 = add(x0, c(1)), y1 = add(y0, c(1));
      Value wx1 = sub(sx, x0), wx0 = sub(x1, sx), wy1 = sub(sy, y0), wy0 = sub(y1, sy);
      Value top = add(mul(at(y0, x0), wx0), mul(at(y0, x1), wx1));
      Value bottom = add(mul(at(y1, x0), wx0), mul(at(y1, x1), wx1));
      return add(mul(top, wy0), mul(bottom, wy1));
    });
    r.replaceOp(op, y);
    return success();
  }
};

/// deformable_conv (v2, with Mask) and deformable_conv_v1, NCHW, as
/// Paddle's im2col + GEMM:
///   cols[n, g, cg, i, j, oh, ow] = X sampled bilinearly at
///     (oh * sh - ph + i * dh + offset_h, ow * sw - pw + j * dw + offset_w)
///     in channel c = g * Cg + cg, times the mask (v2),
///   offset_h = Offset[n, dgi * 2KK + 2 (i KW + j), oh, ow], offset_w the
///   next channel, mask = Mask[n, dgi * KK + i KW + j, oh, ow], dgi = c /
///   (C / deformable_groups); a point outside (-1, H) x (-1, W) reads 0 and
///   each corner outside the image reads 0 (Paddle's DmcnIm2colBilinear);
///   Out[n, g Mg + mg, oh, ow] = sum over (cg, i, j) of
///     Filter[g Mg + mg, cg, i, j] * cols[n, g, cg, i, j, oh, ow].
template <typename OpTy> struct DeformableConvLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getInput(), offset = a.getOffset(), filter = a.getFilter(), mask;
    if constexpr (std::is_same_v<OpTy, DeformableConvOp>)
      mask = a.getMask();
    auto type = cast<RankedTensorType>(op.getType());
    auto ft = cast<RankedTensorType>(filter.getType());
    auto xt = cast<RankedTensorType>(x.getType());
    Type et = type.getElementType();
    if (!ft.hasStaticShape() || xt.isDynamicDim(1))
      return r.notifyMatchFailure(op, "the filter and the input channels must be static");
    int64_t groups = op.getGroups(), dgroups = op.getDeformableGroups();
    int64_t m = ft.getDimSize(0), cg = ft.getDimSize(1), kh = ft.getDimSize(2),
            kw = ft.getDimSize(3), mg = m / groups, c = xt.getDimSize(1), cpdg = c / dgroups;
    ArrayRef<int32_t> st = op.getStrides(), pad = op.getPaddings(), dil = op.getDilations();
    auto dim = [&](Value v, int64_t i) { return r.createOrFold<tensor::DimOp>(loc, v, i); };
    Value n = dim(x, 0), oh = dim(offset, 2), ow = dim(offset, 3);
    Value hIdx = dim(x, 2), wIdx = dim(x, 3);
    auto colsType = RankedTensorType::get(
        {type.getDimSize(0), groups, cg, kh, kw, type.getDimSize(2), type.getDimSize(3)}, et);
    SmallVector<Value> colsDyn;
    for (auto [i, v] :
         llvm::enumerate(SmallVector<Value>{n, Value(), Value(), Value(), Value(), oh, ow}))
      if (colsType.isDynamicDim(i))
        colsDyn.push_back(v);
    Value cols = generateTensor(r, loc, colsType, colsDyn, [&](OpBuilder &b, Location l) -> Value {
      auto cst = [&](double v) { return scalar(b, l, et, v); };
      auto ci = [&](int64_t v) { return idx(b, l, v); };
      auto add = [&](Value p, Value q) { return arith::AddFOp::create(b, l, p, q).getResult(); };
      auto sub = [&](Value p, Value q) { return arith::SubFOp::create(b, l, p, q).getResult(); };
      auto mul = [&](Value p, Value q) { return arith::MulFOp::create(b, l, p, q).getResult(); };
      auto iadd = [&](Value p, Value q) { return arith::AddIOp::create(b, l, p, q).getResult(); };
      auto imul = [&](Value p, int64_t q) {
        return arith::MulIOp::create(b, l, p, ci(q)).getResult();
      };
      auto toF = [&](Value i) -> Value {
        return arith::SIToFPOp::create(b, l, et,
                                       arith::IndexCastOp::create(b, l, b.getI64Type(), i));
      };
      auto cmp = [&](arith::CmpFPredicate p, Value u, Value v) {
        return arith::CmpFOp::create(b, l, p, u, v).getResult();
      };
      auto both = [&](Value p, Value q) { return arith::AndIOp::create(b, l, p, q).getResult(); };
      Value in = linalg::IndexOp::create(b, l, 0), g = linalg::IndexOp::create(b, l, 1);
      Value k = linalg::IndexOp::create(b, l, 2), i = linalg::IndexOp::create(b, l, 3);
      Value j = linalg::IndexOp::create(b, l, 4), y = linalg::IndexOp::create(b, l, 5);
      Value xo = linalg::IndexOp::create(b, l, 6);
      Value ch = iadd(imul(g, cg), k);
      Value dgi = arith::DivUIOp::create(b, l, ch, ci(cpdg));
      Value tap = iadd(imul(i, kw), j);
      Value offCh = iadd(imul(dgi, 2 * kh * kw), imul(tap, 2));
      Value offH = tensor::ExtractOp::create(b, l, offset, ValueRange{in, offCh, y, xo});
      Value offW =
          tensor::ExtractOp::create(b, l, offset, ValueRange{in, iadd(offCh, ci(1)), y, xo});
      // The sampling point (Paddle: h_in + i * dilation + offset).
      Value hIn = sub(toF(imul(y, st[0])), cst(pad[0]));
      Value wIn = sub(toF(imul(xo, st[1])), cst(pad[1]));
      Value hs = add(add(hIn, toF(imul(i, dil[0]))), offH);
      Value ws = add(add(wIn, toF(imul(j, dil[1]))), offW);
      Value hF = toF(hIdx), wF = toF(wIdx);
      Value inside = both(
          both(cmp(arith::CmpFPredicate::OGT, hs, cst(-1)),
               cmp(arith::CmpFPredicate::OGT, ws, cst(-1))),
          both(cmp(arith::CmpFPredicate::OLT, hs, hF), cmp(arith::CmpFPredicate::OLT, ws, wF)));
      Value hLow = math::FloorOp::create(b, l, hs), wLow = math::FloorOp::create(b, l, ws);
      Value hHigh = add(hLow, cst(1)), wHigh = add(wLow, cst(1));
      Value lh = sub(hs, hLow), lw = sub(ws, wLow);
      Value hh = sub(cst(1), lh), hw = sub(cst(1), lw);
      Value hLast = sub(hF, cst(1)), wLast = sub(wF, cst(1));
      // One corner: X[n, ch, yy, xx] where 0 <= yy <= H - 1 and 0 <= xx <=
      // W - 1, else 0 (indices clamped so the read stays in bounds).
      auto corner = [&](Value yy, Value xx) -> Value {
        Value ok = both(both(cmp(arith::CmpFPredicate::OGE, yy, cst(0)),
                             cmp(arith::CmpFPredicate::OLE, yy, hLast)),
                        both(cmp(arith::CmpFPredicate::OGE, xx, cst(0)),
                             cmp(arith::CmpFPredicate::OLE, xx, wLast)));
        auto index = [&](Value f, Value last) -> Value {
          Value cl =
              arith::MinimumFOp::create(b, l, arith::MaximumFOp::create(b, l, f, cst(0)), last);
          return arith::IndexCastOp::create(b, l, b.getIndexType(),
                                            arith::FPToSIOp::create(b, l, b.getI64Type(), cl));
        };
        Value v = tensor::ExtractOp::create(b, l, x,
                                            ValueRange{in, ch, index(yy, hLast), index(xx, wLast)});
        return arith::SelectOp::create(b, l, ok, v, cst(0));
      };
      Value val =
          add(add(add(mul(mul(hh, hw), corner(hLow, wLow)), mul(mul(hh, lw), corner(hLow, wHigh))),
                  mul(mul(lh, hw), corner(hHigh, wLow))),
              mul(mul(lh, lw), corner(hHigh, wHigh)));
      val = arith::SelectOp::create(b, l, inside, val, cst(0));
      if (mask) {
        Value maskCh = iadd(imul(dgi, kh * kw), tap);
        val = mul(val, tensor::ExtractOp::create(b, l, mask, ValueRange{in, maskCh, y, xo}));
      }
      return val;
    });
    // The contraction over (cg, i, j), per group: Out as [N, G, Mg, OH, OW].
    Value w = tensor::ExpandShapeOp::create(
        r, loc, RankedTensorType::get({groups, mg, cg, kh, kw}, et), filter,
        SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
    auto outType = RankedTensorType::get(
        {type.getDimSize(0), groups, mg, type.getDimSize(2), type.getDimSize(3)}, et);
    SmallVector<Value> outDyn;
    for (auto [i, v] : llvm::enumerate(SmallVector<Value>{n, Value(), Value(), oh, ow}))
      if (outType.isDynamicDim(i))
        outDyn.push_back(v);
    Value init = filled(r, loc, outType, outDyn, 0.0);
    MLIRContext *ctx = r.getContext();
    auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    // Loops: n, g, mg, oh, ow (parallel), cg, i, j (reduction).
    SmallVector<AffineMap> maps = {
        AffineMap::get(8, 0, {d(0), d(1), d(5), d(6), d(7), d(3), d(4)}, ctx),
        AffineMap::get(8, 0, {d(1), d(2), d(5), d(6), d(7)}, ctx),
        AffineMap::get(8, 0, {d(0), d(1), d(2), d(3), d(4)}, ctx)};
    SmallVector<utils::IteratorType> iters(5, utils::IteratorType::parallel);
    iters.append(3, utils::IteratorType::reduction);
    auto gen = linalg::GenericOp::create(
        r, loc, outType, ValueRange{cols, w}, ValueRange{init}, maps, iters,
        [&](OpBuilder &b, Location l, ValueRange v) {
          Value p = arith::MulFOp::create(b, l, v[0], v[1]);
          linalg::YieldOp::create(b, l, ValueRange{arith::AddFOp::create(b, l, v[2], p)});
        });
    Value out = tensor::CollapseShapeOp::create(
        r, loc, gen.getResult(0), SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    if (out.getType() != type)
      out = tensor::CastOp::create(r, loc, type, out);
    r.replaceOp(op, out);
    return success();
  }
};
} // namespace

void mlir::pd::populatePdSamplingToLinalgPatterns(RewritePatternSet &p) {
  p.add<GridSamplerLowering, DeformableConvLowering<DeformableConvOp>,
        DeformableConvLowering<DeformableConvV1Op>>(p.getContext());
}

//===- Sampling.cpp - pd grid_sampler -> linalg ---------------------------===//
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
} // namespace

void mlir::pd::populatePdSamplingToLinalgPatterns(RewritePatternSet &p) {
  p.add<GridSamplerLowering>(p.getContext());
}

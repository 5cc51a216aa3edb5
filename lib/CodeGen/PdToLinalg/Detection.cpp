//===- Detection.cpp - pd detection heads -> linalg ------------------------===//
//
// prior_box, box_coder and yolo_box. Each is one output-only linalg.generic
// whose body reads its position with linalg.index and the inputs with
// tensor.extract, so every size may be dynamic and one artifact serves every
// image size. The arithmetic follows Paddle's CPU kernels term by term (the
// same operation order), so results agree to the last bits in most cases.
//
// multiclass_nms(2, 3) and matrix_nms, whose result size depends on the
// scores: the selection runs in the kernel library (pdk_multiclass_nms,
// pdk_matrix_nms) into a buffer
// bounded by the attributes and the input sizes; the results are gathered
// from it with the kept count as their (data-dependent) first dim.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Runtime/KernelABI.h"
#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::lowering;
namespace nms = pdk::nms;

namespace {
/// Dim `i` of `t` as a float of type `f`.
Value dimAsFloat(OpBuilder &b, Location loc, Value t, int64_t i, Type f) {
  Value d = tensor::DimOp::create(b, loc, t, i);
  Value n = arith::IndexCastOp::create(b, loc, b.getI64Type(), d);
  return arith::SIToFPOp::create(b, loc, f, n);
}

/// The value of `vals` at run-time position `i` (a select chain; the lists
/// here are a few entries long).
Value pick(OpBuilder &b, Location loc, Value i, ArrayRef<Value> vals) {
  Value out = vals.back();
  for (int64_t k = (int64_t)vals.size() - 2; k >= 0; --k) {
    Value is = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, i, idx(b, loc, k));
    out = arith::SelectOp::create(b, loc, is, vals[k], out);
  }
  return out;
}

SmallVector<Value> floatConsts(OpBuilder &b, Location loc, Type f, ArrayRef<double> vals) {
  SmallVector<Value> out;
  for (double v : vals)
    out.push_back(scalar(b, loc, f, v));
  return out;
}

/// prior_box: Boxes[h, w, p, k] is corner k (xmin, ymin, xmax, ymax) of
/// prior p centred at ((w + offset) * step_w, (h + offset) * step_h),
/// divided by the image width or height; the step is image / feature size
/// unless both step attributes are set. Variances repeat the attribute.
struct PriorBoxLowering : OpConversionPattern<PriorBoxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PriorBoxOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getBoxes().getType());
    Type f = type.getElementType();
    Value in = a.getInput(), img = a.getImage();
    // Boxes are [H, W, priors, 4] with the feature map's H and W.
    SmallVector<Value> dyn;
    for (int64_t i : {0, 1})
      if (type.isDynamicDim(i))
        dyn.push_back(tensor::DimOp::create(r, loc, in, i + 2));

    Value imgW = dimAsFloat(r, loc, img, 3, f), imgH = dimAsFloat(r, loc, img, 2, f);
    Value stepW, stepH;
    if (op.getStepW().convertToFloat() == 0.0f || op.getStepH().convertToFloat() == 0.0f) {
      stepW = arith::DivFOp::create(r, loc, imgW, dimAsFloat(r, loc, in, 3, f));
      stepH = arith::DivFOp::create(r, loc, imgH, dimAsFloat(r, loc, in, 2, f));
    } else {
      stepW = scalar(r, loc, f, op.getStepW().convertToFloat());
      stepH = scalar(r, loc, f, op.getStepH().convertToFloat());
    }
    SmallVector<double> halfW, halfH;
    for (auto [w, h] : priorBoxHalfSizes(op)) {
      halfW.push_back(w);
      halfH.push_back(h);
    }
    double offset = op.getOffset().convertToFloat();
    bool clip = op.getClip();
    Value boxes = generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
      auto asFloat = [&](Value i) {
        return arith::SIToFPOp::create(b, l, f,
                                       arith::IndexCastOp::create(b, l, b.getI64Type(), i));
      };
      Value h = linalg::IndexOp::create(b, l, 0), w = linalg::IndexOp::create(b, l, 1);
      Value p = linalg::IndexOp::create(b, l, 2), k = linalg::IndexOp::create(b, l, 3);
      Value off = scalar(b, l, f, offset);
      Value cx = arith::MulFOp::create(b, l, arith::AddFOp::create(b, l, asFloat(w), off), stepW);
      Value cy = arith::MulFOp::create(b, l, arith::AddFOp::create(b, l, asFloat(h), off), stepH);
      Value bw = pick(b, l, p, floatConsts(b, l, f, halfW));
      Value bh = pick(b, l, p, floatConsts(b, l, f, halfH));
      // k = 0..3: (cx - bw) / W, (cy - bh) / H, (cx + bw) / W, (cy + bh) / H.
      Value lo = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, k, idx(b, l, 2));
      Value isX =
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                arith::RemUIOp::create(b, l, k, idx(b, l, 2)), idx(b, l, 0));
      Value c = arith::SelectOp::create(b, l, isX, cx, cy);
      Value half = arith::SelectOp::create(b, l, isX, bw, bh);
      Value edge = arith::SelectOp::create(b, l, lo, arith::SubFOp::create(b, l, c, half),
                                           arith::AddFOp::create(b, l, c, half));
      Value v = arith::DivFOp::create(b, l, edge, arith::SelectOp::create(b, l, isX, imgW, imgH));
      if (clip)
        v = arith::MinimumFOp::create(
            b, l, arith::MaximumFOp::create(b, l, v, scalar(b, l, f, 0.0)), scalar(b, l, f, 1.0));
      return v;
    });
    SmallVector<double> var(op.getVariances().begin(), op.getVariances().end());
    Value vars = generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
      return pick(b, l, linalg::IndexOp::create(b, l, 3), floatConsts(b, l, f, var));
    });
    r.replaceOp(op, {boxes, vars});
    return success();
  }
};

/// box_coder: decode_center_size turns offsets (dx, dy, dw, dh) relative to
/// a prior back into corners; encode_center_size is the inverse, for every
/// (target, prior) pair. Unnormalized boxes count both edge pixels (+1).
struct BoxCoderLowering : OpConversionPattern<BoxCoderOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BoxCoderOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Type f = type.getElementType();
    Value prior = a.getPriorBox(), var = a.getPriorBoxVar(), target = a.getTargetBox();
    bool decode = op.getCodeType() == "decode_center_size";
    bool axis0 = op.getAxis() == 0;
    double plus = op.getBoxNormalized() ? 0.0 : 1.0;
    SmallVector<double> attrVar(op.getVariance().begin(), op.getVariance().end());
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (type.isDynamicDim(i))
        dyn.push_back(decode
                          ? tensor::DimOp::create(r, loc, target, i).getResult()
                          : tensor::DimOp::create(r, loc, i == 0 ? target : prior, 0).getResult());
    Value out = generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
      Value i = linalg::IndexOp::create(b, l, 0), j = linalg::IndexOp::create(b, l, 1);
      Value k = linalg::IndexOp::create(b, l, 2);
      Value pi = decode && !axis0 ? i : j;
      auto at = [&](Value t, ValueRange ix) { return tensor::ExtractOp::create(b, l, t, ix); };
      auto add = [&](Value x, Value y) { return arith::AddFOp::create(b, l, x, y); };
      auto sub = [&](Value x, Value y) { return arith::SubFOp::create(b, l, x, y); };
      auto mul = [&](Value x, Value y) { return arith::MulFOp::create(b, l, x, y); };
      auto div = [&](Value x, Value y) { return arith::DivFOp::create(b, l, x, y); };
      Value two = scalar(b, l, f, 2.0), one = scalar(b, l, f, plus);
      SmallVector<Value> p;
      for (int c = 0; c < 4; ++c)
        p.push_back(at(prior, {pi, idx(b, l, c)}));
      Value pw = add(sub(p[2], p[0]), one), ph = add(sub(p[3], p[1]), one);
      Value pcx = add(p[0], div(pw, two)), pcy = add(p[1], div(ph, two));
      SmallVector<Value> v;
      for (int c = 0; c < 4; ++c)
        v.push_back(var               ? at(var, {pi, idx(b, l, c)}).getResult()
                    : attrVar.empty() ? scalar(b, l, f, 1.0)
                                      : scalar(b, l, f, attrVar[c]));
      if (decode) {
        SmallVector<Value> t;
        for (int c = 0; c < 4; ++c)
          t.push_back(at(target, {i, j, idx(b, l, c)}));
        Value tcx = add(mul(mul(v[0], t[0]), pw), pcx);
        Value tcy = add(mul(mul(v[1], t[1]), ph), pcy);
        Value tw = mul(math::ExpOp::create(b, l, mul(v[2], t[2])), pw);
        Value th = mul(math::ExpOp::create(b, l, mul(v[3], t[3])), ph);
        return pick(b, l, k,
                    {sub(tcx, div(tw, two)), sub(tcy, div(th, two)),
                     sub(add(tcx, div(tw, two)), one), sub(add(tcy, div(th, two)), one)});
      }
      SmallVector<Value> t;
      for (int c = 0; c < 4; ++c)
        t.push_back(at(target, {i, idx(b, l, c)}));
      Value tcx = div(add(t[2], t[0]), two), tcy = div(add(t[3], t[1]), two);
      Value tw = add(sub(t[2], t[0]), one), th = add(sub(t[3], t[1]), one);
      SmallVector<Value> o{div(sub(tcx, pcx), pw), div(sub(tcy, pcy), ph),
                           math::LogOp::create(b, l, math::AbsFOp::create(b, l, div(tw, pw))),
                           math::LogOp::create(b, l, math::AbsFOp::create(b, l, div(th, ph)))};
      if (var || !attrVar.empty())
        for (int c = 0; c < 4; ++c)
          o[c] = div(o[c], v[c]);
      return pick(b, l, k, o);
    });
    r.replaceOp(op, out);
    return success();
  }
};

/// yolo_box: for anchor a at cell (h, w), with t = X[n, base + entry, h, w]
/// (base = a * (5 + classes), after the `an` IoU channels when iou_aware):
///   conf  = sigmoid(t4)   (iou_aware: conf^(1 - f) * sigmoid(iou)^f)
///   cx    = (w + sigmoid(t0) * s + bias) * img_w / W,   likewise cy
///   bw    = exp(t2) * anchor_w * img_w / (downsample * W), likewise bh
/// Boxes are the corners (clipped to the image when clip_bbox) and Scores
/// conf * sigmoid(class logit); both are 0 where conf < conf_thresh.
/// Results are laid out [N, an * H * W, ...] in (anchor, h, w) order.
struct YoloBoxLowering : OpConversionPattern<YoloBoxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(YoloBoxOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX(), size = a.getImgSize();
    auto xt = cast<RankedTensorType>(x.getType());
    Type f = xt.getElementType();
    auto anchors = op.getAnchors();
    int64_t an = anchors.size() / 2, classes = op.getClassNum();
    bool iouAware = op.getIouAware();
    float scale = op.getScaleXY().convertToFloat();
    float bias = -0.5f * (scale - 1.0f);
    float thresh = op.getConfThresh().convertToFloat();
    float factor = op.getIouAwareFactor().convertToFloat();
    int64_t ds = op.getDownsampleRatio();
    SmallVector<double> aw, ah;
    for (int64_t i = 0; i < an; ++i) {
      aw.push_back(anchors[2 * i]);
      ah.push_back(anchors[2 * i + 1]);
    }

    // Shared by both results: the position, the confidence and its mask.
    struct Cell {
      Value n, anchor, h, w, base, conf, keep, imgH, imgW;
    };
    auto entry = [&](OpBuilder &b, Location l, const Cell &c, int64_t e) -> Value {
      Value ch = arith::AddIOp::create(b, l, c.base, idx(b, l, e));
      return tensor::ExtractOp::create(b, l, x, ValueRange{c.n, ch, c.h, c.w});
    };
    auto cell = [&](OpBuilder &b, Location l) {
      Cell c;
      c.n = linalg::IndexOp::create(b, l, 0);
      c.anchor = linalg::IndexOp::create(b, l, 1);
      c.h = linalg::IndexOp::create(b, l, 2);
      c.w = linalg::IndexOp::create(b, l, 3);
      c.base = arith::MulIOp::create(b, l, c.anchor, idx(b, l, 5 + classes));
      if (iouAware)
        c.base = arith::AddIOp::create(b, l, c.base, idx(b, l, an));
      c.conf = sigmoid(b, l, entry(b, l, c, 4));
      if (iouAware) {
        Value iou =
            sigmoid(b, l, tensor::ExtractOp::create(b, l, x, ValueRange{c.n, c.anchor, c.h, c.w}));
        c.conf = arith::MulFOp::create(
            b, l, math::PowFOp::create(b, l, c.conf, scalar(b, l, f, 1.0f - factor)),
            math::PowFOp::create(b, l, iou, scalar(b, l, f, factor)));
      }
      // Paddle skips a cell when conf < thresh, so NaN confidences are kept.
      c.keep =
          arith::CmpFOp::create(b, l, arith::CmpFPredicate::UGE, c.conf, scalar(b, l, f, thresh));
      auto imgDim = [&](int64_t i) {
        Value v = tensor::ExtractOp::create(b, l, size, ValueRange{c.n, idx(b, l, i)});
        return convertScalar(b, l, v, f);
      };
      c.imgH = imgDim(0);
      c.imgW = imgDim(1);
      return c;
    };

    auto boxesType = cast<RankedTensorType>(op.getBoxes().getType());
    auto scoresType = cast<RankedTensorType>(op.getScores().getType());
    auto full = [&](int64_t last) {
      return RankedTensorType::get({xt.getDimSize(0), an, xt.getDimSize(2), xt.getDimSize(3), last},
                                   f);
    };
    SmallVector<Value> dyn;
    for (int64_t i : {0, 2, 3})
      if (xt.isDynamicDim(i))
        dyn.push_back(tensor::DimOp::create(r, loc, x, i));
    Value gridH = dimAsFloat(r, loc, x, 2, f), gridW = dimAsFloat(r, loc, x, 3, f);
    Value boxes = generateTensor(r, loc, full(4), dyn, [&](OpBuilder &b, Location l) -> Value {
      Cell c = cell(b, l);
      auto add = [&](Value p, Value q) { return arith::AddFOp::create(b, l, p, q); };
      auto mul = [&](Value p, Value q) { return arith::MulFOp::create(b, l, p, q); };
      auto div = [&](Value p, Value q) { return arith::DivFOp::create(b, l, p, q); };
      auto asFloat = [&](Value i) {
        return arith::SIToFPOp::create(b, l, f,
                                       arith::IndexCastOp::create(b, l, b.getI64Type(), i));
      };
      Value s = scalar(b, l, f, scale), bi = scalar(b, l, f, bias);
      Value cx = div(
          mul(add(add(asFloat(c.w), mul(sigmoid(b, l, entry(b, l, c, 0)), s)), bi), c.imgW), gridW);
      Value cy = div(
          mul(add(add(asFloat(c.h), mul(sigmoid(b, l, entry(b, l, c, 1)), s)), bi), c.imgH), gridH);
      Value dsf = scalar(b, l, f, (double)ds);
      Value bw = div(mul(mul(math::ExpOp::create(b, l, entry(b, l, c, 2)),
                             pick(b, l, c.anchor, floatConsts(b, l, f, aw))),
                         c.imgW),
                     mul(dsf, gridW));
      Value bh = div(mul(mul(math::ExpOp::create(b, l, entry(b, l, c, 3)),
                             pick(b, l, c.anchor, floatConsts(b, l, f, ah))),
                         c.imgH),
                     mul(dsf, gridH));
      Value two = scalar(b, l, f, 2.0);
      Value hw = div(bw, two), hh = div(bh, two);
      SmallVector<Value> e{arith::SubFOp::create(b, l, cx, hw), arith::SubFOp::create(b, l, cy, hh),
                           add(cx, hw), add(cy, hh)};
      if (op.getClipBbox()) {
        Value zero = scalar(b, l, f, 0.0), one = scalar(b, l, f, 1.0);
        auto above = [&](Value v) {
          Value gt = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, v, zero);
          return arith::SelectOp::create(b, l, gt, v, zero).getResult();
        };
        auto below = [&](Value v, Value lim) {
          lim = arith::SubFOp::create(b, l, lim, one);
          Value lt = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, v, lim);
          return arith::SelectOp::create(b, l, lt, v, lim).getResult();
        };
        e = {above(e[0]), above(e[1]), below(e[2], c.imgW), below(e[3], c.imgH)};
      }
      Value v = pick(b, l, linalg::IndexOp::create(b, l, 4), e);
      return arith::SelectOp::create(b, l, c.keep, v, scalar(b, l, f, 0.0));
    });
    Value scores =
        generateTensor(r, loc, full(classes), dyn, [&](OpBuilder &b, Location l) -> Value {
          Cell c = cell(b, l);
          Value cls = linalg::IndexOp::create(b, l, 4);
          Value ch =
              arith::AddIOp::create(b, l, arith::AddIOp::create(b, l, c.base, idx(b, l, 5)), cls);
          Value logit = tensor::ExtractOp::create(b, l, x, ValueRange{c.n, ch, c.h, c.w});
          Value v = arith::MulFOp::create(b, l, c.conf, sigmoid(b, l, logit));
          return arith::SelectOp::create(b, l, c.keep, v, scalar(b, l, f, 0.0));
        });
    SmallVector<ReassociationIndices> groups{{0}, {1, 2, 3}, {4}};
    r.replaceOp(op, {tensor::CollapseShapeOp::create(r, loc, boxesType, boxes, groups),
                     tensor::CollapseShapeOp::create(r, loc, scoresType, scores, groups)});
    return success();
  }
};

/// multiclass_nms, multiclass_nms2, multiclass_nms3 (`Version` 1, 2, 3) and
/// matrix_nms (kMatrix, results as multiclass_nms3's):
///   sel = pdk_multiclass_nms / pdk_matrix_nms(BBoxes, Scores)
///         i32 [1 + N + 4 * bound]
///   Out[k] = [label, score, BBoxes[n, m, :]]  for the k-th (n, label, m,
///            score) of sel, k < sel[0] (matrix NMS's score is decayed)
///   Index[k] = n * M + m,  NmsRoisNum[n] = sel[1 + n]
/// bound: N * min(keep_top_k, classes * min(nms_top_k, M)) (without the
/// limits that are -1), so the selection is planned like any buffer. Out of
/// multiclass_nms is [[-1]] when nothing is kept, as in Paddle.
/// multiclass_nms3's stacked form (Scores [M, C], BBoxes [M, C, 4], the
/// images' rows counted by RoisNum): the entry's box is the row r,
/// Out[k] = [label, score, BBoxes[r, label, :]], Index[k] = r * C + label.
/// NmsLowering's `Version` of matrix_nms (results as multiclass_nms3's).
constexpr int kMatrix = 4;

template <typename OpTy, int Version> struct NmsLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value boxes = a.getBBoxes(), scores = a.getScores();
    auto bt = cast<RankedTensorType>(boxes.getType());
    auto st = cast<RankedTensorType>(scores.getType());
    if (!bt.getElementType().isF32() || !st.getElementType().isF32()) {
      op.emitOpError("is computed in fp32 only, got ") << bt << " and " << st;
      return failure();
    }
    auto c = [&](int64_t v) { return idx(r, loc, v); };
    auto dim = [&](Value t, int64_t i) { return r.createOrFold<tensor::DimOp>(loc, t, i); };
    auto min = [&](Value x, Value y) { return r.createOrFold<arith::MinSIOp>(loc, x, y); };
    auto mul = [&](Value x, Value y) { return r.createOrFold<arith::MulIOp>(loc, x, y); };
    auto add = [&](Value x, Value y) { return r.createOrFold<arith::AddIOp>(loc, x, y); };
    // The stacked form (multiclass_nms3 with 2-D Scores [M, C], BBoxes
    // [M, C, 4] and RoisNum [N]): the selection's box field is the row.
    Value roisNum;
    if constexpr (Version == 3)
      roisNum = a.getRoisNum();
    bool stacked = st.getRank() == 2;
    if (stacked && !roisNum) {
      op.emitOpError("needs RoisNum with 2-D Scores");
      return failure();
    }
    Value n = stacked ? dim(roisNum, 0) : dim(scores, 0), classes = dim(scores, 1),
          m = stacked ? dim(scores, 0) : dim(scores, 2);
    int64_t bg = op.getBackgroundLabel(), nmsTopK = op.getNmsTopK(), keepTopK = op.getKeepTopK();
    // The background class (when it is one of the C) is never kept.
    Value isBg = r.createOrFold<arith::AndIOp>(
        loc, r.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, c(bg), c(0)),
        r.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, c(bg), classes));
    Value kept = r.createOrFold<arith::SubIOp>(
        loc, classes, r.createOrFold<arith::SelectOp>(loc, isBg, c(1), c(0)));
    Value bound;
    if (stacked) {
      // Each of the M rows at most once per kept class, and per image at most
      // nms_top_k per class and keep_top_k in all.
      bound = mul(kept, m);
      if (nmsTopK > -1)
        bound = min(bound, mul(n, mul(kept, c(nmsTopK))));
      if (keepTopK > -1)
        bound = min(bound, mul(n, c(keepTopK)));
    } else {
      Value perClass = nmsTopK > -1 ? min(c(nmsTopK), m) : m;
      Value perImage = mul(kept, perClass);
      if (keepTopK > -1)
        perImage = min(c(keepTopK), perImage);
      bound = mul(n, perImage);
    }
    Value capacity = r.createOrFold<arith::MaxSIOp>(loc, bound, c(1));
    Value words = add(add(c(1), n), mul(c(nms::EntryWords), capacity));
    Type i32 = r.getI32Type();
    SmallVector<int64_t> ints;
    SmallVector<float> floats;
    if constexpr (Version == kMatrix) {
      namespace mn = pdk::matrixnms;
      ints.resize(mn::NumInts);
      ints[mn::Background] = bg;
      ints[mn::NmsTopK] = nmsTopK;
      ints[mn::KeepTopK] = keepTopK;
      ints[mn::Normalized] = op.getNormalized();
      ints[mn::UseGaussian] = op.getUseGaussian();
      floats.resize(mn::NumFloats);
      floats[mn::ScoreThreshold] = op.getScoreThreshold().convertToFloat();
      floats[mn::PostThreshold] = op.getPostThreshold().convertToFloat();
      floats[mn::GaussianSigma] = op.getGaussianSigma().convertToFloat();
    } else {
      ints.resize(nms::NumInts);
      ints[nms::Background] = bg;
      ints[nms::NmsTopK] = nmsTopK;
      ints[nms::KeepTopK] = keepTopK;
      ints[nms::Normalized] = op.getNormalized();
      floats.resize(nms::NumFloats);
      floats[nms::ScoreThreshold] = op.getScoreThreshold().convertToFloat();
      floats[nms::NmsThreshold] = op.getNmsThreshold().convertToFloat();
      floats[nms::NmsEta] = op.getNmsEta().convertToFloat();
    }
    SmallVector<Value> ins{boxes, scores};
    SmallVector<int64_t> slots{0, 1, -1};
    if (stacked) {
      ins.push_back(roisNum);
      slots[nms::RoisNum] = 2;
    }
    Value sel = selectionCall(r, loc, Version == kMatrix ? "pdk_matrix_nms" : "pdk_multiclass_nms",
                              op, ins, words, ints, floats, slots);
    auto word = [&](OpBuilder &b, Location l, Value i) -> Value {
      return tensor::ExtractOp::create(b, l, sel, ValueRange{i});
    };
    auto selAt = [&](OpBuilder &b, Location l, Value i) -> Value {
      return arith::IndexCastOp::create(b, l, b.getIndexType(), word(b, l, i));
    };
    Value total = selAt(r, loc, c(0));
    // Entry `k`'s (image, label, box) as indices and its score.
    auto entry = [&](OpBuilder &b, Location l, Value k) {
      Value base =
          arith::AddIOp::create(b, l, arith::AddIOp::create(b, l, idx(b, l, 1), n),
                                arith::MulIOp::create(b, l, k, idx(b, l, nms::EntryWords)));
      auto at = [&](int64_t w) { return arith::AddIOp::create(b, l, base, idx(b, l, w)); };
      SmallVector<Value, 4> e;
      for (int64_t w = 0; w < 3; ++w)
        e.push_back(selAt(b, l, at(w)));
      e.push_back(arith::BitcastOp::create(b, l, b.getF32Type(), word(b, l, at(3))));
      return e;
    };
    // Out's element (k, j): label, score, then the box's coordinate j - 2.
    Type f = bt.getElementType();
    auto outValue = [&](OpBuilder &b, Location l, Value k, Value j) -> Value {
      SmallVector<Value, 4> e = entry(b, l, k);
      Value label = convertScalar(b, l, arith::IndexCastOp::create(b, l, b.getI64Type(), e[1]), f);
      Value score = e[3];
      Value two = idx(b, l, 2);
      Value isCoord = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, j, two);
      Value coordIdx =
          arith::SelectOp::create(b, l, isCoord, arith::SubIOp::create(b, l, j, two), idx(b, l, 0));
      Value coord = stacked
                        ? tensor::ExtractOp::create(b, l, boxes, ValueRange{e[2], e[1], coordIdx})
                        : tensor::ExtractOp::create(b, l, boxes, ValueRange{e[0], e[2], coordIdx});
      return pick(b, l, j, {label, score, coord});
    };
    SmallVector<Value> results;
    if constexpr (Version == 1) {
      // [total, 6], or [[-1]] when nothing is kept.
      Value none = arith::CmpIOp::create(r, loc, arith::CmpIPredicate::eq, total, c(0));
      Value rows = arith::SelectOp::create(r, loc, none, c(1), total);
      Value cols = arith::SelectOp::create(r, loc, none, c(1), c(6));
      auto type = RankedTensorType::get({ShapedType::kDynamic, ShapedType::kDynamic}, f);
      results.push_back(
          generateTensor(r, loc, type, {rows, cols}, [&](OpBuilder &b, Location l) -> Value {
            Value k = linalg::IndexOp::create(b, l, 0), j = linalg::IndexOp::create(b, l, 1);
            auto branch = scf::IfOp::create(
                b, l, none,
                [&](OpBuilder &tb, Location tl) {
                  scf::YieldOp::create(tb, tl, scalar(tb, tl, f, -1.0));
                },
                [&](OpBuilder &eb, Location el) {
                  scf::YieldOp::create(eb, el, outValue(eb, el, k, j));
                });
            return branch.getResult(0);
          }));
    } else {
      auto outType = RankedTensorType::get({ShapedType::kDynamic, 6}, f);
      results.push_back(
          generateTensor(r, loc, outType, {total}, [&](OpBuilder &b, Location l) -> Value {
            return outValue(b, l, linalg::IndexOp::create(b, l, 0),
                            linalg::IndexOp::create(b, l, 1));
          }));
      auto indexType = RankedTensorType::get({ShapedType::kDynamic, 1}, i32);
      results.push_back(
          generateTensor(r, loc, indexType, {total}, [&](OpBuilder &b, Location l) -> Value {
            SmallVector<Value, 4> e = entry(b, l, linalg::IndexOp::create(b, l, 0));
            // Stacked: row * C + label; else image * M + box.
            Value flat =
                stacked
                    ? arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, e[2], classes), e[1])
                    : arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, e[0], m), e[2]);
            return arith::IndexCastOp::create(b, l, b.getI32Type(), flat);
          }));
      if (Version == 3 || Version == kMatrix)
        results.push_back(selectionWords(r, loc, sel, c(1),
                                         cast<RankedTensorType>(op->getResult(2).getType()), n));
    }
    replaceWithDeclaredTypes(r, op, results);
    return success();
  }
};

/// generate_proposals and generate_proposals_v2 (`V2`):
///   sel = pdk_generate_proposals(Scores, BboxDeltas, ImInfo / ImShape,
///                                Anchors, Variances)   i32 [1 + N + 5 * bound]
///   RpnRois[k] = the k-th proposal's corners, RpnRoiProbs[k] = its score
///   (float bits in sel), RpnRoisNum[n] = sel[1 + n]
/// bound: N * max(1, min(post_nms_topN, pre)) with pre = min(pre_nms_topN,
/// A * H * W) (a limit <= 0 is none; post_nms_topN only applies with NMS,
/// nms_thresh > 0): an image keeps at least one (zero) box.
template <typename OpTy, bool V2> struct ProposalsLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    namespace gp = pdk::proposals;
    Location loc = op.getLoc();
    Value scores = a.getScores(), im;
    if constexpr (V2)
      im = a.getImShape();
    else
      im = a.getImInfo();
    SmallVector<Value> ins{scores, a.getBboxDeltas(), im, a.getAnchors(), a.getVariances()};
    for (Value v : ins)
      if (!cast<RankedTensorType>(v.getType()).getElementType().isF32()) {
        op.emitOpError("is computed in fp32 only, got ") << v.getType();
        return failure();
      }
    auto c = [&](int64_t v) { return idx(r, loc, v); };
    auto dim = [&](Value t, int64_t i) { return r.createOrFold<tensor::DimOp>(loc, t, i); };
    auto mul = [&](Value x, Value y) { return r.createOrFold<arith::MulIOp>(loc, x, y); };
    auto add = [&](Value x, Value y) { return r.createOrFold<arith::AddIOp>(loc, x, y); };
    auto min = [&](Value x, Value y) { return r.createOrFold<arith::MinSIOp>(loc, x, y); };
    auto max = [&](Value x, Value y) { return r.createOrFold<arith::MaxSIOp>(loc, x, y); };
    Value n = dim(scores, 0);
    Value boxes = mul(dim(scores, 1), mul(dim(scores, 2), dim(scores, 3)));
    int64_t preTop = op.getPreNmsTopN(), postTop = op.getPostNmsTopN();
    float thresh = op.getNmsThresh().convertToFloat();
    Value per = preTop > 0 ? min(c(preTop), boxes) : boxes;
    if (thresh > 0.f && postTop > 0)
      per = min(c(postTop), per);
    Value capacity = max(mul(n, max(per, c(1))), c(1));
    SmallVector<int64_t> ints(gp::NumInts);
    ints[gp::PreNmsTopN] = preTop;
    ints[gp::PostNmsTopN] = postTop;
    bool pixel = true;
    if constexpr (V2)
      pixel = op.getPixelOffset();
    ints[gp::PixelOffset] = pixel;
    ints[gp::ScaledSize] = !V2;
    SmallVector<float> floats(gp::NumFloats);
    floats[gp::NmsThresh] = thresh;
    floats[gp::MinSize] = op.getMinSize().convertToFloat();
    floats[gp::Eta] = op.getEta().convertToFloat();
    Value sel = selectionCall(r, loc, "pdk_generate_proposals", op, ins,
                              add(add(c(1), n), mul(c(gp::EntryWords), capacity)), ints, floats);
    Value total = arith::IndexCastOp::create(r, loc, r.getIndexType(),
                                             tensor::ExtractOp::create(r, loc, sel, c(0)));
    // Word `j` of proposal `k` as a float.
    auto field = [&](OpBuilder &b, Location l, Value k, Value j) -> Value {
      Value at = arith::AddIOp::create(
          b, l, arith::AddIOp::create(b, l, idx(b, l, 1), n),
          arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, k, idx(b, l, gp::EntryWords)),
                                j));
      return arith::BitcastOp::create(b, l, b.getF32Type(),
                                      tensor::ExtractOp::create(b, l, sel, ValueRange{at}));
    };
    Type f = r.getF32Type();
    SmallVector<Value> results;
    results.push_back(generateTensor(r, loc, RankedTensorType::get({ShapedType::kDynamic, 4}, f),
                                     {total}, [&](OpBuilder &b, Location l) -> Value {
                                       return field(b, l, linalg::IndexOp::create(b, l, 0),
                                                    linalg::IndexOp::create(b, l, 1));
                                     }));
    results.push_back(generateTensor(r, loc, RankedTensorType::get({ShapedType::kDynamic, 1}, f),
                                     {total}, [&](OpBuilder &b, Location l) -> Value {
                                       return field(b, l, linalg::IndexOp::create(b, l, 0),
                                                    idx(b, l, 4));
                                     }));
    results.push_back(
        selectionWords(r, loc, sel, c(1), cast<RankedTensorType>(op->getResult(2).getType()), n));
    replaceWithDeclaredTypes(r, op, results);
    return success();
  }
};

/// distribute_fpn_proposals:
///   sel = pdk_distribute_fpn_proposals(FpnRois, RoisNum)  i32 [L + L*N + 2R]
///   MultiFpnRois[l][k] = FpnRois[sel[L + L*N + R + off_l + k]]  (k < sel[l],
///   off_l the counts of the levels before l), RestoreIndex[i] =
///   sel[L + L*N + i], MultiLevelRoIsNum[l][n] = sel[L + l*N + n].
struct DistributeFpnLowering : OpConversionPattern<DistributeFpnProposalsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(DistributeFpnProposalsOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    namespace fp = pdk::fpn;
    Location loc = op.getLoc();
    Value rois = a.getFpnRois(), counts = a.getRoisNum();
    if (!counts || !cast<RankedTensorType>(rois.getType()).getElementType().isF32()) {
      op.emitOpError("is computed in fp32 with RoisNum only, got ") << rois.getType();
      return failure();
    }
    auto c = [&](int64_t v) { return idx(r, loc, v); };
    auto dim = [&](Value t, int64_t i) { return r.createOrFold<tensor::DimOp>(loc, t, i); };
    auto mul = [&](Value x, Value y) { return r.createOrFold<arith::MulIOp>(loc, x, y); };
    auto add = [&](Value x, Value y) { return r.createOrFold<arith::AddIOp>(loc, x, y); };
    int64_t levels = int64_t(op.getMaxLevel()) - op.getMinLevel() + 1;
    Value n = dim(counts, 0), rows = dim(rois, 0);
    Value words = add(add(c(levels), mul(c(levels), n)), mul(c(2), rows));
    SmallVector<int64_t> ints(fp::NumInts);
    ints[fp::MinLevel] = op.getMinLevel();
    ints[fp::MaxLevel] = op.getMaxLevel();
    ints[fp::ReferLevel] = op.getReferLevel();
    ints[fp::ReferScale] = op.getReferScale();
    ints[fp::PixelOffset] = op.getPixelOffset();
    Value sel = selectionCall(r, loc, "pdk_distribute_fpn_proposals", op, ValueRange{rois, counts},
                              words, ints, {});
    auto at = [&](OpBuilder &b, Location l, Value i) -> Value {
      return arith::IndexCastOp::create(b, l, b.getIndexType(),
                                        tensor::ExtractOp::create(b, l, sel, ValueRange{i}));
    };
    Value restoreBase = add(c(levels), mul(c(levels), n));
    Value orderBase = add(restoreBase, rows);
    SmallVector<Value> results;
    Value offset = c(0);
    for (int64_t l = 0; l < levels; ++l) {
      Value count = at(r, loc, c(l));
      Value base = add(orderBase, offset);
      Type f = cast<RankedTensorType>(rois.getType()).getElementType();
      results.push_back(generateTensor(
          r, loc, RankedTensorType::get({ShapedType::kDynamic, 4}, f), {count},
          [&](OpBuilder &b, Location lc) -> Value {
            Value k = linalg::IndexOp::create(b, lc, 0), j = linalg::IndexOp::create(b, lc, 1);
            Value row = at(b, lc, arith::AddIOp::create(b, lc, base, k));
            return tensor::ExtractOp::create(b, lc, rois, ValueRange{row, j});
          }));
      offset = add(offset, count);
    }
    results.push_back(selectionWords(r, loc, sel, restoreBase,
                                     cast<RankedTensorType>(op.getRestoreIndex().getType()), rows));
    for (auto [l, result] : llvm::enumerate(op.getMultiLevelRoIsNum()))
      results.push_back(selectionWords(r, loc, sel, add(c(levels), mul(c(int64_t(l)), n)),
                                       cast<RankedTensorType>(result.getType()), n));
    replaceWithDeclaredTypes(r, op, results);
    return success();
  }
};

/// collect_fpn_proposals (fp32), the levels concatenated by pd.concat:
///   sel = pdk_collect_fpn_proposals(scores [R], RoisNum [L, N])
///         i32 [N + K], K = min(post_nms_topN, R)
///   FpnRois[k] = rois[sel[N + k]],  RoisNum[n] = sel[n]
struct CollectFpnLowering : OpConversionPattern<CollectFpnProposalsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(CollectFpnProposalsOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    namespace cf = pdk::collectfpn;
    Location loc = op.getLoc();
    Type f = cast<RankedTensorType>(op.getFpnRois().getType()).getElementType();
    if (!f.isF32()) {
      op.emitOpError("is computed in fp32 only, got ") << op.getFpnRois().getType();
      return failure();
    }
    auto c = [&](int64_t v) { return idx(r, loc, v); };
    int64_t dyn = ShapedType::kDynamic;
    auto concat = [&](ValueRange parts, RankedTensorType type) -> Value {
      if (parts.size() == 1)
        return parts.front();
      return ConcatOp::create(r, loc, type, parts, Value(), r.getI32IntegerAttr(0));
    };
    Value rois = concat(a.getMultiLevelRois(), RankedTensorType::get({dyn, 4}, f));
    Value scores = concat(a.getMultiLevelScores(), RankedTensorType::get({dyn, 1}, f));
    scores =
        tensor::CollapseShapeOp::create(r, loc, scores, SmallVector<ReassociationIndices>{{0, 1}});
    SmallVector<Value> rows;
    for (Value num : a.getMultiLevelRoIsNum()) {
      auto t = cast<RankedTensorType>(num.getType());
      rows.push_back(tensor::ExpandShapeOp::create(
          r, loc, RankedTensorType::get({1, t.getDimSize(0)}, t.getElementType()), num,
          SmallVector<ReassociationIndices>{{0, 1}}));
    }
    auto numType = cast<RankedTensorType>(rows.front().getType());
    Value nums = concat(rows, RankedTensorType::get({int64_t(rows.size()), numType.getDimSize(1)},
                                                    numType.getElementType()));
    if (!numType.getElementType().isInteger(32)) {
      op.emitOpError("takes int32 MultiLevelRoIsNum, got ") << numType;
      return failure();
    }
    Value n = r.createOrFold<tensor::DimOp>(loc, nums, 1);
    Value total = r.createOrFold<tensor::DimOp>(loc, rois, 0);
    Value kept = r.createOrFold<arith::MinSIOp>(loc, c(op.getPostNmsTopN()), total);
    SmallVector<int64_t> ints(cf::NumInts);
    ints[cf::PostNmsTopN] = op.getPostNmsTopN();
    Value sel = selectionCall(r, loc, "pdk_collect_fpn_proposals", op, ValueRange{scores, nums},
                              r.createOrFold<arith::AddIOp>(loc, n, kept), ints, {});
    SmallVector<Value> results;
    results.push_back(generateTensor(
        r, loc, RankedTensorType::get({dyn, 4}, f), {kept}, [&](OpBuilder &b, Location l) -> Value {
          Value at = arith::AddIOp::create(b, l, n, linalg::IndexOp::create(b, l, 0));
          Value row = arith::IndexCastOp::create(b, l, b.getIndexType(),
                                                 tensor::ExtractOp::create(b, l, sel, at));
          return tensor::ExtractOp::create(b, l, rois,
                                           ValueRange{row, linalg::IndexOp::create(b, l, 1)});
        }));
    if (op.getRoisNum())
      results.push_back(
          selectionWords(r, loc, sel, c(0), cast<RankedTensorType>(op.getRoisNum().getType()), n));
    replaceWithDeclaredTypes(r, op, results);
    return success();
  }
};

/// roi_align (NCHW): Out[k, c, py, px] is the average over a grid of
/// samples in bin (py, px) of box k (scaled by spatial_scale, shifted by
/// half a pixel when `aligned`, at least 1x1 otherwise), each sample
/// bilinear in X[image of k, c] (zero outside [-1, size], clamped to the
/// last row and column). The grid is sampling_ratio per side, or
/// ceil(box size / pooled size). The image of box k: the first n with
/// RoisNum[0] + ... + RoisNum[n] > k (image 0 without RoisNum, batch 1).
/// Paddle's CPU arithmetic, term by term; a box whose grid is empty
/// (aligned, zero size) gives 0 where Paddle's CPU kernel divides by zero.
struct RoiAlignLowering : OpConversionPattern<RoiAlignOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(RoiAlignOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX(), rois = a.getROIs(), counts = a.getRoisNum();
    auto xt = cast<RankedTensorType>(x.getType());
    if (!xt.getElementType().isF32() ||
        !cast<RankedTensorType>(rois.getType()).getElementType().isF32()) {
      op.emitOpError("is computed in fp32 only, got ") << xt << " and " << rois.getType();
      return failure();
    }
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value> dyn;
    if (type.isDynamicDim(0))
      dyn.push_back(tensor::DimOp::create(r, loc, rois, 0));
    if (type.isDynamicDim(1))
      dyn.push_back(tensor::DimOp::create(r, loc, x, 1));
    int64_t ph = op.getPooledHeight(), pw = op.getPooledWidth(), ratio = op.getSamplingRatio();
    float scale = op.getSpatialScale().convertToFloat();
    bool aligned = op.getAligned();
    Value y = generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
      Type f = b.getF32Type(), i64 = b.getI64Type();
      auto cf = [&](double v) { return scalar(b, l, f, v); };
      auto toF = [&](Value i) -> Value {
        return arith::SIToFPOp::create(b, l, f, arith::IndexCastOp::create(b, l, i64, i));
      };
      auto fadd = [&](Value u, Value v) { return arith::AddFOp::create(b, l, u, v).getResult(); };
      auto fsub = [&](Value u, Value v) { return arith::SubFOp::create(b, l, u, v).getResult(); };
      auto fmul = [&](Value u, Value v) { return arith::MulFOp::create(b, l, u, v).getResult(); };
      auto fdiv = [&](Value u, Value v) { return arith::DivFOp::create(b, l, u, v).getResult(); };
      auto fmax = [&](Value u, Value v) {
        return arith::MaximumFOp::create(b, l, u, v).getResult();
      };
      auto cmp = [&](arith::CmpFPredicate p, Value u, Value v) {
        return arith::CmpFOp::create(b, l, p, u, v).getResult();
      };
      Value k = linalg::IndexOp::create(b, l, 0), ch = linalg::IndexOp::create(b, l, 1);
      Value py = linalg::IndexOp::create(b, l, 2), px = linalg::IndexOp::create(b, l, 3);
      Value zero = idx(b, l, 0), one = idx(b, l, 1);
      Value image = zero;
      if (counts) {
        // Images whose boxes all come before box k.
        Value n = tensor::DimOp::create(b, l, counts, 0);
        auto loop = scf::ForOp::create(
            b, l, zero, n, one, ValueRange{zero, zero},
            [&](OpBuilder &lb, Location ll, Value i, ValueRange acc) {
              Value cnt = tensor::ExtractOp::create(lb, ll, counts, ValueRange{i});
              Value end = arith::AddIOp::create(
                  lb, ll, acc[0], arith::IndexCastOp::create(lb, ll, lb.getIndexType(), cnt));
              Value before = arith::CmpIOp::create(lb, ll, arith::CmpIPredicate::sle, end, k);
              Value next = arith::AddIOp::create(
                  lb, ll, acc[1], arith::SelectOp::create(lb, ll, before, idx(lb, ll, 1), zero));
              scf::YieldOp::create(lb, ll, ValueRange{end, next});
            });
        // Counts that do not cover every box: the last image (never a read
        // out of bounds).
        image =
            arith::MinSIOp::create(b, l, loop.getResult(1), arith::SubIOp::create(b, l, n, one));
      }
      Value off = cf(aligned ? 0.5 : 0.0), sc = cf(scale);
      auto corner = [&](int64_t j) {
        Value v = tensor::ExtractOp::create(b, l, rois, ValueRange{k, idx(b, l, j)});
        return fsub(fmul(v, sc), off);
      };
      Value x0 = corner(0), y0 = corner(1);
      Value roiW = fsub(corner(2), x0), roiH = fsub(corner(3), y0);
      if (!aligned) {
        roiW = fmax(roiW, cf(1.0));
        roiH = fmax(roiH, cf(1.0));
      }
      Value binH = fdiv(roiH, cf(double(ph))), binW = fdiv(roiW, cf(double(pw)));
      auto gridOf = [&](Value bin) -> Value {
        if (ratio > 0)
          return idx(b, l, ratio);
        Value g = arith::FPToSIOp::create(b, l, i64, math::CeilOp::create(b, l, bin));
        return arith::IndexCastOp::create(b, l, b.getIndexType(), g);
      };
      Value gh = gridOf(binH), gw = gridOf(binW);
      Value ghF = toF(gh), gwF = toF(gw);
      Value H = tensor::DimOp::create(b, l, x, 2), W = tensor::DimOp::create(b, l, x, 3);
      Value hF = toF(H), wF = toF(W);
      Value hLast = arith::SubIOp::create(b, l, H, one),
            wLast = arith::SubIOp::create(b, l, W, one);
      Value pyF = toF(py), pxF = toF(px);
      // Low index, high index and the weight of the low one along a dim of
      // size `size` (last index `last`) at coordinate v >= 0.
      auto axis = [&](Value v, Value last) {
        Value lo = arith::IndexCastOp::create(b, l, b.getIndexType(),
                                              arith::FPToSIOp::create(b, l, i64, v));
        Value atEnd = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, lo, last);
        lo = arith::SelectOp::create(b, l, atEnd, last, lo);
        Value hi = arith::SelectOp::create(b, l, atEnd, last, arith::AddIOp::create(b, l, lo, one));
        v = arith::SelectOp::create(b, l, atEnd, toF(last), v);
        return std::array<Value, 3>{lo, hi, fsub(toF(hi), v)};
      };
      auto rows = scf::ForOp::create(
          b, l, zero, gh, one, ValueRange{cf(0.0)},
          [&](OpBuilder &, Location, Value iy, ValueRange rowAcc) {
            Value sy = fadd(y0, fmul(binH, fadd(pyF, fdiv(fadd(toF(iy), cf(0.5)), ghF))));
            auto cols = scf::ForOp::create(
                b, l, zero, gw, one, ValueRange{rowAcc[0]},
                [&](OpBuilder &, Location, Value ix, ValueRange acc) {
                  Value sx = fadd(x0, fmul(binW, fadd(pxF, fdiv(fadd(toF(ix), cf(0.5)), gwF))));
                  Value outside = arith::OrIOp::create(
                      b, l,
                      arith::OrIOp::create(b, l, cmp(arith::CmpFPredicate::OLT, sy, cf(-1.0)),
                                           cmp(arith::CmpFPredicate::OGT, sy, hF)),
                      arith::OrIOp::create(b, l, cmp(arith::CmpFPredicate::OLT, sx, cf(-1.0)),
                                           cmp(arith::CmpFPredicate::OGT, sx, wF)));
                  Value cy = fmax(sy, cf(0.0)), cx = fmax(sx, cf(0.0));
                  auto [yl, yh, ry] = axis(cy, hLast);
                  auto [xl, xh, rx] = axis(cx, wLast);
                  auto at = [&](Value yy, Value xx) -> Value {
                    return tensor::ExtractOp::create(b, l, x, ValueRange{image, ch, yy, xx});
                  };
                  Value ry1 = fsub(cf(1.0), ry), rx1 = fsub(cf(1.0), rx);
                  Value v = fadd(
                      fadd(fadd(fmul(fmul(rx, ry), at(yl, xl)), fmul(fmul(rx1, ry), at(yl, xh))),
                           fmul(fmul(rx, ry1), at(yh, xl))),
                      fmul(fmul(rx1, ry1), at(yh, xh)));
                  v = arith::SelectOp::create(b, l, outside, cf(0.0), v);
                  scf::YieldOp::create(b, l, fadd(acc[0], v));
                });
            scf::YieldOp::create(b, l, cols.getResult(0));
          });
      Value cells = arith::MaxSIOp::create(b, l, arith::MulIOp::create(b, l, gh, gw), one);
      return fmul(rows.getResult(0), fdiv(cf(1.0), toF(cells)));
    });
    r.replaceOp(op, y);
    return success();
  }
};
/// anchor_generator: for feature cell (h, w) the centre
/// (w * stride_w + offset * (stride_w - 1), h * stride_h + offset * (stride_h - 1))
/// and, per aspect ratio (outer) and anchor size (inner), a box of
/// round(sqrt(stride_w * stride_h / ratio)) * size / stride_w by
/// round(base_w * ratio) * size / stride_h, all in float as Paddle's kernel
/// computes them (the half extents subtracted in double); Variances
/// repeats the four variances.
struct AnchorGeneratorLowering : OpConversionPattern<AnchorGeneratorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AnchorGeneratorOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getAnchors().getType());
    Type elem = type.getElementType();
    ArrayRef<float> sizes = op.getAnchorSizes(), ratios = op.getAspectRatios(),
                    stride = op.getStride(), variances = op.getVariances();
    if (stride.size() != 2 || variances.size() != 4 || !elem.isF32())
      return r.notifyMatchFailure(op, "needs two strides, four variances and f32");
    float sw = stride[0], sh = stride[1];
    // Per anchor: the half extents 0.5 * (width - 1), 0.5 * (height - 1).
    SmallVector<double> halfW, halfH;
    for (float ar : ratios)
      for (float size : sizes) {
        float area = sw * sh, areaRatio = area / ar;
        float baseW = std::round(std::sqrt(areaRatio)), baseH = std::round(baseW * ar);
        float width = size / sw * baseW, height = size / sh * baseH;
        halfW.push_back(0.5 * (double)(width - 1));
        halfH.push_back(0.5 * (double)(height - 1));
      }
    int64_t n = halfW.size();
    SmallVector<Value> dyn;
    for (int64_t d = 0; d < 2; ++d)
      if (type.isDynamicDim(d))
        dyn.push_back(tensor::DimOp::create(r, loc, a.getInput(), 2 + d));
    float offset = op.getOffset().convertToFloat();
    auto table = [&](ArrayRef<double> v) {
      return arith::ConstantOp::create(
          r, loc, DenseElementsAttr::get(RankedTensorType::get({n}, r.getF64Type()), v));
    };
    Value hw = table(halfW), hh = table(halfH);
    Value anchors = generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
      Value h = linalg::IndexOp::create(b, l, 0), w = linalg::IndexOp::create(b, l, 1);
      Value k = linalg::IndexOp::create(b, l, 2), c = linalg::IndexOp::create(b, l, 3);
      auto toF = [&](Value i) {
        return arith::SIToFPOp::create(b, l, b.getF32Type(),
                                       arith::IndexCastOp::create(b, l, b.getI64Type(), i));
      };
      auto centre = [&](Value i, float s) -> Value {
        Value scaled = arith::MulFOp::create(b, l, toF(i), scalar(b, l, b.getF32Type(), s));
        return arith::AddFOp::create(b, l, scaled, scalar(b, l, b.getF32Type(), offset * (s - 1)));
      };
      Value xc = arith::ExtFOp::create(b, l, b.getF64Type(), centre(w, sw));
      Value yc = arith::ExtFOp::create(b, l, b.getF64Type(), centre(h, sh));
      Value ex = tensor::ExtractOp::create(b, l, hw, ValueRange{k});
      Value ey = tensor::ExtractOp::create(b, l, hh, ValueRange{k});
      // c: 0 x - ex, 1 y - ey, 2 x + ex, 3 y + ey.
      Value isY =
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                arith::RemUIOp::create(b, l, c, idx(b, l, 2)), idx(b, l, 1));
      Value isMax = arith::CmpIOp::create(b, l, arith::CmpIPredicate::uge, c, idx(b, l, 2));
      Value centreV = arith::SelectOp::create(b, l, isY, yc, xc);
      Value extent = arith::SelectOp::create(b, l, isY, ey, ex);
      Value v = arith::SelectOp::create(b, l, isMax, arith::AddFOp::create(b, l, centreV, extent),
                                        arith::SubFOp::create(b, l, centreV, extent));
      return arith::TruncFOp::create(b, l, elem, v);
    });
    Value var = arith::ConstantOp::create(
        r, loc, DenseElementsAttr::get(RankedTensorType::get({4}, elem), variances));
    Value vars = generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
      return tensor::ExtractOp::create(b, l, var, ValueRange{linalg::IndexOp::create(b, l, 3)});
    });
    r.replaceOp(op, ValueRange{anchors, vars});
    return success();
  }
};
} // namespace

void mlir::pd::populatePdDetectionToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<PriorBoxLowering, BoxCoderLowering, YoloBoxLowering, NmsLowering<MulticlassNmsOp, 1>,
               NmsLowering<MulticlassNms2Op, 2>, NmsLowering<MulticlassNms3Op, 3>,
               NmsLowering<MatrixNmsOp, kMatrix>, ProposalsLowering<GenerateProposalsOp, false>,
               ProposalsLowering<GenerateProposalsV2Op, true>, RoiAlignLowering,
               DistributeFpnLowering, AnchorGeneratorLowering, CollectFpnLowering>(
      patterns.getContext());
}

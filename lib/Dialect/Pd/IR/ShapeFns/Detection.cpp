//===- Detection.cpp - pd detection head result types ---------------------===//
//
// Hand-written PdShapeInference (catalogue `infer = "custom"`) of the pd
// detection heads.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "PaddleMLIR/Dialect/Pd/IR/Einsum.h"

#include <cmath>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::shapefns;

//===----------------------------------------------------------------------===//
// Detection heads
//===----------------------------------------------------------------------===//

SmallVector<std::pair<float, float>> mlir::pd::priorBoxHalfSizes(PriorBoxOp op) {
  // Paddle's aspect-ratio list: 1 first, each attribute value once (values
  // within 1e-6 of one already listed are dropped), followed by its
  // reciprocal under `flip`.
  SmallVector<float> ratios{1.0f};
  for (float ar : op.getAspectRatios()) {
    if (llvm::any_of(ratios, [&](float r) { return std::fabs(ar - r) < 1e-6f; }))
      continue;
    ratios.push_back(ar);
    if (op.getFlip())
      ratios.push_back(1.0f / ar);
  }
  auto minSizes = op.getMinSizes();
  auto maxSizes = op.getMaxSizes();
  SmallVector<std::pair<float, float>> out;
  auto ratioBox = [&](float minSize, float ar) {
    out.push_back({minSize * std::sqrt(ar) / 2.0f, minSize / std::sqrt(ar) / 2.0f});
  };
  for (size_t s = 0; s < minSizes.size(); ++s) {
    float minSize = minSizes[s];
    float square = maxSizes.empty() ? 0.0f : std::sqrt(minSize * maxSizes[s]) / 2.0f;
    if (op.getMinMaxAspectRatiosOrder()) {
      // Caffe's order: the min square, the min-max square, the other ratios.
      out.push_back({minSize / 2.0f, minSize / 2.0f});
      if (!maxSizes.empty())
        out.push_back({square, square});
      for (float ar : ratios)
        if (std::fabs(ar - 1.0f) >= 1e-6f)
          ratioBox(minSize, ar);
    } else {
      for (float ar : ratios)
        ratioBox(minSize, ar);
      if (!maxSizes.empty())
        out.push_back({square, square});
    }
  }
  return out;
}

LogicalResult AnchorGeneratorOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getInput(), "Input", 4, 4)))
    return failure();
  if (getStride().size() != 2)
    return c.fail("stride must have 2 elements (width, height), got " + Twine(getStride().size()));
  if (getVariances().size() != 4)
    return c.fail("variances must have 4 elements, got " + Twine(getVariances().size()));
  if (getAnchorSizes().empty() || getAspectRatios().empty())
    return c.fail("needs at least one anchor size and one aspect ratio");
  if (llvm::any_of(getAspectRatios(), [](float v) { return !(v > 0); }) ||
      llvm::any_of(getStride(), [](float v) { return !(v > 0); }))
    return c.fail("aspect ratios and strides must be positive");
  auto x = rt(getInput());
  int64_t n = getAnchorSizes().size() * getAspectRatios().size();
  Type t = tensor({x.getDimSize(2), x.getDimSize(3), n, 4}, x.getElementType());
  types.push_back(t);
  types.push_back(t);
  return success();
}

LogicalResult PriorBoxOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getInput(), "Input", 4, 4)) || failed(c.rank(getImage(), "Image", 4, 4)))
    return failure();
  if (getMinSizes().empty())
    return c.fail("min_sizes must not be empty");
  if (llvm::any_of(getMinSizes(), [](float v) { return !(v > 0.0f); }))
    return c.fail("min_sizes must be positive");
  if (!getMaxSizes().empty()) {
    if (getMaxSizes().size() != getMinSizes().size())
      return c.fail("max_sizes must be empty or have one entry per min_sizes entry");
    for (auto [lo, hi] : llvm::zip(getMinSizes(), getMaxSizes()))
      if (!(hi > lo))
        return c.fail("each max_sizes entry must be larger than its min_sizes entry");
  }
  if (llvm::any_of(getAspectRatios(), [](float v) { return !(v > 0.0f); }))
    return c.fail("aspect_ratios must be positive");
  if (getVariances().size() != 4)
    return c.fail("variances must have 4 entries, got " + Twine(getVariances().size()));
  auto in = rt(getInput());
  int64_t priors = priorBoxHalfSizes(*this).size();
  Type t = tensor({in.getDimSize(2), in.getDimSize(3), priors, 4}, in.getElementType());
  types.push_back(t);
  types.push_back(t);
  return success();
}

LogicalResult BoxCoderOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getPriorBox(), "PriorBox", 2, 2)))
    return failure();
  auto prior = rt(getPriorBox());
  if (conflict(prior.getDimSize(1), 4))
    return c.fail("PriorBox must be [M, 4], got " + shapeStr(prior.getShape()));
  if (getPriorBoxVar()) {
    auto var = rt(getPriorBoxVar());
    if (var.getRank() != 2 || conflict(var.getDimSize(0), prior.getDimSize(0)) ||
        conflict(var.getDimSize(1), 4))
      return c.fail("PriorBoxVar must have PriorBox's shape, got " + shapeStr(var.getShape()));
    if (!getVariance().empty())
      return c.fail("PriorBoxVar and the variance attribute must not both be given");
  }
  if (!getVariance().empty() && getVariance().size() != 4)
    return c.fail("variance must be empty or have 4 entries");
  auto target = rt(getTargetBox());
  if (getCodeType() == "encode_center_size") {
    if (target.getRank() != 2 || conflict(target.getDimSize(1), 4))
      return c.fail("TargetBox must be [N, 4] to encode, got " + shapeStr(target.getShape()));
    types.push_back(
        tensor({target.getDimSize(0), prior.getDimSize(0), 4}, target.getElementType()));
    return success();
  }
  if (target.getRank() != 3 || conflict(target.getDimSize(2), 4))
    return c.fail("TargetBox must be [N, M, 4] to decode, got " + shapeStr(target.getShape()));
  if (getAxis() > 1)
    return c.fail("axis must be 0 or 1");
  if (conflict(target.getDimSize(getAxis() == 0 ? 1 : 0), prior.getDimSize(0)))
    return c.fail("TargetBox " + shapeStr(target.getShape()) +
                  " does not have one box per prior (" + Twine(prior.getDimSize(0)) +
                  ") along its dim " + Twine(getAxis() == 0 ? 1 : 0));
  types.push_back(target);
  return success();
}

LogicalResult YoloBoxOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getX(), "X", 4, 4)) || failed(c.rank(getImgSize(), "ImgSize", 2, 2)))
    return failure();
  auto anchors = getAnchors();
  if (anchors.empty() || anchors.size() % 2)
    return c.fail("anchors must hold (width, height) pairs, got " + Twine(anchors.size()) +
                  " numbers");
  auto x = rt(getX());
  int64_t an = anchors.size() / 2, classes = getClassNum();
  int64_t channels = an * (5 + classes) + (getIouAware() ? an : 0);
  if (conflict(x.getDimSize(1), channels))
    return c.fail("X has " + Twine(x.getDimSize(1)) + " channels; " + Twine(an) + " anchors and " +
                  Twine(classes) + " classes need " + Twine(channels));
  auto size = rt(getImgSize());
  if (conflict(size.getDimSize(1), 2) || conflict(size.getDimSize(0), x.getDimSize(0)))
    return c.fail("ImgSize must be [N, 2] (height, width per image), got " +
                  shapeStr(size.getShape()));
  int64_t cells = prod({x.getDimSize(2), x.getDimSize(3)});
  int64_t boxes = isDyn(cells) ? kDyn : an * cells;
  types.push_back(tensor({x.getDimSize(0), boxes, 4}, x.getElementType()));
  types.push_back(tensor({x.getDimSize(0), boxes, classes}, x.getElementType()));
  return success();
}

bool mlir::pd::isDataSized(OpResult r) {
  Operation *op = r.getOwner();
  if (isa<MulticlassNmsOp, MulticlassNms2Op, MulticlassNms3Op, MatrixNmsOp, GenerateProposalsOp,
          GenerateProposalsV2Op>(op))
    return r.getResultNumber() < 2; // boxes and scores or indices, not the counts per image
  if (auto fpn = dyn_cast<DistributeFpnProposalsOp>(op)) // each level's RoIs
    return int64_t(r.getResultNumber()) < fpn.getProperties().resultSegmentSizes[0];
  if (auto unique = dyn_cast<UniqueOp>(op)) // Out, Indices, Counts; not the inverse map
    return r != unique.getIndex();
  return isa<WhereIndexOp, MaskedSelectOp>(op);
}

LogicalResult WhereIndexOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getCondition(), "Condition", 1, 8)))
    return failure();
  types.push_back(tensor({kDyn, rt(getCondition()).getRank()}, IntegerType::get(getContext(), 64)));
  return success();
}

LogicalResult MaskedSelectOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  auto x = rt(getX()), m = rt(getMask());
  bool same = x.getRank() == m.getRank();
  for (int64_t i = 0; same && i < x.getRank(); ++i)
    same = !conflict(x.getDimSize(i), m.getDimSize(i));
  if (!same)
    return c.fail("Mask " + shapeStr(m.getShape()) + " must have the shape of X " +
                  shapeStr(x.getShape()) + " (broadcasting is not supported)");
  types.push_back(tensor({kDyn}, x.getElementType()));
  return success();
}

/// The multiclass_nms family: BBoxes [N, M, 4], Scores [N, C, M]; or, with
/// `roisNum` (multiclass_nms3's RoisNum [N]), the boxes of all images
/// stacked, BBoxes [M, C, 4] (one box per class) and Scores [M, C]. Returns
/// N (the batch) or failure. The count of kept boxes depends on the data, so
/// the results' first dims are dynamic.
static FailureOr<int64_t> nmsBatch(const Checker &c, Value boxes, Value scores,
                                   Value roisNum = Value()) {
  auto no = [&](const Twine &msg) -> FailureOr<int64_t> {
    (void)c.fail(msg);
    return failure();
  };
  if (rt(scores).getRank() == 2) {
    if (!roisNum)
      return no("2-D Scores need RoisNum (multiclass_nms3) to group the boxes per image; boxes "
                "grouped by LoD are not supported yet");
    if (failed(c.rank(boxes, "BBoxes", 3, 3)) || failed(c.rank(roisNum, "RoisNum", 1, 1)))
      return failure();
    auto b = rt(boxes), s = rt(scores);
    if (conflict(b.getDimSize(2), 4))
      return no("BBoxes must hold 4 coordinates per box (xmin, ymin, xmax, ymax), got " +
                shapeStr(b.getShape()));
    if (conflict(b.getDimSize(0), s.getDimSize(0)) || conflict(b.getDimSize(1), s.getDimSize(1)))
      return no("BBoxes " + shapeStr(b.getShape()) + " and Scores " + shapeStr(s.getShape()) +
                " must be [M, C, 4] and [M, C]");
    return rt(roisNum).getDimSize(0);
  }
  if (failed(c.rank(boxes, "BBoxes", 3, 3)) || failed(c.rank(scores, "Scores", 3, 3)))
    return failure();
  auto b = rt(boxes), s = rt(scores);
  if (conflict(b.getDimSize(2), 4))
    return no("BBoxes must hold 4 coordinates per box (xmin, ymin, xmax, ymax), got " +
              shapeStr(b.getShape()));
  if (conflict(b.getDimSize(0), s.getDimSize(0)) || conflict(b.getDimSize(1), s.getDimSize(2)))
    return no("BBoxes " + shapeStr(b.getShape()) + " and Scores " + shapeStr(s.getShape()) +
              " must be [N, M, 4] and [N, C, M]");
  return isDyn(b.getDimSize(0)) ? s.getDimSize(0) : b.getDimSize(0);
}

LogicalResult MulticlassNmsOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(nmsBatch(c, getBBoxes(), getScores())))
    return failure();
  // [kept, 6], or [1, 1] holding -1 when nothing is kept.
  types.push_back(tensor({kDyn, kDyn}, rt(getBBoxes()).getElementType()));
  return success();
}

/// Out [kept, 6], Index [kept, 1] (i32) and, with `withCounts`, the count
/// per image [N] (i32): multiclass_nms2 / multiclass_nms3 / matrix_nms.
static LogicalResult nmsResults(const Checker &c, Value boxes, Value scores, bool withCounts,
                                SmallVectorImpl<Type> &types, Value roisNum = Value()) {
  FailureOr<int64_t> n = nmsBatch(c, boxes, scores, roisNum);
  if (failed(n))
    return failure();
  Type i32 = IntegerType::get(boxes.getContext(), 32);
  types.push_back(tensor({kDyn, 6}, rt(boxes).getElementType()));
  types.push_back(tensor({kDyn, 1}, i32));
  if (withCounts)
    types.push_back(tensor({*n}, i32));
  return success();
}

LogicalResult MulticlassNms2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return nmsResults(Checker{*this, emit}, getBBoxes(), getScores(), /*withCounts=*/false, types);
}

LogicalResult MulticlassNms3Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return nmsResults(Checker{*this, emit}, getBBoxes(), getScores(), /*withCounts=*/true, types,
                    getRoisNum());
}

LogicalResult MatrixNmsOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return nmsResults(Checker{*this, emit}, getBBoxes(), getScores(), /*withCounts=*/true, types);
}

/// generate_proposals(_v2): Scores [N, A, H, W], BboxDeltas [N, 4A, H, W],
/// the image sizes [N, `imCols`], Anchors and Variances of H * W * A boxes
/// (Paddle's [H, W, A, 4]). RpnRois [kept, 4], RpnRoiProbs [kept, 1] and
/// RpnRoisNum [N] (i32).
static LogicalResult proposalResults(const Checker &c, Value scores, Value deltas, Value im,
                                     StringRef imSlot, int64_t imCols, Value anchors,
                                     Value variances, SmallVectorImpl<Type> &types) {
  if (failed(c.rank(scores, "Scores", 4, 4)) || failed(c.rank(deltas, "BboxDeltas", 4, 4)) ||
      failed(c.rank(im, imSlot, 2, 2)))
    return failure();
  auto s = rt(scores), d = rt(deltas), i = rt(im);
  ArrayRef<int64_t> ss = s.getShape(), ds = d.getShape();
  if (conflict(ss[0], ds[0]) || conflict(ss[2], ds[2]) || conflict(ss[3], ds[3]) ||
      (!isDyn(ss[1]) && conflict(ss[1] * 4, ds[1])))
    return c.fail("BboxDeltas " + shapeStr(ds) + " must be [N, 4A, H, W] for Scores " +
                  shapeStr(ss) + " [N, A, H, W]");
  if (conflict(i.getDimSize(0), ss[0]) || conflict(i.getDimSize(1), imCols))
    return c.fail(imSlot + " must be [N, " + Twine(imCols) + "], got " + shapeStr(i.getShape()));
  for (auto [v, slot] : {std::pair(anchors, "Anchors"), std::pair(variances, "Variances")}) {
    auto t = rt(v);
    if (t.getRank() == 0 || conflict(t.getShape().back(), 4))
      return c.fail(Twine(slot) + " must hold 4 values per anchor, got " + shapeStr(t.getShape()));
    if (t.hasStaticShape() && !isDyn(ss[1]) && !isDyn(ss[2]) && !isDyn(ss[3]) &&
        t.getNumElements() != ss[1] * ss[2] * ss[3] * 4)
      return c.fail(Twine(slot) + " " + shapeStr(t.getShape()) +
                    " must hold H * W * A = " + Twine(ss[1] * ss[2] * ss[3]) + " boxes");
  }
  Type f = s.getElementType();
  types.push_back(tensor({kDyn, 4}, f));
  types.push_back(tensor({kDyn, 1}, f));
  types.push_back(tensor({ss[0]}, IntegerType::get(scores.getContext(), 32)));
  return success();
}

LogicalResult GenerateProposalsOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return proposalResults({*this, emit}, getScores(), getBboxDeltas(), getImInfo(), "ImInfo", 3,
                         getAnchors(), getVariances(), types);
}

LogicalResult GenerateProposalsV2Op::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  return proposalResults({*this, emit}, getScores(), getBboxDeltas(), getImShape(), "ImShape", 2,
                         getAnchors(), getVariances(), types);
}

/// distribute_fpn_proposals: FpnRois [R, 4] grouped per image by RoisNum
/// [N]; per pyramid level (max_level - min_level + 1) its RoIs [?, 4] and,
/// when the program asks for them, their counts per image [N] (i32);
/// RestoreIndex [R, 1] (i32).
LogicalResult DistributeFpnProposalsOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getFpnRois(), "FpnRois", 2, 2)))
    return failure();
  auto rois = rt(getFpnRois());
  if (conflict(rois.getDimSize(1), 4))
    return c.fail("FpnRois must be [R, 4] (xmin, ymin, xmax, ymax), got " +
                  shapeStr(rois.getShape()));
  if (!getRoisNum())
    return c.fail("FpnRois without RoisNum (RoIs grouped per image by LoD) are not supported yet");
  if (failed(c.rank(getRoisNum(), "RoisNum", 1, 1)))
    return failure();
  int64_t levels = int64_t(getMaxLevel()) - getMinLevel() + 1;
  if (levels < 1)
    return c.fail("max_level (" + Twine(getMaxLevel()) + ") must be at least min_level (" +
                  Twine(getMinLevel()) + ")");
  ArrayRef<int32_t> seg = getProperties().resultSegmentSizes;
  if (seg[0] != levels || (seg[2] != 0 && seg[2] != levels))
    return c.fail("levels " + Twine(getMinLevel()) + " to " + Twine(getMaxLevel()) + " need " +
                  Twine(levels) + " MultiFpnRois (and 0 or " + Twine(levels) +
                  " MultiLevelRoIsNum) results, got " + Twine(seg[0]) + " and " + Twine(seg[2]));
  Type i32 = IntegerType::get(getContext(), 32);
  for (int64_t l = 0; l < levels; ++l)
    types.push_back(tensor({kDyn, 4}, rois.getElementType()));
  types.push_back(tensor({rois.getDimSize(0), 1}, i32));
  for (int32_t l = 0; l < seg[2]; ++l)
    types.push_back(tensor({rt(getRoisNum()).getDimSize(0)}, i32));
  return success();
}

/// collect_fpn_proposals: per level its RoIs [R_l, 4], scores [R_l, 1]
/// and counts per image [N]; FpnRois [min(post_nms_topN, sum R_l), 4] and
/// RoisNum [N] (i32).
LogicalResult CollectFpnProposalsOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  size_t levels = getMultiLevelRois().size();
  if (levels == 0 || getMultiLevelScores().size() != levels)
    return c.fail("needs one MultiLevelScores per MultiLevelRois (and at least one level), got " +
                  Twine(levels) + " and " + Twine(getMultiLevelScores().size()));
  if (getMultiLevelRoIsNum().size() != levels)
    return c.fail("needs MultiLevelRoIsNum for each of the " + Twine(levels) +
                  " levels (RoIs grouped per image by LoD are not supported yet), got " +
                  Twine(getMultiLevelRoIsNum().size()));
  int64_t total = 0, images = kDyn;
  Type f;
  for (size_t l = 0; l < levels; ++l) {
    Value rois = getMultiLevelRois()[l], scores = getMultiLevelScores()[l],
          num = getMultiLevelRoIsNum()[l];
    if (failed(c.rank(rois, "MultiLevelRois", 2, 2)) ||
        failed(c.rank(scores, "MultiLevelScores", 2, 2)) ||
        failed(c.rank(num, "MultiLevelRoIsNum", 1, 1)))
      return failure();
    auto r = rt(rois), s = rt(scores);
    if (conflict(r.getDimSize(1), 4) || conflict(s.getDimSize(1), 1) ||
        conflict(r.getDimSize(0), s.getDimSize(0)))
      return c.fail("level " + Twine(l) + ": RoIs " + shapeStr(r.getShape()) + " and scores " +
                    shapeStr(s.getShape()) + " must be [R, 4] and [R, 1]");
    if (s.getElementType() != r.getElementType() || (f && r.getElementType() != f))
      return c.fail("RoIs and scores of every level must have one element type");
    f = r.getElementType();
    int64_t n = rt(num).getDimSize(0);
    if (conflict(images, n))
      return c.fail("every level's MultiLevelRoIsNum must count the same images, got " +
                    Twine(images) + " and " + Twine(n));
    if (!isDyn(n))
      images = n;
    total = isDyn(total) || isDyn(r.getDimSize(0)) ? kDyn : total + r.getDimSize(0);
  }
  int64_t kept = isDyn(total) ? kDyn : std::min<int64_t>(total, getPostNmsTopN());
  types.push_back(tensor({kept, 4}, f));
  if (getRoisNum())
    types.push_back(tensor({images}, IntegerType::get(getContext(), 32)));
  return success();
}

/// roi_align: X [N, C, H, W], ROIs [K, 4], RoisNum [N] (the boxes of each
/// image, in order); Out [K, C, pooled_height, pooled_width].
LogicalResult RoiAlignOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getX(), "X", 4, 4)) || failed(c.rank(getROIs(), "ROIs", 2, 2)))
    return failure();
  auto x = rt(getX()), r = rt(getROIs());
  if (conflict(r.getDimSize(1), 4))
    return c.fail("ROIs must be [K, 4] (xmin, ymin, xmax, ymax), got " + shapeStr(r.getShape()));
  if (getRoisNum()) {
    if (failed(c.rank(getRoisNum(), "RoisNum", 1, 1)))
      return failure();
    if (conflict(rt(getRoisNum()).getDimSize(0), x.getDimSize(0)))
      return c.fail("RoisNum " + shapeStr(rt(getRoisNum()).getShape()) +
                    " must count the boxes of each of the " + Twine(x.getDimSize(0)) + " images");
  } else if (x.getDimSize(0) != 1) {
    return c.fail("ROIs without RoisNum (boxes assigned to images by LoD) are supported for a "
                  "batch of 1 only, got X " +
                  shapeStr(x.getShape()));
  }
  types.push_back(tensor({r.getDimSize(0), x.getDimSize(1), getPooledHeight(), getPooledWidth()},
                         x.getElementType()));
  return success();
}

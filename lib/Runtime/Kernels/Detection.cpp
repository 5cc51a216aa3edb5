//===- Detection.cpp - pdk_multiclass_nms: Paddle's multiclass NMS --------===//
//
// The selection step of multiclass_nms(2, 3), whose output size depends on
// the scores: per image and class (the background label skipped), the boxes
// scoring above score_threshold in descending order of score (ties in box
// order), at most nms_top_k of them, each kept when its IoU with every box
// kept before it is at most the (nms_eta-adapted) threshold; then, when
// more than keep_top_k boxes are kept in the image, the keep_top_k best
// over all classes. Output order is Paddle's: by image, by label, and in
// each label by descending score. The arithmetic follows Paddle's CPU
// kernel (float IoU, +1 pixel extents for unnormalized boxes), so the same
// boxes are kept. pdk_matrix_nms is Paddle's matrix NMS (scores decayed
// by overlap instead of boxes dropped). Both write the selection described
// at nms:: in KernelABI.h.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <utility>
#include <vector>

using namespace pdk;

namespace {
/// A box's area; a box with xmax < xmin or ymax < ymin has none.
float boxArea(const float *b, bool normalized) {
  if (b[2] < b[0] || b[3] < b[1])
    return 0.f;
  float w = b[2] - b[0], h = b[3] - b[1];
  return normalized ? w * h : (w + 1) * (h + 1);
}

/// Intersection over union of corner boxes `a` and `b`.
float overlap(const float *a, const float *b, bool normalized) {
  if (b[0] > a[2] || b[2] < a[0] || b[1] > a[3] || b[3] < a[1])
    return 0.f;
  float norm = normalized ? 0.f : 1.f;
  float w = std::min(a[2], b[2]) - std::max(a[0], b[0]) + norm;
  float h = std::min(a[3], b[3]) - std::max(a[1], b[1]) + norm;
  float inter = w * h;
  return inter / (boxArea(a, normalized) + boxArea(b, normalized) - inter);
}

struct Params {
  int64_t background, nmsTopK, keepTopK;
  bool normalized;
  float scoreThreshold, nmsThreshold, eta;
};

/// The boxes of one class kept by NMS, best first. `scores`: M values,
/// `boxes`: M x 4.
std::vector<int32_t> nmsOneClass(const float *scores, const float *boxes, int64_t m,
                                 const Params &p) {
  std::vector<std::pair<float, int32_t>> order;
  for (int64_t i = 0; i < m; ++i)
    if (scores[i] > p.scoreThreshold)
      order.push_back({scores[i], static_cast<int32_t>(i)});
  std::stable_sort(order.begin(), order.end(),
                   [](const auto &x, const auto &y) { return x.first > y.first; });
  if (p.nmsTopK > -1 && p.nmsTopK < static_cast<int64_t>(order.size()))
    order.resize(p.nmsTopK);
  std::vector<int32_t> kept;
  float threshold = p.nmsThreshold;
  for (const auto &[score, i] : order) {
    bool keep = true;
    for (int32_t k : kept)
      if (overlap(boxes + 4 * i, boxes + 4 * k, p.normalized) > threshold) {
        keep = false;
        break;
      }
    if (!keep)
      continue;
    kept.push_back(i);
    if (p.eta < 1.f && threshold > 0.5f)
      threshold *= p.eta;
  }
  return kept;
}

/// A kept box: its label, its index among the image's boxes, its score.
struct Kept {
  int32_t label, box;
  float score;
};

/// Writes the selection described at nms:: in KernelABI.h for `n` images,
/// `keptOf(img)` giving each image's kept boxes in output order; `what`
/// names the op in errors.
template <typename KeptOf>
void writeSelection(const char *what, int32_t *sel, int64_t n, int64_t words, KeptOf keptOf) {
  int64_t capacity = (words - 1 - n) / nms::EntryWords;
  int64_t total = 0;
  int32_t *entry = sel + 1 + n;
  for (int64_t img = 0; img < n; ++img) {
    std::vector<Kept> kept = keptOf(img);
    if (!kernelError.empty())
      return;
    if (total + static_cast<int64_t>(kept.size()) > capacity) {
      kernelError = std::string(what) + ": " + std::to_string(total + kept.size()) +
                    " kept boxes exceed the compiled bound of " + std::to_string(capacity);
      return;
    }
    sel[1 + img] = static_cast<int32_t>(kept.size());
    for (const Kept &k : kept) {
      entry[0] = static_cast<int32_t>(img);
      entry[1] = k.label;
      entry[2] = k.box;
      std::memcpy(&entry[3], &k.score, sizeof(float));
      entry += nms::EntryWords;
    }
    total += static_cast<int64_t>(kept.size());
  }
  // Readers gather through the first entry even when nothing is kept: it
  // stays zero (clearDestination).
  sel[0] = static_cast<int32_t>(total);
}

/// Runs `perImage` (C x M scores and M x 4 boxes of one image -> its kept
/// boxes in output order) over the batch of BBoxes [N, M, 4] and Scores
/// [N, C, M] and writes the selection; with RoisNum, `perImageLod` (the
/// image's scores [m, C] and boxes [m, C, 4] -> its kept boxes, their
/// `box` the row within the image) over the stacked form.
template <typename PerImage, typename PerImageLod>
void runNms(const char *what, const int64_t *ptrs, const int64_t *ints, int64_t numInts,
            PerImage perImage, PerImageLod perImageLod) {
  const float *boxes = static_cast<const float *>(ptrAt(ptrs, nms::Boxes));
  const float *scores = static_cast<const float *>(ptrAt(ptrs, nms::Scores));
  const int32_t *roisNum = static_cast<const int32_t *>(ptrAt(ptrs, nms::RoisNum));
  int32_t *sel = static_cast<int32_t *>(ptrAt(ptrs, nms::NumSlots));
  Dims dims(ints + numInts);
  const int64_t *bd = dims.next(), *sd = dims.next();
  const int64_t *rd = roisNum ? dims.next() : nullptr;
  const int64_t *od = dims.next();
  clearDestination(sel, od, sizeof(int32_t));
  if (!kernelError.empty())
    return;
  if (od[-1] != 1) {
    kernelError = std::string(what) + ": the selection must be 1-D";
    return;
  }
  if (sd[-1] == 2) {
    if (!rd || rd[-1] != 1 || bd[-1] != 3 || bd[0] != sd[0] || bd[1] != sd[1] || bd[2] != 4) {
      kernelError = std::string(what) + ": 2-D Scores [M, C] need BBoxes [M, C, 4] and RoisNum";
      return;
    }
    int64_t m = sd[0], c = sd[1], n = rd[0], start = 0;
    std::vector<int64_t> starts(static_cast<size_t>(n));
    for (int64_t img = 0; img < n; ++img) {
      starts[img] = start;
      start += roisNum[img];
      if (roisNum[img] < 0 || start > m) {
        kernelError = std::string(what) + ": RoisNum counts " + std::to_string(start) +
                      " boxes (or a negative count) for " + std::to_string(m) + " rows";
        return;
      }
    }
    writeSelection(what, sel, n, od[0], [&](int64_t img) {
      int64_t first = starts[img];
      std::vector<Kept> kept =
          perImageLod(scores + first * c, boxes + first * c * 4, c, int64_t{roisNum[img]});
      for (Kept &k : kept)
        k.box += static_cast<int32_t>(first);
      return kept;
    });
    return;
  }
  if (bd[-1] != 3 || sd[-1] != 3 || bd[2] != 4 || bd[0] != sd[0] || bd[1] != sd[2]) {
    kernelError = std::string(what) + ": BBoxes must be [N, M, 4] and Scores [N, C, M]";
    return;
  }
  int64_t n = sd[0], c = sd[1], m = sd[2];
  writeSelection(what, sel, n, od[0], [&](int64_t img) {
    return perImage(scores + img * c * m, boxes + img * m * 4, c, m);
  });
}

/// Descending by score; equal scores keep their order.
void sortByScore(std::vector<Kept> &v) {
  std::stable_sort(v.begin(), v.end(),
                   [](const Kept &x, const Kept &y) { return x.score > y.score; });
}

/// Matrix NMS of one class (Paddle's NMSMatrix): the boxes above
/// score_threshold, best first, at most nms_top_k; each box's score decays
/// by its IoU with every better box, compensated by how suppressed that box
/// is itself (linear: (1 - iou) / (1 - max_iou); gaussian:
/// exp((max_iou^2 - iou^2) * sigma)); boxes whose decayed score is above
/// post_threshold are kept.
void matrixNmsOneClass(const float *scores, const float *boxes, int64_t m, int32_t label,
                       const int64_t *ints, const float *floats, std::vector<Kept> &out) {
  namespace mn = matrixnms;
  std::vector<Kept> order;
  for (int64_t i = 0; i < m; ++i)
    if (scores[i] > floats[mn::ScoreThreshold])
      order.push_back({label, static_cast<int32_t>(i), scores[i]});
  sortByScore(order);
  int64_t topK = ints[mn::NmsTopK];
  if (topK > -1 && topK < static_cast<int64_t>(order.size()))
    order.resize(topK);
  int64_t k = static_cast<int64_t>(order.size());
  if (k == 0)
    return;
  bool normalized = ints[mn::Normalized] != 0, gaussian = ints[mn::UseGaussian] != 0;
  float sigma = floats[mn::GaussianSigma], post = floats[mn::PostThreshold];
  // iou[i][j] for j < i, and each box's largest IoU with a better box.
  std::vector<float> iou(static_cast<size_t>(k * k), 0.f), iouMax(k, 0.f);
  for (int64_t i = 1; i < k; ++i)
    for (int64_t j = 0; j < i; ++j) {
      float v = overlap(boxes + 4 * order[i].box, boxes + 4 * order[j].box, normalized);
      iou[i * k + j] = v;
      iouMax[i] = std::max(iouMax[i], v);
    }
  if (order[0].score > post)
    out.push_back(order[0]);
  for (int64_t i = 1; i < k; ++i) {
    float minDecay = 1.f;
    for (int64_t j = 0; j < i; ++j) {
      float v = iou[i * k + j], mx = iouMax[j];
      float decay = gaussian ? std::exp((mx * mx - v * v) * sigma) : (1.f - v) / (1.f - mx);
      minDecay = std::min(minDecay, decay);
    }
    float decayed = minDecay * order[i].score;
    if (decayed > post)
      out.push_back({label, order[i].box, decayed});
  }
}
} // namespace

extern "C" PDK_EXPORT void pdk_multiclass_nms(const int64_t *ptrs, const int64_t *ints,
                                              const float *floats) {
  Params p{ints[nms::Background],      ints[nms::NmsTopK],          ints[nms::KeepTopK],
           ints[nms::Normalized] != 0, floats[nms::ScoreThreshold], floats[nms::NmsThreshold],
           floats[nms::NmsEta]};
  // The keep_top_k best over all labels, regrouped by label (`byBox`: and
  // in each label by box, as Paddle orders the stacked form).
  auto keepTop = [&](std::vector<Kept> &kept, bool byBox) {
    if (p.keepTopK <= -1 || static_cast<int64_t>(kept.size()) <= p.keepTopK)
      return;
    sortByScore(kept);
    kept.resize(p.keepTopK);
    std::stable_sort(kept.begin(), kept.end(), [&](const Kept &x, const Kept &y) {
      return x.label != y.label ? x.label < y.label : byBox && x.box < y.box;
    });
  };
  runNms(
      "multiclass_nms", ptrs, ints, nms::NumInts,
      [&](const float *scores, const float *boxes, int64_t c, int64_t m) {
        std::vector<Kept> kept; // by label, best first within a label
        for (int64_t label = 0; label < c; ++label) {
          if (label == p.background)
            continue;
          for (int32_t i : nmsOneClass(scores + label * m, boxes, m, p))
            kept.push_back({static_cast<int32_t>(label), i, scores[label * m + i]});
        }
        keepTop(kept, false);
        return kept;
      },
      [&](const float *scores, const float *boxes, int64_t c, int64_t m) {
        // Scores [m, C], boxes [m, C, 4]: each class's column and boxes,
        // its kept boxes in box order (Paddle sorts them so).
        std::vector<Kept> kept;
        std::vector<float> classScores(static_cast<size_t>(m)),
            classBoxes(static_cast<size_t>(4 * m));
        for (int64_t label = 0; label < c; ++label) {
          if (label == p.background)
            continue;
          for (int64_t i = 0; i < m; ++i) {
            classScores[i] = scores[i * c + label];
            std::memcpy(&classBoxes[4 * i], boxes + (i * c + label) * 4, 4 * sizeof(float));
          }
          std::vector<int32_t> picked = nmsOneClass(classScores.data(), classBoxes.data(), m, p);
          std::sort(picked.begin(), picked.end());
          for (int32_t i : picked)
            kept.push_back({static_cast<int32_t>(label), i, classScores[i]});
        }
        keepTop(kept, true);
        return kept;
      });
}

extern "C" PDK_EXPORT void pdk_matrix_nms(const int64_t *ptrs, const int64_t *ints,
                                          const float *floats) {
  namespace mn = matrixnms;
  runNms(
      "matrix_nms", ptrs, ints, mn::NumInts,
      [&](const float *scores, const float *boxes, int64_t c, int64_t m) {
        std::vector<Kept> kept;
        for (int64_t label = 0; label < c; ++label)
          if (label != ints[mn::Background])
            matrixNmsOneClass(scores + label * m, boxes, m, static_cast<int32_t>(label), ints,
                              floats, kept);
        // Best decayed score first over all labels, at most keep_top_k.
        sortByScore(kept);
        int64_t keep = ints[mn::KeepTopK];
        if (keep > -1 && keep < static_cast<int64_t>(kept.size()))
          kept.resize(keep);
        return kept;
      },
      [&](const float *, const float *, int64_t, int64_t) {
        kernelError = "matrix_nms: boxes grouped by RoisNum are not supported";
        return std::vector<Kept>();
      });
}

namespace {
/// A proposal: its corners and its score.
struct Proposal {
  float box[4];
  float score;
};

/// The proposals of one image (Paddle's ProposalForOneImage): the boxes
/// best first (stable for equal scores), at most pre_nms_topN; each anchor
/// moved and scaled by its deltas (times the variances, log-size deltas
/// clipped at log(1000 / 16)), clipped to the image, dropped when smaller
/// than min_size (at least 1) or, with the pixel offset, centred outside the
/// image; then greedy NMS (adaptive with eta) and the best post_nms_topN.
/// Nothing left gives one zero box with score 0, as in Paddle. The
/// arithmetic is Paddle's in float, term by term (the centres' 0.5 * width
/// in double), so the same boxes come out.
std::vector<Proposal> proposalsOfImage(const float *scores, const float *deltas,
                                       const float *anchors, const float *variances,
                                       const float *im, int64_t a, int64_t hw, const int64_t *ints,
                                       const float *floats) {
  namespace gp = proposals;
  int64_t count = a * hw;
  // Box i is anchor (h, w, a) = (i / A / W, i / A % W, i % A), read from the
  // [A, H, W] scores and [4A, H, W] deltas of the image.
  auto score = [&](int64_t i) { return scores[(i % a) * hw + i / a]; };
  std::vector<int64_t> order(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t x, int64_t y) { return score(x) > score(y); });
  int64_t pre = ints[gp::PreNmsTopN];
  if (pre > 0 && pre < count)
    order.resize(pre);

  float offset = ints[gp::PixelOffset] ? 1.f : 0.f;
  float imH = im[0], imW = im[1];
  float minSize = std::max(floats[gp::MinSize], 1.f);
  const float clipLog = static_cast<float>(std::log(1000.0 / 16.0));
  std::vector<Proposal> kept;
  for (int64_t i : order) {
    const float *an = anchors + 4 * i, *var = variances + 4 * i;
    float d[4];
    for (int64_t j = 0; j < 4; ++j)
      d[j] = deltas[(4 * (i % a) + j) * hw + i / a];
    float aw = an[2] - an[0] + offset, ah = an[3] - an[1] + offset;
    float acx = static_cast<float>(an[0] + 0.5 * aw), acy = static_cast<float>(an[1] + 0.5 * ah);
    float cx = var[0] * d[0] * aw + acx, cy = var[1] * d[1] * ah + acy;
    float bw = std::exp(std::min(var[2] * d[2], clipLog)) * aw;
    float bh = std::exp(std::min(var[3] * d[3], clipLog)) * ah;
    Proposal p{{cx - bw / 2, cy - bh / 2, cx + bw / 2 - offset, cy + bh / 2 - offset}, score(i)};
    for (int64_t j = 0; j < 4; ++j)
      p.box[j] = std::max(std::min(p.box[j], (j % 2 ? imH : imW) - offset), 0.f);
    float ws = p.box[2] - p.box[0] + offset, hs = p.box[3] - p.box[1] + offset;
    bool keep;
    if (ints[gp::PixelOffset]) {
      float xc = p.box[0] + ws / 2, yc = p.box[1] + hs / 2;
      if (ints[gp::ScaledSize]) {
        ws = (p.box[2] - p.box[0]) / im[2] + 1;
        hs = (p.box[3] - p.box[1]) / im[2] + 1;
      }
      keep = ws >= minSize && hs >= minSize && xc <= imW && yc <= imH;
    } else {
      keep = ws >= minSize && hs >= minSize;
    }
    if (keep)
      kept.push_back(p);
  }
  if (kept.empty())
    return {Proposal{{0.f, 0.f, 0.f, 0.f}, 0.f}};
  float threshold = floats[gp::NmsThresh];
  if (threshold <= 0.f)
    return kept;
  bool normalized = !ints[gp::PixelOffset];
  float eta = floats[gp::Eta];
  std::vector<Proposal> out;
  for (const Proposal &p : kept) {
    bool keepIt = true;
    for (const Proposal &q : out)
      if (overlap(p.box, q.box, normalized) > threshold) {
        keepIt = false;
        break;
      }
    if (!keepIt)
      continue;
    out.push_back(p);
    if (eta < 1.f && threshold > 0.5f)
      threshold *= eta;
  }
  int64_t post = ints[gp::PostNmsTopN];
  if (post > 0 && post < static_cast<int64_t>(out.size()))
    out.resize(post);
  return out;
}
} // namespace

extern "C" PDK_EXPORT void pdk_generate_proposals(const int64_t *ptrs, const int64_t *ints,
                                                  const float *floats) {
  namespace gp = proposals;
  auto in = [&](int64_t slot) { return static_cast<const float *>(ptrAt(ptrs, slot)); };
  int32_t *sel = static_cast<int32_t *>(ptrAt(ptrs, gp::NumSlots));
  Dims dims(ints + gp::NumInts);
  const int64_t *sd = dims.next(), *dd = dims.next(), *id = dims.next(), *ad = dims.next(),
                *vd = dims.next(), *od = dims.next();
  clearDestination(sel, od, sizeof(int32_t));
  if (!kernelError.empty())
    return;
  auto numel = [](const int64_t *d) {
    int64_t n = 1;
    for (int64_t i = 0; i < d[-1]; ++i)
      n *= d[i];
    return n;
  };
  int64_t n = sd[0], a = sd[1], hw = sd[2] * sd[3];
  int64_t imCols = ints[gp::ScaledSize] ? 3 : 2;
  if (dd[0] != n || dd[1] != 4 * a || dd[2] != sd[2] || dd[3] != sd[3] || id[0] != n ||
      id[1] != imCols || numel(ad) != 4 * a * hw || numel(vd) != 4 * a * hw) {
    kernelError = "generate_proposals: BboxDeltas must be [N, 4A, H, W], the image sizes [N, " +
                  std::to_string(imCols) + "] and Anchors / Variances hold H * W * A boxes for " +
                  "Scores [N, A, H, W] = [" + std::to_string(n) + ", " + std::to_string(a) + ", " +
                  std::to_string(sd[2]) + ", " + std::to_string(sd[3]) + "]";
    return;
  }
  int64_t capacity = (od[0] - 1 - n) / gp::EntryWords, total = 0;
  int32_t *entry = sel + 1 + n;
  for (int64_t img = 0; img < n; ++img) {
    std::vector<Proposal> kept = proposalsOfImage(
        in(gp::Scores) + img * a * hw, in(gp::Deltas) + img * 4 * a * hw, in(gp::Anchors),
        in(gp::Variances), in(gp::ImInfo) + img * imCols, a, hw, ints, floats);
    if (total + static_cast<int64_t>(kept.size()) > capacity) {
      kernelError = "generate_proposals: " + std::to_string(total + kept.size()) +
                    " proposals exceed the compiled bound of " + std::to_string(capacity);
      return;
    }
    sel[1 + img] = static_cast<int32_t>(kept.size());
    for (const Proposal &p : kept) {
      std::memcpy(entry, p.box, 4 * sizeof(float));
      std::memcpy(entry + 4, &p.score, sizeof(float));
      entry += gp::EntryWords;
    }
    total += static_cast<int64_t>(kept.size());
  }
  sel[0] = static_cast<int32_t>(total);
}

extern "C" PDK_EXPORT void pdk_distribute_fpn_proposals(const int64_t *ptrs, const int64_t *ints,
                                                        const float *) {
  const float *rois = static_cast<const float *>(ptrAt(ptrs, fpn::Rois));
  const int32_t *roisNum = static_cast<const int32_t *>(ptrAt(ptrs, fpn::RoisNum));
  int32_t *sel = static_cast<int32_t *>(ptrAt(ptrs, fpn::NumSlots));
  Dims dims(ints + fpn::NumInts);
  const int64_t *rd = dims.next(), *nd = dims.next(), *od = dims.next();
  clearDestination(sel, od, sizeof(int32_t));
  if (!kernelError.empty())
    return;
  int64_t r = rd[0], n = nd[0];
  int64_t minLevel = ints[fpn::MinLevel], maxLevel = ints[fpn::MaxLevel];
  int64_t levels = maxLevel - minLevel + 1;
  if (rd[-1] != 2 || rd[1] != 4 || nd[-1] != 1 || od[0] != levels + levels * n + 2 * r) {
    kernelError = "distribute_fpn_proposals: FpnRois must be [R, 4] and RoisNum [N]";
    return;
  }
  int64_t counted = 0;
  for (int64_t i = 0; i < n; ++i)
    counted += roisNum[i] < 0 ? r + 1 : roisNum[i];
  if (counted != r) {
    kernelError = "distribute_fpn_proposals: RoisNum counts " + std::to_string(counted) +
                  " RoIs (or a negative count) for " + std::to_string(r) + " rows of FpnRois";
    return;
  }
  bool pixel = ints[fpn::PixelOffset] != 0;
  float referScale = static_cast<float>(ints[fpn::ReferScale]);
  int32_t *perLevel = sel, *perImage = sel + levels, *restore = perImage + levels * n,
          *order = restore + r;
  std::vector<int64_t> level(static_cast<size_t>(r));
  for (int64_t i = 0; i < r; ++i) {
    // Paddle's arithmetic: the area with or without the +1 pixel extents
    // (0 for an inverted box), log2 in float.
    float area = boxArea(rois + 4 * i, !pixel);
    float scale = std::sqrt(area);
    auto lvl = static_cast<int64_t>(std::floor(std::log2(scale / referScale + 1e-6f) +
                                               static_cast<float>(ints[fpn::ReferLevel])));
    level[i] = std::min(maxLevel, std::max(lvl, minLevel)) - minLevel;
    ++perLevel[level[i]];
  }
  // Positions in the level-ordered list: by level, then input order.
  std::vector<int64_t> next(static_cast<size_t>(levels), 0);
  for (int64_t l = 1; l < levels; ++l)
    next[l] = next[l - 1] + perLevel[l - 1];
  int64_t row = 0;
  for (int64_t img = 0; img < n; ++img)
    for (int32_t j = 0; j < roisNum[img]; ++j, ++row) {
      int64_t pos = next[level[row]]++;
      order[pos] = static_cast<int32_t>(row);
      restore[row] = static_cast<int32_t>(pos);
      ++perImage[level[row] * n + img];
    }
}

extern "C" PDK_EXPORT void pdk_collect_fpn_proposals(const int64_t *ptrs, const int64_t *ints,
                                                     const float *) {
  const float *scores = static_cast<const float *>(ptrAt(ptrs, collectfpn::Scores));
  const int32_t *nums = static_cast<const int32_t *>(ptrAt(ptrs, collectfpn::RoisNum));
  int32_t *sel = static_cast<int32_t *>(ptrAt(ptrs, collectfpn::NumSlots));
  Dims dims(ints + collectfpn::NumInts);
  const int64_t *sd = dims.next(), *nd = dims.next(), *od = dims.next();
  clearDestination(sel, od, sizeof(int32_t));
  if (!kernelError.empty())
    return;
  int64_t r = sd[0], levels = nd[0], n = nd[1];
  int64_t k = std::min<int64_t>(ints[collectfpn::PostNmsTopN], r);
  if (sd[-1] != 1 || nd[-1] != 2 || od[-1] != 1 || od[0] != n + k) {
    kernelError = "collect_fpn_proposals: Scores must be [R] and RoisNum [L, N]";
    return;
  }
  // The image of every row of the concatenation, level by level.
  std::vector<int32_t> image(static_cast<size_t>(r));
  int64_t row = 0;
  for (int64_t l = 0; l < levels; ++l)
    for (int64_t img = 0; img < n; ++img) {
      int32_t count = nums[l * n + img];
      if (count < 0 || row + count > r) {
        kernelError = "collect_fpn_proposals: MultiLevelRoIsNum of level " + std::to_string(l) +
                      " counts more RoIs than the level has (or a negative count)";
        return;
      }
      for (int32_t j = 0; j < count; ++j)
        image[row++] = static_cast<int32_t>(img);
    }
  if (row != r) {
    kernelError = "collect_fpn_proposals: MultiLevelRoIsNum counts " + std::to_string(row) +
                  " RoIs for " + std::to_string(r) + " rows of MultiLevelRois";
    return;
  }
  std::vector<int32_t> order(static_cast<size_t>(r));
  std::iota(order.begin(), order.end(), 0);
  // A NaN score ranks last (a strict order for the sort).
  auto key = [&](int32_t i) { return std::isnan(scores[i]) ? -INFINITY : scores[i]; };
  std::sort(order.begin(), order.end(),
            [&](int32_t a, int32_t b) { return key(a) > key(b) || (key(a) == key(b) && a > b); });
  order.resize(static_cast<size_t>(k));
  std::stable_sort(order.begin(), order.end(),
                   [&](int32_t a, int32_t b) { return image[a] < image[b]; });
  for (int32_t i : order)
    ++sel[image[i]];
  std::copy(order.begin(), order.end(), sel + n);
}

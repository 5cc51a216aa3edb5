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
#include <utility>

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

/// Runs `perImage` (C x M scores and M x 4 boxes of one image -> its kept
/// boxes in output order) over the batch and writes the selection described
/// at nms:: in KernelABI.h; `what` names the op in errors.
template <typename PerImage>
void runNms(const char *what, const int64_t *ptrs, const int64_t *ints, int64_t numInts,
            PerImage perImage) {
  if (!kernelError.empty())
    return;
  const float *boxes = static_cast<const float *>(ptrAt(ptrs, nms::Boxes));
  const float *scores = static_cast<const float *>(ptrAt(ptrs, nms::Scores));
  int32_t *sel = static_cast<int32_t *>(ptrAt(ptrs, nms::NumSlots));
  Dims dims(ints + numInts);
  const int64_t *bd = dims.next(), *sd = dims.next(), *od = dims.next();
  if (bd[-1] != 3 || sd[-1] != 3 || od[-1] != 1 || bd[2] != 4 || bd[0] != sd[0] || bd[1] != sd[2]) {
    kernelError = std::string(what) + ": BBoxes must be [N, M, 4] and Scores [N, C, M]";
    return;
  }
  int64_t n = sd[0], c = sd[1], m = sd[2];
  int64_t capacity = (od[0] - 1 - n) / nms::EntryWords;
  int64_t total = 0;
  int32_t *entry = sel + 1 + n;
  for (int64_t img = 0; img < n; ++img) {
    std::vector<Kept> kept = perImage(scores + img * c * m, boxes + img * m * 4, c, m);
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
  sel[0] = static_cast<int32_t>(total);
  // Readers gather through the first entry even when nothing is kept.
  if (total == 0 && capacity > 0)
    std::fill(sel + 1 + n, sel + 1 + n + nms::EntryWords, 0);
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
  runNms("multiclass_nms", ptrs, ints, nms::NumInts,
         [&](const float *scores, const float *boxes, int64_t c, int64_t m) {
           std::vector<Kept> kept; // by label, best first within a label
           for (int64_t label = 0; label < c; ++label) {
             if (label == p.background)
               continue;
             for (int32_t i : nmsOneClass(scores + label * m, boxes, m, p))
               kept.push_back({static_cast<int32_t>(label), i, scores[label * m + i]});
           }
           if (p.keepTopK > -1 && static_cast<int64_t>(kept.size()) > p.keepTopK) {
             // The keep_top_k best over all labels, regrouped by label.
             sortByScore(kept);
             kept.resize(p.keepTopK);
             std::stable_sort(kept.begin(), kept.end(),
                              [](const Kept &x, const Kept &y) { return x.label < y.label; });
           }
           return kept;
         });
}

extern "C" PDK_EXPORT void pdk_matrix_nms(const int64_t *ptrs, const int64_t *ints,
                                          const float *floats) {
  namespace mn = matrixnms;
  runNms("matrix_nms", ptrs, ints, mn::NumInts,
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
         });
}

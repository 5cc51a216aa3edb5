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
// boxes are kept. Writes the selection described at nms:: in KernelABI.h.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <algorithm>
#include <map>
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
} // namespace

extern "C" PDK_EXPORT void pdk_multiclass_nms(const int64_t *ptrs, const int64_t *ints,
                                              const float *floats) {
  if (!kernelError.empty())
    return;
  const float *boxes = static_cast<const float *>(ptrAt(ptrs, nms::Boxes));
  const float *scores = static_cast<const float *>(ptrAt(ptrs, nms::Scores));
  int32_t *sel = static_cast<int32_t *>(ptrAt(ptrs, nms::NumSlots));
  Dims dims(ints + nms::NumInts);
  const int64_t *bd = dims.next(), *sd = dims.next(), *od = dims.next();
  if (bd[-1] != 3 || sd[-1] != 3 || od[-1] != 1 || bd[2] != 4 || bd[0] != sd[0] || bd[1] != sd[2]) {
    kernelError = "multiclass_nms: BBoxes must be [N, M, 4] and Scores [N, C, M]";
    return;
  }
  int64_t n = sd[0], c = sd[1], m = sd[2];
  int64_t capacity = (od[0] - 1 - n) / nms::EntryWords;
  Params p{ints[nms::Background],      ints[nms::NmsTopK],          ints[nms::KeepTopK],
           ints[nms::Normalized] != 0, floats[nms::ScoreThreshold], floats[nms::NmsThreshold],
           floats[nms::NmsEta]};
  int64_t total = 0;
  int32_t *entry = sel + 1 + n;
  for (int64_t img = 0; img < n; ++img) {
    const float *imgScores = scores + img * c * m, *imgBoxes = boxes + img * m * 4;
    // Kept boxes by label (std::map: Paddle's output goes by label).
    std::map<int32_t, std::vector<int32_t>> byLabel;
    int64_t kept = 0;
    for (int64_t label = 0; label < c; ++label) {
      if (label == p.background)
        continue;
      std::vector<int32_t> k = nmsOneClass(imgScores + label * m, imgBoxes, m, p);
      kept += static_cast<int64_t>(k.size());
      if (!k.empty())
        byLabel[static_cast<int32_t>(label)] = std::move(k);
    }
    if (p.keepTopK > -1 && kept > p.keepTopK) {
      // The keep_top_k best over all labels, regrouped by label.
      std::vector<std::pair<float, std::pair<int32_t, int32_t>>> all;
      for (const auto &[label, boxesKept] : byLabel)
        for (int32_t i : boxesKept)
          all.push_back({imgScores[label * m + i], {label, i}});
      std::stable_sort(all.begin(), all.end(),
                       [](const auto &x, const auto &y) { return x.first > y.first; });
      all.resize(p.keepTopK);
      byLabel.clear();
      for (const auto &[score, li] : all)
        byLabel[li.first].push_back(li.second);
      kept = p.keepTopK;
    }
    if (total + kept > capacity) {
      kernelError = "multiclass_nms: " + std::to_string(total + kept) +
                    " kept boxes exceed the compiled bound of " + std::to_string(capacity);
      return;
    }
    sel[1 + img] = static_cast<int32_t>(kept);
    for (const auto &[label, boxesKept] : byLabel)
      for (int32_t i : boxesKept) {
        entry[0] = static_cast<int32_t>(img);
        entry[1] = label;
        entry[2] = i;
        entry += nms::EntryWords;
      }
    total += kept;
  }
  sel[0] = static_cast<int32_t>(total);
  // Readers gather through the first entry even when nothing is kept.
  if (total == 0 && capacity > 0)
    std::fill(sel + 1 + n, sel + 1 + n + nms::EntryWords, 0);
}

//===- Sequence.cpp - sequence kernels: pooling, context, CRF decoding ----===//
//
// Ops over a batch of variable-length sequences (LoD: rows packed along
// dim 0 with lengths per sequence; viterbi_decode: padded to [N, T] with
// lengths), written as described at seqpool::, seqcontext::, crf:: and
// viterbi:: in KernelABI.h. The lengths come from the user at run time, so
// they are checked here against the rows before anything is read.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace pdk;

namespace {
/// Checks that `lengths` ([n], none negative) sum to the `rows` of `slot`;
/// sets kernelError naming `op` otherwise.
bool checkLengths(const char *op, const int64_t *lengths, int64_t n, int64_t rows,
                  const char *slot = "X") {
  int64_t total = 0;
  for (int64_t s = 0; s < n; ++s) {
    if (lengths[s] < 0) {
      kernelError = std::string(op) + ": sequence " + std::to_string(s) +
                    " has a negative length (" + std::to_string(lengths[s]) + ")";
      return false;
    }
    total += lengths[s];
  }
  if (total == rows)
    return true;
  kernelError = std::string(op) + ": the sequence lengths sum to " + std::to_string(total) +
                " but " + slot + " has " + std::to_string(rows) + " rows";
  return false;
}
} // namespace

extern "C" PDK_EXPORT void pdk_sequence_pool(const int64_t *ptrs, const int64_t *ints,
                                             const float *floats) {
  const float *x = static_cast<const float *>(ptrAt(ptrs, seqpool::X));
  const int64_t *lengths = static_cast<const int64_t *>(ptrAt(ptrs, seqpool::Lengths));
  void *out = ptrAt(ptrs, seqpool::NumSlots);
  Dims dims(ints + seqpool::NumInts);
  const int64_t *xd = dims.next(), *ld = dims.next(), *od = dims.next();
  bool index = ints[seqpool::Index] != 0;
  clearDestination(out, od, index ? sizeof(int32_t) : sizeof(float));
  if (!kernelError.empty())
    return;
  int64_t rows = xd[0], n = ld[0], width = 1;
  for (int64_t i = 1; i < xd[-1]; ++i)
    width *= xd[i];
  if (ld[-1] != 1 || od[0] != n) {
    kernelError = "sequence_pool: Lengths must be [N] and the result [N, ...]";
    return;
  }
  if (!checkLengths("sequence_pool", lengths, n, rows))
    return;
  auto type = static_cast<seqpool::Type>(ints[seqpool::PoolType]);
  float pad = floats[seqpool::PadValue];
  int64_t start = 0;
  for (int64_t s = 0; s < n; start += lengths[s], ++s) {
    int64_t len = lengths[s];
    const float *seq = x + start * width;
    if (index) {
      int32_t *idx = static_cast<int32_t *>(out) + s * width;
      for (int64_t j = 0; j < width; ++j) {
        int64_t best = -1;
        if (type == seqpool::Max)
          for (int64_t r = 0; r < len; ++r)
            if (best < 0 || seq[r * width + j] > x[best * width + j])
              best = start + r;
        idx[j] = static_cast<int32_t>(best);
      }
      continue;
    }
    float *y = static_cast<float *>(out) + s * width;
    for (int64_t j = 0; j < width; ++j) {
      if (len == 0) {
        y[j] = pad;
        continue;
      }
      switch (type) {
      case seqpool::Last:
        y[j] = seq[(len - 1) * width + j];
        break;
      case seqpool::First:
        y[j] = seq[j];
        break;
      case seqpool::Max: {
        float m = seq[j];
        for (int64_t r = 1; r < len; ++r)
          m = seq[r * width + j] > m ? seq[r * width + j] : m;
        y[j] = m;
        break;
      }
      default: {
        float sum = 0.f;
        for (int64_t r = 0; r < len; ++r)
          sum += seq[r * width + j];
        if (type == seqpool::Average)
          sum /= static_cast<float>(len);
        else if (type == seqpool::Sqrt)
          sum /= std::sqrt(static_cast<float>(len));
        y[j] = sum;
      }
      }
    }
  }
}

extern "C" PDK_EXPORT void pdk_sequence_context(const int64_t *ptrs, const int64_t *ints,
                                                const float *) {
  const float *x = static_cast<const float *>(ptrAt(ptrs, seqcontext::X));
  const int64_t *lengths = static_cast<const int64_t *>(ptrAt(ptrs, seqcontext::Lengths));
  float *out = static_cast<float *>(ptrAt(ptrs, seqcontext::NumSlots));
  Dims dims(ints + seqcontext::NumInts);
  const int64_t *xd = dims.next(), *ld = dims.next(), *od = dims.next();
  clearDestination(out, od, sizeof(float));
  if (!kernelError.empty())
    return;
  int64_t rows = xd[0], width = xd[1], start = ints[seqcontext::Start],
          length = ints[seqcontext::Length];
  if (xd[-1] != 2 || ld[-1] != 1 || od[0] != rows || od[1] != length * width) {
    kernelError = "sequence_conv: X must be [T, D], Lengths [N] and the context [T, L*D]";
    return;
  }
  if (!checkLengths("sequence_conv", lengths, ld[0], rows))
    return;
  int64_t first = 0;
  for (int64_t s = 0; s < ld[0]; first += lengths[s], ++s)
    for (int64_t t = 0; t < lengths[s]; ++t)
      for (int64_t k = 0; k < length; ++k) {
        int64_t r = t + start + k;
        if (r >= 0 && r < lengths[s])
          std::memcpy(out + ((first + t) * length + k) * width, x + (first + r) * width,
                      static_cast<size_t>(width) * sizeof(float));
      }
}

extern "C" PDK_EXPORT void pdk_crf_decoding(const int64_t *ptrs, const int64_t *ints,
                                            const float *) {
  const float *x = static_cast<const float *>(ptrAt(ptrs, crf::Emission));
  const float *w = static_cast<const float *>(ptrAt(ptrs, crf::Transition));
  const int64_t *lengths = static_cast<const int64_t *>(ptrAt(ptrs, crf::Lengths));
  int64_t *path = static_cast<int64_t *>(ptrAt(ptrs, crf::NumSlots));
  Dims dims(ints + crf::NumInts);
  const int64_t *xd = dims.next(), *wd = dims.next(), *ld = dims.next(), *od = dims.next();
  clearDestination(path, od, sizeof(int64_t));
  if (!kernelError.empty())
    return;
  int64_t rows = xd[0], tags = xd[1];
  if (xd[-1] != 2 || wd[-1] != 2 || wd[0] != tags + 2 || wd[1] != tags || od[0] != rows) {
    kernelError = "crf_decoding: Emission must be [T, D] and Transition [D + 2, D]";
    return;
  }
  if (!checkLengths("crf_decoding", lengths, ld[0], rows, "Emission"))
    return;
  std::vector<float> alpha(static_cast<size_t>(rows * tags));
  std::vector<int64_t> track(static_cast<size_t>(rows * tags));
  int64_t first = 0;
  for (int64_t s = 0; s < ld[0]; first += lengths[s], ++s) {
    int64_t len = lengths[s];
    if (len == 0)
      continue;
    const float *e = x + first * tags;
    float *a = alpha.data() + first * tags;
    int64_t *tr = track.data() + first * tags;
    for (int64_t i = 0; i < tags; ++i)
      a[i] = w[i] + e[i];
    for (int64_t k = 1; k < len; ++k)
      for (int64_t i = 0; i < tags; ++i) {
        float best = -INFINITY;
        int64_t from = 0;
        for (int64_t j = 0; j < tags; ++j) {
          float v = a[(k - 1) * tags + j] + w[(j + 2) * tags + i];
          if (v > best) {
            best = v;
            from = j;
          }
        }
        a[k * tags + i] = best + e[k * tags + i];
        tr[k * tags + i] = from;
      }
    float best = -INFINITY;
    int64_t tag = 0;
    for (int64_t i = 0; i < tags; ++i) {
      float v = a[(len - 1) * tags + i] + w[tags + i];
      if (v > best) {
        best = v;
        tag = i;
      }
    }
    path[first + len - 1] = tag;
    for (int64_t k = len - 1; k > 0; --k) {
      tag = tr[k * tags + tag];
      path[first + k - 1] = tag;
    }
  }
}

extern "C" PDK_EXPORT void pdk_viterbi_decode(const int64_t *ptrs, const int64_t *ints,
                                              const float *) {
  namespace vd = viterbi;
  const float *x = static_cast<const float *>(ptrAt(ptrs, vd::Input));
  const float *w = static_cast<const float *>(ptrAt(ptrs, vd::Transition));
  const int64_t *lengths = static_cast<const int64_t *>(ptrAt(ptrs, vd::Length));
  void *dst = ptrAt(ptrs, vd::NumSlots);
  Dims dims(ints + vd::NumInts);
  const int64_t *xd = dims.next(), *wd = dims.next(), *ld = dims.next(), *od = dims.next();
  bool paths = ints[vd::Index] != 0, bosEos = ints[vd::BosEos] != 0;
  clearDestination(dst, od, paths ? sizeof(int32_t) : sizeof(float));
  if (!kernelError.empty())
    return;
  int64_t n = xd[0], steps = xd[1], tags = xd[2];
  if (xd[-1] != 3 || wd[-1] != 2 || wd[0] != tags || wd[1] != tags || ld[-1] != 1 || ld[0] != n ||
      (bosEos && tags < 2)) {
    kernelError = "viterbi_decode: Input must be [N, T, D], Transition [D, D] (D >= 2 with "
                  "include_bos_eos_tag) and Length [N]";
    return;
  }
  int64_t longest = 0;
  for (int64_t s = 0; s < n; ++s) {
    if (lengths[s] < 0 || lengths[s] > steps) {
      kernelError = "viterbi_decode: Length[" + std::to_string(s) + "] is " +
                    std::to_string(lengths[s]) + ", outside [0, " + std::to_string(steps) + "]";
      return;
    }
    longest = std::max(longest, lengths[s]);
  }
  const float *start = w + (tags - 1) * tags, *stop = w + (tags - 2) * tags;
  int32_t *path = static_cast<int32_t *>(dst);
  if (paths)
    path[0] = static_cast<int32_t>(longest);
  std::vector<float> alpha(static_cast<size_t>(tags)), next(static_cast<size_t>(tags));
  std::vector<int32_t> back(static_cast<size_t>(std::max<int64_t>(steps, 1) * tags));
  for (int64_t s = 0; s < n && steps > 0; ++s) {
    int64_t len = lengths[s];
    const float *e = x + s * steps * tags;
    for (int64_t k = 0; k < tags; ++k)
      alpha[k] = e[k] + (bosEos ? start[k] : 0.f) + (bosEos && len == 1 ? stop[k] : 0.f);
    for (int64_t i = 1; i < len; ++i) {
      for (int64_t k = 0; k < tags; ++k) {
        float best = -INFINITY;
        int32_t from = 0;
        for (int64_t j = 0; j < tags; ++j) {
          float v = alpha[j] + w[j * tags + k];
          if (v > best) {
            best = v;
            from = static_cast<int32_t>(j);
          }
        }
        next[k] = best + e[i * tags + k] + (bosEos && i == len - 1 ? stop[k] : 0.f);
        back[(i - 1) * tags + k] = from;
      }
      alpha.swap(next);
    }
    int64_t tag = std::max_element(alpha.begin(), alpha.end()) - alpha.begin();
    if (!paths) {
      static_cast<float *>(dst)[s] = alpha[tag];
      continue;
    }
    int32_t *row = path + 1 + s * steps;
    for (int64_t i = len - 1; i >= 0; --i) {
      row[i] = static_cast<int32_t>(tag);
      if (i > 0)
        tag = back[(i - 1) * tags + tag];
    }
  }
}

extern "C" PDK_EXPORT void pdk_sequence_softmax(const int64_t *ptrs, const int64_t *ints,
                                                const float *) {
  const float *x = static_cast<const float *>(ptrAt(ptrs, seqsoftmax::X));
  const int64_t *lengths = static_cast<const int64_t *>(ptrAt(ptrs, seqsoftmax::Lengths));
  float *out = static_cast<float *>(ptrAt(ptrs, seqsoftmax::NumSlots));
  Dims dims(ints + seqsoftmax::NumInts);
  const int64_t *xd = dims.next(), *ld = dims.next(), *od = dims.next();
  clearDestination(out, od, sizeof(float));
  if (!kernelError.empty())
    return;
  int64_t rows = xd[0];
  if (xd[-1] == 2 && xd[1] != 1) {
    kernelError = "sequence_softmax: X must be [T] or [T, 1], got [" + std::to_string(rows) + ", " +
                  std::to_string(xd[1]) + "]";
    return;
  }
  if (!checkLengths("sequence_softmax", lengths, ld[0], rows))
    return;
  int64_t first = 0;
  for (int64_t s = 0; s < ld[0]; first += lengths[s], ++s) {
    const float *v = x + first;
    float *o = out + first;
    float top = -INFINITY;
    for (int64_t k = 0; k < lengths[s]; ++k)
      top = std::max(top, v[k]);
    float sum = 0.0f;
    for (int64_t k = 0; k < lengths[s]; ++k)
      sum += o[k] = std::exp(v[k] - top);
    for (int64_t k = 0; k < lengths[s]; ++k)
      o[k] /= sum;
  }
}

extern "C" PDK_EXPORT void pdk_sequence_expand(const int64_t *ptrs, const int64_t *ints,
                                               const float *) {
  const char *x = static_cast<const char *>(ptrAt(ptrs, seqexpand::X));
  const int64_t *lengths = static_cast<const int64_t *>(ptrAt(ptrs, seqexpand::Lengths));
  char *out = static_cast<char *>(ptrAt(ptrs, seqexpand::NumSlots));
  Dims dims(ints + seqexpand::NumInts);
  const int64_t *xd = dims.next(), *ld = dims.next(), *od = dims.next();
  size_t bytes = static_cast<size_t>(ints[seqexpand::ElemBytes]);
  clearDestination(out, od, bytes);
  if (!kernelError.empty())
    return;
  if (xd[0] != ld[0]) {
    kernelError = "sequence_expand: X has " + std::to_string(xd[0]) + " rows but Y has " +
                  std::to_string(ld[0]) + " sequences";
    return;
  }
  if (!checkLengths("sequence_expand", lengths, ld[0], od[0], "Y"))
    return;
  size_t row = bytes;
  for (int64_t d = 1; d < xd[-1]; ++d)
    row *= static_cast<size_t>(xd[d]);
  for (int64_t s = 0; s < ld[0]; ++s)
    for (int64_t k = 0; k < lengths[s]; ++k, out += row)
      std::memcpy(out, x + static_cast<size_t>(s) * row, row);
}

extern "C" PDK_EXPORT void pdk_lod_offsets(const int64_t *ptrs, const int64_t *ints,
                                           const float *) {
  const void *offsets = ptrAt(ptrs, lodoffsets::Offsets);
  int64_t *out = static_cast<int64_t *>(ptrAt(ptrs, lodoffsets::NumSlots));
  Dims dims(ints + lodoffsets::NumInts);
  const int64_t *od = dims.next(), *xd = dims.next(), *ld = dims.next();
  clearDestination(out, ld, sizeof(int64_t));
  if (!kernelError.empty())
    return;
  int64_t k = 1;
  for (int64_t d = 0; d < od[-1]; ++d)
    k *= od[d];
  bool is32 = ints[lodoffsets::OffsetsIs32] != 0;
  auto at = [&](int64_t i) -> int64_t {
    return is32 ? static_cast<const int32_t *>(offsets)[i]
                : static_cast<const int64_t *>(offsets)[i];
  };
  if (k < 2 || k - 1 != ld[0]) {
    kernelError = "lod_reset: the new LoD has " + std::to_string(k) +
                  " offsets; it needs at least 2 ([0, ..., T])";
    return;
  }
  if (at(0) != 0) {
    kernelError = "lod_reset: the new LoD must start at 0, got " + std::to_string(at(0));
    return;
  }
  for (int64_t i = 1; i < k; ++i) {
    if (at(i) < at(i - 1)) {
      kernelError = "lod_reset: the new LoD decreases at offset " + std::to_string(i) + " (" +
                    std::to_string(at(i - 1)) + " then " + std::to_string(at(i)) + ")";
      return;
    }
    out[i - 1] = at(i) - at(i - 1);
  }
  if (at(k - 1) != xd[0]) {
    kernelError = "lod_reset: the new LoD ends at " + std::to_string(at(k - 1)) + " but X has " +
                  std::to_string(xd[0]) + " rows";
    std::memset(out, 0, static_cast<size_t>(k - 1) * sizeof(int64_t));
  }
}

extern "C" PDK_EXPORT void pdk_sequence_reshape(const int64_t *ptrs, const int64_t *ints,
                                                const float *) {
  const int64_t *lengths = static_cast<const int64_t *>(ptrAt(ptrs, seqreshape::Lengths));
  int64_t *out = static_cast<int64_t *>(ptrAt(ptrs, seqreshape::NumSlots));
  Dims dims(ints + seqreshape::NumInts);
  const int64_t *ld = dims.next(), *xd = dims.next(), *od = dims.next();
  clearDestination(out, od, sizeof(int64_t));
  if (!kernelError.empty() || !checkLengths("sequence_reshape", lengths, ld[0], xd[0]))
    return;
  int64_t width = ints[seqreshape::Width], newDim = ints[seqreshape::NewDim];
  for (int64_t s = 0; s < ld[0]; ++s) {
    if (lengths[s] * width % newDim != 0) {
      kernelError = "sequence_reshape: sequence " + std::to_string(s) + " has " +
                    std::to_string(lengths[s] * width) + " values, not a multiple of new_dim " +
                    std::to_string(newDim);
      std::memset(out, 0, static_cast<size_t>(ld[0]) * sizeof(int64_t));
      return;
    }
    out[s] = lengths[s] * width / newDim;
  }
}

extern "C" PDK_EXPORT void pdk_box_clip(const int64_t *ptrs, const int64_t *ints, const float *) {
  const float *in = static_cast<const float *>(ptrAt(ptrs, boxclip::Input));
  const float *info = static_cast<const float *>(ptrAt(ptrs, boxclip::ImInfo));
  const int64_t *lengths = static_cast<const int64_t *>(ptrAt(ptrs, boxclip::Lengths));
  float *out = static_cast<float *>(ptrAt(ptrs, boxclip::NumSlots));
  Dims dims(ints + boxclip::NumInts);
  const int64_t *xd = dims.next(), *id = dims.next(), *ld = dims.next();
  clearDestination(out, xd, sizeof(float));
  if (!kernelError.empty() || !checkLengths("box_clip", lengths, ld[0], xd[0], "Input"))
    return;
  if (id[0] != ld[0]) {
    kernelError = "box_clip: ImInfo has " + std::to_string(id[0]) + " rows but Input has " +
                  std::to_string(ld[0]) + " images (sequences)";
    return;
  }
  int64_t row = 1;
  for (int64_t d = 1; d < xd[-1]; ++d)
    row *= xd[d];
  for (int64_t s = 0, at = 0; s < ld[0]; ++s) {
    // Paddle's ClipTiledBoxes: the image size at scale 1, rounded half
    // away from zero, less one pixel.
    float h = std::round(info[s * 3] / info[s * 3 + 2]) - 1.0f;
    float w = std::round(info[s * 3 + 1] / info[s * 3 + 2]) - 1.0f;
    for (int64_t e = 0; e < lengths[s] * row; ++e, ++at)
      out[at] = std::max(std::min(in[at], e % 2 == 0 ? w : h), 0.0f);
  }
}

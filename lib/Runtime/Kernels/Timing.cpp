//===- Timing.cpp - pdk_time_conv2d: times a convolution for the compiler ===//
//
// pd-kernel-layouts loads the kernel library and calls this to choose
// between layouts and between the direct and Winograd kernels.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <chrono>
#include <cstdlib>
#include <cstring>

using namespace pdk;

extern "C" {

/// Times pdk_conv2d for the compiler's layout choice (pd-kernel-layouts
/// with measurement): `ints` and `floats` are what the call would get (its
/// parameters, then rank and dims of x, w, bias?, residual?, out);
/// `present` says which of bias and residual exist (timing::HasBias,
/// HasResidual in KernelABI.h). Runs it once to create (and pack) the
/// primitive, then `iterations` times on zero-filled buffers, and returns
/// the fastest run in milliseconds (negative if the kernel failed or
/// refused). `winograd` (a timing::Algorithm) says which kernel, or
/// timing::Bf16 pdk_conv2d_bf16 (whose `ints` carry bconv::'s fields). The
/// primitives keyed by the temporary weights are dropped again.
PDK_EXPORT double pdk_time_conv2d(const int64_t *ints, const float *floats, int64_t present,
                                  int64_t iterations, int64_t winograd) {
  bool bf16 = winograd & timing::Bf16;
  Dims dims(ints + (bf16 ? int64_t{bconv::NumInts} : int64_t{conv::NumInts}));
  bool hasBias = present & timing::HasBias, hasRes = present & timing::HasResidual;
  // By slot (conv::Slot), then the destination.
  constexpr int kPtrs = conv::NumSlots + 1;
  const int64_t *shapes[kPtrs] = {dims.next(), dims.next(), hasBias ? dims.next() : nullptr,
                                  hasRes ? dims.next() : nullptr, dims.next()};
  int64_t ptrs[kPtrs] = {};
  std::vector<void *> owned;
  size_t wBytes = 0;
  for (int i = 0; i < kPtrs; ++i) {
    if (!shapes[i])
      continue;
    size_t bytes = 4;
    for (int64_t k = 0; k < shapes[i][-1]; ++k)
      bytes *= static_cast<size_t>(shapes[i][k]);
    bytes = (bytes + 63) / 64 * 64;
    void *p = std::aligned_alloc(64, bytes);
    if (!p) {
      for (void *q : owned)
        std::free(q);
      return -1;
    }
    std::memset(p, 0, bytes);
    owned.push_back(p);
    ptrs[i] = static_cast<int64_t>(reinterpret_cast<intptr_t>(p));
    if (i == conv::Filter)
      wBytes = bytes;
  }
  double best = -1;
  for (int64_t r = 0; r <= iterations && kernelError.empty(); ++r) {
    auto start = std::chrono::steady_clock::now();
    (bf16                            ? pdk_conv2d_bf16
     : winograd == timing::Winograd4 ? pdk_conv2d_winograd4
     : winograd == timing::Winograd2 ? pdk_conv2d_winograd
                                     : pdk_conv2d)(ptrs, ints, floats);
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (r > 0 && (best < 0 || ms < best))
      best = ms;
  }
  if (!kernelError.empty()) {
    kernelError.clear();
    best = -1;
  }
  const char *w = reinterpret_cast<const char *>(ptrs[conv::Filter]);
  pdk_forget(w, w + wBytes);
  for (void *q : owned)
    std::free(q);
  return best;
}

} // extern "C"

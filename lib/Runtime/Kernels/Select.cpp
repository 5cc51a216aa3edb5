//===- Select.cpp - pdk_nonzero: positions of the true elements ----------===//
//
// The compaction step of where_index and masked_select, whose result size
// depends on the values: the flat (row-major) positions of the non-zero
// elements of a boolean tensor, written as described at nonzero:: in
// KernelABI.h; the compiler gathers the results from them.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace pdk;

extern "C" PDK_EXPORT void pdk_nonzero(const int64_t *ptrs, const int64_t *ints, const float *) {
  const uint8_t *in = static_cast<const uint8_t *>(ptrAt(ptrs, nonzero::Input));
  int64_t *out = static_cast<int64_t *>(ptrAt(ptrs, nonzero::NumSlots));
  Dims dims(ints + nonzero::NumInts);
  const int64_t *id = dims.next(), *od = dims.next();
  clearDestination(out, od, sizeof(int64_t));
  if (!kernelError.empty())
    return;
  int64_t numel = 1;
  for (int64_t i = 0; i < id[-1]; ++i)
    numel *= id[i];
  if (od[-1] != 1 || od[0] < 1 + numel) {
    kernelError =
        "nonzero: the destination holds fewer than 1 + " + std::to_string(numel) + " positions";
    return;
  }
  int64_t count = 0;
  for (int64_t i = 0; i < numel; ++i)
    if (in[i])
      out[1 + count++] = i;
  out[0] = count;
}

//===- Array.cpp - tensor array kernels (write_to_array, read_from_array) -===//
//
// A tensor array is one buffer stacking its elements along a leading dim;
// these copy an element in or out, checking the index and the shapes at run
// time (KernelABI.h, arraywrite:: and arrayread::).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <algorithm>
#include <cstring>
#include <string>

using namespace pdk;

namespace {
int64_t indexValue(const void *p, bool is32) {
  return is32 ? *static_cast<const int32_t *>(p) : *static_cast<const int64_t *>(p);
}

/// The values of one element of an array whose dims are `d` (rank at [-1]).
int64_t elementSize(const int64_t *d) {
  int64_t n = 1;
  for (int64_t i = 1; i < d[-1]; ++i)
    n *= d[i];
  return n;
}
} // namespace

extern "C" PDK_EXPORT void pdk_array_write(const int64_t *ptrs, const int64_t *ints,
                                           const float *) {
  namespace aw = arraywrite;
  const char *x = static_cast<const char *>(ptrAt(ptrs, aw::X));
  const void *index = ptrAt(ptrs, aw::I);
  const char *array = static_cast<const char *>(ptrAt(ptrs, aw::Array));
  char *out = static_cast<char *>(ptrAt(ptrs, aw::NumSlots));
  Dims dims(ints + aw::NumInts);
  const int64_t *xd = dims.next(), *id = dims.next(), *ad = dims.next(), *od = dims.next();
  (void)id;
  size_t bytes = static_cast<size_t>(ints[aw::ElemBytes]);
  clearDestination(out, od, bytes);
  if (!kernelError.empty())
    return;
  int64_t i = indexValue(index, ints[aw::IndexIs32] != 0);
  if (i < 0) {
    kernelError = "write_to_array: index " + std::to_string(i) + " is negative";
    return;
  }
  bool same = xd[-1] + 1 == od[-1];
  for (int64_t d = 0; same && d < xd[-1]; ++d)
    same = xd[d] == od[d + 1];
  if (!same) {
    kernelError = "write_to_array: element " + std::to_string(i) +
                  " does not have the shape of the array's other elements";
    return;
  }
  int64_t elem = elementSize(od), rows = od[0];
  if (i >= rows) {
    kernelError = "write_to_array: index " + std::to_string(i) + " is past the array's " +
                  std::to_string(rows) + " elements";
    return;
  }
  if (ints[aw::HasArray] != 0)
    std::memcpy(out, array, static_cast<size_t>(std::min(ad[0], rows) * elem) * bytes);
  std::memcpy(out + static_cast<size_t>(i * elem) * bytes, x, static_cast<size_t>(elem) * bytes);
}

extern "C" PDK_EXPORT void pdk_array_read(const int64_t *ptrs, const int64_t *ints, const float *) {
  namespace ar = arrayread;
  const char *array = static_cast<const char *>(ptrAt(ptrs, ar::Array));
  const void *index = ptrAt(ptrs, ar::I);
  char *out = static_cast<char *>(ptrAt(ptrs, ar::NumSlots));
  Dims dims(ints + ar::NumInts);
  const int64_t *ad = dims.next(), *id = dims.next(), *od = dims.next();
  (void)id;
  size_t bytes = static_cast<size_t>(ints[ar::ElemBytes]);
  clearDestination(out, od, bytes);
  if (!kernelError.empty())
    return;
  int64_t i = indexValue(index, ints[ar::IndexIs32] != 0), n = ad[0];
  if (i < 0 || i >= n) {
    kernelError = "read_from_array: index " + std::to_string(i) + " is outside the array's " +
                  std::to_string(n) + " elements";
    return;
  }
  int64_t elem = elementSize(ad);
  std::memcpy(out, array + static_cast<size_t>(i * elem) * bytes,
              static_cast<size_t>(elem) * bytes);
}

//===- Select.cpp - pdk_nonzero and pdk_unique: data-sized selections -----===//
//
// The selection steps of ops whose result size depends on the values: the
// flat (row-major) positions of the non-zero elements of a boolean tensor
// (where_index, masked_select) and the distinct slices of a tensor
// (unique), written as described at nonzero:: and unique:: in
// KernelABI.h; the compiler gathers the results from them.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <algorithm>
#include <numeric>

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

namespace {
/// Fills `sel` (unique:: layout) for `rows` slices of `len` elements each,
/// element k of slice r at x[(k / inner * rows + r) * inner + k % inner].
template <typename T>
void uniqueSlices(const T *x, int64_t outer, int64_t rows, int64_t inner, bool sorted,
                  int32_t *sel) {
  int64_t len = outer * inner;
  auto at = [&](int64_t r, int64_t k) { return x[(k / inner * rows + r) * inner + k % inner]; };
  auto less = [&](int64_t a, int64_t b) {
    for (int64_t k = 0; k < len; ++k) {
      T p = at(a, k), q = at(b, k);
      if (p < q)
        return true;
      if (q < p)
        return false;
    }
    return false;
  };
  std::vector<int64_t> order(static_cast<size_t>(rows));
  std::iota(order.begin(), order.end(), 0);
  // Stable: the first row of each run of equal slices is where it first
  // appears.
  std::stable_sort(order.begin(), order.end(), less);
  std::vector<int64_t> group(static_cast<size_t>(rows)), first;
  for (int64_t p = 0; p < rows; ++p) {
    if (p == 0 || less(order[p - 1], order[p]))
      first.push_back(order[p]);
    group[order[p]] = static_cast<int64_t>(first.size()) - 1;
  }
  auto k = static_cast<int64_t>(first.size());
  std::vector<int64_t> rank(static_cast<size_t>(k));
  std::iota(rank.begin(), rank.end(), 0);
  if (!sorted) {
    // Renumber the distinct slices by their first appearance.
    std::vector<int64_t> byFirst(rank);
    std::sort(byFirst.begin(), byFirst.end(),
              [&](int64_t a, int64_t b) { return first[a] < first[b]; });
    for (int64_t i = 0; i < k; ++i)
      rank[byFirst[i]] = i;
  }
  int32_t *firsts = sel + 1, *inverse = firsts + rows, *counts = inverse + rows;
  sel[0] = static_cast<int32_t>(k);
  for (int64_t g = 0; g < k; ++g)
    firsts[rank[g]] = static_cast<int32_t>(first[g]);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t g = rank[group[r]];
    inverse[r] = static_cast<int32_t>(g);
    ++counts[g];
  }
}
} // namespace

extern "C" PDK_EXPORT void pdk_unique(const int64_t *ptrs, const int64_t *ints, const float *) {
  const void *in = ptrAt(ptrs, unique::Input);
  auto *sel = static_cast<int32_t *>(ptrAt(ptrs, unique::NumSlots));
  Dims dims(ints + unique::NumInts);
  const int64_t *id = dims.next(), *od = dims.next();
  clearDestination(sel, od, sizeof(int32_t));
  if (!kernelError.empty())
    return;
  int64_t rank = id[-1], axis = ints[unique::Axis];
  if (axis < 0 || axis >= rank) {
    kernelError = "unique: axis " + std::to_string(axis) + " is out of range for rank " +
                  std::to_string(rank);
    return;
  }
  int64_t outer = 1, inner = 1, rows = id[axis];
  for (int64_t i = 0; i < axis; ++i)
    outer *= id[i];
  for (int64_t i = axis + 1; i < rank; ++i)
    inner *= id[i];
  if (od[-1] != 1 || od[0] != 1 + 3 * rows || rows > INT32_MAX) {
    kernelError = "unique: the destination must hold 1 + 3 * " + std::to_string(rows) + " words";
    return;
  }
  bool sorted = ints[unique::Sorted] != 0;
  switch (ints[unique::Elem]) {
  case unique::F32:
    return uniqueSlices(static_cast<const float *>(in), outer, rows, inner, sorted, sel);
  case unique::F64:
    return uniqueSlices(static_cast<const double *>(in), outer, rows, inner, sorted, sel);
  case unique::I32:
    return uniqueSlices(static_cast<const int32_t *>(in), outer, rows, inner, sorted, sel);
  case unique::I64:
    return uniqueSlices(static_cast<const int64_t *>(in), outer, rows, inner, sorted, sel);
  default:
    kernelError = "unique: element kind " + std::to_string(ints[unique::Elem]) + " is unknown";
  }
}

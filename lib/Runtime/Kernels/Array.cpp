//===- Array.cpp - tensor array kernels -----------------------------------===//
//
// A tensor array is one buffer stacking its elements along a leading dim;
// write_to_array and read_from_array copy an element in or out, checking the
// index and the shapes at run time (KernelABI.h, arraywrite:: and
// arrayread::). Fluid's DynamicRNN ops turn a LoD batch into such an array
// over time steps and back through a rank table (rankTable:: and after).
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

//===----------------------------------------------------------------------===//
// Fluid's DynamicRNN: rank tables and the arrays over time steps they index
// (KernelABI.h, rankTable:: ... shrinkMemory::).
//===----------------------------------------------------------------------===//

namespace {
/// A rank table int64 [N, 2] (dims `d`), checked: its indices a permutation
/// of 0 ... N - 1 and its lengths >= 0. `rankOf[i]` is sequence i's row and
/// `offset[i]` the first row of sequence i in the packed batch.
struct RankTable {
  const int64_t *rows = nullptr;
  int64_t n = 0, total = 0, longest = 0;
  std::vector<int64_t> rankOf, offset;

  bool load(const char *op, const void *p, const int64_t *d) {
    rows = static_cast<const int64_t *>(p);
    n = d[0];
    rankOf.assign(static_cast<size_t>(n), -1);
    std::vector<int64_t> lens(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) {
      int64_t i = index(j), len = length(j);
      if (i < 0 || i >= n || rankOf[static_cast<size_t>(i)] >= 0 || len < 0) {
        kernelError = std::string(op) + ": row " + std::to_string(j) +
                      " of the rank table is not a (sequence index, length) pair of a " +
                      std::to_string(n) + "-sequence table";
        return false;
      }
      rankOf[static_cast<size_t>(i)] = j;
      lens[static_cast<size_t>(i)] = len;
      longest = std::max(longest, len);
    }
    offset.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      offset[static_cast<size_t>(i)] = total;
      total += lens[static_cast<size_t>(i)];
    }
    return true;
  }
  int64_t index(int64_t j) const { return rows[2 * j]; }
  int64_t length(int64_t j) const { return rows[2 * j + 1]; }
};
} // namespace

extern "C" PDK_EXPORT void pdk_lod_rank_table(const int64_t *ptrs, const int64_t *ints,
                                              const float *) {
  const int64_t *lengths = static_cast<const int64_t *>(ptrAt(ptrs, rankTable::Lengths));
  int64_t *out = static_cast<int64_t *>(ptrAt(ptrs, rankTable::NumSlots));
  Dims dims(ints + rankTable::NumInts);
  const int64_t *ld = dims.next(), *od = dims.next();
  clearDestination(out, od, sizeof(int64_t));
  if (!kernelError.empty())
    return;
  int64_t n = ld[0];
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    if (lengths[i] < 0) {
      kernelError = "lod_rank_table: sequence " + std::to_string(i) + " has length " +
                    std::to_string(lengths[i]);
      return;
    }
    order[static_cast<size_t>(i)] = i;
  }
  // Longest first; equal lengths keep their batch order (as Paddle).
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return lengths[a] > lengths[b]; });
  for (int64_t j = 0; j < n; ++j) {
    out[2 * j] = order[static_cast<size_t>(j)];
    out[2 * j + 1] = lengths[order[static_cast<size_t>(j)]];
  }
}

extern "C" PDK_EXPORT void pdk_rank_table_info(const int64_t *ptrs, const int64_t *ints,
                                               const float *) {
  namespace ri = rankInfo;
  int64_t *out = static_cast<int64_t *>(ptrAt(ptrs, ri::NumSlots));
  Dims dims(ints + ri::NumInts);
  const int64_t *td = dims.next(), *od = dims.next();
  clearDestination(out, od, sizeof(int64_t));
  RankTable table;
  if (!kernelError.empty() || !table.load("rank table", ptrAt(ptrs, ri::Table), td))
    return;
  switch (ints[ri::Kind]) {
  case ri::MaxLength:
    out[0] = table.longest;
    break;
  case ri::TotalLength:
    out[0] = table.total;
    break;
  default:
    for (int64_t j = 0; j < table.n; ++j)
      out[table.index(j)] = table.length(j);
  }
}

namespace {
/// The operands of a lodArray:: call (X, a rank table, Out of X's element
/// type), the destination cleared and the table checked: `ok` false after
/// an error.
struct TableCall {
  const char *x;
  char *out;
  const int64_t *xd, *od;
  size_t rowBytes; // one row of X (pdk_array_to_lod: of Out)
  RankTable table;
  bool ok;

  TableCall(const char *op, const int64_t *ptrs, const int64_t *ints, bool rowsOfOut) {
    namespace la = lodArray;
    x = static_cast<const char *>(ptrAt(ptrs, la::X));
    out = static_cast<char *>(ptrAt(ptrs, la::NumSlots));
    Dims dims(ints + la::NumInts);
    xd = dims.next();
    const int64_t *td = dims.next();
    od = dims.next();
    size_t bytes = static_cast<size_t>(ints[la::ElemBytes]);
    rowBytes = static_cast<size_t>(elementSize(rowsOfOut ? od : xd)) * bytes;
    clearDestination(out, od, bytes);
    ok = kernelError.empty() && table.load(op, ptrAt(ptrs, la::Table), td);
  }
};
} // namespace

extern "C" PDK_EXPORT void pdk_lod_to_array(const int64_t *ptrs, const int64_t *ints,
                                            const float *) {
  TableCall c("lod_tensor_to_array", ptrs, ints, false);
  if (!c.ok)
    return;
  if (c.xd[0] != c.table.total) {
    kernelError = "lod_tensor_to_array: X has " + std::to_string(c.xd[0]) +
                  " rows but the rank table's sequences " + std::to_string(c.table.total);
    return;
  }
  int64_t steps = c.od[0], n = c.od[1];
  for (int64_t j = 0; j < n && j < c.table.n; ++j) {
    int64_t first = c.table.offset[static_cast<size_t>(c.table.index(j))];
    for (int64_t t = 0; t < c.table.length(j) && t < steps; ++t)
      std::memcpy(c.out + static_cast<size_t>(t * n + j) * c.rowBytes,
                  c.x + static_cast<size_t>(first + t) * c.rowBytes, c.rowBytes);
  }
}

extern "C" PDK_EXPORT void pdk_array_to_lod(const int64_t *ptrs, const int64_t *ints,
                                            const float *) {
  TableCall c("array_to_lod_tensor", ptrs, ints, true);
  if (!c.ok)
    return;
  int64_t steps = c.xd[0], n = c.xd[1];
  if (n != c.table.n || c.od[0] != c.table.total) {
    kernelError = "array_to_lod_tensor: the array's elements have " + std::to_string(n) +
                  " rows for a rank table of " + std::to_string(c.table.n) + " sequences";
    return;
  }
  if (c.table.longest > steps) {
    kernelError = "array_to_lod_tensor: the array has " + std::to_string(steps) +
                  " elements but sequence " + std::to_string(c.table.index(0)) + " is " +
                  std::to_string(c.table.longest) + " steps long";
    return;
  }
  for (int64_t j = 0; j < n; ++j) {
    int64_t first = c.table.offset[static_cast<size_t>(c.table.index(j))];
    for (int64_t t = 0; t < c.table.length(j); ++t)
      std::memcpy(c.out + static_cast<size_t>(first + t) * c.rowBytes,
                  c.x + static_cast<size_t>(t * n + j) * c.rowBytes, c.rowBytes);
  }
}

extern "C" PDK_EXPORT void pdk_shrink_memory(const int64_t *ptrs, const int64_t *ints,
                                             const float *) {
  namespace sm = shrinkMemory;
  const char *x = static_cast<const char *>(ptrAt(ptrs, sm::X));
  char *out = static_cast<char *>(ptrAt(ptrs, sm::NumSlots));
  bool hasLengths = ints[sm::HasLengths] != 0;
  Dims dims(ints + sm::NumInts);
  const int64_t *xd = dims.next(), *id = dims.next(), *td = dims.next();
  const int64_t *ld = hasLengths ? dims.next() : nullptr;
  (void)id;
  size_t bytes = static_cast<size_t>(ints[sm::ElemBytes]);
  RankTable table;
  if (!kernelError.empty() || !table.load("shrink_rnn_memory", ptrAt(ptrs, sm::Table), td))
    return;
  int64_t step = indexValue(ptrAt(ptrs, sm::I), ints[sm::IndexIs32] != 0);
  // The ranked lengths decrease: the sequences longer than `step` lead.
  int64_t keep = 0;
  while (keep < table.n && table.length(keep) > step)
    ++keep;
  int64_t rows = xd[0];
  size_t rowBytes = static_cast<size_t>(elementSize(xd)) * bytes;
  int64_t keepRows = std::min(keep, rows);
  if (hasLengths) {
    // X's first `keep` sequences.
    const int64_t *lengths = static_cast<const int64_t *>(ptrAt(ptrs, sm::Lengths));
    keepRows = 0;
    for (int64_t j = 0; j < keep && j < ld[0]; ++j)
      keepRows += lengths[j];
    if (keepRows > rows) {
      kernelError = "shrink_rnn_memory: X's sequences cover " + std::to_string(keepRows) +
                    " rows, X has " + std::to_string(rows);
      return;
    }
  }
  std::memcpy(out, x, static_cast<size_t>(keepRows) * rowBytes);
  std::memset(out + static_cast<size_t>(keepRows) * rowBytes, 0,
              static_cast<size_t>(rows - keepRows) * rowBytes);
}

extern "C" PDK_EXPORT void pdk_reorder_by_rank(const int64_t *ptrs, const int64_t *ints,
                                               const float *) {
  TableCall c("reorder_lod_tensor_by_rank", ptrs, ints, false);
  if (!c.ok)
    return;
  if (c.xd[0] != c.table.n) {
    kernelError = "reorder_lod_tensor_by_rank: X has " + std::to_string(c.xd[0]) +
                  " rows for a rank table of " + std::to_string(c.table.n) + " sequences";
    return;
  }
  for (int64_t j = 0; j < c.table.n; ++j)
    std::memcpy(c.out + static_cast<size_t>(j) * c.rowBytes,
                c.x + static_cast<size_t>(c.table.index(j)) * c.rowBytes, c.rowBytes);
}

extern "C" PDK_EXPORT void pdk_reorder_sequences(const int64_t *ptrs, const int64_t *ints,
                                                 const float *) {
  namespace rs = reorderSequences;
  const char *x = static_cast<const char *>(ptrAt(ptrs, rs::X));
  const int64_t *lengths = static_cast<const int64_t *>(ptrAt(ptrs, rs::Lengths));
  char *out = static_cast<char *>(ptrAt(ptrs, rs::NumSlots));
  Dims dims(ints + rs::NumInts);
  const int64_t *xd = dims.next(), *td = dims.next(), *ld = dims.next(), *od = dims.next();
  size_t bytes = static_cast<size_t>(ints[rs::ElemBytes]);
  clearDestination(out, od, bytes);
  RankTable table;
  if (!kernelError.empty() || !table.load("reorder_lod_tensor_by_rank", ptrAt(ptrs, rs::Table), td))
    return;
  int64_t n = ld[0], total = 0;
  std::vector<int64_t> first(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    first[static_cast<size_t>(i)] = total;
    total += lengths[i] < 0 ? 0 : lengths[i];
  }
  if (n != table.n || total != xd[0]) {
    kernelError = "reorder_lod_tensor_by_rank: X has " + std::to_string(n) + " sequences of " +
                  std::to_string(total) + " rows (X: " + std::to_string(xd[0]) +
                  ") for a rank table of " + std::to_string(table.n) + " sequences";
    return;
  }
  size_t rowBytes = static_cast<size_t>(elementSize(xd)) * bytes;
  char *at = out;
  for (int64_t j = 0; j < n; ++j) {
    int64_t i = table.index(j);
    size_t len = static_cast<size_t>(std::max<int64_t>(lengths[i], 0)) * rowBytes;
    std::memcpy(at, x + static_cast<size_t>(first[static_cast<size_t>(i)]) * rowBytes, len);
    at += len;
  }
}

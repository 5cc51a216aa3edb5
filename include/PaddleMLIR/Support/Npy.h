//===- Npy.h - reading and writing NumPy .npy and .npz files ----*- C++ -*-===//
//
// Used by paddle-run (inputs and outputs), paddle-calib-stats and
// paddle-compile's calibration samples. Needs only the runtime's dtype
// enum, so the library links libpdrt and nothing of MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_SUPPORT_NPY_H
#define PADDLEMLIR_SUPPORT_NPY_H

#include "pdrt.h"

#include <string>
#include <utility>
#include <vector>

namespace npy {
struct Array {
  pdrt_dtype dtype = PDRT_DTYPE_INVALID;
  std::vector<int64_t> shape;
  std::vector<char> data;
};
/// Reads a C-order .npy (format 1.x-3.x); false with `error` on anything else.
bool read(const std::string &path, Array &out, std::string &error);
/// Reads every member of an uncompressed .npz (np.savez) in archive order,
/// named without the ".npy" suffix; false with `error` naming the file (and
/// the member) on anything else, compressed members included.
bool readNpz(const std::string &path, std::vector<std::pair<std::string, Array>> &out,
             std::string &error);
bool write(const std::string &path, pdrt_dtype dtype, const int64_t *shape, int64_t rank,
           const void *data, std::string &error);
} // namespace npy

#endif // PADDLEMLIR_SUPPORT_NPY_H

//===- Npy.h - reading and writing NumPy .npy files -------------*- C++ -*-===//
#ifndef PADDLEMLIR_TOOLS_NPY_H
#define PADDLEMLIR_TOOLS_NPY_H

#include "pdrt.h"

#include <string>
#include <vector>

namespace npy {
struct Array {
  pdrt_dtype dtype = PDRT_DTYPE_INVALID;
  std::vector<int64_t> shape;
  std::vector<char> data;
};
/// Reads a C-order .npy (format 1.x-3.x); false with `error` on anything else.
bool read(const std::string &path, Array &out, std::string &error);
bool write(const std::string &path, pdrt_dtype dtype, const int64_t *shape, int64_t rank,
           const void *data, std::string &error);
} // namespace npy

#endif

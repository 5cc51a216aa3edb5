//===- Operands.h - reading a kernel call's operands (no oneDNN) -*- C++ -*-===//
//
// What every pd.kernel_call callee needs to read its `ptrs` and `ints`
// (KernelABI.h), without oneDNN: Common.h (libpdrt_kernels) includes it,
// and so does Comm.cpp, which libpdrt_cuda compiles in too (a cuda
// artifact's collectives run on the same communicator code without the
// kernel library and its oneDNN).
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_RUNTIME_KERNELS_OPERANDS_H
#define PADDLEMLIR_RUNTIME_KERNELS_OPERANDS_H

#include <cstdint>

#define PDK_EXPORT __attribute__((visibility("default")))

namespace pdk {
/// Reads the rank-prefixed operand dims that follow a kernel's parameters.
struct Dims {
  const int64_t *p;
  explicit Dims(const int64_t *start) : p(start) {}
  /// The dims of the next operand (its rank is at [-1]).
  const int64_t *next() {
    const int64_t *d = p + 1;
    p += 1 + *p;
    return d;
  }
};

inline void *ptrAt(const int64_t *ptrs, int64_t i) { return reinterpret_cast<void *>(ptrs[i]); }
} // namespace pdk

extern "C" {
/// The first error of the communicator's ops on this thread since the last
/// call, or null (Comm.cpp; libpdrt_kernels' pdk_take_error passes it on).
PDK_EXPORT const char *pdk_comm_take_error();
}

#endif // PADDLEMLIR_RUNTIME_KERNELS_OPERANDS_H

//===- BackendSupport.h - helpers of the communication backends -*- C++ -*-===//
//
// What the MPI and NCCL backends (libpdrt_mpi.so, libpdrt_nccl.so) both
// need for the pdcomm_backend table of CommBackend.h: its error convention
// and the way messages give a time.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_RUNTIME_COMM_BACKENDSUPPORT_H
#define PADDLEMLIR_RUNTIME_COMM_BACKENDSUPPORT_H

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace pdcomm {
/// Writes `msg` into the caller's error buffer (`n` bytes) and returns the
/// table's failure code.
inline int fail(char *err, size_t n, const std::string &msg) {
  std::snprintf(err, n, "%s", msg.c_str());
  return 1;
}

/// This process's rank on its node as the launcher gives it (Open MPI's
/// OMPI_COMM_WORLD_LOCAL_RANK, an MPICH-style launcher's MPI_LOCALRANKID),
/// else `fallback`. A rank uses the GPU of its local rank modulo the GPU
/// count: the NCCL backend and libpdrt_cuda (which opens the instance's
/// GPU) both choose it with this, so that they agree.
inline int launcherLocalRank(int fallback) {
  for (const char *name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID"})
    if (const char *v = std::getenv(name))
      return std::atoi(v);
  return fallback;
}

/// A duration for a message ("2.5 s").
inline std::string seconds(double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", t);
  return buf;
}
} // namespace pdcomm

#endif // PADDLEMLIR_RUNTIME_COMM_BACKENDSUPPORT_H

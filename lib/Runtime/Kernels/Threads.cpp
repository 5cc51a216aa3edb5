//===- Threads.cpp - pdk_parallel_for, pdk_set_num_threads ---------------===//
//
// The OpenMP pool that oneDNN's primitives and the generated code's
// parallel loops share. The runtime's team-size policy (how many threads a
// run gets) is lib/Runtime/Threads.cpp; it calls pdk_set_num_threads.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <omp.h>

#include <algorithm>
#include <cstdlib>

extern "C" {

/// Runs task(record, lo, hi) over [0, n) split into one contiguous share per
/// thread of the OpenMP pool (the one oneDNN's primitives use, so the two
/// never oversubscribe the cores; OMP_NUM_THREADS sets its size, default the
/// cores). Generated code calls it for every outlined op pd-parallelize-ops
/// split; `work` is the op's iteration count. Below PDK_PARALLEL_GRAIN
/// iterations per thread (default 32768), inside another parallel region,
/// or with one thread, the task runs once on the calling thread.
PDK_EXPORT void pdk_parallel_for(void (*task)(void *, int64_t, int64_t), void *record, int64_t n,
                                 int64_t work) {
  static const int64_t grain = [] {
    const char *env = std::getenv("PDK_PARALLEL_GRAIN");
    long long v = env ? std::atoll(env) : 0;
    return v > 0 ? static_cast<int64_t>(v) : int64_t{32768};
  }();
  if (n <= 0)
    return;
  int64_t threads = omp_in_parallel() ? 1 : omp_get_max_threads();
  threads = std::min({threads, n, std::max<int64_t>(1, work / grain)});
  if (threads <= 1) {
    task(record, 0, n);
    return;
  }
#pragma omp parallel num_threads(threads)
  {
    int64_t id = omp_get_thread_num(), k = omp_get_num_threads();
    int64_t lo = n * id / k, hi = n * (id + 1) / k;
    if (lo < hi)
      task(record, lo, hi);
  }
}

/// The team size of this thread's next parallel regions (oneDNN's and
/// pdk_parallel_for's): the runtime sets it before every run (Threads.h).
PDK_EXPORT void pdk_set_num_threads(int64_t n) {
  if (n > 0 && n != omp_get_max_threads())
    omp_set_num_threads(static_cast<int>(n));
}

/// Whether this thread runs inside a parallel region (the runtime's memory
/// budget cannot stop a run there, lib/Runtime/Heap.h).
PDK_EXPORT int64_t pdk_in_parallel() { return omp_in_parallel() ? 1 : 0; }

} // extern "C"

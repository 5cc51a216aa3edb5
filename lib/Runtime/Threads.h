//===- Threads.h - how many threads a run of a model uses -------*- C++ -*-===//
//
// The runtime's threading policy (docs/CodeGen.md, "Threads under load").
// Kernels and generated loops run on libgomp's pool; the runtime picks the
// team size of every run on the calling thread:
//
//   cap   = the instance's setting (pdrt_instance_set_num_threads), else
//           PDRT_NUM_THREADS, else OMP_NUM_THREADS, else the CPUs this
//           process may use (affinity mask, lowered to the cgroup quota)
//   free  = those CPUs less the cores other processes kept busy during
//           this process's recent runs (LoadMeter)
//   team  = max(1, min(cap, free / runs of this process in flight))
//
// so a run never waits at a barrier for a thread that another process (or
// another instance of this one) keeps off its core. PDRT_ADAPTIVE_THREADS=0
// makes the team the cap. No OpenMP here: the kernels library applies the
// number (pdk_set_num_threads).
//
//===----------------------------------------------------------------------===//

#ifndef PADDLE_MLIR_RUNTIME_THREADS_H
#define PADDLE_MLIR_RUNTIME_THREADS_H

#include <cstdint>
#include <string>
#include <vector>

namespace pdrt {

/// CPUs allowed by a cgroup v2 `cpu.max` text ("max 100000", "150000
/// 100000"): the quota over the period rounded up, or 0 for no limit (and
/// for text that is not a quota).
int cpusFromCpuMax(const std::string &text);
/// The same for cgroup v1 (`cpu.cfs_quota_us`, `cpu.cfs_period_us`; a
/// quota of -1 is no limit).
int cpusFromCfs(long long quotaUs, long long periodUs);
/// The lowest CPU limit along this process's cgroup and its parents, read
/// from `procCgroup` (the text of /proc/self/cgroup) under `cgroupRoot`
/// (/sys/fs/cgroup); 0 when none is set.
int cgroupCpuLimit(const std::string &procCgroup, const std::string &cgroupRoot);

/// The CPUs of this process's affinity mask (all online CPUs if unknown).
std::vector<int> affinityCpus();

/// The default team size and what set it: "PDRT_NUM_THREADS",
/// "OMP_NUM_THREADS", "cgroup" or "affinity". Computed once per process.
struct ThreadCap {
  int threads = 1;
  const char *source = "affinity";
  int cpus = 1;               // CPUs this process may use (affinity, cgroup)
  bool cgroupLimited = false; // the cgroup quota is below the affinity mask
};
const ThreadCap &defaultThreadCap();

/// One run of a model: takes its team size on construction (counting it
/// among the runs in flight) and feeds the load meter until destroyed.
/// `requested` is the instance's cap (0: the default).
class RunThreads {
public:
  explicit RunThreads(int64_t requested);
  ~RunThreads();
  RunThreads(const RunThreads &) = delete;
  RunThreads &operator=(const RunThreads &) = delete;
  int team() const { return team_; }

private:
  int team_ = 1;
  bool sampling_ = false;
};

/// Starts measuring other processes' load (the first estimate spans from
/// here to the first run); the runtime calls it when it loads a model.
void startLoadMeter();

/// Cores other processes kept busy during this process's recent runs, as
/// the policy counts them (0 until measured, and with adaptation off).
int busyCoresElsewhere();

} // namespace pdrt

#endif // PADDLE_MLIR_RUNTIME_THREADS_H

//===- Threads.cpp - how many threads a run of a model uses ---------------===//
//
// See Threads.h. Why the runtime adapts the team at all: libgomp's workers
// spin at every barrier (about a hundred parallel regions per ResNet-50
// run) for up to GOMP_SPINCOUNT, and a spinning thread never gives its core
// up. When another process keeps one of two cores busy, every region then
// waits a scheduler time slice for the thread that shares that core, and a
// 60 ms run takes 650 ms. The spin settings are read once, when libgomp is
// loaded, usually before this library is (numpy loads it in Python), so the
// runtime cannot change them; it changes how many threads wait instead.
//
//===----------------------------------------------------------------------===//

#include "Threads.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <mutex>
#include <sched.h>
#include <sstream>
#include <time.h>
#include <unistd.h>

namespace pdrt {

int cpusFromCpuMax(const std::string &text) {
  std::istringstream in(text);
  std::string quota;
  long long period = 0;
  if (!(in >> quota >> period) || quota == "max" || period <= 0)
    return 0;
  char *end = nullptr;
  long long q = std::strtoll(quota.c_str(), &end, 10);
  if (!end || *end || q <= 0)
    return 0;
  return cpusFromCfs(q, period);
}

int cpusFromCfs(long long quotaUs, long long periodUs) {
  if (quotaUs <= 0 || periodUs <= 0)
    return 0;
  return static_cast<int>(std::max<long long>(1, (quotaUs + periodUs - 1) / periodUs));
}

namespace {
bool readSmallFile(const std::string &path, std::string &out) {
  std::ifstream in(path);
  if (!in)
    return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

long long readNumber(const std::string &path) {
  std::string text;
  if (!readSmallFile(path, text))
    return 0;
  return std::strtoll(text.c_str(), nullptr, 10);
}

/// The lowest limit of `dir` and its parents up to `root`, read by `limitOf`.
template <typename LimitOf>
int lowestUpTo(const std::string &root, std::string dir, LimitOf limitOf) {
  int best = 0;
  while (true) {
    int limit = limitOf(dir);
    if (limit > 0 && (best == 0 || limit < best))
      best = limit;
    if (dir.size() <= root.size())
      return best;
    dir.erase(dir.find_last_of('/'));
    if (dir.size() < root.size())
      dir = root;
  }
}
} // namespace

int cgroupCpuLimit(const std::string &procCgroup, const std::string &cgroupRoot) {
  int best = 0;
  auto take = [&](int limit) {
    if (limit > 0 && (best == 0 || limit < best))
      best = limit;
  };
  std::istringstream lines(procCgroup);
  std::string line;
  while (std::getline(lines, line)) {
    size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos)
      continue;
    std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (path.empty() || path[0] != '/')
      continue;
    if (path == "/")
      path.clear();
    if (controllers.empty()) { // cgroup v2: one hierarchy, cpu.max per level
      take(lowestUpTo(cgroupRoot, cgroupRoot + path, [](const std::string &dir) {
        std::string text;
        return readSmallFile(dir + "/cpu.max", text) ? cpusFromCpuMax(text) : 0;
      }));
      continue;
    }
    std::string list = "," + controllers + ",";
    if (list.find(",cpu,") == std::string::npos)
      continue;
    // cgroup v1: the cpu controller's mount is named after its controller
    // list ("cpu,cpuacct"), often with a "cpu" link beside it.
    for (const std::string &mount : {controllers, std::string("cpu")}) {
      std::string base = cgroupRoot + "/" + mount;
      take(lowestUpTo(base, base + path, [](const std::string &dir) {
        return cpusFromCfs(readNumber(dir + "/cpu.cfs_quota_us"),
                           readNumber(dir + "/cpu.cfs_period_us"));
      }));
    }
  }
  return best;
}

std::vector<int> affinityCpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set))
        cpus.push_back(c);
  }
  if (cpus.empty()) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    for (int c = 0; c < std::max(1L, n); ++c)
      cpus.push_back(c);
  }
  return cpus;
}

namespace {
/// A positive integer from the environment variable `name` (for
/// OMP_NUM_THREADS the first entry of its list), 0 when unset; a value that
/// is not one is reported once and ignored.
int threadsFromEnv(const char *name) {
  const char *v = std::getenv(name);
  if (!v || !*v)
    return 0;
  char *end = nullptr;
  long n = std::strtol(v, &end, 10);
  if (end != v && n > 0 && n < 4096 && (*end == 0 || (*end == ',' && name[0] == 'O')))
    return static_cast<int>(n);
  std::fprintf(stderr, "pdrt: ignoring %s='%s' (not a positive thread count)\n", name, v);
  return 0;
}
} // namespace

const ThreadCap &defaultThreadCap() {
  static const ThreadCap cap = [] {
    ThreadCap c;
    c.cpus = static_cast<int>(affinityCpus().size());
    std::string procCgroup;
    if (readSmallFile("/proc/self/cgroup", procCgroup)) {
      int limit = cgroupCpuLimit(procCgroup, "/sys/fs/cgroup");
      if (limit > 0 && limit < c.cpus) {
        c.cpus = limit;
        c.source = "cgroup";
        c.cgroupLimited = true;
      }
    }
    c.threads = c.cpus;
    if (int n = threadsFromEnv("PDRT_NUM_THREADS")) {
      c.threads = n;
      c.source = "PDRT_NUM_THREADS";
    } else if (int n = threadsFromEnv("OMP_NUM_THREADS")) {
      c.threads = n;
      c.source = "OMP_NUM_THREADS";
    }
    return c;
  }();
  return cap;
}

namespace {
double seconds(clockid_t clock) {
  timespec t;
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/// Busy seconds (user, nice, system, irq, softirq; not idle, iowait or
/// steal) of the CPUs in `cpus`, or of all CPUs when `all`, from /proc/stat.
bool busySeconds(const std::vector<int> &cpus, bool all, double &out) {
  static const double tick = 1.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
  // read() into the stack, not stdio: a run allocates nothing (allocs.test).
  // The cpu lines come first; 32 KiB holds them for a few hundred CPUs.
  char text[32768];
  int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  size_t len = 0;
  for (ssize_t n; len + 1 < sizeof(text) && (n = read(fd, text + len, sizeof(text) - 1 - len)) > 0;)
    len += static_cast<size_t>(n);
  close(fd);
  text[len] = 0;
  unsigned long long sum = 0;
  bool found = false;
  for (char *line = text; std::strncmp(line, "cpu", 3) == 0;) {
    char *next = std::strchr(line, '\n');
    if (!next)
      break; // cut off: the last line is incomplete
    *next = 0;
    bool total = line[3] == ' ';
    if (total == all &&
        (all || std::binary_search(cpus.begin(), cpus.end(),
                                   static_cast<int>(std::strtol(line + 3, nullptr, 10))))) {
      // user nice system idle iowait irq softirq: busy leaves out idle and iowait
      char *p = line + 3 + std::strcspn(line + 3, " ");
      unsigned long long v[7];
      int k = 0;
      for (; k < 7; ++k) {
        char *e = nullptr;
        v[k] = std::strtoull(p, &e, 10);
        if (e == p)
          break;
        p = e;
      }
      if (k < 7)
        break;
      sum += v[0] + v[1] + v[2] + v[5] + v[6];
      found = true;
    }
    line = next + 1;
  }
  out = static_cast<double>(sum) * tick;
  return found;
}

struct Sample {
  double wall = 0, busy = 0, own = 0;
};

/// Measures, during this process's runs only (a peer timed between our
/// runs does not count), how much CPU time other processes took on our
/// CPUs. Runs are sampled at most every 10 ms, one at a time; a window of
/// 0.25 s of sampled run time gives the estimate.
struct LoadMeter {
  std::mutex mu;
  bool adaptive = true; // PDRT_ADAPTIVE_THREADS is not 0
  bool enabled = false; // and the meter measures other processes
  bool all = true;
  std::vector<int> cpus;
  bool pending = false, inFlight = false;
  Sample start;
  double lastEnd = -1, winWall = 0, winOthers = 0;
  int busyCores = 0;
  bool debug = false;

  LoadMeter() {
    const char *adapt = std::getenv("PDRT_ADAPTIVE_THREADS");
    const char *dbg = std::getenv("PDRT_THREADS_DEBUG");
    debug = dbg && *dbg && std::strcmp(dbg, "0") != 0;
    cpus = affinityCpus();
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    all = static_cast<long>(cpus.size()) >= online;
    // A cgroup quota below the affinity mask: other processes on the host's
    // CPUs do not take from our quota, so only our own runs are counted.
    adaptive = !(adapt && std::strcmp(adapt, "0") == 0);
    enabled = adaptive && !defaultThreadCap().cgroupLimited && static_cast<int>(cpus.size()) > 1 &&
              take(start);
    pending = enabled; // the first estimate spans load to first run
  }

  bool take(Sample &s) {
    s.wall = seconds(CLOCK_MONOTONIC);
    s.own = seconds(CLOCK_PROCESS_CPUTIME_ID);
    return busySeconds(cpus, all, s.busy);
  }

  /// Adds [start, end) to the window; called with the lock held.
  void add(const Sample &end, double minWindow) {
    winWall += end.wall - start.wall;
    winOthers += (end.busy - start.busy) - (end.own - start.own);
    if (winWall < minWindow)
      return;
    double load = std::max(0.0, winOthers / winWall);
    // Rounded: an idle machine measures 0.0-0.1 (at times 0.3: a daemon, or
    // tick-sampling noise), a busy-loop process 1.0.
    int cores = std::min(static_cast<int>(cpus.size()), static_cast<int>(load + 0.5));
    if (debug)
      std::fprintf(stderr,
                   "pdrt: other processes used %.2f cores over %.0f ms of runs -> %d busy\n", load,
                   1e3 * winWall, cores);
    busyCores = cores;
    winWall = winOthers = 0;
  }
};

LoadMeter &meter() {
  static LoadMeter m;
  return m;
}

std::atomic<int> runsInFlight{0};
} // namespace

void startLoadMeter() { (void)meter(); }

int busyCoresElsewhere() {
  LoadMeter &m = meter();
  std::lock_guard<std::mutex> lock(m.mu);
  return m.busyCores;
}

RunThreads::RunThreads(int64_t requested) {
  int active = ++runsInFlight;
  const ThreadCap &cap = defaultThreadCap();
  int busy = 0;
  LoadMeter &m = meter();
  if (m.enabled) {
    std::lock_guard<std::mutex> lock(m.mu);
    Sample now;
    if (m.pending) {
      m.pending = false;
      if (m.take(now) && now.wall - m.start.wall >= 0.05)
        m.add(now, 0.0);
    }
    if (!m.inFlight && seconds(CLOCK_MONOTONIC) - m.lastEnd >= 0.01 && m.take(m.start)) {
      m.inFlight = true;
      sampling_ = true;
    }
    busy = m.busyCores;
  }
  int limit = requested > 0 ? static_cast<int>(std::min<int64_t>(requested, 4096)) : cap.threads;
  if (!m.adaptive) {
    team_ = limit;
    return;
  }
  int freeCpus = std::max(1, cap.cpus - busy);
  team_ = std::max(1, std::min(limit, freeCpus / active));
}

RunThreads::~RunThreads() {
  --runsInFlight;
  if (!sampling_)
    return;
  LoadMeter &m = meter();
  Sample end;
  bool ok = m.take(end);
  std::lock_guard<std::mutex> lock(m.mu);
  m.inFlight = false;
  m.lastEnd = end.wall;
  if (ok)
    m.add(end, 0.25);
}

} // namespace pdrt

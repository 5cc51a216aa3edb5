//===- ThreadsTest.cpp - the runtime's team-size policy inputs ------------===//
//
// CPU limits read from cgroup files (v1 and v2, nested), written here into a
// temporary tree laid out like /sys/fs/cgroup.
//
//===----------------------------------------------------------------------===//

#include "../../../lib/Runtime/Threads.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {
class CgroupTree : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/pdrt-cgroup-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root = tmpl;
  }
  void TearDown() override { fs::remove_all(root); }
  void write(const std::string &rel, const std::string &text) {
    fs::path p = fs::path(root) / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  std::string root;
};
} // namespace

TEST(CgroupQuota, CpuMaxText) {
  EXPECT_EQ(pdrt::cpusFromCpuMax("max 100000\n"), 0);
  EXPECT_EQ(pdrt::cpusFromCpuMax("100000 100000\n"), 1);
  EXPECT_EQ(pdrt::cpusFromCpuMax("150000 100000\n"), 2); // 1.5 CPUs round up
  EXPECT_EQ(pdrt::cpusFromCpuMax("50000 100000"), 1);
  EXPECT_EQ(pdrt::cpusFromCpuMax("400000 100000"), 4);
  EXPECT_EQ(pdrt::cpusFromCpuMax(""), 0);
  EXPECT_EQ(pdrt::cpusFromCpuMax("garbage"), 0);
  EXPECT_EQ(pdrt::cpusFromCpuMax("12x 100000"), 0);
  EXPECT_EQ(pdrt::cpusFromCpuMax("100000 0"), 0);
}

TEST(CgroupQuota, CfsValues) {
  EXPECT_EQ(pdrt::cpusFromCfs(-1, 100000), 0);
  EXPECT_EQ(pdrt::cpusFromCfs(200000, 100000), 2);
  EXPECT_EQ(pdrt::cpusFromCfs(250000, 100000), 3);
  EXPECT_EQ(pdrt::cpusFromCfs(1000, 100000), 1);
}

TEST_F(CgroupTree, V2NestedTakesTheLowest) {
  write("cpu.max", "max 100000\n");
  write("app.slice/cpu.max", "300000 100000\n");
  write("app.slice/job/cpu.max", "max 100000\n");
  EXPECT_EQ(pdrt::cgroupCpuLimit("0::/app.slice/job\n", root), 3);
  write("app.slice/job/cpu.max", "100000 100000\n");
  EXPECT_EQ(pdrt::cgroupCpuLimit("0::/app.slice/job\n", root), 1);
}

TEST_F(CgroupTree, V2ContainerRoot) {
  // Inside a container's cgroup namespace the path is "/" and the limit
  // sits at the root of the mount.
  write("cpu.max", "200000 100000\n");
  EXPECT_EQ(pdrt::cgroupCpuLimit("0::/\n", root), 2);
}

TEST_F(CgroupTree, V2NoLimitAnywhere) {
  write("a/cpu.max", "max 100000\n");
  EXPECT_EQ(pdrt::cgroupCpuLimit("0::/a\n", root), 0);
  EXPECT_EQ(pdrt::cgroupCpuLimit("0::/missing/path\n", root), 0);
  EXPECT_EQ(pdrt::cgroupCpuLimit("", root), 0);
}

TEST_F(CgroupTree, V1CpuController) {
  write("cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "150000\n");
  write("cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n");
  write("cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
  write("cpu,cpuacct/cpu.cfs_period_us", "100000\n");
  std::string proc = "12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n1:name=systemd:/\n";
  EXPECT_EQ(pdrt::cgroupCpuLimit(proc, root), 2);
  // Controllers without cpu are ignored.
  EXPECT_EQ(pdrt::cgroupCpuLimit("12:memory:/docker/abc\n", root), 0);
}

TEST(Affinity, MatchesSchedGetaffinity) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  EXPECT_EQ(static_cast<int>(pdrt::affinityCpus().size()), CPU_COUNT(&set));
}

TEST(RunThreads, ConcurrentRunsShareTheCpus) {
  const pdrt::ThreadCap &cap = pdrt::defaultThreadCap();
  ASSERT_GE(cap.threads, 1);
  ASSERT_GE(cap.cpus, 1);
  if (const char *a = std::getenv("PDRT_ADAPTIVE_THREADS"); a && std::string(a) == "0")
    GTEST_SKIP() << "PDRT_ADAPTIVE_THREADS=0 in the environment: the team is always the cap";
  pdrt::RunThreads first(0);
  // Other processes' load only changes when a sampled run ends, so it is
  // fixed while these runs are in flight.
  int freeCpus = std::max(1, cap.cpus - pdrt::busyCoresElsewhere());
  EXPECT_EQ(first.team(), std::max(1, std::min(cap.threads, freeCpus)));
  {
    pdrt::RunThreads second(0);
    EXPECT_EQ(second.team(), std::max(1, std::min(cap.threads, freeCpus / 2)));
    pdrt::RunThreads capped(1);
    EXPECT_EQ(capped.team(), 1);
  }
  pdrt::RunThreads again(0);
  EXPECT_EQ(again.team(), std::max(1, std::min(cap.threads, freeCpus / 2)));
}

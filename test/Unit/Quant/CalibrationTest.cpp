//===- CalibrationTest.cpp - histogram rescaling and cache edge cases -----===//
//
// The TensorObserver cases the lit test's data sets do not reach: only zeros
// before the first nonzero, a value on a power of two, a jump of more
// doublings than there are bins, rejected chunks, tiny bin counts, and the
// cache's validation of what it reads back.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Quant/Calibration.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <random>
#include <unistd.h>

using namespace paddle_mlir::quant;

namespace {
uint64_t total(const TensorObserver &obs) {
  return std::accumulate(obs.histogram().begin(), obs.histogram().end(), uint64_t(0));
}

// Tests that merging bins when the range grows gives exactly the histogram of
// binning everything with the final range, whatever the split.
TEST(TensorObserver, RescaledHistogramEqualsDirectBinning) {
  std::mt19937 gen(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> data(5000);
  for (float &v : data)
    v = normal(gen) * 0.01f;
  data.push_back(3.0f); // Grows the range from 2^-5 or so to 4.
  data.push_back(-100.0f);

  TensorObserver whole;
  ASSERT_FALSE(whole.observe(data));
  TensorObserver split;
  for (size_t start = 0; start < data.size(); start += 333)
    ASSERT_FALSE(split.observe(
        llvm::ArrayRef<float>(data).slice(start, std::min<size_t>(333, data.size() - start))));
  EXPECT_EQ(whole.range(), 128.0);
  EXPECT_EQ(split.range(), 128.0);
  EXPECT_GT(split.numRescales(), 10u);
  EXPECT_EQ(whole.numRescales(), 0u);
  EXPECT_EQ(whole.histogram().vec(), split.histogram().vec());
  EXPECT_EQ(split.count(), data.size());
  EXPECT_EQ(split.min(), -100.0f);
  EXPECT_EQ(split.max(), 3.0f);
}

// Tests that zeros seen before any nonzero stay in bin 0 once a range exists.
TEST(TensorObserver, ZerosBeforeTheFirstNonzero) {
  TensorObserver obs;
  std::vector<float> zeros(10, 0.0f), later = {1.5f, -0.0f};
  ASSERT_FALSE(obs.observe(zeros));
  EXPECT_EQ(obs.range(), 0.0);
  EXPECT_EQ(obs.histogram()[0], 10u);
  for (CalibrationMethod m : {CalibrationMethod::MinMax, CalibrationMethod::Percentile,
                              CalibrationMethod::KL, CalibrationMethod::MSE})
    EXPECT_EQ(obs.threshold(m), 0.0) << methodName(m).str();
  ASSERT_FALSE(obs.observe(later));
  EXPECT_EQ(obs.range(), 2.0);
  EXPECT_EQ(obs.histogram()[0], 11u);
  EXPECT_EQ(obs.histogram()[1536], 1u); // 1.5 * 2048 / 2
  EXPECT_EQ(total(obs), 12u);
  EXPECT_TRUE(obs.isNonNegative());
}

// Tests that a power of two lands inside the range (strictly below it).
TEST(TensorObserver, PowerOfTwoIsInsideTheRange) {
  TensorObserver obs;
  std::vector<float> a = {4.0f}, b = {8.0f};
  ASSERT_FALSE(obs.observe(a));
  EXPECT_EQ(obs.range(), 8.0);
  EXPECT_EQ(obs.histogram()[1024], 1u);
  ASSERT_FALSE(obs.observe(b));
  EXPECT_EQ(obs.range(), 16.0);
  EXPECT_EQ(obs.numRescales(), 1u);
  EXPECT_EQ(obs.histogram()[512], 1u);
  EXPECT_EQ(obs.histogram()[1024], 1u);
}

// Tests a jump of far more doublings than log2(bins): all earlier mass ends
// in bin 0, none is lost.
TEST(TensorObserver, HugeJumpKeepsEveryValue) {
  TensorObserver obs;
  std::vector<float> tiny = {1e-30f, -3e-31f, 2e-30f}, huge = {1e30f};
  ASSERT_FALSE(obs.observe(tiny));
  ASSERT_FALSE(obs.observe(huge));
  EXPECT_EQ(obs.histogram()[0], 3u);
  EXPECT_EQ(total(obs), 4u);
  EXPECT_GT(obs.range(), 1e30);
  EXPECT_LE(obs.range(), 2e30);
  EXPECT_GT(obs.numRescales(), 150u);
}

// Tests that a chunk with a NaN or an infinity changes nothing and the error
// names the element, counted from firstIndex.
TEST(TensorObserver, NonFiniteChunkLeavesStateUnchanged) {
  TensorObserver obs;
  std::vector<float> good = {1.0f, -2.0f}, nan = {50.0f, NAN}, inf = {INFINITY};
  ASSERT_FALSE(obs.observe(good));
  std::vector<uint64_t> before = obs.histogram().vec();
  std::optional<std::string> error = obs.observe(nan, 100);
  ASSERT_TRUE(error);
  EXPECT_EQ(*error, "element 101 is NaN");
  error = obs.observe(inf);
  ASSERT_TRUE(error);
  EXPECT_EQ(*error, "element 0 is +inf");
  EXPECT_EQ(obs.count(), 2u);
  EXPECT_EQ(obs.max(), 1.0f);
  EXPECT_EQ(obs.range(), 4.0);
  EXPECT_EQ(obs.histogram().vec(), before);
  EXPECT_FALSE(obs.observe({})); // Empty chunks are fine.
  EXPECT_EQ(obs.count(), 2u);
}

// Tests the smallest histogram (2 bins) and kl falling back to minmax when
// there are fewer bins than levels.
TEST(TensorObserver, TwoBins) {
  TensorObserver obs(2);
  std::vector<float> data = {0.1f, 0.2f, 0.7f, -0.9f};
  ASSERT_FALSE(obs.observe(data));
  EXPECT_EQ(obs.range(), 1.0);
  EXPECT_EQ(obs.histogram()[0], 2u);
  EXPECT_EQ(obs.histogram()[1], 2u);
  EXPECT_FLOAT_EQ(obs.klThreshold(), 0.9f);
  EXPECT_DOUBLE_EQ(obs.percentileThreshold(50), 0.5);
  EXPECT_DOUBLE_EQ(obs.percentileThreshold(75), 0.75);
  EXPECT_DOUBLE_EQ(obs.percentileThreshold(100), 1.0);
  EXPECT_FALSE(obs.isNonNegative());
  EXPECT_FALSE(TensorObserver::isValidBinCount(3));
  EXPECT_FALSE(TensorObserver::isValidBinCount(0));
}

// Tests the scale helpers, including the zero threshold of a zero tensor.
TEST(Scales, S8AndU8) {
  EXPECT_DOUBLE_EQ(int8Scale(12.7), 0.1);
  EXPECT_DOUBLE_EQ(uint8Scale(25.5), 0.1);
  EXPECT_EQ(int8Scale(0.0), 1.0);
  EXPECT_EQ(uint8Scale(0.0), 1.0);
}

// Tests that inconsistent statistics are refused.
TEST(TensorObserver, FromStatsValidates) {
  TensorObserver obs;
  EXPECT_TRUE(TensorObserver::fromStats(0, 1, 1, 2.0, {1, 0, 0}, obs)); // odd bins
  EXPECT_TRUE(TensorObserver::fromStats(0, 1, 1, 3.0, {1, 0}, obs));    // range not 2^k
  EXPECT_TRUE(TensorObserver::fromStats(0, 1, 2, 2.0, {1, 0}, obs));    // count
  EXPECT_TRUE(TensorObserver::fromStats(0, 4, 1, 2.0, {0, 1}, obs));    // max outside
  EXPECT_TRUE(TensorObserver::fromStats(1, 0, 1, 2.0, {0, 1}, obs));    // min > max
  EXPECT_FALSE(TensorObserver::fromStats(-1, 1, 3, 2.0, {1, 2}, obs));
  EXPECT_EQ(obs.count(), 3u);
}

class CacheFile : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/pd-calib-XXXXXX";
    int fd = mkstemp(tmpl);
    ASSERT_GE(fd, 0);
    close(fd);
    path = tmpl;
  }
  void TearDown() override { std::remove(path.c_str()); }
  std::string path;
};

// Tests a round trip with two tensors and the refusals on reading back.
TEST_F(CacheFile, RoundTripAndRefusals) {
  CalibrationTable table;
  table.fingerprint = "model-a";
  table.method = CalibrationMethod::Percentile;
  table.options.percentile = 99.5;
  std::vector<float> a = {0.5f, -1.25f, 3.0f}, b = {0.0f, 0.0f};
  ASSERT_FALSE(table.tensors["conv1.tmp_0"].observe(a));
  ASSERT_FALSE(table.tensors["relu_2.tmp_0"].observe(b));
  ASSERT_FALSE(table.writeCache(path));

  CalibrationTable back;
  ASSERT_FALSE(back.readCache(path, "model-a"));
  EXPECT_EQ(back.method, CalibrationMethod::Percentile);
  EXPECT_EQ(back.options.percentile, 99.5);
  ASSERT_EQ(back.tensors.size(), 2u);
  std::string error;
  const TensorObserver *conv = back.lookup("conv1.tmp_0", error);
  ASSERT_TRUE(conv);
  EXPECT_EQ(conv->min(), -1.25f);
  EXPECT_EQ(conv->max(), 3.0f);
  EXPECT_EQ(conv->histogram().vec(), table.tensors["conv1.tmp_0"].histogram().vec());
  EXPECT_EQ(conv->klThreshold(), table.tensors["conv1.tmp_0"].klThreshold());
  EXPECT_FALSE(back.lookup("fc.tmp_1", error));
  EXPECT_EQ(error, "no calibration statistics for tensor 'fc.tmp_1' in '" + path + "'");

  CalibrationTable other;
  std::optional<std::string> refused = other.readCache(path, "model-b");
  ASSERT_TRUE(refused);
  EXPECT_EQ(*refused, "calibration cache '" + path +
                          "': made for model fingerprint 'model-a', not 'model-b'; "
                          "recalibrate or pass the matching cache");
  EXPECT_TRUE(other.tensors.empty());

  std::ofstream(path) << R"({"format": "paddle-mlir-calibration", "version": 1,
    "fingerprint": "model-a", "method": "kl", "tensors": {"x": {"min": 0}}})";
  refused = other.readCache(path, "model-a");
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->find("tensor 'x': needs numbers"), std::string::npos) << *refused;
  EXPECT_EQ(refused->find('\n'), std::string::npos);
}
} // namespace

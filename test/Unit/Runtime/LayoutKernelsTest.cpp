//===- LayoutKernelsTest.cpp - pdk_reorder, blocked convolution gradients ===//
//
// The kernels pd-train-layouts calls, through their C ABI (reorder:: and
// convgrad:: in KernelABI.h): pdk_reorder against the nChw16c index
// formula written here, and pdk_conv2d_backward_weights / _data given
// rank-5 nChw16c sides against the same kernels on plain NCHW buffers
// (whose results the Python tests check against PyTorch). Bad operands are
// refused with the kernel's message.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Runtime/KernelABI.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

extern "C" {
void pdk_reorder(const int64_t *ptrs, const int64_t *ints, const float *floats);
void pdk_conv2d_backward_data(const int64_t *ptrs, const int64_t *ints, const float *floats);
void pdk_conv2d_backward_weights(const int64_t *ptrs, const int64_t *ints, const float *floats);
const char *pdk_take_error();
}

using namespace pdk;

namespace {

int64_t addr(const void *p) { return static_cast<int64_t>(reinterpret_cast<intptr_t>(p)); }

std::vector<float> randomValues(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> v(n);
  for (float &x : v)
    x = d(rng);
  return v;
}

/// Appends the rank and dims of one operand.
void appendDims(std::vector<int64_t> &ints, const std::vector<int64_t> &dims) {
  ints.push_back(static_cast<int64_t>(dims.size()));
  ints.insert(ints.end(), dims.begin(), dims.end());
}

/// The nChw16c position of NCHW element (n, c, h, w).
size_t blockedIndex(int64_t n, int64_t c, int64_t h, int64_t w, int64_t C, int64_t H, int64_t W) {
  return static_cast<size_t>((((n * (C / 16) + c / 16) * H + h) * W + w) * 16 + c % 16);
}

/// `plain` [N, C, H, W] in nChw16c order, by the formula.
std::vector<float> packByFormula(const std::vector<float> &plain, int64_t N, int64_t C, int64_t H,
                                 int64_t W) {
  std::vector<float> out(plain.size());
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w)
          out[blockedIndex(n, c, h, w, C, H, W)] = plain[((n * C + c) * H + h) * W + w];
  return out;
}

std::vector<int64_t> blockedDims(int64_t N, int64_t C, int64_t H, int64_t W) {
  return {N, C / 16, H, W, 16};
}

/// pdk_reorder of `src` (dims `from`, layout `fromLayout`) into `dst`.
std::string reorder(const std::vector<float> &src, const std::vector<int64_t> &from,
                    int64_t fromLayout, std::vector<float> &dst, const std::vector<int64_t> &to,
                    int64_t toLayout) {
  int64_t ptrs[] = {addr(src.data()), addr(dst.data())};
  std::vector<int64_t> ints(reorder::NumInts);
  ints[reorder::SrcLayout] = fromLayout;
  ints[reorder::DstLayout] = toLayout;
  appendDims(ints, from);
  appendDims(ints, to);
  pdk_reorder(ptrs, ints.data(), nullptr);
  const char *error = pdk_take_error();
  return error ? error : "";
}

TEST(LayoutReorder, PlainToBlockedAndBack) {
  const int64_t N = 2, C = 32, H = 3, W = 5;
  std::vector<float> plain = randomValues(N * C * H * W, 1), blocked(plain.size()),
                     back(plain.size());
  ASSERT_EQ(
      reorder(plain, {N, C, H, W}, layout::NCHW, blocked, blockedDims(N, C, H, W), layout::NChw16c),
      "");
  EXPECT_EQ(blocked, packByFormula(plain, N, C, H, W));
  ASSERT_EQ(
      reorder(blocked, blockedDims(N, C, H, W), layout::NChw16c, back, {N, C, H, W}, layout::NCHW),
      "");
  EXPECT_EQ(back, plain);
}

TEST(LayoutReorder, BadOperandsAreRefused) {
  std::vector<float> a(2 * 32 * 9), b(a.size());
  // The two sides disagree on the channel count.
  EXPECT_NE(reorder(a, {2, 32, 3, 3}, layout::NCHW, b, {2, 1, 3, 3, 16}, layout::NChw16c)
                .find("different shapes"),
            std::string::npos);
  // A rank-5 side must be nChw16c.
  EXPECT_NE(reorder(a, {2, 32, 3, 3}, layout::NCHW, b, {2, 4, 3, 3, 8}, layout::NChw8c)
                .find("5-D in layout nChw16c"),
            std::string::npos);
}

/// One convolution gradient call: operand A (Filter for data, Input for
/// weights) and OutputGrad, into `out`; geometry: stride 1, padding 1, 3x3.
std::string convGrad(bool data, const std::vector<float> &a, const std::vector<int64_t> &aDims,
                     const std::vector<float> &dy, const std::vector<int64_t> &dyDims,
                     std::vector<float> &out, const std::vector<int64_t> &outDims, int64_t xLayout,
                     int64_t dyLayout) {
  std::vector<int64_t> ints(convgrad::NumInts, 0);
  ints[conv::StrideH] = ints[conv::StrideW] = 1;
  ints[conv::PadTop] = ints[conv::PadBottom] = ints[conv::PadLeft] = ints[conv::PadRight] = 1;
  ints[conv::DilationH] = ints[conv::DilationW] = 1;
  ints[conv::Groups] = 1;
  ints[convgrad::XLayout] = xLayout;
  ints[convgrad::DyLayout] = dyLayout;
  appendDims(ints, aDims);
  appendDims(ints, dyDims);
  appendDims(ints, outDims);
  int64_t ptrs[convgrad::NumSlots + 1] = {0, 0, 0, 0};
  ptrs[data ? convgrad::Filter : convgrad::Input] = addr(a.data());
  ptrs[convgrad::OutputGrad] = addr(dy.data());
  ptrs[convgrad::NumSlots] = addr(out.data());
  (data ? pdk_conv2d_backward_data : pdk_conv2d_backward_weights)(ptrs, ints.data(), nullptr);
  const char *error = pdk_take_error();
  return error ? error : "";
}

TEST(LayoutConvGrad, BlockedSidesMatchPlain) {
  const int64_t N = 2, C = 16, K = 32, H = 6, W = 5;
  std::vector<float> x = randomValues(N * C * H * W, 2), dy = randomValues(N * K * H * W, 3),
                     w = randomValues(K * C * 9, 4);
  std::vector<float> xb = packByFormula(x, N, C, H, W), dyb = packByFormula(dy, N, K, H, W);
  std::vector<int64_t> xPlain = {N, C, H, W}, dyPlain = {N, K, H, W}, wDims = {K, C, 3, 3};

  // Filter gradient: blocked input and output gradient.
  std::vector<float> dwPlain(w.size()), dwBlocked(w.size());
  ASSERT_EQ(convGrad(false, x, xPlain, dy, dyPlain, dwPlain, wDims, layout::NCHW, layout::NCHW),
            "");
  ASSERT_EQ(convGrad(false, xb, blockedDims(N, C, H, W), dyb, blockedDims(N, K, H, W), dwBlocked,
                     wDims, layout::NChw16c, layout::NChw16c),
            "");
  for (size_t i = 0; i < w.size(); ++i)
    EXPECT_NEAR(dwBlocked[i], dwPlain[i], 1e-4f * (1 + std::abs(dwPlain[i]))) << i;

  // Input gradient: blocked output gradient in, blocked input gradient out.
  std::vector<float> dxPlain(x.size()), dxBlocked(x.size());
  ASSERT_EQ(convGrad(true, w, wDims, dy, dyPlain, dxPlain, xPlain, layout::NCHW, layout::NCHW), "");
  ASSERT_EQ(convGrad(true, w, wDims, dyb, blockedDims(N, K, H, W), dxBlocked,
                     blockedDims(N, C, H, W), layout::NChw16c, layout::NChw16c),
            "");
  std::vector<float> want = packByFormula(dxPlain, N, C, H, W);
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_NEAR(dxBlocked[i], want[i], 1e-4f * (1 + std::abs(want[i]))) << i;
}

TEST(LayoutConvGrad, RankFiveNeedsTheBlockedLayout) {
  const int64_t N = 1, C = 16, K = 16, H = 4, W = 4;
  std::vector<float> x(N * C * H * W), dy(N * K * H * W), dw(K * C * 9);
  // A rank-5 input whose layout field says plain NCHW.
  EXPECT_NE(convGrad(false, x, blockedDims(N, C, H, W), dy, {N, K, H, W}, dw, {K, C, 3, 3},
                     layout::NCHW, layout::NCHW)
                .find("5-D in layout nChw16c"),
            std::string::npos);
}

} // namespace

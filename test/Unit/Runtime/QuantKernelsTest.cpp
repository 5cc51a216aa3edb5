//===- QuantKernelsTest.cpp - pdk_qconv2d and pdk_qmatmul against loops --===//
//
// The int8 kernels of libpdrt_kernels called through their C ABI
// (qconv:: and qmatmul:: in KernelABI.h) and compared with plain nested
// loops written here: s32 accumulation of the integer values, then the
// scales, bias, residual and activation in double, then requantization
// with nearbyint and saturation. Integer math is exact, so f32 outputs
// must agree to 1e-5 of the magnitude of the terms and int8 outputs to 1
// (a rounding tie decided the other way).
//
// The filters hold 7-bit values: without VNNI (run this with
// ONEDNN_MAX_CPU_ISA=AVX2) oneDNN multiplies u8 by s8 with vpmaddubsw,
// whose pairwise s16 sums saturate for full-range operands; the
// FullRangeWithVnni tests check 8-bit filters where VNNI is used. Without
// VNNI oneDNN's convolutions also halve the filter for s8 sources (odd
// weights lose their low bit); pdk_kernel_impls says so, and then the
// loops use the halved filter, doubled.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Runtime/KernelABI.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
void pdk_qconv2d(const int64_t *ptrs, const int64_t *ints, const float *floats);
void pdk_qmatmul(const int64_t *ptrs, const int64_t *ints, const float *floats);
void pdk_qbmatmul(const int64_t *ptrs, const int64_t *ints, const float *floats);
int64_t pdk_kernel_impls(char *buf, int64_t size);
const char *pdk_take_error();
void pdk_forget(const void *begin, const void *end);
}

using namespace pdk;

namespace {

int64_t addr(const void *p) { return static_cast<int64_t>(reinterpret_cast<intptr_t>(p)); }

/// int8 storage for values drawn in [lo, hi] (u8 values above 127 as their
/// bits).
std::vector<int8_t> randomInt8(size_t n, int lo, int hi, std::mt19937 &rng) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int8_t> v(n);
  for (auto &x : v) {
    int value = d(rng);
    uint8_t bits = static_cast<uint8_t>(value);
    std::memcpy(&x, &bits, 1);
  }
  return v;
}

std::vector<float> randomFloats(size_t n, float lo, float hi, std::mt19937 &rng) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto &x : v)
    x = d(rng);
  return v;
}

int valueOf(const std::vector<int8_t> &v, size_t i, int64_t type) {
  return type == qtype::U8 ? static_cast<int>(static_cast<uint8_t>(v[i])) : v[i];
}

/// One value in real units after the activation, as the kernels define it.
double activate(double y, int64_t code, float alpha) {
  switch (code) {
  case act::Relu:
    return std::max(y, 0.0);
  case act::Relu6:
    return std::min(std::max(y, 0.0), alpha != 0.f ? double(alpha) : 6.0);
  default:
    return y;
  }
}

/// The reference output: real values for an f32 destination, else the
/// requantized integers; `mag` bounds the magnitude of the summed terms
/// (for the f32 tolerance).
struct Expected {
  std::vector<double> values, mag;
};

void finish(Expected &ex, double acc, double scale, double bias, double res, double mag,
            int64_t code, float alpha, int64_t dstType, float dstScale) {
  double y = activate(acc * scale + bias + res, code, alpha);
  if (dstType != qtype::F32) {
    double lo = dstType == qtype::U8 ? 0 : -128, hi = dstType == qtype::U8 ? 255 : 127;
    y = std::min(std::max(std::nearbyint(y / dstScale), lo), hi);
  }
  ex.values.push_back(y);
  ex.mag.push_back(mag);
}

/// The kernel's output as doubles.
std::vector<double> outputOf(const std::vector<float> &f32, const std::vector<int8_t> &i8,
                             int64_t dstType) {
  std::vector<double> r;
  if (dstType == qtype::F32) {
    r.assign(f32.begin(), f32.end());
  } else {
    for (size_t i = 0; i < i8.size(); ++i)
      r.push_back(valueOf(i8, i, dstType));
  }
  return r;
}

/// Compares within the tolerances above; returns the number of mismatches.
int compare(const std::vector<double> &got, const Expected &ex, int64_t dstType) {
  EXPECT_EQ(got.size(), ex.values.size());
  int bad = 0;
  for (size_t i = 0; i < got.size() && i < ex.values.size(); ++i) {
    double tol = dstType == qtype::F32 ? 1e-5 * std::max(ex.mag[i], 1e-3) : 1.0;
    if (!(std::fabs(got[i] - ex.values[i]) <= tol) && bad++ < 5)
      ADD_FAILURE() << "element " << i << ": got " << got[i] << ", expected " << ex.values[i];
  }
  return bad;
}

/// Per-channel weight scales that grow geometrically by `spread` from the
/// first channel to the last.
std::vector<float> channelScales(int64_t n, float base, float spread) {
  std::vector<float> s(n);
  for (int64_t i = 0; i < n; ++i)
    s[i] = base * std::pow(spread, n > 1 ? float(i) / float(n - 1) : 0.f);
  return s;
}

/// What pdk_kernel_impls lists now.
std::string impls() {
  int64_t n = pdk_kernel_impls(nullptr, 0);
  std::string text(static_cast<size_t>(std::max<int64_t>(n, 0)) + 1, '\0');
  pdk_kernel_impls(text.data(), static_cast<int64_t>(text.size()));
  text.resize(text.size() - 1);
  return text;
}

/// Whether a cached convolution had its filter halved by oneDNN (every
/// test forgets its primitives, so only the running test's are cached).
bool filterHalved() { return impls().find("weights scaled by 0.5") != std::string::npos; }

std::string takeError() {
  const char *e = pdk_take_error();
  return e ? e : "";
}

//===----------------------------------------------------------------------===//
// pdk_qconv2d
//===----------------------------------------------------------------------===//

struct ConvCase {
  int64_t n = 2, c = 8, h = 9, w = 10, o = 16, kh = 3, kw = 3;
  int64_t strideH = 1, strideW = 1, padT = 1, padB = 1, padL = 1, padR = 1, dilH = 1, dilW = 1;
  int64_t groups = 1, act = act::None, srcType = qtype::U8, dstType = qtype::F32;
  bool bias = true, residual = false;
  bool channelsLast = false;    // input, residual and output stored NHWC
  int64_t resType = qtype::F32; // an int8 residual holds resScale * its values
  float resScale = 0.02f;
  int wLo = -64, wHi = 63; // the filter's values
  float alpha = 0.f, srcScale = 0.01f, dstScale = 0.05f, wScale = 0.004f, spread = 1.f;
};

/// An NCHW array stored channels last.
template <typename T>
std::vector<T> toNhwc(const std::vector<T> &v, int64_t n, int64_t c, int64_t h, int64_t w) {
  std::vector<T> r(v.size());
  for (int64_t b = 0; b < n; ++b)
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t i = 0; i < h * w; ++i)
        r[(b * h * w + i) * c + ch] = v[(b * c + ch) * h * w + i];
  return r;
}

/// Operands, the call's arrays and the outputs of one convolution.
struct Conv {
  ConvCase k;
  int64_t oh, ow;
  std::vector<int8_t> x, wt, q, xStored, resQ;
  std::vector<float> bias, res, scales, out, resStored;
  std::vector<int64_t> ptrs, ints;
  std::vector<float> floats;

  explicit Conv(const ConvCase &cc, unsigned seed = 1) : k(cc) {
    std::mt19937 rng(seed);
    oh = (k.h + k.padT + k.padB - ((k.kh - 1) * k.dilH + 1)) / k.strideH + 1;
    ow = (k.w + k.padL + k.padR - ((k.kw - 1) * k.dilW + 1)) / k.strideW + 1;
    int64_t cg = k.c / k.groups;
    bool u8 = k.srcType == qtype::U8;
    x = randomInt8(k.n * k.c * k.h * k.w, u8 ? 0 : -128, u8 ? 255 : 127, rng);
    wt = randomInt8(k.o * cg * k.kh * k.kw, k.wLo, k.wHi, rng);
    scales = channelScales(k.o, k.wScale, k.spread);
    if (k.bias)
      bias = randomFloats(k.o, -1.f, 1.f, rng);
    size_t outN = k.n * k.o * oh * ow;
    if (k.residual && k.resType != qtype::F32) {
      bool ru8 = k.resType == qtype::U8;
      resQ = randomInt8(outN, ru8 ? 0 : -128, ru8 ? 255 : 127, rng);
      res.resize(outN);
      for (size_t i = 0; i < outN; ++i)
        res[i] = k.resScale * static_cast<float>(valueOf(resQ, i, k.resType));
      if (k.channelsLast)
        resQ = toNhwc(resQ, k.n, k.o, oh, ow);
    } else if (k.residual) {
      res = randomFloats(outN, -1.f, 1.f, rng);
    }
    if (k.dstType == qtype::F32)
      out.assign(outN, 0.f);
    else
      q.assign(outN, 0);
    // x and res stay NCHW for the loops; what the kernel reads is stored
    // channels last when asked.
    xStored = k.channelsLast ? toNhwc(x, k.n, k.c, k.h, k.w) : x;
    resStored = k.channelsLast && k.residual ? toNhwc(res, k.n, k.o, oh, ow) : res;
    int64_t resAddr = !k.residual               ? 0
                      : k.resType == qtype::F32 ? addr(resStored.data())
                                                : addr(resQ.data());
    ptrs = {addr(xStored.data()),
            addr(wt.data()),
            k.bias ? addr(bias.data()) : 0,
            resAddr,
            addr(scales.data()),
            k.dstType == qtype::F32 ? addr(out.data()) : addr(q.data())};
    int64_t layout = k.channelsLast ? layout::NHWC : layout::NCHW;
    ints = {k.strideH, k.strideW, k.padT,    k.padB,    k.padL, k.padR, k.dilH, k.dilW,
            k.groups,  k.act,     k.srcType, k.dstType, layout, layout, layout, k.resType};
    auto dims = [&](std::initializer_list<int64_t> d) {
      ints.push_back(static_cast<int64_t>(d.size()));
      ints.insert(ints.end(), d);
    };
    dims({k.n, k.c, k.h, k.w});
    dims({k.o, cg, k.kh, k.kw});
    if (k.bias)
      dims({k.o});
    if (k.residual)
      dims({k.n, k.o, oh, ow});
    dims({k.o});
    dims({k.n, k.o, oh, ow});
    floats = {k.alpha, 0.f, k.srcScale, k.dstScale, k.resScale};
  }
  ~Conv() { pdk_forget(wt.data(), wt.data() + wt.size()); }

  void run() { pdk_qconv2d(ptrs.data(), ints.data(), floats.data()); }
  /// The output in NCHW order.
  std::vector<double> got() const {
    std::vector<double> v = outputOf(out, q, k.dstType);
    if (!k.channelsLast)
      return v;
    std::vector<double> nchw(v.size());
    for (int64_t b = 0; b < k.n; ++b)
      for (int64_t c = 0; c < k.o; ++c)
        for (int64_t i = 0; i < oh * ow; ++i)
          nchw[(b * k.o + c) * oh * ow + i] = v[(b * oh * ow + i) * k.o + c];
    return nchw;
  }

  Expected reference() const {
    Expected ex;
    bool halved = filterHalved();
    int64_t cg = k.c / k.groups, og = k.o / k.groups;
    for (int64_t b = 0; b < k.n; ++b)
      for (int64_t oc = 0; oc < k.o; ++oc)
        for (int64_t y = 0; y < oh; ++y)
          for (int64_t xo = 0; xo < ow; ++xo) {
            int64_t g = oc / og;
            int64_t acc = 0, absAcc = 0;
            for (int64_t ic = 0; ic < cg; ++ic)
              for (int64_t i = 0; i < k.kh; ++i)
                for (int64_t j = 0; j < k.kw; ++j) {
                  int64_t iy = y * k.strideH - k.padT + i * k.dilH;
                  int64_t ix = xo * k.strideW - k.padL + j * k.dilW;
                  if (iy < 0 || iy >= k.h || ix < 0 || ix >= k.w)
                    continue;
                  size_t xi = ((b * k.c + g * cg + ic) * k.h + iy) * k.w + ix;
                  size_t wi = ((oc * cg + ic) * k.kh + i) * k.kw + j;
                  int64_t wv = halved ? 2 * int64_t(std::nearbyint(wt[wi] * 0.5)) : wt[wi];
                  int64_t p = int64_t(valueOf(x, xi, k.srcType)) * wv;
                  acc += p;
                  absAcc += std::llabs(p);
                }
            double scale = double(k.srcScale) * scales[oc];
            double bv = k.bias ? bias[oc] : 0.0;
            double rv = k.residual ? res[((b * k.o + oc) * oh + y) * ow + xo] : 0.0;
            finish(ex, double(acc), scale, bv, rv,
                   double(absAcc) * scale + std::fabs(bv) + std::fabs(rv), k.act, k.alpha,
                   k.dstType, k.dstScale);
          }
    return ex;
  }
};

/// Runs a convolution case and compares it with the loops.
void checkConv(const ConvCase &k) {
  Conv c(k);
  c.run();
  ASSERT_EQ(takeError(), "");
  EXPECT_EQ(compare(c.got(), c.reference(), k.dstType), 0);
}

ConvCase convCase(int64_t srcType, int64_t dstType, int64_t act, bool bias) {
  ConvCase k;
  k.srcType = srcType, k.dstType = dstType, k.act = act, k.bias = bias;
  return k;
}

TEST(QuantConv, TypesActivationsBias) {
  for (int64_t src : {qtype::U8, qtype::S8})
    for (int64_t dst : {qtype::F32, qtype::S8, qtype::U8})
      for (int64_t a : {act::None, act::Relu, act::Relu6})
        for (bool bias : {true, false}) {
          SCOPED_TRACE("src " + std::to_string(src) + " dst " + std::to_string(dst) + " act " +
                       std::to_string(a) + " bias " + std::to_string(bias));
          checkConv(convCase(src, dst, a, bias));
        }
}

TEST(QuantConv, Residual) {
  for (int64_t src : {qtype::U8, qtype::S8})
    for (int64_t a : {act::None, act::Relu}) {
      SCOPED_TRACE("src " + std::to_string(src) + " act " + std::to_string(a));
      ConvCase k = convCase(src, qtype::F32, a, true);
      k.residual = true;
      checkConv(k);
    }
}

// What pd-kernel-layouts passes between int8 kernels: the activations
// channels last, the logical shapes NCHW.
TEST(QuantConv, ChannelsLast) {
  for (int64_t src : {qtype::U8, qtype::S8})
    for (int64_t dst : {qtype::F32, qtype::U8})
      for (bool residual : {false, true}) {
        if (residual && dst != qtype::F32)
          continue;
        SCOPED_TRACE("src " + std::to_string(src) + " dst " + std::to_string(dst) + " residual " +
                     std::to_string(residual));
        ConvCase k = convCase(src, dst, act::Relu, true);
        k.channelsLast = true, k.residual = residual, k.strideH = 2;
        checkConv(k);
      }
}

// The tensors between ResNet's blocks: the residual int8 or uint8 with its
// own scale, added in real units, into an f32 or an int8 destination (then
// copied byte for byte and read by the sum post-op as its type), plain or
// channels last.
TEST(QuantConv, Int8Residual) {
  for (int64_t rt : {qtype::U8, qtype::S8})
    for (int64_t dst : {qtype::F32, qtype::U8, qtype::S8})
      for (bool last : {false, true}) {
        SCOPED_TRACE("residual " + std::to_string(rt) + " dst " + std::to_string(dst) +
                     " channels last " + std::to_string(last));
        ConvCase k = convCase(qtype::U8, dst, act::Relu, true);
        k.residual = true, k.resType = rt, k.channelsLast = last;
        checkConv(k);
      }
}

TEST(QuantConv, StrideTwoAsymmetricPadding) {
  for (int64_t dst : {qtype::F32, qtype::S8}) {
    ConvCase k = convCase(qtype::U8, dst, act::Relu, true);
    k.h = 11, k.w = 12, k.strideH = 2, k.strideW = 2;
    k.padT = 0, k.padB = 2, k.padL = 1, k.padR = 0;
    checkConv(k);
  }
}

TEST(QuantConv, DilationTwo) {
  for (int64_t src : {qtype::U8, qtype::S8}) {
    ConvCase k = convCase(src, qtype::F32, act::None, true);
    k.h = 12, k.w = 11, k.dilH = 2, k.dilW = 2, k.padT = k.padB = k.padL = k.padR = 2;
    checkConv(k);
  }
}

TEST(QuantConv, GroupedAndDepthwise) {
  for (int64_t src : {qtype::U8, qtype::S8})
    for (int64_t dst : {qtype::F32, qtype::U8}) {
      SCOPED_TRACE("src " + std::to_string(src) + " dst " + std::to_string(dst));
      ConvCase grouped = convCase(src, dst, act::Relu6, true);
      grouped.groups = 2;
      checkConv(grouped);
      ConvCase dw = convCase(src, dst, act::Relu, true);
      dw.c = dw.o = dw.groups = 16;
      dw.wScale *= 4; // 9 products per output instead of 72
      checkConv(dw);
    }
}

TEST(QuantConv, ScalesThatDiffer100x) {
  for (int64_t dst : {qtype::F32, qtype::S8}) {
    ConvCase k = convCase(qtype::U8, dst, act::None, true);
    k.wScale = 0.0004f, k.spread = 100.f;
    checkConv(k);
  }
}

TEST(QuantConv, RequantizationSaturates) {
  for (int64_t dst : {qtype::S8, qtype::U8}) {
    ConvCase k = convCase(qtype::U8, dst, act::None, true);
    k.dstScale = 0.002f;
    Conv c(k);
    c.run();
    ASSERT_EQ(takeError(), "");
    EXPECT_EQ(compare(c.got(), c.reference(), k.dstType), 0);
    // Both ends are reached, so saturation (not wrap-around) is what passed.
    std::vector<double> g = c.got();
    double lo = dst == qtype::U8 ? 0 : -128, hi = dst == qtype::U8 ? 255 : 127;
    EXPECT_GT(std::count(g.begin(), g.end(), lo), 0);
    EXPECT_GT(std::count(g.begin(), g.end(), hi), 0);
  }
}

TEST(QuantConv, FullRangeWithVnni) {
  for (int64_t src : {qtype::U8, qtype::S8}) {
    SCOPED_TRACE("src " + std::to_string(src));
    ConvCase k = convCase(src, qtype::F32, act::None, true);
    k.wLo = -128, k.wHi = 127, k.wScale = 0.002f;
    Conv c(k);
    c.run();
    ASSERT_EQ(takeError(), "");
    if (impls().find("vnni") == std::string::npos &&
        impls().find("f32 emulation") == std::string::npos)
      GTEST_SKIP() << "oneDNN saturates 8-bit products without VNNI: " << impls();
    EXPECT_EQ(compare(c.got(), c.reference(), k.dstType), 0);
  }
}

TEST(QuantConv, TwoRunsAgree) {
  ConvCase k = convCase(qtype::S8, qtype::S8, act::Relu, true);
  Conv c(k);
  c.run();
  std::vector<int8_t> first = c.q;
  std::fill(c.q.begin(), c.q.end(), 0);
  c.run();
  ASSERT_EQ(takeError(), "");
  EXPECT_EQ(first, c.q);
  EXPECT_EQ(compare(c.got(), c.reference(), k.dstType), 0);
}

TEST(QuantConv, FloatResidualNeedsAnF32Destination) {
  ConvCase k = convCase(qtype::U8, qtype::S8, act::None, true);
  k.residual = true;
  Conv c(k);
  c.run();
  std::string err = takeError();
  EXPECT_NE(err.find("an f32 residual needs an f32 destination"), std::string::npos) << err;
  EXPECT_TRUE(std::all_of(c.q.begin(), c.q.end(), [](int8_t v) { return v == 0; }));
}

TEST(QuantConv, Int8ResidualNeedsAPositiveScale) {
  ConvCase k = convCase(qtype::U8, qtype::S8, act::None, true);
  k.residual = true, k.resType = qtype::S8, k.resScale = 0.f;
  Conv c(k);
  c.run();
  std::string err = takeError();
  EXPECT_NE(err.find("positive finite ResScale"), std::string::npos) << err;
  EXPECT_TRUE(std::all_of(c.q.begin(), c.q.end(), [](int8_t v) { return v == 0; }));
}

TEST(QuantConv, InjectedCreateFailureIsRecorded) {
  ConvCase k = convCase(qtype::U8, qtype::F32, act::None, true);
  Conv c(k);
  setenv("PDK_TEST_FAIL_CREATE", "1", 1);
  c.run();
  unsetenv("PDK_TEST_FAIL_CREATE");
  EXPECT_NE(takeError().find("PDK_TEST_FAIL_CREATE"), std::string::npos);
  c.run(); // nothing was cached: it is created now
  EXPECT_EQ(takeError(), "");
  EXPECT_EQ(compare(c.got(), c.reference(), k.dstType), 0);
}

//===----------------------------------------------------------------------===//
// pdk_qmatmul
//===----------------------------------------------------------------------===//

struct MatmulCase {
  int64_t kind = matmul::Fc, act = act::None, srcType = qtype::U8, dstType = qtype::F32;
  std::vector<int64_t> lead = {2, 3, 4}; // the output's leading dims
  int64_t k = 64, n = 24;
  bool bias = true;
  int wLo = -64, wHi = 63; // B's values
  float alpha = 0.f, srcScale = 0.01f, dstScale = 0.05f, wScale = 0.003f, spread = 1.f;
};

struct Matmul {
  MatmulCase c;
  int64_t rows = 1; // every row of A: the product of the leading dims
  std::vector<int8_t> a, b, q;
  std::vector<float> bias, scales, out;
  std::vector<int64_t> ptrs, ints;
  std::vector<float> floats;

  explicit Matmul(const MatmulCase &mc, unsigned seed = 2) : c(mc) {
    std::mt19937 rng(seed);
    for (int64_t d : c.lead)
      rows *= d;
    bool u8 = c.srcType == qtype::U8;
    a = randomInt8(rows * c.k, u8 ? 0 : -128, u8 ? 255 : 127, rng);
    b = randomInt8(c.k * c.n, c.wLo, c.wHi, rng);
    scales = channelScales(c.n, c.wScale, c.spread);
    if (c.bias)
      bias = randomFloats(c.n, -1.f, 1.f, rng);
    if (c.dstType == qtype::F32)
      out.assign(rows * c.n, 0.f);
    else
      q.assign(rows * c.n, 0);
    ptrs = {addr(a.data()), addr(b.data()), c.bias ? addr(bias.data()) : 0, addr(scales.data()),
            c.dstType == qtype::F32 ? addr(out.data()) : addr(q.data())};
    ints = {c.kind, c.act, c.srcType, c.dstType};
    auto dims = [&](std::vector<int64_t> d) {
      ints.push_back(static_cast<int64_t>(d.size()));
      ints.insert(ints.end(), d.begin(), d.end());
    };
    std::vector<int64_t> ad = c.lead, od = c.lead;
    ad.push_back(c.k);
    od.push_back(c.n);
    dims(ad);
    dims({c.k, c.n});
    if (c.bias)
      dims({c.n});
    dims({c.n});
    dims(od);
    floats = {c.alpha, c.srcScale, c.dstScale};
  }
  ~Matmul() { pdk_forget(b.data(), b.data() + b.size()); }

  void run() { pdk_qmatmul(ptrs.data(), ints.data(), floats.data()); }
  std::vector<double> got() const { return outputOf(out, q, c.dstType); }

  /// Rows are independent whatever the kind: Batched shares B across the
  /// batch, so the loops are the same.
  Expected reference() const {
    Expected ex;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < c.n; ++j) {
        int64_t acc = 0, absAcc = 0;
        for (int64_t i = 0; i < c.k; ++i) {
          int64_t p = int64_t(valueOf(a, r * c.k + i, c.srcType)) * b[i * c.n + j];
          acc += p;
          absAcc += std::llabs(p);
        }
        double scale = double(c.srcScale) * scales[j];
        double bv = c.bias ? bias[j] : 0.0;
        finish(ex, double(acc), scale, bv, 0.0, double(absAcc) * scale + std::fabs(bv), c.act,
               c.alpha, c.dstType, c.dstScale);
      }
    return ex;
  }
};

void checkMatmul(const MatmulCase &mc) {
  Matmul m(mc);
  m.run();
  ASSERT_EQ(takeError(), "");
  EXPECT_EQ(compare(m.got(), m.reference(), mc.dstType), 0);
}

TEST(QuantMatmul, FcFlattensA) {
  for (int64_t src : {qtype::U8, qtype::S8})
    for (int64_t dst : {qtype::F32, qtype::S8, qtype::U8})
      for (int64_t a : {act::None, act::Relu, act::Relu6})
        for (bool bias : {true, false}) {
          SCOPED_TRACE("src " + std::to_string(src) + " dst " + std::to_string(dst) + " act " +
                       std::to_string(a) + " bias " + std::to_string(bias));
          MatmulCase mc;
          mc.srcType = src, mc.dstType = dst, mc.act = a, mc.bias = bias;
          checkMatmul(mc);
        }
}

TEST(QuantMatmul, BatchedSharesB) {
  for (int64_t src : {qtype::U8, qtype::S8})
    for (int64_t dst : {qtype::F32, qtype::S8})
      for (bool bias : {true, false}) {
        SCOPED_TRACE("src " + std::to_string(src) + " dst " + std::to_string(dst) + " bias " +
                     std::to_string(bias));
        MatmulCase mc;
        mc.kind = matmul::Batched, mc.lead = {3, 5};
        mc.srcType = src, mc.dstType = dst, mc.act = act::Relu, mc.bias = bias;
        checkMatmul(mc);
      }
}

TEST(QuantMatmul, ScalesThatDiffer100x) {
  MatmulCase mc;
  mc.wScale = 0.0003f, mc.spread = 100.f;
  checkMatmul(mc);
}

TEST(QuantMatmul, RequantizationSaturates) {
  MatmulCase mc;
  mc.dstType = qtype::S8, mc.dstScale = 0.002f;
  Matmul m(mc);
  m.run();
  ASSERT_EQ(takeError(), "");
  EXPECT_EQ(compare(m.got(), m.reference(), mc.dstType), 0);
  EXPECT_GT(std::count(m.q.begin(), m.q.end(), int8_t(127)), 0);
  EXPECT_GT(std::count(m.q.begin(), m.q.end(), int8_t(-128)), 0);
}

TEST(QuantMatmul, FullRangeWithVnni) {
  for (int64_t src : {qtype::U8, qtype::S8}) {
    SCOPED_TRACE("src " + std::to_string(src));
    MatmulCase mc;
    mc.srcType = src, mc.wLo = -128, mc.wHi = 127, mc.wScale = 0.0015f;
    Matmul m(mc);
    m.run();
    ASSERT_EQ(takeError(), "");
    if (impls().find("vnni") == std::string::npos &&
        impls().find("f32 emulation") == std::string::npos)
      GTEST_SKIP() << "oneDNN saturates 8-bit products without VNNI: " << impls();
    EXPECT_EQ(compare(m.got(), m.reference(), mc.dstType), 0);
  }
}

TEST(QuantMatmul, TwoRunsAgree) {
  MatmulCase mc;
  mc.srcType = qtype::S8, mc.dstType = qtype::F32, mc.act = act::Relu6;
  Matmul m(mc);
  m.run();
  std::vector<float> first = m.out;
  std::fill(m.out.begin(), m.out.end(), 0.f);
  m.run();
  ASSERT_EQ(takeError(), "");
  EXPECT_EQ(std::memcmp(first.data(), m.out.data(), first.size() * sizeof(float)), 0);
}

//===----------------------------------------------------------------------===//
// pdk_qbmatmul
//===----------------------------------------------------------------------===//

/// out[b] = scale * A[b] x B[b] on full-range integers: A [batchA.., M, K]
/// (stored [.., K, M] when transA), B [batchB.., K, N] (or [.., N, K]); a
/// batch of 1 on either side is shared.
struct BmmCase {
  int64_t aType = qtype::S8, batch = 6, batchA = 6, batchB = 6, m = 5, k = 64, n = 7;
  bool transA = false, transB = false;
  float scale = 0.0007f;
};

struct Bmm {
  BmmCase c;
  std::vector<int8_t> a, b;
  std::vector<float> out;
  std::vector<int64_t> ptrs, ints;
  std::vector<float> floats;

  explicit Bmm(const BmmCase &bc, unsigned seed = 3) : c(bc) {
    std::mt19937 rng(seed);
    bool u8 = c.aType == qtype::U8;
    a = randomInt8(c.batchA * c.m * c.k, u8 ? 0 : -128, u8 ? 255 : 127, rng);
    b = randomInt8(c.batchB * c.k * c.n, -128, 127, rng);
    out.assign(c.batch * c.m * c.n, 0.f);
    ptrs = {addr(a.data()), addr(b.data()), 0, addr(out.data())};
    ints = {matmul::Batched, c.transA, c.transB, act::None, 0, c.aType, qtype::S8};
    auto dims = [&](std::vector<int64_t> d) {
      ints.push_back(static_cast<int64_t>(d.size()));
      ints.insert(ints.end(), d.begin(), d.end());
    };
    dims(c.transA ? std::vector<int64_t>{c.batchA, c.k, c.m}
                  : std::vector<int64_t>{c.batchA, c.m, c.k});
    dims(c.transB ? std::vector<int64_t>{c.batchB, c.n, c.k}
                  : std::vector<int64_t>{c.batchB, c.k, c.n});
    dims({c.batch, c.m, c.n});
    floats = {0.f, c.scale};
  }
  void run() { pdk_qbmatmul(ptrs.data(), ints.data(), floats.data()); }

  Expected reference() const {
    Expected ex;
    for (int64_t t = 0; t < c.batch; ++t)
      for (int64_t i = 0; i < c.m; ++i)
        for (int64_t j = 0; j < c.n; ++j) {
          int64_t acc = 0, absAcc = 0;
          int64_t ta = c.batchA == 1 ? 0 : t, tb = c.batchB == 1 ? 0 : t;
          for (int64_t q = 0; q < c.k; ++q) {
            size_t ai = ta * c.m * c.k + (c.transA ? q * c.m + i : i * c.k + q);
            size_t bi = tb * c.k * c.n + (c.transB ? j * c.k + q : q * c.n + j);
            int64_t p = int64_t(valueOf(a, ai, c.aType)) * b[bi];
            acc += p;
            absAcc += std::llabs(p);
          }
          finish(ex, double(acc), c.scale, 0.0, 0.0, double(absAcc) * c.scale, act::None, 0.f,
                 qtype::F32, 1.f);
        }
    return ex;
  }
};

void checkBmm(const BmmCase &bc) {
  Bmm m(bc);
  m.run();
  ASSERT_EQ(takeError(), "");
  EXPECT_EQ(compare(std::vector<double>(m.out.begin(), m.out.end()), m.reference(), qtype::F32), 0);
}

/// Each case the attention products take: Q x K^T (B transposed), P x V
/// (u8 probabilities), broadcast batches, a transposed A.
std::vector<BmmCase> bmmCases() {
  std::vector<BmmCase> cases;
  for (int64_t at : {qtype::S8, qtype::U8})
    for (bool tb : {false, true}) {
      BmmCase c;
      c.aType = at, c.transB = tb;
      cases.push_back(c);
    }
  BmmCase shared;
  shared.batchB = 1;
  cases.push_back(shared);
  BmmCase sharedA;
  sharedA.batchA = 1, sharedA.transA = true;
  cases.push_back(sharedA);
  return cases;
}

TEST(QuantBatchMatmul, MatchesTheLoops) {
  for (const BmmCase &c : bmmCases()) {
    SCOPED_TRACE("a " + std::to_string(c.aType) + " transA " + std::to_string(c.transA) +
                 " transB " + std::to_string(c.transB) + " batches " + std::to_string(c.batchA) +
                 "/" + std::to_string(c.batchB));
    checkBmm(c);
  }
}

TEST(QuantBatchMatmul, RefusesAU8RightHandSideAndAZeroScale) {
  BmmCase c;
  Bmm u(c);
  u.ints[qbmatmul::BType] = qtype::U8;
  u.run();
  EXPECT_NE(takeError().find("pdk_qbmatmul: needs a batched product of an s8 or u8 A and an s8 B"),
            std::string::npos);
  Bmm z(c);
  z.floats[qbmatmul::Scale] = 0.f;
  z.run();
  EXPECT_NE(takeError().find("and a finite nonzero scale"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// The f32 emulation (what CPUs without VNNI run; PDK_INT8_EMULATE=1 forces
// it here)
//===----------------------------------------------------------------------===//

struct Emulated : ::testing::Test {
  void SetUp() override { setenv("PDK_INT8_EMULATE", "1", 1); }
  void TearDown() override { unsetenv("PDK_INT8_EMULATE"); }
};

TEST_F(Emulated, ConvMatchesTheLoopsOnFullRangeFilters) {
  for (int64_t src : {qtype::U8, qtype::S8})
    for (int64_t dst : {qtype::F32, qtype::S8, qtype::U8})
      for (int64_t a : {act::None, act::Relu6}) {
        SCOPED_TRACE("src " + std::to_string(src) + " dst " + std::to_string(dst) + " act " +
                     std::to_string(a));
        ConvCase k = convCase(src, dst, a, true);
        k.wLo = -128, k.wHi = 127, k.wScale = 0.002f;
        Conv c(k);
        c.run();
        ASSERT_EQ(takeError(), "");
        EXPECT_EQ(compare(c.got(), c.reference(), k.dstType), 0);
        EXPECT_NE(impls().find("pdk_qconv2d: f32 emulation of int8 (no VNNI)"), std::string::npos)
            << impls();
      }
}

TEST_F(Emulated, GroupedStridedAndResidual) {
  ConvCase g = convCase(qtype::S8, qtype::F32, act::Relu, true);
  g.groups = 2, g.wLo = -128, g.wHi = 127;
  Conv cg(g);
  cg.run();
  ASSERT_EQ(takeError(), "");
  EXPECT_EQ(compare(cg.got(), cg.reference(), g.dstType), 0);
  ConvCase r = convCase(qtype::S8, qtype::F32, act::None, true);
  r.residual = true, r.strideH = r.strideW = 2, r.padT = 1, r.padL = 0, r.padB = 0, r.padR = 1;
  Conv cr(r);
  cr.run();
  ASSERT_EQ(takeError(), "");
  EXPECT_EQ(compare(cr.got(), cr.reference(), r.dstType), 0);
  r.channelsLast = true;
  Conv cl(r);
  cl.run();
  ASSERT_EQ(takeError(), "");
  EXPECT_EQ(compare(cl.got(), cl.reference(), r.dstType), 0);
  for (int64_t dst : {qtype::F32, qtype::U8}) {
    r.resType = qtype::S8, r.dstType = dst;
    Conv ci(r);
    ci.run();
    ASSERT_EQ(takeError(), "");
    EXPECT_EQ(compare(ci.got(), ci.reference(), r.dstType), 0);
  }
}

TEST_F(Emulated, MatmulMatchesTheLoopsOnFullRangeWeights) {
  for (int64_t src : {qtype::U8, qtype::S8})
    for (int64_t dst : {qtype::F32, qtype::S8}) {
      SCOPED_TRACE("src " + std::to_string(src) + " dst " + std::to_string(dst));
      MatmulCase mc;
      mc.srcType = src, mc.dstType = dst, mc.wLo = -128, mc.wHi = 127, mc.wScale = 0.0015f;
      Matmul m(mc);
      m.run();
      ASSERT_EQ(takeError(), "");
      EXPECT_EQ(compare(m.got(), m.reference(), mc.dstType), 0);
      EXPECT_NE(impls().find("pdk_qmatmul: f32 emulation of int8 (no VNNI)"), std::string::npos)
          << impls();
    }
}

TEST_F(Emulated, BatchMatmulMatchesTheLoops) {
  for (const BmmCase &c : bmmCases()) {
    SCOPED_TRACE("a " + std::to_string(c.aType) + " transB " + std::to_string(c.transB));
    checkBmm(c);
  }
  EXPECT_NE(impls().find("pdk_qbmatmul: f32 emulation of int8 (no VNNI)"), std::string::npos)
      << impls();
}

//===----------------------------------------------------------------------===//
// pdk_kernel_impls
//===----------------------------------------------------------------------===//

TEST(QuantImpls, ListsEachCachedKernel) {
  Conv cu(convCase(qtype::U8, qtype::S8, act::Relu, true));
  Conv cs(convCase(qtype::S8, qtype::F32, act::None, true));
  Matmul m(MatmulCase{});
  cu.run(), cs.run(), m.run();
  ASSERT_EQ(takeError(), "");
  int64_t n = pdk_kernel_impls(nullptr, 0);
  ASSERT_GT(n, 0);
  std::string text = impls();
  EXPECT_EQ(static_cast<int64_t>(text.size()), n);
  EXPECT_NE(text.find("pdk_qconv2d: "), std::string::npos) << text;
  EXPECT_NE(text.find("pdk_qmatmul: "), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
  std::istringstream lines(text);
  std::vector<std::string> all;
  for (std::string l; std::getline(lines, l);)
    all.push_back(l);
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size()) << text;
  // A short buffer gets a NUL-terminated prefix.
  char small[8];
  EXPECT_EQ(pdk_kernel_impls(small, sizeof small), n);
  EXPECT_EQ(std::string(small), text.substr(0, 7));
  std::printf("%s", text.c_str()); // which kernels oneDNN chose on this CPU
}

} // namespace

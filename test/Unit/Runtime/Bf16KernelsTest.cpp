//===- Bf16KernelsTest.cpp - pdk_conv2d_bf16 / pdk_matmul_bf16 vs loops ---===//
//
// The bf16 kernels of libpdrt_kernels called through their C ABI (bconv::
// and bmatmul:: in KernelABI.h) and compared with nested loops written
// here in double on the bf16-rounded inputs (round to nearest even, as the
// compiler rounds weights and as oneDNN's reorders round f32 inputs). A
// product of two bf16 values is exact in f32 and the kernels accumulate in
// f32, so an f32 destination agrees to 1e-5 of the magnitude of the terms;
// a bf16 destination adds its own rounding (half a unit in the 8th bit).
// Every case runs with f32 and with bf16 sides, in plain and in the
// convolutions' compiler-chosen layouts.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Runtime/KernelABI.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" {
void pdk_conv2d_bf16(const int64_t *ptrs, const int64_t *ints, const float *floats);
void pdk_matmul_bf16(const int64_t *ptrs, const int64_t *ints, const float *floats);
const char *pdk_take_error();
void pdk_forget(const void *begin, const void *end);
}

using namespace pdk;

namespace {

int64_t addr(const void *p) { return static_cast<int64_t>(reinterpret_cast<intptr_t>(p)); }

uint16_t toBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

float fromBf16(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// One operand: its values (bf16-rounded when `bf16`), and the buffer the
/// kernel reads or writes (f32 or bf16 storage).
struct Buffer {
  bool bf16 = false;
  std::vector<float> f32;
  std::vector<uint16_t> b16;
  Buffer() = default;
  Buffer(size_t n, bool isBf16) : bf16(isBf16) {
    if (bf16)
      b16.assign(n, 0);
    else
      f32.assign(n, 0.f);
  }
  static Buffer random(size_t n, bool isBf16, std::mt19937 &rng, float lo = -1.f, float hi = 1.f) {
    std::uniform_real_distribution<float> d(lo, hi);
    Buffer b(n, isBf16);
    for (size_t i = 0; i < n; ++i) {
      float v = d(rng);
      if (isBf16)
        b.b16[i] = toBf16(v);
      else
        b.f32[i] = v;
    }
    return b;
  }
  const void *data() const {
    return bf16 ? static_cast<const void *>(b16.data()) : static_cast<const void *>(f32.data());
  }
  void *data() { return bf16 ? static_cast<void *>(b16.data()) : static_cast<void *>(f32.data()); }
  size_t size() const { return bf16 ? b16.size() : f32.size(); }
  /// The value at `i` as stored.
  double at(size_t i) const { return bf16 ? fromBf16(b16[i]) : f32[i]; }
  /// The value at `i` as a bf16 kernel reads it (rounded to bf16).
  double rounded(size_t i) const { return bf16 ? fromBf16(b16[i]) : fromBf16(toBf16(f32[i])); }
};

double activate(double y, int64_t code, float alpha) {
  switch (code) {
  case act::Relu:
    return std::max(y, 0.0);
  case act::Relu6:
    return std::min(std::max(y, 0.0), alpha != 0.f ? double(alpha) : 6.0);
  case act::Gelu:
    return 0.5 * y * (1.0 + std::erf(y / std::sqrt(2.0)));
  default:
    return y;
  }
}

/// Compares `got` with `want` (magnitudes `mag`); returns the mismatches.
int compare(const Buffer &got, const std::vector<double> &want, const std::vector<double> &mag) {
  EXPECT_EQ(got.size(), want.size());
  int bad = 0;
  for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
    double tol = 1e-5 * std::max(mag[i], 1e-3) + (got.bf16 ? std::fabs(want[i]) / 256.0 : 0.0);
    if (!(std::fabs(got.at(i) - want[i]) <= tol) && bad++ < 5)
      ADD_FAILURE() << "element " << i << ": got " << got.at(i) << ", expected " << want[i];
  }
  return bad;
}

std::string takeError() {
  const char *e = pdk_take_error();
  return e ? e : "";
}

/// Index of (b, c, y, x) in a [n, c, h, w] tensor stored in `layout`.
size_t indexIn(int64_t layout, int64_t b, int64_t c, int64_t y, int64_t x, int64_t C, int64_t H,
               int64_t W) {
  if (layout == layout::NHWC)
    return ((b * H + y) * W + x) * C + c;
  if (layout == layout::NChw8c)
    return (((b * (C / 8) + c / 8) * H + y) * W + x) * 8 + c % 8;
  return ((b * C + c) * H + y) * W + x;
}

//===----------------------------------------------------------------------===//
// pdk_conv2d_bf16
//===----------------------------------------------------------------------===//

struct ConvCase {
  int64_t n = 2, c = 8, h = 9, w = 10, o = 16, kh = 3, kw = 3;
  int64_t stride = 1, pad = 1, groups = 1, act = act::None;
  int64_t layout = layout::NCHW;
  bool bias = true, residual = false, constW = true;
  bool srcBf16 = true, resBf16 = true, dstBf16 = true;
};

void runConv(const ConvCase &k, unsigned seed = 1) {
  std::mt19937 rng(seed);
  int64_t oh = (k.h + 2 * k.pad - k.kh) / k.stride + 1,
          ow = (k.w + 2 * k.pad - k.kw) / k.stride + 1;
  int64_t cg = k.c / k.groups, og = k.o / k.groups;
  Buffer x = Buffer::random(k.n * k.c * k.h * k.w, k.srcBf16, rng);
  Buffer wt = Buffer::random(k.o * cg * k.kh * k.kw, true, rng, -0.5f, 0.5f);
  Buffer bias = Buffer::random(k.o, false, rng);
  size_t outN = k.n * k.o * oh * ow;
  Buffer res = Buffer::random(outN, k.resBf16, rng);
  Buffer out(outN, k.dstBf16);
  std::vector<int64_t> ptrs = {addr(x.data()), addr(wt.data()), k.bias ? addr(bias.data()) : 0,
                               k.residual ? addr(res.data()) : 0, addr(out.data())};
  std::vector<int64_t> ints(bconv::NumInts, 0);
  ints[conv::StrideH] = ints[conv::StrideW] = k.stride;
  ints[conv::PadTop] = ints[conv::PadBottom] = ints[conv::PadLeft] = ints[conv::PadRight] = k.pad;
  ints[conv::DilationH] = ints[conv::DilationW] = 1;
  ints[conv::Groups] = k.groups;
  ints[conv::Activation] = k.act;
  ints[conv::ConstWeights] = k.constW;
  ints[conv::SrcLayout] = ints[conv::ResLayout] = ints[conv::DstLayout] = k.layout;
  ints[bconv::SrcType] = k.srcBf16 ? ftype::BF16 : ftype::F32;
  ints[bconv::ResType] = k.resBf16 ? ftype::BF16 : ftype::F32;
  ints[bconv::DstType] = k.dstBf16 ? ftype::BF16 : ftype::F32;
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
  dims({k.n, k.o, oh, ow});
  std::vector<float> floats = {6.f, 0.f};
  // Twice: the second run reuses the cached primitive and packed filter.
  for (int r = 0; r < 2; ++r) {
    pdk_conv2d_bf16(ptrs.data(), ints.data(), floats.data());
    ASSERT_EQ(takeError(), "");
  }
  std::vector<double> want(outN), mag(outN);
  for (int64_t b = 0; b < k.n; ++b)
    for (int64_t oc = 0; oc < k.o; ++oc)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t xo = 0; xo < ow; ++xo) {
          int64_t g = oc / og;
          double acc = 0, absAcc = 0;
          for (int64_t ic = 0; ic < cg; ++ic)
            for (int64_t i = 0; i < k.kh; ++i)
              for (int64_t j = 0; j < k.kw; ++j) {
                int64_t iy = y * k.stride - k.pad + i, ix = xo * k.stride - k.pad + j;
                if (iy < 0 || iy >= k.h || ix < 0 || ix >= k.w)
                  continue;
                double p = x.rounded(indexIn(k.layout, b, g * cg + ic, iy, ix, k.c, k.h, k.w)) *
                           wt.at(((oc * cg + ic) * k.kh + i) * k.kw + j);
                acc += p;
                absAcc += std::fabs(p);
              }
          size_t oi = indexIn(k.layout, b, oc, y, xo, k.o, oh, ow);
          double bv = k.bias ? bias.at(oc) : 0.0, rv = k.residual ? res.at(oi) : 0.0;
          want[oi] = activate(acc + bv + rv, k.act, 6.f);
          mag[oi] = absAcc + std::fabs(bv) + std::fabs(rv);
        }
  EXPECT_EQ(compare(out, want, mag), 0);
  const char *w0 = static_cast<const char *>(wt.data());
  pdk_forget(w0, w0 + wt.size() * 2);
}

TEST(Bf16Conv, Bf16SidesBiasRelu) {
  ConvCase k;
  k.act = act::Relu;
  runConv(k);
}

TEST(Bf16Conv, F32SidesResidual) {
  ConvCase k;
  k.srcBf16 = k.resBf16 = k.dstBf16 = false;
  k.residual = true;
  runConv(k);
}

TEST(Bf16Conv, Bf16ResidualF32Dst) {
  ConvCase k;
  k.dstBf16 = false;
  k.residual = true;
  k.act = act::Relu6;
  runConv(k);
}

TEST(Bf16Conv, DepthwiseStride2) {
  ConvCase k;
  k.c = k.o = k.groups = 16;
  k.stride = 2;
  runConv(k);
}

TEST(Bf16Conv, NhwcLayoutResidual) {
  ConvCase k;
  k.layout = layout::NHWC;
  k.residual = true;
  runConv(k);
}

TEST(Bf16Conv, Nchw8cF32Source) {
  ConvCase k;
  k.layout = layout::NChw8c;
  k.srcBf16 = false;
  runConv(k);
}

TEST(Bf16Conv, NonConstantFilter) {
  ConvCase k;
  k.constW = false;
  k.bias = false;
  runConv(k);
}

//===----------------------------------------------------------------------===//
// pdk_matmul_bf16
//===----------------------------------------------------------------------===//

struct MatmulCase {
  int64_t kind = matmul::Fc, batch = 1, m = 5, k = 24, n = 20;
  bool transB = false, constW = true, bias = true;
  int64_t act = act::None;
  bool aBf16 = false, bBf16 = true, dstBf16 = false;
};

void runMatmul(const MatmulCase &c, unsigned seed = 2) {
  std::mt19937 rng(seed);
  bool fc = c.kind == matmul::Fc;
  Buffer a = Buffer::random(c.batch * c.m * c.k, c.aBf16, rng);
  Buffer b = Buffer::random((fc ? 1 : c.batch) * c.k * c.n, c.bBf16, rng);
  Buffer bias = Buffer::random(c.n, false, rng);
  Buffer out(c.batch * c.m * c.n, c.dstBf16);
  std::vector<int64_t> ptrs = {addr(a.data()), addr(b.data()), c.bias ? addr(bias.data()) : 0,
                               addr(out.data())};
  std::vector<int64_t> ints(bmatmul::NumInts, 0);
  ints[matmul::Kind] = c.kind;
  ints[matmul::TransB] = c.transB;
  ints[matmul::Activation] = c.act;
  ints[matmul::ConstWeights] = c.constW;
  ints[bmatmul::AType] = c.aBf16 ? ftype::BF16 : ftype::F32;
  ints[bmatmul::BType] = c.bBf16 ? ftype::BF16 : ftype::F32;
  ints[bmatmul::DstType] = c.dstBf16 ? ftype::BF16 : ftype::F32;
  auto dims = [&](std::initializer_list<int64_t> d) {
    ints.push_back(static_cast<int64_t>(d.size()));
    ints.insert(ints.end(), d);
  };
  if (fc) {
    dims({c.batch, c.m, c.k});
    dims({c.k, c.n});
  } else {
    dims({c.batch, c.m, c.k});
    if (c.transB)
      dims({c.batch, c.n, c.k});
    else
      dims({c.batch, c.k, c.n});
  }
  if (c.bias)
    dims({c.n});
  dims({c.batch, c.m, c.n});
  std::vector<float> floats = {0.f};
  for (int r = 0; r < 2; ++r) {
    pdk_matmul_bf16(ptrs.data(), ints.data(), floats.data());
    ASSERT_EQ(takeError(), "");
  }
  size_t outN = out.size();
  std::vector<double> want(outN), mag(outN);
  for (int64_t t = 0; t < c.batch; ++t)
    for (int64_t i = 0; i < c.m; ++i)
      for (int64_t j = 0; j < c.n; ++j) {
        double acc = 0, absAcc = 0;
        for (int64_t q = 0; q < c.k; ++q) {
          size_t bi = fc         ? q * c.n + j
                      : c.transB ? (t * c.n + j) * c.k + q
                                 : (t * c.k + q) * c.n + j;
          double p = a.rounded((t * c.m + i) * c.k + q) * b.rounded(bi);
          acc += p;
          absAcc += std::fabs(p);
        }
        double bv = c.bias ? bias.at(j) : 0.0;
        size_t oi = (t * c.m + i) * c.n + j;
        want[oi] = activate(acc + bv, c.act, 0.f);
        mag[oi] = absAcc + std::fabs(bv);
      }
  EXPECT_EQ(compare(out, want, mag), 0);
  const char *b0 = static_cast<const char *>(b.data());
  pdk_forget(b0, b0 + b.size() * (c.bBf16 ? 2 : 4));
}

TEST(Bf16Matmul, FcF32InBf16Weights) { runMatmul({}); }

TEST(Bf16Matmul, FcBf16OutRelu) {
  MatmulCase c;
  c.aBf16 = c.dstBf16 = true;
  c.act = act::Relu;
  runMatmul(c);
}

TEST(Bf16Matmul, FcGeluEpilogue) {
  MatmulCase c;
  c.act = act::Gelu;
  c.m = 16;
  runMatmul(c);
}

TEST(Bf16Matmul, BatchedTransposedActivations) {
  MatmulCase c;
  c.kind = matmul::Batched;
  c.batch = 3;
  c.transB = true;
  c.constW = false;
  c.bias = false;
  c.aBf16 = c.bBf16 = true;
  runMatmul(c);
}

TEST(Bf16Matmul, BatchedF32Operands) {
  MatmulCase c;
  c.kind = matmul::Batched;
  c.batch = 2;
  c.constW = false;
  c.bias = false;
  c.bBf16 = false;
  c.dstBf16 = true;
  runMatmul(c);
}

} // namespace

//===- Winograd.cpp - pdk_conv2d_winograd[4]: Winograd 3x3 convolutions ---===//
//
// Winograd F(2x2, 3x3) and F(4x4, 3x3) for the 3x3 convolutions the
// compiler picks them for (pd-kernel-layouts times them against
// pdk_conv2d): hand-written transforms around one batched oneDNN matmul.
// Same operands and fields as pdk_conv2d (conv:: in KernelABI.h).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <algorithm>
#include <limits>

using namespace pdk;

namespace {

/// Winograd F(m x m, 3x3) for 3x3 / stride 1 / pad 1 convolutions on
/// nChw8c or NHWC activations, m = 2 or 4 (tiles of a = m + 2): each a x a
/// input tile d becomes V = B^T d B, each 3x3 filter g becomes U = G g G^T
/// (once, at creation), the a^2 positions of the tiles are a^2 matrix
/// products M_p[tiles, OC] = V_p[tiles, IC] x U_p[IC, OC] (one batched
/// oneDNN matmul), and each m x m output tile is A^T M A. F(2x2) does 2.25x
/// fewer multiplications than a direct convolution, F(4x4) 4x, for two
/// passes over transformed data (larger ones for F(4x4), and its
/// transforms lose more precision); where that pays depends on the shapes
/// (channels deep, images small), so the compiler times both against
/// pdk_conv2d per convolution and picks (pd-kernel-layouts).
///
/// V is [a^2][tiles][IC] and M is [a^2][tiles][OC], tiles numbered
/// (n, tile row, tile col); channels go in blocks of 8 (one AVX2 vector).
template <int M> struct WinogradMatrices;
/// Points 0, 1, -1 (and infinity).
template <> struct WinogradMatrices<2> {
  static constexpr float BT[4][4] = {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
  static constexpr float G[4][3] = {{1, 0, 0}, {.5f, .5f, .5f}, {.5f, -.5f, .5f}, {0, 0, 1}};
  static constexpr float AT[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};
};
/// Points 0, 1, -1, 2, -2 (and infinity).
template <> struct WinogradMatrices<4> {
  static constexpr float BT[6][6] = {{4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0},
                                     {0, 4, -4, -1, 1, 0}, {0, -2, -1, 2, 1, 0},
                                     {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1}};
  static constexpr float G[6][3] = {{1.f / 4, 0, 0},
                                    {-1.f / 6, -1.f / 6, -1.f / 6},
                                    {-1.f / 6, 1.f / 6, -1.f / 6},
                                    {1.f / 24, 1.f / 12, 1.f / 6},
                                    {1.f / 24, -1.f / 12, 1.f / 6},
                                    {0, 0, 1}};
  static constexpr float AT[4][6] = {
      {1, 1, 1, 1, 1, 0}, {0, 1, -1, 2, -2, 0}, {0, 1, 1, 4, 4, 0}, {0, 1, -1, 8, -8, 1}};
};

/// A product with a constant matrix C (its zero entries cost nothing once
/// unrolled), 8 channels at a time, into I x J x 8 `out`: from the left,
/// out[i][j] = sum_l C[i][l] in[l][j] (`in` L x J); with `Right`,
/// out[i][j] = sum_l in[i][l] C[j][l], i.e. in C^T (`in` I x L).
template <int I, int L, int J, bool Right, typename Mat, typename In>
__attribute__((always_inline)) inline void constMul(const Mat &mat, const In &in,
                                                    float (&out)[I][J][8]) {
#pragma GCC unroll 8
  for (int i = 0; i < I; ++i)
#pragma GCC unroll 8
    for (int j = 0; j < J; ++j) {
      float acc[8] = {};
#pragma GCC unroll 8
      for (int l = 0; l < L; ++l) {
        float c = Right ? mat[j][l] : mat[i][l];
        if (c == 0.f)
          continue;
        const float *src = Right ? in[i][l] : in[l][j];
        for (int k = 0; k < 8; ++k)
          acc[k] += c * src[k];
      }
      for (int k = 0; k < 8; ++k)
        out[i][j][k] = acc[k];
    }
}

/// The output tiles of F(M x M, 3x3) over n images of h x w: th x tw per
/// image, numbered (n, tile row, tile col).
template <int M> struct TileGrid {
  int64_t th, tw, tiles;
  TileGrid(int64_t n, int64_t h, int64_t w)
      : th((h + M - 1) / M), tw((w + M - 1) / M), tiles(n * th * tw) {}
};

/// Where channels 8 b .. 8 b + 7 of pixel (row, col) of image n start, in
/// floats: image * n + block * b + pixel * (row * w + col) (both layouts
/// keep those 8 adjacent).
struct ActivationStrides {
  int64_t image, block, pixel;
  ActivationStrides(bool nhwc, int64_t c, int64_t h, int64_t w)
      : image(c * h * w), block(nhwc ? 8 : h * w * 8), pixel(nhwc ? c : 8) {}
};

/// Calls `tile(in, b, ty, tx)` for every tile of n images of th x tw tiles
/// and every channel block b < blocks, split over the OpenMP threads:
/// channel blocks innermost where they are adjacent (NHWC), else tiles.
#define PDK_FOR_EACH_TILE(nhwc, n, blocks, th, tw, tile)                                           \
  if (nhwc) {                                                                                      \
    _Pragma("omp parallel for collapse(3) schedule(static)") for (                                 \
        int64_t in = 0; in < n; ++in) for (int64_t ty = 0; ty < th;                                \
                                           ++ty) for (int64_t tx = 0; tx < tw;                     \
                                                      ++tx) for (int64_t b = 0; b < blocks; ++b)   \
        tile(in, b, ty, tx);                                                                       \
  } else {                                                                                         \
    _Pragma("omp parallel for collapse(2) schedule(static)") for (                                 \
        int64_t in = 0; in < n; ++in) for (int64_t b = 0; b < blocks;                              \
                                           ++b) for (int64_t ty = 0; ty < th;                      \
                                                     ++ty) for (int64_t tx = 0; tx < tw; ++tx)     \
        tile(in, b, ty, tx);                                                                       \
  }

template <int M>
__attribute__((target_clones("avx2", "default"))) void
winogradInput(const float *x, float *v, int64_t n, int64_t c, int64_t h, int64_t w, bool nhwc) {
  constexpr int A = M + 2;
  using W = WinogradMatrices<M>;
  TileGrid<M> g(n, h, w);
  int64_t th = g.th, tw = g.tw, cb = c / 8, ps = g.tiles * c;
  ActivationStrides st(nhwc, c, h, w);
  // Tile (ty, tx) of image `in`, channels 8 ib .. 8 ib + 7.
  auto tile = [&](int64_t in, int64_t ib, int64_t ty, int64_t tx) __attribute__((always_inline)) {
    const float *xp = x + in * st.image + ib * st.block;
    float d[A][A][8], t[A][A][8], r[A][A][8];
    for (int i = 0; i < A; ++i)
      for (int j = 0; j < A; ++j) {
        int64_t row = M * ty - 1 + i, col = M * tx - 1 + j;
        bool inside = row >= 0 && row < h && col >= 0 && col < w;
        const float *src = xp + (row * w + col) * st.pixel;
        for (int k = 0; k < 8; ++k)
          d[i][j][k] = inside ? src[k] : 0.f;
      }
    constMul<A, A, A, false>(W::BT, d, t); // B^T d
    constMul<A, A, A, true>(W::BT, t, r);  // (B^T d) B
    float *o = v + ((in * th + ty) * tw + tx) * c + ib * 8;
    for (int i = 0; i < A; ++i)
      for (int j = 0; j < A; ++j)
        for (int k = 0; k < 8; ++k)
          o[(i * A + j) * ps + k] = r[i][j][k];
  };
  PDK_FOR_EACH_TILE(nhwc, n, cb, th, tw, tile)
}

/// y = act(A^T M A + bias [+ res]) into `y` (nChw8c or NHWC, as `res`;
/// `res` may be `y`).
/// Negative values are scaled by `slope` (leaky relu's alpha, else 1), then
/// clamped to [lo, hi] (relu: 0/inf, relu6: 0/6, none and leaky relu:
/// -inf/inf).
template <int M>
__attribute__((target_clones("avx2", "default"))) void
winogradOutput(const float *m, const float *bias, const float *res, float *y, int64_t n, int64_t oc,
               int64_t h, int64_t w, bool nhwc, float lo, float hi, float slope) {
  constexpr int A = M + 2;
  using W = WinogradMatrices<M>;
  TileGrid<M> g(n, h, w);
  int64_t th = g.th, tw = g.tw, ob = oc / 8, ps = g.tiles * oc;
  ActivationStrides st(nhwc, oc, h, w);
  // Tile (ty, tx) of image `in`, channels 8 kb .. 8 kb + 7.
  auto tile = [&](int64_t in, int64_t kb, int64_t ty, int64_t tx) __attribute__((always_inline)) {
    int64_t base = in * st.image + kb * st.block;
    const float *mp = m + ((in * th + ty) * tw + tx) * oc + kb * 8;
    float mt[A][A][8], r[M][A][8], out[M][M][8];
    for (int i = 0; i < A; ++i)
      for (int j = 0; j < A; ++j)
        for (int k = 0; k < 8; ++k)
          mt[i][j][k] = mp[(i * A + j) * ps + k];
    constMul<M, A, A, false>(W::AT, mt, r); // A^T M
    constMul<M, A, M, true>(W::AT, r, out); // (A^T M) A
    for (int i = 0; i < M && M * ty + i < h; ++i)
      for (int j = 0; j < M && M * tx + j < w; ++j) {
        int64_t at = base + ((M * ty + i) * w + M * tx + j) * st.pixel;
        for (int k = 0; k < 8; ++k) {
          float val = out[i][j][k] + (bias ? bias[kb * 8 + k] : 0.f) + (res ? res[at + k] : 0.f);
          if (val < 0.f)
            val *= slope;
          y[at + k] = std::min(std::max(val, lo), hi);
        }
      }
  };
  PDK_FOR_EACH_TILE(nhwc, n, ob, th, tw, tile)
}

#undef PDK_FOR_EACH_TILE

/// U[p][ic][oc] (p = a i + j) = (G g G^T)[i][j] for OIHW 3x3 weights.
template <int M> void winogradWeights(const float *wt, float *u, int64_t oc, int64_t ic) {
  constexpr int A = M + 2;
  using W = WinogradMatrices<M>;
  for (int64_t o = 0; o < oc; ++o)
    for (int64_t c = 0; c < ic; ++c) {
      const float *g = wt + (o * ic + c) * 9;
      double t[A][3];
      for (int i = 0; i < A; ++i) // G g
        for (int j = 0; j < 3; ++j)
          t[i][j] = double(W::G[i][0]) * g[j] + double(W::G[i][1]) * g[3 + j] +
                    double(W::G[i][2]) * g[6 + j];
      for (int i = 0; i < A; ++i) // (G g) G^T
        for (int j = 0; j < A; ++j)
          u[((i * A + j) * ic + c) * oc + o] =
              float(t[i][0] * W::G[j][0] + t[i][1] * W::G[j][1] + t[i][2] * W::G[j][2]);
    }
}

/// pdk_conv2d's parameters and operands, computed with Winograd F(M x M,
/// 3x3) (see WinogradMatrices). Only for what the compiler picks it for:
/// 3x3 weights that are constant, stride 1, padding 1, dilation 1, one
/// group, channel counts multiples of 8, source / residual / destination
/// all in nChw8c or all in NHWC, activation none / relu / relu6 / leaky
/// relu; anything else is a kernel error.
template <int M> void convWinograd(const int64_t *ptrs, const int64_t *ints, const float *floats) {
  ConvOperands ops(ptrs, ints);
  const float *x = static_cast<const float *>(ops.x), *w = static_cast<const float *>(ops.w),
              *bias = static_cast<const float *>(ops.bias),
              *res = static_cast<const float *>(ops.res);
  float *out = static_cast<float *>(ops.out);
  const int64_t *xd = ops.xd, *wd = ops.wd, *od = ops.od;
  size_t nInts = ops.nInts;
  if (!kernelError.empty())
    return;
  int64_t code = ints[conv::Activation];
  bool ok = winogradFields(ints, res != nullptr) && wd[2] == 3 && wd[3] == 3 && xd[1] % 8 == 0 &&
            od[1] % 8 == 0;
  if (!ok) {
    kernelError = "oneDNN kernel: winograd convolution: unsupported parameters (it takes 3x3 "
                  "constant weights, stride 1, padding 1, one group, nChw8c or NHWC throughout, "
                  "channels a multiple of 8)";
    return;
  }
  int64_t n = xd[0], ic = xd[1], h = xd[2], wi = xd[3], oc = od[1];
  constexpr int A = M + 2;
  int64_t tiles = TileGrid<M>(n, h, wi).tiles;
  Entry *found =
      create(makeKey(M == 2 ? Winograd2Key : Winograd4Key, ints, nInts, floats, conv::NumFloats, w),
             "winograd convolution", nullptr, [&](Entry &e) {
               e.srcPrim = memory::desc({A * A, tiles, ic}, dt::f32, tag::abc);
               e.dstPrim = memory::desc({A * A, tiles, oc}, dt::f32, tag::abc);
               e.weiUser = memory::desc({A * A, ic, oc}, dt::f32, tag::abc);
               // Transposed weights measured faster from 64 tiles up (ResNet-50
               // batch 8, 512 channels: 8.2 vs 11.3 ms), oneDNN's plain choice
               // below (batch 1).
               memory::desc weiAny({A * A, ic, oc}, dt::f32, tiles >= 64 ? tag::acb : tag::any);
               dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(e.srcPrim, weiAny, e.dstPrim),
                                               userScratchpad(), engine());
               e.prim = Prim::of<dnnl::matmul>(pd);
               e.weiPrim = pd.weights_desc();
               std::vector<float> u(static_cast<size_t>(A * A * ic * oc));
               winogradWeights<M>(w, u.data(), oc, ic);
               memory user(e.weiUser, engine(), u.data());
               e.packedWeights = memory(e.weiPrim, engine());
               dnnl::reorder(user, e.packedWeights).execute(stream(), user, e.packedWeights);
               stream().wait();
               e.weightsConst = true;
               e.weightAddr = w;
             });
  if (!found)
    return;
  try {
    Entry &e = *found;
    float *v = static_cast<float *>(scratch(SrcBuf, e.srcPrim.get_size()));
    float *m = static_cast<float *>(scratch(DstBuf, e.dstPrim.get_size()));
    bool nhwc = ints[conv::SrcLayout] == layout::NHWC;
    winogradInput<M>(x, v, n, ic, h, wi, nhwc);
    dnnl::stream &s = stream();
    e.prim.execute(s, {{DNNL_ARG_SRC, &e.srcPrim, v},
                       {DNNL_ARG_WEIGHTS, &e.weiPrim, e.packedWeights.get_data_handle()},
                       {DNNL_ARG_DST, &e.dstPrim, m}});
    s.wait();
    float inf = std::numeric_limits<float>::infinity();
    float alpha = floats[conv::Alpha];
    float lo = code == act::None || code == act::LeakyRelu ? -inf : 0.f;
    float hi = code == act::Relu6 ? (alpha != 0.f ? alpha : 6.f) : inf;
    winogradOutput<M>(m, bias, res, out, n, oc, h, wi, nhwc, lo, hi,
                      code == act::LeakyRelu ? alpha : 1.f);
  } catch (const dnnl::error &err) {
    fail("winograd convolution failed", err);
  }
}

} // namespace

extern "C" {

/// F(2x2, 3x3) and F(4x4, 3x3) (convWinograd).
PDK_EXPORT void pdk_conv2d_winograd(const int64_t *ptrs, const int64_t *ints, const float *floats) {
  convWinograd<2>(ptrs, ints, floats);
}

PDK_EXPORT void pdk_conv2d_winograd4(const int64_t *ptrs, const int64_t *ints,
                                     const float *floats) {
  convWinograd<4>(ptrs, ints, floats);
}

} // extern "C"

//===- Quant.cpp - pdk_qconv2d, pdk_qmatmul: oneDNN int8 kernels ----------===//
//
// int8 convolutions and matrix products with a constant s8 right-hand side
// (qconv:: and qmatmul:: in KernelABI.h), and pdk_kernel_impls, which tells
// the compiler which oneDNN implementation each of them got.
//
// oneDNN 2.x computes an int8 primitive as
//   dst = post_ops(output_scales * (acc_s32 + bias))
// so the real-unit bias is divided by SrcScale * Scales[o] once, at
// creation (kept in the entry); the output scales SrcScale * Scales[o]
// give real values, the activation (and the residual, a sum post-op) acts
// on those, and a last eltwise_linear post-op divides by DstScale before
// oneDNN rounds (to nearest even) and saturates into an int8 destination.
// The scales and the bias are read once, like the filter: they are model
// constants, and their addresses are part of the cache key.
//
// Exact (integer accumulation) on CPUs with VNNI. Without it (AVX2,
// AVX-512 before Cascade Lake) oneDNN multiplies u8 by s8 with vpmaddubsw,
// whose pairwise s16 sums saturate when both operands are near full range,
// and its convolutions shift s8 sources to u8 and halve the filter, which
// drops the low bit of odd weights (oneDNN's "Nuances of int8
// computations"). So without VNNI (or with PDK_INT8_EMULATE=1, to test
// it anywhere) the kernels compute the same int8 arithmetic in f32
// instead: the source is converted to f32 (exact), the filter is kept as
// f32 values SrcScale * Scales[o] * Filter[o] (one rounding per weight),
// the f32 primitive adds the real bias and applies the post-ops, and the
// destination reorder rounds to nearest even and saturates into int8. That
// is correct to f32 rounding on every CPU, at fp32 speed;
// pdk_kernel_impls says "f32 emulation" for those.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

using namespace pdk;

namespace {

int64_t addressOf(const void *p) { return static_cast<int64_t>(reinterpret_cast<intptr_t>(p)); }

/// makeKey's key with the addresses of the bias and the scales too, which
/// the entry reads once like the filter, and whether it is exact int8 or
/// the f32 emulation (a per-thread buffer that keeps its capacity).
const std::vector<int64_t> &withConstants(const std::vector<int64_t> &key, const void *bias,
                                          const void *scales, bool exact) {
  thread_local std::vector<int64_t> k;
  k.assign(key.begin(), key.end());
  k.push_back(addressOf(bias));
  k.push_back(addressOf(scales));
  k.push_back(exact ? 1 : 0);
  return k;
}

} // namespace

/// Whether oneDNN multiplies int8 exactly here (VNNI: AVX512_VNNI or
/// AVX_VNNI, as oneDNN's effective ISA, which ONEDNN_MAX_CPU_ISA lowers),
/// unless PDK_INT8_EMULATE=1 asks for the f32 emulation.
bool pdk::exactInt8() {
  const char *force = std::getenv("PDK_INT8_EMULATE");
  if (force && *force && std::strcmp(force, "0") != 0)
    return false;
  unsigned isa = static_cast<unsigned>(dnnl::get_effective_cpu_isa());
  return (isa & (dnnl_cpu_isa_avx512_core_vnni & ~dnnl_cpu_isa_avx512_core)) != 0 ||
         (isa & (dnnl_cpu_isa_avx2_vnni & ~dnnl_cpu_isa_avx2)) != 0;
}

namespace {

/// The f32 emulation's filter: SrcScale * Scales[o] * Filter, in the user
/// layout `e.weiUser` (f32), packed once into the primitive's layout. `n`
/// channels, each `inner` consecutive values (conv: O-major), or, with
/// `columns`, channel = index % n (a [K, N] matrix).
void packEmulatedWeights(Entry &e, const int8_t *w, int64_t count, const float *scales,
                         int64_t scaleCount, int64_t n, int64_t inner, bool columns,
                         float srcScale) {
  memory user(e.weiUser, engine());
  float *f = static_cast<float *>(user.get_data_handle());
  for (int64_t i = 0; i < count; ++i) {
    int64_t c = columns ? i % n : i / inner;
    f[i] = srcScale * scales[scaleCount == 1 ? 0 : c] * static_cast<float>(w[i]);
  }
  e.packedWeights = memory(e.weiPrim, engine());
  dnnl::reorder(user, e.packedWeights).execute(stream(), user, e.packedWeights);
  stream().wait();
  e.weightsConst = true;
  e.weightAddr = w;
}

/// How the sum post-op reads the residual the destination holds: f32 real
/// values as they are, or (an int8 residual copied byte for byte into an
/// int8 destination) `type` values times `scale`.
struct ResidualSum {
  float scale = 1.f;
  dt type = dt::undef;
};

/// The post-ops of both paths: the residual (a sum), the activation, and the
/// requantization by DstScale into an int8 destination.
dnnl::primitive_attr emulatedAttr(bool residual, int64_t act, float alpha, dt dstType,
                                  float dstScale, const ResidualSum &sum = {}) {
  if (dstType != dt::f32 && !std::isfinite(1.f / dstScale))
    throw dnnl::error(dnnl_invalid_arguments, "a zero or non-finite destination scale");
  dnnl::primitive_attr attr = userScratchpad();
  dnnl::post_ops po;
  if (residual)
    po.append_sum(sum.scale, sum.type);
  appendActivation(po, act, alpha);
  if (dstType != dt::f32)
    po.append_eltwise(1.f, algorithm::eltwise_linear, 1.f / dstScale, 0.f);
  attr.set_post_ops(po);
  return attr;
}

/// Keeps a copy of the real-unit bias (the emulation adds it as is).
void copyBias(Entry &e, const float *bias, int64_t n) {
  e.ownBias = memory(e.biasMd, engine());
  std::memcpy(e.ownBias.get_data_handle(), bias, static_cast<size_t>(n) * sizeof(float));
}

bool positiveScales(const float *scales, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    if (!(scales[i] > 0.f) || !std::isfinite(scales[i]))
      return false;
  return true;
}

int64_t product(const int64_t *dims) {
  int64_t r = 1;
  for (int64_t i = 0; i < dims[-1]; ++i)
    r *= dims[i];
  return r;
}

/// The output scales SrcScale * Scales[o] for the n channels along output
/// dimension `dim` (`scales` holds `count` values: n, or one for all), and
/// attributes that apply them, then the residual (a sum post-op), the
/// activation and the requantization by DstScale. Throws on a zero or
/// non-finite scale: the pre-scaled bias divides by them.
dnnl::primitive_attr quantAttr(std::vector<float> &oscales, const float *scales, int64_t count,
                               int64_t n, int dim, float srcScale, float dstScale, bool residual,
                               int64_t act, float alpha, dt dstType, const ResidualSum &sum = {}) {
  oscales.resize(static_cast<size_t>(n));
  for (int64_t o = 0; o < n; ++o) {
    oscales[o] = srcScale * scales[count == 1 ? 0 : o];
    if (oscales[o] == 0.f || !std::isfinite(oscales[o]))
      throw dnnl::error(dnnl_invalid_arguments, "a zero or non-finite scale");
  }
  dnnl::primitive_attr attr = emulatedAttr(residual, act, alpha, dstType, dstScale, sum);
  attr.set_output_scales(1 << dim, oscales);
  return attr;
}

/// Keeps bias / oscales (the real-unit bias in the accumulator's units) in
/// `e.ownBias`, laid out as `e.biasMd`.
void preScaleBias(Entry &e, const float *bias, const std::vector<float> &oscales) {
  e.ownBias = memory(e.biasMd, engine());
  float *b = static_cast<float *>(e.ownBias.get_data_handle());
  for (size_t o = 0; o < oscales.size(); ++o)
    b[o] = bias[o] / oscales[o];
}

/// What pdk_kernel_impls reports: oneDNN's implementation name, and a note
/// where its weights descriptor halves the filter (s8 sources without VNNI,
/// so that the shifted source times the filter fits s16; odd weights lose
/// their low bit, a documented loss of precision).
std::string implOf(const dnnl::primitive_desc_base &pd) {
  std::string s = pd.impl_info_str();
  const dnnl_memory_extra_desc_t &extra = pd.weights_desc().data.extra;
  if ((extra.flags & dnnl_memory_extra_flag_scale_adjust) && extra.scale_adjust != 1.f) {
    char note[48];
    std::snprintf(note, sizeof note, " (weights scaled by %g)", extra.scale_adjust);
    s += note;
  }
  return s;
}

/// The user layout of an int8 convolution's activation: plain NCHW or
/// channels last (layout:: codes; pd-kernel-layouts sets only these two).
tag layoutTag(int64_t code) { return code == layout::NHWC ? tag::nhwc : tag::nchw; }

/// The reorder that puts an int8 residual into an f32 destination as real
/// values: `scale` times each.
Prim scaledReorder(const memory::desc &from, const memory::desc &to, float scale) {
  dnnl::primitive_attr attr = userScratchpad();
  attr.set_output_scales(0, {scale});
  return Prim::of<dnnl::reorder>(dnnl::reorder::primitive_desc(engine(), from, engine(), to, attr));
}

bool scalesFit(const int64_t *sd, int64_t n) {
  int64_t count = product(sd);
  return count == 1 || count == n;
}

} // namespace

/// The name of oneDNN's effective ISA.
const char *isaName(unsigned isa) {
  switch (isa) {
  case dnnl_cpu_isa_avx512_core_amx:
    return "avx512_core_amx";
  case dnnl_cpu_isa_avx512_core_bf16:
    return "avx512_core_bf16";
  case dnnl_cpu_isa_avx512_core_vnni:
    return "avx512_core_vnni";
  case dnnl_cpu_isa_avx512_core:
    return "avx512_core";
  case dnnl_cpu_isa_avx2_vnni:
    return "avx2_vnni";
  case dnnl_cpu_isa_avx2:
    return "avx2";
  case dnnl_cpu_isa_avx:
    return "avx";
  case dnnl_cpu_isa_sse41:
    return "sse41";
  default:
    return "other";
  }
}

extern "C" {

/// What the int8 kernels run on here: oneDNN's effective ISA and whether
/// int8 is multiplied exactly (VNNI) or emulated in f32, e.g.
/// "avx512_core_vnni (int8 with VNNI)". The compiler puts it in the
/// manifest's int8 records.
PDK_EXPORT const char *pdk_int8_isa(void) {
  static thread_local std::string text;
  text = std::string(isaName(static_cast<unsigned>(dnnl::get_effective_cpu_isa()))) +
         (exactInt8() ? " (int8 with VNNI)" : " (no VNNI: int8 emulated in f32)");
  return text.c_str();
}

/// int8 NCHW convolution; operands, fields and the arithmetic as qconv:: in
/// KernelABI.h.
PDK_EXPORT void pdk_qconv2d(const int64_t *ptrs, const int64_t *ints, const float *floats) {
  void *x = ptrAt(ptrs, qconv::Input), *w = ptrAt(ptrs, qconv::Filter),
       *bias = ptrAt(ptrs, qconv::Bias), *res = ptrAt(ptrs, qconv::Residual),
       *scales = ptrAt(ptrs, qconv::Scales), *out = ptrAt(ptrs, qconv::NumSlots);
  Dims dims(ints + qconv::NumInts);
  const int64_t *xd = dims.next(), *wd = dims.next();
  if (bias)
    dims.next();
  if (res)
    dims.next();
  const int64_t *sd = scales ? dims.next() : nullptr;
  const int64_t *od = dims.next();
  size_t nInts = static_cast<size_t>(dims.p - ints);
  int64_t groups = ints[qconv::Groups];
  dt srcType = qtypeOf(ints[qconv::SrcType]), dstType = qtypeOf(ints[qconv::DstType]);
  dt resType = qtypeOf(ints[qconv::ResType]);
  float resScale = floats[qconv::ResScale];
  if (!kernelError.empty())
    return;
  if (!scales || !scalesFit(sd, wd[0]) || srcType == dt::f32) {
    kernelError = "pdk_qconv2d: needs an s8 or u8 source and one weight scale per output channel";
    return;
  }
  for (int64_t f : {qconv::SrcLayout, qconv::ResLayout, qconv::DstLayout})
    if (ints[f] != layout::NCHW && ints[f] != layout::NHWC) {
      kernelError = "pdk_qconv2d: activations must be plain NCHW or channels last";
      return;
    }
  if (res && resType == dt::f32 && dstType != dt::f32) {
    kernelError = "pdk_qconv2d: an f32 residual needs an f32 destination (DstType F32)";
    return;
  }
  if (res && resType != dt::f32 && !(resScale > 0.f && std::isfinite(resScale))) {
    kernelError = "pdk_qconv2d: an int8 residual needs a positive finite ResScale";
    return;
  }
  if (product(xd) == 0 || product(od) == 0)
    return; // nothing to compute (oneDNN refuses empty tensors)
  bool exact = exactInt8();
  Entry *found = create(
      withConstants(makeKey(QConvKey, ints, nInts, floats, qconv::NumFloats, w), bias, scales,
                    exact),
      "int8 convolution", w, [&](Entry &e) {
        memory::dims src = {xd[0], xd[1], xd[2], xd[3]}, dst = {od[0], od[1], od[2], od[3]};
        memory::dims wei = groups == 1 ? memory::dims{wd[0], wd[1], wd[2], wd[3]}
                                       : memory::dims{groups, wd[0] / groups, wd[1], wd[2], wd[3]};
        tag wtag = groups == 1 ? tag::oihw : tag::goihw;
        e.srcUser = memory::desc(src, srcType, layoutTag(ints[qconv::SrcLayout]));
        e.resUser = memory::desc(dst, res ? resType : dt::f32, layoutTag(ints[qconv::ResLayout]));
        e.dstUser = memory::desc(dst, dstType, layoutTag(ints[qconv::DstLayout]));
        e.weiUser = memory::desc(wei, dt::s8, wtag);
        e.biasMd = bias ? memory::desc({wd[0]}, dt::f32, tag::a) : memory::desc();
        e.callee = "pdk_qconv2d";
        if (!exact) {
          if (!positiveScales(static_cast<const float *>(scales), product(sd)))
            throw dnnl::error(dnnl_invalid_arguments, "a zero or non-finite scale");
          dnnl::primitive_attr attr =
              emulatedAttr(res != nullptr, ints[qconv::Activation], floats[qconv::Alpha], dstType,
                           floats[qconv::DstScale]);
          if (bias)
            copyBias(e, static_cast<const float *>(bias), wd[0]);
          dnnl::convolution_forward::desc cd(
              dnnl::prop_kind::forward_inference, algorithm::convolution_direct,
              memory::desc(src, dt::f32, tag::any), memory::desc(wei, dt::f32, tag::any), e.biasMd,
              memory::desc(dst, dt::f32, tag::any), {ints[qconv::StrideH], ints[qconv::StrideW]},
              {ints[qconv::DilationH] - 1, ints[qconv::DilationW] - 1},
              {ints[qconv::PadTop], ints[qconv::PadLeft]},
              {ints[qconv::PadBottom], ints[qconv::PadRight]});
          dnnl::convolution_forward::primitive_desc pd(cd, attr, engine());
          e.prim = Prim::of<dnnl::convolution_forward>(pd);
          e.impl = "f32 emulation of int8 (no VNNI): " + std::string(pd.impl_info_str());
          e.srcPrim = pd.src_desc();
          e.dstPrim = pd.dst_desc();
          e.weiPrim = pd.weights_desc();
          e.weiUser = memory::desc(wei, dt::f32, wtag);
          packEmulatedWeights(e, static_cast<const int8_t *>(w), product(wd),
                              static_cast<const float *>(scales), product(sd), wd[0],
                              product(wd) / wd[0], false, floats[qconv::SrcScale]);
          e.srcReorder = makeReorder(e.srcUser, e.srcPrim);
          e.dstReorder = makeReorder(e.dstPrim, e.dstUser);
          // An int8 residual enters the f32 destination as real values.
          if (res && resType != dt::f32)
            e.resReorder = scaledReorder(e.resUser, e.dstPrim, resScale);
          else if (res && e.resUser != e.dstPrim)
            e.resReorder = makeReorder(e.resUser, e.dstPrim);
          return;
        }
        // An int8 residual with an int8 destination is copied into it byte
        // for byte (same size), and the sum post-op reads it as resType
        // values times ResScale; into an f32 destination it is converted.
        bool byteResidual = res && resType != dt::f32 && dstType != dt::f32;
        ResidualSum sum;
        if (byteResidual)
          sum = {resScale, resType};
        std::vector<float> oscales;
        dnnl::primitive_attr attr =
            quantAttr(oscales, static_cast<const float *>(scales), product(sd), wd[0], 1,
                      floats[qconv::SrcScale], floats[qconv::DstScale], res != nullptr,
                      ints[qconv::Activation], floats[qconv::Alpha], dstType, sum);
        if (bias)
          preScaleBias(e, static_cast<const float *>(bias), oscales);
        // Every side `any`: the int8 kernels want channels-last or blocked
        // layouts, which the reorders around the call provide.
        dnnl::convolution_forward::desc cd(
            dnnl::prop_kind::forward_inference, algorithm::convolution_direct,
            memory::desc(src, srcType, tag::any), memory::desc(wei, dt::s8, tag::any), e.biasMd,
            memory::desc(dst, dstType, tag::any), {ints[qconv::StrideH], ints[qconv::StrideW]},
            {ints[qconv::DilationH] - 1, ints[qconv::DilationW] - 1},
            {ints[qconv::PadTop], ints[qconv::PadLeft]},
            {ints[qconv::PadBottom], ints[qconv::PadRight]});
        dnnl::convolution_forward::primitive_desc pd(cd, attr, engine());
        e.prim = Prim::of<dnnl::convolution_forward>(pd);
        e.impl = implOf(pd);
        e.srcPrim = pd.src_desc();
        e.dstPrim = pd.dst_desc();
        e.weiPrim = pd.weights_desc();
        if (e.srcPrim != e.srcUser)
          e.srcReorder = makeReorder(e.srcUser, e.srcPrim);
        if (e.dstPrim != e.dstUser)
          e.dstReorder = makeReorder(e.dstPrim, e.dstUser);
        if (byteResidual) {
          // The bytes, in the destination's type: a reorder only moves them.
          e.resUser = memory::desc(dst, e.dstPrim.data_type(), layoutTag(ints[qconv::ResLayout]));
          if (e.resUser != e.dstPrim)
            e.resReorder = makeReorder(e.resUser, e.dstPrim);
        } else if (res && resType != dt::f32) {
          e.resReorder = scaledReorder(e.resUser, e.dstPrim, resScale);
        } else if (res && e.resUser != e.dstPrim) {
          e.resReorder = makeReorder(e.resUser, e.dstPrim);
        }
      });
  if (found)
    runOrRecord(*found, "int8 convolution", x, w, bias ? found->ownBias.get_data_handle() : nullptr,
                res, out, res != nullptr);
}

/// int8 matrix product with a constant s8 B; operands, fields and the
/// arithmetic as qmatmul:: in KernelABI.h.
PDK_EXPORT void pdk_qmatmul(const int64_t *ptrs, const int64_t *ints, const float *floats) {
  void *a = ptrAt(ptrs, qmatmul::A), *b = ptrAt(ptrs, qmatmul::B),
       *bias = ptrAt(ptrs, qmatmul::Bias), *scales = ptrAt(ptrs, qmatmul::Scales),
       *out = ptrAt(ptrs, qmatmul::NumSlots);
  Dims dims(ints + qmatmul::NumInts);
  const int64_t *ad = dims.next(), *bd = dims.next();
  if (bias)
    dims.next();
  const int64_t *sd = scales ? dims.next() : nullptr;
  const int64_t *od = dims.next();
  size_t nInts = static_cast<size_t>(dims.p - ints);
  dt srcType = qtypeOf(ints[qmatmul::SrcType]), dstType = qtypeOf(ints[qmatmul::DstType]);
  int64_t orank = od[-1], ar = ad[-1];
  int64_t K = bd[0], N = bd[1];
  if (!kernelError.empty())
    return;
  bool fc = ints[qmatmul::Kind] == matmul::Fc;
  // Fc flattens A to [M, K] (M: the output's leading dims); Batched reads
  // [.., M, K].
  bool shapesFit = fc ? product(ad) == product(od) / std::max<int64_t>(N, 1) * K : ad[ar - 1] == K;
  if (!scales || !scalesFit(sd, N) || srcType == dt::f32 || bd[-1] != 2 || !shapesFit ||
      od[orank - 1] != N) {
    kernelError = "pdk_qmatmul: needs an s8 or u8 A [.., K], a 2-D B [K, N] and one scale per "
                  "column or one in all";
    return;
  }
  if (product(ad) == 0 || product(od) == 0)
    return; // nothing to compute (oneDNN refuses empty tensors)
  // Fc: [M, K] x [K, N]; Batched: [batch, M, K] x [1, K, N] (B broadcast).
  int64_t M = fc ? product(od) / N : od[orank - 2];
  int64_t batch = fc ? 1 : product(od) / (M * N);
  bool exact = exactInt8();
  Entry *found =
      create(withConstants(makeKey(QMatmulKey, ints, nInts, floats, qmatmul::NumFloats, b), bias,
                           scales, exact),
             "int8 matrix product", b, [&](Entry &e) {
               memory::dims aDims = fc ? memory::dims{M, K} : memory::dims{batch, M, K};
               memory::dims bDims = fc ? memory::dims{K, N} : memory::dims{1, K, N};
               memory::dims oDims = fc ? memory::dims{M, N} : memory::dims{batch, M, N};
               tag plain = fc ? tag::ab : tag::abc;
               e.srcUser = e.srcPrim = memory::desc(aDims, srcType, plain);
               e.dstUser = e.dstPrim = memory::desc(oDims, dstType, plain);
               e.weiUser = memory::desc(bDims, dt::s8, plain);
               e.biasMd = bias ? memory::desc(fc ? memory::dims{1, N} : memory::dims{1, 1, N},
                                              dt::f32, plain)
                               : memory::desc();
               e.callee = "pdk_qmatmul";
               if (!exact) {
                 if (!positiveScales(static_cast<const float *>(scales), product(sd)))
                   throw dnnl::error(dnnl_invalid_arguments, "a zero or non-finite scale");
                 dnnl::primitive_attr attr =
                     emulatedAttr(false, ints[qmatmul::Activation], floats[qmatmul::Alpha], dstType,
                                  floats[qmatmul::DstScale]);
                 if (bias)
                   copyBias(e, static_cast<const float *>(bias), N);
                 e.srcPrim = memory::desc(aDims, dt::f32, plain);
                 e.dstPrim = memory::desc(oDims, dt::f32, plain);
                 dnnl::matmul::desc md(e.srcPrim, memory::desc(bDims, dt::f32, tag::any), e.biasMd,
                                       e.dstPrim);
                 dnnl::matmul::primitive_desc pd(md, attr, engine());
                 e.prim = Prim::of<dnnl::matmul>(pd);
                 e.impl = "f32 emulation of int8 (no VNNI): " + std::string(pd.impl_info_str());
                 e.weiPrim = pd.weights_desc();
                 e.weiUser = memory::desc(bDims, dt::f32, plain);
                 packEmulatedWeights(e, static_cast<const int8_t *>(b), K * N,
                                     static_cast<const float *>(scales), product(sd), N, 1, true,
                                     floats[qmatmul::SrcScale]);
                 e.srcReorder = makeReorder(e.srcUser, e.srcPrim);
                 e.dstReorder = makeReorder(e.dstPrim, e.dstUser);
                 return;
               }
               std::vector<float> oscales;
               dnnl::primitive_attr attr =
                   quantAttr(oscales, static_cast<const float *>(scales), product(sd), N,
                             fc ? 1 : 2, floats[qmatmul::SrcScale], floats[qmatmul::DstScale],
                             false, ints[qmatmul::Activation], floats[qmatmul::Alpha], dstType);
               if (bias)
                 preScaleBias(e, static_cast<const float *>(bias), oscales);
               dnnl::matmul::desc md(e.srcUser, memory::desc(bDims, dt::s8, tag::any), e.biasMd,
                                     e.dstUser);
               dnnl::matmul::primitive_desc pd(md, attr, engine());
               e.prim = Prim::of<dnnl::matmul>(pd);
               e.impl = implOf(pd);
               e.weiPrim = pd.weights_desc();
             });
  if (found)
    runOrRecord(*found, "int8 matrix product", a, b,
                bias ? found->ownBias.get_data_handle() : nullptr, nullptr, out, false);
}

/// Writes "callee: implementation\n" for every distinct pair among the
/// cached int8 primitives (the oneDNN implementation each was given, e.g.
/// "pdk_qconv2d: brg:avx512_core_vnni"), NUL-terminated and truncated to
/// fit `size` bytes like snprintf; returns the length of the whole text
/// (without the NUL), so a caller can size its buffer with a first call;
/// -1 if it ran out of memory.
PDK_EXPORT int64_t pdk_kernel_impls(char *buf, int64_t size) {
  std::string text;
  try {
    std::set<std::string> lines;
    {
      std::lock_guard<std::mutex> lock(cacheMutex);
      for (const auto &kv : cache())
        if (kv.second->callee)
          lines.insert(std::string(kv.second->callee) + ": " + kv.second->impl + "\n");
    }
    for (const std::string &l : lines)
      text += l;
  } catch (const std::bad_alloc &) {
    return -1;
  }
  if (buf && size > 0) {
    size_t n = std::min(text.size(), static_cast<size_t>(size - 1));
    std::memcpy(buf, text.data(), n);
    buf[n] = '\0';
  }
  return static_cast<int64_t>(text.size());
}

} // extern "C"

//===- Conv.cpp - pdk_conv2d(_bf16): oneDNN direct convolution ------------===//
//
// 2-D convolutions (plain, grouped, depthwise) with bias, residual and
// activation fused as oneDNN post-ops, in whichever layouts the compiler
// gave each side: fp32 (conv:: in KernelABI.h) and bf16 (bconv::), one
// body for both.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <cstdlib>

using namespace pdk;

namespace {
/// The element types of one convolution: of the products (f32 or bf16),
/// and of the caller's input, filter, residual and destination buffers.
struct ConvTypes {
  dt compute, src, filter, res, dst;
};

dt userType(int64_t code) { return code == ftype::BF16 ? dt::bf16 : dt::f32; }

/// act(conv(x, w) + bias [+ residual]) with the given types; `nParams`
/// integer fields precede the dims; `key` leads the cache key.
void convolution(const int64_t *ptrs, const int64_t *ints, const float *floats, int64_t nParams,
                 const ConvTypes &ty, int64_t key) {
  ConvOperands ops(ptrs, ints, nParams);
  void *x = ops.x, *w = ops.w, *bias = ops.bias, *res = ops.res, *out = ops.out;
  const int64_t *xd = ops.xd, *wd = ops.wd, *od = ops.od;
  size_t nInts = ops.nInts;
  bool constW = ints[conv::ConstWeights] != 0;
  int64_t groups = ints[conv::Groups];
  if (!kernelError.empty())
    return;
  Entry *found = create(
      makeKey(key, ints, nInts, floats, conv::NumFloats, constW ? w : nullptr), "convolution",
      constW ? w : nullptr, [&](Entry &e) {
        // Builds `e` with products in `compute`: the kernel's own type, or
        // f32 when oneDNN has no bf16 primitive on this CPU (then bf16 sides
        // are widened by the reorders, exactly, and products of bf16 values
        // are exact in f32: the same result at f32 speed).
        auto build = [&](dt compute) {
          memory::dims src = {xd[0], xd[1], xd[2], xd[3]}, dst = {od[0], od[1], od[2], od[3]};
          memory::dims wei = groups == 1
                                 ? memory::dims{wd[0], wd[1], wd[2], wd[3]}
                                 : memory::dims{groups, wd[0] / groups, wd[1], wd[2], wd[3]};
          tag wtag = groups == 1 ? tag::oihw : tag::goihw;
          e.srcUser = memory::desc(src, ty.src, convLayout(ints[conv::SrcLayout]));
          e.resUser = memory::desc(dst, ty.res, convLayout(ints[conv::ResLayout]));
          e.dstUser = memory::desc(dst, ty.dst, convLayout(ints[conv::DstLayout]));
          e.weiUser = memory::desc(wei, ty.filter, wtag);
          e.biasMd = bias ? memory::desc({wd[0]}, dt::f32, tag::a) : memory::desc();
          const memory::desc &biasMd = e.biasMd;
          // The filter in oneDNN's layout: packed once for constant
          // weights, reordered at every call for weights that change (a
          // train step's): oneDNN's fast kernels all want blocked filters, and
          // a plain OIHW one leaves the gemm-based kernel (ResNet-50's train
          // step forward: 227 ms with it, 181 ms plus ~15 ms of filter
          // reorders without).
          memory::desc weiAny(wei, compute, tag::any);
          // The primitive's source is in the compute type (a user side of
          // another type is converted by the reorder that runs before it);
          // its destination is the caller's type where oneDNN can write it
          // (its bf16 convolutions write f32 or bf16), else f32.
          dt dstType = compute == dt::bf16 ? ty.dst : dt::f32;
          memory::desc srcFixed(src, compute, convLayout(ints[conv::SrcLayout]));
          memory::desc dstFixed(dst, dstType, convLayout(ints[conv::DstLayout]));
          dnnl::post_ops po;
          if (res)
            po.append_sum(1.f);
          appendActivation(po, ints[conv::Activation], floats[conv::Alpha]);
          dnnl::primitive_attr attr = userScratchpad();
          attr.set_post_ops(po);
          auto make = [&](const memory::desc &s, const memory::desc &d) {
            dnnl::convolution_forward::desc cd(
                dnnl::prop_kind::forward_inference, algorithm::convolution_direct, s, weiAny,
                biasMd, d, {ints[conv::StrideH], ints[conv::StrideW]},
                {ints[conv::DilationH] - 1, ints[conv::DilationW] - 1},
                {ints[conv::PadTop], ints[conv::PadLeft]},
                {ints[conv::PadBottom], ints[conv::PadRight]});
            return dnnl::convolution_forward::primitive_desc(cd, attr, engine());
          };
          // A side the compiler laid out for convolutions (pd-kernel-layouts:
          // NHWC or nChw8c/16c) is given as is, so oneDNN picks a kernel for
          // that layout (on AVX-512 hosts nChw8c selects its AVX2 kernels, which
          // the compiler may have measured faster) and no reorder runs; a plain
          // NCHW side is left to oneDNN (`any`, with a reorder: gemm-based NCHW
          // convolutions measured 2.1x slower on ResNet-50). If that leaves
          // only the reference kernel, both sides go back to `any`.
          // PDK_ANY_LAYOUT=1 always uses `any` (to compare).
          memory::desc srcAny(src, compute, tag::any), dstAny(dst, dstType, tag::any);
          bool srcSet = ints[conv::SrcLayout] != layout::NCHW,
               dstSet = ints[conv::DstLayout] != layout::NCHW;
          dnnl::convolution_forward::primitive_desc pd;
          if (!std::getenv("PDK_ANY_LAYOUT") && (srcSet || dstSet)) {
            try {
              pd = make(srcSet ? srcFixed : srcAny, dstSet ? dstFixed : dstAny);
              if (std::string(pd.impl_info_str()).rfind("ref", 0) == 0)
                pd = {};
            } catch (const dnnl::error &) {
              pd = {};
            }
          }
          if (!pd)
            pd = make(srcAny, dstAny);
          e.prim = Prim::of<dnnl::convolution_forward>(pd);
          e.srcPrim = pd.src_desc();
          e.dstPrim = pd.dst_desc();
          e.weiPrim = pd.weights_desc();
          if (e.srcPrim != e.srcUser)
            e.srcReorder = makeReorder(e.srcUser, e.srcPrim);
          if (e.dstPrim != e.dstUser)
            e.dstReorder = makeReorder(e.dstPrim, e.dstUser);
          if (res && e.resUser != e.dstPrim)
            e.resReorder = makeReorder(e.resUser, e.dstPrim);
          if (e.weiPrim != e.weiUser && !constW)
            e.weiReorder = makeReorder(e.weiUser, e.weiPrim);
          return std::string(pd.impl_info_str());
        };
        if (ty.compute == dt::f32) {
          build(dt::f32);
          return;
        }
        e.callee = "pdk_conv2d_bf16";
        if (!std::getenv("PDK_BF16_EMULATE")) {
          try {
            e.impl = build(dt::bf16);
            return;
          } catch (const dnnl::error &) {
            e = Entry();
            e.callee = "pdk_conv2d_bf16";
          }
        }
        // f32 products of the bf16 values: an f32 source is rounded first.
        e.roundSrc = ty.src == dt::f32;
        e.impl = "f32 emulation of bf16 (no bf16 convolution on this CPU): " + build(dt::f32);
      });
  if (found)
    runOrRecord(*found, "convolution", x, w, bias, res, out, res != nullptr);
}
} // namespace

extern "C" {

/// NCHW convolution: act(conv(x, w) + bias [+ residual]); operands and
/// fields as conv:: in KernelABI.h.
PDK_EXPORT void pdk_conv2d(const int64_t *ptrs, const int64_t *ints, const float *floats) {
  convolution(ptrs, ints, floats, conv::NumInts, {dt::f32, dt::f32, dt::f32, dt::f32, dt::f32},
              ConvKey);
}

/// The same in bf16 (bconv:: in KernelABI.h): bf16 filter, f32 bias, f32
/// or bf16 input / residual / destination. Where oneDNN has no bf16
/// convolution (AVX2 CPUs), or with PDK_BF16_EMULATE=1, it computes in
/// f32 on the bf16 values instead (pdk_kernel_impls says "f32 emulation").
PDK_EXPORT void pdk_conv2d_bf16(const int64_t *ptrs, const int64_t *ints, const float *floats) {
  convolution(ptrs, ints, floats, bconv::NumInts,
              {dt::bf16, userType(ints[bconv::SrcType]), dt::bf16, userType(ints[bconv::ResType]),
               userType(ints[bconv::DstType])},
              Bf16ConvKey);
}

} // extern "C"

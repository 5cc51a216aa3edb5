//===- Conv.cpp - pdk_conv2d: oneDNN direct convolution -------------------===//
//
// fp32 2-D convolutions (plain, grouped, depthwise) with bias, residual and
// activation fused as oneDNN post-ops, in whichever layouts the compiler
// gave each side (conv:: in KernelABI.h).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <cstdlib>

using namespace pdk;

extern "C" {

/// NCHW convolution: act(conv(x, w) + bias [+ residual]); operands and
/// fields as conv:: in KernelABI.h.
PDK_EXPORT void pdk_conv2d(const int64_t *ptrs, const int64_t *ints, const float *floats) {
  ConvOperands ops(ptrs, ints);
  void *x = ops.x, *w = ops.w, *bias = ops.bias, *res = ops.res, *out = ops.out;
  const int64_t *xd = ops.xd, *wd = ops.wd, *od = ops.od;
  size_t nInts = ops.nInts;
  bool constW = ints[conv::ConstWeights] != 0;
  int64_t groups = ints[conv::Groups];
  if (!kernelError.empty())
    return;
  Entry *found = create(
      makeKey(ConvKey, ints, nInts, floats, conv::NumFloats, constW ? w : nullptr), "convolution",
      constW ? w : nullptr, [&](Entry &e) {
        memory::dims src = {xd[0], xd[1], xd[2], xd[3]}, dst = {od[0], od[1], od[2], od[3]};
        memory::dims wei = groups == 1 ? memory::dims{wd[0], wd[1], wd[2], wd[3]}
                                       : memory::dims{groups, wd[0] / groups, wd[1], wd[2], wd[3]};
        tag wtag = groups == 1 ? tag::oihw : tag::goihw;
        e.srcUser = memory::desc(src, dt::f32, convLayout(ints[conv::SrcLayout]));
        e.resUser = memory::desc(dst, dt::f32, convLayout(ints[conv::ResLayout]));
        e.dstUser = memory::desc(dst, dt::f32, convLayout(ints[conv::DstLayout]));
        e.weiUser = memory::desc(wei, dt::f32, wtag);
        e.biasMd = bias ? memory::desc({wd[0]}, dt::f32, tag::a) : memory::desc();
        const memory::desc &biasMd = e.biasMd;
        memory::desc weiAny = constW ? memory::desc(wei, dt::f32, tag::any) : e.weiUser;
        dnnl::post_ops po;
        if (res)
          po.append_sum(1.f);
        appendActivation(po, ints[conv::Activation], floats[conv::Alpha]);
        dnnl::primitive_attr attr = userScratchpad();
        attr.set_post_ops(po);
        auto make = [&](const memory::desc &s, const memory::desc &d) {
          dnnl::convolution_forward::desc cd(dnnl::prop_kind::forward_inference,
                                             algorithm::convolution_direct, s, weiAny, biasMd, d,
                                             {ints[conv::StrideH], ints[conv::StrideW]},
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
        memory::desc srcAny(src, dt::f32, tag::any), dstAny(dst, dt::f32, tag::any);
        bool srcSet = ints[conv::SrcLayout] != layout::NCHW,
             dstSet = ints[conv::DstLayout] != layout::NCHW;
        dnnl::convolution_forward::primitive_desc pd;
        if (!std::getenv("PDK_ANY_LAYOUT") && (srcSet || dstSet)) {
          try {
            pd = make(srcSet ? e.srcUser : srcAny, dstSet ? e.dstUser : dstAny);
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
      });
  if (found)
    runOrRecord(*found, "convolution", x, w, bias, res, out, res != nullptr);
}

} // extern "C"

//===- Unary.cpp - pdk_softmax, pdk_pool2d, pdk_reorder: one-input kernels ===//
//
// Softmax / log-softmax along one axis, max pooling right after a
// convolution, and a change of channel layout (softmax::, pool:: and
// reorder:: in KernelABI.h).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace pdk;

extern "C" {

/// Softmax (or log-softmax) of x along one axis, into out (x's shape);
/// operands and fields as softmax:: in KernelABI.h.
PDK_EXPORT void pdk_softmax(const int64_t *ptrs, const int64_t *ints, const float *) {
  void *x = ptrAt(ptrs, softmax::Input), *out = ptrAt(ptrs, softmax::NumSlots);
  Dims dims(ints + softmax::NumInts);
  const int64_t *xd = dims.next();
  dims.next();
  size_t nInts = static_cast<size_t>(dims.p - ints);
  if (!kernelError.empty())
    return;
  for (int64_t k = 0; k < xd[-1]; ++k)
    if (xd[k] == 0)
      return; // nothing to compute (oneDNN refuses empty tensors)
  Entry *found =
      create(makeKey(SoftmaxKey, ints, nInts, nullptr, softmax::NumFloats, nullptr), "softmax",
             nullptr, [&](Entry &e) {
               memory::dims shape(xd, xd + xd[-1]);
               memory::dims strides(shape.size(), 1);
               for (size_t i = shape.size() - 1; i > 0; --i)
                 strides[i - 1] = strides[i] * shape[i];
               e.srcUser = e.dstUser = memory::desc(shape, dt::f32, strides);
               auto alg = ints[softmax::Log] ? algorithm::softmax_log : algorithm::softmax_accurate;
               dnnl::softmax_v2_forward::desc sd(dnnl::prop_kind::forward_inference, alg, e.srcUser,
                                                 e.dstUser, static_cast<int>(ints[softmax::Axis]));
               e.prim = Prim::of<dnnl::softmax_v2_forward>(
                   dnnl::softmax_v2_forward::primitive_desc(sd, userScratchpad(), engine()));
             });
  if (found)
    runUnary(*found, "softmax", x, out);
}

/// x into out in another channel layout; operands and fields as reorder::
/// in KernelABI.h.
PDK_EXPORT void pdk_reorder(const int64_t *ptrs, const int64_t *ints, const float *) {
  void *x = ptrAt(ptrs, reorder::Input), *out = ptrAt(ptrs, reorder::NumSlots);
  Dims dims(ints + reorder::NumInts);
  const int64_t *xd = dims.next(), *od = dims.next();
  size_t nInts = static_cast<size_t>(dims.p - ints);
  if (!kernelError.empty())
    return;
  int64_t xNchw[4], oNchw[4];
  if (!activationRankFits(xd, ints[reorder::SrcLayout]) ||
      !activationRankFits(od, ints[reorder::DstLayout])) {
    kernelError = "oneDNN kernel: reorder: operands must be 4-D (or 5-D in layout nChw16c)";
    return;
  }
  const int64_t *xs = activationDims(xd, xNchw), *os = activationDims(od, oNchw);
  for (int k = 0; k < 4; ++k) {
    if (xs[k] != os[k]) {
      kernelError = "oneDNN kernel: reorder: the two sides have different shapes";
      return;
    }
    if (xs[k] == 0)
      return; // nothing to move
  }
  Entry *found =
      create(makeKey(ReorderKey, ints, nInts, nullptr, reorder::NumFloats, nullptr), "reorder",
             nullptr, [&](Entry &e) {
               memory::dims shape = {xs[0], xs[1], xs[2], xs[3]};
               e.srcUser = memory::desc(shape, dt::f32, convLayout(ints[reorder::SrcLayout]));
               e.dstUser = memory::desc(shape, dt::f32, convLayout(ints[reorder::DstLayout]));
               e.prim = makeReorder(e.srcUser, e.dstUser);
             });
  if (found)
    runUnary(*found, "reorder", x, out);
}

/// Max or average pooling of x into out (NCHW shapes). Only for what the
/// compiler picks it for: pooling right after a convolution, whose
/// activations may then stay in the convolutions' layout
/// (pd-kernel-layouts), and int8 pooling. Operands and fields as pool:: in
/// KernelABI.h.
PDK_EXPORT void pdk_pool2d(const int64_t *ptrs, const int64_t *ints, const float *floats) {
  void *x = ptrAt(ptrs, pool::Input), *out = ptrAt(ptrs, pool::NumSlots);
  Dims dims(ints + pool::NumInts);
  const int64_t *xd = dims.next(), *od = dims.next();
  size_t nInts = static_cast<size_t>(dims.p - ints);
  if (!kernelError.empty())
    return;
  int64_t kind = ints[pool::Kind];
  auto known = [](int64_t t) { return t == qtype::F32 || t == qtype::S8 || t == qtype::U8; };
  if (kind < pool::Max || kind > pool::AvgIncludePadding || xd[-1] != 4 || od[-1] != 4 ||
      !known(ints[pool::DataType]) || !known(ints[pool::DstDataType]) ||
      (kind == pool::Max && ints[pool::DstDataType] != ints[pool::DataType])) {
    kernelError = "oneDNN kernel: pooling: unsupported parameters (it takes 4-D max pooling of "
                  "f32, s8 or u8, and average pooling from and to those)";
    return;
  }
  if (xd[0] == 0)
    return; // an empty batch: nothing to compute (oneDNN refuses empty tensors)
  Entry *found = create(
      makeKey(PoolKey, ints, nInts, floats, pool::NumFloats, nullptr), "pooling", nullptr,
      [&](Entry &e) {
        memory::dims src = {xd[0], xd[1], xd[2], xd[3]}, dst = {od[0], od[1], od[2], od[3]};
        e.srcUser =
            memory::desc(src, qtypeOf(ints[pool::DataType]), convLayout(ints[pool::SrcLayout]));
        e.dstUser =
            memory::desc(dst, qtypeOf(ints[pool::DstDataType]), convLayout(ints[pool::DstLayout]));
        algorithm alg = kind == pool::Max                 ? algorithm::pooling_max
                        : kind == pool::AvgExcludePadding ? algorithm::pooling_avg_exclude_padding
                                                          : algorithm::pooling_avg_include_padding;
        dnnl::pooling_forward::desc pd(dnnl::prop_kind::forward_inference, alg, e.srcUser,
                                       e.dstUser, {ints[pool::StrideH], ints[pool::StrideW]},
                                       {ints[pool::WindowH], ints[pool::WindowW]},
                                       {ints[pool::PadTop], ints[pool::PadLeft]},
                                       {ints[pool::PadBottom], ints[pool::PadRight]});
        // The int8 average's change of step, applied to the f32 average
        // before it is rounded and saturated to the destination.
        dnnl::primitive_attr attr;
        if (float rescale = floats[pool::Rescale]; rescale != 1.f) {
          dnnl::post_ops po;
          po.append_eltwise(1.f, algorithm::eltwise_linear, rescale, 0.f);
          attr.set_post_ops(po);
        }
        e.prim = Prim::of<dnnl::pooling_forward>(
            dnnl::pooling_forward::primitive_desc(pd, userScratchpad(attr), engine()));
      });
  if (found)
    runUnary(*found, "pooling", x, out);
}

} // extern "C"

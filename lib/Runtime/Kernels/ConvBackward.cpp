//===- ConvBackward.cpp - pdk_conv2d_backward_{data,weights}: oneDNN -----===//
//
// The two gradients of an fp32 NCHW convolution for training, by oneDNN's
// backward-data and backward-weights primitives (convgrad:: in
// KernelABI.h). The filter and its gradient are plain OIHW; an activation
// side is plain NCHW or, as the compiler laid it out, nChw16c (a rank-5
// operand). oneDNN is asked for the caller's layout where it is blocked
// (no reorder) and picks its own (`any`) for a plain side, which the entry
// reorders into and out of, as the forward kernels do. The primitives are
// created with a forward-training hint of the same geometry, as oneDNN
// requires, and cached like every other kernel.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <cstring>

using namespace pdk;

namespace {
enum class Direction { Data, Weights };

/// Runs a backward primitive: operand A (DNNL argument `argA`) in the
/// entry's src descriptors, B (`argB`) in its weights descriptors, the
/// result (`argOut`) in its dst descriptors; each reordered where oneDNN
/// chose another layout.
void runBackward(Entry &e, int argA, const void *a, int argB, const void *bPtr, int argOut,
                 void *out) {
  dnnl::stream &s = stream();
  const void *aP = a, *bP = bPtr;
  void *outP = out;
  if (e.srcPrim != e.srcUser) {
    void *buf = scratch(SrcBuf, e.srcPrim.get_size());
    e.srcReorder.execute(s, {{DNNL_ARG_FROM, &e.srcUser, a}, {DNNL_ARG_TO, &e.srcPrim, buf}});
    aP = buf;
  }
  if (e.weiPrim != e.weiUser) {
    void *buf = scratch(WeiBuf, e.weiPrim.get_size());
    e.weiReorder.execute(s, {{DNNL_ARG_FROM, &e.weiUser, bPtr}, {DNNL_ARG_TO, &e.weiPrim, buf}});
    bP = buf;
  }
  if (e.dstPrim != e.dstUser)
    outP = scratch(DstBuf, e.dstPrim.get_size());
  e.prim.execute(s, {{argA, &e.srcPrim, aP}, {argB, &e.weiPrim, bP}, {argOut, &e.dstPrim, outP}});
  if (e.dstPrim != e.dstUser)
    e.dstReorder.execute(s, {{DNNL_ARG_FROM, &e.dstPrim, outP}, {DNNL_ARG_TO, &e.dstUser, out}});
  s.wait();
}

void convBackward(const int64_t *ptrs, const int64_t *ints, Direction dir) {
  namespace cg = convgrad;
  bool data = dir == Direction::Data;
  // Operand A: the filter (data) or the input (weights); B: the output's
  // gradient; then the destination.
  void *a = ptrAt(ptrs, data ? cg::Filter : cg::Input), *dy = ptrAt(ptrs, cg::OutputGrad),
       *out = ptrAt(ptrs, cg::NumSlots);
  Dims dims(ints + cg::NumInts);
  const int64_t *ad = dims.next(), *dyd = dims.next(), *od = dims.next();
  size_t nInts = static_cast<size_t>(dims.p - ints);
  if (!kernelError.empty())
    return;
  const char *what = data ? "convolution backward-data" : "convolution backward-weights";
  // The activation sides (x or dx, and dy) are 4-D, or 5-D when blocked.
  const int64_t *xSide = data ? od : ad, *wd = data ? ad : od;
  if (!activationRankFits(xSide, ints[cg::XLayout]) ||
      !activationRankFits(dyd, ints[cg::DyLayout]) || wd[-1] != 4) {
    kernelError =
        std::string("oneDNN kernel: ") + what + ": operands must be 4-D (or 5-D in layout nChw16c)";
    return;
  }
  int64_t xNchw[4], dyNchw[4];
  const int64_t *xd = activationDims(xSide, xNchw);
  dyd = activationDims(dyd, dyNchw);
  if (xd[0] == 0) {
    // An empty batch: no input gradient to write, a zero filter gradient.
    size_t n = 1;
    for (int64_t i = 0; i < od[-1]; ++i)
      n *= static_cast<size_t>(od[i]);
    std::memset(out, 0, n * sizeof(float));
    return;
  }
  int64_t groups = ints[conv::Groups];
  Entry *found = create(
      makeKey(data ? ConvBwdDataKey : ConvBwdWeightsKey, ints, nInts, nullptr, cg::NumFloats,
              nullptr),
      what, nullptr, [&](Entry &e) {
        memory::dims src = {xd[0], xd[1], xd[2], xd[3]}, dst = {dyd[0], dyd[1], dyd[2], dyd[3]};
        memory::dims wei = groups == 1 ? memory::dims{wd[0], wd[1], wd[2], wd[3]}
                                       : memory::dims{groups, wd[0] / groups, wd[1], wd[2], wd[3]};
        tag wtag = groups == 1 ? tag::oihw : tag::goihw;
        memory::desc srcAny(src, dt::f32, tag::any), weiAny(wei, dt::f32, tag::any),
            dstAny(dst, dt::f32, tag::any);
        memory::dims strides = {ints[conv::StrideH], ints[conv::StrideW]},
                     dilates = {ints[conv::DilationH] - 1, ints[conv::DilationW] - 1},
                     padL = {ints[conv::PadTop], ints[conv::PadLeft]},
                     padR = {ints[conv::PadBottom], ints[conv::PadRight]};
        memory::desc xUser(src, dt::f32, convLayout(ints[cg::XLayout])), wUser(wei, dt::f32, wtag),
            dyUser(dst, dt::f32, convLayout(ints[cg::DyLayout]));
        // A blocked side is what the primitive gets (oneDNN's backward
        // kernels take nChw16c), so it runs without reorders; a plain one
        // is left to oneDNN.
        memory::desc xPrim = ints[cg::XLayout] != layout::NCHW ? xUser : srcAny,
                     dyPrim = ints[cg::DyLayout] != layout::NCHW ? dyUser : dstAny;
        dnnl::convolution_forward::primitive_desc hint(
            dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training,
                                            algorithm::convolution_direct, xPrim, weiAny, dyPrim,
                                            strides, dilates, padL, padR),
            engine());
        // Operand A (the filter for data, the input for weights) in the
        // entry's src descriptors, dY in its weights descriptors, the
        // result in its dst descriptors.
        e.srcUser = data ? wUser : xUser;
        e.weiUser = dyUser;
        e.dstUser = data ? xUser : wUser;
        if (data) {
          dnnl::convolution_backward_data::primitive_desc pd(
              dnnl::convolution_backward_data::desc(algorithm::convolution_direct, xPrim, weiAny,
                                                    dyPrim, strides, dilates, padL, padR),
              userScratchpad(), engine(), hint);
          e.prim = Prim::of<dnnl::convolution_backward_data>(pd);
          e.srcPrim = pd.weights_desc();
          e.weiPrim = pd.diff_dst_desc();
          e.dstPrim = pd.diff_src_desc();
          e.impl = pd.impl_info_str();
        } else {
          dnnl::convolution_backward_weights::primitive_desc pd(
              dnnl::convolution_backward_weights::desc(algorithm::convolution_direct, xPrim, weiAny,
                                                       dyPrim, strides, dilates, padL, padR),
              userScratchpad(), engine(), hint);
          e.prim = Prim::of<dnnl::convolution_backward_weights>(pd);
          e.srcPrim = pd.src_desc();
          e.weiPrim = pd.diff_dst_desc();
          e.dstPrim = pd.diff_weights_desc();
          e.impl = pd.impl_info_str();
        }
        e.callee = data ? "pdk_conv2d_backward_data" : "pdk_conv2d_backward_weights";
        if (e.srcPrim != e.srcUser)
          e.srcReorder = makeReorder(e.srcUser, e.srcPrim);
        if (e.weiPrim != e.weiUser)
          e.weiReorder = makeReorder(e.weiUser, e.weiPrim);
        if (e.dstPrim != e.dstUser)
          e.dstReorder = makeReorder(e.dstPrim, e.dstUser);
      });
  if (!found)
    return;
  try {
    if (data)
      runBackward(*found, DNNL_ARG_WEIGHTS, a, DNNL_ARG_DIFF_DST, dy, DNNL_ARG_DIFF_SRC, out);
    else
      runBackward(*found, DNNL_ARG_SRC, a, DNNL_ARG_DIFF_DST, dy, DNNL_ARG_DIFF_WEIGHTS, out);
  } catch (const dnnl::error &err) {
    fail((std::string(what) + " failed").c_str(), err);
  }
}
} // namespace

extern "C" {

/// dL/dInput of an fp32 NCHW convolution; operands and fields as
/// convgrad:: in KernelABI.h.
PDK_EXPORT void pdk_conv2d_backward_data(const int64_t *ptrs, const int64_t *ints, const float *) {
  convBackward(ptrs, ints, Direction::Data);
}

/// dL/dFilter of an fp32 NCHW convolution; operands and fields as
/// convgrad:: in KernelABI.h.
PDK_EXPORT void pdk_conv2d_backward_weights(const int64_t *ptrs, const int64_t *ints,
                                            const float *) {
  convBackward(ptrs, ints, Direction::Weights);
}

} // extern "C"

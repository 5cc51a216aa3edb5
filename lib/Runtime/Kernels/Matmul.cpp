//===- Matmul.cpp - pdk_matmul: oneDNN batched matrix products -----------===//
//
// fc and matmul_v2 (equal or broadcast batch) with fused bias and
// activation (matmul:: in KernelABI.h).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <cstdlib>

using namespace pdk;

namespace {

/// Activations a gemm-based matmul applies fast as a post-op (the others,
/// gelu in particular, it evaluates slowly: 768x3072 fc + gelu took 75%
/// longer than the same fc without; a separate eltwise primitive costs ~1%).
bool cheapPostOp(int64_t code) {
  return code == act::Relu || code == act::Relu6 || code == act::LeakyRelu;
}
} // namespace

extern "C" {

/// Batched matrix product out = act(A x B + bias); operands and fields as
/// matmul:: in KernelABI.h.
PDK_EXPORT void pdk_matmul(const int64_t *ptrs, const int64_t *ints, const float *floats) {
  void *a = ptrAt(ptrs, matmul::A), *b = ptrAt(ptrs, matmul::B), *bias = ptrAt(ptrs, matmul::Bias),
       *out = ptrAt(ptrs, matmul::NumSlots);
  Dims dims(ints + matmul::NumInts);
  const int64_t *ad = dims.next(), *bd = dims.next();
  if (bias)
    dims.next();
  const int64_t *od = dims.next();
  size_t nInts = static_cast<size_t>(dims.p - ints);
  bool fc = ints[matmul::Kind] == matmul::Fc, ta = ints[matmul::TransA] != 0,
       tb = ints[matmul::TransB] != 0, constW = ints[matmul::ConstWeights] != 0;
  auto prod = [](const int64_t *v, int64_t n) {
    int64_t r = 1;
    for (int64_t i = 0; i < n; ++i)
      r *= v[i];
    return r;
  };
  int64_t ar = ad[-1], orank = od[-1];
  int64_t M = prod(od, orank - 1), N = od[orank - 1], batch = 1, bA = 1, bB = 1, K;
  if (fc) {
    K = bd[0];
  } else {
    M = od[orank - 2];
    batch = prod(od, orank - 2);
    bA = prod(ad, ar - 2);
    bB = prod(bd, bd[-1] - 2);
    K = ta ? ad[ar - 2] : ad[ar - 1];
  }
  if (!kernelError.empty())
    return;
  Entry *found =
      create(makeKey(MatmulKey, ints, nInts, floats, matmul::NumFloats, constW ? b : nullptr),
             "matrix product", constW ? b : nullptr, [&](Entry &e) {
               // A: [bA, M, K] (stored [bA, K, M] when transposed); likewise B.
               e.srcUser = ta ? memory::desc({bA, M, K}, dt::f32, memory::dims{M * K, 1, M})
                              : memory::desc({bA, M, K}, dt::f32, memory::dims{M * K, K, 1});
               e.weiUser = tb ? memory::desc({bB, K, N}, dt::f32, memory::dims{K * N, 1, K})
                              : memory::desc({bB, K, N}, dt::f32, memory::dims{K * N, N, 1});
               e.dstUser = memory::desc({batch, M, N}, dt::f32, tag::abc);
               // Constant weights are packed transposed (K contiguous per output
               // column): oneDNN 2.6 leaves `any` plain for gemm-based matmul, and
               // the transposed copy measured 1.3x faster on BERT-base batch 1
               // (PDK_MATMUL_ANY_WEIGHTS=1 restores `any` to compare).
               tag wtag = std::getenv("PDK_MATMUL_ANY_WEIGHTS") ? tag::any : tag::acb;
               memory::desc weiAny = constW ? memory::desc({bB, K, N}, dt::f32, wtag) : e.weiUser;
               e.biasMd = bias ? memory::desc({1, 1, N}, dt::f32, tag::abc) : memory::desc();
               const memory::desc &biasMd = e.biasMd;
               dnnl::matmul::desc md(e.srcUser, weiAny, biasMd, e.dstUser);
               dnnl::post_ops po;
               int64_t code = ints[matmul::Activation];
               float alpha = floats[matmul::Alpha];
               if (cheapPostOp(code)) {
                 appendActivation(po, code, alpha);
               } else {
                 algorithm alg;
                 float ea, eb;
                 if (activation(code, alpha, alg, ea, eb)) {
                   dnnl::eltwise_forward::desc ed(dnnl::prop_kind::forward_inference, alg,
                                                  e.dstUser, ea, eb);
                   e.epilogue = Prim::of<dnnl::eltwise_forward>(
                       dnnl::eltwise_forward::primitive_desc(ed, userScratchpad(), engine()));
                   e.hasEpilogue = true;
                 }
               }
               dnnl::primitive_attr attr = userScratchpad();
               attr.set_post_ops(po);
               dnnl::matmul::primitive_desc pd(md, attr, engine());
               e.prim = Prim::of<dnnl::matmul>(pd);
               e.srcPrim = e.srcUser;
               e.dstPrim = e.dstUser;
               e.weiPrim = pd.weights_desc();
             });
  if (found)
    runOrRecord(*found, "matrix product", a, b, bias, nullptr, out, false);
}

} // extern "C"

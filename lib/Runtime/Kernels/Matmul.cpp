//===- Matmul.cpp - pdk_matmul(_bf16): oneDNN batched matrix products ----===//
//
// fc and matmul_v2 (equal or broadcast batch) with fused bias and
// activation, in fp32 (matmul:: in KernelABI.h) and bf16 (bmatmul::), one
// body for both.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <cmath>
#include <cstdlib>

using namespace pdk;

namespace {

/// Activations a gemm-based matmul applies fast as a post-op (the others,
/// gelu in particular, it evaluates slowly: 768x3072 fc + gelu took 75%
/// longer than the same fc without; a separate eltwise primitive costs ~1%).
bool cheapPostOp(int64_t code) {
  return code == act::Relu || code == act::Relu6 || code == act::LeakyRelu;
}

/// The element types of one matrix product: of the products (f32, bf16,
/// or s8 for int8 products), and of the caller's A, B and destination
/// buffers; int8 products are scaled by `scale` into an f32 destination.
struct MatmulTypes {
  dt compute, a, b, dst;
  float scale = 1.f;
};

dt userType(int64_t code) { return code == ftype::BF16 ? dt::bf16 : dt::f32; }

/// out = act(A x B + bias) with the given types; `nParams` integer fields
/// precede the dims; `key` leads the cache key.
void matrixProduct(const int64_t *ptrs, const int64_t *ints, const float *floats, int64_t nParams,
                   const MatmulTypes &ty, int64_t key, size_t nFloats = matmul::NumFloats) {
  void *a = ptrAt(ptrs, matmul::A), *b = ptrAt(ptrs, matmul::B), *bias = ptrAt(ptrs, matmul::Bias),
       *out = ptrAt(ptrs, matmul::NumSlots);
  Dims dims(ints + nParams);
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
  Entry *found = create(
      makeKey(key, ints, nInts, floats, nFloats, constW ? b : nullptr), "matrix product",
      constW ? b : nullptr, [&](Entry &e) {
        // Builds `e` with products in `compute`: the kernel's own type, or
        // f32 where oneDNN has no bf16 matmul (as for pdk_conv2d_bf16).
        auto build = [&](dt compute) {
          // A: [bA, M, K] (stored [bA, K, M] when transposed); likewise B.
          auto aDesc = [&](dt t) {
            return ta ? memory::desc({bA, M, K}, t, memory::dims{M * K, 1, M})
                      : memory::desc({bA, M, K}, t, memory::dims{M * K, K, 1});
          };
          auto bDesc = [&](dt t) {
            return tb ? memory::desc({bB, K, N}, t, memory::dims{K * N, 1, K})
                      : memory::desc({bB, K, N}, t, memory::dims{K * N, N, 1});
          };
          e.srcUser = aDesc(ty.a);
          e.weiUser = bDesc(ty.b);
          e.dstUser = memory::desc({batch, M, N}, ty.dst, tag::abc);
          // The primitive reads A and B in the compute type (a user side of
          // another type is converted by a reorder before it) and writes
          // the caller's type, except f32 products, which write f32
          // (converted after). int8 products read the caller's s8 / u8.
          bool int8 = compute == dt::s8;
          memory::desc srcCompute = aDesc(int8 ? ty.a : compute),
                       weiCompute = bDesc(int8 ? ty.b : compute);
          memory::desc dstCompute({batch, M, N}, compute == dt::bf16 ? ty.dst : dt::f32, tag::abc);
          // Constant weights are packed transposed (K contiguous per output
          // column): oneDNN 2.6 leaves `any` plain for gemm-based matmul, and
          // the transposed copy measured 1.3x faster on BERT-base batch 1
          // (PDK_MATMUL_ANY_WEIGHTS=1 restores `any` to compare).
          tag wtag = std::getenv("PDK_MATMUL_ANY_WEIGHTS") ? tag::any : tag::acb;
          memory::desc weiAny = constW ? memory::desc({bB, K, N}, compute, wtag) : weiCompute;
          e.biasMd = bias ? memory::desc({1, 1, N}, dt::f32, tag::abc) : memory::desc();
          const memory::desc &biasMd = e.biasMd;
          dnnl::matmul::desc md(srcCompute, weiAny, biasMd, dstCompute);
          dnnl::post_ops po;
          if (ty.compute == dt::s8) // int8 (or its f32 emulation): the steps
            po.append_eltwise(1.f, algorithm::eltwise_linear, ty.scale, 0.f);
          int64_t code = ints[matmul::Activation];
          float alpha = floats[matmul::Alpha];
          if (cheapPostOp(code)) {
            appendActivation(po, code, alpha);
          } else {
            algorithm alg;
            float ea, eb;
            if (activation(code, alpha, alg, ea, eb)) {
              dnnl::eltwise_forward::desc ed(dnnl::prop_kind::forward_inference, alg, e.dstUser, ea,
                                             eb);
              e.epilogue = Prim::of<dnnl::eltwise_forward>(
                  dnnl::eltwise_forward::primitive_desc(ed, userScratchpad(), engine()));
              e.hasEpilogue = true;
            }
          }
          dnnl::primitive_attr attr = userScratchpad();
          attr.set_post_ops(po);
          dnnl::matmul::primitive_desc pd(md, attr, engine());
          e.prim = Prim::of<dnnl::matmul>(pd);
          e.srcPrim = srcCompute;
          e.dstPrim = dstCompute;
          e.weiPrim = pd.weights_desc();
          if (e.srcPrim != e.srcUser)
            e.srcReorder = makeReorder(e.srcUser, e.srcPrim);
          if (e.dstPrim != e.dstUser)
            e.dstReorder = makeReorder(e.dstPrim, e.dstUser);
          if (e.weiPrim != e.weiUser && !constW)
            e.weiReorder = makeReorder(e.weiUser, e.weiPrim);
          return std::string(pd.impl_info_str());
        };
        if (ty.compute == dt::f32) {
          build(dt::f32);
          return;
        }
        if (ty.compute == dt::s8) {
          // f32 products of the integers are exact while the sums stay
          // below 2^24 (K up to 1040 of full-range values).
          e.callee = "pdk_qbmatmul";
          e.impl = key == QBMatmulKey ? build(dt::s8)
                                      : "f32 emulation of int8 (no VNNI): " + build(dt::f32);
          return;
        }
        e.callee = "pdk_matmul_bf16";
        if (!std::getenv("PDK_BF16_EMULATE")) {
          try {
            e.impl = build(dt::bf16);
            return;
          } catch (const dnnl::error &) {
            e = Entry();
            e.callee = "pdk_matmul_bf16";
          }
        }
        // f32 products of the bf16 values: f32 sides are rounded first.
        e.roundSrc = ty.a == dt::f32;
        e.roundWei = ty.b == dt::f32;
        e.impl = "f32 emulation of bf16 (no bf16 matmul on this CPU): " + build(dt::f32);
      });
  if (found)
    runOrRecord(*found, "matrix product", a, b, bias, nullptr, out, false);
}
} // namespace

extern "C" {

/// Batched matrix product out = act(A x B + bias); operands and fields as
/// matmul:: in KernelABI.h.
PDK_EXPORT void pdk_matmul(const int64_t *ptrs, const int64_t *ints, const float *floats) {
  matrixProduct(ptrs, ints, floats, matmul::NumInts, {dt::f32, dt::f32, dt::f32, dt::f32},
                MatmulKey);
}

/// The same in bf16 (bmatmul:: in KernelABI.h): A, B and the destination
/// f32 or bf16, Bias f32.
PDK_EXPORT void pdk_matmul_bf16(const int64_t *ptrs, const int64_t *ints, const float *floats) {
  matrixProduct(ptrs, ints, floats, bmatmul::NumInts,
                {dt::bf16, userType(ints[bmatmul::AType]), userType(ints[bmatmul::BType]),
                 userType(ints[bmatmul::DstType])},
                Bf16MatmulKey);
}

/// int8 product of two run-time tensors (qbmatmul:: in KernelABI.h).
PDK_EXPORT void pdk_qbmatmul(const int64_t *ptrs, const int64_t *ints, const float *floats) {
  int64_t at = ints[qbmatmul::AType], bt = ints[qbmatmul::BType];
  if (ints[matmul::Kind] != matmul::Batched || ptrAt(ptrs, matmul::Bias) ||
      (at != qtype::S8 && at != qtype::U8) || bt != qtype::S8 ||
      !(floats[qbmatmul::Scale] != 0.f) || !std::isfinite(floats[qbmatmul::Scale])) {
    if (kernelError.empty())
      kernelError = "pdk_qbmatmul: needs a batched product of an s8 or u8 A and an s8 B, no "
                    "bias, and a finite nonzero scale";
    return;
  }
  MatmulTypes ty{dt::s8, at == qtype::U8 ? dt::u8 : dt::s8, dt::s8, dt::f32,
                 floats[qbmatmul::Scale]};
  matrixProduct(ptrs, ints, floats, qbmatmul::NumInts, ty,
                exactInt8() ? QBMatmulKey : QBMatmulEmulatedKey, qbmatmul::NumFloats);
}

} // extern "C"

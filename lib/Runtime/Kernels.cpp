//===- Kernels.cpp - oneDNN-backed kernels that compiled models call ------===//
//
// libpdrt_kernels.so: the heavy ops `pd.kernel_call` names (convolution and
// matrix products) computed by oneDNN. No MLIR or LLVM here.
//
// Calling convention (see pd.kernel_call): every kernel is
//   void pdk_<name>(const int64_t *ptrs, const int64_t *ints, const float *floats)
// `ptrs` holds the operand data pointers (null for an absent optional slot)
// and then the destination; `ints` the kernel's integer parameters followed by
// the dims of each present operand and of the destination; `floats` its float
// parameters.
//
// Primitives are created on first use for a given shape and kept (per
// process, keyed by every parameter and dim). A constant weight (the
// compiler says so) is re-laid-out once into the primitive's preferred
// layout and the packed copy is kept with the primitive, keyed by the
// weight's address too; pdk_forget() drops entries whose weights lie in a
// range, which the runtime calls before it frees a model's weights.
//
//===----------------------------------------------------------------------===//

#include "oneapi/dnnl/dnnl.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

using dnnl::algorithm;
using dnnl::memory;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

namespace {

dnnl::engine &engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

dnnl::stream &stream() {
  thread_local dnnl::stream s(engine());
  return s;
}

/// Roles of the per-thread scratch buffers.
enum Scratch : int { SrcBuf, DstBuf, WeiBuf, PadBuf, NumScratch };

/// A per-thread, grow-only, 64-byte aligned scratch buffer (one per role),
/// so runs after the first allocate nothing.
void *scratch(int role, size_t bytes) {
  struct Buf {
    void *p = nullptr;
    size_t n = 0;
    ~Buf() { std::free(p); }
  };
  thread_local Buf bufs[NumScratch];
  Buf &b = bufs[role];
  if (b.n < bytes) {
    std::free(b.p);
    b.n = (bytes + 63) / 64 * 64;
    b.p = std::aligned_alloc(64, b.n);
    if (!b.p) {
      b.n = 0;
      throw dnnl::error(dnnl_out_of_memory, "out of memory for a reorder scratch buffer");
    }
  }
  return b.p;
}

/// Fused activation codes (the compiler's ActivationCode).
enum Act : int64_t { None = 0, Relu, Relu6, LeakyRelu, Sigmoid, Tanh, Swish, HardSwish, Gelu };

/// The oneDNN eltwise algorithm and its alpha/beta for an activation code;
/// false for none.
bool activation(int64_t act, float alpha, algorithm &alg, float &a, float &b) {
  a = 0.f, b = 0.f;
  switch (act) {
  case Relu:
    alg = algorithm::eltwise_relu;
    return true;
  case Relu6:
    alg = algorithm::eltwise_clip, b = alpha != 0.f ? alpha : 6.f;
    return true;
  case LeakyRelu:
    alg = algorithm::eltwise_relu, a = alpha;
    return true;
  case Sigmoid:
    alg = algorithm::eltwise_logistic;
    return true;
  case Tanh:
    alg = algorithm::eltwise_tanh;
    return true;
  case Swish:
    alg = algorithm::eltwise_swish, a = 1.f;
    return true;
  case HardSwish:
    alg = algorithm::eltwise_hardswish;
    return true;
  case Gelu:
    alg = algorithm::eltwise_gelu_erf;
    return true;
  default:
    return false;
  }
}

void appendActivation(dnnl::post_ops &po, int64_t act, float alpha) {
  algorithm alg;
  float a, b;
  if (activation(act, alpha, alg, a, b))
    po.append_eltwise(1.f, alg, a, b);
}

/// Activations a gemm-based matmul applies fast as a post-op (the others,
/// gelu in particular, it evaluates slowly: 768x3072 fc + gelu took 75%
/// longer than the same fc without; a separate eltwise primitive costs ~1%).
bool cheapPostOp(int64_t act) { return act == Relu || act == Relu6 || act == LeakyRelu; }

/// Attributes with user-managed scratchpad (see Prim).
dnnl::primitive_attr userScratchpad(dnnl::primitive_attr attr = dnnl::primitive_attr()) {
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

/// A primitive and the scratchpad it needs. A cached primitive serves every
/// instance of a model, so several threads run it at once; oneDNN's
/// library-managed scratchpad does not allow that (a primitive must stay
/// on the thread that created it, and the AVX-512 brgemm convolutions and
/// matmuls returned wrong results from test/e2e/threads.test). So every
/// primitive is created in user scratchpad mode and each run passes the
/// calling thread's own scratch buffer.
///
/// A call names each argument's buffer; the memory objects wrapping them
/// (and the argument array) are made once per primitive and thread and then
/// only re-pointed (set_data_handle), and the primitive runs through the C
/// API, so steady-state calls allocate nothing on our side (oneDNN's own
/// execution bookkeeping still does).
struct Arg {
  int id;
  const memory::desc *md;
  const void *ptr;
};

struct Prim {
  dnnl::primitive p;
  memory::desc pad;
  uint64_t id = 0; // never reused, unlike addresses (see bound())
  Prim() = default;
  /// The primitive `P` for `pd`, with `pd`'s scratchpad.
  template <typename P, typename PrimitiveDesc> static Prim of(const PrimitiveDesc &pd) {
    Prim r;
    r.p = P(pd);
    r.pad = pd.scratchpad_desc();
    r.id = nextId();
    return r;
  }
  /// One counter for every kind of primitive (a static inside of<> would
  /// be one per instantiation, and ids of a matmul and an eltwise collide).
  static uint64_t nextId() {
    static std::atomic<uint64_t> next{1};
    return next++;
  }
  void execute(dnnl::stream &s, std::initializer_list<Arg> args) const;
};

/// This thread's memory objects and argument array for one primitive.
struct Bound {
  std::vector<memory> mems;
  std::vector<dnnl_exec_arg_t> args;
};

Bound &bound(uint64_t prim) {
  thread_local std::unordered_map<uint64_t, Bound> byPrim;
  return byPrim[prim];
}

void Prim::execute(dnnl::stream &s, std::initializer_list<Arg> args) const {
  Bound &b = bound(id);
  size_t padBytes = pad.get_size();
  void *padPtr = padBytes ? scratch(PadBuf, padBytes) : nullptr;
  if (b.mems.empty()) {
    for (const Arg &a : args) {
      b.mems.emplace_back(*a.md, engine(), const_cast<void *>(a.ptr));
      b.args.push_back({a.id, b.mems.back().get()});
    }
    if (padBytes) {
      b.mems.emplace_back(pad, engine(), padPtr);
      b.args.push_back({DNNL_ARG_SCRATCHPAD, b.mems.back().get()});
    }
  } else {
    size_t i = 0;
    for (const Arg &a : args)
      b.mems[i++].set_data_handle(const_cast<void *>(a.ptr));
    if (padBytes)
      b.mems[i].set_data_handle(padPtr);
  }
  dnnl_status_t st =
      dnnl_primitive_execute(p.get(), s.get(), static_cast<int>(b.args.size()), b.args.data());
  if (st != dnnl_success)
    throw dnnl::error(st, "could not execute a primitive");
}

/// One created primitive with what running it needs.
struct Entry {
  Prim prim;
  memory::desc srcUser, srcPrim, dstUser, dstPrim, weiPrim, resUser, biasMd;
  memory packedWeights; // valid when the weights are constant and re-laid-out
  bool weightsConst = false;
  Prim weiReorder, srcReorder, dstReorder, resReorder;
  memory::desc weiUser;
  const void *weightAddr = nullptr;
  Prim epilogue; // in-place eltwise on the destination, if any
  bool hasEpilogue = false;
};

std::mutex cacheMutex;
std::map<std::vector<int64_t>, std::unique_ptr<Entry>> &cache() {
  static auto *c = new std::map<std::vector<int64_t>, std::unique_ptr<Entry>>();
  return *c;
}

/// The cache key of a call, in a per-thread buffer that keeps its capacity
/// (lookup copies it only when it creates an entry).
const std::vector<int64_t> &makeKey(int64_t kind, const int64_t *ints, size_t n,
                                    const float *floats, size_t nf, const void *constWeights) {
  thread_local std::vector<int64_t> key;
  key.clear();
  key.push_back(kind);
  key.insert(key.end(), ints, ints + n);
  for (size_t i = 0; i < nf; ++i) {
    int32_t bits;
    std::memcpy(&bits, &floats[i], 4);
    key.push_back(bits);
  }
  key.push_back(static_cast<int64_t>(reinterpret_cast<intptr_t>(constWeights)));
  // oneDNN fixes a primitive's thread count when it creates it: a run the
  // runtime gives fewer threads (pdk_set_num_threads) needs its own.
  key.push_back(omp_in_parallel() ? 1 : omp_get_max_threads());
  return key;
}

/// Finds or creates the entry for `key` (creation under the lock: primitive
/// creation is rare and packing must happen once). Null when `create`
/// fails (returns false); nothing is cached then.
template <typename Create> Entry *lookup(const std::vector<int64_t> &key, Create create) {
  std::lock_guard<std::mutex> lock(cacheMutex);
  auto &c = cache();
  auto it = c.find(key);
  if (it != c.end())
    return it->second.get();
  auto e = std::make_unique<Entry>();
  if (!create(*e))
    return nullptr;
  Entry *ref = e.get();
  c.emplace(key, std::move(e));
  return ref;
}

Prim makeReorder(const memory::desc &from, const memory::desc &to) {
  return Prim::of<dnnl::reorder>(
      dnnl::reorder::primitive_desc(engine(), from, engine(), to, userScratchpad()));
}

/// Reads the rank-prefixed operand dims that follow a kernel's parameters.
struct Dims {
  const int64_t *p;
  explicit Dims(const int64_t *start) : p(start) {}
  /// The dims of the next operand (its rank is at [-1]).
  const int64_t *next() {
    const int64_t *d = p + 1;
    p += 1 + *p;
    return d;
  }
};

void *ptrAt(const int64_t *ptrs, int i) { return reinterpret_cast<void *>(ptrs[i]); }

/// The operands of a pdk_conv2d-style call (see pdk_conv2d).
struct ConvOperands {
  static constexpr int kParams = 14;
  void *x, *w, *bias, *res, *out;
  const int64_t *xd, *wd, *od; // dims of x, w and out
  size_t nInts;                // parameters and every operand's dims
  ConvOperands(const int64_t *ptrs, const int64_t *ints)
      : x(ptrAt(ptrs, 0)), w(ptrAt(ptrs, 1)), bias(ptrAt(ptrs, 2)), res(ptrAt(ptrs, 3)),
        out(ptrAt(ptrs, 4)) {
    Dims dims(ints + kParams);
    xd = dims.next();
    wd = dims.next();
    if (bias)
      dims.next();
    if (res)
      dims.next();
    od = dims.next();
    nInts = static_cast<size_t>(dims.p - ints);
  }
};

/// Runs `e.prim` with the user buffers, reordering src/dst/weights where the
/// primitive chose other layouts.
void run(Entry &e, void *src, void *wei, void *bias, void *res, void *dst, bool hasSum) {
  dnnl::stream &s = stream();
  void *srcP = src, *dstP = dst;
  if (e.srcPrim != e.srcUser) {
    srcP = scratch(SrcBuf, e.srcPrim.get_size());
    e.srcReorder.execute(s, {{DNNL_ARG_FROM, &e.srcUser, src}, {DNNL_ARG_TO, &e.srcPrim, srcP}});
  }
  if (e.dstPrim != e.dstUser)
    dstP = scratch(DstBuf, e.dstPrim.get_size());
  if (hasSum) {
    // The residual is accumulated by the sum post-op: it must already be in
    // the destination, in the primitive's layout.
    if (e.resUser != e.dstPrim)
      e.resReorder.execute(s, {{DNNL_ARG_FROM, &e.resUser, res}, {DNNL_ARG_TO, &e.dstPrim, dstP}});
    else if (res != dstP)
      std::memcpy(dstP, res, e.resUser.get_size());
  }
  void *weiP = wei;
  if (e.weightsConst) {
    weiP = e.packedWeights.get_data_handle();
  } else if (e.weiPrim != e.weiUser) {
    weiP = scratch(WeiBuf, e.weiPrim.get_size());
    e.weiReorder.execute(s, {{DNNL_ARG_FROM, &e.weiUser, wei}, {DNNL_ARG_TO, &e.weiPrim, weiP}});
  }
  if (bias)
    e.prim.execute(s, {{DNNL_ARG_SRC, &e.srcPrim, srcP},
                       {DNNL_ARG_WEIGHTS, &e.weiPrim, weiP},
                       {DNNL_ARG_BIAS, &e.biasMd, bias},
                       {DNNL_ARG_DST, &e.dstPrim, dstP}});
  else
    e.prim.execute(s, {{DNNL_ARG_SRC, &e.srcPrim, srcP},
                       {DNNL_ARG_WEIGHTS, &e.weiPrim, weiP},
                       {DNNL_ARG_DST, &e.dstPrim, dstP}});
  if (e.dstPrim != e.dstUser)
    e.dstReorder.execute(s, {{DNNL_ARG_FROM, &e.dstPrim, dstP}, {DNNL_ARG_TO, &e.dstUser, dst}});
  if (e.hasEpilogue)
    e.epilogue.execute(s, {{DNNL_ARG_SRC, &e.dstUser, dst}, {DNNL_ARG_DST, &e.dstUser, dst}});
  s.wait();
}

/// Packs constant weights once into the primitive's layout.
void packWeights(Entry &e, const void *wei) {
  memory user(e.weiUser, engine(), const_cast<void *>(wei));
  if (e.weiPrim == e.weiUser) {
    e.packedWeights = user;
  } else {
    e.packedWeights = memory(e.weiPrim, engine());
    dnnl::reorder(user, e.packedWeights).execute(stream(), user, e.packedWeights);
    stream().wait();
  }
  e.weightAddr = wei;
}

/// The first kernel error of the current run on this thread (empty: none).
/// Kernels never abort: after an error they skip their work and the runtime
/// reports the message (pdk_take_error) as the run's failure.
thread_local std::string kernelError;

void fail(const char *what, const dnnl::error &err) {
  if (kernelError.empty())
    kernelError = std::string("oneDNN kernel: ") + what + ": " + err.what() + " (status " +
                  std::to_string(static_cast<int>(err.status)) + ")";
}

/// Test hook: PDK_TEST_FAIL_CREATE makes primitive creation fail, so the
/// error path can be tested end to end.
void maybeInjectFailure() {
  if (std::getenv("PDK_TEST_FAIL_CREATE"))
    throw dnnl::error(dnnl_runtime_error, "failure injected by PDK_TEST_FAIL_CREATE");
}

/// The cached entry for `key`, built by `build` on first use (then, for
/// constant weights, the weights are packed once). Null, with the error
/// recorded, when oneDNN refuses.
template <typename Build>
Entry *create(const std::vector<int64_t> &key, const char *what, const void *constWeights,
              Build build) {
  return lookup(key, [&](Entry &e) {
    try {
      maybeInjectFailure();
      build(e);
      e.weightsConst = constWeights != nullptr;
      if (constWeights)
        packWeights(e, constWeights);
    } catch (const dnnl::error &err) {
      fail((std::string("cannot create a ") + what).c_str(), err);
      return false;
    }
    return true;
  });
}

/// The oneDNN format of a channel-block field of the kernels' parameters
/// (0: plain NCHW, 8/16: nChw8c/nChw16c, -1: NHWC).
tag convLayout(int64_t block) {
  return block == 16 ? tag::nChw16c : block == 8 ? tag::nChw8c : block < 0 ? tag::nhwc : tag::nchw;
}

/// Runs the one-input primitive of `e` (srcUser -> dstUser), with a oneDNN
/// failure recorded instead of thrown.
void runUnary(Entry &e, const char *what, const void *x, void *out) {
  try {
    dnnl::stream &s = stream();
    e.prim.execute(s, {{DNNL_ARG_SRC, &e.srcUser, x}, {DNNL_ARG_DST, &e.dstUser, out}});
    s.wait();
  } catch (const dnnl::error &err) {
    fail((std::string(what) + " failed").c_str(), err);
  }
}

/// run(), with a oneDNN failure recorded instead of thrown.
void runOrRecord(Entry &e, const char *what, void *src, void *wei, void *bias, void *res, void *dst,
                 bool hasSum) {
  try {
    run(e, src, wei, bias, res, dst, hasSum);
  } catch (const dnnl::error &err) {
    fail((std::string(what) + " failed").c_str(), err);
  }
}

} // namespace

extern "C" {

/// NCHW convolution: act(conv(x, w) + bias [+ residual]).
/// ptrs: x, w, bias?, residual?, out.
/// ints: stride h/w, pad top/bottom/left/right, dilation h/w, groups,
///       activation, weights constant, channel block of x, residual and
///       out (0: plain NCHW, 8/16: nChw8c/nChw16c, -1: NHWC), then (rank, dims) of
///       x, w, bias?,
///       residual?, out.  floats: activation alpha, beta.
__attribute__((visibility("default"))) void pdk_conv2d(const int64_t *ptrs, const int64_t *ints,
                                                       const float *floats) {
  ConvOperands ops(ptrs, ints);
  void *x = ops.x, *w = ops.w, *bias = ops.bias, *res = ops.res, *out = ops.out;
  const int64_t *xd = ops.xd, *wd = ops.wd, *od = ops.od;
  size_t nInts = ops.nInts;
  bool constW = ints[10] != 0;
  int64_t groups = ints[8];
  if (!kernelError.empty())
    return;
  Entry *found = create(
      makeKey(1, ints, nInts, floats, 2, constW ? w : nullptr), "convolution", constW ? w : nullptr,
      [&](Entry &e) {
        memory::dims src = {xd[0], xd[1], xd[2], xd[3]}, dst = {od[0], od[1], od[2], od[3]};
        memory::dims wei = groups == 1 ? memory::dims{wd[0], wd[1], wd[2], wd[3]}
                                       : memory::dims{groups, wd[0] / groups, wd[1], wd[2], wd[3]};
        tag wtag = groups == 1 ? tag::oihw : tag::goihw;
        e.srcUser = memory::desc(src, dt::f32, convLayout(ints[11]));
        e.resUser = memory::desc(dst, dt::f32, convLayout(ints[12]));
        e.dstUser = memory::desc(dst, dt::f32, convLayout(ints[13]));
        e.weiUser = memory::desc(wei, dt::f32, wtag);
        e.biasMd = bias ? memory::desc({wd[0]}, dt::f32, tag::a) : memory::desc();
        const memory::desc &biasMd = e.biasMd;
        memory::desc weiAny = constW ? memory::desc(wei, dt::f32, tag::any) : e.weiUser;
        dnnl::post_ops po;
        if (res)
          po.append_sum(1.f);
        appendActivation(po, ints[9], floats[0]);
        dnnl::primitive_attr attr = userScratchpad();
        attr.set_post_ops(po);
        auto make = [&](const memory::desc &s, const memory::desc &d) {
          dnnl::convolution_forward::desc cd(dnnl::prop_kind::forward_inference,
                                             algorithm::convolution_direct, s, weiAny, biasMd, d,
                                             {ints[0], ints[1]}, {ints[6] - 1, ints[7] - 1},
                                             {ints[2], ints[4]}, {ints[3], ints[5]});
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
        dnnl::convolution_forward::primitive_desc pd;
        if (!std::getenv("PDK_ANY_LAYOUT") && (ints[11] != 0 || ints[13] != 0)) {
          try {
            pd = make(ints[11] != 0 ? e.srcUser : srcAny, ints[13] != 0 ? e.dstUser : dstAny);
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
  int64_t act = ints[9];
  bool ok = ints[0] == 1 && ints[1] == 1 && ints[2] == 1 && ints[3] == 1 && ints[4] == 1 &&
            ints[5] == 1 && ints[6] == 1 && ints[7] == 1 && ints[8] == 1 && ints[10] != 0 &&
            (ints[11] == 8 || ints[11] == -1) && ints[13] == ints[11] &&
            (!res || ints[12] == ints[11]) && wd[2] == 3 && wd[3] == 3 && xd[1] % 8 == 0 &&
            od[1] % 8 == 0 && (act == None || act == Relu || act == Relu6 || act == LeakyRelu);
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
      create(makeKey(M == 2 ? 4 : 6, ints, nInts, floats, 2, w), "winograd convolution", nullptr,
             [&](Entry &e) {
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
    bool nhwc = ints[11] == -1;
    winogradInput<M>(x, v, n, ic, h, wi, nhwc);
    dnnl::stream &s = stream();
    e.prim.execute(s, {{DNNL_ARG_SRC, &e.srcPrim, v},
                       {DNNL_ARG_WEIGHTS, &e.weiPrim, e.packedWeights.get_data_handle()},
                       {DNNL_ARG_DST, &e.dstPrim, m}});
    s.wait();
    float inf = std::numeric_limits<float>::infinity();
    float lo = act == None || act == LeakyRelu ? -inf : 0.f;
    float hi = act == Relu6 ? (floats[0] != 0.f ? floats[0] : 6.f) : inf;
    winogradOutput<M>(m, bias, res, out, n, oc, h, wi, nhwc, lo, hi,
                      act == LeakyRelu ? floats[0] : 1.f);
  } catch (const dnnl::error &err) {
    fail("winograd convolution failed", err);
  }
}

} // namespace

extern "C" {

/// F(2x2, 3x3) and F(4x4, 3x3) (convWinograd).
__attribute__((visibility("default"))) void
pdk_conv2d_winograd(const int64_t *ptrs, const int64_t *ints, const float *floats) {
  convWinograd<2>(ptrs, ints, floats);
}

__attribute__((visibility("default"))) void
pdk_conv2d_winograd4(const int64_t *ptrs, const int64_t *ints, const float *floats) {
  convWinograd<4>(ptrs, ints, floats);
}

/// Batched matrix product out = act(A x B + bias).
/// ptrs: A, B, bias?, out.
/// ints: kind (0: batched, all operands rank >= 2, leading dims are batch,
///       1 or the output's; 1: fc, A flattened to [M, K] with M the product
///       of the output's leading dims), transpose A, transpose B,
///       activation, weights constant, then the dims of A, B, bias? and out,
///       each preceded by its rank.  floats: activation alpha.
__attribute__((visibility("default"))) void pdk_matmul(const int64_t *ptrs, const int64_t *ints,
                                                       const float *floats) {
  constexpr int kParams = 5;
  void *a = ptrAt(ptrs, 0), *b = ptrAt(ptrs, 1), *bias = ptrAt(ptrs, 2), *out = ptrAt(ptrs, 3);
  Dims dims(ints + kParams);
  const int64_t *ad = dims.next(), *bd = dims.next();
  if (bias)
    dims.next();
  const int64_t *od = dims.next();
  size_t nInts = static_cast<size_t>(dims.p - ints);
  bool fc = ints[0] == 1, ta = ints[1] != 0, tb = ints[2] != 0, constW = ints[4] != 0;
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
      create(makeKey(2, ints, nInts, floats, 1, constW ? b : nullptr), "matrix product",
             constW ? b : nullptr, [&](Entry &e) {
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
               if (cheapPostOp(ints[3])) {
                 appendActivation(po, ints[3], floats[0]);
               } else {
                 algorithm alg;
                 float ea, eb;
                 if (activation(ints[3], floats[0], alg, ea, eb)) {
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

/// Softmax (or log-softmax) of x along one axis, into out (x's shape).
/// ptrs: x, out.  ints: axis, log (0/1), then (rank, dims) of x and out.
__attribute__((visibility("default"))) void pdk_softmax(const int64_t *ptrs, const int64_t *ints,
                                                        const float *) {
  constexpr int kParams = 2;
  void *x = ptrAt(ptrs, 0), *out = ptrAt(ptrs, 1);
  Dims dims(ints + kParams);
  const int64_t *xd = dims.next();
  dims.next();
  size_t nInts = static_cast<size_t>(dims.p - ints);
  if (!kernelError.empty())
    return;
  for (int64_t k = 0; k < xd[-1]; ++k)
    if (xd[k] == 0)
      return; // nothing to compute (oneDNN refuses empty tensors)
  Entry *found =
      create(makeKey(3, ints, nInts, nullptr, 0, nullptr), "softmax", nullptr, [&](Entry &e) {
        memory::dims shape(xd, xd + xd[-1]);
        memory::dims strides(shape.size(), 1);
        for (size_t i = shape.size() - 1; i > 0; --i)
          strides[i - 1] = strides[i] * shape[i];
        e.srcUser = e.dstUser = memory::desc(shape, dt::f32, strides);
        auto alg = ints[1] ? algorithm::softmax_log : algorithm::softmax_accurate;
        dnnl::softmax_v2_forward::desc sd(dnnl::prop_kind::forward_inference, alg, e.srcUser,
                                          e.dstUser, static_cast<int>(ints[0]));
        e.prim = Prim::of<dnnl::softmax_v2_forward>(
            dnnl::softmax_v2_forward::primitive_desc(sd, userScratchpad(), engine()));
      });
  if (found)
    runUnary(*found, "softmax", x, out);
}

/// Max pooling of x into out (NCHW shapes). Only for what the compiler
/// picks it for: pooling right after a convolution, whose activations may
/// then stay in the convolutions' layout (pd-kernel-layouts).
/// ptrs: x, out.  ints: kind (0: max), window h/w, stride h/w, pad
/// top/bottom/left/right (the bottom/right ones include any ceil_mode
/// overhang), channel block of x and of out (as pdk_conv2d's), then (rank,
/// dims) of x and out.
__attribute__((visibility("default"))) void pdk_pool2d(const int64_t *ptrs, const int64_t *ints,
                                                       const float *) {
  constexpr int kParams = 11;
  void *x = ptrAt(ptrs, 0), *out = ptrAt(ptrs, 1);
  Dims dims(ints + kParams);
  const int64_t *xd = dims.next(), *od = dims.next();
  size_t nInts = static_cast<size_t>(dims.p - ints);
  if (!kernelError.empty())
    return;
  if (ints[0] != 0 || xd[-1] != 4 || od[-1] != 4) {
    kernelError = "oneDNN kernel: pooling: unsupported parameters (it takes 4-D max pooling)";
    return;
  }
  if (xd[0] == 0)
    return; // an empty batch: nothing to compute (oneDNN refuses empty tensors)
  Entry *found =
      create(makeKey(5, ints, nInts, nullptr, 0, nullptr), "pooling", nullptr, [&](Entry &e) {
        memory::dims src = {xd[0], xd[1], xd[2], xd[3]}, dst = {od[0], od[1], od[2], od[3]};
        e.srcUser = memory::desc(src, dt::f32, convLayout(ints[9]));
        e.dstUser = memory::desc(dst, dt::f32, convLayout(ints[10]));
        dnnl::pooling_forward::desc pd(dnnl::prop_kind::forward_inference, algorithm::pooling_max,
                                       e.srcUser, e.dstUser, {ints[3], ints[4]}, {ints[1], ints[2]},
                                       {ints[5], ints[7]}, {ints[6], ints[8]});
        e.prim = Prim::of<dnnl::pooling_forward>(
            dnnl::pooling_forward::primitive_desc(pd, userScratchpad(), engine()));
      });
  if (found)
    runUnary(*found, "pooling", x, out);
}

__attribute__((visibility("default"))) void pdk_forget(const void *begin, const void *end);

/// Times pdk_conv2d for the compiler's layout choice (pd-kernel-layouts
/// with measurement): `ints` and `floats` are what the call would get (its
/// parameters, then rank and dims of x, w, bias?, residual?, out);
/// `present` says which of bias (bit 0) and residual (bit 1) exist. Runs it
/// once to create (and pack) the primitive, then `iterations` times on
/// zero-filled buffers, and returns the fastest run in milliseconds
/// (negative if the kernel failed or refused). `winograd` 1 or 2 times
/// pdk_conv2d_winograd or pdk_conv2d_winograd4 instead. The primitives keyed by the temporary
/// weights are dropped again.
__attribute__((visibility("default"))) double pdk_time_conv2d(const int64_t *ints,
                                                              const float *floats, int64_t present,
                                                              int64_t iterations,
                                                              int64_t winograd) {
  constexpr int kParams = ConvOperands::kParams;
  Dims dims(ints + kParams);
  bool hasBias = present & 1, hasRes = present & 2;
  const int64_t *shapes[5] = {dims.next(), dims.next(), hasBias ? dims.next() : nullptr,
                              hasRes ? dims.next() : nullptr, dims.next()};
  int64_t ptrs[5] = {};
  std::vector<void *> owned;
  size_t wBytes = 0;
  for (int i = 0; i < 5; ++i) {
    if (!shapes[i])
      continue;
    size_t bytes = 4;
    for (int64_t k = 0; k < shapes[i][-1]; ++k)
      bytes *= static_cast<size_t>(shapes[i][k]);
    bytes = (bytes + 63) / 64 * 64;
    void *p = std::aligned_alloc(64, bytes);
    if (!p) {
      for (void *q : owned)
        std::free(q);
      return -1;
    }
    std::memset(p, 0, bytes);
    owned.push_back(p);
    ptrs[i] = static_cast<int64_t>(reinterpret_cast<intptr_t>(p));
    if (i == 1)
      wBytes = bytes;
  }
  double best = -1;
  for (int64_t r = 0; r <= iterations && kernelError.empty(); ++r) {
    auto start = std::chrono::steady_clock::now();
    (winograd == 2   ? pdk_conv2d_winograd4
     : winograd == 1 ? pdk_conv2d_winograd
                     : pdk_conv2d)(ptrs, ints, floats);
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (r > 0 && (best < 0 || ms < best))
      best = ms;
  }
  if (!kernelError.empty()) {
    kernelError.clear();
    best = -1;
  }
  const char *w = reinterpret_cast<const char *>(ptrs[1]);
  pdk_forget(w, w + wBytes);
  for (void *q : owned)
    std::free(q);
  return best;
}

/// Runs task(record, lo, hi) over [0, n) split into one contiguous share per
/// thread of the OpenMP pool (the one oneDNN's primitives use, so the two
/// never oversubscribe the cores; OMP_NUM_THREADS sets its size, default the
/// cores). Generated code calls it for every outlined op pd-parallelize-ops
/// split; `work` is the op's iteration count. Below PDK_PARALLEL_GRAIN
/// iterations per thread (default 32768), inside another parallel region,
/// or with one thread, the task runs once on the calling thread.
__attribute__((visibility("default"))) void
pdk_parallel_for(void (*task)(void *, int64_t, int64_t), void *record, int64_t n, int64_t work) {
  static const int64_t grain = [] {
    const char *env = std::getenv("PDK_PARALLEL_GRAIN");
    long long v = env ? std::atoll(env) : 0;
    return v > 0 ? static_cast<int64_t>(v) : int64_t{32768};
  }();
  if (n <= 0)
    return;
  int64_t threads = omp_in_parallel() ? 1 : omp_get_max_threads();
  threads = std::min({threads, n, std::max<int64_t>(1, work / grain)});
  if (threads <= 1) {
    task(record, 0, n);
    return;
  }
#pragma omp parallel num_threads(threads)
  {
    int64_t id = omp_get_thread_num(), k = omp_get_num_threads();
    int64_t lo = n * id / k, hi = n * (id + 1) / k;
    if (lo < hi)
      task(record, lo, hi);
  }
}

/// The team size of this thread's next parallel regions (oneDNN's and
/// pdk_parallel_for's): the runtime sets it before every run (Threads.h).
__attribute__((visibility("default"))) void pdk_set_num_threads(int64_t n) {
  if (n > 0 && n != omp_get_max_threads())
    omp_set_num_threads(static_cast<int>(n));
}

/// The first kernel error since the last call on this thread, or null; the
/// runtime calls it after every run and fails the run with the message.
__attribute__((visibility("default"))) const char *pdk_take_error() {
  thread_local std::string taken;
  if (kernelError.empty())
    return nullptr;
  taken.swap(kernelError);
  kernelError.clear();
  return taken.c_str();
}

/// Drops every cached primitive whose packed weights came from
/// [begin, end): the runtime calls this before it frees a model's weights,
/// so a later model whose weights land at the same address never sees them.
__attribute__((visibility("default"))) void pdk_forget(const void *begin, const void *end) {
  std::lock_guard<std::mutex> lock(cacheMutex);
  auto &c = cache();
  for (auto it = c.begin(); it != c.end();) {
    const char *w = static_cast<const char *>(it->second->weightAddr);
    if (w && w >= static_cast<const char *>(begin) && w < static_cast<const char *>(end))
      it = c.erase(it);
    else
      ++it;
  }
}
}

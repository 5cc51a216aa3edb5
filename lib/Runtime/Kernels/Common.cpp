//===- Common.cpp - Primitive cache, scratch buffers, error channel -------===//
//
// What the kernels of every family share (see Common.h): the engine and
// streams, per-thread scratch buffers, activations as oneDNN post-ops,
// running a cached primitive, the primitive cache with pdk_forget, and the
// error channel with pdk_take_error.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include <omp.h>

namespace pdk {

dnnl::engine &engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

dnnl::stream &stream() {
  thread_local dnnl::stream s(engine());
  return s;
}

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

bool activation(int64_t code, float alpha, algorithm &alg, float &a, float &b) {
  a = 0.f, b = 0.f;
  switch (code) {
  case act::Relu:
    alg = algorithm::eltwise_relu;
    return true;
  case act::Relu6:
    alg = algorithm::eltwise_clip, b = alpha != 0.f ? alpha : 6.f;
    return true;
  case act::LeakyRelu:
    alg = algorithm::eltwise_relu, a = alpha;
    return true;
  case act::Sigmoid:
    alg = algorithm::eltwise_logistic;
    return true;
  case act::Tanh:
    alg = algorithm::eltwise_tanh;
    return true;
  case act::Swish:
    alg = algorithm::eltwise_swish, a = 1.f;
    return true;
  case act::HardSwish:
    alg = algorithm::eltwise_hardswish;
    return true;
  case act::Gelu:
    alg = algorithm::eltwise_gelu_erf;
    return true;
  default:
    return false;
  }
}

void appendActivation(dnnl::post_ops &po, int64_t code, float alpha) {
  algorithm alg;
  float a, b;
  if (activation(code, alpha, alg, a, b))
    po.append_eltwise(1.f, alg, a, b);
}

dnnl::primitive_attr userScratchpad(dnnl::primitive_attr attr) {
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

uint64_t Prim::nextId() {
  static std::atomic<uint64_t> next{1};
  return next++;
}

namespace {
/// This thread's memory objects and argument array for one primitive.
struct Bound {
  std::vector<memory> mems;
  std::vector<dnnl_exec_arg_t> args;
};

Bound &bound(uint64_t prim) {
  thread_local std::unordered_map<uint64_t, Bound> byPrim;
  return byPrim[prim];
}
} // namespace

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

std::mutex cacheMutex;
std::map<std::vector<int64_t>, std::unique_ptr<Entry>> &cache() {
  static auto *c = new std::map<std::vector<int64_t>, std::unique_ptr<Entry>>();
  return *c;
}

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

Prim makeReorder(const memory::desc &from, const memory::desc &to) {
  return Prim::of<dnnl::reorder>(
      dnnl::reorder::primitive_desc(engine(), from, engine(), to, userScratchpad()));
}

namespace {
/// A copy of the f32 buffer `src` (`bytes` long) in the scratch buffer
/// `role`, each value rounded to bf16 (to nearest even; NaN stays NaN).
void *roundedToBf16(int role, const void *src, size_t bytes) {
  auto *out = static_cast<uint32_t *>(scratch(role, bytes));
  const auto *in = static_cast<const uint32_t *>(src);
  for (size_t i = 0; i < bytes / 4; ++i) {
    uint32_t u = in[i];
    out[i] = (u & 0x7fffffffu) > 0x7f800000u ? (u | 0x400000u) & 0xffff0000u
                                             : (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;
  }
  return out;
}

/// Runs `e.prim` with the user buffers, reordering src/dst/weights where the
/// primitive chose other layouts.
void run(Entry &e, void *src, void *wei, void *bias, void *res, void *dst, bool hasSum) {
  dnnl::stream &s = stream();
  if (e.roundSrc)
    src = roundedToBf16(RoundSrcBuf, src, e.srcUser.get_size());
  if (e.roundWei && !e.weightsConst)
    wei = roundedToBf16(RoundWeiBuf, wei, e.weiUser.get_size());
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
} // namespace

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

thread_local std::string kernelError;

void fail(const char *what, const dnnl::error &err) {
  if (kernelError.empty())
    kernelError = std::string("oneDNN kernel: ") + what + ": " + err.what() + " (status " +
                  std::to_string(static_cast<int>(err.status)) + ")";
}

void maybeInjectFailure() {
  if (std::getenv("PDK_TEST_FAIL_CREATE"))
    throw dnnl::error(dnnl_runtime_error, "failure injected by PDK_TEST_FAIL_CREATE");
}

tag convLayout(int64_t block) {
  return block == layout::NChw16c  ? tag::nChw16c
         : block == layout::NChw8c ? tag::nChw8c
         : block < 0               ? tag::nhwc
                                   : tag::nchw;
}

void runUnary(Entry &e, const char *what, const void *x, void *out) {
  try {
    dnnl::stream &s = stream();
    e.prim.execute(s, {{DNNL_ARG_SRC, &e.srcUser, x}, {DNNL_ARG_DST, &e.dstUser, out}});
    s.wait();
  } catch (const dnnl::error &err) {
    fail((std::string(what) + " failed").c_str(), err);
  }
}

void runOrRecord(Entry &e, const char *what, void *src, void *wei, void *bias, void *res, void *dst,
                 bool hasSum) {
  try {
    run(e, src, wei, bias, res, dst, hasSum);
  } catch (const dnnl::error &err) {
    fail((std::string(what) + " failed").c_str(), err);
  }
}

} // namespace pdk

using namespace pdk;

extern "C" {

/// The kernel operand layout this library implements (kKernelAbiVersion).
PDK_EXPORT int64_t pdk_abi_version() { return kKernelAbiVersion; }

/// The first kernel error since the last call on this thread, or null; the
/// runtime calls it after every run and fails the run with the message.
/// Without a kernel error, the communicator's (pdk_collective's).
PDK_EXPORT const char *pdk_take_error() {
  thread_local std::string taken;
  if (kernelError.empty())
    return pdk_comm_take_error();
  taken.swap(kernelError);
  kernelError.clear();
  return taken.c_str();
}

/// Drops every cached primitive whose packed weights came from
/// [begin, end): the runtime calls this before it frees a model's weights,
/// so a later model whose weights land at the same address never sees them.
PDK_EXPORT void pdk_forget(const void *begin, const void *end) {
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
} // extern "C"

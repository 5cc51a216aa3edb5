//===- Common.h - What every oneDNN kernel of libpdrt_kernels shares ------===//
//
// libpdrt_kernels.so: the heavy ops `pd.kernel_call` names (convolutions
// and matrix products in fp32 and int8, softmax, pooling) computed by
// oneDNN, one file per kernel family (Conv.cpp, Winograd.cpp, Matmul.cpp,
// Unary.cpp, Quant.cpp), plus the threads of generated code (Threads.cpp)
// and the compiler's timing hook (Timing.cpp). No MLIR or LLVM here. The
// operand layout of each kernel is in PaddleMLIR/Runtime/KernelABI.h,
// shared with the compiler.
//
// Primitives are created on first use for a given shape and kept (per
// process, keyed by every parameter and dim). A constant weight (the
// compiler says so) is re-laid-out once into the primitive's preferred
// layout and the packed copy is kept with the primitive, keyed by the
// weight's address too; pdk_forget() drops entries whose weights lie in a
// range, which the runtime calls before it frees a model's weights.
//
// The library is built with hidden visibility: only the pdk_ functions
// declared PDK_EXPORT below are exported.
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_RUNTIME_KERNELS_COMMON_H
#define PADDLEMLIR_RUNTIME_KERNELS_COMMON_H

#include "Operands.h"
#include "PaddleMLIR/Runtime/KernelABI.h"

#include "oneapi/dnnl/dnnl.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

extern "C" {
PDK_EXPORT void pdk_conv2d(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_conv2d_winograd(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_conv2d_winograd4(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_matmul(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_conv2d_bf16(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_conv2d_backward_data(const int64_t *ptrs, const int64_t *ints,
                                         const float *floats);
PDK_EXPORT void pdk_conv2d_backward_weights(const int64_t *ptrs, const int64_t *ints,
                                            const float *floats);
PDK_EXPORT void pdk_matmul_bf16(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_qconv2d(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_qmatmul(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_qbmatmul(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT int64_t pdk_kernel_impls(char *buf, int64_t size);
PDK_EXPORT void pdk_softmax(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_pool2d(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_nonzero(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_unique(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_sequence_pool(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_sequence_context(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_rnn(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_lod_rnn(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_crf_decoding(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_viterbi_decode(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_sequence_softmax(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_sequence_expand(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_lod_offsets(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_sequence_reshape(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_box_clip(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_array_write(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_array_read(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_lod_rank_table(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_rank_table_info(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_lod_to_array(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_array_to_lod(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_shrink_memory(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_reorder_by_rank(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_reorder_sequences(const int64_t *ptrs, const int64_t *ints,
                                      const float *floats);
PDK_EXPORT void pdk_collect_fpn_proposals(const int64_t *ptrs, const int64_t *ints,
                                          const float *floats);
PDK_EXPORT void pdk_multiclass_nms(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_matrix_nms(const int64_t *ptrs, const int64_t *ints, const float *floats);
PDK_EXPORT void pdk_distribute_fpn_proposals(const int64_t *ptrs, const int64_t *ints,
                                             const float *floats);
PDK_EXPORT void pdk_generate_proposals(const int64_t *ptrs, const int64_t *ints,
                                       const float *floats);
PDK_EXPORT double pdk_time_conv2d(const int64_t *ints, const float *floats, int64_t present,
                                  int64_t iterations, int64_t winograd);
PDK_EXPORT void pdk_parallel_for(void (*task)(void *, int64_t, int64_t), void *record, int64_t n,
                                 int64_t work);
PDK_EXPORT void pdk_set_num_threads(int64_t n);
PDK_EXPORT int64_t pdk_in_parallel();
PDK_EXPORT const char *pdk_take_error();
PDK_EXPORT void pdk_collective(const int64_t *ptrs, const int64_t *ints, const float *floats);
/// This process's rank and the job's rank count; starts the communicator on
/// first use. Null on success, else the reason it cannot start.
PDK_EXPORT const char *pdk_comm_world(int64_t *rank, int64_t *size);
PDK_EXPORT void pdk_forget(const void *begin, const void *end);
}

namespace pdk {

using dnnl::algorithm;
using dnnl::memory;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

dnnl::engine &engine();
/// This thread's stream.
dnnl::stream &stream();

/// Roles of the per-thread scratch buffers.
enum Scratch : int { SrcBuf, DstBuf, WeiBuf, PadBuf, RoundSrcBuf, RoundWeiBuf, NumScratch };

/// A per-thread, grow-only, 64-byte aligned scratch buffer (one per role),
/// so runs after the first allocate nothing.
void *scratch(int role, size_t bytes);

/// The oneDNN eltwise algorithm and its alpha/beta for an activation code
/// (act::); false for none.
bool activation(int64_t code, float alpha, algorithm &alg, float &a, float &b);
void appendActivation(dnnl::post_ops &po, int64_t code, float alpha);

/// Attributes with user-managed scratchpad (see Prim).
dnnl::primitive_attr userScratchpad(dnnl::primitive_attr attr = dnnl::primitive_attr());

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
  uint64_t id = 0; // never reused, unlike addresses (see bound() in Common.cpp)
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
  static uint64_t nextId();
  void execute(dnnl::stream &s, std::initializer_list<Arg> args) const;
};

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
  memory ownBias;               // the int8 kernels' bias, pre-scaled once (Quant.cpp)
  const char *callee = nullptr; // set by the int8 kernels: reported by pdk_kernel_impls
  std::string impl;             // with the implementation oneDNN chose (impl_info_str)
  // The bf16 kernels' f32 emulation: f32 user sources / weights are first
  // rounded to bf16 values (kept in f32), as the bf16 primitive would.
  bool roundSrc = false, roundWei = false;
};

/// The kernel kinds that lead a cache key (values are arbitrary, but
/// distinct).
enum KeyKind : int64_t {
  ConvKey = 1,
  MatmulKey = 2,
  SoftmaxKey = 3,
  Winograd2Key = 4,
  PoolKey = 5,
  Winograd4Key = 6,
  QConvKey = 7,
  QMatmulKey = 8,
  Bf16ConvKey = 9,
  Bf16MatmulKey = 10,
  ConvBwdDataKey = 11,
  ConvBwdWeightsKey = 12,
  ReorderKey = 13,
  QBMatmulKey = 14,
  QBMatmulEmulatedKey = 15,
};

/// Whether oneDNN multiplies int8 exactly here (VNNI), unless
/// PDK_INT8_EMULATE=1 asks for the f32 emulation (Quant.cpp).
bool exactInt8();

/// The cache key of a call (`kind` a KeyKind), in a per-thread buffer that
/// keeps its capacity (lookup copies it only when it creates an entry).
const std::vector<int64_t> &makeKey(int64_t kind, const int64_t *ints, size_t n,
                                    const float *floats, size_t nf, const void *constWeights);

Prim makeReorder(const memory::desc &from, const memory::desc &to);

/// oneDNN's data type of a qtype:: code (f32, s8, u8).
inline dt qtypeOf(int64_t code) {
  return code == qtype::U8 ? dt::u8 : code == qtype::S8 ? dt::s8 : dt::f32;
}

/// Whether activation operand dims `d` fit layout field `layout`: rank 4
/// (any layout), or rank 5 [N, C/16, H, W, 16] in layout NChw16c.
inline bool activationRankFits(const int64_t *d, int64_t layout) {
  return d[-1] == 4 || (d[-1] == 5 && layout == layout::NChw16c && d[4] == 16);
}

/// The NCHW dims of an activation operand: `d` itself for a rank-4 one, and
/// for a channel-blocked rank-5 one ([N, C/B, H, W, B], layout NChw16c or
/// NChw8c) its dims as NCHW, written to `nchw` (which is returned).
inline const int64_t *activationDims(const int64_t *d, int64_t *nchw) {
  if (d[-1] != 5)
    return d;
  nchw[0] = d[0];
  nchw[1] = d[1] * d[4];
  nchw[2] = d[2];
  nchw[3] = d[3];
  return nchw;
}

/// The operands of a pdk_conv2d-style call (see conv:: in KernelABI.h).
struct ConvOperands {
  void *x, *w, *bias, *res, *out;
  const int64_t *xd, *wd, *od; // dims of x, w and out (NCHW)
  size_t nInts;                // parameters and every operand's dims
  int64_t xNchw[4], oNchw[4];  // of a rank-5 (blocked) x or out
  /// `numInts`: the kernel's parameter count (conv::NumInts, or
  /// bconv::NumInts for pdk_conv2d_bf16).
  ConvOperands(const int64_t *ptrs, const int64_t *ints, int64_t numInts = conv::NumInts)
      : x(ptrAt(ptrs, conv::Input)), w(ptrAt(ptrs, conv::Filter)), bias(ptrAt(ptrs, conv::Bias)),
        res(ptrAt(ptrs, conv::Residual)), out(ptrAt(ptrs, conv::NumSlots)) {
    Dims dims(ints + numInts);
    xd = activationDims(dims.next(), xNchw);
    wd = dims.next();
    if (bias)
      dims.next();
    if (res)
      dims.next();
    od = activationDims(dims.next(), oNchw);
    nInts = static_cast<size_t>(dims.p - ints);
  }
};

/// The first kernel error of the current run on this thread (empty: none).
/// Kernels never abort: after an error they skip their work and the runtime
/// reports the message (pdk_take_error) as the run's failure.
extern thread_local std::string kernelError;

/// Zeroes the `elemBytes`-byte elements of a destination with dims `d`.
/// Kernels whose result sizes depend on the data (nonzero, the NMS family,
/// proposals, FPN levels) call it before anything else: generated code
/// reads their counts even after a failed or skipped call, so a failure
/// must leave empty results, never garbage sizes.
inline void clearDestination(void *dst, const int64_t *d, size_t elemBytes) {
  int64_t n = 1;
  for (int64_t i = 0; i < d[-1]; ++i)
    n *= d[i];
  std::memset(dst, 0, static_cast<size_t>(n) * elemBytes);
}

void fail(const char *what, const dnnl::error &err);

/// The primitive cache and the lock that guards it.
extern std::mutex cacheMutex;
std::map<std::vector<int64_t>, std::unique_ptr<Entry>> &cache();

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

/// Packs constant weights once into the primitive's layout.
void packWeights(Entry &e, const void *wei);

/// Test hook: PDK_TEST_FAIL_CREATE makes primitive creation fail, so the
/// error path can be tested end to end.
void maybeInjectFailure();

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
      // A builder that packed its own copy (the int8 kernels' f32
      // emulation) has set weightsConst and weightAddr already.
      if (!e.weightsConst) {
        e.weightsConst = constWeights != nullptr;
        if (constWeights)
          packWeights(e, constWeights);
      }
    } catch (const dnnl::error &err) {
      fail((std::string("cannot create a ") + what).c_str(), err);
      return false;
    }
    return true;
  });
}

/// The oneDNN format of a layout field (layout:: in KernelABI.h).
tag convLayout(int64_t block);

/// Runs the one-input primitive of `e` (srcUser -> dstUser), with a oneDNN
/// failure recorded instead of thrown.
void runUnary(Entry &e, const char *what, const void *x, void *out);

/// Runs `e.prim` with the user buffers, reordering src/dst/weights where the
/// primitive chose other layouts, with a oneDNN failure recorded instead of
/// thrown.
void runOrRecord(Entry &e, const char *what, void *src, void *wei, void *bias, void *res, void *dst,
                 bool hasSum);

} // namespace pdk

#endif // PADDLEMLIR_RUNTIME_KERNELS_COMMON_H

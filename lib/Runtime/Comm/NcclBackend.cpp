//===- NcclBackend.cpp - libpdrt_nccl: the NCCL communication backend -----===//
//
// The pdcomm_backend (CommBackend.h) that libpdrt_kernels loads instead of
// the MPI one when PADDLE_MLIR_COMM_BACKEND=nccl: one process per GPU, the
// collectives run by NCCL on the GPU of the process's local rank. NCCL and
// the CUDA runtime are loaded with dlopen, so this library builds and
// loads on every machine and says what is missing where they or a GPU are
// not there. MPI only bootstraps a job of several ranks: rank, size and
// the NCCL unique id, which rank 0 creates and broadcasts, through the
// bootstrap of libpdrt_mpi.so, loaded with dlopen only then: a process on
// one GPU needs no MPI installed.
//
// Buffers may be device memory (cuda artifacts) or host memory (CPU
// artifacts, whose collectives then go through the GPUs' links): host
// buffers are staged through device buffers of the backend's own. Each op
// is enqueued on the backend's stream, which is polled against the
// deadline together with NCCL's asynchronous error; a failure or a timeout
// aborts the communicator, so a lost rank makes the others fail instead of
// hang (NCCL does not say which rank it was).
//
//===----------------------------------------------------------------------===//

#include "BackendSupport.h"
#include "CommBackend.h"
#include "KernelABI.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <thread>
#include <vector>

namespace {
// The parts of nccl.h and cuda_runtime_api.h used here (their values are
// fixed by those libraries' ABIs).
using ncclComm = void *;
struct ncclUniqueId {
  char internal[128];
};
enum : int { ncclSuccess = 0, ncclInProgress = 7 };
enum : int { ncclInt8 = 0, ncclUint8 = 1, ncclInt32 = 2, ncclInt64 = 4 };
enum : int { ncclFloat16 = 6, ncclFloat32 = 7, ncclFloat64 = 8, ncclBfloat16 = 9 };
enum : int { ncclSum = 0, ncclProd = 1, ncclMax = 2, ncclMin = 3 };
using cudaStream = void *;
enum : int { cudaSuccess = 0, cudaErrorNotReady = 600 };
enum : int { cudaMemcpyDefault = 4 };
enum : int { cudaMemoryTypeDevice = 2, cudaMemoryTypeManaged = 3 };
struct cudaPointerAttributes {
  int type;
  int device;
  void *devicePointer;
  void *hostPointer;
};

struct Api {
  // NCCL
  int (*getUniqueId)(ncclUniqueId *);
  int (*commInitRank)(ncclComm *, int, ncclUniqueId, int);
  int (*commAbort)(ncclComm);
  int (*commDestroy)(ncclComm);
  int (*commGetAsyncError)(ncclComm, int *);
  const char *(*getErrorString)(int);
  int (*allReduce)(const void *, void *, size_t, int, int, ncclComm, cudaStream);
  int (*broadcast)(const void *, void *, size_t, int, int, ncclComm, cudaStream);
  int (*allGather)(const void *, void *, size_t, int, ncclComm, cudaStream);
  int (*reduceScatter)(const void *, void *, size_t, int, int, ncclComm, cudaStream);
  int (*send)(const void *, size_t, int, int, ncclComm, cudaStream);
  int (*recv)(void *, size_t, int, int, ncclComm, cudaStream);
  // CUDA runtime
  int (*getDeviceCount)(int *);
  int (*setDevice)(int);
  int (*streamCreate)(cudaStream *);
  int (*streamQuery)(cudaStream);
  int (*malloc)(void **, size_t);
  int (*free)(void *);
  int (*memcpyAsync)(void *, const void *, size_t, int, cudaStream);
  int (*pointerGetAttributes)(cudaPointerAttributes *, const void *);
  const char *(*cudaErrorString)(int);
};

struct State {
  Api api{};
  bool ready = false, broken = false;
  const pdcomm_bootstrap *mpi = nullptr; // several ranks: their bootstrap
  int rank = 0, size = 1, device = 0;
  ncclComm comm = nullptr;
  cudaStream stream = nullptr;
  // Device copies of host buffers.
  void *stageIn = nullptr, *stageOut = nullptr;
  size_t stageInBytes = 0, stageOutBytes = 0;
};

State &state() {
  static State s;
  return s;
}

using pdcomm::fail;

using pdcomm::seconds;

/// Loads `names` (the first that loads) and resolves every symbol of
/// `table`; "" on success, else why not.
template <typename Table>
std::string load(std::vector<const char *> names, const char *what, const char *envVar,
                 Table &table) {
  void *lib = nullptr;
  std::string tried, why;
  if (const char *p = std::getenv(envVar))
    names = {p};
  for (const char *name : names) {
    lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (lib)
      break;
    const char *e = dlerror();
    tried += (tried.empty() ? "" : ", ") + std::string(name);
    why = e ? e : name;
  }
  if (!lib)
    return std::string("cannot load ") + what + " (" + tried + "): " + why +
           "; install it or set " + envVar;
  for (auto &[symbol, where] : table) {
    *where = dlsym(lib, symbol);
    if (!*where)
      return std::string(what) + " lacks " + symbol + " (too old?)";
  }
  return "";
}

template <typename F> void **slot(F &f) { return reinterpret_cast<void **>(&f); }

std::string loadApis(Api &a) {
  std::pair<const char *, void **> nccl[] = {{"ncclGetUniqueId", slot(a.getUniqueId)},
                                             {"ncclCommInitRank", slot(a.commInitRank)},
                                             {"ncclCommAbort", slot(a.commAbort)},
                                             {"ncclCommDestroy", slot(a.commDestroy)},
                                             {"ncclCommGetAsyncError", slot(a.commGetAsyncError)},
                                             {"ncclGetErrorString", slot(a.getErrorString)},
                                             {"ncclAllReduce", slot(a.allReduce)},
                                             {"ncclBroadcast", slot(a.broadcast)},
                                             {"ncclAllGather", slot(a.allGather)},
                                             {"ncclReduceScatter", slot(a.reduceScatter)},
                                             {"ncclSend", slot(a.send)},
                                             {"ncclRecv", slot(a.recv)}};
  std::pair<const char *, void **> cuda[] = {
      {"cudaGetDeviceCount", slot(a.getDeviceCount)},
      {"cudaSetDevice", slot(a.setDevice)},
      {"cudaStreamCreate", slot(a.streamCreate)},
      {"cudaStreamQuery", slot(a.streamQuery)},
      {"cudaMalloc", slot(a.malloc)},
      {"cudaFree", slot(a.free)},
      {"cudaMemcpyAsync", slot(a.memcpyAsync)},
      {"cudaPointerGetAttributes", slot(a.pointerGetAttributes)},
      {"cudaGetErrorString", slot(a.cudaErrorString)}};
  std::string why = load({"libcudart.so.13", "libcudart.so.12", "libcudart.so"}, "the CUDA runtime",
                         "PADDLE_MLIR_CUDART_LIBRARY", cuda);
  if (why.empty())
    why = load({"libnccl.so.2", "libnccl.so"}, "NCCL", "PADDLE_MLIR_NCCL_LIBRARY", nccl);
  return why;
}

std::string cudaError(const State &s, const char *call, int rc) {
  return std::string(call) + ": " + s.api.cudaErrorString(rc);
}

std::string ncclError(const State &s, const char *call, int rc) {
  return std::string(call) + ": " + s.api.getErrorString(rc);
}

/// The rank count the launcher gave this process; 1 when not launched by
/// one.
int launcherSize() {
  for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char *v = std::getenv(name))
      return std::atoi(v);
  return 1;
}

void finish() {
  State &s = state();
  if (s.comm && !s.broken)
    s.api.commDestroy(s.comm);
  if (s.mpi && !s.broken)
    s.mpi->finish();
}

/// libpdrt_mpi.so's bootstrap, from beside this library (or
/// $PADDLE_MLIR_MPI_BACKEND); "" or why it cannot be loaded.
std::string loadBootstrap(State &s) {
  std::string path;
  if (const char *p = std::getenv("PADDLE_MLIR_MPI_BACKEND"))
    path = p;
  Dl_info info;
  if (path.empty() && dladdr(reinterpret_cast<void *>(&launcherSize), &info) && info.dli_fname) {
    path = info.dli_fname;
    size_t slash = path.rfind('/');
    path = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
    path += "libpdrt_mpi.so";
  }
  // Global: Open MPI's own plugins resolve libmpi's symbols through it.
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    const char *e = dlerror();
    return "a job of several ranks starts over MPI, but " + path +
           " cannot be loaded: " + (e ? e : "unknown error") +
           " (Open MPI's libmpi.so.40 is needed: libopenmpi3)";
  }
  auto get = reinterpret_cast<const pdcomm_bootstrap *(*)()>(dlsym(lib, "pdcomm_mpi_bootstrap"));
  s.mpi = get ? get() : nullptr;
  if (!s.mpi || s.mpi->abi != PDCOMM_ABI_VERSION) {
    s.mpi = nullptr;
    return path + " has no MPI bootstrap of this version (communication ABI " +
           std::to_string(PDCOMM_ABI_VERSION) + ")";
  }
  return "";
}

/// This process's part of starting: the libraries and a GPU; "" when
/// ready.
std::string prepare(State &s) {
  if (std::string why = loadApis(s.api); !why.empty())
    return why;
  int count = 0;
  if (int rc = s.api.getDeviceCount(&count); rc != cudaSuccess)
    return "no CUDA device: " + cudaError(s, "cudaGetDeviceCount", rc);
  if (count == 0)
    return "no CUDA device is visible";
  s.device = pdcomm::launcherLocalRank(s.rank) % count;
  if (int rc = s.api.setDevice(s.device); rc != cudaSuccess)
    return cudaError(s, "cudaSetDevice", rc);
  if (int rc = s.api.streamCreate(&s.stream); rc != cudaSuccess)
    return cudaError(s, "cudaStreamCreate", rc);
  return "";
}

int init(int64_t *rank, int64_t *size, char *err, size_t n) {
  State &s = state();
  if (!s.ready) {
    int ranks = launcherSize();
    if (ranks > 1) {
      if (std::string why = loadBootstrap(s); !why.empty())
        return fail(err, n, "NCCL backend: " + why);
      char why[512] = {0};
      if (s.mpi->init(&s.rank, &s.size, why, sizeof why) != 0)
        return fail(err, n, std::string("NCCL backend: starting the job over MPI: ") + why);
    }
    std::string why = prepare(s);
    ncclUniqueId id{};
    if (s.size > 1) {
      // Every rank learns whether all could start before NCCL's own
      // start, which would wait for a rank that cannot come.
      int all = s.mpi->all(why.empty());
      if (why.empty() && !all)
        why = "another rank of the job could not start NCCL (its error says why)";
      if (why.empty() && s.rank == 0) {
        if (int rc = s.api.getUniqueId(&id); rc != ncclSuccess)
          why = ncclError(s, "ncclGetUniqueId", rc);
      }
      // Rank 0's outcome travels with the id.
      int status = why.empty() ? 0 : 1;
      if (all) {
        s.mpi->broadcast(&status, sizeof status, 0);
        s.mpi->broadcast(&id, sizeof id, 0);
        if (status && why.empty())
          why = "rank 0 could not create the NCCL id";
      }
    } else if (why.empty()) {
      if (int rc = s.api.getUniqueId(&id); rc != ncclSuccess)
        why = ncclError(s, "ncclGetUniqueId", rc);
    }
    if (why.empty())
      if (int rc = s.api.commInitRank(&s.comm, s.size, id, s.rank); rc != ncclSuccess)
        why = ncclError(s, "ncclCommInitRank", rc);
    if (!why.empty()) {
      s.broken = true;
      return fail(err, n, "NCCL backend, rank " + std::to_string(s.rank) + ": " + why);
    }
    s.ready = true;
    std::atexit(finish);
  }
  *rank = s.rank;
  *size = s.size;
  return 0;
}

int ncclType(int64_t dtype) {
  switch (dtype) {
  case pdk::comm::F32:
    return ncclFloat32;
  case pdk::comm::F64:
    return ncclFloat64;
  case pdk::comm::I32:
    return ncclInt32;
  case pdk::comm::I64:
    return ncclInt64;
  case pdk::comm::I8:
    return ncclInt8;
  case pdk::comm::F16:
    return ncclFloat16;
  case pdk::comm::BF16:
    return ncclBfloat16;
  default: // U8, Bool
    return ncclUint8;
  }
}

bool onDevice(const State &s, const void *p) {
  cudaPointerAttributes a{};
  return p && s.api.pointerGetAttributes(&a, p) == cudaSuccess &&
         (a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged);
}

/// A device buffer of at least `bytes` (`buf`, `have`); "" or why not.
std::string reserve(State &s, void *&buf, size_t &have, size_t bytes) {
  if (bytes <= have)
    return "";
  if (buf)
    s.api.free(buf);
  buf = nullptr;
  have = 0;
  if (int rc = s.api.malloc(&buf, bytes); rc != cudaSuccess)
    return cudaError(s, "cudaMalloc", rc) + " (" + std::to_string(bytes) + " bytes for staging)";
  have = bytes;
  return "";
}

/// Waits for the stream within `timeout`; "" or why not (the communicator
/// is then aborted).
std::string drain(State &s, double timeout) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout);
  for (;;) {
    int q = s.api.streamQuery(s.stream);
    if (q == cudaSuccess)
      return "";
    std::string why;
    int async = ncclSuccess;
    if (q != cudaErrorNotReady)
      why = cudaError(s, "the stream", q);
    else if (s.api.commGetAsyncError(s.comm, &async) == ncclSuccess && async != ncclSuccess &&
             async != ncclInProgress)
      why = ncclError(s, "NCCL", async);
    else if (std::chrono::steady_clock::now() > deadline)
      why = "it did not finish within " + seconds(timeout) +
            " (a rank is lost or stuck; NCCL does not say which)";
    if (!why.empty()) {
      s.broken = true;
      s.api.commAbort(s.comm);
      return why;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

/// Enqueues `op` (staging host buffers); "" or why not.
std::string enqueue(State &s, const pdcomm_op *op) {
  int64_t kind = op->kind;
  size_t count = static_cast<size_t>(op->count),
         esize = static_cast<size_t>(pdk::comm::dtypeBytes(op->dtype));
  size_t inBytes = count * esize * (kind == pdk::comm::ReduceScatter ? s.size : 1);
  size_t outBytes = count * esize * (kind == pdk::comm::AllGather ? s.size : 1);
  if (kind == pdk::comm::Barrier)
    inBytes = outBytes = 4, count = 1;
  bool hasIn = kind != pdk::comm::Recv && kind != pdk::comm::Broadcast &&
               kind != pdk::comm::Barrier && kind != pdk::comm::AllReduceStart;
  bool hasOut = kind != pdk::comm::Send;
  // In place (broadcast, a started allreduce): the data starts in `out`.
  bool inPlace = kind == pdk::comm::Broadcast || kind == pdk::comm::AllReduceStart;
  const void *in = op->in;
  void *out = op->out;
  bool stageIn = hasIn && !onDevice(s, in), stageOut = hasOut && !onDevice(s, out);
  if (kind == pdk::comm::Barrier)
    stageIn = stageOut = true;
  if (stageIn) {
    if (std::string why = reserve(s, s.stageIn, s.stageInBytes, inBytes); !why.empty())
      return why;
    if (kind != pdk::comm::Barrier)
      if (int rc = s.api.memcpyAsync(s.stageIn, in, inBytes, cudaMemcpyDefault, s.stream))
        return cudaError(s, "cudaMemcpyAsync", rc);
    in = s.stageIn;
  }
  if (stageOut) {
    if (std::string why = reserve(s, s.stageOut, s.stageOutBytes, outBytes); !why.empty())
      return why;
    if (inPlace)
      if (int rc = s.api.memcpyAsync(s.stageOut, out, outBytes, cudaMemcpyDefault, s.stream))
        return cudaError(s, "cudaMemcpyAsync", rc);
  }
  void *dout = stageOut ? s.stageOut : out;
  int type = ncclType(op->dtype);
  static const int reduces[] = {ncclSum, ncclMax, ncclMin, ncclProd};
  int redop = reduces[op->reduce & 3];
  int rc = ncclSuccess;
  switch (kind) {
  case pdk::comm::AllReduce:
    rc = s.api.allReduce(in, dout, count, type, redop, s.comm, s.stream);
    break;
  case pdk::comm::AllReduceStart:
    rc = s.api.allReduce(dout, dout, count, type, ncclSum, s.comm, s.stream);
    break;
  case pdk::comm::Barrier:
    rc = s.api.allReduce(in, dout, 1, ncclInt32, ncclSum, s.comm, s.stream);
    break;
  case pdk::comm::Broadcast:
    rc = s.api.broadcast(dout, dout, count, type, static_cast<int>(op->peer), s.comm, s.stream);
    break;
  case pdk::comm::AllGather:
    rc = s.api.allGather(in, dout, count, type, s.comm, s.stream);
    break;
  case pdk::comm::ReduceScatter:
    rc = s.api.reduceScatter(in, dout, count, type, redop, s.comm, s.stream);
    break;
  case pdk::comm::Send:
    rc = s.api.send(in, count, type, static_cast<int>(op->peer), s.comm, s.stream);
    break;
  case pdk::comm::Recv:
    rc = s.api.recv(dout, count, type, static_cast<int>(op->peer), s.comm, s.stream);
    break;
  default:
    return "unknown operation kind " + std::to_string(kind);
  }
  if (rc != ncclSuccess)
    return ncclError(s, "enqueueing it", rc);
  if (stageOut && kind != pdk::comm::Barrier)
    if (int r = s.api.memcpyAsync(out, s.stageOut, outBytes, cudaMemcpyDefault, s.stream))
      return cudaError(s, "cudaMemcpyAsync", r);
  return "";
}

std::string refusal(const State &s) {
  if (!s.ready)
    return "the NCCL communicator is not initialized";
  if (s.broken)
    return "the communicator failed earlier in this process";
  return "";
}

int run(const pdcomm_op *op, double timeout, char *err, size_t n) {
  State &s = state();
  if (std::string why = refusal(s); !why.empty())
    return fail(err, n, why);
  if (std::string why = enqueue(s, op); !why.empty()) {
    s.broken = true;
    s.api.commAbort(s.comm);
    return fail(err, n, why);
  }
  if (std::string why = drain(s, timeout); !why.empty())
    return fail(err, n, why);
  return 0;
}

/// The stream runs the ops in order, so a started allreduce is complete
/// when the stream has drained; the handle only marks it.
int start(const pdcomm_op *op, void **handle, char *err, size_t n) {
  State &s = state();
  if (std::string why = refusal(s); !why.empty())
    return fail(err, n, why);
  pdcomm_op inPlace = *op;
  inPlace.kind = pdk::comm::AllReduceStart;
  if (std::string why = enqueue(s, &inPlace); !why.empty()) {
    s.broken = true;
    s.api.commAbort(s.comm);
    return fail(err, n, why);
  }
  *handle = &s;
  return 0;
}

int wait(void * /*handle*/, double timeout, char *err, size_t n) {
  State &s = state();
  if (std::string why = refusal(s); !why.empty())
    return fail(err, n, why);
  if (std::string why = drain(s, timeout); !why.empty())
    return fail(err, n, why);
  return 0;
}

const pdcomm_backend kBackend = {PDCOMM_ABI_VERSION, "nccl", init, run, start, wait};
} // namespace

extern "C" __attribute__((visibility("default"))) const pdcomm_backend *pdcomm_nccl_backend(void) {
  return &kBackend;
}

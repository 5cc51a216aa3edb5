//===- Comm.cpp - pdk_collective: the collectives of multi-rank programs --===//
//
// One communicator per process. Started on first use: with one rank (not
// launched by mpirun, or `mpirun -np 1`) it is this file's own, where every
// collective is a copy; with more it is the MPI backend, libpdrt_mpi.so,
// loaded with dlopen from beside this library (or $PADDLE_MLIR_MPI_BACKEND)
// so that nothing here needs MPI to load. PADDLE_MLIR_COMM_BACKEND=nccl
// loads the NCCL backend, libpdrt_nccl.so, instead (for one rank too).
// Each operation waits at most $PADDLE_MLIR_COMM_TIMEOUT seconds (default
// 300; paddle-run --comm-timeout) for the other ranks; a failure is the
// run's error and names the op and, where it can, the rank at fault.
// Built into libpdrt_kernels and, for cuda artifacts (which need no
// oneDNN), into libpdrt_cuda.
//
//===----------------------------------------------------------------------===//

#include "Operands.h"
#include "PaddleMLIR/Runtime/KernelABI.h"

#include "PaddleMLIR/Runtime/CommBackend.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <string>

using namespace pdk;

namespace {
/// The first failure of the communicator's ops since pdk_comm_take_error
/// last took it, on this thread (empty: none). After one, later ops skip
/// their work (and clear their destinations).
thread_local std::string commError;

struct Communicator {
  bool started = false;
  std::string error; // why it cannot run (set once, at start)
  const pdcomm_backend *backend = nullptr;
  int64_t rank = 0, size = 1;
  double timeout = 300;
};

std::mutex commMutex;

/// Allreduces started and not yet waited for (pd.allreduce_start), by
/// bucket: the backend's handle and the buffer reduced in place.
struct Started {
  void *handle = nullptr;
  void *buffer = nullptr;
};
std::map<int64_t, Started> &started() {
  static std::map<int64_t, Started> m;
  return m;
}
Communicator &communicator() {
  static Communicator c;
  return c;
}

/// The rank count the launcher gave this process (Open MPI's mpirun, or an
/// MPICH-style PMI launcher); 1 when not launched by one.
int64_t launcherSize(const char **var) {
  for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char *v = std::getenv(name)) {
      *var = name;
      return std::atoll(v);
    }
  *var = nullptr;
  return 1;
}

std::string besideThisLibrary(const char *file) {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&launcherSize), &info) && info.dli_fname) {
    std::string self = info.dli_fname;
    size_t slash = self.rfind('/');
    if (slash != std::string::npos)
      return self.substr(0, slash + 1) + file;
  }
  return file;
}

void start(Communicator &c) {
  if (c.started)
    return;
  c.started = true;
  if (const char *t = std::getenv("PADDLE_MLIR_COMM_TIMEOUT")) {
    char *end = nullptr;
    double v = std::strtod(t, &end);
    if (end == t || *end || !(v > 0)) {
      c.error =
          std::string("PADDLE_MLIR_COMM_TIMEOUT='") + t + "' is not a positive number of seconds";
      return;
    }
    c.timeout = v;
  }
  const char *var = nullptr;
  int64_t size = launcherSize(&var);
  // MPI by default; NCCL on request (one process per GPU), even for one
  // rank, so that a single GPU can check it.
  std::string kind = "mpi";
  if (const char *k = std::getenv("PADDLE_MLIR_COMM_BACKEND"))
    kind = k;
  if (kind != "mpi" && kind != "nccl") {
    c.error = "PADDLE_MLIR_COMM_BACKEND='" + kind + "' is not mpi or nccl";
    return;
  }
  bool nccl = kind == "nccl";
  if (size <= 1 && !nccl)
    return; // one rank: no backend
  std::string path;
  if (const char *p = std::getenv(nccl ? "PADDLE_MLIR_NCCL_BACKEND" : "PADDLE_MLIR_MPI_BACKEND"))
    path = p;
  else
    path = besideThisLibrary(nccl ? "libpdrt_nccl.so" : "libpdrt_mpi.so");
  // Global: Open MPI's own plugins resolve libmpi's symbols through it.
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    const char *why = dlerror();
    std::string launched =
        var ? std::string(var) + "=" + std::to_string(size) + " (launched by mpirun), but the "
            : std::string("The ");
    c.error = launched + (nccl ? "NCCL" : "MPI") +
              " backend cannot be loaded: " + (why ? why : path) +
              " (Open MPI's libmpi.so.40 is needed: libopenmpi3)";
    return;
  }
  const char *symbol = nccl ? "pdcomm_nccl_backend" : "pdcomm_mpi_backend";
  auto get = reinterpret_cast<const pdcomm_backend *(*)()>(dlsym(lib, symbol));
  const pdcomm_backend *b = get ? get() : nullptr;
  if (!b || b->abi != PDCOMM_ABI_VERSION) {
    c.error = "'" + path + "' is not a " + (nccl ? "NCCL" : "MPI") +
              " backend of this version (communication ABI " + std::to_string(PDCOMM_ABI_VERSION) +
              ")";
    return;
  }
  char err[512] = {0};
  int64_t rank = 0, n = 1;
  if (b->init(&rank, &n, err, sizeof err) != 0) {
    c.error = std::string(nccl ? "starting NCCL: " : "starting MPI: ") + err;
    return;
  }
  c.backend = b;
  c.rank = rank;
  c.size = n;
}

std::string opName(int64_t kind, int64_t reduce) {
  static const char *reduces[] = {"sum", "max", "min", "prod"};
  switch (kind) {
  case comm::AllReduce:
    return std::string("c_allreduce_") + reduces[reduce & 3];
  case comm::Broadcast:
    return "c_broadcast";
  case comm::AllGather:
    return "c_allgather";
  case comm::ReduceScatter:
    return "c_reducescatter";
  case comm::Send:
    return "send_v2";
  case comm::Recv:
    return "recv_v2";
  case comm::Rank:
  case comm::Shard:
    return "shard_batch";
  case comm::Stage:
    return "is_stage";
  case comm::AllReduceStart:
  case comm::AllReduceWait:
    return "c_allreduce_sum";
  default:
    return "barrier";
  }
}

int64_t numel(const int64_t *d) {
  int64_t n = 1;
  for (int64_t i = 0; i < d[-1]; ++i)
    n *= d[i];
  return n;
}
} // namespace

extern "C" PDK_EXPORT const char *pdk_comm_take_error() {
  thread_local std::string taken;
  if (commError.empty())
    return nullptr;
  taken.swap(commError);
  commError.clear();
  return taken.c_str();
}

extern "C" PDK_EXPORT const char *pdk_comm_world(int64_t *rank, int64_t *size) {
  std::lock_guard<std::mutex> lock(commMutex);
  Communicator &c = communicator();
  start(c);
  *rank = c.rank;
  *size = c.size;
  return c.error.empty() ? nullptr : c.error.c_str();
}

/// The name of the communicator's backend ("mpi", "nccl"), or null for a
/// job of one rank without one (or a communicator that cannot start).
extern "C" PDK_EXPORT const char *pdk_comm_backend() {
  std::lock_guard<std::mutex> lock(commMutex);
  Communicator &c = communicator();
  start(c);
  return c.backend ? c.backend->name : nullptr;
}

extern "C" PDK_EXPORT void pdk_collective(const int64_t *ptrs, const int64_t *ints, const float *) {
  const void *in = ptrAt(ptrs, comm::Input);
  void *out = ptrAt(ptrs, comm::NumSlots);
  Dims dims(ints + comm::NumInts);
  const int64_t *id = in ? dims.next() : nullptr, *od = dims.next();
  bool onDevice = (ints[comm::Kind] & comm::OnDevice) != 0;
  int64_t kind = ints[comm::Kind] & ~comm::OnDevice, dtype = ints[comm::Dtype],
          peer = ints[comm::Peer];
  int64_t nranks = ints[comm::Nranks];
  // A failed op leaves zeros: the code after it may index with what it
  // received (a rank, token ids) before the runtime reports the error.
  bool rankQuery = kind == comm::Rank || kind == comm::Stage || kind == comm::Shard;
  int64_t outBytes =
      numel(od) * (kind == comm::Rank || kind == comm::Stage ? 8 : comm::dtypeBytes(dtype));
  auto clear = [&] {
    if (!onDevice)
      std::memset(out, 0, static_cast<size_t>(outBytes));
  };
  if (!commError.empty())
    return clear();
  std::string what = opName(kind, ints[comm::ReduceOp]);
  if (kind == comm::AllReduceStart || kind == comm::AllReduceWait)
    what += " of gradient bucket " + std::to_string(peer);
  else if (ints[comm::Seq] >= 0)
    what += " (collective " + std::to_string(ints[comm::Seq]) + " of the program)";
  auto fail = [&](const std::string &why) {
    commError = what + ": " + why;
    clear();
  };

  std::lock_guard<std::mutex> lock(commMutex);
  Communicator &c = communicator();
  start(c);
  if (!c.error.empty())
    return fail(c.error);
  if (rankQuery) {
    // pd.shard_batch (which part of the batch is this rank's) and
    // pd.is_stage (one rank per pipeline stage).
    std::string n = std::to_string(nranks);
    if (nranks != c.size)
      return fail((kind != comm::Stage
                       ? "the artifact was compiled for " + n +
                             " devices (--partition data --devices " + n + ")"
                       : "the artifact is a pipeline of " + n +
                             " stages (--partition pipeline --devices " + n + "), one per rank") +
                  ", but the job has " + std::to_string(c.size) + " rank" +
                  (c.size > 1 ? "s" : "") + " (run it with mpirun -np " + n + ")");
    if (kind != comm::Stage && (id[-1] < 1 || id[0] % nranks != 0))
      return fail("a batch of " + std::to_string(id[-1] ? id[0] : 0) +
                  " does not split evenly among " + n + " ranks");
    if (kind == comm::Shard) {
      // The destination holds one part: B / n rows.
      int64_t part = numel(id) / nranks * comm::dtypeBytes(dtype);
      if (outBytes != part)
        return fail("the destination holds " + std::to_string(outBytes) + " bytes, not a part of " +
                    std::to_string(part));
      std::memcpy(out, static_cast<const char *>(in) + c.rank * part, static_cast<size_t>(part));
      return;
    }
    *static_cast<int64_t *>(out) = c.rank;
    return;
  }
  if (ints[comm::RingId] != 0)
    return fail("ring " + std::to_string(ints[comm::RingId]) +
                ": only ring 0 (every rank of the job) is supported yet");
  std::string job = " of this " + std::to_string(c.size) + "-rank job";
  if (nranks > 0 && nranks != c.size)
    return fail("the program was written for nranks = " + std::to_string(nranks) +
                ", but the job has " + std::to_string(c.size) + " rank" + (c.size > 1 ? "s" : ""));
  if (kind == comm::Broadcast && peer >= c.size)
    return fail("root " + std::to_string(peer) + " is not a rank" + job);
  if ((kind == comm::Send || kind == comm::Recv) && (peer >= c.size || peer == c.rank))
    return fail(peer == c.rank ? "peer " + std::to_string(peer) + " is this rank itself"
                               : "peer " + std::to_string(peer) + " is not a rank" + job);

  int64_t bytes = comm::dtypeBytes(dtype);
  int64_t inCount = id ? numel(id) : 0, outCount = numel(od);
  if (kind == comm::AllReduceStart || kind == comm::AllReduceWait) {
    // In place on the destination; alone, the sum of one rank's is itself.
    if (!c.backend)
      return;
    char err[512] = {0};
    auto &pending = started();
    if (kind == comm::AllReduceStart) {
      if (pending.count(peer))
        return fail("started again before it was waited for");
      pdcomm_op op{comm::AllReduce, dtype, ints[comm::ReduceOp], 0, out, out, outCount};
      void *handle = nullptr;
      if (c.backend->start(&op, &handle, err, sizeof err) != 0) {
        commError = "rank " + std::to_string(c.rank) + ": " + what + ": " + err;
        return clear();
      }
      pending[peer] = {handle, out};
      return;
    }
    auto it = pending.find(peer);
    if (it == pending.end())
      return fail("waited for, but never started");
    Started s = it->second;
    pending.erase(it);
    if (s.buffer != out)
      return fail("waited for on another buffer than the one it reduces");
    if (c.backend->wait(s.handle, c.timeout, err, sizeof err) != 0) {
      commError = "rank " + std::to_string(c.rank) + ": " + what + ": " + err;
      clear();
    }
    return;
  }
  pdcomm_op op{kind, dtype, ints[comm::ReduceOp], peer, in, out, 0};
  switch (kind) {
  case comm::AllReduce:
  case comm::Broadcast:
  case comm::Barrier:
    op.count = outCount;
    if (kind != comm::AllReduce && in != out) {
      if (onDevice)
        return fail("device buffers must be in place (X is the destination)");
      std::memcpy(out, in, static_cast<size_t>(outCount * bytes));
    }
    if (kind == comm::Broadcast)
      op.in = out;
    break;
  case comm::AllGather:
  case comm::ReduceScatter: {
    int64_t part = kind == comm::AllGather ? inCount : outCount;
    int64_t whole = kind == comm::AllGather ? outCount : inCount;
    if (whole != part * c.size)
      return fail("holds " + std::to_string(whole) + " elements, not " + std::to_string(c.size) +
                  " x " + std::to_string(part) + job);
    op.count = part;
    break;
  }
  case comm::Send:
    op.count = inCount;
    break;
  case comm::Recv:
    op.count = outCount;
    break;
  default:
    return fail("unknown collective kind " + std::to_string(kind));
  }
  if (!c.backend) {
    if (onDevice)
      return fail("device buffers need the NCCL backend");
    // One rank: every collective leaves X as it is.
    if (kind == comm::AllReduce || kind == comm::AllGather || kind == comm::ReduceScatter)
      if (in != out)
        std::memcpy(out, in, static_cast<size_t>(outCount * bytes));
    return;
  }
  char err[512] = {0};
  if (c.backend->run(&op, c.timeout, err, sizeof err) != 0) {
    commError = "rank " + std::to_string(c.rank) + ": " + what + ": " + err;
    clear();
  }
}

//===- MpiBackend.cpp - libpdrt_mpi: the MPI communication backend -------===//
//
// The pdcomm_backend (CommBackend.h) that libpdrt_kernels loads when a job
// was launched by mpirun with more than one rank. Every operation is a
// nonblocking MPI call completed by polling against a deadline, so a lost
// or stuck rank makes the others fail with a message instead of hanging.
//
// To name the rank at fault, each rank announces on a second communicator
// (`ctl`) every collective it enters: a small message to each other rank.
// When a collective times out, the ranks whose announcement of it never
// came are the ones that did not reach it. Point-to-point ops name their
// peer. After a failure the process exits without MPI_Finalize, which
// makes mpirun stop the remaining ranks.
//
// A started allreduce (`start`, for gradient buckets that overlap the
// rest of backward) advances in a progress thread that tests it every
// millisecond until `wait` takes it over: MPI moves a nonblocking collective
// only inside MPI calls. Every MPI call holds one lock (the library is
// initialized MPI_THREAD_SERIALIZED).
//
//===----------------------------------------------------------------------===//

#include "BackendSupport.h"
#include "CommBackend.h"
#include "KernelABI.h"

// The C API only (Open MPI's mpi.h pulls in its deprecated C++ bindings).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <sched.h>
#include <string>
#include <thread>
#include <vector>

namespace {
constexpr int kArrivalTag = 7, kDataTag = 8;

struct State {
  MPI_Comm data = MPI_COMM_NULL, ctl = MPI_COMM_NULL;
  int rank = 0, size = 1;
  bool ready = false, initializedHere = false, broken = false;
  int64_t entered = 0;               // collectives this rank entered
  std::vector<int64_t> arrived;      // per rank: collectives it announced
  std::vector<int64_t> inbox;        // per rank: the announcement being received
  std::vector<MPI_Request> inboxReq; // per rank: that receive
  std::deque<std::pair<MPI_Request, std::unique_ptr<int64_t>>> outbox;
  // Started allreduces, advanced by the progress thread until waited for.
  struct Pending {
    MPI_Request req = MPI_REQUEST_NULL;
    int64_t entered = 0; // which collective of this rank it is
  };
  std::vector<Pending *> active;
  std::mutex lock; // held by every MPI call
  std::thread *progress = nullptr;
  bool stopProgress = false;
};

State &state() {
  static State s;
  return s;
}

using pdcomm::fail;

std::string mpiError(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, text, &len);
  return std::string(text, static_cast<size_t>(len));
}

/// Takes the announcements that arrived and retires finished sends.
void poll(State &s) {
  for (int p = 0; p < s.size; ++p) {
    if (p == s.rank)
      continue;
    for (;;) {
      int done = 0;
      MPI_Test(&s.inboxReq[p], &done, MPI_STATUS_IGNORE);
      if (!done)
        break;
      s.arrived[p] = std::max(s.arrived[p], s.inbox[p]);
      MPI_Irecv(&s.inbox[p], 1, MPI_INT64_T, p, kArrivalTag, s.ctl, &s.inboxReq[p]);
    }
  }
  while (!s.outbox.empty()) {
    int done = 0;
    MPI_Test(&s.outbox.front().first, &done, MPI_STATUS_IGNORE);
    if (!done)
      break;
    s.outbox.pop_front();
  }
}

/// Tells every other rank that this one entered its next collective.
void announce(State &s) {
  ++s.entered;
  for (int p = 0; p < s.size; ++p) {
    if (p == s.rank)
      continue;
    auto value = std::make_unique<int64_t>(s.entered);
    MPI_Request req;
    MPI_Isend(value.get(), 1, MPI_INT64_T, p, kArrivalTag, s.ctl, &req);
    s.outbox.emplace_back(req, std::move(value));
  }
}

/// Polls `req` until it completes (true) or `timeout` seconds pass.
bool waitFor(State &s, MPI_Request &req, double timeout) {
  double deadline = MPI_Wtime() + timeout;
  for (int spins = 0;; ++spins) {
    int done = 0;
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done)
      return true;
    poll(s);
    if (MPI_Wtime() >= deadline)
      return false;
    // Yield the core to ranks that still compute (mpirun --oversubscribe)
    // but keep testing: a nonblocking collective advances only inside
    // MPI_Test, so sleeping between tests stalls large transfers.
    if (spins > 1000)
      sched_yield();
  }
}

using pdcomm::seconds;

MPI_Datatype mpiType(int64_t dtype) {
  switch (dtype) {
  case pdk::comm::F32:
    return MPI_FLOAT;
  case pdk::comm::F64:
    return MPI_DOUBLE;
  case pdk::comm::I32:
    return MPI_INT32_T;
  case pdk::comm::I64:
    return MPI_INT64_T;
  case pdk::comm::I8:
    return MPI_INT8_T;
  case pdk::comm::U8:
  case pdk::comm::Bool:
    return MPI_UINT8_T;
  case pdk::comm::F16:
  case pdk::comm::BF16:
    return MPI_UINT16_T; // moved, never reduced
  default:
    return MPI_DATATYPE_NULL;
  }
}

MPI_Op mpiOp(int64_t reduce) {
  switch (reduce) {
  case pdk::comm::Max:
    return MPI_MAX;
  case pdk::comm::Min:
    return MPI_MIN;
  case pdk::comm::Prod:
    return MPI_PROD;
  default:
    return MPI_SUM;
  }
}

/// At exit: takes the other ranks' last announcements, then leaves MPI. A
/// broken communicator leaves without MPI_Finalize (it would wait for the
/// lost rank); mpirun then stops the job.
void finish() {
  State &s = state();
  if (s.progress) {
    {
      std::lock_guard<std::mutex> g(s.lock);
      s.stopProgress = true;
    }
    s.progress->join();
  }
  if (!s.ready || s.broken)
    return;
  double deadline = MPI_Wtime() + 10;
  auto behind = [&] {
    for (int p = 0; p < s.size; ++p)
      if (p != s.rank && s.arrived[p] < s.entered)
        return true;
    return false;
  };
  while ((behind() || !s.outbox.empty()) && MPI_Wtime() < deadline)
    poll(s);
  for (int p = 0; p < s.size; ++p)
    if (p != s.rank) {
      MPI_Cancel(&s.inboxReq[p]);
      MPI_Wait(&s.inboxReq[p], MPI_STATUS_IGNORE);
    }
  if (!s.initializedHere)
    return;
  MPI_Comm_free(&s.ctl);
  MPI_Comm_free(&s.data);
  MPI_Finalize();
}

int init(int64_t *rank, int64_t *size, char *err, size_t n) {
  State &s = state();
  if (!s.ready) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
      int provided = 0;
      int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
      if (rc != MPI_SUCCESS)
        return fail(err, n, "MPI_Init_thread failed: " + mpiError(rc));
      s.initializedHere = true;
    }
    // Errors come back as codes (the default aborts the job).
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &s.data);
    MPI_Comm_dup(MPI_COMM_WORLD, &s.ctl);
    MPI_Comm_set_errhandler(s.data, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(s.ctl, MPI_ERRORS_RETURN);
    MPI_Comm_rank(s.data, &s.rank);
    MPI_Comm_size(s.data, &s.size);
    s.arrived.assign(s.size, 0);
    s.inbox.assign(s.size, 0);
    s.inboxReq.assign(s.size, MPI_REQUEST_NULL);
    for (int p = 0; p < s.size; ++p)
      if (p != s.rank)
        MPI_Irecv(&s.inbox[p], 1, MPI_INT64_T, p, kArrivalTag, s.ctl, &s.inboxReq[p]);
    s.ready = true;
    std::atexit(finish);
  }
  *rank = s.rank;
  *size = s.size;
  return 0;
}

/// The ranks that did not announce collective `entered` of this rank, or
/// that every rank reached it.
std::string lostRanks(State &s, int64_t entered, double timeout) {
  std::string lost;
  int nLost = 0;
  for (int p = 0; p < s.size; ++p)
    if (p != s.rank && s.arrived[p] < entered)
      lost += (nLost++ ? ", " : "") + std::to_string(p);
  if (nLost)
    return (nLost == 1 ? "rank " : "ranks ") + lost + " did not reach it within " +
           seconds(timeout) + " (lost or stuck)";
  return "every rank reached it, but it did not finish within " + seconds(timeout) +
         " (a rank was lost during it)";
}

/// Why `op` cannot run now, or "".
std::string refusal(const State &s, const pdcomm_op *op) {
  if (!s.ready)
    return "the MPI communicator is not initialized";
  if (s.broken)
    return "the communicator failed earlier in this process";
  if (op->count > INT_MAX)
    return std::to_string(op->count) + " elements exceed what one MPI call moves (2^31 - 1)";
  return "";
}

int run(const pdcomm_op *op, double timeout, char *err, size_t n) {
  State &s = state();
  std::lock_guard<std::mutex> g(s.lock);
  if (std::string why = refusal(s, op); !why.empty())
    return fail(err, n, why);
  int count = static_cast<int>(op->count);
  MPI_Datatype type = mpiType(op->dtype);
  MPI_Request req = MPI_REQUEST_NULL;
  int rc = MPI_SUCCESS;
  bool collective = op->kind != pdk::comm::Send && op->kind != pdk::comm::Recv;
  if (collective)
    announce(s);
  const void *in = op->in == op->out ? MPI_IN_PLACE : op->in;
  switch (op->kind) {
  case pdk::comm::AllReduce:
    rc = MPI_Iallreduce(in, op->out, count, type, mpiOp(op->reduce), s.data, &req);
    break;
  case pdk::comm::Broadcast:
    rc = MPI_Ibcast(op->out, count, type, static_cast<int>(op->peer), s.data, &req);
    break;
  case pdk::comm::AllGather:
    rc = MPI_Iallgather(op->in, count, type, op->out, count, type, s.data, &req);
    break;
  case pdk::comm::ReduceScatter:
    rc = MPI_Ireduce_scatter_block(op->in, op->out, count, type, mpiOp(op->reduce), s.data, &req);
    break;
  case pdk::comm::Barrier:
    rc = MPI_Ibarrier(s.data, &req);
    break;
  case pdk::comm::Send:
    rc = MPI_Isend(op->in, count, type, static_cast<int>(op->peer), kDataTag, s.data, &req);
    break;
  case pdk::comm::Recv:
    rc = MPI_Irecv(op->out, count, type, static_cast<int>(op->peer), kDataTag, s.data, &req);
    break;
  default:
    return fail(err, n, "unknown operation kind " + std::to_string(op->kind));
  }
  if (rc != MPI_SUCCESS) {
    s.broken = true;
    return fail(err, n, "MPI refused it: " + mpiError(rc));
  }
  if (waitFor(s, req, timeout))
    return 0;
  s.broken = true;
  if (!collective)
    return fail(err, n,
                "rank " + std::to_string(op->peer) + " did not " +
                    (op->kind == pdk::comm::Send ? "receive" : "send") + " within " +
                    seconds(timeout) + " (lost, stuck, or its program has no matching " +
                    (op->kind == pdk::comm::Send ? "recv_v2" : "send_v2") + ")");
  return fail(err, n, lostRanks(s, s.entered, timeout));
}

void progressLoop() {
  State &s = state();
  for (;;) {
    bool busy;
    {
      std::lock_guard<std::mutex> g(s.lock);
      if (s.stopProgress)
        return;
      for (State::Pending *p : s.active) {
        int done = 0;
        MPI_Test(&p->req, &done, MPI_STATUS_IGNORE);
      }
      poll(s);
      busy = !s.active.empty();
    }
    std::this_thread::sleep_for(std::chrono::microseconds(busy ? 1000 : 2000));
  }
}

int start(const pdcomm_op *op, void **handle, char *err, size_t n) {
  State &s = state();
  std::lock_guard<std::mutex> g(s.lock);
  if (std::string why = refusal(s, op); !why.empty())
    return fail(err, n, why);
  announce(s);
  auto p = std::make_unique<State::Pending>();
  p->entered = s.entered;
  int rc = MPI_Iallreduce(MPI_IN_PLACE, op->out, static_cast<int>(op->count), mpiType(op->dtype),
                          mpiOp(op->reduce), s.data, &p->req);
  if (rc != MPI_SUCCESS) {
    s.broken = true;
    return fail(err, n, "MPI refused it: " + mpiError(rc));
  }
  s.active.push_back(p.get());
  *handle = p.release();
  if (!s.progress)
    s.progress = new std::thread(progressLoop);
  return 0;
}

int wait(void *handle, double timeout, char *err, size_t n) {
  State &s = state();
  std::unique_ptr<State::Pending> p(static_cast<State::Pending *>(handle));
  std::lock_guard<std::mutex> g(s.lock);
  s.active.erase(std::remove(s.active.begin(), s.active.end(), p.get()), s.active.end());
  if (waitFor(s, p->req, timeout))
    return 0;
  s.broken = true;
  return fail(err, n, lostRanks(s, p->entered, timeout));
}

const pdcomm_backend kBackend = {PDCOMM_ABI_VERSION, "mpi", init, run, start, wait};
} // namespace

extern "C" __attribute__((visibility("default"))) const pdcomm_backend *pdcomm_mpi_backend(void) {
  return &kBackend;
}

// The bootstrap of the NCCL backend (CommBackend.h): plain blocking MPI
// calls on MPI_COMM_WORLD, made once while the job starts.
namespace {
bool bootstrapInitialized = false; // MPI_Init_thread called here

int bootstrapInit(int *rank, int *size, char *err, size_t n) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    if (int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided))
      return fail(err, n, "MPI_Init_thread failed: " + mpiError(rc));
    bootstrapInitialized = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  return 0;
}

int bootstrapAll(int ok) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all;
}

void bootstrapBroadcast(void *data, size_t bytes, int root) {
  MPI_Bcast(data, static_cast<int>(bytes), MPI_BYTE, root, MPI_COMM_WORLD);
}

void bootstrapFinish() {
  int finalized = 0;
  if (bootstrapInitialized && (MPI_Finalized(&finalized), !finalized))
    MPI_Finalize();
}

const pdcomm_bootstrap kBootstrap = {PDCOMM_ABI_VERSION, bootstrapInit, bootstrapAll,
                                     bootstrapBroadcast, bootstrapFinish};
} // namespace

extern "C" __attribute__((visibility("default"))) const pdcomm_bootstrap *
pdcomm_mpi_bootstrap(void) {
  return &kBootstrap;
}

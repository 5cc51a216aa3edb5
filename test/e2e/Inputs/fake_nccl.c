/* fake_nccl.c - a stand-in for NCCL (libnccl.so.2) with one rank, for the
 * NCCL backend's tests on machines without a GPU (with fake_cudart.c):
 * every collective of one rank is a copy of its input (reductions,
 * broadcast, gathers and scatters alike). A communicator of more ranks is
 * refused. At exit it prints the calls to stderr ("fake-nccl: ..."). */
#include <stdio.h>
#include <string.h>

typedef struct {
  char internal[128];
} ncclUniqueId;
static long reductions, broadcasts, gathers, scatters, comms;

__attribute__((destructor)) static void report(void) {
  fprintf(stderr, "fake-nccl: comms=%ld allreduce=%ld broadcast=%ld allgather=%ld reducescatter=%ld\n",
          comms, reductions, broadcasts, gathers, scatters);
}

static size_t bytes(size_t count, int type) {
  /* ncclInt8 0, Uint8 1, Int32 2, Uint32 3, Int64 4, Uint64 5, Float16 6,
   * Float32 7, Float64 8, Bfloat16 9 */
  static const size_t size[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2};
  return count * (type >= 0 && type < 10 ? size[type] : 1);
}

int ncclGetUniqueId(ncclUniqueId *id) {
  memset(id, 7, sizeof *id);
  return 0;
}
int ncclCommInitRank(void **comm, int n, ncclUniqueId id, int rank) {
  if (n != 1 || rank != 0)
    return 4; /* ncclInvalidArgument */
  static int one;
  *comm = &one;
  ++comms;
  return 0;
}
int ncclCommAbort(void *comm) { return 0; }
int ncclCommDestroy(void *comm) { return 0; }
int ncclCommGetAsyncError(void *comm, int *e) {
  *e = 0;
  return 0;
}
const char *ncclGetErrorString(int e) { return e == 4 ? "invalid argument (fake NCCL: one rank)" : "fake NCCL error"; }
int ncclAllReduce(const void *in, void *out, size_t n, int type, int op, void *comm, void *s) {
  memmove(out, in, bytes(n, type));
  ++reductions;
  return 0;
}
int ncclBroadcast(const void *in, void *out, size_t n, int type, int root, void *comm, void *s) {
  memmove(out, in, bytes(n, type));
  ++broadcasts;
  return 0;
}
int ncclAllGather(const void *in, void *out, size_t n, int type, void *comm, void *s) {
  memmove(out, in, bytes(n, type));
  ++gathers;
  return 0;
}
int ncclReduceScatter(const void *in, void *out, size_t n, int type, int op, void *comm, void *s) {
  memmove(out, in, bytes(n, type));
  ++scatters;
  return 0;
}
int ncclSend(const void *in, size_t n, int type, int peer, void *comm, void *s) { return 4; }
int ncclRecv(void *out, size_t n, int type, int peer, void *comm, void *s) { return 4; }

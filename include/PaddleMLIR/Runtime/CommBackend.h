/* CommBackend.h - what libpdrt_kernels asks of a communication backend.
 *
 * The kernel library runs a multi-rank program's collectives
 * (pdk_collective) on one communicator per process. With one rank it
 * needs nothing; launched by mpirun with more, it loads libpdrt_mpi.so
 * (lib/Runtime/Comm/MpiBackend.cpp, linked against Open MPI) with dlopen,
 * so the kernel library and every artifact keep loading on machines
 * without MPI. A backend is one table of C functions, versioned.
 */
#ifndef PADDLE_MLIR_COMMBACKEND_H
#define PADDLE_MLIR_COMMBACKEND_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PDCOMM_ABI_VERSION 2

/* One operation. `kind`, `dtype` and `reduce` take pdk::comm's Kind, Dtype
 * and Reduce values (KernelABI.h); the caller names the op in messages.
 * `count` is in elements of `dtype`: of
 * `in` and `out` for allreduce, broadcast (in place on `out`), send and
 * recv; of each rank's part for allgather (in: count, out: size * count)
 * and reducescatter (in: size * count, out: count). */
typedef struct pdcomm_op {
  int64_t kind, dtype, reduce, peer;
  const void *in;
  void *out;
  int64_t count;
} pdcomm_op;

typedef struct pdcomm_backend {
  int64_t abi; /* PDCOMM_ABI_VERSION */
  const char *name;
  /* Joins the job: this process's rank and the rank count. 0 on success;
   * otherwise a message in err. */
  int (*init)(int64_t *rank, int64_t *size, char *err, size_t errLen);
  /* Runs one op. Waits at most `timeout` seconds for the other ranks; past
   * that it fails naming the ranks that did not take part. After a failure
   * the communicator is broken: every later call fails. */
  int (*run)(const pdcomm_op *op, double timeout, char *err, size_t errLen);
  /* Starts an allreduce in place on `out` (`in` is ignored) and returns at
   * once, `*handle` naming it; the backend advances it in the background
   * until `wait`, which completes it as `run` would (and frees the
   * handle). Between the two the caller leaves `out` alone. */
  int (*start)(const pdcomm_op *op, void **handle, char *err, size_t errLen);
  int (*wait)(void *handle, double timeout, char *err, size_t errLen);
} pdcomm_backend;

/* Exported by libpdrt_mpi.so. */
const pdcomm_backend *pdcomm_mpi_backend(void);

/* How a backend that moves data by other means (NCCL) starts a job of
 * several ranks over MPI: libpdrt_mpi.so exports it, and libpdrt_nccl.so
 * loads it with dlopen only when the launcher started several ranks, so
 * that one process on one GPU needs no MPI installed. */
typedef struct pdcomm_bootstrap {
  int64_t abi; /* PDCOMM_ABI_VERSION */
  /* Joins the job (initializing MPI unless the process did): rank and
   * size; 0 on success, else a message in err. */
  int (*init)(int *rank, int *size, char *err, size_t errLen);
  /* Whether every rank passed a non-zero `ok` (a collective: all call it). */
  int (*all)(int ok);
  /* Rank `root`'s `bytes` at `data` on every rank. */
  void (*broadcast)(void *data, size_t bytes, int root);
  /* Ends MPI if `init` started it and it is not ended yet. */
  void (*finish)(void);
} pdcomm_bootstrap;

/* Exported by libpdrt_mpi.so. */
const pdcomm_bootstrap *pdcomm_mpi_bootstrap(void);

#ifdef __cplusplus
}
#endif
#endif /* PADDLE_MLIR_COMMBACKEND_H */

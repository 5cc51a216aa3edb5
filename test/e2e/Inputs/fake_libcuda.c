/* fake_libcuda.c - a stand-in for the CUDA driver (libcuda.so.1) that lets
 * the runtime's device path run on machines without a GPU: "device memory"
 * is host memory, copies are memcpy, and launches are counted, not run
 * (outputs hold whatever the arena held). It checks what it can: a module
 * must be a CUDA ELF (a cubin), functions must be found by name before
 * launch, grids must be non-empty. At exit it prints what happened to
 * stderr ("fake-cuda: ..."), for FileCheck.
 *
 * Faults on request (environment): FAKE_CUDA_CC=80 (the compute capability
 * reported, default 90), FAKE_CUDA_MEM=N (fail allocations beyond N bytes
 * in total with CUDA_ERROR_OUT_OF_MEMORY), FAKE_CUDA_FAULT=1 (the stream
 * reports CUDA_ERROR_ILLEGAL_ADDRESS at the first sync after a launch),
 * FAKE_CUDA_DEVICES=N (the device count, default 1). FAKE_CUDA_LOG_ALLOCS=1
 * prints "fake-cuda: alloc N pid P" for each allocation of N bytes.
 * FAKE_CUDA_DRIVER_VERSION=N: the CUDA version the driver says it supports
 * (1000 * major + 10 * minor, default 13000: CUDA 13.0).
 *
 * Because device memory is host memory, artifacts compiled with
 * --cuda-emulate (kernels as host loops) run on it and compute; it says
 * so by exporting pd_fake_cuda_host_memory, which libpdrt_cuda looks for
 * before running one (not when built with -DFAKE_CUDA_DEVICE_MEMORY, to
 * pose as a real driver). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long modules, functions, launches, allocs, toDevice, toHost, onDevice;
static unsigned long long allocated;
static int launchedSinceSync;
/* Each cuStreamCreate gets a stream of its own; a launch must name a live
 * one. The report counts the streams created and those launched on. */
#define MAX_STREAMS 64
static int alive[MAX_STREAMS], launchedOn[MAX_STREAMS];
static long streams;

__attribute__((destructor)) static void report(void) {
  long launchStreams = 0;
  for (long i = 0; i < streams && i < MAX_STREAMS; ++i)
    launchStreams += launchedOn[i];
  fprintf(stderr,
          "fake-cuda: modules=%ld functions=%ld launches=%ld allocs=%ld h2d=%ld d2h=%ld d2d=%ld "
          "streams=%ld launch-streams=%ld\n",
          modules, functions, launches, allocs, toDevice, toHost, onDevice, streams, launchStreams);
}

static long env(const char *name, long fallback) {
  const char *v = getenv(name);
  return v && *v ? atol(v) : fallback;
}

int cuGetErrorName(int r, const char **name) {
  if (r == 700) {
    *name = "CUDA_ERROR_ILLEGAL_ADDRESS";
    return 0;
  }
  return 1; /* unknown to this driver: the runtime names it itself */
}
int cuGetErrorString(int r, const char **text) {
  if (r == 700) {
    *text = "an illegal memory access was encountered";
    return 0;
  }
  return 1;
}
#ifndef FAKE_CUDA_DEVICE_MEMORY /* built with it: poses as a real driver */
int pd_fake_cuda_host_memory(void) { return 1; }
#endif
int cuInit(unsigned flags) { return 0; }
int cuDriverGetVersion(int *v) {
  *v = (int)env("FAKE_CUDA_DRIVER_VERSION", 13000);
  return 0;
}
int cuDeviceGetCount(int *n) {
  *n = (int)env("FAKE_CUDA_DEVICES", 1);
  return 0;
}
int cuDeviceGet(int *d, int ordinal) {
  *d = ordinal;
  return ordinal >= 0 && ordinal < env("FAKE_CUDA_DEVICES", 1) ? 0 : 101;
}
int cuDeviceGetName(char *name, int n, int d) {
  snprintf(name, n, "fake GPU");
  return 0;
}
int cuDeviceGetAttribute(int *v, int attr, int d) {
  long cc = env("FAKE_CUDA_CC", 90);
  *v = attr == 75 ? (int)(cc / 10) : attr == 76 ? (int)(cc % 10) : 0;
  return 0;
}
static int context;
int cuDevicePrimaryCtxRetain(void **ctx, int d) {
  *ctx = &context;
  return 0;
}
int cuDevicePrimaryCtxRelease_v2(int d) { return 0; }
int cuCtxSetCurrent(void *ctx) { return ctx == &context ? 0 : 201; }
int cuMemAlloc_v2(unsigned long long *p, size_t n) {
  if (allocated + n > (unsigned long long)env("FAKE_CUDA_MEM", 1L << 40))
    return 2;
  /* Aligned like the driver's allocations (256 bytes): code that relies
   * on that (aligned vector loads) runs here as it would on a GPU. */
  void *m = aligned_alloc(256, (n + 255) / 256 * 256);
  if (!m)
    return 2;
  memset(m, 0, n);
  allocated += n;
  ++allocs;
  if (env("FAKE_CUDA_LOG_ALLOCS", 0))
    fprintf(stderr, "fake-cuda: alloc %zu pid %ld\n", n, (long)getpid());
  *p = (unsigned long long)(uintptr_t)m;
  return 0;
}
int cuMemFree_v2(unsigned long long p) {
  free((void *)(uintptr_t)p);
  return 0;
}
int cuMemcpyHtoDAsync_v2(unsigned long long dst, const void *src, size_t n, void *s) {
  memcpy((void *)(uintptr_t)dst, src, n);
  ++toDevice;
  return 0;
}
int cuMemcpyDtoHAsync_v2(void *dst, unsigned long long src, size_t n, void *s) {
  memcpy(dst, (const void *)(uintptr_t)src, n);
  ++toHost;
  return 0;
}
static int streamIndex(void *s) {
  long i = (int *)s - alive;
  return i >= 0 && i < streams && alive[i] ? (int)i : -1;
}
int cuMemcpyDtoDAsync_v2(unsigned long long dst, unsigned long long src, size_t n, void *s) {
  memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
  ++onDevice;
  return 0;
}
int cuStreamCreate(void **s, unsigned flags) {
  long i = __atomic_fetch_add(&streams, 1, __ATOMIC_SEQ_CST);
  if (i >= MAX_STREAMS)
    return 2; /* CUDA_ERROR_OUT_OF_MEMORY */
  alive[i] = 1;
  *s = &alive[i];
  return 0;
}
int cuStreamSynchronize(void *s) {
  int fault = launchedSinceSync && env("FAKE_CUDA_FAULT", 0);
  launchedSinceSync = 0;
  return fault ? 700 : 0;
}
int cuStreamDestroy_v2(void *s) {
  int i = streamIndex(s);
  if (i < 0)
    return 400; /* CUDA_ERROR_INVALID_HANDLE */
  alive[i] = 0;
  return 0;
}
int cuModuleLoadData(void **m, const void *image) {
  const unsigned char *e = image;
  /* ELF, and e_machine (bytes 18-19) EM_CUDA = 190. */
  if (memcmp(e, "\177ELF", 4) != 0 || e[18] != 190 || e[19] != 0)
    return 200; /* CUDA_ERROR_INVALID_IMAGE */
  ++modules;
  *m = (void *)image;
  return 0;
}
int cuModuleGetFunction(void **f, void *m, const char *name) {
  if (!m || !name || !*name)
    return 500; /* CUDA_ERROR_NOT_FOUND */
  ++functions;
  *f = strdup(name);
  return 0;
}
int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned smem, void *s, void **params, void **extra) {
  int i = streamIndex(s);
  if (!f || !gx || !gy || !gz || !bx || !by || !bz || i < 0 || !params)
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  launchedOn[i] = 1;
  ++launches;
  launchedSinceSync = 1;
  return 0;
}

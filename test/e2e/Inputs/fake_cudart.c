/* fake_cudart.c - a stand-in for the CUDA runtime (libcudart.so) as the
 * NCCL backend uses it, so that its one-rank path runs on machines without
 * a GPU: one device, "device memory" is host memory (cudaMalloc is
 * malloc), copies are memcpy, streams are always done. A pointer is device
 * memory when cudaMalloc returned it, or always with
 * FAKE_CUDART_ALL_DEVICE=1 (the buffers of a cuda artifact run on the fake
 * driver, fake_libcuda.c, are host memory too). At exit it prints what
 * happened to stderr ("fake-cudart: ..."), for the tests. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long mallocs, copies;
static void *allocated[64];

__attribute__((destructor)) static void report(void) {
  fprintf(stderr, "fake-cudart: mallocs=%ld copies=%ld\n", mallocs, copies);
}

int cudaGetDeviceCount(int *n) {
  *n = 1;
  return 0;
}
int cudaSetDevice(int d) { return d == 0 ? 0 : 101; }
int cudaStreamCreate(void **s) {
  static int stream;
  *s = &stream;
  return 0;
}
int cudaStreamQuery(void *s) { return 0; }
int cudaMalloc(void **p, size_t n) {
  *p = malloc(n ? n : 1);
  for (int i = 0; i < 64; ++i)
    if (!allocated[i]) {
      allocated[i] = *p;
      break;
    }
  ++mallocs;
  return *p ? 0 : 2;
}
int cudaFree(void *p) {
  for (int i = 0; i < 64; ++i)
    if (allocated[i] == p)
      allocated[i] = NULL;
  free(p);
  return 0;
}
int cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *s) {
  memmove(dst, src, n);
  ++copies;
  return 0;
}
struct attributes {
  int type, device;
  void *devicePointer, *hostPointer;
};
int cudaPointerGetAttributes(struct attributes *a, const void *p) {
  const char *all = getenv("FAKE_CUDART_ALL_DEVICE");
  int device = all && *all == '1';
  for (int i = 0; i < 64 && !device; ++i)
    device = allocated[i] == p;
  memset(a, 0, sizeof *a);
  a->type = device ? 2 : 0; /* cudaMemoryTypeDevice : unregistered host memory */
  return 0;
}
const char *cudaGetErrorString(int e) { return e ? "fake CUDA runtime error" : "no error"; }

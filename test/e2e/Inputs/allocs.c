/* allocs.c - counts the heap allocations of steady-state runs: loads a model
 * (inputs zero or a fixed pattern, dynamic dims taken as 1), runs it WARMUP
 * times, then counts every malloc / calloc / realloc / aligned allocation
 * made by any thread during RUNS more runs. Prints "buffer allocations per
 * run: N" (N: those of at least 4 KiB, the size of any tensor or scratch
 * buffer worth reusing) and "small allocations per run: M, B bytes"
 * (bookkeeping, e.g. inside oneDNN's primitive execution).
 * The allocator functions below replace the C library's for the whole
 * process (the executable's definitions win symbol lookup) and forward to
 * glibc's internal entry points.
 * Usage: allocs ARTIFACT_DIR [WARMUP RUNS]
 */
#include "pdrt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static long counting, count, big, bytes;
static pdrt_model *model;

static void note(size_t n) {
  if (!__atomic_load_n(&counting, __ATOMIC_RELAXED))
    return;
  if (n >= 4096) {
    __atomic_add_fetch(&big, 1, __ATOMIC_RELAXED);
  } else {
    __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&bytes, (long)n, __ATOMIC_RELAXED);
  }
}
void *malloc(size_t n) {
  note(n);
  return __libc_malloc(n);
}
void *calloc(size_t n, size_t m) {
  note(n * m);
  return __libc_calloc(n, m);
}
void *realloc(void *p, size_t n) {
  note(n);
  return __libc_realloc(p, n);
}
void *aligned_alloc(size_t a, size_t n) {
  note(n);
  return __libc_memalign(a, n);
}
void *memalign(size_t a, size_t n) {
  note(n);
  return __libc_memalign(a, n);
}
int posix_memalign(void **p, size_t a, size_t n) {
  note(n);
  *p = __libc_memalign(a, n);
  return *p ? 0 : ENOMEM;
}
void free(void *p) { __libc_free(p); }

static int run(pdrt_instance *inst, void **inputs, int64_t (*shapes)[8], int64_t *ranks, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    if (pdrt_set_input(inst, pdrt_model_input_name(model, i), pdrt_model_input_dtype(model, i),
                       shapes[i], ranks[i], inputs[i]) != PDRT_OK)
      return 1;
  return pdrt_run(inst) != PDRT_OK;
}

int main(int argc, char **argv) {
  if (argc < 2 || pdrt_model_load(argv[1], &model) != PDRT_OK) {
    fprintf(stderr, "allocs: %s\n", argc >= 2 ? pdrt_last_error() : "usage: allocs ARTIFACT_DIR");
    return 1;
  }
  int warmup = argc > 2 ? atoi(argv[2]) : 2, runs = argc > 3 ? atoi(argv[3]) : 5;
  int64_t n = pdrt_model_num_inputs(model);
  void *inputs[16];
  int64_t shapes[16][8], ranks[16];
  for (int64_t i = 0; i < n && i < 16; ++i) {
    ranks[i] = pdrt_model_input_rank(model, i);
    int64_t numel = 1;
    for (int64_t k = 0; k < ranks[i]; ++k) {
      int64_t d = pdrt_model_input_shape(model, i)[k];
      shapes[i][k] = d < 0 ? 1 : d;
      numel *= shapes[i][k];
    }
    pdrt_dtype dtype = pdrt_model_input_dtype(model, i);
    unsigned char *x = calloc(numel, pdrt_dtype_size(dtype));
    if (dtype == PDRT_FLOAT32)
      for (int64_t e = 0; e < numel; ++e)
        ((float *)x)[e] = (float)((e * 37) % 101) / 101.0f;
    inputs[i] = x;
  }
  pdrt_instance *inst;
  if (pdrt_instance_create(model, &inst) != PDRT_OK) {
    fprintf(stderr, "allocs: %s\n", pdrt_last_error());
    return 1;
  }
  for (int r = 0; r < warmup; ++r)
    if (run(inst, inputs, shapes, ranks, n)) {
      fprintf(stderr, "allocs: %s\n", pdrt_last_error());
      return 1;
    }
  __atomic_store_n(&counting, 1, __ATOMIC_SEQ_CST);
  for (int r = 0; r < runs; ++r)
    if (run(inst, inputs, shapes, ranks, n)) {
      fprintf(stderr, "allocs: %s\n", pdrt_last_error());
      return 1;
    }
  __atomic_store_n(&counting, 0, __ATOMIC_SEQ_CST);
  printf("buffer allocations per run: %ld\n", big / runs);
  printf("small allocations per run: %ld, %ld bytes\n", count / runs, bytes / runs);
  pdrt_instance_free(inst);
  pdrt_model_free(model);
  return 0;
}

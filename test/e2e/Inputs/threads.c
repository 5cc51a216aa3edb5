/* threads.c - runs one model from several threads, each on its own instance
 * with its own input, and checks every result equals the single-threaded one.
 * Usage: threads ARTIFACT_DIR  (model with one float32 input, batch dim first)
 */
#include "pdrt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { THREADS = 4, RUNS = 20 };

static pdrt_model *model;
static int64_t shape[8], rank, numel;
static float *inputs[THREADS];
static void *expected[THREADS];
static size_t expected_bytes[THREADS];
static int failures;

static int run_once(pdrt_instance *inst, int t, const void **out, size_t *bytes) {
  const int64_t *oshape;
  int64_t orank;
  pdrt_dtype dtype;
  if (pdrt_set_input(inst, pdrt_model_input_name(model, 0), PDRT_FLOAT32, shape, rank, inputs[t]) != PDRT_OK ||
      pdrt_run(inst) != PDRT_OK || pdrt_get_output(inst, 0, out, &oshape, &orank, &dtype) != PDRT_OK) {
    fprintf(stderr, "threads: %s\n", pdrt_last_error());
    return 1;
  }
  *bytes = pdrt_dtype_size(dtype);
  for (int64_t k = 0; k < orank; ++k)
    *bytes *= oshape[k];
  return 0;
}

static void *worker(void *arg) {
  int t = (int)(intptr_t)arg;
  pdrt_instance *inst;
  if (pdrt_instance_create(model, &inst) != PDRT_OK)
    return (void *)1;
  for (int r = 0; r < RUNS; ++r) {
    const void *out;
    size_t bytes;
    if (run_once(inst, t, &out, &bytes) || bytes != expected_bytes[t] || memcmp(out, expected[t], bytes) != 0)
      __atomic_add_fetch(&failures, 1, __ATOMIC_SEQ_CST);
  }
  pdrt_instance_free(inst);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 2 || pdrt_model_load(argv[1], &model) != PDRT_OK) {
    fprintf(stderr, "threads: %s\n", argc == 2 ? pdrt_last_error() : "usage: threads ARTIFACT_DIR");
    return 1;
  }
  rank = pdrt_model_input_rank(model, 0);
  memcpy(shape, pdrt_model_input_shape(model, 0), rank * sizeof(int64_t));
  numel = 1;
  for (int64_t k = 0; k < rank; ++k) {
    if (shape[k] < 0)
      shape[k] = 2;
    numel *= shape[k];
  }
  pdrt_instance *inst;
  pdrt_instance_create(model, &inst);
  for (int t = 0; t < THREADS; ++t) {
    inputs[t] = malloc(numel * sizeof(float));
    for (int64_t i = 0; i < numel; ++i)
      inputs[t][i] = (float)((i * (t + 3)) % 97) / 97.0f;
    const void *out;
    if (run_once(inst, t, &out, &expected_bytes[t]))
      return 1;
    expected[t] = malloc(expected_bytes[t]);
    memcpy(expected[t], out, expected_bytes[t]);
  }
  pdrt_instance_free(inst);
  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; ++t)
    pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t);
  for (int t = 0; t < THREADS; ++t)
    pthread_join(threads[t], NULL);
  printf("%d threads x %d runs: %d mismatches\n", THREADS, RUNS, failures);
  for (int t = 0; t < THREADS; ++t) {
    free(inputs[t]);
    free(expected[t]);
  }
  pdrt_model_free(model);
  return failures != 0;
}

/* runner.c - runs a cuda artifact once on a device, for scripts/gpu-check.sh.
 *
 *   runner ARTIFACT DEVICE DIR [RUNS]
 *
 * Reads input i from DIR/in<i>.bin (raw, the model's dtype and static
 * shape), runs on DEVICE ("cuda:0"), writes output i to DIR/out<i>.bin and
 * prints the median time of RUNS (default 20) runs after the first, in
 * milliseconds (each run copies the inputs in and the outputs out). Needs only the
 * runtime (libpdrt.so), so it runs where the compiler is not installed.
 */
#include "pdrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int fail(const char *what) {
  fprintf(stderr, "runner: %s: %s\n", what, pdrt_last_error());
  return 1;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc != 4 && argc != 5) {
    fprintf(stderr, "usage: %s ARTIFACT DEVICE DIR [RUNS]\n", argv[0]);
    return 2;
  }
  int runs = argc == 5 ? atoi(argv[4]) : 20;
  if (runs < 1 || runs > 10000) {
    fprintf(stderr, "runner: RUNS must be 1 to 10000, not '%s'\n", argv[4]);
    return 2;
  }
  pdrt_model *model = NULL;
  pdrt_instance *inst = NULL;
  if (pdrt_model_load(argv[1], &model) != PDRT_OK)
    return fail("loading");
  if (pdrt_instance_create_on(model, argv[2], &inst) != PDRT_OK)
    return fail("opening the device");
  int64_t n = pdrt_model_num_inputs(model);
  void **buffers = calloc(n ? n : 1, sizeof(void *));
  char path[4096];
  for (int64_t i = 0; i < n; ++i) {
    pdrt_dtype dtype = pdrt_model_input_dtype(model, i);
    int64_t rank = pdrt_model_input_rank(model, i), bytes = pdrt_dtype_size(dtype);
    const int64_t *shape = pdrt_model_input_shape(model, i);
    for (int64_t k = 0; k < rank; ++k)
      bytes *= shape[k];
    snprintf(path, sizeof(path), "%s/in%lld.bin", argv[3], (long long)i);
    FILE *f = fopen(path, "rb");
    buffers[i] = malloc(bytes ? bytes : 1);
    if (!f || fread(buffers[i], 1, bytes, f) != (size_t)bytes) {
      fprintf(stderr, "runner: cannot read %lld bytes from %s\n", (long long)bytes, path);
      return 1;
    }
    fclose(f);
    if (pdrt_set_input(inst, pdrt_model_input_name(model, i), dtype, shape, rank, buffers[i]) !=
        PDRT_OK)
      return fail("setting an input");
  }
  if (pdrt_run(inst) != PDRT_OK)
    return fail("running");
  double *times = malloc(sizeof(double) * runs);
  for (int r = 0; r < runs; ++r) {
    double start = now_ms();
    if (pdrt_run(inst) != PDRT_OK)
      return fail("running again");
    times[r] = now_ms() - start;
  }
  qsort(times, runs, sizeof(double), by_value);
  double ms = times[runs / 2];
  free(times);
  for (int64_t i = 0; i < pdrt_model_num_outputs(model); ++i) {
    const void *data;
    const int64_t *shape;
    int64_t rank;
    pdrt_dtype dtype;
    if (pdrt_get_output(inst, i, &data, &shape, &rank, &dtype) != PDRT_OK)
      return fail("reading an output");
    int64_t bytes = pdrt_dtype_size(dtype);
    for (int64_t k = 0; k < rank; ++k)
      bytes *= shape[k];
    snprintf(path, sizeof(path), "%s/out%lld.bin", argv[3], (long long)i);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, bytes, f) != (size_t)bytes) {
      fprintf(stderr, "runner: cannot write %s\n", path);
      return 1;
    }
    fclose(f);
  }
  printf("%.3f\n", ms);
  pdrt_instance_free(inst);
  pdrt_model_free(model);
  return 0;
}

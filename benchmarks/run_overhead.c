/* run_overhead.c - what one pdrt_run costs on a model that computes almost
 * nothing, and how much of it the run-time memory budget takes (each run
 * reads PADDLE_MLIR_MEMORY_LIMIT_MB with getenv and saves a setjmp point,
 * lib/Runtime/Heap.cpp). Prints the median over rounds of the mean time of
 * a batch of runs, and the same for getenv and setjmp alone in this
 * process's environment.
 *
 *   python3 -c "from paddle_mlir.builder import ProgramBuilder as B; b = B(); \
 *     b.fetch(b.relu(b.feed('x', [4]))); b.save('/tmp/tiny')"
 *   build/bin/paddle-compile /tmp/tiny -o /tmp/tiny_art
 *   cc -O2 -I include/PaddleMLIR/Runtime benchmarks/run_overhead.c -o /tmp/run_overhead \
 *     -Lbuild/lib -lpdrt -Wl,-rpath,$PWD/build/lib
 *   /tmp/run_overhead /tmp/tiny_art
 */
#include "pdrt.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

enum { ROUNDS = 21, BATCH = 20000 };

static volatile const char *sink;
static jmp_buf point;

/* The median over ROUNDS of the mean ns of BATCH calls of `what`. */
static double median_ns(int (*what)(void *), void *arg) {
  double means[ROUNDS];
  for (int r = 0; r < ROUNDS; ++r) {
    double start = now_ns();
    for (int i = 0; i < BATCH; ++i)
      if (what(arg))
        return -1;
    means[r] = (now_ns() - start) / BATCH;
  }
  qsort(means, ROUNDS, sizeof(double), by_value);
  return means[ROUNDS / 2];
}

static int one_run(void *inst) { return pdrt_run((pdrt_instance *)inst) != PDRT_OK; }
static int one_getenv(void *unused) {
  (void)unused;
  sink = getenv("PADDLE_MLIR_MEMORY_LIMIT_MB");
  return 0;
}
static int one_setjmp(void *unused) {
  (void)unused;
  if (setjmp(point) != 0)
    return 1;
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s ARTIFACT (a model with one float32 input)\n", argv[0]);
    return 2;
  }
  pdrt_model *model = NULL;
  pdrt_instance *inst = NULL;
  if (pdrt_model_load(argv[1], &model) != PDRT_OK ||
      pdrt_instance_create(model, &inst) != PDRT_OK) {
    fprintf(stderr, "run_overhead: %s\n", pdrt_last_error());
    return 1;
  }
  int64_t rank = pdrt_model_input_rank(model, 0), n = 1;
  const int64_t *shape = pdrt_model_input_shape(model, 0);
  for (int64_t k = 0; k < rank; ++k)
    n *= shape[k];
  float *x = calloc(n ? n : 1, sizeof(float));
  if (pdrt_set_input(inst, pdrt_model_input_name(model, 0), PDRT_FLOAT32, shape, rank, x) != PDRT_OK) {
    fprintf(stderr, "run_overhead: %s\n", pdrt_last_error());
    return 1;
  }
  double run = median_ns(one_run, inst);
  if (run < 0) {
    fprintf(stderr, "run_overhead: %s\n", pdrt_last_error());
    return 1;
  }
  double env = median_ns(one_getenv, NULL), jump = median_ns(one_setjmp, NULL);
  printf("pdrt_run of %s: %.0f ns per run (median of %d rounds of %d runs)\n", argv[1], run, ROUNDS,
         BATCH);
  printf("getenv: %.1f ns, setjmp: %.1f ns: the budget's share of a run %.1f%%\n", env, jump,
         100.0 * (env + jump) / run);
  pdrt_instance_free(inst);
  pdrt_model_free(model);
  free(x);
  return 0;
}

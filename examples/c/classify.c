/* classify.c - run a compiled image classifier and print its top-5 classes.
 *
 * Build against an artifact written by paddle-compile (its directory holds
 * model.h) and the runtime:
 *   cc -I ARTIFACT -I include/PaddleMLIR/Runtime examples/c/classify.c \
 *      -L build/lib -lpdrt -Wl,-rpath,build/lib -o classify
 *   ./classify ARTIFACT [BATCH]
 *
 * The input is a deterministic pattern, x[i] = (i % 251) / 251, so results
 * can be compared with any other implementation.
 */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>

#if MODEL_NUM_INPUTS != 1 || MODEL_INPUT_0_RANK != 4 || MODEL_OUTPUT_0_RANK != 2
#error "classify.c expects one NCHW image input and one [batch, classes] output"
#endif

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s ARTIFACT_DIR [BATCH]\n", argv[0]);
    return 2;
  }
  int64_t batch = argc > 2 ? atoll(argv[2]) : 1;
  pdrt_model *model = NULL;
  pdrt_instance *inst = NULL;
  if (model_load(argv[1], &model) != PDRT_OK || pdrt_instance_create(model, &inst) != PDRT_OK) {
    fprintf(stderr, "classify: %s\n", pdrt_last_error());
    pdrt_model_free(model);
    return 1;
  }
  int64_t shape[] = MODEL_INPUT_0_SHAPE;
  if (shape[0] < 0)
    shape[0] = batch;
  int64_t numel = shape[0] * shape[1] * shape[2] * shape[3];
  float *image = malloc(sizeof(float) * numel);
  for (int64_t i = 0; i < numel; ++i)
    image[i] = (float)(i % 251) / 251.0f;

  int rc = 1;
  const void *data;
  const int64_t *out_shape;
  int64_t rank;
  if (pdrt_set_input(inst, MODEL_INPUT_0_NAME, MODEL_INPUT_0_DTYPE, shape, 4, image) != PDRT_OK ||
      pdrt_run(inst) != PDRT_OK ||
      pdrt_get_output(inst, 0, &data, &out_shape, &rank, NULL) != PDRT_OK) {
    fprintf(stderr, "classify: %s\n", pdrt_last_error());
    goto done;
  }
  const float *scores = data;
  for (int64_t b = 0; b < out_shape[0]; ++b) {
    const float *row = scores + b * out_shape[1];
    int taken[5] = {-1, -1, -1, -1, -1};
    printf("image %lld top-5:", (long long)b);
    for (int k = 0; k < 5 && k < out_shape[1]; ++k) {
      int best = -1;
      for (int64_t c = 0; c < out_shape[1]; ++c) {
        int used = 0;
        for (int j = 0; j < k; ++j)
          used |= taken[j] == c;
        if (!used && (best < 0 || row[c] > row[best]))
          best = (int)c;
      }
      taken[k] = best;
      printf(" %d (%.5f)", best, row[best]);
    }
    printf("\n");
  }
  rc = 0;
done:
  free(image);
  pdrt_instance_free(inst);
  pdrt_model_free(model);
  return rc;
}

/* fake_cudnn.c - a stand-in for cuDNN 9 (libcudnn.so.9) beside
 * fake_libcuda.c, whose "device memory" is host memory:
 * cudnnConvolutionForward computes y = alpha conv(x, w) + beta y on the host
 * as cuDNN's documentation defines its legacy API (NCHW tensors, filters
 * [k, c / groups, r, s], CUDNN_CROSS_CORRELATION: no filter flip, zero
 * padding, strides, dilations, group count), so a cuda artifact's
 * convolution calls can be checked against NumPy without a GPU. Only what
 * libpdrt_cuda uses is here; fp32 NCHW only.
 *
 * At exit it prints "fake-cudnn: handles=H plans=P convs=C fma=F" to
 * stderr (fma: convolutions whose math type forbids TF32). FAKE_CUDNN_FAIL=1
 * makes cudnnConvolutionForward fail with CUDNN_STATUS_EXECUTION_FAILED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kFloat = 0, kNchw = 0, kCrossCorrelation = 1, kFmaMath = 3 };
enum { kBadParam = 2000, kExecutionFailed = 5000 };

typedef struct {
  int n, c, h, w;
} Tensor;
typedef struct {
  int k, c, r, s;
} Filter;
typedef struct {
  int ph, pw, sh, sw, dh, dw, groups, math;
} Conv;
typedef struct {
  int algo, status;
  float time;
  size_t memory;
  int determinism, mathType, reserved[3];
} Perf;

static long handles, plans, convs, fma;

__attribute__((destructor)) static void report(void) {
  fprintf(stderr, "fake-cudnn: handles=%ld plans=%ld convs=%ld fma=%ld\n", handles, plans, convs,
          fma);
}

const char *cudnnGetErrorString(int s) {
  return s == kExecutionFailed ? "CUDNN_STATUS_EXECUTION_FAILED"
         : s == kBadParam      ? "CUDNN_STATUS_BAD_PARAM"
                               : "CUDNN_STATUS_?";
}
int cudnnCreate(void **h) {
  *h = malloc(1);
  ++handles;
  return 0;
}
int cudnnDestroy(void *h) {
  free(h);
  return 0;
}
int cudnnSetStream(void *h, void *stream) { return 0; }
int cudnnCreateTensorDescriptor(Tensor **t) {
  *t = calloc(1, sizeof(Tensor));
  return 0;
}
int cudnnDestroyTensorDescriptor(Tensor *t) {
  free(t);
  return 0;
}
int cudnnSetTensor4dDescriptor(Tensor *t, int format, int type, int n, int c, int h, int w) {
  if (format != kNchw || type != kFloat || n < 1 || c < 1 || h < 1 || w < 1)
    return kBadParam;
  *t = (Tensor){n, c, h, w};
  return 0;
}
int cudnnCreateFilterDescriptor(Filter **f) {
  *f = calloc(1, sizeof(Filter));
  return 0;
}
int cudnnDestroyFilterDescriptor(Filter *f) {
  free(f);
  return 0;
}
int cudnnSetFilter4dDescriptor(Filter *f, int type, int format, int k, int c, int r, int s) {
  if (format != kNchw || type != kFloat || k < 1 || c < 1 || r < 1 || s < 1)
    return kBadParam;
  *f = (Filter){k, c, r, s};
  return 0;
}
int cudnnCreateConvolutionDescriptor(Conv **c) {
  *c = calloc(1, sizeof(Conv));
  (*c)->groups = 1;
  return 0;
}
int cudnnDestroyConvolutionDescriptor(Conv *c) {
  free(c);
  return 0;
}
int cudnnSetConvolution2dDescriptor(Conv *c, int ph, int pw, int sh, int sw, int dh, int dw,
                                    int mode, int type) {
  if (mode != kCrossCorrelation || type != kFloat || ph < 0 || pw < 0 || sh < 1 || sw < 1 ||
      dh < 1 || dw < 1)
    return kBadParam;
  c->ph = ph, c->pw = pw, c->sh = sh, c->sw = sw, c->dh = dh, c->dw = dw;
  return 0;
}
int cudnnSetConvolutionGroupCount(Conv *c, int groups) {
  if (groups < 1)
    return kBadParam;
  c->groups = groups;
  return 0;
}
int cudnnSetConvolutionMathType(Conv *c, int math) {
  c->math = math;
  return 0;
}

/* The shapes must agree as cuDNN requires: channels split in groups, the
 * output size the padding, strides and dilations give. */
static int consistent(const Tensor *x, const Filter *w, const Conv *c, const Tensor *y) {
  int oh = (x->h + 2 * c->ph - c->dh * (w->r - 1) - 1) / c->sh + 1;
  int ow = (x->w + 2 * c->pw - c->dw * (w->s - 1) - 1) / c->sw + 1;
  return x->c % c->groups == 0 && w->k % c->groups == 0 && w->c == x->c / c->groups &&
         y->c == w->k && y->n == x->n && y->h == oh && y->w == ow;
}

int cudnnGetConvolutionForwardAlgorithm_v7(void *h, Tensor *x, Filter *w, Conv *c, Tensor *y,
                                           int requested, int *found, Perf *out) {
  *found = 0;
  if (requested < 1 || !consistent(x, w, c, y))
    return kBadParam;
  memset(out, 0, sizeof *out);
  out->algo = 1;
  out->memory = 2048;
  *found = 1;
  ++plans;
  return 0;
}

int cudnnConvolutionForward(void *h, const float *alpha, Tensor *xd, const float *x, Filter *wd,
                            const float *w, Conv *c, int algo, void *workspace, size_t wsBytes,
                            const float *beta, Tensor *yd, float *y) {
  const char *fail = getenv("FAKE_CUDNN_FAIL");
  if (fail && *fail == '1')
    return kExecutionFailed;
  if (!consistent(xd, wd, c, yd) || (wsBytes && !workspace))
    return kBadParam;
  ++convs;
  fma += c->math == kFmaMath;
  int cg = xd->c / c->groups, kg = wd->k / c->groups;
  for (int n = 0; n < yd->n; ++n)
    for (int k = 0; k < yd->c; ++k) {
      int g = k / kg;
      for (int i = 0; i < yd->h; ++i)
        for (int j = 0; j < yd->w; ++j) {
          double sum = 0;
          for (int ci = 0; ci < cg; ++ci)
            for (int r = 0; r < wd->r; ++r)
              for (int s = 0; s < wd->s; ++s) {
                int hi = i * c->sh - c->ph + r * c->dh, wi = j * c->sw - c->pw + s * c->dw;
                if (hi < 0 || hi >= xd->h || wi < 0 || wi >= xd->w)
                  continue;
                int ch = g * cg + ci;
                sum += (double)x[((n * xd->c + ch) * xd->h + hi) * xd->w + wi] *
                       w[((k * wd->c + ci) * wd->r + r) * wd->s + s];
              }
          float *out = &y[((n * yd->c + k) * yd->h + i) * yd->w + j];
          *out = (float)(*alpha * sum + (*beta != 0 ? *beta * *out : 0));
        }
    }
  return 0;
}

/* fake_cublaslt.c - a stand-in for cuBLASLt (libcublasLt.so) beside
 * fake_libcuda.c, whose "device memory" is host memory: cublasLtMatmul
 * computes D = alpha op(A) op(B) + beta C on the host as cuBLASLt's
 * documentation defines it (column-major matrices, element (i, j) of a
 * rows x cols matrix at i + j * ld, CUBLAS_OP_T transposing, strided
 * batches), so a cuda artifact's library calls can be checked against
 * NumPy without a GPU. Only what libpdrt_cuda uses is here; fp32 only.
 *
 * At exit it prints "fake-cublaslt: handles=H plans=P matmuls=M
 * tf32=T" to stderr, for FileCheck. FAKE_CUBLASLT_FAIL=1 makes
 * cublasLtMatmul fail with CUBLAS_STATUS_EXECUTION_FAILED. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kOpN = 0, kOpT = 1, kComputeF32 = 68, kComputeF32FastTF32 = 77 };

typedef struct {
  int compute;
  int32_t transA, transB;
} Desc;
typedef struct {
  uint64_t rows, cols;
  int64_t ld;
  int32_t batch;
  int64_t stride;
} Layout;
typedef struct {
  uint64_t maxWorkspace;
} Pref;
typedef struct {
  uint64_t data[8];
} Algo;
typedef struct {
  Algo algo;
  size_t workspaceSize;
  int state;
  float waves;
  int reserved[4];
} Heuristic;

static long handles, plans, matmuls, tf32;

__attribute__((destructor)) static void report(void) {
  fprintf(stderr, "fake-cublaslt: handles=%ld plans=%ld matmuls=%ld tf32=%ld\n", handles, plans,
          matmuls, tf32);
}

const char *cublasLtGetStatusName(int s) {
  return s == 13 ? "CUBLAS_STATUS_EXECUTION_FAILED" : s == 7 ? "CUBLAS_STATUS_INVALID_VALUE"
                                                             : "CUBLAS_STATUS_?";
}
int cublasLtCreate(void **h) {
  *h = malloc(1);
  ++handles;
  return 0;
}
int cublasLtDestroy(void *h) {
  free(h);
  return 0;
}
int cublasLtMatmulDescCreate(Desc **d, int compute, int scale) {
  if (scale != 0 || (compute != kComputeF32 && compute != kComputeF32FastTF32))
    return 7;
  *d = calloc(1, sizeof(Desc));
  (*d)->compute = compute;
  return 0;
}
int cublasLtMatmulDescDestroy(Desc *d) {
  free(d);
  return 0;
}
int cublasLtMatmulDescSetAttribute(Desc *d, int attr, const void *buf, size_t n) {
  if (n != sizeof(int32_t) || (attr != 3 && attr != 4))
    return 7;
  memcpy(attr == 3 ? &d->transA : &d->transB, buf, n);
  return 0;
}
int cublasLtMatrixLayoutCreate(Layout **l, int type, uint64_t rows, uint64_t cols, int64_t ld) {
  if (type != 0 || ld < (int64_t)rows)
    return 7;
  *l = calloc(1, sizeof(Layout));
  (*l)->rows = rows;
  (*l)->cols = cols;
  (*l)->ld = ld;
  (*l)->batch = 1;
  return 0;
}
int cublasLtMatrixLayoutDestroy(Layout *l) {
  free(l);
  return 0;
}
int cublasLtMatrixLayoutSetAttribute(Layout *l, int attr, const void *buf, size_t n) {
  if (attr == 5 && n == sizeof(int32_t))
    memcpy(&l->batch, buf, n);
  else if (attr == 6 && n == sizeof(int64_t))
    memcpy(&l->stride, buf, n);
  else
    return 7;
  return 0;
}
int cublasLtMatmulPreferenceCreate(Pref **p) {
  *p = calloc(1, sizeof(Pref));
  return 0;
}
int cublasLtMatmulPreferenceDestroy(Pref *p) {
  free(p);
  return 0;
}
int cublasLtMatmulPreferenceSetAttribute(Pref *p, int attr, const void *buf, size_t n) {
  if (attr != 1 || n != sizeof(uint64_t))
    return 7;
  memcpy(&p->maxWorkspace, buf, n);
  return 0;
}

/* op(X) as the m x k (or k x n) matrix the product reads. */
static void dims(const Desc *d, int which, const Layout *l, uint64_t *r, uint64_t *c) {
  int t = which == 0 ? d->transA : d->transB;
  *r = t == kOpT ? l->cols : l->rows;
  *c = t == kOpT ? l->rows : l->cols;
}

int cublasLtMatmulAlgoGetHeuristic(void *h, Desc *d, Layout *a, Layout *b, Layout *c, Layout *dl,
                                   Pref *p, int requested, Heuristic *out, int *found) {
  uint64_t ar, ac, br, bc;
  dims(d, 0, a, &ar, &ac);
  dims(d, 1, b, &br, &bc);
  *found = 0;
  if (requested < 1 || ac != br || ar != c->rows || bc != c->cols || c->rows != dl->rows ||
      c->cols != dl->cols || a->batch != c->batch || b->batch != c->batch)
    return 7;
  memset(out, 0, sizeof *out);
  out->workspaceSize = p->maxWorkspace < 4096 ? p->maxWorkspace : 4096;
  *found = 1;
  ++plans;
  return 0;
}

int cublasLtMatmul(void *h, Desc *d, const float *alpha, const float *A, Layout *al, const float *B,
                   Layout *bl, const float *beta, const float *C, Layout *cl, float *D, Layout *dl,
                   const Algo *algo, void *workspace, size_t wsBytes, void *stream) {
  const char *fail = getenv("FAKE_CUBLASLT_FAIL");
  if (fail && *fail == '1')
    return 13;
  if (!algo || (wsBytes && !workspace))
    return 7;
  uint64_t m, k, k2, n;
  dims(d, 0, al, &m, &k);
  dims(d, 1, bl, &k2, &n);
  ++matmuls;
  tf32 += d->compute == kComputeF32FastTF32;
  for (int32_t batch = 0; batch < cl->batch; ++batch) {
    const float *a = A + batch * al->stride, *b = B + batch * bl->stride;
    const float *c = C + batch * cl->stride;
    float *out = D + batch * dl->stride;
    for (uint64_t i = 0; i < m; ++i)
      for (uint64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (uint64_t l = 0; l < k; ++l) {
          float x = d->transA == kOpT ? a[l + i * al->ld] : a[i + l * al->ld];
          float y = d->transB == kOpT ? b[j + l * bl->ld] : b[l + j * bl->ld];
          sum += (double)x * y;
        }
        float prior = *beta != 0 ? c[i + j * cl->ld] : 0;
        out[i + j * dl->ld] = (float)(*alpha * sum + *beta * prior);
      }
  }
  return 0;
}

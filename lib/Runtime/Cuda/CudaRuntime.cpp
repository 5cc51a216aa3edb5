//===- CudaRuntime.cpp - libpdrt_cuda: what cuda artifacts run on ---------===//
//
// The host code of a cuda artifact (lib<name>.so) launches its kernels
// through MLIR's mgpu* calls; this library implements them over the CUDA
// driver API, and gives the runtime (libpdrt) device memory, copies and a
// stream per instance through pdcu_* functions it finds with dlsym in the
// model library (which links this one). The driver (libcuda.so.1) is
// loaded with dlopen on first use: this library, the artifacts and the
// runtime load and fail cleanly on machines without it.
//
// Matrix products are cuBLASLt calls and convolutions cuDNN calls
// (pdcu_matmul, pdcu_conv2d, emitted by pd-gpu-library-calls) on the same
// stream; each library is loaded with dlopen at its first call, so only
// models that use it need it.
//
// Collective ops (pdcu_collective, emitted by pd-gpu-collectives) run on
// the communicator of Kernels/Comm.cpp, compiled into this library too (a
// cuda artifact needs no kernel library, and no oneDNN): on the device
// buffers with NCCL, through host copies with MPI.
//
// Errors: the mgpu* and pdcu_matmul calls return nothing, so the first failure of a run is
// kept in the run's context and later launches are skipped; pdcu_end_run
// reports it. Every pdcu_* call returns null or an error message.
//
//===----------------------------------------------------------------------===//

#include "../Comm/BackendSupport.h"
#include "../Kernels/Operands.h"
#include "PaddleMLIR/Runtime/KernelABI.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <initializer_list>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
// The CUDA driver API's types and calls this library uses (cuda.h).
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
constexpr int kComputeCapabilityMajor = 75, kComputeCapabilityMinor = 76;

struct Driver {
  void *handle = nullptr;
  std::string error; // why the driver cannot be used, once tried
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
  CUresult (*cuMemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, CUstream, void **, void **);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
};

/// Names of the results a user is likely to meet, for drivers (and the
/// toolkit's stub library) whose cuGetErrorName cannot say.
const char *knownName(CUresult r) {
  switch (r) {
  case 2:
    return "CUDA_ERROR_OUT_OF_MEMORY";
  case 3:
    return "CUDA_ERROR_NOT_INITIALIZED";
  case 34:
    return "CUDA_ERROR_STUB_LIBRARY (the toolkit's stub libcuda, not an NVIDIA driver)";
  case 35:
    return "CUDA_ERROR_INSUFFICIENT_DRIVER (the driver is older than the CUDA runtime)";
  case 100:
    return "CUDA_ERROR_NO_DEVICE";
  case 101:
    return "CUDA_ERROR_INVALID_DEVICE";
  case 209:
    return "CUDA_ERROR_NO_BINARY_FOR_GPU (the kernels were built for another --cuda-arch)";
  case 222:
    return "CUDA_ERROR_UNSUPPORTED_PTX_VERSION (the driver is too old for the kernels)";
  case 700:
    return "CUDA_ERROR_ILLEGAL_ADDRESS";
  default:
    return nullptr;
  }
}

Driver theDriver; // loaded by driver()

/// "<call>: <name> (<description>)" for a failed driver call.
std::string describe(const char *call, CUresult r) {
  Driver &d = theDriver;
  const char *name = nullptr, *text = nullptr;
  if (d.cuGetErrorName && d.cuGetErrorName(r, &name) != 0)
    name = nullptr;
  if (d.cuGetErrorString && d.cuGetErrorString(r, &text) != 0)
    text = nullptr;
  std::string out = std::string(call) + " failed: ";
  if (name)
    out += name;
  else if (const char *known = knownName(r))
    out += known;
  else
    out += "CUDA error " + std::to_string(r);
  if (text && (!name || std::string(text) != name))
    out += std::string(" (") + text + ")";
  return out;
}

/// Loads libcuda.so.1 ($PADDLE_MLIR_CUDA_DRIVER names another file) and
/// runs cuInit once; driver().error says why it cannot be used.
Driver &driver() {
  Driver &d = theDriver;
  static std::once_flag once;
  std::call_once(once, [] {
    const char *path = std::getenv("PADDLE_MLIR_CUDA_DRIVER");
    if (!path || !*path)
      path = "libcuda.so.1";
    d.handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!d.handle) {
      const char *e = dlerror();
      d.error = std::string("no CUDA driver: cannot load ") + path + " (" +
                (e ? e : "unknown error") + "); this machine has no NVIDIA driver installed";
      return;
    }
    bool ok = true;
    auto get = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(d.handle, name));
      if (!fn && ok) {
        ok = false;
        d.error = std::string("the CUDA driver ") + path + " has no " + name +
                  " (a driver older than CUDA 12?)";
      }
    };
    get(d.cuGetErrorName, "cuGetErrorName");
    get(d.cuGetErrorString, "cuGetErrorString");
    get(d.cuInit, "cuInit");
    get(d.cuDriverGetVersion, "cuDriverGetVersion");
    get(d.cuDeviceGetCount, "cuDeviceGetCount");
    get(d.cuDeviceGet, "cuDeviceGet");
    get(d.cuDeviceGetName, "cuDeviceGetName");
    get(d.cuDeviceGetAttribute, "cuDeviceGetAttribute");
    get(d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    get(d.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
    get(d.cuCtxSetCurrent, "cuCtxSetCurrent");
    get(d.cuMemAlloc, "cuMemAlloc_v2");
    get(d.cuMemFree, "cuMemFree_v2");
    get(d.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
    get(d.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
    get(d.cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2");
    get(d.cuStreamCreate, "cuStreamCreate");
    get(d.cuStreamSynchronize, "cuStreamSynchronize");
    get(d.cuStreamDestroy, "cuStreamDestroy_v2");
    get(d.cuModuleLoadData, "cuModuleLoadData");
    get(d.cuModuleGetFunction, "cuModuleGetFunction");
    get(d.cuLaunchKernel, "cuLaunchKernel");
    if (!ok)
      return;
    if (CUresult r = d.cuInit(0))
      d.error = describe("cuInit", r);
  });
  return d;
}

// cuBLASLt's types, values and calls this library uses (cublasLt.h,
// cublas_api.h, library_types.h).
using cublasStatus_t = int;
using cublasLtHandle_t = struct cublasLtContext *;
using cublasLtMatmulDesc_t = struct cublasLtMatmulDescOpaque *;
using cublasLtMatrixLayout_t = struct cublasLtMatrixLayoutOpaque *;
using cublasLtMatmulPreference_t = struct cublasLtMatmulPreferenceOpaque *;
struct cublasLtMatmulAlgo_t {
  uint64_t data[8];
};
struct cublasLtMatmulHeuristicResult_t {
  cublasLtMatmulAlgo_t algo;
  size_t workspaceSize;
  cublasStatus_t state;
  float wavesCount;
  int reserved[4];
};
constexpr int kCudaR32F = 0;                                 // cudaDataType
constexpr int kComputeF32 = 68, kComputeF32FastTF32 = 77;    // cublasComputeType_t
constexpr int32_t kOpN = 0, kOpT = 1;                        // cublasOperation_t
constexpr int kDescTransA = 3, kDescTransB = 4;              // cublasLtMatmulDescAttributes_t
constexpr int kLayoutBatchCount = 5, kLayoutBatchOffset = 6; // cublasLtMatrixLayoutAttribute_t
constexpr int kPrefMaxWorkspaceBytes = 1;                    // cublasLtMatmulPreferenceAttributes_t
constexpr uint64_t kWorkspaceBytes = uint64_t(32) << 20;     // cuBLAS's advice for Hopper

struct BlasLt {
  void *handle = nullptr;
  std::string error; // why cuBLASLt cannot be used, once tried
  cublasStatus_t (*create)(cublasLtHandle_t *);
  cublasStatus_t (*destroy)(cublasLtHandle_t);
  const char *(*statusName)(cublasStatus_t);
  cublasStatus_t (*descCreate)(cublasLtMatmulDesc_t *, int, int);
  cublasStatus_t (*descDestroy)(cublasLtMatmulDesc_t);
  cublasStatus_t (*descSet)(cublasLtMatmulDesc_t, int, const void *, size_t);
  cublasStatus_t (*layoutCreate)(cublasLtMatrixLayout_t *, int, uint64_t, uint64_t, int64_t);
  cublasStatus_t (*layoutDestroy)(cublasLtMatrixLayout_t);
  cublasStatus_t (*layoutSet)(cublasLtMatrixLayout_t, int, const void *, size_t);
  cublasStatus_t (*prefCreate)(cublasLtMatmulPreference_t *);
  cublasStatus_t (*prefDestroy)(cublasLtMatmulPreference_t);
  cublasStatus_t (*prefSet)(cublasLtMatmulPreference_t, int, const void *, size_t);
  cublasStatus_t (*heuristic)(cublasLtHandle_t, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t,
                              cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
                              cublasLtMatrixLayout_t, cublasLtMatmulPreference_t, int,
                              cublasLtMatmulHeuristicResult_t *, int *);
  cublasStatus_t (*matmul)(cublasLtHandle_t, cublasLtMatmulDesc_t, const void *, const void *,
                           cublasLtMatrixLayout_t, const void *, cublasLtMatrixLayout_t,
                           const void *, const void *, cublasLtMatrixLayout_t, void *,
                           cublasLtMatrixLayout_t, const cublasLtMatmulAlgo_t *, void *, size_t,
                           CUstream);
};

BlasLt theBlasLt; // loaded by blasLt()

/// dlopen of the file $`variable` names, else of the first of `names` that
/// loads; null with `reasons` saying why each failed.
void *openLibrary(const char *variable, std::initializer_list<const char *> names,
                  std::string &reasons) {
  std::vector<std::string> tried(names.begin(), names.end());
  if (const char *path = std::getenv(variable); path && *path)
    tried = {path};
  for (const std::string &path : tried) {
    if (void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL))
      return handle;
    const char *e = dlerror();
    reasons += (reasons.empty() ? "" : "; ") + std::string(e ? e : path.c_str());
  }
  return nullptr;
}

/// Loads cuBLASLt ($PADDLE_MLIR_CUBLASLT names the file; else
/// libcublasLt.so.13 or .12 from the loader's path or the toolkit's
/// lib64); blasLt().error says why it cannot be used.
BlasLt &blasLt() {
  BlasLt &l = theBlasLt;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string reasons;
    l.handle = openLibrary("PADDLE_MLIR_CUBLASLT",
                           {"libcublasLt.so.13", "libcublasLt.so.12",
                            "/usr/local/cuda/lib64/libcublasLt.so.13",
                            "/usr/local/cuda/lib64/libcublasLt.so.12"},
                           reasons);
    if (!l.handle) {
      l.error = "no cuBLASLt for the model's matrix products: cannot load it (" + reasons +
                "); install the CUDA toolkit's cuBLAS or set PADDLE_MLIR_CUBLASLT";
      return;
    }
    auto get = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(l.handle, name));
      if (!fn && l.error.empty())
        l.error = std::string("the cuBLASLt library has no ") + name;
    };
    get(l.create, "cublasLtCreate");
    get(l.destroy, "cublasLtDestroy");
    get(l.statusName, "cublasLtGetStatusName");
    get(l.descCreate, "cublasLtMatmulDescCreate");
    get(l.descDestroy, "cublasLtMatmulDescDestroy");
    get(l.descSet, "cublasLtMatmulDescSetAttribute");
    get(l.layoutCreate, "cublasLtMatrixLayoutCreate");
    get(l.layoutDestroy, "cublasLtMatrixLayoutDestroy");
    get(l.layoutSet, "cublasLtMatrixLayoutSetAttribute");
    get(l.prefCreate, "cublasLtMatmulPreferenceCreate");
    get(l.prefDestroy, "cublasLtMatmulPreferenceDestroy");
    get(l.prefSet, "cublasLtMatmulPreferenceSetAttribute");
    get(l.heuristic, "cublasLtMatmulAlgoGetHeuristic");
    get(l.matmul, "cublasLtMatmul");
  });
  return l;
}

/// "<call>: <status name>" for a failed cuBLASLt call.
std::string describeBlas(const char *call, cublasStatus_t s) {
  const char *name = theBlasLt.statusName ? theBlasLt.statusName(s) : nullptr;
  return std::string(call) +
         " failed: " + (name ? std::string(name) : "cuBLAS status " + std::to_string(s));
}

// cuDNN's legacy convolution API (cudnn_graph.h, cudnn_ops.h, cudnn_cnn.h;
// deprecated in cuDNN 9 but still there): the types, values and calls used.
using cudnnStatus_t = int;
using cudnnHandle_t = struct cudnnContext *;
using cudnnTensorDescriptor_t = struct cudnnTensorStruct *;
using cudnnFilterDescriptor_t = struct cudnnFilterStruct *;
using cudnnConvolutionDescriptor_t = struct cudnnConvolutionStruct *;
struct cudnnConvolutionFwdAlgoPerf_t {
  int algo;
  cudnnStatus_t status;
  float time;
  size_t memory;
  int determinism;
  int mathType;
  int reserved[3];
};
constexpr int kCudnnFloat = 0, kCudnnNchw = 0, kCudnnCrossCorrelation = 1; // enums
constexpr int kCudnnDefaultMath = 0, kCudnnFmaMath = 3;                    // cudnnMathType_t
constexpr int kCudnnAlgoCandidates = 8;

struct Dnn {
  void *handle = nullptr;
  std::string error; // why cuDNN cannot be used, once tried
  cudnnStatus_t (*create)(cudnnHandle_t *);
  cudnnStatus_t (*destroy)(cudnnHandle_t);
  cudnnStatus_t (*setStream)(cudnnHandle_t, CUstream);
  const char *(*errorString)(cudnnStatus_t);
  cudnnStatus_t (*createTensor)(cudnnTensorDescriptor_t *);
  cudnnStatus_t (*destroyTensor)(cudnnTensorDescriptor_t);
  cudnnStatus_t (*setTensor4d)(cudnnTensorDescriptor_t, int, int, int, int, int, int);
  cudnnStatus_t (*createFilter)(cudnnFilterDescriptor_t *);
  cudnnStatus_t (*destroyFilter)(cudnnFilterDescriptor_t);
  cudnnStatus_t (*setFilter4d)(cudnnFilterDescriptor_t, int, int, int, int, int, int);
  cudnnStatus_t (*createConv)(cudnnConvolutionDescriptor_t *);
  cudnnStatus_t (*destroyConv)(cudnnConvolutionDescriptor_t);
  cudnnStatus_t (*setConv2d)(cudnnConvolutionDescriptor_t, int, int, int, int, int, int, int, int);
  cudnnStatus_t (*setMathType)(cudnnConvolutionDescriptor_t, int);
  cudnnStatus_t (*setGroupCount)(cudnnConvolutionDescriptor_t, int);
  cudnnStatus_t (*getAlgorithm)(cudnnHandle_t, cudnnTensorDescriptor_t, cudnnFilterDescriptor_t,
                                cudnnConvolutionDescriptor_t, cudnnTensorDescriptor_t, int, int *,
                                cudnnConvolutionFwdAlgoPerf_t *);
  cudnnStatus_t (*forward)(cudnnHandle_t, const void *, cudnnTensorDescriptor_t, const void *,
                           cudnnFilterDescriptor_t, const void *, cudnnConvolutionDescriptor_t, int,
                           void *, size_t, const void *, cudnnTensorDescriptor_t, void *);
};

Dnn theDnn; // loaded by dnn()

/// Loads cuDNN 9 ($PADDLE_MLIR_CUDNN names the file; else libcudnn.so.9
/// from the loader's path or the toolkit's lib64); dnn().error says why it
/// cannot be used.
Dnn &dnn() {
  Dnn &l = theDnn;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string reasons;
    l.handle = openLibrary("PADDLE_MLIR_CUDNN",
                           {"libcudnn.so.9", "/usr/local/cuda/lib64/libcudnn.so.9"}, reasons);
    if (!l.handle) {
      l.error = "no cuDNN for the model's convolutions: cannot load it (" + reasons +
                "); install cuDNN 9 or set PADDLE_MLIR_CUDNN";
      return;
    }
    auto get = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(l.handle, name));
      if (!fn && l.error.empty())
        l.error = std::string("the cuDNN library has no ") + name + " (not cuDNN 9?)";
    };
    get(l.create, "cudnnCreate");
    get(l.destroy, "cudnnDestroy");
    get(l.setStream, "cudnnSetStream");
    get(l.errorString, "cudnnGetErrorString");
    get(l.createTensor, "cudnnCreateTensorDescriptor");
    get(l.destroyTensor, "cudnnDestroyTensorDescriptor");
    get(l.setTensor4d, "cudnnSetTensor4dDescriptor");
    get(l.createFilter, "cudnnCreateFilterDescriptor");
    get(l.destroyFilter, "cudnnDestroyFilterDescriptor");
    get(l.setFilter4d, "cudnnSetFilter4dDescriptor");
    get(l.createConv, "cudnnCreateConvolutionDescriptor");
    get(l.destroyConv, "cudnnDestroyConvolutionDescriptor");
    get(l.setConv2d, "cudnnSetConvolution2dDescriptor");
    get(l.setMathType, "cudnnSetConvolutionMathType");
    get(l.setGroupCount, "cudnnSetConvolutionGroupCount");
    get(l.getAlgorithm, "cudnnGetConvolutionForwardAlgorithm_v7");
    get(l.forward, "cudnnConvolutionForward");
  });
  return l;
}

/// "<call> failed: <cuDNN's message>" for a failed cuDNN call.
std::string describeDnn(const char *call, cudnnStatus_t s) {
  const char *text = theDnn.errorString ? theDnn.errorString(s) : nullptr;
  return std::string(call) +
         " failed: " + (text ? std::string(text) : "cuDNN status " + std::to_string(s));
}

/// One call site's cuDNN convolution and the algorithm chosen for it at
/// load.
struct ConvPlan {
  std::string what; // "convolution #N (shapes)", for errors
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  int algo = 0;
  size_t workspaceSize = 0;
};

/// One call site's cuBLASLt problem and the algorithm chosen for it at
/// load.
struct MatmulPlan {
  std::string what; // "matrix product #N (shapes)", for errors
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  cublasLtMatmulAlgo_t algo{};
  size_t workspaceSize = 0;
};

/// One instance's device: its primary context and stream, and the state of
/// the run in progress.
struct Context {
  CUdevice device = 0;
  CUcontext ctx = nullptr;
  CUstream stream = nullptr;
  std::string error; // the first failure of the current run
  std::string message;
  // cuBLASLt, created at the first matrix product.
  cublasLtHandle_t lt = nullptr;
  std::map<int64_t, MatmulPlan> plans;
  // cuDNN, created at the first convolution.
  cudnnHandle_t dnn = nullptr;
  std::map<int64_t, ConvPlan> convPlans;
  // The libraries' scratch memory, shared (one stream: calls never
  // overlap): the most any planned call needs, placed by the runtime at
  // the end of its arena (pdcu_set_workspace).
  size_t workspaceNeed = 0;
  CUdeviceptr workspace = 0;
  // Host copies of a collective's buffers (the MPI backend reads host
  // memory), kept between runs.
  std::vector<char> stageIn, stageOut;
  // Gradient buckets whose allreduce runs on host copies (MPI) between
  // pd.allreduce_start and pd.allreduce_wait, by bucket.
  std::map<int64_t, std::vector<char>> startedBuckets;
  // Whether its device was checked against the NCCL backend's (once).
  bool ncclDeviceChecked = false;
};

thread_local Context *current = nullptr; // the context of the run on this thread

/// A cubin the model library registered at load (mgpuModuleLoad), loaded
/// into a context on its first launch there.
struct LazyModule {
  const void *data;
  std::map<CUcontext, CUmodule> loaded;
  std::map<std::pair<CUmodule, std::string>, CUfunction> functions;
  std::mutex mutex;
};

const char *keep(Context *c, std::string msg) {
  c->message = std::move(msg);
  return c->message.c_str();
}
/// Builds call site `site`'s cuBLASLt problem and chooses its algorithm:
/// null or why it failed. Row-major C[m, n] = op(A) op(B) is column-major
/// C^T[n, m] = op(B)^T op(A)^T, so cuBLASLt's A is our B and its B our A:
/// row-major B[k, n] is column-major n x k (ld n), B[n, k] (transB) is k x
/// n (ld k) used transposed; likewise A.
std::string planMatmul(Context *ctx, MatmulPlan &p, int64_t batch, int64_t m, int64_t n, int64_t k,
                       bool transA, bool transB, int64_t strideA, int64_t strideB, int64_t strideC,
                       bool tf32) {
  BlasLt &l = blasLt();
  cublasStatus_t r;
  if ((r = l.descCreate(&p.desc, tf32 ? kComputeF32FastTF32 : kComputeF32, kCudaR32F)))
    return describeBlas("cublasLtMatmulDescCreate", r);
  int32_t opA = transB ? kOpT : kOpN, opB = transA ? kOpT : kOpN;
  if ((r = l.descSet(p.desc, kDescTransA, &opA, sizeof opA)) ||
      (r = l.descSet(p.desc, kDescTransB, &opB, sizeof opB)))
    return describeBlas("cublasLtMatmulDescSetAttribute", r);
  if ((r = l.layoutCreate(&p.a, kCudaR32F, transB ? k : n, transB ? n : k, transB ? k : n)) ||
      (r = l.layoutCreate(&p.b, kCudaR32F, transA ? m : k, transA ? k : m, transA ? m : k)) ||
      (r = l.layoutCreate(&p.c, kCudaR32F, n, m, n)))
    return describeBlas("cublasLtMatrixLayoutCreate", r);
  if (batch > 1) {
    int32_t count = static_cast<int32_t>(batch);
    const std::pair<cublasLtMatrixLayout_t, int64_t> strided[] = {
        {p.a, strideB}, {p.b, strideA}, {p.c, strideC}};
    for (auto [layout, stride] : strided)
      if ((r = l.layoutSet(layout, kLayoutBatchCount, &count, sizeof count)) ||
          (r = l.layoutSet(layout, kLayoutBatchOffset, &stride, sizeof stride)))
        return describeBlas("cublasLtMatrixLayoutSetAttribute", r);
  }
  cublasLtMatmulPreference_t pref = nullptr;
  if ((r = l.prefCreate(&pref)))
    return describeBlas("cublasLtMatmulPreferenceCreate", r);
  uint64_t most = kWorkspaceBytes;
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  r = l.prefSet(pref, kPrefMaxWorkspaceBytes, &most, sizeof most);
  if (!r)
    r = l.heuristic(ctx->lt, p.desc, p.a, p.b, p.c, p.c, pref, 1, &result, &found);
  l.prefDestroy(pref);
  if (r)
    return describeBlas("cublasLtMatmulAlgoGetHeuristic", r);
  if (found < 1 || result.state)
    return "cuBLASLt has no algorithm for this product";
  p.algo = result.algo;
  p.workspaceSize = result.workspaceSize;
  ctx->workspaceNeed = std::max(ctx->workspaceNeed, p.workspaceSize);
  return {};
}

/// Builds call site `site`'s cuDNN convolution and chooses its algorithm
/// (cuDNN's heuristic, the first candidate that needs at most
/// kWorkspaceBytes): null or why it failed.
std::string planConv(Context *ctx, ConvPlan &p, const int64_t *dims, bool tf32) {
  // dims: n, c, h, w, k, r, s, oh, ow, stride h/w, dilation h/w, groups,
  // pad h/w.
  auto [n, c, h, w, k, r, s, oh, ow, sh, sw, dh, dw, groups, ph, pw] = std::array<int, 16>{
      int(dims[0]),  int(dims[1]),  int(dims[2]),  int(dims[3]), int(dims[4]),  int(dims[5]),
      int(dims[6]),  int(dims[7]),  int(dims[8]),  int(dims[9]), int(dims[10]), int(dims[11]),
      int(dims[12]), int(dims[13]), int(dims[14]), int(dims[15])};
  Dnn &l = dnn();
  cudnnStatus_t r2;
  if ((r2 = l.createTensor(&p.x)) || (r2 = l.createTensor(&p.y)) || (r2 = l.createFilter(&p.w)) ||
      (r2 = l.createConv(&p.conv)))
    return describeDnn("creating descriptors", r2);
  if ((r2 = l.setTensor4d(p.x, kCudnnNchw, kCudnnFloat, n, c, h, w)) ||
      (r2 = l.setTensor4d(p.y, kCudnnNchw, kCudnnFloat, n, k, oh, ow)) ||
      (r2 = l.setFilter4d(p.w, kCudnnFloat, kCudnnNchw, k, c / groups, r, s)) ||
      (r2 = l.setConv2d(p.conv, ph, pw, sh, sw, dh, dw, kCudnnCrossCorrelation, kCudnnFloat)) ||
      (r2 = l.setGroupCount(p.conv, groups)) ||
      (r2 = l.setMathType(p.conv, tf32 ? kCudnnDefaultMath : kCudnnFmaMath)))
    return describeDnn("describing the convolution", r2);
  cudnnConvolutionFwdAlgoPerf_t candidates[kCudnnAlgoCandidates];
  int found = 0;
  if ((r2 = l.getAlgorithm(ctx->dnn, p.x, p.w, p.conv, p.y, kCudnnAlgoCandidates, &found,
                           candidates)))
    return describeDnn("cudnnGetConvolutionForwardAlgorithm_v7", r2);
  for (int i = 0; i < found; ++i)
    if (!candidates[i].status && candidates[i].memory <= kWorkspaceBytes) {
      p.algo = candidates[i].algo;
      p.workspaceSize = candidates[i].memory;
      ctx->workspaceNeed = std::max(ctx->workspaceNeed, p.workspaceSize);
      return {};
    }
  return "cuDNN has no algorithm for this convolution within a " +
         std::to_string(kWorkspaceBytes >> 20) + " MiB workspace";
}
} // namespace

extern "C" {
/// Opens device `ordinal`: null and *out set, or an error message (valid
/// until the next failing pdcu_open on this thread).
__attribute__((visibility("default"))) const char *pdcu_open(int ordinal, void **out, char *name,
                                                             int nameBytes) {
  static thread_local std::string failure;
  *out = nullptr;
  Driver &d = driver();
  if (!d.error.empty())
    return (failure = d.error).c_str();
  int count = 0;
  if (CUresult r = d.cuDeviceGetCount(&count))
    return (failure = describe("cuDeviceGetCount", r)).c_str();
  if (ordinal < 0 || ordinal >= count)
    return (failure = "no CUDA device " + std::to_string(ordinal) + " (this machine has " +
                      std::to_string(count) + ")")
        .c_str();
  auto *c = new Context;
  CUresult r = d.cuDeviceGet(&c->device, ordinal);
  if (!r)
    r = d.cuDevicePrimaryCtxRetain(&c->ctx, c->device);
  if (r) {
    delete c;
    return (failure = "opening CUDA device " + std::to_string(ordinal) + ": " +
                      describe("cuDevicePrimaryCtxRetain", r))
        .c_str();
  }
  if ((r = d.cuCtxSetCurrent(c->ctx)) || (r = d.cuStreamCreate(&c->stream, 1 /*non-blocking*/))) {
    d.cuDevicePrimaryCtxRelease(c->device);
    delete c;
    return (failure = describe("cuStreamCreate", r)).c_str();
  }
  if (name && nameBytes > 0 && d.cuDeviceGetName(name, nameBytes, c->device))
    name[0] = 0;
  *out = c;
  return nullptr;
}

/// The device of this process in a job: its local rank modulo the device
/// count, chosen as the NCCL backend chooses it (launcherLocalRank, with
/// the launcher's global rank where no local one is given); 0 outside a
/// job or without a driver (opening it then says why).
__attribute__((visibility("default"))) int pdcu_local_device() {
  int rank = 0;
  for (const char *name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK"})
    if (const char *v = std::getenv(name)) {
      rank = std::atoi(v);
      break;
    }
  int local = pdcomm::launcherLocalRank(rank);
  Driver &d = driver();
  int count = 0;
  if (local <= 0 || !d.error.empty() || d.cuDeviceGetCount(&count) || count <= 0)
    return 0;
  return local % count;
}

/// Whether the loaded driver's device memory is host memory: only the
/// tests' stand-in (which says so by exporting pd_fake_cuda_host_memory)
/// can run an artifact compiled with --cuda-emulate, whose host code reads
/// and writes device buffers itself.
__attribute__((visibility("default"))) int pdcu_device_memory_is_host() {
  Driver &d = driver();
  return d.handle && dlsym(d.handle, "pd_fake_cuda_host_memory") != nullptr;
}

/// The CUDA version the driver supports (1000 * major + 10 * minor, as
/// cuDriverGetVersion says), or 0 when it cannot say.
__attribute__((visibility("default"))) int pdcu_driver_version() {
  Driver &d = driver();
  int version = 0;
  if (!d.error.empty() || !d.cuDriverGetVersion || d.cuDriverGetVersion(&version))
    return 0;
  return version;
}

/// The compute capability of the instance's device (major * 10 + minor).
__attribute__((visibility("default"))) int pdcu_arch(void *handle) {
  auto *c = static_cast<Context *>(handle);
  int major = 0, minor = 0;
  driver().cuDeviceGetAttribute(&major, kComputeCapabilityMajor, c->device);
  driver().cuDeviceGetAttribute(&minor, kComputeCapabilityMinor, c->device);
  return major * 10 + minor;
}

__attribute__((visibility("default"))) void pdcu_close(void *handle) {
  auto *c = static_cast<Context *>(handle);
  if (!c)
    return;
  Driver &d = driver();
  d.cuCtxSetCurrent(c->ctx);
  d.cuStreamSynchronize(c->stream);
  if (c->lt) {
    BlasLt &l = blasLt();
    for (auto &[site, plan] : c->plans) {
      for (cublasLtMatrixLayout_t layout : {plan.a, plan.b, plan.c})
        if (layout)
          l.layoutDestroy(layout);
      if (plan.desc)
        l.descDestroy(plan.desc);
    }
    l.destroy(c->lt);
  }
  if (c->dnn) {
    Dnn &l = dnn();
    for (auto &[site, plan] : c->convPlans) {
      for (cudnnTensorDescriptor_t t : {plan.x, plan.y})
        if (t)
          l.destroyTensor(t);
      if (plan.w)
        l.destroyFilter(plan.w);
      if (plan.conv)
        l.destroyConv(plan.conv);
    }
    l.destroy(c->dnn);
  }
  d.cuStreamDestroy(c->stream);
  d.cuDevicePrimaryCtxRelease(c->device);
  delete c;
}

__attribute__((visibility("default"))) const char *pdcu_alloc(void *handle, size_t bytes,
                                                              void **ptr) {
  auto *c = static_cast<Context *>(handle);
  Driver &d = driver();
  CUdeviceptr p = 0;
  CUresult r = d.cuCtxSetCurrent(c->ctx);
  if (!r)
    r = d.cuMemAlloc(&p, bytes ? bytes : 1);
  if (r)
    return keep(
        c, describe(("allocating " + std::to_string(bytes) + " bytes on the device").c_str(), r));
  *ptr = reinterpret_cast<void *>(static_cast<uintptr_t>(p));
  return nullptr;
}

__attribute__((visibility("default"))) void pdcu_free(void *handle, void *ptr) {
  auto *c = static_cast<Context *>(handle);
  if (!ptr)
    return;
  driver().cuCtxSetCurrent(c->ctx);
  driver().cuMemFree(static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(ptr)));
}

/// Copies `bytes` host -> device (`toDevice`) or device -> host on the
/// instance's stream and waits for it.
__attribute__((visibility("default"))) const char *
pdcu_copy(void *handle, void *dst, const void *src, size_t bytes, int toDevice) {
  auto *c = static_cast<Context *>(handle);
  Driver &d = driver();
  if (!bytes)
    return nullptr;
  CUresult r = d.cuCtxSetCurrent(c->ctx);
  if (!r)
    r = toDevice
            ? d.cuMemcpyHtoDAsync(static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(dst)), src,
                                  bytes, c->stream)
            : d.cuMemcpyDtoHAsync(dst, static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(src)),
                                  bytes, c->stream);
  if (!r)
    r = d.cuStreamSynchronize(c->stream);
  if (r)
    return keep(c, describe(toDevice ? "copying to the device" : "copying from the device", r));
  return nullptr;
}

/// Makes the instance's context current on this thread for the model's
/// launches.
__attribute__((visibility("default"))) void pdcu_begin_run(void *handle) {
  auto *c = static_cast<Context *>(handle);
  c->error.clear();
  current = c;
  if (CUresult r = driver().cuCtxSetCurrent(c->ctx))
    c->error = describe("cuCtxSetCurrent", r);
}

/// Waits for the run's kernels; null or the first failure of the run.
__attribute__((visibility("default"))) const char *pdcu_end_run(void *handle) {
  auto *c = static_cast<Context *>(handle);
  current = nullptr;
  if (c->error.empty())
    if (CUresult r = driver().cuStreamSynchronize(c->stream))
      c->error = describe("running the kernels (cuStreamSynchronize)", r);
  return c->error.empty() ? nullptr : keep(c, c->error);
}

} // extern "C"

/// The plan of matrix product `site`, made by pd_plan_library_calls at
/// load: null, with the run's error set, if it cannot be made.
static MatmulPlan *matmulPlan(Context *ctx, int64_t site, int64_t batch, int64_t m, int64_t n,
                              int64_t k, int32_t transA, int32_t transB, int64_t strideA,
                              int64_t strideB, int64_t strideC, int32_t tf32) {
  if (!ctx || !ctx->error.empty())
    return nullptr;
  auto found = ctx->plans.find(site);
  if (found != ctx->plans.end())
    return &found->second;
  BlasLt &l = blasLt();
  if (!l.error.empty()) {
    ctx->error = l.error;
    return nullptr;
  }
  if (!ctx->lt)
    if (cublasStatus_t r = l.create(&ctx->lt)) {
      ctx->lt = nullptr;
      ctx->error = describeBlas("cublasLtCreate", r);
      return nullptr;
    }
  MatmulPlan &p = ctx->plans[site];
  p.what = "matrix product #" + std::to_string(site) + " (" +
           (batch > 1 ? std::to_string(batch) + " x " : "") + std::to_string(m) + "x" +
           std::to_string(k) + " by " + std::to_string(k) + "x" + std::to_string(n) + ")";
  std::string failure =
      planMatmul(ctx, p, batch, m, n, k, transA, transB, strideA, strideB, strideC, tf32);
  if (!failure.empty()) {
    ctx->error = p.what + ": " + failure;
    return nullptr;
  }
  return &p;
}

/// The plan of convolution `site` (dims as pdcu_conv2d takes them, from n
/// to pad w), made by pd_plan_library_calls at load: null, with the run's
/// error set, if it cannot be made.
static ConvPlan *convPlan(Context *ctx, int64_t site, const int64_t *dims, int32_t tf32) {
  if (!ctx || !ctx->error.empty())
    return nullptr;
  auto found = ctx->convPlans.find(site);
  if (found != ctx->convPlans.end())
    return &found->second;
  Dnn &l = dnn();
  if (!l.error.empty()) {
    ctx->error = l.error;
    return nullptr;
  }
  if (!ctx->dnn) {
    cudnnStatus_t r = l.create(&ctx->dnn);
    if (!r)
      r = l.setStream(ctx->dnn, ctx->stream);
    if (r) {
      ctx->error = describeDnn("cudnnCreate", r);
      return nullptr;
    }
  }
  ConvPlan &p = ctx->convPlans[site];
  int64_t groups = dims[13];
  p.what = "convolution #" + std::to_string(site) + " (" + std::to_string(dims[0]) + "x" +
           std::to_string(dims[1]) + "x" + std::to_string(dims[2]) + "x" + std::to_string(dims[3]) +
           " by " + std::to_string(dims[4]) + "x" + std::to_string(dims[1] / groups) + "x" +
           std::to_string(dims[5]) + "x" + std::to_string(dims[6]) +
           (groups > 1 ? ", " + std::to_string(groups) + " groups" : "") + ")";
  std::string failure = planConv(ctx, p, dims, tf32);
  if (!failure.empty()) {
    ctx->error = p.what + ": " + failure;
    return nullptr;
  }
  return &p;
}

/// Call site `site`'s plan, made at load by pd_plan_library_calls (the
/// model library always has it when it makes library calls); null, with
/// the run's error set, if the site has none.
template <typename Plan>
static Plan *plannedAtLoad(Context *ctx, std::map<int64_t, Plan> &plans, int64_t site) {
  auto found = plans.find(site);
  if (found != plans.end())
    return &found->second;
  ctx->error = "library call #" + std::to_string(site) +
               " was not planned at load (a model library without pd_plan_library_calls?)";
  return nullptr;
}

static void *devicePtr(int64_t address) {
  return reinterpret_cast<void *>(static_cast<uintptr_t>(address));
}

extern "C" {
/// A matrix product of the model on the run's stream (pd-gpu-library-calls
/// emits the calls): row-major C = op(A) op(B) + beta C over `batch`
/// matrices `stride*` elements apart; A is m x k (k x m with transA), B is
/// k x n (n x k with transB). Addresses are device addresses. The problem
/// is the one pdcu_plan_matmul planned for `site` at load, whose plan is
/// used. The first failure stops the run (pdcu_end_run reports it).
__attribute__((visibility("default"))) void
pdcu_matmul(int64_t site, int64_t a, int64_t b, int64_t c, int64_t batch, int64_t m, int64_t n,
            int64_t k, int32_t transA, int32_t transB, int64_t strideA, int64_t strideB,
            int64_t strideC, float beta, int32_t tf32) {
  Context *ctx = current;
  MatmulPlan *p = ctx && ctx->error.empty() ? plannedAtLoad(ctx, ctx->plans, site) : nullptr;
  if (!p)
    return;
  float alpha = 1.0f;
  if (cublasStatus_t r = blasLt().matmul(ctx->lt, p->desc, &alpha, devicePtr(b), p->a, devicePtr(a),
                                         p->b, &beta, devicePtr(c), p->c, devicePtr(c), p->c,
                                         &p->algo, devicePtr(static_cast<int64_t>(ctx->workspace)),
                                         p->workspaceSize, ctx->stream))
    ctx->error = p->what + ": " + describeBlas("cublasLtMatmul", r);
}

/// pdcu_matmul's plan for `site`, made at load
/// (pd_plan_library_calls calls it at load, between pdcu_begin_run and
/// pdcu_end_run).
__attribute__((visibility("default"))) void
pdcu_plan_matmul(int64_t site, int64_t batch, int64_t m, int64_t n, int64_t k, int32_t transA,
                 int32_t transB, int64_t strideA, int64_t strideB, int64_t strideC, int32_t tf32) {
  matmulPlan(current, site, batch, m, n, k, transA, transB, strideA, strideB, strideC, tf32);
}

/// A convolution of the model on the run's stream (pd-gpu-library-calls
/// emits the calls): y = conv(x, w) + beta y, NCHW f32, cross-correlation,
/// filter [k, c / groups, r, s], the given padding, strides and dilations,
/// as pdcu_plan_conv2d planned them for `site` at load. Addresses are
/// device addresses. The first failure stops the run.
__attribute__((visibility("default"))) void
pdcu_conv2d(int64_t site, int64_t x, int64_t w, int64_t y, int64_t n, int64_t c, int64_t h,
            int64_t wd, int64_t k, int64_t r, int64_t s, int64_t oh, int64_t ow, int64_t strideH,
            int64_t strideW, int64_t dilH, int64_t dilW, int64_t groups, int64_t padH, int64_t padW,
            float beta, int32_t tf32) {
  Context *ctx = current;
  ConvPlan *p = ctx && ctx->error.empty() ? plannedAtLoad(ctx, ctx->convPlans, site) : nullptr;
  if (!p)
    return;
  float alpha = 1.0f;
  if (cudnnStatus_t e =
          dnn().forward(ctx->dnn, &alpha, p->x, devicePtr(x), p->w, devicePtr(w), p->conv, p->algo,
                        devicePtr(static_cast<int64_t>(ctx->workspace)), p->workspaceSize, &beta,
                        p->y, devicePtr(y)))
    ctx->error = p->what + ": " + describeDnn("cudnnConvolutionForward", e);
}

/// pdcu_conv2d's plan for `site`, made at load (as pdcu_plan_matmul).
__attribute__((visibility("default"))) void
pdcu_plan_conv2d(int64_t site, int64_t n, int64_t c, int64_t h, int64_t wd, int64_t k, int64_t r,
                 int64_t s, int64_t oh, int64_t ow, int64_t strideH, int64_t strideW, int64_t dilH,
                 int64_t dilW, int64_t groups, int64_t padH, int64_t padW, int32_t tf32) {
  const int64_t dims[] = {n,  c,       h,       wd,   k,    r,      s,    oh,
                          ow, strideH, strideW, dilH, dilW, groups, padH, padW};
  convPlan(current, site, dims, tf32);
}

/// The workspace the calls planned at load need (0 without library calls).
__attribute__((visibility("default"))) size_t pdcu_workspace_bytes(void *handle) {
  return static_cast<Context *>(handle)->workspaceNeed;
}

/// The library calls' workspace: at `ptr`, pdcu_workspace_bytes long (the
/// end of the runtime's arena).
__attribute__((visibility("default"))) void pdcu_set_workspace(void *handle, void *ptr) {
  static_cast<Context *>(handle)->workspace =
      static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(ptr));
}

// MLIR's GPU runtime calls, as gpu-to-llvm and the gpu.binary translation
// emit them into the model library.

/// Called by the model library's constructor: no CUDA call happens here
/// (the library loads on machines without a GPU); the cubin is loaded into
/// a context on its first launch there.
__attribute__((visibility("default"))) void *mgpuModuleLoad(void *data, size_t /*bytes*/) {
  auto *m = new LazyModule;
  m->data = data;
  return m;
}

__attribute__((visibility("default"))) void mgpuModuleUnload(void *module) {
  delete static_cast<LazyModule *>(module);
}

__attribute__((visibility("default"))) void *mgpuModuleGetFunction(void *module, const char *name) {
  Context *c = current;
  if (!c || !c->error.empty())
    return nullptr;
  auto *m = static_cast<LazyModule *>(module);
  Driver &d = driver();
  std::lock_guard<std::mutex> lock(m->mutex);
  CUmodule &loaded = m->loaded[c->ctx];
  if (!loaded)
    if (CUresult r = d.cuModuleLoadData(&loaded, m->data)) {
      loaded = nullptr;
      c->error = describe((std::string("loading the kernel '") + name + "'").c_str(), r);
      return nullptr;
    }
  CUfunction &f = m->functions[{loaded, name}];
  if (!f)
    if (CUresult r = d.cuModuleGetFunction(&f, loaded, name)) {
      c->error = describe((std::string("finding the kernel '") + name + "'").c_str(), r);
      return nullptr;
    }
  return f;
}

/// The run's stream: every launch of an instance goes to its one stream.
__attribute__((visibility("default"))) void *mgpuStreamCreate() {
  return current ? current->stream : nullptr;
}
/// Launches on the run's stream are ordered; the run waits once at its end.
__attribute__((visibility("default"))) void mgpuStreamSynchronize(void *) {}
__attribute__((visibility("default"))) void mgpuStreamDestroy(void *) {}

__attribute__((visibility("default"))) void
mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                 intptr_t blockY, intptr_t blockZ, int32_t smem, void *stream, void **params,
                 void ** /*extra*/, size_t /*paramsCount*/) {
  Context *c = current;
  if (!c || !function || !c->error.empty())
    return;
  if (CUresult r = driver().cuLaunchKernel(static_cast<CUfunction>(function), gridX, gridY, gridZ,
                                           blockX, blockY, blockZ, smem,
                                           static_cast<CUstream>(stream), params, nullptr))
    c->error = describe("cuLaunchKernel", r);
}
} // extern "C"

// The communicator (Kernels/Comm.cpp, compiled in).
extern "C" void pdk_collective(const int64_t *ptrs, const int64_t *ints, const float *);
extern "C" const char *pdk_comm_backend();

namespace {
/// Runs pdk_collective on `in` / `out` with the given fields and the
/// operands' dims (`in`: rows x the rest; `out`: flat); null or its error.
const char *runCollective(const int64_t *fields, const void *in, void *out, int64_t inCount,
                          int64_t outCount, int64_t inRows) {
  namespace comm = pdk::comm;
  int64_t ints[comm::NumInts + 5];
  int64_t n = 0;
  for (int64_t f = 0; f < comm::NumInts; ++f)
    ints[n++] = fields[f];
  if (in) {
    ints[n++] = 2;
    ints[n++] = inRows;
    ints[n++] = inRows ? inCount / inRows : 0;
  }
  ints[n++] = 1;
  ints[n++] = outCount;
  int64_t ptrs[comm::NumSlots + 1] = {reinterpret_cast<int64_t>(in),
                                      reinterpret_cast<int64_t>(out)};
  pdk_collective(ptrs, ints, nullptr);
  return pdk_comm_take_error();
}

} // namespace

extern "C" {
/// pd.is_stage of a pipeline (pd-gpu-collectives emits the calls): this
/// process's rank, which the host code compares with the stage, checked
/// against the job's size (`stages` ranks). -1, with the run's error set,
/// when the job does not fit: no stage runs and the run reports why.
__attribute__((visibility("default"))) int64_t pdcu_comm_rank(int64_t stage, int64_t stages) {
  namespace comm = pdk::comm;
  Context *ctx = current;
  if (!ctx || !ctx->error.empty())
    return -1;
  int64_t fields[comm::NumInts] = {};
  fields[comm::Kind] = comm::Stage;
  fields[comm::Peer] = stage;
  fields[comm::Nranks] = stages;
  fields[comm::Seq] = -1;
  int64_t rank = -1;
  if (const char *err = runCollective(fields, nullptr, &rank, 0, 1, 0)) {
    ctx->error = err;
    return -1;
  }
  return rank;
}

/// A collective op of the model between its kernels (pd-gpu-collectives
/// emits the calls): kind, ring, reduce, peer, nranks, dtype and seq as
/// pdk::comm's fields; `in` (0: none) and `out` device addresses; counts in
/// elements; `inRows` the input's dim 0. The kernels before it finish first
/// (it reads what they wrote) and the op is complete when it returns. With
/// NCCL the backend works on the device buffers; otherwise the buffers are
/// copied to host memory and back. pd.shard_batch (kind Shard) asks the
/// communicator for the rank, which checks the job, and copies the part on
/// the device. The first failure stops the run.
__attribute__((visibility("default"))) void
pdcu_collective(int64_t kind, int64_t ringId, int64_t reduce, int64_t peer, int64_t nranks,
                int64_t dtype, int64_t seq, int64_t in, int64_t out, int64_t inCount,
                int64_t outCount, int64_t inRows) {
  namespace comm = pdk::comm;
  Context *ctx = current;
  if (!ctx || !ctx->error.empty())
    return;
  Driver &d = driver();
  auto fail = [&](const char *what, CUresult r) { ctx->error = describe(what, r); };
  // Its input is the kernels' output.
  if (CUresult r = d.cuStreamSynchronize(ctx->stream))
    return fail("running the kernels before a collective op (cuStreamSynchronize)", r);
  int64_t fields[comm::NumInts] = {};
  fields[comm::Kind] = kind;
  fields[comm::RingId] = ringId;
  fields[comm::ReduceOp] = reduce;
  fields[comm::Peer] = peer;
  fields[comm::Nranks] = nranks;
  fields[comm::Dtype] = dtype;
  fields[comm::Seq] = seq;
  size_t bytes = static_cast<size_t>(comm::dtypeBytes(dtype));
  size_t inBytes = static_cast<size_t>(inCount) * bytes,
         outBytes = static_cast<size_t>(outCount) * bytes;
  if (kind == comm::Shard) {
    // This rank's rows: the rank (checked against the job and the batch),
    // then a copy on the device.
    fields[comm::Kind] = comm::Rank;
    int64_t rank = 0;
    if (const char *err = runCollective(fields, devicePtr(in), &rank, inCount, 1, inRows)) {
      ctx->error = err;
      return;
    }
    if (outBytes * static_cast<size_t>(nranks) != inBytes) {
      ctx->error = "shard_batch: a part of " + std::to_string(outCount) + " elements is not 1/" +
                   std::to_string(nranks) + " of " + std::to_string(inCount);
      return;
    }
    if (CUresult r = d.cuMemcpyDtoDAsync(static_cast<CUdeviceptr>(out),
                                         static_cast<CUdeviceptr>(in) + rank * outBytes, outBytes,
                                         ctx->stream))
      fail("shard_batch: copying this rank's part (cuMemcpyDtoDAsync)", r);
    return;
  }
  const char *backend = pdk_comm_backend();
  if (backend && std::string(backend) == "nccl") {
    if (!ctx->ncclDeviceChecked) {
      if (int mine = pdcu_local_device(); mine != ctx->device) {
        ctx->error = "the instance runs on cuda:" + std::to_string(ctx->device) +
                     ", but the NCCL backend of this rank uses cuda:" + std::to_string(mine) +
                     " (the local rank modulo the device count): leave --device out, or give "
                     "cuda:" +
                     std::to_string(mine);
        return;
      }
      ctx->ncclDeviceChecked = true;
    }
    // A gradient bucket's allreduce starts on NCCL's stream, in place on
    // the device buffer, while the kernels after it run; its wait drains
    // that stream.
    if (kind == comm::AllReduceStart || kind == comm::AllReduceWait) {
      fields[comm::Kind] |= comm::OnDevice;
      if (const char *err = runCollective(fields, nullptr, devicePtr(out), 0, outCount, 0))
        ctx->error = err;
      return;
    }
    // NCCL takes device buffers. Broadcast and barrier work in place on
    // the destination, which starts as X.
    const void *src = devicePtr(in);
    if ((kind == comm::Broadcast || kind == comm::Barrier) && in && in != out) {
      if (CUresult r = d.cuMemcpyDtoDAsync(static_cast<CUdeviceptr>(out),
                                           static_cast<CUdeviceptr>(in), outBytes, ctx->stream))
        return fail("copying a collective's input (cuMemcpyDtoDAsync)", r);
      if (CUresult r = d.cuStreamSynchronize(ctx->stream))
        return fail("copying a collective's input (cuStreamSynchronize)", r);
      src = devicePtr(out);
    }
    fields[comm::Kind] |= comm::OnDevice;
    if (const char *err = runCollective(fields, src, devicePtr(out), inCount, outCount, inRows))
      ctx->error = err;
    return;
  }
  // MPI (and one rank without a backend) works on host memory. A started
  // bucket's host copy stays until its wait, which copies the sum back.
  if (kind == comm::AllReduceStart || kind == comm::AllReduceWait) {
    std::vector<char> &host = ctx->startedBuckets[peer];
    if (kind == comm::AllReduceStart) {
      host.resize(outBytes ? outBytes : 1);
      if (CUresult r = d.cuMemcpyDtoHAsync(host.data(), static_cast<CUdeviceptr>(out), outBytes,
                                           ctx->stream))
        return fail("copying a gradient bucket to the host", r);
      if (CUresult r = d.cuStreamSynchronize(ctx->stream))
        return fail("copying a gradient bucket to the host (cuStreamSynchronize)", r);
    }
    if (const char *err = runCollective(fields, nullptr, host.data(), 0, outCount, 0)) {
      ctx->error = err;
      return;
    }
    if (kind == comm::AllReduceWait && outBytes)
      if (CUresult r = d.cuMemcpyHtoDAsync(static_cast<CUdeviceptr>(out), host.data(), outBytes,
                                           ctx->stream))
        fail("copying a gradient bucket's sum to the device", r);
    return;
  }
  ctx->stageIn.resize(inBytes);
  ctx->stageOut.resize(outBytes ? outBytes : 1);
  if (in && inBytes) {
    if (CUresult r = d.cuMemcpyDtoHAsync(ctx->stageIn.data(), static_cast<CUdeviceptr>(in), inBytes,
                                         ctx->stream))
      return fail("copying a collective's input to the host", r);
    if (CUresult r = d.cuStreamSynchronize(ctx->stream))
      return fail("copying a collective's input to the host (cuStreamSynchronize)", r);
  }
  if (const char *err = runCollective(fields, in ? ctx->stageIn.data() : nullptr,
                                      ctx->stageOut.data(), inCount, outCount, inRows)) {
    ctx->error = err;
    return;
  }
  if (kind != comm::Send && outBytes)
    if (CUresult r = d.cuMemcpyHtoDAsync(static_cast<CUdeviceptr>(out), ctx->stageOut.data(),
                                         outBytes, ctx->stream))
      fail("copying a collective's result to the device", r);
}
} // extern "C"

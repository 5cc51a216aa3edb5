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
// Errors: the mgpu* calls return nothing, so the first failure of a run is
// kept in the run's context and later launches are skipped; pdcu_end_run
// reports it. Every pdcu_* call returns null or an error message.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
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

/// One instance's device: its primary context and stream, and the state of
/// the run in progress.
struct Context {
  CUdevice device = 0;
  CUcontext ctx = nullptr;
  CUstream stream = nullptr;
  std::string error; // the first failure of the current run
  std::string message;
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

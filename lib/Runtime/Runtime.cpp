//===- Runtime.cpp - pdrt: load compiled artifacts and run them -----------===//
//
// No MLIR or LLVM here: the runtime reads manifest.json, maps the weights,
// dlopens lib<name>.so and calls its `pd_entry(void **args)` with memref
// descriptors (allocated, aligned, offset, sizes[r], strides[r]) for the
// inputs and weights; results come back as descriptors of buffers the model
// allocated, which are copied out and freed.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Runtime/KernelABI.h"
#include "PaddleMLIR/Runtime/pdrt.h"

#include "Heap.h"
#include "Threads.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <sstream>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <type_traits>
#include <unistd.h>
#include <vector>

namespace {
thread_local std::string lastError;

pdrt_status fail(pdrt_status s, const std::string &msg) {
  lastError = msg;
  return s;
}

/// A manifest whose target record no target of this runtime reads.
pdrt_status badTarget(const std::string &manifestPath) {
  return fail(PDRT_ERR_FORMAT, "'" + manifestPath +
                                   "': the target is not {\"kind\": \"cpu\"} or "
                                   "{\"kind\": \"cuda\", \"arch\": ...}");
}

struct TensorDesc {
  std::string name;
  pdrt_dtype dtype = PDRT_DTYPE_INVALID;
  std::vector<int64_t> shape;
  uint64_t offset = 0, nbytes = 0;
  bool trainable = false;     // a weight a train step updates
  int64_t updates = -1;       // an output: the index of the weight it updates
  int64_t classes = -1;       // an input: a train step's integer labels, in [0, classes)
  int64_t ignoreIndex = -100; // ... or this value, which the loss skips
};

const char *kDtypeNames[] = {"float32", "float64", "float16", "bfloat16", "int8",
                             "uint8",   "int16",   "int32",   "int64",    "bool",
                             "uint32",  "uint64",  "uint16"};
const int64_t kDtypeSizes[] = {4, 8, 2, 2, 1, 1, 2, 4, 8, 1, 4, 8, 2};
static_assert(sizeof(kDtypeNames) / sizeof(kDtypeNames[0]) == PDRT_DTYPE_INVALID &&
                  sizeof(kDtypeSizes) / sizeof(kDtypeSizes[0]) == PDRT_DTYPE_INVALID,
              "one name and size per pdrt_dtype");

/// FNV-1a over the weights (continuing from `h`), matching the compiler's
/// checksum.
uint64_t checksum(const unsigned char *p, size_t n, uint64_t h = 1469598103934665603ull) {
  for (size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

bool readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return !in.bad();
}

/// A weights file mapped privately (copy-on-write) and followed by at least
/// 64 zero bytes, which vectorized kernels may read past a weight's end. The
/// pages are the page cache's until written: processes serving one artifact
/// share them, and a range released with `release` costs no resident memory
/// until read again. The compiler replaces weights files by renaming, so a
/// recompiled artifact never changes the pages of one that is loaded.
struct MappedWeights {
  unsigned char *data = nullptr;
  size_t bytes = 0, mapped = 0;
  /// Maps `path`; on failure returns false and sets `error`.
  bool map(const std::string &path, std::string &error) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      error = "cannot read weights file '" + path + "': " + std::strerror(errno);
      return false;
    }
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      error = "cannot read weights file '" + path + "': " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    size_t page = (size_t)::sysconf(_SC_PAGESIZE);
    bytes = (size_t)st.st_size;
    size_t filePages = (bytes + page - 1) / page * page;
    mapped = filePages + page;
    void *base =
        ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
      error = "out of address space for " + std::to_string(bytes) + " bytes of weights";
      ::close(fd);
      mapped = 0;
      return false;
    }
    data = static_cast<unsigned char *>(base);
    if (filePages && ::mmap(base, filePages, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd,
                            0) == MAP_FAILED) {
      error = "cannot map weights file '" + path + "': " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    ::close(fd);
    return true;
  }
  /// Drops the resident pages that lie wholly inside [offset, offset + n);
  /// later reads fetch them from the file again.
  void release(size_t offset, size_t n) const {
    size_t page = (size_t)::sysconf(_SC_PAGESIZE);
    size_t first = (offset + page - 1) / page * page, last = (offset + n) / page * page;
    if (data && last > first)
      ::madvise(data + first, last - first, MADV_DONTNEED);
  }
  ~MappedWeights() {
    if (mapped)
      ::munmap(data, mapped);
  }
};
} // namespace

namespace {
/// What differs between the targets at run time. A model's manifest names
/// its target ("cpu", "cuda"); from then on the model and its instances
/// reach their target's code through this interface only (the targets are
/// at the end of this file).
class RuntimeTarget {
public:
  virtual ~RuntimeTarget() = default;
  /// The manifest's target kind, and the device an instance takes when
  /// none is named (pdrt_instance_create).
  virtual const char *kind() const = 0;
  /// Reads the manifest's target record (null: an artifact from before
  /// targets were recorded, a CPU one).
  virtual pdrt_status readTarget(pdrt_model *m, const nlohmann::json *target,
                                 const std::string &manifestPath) const = 0;
  /// Finds the target's functions in the opened model library.
  virtual pdrt_status bindLibrary(pdrt_model *m, const std::string &libPath) const = 0;
  /// Prepares a new instance on device `ordinal` (-1: the default one).
  virtual pdrt_status open(pdrt_instance *inst, int ordinal) const = 0;
  /// Releases what open acquired (the instance is being freed).
  virtual void close(pdrt_instance *inst) const = 0;
  /// pdrt_run once the inputs are checked.
  virtual pdrt_status run(pdrt_instance *inst) const = 0;
  /// Trained weight `w` was set to `data` (its host copy already holds it).
  virtual pdrt_status weightSet(pdrt_instance *inst, size_t w, const void *data) const = 0;
};
/// The target of a manifest's kind, or null.
const RuntimeTarget *runtimeTarget(const std::string &kind);
} // namespace

struct pdrt_model {
  std::string dir, name, fingerprint;
  // A train step's forward program as a Paddle inference model (files in
  // `dir`) and where each parameter's data lies in its .pdiparams.
  struct InferenceSlot {
    std::string name;
    uint64_t offset = 0, nbytes = 0;
  };
  std::string inferenceProgram, inferenceParams;
  std::vector<InferenceSlot> inferenceSlots;
  std::vector<TensorDesc> inputs, outputs, weights;
  void *library = nullptr;
  void (*entry)(void **) = nullptr;
  int64_t (*arenaBytes)(void **) = nullptr;
  // libpdrt_kernels' error channel, when the model uses library kernels.
  const char *(*takeKernelError)() = nullptr;
  // libpdrt_kernels' team size for the calling thread (OpenMP), when the
  // model runs threaded code; null for a model that has none.
  void (*setNumThreads)(int64_t) = nullptr;
  // Whether the code's heap buffers come from pdrt::heap (its pd_heap_*
  // pointers set at load), and pdk_in_parallel where it has threads.
  bool heapHooked = false;
  int64_t (*inParallel)() = nullptr;
  // Collective ops (manifest "communication"), and libpdrt_kernels'
  // communicator, which gives this process's rank in the job.
  uint64_t collectives = 0;
  const char *(*commWorld)(int64_t *, int64_t *) = nullptr;
  // A pipeline (manifest partition.stages): per stage the weights it reads
  // and their checksum; rank k checks and keeps only stage k's.
  struct StageWeights {
    std::vector<std::string> names;
    std::string checksum;
    // Pipeline training: the trained weights the stage updates.
    std::vector<std::string> owns;
  };
  // libpdrt_kernels' pdk_collective (pdrt_gather_stage_params).
  void (*collective)(const int64_t *, const int64_t *, const float *) = nullptr;
  std::vector<StageWeights> stages;
  // In a pipeline's job: which weights this rank's stage uses (empty
  // otherwise). An instance does not copy the others from the file.
  std::vector<bool> stageUses;
  // A cuda pipeline's rank: where each weight of its stage lies in its
  // device block, the stage's weights packed (-1: another stage's); empty
  // otherwise (the block is the weights file).
  std::vector<int64_t> deviceAt;
  size_t deviceBytes = 0;
  MappedWeights weightFile;
  unsigned char *weightData = nullptr; // weightFile.data
  size_t weightBytes = 0;
  // The target the artifact was compiled for.
  const RuntimeTarget *target = runtimeTarget("cpu");
  // The CUDA target's: the architecture of its kernels and libpdrt_cuda's
  // device functions (found through the model library, which links it).
  std::string arch;
  // Compiled with --cuda-emulate: the kernels are host loops over device
  // buffers, so only a driver whose device memory is host memory runs it.
  bool emulated = false;
  // The CUDA release whose ptxas assembled the kernels ("13.0"; empty in
  // artifacts before it was recorded).
  std::string cudaVersion;
  struct Cuda {
    const char *(*open)(int, void **, char *, int);
    int (*arch)(void *);
    void (*close)(void *);
    const char *(*alloc)(void *, size_t, void **);
    void (*free)(void *, void *);
    const char *(*copy)(void *, void *, const void *, size_t, int);
    void (*beginRun)(void *);
    // The library calls' plans (cuBLASLt, cuDNN), made at instance
    // creation: the model's pd_plan_library_calls (absent without library
    // calls) and the workspace they need, placed at the arena's end.
    void (*planLibraryCalls)();
    size_t (*workspaceBytes)(void *);
    void (*setWorkspace)(void *, void *);
    int (*localDevice)();
    int (*deviceMemoryIsHost)();
    int (*driverVersion)();
    const char *(*endRun)(void *);
  } cu{};
  // The weights in each device's memory, uploaded by the first instance on
  // that device and freed with the last (instances on one device share its
  // primary context, so the memory is valid for all of them).
  struct DeviceWeights {
    void *ptr = nullptr;
    int instances = 0;
  };
  mutable std::mutex deviceWeightsMutex;
  mutable std::map<int, DeviceWeights> deviceWeights;
  ~pdrt_model() {
    // Kernels that packed these weights (libpdrt_kernels, when the model
    // uses it) must drop them before the memory can be reused.
    using Forget = void (*)(const void *, const void *);
    if (library && weightData)
      if (auto forget = reinterpret_cast<Forget>(dlsym(library, "pdk_forget")))
        forget(weightData, weightData + weightBytes + 64);
    if (library)
      dlclose(library);
  }
};

struct pdrt_instance {
  const pdrt_model *model;
  std::vector<const void *> inputData;
  std::vector<std::vector<int64_t>> inputShapes;
  std::vector<std::vector<char>> outputData;
  std::vector<std::vector<int64_t>> outputShapes;
  bool ran = false;
  // The model's activation arena: grown (never shrunk) to what the current
  // input shapes need, so runs at the same shapes allocate nothing here.
  unsigned char *arena = nullptr;
  size_t arenaBytes = 0;
  // pdrt_run's working buffers, kept so later runs reuse their capacity.
  std::vector<int64_t> descWords, results;
  std::vector<size_t> descStarts;
  std::vector<void *> args, freed;
  int64_t threads = 0, lastThreads = 0; // the cap (0: default), the last run's team
  pdrt::heap::Budget budget;            // the heap buffers of a run
  // A train step's weights, per instance (null for the model's constant
  // ones): copies of the weights file that each run's updates overwrite.
  std::vector<unsigned char *> params;
  // The bytes mapped for params[w] (0: from aligned_alloc): another
  // pipeline stage's trained weight is zero pages this rank never touches.
  std::vector<size_t> mappedParams;
  int64_t steps = 0; // runs of a train step (its updates applied)
  // Outputs a train step wrote in place into the parameter they update
  // (read through params, never copied).
  std::vector<char> outputInPlace;
  // A cuda artifact's instance: its device (libpdrt_cuda's context), the
  // weights, arena and inputs in device memory, and a staging buffer.
  void *device = nullptr;
  int ordinal = -1;              // the device, once its weights are held
  void *deviceWeights = nullptr; // the model's, shared per device
  void *deviceArena = nullptr;
  size_t workspaceBytes = 0; // the library calls', at the arena's end
  std::vector<void *> deviceInputs;
  std::vector<size_t> deviceInputBytes;
  // A train step's trained weights in device memory, the instance's own
  // (params holds their host copies, kept equal after every step).
  std::vector<void *> deviceParams;
  std::vector<char> staging;
  ~pdrt_instance() {
    model->target->close(this);
    std::free(arena);
    for (size_t w = 0; w < params.size(); ++w) {
      if (w < mappedParams.size() && mappedParams[w])
        ::munmap(params[w], mappedParams[w]);
      else
        std::free(params[w]);
    }
  }
};

/// Weight `w` as a run reads it: the instance's copy of a trained weight,
/// else the model's.
static const void *weightOf(const pdrt_instance *inst, size_t w) {
  if (inst->params[w])
    return inst->params[w];
  return inst->model->weightData + inst->model->weights[w].offset;
}

extern "C" {

const char *pdrt_last_error(void) { return lastError.c_str(); }

const char *pdrt_dtype_name(pdrt_dtype d) {
  return d >= 0 && d < PDRT_DTYPE_INVALID ? kDtypeNames[d] : "invalid";
}

pdrt_dtype pdrt_dtype_from_name(const char *name) {
  for (int i = 0; i < PDRT_DTYPE_INVALID; ++i)
    if (name && std::strcmp(name, kDtypeNames[i]) == 0)
      return static_cast<pdrt_dtype>(i);
  return PDRT_DTYPE_INVALID;
}

int64_t pdrt_dtype_size(pdrt_dtype d) {
  return d >= 0 && d < PDRT_DTYPE_INVALID ? kDtypeSizes[d] : 0;
}

using Json = nlohmann::json;

/// The member `key` of the manifest object `obj`, or null.
static const Json *member(const Json &obj, const char *key) {
  if (!obj.is_object())
    return nullptr;
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

/// The string member `key` of `obj`, or null when missing or not a string.
static const std::string *stringMember(const Json &obj, const char *key) {
  const Json *v = member(obj, key);
  return v ? v->get_ptr<const Json::string_t *>() : nullptr;
}

/// Reads the non-negative integer member `key` of `obj` into `out`.
static bool countMember(const Json &obj, const char *key, uint64_t &out) {
  const Json *v = member(obj, key);
  if (!v || !v->is_number_unsigned())
    return false;
  out = v->get<uint64_t>();
  return true;
}

/// Reads the tensor list `key` of the manifest (inputs, outputs, weights).
static bool parseTensors(const Json &manifest, const char *key, std::vector<TensorDesc> &out,
                         bool weights, std::string &error) {
  const Json *list = member(manifest, key);
  if (!list || !list->is_array()) {
    error = std::string("'") + key + "' is missing or not a list";
    return false;
  }
  for (const Json &t : *list) {
    TensorDesc d;
    const std::string *name = stringMember(t, "name"), *dtype = stringMember(t, "dtype");
    const Json *shape = member(t, "shape");
    if (!name || !dtype || !shape || !shape->is_array()) {
      error = "a tensor entry lacks name, dtype or shape";
      return false;
    }
    d.name = *name;
    d.dtype = pdrt_dtype_from_name(dtype->c_str());
    if (d.dtype == PDRT_DTYPE_INVALID) {
      error = "tensor '" + d.name + "' has unknown dtype '" + *dtype + "'";
      return false;
    }
    for (const Json &dim : *shape) {
      if (!dim.is_number_integer()) {
        error = "tensor '" + d.name + "' has a shape that is not a list of integers";
        return false;
      }
      d.shape.push_back(dim.get<int64_t>());
    }
    if (weights && (!countMember(t, "offset", d.offset) || !countMember(t, "nbytes", d.nbytes))) {
      error = "weight '" + d.name + "' lacks offset or nbytes";
      return false;
    }
    if (const Json *tr = member(t, "trainable"))
      d.trainable = tr->is_boolean() && tr->get<bool>();
    if (const Json *c = member(t, "classes")) {
      if (!c->is_number_integer() || c->get<int64_t>() < 1) {
        error = "input '" + d.name + "' has a 'classes' that is not a positive integer";
        return false;
      }
      d.classes = c->get<int64_t>();
      if (const Json *ig = member(t, "ignore_index"); ig && ig->is_number_integer())
        d.ignoreIndex = ig->get<int64_t>();
    }
    out.push_back(std::move(d));
  }
  return true;
}

/// Parses manifest.json. nlohmann's messages read "[json.exception...]
/// parse error at line L, column C: <reason>"; this keeps the reason and
/// the byte offset, on one line.
static bool parseManifest(const std::string &text, Json &out, std::string &error) {
  try {
    out = Json::parse(text);
    return true;
  } catch (const Json::parse_error &e) {
    std::string what = e.what();
    size_t colon = what.find(": ");
    error = (colon == std::string::npos ? what : what.substr(colon + 2)) + " at byte " +
            std::to_string(e.byte);
    return false;
  }
}

pdrt_status pdrt_model_load(const char *dirArg, pdrt_model **out) {
  if (!dirArg || !out)
    return fail(PDRT_ERR_INVALID_ARGUMENT, "pdrt_model_load: null argument");
  *out = nullptr;
  std::string dir = dirArg, text, error;
  std::string manifestPath = dir + "/manifest.json";
  if (!readFile(manifestPath, text))
    return fail(PDRT_ERR_IO,
                "cannot read '" + manifestPath + "' (is '" + dir + "' an artifact directory?)");
  Json m;
  if (!parseManifest(text, m, error))
    return fail(PDRT_ERR_FORMAT, "'" + manifestPath + "' is not valid JSON: " + error);
  const std::string *format = stringMember(m, "format");
  if (!format || *format != "paddle-mlir-artifact")
    return fail(PDRT_ERR_FORMAT, "'" + manifestPath + "' is not a paddle-mlir artifact manifest");
  auto model = std::make_unique<pdrt_model>();
  model->dir = dir;
  const std::string *name = stringMember(m, "name"), *lib = stringMember(m, "library"),
                    *wfile = stringMember(m, "weights_file"), *fp = stringMember(m, "fingerprint"),
                    *sum = stringMember(m, "weights_checksum");
  uint64_t wbytes = 0;
  if (!name || !lib || !wfile || !countMember(m, "weights_bytes", wbytes) || !fp || !sum)
    return fail(PDRT_ERR_FORMAT,
                "'" + manifestPath + "' lacks name, library, weights or fingerprint fields");
  model->name = *name;
  model->fingerprint = *fp;
  // The target: {"kind": "cpu", ...} or {"kind": "cuda", "arch": ...}
  // (artifacts of earlier versions say "target": "cpu").
  if (const Json *target = member(m, "target")) {
    const std::string *kind = target->is_string() ? target->get_ptr<const Json::string_t *>()
                                                  : stringMember(*target, "kind");
    model->target = kind ? runtimeTarget(*kind) : nullptr;
    if (!model->target)
      return badTarget(manifestPath);
    if (pdrt_status st = model->target->readTarget(model.get(), target, manifestPath))
      return st;
  }
  if (const Json *c = member(m, "communication"))
    if (!c->is_object() || !countMember(*c, "collectives", model->collectives))
      return fail(PDRT_ERR_FORMAT,
                  "'" + manifestPath + "': communication lacks a collectives count");
  if (const Json *part = member(m, "partition"); part && part->is_object()) {
    const std::string *mode = stringMember(*part, "mode");
    const Json *stages = member(*part, "stages");
    if (mode && *mode == "pipeline") {
      if (!stages || !stages->is_array())
        return fail(PDRT_ERR_FORMAT, "'" + manifestPath + "': a pipeline partition lacks stages");
      for (const Json &st : *stages) {
        const Json *names = member(st, "weights");
        const std::string *stageSum = stringMember(st, "weights_checksum");
        if (!names || !names->is_array() || !stageSum)
          return fail(PDRT_ERR_FORMAT,
                      "'" + manifestPath + "': a pipeline stage lacks weights or weights_checksum");
        pdrt_model::StageWeights sw;
        sw.checksum = *stageSum;
        for (const Json &n : *names) {
          if (!n.is_string())
            return fail(PDRT_ERR_FORMAT,
                        "'" + manifestPath + "': a pipeline stage's weights are not names");
          sw.names.push_back(n.get<std::string>());
        }
        if (const Json *owns = member(st, "owns"); owns && owns->is_array())
          for (const Json &n : *owns)
            if (n.is_string())
              sw.owns.push_back(n.get<std::string>());
        model->stages.push_back(std::move(sw));
      }
    }
  }
  if (const Json *inf = member(m, "inference_model")) {
    const std::string *prog = stringMember(*inf, "program"), *prm = stringMember(*inf, "params");
    const Json *slots = member(*inf, "weights");
    if (!prog || !prm || !slots || !slots->is_array())
      return fail(PDRT_ERR_FORMAT,
                  "'" + manifestPath + "': inference_model lacks program, params or weights");
    model->inferenceProgram = *prog;
    model->inferenceParams = *prm;
    for (const Json &slot : *slots) {
      pdrt_model::InferenceSlot s;
      const std::string *n = stringMember(slot, "name");
      if (!n || !countMember(slot, "offset", s.offset) || !countMember(slot, "nbytes", s.nbytes))
        return fail(PDRT_ERR_FORMAT, "'" + manifestPath +
                                         "': an inference_model weight lacks name, offset or "
                                         "nbytes");
      s.name = *n;
      model->inferenceSlots.push_back(std::move(s));
    }
  }
  if (!parseTensors(m, "inputs", model->inputs, false, error) ||
      !parseTensors(m, "outputs", model->outputs, false, error) ||
      !parseTensors(m, "weights", model->weights, true, error))
    return fail(PDRT_ERR_FORMAT, "'" + manifestPath + "': " + error);

  // Weights: the file mapped (page aligned, zeros after its end), checked
  // against size and checksum.
  std::string weightsPath = dir + "/" + *wfile;
  if (!model->weightFile.map(weightsPath, error))
    return fail(PDRT_ERR_IO, error);
  size_t nbytes = model->weightFile.bytes;
  if (nbytes != wbytes)
    return fail(PDRT_ERR_FORMAT, "weights file '" + weightsPath + "' has " +
                                     std::to_string(nbytes) + " bytes, the manifest says " +
                                     std::to_string(wbytes));
  model->weightBytes = nbytes;
  model->weightData = model->weightFile.data;
  // The whole file's checksum; a pipeline's rank checks its stage's
  // weights instead, once it knows its rank (below).
  auto checkWhole = [&]() -> pdrt_status {
    char hex[17];
    std::snprintf(hex, sizeof(hex), "%016llx",
                  static_cast<unsigned long long>(checksum(model->weightData, nbytes)));
    if (*sum == hex)
      return PDRT_OK;
    return fail(PDRT_ERR_FORMAT, "weights file '" + weightsPath + "' is corrupted (checksum " +
                                     hex + ", manifest " + *sum + ")");
  };
  if (model->stages.empty())
    if (pdrt_status s = checkWhole(); s != PDRT_OK)
      return s;
  for (const auto &w : model->weights) {
    if (w.offset > nbytes || w.nbytes > nbytes - w.offset || w.offset % 64 != 0)
      return fail(PDRT_ERR_FORMAT, "weight '" + w.name + "' lies outside the weights file");
    // A trained weight's initial value is read again only when an instance
    // is created (which copies it); until then it need not stay resident.
    if (w.trainable)
      model->weightFile.release(w.offset, w.nbytes);
  }
  // A train step's outputs that hold a trained weight's new value.
  {
    const Json *outs = member(m, "outputs");
    for (size_t i = 0; i < model->outputs.size(); ++i) {
      const std::string *upd = stringMember((*outs)[i], "updates");
      if (!upd)
        continue;
      for (size_t w = 0; w < model->weights.size(); ++w)
        if (model->weights[w].name == *upd && model->weights[w].trainable &&
            model->weights[w].shape == model->outputs[i].shape &&
            model->weights[w].dtype == model->outputs[i].dtype)
          model->outputs[i].updates = (int64_t)w;
      if (model->outputs[i].updates < 0)
        return fail(PDRT_ERR_FORMAT, "'" + manifestPath + "': output '" + model->outputs[i].name +
                                         "' updates '" + *upd +
                                         "', which is not a trainable weight of its shape");
    }
  }

  std::string libPath = dir + "/" + *lib;
  model->library = dlopen(libPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!model->library) {
    const char *e = dlerror();
    return fail(PDRT_ERR_IO, "cannot load '" + libPath + "': " + (e ? e : "unknown error"));
  }
  model->entry = reinterpret_cast<void (*)(void **)>(dlsym(model->library, "pd_entry"));
  model->arenaBytes =
      reinterpret_cast<int64_t (*)(void **)>(dlsym(model->library, "pd_arena_bytes"));
  const char *libFp = static_cast<const char *>(dlsym(model->library, "pd_model_fingerprint"));
  model->takeKernelError =
      reinterpret_cast<const char *(*)()>(dlsym(model->library, "pdk_take_error"));
  model->setNumThreads =
      reinterpret_cast<void (*)(int64_t)>(dlsym(model->library, "pdk_set_num_threads"));
  model->inParallel = reinterpret_cast<int64_t (*)()>(dlsym(model->library, "pdk_in_parallel"));
  {
    // The code's heap buffers, under each run's budget (Heap.h). A
    // library whose code frees buffers allocates them here too.
    auto *mallocSlot = static_cast<void **>(dlsym(model->library, "pd_heap_malloc"));
    auto *freeSlot = static_cast<void **>(dlsym(model->library, "pd_heap_free"));
    if (mallocSlot)
      *mallocSlot = reinterpret_cast<void *>(&pdrt::heap::allocate);
    if (freeSlot)
      *freeSlot = reinterpret_cast<void *>(&pdrt::heap::release);
    model->heapHooked = mallocSlot != nullptr;
  }
  model->commWorld = reinterpret_cast<const char *(*)(int64_t *, int64_t *)>(
      dlsym(model->library, "pdk_comm_world"));
  model->collective = reinterpret_cast<void (*)(const int64_t *, const int64_t *, const float *)>(
      dlsym(model->library, "pdk_collective"));
  if (model->collectives > 0 && !model->commWorld)
    return fail(PDRT_ERR_FORMAT, "'" + libPath +
                                     "' has collective ops but no communicator (pdk_comm_world; "
                                     "is libpdrt_kernels.so beside it?)");
  if (!model->stages.empty()) {
    // Pipeline stage k runs on rank k and reads only its own weights: they
    // are checked, the others' pages released (never read). In a job of
    // another size every rank checks the whole file, and the run reports
    // the size (pd.is_stage).
    int64_t rank = -1, size = 0;
    const char *err = model->commWorld ? model->commWorld(&rank, &size) : "no communicator";
    if (err || size != static_cast<int64_t>(model->stages.size()) || rank < 0 || rank >= size) {
      if (pdrt_status s = checkWhole(); s != PDRT_OK)
        return s;
    } else {
      const pdrt_model::StageWeights &stage = model->stages[static_cast<size_t>(rank)];
      std::vector<bool> mine(model->weights.size(), false);
      uint64_t h = checksum(nullptr, 0);
      for (const std::string &n : stage.names) {
        size_t w = 0;
        while (w < model->weights.size() && model->weights[w].name != n)
          ++w;
        if (w == model->weights.size())
          return fail(PDRT_ERR_FORMAT, "'" + manifestPath + "': pipeline stage " +
                                           std::to_string(rank) + " reads weight '" + n +
                                           "', which the artifact does not have");
        mine[w] = true;
        h = checksum(model->weightData + model->weights[w].offset, model->weights[w].nbytes, h);
      }
      char hex[17];
      std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(h));
      if (stage.checksum != hex)
        return fail(PDRT_ERR_FORMAT, "weights file '" + weightsPath +
                                         "' is corrupted in the weights of pipeline stage " +
                                         std::to_string(rank) + " (checksum " + hex +
                                         ", manifest " + stage.checksum + ")");
      for (size_t w = 0; w < model->weights.size(); ++w)
        if (!mine[w])
          model->weightFile.release(model->weights[w].offset, model->weights[w].nbytes);
      model->stageUses = std::move(mine);
    }
  }
  if (!model->entry || !model->arenaBytes || !libFp)
    return fail(PDRT_ERR_FORMAT, "'" + libPath + "' is not a paddle-mlir model library");
  if (pdrt_status st = model->target->bindLibrary(model.get(), libPath))
    return st;
  if (*fp != libFp)
    return fail(PDRT_ERR_FORMAT, "'" + libPath + "' was compiled for another model (fingerprint " +
                                     libFp + ", manifest " + *fp + ")");
  // The kernel library is shared by every model of the process (one
  // soname): one from another build may read this model's calls otherwise.
  // (Libraries from before the check have no pd_kernel_abi; cuda ones may
  // have no kernel library.)
  auto wantAbi = static_cast<const int64_t *>(dlsym(model->library, "pd_kernel_abi"));
  auto kernelAbi = reinterpret_cast<int64_t (*)()>(dlsym(model->library, "pdk_abi_version"));
  if (wantAbi && kernelAbi && *wantAbi != kernelAbi())
    return fail(PDRT_ERR_FORMAT,
                "'" + libPath + "' was compiled for kernel ABI " + std::to_string(*wantAbi) +
                    ", but the libpdrt_kernels.so this process loaded (shared by all its models) "
                    "has ABI " +
                    std::to_string(kernelAbi()) +
                    ": the artifact comes from another build of paddle-mlir; recompile it, or "
                    "load it in a process of its own");
  pdrt::startLoadMeter();
  *out = model.release();
  return PDRT_OK;
}

void pdrt_model_free(pdrt_model *model) { delete model; }

pdrt_status pdrt_model_ranks(const pdrt_model *model, int64_t *rank, int64_t *size) {
  if (!model || !rank || !size)
    return fail(PDRT_ERR_INVALID_ARGUMENT, "pdrt_model_ranks: null argument");
  *rank = 0;
  *size = 1;
  if (model->collectives == 0)
    return PDRT_OK; // runs alone: no communicator
  if (const char *err = model->commWorld(rank, size))
    return fail(PDRT_ERR_STATE,
                std::string("model '") + model->name + "': cannot start the communicator: " + err);
  return PDRT_OK;
}
const char *pdrt_model_name(const pdrt_model *m) { return m ? m->name.c_str() : ""; }
int64_t pdrt_model_num_inputs(const pdrt_model *m) { return m ? (int64_t)m->inputs.size() : 0; }
int64_t pdrt_model_num_outputs(const pdrt_model *m) { return m ? (int64_t)m->outputs.size() : 0; }

static const TensorDesc *at(const std::vector<TensorDesc> &v, int64_t i) {
  return i >= 0 && i < (int64_t)v.size() ? &v[i] : nullptr;
}
#define PDRT_ACCESSORS(KIND, LIST)                                                                 \
  const char *pdrt_model_##KIND##_name(const pdrt_model *m, int64_t i) {                           \
    const TensorDesc *d = m ? at(m->LIST, i) : nullptr;                                            \
    return d ? d->name.c_str() : nullptr;                                                          \
  }                                                                                                \
  pdrt_dtype pdrt_model_##KIND##_dtype(const pdrt_model *m, int64_t i) {                           \
    const TensorDesc *d = m ? at(m->LIST, i) : nullptr;                                            \
    return d ? d->dtype : PDRT_DTYPE_INVALID;                                                      \
  }                                                                                                \
  int64_t pdrt_model_##KIND##_rank(const pdrt_model *m, int64_t i) {                               \
    const TensorDesc *d = m ? at(m->LIST, i) : nullptr;                                            \
    return d ? (int64_t)d->shape.size() : -1;                                                      \
  }                                                                                                \
  const int64_t *pdrt_model_##KIND##_shape(const pdrt_model *m, int64_t i) {                       \
    const TensorDesc *d = m ? at(m->LIST, i) : nullptr;                                            \
    return d ? d->shape.data() : nullptr;                                                          \
  }
PDRT_ACCESSORS(input, inputs)
PDRT_ACCESSORS(output, outputs)
#undef PDRT_ACCESSORS

const char *pdrt_model_target(const pdrt_model *m) { return m ? m->target->kind() : "cpu"; }

pdrt_status pdrt_instance_create(const pdrt_model *model, pdrt_instance **out) {
  return pdrt_instance_create_on(model, model ? model->target->kind() : "cpu", out);
}

/// Opens device `ordinal` for a cuda artifact's instance and uploads the
/// weights.
static pdrt_status openDevice(pdrt_instance *inst, int ordinal) {
  const pdrt_model *m = inst->model;
  const auto &cu = m->cu;
  char name[256] = {};
  if (const char *err = cu.open(ordinal, &inst->device, name, sizeof(name)))
    return fail(PDRT_ERR_DEVICE, "model '" + m->name + "' (cuda, " + m->arch + "): " + err);
  if (m->emulated && (!cu.deviceMemoryIsHost || !cu.deviceMemoryIsHost()))
    return fail(PDRT_ERR_DEVICE, "model '" + m->name +
                                     "' was compiled with --cuda-emulate: its kernels are host "
                                     "code that needs a CUDA driver whose device memory is host "
                                     "memory (the tests' stand-in); recompile without "
                                     "--cuda-emulate to run it on a GPU");
  // A driver runs cubins of its own CUDA major version or older ones
  // (NVIDIA's minor version compatibility); a newer toolkit's fail to load
  // at the first launch, so they are refused here, saying why.
  if (int driverVersion = cu.driverVersion ? cu.driverVersion() : 0;
      driverVersion > 0 && !m->cudaVersion.empty() &&
      driverVersion / 1000 < std::atoi(m->cudaVersion.c_str())) {
    std::string driverRelease =
        std::to_string(driverVersion / 1000) + "." + std::to_string(driverVersion % 1000 / 10);
    return fail(PDRT_ERR_DEVICE, "model '" + m->name + "' has kernels assembled by the CUDA " +
                                     m->cudaVersion +
                                     " toolkit, but the CUDA driver supports CUDA " +
                                     driverRelease + " only: install a driver for CUDA " +
                                     m->cudaVersion.substr(0, m->cudaVersion.find('.')) +
                                     " or later, or recompile with an older toolkit "
                                     "(PADDLE_MLIR_CUDA_TOOLKIT)");
  }
  int cc = cu.arch(inst->device);
  std::string have = "sm_" + std::to_string(cc);
  // A cubin runs on its own architecture (sm_90a's on sm_90 only).
  std::string want = m->arch.back() == 'a' ? m->arch.substr(0, m->arch.size() - 1) : m->arch;
  if (have != want)
    return fail(PDRT_ERR_DEVICE, "model '" + m->name + "' has kernels for " + m->arch +
                                     ", but cuda:" + std::to_string(ordinal) + " (" + name +
                                     ") is " + have + ": recompile with --cuda-arch " + have);
  {
    std::lock_guard<std::mutex> lock(m->deviceWeightsMutex);
    auto &shared = m->deviceWeights[ordinal];
    if (!shared.ptr) {
      // The weights file, or a pipeline stage's weights packed.
      bool packed = !m->deviceAt.empty();
      void *ptr = nullptr;
      const char *err =
          cu.alloc(inst->device, (packed ? m->deviceBytes : m->weightBytes) + 64, &ptr);
      if (!err && !packed)
        err = cu.copy(inst->device, ptr, m->weightData, m->weightBytes, 1);
      for (size_t w = 0; !err && packed && w < m->weights.size(); ++w)
        if (m->deviceAt[w] >= 0)
          err = cu.copy(inst->device, static_cast<char *>(ptr) + m->deviceAt[w],
                        m->weightData + m->weights[w].offset, m->weights[w].nbytes, 1);
      if (err && ptr)
        cu.free(inst->device, ptr);
      if (err) {
        m->deviceWeights.erase(ordinal);
        return fail(PDRT_ERR_DEVICE, "model '" + m->name + "': weights: " + err);
      }
      shared.ptr = ptr;
    }
    ++shared.instances;
    inst->ordinal = ordinal;
    inst->deviceWeights = shared.ptr;
  }
  inst->deviceInputs.assign(m->inputs.size(), nullptr);
  inst->deviceInputBytes.assign(m->inputs.size(), 0);
  // A train step's trained weights: the instance's own device copies.
  inst->deviceParams.assign(m->weights.size(), nullptr);
  for (size_t w = 0; w < m->weights.size(); ++w) {
    // (Another pipeline stage's are zeros, as on the CPU: the step hands
    // them back through a copy.)
    if (!inst->params[w])
      continue;
    const TensorDesc &d = m->weights[w];
    const char *err = cu.alloc(inst->device, d.nbytes + 64, &inst->deviceParams[w]);
    if (!err)
      err = cu.copy(inst->device, inst->deviceParams[w], inst->params[w], d.nbytes, 1);
    if (err)
      return fail(PDRT_ERR_DEVICE,
                  "model '" + m->name + "': trained weight '" + d.name + "': " + err);
  }
  // The library calls' algorithms are chosen now, so that a missing or
  // failing cuBLASLt / cuDNN shows at load, and their workspace is known
  // before the arena is allocated.
  if (cu.planLibraryCalls) {
    cu.beginRun(inst->device);
    cu.planLibraryCalls();
    if (const char *err = cu.endRun(inst->device))
      return fail(PDRT_ERR_DEVICE, "model '" + m->name + "' (cuda, " + m->arch +
                                       "): choosing the library calls' algorithms: " + err);
  }
  inst->workspaceBytes = cu.workspaceBytes(inst->device);
  return PDRT_OK;
}

pdrt_status pdrt_instance_create_on(const pdrt_model *model, const char *deviceArg,
                                    pdrt_instance **out) {
  if (!model || !out || !deviceArg)
    return fail(PDRT_ERR_INVALID_ARGUMENT, "pdrt_instance_create: null argument");
  *out = nullptr;
  // "cpu", "cuda" (this rank's device in a job, cuda:0 alone) or "cuda:N".
  std::string device = deviceArg, kind = device.substr(0, device.find(':'));
  int ordinal = -1;
  if (kind == "cuda" && device.size() > 5 &&
      device.find_first_not_of("0123456789", 5) == std::string::npos && device.size() < 12)
    ordinal = std::stoi(device.substr(5));
  else if (device != "cpu" && device != "cuda")
    return fail(PDRT_ERR_INVALID_ARGUMENT,
                "device '" + device + "' is not 'cpu', 'cuda' or 'cuda:N'");
  if (kind != model->target->kind())
    return fail(PDRT_ERR_INVALID_ARGUMENT, "model '" + model->name + "' is a " +
                                               model->target->kind() +
                                               " artifact; it cannot run on '" + device +
                                               "' (recompile with --target " + kind + ")");
  auto *inst = new (std::nothrow) pdrt_instance{model, {}, {}, {}, {}, false, nullptr, 0};
  if (!inst)
    return fail(PDRT_ERR_INTERNAL, "out of memory");
  inst->inputData.assign(model->inputs.size(), nullptr);
  inst->inputShapes.resize(model->inputs.size());
  inst->params.assign(model->weights.size(), nullptr);
  inst->mappedParams.assign(model->weights.size(), 0);
  for (size_t w = 0; w < model->weights.size(); ++w) {
    const TensorDesc &d = model->weights[w];
    if (!d.trainable)
      continue;
    if (!model->stageUses.empty() && !model->stageUses[w]) {
      // Another pipeline stage's weight is never read or written here
      // (this rank's step hands it back in place): zero pages of the
      // kernel's, which cost no memory until touched, not the file's bytes.
      size_t bytes = (d.nbytes + 64 + 4095) / 4096 * 4096;
      void *p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p != MAP_FAILED) {
        inst->params[w] = static_cast<unsigned char *>(p);
        inst->mappedParams[w] = bytes;
      }
    } else {
      inst->params[w] =
          static_cast<unsigned char *>(std::aligned_alloc(64, (d.nbytes + 63) / 64 * 64 + 64));
      if (inst->params[w])
        std::memcpy(inst->params[w], model->weightData + d.offset, d.nbytes);
    }
    if (!inst->params[w]) {
      delete inst;
      return fail(PDRT_ERR_INTERNAL, "out of memory for the trained weight '" + d.name + "'");
    }
    model->weightFile.release(d.offset, d.nbytes);
  }
  if (pdrt_status st = model->target->open(inst, ordinal)) {
    delete inst;
    return st;
  }
  *out = inst;
  return PDRT_OK;
}

void pdrt_instance_free(pdrt_instance *inst) { delete inst; }

static std::string shapeStr(const int64_t *s, int64_t r) {
  std::string out = "[";
  for (int64_t i = 0; i < r; ++i)
    out += (i ? ", " : "") + (s[i] < 0 ? std::string("?") : std::to_string(s[i]));
  return out + "]";
}

pdrt_status pdrt_set_input(pdrt_instance *inst, const char *name, pdrt_dtype dtype,
                           const int64_t *shape, int64_t rank, const void *data) {
  // A tensor without elements needs no data.
  bool empty = false;
  for (int64_t k = 0; shape && k < rank; ++k)
    empty = empty || shape[k] == 0;
  if (!inst || !name || (!shape && rank > 0) || (!data && !empty))
    return fail(PDRT_ERR_INVALID_ARGUMENT, "pdrt_set_input: null argument");
  const pdrt_model *m = inst->model;
  for (size_t i = 0; i < m->inputs.size(); ++i) {
    const TensorDesc &d = m->inputs[i];
    if (d.name != name)
      continue;
    if (dtype != d.dtype)
      return fail(PDRT_ERR_INVALID_ARGUMENT, "input '" + d.name + "' must be " +
                                                 pdrt_dtype_name(d.dtype) + ", got " +
                                                 pdrt_dtype_name(dtype));
    if (rank != (int64_t)d.shape.size())
      return fail(PDRT_ERR_INVALID_ARGUMENT,
                  "input '" + d.name + "' must have rank " + std::to_string(d.shape.size()) + " " +
                      shapeStr(d.shape.data(), d.shape.size()) + ", got rank " +
                      std::to_string(rank) + " " + shapeStr(shape, rank));
    for (int64_t k = 0; k < rank; ++k) {
      if (shape[k] < 0)
        return fail(PDRT_ERR_INVALID_ARGUMENT, "input '" + d.name + "' has a negative dim");
      if (d.shape[k] >= 0 && d.shape[k] != shape[k])
        return fail(PDRT_ERR_INVALID_ARGUMENT, "input '" + d.name + "' dim " + std::to_string(k) +
                                                   " must be " + std::to_string(d.shape[k]) +
                                                   ", got " + std::to_string(shape[k]) +
                                                   " (shape " + shapeStr(shape, rank) + ")");
    }
    // A train step's labels index the classes; one outside them would
    // silently give that row no loss, so it is refused here.
    if (d.classes > 0 && (dtype == PDRT_INT64 || dtype == PDRT_INT32)) {
      int64_t n = 1;
      for (int64_t k = 0; k < rank; ++k)
        n *= shape[k];
      for (int64_t e = 0; e < n; ++e) {
        int64_t v = dtype == PDRT_INT64 ? static_cast<const int64_t *>(data)[e]
                                        : static_cast<const int32_t *>(data)[e];
        if ((v < 0 || v >= d.classes) && v != d.ignoreIndex)
          return fail(PDRT_ERR_INVALID_ARGUMENT,
                      "input '" + d.name + "': label " + std::to_string(v) + " at element " +
                          std::to_string(e) + " is outside [0, " + std::to_string(d.classes) +
                          ") (the model has " + std::to_string(d.classes) + " classes)");
      }
    }
    // An empty tensor gets a valid (never read) address, so "set" stays
    // distinguishable from "not set".
    alignas(64) static const char noElements[64] = {};
    inst->inputData[i] = data ? data : noElements;
    inst->inputShapes[i].assign(shape, shape + rank);
    return PDRT_OK;
  }
  std::string known;
  for (const auto &d : m->inputs)
    known += (known.empty() ? "" : ", ") + d.name;
  return fail(PDRT_ERR_INVALID_ARGUMENT, std::string("model '") + m->name + "' has no input '" +
                                             name + "' (inputs: " + known + ")");
}

/// Appends a memref descriptor (allocated, aligned, offset, sizes[r],
/// strides[r]) of a dense row-major tensor.
static void appendDescriptor(std::vector<int64_t> &buf, const void *data, const int64_t *shape,
                             size_t rank) {
  int64_t p;
  std::memcpy(&p, &data, sizeof(p));
  buf.push_back(p);
  buf.push_back(p);
  buf.push_back(0);
  buf.insert(buf.end(), shape, shape + rank);
  size_t at = buf.size();
  buf.resize(at + rank);
  int64_t stride = 1;
  for (size_t k = rank; k-- > 0;) {
    buf[at + k] = stride;
    stride *= shape[k];
  }
}

/// Copies a strided tensor of `rank` dims into dense `out` (one memcpy when
/// it is already dense).
static void copyDense(char *out, const char *base, const int64_t *sizes, const int64_t *strides,
                      size_t rank, int64_t esize, int64_t numel) {
  bool dense = true;
  int64_t expect = 1;
  for (size_t k = rank; k-- > 0;) {
    dense = dense && (sizes[k] == 1 || strides[k] == expect);
    expect *= sizes[k];
  }
  if (dense) {
    if (numel)
      std::memcpy(out, base, numel * esize);
    return;
  }
  int64_t idx[16] = {}; // the compiler's ranks stay far below 16
  for (int64_t e = 0; e < numel; ++e) {
    int64_t off = 0;
    for (size_t k = 0; k < rank; ++k)
      off += idx[k] * strides[k];
    std::memcpy(out + e * esize, base + off * esize, esize);
    for (size_t k = rank; k-- > 0;) {
      if (++idx[k] < sizes[k])
        break;
      idx[k] = 0;
    }
  }
}

/// After the inputs' descriptors: appends the weights' (weight w at
/// `weightAt(w)`) and a placeholder for the arena's, which goes last; sizes
/// the result descriptors and points the entry's arguments at them all.
/// Returns the arena size the input dims need (pd_arena_bytes does not
/// read the arena's descriptor).
extern "C++" {
template <typename WeightAt> int64_t bindArguments(pdrt_instance *inst, WeightAt weightAt) {
  const pdrt_model *m = inst->model;
  std::vector<int64_t> &words = inst->descWords;
  std::vector<size_t> &starts = inst->descStarts;
  for (size_t w = 0; w < m->weights.size(); ++w) {
    starts.push_back(words.size());
    appendDescriptor(words, weightAt(w), m->weights[w].shape.data(), m->weights[w].shape.size());
  }
  starts.push_back(words.size());
  int64_t noArena = 0;
  appendDescriptor(words, nullptr, &noArena, 1);
  size_t resultWords = 0;
  for (const auto &o : m->outputs)
    resultWords += 3 + 2 * o.shape.size();
  inst->results.assign(resultWords, 0);
  inst->args.clear();
  inst->args.push_back(inst->results.data());
  for (size_t start : starts)
    inst->args.push_back(words.data() + start);
  return m->arenaBytes(inst->args.data());
}
} // extern "C++"

/// Fills in the arena's descriptor (in place: the arguments keep pointing
/// at it).
static void bindArena(pdrt_instance *inst, void *arena) {
  std::vector<int64_t> &words = inst->descWords;
  words.resize(inst->descStarts.back());
  int64_t bytes = (int64_t)inst->arenaBytes;
  appendDescriptor(words, arena, &bytes, 1);
}

/// pdrt_run of a cuda artifact: inputs copied to the device, @main's
/// launches on the instance's stream, outputs copied back.
static pdrt_status runOnDevice(pdrt_instance *inst) {
  const pdrt_model *m = inst->model;
  const auto &cu = m->cu;
  auto deviceError = [&](const char *what, const char *err) {
    return fail(PDRT_ERR_DEVICE, "model '" + m->name + "' on the device: " + what + ": " + err);
  };
  std::vector<int64_t> &words = inst->descWords;
  std::vector<size_t> &starts = inst->descStarts;
  words.clear();
  starts.clear();
  for (size_t i = 0; i < m->inputs.size(); ++i) {
    const std::vector<int64_t> &shape = inst->inputShapes[i];
    size_t bytes = pdrt_dtype_size(m->inputs[i].dtype);
    for (int64_t d : shape)
      bytes *= d;
    if (bytes > inst->deviceInputBytes[i]) {
      cu.free(inst->device, inst->deviceInputs[i]);
      inst->deviceInputs[i] = nullptr;
      inst->deviceInputBytes[i] = 0;
      if (const char *err = cu.alloc(inst->device, bytes, &inst->deviceInputs[i]))
        return deviceError(("input '" + m->inputs[i].name + "'").c_str(), err);
      inst->deviceInputBytes[i] = bytes;
    }
    if (const char *err =
            cu.copy(inst->device, inst->deviceInputs[i], inst->inputData[i], bytes, 1))
      return deviceError(("input '" + m->inputs[i].name + "'").c_str(), err);
    starts.push_back(words.size());
    appendDescriptor(words, inst->deviceInputs[i], shape.data(), shape.size());
  }
  int64_t need = bindArguments(inst, [&](size_t w) -> const void * {
    if (inst->deviceParams[w])
      return inst->deviceParams[w];
    if (!m->deviceAt.empty()) // a pipeline stage's: null for the others'
      return m->deviceAt[w] < 0 ? nullptr
                                : static_cast<char *>(inst->deviceWeights) + m->deviceAt[w];
    return static_cast<char *>(inst->deviceWeights) + m->weights[w].offset;
  });
  std::vector<int64_t> &results = inst->results;
  std::vector<void *> &args = inst->args;
  if (need < 0)
    return fail(PDRT_ERR_INTERNAL, "model '" + m->name + "' computed a negative arena size");
  if ((size_t)need > inst->arenaBytes || !inst->deviceArena) {
    cu.free(inst->device, inst->deviceArena);
    inst->deviceArena = nullptr;
    inst->arenaBytes = 0;
    // The libraries' workspace follows the activations, 256-byte aligned.
    size_t at = ((size_t)need + 255) / 256 * 256;
    if (const char *err = cu.alloc(inst->device, at + inst->workspaceBytes, &inst->deviceArena))
      return deviceError("the activation arena", err);
    inst->arenaBytes = need;
    cu.setWorkspace(inst->device, static_cast<char *>(inst->deviceArena) + at);
  }
  bindArena(inst, inst->deviceArena);
  cu.beginRun(inst->device);
  m->entry(args.data());
  if (const char *err = cu.endRun(inst->device))
    return deviceError("running", err);
  inst->lastThreads = 1;
  inst->outputData.resize(m->outputs.size());
  inst->outputShapes.resize(m->outputs.size());
  inst->outputInPlace.assign(m->outputs.size(), 0);
  size_t word = 0;
  bool updated = false;
  for (size_t i = 0; i < m->outputs.size(); ++i) {
    const TensorDesc &d = m->outputs[i];
    size_t r = d.shape.size();
    char *aligned;
    std::memcpy(&aligned, &results[word + 1], sizeof(void *));
    int64_t offset = results[word + 2];
    const int64_t *sizes = &results[word + 3], *strides = &results[word + 3 + r];
    word += 3 + 2 * r;
    int64_t esize = pdrt_dtype_size(d.dtype), numel = 1, extent = 1;
    for (size_t k = 0; k < r; ++k) {
      numel *= sizes[k];
      extent += (sizes[k] - 1) * strides[k];
    }
    inst->outputShapes[i].assign(sizes, sizes + r);
    auto &buf = inst->outputData[i];
    buf.resize(numel * esize);
    if (numel == 0)
      continue;
    // The output's span on the device, then its elements in row-major order.
    inst->staging.resize(extent * esize);
    if (const char *err = cu.copy(inst->device, inst->staging.data(), aligned + offset * esize,
                                  extent * esize, 0))
      return deviceError(("output '" + d.name + "'").c_str(), err);
    copyDense(buf.data(), inst->staging.data(), sizes, strides, r, esize, numel);
    // A train step's update: the weight of the next step, in the host copy
    // and on the device (unless the step wrote it there in place).
    if (d.updates >= 0) {
      size_t w = d.updates, bytes = std::min<size_t>(m->weights[w].nbytes, buf.size());
      std::memcpy(inst->params[w], buf.data(), bytes);
      if (aligned + offset * esize != inst->deviceParams[w])
        if (const char *err = cu.copy(inst->device, inst->deviceParams[w], buf.data(), bytes, 1))
          return deviceError(("trained weight '" + m->weights[w].name + "'").c_str(), err);
      updated = true;
    }
  }
  inst->steps += updated;
  inst->ran = true;
  return PDRT_OK;
}

pdrt_status pdrt_run(pdrt_instance *inst) {
  if (!inst)
    return fail(PDRT_ERR_INVALID_ARGUMENT, "pdrt_run: null instance");
  const pdrt_model *m = inst->model;
  for (size_t i = 0; i < m->inputs.size(); ++i)
    if (!inst->inputData[i])
      return fail(PDRT_ERR_STATE,
                  "input '" + m->inputs[i].name + "' of model '" + m->name + "' is not set");
  for (const auto &o : m->outputs)
    if (o.shape.size() > 16)
      return fail(PDRT_ERR_INTERNAL, "output '" + o.name + "' has more than 16 dims");
  inst->ran = false;
  return m->target->run(inst);
}

/// pdrt_run of a CPU artifact: @main on the host, its outputs copied out.
static pdrt_status runOnHost(pdrt_instance *inst) {
  const pdrt_model *m = inst->model;
  // Every buffer below belongs to the instance and keeps its capacity, so
  // runs after the first allocate nothing here. Descriptors go into one
  // word buffer; their addresses are taken once it is complete.
  std::vector<int64_t> &words = inst->descWords;
  std::vector<size_t> &starts = inst->descStarts;
  words.clear();
  starts.clear();
  for (size_t i = 0; i < m->inputs.size(); ++i) {
    starts.push_back(words.size());
    appendDescriptor(words, inst->inputData[i], inst->inputShapes[i].data(),
                     inst->inputShapes[i].size());
  }
  int64_t need = bindArguments(inst, [&](size_t w) { return weightOf(inst, w); });
  std::vector<int64_t> &results = inst->results;
  std::vector<void *> &args = inst->args;
  if (need < 0)
    return fail(PDRT_ERR_INTERNAL, "model '" + m->name + "' computed a negative arena size");
  if ((size_t)need > inst->arenaBytes) {
    // Linux would hand out an arena it cannot back: check what is free
    // first (for large arenas, and always under a set limit).
    bool fromEnv = false;
    size_t avail = (size_t)need > (size_t(256) << 20) || std::getenv("PADDLE_MLIR_MEMORY_LIMIT_MB")
                       ? pdrt::heap::available(fromEnv)
                       : 0;
    if (avail && (size_t)need > avail)
      return fail(PDRT_ERR_INTERNAL,
                  "out of memory: model '" + m->name + "' needs an activation arena of " +
                      std::to_string(((size_t)need + (1 << 19)) >> 20) +
                      " MiB for these input shapes, more than the " +
                      std::to_string((avail + (1 << 19)) >> 20) + " MiB " +
                      (fromEnv ? "PADDLE_MLIR_MEMORY_LIMIT_MB allows" : "this machine has free"));
    std::free(inst->arena);
    inst->arenaBytes = 0;
    inst->arena = static_cast<unsigned char *>(std::aligned_alloc(64, (need + 63) / 64 * 64));
    if (!inst->arena)
      return fail(PDRT_ERR_INTERNAL,
                  "out of memory for an activation arena of " + std::to_string(need) + " bytes");
    inst->arenaBytes = need;
  }
  bindArena(inst, inst->arena ? (void *)inst->arena : (void *)&inst->arenaBytes);
  bool finished;
  inst->budget.inParallel = m->inParallel;
  if (m->setNumThreads) {
    pdrt::RunThreads team(inst->threads);
    m->setNumThreads(team.team());
    inst->lastThreads = team.team();
    finished = pdrt::heap::run(inst->budget, m->entry, args.data());
  } else {
    inst->lastThreads = 1;
    finished = pdrt::heap::run(inst->budget, m->entry, args.data());
  }
  if (!finished) {
    inst->ran = false;
    if (m->takeKernelError)
      (void)m->takeKernelError(); // whatever a kernel reported before is moot
    return fail(PDRT_ERR_INTERNAL, "pdrt_run of model '" + m->name + "': " + inst->budget.error);
  }

  inst->outputData.resize(m->outputs.size());
  inst->outputShapes.resize(m->outputs.size());
  inst->outputInPlace.assign(m->outputs.size(), 0);
  std::vector<void *> &freed = inst->freed;
  freed.clear();
  size_t word = 0;
  for (size_t i = 0; i < m->outputs.size(); ++i) {
    const TensorDesc &d = m->outputs[i];
    size_t r = d.shape.size();
    void *allocated, *aligned;
    std::memcpy(&allocated, &results[word], sizeof(void *));
    std::memcpy(&aligned, &results[word + 1], sizeof(void *));
    int64_t offset = results[word + 2];
    const int64_t *sizes = &results[word + 3], *strides = &results[word + 3 + r];
    word += 3 + 2 * r;
    int64_t esize = pdrt_dtype_size(d.dtype), numel = 1;
    for (size_t k = 0; k < r; ++k)
      numel *= sizes[k];
    inst->outputShapes[i].assign(sizes, sizes + r);
    const char *first = static_cast<const char *>(aligned) + offset * esize;
    if (d.updates >= 0 && first == reinterpret_cast<const char *>(inst->params[d.updates]) &&
        (size_t)(numel * esize) == m->weights[d.updates].nbytes) {
      // Updated in place (pd-externalize-weights): already the new weight.
      inst->outputInPlace[i] = 1;
      inst->outputData[i].clear();
      continue;
    }
    auto &buf = inst->outputData[i];
    buf.resize(numel * esize);
    copyDense(buf.data(), first, sizes, strides, r, esize, numel);
    // Free buffers the model allocated (never inputs, weights or the arena,
    // where the memory plan puts results).
    auto *a = static_cast<unsigned char *>(allocated);
    bool isWeight = (a >= m->weightData && a < m->weightData + m->weightBytes + 64) ||
                    std::find(inst->params.begin(), inst->params.end(), a) != inst->params.end();
    bool isInput = false;
    for (const void *in : inst->inputData)
      isInput |= in == allocated;
    bool isArena = a == inst->arena || allocated == (void *)&inst->arenaBytes;
    if (allocated && !isWeight && !isInput && !isArena &&
        std::find(freed.begin(), freed.end(), allocated) == freed.end()) {
      freed.push_back(allocated);
      if (m->heapHooked)
        pdrt::heap::release(allocated);
      else
        std::free(allocated);
    }
  }
  if (m->takeKernelError)
    if (const char *err = m->takeKernelError()) {
      inst->ran = false;
      return fail(PDRT_ERR_INTERNAL, "pdrt_run: " + std::string(err));
    }
  // A train step's updates become the weights of the next run.
  bool updated = false;
  for (size_t i = 0; i < m->outputs.size(); ++i)
    if (m->outputs[i].updates >= 0) {
      const TensorDesc &w = m->weights[m->outputs[i].updates];
      if (!inst->outputInPlace[i])
        std::memcpy(inst->params[m->outputs[i].updates], inst->outputData[i].data(),
                    std::min<size_t>(w.nbytes, inst->outputData[i].size()));
      updated = true;
    }
  inst->steps += updated;
  inst->ran = true;
  return PDRT_OK;
}

pdrt_status pdrt_instance_set_num_threads(pdrt_instance *inst, int64_t threads) {
  if (!inst)
    return fail(PDRT_ERR_INVALID_ARGUMENT, "pdrt_instance_set_num_threads: null instance");
  if (threads < 0)
    return fail(
        PDRT_ERR_INVALID_ARGUMENT,
        "pdrt_instance_set_num_threads: thread count must be 0 (default) or positive, got " +
            std::to_string(threads));
  inst->threads = threads;
  return PDRT_OK;
}

int64_t pdrt_instance_num_threads(const pdrt_instance *inst) {
  return inst ? inst->lastThreads : 0;
}

int64_t pdrt_default_num_threads(const char **source) {
  const pdrt::ThreadCap &cap = pdrt::defaultThreadCap();
  if (source)
    *source = cap.source;
  return cap.threads;
}

pdrt_status pdrt_get_output(const pdrt_instance *inst, int64_t i, const void **data,
                            const int64_t **shape, int64_t *rank, pdrt_dtype *dtype) {
  if (!inst)
    return fail(PDRT_ERR_INVALID_ARGUMENT, "pdrt_get_output: null instance");
  if (!inst->ran)
    return fail(PDRT_ERR_STATE, "pdrt_get_output: the instance has not run");
  if (i < 0 || i >= (int64_t)inst->outputData.size())
    return fail(PDRT_ERR_INVALID_ARGUMENT,
                "output index " + std::to_string(i) + " is out of range");
  if (data)
    *data = inst->outputInPlace[i]
                ? static_cast<const void *>(inst->params[inst->model->outputs[i].updates])
                : static_cast<const void *>(inst->outputData[i].data());
  if (shape)
    *shape = inst->outputShapes[i].data();
  if (rank)
    *rank = (int64_t)inst->outputShapes[i].size();
  if (dtype)
    *dtype = inst->model->outputs[i].dtype;
  return PDRT_OK;
}

int64_t pdrt_instance_steps(const pdrt_instance *inst) { return inst ? inst->steps : 0; }

/// Writes `data` to `path` through a temporary file renamed over it, so a
/// failure leaves no partial file.
static pdrt_status writeWhole(const std::string &path, const std::string &data) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out || !out.write(data.data(), static_cast<std::streamsize>(data.size())) ||
        !out.flush()) {
      std::remove(tmp.c_str());
      return fail(PDRT_ERR_IO, "cannot write '" + path + "'");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return fail(PDRT_ERR_IO, "cannot write '" + path + "'");
  }
  return PDRT_OK;
}

pdrt_status pdrt_gather_stage_params(pdrt_instance *inst) {
  if (!inst)
    return fail(PDRT_ERR_INVALID_ARGUMENT, "pdrt_gather_stage_params: null instance");
  const pdrt_model *m = inst->model;
  bool owning = std::any_of(m->stages.begin(), m->stages.end(),
                            [](const pdrt_model::StageWeights &s) { return !s.owns.empty(); });
  if (!owning || m->collectives == 0)
    return PDRT_OK; // not a pipeline train step: every rank has its weights
  int64_t rank = 0, size = 1;
  if (const char *err = m->commWorld(&rank, &size))
    return fail(PDRT_ERR_STATE, std::string("cannot start the communicator: ") + err);
  if (size != static_cast<int64_t>(m->stages.size()))
    return fail(PDRT_ERR_STATE, "model '" + m->name + "' is a pipeline of " +
                                    std::to_string(m->stages.size()) + " stages, but the job has " +
                                    std::to_string(size) + " ranks");
  if (!m->collective)
    return fail(PDRT_ERR_FORMAT, "model '" + m->name + "' has no pdk_collective to gather with");
  namespace comm = pdk::comm;
  for (int64_t k = 1; k < size; ++k) {
    if (rank != 0 && rank != k)
      continue;
    for (const std::string &name : m->stages[static_cast<size_t>(k)].owns) {
      size_t w = 0;
      while (w < m->weights.size() && m->weights[w].name != name)
        ++w;
      if (w == m->weights.size() || !inst->params[w])
        return fail(PDRT_ERR_FORMAT, "pipeline stage " + std::to_string(k) + " owns '" + name +
                                         "', which is not a trained weight of the model");
      // Bytes from stage k's rank into rank 0's copy.
      auto nbytes = static_cast<int64_t>(m->weights[w].nbytes);
      int64_t placeholder = 0;
      std::vector<int64_t> ints(comm::NumInts, 0);
      ints[comm::Kind] = rank == k ? comm::Send : comm::Recv;
      ints[comm::Peer] = rank == k ? 0 : k;
      ints[comm::Dtype] = comm::U8;
      ints[comm::Seq] = -1;
      int64_t ptrs[2] = {0, 0};
      if (rank == k) {
        ptrs[comm::Input] = reinterpret_cast<int64_t>(inst->params[w]);
        ptrs[comm::NumSlots] = reinterpret_cast<int64_t>(&placeholder);
        ints.insert(ints.end(), {1, nbytes, 1, 1});
      } else {
        ptrs[comm::NumSlots] = reinterpret_cast<int64_t>(inst->params[w]);
        ints.insert(ints.end(), {1, nbytes});
      }
      m->collective(ptrs, ints.data(), nullptr);
      if (const char *err = m->takeKernelError ? m->takeKernelError() : nullptr)
        return fail(PDRT_ERR_STATE, "gathering '" + name + "' of pipeline stage " +
                                        std::to_string(k) + " on rank 0: " + err);
    }
  }
  return PDRT_OK;
}

pdrt_status pdrt_save_params(const pdrt_instance *inst, const char *dirArg) {
  if (!inst || !dirArg)
    return fail(PDRT_ERR_INVALID_ARGUMENT, "pdrt_save_params: null argument");
  const pdrt_model *m = inst->model;
  if (m->inferenceProgram.empty())
    return fail(PDRT_ERR_STATE,
                "model '" + m->name +
                    "' has no Paddle inference program to save (only train steps compiled by "
                    "paddle-compile --train have one, when their forward program exports)");
  std::string program, params;
  std::string programPath = m->dir + "/" + m->inferenceProgram,
              paramsPath = m->dir + "/" + m->inferenceParams;
  if (!readFile(programPath, program) || !readFile(paramsPath, params))
    return fail(PDRT_ERR_IO, "cannot read '" + programPath + "' or '" + paramsPath + "'");
  // The trained (instance-owned) weights replace their initial values; the
  // others are the model's constants, already in the file.
  for (const auto &slot : m->inferenceSlots) {
    if (slot.offset > params.size() || slot.nbytes > params.size() - slot.offset)
      return fail(PDRT_ERR_FORMAT,
                  "'" + paramsPath + "': parameter '" + slot.name + "' lies outside the file");
    for (size_t w = 0; w < m->weights.size(); ++w)
      if (m->weights[w].name == slot.name && inst->params[w]) {
        if (m->weights[w].nbytes != slot.nbytes)
          return fail(PDRT_ERR_FORMAT, "parameter '" + slot.name + "' has " +
                                           std::to_string(m->weights[w].nbytes) +
                                           " bytes, its record in '" + paramsPath + "' " +
                                           std::to_string(slot.nbytes));
        std::memcpy(&params[slot.offset], inst->params[w], slot.nbytes);
      }
  }
  std::string dir = dirArg;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return fail(PDRT_ERR_IO, "cannot create '" + dir + "': " + ec.message());
  if (pdrt_status st = writeWhole(dir + "/model.pdmodel", program); st != PDRT_OK)
    return st;
  return writeWhole(dir + "/model.pdiparams", params);
}

} // extern "C"

namespace {
constexpr char kCheckpointMagic[8] = {'P', 'D', 'R', 'T', 'C', 'K', 'P', 'T'};
constexpr uint32_t kCheckpointVersion = 1;

template <typename T> void put(std::string &out, T v) {
  out.append(reinterpret_cast<const char *>(&v), sizeof(v));
}
void putString(std::string &out, const std::string &s) {
  put<uint32_t>(out, static_cast<uint32_t>(s.size()));
  out += s;
}
/// Reads from a checkpoint's bytes; `ok` turns false past the end.
struct Reader {
  const std::string &data;
  size_t at = 0;
  bool ok = true;
  template <typename T> T get() {
    T v{};
    if (!ok || data.size() - at < sizeof(T)) {
      ok = false;
      return v;
    }
    std::memcpy(&v, data.data() + at, sizeof(T));
    at += sizeof(T);
    return v;
  }
  std::string bytes(uint64_t n) {
    if (!ok || data.size() - at < n) {
      ok = false;
      return {};
    }
    std::string s = data.substr(at, n);
    at += n;
    return s;
  }
};
} // namespace

extern "C" {

pdrt_status pdrt_save_checkpoint(const pdrt_instance *inst, const char *path) {
  if (!inst || !path)
    return fail(PDRT_ERR_INVALID_ARGUMENT, "pdrt_save_checkpoint: null argument");
  const pdrt_model *m = inst->model;
  std::string out(kCheckpointMagic, sizeof(kCheckpointMagic));
  put<uint32_t>(out, kCheckpointVersion);
  putString(out, m->fingerprint);
  put<int64_t>(out, inst->steps);
  uint32_t count = 0;
  for (size_t w = 0; w < m->weights.size(); ++w)
    count += inst->params[w] != nullptr;
  if (count == 0)
    return fail(PDRT_ERR_STATE,
                "model '" + m->name + "' has no trained weights to checkpoint (not a train step)");
  put<uint32_t>(out, count);
  for (size_t w = 0; w < m->weights.size(); ++w) {
    if (!inst->params[w])
      continue;
    putString(out, m->weights[w].name);
    put<uint64_t>(out, m->weights[w].nbytes);
    out.append(reinterpret_cast<const char *>(inst->params[w]), m->weights[w].nbytes);
  }
  return writeWhole(path, out);
}

pdrt_status pdrt_load_checkpoint(pdrt_instance *inst, const char *pathArg) {
  if (!inst || !pathArg)
    return fail(PDRT_ERR_INVALID_ARGUMENT, "pdrt_load_checkpoint: null argument");
  const pdrt_model *m = inst->model;
  std::string path = pathArg, data;
  if (!readFile(path, data))
    return fail(PDRT_ERR_IO, "cannot read checkpoint '" + path + "'");
  Reader r{data};
  std::string magic = r.bytes(sizeof(kCheckpointMagic));
  if (!r.ok || magic != std::string(kCheckpointMagic, sizeof(kCheckpointMagic)))
    return fail(PDRT_ERR_FORMAT, "'" + path + "' is not a paddle-mlir checkpoint");
  uint32_t version = r.get<uint32_t>();
  if (r.ok && version != kCheckpointVersion)
    return fail(PDRT_ERR_FORMAT, "checkpoint '" + path + "' has version " +
                                     std::to_string(version) + ", this runtime reads " +
                                     std::to_string(kCheckpointVersion));
  std::string fingerprint = r.bytes(r.get<uint32_t>());
  if (r.ok && fingerprint != m->fingerprint)
    return fail(PDRT_ERR_INVALID_ARGUMENT,
                "checkpoint '" + path + "' was written by another model (fingerprint " +
                    fingerprint + ", model '" + m->name + "' has " + m->fingerprint + ")");
  int64_t steps = r.get<int64_t>();
  uint32_t count = r.get<uint32_t>();
  // Everything is read and checked before anything is written, so a bad
  // file leaves the instance as it was.
  std::vector<std::pair<size_t, std::string>> values;
  std::vector<bool> seen(m->weights.size(), false);
  for (uint32_t i = 0; r.ok && i < count; ++i) {
    std::string name = r.bytes(r.get<uint32_t>());
    uint64_t nbytes = r.get<uint64_t>();
    std::string bytes = r.bytes(nbytes);
    if (!r.ok)
      break;
    size_t w = 0;
    while (w < m->weights.size() && m->weights[w].name != name)
      ++w;
    if (w == m->weights.size() || !inst->params[w])
      return fail(PDRT_ERR_FORMAT, "checkpoint '" + path + "' holds '" + name +
                                       "', which is not a trained weight of model '" + m->name +
                                       "'");
    if (nbytes != m->weights[w].nbytes)
      return fail(PDRT_ERR_FORMAT, "checkpoint '" + path + "': '" + name + "' has " +
                                       std::to_string(nbytes) + " bytes, the model's " +
                                       std::to_string(m->weights[w].nbytes));
    seen[w] = true;
    values.push_back({w, std::move(bytes)});
  }
  if (!r.ok || r.at != data.size())
    return fail(PDRT_ERR_FORMAT, "checkpoint '" + path + "' is truncated or has trailing bytes");
  for (size_t w = 0; w < m->weights.size(); ++w)
    if (inst->params[w] && !seen[w])
      return fail(PDRT_ERR_FORMAT, "checkpoint '" + path + "' lacks the trained weight '" +
                                       m->weights[w].name + "'");
  for (auto &[w, bytes] : values)
    std::memcpy(inst->params[w], bytes.data(), bytes.size());
  inst->steps = steps;
  return PDRT_OK;
}

pdrt_status pdrt_train_step(pdrt_instance *inst, double *loss) {
  if (!inst || !loss)
    return fail(PDRT_ERR_INVALID_ARGUMENT, "pdrt_train_step: null argument");
  const pdrt_model *m = inst->model;
  bool train = false;
  for (const TensorDesc &o : m->outputs)
    train = train || o.updates >= 0;
  if (!train || m->outputs.empty())
    return fail(PDRT_ERR_STATE, "model '" + m->name +
                                    "' is not a train step (compile it with paddle-compile "
                                    "--train)");
  const TensorDesc &out = m->outputs[0];
  int64_t n = 1;
  for (int64_t d : out.shape)
    n *= d;
  if (n != 1 || (out.dtype != PDRT_FLOAT32 && out.dtype != PDRT_FLOAT64))
    return fail(PDRT_ERR_FORMAT, "model '" + m->name + "': output 0 ('" + out.name +
                                     "') is not a one-element float loss");
  if (pdrt_status st = pdrt_run(inst); st != PDRT_OK)
    return st;
  const void *data = inst->outputData[0].data();
  *loss = out.dtype == PDRT_FLOAT32 ? static_cast<double>(*static_cast<const float *>(data))
                                    : *static_cast<const double *>(data);
  return PDRT_OK;
}

pdrt_status pdrt_get_weight(const pdrt_instance *inst, const char *name, const void **data,
                            const int64_t **shape, int64_t *rank, pdrt_dtype *dtype) {
  if (!inst || !name)
    return fail(PDRT_ERR_INVALID_ARGUMENT, "pdrt_get_weight: null argument");
  const pdrt_model *m = inst->model;
  for (size_t w = 0; w < m->weights.size(); ++w) {
    const TensorDesc &d = m->weights[w];
    if (d.name != name)
      continue;
    if (data)
      *data = weightOf(inst, w);
    if (shape)
      *shape = d.shape.data();
    if (rank)
      *rank = (int64_t)d.shape.size();
    if (dtype)
      *dtype = d.dtype;
    return PDRT_OK;
  }
  return fail(PDRT_ERR_INVALID_ARGUMENT,
              "model '" + m->name + "' has no weight named '" + std::string(name) + "'");
}

pdrt_status pdrt_set_weight(pdrt_instance *inst, const char *name, pdrt_dtype dtype,
                            const int64_t *shape, int64_t rank, const void *data) {
  if (!inst || !name || !data || (!shape && rank > 0))
    return fail(PDRT_ERR_INVALID_ARGUMENT, "pdrt_set_weight: null argument");
  const pdrt_model *m = inst->model;
  for (size_t w = 0; w < m->weights.size(); ++w) {
    const TensorDesc &d = m->weights[w];
    if (d.name != name)
      continue;
    if (!inst->params[w])
      return fail(PDRT_ERR_INVALID_ARGUMENT, "weight '" + d.name + "' of model '" + m->name +
                                                 "' is not trainable, so it cannot be set");
    if (dtype != d.dtype || rank != (int64_t)d.shape.size() ||
        !std::equal(d.shape.begin(), d.shape.end(), shape))
      return fail(PDRT_ERR_INVALID_ARGUMENT,
                  "weight '" + d.name + "' is " + pdrt_dtype_name(d.dtype) +
                      shapeStr(d.shape.data(), (int64_t)d.shape.size()) + ", got " +
                      pdrt_dtype_name(dtype) + shapeStr(shape, rank));
    std::memcpy(inst->params[w], data, d.nbytes);
    return m->target->weightSet(inst, w, data);
  }
  return fail(PDRT_ERR_INVALID_ARGUMENT,
              "model '" + m->name + "' has no weight named '" + std::string(name) + "'");
}

} // extern "C"

namespace {
/// CPU artifacts: @main runs on the host over the weights file's memory.
class CpuTarget final : public RuntimeTarget {
public:
  const char *kind() const override { return "cpu"; }
  pdrt_status readTarget(pdrt_model *, const Json *, const std::string &) const override {
    return PDRT_OK;
  }
  pdrt_status bindLibrary(pdrt_model *, const std::string &) const override { return PDRT_OK; }
  pdrt_status open(pdrt_instance *, int) const override { return PDRT_OK; }
  void close(pdrt_instance *) const override {}
  pdrt_status run(pdrt_instance *inst) const override { return runOnHost(inst); }
  pdrt_status weightSet(pdrt_instance *, size_t, const void *) const override { return PDRT_OK; }
};

/// CUDA artifacts: libpdrt_cuda's device memory, copies and launches
/// (through the model library, which links it), the weights uploaded once
/// per device, an instance's own arena, inputs and trained weights there.
class CudaTarget final : public RuntimeTarget {
public:
  const char *kind() const override { return "cuda"; }

  pdrt_status readTarget(pdrt_model *m, const Json *target,
                         const std::string &manifestPath) const override {
    const std::string *arch = target->is_object() ? stringMember(*target, "arch") : nullptr;
    if (!arch)
      return badTarget(manifestPath);
    m->arch = *arch;
    if (const Json *e = member(*target, "emulated"))
      m->emulated = e->is_boolean() && e->get<bool>();
    if (const std::string *v = stringMember(*target, "cuda_version"))
      m->cudaVersion = *v;
    return PDRT_OK;
  }

  pdrt_status bindLibrary(pdrt_model *m, const std::string &libPath) const override {
    auto &cu = m->cu;
    auto get = [&](auto &fn, const char *sym) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(m->library, sym));
      return fn != nullptr;
    };
    if (!get(cu.open, "pdcu_open") || !get(cu.arch, "pdcu_arch") || !get(cu.close, "pdcu_close") ||
        !get(cu.alloc, "pdcu_alloc") || !get(cu.free, "pdcu_free") || !get(cu.copy, "pdcu_copy") ||
        !get(cu.beginRun, "pdcu_begin_run") || !get(cu.endRun, "pdcu_end_run") ||
        !get(cu.workspaceBytes, "pdcu_workspace_bytes") ||
        !get(cu.setWorkspace, "pdcu_set_workspace"))
      return fail(PDRT_ERR_FORMAT, "'" + libPath +
                                       "' is a cuda artifact's library without libpdrt_cuda's "
                                       "functions (is libpdrt_cuda.so beside it?)");
    get(cu.planLibraryCalls, "pd_plan_library_calls");
    // Absent from the libpdrt_cuda of artifacts older than multi-GPU jobs.
    get(cu.localDevice, "pdcu_local_device");
    get(cu.deviceMemoryIsHost, "pdcu_device_memory_is_host");
    get(cu.driverVersion, "pdcu_driver_version");
    // A pipeline rank's device block holds its stage's weights only,
    // packed (256-byte aligned).
    if (!m->stageUses.empty()) {
      m->deviceAt.assign(m->weights.size(), -1);
      for (size_t w = 0; w < m->weights.size(); ++w)
        if (m->stageUses[w]) {
          m->deviceAt[w] = static_cast<int64_t>(m->deviceBytes);
          m->deviceBytes += (m->weights[w].nbytes + 255) / 256 * 256;
        }
    }
    return PDRT_OK;
  }

  pdrt_status open(pdrt_instance *inst, int ordinal) const override {
    const pdrt_model *m = inst->model;
    // "cuda": this rank's device in a job (cuda:0 alone).
    if (ordinal < 0)
      ordinal = m->cu.localDevice ? m->cu.localDevice() : 0;
    return openDevice(inst, ordinal);
  }

  void close(pdrt_instance *inst) const override {
    if (!inst->device)
      return;
    const pdrt_model *m = inst->model;
    const auto &cu = m->cu;
    if (inst->ordinal >= 0) {
      std::lock_guard<std::mutex> lock(m->deviceWeightsMutex);
      auto &shared = m->deviceWeights[inst->ordinal];
      if (--shared.instances == 0) {
        cu.free(inst->device, shared.ptr);
        m->deviceWeights.erase(inst->ordinal);
      }
    }
    cu.free(inst->device, inst->deviceArena);
    for (void *p : inst->deviceInputs)
      cu.free(inst->device, p);
    for (void *p : inst->deviceParams)
      cu.free(inst->device, p);
    cu.close(inst->device);
  }

  pdrt_status run(pdrt_instance *inst) const override { return runOnDevice(inst); }

  pdrt_status weightSet(pdrt_instance *inst, size_t w, const void *data) const override {
    const pdrt_model *m = inst->model;
    if (!inst->device || !inst->deviceParams[w])
      return PDRT_OK;
    const TensorDesc &d = m->weights[w];
    if (const char *err = m->cu.copy(inst->device, inst->deviceParams[w], data, d.nbytes, 1))
      return fail(PDRT_ERR_DEVICE, "weight '" + d.name + "' of model '" + m->name +
                                       "': copying it to the device: " + err);
    return PDRT_OK;
  }
};

const RuntimeTarget *runtimeTarget(const std::string &kind) {
  static const CpuTarget cpu;
  static const CudaTarget cuda;
  if (kind == cpu.kind())
    return &cpu;
  if (kind == cuda.kind())
    return &cuda;
  return nullptr;
}
} // namespace

//===- paddle-run.cpp - run (and time) a compiled model -------------------===//
//
//   paddle-run ARTIFACT_DIR|MODEL --input NAME=FILE.npy ... [--output-dir DIR]
//       [--iterations N] [--warmup K] [--devices N] [--params FILE]
//
// A MODEL (anything without a manifest.json) is compiled into a temporary
// artifact first. Outputs go to DIR/<output-name>.npy ('/' becomes '_').
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Support/Npy.h"
#include "pdrt.h"

#include "ModelLoader.h"
#include "PaddleMLIR/CodeGen/Artifact.h"
#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Support/Diagnostics.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

namespace cl = llvm::cl;

static cl::OptionCategory category("paddle-run options");
static cl::opt<std::string> modelPath(cl::Positional, cl::desc("ARTIFACT_DIR|MODEL"), cl::Required,
                                      cl::cat(category));
static cl::list<std::string> inputs("input", cl::desc("An input: NAME=FILE.npy"),
                                    cl::value_desc("NAME=FILE"), cl::cat(category));
static cl::opt<std::string> outputDir("output-dir", cl::desc("Write each output as DIR/<name>.npy"),
                                      cl::value_desc("DIR"), cl::cat(category));
static cl::opt<int> iterations("iterations", cl::desc("Timed runs (prints min/median/p90)"),
                               cl::init(1), cl::cat(category));
static cl::opt<int> warmup("warmup", cl::desc("Untimed runs before timing"), cl::init(0),
                           cl::cat(category));
static cl::opt<int> devices("devices", cl::desc("Devices to run on (1 for now)"), cl::init(1),
                            cl::cat(category));
static cl::opt<std::string> params("params", cl::desc("Combined parameter file (MODEL only)"),
                                   cl::value_desc("FILE"), cl::cat(category));

/// --threads. libLLVM registers an undocumented `--threads` of its own,
/// which this one replaces (it is created after that one is removed).
static cl::opt<int> &threadsOption() {
  if (cl::Option *llvmOwn = cl::getRegisteredOptions().lookup("threads"))
    llvmOwn->removeArgument();
  static cl::opt<int> threads("threads",
                              cl::desc("At most N threads per run (default: the runtime's, see "
                                       "PDRT_NUM_THREADS; the runtime may use fewer while other "
                                       "processes keep cores busy)"),
                              cl::value_desc("N"), cl::init(0), cl::cat(category));
  return threads;
}

static int fail(const std::string &msg) {
  llvm::errs() << "paddle-run: error: " << msg << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  cl::opt<int> &threads = threadsOption();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "paddle-mlir model runner\n");
  if (devices != 1)
    return fail("--devices " + std::to_string(devices) +
                " is not supported yet (single device only)");
  if (iterations < 1 || warmup < 0)
    return fail("--iterations must be >= 1 and --warmup >= 0");
  if (threads < 0)
    return fail("--threads must be >= 1 (or 0 for the runtime's default)");

  // Compile in memory (into a temporary artifact) when given a model.
  std::string artifact = modelPath;
  llvm::SmallString<128> tmp;
  if (!llvm::sys::fs::exists(modelPath + "/manifest.json")) {
    if (!llvm::sys::fs::exists(modelPath))
      return fail("'" + modelPath + "' does not exist");
    if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("paddle-run", tmp))
      return fail("cannot create a temporary directory: " + ec.message());
    mlir::pd::registerCodeGenPassesAndPipelines();
    mlir::MLIRContext ctx(mlir::pd::tool::compilerRegistry());
    mlir::pd::ToolDiagnosticHandler handler(&ctx);
    auto module = mlir::pd::tool::loadModel(&ctx, modelPath, params);
    mlir::pd::CompileOptions opts;
    if (!module || failed(mlir::pd::compileToArtifact(*module, opts, tmp))) {
      llvm::sys::fs::remove_directories(tmp);
      return 1;
    }
    artifact = tmp.str().str();
  }
  struct Cleanup {
    llvm::SmallString<128> &dir;
    ~Cleanup() {
      if (!dir.empty())
        llvm::sys::fs::remove_directories(dir);
    }
  } cleanup{tmp};

  pdrt_model *model = nullptr;
  if (pdrt_model_load(artifact.c_str(), &model) != PDRT_OK)
    return fail(pdrt_last_error());
  std::unique_ptr<pdrt_model, void (*)(pdrt_model *)> modelGuard(model, pdrt_model_free);
  pdrt_instance *inst = nullptr;
  if (pdrt_instance_create(model, &inst) != PDRT_OK)
    return fail(pdrt_last_error());
  std::unique_ptr<pdrt_instance, void (*)(pdrt_instance *)> instGuard(inst, pdrt_instance_free);
  if (pdrt_instance_set_num_threads(inst, threads) != PDRT_OK)
    return fail(pdrt_last_error());

  std::map<std::string, npy::Array> arrays;
  for (const std::string &spec : inputs) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0)
      return fail("--input " + spec + ": expected NAME=FILE.npy");
    std::string name = spec.substr(0, eq), error;
    npy::Array &a = arrays[name];
    if (!npy::read(spec.substr(eq + 1), a, error))
      return fail("input '" + name + "': " + error);
    // NumPy's <u2 serves both bfloat16 (bit patterns) and uint16: the
    // model's input decides.
    for (int64_t i = 0; i < pdrt_model_num_inputs(model); ++i)
      if (a.dtype == PDRT_BFLOAT16 && name == pdrt_model_input_name(model, i) &&
          pdrt_model_input_dtype(model, i) == PDRT_UINT16)
        a.dtype = PDRT_UINT16;
    if (pdrt_set_input(inst, name.c_str(), a.dtype, a.shape.data(), (int64_t)a.shape.size(),
                       a.data.data()) != PDRT_OK)
      return fail(pdrt_last_error());
  }

  std::vector<double> times;
  for (int i = 0; i < warmup + iterations; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (pdrt_run(inst) != PDRT_OK)
      return fail(pdrt_last_error());
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (i >= warmup)
      times.push_back(ms);
  }

  for (int64_t i = 0; i < pdrt_model_num_outputs(model); ++i) {
    const void *data;
    const int64_t *shape;
    int64_t rank;
    pdrt_dtype dtype;
    if (pdrt_get_output(inst, i, &data, &shape, &rank, &dtype) != PDRT_OK)
      return fail(pdrt_last_error());
    std::string name = pdrt_model_output_name(model, i);
    llvm::outs() << "output " << name << ": " << pdrt_dtype_name(dtype) << " [";
    for (int64_t k = 0; k < rank; ++k)
      llvm::outs() << (k ? ", " : "") << shape[k];
    llvm::outs() << "]\n";
    if (!outputDir.empty()) {
      std::string file = name;
      std::replace(file.begin(), file.end(), '/', '_');
      if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
        return fail("cannot create '" + outputDir + "': " + ec.message());
      std::string error;
      if (!npy::write(outputDir + "/" + file + ".npy", dtype, shape, rank, data, error))
        return fail(error);
    }
  }
  if (iterations > 1 || warmup > 0) {
    std::sort(times.begin(), times.end());
    auto pct = [&](double p) {
      return times[std::min(times.size() - 1, (size_t)std::floor(p * (times.size() - 1)))];
    };
    llvm::outs() << llvm::format("latency (ms) over %d runs: min %.3f  median %.3f  p90 %.3f\n",
                                 (int)iterations, times.front(), pct(0.5), pct(0.9));
  }
  if (iterations > 1 || warmup > 0 || threads.getNumOccurrences()) {
    const char *source = "--threads";
    int64_t cap = threads > 0 ? (int64_t)threads : pdrt_default_num_threads(&source);
    llvm::outs() << "threads: " << pdrt_instance_num_threads(inst) << " of " << cap << " ("
                 << source << ")\n";
  }
  return 0;
}

//===- paddle-run.cpp - run (and time) a compiled model -------------------===//
//
//   paddle-run ARTIFACT_DIR|MODEL --input NAME=FILE.npy ... [--lod NAME=LENGTHS.npy ...]
//       [--output-dir DIR]
//       [--iterations N] [--warmup K] [--device cpu|cuda:N] [--devices N] [--params FILE]
//   mpirun -np N paddle-run ARTIFACT_DIR ... [--comm-timeout SECONDS]
//       (a program with collective ops; rank 0 prints and writes the outputs)
//   paddle-run TRAIN_STEP_DIR --train DATA.npz|DIR [--epochs N] [--resume FILE]
//       [--save-params DIR] [--save-checkpoint FILE]
//
// A MODEL (anything without a manifest.json) is compiled into a temporary
// artifact first. Outputs go to DIR/<output-name>.npy ('/' becomes '_').
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Support/Npy.h"
#include "pdrt.h"

#include "ModelLoader.h"
#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Driver/Driver.h"
#include "PaddleMLIR/Support/Diagnostics.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <unistd.h>

namespace cl = llvm::cl;

static cl::OptionCategory category("paddle-run options");
static cl::opt<std::string> modelPath(cl::Positional, cl::desc("ARTIFACT_DIR|MODEL"), cl::Required,
                                      cl::cat(category));
static cl::list<std::string> inputs("input", cl::desc("An input: NAME=FILE.npy"),
                                    cl::value_desc("NAME=FILE"), cl::cat(category));
static cl::list<std::string>
    lods("lod",
         cl::desc("The sequence lengths of a LoD input (a batch of variable-length sequences, "
                  "their rows packed along dim 0): NAME=LENGTHS.npy, int64, one per sequence; "
                  "the same as --input NAME@lengths=LENGTHS.npy"),
         cl::value_desc("NAME=FILE"), cl::cat(category));
static cl::opt<std::string> outputDir("output-dir", cl::desc("Write each output as DIR/<name>.npy"),
                                      cl::value_desc("DIR"), cl::cat(category));
static cl::opt<int> iterations("iterations", cl::desc("Timed runs (prints min/median/p90)"),
                               cl::init(1), cl::cat(category));
static cl::opt<int> warmup("warmup", cl::desc("Untimed runs before timing"), cl::init(0),
                           cl::cat(category));
static cl::opt<std::string>
    device("device",
           cl::desc("Where the model runs: cpu, or cuda:N for a cuda artifact (default: cpu, or "
                    "cuda: cuda:0, or in an mpirun job the local rank modulo the GPU count)"),
           cl::value_desc("DEVICE"), cl::cat(category));
static cl::opt<int> devices("devices",
                            cl::desc("Devices to run on: 1 (a program split among N ranks runs "
                                     "as mpirun -np N paddle-run ...)"),
                            cl::init(1), cl::cat(category));
static cl::opt<double> commTimeout(
    "comm-timeout",
    cl::desc("A program with collective ops run by mpirun: seconds each collective waits for "
             "the other ranks before failing with the rank at fault (default 300; sets "
             "PADDLE_MLIR_COMM_TIMEOUT)"),
    cl::value_desc("SECONDS"), cl::init(0), cl::cat(category));
static cl::opt<std::string> params("params", cl::desc("Combined parameter file (MODEL only)"),
                                   cl::value_desc("FILE"), cl::cat(category));
static cl::opt<std::string>
    trainData("train",
              cl::desc("Train a train-step artifact (paddle-compile --train) on DATA: an .npz "
                       "with one array per input (samples along dim 0, cut into the "
                       "artifact's batches), or a directory of such .npz files"),
              cl::value_desc("DATA"), cl::cat(category));
static cl::opt<int> epochs("epochs", cl::desc("--train: passes over DATA (default 1)"), cl::init(1),
                           cl::cat(category));
static cl::opt<std::string>
    saveParams("save-params",
               cl::desc("--train: write the trained model as a Paddle inference model "
                        "(DIR/model.pdmodel, DIR/model.pdiparams)"),
               cl::value_desc("DIR"), cl::cat(category));
static cl::opt<std::string>
    saveCheckpoint("save-checkpoint",
                   cl::desc("--train: write a checkpoint (weights, optimizer state, steps) "
                            "after training"),
                   cl::value_desc("FILE"), cl::cat(category));
static cl::opt<std::string> resume("resume", cl::desc("--train: start from this checkpoint"),
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

/// One .npz of training data, checked against the model's inputs.
struct TrainFile {
  std::string path;
  std::vector<npy::Array> arrays; // in the model's input order
  int64_t samples = 0;
};

/// Reads and checks DATA: every model input by name, its dtype, its dims
/// after the first equal to the model's, the same sample count for all,
/// at least one batch.
static bool loadTrainData(pdrt_model *model, const std::string &data, int64_t batch,
                          std::vector<TrainFile> &files, std::string &error) {
  std::vector<std::string> paths;
  if (llvm::sys::fs::is_directory(data)) {
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(data, ec), end; it != end && !ec; it.increment(ec))
      if (llvm::StringRef(it->path()).ends_with(".npz"))
        paths.push_back(it->path());
    if (ec) {
      error = "cannot list '" + data + "': " + ec.message();
      return false;
    }
    std::sort(paths.begin(), paths.end());
    if (paths.empty()) {
      error = "directory '" + data + "' holds no .npz file";
      return false;
    }
  } else {
    paths.push_back(data);
  }
  int64_t n = pdrt_model_num_inputs(model);
  for (const std::string &path : paths) {
    std::vector<std::pair<std::string, npy::Array>> members;
    if (!npy::readNpz(path, members, error))
      return false;
    TrainFile f{path, {}, -1};
    for (int64_t i = 0; i < n; ++i) {
      std::string name = pdrt_model_input_name(model, i);
      auto it = std::find_if(members.begin(), members.end(),
                             [&](const auto &m) { return m.first == name; });
      if (it == members.end()) {
        std::string have;
        for (const auto &m : members)
          have += (have.empty() ? "" : ", ") + m.first;
        error = "'" + path + "' has no array '" + name + "' for the model's input (it has: " +
                (have.empty() ? std::string("nothing") : have) + ")";
        return false;
      }
      npy::Array &a = it->second;
      pdrt_dtype want = pdrt_model_input_dtype(model, i);
      if (a.dtype != want) {
        error = "'" + path + "': array '" + name + "' is " + pdrt_dtype_name(a.dtype) +
                ", the model's input is " + pdrt_dtype_name(want);
        return false;
      }
      int64_t rank = pdrt_model_input_rank(model, i);
      const int64_t *shape = pdrt_model_input_shape(model, i);
      bool ok = (int64_t)a.shape.size() == rank && rank >= 1;
      for (int64_t k = 1; ok && k < rank; ++k)
        ok = shape[k] < 0 || a.shape[k] == shape[k];
      if (!ok) {
        std::string want = "[N";
        for (int64_t k = 1; k < rank; ++k)
          want += ", " + std::to_string(shape[k]);
        std::string got = "[";
        for (size_t k = 0; k < a.shape.size(); ++k)
          got += (k ? ", " : "") + std::to_string(a.shape[k]);
        error = "'" + path + "': array '" + name + "' has shape " + got + "], the model's input " +
                "takes samples of " + want + "]";
        return false;
      }
      if (f.samples >= 0 && a.shape[0] != f.samples) {
        error = "'" + path + "': array '" + name + "' has " + std::to_string(a.shape[0]) +
                " samples, the others " + std::to_string(f.samples);
        return false;
      }
      f.samples = a.shape[0];
      f.arrays.push_back(std::move(a));
    }
    if (f.samples < batch) {
      error = "'" + path + "' has " + std::to_string(f.samples) +
              " samples, fewer than one batch of " + std::to_string(batch);
      return false;
    }
    files.push_back(std::move(f));
  }
  return true;
}

/// paddle-run --train: epochs over DATA in batches of the artifact's batch
/// size, with a progress line (redrawn on a terminal, one line per epoch
/// otherwise) and a final summary on stdout.
/// The partition of `artifact` (manifest.json's): its mode (data,
/// pipeline) and, for data-parallel training, its strategy; empty when none.
static std::pair<std::string, std::string> partitionOf(const std::string &artifact) {
  auto buffer = llvm::MemoryBuffer::getFile(artifact + "/manifest.json");
  if (!buffer)
    return {};
  llvm::Expected<llvm::json::Value> json = llvm::json::parse((*buffer)->getBuffer());
  if (!json) {
    llvm::consumeError(json.takeError());
    return {};
  }
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Object *partition = root ? root->getObject("partition") : nullptr;
  if (!partition)
    return {};
  auto text = [&](llvm::StringRef key) { return partition->getString(key).value_or("").str(); };
  return {text("mode"), text("strategy")};
}

static int runTraining(pdrt_model *model, pdrt_instance *inst, int64_t rank, int64_t ranks,
                       const std::pair<std::string, std::string> &partition) {
  // Multi-rank training under mpirun: every rank steps through the same
  // DATA (each computes its part of every batch, or its stage of it); rank
  // 0 reports and saves. With the reduce strategy each rank's optimizer
  // state is its own slice, and in a pipeline each rank's parameters are
  // its stage's, so each rank writes (and resumes from) a checkpoint of
  // its own.
  llvm::raw_ostream &out = rank == 0 ? llvm::outs() : llvm::nulls();
  bool pipeline = partition.first == "pipeline";
  bool perRank = ranks > 1 && (pipeline || partition.second == "reduce");
  auto checkpointOf = [&](const std::string &path) {
    return perRank ? path + ".rank" + std::to_string(rank) : path;
  };
  if (epochs < 1)
    return fail("--epochs must be >= 1");
  int64_t n = pdrt_model_num_inputs(model);
  if (n < 1 || pdrt_model_input_rank(model, 0) < 1 || pdrt_model_input_shape(model, 0)[0] < 1)
    return fail("the model's first input has no static batch dim to cut DATA by");
  int64_t batch = pdrt_model_input_shape(model, 0)[0];
  for (int64_t i = 0; i < n; ++i)
    if (pdrt_model_input_rank(model, i) < 1 || pdrt_model_input_shape(model, i)[0] != batch)
      return fail(std::string("input '") + pdrt_model_input_name(model, i) +
                  "' does not have the batch size " + std::to_string(batch) + " as dim 0");
  std::vector<TrainFile> files;
  std::string error;
  if (!loadTrainData(model, trainData, batch, files, error))
    return fail(error);
  int64_t stepsPerEpoch = 0, dropped = 0;
  for (const TrainFile &f : files) {
    stepsPerEpoch += f.samples / batch;
    dropped += f.samples % batch;
  }
  if (!resume.empty()) {
    if (pdrt_load_checkpoint(inst, checkpointOf(resume).c_str()) != PDRT_OK)
      return fail(pdrt_last_error());
    out << "resumed from " << checkpointOf(resume) << (perRank ? " (one file per rank)" : "")
        << " after " << pdrt_instance_steps(inst) << " steps\n";
  }
  out << "training " << pdrt_model_name(model) << ": " << epochs << " epoch"
      << (epochs > 1 ? "s" : "") << " of " << stepsPerEpoch << " steps (batch " << batch << ")";
  if (dropped)
    out << "; " << dropped << " samples that fill no whole batch are left out";
  out << "\n";
  out.flush();

  if (ranks > 1)
    out << "ranks: " << ranks
        << (pipeline ? " (pipeline stages; rank 0 reports and saves the gathered model)\n"
                     : " (data-parallel; rank 0 reports and saves)\n");
  bool tty = rank == 0 && isatty(2);
  auto start = std::chrono::steady_clock::now();
  auto lastDraw = start - std::chrono::seconds(1);
  double loss = 0, epochSum = 0;
  int64_t done = 0;
  auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    epochSum = 0;
    int64_t step = 0;
    for (const TrainFile &f : files) {
      for (int64_t lo = 0; lo + batch <= f.samples; lo += batch) {
        for (int64_t i = 0; i < n; ++i) {
          const npy::Array &a = f.arrays[i];
          std::vector<int64_t> shape(a.shape);
          shape[0] = batch;
          int64_t row = pdrt_dtype_size(a.dtype);
          for (size_t k = 1; k < a.shape.size(); ++k)
            row *= a.shape[k];
          if (pdrt_set_input(inst, pdrt_model_input_name(model, i), a.dtype, shape.data(),
                             (int64_t)shape.size(), a.data.data() + lo * row) != PDRT_OK) {
            if (tty)
              llvm::errs() << "\n";
            return fail("'" + f.path + "', samples " + std::to_string(lo) + "-" +
                        std::to_string(lo + batch - 1) + ": " + pdrt_last_error());
          }
        }
        if (pdrt_train_step(inst, &loss) != PDRT_OK) {
          if (tty)
            llvm::errs() << "\n";
          return fail(pdrt_last_error());
        }
        ++step;
        ++done;
        if (!std::isfinite(loss)) {
          if (tty)
            llvm::errs() << "\n";
          return fail("the loss is " + std::string(std::isnan(loss) ? "nan" : "inf") +
                      " at epoch " + std::to_string(epoch) + " step " + std::to_string(step) +
                      " (a lower --lr, or --clip-norm, may help)");
        }
        epochSum += loss;
        auto now = std::chrono::steady_clock::now();
        if (tty && (now - lastDraw > std::chrono::milliseconds(100) || step == stepsPerEpoch)) {
          lastDraw = now;
          int width = 24, filled = (int)(width * step / stepsPerEpoch);
          llvm::errs() << llvm::format("\repoch %d/%d [", epoch, (int)epochs)
                       << std::string(filled, '=') << std::string(width - filled, ' ')
                       << llvm::format("] step %lld/%lld  loss %.4f  %.0f samples/s ",
                                       (long long)step, (long long)stepsPerEpoch, loss,
                                       done * batch / seconds());
        }
      }
    }
    if (tty)
      llvm::errs() << "\n";
    out << llvm::format("epoch %d/%d: mean loss %.6f, last %.6f, %.0f samples/s\n", epoch,
                        (int)epochs, epochSum / stepsPerEpoch, loss, done * batch / seconds());
    out.flush();
  }
  out << llvm::format("trained %lld steps (%lld samples) in %.2f s: final loss %.6f\n",
                      (long long)done, (long long)(done * batch), seconds(), loss);
  if (perRank && !saveCheckpoint.empty()) {
    if (pdrt_save_checkpoint(inst, checkpointOf(saveCheckpoint).c_str()) != PDRT_OK)
      return fail(pdrt_last_error());
    out << "saved checkpoints after " << pdrt_instance_steps(inst) << " steps to " << saveCheckpoint
        << ".rank0 ... .rank" << ranks - 1
        << (pipeline ? " (one per rank: each holds its stage's parameters and state)\n"
                     : " (one per rank: each holds its rank's slice of the optimizer state)\n");
  }
  // A pipeline's stages hand their parameters to rank 0, which saves the
  // whole model.
  if (pipeline && !saveParams.empty() && pdrt_gather_stage_params(inst) != PDRT_OK)
    return fail(pdrt_last_error());
  if (rank != 0)
    return 0;
  if (!saveParams.empty()) {
    if (pdrt_save_params(inst, saveParams.c_str()) != PDRT_OK)
      return fail(pdrt_last_error());
    out << "saved the trained model to " << saveParams << "/model.pdmodel\n";
  }
  if (!saveCheckpoint.empty() && !perRank) {
    if (pdrt_save_checkpoint(inst, saveCheckpoint.c_str()) != PDRT_OK)
      return fail(pdrt_last_error());
    out << "saved a checkpoint after " << pdrt_instance_steps(inst) << " steps to "
        << saveCheckpoint << "\n";
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  cl::opt<int> &threads = threadsOption();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "paddle-mlir model runner\n");
  if (devices != 1)
    return fail("--devices " + std::to_string(devices) +
                ": paddle-run runs one rank; start a job of N ranks with mpirun -np N paddle-run "
                "ARTIFACT ... (an artifact compiled with --partition data --devices N, or a "
                "program with collective ops; docs/MultiDevice.md)");
  if (iterations < 1 || warmup < 0)
    return fail("--iterations must be >= 1 and --warmup >= 0");
  if (threads < 0)
    return fail("--threads must be >= 1 (or 0 for the runtime's default)");
  if (commTimeout.getNumOccurrences()) {
    if (!(commTimeout > 0))
      return fail("--comm-timeout must be a positive number of seconds");
    setenv("PADDLE_MLIR_COMM_TIMEOUT", std::to_string(commTimeout.getValue()).c_str(), 1);
  }

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
  // A program with collectives runs on every rank mpirun started; rank 0
  // reports and writes the outputs.
  int64_t rank = 0, ranks = 1;
  if (pdrt_model_ranks(model, &rank, &ranks) != PDRT_OK)
    return fail(pdrt_last_error());
  pdrt_instance *inst = nullptr;
  if ((device.empty() ? pdrt_instance_create(model, &inst)
                      : pdrt_instance_create_on(model, device.c_str(), &inst)) != PDRT_OK)
    return fail(pdrt_last_error());
  std::unique_ptr<pdrt_instance, void (*)(pdrt_instance *)> instGuard(inst, pdrt_instance_free);
  if (pdrt_instance_set_num_threads(inst, threads) != PDRT_OK)
    return fail(pdrt_last_error());

  if (!trainData.empty()) {
    if (!inputs.empty() || !lods.empty() || !outputDir.empty() || iterations.getNumOccurrences() ||
        warmup.getNumOccurrences())
      return fail("--train takes its inputs from DATA; it does not combine with --input, "
                  "--output-dir, --iterations or --warmup");
    return runTraining(model, inst, rank, ranks, partitionOf(artifact));
  }
  for (const cl::Option *o :
       std::initializer_list<const cl::Option *>{&epochs, &saveParams, &saveCheckpoint, &resume})
    if (o->getNumOccurrences())
      return fail("--" + o->ArgStr.str() + " only applies with --train");

  std::map<std::string, npy::Array> arrays;
  std::vector<std::pair<std::string, std::string>> specs; // (flag, NAME=FILE)
  for (const std::string &spec : inputs)
    specs.push_back({"input", spec});
  for (const std::string &spec : lods)
    specs.push_back({"lod", spec});
  for (const auto &[flag, spec] : specs) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0)
      return fail("--" + flag + " " + spec + ": expected NAME=FILE.npy");
    std::string name = spec.substr(0, eq) + (flag == "lod" ? "@lengths" : ""), error;
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

  if (rank != 0)
    return 0;
  if (ranks > 1)
    llvm::outs() << "ranks: " << ranks << " (outputs of rank 0)\n";
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

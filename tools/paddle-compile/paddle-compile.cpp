//===- paddle-compile.cpp - ahead-of-time compiler driver ----------------===//
//
//   paddle-compile MODEL|FILE.mlir [--params FILE] [--target cpu|cuda [--cuda-arch sm_90]]
//       [--precision fp32|bf16|fp16|int8] [--calibration-data DIR
//       [--calibration-method percentile] [--calibration-samples N]
//       [--calibration-cache FILE] [--accuracy-target top1=0.99]]
//       [--input-shape NAME=1x3x224x224]... [--name NAME] -o OUTDIR
//
//===----------------------------------------------------------------------===//

#include "ModelLoader.h"
#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdDialect.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"
#include "PaddleMLIR/Driver/Driver.h"
#include "PaddleMLIR/Frontend/Paddle/PaddleImport.h"
#include "PaddleMLIR/Support/Diagnostics.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <initializer_list>
#include <map>
#include <memory>
#include <utility>
#include <vector>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("paddle-compile options");
static cl::opt<std::string> input(cl::Positional, cl::desc("MODEL|FILE.mlir"), cl::Required,
                                  cl::cat(category));
static cl::opt<std::string> params("params", cl::desc("Combined parameter file"),
                                   cl::value_desc("FILE"), cl::cat(category));
static cl::opt<std::string> target("target",
                                   cl::desc("cpu (default) or cuda (fp32 inference on an NVIDIA "
                                            "GPU, docs/GPU.md)"),
                                   cl::init("cpu"), cl::cat(category));
static cl::opt<std::string> cudaArch("cuda-arch",
                                     cl::desc("With --target cuda: the GPU architecture, sm_NN "
                                              "(default sm_90: H100/H200; sm_80: A100)"),
                                     cl::init("sm_90"), cl::cat(category));
static cl::opt<std::string> precision("precision", cl::desc("fp32 (default), bf16, fp16 or int8"),
                                      cl::init("fp32"), cl::cat(category));
static cl::opt<std::string> calibration(
    "calibration-data",
    cl::desc("With --precision int8: calibrate the float model on these samples (one .npy per "
             "sample for a one-input model, or one .npz per sample with an array per input)"),
    cl::value_desc("DIR"), cl::cat(category));
static cl::opt<std::string> calibrationMethod(
    "calibration-method",
    cl::desc("How activation ranges are chosen: percentile (default), kl, minmax or mse"),
    cl::init("percentile"), cl::cat(category));
static cl::opt<std::string>
    calibrationPercentile("calibration-percentile",
                          cl::desc("The percentile of --calibration-method percentile "
                                   "(default 99.99)"),
                          cl::init("99.99"), cl::cat(category));
static cl::opt<std::string>
    calibrationSamples("calibration-samples",
                       cl::desc("Use the first N samples of --calibration-data (default: all)"),
                       cl::value_desc("N"), cl::init("0"), cl::cat(category));
static cl::opt<std::string> calibrationCache(
    "calibration-cache",
    cl::desc("Read the calibration statistics from FILE when it exists and matches the model, "
             "else calibrate and write them there"),
    cl::value_desc("FILE"), cl::cat(category));
static cl::opt<std::string> validationSplit(
    "validation-split",
    cl::desc("Share of the samples (the last ones) held out to check int8 against fp32 "
             "(default 0.2)"),
    cl::init("0.2"), cl::cat(category));
static cl::opt<std::string> accuracyTarget(
    "accuracy-target",
    cl::desc("With --calibration-data (int8) or --precision bf16: top1=F (top-1 agreement with "
             "fp32) or sqnr=DB (output SQNR); the layers with the worst SQNR move back to fp32 "
             "until it holds"),
    cl::value_desc("top1=F|sqnr=DB"), cl::cat(category));
static cl::opt<bool> precisionCheck(
    "precision-check",
    cl::desc("With --precision bf16: run fp32 and bf16 on the same inputs (--check-data, else "
             "seeded random ones) and report the error (implied by --check-data and "
             "--accuracy-target)"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string> checkData(
    "check-data",
    cl::desc("With --precision bf16: the inputs of the numerics check (as --calibration-data)"),
    cl::value_desc("DIR"), cl::cat(category));
static cl::list<std::string> quantizeExclude(
    "quantize-exclude",
    cl::desc("With --precision int8: op types (conv2d, fc, ...) or Paddle output variable names "
             "(globs allowed) whose ops stay fp32 (comma-separated or repeated)"),
    cl::value_desc("PATTERN"), cl::CommaSeparated, cl::cat(category));
static cl::list<std::string> quantizeInclude(
    "quantize-include",
    cl::desc("With --calibration-data: op types or Paddle output variable names (globs allowed) "
             "to quantize though calibration keeps them fp32 by default (the final classifier)"),
    cl::value_desc("PATTERN"), cl::CommaSeparated, cl::cat(category));
static cl::opt<bool> allowTf32(
    "allow-tf32",
    cl::desc("With --target cuda: let cuBLASLt round the inputs of fp32 matrix products to TF32 "
             "(tensor cores; about 1e-3 relative error). Default: fp32 math"),
    cl::cat(category));
static cl::opt<std::string> cudaIndexBitwidth(
    "cuda-index-bitwidth",
    cl::desc("With --target cuda: the kernels' index arithmetic, 32 (default; every buffer must "
             "have fewer than 2^31 elements) or 64 (larger buffers, slower indexing)"),
    cl::value_desc("32|64"), cl::init("32"), cl::cat(category));
static cl::opt<bool> cudaEmulate(
    "cuda-emulate",
    cl::desc("Tests only, with --target cuda: run the kernels as loops in the host code instead "
             "of building them, so that the artifact runs (slowly) on a CUDA driver whose device "
             "memory is host memory, like the tests' stand-in; such an artifact refuses a real "
             "GPU"),
    cl::cat(category));
static cl::opt<std::string>
    partition("partition",
              cl::desc("Split the program among the ranks of an mpirun job: data (data-parallel "
                       "inference: each rank takes 1/N of the batch, the outputs are gathered) "
                       "or pipeline (pipeline inference: rank k runs stage k of N stages "
                       "balanced by the cost model). Needs --devices N"),
              cl::value_desc("MODE"), cl::cat(category));
static cl::opt<std::string> devices("devices",
                                    cl::desc("With --partition: the ranks of the job (>= 2)"),
                                    cl::value_desc("N"), cl::init("1"), cl::cat(category));
static cl::opt<std::string>
    microBatches("micro-batches",
                 cl::desc("With --partition pipeline: split the batch into M parts that follow "
                          "each other through the stages (GPipe). Default: the largest divisor "
                          "of a static batch that is at most --devices"),
                 cl::value_desc("M"), cl::init("0"), cl::cat(category));
static cl::opt<std::string> stageMemoryMb(
    "stage-memory-mb",
    cl::desc("With --partition pipeline: the most MiB of weights (with --train: and their "
             "optimizer state) one stage may hold; the cut is the fastest within it. Default: "
             "no limit"),
    cl::value_desc("MB"), cl::init("0"), cl::cat(category));
static cl::opt<std::string>
    bucketMb("bucket-mb",
             cl::desc("With --partition data --train: the largest bucket of gradients averaged "
                      "over the ranks by one allreduce, in MiB"),
             cl::value_desc("MB"), cl::init("32"), cl::cat(category));
static cl::opt<bool> overlapBuckets(
    "overlap-buckets",
    cl::desc("With --partition data --train: start each gradient bucket's allreduce as soon as "
             "its last gradient exists and wait just before the update, overlapping the rest of "
             "backward (default: block after the last gradient, faster when the ranks fill the "
             "CPU's cores)"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string> reduceStrategy(
    "reduce-strategy",
    cl::desc("With --partition data --train: allreduce (every rank updates every parameter) or "
             "reduce (each rank updates, and keeps optimizer state for, 1/N of the parameters: "
             "reduce-scatter the gradients, allgather the parameters)"),
    cl::value_desc("allreduce|reduce"), cl::init("allreduce"), cl::cat(category));
static cl::opt<bool> syncBatchNorm(
    "sync-batch-norm",
    cl::desc("With --partition data --train: batch_norm statistics over the global batch "
             "(summed over the ranks) rather than each rank's part"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> allowEmulatedBf16(
    "allow-emulated-bf16",
    cl::desc("With --precision bf16: build for a CPU without AVX512_BF16 or AMX-BF16 anyway, "
             "computing the bf16 values in f32 (slow; the manifest says so)"),
    cl::init(false), cl::cat(category));
static cl::list<std::string> precisionAllow(
    "precision-allow",
    cl::desc("With --precision bf16: op types or Paddle output variable names that run in bf16 "
             "(comma-separated or repeated)"),
    cl::value_desc("PATTERN"), cl::CommaSeparated, cl::cat(category));
static cl::list<std::string> precisionDeny(
    "precision-deny",
    cl::desc("With --precision bf16: op types or Paddle output variable names that stay fp32 "
             "(comma-separated or repeated; wins over --precision-allow)"),
    cl::value_desc("PATTERN"), cl::CommaSeparated, cl::cat(category));
static cl::list<std::string> inputShapes("input-shape",
                                         cl::desc("Static shape of an input: NAME=1x3x224x224"),
                                         cl::value_desc("NAME=DIMS"), cl::cat(category));
static cl::opt<std::string> name("name", cl::desc("Artifact name (lib<name>.so, <name>.h)"),
                                 cl::init("model"), cl::cat(category));
static cl::opt<bool> noOptimize("no-optimize", cl::desc("Skip the graph pipeline (--pd-optimize)"),
                                cl::cat(category));
static cl::opt<bool> memoryPlan("memory-plan",
                                cl::desc("Place intermediate buffers in one arena per instance "
                                         "(default; --memory-plan=false keeps them on the heap)"),
                                cl::init(true), cl::cat(category));
static cl::opt<bool> memoryReport("memory-report",
                                  cl::desc("Print the static memory plan (implies --memory-plan)"),
                                  cl::init(false), cl::cat(category));
static cl::opt<std::string> kernels(
    "kernels",
    cl::desc("Kernels for conv/matmul: onednn (default: oneDNN through libpdrt_kernels.so) or "
             "none (all generated code)"),
    cl::init("onednn"), cl::cat(category));
static cl::opt<bool>
    parallel("parallel",
             cl::desc("Split generated loops over the OpenMP threads oneDNN uses too (default; "
                      "OMP_NUM_THREADS sets their number at run time; --parallel=false keeps "
                      "generated code on the calling thread)"),
             cl::init(true), cl::cat(category));
static cl::opt<std::string> convLayout(
    "conv-layout",
    cl::desc("Activation layout between oneDNN convolutions: auto (default: the faster of nhwc "
             "and nchw8c, timed at compile time when shapes are static), nhwc, nchw8c or "
             "nchw16c"),
    cl::init("auto"), cl::cat(category));
static cl::opt<std::string> convAlgorithm(
    "conv-algorithm",
    cl::desc("3x3 stride-1 convolutions between NHWC or nChw8c activations: auto (default: "
             "Winograd F(2x2,3x3) or F(4x4,3x3) where one times faster at compile time), direct "
             "(oneDNN's), winograd or winograd4 (every eligible one with F(2x2,3x3) or "
             "F(4x4,3x3))"),
    cl::init("auto"), cl::cat(category));
static cl::opt<std::string>
    cpu("cpu",
        cl::desc("CPU the generated code targets: host (default: this machine's CPU and "
                 "features) or an LLVM CPU name such as x86-64-v3, skylake-avx512 or znver4"),
        cl::init("host"), cl::cat(category));
static cl::opt<std::string> output("o", cl::desc("Output directory"), cl::value_desc("OUTDIR"),
                                   cl::Required, cl::cat(category));

// Training (docs/Training.md): a train step instead of inference.
static cl::OptionCategory trainCategory("paddle-compile training options (with --train)");
static cl::opt<bool> train("train",
                           cl::desc("Compile a train step: forward, backward and the optimizer's "
                                    "update; the artifact returns the loss"),
                           cl::init(false), cl::cat(trainCategory));
static cl::opt<bool> nesterov("nesterov", cl::desc("momentum: Nesterov's update"), cl::init(false),
                              cl::cat(trainCategory));
static cl::opt<bool> keepGradients("keep-gradients",
                                   cl::desc("Also return each parameter's gradient (w@GRAD)"),
                                   cl::init(false), cl::cat(trainCategory));
/// The valued training flags, parsed by setCompileOption like Python's
/// keywords; each is applied only when given.
struct TrainFlag {
  const char *name, *help;
};
static const TrainFlag trainFlags[] = {
    {"loss", "The output (or Paddle variable) that already holds a scalar loss"},
    {"loss-op", "Append this loss to the first output: softmax_with_cross_entropy"},
    {"label", "The name of the label input --loss-op adds (default: label)"},
    {"optimizer", "sgd (default), momentum, adam or adamw"},
    {"lr", "The (peak) learning rate (default 0.01)"},
    {"momentum", "momentum: the velocity's decay (default 0.9)"},
    {"beta1", "adam(w): the first moment's decay (default 0.9)"},
    {"beta2", "adam(w): the second moment's decay (default 0.999)"},
    {"epsilon", "adam(w): added to the denominator (default 1e-8)"},
    {"weight-decay", "L2 decay of the gradients; adamw: decoupled decay (default 0.01)"},
    {"clip-norm", "Clip the gradients by their global norm (default 0: off)"},
    {"schedule", "Learning-rate schedule: constant (default), step or cosine"},
    {"step-size", "step: multiply the learning rate by --gamma every N steps"},
    {"gamma", "step: the factor (default 0.1)"},
    {"total-steps", "cosine: steps (after warmup) from --lr down to --min-lr"},
    {"min-lr", "cosine: the final learning rate (default 0)"},
    {"warmup-steps", "Linear warmup from 0 over N steps before the schedule"},
};
static std::vector<std::unique_ptr<cl::opt<std::string>>> trainValues = [] {
  std::vector<std::unique_ptr<cl::opt<std::string>>> v;
  for (const TrainFlag &f : trainFlags)
    v.push_back(std::make_unique<cl::opt<std::string>>(llvm::StringRef(f.name), cl::desc(f.help),
                                                       cl::value_desc("value"),
                                                       cl::cat(trainCategory)));
  return v;
}();

/// One line from the artifact's manifest: how many compute ops run in bf16,
/// why the others stay fp32, and whether bf16 is emulated.
static void printPrecisionSummary(StringRef dir) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, "manifest.json");
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf)
    return;
  llvm::Expected<llvm::json::Value> v = llvm::json::parse((*buf)->getBuffer());
  if (!v) {
    llvm::consumeError(v.takeError());
    return;
  }
  const llvm::json::Object *ops =
      v->getAsObject() ? v->getAsObject()->getObject("compute_ops") : nullptr;
  const llvm::json::Array *records = ops ? ops->getArray("ops") : nullptr;
  if (!records)
    return;
  int64_t low = 0;
  std::map<std::string, int64_t> fp32;
  for (const llvm::json::Value &r : *records) {
    const llvm::json::Object *o = r.getAsObject();
    if (!o)
      continue;
    if (o->getString("precision") == "bf16")
      ++low;
    else
      ++fp32[o->getString("reason").value_or("").str()];
  }
  llvm::outs() << "precision bf16: " << low << " of " << records->size() << " compute ops in bf16";
  for (auto [why, n] : fp32)
    llvm::outs() << ", " << n << " fp32 (" << why << ")";
  const llvm::json::Object *bf16 = ops->getObject("bf16");
  if (bf16 && bf16->getBoolean("emulated").value_or(false))
    llvm::outs() << "; emulated in f32 (no AVX512_BF16 / AMX-BF16)";
  llvm::outs() << "\n";
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  cl::HideUnrelatedOptions({&category, &trainCategory});
  cl::ParseCommandLineOptions(argc, argv, "paddle-mlir ahead-of-time compiler\n");
  pd::registerCodeGenPassesAndPipelines();

  pd::CompileOptions opts;
  opts.name = name;
  opts.optimize = !noOptimize;
  opts.memoryPlan = memoryPlan;
  opts.memoryReport = memoryReport;
  opts.cpu = cpu;
  opts.parallel = parallel;
  // Parsed by the same code as paddle_mlir.compile's keywords, so both say the same.
  const std::pair<StringRef, StringRef> typedOptions[] = {
      {"target", target},
      {"cuda-arch", cudaArch},
      {"allow-tf32", allowTf32 ? "true" : "false"},
      {"cuda-emulate", cudaEmulate ? "true" : "false"},
      {"cuda-index-bitwidth", cudaIndexBitwidth},
      {"partition", partition},
      {"devices", devices},
      {"micro-batches", microBatches},
      {"stage-memory-mb", stageMemoryMb},
      {"bucket-mb", bucketMb},
      {"overlap-buckets", overlapBuckets ? "true" : "false"},
      {"reduce-strategy", reduceStrategy},
      {"sync-batch-norm", syncBatchNorm ? "true" : "false"},
      {"precision", precision},
      {"kernels", kernels},
      {"conv-layout", convLayout},
      {"conv-algorithm", convAlgorithm},
      {"calibration-data", calibration},
      {"calibration-method", calibrationMethod},
      {"calibration-percentile", calibrationPercentile},
      {"calibration-samples", calibrationSamples},
      {"calibration-cache", calibrationCache},
      {"validation-split", validationSplit},
      {"accuracy-target", accuracyTarget},
      {"check-data", checkData},
      {"precision-check", precisionCheck ? "true" : "false"}};
  for (auto [flag, value] : typedOptions)
    if (llvm::Error e = pd::setCompileOption(opts, flag, value)) {
      llvm::errs() << "paddle-compile: error: " << llvm::toString(std::move(e)) << "\n";
      return 1;
    }
  // Training flags apply only with --train, and --train needs a loss.
  for (const cl::Option *o : std::initializer_list<const cl::Option *>{&nesterov, &keepGradients})
    if (o->getNumOccurrences() && !train) {
      llvm::errs() << "paddle-compile: error: --" << o->ArgStr << " only applies with --train\n";
      return 1;
    }
  for (auto &o : trainValues) {
    if (!o->getNumOccurrences())
      continue;
    if (!train) {
      llvm::errs() << "paddle-compile: error: --" << o->ArgStr << " only applies with --train\n";
      return 1;
    }
    if (llvm::Error e = pd::setCompileOption(opts, o->ArgStr, o->getValue())) {
      llvm::errs() << "paddle-compile: error: " << llvm::toString(std::move(e)) << "\n";
      return 1;
    }
  }
  if (train) {
    opts.train = true;
    opts.nesterov = nesterov;
    opts.keepGradients = keepGradients;
    if (opts.loss.empty() == opts.lossOp.empty()) {
      llvm::errs() << "paddle-compile: error: --train needs exactly one of --loss NAME (an "
                      "output holding a scalar loss) and --loss-op softmax_with_cross_entropy\n";
      return 1;
    }
  }
  if (!calibration.empty() && opts.precision != pd::Precision::INT8) {
    llvm::errs() << "paddle-compile: error: --calibration-data only applies to --precision int8\n";
    return 1;
  }
  for (const cl::Option *o : std::initializer_list<const cl::Option *>{
           &calibrationMethod, &calibrationPercentile, &calibrationSamples, &calibrationCache,
           &validationSplit})
    if (o->getNumOccurrences() && calibration.empty()) {
      llvm::errs() << "paddle-compile: error: --" << o->ArgStr
                   << " only applies with --calibration-data\n";
      return 1;
    }
  if (accuracyTarget.getNumOccurrences() && calibration.empty() &&
      opts.precision != pd::Precision::BF16) {
    llvm::errs() << "paddle-compile: error: --accuracy-target only applies with "
                    "--calibration-data (int8) or --precision bf16\n";
    return 1;
  }
  if ((precisionCheck || !checkData.empty()) && opts.precision != pd::Precision::BF16) {
    llvm::errs() << "paddle-compile: error: --"
                 << (precisionCheck ? "precision-check" : "check-data")
                 << " only applies to --precision bf16 (int8 checks itself on the "
                    "--calibration-data samples)\n";
    return 1;
  }
  if (!quantizeExclude.empty() && opts.precision != pd::Precision::INT8) {
    llvm::errs() << "paddle-compile: error: --quantize-exclude only applies to --precision int8\n";
    return 1;
  }
  opts.quantizeExclude.assign(quantizeExclude.begin(), quantizeExclude.end());
  if (!quantizeInclude.empty() && calibration.empty()) {
    llvm::errs() << "paddle-compile: error: --quantize-include only applies with "
                    "--calibration-data\n";
    return 1;
  }
  opts.quantizeInclude.assign(quantizeInclude.begin(), quantizeInclude.end());
  opts.allowEmulatedBf16 = allowEmulatedBf16;
  opts.precisionAllow.assign(precisionAllow.begin(), precisionAllow.end());
  opts.precisionDeny.assign(precisionDeny.begin(), precisionDeny.end());
  for (const std::string &spec : inputShapes) {
    std::vector<int64_t> dims;
    std::string error;
    std::string inputName;
    if (!pd::tool::parseShapeSpec(spec, inputName, dims, error)) {
      llvm::errs() << "paddle-compile: error: --input-shape " << spec << ": " << error << "\n";
      return 1;
    }
    opts.inputShapes[inputName] = dims;
  }
  MLIRContext ctx(pd::tool::compilerRegistry());
  pd::ToolDiagnosticHandler handler(&ctx);
  auto start = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> module = pd::tool::loadModel(&ctx, input, params);
  if (!module)
    return 1;
  if (failed(pd::compileToArtifact(*module, opts, output)))
    return 1;
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  llvm::outs() << "compiled " << input << " -> " << output << " in " << llvm::format("%.2f", secs)
               << " s\n";
  if (opts.precision == pd::Precision::BF16)
    printPrecisionSummary(output);
  return 0;
}

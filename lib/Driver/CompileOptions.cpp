//===- CompileOptions.cpp - spellings of the typed compile options -------===//

#include "PaddleMLIR/Driver/CompileOptions.h"
#include "PaddleMLIR/Quant/Calibration.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>

using namespace mlir::pd;
using llvm::StringRef;

namespace {
template <typename E> struct Spelling {
  E value;
  StringRef name;
};

// One table per option: parsing, the list of choices in its error message
// and stringify all read it.
constexpr Spelling<Target> kTargets[] = {{Target::CPU, "cpu"}, {Target::CUDA, "cuda"}};
constexpr Spelling<Precision> kPrecisions[] = {{Precision::FP32, "fp32"},
                                               {Precision::BF16, "bf16"},
                                               {Precision::FP16, "fp16"},
                                               {Precision::INT8, "int8"}};
constexpr Spelling<KernelLibrary> kKernelLibraries[] = {{KernelLibrary::OneDNN, "onednn"},
                                                        {KernelLibrary::None, "none"}};
constexpr Spelling<ConvLayout> kConvLayouts[] = {{ConvLayout::Auto, "auto"},
                                                 {ConvLayout::NHWC, "nhwc"},
                                                 {ConvLayout::NChw8c, "nchw8c"},
                                                 {ConvLayout::NChw16c, "nchw16c"}};
constexpr Spelling<ConvAlgorithm> kConvAlgorithms[] = {{ConvAlgorithm::Auto, "auto"},
                                                       {ConvAlgorithm::Direct, "direct"},
                                                       {ConvAlgorithm::WinogradF2, "winograd"},
                                                       {ConvAlgorithm::WinogradF4, "winograd4"}};

template <typename E, size_t N> StringRef spell(const Spelling<E> (&table)[N], E value) {
  for (const Spelling<E> &s : table)
    if (s.value == value)
      return s.name;
  llvm_unreachable("an enumerator without a spelling");
}

/// Parses `value` into `out`; else "--<flag> must be a, b or c, not 'x'".
/// `quoted` puts the choices in quotes too (--kernels has always said
/// 'onednn' or 'none', and scripts match that).
template <typename E, size_t N>
llvm::Error parse(const Spelling<E> (&table)[N], StringRef flag, StringRef value, E &out,
                  bool quoted = false) {
  for (const Spelling<E> &s : table)
    if (s.name == value) {
      out = s.value;
      return llvm::Error::success();
    }
  std::string msg = "--" + flag.str() + " must be ";
  for (size_t i = 0; i < N; ++i) {
    msg += i == 0 ? "" : i + 1 == N ? " or " : ", ";
    msg += quoted ? "'" + table[i].name.str() + "'" : table[i].name.str();
  }
  msg += ", not '" + value.str() + "'";
  return llvm::createStringError(msg);
}
} // namespace

StringRef mlir::pd::stringify(Target value) { return spell(kTargets, value); }
StringRef mlir::pd::stringify(Precision value) { return spell(kPrecisions, value); }
StringRef mlir::pd::stringify(KernelLibrary value) { return spell(kKernelLibraries, value); }
StringRef mlir::pd::stringify(ConvLayout value) { return spell(kConvLayouts, value); }
StringRef mlir::pd::stringify(ConvAlgorithm value) { return spell(kConvAlgorithms, value); }

llvm::Error mlir::pd::setCompileOption(CompileOptions &options, StringRef flag, StringRef value) {
  if (flag == "target")
    return parse(kTargets, flag, value, options.target);
  if (flag == "precision")
    return parse(kPrecisions, flag, value, options.precision);
  if (flag == "kernels")
    return parse(kKernelLibraries, flag, value, options.kernels, /*quoted=*/true);
  if (flag == "conv-layout")
    return parse(kConvLayouts, flag, value, options.convLayout);
  if (flag == "conv-algorithm")
    return parse(kConvAlgorithms, flag, value, options.convAlgorithm);
  if (flag == "cuda-arch") {
    // sm_NN or sm_NNa (architecture-specific features, e.g. sm_90a).
    StringRef digits = value.trim();
    unsigned n = 0;
    bool ok = digits.consume_front("sm_");
    digits.consume_back("a");
    if (!ok || digits.getAsInteger(10, n) || n < 50)
      return llvm::createStringError("--cuda-arch must be a CUDA architecture sm_NN with NN >= 50 "
                                     "(sm_80: A100, sm_90: H100/H200), not '" +
                                     value.str() + "'");
    options.cudaArch = value.trim().str();
    return llvm::Error::success();
  }
  if (flag == "quantize-exclude" || flag == "quantize-include") {
    // Comma-separated op types or output variable names, globs allowed
    // (empty: none).
    llvm::SmallVector<StringRef> parts;
    value.split(parts, ',', -1, /*KeepEmpty=*/false);
    std::vector<std::string> &list =
        flag == "quantize-exclude" ? options.quantizeExclude : options.quantizeInclude;
    list.clear();
    for (StringRef p : parts)
      list.push_back(p.trim().str());
    return llvm::Error::success();
  }
  auto number = [&](double lo, double hi, double &out) -> llvm::Error {
    double v;
    if (value.trim().getAsDouble(v) || !(v >= lo && v <= hi))
      return llvm::createStringError(
          llvm::formatv("--{0} must be a number in [{1}, {2}], not '{3}'", flag, lo, hi, value)
              .str());
    out = v;
    return llvm::Error::success();
  };
  if (flag == "calibration-data") {
    options.calibrationData = value.str();
    return llvm::Error::success();
  }
  if (flag == "calibration-cache") {
    options.calibrationCache = value.str();
    return llvm::Error::success();
  }
  if (flag == "calibration-method") {
    if (!paddle_mlir::quant::parseMethod(value))
      return llvm::createStringError("--calibration-method must be minmax, percentile, kl or mse, "
                                     "not '" +
                                     value.str() + "'");
    options.calibrationMethod = value.str();
    return llvm::Error::success();
  }
  if (flag == "calibration-percentile")
    return number(0, 100, options.calibrationPercentile);
  if (flag == "validation-split")
    return number(0, 0.9, options.validationSplit);
  if (flag == "calibration-samples") {
    long long n;
    if (value.trim().getAsInteger(10, n) || n < 0)
      return llvm::createStringError("--calibration-samples must be a count >= 0 (0: all), not '" +
                                     value.str() + "'");
    options.calibrationSamples = n;
    return llvm::Error::success();
  }
  if (flag == "accuracy-target") {
    // "top1=0.99", "sqnr=30", or "" (none).
    auto [kind, v] = value.trim().split('=');
    double x;
    if (value.trim().empty()) {
      options.accuracyTarget = {};
      return llvm::Error::success();
    }
    bool bad = v.trim().getAsDouble(x) || !std::isfinite(x);
    if (!bad && kind.trim() == "top1" && x > 0 && x <= 1) {
      options.accuracyTarget = {AccuracyTarget::Top1, x};
      return llvm::Error::success();
    }
    if (!bad && kind.trim() == "sqnr" && x > 0) {
      options.accuracyTarget = {AccuracyTarget::SQNR, x};
      return llvm::Error::success();
    }
    return llvm::createStringError("--accuracy-target must be top1=F (top-1 agreement with fp32, "
                                   "0 < F <= 1) or sqnr=DB (output SQNR in dB, > 0), not '" +
                                   value.str() + "'");
  }
  if (flag == "precision-allow" || flag == "precision-deny") {
    llvm::SmallVector<StringRef> parts;
    value.split(parts, ',', -1, /*KeepEmpty=*/false);
    std::vector<std::string> &list =
        flag == "precision-allow" ? options.precisionAllow : options.precisionDeny;
    list.clear();
    for (StringRef p : parts)
      list.push_back(p.trim().str());
    return llvm::Error::success();
  }
  if (flag == "check-data") {
    options.checkData = value.str();
    return llvm::Error::success();
  }
  if (flag == "precision-check") {
    if (value != "true" && value != "false")
      return llvm::createStringError("--precision-check must be true or false, not '" +
                                     value.str() + "'");
    options.precisionCheck = value == "true";
    return llvm::Error::success();
  }
  if (flag == "allow-tf32") {
    if (value != "true" && value != "false")
      return llvm::createStringError("--allow-tf32 must be true or false, not '" + value.str() +
                                     "'");
    options.allowTf32 = value == "true";
    return llvm::Error::success();
  }
  if (flag == "cuda-index-bitwidth") {
    if (value != "32" && value != "64")
      return llvm::createStringError("--cuda-index-bitwidth must be 32 or 64, not '" + value.str() +
                                     "'");
    options.cudaIndexBitwidth = value == "64" ? 64 : 32;
    return llvm::Error::success();
  }
  if (flag == "partition") {
    if (value != "" && value != "none" && value != "data" && value != "pipeline")
      return llvm::createStringError("--partition must be data or pipeline, not '" + value.str() +
                                     "'");
    options.partition = value == "none" ? "" : value.str();
    return llvm::Error::success();
  }
  if (flag == "bucket-mb") {
    double mb;
    if (value.trim().getAsDouble(mb) || !(mb > 0) || !std::isfinite(mb))
      return llvm::createStringError("--bucket-mb must be a number > 0, not '" + value.str() + "'");
    options.bucketMb = mb;
    return llvm::Error::success();
  }
  if (flag == "reduce-strategy") {
    if (value != "allreduce" && value != "reduce")
      return llvm::createStringError("--reduce-strategy must be allreduce or reduce, not '" +
                                     value.str() + "'");
    options.reduceStrategy = value.str();
    return llvm::Error::success();
  }
  if (flag == "stage-memory-mb") {
    double mb;
    if (value.trim().getAsDouble(mb) || !(mb >= 0) || !std::isfinite(mb))
      return llvm::createStringError("--stage-memory-mb must be a number >= 0, not '" +
                                     value.str() + "'");
    options.stageMemoryMb = mb;
    return llvm::Error::success();
  }
  if (flag == "micro-batches") {
    int64_t n;
    if (value.trim().getAsInteger(10, n) || n < 0)
      return llvm::createStringError("--micro-batches must be a non-negative integer, not '" +
                                     value.str() + "'");
    options.microBatches = n;
    return llvm::Error::success();
  }
  if (flag == "devices") {
    int64_t n;
    if (value.trim().getAsInteger(10, n) || n < 1)
      return llvm::createStringError("--devices must be a positive integer, not '" + value.str() +
                                     "'");
    options.devices = n;
    return llvm::Error::success();
  }
  if (flag == "allow-emulated-bf16") {
    if (value != "true" && value != "false")
      return llvm::createStringError("--allow-emulated-bf16 must be true or false, not '" +
                                     value.str() + "'");
    options.allowEmulatedBf16 = value == "true";
    return llvm::Error::success();
  }
  // Flags that are true or false.
  auto boolean = [&](bool &out) -> llvm::Error {
    if (value != "true" && value != "false")
      return llvm::createStringError("--" + flag.str() + " must be true or false, not '" +
                                     value.str() + "'");
    out = value == "true";
    return llvm::Error::success();
  };
  if (flag == "cuda-emulate")
    return boolean(options.cudaEmulate);
  // Training (docs/Training.md).
  if (flag == "train")
    return boolean(options.train);
  if (flag == "keep-gradients")
    return boolean(options.keepGradients);
  if (flag == "overlap-buckets")
    return boolean(options.overlapBuckets);
  if (flag == "sync-batch-norm")
    return boolean(options.syncBatchNorm);
  if (flag == "loss") {
    options.loss = value.str();
    return llvm::Error::success();
  }
  if (flag == "loss-op") {
    if (!value.empty() && value != "softmax_with_cross_entropy")
      return llvm::createStringError("--loss-op must be softmax_with_cross_entropy, not '" +
                                     value.str() + "'");
    options.lossOp = value.str();
    return llvm::Error::success();
  }
  if (flag == "label") {
    if (value.empty())
      return llvm::createStringError("--label must name the label input");
    options.label = value.str();
    return llvm::Error::success();
  }
  if (flag == "optimizer") {
    if (value != "sgd" && value != "momentum" && value != "adam" && value != "adamw")
      return llvm::createStringError("--optimizer must be sgd, momentum, adam or adamw, not '" +
                                     value.str() + "'");
    options.optimizer = value.str();
    return llvm::Error::success();
  }
  if (flag == "schedule") {
    if (value != "constant" && value != "step" && value != "cosine")
      return llvm::createStringError("--schedule must be constant, step or cosine, not '" +
                                     value.str() + "'");
    options.schedule = value.str();
    return llvm::Error::success();
  }
  if (flag == "nesterov")
    return boolean(options.nesterov);
  // Real-valued options: the range each accepts, and what it says otherwise.
  auto real = [&](double &out, double lo, bool loOpen, double hi, bool hiOpen,
                  StringRef what) -> llvm::Error {
    double v;
    if (value.trim().getAsDouble(v) || !std::isfinite(v) || v < lo || (loOpen && v == lo) ||
        v > hi || (hiOpen && v == hi))
      return llvm::createStringError("--" + flag.str() + " must be " + what.str() + ", not '" +
                                     value.str() + "'");
    out = v;
    return llvm::Error::success();
  };
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (flag == "lr")
    return real(options.learningRate, 0, true, inf, true, "a positive number");
  if (flag == "momentum")
    return real(options.momentum, 0, false, inf, true, "a number >= 0");
  if (flag == "beta1")
    return real(options.beta1, 0, false, 1, true, "in [0, 1)");
  if (flag == "beta2")
    return real(options.beta2, 0, false, 1, true, "in [0, 1)");
  if (flag == "epsilon")
    return real(options.epsilon, 0, false, inf, true, "a number >= 0");
  if (flag == "weight-decay")
    return real(options.weightDecay, 0, false, inf, true, "a number >= 0");
  if (flag == "clip-norm")
    return real(options.clipNorm, 0, false, inf, true, "a number >= 0 (0: no clipping)");
  if (flag == "gamma")
    return real(options.gamma, 0, true, inf, true, "a positive number");
  if (flag == "min-lr")
    return real(options.minLr, 0, false, inf, true, "a number >= 0");
  auto count = [&](int64_t &out, int64_t lo) -> llvm::Error {
    int64_t v;
    if (value.trim().getAsInteger(10, v) || v < lo)
      return llvm::createStringError("--" + flag.str() + " must be an integer >= " +
                                     std::to_string(lo) + ", not '" + value.str() + "'");
    out = v;
    return llvm::Error::success();
  };
  if (flag == "step-size")
    return count(options.stepSize, 1);
  if (flag == "total-steps")
    return count(options.totalSteps, 1);
  if (flag == "warmup-steps")
    return count(options.warmupSteps, 0);
  return llvm::createStringError("'" + flag.str() + "' is not a compile option");
}

//===- Validation.h - running helper artifacts to check a precision -*- C++ -*-===//
//
// What a precision choice (int8 calibration, and mixed precision) needs to
// check itself against fp32 at compile time: the user's samples (.npy /
// .npz, checked against the model's inputs), helper artifacts loaded
// through the runtime, progress lines, output agreement (SQNR, top-1) with
// a float reference, and the search for the fewest layers to move back to
// fp32 to meet --accuracy-target. Calibrate.cpp uses it.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_LIB_DRIVER_VALIDATION_H
#define PADDLEMLIR_LIB_DRIVER_VALIDATION_H

#include "PaddleMLIR/Driver/CompileOptions.h"
#include "PaddleMLIR/Support/Npy.h"
#include "pdrt.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

namespace mlir::pd::driver {

/// One sample: an array per model input, in the model's input order.
struct Sample {
  std::string file;
  std::vector<npy::Array> inputs;
};

/// An input of the model as the helper artifacts see it.
struct InputSpec {
  std::string name;
  pdrt_dtype dtype;
  std::vector<int64_t> shape; // -1: dynamic
};

/// @main's inputs as the helper artifacts take them (-1: dynamic).
std::vector<InputSpec> inputSpecs(func::FuncOp main);

/// The sample files of `dir` (.npy and .npz), sorted by name; an error on
/// `where` if there is none or no such folder.
LogicalResult listSamples(ModuleOp where, llvm::StringRef dir, std::vector<std::string> &files);

/// Reads one sample and checks it against `inputs` (a .npy for a
/// one-input model, an .npz with an array per input name; an array one rank
/// short of an input with leading batch dim 1 or ? gets it). One error line
/// naming the file and the input.
bool readSample(const std::string &file, llvm::ArrayRef<InputSpec> inputs, Sample &out,
                std::string &error);

/// A loaded helper artifact and one instance of it.
class Runner {
public:
  ~Runner() {
    if (instance_)
      pdrt_instance_free(instance_);
    if (model_)
      pdrt_model_free(model_);
  }
  bool load(const std::string &dir, std::string &error) {
    if (pdrt_model_load(dir.c_str(), &model_) != PDRT_OK ||
        pdrt_instance_create(model_, &instance_) != PDRT_OK) {
      error = std::string("cannot load the helper artifact: ") + pdrt_last_error();
      return false;
    }
    return true;
  }
  std::vector<InputSpec> inputs() const {
    std::vector<InputSpec> r;
    for (int64_t i = 0; i < pdrt_model_num_inputs(model_); ++i) {
      const int64_t *s = pdrt_model_input_shape(model_, i);
      r.push_back({pdrt_model_input_name(model_, i), pdrt_model_input_dtype(model_, i),
                   std::vector<int64_t>(s, s + pdrt_model_input_rank(model_, i))});
    }
    return r;
  }
  int64_t numOutputs() const { return pdrt_model_num_outputs(model_); }
  std::string outputName(int64_t i) const { return pdrt_model_output_name(model_, i); }
  bool run(const Sample &s, ArrayRef<InputSpec> specs, std::string &error) {
    for (size_t i = 0; i < specs.size(); ++i) {
      const npy::Array &a = s.inputs[i];
      if (pdrt_set_input(instance_, specs[i].name.c_str(), a.dtype, a.shape.data(),
                         static_cast<int64_t>(a.shape.size()), a.data.data()) != PDRT_OK) {
        error = "calibration sample '" + s.file + "': " + pdrt_last_error();
        return false;
      }
    }
    if (pdrt_run(instance_) != PDRT_OK) {
      error = "calibration sample '" + s.file + "': the run failed: " + pdrt_last_error();
      return false;
    }
    return true;
  }
  /// Output i of the last run as floats (empty if it is not float32).
  ArrayRef<float> output(int64_t i) const {
    const void *data;
    const int64_t *shape;
    int64_t rank;
    pdrt_dtype dtype;
    if (pdrt_get_output(instance_, i, &data, &shape, &rank, &dtype) != PDRT_OK ||
        dtype != PDRT_FLOAT32)
      return {};
    int64_t n = 1;
    for (int64_t d = 0; d < rank; ++d)
      n *= shape[d];
    return ArrayRef<float>(static_cast<const float *>(data), n);
  }
  /// The last dim of output i (the classes of a classifier).
  int64_t lastDim(int64_t i) const {
    const void *data;
    const int64_t *shape;
    int64_t rank;
    pdrt_dtype dtype;
    if (pdrt_get_output(instance_, i, &data, &shape, &rank, &dtype) != PDRT_OK || rank == 0)
      return 1;
    return shape[rank - 1];
  }

private:
  pdrt_model *model_ = nullptr;
  pdrt_instance *instance_ = nullptr;
};

/// "calibrating: 120/400 samples, 3.1 s, ETA 7.2 s" on stderr: rewritten in
/// place on a terminal, else a line per tenth of the work.
class Progress {
public:
  Progress(bool enabled, std::string what, size_t total)
      : enabled_(enabled && total > 0), what_(std::move(what)), total_(total),
        tty_(llvm::sys::Process::StandardErrIsDisplayed()),
        start_(std::chrono::steady_clock::now()) {}
  void step(size_t done) {
    if (!enabled_)
      return;
    double secs = elapsed();
    bool last = done == total_;
    if (tty_) {
      if (!last && secs - lastPrint_ < 0.2)
        return;
    } else if (!last && (done * 10 / total_ == printedTenth_ || secs - lastPrint_ < 1.0)) {
      return;
    }
    lastPrint_ = secs;
    printedTenth_ = done * 10 / total_;
    double eta = done ? secs / static_cast<double>(done) * static_cast<double>(total_ - done) : 0;
    llvm::errs() << (tty_ ? "\r" : "") << what_ << ": " << done << "/" << total_ << " samples, "
                 << llvm::format("%.1f", secs) << " s";
    if (!last)
      llvm::errs() << ", ETA " << llvm::format("%.1f", eta) << " s";
    llvm::errs() << (tty_ && !last ? "" : "\n");
  }
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

private:
  bool enabled_;
  std::string what_;
  size_t total_;
  bool tty_;
  std::chrono::steady_clock::time_point start_;
  double lastPrint_ = -1;
  size_t printedTenth_ = 0;
};

/// Output agreement of a candidate with the float reference over the
/// validation samples.
struct Agreement {
  double top1 = NAN;   // share of rows of output 0 with the same argmax
  double sqnr = NAN;   // dB over every float output
  double maxAbs = NAN; // largest |reference - candidate|
  double maxRel = NAN; // maxAbs over the largest |reference|
  bool meets(const AccuracyTarget &t) const {
    if (t.kind == AccuracyTarget::Top1)
      return top1 >= t.value;
    if (t.kind == AccuracyTarget::SQNR)
      return sqnr >= t.value;
    return true;
  }
};

/// The float outputs of the model on each validation sample.
struct Reference {
  std::vector<std::vector<std::vector<float>>> outputs; // [sample][output]
  int64_t classes = 1;                                  // last dim of output 0
};

/// 10 log10(signal / noise), capped at 300 dB (identical results).
double decibels(double signal, double noise);
/// "31.2", "exact" (300 dB) or "-" (not measured).
std::string dB(double v);
std::string targetText(const AccuracyTarget &t);
std::string agreementText(const Agreement &a);
/// null for NaN.
llvm::json::Value jsonNumber(double v);

/// Runs `r` over `files` and compares its first `numOutputs` outputs with
/// `reference` (recorded on the same files).
FailureOr<Agreement> measureAgreement(ModuleOp where, Runner &r, llvm::ArrayRef<std::string> files,
                                      llvm::ArrayRef<InputSpec> inputs, const Reference &reference,
                                      int64_t numOutputs, bool verbose, llvm::StringRef what);

/// The shared fallback loop of --accuracy-target: `measure(k)` measures the
/// model with the k worst of `n` candidate layers in fp32 (k = n: all of
/// them). Returns the smallest k that meets `target` (n if none does: the
/// caller warns), trying k = 0, 1, 2, ... while n <= 8, else bisecting on
/// k; `result` is the agreement at that k.
FailureOr<size_t> searchFallback(size_t n, const AccuracyTarget &target,
                                 llvm::function_ref<FailureOr<Agreement>(size_t)> measure,
                                 Agreement &result);
} // namespace mlir::pd::driver

#endif // PADDLEMLIR_LIB_DRIVER_VALIDATION_H

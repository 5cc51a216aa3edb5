//===- Calibrate.cpp - post-training int8 quantization of float models ---===//
//
// paddle-compile --precision int8 --calibration-data DIR (docs/Quantization.md,
// "Calibration"). On the graph-level module, in this order:
//   1. number the candidate layers and find, with a dry run of pd-quantize,
//      those that have an int8 form: the activations they read are the
//      tensors to observe;
//   2. calibrate: compile the float model with those tensors as extra
//      outputs, run it over the calibration samples (one at a time) and
//      keep per tensor a streaming observer (min/max and a fixed-size
//      histogram: memory does not grow with the samples), or read the
//      statistics from --calibration-cache; thresholds by the method;
//   3. probe: compile the float model with a quantized twin of every layer
//      reading the same float input, and run it over the validation
//      samples: each layer's own SQNR (its int8 error alone, not the error
//      it inherits), and the float outputs to compare with;
//   4. trials: compile the int8 model, run it over the validation samples
//      and measure top-1 agreement and output SQNR; under --accuracy-target,
//      move the layers with the worst SQNR back to fp32 (one at a time, or
//      by bisection over their number when there are many) until the target
//      holds;
//   5. insert the chosen quantizers into the module (pd-quantize then makes
//      int8 kernels of them) and write quant_report.json.
// The helper artifacts live in a temporary directory, removed at the end.
//
//===----------------------------------------------------------------------===//

#include "DriverInternal.h"
#include "Validation.h"

#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Calibration.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"
#include "PaddleMLIR/Driver/Driver.h"
#include "PaddleMLIR/Quant/Calibration.h"
#include "PaddleMLIR/Support/Npy.h"
#include "pdrt.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <unistd.h>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::driver;
namespace q = paddle_mlir::quant;

namespace {
LogicalResult fail(ModuleOp m, const Twine &msg) {
  m.emitError(msg);
  return failure();
}

std::string pathIn(StringRef dir, const Twine &file) {
  SmallString<256> p(dir);
  llvm::sys::path::append(p, file);
  return p.str().str();
}

//===--- The model's identity (for the cache) ------------------------------===//

/// A hash of @main (without locations) and of every global's data: the
/// statistics of a cache apply only to the model they were measured on.
std::string modelFingerprint(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (auto fn : module.getOps<func::FuncOp>())
    fn->print(os, OpPrintingFlags().printGenericOpForm().elideLargeElementsAttrs(16));
  uint64_t h = llvm::xxh3_64bits(text);
  for (auto global : module.getOps<ml_program::GlobalOp>()) {
    h ^= llvm::xxh3_64bits(global.getSymName()) * 0x9E3779B97F4A7C15ull;
    if (auto res = dyn_cast_or_null<DenseResourceElementsAttr>(global.getValueAttr()))
      if (AsmResourceBlob *blob = res.getRawHandle().getBlob()) {
        ArrayRef<char> d = blob->getData();
        h = llvm::xxh3_64bits(
                ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(d.data()), d.size())) ^
            (h * 31);
      }
  }
  return llvm::formatv("{0:x16}", h).str();
}

//===--- Layers ------------------------------------------------------------===//

/// What the report says of one layer.
struct LayerInfo {
  int64_t id;
  std::string name, op, tensor;
  bool int8Form = false; // pd-quantize converts it (dry run)
  bool keptFp32 = false; // fp32 by default (the final layer)
  std::string why;       // else why not
  double threshold = 0, scale = 0;
  bool isUnsigned = false;
  double sqnr = NAN; // its own SQNR in dB (probe)
  double macs = 0;
  std::string precision = "fp32", reason;
};

std::string layerName(Operation *op, int64_t id) {
  std::string name = paddleVariableOf(op);
  return name.empty() ? (op->getName().stripDialect() + " #" + Twine(id)).str() : name;
}

/// Multiply-accumulates of a layer from its static dims (dynamic ones as 1).
double macsOf(Operation *op) {
  auto numel = [](Type t) {
    double n = 1;
    for (int64_t d : cast<RankedTensorType>(t).getShape())
      n *= d > 0 ? static_cast<double>(d) : 1.0;
    return n;
  };
  if (op->getNumOperands() < 2)
    return 0;
  auto w = dyn_cast<RankedTensorType>(op->getOperand(1).getType());
  if (!w || w.getRank() < 2)
    return 0;
  double out = numel(op->getResult(0).getType());
  if (isa<Conv2dOp, DepthwiseConv2dOp, FusedConv2dOp>(op))
    return out * static_cast<double>(w.getDimSize(1)) * static_cast<double>(w.getDimSize(2)) *
           static_cast<double>(w.getDimSize(3));
  return out * static_cast<double>(std::max<int64_t>(w.getDimSize(0), 1));
}

/// Runs pd-quantize on a copy in which every layer has a quantizer, to learn
/// which layers have an int8 form and why the others do not.
LogicalResult dryRun(ModuleOp module, const CompileOptions &opts, std::vector<LayerInfo> &layers) {
  OwningOpRef<ModuleOp> copy = module.clone();
  SmallVector<QuantLayer> ls = collectQuantLayers(*copy);
  llvm::DenseMap<Value, std::string> names = activationNames(ls);
  std::map<std::string, ActivationRange> any;
  for (const QuantLayer &l : ls)
    for (Value v : l.tensors())
      any[names[v]] = {1.0, false};
  insertActivationQuantizers(*copy, any, {});
  PassManager pm(copy->getContext());
  driver::addQuantizePasses(pm, opts);
  if (failed(pm.run(*copy)))
    return failure();
  copy->walk([&](Operation *op) {
    auto id = op->getAttrOfType<IntegerAttr>("pd.layer");
    if (!id || id.getInt() < 0 || id.getInt() >= static_cast<int64_t>(layers.size()))
      return;
    LayerInfo &info = layers[id.getInt()];
    if (isa<QuantizedConv2dOp, QuantizedFcOp, QuantizedMatmulOp>(op))
      info.int8Form = true;
    else if (auto why = op->getAttrOfType<StringAttr>("pd.fp32_reason"))
      info.why = why.getValue().str();
  });
  return success();
}

//===--- Measuring ---------------------------------------------------------===//

struct Calibrator {
  ModuleOp module;
  const CompileOptions &opts;
  std::string tmp;
  std::vector<std::string> calibFiles, validFiles;
  std::vector<InputSpec> inputs;
  std::vector<LayerInfo> layers;
  std::map<std::string, ActivationRange> ranges;
  std::map<int64_t, std::string> defaults; // layers fp32 by default, and why
  int64_t numOutputs = 0;
  Reference reference;
  int artifacts = 0;
  q::CalibrationMethod method = q::CalibrationMethod::Percentile;

  Calibrator(ModuleOp m, const CompileOptions &o) : module(m), opts(o) {}

  /// Compiles a helper artifact of `graph` (consumed) into a fresh folder.
  FailureOr<std::string> build(ModuleOp graph, Precision precision, StringRef what) {
    CompileOptions o = opts;
    o.precision = precision;
    o.name = "helper";
    o.memoryReport = false;
    std::string dir = pathIn(tmp, what + Twine(++artifacts));
    if (failed(driver::writeArtifact(graph, o, dir, /*measure=*/false, /*quiet=*/true)))
      return failure();
    return dir;
  }

  LogicalResult load(Runner &r, const std::string &dir) {
    std::string error;
    if (!r.load(dir, error))
      return fail(module, error);
    return success();
  }

  /// Reads and checks every sample once up front, so a bad file fails before
  /// any long run.
  LogicalResult checkSamples(ArrayRef<std::string> files) {
    for (const std::string &f : files) {
      Sample s;
      std::string error;
      if (!readSample(f, inputs, s, error))
        return fail(module, error);
    }
    return success();
  }

  /// Runs `r` over `files`, calling `each(sample index)` after every run.
  LogicalResult runOver(Runner &r, ArrayRef<std::string> files, StringRef what,
                        llvm::function_ref<LogicalResult(size_t)> each) {
    Progress progress(opts.verbose, what.str(), files.size());
    for (size_t i = 0; i < files.size(); ++i) {
      Sample s;
      std::string error;
      if (!readSample(files[i], inputs, s, error) || !r.run(s, inputs, error))
        return fail(module, error);
      if (failed(each(i)))
        return failure();
      progress.step(i + 1);
    }
    return success();
  }

  LogicalResult calibrateStatistics(q::CalibrationTable &table) {
    SmallVector<QuantLayer> ls = collectQuantLayers(module);
    llvm::DenseMap<Value, std::string> names = activationNames(ls);
    SmallVector<Value> values;
    SmallVector<std::string> tensorNames;
    for (const QuantLayer &l : ls)
      for (Value v : l.tensors())
        if (layers[l.id].int8Form && !layers[l.id].keptFp32 && !hasProgramQuantizer(v) &&
            !llvm::is_contained(values, v)) {
          values.push_back(v);
          tensorNames.push_back(names[v]);
        }
    bool cached = false;
    if (!opts.calibrationCache.empty() && llvm::sys::fs::exists(opts.calibrationCache)) {
      if (auto error = table.readCache(opts.calibrationCache, table.fingerprint))
        return fail(module,
                    "--calibration-cache: " + *error + " (delete the file to calibrate again)");
      for (const std::string &t : tensorNames) {
        std::string error;
        if (!table.lookup(t, error))
          return fail(module, "--calibration-cache: " + error +
                                  " (was it written with other --quantize-exclude? delete the "
                                  "file to calibrate again)");
      }
      cached = true;
      if (opts.verbose)
        llvm::errs() << "calibration: statistics of " << tensorNames.size() << " tensors from '"
                     << opts.calibrationCache << "'\n";
    }
    if (!cached && !values.empty()) {
      OwningOpRef<ModuleOp> observe = module.clone();
      {
        SmallVector<QuantLayer> cl = collectQuantLayers(*observe);
        llvm::DenseMap<Value, std::string> cn = activationNames(cl);
        SmallVector<Value> vs;
        // The copy's value of each tensor, by name.
        llvm::StringMap<Value> byName;
        for (const QuantLayer &l : cl)
          for (Value v : l.tensors())
            byName.try_emplace(cn[v], v);
        for (const std::string &t : tensorNames)
          if (Value v = byName.lookup(t))
            vs.push_back(v);
        appendMainResults(*observe, vs, tensorNames);
      }
      FailureOr<std::string> dir = build(*observe, Precision::FP32, "observe");
      if (failed(dir))
        return failure();
      Runner r;
      if (failed(load(r, *dir)))
        return failure();
      std::vector<q::TensorObserver> observers(tensorNames.size());
      std::vector<int64_t> index(tensorNames.size(), -1);
      for (int64_t i = 0; i < r.numOutputs(); ++i)
        for (size_t t = 0; t < tensorNames.size(); ++t)
          if (r.outputName(i) == tensorNames[t] && i >= numOutputs)
            index[t] = i;
      for (size_t t = 0; t < tensorNames.size(); ++t)
        if (index[t] < 0)
          return fail(module,
                      "calibration: the helper artifact lost tensor '" + tensorNames[t] + "'");
      if (failed(runOver(r, calibFiles, "calibrating", [&](size_t s) -> LogicalResult {
            for (size_t t = 0; t < tensorNames.size(); ++t)
              if (auto error = observers[t].observe(r.output(index[t])))
                return fail(module, "calibration: tensor '" + tensorNames[t] + "' on sample '" +
                                        calibFiles[s] + "': " + *error);
            return success();
          })))
        return failure();
      for (size_t t = 0; t < tensorNames.size(); ++t)
        table.tensors.insert_or_assign(tensorNames[t], observers[t]);
      if (!opts.calibrationCache.empty()) {
        if (auto error = table.writeCache(opts.calibrationCache))
          return fail(module, "--calibration-cache: " + *error);
        if (opts.verbose)
          llvm::errs() << "calibration: statistics written to '" << opts.calibrationCache << "'\n";
      }
    }
    // Thresholds, per tensor, by the method.
    q::ThresholdOptions to = table.options;
    for (const std::string &t : tensorNames) {
      std::string error;
      const q::TensorObserver *o = table.lookup(t, error);
      if (!o)
        return fail(module, "calibration: " + error);
      // A never-negative tensor becomes uint8: twice the levels of int8.
      q::ThresholdOptions levels = to;
      if (o->isNonNegative()) {
        levels.klLevels = 256;
        levels.mseLevels = 255;
      }
      double threshold = o->threshold(method, levels);
      ranges[t] = {threshold > 0 ? threshold : 1.0, o->isNonNegative()};
    }
    for (LayerInfo &l : layers) {
      auto it = ranges.find(l.tensor);
      if (it == ranges.end())
        continue;
      l.threshold = it->second.threshold;
      l.isUnsigned = it->second.isUnsigned;
      l.scale = l.threshold / (l.isUnsigned ? 255.0 : 127.0);
    }
    return success();
  }

  /// Step 3: every layer's own SQNR, and the float reference outputs.
  LogicalResult probe() {
    OwningOpRef<ModuleOp> p = module.clone();
    SmallVector<QuantLayer> ls = collectQuantLayers(*p);
    llvm::DenseMap<Value, std::string> names = activationNames(ls);
    OpBuilder b(p->getContext());
    SmallVector<Value> extra;
    SmallVector<std::string> extraNames;
    std::vector<int64_t> probed;
    for (const QuantLayer &l : ls) {
      if (!layers[l.id].int8Form || layers[l.id].keptFp32 || !ranges.count(names[l.activation]))
        continue;
      b.setInsertionPointAfter(l.op);
      Operation *twin = b.clone(*l.op);
      twin->setAttr("pd.layer", b.getI64IntegerAttr(l.id));
      // The twin is the only reader of its result: it stays apart from
      // the float graph.
      extra.push_back(l.op->getResult(0));
      extra.push_back(twin->getResult(0));
      extraNames.push_back("probe.ref." + std::to_string(l.id));
      extraNames.push_back("probe.q." + std::to_string(l.id));
      probed.push_back(l.id);
    }
    // Quantizers only in front of the twins: the originals lose their
    // numbers, so insertion does not see them.
    for (const QuantLayer &l : ls)
      l.op->removeAttr("pd.layer");
    insertActivationQuantizers(*p, ranges, {});
    appendMainResults(*p, extra, extraNames);
    FailureOr<std::string> dir = build(*p, Precision::INT8, "probe");
    if (failed(dir))
      return failure();
    Runner r;
    if (failed(load(r, *dir)))
      return failure();
    std::vector<double> signal(probed.size(), 0), noise(probed.size(), 0);
    reference.outputs.assign(validFiles.size(), {});
    if (failed(runOver(r, validFiles, "measuring layers", [&](size_t s) -> LogicalResult {
          for (int64_t o = 0; o < numOutputs; ++o) {
            ArrayRef<float> out = r.output(o);
            reference.outputs[s].emplace_back(out.begin(), out.end());
          }
          reference.classes = r.lastDim(0);
          for (size_t k = 0; k < probed.size(); ++k) {
            ArrayRef<float> ref = r.output(numOutputs + 2 * static_cast<int64_t>(k));
            ArrayRef<float> qv = r.output(numOutputs + 2 * static_cast<int64_t>(k) + 1);
            for (size_t i = 0; i < ref.size() && i < qv.size(); ++i) {
              double d = static_cast<double>(ref[i]) - qv[i];
              signal[k] += static_cast<double>(ref[i]) * ref[i];
              noise[k] += d * d;
            }
          }
          return success();
        })))
      return failure();
    for (size_t k = 0; k < probed.size(); ++k)
      layers[probed[k]].sqnr = decibels(signal[k], noise[k]);
    return success();
  }

  /// Step 4: the int8 model with `fp32` layers in float, against the reference.
  FailureOr<Agreement> trial(const std::map<int64_t, std::string> &fp32) {
    OwningOpRef<ModuleOp> t = module.clone();
    std::map<int64_t, std::string> all = fp32;
    all.insert(defaults.begin(), defaults.end());
    insertActivationQuantizers(*t, ranges, all);
    FailureOr<std::string> dir = build(*t, Precision::INT8, "trial");
    if (failed(dir))
      return failure();
    Runner r;
    if (failed(load(r, *dir)))
      return failure();
    std::string what = fp32.empty()
                           ? std::string("checking int8")
                           : "checking int8, " + std::to_string(fp32.size()) + " layers fp32";
    return measureAgreement(module, r, validFiles, inputs, reference, numOutputs, opts.verbose,
                            what);
  }
};

} // namespace

LogicalResult mlir::pd::driver::calibrate(ModuleOp module, const CompileOptions &opts,
                                          StringRef outDir) {
  Calibrator c(module, opts);
  c.method = *q::parseMethod(opts.calibrationMethod);
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main)
    return fail(module, "the module has no @main function");
  c.numOutputs = main.getNumResults();

  // 1. Layers and the dry run.
  SmallVector<QuantLayer> ls = assignQuantLayers(module);
  llvm::DenseMap<Value, std::string> names = activationNames(ls);
  for (const QuantLayer &l : ls) {
    LayerInfo info;
    info.id = l.id;
    info.name = layerName(l.op, l.id);
    info.op = l.op->getName().stripDialect().str();
    info.tensor = names[l.activation];
    info.macs = macsOf(l.op);
    c.layers.push_back(info);
  }
  if (failed(dryRun(module, opts, c.layers)))
    return failure();
  // Transformer-safe defaults: the final layer (a classifier) stays fp32
  // unless --quantize-include names it (layer_norm, softmax and GELU have no
  // int8 form at all).
  for (const QuantLayer &l : ls) {
    LayerInfo &info = c.layers[l.id];
    if (info.int8Form && isFinalComputeOp(l.op) && !hasProgramQuantizer(l.activation) &&
        !matchesOpPattern(l.op, opts.quantizeInclude)) {
      info.keptFp32 = true;
      c.defaults[l.id] = "the final layer stays fp32 by default (--quantize-include " + info.name +
                         " quantizes it)";
    }
  }

  // Samples: the last share held out for validation.
  std::vector<std::string> files;
  if (failed(listSamples(module, opts.calibrationData, files)))
    return failure();
  if (opts.calibrationSamples > 0 && files.size() > static_cast<size_t>(opts.calibrationSamples))
    files.resize(opts.calibrationSamples);
  size_t nValid =
      files.size() < 2
          ? 0
          : std::min(files.size() - 1,
                     static_cast<size_t>(std::lround(opts.validationSplit * files.size())));
  if (nValid == 0 && opts.validationSplit > 0 && files.size() >= 2)
    nValid = 1;
  c.calibFiles.assign(files.begin(), files.end() - nValid);
  c.validFiles.assign(files.end() - nValid, files.end());
  bool validationIsCalibration = c.validFiles.empty();
  if (validationIsCalibration)
    c.validFiles = c.calibFiles;
  if (opts.accuracyTarget.kind != AccuracyTarget::None && validationIsCalibration && opts.verbose)
    llvm::errs() << "calibration: warning: with " << files.size()
                 << " sample(s) and --validation-split " << opts.validationSplit
                 << ", the accuracy target is checked on the calibration samples themselves\n";

  // The model's inputs as the helper artifacts take them.
  SmallString<128> tmp;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("paddle-mlir-calib", tmp))
    return fail(module, "cannot create a temporary directory: " + ec.message());
  c.tmp = tmp.str().str();
  struct Cleanup {
    std::string dir;
    ~Cleanup() { llvm::sys::fs::remove_directories(dir); }
  } cleanup{c.tmp};
  c.inputs = inputSpecs(main);
  if (failed(c.checkSamples(files)))
    return failure();
  size_t candidates =
      llvm::count_if(c.layers, [](const LayerInfo &l) { return l.int8Form && !l.keptFp32; });
  if (opts.verbose)
    llvm::errs() << "calibration: " << c.layers.size() << " convolutions/matrix products, "
                 << candidates << " to quantize; " << c.calibFiles.size() << " calibration and "
                 << (validationIsCalibration ? 0 : c.validFiles.size())
                 << " validation samples; method " << opts.calibrationMethod << "\n";

  // 2. Statistics and thresholds.
  q::CalibrationTable table;
  table.fingerprint = modelFingerprint(module);
  table.method = c.method;
  table.options.percentile = opts.calibrationPercentile;
  if (failed(c.calibrateStatistics(table)))
    return failure();

  // 3. Each layer's own SQNR, and the float outputs.
  if (candidates > 0 && failed(c.probe()))
    return failure();

  // 4. The accuracy target.
  std::vector<int64_t> order; // int8 layers, worst SQNR first
  for (const LayerInfo &l : c.layers)
    if (l.int8Form && !l.keptFp32 && c.ranges.count(l.tensor))
      order.push_back(l.id);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    double sa = c.layers[a].sqnr, sb = c.layers[b].sqnr;
    return (std::isnan(sa) ? 1e9 : sa) < (std::isnan(sb) ? 1e9 : sb);
  });
  const AccuracyTarget &target = opts.accuracyTarget;
  auto fp32Set = [&](size_t k) {
    std::map<int64_t, std::string> s;
    for (size_t i = 0; i < k && i < order.size(); ++i)
      s[order[i]] = llvm::formatv("accuracy target {0}: own SQNR {1} dB, among the {2} worst",
                                  targetText(target), dB(c.layers[order[i]].sqnr), k)
                        .str();
    return s;
  };
  llvm::json::Array trials;
  std::map<size_t, Agreement> measured;
  auto measure = [&](size_t k) -> FailureOr<Agreement> {
    if (auto it = measured.find(k); it != measured.end())
      return it->second;
    FailureOr<Agreement> a = c.trial(fp32Set(k));
    if (failed(a))
      return failure();
    measured[k] = *a;
    trials.push_back(llvm::json::Object{{"fp32_layers", static_cast<int64_t>(k)},
                                        {"top1_agreement", jsonNumber(a->top1)},
                                        {"output_sqnr_db", jsonNumber(a->sqnr)},
                                        {"meets_target", a->meets(target)}});
    if (opts.verbose)
      llvm::errs() << "calibration: int8 with " << k << " layer(s) in fp32: " << agreementText(*a)
                   << (target.kind == AccuracyTarget::None
                           ? std::string()
                           : std::string(a->meets(target) ? " (meets " : " (misses ") +
                                 targetText(target) + ")")
                   << "\n";
    return a;
  };
  size_t chosen = 0;
  Agreement result;
  if (!order.empty()) {
    FailureOr<size_t> k = searchFallback(order.size(), target, measure, result);
    if (failed(k))
      return failure();
    chosen = *k;
    if (!result.meets(target))
      module.emitWarning("--accuracy-target " + targetText(target) +
                         " is not met even with every layer in fp32 (" + agreementText(result) +
                         ")");
  }

  // 5. The quantizers, and the report.
  std::map<int64_t, std::string> fp32 = fp32Set(chosen);
  fp32.insert(c.defaults.begin(), c.defaults.end());
  insertActivationQuantizers(module, c.ranges, fp32);
  double totalMacs = 0;
  for (const LayerInfo &l : c.layers)
    totalMacs += l.macs;
  llvm::json::Array layerRecords;
  for (LayerInfo &l : c.layers) {
    if (auto it = fp32.find(l.id); it != fp32.end()) {
      l.reason = it->second;
    } else if (l.int8Form && c.ranges.count(l.tensor)) {
      l.precision = "int8";
    } else if (!l.int8Form) {
      l.reason = l.why.empty() ? "no int8 form" : l.why;
    } else {
      l.reason = "its input is quantized by the program itself";
      l.precision = "int8";
    }
    layerRecords.push_back(llvm::json::Object{
        {"layer", l.name},
        {"op", l.op},
        {"tensor", l.tensor},
        {"method",
         l.threshold > 0 ? llvm::json::Value(opts.calibrationMethod) : llvm::json::Value(nullptr)},
        {"threshold", l.threshold > 0 ? jsonNumber(l.threshold) : nullptr},
        {"scale", l.scale > 0 ? jsonNumber(l.scale) : nullptr},
        {"dtype", l.threshold > 0 ? llvm::json::Value(l.isUnsigned ? "uint8" : "int8")
                                  : llvm::json::Value(nullptr)},
        {"sqnr_db", jsonNumber(l.sqnr)},
        {"precision", l.precision},
        {"reason", l.reason.empty() ? llvm::json::Value(nullptr) : llvm::json::Value(l.reason)},
        {"macs_share", totalMacs > 0 ? l.macs / totalMacs : 0.0},
    });
  }
  llvm::json::Object report{
      {"format", "paddle-mlir-quant-report"},
      {"version", 1},
      {"method", opts.calibrationMethod},
      {"percentile",
       opts.calibrationMethod == "percentile" ? jsonNumber(opts.calibrationPercentile) : nullptr},
      {"samples",
       llvm::json::Object{
           {"calibration", static_cast<int64_t>(c.calibFiles.size())},
           {"validation", static_cast<int64_t>(validationIsCalibration ? 0 : c.validFiles.size())},
           {"validation_is_calibration", validationIsCalibration}}},
      {"accuracy_target", targetText(target)},
      {"result", llvm::json::Object{{"top1_agreement", jsonNumber(result.top1)},
                                    {"output_sqnr_db", jsonNumber(result.sqnr)},
                                    {"meets_target", result.meets(target)},
                                    {"fp32_layers_moved", static_cast<int64_t>(chosen)}}},
      {"trials", std::move(trials)},
      {"layers", std::move(layerRecords)},
  };
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir))
    return fail(module, "cannot create '" + outDir + "': " + ec.message());
  {
    std::error_code ec;
    std::string path = pathIn(outDir, "quant_report.json");
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return fail(module, "cannot write '" + path + "': " + ec.message());
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(report))) << "\n";
  }
  if (opts.verbose) {
    auto &e = llvm::errs();
    e << llvm::formatv("{0,-32} {1,-14} {2,-10} {3,10} {4,8} {5,-6} {6,6}  {7}\n", "layer", "op",
                       "method", "scale", "SQNR dB", "prec", "MACs", "why fp32");
    for (const LayerInfo &l : c.layers)
      e << llvm::formatv("{0,-32} {1,-14} {2,-10} {3,10} {4,8} {5,-6} {6,5:f1}%  {7}\n",
                         l.name.size() > 32 ? l.name.substr(0, 29) + "..." : l.name, l.op,
                         l.threshold > 0 ? opts.calibrationMethod : std::string("-"),
                         l.scale > 0 ? llvm::formatv("{0:e3}", l.scale).str() : std::string("-"),
                         dB(l.sqnr), l.precision, totalMacs > 0 ? 100.0 * l.macs / totalMacs : 0.0,
                         l.reason);
    size_t int8Layers =
        llvm::count_if(c.layers, [](const LayerInfo &l) { return l.precision == "int8"; });
    e << "calibration: " << int8Layers << " of " << c.layers.size() << " layers int8; "
      << agreementText(result) << " on "
      << (validationIsCalibration ? "the calibration" : "the validation") << " samples; report in "
      << pathIn(outDir, "quant_report.json") << "\n";
  }
  return success();
}

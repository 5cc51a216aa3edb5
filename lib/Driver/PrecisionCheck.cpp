//===- PrecisionCheck.cpp - the numerics check of --precision bf16 -------===//
//
// paddle-compile --precision bf16 --precision-check [--check-data DIR]
// [--accuracy-target ...] (docs/MixedPrecision.md, "Numerics check"). The
// same loop as int8 calibration's accuracy target (Validation.h), for the
// other precision:
//   1. the inputs: the samples of --check-data, else 8 seeded random ones
//      shaped like the model's (static shapes needed);
//   2. probe: a float artifact in which every op the mixed-precision pass
//      runs in bf16 (found by running it on a copy) has a twin reading its
//      operands rounded to bf16 (pd.cast f32 -> bf16 -> f32, which is what
//      the bf16 kernels see; they accumulate in f32), over the inputs: each
//      op's own SQNR, and the float outputs;
//   3. trials: the bf16 artifact against the float outputs (max abs / max
//      rel error, SQNR, top-1 agreement); under --accuracy-target, the ops
//      with the worst own SQNR are denied bf16 (--precision-deny by name)
//      until the target holds.
//
//===----------------------------------------------------------------------===//

#include "DriverInternal.h"
#include "MixedPrecision.h"
#include "Validation.h"

#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Calibration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <random>
#include <set>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::driver;

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

/// Paddle's VarType numbers of the two float types involved.
constexpr int32_t kVarFP32 = 5, kVarBF16 = 22;

std::string opName(Operation *op, int64_t index) {
  std::string name = paddleVariableOf(op);
  return name.empty() ? (op->getName().stripDialect() + " #" + Twine(index)).str() : name;
}

struct WhiteOp {
  int64_t index;
  std::string name, type;
  double sqnr = NAN;
};

/// `v` rounded to bf16 and widened again.
Value roundToBf16(OpBuilder &b, Location loc, Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  Value low = CastOp::create(b, loc, RankedTensorType::get(t.getShape(), b.getBF16Type()), v,
                             b.getI32IntegerAttr(kVarFP32), b.getI32IntegerAttr(kVarBF16));
  return CastOp::create(b, loc, t, low, b.getI32IntegerAttr(kVarBF16),
                        b.getI32IntegerAttr(kVarFP32));
}

/// Writes `n` seeded random samples shaped like `inputs` into `dir`.
LogicalResult randomSamples(ModuleOp m, ArrayRef<InputSpec> inputs, StringRef dir, int n) {
  std::mt19937 gen(20261202);
  std::normal_distribution<float> normal(0.f, 1.f);
  for (int s = 0; s < n; ++s) {
    if (inputs.size() != 1)
      return fail(m, "--precision-check without --check-data supports one-input models only; "
                     "give samples with --check-data DIR");
    const InputSpec &in = inputs[0];
    if (llvm::is_contained(in.shape, -1))
      return fail(m, "--precision-check without --check-data needs a static shape for input '" +
                         in.name + "' (--input-shape " + in.name + "=...)");
    int64_t numel = 1;
    for (int64_t d : in.shape)
      numel *= d;
    std::string file = pathIn(dir, llvm::formatv("{0:3}.npy", s).str()), error;
    bool ok;
    if (in.dtype == PDRT_FLOAT32) {
      std::vector<float> data(numel);
      for (float &x : data)
        x = normal(gen);
      ok = npy::write(file, in.dtype, in.shape.data(), in.shape.size(), data.data(), error);
    } else if (in.dtype == PDRT_INT64 || in.dtype == PDRT_INT32) {
      std::vector<int64_t> data(numel);
      std::uniform_int_distribution<int64_t> pick(0, 1);
      for (int64_t &x : data)
        x = pick(gen);
      std::vector<int32_t> narrow(data.begin(), data.end());
      ok = npy::write(file, in.dtype, in.shape.data(), in.shape.size(),
                      in.dtype == PDRT_INT64 ? static_cast<void *>(data.data()) : narrow.data(),
                      error);
    } else {
      return fail(m, "--precision-check cannot make random inputs of dtype " +
                         std::string(pdrt_dtype_name(in.dtype)) + "; give --check-data DIR");
    }
    if (!ok)
      return fail(m, error);
  }
  return success();
}
} // namespace

LogicalResult mlir::pd::driver::checkMixedPrecision(ModuleOp module, const CompileOptions &opts,
                                                    std::vector<std::string> &fallbackDeny,
                                                    llvm::json::Object &report) {
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main)
    return fail(module, "the module has no @main function");
  int64_t numOutputs = main.getNumResults();
  std::vector<InputSpec> inputs = inputSpecs(main);

  SmallString<128> tmpDir;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("paddle-mlir-check", tmpDir))
    return fail(module, "cannot create a temporary directory: " + ec.message());
  std::string tmp = tmpDir.str().str();
  struct Cleanup {
    std::string dir;
    ~Cleanup() { llvm::sys::fs::remove_directories(dir); }
  } cleanup{tmp};

  // 1. Inputs.
  std::vector<std::string> files;
  std::string source;
  if (!opts.checkData.empty()) {
    if (failed(listSamples(module, opts.checkData, files)))
      return failure();
    source = "--check-data " + opts.checkData;
  } else {
    std::string dir = pathIn(tmp, "inputs");
    llvm::sys::fs::create_directories(dir);
    if (failed(randomSamples(module, inputs, dir, 8)) || failed(listSamples(module, dir, files)))
      return failure();
    source = "8 seeded random inputs";
  }
  for (const std::string &f : files) {
    Sample s;
    std::string error;
    if (!readSample(f, inputs, s, error))
      return fail(module, error);
  }

  // 2. The probe: twins on bf16-rounded operands.
  std::vector<WhiteOp> white;
  int artifacts = 0;
  auto build = [&](ModuleOp graph, const CompileOptions &o,
                   StringRef what) -> FailureOr<std::string> {
    CompileOptions c = o;
    c.name = "helper";
    c.memoryReport = false;
    std::string dir = pathIn(tmp, what + Twine(++artifacts));
    if (failed(writeArtifact(graph, c, dir, /*measure=*/false, /*quiet=*/true)))
      return failure();
    return dir;
  };
  Reference reference;
  {
    // The ops the mixed-precision pass runs in bf16 (white ones, gray ones
    // that follow them, and what --precision-allow forces), by name.
    std::set<std::string> lowNames;
    {
      OwningOpRef<ModuleOp> mixed = module.clone();
      if (failed(runMixedPrecisionPipeline(*mixed, opts)))
        return failure();
      int64_t index = 0;
      mixed->walk([&](Operation *op) {
        if (isa<CastOp>(op) || !op->hasAttr("pd.precision_reason"))
          return;
        int64_t i = index++;
        auto low = [](Type t) {
          auto r = dyn_cast<RankedTensorType>(t);
          return r && r.getElementType().isBF16();
        };
        if (llvm::any_of(op->getOperandTypes(), low) || llvm::any_of(op->getResultTypes(), low))
          lowNames.insert(opName(op, i));
      });
    }
    OwningOpRef<ModuleOp> probe = module.clone();
    auto pmain = probe->lookupSymbol<func::FuncOp>("main");
    SmallVector<Operation *> ops;
    int64_t index = 0;
    pmain.walk([&](Operation *op) {
      if (op->getNumResults() != 1 || isa<CastOp, func::ReturnOp>(op) ||
          op->getDialect()->getNamespace() != "pd")
        return;
      int64_t i = index++;
      std::string name = opName(op, i);
      auto t = dyn_cast<RankedTensorType>(op->getResult(0).getType());
      if (!t || !t.getElementType().isF32() || !lowNames.count(name) ||
          llvm::any_of(white, [&](const WhiteOp &w) { return w.name == name; }))
        return;
      ops.push_back(op);
      white.push_back({i, name, op->getName().stripDialect().str()});
    });
    OpBuilder b(probe->getContext());
    SmallVector<Value> extra;
    SmallVector<std::string> names;
    for (size_t k = 0; k < ops.size(); ++k) {
      Operation *op = ops[k];
      b.setInsertionPointAfter(op);
      Operation *twin = b.clone(*op);
      b.setInsertionPoint(twin);
      for (OpOperand &operand : twin->getOpOperands()) {
        auto t = dyn_cast<RankedTensorType>(operand.get().getType());
        if (t && t.getElementType().isF32())
          operand.set(roundToBf16(b, op->getLoc(), operand.get()));
      }
      extra.push_back(op->getResult(0));
      extra.push_back(twin->getResult(0));
      names.push_back("check.ref." + std::to_string(k));
      names.push_back("check.low." + std::to_string(k));
    }
    appendMainResults(*probe, extra, names);
    CompileOptions fp32 = opts;
    fp32.precision = Precision::FP32;
    FailureOr<std::string> dir = build(*probe, fp32, "probe");
    if (failed(dir))
      return failure();
    Runner r;
    std::string error;
    if (!r.load(*dir, error))
      return fail(module, error);
    std::vector<double> signal(ops.size(), 0), noise(ops.size(), 0);
    Progress progress(opts.verbose, "checking ops", files.size());
    for (size_t s = 0; s < files.size(); ++s) {
      Sample sample;
      if (!readSample(files[s], inputs, sample, error) || !r.run(sample, inputs, error))
        return fail(module, error);
      reference.outputs.emplace_back();
      for (int64_t o = 0; o < numOutputs; ++o) {
        ArrayRef<float> out = r.output(o);
        reference.outputs.back().emplace_back(out.begin(), out.end());
      }
      reference.classes = r.lastDim(0);
      for (size_t k = 0; k < ops.size(); ++k) {
        ArrayRef<float> ref = r.output(numOutputs + 2 * k), low = r.output(numOutputs + 2 * k + 1);
        for (size_t i = 0; i < ref.size() && i < low.size(); ++i) {
          double d = static_cast<double>(ref[i]) - low[i];
          signal[k] += static_cast<double>(ref[i]) * ref[i];
          noise[k] += d * d;
        }
      }
      progress.step(s + 1);
    }
    for (size_t k = 0; k < ops.size(); ++k)
      white[k].sqnr = decibels(signal[k], noise[k]);
  }

  // 3. Trials.
  std::vector<size_t> order(white.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return white[a].sqnr < white[b].sqnr; });
  const AccuracyTarget &target = opts.accuracyTarget;
  llvm::json::Array trials;
  auto measure = [&](size_t k) -> FailureOr<Agreement> {
    OwningOpRef<ModuleOp> t = module.clone();
    CompileOptions low = opts;
    for (size_t i = 0; i < k; ++i)
      low.precisionDeny.push_back(white[order[i]].name);
    FailureOr<std::string> dir = build(*t, low, "trial");
    if (failed(dir))
      return failure();
    Runner r;
    std::string error;
    if (!r.load(*dir, error))
      return fail(module, error);
    FailureOr<Agreement> a =
        measureAgreement(module, r, files, inputs, reference, numOutputs, opts.verbose,
                         k ? "checking bf16, " + std::to_string(k) + " ops fp32" : "checking bf16");
    if (failed(a))
      return failure();
    trials.push_back(llvm::json::Object{{"fp32_ops", static_cast<int64_t>(k)},
                                        {"output_sqnr_db", jsonNumber(a->sqnr)},
                                        {"top1_agreement", jsonNumber(a->top1)},
                                        {"meets_target", a->meets(target)}});
    return a;
  };
  Agreement result;
  FailureOr<size_t> chosen = searchFallback(order.size(), target, measure, result);
  if (failed(chosen))
    return failure();
  if (!result.meets(target))
    module.emitWarning("--accuracy-target " + targetText(target) +
                       " is not met even with every bf16 op in fp32 (" + agreementText(result) +
                       ")");
  llvm::json::Array moved, perOp;
  for (size_t i = 0; i < *chosen; ++i) {
    fallbackDeny.push_back(white[order[i]].name);
    moved.push_back(white[order[i]].name);
  }
  for (const WhiteOp &w : white)
    perOp.push_back(
        llvm::json::Object{{"name", w.name}, {"op", w.type}, {"own_sqnr_db", jsonNumber(w.sqnr)}});
  report = llvm::json::Object{
      {"inputs", source},
      {"samples", static_cast<int64_t>(files.size())},
      {"accuracy_target", targetText(target)},
      {"max_abs_error", jsonNumber(result.maxAbs)},
      {"max_rel_error", jsonNumber(result.maxRel)},
      {"output_sqnr_db", jsonNumber(result.sqnr)},
      {"top1_agreement", jsonNumber(result.top1)},
      {"meets_target", result.meets(target)},
      {"moved_to_fp32", std::move(moved)},
      {"ops", std::move(perOp)},
      {"trials", std::move(trials)},
  };
  if (opts.verbose)
    llvm::errs() << llvm::formatv("precision check: bf16 against fp32 on {0}: max abs error "
                                  "{1:e2}, max rel {2:e2}, {3}; {4} op(s) moved to fp32\n",
                                  source, result.maxAbs, result.maxRel, agreementText(result),
                                  *chosen);
  return success();
}

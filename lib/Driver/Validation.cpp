//===- Validation.cpp - running helper artifacts to check a precision ----===//

#include "Validation.h"

#include "PaddleMLIR/Driver/Driver.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::driver;

namespace {
LogicalResult fail(ModuleOp m, const Twine &msg) {
  m.emitError(msg);
  return failure();
}
std::string shapeText(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + (shape[i] < 0 ? std::string("?") : std::to_string(shape[i]));
  return s + "]";
}

/// Checks one array against the model input it is bound to; an array one
/// rank short of an input with a leading batch dim of 1 or ? gets it.
bool checkArray(npy::Array &a, const InputSpec &in, const std::string &file, std::string &error) {
  auto where = [&] { return "calibration sample '" + file + "', input '" + in.name + "': "; };
  if (a.dtype != in.dtype) {
    error = where() + "dtype " + pdrt_dtype_name(a.dtype) + ", the model takes " +
            pdrt_dtype_name(in.dtype);
    return false;
  }
  if (a.shape.size() + 1 == in.shape.size() && (in.shape[0] == 1 || in.shape[0] < 0))
    a.shape.insert(a.shape.begin(), 1);
  bool ok = a.shape.size() == in.shape.size();
  for (size_t i = 0; ok && i < a.shape.size(); ++i)
    ok = in.shape[i] < 0 || in.shape[i] == a.shape[i];
  if (!ok) {
    error = where() + "shape " + shapeText(a.shape) + ", the model takes " + shapeText(in.shape);
    return false;
  }
  return true;
}

} // namespace

/// The sample files of `dir` (.npy and .npz), sorted by name.
LogicalResult mlir::pd::driver::listSamples(ModuleOp m, StringRef dir,
                                            std::vector<std::string> &files) {
  if (!llvm::sys::fs::is_directory(dir))
    return fail(m, "--calibration-data '" + dir + "' is not a directory");
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    StringRef ext = llvm::sys::path::extension(it->path());
    if (ext == ".npy" || ext == ".npz")
      files.push_back(it->path());
  }
  if (ec)
    return fail(m, "--calibration-data '" + dir + "': " + ec.message());
  if (files.empty())
    return fail(m, "--calibration-data '" + dir +
                       "' holds no samples (one .npy per sample for a one-input model, or one "
                       ".npz per sample with an array per input name)");
  std::sort(files.begin(), files.end());
  return success();
}

bool mlir::pd::driver::readSample(const std::string &file, ArrayRef<InputSpec> inputs, Sample &out,
                                  std::string &error) {
  out.file = file;
  out.inputs.assign(inputs.size(), {});
  if (StringRef(file).ends_with(".npy")) {
    if (inputs.size() != 1) {
      std::string names;
      for (const InputSpec &in : inputs)
        names += (names.empty() ? "" : ", ") + in.name;
      error = "calibration sample '" + file + "': the model has " + std::to_string(inputs.size()) +
              " inputs (" + names + "); give each sample as an .npz with one array per input name";
      return false;
    }
    return npy::read(file, out.inputs[0], error) &&
           checkArray(out.inputs[0], inputs[0], file, error);
  }
  std::vector<std::pair<std::string, npy::Array>> members;
  if (!npy::readNpz(file, members, error))
    return false;
  std::vector<bool> seen(inputs.size(), false);
  for (auto &[name, array] : members) {
    auto it =
        llvm::find_if(inputs, [&, &name = name](const InputSpec &in) { return in.name == name; });
    if (it == inputs.end()) {
      std::string names;
      for (const InputSpec &in : inputs)
        names += (names.empty() ? "" : ", ") + in.name;
      error = "calibration sample '" + file + "': array '" + name +
              "' is not an input of the model (its inputs: " + names + ")";
      return false;
    }
    size_t i = it - inputs.begin();
    if (!checkArray(array, inputs[i], file, error))
      return false;
    out.inputs[i] = std::move(array);
    seen[i] = true;
  }
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!seen[i]) {
      error = "calibration sample '" + file + "' has no array for input '" + inputs[i].name + "'";
      return false;
    }
  return true;
}

std::vector<InputSpec> mlir::pd::driver::inputSpecs(func::FuncOp main) {
  std::vector<InputSpec> specs;
  for (unsigned i = 0; i < main.getNumArguments(); ++i) {
    auto t = cast<RankedTensorType>(main.getArgument(i).getType());
    auto n = main.getArgAttrOfType<StringAttr>(i, "pd.name");
    std::string dtype = dtypeName(t.getElementType());
    InputSpec spec{n ? n.getValue().str() : "input_" + std::to_string(i),
                   pdrt_dtype_from_name(dtype.c_str()),
                   {}};
    for (int64_t d : t.getShape())
      spec.shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
    specs.push_back(std::move(spec));
  }
  return specs;
}

double mlir::pd::driver::decibels(double signal, double noise) {
  if (noise <= 0)
    return 300.0;
  if (signal <= 0)
    return -300.0;
  return std::min(300.0, 10.0 * std::log10(signal / noise));
}

std::string mlir::pd::driver::dB(double v) {
  if (std::isnan(v))
    return "-";
  return v >= 300.0 ? std::string("exact") : llvm::formatv("{0:f1}", v).str();
}

std::string mlir::pd::driver::targetText(const AccuracyTarget &t) {
  if (t.kind == AccuracyTarget::Top1)
    return llvm::formatv("top1={0}", t.value).str();
  if (t.kind == AccuracyTarget::SQNR)
    return llvm::formatv("sqnr={0}", t.value).str();
  return "none";
}

llvm::json::Value mlir::pd::driver::jsonNumber(double v) {
  return std::isnan(v) ? llvm::json::Value(nullptr) : llvm::json::Value(v);
}

std::string mlir::pd::driver::agreementText(const Agreement &a) {
  std::string s = "output SQNR " + dB(a.sqnr) + " dB";
  if (!std::isnan(a.top1))
    s += llvm::formatv(", top-1 agreement {0:f4}", a.top1).str();
  return s;
}

FailureOr<Agreement>
mlir::pd::driver::measureAgreement(ModuleOp where, Runner &r, ArrayRef<std::string> files,
                                   ArrayRef<InputSpec> inputs, const Reference &reference,
                                   int64_t numOutputs, bool verbose, StringRef what) {
  double signal = 0, noise = 0, maxAbs = 0, maxRef = 0;
  int64_t rows = 0, agree = 0;
  int64_t classes = std::max<int64_t>(reference.classes, 1);
  Progress progress(verbose, what.str(), files.size());
  for (size_t s = 0; s < files.size(); ++s) {
    Sample sample;
    std::string error;
    if (!readSample(files[s], inputs, sample, error) || !r.run(sample, inputs, error))
      return fail(where, error);
    for (int64_t o = 0; o < numOutputs; ++o) {
      ArrayRef<float> got = r.output(o);
      const std::vector<float> &want = reference.outputs[s][o];
      for (size_t i = 0; i < want.size() && i < got.size(); ++i) {
        double d = static_cast<double>(want[i]) - got[i];
        signal += static_cast<double>(want[i]) * want[i];
        noise += d * d;
        maxAbs = std::max(maxAbs, std::fabs(d));
        maxRef = std::max(maxRef, std::fabs(static_cast<double>(want[i])));
      }
      if (o != 0)
        continue;
      for (size_t row = 0; row + classes <= want.size() && row + classes <= got.size();
           row += classes) {
        const float *wb = want.data() + row, *gb = got.data() + row;
        agree += std::max_element(wb, wb + classes) - wb == std::max_element(gb, gb + classes) - gb;
        ++rows;
      }
    }
    progress.step(s + 1);
  }
  Agreement a;
  a.top1 = rows ? static_cast<double>(agree) / static_cast<double>(rows) : NAN;
  a.sqnr = decibels(signal, noise);
  a.maxAbs = maxAbs;
  a.maxRel = maxRef > 0 ? maxAbs / maxRef : 0.0;
  return a;
}

FailureOr<size_t>
mlir::pd::driver::searchFallback(size_t n, const AccuracyTarget &target,
                                 llvm::function_ref<FailureOr<Agreement>(size_t)> measure,
                                 Agreement &result) {
  FailureOr<Agreement> first = measure(0);
  if (failed(first))
    return failure();
  result = *first;
  if (first->meets(target) || n == 0)
    return size_t(0);
  if (n <= 8) {
    for (size_t k = 1; k <= n; ++k) {
      FailureOr<Agreement> a = measure(k);
      if (failed(a))
        return failure();
      result = *a;
      if (a->meets(target))
        return k;
    }
    return n;
  }
  // Bisection on k: k = 0 misses; k = n (every layer in fp32) is taken to
  // meet it, and measured at the end if it is the answer.
  size_t lo = 0, hi = n;
  std::optional<Agreement> atHi;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    FailureOr<Agreement> a = measure(mid);
    if (failed(a))
      return failure();
    if (a->meets(target)) {
      hi = mid;
      atHi = *a;
    } else {
      lo = mid;
    }
  }
  if (!atHi) {
    FailureOr<Agreement> a = measure(hi);
    if (failed(a))
      return failure();
    atHi = *a;
  }
  result = *atHi;
  return hi;
}

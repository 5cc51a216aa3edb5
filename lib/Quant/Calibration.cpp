//===- Calibration.cpp - streaming activation statistics for INT8 PTQ ----===//
//
// The definitions the code follows (binning, threshold methods, cache format)
// are in include/PaddleMLIR/Quant/Calibration.h.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Quant/Calibration.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace paddle_mlir::quant;

llvm::StringRef paddle_mlir::quant::methodName(CalibrationMethod method) {
  switch (method) {
  case CalibrationMethod::MinMax:
    return "minmax";
  case CalibrationMethod::Percentile:
    return "percentile";
  case CalibrationMethod::KL:
    return "kl";
  case CalibrationMethod::MSE:
    return "mse";
  }
  return "";
}

std::optional<CalibrationMethod> paddle_mlir::quant::parseMethod(llvm::StringRef name) {
  for (CalibrationMethod m : {CalibrationMethod::MinMax, CalibrationMethod::Percentile,
                              CalibrationMethod::KL, CalibrationMethod::MSE})
    if (methodName(m) == name)
      return m;
  return std::nullopt;
}

double paddle_mlir::quant::int8Scale(double threshold) {
  return threshold > 0 ? threshold / 127.0 : 1.0;
}

double paddle_mlir::quant::uint8Scale(double threshold) {
  return threshold > 0 ? threshold / 255.0 : 1.0;
}

//===----------------------------------------------------------------------===//
// TensorObserver
//===----------------------------------------------------------------------===//

TensorObserver::TensorObserver(unsigned numBins) : bins_(isValidBinCount(numBins) ? numBins : 2) {}

/// The smallest power of two strictly greater than v > 0.
static double powerOfTwoAbove(double v) {
  int exp;
  std::frexp(v, &exp); // v = f * 2^exp, f in [0.5, 1), so 2^(exp-1) <= v < 2^exp.
  return std::ldexp(1.0, exp);
}

void TensorObserver::growRangeTo(double absMax) {
  if (absMax == 0.0 || absMax < range_)
    return;
  if (range_ == 0.0) {
    // Only zeros so far: they sit in bin 0 whatever the range.
    range_ = powerOfTwoAbove(absMax);
    return;
  }
  size_t n = bins_.size();
  while (range_ <= absMax) {
    for (size_t j = 0; j < n / 2; ++j)
      bins_[j] = bins_[2 * j] + bins_[2 * j + 1];
    std::fill(bins_.begin() + n / 2, bins_.end(), 0);
    range_ *= 2.0;
    ++rescales_;
  }
}

std::optional<std::string> TensorObserver::observe(llvm::ArrayRef<float> chunk,
                                                   uint64_t firstIndex) {
  if (chunk.empty())
    return std::nullopt;
  // Validate everything before changing anything.
  float lo = chunk[0], hi = chunk[0];
  for (size_t i = 0; i < chunk.size(); ++i) {
    float v = chunk[i];
    if (std::isnan(v))
      return "element " + std::to_string(firstIndex + i) + " is NaN";
    if (std::isinf(v))
      return "element " + std::to_string(firstIndex + i) + " is " + (v > 0 ? "+inf" : "-inf");
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  growRangeTo(std::max(std::fabs(static_cast<double>(lo)), std::fabs(static_cast<double>(hi))));
  if (range_ == 0.0) {
    bins_[0] += chunk.size();
  } else {
    // |x| * numBins is exact in double (a 24-bit mantissa times a count below
    // 2^25) and so is the division by the power of two range: the index is
    // exactly floor(|x| * numBins / range), below numBins since |x| < range.
    double n = static_cast<double>(bins_.size());
    for (float v : chunk)
      ++bins_[static_cast<size_t>(std::floor(std::fabs(static_cast<double>(v)) * n / range_))];
  }
  if (count_ == 0) {
    min_ = lo;
    max_ = hi;
  } else {
    min_ = std::min(min_, lo);
    max_ = std::max(max_, hi);
  }
  count_ += chunk.size();
  return std::nullopt;
}

std::optional<std::string> TensorObserver::fromStats(float min, float max, uint64_t count,
                                                     double range, std::vector<uint64_t> histogram,
                                                     TensorObserver &out) {
  if (!isValidBinCount(histogram.size()))
    return "the histogram has " + std::to_string(histogram.size()) +
           " bins; it needs an even number from 2 to 2^24";
  if (!std::isfinite(min) || !std::isfinite(max) || min > max)
    return "min and max must be finite with min <= max";
  if (!(range >= 0.0) || !std::isfinite(range) ||
      (range > 0.0 && powerOfTwoAbove(range) != 2.0 * range))
    return "the histogram range must be 0 or a power of two";
  uint64_t total = 0;
  for (uint64_t c : histogram)
    total += c;
  if (total != count)
    return "the histogram holds " + std::to_string(total) + " values but count is " +
           std::to_string(count);
  double absMax =
      std::max(std::fabs(static_cast<double>(min)), std::fabs(static_cast<double>(max)));
  if (count > 0 && ((range == 0.0) != (absMax == 0.0) || (range > 0.0 && absMax >= range)))
    return "the histogram range does not cover min and max";
  out.bins_ = std::move(histogram);
  out.range_ = range;
  out.min_ = count ? min : 0.0f;
  out.max_ = count ? max : 0.0f;
  out.count_ = count;
  out.rescales_ = 0;
  return std::nullopt;
}

double TensorObserver::threshold(CalibrationMethod method, const ThresholdOptions &options) const {
  switch (method) {
  case CalibrationMethod::MinMax:
    return minMaxThreshold();
  case CalibrationMethod::Percentile:
    return percentileThreshold(options.percentile);
  case CalibrationMethod::KL:
    return klThreshold(options.klLevels);
  case CalibrationMethod::MSE:
    return mseThreshold(options.mseLevels);
  }
  return minMaxThreshold();
}

double TensorObserver::minMaxThreshold() const {
  return std::max(std::fabs(static_cast<double>(min_)), std::fabs(static_cast<double>(max_)));
}

double TensorObserver::percentileThreshold(double p) const {
  if (count_ == 0 || range_ == 0.0)
    return 0.0;
  p = std::clamp(p, 0.0, 100.0);
  double target = p / 100.0 * static_cast<double>(count_);
  double before = 0.0; // Cumulative count of the bins before i.
  for (size_t i = 0; i < bins_.size(); ++i) {
    double here = static_cast<double>(bins_[i]);
    if (bins_[i] != 0 && before + here >= target)
      return binWidth() * (static_cast<double>(i) + (target - before) / here);
    before += here;
  }
  return range_; // Not reached: the bins add up to count.
}

/// MXNet's _smooth_distribution on counts (see the header); false when the
/// distribution is all zero or an entry would not stay positive.
static bool smooth(std::vector<double> &d) {
  const double eps = 1e-4;
  size_t zeros = static_cast<size_t>(std::count(d.begin(), d.end(), 0.0));
  size_t nonZeros = d.size() - zeros;
  if (nonZeros == 0)
    return false;
  double eps1 = eps * static_cast<double>(zeros) / static_cast<double>(nonZeros);
  for (double &v : d) {
    v = v == 0.0 ? eps : v - eps1;
    if (!(v > 0.0))
      return false;
  }
  return true;
}

double TensorObserver::klThreshold(unsigned levels) const {
  double absMax = minMaxThreshold();
  size_t n = bins_.size();
  if (count_ == 0 || range_ == 0.0 || levels == 0 || n < levels)
    return absMax;
  // suffix[i] = sum(h[i:]), the outliers of candidate i.
  std::vector<double> suffix(n + 1, 0.0);
  for (size_t i = n; i-- > 0;)
    suffix[i] = suffix[i + 1] + static_cast<double>(bins_[i]);

  std::vector<double> p, q, groupSum(levels), groupNonZero(levels);
  double best = std::numeric_limits<double>::infinity();
  size_t bestI = 0;
  for (size_t i = levels; i <= n; ++i) {
    p.assign(bins_.begin(), bins_.begin() + i);
    p[i - 1] += suffix[i];
    std::fill(groupSum.begin(), groupSum.end(), 0.0);
    std::fill(groupNonZero.begin(), groupNonZero.end(), 0.0);
    for (size_t j = 0; j < i; ++j) {
      size_t g = j * levels / i;
      groupSum[g] += static_cast<double>(bins_[j]);
      groupNonZero[g] += p[j] != 0.0;
    }
    q.assign(i, 0.0);
    for (size_t j = 0; j < i; ++j)
      if (p[j] != 0.0)
        q[j] = groupSum[j * levels / i] / groupNonZero[j * levels / i];
    if (!smooth(p) || !smooth(q))
      continue;
    double pSum = 0.0, qSum = 0.0;
    for (size_t j = 0; j < i; ++j) {
      pSum += p[j];
      qSum += q[j];
    }
    double divergence = 0.0;
    for (size_t j = 0; j < i; ++j)
      divergence += p[j] / pSum * std::log((p[j] / pSum) / (q[j] / qSum));
    if (divergence < best) {
      best = divergence;
      bestI = i;
    }
  }
  if (bestI == 0)
    return absMax;
  return std::min((static_cast<double>(bestI) + 0.5) * binWidth(), absMax);
}

double TensorObserver::mseThreshold(unsigned levels) const {
  if (count_ == 0 || range_ == 0.0 || levels == 0)
    return 0.0;
  std::vector<size_t> nonEmpty;
  for (size_t j = 0; j < bins_.size(); ++j)
    if (bins_[j] != 0)
      nonEmpty.push_back(j);
  double width = binWidth();
  uint64_t m = levels;
  double best = std::numeric_limits<double>::infinity();
  uint64_t bestK = bins_.size();
  for (uint64_t k = 1; k <= bins_.size(); ++k) {
    double t = static_cast<double>(k) * width;
    double step = t / static_cast<double>(m);
    double error = 0.0;
    for (size_t j : nonEmpty) {
      // round(c_j / s) with c_j / s = (2j+1) m / (2k), half up: floor((num + k) / 2k).
      uint64_t num = (2 * static_cast<uint64_t>(j) + 1) * m;
      uint64_t level = std::min<uint64_t>(m, (num + k) / (2 * k));
      double centre = (static_cast<double>(j) + 0.5) * width;
      double diff = centre - static_cast<double>(level) * step;
      error += static_cast<double>(bins_[j]) * diff * diff;
    }
    if (error < best) {
      best = error;
      bestK = k;
    }
  }
  return static_cast<double>(bestK) * width;
}

//===----------------------------------------------------------------------===//
// CalibrationTable
//===----------------------------------------------------------------------===//

std::optional<std::string> CalibrationTable::writeCache(llvm::StringRef path) const {
  auto bad = [&](const std::string &why) {
    return "cannot write calibration cache '" + path.str() + "': " + why;
  };
  // Written next to the target and renamed over it, so a failed write never
  // leaves a truncated cache behind.
  std::string temp = (path + ".tmp").str();
  std::error_code ec;
  {
    llvm::raw_fd_ostream os(temp, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return bad(ec.message());
    llvm::json::OStream j(os, /*IndentSize=*/2);
    j.object([&] {
      j.attribute("format", "paddle-mlir-calibration");
      j.attribute("version", 1);
      j.attribute("fingerprint", fingerprint);
      j.attribute("method", methodName(method));
      j.attribute("percentile", options.percentile);
      j.attributeObject("tensors", [&] {
        for (const auto &[name, obs] : tensors)
          j.attributeObject(name, [&] {
            j.attribute("min", static_cast<double>(obs.min()));
            j.attribute("max", static_cast<double>(obs.max()));
            j.attribute("count", obs.count());
            j.attribute("range", obs.range());
            // One line per histogram: a cache of a few hundred tensors stays
            // a few hundred lines.
            j.attributeBegin("histogram");
            j.rawValue([&](llvm::raw_ostream &raw) {
              raw << "[";
              llvm::ListSeparator sep(", ");
              for (uint64_t c : obs.histogram())
                raw << sep << c;
              raw << "]";
            });
            j.attributeEnd();
          });
      });
    });
    os << "\n";
    os.close();
    if (os.has_error()) {
      ec = os.error();
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return bad(ec.message());
    }
  }
  if ((ec = llvm::sys::fs::rename(temp, path))) {
    llvm::sys::fs::remove(temp);
    return bad(ec.message());
  }
  return std::nullopt;
}

std::optional<std::string> CalibrationTable::readCache(llvm::StringRef path,
                                                       llvm::StringRef expectedFingerprint) {
  auto bad = [&](const llvm::Twine &why) -> std::string {
    return ("calibration cache '" + path + "': " + why).str();
  };
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return bad("cannot read: " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse((*buffer)->getBuffer());
  if (!parsed)
    return bad("not valid JSON: " + llvm::toString(parsed.takeError()));
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return bad("not a JSON object");
  std::optional<llvm::StringRef> format = root->getString("format");
  if (!format || *format != "paddle-mlir-calibration")
    return bad("not a paddle-mlir calibration cache (\"format\" is not "
               "\"paddle-mlir-calibration\")");
  std::optional<int64_t> version = root->getInteger("version");
  if (!version || *version != 1)
    return bad("unsupported version (this build reads version 1)");
  std::optional<llvm::StringRef> fp = root->getString("fingerprint");
  if (!fp)
    return bad("missing \"fingerprint\"");
  if (*fp != expectedFingerprint)
    return bad("made for model fingerprint '" + *fp + "', not '" + expectedFingerprint +
               "'; recalibrate or pass the matching cache");
  std::optional<llvm::StringRef> methodStr = root->getString("method");
  std::optional<CalibrationMethod> m = methodStr ? parseMethod(*methodStr) : std::nullopt;
  if (!m)
    return bad("\"method\" must be minmax, percentile, kl or mse");
  ThresholdOptions opts;
  if (std::optional<double> p = root->getNumber("percentile")) {
    if (!(*p >= 0.0 && *p <= 100.0))
      return bad("\"percentile\" must be in [0, 100]");
    opts.percentile = *p;
  }
  const llvm::json::Object *entries = root->getObject("tensors");
  if (!entries)
    return bad("missing \"tensors\" object");

  std::map<std::string, TensorObserver> read;
  for (const auto &[key, value] : *entries) {
    std::string name = key.str();
    auto badTensor = [&](const llvm::Twine &why) { return bad("tensor '" + name + "': " + why); };
    const llvm::json::Object *e = value.getAsObject();
    if (!e)
      return badTensor("not an object");
    std::optional<double> mn = e->getNumber("min"), mx = e->getNumber("max"),
                          range = e->getNumber("range");
    std::optional<uint64_t> count;
    if (const llvm::json::Value *c = e->get("count"))
      count = c->getAsUINT64();
    const llvm::json::Array *hist = e->getArray("histogram");
    if (!mn || !mx || !range || !count || !hist)
      return badTensor("needs numbers \"min\", \"max\", \"range\", an unsigned \"count\" and a "
                       "\"histogram\" array");
    std::vector<uint64_t> bins;
    bins.reserve(hist->size());
    for (const llvm::json::Value &v : *hist) {
      std::optional<uint64_t> c = v.getAsUINT64();
      if (!c)
        return badTensor("histogram entries must be unsigned integers");
      bins.push_back(*c);
    }
    TensorObserver obs;
    if (auto error = TensorObserver::fromStats(static_cast<float>(*mn), static_cast<float>(*mx),
                                               *count, *range, std::move(bins), obs))
      return badTensor(*error);
    read.emplace(std::move(name), std::move(obs));
  }
  fingerprint = fp->str();
  method = *m;
  options = opts;
  tensors = std::move(read);
  source_ = path.str();
  return std::nullopt;
}

const TensorObserver *CalibrationTable::lookup(llvm::StringRef name, std::string &error) const {
  auto it = tensors.find(name.str());
  if (it != tensors.end())
    return &it->second;
  error = "no calibration statistics for tensor '" + name.str() + "'";
  if (!source_.empty())
    error += " in '" + source_ + "'";
  return nullptr;
}

//===- Calibration.h - streaming activation statistics for INT8 PTQ -*- C++ -*-===//
//
// Post-training quantization needs one clipping threshold T per activation
// tensor; its int8 scale is then T/127 (s8, symmetric) or T/255 (u8, for a
// tensor that never goes negative). The statistics behind T come from running
// the float model over calibration samples, one chunk of each tensor at a
// time, so they are kept in a TensorObserver whose memory does not grow with
// the number of samples, and can be cached on disk in a CalibrationTable.
//
// The binning, written out because tests re-implement it in NumPy:
//  * The histogram counts |x| in `numBins` equal bins over [0, range), bin
//    width w = range / numBins, bin index floor(|x| * numBins / range) computed
//    in double (exact: see observe()).
//  * `range` is the smallest power of two strictly greater than the largest
//    |x| seen (0 while only zeros were seen; zeros always go to bin 0). When a
//    chunk holds a larger |x|, the range doubles, merging bins 2j and 2j+1
//    into bin j, until the value fits. Because numBins is even and range is a
//    power of two, a merged histogram equals the one binned directly with the
//    final range: the statistics do not depend on how the samples were split
//    into chunks, nor on their order.
//
// The threshold methods (thresholdFor):
//  * minmax: T = max(|min|, |max|).
//  * percentile p: the p-th percentile of |x| read off the histogram. With
//    n = count, target = p/100 * n, bin i is the first bin whose cumulative
//    count c_i (through bin i) reaches target, and inside it the counts are
//    taken as spread evenly: T = w * (i + (target - c_{i-1}) / h_i). Within
//    one bin width of the exact percentile of the data.
//  * kl (entropy, TensorRT's entropy calibrator as MXNet writes it): with
//    L = 128 quantized levels, for each candidate i = L .. numBins:
//    - P = h[0:i] with the outliers sum(h[i:]) added to P[i-1];
//    - the i bins split into L contiguous groups, bin j in group
//      floor(j * L / i); Q quantizes the clipped-off slice h[0:i] (without
//      the outliers, as TensorRT and MXNet do: quantizing P itself would give
//      Q = P and a divergence of 0 at i = L): Q[j] = 0 where P[j] = 0,
//      otherwise the sum of h over j's group divided by the number of j' in
//      the group with P[j'] != 0 (a level expanded back over its nonzero bins);
//    - both are smoothed as MXNet's _smooth_distribution, on the counts: with
//      z zeros and m nonzeros among the i entries, eps = 1e-4, every zero
//      becomes eps and every nonzero loses eps * z / m. A candidate whose Q is
//      all zero, or whose smoothing leaves an entry <= 0, is skipped;
//    - KL(P||Q) = sum_j p_j log(p_j / q_j), with p and q the smoothed P and Q
//      each divided by its own sum.
//    The first (smallest) i with the least divergence wins and
//    T = min((i + 0.5) * w, max(|min|, |max|)). With numBins < L, or no
//    candidate left, T is the minmax threshold.
//  * mse: for each candidate T_k = k * w, k = 1 .. numBins, with s = T_k / M
//    (M = 127 levels), each bin stands for its centre c_j = (j + 0.5) * w
//    weighted by its count: quantized to q_j = s * min(M, round(c_j / s))
//    (round half up; clipping is the min), error sum_j h_j (c_j - q_j)^2.
//    c_j / s = (2j + 1) * M / (2k) is rounded in integer arithmetic, so the
//    level chosen for a bin is exact. The first k with the least error wins.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_QUANT_CALIBRATION_H
#define PADDLEMLIR_QUANT_CALIBRATION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace paddle_mlir::quant {

/// How the clipping threshold of a tensor is chosen.
enum class CalibrationMethod { MinMax, Percentile, KL, MSE };

/// "minmax", "percentile", "kl" or "mse".
llvm::StringRef methodName(CalibrationMethod method);
/// The inverse of methodName; std::nullopt for an unknown name.
std::optional<CalibrationMethod> parseMethod(llvm::StringRef name);

/// Parameters of the threshold methods (see the file comment).
struct ThresholdOptions {
  double percentile = 99.99; ///< percentile: p in [0, 100].
  unsigned klLevels = 128;   ///< kl: number of quantized levels L.
  unsigned mseLevels = 127;  ///< mse: positive levels M (127 for s8).
};

/// Running statistics of one tensor: min, max, count and a fixed-size
/// histogram of |x| whose range grows by merging bins.
class TensorObserver {
public:
  static constexpr unsigned kDefaultBins = 2048;

  /// `numBins` must be even, at least 2 and at most 2^24 (callers validate
  /// user input with isValidBinCount; an invalid count becomes 2).
  explicit TensorObserver(unsigned numBins = kDefaultBins);
  static bool isValidBinCount(uint64_t numBins) {
    return numBins >= 2 && numBins % 2 == 0 && numBins <= (uint64_t(1) << 24);
  }

  /// Adds one chunk (any size, possibly empty). A NaN or an infinity rejects
  /// the whole chunk: the state is unchanged and the error says which element
  /// ("element 17 is NaN", counting from `firstIndex` for chunk[0]); the
  /// caller adds the tensor's name.
  std::optional<std::string> observe(llvm::ArrayRef<float> chunk, uint64_t firstIndex = 0);

  /// Restores statistics (a cache entry). Returns an error when they are
  /// inconsistent: odd or too few bins, a range that is not zero or a power of
  /// two, counts that do not add up to `count`, min > max.
  static std::optional<std::string> fromStats(float min, float max, uint64_t count, double range,
                                              std::vector<uint64_t> histogram, TensorObserver &out);

  bool empty() const { return count_ == 0; }
  float min() const { return min_; }
  float max() const { return max_; }
  uint64_t count() const { return count_; }
  /// Whether every value seen is >= 0, so the tensor can use u8.
  bool isNonNegative() const { return count_ > 0 && min_ >= 0.0f; }
  double range() const { return range_; }
  double binWidth() const { return range_ / static_cast<double>(bins_.size()); }
  unsigned numBins() const { return static_cast<unsigned>(bins_.size()); }
  llvm::ArrayRef<uint64_t> histogram() const { return bins_; }
  /// How many times observe() doubled the range (not part of the cache).
  unsigned numRescales() const { return rescales_; }

  /// The clipping threshold T of `method`; 0 for an empty observer or an
  /// all-zero tensor. kl costs O(numBins^2), mse O(numBins * nonempty bins).
  double threshold(CalibrationMethod method, const ThresholdOptions &options = {}) const;
  double minMaxThreshold() const;
  double percentileThreshold(double p) const;
  double klThreshold(unsigned levels = 128) const;
  double mseThreshold(unsigned levels = 127) const;

private:
  void growRangeTo(double absMax);

  std::vector<uint64_t> bins_;
  double range_ = 0.0;
  float min_ = 0.0f, max_ = 0.0f;
  uint64_t count_ = 0;
  unsigned rescales_ = 0;
};

/// The s8 (symmetric, [-127, 127]) scale of threshold T: T / 127. A zero
/// threshold (a tensor of zeros) gives scale 1, which represents it exactly
/// and keeps x / scale finite.
double int8Scale(double threshold);
/// The u8 ([0, 255]) scale of threshold T for a non-negative tensor: T / 255;
/// 1 for a zero threshold.
double uint8Scale(double threshold);

/// The statistics of every calibrated tensor of one model, with the model's
/// fingerprint (so a cache is never applied to another model) and the method
/// the thresholds are to be computed with. Stored as JSON:
///   {"format": "paddle-mlir-calibration", "version": 1,
///    "fingerprint": "...", "method": "kl", "percentile": 99.99,
///    "tensors": {"<name>": {"min": f, "max": f, "count": n, "range": r,
///                           "histogram": [n0, n1, ...]}, ...}}
/// (the number of bins is the histogram's length).
class CalibrationTable {
public:
  std::string fingerprint;
  CalibrationMethod method = CalibrationMethod::KL;
  ThresholdOptions options;
  std::map<std::string, TensorObserver> tensors;

  /// Writes the JSON cache; an error names the file.
  std::optional<std::string> writeCache(llvm::StringRef path) const;
  /// Replaces this table with the cache at `path`. One-line errors name the
  /// file: unreadable, not JSON, a field missing or of the wrong type, bad
  /// statistics, or a fingerprint other than `expectedFingerprint`.
  std::optional<std::string> readCache(llvm::StringRef path, llvm::StringRef expectedFingerprint);

  /// The statistics of `name`; nullptr and `error` set ("no calibration
  /// statistics for tensor 'x' in 'cache.json'") when absent.
  const TensorObserver *lookup(llvm::StringRef name, std::string &error) const;

private:
  std::string source_; ///< The file read by readCache, for lookup's error.
};

} // namespace paddle_mlir::quant

#endif // PADDLEMLIR_QUANT_CALIBRATION_H

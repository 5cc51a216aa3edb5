//===- paddle-calib-stats.cpp - calibration statistics of .npy samples ----===//
//
// Feeds float32 .npy files, in order, to one TensorObserver (each file one
// chunk, or chunks of --chunk elements) and prints the statistics and the
// clipping threshold of every method, each number with 9 significant digits:
//
//   min: -4.5  max: 25  count: 200000 (one per line), then
//   range: 32  bins: 2048  rescales: 2  and
//   minmax: T  percentile: T  kl: T  mse: T
//
// --cache-out writes the statistics as a calibration cache; --cache-in starts
// from a cache (and goes on with any files given). Both need --fingerprint.
// Errors are one line on stderr and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Quant/Calibration.h"
#include "PaddleMLIR/Support/Npy.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>

using namespace llvm;
using namespace paddle_mlir::quant;

static cl::OptionCategory category("paddle-calib-stats options");
static cl::list<std::string> inputs(cl::Positional, cl::desc("[FILE.npy ...]"), cl::cat(category));
static cl::opt<uint64_t> chunk("chunk",
                               cl::desc("Feed each file in chunks of N elements (0: whole file)"),
                               cl::value_desc("N"), cl::init(0), cl::cat(category));
static cl::opt<unsigned> bins("bins", cl::desc("Histogram bins (even; default 2048)"),
                              cl::init(TensorObserver::kDefaultBins), cl::cat(category));
static cl::opt<double> percentile("percentile", cl::desc("Percentile of |x| (default 99.99)"),
                                  cl::init(99.99), cl::cat(category));
static cl::opt<std::string> tensor("tensor", cl::desc("Tensor name in the cache (default x)"),
                                   cl::init("x"), cl::cat(category));
static cl::opt<std::string> method("method",
                                   cl::desc("Method recorded in --cache-out (default kl)"),
                                   cl::init("kl"), cl::cat(category));
static cl::opt<std::string> cacheOut("cache-out", cl::desc("Write a calibration cache"),
                                     cl::value_desc("FILE"), cl::cat(category));
static cl::opt<std::string> cacheIn("cache-in", cl::desc("Start from a calibration cache"),
                                    cl::value_desc("FILE"), cl::cat(category));
static cl::opt<std::string> fingerprint("fingerprint", cl::desc("Model fingerprint of the cache"),
                                        cl::value_desc("X"), cl::cat(category));

static int fail(const Twine &message) {
  errs() << "paddle-calib-stats: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "Calibration statistics of float32 .npy samples\n");
  if (inputs.empty() && cacheIn.empty())
    return fail("no input: pass .npy files and/or --cache-in FILE");
  if (!TensorObserver::isValidBinCount(bins))
    return fail("--bins must be even, from 2 to 16777216, not " + Twine(bins.getValue()));
  if (!(percentile >= 0.0 && percentile <= 100.0))
    return fail("--percentile must be in [0, 100]");
  std::optional<CalibrationMethod> recorded = parseMethod(method);
  if (!recorded)
    return fail("--method must be minmax, percentile, kl or mse, not '" + method + "'");
  if ((!cacheIn.empty() || !cacheOut.empty()) && fingerprint.getNumOccurrences() == 0)
    return fail("--cache-in and --cache-out need --fingerprint");

  CalibrationTable table;
  table.fingerprint = fingerprint;
  table.method = *recorded;
  table.options.percentile = percentile;
  TensorObserver observer(bins);
  if (!cacheIn.empty()) {
    if (auto error = table.readCache(cacheIn, fingerprint))
      return fail(*error);
    std::string error;
    const TensorObserver *cached = table.lookup(tensor, error);
    if (!cached)
      return fail(error);
    observer = *cached;
    // The flags given win over what the cache recorded.
    if (percentile.getNumOccurrences())
      table.options.percentile = percentile;
    if (method.getNumOccurrences())
      table.method = *recorded;
  }

  std::vector<float> data;
  for (const std::string &path : inputs) {
    npy::Array array;
    std::string error;
    if (!npy::read(path, array, error))
      return fail(error);
    if (array.dtype != PDRT_FLOAT32)
      return fail("'" + path + "' holds " + pdrt_dtype_name(array.dtype) + ", not float32");
    data.resize(array.data.size() / sizeof(float));
    std::memcpy(data.data(), array.data.data(), data.size() * sizeof(float));
    uint64_t step = chunk ? chunk.getValue() : std::max<uint64_t>(data.size(), 1);
    for (uint64_t start = 0; start < data.size(); start += step) {
      uint64_t size = std::min<uint64_t>(step, data.size() - start);
      if (auto error = observer.observe(ArrayRef<float>(data).slice(start, size), start))
        return fail(path + ": tensor '" + tensor + "': " + *error);
    }
  }

  auto num = [](double v) { return format("%.9g", v); };
  outs() << "min: " << num(observer.min()) << "\n";
  outs() << "max: " << num(observer.max()) << "\n";
  outs() << "count: " << observer.count() << "\n";
  outs() << "range: " << num(observer.range()) << "\n";
  outs() << "bins: " << observer.numBins() << "\n";
  outs() << "rescales: " << observer.numRescales() << "\n";
  for (CalibrationMethod m : {CalibrationMethod::MinMax, CalibrationMethod::Percentile,
                              CalibrationMethod::KL, CalibrationMethod::MSE})
    outs() << methodName(m) << ": " << num(observer.threshold(m, table.options)) << "\n";
  outs().flush();

  if (!cacheOut.empty()) {
    table.tensors.insert_or_assign(tensor, observer);
    if (auto error = table.writeCache(cacheOut))
      return fail(*error);
  }
  return 0;
}

//===- CompileOptions.h - typed options of ahead-of-time compilation -*- C++ -*-===//
//
// What paddle-compile's flags and paddle_mlir.compile's keywords select,
// parsed once from their spellings (setCompileOption) into enums that
// compileToArtifact switches over. A new precision or target is a new
// enumerator plus its spelling in CompileOptions.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_DRIVER_COMPILEOPTIONS_H
#define PADDLEMLIR_DRIVER_COMPILEOPTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir::pd {
/// --target: the device the artifact runs on (cuda: fp32 inference through
/// libpdrt_cuda, not yet run on a GPU; docs/GPU.md).
enum class Target { CPU, CUDA };
/// --precision: the element type heavy ops compute in (fp32; bf16 on CPUs
/// with bf16 arithmetic; int8 for fake-quantized models; fp16 is for the
/// GPU target, not built yet).
enum class Precision { FP32, BF16, FP16, INT8 };
/// --kernels: who computes conv/matmul: oneDNN through libpdrt_kernels.so
/// (copied into the artifact when used), or generated code.
enum class KernelLibrary { OneDNN, None };
/// --conv-layout: the activation layout between oneDNN convolutions. Auto:
/// the faster of NHWC and nChw8c, timed at compile time for static shapes;
/// else NHWC on AVX-512 hosts, nChw8c without.
enum class ConvLayout { Auto, NHWC, NChw8c, NChw16c };
/// --conv-algorithm: how 3x3 convolutions between NHWC or nChw8c activations
/// compute. Auto: Winograd F(2x2, 3x3) or F(4x4, 3x3) where one times faster
/// at compile time; Direct: oneDNN's; WinogradF2 / WinogradF4: every
/// eligible one with F(2x2, 3x3) / F(4x4, 3x3).
enum class ConvAlgorithm { Auto, Direct, WinogradF2, WinogradF4 };

/// Spellings, as the flags take them and manifest.json records them.
llvm::StringRef stringify(Target value);
llvm::StringRef stringify(Precision value);
llvm::StringRef stringify(KernelLibrary value);
llvm::StringRef stringify(ConvLayout value);
llvm::StringRef stringify(ConvAlgorithm value);

/// --accuracy-target: what the int8 artifact must keep of the fp32 one on
/// the validation samples (top-1 agreement in [0, 1], or output SQNR in dB).
struct AccuracyTarget {
  enum Kind { None, Top1, SQNR } kind = None;
  double value = 0;
};

struct CompileOptions {
  std::string name = "model"; // artifact name: lib<name>.so, <name>.h
  Target target = Target::CPU;
  Precision precision = Precision::FP32;
  /// Static shapes for inputs, replacing dynamic dims (e.g. image=1x3x224x224).
  std::map<std::string, std::vector<int64_t>> inputShapes;
  bool optimize = true;
  /// Place intermediate buffers in one arena per instance (pd-plan-memory),
  /// so runs after the first allocate nothing for them.
  bool memoryPlan = true;
  /// Print the static memory plan (pd-plan-memory report) to stderr.
  bool memoryReport = false;
  KernelLibrary kernels = KernelLibrary::OneDNN;
  /// Split generated loops over the threads of the kernel library's OpenMP
  /// pool (pd-parallelize-ops); the artifact then needs libpdrt_kernels.so.
  bool parallel = true;
  ConvLayout convLayout = ConvLayout::Auto;
  ConvAlgorithm convAlgorithm = ConvAlgorithm::Auto;
  /// LLVM CPU the generated code is tuned for and may use the instructions
  /// of: "host" (this machine's CPU and features) or a name such as
  /// x86-64-v3 or znver4, to build for other machines (or for tools like
  /// valgrind that do not decode AVX-512). Checked against LLVM's CPU list
  /// by compileToArtifact.
  std::string cpu = "host";
  /// --cuda-arch: the GPU architecture of --target cuda's kernels (sm_NN;
  /// default sm_90, H100/H200).
  std::string cudaArch = "sm_90";
  /// --allow-tf32: with --target cuda, cuBLASLt may round the inputs of
  /// fp32 matrix products to TF32 (faster on tensor cores, ~1e-3 relative
  /// error); fp32 math by default.
  bool allowTf32 = false;
  /// --cuda-emulate (tests only): with --target cuda, the kernels run as
  /// loops in the host code instead of on a GPU; the artifact loads only
  /// on a CUDA driver whose device memory is host memory (the tests'
  /// stand-in), so that whole cuda artifacts are checked without a GPU.
  bool cudaEmulate = false;
  /// --cuda-index-bitwidth: 32 (default: faster kernels; every buffer under
  /// 2^31 elements) or 64.
  int64_t cudaIndexBitwidth = 32;
  /// --partition / --devices: run the program on a job of `devices` ranks
  /// (docs/MultiDevice.md). "" (one process), "data" (data-parallel
  /// inference) or "pipeline" (pipeline inference).
  std::string partition;
  int64_t devices = 1;
  /// --micro-batches: with --partition pipeline, the parts of the batch in
  /// flight (0: the largest divisor of the batch that is at most devices).
  int64_t microBatches = 0;
  /// --stage-memory-mb: with --partition pipeline, the most MiB of weights
  /// (with --train: and their optimizer state) a stage may hold; the cut is
  /// the fastest within it (0: no limit).
  double stageMemoryMb = 0;
  /// --bucket-mb: with --partition data --train, the largest bucket of
  /// gradients averaged by one allreduce, in MiB (Paddle Fleet's
  /// fuse_grad_size_in_MB).
  double bucketMb = 32;
  /// --overlap-buckets: start each bucket's allreduce as soon as its last
  /// gradient exists and wait just before the update; by default each
  /// blocks there instead, faster on CPUs whose cores the ranks fill
  /// (benchmarks/dp_overlap.py, docs/MultiDevice.md).
  bool overlapBuckets = false;
  /// --reduce-strategy: with --partition data --train, "allreduce" (every
  /// rank updates every parameter) or "reduce" (Fluid's ReduceStrategy:
  /// each rank updates and keeps optimizer state for 1/N of the
  /// parameters, then all gather them).
  std::string reduceStrategy = "allreduce";
  /// --sync-batch-norm: with --partition data --train, batch_norm
  /// statistics over the global batch (summed over the ranks) instead of
  /// each rank's part.
  bool syncBatchNorm = false;
  /// --quantize-exclude: op types (conv2d, fc, ...) or Paddle output
  /// variable names whose ops stay fp32 under --precision int8.
  std::vector<std::string> quantizeExclude;
  /// --quantize-include: the same patterns, for layers calibration keeps in
  /// fp32 by default (the final classifier).
  std::vector<std::string> quantizeInclude;

  // Post-training int8 quantization of a float model (docs/Quantization.md).
  /// --calibration-data: a directory of samples (one .npy per sample for a
  /// one-input model, or one .npz per sample with an array per input name).
  std::string calibrationData;
  /// --calibration-method: minmax, percentile (default), kl or mse.
  std::string calibrationMethod = "percentile";
  /// --calibration-percentile: p of the percentile method.
  double calibrationPercentile = 99.99;
  /// --calibration-samples: use the first N samples (0: all).
  int64_t calibrationSamples = 0;
  /// --calibration-cache: statistics read from (when it exists and matches
  /// the model) or written to this file.
  std::string calibrationCache;
  /// --validation-split: the share of the samples held out (the last ones)
  /// to measure the int8 artifact against fp32.
  double validationSplit = 0.2;
  AccuracyTarget accuracyTarget;
  /// Progress lines and the layer table on stderr during calibration.
  bool verbose = true;
  /// --allow-emulated-bf16: build --precision bf16 for a CPU without bf16
  /// arithmetic (AVX512_BF16 / AMX), computing the bf16 values in f32.
  bool allowEmulatedBf16 = false;
  /// --precision-allow / --precision-deny: op types or Paddle output
  /// variable names that run in bf16 / stay fp32 under --precision bf16
  /// (pd-auto-mixed-precision's allow / deny; deny wins).
  std::vector<std::string> precisionAllow, precisionDeny;
  /// --precision-check: under --precision bf16, run the fp32 and mixed
  /// models on the same inputs (--check-data, else seeded random inputs)
  /// and report the error; with --accuracy-target, move ops back to fp32
  /// until it holds (docs/MixedPrecision.md).
  bool precisionCheck = false;
  /// --check-data: samples for the check (as --calibration-data).
  std::string checkData;

  // Training (docs/Training.md): a train step instead of inference.
  /// --train: @main becomes forward, backward and the optimizer's update;
  /// it returns the loss, and the trained weights live in the instance.
  bool train = false;
  /// --loss: the result (or Paddle variable) holding the scalar loss
  /// (default "loss", which --loss-op names its mean).
  std::string loss;
  /// --loss-op: the loss appended to the model's first output
  /// (softmax_with_cross_entropy), with a new int64 input --label.
  std::string lossOp;
  std::string label = "label";
  /// --optimizer (sgd, momentum, adam, adamw) and --lr.
  std::string optimizer = "sgd";
  double learningRate = 0.01;
  /// --momentum, --nesterov (momentum); --beta1, --beta2, --epsilon (adam,
  /// adamw); --weight-decay (L2, or adamw's decoupled decay; negative: the
  /// optimizer's default); --clip-norm (global norm, 0: off).
  double momentum = 0.9;
  bool nesterov = false;
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  double weightDecay = -1;
  double clipNorm = 0;
  /// --schedule (constant, step, cosine) with --step-size/--gamma,
  /// --total-steps/--min-lr; --warmup-steps.
  std::string schedule = "constant";
  int64_t stepSize = 0, totalSteps = 0, warmupSteps = 0;
  double gamma = 0.1, minLr = 0;
  /// --keep-gradients: also return each parameter's gradient (w@GRAD).
  bool keepGradients = false;
};

/// Sets the option named by its paddle-compile flag without the dashes
/// ("target", "precision", "kernels", "conv-layout", "conv-algorithm") from
/// its spelling. A bad value fails with the one message paddle-compile and
/// Python both report, e.g. "--conv-layout must be auto, nhwc, nchw8c or
/// nchw16c, not 'nchw4c'". Values that parse may still be refused by
/// compileToArtifact as not built yet (--precision fp16, --train with
/// --target cuda).
llvm::Error setCompileOption(CompileOptions &options, llvm::StringRef flag, llvm::StringRef value);
} // namespace mlir::pd

#endif // PADDLEMLIR_DRIVER_COMPILEOPTIONS_H

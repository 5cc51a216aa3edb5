//===- Pipeline.cpp - the CUDA target's pipeline (--pd-lower-to-gpu) -----===//
//
// Matrix products are cuBLASLt calls, convolutions cuDNN calls, collectives
// calls into libpdrt_cuda; everything else is generated code.
//
//===----------------------------------------------------------------------===//

#include "../PipelineText.h"
#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

using namespace mlir;

// After the shared start: collectives as libpdrt_cuda calls
// (pd-gpu-collectives), matrix products as cuBLASLt calls
// (pd-gpu-library-calls), row reductions one block per output element
// (pd-gpu-block-reductions), parallel loops, one grid per other top-level
// nest (pd-gpu-map-loops), then %kernels: the launches' kernels.
static const char *kGPUPipeline =
    "pd-check-cuda-target{chip=%c ptx=%f},%start,pd-gpu-collectives,"
    "pd-gpu-block-reductions{threads=%n},"
    "convert-linalg-to-parallel-loops,canonicalize,"
    "pd-gpu-map-loops{threads=%n index-bitwidth=%i},convert-parallel-loops-to-gpu,%kernels";

// The kernels for a GPU: outlined, NVVM, assembled. They take their
// buffers as bare pointers (shapes are static) and index in
// `index-bitwidth` bits.
static const char *kNVVMKernels =
    "gpu-launch-sink-index-computations,gpu-kernel-outlining,pd-gpu-kernel-sources,lower-affine,"
    "canonicalize,cse,"
    "convert-scf-to-cf,nvvm-attach-target{chip=%c features=%f O=3},"
    "gpu.module(convert-gpu-to-nvvm{index-bitwidth=%i use-bare-ptr-memref-call-conv=true}),"
    "gpu-module-to-binary{format=%b toolkit=%t}";

// --cuda-emulate: the launches become host loops instead (the artifact
// runs on the tests' host-memory driver only).
static const char *kEmulatedKernels =
    "pd-gpu-emulate-launches,lower-affine,canonicalize,cse,convert-scf-to-cf";

int mlir::pd::minimumPtxVersion(StringRef chip) {
  // LLVM's NVPTX backend: the PTX ISA version that introduced each target.
  static const std::pair<const char *, int> kFirstPtx[] = {
      {"sm_50", 40},  {"sm_52", 41},   {"sm_53", 42},  {"sm_60", 50},   {"sm_61", 50},
      {"sm_62", 50},  {"sm_70", 60},   {"sm_72", 61},  {"sm_75", 63},   {"sm_80", 70},
      {"sm_86", 71},  {"sm_87", 74},   {"sm_89", 78},  {"sm_90", 78},   {"sm_90a", 80},
      {"sm_100", 86}, {"sm_100a", 86}, {"sm_101", 86}, {"sm_101a", 86}, {"sm_120", 87},
      {"sm_120a", 87}};
  for (const auto &[name, version] : kFirstPtx)
    if (chip == name)
      return version;
  return 0;
}

void mlir::pd::addGPUCodegenPasses(OpPassManager &pm, const LowerToGPUOptions &options) {
  // Default PTX: 8.0 (CUDA 12.0), or the first version that has the chip.
  std::string ptx = options.ptx;
  if (ptx.empty())
    ptx = "+ptx" + std::to_string(std::max(80, minimumPtxVersion(options.chip)));
  std::string start =
      bufferizedLinalgPipeline("none", "", /*place=*/true,
                               /*report=*/false,
                               "func.func(pd-gpu-region-buffers),"
                               "pd-gpu-library-calls{allow-tf32=" +
                                   std::string(options.allowTf32 ? "true" : "false") + "}",
                               /*parallelGradients=*/true);
  SmallVector<std::pair<StringRef, std::string>> values = {
      {"%c", options.chip},
      {"%f", ptx},
      {"%start", start},
      {"%n", std::to_string(options.threads)},
      {"%n", std::to_string(options.threads)},
      {"%i", std::to_string(options.indexBitwidth)},
      {"%kernels", options.emulate ? kEmulatedKernels : kNVVMKernels}};
  if (!options.emulate)
    values.append({{"%c", options.chip},
                   {"%f", ptx},
                   {"%i", std::to_string(options.indexBitwidth)},
                   {"%b", options.format},
                   {"%t", options.toolkit}});
  addPipelineText(pm, options.emulate ? "GPU (emulated)" : "GPU", kGPUPipeline, values);
}

// The host code of a cuda artifact: launches become mgpu* calls (kernel
// arguments as bare pointers, as the kernels take them) and everything
// else the LLVM dialect. %math: with --cuda-emulate, the kernels' math and
// vector ops, which the host code then holds (libm calls unrolled over
// vector lanes into vector ops, so the vector conversion comes after).
static const char *kCUDAHostPipeline =
    "gpu-to-llvm{use-bare-pointers-for-kernels=true},expand-strided-metadata,lower-affine,"
    "%mathconvert-arith-to-llvm,finalize-memref-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,"
    "convert-index-to-llvm,reconcile-unrealized-casts";

void mlir::pd::addCUDAHostPasses(OpPassManager &pm, bool emulated) {
  addPipelineText(pm, emulated ? "CUDA host (emulated)" : "CUDA host", kCUDAHostPipeline,
                  {{"%math", emulated ? "convert-math-to-llvm,convert-math-to-libm,"
                                        "convert-vector-to-llvm,"
                                      : ""}});
}

void mlir::pd::buildLowerToGPUPipeline(OpPassManager &pm, const LowerToGPUOptions &options) {
  OptimizePipelineOptions graph;
  buildOptimizePipeline(pm, graph);
  addGPUCodegenPasses(pm, options);
}

//===- Pipeline.cpp - the --pd-lower-to-gpu pipeline ----------------------===//
//
// The CUDA target's code generation, by upstream passes under their
// registered names (the string reads like the mlir-opt command that
// reproduces a step) plus the pd passes. Everything is generated code for
// now: convolutions and matrix products become loop nests too, until the
// cuDNN and cuBLASLt calls exist.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

static const char *kGPUPipeline =
    "pd-externalize-weights,convert-pd-to-linalg{kernels=none},canonicalize,"
    "resolve-ranked-shaped-type-result-dims,canonicalize,cse,"
    "func.func(pd-fuse-elementwise,pd-split-init-tensors),"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "canonicalize,cse,pd-plan-memory{place=true report=false},cse,"
    "convert-linalg-to-parallel-loops,canonicalize,"
    "pd-gpu-map-loops{threads=%n},convert-parallel-loops-to-gpu,"
    "gpu-launch-sink-index-computations,gpu-kernel-outlining,lower-affine,canonicalize,cse,convert-"
    "scf-to-cf,"
    "nvvm-attach-target{chip=%c features=%f O=3},gpu.module(convert-gpu-to-nvvm),"
    "gpu-module-to-binary{format=%b toolkit=%t}";

void mlir::pd::buildLowerToGPUPipeline(OpPassManager &pm, const LowerToGPUOptions &options) {
  OptimizePipelineOptions graph;
  buildOptimizePipeline(pm, graph);
  std::string pipeline = kGPUPipeline;
  auto put = [&](StringRef key, StringRef value) {
    pipeline.replace(pipeline.find(key.str()), key.size(), value.str());
  };
  put("%n", std::to_string(options.threads));
  put("%c", options.chip);
  put("%f", options.ptx);
  put("%b", options.format);
  put("%t", options.toolkit);
  if (failed(parsePassPipeline(pipeline, pm)))
    llvm::report_fatal_error("paddle-mlir: the built-in GPU pipeline does not parse");
}

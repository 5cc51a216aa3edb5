//===- Pipelines.cpp - the --pd-lower-to-cpu pipeline --------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

// Upstream passes by their registered names: the pipeline reads like the
// mlir-opt command a developer would run to reproduce a step. bf16
// conversions are expanded to integer code (no libgcc/compiler-rt helper
// such as __truncsfbf2 at load time).
static const char *kCPUPipeline =
    "pd-externalize-weights,convert-pd-to-linalg{kernels=%k},canonicalize,resolve-ranked-shaped-"
    "type-result-"
    "dims,"
    "canonicalize,cse,"
    "func.func(pd-kernel-layouts{block=%b measure=%L "
    "winograd=%w},pd-fuse-elementwise,pd-split-init-tensors),"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "canonicalize,cse,pd-plan-memory{place=%p report=%s},cse,"
    "buffer-deallocation-pipeline,pd-forward-arena-results,convert-bufferization-to-memref,pd-"
    "lower-kernel-calls,pd-outline-"
    "ops,%par"
    "pd-reduction-loops,convert-linalg-to-loops,lower-affine,convert-scf-to-cf,expand-strided-metadata,lower-affine,"
    "convert-math-to-llvm,convert-math-to-libm,arith-expand{include-bf16=true},convert-arith-to-"
    "llvm,finalize-memref-to-llvm,"
    "convert-cf-to-llvm,convert-func-to-llvm,convert-index-to-llvm,reconcile-unrealized-casts";

void mlir::pd::addCPUCodegenPasses(OpPassManager &pm, bool memoryPlan, bool memoryReport,
                                   StringRef kernels, bool parallel, int64_t convBlock,
                                   StringRef measureLibrary, StringRef winograd) {
  std::string pipeline = kCPUPipeline;
  pipeline.replace(pipeline.find("%w"), 2, winograd.str());
  pipeline.replace(pipeline.find("%b"), 2, std::to_string(convBlock));
  pipeline.replace(pipeline.find("%L"), 2, "\"" + measureLibrary.str() + "\"");
  pipeline.replace(pipeline.find("%par"), 4, parallel ? "pd-parallelize-ops," : "");
  pipeline.replace(pipeline.find("%k"), 2, kernels.str());
  pipeline.replace(pipeline.find("%p"), 2, memoryPlan ? "true" : "false");
  pipeline.replace(pipeline.find("%s"), 2, memoryReport ? "true" : "false");
  if (failed(parsePassPipeline(pipeline, pm)))
    llvm::report_fatal_error("paddle-mlir: the built-in CPU pipeline does not parse");
}

void mlir::pd::buildLowerToCPUPipeline(OpPassManager &pm, const LowerToCPUOptions &options) {
  OptimizePipelineOptions graph;
  buildOptimizePipeline(pm, graph);
  addCPUCodegenPasses(pm, options.memoryPlan, /*memoryReport=*/false, options.kernels,
                      options.parallel);
}

void mlir::pd::registerCodeGenPassesAndPipelines() {
  registerAllPasses();
  registerPdCodeGenPasses();
  PassPipelineRegistration<LowerToCPUOptions>(
      "pd-lower-to-cpu",
      "Lower a pd module to the LLVM dialect for the host CPU (what paddle-compile runs)",
      buildLowerToCPUPipeline);
  PassPipelineRegistration<LowerToGPUOptions>(
      "pd-lower-to-gpu",
      "Lower a pd module to generated CUDA kernels (PTX or cubin in gpu.binary ops) launched by "
      "a host function in func/memref/gpu form; planned target, see docs/GPU.md",
      buildLowerToGPUPipeline);
}

//===- Pipeline.cpp - the CPU target's pipeline (--pd-lower-to-cpu) ------===//

#include "../PipelineText.h"
#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

using namespace mlir;

// After the shared start: buffer deallocation, library kernel calls, ops
// outlined (and split over threads), loops, and the LLVM conversions. bf16
// conversions are expanded to integer code (no libgcc/compiler-rt helper
// such as __truncsfbf2 at load time).
static const char *kCPUPipeline =
    "%start,buffer-deallocation-pipeline,pd-forward-arena-results,"
    "convert-bufferization-to-memref,pd-lower-kernel-calls,pd-outline-ops,%par"
    "pd-reduction-loops,convert-linalg-to-loops,lower-affine,convert-scf-to-cf,"
    "expand-strided-metadata,lower-affine,convert-math-to-llvm,convert-math-to-libm,"
    "arith-expand{include-bf16=true},convert-arith-to-llvm,finalize-memref-to-llvm,"
    "convert-cf-to-llvm,convert-func-to-llvm,convert-index-to-llvm,reconcile-unrealized-casts";

void mlir::pd::addCPUCodegenPasses(OpPassManager &pm, bool memoryPlan, bool memoryReport,
                                   StringRef kernels, bool parallel, int64_t convBlock,
                                   StringRef measureLibrary, StringRef winograd) {
  std::string layouts = "pd-train-layouts,pd-kernel-layouts{block=" + std::to_string(convBlock) +
                        " measure=\"" + measureLibrary.str() + "\" winograd=" + winograd.str() +
                        "}";
  addPipelineText(pm, "CPU", kCPUPipeline,
                  {{"%start", bufferizedLinalgPipeline(kernels, layouts, memoryPlan, memoryReport)},
                   {"%par", parallel ? "pd-parallelize-ops," : ""}});
}

void mlir::pd::buildLowerToCPUPipeline(OpPassManager &pm, const LowerToCPUOptions &options) {
  OptimizePipelineOptions graph;
  buildOptimizePipeline(pm, graph);
  addCPUCodegenPasses(pm, options.memoryPlan, /*memoryReport=*/false, options.kernels,
                      options.parallel);
}

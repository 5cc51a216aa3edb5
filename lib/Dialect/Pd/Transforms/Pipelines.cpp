//===- Pipelines.cpp - named pd pipelines and their registration ---------===//

#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::pd::buildOptimizePipeline(OpPassManager &pm, const OptimizePipelineOptions &options) {
  pm.addPass(createPdInferShapesPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createPdInferShapesPass());
  pm.addPass(createPdFoldConstantsPass());
  pm.addPass(createPdUnfreezeQuantPass());
  if (options.int8Attributes)
    pm.addPass(createPdInt8AttributesPass());
  pm.addPass(createPdFuseConvPass());
  pm.addNestedPass<func::FuncOp>(createPdFuseFcPass());
  if (options.fuseAttention)
    pm.addPass(createPdFuseMultiheadMatmulPass());
  pm.addNestedPass<func::FuncOp>(createPdFuseEmbeddingLayernormPass());
  pm.addNestedPass<func::FuncOp>(createPdFuseSkipLayernormPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::pd::registerPdPassesAndPipelines() {
  registerPdTransformsPasses();
  PassPipelineRegistration<OptimizePipelineOptions>(
      "pd-optimize", "Graph-level pd optimization pipeline (what paddle-compile runs by default)",
      buildOptimizePipeline);
}

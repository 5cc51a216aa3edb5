//===- Passes.h - pd -> pd passes and the graph pipeline -------*- C++ -*-===//
#ifndef PADDLEMLIR_DIALECT_PD_TRANSFORMS_PASSES_H
#define PADDLEMLIR_DIALECT_PD_TRANSFORMS_PASSES_H

#include "PaddleMLIR/Dialect/Pd/IR/PdDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::pd {
#define GEN_PASS_DECL
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h.inc"

/// Options of the graph-level pipeline (`--pd-optimize`).
struct OptimizePipelineOptions : public PassPipelineOptions<OptimizePipelineOptions> {
  Option<bool> fuseAttention{
      *this, "fuse-attention",
      llvm::cl::desc("Fuse BERT/ERNIE self-attention into pd.multihead_matmul (off: its "
                     "projections stay fc ops, which have int8 kernels)"),
      llvm::cl::init(true)};
  Option<bool> int8Attributes{
      *this, "int8-attributes",
      llvm::cl::desc("Quantize the inputs of ops whose Paddle int8 attributes ask for it "
                     "(pd-int8-attributes; what --precision int8 sets)"),
      llvm::cl::init(false)};
};

/// Graph-level pd -> pd pipeline: shape inference, canonicalization (folds
/// inference identities and constant shapes), CSE, and shape inference again
/// so folded shapes propagate.
void buildOptimizePipeline(OpPassManager &pm, const OptimizePipelineOptions &options);

/// Registers the pd passes and the named pipelines with the pass registry.
void registerPdPassesAndPipelines();
} // namespace mlir::pd

#endif // PADDLEMLIR_DIALECT_PD_TRANSFORMS_PASSES_H

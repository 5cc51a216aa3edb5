//===- Passes.td - passes that change abstraction level ---------*- tablegen -*-===//

#ifndef PADDLEMLIR_CODEGEN_PASSES_TD
#define PADDLEMLIR_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def PdExternalizeWeightsPass : Pass<"pd-externalize-weights", "::mlir::ModuleOp"> {
  let summary = "Turn parameter globals into trailing arguments of @main";
  let description = [{
    Every `ml_program.global_load_const` of `@main` becomes a function
    argument (after the model inputs) carrying `pd.weight = "<name>"`, and
    the globals are erased. The runtime passes the weights from the
    artifact's weights blob, so they are never copied into the code.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def ConvertPdToLinalgPass : Pass<"convert-pd-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower pd ops to linalg, tensor, arith and math on tensors";
  let description = [{
    Elementwise ops become `linalg.generic` with Paddle's broadcasting
    expressed in the indexing maps; conv2d/depthwise_conv2d, pooling and
    matrix products become linalg named ops (with `tensor.pad` for
    padding); reshape-like ops become `tensor.reshape`. Ops or attribute
    values the CPU backend does not handle yet are reported on the op.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect"
  ];
}

def PdFuseElementwisePass : Pass<"pd-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuse chains of elementwise linalg ops without recomputation";
  let description = [{
    Upstream elementwise fusion also fuses an elementwise producer into a
    reduction consumer (a matmul reading `gelu(x)`), which recomputes the
    producer once per reduction step. This pass fuses a producer only into
    consumers whose loops are all parallel, so every value is computed once.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

#endif // PADDLEMLIR_CODEGEN_PASSES_TD

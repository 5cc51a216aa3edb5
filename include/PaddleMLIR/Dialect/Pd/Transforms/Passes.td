//===- Passes.td - pd -> pd passes -------------------------------*- tablegen -*-===//

#ifndef PADDLEMLIR_DIALECT_PD_TRANSFORMS_PASSES_TD
#define PADDLEMLIR_DIALECT_PD_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PdInferShapesPass : Pass<"pd-infer-shapes", "::mlir::ModuleOp"> {
  let summary = "Refine pd result types from operand types and attributes";
  let description = [{
    Walks every function in program order and replaces each pd result type by
    the most precise of its declared and inferred types (a `?` becomes a
    static size where the operands determine it), then updates the function
    result types to what the function returns. Types that contradict the
    inferred ones are left for the verifier to report.

    Example: with `%x : tensor<1x3x224x224xf32>`, a `pd.relu %x` declared as
    `tensor<?x3x224x224xf32>` becomes `tensor<1x3x224x224xf32>`.
  }];
  let dependentDialects = ["::mlir::pd::PdDialect", "::mlir::func::FuncDialect"];
}

def PdFuseConvPass : Pass<"pd-fuse-conv", "::mlir::ModuleOp"> {
  let summary = "Fold batch_norm into convolutions and fuse bias, residual and activation";
  let description = [{
    Paddle's conv_bn_fuse / conv_elementwise_add_act fuse passes as one pass:
    - conv2d / depthwise_conv2d followed by an inference batch_norm whose
      filter and statistics are constant globals becomes `pd.fused_conv2d`
      with the filter scaled per output channel and a folded bias (new
      globals; globals left unused are erased);
    - an elementwise_add of a constant per-channel vector (axis 1) becomes
      the fused conv's bias;
    - an elementwise_add of a same-shaped tensor becomes `ResidualData`;
    - a following relu, relu6, leaky_relu, sigmoid, hard_swish or swish
      (with Paddle's default parameters) becomes `fuse_activation`.
    Each rewrite needs the intermediate value to have a single use.
  }];
  let dependentDialects = ["::mlir::pd::PdDialect", "::mlir::ml_program::MLProgramDialect"];
}

def PdFuseFcPass : Pass<"pd-fuse-fc", "::mlir::func::FuncOp"> {
  let summary = "Fuse mul/matmul_v2 + bias add (+ activation) into pd.fc";
  let description = [{
    Paddle's fc_fuse_pass: `mul(X, W)` or `matmul_v2(X, W)` with a 2-D
    constant weight and no transposes, followed by an elementwise_add of a
    constant [N] bias on the last dim, becomes `pd.fc` (in_num_col_dims =
    x_num_col_dims, or rank(X) - 1 for matmul_v2); a following relu or gelu
    becomes its activation_type. Intermediate values must have one use.
  }];
  let dependentDialects = ["::mlir::pd::PdDialect"];
}

def PdFuseSkipLayernormPass : Pass<"pd-fuse-skip-layernorm", "::mlir::func::FuncOp"> {
  let summary = "Fuse a residual add followed by layer_norm into pd.skip_layernorm";
  let description = [{
    Paddle's skip_layernorm_fuse_pass: `layer_norm(elementwise_add(X, Y))`
    over the last dim, with X and Y of the same shape and Scale and Bias
    given, becomes `pd.skip_layernorm` (the add must have one use).
  }];
  let dependentDialects = ["::mlir::pd::PdDialect"];
}

#endif // PADDLEMLIR_DIALECT_PD_TRANSFORMS_PASSES_TD

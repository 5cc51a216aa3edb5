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

#endif // PADDLEMLIR_DIALECT_PD_TRANSFORMS_PASSES_TD

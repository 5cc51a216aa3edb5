//===- PdGradient.td - the gradient rule interface of pd ops ---*- tablegen -*-===//
//
// PdGradient: the reverse-mode rule of a pd op, used by pd-append-backward.
// Rules are attached to the ops as external models (lib/Dialect/Pd/IR/
// Gradients/), one file per op family, so that an op gains its rule
// without touching the generated op table.
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_DIALECT_PD_IR_PDGRADIENT_TD
#define PADDLEMLIR_DIALECT_PD_IR_PDGRADIENT_TD

include "mlir/IR/OpBase.td"

def Pd_GradientOpInterface : OpInterface<"PdGradient"> {
  let cppNamespace = "::mlir::pd";
  let description = [{
    Builds the gradients of an op's operands from the gradients of its
    results (vector-Jacobian products), as pd ops, through a
    GradientBuilder that holds the incoming gradients (null for results no
    gradient reaches), says which operands need one, and collects them.
    A rule that cannot differentiate a particular use (an attribute value
    it does not support) emits an error on the op and fails.
  }];
  let methods = [
    InterfaceMethod<
      "Builds the gradients of the operands that need one.",
      "::llvm::LogicalResult", "buildGradients",
      (ins "::mlir::pd::GradientBuilder &":$builder)>,
  ];
}

#endif // PADDLEMLIR_DIALECT_PD_IR_PDGRADIENT_TD

//===- PdInterfaces.td - pd op interfaces -----------------------*- tablegen -*-===//
//
// PdShapeInference: result-type inference for pd ops, used by the verifier,
// by `pd-infer-shapes` and by the importers.
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_DIALECT_PD_IR_PDINTERFACES_TD
#define PADDLEMLIR_DIALECT_PD_IR_PDINTERFACES_TD

include "mlir/IR/OpBase.td"

def Pd_ShapeInferenceOpInterface : OpInterface<"PdShapeInference"> {
  let cppNamespace = "::mlir::pd";
  let description = [{
    Computes the result types of a pd op from its operand types and
    attributes, applying the checks Paddle's InferShape applies (ranks, slot
    shapes, attribute ranges). Dynamic dimensions propagate as `?`. When
    `emitErrors` is set, a failed check emits one diagnostic on the op.

    The interface verifier runs the inference and rejects result types that
    contradict it (different rank or element type, or a different static
    size); result types may be more or less static than the inferred ones.
  }];
  let methods = [
    InterfaceMethod<
      "Infers the result types; emits a diagnostic on failure when asked.",
      "::llvm::LogicalResult", "inferResultTypes",
      (ins "::llvm::SmallVectorImpl<::mlir::Type> &":$types,
           "bool":$emitErrors)>,
  ];
  let verify = [{ return ::mlir::pd::verifyInferredTypes($_op); }];
}

#endif // PADDLEMLIR_DIALECT_PD_IR_PDINTERFACES_TD

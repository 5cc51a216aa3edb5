//===- PdOps.td - all pd ops -------------------------------------*- tablegen -*-===//
//
// Root of the pd op definitions: the catalogue-generated ops and the
// hand-written fused and quantized ops and the while loop.
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_DIALECT_PD_IR_PDOPS_TD
#define PADDLEMLIR_DIALECT_PD_IR_PDOPS_TD

include "PaddleMLIR/Dialect/Pd/IR/PdBase.td"
include "PaddleMLIR/Dialect/Pd/IR/PdOpsGenerated.td"
include "PaddleMLIR/Dialect/Pd/IR/PdFusedOps.td"
include "PaddleMLIR/Dialect/Pd/IR/PdQuantOps.td"
include "PaddleMLIR/Dialect/Pd/IR/PdControlFlow.td"
include "PaddleMLIR/Dialect/Pd/IR/PdCommOps.td"

#endif // PADDLEMLIR_DIALECT_PD_IR_PDOPS_TD

//===- PdCommOps.td - compiler-only ops of multi-device programs -*- tablegen -*-===//
//
// Ops pd-partition-devices inserts that have no Paddle counterpart (the
// collectives themselves are Paddle ops, in the catalogue).
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_DIALECT_PD_IR_PDCOMMOPS_TD
#define PADDLEMLIR_DIALECT_PD_IR_PDCOMMOPS_TD

include "PaddleMLIR/Dialect/Pd/IR/PdBase.td"

def Pd_ShardBatchOp : Pd_Op<"shard_batch"> {
  let summary = "this rank's part of X along dim 0 (data-parallel inference)";
  let description = [{
    Inserted by `pd-partition-devices{mode=data}` on each input of the
    program: of X's dim 0 (the batch, divisible by `devices`), rank r of a
    job of `devices` ranks keeps rows r * B / devices ... (r + 1) * B /
    devices - 1. At run time the job must have `devices` ranks and the
    batch must divide evenly; otherwise the run fails saying so. Compiler
    only: not a Paddle op, never exported.

    Example:

    ```mlir
    %p = pd.shard_batch %x {devices = 2 : i32} : (tensor<8x16xf32>) -> tensor<4x16xf32>
    ```
  }];
  let arguments = (ins Pd_Tensor:$X, ConfinedAttr<I32Attr, [IntMinValue<1>]>:$devices);
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_IsStageOp : Pd_Op<"is_stage"> {
  let summary = "whether this rank runs pipeline stage `stage` (pipeline inference)";
  let description = [{
    Inserted by `pd-partition-devices{mode=pipeline}`: true on the rank
    numbered `stage` of a job of `stages` ranks, false on the others; the
    condition of the `pd.conditional_block` that holds the stage. At run
    time the job must have `stages` ranks, otherwise the run fails saying
    so. Compiler only: not a Paddle op, never exported.

    Example:

    ```mlir
    %f = pd.is_stage {stage = 1 : i32, stages = 2 : i32} : () -> tensor<1xi1>
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>]>:$stage,
                   ConfinedAttr<I32Attr, [IntMinValue<1>]>:$stages);
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // PADDLEMLIR_DIALECT_PD_IR_PDCOMMOPS_TD

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

def Pd_AllreduceStartOp : Pd_CommOp<"allreduce_start"> {
  let summary = "starts summing X over the ranks (a gradient bucket), in place";
  let description = [{
    Inserted by `pd-append-optimizer{ranks=N}` for each gradient bucket:
    starts the sum of X over every rank of the job and returns at once; the
    result is the same buffer, which holds the sum only after the
    `pd.allreduce_wait` of the same `bucket`. Between the two the rest of
    backward runs while the sum advances. Compiler only: never exported.

    Example:

    ```mlir
    %h = pd.allreduce_start %g {bucket = 0 : i64} : (tensor<7xf32>) -> tensor<7xf32>
    %s = pd.allreduce_wait %h {bucket = 0 : i64} : (tensor<7xf32>) -> tensor<7xf32>
    ```
  }];
  let arguments = (ins Pd_Tensor:$X, I64Attr:$bucket);
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_AllreduceWaitOp : Pd_CommOp<"allreduce_wait"> {
  let summary = "waits for the sum pd.allreduce_start began";
  let description = [{
    The sum over the ranks of the X given to the `pd.allreduce_start` of
    the same `bucket`, once it has finished (X is that op's result).
  }];
  let arguments = (ins Pd_Tensor:$X, I64Attr:$bucket);
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

#endif // PADDLEMLIR_DIALECT_PD_IR_PDCOMMOPS_TD

//===- Partition.h - what pd-partition-devices' modes share -----*- C++ -*-===//
//
// Helpers of PartitionDevices.cpp (data-parallel and pipeline inference)
// that PipelineTrain.cpp (pipeline training) uses too.
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_LIB_DIALECT_PD_TRANSFORMS_PARTITION_H
#define PADDLEMLIR_LIB_DIALECT_PD_TRANSFORMS_PARTITION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/Builders.h"

#include <string>

namespace mlir::pd::partition {
/// Sets the result types of `op` from its shape function, after its
/// operands changed to a part of the batch (`part` says which, for errors).
LogicalResult inferAgain(Operation *op, StringRef part);
/// Paddle's VarType code of an element type that can pass between ranks,
/// -1 for types Paddle has no code for.
int32_t paddleDtypeCode(Type t);
/// The weight `v` loads (ml_program.global_load_const), else null.
ml_program::GlobalOp weightLoadedBy(Value v);
/// Whether a weight is a trainable parameter (float, no pd.stop_gradient).
bool isTrainable(ml_program::GlobalOp global);
/// Relative time of an op for balancing stages (FLOPs + 8 per byte).
double weightOf(Operation *op);
/// Where ops of costs `w` are cut into `n` contiguous non-empty stages with
/// the smallest largest stage: the first op of stages 1 .. n-1. With a
/// `cap` > 0, only among the cuts whose stages each sum `held` (per op) to
/// at most `cap`; none (empty) when no cut does.
SmallVector<size_t> balancedCuts(ArrayRef<double> w, int64_t n, ArrayRef<double> held = {},
                                 double cap = 0);
/// What a pipeline stage may hold (pd-partition-devices' stage-memory-mb):
/// `capBytes` of weights (0: no limit), each trainable parameter counting
/// `trainableCopies` times (itself and its optimizer state).
struct StageMemory {
  double capBytes = 0;
  double trainableCopies = 1;
};
/// Rows [begin, end) of `x` along dim 0 (a pd.slice), as a micro-batch.
Value sliceRows(OpBuilder &b, Location loc, Value x, int64_t begin, int64_t end);
/// recv_v2 of a static `type` tensor from rank `peer`, on ring 0.
Value receive(OpBuilder &b, Location loc, RankedTensorType type, int64_t peer);
/// The micro-batches of a pipeline over `devices` ranks (`requested`, or
/// for 0 the largest divisor of the static batch that is at most
/// `devices`); `batch` gets the inputs' shared batch (dynamic: none).
FailureOr<int64_t> chooseMicroBatches(func::FuncOp main, int64_t devices, int64_t requested,
                                      int64_t &batch);
/// The name of input or result `i` of `fn`.
std::string nameOf(func::FuncOp fn, unsigned i, bool result);
/// Whether `op` talks to other ranks.
bool communicates(Operation *op);
/// The ops of @main that compute (those with operands), cut into `n`
/// contiguous stages of balanced cost (weightOf, plus `extra` of each op
/// when given), each within `memory` (a weight counts in the stage of its
/// first reader); an error when there are fewer ops or no cut fits.
FailureOr<SmallVector<SmallVector<Operation *>>>
cutIntoStages(func::FuncOp main, int64_t n, llvm::function_ref<double(Operation *)> extra = nullptr,
              StageMemory memory = {});
/// Refuses what no partition handles (LoD inputs, control flow, existing
/// collectives).
LogicalResult checkPartitionable(func::FuncOp main);

/// Pipeline training (Passes.td, pd-partition-devices' train-phase): the
/// stage cut and micro-batch sizing of the forward program,
LogicalResult pipelineTrainForward(func::FuncOp main, int64_t devices, int64_t microBatches,
                                   StageMemory memory);
/// the forward and backward ops run once per micro-batch,
LogicalResult pipelineTrainMicro(func::FuncOp main);
/// and the stages on their ranks in the 1F1B order; `report` gets each
/// stage's record and `microBatches` their count.
LogicalResult pipelineTrainStages(func::FuncOp main, int64_t devices, ArrayAttr &report,
                                  int64_t &microBatches);
} // namespace mlir::pd::partition

#endif // PADDLEMLIR_LIB_DIALECT_PD_TRANSFORMS_PARTITION_H

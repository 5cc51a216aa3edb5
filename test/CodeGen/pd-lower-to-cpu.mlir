// RUN: paddle-opt %s --pd-lower-to-cpu="memory-plan=true" | FileCheck %s
// RUN: paddle-opt %s --pd-lower-to-cpu="memory-plan=false" | FileCheck %s --check-prefix=NOPLAN
// Without library kernels the matmul is generated code.
// RUN: paddle-opt %s --pd-lower-to-cpu="kernels=none parallel=false" | FileCheck %s --check-prefix=NOKERNELS
// NOKERNELS-NOT: pd.kernel_calls
// NOKERNELS-NOT: pdk_
// With kernels=none the generated matmul (its fill and product) and relu
// run split over threads
// (the default parallel=true).
// RUN: paddle-opt %s --pd-lower-to-cpu="kernels=none" | FileCheck %s --check-prefix=PARALLEL
// PARALLEL: pd.parallel_ops = 3 : i64
// PARALLEL-DAG: llvm.func @pdk_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64)
// PARALLEL-DAG: llvm.mlir.addressof @__pd_op_{{[0-9]+}}_task
// PARALLEL-DAG: llvm.call @pdk_parallel_for(
// NOPLAN: module attributes {{{.*}}pd.memory_plan = {arena_bytes = 0 : i64, {{.*}}buffers = 0 : i64, {{.*}}heap_buffers = 2 : i64

// Tests the whole CPU pipeline: weights become trailing arguments, @main gets
// a C interface, and everything reaches the LLVM dialect.
// The memory plan is recorded on the module: the matmul result (computed by
// the oneDNN kernel, called through its C function) and relu's output,
// written in place of it, share the arena; the returned value is that arena
// view, not a heap copy (no malloc in @main).
// CHECK: module attributes {pd.kernel_calls = {"pd.matmul_v2 -> pdk_matmul" = 1 : i64}, pd.memory_plan = {arena_bytes = -1 : i64, {{.*}}buffers = 2 : i64, {{.*}}heap_buffers = 0 : i64, in_place = 1 : i64, {{.*}}results = 1 : i64
// CHECK-NOT: ml_program
// CHECK-NOT: = pd.
// CHECK: llvm.func @pdk_matmul(i64, i64, i64)
// CHECK: llvm.func @main(
// CHECK-NOT: llvm.call @malloc
// CHECK: llvm.call @pdk_matmul(
// CHECK-NOT: llvm.call @malloc
// CHECK: llvm.return
// CHECK: llvm.func @_mlir_ciface_main(
// CHECK: llvm.func @main_arena_bytes(
// CHECK: llvm.func @_mlir_ciface_main_arena_bytes(
module {
  ml_program.global private @w(dense<1.0> : tensor<4x2xf32>) : tensor<4x2xf32>
  func.func @main(%x: tensor<?x4xf32> {pd.name = "x"}) -> (tensor<?x2xf32> {pd.name = "y"}) {
    %w = ml_program.global_load_const @w : tensor<4x2xf32>
    %0 = pd.matmul_v2 %x, %w : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
    %1 = pd.relu %0 : (tensor<?x2xf32>) -> tensor<?x2xf32>
    return %1 : tensor<?x2xf32>
  }
}

// RUN: paddle-opt %s -pd-append-optimizer="optimizer=adam lr=0.5 ranks=3 bucket-mb=0.0000305 strategy=reduce" | FileCheck %s
// RUN: paddle-opt %s -pd-append-optimizer="ranks=2 strategy=reduce keep-gradients=true clip-norm=1" | FileCheck %s --check-prefix=KEEP
// RUN: not paddle-opt %s -pd-append-optimizer="ranks=2 strategy=shard" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: paddle-opt %s -pd-append-optimizer="ranks=1 strategy=reduce" | FileCheck %s --check-prefix=ONE

// The reduce strategy on 3 ranks, buckets of at most 31 bytes as in
// pd-append-optimizer-buckets.mlir: bucket 0 holds b and a (7 floats,
// padded with 2 zeros to 9 = 3 x 3), bucket 1 holds c (64 floats, padded
// to 66 = 3 x 22). Each bucket is reduce-scattered right after its last
// gradient; this rank's slice is averaged. The record: the strategy, each
// bucket's shard, the bytes of the padded buffers a rank sends in the
// reduce-scatter and in the allgather (2/3 of 36 + 264 bytes), and the
// elements a rank updates (3 + 22 floats).
// CHECK: module attributes {pd.partition = {allgather_bytes_per_step = 200 : i64, buckets = [{bucket = 0 : i64, bytes = 28 : i64, gradients = ["b", "a"], shard_elements = 3 : i64}, {bucket = 1 : i64, bytes = 256 : i64, gradients = ["c"], shard_elements = 22 : i64}], reducescatter_bytes_per_step = 200 : i64, strategy = "reduce", updated_bytes_per_rank = 100 : i64}}
// The optimizer state of a bucket covers this rank's slice only.
// CHECK-DAG: ml_program.global private mutable @grad_bucket_0_moment1_0({{.*}}) : tensor<3xf32> {pd.optimizer_state
// CHECK-DAG: ml_program.global private mutable @grad_bucket_0_moment2_0({{.*}}) : tensor<3xf32> {pd.optimizer_state
// CHECK-DAG: ml_program.global private mutable @grad_bucket_1_moment1_0({{.*}}) : tensor<22xf32> {pd.optimizer_state
// CHECK-DAG: ml_program.global private mutable @grad_bucket_1_moment2_0({{.*}}) : tensor<22xf32> {pd.optimizer_state
// CHECK-NOT: tensor<64xf32> {pd.optimizer_state
// CHECK-LABEL: func.func @main
// CHECK: %[[GB:.*]] = pd.relu %arg0
// CHECK-NEXT: %[[GA:.*]] = pd.fill_constant {shape = array<i64: 2, 2>
// CHECK-NEXT: %[[FA:.*]] = pd.reshape2 %[[GA]]
// CHECK-NEXT: %[[Z:.*]] = pd.fill_constant {shape = array<i64: 2>}
// CHECK-NEXT: %[[J:.*]] = pd.concat [%[[GB]], %[[FA]], %[[Z]]] : (tensor<3xf32>, tensor<4xf32>, tensor<2xf32>) -> tensor<9xf32>
// CHECK-NEXT: %[[S0:.*]] = pd.c_reducescatter %[[J]] {nranks = 3 : i32, pd.grad_bucket = 0 : i64} : (tensor<9xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[M0:.*]] = pd.scale %[[S0]] {scale = 0.333333343 : f32}
// CHECK-NEXT: %[[GC:.*]] = pd.fill_constant {shape = array<i64: 64>
// CHECK-NEXT: %[[Z1:.*]] = pd.fill_constant {shape = array<i64: 2>}
// CHECK-NEXT: %[[J1:.*]] = pd.concat [%[[GC]], %[[Z1]]] : (tensor<64xf32>, tensor<2xf32>) -> tensor<66xf32>
// CHECK-NEXT: %[[S1:.*]] = pd.c_reducescatter %[[J1]] {nranks = 3 : i32, pd.grad_bucket = 1 : i64} : (tensor<66xf32>) -> tensor<22xf32>
// CHECK-NEXT: %[[M1:.*]] = pd.scale %[[S1]] {scale = 0.333333343 : f32}
// This rank's slice of the bucket's parameters, updated, then gathered and
// split back into b and a.
// CHECK: %[[PB:.*]] = ml_program.global_load @b : tensor<3xf32>
// CHECK-NEXT: %[[PA:.*]] = ml_program.global_load @a : tensor<2x2xf32>
// CHECK-NEXT: %[[FPA:.*]] = pd.reshape2 %[[PA]]
// CHECK-NEXT: %[[PZ:.*]] = pd.fill_constant {shape = array<i64: 2>}
// CHECK-NEXT: %[[PJ:.*]] = pd.concat [%[[PB]], %[[FPA]], %[[PZ]]]
// CHECK-NEXT: %[[MINE:.*]] = pd.shard_batch %[[PJ]] {devices = 3 : i32} : (tensor<9xf32>) -> tensor<3xf32>
// CHECK: %[[UP:[A-Za-z0-9_]*]], {{.*}} = pd.adam %[[MINE]], %[[M0]], {{.*}} : (tensor<3xf32>, tensor<3xf32>, tensor<1xf32>, tensor<3xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>)
// CHECK-NEXT: %[[ALL:.*]] = pd.c_allgather %[[UP]] {nranks = 3 : i32} : (tensor<3xf32>) -> tensor<9xf32>
// CHECK-NEXT: %[[NB:.*]] = pd.slice %[[ALL]] {axes = array<i32: 0>, ends = array<i32: 3>, starts = array<i32: 0>}
// CHECK-NEXT: %[[NA1:.*]] = pd.slice %[[ALL]] {axes = array<i32: 0>, ends = array<i32: 7>, starts = array<i32: 3>}
// CHECK-NEXT: %[[NA:.*]] = pd.reshape2 %[[NA1]] {shape = array<i32: 2, 2>}
// CHECK-NEXT: ml_program.global_store @b = %[[NB]]
// CHECK-NEXT: ml_program.global_store @a = %[[NA]]
// CHECK: pd.adam %{{.*}}, %[[M1]], {{.*}} : (tensor<22xf32>,
// CHECK: pd.c_allgather %{{.*}} {nranks = 3 : i32} : (tensor<22xf32>) -> tensor<66xf32>
// CHECK: ml_program.global_store @c

// Kept gradients are gathered back whole; the global norm sums this rank's
// squares over the ranks.
// KEEP: %[[S:.*]] = pd.c_reducescatter %{{.*}} {nranks = 2 : i32, pd.grad_bucket = 0 : i64} : (tensor<72xf32>) -> tensor<36xf32>
// KEEP-NEXT: %[[M:.*]] = pd.scale %[[S]]
// KEEP: %[[G:.*]] = pd.c_allgather %[[M]] {nranks = 2 : i32} : (tensor<36xf32>) -> tensor<72xf32>
// KEEP: %[[C:.*]] = pd.slice %[[G]] {axes = array<i32: 0>, ends = array<i32: 71>, starts = array<i32: 7>}
// KEEP: %[[R:.*]] = pd.reduce_sum %{{.*}} {keep_dim = true} : (tensor<36xf32>) -> tensor<1xf32>
// KEEP-NEXT: %[[SQ:.*]] = pd.c_allreduce_sum %[[R]] : (tensor<1xf32>) -> tensor<1xf32>
// KEEP-NEXT: pd.sqrt %[[SQ]]
// KEEP: return %{{.*}}, %[[C]],

// BAD: error: pd-append-optimizer: unknown strategy 'shard' (expected allreduce or reduce)
// ONE-NOT: c_reducescatter
// ONE-NOT: shard_batch
module {
  ml_program.global private @a(dense<0.5> : tensor<2x2xf32>) : tensor<2x2xf32>
  ml_program.global private @b(dense<0.5> : tensor<3xf32>) : tensor<3xf32>
  ml_program.global private @c(dense<0.5> : tensor<64xf32>) : tensor<64xf32>
  func.func @main(%x: tensor<3xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}, tensor<64xf32> {pd.grad_of = "c", pd.name = "c@GRAD"}, tensor<2x2xf32> {pd.grad_of = "a", pd.name = "a@GRAD"}, tensor<3xf32> {pd.grad_of = "b", pd.name = "b@GRAD"}) {
    %l = pd.mean %x : (tensor<3xf32>) -> tensor<1xf32>
    %gb = pd.relu %x : (tensor<3xf32>) -> tensor<3xf32>
    %ga = pd.fill_constant {shape = array<i64: 2, 2>, value = 1.0 : f32} : () -> tensor<2x2xf32>
    %gc = pd.fill_constant {shape = array<i64: 64>, value = 2.0 : f32} : () -> tensor<64xf32>
    return %l, %gc, %ga, %gb : tensor<1xf32>, tensor<64xf32>, tensor<2x2xf32>, tensor<3xf32>
  }
}

// RUN: paddle-opt %s -pd-append-optimizer="lr=0.5 ranks=2 bucket-mb=0.0000305" | FileCheck %s
// RUN: paddle-opt %s -pd-append-optimizer="lr=0.5 ranks=2 bucket-mb=0.0000305 overlap=false" | FileCheck %s --check-prefix=BLOCK
// RUN: not paddle-opt %s -pd-append-optimizer="ranks=2 bucket-mb=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not paddle-opt %s -pd-append-optimizer="ranks=0" 2>&1 | FileCheck %s --check-prefix=RANKS
// RANKS: error: pd-append-optimizer: ranks must be >= 1, got 0
// RUN: paddle-opt %s -pd-append-optimizer="ranks=1" | FileCheck %s --check-prefix=ONE
// RUN: paddle-opt %s -pd-append-optimizer="ranks=2 overlap=false keep-gradients=true" | FileCheck %s --check-prefix=KEEP

// Kept gradients are the averaged ones (one 71-float bucket here).
// KEEP: %[[S:.*]] = pd.c_allreduce_sum %{{.*}} {pd.grad_bucket = 0 : i64} : (tensor<71xf32>) -> tensor<71xf32>
// KEEP-NEXT: %[[M:.*]] = pd.scale %[[S]]
// KEEP-NEXT: %[[B:.*]] = pd.slice %[[M]] {{.*}}ends = array<i32: 3>, starts = array<i32: 0>}
// KEEP-NEXT: %[[A1:.*]] = pd.slice %[[M]] {{.*}}ends = array<i32: 7>, starts = array<i32: 3>}
// KEEP-NEXT: %[[A:.*]] = pd.reshape2 %[[A1]]
// KEEP-NEXT: %[[C:.*]] = pd.slice %[[M]] {{.*}}ends = array<i32: 71>, starts = array<i32: 7>}
// KEEP-NEXT: %[[SL:.*]] = pd.c_allreduce_sum
// KEEP-NEXT: %[[L:.*]] = pd.scale %[[SL]]
// KEEP: return %[[L]], %[[C]], %[[A]], %[[B]]

// Overlapped (the default): each bucket's sum starts right after its last
// gradient (bucket 0 after a's, bucket 1 after c's) and is waited for at
// the end of backward, where the update begins; then the scale and split.
// CHECK: module attributes {pd.partition = {allreduce_bytes_per_step = 284 : i64
// CHECK: %[[L:.*]] = pd.mean %arg0
// CHECK-NEXT: %[[GB:.*]] = pd.relu %arg0
// CHECK-NEXT: %[[GA:.*]] = pd.fill_constant {shape = array<i64: 2, 2>
// CHECK-NEXT: %[[FA:.*]] = pd.reshape2 %[[GA]]
// CHECK-NEXT: %[[J:.*]] = pd.concat [%[[GB]], %[[FA]]]
// CHECK-NEXT: %[[H0:.*]] = pd.allreduce_start %[[J]] {bucket = 0 : i64} : (tensor<7xf32>) -> tensor<7xf32>
// CHECK-NEXT: %[[GC:.*]] = pd.fill_constant {shape = array<i64: 64>
// CHECK-NEXT: %[[H1:.*]] = pd.allreduce_start %[[GC]] {bucket = 1 : i64} : (tensor<64xf32>) -> tensor<64xf32>
// CHECK-NEXT: %[[S0:.*]] = pd.allreduce_wait %[[H0]] {bucket = 0 : i64} : (tensor<7xf32>) -> tensor<7xf32>
// CHECK-NEXT: %[[M0:.*]] = pd.scale %[[S0]] {scale = 5.000000e-01 : f32}
// CHECK-NEXT: pd.slice %[[M0]]
// CHECK-NEXT: pd.slice %[[M0]]
// CHECK-NEXT: pd.reshape2
// CHECK-NEXT: %[[S1:.*]] = pd.allreduce_wait %[[H1]] {bucket = 1 : i64}
// CHECK-NEXT: pd.scale %[[S1]] {scale = 5.000000e-01 : f32}
// CHECK-NEXT: %[[SL:.*]] = pd.c_allreduce_sum %[[L]] : (tensor<1xf32>) -> tensor<1xf32>
// CHECK: return

// Blocking (overlap=false), the same buckets:
// gradients averaged over 2 ranks in buckets of at
// most 31 bytes, filled in the order the gradients are computed (b, a, c;
// not the order of the results): b (12 bytes) and a (16) share bucket 0,
// flattened and joined; c (256) is alone in bucket 1. Each bucket's
// allreduce comes right after its last gradient, then the scale by 1/2 and
// the split back; the optimizer reads the averaged gradients and the loss
// is averaged too. The record: buckets and 2 (N-1)/N of their bytes.
// BLOCK: module attributes {pd.partition = {allreduce_bytes_per_step = 284 : i64, buckets = [{bucket = 0 : i64, bytes = 28 : i64, gradients = ["b", "a"]}, {bucket = 1 : i64, bytes = 256 : i64, gradients = ["c"]}], strategy = "allreduce"}}
// BLOCK: %[[L:.*]] = pd.mean %arg0
// BLOCK-NEXT: %[[GB:.*]] = pd.relu %arg0
// BLOCK-NEXT: %[[GA:.*]] = pd.fill_constant {shape = array<i64: 2, 2>
// BLOCK-NEXT: %[[FA:.*]] = pd.reshape2 %[[GA]] {shape = array<i32: 4>} : (tensor<2x2xf32>) -> tensor<4xf32>
// BLOCK-NEXT: %[[J:.*]] = pd.concat [%[[GB]], %[[FA]]] : (tensor<3xf32>, tensor<4xf32>) -> tensor<7xf32>
// BLOCK-NEXT: %[[S:.*]] = pd.c_allreduce_sum %[[J]] {pd.grad_bucket = 0 : i64} : (tensor<7xf32>) -> tensor<7xf32>
// BLOCK-NEXT: %[[M:.*]] = pd.scale %[[S]] {scale = 5.000000e-01 : f32}
// BLOCK-NEXT: %[[B:.*]] = pd.slice %[[M]] {axes = array<i32: 0>, ends = array<i32: 3>, starts = array<i32: 0>}
// BLOCK-NEXT: %[[A1:.*]] = pd.slice %[[M]] {axes = array<i32: 0>, ends = array<i32: 7>, starts = array<i32: 3>}
// BLOCK-NEXT: %[[A:.*]] = pd.reshape2 %[[A1]] {shape = array<i32: 2, 2>}
// BLOCK-NEXT: %[[GC:.*]] = pd.fill_constant {shape = array<i64: 64>
// BLOCK-NEXT: %[[SC:.*]] = pd.c_allreduce_sum %[[GC]] {pd.grad_bucket = 1 : i64} : (tensor<64xf32>) -> tensor<64xf32>
// BLOCK-NEXT: %[[C:.*]] = pd.scale %[[SC]] {scale = 5.000000e-01 : f32}
// BLOCK-NEXT: %[[SL:.*]] = pd.c_allreduce_sum %[[L]] : (tensor<1xf32>) -> tensor<1xf32>
// BLOCK-NEXT: %[[LOSS:.*]] = pd.scale %[[SL]] {scale = 5.000000e-01 : f32}
// BLOCK: pd.sgd %{{.*}}, %{{.*}}, %[[C]]
// BLOCK: pd.sgd %{{.*}}, %{{.*}}, %[[A]]
// BLOCK: pd.sgd %{{.*}}, %{{.*}}, %[[B]]
// BLOCK: return %[[LOSS]]
// ZERO: error: pd-append-optimizer: bucket-mb must be > 0, got 0
// One rank: nothing is averaged.
// ONE-NOT: c_allreduce_sum
// ONE-NOT: pd.partition
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

// RUN: paddle-opt %s -pd-append-backward=loss=loss | FileCheck %s
// RUN: paddle-opt %s -pd-append-backward=loss=loss -convert-pd-to-linalg | FileCheck %s --check-prefix=LOOPS
// RUN: paddle-opt %s -pd-append-backward="loss=loss sync-batch-norm-ranks=2" | FileCheck %s --check-prefix=SYNC
// RUN: not paddle-opt %s -pd-append-backward="loss=loss sync-batch-norm-ranks=0" 2>&1 | FileCheck %s --check-prefix=BAD

// Tests that a train step computes batch_norm as one pd.batch_norm_train
// (the batch's statistics), differentiates it with one
// pd.batch_norm_train_grad, and updates the running statistics from the
// batch's: momentum * running + (1 - momentum) * batch, stored back into
// mutable globals that take no gradient.
// CHECK-LABEL: ml_program.global private mutable @mean
// CHECK-SAME: pd.stop_gradient
// CHECK-LABEL: func.func @main
// CHECK-SAME: tensor<3xf32> {pd.grad_of = "scale", pd.name = "scale@GRAD"}, tensor<3xf32> {pd.grad_of = "bias", pd.name = "bias@GRAD"}
// CHECK: %[[Y:.*]], %[[M:.*]], %[[V:.*]] = pd.batch_norm_train %arg0, %scale, %bias {epsilon = 1.000000e-03 : f32}
// CHECK-NOT: pd.reduce_mean
// CHECK: %[[M2:.*]] = pd.scale %[[M]] {scale = 0.100000024 : f32}
// CHECK: %[[M1:.*]] = pd.scale %mean {scale = 0.899999976 : f32}
// CHECK: %[[NEWM:.*]] = pd.elementwise_add %[[M1]], %[[M2]]
// CHECK: ml_program.global_store @mean = %[[NEWM]]
// CHECK: pd.scale %[[V]] {scale = 0.100000024 : f32}
// CHECK: ml_program.global_store @var
// CHECK: %[[DX:.*]], %[[DS:.*]], %[[DB:.*]] = pd.batch_norm_train_grad %arg0, %scale, %[[M]], %[[V]], %{{.*}} {epsilon = 1.000000e-03 : f32}
// CHECK: return %{{.*}}, %[[DS]], %[[DB]]

// Lowered: three passes forward (sum, centered squares, normalize) and two
// backward (the two sums in one, then dx).
// LOOPS-LABEL: func.func @main
// LOOPS-COUNT-2: iterator_types = ["reduction", "parallel", "reduction", "reduction"]
// LOOPS: iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// LOOPS: linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction", "reduction"]{{.*}} outs(%{{.*}}, %{{.*}} : tensor<3xf32>, tensor<3xf32>)
// Synchronized over 2 ranks: the channel sums of X and of its squared
// deviations are summed over the ranks and divided by the global count
// (2 ranks x 2 x 4 x 4 = 64); the running statistics take the global ones.
// SYNC-NOT: batch_norm_train
// SYNC: %[[S:.*]] = pd.reduce_sum %arg0 {dim = array<i32: 0, 2, 3>, keep_dim = true} : (tensor<2x3x4x4xf32>) -> tensor<1x3x1x1xf32>
// SYNC-NEXT: %[[T:.*]] = pd.c_allreduce_sum %[[S]] : (tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32>
// SYNC-NEXT: %[[M:.*]] = pd.scale %[[T]] {scale = 1.562500e-02 : f32}
// SYNC-NEXT: %[[C:.*]] = pd.elementwise_sub %arg0, %[[M]]
// SYNC-NEXT: %[[Q:.*]] = pd.square %[[C]]
// SYNC-NEXT: %[[QS:.*]] = pd.reduce_sum %[[Q]] {dim = array<i32: 0, 2, 3>, keep_dim = true}
// SYNC-NEXT: %[[QT:.*]] = pd.c_allreduce_sum %[[QS]]
// SYNC-NEXT: %[[V:.*]] = pd.scale %[[QT]] {scale = 1.562500e-02 : f32}
// SYNC-NEXT: %[[E:.*]] = pd.scale %[[V]] {bias = 1.000000e-03 : f32}
// SYNC-NEXT: %[[SD:.*]] = pd.sqrt %[[E]]
// SYNC-NEXT: %[[N:.*]] = pd.elementwise_div %[[C]], %[[SD]]
// SYNC-NEXT: %[[Y1:.*]] = pd.elementwise_mul %[[N]], %scale {axis = 1 : i32}
// SYNC-NEXT: pd.elementwise_add %[[Y1]], %bias {axis = 1 : i32}
// SYNC: %[[RM:.*]] = pd.reshape2 %[[M]] {shape = array<i32: 3>}
// SYNC-NEXT: pd.scale %[[RM]] {scale = 0.100000024 : f32}
// SYNC: ml_program.global_store @mean
// SYNC: %[[RV:.*]] = pd.reshape2 %[[V]] {shape = array<i32: 3>}
// SYNC: ml_program.global_store @var
// BAD: error: pd-append-backward: sync-batch-norm-ranks must be >= 1, got 0
module {
  ml_program.global private @scale(dense<1.5> : tensor<3xf32>) : tensor<3xf32>
  ml_program.global private @bias(dense<0.1> : tensor<3xf32>) : tensor<3xf32>
  ml_program.global private @mean(dense<0.0> : tensor<3xf32>) : tensor<3xf32>
  ml_program.global private @var(dense<1.0> : tensor<3xf32>) : tensor<3xf32>
  func.func @main(%x: tensor<2x3x4x4xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %scale = ml_program.global_load_const @scale : tensor<3xf32>
    %bias = ml_program.global_load_const @bias : tensor<3xf32>
    %mean = ml_program.global_load_const @mean : tensor<3xf32>
    %var = ml_program.global_load_const @var : tensor<3xf32>
    %0 = pd.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 1.0e-3 : f32} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
    %1 = pd.square %0 : (tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    %2 = pd.mean %1 : (tensor<2x3x4x4xf32>) -> tensor<1xf32>
    return %2 : tensor<1xf32>
  }
}

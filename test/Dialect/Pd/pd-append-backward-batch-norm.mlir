// RUN: paddle-opt %s -pd-append-backward=loss=loss | FileCheck %s
// RUN: paddle-opt %s -pd-append-backward=loss=loss -convert-pd-to-linalg | FileCheck %s --check-prefix=LOOPS

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

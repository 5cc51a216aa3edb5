// RUN: paddle-opt %s -split-input-file -verify-diagnostics -pd-append-backward=loss=loss | FileCheck %s

// Tests that an fc layer (matmul_v2 + bias + relu) under a mean gets the
// gradient of each parameter: the bias's summed over the batch, the
// weight's as x^T @ dOut, the relu's masked by its output.
// CHECK-LABEL: func.func @main
// CHECK-SAME: -> (tensor<1xf32> {pd.name = "loss"}, tensor<4x3xf32> {pd.grad_of = "w", pd.name = "w@GRAD"}, tensor<3xf32> {pd.grad_of = "b", pd.name = "b@GRAD"})
// CHECK: %[[RELU:.*]] = pd.relu
// CHECK: %[[LOSS:.*]] = pd.mean %[[RELU]]
// CHECK: %[[ONE:.*]] = pd.fill_any_like %[[LOSS]] {value = 1.000000e+00 : f32}
// CHECK: %[[INV:.*]] = pd.fill_any_like %[[RELU]] {value = 0.166666672 : f32}
// CHECK: %[[DRELU:.*]] = pd.elementwise_mul %[[INV]], %[[ONE]]
// CHECK: %[[ZERO:.*]] = pd.fill_any_like %[[DRELU]] :
// CHECK: %[[POS:.*]] = pd.greater_than %[[RELU]]
// CHECK: %[[DPRE:.*]] = pd.where %[[POS]], %[[DRELU]], %[[ZERO]]
// CHECK: %[[SUM:.*]] = pd.reduce_sum %[[DPRE]] {keep_dim = true} : (tensor<2x3xf32>) -> tensor<1x3xf32>
// CHECK: %[[DB:.*]] = pd.reshape2 %[[SUM]] {shape = array<i32: 3>}
// CHECK: %[[DW:.*]] = pd.matmul_v2 %arg0, %[[DPRE]] {trans_x = true} : (tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK: return %[[LOSS]], %[[DW]], %[[DB]]
module {
  ml_program.global private @w(dense<0.5> : tensor<4x3xf32>) : tensor<4x3xf32>
  ml_program.global private @b(dense<0.1> : tensor<3xf32>) : tensor<3xf32>
  func.func @main(%x: tensor<2x4xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %w = ml_program.global_load_const @w : tensor<4x3xf32>
    %b = ml_program.global_load_const @b : tensor<3xf32>
    %0 = pd.matmul_v2 %x, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    %1 = pd.elementwise_add %0, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %2 = pd.relu %1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = pd.mean %2 : (tensor<2x3xf32>) -> tensor<1xf32>
    return %3 : tensor<1xf32>
  }
}

// -----

// Tests that a parameter read twice gets the sum of both gradients, and
// that a global marked pd.stop_gradient gets none.
// CHECK-LABEL: func.func @main
// CHECK-SAME: -> (tensor<1xf32> {pd.name = "loss"}, tensor<3xf32> {pd.grad_of = "w", pd.name = "w@GRAD"})
// CHECK: %[[WS:.*]] = pd.elementwise_mul %w, %s
// CHECK: %[[D1:.*]] = pd.elementwise_mul %[[WS]], %w
// CHECK: %[[DOUT:.*]] = pd.elementwise_mul %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<1xf32>)
// CHECK: %[[DWS:.*]] = pd.elementwise_mul %[[DOUT]], %w
// CHECK: %[[FIRST:.*]] = pd.elementwise_mul %[[DOUT]], %[[WS]]
// CHECK: %[[SECOND:.*]] = pd.elementwise_mul %[[DWS]], %s
// CHECK: %[[SUM:.*]] = pd.elementwise_add %[[FIRST]], %[[SECOND]]
// CHECK: return %{{.*}}, %[[SUM]]
module {
  ml_program.global private @w(dense<0.5> : tensor<3xf32>) : tensor<3xf32>
  ml_program.global private @s(dense<2.0> : tensor<3xf32>) : tensor<3xf32> {pd.stop_gradient}
  func.func @main(%x: tensor<3xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %w = ml_program.global_load_const @w : tensor<3xf32>
    %s = ml_program.global_load_const @s : tensor<3xf32>
    %0 = pd.elementwise_mul %w, %s : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %1 = pd.elementwise_mul %0, %w : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %2 = pd.mean %1 : (tensor<3xf32>) -> tensor<1xf32>
    return %2 : tensor<1xf32>
  }
}

// -----

// Tests that an op without a gradient rule between a parameter and the
// loss is an error naming it.
module {
  ml_program.global private @w(dense<0.5> : tensor<2x3xf32>) : tensor<2x3xf32>
  func.func @main(%x: tensor<2x3xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %w = ml_program.global_load_const @w : tensor<2x3xf32>
    // expected-error @+1 {{no gradient rule for 'pd.cumsum', which lies between the parameters and the loss 'loss'}}
    %0 = pd.cumsum %w {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %1 = pd.mean %0 : (tensor<2x3xf32>) -> tensor<1xf32>
    return %1 : tensor<1xf32>
  }
}

// -----

// Tests that a loss of more than one element is refused.
module {
  ml_program.global private @w(dense<0.5> : tensor<2x3xf32>) : tensor<2x3xf32>
  // expected-error @+1 {{pd-append-backward: the loss 'loss' must be a float tensor of one element, got 'tensor<2x3xf32>'}}
  func.func @main(%x: tensor<2x3xf32> {pd.name = "x"}) -> (tensor<2x3xf32> {pd.name = "loss"}) {
    %w = ml_program.global_load_const @w : tensor<2x3xf32>
    %0 = pd.relu %w : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}

// -----

// Tests that dynamic shapes on the path are refused with the fix.
module {
  ml_program.global private @w(dense<0.5> : tensor<3xf32>) : tensor<3xf32>
  func.func @main(%x: tensor<?x3xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %w = ml_program.global_load_const @w : tensor<3xf32>
    %0 = pd.elementwise_mul %x, %w : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
    // expected-error @+1 {{pd-append-backward needs static shapes, but 'pd.mean' has a value of type 'tensor<?x3xf32>' (fix the input shapes, e.g. paddle-compile --input-shape)}}
    %1 = pd.mean %0 : (tensor<?x3xf32>) -> tensor<1xf32>
    return %1 : tensor<1xf32>
  }
}

// -----

// Tests that a loss reading batch_norm_train's batch statistics (SavedMean)
// is refused: no rule differentiates through the statistics themselves.
module {
  ml_program.global private @scale(dense<1.5> : tensor<3xf32>) : tensor<3xf32>
  ml_program.global private @bias(dense<0.1> : tensor<3xf32>) : tensor<3xf32>
  func.func @main(%x: tensor<2x3x4x4xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %s = ml_program.global_load_const @scale : tensor<3xf32>
    %b = ml_program.global_load_const @bias : tensor<3xf32>
    // expected-error @+1 {{no gradient rule through batch_norm_train's SavedMean or SavedVariance}}
    %y:3 = pd.batch_norm_train %x, %s, %b : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>)
    %0 = pd.mean %y#1 : (tensor<3xf32>) -> tensor<1xf32>
    return %0 : tensor<1xf32>
  }
}

// RUN: paddle-opt %s -pd-append-backward | FileCheck %s

// Tests that a training dropout reads the step counter @DROPOUT_STEP@ (a
// new int64 global, incremented and stored by the step) as its Seed
// operand with a seed of its own, that a fix_seed dropout reads a constant
// 0 instead, and that each one's gradient is the same dropout (operand and
// attributes) applied to the incoming gradient, in reverse order.
// CHECK: ml_program.global private mutable @"@DROPOUT_STEP@"({{.*}}) : tensor<1xi64> {pd.optimizer_state, pd.stop_gradient}
// CHECK-LABEL: func.func @main
// CHECK: %[[ZERO:.*]] = pd.fill_constant {dtype = 3 : i32, shape = array<i64: 1>} : () -> tensor<1xi64>
// CHECK: %[[STEP:.*]] = ml_program.global_load @"@DROPOUT_STEP@" : tensor<1xi64>
// CHECK: %[[D1:.*]] = pd.dropout %{{.*}} Seed(%[[STEP]]) {dropout_implementation = "upscale_in_train", dropout_prob = 2.500000e-01 : f32, seed = 1 : i32}
// CHECK: %[[D2:.*]] = pd.dropout %[[D1]] Seed(%[[ZERO]]) {fix_seed = true, seed = 9 : i32}
// CHECK: %[[INC:.*]] = pd.elementwise_add %[[STEP]], %{{.*}} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK: ml_program.global_store @"@DROPOUT_STEP@" = %[[INC]]
// CHECK: %[[G2:.*]] = pd.dropout %{{.*}} Seed(%[[ZERO]]) {fix_seed = true, seed = 9 : i32}
// CHECK: %[[G1:.*]] = pd.dropout %[[G2]] Seed(%[[STEP]]) {dropout_implementation = "upscale_in_train", dropout_prob = 2.500000e-01 : f32, seed = 1 : i32}
// CHECK: return %{{.*}}, %[[G1]]
module {
  ml_program.global private @w(dense<0.5> : tensor<2x3xf32>) : tensor<2x3xf32>
  func.func @main(%x: tensor<2x3xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %w = ml_program.global_load_const @w : tensor<2x3xf32>
    %d = pd.dropout %w {dropout_prob = 0.25 : f32, dropout_implementation = "upscale_in_train"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %e = pd.dropout %d {dropout_prob = 0.5 : f32, fix_seed = true, seed = 9 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %m = pd.elementwise_mul %e, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %l = pd.mean %m : (tensor<2x3xf32>) -> tensor<1xf32>
    return %l : tensor<1xf32>
  }
}

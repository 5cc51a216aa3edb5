// RUN: paddle-opt %s -pd-fuse-skip-layernorm -split-input-file | FileCheck %s

// Tests BERT's residual add + layer_norm over the hidden dim.
// CHECK-LABEL: func.func @residual_ln
// CHECK: %[[S:.*]] = pd.skip_layernorm %arg0, %arg1, %arg2, %arg3 {epsilon = 9.99999996E-13 : f32} : (tensor<?x?x8xf32>, tensor<?x?x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x?x8xf32>
// CHECK-NEXT: return %[[S]]
func.func @residual_ln(%x: tensor<?x?x8xf32>, %h: tensor<?x?x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<?x?x8xf32> {
  %0 = pd.elementwise_add %x, %h : (tensor<?x?x8xf32>, tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %1 = pd.layer_norm %0 Scale(%g) Bias(%b) {begin_norm_axis = 2 : i32, epsilon = 1.0e-12 : f32} : (tensor<?x?x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x?x8xf32>
  return %1 : tensor<?x?x8xf32>
}

// -----

// Tests that a broadcasting add, or an add whose result is used again, is not fused.
// CHECK-LABEL: func.func @negative_cases
// CHECK-COUNT-2: pd.elementwise_add
// CHECK-NOT: pd.skip_layernorm
func.func @negative_cases(%x: tensor<2x8xf32>, %h: tensor<8xf32>, %g: tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) {
  %0 = pd.elementwise_add %x, %h : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %1 = pd.layer_norm %0 Scale(%g) Bias(%g) : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %2 = pd.elementwise_add %x, %x : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %3 = pd.layer_norm %2 Scale(%g) Bias(%g) : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %1, %2, %3 : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
}

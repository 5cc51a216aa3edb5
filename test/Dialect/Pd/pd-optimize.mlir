// RUN: paddle-opt %s --pd-optimize | FileCheck %s

// Tests that the graph pipeline refines shapes, drops inference identities,
// folds the shape computation of a static input and fuses the relu into
// the conv (which has no bias).
// CHECK-LABEL: func.func @pipeline
// CHECK-SAME: -> (tensor<1x8x6x6xf32>, tensor<4xi32>)
// CHECK-DAG: %[[S:.*]] = arith.constant dense<[1, 8, 6, 6]> : tensor<4xi32>
// CHECK: %[[C:.*]] = pd.fused_conv2d %arg0, %arg1 {fuse_activation = "relu"} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
// CHECK-NEXT: return %[[C]], %[[S]]
func.func @pipeline(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> (tensor<?x?x?x?xf32>, tensor<?xi32>) {
  %0 = pd.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<?x?x?x?xf32>
  %1 = pd.dropout %0 {is_test = true, dropout_implementation = "upscale_in_train"} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %2 = pd.relu %1 : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %3 = pd.shape %2 : (tensor<?x?x?x?xf32>) -> tensor<?xi32>
  return %2, %3 : tensor<?x?x?x?xf32>, tensor<?xi32>
}

// Tests that once the input shape is bound, an attention block's reshape
// computed from shape -> slice -> multiply gets static dims, and so do the
// ops after it.
// CHECK-LABEL: func.func @bound_shape_arithmetic
// CHECK-SAME: -> tensor<1x12x64xf32>
// CHECK: pd.reshape2 %arg0 {shape = array<i32: 1, 64, 12>} : (tensor<1x64x3x4xf32>) -> tensor<1x64x12xf32>
// CHECK: pd.transpose2 {{.*}} -> tensor<1x12x64xf32>
func.func @bound_shape_arithmetic(%x: tensor<1x64x3x4xf32>) -> tensor<?x?x64xf32> {
  %s = pd.shape %x : (tensor<1x64x3x4xf32>) -> tensor<4xi32>
  %n = pd.slice %s {axes = array<i32: 0>, starts = array<i32: 0>, ends = array<i32: 1>, decrease_axis = array<i32: 0>} : (tensor<4xi32>) -> tensor<i32>
  %h = pd.slice %s {axes = array<i32: 0>, starts = array<i32: 2>, ends = array<i32: 3>, decrease_axis = array<i32: 0>} : (tensor<4xi32>) -> tensor<i32>
  %w = pd.slice %s {axes = array<i32: 0>, starts = array<i32: 3>, ends = array<i32: 4>, decrease_axis = array<i32: 0>} : (tensor<4xi32>) -> tensor<i32>
  %hw = pd.elementwise_mul %h, %w : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %c = pd.fill_constant {dtype = 2 : i32, force_cpu = true, shape = array<i64: 1>, str_value = "64", value = 6.400000e+01 : f32} : () -> tensor<1xi32>
  %r = pd.reshape2 %x ShapeTensor[%n, %c, %hw] {shape = array<i32: -1, 64, -1>} : (tensor<1x64x3x4xf32>, tensor<i32>, tensor<1xi32>, tensor<i32>) -> tensor<?x64x?xf32>
  %t = pd.transpose2 %r {axis = array<i32: 0, 2, 1>} : (tensor<?x64x?xf32>) -> tensor<?x?x64xf32>
  return %t : tensor<?x?x64xf32>
}

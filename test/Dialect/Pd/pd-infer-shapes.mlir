// RUN: paddle-opt %s -pd-infer-shapes -split-input-file | FileCheck %s

// Tests that static input shapes flow through a conv block and into the
// function signature.
// CHECK-LABEL: func.func @static_conv_block
// CHECK-SAME: -> tensor<1x32x112x112xf32>
// CHECK: %[[C:.*]] = pd.conv2d {{.*}} -> tensor<1x32x112x112xf32>
// CHECK: %[[B:.*]] = pd.batch_norm %[[C]], {{.*}} -> tensor<1x32x112x112xf32>
// CHECK: %[[R:.*]] = pd.relu %[[B]] : (tensor<1x32x112x112xf32>) -> tensor<1x32x112x112xf32>
// CHECK: return %[[R]] : tensor<1x32x112x112xf32>
func.func @static_conv_block(%x: tensor<1x3x224x224xf32>, %w: tensor<32x3x3x3xf32>, %s: tensor<32xf32>) -> tensor<?x?x?x?xf32> {
  %0 = pd.conv2d %x, %w {strides = array<i32: 2, 2>, paddings = array<i32: 1, 1>} : (tensor<1x3x224x224xf32>, tensor<32x3x3x3xf32>) -> tensor<?x?x?x?xf32>
  %1 = pd.batch_norm %0, %s, %s, %s, %s : (tensor<?x?x?x?xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x?x?x?xf32>
  %2 = pd.relu %1 : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %2 : tensor<?x?x?x?xf32>
}

// -----

// Tests that a dynamic batch stays dynamic while the other dims are refined.
// CHECK-LABEL: func.func @dynamic_batch
// CHECK: pd.pool2d {{.*}} -> tensor<?x8x4x4xf32>
// CHECK: pd.flatten_contiguous_range {{.*}} -> tensor<?x128xf32>
// CHECK: pd.matmul_v2 {{.*}} -> tensor<?x10xf32>
// CHECK: pd.elementwise_add {{.*}} -> tensor<?x10xf32>
// CHECK: pd.softmax {{.*}} -> tensor<?x10xf32>
func.func @dynamic_batch(%x: tensor<?x8x8x8xf32>, %w: tensor<128x10xf32>, %b: tensor<10xf32>) -> tensor<?x?xf32> {
  %0 = pd.pool2d %x {ksize = array<i32: 2, 2>, strides = array<i32: 2, 2>} : (tensor<?x8x8x8xf32>) -> tensor<?x?x?x?xf32>
  %1 = pd.flatten_contiguous_range %0 {start_axis = 1 : i32, stop_axis = 3 : i32} : (tensor<?x?x?x?xf32>) -> tensor<?x?xf32>
  %2 = pd.matmul_v2 %1, %w : (tensor<?x?xf32>, tensor<128x10xf32>) -> tensor<?x?xf32>
  %3 = pd.elementwise_add %2, %b {axis = 1 : i32} : (tensor<?x?xf32>, tensor<10xf32>) -> tensor<?x?xf32>
  %4 = pd.softmax %3 : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %4 : tensor<?x?xf32>
}

// -----

// Tests the BERT attention reshapes: 0 copies a dim (even a dynamic one), the
// transposes permute, and the batched matmul broadcasts.
// CHECK-LABEL: func.func @attention_shapes
// CHECK: pd.reshape2 {{.*}} -> tensor<?x?x12x64xf32>
// CHECK: pd.transpose2 {{.*}} -> tensor<?x12x?x64xf32>
// CHECK: pd.matmul_v2 {{.*}} -> tensor<?x12x?x?xf32>
func.func @attention_shapes(%x: tensor<?x?x768xf32>) -> tensor<?x?x?x?xf32> {
  %0 = pd.reshape2 %x {shape = array<i32: 0, 0, 12, 64>} : (tensor<?x?x768xf32>) -> tensor<?x?x?x?xf32>
  %1 = pd.transpose2 %0 {axis = array<i32: 0, 2, 1, 3>} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %2 = pd.matmul_v2 %1, %1 {trans_y = true} : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %2 : tensor<?x?x?x?xf32>
}

// -----

// Tests the -1 of reshape2 and Paddle's axis broadcasting of a bias.
// CHECK-LABEL: func.func @reshape_minus_one
// CHECK: pd.reshape2 {{.*}} -> tensor<2x12xf32>
// CHECK: pd.elementwise_add {{.*}} -> tensor<2x3x4x5xf32>
func.func @reshape_minus_one(%x: tensor<2x3x4xf32>, %a: tensor<2x3x4x5xf32>, %b: tensor<3x4xf32>) -> (tensor<?x?xf32>, tensor<?x?x?x?xf32>) {
  %0 = pd.reshape2 %x {shape = array<i32: 2, -1>} : (tensor<2x3x4xf32>) -> tensor<?x?xf32>
  %1 = pd.elementwise_add %a, %b {axis = 1 : i32} : (tensor<2x3x4x5xf32>, tensor<3x4xf32>) -> tensor<?x?x?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?x?x?xf32>
}

// -----

// Tests that split, concat and slice compute sizes from their attributes.
// CHECK-LABEL: func.func @split_concat_slice
// CHECK: pd.split {{.*}} -> (tensor<?x2xf32>, tensor<?x6xf32>)
// CHECK: pd.concat {{.*}} -> tensor<?x8xf32>
// CHECK: pd.slice {{.*}} -> tensor<?x3xf32>
func.func @split_concat_slice(%x: tensor<?x8xf32>) -> tensor<?x?xf32> {
  %0:2 = pd.split %x {sections = array<i32: 2, -1>, axis = 1 : i32} : (tensor<?x8xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>)
  %1 = pd.concat [%0#1, %0#0] {axis = -1 : i32} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = pd.slice %1 {axes = array<i32: 1>, starts = array<i32: -4>, ends = array<i32: 7>} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}

// -----

// Tests that a declared type more static than the inferred one is kept.
// CHECK-LABEL: func.func @negative_keeps_declared_static
// CHECK: pd.range {{.*}} -> tensor<5xi64>
func.func @negative_keeps_declared_static(%s: tensor<1xi64>) -> tensor<5xi64> {
  %0 = pd.range %s, %s, %s : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<5xi64>
  return %0 : tensor<5xi64>
}

// -----

// Tests that index_select takes its dim from the Index, argsort keeps the
// shape with int64 indices, and the compare and bitwise ops broadcast.
// CHECK-LABEL: func.func @index_sort_compare
// CHECK: %[[S:.*]] = pd.index_select %arg0, %arg1 {dim = 1 : i32} : (tensor<4x10xf32>, tensor<3xi64>) -> tensor<4x3xf32>
// CHECK: %[[V:.*]], %[[I:.*]] = pd.argsort %[[S]] {axis = 0 : i32} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>)
// CHECK: pd.less_equal %[[V]], %arg2 : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xi1>
// CHECK: pd.bitwise_xor %[[I]], %arg3 : (tensor<4x3xi64>, tensor<4x1xi64>) -> tensor<4x3xi64>
func.func @index_sort_compare(%x: tensor<4x10xf32>, %i: tensor<3xi64>, %y: tensor<3xf32>, %z: tensor<4x1xi64>) -> (tensor<?x?xi1>, tensor<?x?xi64>) {
  %0 = pd.index_select %x, %i {dim = 1 : i32} : (tensor<4x10xf32>, tensor<3xi64>) -> tensor<?x?xf32>
  %1:2 = pd.argsort %0 {axis = 0 : i32} : (tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xi64>)
  %2 = pd.less_equal %1#0, %y : (tensor<?x?xf32>, tensor<3xf32>) -> tensor<?x?xi1>
  %3 = pd.bitwise_xor %1#1, %z : (tensor<?x?xi64>, tensor<4x1xi64>) -> tensor<?x?xi64>
  return %2, %3 : tensor<?x?xi1>, tensor<?x?xi64>
}

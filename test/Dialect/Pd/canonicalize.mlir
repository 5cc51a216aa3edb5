// RUN: paddle-opt %s -canonicalize -split-input-file | FileCheck %s

// Tests that inference identities fold away: assign, scale by 1 plus 0,
// cast to the same type, dropout in upscale_in_train mode.
// CHECK-LABEL: func.func @identities
// CHECK-NOT: pd.
// CHECK: return %arg0
func.func @identities(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = pd.assign %x : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %1 = pd.scale %0 {scale = 1.0 : f32, bias = 0.0 : f32} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %2 = pd.cast %1 {in_dtype = 5 : i32, out_dtype = 5 : i32} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %3 = pd.dropout %2 {is_test = true, dropout_implementation = "upscale_in_train"} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %4 = pd.transpose2 %3 {axis = array<i32: 0, 1>} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %4 : tensor<?x8xf32>
}

// -----

// Tests that ops that change values are not folded: a real scale, dropout
// in downgrade_in_infer mode, and a non-trivial transpose.
// CHECK-LABEL: func.func @negative_not_identities
// CHECK: pd.scale
// CHECK: pd.dropout
// CHECK: pd.transpose2
func.func @negative_not_identities(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = pd.scale %x {scale = 2.0 : f32} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = pd.dropout %0 {is_test = true, dropout_prob = 0.5 : f32} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = pd.transpose2 %1 {axis = array<i32: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

// Tests that two transposes compose into one, and cancel when inverse.
// CHECK-LABEL: func.func @transpose_chains
// CHECK: %[[T:.*]] = pd.transpose2 %arg0 {axis = array<i32: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NOT: pd.transpose2
// CHECK: return %[[T]], %arg0
func.func @transpose_chains(%x: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  %0 = pd.transpose2 %x {axis = array<i32: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = pd.transpose2 %0 {axis = array<i32: 2, 1, 0>} : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  %2 = pd.transpose2 %x {axis = array<i32: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %3 = pd.transpose2 %2 {axis = array<i32: 0, 2, 1>} : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
  return %1, %3 : tensor<4x2x3xf32>, tensor<2x3x4xf32>
}

// -----

// Tests that reshape chains merge, and that a reshape back to the input
// shape disappears.
// CHECK-LABEL: func.func @reshape_chains
// CHECK: %[[R:.*]] = pd.reshape2 %arg0 {shape = array<i32: 4, 6>} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
// CHECK-NOT: pd.reshape2
// CHECK: return %[[R]], %arg0
func.func @reshape_chains(%x: tensor<2x3x4xf32>) -> (tensor<4x6xf32>, tensor<2x3x4xf32>) {
  %0 = pd.reshape2 %x {shape = array<i32: 24>} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %1 = pd.reshape2 %0 {shape = array<i32: 4, 6>} : (tensor<24xf32>) -> tensor<4x6xf32>
  %2 = pd.reshape2 %1 {shape = array<i32: 2, 3, 4>} : (tensor<4x6xf32>) -> tensor<2x3x4xf32>
  return %1, %2 : tensor<4x6xf32>, tensor<2x3x4xf32>
}

// -----

// Tests that a reshape with a dynamic result is not merged.
// CHECK-LABEL: func.func @negative_dynamic_reshape
// CHECK-COUNT-2: pd.reshape2
func.func @negative_dynamic_reshape(%x: tensor<?x3x4xf32>) -> tensor<?x4xf32> {
  %0 = pd.reshape2 %x {shape = array<i32: -1>} : (tensor<?x3x4xf32>) -> tensor<?xf32>
  %1 = pd.reshape2 %0 {shape = array<i32: -1, 4>} : (tensor<?xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// Tests that shape ops of static tensors and filled constants become constants.
// CHECK-LABEL: func.func @constant_shapes
// CHECK-DAG: %[[S:.*]] = arith.constant dense<[1, 3, 224, 224]> : tensor<4xi32>
// CHECK-DAG: %[[F:.*]] = arith.constant dense<2.500000e+00> : tensor<2x3xf32>
// CHECK-DAG: %[[I:.*]] = arith.constant dense<7> : tensor<2xi64>
// CHECK: return %[[S]], %[[F]], %[[I]]
func.func @constant_shapes(%x: tensor<1x3x224x224xf32>) -> (tensor<4xi32>, tensor<2x3xf32>, tensor<2xi64>) {
  %0 = pd.shape %x : (tensor<1x3x224x224xf32>) -> tensor<4xi32>
  %1 = pd.fill_constant {shape = array<i64: 2, 3>, value = 2.5 : f32} : () -> tensor<2x3xf32>
  %2 = pd.fill_constant {shape = array<i64: 2>, value = 7.0 : f32, dtype = 3 : i32} : () -> tensor<2xi64>
  return %0, %1, %2 : tensor<4xi32>, tensor<2x3xf32>, tensor<2xi64>
}

// -----

// Tests that the shape of a dynamic tensor is left to run time.
// CHECK-LABEL: func.func @negative_dynamic_shape
// CHECK: pd.shape
func.func @negative_dynamic_shape(%x: tensor<?x3xf32>) -> tensor<2xi32> {
  %0 = pd.shape %x : (tensor<?x3xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// Tests that tile by ones, expand to the same shape and no-op squeezes fold.
// CHECK-LABEL: func.func @shape_noops
// CHECK-NOT: pd.
// CHECK: return %arg0
func.func @shape_noops(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = pd.tile %x {repeat_times = array<i32: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = pd.expand_v2 %0 {shape = array<i32: 2, 3>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = pd.squeeze2 %1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = pd.flatten_contiguous_range %2 {start_axis = 1 : i32, stop_axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %3 : tensor<2x3xf32>
}

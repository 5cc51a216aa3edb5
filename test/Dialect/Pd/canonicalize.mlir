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

// -----

// Tests that small integer constants fold through slice, elementwise
// add/sub/mul, concat, cast and a fill_constant given as text, and that a
// reshape2 with constant ShapeTensor operands takes them as its attribute
// (the shape -> slice -> multiply -> reshape2 chain of 2.x attention blocks).
// CHECK-LABEL: func.func @shape_arithmetic
// CHECK-DAG: %[[L:.*]] = arith.constant dense<[2, 96, 1]> : tensor<3xi64>
// CHECK-DAG: %[[D:.*]] = arith.constant dense<[10, 13]> : tensor<2xi32>
// CHECK: %[[R:.*]] = pd.reshape2 %arg0 {shape = array<i32: 2, 1024, 12>} : (tensor<2x1024x3x4xf32>) -> tensor<?x1024x?xf32>
// CHECK-NOT: pd.slice
// CHECK: return %[[R]], %[[L]], %[[D]]
func.func @shape_arithmetic(%x: tensor<2x1024x3x4xf32>) -> (tensor<?x1024x?xf32>, tensor<3xi64>, tensor<2xi32>) {
  %s = pd.shape %x : (tensor<2x1024x3x4xf32>) -> tensor<4xi32>
  %n = pd.slice %s {axes = array<i32: 0>, starts = array<i32: 0>, ends = array<i32: 1>, decrease_axis = array<i32: 0>} : (tensor<4xi32>) -> tensor<i32>
  %h = pd.slice %s {axes = array<i32: 0>, starts = array<i32: -2>, ends = array<i32: -1>, decrease_axis = array<i32: 0>} : (tensor<4xi32>) -> tensor<i32>
  %w = pd.slice %s {axes = array<i32: 0>, starts = array<i32: 3>, ends = array<i32: 100>, decrease_axis = array<i32: 0>} : (tensor<4xi32>) -> tensor<i32>
  %hw = pd.elementwise_mul %h, %w : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %c = pd.fill_constant {dtype = 2 : i32, shape = array<i64: 1>, str_value = "1024", value = 1.0 : f32} : () -> tensor<1xi32>
  %r = pd.reshape2 %x ShapeTensor[%n, %c, %hw] {shape = array<i32: -1, 1024, -1>} : (tensor<2x1024x3x4xf32>, tensor<i32>, tensor<1xi32>, tensor<i32>) -> tensor<?x1024x?xf32>
  // [n, 8 * hw, hw - 11] as int64 through a concat and a cast.
  %n1 = pd.reshape2 %n {shape = array<i32: 1>} : (tensor<i32>) -> tensor<1xi32>
  %hw1 = pd.reshape2 %hw {shape = array<i32: 1>} : (tensor<i32>) -> tensor<1xi32>
  %eight = pd.fill_constant {dtype = 2 : i32, shape = array<i64: 1>, str_value = "8", value = 0.0 : f32} : () -> tensor<1xi32>
  %p = pd.elementwise_mul %hw1, %eight : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %eleven = pd.fill_constant {dtype = 2 : i32, shape = array<i64: 1>, value = 11.0 : f32} : () -> tensor<1xi32>
  %q = pd.elementwise_sub %hw1, %eleven : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %l = pd.concat [%n1, %p, %q] : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %l64 = pd.cast %l {in_dtype = 2 : i32, out_dtype = 3 : i32} : (tensor<3xi32>) -> tensor<3xi64>
  // A 2-D slice of a constant, then a broadcast add of one element.
  %m = arith.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>
  %col = pd.slice %m {axes = array<i32: 0, 1>, starts = array<i32: 1, 0>, ends = array<i32: 3, 1>} : (tensor<3x3xi32>) -> tensor<2x1xi32>
  %flat = pd.reshape2 %col {shape = array<i32: 2>} : (tensor<2x1xi32>) -> tensor<2xi32>
  %six = pd.fill_constant {dtype = 2 : i32, shape = array<i64: 1>, value = 6.0 : f32} : () -> tensor<1xi32>
  %six2 = pd.elementwise_add %flat, %six : (tensor<2xi32>, tensor<1xi32>) -> tensor<2xi32>
  %d = pd.elementwise_sub %six2, %flat : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %e = pd.elementwise_add %d, %flat : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %r, %l64, %e : tensor<?x1024x?xf32>, tensor<3xi64>, tensor<2xi32>
}

// -----

// Tests that float elementwise ops, slices of run-time values and a
// reshape2 whose ShapeTensor is computed at run time are left alone.
// CHECK-LABEL: func.func @negative_shape_arithmetic
// CHECK: pd.slice
// CHECK: pd.reshape2 %arg0 ShapeTensor
// CHECK: pd.elementwise_mul
func.func @negative_shape_arithmetic(%x: tensor<?x4xf32>) -> (tensor<?x?xf32>, tensor<2xf32>) {
  %s = pd.shape %x : (tensor<?x4xf32>) -> tensor<2xi32>
  %n = pd.slice %s {axes = array<i32: 0>, starts = array<i32: 0>, ends = array<i32: 1>, decrease_axis = array<i32: 0>} : (tensor<2xi32>) -> tensor<i32>
  %c = pd.fill_constant {dtype = 2 : i32, shape = array<i64: 1>, value = 4.0 : f32} : () -> tensor<1xi32>
  %r = pd.reshape2 %x ShapeTensor[%c, %n] {shape = array<i32: 4, -1>} : (tensor<?x4xf32>, tensor<1xi32>, tensor<i32>) -> tensor<?x?xf32>
  %a = arith.constant dense<[1.5, 2.0]> : tensor<2xf32>
  %f = pd.elementwise_mul %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %r, %f : tensor<?x?xf32>, tensor<2xf32>
}

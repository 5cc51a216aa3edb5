// RUN: paddle-opt %s --split-input-file --convert-pd-to-linalg | FileCheck %s

// Tests quantize_linear along quant_axis 1: the scales are read along dim 1
// of the iteration space; round_type 0 is bin * inv(s) * x rounded half to
// even, then clamped to [-128, 127].
// CHECK: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #[[AX:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @quantize_axis
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[AX]], #[[ID]]]
// CHECK: ^bb0(%[[X:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32)
// CHECK: %[[BIN:.*]] = arith.constant 1.270000e+02 : f32
// CHECK: %[[INV:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: %[[K:.*]] = arith.mulf %[[BIN]], %[[INV]]
// CHECK: %[[V:.*]] = arith.mulf %[[K]], %[[X]]
// CHECK: %[[R:.*]] = math.roundeven %[[V]]
// CHECK: %[[HI:.*]] = arith.minimumf %[[R]], %[[BIN]]
// CHECK: %[[LO:.*]] = arith.constant -1.280000e+02
// CHECK: arith.maximumf %[[HI]], %[[LO]]
func.func @quantize_axis(%x: tensor<4x3xf32>, %s: tensor<3xf32>, %zp: tensor<3xi32>) -> tensor<4x3xf32> {
  %q = pd.quantize_linear %x, %s, %zp {quant_axis = 1 : i32} : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xi32>) -> tensor<4x3xf32>
  return %q : tensor<4x3xf32>
}

// -----

// Tests dequantize_linear of int8 values with one scale: converted to f32,
// times the scale, over 127.
// CHECK-LABEL: func.func @dequantize_tensor
// CHECK: %[[S:.*]] = tensor.extract %arg1
// CHECK: linalg.generic
// CHECK: ^bb0(%[[IN:.*]]: i8, %{{.*}}: f32)
// CHECK: %[[F:.*]] = arith.sitofp %[[IN]] : i8 to f32
// CHECK: %[[BIN:.*]] = arith.constant 1.270000e+02
// CHECK: %[[M:.*]] = arith.mulf %[[F]], %[[S]]
// CHECK: arith.divf %[[M]], %[[BIN]]
func.func @dequantize_tensor(%x: tensor<?x8xi8>, %s: tensor<1xf32>, %zp: tensor<1xi32>) -> tensor<?x8xf32> {
  %y = pd.dequantize_linear %x, %s, %zp : (tensor<?x8xi8>, tensor<1xf32>, tensor<1xi32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

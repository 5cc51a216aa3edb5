// RUN: paddle-opt %s --split-input-file --convert-pd-to-linalg --verify-diagnostics | FileCheck %s

// Tests layer_norm over several trailing dims: X [?, 3, 4] with
// begin_norm_axis 1 is normalized as [?, 12] (Scale and Bias hold 12
// values) and expanded back; with begin_norm_axis 0 the whole [2, 3] is one
// row [1, 6].
// CHECK-LABEL: func.func @several_dims
// CHECK: %[[R:.*]] = tensor.collapse_shape %arg0 {{\[}}[0], [1, 2]] : tensor<?x3x4xf32> into tensor<?x12xf32>
// CHECK: linalg.generic
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [%{{.*}}, 3, 4] : tensor<?x12xf32> into tensor<?x3x4xf32>
func.func @several_dims(%x: tensor<?x3x4xf32>, %s: tensor<12xf32>, %b: tensor<12xf32>) -> tensor<?x3x4xf32> {
  %y = pd.layer_norm %x Scale(%s) Bias(%b) {begin_norm_axis = 1 : i32, epsilon = 1.0e-05 : f32} : (tensor<?x3x4xf32>, tensor<12xf32>, tensor<12xf32>) -> tensor<?x3x4xf32>
  return %y : tensor<?x3x4xf32>
}
// CHECK-LABEL: func.func @all_dims
// CHECK: %[[F:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: tensor.expand_shape %[[F]] {{\[}}[0, 1]] output_shape [1, 6] : tensor<6xf32> into tensor<1x6xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<1x6xf32> into tensor<6xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
func.func @all_dims(%x: tensor<2x3xf32>, %s: tensor<6xf32>, %b: tensor<6xf32>) -> tensor<2x3xf32> {
  %y = pd.layer_norm %x Scale(%s) Bias(%b) {begin_norm_axis = 0 : i32} : (tensor<2x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// Tests that a dynamic normalized dim is refused (the sums divide by its
// static size).
func.func @dynamic_normalized_dim(%x: tensor<2x?x4xf32>, %s: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<2x?x4xf32> {
  // expected-error @+1 {{code generation cannot compile 'pd.layer_norm'}}
  %y = pd.layer_norm %x Scale(%s) Bias(%b) {begin_norm_axis = 1 : i32} : (tensor<2x?x4xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<2x?x4xf32>
  return %y : tensor<2x?x4xf32>
}

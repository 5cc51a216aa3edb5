// RUN: paddle-opt %s -convert-pd-to-linalg -canonicalize -split-input-file | FileCheck %s

// Tests that stack casts each input to the joined shape and gives it the
// unit axis by expand_shape before inserting it whole. DETR stacks a
// tile of a data-sized range ([?, 300]) with top_k indices ([1, 300]); a
// rank-reducing insert_slice of [?, 300] with sizes [?, 300, 1] let
// canonicalization take dim 0, not the stacked axis, as the dropped unit
// dim (tensor.cast to 300x1: "cast incompatible").
// CHECK-LABEL: func.func @stack_joined
// CHECK: %[[C:.*]] = tensor.cast %arg0 : tensor<?x300xi64> to tensor<1x300xi64>
// CHECK: %[[A:.*]] = tensor.expand_shape %[[C]] {{\[\[}}0], [1, 2]] output_shape [1, 300, 1] : tensor<1x300xi64> into tensor<1x300x1xi64>
// CHECK: %[[B:.*]] = tensor.expand_shape %arg1 {{\[\[}}0], [1, 2]] output_shape [1, 300, 1]
// CHECK: %[[S:.*]] = tensor.insert_slice %[[A]] into %{{.*}}[0, 0, 0] [1, 300, 1] [1, 1, 1] : tensor<1x300x1xi64> into tensor<1x300x2xi64>
// CHECK: tensor.insert_slice %[[B]] into %[[S]][0, 0, 1] [1, 300, 1] [1, 1, 1] : tensor<1x300x1xi64> into tensor<1x300x2xi64>
func.func @stack_joined(%a: tensor<?x300xi64>, %b: tensor<1x300xi64>) -> tensor<1x300x2xi64> {
  %0 = pd.stack [%a, %b] {axis = -1 : i32} : (tensor<?x300xi64>, tensor<1x300xi64>) -> tensor<1x300x2xi64>
  return %0 : tensor<1x300x2xi64>
}

// -----

// Tests stacking on axis 0 with a dynamic dim left dynamic.
// CHECK-LABEL: func.func @stack_front
// CHECK: %[[A:.*]] = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [1, %{{.*}}, 4] : tensor<?x4xf32> into tensor<1x?x4xf32>
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<2x?x4xf32>
// CHECK: tensor.insert_slice %[[A]] into %[[E]][0, 0, 0] [1, %{{.*}}, 4] [1, 1, 1] : tensor<1x?x4xf32> into tensor<2x?x4xf32>
func.func @stack_front(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<2x?x4xf32> {
  %0 = pd.stack [%a, %b] : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<2x?x4xf32>
  return %0 : tensor<2x?x4xf32>
}

// -----

// Tests stacking scalars into a vector.
// CHECK-LABEL: func.func @stack_scalars
// CHECK: tensor.expand_shape %arg0 [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[1] [1] [1] : tensor<1xf32> into tensor<2xf32>
func.func @stack_scalars(%a: tensor<f32>, %b: tensor<f32>) -> tensor<2xf32> {
  %0 = pd.stack [%a, %b] : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// RUN: paddle-opt %s --pd-optimize | FileCheck %s

// Tests that the graph pipeline refines shapes, drops inference identities
// and folds the shape computation of a static input.
// CHECK-LABEL: func.func @pipeline
// CHECK-SAME: -> (tensor<1x8x6x6xf32>, tensor<4xi32>)
// CHECK-DAG: %[[S:.*]] = arith.constant dense<[1, 8, 6, 6]> : tensor<4xi32>
// CHECK: %[[C:.*]] = pd.conv2d %arg0, %arg1 : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
// CHECK-NEXT: %[[R:.*]] = pd.relu %[[C]]
// CHECK-NEXT: return %[[R]], %[[S]]
func.func @pipeline(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> (tensor<?x?x?x?xf32>, tensor<?xi32>) {
  %0 = pd.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<?x?x?x?xf32>
  %1 = pd.dropout %0 {is_test = true, dropout_implementation = "upscale_in_train"} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %2 = pd.relu %1 : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %3 = pd.shape %2 : (tensor<?x?x?x?xf32>) -> tensor<?xi32>
  return %2, %3 : tensor<?x?x?x?xf32>, tensor<?xi32>
}

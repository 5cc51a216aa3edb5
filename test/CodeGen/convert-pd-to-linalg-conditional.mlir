// RUN: paddle-opt %s -convert-pd-to-linalg -split-input-file | FileCheck %s

// Tests that a scalar conditional_block becomes scf.if on its one element:
// the then branch is the body, the else branch yields the default (cast
// to the result type).
// CHECK-LABEL: func.func @scalar
// CHECK-SAME: (%[[C:.*]]: tensor<1xi1>, %[[D:.*]]: tensor<0x3xf32>, %[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[FLAG:.*]] = tensor.extract %[[C]][%{{.*}}] : tensor<1xi1>
// CHECK: %[[R:.*]] = scf.if %[[FLAG]] -> (tensor<?x3xf32>) {
// CHECK: %[[T:.*]] = linalg.generic
// CHECK: %[[TC:.*]] = tensor.cast %[[T]] : tensor<2x3xf32> to tensor<?x3xf32>
// CHECK: scf.yield %[[TC]]
// CHECK: } else {
// CHECK: %[[DC:.*]] = tensor.cast %[[D]] : tensor<0x3xf32> to tensor<?x3xf32>
// CHECK: scf.yield %[[DC]]
// CHECK: return %[[R]]
func.func @scalar(%c: tensor<1xi1>, %d: tensor<0x3xf32>, %x: tensor<2x3xf32>) -> tensor<?x3xf32> {
  %r = pd.conditional_block [%c] (%d) : (tensor<1xi1>, tensor<0x3xf32>) -> tensor<?x3xf32> {
    %t = pd.scale %x {scale = 2.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    pd.yield %t : tensor<2x3xf32>
  }
  return %r : tensor<?x3xf32>
}

// -----

// Tests that without is_scalar_condition the block runs when every
// condition tensor has an element (the product of its dims is not zero).
// CHECK-LABEL: func.func @non_scalar
// CHECK: %[[D0:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x2xf32>
// CHECK: %[[N:.*]] = arith.muli
// CHECK: %[[SOME:.*]] = arith.cmpi ne
// CHECK: %[[FLAG:.*]] = arith.andi
// CHECK: scf.if %[[FLAG]] -> (tensor<1xf32>)
func.func @non_scalar(%v: tensor<?x2xf32>, %d: tensor<1xf32>) -> tensor<1xf32> {
  %r = pd.conditional_block [%v] (%d) {is_scalar_condition = false} : (tensor<?x2xf32>, tensor<1xf32>) -> tensor<1xf32> {
    %t = pd.scale %d {scale = 2.0 : f32} : (tensor<1xf32>) -> tensor<1xf32>
    pd.yield %t : tensor<1xf32>
  }
  return %r : tensor<1xf32>
}

// -----

// Tests that select_input picks X[mask] through selects, the last input
// where the mask names no earlier one.
// CHECK-LABEL: func.func @select_input
// CHECK: %[[M:.*]] = tensor.extract %arg2
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[M]], %c0_i32
// CHECK: %[[S:.*]] = arith.select %[[IS0]], %arg0, %arg1 : tensor<2x3xf32>
// CHECK: return %[[S]]
func.func @select_input(%f: tensor<2x3xf32>, %t: tensor<2x3xf32>, %m: tensor<1xi32>) -> tensor<2x3xf32> {
  %y = pd.select_input [%f, %t], %m : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// Tests that is_empty compares the product of X's dims with zero.
// CHECK-LABEL: func.func @is_empty
// CHECK: %[[D:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x1xi64>
// CHECK: %[[N:.*]] = arith.muli %{{.*}}, %[[D]] : index
// CHECK: %[[Z:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK: tensor.from_elements %[[Z]] : tensor<1xi1>
func.func @is_empty(%x: tensor<?x1xi64>) -> tensor<1xi1> {
  %e = pd.is_empty %x : (tensor<?x1xi64>) -> tensor<1xi1>
  return %e : tensor<1xi1>
}

// RUN: paddle-opt %s -convert-pd-to-linalg | FileCheck %s

// Tests that a tensor array is one tensor stacking its elements: a write
// allocates max(N, I + 1) rows with the element dims from the array and
// calls pdk_array_write (which checks the index and X's dims), a read calls
// pdk_array_read, the length is dim 0, and tensor_array_to_tensor moves the
// array dim next to the axis and merges it there when concatenating; its
// OutIndex holds each element's size along the axis.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<1xi64>, %[[A:.*]]: tensor<?x2x3xf32>)
// CHECK: %[[IDX:.*]] = tensor.extract %[[I]]
// CHECK: %[[II:.*]] = arith.index_cast %[[IDX]] : i64 to index
// CHECK: %[[NEED:.*]] = arith.addi %[[II]], %{{.*}} : index
// CHECK: %[[ATLEAST:.*]] = arith.maxsi %[[NEED]], %{{.*}} : index
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %{{.*}}
// CHECK: %[[ROWS:.*]] = arith.maxsi %[[ATLEAST]], %[[N]]
// CHECK: %[[E:.*]] = tensor.empty(%[[ROWS]]) : tensor<?x2x3xf32>
// CHECK: %[[W:.*]] = pd.kernel_call "pdk_array_write"(%[[X]], %[[I]], %[[A]]) init(%[[E]])
// CHECK-SAME: ints = array<i64: 4, 0, 1>
// CHECK: pd.kernel_call "pdk_array_read"(%[[W]], %[[I]])
// CHECK-SAME: ints = array<i64: 4, 0>
// CHECK: %[[LEN:.*]] = tensor.dim %[[W]], %{{.*}}
// CHECK: arith.index_cast %[[LEN]] : index to i64
// CHECK: tensor.from_elements
// CHECK: linalg.transpose ins(%[[W]] : tensor<?x2x3xf32>) outs(%{{.*}} : tensor<2x?x3xf32>) permutation = [1, 0, 2]
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : tensor<2x?x3xf32> into tensor<2x?xf32>
// CHECK: %[[SIZE:.*]] = tensor.dim %[[W]], %c2
// CHECK: %[[S32:.*]] = arith.index_cast %[[SIZE]] : index to i32
// CHECK: linalg.fill ins(%[[S32]] : i32)
func.func @main(%x: tensor<2x3xf32>, %i: tensor<1xi64>, %a: tensor<?x2x3xf32>) -> (tensor<2x3xf32>, tensor<1xi64>, tensor<2x?xf32>, tensor<?xi32>) {
  %b = pd.write_to_array %x, %i Array(%a) : (tensor<2x3xf32>, tensor<1xi64>, tensor<?x2x3xf32>) -> tensor<?x2x3xf32>
  %e = pd.read_from_array %b, %i : (tensor<?x2x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
  %n = pd.lod_array_length %b : (tensor<?x2x3xf32>) -> tensor<1xi64>
  %t, %idx = pd.tensor_array_to_tensor %b {axis = 1 : i32} : (tensor<?x2x3xf32>) -> (tensor<2x?xf32>, tensor<?xi32>)
  return %e, %n, %t, %idx : tensor<2x3xf32>, tensor<1xi64>, tensor<2x?xf32>, tensor<?xi32>
}

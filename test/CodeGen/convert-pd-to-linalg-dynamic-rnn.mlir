// RUN: paddle-opt %s -convert-pd-to-linalg | FileCheck %s

// Tests that Fluid's DynamicRNN ops become kernel calls: the rank table
// from the lengths ([N, 2], N their count), max_sequence_len as
// pdk_rank_table_info of kind 0, the array over time steps sized by that
// longest length (kind 0) with the table's N rows, the LoD batch put back
// sized by the total length (kind 1) with its lengths in batch order
// (kind 2), and shrink / reorder into tensors of X's shape. ints: element
// bytes (and for shrink whether I is int32).
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<?x3xf32>, %[[L:.*]]: tensor<?xi64>, %[[M:.*]]: tensor<?x4xf32>, %[[I:.*]]: tensor<1xi32>)
// CHECK: %[[N:.*]] = tensor.dim %[[L]], %c0
// CHECK: %[[TE:.*]] = tensor.empty(%[[N]]) : tensor<?x2xi64>
// CHECK: %[[T:.*]] = pd.kernel_call "pdk_lod_rank_table"(%[[L]]) init(%[[TE]])
// CHECK: pd.kernel_call "pdk_rank_table_info"(%[[T]])
// CHECK-SAME: ints = array<i64: 0>, pd.from = "max_sequence_len"
// CHECK-SAME: -> tensor<1xi64>
// CHECK: %[[MAXT:.*]] = pd.kernel_call "pdk_rank_table_info"(%[[T]])
// CHECK-SAME: ints = array<i64: 0>
// CHECK: %[[MAX:.*]] = tensor.extract %[[MAXT]]
// CHECK: %[[STEPS:.*]] = arith.index_cast %[[MAX]] : i64 to index
// CHECK: %[[TN:.*]] = tensor.dim %[[T]], %{{.*}}
// CHECK: %[[AE:.*]] = tensor.empty(%[[STEPS]], %[[TN]]) : tensor<?x?x3xf32>
// CHECK: %[[A:.*]] = pd.kernel_call "pdk_lod_to_array"(%[[X]], %[[T]]) init(%[[AE]]
// CHECK-SAME: ints = array<i64: 4>
// CHECK: %[[TOTT:.*]] = pd.kernel_call "pdk_rank_table_info"(%[[T]])
// CHECK-SAME: ints = array<i64: 1>
// CHECK: %[[TOT:.*]] = tensor.extract %[[TOTT]]
// CHECK: %[[ROWS:.*]] = arith.index_cast %[[TOT]] : i64 to index
// CHECK: %[[OE:.*]] = tensor.empty(%[[ROWS]]) : tensor<?x3xf32>
// CHECK: pd.kernel_call "pdk_array_to_lod"(%[[A]], %[[T]]) init(%[[OE]]
// CHECK: pd.kernel_call "pdk_rank_table_info"(%[[T]])
// CHECK-SAME: ints = array<i64: 2>
// CHECK-SAME: -> tensor<?xi64>
// CHECK: %[[R:.*]] = pd.kernel_call "pdk_reorder_by_rank"(%[[M]], %[[T]])
// CHECK-SAME: ints = array<i64: 4>
// CHECK: linalg.fill ins(%{{.*}} : i64)
// CHECK: pd.kernel_call "pdk_shrink_memory"(%[[R]], %[[I]], %[[T]])
// CHECK-SAME: ints = array<i64: 4, 1, 0>
// CHECK-SAME: slots = array<i64: 0, 1, 2, -1>
// A LoD batch's sequences: reordered whole, their lengths as rows (8
// bytes); shrunk by sequences (HasLengths).
// CHECK: %[[XR:.*]] = pd.kernel_call "pdk_reorder_sequences"(%[[X]], %[[T]], %[[L]])
// CHECK-SAME: ints = array<i64: 4>
// CHECK: %[[XL:.*]] = pd.kernel_call "pdk_reorder_by_rank"(%[[L]], %[[T]])
// CHECK-SAME: ints = array<i64: 8>
// CHECK: pd.kernel_call "pdk_shrink_memory"(%[[XR]], %[[I]], %[[T]], %[[XL]])
// CHECK-SAME: ints = array<i64: 4, 1, 1>
// CHECK-SAME: slots = array<i64: 0, 1, 2, 3>
func.func @main(%x: tensor<?x3xf32>, %l: tensor<?xi64>, %m: tensor<?x4xf32>, %i: tensor<1xi32>) -> (tensor<1xi64>, tensor<?x3xf32>, tensor<?xi64>, tensor<?x4xf32>, tensor<?x3xf32>) {
  %t = pd.lod_rank_table %x Lengths(%l) : (tensor<?x3xf32>, tensor<?xi64>) -> tensor<?x2xi64>
  %n = pd.max_sequence_len %t : (tensor<?x2xi64>) -> tensor<1xi64>
  %a = pd.lod_tensor_to_array %x, %t : (tensor<?x3xf32>, tensor<?x2xi64>) -> tensor<?x?x3xf32>
  %y, %yl = pd.array_to_lod_tensor %a, %t : (tensor<?x?x3xf32>, tensor<?x2xi64>) -> (tensor<?x3xf32>, tensor<?xi64>)
  %r, %rl = pd.reorder_lod_tensor_by_rank %m, %t : (tensor<?x4xf32>, tensor<?x2xi64>) -> (tensor<?x4xf32>, tensor<?xi64>)
  %s = pd.shrink_rnn_memory %r, %i, %t : (tensor<?x4xf32>, tensor<1xi32>, tensor<?x2xi64>) -> tensor<?x4xf32>
  %xr, %xl = pd.reorder_lod_tensor_by_rank %x, %t Lengths(%l) : (tensor<?x3xf32>, tensor<?x2xi64>, tensor<?xi64>) -> (tensor<?x3xf32>, tensor<?xi64>)
  %xs = pd.shrink_rnn_memory %xr, %i, %t Lengths(%xl) : (tensor<?x3xf32>, tensor<1xi32>, tensor<?x2xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  return %n, %y, %yl, %s, %xs : tensor<1xi64>, tensor<?x3xf32>, tensor<?xi64>, tensor<?x4xf32>, tensor<?x3xf32>
}

// RUN: paddle-opt %s --canonicalize --cse | FileCheck %s

// Collectives talk to the other ranks: one whose result is unused stays,
// two equal ones stay two (every rank must issue both), and none moves
// past another.
// CHECK-LABEL: func.func @kept
// CHECK: pd.c_allreduce_sum %arg0
// CHECK: pd.c_allreduce_sum %arg0
// CHECK: pd.c_allreduce_sum %arg0
// CHECK: pd.send_v2 %arg0
// CHECK: pd.barrier %arg0
// CHECK: return
func.func @kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = pd.c_allreduce_sum %x : (tensor<4xf32>) -> tensor<4xf32>
  %b = pd.c_allreduce_sum %x : (tensor<4xf32>) -> tensor<4xf32>
  %c = pd.c_allreduce_sum %x : (tensor<4xf32>) -> tensor<4xf32>
  pd.send_v2 %x {peer = 1 : i32} : (tensor<4xf32>) -> ()
  %d = pd.barrier %x : (tensor<4xf32>) -> tensor<4xf32>
  %s = pd.elementwise_add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// An ordinary op with an unused result still goes.
// CHECK-LABEL: func.func @pure
// CHECK-NOT: pd.relu
func.func @pure(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = pd.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  return %x : tensor<4xf32>
}

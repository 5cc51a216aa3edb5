// RUN: paddle-opt %s --convert-pd-to-linalg | FileCheck %s

// Tests lstmp's kernel call (lodrnn:: in KernelABI.h): slots Input, H0, C0,
// Weight, Bias, Lengths, ProjWeight (C0 absent: -1); ints Mode Lstmp (2),
// Reverse, OriginMode, Peepholes, GateAct sigmoid (0), CellAct tanh (1),
// CandidateAct tanh (1), ProjAct identity (3); floats CellClip, ProjClip.
// The destination holds T*P projection values then T*D cell values.
// CHECK-LABEL: func.func @lstmp
// CHECK: %[[T:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[TP:.*]] = arith.muli %[[T]], %c3
// CHECK: %[[TD:.*]] = arith.muli %[[T]], %c4
// CHECK: %[[ALL:.*]] = arith.addi %[[TP]], %[[TD]]
// CHECK: %[[E:.*]] = tensor.empty(%[[ALL]]) : tensor<?xf32>
// CHECK: pd.kernel_call "pdk_lod_rnn"(%arg0, %arg5, %arg1, %arg3, %arg4, %arg2) init(%[[E]])
// CHECK-SAME: floats = array<f32: 5.000000e-01, 2.500000e-01>
// CHECK-SAME: ints = array<i64: 2, 1, 0, 1, 0, 1, 1, 3>
// CHECK-SAME: pd.from = "lstmp", slots = array<i64: 0, 1, -1, 2, 3, 4, 5>
func.func @lstmp(%x: tensor<?x16xf32>, %w: tensor<3x16xf32>, %pw: tensor<4x3xf32>, %b: tensor<1x28xf32>, %n: tensor<?xi64>, %h0: tensor<?x4xf32>) -> (tensor<?x3xf32>, tensor<?x4xf32>) {
  %0:2 = pd.lstmp %x, %w, %pw, %b H0(%h0) Lengths(%n) {is_reverse = true, cell_clip = 0.5 : f32, proj_activation = "identity", proj_clip = 0.25 : f32, resultSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (tensor<?x16xf32>, tensor<?x4xf32>, tensor<3x16xf32>, tensor<4x3xf32>, tensor<1x28xf32>, tensor<?xi64>) -> (tensor<?x3xf32>, tensor<?x4xf32>)
  return %0#0, %0#1 : tensor<?x3xf32>, tensor<?x4xf32>
}

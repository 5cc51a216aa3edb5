// RUN: paddle-opt %s --split-input-file --pd-partition-devices="mode=pipeline devices=2" --verify-diagnostics | FileCheck %s
// RUN: paddle-opt %s --split-input-file --pd-partition-devices="mode=pipeline devices=3 micro-batches=1" --verify-diagnostics 2>&1 | FileCheck %s --check-prefix=THREE

// Two stages of equal cost, two micro-batches (the default for a batch of
// 8 on 2 devices): stage 0 slices the batch, sends each part's relu to
// rank 1 as soon as it is done, and receives the joined output; stage 1
// receives each part, computes it and sends the concatenation to rank 0.
// Weights stay outside the stages. The record: `ops`, the program's ops in
// the stage; flops and bytes of every op it runs (slices, sends, receives
// and the concatenation too); the weights it reads.
// CHECK-LABEL: module attributes {pd.partition = {devices = 2 : i64, micro_batches = 2 : i64, mode = "pipeline", sends_bytes_per_run = 1024 : i64, stages = [{bytes = 6656 : i64, flops = 4224 : i64, ops = 2 : i64, sends_bytes = 512 : i64, stage = 0 : i64, weights = ["w1"]}, {bytes = 6144 : i64, flops = 4224 : i64, ops = 2 : i64, sends_bytes = 512 : i64, stage = 1 : i64, weights = ["w2"]}]}}
// CHECK: %[[W1:.*]] = ml_program.global_load_const @w1
// CHECK: %[[W2:.*]] = ml_program.global_load_const @w2
// CHECK: %[[Z:.*]] = pd.fill_constant {shape = array<i64: 8, 16>} : () -> tensor<8x16xf32>
// CHECK: %[[F0:.*]] = pd.is_stage {stage = 0 : i32, stages = 2 : i32} : () -> tensor<1xi1>
// CHECK: %[[OUT:.*]] = pd.conditional_block[%[[F0]]] (%[[Z]]) : (tensor<1xi1>, tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: %[[X0:.*]] = pd.slice %arg0 {axes = array<i32: 0>, ends = array<i32: 4>, starts = array<i32: 0>} : (tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[M0:.*]] = pd.matmul_v2 %[[X0]], %[[W1]] : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[R0:.*]] = pd.relu %[[M0]] : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: pd.send_v2 %[[R0]] {peer = 1 : i32} : (tensor<4x16xf32>) -> ()
// CHECK-NEXT: %[[X1:.*]] = pd.slice %arg0 {axes = array<i32: 0>, ends = array<i32: 8>, starts = array<i32: 4>}
// CHECK-NEXT: %[[M1:.*]] = pd.matmul_v2 %[[X1]], %[[W1]]
// CHECK-NEXT: %[[R1:.*]] = pd.relu %[[M1]]
// CHECK-NEXT: pd.send_v2 %[[R1]] {peer = 1 : i32} : (tensor<4x16xf32>) -> ()
// CHECK-NEXT: %[[Y:.*]] = pd.recv_v2 {out_shape = array<i32: 8, 16>, peer = 1 : i32} : () -> tensor<8x16xf32>
// CHECK-NEXT: pd.yield %[[Y]] : tensor<8x16xf32>
// CHECK: %[[F1:.*]] = pd.is_stage {stage = 1 : i32, stages = 2 : i32}
// CHECK: pd.conditional_block[%[[F1]]] () : (tensor<1xi1>) -> () {
// CHECK-NEXT: %[[A0:.*]] = pd.recv_v2 {out_shape = array<i32: 4, 16>} : () -> tensor<4x16xf32>
// CHECK-NEXT: %[[N0:.*]] = pd.matmul_v2 %[[A0]], %[[W2]]
// CHECK-NEXT: %[[S0:.*]] = pd.relu %[[N0]]
// CHECK-NEXT: %[[A1:.*]] = pd.recv_v2 {out_shape = array<i32: 4, 16>} : () -> tensor<4x16xf32>
// CHECK-NEXT: %[[N1:.*]] = pd.matmul_v2 %[[A1]], %[[W2]]
// CHECK-NEXT: %[[S1:.*]] = pd.relu %[[N1]]
// CHECK-NEXT: %[[J:.*]] = pd.concat [%[[S0]], %[[S1]]] : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: pd.send_v2 %[[J]] : (tensor<8x16xf32>) -> ()
// CHECK-NEXT: pd.yield
// CHECK: return %[[OUT]]
// In three stages: the first matmul, the relu, the rest (the cheapest
// largest stage).
// THREE-LABEL: module attributes {pd.partition = {devices = 3 : i64, micro_batches = 1 : i64, mode = "pipeline", sends_bytes_per_run = 1536 : i64, stages = [{{.*}}ops = 1 : i64, sends_bytes = 512 : i64, stage = 0 : i64, weights = ["w1"]}, {{.*}}ops = 1 : i64, sends_bytes = 512 : i64, stage = 1 : i64, weights = []}, {{.*}}ops = 2 : i64, sends_bytes = 512 : i64, stage = 2 : i64, weights = ["w2"]}]}}
module {
  ml_program.global private @w1(dense<1.0> : tensor<16x16xf32>) : tensor<16x16xf32>
  ml_program.global private @w2(dense<2.0> : tensor<16x16xf32>) : tensor<16x16xf32>
  func.func @main(%x: tensor<8x16xf32> {pd.name = "x"}) -> (tensor<8x16xf32> {pd.name = "y"}) {
    %w1 = ml_program.global_load_const @w1 : tensor<16x16xf32>
    %w2 = ml_program.global_load_const @w2 : tensor<16x16xf32>
    %m1 = pd.matmul_v2 %x, %w1 : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %r1 = pd.relu %m1 : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %m2 = pd.matmul_v2 %r1, %w2 : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %r2 = pd.relu %m2 : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %r2 : tensor<8x16xf32>
  }
}

// -----

// Three stages, one micro-batch: %a, read by the last stage, is forwarded
// by stage 1; the output %b goes from stage 1 to rank 0, the output %d from
// stage 2. Rank 0 receives them in output order.
// THREE-LABEL: module attributes {pd.partition = {devices = 3 : i64, micro_batches = 1 : i64
// THREE-NOT: error
// THREE: %[[F0:.*]] = pd.is_stage {stage = 0 : i32, stages = 3 : i32}
// THREE: %[[OUT:.*]]:2 = pd.conditional_block[%[[F0]]]
// THREE-NEXT: %[[A:.*]] = pd.matmul_v2 %arg0
// THREE-NEXT: pd.send_v2 %[[A]] {peer = 1 : i32}
// THREE-NEXT: %[[D:.*]] = pd.recv_v2 {out_shape = array<i32: 4, 16>, peer = 2 : i32}
// THREE-NEXT: %[[B:.*]] = pd.recv_v2 {out_shape = array<i32: 4, 16>, peer = 1 : i32}
// THREE-NEXT: pd.yield %[[D]], %[[B]]
// THREE: pd.is_stage {stage = 1 : i32, stages = 3 : i32}
// THREE: pd.conditional_block
// THREE-NEXT: %[[A1:.*]] = pd.recv_v2 {out_shape = array<i32: 4, 16>} : () -> tensor<4x16xf32>
// THREE-NEXT: %[[B1:.*]] = pd.matmul_v2 %[[A1]]
// THREE-NEXT: pd.send_v2 %[[A1]] {peer = 2 : i32}
// THREE-NEXT: pd.send_v2 %[[B1]] {peer = 2 : i32}
// THREE-NEXT: pd.send_v2 %[[B1]] : (tensor<4x16xf32>) -> ()
// THREE-NEXT: pd.yield
// THREE: pd.is_stage {stage = 2 : i32, stages = 3 : i32}
// THREE: pd.conditional_block
// THREE-NEXT: %[[A2:.*]] = pd.recv_v2 {out_shape = array<i32: 4, 16>, peer = 1 : i32}
// THREE-NEXT: %[[B2:.*]] = pd.recv_v2 {out_shape = array<i32: 4, 16>, peer = 1 : i32}
// THREE-NEXT: %[[C2:.*]] = pd.matmul_v2 %[[B2]]
// THREE-NEXT: %[[D2:.*]] = pd.elementwise_add %[[C2]], %[[A2]]
// THREE-NEXT: pd.send_v2 %[[D2]] : (tensor<4x16xf32>) -> ()
// THREE: return %[[OUT]]#0, %[[OUT]]#1
module {
  ml_program.global private @w(dense<1.0> : tensor<16x16xf32>) : tensor<16x16xf32>
  func.func @main(%x: tensor<4x16xf32> {pd.name = "x"}) -> (tensor<4x16xf32> {pd.name = "y"}, tensor<4x16xf32> {pd.name = "h"}) {
    %w = ml_program.global_load_const @w : tensor<16x16xf32>
    %a = pd.matmul_v2 %x, %w : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %b = pd.matmul_v2 %a, %w : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %c = pd.matmul_v2 %b, %w : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %d = pd.elementwise_add %c, %a : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    return %d, %b : tensor<4x16xf32>, tensor<4x16xf32>
  }
}

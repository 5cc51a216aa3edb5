// RUN: paddle-opt %s -pd-partition-devices="mode=pipeline devices=2 micro-batches=2 train-phase=forward" | FileCheck %s --check-prefix=FWD
// RUN: paddle-opt %s -pd-partition-devices="mode=pipeline devices=2 micro-batches=2 train-phase=forward" -pd-append-backward -pd-partition-devices="mode=pipeline devices=2 train-phase=micro" | FileCheck %s --check-prefix=MICRO
// RUN: paddle-opt %s -pd-partition-devices="mode=pipeline devices=2 micro-batches=2 train-phase=forward" -pd-append-backward -pd-partition-devices="mode=pipeline devices=2 train-phase=micro" -pd-append-optimizer="lr=0.5" -pd-partition-devices="mode=pipeline devices=2 train-phase=stages" | FileCheck %s
// RUN: not paddle-opt %s -pd-partition-devices="mode=pipeline devices=2 train-phase=stages" 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not paddle-opt %s -pd-partition-devices="mode=data devices=2 train-phase=forward" 2>&1 | FileCheck %s --check-prefix=MODE

// The forward phase cuts the program into two stages (the first matmul;
// the rest) and sizes it for one micro-batch of 2 rows.
// FWD: module attributes {pd.pipeline_train = {batch = 4 : i64, micro_batches = 2 : i64}}
// FWD: func.func @main(%arg0: tensor<2x3xf32>
// FWD: pd.matmul_v2 %arg0, %w1 {pd.stage = 0 : i64} : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
// FWD-NEXT: pd.relu %{{.*}} {pd.stage = 1 : i64}
// FWD-NEXT: pd.matmul_v2 %{{.*}}, %w2 {pd.stage = 1 : i64}
// FWD-NEXT: pd.mean %{{.*}} {pd.stage = 1 : i64}

// The micro phase: the whole batch again, sliced; forward and backward
// once per micro-batch (backward ops keep their forward op's stage); the
// loss and the gradients are the micro-batches' means.
// MICRO: func.func @main(%arg0: tensor<4x3xf32>
// MICRO: %[[S0:.*]] = pd.slice %arg0 {axes = array<i32: 0>, ends = array<i32: 2>, pd.micro = 0 : i64, starts = array<i32: 0>}
// MICRO-NEXT: pd.matmul_v2 %[[S0]], %w1 {pd.micro = 0 : i64, pd.stage = 0 : i64}
// MICRO: %[[DW2A:.*]] = pd.matmul_v2 {{.*}} {pd.backward, pd.micro = 0 : i64, pd.stage = 1 : i64, trans_x = true}
// MICRO: %[[DW1A:.*]] = pd.matmul_v2 %[[S0]], {{.*}} {pd.backward, pd.micro = 0 : i64, pd.stage = 0 : i64, trans_x = true}
// MICRO: %[[S1:.*]] = pd.slice %arg0 {axes = array<i32: 0>, ends = array<i32: 4>, pd.micro = 1 : i64, starts = array<i32: 2>}
// MICRO: %[[DW1B:.*]] = pd.matmul_v2 %[[S1]], {{.*}} {pd.backward, pd.micro = 1 : i64, pd.stage = 0 : i64, trans_x = true}
// MICRO: %[[SUM:.*]] = pd.elementwise_add %[[DW1A]], %[[DW1B]]
// MICRO-NEXT: %[[MEAN:.*]] = pd.scale %[[SUM]] {scale = 5.000000e-01 : f32}
// MICRO: return %{{.*}}, %[[MEAN]], %{{.*}} : tensor<1xf32>, tensor<3x5xf32>, tensor<5x2xf32>

// The stages, in the 1F1B order. Stage 0 (w1): forward of both
// micro-batches, each sent on at once, then the backward of each as its
// gradient arrives, the update of w1, and the loss from stage 1.
// CHECK: module attributes {pd.partition = {devices = 2 : i64, micro_batches = 2 : i64, mode = "pipeline", schedule = "1F1B", sends_bytes_per_run = {{[1-9][0-9]*}} : i64, stages = [{bytes = {{.*}}, owns = ["w1"], {{.*}}stage = 0 : i64, weights = ["w1"]}, {{{.*}}owns = ["w2"], {{.*}}stage = 1 : i64, weights = ["w2"]}]}}
// CHECK: %[[S0:.*]] = pd.is_stage {stage = 0 : i32, stages = 2 : i32}
// CHECK-NEXT: %[[B0:.*]]:2 = pd.conditional_block[%[[S0]]] (%{{.*}}, %w1)
// CHECK-NEXT: %[[X0:.*]] = pd.slice %arg0 {{.*}}ends = array<i32: 2>
// CHECK-NEXT: %[[A0:.*]] = pd.matmul_v2 %[[X0]], %w1
// CHECK-NEXT: pd.send_v2 %[[A0]] {peer = 1 : i32}
// CHECK-NEXT: %[[X1:.*]] = pd.slice %arg0 {{.*}}ends = array<i32: 4>
// CHECK-NEXT: %[[A1:.*]] = pd.matmul_v2 %[[X1]], %w1
// CHECK-NEXT: pd.send_v2 %[[A1]] {peer = 1 : i32}
// CHECK-NEXT: %[[G0:.*]] = pd.recv_v2 {out_shape = array<i32: 2, 5>, peer = 1 : i32}
// CHECK-NEXT: pd.matmul_v2 %[[X0]], %[[G0]] {trans_x = true}
// CHECK-NEXT: %[[G1:.*]] = pd.recv_v2 {out_shape = array<i32: 2, 5>, peer = 1 : i32}
// CHECK-NEXT: pd.matmul_v2 %[[X1]], %[[G1]] {trans_x = true}
// CHECK: %[[W1:.*]] = pd.sgd
// CHECK-NEXT: %[[L:.*]] = pd.recv_v2 {out_shape = array<i32: 1>, peer = 1 : i32}
// CHECK-NEXT: pd.yield %[[L]], %[[W1]]
// Stage 1 (w2 and the loss): forward and backward of micro-batch 0, its
// gradient sent back, then micro-batch 1 (received meanwhile), the update
// of w2 and the mean loss to rank 0.
// CHECK: %[[S1:.*]] = pd.is_stage {stage = 1 : i32, stages = 2 : i32}
// CHECK-NEXT: %[[B1:.*]] = pd.conditional_block[%[[S1]]] (%w2)
// CHECK-NEXT: %[[R0:.*]] = pd.recv_v2 {out_shape = array<i32: 2, 5>}
// CHECK-NEXT: pd.relu %[[R0]]
// CHECK: %[[R1:.*]] = pd.recv_v2 {out_shape = array<i32: 2, 5>}
// CHECK: %[[D0:.*]] = pd.where
// CHECK-NEXT: pd.send_v2 %[[D0]] : (tensor<2x5xf32>) -> ()
// CHECK-NEXT: pd.relu %[[R1]]
// CHECK: %[[D1:.*]] = pd.where
// CHECK-NEXT: pd.send_v2 %[[D1]] : (tensor<2x5xf32>) -> ()
// CHECK: %[[W2:.*]] = pd.sgd
// CHECK-NEXT: pd.send_v2 %{{.*}} : (tensor<1xf32>) -> ()
// CHECK-NEXT: pd.yield %[[W2]]
// Each rank stores the parameters its stage owns; another rank's block
// gives back its own copy.
// CHECK: ml_program.global_store @w1 = %[[B0]]#1
// CHECK-NEXT: ml_program.global_store @w2 = %[[B1]]
// CHECK-NEXT: return %[[B0]]#0
// CHECK-NOT: pd.stage
// CHECK-NOT: pd.micro

// ORDER: error: pd-partition-devices: train-phase=stages follows train-phase=forward, which has not run
// MODE: error: pd-partition-devices: train-phase 'forward' needs mode=pipeline and is one of forward, micro, stages
module {
  ml_program.global private @w1(dense<0.5> : tensor<3x5xf32>) : tensor<3x5xf32>
  ml_program.global private @w2(dense<0.25> : tensor<5x2xf32>) : tensor<5x2xf32>
  func.func @main(%x: tensor<4x3xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %w1 = ml_program.global_load_const @w1 : tensor<3x5xf32>
    %w2 = ml_program.global_load_const @w2 : tensor<5x2xf32>
    %h = pd.matmul_v2 %x, %w1 : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
    %r = pd.relu %h : (tensor<4x5xf32>) -> tensor<4x5xf32>
    %y = pd.matmul_v2 %r, %w2 : (tensor<4x5xf32>, tensor<5x2xf32>) -> tensor<4x2xf32>
    %l = pd.mean %y : (tensor<4x2xf32>) -> tensor<1xf32>
    return %l : tensor<1xf32>
  }
}

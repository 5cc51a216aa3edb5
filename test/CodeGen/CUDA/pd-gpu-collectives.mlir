// Collective ops in the CUDA pipeline: host calls into libpdrt_cuda between
// the launches, on the buffers' device addresses. PTX text: no toolkit
// needed.
// RUN: paddle-opt %s --split-input-file --pd-lower-to-gpu="format=isa" --verify-diagnostics | FileCheck %s

// A data-parallel program (what pd-partition-devices{mode=data devices=2}
// writes): the part of the batch is copied by the runtime (kind 11, shard;
// in = x, 128 elements in 8 rows, out = a 64-element arena view), relu runs
// in place on it, and the allgather (kind 2, seq 0) writes another arena
// view that @main returns.
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %[[X:[^:]*]]: memref<8x16xf32> {pd.name = "x"}, %[[ARENA:[^:]*]]: memref<?xi8> {pd.arena})
// CHECK-DAG:     %[[C11:.*]] = arith.constant 11 : i64
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i64
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i64
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i64
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : i64
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : i64
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : i64
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i64
// CHECK:         %[[PART:.*]] = memref.view %[[ARENA]]{{.*}} to memref<4x16xf32>
// CHECK:         %[[XP:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK:         %[[XA:.*]] = arith.index_cast %[[XP]] : index to i64
// CHECK:         %[[PP:.*]] = memref.extract_aligned_pointer_as_index %[[PART]]
// CHECK:         %[[PA:.*]] = arith.index_cast %[[PP]] : index to i64
// CHECK:         call @pdcu_collective(%[[C11]], %[[C0]], %[[C0]], %[[C0]], %[[C2]], %[[C0]], %[[CM1]], %[[XA]], %[[PA]], %[[C128]], %[[C64]], %[[C8]])
// CHECK:         gpu.launch_func @main_kernel::@main_kernel {{.*}} args(%[[PART]] : memref<4x16xf32>)
// CHECK:         %[[ALL:.*]] = memref.view %[[ARENA]]{{.*}} to memref<8x16xf32>
// CHECK:         %[[GP:.*]] = memref.extract_aligned_pointer_as_index %[[ALL]]
// CHECK:         %[[GA:.*]] = arith.index_cast %[[GP]] : index to i64
// CHECK:         call @pdcu_collective(%[[C2]], %[[C0]], %[[C0]], %[[C0]], %[[C2]], %[[C0]], %[[C0]], %[[PA]], %[[GA]], %[[C64]], %[[C128]], %[[C4]])
// CHECK:         return %[[ALL]]
// CHECK:       func.func private @pdcu_collective(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
module attributes {pd.partition = {devices = 2 : i64, mode = "data"}} {
  func.func @main(%arg0: tensor<8x16xf32> {pd.name = "x"}) -> (tensor<8x16xf32> {pd.name = "y"}) {
    %0 = pd.shard_batch %arg0 {devices = 2 : i32} : (tensor<8x16xf32>) -> tensor<4x16xf32>
    %1 = pd.relu %0 : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %2 = pd.c_allgather %1 {nranks = 2 : i32} : (tensor<4x16xf32>) -> tensor<8x16xf32>
    return %2 : tensor<8x16xf32>
  }
}

// -----

// The reductions keep their fields: a max allreduce (kind 0, reduce 1) of
// an int64 tensor (dtype 3), a broadcast from root 1 (kind 1, peer 1), a
// send to rank 1 (kind 4; its destination is an 8-byte placeholder) and a
// receive from it (kind 5, no input: address 0). The pass counts them for
// the manifest.
// CHECK-LABEL: func.func @main(
// CHECK:         call @pdcu_collective(%c0_i64, %c0_i64, %c1_i64, %c0_i64, %c0_i64, %c3_i64, %c0_i64, %{{.*}}, %{{.*}}, %c6_i64, %c6_i64, %c2_i64)
// CHECK:         call @pdcu_collective(%c1_i64, %c0_i64, %c0_i64, %c1_i64, %c0_i64, %c0_i64, %c1_i64, %{{.*}}, %{{.*}}, %c4_i64, %c4_i64, %c4_i64)
// CHECK:         call @pdcu_collective(%c4_i64, %c0_i64, %c0_i64, %c1_i64, %c0_i64, %c0_i64, %c2_i64, %{{.*}}, %{{.*}}, %c4_i64, %c1_i64, %c4_i64)
// CHECK:         call @pdcu_collective(%c5_i64, %c0_i64, %c0_i64, %c1_i64, %c0_i64, %c0_i64, %c3_i64, %c0_i64, %{{.*}}, %c0_i64, %c4_i64, %c0_i64)
module {
  func.func @main(%ids: tensor<2x3xi64> {pd.name = "ids"}, %x: tensor<4xf32> {pd.name = "x"}) -> (tensor<2x3xi64> {pd.name = "m"}, tensor<4xf32> {pd.name = "b"}, tensor<4xf32> {pd.name = "r"}) {
    %m = pd.c_allreduce_max %ids {ring_id = 0 : i32} : (tensor<2x3xi64>) -> tensor<2x3xi64>
    %b = pd.c_broadcast %x {root = 1 : i32, ring_id = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    pd.send_v2 %x {peer = 1 : i32, ring_id = 0 : i32} : (tensor<4xf32>) -> ()
    %r = pd.recv_v2 {peer = 1 : i32, ring_id = 0 : i32, out_shape = array<i32: 4>, dtype = 5 : i32} : () -> tensor<4xf32>
    return %m, %b, %r : tensor<2x3xi64>, tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// Pipeline stages run on CPUs only for now: named, not miscompiled.
module {
  func.func @main(%x: tensor<4xf32> {pd.name = "x"}) -> (tensor<1xi1> {pd.name = "s"}) {
    // expected-error @+1 {{the cuda target cannot run 'is_stage' yet (pipeline stages and training's gradient buckets run on CPUs only for now; docs/MultiDevice.md)}}
    %s = pd.is_stage {stage = 1 : i32, stages = 2 : i32} : () -> tensor<1xi1>
    return %s : tensor<1xi1>
  }
}

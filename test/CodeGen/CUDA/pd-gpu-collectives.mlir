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

// A pipeline of 2 stages (what pd-partition-devices{mode=pipeline
// devices=2} writes, 2 micro-batches): each stage branches on the host on
// the rank pdcu_comm_rank returns (checked against the job's size), its
// buffers are arena views made before the branch (pd-gpu-region-buffers),
// its kernels launch inside it, its sends (kind 4) and receives (kind 5)
// are host calls in program order; the output is filled with zeros on the
// other rank (a kernel, not a host constant).
// CHECK-LABEL: func.func @main(
// CHECK:         %[[R0:.*]] = call @pdcu_comm_rank(%c0_i64, %c2_i64) : (i64, i64) -> i64
// CHECK:         %[[S0:.*]] = arith.cmpi eq, %[[R0]], %c0_i64 : i64
// CHECK:         cf.cond_br %[[S0]], ^[[STAGE0:bb[0-9]+]], ^[[OTHER:bb[0-9]+]]
// CHECK:       ^[[STAGE0]]:
// CHECK:         gpu.launch_func
// CHECK:         call @pdcu_collective(%c4_i64, %c0_i64, %c0_i64, %c1_i64, %c0_i64, %c0_i64, %c0_i64,
// CHECK:         gpu.launch_func
// CHECK:         call @pdcu_collective(%c4_i64, %c0_i64, %c0_i64, %c1_i64, %c0_i64, %c0_i64, %c1_i64,
// CHECK:         call @pdcu_collective(%c5_i64, %c0_i64, %c0_i64, %c1_i64, %c0_i64, %c0_i64, %c2_i64,
// CHECK:         gpu.launch_func
// CHECK:       ^[[OTHER]]:
// CHECK-NEXT:    gpu.launch_func
// CHECK:         %[[R1:.*]] = call @pdcu_comm_rank(%c1_i64, %c2_i64) : (i64, i64) -> i64
// CHECK:         arith.cmpi eq, %[[R1]], %c1_i64 : i64
// CHECK:         call @pdcu_collective(%c5_i64, %c0_i64, %c0_i64, %c0_i64, %c0_i64, %c0_i64, %c3_i64,
// CHECK:         call @pdcu_collective(%c5_i64, %c0_i64, %c0_i64, %c0_i64, %c0_i64, %c0_i64, %c4_i64,
// CHECK:         call @pdcu_collective(%c4_i64, %c0_i64, %c0_i64, %c0_i64, %c0_i64, %c0_i64, %c5_i64,
// CHECK-NOT:     memref.alloc
// CHECK:       func.func private @pdcu_comm_rank(i64, i64) -> i64
module attributes {pd.partition = {devices = 2 : i64, micro_batches = 2 : i64, mode = "pipeline", stages = [{bytes = 2304 : i64, flops = 128 : i64, ops = 2 : i64, sends_bytes = 256 : i64, stage = 0 : i64, weights = []}, {bytes = 2048 : i64, flops = 128 : i64, ops = 2 : i64, sends_bytes = 256 : i64, stage = 1 : i64, weights = []}]}} {
  func.func @main(%arg0: tensor<4x16xf32> {pd.name = "x"}) -> (tensor<4x16xf32> {pd.name = "y"}) {
    %0 = pd.fill_constant {shape = array<i64: 4, 16>} : () -> tensor<4x16xf32>
    %1 = pd.is_stage {stage = 0 : i32, stages = 2 : i32} : () -> tensor<1xi1>
    %2 = pd.conditional_block[%1] (%0) : (tensor<1xi1>, tensor<4x16xf32>) -> tensor<4x16xf32> {
      %4 = pd.slice %arg0 {axes = array<i32: 0>, ends = array<i32: 2>, starts = array<i32: 0>} : (tensor<4x16xf32>) -> tensor<2x16xf32>
      %5 = pd.relu %4 : (tensor<2x16xf32>) -> tensor<2x16xf32>
      %6 = pd.sigmoid %5 : (tensor<2x16xf32>) -> tensor<2x16xf32>
      pd.send_v2 %6 {peer = 1 : i32} : (tensor<2x16xf32>) -> ()
      %7 = pd.slice %arg0 {axes = array<i32: 0>, ends = array<i32: 4>, starts = array<i32: 2>} : (tensor<4x16xf32>) -> tensor<2x16xf32>
      %8 = pd.relu %7 : (tensor<2x16xf32>) -> tensor<2x16xf32>
      %9 = pd.sigmoid %8 : (tensor<2x16xf32>) -> tensor<2x16xf32>
      pd.send_v2 %9 {peer = 1 : i32} : (tensor<2x16xf32>) -> ()
      %10 = pd.recv_v2 {out_shape = array<i32: 4, 16>, peer = 1 : i32} : () -> tensor<4x16xf32>
      pd.yield %10 : tensor<4x16xf32>
    }
    %3 = pd.is_stage {stage = 1 : i32, stages = 2 : i32} : () -> tensor<1xi1>
    pd.conditional_block[%3] () : (tensor<1xi1>) -> () {
      %4 = pd.recv_v2 {out_shape = array<i32: 2, 16>} : () -> tensor<2x16xf32>
      %5 = pd.tanh %4 : (tensor<2x16xf32>) -> tensor<2x16xf32>
      %6 = pd.exp %5 : (tensor<2x16xf32>) -> tensor<2x16xf32>
      %7 = pd.recv_v2 {out_shape = array<i32: 2, 16>} : () -> tensor<2x16xf32>
      %8 = pd.tanh %7 : (tensor<2x16xf32>) -> tensor<2x16xf32>
      %9 = pd.exp %8 : (tensor<2x16xf32>) -> tensor<2x16xf32>
      %10 = pd.concat [%6, %9] : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<4x16xf32>
      pd.send_v2 %10 : (tensor<4x16xf32>) -> ()
      pd.yield
    }
    return %2 : tensor<4x16xf32>
  }
}

// -----

// A gradient bucket overlapped with the backward pass: its allreduce starts
// (kind 9, bucket 0 as the peer, in place: no input) after relu's kernel,
// softmax's kernel runs while it advances, and the wait (kind 10) comes
// before the add that reads the sum.
// CHECK-LABEL: func.func @main(
// CHECK-DAG:     %[[C9:.*]] = arith.constant 9 : i64
// CHECK-DAG:     %[[C10:.*]] = arith.constant 10 : i64
// CHECK:         gpu.launch_func @main_kernel::@main_kernel
// CHECK:         %[[HP:.*]] = memref.extract_aligned_pointer_as_index %[[H:.*]] :
// CHECK:         %[[HA:.*]] = arith.index_cast %[[HP]] : index to i64
// CHECK:         call @pdcu_collective(%[[C9]], {{.*}}, %[[HA]], {{.*}})
// CHECK:         gpu.launch_func @main_kernel_0::@main_kernel
// CHECK:         gpu.launch_func @main_kernel_4::@main_kernel
// CHECK-NEXT:    call @pdcu_collective(%[[C10]], {{.*}}, %[[HA]], {{.*}})
// CHECK-NEXT:    gpu.launch_func @main_kernel_5::@main_kernel
module {
  func.func @main(%g: tensor<4xf32> {pd.name = "g"}) -> (tensor<4xf32> {pd.name = "s"}) {
    %r = pd.relu %g : (tensor<4xf32>) -> tensor<4xf32>
    %h = pd.allreduce_start %r {bucket = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
    %e = pd.softmax %g {axis = -1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    %s = pd.allreduce_wait %h {bucket = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
    %y = pd.elementwise_add %s, %e : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

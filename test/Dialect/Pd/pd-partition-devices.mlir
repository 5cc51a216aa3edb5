// RUN: paddle-opt %s --split-input-file --pd-partition-devices="mode=data devices=2" --verify-diagnostics | FileCheck %s

// Each input is split along its batch, the types follow the part, and each
// output is gathered back: the interface keeps the whole batch. Gathering
// the 8x4 f32 output, each rank sends the half it does not start with
// (64 of 128 bytes) per run.
// CHECK-LABEL: module attributes {pd.partition = {allgather_bytes_per_run = 64 : i64, devices = 2 : i64, mode = "data"}}
// CHECK-LABEL: func.func @main(%arg0: tensor<8x16xf32> {pd.name = "x"}, %arg1: tensor<8x1xi64>) -> tensor<8x4xf32>
// CHECK: %[[X:.*]] = pd.shard_batch %arg0 {devices = 2 : i32} : (tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK: %[[I:.*]] = pd.shard_batch %arg1 {devices = 2 : i32} : (tensor<8x1xi64>) -> tensor<4x1xi64>
// CHECK: %[[M:.*]] = pd.matmul_v2 %[[X]], %{{.*}} : (tensor<4x16xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[R:.*]] = pd.relu %[[M]] : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[G:.*]] = pd.c_allgather %[[R]] {nranks = 2 : i32} : (tensor<4x4xf32>) -> tensor<8x4xf32>
// CHECK: return %[[G]]
module {
  ml_program.global private @w(dense<1.0> : tensor<16x4xf32>) : tensor<16x4xf32>
  func.func @main(%x: tensor<8x16xf32> {pd.name = "x"}, %ids: tensor<8x1xi64>) -> tensor<8x4xf32> {
    %w = ml_program.global_load_const @w : tensor<16x4xf32>
    %m = pd.matmul_v2 %x, %w : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %r = pd.relu %m : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %r : tensor<8x4xf32>
  }
}

// -----

// A dynamic batch splits at run time (the bytes gathered depend on it).
// CHECK-LABEL: module attributes {pd.partition = {devices = 2 : i64, mode = "data"}}
// CHECK-LABEL: func.func @main(%arg0: tensor<?x3xf32>) -> tensor<?x3xf32>
// CHECK: pd.shard_batch %arg0 {devices = 2 : i32} : (tensor<?x3xf32>) -> tensor<?x3xf32>
// CHECK: pd.c_allgather %{{.*}} {nranks = 2 : i32} : (tensor<?x3xf32>) -> tensor<?x3xf32>
module {
  func.func @main(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
    %r = pd.relu %x : (tensor<?x3xf32>) -> tensor<?x3xf32>
    return %r : tensor<?x3xf32>
  }
}

// -----

module {
  // expected-error @+1 {{input 'x' has a batch of 5, which does not split among 2 devices}}
  func.func @main(%x: tensor<5x3xf32> {pd.name = "x"}) -> tensor<5x3xf32> {
    return %x : tensor<5x3xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4x3xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %m = pd.reduce_mean %x {reduce_all = true} : (tensor<4x3xf32>) -> tensor<1xf32>
    // expected-error @+1 {{output 'loss' ('tensor<1xf32>') does not keep the batch along dim 0 (its part is 'tensor<1xf32>'), so the ranks' parts cannot be gathered}}
    return %m : tensor<1xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4x6xf32> {pd.name = "x"}) -> tensor<4x2x3xf32> {
    // expected-error @+1 {{the op's shapes do not follow a split of the batch among 2 devices}}
    %r = pd.reshape2 %x {shape = array<i32: 4, 2, 3>} : (tensor<4x6xf32>) -> tensor<4x2x3xf32>
    return %r : tensor<4x2x3xf32>
  }
}

// -----

module {
  // expected-error @+1 {{input 'x' has no dim 0 to split}}
  func.func @main(%x: tensor<f32> {pd.name = "x"}) -> tensor<f32> {
    return %x : tensor<f32>
  }
}

// -----

// A program that already communicates is not partitioned again: its
// allreduce would then also sum the parts of the batch.
module {
  func.func @main(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
    // expected-error @+1 {{the program already communicates ('pd.c_allreduce_sum'); partitioning it again would change what its collectives compute}}
    %s = pd.c_allreduce_sum %x : (tensor<4x3xf32>) -> tensor<4x3xf32>
    return %s : tensor<4x3xf32>
  }
}

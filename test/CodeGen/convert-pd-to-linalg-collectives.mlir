// RUN: paddle-opt %s -convert-pd-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// Tests that each collective becomes one pdk_collective call marked as
// communicating: kind, ring, reduce op, peer, nranks, dtype, program
// position (comm:: in KernelABI.h); a send writes a one-element
// placeholder; a gather's dynamic dim 0 is nranks times X's.
// CHECK-LABEL: func.func @calls
// CHECK: pd.kernel_call "pdk_collective"(%arg0) init(%{{.*}}) {floats = array<f32>, ints = array<i64: 0, 0, 1, 0, 0, 0, 0>, pd.comm, pd.from = "c_allreduce_max", slots = array<i64: 0>}
// CHECK: %[[D:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[N:.*]] = arith.muli %[[D]], %c2
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x8xf32>
// CHECK: pd.kernel_call "pdk_collective"(%arg0) init(%[[E]]) {floats = array<f32>, ints = array<i64: 2, 0, 0, 0, 2, 0, 1>, pd.comm, pd.from = "c_allgather", slots = array<i64: 0>}
// CHECK: pd.kernel_call "pdk_collective"(%arg1) init(%{{.*}}) {floats = array<f32>, ints = array<i64: 4, 0, 0, 1, 0, 3, 2>, pd.comm, pd.from = "send_v2", slots = array<i64: 0>} : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK: pd.kernel_call "pdk_collective"() init(%{{.*}}) {floats = array<f32>, ints = array<i64: 5, 0, 0, 1, 0, 0, 3>, pd.comm, pd.from = "recv_v2", slots = array<i64: -1>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
func.func @calls(%x: tensor<?x8xf32>, %ids: tensor<3xi64>) -> (tensor<?x8xf32>, tensor<?x8xf32>, tensor<2x2xf32>) {
  %m = pd.c_allreduce_max %x : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %g = pd.c_allgather %x {nranks = 2 : i32} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  pd.send_v2 %ids {peer = 1 : i32} : (tensor<3xi64>) -> ()
  %r = pd.recv_v2 {peer = 1 : i32, out_shape = array<i32: 2, 2>} : () -> tensor<2x2xf32>
  return %m, %g, %r : tensor<?x8xf32>, tensor<?x8xf32>, tensor<2x2xf32>
}

// -----

// Tests that pd.shard_batch has pdk_collective copy this rank's rows into a
// part of its own (kind 11, with nranks and the dtype: f32 0, i64 3); a
// dynamic batch gives the part B / n rows.
// CHECK-LABEL: func.func @shard
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK: %[[K:.*]] = pd.kernel_call "pdk_collective"(%arg0) init(%[[E]]) {floats = array<f32>, ints = array<i64: 11, 0, 0, 0, 2, 0, -1>, pd.comm, pd.from = "shard_batch", slots = array<i64: 0>} : (tensor<8x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: return %[[K]]
// CHECK-LABEL: func.func @shard_dynamic
// CHECK: %[[B:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[P:.*]] = arith.divui %[[B]], %c2
// CHECK: %[[D:.*]] = tensor.empty(%[[P]]) : tensor<?x3xi64>
// CHECK: pd.kernel_call "pdk_collective"(%arg0) init(%[[D]]) {{{.*}}ints = array<i64: 11, 0, 0, 0, 2, 3, -1>
func.func @shard(%x: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %p = pd.shard_batch %x {devices = 2 : i32} : (tensor<8x3xf32>) -> tensor<4x3xf32>
  return %p : tensor<4x3xf32>
}
func.func @shard_dynamic(%x: tensor<?x3xi64>) -> tensor<?x3xi64> {
  %p = pd.shard_batch %x {devices = 2 : i32} : (tensor<?x3xi64>) -> tensor<?x3xi64>
  return %p : tensor<?x3xi64>
}

// -----

// Tests that pd.is_stage asks the communicator for the rank (kind 8, with
// the stage as peer and the stage count as nranks) and compares it with
// the stage; the conditional block of the stage becomes an scf.if on it.
// CHECK-LABEL: func.func @stage
// CHECK: %[[K:.*]] = pd.kernel_call "pdk_collective"() init(%{{.*}}) {floats = array<f32>, ints = array<i64: 8, 0, 0, 1, 3, 0, -1>, pd.comm, pd.from = "is_stage", slots = array<i64: -1>} : (tensor<1xi64>) -> tensor<1xi64>
// CHECK: %[[R:.*]] = tensor.extract %[[K]]
// CHECK: %[[IS:.*]] = arith.cmpi eq, %[[R]], %c1_i64 : i64
// CHECK: %[[F:.*]] = tensor.from_elements %[[IS]] : tensor<1xi1>
// CHECK: %[[C:.*]] = tensor.extract %[[F]]
// CHECK: scf.if %[[C]] {
// CHECK: pd.kernel_call "pdk_collective"(%arg0) {{.*}}pd.from = "send_v2"
// CHECK-NEXT: } else {
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @stage(%x: tensor<4xf32>) {
  %f = pd.is_stage {stage = 1 : i32, stages = 3 : i32} : () -> tensor<1xi1>
  pd.conditional_block [%f] () : (tensor<1xi1>) -> () {
    pd.send_v2 %x : (tensor<4xf32>) -> ()
    pd.yield
  }
  return
}

// -----

// Tests that a gradient bucket's start and wait are pdk_collective calls in
// place on X (kinds 9 and 10, the bucket as peer): the wait's destination
// is the start's result, so both name one buffer.
// CHECK-LABEL: func.func @bucket
// CHECK: %[[H:.*]] = pd.kernel_call "pdk_collective"() init(%arg0) {floats = array<f32>, ints = array<i64: 9, 0, 0, 3, 0, 0, -1>, pd.comm, pd.from = "allreduce_start", slots = array<i64: -1>} : (tensor<6xf32>) -> tensor<6xf32>
// CHECK: %[[S:.*]] = pd.kernel_call "pdk_collective"() init(%[[H]]) {floats = array<f32>, ints = array<i64: 10, 0, 0, 3, 0, 0, -1>, pd.comm, pd.from = "allreduce_wait", slots = array<i64: -1>} : (tensor<6xf32>) -> tensor<6xf32>
// CHECK: return %[[S]]
func.func @bucket(%g: tensor<6xf32>) -> tensor<6xf32> {
  %h = pd.allreduce_start %g {bucket = 3 : i64} : (tensor<6xf32>) -> tensor<6xf32>
  %s = pd.allreduce_wait %h {bucket = 3 : i64} : (tensor<6xf32>) -> tensor<6xf32>
  return %s : tensor<6xf32>
}

// -----

// Tests that 16-bit floats, which MPI cannot reduce, are reduced in f32
// between casts.
// CHECK-LABEL: func.func @reduce_f16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: pd.kernel_call "pdk_collective"(%{{.*}}) init(%{{.*}}) {floats = array<f32>, ints = array<i64: 0, 0, 0, 0, 0, 0, 0>, pd.comm, pd.from = "c_allreduce_sum", slots = array<i64: 0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @reduce_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %y = pd.c_allreduce_sum %x : (tensor<4xf16>) -> tensor<4xf16>
  return %y : tensor<4xf16>
}

// -----

// Tests that a recv_v2 needs a static out_shape to receive into.
func.func @recv_dynamic() -> tensor<2x?xf32> {
  // expected-error @+2 {{needs a static out_shape to receive into}}
  // expected-error @+1 {{code generation cannot compile 'pd.recv_v2'}}
  %y = pd.recv_v2 {peer = 1 : i32, out_shape = array<i32: 2, -1>} : () -> tensor<2x?xf32>
  return %y : tensor<2x?xf32>
}

// -----

// Tests that collectives disagreeing on the ring are refused at compile
// time (only ring 0, the whole job, exists), naming the op and its ring,
// instead of failing or hanging at run time.
func.func @mismatched_rings(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = pd.c_allreduce_sum %x {ring_id = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+2 {{'pd.c_allreduce_sum' op uses ring_id 1, but only ring 0 (every rank of the job) exists: communicators over other groups of ranks are not supported}}
  // expected-error @+1 {{code generation cannot compile 'pd.c_allreduce_sum'}}
  %b = pd.c_allreduce_sum %a {ring_id = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

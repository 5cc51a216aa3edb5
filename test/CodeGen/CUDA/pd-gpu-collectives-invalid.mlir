// RUN: paddle-opt %s --split-input-file --pd-gpu-collectives --verify-diagnostics

// The rank query (kind 7) is the runtime's own call (libpdrt_cuda asks it
// before it copies a part of the batch); no pd op lowers to it, so a
// kernel call of that kind in the IR is refused by name, not miscompiled.
func.func @rank(%r: memref<1xi64>) {
  // expected-error @below {{the cuda target cannot run 'rank' (a rank query)}}
  pd.kernel_call "pdk_collective"() init(%r) {slots = array<i64: -1>, ints = array<i64: 7, 0, 0, 0, 0, 3, 0>, floats = array<f32>, pd.comm, pd.from = "rank"} : (memref<1xi64>) -> ()
  return
}

// -----

// is_stage's rank may only be loaded (each load becomes the host's call);
// another reader of its buffer is refused by name.
func.func @stage_copied(%r: memref<1xi64>, %o: memref<1xi64>) {
  // expected-error @below {{the rank of 'is_stage' is read by 'memref.copy', not only loaded}}
  pd.kernel_call "pdk_collective"() init(%r) {slots = array<i64: -1>, ints = array<i64: 8, 0, 0, 1, 2, 3, 0>, floats = array<f32>, pd.comm, pd.from = "is_stage"} : (memref<1xi64>) -> ()
  memref.copy %r, %o : memref<1xi64> to memref<1xi64>
  return
}

// -----

// Collectives run on static contiguous device buffers: a dynamic one is
// refused with its type.
func.func @dynamic(%x: memref<?xf32>, %o: memref<?xf32>) {
  // expected-error @below {{the cuda target runs 'c_allreduce_sum' on static contiguous device buffers only, not on 'memref<?xf32>'}}
  pd.kernel_call "pdk_collective"(%x) init(%o) {slots = array<i64: 0>, ints = array<i64: 0, 0, 0, 0, 0, 0, 0>, floats = array<f32>, pd.comm, pd.from = "c_allreduce_sum"} : (memref<?xf32>, memref<?xf32>) -> ()
  return
}

// RUN: paddle-opt %s --split-input-file --verify-diagnostics --pd-gpu-map-loops="threads=128" | FileCheck %s

// A 3-D parallel nest becomes one grid of 128-thread blocks over its 60
// iterations: thread (b, t) runs iteration b * 128 + t, delinearized with
// the innermost dimension fastest, under a bound check.
// CHECK-LABEL: func.func @nest
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG:     %[[C60:.*]] = arith.constant 60 : index
// CHECK:         scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%[[ONE:.*]]) step
// CHECK:           scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[C128]]) step
// CHECK:             %[[M:.*]] = arith.muli %[[B]], %[[C128]]
// CHECK:             %[[I:.*]] = arith.addi %[[M]], %[[T]]
// CHECK:             %[[IN:.*]] = arith.cmpi slt, %[[I]], %[[C60]]
// CHECK:             scf.if %[[IN]] {
// CHECK:               %[[K:.*]] = arith.remui %[[I]], %[[C5:.*]] :
// CHECK:               %[[R:.*]] = arith.divui %[[I]], %[[C5]] :
// CHECK:               %[[J:.*]] = arith.remui %[[R]], %[[C4:.*]] :
// CHECK:               %[[N:.*]] = arith.divui %[[R]], %[[C4]] :
// CHECK:               memref.load %arg0[%{{.*}}, %{{.*}}, %{{.*}}]
// CHECK:               arith.negf
// CHECK:           } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
func.func @nest(%in: memref<3x4x5xf32>, %out: memref<3x4x5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%c3, %c4, %c5) step (%c1, %c1, %c1) {
    %v = memref.load %in[%i, %j, %k] : memref<3x4x5xf32>
    %w = arith.negf %v : f32
    memref.store %w, %out[%i, %j, %k] : memref<3x4x5xf32>
    scf.reduce
  }
  return
}

// -----

// An op without a parallel dimension (a full sum) runs as one thread; a
// buffer copy becomes a parallel nest of its own; views stay on the host.
// CHECK-LABEL: func.func @serial_and_copy
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%c1{{(_[0-9]+)?}}) step
// CHECK:           scf.parallel (%{{.*}}) = (%{{.*}}) to (%c1{{(_[0-9]+)?}}) step
// CHECK:             scf.if
// CHECK:               scf.for
// CHECK:         memref.collapse_shape
// CHECK:         scf.parallel
// CHECK:           scf.parallel
// CHECK:             scf.if
// CHECK:               %[[V:.*]] = vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<4x8xf32>, vector<4xf32>
// CHECK:               vector.store %[[V]], %arg2[{{.*}}] {alignment = 16 : i64} : memref<4x8xf32>, vector<4xf32>
// CHECK-NOT:     memref.copy
func.func @serial_and_copy(%in: memref<4x8xf32>, %sum: memref<f32>, %copy: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %in[%i, %c0] : memref<4x8xf32>
    %s = memref.load %sum[] : memref<f32>
    %t = arith.addf %s, %v : f32
    memref.store %t, %sum[] : memref<f32>
  }
  %flat = memref.collapse_shape %in [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  memref.copy %in, %copy : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

// An elementwise nest over a 4x8 output: each thread takes four
// consecutive elements (8 iterations, one 128-thread block), reading the
// input and a row-broadcast bias as vectors, a per-row scale as a scalar
// broadcast to the vector, and storing a vector.
// CHECK-LABEL: func.func @widened
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:             %[[IN:.*]] = arith.cmpi slt, %{{.*}}, %[[C8]]
// CHECK:             scf.if %[[IN]] {
// CHECK:               %[[Q:.*]] = arith.remui %[[I:.*]], %[[C2]] :
// CHECK:               %[[J:.*]] = arith.muli %[[Q]], %{{c4(_[0-9]+)?}} :
// CHECK:               %[[X:.*]] = vector.load %arg0[%[[ROW:.*]], %[[J]]] {alignment = 16 : i64} : memref<4x8xf32>, vector<4xf32>
// CHECK:               %[[B:.*]] = vector.load %arg1[%[[J]]] {alignment = 16 : i64} : memref<8xf32>, vector<4xf32>
// CHECK:               %[[S:.*]] = memref.load %arg2[%[[ROW]]] : memref<4xf32>
// CHECK:               %[[XB:.*]] = arith.addf %[[X]], %[[B]] : vector<4xf32>
// CHECK:               %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK:               %[[R:.*]] = arith.mulf %[[XB]], %[[SV]] : vector<4xf32>
// CHECK:               vector.store %[[R]], %arg3[%[[ROW]], %[[J]]] {alignment = 16 : i64} : memref<4x8xf32>, vector<4xf32>
func.func @widened(%in: memref<4x8xf32>, %bias: memref<8xf32>, %scale: memref<4xf32>, %out: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    %x = memref.load %in[%i, %j] : memref<4x8xf32>
    %b = memref.load %bias[%j] : memref<8xf32>
    %s = memref.load %scale[%i] : memref<4xf32>
    %xb = arith.addf %x, %b : f32
    %r = arith.mulf %xb, %s : f32
    memref.store %r, %out[%i, %j] : memref<4x8xf32>
  }
  return
}

// -----

// Nests that stay one element per thread: a transposed read (the innermost
// index is not the last one of the access), an innermost extent that is
// not a multiple of four, an arena view at a byte offset that is not a
// multiple of 16, and an innermost index used in arithmetic.
// CHECK-LABEL: func.func @scalar
// CHECK-NOT:     vector.
// CHECK:         return
func.func @scalar(%in: memref<8x4xf32>, %out: memref<4x8xf32>, %odd: memref<4x6xf32>, %arena: memref<256xi8>, %iota: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    %x = memref.load %in[%j, %i] : memref<8x4xf32>
    memref.store %x, %out[%i, %j] : memref<4x8xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c6) step (%c1, %c1) {
    %x = memref.load %odd[%i, %j] : memref<4x6xf32>
    %y = arith.negf %x : f32
    memref.store %y, %odd[%i, %j] : memref<4x6xf32>
  }
  %v = memref.view %arena[%c8][] : memref<256xi8> to memref<4x8xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    %x = memref.load %v[%i, %j] : memref<4x8xf32>
    %y = arith.negf %x : f32
    memref.store %y, %v[%i, %j] : memref<4x8xf32>
  }
  scf.parallel (%j) = (%c0) to (%c8) step (%c1) {
    %n = arith.index_cast %j : index to i32
    %f = arith.sitofp %n : i32 to f32
    memref.store %f, %iota[%j] : memref<8xf32>
  }
  return
}

// -----

// Host code that is neither a loop nest nor a view is named.
func.func @host_call(%in: memref<4xf32>) {
  // expected-error @+1 {{the cuda target cannot run 'func.call' yet (only generated loop nests and buffer views)}}
  func.call @helper(%in) : (memref<4xf32>) -> ()
  return
}
func.func private @helper(memref<4xf32>)

// -----

// A dynamic input is named: launch sizes and the memory plan are static for
// now.
// expected-error @+1 {{the cuda target needs static shapes for now: input 'image' is 'memref<?x3xf32>' (fix its dims, e.g. paddle-compile --input-shape)}}
func.func @main(%x: memref<?x3xf32> {pd.name = "image"}, %arena: memref<?xi8> {pd.arena}) {
  return
}

// -----

// A constant tensor (here read through a reshape) is read by the kernel
// from its own copy: the get_global and the view move into the nest (and
// so into the kernel module, by outlining), not its host address.
// CHECK-LABEL: func.func @host_constant
// CHECK-NOT:     memref.get_global
// CHECK:         scf.parallel
// CHECK:           scf.parallel
// CHECK:             scf.if
// CHECK:               %[[G:.*]] = memref.get_global @table : memref<8xf32>
// CHECK:               %[[V:.*]] = memref.expand_shape %[[G]] {{\[\[}}0, 1]] output_shape [2, 4]
// CHECK:               memref.load %[[V]]
memref.global "private" constant @table : memref<8xf32> = dense<1.0>
func.func @host_constant(%out: memref<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %g = memref.get_global @table : memref<8xf32>
  %v = memref.expand_shape %g [[0, 1]] output_shape [2, 4] : memref<8xf32> into memref<2x4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %c4) step (%c1, %c1) {
    %x = memref.load %v[%i, %j] : memref<2x4xf32>
    memref.store %x, %out[%i, %j] : memref<2x4xf32>
  }
  return
}

// -----

// Loop-free scalar code (a 1x1 elementwise add whose one-iteration loops
// canonicalization removed) runs as one thread: the loads and the add
// right before the store move into a one-iteration nest with it; a load
// before a library call that may write its buffer stays where it is.
// CHECK-LABEL: func.func @scalar_code
// CHECK:         call @pdcu_matmul
// CHECK-NOT:     memref.load
// CHECK:         scf.parallel
// CHECK-NEXT:      scf.parallel
// CHECK:             scf.if
// CHECK:               %[[A:.*]] = memref.load %arg0[%{{.*}}, %{{.*}}] : memref<1x1xf32>
// CHECK-NEXT:          %[[B:.*]] = memref.load %arg1[%{{.*}}] : memref<1xf32>
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:          memref.store %[[S]], %arg0[%{{.*}}, %{{.*}}] : memref<1x1xf32>
// CHECK-NOT:     memref.load
// CHECK:         return
func.func @scalar_code(%y: memref<1x1xf32>, %bias: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  func.call @pdcu_matmul(%c0) : (index) -> ()
  %a = memref.load %y[%c0, %c0] : memref<1x1xf32>
  %b = memref.load %bias[%c0] : memref<1xf32>
  %s = arith.addf %a, %b : f32
  memref.store %s, %y[%c0, %c0] : memref<1x1xf32>
  return
}
func.func private @pdcu_matmul(index)

// -----

// A scalar that loop-invariant code motion hoisted out of the nests (a
// quantizer's one-element scale, arithmetic on it) moves into each nest
// that uses it when it reads an input or weight. A load from the arena
// stays (the plan may give its slot to the nest's output) and is named.
// CHECK-LABEL: func.func @hoisted_scale
// CHECK-NOT:     memref.load
// CHECK:         scf.parallel
// CHECK:           scf.parallel
// CHECK:             scf.if
// CHECK:               %[[S:.*]] = memref.load %arg1[%{{.*}}] : memref<1xf32>
// CHECK-NEXT:          %[[N:.*]] = arith.negf %[[S]] : f32
// CHECK:               %[[NV:.*]] = vector.broadcast %[[N]] : f32 to vector<4xf32>
// CHECK:               arith.maximumf %{{.*}}, %[[NV]] : vector<4xf32>
// CHECK:         scf.parallel
// CHECK:           scf.parallel
// CHECK:             scf.if
// CHECK:               %[[S2:.*]] = memref.load %arg1[%{{.*}}] : memref<1xf32>
// CHECK:               vector.broadcast %[[S2]]
func.func @hoisted_scale(%x: memref<8xf32>, %scale: memref<1xf32> {pd.weight = "s"},
                         %y: memref<8xf32>, %z: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %s = memref.load %scale[%c0] : memref<1xf32>
  %n = arith.negf %s : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %x[%i] : memref<8xf32>
    %m = arith.maximumf %v, %n : f32
    memref.store %m, %y[%i] : memref<8xf32>
  }
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %y[%i] : memref<8xf32>
    %m = arith.mulf %v, %s : f32
    memref.store %m, %z[%i] : memref<8xf32>
  }
  return
}

// -----

// A scalar loaded from the arena moves into the nest that uses it when no
// buffer written in between shares its bytes (here bytes 64..96, not 0..4);
// when one does (the plan gave the bytes to a buffer born after the load,
// its last use), it stays and is named.
// CHECK-LABEL: func.func @arena_scalar
// CHECK:         scf.parallel
// CHECK:         scf.parallel
// CHECK:           scf.parallel
// CHECK:             memref.load %{{.*}}[%{{.*}}] : memref<1xf32>
func.func @arena_scalar(%x: memref<8xf32>, %arena: memref<?xi8> {pd.arena}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %t = memref.view %arena[%c0][] : memref<?xi8> to memref<1xf32>
  %u = memref.view %arena[%c64][] : memref<?xi8> to memref<8xf32>
  %s = memref.load %t[%c0] : memref<1xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %u[%i] : memref<8xf32>
  }
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %s, %x[%i] : memref<8xf32>
  }
  return
}

// -----

func.func @arena_scalar_reused(%x: memref<8xf32>, %arena: memref<?xi8> {pd.arena}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = memref.view %arena[%c0][] : memref<?xi8> to memref<1xf32>
  %u = memref.view %arena[%c0][] : memref<?xi8> to memref<8xf32>
  // expected-error @+1 {{the cuda target cannot run 'memref.load' yet (only generated loop nests and buffer views)}}
  %s = memref.load %t[%c0] : memref<1xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %u[%i] : memref<8xf32>
  }
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %s, %x[%i] : memref<8xf32>
  }
  return
}

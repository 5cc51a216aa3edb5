// RUN: paddle-opt %s --split-input-file --pd-gpu-emulate-launches --verify-diagnostics | FileCheck %s

// A launch without synchronization: loops over the blocks, then the
// threads, of each dimension of more than one (z outermost, x innermost);
// the ids of the others are 0 and the sizes are the launch's.
// CHECK-LABEL: func.func @plain(
// CHECK-SAME:      %[[B:.*]]: memref<2x3x8xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-NOT:     gpu.launch
// CHECK:         scf.for %[[BY:.*]] = %[[C0]] to %[[C2]] step %{{.*}} {
// CHECK-NEXT:      scf.for %[[BX:.*]] = %[[C0]] to %[[C3]] step %{{.*}} {
// CHECK-NEXT:        scf.for %[[TX:.*]] = %[[C0]] to %[[C8]] step %{{.*}} {
// CHECK-NEXT:          %[[V:.*]] = arith.index_cast %[[C8]] : index to i32
// CHECK-NEXT:          %[[F:.*]] = arith.sitofp %[[V]] : i32 to f32
// CHECK-NEXT:          memref.store %[[F]], %[[B]][%[[BY]], %[[BX]], %[[TX]]]
func.func @plain(%b: memref<2x3x8xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c2, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %n = arith.index_cast %sx : index to i32
    %f = arith.sitofp %n : i32 to f32
    memref.store %f, %b[%by, %bx, %tx] : memref<2x3x8xf32>
    gpu.terminator
  }
  return
}

// -----

// A block reduction runs as pd-gpu-emulate-block-reductions runs it: the
// threads' partial values in a stack buffer, folded in thread order.
// CHECK-LABEL: func.func @reduction(
// CHECK-NOT:     gpu.
// CHECK:         memref.alloca(%{{.*}}) : memref<?xf32>
// CHECK:         scf.for {{.*}} iter_args
// CHECK:           arith.addf
// CHECK-NOT:     gpu.
func.func @reduction(%in: memref<4x32xf32>, %out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %in[%bx, %tx] : memref<4x32xf32>
    %r = gpu.all_reduce add %v uniform {} : (f32) -> f32
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %r, %out[%bx] : memref<4xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Threads that wait for each other cannot run one after the other.
func.func @barrier(%b: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %f = arith.constant 1.0 : f32
    memref.store %f, %b[%tx] : memref<8xf32>
    // expected-error @below {{emulation runs a block's threads one after the other and cannot run 'gpu.barrier' between them}}
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// Workgroup memory is shared by a block's threads: no host loop gives each
// thread the same buffer at the right moment, so the launch is refused.
func.func @workgroup(%b: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // expected-error @below {{emulation cannot run a launch with workgroup or private memory}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1)
             workgroup(%w : memref<8xf32, #gpu.address_space<workgroup>>) {
    %f = memref.load %w[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
    memref.store %f, %b[%tx] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// A body of several blocks (a branch inside the kernel) is not cloned
// piecewise into loops: refused by name.
func.func @branches(%b: memref<8xf32>, %c: i1) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // expected-error @below {{emulation needs a launch body of one block}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    cf.cond_br %c, ^store, ^done
  ^store:
    %f = arith.constant 1.0 : f32
    memref.store %f, %b[%tx] : memref<8xf32>
    cf.br ^done
  ^done:
    gpu.terminator
  }
  return
}

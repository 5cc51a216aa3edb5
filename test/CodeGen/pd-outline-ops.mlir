// RUN: paddle-opt %s --split-input-file --pd-outline-ops | FileCheck %s

// Tests that each linalg op on buffers moves into its own function, that
// captured constants are cloned in, and when the output gets llvm.noalias.

// Output is a fresh allocation: noalias. The constant the body uses is
// cloned into the outlined function, not passed.
// CHECK-LABEL: func.func private @__pd_op_0(%arg0: memref<4xf32>, %arg1: memref<4xf32> {llvm.noalias})
// CHECK: arith.constant 2.0
// CHECK: linalg.generic
// CHECK: func.func @fresh_output
// CHECK: %[[A:.*]] = memref.alloc
// CHECK: call @__pd_op_0(%arg0, %[[A]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NOT: linalg.generic
#id = affine_map<(d0) -> (d0)>
func.func @fresh_output(%x: memref<4xf32>) -> memref<4xf32> {
  %c2 = arith.constant 2.0 : f32
  %o = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %c2 : f32
    linalg.yield %m : f32
  }
  return %o : memref<4xf32>
}

// -----

// In place through a view (the output is a cast of the input buffer): two
// arguments with one root, no noalias. (In place through the same value is
// one argument, for which noalias holds trivially.)
// CHECK-LABEL: func.func private @__pd_op_0(%arg0: memref<4xf32>, %arg1: memref<?xf32>)
// CHECK-NEXT: linalg.generic
// CHECK: func.func @in_place
// CHECK: %[[C:.*]] = memref.cast %arg0
// CHECK: call @__pd_op_0(%arg0, %[[C]])
#id = affine_map<(d0) -> (d0)>
func.func @in_place(%x: memref<4xf32>) {
  %y = memref.cast %x : memref<4xf32> to memref<?xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.addf %a, %a : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Views of one arena: disjoint constant byte ranges [0, 16) and [64, 80)
// give noalias; overlapping ranges [0, 16) and [8, 24) do not.
// CHECK-LABEL: func.func private @__pd_op_0(%arg0: memref<4xf32>, %arg1: memref<4xf32> {llvm.noalias})
// CHECK-LABEL: func.func private @__pd_op_1(%arg0: memref<4xf32>, %arg1: memref<4xf32>)
// CHECK-NEXT: linalg.generic
// CHECK-LABEL: func.func @arena
#id = affine_map<(d0) -> (d0)>
func.func @arena(%arena: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %a = memref.view %arena[%c0][] : memref<?xi8> to memref<4xf32>
  %b = memref.view %arena[%c64][] : memref<?xi8> to memref<4xf32>
  %c = memref.view %arena[%c8][] : memref<?xi8> to memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%c : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// A copy into a strided view becomes an outlined linalg.copy; a copy
// between identity layouts stays a memref.copy (one memcpy).
// CHECK-LABEL: func.func private @__pd_op_0(%arg0: memref<2x2xf32>, %arg1: memref<2x2xf32, strided<[4, 1], offset: 5>> {llvm.noalias})
// CHECK-NEXT: linalg.copy
// CHECK-LABEL: func.func @copies
// CHECK: call @__pd_op_0
// CHECK: memref.copy %arg0, %{{.*}} : memref<2x2xf32> to memref<2x2xf32>
func.func @copies(%x: memref<2x2xf32>) {
  %big = memref.alloc() : memref<4x4xf32>
  %s = memref.subview %big[1, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  memref.copy %x, %s : memref<2x2xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  %o = memref.alloc() : memref<2x2xf32>
  memref.copy %x, %o : memref<2x2xf32> to memref<2x2xf32>
  return
}

// -----

// Dynamic arena offsets: views of different slots of the memory plan
// (pd.arena_slot) are disjoint wherever an op uses both, also through a
// subview; views of one slot (an in-place chain) are not.
// CHECK-LABEL: func.func private @__pd_op_0(%arg0: memref<?xf32>, %arg1: memref<?xf32> {llvm.noalias})
// CHECK-LABEL: func.func private @__pd_op_1(%arg0: memref<?xf32>, %arg1: memref<2xf32, strided<[1], offset: ?>> {llvm.noalias})
// CHECK-LABEL: func.func private @__pd_op_2(%arg0: memref<?xf32>, %arg1: memref<?xf32>)
// CHECK-LABEL: func.func @slots
#id = affine_map<(d0) -> (d0)>
func.func @slots(%arena: memref<?xi8>, %o1: index, %o2: index, %n: index, %i: index) {
  %a = memref.view %arena[%o1][%n] {pd.arena_slot = 0 : i64} : memref<?xi8> to memref<?xf32>
  %b = memref.view %arena[%o2][%n] {pd.arena_slot = 1 : i64} : memref<?xi8> to memref<?xf32>
  %c = memref.view %arena[%o1][%n] {pd.arena_slot = 0 : i64} : memref<?xi8> to memref<?xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<?xf32>) outs(%b : memref<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  %s = memref.subview %b[%i] [2] [1] : memref<?xf32> to memref<2xf32, strided<[1], offset: ?>>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, #id], iterator_types = ["parallel"]}
      ins(%a : memref<?xf32>) outs(%s : memref<2xf32, strided<[1], offset: ?>>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<?xf32>) outs(%c : memref<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// The float ops of an op with a reduction loop may reassociate (so LLVM
// vectorizes the sum); an op without one keeps strict order, and integer
// ops have no flags.
// CHECK-LABEL: func.func private @__pd_op_0(
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : f32
// CHECK-LABEL: func.func private @__pd_op_1(
// CHECK: arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-LABEL: func.func private @__pd_op_2(
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: fastmath
#in = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @reductions(%x: memref<4x8xf32>, %o: memref<4xf32>, %xi: memref<4x8xi32>, %oi: memref<4xi32>, %y: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#in, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#in, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xi : memref<4x8xi32>) outs(%oi : memref<4xi32>) {
  ^bb0(%a: i32, %acc: i32):
    %s = arith.addi %acc, %a : i32
    linalg.yield %s : i32
  }
  linalg.generic {indexing_maps = [#in, #in], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  }
  return
}

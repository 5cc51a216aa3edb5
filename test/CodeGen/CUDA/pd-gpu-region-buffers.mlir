// RUN: paddle-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(pd-gpu-region-buffers))" --verify-diagnostics | FileCheck %s

// A pipeline stage's branches: the buffers they allocate move in front of
// the scf.if (where pd-plan-memory places them in the arena), and its
// result becomes a buffer of its own that the stage fills with a copy of
// what it computed and the other branch with the zeros it yielded (a
// fill: no constant in host memory reaches the host code).
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %[[X:.*]]: memref<4xf32>, %[[C:.*]]: i1) -> memref<4xf32>
// CHECK:         %[[Z:.*]] = memref.get_global @zeros
// CHECK:         %[[R:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK:         %[[T:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK:         scf.if %[[C]] {
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[X]] : memref<4xf32>) outs(%[[T]] : memref<4xf32>)
// CHECK:           memref.copy %[[T]], %[[R]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      linalg.fill ins(%[[ZERO]] : f32) outs(%[[R]] : memref<4xf32>)
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
#map = affine_map<(d0) -> (d0)>
module {
  memref.global "private" constant @zeros : memref<4xf32> = dense<0.0>
  func.func @main(%x: memref<4xf32>, %c: i1) -> memref<4xf32> {
    %z = memref.get_global @zeros : memref<4xf32>
    %r = scf.if %c -> (memref<4xf32>) {
      %t = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
      linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : memref<4xf32>) outs(%t : memref<4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %e = math.exp %in : f32
        linalg.yield %e : f32
      }
      scf.yield %t : memref<4xf32>
    } else {
      scf.yield %z : memref<4xf32>
    }
    return %r : memref<4xf32>
  }
}

// -----

// A branch buffer of dynamic size cannot have an arena slot before the
// branch: refused, naming it.
module {
  func.func @main(%n: index, %c: i1) {
    scf.if %c {
      // expected-error @+1 {{the cuda target needs the buffers of a branch to have static shapes, not 'memref<?xf32>'}}
      %t = memref.alloc(%n) : memref<?xf32>
      %zero = arith.constant 0.0 : f32
      linalg.fill ins(%zero : f32) outs(%t : memref<?xf32>)
    }
    return
  }
}

// -----

// So is a branch result of dynamic size (no buffer can be made for it in
// front of the branch).
module {
  func.func @main(%a: memref<?xf32>, %b: memref<?xf32>, %c: i1) -> memref<?xf32> {
    // expected-error @+1 {{the cuda target needs branch results with static shapes and identity layouts, not 'memref<?xf32>'}}
    %r = scf.if %c -> (memref<?xf32>) {
      scf.yield %a : memref<?xf32>
    } else {
      scf.yield %b : memref<?xf32>
    }
    return %r : memref<?xf32>
  }
}

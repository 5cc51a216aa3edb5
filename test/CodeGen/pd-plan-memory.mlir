// RUN: paddle-opt %s --split-input-file --pd-plan-memory | FileCheck %s
// RUN: paddle-opt %s --split-input-file --pd-plan-memory=report=true 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT

// Reuse after death: %a (256 B) dies at the reduction, so %c (256 B), born
// after it, takes the same offset; %b overlaps both and goes above them.
// Every offset is 64-byte aligned (%b holds 16 bytes). The result %out is
// in the arena too (live until the return), where %b was. Each view names
// its slot (pd.arena_slot; an in-place chain shares one, below).
// CHECK-LABEL: module attributes {pd.memory_plan = {arena_bytes = 512 : i64
// CHECK: func.func @main(%{{.*}}: memref<16xf32>, %[[ARENA:.*]]: memref<?xi8> {pd.arena})
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: %[[A:.*]] = memref.view %[[ARENA]][%[[C0]]][] {pd.arena_slot = 0 : i64} : memref<?xi8> to memref<4x16xf32>
// CHECK: %[[B:.*]] = memref.view %[[ARENA]][%[[C256]]][] {pd.arena_slot = 1 : i64} : memref<?xi8> to memref<4xf32>
// CHECK: %[[C:.*]] = memref.view %[[ARENA]][%[[C0]]][] {pd.arena_slot = 2 : i64} : memref<?xi8> to memref<4x16xf32>
// CHECK: %[[OUT:.*]] = memref.view %[[ARENA]][%[[C256]]][] {pd.arena_slot = 3 : i64} : memref<?xi8> to memref<4x16xf32>
// CHECK-NOT: memref.alloc
// CHECK: return %[[OUT]]
// CHECK: func.func @main_arena_bytes(%{{.*}}: memref<16xf32>) -> index
// CHECK: %[[N:.*]] = arith.constant 512 : index
// CHECK: return %[[N]]
// REPORT: pd-plan-memory: @main: 4 buffers in 4 slots (0 in place, 1 returned), 0 left to the heap (0 data-dependent)
// REPORT-NEXT: pd-plan-memory: arena 512 bytes, without reuse 832 bytes, saved 38.5%
// REPORT-NEXT: buffer 0: 256 bytes, live 2..4, offset 0
// REPORT-NEXT: buffer 1: 64 bytes, live 4..6, offset 256
// REPORT-NEXT: buffer 2: 256 bytes, live 6..8, offset 0
// REPORT-NEXT: buffer 3: 256 bytes, live 8..9, offset 256
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: memref<16xf32>) -> memref<4x16xf32> {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4x16xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<4x16xf32>)
  %b = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x16xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  %c = memref.alloc() : memref<4x16xf32>
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<4xf32>) outs(%c : memref<4x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  %out = memref.alloc() : memref<4x16xf32>
  memref.copy %c, %out : memref<4x16xf32> to memref<4x16xf32>
  return %out : memref<4x16xf32>
}

// -----

// Overlapping lifetimes: %a and %b are both live when the add runs, so they
// must not share memory; the add writes %r in place of %a (its last use),
// but not of %b, which is read again afterwards; the result %out goes in
// place of %r.
// CHECK-LABEL: module attributes {pd.memory_plan = {arena_bytes = 512 : i64
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: %[[A:.*]] = memref.view %{{.*}}[%[[C0]]][] {pd.arena_slot = 0 : i64}
// CHECK: %[[B:.*]] = memref.view %{{.*}}[%[[C256]]][] {pd.arena_slot = 1 : i64}
// CHECK: %[[R:.*]] = memref.view %{{.*}}[%[[C0]]][] {pd.arena_slot = 0 : i64}
// CHECK: linalg.generic {{.*}} ins(%[[A]], %[[B]] : {{.*}}) outs(%[[R]] :
// CHECK: %[[OUT:.*]] = memref.view %{{.*}}[%[[C0]]][] {pd.arena_slot = 0 : i64}
// CHECK: linalg.generic {{.*}} ins(%[[R]], %[[B]] : {{.*}}) outs(%[[OUT]] :
// CHECK: return %[[OUT]]
// REPORT: pd-plan-memory: @main: 4 buffers in 2 slots (2 in place, 1 returned), 0 left to the heap
// REPORT: buffer 2: 256 bytes, live 5..7, offset 0, in place of buffer 0
// REPORT: buffer 3: 256 bytes, live 7..8, offset 0, in place of buffer 2
// REPORT: buffer 1: 256 bytes, live 3..7, offset 256
#id = affine_map<(d0) -> (d0)>
func.func @main(%x: memref<64xf32>) -> memref<64xf32> {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %x, %a : memref<64xf32> to memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  memref.copy %x, %b : memref<64xf32> to memref<64xf32>
  %r = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : memref<64xf32>, memref<64xf32>) outs(%r : memref<64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  }
  %out = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%r, %b : memref<64xf32>, memref<64xf32>) outs(%out : memref<64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.mulf %p, %q : f32
    linalg.yield %s : f32
  }
  return %out : memref<64xf32>
}

// -----

// No in-place write through a non-identity read (a transpose) or when the
// element size differs.
// CHECK-LABEL: module attributes {pd.memory_plan = {arena_bytes = 768 : i64
// REPORT: pd-plan-memory: @main: 4 buffers in 4 slots (0 in place, 1 returned)
// REPORT: buffer 0: 256 bytes, live 1..3, offset 0
// REPORT: buffer 1: 256 bytes, live 3..5, offset 512
// REPORT: buffer 2: 512 bytes, live 5..7, offset 0
// REPORT: buffer 3: 256 bytes, live 7..8, offset 512
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @main(%x: memref<8x8xf32>) -> memref<8x8xf32> {
  %a = memref.alloc() : memref<8x8xf32>
  memref.copy %x, %a : memref<8x8xf32> to memref<8x8xf32>
  %t = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<8x8xf32>) outs(%t : memref<8x8xf32>) {
  ^bb0(%p: f32, %o: f32):
    linalg.yield %p : f32
  }
  %w = memref.alloc() : memref<8x8xf64>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<8x8xf32>) outs(%w : memref<8x8xf64>) {
  ^bb0(%p: f32, %o: f64):
    %e = arith.extf %p : f32 to f64
    linalg.yield %e : f64
  }
  %out = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<8x8xf64>) outs(%out : memref<8x8xf32>) {
  ^bb0(%p: f64, %o: f32):
    %e = arith.truncf %p : f64 to f32
    linalg.yield %e : f32
  }
  return %out : memref<8x8xf32>
}

// -----

// Dynamic dims: sizes and offsets are expressions of the input dims,
// computed by @main_arena_offsets (called by @main, which loads each offset
// from the table it fills) and by @main_arena_bytes (for the runtime); the
// reshape keeps %a alive until its view's last use. A size read from data
// stays on the heap.
// CHECK-LABEL: module attributes {pd.memory_plan = {arena_bytes = -1 : i64, arena_bytes_at_hint = 768 : i64
// CHECK: func.func @main(%[[X:.*]]: memref<?x4xf32>, %[[ARENA:.*]]: memref<?xi8> {pd.arena})
// CHECK: %[[D:.*]] = memref.dim %[[X]]
// CHECK: %[[TABLE:.*]] = memref.alloca() : memref<3xindex>
// CHECK: call @main_arena_offsets(%[[X]], %[[TABLE]])
// CHECK: %[[OFF0:.*]] = memref.load %[[TABLE]][%{{.*}}] : memref<3xindex>
// CHECK-NOT: arith.maxui
// CHECK: memref.view %[[ARENA]][%[[OFF0]]][%[[D]]] {pd.arena_slot = {{[0-9]}} : i64} : memref<?xi8> to memref<?x4xf32>
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: func.func @main_arena_bytes(%[[Y:.*]]: memref<?x4xf32>) -> index
// CHECK: memref.dim %[[Y]]
// CHECK: arith.maxui
// CHECK: return
// CHECK: func.func private @main_arena_offsets(%[[Z:.*]]: memref<?x4xf32>, %[[T:.*]]: memref<3xindex>) -> index
// CHECK: memref.dim %[[Z]]
// CHECK: arith.maxui
// CHECK-COUNT-3: memref.store %{{.*}}, %[[T]]
// CHECK: return
// REPORT: pd-plan-memory: @main: 3 buffers in 3 slots (0 in place, 0 returned), 2 left to the heap (2 data-dependent)
// REPORT: arena 768 bytes, without reuse 768 bytes, saved 0.0% (dynamic dims taken as 16)
func.func @main(%x: memref<?x4xf32>) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %d = memref.dim %x, %c0 : memref<?x4xf32>
  %a = memref.alloc(%d) : memref<?x4xf32>
  memref.copy %x, %a : memref<?x4xf32> to memref<?x4xf32>
  %flat = memref.collapse_shape %a [[0, 1]] : memref<?x4xf32> into memref<?xf32>
  %b = memref.alloc(%d) : memref<?x4xf32>
  memref.copy %x, %b : memref<?x4xf32> to memref<?x4xf32>
  %c = memref.alloc(%d) : memref<?x4xf32>
  memref.copy %b, %c : memref<?x4xf32> to memref<?x4xf32>
  %n = memref.load %x[%c0, %c0] : memref<?x4xf32>
  %ni = arith.fptosi %n : f32 to i32
  %nn = arith.index_cast %ni : i32 to index
  %out = memref.alloc(%nn) : memref<?xf32>
  %heap = memref.alloc(%nn) : memref<?xf32>
  memref.copy %heap, %out : memref<?xf32> to memref<?xf32>
  %e = memref.subview %flat[0] [%nn] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
  memref.copy %e, %out : memref<?xf32, strided<[1]>> to memref<?xf32>
  memref.copy %c, %b : memref<?x4xf32> to memref<?x4xf32>
  return %out : memref<?xf32>
}

// -----

// A convolution kernel with a residual writes in place of the residual when
// it is the residual's last use and both have one layout (ints 12 and 13):
// %b takes %a's slot. %d cannot take %c's: %c is read again afterwards.
// %c, %e and %f cannot take their residual's: its layout (ints 12) differs
// from the destination's (ints 13).
// REPORT: pd-plan-memory: @main: 6 buffers in 5 slots (1 in place, 1 returned)
// REPORT: buffer 1: 512 bytes, live 3..5, offset 0, in place of buffer 0
// CHECK: func.func @main(%{{.*}}: memref<1x8x4x4xf32>, %{{.*}}: memref<8x8x1x1xf32>, %{{.*}}: memref<?xi8> {pd.arena})
// CHECK: %[[A:.*]] = memref.view %{{.*}}[%[[OFF:.*]]][] {pd.arena_slot = [[S:[0-9]+]] : i64}
// CHECK: %[[B:.*]] = memref.view %{{.*}}[%[[OFF]]][] {pd.arena_slot = [[S]] : i64}
// CHECK: pd.kernel_call "pdk_conv2d"(%arg0, %arg1, %[[A]]) init(%[[B]])
func.func @main(%x: memref<1x8x4x4xf32>, %w: memref<8x8x1x1xf32>) -> memref<1x8x4x4xf32> {
  %a = memref.alloc() : memref<1x8x4x4xf32>
  pd.kernel_call "pdk_conv2d"(%x, %w) init(%a) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, -1>, floats = array<f32: 0.0, 0.0>} : (memref<1x8x4x4xf32>, memref<8x8x1x1xf32>, memref<1x8x4x4xf32>) -> ()
  %b = memref.alloc() : memref<1x8x4x4xf32>
  pd.kernel_call "pdk_conv2d"(%x, %w, %a) init(%b) {slots = array<i64: 0, 1, -1, 2>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, -1, -1>, floats = array<f32: 0.0, 0.0>} : (memref<1x8x4x4xf32>, memref<8x8x1x1xf32>, memref<1x8x4x4xf32>, memref<1x8x4x4xf32>) -> ()
  %c = memref.alloc() : memref<1x8x4x4xf32>
  pd.kernel_call "pdk_conv2d"(%x, %w, %b) init(%c) {slots = array<i64: 0, 1, -1, 2>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, -1, 0>, floats = array<f32: 0.0, 0.0>} : (memref<1x8x4x4xf32>, memref<8x8x1x1xf32>, memref<1x8x4x4xf32>, memref<1x8x4x4xf32>) -> ()
  %d = memref.alloc() : memref<1x8x4x4xf32>
  pd.kernel_call "pdk_conv2d"(%x, %w, %c) init(%d) {slots = array<i64: 0, 1, -1, 2>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (memref<1x8x4x4xf32>, memref<8x8x1x1xf32>, memref<1x8x4x4xf32>, memref<1x8x4x4xf32>) -> ()
  %e = memref.alloc() : memref<1x8x4x4xf32>
  pd.kernel_call "pdk_conv2d"(%c, %w, %d) init(%e) {slots = array<i64: 0, 1, -1, 2>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, -1>, floats = array<f32: 0.0, 0.0>} : (memref<1x8x4x4xf32>, memref<8x8x1x1xf32>, memref<1x8x4x4xf32>, memref<1x8x4x4xf32>) -> ()
  %f = memref.alloc() : memref<1x8x4x4xf32>
  pd.kernel_call "pdk_conv2d"(%x, %w, %e) init(%f) {slots = array<i64: 0, 1, -1, 2>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, -1, 0>, floats = array<f32: 0.0, 0.0>} : (memref<1x8x4x4xf32>, memref<8x8x1x1xf32>, memref<1x8x4x4xf32>, memref<1x8x4x4xf32>) -> ()
  return %f : memref<1x8x4x4xf32>
}

// -----

// A buffer whose address a call takes (a cuda library call, formed before
// the plan) lives until that call, not until the address is taken: %a's
// address is taken before %c is first used, but the call that reads it
// comes after, so %c does not get %a's bytes.
// CHECK-LABEL: func.func private @use(i64, i64)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: memref.view %{{.*}}[%[[C0]]][] {pd.arena_slot = 0 : i64} : memref<?xi8> to memref<4x16xf32>
// CHECK: memref.view %{{.*}}[%[[C256]]][] {pd.arena_slot = 1 : i64} : memref<?xi8> to memref<4x16xf32>
// CHECK: call @use(
func.func private @use(i64, i64)
func.func @main() {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4x16xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<4x16xf32>)
  %pa = memref.extract_aligned_pointer_as_index %a : memref<4x16xf32> -> index
  %ia = arith.index_cast %pa : index to i64
  %c = memref.alloc() : memref<4x16xf32>
  %pc = memref.extract_aligned_pointer_as_index %c : memref<4x16xf32> -> index
  %ic = arith.index_cast %pc : index to i64
  call @use(%ia, %ic) : (i64, i64) -> ()
  return
}

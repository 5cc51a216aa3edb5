// RUN: paddle-opt %s --split-input-file --pd-forward-arena-results | FileCheck %s

// Tests that a result cloned from an arena view is returned as the view
// itself, and which clones stay.

// The clone of an arena view (through a reshape) goes; its other use (a
// dealloc's retain list) takes the view too.
// CHECK-LABEL: func.func @main(
// CHECK: %[[V:.*]] = memref.view
// CHECK: %[[F:.*]] = memref.collapse_shape %[[V]]
// CHECK-NOT: bufferization.clone
// CHECK: bufferization.dealloc {{.*}} retain (%[[F]] : memref<8xf32>)
// CHECK: return %[[F]]
func.func @main(%x: memref<4xf32>, %arena: memref<?xi8> {pd.arena}) -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %v = memref.view %arena[%c0][] : memref<?xi8> to memref<2x4xf32>
  %f = memref.collapse_shape %v [[0, 1]] : memref<2x4xf32> into memref<8xf32>
  %c = bufferization.clone %f : memref<8xf32> to memref<8xf32>
  %h = memref.alloc() : memref<4xf32>
  %o = bufferization.dealloc (%h : memref<4xf32>) if (%true) retain (%c : memref<8xf32>)
  return %c : memref<8xf32>
}

// -----

// Stays: a clone of an argument that is not the arena, and a clone that
// changes the layout (a strided view returned dense: the clone is the copy).
// CHECK-LABEL: func.func @main(
// CHECK-COUNT-2: bufferization.clone
func.func @main(%x: memref<4xf32>, %arena: memref<?xi8> {pd.arena}) -> (memref<4xf32>, memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %a = bufferization.clone %x : memref<4xf32> to memref<4xf32>
  %v = memref.view %arena[%c0][] : memref<?xi8> to memref<4xf32>
  %s = memref.subview %v[0] [2] [2] : memref<4xf32> to memref<2xf32, strided<[2]>>
  %b = bufferization.clone %s : memref<2xf32, strided<[2]>> to memref<2xf32>
  return %a, %b : memref<4xf32>, memref<2xf32>
}

// -----

// A train step's update written in place: the result marked pd.update is
// the pd.param argument of the same name, returned without the clone; a
// clone of a parameter returned under another name, or as a plain result,
// stays.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[W:[^:]*]]: memref<4xf32> {pd.param = "w"}
// CHECK-SAME: %[[V:[^:]*]]: memref<4xf32> {pd.param = "v"}
// CHECK: %[[C1:.*]] = bufferization.clone %[[V]]
// CHECK: %[[C2:.*]] = bufferization.clone %[[W]]
// CHECK: return %[[W]], %[[C1]], %[[C2]]
func.func @main(%w: memref<4xf32> {pd.param = "w"}, %v: memref<4xf32> {pd.param = "v"}) -> (memref<4xf32> {pd.update = "w"}, memref<4xf32> {pd.update = "w2"}, memref<4xf32> {pd.name = "out"}) {
  %a = bufferization.clone %w : memref<4xf32> to memref<4xf32>
  %b = bufferization.clone %v : memref<4xf32> to memref<4xf32>
  %c = bufferization.clone %w : memref<4xf32> to memref<4xf32>
  return %a, %b, %c : memref<4xf32>, memref<4xf32>, memref<4xf32>
}

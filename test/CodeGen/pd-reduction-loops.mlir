// RUN: paddle-opt %s --pd-reduction-loops --split-input-file | FileCheck %s

// Per-channel sums over N, H, W (batch_norm's gradient): the outputs are
// loaded once per (n, c), H and W run as one loop of 3136 over a collapsed
// view carrying both partial sums, and the results are stored after it.
#nchw = affine_map<(n, c, h, w) -> (n, c, h, w)>
#chan = affine_map<(n, c, h, w) -> (c)>
// CHECK-LABEL: func.func @channel_sums
// CHECK-DAG:     %[[C3136:.*]] = arith.constant 3136 : index
// CHECK-DAG:     %[[G:.*]] = memref.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : memref<8x16x56x56xf32> into memref<8x16x3136xf32>
// CHECK-DAG:     %[[V:.*]] = memref.collapse_shape %arg1 {{\[\[}}0], [1], [2, 3]]
// CHECK:         scf.for %[[N:.*]] =
// CHECK:           scf.for %[[C:.*]] =
// CHECK:             %[[S0:.*]] = memref.load %arg3[%[[C]]]
// CHECK:             %[[S1:.*]] = memref.load %arg4[%[[C]]]
// CHECK:             %[[R:.*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %[[C3136]] step %{{.*}} iter_args(%[[A0:.*]] = %[[S0]], %[[A1:.*]] = %[[S1]]) -> (f32, f32) {
// CHECK-NOT:           memref.store
// CHECK:               %[[DYV:.*]] = memref.load %[[G]][%[[N]], %[[C]], %[[I]]]
// CHECK:               %[[XV:.*]] = memref.load %[[V]][%[[N]], %[[C]], %[[I]]]
// CHECK:               %[[MEAN:.*]] = memref.load %arg2[%[[C]]]
// CHECK:               %[[D:.*]] = arith.subf %[[XV]], %[[MEAN]]
// CHECK:               %[[T0:.*]] = arith.addf %[[A0]], %[[DYV]]
// CHECK:               %[[P:.*]] = arith.mulf %[[DYV]], %[[D]]
// CHECK:               %[[T1:.*]] = arith.addf %[[A1]], %[[P]]
// CHECK:               scf.yield %[[T0]], %[[T1]] : f32, f32
// CHECK:             memref.store %[[R]]#0, %arg3[%[[C]]]
// CHECK:             memref.store %[[R]]#1, %arg4[%[[C]]]
func.func @channel_sums(%dy: memref<8x16x56x56xf32>, %x: memref<8x16x56x56xf32>,
                        %mean: memref<16xf32>, %s0: memref<16xf32>, %s1: memref<16xf32>) {
  linalg.generic {indexing_maps = [#nchw, #nchw, #chan, #chan, #chan],
                  iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%dy, %x, %mean : memref<8x16x56x56xf32>, memref<8x16x56x56xf32>, memref<16xf32>)
      outs(%s0, %s1 : memref<16xf32>, memref<16xf32>) {
  ^bb0(%g: f32, %v: f32, %m: f32, %a: f32, %b: f32):
    %d = arith.subf %v, %m fastmath<reassoc,contract> : f32
    %0 = arith.addf %a, %g fastmath<reassoc,contract> : f32
    %1 = arith.mulf %g, %d fastmath<reassoc,contract> : f32
    %2 = arith.addf %b, %1 fastmath<reassoc,contract> : f32
    linalg.yield %0, %2 : f32, f32
  }
  return
}

// -----

// A strided view cannot be collapsed, and a body that reads an inner index
// needs it: both keep one loop per reduced dim, still accumulating in
// registers.
#id = affine_map<(i, j, k) -> (i, j, k)>
#row = affine_map<(i, j, k) -> (i)>
// CHECK-LABEL: func.func @strided_and_indexed
// CHECK-NOT:     memref.collapse_shape
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           %[[INIT:.*]] = memref.load %arg1[%[[I]]]
// CHECK:           %[[OUT:.*]] = scf.for %[[J:.*]] = {{.*}} iter_args(%[[A:.*]] = %[[INIT]]) -> (f32) {
// CHECK:             %[[IN:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (f32) {
// CHECK:               memref.load %arg0[%[[I]], %[[J]], %[[K]]]
// CHECK:               arith.index_cast %[[K]]
// CHECK:           memref.store %[[OUT]], %arg1[%[[I]]]
func.func @strided_and_indexed(%in: memref<4x5x6xf32, strided<[60, 12, 2]>>, %out: memref<4xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%in : memref<4x5x6xf32, strided<[60, 12, 2]>>) outs(%out : memref<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %k = linalg.index 2 : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f32
    %p = arith.mulf %v, %kf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A reduction its output indexes innermost (a column sum), and an
// elementwise op, are left to convert-linalg-to-loops.
#ij = affine_map<(i, j) -> (i, j)>
#j = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @left_alone
// CHECK:         linalg.generic
// CHECK:         linalg.generic
func.func @left_alone(%in: memref<4x8xf32>, %col: memref<8xf32>, %out: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#ij, #j], iterator_types = ["reduction", "parallel"]}
      ins(%in : memref<4x8xf32>) outs(%col : memref<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#ij, #ij], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<4x8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %v : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A full reduction to a scalar: no outer loops.
#all = affine_map<(i, j) -> (i, j)>
#none = affine_map<(i, j) -> ()>
// CHECK-LABEL: func.func @to_scalar
// CHECK:         %[[INIT:.*]] = memref.load %arg1[]
// CHECK:         %[[S:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (f32)
// CHECK:         memref.store %[[S]], %arg1[]
func.func @to_scalar(%in: memref<4x8xf32>, %out: memref<f32>) {
  linalg.generic {indexing_maps = [#all, #none], iterator_types = ["reduction", "reduction"]}
      ins(%in : memref<4x8xf32>) outs(%out : memref<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  return
}

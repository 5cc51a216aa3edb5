// RUN: paddle-opt %s --split-input-file --pd-gpu-block-reductions="threads=256" | FileCheck %s

// A row sum over 100 elements: one block per row (64 blocks) of 128
// threads (100 rounded up to whole warps); thread t adds elements t,
// t + 128, ... from -0 (the neutral element of addf), the block's partial
// sums are combined by gpu.all_reduce, and thread 0 adds the row's initial
// value and stores the sum.
// CHECK-LABEL: func.func @row_sum
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK:         gpu.launch blocks(%[[B:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C64]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C128]],
// CHECK:           %[[NEG0:.*]] = arith.constant -0.000000e+00 : f32
// CHECK:           %[[P:.*]] = scf.for %[[K:.*]] = %[[T]] to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[NEG0]]) -> (f32) {
// CHECK:             %[[X:.*]] = memref.load %arg0[%[[B]], %[[K]]] : memref<64x100xf32>
// CHECK:             %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK:             scf.yield %[[S]] : f32
// CHECK:           %[[R:.*]] = gpu.all_reduce  add %[[P]] uniform {
// CHECK:           %[[FIRST:.*]] = arith.cmpi eq, %[[T]], %{{.*}} : index
// CHECK:           scf.if %[[FIRST]] {
// CHECK:             %[[OLD:.*]] = memref.load %arg1[%[[B]]] : memref<64xf32>
// CHECK:             %[[NEW:.*]] = arith.addf %[[OLD]], %[[R]] : f32
// CHECK:             memref.store %[[NEW]], %arg1[%[[B]]] : memref<64xf32>
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.generic
func.func @row_sum(%x: memref<64x100xf32>, %s: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x100xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Two outer and two reduced loops (a spatial sum per image and channel):
// 2 * 3 blocks, the block's position delinearized into (n, c) and the
// thread's strided position into (h, w); 256 threads for 1024 elements.
// layer_norm's variance: the body computes from the input and a per-row
// value before the combiner; a max starts from -inf.
// CHECK-LABEL: func.func @spatial_sum_and_variance
// CHECK:         gpu.launch blocks(%[[B:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c6
// CHECK-SAME:      threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256
// CHECK-DAG:       %[[C:.*]] = arith.remui %[[B]], %c3
// CHECK-DAG:       %[[N:.*]] = arith.divui %[[B]], %c3
// CHECK:           scf.for %[[K:.*]] = %[[T]] to %c1024 step %c256
// CHECK-DAG:         %[[W:.*]] = arith.remui %[[K]], %c32
// CHECK-DAG:         %[[H:.*]] = arith.divui %[[K]], %c32
// CHECK:             memref.load %arg0[%[[N]], %[[C]], %[[H]], %[[W]]]
// CHECK:           gpu.all_reduce  add
// CHECK:           memref.store %{{.*}}, %arg1[%[[N]], %[[C]]]
// CHECK:         gpu.launch
// CHECK:           scf.for
// CHECK:             %[[D:.*]] = arith.subf
// CHECK:             %[[SQ:.*]] = arith.mulf %[[D]], %[[D]]
// CHECK:             arith.addf %{{.*}}, %[[SQ]]
// CHECK:           gpu.all_reduce  add
// CHECK:         gpu.launch
// CHECK:           arith.constant 0xFF800000 : f32
// CHECK:           gpu.all_reduce  maximumf
func.func @spatial_sum_and_variance(%x: memref<2x3x32x32xf32>, %s: memref<2x3xf32>,
                                    %r: memref<8x768xf32>, %mean: memref<8xf32>,
                                    %var: memref<8xf32>, %max: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : memref<2x3x32x32xf32>) outs(%s : memref<2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%r, %mean : memref<8x768xf32>, memref<8xf32>) outs(%var : memref<8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = arith.mulf %0, %0 : f32
    %2 = arith.addf %out, %1 : f32
    linalg.yield %2 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%r : memref<8x768xf32>) outs(%max : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Integer combiners start from their neutral elements: max (signed) from
// INT_MIN, and (bitwise) from all ones; a full reduction (no outer loop)
// is one block.
// CHECK-LABEL: func.func @integers
// CHECK:         gpu.launch
// CHECK:           arith.constant -2147483648 : i32
// CHECK:           gpu.all_reduce  maxsi
// CHECK:           arith.maxsi
// CHECK:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c1{{(_[0-9]+)?}},
// CHECK:           arith.constant -1 : i32
// CHECK:           gpu.all_reduce  and
// CHECK:           memref.store %{{.*}}, %arg2[] : memref<i32>
func.func @integers(%x: memref<16x64xi32>, %m: memref<16xi32>, %a: memref<i32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<16x64xi32>) outs(%m : memref<16xi32>) {
  ^bb0(%in: i32, %out: i32):
    %0 = arith.maxsi %out, %in : i32
    linalg.yield %0 : i32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                  iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<16x64xi32>) outs(%a : memref<i32>) {
  ^bb0(%in: i32, %out: i32):
    %0 = arith.andi %in, %out : i32
    linalg.yield %0 : i32
  }
  return
}

// -----

// What stays one thread per output (pd-gpu-map-loops): a sum over the
// leading axis (consecutive threads already read consecutive elements), a
// matrix product (each row of A serves every column), a row of 16 (under
// min-length 32), an arg-max (the index output depends on the value
// output), an f16 sum, and a reduction with a dynamic size.
// CHECK-LABEL: func.func @not_block_reductions
// CHECK-NOT:     gpu.launch
// CHECK-COUNT-6: linalg.generic
// CHECK-NOT:     gpu.launch
func.func @not_block_reductions(%x: memref<100x64xf32>, %col: memref<64xf32>,
                                %a: memref<8x100xf32>, %b: memref<100x64xf32>, %c: memref<8x64xf32>,
                                %short: memref<8x16xf32>, %s8: memref<8xf32>, %i8: memref<8xi32>,
                                %h: memref<8x64xf16>, %h8: memref<8xf16>, %d: memref<8x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<100x64xf32>) outs(%col : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x100xf32>, memref<100x64xf32>) outs(%c : memref<8x64xf32>) {
  ^bb0(%u: f32, %v: f32, %out: f32):
    %0 = arith.mulf %u, %v : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%short : memref<8x16xf32>) outs(%s8 : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<8x100xf32>) outs(%s8, %i8 : memref<8xf32>, memref<8xi32>) {
  ^bb0(%in: f32, %best: f32, %at: i32):
    %k = linalg.index 1 : index
    %ki = arith.index_cast %k : index to i32
    %gt = arith.cmpf ogt, %in, %best : f32
    %v = arith.select %gt, %in, %best : f32
    %i = arith.select %gt, %ki, %at : i32
    linalg.yield %v, %i : f32, i32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%h : memref<8x64xf16>) outs(%h8 : memref<8xf16>) {
  ^bb0(%in: f16, %out: f16):
    %0 = arith.addf %out, %in : f16
    linalg.yield %0 : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%d : memref<8x?xf32>) outs(%s8 : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  }
  return
}

// RUN: paddle-opt %s --split-input-file --pd-parallelize-ops | FileCheck %s
// RUN: paddle-opt %s --split-input-file --pd-parallelize-ops="min-work=1000000" | FileCheck %s --check-prefix=BIG

// Tests that an outlined op becomes a pdk_parallel_for call over one of its
// parallel loops, with a task that unpacks the argument record and a range
// function holding the op tiled to [lo, hi).

// [1, 128, 768]: the batch of 1 is skipped, loop 1 (128) is split; the
// output keeps llvm.noalias in the range function; work = 1 * 128 * 768.
// BIG-LABEL: func.func private @__pd_op_0(
// BIG-NEXT: arith.constant
// BIG-NEXT: linalg.generic
// CHECK-LABEL: func.func private @__pd_op_0_range(%arg0: memref<1x128x768xf32>, %arg1: memref<1x128x768xf32> {llvm.noalias}, %arg2: index, %arg3: index)
// CHECK: %[[N:.*]] = arith.subi %arg3, %arg2
// CHECK-DAG: memref.subview %arg0[0, %arg2, 0] [1, %[[N]], 768] [1, 1, 1]
// CHECK-DAG: memref.subview %arg1[0, %arg2, 0] [1, %[[N]], 768] [1, 1, 1]
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK-LABEL: func.func private @__pd_op_0_task(%arg0: !llvm.ptr, %arg1: i64, %arg2: i64)
// CHECK: llvm.getelementptr %arg0[0, 0]
// CHECK: %[[A:.*]] = builtin.unrealized_conversion_cast {{.*}} to memref<1x128x768xf32>
// CHECK: llvm.getelementptr %arg0[0, 1]
// CHECK: %[[B:.*]] = builtin.unrealized_conversion_cast {{.*}} to memref<1x128x768xf32>
// CHECK: %[[LO:.*]] = arith.index_cast %arg1 : i64 to index
// CHECK: %[[HI:.*]] = arith.index_cast %arg2 : i64 to index
// CHECK: call @__pd_op_0_range(%[[A]], %[[B]], %[[LO]], %[[HI]])
// CHECK-LABEL: func.func private @__pd_op_0(%arg0: memref<1x128x768xf32>, %arg1: memref<1x128x768xf32> {llvm.noalias})
// CHECK-NOT: linalg.generic
// CHECK: %[[REC:.*]] = llvm.alloca {{.*}} x !llvm.struct<(struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)>, struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)>)>
// CHECK: llvm.store
// CHECK: llvm.store
// CHECK: %[[F:.*]] = constant @__pd_op_0_task
// CHECK: call @pdk_parallel_for(%[[F]], %[[REC]], %{{.*}}, %{{.*}})
// CHECK: func.func @main
// CHECK: call @__pd_op_0(%arg0, %arg1)
// CHECK: func.func private @pdk_parallel_for((!llvm.ptr, i64, i64) -> (), !llvm.ptr, i64, i64)
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func private @__pd_op_0(%x: memref<1x128x768xf32>, %o: memref<1x128x768xf32> {llvm.noalias}) {
  %c2 = arith.constant 2.0 : f32
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<1x128x768xf32>) outs(%o : memref<1x128x768xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %c2 : f32
    linalg.yield %m : f32
  }
  return
}
func.func @main(%x: memref<1x128x768xf32>, %o: memref<1x128x768xf32>) {
  call @__pd_op_0(%x, %o) : (memref<1x128x768xf32>, memref<1x128x768xf32>) -> ()
  return
}

// -----

// A dynamic row count with a reduction: the dynamic parallel loop is
// split (never the reduction), linalg.index is shifted by lo, and n and
// work are computed from the buffers at run time.
// CHECK-LABEL: func.func private @__pd_op_1_range(%arg0: memref<?x64xf32>, %arg1: memref<?xf32>, %arg2: index, %arg3: index)
// CHECK: memref.subview %arg0[%arg2, 0] [%{{.*}}, 64] [1, 1]
// CHECK: memref.subview %arg1[%arg2] [%{{.*}}] [1]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: affine.apply #{{.*}}()[%[[I]], %arg2]
// CHECK-LABEL: func.func private @__pd_op_1(%arg0: memref<?x64xf32>, %arg1: memref<?xf32>)
// CHECK: %[[ROWS:.*]] = memref.dim %arg0, %c0
// CHECK: %[[W:.*]] = arith.muli {{.*}}%c64
// CHECK: %[[N64:.*]] = arith.index_cast %[[ROWS]] : index to i64
// CHECK: %[[W64:.*]] = arith.index_cast %[[W]] : index to i64
// CHECK: call @pdk_parallel_for(%{{.*}}, %{{.*}}, %[[N64]], %[[W64]])
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func private @__pd_op_1(%x: memref<?x64xf32>, %o: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x64xf32>) outs(%o : memref<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %m = arith.addf %a, %b : f32
    %n = arith.addf %m, %f : f32
    linalg.yield %n : f32
  }
  return
}

// -----

// A window (max pooling over [N, C, H, W]): loop 1 (C = 8) is split, and
// the input view follows it through the op's indexing map.
// CHECK-LABEL: func.func private @__pd_op_2_range(
// CHECK: memref.subview %arg0[0, %arg3, 0, 0] [2, %{{.*}}, 9, 9]
// CHECK: linalg.pooling_nchw_max
// CHECK: call @pdk_parallel_for
func.func private @__pd_op_2(%x: memref<2x8x9x9xf32>, %k: memref<3x3xf32>, %o: memref<2x8x7x7xf32>) {
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k : memref<2x8x9x9xf32>, memref<3x3xf32>) outs(%o : memref<2x8x7x7xf32>)
  return
}

// -----

// Stays as it is: too little work (16 iterations), only reduction loops,
// a function that is not an outlined op, an outlined function with two ops.
// CHECK: // -----
// CHECK-NOT: pdk_parallel_for
// CHECK-LABEL: func.func private @__pd_op_3(
// CHECK-NEXT: linalg.generic
// CHECK-LABEL: func.func private @__pd_op_4(
// CHECK-NEXT: linalg.generic
// CHECK-LABEL: func.func @not_outlined(
// CHECK-NEXT: linalg.generic
// CHECK-LABEL: func.func private @__pd_op_5(
// CHECK: linalg.fill
// CHECK-NEXT: linalg.fill
// CHECK-NOT: pdk_parallel_for
#id = affine_map<(d0) -> (d0)>
#all = affine_map<(d0) -> ()>
func.func private @__pd_op_3(%x: memref<16xf32>, %o: memref<16xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<16xf32>) outs(%o : memref<16xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}
func.func private @__pd_op_4(%x: memref<100000xf32>, %o: memref<f32>) {
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%x : memref<100000xf32>) outs(%o : memref<f32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}
func.func @not_outlined(%x: memref<100000xf32>, %o: memref<100000xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<100000xf32>) outs(%o : memref<100000xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}
func.func private @__pd_op_5(%o: memref<100000xf32>, %p: memref<100000xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%o : memref<100000xf32>)
  linalg.fill ins(%z : f32) outs(%p : memref<100000xf32>)
  return
}

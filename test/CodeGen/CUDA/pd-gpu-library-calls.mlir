// RUN: paddle-opt %s --split-input-file --pd-gpu-library-calls --canonicalize | FileCheck %s
// RUN: paddle-opt %s --split-input-file --pd-gpu-library-calls="allow-tf32=true" --canonicalize | FileCheck %s --check-prefix=TF32

// An fc on an arena view: the zero fill before it is dropped (beta 0), the
// product becomes pdcu_matmul on the buffers' device addresses: site 0,
// batch 1, m 8, n 32, k 64, neither input transposed, no batch strides.
// CHECK-LABEL: module attributes {pd.library_calls = [{accumulate = false, batch = 1 : i64, k = 64 : i64, library = "cublasLt", m = 8 : i64, n = 32 : i64, op = "matmul", site = 0 : i64, tf32 = false, trans_a = false, trans_b = false}]}
// CHECK-LABEL: func.func @fc
// CHECK-NOT:     linalg.fill
// CHECK-DAG:     %[[BETA:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[A:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK-DAG:     %[[B:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK-DAG:     %[[C:.*]] = memref.extract_aligned_pointer_as_index %[[VIEW:.*]] : memref<8x32xf32>
// CHECK-DAG:     %[[AI:.*]] = arith.index_cast %[[A]] : index to i64
// CHECK-DAG:     %[[BI:.*]] = arith.index_cast %[[B]] : index to i64
// CHECK-DAG:     %[[CI:.*]] = arith.index_cast %[[C]] : index to i64
// CHECK:         call @pdcu_matmul(%c0_i64, %[[AI]], %[[BI]], %[[CI]], %c1_i64, %c8_i64, %c32_i64, %c64_i64, %c0_i32, %c0_i32, %c0_i64, %c0_i64, %c0_i64, %[[BETA]], %c0_i32)
// CHECK-NOT:     linalg.generic
// The same problem without addresses, for the runtime to plan at load:
// CHECK:       func.func @pd_plan_library_calls() {
// CHECK:         call @pdcu_plan_matmul(%c0_i64, %c1_i64, %c8_i64, %c32_i64, %c64_i64, %c0_i32, %c0_i32, %c0_i64, %c0_i64, %c0_i64, %c0_i32)
// CHECK:       func.func private @pdcu_matmul(i64, i64, i64, i64, i64, i64, i64, i64, i32, i32, i64, i64, i64, f32, i32)
// CHECK:       func.func private @pdcu_plan_matmul(i64, i64, i64, i64, i64, i32, i32, i64, i64, i64, i32)
// TF32:        call @pdcu_matmul({{.*}}, %c1_i32)
func.func @fc(%x: memref<8x64xf32>, %w: memref<64x32xf32>, %arena: memref<?xi8>) -> memref<8x32xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.view %arena[%c0][] : memref<?xi8> to memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<8x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d2)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x, %w : memref<8x64xf32>, memref<64x32xf32>) outs(%c : memref<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  return %c : memref<8x32xf32>
}

// -----

// Attention's products over [batch, heads]: Q K^T (right input transposed)
// and P V with P transposed (left input), 2 * 4 matrices each, batch
// strides of one matrix; with no fill before them they accumulate (beta 1).
// CHECK-LABEL: func.func @attention
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         call @pdcu_matmul(%c0_i64, %{{.*}}, %{{.*}}, %{{.*}}, %c8_i64, %c16_i64, %c16_i64, %c8_i64, %c0_i32, %c1_i32, %c128_i64, %c128_i64, %c256_i64, %[[ONE]], %c0_i32)
// CHECK:         call @pdcu_matmul(%c1_i64, %{{.*}}, %{{.*}}, %{{.*}}, %c8_i64, %c16_i64, %c8_i64, %c16_i64, %c1_i32, %c0_i32, %c256_i64, %c128_i64, %c128_i64, %[[ONE]], %c0_i32)
func.func @attention(%q: memref<2x4x16x8xf32>, %k: memref<2x4x16x8xf32>, %s: memref<2x4x16x16xf32>,
                     %o: memref<2x4x16x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>,
                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>,
                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<2x4x16x8xf32>, memref<2x4x16x8xf32>) outs(%s : memref<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  }
  // out[b, h, m, n] += s[b, h, k, m] * k[b, h, k, n]
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d2)>,
                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>,
                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%s, %k : memref<2x4x16x16xf32>, memref<2x4x16x8xf32>) outs(%o : memref<2x4x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// What stays generated: a constant input (host memory), f16, a strided
// view, an output that is also an input, two reduced dims (a convolution
// window), an input with the batch dims in another order.
// CHECK-LABEL: func.func @not_library_calls
// CHECK-NOT:     pdcu_matmul
// CHECK-COUNT-6: linalg.generic
// CHECK-NOT:     pdcu_matmul
memref.global "private" constant @w : memref<64x32xf32> = dense<1.0>
func.func @not_library_calls(%x: memref<8x64xf32>, %c: memref<8x32xf32>, %h: memref<8x64xf16>,
                             %hw: memref<64x32xf16>, %hc: memref<8x32xf16>, %sq: memref<64x64xf32>,
                             %img: memref<1x4x8x8xf32>, %f: memref<2x4x3x3xf32>,
                             %cout: memref<1x2x6x6xf32>, %bq: memref<2x4x16x8xf32>,
                             %bk: memref<4x2x8x16xf32>, %bs: memref<2x4x16x16xf32>,
                             %w2: memref<64x32xf32>) {
  %w = memref.get_global @w : memref<64x32xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d2)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x, %w : memref<8x64xf32>, memref<64x32xf32>) outs(%c : memref<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d2)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%h, %hw : memref<8x64xf16>, memref<64x32xf16>) outs(%hc : memref<8x32xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %0 = arith.mulf %a, %b : f16
    %1 = arith.addf %o, %0 : f16
    linalg.yield %1 : f16
  }
  %sub = memref.subview %sq[0, 0] [8, 64] [2, 1] : memref<64x64xf32> to memref<8x64xf32, strided<[128, 1]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d2)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%sub, %w2 : memref<8x64xf32, strided<[128, 1]>>, memref<64x32xf32>) outs(%c : memref<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d2)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%sq, %sq : memref<64x64xf32>, memref<64x64xf32>) outs(%sq : memref<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(n, o, y, x, c, i, j) -> (n, c, y + i, x + j)>,
                                   affine_map<(n, o, y, x, c, i, j) -> (o, c, i, j)>,
                                   affine_map<(n, o, y, x, c, i, j) -> (n, o, y, x)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%img, %f : memref<1x4x8x8xf32>, memref<2x4x3x3xf32>) outs(%cout : memref<1x2x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>,
                                   affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4, d3)>,
                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%bq, %bk : memref<2x4x16x8xf32>, memref<4x2x8x16xf32>) outs(%bs : memref<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Convolutions become pdcu_conv2d(site, x, w, y, n, c, h, w, k, r, s, oh,
// ow, stride h, stride w, dilation h, dilation w, groups, pad h, pad w,
// beta, tf32) on the already padded input: a plain one after its zero fill
// (beta 0), a depthwise one (groups = channels, the [C, kh, kw] filter a
// view of [C, 1, kh, kw]) and a grouped one on [N, G, C/G, H, W] views,
// both accumulating into their outputs (beta 1); one on a constant filter
// stays generated.
// CHECK-LABEL: func.func @convolutions
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NOT:     linalg.fill
// CHECK:         call @pdcu_conv2d(%c0_i64, %{{.*}}, %{{.*}}, %{{.*}}, %c2_i64, %c4_i64, %c10_i64, %c10_i64, %c8_i64, %c3_i64, %c3_i64, %c4_i64, %c8_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64, %[[ZERO]], %c0_i32)
// CHECK:         call @pdcu_conv2d(%c1_i64, %{{.*}}, %{{.*}}, %{{.*}}, %c2_i64, %c8_i64, %c4_i64, %c8_i64, %c8_i64, %c3_i64, %c3_i64, %c2_i64, %c6_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c8_i64, %c0_i64, %c0_i64, %[[ONE]], %c0_i32)
// CHECK:         call @pdcu_conv2d(%c2_i64, %{{.*}}, %{{.*}}, %{{.*}}, %c2_i64, %c8_i64, %c4_i64, %c8_i64, %c8_i64, %c1_i64, %c1_i64, %c4_i64, %c8_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c2_i64, %c0_i64, %c0_i64, %[[ONE]], %c0_i32)
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-NOT:     call @pdcu_conv2d
// CHECK:       func.func @pd_plan_library_calls() {
// CHECK:         call @pdcu_plan_conv2d(%c0_i64, %c2_i64, %c4_i64, %c10_i64, %c10_i64, %c8_i64, %c3_i64, %c3_i64, %c4_i64, %c8_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64, %c0_i32)
// CHECK:         call @pdcu_plan_conv2d(%c1_i64,
// CHECK:         call @pdcu_plan_conv2d(%c2_i64,
memref.global "private" constant @filter : memref<8x8x1x1xf32> = dense<1.0>
func.func @convolutions(%x: memref<2x4x10x10xf32>, %w: memref<8x4x3x3xf32>, %arena: memref<?xi8>,
                        %dx: memref<2x8x4x8xf32>, %dw: memref<8x1x3x3xf32>, %dy: memref<2x8x2x6xf32>,
                        %gw: memref<8x4x1x1xf32>, %gy: memref<2x8x4x8xf32>, %cy: memref<2x8x4x8xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %y = memref.view %arena[%c0][] : memref<?xi8> to memref<2x8x4x8xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<2x8x4x8xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %w : memref<2x4x10x10xf32>, memref<8x4x3x3xf32>) outs(%y : memref<2x8x4x8xf32>)
  %dw3 = memref.collapse_shape %dw [[0, 1], [2], [3]] : memref<8x1x3x3xf32> into memref<8x3x3xf32>
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%dx, %dw3 : memref<2x8x4x8xf32>, memref<8x3x3xf32>) outs(%dy : memref<2x8x2x6xf32>)
  %gx5 = memref.expand_shape %dx [[0], [1, 2], [3], [4]] output_shape [2, 2, 4, 4, 8] : memref<2x8x4x8xf32> into memref<2x2x4x4x8xf32>
  %gw5 = memref.expand_shape %gw [[0, 1], [2], [3], [4]] output_shape [2, 4, 4, 1, 1] : memref<8x4x1x1xf32> into memref<2x4x4x1x1xf32>
  %gy5 = memref.expand_shape %gy [[0], [1, 2], [3], [4]] output_shape [2, 2, 4, 4, 8] : memref<2x8x4x8xf32> into memref<2x2x4x4x8xf32>
  linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%gx5, %gw5 : memref<2x2x4x4x8xf32>, memref<2x4x4x1x1xf32>) outs(%gy5 : memref<2x2x4x4x8xf32>)
  %f = memref.get_global @filter : memref<8x8x1x1xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%dx, %f : memref<2x8x4x8xf32>, memref<8x8x1x1xf32>) outs(%cy : memref<2x8x4x8xf32>)
  return
}

// -----

// cuDNN pads: where the input is a zero fill plus a copy of another buffer
// into its interior at symmetric offsets (how pd -> linalg pads), the call
// reads that buffer with pads (1, 2) and the fill, subview and copy go. Not
// when the pads differ between the two sides, nor when the memory plan
// gave the source's bytes to the output after the copy.
// CHECK-LABEL: func.func @padding
// CHECK:         call @pdcu_conv2d(%c0_i64, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c2_i64, %c6_i64, %c6_i64, %c2_i64, %c3_i64, %c3_i64, %c6_i64, %c8_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c2_i64,
// CHECK:         memref.subview
// CHECK:         memref.copy
// CHECK:         call @pdcu_conv2d(%c1_i64, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c2_i64, %c9_i64, %c8_i64, %c2_i64, %c3_i64, %c3_i64, %c7_i64, %c6_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64,
// CHECK:         memref.subview
// CHECK:         memref.copy
// CHECK:         call @pdcu_conv2d(%c2_i64, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c2_i64, %c8_i64, %c10_i64, %c2_i64, %c3_i64, %c3_i64, %c6_i64, %c8_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64,
// CHECK-NOT:     memref.copy
func.func @padding(%x: memref<1x2x6x6xf32>, %w: memref<2x2x3x3xf32>, %arena: memref<?xi8>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %c2048 = arith.constant 2048 : index
  // Symmetric pads of an argument: taken.
  %p = memref.view %arena[%c0][] : memref<?xi8> to memref<1x2x8x10xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x2x8x10xf32>)
  %pi = memref.subview %p[0, 0, 1, 2] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x8x10xf32> to memref<1x2x6x6xf32, strided<[160, 80, 10, 1], offset: 12>>
  memref.copy %x, %pi : memref<1x2x6x6xf32> to memref<1x2x6x6xf32, strided<[160, 80, 10, 1], offset: 12>>
  %y = memref.view %arena[%c1024][] : memref<?xi8> to memref<1x2x6x8xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : memref<1x2x8x10xf32>, memref<2x2x3x3xf32>) outs(%y : memref<1x2x6x8xf32>)
  // Top 2, bottom 1: kept.
  %q = memref.view %arena[%c0][] : memref<?xi8> to memref<1x2x9x8xf32>
  linalg.fill ins(%zero : f32) outs(%q : memref<1x2x9x8xf32>)
  %qi = memref.subview %q[0, 0, 2, 1] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x9x8xf32> to memref<1x2x6x6xf32, strided<[144, 72, 8, 1], offset: 17>>
  memref.copy %x, %qi : memref<1x2x6x6xf32> to memref<1x2x6x6xf32, strided<[144, 72, 8, 1], offset: 17>>
  %y2 = memref.view %arena[%c1024][] : memref<?xi8> to memref<1x2x7x6xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%q, %w : memref<1x2x9x8xf32>, memref<2x2x3x3xf32>) outs(%y2 : memref<1x2x7x6xf32>)
  // The source (an arena view at 2048) is overwritten by the output, which
  // the plan put at the same bytes once the copy had read it: kept.
  %s = memref.view %arena[%c2048][] : memref<?xi8> to memref<1x2x6x8xf32>
  %r = memref.view %arena[%c0][] : memref<?xi8> to memref<1x2x8x10xf32>
  linalg.fill ins(%zero : f32) outs(%r : memref<1x2x8x10xf32>)
  %ri = memref.subview %r[0, 0, 1, 1] [1, 2, 6, 8] [1, 1, 1, 1] : memref<1x2x8x10xf32> to memref<1x2x6x8xf32, strided<[160, 80, 10, 1], offset: 11>>
  memref.copy %s, %ri : memref<1x2x6x8xf32> to memref<1x2x6x8xf32, strided<[160, 80, 10, 1], offset: 11>>
  %o = memref.view %arena[%c2048][] : memref<?xi8> to memref<1x2x6x8xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%r, %w : memref<1x2x8x10xf32>, memref<2x2x3x3xf32>) outs(%o : memref<1x2x6x8xf32>)
  return
}

// RUN: paddle-opt %s -convert-pd-to-linalg -split-input-file | FileCheck %s

// Tests that nearest interpolation by a scale attribute over dynamic spatial
// dims computes the output size trunc(in * scale) at run time and the ratio
// 1 / scale (0.5), and gathers with tensor.extract in one linalg.generic.
// CHECK-LABEL: func.func @nearest_scale
// CHECK-DAG: %[[H:.*]] = tensor.dim %arg0, %c2
// CHECK-DAG: %[[W:.*]] = tensor.dim %arg0, %c3
// CHECK: arith.mulf
// CHECK: arith.fptosi
// CHECK: tensor.empty(%{{.*}}, %{{.*}}, %{{.*}}) : tensor<?x3x?x?xf32>
// CHECK: linalg.generic
// CHECK-NOT: arith.addf
// CHECK: %[[E:.*]] = tensor.extract %arg0[
// CHECK: linalg.yield %[[E]]
func.func @nearest_scale(%x: tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32> {
  %0 = pd.nearest_interp_v2 %x {align_corners = false, scale = array<f32: 2.0, 2.0>} : (tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32>
  return %0 : tensor<?x3x?x?xf32>
}

// -----

// Tests that bilinear interpolation sized by a run-time OutSize reads both
// sizes from the tensor and blends four neighbours (half-pixel mode).
// CHECK-LABEL: func.func @bilinear_outsize
// CHECK-DAG: %[[OH:.*]] = tensor.extract %arg1[%c0{{.*}}] : tensor<2xi32>
// CHECK-DAG: %[[OW:.*]] = tensor.extract %arg1[%c1{{.*}}] : tensor<2xi32>
// CHECK: tensor.empty({{.*}}) : tensor<1x8x?x?xf32>
// CHECK: linalg.generic
// CHECK-COUNT-4: tensor.extract %arg0[
// CHECK: linalg.yield
func.func @bilinear_outsize(%x: tensor<1x8x5x5xf32>, %s: tensor<2xi32>) -> tensor<1x8x?x?xf32> {
  %0 = pd.bilinear_interp_v2 %x OutSize(%s) {align_corners = false, align_mode = 0 : i32} : (tensor<1x8x5x5xf32>, tensor<2xi32>) -> tensor<1x8x?x?xf32>
  return %0 : tensor<1x8x?x?xf32>
}

// -----

// Tests that NHWC interpolation to static sizes reads H and W from dims 1, 2.
// CHECK-LABEL: func.func @nearest_nhwc
// CHECK: tensor.empty() : tensor<1x6x8x3xf32>
// CHECK: linalg.generic
// CHECK: tensor.extract %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x3x4x3xf32>
func.func @nearest_nhwc(%x: tensor<1x3x4x3xf32>) -> tensor<1x6x8x3xf32> {
  %0 = pd.nearest_interp_v2 %x {data_layout = "NHWC", out_h = 6 : i32, out_w = 8 : i32} : (tensor<1x3x4x3xf32>) -> tensor<1x6x8x3xf32>
  return %0 : tensor<1x6x8x3xf32>
}

// -----

// Tests that Fluid's v1 op reads SizeTensor (one tensor per dim).
// CHECK-LABEL: func.func @v1_size_tensor
// CHECK-DAG: tensor.extract %arg1[%{{.*}}] : tensor<1xi64>
// CHECK-DAG: tensor.extract %arg2[%{{.*}}] : tensor<1xi64>
// CHECK: linalg.generic
func.func @v1_size_tensor(%x: tensor<1x2x4x4xf32>, %h: tensor<1xi64>, %w: tensor<1xi64>) -> tensor<1x2x?x?xf32> {
  %0 = pd.bilinear_interp %x SizeTensor [%h, %w] : (tensor<1x2x4x4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2x?x?xf32>
  return %0 : tensor<1x2x?x?xf32>
}

// -----

// Tests that adaptive pooling over dynamic spatial dims loops over each
// output's bin [floor(i * H / OH), ceil((i + 1) * H / OH)).
// CHECK-LABEL: func.func @adaptive_avg
// CHECK: linalg.generic
// CHECK: arith.divui
// CHECK: arith.ceildivui
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tensor.extract %arg0
// CHECK: arith.addf
// CHECK: arith.divf
func.func @adaptive_avg(%x: tensor<?x4x?x?xf32>) -> tensor<?x4x3x3xf32> {
  %0 = pd.pool2d %x {adaptive = true, ksize = array<i32: 3, 3>, pooling_type = "avg"} : (tensor<?x4x?x?xf32>) -> tensor<?x4x3x3xf32>
  return %0 : tensor<?x4x3x3xf32>
}

// -----

// Tests that global average pooling of dynamic spatial dims divides by H * W
// read at run time.
// CHECK-LABEL: func.func @global_avg_dynamic
// CHECK-DAG: %[[H:.*]] = tensor.dim %arg0, %c2
// CHECK-DAG: %[[W:.*]] = tensor.dim %arg0, %c3
// CHECK: %[[HW:.*]] = arith.muli %[[H]], %[[W]]
// CHECK: arith.sitofp
// CHECK: arith.divf
func.func @global_avg_dynamic(%x: tensor<?x4x?x?xf32>) -> tensor<?x4x1x1xf32> {
  %0 = pd.pool2d %x {adaptive = true, ksize = array<i32: 1, 1>, pooling_type = "avg"} : (tensor<?x4x?x?xf32>) -> tensor<?x4x1x1xf32>
  return %0 : tensor<?x4x1x1xf32>
}

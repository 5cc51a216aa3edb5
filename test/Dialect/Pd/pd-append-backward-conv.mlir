// RUN: paddle-opt %s -split-input-file -verify-diagnostics -pd-append-backward=loss=loss | FileCheck %s

// Tests that a convolution's gradients are pd.conv2d_grad_input and
// pd.conv2d_grad_filter with the convolution's geometry, the paddings made
// explicit (2 values become top/bottom/left/right), and that the input's
// gradient is only built where something upstream needs it: the first
// convolution reads a feed, so only its filter gets one.
// CHECK-LABEL: func.func @main
// CHECK-SAME: tensor<8x3x3x3xf32> {pd.grad_of = "w1", pd.name = "w1@GRAD"}
// CHECK-SAME: tensor<8x2x3x3xf32> {pd.grad_of = "w2", pd.name = "w2@GRAD"}
// CHECK: %[[Y1:.*]] = pd.conv2d %arg0, %w1
// CHECK: %[[Y2:.*]] = pd.conv2d %[[Y1]], %w2
// CHECK: %[[DX2:.*]] = pd.conv2d_grad_input %[[Y1]], %w2, %[[DY2:[^ ]*]] {dilations = array<i32: 2, 2>, groups = 4 : i32, paddings = array<i32: 2, 2, 1, 1>, strides = array<i32: 2, 1>}
// CHECK: %[[DW2:.*]] = pd.conv2d_grad_filter %[[Y1]], %w2, %[[DY2]] {dilations = array<i32: 2, 2>, groups = 4 : i32, paddings = array<i32: 2, 2, 1, 1>, strides = array<i32: 2, 1>}
// CHECK-NOT: pd.conv2d_grad_input %arg0
// CHECK: %[[DW1:.*]] = pd.conv2d_grad_filter %arg0, %w1, %[[DX2]] {paddings = array<i32: 1, 1, 1, 1>}
// CHECK: return %{{.*}}, %[[DW1]], %[[DW2]]
module {
  ml_program.global private @w1(dense<0.5> : tensor<8x3x3x3xf32>) : tensor<8x3x3x3xf32>
  ml_program.global private @w2(dense<0.5> : tensor<8x2x3x3xf32>) : tensor<8x2x3x3xf32>
  func.func @main(%x: tensor<2x3x9x9xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %w1 = ml_program.global_load_const @w1 : tensor<8x3x3x3xf32>
    %w2 = ml_program.global_load_const @w2 : tensor<8x2x3x3xf32>
    %0 = pd.conv2d %x, %w1 {paddings = array<i32: 1, 1>} : (tensor<2x3x9x9xf32>, tensor<8x3x3x3xf32>) -> tensor<2x8x9x9xf32>
    %1 = pd.conv2d %0, %w2 {paddings = array<i32: 2, 1>, strides = array<i32: 2, 1>, dilations = array<i32: 2, 2>, groups = 4 : i32} : (tensor<2x8x9x9xf32>, tensor<8x2x3x3xf32>) -> tensor<2x8x5x7xf32>
    %2 = pd.mean %1 : (tensor<2x8x5x7xf32>) -> tensor<1xf32>
    return %2 : tensor<1xf32>
  }
}

// -----

// Tests that SAME padding resolves to explicit paddings from the static
// input size (8x7, 3x3, stride 2: totals 1 and 2, the odd pixel at the end)
// and that an NHWC convolution's gradients are computed on NCHW views: the
// input and the output's gradient transposed in, the input's gradient
// transposed back, the filter (OIHW in both layouts) used as it is.
// CHECK-LABEL: func.func @main
// CHECK: %[[Y:.*]] = pd.conv2d %arg0, %w1 {padding_algorithm = "SAME", strides = array<i32: 2, 2>}
// CHECK: %[[YT:.*]] = pd.transpose2 %[[Y]] {axis = array<i32: 0, 3, 1, 2>}
// CHECK: %[[DZT:.*]] = pd.transpose2 %{{.*}} {axis = array<i32: 0, 3, 1, 2>}
// CHECK: %[[DYT:.*]] = pd.conv2d_grad_input %[[YT]], %w2, %[[DZT]] {paddings = array<i32: 1, 1, 1, 1>} : (tensor<2x4x4x4xf32>, tensor<5x4x3x3xf32>, tensor<2x5x4x4xf32>) -> tensor<2x4x4x4xf32>
// CHECK: %[[DY:.*]] = pd.transpose2 %[[DYT]] {axis = array<i32: 0, 2, 3, 1>} {{.*}} -> tensor<2x4x4x4xf32>
// CHECK: pd.conv2d_grad_filter %[[YT]], %w2, %[[DZT]] {paddings = array<i32: 1, 1, 1, 1>}
// CHECK: pd.conv2d_grad_filter %arg0, %w1, %{{.*}} {paddings = array<i32: 0, 1, 1, 1>, strides = array<i32: 2, 2>}
module {
  ml_program.global private @w1(dense<0.5> : tensor<4x3x3x3xf32>) : tensor<4x3x3x3xf32>
  ml_program.global private @w2(dense<0.5> : tensor<5x4x3x3xf32>) : tensor<5x4x3x3xf32>
  func.func @main(%x: tensor<2x3x8x7xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %w1 = ml_program.global_load_const @w1 : tensor<4x3x3x3xf32>
    %w2 = ml_program.global_load_const @w2 : tensor<5x4x3x3xf32>
    %0 = pd.conv2d %x, %w1 {padding_algorithm = "SAME", strides = array<i32: 2, 2>} : (tensor<2x3x8x7xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x4x4xf32>
    %1 = pd.conv2d %0, %w2 {data_format = "NHWC", paddings = array<i32: 1, 1>} : (tensor<2x4x4x4xf32>, tensor<5x4x3x3xf32>) -> tensor<2x4x4x5xf32>
    %2 = pd.mean %1 : (tensor<2x4x4x5xf32>) -> tensor<1xf32>
    return %2 : tensor<1xf32>
  }
}


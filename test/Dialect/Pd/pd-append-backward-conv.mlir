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

// Tests that SAME padding is refused by name (its pads depend on the
// gradient rule resolving them, which it does not yet).
module {
  ml_program.global private @w(dense<0.5> : tensor<4x3x3x3xf32>) : tensor<4x3x3x3xf32>
  func.func @main(%x: tensor<2x3x8x8xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %w = ml_program.global_load_const @w : tensor<4x3x3x3xf32>
    // expected-error @+1 {{no gradient rule for padding_algorithm 'SAME' yet}}
    %0 = pd.conv2d %x, %w {padding_algorithm = "SAME"} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x8x8xf32>
    %1 = pd.mean %0 : (tensor<2x4x8x8xf32>) -> tensor<1xf32>
    return %1 : tensor<1xf32>
  }
}

// -----

// Tests that an NHWC convolution has no gradient rule yet, named as such.
module {
  ml_program.global private @w(dense<0.5> : tensor<4x3x3x3xf32>) : tensor<4x3x3x3xf32>
  func.func @main(%x: tensor<2x8x8x3xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %w = ml_program.global_load_const @w : tensor<4x3x3x3xf32>
    // expected-error @+1 {{no gradient rule for NHWC convolutions yet}}
    %0 = pd.conv2d %x, %w {data_format = "NHWC"} : (tensor<2x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<2x6x6x4xf32>
    %1 = pd.mean %0 : (tensor<2x6x6x4xf32>) -> tensor<1xf32>
    return %1 : tensor<1xf32>
  }
}

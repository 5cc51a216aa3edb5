// RUN: paddle-opt %s --split-input-file -pd-append-backward=loss=loss -pd-append-optimizer=optimizer=sgd -convert-pd-to-linalg=kernels=onednn -canonicalize -cse -pd-train-layouts | FileCheck %s

// Tests that a train step's activations whose channel count is a multiple
// of 16 go channel-blocked ([N, C/16, H, W, 16]) through the convolution
// kernels (layout fields 16), the batch norm's loops (the channel loop
// split in block and lane, its statistics viewed as [C/16, 16]), the relu,
// the residual add and their gradients; the plain input is converted once
// by pdk_reorder and read blocked by the forward convolution, the residual
// add and the filter gradient alike.

// CHECK-LABEL: func.func @main
// CHECK-SAME: pd.train_layout = {layout = "nChw16c", ops = {{[0-9]+}} : i64}
// CHECK: %[[X:.*]] = pd.kernel_call "pdk_reorder"(%arg0) {{.*}}ints = array<i64: 0, 16>{{.*}} : (tensor<8x16x8x8xf32>, tensor<8x1x8x8x16xf32>) -> tensor<8x1x8x8x16xf32>
// CHECK: %[[C1:.*]] = pd.kernel_call "pdk_conv2d"(%[[X]], %{{.*}}) {{.*}}ints = array<i64: 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 16, 0, 16>{{.*}} -> tensor<8x1x8x8x16xf32>
// Batch statistics: reductions over n, h, w; channel blocks and lanes parallel.
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "reduction", "reduction", "parallel"]} ins(%[[C1]] : tensor<8x1x8x8x16xf32>) outs(%{{.*}} : tensor<1x16xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<1x16xf32> into tensor<16xf32>
// The residual add reads the converted input too.
// CHECK: %[[ADD:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[X]] : tensor<8x1x8x8x16xf32>, tensor<8x1x8x8x16xf32>)
// CHECK: pd.kernel_call "pdk_conv2d"(%[[ADD]], %{{.*}}) {{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 16, 0, 16>{{.*}} -> tensor<8x2x8x8x16xf32>
// CHECK: pd.kernel_call "pdk_conv2d_backward_data"({{.*}}) {{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 16, 16>{{.*}} : (tensor<32x16x1x1xf32>, tensor<8x2x8x8x16xf32>, tensor<8x1x8x8x16xf32>) -> tensor<8x1x8x8x16xf32>
// CHECK: pd.kernel_call "pdk_conv2d_backward_weights"(%[[ADD]], {{.*}}) {{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 16, 16>{{.*}} -> tensor<32x16x1x1xf32>
// The relu's mask is computed blocked as well.
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<8x1x8x8x16xi1>)
// CHECK: pd.kernel_call "pdk_conv2d_backward_weights"(%[[X]], {{.*}}) {{.*}}ints = array<i64: 1, 1, 1, 1, 1, 1, 1, 1, 1, 16, 16>
// Nothing converts back: no plain copy of a blocked value is left.
// CHECK-NOT: pdk_reorder
// CHECK-NOT: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2], [3], [4]]
module {
  ml_program.global private @w1(dense<0.01> : tensor<16x16x3x3xf32>) : tensor<16x16x3x3xf32>
  ml_program.global private @w2(dense<0.02> : tensor<32x16x1x1xf32>) : tensor<32x16x1x1xf32>
  ml_program.global private @scale(dense<1.5> : tensor<16xf32>) : tensor<16xf32>
  ml_program.global private @bias(dense<0.1> : tensor<16xf32>) : tensor<16xf32>
  ml_program.global private @mean(dense<0.0> : tensor<16xf32>) : tensor<16xf32>
  ml_program.global private @var(dense<1.0> : tensor<16xf32>) : tensor<16xf32>
  func.func @main(%x: tensor<8x16x8x8xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %w1 = ml_program.global_load_const @w1 : tensor<16x16x3x3xf32>
    %w2 = ml_program.global_load_const @w2 : tensor<32x16x1x1xf32>
    %scale = ml_program.global_load_const @scale : tensor<16xf32>
    %bias = ml_program.global_load_const @bias : tensor<16xf32>
    %mean = ml_program.global_load_const @mean : tensor<16xf32>
    %var = ml_program.global_load_const @var : tensor<16xf32>
    %c = pd.conv2d %x, %w1 {paddings = array<i32: 1, 1>} : (tensor<8x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<8x16x8x8xf32>
    %0 = pd.batch_norm %c, %scale, %bias, %mean, %var {epsilon = 1.0e-3 : f32} : (tensor<8x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16x8x8xf32>
    %r = pd.relu %0 : (tensor<8x16x8x8xf32>) -> tensor<8x16x8x8xf32>
    %a = pd.elementwise_add %r, %x : (tensor<8x16x8x8xf32>, tensor<8x16x8x8xf32>) -> tensor<8x16x8x8xf32>
    %c2 = pd.conv2d %a, %w2 : (tensor<8x16x8x8xf32>, tensor<32x16x1x1xf32>) -> tensor<8x32x8x8xf32>
    %1 = pd.square %c2 : (tensor<8x32x8x8xf32>) -> tensor<8x32x8x8xf32>
    %2 = pd.mean %1 : (tensor<8x32x8x8xf32>) -> tensor<1xf32>
    return %2 : tensor<1xf32>
  }
}

// -----

// Channels that are no multiple of 16 stay plain, and so does every
// function without convolution gradients (inference).
// CHECK-LABEL: func.func @main
// CHECK-NOT: pd.train_layout
// CHECK-NOT: pdk_reorder
// CHECK: pd.kernel_call "pdk_conv2d"(%arg0, %{{.*}}) {{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0>{{.*}} -> tensor<2x8x4x4xf32>
// CHECK: pd.kernel_call "pdk_conv2d_backward_weights"(%arg0, {{.*}}) {{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0>
module {
  ml_program.global private @w(dense<0.01> : tensor<8x12x1x1xf32>) : tensor<8x12x1x1xf32>
  func.func @main(%x: tensor<2x12x4x4xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %w = ml_program.global_load_const @w : tensor<8x12x1x1xf32>
    %c = pd.conv2d %x, %w : (tensor<2x12x4x4xf32>, tensor<8x12x1x1xf32>) -> tensor<2x8x4x4xf32>
    %r = pd.relu %c : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
    %m = pd.mean %r : (tensor<2x8x4x4xf32>) -> tensor<1xf32>
    return %m : tensor<1xf32>
  }
}

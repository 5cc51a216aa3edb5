// RUN: echo '{"tensors": {"image": {"threshold": 2.54}, "conv2d_0.tmp_0": {"threshold": 5.1, "unsigned": true}, "conv2d_1.tmp_0": {"threshold": 2.55, "unsigned": true}, "conv2d_2.tmp_0": {"threshold": 7.65, "unsigned": true}}}' > %t.ranges.json
// RUN: paddle-opt %s -pd-insert-quantizers="ranges=%t.ranges.json" -pd-quantize | FileCheck %s

// ResNet's block under calibration: %r (the block input) is quantized for
// the block's first conv, and is the last conv's residual. pd-quantize has
// the last conv read that uint8 tensor as its residual (residual_scale its
// step, 5.1 / 255 = 0.02), so nothing reads %r as float and the first conv
// writes it as uint8 itself; the block's result, quantized for the conv
// after it, is written as uint8 too. (A program's own quantizer of a
// residual's tensor is not used so: python/tests/test_int8.py.)
// CHECK-LABEL: func.func @main
// CHECK: %[[R:.*]] = pd.quantized_conv2d {{.*}}out_dtype = "uint8", output_scale = 2.000000e-02 : f32{{.*}} -> tensor<1x2x4x4xui8>
// CHECK: %[[B:.*]] = pd.quantized_conv2d %[[R]], {{.*}}out_dtype = "uint8", output_scale = 0.00999999977 : f32{{.*}} -> tensor<1x2x4x4xui8>
// CHECK: %[[C:.*]] = pd.quantized_conv2d %[[B]], %{{.*}} ResidualData(%[[R]]) {{.*}}out_dtype = "uint8", output_scale = 3.000000e-02 : f32, {{.*}}residual_scale = 2.000000e-02 : f32} : (tensor<1x2x4x4xui8>, tensor<2x2x1x1xi8>, tensor<2xf32>, tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xui8>
// CHECK: pd.quantized_conv2d %[[C]]
// CHECK-NOT: pd.quantize %
// CHECK: return
module {
  ml_program.global private @w0(dense<[[[[0.5]]], [[[-1.0]]]]> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
  ml_program.global private @w1(dense<[[[[0.5]], [[0.25]]], [[[-1.0]], [[0.75]]]]> : tensor<2x2x1x1xf32>) : tensor<2x2x1x1xf32>
  ml_program.global private @b(dense<[0.1, -0.1]> : tensor<2xf32>) : tensor<2xf32>
  func.func @main(%x: tensor<1x1x4x4xf32> {pd.name = "image"}) -> (tensor<1x2x4x4xf32> {pd.name = "out"}) {
    %w0 = ml_program.global_load_const @w0 : tensor<2x1x1x1xf32>
    %w1 = ml_program.global_load_const @w1 : tensor<2x2x1x1xf32>
    %b = ml_program.global_load_const @b : tensor<2xf32>
    %r = pd.fused_conv2d %x, %w0 {fuse_activation = "relu"} : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32> loc("conv2d #1 -> conv2d_0.tmp_0")
    %a = pd.fused_conv2d %r, %w1 Bias(%b) {fuse_activation = "relu"} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32> loc("conv2d #2 -> conv2d_1.tmp_0")
    %c = pd.fused_conv2d %a, %w1 Bias(%b) ResidualData(%r) {fuse_activation = "relu"} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> loc("conv2d #3 -> conv2d_2.tmp_0")
    %d = pd.conv2d %c, %w1 : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> loc("conv2d #4 -> conv2d_3.tmp_0")
    return %d : tensor<1x2x4x4xf32>
  }
}


// RUN: echo '{"tensors": {"image": {"threshold": 2.54}, "conv2d_1.tmp_0": {"threshold": 5.1, "unsigned": true}}}' > %t.ranges.json
// RUN: paddle-opt %s --split-input-file -pd-insert-quantizers="ranges=%t.ranges.json" -pd-quantize | FileCheck %s


// Max pooling between int8 convolutions: its result is read only by the
// next conv's quantizer, so the pooling takes the quantized tensor instead
// (exact: max commutes with rounding and saturation), and the conv before
// it writes that uint8 tensor. @pool_read_as_float: the pooled tensor is
// also a result, so the pooling stays float32 and so does the conv's
// output.
// CHECK-LABEL: func.func @main
// CHECK: %[[C:.*]] = pd.quantized_conv2d {{.*}}out_dtype = "uint8", output_scale = 2.000000e-02 : f32{{.*}} -> tensor<1x2x8x8xui8>
// CHECK: %[[P:.*]] = pd.pool2d %[[C]] {{.*}} : (tensor<1x2x8x8xui8>) -> tensor<1x2x4x4xui8>
// CHECK: pd.quantized_conv2d %[[P]], {{.*}} : (tensor<1x2x4x4xui8>
// CHECK-NOT: pd.quantize %
// CHECK: return
module {
  ml_program.global private @w0(dense<[[[[0.5]]], [[[-1.0]]]]> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
  ml_program.global private @w1(dense<[[[[0.5]], [[0.25]]], [[[-1.0]], [[0.75]]]]> : tensor<2x2x1x1xf32>) : tensor<2x2x1x1xf32>
  func.func @main(%x: tensor<1x1x8x8xf32> {pd.name = "image"}) -> (tensor<1x2x4x4xf32> {pd.name = "out"}) {
    %w0 = ml_program.global_load_const @w0 : tensor<2x1x1x1xf32>
    %w1 = ml_program.global_load_const @w1 : tensor<2x2x1x1xf32>
    %r = pd.fused_conv2d %x, %w0 {fuse_activation = "relu"} : (tensor<1x1x8x8xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x8x8xf32> loc("conv2d #1 -> conv2d_0.tmp_0")
    %p = pd.pool2d %r {ksize = array<i32: 3, 3>, strides = array<i32: 2, 2>, paddings = array<i32: 1, 1>} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32> loc("pool2d #2 -> conv2d_1.tmp_0")
    %d = pd.conv2d %p, %w1 : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> loc("conv2d #3 -> conv2d_3.tmp_0")
    return %d : tensor<1x2x4x4xf32>
  }
}

// -----

// CHECK-LABEL: func.func @main
// CHECK: %[[C:.*]] = pd.quantized_conv2d {{.*}} -> tensor<1x2x8x8xf32>
// CHECK: %[[P:.*]] = pd.pool2d %[[C]] {{.*}} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
// CHECK: pd.quantize %[[P]]
// CHECK: return %{{.*}}, %[[P]]
module {
  ml_program.global private @w0(dense<[[[[0.5]]], [[[-1.0]]]]> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
  ml_program.global private @w1(dense<[[[[0.5]], [[0.25]]], [[[-1.0]], [[0.75]]]]> : tensor<2x2x1x1xf32>) : tensor<2x2x1x1xf32>
  func.func @main(%x: tensor<1x1x8x8xf32> {pd.name = "image"}) -> (tensor<1x2x4x4xf32> {pd.name = "out"}, tensor<1x2x4x4xf32> {pd.name = "pooled"}) {
    %w0 = ml_program.global_load_const @w0 : tensor<2x1x1x1xf32>
    %w1 = ml_program.global_load_const @w1 : tensor<2x2x1x1xf32>
    %r = pd.fused_conv2d %x, %w0 {fuse_activation = "relu"} : (tensor<1x1x8x8xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x8x8xf32> loc("conv2d #1 -> conv2d_0.tmp_0")
    %p = pd.pool2d %r {ksize = array<i32: 3, 3>, strides = array<i32: 2, 2>, paddings = array<i32: 1, 1>} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32> loc("pool2d #2 -> conv2d_1.tmp_0")
    %d = pd.conv2d %p, %w1 : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> loc("conv2d #3 -> conv2d_3.tmp_0")
    return %d, %p : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
  }
}

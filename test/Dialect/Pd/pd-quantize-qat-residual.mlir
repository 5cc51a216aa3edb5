// RUN: paddle-opt %s -pd-quantize -split-input-file | FileCheck %s

// Tests a QAT residual add as Paddle's quantization pass writes it: fake
// quantizers on both inputs of the add, the shortcut's shared with the conv
// that reads it. The block's last conv takes the shortcut as its int8
// residual (residual_scale = 1 / 127, the shortcut's step), the relu as its
// activation, and writes what the next conv reads (4 / 127): the add, the
// relu and the conv's own output quantizer (2 / 127) are gone.
// CHECK-LABEL: func.func @block
// CHECK: %[[R:.*]] = pd.quantized_conv2d %{{.*}} {{.*}}out_dtype = "int8", output_scale = 0.00787401571 : f32{{.*}} -> tensor<1x2x2x2xi8>
// CHECK: %[[B:.*]] = pd.quantized_conv2d %[[R]], %{{.*}} ResidualData(%[[R]]) {{{.*}}fuse_activation = "relu"{{.*}}out_dtype = "int8", output_scale = 0.0314960629 : f32{{.*}}residual_scale = 0.00787401571 : f32} : (tensor<1x2x2x2xi8>, tensor<2x2x1x1xi8>, tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8>
// CHECK-NOT: pd.elementwise_add
// CHECK-NOT: pd.relu
// CHECK: %[[C:.*]] = pd.quantized_conv2d %[[B]], {{.*}}input_scale = 0.0314960629 : f32
// CHECK: return %[[C]]
module {
  ml_program.global private @s0(dense<0.5> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @s1(dense<1.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @s2(dense<2.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @s3(dense<4.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @w0(dense<[[[[1.0]]], [[[-0.5]]]]> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
  ml_program.global private @w1(dense<[[[[1.0]], [[0.5]]], [[[-0.25]], [[1.0]]]]> : tensor<2x2x1x1xf32>) : tensor<2x2x1x1xf32>
  ml_program.global private @w2(dense<[[[[1.0]], [[-1.0]]]]> : tensor<1x2x1x1xf32>) : tensor<1x2x1x1xf32>
  func.func @block(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
    %s0 = ml_program.global_load_const @s0 : tensor<1xf32>
    %s1 = ml_program.global_load_const @s1 : tensor<1xf32>
    %s2 = ml_program.global_load_const @s2 : tensor<1xf32>
    %s3 = ml_program.global_load_const @s3 : tensor<1xf32>
    %w0 = ml_program.global_load_const @w0 : tensor<2x1x1x1xf32>
    %w1 = ml_program.global_load_const @w1 : tensor<2x2x1x1xf32>
    %w2 = ml_program.global_load_const @w2 : tensor<1x2x1x1xf32>
    %q0, %qs0 = pd.fake_quantize_dequantize_moving_average_abs_max %x, %s0 {is_test = true} : (tensor<1x1x2x2xf32>, tensor<1xf32>) -> (tensor<1x1x2x2xf32>, tensor<1xf32>)
    %r = pd.conv2d %q0, %w0 : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
    %rq, %rqs = pd.fake_quantize_dequantize_moving_average_abs_max %r, %s1 {is_test = true} : (tensor<1x2x2x2xf32>, tensor<1xf32>) -> (tensor<1x2x2x2xf32>, tensor<1xf32>)
    %y = pd.conv2d %rq, %w1 : (tensor<1x2x2x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x2xf32>
    %yq, %yqs = pd.fake_quantize_dequantize_moving_average_abs_max %y, %s2 {is_test = true} : (tensor<1x2x2x2xf32>, tensor<1xf32>) -> (tensor<1x2x2x2xf32>, tensor<1xf32>)
    %sum = pd.elementwise_add %yq, %rq : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    %z = pd.relu %sum : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    %zq, %zqs = pd.fake_quantize_dequantize_moving_average_abs_max %z, %s3 {is_test = true} : (tensor<1x2x2x2xf32>, tensor<1xf32>) -> (tensor<1x2x2x2xf32>, tensor<1xf32>)
    %c = pd.conv2d %zq, %w2 : (tensor<1x2x2x2xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x2x2xf32>
    return %c : tensor<1x1x2x2xf32>
  }
}

// -----

// Tests the shortcut computed after the block's last conv (ResNet's
// downsampling branch in PaddleClas's order) and an add a float op reads:
// the last conv moves down to the add and writes float32.
// CHECK-LABEL: func.func @late_shortcut
// CHECK: %[[S:.*]] = pd.quantized_conv2d {{.*}}out_dtype = "int8"{{.*}} -> tensor<1x2x2x2xi8>
// CHECK: %[[Y:.*]] = pd.quantized_conv2d %{{.*}} ResidualData(%[[S]]) {{{.*}}residual_scale = 0.00787401571 : f32} : {{.*}} -> tensor<1x2x2x2xf32>
// CHECK-NOT: pd.elementwise_add
// CHECK: %[[P:.*]] = pd.pool2d %[[Y]]
// CHECK: return %[[P]]
module {
  ml_program.global private @s0(dense<0.5> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @s1(dense<1.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @s2(dense<2.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @w0(dense<[[[[1.0]]], [[[-0.5]]]]> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
  ml_program.global private @w1(dense<[[[[1.0]]], [[[0.5]]]]> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
  func.func @late_shortcut(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x1x1xf32> {
    %s0 = ml_program.global_load_const @s0 : tensor<1xf32>
    %s1 = ml_program.global_load_const @s1 : tensor<1xf32>
    %s2 = ml_program.global_load_const @s2 : tensor<1xf32>
    %w0 = ml_program.global_load_const @w0 : tensor<2x1x1x1xf32>
    %w1 = ml_program.global_load_const @w1 : tensor<2x1x1x1xf32>
    %q0, %qs0 = pd.fake_quantize_dequantize_moving_average_abs_max %x, %s0 {is_test = true} : (tensor<1x1x2x2xf32>, tensor<1xf32>) -> (tensor<1x1x2x2xf32>, tensor<1xf32>)
    %y = pd.conv2d %q0, %w0 : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
    %yq, %yqs = pd.fake_quantize_dequantize_moving_average_abs_max %y, %s2 {is_test = true} : (tensor<1x2x2x2xf32>, tensor<1xf32>) -> (tensor<1x2x2x2xf32>, tensor<1xf32>)
    %sc = pd.conv2d %q0, %w1 : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
    %scq, %scqs = pd.fake_quantize_dequantize_moving_average_abs_max %sc, %s1 {is_test = true} : (tensor<1x2x2x2xf32>, tensor<1xf32>) -> (tensor<1x2x2x2xf32>, tensor<1xf32>)
    %sum = pd.elementwise_add %yq, %scq : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    %p = pd.pool2d %sum {ksize = array<i32: 2, 2>, pooling_type = "avg"} : (tensor<1x2x2x2xf32>) -> tensor<1x2x1x1xf32>
    return %p : tensor<1x2x1x1xf32>
  }
}

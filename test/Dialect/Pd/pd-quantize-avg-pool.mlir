// RUN: paddle-opt %s -pd-quantize -split-input-file | FileCheck %s

// Tests an average pooling between two fake quantizers (steps 2 / 127 in,
// 1 / 127 out): it pools the int8 tensor the conv before it writes, into
// the int8 tensor the conv after it reads, the average times 2 (the ratio
// of the steps) before rounding.
// CHECK-LABEL: func.func @avg
// CHECK: %[[C:.*]] = pd.quantized_conv2d {{.*}}out_dtype = "int8", output_scale = 0.0157480314 : f32{{.*}} -> tensor<1x2x4x4xi8>
// CHECK: %[[P:.*]] = pd.pool2d %[[C]] {{{.*}}pd.int8_rescale = 2.000000e+00 : f32{{.*}}} : (tensor<1x2x4x4xi8>) -> tensor<1x2x4x4xi8>
// CHECK: pd.quantized_conv2d %[[P]], {{.*}}input_scale = 0.00787401571 : f32
// CHECK-NOT: pd.dequantize
module {
  ml_program.global private @s0(dense<0.5> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @s1(dense<2.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @s2(dense<1.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @w0(dense<[[[[1.0]]], [[[-0.5]]]]> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
  ml_program.global private @w1(dense<[[[[1.0]], [[-1.0]]]]> : tensor<1x2x1x1xf32>) : tensor<1x2x1x1xf32>
  func.func @avg(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
    %s0 = ml_program.global_load_const @s0 : tensor<1xf32>
    %s1 = ml_program.global_load_const @s1 : tensor<1xf32>
    %s2 = ml_program.global_load_const @s2 : tensor<1xf32>
    %w0 = ml_program.global_load_const @w0 : tensor<2x1x1x1xf32>
    %w1 = ml_program.global_load_const @w1 : tensor<1x2x1x1xf32>
    %q0, %qs0 = pd.fake_quantize_dequantize_moving_average_abs_max %x, %s0 {is_test = true} : (tensor<1x1x4x4xf32>, tensor<1xf32>) -> (tensor<1x1x4x4xf32>, tensor<1xf32>)
    %y = pd.conv2d %q0, %w0 : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
    %yq, %yqs = pd.fake_quantize_dequantize_moving_average_abs_max %y, %s1 {is_test = true} : (tensor<1x2x4x4xf32>, tensor<1xf32>) -> (tensor<1x2x4x4xf32>, tensor<1xf32>)
    %p = pd.pool2d %yq {ksize = array<i32: 3, 3>, paddings = array<i32: 1, 1>, pooling_type = "avg"} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    %pq, %pqs = pd.fake_quantize_dequantize_moving_average_abs_max %p, %s2 {is_test = true} : (tensor<1x2x4x4xf32>, tensor<1xf32>) -> (tensor<1x2x4x4xf32>, tensor<1xf32>)
    %c = pd.conv2d %pq, %w1 : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x4x4xf32>
    return %c : tensor<1x1x4x4xf32>
  }
}

// -----

// Tests that a pooling the int8 kernel cannot run (ceil_mode) or whose
// result a float op reads stays float32 on the dequantized tensor.
// CHECK-LABEL: func.func @stays_float
// CHECK: %[[D:.*]] = pd.dequantize
// CHECK: pd.pool2d %[[D]] {{.*}}ceil_mode = true{{.*}} -> tensor<1x2x2x2xf32>
// CHECK: pd.pool2d %[[D]] {{.*}} -> tensor<1x2x4x4xf32>
module {
  ml_program.global private @s0(dense<0.5> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @s1(dense<2.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @s2(dense<1.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @w0(dense<[[[[1.0]]], [[[-0.5]]]]> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
  ml_program.global private @w1(dense<[[[[1.0]], [[-1.0]]]]> : tensor<1x2x1x1xf32>) : tensor<1x2x1x1xf32>
  func.func @stays_float(%x: tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x2x4x4xf32>) {
    %s0 = ml_program.global_load_const @s0 : tensor<1xf32>
    %s1 = ml_program.global_load_const @s1 : tensor<1xf32>
    %s2 = ml_program.global_load_const @s2 : tensor<1xf32>
    %w0 = ml_program.global_load_const @w0 : tensor<2x1x1x1xf32>
    %w1 = ml_program.global_load_const @w1 : tensor<1x2x1x1xf32>
    %q0, %qs0 = pd.fake_quantize_dequantize_moving_average_abs_max %x, %s0 {is_test = true} : (tensor<1x1x4x4xf32>, tensor<1xf32>) -> (tensor<1x1x4x4xf32>, tensor<1xf32>)
    %y = pd.conv2d %q0, %w0 : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
    %yq, %yqs = pd.fake_quantize_dequantize_moving_average_abs_max %y, %s1 {is_test = true} : (tensor<1x2x4x4xf32>, tensor<1xf32>) -> (tensor<1x2x4x4xf32>, tensor<1xf32>)
    %p = pd.pool2d %yq {ksize = array<i32: 3, 3>, strides = array<i32: 2, 2>, ceil_mode = true, pooling_type = "avg"} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
    %pq, %pqs = pd.fake_quantize_dequantize_moving_average_abs_max %p, %s2 {is_test = true} : (tensor<1x2x2x2xf32>, tensor<1xf32>) -> (tensor<1x2x2x2xf32>, tensor<1xf32>)
    %c = pd.conv2d %pq, %w1 : (tensor<1x2x2x2xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x2x2xf32>
    %f = pd.pool2d %yq {ksize = array<i32: 3, 3>, paddings = array<i32: 1, 1>, pooling_type = "avg"} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    return %c, %f : tensor<1x1x2x2xf32>, tensor<1x2x4x4xf32>
  }
}

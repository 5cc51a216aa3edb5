// RUN: paddle-opt %s -pd-fold-constants -pd-unfreeze-quant -split-input-file | FileCheck %s

// Tests Fluid's frozen conv: integer input and weight, then a channel-wise
// dequantize with Scales [s_w, T]: the weight becomes W * s_w[c] / 127
// (channel 0: 127 * 1.27 / 127 = 1.27, -64 * 1.27 / 127 = -0.64; channel 1:
// 127 * 0.254 / 127 = 0.254, 64 * 0.254 / 127 = 0.128) and the input a
// quantize-dequantize with the same T.
// CHECK-LABEL: func.func @conv
// CHECK: %[[Q:.*]], %{{.*}} = pd.fake_quantize_dequantize_moving_average_abs_max %arg0, %{{.*}} {is_test = true}
// CHECK: %[[C:.*]] = pd.conv2d %[[Q]], %{{.*}} : (tensor<1x1x2x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x2x2x1xf32>
// CHECK-NOT: fake_channel_wise_dequantize_max_abs
// CHECK: return %[[C]]
// CHECK: w.dequantized: "0x400000005C8FA23F0AD723BF4A0C823E6F12033E"
module {
  ml_program.global private @t(dense<0.5> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @sw(dense<[1.27, 0.254]> : tensor<2xf32>) : tensor<2xf32>
  ml_program.global private @w(dense<[[[[127.0, -64.0]]], [[[127.0, 64.0]]]]> : tensor<2x1x1x2xf32>) : tensor<2x1x1x2xf32>
  func.func @conv(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x1xf32> {
    %t = ml_program.global_load_const @t : tensor<1xf32>
    %sw = ml_program.global_load_const @sw : tensor<2xf32>
    %w = ml_program.global_load_const @w : tensor<2x1x1x2xf32>
    %q, %qs = pd.fake_quantize_moving_average_abs_max %x, %t {is_test = true} : (tensor<1x1x2x2xf32>, tensor<1xf32>) -> (tensor<1x1x2x2xf32>, tensor<1xf32>)
    %c = pd.conv2d %q, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x2x2x1xf32>
    %d = pd.fake_channel_wise_dequantize_max_abs %c Scales [%sw, %t] {quant_bits = array<i32: 8, 8>} : (tensor<1x2x2x1xf32>, tensor<2xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
    return %d : tensor<1x2x2x1xf32>
  }
}

// -----

// Tests a frozen mul with a per-tensor dequantize (max_range R = 127^2 /
// s_w): the weight becomes W * 127 / R.
// CHECK-LABEL: func.func @mul
// CHECK: %[[Q:.*]], %{{.*}} = pd.fake_quantize_dequantize_moving_average_abs_max %arg0
// CHECK: pd.mul %[[Q]], %{{.*}} : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
// CHECK-NOT: fake_dequantize_max_abs
// The weight 127 * 127 / 254 = 63.5, as f32 0x427E0000.
// CHECK: w.dequantized: "0x40000000{{(00007E42)+}}"
module {
  ml_program.global private @t(dense<2.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @w(dense<127.0> : tensor<8x3xf32>) : tensor<8x3xf32>
  func.func @mul(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
    %t = ml_program.global_load_const @t : tensor<1xf32>
    %w = ml_program.global_load_const @w : tensor<8x3xf32>
    %q, %qs = pd.fake_quantize_moving_average_abs_max %x, %t {is_test = true} : (tensor<4x8xf32>, tensor<1xf32>) -> (tensor<4x8xf32>, tensor<1xf32>)
    %m = pd.mul %q, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
    %d = pd.fake_dequantize_max_abs %m, %t {max_range = 254.0 : f32} : (tensor<4x3xf32>, tensor<1xf32>) -> tensor<4x3xf32>
    return %d : tensor<4x3xf32>
  }
}

// -----

// Tests that a dequantize whose activation scale is not the quantizer's is
// left alone, and the quantizer says why (pd-quantize reports it).
// CHECK-LABEL: func.func @other_scale
// CHECK: pd.fake_quantize_moving_average_abs_max {{.*}}pd.frozen_reason = "the dequantize op's activation scale is not the quantizer's scale"
// CHECK: pd.fake_dequantize_max_abs
module {
  ml_program.global private @t(dense<2.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @u(dense<3.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @w(dense<127.0> : tensor<8x3xf32>) : tensor<8x3xf32>
  func.func @other_scale(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
    %t = ml_program.global_load_const @t : tensor<1xf32>
    %u = ml_program.global_load_const @u : tensor<1xf32>
    %w = ml_program.global_load_const @w : tensor<8x3xf32>
    %q, %qs = pd.fake_quantize_moving_average_abs_max %x, %t {is_test = true} : (tensor<4x8xf32>, tensor<1xf32>) -> (tensor<4x8xf32>, tensor<1xf32>)
    %m = pd.mul %q, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
    %d = pd.fake_dequantize_max_abs %m, %u {max_range = 254.0 : f32} : (tensor<4x3xf32>, tensor<1xf32>) -> tensor<4x3xf32>
    return %d : tensor<4x3xf32>
  }
}

// -----

// Tests the form Fluid writes: the quantizer's OutScale goes into its InScale
// variable, so the dequantize reads the quantizer's second result (in test
// mode equal to InScale); the conv's weight is stored as int8 behind a cast
// (the importer's form), which pd-fold-constants folds to the float weight.
// CHECK-LABEL: func.func @shared_scale_variable
// CHECK: %[[Q:.*]], %{{.*}} = pd.fake_quantize_dequantize_moving_average_abs_max %arg0, %{{.*}} {is_test = true}
// CHECK: %[[C:.*]] = pd.conv2d %[[Q]], %{{.*}} : (tensor<1x1x2x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x2x2x1xf32>
// CHECK-NOT: fake_channel_wise_dequantize_max_abs
// CHECK: return %[[C]]
// CHECK: dequantized: "0x400000005C8FA23F0AD723BF4A0C823E6F12033E"
module {
  ml_program.global private @t(dense<0.5> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @sw(dense<[1.27, 0.254]> : tensor<2xf32>) : tensor<2xf32>
  ml_program.global private @w(dense<[[[[127, -64]]], [[[127, 64]]]]> : tensor<2x1x1x2xi8>) : tensor<2x1x1x2xi8>
  func.func @shared_scale_variable(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x2x1xf32> {
    %t = ml_program.global_load_const @t : tensor<1xf32>
    %sw = ml_program.global_load_const @sw : tensor<2xf32>
    %wi = ml_program.global_load_const @w : tensor<2x1x1x2xi8>
    %w = pd.cast %wi {in_dtype = 21 : i32, out_dtype = 5 : i32} : (tensor<2x1x1x2xi8>) -> tensor<2x1x1x2xf32>
    %q, %qs = pd.fake_quantize_moving_average_abs_max %x, %t {is_test = true} : (tensor<1x1x2x2xf32>, tensor<1xf32>) -> (tensor<1x1x2x2xf32>, tensor<1xf32>)
    %c = pd.conv2d %q, %w : (tensor<1x1x2x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x2x2x1xf32>
    %d = pd.fake_channel_wise_dequantize_max_abs %c Scales [%sw, %qs] {quant_bits = array<i32: 8, 8>} : (tensor<1x2x2x1xf32>, tensor<2xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
    return %d : tensor<1x2x2x1xf32>
  }
}

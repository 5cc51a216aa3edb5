// RUN: paddle-opt %s -pd-quantize -split-input-file | FileCheck %s
// RUN: paddle-opt %s -pd-quantize="exclude=conv2d_1.tmp_0" -split-input-file | FileCheck %s --check-prefix=EXCL
// RUN: paddle-opt %s -pd-quantize="exclude=fused_conv2d,fc" -split-input-file | FileCheck %s --check-prefix=TYPES

// Tests a QAT chain: fake-quantized input -> conv (relu) -> fake quantizer
// -> conv. The first conv's activation is quantized with T / 127 = 0.5 /
// 127, its weight per output channel with max|w[c]| / 127 (channel 0 holds
// 2 and -1: 2 / 127; channel 1 holds 1: 1 / 127, as int8 127), and since
// its result only feeds the second fake quantizer it writes int8 with that
// quantizer's step (4 / 127); the second conv reads it directly.
// CHECK: ml_program.global private @w1.int8(dense_resource<w1.int8> : tensor<2x1x1x2xi8>)
// CHECK-LABEL: func.func @chain
// CHECK: %[[XQ:.*]] = pd.quantize %arg0 {scale = 0.00393700786 : f32} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xi8>
// CHECK: %[[C1:.*]] = pd.quantized_conv2d %[[XQ]], %{{.*}} Bias(%{{.*}}) {filter_scales = array<f32: 0.0157480314, 0.00787401571>, fuse_activation = "relu", input_scale = 0.00393700786 : f32, out_dtype = "int8", output_scale = 0.0314960629 : f32, pd.quantized_from = "fused_conv2d"} : (tensor<1x1x2x2xi8>, tensor<2x1x1x2xi8>, tensor<2xf32>) -> tensor<1x2x2x1xi8>
// CHECK: %[[C2:.*]] = pd.quantized_conv2d %[[C1]], %{{.*}} {filter_scales = array<f32: 0.00787401571>, input_scale = 0.0314960629 : f32, pd.quantized_from = "conv2d"} : (tensor<1x2x2x1xi8>, tensor<1x2x1x1xi8>) -> tensor<1x1x2x1xf32>
// CHECK-NOT: fake_quantize
// CHECK: return %[[C2]]
// The int8 weights, row-major: 2 / (2/127) = 127, -1 -> -63.5 -> -64 (ties
// to even), then 127 and 0.5 / (1/127) = 63.5 -> 64.
// CHECK: w1.int8: "0x400000007FC07F40"
// Excluded, the second conv stays float and reads the fake quantizer's
// value as a pd.dequantize of the int8 tensor the first conv writes.
// EXCL-LABEL: func.func @chain
// EXCL: %[[C:.*]] = pd.quantized_conv2d
// EXCL-SAME: -> tensor<1x2x2x1xi8>
// EXCL: %[[D:.*]] = pd.dequantize %[[C]] {scale = 0.0314960629 : f32}
// EXCL: pd.conv2d %[[D]], {{.*}}pd.fp32_reason = "excluded by --quantize-exclude"
// TYPES-LABEL: func.func @chain
// TYPES: pd.fused_conv2d {{.*}}pd.fp32_reason = "excluded by --quantize-exclude"
// TYPES: pd.quantized_conv2d
// TYPES-SAME: -> tensor<1x1x2x1xf32>
module {
  ml_program.global private @s0(dense<0.5> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @s1(dense<4.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @w1(dense<[[[[2.0, -1.0]]], [[[1.0, 0.5]]]]> : tensor<2x1x1x2xf32>) : tensor<2x1x1x2xf32>
  ml_program.global private @b1(dense<0.25> : tensor<2xf32>) : tensor<2xf32>
  ml_program.global private @w2(dense<[[[[1.0]], [[-0.5]]]]> : tensor<1x2x1x1xf32>) : tensor<1x2x1x1xf32>
  func.func @chain(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x1xf32> {
    %s0 = ml_program.global_load_const @s0 : tensor<1xf32>
    %s1 = ml_program.global_load_const @s1 : tensor<1xf32>
    %w1 = ml_program.global_load_const @w1 : tensor<2x1x1x2xf32>
    %b1 = ml_program.global_load_const @b1 : tensor<2xf32>
    %w2 = ml_program.global_load_const @w2 : tensor<1x2x1x1xf32>
    %q0, %qs0 = pd.fake_quantize_dequantize_moving_average_abs_max %x, %s0 {is_test = true} : (tensor<1x1x2x2xf32>, tensor<1xf32>) -> (tensor<1x1x2x2xf32>, tensor<1xf32>)
    %c1 = pd.fused_conv2d %q0, %w1 Bias(%b1) {fuse_activation = "relu"} : (tensor<1x1x2x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x2x2x1xf32> loc("conv2d #1 -> conv2d_0.tmp_0")
    %q1, %qs1 = pd.fake_quantize_dequantize_moving_average_abs_max %c1, %s1 {is_test = true} : (tensor<1x2x2x1xf32>, tensor<1xf32>) -> (tensor<1x2x2x1xf32>, tensor<1xf32>)
    %c2 = pd.conv2d %q1, %w2 : (tensor<1x2x2x1xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x2x1xf32> loc("conv2d #2 -> conv2d_1.tmp_0")
    return %c2 : tensor<1x1x2x1xf32>
  }
}

// -----

// Tests that the ops that stay float (the add) read the quantizer's value,
// now a pd.quantize -> pd.dequantize pair of its step (an int8 tensor the
// op before could write), and that a result also read by a float op stays
// float32.
// CHECK-LABEL: func.func @shared
// CHECK: %[[QQ:.*]] = pd.quantize %arg0 {scale = 0.0157480314 : f32}
// CHECK: %[[Q:.*]] = pd.dequantize %[[QQ]] {scale = 0.0157480314 : f32}
// CHECK: %[[C:.*]] = pd.quantized_fc
// CHECK-SAME: -> tensor<4x3xf32>
// CHECK: pd.elementwise_add %[[Q]], %[[Q]]
// CHECK: pd.relu %[[C]]
module {
  ml_program.global private @s(dense<2.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @w(dense<0.5> : tensor<8x3xf32>) : tensor<8x3xf32>
  func.func @shared(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x3xf32>, tensor<4x3xf32>) {
    %s = ml_program.global_load_const @s : tensor<1xf32>
    %w = ml_program.global_load_const @w : tensor<8x3xf32>
    %q, %qs = pd.fake_quantize_dequantize_moving_average_abs_max %x, %s {is_test = true} : (tensor<4x8xf32>, tensor<1xf32>) -> (tensor<4x8xf32>, tensor<1xf32>)
    %y = pd.matmul_v2 %q, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
    %a = pd.elementwise_add %q, %q : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %r = pd.relu %y : (tensor<4x3xf32>) -> tensor<4x3xf32>
    return %a, %y, %r : tensor<4x8xf32>, tensor<4x3xf32>, tensor<4x3xf32>
  }
}

// -----

// Tests quantize_linear / dequantize_linear pairs (Paddle 2.x's format):
// the activation step is scale / 127, and round_type 0 (the default)
// clamps to [-128, 127], so the int8 input does (full_range); a weight
// read through a non-constant value (a product of two activations whose Y
// has no quantizer), and a conv without one, stay fp32 with a reason.
// CHECK-LABEL: func.func @linear
// CHECK: pd.quantize %arg0 {full_range, scale = 0.0236220472 : f32}
// CHECK: pd.quantized_fc {{.*}}in_num_col_dims = 2 : i32
// CHECK: pd.matmul_v2 {{.*}}pd.fp32_reason = "Y: its input has no 8-bit fake quantizer (no scale to run it in int8 with)"
// CHECK: pd.conv2d {{.*}}pd.fp32_reason = "its input has no 8-bit fake quantizer (no scale to run it in int8 with)"
module {
  ml_program.global private @s(dense<3.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @z(dense<0> : tensor<1xi32>) : tensor<1xi32>
  ml_program.global private @w(dense<0.5> : tensor<8x3xf32>) : tensor<8x3xf32>
  ml_program.global private @f(dense<0.5> : tensor<2x2x1x1xf32>) : tensor<2x2x1x1xf32>
  func.func @linear(%x: tensor<2x4x8xf32>, %y: tensor<8x3xf32>, %i: tensor<1x2x3x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<1x2x3x3xf32>) {
    %s = ml_program.global_load_const @s : tensor<1xf32>
    %z = ml_program.global_load_const @z : tensor<1xi32>
    %w = ml_program.global_load_const @w : tensor<8x3xf32>
    %f = ml_program.global_load_const @f : tensor<2x2x1x1xf32>
    %q = pd.quantize_linear %x, %s, %z : (tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xi32>) -> tensor<2x4x8xf32>
    %d = pd.dequantize_linear %q, %s, %z : (tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xi32>) -> tensor<2x4x8xf32>
    %m = pd.matmul_v2 %d, %w : (tensor<2x4x8xf32>, tensor<8x3xf32>) -> tensor<2x4x3xf32>
    %n = pd.matmul_v2 %d, %y : (tensor<2x4x8xf32>, tensor<8x3xf32>) -> tensor<2x4x3xf32>
    %c = pd.conv2d %i, %f : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
    return %m, %n, %c : tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<1x2x3x3xf32>
  }
}

// -----

// Tests that quantizing after a concat or a reshape is quantizing before
// it: the concat of two int8 conv results and the reshape of an int8 conv
// result move int8 data (each conv writes int8 with the step of the
// quantizer after the concat or reshape).
// CHECK-LABEL: func.func @moves
// CHECK: %[[A:.*]] = pd.quantized_conv2d {{.*}}out_dtype = "int8", output_scale = 0.0157480314 : f32{{.*}} -> tensor<1x2x2x2xi8>
// CHECK: %[[B:.*]] = pd.quantized_conv2d {{.*}}out_dtype = "int8", output_scale = 0.0157480314 : f32{{.*}} -> tensor<1x2x2x2xi8>
// CHECK: %[[C:.*]] = pd.concat [%[[A]], %[[B]]] {axis = 1 : i32} : (tensor<1x2x2x2xi8>, tensor<1x2x2x2xi8>) -> tensor<1x4x2x2xi8>
// CHECK: %[[D:.*]] = pd.quantized_conv2d %[[C]], {{.*}}out_dtype = "int8", output_scale = 0.0236220472 : f32{{.*}} -> tensor<1x2x2x2xi8>
// CHECK: %[[R:.*]] = pd.reshape2 %[[D]] {{.*}} -> tensor<1x8xi8>
// CHECK: pd.quantized_fc %[[R]]
// CHECK-NOT: pd.quantize %
module {
  ml_program.global private @s1(dense<1.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @s2(dense<2.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @s3(dense<3.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @w(dense<0.5> : tensor<2x2x1x1xf32>) : tensor<2x2x1x1xf32>
  ml_program.global private @w4(dense<0.25> : tensor<2x4x1x1xf32>) : tensor<2x4x1x1xf32>
  ml_program.global private @f(dense<0.5> : tensor<8x3xf32>) : tensor<8x3xf32>
  func.func @moves(%x: tensor<1x2x2x2xf32>) -> tensor<1x3xf32> {
    %s1 = ml_program.global_load_const @s1 : tensor<1xf32>
    %s2 = ml_program.global_load_const @s2 : tensor<1xf32>
    %s3 = ml_program.global_load_const @s3 : tensor<1xf32>
    %w = ml_program.global_load_const @w : tensor<2x2x1x1xf32>
    %w4 = ml_program.global_load_const @w4 : tensor<2x4x1x1xf32>
    %f = ml_program.global_load_const @f : tensor<8x3xf32>
    %xq, %xs = pd.fake_quantize_dequantize_moving_average_abs_max %x, %s1 {is_test = true} : (tensor<1x2x2x2xf32>, tensor<1xf32>) -> (tensor<1x2x2x2xf32>, tensor<1xf32>)
    %a = pd.conv2d %xq, %w : (tensor<1x2x2x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x2xf32>
    %b = pd.conv2d %xq, %w : (tensor<1x2x2x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x2xf32>
    %c = pd.concat [%a, %b] {axis = 1 : i32} : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x2x2xf32>
    %cq, %cs = pd.fake_quantize_dequantize_moving_average_abs_max %c, %s2 {is_test = true} : (tensor<1x4x2x2xf32>, tensor<1xf32>) -> (tensor<1x4x2x2xf32>, tensor<1xf32>)
    %d = pd.conv2d %cq, %w4 : (tensor<1x4x2x2xf32>, tensor<2x4x1x1xf32>) -> tensor<1x2x2x2xf32>
    %r = pd.reshape2 %d {shape = array<i32: 1, 8>} : (tensor<1x2x2x2xf32>) -> tensor<1x8xf32>
    %rq, %rs = pd.fake_quantize_dequantize_moving_average_abs_max %r, %s3 {is_test = true} : (tensor<1x8xf32>, tensor<1xf32>) -> (tensor<1x8xf32>, tensor<1xf32>)
    %y = pd.matmul_v2 %rq, %f : (tensor<1x8xf32>, tensor<8x3xf32>) -> tensor<1x3xf32>
    return %y : tensor<1x3xf32>
  }
}

// -----

// Tests products of two activations: Q x K^T with fake quantizers on both
// operands becomes pd.quantized_matmul with both steps (2.54 / 127 = 0.02,
// 3.81 / 127 = 0.03) and matmul's alpha; without a quantizer on X it stays
// float32 and says so.
// CHECK-LABEL: func.func @act_product
// CHECK: %[[QX:.*]] = pd.quantize %arg0 {scale = 2.000000e-02 : f32} : (tensor<2x6x8xf32>) -> tensor<2x6x8xi8>
// CHECK-NEXT: %[[QY:.*]] = pd.quantize %arg1 {scale = 3.000000e-02 : f32} : (tensor<2x5x8xf32>) -> tensor<2x5x8xi8>
// CHECK-NEXT: pd.quantized_matmul %[[QX]], %[[QY]] {alpha = 2.500000e-01 : f32, pd.quantized_from = "matmul", trans_y = true, x_scale = 2.000000e-02 : f32, y_scale = 3.000000e-02 : f32} : (tensor<2x6x8xi8>, tensor<2x5x8xi8>) -> tensor<2x6x5xf32>
// CHECK: pd.matmul_v2 %arg0, %{{.*}} {pd.fp32_reason = "X: its input has no 8-bit fake quantizer (no scale to run it in int8 with)", trans_y = true}
module {
  ml_program.global private @sx(dense<2.54> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @sy(dense<3.81> : tensor<1xf32>) : tensor<1xf32>
  func.func @act_product(%x: tensor<2x6x8xf32>, %y: tensor<2x5x8xf32>) -> (tensor<2x6x5xf32>, tensor<2x6x5xf32>) {
    %sx = ml_program.global_load_const @sx : tensor<1xf32>
    %sy = ml_program.global_load_const @sy : tensor<1xf32>
    %qx, %qsx = pd.fake_quantize_dequantize_moving_average_abs_max %x, %sx {is_test = true} : (tensor<2x6x8xf32>, tensor<1xf32>) -> (tensor<2x6x8xf32>, tensor<1xf32>)
    %qy, %qsy = pd.fake_quantize_dequantize_moving_average_abs_max %y, %sy {is_test = true} : (tensor<2x5x8xf32>, tensor<1xf32>) -> (tensor<2x5x8xf32>, tensor<1xf32>)
    %a = pd.matmul %qx, %qy {transpose_Y = true, alpha = 0.25 : f32} : (tensor<2x6x8xf32>, tensor<2x5x8xf32>) -> tensor<2x6x5xf32>
    %b = pd.matmul_v2 %x, %qy {trans_y = true} : (tensor<2x6x8xf32>, tensor<2x5x8xf32>) -> tensor<2x6x5xf32>
    return %a, %b : tensor<2x6x5xf32>, tensor<2x6x5xf32>
  }
}

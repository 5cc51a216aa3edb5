// RUN: paddle-opt %s -pd-int8-attributes -split-input-file -verify-diagnostics | FileCheck %s

// Tests the quantizers pd-int8-attributes puts in front of ops that ask for
// int8 (pd.int8, from enable_int8): the op's own threshold (2.54 -> step
// 0.02), else the out_threshold of the op before it (1.27 -> 0.01); two
// readers of one tensor with one threshold share one pair; an op without
// pd.int8 is left alone.
// CHECK-LABEL: func.func @thresholds
// CHECK: %[[Q0:.*]] = pd.quantize %arg0 {scale = 2.000000e-02 : f32} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xi8>
// CHECK: %[[D0:.*]] = pd.dequantize %[[Q0]] {scale = 2.000000e-02 : f32}
// CHECK: %[[A:.*]] = pd.conv2d %[[D0]], %{{.*}} {pd.int8 = ""
// CHECK: %[[R:.*]] = pd.relu %[[A]] {pd.out_threshold
// CHECK: %[[Q1:.*]] = pd.quantize %[[R]] {scale = 0.00999999977 : f32}
// CHECK: %[[D1:.*]] = pd.dequantize %[[Q1]]
// CHECK: pd.conv2d %[[D1]], %{{.*}} {pd.int8 = ""}
// CHECK: pd.conv2d %[[D1]], %{{.*}} {pd.int8 = ""}
// CHECK: pd.conv2d %[[R]], %{{.*}} :
// CHECK-NOT: pd.quantize
module {
  ml_program.global private @w(dense<1.0> : tensor<2x2x1x1xf32>) : tensor<2x2x1x1xf32>
  func.func @thresholds(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
    %w = ml_program.global_load_const @w : tensor<2x2x1x1xf32>
    %a = pd.conv2d %x, %w {pd.int8 = "", pd.int8_input_threshold = 2.54 : f32} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    %r = pd.relu %a {pd.out_threshold = 1.27 : f32} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    %b = pd.conv2d %r, %w {pd.int8 = ""} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    %c = pd.conv2d %r, %w {pd.int8 = ""} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    %d = pd.conv2d %r, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    return %b, %c, %d : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
  }
}

// -----

// Tests the ops that ask for int8 and cannot have it: no threshold anywhere,
// a bit length other than 8, a threshold of 0. Each is named and left as it is.
// CHECK-LABEL: func.func @refused
// CHECK-NOT: pd.quantize
module {
  ml_program.global private @w(dense<1.0> : tensor<4x3xf32>) : tensor<4x3xf32>
  func.func @refused(%x: tensor<2x4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
    %w = ml_program.global_load_const @w : tensor<4x3xf32>
    // expected-warning @+1 {{mul asks for int8 (enable_int8) but has no input scale}}
    %a = pd.mul %x, %w {pd.int8 = ""} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    // expected-warning @+1 {{mul asks for int8 (enable_int8) with bit_length 16; only 8-bit quantization has int8 kernels}}
    %b = pd.mul %x, %w {pd.int8 = "bit_length 16"} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    // expected-warning @+1 {{mul asks for int8 with an input threshold of 0}}
    %c = pd.mul %x, %w {pd.int8 = "", pd.int8_input_threshold = 0.0 : f32} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    return %a, %b, %c : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
  }
}

// -----

// Tests an input that a fake quantizer of the program already quantizes: it
// keeps that quantizer (the program's own scale wins).
// CHECK-LABEL: func.func @own_quantizer
// CHECK: %[[Q:.*]], %{{.*}} = pd.fake_quantize_dequantize_moving_average_abs_max
// CHECK-NOT: pd.quantize
// CHECK: pd.mul %[[Q]]
module {
  ml_program.global private @w(dense<1.0> : tensor<4x3xf32>) : tensor<4x3xf32>
  ml_program.global private @t(dense<2.0> : tensor<1xf32>) : tensor<1xf32>
  func.func @own_quantizer(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
    %w = ml_program.global_load_const @w : tensor<4x3xf32>
    %t = ml_program.global_load_const @t : tensor<1xf32>
    %q, %s = pd.fake_quantize_dequantize_moving_average_abs_max %x, %t {is_test = true} : (tensor<2x4xf32>, tensor<1xf32>) -> (tensor<2x4xf32>, tensor<1xf32>)
    %a = pd.mul %q, %w {pd.int8 = "", pd.int8_input_threshold = 1.0 : f32} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    return %a : tensor<2x3xf32>
  }
}

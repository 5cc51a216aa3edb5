// RUN: paddle-opt %s --split-input-file --convert-pd-to-linalg="kernels=onednn" | FileCheck %s

// Tests the int8 IR's lowering: pd.quantized_conv2d / pd.quantized_fc
// become pdk_qconv2d / pdk_qmatmul calls (qconv:: and qmatmul:: in
// KernelABI.h) with the per-channel scales as a constant operand in the
// Scales slot, and pd.quantize / pd.dequantize become generated code.

// ints: strides (2, 2), pads top/bottom/left/right (1, 0, 1, 0),
// dilations (1, 1), groups 1, activation relu (1), SrcType u8 (2),
// DstType s8 (1), the three layouts NCHW (0; pd-kernel-layouts sets
// them), ResType f32 (0, no residual); floats: alpha, beta, SrcScale,
// DstScale, ResScale.
// CHECK-LABEL: func.func @qconv
// CHECK: %[[S:.*]] = arith.constant dense<[0.00999999977, 3.000000e-02]> : tensor<2xf32>
// CHECK: pd.kernel_call "pdk_qconv2d"(%arg0, %arg1, %arg2, %[[S]])
// CHECK-SAME: floats = array<f32: 0.000000e+00, 0.000000e+00, 2.000000e-02, 5.000000e-02, 1.000000e+00>
// CHECK-SAME: ints = array<i64: 2, 2, 1, 0, 1, 0, 1, 1, 1, 1, 2, 1, 0, 0, 0, 0>
// CHECK-SAME: pd.from = "pd.quantized_conv2d", slots = array<i64: 0, 1, 2, -1, 3>
// CHECK-SAME: -> tensor<?x2x4x4xi8>
func.func @qconv(%x: tensor<?x3x8x8xui8>, %w: tensor<2x3x3x3xi8> {pd.weight = "w"}, %b: tensor<2xf32>) -> tensor<?x2x4x4xi8> {
  %y = pd.quantized_conv2d %x, %w Bias(%b) {strides = array<i32: 2, 2>, paddings = array<i32: 1, 0, 1, 0>, input_scale = 0.02 : f32, filter_scales = array<f32: 0.01, 0.03>, fuse_activation = "relu", out_dtype = "int8", output_scale = 0.05 : f32} : (tensor<?x3x8x8xui8>, tensor<2x3x3x3xi8>, tensor<2xf32>) -> tensor<?x2x4x4xi8>
  return %y : tensor<?x2x4x4xi8>
}

// -----

// An int8 residual (uint8 here, ResType 2) with its scale (ResScale 0.04),
// into an int8 destination.
// CHECK-LABEL: func.func @qconv_int8_residual
// CHECK: pd.kernel_call "pdk_qconv2d"(%arg0, %arg1, %arg2, %cst)
// CHECK-SAME: floats = array<f32: 0.000000e+00, 0.000000e+00, 2.000000e-02, 5.000000e-02, 4.000000e-02>
// CHECK-SAME: ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 0, 0, 0, 2>
// CHECK-SAME: slots = array<i64: 0, 1, -1, 2, 3>
func.func @qconv_int8_residual(%x: tensor<1x3x4x4xui8>, %w: tensor<2x3x1x1xi8> {pd.weight = "w"}, %r: tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xui8> {
  %y = pd.quantized_conv2d %x, %w ResidualData(%r) {input_scale = 0.02 : f32, filter_scales = array<f32: 0.01, 0.03>, fuse_activation = "relu", out_dtype = "uint8", output_scale = 0.05 : f32, residual_scale = 0.04 : f32} : (tensor<1x3x4x4xui8>, tensor<2x3x1x1xi8>, tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xui8>
  return %y : tensor<1x2x4x4xui8>
}

// -----

// int8 max pooling (pd-quantize's, over quantized values) runs on the
// kernel whatever precedes it, its data type fields (last) uint8 (2).
// CHECK-LABEL: func.func @int8_max_pool
// CHECK: pd.kernel_call "pdk_pool2d"(%arg0)
// CHECK-SAME: ints = array<i64: 0, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0, 2, 2>
func.func @int8_max_pool(%x: tensor<?x8x9x9xui8>) -> tensor<?x8x5x5xui8> {
  %y = pd.pool2d %x {ksize = array<i32: 3, 3>, strides = array<i32: 2, 2>, paddings = array<i32: 1, 1>} : (tensor<?x8x9x9xui8>) -> tensor<?x8x5x5xui8>
  return %y : tensor<?x8x5x5xui8>
}

// -----

// A dynamic image size: the result's height and width are computed from the
// input's, (in + pads - kernel span) / stride + 1 (here (h + 1 - 3) / 2 + 1).
// CHECK-LABEL: func.func @qconv_dynamic_image
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[H:.*]] = tensor.dim %arg0, %c2
// CHECK: %[[H1:.*]] = arith.addi %[[H]], %c-2
// CHECK: %[[H2:.*]] = arith.floordivsi %[[H1]], %c2
// CHECK: %[[H3:.*]] = arith.addi %[[H2]], %c1
// CHECK: %[[OH:.*]] = arith.maxsi %[[H3]]
// CHECK: %[[W:.*]] = tensor.dim %arg0, %c3
// CHECK: %[[OW:.*]] = arith.maxsi
// CHECK: %[[E:.*]] = tensor.empty(%[[N]], %[[OH]], %[[OW]]) : tensor<?x2x?x?xi8>
// CHECK: pd.kernel_call "pdk_qconv2d"{{.*}} init(%[[E]])
// CHECK-SAME: -> tensor<?x2x?x?xi8>
func.func @qconv_dynamic_image(%x: tensor<?x3x?x?xui8>, %w: tensor<2x3x3x3xi8> {pd.weight = "w"}) -> tensor<?x2x?x?xi8> {
  %y = pd.quantized_conv2d %x, %w {strides = array<i32: 2, 2>, paddings = array<i32: 1, 0, 1, 0>, input_scale = 0.02 : f32, filter_scales = array<f32: 0.01, 0.03>, out_dtype = "int8", output_scale = 0.05 : f32} : (tensor<?x3x?x?xui8>, tensor<2x3x3x3xi8>) -> tensor<?x2x?x?xi8>
  return %y : tensor<?x2x?x?xi8>
}

// -----

// ints: kind Fc (1), activation none, SrcType s8 (1), DstType f32 (0); the
// [?, 4, 16] input flattens at in_num_col_dims = 2.
// CHECK-LABEL: func.func @qfc
// CHECK: %[[S:.*]] = arith.constant dense<[0.00999999977, 2.000000e-02, 0.00999999977]> : tensor<3xf32>
// CHECK: pd.kernel_call "pdk_qmatmul"(%arg0, %arg1, %[[S]])
// CHECK-SAME: floats = array<f32: 0.000000e+00, 2.500000e-01, 1.000000e+00>
// CHECK-SAME: ints = array<i64: 1, 0, 1, 0>
// CHECK-SAME: slots = array<i64: 0, 1, -1, 2>
func.func @qfc(%x: tensor<?x4x16xi8>, %w: tensor<16x3xi8> {pd.weight = "w"}) -> tensor<?x4x3xf32> {
  %y = pd.quantized_fc %x, %w {in_num_col_dims = 2 : i32, input_scale = 0.25 : f32, weight_scales = array<f32: 0.01, 0.02, 0.01>} : (tensor<?x4x16xi8>, tensor<16x3xi8>) -> tensor<?x4x3xf32>
  return %y : tensor<?x4x3xf32>
}

// -----

// quantize: divide by the scale, round half to even, add the zero point,
// saturate to [-127, 127] (int8) or [0, 255] (uint8), convert.
// CHECK-LABEL: func.func @quantize
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: i8):
// CHECK-NEXT: arith.constant 5.000000e-01 : f32
// CHECK-NEXT: arith.divf %[[X]]
// CHECK-NEXT: math.roundeven
// CHECK-NEXT: arith.constant -1.270000e+02 : f32
// CHECK-NEXT: arith.maxnumf
// CHECK-NEXT: arith.constant 1.270000e+02 : f32
// CHECK-NEXT: arith.minnumf
// CHECK-NEXT: arith.fptosi %{{.*}} : f32 to i8
// CHECK: linalg.generic
// CHECK: math.roundeven
// CHECK-NEXT: arith.constant 1.280000e+02 : f32
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.constant 0.000000e+00 : f32
// CHECK-NEXT: arith.maxnumf
// CHECK-NEXT: arith.constant 2.550000e+02 : f32
// CHECK-NEXT: arith.minnumf
// CHECK-NEXT: arith.fptoui %{{.*}} : f32 to i8
// CHECK-NEXT: builtin.unrealized_conversion_cast %{{.*}} : i8 to ui8
// CHECK: linalg.generic
// CHECK: arith.uitofp %{{.*}} : i8 to f32
// CHECK-NEXT: arith.constant 1.280000e+02 : f32
// CHECK-NEXT: arith.subf
// CHECK-NEXT: arith.constant 5.000000e-01 : f32
// CHECK-NEXT: arith.mulf
func.func @quantize(%x: tensor<4xf32>) -> (tensor<4xi8>, tensor<4xf32>) {
  %q = pd.quantize %x {scale = 0.5 : f32} : (tensor<4xf32>) -> tensor<4xi8>
  %u = pd.quantize %x {scale = 0.5 : f32, zero_point = 128 : i32, dtype = "uint8"} : (tensor<4xf32>) -> tensor<4xui8>
  %d = pd.dequantize %u {scale = 0.5 : f32, zero_point = 128 : i32} : (tensor<4xui8>) -> tensor<4xf32>
  return %q, %d : tensor<4xi8>, tensor<4xf32>
}

// -----

// full_range: int8 saturates to [-128, 127] (Paddle's round_type 0).
// CHECK-LABEL: func.func @quantize_full_range
// CHECK: math.roundeven
// CHECK-NEXT: arith.constant -1.280000e+02 : f32
// CHECK-NEXT: arith.maxnumf
// CHECK-NEXT: arith.constant 1.270000e+02 : f32
// CHECK-NEXT: arith.minnumf
func.func @quantize_full_range(%x: tensor<4xf32>) -> tensor<4xi8> {
  %q = pd.quantize %x {scale = 0.5 : f32, full_range} : (tensor<4xf32>) -> tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

// pd.quantized_matmul -> pdk_qbmatmul (qbmatmul:: in KernelABI.h): A and B
// both run-time tensors, no Scales slot; ints: kind Batched (0), TransA 0,
// TransB 1, activation none (0), ConstWeights 0, AType u8 (2), BType s8
// (1); floats: alpha of the activation, then Scale = alpha * x_scale *
// y_scale (0.5 * 0.02 * 0.03 = 3e-4). The dynamic batch comes from X.
// CHECK-LABEL: func.func @qbmatmul
// CHECK: %[[D:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x2x6x5xf32>
// CHECK: pd.kernel_call "pdk_qbmatmul"(%arg0, %arg1) init(%[[E]])
// CHECK-SAME: floats = array<f32: 0.000000e+00, 2.99999985E-4>
// CHECK-SAME: ints = array<i64: 0, 0, 1, 0, 0, 2, 1>
// CHECK-SAME: pd.from = "pd.quantized_matmul", slots = array<i64: 0, 1, -1>
// CHECK-SAME: -> tensor<?x2x6x5xf32>
func.func @qbmatmul(%x: tensor<?x2x6x8xui8>, %y: tensor<1x1x5x8xi8>) -> tensor<?x2x6x5xf32> {
  %o = pd.quantized_matmul %x, %y {trans_y = true, alpha = 0.5 : f32, x_scale = 0.02 : f32, y_scale = 0.03 : f32} : (tensor<?x2x6x8xui8>, tensor<1x1x5x8xi8>) -> tensor<?x2x6x5xf32>
  return %o : tensor<?x2x6x5xf32>
}

// -----

// int8 average pooling (pd-quantize's, from one quantized tensor to the
// next): kind 1 (exclusive) or 2 (inclusive), source and destination uint8
// (2) or int8 (1), the step ratio as the one float; a global one takes the
// whole image as its window.
// CHECK-LABEL: func.func @int8_avg_pool
// CHECK: pd.kernel_call "pdk_pool2d"(%arg0)
// CHECK-SAME: floats = array<f32: 1.250000e+00>
// CHECK-SAME: ints = array<i64: 1, 3, 3, 1, 1, 1, 1, 1, 1, 0, 0, 2, 2>
// CHECK: pd.kernel_call "pdk_pool2d"(%arg1)
// CHECK-SAME: floats = array<f32: 5.000000e-01>
// CHECK-SAME: ints = array<i64: 2, 9, 9, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1>
func.func @int8_avg_pool(%x: tensor<?x8x9x9xui8>, %s: tensor<?x8x9x9xi8>) -> (tensor<?x8x9x9xui8>, tensor<?x8x1x1xi8>) {
  %y = pd.pool2d %x {ksize = array<i32: 3, 3>, paddings = array<i32: 1, 1>, pooling_type = "avg", pd.int8_rescale = 1.25 : f32} : (tensor<?x8x9x9xui8>) -> tensor<?x8x9x9xui8>
  %g = pd.pool2d %s {ksize = array<i32: 1, 1>, global_pooling = true, exclusive = false, pooling_type = "avg", pd.int8_rescale = 0.5 : f32} : (tensor<?x8x9x9xi8>) -> tensor<?x8x1x1xi8>
  return %y, %g : tensor<?x8x9x9xui8>, tensor<?x8x1x1xi8>
}

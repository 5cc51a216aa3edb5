// RUN: paddle-opt %s -split-input-file -pd-fold-constants | FileCheck %s

// Tests a parameter subgraph folded in program order: transpose2 of a 2x3
// weight, reshape2 of the result, then scale (2x + 1) -> one new global;
// the original weight is erased. Values: w = [[0,1,2],[3,4,5]] ->
// transposed [[0,3],[1,4],[2,5]] -> flat [0,3,1,4,2,5] -> [1,7,3,9,5,11].
// CHECK-NOT: ml_program.global private @w(
// CHECK-LABEL: func.func @weight_chain
// CHECK: %[[C:.*]] = ml_program.global_load_const @w.transpose2.reshape2.scale : tensor<6xf32>
// CHECK-NEXT: %[[Y:.*]] = pd.elementwise_mul %arg0, %[[C]]
// CHECK-NEXT: return %[[Y]]
// 1, 7, 3, 9, 5, 11 as little-endian f32 (computed with NumPy):
// CHECK: w.transpose2.reshape2.scale: "0x400000000000803F0000E04000004040000010410000A04000003041"
module {
  ml_program.global private @w(dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  func.func @weight_chain(%x: tensor<6xf32>) -> tensor<6xf32> {
    %w = ml_program.global_load_const @w : tensor<2x3xf32>
    %0 = pd.transpose2 %w {axis = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %1 = pd.reshape2 %0 {shape = array<i32: 6>} : (tensor<3x2xf32>) -> tensor<6xf32>
    %2 = pd.scale %1 {scale = 2.0 : f32, bias = 1.0 : f32} : (tensor<6xf32>) -> tensor<6xf32>
    %3 = pd.elementwise_mul %x, %2 : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    return %3 : tensor<6xf32>
  }
}

// -----

// Tests broadcasting arithmetic between parameters (Paddle axis rule: b
// [2] aligned at dim 0 of a [2x2]), a cast to int32, and channel-wise fake
// quant-dequant of a weight (8 bits: scale per row = max|x|, values rounded
// to multiples of scale/127; both outputs fold).
// a + b = [[1+10, 2+10], [3+20, 4+20]] = [[11, 12], [23, 24]].
// CHECK-LABEL: func.func @arith_cast_quant
// CHECK-DAG: %[[S:.*]] = ml_program.global_load_const @a.elementwise_add : tensor<2x2xf32>
// CHECK-DAG: %[[I:.*]] = ml_program.global_load_const @a.cast : tensor<2x2xi32>
// CHECK-DAG: %[[Q:.*]] = ml_program.global_load_const @q.fake_channel_wise_quantize_dequantize_abs_max : tensor<2x2xf32>
// CHECK-DAG: %[[QS:.*]] = ml_program.global_load_const @q.fake_channel_wise_quantize_dequantize_abs_max_1 : tensor<2xf32>
// CHECK: return %[[S]], %[[I]], %[[Q]], %[[QS]]
// CHECK-DAG: a.elementwise_add: "0x4000000000003041000040410000B8410000C041"
// CHECK-DAG: a.cast: "0x4000000001000000020000000300000004000000"
// Row 0 is [1, -0.5] (scale 1): -0.5 * 127 = -63.5 rounds away from zero to
// -64, so -64/127 = -0.503937 (0xBF010204); row 1 is [0, 2] (scale 2).
// CHECK-DAG: q.fake_channel_wise_quantize_dequantize_abs_max: "0x400000000000803F040201BF0000000000000040"
// CHECK-DAG: q.fake_channel_wise_quantize_dequantize_abs_max_1: "0x400000000000803F00000040"
module {
  ml_program.global private @a(dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  ml_program.global private @b(dense<[10.0, 20.0]> : tensor<2xf32>) : tensor<2xf32>
  ml_program.global private @q(dense<[[1.0, -0.5], [0.0, 2.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  func.func @arith_cast_quant() -> (tensor<2x2xf32>, tensor<2x2xi32>, tensor<2x2xf32>, tensor<2xf32>) {
    %a = ml_program.global_load_const @a : tensor<2x2xf32>
    %b = ml_program.global_load_const @b : tensor<2xf32>
    %q = ml_program.global_load_const @q : tensor<2x2xf32>
    %0 = pd.elementwise_add %a, %b {axis = 0 : i32} : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
    %1 = pd.cast %a {in_dtype = 5 : i32, out_dtype = 2 : i32} : (tensor<2x2xf32>) -> tensor<2x2xi32>
    %2:2 = pd.fake_channel_wise_quantize_dequantize_abs_max %q {quant_axis = 0 : i32} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>)
    return %0, %1, %2#0, %2#1 : tensor<2x2xf32>, tensor<2x2xi32>, tensor<2x2xf32>, tensor<2xf32>
  }
}

// -----

// Tests that the folded weight quantization rounds as Paddle's float32
// kernel: with s = 0.23514983 (0x3E70CB1E), x = -0.05647299 (0xBD675039)
// scales to (127 * (1 / s)) * x = -30.5 exactly in float32 (-30.4999999 in
// double), which rounds away from zero to -31: -31 * s / 127 = -0.057398777
// (0xBD6B1AFB), not -30's -0.0555.
// CHECK-LABEL: func.func @quant_float32_tie
// CHECK-DAG: q.fake_channel_wise_quantize_dequantize_abs_max: "0x400000001ECB703EFB1A6BBD"
// CHECK-DAG: q.fake_channel_wise_quantize_dequantize_abs_max_1: "0x400000001ECB703E"
module {
  ml_program.global private @q(dense<[[0x3E70CB1E, 0xBD675039]]> : tensor<1x2xf32>) : tensor<1x2xf32>
  func.func @quant_float32_tie() -> (tensor<1x2xf32>, tensor<1xf32>) {
    %q = ml_program.global_load_const @q : tensor<1x2xf32>
    %0:2 = pd.fake_channel_wise_quantize_dequantize_abs_max %q {quant_axis = 0 : i32} : (tensor<1x2xf32>) -> (tensor<1x2xf32>, tensor<1xf32>)
    return %0#0, %0#1 : tensor<1x2xf32>, tensor<1xf32>
  }
}

// -----

// Negative: an op reading a model input, and a weight read by a non-folding
// op, stay as they are.
// CHECK-LABEL: func.func @negative_cases
// CHECK: ml_program.global_load_const @w : tensor<4xf32>
// CHECK: pd.scale %arg0
// CHECK: pd.relu
module {
  ml_program.global private @w(dense<1.0> : tensor<4xf32>) : tensor<4xf32>
  func.func @negative_cases(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %w = ml_program.global_load_const @w : tensor<4xf32>
    %0 = pd.scale %x {scale = 2.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = pd.relu %w : (tensor<4xf32>) -> tensor<4xf32>
    return %0, %1 : tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// Tests that a matmul_v2 reading a constant 2-D weight transposed (ONNX Gemm
// transB = 1) reads a folded transposed copy instead: w = [[0,1,2],[3,4,5]]
// (2x3, used as 3x2 via trans_y) becomes [[0,3],[1,4],[2,5]] and trans_y is
// dropped. A non-constant Y keeps trans_y.
// CHECK-LABEL: func.func @gemm_trans_b
// CHECK: %[[W:.*]] = ml_program.global_load_const @w.transpose2 : tensor<3x2xf32>
// CHECK: pd.matmul_v2 %arg0, %[[W]] : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
// CHECK: pd.matmul_v2 %arg0, %arg1 {trans_y = true}
// 0, 3, 1, 4, 2, 5 as little-endian f32 (after the 64-byte alignment word):
// CHECK: w.transpose2: "0x4000000000000000000040400000803F00008040000000400000A040"
module {
  ml_program.global private @w(dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  func.func @gemm_trans_b(%x: tensor<4x3xf32>, %y: tensor<2x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
    %w = ml_program.global_load_const @w : tensor<2x3xf32>
    %0 = pd.matmul_v2 %x, %w {trans_y = true} : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
    %1 = pd.matmul_v2 %x, %y {trans_y = true} : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
    return %0, %1 : tensor<4x2xf32>, tensor<4x2xf32>
  }
}

// -----

// Tests PaddleSlim's weight dequantize_linear (int8 weight, one scale per
// row along quant_axis 0) folded in float32 as (w * s) / 127, as Paddle
// computes it: 127 * 1.27 / 127, -64 * 1.27 / 127, 127 * 0.254 / 127,
// 64 * 0.254 / 127 (bit patterns from NumPy's float32).
// CHECK-LABEL: func.func @dequantize_linear_weight
// CHECK-NOT: pd.dequantize_linear
// CHECK: w.dequantize_linear: "0x400000005C8FA23F0AD723BF4A0C823E6F12033E"
module {
  ml_program.global private @w(dense<[[127, -64], [127, 64]]> : tensor<2x2xi8>) : tensor<2x2xi8>
  ml_program.global private @s(dense<[1.27, 0.254]> : tensor<2xf32>) : tensor<2xf32>
  ml_program.global private @zp(dense<0> : tensor<2xi32>) : tensor<2xi32>
  func.func @dequantize_linear_weight() -> tensor<2x2xf32> {
    %w = ml_program.global_load_const @w : tensor<2x2xi8>
    %s = ml_program.global_load_const @s : tensor<2xf32>
    %zp = ml_program.global_load_const @zp : tensor<2xi32>
    %d = pd.dequantize_linear %w, %s, %zp {quant_axis = 0 : i32} : (tensor<2x2xi8>, tensor<2xf32>, tensor<2xi32>) -> tensor<2x2xf32>
    return %d : tensor<2x2xf32>
  }
}

// -----

// Tests quantize_linear of a constant (round_type 0: half to even, then
// [-128, 127]) with one scale: 2 * 127 / 2 = 127, -3 -> -190.5 -> -128,
// 1/127 * 127 / 2 = 0.5 -> 0, 3/127 * 127 / 2 = 1.5 -> 2 (values exact in
// float32 up to the products, which NumPy gives as 127, -128, 0, 2).
// CHECK-LABEL: func.func @quantize_linear_constant
// CHECK: x.quantize_linear: "0x400000000000FE42000000C30000000000000040"
module {
  ml_program.global private @x(dense<[2.0, -3.0, 0.007874016, 0.023622047]> : tensor<4xf32>) : tensor<4xf32>
  ml_program.global private @s(dense<2.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @zp(dense<0> : tensor<1xi32>) : tensor<1xi32>
  func.func @quantize_linear_constant() -> tensor<4xf32> {
    %x = ml_program.global_load_const @x : tensor<4xf32>
    %s = ml_program.global_load_const @s : tensor<1xf32>
    %zp = ml_program.global_load_const @zp : tensor<1xi32>
    %q = pd.quantize_linear %x, %s, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xi32>) -> tensor<4xf32>
    return %q : tensor<4xf32>
  }
}

// RUN: paddle-opt %s -pd-fuse-fc -split-input-file | FileCheck %s

// Tests matmul_v2 + bias + gelu (BERT's FFN) -> fc with in_num_col_dims = 2.
// CHECK-LABEL: func.func @ffn
// CHECK: %[[F:.*]] = pd.fc %arg0, %{{.*}} Bias(%{{.*}}) {activation_type = "gelu", in_num_col_dims = 2 : i32} : (tensor<?x?x4xf32>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<?x?x8xf32>
// CHECK-NEXT: return %[[F]]
module {
  ml_program.global private @w(dense<1.0> : tensor<4x8xf32>) : tensor<4x8xf32>
  ml_program.global private @b(dense<0.5> : tensor<8xf32>) : tensor<8xf32>
  func.func @ffn(%x: tensor<?x?x4xf32>) -> tensor<?x?x8xf32> {
    %w = ml_program.global_load_const @w : tensor<4x8xf32>
    %b = ml_program.global_load_const @b : tensor<8xf32>
    %0 = pd.matmul_v2 %x, %w : (tensor<?x?x4xf32>, tensor<4x8xf32>) -> tensor<?x?x8xf32>
    %1 = pd.elementwise_add %0, %b {axis = 2 : i32} : (tensor<?x?x8xf32>, tensor<8xf32>) -> tensor<?x?x8xf32>
    %2 = pd.gelu %1 : (tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
    return %2 : tensor<?x?x8xf32>
  }
}

// -----

// Tests Fluid's mul + bias (x_num_col_dims 1) -> fc, relu fused.
// CHECK-LABEL: func.func @mul_bias_relu
// CHECK: pd.fc %arg0, %{{.*}} Bias(%{{.*}}) {activation_type = "relu"} : (tensor<?x4x1x1xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
module {
  ml_program.global private @w(dense<1.0> : tensor<4x3xf32>) : tensor<4x3xf32>
  ml_program.global private @b(dense<0.5> : tensor<3xf32>) : tensor<3xf32>
  func.func @mul_bias_relu(%x: tensor<?x4x1x1xf32>) -> tensor<?x3xf32> {
    %w = ml_program.global_load_const @w : tensor<4x3xf32>
    %b = ml_program.global_load_const @b : tensor<3xf32>
    %0 = pd.mul %x, %w : (tensor<?x4x1x1xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
    %1 = pd.elementwise_add %0, %b {axis = 1 : i32} : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
    %2 = pd.relu %1 : (tensor<?x3xf32>) -> tensor<?x3xf32>
    return %2 : tensor<?x3xf32>
  }
}

// -----

// Tests that a transposed or run-time weight is not fused (attention's Q K^T).
// CHECK-LABEL: func.func @negative_attention_scores
// CHECK: pd.matmul_v2
// CHECK: pd.elementwise_add
// CHECK-NOT: pd.fc
func.func @negative_attention_scores(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %m: tensor<4xf32>) -> tensor<1x2x4x4xf32> {
  %0 = pd.matmul_v2 %q, %k {trans_y = true} : (tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x4x4xf32>
  %1 = pd.elementwise_add %0, %m : (tensor<1x2x4x4xf32>, tensor<4xf32>) -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}

// -----

// Tests the ONNX export form of a linear layer + exact GELU: the bias is the
// first operand of the add, and GELU is written x * (erf(x / sqrt(2)) + 1)
// * 0.5. Both fuse: one fc with activation gelu.
// CHECK-LABEL: func.func @onnx_linear_gelu
// CHECK: %[[FC:.*]] = pd.fc %arg0, %{{.*}} Bias(%{{.*}}) {activation_type = "gelu", in_num_col_dims = 2 : i32}
// CHECK-NOT: pd.erf
// CHECK: return %[[FC]]
module {
  ml_program.global private @w(dense<1.0> : tensor<8x4xf32>) : tensor<8x4xf32>
  ml_program.global private @b(dense<0.5> : tensor<4xf32>) : tensor<4xf32>
  ml_program.global private @sqrt2(dense<1.41421354> : tensor<f32>) : tensor<f32>
  ml_program.global private @one(dense<1.0> : tensor<f32>) : tensor<f32>
  ml_program.global private @half(dense<0.5> : tensor<f32>) : tensor<f32>
  func.func @onnx_linear_gelu(%x: tensor<2x3x8xf32>) -> tensor<2x3x4xf32> {
    %w = ml_program.global_load_const @w : tensor<8x4xf32>
    %b = ml_program.global_load_const @b : tensor<4xf32>
    %s = ml_program.global_load_const @sqrt2 : tensor<f32>
    %o = ml_program.global_load_const @one : tensor<f32>
    %h = ml_program.global_load_const @half : tensor<f32>
    %0 = pd.matmul_v2 %x, %w : (tensor<2x3x8xf32>, tensor<8x4xf32>) -> tensor<2x3x4xf32>
    %1 = pd.elementwise_add %b, %0 : (tensor<4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %2 = pd.elementwise_div %1, %s : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
    %3 = pd.erf %2 : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %4 = pd.elementwise_add %3, %o : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
    %5 = pd.elementwise_mul %1, %4 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %6 = pd.elementwise_mul %5, %h : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
    return %6 : tensor<2x3x4xf32>
  }
}

// -----

// Negative: a different constant (0.4 instead of 0.5) is not GELU.
// CHECK-LABEL: func.func @not_gelu
// CHECK: pd.erf
// CHECK-NOT: pd.gelu
module {
  ml_program.global private @sqrt2(dense<1.41421354> : tensor<f32>) : tensor<f32>
  ml_program.global private @one(dense<1.0> : tensor<f32>) : tensor<f32>
  ml_program.global private @c(dense<0.4> : tensor<f32>) : tensor<f32>
  func.func @not_gelu(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
    %s = ml_program.global_load_const @sqrt2 : tensor<f32>
    %o = ml_program.global_load_const @one : tensor<f32>
    %h = ml_program.global_load_const @c : tensor<f32>
    %2 = pd.elementwise_div %x, %s : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %3 = pd.erf %2 : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %4 = pd.elementwise_add %3, %o : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %5 = pd.elementwise_mul %x, %4 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %6 = pd.elementwise_mul %5, %h : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    return %6 : tensor<2x4xf32>
  }
}

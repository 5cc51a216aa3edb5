// RUN: paddle-opt %s -split-input-file -pd-fuse-multihead-matmul | FileCheck %s
// RUN: paddle-opt %s -split-input-file --pd-optimize="fuse-attention=false" | FileCheck %s --check-prefix=UNFUSED

// Tests the zoo BERT form: fc projections, matmul_v2 with trans_y, scale of
// the scores, mask add, softmax, product with V, heads merged. The three
// weights are concatenated into W [H, 3, H] (row i holds Wq[i], Wk[i],
// Wv[i]) and the biases into [3, H].
// CHECK-LABEL: func.func @bert_attention
// CHECK-DAG: %[[W:.*]] = ml_program.global_load_const @wq.qkv_fused : tensor<4x3x4xf32>
// CHECK-DAG: %[[B:.*]] = ml_program.global_load_const @bq.qkv_fused : tensor<3x4xf32>
// CHECK: %[[Y:.*]] = pd.multihead_matmul %arg0, %[[W]], %[[B]] BiasQK(%arg1) {alpha = 0.707106769 : f32, head_number = 2 : i32} : (tensor<?x?x4xf32>, tensor<4x3x4xf32>, tensor<3x4xf32>, tensor<?x1x1x?xf32>) -> tensor<?x?x4xf32>
// CHECK-NOT: pd.fc
// CHECK-NOT: pd.softmax
// CHECK: return %[[Y]]
// The graph pipeline without the fusion (what paddle-compile runs for
// --precision int8: the projections stay fc ops, which have int8 kernels).
// UNFUSED-LABEL: func.func @bert_attention
// UNFUSED-NOT: pd.multihead_matmul
// UNFUSED-COUNT-3: pd.fc
// UNFUSED: pd.softmax
// The fused weight: each of the 4 rows is Wq's row (1.0), Wk's (2.0), Wv's (3.0).
// The separate weights are erased.
// CHECK-NOT: ml_program.global private @wq(
// CHECK: bq.qkv_fused: {{"0x[0-9A-F]{8}(0000803F){4}(00000040){4}(00004040){4}"}}
// CHECK: wq.qkv_fused: {{"0x[0-9A-F]{8}((0000803F){4}(00000040){4}(00004040){4}){4}"}}
module {
  ml_program.global private @wq(dense<1.0> : tensor<4x4xf32>) : tensor<4x4xf32>
  ml_program.global private @wk(dense<2.0> : tensor<4x4xf32>) : tensor<4x4xf32>
  ml_program.global private @wv(dense<3.0> : tensor<4x4xf32>) : tensor<4x4xf32>
  ml_program.global private @bq(dense<1.0> : tensor<4xf32>) : tensor<4xf32>
  ml_program.global private @bk(dense<2.0> : tensor<4xf32>) : tensor<4xf32>
  ml_program.global private @bv(dense<3.0> : tensor<4xf32>) : tensor<4xf32>
  func.func @bert_attention(%x: tensor<?x?x4xf32>, %mask: tensor<?x1x1x?xf32>) -> tensor<?x?x4xf32> {
    %wq = ml_program.global_load_const @wq : tensor<4x4xf32>
    %wk = ml_program.global_load_const @wk : tensor<4x4xf32>
    %wv = ml_program.global_load_const @wv : tensor<4x4xf32>
    %bq = ml_program.global_load_const @bq : tensor<4xf32>
    %bk = ml_program.global_load_const @bk : tensor<4xf32>
    %bv = ml_program.global_load_const @bv : tensor<4xf32>
    %q0 = pd.fc %x, %wq Bias(%bq) {in_num_col_dims = 2 : i32} : (tensor<?x?x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<?x?x4xf32>
    %q1 = pd.reshape2 %q0 {shape = array<i32: 0, 0, 2, 2>} : (tensor<?x?x4xf32>) -> tensor<?x?x2x2xf32>
    %q = pd.transpose2 %q1 {axis = array<i32: 0, 2, 1, 3>} : (tensor<?x?x2x2xf32>) -> tensor<?x2x?x2xf32>
    %k0 = pd.fc %x, %wk Bias(%bk) {in_num_col_dims = 2 : i32} : (tensor<?x?x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<?x?x4xf32>
    %k1 = pd.reshape2 %k0 {shape = array<i32: 0, 0, 2, 2>} : (tensor<?x?x4xf32>) -> tensor<?x?x2x2xf32>
    %k = pd.transpose2 %k1 {axis = array<i32: 0, 2, 1, 3>} : (tensor<?x?x2x2xf32>) -> tensor<?x2x?x2xf32>
    %v0 = pd.fc %x, %wv Bias(%bv) {in_num_col_dims = 2 : i32} : (tensor<?x?x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<?x?x4xf32>
    %v1 = pd.reshape2 %v0 {shape = array<i32: 0, 0, 2, 2>} : (tensor<?x?x4xf32>) -> tensor<?x?x2x2xf32>
    %v = pd.transpose2 %v1 {axis = array<i32: 0, 2, 1, 3>} : (tensor<?x?x2x2xf32>) -> tensor<?x2x?x2xf32>
    %s0 = pd.matmul_v2 %q, %k {trans_y = true} : (tensor<?x2x?x2xf32>, tensor<?x2x?x2xf32>) -> tensor<?x2x?x?xf32>
    %s1 = pd.scale %s0 {scale = 0.707106769 : f32} : (tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
    %s2 = pd.elementwise_add %s1, %mask : (tensor<?x2x?x?xf32>, tensor<?x1x1x?xf32>) -> tensor<?x2x?x?xf32>
    %p = pd.softmax %s2 : (tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
    %c0 = pd.matmul_v2 %p, %v : (tensor<?x2x?x?xf32>, tensor<?x2x?x2xf32>) -> tensor<?x2x?x2xf32>
    %c1 = pd.transpose2 %c0 {axis = array<i32: 0, 2, 1, 3>} : (tensor<?x2x?x2xf32>) -> tensor<?x?x2x2xf32>
    %c = pd.reshape2 %c1 {shape = array<i32: 0, 0, 4>} : (tensor<?x?x2x2xf32>) -> tensor<?x?x4xf32>
    return %c : tensor<?x?x4xf32>
  }
}

// -----

// Tests the ERNIE / Fluid form: Q scaled after the head split, matmul (v1)
// with transpose_Y and its own alpha, no mask: alpha = 0.5 * 0.25.
// CHECK-LABEL: func.func @fluid_attention
// CHECK: pd.multihead_matmul %arg0, %{{.*}}, %{{.*}} {alpha = 1.250000e-01 : f32, head_number = 2 : i32} : (tensor<1x3x4xf32>, tensor<4x3x4xf32>, tensor<3x4xf32>) -> tensor<1x3x4xf32>
// CHECK-NOT: pd.matmul
module {
  ml_program.global private @w(dense<1.0> : tensor<4x4xf32>) : tensor<4x4xf32>
  ml_program.global private @b(dense<0.0> : tensor<4xf32>) : tensor<4xf32>
  func.func @fluid_attention(%x: tensor<1x3x4xf32>) -> tensor<1x3x4xf32> {
    %w = ml_program.global_load_const @w : tensor<4x4xf32>
    %b = ml_program.global_load_const @b : tensor<4xf32>
    %q0 = pd.fc %x, %w Bias(%b) {in_num_col_dims = 2 : i32} : (tensor<1x3x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<1x3x4xf32>
    %q1 = pd.reshape2 %q0 {shape = array<i32: 0, 0, 2, 2>} : (tensor<1x3x4xf32>) -> tensor<1x3x2x2xf32>
    %q2 = pd.transpose2 %q1 {axis = array<i32: 0, 2, 1, 3>} : (tensor<1x3x2x2xf32>) -> tensor<1x2x3x2xf32>
    %q = pd.scale %q2 {scale = 0.5 : f32} : (tensor<1x2x3x2xf32>) -> tensor<1x2x3x2xf32>
    %k0 = pd.fc %x, %w Bias(%b) {in_num_col_dims = 2 : i32} : (tensor<1x3x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<1x3x4xf32>
    %k1 = pd.reshape2 %k0 {shape = array<i32: 0, 0, 2, 2>} : (tensor<1x3x4xf32>) -> tensor<1x3x2x2xf32>
    %k = pd.transpose2 %k1 {axis = array<i32: 0, 2, 1, 3>} : (tensor<1x3x2x2xf32>) -> tensor<1x2x3x2xf32>
    %v0 = pd.fc %x, %w Bias(%b) {in_num_col_dims = 2 : i32} : (tensor<1x3x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<1x3x4xf32>
    %v1 = pd.reshape2 %v0 {shape = array<i32: 0, 0, 2, 2>} : (tensor<1x3x4xf32>) -> tensor<1x3x2x2xf32>
    %v = pd.transpose2 %v1 {axis = array<i32: 0, 2, 1, 3>} : (tensor<1x3x2x2xf32>) -> tensor<1x2x3x2xf32>
    %s = pd.matmul %q, %k {transpose_Y = true, alpha = 0.25 : f32} : (tensor<1x2x3x2xf32>, tensor<1x2x3x2xf32>) -> tensor<1x2x3x3xf32>
    %p = pd.softmax %s {axis = 3 : i32} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %c0 = pd.matmul_v2 %p, %v : (tensor<1x2x3x3xf32>, tensor<1x2x3x2xf32>) -> tensor<1x2x3x2xf32>
    %c1 = pd.transpose2 %c0 {axis = array<i32: 0, 2, 1, 3>} : (tensor<1x2x3x2xf32>) -> tensor<1x3x2x2xf32>
    %c = pd.reshape2 %c1 {shape = array<i32: 0, 0, 4>} : (tensor<1x3x2x2xf32>) -> tensor<1x3x4xf32>
    return %c : tensor<1x3x4xf32>
  }
}

// -----

// Negative cases: V scaled (not foldable into alpha), and K projected from
// another input. Nothing fuses.
// CHECK-LABEL: func.func @negative_scaled_v
// CHECK-NOT: pd.multihead_matmul
// CHECK: pd.softmax
// CHECK-LABEL: func.func @negative_other_input
// CHECK-NOT: pd.multihead_matmul
// CHECK: pd.softmax
module {
  ml_program.global private @w(dense<1.0> : tensor<4x4xf32>) : tensor<4x4xf32>
  ml_program.global private @b(dense<0.0> : tensor<4xf32>) : tensor<4xf32>
  func.func @negative_scaled_v(%x: tensor<1x3x4xf32>) -> tensor<1x3x4xf32> {
    %w = ml_program.global_load_const @w : tensor<4x4xf32>
    %b = ml_program.global_load_const @b : tensor<4xf32>
    %q0 = pd.fc %x, %w Bias(%b) {in_num_col_dims = 2 : i32} : (tensor<1x3x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<1x3x4xf32>
    %q1 = pd.reshape2 %q0 {shape = array<i32: 0, 0, 2, 2>} : (tensor<1x3x4xf32>) -> tensor<1x3x2x2xf32>
    %q = pd.transpose2 %q1 {axis = array<i32: 0, 2, 1, 3>} : (tensor<1x3x2x2xf32>) -> tensor<1x2x3x2xf32>
    %k0 = pd.fc %x, %w Bias(%b) {in_num_col_dims = 2 : i32} : (tensor<1x3x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<1x3x4xf32>
    %k1 = pd.reshape2 %k0 {shape = array<i32: 0, 0, 2, 2>} : (tensor<1x3x4xf32>) -> tensor<1x3x2x2xf32>
    %k = pd.transpose2 %k1 {axis = array<i32: 0, 2, 1, 3>} : (tensor<1x3x2x2xf32>) -> tensor<1x2x3x2xf32>
    %v0 = pd.fc %x, %w Bias(%b) {in_num_col_dims = 2 : i32} : (tensor<1x3x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<1x3x4xf32>
    %v1 = pd.reshape2 %v0 {shape = array<i32: 0, 0, 2, 2>} : (tensor<1x3x4xf32>) -> tensor<1x3x2x2xf32>
    %v2 = pd.transpose2 %v1 {axis = array<i32: 0, 2, 1, 3>} : (tensor<1x3x2x2xf32>) -> tensor<1x2x3x2xf32>
    %v = pd.scale %v2 {scale = 0.5 : f32} : (tensor<1x2x3x2xf32>) -> tensor<1x2x3x2xf32>
    %s = pd.matmul_v2 %q, %k {trans_y = true} : (tensor<1x2x3x2xf32>, tensor<1x2x3x2xf32>) -> tensor<1x2x3x3xf32>
    %p = pd.softmax %s : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %c0 = pd.matmul_v2 %p, %v : (tensor<1x2x3x3xf32>, tensor<1x2x3x2xf32>) -> tensor<1x2x3x2xf32>
    %c1 = pd.transpose2 %c0 {axis = array<i32: 0, 2, 1, 3>} : (tensor<1x2x3x2xf32>) -> tensor<1x3x2x2xf32>
    %c = pd.reshape2 %c1 {shape = array<i32: 0, 0, 4>} : (tensor<1x3x2x2xf32>) -> tensor<1x3x4xf32>
    return %c : tensor<1x3x4xf32>
  }
  func.func @negative_other_input(%x: tensor<1x3x4xf32>, %y: tensor<1x3x4xf32>) -> tensor<1x3x4xf32> {
    %w = ml_program.global_load_const @w : tensor<4x4xf32>
    %b = ml_program.global_load_const @b : tensor<4xf32>
    %q0 = pd.fc %x, %w Bias(%b) {in_num_col_dims = 2 : i32} : (tensor<1x3x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<1x3x4xf32>
    %q1 = pd.reshape2 %q0 {shape = array<i32: 0, 0, 2, 2>} : (tensor<1x3x4xf32>) -> tensor<1x3x2x2xf32>
    %q = pd.transpose2 %q1 {axis = array<i32: 0, 2, 1, 3>} : (tensor<1x3x2x2xf32>) -> tensor<1x2x3x2xf32>
    %k0 = pd.fc %y, %w Bias(%b) {in_num_col_dims = 2 : i32} : (tensor<1x3x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<1x3x4xf32>
    %k1 = pd.reshape2 %k0 {shape = array<i32: 0, 0, 2, 2>} : (tensor<1x3x4xf32>) -> tensor<1x3x2x2xf32>
    %k = pd.transpose2 %k1 {axis = array<i32: 0, 2, 1, 3>} : (tensor<1x3x2x2xf32>) -> tensor<1x2x3x2xf32>
    %v0 = pd.fc %x, %w Bias(%b) {in_num_col_dims = 2 : i32} : (tensor<1x3x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<1x3x4xf32>
    %v1 = pd.reshape2 %v0 {shape = array<i32: 0, 0, 2, 2>} : (tensor<1x3x4xf32>) -> tensor<1x3x2x2xf32>
    %v = pd.transpose2 %v1 {axis = array<i32: 0, 2, 1, 3>} : (tensor<1x3x2x2xf32>) -> tensor<1x2x3x2xf32>
    %s = pd.matmul_v2 %q, %k {trans_y = true} : (tensor<1x2x3x2xf32>, tensor<1x2x3x2xf32>) -> tensor<1x2x3x3xf32>
    %p = pd.softmax %s : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %c0 = pd.matmul_v2 %p, %v : (tensor<1x2x3x3xf32>, tensor<1x2x3x2xf32>) -> tensor<1x2x3x2xf32>
    %c1 = pd.transpose2 %c0 {axis = array<i32: 0, 2, 1, 3>} : (tensor<1x2x3x2xf32>) -> tensor<1x3x2x2xf32>
    %c = pd.reshape2 %c1 {shape = array<i32: 0, 0, 4>} : (tensor<1x3x2x2xf32>) -> tensor<1x3x4xf32>
    return %c : tensor<1x3x4xf32>
  }
}

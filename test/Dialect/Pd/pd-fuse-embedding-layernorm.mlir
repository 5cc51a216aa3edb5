// RUN: paddle-opt %s -split-input-file -pd-fuse-embedding-layernorm | FileCheck %s

// Tests BERT's embeddings: word + position + token-type lookups summed by
// two adds, then layer_norm over the hidden dim.
// CHECK-LABEL: func.func @bert_embeddings
// CHECK: %[[Y:.*]] = pd.fused_embedding_eltwise_layernorm [%arg0, %arg1, %arg2] [%arg3, %arg4, %arg5], %arg7, %arg6 {epsilon = 9.99999996E-13 : f32} : (tensor<?x?xi64>, tensor<?x?xi64>, tensor<?x?xi64>, tensor<10x8xf32>, tensor<16x8xf32>, tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x?x8xf32>
// CHECK-NOT: pd.lookup_table_v2
// CHECK-NOT: pd.elementwise_add
// CHECK: return %[[Y]]
func.func @bert_embeddings(%ids: tensor<?x?xi64>, %pos: tensor<?x?xi64>, %types: tensor<?x?xi64>,
                           %we: tensor<10x8xf32>, %pe: tensor<16x8xf32>, %te: tensor<2x8xf32>,
                           %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<?x?x8xf32> {
  %0 = pd.lookup_table_v2 %we, %ids : (tensor<10x8xf32>, tensor<?x?xi64>) -> tensor<?x?x8xf32>
  %1 = pd.lookup_table_v2 %pe, %pos : (tensor<16x8xf32>, tensor<?x?xi64>) -> tensor<?x?x8xf32>
  %2 = pd.elementwise_add %0, %1 : (tensor<?x?x8xf32>, tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %3 = pd.lookup_table_v2 %te, %types : (tensor<2x8xf32>, tensor<?x?xi64>) -> tensor<?x?x8xf32>
  %4 = pd.elementwise_add %2, %3 : (tensor<?x?x8xf32>, tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %5 = pd.layer_norm %4 Scale(%g) Bias(%b) {begin_norm_axis = 2 : i32, epsilon = 1.0e-12 : f32} : (tensor<?x?x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x?x8xf32>
  return %5 : tensor<?x?x8xf32>
}

// -----

// Negative cases: a lookup with padding_idx (its rows read as zeros), a sum
// with an operand that is not a lookup, and a single lookup.
// CHECK-LABEL: func.func @negative_cases
// CHECK-NOT: pd.fused_embedding_eltwise_layernorm
// CHECK-COUNT-3: pd.layer_norm
func.func @negative_cases(%ids: tensor<2x3xi64>, %we: tensor<10x8xf32>, %x: tensor<2x3x8xf32>,
                          %g: tensor<8xf32>) -> (tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>) {
  %0 = pd.lookup_table_v2 %we, %ids {padding_idx = 0 : i64} : (tensor<10x8xf32>, tensor<2x3xi64>) -> tensor<2x3x8xf32>
  %1 = pd.lookup_table_v2 %we, %ids : (tensor<10x8xf32>, tensor<2x3xi64>) -> tensor<2x3x8xf32>
  %2 = pd.elementwise_add %0, %1 : (tensor<2x3x8xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %3 = pd.layer_norm %2 Scale(%g) Bias(%g) {begin_norm_axis = 2 : i32} : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
  %4 = pd.lookup_table_v2 %we, %ids : (tensor<10x8xf32>, tensor<2x3xi64>) -> tensor<2x3x8xf32>
  %5 = pd.elementwise_add %4, %x : (tensor<2x3x8xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %6 = pd.layer_norm %5 Scale(%g) Bias(%g) {begin_norm_axis = 2 : i32} : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
  %7 = pd.lookup_table_v2 %we, %ids : (tensor<10x8xf32>, tensor<2x3xi64>) -> tensor<2x3x8xf32>
  %8 = pd.layer_norm %7 Scale(%g) Bias(%g) {begin_norm_axis = 2 : i32} : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
  return %3, %6, %8 : tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>
}

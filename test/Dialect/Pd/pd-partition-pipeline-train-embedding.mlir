// RUN: paddle-opt %s -pd-partition-devices="mode=pipeline devices=2 micro-batches=2 train-phase=forward" -pd-append-backward -pd-partition-devices="mode=pipeline devices=2 train-phase=micro" | FileCheck %s

// An embedding's gradient over two micro-batches is one scatter of both
// micro-batches' rows into the table (then the mean's 1/2), not a dense
// table per micro-batch and their sum; the matrix's is the sum.
// CHECK: %[[X0:.*]] = pd.slice %arg0 {axes = array<i32: 0>, ends = array<i32: 2>, pd.micro = 0 : i64, starts = array<i32: 0>}
// CHECK: %[[X1:.*]] = pd.slice %arg0 {axes = array<i32: 0>, ends = array<i32: 4>, pd.micro = 1 : i64, starts = array<i32: 2>}
// CHECK-NOT: pd.lookup_table_v2_grad
// CHECK: %[[IDS:.*]] = pd.concat [%[[X0]], %[[X1]]] : (tensor<2x5xi64>, tensor<2x5xi64>) -> tensor<4x5xi64>
// CHECK-NEXT: %[[G:.*]] = pd.concat [%{{.*}}, %{{.*}}] : (tensor<2x5x3xf32>, tensor<2x5x3xf32>) -> tensor<4x5x3xf32>
// CHECK-NEXT: %[[T:.*]] = pd.lookup_table_v2_grad %emb, %[[IDS]], %[[G]] : (tensor<50x3xf32>, tensor<4x5xi64>, tensor<4x5x3xf32>) -> tensor<50x3xf32>
// CHECK-NEXT: %[[TM:.*]] = pd.scale %[[T]] {scale = 5.000000e-01 : f32}
// CHECK-NEXT: %[[W:.*]] = pd.elementwise_add
// CHECK-NEXT: %[[WM:.*]] = pd.scale %[[W]] {scale = 5.000000e-01 : f32}
// CHECK-NEXT: return %{{.*}}, %[[TM]], %[[WM]] : tensor<1xf32>, tensor<50x3xf32>, tensor<3x2xf32>
// CHECK-NOT: pd.lookup_table_v2_grad
module {
  ml_program.global private @emb(dense<0.5> : tensor<50x3xf32>) : tensor<50x3xf32>
  ml_program.global private @w(dense<0.25> : tensor<3x2xf32>) : tensor<3x2xf32>
  func.func @main(%ids: tensor<4x5xi64> {pd.name = "ids"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %e = ml_program.global_load_const @emb : tensor<50x3xf32>
    %w = ml_program.global_load_const @w : tensor<3x2xf32>
    %x = pd.lookup_table_v2 %e, %ids : (tensor<50x3xf32>, tensor<4x5xi64>) -> tensor<4x5x3xf32>
    %r = pd.relu %x : (tensor<4x5x3xf32>) -> tensor<4x5x3xf32>
    %y = pd.matmul_v2 %r, %w : (tensor<4x5x3xf32>, tensor<3x2xf32>) -> tensor<4x5x2xf32>
    %l = pd.mean %y : (tensor<4x5x2xf32>) -> tensor<1xf32>
    return %l : tensor<1xf32>
  }
}

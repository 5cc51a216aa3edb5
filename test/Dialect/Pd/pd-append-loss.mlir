// RUN: paddle-opt %s -split-input-file -verify-diagnostics -pd-append-loss | FileCheck %s

// Tests that softmax_with_cross_entropy and its mean are appended to the
// prediction, with a new int64 label input shaped [batch, 1] that records
// the number of classes (for the runtime's check of bound labels).
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<8x10xf32> {pd.name = "x"}, %[[L:.*]]: tensor<8x1xi64> {pd.ignore_index = -100 : i64, pd.label_classes = 10 : i64, pd.name = "label"}) -> (tensor<1xf32> {pd.name = "loss"})
// CHECK: %[[P:.*]] = pd.relu %[[X]]
// CHECK: %{{.*}}, %[[LOSS:.*]] = pd.softmax_with_cross_entropy %[[P]], %[[L]] : (tensor<8x10xf32>, tensor<8x1xi64>) -> (tensor<8x10xf32>, tensor<8x1xf32>)
// CHECK: %[[M:.*]] = pd.mean %[[LOSS]]
// CHECK: return %[[M]]
func.func @main(%x: tensor<8x10xf32> {pd.name = "x"}) -> (tensor<8x10xf32> {pd.name = "logits"}) {
  %0 = pd.relu %x : (tensor<8x10xf32>) -> tensor<8x10xf32>
  return %0 : tensor<8x10xf32>
}

// -----

// Tests that an existing input named like the label is refused.
// expected-error @+1 {{pd-append-loss: @main already has an input named 'label'}}
func.func @main(%x: tensor<8x10xf32> {pd.name = "label"}) -> (tensor<8x10xf32> {pd.name = "logits"}) {
  return %x : tensor<8x10xf32>
}

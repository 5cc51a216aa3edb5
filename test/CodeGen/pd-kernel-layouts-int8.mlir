// RUN: paddle-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(pd-kernel-layouts{block=8}))" | FileCheck %s

// Between int8 convolutions (pdk_qconv2d; ints[12..14]: source, residual
// and destination layout, -1 = NHWC) activations go channels last whatever
// the fp32 convolutions' block: through a max pooling call and through an
// elementwise map of one tensor to one of its shape (the next block's
// quantizer). %a feeds the pooling; the pooled %p is quantized for %b and is
// %c's residual; %c leaves the function and stays plain.
// CHECK-LABEL: func.func @block
// CHECK: %[[A:.*]] = pd.kernel_call "pdk_qconv2d"{{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, -1>
// CHECK: %[[P:.*]] = pd.kernel_call "pdk_pool2d"(%[[A]]) {{.*}}ints = array<i64: 0, 2, 2, 2, 2, 0, 0, 0, 0, -1, -1>
// CHECK: %[[Q:.*]] = linalg.generic {{.*}} ins(%[[P]]
// CHECK: %[[B:.*]] = pd.kernel_call "pdk_qconv2d"(%[[Q]], {{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, -1, 0, -1>
// CHECK: pd.kernel_call "pdk_qconv2d"(%[[B]], {{.*}}, %[[P]], {{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, -1, -1, 0>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @block(%x: tensor<1x3x8x8xi8>, %w0: tensor<16x3x1x1xi8>, %w1: tensor<16x16x1x1xi8>, %s: tensor<16xf32>) -> tensor<1x16x4x4xf32> {
  %e0 = tensor.empty() : tensor<1x16x8x8xf32>
  %a = pd.kernel_call "pdk_qconv2d"(%x, %w0, %s) init(%e0) {slots = array<i64: 0, 1, -1, -1, 2>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0>, floats = array<f32: 0.0, 0.0, 0.1, 1.0>} : (tensor<1x3x8x8xi8>, tensor<16x3x1x1xi8>, tensor<16xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %ep = tensor.empty() : tensor<1x16x4x4xf32>
  %p = pd.kernel_call "pdk_pool2d"(%a) init(%ep) {slots = array<i64: 0>, ints = array<i64: 0, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0>, floats = array<f32>} : (tensor<1x16x8x8xf32>, tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %eq = tensor.empty() : tensor<1x16x4x4xi8>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x16x4x4xf32>) outs(%eq : tensor<1x16x4x4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %v = arith.fptosi %in : f32 to i8
    linalg.yield %v : i8
  } -> tensor<1x16x4x4xi8>
  %e1 = tensor.empty() : tensor<1x16x4x4xi8>
  %b = pd.kernel_call "pdk_qconv2d"(%q, %w1, %s) init(%e1) {slots = array<i64: 0, 1, -1, -1, 2>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0, 0.1, 0.1>} : (tensor<1x16x4x4xi8>, tensor<16x16x1x1xi8>, tensor<16xf32>, tensor<1x16x4x4xi8>) -> tensor<1x16x4x4xi8>
  %e2 = tensor.empty() : tensor<1x16x4x4xf32>
  %c = pd.kernel_call "pdk_qconv2d"(%b, %w1, %p, %s) init(%e2) {slots = array<i64: 0, 1, -1, 2, 3>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0>, floats = array<f32: 0.0, 0.0, 0.1, 1.0>} : (tensor<1x16x4x4xi8>, tensor<16x16x1x1xi8>, tensor<1x16x4x4xf32>, tensor<16xf32>, tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  return %c : tensor<1x16x4x4xf32>
}

// -----

// A map that reads a tensor not channels last (here an add of a plain argument) or
// permutes its indices depends on the order of the elements: the int8
// convolution's results before them stay plain.
// CHECK-LABEL: func.func @order_dependent
// CHECK: pd.kernel_call "pdk_qconv2d"{{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0>
// CHECK: pd.kernel_call "pdk_qconv2d"{{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#tr = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
func.func @order_dependent(%x: tensor<1x16x4x4xi8>, %w: tensor<16x16x1x1xi8>, %s: tensor<16xf32>, %y: tensor<1x16x4x4xf32>) -> (tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>) {
  %e0 = tensor.empty() : tensor<1x16x4x4xf32>
  %a = pd.kernel_call "pdk_qconv2d"(%x, %w, %s) init(%e0) {slots = array<i64: 0, 1, -1, -1, 2>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0>, floats = array<f32: 0.0, 0.0, 0.1, 1.0>} : (tensor<1x16x4x4xi8>, tensor<16x16x1x1xi8>, tensor<16xf32>, tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %e1 = tensor.empty() : tensor<1x16x4x4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %y : tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>) outs(%e1 : tensor<1x16x4x4xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %v = arith.addf %i, %j : f32
    linalg.yield %v : f32
  } -> tensor<1x16x4x4xf32>
  %e2 = tensor.empty() : tensor<1x16x4x4xf32>
  %b = pd.kernel_call "pdk_qconv2d"(%x, %w, %s) init(%e2) {slots = array<i64: 0, 1, -1, -1, 2>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0>, floats = array<f32: 0.0, 0.0, 0.1, 1.0>} : (tensor<1x16x4x4xi8>, tensor<16x16x1x1xi8>, tensor<16xf32>, tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %e3 = tensor.empty() : tensor<1x16x4x4xf32>
  %t = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<1x16x4x4xf32>) outs(%e3 : tensor<1x16x4x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<1x16x4x4xf32>
  return %sum, %t : tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>
}

// -----

// A QAT residual add: a map of two int8 conv results (both channels last)
// passes the layout on, to the conv that reads its result.
// CHECK-LABEL: func.func @two_sources
// CHECK: pd.kernel_call "pdk_qconv2d"{{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 1, 0, 0, -1>
// CHECK: pd.kernel_call "pdk_qconv2d"{{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 1, 0, 0, -1>
// CHECK: linalg.generic
// CHECK: pd.kernel_call "pdk_qconv2d"{{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, -1, 0, 0>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @two_sources(%x: tensor<1x16x4x4xi8>, %w: tensor<16x16x1x1xi8>, %s: tensor<16xf32>) -> tensor<1x16x4x4xf32> {
  %e0 = tensor.empty() : tensor<1x16x4x4xi8>
  %a = pd.kernel_call "pdk_qconv2d"(%x, %w, %s) init(%e0) {slots = array<i64: 0, 1, -1, -1, 2>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0, 0.1, 0.1>} : (tensor<1x16x4x4xi8>, tensor<16x16x1x1xi8>, tensor<16xf32>, tensor<1x16x4x4xi8>) -> tensor<1x16x4x4xi8>
  %e1 = tensor.empty() : tensor<1x16x4x4xi8>
  %b = pd.kernel_call "pdk_qconv2d"(%x, %w, %s) init(%e1) {slots = array<i64: 0, 1, -1, -1, 2>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0, 0.1, 0.1>} : (tensor<1x16x4x4xi8>, tensor<16x16x1x1xi8>, tensor<16xf32>, tensor<1x16x4x4xi8>) -> tensor<1x16x4x4xi8>
  %e2 = tensor.empty() : tensor<1x16x4x4xi8>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %b : tensor<1x16x4x4xi8>, tensor<1x16x4x4xi8>) outs(%e2 : tensor<1x16x4x4xi8>) {
  ^bb0(%i: i8, %j: i8, %o: i8):
    %v = arith.addi %i, %j : i8
    linalg.yield %v : i8
  } -> tensor<1x16x4x4xi8>
  %e3 = tensor.empty() : tensor<1x16x4x4xf32>
  %c = pd.kernel_call "pdk_qconv2d"(%sum, %w, %s) init(%e3) {slots = array<i64: 0, 1, -1, -1, 2>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0>, floats = array<f32: 0.0, 0.0, 0.1, 1.0>} : (tensor<1x16x4x4xi8>, tensor<16x16x1x1xi8>, tensor<16xf32>, tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  return %c : tensor<1x16x4x4xf32>
}

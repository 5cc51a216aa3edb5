// RUN: paddle-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(pd-kernel-layouts{block=8}))" | FileCheck %s
// RUN: paddle-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(pd-kernel-layouts{block=16}))" | FileCheck %s --check-prefix=B16
// RUN: paddle-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(pd-kernel-layouts{block=-1}))" | FileCheck %s --check-prefix=NHWC
// RUN: not paddle-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(pd-kernel-layouts{block=4}))" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: pd-kernel-layouts: block must be 8, 16, -1 (NHWC) or 0, not 4
// With a kernel library to measure with, block=0 records its choice with
// the timed totals of both layouts (NHWC and nChw8c; which one wins
// depends on the machine, test/e2e/conv-layout.test checks it is the
// faster) and applies it to every conv of the chain.
// RUN: paddle-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(pd-kernel-layouts{measure=%runtime_lib/libpdrt_kernels.so}))" | FileCheck %s --check-prefix=MEASURE
// MEASURE: func.func @chain({{.*}}) attributes {pd.conv_layout = {choice = "[[L:nhwc|nChw8c]]", convolutions = 3 : i64
// MEASURE: ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, [[B:-1|8]]>
// MEASURE: ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, [[B]], 0, [[B]]>
// MEASURE: ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, [[B]], [[B]], 0>
// RUN: not paddle-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(pd-kernel-layouts{measure=\"%t/no such.so\"}))" 2>&1 | FileCheck %s --check-prefix=NOLIB
// NOLIB: error: pd-kernel-layouts: cannot time convolutions with '{{.*}}no such.so': {{.*}}cannot open shared object file

// Tests which conv results stay channel-blocked. ints[11..13] are the
// source / residual / destination blocks.
//
// %a feeds the next conv as input and the last one as residual (and its
// shape is read by tensor.dim): it is blocked at the producer and at both
// consumers. %b feeds a conv only: blocked. %c is returned: plain. The input
// %x comes from outside: plain.
// CHECK-LABEL: func.func @chain
// CHECK: %[[A:.*]] = pd.kernel_call "pdk_conv2d"(%arg0, %arg1) {{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 8>
// CHECK: %[[B:.*]] = pd.kernel_call "pdk_conv2d"(%[[A]], %arg2) {{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 8, 0, 8>
// CHECK: pd.kernel_call "pdk_conv2d"(%[[B]], %arg2, %[[A]]) {{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 8, 8, 0>
// 16 channels are a multiple of 16 too.
// B16-LABEL: func.func @chain
// B16: ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 16>
// NHWC (-1) marks the same tensors.
// NHWC-LABEL: func.func @chain
// NHWC: ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, -1>
// NHWC: ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, -1, 0, -1>
// NHWC: ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, -1, -1, 0>
func.func @chain(%x: tensor<1x3x8x8xf32>, %w0: tensor<16x3x1x1xf32>, %w1: tensor<16x16x1x1xf32>) -> (tensor<1x16x8x8xf32>, index) {
  %c1 = arith.constant 1 : index
  %e0 = tensor.empty() : tensor<1x16x8x8xf32>
  %a = pd.kernel_call "pdk_conv2d"(%x, %w0) init(%e0) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x3x8x8xf32>, tensor<16x3x1x1xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %d = tensor.dim %a, %c1 : tensor<1x16x8x8xf32>
  %e1 = tensor.empty() : tensor<1x16x8x8xf32>
  %b = pd.kernel_call "pdk_conv2d"(%a, %w1) init(%e1) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x16x8x8xf32>, tensor<16x16x1x1xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %e2 = tensor.empty() : tensor<1x16x8x8xf32>
  %c = pd.kernel_call "pdk_conv2d"(%b, %w1, %a) init(%e2) {slots = array<i64: 0, 1, -1, 2>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x16x8x8xf32>, tensor<16x16x1x1xf32>, tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %c, %d : tensor<1x16x8x8xf32>, index
}

// -----

// Negative: a result also read by generated code (here a linalg op) stays
// plain, and so does one whose channels are not a multiple of the block
// (24 channels: blocked with 8, plain with 16).
// CHECK-LABEL: func.func @mixed_use
// CHECK: %[[A:.*]] = pd.kernel_call "pdk_conv2d"{{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>
// CHECK: pd.kernel_call "pdk_conv2d"(%[[A]], {{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>
// CHECK: linalg.copy
// CHECK-LABEL: func.func @odd_channels
// CHECK: ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 8>
// B16-LABEL: func.func @odd_channels
// B16: ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>
// B16: ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>
// NHWC needs no channel multiple: 24 channels stay channels-last.
// NHWC-LABEL: func.func @odd_channels
// NHWC: ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, -1>
// NHWC: ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, -1, 0, 0>
func.func @mixed_use(%x: tensor<1x3x8x8xf32>, %w0: tensor<16x3x1x1xf32>, %w1: tensor<16x16x1x1xf32>) -> (tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) {
  %e0 = tensor.empty() : tensor<1x16x8x8xf32>
  %a = pd.kernel_call "pdk_conv2d"(%x, %w0) init(%e0) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x3x8x8xf32>, tensor<16x3x1x1xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %e1 = tensor.empty() : tensor<1x16x8x8xf32>
  %b = pd.kernel_call "pdk_conv2d"(%a, %w1) init(%e1) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x16x8x8xf32>, tensor<16x16x1x1xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %e2 = tensor.empty() : tensor<1x16x8x8xf32>
  %c = linalg.copy ins(%a : tensor<1x16x8x8xf32>) outs(%e2 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %b, %c : tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>
}

func.func @odd_channels(%x: tensor<1x3x8x8xf32>, %w0: tensor<24x3x1x1xf32>, %w1: tensor<24x24x1x1xf32>) -> tensor<1x24x8x8xf32> {
  %e0 = tensor.empty() : tensor<1x24x8x8xf32>
  %a = pd.kernel_call "pdk_conv2d"(%x, %w0) init(%e0) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x3x8x8xf32>, tensor<24x3x1x1xf32>, tensor<1x24x8x8xf32>) -> tensor<1x24x8x8xf32>
  %e1 = tensor.empty() : tensor<1x24x8x8xf32>
  %b = pd.kernel_call "pdk_conv2d"(%a, %w1) init(%e1) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x24x8x8xf32>, tensor<24x24x1x1xf32>, tensor<1x24x8x8xf32>) -> tensor<1x24x8x8xf32>
  return %b : tensor<1x24x8x8xf32>
}

// -----

// Pooling calls (pdk_pool2d, ints[9..10]: source / destination blocks)
// between convolutions take the layout on both sides: in @pooled %p, read
// by a conv as input and by another as residual, is blocked from %a on,
// and so is a chain of two poolings in @pool_chain. In @pool_returned the
// pooling's result leaves the function: it and the conv before it stay
// plain.
// CHECK-LABEL: func.func @pooled
// CHECK: %[[A:.*]] = pd.kernel_call "pdk_conv2d"{{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 8>
// CHECK: %[[P:.*]] = pd.kernel_call "pdk_pool2d"(%[[A]]) {{.*}}ints = array<i64: 0, 2, 2, 2, 2, 0, 0, 0, 0, 8, 8>
// CHECK: %[[B:.*]] = pd.kernel_call "pdk_conv2d"(%[[P]], {{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 8, 0, 8>
// CHECK: pd.kernel_call "pdk_conv2d"(%[[B]], %arg2, %[[P]]) {{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 8, 8, 0>
// CHECK-LABEL: func.func @pool_chain
// CHECK: pd.kernel_call "pdk_conv2d"{{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 8>
// CHECK: pd.kernel_call "pdk_pool2d"{{.*}}ints = array<i64: 0, 2, 2, 2, 2, 0, 0, 0, 0, 8, 8>
// CHECK: pd.kernel_call "pdk_pool2d"{{.*}}ints = array<i64: 0, 2, 2, 2, 2, 0, 0, 0, 0, 8, 8>
// CHECK: pd.kernel_call "pdk_conv2d"{{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 8, 0, 0>
// CHECK-LABEL: func.func @pool_returned
// CHECK: pd.kernel_call "pdk_conv2d"{{.*}}ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>
// CHECK: pd.kernel_call "pdk_pool2d"{{.*}}ints = array<i64: 0, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0>
// NHWC-LABEL: func.func @pooled
// NHWC: pd.kernel_call "pdk_pool2d"{{.*}}ints = array<i64: 0, 2, 2, 2, 2, 0, 0, 0, 0, -1, -1>
// NHWC-LABEL: func.func @pool_returned
// NHWC: pd.kernel_call "pdk_pool2d"{{.*}}ints = array<i64: 0, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0>
func.func @pooled(%x: tensor<1x3x8x8xf32>, %w0: tensor<16x3x1x1xf32>, %w1: tensor<16x16x1x1xf32>) -> tensor<1x16x4x4xf32> {
  %e0 = tensor.empty() : tensor<1x16x8x8xf32>
  %a = pd.kernel_call "pdk_conv2d"(%x, %w0) init(%e0) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x3x8x8xf32>, tensor<16x3x1x1xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %ep = tensor.empty() : tensor<1x16x4x4xf32>
  %p = pd.kernel_call "pdk_pool2d"(%a) init(%ep) {slots = array<i64: 0>, ints = array<i64: 0, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0>, floats = array<f32>} : (tensor<1x16x8x8xf32>, tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %e1 = tensor.empty() : tensor<1x16x4x4xf32>
  %b = pd.kernel_call "pdk_conv2d"(%p, %w1) init(%e1) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x16x4x4xf32>, tensor<16x16x1x1xf32>, tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %e2 = tensor.empty() : tensor<1x16x4x4xf32>
  %c = pd.kernel_call "pdk_conv2d"(%b, %w1, %p) init(%e2) {slots = array<i64: 0, 1, -1, 2>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x16x4x4xf32>, tensor<16x16x1x1xf32>, tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  return %c : tensor<1x16x4x4xf32>
}

func.func @pool_chain(%x: tensor<1x3x8x8xf32>, %w0: tensor<16x3x1x1xf32>, %w1: tensor<16x16x1x1xf32>) -> tensor<1x16x2x2xf32> {
  %e0 = tensor.empty() : tensor<1x16x8x8xf32>
  %a = pd.kernel_call "pdk_conv2d"(%x, %w0) init(%e0) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x3x8x8xf32>, tensor<16x3x1x1xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %ep = tensor.empty() : tensor<1x16x4x4xf32>
  %p = pd.kernel_call "pdk_pool2d"(%a) init(%ep) {slots = array<i64: 0>, ints = array<i64: 0, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0>, floats = array<f32>} : (tensor<1x16x8x8xf32>, tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %eq = tensor.empty() : tensor<1x16x2x2xf32>
  %q = pd.kernel_call "pdk_pool2d"(%p) init(%eq) {slots = array<i64: 0>, ints = array<i64: 0, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0>, floats = array<f32>} : (tensor<1x16x4x4xf32>, tensor<1x16x2x2xf32>) -> tensor<1x16x2x2xf32>
  %e1 = tensor.empty() : tensor<1x16x2x2xf32>
  %b = pd.kernel_call "pdk_conv2d"(%q, %w1) init(%e1) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x16x2x2xf32>, tensor<16x16x1x1xf32>, tensor<1x16x2x2xf32>) -> tensor<1x16x2x2xf32>
  return %b : tensor<1x16x2x2xf32>
}

func.func @pool_returned(%x: tensor<1x3x8x8xf32>, %w0: tensor<16x3x1x1xf32>) -> tensor<1x16x4x4xf32> {
  %e0 = tensor.empty() : tensor<1x16x8x8xf32>
  %a = pd.kernel_call "pdk_conv2d"(%x, %w0) init(%e0) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x3x8x8xf32>, tensor<16x3x1x1xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %ep = tensor.empty() : tensor<1x16x4x4xf32>
  %p = pd.kernel_call "pdk_pool2d"(%a) init(%ep) {slots = array<i64: 0>, ints = array<i64: 0, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0>, floats = array<f32>} : (tensor<1x16x8x8xf32>, tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  return %p : tensor<1x16x4x4xf32>
}

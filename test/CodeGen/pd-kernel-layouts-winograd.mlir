// RUN: paddle-opt %s --pass-pipeline="builtin.module(func.func(pd-kernel-layouts{block=8 winograd=always}))" | FileCheck %s
// RUN: paddle-opt %s --pass-pipeline="builtin.module(func.func(pd-kernel-layouts{block=8 winograd=never}))" | FileCheck %s --check-prefix=NEVER
// RUN: paddle-opt %s --pass-pipeline="builtin.module(func.func(pd-kernel-layouts{block=8 winograd=always4}))" | FileCheck %s --check-prefix=F4
// RUN: paddle-opt %s --pass-pipeline="builtin.module(func.func(pd-kernel-layouts{block=-1 winograd=always}))" | FileCheck %s --check-prefix=NHWC
// RUN: paddle-opt %s --pass-pipeline="builtin.module(func.func(pd-kernel-layouts{block=0 winograd=always}))" | FileCheck %s --check-prefix=HOST
// RUN: paddle-opt %s --pass-pipeline="builtin.module(func.func(pd-kernel-layouts{block=16 winograd=never}))" | FileCheck %s --check-prefix=B16
// RUN: not paddle-opt %s --pass-pipeline="builtin.module(func.func(pd-kernel-layouts{block=16 winograd=always}))" 2>&1 | FileCheck %s --check-prefix=B16-ALWAYS
// RUN: not paddle-opt %s --pass-pipeline="builtin.module(func.func(pd-kernel-layouts{block=8 winograd=sometimes}))" 2>&1 | FileCheck %s --check-prefix=BAD

// Tests which convolutions may become pdk_conv2d_winograd: 3x3, stride 1,
// padding 1, no dilation, one group, constant weights, a clamp-like
// activation, channels a multiple of 8, nChw8c or NHWC on both sides.
// %b qualifies. %a reads the plain input, %c has a sigmoid, %g non-constant
// weights, %h stride 2, and %k writes the plain result.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: pd.conv_layout = {choice = "nChw8c", convolutions = 6 : i64, winograd = 1 : i64, winograd4 = 0 : i64, winograd_eligible = 1 : i64}
// CHECK: %[[A:.*]] = pd.kernel_call "pdk_conv2d"(%arg0,
// CHECK: %[[B:.*]] = pd.kernel_call "pdk_conv2d_winograd"(%[[A]], %arg2) {{.*}}ints = array<i64: 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 8, 0, 8>
// CHECK: %[[C:.*]] = pd.kernel_call "pdk_conv2d"(%[[B]],
// CHECK: %[[G:.*]] = pd.kernel_call "pdk_conv2d"(%[[C]],
// CHECK: %[[H:.*]] = pd.kernel_call "pdk_conv2d"(%[[G]],
// CHECK: pd.kernel_call "pdk_conv2d"(%[[H]],
// F(4x4, 3x3) takes the same convolutions.
// F4-LABEL: func.func @chain
// F4-SAME: pd.conv_layout = {choice = "nChw8c", convolutions = 6 : i64, winograd = 1 : i64, winograd4 = 1 : i64, winograd_eligible = 1 : i64}
// F4: %[[A:.*]] = pd.kernel_call "pdk_conv2d"(%arg0,
// F4: pd.kernel_call "pdk_conv2d_winograd4"(%[[A]], %arg2) {{.*}}ints = array<i64: 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 8, 0, 8>
// F4-NOT: pdk_conv2d_winograd
// NEVER-LABEL: func.func @chain
// NEVER-SAME: pd.conv_layout = {choice = "nChw8c", convolutions = 6 : i64}
// NEVER-NOT: pdk_conv2d_winograd
// The same in NHWC, and in the host's default layout (block=0 without
// timing: NHWC with AVX-512, else nChw8c).
// NHWC-LABEL: func.func @chain
// NHWC-SAME: pd.conv_layout = {choice = "nhwc", convolutions = 6 : i64, winograd = 1 : i64, winograd4 = 0 : i64, winograd_eligible = 1 : i64}
// NHWC: %[[A:.*]] = pd.kernel_call "pdk_conv2d"(%arg0,
// NHWC: pd.kernel_call "pdk_conv2d_winograd"(%[[A]], %arg2) {{.*}}ints = array<i64: 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, 0, -1>
// NHWC-NOT: pdk_conv2d_winograd
// HOST-LABEL: func.func @chain
// HOST-SAME: pd.conv_layout = {choice = "{{nhwc|nChw8c}}", convolutions = 6 : i64, winograd = 1 : i64, winograd4 = 0 : i64, winograd_eligible = 1 : i64}
// HOST: pd.kernel_call "pdk_conv2d_winograd"({{.*}}ints = array<i64: 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, [[B:8|-1]], 0, [[B]]>
// HOST-NOT: pdk_conv2d_winograd
// nChw16c never gets them, and `always` with it is an error.
// B16-LABEL: func.func @chain
// B16-SAME: pd.conv_layout = {choice = "nChw16c", convolutions = 6 : i64}
// B16-NOT: pdk_conv2d_winograd
// B16-ALWAYS: error: pd-kernel-layouts: winograd=always needs nChw8c or NHWC (block 8, -1 or 0), not nChw16c
// BAD: error: pd-kernel-layouts: winograd must be auto, never, always or always4, not 'sometimes'
func.func @chain(%x: tensor<1x8x9x9xf32>, %w0: tensor<16x8x1x1xf32>, %w1: tensor<16x16x3x3xf32>, %w2: tensor<16x16x1x1xf32>) -> tensor<1x16x3x3xf32> {
  %e0 = tensor.empty() : tensor<1x16x9x9xf32>
  %a = pd.kernel_call "pdk_conv2d"(%x, %w0) init(%e0) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x8x9x9xf32>, tensor<16x8x1x1xf32>, tensor<1x16x9x9xf32>) -> tensor<1x16x9x9xf32>
  %e1 = tensor.empty() : tensor<1x16x9x9xf32>
  %b = pd.kernel_call "pdk_conv2d"(%a, %w1) init(%e1) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x16x9x9xf32>, tensor<16x16x3x3xf32>, tensor<1x16x9x9xf32>) -> tensor<1x16x9x9xf32>
  %e2 = tensor.empty() : tensor<1x16x9x9xf32>
  %c = pd.kernel_call "pdk_conv2d"(%b, %w1) init(%e2) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x16x9x9xf32>, tensor<16x16x3x3xf32>, tensor<1x16x9x9xf32>) -> tensor<1x16x9x9xf32>
  %e3 = tensor.empty() : tensor<1x16x9x9xf32>
  %g = pd.kernel_call "pdk_conv2d"(%c, %w1) init(%e3) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x16x9x9xf32>, tensor<16x16x3x3xf32>, tensor<1x16x9x9xf32>) -> tensor<1x16x9x9xf32>
  %e4 = tensor.empty() : tensor<1x16x5x5xf32>
  %h = pd.kernel_call "pdk_conv2d"(%g, %w1) init(%e4) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x16x9x9xf32>, tensor<16x16x3x3xf32>, tensor<1x16x5x5xf32>) -> tensor<1x16x5x5xf32>
  %e5 = tensor.empty() : tensor<1x16x3x3xf32>
  %k = pd.kernel_call "pdk_conv2d"(%h, %w1) init(%e5) {slots = array<i64: 0, 1, -1, -1>, ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0>, floats = array<f32: 0.0, 0.0>} : (tensor<1x16x5x5xf32>, tensor<16x16x3x3xf32>, tensor<1x16x3x3xf32>) -> tensor<1x16x3x3xf32>
  return %k : tensor<1x16x3x3xf32>
}

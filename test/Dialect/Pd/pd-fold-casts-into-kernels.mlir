// RUN: paddle-opt %s -split-input-file -pass-pipeline="builtin.module(func.func(pd-fold-casts-into-kernels))" | FileCheck %s

// Tests that a bf16 convolution reads the f32 value in front of its input
// cast and writes f32 when every reader widens its result; the casts go.
// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x4xf32>, %[[W:.*]]: tensor<2x2x1x1xbf16>)
// CHECK-NEXT: %[[C:.*]] = pd.conv2d %[[X]], %[[W]] : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xbf16>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT: %[[S:.*]] = pd.softmax %[[C]]
// CHECK-NEXT: %[[E:.*]] = pd.exp %[[C]]
// CHECK-NEXT: return %[[S]], %[[E]]
func.func @conv(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xbf16>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %xb = pd.cast %x {in_dtype = 5 : i32, out_dtype = 22 : i32} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xbf16>
  %c = pd.conv2d %xb, %w : (tensor<1x2x4x4xbf16>, tensor<2x2x1x1xbf16>) -> tensor<1x2x4x4xbf16>
  %a = pd.cast %c {in_dtype = 22 : i32, out_dtype = 5 : i32} : (tensor<1x2x4x4xbf16>) -> tensor<1x2x4x4xf32>
  %b = pd.cast %c {in_dtype = 22 : i32, out_dtype = 5 : i32} : (tensor<1x2x4x4xbf16>) -> tensor<1x2x4x4xf32>
  %s = pd.softmax %a : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e = pd.exp %b : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %s, %e : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// Tests a result also read in bf16 (by the next conv): it stays bf16.
// CHECK-LABEL: func.func @negative_bf16_reader
// CHECK: %[[C:.*]] = pd.conv2d {{.*}} -> tensor<1x2x4x4xbf16>
// CHECK: pd.cast %[[C]]
// CHECK: pd.conv2d %[[C]]
func.func @negative_bf16_reader(%x: tensor<1x2x4x4xbf16>, %w: tensor<2x2x1x1xbf16>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xbf16>) {
  %c = pd.conv2d %x, %w : (tensor<1x2x4x4xbf16>, tensor<2x2x1x1xbf16>) -> tensor<1x2x4x4xbf16>
  %a = pd.cast %c {in_dtype = 22 : i32, out_dtype = 5 : i32} : (tensor<1x2x4x4xbf16>) -> tensor<1x2x4x4xf32>
  %d = pd.conv2d %c, %w : (tensor<1x2x4x4xbf16>, tensor<2x2x1x1xbf16>) -> tensor<1x2x4x4xbf16>
  return %a, %d : tensor<1x2x4x4xf32>, tensor<1x2x4x4xbf16>
}

// -----

// Tests that a matmul_v2 keeps one bf16 operand: with both operands cast
// from f32 nothing folds (it would become an f32 product); with a bf16
// weight the activation is read in f32.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[XB:.*]] = pd.cast %arg0
// CHECK: %[[YB:.*]] = pd.cast %arg1
// CHECK: pd.matmul_v2 %[[XB]], %[[YB]]
// CHECK: pd.matmul_v2 %arg0, %arg2 : (tensor<4x8xf32>, tensor<8x8xbf16>) -> tensor<4x8xbf16>
func.func @matmul(%x: tensor<4x8xf32>, %y: tensor<8x8xf32>, %w: tensor<8x8xbf16>) -> (tensor<4x8xbf16>, tensor<4x8xbf16>) {
  %xb = pd.cast %x {in_dtype = 5 : i32, out_dtype = 22 : i32} : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  %yb = pd.cast %y {in_dtype = 5 : i32, out_dtype = 22 : i32} : (tensor<8x8xf32>) -> tensor<8x8xbf16>
  %a = pd.matmul_v2 %xb, %yb : (tensor<4x8xbf16>, tensor<8x8xbf16>) -> tensor<4x8xbf16>
  %b = pd.matmul_v2 %xb, %w : (tensor<4x8xbf16>, tensor<8x8xbf16>) -> tensor<4x8xbf16>
  return %a, %b : tensor<4x8xbf16>, tensor<4x8xbf16>
}

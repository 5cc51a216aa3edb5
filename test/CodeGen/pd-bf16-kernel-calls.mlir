// RUN: paddle-opt %s --split-input-file --convert-pd-to-linalg="kernels=onednn" | FileCheck %s

// Tests the bf16 lowering (pd-auto-mixed-precision's output): ops with
// bf16 weights become pdk_conv2d_bf16 / pdk_matmul_bf16 calls, whose ints
// are those of pdk_conv2d / pdk_matmul followed by the element types of
// the activation sides (bconv:: / bmatmul:: in KernelABI.h; 0 f32, 1
// bf16); other ops on bf16 compute in f32 between casts, and copies keep
// bf16.

// ints: strides, pads, dilations, groups 1, relu (1), constant weights
// (1), layouts NCHW (0, 0, 0), then SrcType f32 (0), ResType bf16 (1),
// DstType bf16 (1).
// CHECK-LABEL: func.func @conv
// CHECK: pd.kernel_call "pdk_conv2d_bf16"(%arg0, %arg1, %arg2, %arg3)
// CHECK-SAME: ints = array<i64: 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1>
// CHECK-SAME: slots = array<i64: 0, 1, 2, 3>
// CHECK-SAME: (tensor<?x8x9x9xf32>, tensor<16x8x3x3xbf16>, tensor<16xf32>, tensor<?x16x9x9xbf16>, tensor<?x16x9x9xbf16>) -> tensor<?x16x9x9xbf16>
func.func @conv(%x: tensor<?x8x9x9xf32>, %w: tensor<16x8x3x3xbf16> {pd.weight = "w"}, %b: tensor<16xf32> {pd.weight = "b"}, %r: tensor<?x16x9x9xbf16>) -> tensor<?x16x9x9xbf16> {
  %c = pd.fused_conv2d %x, %w Bias(%b) ResidualData(%r) {fuse_activation = "relu", paddings = array<i32: 1, 1>} : (tensor<?x8x9x9xf32>, tensor<16x8x3x3xbf16>, tensor<16xf32>, tensor<?x16x9x9xbf16>) -> tensor<?x16x9x9xbf16>
  return %c : tensor<?x16x9x9xbf16>
}

// -----

// ints: kind Fc (1), no transposes, gelu (8), constant weights (1), then
// AType bf16 (1), BType bf16 (1), DstType f32 (0).
// CHECK-LABEL: func.func @fc
// CHECK: pd.kernel_call "pdk_matmul_bf16"(%arg0, %arg1, %arg2)
// CHECK-SAME: ints = array<i64: 1, 0, 0, 8, 1, 1, 1, 0>
// CHECK-SAME: -> tensor<?x10xf32>
func.func @fc(%x: tensor<?x16xbf16>, %w: tensor<16x10xbf16> {pd.weight = "w"}, %b: tensor<10xf32>) -> tensor<?x10xf32> {
  %y = pd.fc %x, %w Bias(%b) {activation_type = "gelu"} : (tensor<?x16xbf16>, tensor<16x10xbf16>, tensor<10xf32>) -> tensor<?x10xf32>
  return %y : tensor<?x10xf32>
}

// -----

// A product of two activations (attention scores): kind Batched (0),
// trans_y (1), no constant weights, all sides bf16.
// CHECK-LABEL: func.func @bmm
// CHECK: pd.kernel_call "pdk_matmul_bf16"(%arg0, %arg1)
// CHECK-SAME: ints = array<i64: 0, 0, 1, 0, 0, 1, 1, 1>
func.func @bmm(%x: tensor<2x4x8xbf16>, %y: tensor<2x6x8xbf16>) -> tensor<2x4x6xbf16> {
  %z = pd.matmul_v2 %x, %y {trans_y = true} : (tensor<2x4x8xbf16>, tensor<2x6x8xbf16>) -> tensor<2x4x6xbf16>
  return %z : tensor<2x4x6xbf16>
}

// -----

// A gray op on bf16 computes in f32 between an extf and a truncf; the
// transpose moves bf16 values as they are.
// CHECK-LABEL: func.func @gray
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.maximumf %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: linalg.transpose ins(%{{.*}} : tensor<4x8xbf16>) outs(%{{.*}} : tensor<8x4xbf16>)
func.func @gray(%x: tensor<4x8xbf16>) -> tensor<8x4xbf16> {
  %r = pd.relu %x : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %t = pd.transpose2 %r {axis = array<i32: 1, 0>} : (tensor<4x8xbf16>) -> tensor<8x4xbf16>
  return %t : tensor<8x4xbf16>
}

// -----

// An fp32 convolution keeps pdk_conv2d and its 14 fields.
// CHECK-LABEL: func.func @negative_fp32
// CHECK: pd.kernel_call "pdk_conv2d"(
// CHECK-SAME: ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0>,
func.func @negative_fp32(%x: tensor<1x8x4x4xf32>, %w: tensor<8x8x1x1xf32> {pd.weight = "w"}) -> tensor<1x8x4x4xf32> {
  %c = pd.conv2d %x, %w : (tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x4x4xf32>
  return %c : tensor<1x8x4x4xf32>
}

// -----

// A multihead_matmul with a bf16 weight: the projection and both batched
// matmuls run on the bf16 kernels; the scores are written in f32 (DstType
// 0) for the scale, mask and softmax, whose result is narrowed for the
// second matmul, which writes bf16 (DstType 1).
// CHECK-LABEL: func.func @attention
// CHECK: pd.kernel_call "pdk_matmul_bf16"
// CHECK-SAME: -> tensor<?x3x12xbf16>
// CHECK: pd.kernel_call "pdk_matmul_bf16"
// CHECK-SAME: ints = array<i64: 0, 0, 1, 0, 0, 1, 1, 0>
// CHECK-SAME: -> tensor<?x2x3x3xf32>
// CHECK: pd.kernel_call "pdk_softmax"
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: pd.kernel_call "pdk_matmul_bf16"
// CHECK-SAME: ints = array<i64: 0, 0, 0, 0, 0, 1, 1, 1>
func.func @attention(%x: tensor<?x3x4xbf16>, %w: tensor<4x3x4xbf16> {pd.weight = "w"}, %b: tensor<3x4xf32> {pd.weight = "b"}, %m: tensor<?x1x1x3xf32>) -> tensor<?x3x4xbf16> {
  %0 = pd.multihead_matmul %x, %w, %b BiasQK(%m) {alpha = 0.5 : f32, head_number = 2 : i32} : (tensor<?x3x4xbf16>, tensor<4x3x4xbf16>, tensor<3x4xf32>, tensor<?x1x1x3xf32>) -> tensor<?x3x4xbf16>
  return %0 : tensor<?x3x4xbf16>
}

// Round trip of every pd op through the custom and the generic assembly forms.
// RUN: paddle-opt %s | paddle-opt | FileCheck %s
// RUN: paddle-opt %s --mlir-print-op-generic | paddle-opt | FileCheck %s

// Tests that attributes equal to Paddle's defaults are elided when printed,
// and that optional slots may be given or left out.
// CHECK-LABEL: func.func @defaults_elided
// CHECK: %[[A:.*]] = pd.conv2d %arg0, %arg1 : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
// CHECK: %[[B:.*]] = pd.layer_norm %[[A]] {begin_norm_axis = 3 : i32} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
// CHECK: %[[C:.*]] = pd.layer_norm %[[B]] Bias(%arg2) {begin_norm_axis = 3 : i32} : (tensor<1x4x6x6xf32>, tensor<6xf32>) -> tensor<1x4x6x6xf32>
// CHECK: return %[[C]]
func.func @defaults_elided(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x4x6x6xf32> {
  %0 = pd.conv2d %x, %w {strides = array<i32: 1, 1>, paddings = array<i32: 0, 0>, groups = 1 : i32,
                          dilations = array<i32: 1, 1>, data_format = "NCHW", padding_algorithm = "EXPLICIT"}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = pd.layer_norm %0 {begin_norm_axis = 3 : i32, epsilon = 1.0e-05 : f32} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %2 = pd.layer_norm %1 Bias(%b) {begin_norm_axis = 3 : i32} : (tensor<1x4x6x6xf32>, tensor<6xf32>) -> tensor<1x4x6x6xf32>
  return %2 : tensor<1x4x6x6xf32>
}

// Tests that result types may be less static than the inferred ones.
// CHECK-LABEL: func.func @less_static_result
// CHECK: pd.relu %arg0 : (tensor<2x3xf32>) -> tensor<?x?xf32>
func.func @less_static_result(%x: tensor<2x3xf32>) -> tensor<?x?xf32> {
  %0 = pd.relu %x : (tensor<2x3xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// Tests that pd.conv2d round-trips.
// CHECK-LABEL: func.func @conv2d
// CHECK: %[[R:.*]] = pd.conv2d %arg0, %arg1 {paddings = array<i32: 1, 1>} : (tensor<?x3x224x224xf32>, tensor<32x3x3x3xf32>) -> tensor<?x32x224x224xf32>
// CHECK: return %[[R]]
func.func @conv2d(%x: tensor<?x3x224x224xf32>, %w: tensor<32x3x3x3xf32>) -> (tensor<?x32x224x224xf32>) {
  %y = pd.conv2d %x, %w {paddings = array<i32: 1, 1>} : (tensor<?x3x224x224xf32>, tensor<32x3x3x3xf32>) -> tensor<?x32x224x224xf32>
  return %y : tensor<?x32x224x224xf32>
}

// Tests that pd.depthwise_conv2d round-trips.
// CHECK-LABEL: func.func @depthwise_conv2d
// CHECK: %[[R:.*]] = pd.depthwise_conv2d %arg0, %arg1 {groups = 32 : i32} : (tensor<?x32x112x112xf32>, tensor<32x1x3x3xf32>) -> tensor<?x32x110x110xf32>
// CHECK: return %[[R]]
func.func @depthwise_conv2d(%x: tensor<?x32x112x112xf32>, %w: tensor<32x1x3x3xf32>) -> (tensor<?x32x110x110xf32>) {
  %y = pd.depthwise_conv2d %x, %w {groups = 32 : i32} : (tensor<?x32x112x112xf32>, tensor<32x1x3x3xf32>) -> tensor<?x32x110x110xf32>
  return %y : tensor<?x32x110x110xf32>
}

// Tests that pd.conv2d_transpose round-trips.
// CHECK-LABEL: func.func @conv2d_transpose
// CHECK: %[[R:.*]] = pd.conv2d_transpose %arg0, %arg1 {strides = array<i32: 2, 2>} : (tensor<1x16x8x8xf32>, tensor<16x8x2x2xf32>) -> tensor<1x8x16x16xf32>
// CHECK: return %[[R]]
func.func @conv2d_transpose(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x2x2xf32>) -> (tensor<1x8x16x16xf32>) {
  %y = pd.conv2d_transpose %x, %w {strides = array<i32: 2, 2>} : (tensor<1x16x8x8xf32>, tensor<16x8x2x2xf32>) -> tensor<1x8x16x16xf32>
  return %y : tensor<1x8x16x16xf32>
}

// Tests that the train step's batch_norm_train and its gradient round-trip.
// CHECK-LABEL: func.func @batch_norm_train
// CHECK: %{{.*}}, %{{.*}}, %{{.*}} = pd.batch_norm_train %arg0, %arg1, %arg2 {epsilon = 1.000000e-03 : f32} : (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
// CHECK: pd.batch_norm_train_grad %arg0, %arg1, %{{.*}}, %{{.*}}, %arg3 : (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16x4x4xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
func.func @batch_norm_train(%x: tensor<8x16x4x4xf32>, %s: tensor<16xf32>, %b: tensor<16xf32>, %dy: tensor<8x16x4x4xf32>) -> tensor<8x16x4x4xf32> {
  %y, %m, %v = pd.batch_norm_train %x, %s, %b {epsilon = 1.0e-3 : f32} : (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
  %dx, %ds, %db = pd.batch_norm_train_grad %x, %s, %m, %v, %dy : (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16x4x4xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
  return %dx : tensor<8x16x4x4xf32>
}

// Tests that a convolution's gradient ops (train steps) round-trip.
// CHECK-LABEL: func.func @conv2d_grads
// CHECK: pd.conv2d_grad_input %arg0, %arg1, %arg2 {groups = 2 : i32, paddings = array<i32: 1, 1, 1, 1>} : (tensor<8x16x14x14xf32>, tensor<32x8x3x3xf32>, tensor<8x32x14x14xf32>) -> tensor<8x16x14x14xf32>
// CHECK: pd.conv2d_grad_filter %arg0, %arg1, %arg2 {groups = 2 : i32, paddings = array<i32: 1, 1, 1, 1>} : (tensor<8x16x14x14xf32>, tensor<32x8x3x3xf32>, tensor<8x32x14x14xf32>) -> tensor<32x8x3x3xf32>
func.func @conv2d_grads(%x: tensor<8x16x14x14xf32>, %w: tensor<32x8x3x3xf32>, %dy: tensor<8x32x14x14xf32>) -> (tensor<8x16x14x14xf32>, tensor<32x8x3x3xf32>) {
  %dx = pd.conv2d_grad_input %x, %w, %dy {groups = 2 : i32, paddings = array<i32: 1, 1, 1, 1>} : (tensor<8x16x14x14xf32>, tensor<32x8x3x3xf32>, tensor<8x32x14x14xf32>) -> tensor<8x16x14x14xf32>
  %dw = pd.conv2d_grad_filter %x, %w, %dy {groups = 2 : i32, paddings = array<i32: 1, 1, 1, 1>} : (tensor<8x16x14x14xf32>, tensor<32x8x3x3xf32>, tensor<8x32x14x14xf32>) -> tensor<32x8x3x3xf32>
  return %dx, %dw : tensor<8x16x14x14xf32>, tensor<32x8x3x3xf32>
}

// Tests that pd.batch_norm round-trips.
// CHECK-LABEL: func.func @batch_norm
// CHECK: %[[R:.*]] = pd.batch_norm %arg0, %arg1, %arg2, %arg3, %arg4 : (tensor<?x32x56x56xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x32x56x56xf32>
// CHECK: return %[[R]]
func.func @batch_norm(%x: tensor<?x32x56x56xf32>, %s: tensor<32xf32>, %b: tensor<32xf32>, %m: tensor<32xf32>, %v: tensor<32xf32>) -> (tensor<?x32x56x56xf32>) {
  %y = pd.batch_norm %x, %s, %b, %m, %v : (tensor<?x32x56x56xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x32x56x56xf32>
  return %y : tensor<?x32x56x56xf32>
}

// Tests that pd.layer_norm round-trips.
// CHECK-LABEL: func.func @layer_norm
// CHECK: %[[R:.*]] = pd.layer_norm %arg0 Scale(%arg1) Bias(%arg2) {begin_norm_axis = 2 : i32} : (tensor<?x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x128x768xf32>
// CHECK: return %[[R]]
func.func @layer_norm(%x: tensor<?x128x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>) -> (tensor<?x128x768xf32>) {
  %y = pd.layer_norm %x Scale(%g) Bias(%b) {begin_norm_axis = 2 : i32} : (tensor<?x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x128x768xf32>
  return %y : tensor<?x128x768xf32>
}

// Tests that pd.instance_norm round-trips.
// CHECK-LABEL: func.func @instance_norm
// CHECK: %[[R:.*]] = pd.instance_norm %arg0 Scale(%arg1) Bias(%arg2) : (tensor<?x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x16x8x8xf32>
// CHECK: return %[[R]]
func.func @instance_norm(%x: tensor<?x16x8x8xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>) -> (tensor<?x16x8x8xf32>) {
  %y = pd.instance_norm %x Scale(%g) Bias(%b) : (tensor<?x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x16x8x8xf32>
  return %y : tensor<?x16x8x8xf32>
}

// Tests that pd.group_norm round-trips.
// CHECK-LABEL: func.func @group_norm
// CHECK: %[[R:.*]] = pd.group_norm %arg0 Scale(%arg1) Bias(%arg2) {groups = 4 : i32} : (tensor<?x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x16x8x8xf32>
// CHECK: return %[[R]]
func.func @group_norm(%x: tensor<?x16x8x8xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>) -> (tensor<?x16x8x8xf32>) {
  %y = pd.group_norm %x Scale(%g) Bias(%b) {groups = 4 : i32} : (tensor<?x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x16x8x8xf32>
  return %y : tensor<?x16x8x8xf32>
}

// Tests that pd.pool2d round-trips.
// CHECK-LABEL: func.func @pool2d
// CHECK: %[[R:.*]] = pd.pool2d %arg0 {ksize = array<i32: 2, 2>, strides = array<i32: 2, 2>} : (tensor<?x64x56x56xf32>) -> tensor<?x64x28x28xf32>
// CHECK: return %[[R]]
func.func @pool2d(%x: tensor<?x64x56x56xf32>) -> (tensor<?x64x28x28xf32>) {
  %y = pd.pool2d %x {ksize = array<i32: 2, 2>, strides = array<i32: 2, 2>} : (tensor<?x64x56x56xf32>) -> tensor<?x64x28x28xf32>
  return %y : tensor<?x64x28x28xf32>
}

// Tests that pd.pool2d takes int8 tensors (pd-quantize's max pooling over
// quantized values).
// CHECK-LABEL: func.func @pool2d_uint8
// CHECK: pd.pool2d %arg0 {ksize = array<i32: 3, 3>, strides = array<i32: 2, 2>} : (tensor<1x64x9x9xui8>) -> tensor<1x64x4x4xui8>
func.func @pool2d_uint8(%x: tensor<1x64x9x9xui8>) -> tensor<1x64x4x4xui8> {
  %y = pd.pool2d %x {ksize = array<i32: 3, 3>, strides = array<i32: 2, 2>} : (tensor<1x64x9x9xui8>) -> tensor<1x64x4x4xui8>
  return %y : tensor<1x64x4x4xui8>
}

// Tests that pd.affine_channel round-trips.
// CHECK-LABEL: func.func @affine_channel
// CHECK: %[[R:.*]] = pd.affine_channel %arg0, %arg1, %arg2 : (tensor<?x32x8x8xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x32x8x8xf32>
// CHECK: return %[[R]]
func.func @affine_channel(%x: tensor<?x32x8x8xf32>, %s: tensor<32xf32>, %b: tensor<32xf32>) -> (tensor<?x32x8x8xf32>) {
  %y = pd.affine_channel %x, %s, %b : (tensor<?x32x8x8xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x32x8x8xf32>
  return %y : tensor<?x32x8x8xf32>
}

// Tests that pd.pad3d round-trips.
// CHECK-LABEL: func.func @pad3d
// CHECK: %[[R:.*]] = pd.pad3d %arg0 {paddings = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<1x3x1x8x8xf32>) -> tensor<1x3x1x10x10xf32>
// CHECK: return %[[R]]
func.func @pad3d(%x: tensor<1x3x1x8x8xf32>) -> (tensor<1x3x1x10x10xf32>) {
  %y = pd.pad3d %x {paddings = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<1x3x1x8x8xf32>) -> tensor<1x3x1x10x10xf32>
  return %y : tensor<1x3x1x10x10xf32>
}

// Tests that pd.bilinear_interp_v2 round-trips.
// CHECK-LABEL: func.func @bilinear_interp_v2
// CHECK: %[[R:.*]] = pd.bilinear_interp_v2 %arg0 {out_h = 64 : i32, out_w = 64 : i32} : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>
// CHECK: return %[[R]]
func.func @bilinear_interp_v2(%x: tensor<1x3x32x32xf32>) -> (tensor<1x3x64x64xf32>) {
  %y = pd.bilinear_interp_v2 %x {out_h = 64 : i32, out_w = 64 : i32} : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>
  return %y : tensor<1x3x64x64xf32>
}

// Tests that pd.nearest_interp_v2 round-trips.
// CHECK-LABEL: func.func @nearest_interp_v2
// CHECK: %[[R:.*]] = pd.nearest_interp_v2 %arg0 {out_h = 64 : i32, out_w = 64 : i32} : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>
// CHECK: return %[[R]]
func.func @nearest_interp_v2(%x: tensor<1x3x32x32xf32>) -> (tensor<1x3x64x64xf32>) {
  %y = pd.nearest_interp_v2 %x {out_h = 64 : i32, out_w = 64 : i32} : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>
  return %y : tensor<1x3x64x64xf32>
}

// Tests that pd.bilinear_interp (Fluid 1.x) round-trips with its scalar scale.
// CHECK-LABEL: func.func @bilinear_interp
// CHECK: %[[R:.*]] = pd.bilinear_interp %arg0 {align_corners = false, scale = 2.000000e+00 : f32} : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>
// CHECK: return %[[R]]
func.func @bilinear_interp(%x: tensor<1x3x32x32xf32>) -> (tensor<1x3x64x64xf32>) {
  %y = pd.bilinear_interp %x {align_corners = false, scale = 2.0 : f32} : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>
  return %y : tensor<1x3x64x64xf32>
}

// Tests that pd.nearest_interp (Fluid 1.x) round-trips with a run-time OutSize.
// CHECK-LABEL: func.func @nearest_interp
// CHECK: %[[R:.*]] = pd.nearest_interp %arg0 OutSize(%arg1) {align_corners = false} : (tensor<1x3x32x32xf32>, tensor<2xi32>) -> tensor<1x3x?x?xf32>
// CHECK: return %[[R]]
func.func @nearest_interp(%x: tensor<1x3x32x32xf32>, %s: tensor<2xi32>) -> (tensor<1x3x?x?xf32>) {
  %y = pd.nearest_interp %x OutSize(%s) {align_corners = false} : (tensor<1x3x32x32xf32>, tensor<2xi32>) -> tensor<1x3x?x?xf32>
  return %y : tensor<1x3x?x?xf32>
}

// Tests that pd.relu round-trips.
// CHECK-LABEL: func.func @relu
// CHECK: %[[R:.*]] = pd.relu %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @relu(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.relu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.relu6 round-trips.
// CHECK-LABEL: func.func @relu6
// CHECK: %[[R:.*]] = pd.relu6 %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @relu6(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.relu6 %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.leaky_relu round-trips.
// CHECK-LABEL: func.func @leaky_relu
// CHECK: %[[R:.*]] = pd.leaky_relu %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @leaky_relu(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.leaky_relu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.prelu round-trips.
// CHECK-LABEL: func.func @prelu
// CHECK: %[[R:.*]] = pd.prelu %arg0, %arg1 {mode = "channel"} : (tensor<?x16x8x8xf32>, tensor<16xf32>) -> tensor<?x16x8x8xf32>
// CHECK: return %[[R]]
func.func @prelu(%x: tensor<?x16x8x8xf32>, %a: tensor<16xf32>) -> (tensor<?x16x8x8xf32>) {
  %y = pd.prelu %x, %a {mode = "channel"} : (tensor<?x16x8x8xf32>, tensor<16xf32>) -> tensor<?x16x8x8xf32>
  return %y : tensor<?x16x8x8xf32>
}

// Tests that pd.sigmoid round-trips.
// CHECK-LABEL: func.func @sigmoid
// CHECK: %[[R:.*]] = pd.sigmoid %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @sigmoid(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.sigmoid %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.tanh round-trips.
// CHECK-LABEL: func.func @tanh
// CHECK: %[[R:.*]] = pd.tanh %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @tanh(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.tanh %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.gelu round-trips.
// CHECK-LABEL: func.func @gelu
// CHECK: %[[R:.*]] = pd.gelu %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @gelu(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.gelu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.swish round-trips.
// CHECK-LABEL: func.func @swish
// CHECK: %[[R:.*]] = pd.swish %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @swish(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.swish %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.hard_swish round-trips.
// CHECK-LABEL: func.func @hard_swish
// CHECK: %[[R:.*]] = pd.hard_swish %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @hard_swish(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.hard_swish %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.hard_sigmoid round-trips.
// CHECK-LABEL: func.func @hard_sigmoid
// CHECK: %[[R:.*]] = pd.hard_sigmoid %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @hard_sigmoid(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.hard_sigmoid %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.exp round-trips.
// CHECK-LABEL: func.func @exp
// CHECK: %[[R:.*]] = pd.exp %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @exp(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.exp %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.log round-trips.
// CHECK-LABEL: func.func @log
// CHECK: %[[R:.*]] = pd.log %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @log(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.log %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.sqrt round-trips.
// CHECK-LABEL: func.func @sqrt
// CHECK: %[[R:.*]] = pd.sqrt %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @sqrt(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.sqrt %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.rsqrt round-trips.
// CHECK-LABEL: func.func @rsqrt
// CHECK: %[[R:.*]] = pd.rsqrt %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @rsqrt(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.rsqrt %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.abs round-trips.
// CHECK-LABEL: func.func @abs
// CHECK: %[[R:.*]] = pd.abs %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @abs(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.abs %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.square round-trips.
// CHECK-LABEL: func.func @square
// CHECK: %[[R:.*]] = pd.square %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @square(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.square %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.erf round-trips.
// CHECK-LABEL: func.func @erf
// CHECK: %[[R:.*]] = pd.erf %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @erf(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.erf %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.pow round-trips.
// CHECK-LABEL: func.func @pow
// CHECK: %[[R:.*]] = pd.pow %arg0 {factor = 2.000000e+00 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @pow(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.pow %x {factor = 2.0 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.softmax round-trips.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[R:.*]] = pd.softmax %arg0 : (tensor<?x1000xf32>) -> tensor<?x1000xf32>
// CHECK: return %[[R]]
func.func @softmax(%x: tensor<?x1000xf32>) -> (tensor<?x1000xf32>) {
  %y = pd.softmax %x : (tensor<?x1000xf32>) -> tensor<?x1000xf32>
  return %y : tensor<?x1000xf32>
}

// Tests that pd.log_softmax round-trips.
// CHECK-LABEL: func.func @log_softmax
// CHECK: %[[R:.*]] = pd.log_softmax %arg0 {axis = 1 : i32} : (tensor<?x10xf32>) -> tensor<?x10xf32>
// CHECK: return %[[R]]
func.func @log_softmax(%x: tensor<?x10xf32>) -> (tensor<?x10xf32>) {
  %y = pd.log_softmax %x {axis = 1 : i32} : (tensor<?x10xf32>) -> tensor<?x10xf32>
  return %y : tensor<?x10xf32>
}

// Tests that pd.softmax_with_cross_entropy round-trips with its two results.
// CHECK-LABEL: func.func @softmax_with_cross_entropy
// CHECK: %[[S:.*]], %[[L:.*]] = pd.softmax_with_cross_entropy %arg0, %arg1 {ignore_index = 3 : i32} : (tensor<8x10xf32>, tensor<8x1xi64>) -> (tensor<8x10xf32>, tensor<8x1xf32>)
// CHECK: return %[[S]], %[[L]]
func.func @softmax_with_cross_entropy(%x: tensor<8x10xf32>, %y: tensor<8x1xi64>) -> (tensor<8x10xf32>, tensor<8x1xf32>) {
  %s, %l = pd.softmax_with_cross_entropy %x, %y {ignore_index = 3 : i32} : (tensor<8x10xf32>, tensor<8x1xi64>) -> (tensor<8x10xf32>, tensor<8x1xf32>)
  return %s, %l : tensor<8x10xf32>, tensor<8x1xf32>
}

// Tests that pd.sgd round-trips.
// CHECK-LABEL: func.func @sgd
// CHECK: %[[R:.*]] = pd.sgd %arg0, %arg1, %arg2 : (tensor<64x10xf32>, tensor<1xf32>, tensor<64x10xf32>) -> tensor<64x10xf32>
func.func @sgd(%p: tensor<64x10xf32>, %lr: tensor<1xf32>, %g: tensor<64x10xf32>) -> tensor<64x10xf32> {
  %r = pd.sgd %p, %lr, %g : (tensor<64x10xf32>, tensor<1xf32>, tensor<64x10xf32>) -> tensor<64x10xf32>
  return %r : tensor<64x10xf32>
}

// Tests that pd.pool2d_grad round-trips.
// CHECK-LABEL: func.func @pool2d_grad
// CHECK: %[[R:.*]] = pd.pool2d_grad %arg0, %arg1, %arg2 {ksize = array<i32: 2, 2>, strides = array<i32: 2, 2>} : (tensor<8x6x28x28xf32>, tensor<8x6x14x14xf32>, tensor<8x6x14x14xf32>) -> tensor<8x6x28x28xf32>
func.func @pool2d_grad(%x: tensor<8x6x28x28xf32>, %y: tensor<8x6x14x14xf32>, %dy: tensor<8x6x14x14xf32>) -> tensor<8x6x28x28xf32> {
  %r = pd.pool2d_grad %x, %y, %dy {ksize = array<i32: 2, 2>, strides = array<i32: 2, 2>} : (tensor<8x6x28x28xf32>, tensor<8x6x14x14xf32>, tensor<8x6x14x14xf32>) -> tensor<8x6x28x28xf32>
  return %r : tensor<8x6x28x28xf32>
}

// Tests that pd.lookup_table_v2_grad round-trips, with and without padding_idx.
// CHECK-LABEL: func.func @lookup_table_v2_grad
// CHECK: %[[A:.*]] = pd.lookup_table_v2_grad %arg0, %arg1, %arg2 : (tensor<1000x64xf32>, tensor<8x16xi64>, tensor<8x16x64xf32>) -> tensor<1000x64xf32>
// CHECK: %[[B:.*]] = pd.lookup_table_v2_grad %arg0, %arg1, %arg2 {padding_idx = 0 : i64} : (tensor<1000x64xf32>, tensor<8x16xi64>, tensor<8x16x64xf32>) -> tensor<1000x64xf32>
// CHECK: return %[[A]], %[[B]]
func.func @lookup_table_v2_grad(%w: tensor<1000x64xf32>, %ids: tensor<8x16xi64>, %dy: tensor<8x16x64xf32>) -> (tensor<1000x64xf32>, tensor<1000x64xf32>) {
  %a = pd.lookup_table_v2_grad %w, %ids, %dy : (tensor<1000x64xf32>, tensor<8x16xi64>, tensor<8x16x64xf32>) -> tensor<1000x64xf32>
  %b = pd.lookup_table_v2_grad %w, %ids, %dy {padding_idx = 0 : i64} : (tensor<1000x64xf32>, tensor<8x16xi64>, tensor<8x16x64xf32>) -> tensor<1000x64xf32>
  return %a, %b : tensor<1000x64xf32>, tensor<1000x64xf32>
}

// Tests that pd.index_select, pd.index_put, pd.set_value and pd.argsort round-trip.
// CHECK-LABEL: func.func @index_select
// CHECK: pd.index_select %arg0, %arg1 {dim = 1 : i32} : (tensor<4x10xf32>, tensor<3xi64>) -> tensor<4x3xf32>
func.func @index_select(%x: tensor<4x10xf32>, %i: tensor<3xi64>) -> tensor<4x3xf32> {
  %y = pd.index_select %x, %i {dim = 1 : i32} : (tensor<4x10xf32>, tensor<3xi64>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}
// CHECK-LABEL: func.func @index_put
// CHECK: pd.index_put %arg0, %arg2 indices[%arg1] {accumulate = true} : (tensor<2x8xi64>, tensor<2x8xi1>, tensor<1xi64>) -> tensor<2x8xi64>
func.func @index_put(%x: tensor<2x8xi64>, %m: tensor<2x8xi1>, %v: tensor<1xi64>) -> tensor<2x8xi64> {
  %y = pd.index_put %x, %v indices [%m] {accumulate = true} : (tensor<2x8xi64>, tensor<2x8xi1>, tensor<1xi64>) -> tensor<2x8xi64>
  return %y : tensor<2x8xi64>
}
// CHECK-LABEL: func.func @set_value
// CHECK: pd.set_value %arg0 {axes = array<i64: 1>, dtype = 3 : i32, ends = array<i64: 1>, int64_values = array<i64: 0>, shape = array<i64: 1>, starts = array<i64: 0>, steps = array<i64: 1>} : (tensor<?x8xi64>) -> tensor<?x8xi64>
func.func @set_value(%x: tensor<?x8xi64>) -> tensor<?x8xi64> {
  %y = pd.set_value %x {axes = array<i64: 1>, starts = array<i64: 0>, ends = array<i64: 1>, steps = array<i64: 1>, dtype = 3 : i32, shape = array<i64: 1>, int64_values = array<i64: 0>} : (tensor<?x8xi64>) -> tensor<?x8xi64>
  return %y : tensor<?x8xi64>
}
// CHECK-LABEL: func.func @argsort
// CHECK: pd.argsort %arg0 {axis = 1 : i32, descending = true} : (tensor<?x300xf32>) -> (tensor<?x300xf32>, tensor<?x300xi64>)
func.func @argsort(%x: tensor<?x300xf32>) -> (tensor<?x300xf32>, tensor<?x300xi64>) {
  %v, %i = pd.argsort %x {axis = 1 : i32, descending = true} : (tensor<?x300xf32>) -> (tensor<?x300xf32>, tensor<?x300xi64>)
  return %v, %i : tensor<?x300xf32>, tensor<?x300xi64>
}

// Tests that pd.less_equal, pd.greater_equal and the bitwise ops round-trip.
// CHECK-LABEL: func.func @compare_bitwise
// CHECK: pd.less_equal %arg0, %arg1 : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
// CHECK: pd.greater_equal %arg0, %arg1 : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
// CHECK: pd.bitwise_and %arg2, %arg3 : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
// CHECK: pd.bitwise_or %arg2, %arg3
// CHECK: pd.bitwise_xor %arg2, %arg3
// CHECK: pd.bitwise_not %arg2 : (tensor<?x4xi32>) -> tensor<?x4xi32>
func.func @compare_bitwise(%x: tensor<?x8xf32>, %y: tensor<?x8xf32>, %a: tensor<?x4xi32>, %b: tensor<?x4xi32>) -> (tensor<?x8xi1>, tensor<?x8xi1>, tensor<?x4xi32>, tensor<?x4xi32>, tensor<?x4xi32>, tensor<?x4xi32>) {
  %0 = pd.less_equal %x, %y : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
  %1 = pd.greater_equal %x, %y : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
  %2 = pd.bitwise_and %a, %b : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
  %3 = pd.bitwise_or %a, %b : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
  %4 = pd.bitwise_xor %a, %b : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
  %5 = pd.bitwise_not %a : (tensor<?x4xi32>) -> tensor<?x4xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<?x8xi1>, tensor<?x8xi1>, tensor<?x4xi32>, tensor<?x4xi32>, tensor<?x4xi32>, tensor<?x4xi32>
}

// Tests that pd.elementwise_add round-trips.
// CHECK-LABEL: func.func @elementwise_add
// CHECK: %[[R:.*]] = pd.elementwise_add %arg0, %arg1 {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
// CHECK: return %[[R]]
func.func @elementwise_add(%x: tensor<?x64x7x7xf32>, %b: tensor<64xf32>) -> (tensor<?x64x7x7xf32>) {
  %z = pd.elementwise_add %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
  return %z : tensor<?x64x7x7xf32>
}

// Tests that pd.elementwise_sub round-trips.
// CHECK-LABEL: func.func @elementwise_sub
// CHECK: %[[R:.*]] = pd.elementwise_sub %arg0, %arg1 {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
// CHECK: return %[[R]]
func.func @elementwise_sub(%x: tensor<?x64x7x7xf32>, %b: tensor<64xf32>) -> (tensor<?x64x7x7xf32>) {
  %z = pd.elementwise_sub %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
  return %z : tensor<?x64x7x7xf32>
}

// Tests that pd.elementwise_mul round-trips.
// CHECK-LABEL: func.func @elementwise_mul
// CHECK: %[[R:.*]] = pd.elementwise_mul %arg0, %arg1 {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
// CHECK: return %[[R]]
func.func @elementwise_mul(%x: tensor<?x64x7x7xf32>, %b: tensor<64xf32>) -> (tensor<?x64x7x7xf32>) {
  %z = pd.elementwise_mul %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
  return %z : tensor<?x64x7x7xf32>
}

// Tests that pd.elementwise_div round-trips.
// CHECK-LABEL: func.func @elementwise_div
// CHECK: %[[R:.*]] = pd.elementwise_div %arg0, %arg1 {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
// CHECK: return %[[R]]
func.func @elementwise_div(%x: tensor<?x64x7x7xf32>, %b: tensor<64xf32>) -> (tensor<?x64x7x7xf32>) {
  %z = pd.elementwise_div %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
  return %z : tensor<?x64x7x7xf32>
}

// Tests that pd.elementwise_max round-trips.
// CHECK-LABEL: func.func @elementwise_max
// CHECK: %[[R:.*]] = pd.elementwise_max %arg0, %arg1 {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
// CHECK: return %[[R]]
func.func @elementwise_max(%x: tensor<?x64x7x7xf32>, %b: tensor<64xf32>) -> (tensor<?x64x7x7xf32>) {
  %z = pd.elementwise_max %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
  return %z : tensor<?x64x7x7xf32>
}

// Tests that pd.elementwise_min round-trips.
// CHECK-LABEL: func.func @elementwise_min
// CHECK: %[[R:.*]] = pd.elementwise_min %arg0, %arg1 {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
// CHECK: return %[[R]]
func.func @elementwise_min(%x: tensor<?x64x7x7xf32>, %b: tensor<64xf32>) -> (tensor<?x64x7x7xf32>) {
  %z = pd.elementwise_min %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
  return %z : tensor<?x64x7x7xf32>
}

// Tests that pd.elementwise_pow round-trips.
// CHECK-LABEL: func.func @elementwise_pow
// CHECK: %[[R:.*]] = pd.elementwise_pow %arg0, %arg1 {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
// CHECK: return %[[R]]
func.func @elementwise_pow(%x: tensor<?x64x7x7xf32>, %b: tensor<64xf32>) -> (tensor<?x64x7x7xf32>) {
  %z = pd.elementwise_pow %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
  return %z : tensor<?x64x7x7xf32>
}

// Tests that pd.elementwise_mod round-trips.
// CHECK-LABEL: func.func @elementwise_mod
// CHECK: %[[R:.*]] = pd.elementwise_mod %arg0, %arg1 {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
// CHECK: return %[[R]]
func.func @elementwise_mod(%x: tensor<?x64x7x7xf32>, %b: tensor<64xf32>) -> (tensor<?x64x7x7xf32>) {
  %z = pd.elementwise_mod %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
  return %z : tensor<?x64x7x7xf32>
}

// Tests that pd.elementwise_floordiv round-trips.
// CHECK-LABEL: func.func @elementwise_floordiv
// CHECK: %[[R:.*]] = pd.elementwise_floordiv %arg0, %arg1 {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
// CHECK: return %[[R]]
func.func @elementwise_floordiv(%x: tensor<?x64x7x7xf32>, %b: tensor<64xf32>) -> (tensor<?x64x7x7xf32>) {
  %z = pd.elementwise_floordiv %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
  return %z : tensor<?x64x7x7xf32>
}

// Tests that pd.bitwise_left_shift and pd.bitwise_right_shift round-trip.
// CHECK-LABEL: func.func @bitwise_shifts
// CHECK: %[[L:.*]] = pd.bitwise_left_shift %arg0, %arg1 : (tensor<?x8xi32>, tensor<?x8xi32>) -> tensor<?x8xi32>
// CHECK: %[[R:.*]] = pd.bitwise_right_shift %[[L]], %arg1 {is_arithmetic = false} : (tensor<?x8xi32>, tensor<?x8xi32>) -> tensor<?x8xi32>
// CHECK: return %[[R]]
func.func @bitwise_shifts(%x: tensor<?x8xi32>, %y: tensor<?x8xi32>) -> (tensor<?x8xi32>) {
  %l = pd.bitwise_left_shift %x, %y : (tensor<?x8xi32>, tensor<?x8xi32>) -> tensor<?x8xi32>
  %r = pd.bitwise_right_shift %l, %y {is_arithmetic = false} : (tensor<?x8xi32>, tensor<?x8xi32>) -> tensor<?x8xi32>
  return %r : tensor<?x8xi32>
}

// Tests that pd.mul round-trips.
// CHECK-LABEL: func.func @mul
// CHECK: %[[R:.*]] = pd.mul %arg0, %arg1 : (tensor<?x1024xf32>, tensor<1024x1000xf32>) -> tensor<?x1000xf32>
// CHECK: return %[[R]]
func.func @mul(%x: tensor<?x1024xf32>, %w: tensor<1024x1000xf32>) -> (tensor<?x1000xf32>) {
  %y = pd.mul %x, %w : (tensor<?x1024xf32>, tensor<1024x1000xf32>) -> tensor<?x1000xf32>
  return %y : tensor<?x1000xf32>
}

// Tests that pd.matmul round-trips.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[R:.*]] = pd.matmul %arg0, %arg1 {alpha = 1.250000e-01 : f32, transpose_Y = true} : (tensor<?x12x128x64xf32>, tensor<?x12x128x64xf32>) -> tensor<?x12x128x128xf32>
// CHECK: return %[[R]]
func.func @matmul(%q: tensor<?x12x128x64xf32>, %k: tensor<?x12x128x64xf32>) -> (tensor<?x12x128x128xf32>) {
  %y = pd.matmul %q, %k {transpose_Y = true, alpha = 0.125 : f32} : (tensor<?x12x128x64xf32>, tensor<?x12x128x64xf32>) -> tensor<?x12x128x128xf32>
  return %y : tensor<?x12x128x128xf32>
}

// Tests that pd.matmul_v2 round-trips.
// CHECK-LABEL: func.func @matmul_v2
// CHECK: %[[R:.*]] = pd.matmul_v2 %arg0, %arg1 : (tensor<?x128x768xf32>, tensor<768x768xf32>) -> tensor<?x128x768xf32>
// CHECK: return %[[R]]
func.func @matmul_v2(%x: tensor<?x128x768xf32>, %w: tensor<768x768xf32>) -> (tensor<?x128x768xf32>) {
  %y = pd.matmul_v2 %x, %w : (tensor<?x128x768xf32>, tensor<768x768xf32>) -> tensor<?x128x768xf32>
  return %y : tensor<?x128x768xf32>
}

// Tests that pd.scale round-trips.
// CHECK-LABEL: func.func @scale
// CHECK: %[[R:.*]] = pd.scale %arg0 {scale = 5.000000e-01 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @scale(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.scale %x {scale = 0.5 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.clip round-trips.
// CHECK-LABEL: func.func @clip
// CHECK: %[[R:.*]] = pd.clip %arg0 {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @clip(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.clip %x {min = 0.0 : f32, max = 6.0 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.dropout round-trips.
// CHECK-LABEL: func.func @dropout
// CHECK: %[[R:.*]] = pd.dropout %arg0 {dropout_prob = 1.000000e-01 : f32, is_test = true} : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @dropout(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.dropout %x {dropout_prob = 0.1 : f32, is_test = true} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.cast round-trips.
// CHECK-LABEL: func.func @cast
// CHECK: %[[R:.*]] = pd.cast %arg0 {in_dtype = 5 : i32, out_dtype = 3 : i32} : (tensor<?x4xf32>) -> tensor<?x4xi64>
// CHECK: return %[[R]]
func.func @cast(%x: tensor<?x4xf32>) -> (tensor<?x4xi64>) {
  %y = pd.cast %x {in_dtype = 5 : i32, out_dtype = 3 : i32} : (tensor<?x4xf32>) -> tensor<?x4xi64>
  return %y : tensor<?x4xi64>
}

// uint16 / uint32 / uint64 use paddle-mlir's own dtype codes 1016 / 1032 /
// 1064.
// CHECK-LABEL: func.func @cast_unsigned
// CHECK: pd.cast %arg0 {in_dtype = 1032 : i32, out_dtype = 5 : i32} : (tensor<4xui32>) -> tensor<4xf32>
// CHECK: pd.cast %{{.*}} {in_dtype = 5 : i32, out_dtype = 1016 : i32} : (tensor<4xf32>) -> tensor<4xui16>
// CHECK: pd.cast %{{.*}} {in_dtype = 1016 : i32, out_dtype = 1064 : i32} : (tensor<4xui16>) -> tensor<4xui64>
func.func @cast_unsigned(%x: tensor<4xui32>) -> (tensor<4xui64>) {
  %f = pd.cast %x {in_dtype = 1032 : i32, out_dtype = 5 : i32} : (tensor<4xui32>) -> tensor<4xf32>
  %h = pd.cast %f {in_dtype = 5 : i32, out_dtype = 1016 : i32} : (tensor<4xf32>) -> tensor<4xui16>
  %y = pd.cast %h {in_dtype = 1016 : i32, out_dtype = 1064 : i32} : (tensor<4xui16>) -> tensor<4xui64>
  return %y : tensor<4xui64>
}

// Tests that pd.reshape2 round-trips.
// CHECK-LABEL: func.func @reshape2
// CHECK: %[[R:.*]] = pd.reshape2 %arg0 {shape = array<i32: 0, -1, 12, 64>} : (tensor<?x128x768xf32>) -> tensor<?x128x12x64xf32>
// CHECK: return %[[R]]
func.func @reshape2(%x: tensor<?x128x768xf32>) -> (tensor<?x128x12x64xf32>) {
  %y = pd.reshape2 %x {shape = array<i32: 0, -1, 12, 64>} : (tensor<?x128x768xf32>) -> tensor<?x128x12x64xf32>
  return %y : tensor<?x128x12x64xf32>
}

// Tests that pd.transpose2 round-trips.
// CHECK-LABEL: func.func @transpose2
// CHECK: %[[R:.*]] = pd.transpose2 %arg0 {axis = array<i32: 0, 2, 1, 3>} : (tensor<?x128x12x64xf32>) -> tensor<?x12x128x64xf32>
// CHECK: return %[[R]]
func.func @transpose2(%x: tensor<?x128x12x64xf32>) -> (tensor<?x12x128x64xf32>) {
  %y = pd.transpose2 %x {axis = array<i32: 0, 2, 1, 3>} : (tensor<?x128x12x64xf32>) -> tensor<?x12x128x64xf32>
  return %y : tensor<?x12x128x64xf32>
}

// Tests that pd.flatten_contiguous_range round-trips.
// CHECK-LABEL: func.func @flatten_contiguous_range
// CHECK: %[[R:.*]] = pd.flatten_contiguous_range %arg0 {stop_axis = 3 : i32} : (tensor<?x64x7x7xf32>) -> tensor<?x3136xf32>
// CHECK: return %[[R]]
func.func @flatten_contiguous_range(%x: tensor<?x64x7x7xf32>) -> (tensor<?x3136xf32>) {
  %y = pd.flatten_contiguous_range %x {stop_axis = 3 : i32} : (tensor<?x64x7x7xf32>) -> tensor<?x3136xf32>
  return %y : tensor<?x3136xf32>
}

// Tests that pd.flatten2 round-trips.
// CHECK-LABEL: func.func @flatten2
// CHECK: %[[R:.*]] = pd.flatten2 %arg0 : (tensor<?x64x7x7xf32>) -> tensor<?x3136xf32>
// CHECK: return %[[R]]
func.func @flatten2(%x: tensor<?x64x7x7xf32>) -> (tensor<?x3136xf32>) {
  %y = pd.flatten2 %x : (tensor<?x64x7x7xf32>) -> tensor<?x3136xf32>
  return %y : tensor<?x3136xf32>
}

// Tests that pd.squeeze2 round-trips.
// CHECK-LABEL: func.func @squeeze2
// CHECK: %[[R:.*]] = pd.squeeze2 %arg0 {axes = array<i32: 2, 3>} : (tensor<?x1000x1x1xf32>) -> tensor<?x1000xf32>
// CHECK: return %[[R]]
func.func @squeeze2(%x: tensor<?x1000x1x1xf32>) -> (tensor<?x1000xf32>) {
  %y = pd.squeeze2 %x {axes = array<i32: 2, 3>} : (tensor<?x1000x1x1xf32>) -> tensor<?x1000xf32>
  return %y : tensor<?x1000xf32>
}

// Tests that pd.unsqueeze2 round-trips.
// CHECK-LABEL: func.func @unsqueeze2
// CHECK: %[[R:.*]] = pd.unsqueeze2 %arg0 {axes = array<i32: 1, 2>} : (tensor<?x128xi64>) -> tensor<?x1x1x128xi64>
// CHECK: return %[[R]]
func.func @unsqueeze2(%x: tensor<?x128xi64>) -> (tensor<?x1x1x128xi64>) {
  %y = pd.unsqueeze2 %x {axes = array<i32: 1, 2>} : (tensor<?x128xi64>) -> tensor<?x1x1x128xi64>
  return %y : tensor<?x1x1x128xi64>
}

// Tests that pd.concat round-trips.
// CHECK-LABEL: func.func @concat
// CHECK: %[[R:.*]] = pd.concat [%arg0, %arg1] {axis = 1 : i32} : (tensor<?x16x8x8xf32>, tensor<?x32x8x8xf32>) -> tensor<?x48x8x8xf32>
// CHECK: return %[[R]]
func.func @concat(%a: tensor<?x16x8x8xf32>, %b: tensor<?x32x8x8xf32>) -> (tensor<?x48x8x8xf32>) {
  %y = pd.concat [%a, %b] {axis = 1 : i32} : (tensor<?x16x8x8xf32>, tensor<?x32x8x8xf32>) -> tensor<?x48x8x8xf32>
  return %y : tensor<?x48x8x8xf32>
}

// Tests that pd.split round-trips.
// CHECK-LABEL: func.func @split
// CHECK: %[[R:.*]]:2 = pd.split %arg0 {axis = 1 : i32, num = 2 : i32} : (tensor<?x64xf32>) -> (tensor<?x32xf32>, tensor<?x32xf32>)
// CHECK: return %[[R]]
func.func @split(%x: tensor<?x64xf32>) -> (tensor<?x32xf32>, tensor<?x32xf32>) {
  %a, %b = pd.split %x {num = 2 : i32, axis = 1 : i32} : (tensor<?x64xf32>) -> (tensor<?x32xf32>, tensor<?x32xf32>)
  return %a, %b : tensor<?x32xf32>, tensor<?x32xf32>
}

// Tests that pd.slice round-trips.
// CHECK-LABEL: func.func @slice
// CHECK: %[[R:.*]] = pd.slice %arg0 {axes = array<i32: 1>, decrease_axis = array<i32: 1>, ends = array<i32: 1>, starts = array<i32: 0>} : (tensor<?x128x768xf32>) -> tensor<?x768xf32>
// CHECK: return %[[R]]
func.func @slice(%x: tensor<?x128x768xf32>) -> (tensor<?x768xf32>) {
  %y = pd.slice %x {axes = array<i32: 1>, starts = array<i32: 0>, ends = array<i32: 1>, decrease_axis = array<i32: 1>} : (tensor<?x128x768xf32>) -> tensor<?x768xf32>
  return %y : tensor<?x768xf32>
}

// Tests that pd.strided_slice round-trips.
// CHECK-LABEL: func.func @strided_slice
// CHECK: %[[R:.*]] = pd.strided_slice %arg0 {axes = array<i32: 1>, ends = array<i32: 8>, starts = array<i32: 0>, strides = array<i32: 2>} : (tensor<?x8xf32>) -> tensor<?x4xf32>
// CHECK: return %[[R]]
func.func @strided_slice(%x: tensor<?x8xf32>) -> (tensor<?x4xf32>) {
  %y = pd.strided_slice %x {axes = array<i32: 1>, starts = array<i32: 0>, ends = array<i32: 8>, strides = array<i32: 2>} : (tensor<?x8xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

// Tests that pd.einsum round-trips.
// CHECK-LABEL: func.func @einsum
// CHECK: %[[R:.*]] = pd.einsum [%arg0, %arg1] {equation = "bij,bjk->bik"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// CHECK: return %[[R]]
func.func @einsum(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> (tensor<2x3x5xf32>) {
  %y = pd.einsum [%a, %b] {equation = "bij,bjk->bik"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %y : tensor<2x3x5xf32>
}

// Tests that pd.scatter_nd_add round-trips.
// CHECK-LABEL: func.func @scatter_nd_add
// CHECK: %[[R:.*]] = pd.scatter_nd_add %arg0, %arg1, %arg2 : (tensor<4x5xf32>, tensor<3x1xi64>, tensor<3x5xf32>) -> tensor<4x5xf32>
// CHECK: return %[[R]]
func.func @scatter_nd_add(%x: tensor<4x5xf32>, %i: tensor<3x1xi64>, %u: tensor<3x5xf32>) -> (tensor<4x5xf32>) {
  %y = pd.scatter_nd_add %x, %i, %u : (tensor<4x5xf32>, tensor<3x1xi64>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// Tests that pd.stack round-trips.
// CHECK-LABEL: func.func @stack
// CHECK: %[[R:.*]] = pd.stack [%arg0, %arg1] {axis = 1 : i32} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x2x4xf32>
// CHECK: return %[[R]]
func.func @stack(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> (tensor<?x2x4xf32>) {
  %y = pd.stack [%a, %b] {axis = 1 : i32} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x2x4xf32>
  return %y : tensor<?x2x4xf32>
}

// Tests that pd.unstack round-trips.
// CHECK-LABEL: func.func @unstack
// CHECK: %[[R:.*]]:2 = pd.unstack %arg0 {axis = 1 : i32, num = 2 : i32} : (tensor<?x2x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>)
// CHECK: return %[[R]]
func.func @unstack(%x: tensor<?x2x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  %a, %b = pd.unstack %x {axis = 1 : i32, num = 2 : i32} : (tensor<?x2x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>)
  return %a, %b : tensor<?x4xf32>, tensor<?x4xf32>
}

// Tests that pd.expand_v2 round-trips.
// CHECK-LABEL: func.func @expand_v2
// CHECK: %[[R:.*]] = pd.expand_v2 %arg0 {shape = array<i32: 4, -1, 8>} : (tensor<1x1x8xf32>) -> tensor<4x1x8xf32>
// CHECK: return %[[R]]
func.func @expand_v2(%x: tensor<1x1x8xf32>) -> (tensor<4x1x8xf32>) {
  %y = pd.expand_v2 %x {shape = array<i32: 4, -1, 8>} : (tensor<1x1x8xf32>) -> tensor<4x1x8xf32>
  return %y : tensor<4x1x8xf32>
}

// Tests that Fluid's pd.expand_as round-trips, its result of the target's
// shape (a dynamic target dim stays dynamic).
// CHECK-LABEL: func.func @expand_as_v1
// CHECK: pd.expand_as %arg0, %arg1 : (tensor<2x4xf32>, tensor<?x12xf32>) -> tensor<?x12xf32>
func.func @expand_as_v1(%x: tensor<2x4xf32>, %t: tensor<?x12xf32>) -> tensor<?x12xf32> {
  %y = pd.expand_as %x, %t : (tensor<2x4xf32>, tensor<?x12xf32>) -> tensor<?x12xf32>
  return %y : tensor<?x12xf32>
}

// -----

// Tests that pd.tile round-trips.
// CHECK-LABEL: func.func @tile
// CHECK: %[[R:.*]] = pd.tile %arg0 {repeat_times = array<i32: 2, 3>} : (tensor<2x4xf32>) -> tensor<4x12xf32>
// CHECK: return %[[R]]
func.func @tile(%x: tensor<2x4xf32>) -> (tensor<4x12xf32>) {
  %y = pd.tile %x {repeat_times = array<i32: 2, 3>} : (tensor<2x4xf32>) -> tensor<4x12xf32>
  return %y : tensor<4x12xf32>
}

// Tests that pd.gather round-trips.
// CHECK-LABEL: func.func @gather
// CHECK: %[[R:.*]] = pd.gather %arg0, %arg1 : (tensor<100x16xf32>, tensor<?xi64>) -> tensor<?x16xf32>
// CHECK: return %[[R]]
func.func @gather(%x: tensor<100x16xf32>, %i: tensor<?xi64>) -> (tensor<?x16xf32>) {
  %y = pd.gather %x, %i : (tensor<100x16xf32>, tensor<?xi64>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}

// Tests that pd.gather_nd round-trips.
// CHECK-LABEL: func.func @gather_nd
// CHECK: %[[R:.*]] = pd.gather_nd %arg0, %arg1 : (tensor<4x5x6xf32>, tensor<?x2xi64>) -> tensor<?x6xf32>
// CHECK: return %[[R]]
func.func @gather_nd(%x: tensor<4x5x6xf32>, %i: tensor<?x2xi64>) -> (tensor<?x6xf32>) {
  %y = pd.gather_nd %x, %i : (tensor<4x5x6xf32>, tensor<?x2xi64>) -> tensor<?x6xf32>
  return %y : tensor<?x6xf32>
}

// Tests that pd.lookup_table round-trips.
// CHECK-LABEL: func.func @lookup_table
// CHECK: %[[R:.*]] = pd.lookup_table %arg0, %arg1 : (tensor<1000x64xf32>, tensor<?x1xi64>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @lookup_table(%w: tensor<1000x64xf32>, %ids: tensor<?x1xi64>) -> (tensor<?x64xf32>) {
  %y = pd.lookup_table %w, %ids : (tensor<1000x64xf32>, tensor<?x1xi64>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.lookup_table_v2 round-trips.
// CHECK-LABEL: func.func @lookup_table_v2
// CHECK: %[[R:.*]] = pd.lookup_table_v2 %arg0, %arg1 : (tensor<30522x768xf32>, tensor<?x128xi64>) -> tensor<?x128x768xf32>
// CHECK: return %[[R]]
func.func @lookup_table_v2(%w: tensor<30522x768xf32>, %ids: tensor<?x128xi64>) -> (tensor<?x128x768xf32>) {
  %y = pd.lookup_table_v2 %w, %ids : (tensor<30522x768xf32>, tensor<?x128xi64>) -> tensor<?x128x768xf32>
  return %y : tensor<?x128x768xf32>
}

// Tests that pd.one_hot_v2 round-trips.
// CHECK-LABEL: func.func @one_hot_v2
// CHECK: %[[R:.*]] = pd.one_hot_v2 %arg0 {depth = 10 : i32} : (tensor<?xi64>) -> tensor<?x10xf32>
// CHECK: return %[[R]]
func.func @one_hot_v2(%x: tensor<?xi64>) -> (tensor<?x10xf32>) {
  %y = pd.one_hot_v2 %x {depth = 10 : i32} : (tensor<?xi64>) -> tensor<?x10xf32>
  return %y : tensor<?x10xf32>
}

// Tests that pd.fill_constant round-trips.
// CHECK-LABEL: func.func @fill_constant
// CHECK: %[[R:.*]] = pd.fill_constant {shape = array<i64: 2, 3>, value = 1.000000e+00 : f32} : () -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @fill_constant() -> (tensor<2x3xf32>) {
  %y = pd.fill_constant {shape = array<i64: 2, 3>, value = 1.0 : f32} : () -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// Tests that pd.fill_any_like round-trips.
// CHECK-LABEL: func.func @fill_any_like
// CHECK: %[[R:.*]] = pd.fill_any_like %arg0 {value = 1.000000e+00 : f32} : (tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK: return %[[R]]
func.func @fill_any_like(%x: tensor<?x4xf32>) -> (tensor<?x4xf32>) {
  %y = pd.fill_any_like %x {value = 1.0 : f32} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

// Tests that pd.shape round-trips.
// CHECK-LABEL: func.func @shape
// CHECK: %[[R:.*]] = pd.shape %arg0 : (tensor<?x3x224x224xf32>) -> tensor<4xi32>
// CHECK: return %[[R]]
func.func @shape(%x: tensor<?x3x224x224xf32>) -> (tensor<4xi32>) {
  %s = pd.shape %x : (tensor<?x3x224x224xf32>) -> tensor<4xi32>
  return %s : tensor<4xi32>
}

// Tests that pd.range round-trips.
// CHECK-LABEL: func.func @range
// CHECK: %[[R:.*]] = pd.range %arg0, %arg1, %arg2 : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xi64>
// CHECK: return %[[R]]
func.func @range(%s: tensor<1xi64>, %e: tensor<1xi64>, %st: tensor<1xi64>) -> (tensor<?xi64>) {
  %y = pd.range %s, %e, %st : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xi64>
  return %y : tensor<?xi64>
}

// Tests that pd.assign round-trips.
// CHECK-LABEL: func.func @assign
// CHECK: %[[R:.*]] = pd.assign %arg0 : (tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK: return %[[R]]
func.func @assign(%x: tensor<?x4xf32>) -> (tensor<?x4xf32>) {
  %y = pd.assign %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

// Tests that pd.reduce_mean round-trips.
// CHECK-LABEL: func.func @reduce_mean
// CHECK: %[[R:.*]] = pd.reduce_mean %arg0 {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xf32>) -> tensor<?x1xf32>
// CHECK: return %[[R]]
func.func @reduce_mean(%x: tensor<?x128xf32>) -> (tensor<?x1xf32>) {
  %s = pd.reduce_mean %x {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xf32>) -> tensor<?x1xf32>
  return %s : tensor<?x1xf32>
}

// Tests that pd.reduce_sum round-trips.
// CHECK-LABEL: func.func @reduce_sum
// CHECK: %[[R:.*]] = pd.reduce_sum %arg0 {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xf32>) -> tensor<?x1xf32>
// CHECK: return %[[R]]
func.func @reduce_sum(%x: tensor<?x128xf32>) -> (tensor<?x1xf32>) {
  %s = pd.reduce_sum %x {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xf32>) -> tensor<?x1xf32>
  return %s : tensor<?x1xf32>
}

// Tests that pd.reduce_max round-trips.
// CHECK-LABEL: func.func @reduce_max
// CHECK: %[[R:.*]] = pd.reduce_max %arg0 {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xf32>) -> tensor<?x1xf32>
// CHECK: return %[[R]]
func.func @reduce_max(%x: tensor<?x128xf32>) -> (tensor<?x1xf32>) {
  %s = pd.reduce_max %x {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xf32>) -> tensor<?x1xf32>
  return %s : tensor<?x1xf32>
}

// Tests that pd.reduce_min round-trips.
// CHECK-LABEL: func.func @reduce_min
// CHECK: %[[R:.*]] = pd.reduce_min %arg0 {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xf32>) -> tensor<?x1xf32>
// CHECK: return %[[R]]
func.func @reduce_min(%x: tensor<?x128xf32>) -> (tensor<?x1xf32>) {
  %s = pd.reduce_min %x {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xf32>) -> tensor<?x1xf32>
  return %s : tensor<?x1xf32>
}

// Tests that pd.reduce_prod round-trips.
// CHECK-LABEL: func.func @reduce_prod
// CHECK: %[[R:.*]] = pd.reduce_prod %arg0 {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xf32>) -> tensor<?x1xf32>
// CHECK: return %[[R]]
func.func @reduce_prod(%x: tensor<?x128xf32>) -> (tensor<?x1xf32>) {
  %s = pd.reduce_prod %x {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xf32>) -> tensor<?x1xf32>
  return %s : tensor<?x1xf32>
}

// Tests that pd.mean round-trips.
// CHECK-LABEL: func.func @mean
// CHECK: %[[R:.*]] = pd.mean %arg0 : (tensor<?x10xf32>) -> tensor<1xf32>
// CHECK: return %[[R]]
func.func @mean(%x: tensor<?x10xf32>) -> (tensor<1xf32>) {
  %y = pd.mean %x : (tensor<?x10xf32>) -> tensor<1xf32>
  return %y : tensor<1xf32>
}

// Tests that pd.sum round-trips.
// CHECK-LABEL: func.func @sum
// CHECK: %[[R:.*]] = pd.sum [%arg0, %arg1, %arg2] : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK: return %[[R]]
func.func @sum(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>, %c: tensor<?x4xf32>) -> (tensor<?x4xf32>) {
  %y = pd.sum [%a, %b, %c] : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

// Tests that pd.arg_max round-trips.
// CHECK-LABEL: func.func @arg_max
// CHECK: %[[R:.*]] = pd.arg_max %arg0 {axis = 1 : i64} : (tensor<?x1000xf32>) -> tensor<?xi64>
// CHECK: return %[[R]]
func.func @arg_max(%x: tensor<?x1000xf32>) -> (tensor<?xi64>) {
  %y = pd.arg_max %x {axis = 1 : i64} : (tensor<?x1000xf32>) -> tensor<?xi64>
  return %y : tensor<?xi64>
}

// Tests that pd.arg_min round-trips.
// CHECK-LABEL: func.func @arg_min
// CHECK: %[[R:.*]] = pd.arg_min %arg0 {axis = 1 : i64} : (tensor<?x1000xf32>) -> tensor<?xi64>
// CHECK: return %[[R]]
func.func @arg_min(%x: tensor<?x1000xf32>) -> (tensor<?xi64>) {
  %y = pd.arg_min %x {axis = 1 : i64} : (tensor<?x1000xf32>) -> tensor<?xi64>
  return %y : tensor<?xi64>
}

// Tests that pd.top_k_v2 round-trips.
// CHECK-LABEL: func.func @top_k_v2
// CHECK: %Out, %Indices = pd.top_k_v2 %arg0 {k = 5 : i32} : (tensor<?x1000xf32>) -> (tensor<?x5xf32>, tensor<?x5xi64>)
// CHECK: return %Out
func.func @top_k_v2(%x: tensor<?x1000xf32>) -> (tensor<?x5xf32>, tensor<?x5xi64>) {
  %v, %i = pd.top_k_v2 %x {k = 5 : i32} : (tensor<?x1000xf32>) -> (tensor<?x5xf32>, tensor<?x5xi64>)
  return %v, %i : tensor<?x5xf32>, tensor<?x5xi64>
}

// Tests that pd.cumsum round-trips.
// CHECK-LABEL: func.func @cumsum
// CHECK: %[[R:.*]] = pd.cumsum %arg0 {axis = 1 : i32} : (tensor<?x128xi64>) -> tensor<?x128xi64>
// CHECK: return %[[R]]
func.func @cumsum(%x: tensor<?x128xi64>) -> (tensor<?x128xi64>) {
  %y = pd.cumsum %x {axis = 1 : i32} : (tensor<?x128xi64>) -> tensor<?x128xi64>
  return %y : tensor<?x128xi64>
}

// Tests that pd.where round-trips.
// CHECK-LABEL: func.func @where
// CHECK: %[[R:.*]] = pd.where %arg0, %arg1, %arg2 : (tensor<?x4xi1>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK: return %[[R]]
func.func @where(%c: tensor<?x4xi1>, %a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> (tensor<?x4xf32>) {
  %y = pd.where %c, %a, %b : (tensor<?x4xi1>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

// Tests that pd.equal round-trips.
// CHECK-LABEL: func.func @equal
// CHECK: %[[R:.*]] = pd.equal %arg0, %arg1 : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
// CHECK: return %[[R]]
func.func @equal(%x: tensor<?x8xf32>, %y: tensor<?x8xf32>) -> (tensor<?x8xi1>) {
  %m = pd.equal %x, %y : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
  return %m : tensor<?x8xi1>
}

// Tests that pd.not_equal round-trips.
// CHECK-LABEL: func.func @not_equal
// CHECK: %[[R:.*]] = pd.not_equal %arg0, %arg1 : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
// CHECK: return %[[R]]
func.func @not_equal(%x: tensor<?x8xf32>, %y: tensor<?x8xf32>) -> (tensor<?x8xi1>) {
  %m = pd.not_equal %x, %y : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
  return %m : tensor<?x8xi1>
}

// Tests that pd.less_than round-trips.
// CHECK-LABEL: func.func @less_than
// CHECK: %[[R:.*]] = pd.less_than %arg0, %arg1 : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
// CHECK: return %[[R]]
func.func @less_than(%x: tensor<?x8xf32>, %y: tensor<?x8xf32>) -> (tensor<?x8xi1>) {
  %m = pd.less_than %x, %y : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
  return %m : tensor<?x8xi1>
}

// Tests that pd.greater_than round-trips.
// CHECK-LABEL: func.func @greater_than
// CHECK: %[[R:.*]] = pd.greater_than %arg0, %arg1 : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
// CHECK: return %[[R]]
func.func @greater_than(%x: tensor<?x8xf32>, %y: tensor<?x8xf32>) -> (tensor<?x8xi1>) {
  %m = pd.greater_than %x, %y : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
  return %m : tensor<?x8xi1>
}

// Tests that pd.logical_and round-trips.
// CHECK-LABEL: func.func @logical_and
// CHECK: %[[R:.*]] = pd.logical_and %arg0, %arg1 : (tensor<?x4xi1>, tensor<?x4xi1>) -> tensor<?x4xi1>
// CHECK: return %[[R]]
func.func @logical_and(%x: tensor<?x4xi1>, %y: tensor<?x4xi1>) -> (tensor<?x4xi1>) {
  %z = pd.logical_and %x, %y : (tensor<?x4xi1>, tensor<?x4xi1>) -> tensor<?x4xi1>
  return %z : tensor<?x4xi1>
}

// Tests that pd.logical_or round-trips.
// CHECK-LABEL: func.func @logical_or
// CHECK: %[[R:.*]] = pd.logical_or %arg0, %arg1 : (tensor<?x4xi1>, tensor<?x4xi1>) -> tensor<?x4xi1>
// CHECK: return %[[R]]
func.func @logical_or(%x: tensor<?x4xi1>, %y: tensor<?x4xi1>) -> (tensor<?x4xi1>) {
  %z = pd.logical_or %x, %y : (tensor<?x4xi1>, tensor<?x4xi1>) -> tensor<?x4xi1>
  return %z : tensor<?x4xi1>
}

// Tests that pd.logical_not round-trips.
// CHECK-LABEL: func.func @logical_not
// CHECK: %[[R:.*]] = pd.logical_not %arg0 : (tensor<?x4xi1>) -> tensor<?x4xi1>
// CHECK: return %[[R]]
func.func @logical_not(%x: tensor<?x4xi1>) -> (tensor<?x4xi1>) {
  %z = pd.logical_not %x : (tensor<?x4xi1>) -> tensor<?x4xi1>
  return %z : tensor<?x4xi1>
}

// Tests that pd.fake_quantize_moving_average_abs_max round-trips.
// CHECK-LABEL: func.func @fake_quantize_moving_average_abs_max
// CHECK: %Out, %OutScale = pd.fake_quantize_moving_average_abs_max %arg0, %arg1 {is_test = true} : (tensor<?x64xf32>, tensor<1xf32>) -> (tensor<?x64xf32>, tensor<1xf32>)
// CHECK: return %Out
func.func @fake_quantize_moving_average_abs_max(%x: tensor<?x64xf32>, %in_scale: tensor<1xf32>) -> (tensor<?x64xf32>, tensor<1xf32>) {
  %q, %s = pd.fake_quantize_moving_average_abs_max %x, %in_scale {is_test = true} : (tensor<?x64xf32>, tensor<1xf32>) -> (tensor<?x64xf32>, tensor<1xf32>)
  return %q, %s : tensor<?x64xf32>, tensor<1xf32>
}

// Tests that pd.fake_quantize_dequantize_moving_average_abs_max round-trips.
// CHECK-LABEL: func.func @fake_quantize_dequantize_moving_average_abs_max
// CHECK: %Out, %OutScale = pd.fake_quantize_dequantize_moving_average_abs_max %arg0, %arg1 {is_test = true} : (tensor<?x64xf32>, tensor<1xf32>) -> (tensor<?x64xf32>, tensor<1xf32>)
// CHECK: return %Out
func.func @fake_quantize_dequantize_moving_average_abs_max(%x: tensor<?x64xf32>, %in_scale: tensor<1xf32>) -> (tensor<?x64xf32>, tensor<1xf32>) {
  %q, %s = pd.fake_quantize_dequantize_moving_average_abs_max %x, %in_scale {is_test = true} : (tensor<?x64xf32>, tensor<1xf32>) -> (tensor<?x64xf32>, tensor<1xf32>)
  return %q, %s : tensor<?x64xf32>, tensor<1xf32>
}

// Tests that pd.fake_channel_wise_quantize_dequantize_abs_max round-trips.
// CHECK-LABEL: func.func @fake_channel_wise_quantize_dequantize_abs_max
// CHECK: %Out, %OutScale = pd.fake_channel_wise_quantize_dequantize_abs_max %arg0 : (tensor<32x3x3x3xf32>) -> (tensor<32x3x3x3xf32>, tensor<32xf32>)
// CHECK: return %Out
func.func @fake_channel_wise_quantize_dequantize_abs_max(%w: tensor<32x3x3x3xf32>) -> (tensor<32x3x3x3xf32>, tensor<32xf32>) {
  %q, %s = pd.fake_channel_wise_quantize_dequantize_abs_max %w : (tensor<32x3x3x3xf32>) -> (tensor<32x3x3x3xf32>, tensor<32xf32>)
  return %q, %s : tensor<32x3x3x3xf32>, tensor<32xf32>
}

// Tests that pd.fake_dequantize_max_abs round-trips.
// CHECK-LABEL: func.func @fake_dequantize_max_abs
// CHECK: %[[R:.*]] = pd.fake_dequantize_max_abs %arg0, %arg1 {max_range = 1.270000e+02 : f32} : (tensor<?x64xf32>, tensor<1xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @fake_dequantize_max_abs(%x: tensor<?x64xf32>, %s: tensor<1xf32>) -> (tensor<?x64xf32>) {
  %y = pd.fake_dequantize_max_abs %x, %s {max_range = 127.0 : f32} : (tensor<?x64xf32>, tensor<1xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.fake_channel_wise_dequantize_max_abs round-trips.
// CHECK-LABEL: func.func @fake_channel_wise_dequantize_max_abs
// CHECK: %[[R:.*]] = pd.fake_channel_wise_dequantize_max_abs %arg0 Scales[%arg1] : (tensor<?x32x8x8xf32>, tensor<32xf32>) -> tensor<?x32x8x8xf32>
// CHECK: return %[[R]]
func.func @fake_channel_wise_dequantize_max_abs(%x: tensor<?x32x8x8xf32>, %s: tensor<32xf32>) -> (tensor<?x32x8x8xf32>) {
  %y = pd.fake_channel_wise_dequantize_max_abs %x Scales [%s] : (tensor<?x32x8x8xf32>, tensor<32xf32>) -> tensor<?x32x8x8xf32>
  return %y : tensor<?x32x8x8xf32>
}

// Tests that pd.quantize_linear round-trips.
// CHECK-LABEL: func.func @quantize_linear
// CHECK: %[[R:.*]] = pd.quantize_linear %arg0, %arg1, %arg2 : (tensor<?x64xf32>, tensor<1xf32>, tensor<1xi32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @quantize_linear(%x: tensor<?x64xf32>, %s: tensor<1xf32>, %zp: tensor<1xi32>) -> (tensor<?x64xf32>) {
  %q = pd.quantize_linear %x, %s, %zp : (tensor<?x64xf32>, tensor<1xf32>, tensor<1xi32>) -> tensor<?x64xf32>
  return %q : tensor<?x64xf32>
}

// Tests that pd.dequantize_linear round-trips.
// CHECK-LABEL: func.func @dequantize_linear
// CHECK: %[[R:.*]] = pd.dequantize_linear %arg0, %arg1, %arg2 : (tensor<?x64xf32>, tensor<1xf32>, tensor<1xi32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @dequantize_linear(%q: tensor<?x64xf32>, %s: tensor<1xf32>, %zp: tensor<1xi32>) -> (tensor<?x64xf32>) {
  %y = pd.dequantize_linear %q, %s, %zp : (tensor<?x64xf32>, tensor<1xf32>, tensor<1xi32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.fc round-trips.
// CHECK-LABEL: func.func @fc
// CHECK: %[[R:.*]] = pd.fc %arg0, %arg1 Bias(%arg2) {activation_type = "relu", in_num_col_dims = 2 : i32} : (tensor<?x128x768xf32>, tensor<768x3072xf32>, tensor<3072xf32>) -> tensor<?x128x3072xf32>
// CHECK: return %[[R]]
func.func @fc(%x: tensor<?x128x768xf32>, %w: tensor<768x3072xf32>, %b: tensor<3072xf32>) -> (tensor<?x128x3072xf32>) {
  %y = pd.fc %x, %w Bias(%b) {in_num_col_dims = 2 : i32, activation_type = "relu"} : (tensor<?x128x768xf32>, tensor<768x3072xf32>, tensor<3072xf32>) -> tensor<?x128x3072xf32>
  return %y : tensor<?x128x3072xf32>
}

// Tests that pd.fused_conv2d round-trips.
// CHECK-LABEL: func.func @fused_conv2d
// CHECK: %[[R:.*]] = pd.fused_conv2d %arg0, %arg1 Bias(%arg2) {fuse_activation = "relu"} : (tensor<?x3x8x8xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<?x16x6x6xf32>
// CHECK: return %[[R]]
func.func @fused_conv2d(%x: tensor<?x3x8x8xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) -> (tensor<?x16x6x6xf32>) {
  %y = pd.fused_conv2d %x, %w Bias(%b) {fuse_activation = "relu"} : (tensor<?x3x8x8xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<?x16x6x6xf32>
  return %y : tensor<?x16x6x6xf32>
}

// Tests that pd.multihead_matmul round-trips.
// CHECK-LABEL: func.func @multihead_matmul
// CHECK: %[[R:.*]] = pd.multihead_matmul %arg0, %arg1, %arg2 BiasQK(%arg3) {alpha = 1.250000e-01 : f32, head_number = 12 : i32} : (tensor<?x128x768xf32>, tensor<768x3x768xf32>, tensor<3x768xf32>, tensor<?x12x128x128xf32>) -> tensor<?x128x768xf32>
// CHECK: return %[[R]]
func.func @multihead_matmul(%x: tensor<?x128x768xf32>, %w: tensor<768x3x768xf32>, %b: tensor<3x768xf32>, %mask: tensor<?x12x128x128xf32>) -> (tensor<?x128x768xf32>) {
  %y = pd.multihead_matmul %x, %w, %b BiasQK(%mask) {alpha = 0.125 : f32, head_number = 12 : i32} : (tensor<?x128x768xf32>, tensor<768x3x768xf32>, tensor<3x768xf32>, tensor<?x12x128x128xf32>) -> tensor<?x128x768xf32>
  return %y : tensor<?x128x768xf32>
}

// Tests that pd.skip_layernorm round-trips.
// CHECK-LABEL: func.func @skip_layernorm
// CHECK: %[[R:.*]] = pd.skip_layernorm %arg0, %arg1, %arg2, %arg3 : (tensor<?x128x768xf32>, tensor<?x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x128x768xf32>
// CHECK: return %[[R]]
func.func @skip_layernorm(%x: tensor<?x128x768xf32>, %r: tensor<?x128x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>) -> (tensor<?x128x768xf32>) {
  %y = pd.skip_layernorm %x, %r, %g, %b : (tensor<?x128x768xf32>, tensor<?x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x128x768xf32>
  return %y : tensor<?x128x768xf32>
}

// Tests that pd.fused_embedding_eltwise_layernorm round-trips.
// CHECK-LABEL: func.func @fused_embedding_eltwise_layernorm
// CHECK: %[[R:.*]] = pd.fused_embedding_eltwise_layernorm [%arg0, %arg1] [%arg2, %arg3], %arg4, %arg5 : (tensor<?x128xi64>, tensor<?x128xi64>, tensor<30522x768xf32>, tensor<512x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x128x768xf32>
// CHECK: return %[[R]]
func.func @fused_embedding_eltwise_layernorm(%word: tensor<?x128xi64>, %pos: tensor<?x128xi64>, %we: tensor<30522x768xf32>, %pe: tensor<512x768xf32>, %b: tensor<768xf32>, %g: tensor<768xf32>) -> (tensor<?x128x768xf32>) {
  %y = pd.fused_embedding_eltwise_layernorm [%word, %pos] [%we, %pe], %b, %g : (tensor<?x128xi64>, tensor<?x128xi64>, tensor<30522x768xf32>, tensor<512x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x128x768xf32>
  return %y : tensor<?x128x768xf32>
}

// Tests that pd.kernel_call round-trips on tensors (with a result) and on
// memrefs (without).
// CHECK-LABEL: func.func @kernel_call
// CHECK: %[[R:.*]] = pd.kernel_call "pdk_matmul"(%arg0, %arg1) init(%arg2) {floats = array<f32: 0.000000e+00>, ints = array<i64: 0, 0, 0, 0, 0>, slots = array<i64: 0, 1, -1>} : (tensor<4x8xf32>, tensor<8x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK: pd.kernel_call "pdk_matmul"(%arg3, %arg4) init(%arg5) {floats = array<f32: 0.000000e+00>, ints = array<i64: 0, 0, 0, 0, 0>, slots = array<i64: 0, 1, -1>} : (memref<4x8xf32>, memref<8x2xf32>, memref<4x2xf32>) -> ()
// CHECK: return %[[R]]
func.func @kernel_call(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %o: tensor<4x2xf32>, %ma: memref<4x8xf32>, %mb: memref<8x2xf32>, %mo: memref<4x2xf32>) -> tensor<4x2xf32> {
  %y = pd.kernel_call "pdk_matmul"(%a, %b) init(%o) {slots = array<i64: 0, 1, -1>, ints = array<i64: 0, 0, 0, 0, 0>, floats = array<f32: 0.0>} : (tensor<4x8xf32>, tensor<8x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  pd.kernel_call "pdk_matmul"(%ma, %mb) init(%mo) {slots = array<i64: 0, 1, -1>, ints = array<i64: 0, 0, 0, 0, 0>, floats = array<f32: 0.0>} : (memref<4x8xf32>, memref<8x2xf32>, memref<4x2xf32>) -> ()
  return %y : tensor<4x2xf32>
}

// Tests that pd.sin round-trips.
// CHECK-LABEL: func.func @sin
// CHECK: %[[R:.*]] = pd.sin %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @sin(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.sin %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.cos round-trips.
// CHECK-LABEL: func.func @cos
// CHECK: %[[R:.*]] = pd.cos %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @cos(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.cos %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.tan round-trips.
// CHECK-LABEL: func.func @tan
// CHECK: %[[R:.*]] = pd.tan %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @tan(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.tan %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.asin round-trips.
// CHECK-LABEL: func.func @asin
// CHECK: %[[R:.*]] = pd.asin %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @asin(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.asin %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.acos round-trips.
// CHECK-LABEL: func.func @acos
// CHECK: %[[R:.*]] = pd.acos %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @acos(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.acos %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.atan round-trips.
// CHECK-LABEL: func.func @atan
// CHECK: %[[R:.*]] = pd.atan %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @atan(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.atan %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.sinh round-trips.
// CHECK-LABEL: func.func @sinh
// CHECK: %[[R:.*]] = pd.sinh %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @sinh(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.sinh %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.cosh round-trips.
// CHECK-LABEL: func.func @cosh
// CHECK: %[[R:.*]] = pd.cosh %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @cosh(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.cosh %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.asinh round-trips.
// CHECK-LABEL: func.func @asinh
// CHECK: %[[R:.*]] = pd.asinh %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @asinh(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.asinh %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.acosh round-trips.
// CHECK-LABEL: func.func @acosh
// CHECK: %[[R:.*]] = pd.acosh %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @acosh(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.acosh %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.atanh round-trips.
// CHECK-LABEL: func.func @atanh
// CHECK: %[[R:.*]] = pd.atanh %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @atanh(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.atanh %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.floor round-trips.
// CHECK-LABEL: func.func @floor
// CHECK: %[[R:.*]] = pd.floor %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @floor(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.floor %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.ceil round-trips.
// CHECK-LABEL: func.func @ceil
// CHECK: %[[R:.*]] = pd.ceil %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @ceil(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.ceil %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.reciprocal round-trips.
// CHECK-LABEL: func.func @reciprocal
// CHECK: %[[R:.*]] = pd.reciprocal %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @reciprocal(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.reciprocal %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.sign round-trips.
// CHECK-LABEL: func.func @sign
// CHECK: %[[R:.*]] = pd.sign %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @sign(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.sign %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.softsign round-trips.
// CHECK-LABEL: func.func @softsign
// CHECK: %[[R:.*]] = pd.softsign %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @softsign(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.softsign %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.softplus round-trips.
// CHECK-LABEL: func.func @softplus
// CHECK: %[[R:.*]] = pd.softplus %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @softplus(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.softplus %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.elu round-trips.
// CHECK-LABEL: func.func @elu
// CHECK: %[[R:.*]] = pd.elu %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @elu(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.elu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.selu round-trips.
// CHECK-LABEL: func.func @selu
// CHECK: %[[R:.*]] = pd.selu %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @selu(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.selu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.celu round-trips.
// CHECK-LABEL: func.func @celu
// CHECK: %[[R:.*]] = pd.celu %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @celu(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.celu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.thresholded_relu round-trips.
// CHECK-LABEL: func.func @thresholded_relu
// CHECK: %[[R:.*]] = pd.thresholded_relu %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @thresholded_relu(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.thresholded_relu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.isinf_v2 round-trips.
// CHECK-LABEL: func.func @isinf_v2
// CHECK: %[[R:.*]] = pd.isinf_v2 %arg0 : (tensor<?x64xf32>) -> tensor<?x64xi1>
// CHECK: return %[[R]]
func.func @isinf_v2(%x: tensor<?x64xf32>) -> (tensor<?x64xi1>) {
  %m = pd.isinf_v2 %x : (tensor<?x64xf32>) -> tensor<?x64xi1>
  return %m : tensor<?x64xi1>
}

// Tests that pd.isnan_v2 round-trips.
// CHECK-LABEL: func.func @isnan_v2
// CHECK: %[[R:.*]] = pd.isnan_v2 %arg0 : (tensor<?x64xf32>) -> tensor<?x64xi1>
// CHECK: return %[[R]]
func.func @isnan_v2(%x: tensor<?x64xf32>) -> (tensor<?x64xi1>) {
  %m = pd.isnan_v2 %x : (tensor<?x64xf32>) -> tensor<?x64xi1>
  return %m : tensor<?x64xi1>
}

// Tests that pd.log2 round-trips (with its attributes).
// CHECK-LABEL: func.func @log2
// CHECK: %[[R:.*]] = pd.log2 %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @log2(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.log2 %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.log10 round-trips (with its attributes).
// CHECK-LABEL: func.func @log10
// CHECK: %[[R:.*]] = pd.log10 %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @log10(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.log10 %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.log1p round-trips (with its attributes).
// CHECK-LABEL: func.func @log1p
// CHECK: %[[R:.*]] = pd.log1p %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @log1p(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.log1p %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.logsigmoid round-trips (with its attributes).
// CHECK-LABEL: func.func @logsigmoid
// CHECK: %[[R:.*]] = pd.logsigmoid %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @logsigmoid(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.logsigmoid %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.hard_shrink round-trips (with its attributes).
// CHECK-LABEL: func.func @hard_shrink
// CHECK: %[[R:.*]] = pd.hard_shrink %arg0 {threshold = 2.500000e-01 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @hard_shrink(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.hard_shrink %x {threshold = 2.500000e-01 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.softshrink round-trips (with its attributes).
// CHECK-LABEL: func.func @softshrink
// CHECK: %[[R:.*]] = pd.softshrink %arg0 {lambda = 2.500000e-01 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @softshrink(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.softshrink %x {lambda = 2.500000e-01 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.tanh_shrink round-trips (with its attributes).
// CHECK-LABEL: func.func @tanh_shrink
// CHECK: %[[R:.*]] = pd.tanh_shrink %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @tanh_shrink(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.tanh_shrink %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.brelu round-trips (with its attributes).
// CHECK-LABEL: func.func @brelu
// CHECK: %[[R:.*]] = pd.brelu %arg0 {t_max = 6.000000e+00 : f32, t_min = 1.000000e+00 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @brelu(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.brelu %x {t_max = 6.000000e+00 : f32, t_min = 1.000000e+00 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.hardtanh round-trips (with its attributes).
// CHECK-LABEL: func.func @hardtanh
// CHECK: %[[R:.*]] = pd.hardtanh %arg0 {t_max = 2.000000e+00 : f32, t_min = -2.000000e+00 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @hardtanh(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.hardtanh %x {t_max = 2.000000e+00 : f32, t_min = -2.000000e+00 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.round round-trips (with its attributes).
// CHECK-LABEL: func.func @round
// CHECK: %[[R:.*]] = pd.round %arg0 : (tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: return %[[R]]
func.func @round(%x: tensor<?x64xf32>) -> (tensor<?x64xf32>) {
  %y = pd.round %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Tests that pd.isfinite_v2 round-trips.
// CHECK-LABEL: func.func @isfinite_v2
// CHECK: %[[R:.*]] = pd.isfinite_v2 %arg0 : (tensor<?x64xf32>) -> tensor<?x64xi1>
// CHECK: return %[[R]]
func.func @isfinite_v2(%x: tensor<?x64xf32>) -> (tensor<?x64xi1>) {
  %m = pd.isfinite_v2 %x : (tensor<?x64xf32>) -> tensor<?x64xi1>
  return %m : tensor<?x64xi1>
}

// Tests that the boolean reductions round-trip.
// CHECK-LABEL: func.func @reduce_all_any
// CHECK: pd.reduce_all %arg0 {dim = array<i32: 1>, keep_dim = true} : (tensor<?x8xi1>) -> tensor<?x1xi1>
// CHECK: pd.reduce_any %arg0 {reduce_all = true} : (tensor<?x8xi1>) -> tensor<1xi1>
func.func @reduce_all_any(%x: tensor<?x8xi1>) -> (tensor<?x1xi1>, tensor<1xi1>) {
  %a = pd.reduce_all %x {dim = array<i32: 1>, keep_dim = true} : (tensor<?x8xi1>) -> tensor<?x1xi1>
  %b = pd.reduce_any %x {reduce_all = true} : (tensor<?x8xi1>) -> tensor<1xi1>
  return %a, %b : tensor<?x1xi1>, tensor<1xi1>
}

// Tests that pd.logsumexp and pd.p_norm round-trip with their attributes.
// CHECK-LABEL: func.func @logsumexp_p_norm
// CHECK: pd.logsumexp %arg0 {axis = array<i32: 1>, keepdim = true} : (tensor<?x8xf32>) -> tensor<?x1xf32>
// CHECK: pd.p_norm %arg0 {axis = 1 : i32, porder = 3.000000e+00 : f32} : (tensor<?x8xf32>) -> tensor<?xf32>
func.func @logsumexp_p_norm(%x: tensor<?x8xf32>) -> (tensor<?x1xf32>, tensor<?xf32>) {
  %a = pd.logsumexp %x {axis = array<i32: 1>, keepdim = true} : (tensor<?x8xf32>) -> tensor<?x1xf32>
  %b = pd.p_norm %x {axis = 1 : i32, porder = 3.0 : f32} : (tensor<?x8xf32>) -> tensor<?xf32>
  return %a, %b : tensor<?x1xf32>, tensor<?xf32>
}

// Tests that pd.mv and pd.bmm round-trip.
// CHECK-LABEL: func.func @mv_bmm
// CHECK: pd.mv %arg0, %arg1 : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?xf32>
// CHECK: pd.bmm %arg2, %arg3 : (tensor<?x4x8xf32>, tensor<?x8x3xf32>) -> tensor<?x4x3xf32>
func.func @mv_bmm(%x: tensor<?x8xf32>, %v: tensor<8xf32>, %a: tensor<?x4x8xf32>, %b: tensor<?x8x3xf32>) -> (tensor<?xf32>, tensor<?x4x3xf32>) {
  %y = pd.mv %x, %v : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?xf32>
  %z = pd.bmm %a, %b : (tensor<?x4x8xf32>, tensor<?x8x3xf32>) -> tensor<?x4x3xf32>
  return %y, %z : tensor<?xf32>, tensor<?x4x3xf32>
}

// Tests that pd.roll and pd.pixel_shuffle round-trip.
// CHECK-LABEL: func.func @roll_pixel_shuffle
// CHECK: pd.roll %arg0 {axis = array<i64: 1>, shifts = array<i64: -3>} : (tensor<?x8xf32>) -> tensor<?x8xf32>
// CHECK: pd.pixel_shuffle %arg1 {upscale_factor = 2 : i32} : (tensor<?x12x4x4xf32>) -> tensor<?x3x8x8xf32>
func.func @roll_pixel_shuffle(%x: tensor<?x8xf32>, %y: tensor<?x12x4x4xf32>) -> (tensor<?x8xf32>, tensor<?x3x8x8xf32>) {
  %a = pd.roll %x {axis = array<i64: 1>, shifts = array<i64: -3>} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %b = pd.pixel_shuffle %y {upscale_factor = 2 : i32} : (tensor<?x12x4x4xf32>) -> tensor<?x3x8x8xf32>
  return %a, %b : tensor<?x8xf32>, tensor<?x3x8x8xf32>
}

// Tests that pd.logical_xor round-trips.
// CHECK-LABEL: func.func @logical_xor
// CHECK: %[[R:.*]] = pd.logical_xor %arg0, %arg1 : (tensor<?x4xi1>, tensor<?x4xi1>) -> tensor<?x4xi1>
// CHECK: return %[[R]]
func.func @logical_xor(%x: tensor<?x4xi1>, %y: tensor<?x4xi1>) -> (tensor<?x4xi1>) {
  %z = pd.logical_xor %x, %y : (tensor<?x4xi1>, tensor<?x4xi1>) -> tensor<?x4xi1>
  return %z : tensor<?x4xi1>
}

// Tests that pd.take_along_axis round-trips.
// CHECK-LABEL: func.func @take_along_axis
// CHECK: %[[R:.*]] = pd.take_along_axis %arg0, %arg1 {Axis = 1 : i32} : (tensor<4x5xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
// CHECK: return %[[R]]
func.func @take_along_axis(%x: tensor<4x5xf32>, %i: tensor<4x2xi64>) -> (tensor<4x2xf32>) {
  %y = pd.take_along_axis %x, %i {Axis = 1 : i32} : (tensor<4x5xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// Tests that pd.tril_triu round-trips.
// CHECK-LABEL: func.func @tril_triu
// CHECK: %[[R:.*]] = pd.tril_triu %arg0 {lower = false} : (tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
// CHECK: return %[[R]]
func.func @tril_triu(%x: tensor<?x4x4xf32>) -> (tensor<?x4x4xf32>) {
  %y = pd.tril_triu %x {lower = false} : (tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
  return %y : tensor<?x4x4xf32>
}

// Tests that pd.flip round-trips.
// CHECK-LABEL: func.func @flip
// CHECK: %[[R:.*]] = pd.flip %arg0 {axis = array<i32: 1>} : (tensor<?x8xf32>) -> tensor<?x8xf32>
// CHECK: return %[[R]]
func.func @flip(%x: tensor<?x8xf32>) -> (tensor<?x8xf32>) {
  %y = pd.flip %x {axis = array<i32: 1>} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

// Tests that pd.prior_box round-trips with its float-list attributes.
// CHECK-LABEL: func.func @prior_box
// CHECK: pd.prior_box %arg0, %arg1 {aspect_ratios = array<f32: 2.000000e+00>, flip = true, max_sizes = array<f32: 6.000000e+00>, min_sizes = array<f32: 4.000000e+00>} : (tensor<?x8x2x2xf32>, tensor<?x3x8x8xf32>) -> (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>)
func.func @prior_box(%f: tensor<?x8x2x2xf32>, %img: tensor<?x3x8x8xf32>) -> (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) {
  %b, %v = pd.prior_box %f, %img {min_sizes = array<f32: 4.0>, max_sizes = array<f32: 6.0>, aspect_ratios = array<f32: 2.0>, flip = true} : (tensor<?x8x2x2xf32>, tensor<?x3x8x8xf32>) -> (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>)
  return %b, %v : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
}

// Tests that pd.box_coder round-trips with its optional variance input.
// CHECK-LABEL: func.func @box_coder
// CHECK: pd.box_coder %arg0, %arg2 PriorBoxVar(%arg1) {code_type = "decode_center_size"} : (tensor<16x4xf32>, tensor<16x4xf32>, tensor<?x16x4xf32>) -> tensor<?x16x4xf32>
func.func @box_coder(%p: tensor<16x4xf32>, %v: tensor<16x4xf32>, %t: tensor<?x16x4xf32>) -> tensor<?x16x4xf32> {
  %o = pd.box_coder %p, %t PriorBoxVar(%v) {code_type = "decode_center_size"} : (tensor<16x4xf32>, tensor<16x4xf32>, tensor<?x16x4xf32>) -> tensor<?x16x4xf32>
  return %o : tensor<?x16x4xf32>
}

// Tests that pd.yolo_box round-trips.
// CHECK-LABEL: func.func @yolo_box
// CHECK: pd.yolo_box %arg0, %arg1 {anchors = array<i32: 10, 13, 16, 30>, class_num = 3 : i32} : (tensor<?x16x4x4xf32>, tensor<?x2xi32>) -> (tensor<?x32x4xf32>, tensor<?x32x3xf32>)
func.func @yolo_box(%x: tensor<?x16x4x4xf32>, %s: tensor<?x2xi32>) -> (tensor<?x32x4xf32>, tensor<?x32x3xf32>) {
  %b, %c = pd.yolo_box %x, %s {anchors = array<i32: 10, 13, 16, 30>, class_num = 3 : i32} : (tensor<?x16x4x4xf32>, tensor<?x2xi32>) -> (tensor<?x32x4xf32>, tensor<?x32x3xf32>)
  return %b, %c : tensor<?x32x4xf32>, tensor<?x32x3xf32>
}

// Tests that pd.matrix_nms round-trips.
// CHECK-LABEL: func.func @matrix_nms
// CHECK: pd.matrix_nms %arg0, %arg1 {keep_top_k = 10 : i32, nms_top_k = 100 : i32, post_threshold = 5.000000e-02 : f32, score_threshold = 0.00999999977 : f32, use_gaussian = true} : (tensor<?x50x4xf32>, tensor<?x3x50xf32>) -> (tensor<?x6xf32>, tensor<?x1xi32>, tensor<?xi32>)
func.func @matrix_nms(%b: tensor<?x50x4xf32>, %s: tensor<?x3x50xf32>) -> (tensor<?x6xf32>, tensor<?x1xi32>, tensor<?xi32>) {
  %o, %i, %n = pd.matrix_nms %b, %s {score_threshold = 0.01 : f32, post_threshold = 0.05 : f32, nms_top_k = 100 : i32, keep_top_k = 10 : i32, use_gaussian = true} : (tensor<?x50x4xf32>, tensor<?x3x50xf32>) -> (tensor<?x6xf32>, tensor<?x1xi32>, tensor<?xi32>)
  return %o, %i, %n : tensor<?x6xf32>, tensor<?x1xi32>, tensor<?xi32>
}

// Tests that generate_proposals, generate_proposals_v2 and roi_align
// round-trip: the proposals' count dynamic, the count per image [N].
// CHECK-LABEL: func.func @proposals
// CHECK: pd.generate_proposals %arg0, %arg1, %arg2, %arg4, %arg5 {post_nms_topN = 300 : i32, pre_nms_topN = 1000 : i32} : (tensor<?x3x8x8xf32>, tensor<?x12x8x8xf32>, tensor<?x3xf32>, tensor<8x8x3x4xf32>, tensor<8x8x3x4xf32>) -> (tensor<?x4xf32>, tensor<?x1xf32>, tensor<?xi32>)
// CHECK: pd.generate_proposals_v2 %arg0, %arg1, %arg3, %arg4, %arg5 {min_size = 0.000000e+00 : f32, pixel_offset = false} : (tensor<?x3x8x8xf32>, tensor<?x12x8x8xf32>, tensor<?x2xf32>, tensor<8x8x3x4xf32>, tensor<8x8x3x4xf32>) -> (tensor<?x4xf32>, tensor<?x1xf32>, tensor<?xi32>)
// CHECK: pd.roi_align %arg6, %RpnRois RoisNum(%RpnRoisNum) {pooled_height = 7 : i32, pooled_width = 7 : i32, sampling_ratio = 2 : i32, spatial_scale = 6.250000e-02 : f32} : (tensor<?x16x32x32xf32>, tensor<?x4xf32>, tensor<?xi32>) -> tensor<?x16x7x7xf32>
func.func @proposals(%s: tensor<?x3x8x8xf32>, %d: tensor<?x12x8x8xf32>, %info: tensor<?x3xf32>, %shape: tensor<?x2xf32>, %a: tensor<8x8x3x4xf32>, %v: tensor<8x8x3x4xf32>, %x: tensor<?x16x32x32xf32>) -> (tensor<?x4xf32>, tensor<?x1xf32>, tensor<?xi32>, tensor<?x16x7x7xf32>) {
  %r, %p, %n = pd.generate_proposals %s, %d, %info, %a, %v {pre_nms_topN = 1000 : i32, post_nms_topN = 300 : i32} : (tensor<?x3x8x8xf32>, tensor<?x12x8x8xf32>, tensor<?x3xf32>, tensor<8x8x3x4xf32>, tensor<8x8x3x4xf32>) -> (tensor<?x4xf32>, tensor<?x1xf32>, tensor<?xi32>)
  %r2, %p2, %n2 = pd.generate_proposals_v2 %s, %d, %shape, %a, %v {pixel_offset = false, min_size = 0.0 : f32} : (tensor<?x3x8x8xf32>, tensor<?x12x8x8xf32>, tensor<?x2xf32>, tensor<8x8x3x4xf32>, tensor<8x8x3x4xf32>) -> (tensor<?x4xf32>, tensor<?x1xf32>, tensor<?xi32>)
  %y = pd.roi_align %x, %r RoisNum(%n) {pooled_height = 7 : i32, pooled_width = 7 : i32, spatial_scale = 0.0625 : f32, sampling_ratio = 2 : i32} : (tensor<?x16x32x32xf32>, tensor<?x4xf32>, tensor<?xi32>) -> tensor<?x16x7x7xf32>
  return %r2, %p2, %n2, %y : tensor<?x4xf32>, tensor<?x1xf32>, tensor<?xi32>, tensor<?x16x7x7xf32>
}

// Tests that distribute_fpn_proposals round-trips with its two lists of
// results (one RoI list and one count per level) and their segment sizes.
// CHECK-LABEL: func.func @distribute_fpn
// CHECK: %MultiFpnRois:2, %RestoreIndex, %MultiLevelRoIsNum:2 = pd.distribute_fpn_proposals %arg0 RoisNum(%arg1) {max_level = 3 : i32, min_level = 2 : i32, refer_level = 3 : i32, refer_scale = 224 : i32, resultSegmentSizes = array<i32: 2, 1, 2>} : (tensor<?x4xf32>, tensor<?xi32>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x1xi32>, tensor<?xi32>, tensor<?xi32>)
func.func @distribute_fpn(%rois: tensor<?x4xf32>, %num: tensor<?xi32>) -> (tensor<?x4xf32>, tensor<?x1xi32>, tensor<?xi32>) {
  %r:2, %i, %n:2 = pd.distribute_fpn_proposals %rois RoisNum(%num) {min_level = 2 : i32, max_level = 3 : i32, refer_level = 3 : i32, refer_scale = 224 : i32, resultSegmentSizes = array<i32: 2, 1, 2>} : (tensor<?x4xf32>, tensor<?xi32>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x1xi32>, tensor<?xi32>, tensor<?xi32>)
  return %r#1, %i, %n#0 : tensor<?x4xf32>, tensor<?x1xi32>, tensor<?xi32>
}

// Tests that where_index and masked_select round-trip, their counts dynamic.
// CHECK-LABEL: func.func @where_index_masked_select
// CHECK: pd.where_index %arg0 : (tensor<?x8xi1>) -> tensor<?x2xi64>
// CHECK: pd.masked_select %arg1, %arg0 : (tensor<?x8xf32>, tensor<?x8xi1>) -> tensor<?xf32>
func.func @where_index_masked_select(%m: tensor<?x8xi1>, %x: tensor<?x8xf32>) -> (tensor<?x2xi64>, tensor<?xf32>) {
  %i = pd.where_index %m : (tensor<?x8xi1>) -> tensor<?x2xi64>
  %y = pd.masked_select %x, %m : (tensor<?x8xf32>, tensor<?x8xi1>) -> tensor<?xf32>
  return %i, %y : tensor<?x2xi64>, tensor<?xf32>
}

// Tests that the multiclass NMS ops round-trip, their kept-box counts dynamic.
// CHECK-LABEL: func.func @multiclass_nms
// CHECK: pd.multiclass_nms %arg0, %arg1 {keep_top_k = 10 : i32, nms_top_k = 100 : i32, score_threshold = 0.00999999977 : f32} : (tensor<?x50x4xf32>, tensor<?x3x50xf32>) -> tensor<?x?xf32>
// CHECK: pd.multiclass_nms2 %arg0, %arg1 {background_label = -1 : i32, keep_top_k = -1 : i32, nms_eta = 0.899999976 : f32, nms_top_k = -1 : i32, normalized = false, score_threshold = 5.000000e-01 : f32} : (tensor<?x50x4xf32>, tensor<?x3x50xf32>) -> (tensor<?x6xf32>, tensor<?x1xi32>)
// CHECK: pd.multiclass_nms3 %arg0, %arg1 {keep_top_k = 10 : i32, nms_threshold = 4.500000e-01 : f32, nms_top_k = 100 : i32, score_threshold = 0.00999999977 : f32} : (tensor<?x50x4xf32>, tensor<?x3x50xf32>) -> (tensor<?x6xf32>, tensor<?x1xi32>, tensor<?xi32>)
func.func @multiclass_nms(%b: tensor<?x50x4xf32>, %s: tensor<?x3x50xf32>) -> (tensor<?x?xf32>, tensor<?x6xf32>, tensor<?x1xi32>, tensor<?x6xf32>, tensor<?x1xi32>, tensor<?xi32>) {
  %o1 = pd.multiclass_nms %b, %s {score_threshold = 0.01 : f32, nms_top_k = 100 : i32, keep_top_k = 10 : i32} : (tensor<?x50x4xf32>, tensor<?x3x50xf32>) -> tensor<?x?xf32>
  %o2, %i2 = pd.multiclass_nms2 %b, %s {score_threshold = 0.5 : f32, nms_top_k = -1 : i32, keep_top_k = -1 : i32, nms_eta = 0.9 : f32, normalized = false, background_label = -1 : i32} : (tensor<?x50x4xf32>, tensor<?x3x50xf32>) -> (tensor<?x6xf32>, tensor<?x1xi32>)
  %o3, %i3, %n3 = pd.multiclass_nms3 %b, %s {score_threshold = 0.01 : f32, nms_top_k = 100 : i32, keep_top_k = 10 : i32, nms_threshold = 0.45 : f32} : (tensor<?x50x4xf32>, tensor<?x3x50xf32>) -> (tensor<?x6xf32>, tensor<?x1xi32>, tensor<?xi32>)
  return %o1, %o2, %i2, %o3, %i3, %n3 : tensor<?x?xf32>, tensor<?x6xf32>, tensor<?x1xi32>, tensor<?x6xf32>, tensor<?x1xi32>, tensor<?xi32>
}

// Tests that the ops of real programs that used to stop the import round-trip.
// CHECK-LABEL: func.func @import_blockers
// CHECK: pd.batch_norm %arg0, %arg1, %arg1, %arg1, %arg1 {epsilon = 0.00999999977 : f32}
// CHECK: pd.silu
// CHECK: pd.conv3d %arg2, %arg3 {paddings = array<i32: 1, 1, 1>} : (tensor<?x3x4x8x8xf32>, tensor<8x3x3x3x3xf32>) -> tensor<?x8x4x8x8xf32>
// CHECK: pd.grid_sampler %arg4, %arg5 {align_corners = false, padding_mode = "border"} : (tensor<?x8x16x16xf32>, tensor<?x4x4x2xf32>) -> tensor<?x8x4x4xf32>
// CHECK: pd.assign_value {dtype = 2 : i32, int32_values = array<i32: 4, 7>, shape = array<i32: 2>} : () -> tensor<2xi32>
// CHECK: pd.fill_constant_batch_size_like %arg6 {shape = array<i32: -1, 2, 32>} : (tensor<?x16xf32>) -> tensor<?x2x32xf32>
// CHECK: %{{.*}}, %{{.*}} = pd.cross_entropy2 %arg7, %arg8 : (tensor<?x10xf32>, tensor<?x1xi64>) -> (tensor<?x1xf32>, tensor<?x1xf32>)
// CHECK: %[[V:.*]], %[[I:.*]] = pd.top_k %arg7 {k = 5 : i32} : (tensor<?x10xf32>) -> (tensor<?x5xf32>, tensor<?x5xi64>)
// CHECK: pd.accuracy %[[V]], %[[I]], %arg8 : (tensor<?x5xf32>, tensor<?x5xi64>, tensor<?x1xi64>) -> (tensor<1xf32>, tensor<1xi32>, tensor<1xi32>)
func.func @import_blockers(%x: tensor<?x4x8x8xf32>, %s: tensor<4xf32>, %v: tensor<?x3x4x8x8xf32>, %w: tensor<8x3x3x3x3xf32>,
                           %img: tensor<?x8x16x16xf32>, %g: tensor<?x4x4x2xf32>, %like: tensor<?x16xf32>,
                           %p: tensor<?x10xf32>, %l: tensor<?x1xi64>) {
  %0 = pd.batch_norm %x, %s, %s, %s, %s {epsilon = 1.0e-2 : f32} : (tensor<?x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x8x8xf32>
  %1 = pd.silu %0 : (tensor<?x4x8x8xf32>) -> tensor<?x4x8x8xf32>
  %2 = pd.conv3d %v, %w {paddings = array<i32: 1, 1, 1>} : (tensor<?x3x4x8x8xf32>, tensor<8x3x3x3x3xf32>) -> tensor<?x8x4x8x8xf32>
  %3 = pd.grid_sampler %img, %g {align_corners = false, padding_mode = "border"} : (tensor<?x8x16x16xf32>, tensor<?x4x4x2xf32>) -> tensor<?x8x4x4xf32>
  %4 = pd.assign_value {shape = array<i32: 2>, dtype = 2 : i32, int32_values = array<i32: 4, 7>} : () -> tensor<2xi32>
  %5 = pd.fill_constant_batch_size_like %like {shape = array<i32: -1, 2, 32>} : (tensor<?x16xf32>) -> tensor<?x2x32xf32>
  %6, %7 = pd.cross_entropy2 %p, %l : (tensor<?x10xf32>, tensor<?x1xi64>) -> (tensor<?x1xf32>, tensor<?x1xf32>)
  %8, %9 = pd.top_k %p {k = 5 : i32} : (tensor<?x10xf32>) -> (tensor<?x5xf32>, tensor<?x5xi64>)
  %10, %11, %12 = pd.accuracy %8, %9, %l : (tensor<?x5xf32>, tensor<?x5xi64>, tensor<?x1xi64>) -> (tensor<1xf32>, tensor<1xi32>, tensor<1xi32>)
  return
}

// Tests that fake_channel_wise_dequantize_max_abs with two scales takes its
// channels along dim 1 (the quant_axis default 0 does not apply).
// CHECK-LABEL: func.func @channel_wise_dequantize_two_scales
// CHECK: pd.fake_channel_wise_dequantize_max_abs %arg0 Scales[%arg1, %arg2] {quant_bits = array<i32: 8, 8>}
func.func @channel_wise_dequantize_two_scales(%x: tensor<?x16x4x4xf32>, %s0: tensor<16xf32>, %s1: tensor<1xf32>) -> tensor<?x16x4x4xf32> {
  %0 = pd.fake_channel_wise_dequantize_max_abs %x Scales [%s0, %s1] {quant_bits = array<i32: 8, 8>} : (tensor<?x16x4x4xf32>, tensor<16xf32>, tensor<1xf32>) -> tensor<?x16x4x4xf32>
  return %0 : tensor<?x16x4x4xf32>
}

// Tests that the int8 ops round-trip, with their scales visible.
// CHECK-LABEL: func.func @quantize_dequantize
// CHECK: %[[Q:.*]] = pd.quantize %arg0 {dtype = "uint8", scale = 2.000000e-02 : f32, zero_point = 3 : i32} : (tensor<?x16xf32>) -> tensor<?x16xui8>
// CHECK: pd.dequantize %[[Q]] {scale = 2.000000e-02 : f32, zero_point = 3 : i32} : (tensor<?x16xui8>) -> tensor<?x16xf32>
// CHECK: pd.quantize %arg0 {full_range, scale = 2.000000e-02 : f32} : (tensor<?x16xf32>) -> tensor<?x16xi8>
func.func @quantize_dequantize(%x: tensor<?x16xf32>) -> (tensor<?x16xf32>, tensor<?x16xi8>) {
  %q = pd.quantize %x {scale = 0.02 : f32, zero_point = 3 : i32, dtype = "uint8"} : (tensor<?x16xf32>) -> tensor<?x16xui8>
  %y = pd.dequantize %q {scale = 0.02 : f32, zero_point = 3 : i32} : (tensor<?x16xui8>) -> tensor<?x16xf32>
  %f = pd.quantize %x {scale = 0.02 : f32, full_range} : (tensor<?x16xf32>) -> tensor<?x16xi8>
  return %y, %f : tensor<?x16xf32>, tensor<?x16xi8>
}

// CHECK-LABEL: func.func @quantized_conv2d
// CHECK: %[[R:.*]] = pd.quantized_conv2d %arg0, %arg1 Bias(%arg2) {filter_scales = array<f32: 0.00999999977, 3.000000e-02>, fuse_activation = "relu", input_scale = 2.000000e-02 : f32, out_dtype = "int8", output_scale = 5.000000e-02 : f32} : (tensor<?x3x8x8xi8>, tensor<2x3x3x3xi8>, tensor<2xf32>) -> tensor<?x2x6x6xi8>
func.func @quantized_conv2d(%x: tensor<?x3x8x8xi8>, %w: tensor<2x3x3x3xi8>, %b: tensor<2xf32>) -> tensor<?x2x6x6xi8> {
  %y = pd.quantized_conv2d %x, %w Bias(%b) {input_scale = 0.02 : f32, filter_scales = array<f32: 0.01, 0.03>, fuse_activation = "relu", out_dtype = "int8", output_scale = 0.05 : f32} : (tensor<?x3x8x8xi8>, tensor<2x3x3x3xi8>, tensor<2xf32>) -> tensor<?x2x6x6xi8>
  return %y : tensor<?x2x6x6xi8>
}

// CHECK-LABEL: func.func @quantized_conv2d_int8_residual
// CHECK: pd.quantized_conv2d %arg0, %arg1 ResidualData(%arg2) {filter_scales = array<f32: 0.00999999977, 3.000000e-02>, input_scale = 2.000000e-02 : f32, out_dtype = "uint8", output_scale = 5.000000e-02 : f32, residual_scale = 4.000000e-02 : f32} : (tensor<?x3x8x8xui8>, tensor<2x3x1x1xi8>, tensor<?x2x8x8xi8>) -> tensor<?x2x8x8xui8>
func.func @quantized_conv2d_int8_residual(%x: tensor<?x3x8x8xui8>, %w: tensor<2x3x1x1xi8>, %r: tensor<?x2x8x8xi8>) -> tensor<?x2x8x8xui8> {
  %y = pd.quantized_conv2d %x, %w ResidualData(%r) {input_scale = 0.02 : f32, filter_scales = array<f32: 0.01, 0.03>, out_dtype = "uint8", output_scale = 0.05 : f32, residual_scale = 0.04 : f32} : (tensor<?x3x8x8xui8>, tensor<2x3x1x1xi8>, tensor<?x2x8x8xi8>) -> tensor<?x2x8x8xui8>
  return %y : tensor<?x2x8x8xui8>
}

// CHECK-LABEL: func.func @quantized_fc
// CHECK: %[[R:.*]] = pd.quantized_fc %arg0, %arg1 Bias(%arg2) {input_scale = 2.000000e-02 : f32, weight_scales = array<f32: 0.00999999977, 2.000000e-02, 0.00999999977>} : (tensor<?x64xui8>, tensor<64x3xi8>, tensor<3xf32>) -> tensor<?x3xf32>
func.func @quantized_fc(%x: tensor<?x64xui8>, %w: tensor<64x3xi8>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %y = pd.quantized_fc %x, %w Bias(%b) {in_num_col_dims = 1 : i32, input_scale = 0.02 : f32, weight_scales = array<f32: 0.01, 0.02, 0.01>} : (tensor<?x64xui8>, tensor<64x3xi8>, tensor<3xf32>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}

// CHECK-LABEL: func.func @quantized_matmul
// CHECK: pd.quantized_matmul %arg0, %arg1 {alpha = 1.250000e-01 : f32, trans_y = true, x_scale = 2.000000e-02 : f32, y_scale = 3.000000e-02 : f32} : (tensor<?x2x6x8xui8>, tensor<?x2x5x8xi8>) -> tensor<?x2x6x5xf32>
func.func @quantized_matmul(%x: tensor<?x2x6x8xui8>, %y: tensor<?x2x5x8xi8>) -> tensor<?x2x6x5xf32> {
  %o = pd.quantized_matmul %x, %y {trans_y = true, alpha = 0.125 : f32, x_scale = 0.02 : f32, y_scale = 0.03 : f32} : (tensor<?x2x6x8xui8>, tensor<?x2x5x8xi8>) -> tensor<?x2x6x5xf32>
  return %o : tensor<?x2x6x5xf32>
}

// Tests that pd.set_value round-trips with a ValueTensor and run-time bounds
// (one operand segment each), and with decrease_axes and none_axes.
// CHECK-LABEL: func.func @set_value_operands
// CHECK: pd.set_value %arg0 ValueTensor(%arg1) StartsTensorList[%arg2] EndsTensorList[%arg3] {axes = array<i64: 1>, ends = array<i64: 0>, starts = array<i64: 0>, steps = array<i64: 2>} : (tensor<?x8xf32>, tensor<1xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x8xf32>
// CHECK: pd.set_value %arg0 ValueTensor(%arg4) {axes = array<i64: 1>, decrease_axes = array<i64: 1>, ends = array<i64: 4>, none_axes = array<i64: 0>, starts = array<i64: 3>, steps = array<i64: 1>} : (tensor<?x8xf32>, tensor<1x?xf32>) -> tensor<?x8xf32>
func.func @set_value_operands(%x: tensor<?x8xf32>, %v: tensor<1xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>, %w: tensor<1x?xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %0 = pd.set_value %x ValueTensor(%v) StartsTensorList[%s] EndsTensorList[%e] {axes = array<i64: 1>, starts = array<i64: 0>, ends = array<i64: 0>, steps = array<i64: 2>} : (tensor<?x8xf32>, tensor<1xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x8xf32>
  %1 = pd.set_value %x ValueTensor(%w) {axes = array<i64: 1>, starts = array<i64: 3>, ends = array<i64: 4>, steps = array<i64: 1>, decrease_axes = array<i64: 1>, none_axes = array<i64: 0>} : (tensor<?x8xf32>, tensor<1x?xf32>) -> tensor<?x8xf32>
  return %0, %1 : tensor<?x8xf32>, tensor<?x8xf32>
}

// Tests that pd.index_put round-trips with an index tuple and the default
// accumulate = false elided.
// CHECK-LABEL: func.func @index_put_tuple
// CHECK: pd.index_put %arg0, %arg3 indices[%arg1, %arg2] : (tensor<4x5xf32>, tensor<3xi64>, tensor<3xi64>, tensor<3xf32>) -> tensor<4x5xf32>
func.func @index_put_tuple(%x: tensor<4x5xf32>, %i: tensor<3xi64>, %j: tensor<3xi64>, %v: tensor<3xf32>) -> tensor<4x5xf32> {
  %y = pd.index_put %x, %v indices [%i, %j] {accumulate = false} : (tensor<4x5xf32>, tensor<3xi64>, tensor<3xi64>, tensor<3xf32>) -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// Tests that pd.argsort and pd.index_select round-trip with their defaults
// elided, on int64 values and an int32 index.
// CHECK-LABEL: func.func @argsort_index_select_defaults
// CHECK: %[[V:.*]], %[[I:.*]] = pd.argsort %arg0 : (tensor<3x?xi64>) -> (tensor<3x?xi64>, tensor<3x?xi64>)
// CHECK: pd.index_select %[[V]], %arg1 : (tensor<3x?xi64>, tensor<?xi32>) -> tensor<?x?xi64>
func.func @argsort_index_select_defaults(%x: tensor<3x?xi64>, %i: tensor<?xi32>) -> (tensor<?x?xi64>, tensor<3x?xi64>) {
  %v, %k = pd.argsort %x {axis = -1 : i32, descending = false, stable = false} : (tensor<3x?xi64>) -> (tensor<3x?xi64>, tensor<3x?xi64>)
  %y = pd.index_select %v, %i {dim = 0 : i32} : (tensor<3x?xi64>, tensor<?xi32>) -> tensor<?x?xi64>
  return %y, %k : tensor<?x?xi64>, tensor<3x?xi64>
}

// Tests that the compare ops broadcast and the bitwise ops take bools.
// CHECK-LABEL: func.func @compare_bitwise_bool
// CHECK: pd.less_equal %arg0, %arg1 : (tensor<2x3x4xi32>, tensor<3x1xi32>) -> tensor<2x3x4xi1>
// CHECK: pd.greater_equal %arg0, %arg1 : (tensor<2x3x4xi32>, tensor<3x1xi32>) -> tensor<2x3x4xi1>
// CHECK: pd.bitwise_and %arg2, %arg3 : (tensor<?x4xi1>, tensor<4xi1>) -> tensor<?x4xi1>
// CHECK: pd.bitwise_or %arg2, %arg3 : (tensor<?x4xi1>, tensor<4xi1>) -> tensor<?x4xi1>
// CHECK: pd.bitwise_xor %arg2, %arg3 : (tensor<?x4xi1>, tensor<4xi1>) -> tensor<?x4xi1>
// CHECK: pd.bitwise_not %arg3 : (tensor<4xi1>) -> tensor<4xi1>
func.func @compare_bitwise_bool(%x: tensor<2x3x4xi32>, %y: tensor<3x1xi32>, %a: tensor<?x4xi1>, %b: tensor<4xi1>) -> (tensor<2x3x4xi1>, tensor<2x3x4xi1>, tensor<?x4xi1>, tensor<?x4xi1>, tensor<?x4xi1>, tensor<4xi1>) {
  %0 = pd.less_equal %x, %y : (tensor<2x3x4xi32>, tensor<3x1xi32>) -> tensor<2x3x4xi1>
  %1 = pd.greater_equal %x, %y {axis = -1 : i32} : (tensor<2x3x4xi32>, tensor<3x1xi32>) -> tensor<2x3x4xi1>
  %2 = pd.bitwise_and %a, %b : (tensor<?x4xi1>, tensor<4xi1>) -> tensor<?x4xi1>
  %3 = pd.bitwise_or %a, %b : (tensor<?x4xi1>, tensor<4xi1>) -> tensor<?x4xi1>
  %4 = pd.bitwise_xor %a, %b : (tensor<?x4xi1>, tensor<4xi1>) -> tensor<?x4xi1>
  %5 = pd.bitwise_not %b : (tensor<4xi1>) -> tensor<4xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3x4xi1>, tensor<2x3x4xi1>, tensor<?x4xi1>, tensor<?x4xi1>, tensor<?x4xi1>, tensor<4xi1>
}

// Tests that the optimizer ops round-trip with their attributes.
// CHECK-LABEL: func.func @optimizers
// CHECK: pd.momentum %arg0, %arg1, %arg2, %arg3 {mu = 0.899999976 : f32, use_nesterov = true} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<1xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK: pd.adam %arg0, %arg1, %arg3, %arg2, %arg2, %arg3, %arg3 {beta1 = 8.000000e-01 : f32} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<1xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<1xf32>, tensor<1xf32>)
// CHECK: pd.adamw %arg0, %arg1, %arg3, %arg2, %arg2, %arg3, %arg3 {coeff = 5.000000e-02 : f32, with_decay = true} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<1xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<1xf32>, tensor<1xf32>)
func.func @optimizers(%p: tensor<4x3xf32>, %g: tensor<4x3xf32>, %v: tensor<4x3xf32>, %lr: tensor<1xf32>) {
  %0:2 = pd.momentum %p, %g, %v, %lr {mu = 0.9 : f32, use_nesterov = true} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<1xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>)
  %1:5 = pd.adam %p, %g, %lr, %v, %v, %lr, %lr {beta1 = 0.8 : f32} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<1xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<1xf32>, tensor<1xf32>)
  %2:5 = pd.adamw %p, %g, %lr, %v, %v, %lr, %lr {coeff = 0.05 : f32, with_decay = true} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<1xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<1xf32>, tensor<1xf32>)
  return
}

// Tests that the products and norms of Paddle2ONNX's list round-trip.
// CHECK-LABEL: func.func @dot_dist_norm_size
// CHECK: pd.dot %arg0, %arg0 : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x1xf32>
// CHECK: pd.dist %arg0, %arg1 {p = 3.000000e+00 : f32} : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<1xf32>
// CHECK: pd.norm %arg0 {axis = 1 : i32} : (tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<?x1xf32>)
// CHECK: pd.size %arg0 : (tensor<?x8xf32>) -> tensor<1xi64>
// CHECK: pd.isinf %arg0 : (tensor<?x8xf32>) -> tensor<1xi1>
// CHECK: pd.isnan %arg0 : (tensor<?x8xf32>) -> tensor<1xi1>
// CHECK: pd.isfinite %arg0 : (tensor<?x8xf32>) -> tensor<1xi1>
func.func @dot_dist_norm_size(%x: tensor<?x8xf32>, %v: tensor<8xf32>) {
  %0 = pd.dot %x, %x : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x1xf32>
  %1 = pd.dist %x, %v {p = 3.0 : f32} : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<1xf32>
  %2:2 = pd.norm %x {axis = 1 : i32} : (tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<?x1xf32>)
  %3 = pd.size %x : (tensor<?x8xf32>) -> tensor<1xi64>
  %4 = pd.isinf %x : (tensor<?x8xf32>) -> tensor<1xi1>
  %5 = pd.isnan %x : (tensor<?x8xf32>) -> tensor<1xi1>
  %6 = pd.isfinite %x : (tensor<?x8xf32>) -> tensor<1xi1>
  return
}

// Tests that expand, expand_as_v2, meshgrid, pad, pad2d and scatter round-trip.
// CHECK-LABEL: func.func @expand_pad_scatter
// CHECK: pd.expand %arg0 {expand_times = array<i32: 2, 3>} : (tensor<2x4xf32>) -> tensor<4x12xf32>
// CHECK: pd.expand_as_v2 %arg1 Y(%arg2) : (tensor<1x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK: pd.expand_as_v2 %arg1 {target_shape = array<i32: 3, 4>} : (tensor<1x4xf32>) -> tensor<3x4xf32>
// CHECK: pd.meshgrid [%arg3, %arg4] : (tensor<3xf32>, tensor<?xf32>) -> (tensor<3x?xf32>, tensor<3x?xf32>)
// CHECK: pd.pad %arg0 {pad_value = 1.500000e+00 : f32, paddings = array<i32: 0, 1, 2, 3>} : (tensor<2x4xf32>) -> tensor<3x9xf32>
// CHECK: pd.pad2d %arg5 {mode = "edge", paddings = array<i32: 1, 0, 2, 2>} : (tensor<?x3x8x8xf32>) -> tensor<?x3x9x12xf32>
// CHECK: pd.pad2d %arg5 Paddings(%arg6) {data_format = "NHWC"} : (tensor<?x3x8x8xf32>, tensor<4xi32>) -> tensor<?x?x?x8xf32>
// CHECK: pd.scatter %arg7, %arg8, %arg9 {overwrite = false} : (tensor<8x4xf32>, tensor<?xi64>, tensor<?x4xf32>) -> tensor<8x4xf32>
func.func @expand_pad_scatter(%a: tensor<2x4xf32>, %b: tensor<1x4xf32>, %c: tensor<?x4xf32>, %m: tensor<3xf32>,
                              %n: tensor<?xf32>, %img: tensor<?x3x8x8xf32>, %p: tensor<4xi32>, %x: tensor<8x4xf32>,
                              %ids: tensor<?xi64>, %u: tensor<?x4xf32>) {
  %0 = pd.expand %a {expand_times = array<i32: 2, 3>} : (tensor<2x4xf32>) -> tensor<4x12xf32>
  %1 = pd.expand_as_v2 %b Y(%c) : (tensor<1x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %2 = pd.expand_as_v2 %b {target_shape = array<i32: 3, 4>} : (tensor<1x4xf32>) -> tensor<3x4xf32>
  %3:2 = pd.meshgrid [%m, %n] : (tensor<3xf32>, tensor<?xf32>) -> (tensor<3x?xf32>, tensor<3x?xf32>)
  %4 = pd.pad %a {paddings = array<i32: 0, 1, 2, 3>, pad_value = 1.5 : f32} : (tensor<2x4xf32>) -> tensor<3x9xf32>
  %5 = pd.pad2d %img {paddings = array<i32: 1, 0, 2, 2>, mode = "edge"} : (tensor<?x3x8x8xf32>) -> tensor<?x3x9x12xf32>
  %6 = pd.pad2d %img Paddings(%p) {data_format = "NHWC"} : (tensor<?x3x8x8xf32>, tensor<4xi32>) -> tensor<?x?x?x8xf32>
  %7 = pd.scatter %x, %ids, %u {overwrite = false} : (tensor<8x4xf32>, tensor<?xi64>, tensor<?x4xf32>) -> tensor<8x4xf32>
  return
}

// Tests that the 1-D, 3-D and bicubic interpolations round-trip.
// CHECK-LABEL: func.func @interp_more
// CHECK: pd.linear_interp_v2 %arg0 {out_w = 64 : i32} : (tensor<1x3x32xf32>) -> tensor<1x3x64xf32>
// CHECK: pd.trilinear_interp_v2 %arg1 {out_d = 8 : i32, out_h = 16 : i32, out_w = 16 : i32} : (tensor<1x3x4x8x8xf32>) -> tensor<1x3x8x16x16xf32>
// CHECK: pd.bicubic_interp_v2 %arg2 {align_corners = false, out_h = 5 : i32, out_w = 9 : i32} : (tensor<?x3x4x4xf32>) -> tensor<?x3x5x9xf32>
// CHECK: pd.linear_interp %arg0 {scale = 2.000000e+00 : f32} : (tensor<1x3x32xf32>) -> tensor<1x3x64xf32>
// CHECK: pd.trilinear_interp %arg1 {out_d = 8 : i32, out_h = 16 : i32, out_w = 16 : i32} : (tensor<1x3x4x8x8xf32>) -> tensor<1x3x8x16x16xf32>
// CHECK: pd.bicubic_interp %arg2 {out_h = 5 : i32, out_w = 9 : i32} : (tensor<?x3x4x4xf32>) -> tensor<?x3x5x9xf32>
func.func @interp_more(%a: tensor<1x3x32xf32>, %b: tensor<1x3x4x8x8xf32>, %c: tensor<?x3x4x4xf32>) {
  %0 = pd.linear_interp_v2 %a {interp_method = "linear", out_w = 64 : i32} : (tensor<1x3x32xf32>) -> tensor<1x3x64xf32>
  %1 = pd.trilinear_interp_v2 %b {interp_method = "trilinear", out_d = 8 : i32, out_h = 16 : i32, out_w = 16 : i32} : (tensor<1x3x4x8x8xf32>) -> tensor<1x3x8x16x16xf32>
  %2 = pd.bicubic_interp_v2 %c {align_corners = false, interp_method = "bicubic", out_h = 5 : i32, out_w = 9 : i32} : (tensor<?x3x4x4xf32>) -> tensor<?x3x5x9xf32>
  %3 = pd.linear_interp %a {interp_method = "linear", scale = 2.0 : f32} : (tensor<1x3x32xf32>) -> tensor<1x3x64xf32>
  %4 = pd.trilinear_interp %b {interp_method = "trilinear", out_d = 8 : i32, out_h = 16 : i32, out_w = 16 : i32} : (tensor<1x3x4x8x8xf32>) -> tensor<1x3x8x16x16xf32>
  %5 = pd.bicubic_interp %c {interp_method = "bicubic", out_h = 5 : i32, out_w = 9 : i32} : (tensor<?x3x4x4xf32>) -> tensor<?x3x5x9xf32>
  return
}

// Tests that pool3d, depthwise_conv2d_transpose and anchor_generator round-trip.
// CHECK-LABEL: func.func @pool3d_anchors
// CHECK: pd.pool3d %arg0 {ksize = array<i32: 2, 2, 2>, pooling_type = "avg", strides = array<i32: 2, 2, 2>} : (tensor<?x8x4x8x8xf32>) -> tensor<?x8x2x4x4xf32>
// CHECK: pd.depthwise_conv2d_transpose %arg1, %arg2 {groups = 16 : i32, strides = array<i32: 2, 2>} : (tensor<1x16x8x8xf32>, tensor<16x1x2x2xf32>) -> tensor<1x16x16x16xf32>
// CHECK: pd.anchor_generator %arg1 {anchor_sizes = array<f32: 3.200000e+01>, aspect_ratios = array<f32: 1.000000e+00>} : (tensor<1x16x8x8xf32>) -> (tensor<8x8x1x4xf32>, tensor<8x8x1x4xf32>)
func.func @pool3d_anchors(%v: tensor<?x8x4x8x8xf32>, %x: tensor<1x16x8x8xf32>, %w: tensor<16x1x2x2xf32>) {
  %0 = pd.pool3d %v {ksize = array<i32: 2, 2, 2>, strides = array<i32: 2, 2, 2>, pooling_type = "avg"} : (tensor<?x8x4x8x8xf32>) -> tensor<?x8x2x4x4xf32>
  %1 = pd.depthwise_conv2d_transpose %x, %w {strides = array<i32: 2, 2>, groups = 16 : i32} : (tensor<1x16x8x8xf32>, tensor<16x1x2x2xf32>) -> tensor<1x16x16x16xf32>
  %2:2 = pd.anchor_generator %x {anchor_sizes = array<f32: 32.0>, aspect_ratios = array<f32: 1.0>} : (tensor<1x16x8x8xf32>) -> (tensor<8x8x1x4xf32>, tensor<8x8x1x4xf32>)
  return
}

// Tests that uniform_random(_batch_size_like), unique, collect_fpn_proposals
// and deformable_conv(_v1) round-trip, unique with and without its optional
// results.
// CHECK-LABEL: func.func @random_unique_fpn_deformable
// CHECK: pd.uniform_random {seed = 7 : i32, shape = array<i64: 2, 3>} : () -> tensor<2x3xf32>
// CHECK: pd.uniform_random_batch_size_like %arg0 {max = 2.000000e+00 : f32, shape = array<i32: -1, 16>} : (tensor<?x8xf32>) -> tensor<?x16xf32>
// CHECK: pd.unique %arg1 {is_sorted = true, resultSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<?x8xi64>) -> (tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
// CHECK: pd.unique %arg1 {axis = array<i32: 0>, resultSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<?x8xi64>) -> (tensor<?x8xi64>, tensor<?xi64>)
// CHECK: pd.collect_fpn_proposals [%arg2, %arg3] MultiLevelScores[%arg4, %arg5] MultiLevelRoIsNum[%arg6, %arg7] {post_nms_topN = 100 : i32} : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?xi32>, tensor<?xi32>) -> (tensor<?x4xf32>, tensor<?xi32>)
// CHECK: pd.deformable_conv %arg8, %arg9, %arg11 Mask(%arg10) {paddings = array<i32: 1, 1>} : (tensor<?x8x16x16xf32>, tensor<?x18x16x16xf32>, tensor<?x9x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<?x16x16x16xf32>
// CHECK: pd.deformable_conv_v1 %arg8, %arg9, %arg11 {paddings = array<i32: 1, 1>} : (tensor<?x8x16x16xf32>, tensor<?x18x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<?x16x16x16xf32>
func.func @random_unique_fpn_deformable(%x: tensor<?x8xf32>, %i: tensor<?x8xi64>, %r2: tensor<?x4xf32>,
    %r3: tensor<?x4xf32>, %s2: tensor<?x1xf32>, %s3: tensor<?x1xf32>, %n2: tensor<?xi32>, %n3: tensor<?xi32>,
    %img: tensor<?x8x16x16xf32>, %off: tensor<?x18x16x16xf32>, %m: tensor<?x9x16x16xf32>, %w: tensor<16x8x3x3xf32>) {
  %0 = pd.uniform_random {shape = array<i64: 2, 3>, seed = 7 : i32, min = -1.0 : f32} : () -> tensor<2x3xf32>
  %1 = pd.uniform_random_batch_size_like %x {shape = array<i32: -1, 16>, max = 2.0 : f32} : (tensor<?x8xf32>) -> tensor<?x16xf32>
  %2:4 = pd.unique %i {is_sorted = true, resultSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<?x8xi64>) -> (tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
  %3:2 = pd.unique %i {axis = array<i32: 0>, resultSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<?x8xi64>) -> (tensor<?x8xi64>, tensor<?xi64>)
  %4:2 = pd.collect_fpn_proposals [%r2, %r3] MultiLevelScores [%s2, %s3] MultiLevelRoIsNum [%n2, %n3] {post_nms_topN = 100 : i32} : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?xi32>, tensor<?xi32>) -> (tensor<?x4xf32>, tensor<?xi32>)
  %5 = pd.deformable_conv %img, %off, %w Mask(%m) {paddings = array<i32: 1, 1>} : (tensor<?x8x16x16xf32>, tensor<?x18x16x16xf32>, tensor<?x9x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<?x16x16x16xf32>
  %6 = pd.deformable_conv_v1 %img, %off, %w {paddings = array<i32: 1, 1>, deformable_groups = 1 : i32} : (tensor<?x8x16x16xf32>, tensor<?x18x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<?x16x16x16xf32>
  return
}

// Tests that sequence_pool round-trips with its sequence lengths and MaxIndex.
// CHECK-LABEL: func.func @sequences
// CHECK: pd.sequence_pool %arg0 Lengths(%arg1) {pooltype = "SUM"} : (tensor<?x9xf32>, tensor<?xi64>) -> tensor<?x9xf32>
// CHECK: pd.sequence_pool %arg0 Lengths(%arg1) {is_test = true, pooltype = "MAX"} : (tensor<?x9xf32>, tensor<?xi64>) -> (tensor<?x9xf32>, tensor<?x9xi32>)
func.func @sequences(%x: tensor<?x9xf32>, %n: tensor<?xi64>) {
  %0 = pd.sequence_pool %x Lengths(%n) {pooltype = "SUM"} : (tensor<?x9xf32>, tensor<?xi64>) -> tensor<?x9xf32>
  %1:2 = pd.sequence_pool %x Lengths(%n) {pooltype = "MAX", is_test = true} : (tensor<?x9xf32>, tensor<?xi64>) -> (tensor<?x9xf32>, tensor<?x9xi32>)
  return
}

// Tests that sequence_conv round-trips with its sequence lengths.
// CHECK-LABEL: func.func @sequence_conv
// CHECK: pd.sequence_conv %arg0, %arg1 Lengths(%arg2) {contextLength = 3 : i32, contextStart = -1 : i32} : (tensor<?x8xf32>, tensor<24x5xf32>, tensor<?xi64>) -> tensor<?x5xf32>
func.func @sequence_conv(%x: tensor<?x8xf32>, %w: tensor<24x5xf32>, %n: tensor<?xi64>) {
  %0 = pd.sequence_conv %x, %w Lengths(%n) {contextLength = 3 : i32, contextStart = -1 : i32} : (tensor<?x8xf32>, tensor<24x5xf32>, tensor<?xi64>) -> tensor<?x5xf32>
  return
}

// Tests that Fluid's gru and lstm round-trip with their LoD lengths, the
// optional initial states and the training intermediates.
// CHECK-LABEL: func.func @fluid_recurrent
// CHECK: pd.gru %arg0, %arg1 Lengths(%arg2) {resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<?x12xf32>, tensor<4x12xf32>, tensor<?xi64>) -> tensor<?x4xf32>
// CHECK: pd.gru %arg0, %arg1 H0(%arg3) Bias(%arg4) Lengths(%arg2) {is_reverse = true, origin_mode = true, resultSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<?x12xf32>, tensor<?x4xf32>, tensor<4x12xf32>, tensor<1x12xf32>, tensor<?xi64>) -> (tensor<?x4xf32>, tensor<0x12xf32>, tensor<0x4xf32>, tensor<0x4xf32>)
// CHECK: pd.lstm %arg5, %arg6, %arg7 H0(%arg3) C0(%arg3) Lengths(%arg2) {is_reverse = true, resultSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<?x16xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<4x16xf32>, tensor<1x28xf32>, tensor<?xi64>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<0x16xf32>, tensor<0x4xf32>)
func.func @fluid_recurrent(%x: tensor<?x12xf32>, %w: tensor<4x12xf32>, %n: tensor<?xi64>, %h0: tensor<?x4xf32>, %b: tensor<1x12xf32>,
                           %lx: tensor<?x16xf32>, %lw: tensor<4x16xf32>, %lb: tensor<1x28xf32>) {
  %0 = pd.gru %x, %w Lengths(%n) {resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<?x12xf32>, tensor<4x12xf32>, tensor<?xi64>) -> tensor<?x4xf32>
  %1:4 = pd.gru %x, %w H0(%h0) Bias(%b) Lengths(%n) {is_reverse = true, origin_mode = true, resultSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<?x12xf32>, tensor<?x4xf32>, tensor<4x12xf32>, tensor<1x12xf32>, tensor<?xi64>) -> (tensor<?x4xf32>, tensor<0x12xf32>, tensor<0x4xf32>, tensor<0x4xf32>)
  %2:4 = pd.lstm %lx, %lw, %lb H0(%h0) C0(%h0) Lengths(%n) {is_reverse = true, resultSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<?x16xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<4x16xf32>, tensor<1x28xf32>, tensor<?xi64>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<0x16xf32>, tensor<0x4xf32>)
  return
}

// Tests that Fluid's lstmp round-trips: ProjWeight after Weight, the
// projection [T, P] and cell [T, D] results, the clips and proj_activation.
// CHECK-LABEL: func.func @fluid_lstmp
// CHECK: pd.lstmp %arg0, %arg1, %arg2, %arg3 H0(%arg5) Lengths(%arg4) {cell_clip = 5.000000e-01 : f32, proj_activation = "identity", proj_clip = 2.500000e-01 : f32, resultSegmentSizes = array<i32: 1, 1, 0, 0, 1, 0>} : (tensor<?x16xf32>, tensor<?x4xf32>, tensor<3x16xf32>, tensor<4x3xf32>, tensor<1x28xf32>, tensor<?xi64>) -> (tensor<?x3xf32>, tensor<?x4xf32>, tensor<0x4xf32>)
func.func @fluid_lstmp(%x: tensor<?x16xf32>, %w: tensor<3x16xf32>, %pw: tensor<4x3xf32>, %b: tensor<1x28xf32>, %n: tensor<?xi64>, %h0: tensor<?x4xf32>) {
  %0:3 = pd.lstmp %x, %w, %pw, %b H0(%h0) Lengths(%n) {cell_clip = 0.5 : f32, proj_activation = "identity", proj_clip = 0.25 : f32, resultSegmentSizes = array<i32: 1, 1, 0, 0, 1, 0>} : (tensor<?x16xf32>, tensor<?x4xf32>, tensor<3x16xf32>, tensor<4x3xf32>, tensor<1x28xf32>, tensor<?xi64>) -> (tensor<?x3xf32>, tensor<?x4xf32>, tensor<0x4xf32>)
  return
}

// Tests that crf_decoding round-trips with its LoD lengths.
// CHECK-LABEL: func.func @crf_decoding
// CHECK: pd.crf_decoding %arg0, %arg1 Lengths(%arg2) : (tensor<?x5xf32>, tensor<7x5xf32>, tensor<?xi64>) -> tensor<?x1xi64>
func.func @crf_decoding(%e: tensor<?x5xf32>, %t: tensor<7x5xf32>, %n: tensor<?xi64>) {
  %0 = pd.crf_decoding %e, %t Lengths(%n) : (tensor<?x5xf32>, tensor<7x5xf32>, tensor<?xi64>) -> tensor<?x1xi64>
  return
}

// Tests that viterbi_decode round-trips (include_bos_eos_tag defaults to true).
// CHECK-LABEL: func.func @viterbi_decode
// CHECK: pd.viterbi_decode %arg0, %arg1, %arg2 : (tensor<?x?x5xf32>, tensor<5x5xf32>, tensor<?xi64>) -> (tensor<?xf32>, tensor<?x?xi64>)
// CHECK: pd.viterbi_decode %arg0, %arg1, %arg2 {include_bos_eos_tag = false}
func.func @viterbi_decode(%x: tensor<?x?x5xf32>, %t: tensor<5x5xf32>, %n: tensor<?xi64>) {
  %0:2 = pd.viterbi_decode %x, %t, %n : (tensor<?x?x5xf32>, tensor<5x5xf32>, tensor<?xi64>) -> (tensor<?xf32>, tensor<?x?xi64>)
  %1:2 = pd.viterbi_decode %x, %t, %n {include_bos_eos_tag = false} : (tensor<?x?x5xf32>, tensor<5x5xf32>, tensor<?xi64>) -> (tensor<?xf32>, tensor<?x?xi64>)
  return
}

// Tests that rnn round-trips: a GRU, and a bidirectional LSTM with two
// states, sequence lengths and the training-only outputs.
// CHECK-LABEL: func.func @rnn
// CHECK: pd.rnn %arg0 PreState[%arg1] WeightList[%arg2, %arg3, %arg4, %arg5] {hidden_size = 4 : i32, input_size = 3 : i32, mode = "GRU", resultSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<5x?x3xf32>, tensor<1x?x4xf32>, tensor<12x3xf32>, tensor<12x4xf32>, tensor<12xf32>, tensor<12xf32>) -> (tensor<5x?x4xf32>, tensor<1x?x4xf32>)
// CHECK: pd.rnn %arg0 PreState[%arg6, %arg6] WeightList[%arg7, %arg8, %arg7, %arg8, %arg9, %arg9, %arg9, %arg9] SequenceLength(%arg10) {hidden_size = 2 : i32, input_size = 3 : i32, is_bidirec = true, mode = "LSTM", resultSegmentSizes = array<i32: 1, 2, 1, 1>} : (tensor<5x?x3xf32>, tensor<2x?x2xf32>, tensor<2x?x2xf32>, tensor<8x3xf32>, tensor<8x2xf32>, tensor<8x3xf32>, tensor<8x2xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<?xi32>) -> (tensor<5x?x4xf32>, tensor<2x?x2xf32>, tensor<2x?x2xf32>, tensor<0xui8>, tensor<0xui8>)
func.func @rnn(%x: tensor<5x?x3xf32>, %h0: tensor<1x?x4xf32>, %wi: tensor<12x3xf32>, %wh: tensor<12x4xf32>, %bi: tensor<12xf32>, %bh: tensor<12xf32>,
               %s: tensor<2x?x2xf32>, %lwi: tensor<8x3xf32>, %lwh: tensor<8x2xf32>, %lb: tensor<8xf32>, %len: tensor<?xi32>) {
  %0:2 = pd.rnn %x PreState[%h0] WeightList[%wi, %wh, %bi, %bh] {hidden_size = 4 : i32, input_size = 3 : i32, mode = "GRU", resultSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<5x?x3xf32>, tensor<1x?x4xf32>, tensor<12x3xf32>, tensor<12x4xf32>, tensor<12xf32>, tensor<12xf32>) -> (tensor<5x?x4xf32>, tensor<1x?x4xf32>)
  %1:5 = pd.rnn %x PreState[%s, %s] WeightList[%lwi, %lwh, %lwi, %lwh, %lb, %lb, %lb, %lb] SequenceLength(%len) {hidden_size = 2 : i32, input_size = 3 : i32, is_bidirec = true, mode = "LSTM", resultSegmentSizes = array<i32: 1, 2, 1, 1>} : (tensor<5x?x3xf32>, tensor<2x?x2xf32>, tensor<2x?x2xf32>, tensor<8x3xf32>, tensor<8x2xf32>, tensor<8x3xf32>, tensor<8x2xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<?xi32>) -> (tensor<5x?x4xf32>, tensor<2x?x2xf32>, tensor<2x?x2xf32>, tensor<0xui8>, tensor<0xui8>)
  return
}

// Tests that pd.increment round-trips.
// CHECK-LABEL: func.func @increment
// CHECK: pd.increment %arg0 {step = 2.000000e+00 : f32} : (tensor<1xi64>) -> tensor<1xi64>
func.func @increment(%i: tensor<1xi64>) -> tensor<1xi64> {
  %j = pd.increment %i {step = 2.0 : f32} : (tensor<1xi64>) -> tensor<1xi64>
  return %j : tensor<1xi64>
}

// Tests that pd.while round-trips with a carried value more static than its
// carried type, and pd.yield with it.
// CHECK-LABEL: func.func @while_loop
// CHECK: %[[R:.*]]:2 = pd.while(%arg0, %arg1) : (tensor<1xi1>, tensor<2x4xf32>) -> (tensor<1xi1>, tensor<?x4xf32>) {
// CHECK-NEXT: ^bb0(%[[C:.*]]: tensor<1xi1>, %[[X:.*]]: tensor<?x4xf32>):
// CHECK: %[[Y:.*]] = pd.concat
// CHECK: pd.yield %[[C]], %[[Y]] : tensor<1xi1>, tensor<?x4xf32>
// CHECK: return %[[R]]#1
func.func @while_loop(%c: tensor<1xi1>, %x: tensor<2x4xf32>) -> tensor<?x4xf32> {
  %r:2 = pd.while (%c, %x) : (tensor<1xi1>, tensor<2x4xf32>) -> (tensor<1xi1>, tensor<?x4xf32>) {
  ^bb0(%c0: tensor<1xi1>, %x0: tensor<?x4xf32>):
    %y = pd.concat [%x0, %x0] {axis = 0 : i32} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    pd.yield %c0, %y : tensor<1xi1>, tensor<?x4xf32>
  }
  return %r#1 : tensor<?x4xf32>
}

// Tests that pd.conditional_block round-trips, its result more dynamic
// than its default.
// CHECK-LABEL: func.func @conditional_block
// CHECK: %[[R:.*]] = pd.conditional_block[%arg0] (%arg1) : (tensor<1xi1>, tensor<0x3xf32>) -> tensor<?x3xf32> {
// CHECK: %[[T:.*]] = pd.scale %arg2
// CHECK: pd.yield %[[T]] : tensor<2x3xf32>
// CHECK: pd.conditional_block[%arg2, %arg1] () {is_scalar_condition = false} : (tensor<2x3xf32>, tensor<0x3xf32>) -> ()
// CHECK: return %[[R]]
func.func @conditional_block(%c: tensor<1xi1>, %d: tensor<0x3xf32>, %x: tensor<2x3xf32>) -> tensor<?x3xf32> {
  %r = pd.conditional_block [%c] (%d) : (tensor<1xi1>, tensor<0x3xf32>) -> tensor<?x3xf32> {
    %t = pd.scale %x {scale = 2.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    pd.yield %t : tensor<2x3xf32>
  }
  pd.conditional_block [%x, %d] () {is_scalar_condition = false} : (tensor<2x3xf32>, tensor<0x3xf32>) -> () {
    pd.yield
  }
  return %r : tensor<?x3xf32>
}

// Tests that pd.select_input round-trips.
// CHECK-LABEL: func.func @select_input
// CHECK: %[[R:.*]] = pd.select_input [%arg0, %arg1], %arg2 : (tensor<0x3xf32>, tensor<2x3xf32>, tensor<1xi32>) -> tensor<?x3xf32>
// CHECK: return %[[R]]
func.func @select_input(%f: tensor<0x3xf32>, %t: tensor<2x3xf32>, %m: tensor<1xi32>) -> tensor<?x3xf32> {
  %y = pd.select_input [%f, %t], %m : (tensor<0x3xf32>, tensor<2x3xf32>, tensor<1xi32>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}

// Tests that the tensor array ops round-trip: write_to_array with and
// without the array it updates, read_from_array, lod_array_length and
// tensor_array_to_tensor.
// CHECK-LABEL: func.func @tensor_array
// CHECK: %[[A:.*]] = pd.write_to_array %arg0, %arg1 : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?x2x3xf32>
// CHECK: %[[B:.*]] = pd.write_to_array %arg0, %arg1 Array(%[[A]]) : (tensor<2x3xf32>, tensor<1xi64>, tensor<?x2x3xf32>) -> tensor<?x2x3xf32>
// CHECK: %[[E:.*]] = pd.read_from_array %[[B]], %arg1 : (tensor<?x2x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
// CHECK: %[[N:.*]] = pd.lod_array_length %[[B]] : (tensor<?x2x3xf32>) -> tensor<1xi64>
// CHECK: %{{.*}}, %{{.*}} = pd.tensor_array_to_tensor %[[B]] {axis = 1 : i32} : (tensor<?x2x3xf32>) -> (tensor<2x?xf32>, tensor<?xi32>)
func.func @tensor_array(%x: tensor<2x3xf32>, %i: tensor<1xi64>) -> (tensor<2x3xf32>, tensor<1xi64>, tensor<2x?xf32>) {
  %a = pd.write_to_array %x, %i : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?x2x3xf32>
  %b = pd.write_to_array %x, %i Array(%a) : (tensor<2x3xf32>, tensor<1xi64>, tensor<?x2x3xf32>) -> tensor<?x2x3xf32>
  %e = pd.read_from_array %b, %i : (tensor<?x2x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
  %n = pd.lod_array_length %b : (tensor<?x2x3xf32>) -> tensor<1xi64>
  %t, %idx = pd.tensor_array_to_tensor %b {axis = 1 : i32} : (tensor<?x2x3xf32>) -> (tensor<2x?xf32>, tensor<?xi32>)
  return %e, %n, %t : tensor<2x3xf32>, tensor<1xi64>, tensor<2x?xf32>
}

// Tests that Fluid's DynamicRNN ops round-trip: the rank table of a LoD
// batch, its longest length, the batch as an array over time steps and
// back (with its lengths), a memory reordered by rank and shrunk at a step,
// and a LoD batch's sequences reordered and shrunk.
// CHECK-LABEL: func.func @dynamic_rnn_ops
// CHECK: %[[T:.*]] = pd.lod_rank_table %arg0 Lengths(%arg1) : (tensor<?x3xf32>, tensor<?xi64>) -> tensor<?x2xi64>
// CHECK: %{{.*}} = pd.max_sequence_len %[[T]] : (tensor<?x2xi64>) -> tensor<1xi64>
// CHECK: %[[A:.*]] = pd.lod_tensor_to_array %arg0, %[[T]] : (tensor<?x3xf32>, tensor<?x2xi64>) -> tensor<?x?x3xf32>
// CHECK: %{{.*}}, %{{.*}} = pd.array_to_lod_tensor %[[A]], %[[T]] : (tensor<?x?x3xf32>, tensor<?x2xi64>) -> (tensor<?x3xf32>, tensor<?xi64>)
// CHECK: %[[R:.*]], %{{.*}} = pd.reorder_lod_tensor_by_rank %arg2, %[[T]] : (tensor<?x4xf32>, tensor<?x2xi64>) -> (tensor<?x4xf32>, tensor<?xi64>)
// CHECK: %{{.*}} = pd.shrink_rnn_memory %[[R]], %arg3, %[[T]] : (tensor<?x4xf32>, tensor<1xi64>, tensor<?x2xi64>) -> tensor<?x4xf32>
// CHECK: %[[XR:.*]], %[[XL:.*]] = pd.reorder_lod_tensor_by_rank %arg0, %[[T]] Lengths(%arg1) : (tensor<?x3xf32>, tensor<?x2xi64>, tensor<?xi64>) -> (tensor<?x3xf32>, tensor<?xi64>)
// CHECK: %{{.*}} = pd.shrink_rnn_memory %[[XR]], %arg3, %[[T]] Lengths(%[[XL]]) : (tensor<?x3xf32>, tensor<1xi64>, tensor<?x2xi64>, tensor<?xi64>) -> tensor<?x3xf32>
func.func @dynamic_rnn_ops(%x: tensor<?x3xf32>, %l: tensor<?xi64>, %m: tensor<?x4xf32>, %i: tensor<1xi64>) -> (tensor<1xi64>, tensor<?x3xf32>, tensor<?xi64>, tensor<?x4xf32>) {
  %t = pd.lod_rank_table %x Lengths(%l) : (tensor<?x3xf32>, tensor<?xi64>) -> tensor<?x2xi64>
  %n = pd.max_sequence_len %t : (tensor<?x2xi64>) -> tensor<1xi64>
  %a = pd.lod_tensor_to_array %x, %t : (tensor<?x3xf32>, tensor<?x2xi64>) -> tensor<?x?x3xf32>
  %y, %yl = pd.array_to_lod_tensor %a, %t : (tensor<?x?x3xf32>, tensor<?x2xi64>) -> (tensor<?x3xf32>, tensor<?xi64>)
  %r, %rl = pd.reorder_lod_tensor_by_rank %m, %t : (tensor<?x4xf32>, tensor<?x2xi64>) -> (tensor<?x4xf32>, tensor<?xi64>)
  %s = pd.shrink_rnn_memory %r, %i, %t : (tensor<?x4xf32>, tensor<1xi64>, tensor<?x2xi64>) -> tensor<?x4xf32>
  %xr, %xl = pd.reorder_lod_tensor_by_rank %x, %t Lengths(%l) : (tensor<?x3xf32>, tensor<?x2xi64>, tensor<?xi64>) -> (tensor<?x3xf32>, tensor<?xi64>)
  %xs = pd.shrink_rnn_memory %xr, %i, %t Lengths(%xl) : (tensor<?x3xf32>, tensor<1xi64>, tensor<?x2xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  return %n, %y, %yl, %s : tensor<1xi64>, tensor<?x3xf32>, tensor<?xi64>, tensor<?x4xf32>
}

// Tests that the attention-step sequence ops round-trip.
// CHECK-LABEL: func.func @sequence_attention_ops
// CHECK: %[[E:.*]] = pd.sequence_expand %arg0, %arg1 Lengths(%arg2) : (tensor<?x8xf32>, tensor<?x4xf32>, tensor<?xi64>) -> tensor<?x8xf32>
// CHECK: %[[A:.*]] = pd.sequence_expand_as %arg0, %arg1 Lengths(%arg2) : (tensor<?x8xf32>, tensor<?x4xf32>, tensor<?xi64>) -> tensor<?x8xf32>
// CHECK: %[[S:.*]] = pd.sequence_softmax %arg3 Lengths(%arg2) : (tensor<?x1xf32>, tensor<?xi64>) -> tensor<?x1xf32>
func.func @sequence_attention_ops(%x: tensor<?x8xf32>, %y: tensor<?x4xf32>, %n: tensor<?xi64>, %s: tensor<?x1xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>, tensor<?x1xf32>) {
  %e = pd.sequence_expand %x, %y Lengths(%n) : (tensor<?x8xf32>, tensor<?x4xf32>, tensor<?xi64>) -> tensor<?x8xf32>
  %a = pd.sequence_expand_as %x, %y Lengths(%n) : (tensor<?x8xf32>, tensor<?x4xf32>, tensor<?xi64>) -> tensor<?x8xf32>
  %p = pd.sequence_softmax %s Lengths(%n) : (tensor<?x1xf32>, tensor<?xi64>) -> tensor<?x1xf32>
  return %e, %a, %p : tensor<?x8xf32>, tensor<?x8xf32>, tensor<?x1xf32>
}

// Tests that pd.is_empty round-trips.
// CHECK-LABEL: func.func @is_empty
// CHECK: %[[E:.*]] = pd.is_empty %arg0 : (tensor<?x1xi64>) -> tensor<1xi1>
func.func @is_empty(%x: tensor<?x1xi64>) -> tensor<1xi1> {
  %e = pd.is_empty %x : (tensor<?x1xi64>) -> tensor<1xi1>
  return %e : tensor<1xi1>
}

// Tests that the ops that make LoD, and gru_unit, round-trip.
// CHECK-LABEL: func.func @lod_makers
// CHECK: %{{.*}}, %{{.*}} = pd.im2sequence %arg0 {kernels = array<i32: 2, 3>, paddings = array<i32: 1, 0, 0, 2>, strides = array<i32: 2, 1>} : (tensor<?x2x5x7xf32>) -> (tensor<?x12xf32>, tensor<?xi64>)
// CHECK: %{{.*}}, %{{.*}} = pd.lod_reset %arg1 Y(%arg2) : (tensor<?x3xf32>, tensor<?xi32>) -> (tensor<?x3xf32>, tensor<?xi64>)
// CHECK: %{{.*}}, %{{.*}} = pd.lod_reset %arg1 Y(%arg3) Lengths(%arg4) {append = true} : (tensor<?x3xf32>, tensor<?x4xf32>, tensor<?xi64>) -> (tensor<?x3xf32>, tensor<?xi64>)
// CHECK: %{{.*}}, %{{.*}} = pd.lod_reset %arg1 {target_lod = array<i32: 0, 2, 5>} : (tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<2xi64>)
// CHECK: %{{.*}}, %{{.*}}, %{{.*}} = pd.gru_unit %arg5, %arg6, %arg7 Bias(%arg8) {origin_mode = true} : (tensor<?x12xf32>, tensor<?x4xf32>, tensor<4x12xf32>, tensor<1x12xf32>) -> (tensor<?x12xf32>, tensor<?x4xf32>, tensor<?x4xf32>)
func.func @lod_makers(%img: tensor<?x2x5x7xf32>, %x: tensor<?x3xf32>, %off: tensor<?xi32>, %y: tensor<?x4xf32>, %n: tensor<?xi64>, %g: tensor<?x12xf32>, %h: tensor<?x4xf32>, %w: tensor<4x12xf32>, %b: tensor<1x12xf32>) -> (tensor<?x12xf32>, tensor<?xi64>, tensor<?x3xf32>, tensor<?xi64>, tensor<?xi64>, tensor<2xi64>, tensor<?x4xf32>) {
  %s, %sl = pd.im2sequence %img {kernels = array<i32: 2, 3>, strides = array<i32: 2, 1>, paddings = array<i32: 1, 0, 0, 2>} : (tensor<?x2x5x7xf32>) -> (tensor<?x12xf32>, tensor<?xi64>)
  %r, %rl = pd.lod_reset %x Y(%off) : (tensor<?x3xf32>, tensor<?xi32>) -> (tensor<?x3xf32>, tensor<?xi64>)
  %a, %al = pd.lod_reset %x Y(%y) Lengths(%n) {append = true} : (tensor<?x3xf32>, tensor<?x4xf32>, tensor<?xi64>) -> (tensor<?x3xf32>, tensor<?xi64>)
  %t, %tl = pd.lod_reset %x {target_lod = array<i32: 0, 2, 5>} : (tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<2xi64>)
  %gate, %reset, %hid = pd.gru_unit %g, %h, %w Bias(%b) {origin_mode = true} : (tensor<?x12xf32>, tensor<?x4xf32>, tensor<4x12xf32>, tensor<1x12xf32>) -> (tensor<?x12xf32>, tensor<?x4xf32>, tensor<?x4xf32>)
  return %s, %sl, %r, %rl, %al, %tl, %hid : tensor<?x12xf32>, tensor<?xi64>, tensor<?x3xf32>, tensor<?xi64>, tensor<?xi64>, tensor<2xi64>, tensor<?x4xf32>
}

// Tests that sequence_reshape and box_clip round-trip.
// CHECK-LABEL: func.func @sequence_reshape_box_clip
// CHECK: %{{.*}}, %{{.*}} = pd.sequence_reshape %arg0 Lengths(%arg1) {new_dim = 4 : i32} : (tensor<?x8xf32>, tensor<?xi64>) -> (tensor<?x4xf32>, tensor<?xi64>)
// CHECK: %{{.*}} = pd.box_clip %arg2, %arg3 Lengths(%arg1) : (tensor<?x4xf32>, tensor<?x3xf32>, tensor<?xi64>) -> tensor<?x4xf32>
func.func @sequence_reshape_box_clip(%x: tensor<?x8xf32>, %n: tensor<?xi64>, %b: tensor<?x4xf32>, %info: tensor<?x3xf32>) -> (tensor<?x4xf32>, tensor<?xi64>, tensor<?x4xf32>) {
  %y, %l = pd.sequence_reshape %x Lengths(%n) {new_dim = 4 : i32} : (tensor<?x8xf32>, tensor<?xi64>) -> (tensor<?x4xf32>, tensor<?xi64>)
  %c = pd.box_clip %b, %info Lengths(%n) : (tensor<?x4xf32>, tensor<?x3xf32>, tensor<?xi64>) -> tensor<?x4xf32>
  return %y, %l, %c : tensor<?x4xf32>, tensor<?xi64>, tensor<?x4xf32>
}

// Tests that lstm_unit round-trips.
// CHECK-LABEL: func.func @lstm_unit
// CHECK: %{{.*}}, %{{.*}} = pd.lstm_unit %arg0, %arg1 {forget_bias = 1.000000e+00 : f32} : (tensor<?x16xf32>, tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>)
func.func @lstm_unit(%x: tensor<?x16xf32>, %c0: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  %c, %h = pd.lstm_unit %x, %c0 {forget_bias = 1.0 : f32} : (tensor<?x16xf32>, tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>)
  return %c, %h : tensor<?x4xf32>, tensor<?x4xf32>
}

// Tests that the collective and point-to-point ops, pd.shard_batch and
// pd.is_stage round-trip (a send has no result).
// CHECK-LABEL: func.func @collectives
// CHECK: %{{.*}} = pd.c_allreduce_sum %arg0 {use_calc_stream = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %{{.*}} = pd.c_allreduce_max %arg0 {ring_id = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %{{.*}} = pd.c_allreduce_min %arg0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %{{.*}} = pd.c_allreduce_prod %arg0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %{{.*}} = pd.c_broadcast %arg0 {root = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %{{.*}} = pd.c_allgather %arg0 {nranks = 2 : i32} : (tensor<4x8xf32>) -> tensor<8x8xf32>
// CHECK: %{{.*}} = pd.c_reducescatter %arg0 {nranks = 2 : i32} : (tensor<4x8xf32>) -> tensor<2x8xf32>
// CHECK: pd.send_v2 %arg0 {peer = 1 : i32} : (tensor<4x8xf32>) -> ()
// CHECK: %{{.*}} = pd.recv_v2 {dtype = 3 : i32, out_shape = array<i32: 2, -1>} : () -> tensor<2x?xi64>
// CHECK: %{{.*}} = pd.barrier %arg0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %{{.*}} = pd.shard_batch %arg0 {devices = 2 : i32} : (tensor<4x8xf32>) -> tensor<2x8xf32>
// CHECK: %{{.*}} = pd.is_stage {stage = 1 : i32, stages = 3 : i32} : () -> tensor<1xi1>
// CHECK: %[[H:.*]] = pd.allreduce_start %arg0 {bucket = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %{{.*}} = pd.allreduce_wait %[[H]] {bucket = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @collectives(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>, tensor<2x8xf32>, tensor<2x?xi64>, tensor<4x8xf32>, tensor<2x8xf32>, tensor<1xi1>, tensor<4x8xf32>) {
  %s = pd.c_allreduce_sum %x {use_calc_stream = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %mx = pd.c_allreduce_max %x {ring_id = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %mn = pd.c_allreduce_min %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %p = pd.c_allreduce_prod %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = pd.c_broadcast %x {root = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %g = pd.c_allgather %x {nranks = 2 : i32} : (tensor<4x8xf32>) -> tensor<8x8xf32>
  %r = pd.c_reducescatter %x {nranks = 2 : i32} : (tensor<4x8xf32>) -> tensor<2x8xf32>
  pd.send_v2 %x {peer = 1 : i32} : (tensor<4x8xf32>) -> ()
  %v = pd.recv_v2 {dtype = 3 : i32, out_shape = array<i32: 2, -1>} : () -> tensor<2x?xi64>
  %w = pd.barrier %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = pd.shard_batch %x {devices = 2 : i32} : (tensor<4x8xf32>) -> tensor<2x8xf32>
  %f = pd.is_stage {stage = 1 : i32, stages = 3 : i32} : () -> tensor<1xi1>
  %as = pd.allreduce_start %x {bucket = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %aw = pd.allreduce_wait %as {bucket = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s, %mx, %mn, %p, %b, %g, %r, %v, %w, %h, %f, %aw : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>, tensor<2x8xf32>, tensor<2x?xi64>, tensor<4x8xf32>, tensor<2x8xf32>, tensor<1xi1>, tensor<4x8xf32>
}

// RUN: paddle-opt %s -pd-fuse-conv -split-input-file | FileCheck %s

// Tests that batch_norm folds into the conv: W' = W * s / sqrt(v + eps),
// b' = bias - mean * s / sqrt(v + eps). Here s = 3, v = 4, eps = 0, so the
// factor is 1.5: W' = 2 * 1.5 = 3.0 (0x40400000), b' = 0.5 - 1 * 1.5 = -1.0
// (0xBF800000). A following relu becomes the fused activation; the original
// weights are erased.
// CHECK-NOT: @w(
// CHECK-DAG: ml_program.global private @w.bn_folded(dense_resource<w.bn_folded> : tensor<1x1x1x1xf32>)
// CHECK-DAG: ml_program.global private @b.bn_folded(dense_resource<b.bn_folded> : tensor<1xf32>)
// CHECK-LABEL: func.func @conv_bn_relu
// CHECK: %[[W:.*]] = ml_program.global_load_const @w.bn_folded
// CHECK: %[[B:.*]] = ml_program.global_load_const @b.bn_folded
// CHECK: %[[F:.*]] = pd.fused_conv2d %arg0, %[[W]] Bias(%[[B]]) {fuse_activation = "relu"}
// CHECK-NOT: pd.batch_norm
// CHECK-NOT: pd.relu
// CHECK: return %[[F]]
// CHECK-DAG: w.bn_folded: "0x4000000000004040"
// CHECK-DAG: b.bn_folded: "0x40000000000080BF"
module {
  ml_program.global private @w(dense<2.0> : tensor<1x1x1x1xf32>) : tensor<1x1x1x1xf32>
  ml_program.global private @s(dense<3.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @b(dense<0.5> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @m(dense<1.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @v(dense<4.0> : tensor<1xf32>) : tensor<1xf32>
  func.func @conv_bn_relu(%x: tensor<?x1x4x4xf32>) -> tensor<?x1x4x4xf32> {
    %w = ml_program.global_load_const @w : tensor<1x1x1x1xf32>
    %s = ml_program.global_load_const @s : tensor<1xf32>
    %b = ml_program.global_load_const @b : tensor<1xf32>
    %m = ml_program.global_load_const @m : tensor<1xf32>
    %v = ml_program.global_load_const @v : tensor<1xf32>
    %0 = pd.conv2d %x, %w : (tensor<?x1x4x4xf32>, tensor<1x1x1x1xf32>) -> tensor<?x1x4x4xf32>
    %1 = pd.batch_norm %0, %s, %b, %m, %v {epsilon = 0.0 : f32, is_test = true} : (tensor<?x1x4x4xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x1x4x4xf32>
    %2 = pd.relu %1 : (tensor<?x1x4x4xf32>) -> tensor<?x1x4x4xf32>
    return %2 : tensor<?x1x4x4xf32>
  }
}

// -----

// Tests the bias add (axis 1, constant [C]) and the residual add with relu
// of a ResNet block tail.
// CHECK-LABEL: func.func @bias_residual_relu
// CHECK: %[[F:.*]] = pd.fused_conv2d %arg0, %{{.*}} Bias(%{{.*}}) ResidualData(%arg1) {fuse_activation = "relu", fuse_residual_connection = true}
// CHECK-NEXT: return %[[F]]
module {
  ml_program.global private @w(dense<1.0> : tensor<2x2x1x1xf32>) : tensor<2x2x1x1xf32>
  ml_program.global private @bias(dense<0.5> : tensor<2xf32>) : tensor<2xf32>
  func.func @bias_residual_relu(%x: tensor<1x2x3x3xf32>, %r: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
    %w = ml_program.global_load_const @w : tensor<2x2x1x1xf32>
    %bias = ml_program.global_load_const @bias : tensor<2xf32>
    %0 = pd.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
    %1 = pd.elementwise_add %0, %bias {axis = 1 : i32} : (tensor<1x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
    %2 = pd.elementwise_add %1, %r : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %3 = pd.relu %2 : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    return %3 : tensor<1x2x3x3xf32>
  }
}

// -----

// Tests that batch_norm with run-time statistics is left alone.
// CHECK-LABEL: func.func @negative_runtime_stats
// CHECK: pd.conv2d
// CHECK: pd.batch_norm
module {
  ml_program.global private @w(dense<1.0> : tensor<1x1x1x1xf32>) : tensor<1x1x1x1xf32>
  func.func @negative_runtime_stats(%x: tensor<1x1x2x2xf32>, %s: tensor<1xf32>) -> tensor<1x1x2x2xf32> {
    %w = ml_program.global_load_const @w : tensor<1x1x1x1xf32>
    %0 = pd.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
    %1 = pd.batch_norm %0, %s, %s, %s, %s : (tensor<1x1x2x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
    return %1 : tensor<1x1x2x2xf32>
  }
}

// -----

// Tests that a conv whose result is also returned is not fused away, and
// that hard_swish with non-default parameters is not folded into the conv.
// CHECK-LABEL: func.func @negative_two_uses
// CHECK: %[[C:.*]] = pd.conv2d
// CHECK: pd.elementwise_add %[[C]]
// CHECK: %[[F:.*]] = pd.fused_conv2d
// CHECK-NOT: fuse_activation
// CHECK: pd.hard_swish %[[F]] {offset = 2.000000e+00 : f32}
module {
  ml_program.global private @w(dense<1.0> : tensor<1x1x1x1xf32>) : tensor<1x1x1x1xf32>
  ml_program.global private @bias(dense<0.5> : tensor<1xf32>) : tensor<1xf32>
  func.func @negative_two_uses(%x: tensor<1x1x2x2xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) {
    %w = ml_program.global_load_const @w : tensor<1x1x1x1xf32>
    %bias = ml_program.global_load_const @bias : tensor<1xf32>
    %0 = pd.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
    %1 = pd.elementwise_add %0, %bias {axis = 1 : i32} : (tensor<1x1x2x2xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
    %2 = pd.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
    %3 = pd.elementwise_add %2, %bias {axis = 1 : i32} : (tensor<1x1x2x2xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
    %4 = pd.hard_swish %3 {offset = 2.0 : f32} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
    return %0, %1, %4 : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>
  }
}

// -----

// Tests conv + affine_channel (Fluid detection models): W' = W * s = 2 * 3 =
// 6.0 (0x40C00000), b' = t = 0.5 (0x3F000000).
// CHECK-LABEL: func.func @conv_affine_channel
// CHECK: %[[W:.*]] = ml_program.global_load_const @w.affine_folded
// CHECK: %[[B:.*]] = ml_program.global_load_const @t.affine_folded
// CHECK: %[[F:.*]] = pd.fused_conv2d %arg0, %[[W]] Bias(%[[B]])
// CHECK-NOT: pd.affine_channel
// CHECK: return %[[F]]
// CHECK-DAG: w.affine_folded: "0x400000000000C040"
// CHECK-DAG: t.affine_folded: "0x400000000000003F"
module {
  ml_program.global private @w(dense<2.0> : tensor<1x1x1x1xf32>) : tensor<1x1x1x1xf32>
  ml_program.global private @s(dense<3.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @t(dense<0.5> : tensor<1xf32>) : tensor<1xf32>
  func.func @conv_affine_channel(%x: tensor<?x1x4x4xf32>) -> tensor<?x1x4x4xf32> {
    %w = ml_program.global_load_const @w : tensor<1x1x1x1xf32>
    %s = ml_program.global_load_const @s : tensor<1xf32>
    %t = ml_program.global_load_const @t : tensor<1xf32>
    %0 = pd.conv2d %x, %w : (tensor<?x1x4x4xf32>, tensor<1x1x1x1xf32>) -> tensor<?x1x4x4xf32>
    %1 = pd.affine_channel %0, %s, %t {data_layout = "NCHW"} : (tensor<?x1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x1x4x4xf32>
    return %1 : tensor<?x1x4x4xf32>
  }
}

// -----

// Tests batch_norm folding across a conv bias add: conv + add(bias 1.0)
// becomes fused_conv2d with that bias first, then the batch_norm (factor
// 1.5 as above) folds into it: W' = 3.0, b' = (1.0 - 1.0) * 1.5 + 0.5 = 0.5.
// CHECK-LABEL: func.func @conv_bias_bn
// CHECK: %[[F:.*]] = pd.fused_conv2d %arg0, %{{.*}} Bias(%{{.*}})
// CHECK-NOT: pd.batch_norm
// CHECK-NOT: pd.elementwise_add
// CHECK: return %[[F]]
// CHECK-DAG: w.bn_folded: "0x4000000000004040"
// CHECK-DAG: b.bn_folded: "0x400000000000003F"
module {
  ml_program.global private @w(dense<2.0> : tensor<1x1x1x1xf32>) : tensor<1x1x1x1xf32>
  ml_program.global private @cb(dense<1.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @s(dense<3.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @b(dense<0.5> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @m(dense<1.0> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @v(dense<4.0> : tensor<1xf32>) : tensor<1xf32>
  func.func @conv_bias_bn(%x: tensor<?x1x4x4xf32>) -> tensor<?x1x4x4xf32> {
    %w = ml_program.global_load_const @w : tensor<1x1x1x1xf32>
    %cb = ml_program.global_load_const @cb : tensor<1xf32>
    %s = ml_program.global_load_const @s : tensor<1xf32>
    %b = ml_program.global_load_const @b : tensor<1xf32>
    %m = ml_program.global_load_const @m : tensor<1xf32>
    %v = ml_program.global_load_const @v : tensor<1xf32>
    %0 = pd.conv2d %x, %w : (tensor<?x1x4x4xf32>, tensor<1x1x1x1xf32>) -> tensor<?x1x4x4xf32>
    %1 = pd.elementwise_add %0, %cb {axis = 1 : i32} : (tensor<?x1x4x4xf32>, tensor<1xf32>) -> tensor<?x1x4x4xf32>
    %2 = pd.batch_norm %1, %s, %b, %m, %v {epsilon = 0.0 : f32, is_test = true} : (tensor<?x1x4x4xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x1x4x4xf32>
    return %2 : tensor<?x1x4x4xf32>
  }
}

// -----

// Tests that clip(0, 6) after a fused conv becomes its relu6 activation
// (alpha = the upper bound), clip(0, +inf) its relu, and that clip(-1, 6)
// stays a separate op.
// CHECK-LABEL: func.func @clip_activations
// CHECK: %[[A:.*]] = pd.fused_conv2d {{.*}}fuse_activation = "relu6"{{.*}}fuse_alpha = 6.000000e+00
// CHECK: %[[B:.*]] = pd.fused_conv2d {{.*}}fuse_activation = "relu"
// CHECK: %[[C:.*]] = pd.fused_conv2d
// CHECK-NOT: fuse_activation
// CHECK: pd.clip %[[C]] {max = 6.000000e+00 : f32, min = -1.000000e+00 : f32}
func.func @clip_activations(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) {
  %0 = pd.fused_conv2d %x, %w Bias(%b) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %1 = pd.clip %0 {min = 0.0 : f32, max = 6.0 : f32} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %2 = pd.fused_conv2d %x, %w Bias(%b) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %3 = pd.clip %2 {min = 0.0 : f32, max = 0x7F800000 : f32} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %4 = pd.fused_conv2d %x, %w Bias(%b) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %5 = pd.clip %4 {min = -1.0 : f32, max = 6.0 : f32} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %1, %3, %5 : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>
}

// -----

// Tests that a conv without bias takes the activation after it as a
// fused_conv2d; that a depthwise one without bias keeps its activation
// apart (--quantize-exclude=depthwise_conv2d names it); and that a conv
// whose result has another reader keeps its relu apart.
// CHECK-LABEL: func.func @conv_act_without_bias
// CHECK: %[[A:.*]] = pd.fused_conv2d %arg0, %arg1 {fuse_activation = "relu"}
// CHECK: %[[D:.*]] = pd.depthwise_conv2d %[[A]], %arg2
// CHECK: %[[B:.*]] = pd.leaky_relu %[[D]]
// CHECK: %[[C:.*]] = pd.conv2d %[[B]], %arg3
// CHECK: %[[R:.*]] = pd.relu %[[C]]
// CHECK: return %[[R]], %[[C]]
func.func @conv_act_without_bias(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>, %dw: tensor<2x1x3x3xf32>, %w2: tensor<2x2x1x1xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %0 = pd.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = pd.relu %0 : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %2 = pd.depthwise_conv2d %1, %dw {groups = 2 : i32} : (tensor<1x2x4x4xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x2x2xf32>
  %3 = pd.leaky_relu %2 {alpha = 0.1 : f32} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %4 = pd.conv2d %3, %w2 : (tensor<1x2x2x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x2xf32>
  %5 = pd.relu %4 : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %5, %4 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}

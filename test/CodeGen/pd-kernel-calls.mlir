// RUN: paddle-opt %s --split-input-file --convert-pd-to-linalg="kernels=onednn" | FileCheck %s
// RUN: paddle-opt %s --split-input-file --convert-pd-to-linalg | FileCheck %s --check-prefix=NONE

// Tests which pd ops become oneDNN kernel calls and the parameters they
// carry (the layout include/PaddleMLIR/Runtime/KernelABI.h describes). With
// the default kernels=none nothing becomes a kernel call (up to the
// memref-level case at the end, which is input).
// NONE-NOT: pd.kernel_call
// NONE-LABEL: func.func @lowered

// A fused conv with every slot: ints are strides (2, 2), pads
// top/bottom/left/right (1, 0, 1, 0), dilations (1, 1), groups 1,
// activation relu6 (code 2), filter constant (a pd.weight argument).
// The result's dynamic batch comes from the input.
// CHECK-LABEL: func.func @conv_all_slots
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x6x4x4xf32>
// CHECK: pd.kernel_call "pdk_conv2d"(%arg0, %arg1, %arg2, %arg3) init(%[[E]])
// CHECK-SAME: floats = array<f32: 0.000000e+00, 0.000000e+00>
// CHECK-SAME: ints = array<i64: 2, 2, 1, 0, 1, 0, 1, 1, 1, 2, 1, 0, 0, 0>
// CHECK-SAME: pd.from = "pd.fused_conv2d", slots = array<i64: 0, 1, 2, 3>
func.func @conv_all_slots(%x: tensor<?x4x8x8xf32>, %w: tensor<6x4x3x3xf32> {pd.weight = "w"},
                          %b: tensor<6xf32>, %r: tensor<?x6x4x4xf32>) -> tensor<?x6x4x4xf32> {
  %0 = pd.fused_conv2d %x, %w Bias(%b) ResidualData(%r) {strides = array<i32: 2, 2>, paddings = array<i32: 1, 0, 1, 0>, fuse_activation = "relu6", fuse_residual_connection = true} : (tensor<?x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>, tensor<?x6x4x4xf32>) -> tensor<?x6x4x4xf32>
  return %0 : tensor<?x6x4x4xf32>
}

// -----

// Depthwise (groups = channels) with SAME padding resolved to explicit pads,
// a bias, no residual (slot 3 is -1), and a
// filter that is not a parameter (weights-constant flag 0). A plain
// depthwise_conv2d has neither bias nor residual.
// CHECK-LABEL: func.func @depthwise_same
// CHECK: pd.kernel_call "pdk_conv2d"(%arg0, %arg1, %arg2)
// CHECK-SAME: ints = array<i64: 1, 1, 1, 1, 1, 1, 1, 1, 8, 0, 0, 0, 0, 0>
// CHECK-SAME: pd.from = "pd.fused_conv2d", slots = array<i64: 0, 1, 2, -1>
// CHECK: pd.kernel_call "pdk_conv2d"(%arg0, %arg1) init
// CHECK-SAME: pd.from = "pd.depthwise_conv2d", slots = array<i64: 0, 1, -1, -1>
func.func @depthwise_same(%x: tensor<1x8x6x6xf32>, %w: tensor<8x1x3x3xf32>, %b: tensor<8xf32>) -> (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) {
  %0 = pd.fused_conv2d %x, %w Bias(%b) {groups = 8 : i32, padding_algorithm = "SAME"} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32>
  %1 = pd.depthwise_conv2d %x, %w {groups = 8 : i32, padding_algorithm = "SAME"} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0, %1 : tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>
}

// -----

// A convolution's gradients (fp32, static shapes): conv2d_grad_input
// passes the filter and the output's gradient to the backward-data kernel
// (slots Input -1, Filter 0, OutputGrad 1), conv2d_grad_filter the input
// and the output's gradient to the backward-weights kernel; ints are
// strides (2, 1), pads top/bottom/left/right (1, 1, 0, 2), dilations
// (1, 2) and groups 2, then the plain (0) layouts of the input side and of
// the output's gradient (pd-train-layouts may block them).
// CHECK-LABEL: func.func @conv_grads
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<2x4x7x7xf32>
// CHECK: pd.kernel_call "pdk_conv2d_backward_data"(%arg1, %arg2) init(%[[E0]])
// CHECK-SAME: ints = array<i64: 2, 1, 1, 1, 0, 2, 1, 2, 2, 0, 0>
// CHECK-SAME: pd.from = "pd.conv2d_grad_input", slots = array<i64: -1, 0, 1>
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<6x2x3x3xf32>
// CHECK: pd.kernel_call "pdk_conv2d_backward_weights"(%arg0, %arg2) init(%[[E1]])
// CHECK-SAME: ints = array<i64: 2, 1, 1, 1, 0, 2, 1, 2, 2, 0, 0>
// CHECK-SAME: pd.from = "pd.conv2d_grad_filter", slots = array<i64: 0, -1, 1>
func.func @conv_grads(%x: tensor<2x4x7x7xf32>, %w: tensor<6x2x3x3xf32>, %dy: tensor<2x6x4x5xf32>) -> (tensor<2x4x7x7xf32>, tensor<6x2x3x3xf32>) {
  %0 = pd.conv2d_grad_input %x, %w, %dy {strides = array<i32: 2, 1>, paddings = array<i32: 1, 1, 0, 2>, dilations = array<i32: 1, 2>, groups = 2 : i32} : (tensor<2x4x7x7xf32>, tensor<6x2x3x3xf32>, tensor<2x6x4x5xf32>) -> tensor<2x4x7x7xf32>
  %1 = pd.conv2d_grad_filter %x, %w, %dy {strides = array<i32: 2, 1>, paddings = array<i32: 1, 1, 0, 2>, dilations = array<i32: 1, 2>, groups = 2 : i32} : (tensor<2x4x7x7xf32>, tensor<6x2x3x3xf32>, tensor<2x6x4x5xf32>) -> tensor<6x2x3x3xf32>
  return %0, %1 : tensor<2x4x7x7xf32>, tensor<6x2x3x3xf32>
}

// -----

// f64 gradients stay generated code (the loop nests of convert-pd-to-linalg).
// CHECK-LABEL: func.func @conv_grads_f64
// CHECK-NOT: pd.kernel_call
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: return
func.func @conv_grads_f64(%x: tensor<1x2x5x5xf64>, %w: tensor<3x2x3x3xf64>, %dy: tensor<1x3x3x3xf64>) -> (tensor<1x2x5x5xf64>, tensor<3x2x3x3xf64>) {
  %0 = pd.conv2d_grad_input %x, %w, %dy : (tensor<1x2x5x5xf64>, tensor<3x2x3x3xf64>, tensor<1x3x3x3xf64>) -> tensor<1x2x5x5xf64>
  %1 = pd.conv2d_grad_filter %x, %w, %dy : (tensor<1x2x5x5xf64>, tensor<3x2x3x3xf64>, tensor<1x3x3x3xf64>) -> tensor<3x2x3x3xf64>
  return %0, %1 : tensor<1x2x5x5xf64>, tensor<3x2x3x3xf64>
}

// -----

// fc: kind 1, no transposes, gelu (code 8), constant weight, a [1, N] bias
// flattened to [N]; the leading dims of the result come from the input.
// CHECK-LABEL: func.func @fc_gelu
// CHECK: %[[B:.*]] = tensor.collapse_shape %arg2 {{\[\[}}0, 1]] : tensor<1x32xf32> into tensor<32xf32>
// CHECK: pd.kernel_call "pdk_matmul"(%arg0, %arg1, %[[B]])
// CHECK-SAME: ints = array<i64: 1, 0, 0, 8, 1>
// CHECK-SAME: slots = array<i64: 0, 1, 2>
// CHECK-SAME: -> tensor<?x16x32xf32>
func.func @fc_gelu(%x: tensor<?x16x8xf32>, %w: tensor<8x32xf32> {pd.weight = "w"}, %b: tensor<1x32xf32>) -> tensor<?x16x32xf32> {
  %0 = pd.fc %x, %w Bias(%b) {in_num_col_dims = 2 : i32, activation_type = "gelu"} : (tensor<?x16x8xf32>, tensor<8x32xf32>, tensor<1x32xf32>) -> tensor<?x16x32xf32>
  return %0 : tensor<?x16x32xf32>
}

// -----

// Batched matmul_v2 with Y transposed (attention scores): kind 0, trans_y 1,
// Y not a parameter.
// CHECK-LABEL: func.func @batched_trans_y
// CHECK: pd.kernel_call "pdk_matmul"(%arg0, %arg1) init
// CHECK-SAME: ints = array<i64: 0, 0, 1, 0, 0>
// CHECK-SAME: slots = array<i64: 0, 1, -1>
func.func @batched_trans_y(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32> {
  %0 = pd.matmul_v2 %q, %k {trans_y = true} : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
  return %0 : tensor<2x4x16x16xf32>
}

// -----

// A 2-D Y broadcast against a batched X is supported (batch of Y is 1).
// CHECK-LABEL: func.func @broadcast_y
// CHECK: pd.kernel_call "pdk_matmul"
func.func @broadcast_y(%x: tensor<3x5x8xf32>, %y: tensor<8x4xf32>) -> tensor<3x5x4xf32> {
  %0 = pd.matmul_v2 %x, %y : (tensor<3x5x8xf32>, tensor<8x4xf32>) -> tensor<3x5x4xf32>
  return %0 : tensor<3x5x4xf32>
}

// -----

// Negative: batch dims that broadcast partially ([2, 1] against [1, 3]) are
// left to the linalg lowering.
// CHECK-LABEL: func.func @partial_broadcast
// CHECK-NOT: pd.kernel_call
// CHECK: linalg.generic
func.func @partial_broadcast(%x: tensor<2x1x5x8xf32>, %y: tensor<1x3x8x4xf32>) -> tensor<2x3x5x4xf32> {
  %0 = pd.matmul_v2 %x, %y : (tensor<2x1x5x8xf32>, tensor<1x3x8x4xf32>) -> tensor<2x3x5x4xf32>
  return %0 : tensor<2x3x5x4xf32>
}

// -----

// Tests that a convolution over a dynamic image size is a kernel call too
// (oneDNN makes a primitive per run-time shape): the result's height and
// width are (in + pads - (dilation * (k - 1) + 1)) / stride + 1, at least 0.
// CHECK-LABEL: func.func @dynamic_spatial
// CHECK: %[[H:.*]] = tensor.dim %arg0, %c2
// CHECK: %[[HP:.*]] = arith.addi %[[H]], %c-4
// CHECK: %[[HQ:.*]] = arith.floordivsi %[[HP]], %c2
// CHECK: %[[HO:.*]] = arith.addi %[[HQ]], %c1
// CHECK: %[[HM:.*]] = arith.maxsi %[[HO]], %c0
// CHECK: %[[W:.*]] = tensor.dim %arg0, %c3
// CHECK: %[[WP:.*]] = arith.addi %[[W]], %c-3
// CHECK: %[[WM:.*]] = arith.maxsi
// CHECK: tensor.empty(%[[HM]], %[[WM]]) : tensor<1x6x?x?xf32>
// CHECK: pd.kernel_call "pdk_conv2d"
func.func @dynamic_spatial(%x: tensor<1x4x?x?xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x?x?xf32> {
  %0 = pd.conv2d %x, %w {strides = array<i32: 2, 2>, paddings = array<i32: 1, 0, 0, 0>, dilations = array<i32: 2, 1>} : (tensor<1x4x?x?xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x?x?xf32>
  return %0 : tensor<1x6x?x?xf32>
}

// -----

// Negative: SAME paddings depend on a dynamic image size, so such a
// convolution stays generated code (which computes them at run time).
// CHECK-LABEL: func.func @dynamic_spatial_same
// CHECK-NOT: pd.kernel_call
// CHECK: linalg.conv_2d_nchw_fchw
func.func @dynamic_spatial_same(%x: tensor<1x4x?x?xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x?x?xf32> {
  %0 = pd.conv2d %x, %w {padding_algorithm = "SAME"} : (tensor<1x4x?x?xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x?x?xf32>
  return %0 : tensor<1x6x?x?xf32>
}

// -----

// Negative: an fc whose flattened K dim is dynamic stays generated code.
// CHECK-LABEL: func.func @fc_dynamic_k
// CHECK-NOT: pd.kernel_call
func.func @fc_dynamic_k(%x: tensor<4x?xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %0 = pd.fc %x, %w : (tensor<4x?xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// softmax and log_softmax become pdk_softmax: ints are the axis (made
// non-negative) and the log flag; the dynamic batch sizes the result.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x3x5xf32>
// CHECK: %[[S:.*]] = pd.kernel_call "pdk_softmax"(%arg0) init(%[[E]])
// CHECK-SAME: ints = array<i64: 1, 0>
// CHECK-SAME: pd.from = "pd.softmax", slots = array<i64: 0>
// CHECK: pd.kernel_call "pdk_softmax"(%[[S]])
// CHECK-SAME: ints = array<i64: 2, 1>
// CHECK-SAME: pd.from = "pd.log_softmax"
// An f64 softmax is not the kernel's: it stays generated code.
// CHECK-LABEL: func.func @softmax_f64
// CHECK-NOT: pd.kernel_call
// CHECK: linalg.generic
func.func @softmax(%x: tensor<?x3x5xf32>) -> tensor<?x3x5xf32> {
  %0 = pd.softmax %x {axis = 1 : i32} : (tensor<?x3x5xf32>) -> tensor<?x3x5xf32>
  %1 = pd.log_softmax %0 {axis = -1 : i32} : (tensor<?x3x5xf32>) -> tensor<?x3x5xf32>
  return %1 : tensor<?x3x5xf32>
}

func.func @softmax_f64(%x: tensor<4x5xf64>) -> tensor<4x5xf64> {
  %0 = pd.softmax %x {axis = -1 : i32} : (tensor<4x5xf64>) -> tensor<4x5xf64>
  return %0 : tensor<4x5xf64>
}

// -----

// Max pooling right after a convolution kernel becomes pdk_pool2d: ints
// are kind 0 (max), window (3, 3), strides (2, 2), pads top/bottom/left/
// right, the two layout fields and the source and destination data types
// (0: f32); the one float is the rescale (1). ceil_mode adds the overhang of the
// last window to the bottom/right padding: none for @pool_ceil (9x9, pad 1:
// the 5th window ends at (5 - 1) * 2 + 3 = 11 = 9 + 1 + 1), one row and
// column for @pool_overhang (8x8, no pad: 4th window ends at 9). SAME
// padding is resolved (7x7, window 2, stride 2: 1 at the bottom/right). Pooling that does
// not follow a convolution, average, global and adaptive pooling stay
// generated code.
// CHECK-LABEL: func.func @pool_ceil
// CHECK: %[[C:.*]] = pd.kernel_call "pdk_conv2d"
// CHECK: pd.kernel_call "pdk_pool2d"(%[[C]])
// CHECK-SAME: ints = array<i64: 0, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0>
// CHECK-SAME: pd.from = "pd.pool2d", slots = array<i64: 0>
// CHECK-LABEL: func.func @pool_overhang
// CHECK: pd.kernel_call "pdk_pool2d"
// CHECK-SAME: ints = array<i64: 0, 3, 3, 2, 2, 0, 1, 0, 1, 0, 0, 0, 0>
// CHECK-LABEL: func.func @pool_same
// CHECK: pd.kernel_call "pdk_pool2d"
// CHECK-SAME: ints = array<i64: 0, 2, 2, 2, 2, 0, 1, 0, 1, 0, 0, 0, 0>
// CHECK-LABEL: func.func @pool_stays_generated
// CHECK: linalg.pooling_nchw_max
// CHECK: pd.kernel_call "pdk_conv2d"
// CHECK-NOT: pd.kernel_call
// CHECK: linalg.pooling_nchw_sum
// CHECK-NOT: pd.kernel_call
// CHECK: return
func.func @pool_ceil(%x: tensor<?x8x9x9xf32>, %w: tensor<8x8x1x1xf32>) -> tensor<?x8x5x5xf32> {
  %0 = pd.conv2d %x, %w : (tensor<?x8x9x9xf32>, tensor<8x8x1x1xf32>) -> tensor<?x8x9x9xf32>
  %1 = pd.pool2d %0 {ksize = array<i32: 3, 3>, strides = array<i32: 2, 2>, paddings = array<i32: 1, 1>, ceil_mode = true} : (tensor<?x8x9x9xf32>) -> tensor<?x8x5x5xf32>
  return %1 : tensor<?x8x5x5xf32>
}

func.func @pool_overhang(%x: tensor<2x8x8x8xf32>, %w: tensor<8x8x1x1xf32>) -> tensor<2x8x4x4xf32> {
  %0 = pd.conv2d %x, %w : (tensor<2x8x8x8xf32>, tensor<8x8x1x1xf32>) -> tensor<2x8x8x8xf32>
  %1 = pd.pool2d %0 {ksize = array<i32: 3, 3>, strides = array<i32: 2, 2>, ceil_mode = true} : (tensor<2x8x8x8xf32>) -> tensor<2x8x4x4xf32>
  return %1 : tensor<2x8x4x4xf32>
}

func.func @pool_same(%x: tensor<2x8x7x7xf32>, %w: tensor<8x8x1x1xf32>) -> tensor<2x8x4x4xf32> {
  %0 = pd.conv2d %x, %w : (tensor<2x8x7x7xf32>, tensor<8x8x1x1xf32>) -> tensor<2x8x7x7xf32>
  %1 = pd.pool2d %0 {ksize = array<i32: 2, 2>, strides = array<i32: 2, 2>, padding_algorithm = "SAME"} : (tensor<2x8x7x7xf32>) -> tensor<2x8x4x4xf32>
  return %1 : tensor<2x8x4x4xf32>
}

func.func @pool_stays_generated(%x: tensor<2x8x8x8xf32>, %w: tensor<8x8x1x1xf32>) -> (tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>, tensor<2x8x1x1xf32>, tensor<2x8x1x1xf32>) {
  %a = pd.pool2d %x {ksize = array<i32: 2, 2>, strides = array<i32: 2, 2>} : (tensor<2x8x8x8xf32>) -> tensor<2x8x4x4xf32>
  %0 = pd.conv2d %x, %w : (tensor<2x8x8x8xf32>, tensor<8x8x1x1xf32>) -> tensor<2x8x8x8xf32>
  %b = pd.pool2d %0 {pooling_type = "avg", ksize = array<i32: 2, 2>, strides = array<i32: 2, 2>} : (tensor<2x8x8x8xf32>) -> tensor<2x8x4x4xf32>
  %c = pd.pool2d %0 {ksize = array<i32: 1, 1>, global_pooling = true} : (tensor<2x8x8x8xf32>) -> tensor<2x8x1x1xf32>
  %d = pd.pool2d %0 {ksize = array<i32: 1, 1>, adaptive = true} : (tensor<2x8x8x8xf32>) -> tensor<2x8x1x1xf32>
  return %a, %b, %c, %d : tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>, tensor<2x8x1x1xf32>, tensor<2x8x1x1xf32>
}

// -----

// After bufferization, pd-lower-kernel-calls builds the three stack arrays:
// pointers (the element address of each slot, 0 for an absent one, then the
// destination), ints (the op's parameters then rank + dims of each present
// operand and of the destination; a dynamic dim is read with memref.dim),
// floats; and calls the C function with their addresses.
// RUN: paddle-opt %s --split-input-file --pd-lower-kernel-calls | FileCheck %s --check-prefix=LOWER
// LOWER: func.func private @pdk_matmul(i64, i64, i64)
// LOWER-LABEL: func.func @lowered
// LOWER-DAG: %[[P:.*]] = memref.alloca() : memref<4xi64>
// LOWER-DAG: %[[I:.*]] = memref.alloca() : memref<14xi64>
// LOWER-DAG: %[[F:.*]] = memref.alloca() : memref<1xf32>
// LOWER: memref.extract_aligned_pointer_as_index %arg0
// LOWER: memref.store %{{.*}}, %[[P]][%c0
// LOWER: memref.extract_aligned_pointer_as_index %arg1
// LOWER: memref.store %{{.*}}, %[[P]][%c1
// LOWER: memref.store %c0_i64, %[[P]][%c2
// LOWER: memref.extract_aligned_pointer_as_index %arg2
// LOWER: memref.store %{{.*}}, %[[P]][%c3
// LOWER: %[[D:.*]] = memref.dim %arg0, %c0
// LOWER: %[[D64:.*]] = arith.index_cast %[[D]] : index to i64
// LOWER: memref.store %[[D64]], %[[I]][%c6
// LOWER: call @pdk_matmul(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64) -> ()
// LOWER-NOT: pd.kernel_call
// CHECK-LABEL: func.func @lowered
func.func @lowered(%a: memref<?x8xf32>, %b: memref<8x4xf32>, %o: memref<?x4xf32>) {
  pd.kernel_call "pdk_matmul"(%a, %b) init(%o) {slots = array<i64: 0, 1, -1>, ints = array<i64: 1, 0, 0, 0, 1>, floats = array<f32: 0.0>} : (memref<?x8xf32>, memref<8x4xf32>, memref<?x4xf32>) -> ()
  return
}

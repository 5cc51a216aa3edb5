// RUN: paddle-opt %s -convert-pd-to-linalg | FileCheck %s

// Tests that im2sequence generates its patch rows (N*OH*OW of them, here
// OH*OW = 3*7 = 21) and fills OutLengths with OH*OW per image.
// CHECK-LABEL: func.func @im2seq
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[ROWS:.*]] = arith.muli %[[N]], %c21 : index
// CHECK: tensor.empty(%[[ROWS]]) : tensor<?x12xf32>
// CHECK: linalg.generic
// CHECK: tensor.extract %arg0
// CHECK: %[[PER:.*]] = arith.index_cast %c21 : index to i64
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?xi64>
// CHECK: linalg.fill ins(%[[PER]] : i64) outs(%[[E]] : tensor<?xi64>)
func.func @im2seq(%x: tensor<?x2x5x7xf32>) -> (tensor<?x12xf32>, tensor<?xi64>) {
  %s, %n = pd.im2sequence %x {kernels = array<i32: 2, 3>, strides = array<i32: 2, 1>, paddings = array<i32: 1, 0, 0, 2>} : (tensor<?x2x5x7xf32>) -> (tensor<?x12xf32>, tensor<?xi64>)
  return %s, %n : tensor<?x12xf32>, tensor<?xi64>
}

// Tests that lod_reset's Out is X itself; its lengths are Y's LoD as is,
// or pdk_lod_offsets (which checks them) of Y's int32 data or of
// target_lod as a constant.
// CHECK-LABEL: func.func @reset
// CHECK: pd.kernel_call "pdk_lod_offsets"(%arg1, %arg0)
// CHECK-SAME: ints = array<i64: 1>
// CHECK: %[[LOD:.*]] = arith.constant dense<[0, 2, 5]> : tensor<3xi32>
// CHECK: pd.kernel_call "pdk_lod_offsets"(%[[LOD]], %arg0)
// CHECK: return %arg0, %{{.*}}, %arg3, %{{.*}} :
func.func @reset(%x: tensor<?x3xf32>, %off: tensor<?xi32>, %y: tensor<?x4xf32>, %n: tensor<?xi64>) -> (tensor<?x3xf32>, tensor<?xi64>, tensor<?xi64>, tensor<2xi64>) {
  %r, %rl = pd.lod_reset %x Y(%off) : (tensor<?x3xf32>, tensor<?xi32>) -> (tensor<?x3xf32>, tensor<?xi64>)
  %a, %al = pd.lod_reset %x Y(%y) Lengths(%n) {append = true} : (tensor<?x3xf32>, tensor<?x4xf32>, tensor<?xi64>) -> (tensor<?x3xf32>, tensor<?xi64>)
  %t, %tl = pd.lod_reset %x {target_lod = array<i32: 0, 2, 5>} : (tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<2xi64>)
  return %r, %rl, %al, %tl : tensor<?x3xf32>, tensor<?xi64>, tensor<?xi64>, tensor<2xi64>
}

// Tests that gru_unit reads Weight's first 2D*D values as [D, 2D] and the
// rest as [D, D], each in one matrix product.
// CHECK-LABEL: func.func @gru
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: linalg.matmul ins(%arg1, %{{.*}} : tensor<?x4xf32>, tensor<4x8xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<4x4xf32>)
// CHECK: %c32
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x4xf32>, tensor<4x4xf32>)
func.func @gru(%g: tensor<?x12xf32>, %h: tensor<?x4xf32>, %w: tensor<4x12xf32>) -> tensor<?x4xf32> {
  %gate, %reset, %hid = pd.gru_unit %g, %h, %w : (tensor<?x12xf32>, tensor<?x4xf32>, tensor<4x12xf32>) -> (tensor<?x12xf32>, tensor<?x4xf32>, tensor<?x4xf32>)
  return %hid : tensor<?x4xf32>
}

// Tests that sequence_reshape is a reshape of X plus pdk_sequence_reshape
// for the new lengths (width 8 in, 4 out), and box_clip one kernel call.
// CHECK-LABEL: func.func @reshape_clip
// CHECK: tensor.reshape %arg0
// CHECK: pd.kernel_call "pdk_sequence_reshape"(%arg1, %arg0)
// CHECK-SAME: ints = array<i64: 8, 4>
// CHECK: pd.kernel_call "pdk_box_clip"(%arg2, %arg3, %arg1)
func.func @reshape_clip(%x: tensor<?x8xf32>, %n: tensor<?xi64>, %b: tensor<?x4xf32>, %info: tensor<?x3xf32>) -> (tensor<?x4xf32>, tensor<?xi64>, tensor<?x4xf32>) {
  %y, %l = pd.sequence_reshape %x Lengths(%n) {new_dim = 4 : i32} : (tensor<?x8xf32>, tensor<?xi64>) -> (tensor<?x4xf32>, tensor<?xi64>)
  %c = pd.box_clip %b, %info Lengths(%n) : (tensor<?x4xf32>, tensor<?x3xf32>, tensor<?xi64>) -> tensor<?x4xf32>
  return %y, %l, %c : tensor<?x4xf32>, tensor<?xi64>, tensor<?x4xf32>
}

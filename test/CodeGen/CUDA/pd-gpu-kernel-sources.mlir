// RUN: paddle-opt %s --pd-lower-to-gpu="format=isa" | FileCheck %s

// The manifest's kernel_ops: each kernel with the Paddle ops it computes,
// from the importer's locations. add + relu fuse into one kernel, which
// names both (in program order); the softmax's row reductions are kernels
// of their own naming the softmax; the reshape is a view (no kernel) and
// the weight's location ("parameter ...") names no op.
// CHECK:       module attributes {
// CHECK-SAME:    pd.kernel_sources = {
// CHECK-SAME:      main_kernel = ["elementwise_add #0 -> s", "relu #1 -> r"]
// CHECK-SAME:      main_kernel_{{[0-9]+}} = ["softmax #3 -> p"]
// CHECK-NOT:     reshape2 #2
func.func @main(%x: tensor<8x16x32xf32>, %y: tensor<8x16x32xf32>) -> tensor<8x512xf32> {
  %s = pd.elementwise_add %x, %y {axis = -1 : i32} : (tensor<8x16x32xf32>, tensor<8x16x32xf32>) -> tensor<8x16x32xf32> loc("elementwise_add #0 -> s")
  %r = pd.relu %s : (tensor<8x16x32xf32>) -> tensor<8x16x32xf32> loc("relu #1 -> r")
  %f = pd.reshape2 %r {shape = array<i32: 8, 512>} : (tensor<8x16x32xf32>) -> tensor<8x512xf32> loc("reshape2 #2 -> f")
  %p = pd.softmax %f {axis = -1 : i32} : (tensor<8x512xf32>) -> tensor<8x512xf32> loc("softmax #3 -> p")
  return %p : tensor<8x512xf32>
}

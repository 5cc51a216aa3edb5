// RUN: not paddle-opt %s --convert-pd-to-linalg="kernels=onednn" 2>&1 | FileCheck %s

// int8 pooling runs only on the oneDNN kernel (pd-quantize makes it only
// where the kernel takes it); over a dynamic image size the kernel does not
// take it and the generated pooling (floats only) refuses it with the
// compiler's one error, not with wrong code.
// CHECK: error: code generation cannot compile 'pd.pool2d' with these operand types or attributes yet
func.func @int8_pool_dynamic(%x: tensor<1x8x?x?xui8>) -> tensor<1x8x?x?xui8> {
  %y = pd.pool2d %x {ksize = array<i32: 3, 3>, strides = array<i32: 2, 2>} : (tensor<1x8x?x?xui8>) -> tensor<1x8x?x?xui8>
  return %y : tensor<1x8x?x?xui8>
}

// RUN: paddle-opt %s --convert-pd-to-linalg="kernels=onednn" -verify-diagnostics

// Tests that an int8 average pooling the kernel cannot run (here ceil_mode's
// overhang) is an error, never generated code averaging the integers.
func.func @int8_avg_pool_overhang(%x: tensor<1x8x8x8xi8>) -> tensor<1x8x4x4xi8> {
  // expected-error @+2 {{int8 average pooling needs a fixed NCHW window}}
  // expected-error @+1 {{code generation cannot compile 'pd.pool2d'}}
  %y = pd.pool2d %x {ksize = array<i32: 3, 3>, strides = array<i32: 2, 2>, ceil_mode = true, pooling_type = "avg", pd.int8_rescale = 1.0 : f32} : (tensor<1x8x8x8xi8>) -> tensor<1x8x4x4xi8>
  return %y : tensor<1x8x4x4xi8>
}

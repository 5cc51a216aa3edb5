// RUN: paddle-opt %s --pd-lower-to-cpu | FileCheck %s

// Tests the whole CPU pipeline: weights become trailing arguments, @main gets
// a C interface, and everything reaches the LLVM dialect.
// CHECK-NOT: ml_program
// CHECK-NOT: pd.
// CHECK: llvm.func @main(
// CHECK: llvm.func @_mlir_ciface_main(
module {
  ml_program.global private @w(dense<1.0> : tensor<4x2xf32>) : tensor<4x2xf32>
  func.func @main(%x: tensor<?x4xf32> {pd.name = "x"}) -> (tensor<?x2xf32> {pd.name = "y"}) {
    %w = ml_program.global_load_const @w : tensor<4x2xf32>
    %0 = pd.matmul_v2 %x, %w : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
    %1 = pd.relu %0 : (tensor<?x2xf32>) -> tensor<?x2xf32>
    return %1 : tensor<?x2xf32>
  }
}

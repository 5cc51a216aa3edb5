// RUN: paddle-opt %s -split-input-file -verify-diagnostics -pd-append-optimizer="lr=0.25" | FileCheck %s
// RUN: paddle-opt %s -split-input-file -verify-diagnostics -pd-append-optimizer="lr=0.25 keep-gradients=true" | FileCheck %s --check-prefix=KEEP

// Tests that each gradient result becomes an sgd update stored into its
// global, which turns mutable and is read with global_load; the gradient
// results go away unless keep-gradients.
// CHECK: ml_program.global private mutable @w
// CHECK-LABEL: func.func @main
// CHECK-SAME: -> (tensor<1xf32> {pd.name = "loss"})
// CHECK: %[[W:.*]] = ml_program.global_load @w : tensor<3xf32>
// CHECK: %[[G:.*]] = pd.elementwise_mul %[[W]]
// CHECK: %[[LR:.*]] = pd.fill_constant {shape = array<i64: 1>, value = 2.500000e-01 : f32} : () -> tensor<1xf32>
// CHECK: %[[P:.*]] = ml_program.global_load @w : tensor<3xf32>
// CHECK: %[[NEW:.*]] = pd.sgd %[[P]], %[[LR]], %[[G]]
// CHECK: ml_program.global_store @w = %[[NEW]]
// CHECK: return %{{.*}} : tensor<1xf32>
// KEEP-LABEL: func.func @main
// KEEP-SAME: -> (tensor<1xf32> {pd.name = "loss"}, tensor<3xf32> {pd.grad_of = "w", pd.name = "w@GRAD"})
module {
  ml_program.global private @w(dense<0.5> : tensor<3xf32>) : tensor<3xf32>
  func.func @main(%x: tensor<3xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}, tensor<3xf32> {pd.grad_of = "w", pd.name = "w@GRAD"}) {
    %w = ml_program.global_load_const @w : tensor<3xf32>
    %g = pd.elementwise_mul %w, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %l = pd.mean %g : (tensor<3xf32>) -> tensor<1xf32>
    return %l, %g : tensor<1xf32>, tensor<3xf32>
  }
}

// -----

// Tests that a module without gradients is refused.
module {
  // expected-error @+1 {{pd-append-optimizer: @main returns no gradients (run pd-append-backward first)}}
  func.func @main(%x: tensor<3xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %l = pd.mean %x : (tensor<3xf32>) -> tensor<1xf32>
    return %l : tensor<1xf32>
  }
}

// RUN: paddle-opt %s -pd-externalize-weights -split-input-file -verify-diagnostics | FileCheck %s

// Tests that globals become trailing @main arguments named after them.
// CHECK-NOT: ml_program
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:.*]]: tensor<2xf32> {pd.name = "x"}, %[[A:.*]]: tensor<2xf32> {pd.weight = "a"}, %[[B:.*]]: tensor<2xf32> {pd.weight = "b"})
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK: pd.elementwise_add %[[B]], %[[A]]
module {
  ml_program.global private @a(dense<1.0> : tensor<2xf32>) : tensor<2xf32>
  ml_program.global private @b(dense<2.0> : tensor<2xf32>) : tensor<2xf32>
  func.func @main(%x: tensor<2xf32> {pd.name = "x"}) -> tensor<2xf32> {
    %b = ml_program.global_load_const @b : tensor<2xf32>
    %a = ml_program.global_load_const @a : tensor<2xf32>
    %0 = pd.elementwise_add %b, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

// -----

// Tests that a module without @main is rejected.
// expected-error @+1 {{pd-externalize-weights: the module has no @main}}
module {
  func.func @other() {
    return
  }
}

// -----

// Tests that a mutable global (a trained parameter) becomes a `pd.param`
// argument, which kernels never pack as a constant, and that its
// global_store becomes a trailing result named after it and marked
// `pd.update`, materialized in the argument's own buffer (so the runtime
// neither allocates nor copies the new value).
// CHECK-NOT: ml_program
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:.*]]: tensor<2xf32> {pd.name = "x"}, %[[W:.*]]: tensor<2xf32> {pd.param = "w"})
// CHECK-SAME: -> (tensor<1xf32> {pd.name = "loss"}, tensor<2xf32> {pd.name = "w", pd.update = "w"})
// CHECK: %[[NEW:.*]] = pd.elementwise_add %[[W]], %[[X]]
// CHECK: %[[IN:.*]] = bufferization.materialize_in_destination %[[NEW]] in %[[W]]
// CHECK: return %{{.*}}, %[[IN]]
module {
  ml_program.global private mutable @w(dense<1.0> : tensor<2xf32>) : tensor<2xf32>
  func.func @main(%x: tensor<2xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %w = ml_program.global_load @w : tensor<2xf32>
    %l = pd.mean %w : (tensor<2xf32>) -> tensor<1xf32>
    %n = pd.elementwise_add %w, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    ml_program.global_store @w = %n : tensor<2xf32>
    return %l : tensor<1xf32>
  }
}

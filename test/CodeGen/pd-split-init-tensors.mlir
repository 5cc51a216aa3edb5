// RUN: paddle-opt %s --pass-pipeline='builtin.module(func.func(pd-split-init-tensors))' | FileCheck %s

// A zero fill shared by two matmuls gets one copy (with its own
// tensor.empty) per matmul, so bufferization neither copies the fill nor
// makes both results share one buffer.
// CHECK-LABEL: func.func @shared_fill
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK: %[[F1:.*]] = linalg.fill ins(%{{.*}}) outs(%[[E1]] : tensor<4x4xf32>)
// CHECK: %[[M1:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x4xf32>, tensor<4x4xf32>) outs(%[[F1]] : tensor<4x4xf32>)
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK: %[[F2:.*]] = linalg.fill ins(%{{.*}}) outs(%[[E2]] : tensor<4x4xf32>)
// CHECK: linalg.matmul ins(%[[M1]], %{{.*}} : tensor<4x4xf32>, tensor<4x4xf32>) outs(%[[F2]] : tensor<4x4xf32>)
func.func @shared_fill(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m1 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m2 = linalg.matmul ins(%m1, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m2 : tensor<4x4xf32>
}

// A shared tensor.empty (with a dynamic size) is cloned per user.
// CHECK-LABEL: func.func @shared_empty
// CHECK: %[[D:.*]] = tensor.dim
// CHECK: %[[E1:.*]] = tensor.empty(%[[D]]) : tensor<?xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E1]] : tensor<?xf32>)
// CHECK: %[[E2:.*]] = tensor.empty(%[[D]]) : tensor<?xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E2]] : tensor<?xf32>)
#id = affine_map<(d0) -> (d0)>
func.func @shared_empty(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%i: f32, %o: f32):
    %n = arith.negf %i : f32
    linalg.yield %n : f32
  } -> tensor<?xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%i: f32, %o: f32):
    %n = math.exp %i : f32
    linalg.yield %n : f32
  } -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// Negative: a destination with a single use is left alone.
// CHECK-LABEL: func.func @negative_single_use
// CHECK-COUNT-1: tensor.empty
// CHECK-NOT: tensor.empty
// CHECK: return
func.func @negative_single_use(%a: tensor<4xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %f : tensor<4xf32>
}

// Tests that a value materialized into an argument (a train step's
// parameter update) is computed in the argument: the producer's
// tensor.empty destination becomes the argument, each output its own.
// CHECK-LABEL: func.func @update_in_place
// CHECK-NOT: tensor.empty() : tensor<64xf32>
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}} outs(%arg1, %arg2 : tensor<64xf32>, tensor<64xf32>)
// CHECK: bufferization.materialize_in_destination %[[R]]#0 in %arg1
// CHECK: bufferization.materialize_in_destination %[[R]]#1 in %arg2
func.func @update_in_place(%x: tensor<64xf32>, %w: tensor<64xf32>, %v: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %e = tensor.empty() : tensor<64xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %w, %v : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e, %e : tensor<64xf32>, tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o1: f32, %o2: f32):
    %m = arith.mulf %a, %c : f32
    %s = arith.subf %b, %m : f32
    linalg.yield %s, %m : f32, f32
  } -> (tensor<64xf32>, tensor<64xf32>)
  %i1 = bufferization.materialize_in_destination %r#0 in %w : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %i2 = bufferization.materialize_in_destination %r#1 in %v : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %i1, %i2 : tensor<64xf32>, tensor<64xf32>
}

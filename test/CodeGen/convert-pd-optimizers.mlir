// RUN: paddle-opt %s -convert-pd-to-linalg -split-input-file | FileCheck %s

// Tests that Nesterov momentum with Paddle's l2_decay and rescale_grad is
// one elementwise loop writing the new parameter and velocity:
// g = 2 * grad + 0.5 * p; v' = 0.9 v + g; p' = p - (g + 0.9 v') * lr.
// CHECK-LABEL: func.func @momentum
// CHECK: %[[LR:.*]] = tensor.extract
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) outs(%{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK: ^bb0(%[[P:[a-z0-9_]+]]: f32, %[[G:[a-z0-9_]+]]: f32, %[[V:[a-z0-9_]+]]: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK: %[[G2:.*]] = arith.mulf %[[G]], %{{.*}} : f32
// CHECK: %[[D:.*]] = arith.mulf %[[P]], %{{.*}} : f32
// CHECK: %[[GR:.*]] = arith.addf %[[G2]], %[[D]] : f32
// CHECK: %[[MV:.*]] = arith.mulf %[[V]], %[[MU:.*]] : f32
// CHECK: %[[NV:.*]] = arith.addf %[[MV]], %[[GR]] : f32
// CHECK: %[[LOOK:.*]] = arith.mulf %[[NV]], %[[MU]] : f32
// CHECK: %[[DIR:.*]] = arith.addf %[[GR]], %[[LOOK]] : f32
// CHECK: %[[STEP:.*]] = arith.mulf %[[DIR]], %[[LR]] : f32
// CHECK: %[[NP:.*]] = arith.subf %[[P]], %[[STEP]] : f32
// CHECK: linalg.yield %[[NP]], %[[NV]] : f32, f32
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @momentum(%p: tensor<4x3xf32>, %g: tensor<4x3xf32>, %v: tensor<4x3xf32>, %lr: tensor<1xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %p1, %v1 = pd.momentum %p, %g, %v, %lr {mu = 0.9 : f32, use_nesterov = true, regularization_method = "l2_decay", regularization_coeff = 0.5 : f32, rescale_grad = 2.0 : f32} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<1xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>)
  return %p1, %v1 : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// Tests adam: the bias-corrected step lr * sqrt(1 - b2^t) / (1 - b1^t) and
// eps * sqrt(1 - b2^t) are computed once outside the loop; the loop writes
// the parameter and both moments; the powers advance by one factor.
// CHECK-LABEL: func.func @adam
// CHECK-DAG: %[[LR:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<1xf32>
// CHECK-DAG: %[[B1P:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<1xf32>
// CHECK-DAG: %[[B2P:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<1xf32>
// CHECK: %[[OMB2:.*]] = arith.subf %{{.*}}, %[[B2P]] : f32
// CHECK: %[[SQ:.*]] = math.sqrt %[[OMB2]] : f32
// CHECK: %[[OMB1:.*]] = arith.subf %{{.*}}, %[[B1P]] : f32
// CHECK: %[[NUM:.*]] = arith.mulf %[[LR]], %[[SQ]] : f32
// CHECK: %[[SLR:.*]] = arith.divf %[[NUM]], %[[OMB1]] : f32
// CHECK: %[[EPS:.*]] = arith.mulf %{{.*}}, %[[SQ]] : f32
// CHECK: %[[R:.*]]:3 = linalg.generic
// CHECK: ^bb0(%[[P:[a-z0-9_]+]]: f32, %[[G:[a-z0-9_]+]]: f32, %[[M1:[a-z0-9_]+]]: f32, %[[M2:[a-z0-9_]+]]: f32,
// CHECK: %[[NM1:.*]] = arith.addf
// CHECK: %[[GG:.*]] = arith.mulf %[[G]], %[[G]] : f32
// CHECK: %[[NM2:.*]] = arith.addf
// CHECK: %[[S:.*]] = math.sqrt %[[NM2]] : f32
// CHECK: %[[DEN:.*]] = arith.addf %[[S]], %[[EPS]] : f32
// CHECK: %[[Q:.*]] = arith.divf %[[NM1]], %[[DEN]] : f32
// CHECK: %[[U:.*]] = arith.mulf %[[SLR]], %[[Q]] : f32
// CHECK: %[[NP:.*]] = arith.subf %[[P]], %[[U]] : f32
// CHECK: linalg.yield %[[NP]], %[[NM1]], %[[NM2]] : f32, f32, f32
// CHECK: %[[NB1:.*]] = arith.mulf %[[B1P]], %{{.*}} : f32
// CHECK: tensor.from_elements %[[NB1]] : tensor<1xf32>
// CHECK: %[[NB2:.*]] = arith.mulf %[[B2P]], %{{.*}} : f32
// CHECK: tensor.from_elements %[[NB2]] : tensor<1xf32>
func.func @adam(%p: tensor<8xf32>, %g: tensor<8xf32>, %lr: tensor<1xf32>, %m: tensor<8xf32>, %v: tensor<8xf32>, %b1: tensor<1xf32>, %b2: tensor<1xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) {
  %p1, %m1, %m2, %o1, %o2 = pd.adam %p, %g, %lr, %m, %v, %b1, %b2 : (tensor<8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>)
  return %p1, %m1, %m2, %o1, %o2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>
}

// -----

// Tests adamw's decoupled decay: the parameter is scaled by
// 1 - lr * coeff inside the loop before the adam update.
// CHECK-LABEL: func.func @adamw
// CHECK: %[[LR:.*]] = tensor.extract
// CHECK: %[[COEFF:.*]] = arith.constant 1.000000e-01 : f32
// CHECK: %[[LC:.*]] = arith.mulf %[[LR]], %[[COEFF]] : f32
// CHECK: %[[DECAY:.*]] = arith.subf %{{.*}}, %[[LC]] : f32
// CHECK: linalg.generic
// CHECK: ^bb0(%[[P:[a-z0-9_]+]]: f32,
// CHECK-NEXT: %[[PD:.*]] = arith.mulf %[[P]], %[[DECAY]] : f32
// CHECK: arith.subf %[[PD]], %{{.*}} : f32
func.func @adamw(%p: tensor<8xf32>, %g: tensor<8xf32>, %lr: tensor<1xf32>, %m: tensor<8xf32>, %v: tensor<8xf32>, %b1: tensor<1xf32>, %b2: tensor<1xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) {
  %p1, %m1, %m2, %o1, %o2 = pd.adamw %p, %g, %lr, %m, %v, %b1, %b2 {coeff = 0.1 : f32, with_decay = true} : (tensor<8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>)
  return %p1, %m1, %m2, %o1, %o2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>
}

// -----

// Tests the training dropout's counter-based mask: splitmix64 of
// seed * 0xD1B54A32D192ED03 + step * 0x9E3779B97F4A7C15 + the row-major
// index, its top 24 bits compared with p, kept values scaled by 1 / (1 - p).
// CHECK-LABEL: func.func @dropout_train
// CHECK: %[[STEP:.*]] = tensor.extract %arg1
// CHECK: %[[GOLD:.*]] = arith.constant -7046029254386353131 : i64
// CHECK: %[[SM:.*]] = arith.muli %[[STEP]], %[[GOLD]] : i64
// CHECK: %[[SEED:.*]] = arith.constant -3335678366873096957 : i64
// CHECK: %[[KEY:.*]] = arith.addi %[[SEED]], %[[SM]] : i64
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = arith.index_castui %{{.*}} : index to i64
// CHECK: arith.addi %[[KEY]], %[[I]] : i64
// CHECK: arith.shrui %{{.*}}, %{{.*}} : i64
// CHECK: %[[U:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: %[[KEEP:.*]] = arith.cmpf oge, %[[U]], %{{.*}} : f32
// CHECK: %[[S:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.select %[[KEEP]], %[[S]], %{{.*}} : f32
func.func @dropout_train(%x: tensor<4x8xf32>, %step: tensor<1xi64>) -> tensor<4x8xf32> {
  %0 = pd.dropout %x Seed(%step) {dropout_prob = 0.25 : f32, dropout_implementation = "upscale_in_train", seed = 1 : i32} : (tensor<4x8xf32>, tensor<1xi64>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// RUN: paddle-opt %s -pd-append-optimizer="optimizer=momentum lr=0.5 momentum=0.8 nesterov=true weight-decay=0.01" | FileCheck %s --check-prefix=MOM
// RUN: paddle-opt %s -pd-append-optimizer="optimizer=adam lr=0.001 beta1=0.8" | FileCheck %s --check-prefix=ADAM
// RUN: paddle-opt %s -pd-append-optimizer="optimizer=adamw" | FileCheck %s --check-prefix=ADAMW
// RUN: paddle-opt %s -pd-append-optimizer="clip-norm=2" | FileCheck %s --check-prefix=CLIP
// RUN: paddle-opt %s -pd-append-optimizer="schedule=step step-size=10 gamma=0.5 warmup-steps=4" | FileCheck %s --check-prefix=STEP
// RUN: paddle-opt %s -pd-append-optimizer="schedule=cosine total-steps=100 min-lr=0.001" | FileCheck %s --check-prefix=COS

// Tests that momentum keeps a zero velocity per parameter as a mutable
// global marked pd.optimizer_state, adds the L2 decay to the gradient, and
// stores both of pd.momentum's results back.
// MOM-DAG: ml_program.global private mutable @w_velocity_0(dense_resource<w_velocity_0> : tensor<3xf32>) : tensor<3xf32> {pd.optimizer_state, pd.stop_gradient}
// MOM-DAG: ml_program.global private mutable @w(
// MOM-LABEL: func.func @main
// MOM: pd.mean
// MOM: %[[P:.*]] = ml_program.global_load @w : tensor<3xf32>
// MOM: %[[D:.*]] = pd.scale %[[P]] {scale = 0.00999999977 : f32}
// MOM: %[[G:.*]] = pd.elementwise_add %{{.*}}, %[[D]]
// MOM: %[[V:.*]] = ml_program.global_load @w_velocity_0 : tensor<3xf32>
// MOM: %[[NP:.*]], %[[NV:.*]] = pd.momentum %[[P]], %[[G]], %[[V]], %{{.*}} {mu = 8.000000e-01 : f32, use_nesterov = true}
// MOM-DAG: ml_program.global_store @w = %[[NP]]
// MOM-DAG: ml_program.global_store @w_velocity_0 = %[[NV]]
// MOM: w_velocity_0: "0x40000000000000000000000000000000"

// Tests that adam keeps two moments per parameter and one pair of beta
// powers, starting at beta1 and beta2, advanced by the adam op.
// ADAM-DAG: ml_program.global private mutable @beta1_pow_acc_0({{.*}}) : tensor<1xf32> {pd.optimizer_state, pd.stop_gradient}
// ADAM-DAG: ml_program.global private mutable @beta2_pow_acc_0(
// ADAM-DAG: ml_program.global private mutable @w_moment1_0(
// ADAM-DAG: ml_program.global private mutable @w_moment2_0(
// ADAM-LABEL: func.func @main
// ADAM: %[[P1:.*]], %[[M1:.*]], %[[M2:.*]], %[[B1:.*]], %[[B2:.*]] = pd.adam %{{.*}} {beta1 = 8.000000e-01 : f32} :
// ADAM-DAG: ml_program.global_store @w = %[[P1]]
// ADAM-DAG: ml_program.global_store @w_moment1_0 = %[[M1]]
// ADAM-DAG: ml_program.global_store @w_moment2_0 = %[[M2]]
// ADAM-DAG: ml_program.global_store @beta1_pow_acc_0 = %[[B1]]
// ADAM-DAG: ml_program.global_store @beta2_pow_acc_0 = %[[B2]]
// ADAM-DAG: beta1_pow_acc_0: "0x40000000CDCC4C3F"

// Tests that adamw decays the parameter itself (0.01 by default), not the
// gradient (coeff's default, 0.01, is not printed).
// ADAMW-LABEL: func.func @main
// ADAMW-NOT: pd.scale
// ADAMW: pd.adamw {{.*}} {with_decay = true} :

// Tests global-norm clipping: sqrt of the summed squares, then
// g * clip / max(norm, clip) before the update.
// CLIP-LABEL: func.func @main
// CLIP: %[[SQ:.*]] = pd.square %[[G:.*]] :
// CLIP: %[[S:.*]] = pd.reduce_sum %[[SQ]]
// CLIP: %[[N:.*]] = pd.sqrt
// CLIP: %[[C:.*]] = pd.fill_any_like %[[N]] {value = 2.000000e+00 : f32}
// CLIP: %[[M:.*]] = pd.elementwise_max %[[N]], %[[C]]
// CLIP: %[[F:.*]] = pd.elementwise_div %[[C]], %[[M]]
// CLIP: %[[GC:.*]] = pd.elementwise_mul %[[G]], %[[F]]
// CLIP: pd.sgd %{{.*}}, %{{.*}}, %[[GC]]

// Tests the step schedule after a warmup: the counter is an int64 global,
// incremented and stored; lr = 0.01 * 0.5 ^ floor(max(t - 4, 0) / 10) *
// min(t / 4, 1).
// STEP-DAG: ml_program.global private mutable @"@LR_DECAY_COUNTER@"({{.*}}) : tensor<1xi64> {pd.optimizer_state, pd.stop_gradient}
// STEP-LABEL: func.func @main
// STEP: %[[T0:.*]] = ml_program.global_load @"@LR_DECAY_COUNTER@" : tensor<1xi64>
// STEP: %[[ONE:.*]] = pd.fill_constant {dtype = 3 : i32, shape = array<i64: 1>, value = 1.000000e+00 : f32} : () -> tensor<1xi64>
// STEP: %[[INC:.*]] = pd.elementwise_add %[[T0]], %[[ONE]]
// STEP: ml_program.global_store @"@LR_DECAY_COUNTER@" = %[[INC]]
// STEP: %[[T:.*]] = pd.cast %[[T0]] {in_dtype = 3 : i32, out_dtype = 5 : i32}
// STEP: %[[S0:.*]] = pd.scale %[[T]] {bias = -4.000000e+00 : f32}
// STEP: %[[S:.*]] = pd.elementwise_max %[[S0]]
// STEP: %[[K:.*]] = pd.floor
// STEP: pd.elementwise_pow
// STEP: %[[LR:.*]] = pd.scale {{.*}}scale = 0.00999999977 : f32
// STEP: %[[RAMP:.*]] = pd.elementwise_min
// STEP: %[[LRW:.*]] = pd.elementwise_mul %[[LR]], %[[RAMP]]
// STEP: pd.sgd %{{.*}}, %[[LRW]], %{{.*}}

// Tests the cosine schedule: min + (lr - min) (1 + cos(pi min(t, T) / T)) / 2.
// COS-LABEL: func.func @main
// COS: pd.elementwise_min
// COS: %[[A:.*]] = pd.scale %{{.*}} {scale = 0.0314159282 : f32}
// COS: %[[C:.*]] = pd.cos %[[A]]
// COS: %[[LR:.*]] = pd.scale %[[C]] {bias = 5.500000e-03 : f32, scale = 4.500000e-03 : f32}
// COS: pd.sgd %{{.*}}, %[[LR]], %{{.*}}
module {
  ml_program.global private @w(dense<0.5> : tensor<3xf32>) : tensor<3xf32>
  func.func @main(%x: tensor<3xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}, tensor<3xf32> {pd.grad_of = "w", pd.name = "w@GRAD"}) {
    %w = ml_program.global_load_const @w : tensor<3xf32>
    %g = pd.elementwise_mul %w, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %l = pd.mean %g : (tensor<3xf32>) -> tensor<1xf32>
    return %l, %g : tensor<1xf32>, tensor<3xf32>
  }
}

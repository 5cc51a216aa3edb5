// Tests that the train passes refuse option values they cannot build.
// RUN: not paddle-opt %s -pd-append-loss="output=probs" 2>&1 | FileCheck %s --check-prefix=OUTPUT
// RUN: not paddle-opt %s -pd-append-loss="op=cross_entropy" 2>&1 | FileCheck %s --check-prefix=LOSSOP
// RUN: not paddle-opt %s -pd-append-optimizer="optimizer=lamb" 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not paddle-opt %s -pd-append-optimizer="lr=0" 2>&1 | FileCheck %s --check-prefix=LR
// RUN: not paddle-opt %s -pd-append-optimizer="warmup-steps=-3" 2>&1 | FileCheck %s --check-prefix=WARMUP
// WARMUP: error: pd-append-optimizer: warmup-steps must be >= 0, got -3
// RUN: not paddle-opt %s -pd-append-backward="loss=nothing" 2>&1 | FileCheck %s --check-prefix=LOSS
// RUN: not paddle-opt %s -pd-append-optimizer="optimizer=adam beta2=1" 2>&1 | FileCheck %s --check-prefix=BETA
// RUN: not paddle-opt %s -pd-append-optimizer="schedule=cosine" 2>&1 | FileCheck %s --check-prefix=COSINE
// RUN: not paddle-opt %s -pd-append-optimizer="schedule=step gamma=0.5" 2>&1 | FileCheck %s --check-prefix=STEP
// RUN: not paddle-opt %s -pd-append-optimizer="schedule=linear" 2>&1 | FileCheck %s --check-prefix=SCHEDULE
// RUN: not paddle-opt %s -pd-append-optimizer="clip-norm=-1" 2>&1 | FileCheck %s --check-prefix=CLIP
// BETA: error: pd-append-optimizer: beta1 and beta2 must be in [0, 1), got 0.9 and 1
// COSINE: error: pd-append-optimizer: the cosine schedule needs total-steps > 0
// STEP: error: pd-append-optimizer: the step schedule needs step-size > 0 and gamma > 0
// SCHEDULE: error: pd-append-optimizer: unknown schedule 'linear' (expected constant, step or cosine)
// CLIP: error: pd-append-optimizer: clip-norm must be >= 0 (0: no clipping), got -1
// OUTPUT: error: pd-append-loss: @main has no result named 'probs'
// LOSSOP: error: pd-append-loss: unknown loss op 'cross_entropy' (expected softmax_with_cross_entropy)
// OPT: error: pd-append-optimizer: unknown optimizer 'lamb' (expected sgd, momentum, adam or adamw)
// LR: error: pd-append-optimizer: the learning rate must be positive, got 0
// LOSS: error: pd-append-backward: no result or variable named 'nothing'
module {
  ml_program.global private @w(dense<0.5> : tensor<3xf32>) : tensor<3xf32>
  func.func @main(%x: tensor<3xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}, tensor<3xf32> {pd.grad_of = "w", pd.name = "w@GRAD"}) {
    %w = ml_program.global_load_const @w : tensor<3xf32>
    %g = pd.elementwise_mul %w, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %l = pd.mean %g : (tensor<3xf32>) -> tensor<1xf32>
    return %l, %g : tensor<1xf32>, tensor<3xf32>
  }
}

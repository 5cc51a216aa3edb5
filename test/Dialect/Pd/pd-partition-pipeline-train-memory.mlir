// RUN: paddle-opt %s -pd-partition-devices="mode=pipeline devices=2 micro-batches=1 train-phase=forward stage-memory-mb=0.05" | FileCheck %s --check-prefix=SGD
// RUN: paddle-opt %s -pd-partition-devices="mode=pipeline devices=2 micro-batches=1 train-phase=forward stage-memory-mb=0.05 param-copies=3" | FileCheck %s --check-prefix=ADAM

// In training a stage holds each trainable parameter it owns with its
// optimizer state. The relu of the 4 MiB input costs most, so by time the
// two 16 KiB parameters go to stage 1: within 0.05 MiB (52428 bytes) with
// one copy each (sgd), not with three (Adam: 96 KiB), where the fastest cut
// that fits gives w1 to stage 0.
// SGD: pd.relu %arg0 {pd.stage = 0 : i64}
// SGD: pd.matmul_v2 %arg1, %w1 {pd.stage = 1 : i64}
// SGD: pd.matmul_v2 %{{.*}}, %w2 {pd.stage = 1 : i64}
// ADAM: pd.relu %arg0 {pd.stage = 0 : i64}
// ADAM: pd.matmul_v2 %arg1, %w1 {pd.stage = 0 : i64}
// ADAM: pd.matmul_v2 %{{.*}}, %w2 {pd.stage = 1 : i64}
module {
  ml_program.global private @w1(dense<1.0> : tensor<64x64xf32>) : tensor<64x64xf32>
  ml_program.global private @w2(dense<2.0> : tensor<64x64xf32>) : tensor<64x64xf32>
  func.func @main(%x: tensor<8x131072xf32> {pd.name = "x"}, %y: tensor<8x64xf32> {pd.name = "y"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %w1 = ml_program.global_load_const @w1 : tensor<64x64xf32>
    %w2 = ml_program.global_load_const @w2 : tensor<64x64xf32>
    %a = pd.relu %x : (tensor<8x131072xf32>) -> tensor<8x131072xf32>
    %s = pd.mean %a : (tensor<8x131072xf32>) -> tensor<1xf32>
    %b = pd.matmul_v2 %y, %w1 : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %c = pd.matmul_v2 %b, %w2 : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %m = pd.mean %c : (tensor<8x64xf32>) -> tensor<1xf32>
    %l = pd.elementwise_add %s, %m : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    return %l : tensor<1xf32>
  }
}

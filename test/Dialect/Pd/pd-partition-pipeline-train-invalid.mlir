// RUN: not paddle-opt %s -pd-partition-devices="mode=pipeline devices=2 train-phase=stages" 2>&1 | FileCheck %s

// A pipeline stage must own each parameter it updates: a train step that
// stores one global twice has no single owner.
// CHECK: error: pd-partition-devices: 'w' is stored twice in one train step; a pipeline stage must own each parameter
module attributes {pd.pipeline_train = {batch = 2 : i64, micro_batches = 1 : i64}} {
  ml_program.global private mutable @w(dense<0.5> : tensor<2xf32>) : tensor<2xf32>
  func.func @main(%x: tensor<2xf32> {pd.name = "x"}) -> (tensor<2xf32> {pd.name = "y"}) {
    %w = ml_program.global_load @w : tensor<2xf32>
    %a = pd.elementwise_add %x, %w {pd.stage = 0 : i64, pd.micro = 0 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %b = pd.relu %a {pd.stage = 1 : i64, pd.micro = 0 : i64} : (tensor<2xf32>) -> tensor<2xf32>
    ml_program.global_store @w = %a : tensor<2xf32>
    ml_program.global_store @w = %b : tensor<2xf32>
    return %b : tensor<2xf32>
  }
}


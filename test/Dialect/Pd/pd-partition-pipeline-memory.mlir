// RUN: paddle-opt %s --pd-partition-devices="mode=pipeline devices=2 micro-batches=1" | FileCheck %s --check-prefix=TIME
// RUN: paddle-opt %s --pd-partition-devices="mode=pipeline devices=2 micro-batches=1 stage-memory-mb=0.02" | FileCheck %s --check-prefix=CAP
// RUN: paddle-opt %s --pd-partition-devices="mode=pipeline devices=2 micro-batches=1 stage-memory-mb=0.01" --verify-diagnostics -o /dev/null
// RUN: not paddle-opt %s --pd-partition-devices="mode=data devices=2 stage-memory-mb=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not paddle-opt %s --pd-partition-devices="mode=pipeline devices=2 stage-memory-mb=-1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MODE

// The relu of the 4 MiB input costs most: cut by time alone, stage 1 gets
// both matmuls and their two 16 KiB weights (32 KiB). With a limit of
// 0.02 MiB (20971 bytes) per stage, the fastest cut that fits moves the
// first matmul to stage 0: each stage then holds one weight. Below 16 KiB
// no cut fits, and the error gives the smallest limit that does.
// TIME: stages = [{{.*}}ops = 1 : i64, {{.*}}stage = 0 : i64, weights = []}, {{.*}}ops = 2 : i64, {{.*}}stage = 1 : i64, weights = ["w1", "w2"]}]
// The limit belongs to a pipeline cut, and cannot be negative.
// MODE: error: pd-partition-devices: stage-memory-mb (>= 0) and param-copies (>= 1) apply to mode=pipeline
// CAP: stages = [{{.*}}ops = 2 : i64, {{.*}}stage = 0 : i64, weights = ["w1"]}, {{.*}}ops = 1 : i64, {{.*}}stage = 1 : i64, weights = ["w2"]}]
module {
  ml_program.global private @w1(dense<1.0> : tensor<64x64xf32>) : tensor<64x64xf32>
  ml_program.global private @w2(dense<2.0> : tensor<64x64xf32>) : tensor<64x64xf32>
  // expected-error @+1 {{pd-partition-devices: no cut into 2 pipeline stages keeps every stage's weights within 0.01 MiB (stage-memory-mb); the smallest limit that does is 0.02 MiB}}
  func.func @main(%x: tensor<1024x1024xf32> {pd.name = "x"}, %y: tensor<1x64xf32> {pd.name = "y"}) -> (tensor<1024x1024xf32> {pd.name = "a"}, tensor<1x64xf32> {pd.name = "c"}) {
    %w1 = ml_program.global_load_const @w1 : tensor<64x64xf32>
    %w2 = ml_program.global_load_const @w2 : tensor<64x64xf32>
    %a = pd.relu %x : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %b = pd.matmul_v2 %y, %w1 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
    %c = pd.matmul_v2 %b, %w2 : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
    return %a, %c : tensor<1024x1024xf32>, tensor<1x64xf32>
  }
}

// RUN: paddle-opt %s --pd-partition-devices="mode=data devices=2 gather-outputs=false" | FileCheck %s
// RUN: not paddle-opt %s --pd-partition-devices="mode=data devices=1" 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not paddle-opt %s --pd-partition-devices="mode=rows devices=2" 2>&1 | FileCheck %s --check-prefix=MODE
// ONE: error: pd-partition-devices: devices must be >= 2, got 1
// MODE: error: pd-partition-devices: mode 'rows' is not supported (data or pipeline)

// gather-outputs=false (data-parallel training, before backward): the
// inputs are split and the types follow the part, but each output stays the
// rank's own: the loss of its part, not gathered.
// CHECK-LABEL: func.func @main(%arg0: tensor<8x3xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}, tensor<4x3xf32> {pd.name = "h"})
// CHECK: %[[X:.*]] = pd.shard_batch %arg0 {devices = 2 : i32} : (tensor<8x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[H:.*]] = pd.relu %[[X]] : (tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[L:.*]] = pd.mean %[[H]] : (tensor<4x3xf32>) -> tensor<1xf32>
// CHECK-NOT: c_allgather
// CHECK: return %[[L]], %[[H]]
module {
  func.func @main(%x: tensor<8x3xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}, tensor<8x3xf32> {pd.name = "h"}) {
    %h = pd.relu %x : (tensor<8x3xf32>) -> tensor<8x3xf32>
    %l = pd.mean %h : (tensor<8x3xf32>) -> tensor<1xf32>
    return %l, %h : tensor<1xf32>, tensor<8x3xf32>
  }
}


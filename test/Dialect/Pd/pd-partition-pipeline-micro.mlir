// RUN: paddle-opt %s --pd-partition-devices="mode=pipeline devices=2 micro-batches=2" --verify-diagnostics

// Micro-batches need a static batch to slice.
module {
  // expected-error @+1 {{pd-partition-devices: 2 micro-batches need every input to share a static batch along dim 0}}
  func.func @main(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
    %r = pd.relu %x : (tensor<?x3xf32>) -> tensor<?x3xf32>
    %s = pd.relu %r : (tensor<?x3xf32>) -> tensor<?x3xf32>
    return %s : tensor<?x3xf32>
  }
}

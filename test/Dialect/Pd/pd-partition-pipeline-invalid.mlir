// RUN: paddle-opt %s --split-input-file --pd-partition-devices="mode=pipeline devices=2" --verify-diagnostics

module {
  // expected-error @+1 {{pd-partition-devices: the program has 1 op that computes, too few to cut into 2 pipeline stages of at least one op}}
  func.func @main(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
    %r = pd.relu %x : (tensor<4x3xf32>) -> tensor<4x3xf32>
    return %r : tensor<4x3xf32>
  }
}

// -----

// A dynamic batch: what crosses the cut has no static shape to receive.
module {
  func.func @main(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
    // expected-error @+1 {{this value passes from pipeline stage 0 to stage 1 with a dynamic shape ('tensor<?x3xf32>'); stages exchange static shapes}}
    %r = pd.relu %x : (tensor<?x3xf32>) -> tensor<?x3xf32>
    %s = pd.relu %r : (tensor<?x3xf32>) -> tensor<?x3xf32>
    return %s : tensor<?x3xf32>
  }
}

// -----

// Two micro-batches (the default for a batch of 4 on 2 devices) cannot be
// joined along a batch the output does not keep.
module {
  func.func @main(%x: tensor<4x3xf32> {pd.name = "x"}) -> (tensor<1xf32> {pd.name = "loss"}) {
    %r = pd.relu %x : (tensor<4x3xf32>) -> tensor<4x3xf32>
    %m = pd.reduce_mean %r {reduce_all = true} : (tensor<4x3xf32>) -> tensor<1xf32>
    // expected-error @+1 {{output 'loss' ('tensor<1xf32>') does not keep the batch along dim 0 (its micro-batch is 'tensor<1xf32>'), so the micro-batches cannot be joined; use micro-batches=1}}
    return %m : tensor<1xf32>
  }
}

// -----

module {
  func.func @main(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
    // expected-error @+1 {{the program already communicates ('pd.c_allreduce_sum')}}
    %s = pd.c_allreduce_sum %x : (tensor<4x3xf32>) -> tensor<4x3xf32>
    %r = pd.relu %s : (tensor<4x3xf32>) -> tensor<4x3xf32>
    return %r : tensor<4x3xf32>
  }
}

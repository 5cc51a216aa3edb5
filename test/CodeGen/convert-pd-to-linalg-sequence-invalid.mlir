// RUN: paddle-opt %s -convert-pd-to-linalg -split-input-file -verify-diagnostics

// Tests that a sequence op on rows that are no LoD batch (no Lengths) is
// refused at code generation with what it needs.
func.func @softmax_without_lengths(%x: tensor<?x1xf32>) -> tensor<?x1xf32> {
  // expected-error @+2 {{needs the sequence lengths of a LoD input; its input carries no LoD}}
  // expected-error @+1 {{code generation cannot compile 'pd.sequence_softmax'}}
  %y = pd.sequence_softmax %x : (tensor<?x1xf32>) -> tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}

// -----

// Tests that the sequence kernels take fp32 rows with int64 lengths.
func.func @softmax_f64(%x: tensor<?x1xf64>, %n: tensor<?xi64>) -> tensor<?x1xf64> {
  // expected-error @+2 {{is computed in fp32 with int64 sequence lengths, got 'tensor<?x1xf64>' and 'tensor<?xi64>'}}
  // expected-error @+1 {{code generation cannot compile 'pd.sequence_softmax'}}
  %y = pd.sequence_softmax %x Lengths(%n) : (tensor<?x1xf64>, tensor<?xi64>) -> tensor<?x1xf64>
  return %y : tensor<?x1xf64>
}

// -----

// Tests that sequence_expand needs int64 lengths.
func.func @expand_i32_lengths(%x: tensor<2x3xf32>, %y: tensor<?x4xf32>, %n: tensor<2xi32>) -> tensor<?x3xf32> {
  // expected-error @+2 {{needs Y's int64 sequence lengths}}
  // expected-error @+1 {{code generation cannot compile 'pd.sequence_expand_as'}}
  %e = pd.sequence_expand_as %x, %y Lengths(%n) : (tensor<2x3xf32>, tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x3xf32>
  return %e : tensor<?x3xf32>
}

// With index-bitwidth=32 (what --pd-lower-to-gpu passes by default) a
// buffer of 2^31 elements or more is named instead of being indexed
// wrongly; below that the nest maps as usual.
// RUN: paddle-opt %s --split-input-file --verify-diagnostics --pd-gpu-map-loops="index-bitwidth=32" | FileCheck %s
// RUN: not paddle-opt %s --split-input-file --pd-gpu-map-loops="index-bitwidth=16" 2>&1 | FileCheck %s --check-prefix=WIDTH
// WIDTH: error: index-bitwidth must be 32 or 64, not 16

// CHECK-LABEL: func.func @fits
// CHECK:         scf.parallel
func.func @fits(%in: memref<32768x65535xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32768 = arith.constant 32768 : index
  scf.parallel (%i) = (%c0) to (%c32768) step (%c1) {
    %v = memref.load %in[%i, %c0] : memref<32768x65535xf32>
    memref.store %v, %in[%i, %c1] : memref<32768x65535xf32>
  }
  return
}

// -----

func.func @too_large(%in: memref<32768x65536xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32768 = arith.constant 32768 : index
  scf.parallel (%i) = (%c0) to (%c32768) step (%c1) {
    // expected-error @+1 {{32-bit kernel indexing (index-bitwidth=32) cannot address 'memref<32768x65536xf32>' (2147483648 elements); compile with --cuda-index-bitwidth 64 (index-bitwidth=64)}}
    %v = memref.load %in[%i, %c0] : memref<32768x65536xf32>
    memref.store %v, %in[%i, %c1] : memref<32768x65536xf32>
  }
  return
}

// An unknown chip, or a PTX version older than the chip needs, is an error
// naming both (LLVM's NVPTX backend would abort); without `ptx` the
// pipeline picks PTX 8.0 or the first version that has the chip.
// RUN: not paddle-opt %s --pd-lower-to-gpu="format=isa chip=sm_99" 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: unknown CUDA architecture 'sm_99' (known: sm_50 to sm_90a, sm_100, sm_101, sm_120 and their 'a' forms)
// RUN: not paddle-opt %s --pd-lower-to-gpu="format=isa chip=sm_100 ptx=+ptx80" 2>&1 | FileCheck %s --check-prefix=OLD
// OLD: error: PTX 8.0 (+ptx80) cannot target sm_100, which needs PTX 8.6 or later
// RUN: not paddle-opt %s --pd-lower-to-gpu="format=isa ptx=8.0" 2>&1 | FileCheck %s --check-prefix=SPELL
// SPELL: error: the PTX version must be written +ptxNN (e.g. +ptx80), not '8.0'
// RUN: paddle-opt %s --pd-lower-to-gpu="format=isa chip=sm_100" | FileCheck %s --check-prefix=SM100
// SM100: .version 8.6
// SM100-SAME: .target sm_100
// RUN: paddle-opt %s --pd-lower-to-gpu="format=isa chip=sm_120a" | FileCheck %s --check-prefix=SM120A
// SM120A: .version 8.7
// SM120A-SAME: .target sm_120a
// RUN: paddle-opt %s --pd-lower-to-gpu="format=isa" | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: .version 8.0
// DEFAULT-SAME: .target sm_90
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = pd.relu %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

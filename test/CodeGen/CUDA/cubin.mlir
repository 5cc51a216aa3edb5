// REQUIRES: ptxas
// RUN: paddle-opt %s --pd-lower-to-gpu="toolkit=%cuda_toolkit" | FileCheck %s
// RUN: not paddle-opt %s --pd-lower-to-gpu="toolkit=%t.no-toolkit" 2>&1 | FileCheck %s --check-prefix=NOTOOLKIT

// The kernels of a softmax (reductions and elementwise ops) assembled by
// the toolkit's ptxas into sm_90 cubins (ELF) in gpu.binary ops; a
// toolkit that is not there is a clear error.
// CHECK:       func.func @main(
// CHECK-COUNT-6: gpu.launch_func
// CHECK:       gpu.binary @main_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, properties = {ISAToBinaryTimeInMs{{.*}}bin = "\7FELF
// NOTOOLKIT:   error: CUDA path: {{.*}}no-toolkit does not exist or is not a directory
func.func @main(%x: tensor<32x1000xf32>) -> tensor<32x1000xf32> {
  %y = pd.softmax %x {axis = -1 : i32} : (tensor<32x1000xf32>) -> tensor<32x1000xf32>
  return %y : tensor<32x1000xf32>
}

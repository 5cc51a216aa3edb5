// RUN: paddle-opt %s -convert-pd-to-linalg -pd-fuse-elementwise | FileCheck %s

// Tests that an elementwise chain fuses into one generic, but an elementwise
// producer is not pushed into the matmul reduction that reads it (which
// would recompute it once per reduction step).
// CHECK-LABEL: func.func @gelu_then_matmul
// CHECK: %[[G:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: math.erf
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]{{.*}} ins(%[[G]],
// CHECK-NOT: math.erf
func.func @gelu_then_matmul(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %0 = pd.scale %x {scale = 2.0 : f32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = pd.gelu %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = pd.matmul_v2 %1, %w : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %2 : tensor<4x2xf32>
}

// RUN: paddle-opt %s -pd-observe-activations | FileCheck %s --check-prefix=OBS
// RUN: echo '{"tensors": {"p": {"threshold": 2.55, "unsigned": true}, "v": {"threshold": 2.54, "unsigned": true}}}' > %t.ranges.json
// RUN: paddle-opt %s -pd-insert-quantizers="ranges=%t.ranges.json" | FileCheck %s --check-prefix=INS
// RUN: paddle-opt %s -pd-insert-quantizers="ranges=%t.ranges.json" -pd-quantize | FileCheck %s --check-prefix=QNT

// Calibration of a product of two activations (an attention's P x V): both
// operands are observed (named results of @main) and quantized. The left
// one, never negative, becomes uint8 (step 2.55 / 255 = 0.01); the right
// one is int8 whatever its range says (2.54 / 127 = 0.02), as the int8
// product takes a signed right-hand side; pd-quantize then makes one
// pd.quantized_matmul of them. A product by a constant has no second
// activation (only its left operand, the first product's result, is
// observed).
// OBS-LABEL: func.func @main
// OBS-SAME: -> (tensor<2x4x8xf32> {pd.name = "out"}, tensor<2x4x4xf32> {pd.name = "p"}, tensor<2x4x8xf32> {pd.name = "v"}, tensor<2x4x8xf32> {pd.name = "matmul_v2.out"})
// OBS: pd.matmul_v2 {{.*}}pd.layer = 0 : i64
// OBS: pd.matmul_v2 {{.*}}pd.layer = 1 : i64
// OBS: return %{{.*}}, %arg0, %arg1, %{{.*}} :

// INS-LABEL: func.func @main
// INS-DAG: %[[QP:.*]] = pd.quantize %arg0 {dtype = "uint8", scale = 0.00999999977 : f32}
// INS-DAG: %[[DP:.*]] = pd.dequantize %[[QP]] {pd.calibrated
// INS-DAG: %[[QV:.*]] = pd.quantize %arg1 {scale = 2.000000e-02 : f32} : (tensor<2x4x8xf32>) -> tensor<2x4x8xi8>
// INS-DAG: %[[DV:.*]] = pd.dequantize %[[QV]] {pd.calibrated
// INS: pd.matmul_v2 %[[DP]], %[[DV]]

// QNT-LABEL: func.func @main
// QNT: pd.quantized_matmul %{{.*}}, %{{.*}} {pd.layer = 0 : i64, pd.quantized_from = "matmul_v2", x_scale = 0.00999999977 : f32, y_scale = 2.000000e-02 : f32} : (tensor<2x4x4xui8>, tensor<2x4x8xi8>) -> tensor<2x4x8xf32>
module {
  ml_program.global private @w(dense<0.5> : tensor<8x8xf32>) : tensor<8x8xf32>
  func.func @main(%p: tensor<2x4x4xf32> {pd.name = "p"}, %v: tensor<2x4x8xf32> {pd.name = "v"}) -> (tensor<2x4x8xf32> {pd.name = "out"}) {
    %o = pd.matmul_v2 %p, %v : (tensor<2x4x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %w = ml_program.global_load_const @w : tensor<8x8xf32>
    %r = pd.matmul_v2 %o, %w : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    return %r : tensor<2x4x8xf32>
  }
}

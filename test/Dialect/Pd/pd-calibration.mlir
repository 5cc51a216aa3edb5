// RUN: paddle-opt %s -pd-observe-activations | FileCheck %s --check-prefix=OBS
// RUN: echo '{"tensors": {"image": {"threshold": 2.54}, "conv2d_0.tmp_0": {"threshold": 5.1, "unsigned": true}}}' > %t.ranges.json
// RUN: paddle-opt %s -pd-insert-quantizers="ranges=%t.ranges.json" | FileCheck %s --check-prefix=INS
// RUN: paddle-opt %s -pd-insert-quantizers="ranges=%t.ranges.json" -pd-quantize | FileCheck %s --check-prefix=QNT
// RUN: paddle-opt %s -pd-insert-quantizers="ranges=%t.ranges.json fp32-layers=1" -pd-quantize | FileCheck %s --check-prefix=FB
// RUN: echo '{"tensors": {"nope": {"threshold": 1.0}}}' > %t.unknown.json
// RUN: not paddle-opt %s -pd-insert-quantizers="ranges=%t.unknown.json" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: echo '{"tensors": {"image": {"threshold": -1}}}' > %t.negative.json
// RUN: not paddle-opt %s -pd-insert-quantizers="ranges=%t.negative.json" 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not paddle-opt %s -pd-insert-quantizers="ranges=%t.absent.json" 2>&1 | FileCheck %s --check-prefix=ABSENT
// RUN: not paddle-opt %s -pd-insert-quantizers="ranges=%t.ranges.json fp32-layers=7" 2>&1 | FileCheck %s --check-prefix=LAYER

// The candidate layers are numbered in program order; each distinct float
// activation they read becomes one named result of @main (the image once,
// the conv output once though two layers read it). The QAT layer's input
// (a fake quantizer's output) is the program's own business and is not
// observed.
// OBS-LABEL: func.func @main
// OBS-SAME: -> (tensor<1x4xf32> {pd.name = "out"}, tensor<1x1x4x4xf32> {pd.name = "image"}, tensor<1x2x4x4xf32> {pd.name = "conv2d_0.tmp_0"})
// OBS: pd.fused_conv2d {{.*}}pd.layer = 0 : i64
// OBS: pd.mul {{.*}}pd.layer = 1 : i64
// OBS: pd.mul {{.*}}pd.layer = 2 : i64
// OBS: pd.mul {{.*}}pd.layer = 3 : i64
// OBS: return %{{.*}}, %arg0, %{{.*}} :

// A signed tensor gets int8 with step T / 127 = 0.02 (dtype and zero point
// at their defaults, so not printed), an unsigned one uint8 with T / 255 =
// 0.02; one pair per tensor, right after its definition, read by every
// layer that reads the tensor; the QAT layer keeps its own quantizer.
// INS-LABEL: func.func @main
// INS: %[[Q0:.*]] = pd.quantize %arg0 {scale = 2.000000e-02 : f32} : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xi8>
// INS: %[[D0:.*]] = pd.dequantize %[[Q0]] {pd.calibrated, scale = 2.000000e-02 : f32}
// INS: %[[C:.*]] = pd.fused_conv2d %[[D0]]
// INS: %[[Q1:.*]] = pd.quantize %[[C]] {dtype = "uint8", scale = 2.000000e-02 : f32} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xui8>
// INS: %[[D1:.*]] = pd.dequantize %[[Q1]] {pd.calibrated
// INS: pd.mul %[[D1]]
// INS: pd.mul %[[D1]]
// INS: pd.fake_quantize_dequantize_moving_average_abs_max
// INS-NOT: pd.quantize
// INS: return

// pd-quantize makes int8 kernels of them: the conv writes the uint8 tensor
// both muls read (the requantization folded into its output scale), and
// no calibrated pair is left.
// QNT-LABEL: func.func @main
// QNT: %[[X:.*]] = pd.quantize %arg0 {scale = 2.000000e-02 : f32}
// QNT: %[[C:.*]] = pd.quantized_conv2d %[[X]], {{.*}}input_scale = 2.000000e-02 : f32, out_dtype = "uint8", output_scale = 2.000000e-02 : f32{{.*}} -> tensor<1x2x4x4xui8>
// QNT: pd.quantized_fc %[[C]], {{.*}}input_scale = 2.000000e-02 : f32{{.*}}: (tensor<1x2x4x4xui8>
// QNT: pd.quantized_fc %[[C]], {{.*}}: (tensor<1x2x4x4xui8>
// QNT: pd.quantized_fc
// QNT-NOT: pd.dequantize
// QNT: return

// fp32-layers=1: the first mul stays float32, reads the float conv output
// (not the calibrated quantizer), and says why; the conv then writes float,
// as a float op reads it.
// FB-LABEL: func.func @main
// FB: %[[C:.*]] = pd.quantized_conv2d {{.*}} -> tensor<1x2x4x4xf32>
// FB: pd.mul %[[C]], %{{.*}} {pd.fp32_reason = "fp32-layers"
// FB: pd.quantize %[[C]] {dtype = "uint8"
// FB: pd.quantized_fc

// UNKNOWN: error: pd-insert-quantizers: '{{.*}}unknown.json': tensor 'nope' is not the activation of any layer
// NEG: error: pd-insert-quantizers: '{{.*}}negative.json': tensor 'image' has no positive finite "threshold"
// ABSENT: error: pd-insert-quantizers: '{{.*}}absent.json': cannot read it
// LAYER: error: pd-insert-quantizers: '{{.*}}ranges.json': fp32-layers names layer 7, but the model has 4
module {
  ml_program.global private @w(dense<[[[[0.5]]], [[[-1.0]]]]> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
  ml_program.global private @f1(dense<0.25> : tensor<32x4xf32>) : tensor<32x4xf32>
  ml_program.global private @f2(dense<-0.5> : tensor<32x4xf32>) : tensor<32x4xf32>
  ml_program.global private @f3(dense<1.0> : tensor<4x4xf32>) : tensor<4x4xf32>
  ml_program.global private @s(dense<3.0> : tensor<1xf32>) : tensor<1xf32>
  func.func @main(%x: tensor<1x1x4x4xf32> {pd.name = "image"}) -> (tensor<1x4xf32> {pd.name = "out"}) {
    %w = ml_program.global_load_const @w : tensor<2x1x1x1xf32>
    %f1 = ml_program.global_load_const @f1 : tensor<32x4xf32>
    %f2 = ml_program.global_load_const @f2 : tensor<32x4xf32>
    %f3 = ml_program.global_load_const @f3 : tensor<4x4xf32>
    %s = ml_program.global_load_const @s : tensor<1xf32>
    %r = pd.fused_conv2d %x, %w {fuse_activation = "relu"} : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32> loc("conv2d #1 -> conv2d_0.tmp_0")
    %m1 = pd.mul %r, %f1 {x_num_col_dims = 1 : i32, y_num_col_dims = 1 : i32} : (tensor<1x2x4x4xf32>, tensor<32x4xf32>) -> tensor<1x4xf32> loc("mul #3 -> mul_0.tmp_0")
    %m2 = pd.mul %r, %f2 {x_num_col_dims = 1 : i32, y_num_col_dims = 1 : i32} : (tensor<1x2x4x4xf32>, tensor<32x4xf32>) -> tensor<1x4xf32> loc("mul #4 -> mul_1.tmp_0")
    %a = pd.elementwise_add %m1, %m2 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32> loc("elementwise_add #5 -> add_0.tmp_0")
    %q, %qs = pd.fake_quantize_dequantize_moving_average_abs_max %a, %s {is_test = true} : (tensor<1x4xf32>, tensor<1xf32>) -> (tensor<1x4xf32>, tensor<1xf32>)
    %m3 = pd.mul %q, %f3 {x_num_col_dims = 1 : i32, y_num_col_dims = 1 : i32} : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32> loc("mul #6 -> out")
    return %m3 : tensor<1x4xf32>
  }
}

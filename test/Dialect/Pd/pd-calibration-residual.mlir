// RUN: paddle-opt %s -pd-observe-activations | FileCheck %s --check-prefix=OBS
// RUN: echo '{"tensors": {"x": {"threshold": 2.54}, "shortcut": {"threshold": 1.27}}}' > %t.ranges.json
// RUN: paddle-opt %s -pd-insert-quantizers="ranges=%t.ranges.json" | FileCheck %s --check-prefix=INS
// RUN: paddle-opt %s -pd-insert-quantizers="ranges=%t.ranges.json" -pd-quantize | FileCheck %s --check-prefix=QNT

// Calibration of a downsampling block's residual: the shortcut conv's
// output, which no layer reads as its input, is observed as a tensor of
// its own (the block's last conv adds it) and gets a calibrated pair
// (1.27 / 127 = 0.01). pd-quantize has the last conv read the pair's int8
// tensor with that residual_scale, and the shortcut conv, whose only
// reader is then the quantizer, writes that int8 tensor itself.
// OBS-LABEL: func.func @main
// OBS-SAME: -> (tensor<1x2x2x2xf32> {pd.name = "out"}, tensor<1x1x2x2xf32> {pd.name = "x"}, tensor<1x2x2x2xf32> {pd.name = "shortcut"})

// INS-LABEL: func.func @main
// INS: %[[S:.*]] = pd.fused_conv2d %{{.*}}, %{{.*}} {pd.layer = 0 : i64}
// INS: %[[Q:.*]] = pd.quantize %[[S]] {scale = 0.00999999977 : f32} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xi8>
// INS: %[[D:.*]] = pd.dequantize %[[Q]] {pd.calibrated
// INS: pd.fused_conv2d %{{.*}}, %{{.*}} ResidualData(%[[D]])

// QNT-LABEL: func.func @main
// QNT: %[[S:.*]] = pd.quantized_conv2d {{.*}}out_dtype = "int8", output_scale = 0.00999999977 : f32{{.*}} -> tensor<1x2x2x2xi8>
// QNT: pd.quantized_conv2d %{{.*}}, %{{.*}} ResidualData(%[[S]]) {{{.*}}residual_scale = 0.00999999977 : f32{{.*}}} : (tensor<1x1x2x2xi8>, tensor<2x1x1x1xi8>, tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xf32>
module {
  ml_program.global private @w0(dense<0.5> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
  ml_program.global private @w1(dense<0.25> : tensor<2x1x1x1xf32>) : tensor<2x1x1x1xf32>
  func.func @main(%x: tensor<1x1x2x2xf32> {pd.name = "x"}) -> (tensor<1x2x2x2xf32> {pd.name = "out"}) {
    %w0 = ml_program.global_load_const @w0 : tensor<2x1x1x1xf32>
    %w1 = ml_program.global_load_const @w1 : tensor<2x1x1x1xf32>
    %s = pd.fused_conv2d %x, %w1 : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32> loc("conv2d #1 -> shortcut")
    %y = pd.fused_conv2d %x, %w0 ResidualData(%s) {fuse_activation = "relu"} : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> loc("conv2d #2 -> out")
    return %y : tensor<1x2x2x2xf32>
  }
}

//===- PdQuantOps.td - int8 tensors and int8 compute ops --------*- tablegen -*-===//
//
// The quantized IR of --precision int8 (docs/Quantization.md). Int8 data
// are plain builtin tensors of i8 (signed) or ui8 (unsigned); the affine
// map to real values (scale, zero point) is an attribute of the op that
// produces or reads them, so it shows in paddle-opt output next to the
// op. The compute ops say everything their kernel needs: the activation's
// per-tensor scale, the weight's per-output-channel scales, and, when
// their result is int8, the result's scale.
//
// Rounding is to nearest with ties to even everywhere (as oneDNN's
// requantization), saturating to [-127, 127] for i8 produced by
// pd.quantize (symmetric, like Paddle's abs-max quantizers) and [0, 255]
// for ui8.
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_DIALECT_PD_IR_PDQUANTOPS_TD
#define PADDLEMLIR_DIALECT_PD_IR_PDQUANTOPS_TD

include "PaddleMLIR/Dialect/Pd/IR/PdBase.td"

def Pd_Int8Tensor : RankedTensorOf<[I8, UI8]>;
def Pd_QuantDtype : Pd_StrIn<["int8", "uint8"]>;
def Pd_QuantOutDtype : Pd_StrIn<["float32", "int8", "uint8"]>;

def Pd_QuantizeOp : Pd_Op<"quantize"> {
  let summary = "float32 -> int8: saturate(round(X / scale) + zero_point)";
  let description = [{
    Quantizes a float32 tensor per tensor. `dtype` chooses the result's
    element type (`int8`: i8 saturated to [-127, 127], or to [-128, 127]
    with `full_range`, as Paddle's round_type 0 quantizers clamp; `uint8`:
    ui8 saturated to [0, 255]). Produced by `pd-quantize`.

    Example:

    ```mlir
    %q = pd.quantize %x {scale = 0.02 : f32, zero_point = 0 : i32, dtype = "int8"}
        : (tensor<?x16x8x8xf32>) -> tensor<?x16x8x8xi8>
    ```
  }];
  let arguments = (ins
    RankedTensorOf<[F32]>:$X,
    ConfinedAttr<F32Attr, [Pd_F32Min<"1e-30">]>:$scale,
    DefaultValuedAttr<Pd_I32Attr, "0">:$zero_point,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_QuantDtype]>, "int8">:$dtype,
    UnitAttr:$full_range
  );
  let results = (outs Pd_Int8Tensor:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_DequantizeOp : Pd_Op<"dequantize"> {
  let summary = "int8 -> float32: (X - zero_point) * scale";
  let description = [{
    The real values of an int8 tensor, per tensor.

    Example:

    ```mlir
    %y = pd.dequantize %q {scale = 0.02 : f32, zero_point = 0 : i32}
        : (tensor<?x16x8x8xi8>) -> tensor<?x16x8x8xf32>
    ```
  }];
  let arguments = (ins
    Pd_Int8Tensor:$X,
    ConfinedAttr<F32Attr, [Pd_F32Min<"1e-30">]>:$scale,
    DefaultValuedAttr<Pd_I32Attr, "0">:$zero_point
  );
  let results = (outs RankedTensorOf<[F32]>:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_QuantizedConv2dOp : Pd_Op<"quantized_conv2d", [AttrSizedOperandSegments]> {
  let summary = "int8 conv2d: activation(conv2d(Input, Filter) + Bias [+ ResidualData]) in real units";
  let description = [{
    An int8 convolution (plain, grouped or depthwise, NCHW). `Input` holds
    `input_scale * Input` (i8 or ui8, zero point 0), `Filter` (i8, a model
    constant, [O, I/groups, KH, KW]) holds `filter_scales[o] * Filter[o]`
    per output channel. `Bias` is float32 real values; `ResidualData`
    (added before the activation) is float32 real values, or int8 / uint8
    holding `residual_scale * ResidualData` (the tensors between ResNet's
    blocks). The activation (`fuse_activation`, `fuse_alpha`, `fuse_beta`
    as on `pd.fused_conv2d`) acts on real values. With `out_dtype =
    "float32"` the result is the real value; with `int8` / `uint8` it is
    requantized by `output_scale` (a float32 residual then is not
    allowed). Convolution attributes are those of `pd.conv2d`.

    Example:

    ```mlir
    %y = pd.quantized_conv2d %xq, %wq Bias(%b) {input_scale = 0.02 : f32,
        filter_scales = array<f32: 0.01, 0.03>, fuse_activation = "relu"}
        : (tensor<?x3x8x8xi8>, tensor<2x3x3x3xi8>, tensor<2xf32>) -> tensor<?x2x6x6xf32>
    ```
  }];
  let arguments = (ins
    Pd_Int8Tensor:$Input,
    RankedTensorOf<[I8]>:$Filter,
    Optional<RankedTensorOf<[F32]>>:$Bias,
    Optional<RankedTensorOf<[F32, I8, UI8]>>:$ResidualData,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$strides,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[2, 4]>]>, "{0, 0}">:$paddings,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["EXPLICIT", "SAME", "VALID"]>]>, "EXPLICIT">:$padding_algorithm,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$groups,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$dilations,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW"]>]>, "NCHW">:$data_format,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_FusedActivation]>, "">:$fuse_activation,
    DefaultValuedAttr<F32Attr, "0.0">:$fuse_alpha,
    DefaultValuedAttr<F32Attr, "0.0">:$fuse_beta,
    ConfinedAttr<F32Attr, [Pd_F32Min<"1e-30">]>:$input_scale,
    DenseF32ArrayAttr:$filter_scales,
    DefaultValuedAttr<F32Attr, "1.0">:$output_scale,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_QuantOutDtype]>, "float32">:$out_dtype,
    DefaultValuedAttr<F32Attr, "1.0">:$residual_scale
  );
  let results = (outs RankedTensorOf<[F32, I8, UI8]>:$Output);
  let assemblyFormat = [{
    $Input `,` $Filter (`Bias` `(` $Bias^ `)`)? (`ResidualData` `(` $ResidualData^ `)`)?
    attr-dict `:` functional-type(operands, results)
  }];
}

def Pd_QuantizedFcOp : Pd_Op<"quantized_fc"> {
  let summary = "int8 fully connected layer: activation(flatten(Input) x W + Bias) in real units";
  let description = [{
    The int8 form of `pd.fc` (and of `matmul_v2` / `mul` with a constant
    2-D right-hand side): `Input` (i8 or ui8, `input_scale` per tensor) is
    flattened to 2-D at `in_num_col_dims`, `W` (i8 [K, N], a model
    constant) holds `weight_scales[n] * W[:, n]` per output column, `Bias`
    ([N], float32) is added and `activation_type` applied to real values.
    `out_dtype` and `output_scale` as on `pd.quantized_conv2d`.

    Example:

    ```mlir
    %y = pd.quantized_fc %xq, %wq Bias(%b) {in_num_col_dims = 1 : i32, input_scale = 0.02 : f32,
        weight_scales = array<f32: 0.01, 0.02, 0.01>}
        : (tensor<?x64xi8>, tensor<64x3xi8>, tensor<3xf32>) -> tensor<?x3xf32>
    ```
  }];
  let arguments = (ins
    Pd_Int8Tensor:$Input,
    RankedTensorOf<[I8]>:$W,
    Optional<RankedTensorOf<[F32]>>:$Bias,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$in_num_col_dims,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_FusedActivation]>, "">:$activation_type,
    ConfinedAttr<F32Attr, [Pd_F32Min<"1e-30">]>:$input_scale,
    DenseF32ArrayAttr:$weight_scales,
    DefaultValuedAttr<F32Attr, "1.0">:$output_scale,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_QuantOutDtype]>, "float32">:$out_dtype
  );
  let results = (outs RankedTensorOf<[F32, I8, UI8]>:$Out);
  let assemblyFormat = [{
    $Input `,` $W (`Bias` `(` $Bias^ `)`)? attr-dict `:` functional-type(operands, results)
  }];
}

def Pd_QuantizedMatmulOp : Pd_Op<"quantized_matmul"> {
  let summary = "int8 product of two quantized tensors: alpha * X x Y in real units";
  let description = [{
    The int8 form of `matmul_v2` / `matmul` when both operands are
    activations (an attention's `Q x K^T` and `P x V`): `X` (i8 or ui8,
    `x_scale` per tensor) and `Y` (i8, `y_scale` per tensor), each of rank
    >= 2 and transposed in its last two dims by `trans_x` / `trans_y`,
    batch dims broadcast as in `matmul_v2`; the result is float32
    `alpha * x_scale * y_scale * (X x Y)` with the integer product exact.

    Example:

    ```mlir
    %s = pd.quantized_matmul %q, %k {trans_y = true, alpha = 0.125 : f32,
        x_scale = 0.02 : f32, y_scale = 0.03 : f32}
        : (tensor<?x12x128x64xi8>, tensor<?x12x128x64xi8>) -> tensor<?x12x128x128xf32>
    ```
  }];
  let arguments = (ins
    Pd_Int8Tensor:$X,
    RankedTensorOf<[I8]>:$Y,
    DefaultValuedAttr<BoolAttr, "false">:$trans_x,
    DefaultValuedAttr<BoolAttr, "false">:$trans_y,
    DefaultValuedAttr<F32Attr, "1.0">:$alpha,
    ConfinedAttr<F32Attr, [Pd_F32Min<"1e-30">]>:$x_scale,
    ConfinedAttr<F32Attr, [Pd_F32Min<"1e-30">]>:$y_scale
  );
  let results = (outs RankedTensorOf<[F32]>:$Out);
  let assemblyFormat = [{
    $X `,` $Y attr-dict `:` functional-type(operands, results)
  }];
}

#endif // PADDLEMLIR_DIALECT_PD_IR_PDQUANTOPS_TD

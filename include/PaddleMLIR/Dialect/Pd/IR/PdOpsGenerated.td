//===- PdOpsGenerated.td - pd ops from the op catalogue ---------*- tablegen -*-===//
//
// DO NOT EDIT: generated from utils/pd_ops/catalog.py by utils/pd_ops/gen_ods.py.
// Edit the catalogue and run `utils/pd_ops/gen_ods.py --write`.
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_DIALECT_PD_IR_PDOPSGENERATED_TD
#define PADDLEMLIR_DIALECT_PD_IR_PDOPSGENERATED_TD

include "PaddleMLIR/Dialect/Pd/IR/PdBase.td"

def Pd_Conv2dOp : Pd_Op<"conv2d"> {
  let summary = "2-D convolution over NCHW or NHWC input with groups and dilations";
  let description = [{
    Paddle operator `conv2d`: 2-D convolution over NCHW or NHWC input with groups and dilations.

    Input slots: Input, Filter. Output slots: Output.

    Example:

    ```mlir
    %y = pd.conv2d %x, %w {paddings = array<i32: 1, 1>} : (tensor<?x3x224x224xf32>, tensor<32x3x3x3xf32>) -> tensor<?x32x224x224xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Pd_FloatTensor:$Filter,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$strides,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[2, 4]>]>, "{0, 0}">:$paddings,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["EXPLICIT", "SAME", "VALID"]>]>, "EXPLICIT">:$padding_algorithm,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$groups,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$dilations,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout"]>]>, "NCHW">:$data_format
  );
  let results = (outs Pd_FloatTensor:$Output);
  let assemblyFormat = "$Input `,` $Filter attr-dict `:` functional-type(operands, results)";
}

def Pd_DeformableConvOp : Pd_Op<"deformable_conv"> {
  let summary = "deformable convolution (v2, NCHW): each kernel tap sampled bilinearly at its offset and scaled by its mask, then a grouped convolution";
  let description = [{
    Paddle operator `deformable_conv`: deformable convolution (v2, NCHW): each kernel tap sampled bilinearly at its offset and scaled by its mask, then a grouped convolution.

    Input slots: Input, Offset, Mask (optional), Filter. Output slots: Output.

    Example:

    ```mlir
    %y = pd.deformable_conv %x, %off, %w Mask(%m) {paddings = array<i32: 1, 1>} : (tensor<?x8x16x16xf32>, tensor<?x18x16x16xf32>, tensor<?x9x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<?x16x16x16xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Pd_FloatTensor:$Offset,
    Optional<Pd_FloatTensor>:$Mask,
    Pd_FloatTensor:$Filter,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$strides,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[2]>]>, "{0, 0}">:$paddings,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$dilations,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$groups,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$deformable_groups,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "64">:$im2col_step
  );
  let results = (outs Pd_FloatTensor:$Output);
  let assemblyFormat = "$Input `,` $Offset `,` $Filter (`Mask` `(` $Mask^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_DeformableConvV1Op : Pd_Op<"deformable_conv_v1"> {
  let summary = "deformable convolution (v1, NCHW): each kernel tap sampled bilinearly at its offset";
  let description = [{
    Paddle operator `deformable_conv_v1`: deformable convolution (v1, NCHW): each kernel tap sampled bilinearly at its offset.

    Input slots: Input, Offset, Filter. Output slots: Output.

    Example:

    ```mlir
    %y = pd.deformable_conv_v1 %x, %off, %w {paddings = array<i32: 1, 1>} : (tensor<?x8x16x16xf32>, tensor<?x18x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<?x16x16x16xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Pd_FloatTensor:$Offset,
    Pd_FloatTensor:$Filter,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$strides,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[2]>]>, "{0, 0}">:$paddings,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$dilations,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$groups,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$deformable_groups,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "64">:$im2col_step
  );
  let results = (outs Pd_FloatTensor:$Output);
  let assemblyFormat = "$Input `,` $Offset `,` $Filter attr-dict `:` functional-type(operands, results)";
}

def Pd_DepthwiseConv2dOp : Pd_Op<"depthwise_conv2d"> {
  let summary = "depthwise 2-D convolution (groups equal to input channels)";
  let description = [{
    Paddle operator `depthwise_conv2d`: depthwise 2-D convolution (groups equal to input channels).

    Input slots: Input, Filter. Output slots: Output.

    Example:

    ```mlir
    %y = pd.depthwise_conv2d %x, %w {groups = 32 : i32} : (tensor<?x32x112x112xf32>, tensor<32x1x3x3xf32>) -> tensor<?x32x110x110xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Pd_FloatTensor:$Filter,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$strides,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[2, 4]>]>, "{0, 0}">:$paddings,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["EXPLICIT", "SAME", "VALID"]>]>, "EXPLICIT">:$padding_algorithm,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$groups,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$dilations,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout"]>]>, "NCHW">:$data_format
  );
  let results = (outs Pd_FloatTensor:$Output);
  let assemblyFormat = "$Input `,` $Filter attr-dict `:` functional-type(operands, results)";
}

def Pd_Conv2dTransposeOp : Pd_Op<"conv2d_transpose"> {
  let summary = "transposed 2-D convolution (filter layout [C_in, C_out/groups, kH, kW])";
  let description = [{
    Paddle operator `conv2d_transpose`: transposed 2-D convolution (filter layout [C_in, C_out/groups, kH, kW]).

    Input slots: Input, Filter. Output slots: Output.

    Example:

    ```mlir
    %y = pd.conv2d_transpose %x, %w {strides = array<i32: 2, 2>} : (tensor<1x16x8x8xf32>, tensor<16x8x2x2xf32>) -> tensor<1x8x16x16xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Pd_FloatTensor:$Filter,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$strides,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[2, 4]>]>, "{0, 0}">:$paddings,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["EXPLICIT", "SAME", "VALID"]>]>, "EXPLICIT">:$padding_algorithm,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$groups,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$dilations,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout"]>]>, "NCHW">:$data_format,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>]>, "{}">:$output_padding,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>]>, "{}">:$output_size
  );
  let results = (outs Pd_FloatTensor:$Output);
  let assemblyFormat = "$Input `,` $Filter attr-dict `:` functional-type(operands, results)";
}

def Pd_DepthwiseConv2dTransposeOp : Pd_Op<"depthwise_conv2d_transpose"> {
  let summary = "transposed depthwise 2-D convolution (groups = input channels; filter [C_in, C_out/groups, kH, kW])";
  let description = [{
    Paddle operator `depthwise_conv2d_transpose`: transposed depthwise 2-D convolution (groups = input channels; filter [C_in, C_out/groups, kH, kW]).

    Input slots: Input, Filter. Output slots: Output.

    Example:

    ```mlir
    %y = pd.depthwise_conv2d_transpose %x, %w {strides = array<i32: 2, 2>, groups = 16 : i32} : (tensor<1x16x8x8xf32>, tensor<16x1x2x2xf32>) -> tensor<1x16x16x16xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Pd_FloatTensor:$Filter,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$strides,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[2, 4]>]>, "{0, 0}">:$paddings,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["EXPLICIT", "SAME", "VALID"]>]>, "EXPLICIT">:$padding_algorithm,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$groups,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$dilations,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout"]>]>, "NCHW">:$data_format,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>]>, "{}">:$output_padding,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>]>, "{}">:$output_size
  );
  let results = (outs Pd_FloatTensor:$Output);
  let assemblyFormat = "$Input `,` $Filter attr-dict `:` functional-type(operands, results)";
}

def Pd_BatchNormOp : Pd_Op<"batch_norm"> {
  let summary = "batch normalization with per-channel scale, bias and running statistics";
  let description = [{
    Paddle operator `batch_norm`: batch normalization with per-channel scale, bias and running statistics.

    Input slots: X, Scale, Bias, Mean, Variance. Output slots: Y.

    Example:

    ```mlir
    %y = pd.batch_norm %x, %s, %b, %m, %v : (tensor<?x32x56x56xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x32x56x56xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Scale,
    Pd_FloatTensor:$Bias,
    Pd_FloatTensor:$Mean,
    Pd_FloatTensor:$Variance,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Min<"0.0">]>, "1e-05">:$epsilon,
    DefaultValuedAttr<F32Attr, "0.9">:$momentum,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout"]>]>, "NCHW">:$data_layout,
    DefaultValuedAttr<BoolAttr, "false">:$is_test,
    DefaultValuedAttr<BoolAttr, "false">:$use_global_stats,
    DefaultValuedAttr<BoolAttr, "false">:$trainable_statistics
  );
  let results = (outs Pd_FloatTensor:$Y);
  let assemblyFormat = "$X `,` $Scale `,` $Bias `,` $Mean `,` $Variance attr-dict `:` functional-type(operands, results)";
}

def Pd_LayerNormOp : Pd_Op<"layer_norm", [AttrSizedOperandSegments]> {
  let summary = "layer normalization over the dims from begin_norm_axis on";
  let description = [{
    Paddle operator `layer_norm`: layer normalization over the dims from begin_norm_axis on.

    Input slots: X, Scale (optional), Bias (optional). Output slots: Y.

    Example:

    ```mlir
    %y = pd.layer_norm %x Scale(%g) Bias(%b) {begin_norm_axis = 2 : i32} : (tensor<?x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x128x768xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_FloatTensor>:$Scale,
    Optional<Pd_FloatTensor>:$Bias,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Range<"0.0", "0.001">]>, "1e-05">:$epsilon,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "1">:$begin_norm_axis
  );
  let results = (outs Pd_FloatTensor:$Y);
  let assemblyFormat = "$X (`Scale` `(` $Scale^ `)`)? (`Bias` `(` $Bias^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_InstanceNormOp : Pd_Op<"instance_norm", [AttrSizedOperandSegments]> {
  let summary = "instance normalization per sample and channel";
  let description = [{
    Paddle operator `instance_norm`: instance normalization per sample and channel.

    Input slots: X, Scale (optional), Bias (optional). Output slots: Y.

    Example:

    ```mlir
    %y = pd.instance_norm %x Scale(%g) Bias(%b) : (tensor<?x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x16x8x8xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_FloatTensor>:$Scale,
    Optional<Pd_FloatTensor>:$Bias,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Range<"0.0", "0.001">]>, "1e-05">:$epsilon
  );
  let results = (outs Pd_FloatTensor:$Y);
  let assemblyFormat = "$X (`Scale` `(` $Scale^ `)`)? (`Bias` `(` $Bias^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_GroupNormOp : Pd_Op<"group_norm", [AttrSizedOperandSegments]> {
  let summary = "group normalization over channel groups";
  let description = [{
    Paddle operator `group_norm`: group normalization over channel groups.

    Input slots: X, Scale (optional), Bias (optional). Output slots: Y.

    Example:

    ```mlir
    %y = pd.group_norm %x Scale(%g) Bias(%b) {groups = 4 : i32} : (tensor<?x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x16x8x8xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_FloatTensor>:$Scale,
    Optional<Pd_FloatTensor>:$Bias,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Range<"0.0", "1.0">]>, "1e-05">:$epsilon,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$groups,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout"]>]>, "NCHW">:$data_layout
  );
  let results = (outs Pd_FloatTensor:$Y);
  let assemblyFormat = "$X (`Scale` `(` $Scale^ `)`)? (`Bias` `(` $Bias^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_Pool2dOp : Pd_Op<"pool2d"> {
  let summary = "2-D max or average pooling, global or adaptive";
  let description = [{
    Paddle operator `pool2d`: 2-D max or average pooling, global or adaptive.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.pool2d %x {ksize = array<i32: 2, 2>, strides = array<i32: 2, 2>} : (tensor<?x64x56x56xf32>) -> tensor<?x64x28x28xf32>
    ```
  }];
  let arguments = (ins
    Pd_QuantTensor:$X,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["max", "avg"]>]>, "max">:$pooling_type,
    ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[2]>]>:$ksize,
    DefaultValuedAttr<BoolAttr, "false">:$global_pooling,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$strides,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[2, 4]>]>, "{0, 0}">:$paddings,
    DefaultValuedAttr<BoolAttr, "true">:$exclusive,
    DefaultValuedAttr<BoolAttr, "false">:$adaptive,
    DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout"]>]>, "NCHW">:$data_format,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["EXPLICIT", "SAME", "VALID"]>]>, "EXPLICIT">:$padding_algorithm
  );
  let results = (outs Pd_QuantTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_Pool3dOp : Pd_Op<"pool3d"> {
  let summary = "3-D max or average pooling, global or adaptive";
  let description = [{
    Paddle operator `pool3d`: 3-D max or average pooling, global or adaptive.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.pool3d %x {ksize = array<i32: 2, 2, 2>, strides = array<i32: 2, 2, 2>} : (tensor<?x8x4x8x8xf32>) -> tensor<?x8x2x4x4xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["max", "avg"]>]>, "max">:$pooling_type,
    ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[3]>]>:$ksize,
    DefaultValuedAttr<BoolAttr, "false">:$global_pooling,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[3]>]>, "{1, 1, 1}">:$strides,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[3, 6]>]>, "{0, 0, 0}">:$paddings,
    DefaultValuedAttr<BoolAttr, "true">:$exclusive,
    DefaultValuedAttr<BoolAttr, "false">:$adaptive,
    DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCDHW", "NDHWC"]>]>, "NCDHW">:$data_format,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["EXPLICIT", "SAME", "VALID"]>]>, "EXPLICIT">:$padding_algorithm
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_AffineChannelOp : Pd_Op<"affine_channel"> {
  let summary = "per-channel affine transform x * scale + bias";
  let description = [{
    Paddle operator `affine_channel`: per-channel affine transform x * scale + bias.

    Input slots: X, Scale, Bias. Output slots: Out.

    Example:

    ```mlir
    %y = pd.affine_channel %x, %s, %b : (tensor<?x32x8x8xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x32x8x8xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Scale,
    Pd_FloatTensor:$Bias,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout"]>]>, "AnyLayout">:$data_layout
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X `,` $Scale `,` $Bias attr-dict `:` functional-type(operands, results)";
}

def Pd_Pad3dOp : Pd_Op<"pad3d"> {
  let summary = "padding of the three innermost spatial dims of a 5-D tensor";
  let description = [{
    Paddle operator `pad3d`: padding of the three innermost spatial dims of a 5-D tensor.

    Input slots: X, Paddings (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.pad3d %x {paddings = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<1x3x1x8x8xf32>) -> tensor<1x3x1x10x10xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Optional<Pd_IndexTensor>:$PaddingsInput,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[6]>]>, "{0, 0, 0, 0, 0, 0}">:$paddings,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["constant", "reflect", "replicate", "circular"]>]>, "constant">:$mode,
    DefaultValuedAttr<F32Attr, "0.0">:$value,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCDHW", "NDHWC"]>]>, "NCDHW">:$data_format
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X (`Paddings` `(` $PaddingsInput^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_BilinearInterpV2Op : Pd_Op<"bilinear_interp_v2", [AttrSizedOperandSegments]> {
  let summary = "bilinear interpolation (resize) of an NCHW/NHWC image batch";
  let description = [{
    Paddle operator `bilinear_interp_v2`: bilinear interpolation (resize) of an NCHW/NHWC image batch.

    Input slots: X, OutSize (optional), SizeTensor (list), Scale (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.bilinear_interp_v2 %x {out_h = 64 : i32, out_w = 64 : i32} : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_IndexTensor>:$OutSizeInput,
    Variadic<Pd_IndexTensor>:$SizeTensor,
    Optional<Pd_FloatTensor>:$ScaleInput,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout", "NCDHW", "NDHWC"]>]>, "NCHW">:$data_layout,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_d,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_h,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_w,
    DefaultValuedAttr<DenseF32ArrayAttr, "{}">:$scale,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["bilinear", "nearest", "bicubic", "linear", "trilinear"]>]>, "bilinear">:$interp_method,
    DefaultValuedAttr<BoolAttr, "true">:$align_corners,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "1">:$align_mode
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X (`OutSize` `(` $OutSizeInput^ `)`)? (`SizeTensor` `[` $SizeTensor^ `]`)? (`Scale` `(` $ScaleInput^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_NearestInterpV2Op : Pd_Op<"nearest_interp_v2", [AttrSizedOperandSegments]> {
  let summary = "nearest interpolation (resize) of an NCHW/NHWC image batch";
  let description = [{
    Paddle operator `nearest_interp_v2`: nearest interpolation (resize) of an NCHW/NHWC image batch.

    Input slots: X, OutSize (optional), SizeTensor (list), Scale (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.nearest_interp_v2 %x {out_h = 64 : i32, out_w = 64 : i32} : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_IndexTensor>:$OutSizeInput,
    Variadic<Pd_IndexTensor>:$SizeTensor,
    Optional<Pd_FloatTensor>:$ScaleInput,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout", "NCDHW", "NDHWC"]>]>, "NCHW">:$data_layout,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_d,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_h,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_w,
    DefaultValuedAttr<DenseF32ArrayAttr, "{}">:$scale,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["bilinear", "nearest", "bicubic", "linear", "trilinear"]>]>, "nearest">:$interp_method,
    DefaultValuedAttr<BoolAttr, "true">:$align_corners,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "1">:$align_mode
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X (`OutSize` `(` $OutSizeInput^ `)`)? (`SizeTensor` `[` $SizeTensor^ `]`)? (`Scale` `(` $ScaleInput^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_BilinearInterpOp : Pd_Op<"bilinear_interp", [AttrSizedOperandSegments]> {
  let summary = "Fluid 1.x bilinear interpolation (resize) of an NCHW/NHWC image batch";
  let description = [{
    Paddle operator `bilinear_interp`: Fluid 1.x bilinear interpolation (resize) of an NCHW/NHWC image batch.

    Input slots: X, OutSize (optional), SizeTensor (list), Scale (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.bilinear_interp %x {out_h = 64 : i32, out_w = 64 : i32} : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_IndexTensor>:$OutSizeInput,
    Variadic<Pd_IndexTensor>:$SizeTensor,
    Optional<Pd_FloatTensor>:$ScaleInput,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout", "NCDHW", "NDHWC"]>]>, "NCHW">:$data_layout,
    DefaultValuedAttr<Pd_I32Attr, "0">:$out_d,
    DefaultValuedAttr<Pd_I32Attr, "0">:$out_h,
    DefaultValuedAttr<Pd_I32Attr, "0">:$out_w,
    DefaultValuedAttr<F32Attr, "0.0">:$scale,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["bilinear", "nearest", "bicubic", "linear", "trilinear"]>]>, "bilinear">:$interp_method,
    DefaultValuedAttr<BoolAttr, "true">:$align_corners,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "1">:$align_mode
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X (`OutSize` `(` $OutSizeInput^ `)`)? (`SizeTensor` `[` $SizeTensor^ `]`)? (`Scale` `(` $ScaleInput^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_NearestInterpOp : Pd_Op<"nearest_interp", [AttrSizedOperandSegments]> {
  let summary = "Fluid 1.x nearest interpolation (resize) of an NCHW/NHWC image batch";
  let description = [{
    Paddle operator `nearest_interp`: Fluid 1.x nearest interpolation (resize) of an NCHW/NHWC image batch.

    Input slots: X, OutSize (optional), SizeTensor (list), Scale (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.nearest_interp %x {out_h = 64 : i32, out_w = 64 : i32} : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_IndexTensor>:$OutSizeInput,
    Variadic<Pd_IndexTensor>:$SizeTensor,
    Optional<Pd_FloatTensor>:$ScaleInput,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout", "NCDHW", "NDHWC"]>]>, "NCHW">:$data_layout,
    DefaultValuedAttr<Pd_I32Attr, "0">:$out_d,
    DefaultValuedAttr<Pd_I32Attr, "0">:$out_h,
    DefaultValuedAttr<Pd_I32Attr, "0">:$out_w,
    DefaultValuedAttr<F32Attr, "0.0">:$scale,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["bilinear", "nearest", "bicubic", "linear", "trilinear"]>]>, "nearest">:$interp_method,
    DefaultValuedAttr<BoolAttr, "true">:$align_corners,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "1">:$align_mode
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X (`OutSize` `(` $OutSizeInput^ `)`)? (`SizeTensor` `[` $SizeTensor^ `]`)? (`Scale` `(` $ScaleInput^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_LinearInterpV2Op : Pd_Op<"linear_interp_v2", [AttrSizedOperandSegments]> {
  let summary = "linear interpolation (resize) of a batch of NCW/NWC sequences";
  let description = [{
    Paddle operator `linear_interp_v2`: linear interpolation (resize) of a batch of NCW/NWC sequences.

    Input slots: X, OutSize (optional), SizeTensor (list), Scale (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.linear_interp_v2 %x {out_w = 64 : i32} : (tensor<1x3x32xf32>) -> tensor<1x3x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_IndexTensor>:$OutSizeInput,
    Variadic<Pd_IndexTensor>:$SizeTensor,
    Optional<Pd_FloatTensor>:$ScaleInput,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout", "NCDHW", "NDHWC"]>]>, "NCHW">:$data_layout,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_d,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_h,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_w,
    DefaultValuedAttr<DenseF32ArrayAttr, "{}">:$scale,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["bilinear", "nearest", "bicubic", "linear", "trilinear"]>]>, "linear">:$interp_method,
    DefaultValuedAttr<BoolAttr, "true">:$align_corners,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "1">:$align_mode
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X (`OutSize` `(` $OutSizeInput^ `)`)? (`SizeTensor` `[` $SizeTensor^ `]`)? (`Scale` `(` $ScaleInput^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_TrilinearInterpV2Op : Pd_Op<"trilinear_interp_v2", [AttrSizedOperandSegments]> {
  let summary = "trilinear interpolation (resize) of a batch of NCDHW/NDHWC volumes";
  let description = [{
    Paddle operator `trilinear_interp_v2`: trilinear interpolation (resize) of a batch of NCDHW/NDHWC volumes.

    Input slots: X, OutSize (optional), SizeTensor (list), Scale (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.trilinear_interp_v2 %x {out_d = 8 : i32, out_h = 16 : i32, out_w = 16 : i32} : (tensor<1x3x4x8x8xf32>) -> tensor<1x3x8x16x16xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_IndexTensor>:$OutSizeInput,
    Variadic<Pd_IndexTensor>:$SizeTensor,
    Optional<Pd_FloatTensor>:$ScaleInput,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout", "NCDHW", "NDHWC"]>]>, "NCHW">:$data_layout,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_d,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_h,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_w,
    DefaultValuedAttr<DenseF32ArrayAttr, "{}">:$scale,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["bilinear", "nearest", "bicubic", "linear", "trilinear"]>]>, "trilinear">:$interp_method,
    DefaultValuedAttr<BoolAttr, "true">:$align_corners,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "1">:$align_mode
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X (`OutSize` `(` $OutSizeInput^ `)`)? (`SizeTensor` `[` $SizeTensor^ `]`)? (`Scale` `(` $ScaleInput^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_BicubicInterpV2Op : Pd_Op<"bicubic_interp_v2", [AttrSizedOperandSegments]> {
  let summary = "bicubic interpolation (resize) of an NCHW/NHWC image batch";
  let description = [{
    Paddle operator `bicubic_interp_v2`: bicubic interpolation (resize) of an NCHW/NHWC image batch.

    Input slots: X, OutSize (optional), SizeTensor (list), Scale (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.bicubic_interp_v2 %x {out_h = 64 : i32, out_w = 64 : i32} : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_IndexTensor>:$OutSizeInput,
    Variadic<Pd_IndexTensor>:$SizeTensor,
    Optional<Pd_FloatTensor>:$ScaleInput,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout", "NCDHW", "NDHWC"]>]>, "NCHW">:$data_layout,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_d,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_h,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_w,
    DefaultValuedAttr<DenseF32ArrayAttr, "{}">:$scale,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["bilinear", "nearest", "bicubic", "linear", "trilinear"]>]>, "bicubic">:$interp_method,
    DefaultValuedAttr<BoolAttr, "true">:$align_corners,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "1">:$align_mode
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X (`OutSize` `(` $OutSizeInput^ `)`)? (`SizeTensor` `[` $SizeTensor^ `]`)? (`Scale` `(` $ScaleInput^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_LinearInterpOp : Pd_Op<"linear_interp", [AttrSizedOperandSegments]> {
  let summary = "Fluid 1.x linear interpolation (resize) of a batch of NCW/NWC sequences";
  let description = [{
    Paddle operator `linear_interp`: Fluid 1.x linear interpolation (resize) of a batch of NCW/NWC sequences.

    Input slots: X, OutSize (optional), SizeTensor (list), Scale (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.linear_interp %x {out_w = 64 : i32} : (tensor<1x3x32xf32>) -> tensor<1x3x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_IndexTensor>:$OutSizeInput,
    Variadic<Pd_IndexTensor>:$SizeTensor,
    Optional<Pd_FloatTensor>:$ScaleInput,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout", "NCDHW", "NDHWC"]>]>, "NCHW">:$data_layout,
    DefaultValuedAttr<Pd_I32Attr, "0">:$out_d,
    DefaultValuedAttr<Pd_I32Attr, "0">:$out_h,
    DefaultValuedAttr<Pd_I32Attr, "0">:$out_w,
    DefaultValuedAttr<F32Attr, "0.0">:$scale,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["bilinear", "nearest", "bicubic", "linear", "trilinear"]>]>, "linear">:$interp_method,
    DefaultValuedAttr<BoolAttr, "true">:$align_corners,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "1">:$align_mode
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X (`OutSize` `(` $OutSizeInput^ `)`)? (`SizeTensor` `[` $SizeTensor^ `]`)? (`Scale` `(` $ScaleInput^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_TrilinearInterpOp : Pd_Op<"trilinear_interp", [AttrSizedOperandSegments]> {
  let summary = "Fluid 1.x trilinear interpolation (resize) of a batch of NCDHW/NDHWC volumes";
  let description = [{
    Paddle operator `trilinear_interp`: Fluid 1.x trilinear interpolation (resize) of a batch of NCDHW/NDHWC volumes.

    Input slots: X, OutSize (optional), SizeTensor (list), Scale (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.trilinear_interp %x {out_d = 8 : i32, out_h = 16 : i32, out_w = 16 : i32} : (tensor<1x3x4x8x8xf32>) -> tensor<1x3x8x16x16xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_IndexTensor>:$OutSizeInput,
    Variadic<Pd_IndexTensor>:$SizeTensor,
    Optional<Pd_FloatTensor>:$ScaleInput,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout", "NCDHW", "NDHWC"]>]>, "NCHW">:$data_layout,
    DefaultValuedAttr<Pd_I32Attr, "0">:$out_d,
    DefaultValuedAttr<Pd_I32Attr, "0">:$out_h,
    DefaultValuedAttr<Pd_I32Attr, "0">:$out_w,
    DefaultValuedAttr<F32Attr, "0.0">:$scale,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["bilinear", "nearest", "bicubic", "linear", "trilinear"]>]>, "trilinear">:$interp_method,
    DefaultValuedAttr<BoolAttr, "true">:$align_corners,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "1">:$align_mode
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X (`OutSize` `(` $OutSizeInput^ `)`)? (`SizeTensor` `[` $SizeTensor^ `]`)? (`Scale` `(` $ScaleInput^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_BicubicInterpOp : Pd_Op<"bicubic_interp", [AttrSizedOperandSegments]> {
  let summary = "Fluid 1.x bicubic interpolation (resize) of an NCHW/NHWC image batch";
  let description = [{
    Paddle operator `bicubic_interp`: Fluid 1.x bicubic interpolation (resize) of an NCHW/NHWC image batch.

    Input slots: X, OutSize (optional), SizeTensor (list), Scale (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.bicubic_interp %x {out_h = 64 : i32, out_w = 64 : i32} : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_IndexTensor>:$OutSizeInput,
    Variadic<Pd_IndexTensor>:$SizeTensor,
    Optional<Pd_FloatTensor>:$ScaleInput,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout", "NCDHW", "NDHWC"]>]>, "NCHW">:$data_layout,
    DefaultValuedAttr<Pd_I32Attr, "0">:$out_d,
    DefaultValuedAttr<Pd_I32Attr, "0">:$out_h,
    DefaultValuedAttr<Pd_I32Attr, "0">:$out_w,
    DefaultValuedAttr<F32Attr, "0.0">:$scale,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["bilinear", "nearest", "bicubic", "linear", "trilinear"]>]>, "bicubic">:$interp_method,
    DefaultValuedAttr<BoolAttr, "true">:$align_corners,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "1">:$align_mode
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X (`OutSize` `(` $OutSizeInput^ `)`)? (`SizeTensor` `[` $SizeTensor^ `]`)? (`Scale` `(` $ScaleInput^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_ReluOp : Pd_Op<"relu"> {
  let summary = "rectified linear unit max(x, 0)";
  let description = [{
    Paddle operator `relu`: rectified linear unit max(x, 0).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.relu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_Relu6Op : Pd_Op<"relu6"> {
  let summary = "min(max(x, 0), threshold)";
  let description = [{
    Paddle operator `relu6`: min(max(x, 0), threshold).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.relu6 %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<F32Attr, "6.0">:$threshold
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_LeakyReluOp : Pd_Op<"leaky_relu"> {
  let summary = "x if x > 0 else alpha * x";
  let description = [{
    Paddle operator `leaky_relu`: x if x > 0 else alpha * x.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.leaky_relu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<F32Attr, "0.02">:$alpha
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_PreluOp : Pd_Op<"prelu"> {
  let summary = "parametric ReLU with a learned slope (all, per channel or per element)";
  let description = [{
    Paddle operator `prelu`: parametric ReLU with a learned slope (all, per channel or per element).

    Input slots: X, Alpha. Output slots: Out.

    Example:

    ```mlir
    %y = pd.prelu %x, %a {mode = "channel"} : (tensor<?x16x8x8xf32>, tensor<16xf32>) -> tensor<?x16x8x8xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Alpha,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["all", "channel", "element"]>]>, "all">:$mode,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout"]>]>, "NCHW">:$data_format
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X `,` $Alpha attr-dict `:` functional-type(operands, results)";
}

def Pd_SigmoidOp : Pd_Op<"sigmoid"> {
  let summary = "logistic function 1 / (1 + exp(-x))";
  let description = [{
    Paddle operator `sigmoid`: logistic function 1 / (1 + exp(-x)).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.sigmoid %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_TanhOp : Pd_Op<"tanh"> {
  let summary = "hyperbolic tangent";
  let description = [{
    Paddle operator `tanh`: hyperbolic tangent.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.tanh %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_GeluOp : Pd_Op<"gelu"> {
  let summary = "Gaussian error linear unit (erf form, or tanh approximation)";
  let description = [{
    Paddle operator `gelu`: Gaussian error linear unit (erf form, or tanh approximation).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.gelu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<BoolAttr, "false">:$approximate
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_SwishOp : Pd_Op<"swish"> {
  let summary = "x * sigmoid(beta * x)";
  let description = [{
    Paddle operator `swish`: x * sigmoid(beta * x).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.swish %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<F32Attr, "1.0">:$beta
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_HardSwishOp : Pd_Op<"hard_swish"> {
  let summary = "x * min(max(x + offset, 0), threshold) / scale";
  let description = [{
    Paddle operator `hard_swish`: x * min(max(x + offset, 0), threshold) / scale.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.hard_swish %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<F32Attr, "6.0">:$threshold,
    DefaultValuedAttr<F32Attr, "6.0">:$scale,
    DefaultValuedAttr<F32Attr, "3.0">:$offset
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_HardSigmoidOp : Pd_Op<"hard_sigmoid"> {
  let summary = "min(max(slope * x + offset, 0), 1)";
  let description = [{
    Paddle operator `hard_sigmoid`: min(max(slope * x + offset, 0), 1).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.hard_sigmoid %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<F32Attr, "0.2">:$slope,
    DefaultValuedAttr<F32Attr, "0.5">:$offset
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_ExpOp : Pd_Op<"exp"> {
  let summary = "elementwise e^x";
  let description = [{
    Paddle operator `exp`: elementwise e^x.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.exp %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_LogOp : Pd_Op<"log"> {
  let summary = "elementwise natural logarithm";
  let description = [{
    Paddle operator `log`: elementwise natural logarithm.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.log %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_SqrtOp : Pd_Op<"sqrt"> {
  let summary = "elementwise square root";
  let description = [{
    Paddle operator `sqrt`: elementwise square root.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.sqrt %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_RsqrtOp : Pd_Op<"rsqrt"> {
  let summary = "elementwise 1 / sqrt(x)";
  let description = [{
    Paddle operator `rsqrt`: elementwise 1 / sqrt(x).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.rsqrt %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_AbsOp : Pd_Op<"abs"> {
  let summary = "elementwise absolute value";
  let description = [{
    Paddle operator `abs`: elementwise absolute value.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.abs %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_SquareOp : Pd_Op<"square"> {
  let summary = "elementwise x * x";
  let description = [{
    Paddle operator `square`: elementwise x * x.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.square %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_ErfOp : Pd_Op<"erf"> {
  let summary = "elementwise Gauss error function";
  let description = [{
    Paddle operator `erf`: elementwise Gauss error function.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.erf %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_SinOp : Pd_Op<"sin"> {
  let summary = "elementwise sine";
  let description = [{
    Paddle operator `sin`: elementwise sine.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.sin %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_CosOp : Pd_Op<"cos"> {
  let summary = "elementwise cosine";
  let description = [{
    Paddle operator `cos`: elementwise cosine.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.cos %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_TanOp : Pd_Op<"tan"> {
  let summary = "elementwise tangent";
  let description = [{
    Paddle operator `tan`: elementwise tangent.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.tan %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_AsinOp : Pd_Op<"asin"> {
  let summary = "elementwise arcsine";
  let description = [{
    Paddle operator `asin`: elementwise arcsine.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.asin %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_AcosOp : Pd_Op<"acos"> {
  let summary = "elementwise arccosine";
  let description = [{
    Paddle operator `acos`: elementwise arccosine.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.acos %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_AtanOp : Pd_Op<"atan"> {
  let summary = "elementwise arctangent";
  let description = [{
    Paddle operator `atan`: elementwise arctangent.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.atan %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_SinhOp : Pd_Op<"sinh"> {
  let summary = "elementwise hyperbolic sine";
  let description = [{
    Paddle operator `sinh`: elementwise hyperbolic sine.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.sinh %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_CoshOp : Pd_Op<"cosh"> {
  let summary = "elementwise hyperbolic cosine";
  let description = [{
    Paddle operator `cosh`: elementwise hyperbolic cosine.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.cosh %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_AsinhOp : Pd_Op<"asinh"> {
  let summary = "elementwise inverse hyperbolic sine";
  let description = [{
    Paddle operator `asinh`: elementwise inverse hyperbolic sine.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.asinh %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_AcoshOp : Pd_Op<"acosh"> {
  let summary = "elementwise inverse hyperbolic cosine";
  let description = [{
    Paddle operator `acosh`: elementwise inverse hyperbolic cosine.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.acosh %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_AtanhOp : Pd_Op<"atanh"> {
  let summary = "elementwise inverse hyperbolic tangent";
  let description = [{
    Paddle operator `atanh`: elementwise inverse hyperbolic tangent.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.atanh %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_FloorOp : Pd_Op<"floor"> {
  let summary = "elementwise round toward negative infinity";
  let description = [{
    Paddle operator `floor`: elementwise round toward negative infinity.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.floor %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_CeilOp : Pd_Op<"ceil"> {
  let summary = "elementwise round toward positive infinity";
  let description = [{
    Paddle operator `ceil`: elementwise round toward positive infinity.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.ceil %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_ReciprocalOp : Pd_Op<"reciprocal"> {
  let summary = "elementwise 1 / x";
  let description = [{
    Paddle operator `reciprocal`: elementwise 1 / x.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.reciprocal %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_SignOp : Pd_Op<"sign"> {
  let summary = "elementwise sign (-1, 0 or 1)";
  let description = [{
    Paddle operator `sign`: elementwise sign (-1, 0 or 1).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.sign %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_SoftsignOp : Pd_Op<"softsign"> {
  let summary = "x / (1 + |x|)";
  let description = [{
    Paddle operator `softsign`: x / (1 + |x|).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.softsign %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_SoftplusOp : Pd_Op<"softplus"> {
  let summary = "log(1 + exp(beta * x)) / beta, x itself where beta * x > threshold";
  let description = [{
    Paddle operator `softplus`: log(1 + exp(beta * x)) / beta, x itself where beta * x > threshold.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.softplus %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<F32Attr, "1.0">:$beta,
    DefaultValuedAttr<F32Attr, "20.0">:$threshold
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_EluOp : Pd_Op<"elu"> {
  let summary = "x if x > 0 else alpha * (exp(x) - 1)";
  let description = [{
    Paddle operator `elu`: x if x > 0 else alpha * (exp(x) - 1).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.elu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<F32Attr, "1.0">:$alpha
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_SeluOp : Pd_Op<"selu"> {
  let summary = "scale * (x if x > 0 else alpha * (exp(x) - 1))";
  let description = [{
    Paddle operator `selu`: scale * (x if x > 0 else alpha * (exp(x) - 1)).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.selu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<F32Attr, "1.0507009873554805">:$scale,
    DefaultValuedAttr<F32Attr, "1.6732632423543772">:$alpha
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_CeluOp : Pd_Op<"celu"> {
  let summary = "max(x, 0) + min(0, alpha * (exp(x / alpha) - 1))";
  let description = [{
    Paddle operator `celu`: max(x, 0) + min(0, alpha * (exp(x / alpha) - 1)).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.celu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<F32Attr, "1.0">:$alpha
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_ThresholdedReluOp : Pd_Op<"thresholded_relu"> {
  let summary = "x if x > threshold else 0";
  let description = [{
    Paddle operator `thresholded_relu`: x if x > threshold else 0.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.thresholded_relu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<F32Attr, "1.0">:$threshold
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_Log2Op : Pd_Op<"log2"> {
  let summary = "elementwise base-2 logarithm";
  let description = [{
    Paddle operator `log2`: elementwise base-2 logarithm.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.log2 %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_Log10Op : Pd_Op<"log10"> {
  let summary = "elementwise base-10 logarithm";
  let description = [{
    Paddle operator `log10`: elementwise base-10 logarithm.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.log10 %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_Log1pOp : Pd_Op<"log1p"> {
  let summary = "elementwise log(1 + x), accurate near 0";
  let description = [{
    Paddle operator `log1p`: elementwise log(1 + x), accurate near 0.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.log1p %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_LogsigmoidOp : Pd_Op<"logsigmoid"> {
  let summary = "log(1 / (1 + exp(-x))), without overflow";
  let description = [{
    Paddle operator `logsigmoid`: log(1 / (1 + exp(-x))), without overflow.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.logsigmoid %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_HardShrinkOp : Pd_Op<"hard_shrink"> {
  let summary = "x where |x| > threshold, else 0";
  let description = [{
    Paddle operator `hard_shrink`: x where |x| > threshold, else 0.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.hard_shrink %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<F32Attr, "0.5">:$threshold
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_SoftshrinkOp : Pd_Op<"softshrink"> {
  let summary = "x - lambda above lambda, x + lambda below -lambda, else 0";
  let description = [{
    Paddle operator `softshrink`: x - lambda above lambda, x + lambda below -lambda, else 0.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.softshrink %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Min<"0.0">]>, "0.5">:$lambda
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_TanhShrinkOp : Pd_Op<"tanh_shrink"> {
  let summary = "x - tanh(x)";
  let description = [{
    Paddle operator `tanh_shrink`: x - tanh(x).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.tanh_shrink %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_BreluOp : Pd_Op<"brelu"> {
  let summary = "clip(x, t_min, t_max) (Fluid's bounded relu)";
  let description = [{
    Paddle operator `brelu`: clip(x, t_min, t_max) (Fluid's bounded relu).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.brelu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<F32Attr, "0.0">:$t_min,
    DefaultValuedAttr<F32Attr, "24.0">:$t_max
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_HardtanhOp : Pd_Op<"hardtanh"> {
  let summary = "clip(x, t_min, t_max)";
  let description = [{
    Paddle operator `hardtanh`: clip(x, t_min, t_max).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.hardtanh %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<F32Attr, "-1.0">:$t_min,
    DefaultValuedAttr<F32Attr, "1.0">:$t_max
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_RoundOp : Pd_Op<"round"> {
  let summary = "elementwise round to nearest, halves away from zero";
  let description = [{
    Paddle operator `round`: elementwise round to nearest, halves away from zero.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.round %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_IsfiniteV2Op : Pd_Op<"isfinite_v2"> {
  let summary = "elementwise test for a finite value";
  let description = [{
    Paddle operator `isfinite_v2`: elementwise test for a finite value.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %m = pd.isfinite_v2 %x : (tensor<?x64xf32>) -> tensor<?x64xi1>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(::llvm::cast<::mlir::ShapedType>(getX().getType()).clone(::mlir::IntegerType::get(getContext(), 1)));
    return ::mlir::success();
  }
  }];
}

def Pd_IsinfV2Op : Pd_Op<"isinf_v2"> {
  let summary = "elementwise test for +-infinity";
  let description = [{
    Paddle operator `isinf_v2`: elementwise test for +-infinity.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %m = pd.isinf_v2 %x : (tensor<?x64xf32>) -> tensor<?x64xi1>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(::llvm::cast<::mlir::ShapedType>(getX().getType()).clone(::mlir::IntegerType::get(getContext(), 1)));
    return ::mlir::success();
  }
  }];
}

def Pd_IsinfOp : Pd_Op<"isinf"> {
  let summary = "Fluid's one-element test: whether any element is +-infinity";
  let description = [{
    Paddle operator `isinf`: Fluid's one-element test: whether any element is +-infinity.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %m = pd.isinf %x : (tensor<?x64xf32>) -> tensor<1xi1>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_IsnanOp : Pd_Op<"isnan"> {
  let summary = "Fluid's one-element test: whether any element is NaN";
  let description = [{
    Paddle operator `isnan`: Fluid's one-element test: whether any element is NaN.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %m = pd.isnan %x : (tensor<?x64xf32>) -> tensor<1xi1>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_IsfiniteOp : Pd_Op<"isfinite"> {
  let summary = "Fluid's one-element test: whether every element is finite";
  let description = [{
    Paddle operator `isfinite`: Fluid's one-element test: whether every element is finite.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %m = pd.isfinite %x : (tensor<?x64xf32>) -> tensor<1xi1>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_IsnanV2Op : Pd_Op<"isnan_v2"> {
  let summary = "elementwise test for NaN";
  let description = [{
    Paddle operator `isnan_v2`: elementwise test for NaN.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %m = pd.isnan_v2 %x : (tensor<?x64xf32>) -> tensor<?x64xi1>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(::llvm::cast<::mlir::ShapedType>(getX().getType()).clone(::mlir::IntegerType::get(getContext(), 1)));
    return ::mlir::success();
  }
  }];
}

def Pd_PowOp : Pd_Op<"pow"> {
  let summary = "elementwise x ^ factor";
  let description = [{
    Paddle operator `pow`: elementwise x ^ factor.

    Input slots: X, FactorTensor (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.pow %x {factor = 2.0 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_FloatTensor>:$FactorTensor,
    DefaultValuedAttr<F32Attr, "1.0">:$factor
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X (`FactorTensor` `(` $FactorTensor^ `)`)? attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_SoftmaxOp : Pd_Op<"softmax"> {
  let summary = "softmax along an axis";
  let description = [{
    Paddle operator `softmax`: softmax along an axis.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.softmax %x : (tensor<?x1000xf32>) -> tensor<?x1000xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$axis
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_SoftmaxWithCrossEntropyOp : Pd_Op<"softmax_with_cross_entropy"> {
  let summary = "softmax of the logits and the cross-entropy of each row against its int label (or soft label)";
  let description = [{
    Paddle operator `softmax_with_cross_entropy`: softmax of the logits and the cross-entropy of each row against its int label (or soft label).

    Input slots: Logits, Label. Output slots: Softmax, Loss.

    Example:

    ```mlir
    %s, %l = pd.softmax_with_cross_entropy %x, %y : (tensor<8x10xf32>, tensor<8x1xi64>) -> (tensor<8x10xf32>, tensor<8x1xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Logits,
    Pd_Tensor:$Label,
    DefaultValuedAttr<BoolAttr, "false">:$soft_label,
    DefaultValuedAttr<Pd_I32Attr, "-100">:$ignore_index,
    DefaultValuedAttr<BoolAttr, "true">:$numeric_stable_mode,
    DefaultValuedAttr<BoolAttr, "true">:$use_softmax,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$axis
  );
  let results = (outs Pd_FloatTensor:$Softmax, Pd_FloatTensor:$Loss);
  let assemblyFormat = "$Logits `,` $Label attr-dict `:` functional-type(operands, results)";
}

def Pd_Pool2dGradOp : Pd_Op<"pool2d_grad"> {
  let summary = "the gradient of pool2d: each output's gradient goes to its window (max: the first maximum; avg: shared)";
  let description = [{
    Paddle operator `pool2d_grad`: the gradient of pool2d: each output's gradient goes to its window (max: the first maximum; avg: shared).

    Input slots: X, Out, Out@GRAD. Output slots: X@GRAD.

    Example:

    ```mlir
    %dx = pd.pool2d_grad %x, %y, %dy {ksize = array<i32: 2, 2>, strides = array<i32: 2, 2>} : (tensor<8x6x28x28xf32>, tensor<8x6x14x14xf32>, tensor<8x6x14x14xf32>) -> tensor<8x6x28x28xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Out,
    Pd_FloatTensor:$OutGrad,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["max", "avg"]>]>, "max">:$pooling_type,
    ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[2]>]>:$ksize,
    DefaultValuedAttr<BoolAttr, "false">:$global_pooling,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$strides,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[2, 4]>]>, "{0, 0}">:$paddings,
    DefaultValuedAttr<BoolAttr, "true">:$exclusive,
    DefaultValuedAttr<BoolAttr, "false">:$adaptive,
    DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout"]>]>, "NCHW">:$data_format,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["EXPLICIT", "SAME", "VALID"]>]>, "EXPLICIT">:$padding_algorithm
  );
  let results = (outs Pd_FloatTensor:$XGrad);
  let assemblyFormat = "$X `,` $Out `,` $OutGrad attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_Conv2dGradInputOp : Pd_Op<"conv2d_grad_input"> {
  let summary = "the gradient of conv2d / depthwise_conv2d with respect to its input: the transposed convolution of the output's gradient with the filter (Input gives only the shape)";
  let description = [{
    Paddle operator `conv2d_grad_input`: the gradient of conv2d / depthwise_conv2d with respect to its input: the transposed convolution of the output's gradient with the filter (Input gives only the shape).

    Input slots: Input, Filter, Output@GRAD. Output slots: Input@GRAD.

    Example:

    ```mlir
    %dx = pd.conv2d_grad_input %x, %w, %dy {paddings = array<i32: 1, 1>} : (tensor<8x16x14x14xf32>, tensor<32x16x3x3xf32>, tensor<8x32x14x14xf32>) -> tensor<8x16x14x14xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Pd_FloatTensor:$Filter,
    Pd_FloatTensor:$OutputGrad,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$strides,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[2, 4]>]>, "{0, 0}">:$paddings,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["EXPLICIT", "SAME", "VALID"]>]>, "EXPLICIT">:$padding_algorithm,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$groups,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$dilations,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout"]>]>, "NCHW">:$data_format
  );
  let results = (outs Pd_FloatTensor:$InputGrad);
  let assemblyFormat = "$Input `,` $Filter `,` $OutputGrad attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getInput().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_Conv2dGradFilterOp : Pd_Op<"conv2d_grad_filter"> {
  let summary = "the gradient of conv2d / depthwise_conv2d with respect to its filter: each tap's sum over the batch and the output positions of the output's gradient times the input it saw (Filter gives only the shape)";
  let description = [{
    Paddle operator `conv2d_grad_filter`: the gradient of conv2d / depthwise_conv2d with respect to its filter: each tap's sum over the batch and the output positions of the output's gradient times the input it saw (Filter gives only the shape).

    Input slots: Input, Filter, Output@GRAD. Output slots: Filter@GRAD.

    Example:

    ```mlir
    %dw = pd.conv2d_grad_filter %x, %w, %dy {paddings = array<i32: 1, 1>} : (tensor<8x16x14x14xf32>, tensor<32x16x3x3xf32>, tensor<8x32x14x14xf32>) -> tensor<32x16x3x3xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Pd_FloatTensor:$Filter,
    Pd_FloatTensor:$OutputGrad,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$strides,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[2, 4]>]>, "{0, 0}">:$paddings,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["EXPLICIT", "SAME", "VALID"]>]>, "EXPLICIT">:$padding_algorithm,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$groups,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$dilations,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout"]>]>, "NCHW">:$data_format
  );
  let results = (outs Pd_FloatTensor:$FilterGrad);
  let assemblyFormat = "$Input `,` $Filter `,` $OutputGrad attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getFilter().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_BatchNormTrainOp : Pd_Op<"batch_norm_train"> {
  let summary = "batch_norm in training mode: normalizes X with the batch's mean and biased variance over every dim but the channel's, also returned (a train step's fused form)";
  let description = [{
    Paddle operator `batch_norm_train`: batch_norm in training mode: normalizes X with the batch's mean and biased variance over every dim but the channel's, also returned (a train step's fused form).

    Input slots: X, Scale, Bias. Output slots: Y, SavedMean, SavedVariance.

    Example:

    ```mlir
    %y, %m, %v = pd.batch_norm_train %x, %s, %b : (tensor<8x16x14x14xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16x14x14xf32>, tensor<16xf32>, tensor<16xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Scale,
    Pd_FloatTensor:$Bias,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Min<"0.0">]>, "1e-05">:$epsilon,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout"]>]>, "NCHW">:$data_layout
  );
  let results = (outs Pd_FloatTensor:$Y, Pd_FloatTensor:$SavedMean, Pd_FloatTensor:$SavedVariance);
  let assemblyFormat = "$X `,` $Scale `,` $Bias attr-dict `:` functional-type(operands, results)";
}

def Pd_BatchNormTrainGradOp : Pd_Op<"batch_norm_train_grad"> {
  let summary = "the gradient of batch_norm_train: of X through the batch statistics, and of Scale and Bias";
  let description = [{
    Paddle operator `batch_norm_train_grad`: the gradient of batch_norm_train: of X through the batch statistics, and of Scale and Bias.

    Input slots: X, Scale, SavedMean, SavedVariance, Y@GRAD. Output slots: X@GRAD, Scale@GRAD, Bias@GRAD.

    Example:

    ```mlir
    %dx, %ds, %db = pd.batch_norm_train_grad %x, %s, %m, %v, %dy : (tensor<8x16x14x14xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8x16x14x14xf32>) -> (tensor<8x16x14x14xf32>, tensor<16xf32>, tensor<16xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Scale,
    Pd_FloatTensor:$SavedMean,
    Pd_FloatTensor:$SavedVariance,
    Pd_FloatTensor:$YGrad,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Min<"0.0">]>, "1e-05">:$epsilon,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout"]>]>, "NCHW">:$data_layout
  );
  let results = (outs Pd_FloatTensor:$XGrad, Pd_FloatTensor:$ScaleGrad, Pd_FloatTensor:$BiasGrad);
  let assemblyFormat = "$X `,` $Scale `,` $SavedMean `,` $SavedVariance `,` $YGrad attr-dict `:` functional-type(operands, results)";
}

def Pd_LookupTableV2GradOp : Pd_Op<"lookup_table_v2_grad"> {
  let summary = "the gradient of lookup_table_v2: each id's row of the output's gradient added to the table's row (none for padding_idx)";
  let description = [{
    Paddle operator `lookup_table_v2_grad`: the gradient of lookup_table_v2: each id's row of the output's gradient added to the table's row (none for padding_idx).

    Input slots: W, Ids, Out@GRAD. Output slots: W@GRAD.

    Example:

    ```mlir
    %dw = pd.lookup_table_v2_grad %w, %ids, %dy : (tensor<1000x64xf32>, tensor<8x16xi64>, tensor<8x16x64xf32>) -> tensor<1000x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$W,
    Pd_IndexTensor:$Ids,
    Pd_FloatTensor:$OutGrad,
    DefaultValuedAttr<Pd_I64Attr, "-1">:$padding_idx
  );
  let results = (outs Pd_FloatTensor:$WGrad);
  let assemblyFormat = "$W `,` $Ids `,` $OutGrad attr-dict `:` functional-type(operands, results)";
}

def Pd_SgdOp : Pd_Op<"sgd"> {
  let summary = "one stochastic gradient descent step: param - learning_rate[0] * grad";
  let description = [{
    Paddle operator `sgd`: one stochastic gradient descent step: param - learning_rate[0] * grad.

    Input slots: Param, LearningRate, Grad. Output slots: ParamOut.

    Example:

    ```mlir
    %p1 = pd.sgd %p, %lr, %g : (tensor<64x10xf32>, tensor<1xf32>, tensor<64x10xf32>) -> tensor<64x10xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Param,
    Pd_FloatTensor:$LearningRate,
    Pd_FloatTensor:$Grad
  );
  let results = (outs Pd_FloatTensor:$ParamOut);
  let assemblyFormat = "$Param `,` $LearningRate `,` $Grad attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getParam().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_MomentumOp : Pd_Op<"momentum"> {
  let summary = "one momentum step: g = rescale_grad * grad (+ coeff * param with l2_decay); velocity = mu * velocity + g; param - lr[0] * (nesterov ? g + mu * velocity : velocity)";
  let description = [{
    Paddle operator `momentum`: one momentum step: g = rescale_grad * grad (+ coeff * param with l2_decay); velocity = mu * velocity + g; param - lr[0] * (nesterov ? g + mu * velocity : velocity).

    Input slots: Param, Grad, Velocity, LearningRate. Output slots: ParamOut, VelocityOut.

    Example:

    ```mlir
    %p1, %v1 = pd.momentum %p, %g, %v, %lr {mu = 0.9 : f32} : (tensor<64x10xf32>, tensor<64x10xf32>, tensor<64x10xf32>, tensor<1xf32>) -> (tensor<64x10xf32>, tensor<64x10xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Param,
    Pd_FloatTensor:$Grad,
    Pd_FloatTensor:$Velocity,
    Pd_FloatTensor:$LearningRate,
    ConfinedAttr<F32Attr, [Pd_F32Min<"0.0">]>:$mu,
    DefaultValuedAttr<BoolAttr, "false">:$use_nesterov,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["", "l2_decay"]>]>, "">:$regularization_method,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Min<"0.0">]>, "0.0">:$regularization_coeff,
    DefaultValuedAttr<F32Attr, "1.0">:$rescale_grad
  );
  let results = (outs Pd_FloatTensor:$ParamOut, Pd_FloatTensor:$VelocityOut);
  let assemblyFormat = "$Param `,` $Grad `,` $Velocity `,` $LearningRate attr-dict `:` functional-type(operands, results)";
}

def Pd_AdamOp : Pd_Op<"adam"> {
  let summary = "one Adam step with bias correction from the running powers beta1^t, beta2^t (which it multiplies by beta1, beta2)";
  let description = [{
    Paddle operator `adam`: one Adam step with bias correction from the running powers beta1^t, beta2^t (which it multiplies by beta1, beta2).

    Input slots: Param, Grad, LearningRate, Moment1, Moment2, Beta1Pow, Beta2Pow. Output slots: ParamOut, Moment1Out, Moment2Out, Beta1PowOut, Beta2PowOut.

    Example:

    ```mlir
    %p1, %m1, %m2, %b1, %b2 = pd.adam %p, %g, %lr, %m, %v, %bp1, %bp2 : (tensor<64x10xf32>, tensor<64x10xf32>, tensor<1xf32>, tensor<64x10xf32>, tensor<64x10xf32>, tensor<1xf32>, tensor<1xf32>) -> (tensor<64x10xf32>, tensor<64x10xf32>, tensor<64x10xf32>, tensor<1xf32>, tensor<1xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Param,
    Pd_FloatTensor:$Grad,
    Pd_FloatTensor:$LearningRate,
    Pd_FloatTensor:$Moment1,
    Pd_FloatTensor:$Moment2,
    Pd_FloatTensor:$Beta1Pow,
    Pd_FloatTensor:$Beta2Pow,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Range<"0.0", "1.0">]>, "0.9">:$beta1,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Range<"0.0", "1.0">]>, "0.999">:$beta2,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Min<"0.0">]>, "1e-08">:$epsilon
  );
  let results = (outs Pd_FloatTensor:$ParamOut, Pd_FloatTensor:$Moment1Out, Pd_FloatTensor:$Moment2Out, Pd_FloatTensor:$Beta1PowOut, Pd_FloatTensor:$Beta2PowOut);
  let assemblyFormat = "$Param `,` $Grad `,` $LearningRate `,` $Moment1 `,` $Moment2 `,` $Beta1Pow `,` $Beta2Pow attr-dict `:` functional-type(operands, results)";
}

def Pd_AdamwOp : Pd_Op<"adamw"> {
  let summary = "Adam with decoupled weight decay: with_decay first scales param by 1 - lr[0] * lr_ratio * coeff, then the adam step";
  let description = [{
    Paddle operator `adamw`: Adam with decoupled weight decay: with_decay first scales param by 1 - lr[0] * lr_ratio * coeff, then the adam step.

    Input slots: Param, Grad, LearningRate, Moment1, Moment2, Beta1Pow, Beta2Pow. Output slots: ParamOut, Moment1Out, Moment2Out, Beta1PowOut, Beta2PowOut.

    Example:

    ```mlir
    %p1, %m1, %m2, %b1, %b2 = pd.adamw %p, %g, %lr, %m, %v, %bp1, %bp2 {with_decay = true} : (tensor<64x10xf32>, tensor<64x10xf32>, tensor<1xf32>, tensor<64x10xf32>, tensor<64x10xf32>, tensor<1xf32>, tensor<1xf32>) -> (tensor<64x10xf32>, tensor<64x10xf32>, tensor<64x10xf32>, tensor<1xf32>, tensor<1xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Param,
    Pd_FloatTensor:$Grad,
    Pd_FloatTensor:$LearningRate,
    Pd_FloatTensor:$Moment1,
    Pd_FloatTensor:$Moment2,
    Pd_FloatTensor:$Beta1Pow,
    Pd_FloatTensor:$Beta2Pow,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Range<"0.0", "1.0">]>, "0.9">:$beta1,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Range<"0.0", "1.0">]>, "0.999">:$beta2,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Min<"0.0">]>, "1e-08">:$epsilon,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Min<"0.0">]>, "0.01">:$coeff,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Min<"0.0">]>, "1.0">:$lr_ratio,
    DefaultValuedAttr<BoolAttr, "false">:$with_decay
  );
  let results = (outs Pd_FloatTensor:$ParamOut, Pd_FloatTensor:$Moment1Out, Pd_FloatTensor:$Moment2Out, Pd_FloatTensor:$Beta1PowOut, Pd_FloatTensor:$Beta2PowOut);
  let assemblyFormat = "$Param `,` $Grad `,` $LearningRate `,` $Moment1 `,` $Moment2 `,` $Beta1Pow `,` $Beta2Pow attr-dict `:` functional-type(operands, results)";
}

def Pd_LogSoftmaxOp : Pd_Op<"log_softmax"> {
  let summary = "log of softmax along an axis";
  let description = [{
    Paddle operator `log_softmax`: log of softmax along an axis.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.log_softmax %x {axis = 1 : i32} : (tensor<?x10xf32>) -> tensor<?x10xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$axis
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_ElementwiseAddOp : Pd_Op<"elementwise_add"> {
  let summary = "elementwise x + y with Paddle broadcasting";
  let description = [{
    Paddle operator `elementwise_add`: elementwise x + y with Paddle broadcasting.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.elementwise_add %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Pd_NumTensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_ElementwiseSubOp : Pd_Op<"elementwise_sub"> {
  let summary = "elementwise x - y with Paddle broadcasting";
  let description = [{
    Paddle operator `elementwise_sub`: elementwise x - y with Paddle broadcasting.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.elementwise_sub %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Pd_NumTensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_ElementwiseMulOp : Pd_Op<"elementwise_mul"> {
  let summary = "elementwise x * y with Paddle broadcasting";
  let description = [{
    Paddle operator `elementwise_mul`: elementwise x * y with Paddle broadcasting.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.elementwise_mul %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Pd_NumTensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_ElementwiseDivOp : Pd_Op<"elementwise_div"> {
  let summary = "elementwise x / y with Paddle broadcasting";
  let description = [{
    Paddle operator `elementwise_div`: elementwise x / y with Paddle broadcasting.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.elementwise_div %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Pd_NumTensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_ElementwiseMaxOp : Pd_Op<"elementwise_max"> {
  let summary = "elementwise max(x, y) with Paddle broadcasting";
  let description = [{
    Paddle operator `elementwise_max`: elementwise max(x, y) with Paddle broadcasting.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.elementwise_max %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Pd_NumTensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_ElementwiseMinOp : Pd_Op<"elementwise_min"> {
  let summary = "elementwise min(x, y) with Paddle broadcasting";
  let description = [{
    Paddle operator `elementwise_min`: elementwise min(x, y) with Paddle broadcasting.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.elementwise_min %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Pd_NumTensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_ElementwisePowOp : Pd_Op<"elementwise_pow"> {
  let summary = "elementwise x ^ y with Paddle broadcasting";
  let description = [{
    Paddle operator `elementwise_pow`: elementwise x ^ y with Paddle broadcasting.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.elementwise_pow %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Pd_NumTensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_ElementwiseModOp : Pd_Op<"elementwise_mod"> {
  let summary = "elementwise x mod y (sign of y) with Paddle broadcasting";
  let description = [{
    Paddle operator `elementwise_mod`: elementwise x mod y (sign of y) with Paddle broadcasting.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.elementwise_mod %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Pd_NumTensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_ElementwiseFloordivOp : Pd_Op<"elementwise_floordiv"> {
  let summary = "elementwise floor(x / y) with Paddle broadcasting";
  let description = [{
    Paddle operator `elementwise_floordiv`: elementwise floor(x / y) with Paddle broadcasting.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.elementwise_floordiv %x, %b {axis = 1 : i32} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Pd_NumTensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_BitwiseLeftShiftOp : Pd_Op<"bitwise_left_shift"> {
  let summary = "elementwise x << y (0 once y reaches the bit width) with Paddle broadcasting";
  let description = [{
    Paddle operator `bitwise_left_shift`: elementwise x << y (0 once y reaches the bit width) with Paddle broadcasting.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.bitwise_left_shift %x, %y : (tensor<?x8xi32>, tensor<?x8xi32>) -> tensor<?x8xi32>
    ```
  }];
  let arguments = (ins
    Pd_IntTensor:$X,
    Pd_IntTensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis,
    DefaultValuedAttr<BoolAttr, "true">:$is_arithmetic
  );
  let results = (outs Pd_IntTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_BitwiseRightShiftOp : Pd_Op<"bitwise_right_shift"> {
  let summary = "elementwise x >> y: arithmetic (sign fill) when is_arithmetic and x is signed, else logical; a shift of the bit width or more leaves only the fill";
  let description = [{
    Paddle operator `bitwise_right_shift`: elementwise x >> y: arithmetic (sign fill) when is_arithmetic and x is signed, else logical; a shift of the bit width or more leaves only the fill.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.bitwise_right_shift %x, %y : (tensor<?x8xi32>, tensor<?x8xi32>) -> tensor<?x8xi32>
    ```
  }];
  let arguments = (ins
    Pd_IntTensor:$X,
    Pd_IntTensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis,
    DefaultValuedAttr<BoolAttr, "true">:$is_arithmetic
  );
  let results = (outs Pd_IntTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_MulOp : Pd_Op<"mul"> {
  let summary = "matrix product of X and Y flattened to 2-D at x_num_col_dims / y_num_col_dims";
  let description = [{
    Paddle operator `mul`: matrix product of X and Y flattened to 2-D at x_num_col_dims / y_num_col_dims.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %y = pd.mul %x, %w : (tensor<?x1024xf32>, tensor<1024x1000xf32>) -> tensor<?x1000xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$x_num_col_dims,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$y_num_col_dims
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
}

def Pd_MatmulOp : Pd_Op<"matmul"> {
  let summary = "batched matrix product alpha * op(X) * op(Y) (Paddle 1.x)";
  let description = [{
    Paddle operator `matmul`: batched matrix product alpha * op(X) * op(Y) (Paddle 1.x).

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %y = pd.matmul %q, %k {transpose_Y = true, alpha = 0.125 : f32} : (tensor<?x12x128x64xf32>, tensor<?x12x128x64xf32>) -> tensor<?x12x128x128xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Y,
    DefaultValuedAttr<BoolAttr, "false">:$transpose_X,
    DefaultValuedAttr<BoolAttr, "false">:$transpose_Y,
    DefaultValuedAttr<F32Attr, "1.0">:$alpha
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
}

def Pd_MvOp : Pd_Op<"mv"> {
  let summary = "matrix-vector product: X [M, N] times Vec [N]";
  let description = [{
    Paddle operator `mv`: matrix-vector product: X [M, N] times Vec [N].

    Input slots: X, Vec. Output slots: Out.

    Example:

    ```mlir
    %y = pd.mv %x, %v : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Vec
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X `,` $Vec attr-dict `:` functional-type(operands, results)";
}

def Pd_BmmOp : Pd_Op<"bmm"> {
  let summary = "batched matrix product: X [B, M, K] times Y [B, K, N]";
  let description = [{
    Paddle operator `bmm`: batched matrix product: X [B, M, K] times Y [B, K, N].

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.bmm %x, %y : (tensor<?x4x8xf32>, tensor<?x8x3xf32>) -> tensor<?x4x3xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Y
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
}

def Pd_DotOp : Pd_Op<"dot"> {
  let summary = "inner product along the last dim of two same-shaped 1-D or 2-D tensors (the last dim kept as 1)";
  let description = [{
    Paddle operator `dot`: inner product along the last dim of two same-shaped 1-D or 2-D tensors (the last dim kept as 1).

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %y = pd.dot %x, %z : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Pd_NumTensor:$Y
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
}

def Pd_DistOp : Pd_Op<"dist"> {
  let summary = "p-norm of x - y (broadcast) as a 1-element tensor: max |d| for p = inf, min |d| for -inf, the nonzero count for p = 0";
  let description = [{
    Paddle operator `dist`: p-norm of x - y (broadcast) as a 1-element tensor: max |d| for p = inf, min |d| for -inf, the nonzero count for p = 0.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %y = pd.dist %x, %z {p = 3.0 : f32} : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<1xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Y,
    DefaultValuedAttr<F32Attr, "2.0">:$p
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
}

def Pd_NormOp : Pd_Op<"norm"> {
  let summary = "L2 normalization along an axis: Out = x / Norm with Norm = sqrt(sum(x^2) + epsilon) (axis kept as 1)";
  let description = [{
    Paddle operator `norm`: L2 normalization along an axis: Out = x / Norm with Norm = sqrt(sum(x^2) + epsilon) (axis kept as 1).

    Input slots: X. Output slots: Out, Norm.

    Example:

    ```mlir
    %y, %n = pd.norm %x {axis = 1 : i32} : (tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<?x1xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_I32Attr:$axis,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Min<"0.0">]>, "1e-10">:$epsilon,
    DefaultValuedAttr<BoolAttr, "false">:$is_test
  );
  let results = (outs Pd_FloatTensor:$Out, Pd_FloatTensor:$Norm);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_SizeOp : Pd_Op<"size"> {
  let summary = "the element count of the input as a 1-element int64 tensor (paddle.numel)";
  let description = [{
    Paddle operator `size`: the element count of the input as a 1-element int64 tensor (paddle.numel).

    Input slots: Input. Output slots: Out.

    Example:

    ```mlir
    %n = pd.size %x : (tensor<?x8xf32>) -> tensor<1xi64>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$Input
  );
  let results = (outs Pd_IndexTensor:$Out);
  let assemblyFormat = "$Input attr-dict `:` functional-type(operands, results)";
}

def Pd_MatmulV2Op : Pd_Op<"matmul_v2"> {
  let summary = "batched matrix product with numpy broadcasting of batch dims";
  let description = [{
    Paddle operator `matmul_v2`: batched matrix product with numpy broadcasting of batch dims.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %y = pd.matmul_v2 %x, %w : (tensor<?x128x768xf32>, tensor<768x768xf32>) -> tensor<?x128x768xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Y,
    DefaultValuedAttr<BoolAttr, "false">:$trans_x,
    DefaultValuedAttr<BoolAttr, "false">:$trans_y
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
}

def Pd_ScaleOp : Pd_Op<"scale"> {
  let summary = "x * scale + bias (or (x + bias) * scale)";
  let description = [{
    Paddle operator `scale`: x * scale + bias (or (x + bias) * scale).

    Input slots: X, ScaleTensor (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.scale %x {scale = 0.5 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Optional<Pd_FloatTensor>:$ScaleTensor,
    DefaultValuedAttr<F32Attr, "1.0">:$scale,
    DefaultValuedAttr<F32Attr, "0.0">:$bias,
    DefaultValuedAttr<BoolAttr, "true">:$bias_after_scale
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X (`ScaleTensor` `(` $ScaleTensor^ `)`)? attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_IncrementOp : Pd_Op<"increment"> {
  let summary = "x + step: the counter of a while loop (one element)";
  let description = [{
    Paddle operator `increment`: x + step: the counter of a while loop (one element).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %j = pd.increment %i {step = 1.0 : f32} : (tensor<1xi64>) -> tensor<1xi64>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    DefaultValuedAttr<F32Attr, "1.0">:$step
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_ClipOp : Pd_Op<"clip", [AttrSizedOperandSegments]> {
  let summary = "clamps x to [min, max]";
  let description = [{
    Paddle operator `clip`: clamps x to [min, max].

    Input slots: X, Min (optional), Max (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.clip %x {min = 0.0 : f32, max = 6.0 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Optional<Pd_FloatTensor>:$MinInput,
    Optional<Pd_FloatTensor>:$MaxInput,
    F32Attr:$min,
    F32Attr:$max
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X (`Min` `(` $MinInput^ `)`)? (`Max` `(` $MaxInput^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_DropoutOp : Pd_Op<"dropout"> {
  let summary = "dropout; at inference the identity (upscale_in_train) or x * (1 - p) (downgrade_in_infer)";
  let description = [{
    Paddle operator `dropout`: dropout; at inference the identity (upscale_in_train) or x * (1 - p) (downgrade_in_infer).

    Input slots: X, Seed (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.dropout %x {dropout_prob = 0.1 : f32, is_test = true} : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_IntTensor>:$SeedInput,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Range<"0.0", "1.0">]>, "0.5">:$dropout_prob,
    DefaultValuedAttr<BoolAttr, "false">:$is_test,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["downgrade_in_infer", "upscale_in_train"]>]>, "downgrade_in_infer">:$dropout_implementation,
    DefaultValuedAttr<BoolAttr, "false">:$fix_seed,
    DefaultValuedAttr<Pd_I32Attr, "0">:$seed
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X (`Seed` `(` $SeedInput^ `)`)? attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_CastOp : Pd_Op<"cast"> {
  let summary = "converts the element type (in_dtype/out_dtype are Paddle VarType codes)";
  let description = [{
    Paddle operator `cast`: converts the element type (in_dtype/out_dtype are Paddle VarType codes).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.cast %x {in_dtype = 5 : i32, out_dtype = 3 : i32} : (tensor<?x4xf32>) -> tensor<?x4xi64>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>:$in_dtype,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>:$out_dtype
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Pd_Reshape2Op : Pd_Op<"reshape2", [AttrSizedOperandSegments]> {
  let summary = "reshape; 0 copies the input dim, -1 is inferred";
  let description = [{
    Paddle operator `reshape2`: reshape; 0 copies the input dim, -1 is inferred.

    Input slots: X, Shape (optional), ShapeTensor (list). Output slots: Out.

    Example:

    ```mlir
    %y = pd.reshape2 %x {shape = array<i32: 0, -1, 12, 64>} : (tensor<?x128x768xf32>) -> tensor<?x128x12x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Optional<Pd_IndexTensor>:$ShapeInput,
    Variadic<Pd_IndexTensor>:$ShapeTensor,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$shape
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X (`Shape` `(` $ShapeInput^ `)`)? (`ShapeTensor` `[` $ShapeTensor^ `]`)? attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Pd_Transpose2Op : Pd_Op<"transpose2"> {
  let summary = "permutes the dims of x";
  let description = [{
    Paddle operator `transpose2`: permutes the dims of x.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.transpose2 %x {axis = array<i32: 0, 2, 1, 3>} : (tensor<?x128x12x64xf32>) -> tensor<?x12x128x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    DenseI32ArrayAttr:$axis,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout"]>]>, "AnyLayout">:$data_format
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Pd_FlattenContiguousRangeOp : Pd_Op<"flatten_contiguous_range"> {
  let summary = "merges dims start_axis..stop_axis";
  let description = [{
    Paddle operator `flatten_contiguous_range`: merges dims start_axis..stop_axis.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.flatten_contiguous_range %x {stop_axis = 3 : i32} : (tensor<?x64x7x7xf32>) -> tensor<?x3136xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    DefaultValuedAttr<Pd_I32Attr, "1">:$start_axis,
    DefaultValuedAttr<Pd_I32Attr, "1">:$stop_axis
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Pd_Flatten2Op : Pd_Op<"flatten2"> {
  let summary = "flattens to 2-D: dims before axis and dims from axis on";
  let description = [{
    Paddle operator `flatten2`: flattens to 2-D: dims before axis and dims from axis on.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.flatten2 %x : (tensor<?x64x7x7xf32>) -> tensor<?x3136xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "1">:$axis
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_Squeeze2Op : Pd_Op<"squeeze2"> {
  let summary = "removes size-1 dims (the listed ones, or all when axes is empty)";
  let description = [{
    Paddle operator `squeeze2`: removes size-1 dims (the listed ones, or all when axes is empty).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.squeeze2 %x {axes = array<i32: 2, 3>} : (tensor<?x1000x1x1xf32>) -> tensor<?x1000xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$axes
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Pd_Unsqueeze2Op : Pd_Op<"unsqueeze2", [AttrSizedOperandSegments]> {
  let summary = "inserts size-1 dims at the listed positions";
  let description = [{
    Paddle operator `unsqueeze2`: inserts size-1 dims at the listed positions.

    Input slots: X, AxesTensor (optional), AxesTensorList (list). Output slots: Out.

    Example:

    ```mlir
    %y = pd.unsqueeze2 %x {axes = array<i32: 1, 2>} : (tensor<?x128xi64>) -> tensor<?x1x1x128xi64>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Optional<Pd_IndexTensor>:$AxesTensor,
    Variadic<Pd_IndexTensor>:$AxesTensorList,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$axes
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X (`AxesTensor` `(` $AxesTensor^ `)`)? (`AxesTensorList` `[` $AxesTensorList^ `]`)? attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Pd_ConcatOp : Pd_Op<"concat", [AttrSizedOperandSegments]> {
  let summary = "concatenates tensors along an axis";
  let description = [{
    Paddle operator `concat`: concatenates tensors along an axis.

    Input slots: X (list), AxisTensor (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.concat [%a, %b] {axis = 1 : i32} : (tensor<?x16x8x8xf32>, tensor<?x32x8x8xf32>) -> tensor<?x48x8x8xf32>
    ```
  }];
  let arguments = (ins
    Variadic<Pd_Tensor>:$X,
    Optional<Pd_IndexTensor>:$AxisTensor,
    DefaultValuedAttr<Pd_I32Attr, "0">:$axis
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "` ` `[` $X `]` (`AxisTensor` `(` $AxisTensor^ `)`)? attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Pd_SplitOp : Pd_Op<"split", [AttrSizedOperandSegments]> {
  let summary = "splits a tensor along an axis into num equal parts or the given sections";
  let description = [{
    Paddle operator `split`: splits a tensor along an axis into num equal parts or the given sections.

    Input slots: X, AxisTensor (optional), SectionsTensorList (list). Output slots: Out (list).

    Example:

    ```mlir
    %a, %b = pd.split %x {num = 2 : i32, axis = 1 : i32} : (tensor<?x64xf32>) -> (tensor<?x32xf32>, tensor<?x32xf32>)
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Optional<Pd_IndexTensor>:$AxisTensor,
    Variadic<Pd_IndexTensor>:$SectionsTensorList,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$num,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$sections,
    DefaultValuedAttr<Pd_I32Attr, "0">:$axis
  );
  let results = (outs Variadic<Pd_Tensor>:$Out);
  let assemblyFormat = "$X (`AxisTensor` `(` $AxisTensor^ `)`)? (`SectionsTensorList` `[` $SectionsTensorList^ `]`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_SliceOp : Pd_Op<"slice", [AttrSizedOperandSegments]> {
  let summary = "takes [start, end) along the listed axes";
  let description = [{
    Paddle operator `slice`: takes [start, end) along the listed axes.

    Input slots: Input, StartsTensor (optional), EndsTensor (optional), StartsTensorList (list), EndsTensorList (list). Output slots: Out.

    Example:

    ```mlir
    %y = pd.slice %x {axes = array<i32: 1>, starts = array<i32: 0>, ends = array<i32: 1>, decrease_axis = array<i32: 1>} : (tensor<?x128x768xf32>) -> tensor<?x768xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$Input,
    Optional<Pd_IndexTensor>:$StartsTensor,
    Optional<Pd_IndexTensor>:$EndsTensor,
    Variadic<Pd_IndexTensor>:$StartsTensorList,
    Variadic<Pd_IndexTensor>:$EndsTensorList,
    DenseI32ArrayAttr:$axes,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$starts,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$ends,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$infer_flags,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$decrease_axis
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$Input (`StartsTensor` `(` $StartsTensor^ `)`)? (`EndsTensor` `(` $EndsTensor^ `)`)? (`StartsTensorList` `[` $StartsTensorList^ `]`)? (`EndsTensorList` `[` $EndsTensorList^ `]`)? attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Pd_StridedSliceOp : Pd_Op<"strided_slice", [AttrSizedOperandSegments]> {
  let summary = "takes every stride-th element of [start, end) along the listed axes";
  let description = [{
    Paddle operator `strided_slice`: takes every stride-th element of [start, end) along the listed axes.

    Input slots: Input, StartsTensor (optional), EndsTensor (optional), StridesTensor (optional), StartsTensorList (list), EndsTensorList (list), StridesTensorList (list). Output slots: Out.

    Example:

    ```mlir
    %y = pd.strided_slice %x {axes = array<i32: 1>, starts = array<i32: 0>, ends = array<i32: 8>, strides = array<i32: 2>} : (tensor<?x8xf32>) -> tensor<?x4xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$Input,
    Optional<Pd_IndexTensor>:$StartsTensor,
    Optional<Pd_IndexTensor>:$EndsTensor,
    Optional<Pd_IndexTensor>:$StridesTensor,
    Variadic<Pd_IndexTensor>:$StartsTensorList,
    Variadic<Pd_IndexTensor>:$EndsTensorList,
    Variadic<Pd_IndexTensor>:$StridesTensorList,
    DenseI32ArrayAttr:$axes,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$starts,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$ends,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$strides,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$infer_flags,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$decrease_axis
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$Input (`StartsTensor` `(` $StartsTensor^ `)`)? (`EndsTensor` `(` $EndsTensor^ `)`)? (`StridesTensor` `(` $StridesTensor^ `)`)? (`StartsTensorList` `[` $StartsTensorList^ `]`)? (`EndsTensorList` `[` $EndsTensorList^ `]`)? (`StridesTensorList` `[` $StridesTensorList^ `]`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_EinsumOp : Pd_Op<"einsum"> {
  let summary = "Einstein summation over the operands (numpy notation, \"...\" broadcasts)";
  let description = [{
    Paddle operator `einsum`: Einstein summation over the operands (numpy notation, "..." broadcasts).

    Input slots: Operands (list). Output slots: Out.

    Example:

    ```mlir
    %y = pd.einsum [%a, %b] {equation = "bij,bjk->bik"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    ```
  }];
  let arguments = (ins
    Variadic<Pd_NumTensor>:$Operands,
    StrAttr:$equation
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "` ` `[` $Operands `]` attr-dict `:` functional-type(operands, results)";
}

def Pd_StackOp : Pd_Op<"stack"> {
  let summary = "stacks same-shaped tensors on a new axis";
  let description = [{
    Paddle operator `stack`: stacks same-shaped tensors on a new axis.

    Input slots: X (list). Output slots: Y.

    Example:

    ```mlir
    %y = pd.stack [%a, %b] {axis = 1 : i32} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x2x4xf32>
    ```
  }];
  let arguments = (ins
    Variadic<Pd_Tensor>:$X,
    DefaultValuedAttr<Pd_I32Attr, "0">:$axis
  );
  let results = (outs Pd_Tensor:$Y);
  let assemblyFormat = "` ` `[` $X `]` attr-dict `:` functional-type(operands, results)";
}

def Pd_UnstackOp : Pd_Op<"unstack"> {
  let summary = "splits a tensor into its slices along an axis, removing that axis";
  let description = [{
    Paddle operator `unstack`: splits a tensor into its slices along an axis, removing that axis.

    Input slots: X. Output slots: Y (list).

    Example:

    ```mlir
    %a, %b = pd.unstack %x {axis = 1 : i32, num = 2 : i32} : (tensor<?x2x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>)
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    DefaultValuedAttr<Pd_I32Attr, "0">:$axis,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$num
  );
  let results = (outs Variadic<Pd_Tensor>:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_ExpandV2Op : Pd_Op<"expand_v2", [AttrSizedOperandSegments]> {
  let summary = "broadcasts x to a shape (-1 keeps the input dim)";
  let description = [{
    Paddle operator `expand_v2`: broadcasts x to a shape (-1 keeps the input dim).

    Input slots: X, Shape (optional), expand_shapes_tensor (list). Output slots: Out.

    Example:

    ```mlir
    %y = pd.expand_v2 %x {shape = array<i32: 4, -1, 8>} : (tensor<1x1x8xf32>) -> tensor<4x1x8xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Optional<Pd_IndexTensor>:$ShapeInput,
    Variadic<Pd_IndexTensor>:$expand_shapes_tensor,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$shape
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X (`Shape` `(` $ShapeInput^ `)`)? (`expand_shapes_tensor` `[` $expand_shapes_tensor^ `]`)? attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Pd_TileOp : Pd_Op<"tile", [AttrSizedOperandSegments]> {
  let summary = "repeats x along each dim";
  let description = [{
    Paddle operator `tile`: repeats x along each dim.

    Input slots: X, RepeatTimes (optional), repeat_times_tensor (list). Output slots: Out.

    Example:

    ```mlir
    %y = pd.tile %x {repeat_times = array<i32: 2, 3>} : (tensor<2x4xf32>) -> tensor<4x12xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Optional<Pd_IndexTensor>:$RepeatTimesInput,
    Variadic<Pd_IndexTensor>:$repeat_times_tensor,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>]>, "{}">:$repeat_times
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X (`RepeatTimes` `(` $RepeatTimesInput^ `)`)? (`repeat_times_tensor` `[` $repeat_times_tensor^ `]`)? attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Pd_ExpandOp : Pd_Op<"expand", [AttrSizedOperandSegments]> {
  let summary = "Fluid's expand: repeats x along each of its dims (one count per dim)";
  let description = [{
    Paddle operator `expand`: Fluid's expand: repeats x along each of its dims (one count per dim).

    Input slots: X, ExpandTimes (optional), expand_times_tensor (list). Output slots: Out.

    Example:

    ```mlir
    %y = pd.expand %x {expand_times = array<i32: 2, 3>} : (tensor<2x4xf32>) -> tensor<4x12xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Optional<Pd_IndexTensor>:$ExpandTimesInput,
    Variadic<Pd_IndexTensor>:$expand_times_tensor,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>]>, "{}">:$expand_times
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X (`ExpandTimes` `(` $ExpandTimesInput^ `)`)? (`expand_times_tensor` `[` $expand_times_tensor^ `]`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_ExpandAsOp : Pd_Op<"expand_as"> {
  let summary = "Fluid's expand_as: repeats x along each dim up to target_tensor's shape (a multiple of x's)";
  let description = [{
    Paddle operator `expand_as`: Fluid's expand_as: repeats x along each dim up to target_tensor's shape (a multiple of x's).

    Input slots: X, target_tensor. Output slots: Out.

    Example:

    ```mlir
    %y = pd.expand_as %x, %t : (tensor<2x4xf32>, tensor<4x12xf32>) -> tensor<4x12xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_Tensor:$target_tensor
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X `,` $target_tensor attr-dict `:` functional-type(operands, results)";
}

def Pd_ExpandAsV2Op : Pd_Op<"expand_as_v2"> {
  let summary = "broadcasts x to the shape of y (or to target_shape without y; -1 keeps the input dim)";
  let description = [{
    Paddle operator `expand_as_v2`: broadcasts x to the shape of y (or to target_shape without y; -1 keeps the input dim).

    Input slots: X, Y (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.expand_as_v2 %x Y(%t) : (tensor<1x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Optional<Pd_Tensor>:$Y,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$target_shape
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X (`Y` `(` $Y^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_MeshgridOp : Pd_Op<"meshgrid"> {
  let summary = "coordinate grids of 1-D tensors (ij indexing): output i repeats input i along dim i";
  let description = [{
    Paddle operator `meshgrid`: coordinate grids of 1-D tensors (ij indexing): output i repeats input i along dim i.

    Input slots: X (list). Output slots: Out (list).

    Example:

    ```mlir
    %a, %b = pd.meshgrid [%x, %z] : (tensor<3xf32>, tensor<?xf32>) -> (tensor<3x?xf32>, tensor<3x?xf32>)
    ```
  }];
  let arguments = (ins
    Variadic<Pd_Tensor>:$X
  );
  let results = (outs Variadic<Pd_Tensor>:$Out);
  let assemblyFormat = "` ` `[` $X `]` attr-dict `:` functional-type(operands, results)";
}

def Pd_PadOp : Pd_Op<"pad"> {
  let summary = "constant padding of every dim: paddings = [before_0, after_0, before_1, after_1, ...]";
  let description = [{
    Paddle operator `pad`: constant padding of every dim: paddings = [before_0, after_0, before_1, after_1, ...].

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.pad %x {paddings = array<i32: 0, 0, 1, 2>} : (tensor<?x8xf32>) -> tensor<?x11xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>]>:$paddings,
    DefaultValuedAttr<F32Attr, "0.0">:$pad_value
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_Pad2dOp : Pd_Op<"pad2d"> {
  let summary = "Fluid's padding of the H and W dims of a 4-D tensor: paddings = [top, bottom, left, right]";
  let description = [{
    Paddle operator `pad2d`: Fluid's padding of the H and W dims of a 4-D tensor: paddings = [top, bottom, left, right].

    Input slots: X, Paddings (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.pad2d %x {paddings = array<i32: 1, 1, 2, 2>, mode = "reflect"} : (tensor<?x3x8x8xf32>) -> tensor<?x3x10x12xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Optional<Pd_IndexTensor>:$PaddingsInput,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[4]>]>, "{0, 0, 0, 0}">:$paddings,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["constant", "reflect", "edge"]>]>, "constant">:$mode,
    DefaultValuedAttr<F32Attr, "0.0">:$pad_value,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC"]>]>, "NCHW">:$data_format
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X (`Paddings` `(` $PaddingsInput^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_GatherOp : Pd_Op<"gather"> {
  let summary = "takes the slices of x at the given indices along an axis";
  let description = [{
    Paddle operator `gather`: takes the slices of x at the given indices along an axis.

    Input slots: X, Index, Axis (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.gather %x, %i : (tensor<100x16xf32>, tensor<?xi64>) -> tensor<?x16xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_IndexTensor:$Index,
    Optional<Pd_IndexTensor>:$AxisInput,
    DefaultValuedAttr<Pd_I32Attr, "0">:$axis
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X `,` $Index (`Axis` `(` $AxisInput^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_IndexSelectOp : Pd_Op<"index_select"> {
  let summary = "takes the slices of x at the given 1-D indices along dim";
  let description = [{
    Paddle operator `index_select`: takes the slices of x at the given 1-D indices along dim.

    Input slots: X, Index. Output slots: Out.

    Example:

    ```mlir
    %y = pd.index_select %x, %i {dim = 1 : i32} : (tensor<4x10xf32>, tensor<?xi64>) -> tensor<4x?xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_IndexTensor:$Index,
    DefaultValuedAttr<Pd_I32Attr, "0">:$dim
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X `,` $Index attr-dict `:` functional-type(operands, results)";
}

def Pd_GatherNdOp : Pd_Op<"gather_nd"> {
  let summary = "gathers slices of x addressed by the last dim of index";
  let description = [{
    Paddle operator `gather_nd`: gathers slices of x addressed by the last dim of index.

    Input slots: X, Index. Output slots: Out.

    Example:

    ```mlir
    %y = pd.gather_nd %x, %i : (tensor<4x5x6xf32>, tensor<?x2xi64>) -> tensor<?x6xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_IndexTensor:$Index
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X `,` $Index attr-dict `:` functional-type(operands, results)";
}

def Pd_ScatterNdAddOp : Pd_Op<"scatter_nd_add"> {
  let summary = "adds each update slice into x at the index tuple along Index's last dim";
  let description = [{
    Paddle operator `scatter_nd_add`: adds each update slice into x at the index tuple along Index's last dim.

    Input slots: X, Index, Updates. Output slots: Out.

    Example:

    ```mlir
    %y = pd.scatter_nd_add %x, %i, %u : (tensor<4x5xf32>, tensor<3x1xi64>, tensor<3x5xf32>) -> tensor<4x5xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Pd_IndexTensor:$Index,
    Pd_NumTensor:$Updates
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X `,` $Index `,` $Updates attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_ScatterOp : Pd_Op<"scatter"> {
  let summary = "writes the rows of updates into x at the 1-D ids, in order (later rows win); without overwrite, the addressed rows are zeroed and then the updates summed into them";
  let description = [{
    Paddle operator `scatter`: writes the rows of updates into x at the 1-D ids, in order (later rows win); without overwrite, the addressed rows are zeroed and then the updates summed into them.

    Input slots: X, Ids, Updates. Output slots: Out.

    Example:

    ```mlir
    %y = pd.scatter %x, %i, %u : (tensor<8x4xf32>, tensor<?xi64>, tensor<?x4xf32>) -> tensor<8x4xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Pd_IndexTensor:$Ids,
    Pd_NumTensor:$Updates,
    DefaultValuedAttr<BoolAttr, "true">:$overwrite
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X `,` $Ids `,` $Updates attr-dict `:` functional-type(operands, results)";
}

def Pd_IndexPutOp : Pd_Op<"index_put"> {
  let summary = "writes (or, with accumulate, adds) value at the positions an index tuple or a bool mask selects";
  let description = [{
    Paddle operator `index_put`: writes (or, with accumulate, adds) value at the positions an index tuple or a bool mask selects.

    Input slots: x, indices (list), value. Output slots: out.

    Example:

    ```mlir
    %y = pd.index_put %x, %v indices[%m] : (tensor<?x8xi64>, tensor<?x8xi1>, tensor<1xi64>) -> tensor<?x8xi64>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$x,
    Variadic<Pd_Tensor>:$indices,
    Pd_Tensor:$value,
    DefaultValuedAttr<BoolAttr, "false">:$accumulate
  );
  let results = (outs Pd_Tensor:$out);
  let assemblyFormat = "$x `,` $value (`indices` `[` $indices^ `]`)? attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_SetValueOp : Pd_Op<"set_value", [AttrSizedOperandSegments]> {
  let summary = "a copy of input with a strided slice overwritten by ValueTensor or by the listed values (broadcast)";
  let description = [{
    Paddle operator `set_value`: a copy of input with a strided slice overwritten by ValueTensor or by the listed values (broadcast).

    Input slots: Input, ValueTensor (optional), StartsTensorList (list), EndsTensorList (list), StepsTensorList (list). Output slots: Out.

    Example:

    ```mlir
    %y = pd.set_value %x {axes = array<i64: 1>, starts = array<i64: 0>, ends = array<i64: 1>, steps = array<i64: 1>, dtype = 3 : i32, shape = array<i64: 1>, int64_values = array<i64: 0>} : (tensor<?x8xi64>) -> tensor<?x8xi64>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$Input,
    Optional<Pd_Tensor>:$ValueTensor,
    Variadic<Pd_IndexTensor>:$StartsTensorList,
    Variadic<Pd_IndexTensor>:$EndsTensorList,
    Variadic<Pd_IndexTensor>:$StepsTensorList,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$axes,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$starts,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$ends,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$steps,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$decrease_axes,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$none_axes,
    DefaultValuedAttr<Pd_I32Attr, "5">:$dtype,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$shape,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$bool_values,
    DefaultValuedAttr<DenseF32ArrayAttr, "{}">:$fp32_values,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$int32_values,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$int64_values
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$Input (`ValueTensor` `(` $ValueTensor^ `)`)? (`StartsTensorList` `[` $StartsTensorList^ `]`)? (`EndsTensorList` `[` $EndsTensorList^ `]`)? (`StepsTensorList` `[` $StepsTensorList^ `]`)? attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getInput().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_TakeAlongAxisOp : Pd_Op<"take_along_axis"> {
  let summary = "picks elements of input along an axis at the positions in index (index has input's rank)";
  let description = [{
    Paddle operator `take_along_axis`: picks elements of input along an axis at the positions in index (index has input's rank).

    Input slots: Input, Index. Output slots: Result.

    Example:

    ```mlir
    %y = pd.take_along_axis %x, %i {Axis = 1 : i32} : (tensor<4x5xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$Input,
    Pd_IndexTensor:$Index,
    DefaultValuedAttr<Pd_I32Attr, "0">:$Axis
  );
  let results = (outs Pd_Tensor:$Result);
  let assemblyFormat = "$Input `,` $Index attr-dict `:` functional-type(operands, results)";
}

def Pd_TrilTriuOp : Pd_Op<"tril_triu"> {
  let summary = "keeps the lower (or upper) triangle of the last two dims from a diagonal offset, zeroes the rest";
  let description = [{
    Paddle operator `tril_triu`: keeps the lower (or upper) triangle of the last two dims from a diagonal offset, zeroes the rest.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.tril_triu %x {lower = false} : (tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    DefaultValuedAttr<Pd_I32Attr, "0">:$diagonal,
    DefaultValuedAttr<BoolAttr, "true">:$lower
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_RollOp : Pd_Op<"roll"> {
  let summary = "circular shift along the listed axes (of the flattened tensor without axes), as np.roll";
  let description = [{
    Paddle operator `roll`: circular shift along the listed axes (of the flattened tensor without axes), as np.roll.

    Input slots: X, ShiftsTensor (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.roll %x {shifts = array<i64: 2>, axis = array<i64: 1>} : (tensor<?x8xf32>) -> tensor<?x8xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Optional<Pd_IndexTensor>:$ShiftsTensor,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$shifts,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$axis
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X (`ShiftsTensor` `(` $ShiftsTensor^ `)`)? attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_PixelShuffleOp : Pd_Op<"pixel_shuffle"> {
  let summary = "depth to space: [N, C r^2, H, W] -> [N, C, H r, W r], channel c r^2 + i r + j going to offset (i, j)";
  let description = [{
    Paddle operator `pixel_shuffle`: depth to space: [N, C r^2, H, W] -> [N, C, H r, W r], channel c r^2 + i r + j going to offset (i, j).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.pixel_shuffle %x {upscale_factor = 2 : i32} : (tensor<?x12x4x4xf32>) -> tensor<?x3x8x8xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$upscale_factor,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC"]>]>, "NCHW">:$data_format
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_FlipOp : Pd_Op<"flip"> {
  let summary = "reverses x along the listed dims";
  let description = [{
    Paddle operator `flip`: reverses x along the listed dims.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.flip %x {axis = array<i32: 1>} : (tensor<?x8xf32>) -> tensor<?x8xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    DenseI32ArrayAttr:$axis
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_LookupTableOp : Pd_Op<"lookup_table"> {
  let summary = "embedding lookup; Ids has a trailing dim of 1 (Paddle 1.x)";
  let description = [{
    Paddle operator `lookup_table`: embedding lookup; Ids has a trailing dim of 1 (Paddle 1.x).

    Input slots: W, Ids. Output slots: Out.

    Example:

    ```mlir
    %y = pd.lookup_table %w, %ids : (tensor<1000x64xf32>, tensor<?x1xi64>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$W,
    Pd_IndexTensor:$Ids,
    DefaultValuedAttr<Pd_I64Attr, "-1">:$padding_idx,
    DefaultValuedAttr<BoolAttr, "false">:$is_sparse
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$W `,` $Ids attr-dict `:` functional-type(operands, results)";
}

def Pd_LookupTableV2Op : Pd_Op<"lookup_table_v2"> {
  let summary = "embedding lookup; the output appends the embedding dim to Ids' shape";
  let description = [{
    Paddle operator `lookup_table_v2`: embedding lookup; the output appends the embedding dim to Ids' shape.

    Input slots: W, Ids. Output slots: Out.

    Example:

    ```mlir
    %y = pd.lookup_table_v2 %w, %ids : (tensor<30522x768xf32>, tensor<?x128xi64>) -> tensor<?x128x768xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$W,
    Pd_IndexTensor:$Ids,
    DefaultValuedAttr<Pd_I64Attr, "-1">:$padding_idx,
    DefaultValuedAttr<BoolAttr, "false">:$is_sparse
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$W `,` $Ids attr-dict `:` functional-type(operands, results)";
}

def Pd_OneHotV2Op : Pd_Op<"one_hot_v2"> {
  let summary = "one-hot encoding with depth classes appended as the last dim";
  let description = [{
    Paddle operator `one_hot_v2`: one-hot encoding with depth classes appended as the last dim.

    Input slots: X, depth_tensor (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.one_hot_v2 %x {depth = 10 : i32} : (tensor<?xi64>) -> tensor<?x10xf32>
    ```
  }];
  let arguments = (ins
    Pd_IndexTensor:$X,
    Optional<Pd_IndexTensor>:$depth_tensor,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$depth,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "5">:$dtype,
    DefaultValuedAttr<BoolAttr, "false">:$allow_out_of_range
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X (`depth_tensor` `(` $depth_tensor^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_FillConstantOp : Pd_Op<"fill_constant", [AttrSizedOperandSegments]> {
  let summary = "a tensor of the given shape filled with one value";
  let description = [{
    Paddle operator `fill_constant`: a tensor of the given shape filled with one value.

    Input slots: ValueTensor (optional), ShapeTensor (optional), ShapeTensorList (list). Output slots: Out.

    Example:

    ```mlir
    %y = pd.fill_constant {shape = array<i64: 2, 3>, value = 1.0 : f32} : () -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins
    Optional<Pd_NumTensor>:$ValueTensor,
    Optional<Pd_IndexTensor>:$ShapeTensor,
    Variadic<Pd_IndexTensor>:$ShapeTensorList,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$shape,
    DefaultValuedAttr<F32Attr, "0.0">:$value,
    DefaultValuedStrAttr<StrAttr, "">:$str_value,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "5">:$dtype,
    DefaultValuedAttr<BoolAttr, "false">:$force_cpu
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "(`ValueTensor` `(` $ValueTensor^ `)`)? (`ShapeTensor` `(` $ShapeTensor^ `)`)? (`ShapeTensorList` `[` $ShapeTensorList^ `]`)? attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Pd_UniformRandomOp : Pd_Op<"uniform_random", [AttrSizedOperandSegments]> {
  let summary = "uniform random numbers in [min, max) from a counter-based generator keyed by the seed (the same values on every run and thread count); diag_num elements at a stride of diag_step + 1 set to diag_val";
  let description = [{
    Paddle operator `uniform_random`: uniform random numbers in [min, max) from a counter-based generator keyed by the seed (the same values on every run and thread count); diag_num elements at a stride of diag_step + 1 set to diag_val.

    Input slots: ShapeTensor (optional), ShapeTensorList (list). Output slots: Out.

    Example:

    ```mlir
    %y = pd.uniform_random {shape = array<i64: 2, 3>, seed = 7 : i32} : () -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins
    Optional<Pd_IndexTensor>:$ShapeTensor,
    Variadic<Pd_IndexTensor>:$ShapeTensorList,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$shape,
    DefaultValuedAttr<F32Attr, "-1.0">:$min,
    DefaultValuedAttr<F32Attr, "1.0">:$max,
    DefaultValuedAttr<Pd_I32Attr, "0">:$seed,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "5">:$dtype,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$diag_num,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$diag_step,
    DefaultValuedAttr<F32Attr, "1.0">:$diag_val
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "(`ShapeTensor` `(` $ShapeTensor^ `)`)? (`ShapeTensorList` `[` $ShapeTensorList^ `]`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_UniformRandomBatchSizeLikeOp : Pd_Op<"uniform_random_batch_size_like"> {
  let summary = "uniform_random of `shape`, dim output_dim_idx taken from Input's dim input_dim_idx";
  let description = [{
    Paddle operator `uniform_random_batch_size_like`: uniform_random of `shape`, dim output_dim_idx taken from Input's dim input_dim_idx.

    Input slots: Input. Output slots: Out.

    Example:

    ```mlir
    %y = pd.uniform_random_batch_size_like %x {shape = array<i32: -1, 16>, seed = 3 : i32} : (tensor<?x8xf32>) -> tensor<?x16xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$Input,
    DenseI32ArrayAttr:$shape,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$input_dim_idx,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$output_dim_idx,
    DefaultValuedAttr<F32Attr, "-1.0">:$min,
    DefaultValuedAttr<F32Attr, "1.0">:$max,
    DefaultValuedAttr<Pd_I32Attr, "0">:$seed,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "5">:$dtype,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$diag_num,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$diag_step,
    DefaultValuedAttr<F32Attr, "1.0">:$diag_val
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$Input attr-dict `:` functional-type(operands, results)";
}

def Pd_FillAnyLikeOp : Pd_Op<"fill_any_like"> {
  let summary = "a tensor shaped like x filled with one value (dtype -1 keeps x's type)";
  let description = [{
    Paddle operator `fill_any_like`: a tensor shaped like x filled with one value (dtype -1 keeps x's type).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.fill_any_like %x {value = 1.0 : f32} : (tensor<?x4xf32>) -> tensor<?x4xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    DefaultValuedAttr<F32Attr, "0.0">:$value,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$dtype
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_ShapeOp : Pd_Op<"shape"> {
  let summary = "the shape of the input as a 1-D i32 tensor";
  let description = [{
    Paddle operator `shape`: the shape of the input as a 1-D i32 tensor.

    Input slots: Input. Output slots: Out.

    Example:

    ```mlir
    %s = pd.shape %x : (tensor<?x3x224x224xf32>) -> tensor<4xi32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$Input
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$Input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Pd_RangeOp : Pd_Op<"range"> {
  let summary = "the 1-D sequence start, start + step, ... below end";
  let description = [{
    Paddle operator `range`: the 1-D sequence start, start + step, ... below end.

    Input slots: Start, End, Step. Output slots: Out.

    Example:

    ```mlir
    %y = pd.range %s, %e, %st : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xi64>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$Start,
    Pd_NumTensor:$End,
    Pd_NumTensor:$Step
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$Start `,` $End `,` $Step attr-dict `:` functional-type(operands, results)";
}

def Pd_AssignOp : Pd_Op<"assign"> {
  let summary = "copies x";
  let description = [{
    Paddle operator `assign`: copies x.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.assign %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_ReduceMeanOp : Pd_Op<"reduce_mean"> {
  let summary = "mean over the listed dims";
  let description = [{
    Paddle operator `reduce_mean`: mean over the listed dims.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %s = pd.reduce_mean %x {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xf32>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    DefaultValuedAttr<DenseI32ArrayAttr, "{0}">:$dim,
    DefaultValuedAttr<BoolAttr, "false">:$keep_dim,
    DefaultValuedAttr<BoolAttr, "false">:$reduce_all,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$in_dtype,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_dtype
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_ReduceSumOp : Pd_Op<"reduce_sum"> {
  let summary = "sum over the listed dims";
  let description = [{
    Paddle operator `reduce_sum`: sum over the listed dims.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %s = pd.reduce_sum %x {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xf32>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    DefaultValuedAttr<DenseI32ArrayAttr, "{0}">:$dim,
    DefaultValuedAttr<BoolAttr, "false">:$keep_dim,
    DefaultValuedAttr<BoolAttr, "false">:$reduce_all,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$in_dtype,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_dtype
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_ReduceMaxOp : Pd_Op<"reduce_max"> {
  let summary = "maximum over the listed dims";
  let description = [{
    Paddle operator `reduce_max`: maximum over the listed dims.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %s = pd.reduce_max %x {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xf32>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    DefaultValuedAttr<DenseI32ArrayAttr, "{0}">:$dim,
    DefaultValuedAttr<BoolAttr, "false">:$keep_dim,
    DefaultValuedAttr<BoolAttr, "false">:$reduce_all,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$in_dtype,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_dtype
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_ReduceMinOp : Pd_Op<"reduce_min"> {
  let summary = "minimum over the listed dims";
  let description = [{
    Paddle operator `reduce_min`: minimum over the listed dims.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %s = pd.reduce_min %x {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xf32>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    DefaultValuedAttr<DenseI32ArrayAttr, "{0}">:$dim,
    DefaultValuedAttr<BoolAttr, "false">:$keep_dim,
    DefaultValuedAttr<BoolAttr, "false">:$reduce_all,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$in_dtype,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_dtype
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_ReduceProdOp : Pd_Op<"reduce_prod"> {
  let summary = "product over the listed dims";
  let description = [{
    Paddle operator `reduce_prod`: product over the listed dims.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %s = pd.reduce_prod %x {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xf32>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    DefaultValuedAttr<DenseI32ArrayAttr, "{0}">:$dim,
    DefaultValuedAttr<BoolAttr, "false">:$keep_dim,
    DefaultValuedAttr<BoolAttr, "false">:$reduce_all,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$in_dtype,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_dtype
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_ReduceAllOp : Pd_Op<"reduce_all"> {
  let summary = "logical and over the listed dims";
  let description = [{
    Paddle operator `reduce_all`: logical and over the listed dims.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %s = pd.reduce_all %x {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xi1>) -> tensor<?x1xi1>
    ```
  }];
  let arguments = (ins
    Pd_BoolTensor:$X,
    DefaultValuedAttr<DenseI32ArrayAttr, "{0}">:$dim,
    DefaultValuedAttr<BoolAttr, "false">:$keep_dim,
    DefaultValuedAttr<BoolAttr, "false">:$reduce_all,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$in_dtype,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_dtype
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_ReduceAnyOp : Pd_Op<"reduce_any"> {
  let summary = "logical or over the listed dims";
  let description = [{
    Paddle operator `reduce_any`: logical or over the listed dims.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %s = pd.reduce_any %x {dim = array<i32: 1>, keep_dim = true} : (tensor<?x128xi1>) -> tensor<?x1xi1>
    ```
  }];
  let arguments = (ins
    Pd_BoolTensor:$X,
    DefaultValuedAttr<DenseI32ArrayAttr, "{0}">:$dim,
    DefaultValuedAttr<BoolAttr, "false">:$keep_dim,
    DefaultValuedAttr<BoolAttr, "false">:$reduce_all,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$in_dtype,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$out_dtype
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_LogsumexpOp : Pd_Op<"logsumexp"> {
  let summary = "log(sum(exp(x))) over the listed axes, computed around the maximum";
  let description = [{
    Paddle operator `logsumexp`: log(sum(exp(x))) over the listed axes, computed around the maximum.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %s = pd.logsumexp %x {axis = array<i32: 1>} : (tensor<?x128xf32>) -> tensor<?xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<DenseI32ArrayAttr, "{0}">:$axis,
    DefaultValuedAttr<BoolAttr, "false">:$keepdim,
    DefaultValuedAttr<BoolAttr, "false">:$reduce_all
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_PNormOp : Pd_Op<"p_norm"> {
  let summary = "vector p-norm along an axis (or of all elements with asvector): (sum |x|^p)^(1/p), max |x| for p = inf, min |x| for p = -inf, the count of nonzeros for p = 0";
  let description = [{
    Paddle operator `p_norm`: vector p-norm along an axis (or of all elements with asvector): (sum |x|^p)^(1/p), max |x| for p = inf, min |x| for p = -inf, the count of nonzeros for p = 0.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %n = pd.p_norm %x {porder = 2.0 : f32, axis = 1 : i32} : (tensor<?x128xf32>) -> tensor<?xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<F32Attr, "2.0">:$porder,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$axis,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Min<"0.0">]>, "1e-12">:$epsilon,
    DefaultValuedAttr<BoolAttr, "false">:$keepdim,
    DefaultValuedAttr<BoolAttr, "false">:$asvector
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_MeanOp : Pd_Op<"mean"> {
  let summary = "mean of all elements, as a 1-element tensor";
  let description = [{
    Paddle operator `mean`: mean of all elements, as a 1-element tensor.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.mean %x : (tensor<?x10xf32>) -> tensor<1xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_SumOp : Pd_Op<"sum"> {
  let summary = "elementwise sum of same-shaped tensors";
  let description = [{
    Paddle operator `sum`: elementwise sum of same-shaped tensors.

    Input slots: X (list). Output slots: Out.

    Example:

    ```mlir
    %y = pd.sum [%a, %b, %c] : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    ```
  }];
  let arguments = (ins
    Variadic<Pd_NumTensor>:$X
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "` ` `[` $X `]` attr-dict `:` functional-type(operands, results)";
}

def Pd_ArgMaxOp : Pd_Op<"arg_max"> {
  let summary = "index of the maximum along an axis";
  let description = [{
    Paddle operator `arg_max`: index of the maximum along an axis.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.arg_max %x {axis = 1 : i64} : (tensor<?x1000xf32>) -> tensor<?xi64>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    DefaultValuedAttr<Pd_I64Attr, "0">:$axis,
    DefaultValuedAttr<BoolAttr, "false">:$keepdims,
    DefaultValuedAttr<BoolAttr, "false">:$flatten,
    DefaultValuedAttr<Pd_I32Attr, "3">:$dtype
  );
  let results = (outs Pd_IndexTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_ArgMinOp : Pd_Op<"arg_min"> {
  let summary = "index of the minimum along an axis";
  let description = [{
    Paddle operator `arg_min`: index of the minimum along an axis.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.arg_min %x {axis = 1 : i64} : (tensor<?x1000xf32>) -> tensor<?xi64>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    DefaultValuedAttr<Pd_I64Attr, "0">:$axis,
    DefaultValuedAttr<BoolAttr, "false">:$keepdims,
    DefaultValuedAttr<BoolAttr, "false">:$flatten,
    DefaultValuedAttr<Pd_I32Attr, "3">:$dtype
  );
  let results = (outs Pd_IndexTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_TopKV2Op : Pd_Op<"top_k_v2"> {
  let summary = "the k largest (or smallest) values along an axis and their indices";
  let description = [{
    Paddle operator `top_k_v2`: the k largest (or smallest) values along an axis and their indices.

    Input slots: X, K (optional). Output slots: Out, Indices.

    Example:

    ```mlir
    %v, %i = pd.top_k_v2 %x {k = 5 : i32} : (tensor<?x1000xf32>) -> (tensor<?x5xf32>, tensor<?x5xi64>)
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Optional<Pd_IndexTensor>:$KInput,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$k,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$axis,
    DefaultValuedAttr<BoolAttr, "true">:$largest,
    DefaultValuedAttr<BoolAttr, "true">:$sorted
  );
  let results = (outs Pd_NumTensor:$Out, Pd_IndexTensor:$Indices);
  let assemblyFormat = "$X (`K` `(` $KInput^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_ArgsortOp : Pd_Op<"argsort"> {
  let summary = "x sorted along an axis (ties in index order) and the int64 positions the sorted values came from";
  let description = [{
    Paddle operator `argsort`: x sorted along an axis (ties in index order) and the int64 positions the sorted values came from.

    Input slots: X. Output slots: Out, Indices.

    Example:

    ```mlir
    %v, %i = pd.argsort %x {axis = 1 : i32, descending = true} : (tensor<?x300xf32>) -> (tensor<?x300xf32>, tensor<?x300xi64>)
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$axis,
    DefaultValuedAttr<BoolAttr, "false">:$descending,
    DefaultValuedAttr<BoolAttr, "false">:$stable
  );
  let results = (outs Pd_NumTensor:$Out, Pd_IndexTensor:$Indices);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_UniqueOp : Pd_Op<"unique", [AttrSizedResultSegments]> {
  let summary = "the distinct elements of x (flattened; or its distinct slices along one axis), sorted or in order of first appearance, with each one's first position, the inverse map and the counts";
  let description = [{
    Paddle operator `unique`: the distinct elements of x (flattened; or its distinct slices along one axis), sorted or in order of first appearance, with each one's first position, the inverse map and the counts.

    Input slots: X. Output slots: Out, Indices, Index, Counts.

    Example:

    ```mlir
    %y, %i, %inv, %n = pd.unique %x {is_sorted = true, resultSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<?x8xi64>) -> (tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "3">:$dtype,
    DefaultValuedAttr<BoolAttr, "false">:$return_index,
    DefaultValuedAttr<BoolAttr, "false">:$return_inverse,
    DefaultValuedAttr<BoolAttr, "false">:$return_counts,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$axis,
    DefaultValuedAttr<BoolAttr, "false">:$is_sorted
  );
  let results = (outs Pd_NumTensor:$Out, Optional<Pd_IndexTensor>:$Indices, Optional<Pd_IndexTensor>:$Index, Optional<Pd_IndexTensor>:$Counts);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_CumsumOp : Pd_Op<"cumsum"> {
  let summary = "cumulative sum along an axis";
  let description = [{
    Paddle operator `cumsum`: cumulative sum along an axis.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.cumsum %x {axis = 1 : i32} : (tensor<?x128xi64>) -> tensor<?x128xi64>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    DefaultValuedAttr<Pd_I32Attr, "-1">:$axis,
    DefaultValuedAttr<BoolAttr, "false">:$flatten,
    DefaultValuedAttr<BoolAttr, "false">:$exclusive,
    DefaultValuedAttr<BoolAttr, "false">:$reverse
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_WriteToArrayOp : Pd_Op<"write_to_array"> {
  let summary = "tensor array Array (its elements stacked along a new leading dim) with X at index I, grown to I + 1 elements (zeros between) where shorter; without Array a new array. Array is not a Paddle slot: Paddle writes in place, the importer passes the array the Out variable held before";
  let description = [{
    Paddle operator `write_to_array`: tensor array Array (its elements stacked along a new leading dim) with X at index I, grown to I + 1 elements (zeros between) where shorter; without Array a new array. Array is not a Paddle slot: Paddle writes in place, the importer passes the array the Out variable held before.

    Input slots: X, I, Array (optional). Output slots: Out.

    Example:

    ```mlir
    %a = pd.write_to_array %x, %i : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?x2x3xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_IndexTensor:$I,
    Optional<Pd_Tensor>:$Array
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X `,` $I (`Array` `(` $Array^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_ReadFromArrayOp : Pd_Op<"read_from_array"> {
  let summary = "element I of tensor array X (an index past its end is a run-time error)";
  let description = [{
    Paddle operator `read_from_array`: element I of tensor array X (an index past its end is a run-time error).

    Input slots: X, I. Output slots: Out.

    Example:

    ```mlir
    %y = pd.read_from_array %a, %i : (tensor<?x2x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_IndexTensor:$I
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X `,` $I attr-dict `:` functional-type(operands, results)";
}

def Pd_LodArrayLengthOp : Pd_Op<"lod_array_length"> {
  let summary = "the number of elements of tensor array X, int64 [1]";
  let description = [{
    Paddle operator `lod_array_length`: the number of elements of tensor array X, int64 [1].

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %n = pd.lod_array_length %a : (tensor<?x2x3xf32>) -> tensor<1xi64>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X
  );
  let results = (outs Pd_IndexTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_TensorArrayToTensorOp : Pd_Op<"tensor_array_to_tensor"> {
  let summary = "the elements of tensor array X stacked at axis (use_stack) or concatenated along it; OutIndex (int32) holds each element's size along axis";
  let description = [{
    Paddle operator `tensor_array_to_tensor`: the elements of tensor array X stacked at axis (use_stack) or concatenated along it; OutIndex (int32) holds each element's size along axis.

    Input slots: X. Output slots: Out, OutIndex.

    Example:

    ```mlir
    %y, %idx = pd.tensor_array_to_tensor %a {axis = 1 : i32} : (tensor<?x2x3xf32>) -> (tensor<2x?xf32>, tensor<?xi32>)
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    DefaultValuedAttr<Pd_I32Attr, "0">:$axis,
    DefaultValuedAttr<BoolAttr, "false">:$use_stack
  );
  let results = (outs Pd_Tensor:$Out, Pd_IndexTensor:$OutIndex);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_LodRankTableOp : Pd_Op<"lod_rank_table"> {
  let summary = "the sequences of LoD batch X ranked by length, longest first, ties in batch order: int64 [N, 2], row j = (sequence index, length)";
  let description = [{
    Paddle operator `lod_rank_table`: the sequences of LoD batch X ranked by length, longest first, ties in batch order: int64 [N, 2], row j = (sequence index, length).

    Input slots: X, Lengths (optional). Output slots: Out.

    Example:

    ```mlir
    %t = pd.lod_rank_table %x Lengths(%n) : (tensor<?x8xf32>, tensor<?xi64>) -> tensor<?x2xi64>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Optional<Pd_IndexTensor>:$Lengths,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$level
  );
  let results = (outs Pd_IndexTensor:$Out);
  let assemblyFormat = "$X (`Lengths` `(` $Lengths^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_MaxSequenceLenOp : Pd_Op<"max_sequence_len"> {
  let summary = "the longest length in a rank table (0 without sequences), int64 [1]";
  let description = [{
    Paddle operator `max_sequence_len`: the longest length in a rank table (0 without sequences), int64 [1].

    Input slots: RankTable. Output slots: Out.

    Example:

    ```mlir
    %m = pd.max_sequence_len %t : (tensor<?x2xi64>) -> tensor<1xi64>
    ```
  }];
  let arguments = (ins
    Pd_IndexTensor:$RankTable
  );
  let results = (outs Pd_IndexTensor:$Out);
  let assemblyFormat = "$RankTable attr-dict `:` functional-type(operands, results)";
}

def Pd_LodTensorToArrayOp : Pd_Op<"lod_tensor_to_array"> {
  let summary = "LoD batch X [T, ...] (its sequences those of RankTable) as a tensor array over time: element t [N, ...] holds in row j row t of the j-th ranked sequence, zeros where that sequence is shorter";
  let description = [{
    Paddle operator `lod_tensor_to_array`: LoD batch X [T, ...] (its sequences those of RankTable) as a tensor array over time: element t [N, ...] holds in row j row t of the j-th ranked sequence, zeros where that sequence is shorter.

    Input slots: X, RankTable. Output slots: Out.

    Example:

    ```mlir
    %a = pd.lod_tensor_to_array %x, %t : (tensor<?x8xf32>, tensor<?x2xi64>) -> tensor<?x?x8xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_IndexTensor:$RankTable
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X `,` $RankTable attr-dict `:` functional-type(operands, results)";
}

def Pd_ArrayToLodTensorOp : Pd_Op<"array_to_lod_tensor"> {
  let summary = "lod_tensor_to_array's inverse: sequence i of Out (in batch order, OutLengths its lengths) is row rank(i) of array elements 0 ... length(i) - 1";
  let description = [{
    Paddle operator `array_to_lod_tensor`: lod_tensor_to_array's inverse: sequence i of Out (in batch order, OutLengths its lengths) is row rank(i) of array elements 0 ... length(i) - 1.

    Input slots: X, RankTable. Output slots: Out, OutLengths.

    Example:

    ```mlir
    %y, %n = pd.array_to_lod_tensor %a, %t : (tensor<?x?x8xf32>, tensor<?x2xi64>) -> (tensor<?x8xf32>, tensor<?xi64>)
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_IndexTensor:$RankTable
  );
  let results = (outs Pd_Tensor:$Out, Pd_IndexTensor:$OutLengths);
  let assemblyFormat = "$X `,` $RankTable attr-dict `:` functional-type(operands, results)";
}

def Pd_ShrinkRnnMemoryOp : Pd_Op<"shrink_rnn_memory"> {
  let summary = "RNN state X in rank order (a row per sequence, or with Lengths a LoD batch of a sequence each) at step I: the rows of the sequences of length <= I zeroed";
  let description = [{
    Paddle operator `shrink_rnn_memory`: RNN state X in rank order (a row per sequence, or with Lengths a LoD batch of a sequence each) at step I: the rows of the sequences of length <= I zeroed.

    Input slots: X, I, RankTable, Lengths (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.shrink_rnn_memory %x, %i, %t : (tensor<?x8xf32>, tensor<1xi64>, tensor<?x2xi64>) -> tensor<?x8xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_IndexTensor:$I,
    Pd_IndexTensor:$RankTable,
    Optional<Pd_IndexTensor>:$Lengths
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X `,` $I `,` $RankTable (`Lengths` `(` $Lengths^ `)`)? attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_ReorderLodTensorByRankOp : Pd_Op<"reorder_lod_tensor_by_rank"> {
  let summary = "the rows of X [N, ...] (one per sequence), or with Lengths the sequences of LoD batch X, in the rank order of RankTable; OutLengths: their lengths in that order (ones without LoD)";
  let description = [{
    Paddle operator `reorder_lod_tensor_by_rank`: the rows of X [N, ...] (one per sequence), or with Lengths the sequences of LoD batch X, in the rank order of RankTable; OutLengths: their lengths in that order (ones without LoD).

    Input slots: X, RankTable, Lengths (optional). Output slots: Out, OutLengths.

    Example:

    ```mlir
    %y, %n = pd.reorder_lod_tensor_by_rank %x, %t Lengths(%l) : (tensor<?x8xf32>, tensor<?x2xi64>, tensor<?xi64>) -> (tensor<?x8xf32>, tensor<?xi64>)
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_IndexTensor:$RankTable,
    Optional<Pd_IndexTensor>:$Lengths
  );
  let results = (outs Pd_Tensor:$Out, Pd_IndexTensor:$OutLengths);
  let assemblyFormat = "$X `,` $RankTable (`Lengths` `(` $Lengths^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_IsEmptyOp : Pd_Op<"is_empty"> {
  let summary = "whether X has no elements, bool [1] (ends greedy decoding loops)";
  let description = [{
    Paddle operator `is_empty`: whether X has no elements, bool [1] (ends greedy decoding loops).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %e = pd.is_empty %x : (tensor<?x1xi64>) -> tensor<1xi1>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_SelectInputOp : Pd_Op<"select_input"> {
  let summary = "X[Mask]: the value of the branch that ran (Paddle's cond: conditional_block pairs)";
  let description = [{
    Paddle operator `select_input`: X[Mask]: the value of the branch that ran (Paddle's cond: conditional_block pairs).

    Input slots: X (list), Mask. Output slots: Out.

    Example:

    ```mlir
    %y = pd.select_input [%f, %t], %m : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins
    Variadic<Pd_Tensor>:$X,
    Pd_IndexTensor:$Mask
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "` ` `[` $X `]` `,` $Mask attr-dict `:` functional-type(operands, results)";
}

def Pd_WhereOp : Pd_Op<"where"> {
  let summary = "selects x where condition holds, else y (numpy broadcasting)";
  let description = [{
    Paddle operator `where`: selects x where condition holds, else y (numpy broadcasting).

    Input slots: Condition, X, Y. Output slots: Out.

    Example:

    ```mlir
    %y = pd.where %c, %a, %b : (tensor<?x4xi1>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    ```
  }];
  let arguments = (ins
    Pd_BoolTensor:$Condition,
    Pd_Tensor:$X,
    Pd_Tensor:$Y
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$Condition `,` $X `,` $Y attr-dict `:` functional-type(operands, results)";
}

def Pd_EqualOp : Pd_Op<"equal"> {
  let summary = "elementwise x == y";
  let description = [{
    Paddle operator `equal`: elementwise x == y.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %m = pd.equal %x, %y : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_Tensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/true, types, emitErrors);
  }
  }];
}

def Pd_NotEqualOp : Pd_Op<"not_equal"> {
  let summary = "elementwise x != y";
  let description = [{
    Paddle operator `not_equal`: elementwise x != y.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %m = pd.not_equal %x, %y : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_Tensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/true, types, emitErrors);
  }
  }];
}

def Pd_LessThanOp : Pd_Op<"less_than"> {
  let summary = "elementwise x < y";
  let description = [{
    Paddle operator `less_than`: elementwise x < y.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %m = pd.less_than %x, %y : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_Tensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/true, types, emitErrors);
  }
  }];
}

def Pd_GreaterThanOp : Pd_Op<"greater_than"> {
  let summary = "elementwise x > y";
  let description = [{
    Paddle operator `greater_than`: elementwise x > y.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %m = pd.greater_than %x, %y : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_Tensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/true, types, emitErrors);
  }
  }];
}

def Pd_LessEqualOp : Pd_Op<"less_equal"> {
  let summary = "elementwise x <= y";
  let description = [{
    Paddle operator `less_equal`: elementwise x <= y.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %m = pd.less_equal %x, %y : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_Tensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/true, types, emitErrors);
  }
  }];
}

def Pd_GreaterEqualOp : Pd_Op<"greater_equal"> {
  let summary = "elementwise x >= y";
  let description = [{
    Paddle operator `greater_equal`: elementwise x >= y.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %m = pd.greater_equal %x, %y : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_Tensor:$Y,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$axis
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), getAxis(), /*boolResult=*/true, types, emitErrors);
  }
  }];
}

def Pd_LogicalAndOp : Pd_Op<"logical_and"> {
  let summary = "elementwise x and y";
  let description = [{
    Paddle operator `logical_and`: elementwise x and y.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.logical_and %x, %y : (tensor<?x4xi1>, tensor<?x4xi1>) -> tensor<?x4xi1>
    ```
  }];
  let arguments = (ins
    Pd_BoolTensor:$X,
    Pd_BoolTensor:$Y
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), -1, /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_LogicalOrOp : Pd_Op<"logical_or"> {
  let summary = "elementwise x or y";
  let description = [{
    Paddle operator `logical_or`: elementwise x or y.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.logical_or %x, %y : (tensor<?x4xi1>, tensor<?x4xi1>) -> tensor<?x4xi1>
    ```
  }];
  let arguments = (ins
    Pd_BoolTensor:$X,
    Pd_BoolTensor:$Y
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), -1, /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_LogicalXorOp : Pd_Op<"logical_xor"> {
  let summary = "elementwise x xor y";
  let description = [{
    Paddle operator `logical_xor`: elementwise x xor y.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.logical_xor %x, %y : (tensor<?x4xi1>, tensor<?x4xi1>) -> tensor<?x4xi1>
    ```
  }];
  let arguments = (ins
    Pd_BoolTensor:$X,
    Pd_BoolTensor:$Y
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), -1, /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_LogicalNotOp : Pd_Op<"logical_not"> {
  let summary = "elementwise not x";
  let description = [{
    Paddle operator `logical_not`: elementwise not x.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %z = pd.logical_not %x : (tensor<?x4xi1>) -> tensor<?x4xi1>
    ```
  }];
  let arguments = (ins
    Pd_BoolTensor:$X
  );
  let results = (outs Pd_BoolTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_BitwiseAndOp : Pd_Op<"bitwise_and"> {
  let summary = "elementwise bitwise x & y of integers or bools";
  let description = [{
    Paddle operator `bitwise_and`: elementwise bitwise x & y of integers or bools.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.bitwise_and %x, %y : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    ```
  }];
  let arguments = (ins
    Pd_BitsTensor:$X,
    Pd_BitsTensor:$Y
  );
  let results = (outs Pd_BitsTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), -1, /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_BitwiseOrOp : Pd_Op<"bitwise_or"> {
  let summary = "elementwise bitwise x | y of integers or bools";
  let description = [{
    Paddle operator `bitwise_or`: elementwise bitwise x | y of integers or bools.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.bitwise_or %x, %y : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    ```
  }];
  let arguments = (ins
    Pd_BitsTensor:$X,
    Pd_BitsTensor:$Y
  );
  let results = (outs Pd_BitsTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), -1, /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_BitwiseXorOp : Pd_Op<"bitwise_xor"> {
  let summary = "elementwise bitwise x ^ y of integers or bools";
  let description = [{
    Paddle operator `bitwise_xor`: elementwise bitwise x ^ y of integers or bools.

    Input slots: X, Y. Output slots: Out.

    Example:

    ```mlir
    %z = pd.bitwise_xor %x, %y : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
    ```
  }];
  let arguments = (ins
    Pd_BitsTensor:$X,
    Pd_BitsTensor:$Y
  );
  let results = (outs Pd_BitsTensor:$Out);
  let assemblyFormat = "$X `,` $Y attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), -1, /*boolResult=*/false, types, emitErrors);
  }
  }];
}

def Pd_BitwiseNotOp : Pd_Op<"bitwise_not"> {
  let summary = "elementwise bitwise not of integers or bools";
  let description = [{
    Paddle operator `bitwise_not`: elementwise bitwise not of integers or bools.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %z = pd.bitwise_not %x : (tensor<?x4xi32>) -> tensor<?x4xi32>
    ```
  }];
  let arguments = (ins
    Pd_BitsTensor:$X
  );
  let results = (outs Pd_BitsTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_PriorBoxOp : Pd_Op<"prior_box"> {
  let summary = "SSD prior (anchor) boxes for every position of a feature map, normalized to the image";
  let description = [{
    Paddle operator `prior_box`: SSD prior (anchor) boxes for every position of a feature map, normalized to the image.

    Input slots: Input, Image. Output slots: Boxes, Variances.

    Example:

    ```mlir
    %b, %v = pd.prior_box %f, %img {min_sizes = array<f32: 30.0>} : (tensor<?x32x10x10xf32>, tensor<?x3x300x300xf32>) -> (tensor<10x10x1x4xf32>, tensor<10x10x1x4xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Pd_FloatTensor:$Image,
    DenseF32ArrayAttr:$min_sizes,
    DefaultValuedAttr<DenseF32ArrayAttr, "{}">:$max_sizes,
    DefaultValuedAttr<DenseF32ArrayAttr, "{1.0f}">:$aspect_ratios,
    DefaultValuedAttr<DenseF32ArrayAttr, "{0.1f, 0.1f, 0.2f, 0.2f}">:$variances,
    DefaultValuedAttr<BoolAttr, "false">:$flip,
    DefaultValuedAttr<BoolAttr, "false">:$clip,
    DefaultValuedAttr<F32Attr, "0.0">:$step_w,
    DefaultValuedAttr<F32Attr, "0.0">:$step_h,
    DefaultValuedAttr<F32Attr, "0.5">:$offset,
    DefaultValuedAttr<BoolAttr, "false">:$min_max_aspect_ratios_order
  );
  let results = (outs Pd_FloatTensor:$Boxes, Pd_FloatTensor:$VarianceBoxes);
  let assemblyFormat = "$Input `,` $Image attr-dict `:` functional-type(operands, results)";
}

def Pd_AnchorGeneratorOp : Pd_Op<"anchor_generator"> {
  let summary = "Faster R-CNN anchors [H, W, ratios * sizes, 4] of an NCHW feature map, and their variances";
  let description = [{
    Paddle operator `anchor_generator`: Faster R-CNN anchors [H, W, ratios * sizes, 4] of an NCHW feature map, and their variances.

    Input slots: Input. Output slots: Anchors, Variances.

    Example:

    ```mlir
    %a, %v = pd.anchor_generator %x {anchor_sizes = array<f32: 32.0>, aspect_ratios = array<f32: 1.0>} : (tensor<1x8x4x6xf32>) -> (tensor<4x6x1x4xf32>, tensor<4x6x1x4xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    DefaultValuedAttr<DenseF32ArrayAttr, "{64.0f, 128.0f, 256.0f, 512.0f}">:$anchor_sizes,
    DefaultValuedAttr<DenseF32ArrayAttr, "{0.5f, 1.0f, 2.0f}">:$aspect_ratios,
    DefaultValuedAttr<DenseF32ArrayAttr, "{0.1f, 0.1f, 0.2f, 0.2f}">:$variances,
    DefaultValuedAttr<DenseF32ArrayAttr, "{16.0f, 16.0f}">:$stride,
    DefaultValuedAttr<F32Attr, "0.5">:$offset
  );
  let results = (outs Pd_FloatTensor:$Anchors, Pd_FloatTensor:$VariancesOut);
  let assemblyFormat = "$Input attr-dict `:` functional-type(operands, results)";
}

def Pd_BoxCoderOp : Pd_Op<"box_coder"> {
  let summary = "encodes boxes against priors, or decodes center-size offsets back to corner boxes";
  let description = [{
    Paddle operator `box_coder`: encodes boxes against priors, or decodes center-size offsets back to corner boxes.

    Input slots: PriorBox, PriorBoxVar (optional), TargetBox. Output slots: OutputBox.

    Example:

    ```mlir
    %o = pd.box_coder %p, %t PriorBoxVar(%v) {code_type = "decode_center_size"} : (tensor<100x4xf32>, tensor<100x4xf32>, tensor<?x100x4xf32>) -> tensor<?x100x4xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$PriorBox,
    Optional<Pd_FloatTensor>:$PriorBoxVar,
    Pd_FloatTensor:$TargetBox,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["encode_center_size", "decode_center_size"]>]>, "encode_center_size">:$code_type,
    DefaultValuedAttr<BoolAttr, "true">:$box_normalized,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$axis,
    DefaultValuedAttr<DenseF32ArrayAttr, "{}">:$variance
  );
  let results = (outs Pd_FloatTensor:$OutputBox);
  let assemblyFormat = "$PriorBox `,` $TargetBox (`PriorBoxVar` `(` $PriorBoxVar^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_YoloBoxOp : Pd_Op<"yolo_box"> {
  let summary = "YOLOv3 box decoding: boxes in image pixels and per-class scores for every anchor and cell";
  let description = [{
    Paddle operator `yolo_box`: YOLOv3 box decoding: boxes in image pixels and per-class scores for every anchor and cell.

    Input slots: X, ImgSize. Output slots: Boxes, Scores.

    Example:

    ```mlir
    %b, %s = pd.yolo_box %x, %size {anchors = array<i32: 10, 13, 16, 30>, class_num = 80 : i32} : (tensor<?x170x8x8xf32>, tensor<?x2xi32>) -> (tensor<?x128x4xf32>, tensor<?x128x80xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_IndexTensor:$ImgSize,
    DenseI32ArrayAttr:$anchors,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>:$class_num,
    DefaultValuedAttr<F32Attr, "0.01">:$conf_thresh,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "32">:$downsample_ratio,
    DefaultValuedAttr<BoolAttr, "true">:$clip_bbox,
    DefaultValuedAttr<F32Attr, "1.0">:$scale_x_y,
    DefaultValuedAttr<BoolAttr, "false">:$iou_aware,
    DefaultValuedAttr<F32Attr, "0.5">:$iou_aware_factor
  );
  let results = (outs Pd_FloatTensor:$Boxes, Pd_FloatTensor:$Scores);
  let assemblyFormat = "$X `,` $ImgSize attr-dict `:` functional-type(operands, results)";
}

def Pd_WhereIndexOp : Pd_Op<"where_index"> {
  let summary = "the coordinates [K, rank] (int64, row-major order) of the K non-zero elements of the condition";
  let description = [{
    Paddle operator `where_index`: the coordinates [K, rank] (int64, row-major order) of the K non-zero elements of the condition.

    Input slots: Condition. Output slots: Out.

    Example:

    ```mlir
    %i = pd.where_index %c : (tensor<?x8xi1>) -> tensor<?x2xi64>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$Condition
  );
  let results = (outs Pd_IndexTensor:$Out);
  let assemblyFormat = "$Condition attr-dict `:` functional-type(operands, results)";
}

def Pd_MaskedSelectOp : Pd_Op<"masked_select"> {
  let summary = "the elements of x where the mask (of x's shape) is true, as a 1-D tensor in row-major order";
  let description = [{
    Paddle operator `masked_select`: the elements of x where the mask (of x's shape) is true, as a 1-D tensor in row-major order.

    Input slots: X, Mask. Output slots: Y.

    Example:

    ```mlir
    %y = pd.masked_select %x, %m : (tensor<?x8xf32>, tensor<?x8xi1>) -> tensor<?xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Pd_BoolTensor:$Mask
  );
  let results = (outs Pd_Tensor:$Y);
  let assemblyFormat = "$X `,` $Mask attr-dict `:` functional-type(operands, results)";
}

def Pd_MulticlassNmsOp : Pd_Op<"multiclass_nms"> {
  let summary = "multiclass non-maximum suppression per image (a kept-box count of zero gives Out = [[-1]])";
  let description = [{
    Paddle operator `multiclass_nms`: multiclass non-maximum suppression per image (a kept-box count of zero gives Out = [[-1]]).

    Input slots: BBoxes, Scores. Output slots: Out.

    Example:

    ```mlir
    %o = pd.multiclass_nms %b, %s {score_threshold = 0.01 : f32, nms_top_k = 100 : i32, keep_top_k = 10 : i32} : (tensor<?x50x4xf32>, tensor<?x3x50xf32>) -> tensor<?x?xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$BBoxes,
    Pd_FloatTensor:$Scores,
    F32Attr:$score_threshold,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>:$nms_top_k,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>:$keep_top_k,
    DefaultValuedAttr<F32Attr, "0.3">:$nms_threshold,
    DefaultValuedAttr<F32Attr, "1.0">:$nms_eta,
    DefaultValuedAttr<BoolAttr, "true">:$normalized,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "0">:$background_label
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$BBoxes `,` $Scores attr-dict `:` functional-type(operands, results)";
}

def Pd_MulticlassNms2Op : Pd_Op<"multiclass_nms2"> {
  let summary = "multiclass non-maximum suppression per image, with the kept boxes' indices";
  let description = [{
    Paddle operator `multiclass_nms2`: multiclass non-maximum suppression per image, with the kept boxes' indices.

    Input slots: BBoxes, Scores. Output slots: Out, Index.

    Example:

    ```mlir
    %o, %i = pd.multiclass_nms2 %b, %s {score_threshold = 0.01 : f32, nms_top_k = 100 : i32, keep_top_k = 10 : i32} : (tensor<?x50x4xf32>, tensor<?x3x50xf32>) -> (tensor<?x6xf32>, tensor<?x1xi32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$BBoxes,
    Pd_FloatTensor:$Scores,
    F32Attr:$score_threshold,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>:$nms_top_k,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>:$keep_top_k,
    DefaultValuedAttr<F32Attr, "0.3">:$nms_threshold,
    DefaultValuedAttr<F32Attr, "1.0">:$nms_eta,
    DefaultValuedAttr<BoolAttr, "true">:$normalized,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "0">:$background_label
  );
  let results = (outs Pd_FloatTensor:$Out, Pd_IndexTensor:$Index);
  let assemblyFormat = "$BBoxes `,` $Scores attr-dict `:` functional-type(operands, results)";
}

def Pd_MulticlassNms3Op : Pd_Op<"multiclass_nms3"> {
  let summary = "multiclass non-maximum suppression per image, with the kept boxes' indices and their count per image";
  let description = [{
    Paddle operator `multiclass_nms3`: multiclass non-maximum suppression per image, with the kept boxes' indices and their count per image.

    Input slots: BBoxes, Scores, RoisNum (optional). Output slots: Out, Index, NmsRoisNum.

    Example:

    ```mlir
    %o, %i, %n = pd.multiclass_nms3 %b, %s {score_threshold = 0.01 : f32, nms_top_k = 100 : i32, keep_top_k = 10 : i32} : (tensor<?x50x4xf32>, tensor<?x3x50xf32>) -> (tensor<?x6xf32>, tensor<?x1xi32>, tensor<?xi32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$BBoxes,
    Pd_FloatTensor:$Scores,
    Optional<Pd_IndexTensor>:$RoisNum,
    F32Attr:$score_threshold,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>:$nms_top_k,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>:$keep_top_k,
    DefaultValuedAttr<F32Attr, "0.3">:$nms_threshold,
    DefaultValuedAttr<F32Attr, "1.0">:$nms_eta,
    DefaultValuedAttr<BoolAttr, "true">:$normalized,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "0">:$background_label
  );
  let results = (outs Pd_FloatTensor:$Out, Pd_IndexTensor:$Index, Pd_IndexTensor:$NmsRoisNum);
  let assemblyFormat = "$BBoxes `,` $Scores (`RoisNum` `(` $RoisNum^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_MatrixNmsOp : Pd_Op<"matrix_nms"> {
  let summary = "matrix NMS (SOLOv2): scores decayed by overlap with better boxes, kept above post_threshold, best first";
  let description = [{
    Paddle operator `matrix_nms`: matrix NMS (SOLOv2): scores decayed by overlap with better boxes, kept above post_threshold, best first.

    Input slots: BBoxes, Scores. Output slots: Out, Index, RoisNum.

    Example:

    ```mlir
    %o, %i, %n = pd.matrix_nms %b, %s {score_threshold = 0.01 : f32, nms_top_k = 100 : i32, keep_top_k = 10 : i32} : (tensor<?x50x4xf32>, tensor<?x3x50xf32>) -> (tensor<?x6xf32>, tensor<?x1xi32>, tensor<?xi32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$BBoxes,
    Pd_FloatTensor:$Scores,
    F32Attr:$score_threshold,
    DefaultValuedAttr<F32Attr, "0.0">:$post_threshold,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>:$nms_top_k,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>:$keep_top_k,
    DefaultValuedAttr<BoolAttr, "true">:$normalized,
    DefaultValuedAttr<BoolAttr, "false">:$use_gaussian,
    DefaultValuedAttr<F32Attr, "2.0">:$gaussian_sigma,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "0">:$background_label
  );
  let results = (outs Pd_FloatTensor:$Out, Pd_IndexTensor:$Index, Pd_IndexTensor:$RoisNum);
  let assemblyFormat = "$BBoxes `,` $Scores attr-dict `:` functional-type(operands, results)";
}

def Pd_GenerateProposalsOp : Pd_Op<"generate_proposals"> {
  let summary = "RPN proposals: anchors decoded by the deltas, clipped to the image (ImInfo: height, width, scale), small ones dropped, NMS over the best pre_nms_topN, the best post_nms_topN kept";
  let description = [{
    Paddle operator `generate_proposals`: RPN proposals: anchors decoded by the deltas, clipped to the image (ImInfo: height, width, scale), small ones dropped, NMS over the best pre_nms_topN, the best post_nms_topN kept.

    Input slots: Scores, BboxDeltas, ImInfo, Anchors, Variances. Output slots: RpnRois, RpnRoiProbs, RpnRoisNum.

    Example:

    ```mlir
    %r, %p, %n = pd.generate_proposals %s, %d, %im, %a, %v : (tensor<?x3x8x8xf32>, tensor<?x12x8x8xf32>, tensor<?x3xf32>, tensor<8x8x3x4xf32>, tensor<8x8x3x4xf32>) -> (tensor<?x4xf32>, tensor<?x1xf32>, tensor<?xi32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Scores,
    Pd_FloatTensor:$BboxDeltas,
    Pd_FloatTensor:$ImInfo,
    Pd_FloatTensor:$Anchors,
    Pd_FloatTensor:$Variances,
    DefaultValuedAttr<Pd_I32Attr, "6000">:$pre_nms_topN,
    DefaultValuedAttr<Pd_I32Attr, "1000">:$post_nms_topN,
    DefaultValuedAttr<F32Attr, "0.5">:$nms_thresh,
    DefaultValuedAttr<F32Attr, "0.1">:$min_size,
    DefaultValuedAttr<F32Attr, "1.0">:$eta
  );
  let results = (outs Pd_FloatTensor:$RpnRois, Pd_FloatTensor:$RpnRoiProbs, Pd_IndexTensor:$RpnRoisNum);
  let assemblyFormat = "$Scores `,` $BboxDeltas `,` $ImInfo `,` $Anchors `,` $Variances attr-dict `:` functional-type(operands, results)";
}

def Pd_GenerateProposalsV2Op : Pd_Op<"generate_proposals_v2"> {
  let summary = "RPN proposals as generate_proposals, the image size (ImShape: height, width) unscaled and the +1 pixel extent optional";
  let description = [{
    Paddle operator `generate_proposals_v2`: RPN proposals as generate_proposals, the image size (ImShape: height, width) unscaled and the +1 pixel extent optional.

    Input slots: Scores, BboxDeltas, ImShape, Anchors, Variances. Output slots: RpnRois, RpnRoiProbs, RpnRoisNum.

    Example:

    ```mlir
    %r, %p, %n = pd.generate_proposals_v2 %s, %d, %im, %a, %v : (tensor<?x3x8x8xf32>, tensor<?x12x8x8xf32>, tensor<?x2xf32>, tensor<8x8x3x4xf32>, tensor<8x8x3x4xf32>) -> (tensor<?x4xf32>, tensor<?x1xf32>, tensor<?xi32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Scores,
    Pd_FloatTensor:$BboxDeltas,
    Pd_FloatTensor:$ImShape,
    Pd_FloatTensor:$Anchors,
    Pd_FloatTensor:$Variances,
    DefaultValuedAttr<Pd_I32Attr, "6000">:$pre_nms_topN,
    DefaultValuedAttr<Pd_I32Attr, "1000">:$post_nms_topN,
    DefaultValuedAttr<F32Attr, "0.5">:$nms_thresh,
    DefaultValuedAttr<F32Attr, "0.1">:$min_size,
    DefaultValuedAttr<F32Attr, "1.0">:$eta,
    DefaultValuedAttr<BoolAttr, "true">:$pixel_offset
  );
  let results = (outs Pd_FloatTensor:$RpnRois, Pd_FloatTensor:$RpnRoiProbs, Pd_IndexTensor:$RpnRoisNum);
  let assemblyFormat = "$Scores `,` $BboxDeltas `,` $ImShape `,` $Anchors `,` $Variances attr-dict `:` functional-type(operands, results)";
}

def Pd_DistributeFpnProposalsOp : Pd_Op<"distribute_fpn_proposals", [AttrSizedResultSegments]> {
  let summary = "FPN: each RoI to the pyramid level floor(refer_level + log2(sqrt(area) / refer_scale)) in [min_level, max_level], the RoIs of each level in input order, and where each RoI went";
  let description = [{
    Paddle operator `distribute_fpn_proposals`: FPN: each RoI to the pyramid level floor(refer_level + log2(sqrt(area) / refer_scale)) in [min_level, max_level], the RoIs of each level in input order, and where each RoI went.

    Input slots: FpnRois, RoisNum (optional). Output slots: MultiFpnRois (list), RestoreIndex, MultiLevelRoIsNum (list).

    Example:

    ```mlir
    %r:2, %i, %n:2 = pd.distribute_fpn_proposals %rois RoisNum(%num) {min_level = 2 : i32, max_level = 3 : i32, refer_level = 3 : i32, refer_scale = 224 : i32, resultSegmentSizes = array<i32: 2, 1, 2>} : (tensor<?x4xf32>, tensor<?xi32>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x1xi32>, tensor<?xi32>, tensor<?xi32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$FpnRois,
    Optional<Pd_IndexTensor>:$RoisNum,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>:$min_level,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>:$max_level,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>:$refer_level,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>:$refer_scale,
    DefaultValuedAttr<BoolAttr, "true">:$pixel_offset
  );
  let results = (outs Variadic<Pd_FloatTensor>:$MultiFpnRois, Pd_IndexTensor:$RestoreIndex, Variadic<Pd_IndexTensor>:$MultiLevelRoIsNum);
  let assemblyFormat = "$FpnRois (`RoisNum` `(` $RoisNum^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_CollectFpnProposalsOp : Pd_Op<"collect_fpn_proposals", [AttrSizedOperandSegments]> {
  let summary = "FPN: the post_nms_topN best-scored RoIs of all levels, grouped per image (RoisNum [N] per level says which image each RoI belongs to), with their counts per image";
  let description = [{
    Paddle operator `collect_fpn_proposals`: FPN: the post_nms_topN best-scored RoIs of all levels, grouped per image (RoisNum [N] per level says which image each RoI belongs to), with their counts per image.

    Input slots: MultiLevelRois (list), MultiLevelScores (list), MultiLevelRoIsNum (list). Output slots: FpnRois, RoisNum.

    Example:

    ```mlir
    %r, %n = pd.collect_fpn_proposals [%r2, %r3] MultiLevelScores [%s2, %s3] MultiLevelRoIsNum [%n2, %n3] {post_nms_topN = 100 : i32} : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?xi32>, tensor<?xi32>) -> (tensor<?x4xf32>, tensor<?xi32>)
    ```
  }];
  let arguments = (ins
    Variadic<Pd_FloatTensor>:$MultiLevelRois,
    Variadic<Pd_FloatTensor>:$MultiLevelScores,
    Variadic<Pd_IndexTensor>:$MultiLevelRoIsNum,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>:$post_nms_topN
  );
  let results = (outs Pd_FloatTensor:$FpnRois, Optional<Pd_IndexTensor>:$RoisNum);
  let assemblyFormat = "` ` `[` $MultiLevelRois `]` (`MultiLevelScores` `[` $MultiLevelScores^ `]`)? (`MultiLevelRoIsNum` `[` $MultiLevelRoIsNum^ `]`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_RoiAlignOp : Pd_Op<"roi_align"> {
  let summary = "bilinear RoI pooling: each box (of the image RoisNum assigns it) averaged over a grid of samples per output bin";
  let description = [{
    Paddle operator `roi_align`: bilinear RoI pooling: each box (of the image RoisNum assigns it) averaged over a grid of samples per output bin.

    Input slots: X, ROIs, RoisNum (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.roi_align %x, %rois RoisNum(%n) {pooled_height = 7 : i32, pooled_width = 7 : i32} : (tensor<?x256x32x32xf32>, tensor<?x4xf32>, tensor<?xi32>) -> tensor<?x256x7x7xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$ROIs,
    Optional<Pd_IndexTensor>:$RoisNum,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$pooled_height,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$pooled_width,
    DefaultValuedAttr<F32Attr, "1.0">:$spatial_scale,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$sampling_ratio,
    DefaultValuedAttr<BoolAttr, "false">:$aligned
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X `,` $ROIs (`RoisNum` `(` $RoisNum^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_SequencePoolOp : Pd_Op<"sequence_pool"> {
  let summary = "pools each sequence of a LoD batch (X [T, ...] packed, Lengths [N]) to one row of Out [N, ...]; an empty sequence gives pad_value; MaxIndex: the row of each maximum (MAX), else -1";
  let description = [{
    Paddle operator `sequence_pool`: pools each sequence of a LoD batch (X [T, ...] packed, Lengths [N]) to one row of Out [N, ...]; an empty sequence gives pad_value; MaxIndex: the row of each maximum (MAX), else -1.

    Input slots: X, Lengths (optional). Output slots: Out, MaxIndex.

    Example:

    ```mlir
    %y = pd.sequence_pool %x Lengths(%n) {pooltype = "SUM"} : (tensor<?x9xf32>, tensor<?xi64>) -> tensor<?x9xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_IndexTensor>:$Lengths,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["AVERAGE", "SUM", "SQRT", "MAX", "LAST", "FIRST"]>]>, "AVERAGE">:$pooltype,
    DefaultValuedAttr<F32Attr, "0.0">:$pad_value,
    DefaultValuedAttr<BoolAttr, "false">:$is_test
  );
  let results = (outs Pd_FloatTensor:$Out, Optional<Pd_IndexTensor>:$MaxIndex);
  let assemblyFormat = "$X (`Lengths` `(` $Lengths^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_SequenceSoftmaxOp : Pd_Op<"sequence_softmax"> {
  let summary = "softmax over the rows of each sequence of a LoD batch (X [T] or [T, 1] packed, Lengths [N])";
  let description = [{
    Paddle operator `sequence_softmax`: softmax over the rows of each sequence of a LoD batch (X [T] or [T, 1] packed, Lengths [N]).

    Input slots: X, Lengths (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.sequence_softmax %x Lengths(%n) : (tensor<?x1xf32>, tensor<?xi64>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_IndexTensor>:$Lengths
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X (`Lengths` `(` $Lengths^ `)`)? attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_SequenceExpandOp : Pd_Op<"sequence_expand"> {
  let summary = "row i of X (no LoD, [N, ...]) repeated for each row of Y's sequence i (Lengths: Y's [N] sequence lengths): Out [T, ...] with Y's LoD";
  let description = [{
    Paddle operator `sequence_expand`: row i of X (no LoD, [N, ...]) repeated for each row of Y's sequence i (Lengths: Y's [N] sequence lengths): Out [T, ...] with Y's LoD.

    Input slots: X, Y, Lengths (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.sequence_expand %x, %r Lengths(%n) : (tensor<?x8xf32>, tensor<?x4xf32>, tensor<?xi64>) -> tensor<?x8xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Pd_Tensor:$Y,
    Optional<Pd_IndexTensor>:$Lengths,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$ref_level
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X `,` $Y (`Lengths` `(` $Lengths^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_SequenceExpandAsOp : Pd_Op<"sequence_expand_as"> {
  let summary = "row i of X ([N, ...]) repeated for each row of Y's sequence i (Lengths: Y's [N] sequence lengths): Out [T, ...] with Y's LoD";
  let description = [{
    Paddle operator `sequence_expand_as`: row i of X ([N, ...]) repeated for each row of Y's sequence i (Lengths: Y's [N] sequence lengths): Out [T, ...] with Y's LoD.

    Input slots: X, Y, Lengths (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.sequence_expand_as %x, %r Lengths(%n) : (tensor<?x8xf32>, tensor<?x4xf32>, tensor<?xi64>) -> tensor<?x8xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Pd_Tensor:$Y,
    Optional<Pd_IndexTensor>:$Lengths
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X `,` $Y (`Lengths` `(` $Lengths^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_Im2sequenceOp : Pd_Op<"im2sequence"> {
  let summary = "each image of X [N, C, H, W] as one sequence of its kernel-sized patches (paddings: up, left, down, right): Out [N*OH*OW, C*KH*KW], row (n, i, j) holding the patch at output position (i, j) ordered (c, ky, kx), zeros outside the image; OutLengths [N] = OH*OW";
  let description = [{
    Paddle operator `im2sequence`: each image of X [N, C, H, W] as one sequence of its kernel-sized patches (paddings: up, left, down, right): Out [N*OH*OW, C*KH*KW], row (n, i, j) holding the patch at output position (i, j) ordered (c, ky, kx), zeros outside the image; OutLengths [N] = OH*OW.

    Input slots: X, Y (optional). Output slots: Out, OutLengths.

    Example:

    ```mlir
    %y, %n = pd.im2sequence %x {kernels = array<i32: 1, 1>} : (tensor<?x8x1x20xf32>) -> (tensor<?x8xf32>, tensor<?xi64>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Optional<Pd_IndexTensor>:$Y,
    ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>:$kernels,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$strides,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[4]>]>, "{0, 0, 0, 0}">:$paddings,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$out_stride
  );
  let results = (outs Pd_FloatTensor:$Out, Pd_IndexTensor:$OutLengths);
  let assemblyFormat = "$X (`Y` `(` $Y^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_LodResetOp : Pd_Op<"lod_reset", [AttrSizedOperandSegments]> {
  let summary = "X with new sequence boundaries: Y's own LoD (its lengths in Lengths), else Y's data read as offsets [0, ..., T] (int32 or int64), else target_lod; OutLengths: the lengths of the new last level";
  let description = [{
    Paddle operator `lod_reset`: X with new sequence boundaries: Y's own LoD (its lengths in Lengths), else Y's data read as offsets [0, ..., T] (int32 or int64), else target_lod; OutLengths: the lengths of the new last level.

    Input slots: X, Y (optional), Lengths (optional). Output slots: Out, OutLengths.

    Example:

    ```mlir
    %y, %n = pd.lod_reset %x {target_lod = array<i32: 0, 2, 5>} : (tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<2xi64>)
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    Optional<Pd_Tensor>:$Y,
    Optional<Pd_IndexTensor>:$Lengths,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$target_lod,
    DefaultValuedAttr<BoolAttr, "false">:$append
  );
  let results = (outs Pd_Tensor:$Out, Pd_IndexTensor:$OutLengths);
  let assemblyFormat = "$X (`Y` `(` $Y^ `)`)? (`Lengths` `(` $Lengths^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_SequenceReshapeOp : Pd_Op<"sequence_reshape"> {
  let summary = "the rows of a LoD batch X [T, D] re-cut to width new_dim: Out [T*D/new_dim, new_dim], sequence n keeping its values (Lengths[n]*D/new_dim rows, which must divide evenly); OutLengths: the new lengths";
  let description = [{
    Paddle operator `sequence_reshape`: the rows of a LoD batch X [T, D] re-cut to width new_dim: Out [T*D/new_dim, new_dim], sequence n keeping its values (Lengths[n]*D/new_dim rows, which must divide evenly); OutLengths: the new lengths.

    Input slots: X, Lengths (optional). Output slots: Out, OutLengths.

    Example:

    ```mlir
    %y, %n = pd.sequence_reshape %x Lengths(%l) {new_dim = 4 : i32} : (tensor<?x8xf32>, tensor<?xi64>) -> (tensor<?x4xf32>, tensor<?xi64>)
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Optional<Pd_IndexTensor>:$Lengths,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>:$new_dim
  );
  let results = (outs Pd_NumTensor:$Out, Pd_IndexTensor:$OutLengths);
  let assemblyFormat = "$X (`Lengths` `(` $Lengths^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_BoxClipOp : Pd_Op<"box_clip"> {
  let summary = "the boxes (x1, y1, x2, y2 in the last dim, a multiple of 4) of each image of a LoD batch clipped to [0, round(w / scale) - 1] x [0, round(h / scale) - 1] from that image's ImInfo row (h, w, scale)";
  let description = [{
    Paddle operator `box_clip`: the boxes (x1, y1, x2, y2 in the last dim, a multiple of 4) of each image of a LoD batch clipped to [0, round(w / scale) - 1] x [0, round(h / scale) - 1] from that image's ImInfo row (h, w, scale).

    Input slots: Input, ImInfo, Lengths (optional). Output slots: Output.

    Example:

    ```mlir
    %y = pd.box_clip %b, %info Lengths(%n) : (tensor<?x4xf32>, tensor<?x3xf32>, tensor<?xi64>) -> tensor<?x4xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Pd_FloatTensor:$ImInfo,
    Optional<Pd_IndexTensor>:$Lengths
  );
  let results = (outs Pd_FloatTensor:$Output);
  let assemblyFormat = "$Input `,` $ImInfo (`Lengths` `(` $Lengths^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_SequenceConvOp : Pd_Op<"sequence_conv", [AttrSizedOperandSegments]> {
  let summary = "1-D convolution inside each sequence of a LoD batch: row t of Out is the rows t + contextStart ... t + contextStart + contextLength - 1 of its own sequence (zeros outside it), concatenated, times Filter";
  let description = [{
    Paddle operator `sequence_conv`: 1-D convolution inside each sequence of a LoD batch: row t of Out is the rows t + contextStart ... t + contextStart + contextLength - 1 of its own sequence (zeros outside it), concatenated, times Filter.

    Input slots: X, Filter, PaddingData (optional), Lengths (optional). Output slots: Out.

    Example:

    ```mlir
    %y = pd.sequence_conv %x, %w Lengths(%n) {contextLength = 3 : i32, contextStart = -1 : i32} : (tensor<?x8xf32>, tensor<24x5xf32>, tensor<?xi64>) -> tensor<?x5xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Filter,
    Optional<Pd_FloatTensor>:$PaddingData,
    Optional<Pd_IndexTensor>:$Lengths,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>:$contextLength,
    DefaultValuedAttr<Pd_I32Attr, "0">:$contextStart,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$contextStride,
    DefaultValuedAttr<BoolAttr, "false">:$paddingTrainable
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X `,` $Filter (`PaddingData` `(` $PaddingData^ `)`)? (`Lengths` `(` $Lengths^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_RnnOp : Pd_Op<"rnn", [AttrSizedOperandSegments, AttrSizedResultSegments]> {
  let summary = "a multi-layer, optionally bidirectional LSTM, GRU or simple RNN over a time-major batch Input [T, N, I] from PreState ([L*D, N, H]: h, and c for LSTM); WeightList: W_ih, W_hh per layer and direction, then b_ih, b_hh; sequence n runs its first SequenceLength[n] steps";
  let description = [{
    Paddle operator `rnn`: a multi-layer, optionally bidirectional LSTM, GRU or simple RNN over a time-major batch Input [T, N, I] from PreState ([L*D, N, H]: h, and c for LSTM); WeightList: W_ih, W_hh per layer and direction, then b_ih, b_hh; sequence n runs its first SequenceLength[n] steps.

    Input slots: Input, PreState (list), WeightList (list), SequenceLength (optional). Output slots: Out, State (list), DropoutState, Reserve.

    Example:

    ```mlir
    %y, %h = pd.rnn %x PreState[%h0] WeightList[%wi, %wh, %bi, %bh] {hidden_size = 4 : i32, input_size = 3 : i32, mode = "GRU", resultSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<5x?x3xf32>, tensor<1x?x4xf32>, tensor<12x3xf32>, tensor<12x4xf32>, tensor<12xf32>, tensor<12xf32>) -> (tensor<5x?x4xf32>, tensor<1x?x4xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Variadic<Pd_FloatTensor>:$PreState,
    Variadic<Pd_FloatTensor>:$WeightList,
    Optional<Pd_IndexTensor>:$SequenceLength,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["LSTM", "GRU", "RNN_TANH", "RNN_RELU"]>]>, "RNN_TANH">:$mode,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$num_layers,
    DefaultValuedAttr<BoolAttr, "false">:$is_bidirec,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "100">:$hidden_size,
    DefaultValuedAttr<Pd_I32Attr, "10">:$input_size,
    DefaultValuedAttr<F32Attr, "0.0">:$dropout_prob,
    DefaultValuedAttr<BoolAttr, "false">:$is_test,
    DefaultValuedAttr<Pd_I32Attr, "0">:$seed
  );
  let results = (outs Pd_FloatTensor:$Out, Variadic<Pd_FloatTensor>:$State, Optional<Pd_Tensor>:$DropoutState, Optional<Pd_Tensor>:$Reserve);
  let assemblyFormat = "$Input (`PreState` `[` $PreState^ `]`)? (`WeightList` `[` $WeightList^ `]`)? (`SequenceLength` `(` $SequenceLength^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_GruOp : Pd_Op<"gru", [AttrSizedOperandSegments, AttrSizedResultSegments]> {
  let summary = "Fluid's GRU over each sequence of a LoD batch (Input [T, 3H] already projected: update, reset, candidate); Weight holds the [H, 2H] update/reset then the [H, H] candidate weights";
  let description = [{
    Paddle operator `gru`: Fluid's GRU over each sequence of a LoD batch (Input [T, 3H] already projected: update, reset, candidate); Weight holds the [H, 2H] update/reset then the [H, H] candidate weights.

    Input slots: Input, H0 (optional), Weight, Bias (optional), Lengths (optional). Output slots: Hidden, BatchGate, BatchResetHiddenPrev, BatchHidden.

    Example:

    ```mlir
    %h = pd.gru %x, %w Lengths(%n) {resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<?x12xf32>, tensor<4x12xf32>, tensor<?xi64>) -> tensor<?x4xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Optional<Pd_FloatTensor>:$H0,
    Pd_FloatTensor:$Weight,
    Optional<Pd_FloatTensor>:$Bias,
    Optional<Pd_IndexTensor>:$Lengths,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["sigmoid", "tanh", "relu", "identity"]>]>, "tanh">:$activation,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["sigmoid", "tanh", "relu", "identity"]>]>, "sigmoid">:$gate_activation,
    DefaultValuedAttr<BoolAttr, "false">:$is_reverse,
    DefaultValuedAttr<BoolAttr, "false">:$origin_mode,
    DefaultValuedAttr<BoolAttr, "false">:$is_test
  );
  let results = (outs Pd_FloatTensor:$Hidden, Optional<Pd_FloatTensor>:$BatchGate, Optional<Pd_FloatTensor>:$BatchResetHiddenPrev, Optional<Pd_FloatTensor>:$BatchHidden);
  let assemblyFormat = "$Input `,` $Weight (`H0` `(` $H0^ `)`)? (`Bias` `(` $Bias^ `)`)? (`Lengths` `(` $Lengths^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_LstmOp : Pd_Op<"lstm", [AttrSizedOperandSegments, AttrSizedResultSegments]> {
  let summary = "Fluid's LSTM over each sequence of a LoD batch (Input [T, 4H] already projected: candidate, input, forget, output), with peephole weights in Bias [1, 7H] when use_peepholes";
  let description = [{
    Paddle operator `lstm`: Fluid's LSTM over each sequence of a LoD batch (Input [T, 4H] already projected: candidate, input, forget, output), with peephole weights in Bias [1, 7H] when use_peepholes.

    Input slots: Input, H0 (optional), C0 (optional), Weight, Bias, Lengths (optional). Output slots: Hidden, Cell, BatchGate, BatchCellPreAct.

    Example:

    ```mlir
    %h, %c = pd.lstm %x, %w, %b Lengths(%n) {resultSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<?x16xf32>, tensor<4x16xf32>, tensor<1x28xf32>, tensor<?xi64>) -> (tensor<?x4xf32>, tensor<?x4xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Optional<Pd_FloatTensor>:$H0,
    Optional<Pd_FloatTensor>:$C0,
    Pd_FloatTensor:$Weight,
    Pd_FloatTensor:$Bias,
    Optional<Pd_IndexTensor>:$Lengths,
    DefaultValuedAttr<BoolAttr, "true">:$use_peepholes,
    DefaultValuedAttr<BoolAttr, "false">:$is_reverse,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["sigmoid", "tanh", "relu", "identity"]>]>, "sigmoid">:$gate_activation,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["sigmoid", "tanh", "relu", "identity"]>]>, "tanh">:$cell_activation,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["sigmoid", "tanh", "relu", "identity"]>]>, "tanh">:$candidate_activation,
    DefaultValuedAttr<BoolAttr, "false">:$is_test
  );
  let results = (outs Pd_FloatTensor:$Hidden, Pd_FloatTensor:$Cell, Optional<Pd_FloatTensor>:$BatchGate, Optional<Pd_FloatTensor>:$BatchCellPreAct);
  let assemblyFormat = "$Input `,` $Weight `,` $Bias (`H0` `(` $H0^ `)`)? (`C0` `(` $C0^ `)`)? (`Lengths` `(` $Lengths^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_LstmpOp : Pd_Op<"lstmp", [AttrSizedOperandSegments, AttrSizedResultSegments]> {
  let summary = "Fluid's LSTM with a recurrent projection over each sequence of a LoD batch: the hidden state [D] is projected by ProjWeight [D, P] (proj_activation, proj_clip) and the projection [P] is what Weight [P, 4D] reads at the next step; cell_clip bounds the cell";
  let description = [{
    Paddle operator `lstmp`: Fluid's LSTM with a recurrent projection over each sequence of a LoD batch: the hidden state [D] is projected by ProjWeight [D, P] (proj_activation, proj_clip) and the projection [P] is what Weight [P, 4D] reads at the next step; cell_clip bounds the cell.

    Input slots: Input, H0 (optional), C0 (optional), Weight, ProjWeight, Bias, Lengths (optional). Output slots: Projection, Cell, BatchGate, BatchCellPreAct, BatchHidden, OrderedP0.

    Example:

    ```mlir
    %p, %c = pd.lstmp %x, %w, %pw, %b Lengths(%n) {resultSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (tensor<?x16xf32>, tensor<3x16xf32>, tensor<4x3xf32>, tensor<1x28xf32>, tensor<?xi64>) -> (tensor<?x3xf32>, tensor<?x4xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Optional<Pd_FloatTensor>:$H0,
    Optional<Pd_FloatTensor>:$C0,
    Pd_FloatTensor:$Weight,
    Pd_FloatTensor:$ProjWeight,
    Pd_FloatTensor:$Bias,
    Optional<Pd_IndexTensor>:$Lengths,
    DefaultValuedAttr<BoolAttr, "true">:$use_peepholes,
    DefaultValuedAttr<BoolAttr, "false">:$is_reverse,
    DefaultValuedAttr<F32Attr, "0.0">:$cell_clip,
    DefaultValuedAttr<F32Attr, "0.0">:$proj_clip,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["sigmoid", "tanh", "relu", "identity"]>]>, "sigmoid">:$gate_activation,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["sigmoid", "tanh", "relu", "identity"]>]>, "tanh">:$cell_activation,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["sigmoid", "tanh", "relu", "identity"]>]>, "tanh">:$candidate_activation,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["sigmoid", "tanh", "relu", "identity"]>]>, "tanh">:$proj_activation,
    DefaultValuedAttr<BoolAttr, "false">:$is_test
  );
  let results = (outs Pd_FloatTensor:$Projection, Pd_FloatTensor:$Cell, Optional<Pd_FloatTensor>:$BatchGate, Optional<Pd_FloatTensor>:$BatchCellPreAct, Optional<Pd_FloatTensor>:$BatchHidden, Optional<Pd_FloatTensor>:$OrderedP0);
  let assemblyFormat = "$Input `,` $Weight `,` $ProjWeight `,` $Bias (`H0` `(` $H0^ `)`)? (`C0` `(` $C0^ `)`)? (`Lengths` `(` $Lengths^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_GruUnitOp : Pd_Op<"gru_unit"> {
  let summary = "one GRU step of a batch: Input [N, 3D] (update, reset, candidate, already projected), HiddenPrev [N, D]; Weight's first 2D*D values are the [D, 2D] update/reset weights, the next D*D the [D, D] candidate weights; activations 0 identity, 1 sigmoid, 2 tanh, 3 relu";
  let description = [{
    Paddle operator `gru_unit`: one GRU step of a batch: Input [N, 3D] (update, reset, candidate, already projected), HiddenPrev [N, D]; Weight's first 2D*D values are the [D, 2D] update/reset weights, the next D*D the [D, D] candidate weights; activations 0 identity, 1 sigmoid, 2 tanh, 3 relu.

    Input slots: Input, HiddenPrev, Weight, Bias (optional). Output slots: Gate, ResetHiddenPrev, Hidden.

    Example:

    ```mlir
    %g, %r, %h = pd.gru_unit %x, %h0, %w : (tensor<?x12xf32>, tensor<?x4xf32>, tensor<4x12xf32>) -> (tensor<?x12xf32>, tensor<?x4xf32>, tensor<?x4xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Pd_FloatTensor:$HiddenPrev,
    Pd_FloatTensor:$Weight,
    Optional<Pd_FloatTensor>:$Bias,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "2">:$activation,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "1">:$gate_activation,
    DefaultValuedAttr<BoolAttr, "false">:$origin_mode
  );
  let results = (outs Pd_FloatTensor:$Gate, Pd_FloatTensor:$ResetHiddenPrev, Pd_FloatTensor:$Hidden);
  let assemblyFormat = "$Input `,` $HiddenPrev `,` $Weight (`Bias` `(` $Bias^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_LstmUnitOp : Pd_Op<"lstm_unit"> {
  let summary = "one LSTM step of a batch from X [N, 4D] (input, forget, output gate and candidate, already projected) and C_prev [N, D]: C = sigmoid(f + forget_bias) * C_prev + sigmoid(i) * tanh(g), H = sigmoid(o) * tanh(C)";
  let description = [{
    Paddle operator `lstm_unit`: one LSTM step of a batch from X [N, 4D] (input, forget, output gate and candidate, already projected) and C_prev [N, D]: C = sigmoid(f + forget_bias) * C_prev + sigmoid(i) * tanh(g), H = sigmoid(o) * tanh(C).

    Input slots: X, C_prev. Output slots: C, H.

    Example:

    ```mlir
    %c, %h = pd.lstm_unit %x, %c0 : (tensor<?x16xf32>, tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$C_prev,
    DefaultValuedAttr<F32Attr, "0.0">:$forget_bias
  );
  let results = (outs Pd_FloatTensor:$C, Pd_FloatTensor:$H);
  let assemblyFormat = "$X `,` $C_prev attr-dict `:` functional-type(operands, results)";
}

def Pd_CrfDecodingOp : Pd_Op<"crf_decoding", [AttrSizedOperandSegments]> {
  let summary = "the best tag path of a linear-chain CRF (Viterbi) for each sequence of a LoD batch: Emission [T, D] scores, Transition [D + 2, D] (start weights, end weights, then tag-to-tag weights)";
  let description = [{
    Paddle operator `crf_decoding`: the best tag path of a linear-chain CRF (Viterbi) for each sequence of a LoD batch: Emission [T, D] scores, Transition [D + 2, D] (start weights, end weights, then tag-to-tag weights).

    Input slots: Emission, Transition, Label (optional), Length (optional), Lengths (optional). Output slots: ViterbiPath.

    Example:

    ```mlir
    %p = pd.crf_decoding %e, %t Lengths(%n) : (tensor<?x5xf32>, tensor<7x5xf32>, tensor<?xi64>) -> tensor<?x1xi64>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Emission,
    Pd_FloatTensor:$Transition,
    Optional<Pd_IndexTensor>:$Label,
    Optional<Pd_IndexTensor>:$Length,
    Optional<Pd_IndexTensor>:$Lengths
  );
  let results = (outs Pd_IndexTensor:$ViterbiPath);
  let assemblyFormat = "$Emission `,` $Transition (`Label` `(` $Label^ `)`)? (`Length` `(` $Length^ `)`)? (`Lengths` `(` $Lengths^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_ViterbiDecodeOp : Pd_Op<"viterbi_decode"> {
  let summary = "the best tag path of a linear-chain CRF for each padded sequence (Input [N, T, D] scores, Length [N]); with include_bos_eos_tag the last and second-last rows of Transition [D, D] are the start and stop weights; Path is [N, min(T, max(Length))]";
  let description = [{
    Paddle operator `viterbi_decode`: the best tag path of a linear-chain CRF for each padded sequence (Input [N, T, D] scores, Length [N]); with include_bos_eos_tag the last and second-last rows of Transition [D, D] are the start and stop weights; Path is [N, min(T, max(Length))].

    Input slots: Input, Transition, Length. Output slots: Scores, Path.

    Example:

    ```mlir
    %s, %p = pd.viterbi_decode %x, %t, %n : (tensor<?x?x5xf32>, tensor<5x5xf32>, tensor<?xi64>) -> (tensor<?xf32>, tensor<?x?xi64>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Pd_FloatTensor:$Transition,
    Pd_IndexTensor:$Length,
    DefaultValuedAttr<BoolAttr, "true">:$include_bos_eos_tag
  );
  let results = (outs Pd_FloatTensor:$Scores, Pd_IndexTensor:$Path);
  let assemblyFormat = "$Input `,` $Transition `,` $Length attr-dict `:` functional-type(operands, results)";
}

def Pd_FakeQuantizeMovingAverageAbsMaxOp : Pd_Op<"fake_quantize_moving_average_abs_max", [AttrSizedOperandSegments]> {
  let summary = "quantizes x to bit_length-bit integers (stored as float) with a moving-average abs-max scale";
  let description = [{
    Paddle operator `fake_quantize_moving_average_abs_max`: quantizes x to bit_length-bit integers (stored as float) with a moving-average abs-max scale.

    Input slots: X, InScale, InAccum (optional), InState (optional). Output slots: Out, OutScale.

    Example:

    ```mlir
    %q, %s = pd.fake_quantize_moving_average_abs_max %x, %in_scale {is_test = true} : (tensor<?x64xf32>, tensor<1xf32>) -> (tensor<?x64xf32>, tensor<1xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$InScale,
    Optional<Pd_FloatTensor>:$InAccum,
    Optional<Pd_FloatTensor>:$InState,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Range<"0.0", "1.0">]>, "0.9">:$moving_rate,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "8">:$bit_length,
    DefaultValuedAttr<BoolAttr, "false">:$is_test,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "1">:$round_type
  );
  let results = (outs Pd_FloatTensor:$Out, Pd_FloatTensor:$OutScale);
  let assemblyFormat = "$X `,` $InScale (`InAccum` `(` $InAccum^ `)`)? (`InState` `(` $InState^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_FakeQuantizeDequantizeMovingAverageAbsMaxOp : Pd_Op<"fake_quantize_dequantize_moving_average_abs_max", [AttrSizedOperandSegments]> {
  let summary = "quantizes then dequantizes x with a moving-average abs-max scale (QAT simulation)";
  let description = [{
    Paddle operator `fake_quantize_dequantize_moving_average_abs_max`: quantizes then dequantizes x with a moving-average abs-max scale (QAT simulation).

    Input slots: X, InScale, InAccum (optional), InState (optional). Output slots: Out, OutScale.

    Example:

    ```mlir
    %q, %s = pd.fake_quantize_dequantize_moving_average_abs_max %x, %in_scale {is_test = true} : (tensor<?x64xf32>, tensor<1xf32>) -> (tensor<?x64xf32>, tensor<1xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$InScale,
    Optional<Pd_FloatTensor>:$InAccum,
    Optional<Pd_FloatTensor>:$InState,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Range<"0.0", "1.0">]>, "0.9">:$moving_rate,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "8">:$bit_length,
    DefaultValuedAttr<BoolAttr, "false">:$is_test,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "1">:$round_type
  );
  let results = (outs Pd_FloatTensor:$Out, Pd_FloatTensor:$OutScale);
  let assemblyFormat = "$X `,` $InScale (`InAccum` `(` $InAccum^ `)`)? (`InState` `(` $InState^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_FakeChannelWiseQuantizeDequantizeAbsMaxOp : Pd_Op<"fake_channel_wise_quantize_dequantize_abs_max"> {
  let summary = "per-channel abs-max quantize-dequantize of a weight (QAT simulation)";
  let description = [{
    Paddle operator `fake_channel_wise_quantize_dequantize_abs_max`: per-channel abs-max quantize-dequantize of a weight (QAT simulation).

    Input slots: X. Output slots: Out, OutScale.

    Example:

    ```mlir
    %q, %s = pd.fake_channel_wise_quantize_dequantize_abs_max %w : (tensor<32x3x3x3xf32>) -> (tensor<32x3x3x3xf32>, tensor<32xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "8">:$bit_length,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$quant_axis,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "1">:$round_type,
    DefaultValuedAttr<BoolAttr, "false">:$is_test
  );
  let results = (outs Pd_FloatTensor:$Out, Pd_FloatTensor:$OutScale);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_FakeDequantizeMaxAbsOp : Pd_Op<"fake_dequantize_max_abs"> {
  let summary = "x * scale / max_range";
  let description = [{
    Paddle operator `fake_dequantize_max_abs`: x * scale / max_range.

    Input slots: X, Scale. Output slots: Out.

    Example:

    ```mlir
    %y = pd.fake_dequantize_max_abs %x, %s {max_range = 127.0 : f32} : (tensor<?x64xf32>, tensor<1xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Scale,
    F32Attr:$max_range
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X `,` $Scale attr-dict `:` functional-type(operands, results)";
}

def Pd_FakeChannelWiseDequantizeMaxAbsOp : Pd_Op<"fake_channel_wise_dequantize_max_abs"> {
  let summary = "per-channel dequantization x * scale[c] / (2^(bits-1) - 1)";
  let description = [{
    Paddle operator `fake_channel_wise_dequantize_max_abs`: per-channel dequantization x * scale[c] / (2^(bits-1) - 1).

    Input slots: X, Scales (list). Output slots: Out.

    Example:

    ```mlir
    %y = pd.fake_channel_wise_dequantize_max_abs %x Scales [%s] : (tensor<?x32x8x8xf32>, tensor<32xf32>) -> tensor<?x32x8x8xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Variadic<Pd_FloatTensor>:$Scales,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>]>, "{8}">:$quant_bits,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$quant_axis,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$x_num_col_dims
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X (`Scales` `[` $Scales^ `]`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_QuantizeLinearOp : Pd_Op<"quantize_linear", [AttrSizedOperandSegments]> {
  let summary = "linear quantization round(x / scale * (2^(bits-1) - 1)) + zero_point, per tensor or per axis";
  let description = [{
    Paddle operator `quantize_linear`: linear quantization round(x / scale * (2^(bits-1) - 1)) + zero_point, per tensor or per axis.

    Input slots: X, Scale, ZeroPoint, InAccum (optional), InState (optional). Output slots: Y.

    Example:

    ```mlir
    %q = pd.quantize_linear %x, %s, %zp : (tensor<?x64xf32>, tensor<1xf32>, tensor<1xi32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Scale,
    Pd_NumTensor:$ZeroPoint,
    Optional<Pd_FloatTensor>:$InAccum,
    Optional<Pd_FloatTensor>:$InState,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$quant_axis,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "8">:$bit_length,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$round_type,
    DefaultValuedAttr<BoolAttr, "true">:$is_test,
    DefaultValuedAttr<F32Attr, "0.9">:$moving_rate
  );
  let results = (outs Pd_QuantTensor:$Y);
  let assemblyFormat = "$X `,` $Scale `,` $ZeroPoint (`InAccum` `(` $InAccum^ `)`)? (`InState` `(` $InState^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_DequantizeLinearOp : Pd_Op<"dequantize_linear"> {
  let summary = "linear dequantization (x - zero_point) * scale / (2^(bits-1) - 1), per tensor or per axis";
  let description = [{
    Paddle operator `dequantize_linear`: linear dequantization (x - zero_point) * scale / (2^(bits-1) - 1), per tensor or per axis.

    Input slots: X, Scale, ZeroPoint. Output slots: Y.

    Example:

    ```mlir
    %y = pd.dequantize_linear %q, %s, %zp : (tensor<?x64xf32>, tensor<1xf32>, tensor<1xi32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_QuantTensor:$X,
    Pd_FloatTensor:$Scale,
    Pd_NumTensor:$ZeroPoint,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$quant_axis,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "8">:$bit_length,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$round_type
  );
  let results = (outs Pd_FloatTensor:$Y);
  let assemblyFormat = "$X `,` $Scale `,` $ZeroPoint attr-dict `:` functional-type(operands, results)";
}

def Pd_SiluOp : Pd_Op<"silu"> {
  let summary = "x * sigmoid(x)";
  let description = [{
    Paddle operator `silu`: x * sigmoid(x).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.silu %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_Conv3dOp : Pd_Op<"conv3d"> {
  let summary = "3-D convolution over NCDHW input (filter [C_out, C_in/groups, kD, kH, kW]) with groups and dilations";
  let description = [{
    Paddle operator `conv3d`: 3-D convolution over NCDHW input (filter [C_out, C_in/groups, kD, kH, kW]) with groups and dilations.

    Input slots: Input, Filter. Output slots: Output.

    Example:

    ```mlir
    %y = pd.conv3d %x, %w {paddings = array<i32: 1, 1, 1>} : (tensor<?x3x8x16x16xf32>, tensor<8x3x3x3x3xf32>) -> tensor<?x8x8x16x16xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Pd_FloatTensor:$Filter,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[3]>]>, "{1, 1, 1}">:$strides,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[3, 6]>]>, "{0, 0, 0}">:$paddings,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["EXPLICIT", "SAME", "VALID"]>]>, "EXPLICIT">:$padding_algorithm,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$groups,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[3]>]>, "{1, 1, 1}">:$dilations,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCDHW", "NDHWC", "AnyLayout"]>]>, "NCDHW">:$data_format
  );
  let results = (outs Pd_FloatTensor:$Output);
  let assemblyFormat = "$Input `,` $Filter attr-dict `:` functional-type(operands, results)";
}

def Pd_GridSamplerOp : Pd_Op<"grid_sampler"> {
  let summary = "samples NCHW x at the normalized (x, y) positions of grid [N, H_out, W_out, 2]";
  let description = [{
    Paddle operator `grid_sampler`: samples NCHW x at the normalized (x, y) positions of grid [N, H_out, W_out, 2].

    Input slots: X, Grid. Output slots: Output.

    Example:

    ```mlir
    %y = pd.grid_sampler %x, %g : (tensor<?x8x16x16xf32>, tensor<?x4x4x2xf32>) -> tensor<?x8x4x4xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Grid,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["bilinear", "nearest"]>]>, "bilinear">:$mode,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["zeros", "border", "reflection"]>]>, "zeros">:$padding_mode,
    DefaultValuedAttr<BoolAttr, "true">:$align_corners
  );
  let results = (outs Pd_FloatTensor:$Output);
  let assemblyFormat = "$X `,` $Grid attr-dict `:` functional-type(operands, results)";
}

def Pd_AssignValueOp : Pd_Op<"assign_value"> {
  let summary = "a constant tensor of the given shape and dtype whose elements are listed in the attribute of that dtype";
  let description = [{
    Paddle operator `assign_value`: a constant tensor of the given shape and dtype whose elements are listed in the attribute of that dtype.

    Input slots: none. Output slots: Out.

    Example:

    ```mlir
    %y = pd.assign_value {shape = array<i32: 2>, dtype = 2 : i32, int32_values = array<i32: 4, 7>} : () -> tensor<2xi32>
    ```
  }];
  let arguments = (ins
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$shape,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "5">:$dtype,
    DefaultValuedAttr<DenseF32ArrayAttr, "{}">:$fp32_values,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$int32_values,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$int64_values,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$bool_values
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "attr-dict `:` functional-type(operands, results)";
}

def Pd_FillConstantBatchSizeLikeOp : Pd_Op<"fill_constant_batch_size_like"> {
  let summary = "a tensor of `shape` filled with one value, dim output_dim_idx taken from Input's dim input_dim_idx";
  let description = [{
    Paddle operator `fill_constant_batch_size_like`: a tensor of `shape` filled with one value, dim output_dim_idx taken from Input's dim input_dim_idx.

    Input slots: Input. Output slots: Out.

    Example:

    ```mlir
    %y = pd.fill_constant_batch_size_like %x {shape = array<i32: -1, 2, 32>, output_dim_idx = 0 : i32} : (tensor<?x16xf32>) -> tensor<?x2x32xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$Input,
    DenseI32ArrayAttr:$shape,
    DefaultValuedAttr<F32Attr, "0.0">:$value,
    DefaultValuedStrAttr<StrAttr, "">:$str_value,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "5">:$dtype,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$input_dim_idx,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$output_dim_idx,
    DefaultValuedAttr<BoolAttr, "false">:$force_cpu
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$Input attr-dict `:` functional-type(operands, results)";
}

def Pd_CrossEntropy2Op : Pd_Op<"cross_entropy2"> {
  let summary = "hard-label cross entropy -log(x[label]) over the last dim (0 where label is ignore_index)";
  let description = [{
    Paddle operator `cross_entropy2`: hard-label cross entropy -log(x[label]) over the last dim (0 where label is ignore_index).

    Input slots: X, Label. Output slots: Y, MatchX.

    Example:

    ```mlir
    %y, %m = pd.cross_entropy2 %x, %l : (tensor<?x10xf32>, tensor<?x1xi64>) -> (tensor<?x1xf32>, tensor<?x1xf32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_IndexTensor:$Label,
    DefaultValuedAttr<Pd_I64Attr, "-100">:$ignore_index
  );
  let results = (outs Pd_FloatTensor:$Y, Pd_FloatTensor:$MatchX);
  let assemblyFormat = "$X `,` $Label attr-dict `:` functional-type(operands, results)";
}

def Pd_TopKOp : Pd_Op<"top_k"> {
  let summary = "the k largest values along the last dim, sorted, and their indices (Paddle 1.x)";
  let description = [{
    Paddle operator `top_k`: the k largest values along the last dim, sorted, and their indices (Paddle 1.x).

    Input slots: X, K (optional). Output slots: Out, Indices.

    Example:

    ```mlir
    %v, %i = pd.top_k %x {k = 5 : i32} : (tensor<?x1000xf32>) -> (tensor<?x5xf32>, tensor<?x5xi64>)
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    Optional<Pd_IndexTensor>:$KInput,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$k
  );
  let results = (outs Pd_NumTensor:$Out, Pd_IndexTensor:$Indices);
  let assemblyFormat = "$X (`K` `(` $KInput^ `)`)? attr-dict `:` functional-type(operands, results)";
}

def Pd_AccuracyOp : Pd_Op<"accuracy"> {
  let summary = "the fraction of rows whose label is among their top-k indices, with the counts";
  let description = [{
    Paddle operator `accuracy`: the fraction of rows whose label is among their top-k indices, with the counts.

    Input slots: Out, Indices, Label. Output slots: Accuracy, Correct, Total.

    Example:

    ```mlir
    %a, %c, %t = pd.accuracy %v, %i, %l : (tensor<?x5xf32>, tensor<?x5xi64>, tensor<?x1xi64>) -> (tensor<1xf32>, tensor<1xi32>, tensor<1xi32>)
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Out,
    Pd_IndexTensor:$Indices,
    Pd_IndexTensor:$Label
  );
  let results = (outs Pd_FloatTensor:$Accuracy, Pd_IntTensor:$Correct, Pd_IntTensor:$Total);
  let assemblyFormat = "$Out `,` $Indices `,` $Label attr-dict `:` functional-type(operands, results)";
}

def Pd_CAllreduceSumOp : Pd_CommOp<"c_allreduce_sum"> {
  let summary = "elementwise sum of X over the ranks of ring ring_id; every rank gets the result";
  let description = [{
    Paddle operator `c_allreduce_sum`: elementwise sum of X over the ranks of ring ring_id; every rank gets the result.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.c_allreduce_sum %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$ring_id,
    DefaultValuedAttr<BoolAttr, "false">:$use_calc_stream,
    DefaultValuedAttr<BoolAttr, "false">:$use_model_parallel
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_CAllreduceMaxOp : Pd_CommOp<"c_allreduce_max"> {
  let summary = "elementwise max of X over the ranks of ring ring_id; every rank gets the result";
  let description = [{
    Paddle operator `c_allreduce_max`: elementwise max of X over the ranks of ring ring_id; every rank gets the result.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.c_allreduce_max %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$ring_id,
    DefaultValuedAttr<BoolAttr, "false">:$use_calc_stream,
    DefaultValuedAttr<BoolAttr, "false">:$use_model_parallel
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_CAllreduceMinOp : Pd_CommOp<"c_allreduce_min"> {
  let summary = "elementwise min of X over the ranks of ring ring_id; every rank gets the result";
  let description = [{
    Paddle operator `c_allreduce_min`: elementwise min of X over the ranks of ring ring_id; every rank gets the result.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.c_allreduce_min %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$ring_id,
    DefaultValuedAttr<BoolAttr, "false">:$use_calc_stream,
    DefaultValuedAttr<BoolAttr, "false">:$use_model_parallel
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_CAllreduceProdOp : Pd_CommOp<"c_allreduce_prod"> {
  let summary = "elementwise prod of X over the ranks of ring ring_id; every rank gets the result";
  let description = [{
    Paddle operator `c_allreduce_prod`: elementwise prod of X over the ranks of ring ring_id; every rank gets the result.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.c_allreduce_prod %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$ring_id,
    DefaultValuedAttr<BoolAttr, "false">:$use_calc_stream,
    DefaultValuedAttr<BoolAttr, "false">:$use_model_parallel
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_CBroadcastOp : Pd_CommOp<"c_broadcast"> {
  let summary = "rank root's X, on every rank of ring ring_id";
  let description = [{
    Paddle operator `c_broadcast`: rank root's X, on every rank of ring ring_id.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.c_broadcast %x {root = 1 : i32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$ring_id,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$root,
    DefaultValuedAttr<BoolAttr, "false">:$use_calc_stream
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

def Pd_CAllgatherOp : Pd_CommOp<"c_allgather"> {
  let summary = "the X of every rank of ring ring_id concatenated along dim 0 in rank order (nranks ranks)";
  let description = [{
    Paddle operator `c_allgather`: the X of every rank of ring ring_id concatenated along dim 0 in rank order (nranks ranks).

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.c_allgather %x {nranks = 2 : i32} : (tensor<4x64xf32>) -> tensor<8x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$ring_id,
    ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>:$nranks,
    DefaultValuedAttr<BoolAttr, "false">:$use_calc_stream
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_CReducescatterOp : Pd_CommOp<"c_reducescatter"> {
  let summary = "the sum of X over the nranks ranks of ring ring_id, split along dim 0; rank r keeps part r";
  let description = [{
    Paddle operator `c_reducescatter`: the sum of X over the nranks ranks of ring ring_id, split along dim 0; rank r keeps part r.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.c_reducescatter %x {nranks = 2 : i32} : (tensor<8x64xf32>) -> tensor<4x64xf32>
    ```
  }];
  let arguments = (ins
    Pd_NumTensor:$X,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$ring_id,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$nranks,
    DefaultValuedAttr<BoolAttr, "false">:$use_calc_stream
  );
  let results = (outs Pd_NumTensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_SendV2Op : Pd_CommOp<"send_v2"> {
  let summary = "sends X to rank peer of ring ring_id (matched by that rank's recv_v2)";
  let description = [{
    Paddle operator `send_v2`: sends X to rank peer of ring ring_id (matched by that rank's recv_v2).

    Input slots: X. Output slots: none.

    Example:

    ```mlir
    pd.send_v2 %x {peer = 1 : i32} : (tensor<4x64xf32>) -> ()
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$ring_id,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$peer,
    DefaultValuedAttr<BoolAttr, "false">:$use_calc_stream,
    DefaultValuedAttr<BoolAttr, "false">:$dynamic_shape
  );
  let results = (outs );
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}

def Pd_RecvV2Op : Pd_CommOp<"recv_v2"> {
  let summary = "a tensor of out_shape and dtype received from rank peer of ring ring_id (its send_v2)";
  let description = [{
    Paddle operator `recv_v2`: a tensor of out_shape and dtype received from rank peer of ring ring_id (its send_v2).

    Input slots: none. Output slots: Out.

    Example:

    ```mlir
    %y = pd.recv_v2 {peer = 0 : i32, out_shape = array<i32: 4, 64>} : () -> tensor<4x64xf32>
    ```
  }];
  let arguments = (ins
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$ring_id,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$peer,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "5">:$dtype,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$out_shape,
    DefaultValuedAttr<BoolAttr, "false">:$use_calc_stream,
    DefaultValuedAttr<BoolAttr, "false">:$dynamic_shape
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "attr-dict `:` functional-type(operands, results)";
}

def Pd_BarrierOp : Pd_CommOp<"barrier"> {
  let summary = "waits until every rank of ring ring_id reaches it; Out is X";
  let description = [{
    Paddle operator `barrier`: waits until every rank of ring ring_id reaches it; Out is X.

    Input slots: X. Output slots: Out.

    Example:

    ```mlir
    %y = pd.barrier %x : (tensor<1xf32>) -> tensor<1xf32>
    ```
  }];
  let arguments = (ins
    Pd_Tensor:$X,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<0>]>, "0">:$ring_id
  );
  let results = (outs Pd_Tensor:$Out);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
  ::llvm::LogicalResult $cppClass::inferResultTypes(
      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {
    types.push_back(getX().getType());
    return ::mlir::success();
  }
  }];
}

#endif // PADDLEMLIR_DIALECT_PD_IR_PDOPSGENERATED_TD

//===- PdFusedOps.td - fused and compiler-only pd ops -----------*- tablegen -*-===//
//
// Ops that Paddle's inference analysis (and our fusion passes) produce rather
// than Paddle's Python API: they keep the names and attributes Paddle uses for
// its fused operators so fused programs still export as Paddle programs.
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_DIALECT_PD_IR_PDFUSEDOPS_TD
#define PADDLEMLIR_DIALECT_PD_IR_PDFUSEDOPS_TD

include "PaddleMLIR/Dialect/Pd/IR/PdBase.td"
include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.td"

def Pd_FusedActivation : Pd_StrIn<["", "identity", "relu", "relu6", "leaky_relu", "hard_swish", "swish",
                                   "sigmoid", "tanh", "gelu"]>;

def Pd_FcOp : Pd_Op<"fc"> {
  let summary = "fully connected layer: activation(flatten(Input) x W + Bias)";
  let description = [{
    Paddle's fused operator `fc`. `Input` is flattened to 2-D at
    `in_num_col_dims` (the leading dims are kept in the result), multiplied by
    the 2-D weight `W` ([K, N]), `Bias` ([N] or [1, N]) is added and
    `activation_type` applied. Produced by the mul/matmul + add fusion.

    Example:

    ```mlir
    %y = pd.fc %x, %w Bias(%b) {in_num_col_dims = 2 : i32, activation_type = "relu"}
        : (tensor<?x128x768xf32>, tensor<768x3072xf32>, tensor<3072xf32>) -> tensor<?x128x3072xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Pd_FloatTensor:$W,
    Optional<Pd_FloatTensor>:$Bias,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$in_num_col_dims,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_FusedActivation]>, "">:$activation_type,
    DefaultValuedAttr<BoolAttr, "false">:$padding_weights
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = [{
    $Input `,` $W (`Bias` `(` $Bias^ `)`)? attr-dict `:` functional-type(operands, results)
  }];
}

def Pd_FusedConv2dOp : Pd_Op<"fused_conv2d", [AttrSizedOperandSegments]> {
  let summary = "conv2d with fused bias, activation and residual add";
  let description = [{
    `activation(conv2d(Input, Filter) + Bias [+ ResidualData])`, the form
    Paddle's conv fuse passes produce. Convolution attributes are those of
    `pd.conv2d`; `fuse_activation` names the activation and `fuse_alpha` /
    `fuse_beta` carry its parameters (leaky_relu alpha, relu6 threshold, ...).

    Example:

    ```mlir
    %y = pd.fused_conv2d %x, %w Bias(%b) {fuse_activation = "relu"}
        : (tensor<?x3x8x8xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<?x16x6x6xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Pd_FloatTensor:$Filter,
    Optional<Pd_FloatTensor>:$Bias,
    Optional<Pd_FloatTensor>:$ResidualData,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$strides,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<0>, Pd_I32ArraySizeIn<[2, 4]>]>, "{0, 0}">:$paddings,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["EXPLICIT", "SAME", "VALID"]>]>, "EXPLICIT">:$padding_algorithm,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$groups,
    DefaultValuedAttr<ConfinedAttr<DenseI32ArrayAttr, [Pd_I32ArrayMin<1>, Pd_I32ArraySizeIn<[2]>]>, "{1, 1}">:$dilations,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_StrIn<["NCHW", "NHWC", "AnyLayout"]>]>, "NCHW">:$data_format,
    DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Pd_FusedActivation]>, "">:$fuse_activation,
    DefaultValuedAttr<F32Attr, "0.0">:$fuse_alpha,
    DefaultValuedAttr<F32Attr, "0.0">:$fuse_beta,
    DefaultValuedAttr<BoolAttr, "false">:$fuse_residual_connection
  );
  let results = (outs Pd_FloatTensor:$Output);
  let assemblyFormat = [{
    $Input `,` $Filter (`Bias` `(` $Bias^ `)`)? (`ResidualData` `(` $ResidualData^ `)`)?
    attr-dict `:` functional-type(operands, results)
  }];
}

def Pd_MultiheadMatmulOp : Pd_Op<"multihead_matmul"> {
  let summary = "fused multi-head self-attention (QKV projection, scaled dot product, softmax)";
  let description = [{
    Paddle's fused attention operator. `Input` is [B, S, H]; `W` holds the
    three projections as [H, 3, H] and `Bias` as [3, H]; the optional `BiasQK`
    ([B, head_number, S, S] or broadcastable) is added to the scaled scores
    `alpha * Q K^T` before the softmax. The result is [B, S, H] with heads
    concatenated again.

    Example:

    ```mlir
    %y = pd.multihead_matmul %x, %w, %b BiasQK(%mask) {alpha = 0.125 : f32, head_number = 12 : i32}
        : (tensor<?x128x768xf32>, tensor<768x3x768xf32>, tensor<3x768xf32>, tensor<?x12x128x128xf32>)
        -> tensor<?x128x768xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$Input,
    Pd_FloatTensor:$W,
    Pd_FloatTensor:$Bias,
    Optional<Pd_FloatTensor>:$BiasQK,
    DefaultValuedAttr<F32Attr, "1.0">:$alpha,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<1>]>, "1">:$head_number,
    DefaultValuedAttr<BoolAttr, "true">:$transpose_Q,
    DefaultValuedAttr<BoolAttr, "true">:$transpose_K,
    DefaultValuedAttr<BoolAttr, "true">:$transpose_V
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = [{
    $Input `,` $W `,` $Bias (`BiasQK` `(` $BiasQK^ `)`)? attr-dict `:` functional-type(operands, results)
  }];
}

def Pd_SkipLayernormOp : Pd_Op<"skip_layernorm"> {
  let summary = "layer_norm(X + Y) over the last dim (residual add fused with layer norm)";
  let description = [{
    Adds the residual `Y` to `X` (same shape) and normalizes the sum over the
    dims from `begin_norm_axis` on (-1: the last dim) with `Scale` and `Bias`.

    Example:

    ```mlir
    %y = pd.skip_layernorm %x, %r, %g, %b
        : (tensor<?x128x768xf32>, tensor<?x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x128x768xf32>
    ```
  }];
  let arguments = (ins
    Pd_FloatTensor:$X,
    Pd_FloatTensor:$Y,
    Pd_FloatTensor:$Scale,
    Pd_FloatTensor:$Bias,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Range<"0.0", "0.001">]>, "1e-05">:$epsilon,
    DefaultValuedAttr<ConfinedAttr<Pd_I32Attr, [IntMinValue<-1>]>, "-1">:$begin_norm_axis
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = [{
    $X `,` $Y `,` $Scale `,` $Bias attr-dict `:` functional-type(operands, results)
  }];
}

def Pd_FusedEmbeddingEltwiseLayernormOp
    : Pd_Op<"fused_embedding_eltwise_layernorm", [AttrSizedOperandSegments]> {
  let summary = "sum of several embedding lookups followed by layer_norm (BERT embeddings)";
  let description = [{
    Looks up `Ids[i]` (all [B, S] integer tensors) in `Embs[i]` (all [V_i, H]),
    sums the results and applies layer normalization over H with `Scale` and
    `Bias`. The result is [B, S, H].

    Example:

    ```mlir
    %y = pd.fused_embedding_eltwise_layernorm [%word, %pos] [%we, %pe], %b, %g
        : (tensor<?x128xi64>, tensor<?x128xi64>, tensor<30522x768xf32>, tensor<512x768xf32>,
           tensor<768xf32>, tensor<768xf32>) -> tensor<?x128x768xf32>
    ```
  }];
  let arguments = (ins
    Variadic<Pd_IndexTensor>:$Ids,
    Variadic<Pd_FloatTensor>:$Embs,
    Pd_FloatTensor:$Bias,
    Pd_FloatTensor:$Scale,
    DefaultValuedAttr<ConfinedAttr<F32Attr, [Pd_F32Range<"0.0", "0.001">]>, "1e-05">:$epsilon
  );
  let results = (outs Pd_FloatTensor:$Out);
  let assemblyFormat = [{
    ` ` `[` $Ids `]` `[` $Embs `]` `,` $Bias `,` $Scale attr-dict `:` functional-type(operands, results)
  }];
}

def Pd_KernelCallOp : Op<Pd_Dialect, "kernel_call", [
    DeclareOpInterfaceMethods<BufferizableOpInterface,
        ["bufferizesToMemoryRead", "bufferizesToMemoryWrite", "getAliasingValues", "bufferize"]>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "call of a runtime kernel (oneDNN conv/matmul), compiler-only";
  let description = [{
    Produced by `pd-to-kernel-calls` for the heavy ops the runtime's kernel
    library computes. `$inputs` are read, `$init` is the destination (it is
    written, never read), and on tensors the result is the destination's
    new value, so bufferization gives the kernel its output buffer.

    The callee is a C function `void callee(const int64_t *ptrs,
    const int64_t *ints, const float *floats)`: `ptrs` holds one data
    pointer per slot (null where `slots` has -1, otherwise the input of that
    index) and then the destination; `ints` holds `$ints` followed by the
    dims of every present input and of the destination; `floats` holds
    `$floats`. `pd-lower-kernel-calls` builds those arrays on the stack.

    Example:

    ```mlir
    %y = pd.kernel_call "pdk_conv2d"(%x, %w) init(%e) {slots = array<i64: 0, 1, -1, -1>,
        ints = array<i64: 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1>, floats = array<f32: 0.0, 0.0>}
        : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    ```
  }];
  let arguments = (ins
    StrAttr:$callee,
    Variadic<AnyShaped>:$inputs,
    AnyShaped:$init,
    DenseI64ArrayAttr:$slots,
    DenseI64ArrayAttr:$ints,
    DenseF32ArrayAttr:$floats
  );
  let results = (outs Optional<AnyRankedTensor>:$result);
  let assemblyFormat = [{
    $callee `(` $inputs `)` `init` `(` $init `)` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // PADDLEMLIR_DIALECT_PD_IR_PDFUSEDOPS_TD

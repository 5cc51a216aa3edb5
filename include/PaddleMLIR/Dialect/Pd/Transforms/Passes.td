//===- Passes.td - pd -> pd passes -------------------------------*- tablegen -*-===//

#ifndef PADDLEMLIR_DIALECT_PD_TRANSFORMS_PASSES_TD
#define PADDLEMLIR_DIALECT_PD_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PdInferShapesPass : Pass<"pd-infer-shapes", "::mlir::ModuleOp"> {
  let summary = "Refine pd result types from operand types and attributes";
  let description = [{
    Walks every function in program order and replaces each pd result type by
    the most precise of its declared and inferred types (a `?` becomes a
    static size where the operands determine it), then updates the function
    result types to what the function returns. Types that contradict the
    inferred ones are left for the verifier to report.

    Example: with `%x : tensor<1x3x224x224xf32>`, a `pd.relu %x` declared as
    `tensor<?x3x224x224xf32>` becomes `tensor<1x3x224x224xf32>`.
  }];
  let dependentDialects = ["::mlir::pd::PdDialect", "::mlir::func::FuncDialect"];
}

def PdPartitionDevicesPass : Pass<"pd-partition-devices", "::mlir::ModuleOp"> {
  let summary = "Partition @main over the ranks of a multi-device job";
  let description = [{
    `mode=data` (data-parallel inference): every input of @main is split
    along dim 0, its batch, among `devices` ranks (`pd.shard_batch`), the
    program runs on each rank's part, and each output is gathered back
    along dim 0 (`pd.c_allgather`), so every rank ends with the whole
    result and the artifact's interface is unchanged. The batch must be
    dim 0 of every input and output (static batches must divide by
    `devices`; dynamic ones are checked at run time), result types are
    inferred again for the part, and LoD inputs and programs with control
    flow are refused. With `gather-outputs=false` the outputs stay each
    rank's own (data-parallel training partitions the forward program and
    its loss this way, before backward; pd-append-optimizer then averages
    the gradients and the loss over the ranks).

    `mode=pipeline` (pipeline inference): the ops of @main, in program
    order, are cut into `devices` contiguous stages whose estimated costs
    (CostModel.h: FLOPs plus 8 per byte moved) are as even as possible.
    Stage k runs on rank k inside a `pd.conditional_block` on
    `pd.is_stage`; the values a later stage reads pass from each stage to
    the next by `pd.send_v2` / `pd.recv_v2` (forwarded along the chain),
    and each output goes from the stage that computes it to rank 0. With
    `micro-batches` M > 1 (GPipe) the inputs are sliced into M parts along
    dim 0 and each stage runs its part of the program M times in a row,
    sending each part on as soon as it is done, so stage k works on part
    m while stage k + 1 works on part m - 1; the outputs are concatenated
    back. `micro-batches=0` picks the largest divisor of a static batch
    that is at most `devices` (1 for a dynamic batch). Values that cross
    a cut need static shapes. Rank 0 returns the outputs, the other ranks
    zeros.

    Pipeline training runs this pass three times around the train step's
    construction (`train-phase`):
    - `forward`, on the forward program and its loss: cuts its ops into
      stages as above (each op also counting 64 per byte of the trainable
      parameters it reads, for their gradients and updates), tags each
      with `pd.stage`, and gives the inputs the
      micro-batch's size (batch / micro-batches), shapes inferred again;
      pd-append-backward then tags each op of a gradient with the stage of
      the op it differentiates;
    - `micro`, after pd-append-backward: restores the whole batch and runs
      the forward and backward ops once per micro-batch on its slice of
      the inputs (tagged `pd.micro`); the gradients and the loss are the
      means over the micro-batches (gradient accumulation);
    - `stages`, after pd-append-optimizer: every op gets a stage (untagged
      ones, such as the optimizer's, that of their largest operand, else
      the earliest of their users'), and each stage runs on its rank inside a
      `pd.conditional_block` in the 1F1B order: N - 1 - k forwards of
      micro-batches first, then one backward and one forward alternately,
      then the remaining backwards, then its updates. The order of all
      stages' work and transfers is one global order found by simulating
      the schedule, which makes the blocking `send_v2` / `recv_v2` pairs
      free of deadlock. A parameter (or optimizer state) belongs to the
      stage that stores it: that stage's block returns its new value,
      which other ranks replace by their unchanged copy, and other stages
      that read it receive it from that stage.

    With `stage-memory-mb` the pipeline cut is the one of least largest
    stage cost among those whose stages each hold at most that many MiB of
    weights (a weight counts in the stage of the first op that reads it;
    in training each trainable parameter counts `param-copies` times, for
    its optimizer state); when no cut fits, the error says the smallest
    limit that does.

    Both modes record `pd.partition` on the module for the manifest (for
    pipeline: each stage's ops, cost, weights and the bytes it sends).

    Example (`devices=2`): `%y = pd.relu %x : (tensor<8x4xf32>) -> ...`
    becomes a shard of `%x` to `tensor<4x4xf32>`, the relu on it, and a
    `pd.c_allgather {nranks = 2}` back to `tensor<8x4xf32>`.
  }];
  let options = [
    Option<"mode", "mode", "std::string", "\"data\"", "data or pipeline">,
    Option<"devices", "devices", "int64_t", "2", "ranks of the job (>= 2)">,
    Option<"gatherOutputs", "gather-outputs", "bool", "true",
           "data: gather the outputs (false: each rank returns its own, as data-parallel "
           "training does with the loss before backward)">,
    Option<"microBatches", "micro-batches", "int64_t", "0",
           "pipeline: parts of the batch in flight (0: the largest divisor of the batch "
           "that is at most devices)">,
    Option<"trainPhase", "train-phase", "std::string", "\"\"",
           "pipeline training: forward, micro or stages (empty: inference)">,
    Option<"stageMemoryMb", "stage-memory-mb", "double", "0",
           "pipeline: the most MiB of weights (in training with their optimizer state) a "
           "stage may hold; the cut is the fastest within it (0: no limit)">,
    Option<"paramCopies", "param-copies", "int64_t", "1",
           "pipeline training, with stage-memory-mb: the tensors a stage keeps per trainable "
           "parameter (1 + the optimizer's moments: sgd 1, momentum 2, adam 3)">
  ];
  let dependentDialects = ["::mlir::pd::PdDialect", "::mlir::func::FuncDialect"];
}

def PdCostReportPass : Pass<"pd-cost-report", "::mlir::ModuleOp"> {
  let summary = "Annotate each pd op with its FLOPs and bytes (the cost model)";
  let description = [{
    Sets `pd.cost = {flops, bytes}` on every pd op and the totals on the
    module, from `estimateCost` (CostModel.h): 2 operations per
    multiply-add of a convolution or matrix product, one per output element
    of an elementwise op, 5 per input element of a normalization or
    softmax, none for data movement; bytes of all operands and results;
    dynamic dims count as 1. paddle-compile writes the same numbers into
    the manifest's `cost`.
  }];
}

def PdFuseConvPass : Pass<"pd-fuse-conv", "::mlir::ModuleOp"> {
  let summary = "Fold batch_norm into convolutions and fuse bias, residual and activation";
  let description = [{
    Paddle's conv_bn_fuse / conv_elementwise_add_act fuse passes as one pass:
    - conv2d / depthwise_conv2d followed by an inference batch_norm whose
      filter and statistics are constant globals becomes `pd.fused_conv2d`
      with the filter scaled per output channel and a folded bias (new
      globals; globals left unused are erased);
    - an elementwise_add of a constant per-channel vector (axis 1) becomes
      the fused conv's bias;
    - an elementwise_add of a same-shaped tensor becomes `ResidualData`;
    - a following relu, relu6, leaky_relu, sigmoid, hard_swish or swish
      (with Paddle's default parameters) becomes `fuse_activation`.
    Each rewrite needs the intermediate value to have a single use.
  }];
  let dependentDialects = ["::mlir::pd::PdDialect", "::mlir::ml_program::MLProgramDialect"];
}

def PdFuseFcPass : Pass<"pd-fuse-fc", "::mlir::func::FuncOp"> {
  let summary = "Fuse mul/matmul_v2 + bias add (+ activation) into pd.fc";
  let description = [{
    Paddle's fc_fuse_pass: `mul(X, W)` or `matmul_v2(X, W)` with a 2-D
    constant weight and no transposes, followed by an elementwise_add of a
    constant [N] bias on the last dim, becomes `pd.fc` (in_num_col_dims =
    x_num_col_dims, or rank(X) - 1 for matmul_v2; the bias may also be the
    add's first operand, as ONNX exports it); a following relu or gelu
    becomes its activation_type. The exact-GELU subgraph exporters write,
    `x * (erf(x / sqrt(2)) + 1) * 0.5`, is first rewritten to `pd.gelu`.
    Intermediate values must have one use.
  }];
  let dependentDialects = ["::mlir::pd::PdDialect"];
}

def PdFuseSkipLayernormPass : Pass<"pd-fuse-skip-layernorm", "::mlir::func::FuncOp"> {
  let summary = "Fuse a residual add followed by layer_norm into pd.skip_layernorm";
  let description = [{
    Paddle's skip_layernorm_fuse_pass: `layer_norm(elementwise_add(X, Y))`
    over the last dim, with X and Y of the same shape and Scale and Bias
    given, becomes `pd.skip_layernorm` (the add must have one use).
  }];
  let dependentDialects = ["::mlir::pd::PdDialect"];
}

def PdFuseMultiheadMatmulPass : Pass<"pd-fuse-multihead-matmul", "::mlir::ModuleOp"> {
  let summary = "Fuse the BERT/ERNIE self-attention block into pd.multihead_matmul";
  let description = [{
    Paddle's multihead_matmul_fuse_pass. Matches, after pd-fuse-fc, three
    projections `fc(x, Wq|Wk|Wv, bq|bk|bv)` of the same input, each split into
    heads by `reshape2 [0, 0, n, d]` + `transpose2 [0, 2, 1, 3]`, the scores
    `Q K^T` (matmul_v2 with trans_y, or matmul with transpose_Y and alpha),
    an optional scale (of the scores, or of Q or K), an optional mask add,
    softmax over the last dim, the product with V, and the merge of the heads
    (`transpose2 [0, 2, 1, 3]` + `reshape2 [0, 0, H]`). The weights are
    concatenated into new [H, 3, H] and [3, H] globals; all scales fold into
    `alpha`. Every intermediate must have one use; globals left unread are
    erased.
  }];
  let dependentDialects = ["::mlir::pd::PdDialect", "::mlir::ml_program::MLProgramDialect"];
}

def PdFuseEmbeddingLayernormPass : Pass<"pd-fuse-embedding-layernorm", "::mlir::func::FuncOp"> {
  let summary = "Fuse summed embedding lookups + layer_norm into pd.fused_embedding_eltwise_layernorm";
  let description = [{
    Paddle's embedding_eltwise_layernorm_fuse_pass: `layer_norm` over the
    last dim of a sum (any tree of single-use elementwise_add of equal shapes)
    of two or more `lookup_table_v2` results with [B, S] ids and no
    padding_idx becomes one `pd.fused_embedding_eltwise_layernorm`. Runs
    before pd-fuse-skip-layernorm, which would otherwise take the last add.
  }];
  let dependentDialects = ["::mlir::pd::PdDialect"];
}

def PdFoldConstantsPass : Pass<"pd-fold-constants", "::mlir::ModuleOp"> {
  let summary = "Evaluate ops on parameters at compile time into new globals";
  let description = [{
    Ops whose operands are all parameters (`ml_program.global_load_const` of
    a global with data) or `arith.constant`s, with static result shapes, are
    evaluated and their results written back as new private dense_resource
    globals named `<first operand's global>.<op>`: reshape2, squeeze2,
    unsqueeze2, flatten2, flatten_contiguous_range and assign (same bytes),
    transpose2, scale, cast (float and integer types), float
    elementwise_add/sub/mul/div with Paddle broadcasting, and
    fake_channel_wise_quantize_dequantize_abs_max of a weight (both the
    quant-dequantized weight and the per-channel scales). Ops are visited in
    program order, so whole parameter subgraphs fold; globals left unread are
    erased.
  }];
  let dependentDialects = ["::mlir::pd::PdDialect", "::mlir::ml_program::MLProgramDialect"];
}

def PdUnfreezeQuantPass : Pass<"pd-unfreeze-quant", "::mlir::ModuleOp"> {
  let summary = "Rewrite Fluid's frozen int8 programs into quantize-dequantize form";
  let description = [{
    Fluid 1.x QAT programs frozen for inference (QuantizationFreezePass)
    compute a conv2d / depthwise_conv2d / mul on the integer values of
    `fake_quantize_moving_average_abs_max(x, T)` and of an integer-valued
    weight W, then rescale the result with
    `fake_channel_wise_dequantize_max_abs` (Scales = [s_w, T], 8 and 8 bits:
    out = acc * s_w[c] * T / 127^2, c the output channel) or
    `fake_dequantize_max_abs` (Scale = T, max_range R: out = acc * T / R).
    Both equal the op applied to `fake_quantize_dequantize_moving_average_abs_max(x, T)`
    and to the weight W * s_w[c] / 127 (or W * 127 / R), which this pass
    writes (a new global), so that batch-norm folding and pd-quantize see the
    quantize-dequantize form PaddleSlim's 2.x programs have. Exact in real
    arithmetic; the fp32 result changes only by float rounding.
  }];
  let dependentDialects = ["::mlir::pd::PdDialect", "::mlir::ml_program::MLProgramDialect"];
}

def PdInt8AttributesPass : Pass<"pd-int8-attributes", "::mlir::ModuleOp"> {
  let summary = "Quantizers from Paddle Inference's and Paddle-Lite's int8 attributes";
  let description = [{
    Programs saved after Paddle Inference's quant_conv2d_dequant_fuse_pass
    or by Paddle-Lite's optimizer carry their quantization as attributes
    of the convolutions and matrix products (`enable_int8`, an input scale,
    weight scales, `out_threshold`; docs/Quantization.md). The importer
    reads them into `pd.int8` (the op asks for int8),
    `pd.int8_input_threshold` and `pd.out_threshold`, and already gives
    integer weights their real values. This pass, which --precision int8
    runs before the graph fusions, puts a pd.quantize -> pd.dequantize pair
    (int8, scale T / 127, one pair per tensor and threshold) in front of
    each such op's activation input, T the op's input threshold or, when it
    has none, the `out_threshold` of the op that produces that input; an
    input a fake quantizer already quantizes keeps it. pd-quantize then
    treats the pairs as the program's own quantizers. An op that asks for
    int8 with no usable threshold gets a warning naming it and stays
    float32. Without --precision int8 the attributes change nothing: Paddle
    runs such ops in float32 on the CPU too.
  }];
  let dependentDialects = ["::mlir::pd::PdDialect"];
}

def PdQuantizePass : Pass<"pd-quantize", "::mlir::ModuleOp"> {
  let summary = "Rewrite fake-quantized convolutions and matrix products to int8 ops";
  let description = [{
    The int8 rewrite of --precision int8 (docs/Quantization.md). A
    conv2d, depthwise_conv2d, fused_conv2d, fc, mul or matmul_v2 whose
    weight is a model constant and whose activation input is the output of
    a per-tensor 8-bit fake quantizer with a constant scale T
    (fake_quantize_dequantize_moving_average_abs_max, or a
    quantize_linear / dequantize_linear pair) becomes
    pd.quantized_conv2d / pd.quantized_fc: the activation is quantized to
    int8 with scale T / 127 (pd.quantize), the weight to int8 per output
    channel with scale max|w[c]| / 127 (a new global; for weights that a
    channel-wise fake quantizer snapped to its grid, and that batch-norm
    folding scaled per channel, this is that grid), and the result stays
    float32. Then, in this order: the program's per-tensor fake
    quantizers that float ops still read become pd.quantize ->
    pd.dequantize pairs; a quantized conv's float residual that a
    calibrated quantizer (one pd-insert-quantizers made) also quantizes
    before the conv is read as that int8 tensor (`residual_scale`); a max
    pooling, concat or reshape read only by equal quantizers works on the
    quantized tensors (exact); and a quantized op whose float result is only quantized
    again, by pd.quantize ops with one scale, writes int8 itself with that
    output scale. So chains of quantized ops, ResNet's blocks included,
    stay int8.

    Compute ops left in float32 get a `pd.fp32_reason` attribute saying
    why (no quantized input, weight not constant, excluded, ...), which the
    artifact's manifest reports. `exclude` names op types (`conv2d`) or
    the Paddle output variable of an op (the name in its location) that
    stay float32; globs (`conv2d_1*`) are allowed. A candidate op with a
    `pd.quant_fallback` attribute (set by calibration's accuracy check)
    stays float32 with that reason, and the calibrated quantizers
    (`pd.calibrated`) an op left in float32 still reads are bypassed.
  }];
  let options = [
    ListOption<"exclude", "exclude", "std::string",
               "op types or output variable names that stay float32">
  ];
  let dependentDialects = ["::mlir::pd::PdDialect", "::mlir::ml_program::MLProgramDialect"];
}

def PdObserveActivationsPass : Pass<"pd-observe-activations", "::mlir::ModuleOp"> {
  let summary = "Make the activations of int8 candidate layers outputs of @main";
  let description = [{
    The first step of calibration (docs/Quantization.md): numbers the
    convolutions and matrix products of @main that pd-quantize may run in
    int8 (attribute `pd.layer`) and appends the float activation each one
    reads (both, for a product of two activations) to @main's results,
    named (pd.name) after the Paddle variable (see activationNames), once
    per tensor. The artifact compiled from the
    result gives the calibration run every tensor to observe.
  }];
  let dependentDialects = ["::mlir::pd::PdDialect"];
}

def PdInsertQuantizersPass : Pass<"pd-insert-quantizers", "::mlir::ModuleOp"> {
  let summary = "Insert calibrated per-tensor quantizers in front of int8 candidate layers";
  let description = [{
    The rewrite calibration ends with: in front of every candidate layer
    (see pd-observe-activations) whose activation tensor has a range in the
    `ranges` file, a pd.quantize -> pd.dequantize pair with zero point 0:
    dtype uint8 and scale T / 255 for a tensor marked unsigned, else int8
    and T / 127; a product of two activations gets one in front of its
    right-hand side too, always int8 (the int8 product's Y is signed). pd-quantize then rewrites those layers to int8 kernels.
    The file is JSON: {"tensors": {"<name>": {"threshold": T,
    "unsigned": false}, ...}}. `fp32-layers` lists layer numbers that stay
    float32 (they get `pd.quant_fallback`, which pd-quantize reports).
  }];
  let options = [
    Option<"ranges", "ranges", "std::string", "", "JSON file of tensor thresholds">,
    ListOption<"fp32Layers", "fp32-layers", "int64_t", "layer numbers that stay float32">
  ];
  let dependentDialects = ["::mlir::pd::PdDialect"];
}

def PdAutoMixedPrecisionPass : Pass<"pd-auto-mixed-precision", "::mlir::ModuleOp"> {
  let summary = "Run convolutions and matrix products in bf16 or fp16 (Paddle's AMP lists)";
  let description = [{
    Mixed precision for inference (docs/MixedPrecision.md). Each pd op with
    float tensors is classified, in program order, by Paddle's AMP lists:
    white ops (conv2d, depthwise_conv2d, fused_conv2d, matmul, matmul_v2,
    mul, fc, multihead_matmul) compute in `dtype`; black ops (exp, log,
    mean, sum, reductions, softmax, log_softmax, layer_norm and the fused
    layer norms, batch_norm, cumsum, losses, pow, square) stay float32;
    gray ops (elementwise arithmetic, activations, pooling, scale, dropout,
    reshapes, transposes, concat, split, slice, ...) run in `dtype` only
    when every float input that is not a model constant already is in
    `dtype`; ops in no list stay float32. `allow` / `deny` override the lists by op
    type or by the Paddle variable an op writes (the name in its location;
    a fused op carries the names of the ops it replaced), `deny` winning
    over `allow`.

    `pd.cast` is inserted only where a value crosses between precisions
    (once per value and direction), and cast chains that are exact are
    folded: a bf16 -> f32 -> bf16 round trip, and casts to the same type.
    Model constants a low-precision op reads become new constants of
    `dtype` (converted once, round to nearest even), except the bias of fc
    and fused_conv2d and the masks and biases of multihead_matmul, which
    stay float32 like the kernels' accumulators. With `keep-io-types` (the
    default) the function's arguments and results keep their types; without
    it, float32 arguments and results become `dtype`. Every op classified
    gets `pd.precision_reason` ("white list", "black list", "gray: follows
    inputs", "gray: float32 input", "not in any list", "user allow", "user
    deny").
  }];
  let options = [
    Option<"dtype", "dtype", "std::string", "\"bf16\"", "low-precision type: bf16 or fp16">,
    ListOption<"allow", "allow", "std::string",
               "op types or output variable names that run in the low-precision type">,
    ListOption<"deny", "deny", "std::string",
               "op types or output variable names that stay float32">,
    Option<"keepIoTypes", "keep-io-types", "bool", "true",
           "keep the function's argument and result types">
  ];
  let dependentDialects = ["::mlir::pd::PdDialect", "::mlir::ml_program::MLProgramDialect"];
}

def PdFoldCastsIntoKernelsPass : Pass<"pd-fold-casts-into-kernels", "::mlir::func::FuncOp"> {
  let summary = "Let low-precision convolutions and matrix products read and write f32";
  let description = [{
    After pd-auto-mixed-precision, for the CPU's oneDNN bf16 kernels
    (docs/MixedPrecision.md): a conv2d / depthwise_conv2d / fused_conv2d /
    fc / matmul_v2 computing in bf16 (a bf16 filter or weight) reads the
    f32 value in front of a `pd.cast` to bf16 of its activation input (and
    residual) directly, and writes f32 itself when every reader of its
    result widens it to f32. The kernels convert in the reorders they run
    anyway (rounding to nearest even, as the cast would), so one pass over
    the tensor disappears per boundary, and a result read in f32 (logits
    before a softmax) is not rounded to bf16 at all. A matmul_v2 keeps at
    least one bf16 operand, so it still computes in bf16.
  }];
  let dependentDialects = ["::mlir::pd::PdDialect"];
}

//===----------------------------------------------------------------------===//
// Training (docs/Training.md)
//===----------------------------------------------------------------------===//

def PdAppendLossPass : Pass<"pd-append-loss", "::mlir::ModuleOp"> {
  let summary = "Append a loss op to @main's output and return the mean loss";
  let description = [{
    For a model whose output is a prediction: appends `op` (only
    softmax_with_cross_entropy today) to the result named `output` (the
    first result when empty), with a new int64 argument `label` shaped as
    the result with its last dim 1, averages the per-sample losses with
    `pd.mean`, and makes that mean @main's only result, named `loss`. The
    model's other results are dropped (a train step returns its loss).
  }];
  let options = [
    Option<"lossOp", "op", "std::string", "\"softmax_with_cross_entropy\"",
           "the loss op appended to the prediction">,
    Option<"output", "output", "std::string", "\"\"",
           "the result the loss reads (default: the first)">,
    Option<"label", "label", "std::string", "\"label\"",
           "the name of the new label argument">
  ];
  let dependentDialects = ["::mlir::pd::PdDialect", "::mlir::func::FuncDialect"];
}

def PdAppendBackwardPass : Pass<"pd-append-backward", "::mlir::ModuleOp"> {
  let summary = "Reverse-mode differentiation of @main's loss with respect to its parameters";
  let description = [{
    Paddle's append_backward over the pd dialect. `loss` names a result of
    @main (or the Paddle variable an op writes) holding one float element.
    The parameters are the float ml_program globals @main loads that are
    not marked `pd.stop_gradient`. Walking the ops that lie between the
    parameters and the loss in reverse, each op's PdGradient rule builds
    the gradients of its operands from those of its results; gradients of
    values with several readers are summed. An op on that path without a
    rule is an error naming it. @main then returns the loss (first) and one
    gradient per parameter it reaches, named `<parameter>@GRAD` and marked
    `pd.grad_of` with the global's name. Shapes must be static.

    With `sync-batch-norm-ranks` N > 1 (data-parallel training on N ranks
    of equal batches), batch_norm in training mode normalizes with the
    statistics of the global batch: the per-channel sums of X and then of
    its squared deviations are summed over the ranks with
    `pd.c_allreduce_sum` (whose gradient rule sums the gradients over the
    ranks the same way), so every rank's forward and backward equal one
    process's on the whole batch. Otherwise each rank uses its own batch's
    statistics (the default, as Fluid's data-parallel training).
  }];
  let options = [
    Option<"loss", "loss", "std::string", "\"loss\"",
           "the result (or Paddle variable) to differentiate">,
    Option<"syncBatchNormRanks", "sync-batch-norm-ranks", "int64_t", "1",
           "data-parallel training on this many ranks: batch_norm statistics over all of them">
  ];
  let dependentDialects = ["::mlir::pd::PdDialect", "::mlir::func::FuncDialect",
                           "::mlir::ml_program::MLProgramDialect"];
}

def PdAppendOptimizerPass : Pass<"pd-append-optimizer", "::mlir::ModuleOp"> {
  let summary = "Update each parameter from its gradient with an optimizer op";
  let description = [{
    After pd-append-backward: each result marked `pd.grad_of = "w"` becomes
    the input of an optimizer op (`pd.sgd`, `pd.momentum`, `pd.adam`,
    `pd.adamw`) whose new value is stored back into the global with
    `ml_program.global_store`. The trained globals become mutable and
    their loads `ml_program.global_load`, so no pass folds them as
    constants. Optimizer state (velocities, moments, the shared beta powers
    and the step counter `@LR_DECAY_COUNTER@`) lives in new zero-initialized
    mutable globals marked `pd.optimizer_state`, stored back the same way.
    Before the update the gradients are clipped by their global norm
    (`clip-norm`), then get `weight-decay * param` added (L2; adamw decays
    the parameter itself instead). The learning rate is a [1] tensor
    computed from the step counter by the schedule. The gradient results
    are removed unless `keep-gradients`; @main keeps returning the loss.

    With `ranks` N > 1 (data-parallel training, each rank computing the
    gradients of its part of the batch) the gradients are first averaged
    over the ranks, in buckets of at most `bucket-mb` MiB: in the order
    backward computes them, consecutive gradients are flattened and joined
    into one tensor whose sum over the ranks starts right after the
    bucket's last gradient (`pd.allreduce_start`) and is waited for just
    before the update (`pd.allreduce_wait`), so it overlaps the rest of
    backward (`overlap=false`: one blocking `pd.c_allreduce_sum`, marked
    `pd.grad_bucket`, after the last gradient); then scaled by 1/N and
    split back; the other results (the loss) are averaged too.
    The buckets (each one's gradients and bytes) and the bytes a rank
    sends per step go into the module's `pd.partition` record.

    `strategy=reduce` (Fluid's ReduceStrategy, with the optimizer state
    sharded): each bucket, zero-padded to a multiple of N, is summed with
    `pd.c_reducescatter`, so each rank receives the averaged gradients of
    its 1/N of the bucket; it updates only that slice of the flattened
    parameters (`pd.shard_batch` picks it by rank), keeping optimizer state
    for that slice alone (per bucket, 1/N of the size); `pd.c_allgather`
    then gives every rank all updated parameters. The communication volume
    equals the allreduce's, the optimizer's work and state are 1/N.
  }];
  let options = [
    Option<"optimizer", "optimizer", "std::string", "\"sgd\"",
           "the update rule: sgd, momentum, adam or adamw">,
    Option<"learningRate", "lr", "double", "0.01", "the (peak) learning rate">,
    Option<"momentum", "momentum", "double", "0.9", "momentum: the velocity's decay mu">,
    Option<"nesterov", "nesterov", "bool", "false", "momentum: Nesterov's update">,
    Option<"beta1", "beta1", "double", "0.9", "adam(w): the first moment's decay">,
    Option<"beta2", "beta2", "double", "0.999", "adam(w): the second moment's decay">,
    Option<"epsilon", "epsilon", "double", "1e-8", "adam(w): added to the denominator">,
    Option<"weightDecay", "weight-decay", "double", "-1",
           "L2 decay coefficient (adamw: decoupled decay); negative: 0.01 for adamw, 0 otherwise">,
    Option<"clipNorm", "clip-norm", "double", "0",
           "clip the gradients by their global norm to this (0: no clipping)">,
    Option<"schedule", "schedule", "std::string", "\"constant\"",
           "the learning-rate schedule: constant, step or cosine">,
    Option<"stepSize", "step-size", "int64_t", "0", "step: multiply by gamma every step-size steps">,
    Option<"gamma", "gamma", "double", "0.1", "step: the factor">,
    Option<"totalSteps", "total-steps", "int64_t", "0",
           "cosine: the steps (after warmup) from lr down to min-lr">,
    Option<"minLr", "min-lr", "double", "0", "cosine: the final learning rate">,
    Option<"warmupSteps", "warmup-steps", "int64_t", "0",
           "linear warmup from 0 over this many steps before the schedule">,
    Option<"keepGradients", "keep-gradients", "bool", "false",
           "keep returning the gradients after the loss">,
    Option<"ranks", "ranks", "int64_t", "1",
           "data-parallel training: average the gradients over this many ranks">,
    Option<"bucketMb", "bucket-mb", "double", "32",
           "with ranks > 1: the largest gradient bucket, in MiB (> 0)">,
    Option<"overlap", "overlap", "bool", "true",
           "with ranks > 1: start each bucket's allreduce after its last gradient and wait "
           "for it before the update (false: one blocking c_allreduce_sum there)">,
    Option<"strategy", "strategy", "std::string", "\"allreduce\"",
           "with ranks > 1: allreduce (every rank updates every parameter) or reduce "
           "(reduce-scatter the buckets, shard the update and its state, allgather)">
  ];
  let dependentDialects = ["::mlir::pd::PdDialect", "::mlir::func::FuncDialect",
                           "::mlir::ml_program::MLProgramDialect"];
}

#endif // PADDLEMLIR_DIALECT_PD_TRANSFORMS_PASSES_TD

//===- Passes.td - passes that change abstraction level ---------*- tablegen -*-===//

#ifndef PADDLEMLIR_CODEGEN_PASSES_TD
#define PADDLEMLIR_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def PdExternalizeWeightsPass : Pass<"pd-externalize-weights", "::mlir::ModuleOp"> {
  let summary = "Turn parameter globals into trailing arguments of @main";
  let description = [{
    Every `ml_program.global_load_const` of `@main` becomes a function
    argument (after the model inputs) carrying `pd.weight = "<name>"`, and
    the globals are erased. The runtime passes the weights from the
    artifact's weights blob, so they are never copied into the code. A
    result that is an argument is copied into a new tensor
    (`bufferization.alloc_tensor ... copy`), since results are owned by the
    caller.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::bufferization::BufferizationDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertPdToLinalgPass : Pass<"convert-pd-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower pd ops to linalg, tensor, arith and math on tensors";
  let description = [{
    Elementwise ops become `linalg.generic` with Paddle's broadcasting
    expressed in the indexing maps; conv2d/depthwise_conv2d, pooling and
    matrix products become linalg named ops (with `tensor.pad` for
    padding); reshape-like ops become `tensor.reshape`. Ops or attribute
    values the CPU backend does not handle yet are reported on the op.
  }];
  let options = [
    Option<"kernels", "kernels", "std::string", "\"none\"",
           "Library kernels for heavy ops: 'none' (everything to linalg) or 'onednn' "
           "(fp32 NCHW conv2d/depthwise/fused_conv2d, fc and matmul_v2 become "
           "pd.kernel_call of the runtime's oneDNN kernels)">,
    Option<"parallelGradients", "parallel-gradients", "bool", "false",
           "Gradients that a serial scatter computes best on a few cores "
           "(pool2d_grad, lookup_table_v2_grad) as parallel gathers instead: one element of the "
           "result per iteration (the GPU pipeline's choice, where a serial "
           "loop is one thread)">,
  ];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::bufferization::BufferizationDialect"
  ];
}

def PdFuseElementwisePass : Pass<"pd-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuse chains of elementwise linalg ops without recomputation";
  let description = [{
    Upstream elementwise fusion also fuses an elementwise producer into a
    reduction consumer (a matmul reading `gelu(x)`), which recomputes the
    producer once per reduction step. This pass fuses a producer only into
    consumers whose loops are all parallel, and only when the consumer is
    the producer's only user, so every value is computed once.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def PdSplitInitTensorsPass : Pass<"pd-split-init-tensors", "::mlir::func::FuncOp"> {
  let summary = "Give every destination tensor one use so each op gets its own buffer";
  let description = [{
    CSE merges identical `tensor.empty` and `linalg.fill` destinations, so
    several ops end up sharing one init tensor. Bufferization then either
    copies the shared fill before every use or writes several results into
    one buffer, which keeps it alive across all of them. This pass clones
    such destinations (with the `tensor.empty` a fill writes into) next to
    each use, so buffers get their true lifetimes and `pd-plan-memory`
    decides the reuse.

    It also picks the destination of a value materialized into a function
    argument (a train step's parameter update, `pd-externalize-weights`):
    the `tensor.empty` its linalg producer writes into becomes the
    argument, so bufferization computes the update in place.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"];
}

def PdPlanMemoryPass : Pass<"pd-plan-memory", "::mlir::ModuleOp"> {
  let summary = "Place the intermediate buffers of @main in one arena";
  let description = [{
    Runs after bufferization. Every `memref.alloc` in the body of `@main`
    becomes a `memref.view` into one arena, passed as a new trailing
    argument `pd.arena` of type `memref<?xi8>`. Results too: they live
    until `@main` returns, and the runtime copies them out before the next
    run (pd-forward-arena-results removes the copy the deallocation
    pipeline adds), so steady-state runs allocate nothing.

    * liveness is the span, in the final schedule, from a buffer's first to
      its last use (through views of it such as reshapes);
    * an elementwise `linalg.generic` (all loops parallel, identity maps)
      writes in place into an input buffer whose last use it is, when both
      have the same size;
    * buffers (and in-place chains) are placed largest first; with static
      shapes each goes into the best-fitting gap left by buffers whose
      lifetimes overlap it; with dynamic dims each goes on top of the
      overlapping ones, so offsets are exact expressions of the input dims;
      offsets and sizes are 64-byte aligned;
    * a function `@main_arena_bytes` with the arguments of `@main` (without
      the arena) returns the arena size, so the runtime can allocate it
      once per instance; `pd.memory_plan` on the module records the plan.

    Buffers whose size depends on data (not on input dims) stay heap
    allocations and are counted as unplanned.
  }];
  let options = [
    Option<"place", "place", "bool", "true",
           "Place the buffers in the arena; false keeps them on the heap (the arena "
           "argument and @main_arena_bytes are still added, with size 0)">,
    Option<"report", "report", "bool", "false",
           "Print the plan (peak bytes, buffers, reuse) to stderr">,
    Option<"dimHint", "dynamic-dim-hint", "int64_t", "16",
           "Value assumed for dynamic input dims when ordering buffers and in the report">,
  ];
  let dependentDialects = [
    "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect"
  ];
}

def PdForwardArenaResultsPass : Pass<"pd-forward-arena-results", "::mlir::ModuleOp"> {
  let summary = "Return @main's results from the arena without the deallocation pipeline's copy";
  let description = [{
    Runs after buffer-deallocation-pipeline. The ownership-based
    deallocation makes every result of a public function owned, so a result
    pd-plan-memory placed in the arena is returned through a
    `bufferization.clone` (a heap allocation and a copy per run). The
    runtime never frees a result that points into the arena and copies every
    result out before the next run, so this pass returns the arena view
    itself and drops the clone. The same holds for a train step's update
    written in place into its parameter argument (a result marked
    `pd.update` that is the `pd.param` argument of the same name): the
    runtime owns the parameter and reads the update from it.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def PdTrainLayoutsPass : Pass<"pd-train-layouts", "::mlir::func::FuncOp"> {
  let summary = "Keep a train step's activations channel-blocked (nChw16c) between and through loops";
  let description = [{
    In a function with convolution gradient calls (a train step), every
    static 4-D tensor [N, C, H, W] with C a multiple of 16 that a
    convolution kernel reads or writes, or that an elementwise or
    per-channel loop computes from such tensors, becomes a 5-D tensor
    [N, C/16, H, W, 16]: oneDNN's nChw16c layout, which `pdk_conv2d` and
    `pdk_conv2d_backward_data` / `_weights` then read and write without a
    reorder (their layout fields say 16). A `linalg.generic` is rebuilt
    over five loops (the channel loop split into block and lane) when its
    4-D operands all have identity maps and such shapes, its other
    operands index the channel last or not at all (a per-channel [C]
    statistic is viewed as [C/16, 16]), and it reads a blocked 4-D input
    or writes a 4-D result from smaller operands only (a broadcast). Where
    a blocked value meets a plain reader (a pooling loop, the stem's
    3-channel image) it is converted once per value (fp32 by a
    `pdk_reorder` call, other types by a transpose loop); conversions
    nothing reads are erased. The function records `pd.train_layout`
    ({layout, ops}: the ops rewritten), which the manifest reports as
    `kernels.train_layout`.
    Functions without convolution gradients are unchanged.
  }];
}

def PdKernelLayoutsPass : Pass<"pd-kernel-layouts", "::mlir::func::FuncOp"> {
  let summary = "Keep activations in oneDNN's preferred layout between convolution kernels";
  let description = [{
    A tensor produced by a `pdk_conv2d` call and read only by other
    `pdk_conv2d` calls (as input or residual; `tensor.dim` reads of its
    shape are fine), or by `pdk_pool2d` calls whose results only such
    calls read (the pooling then takes the layout on both sides), never
    needs the plain NCHW layout: the producer writes
    it in the layout oneDNN 2.6's convolutions pick for themselves and the
    consumers read it so, which removes two reorders per convolution: NHWC
    on AVX-512 (the brgemm convolutions), nChw8c elsewhere. Marks the
    source/residual/destination layout fields of the calls' parameters
    (ints 11-13: 0 = plain NCHW, 8/16 = nChw8c/nChw16c, -1 = NHWC). A
    blocked layout needs a channel count that is a multiple of the block,
    so the buffer size is unchanged.

    Independently of that choice, int8 convolutions (`pdk_qconv2d`, ints
    12-14) get NHWC: a result read only by int8 convolutions (as input or
    residual), through pooling calls and through elementwise maps (a
    quantizer, a QAT residual add: identity indexing maps over operands of
    one shape, parallel loops) whose inputs all are, is written and read
    channels last.

    With `block=0` and `measure` naming the kernel library, the choice
    between NHWC and nChw8c (on AVX-512 hosts oneDNN's brgemm and AVX2
    kernels, on AVX2 hosts its NHWC and blocked AVX2 kernels) is made by
    timing every convolution of the function both ways (pdk_time_conv2d,
    static shapes only; dynamic shapes keep the host's default: NHWC with
    AVX-512, else nChw8c); the per-layout totals and the choice are
    recorded on the function as `pd.conv_layout`.

    With nChw8c or NHWC chosen, a 3x3 convolution with constant weights,
    stride 1, padding 1, no dilation, one group, channels a multiple of 8
    and a clamp-like activation (none, relu, relu6, leaky relu) may instead
    call `pdk_conv2d_winograd` or `pdk_conv2d_winograd4` (same operands;
    Winograd F(2x2, 3x3) / F(4x4, 3x3)): with `winograd=auto` and
    `measure`, each such convolution is timed all three ways and switched
    where a Winograd kernel is faster (with `block=0` these times are part
    of the layout timing: each layout counts such a convolution at its
    fastest kernel); `always` / `always4` switch every one to F(2x2) /
    F(4x4) (with block 16 it is an error); `never` none. `pd.conv_layout`
    records `winograd` (switched), `winograd4` (of those, to F(4x4)),
    `winograd_eligible`, and with timing `winograd_direct_ms` /
    `winograd_ms` (totals over the eligible convolutions).
  }];
  let options = [
    Option<"block", "block", "int64_t", "0",
           "Layout: 8 or 16 (nChw8c/nChw16c), -1 (NHWC); 0 picks the faster of NHWC and "
           "nChw8c with `measure` and static shapes, else NHWC with AVX-512, else 8">,
    Option<"measure", "measure", "std::string", "",
           "Kernel library (libpdrt_kernels.so) to time convolutions with (block=0, "
           "winograd=auto)">,
    Option<"winograd", "winograd", "std::string", "\"auto\"",
           "Winograd convolutions (pdk_conv2d_winograd[4]) for eligible 3x3 convolutions: "
           "auto (where timed faster; needs `measure` and static shapes), never, always "
           "(F(2x2, 3x3)), always4 (F(4x4, 3x3))">,
  ];
}

def PdOutlineOpsPass : Pass<"pd-outline-ops", "::mlir::ModuleOp"> {
  let summary = "Move each bufferized linalg op into its own small function";
  let description = [{
    Every linalg op on buffers becomes a call of a new private function
    `__pd_op_<N>` holding just that op (captured constants are cloned in);
    a `memref.copy` with a strided side becomes a `linalg.copy` first (else
    it would run through the element-by-element `memrefCopy`).
    LLVM optimizes and compiles many small loop nests far better and faster
    than one giant `@main`; the artifact keeps these functions noinline.
    An output argument gets `llvm.noalias` when it provably overlaps no other
    buffer argument: a different allocation or argument, a view (or subview)
    of another slot of the memory plan (`pd.arena_slot`: both are live at
    the op, so they are disjoint whatever their offsets), or a disjoint
    constant byte range of the same arena. The float arith ops of an op
    with a reduction loop get `fastmath<reassoc,contract>`, so LLVM may
    vectorize the reduction (partial sums) instead of keeping it scalar.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect"];
}

def PdParallelizeOpsPass : Pass<"pd-parallelize-ops", "::mlir::ModuleOp"> {
  let summary = "Split each outlined linalg op over the threads of the runtime's pool";
  let description = [{
    Runs after pd-outline-ops. A function `__pd_op_<N>` holding one linalg
    op on buffers with a parallel loop becomes a call of
    `pdk_parallel_for(@__pd_op_<N>_task, record, n, work)`: its arguments go
    into a stack record (buffers as their LLVM descriptors, index values as
    i64), `n` is the trip count of the split loop and `work` the op's
    iteration count. `@__pd_op_<N>_task(record, lo, hi)` unpacks the record
    and calls `@__pd_op_<N>_range(args..., lo, hi)`, the op tiled to
    iterations [lo, hi) of that loop. The loop split is the first parallel
    loop with a static trip count of at least 4, else the first dynamic one
    (usually the batch), else the largest with 2 or more. The runtime runs the task on the OpenMP threads oneDNN uses
    too, or once on the calling thread when `work` is small.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", "4096",
           "Ops with a static iteration count below this stay serial (no runtime call)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
}

def PdReductionLoopsPass : Pass<"pd-reduction-loops", "::mlir::ModuleOp"> {
  let summary = "Lower reductions to loops that accumulate in registers";
  let description = [{
    Runs just before convert-linalg-to-loops. A linalg.generic on buffers
    whose innermost loops are reductions that no output indexes becomes
    scf.for loops over its other dimensions that load each output element
    once, an scf.for nest over the trailing reductions carrying the partial
    results as iteration arguments, and a store of the final values. The
    inner loop then holds no store, so LLVM vectorizes the reduction
    (convert-linalg-to-loops stores the output element at every iteration,
    which LLVM can vectorize only when it proves no input aliases it).
    Other ops are left to convert-linalg-to-loops.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect"];
}

def PdCheckCudaTargetPass : Pass<"pd-check-cuda-target", "::mlir::ModuleOp"> {
  let summary = "Refuse a CUDA architecture or PTX version the NVPTX backend cannot build";
  let description = [{
    Runs first in --pd-lower-to-gpu, so that an unknown `chip`, or a `ptx`
    version older than the chip needs, is an error naming both instead of
    an abort in LLVM's NVPTX backend. Changes nothing.
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"sm_90\"", "CUDA architecture (sm_NN[a])">,
    Option<"ptx", "ptx", "std::string", "\"+ptx80\"", "PTX version feature (+ptxNN)">,
  ];
}

def PdGpuRegionBuffersPass : Pass<"pd-gpu-region-buffers", "::mlir::func::FuncOp"> {
  let summary = "Give the buffers of @main's branches (pipeline stages) arena slots on the GPU";
  let description = [{
    Runs in --pd-lower-to-gpu between bufferization and pd-plan-memory,
    which places the buffers allocated in @main's entry block. On the CPU
    the buffers allocated inside an scf.if (a pipeline stage's
    conditional_block) stay on the heap; on the GPU every buffer must be
    device memory of the arena. So each static memref.alloc inside an
    scf.if of the entry block moves to just before that scf.if, and each
    memref result of such an scf.if becomes a buffer allocated before it,
    which each branch fills before it ends: a copy of what it yielded, or
    a linalg.fill when that is a splat constant (a stage that does not
    compute the output yields zeros), so that no branch hands the host a
    constant in host memory. Dynamic shapes are refused.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def PdGpuCollectivesPass : Pass<"pd-gpu-collectives", "::mlir::ModuleOp"> {
  let summary = "Collective ops of the CUDA target as host calls into libpdrt_cuda";
  let description = [{
    Runs on bufferized, planned linalg in --pd-lower-to-gpu. Each
    pdk_collective kernel call (a pd collective, send_v2 / recv_v2 or
    pd.shard_batch) on static contiguous buffers in device memory becomes

      pdcu_collective(kind, ring_id, reduce, peer, nranks, dtype, seq,
                      in, out, in_count, out_count, in_rows)

    with the buffers' device addresses (in = 0 where the op has no input;
    counts in elements; in_rows the input's dim 0). libpdrt_cuda runs it
    on the job's communicator between the model's kernels: with NCCL on
    the device buffers, otherwise through host copies. pd.is_stage (a
    pipeline stage) becomes `pdcu_comm_rank(stage, stages)`, whose result
    replaces the loads of its rank, so the stage's scf.if branches on the
    host. The gradient buckets of training are refused with an error
    naming the op: they run on CPUs only for now. The module
    gets a `pd.kernel_calls` count per op ("c_allgather -> pdk_collective"),
    as pd-lower-kernel-calls writes on the CPU, for the manifest.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def PdGpuLibraryCallsPass : Pass<"pd-gpu-library-calls", "::mlir::ModuleOp"> {
  let summary = "Matrix products and convolutions of the CUDA target as cuBLASLt and cuDNN calls";
  let description = [{
    Runs on bufferized linalg in --pd-lower-to-gpu, before the memory plan
    (which places the buffers whose addresses the calls take, and keeps
    each alive until its call) and before the kernels are formed. A
    linalg.generic that is a matrix product
    (multiply-accumulate body; one reduced dim k; batch dims leading in
    every operand that has them, all or none of them per input; the m dims
    then k, or k then the m dims, in the left input; k then the n dims, or
    the n dims then k, in the right one; the output batch, m, n) on static
    row-major f32 buffers in device memory (@main's arguments and arena
    views, not constants) becomes a host call

      pdcu_matmul(site, A, B, C, batch, m, n, k, transA, transB,
                  strideA, strideB, strideC, beta, tf32)

    that libpdrt_cuda implements with cuBLASLt on the instance's stream
    (row-major C = op(A) op(B) + beta C; batch dims only the left input
    has are folded into m). A zero fill of C just before the product
    is dropped (beta = 0); otherwise beta = 1 accumulates. `site` numbers
    the calls so that the runtime chooses each one's algorithm once.

    A convolution (linalg.conv_2d_nchw_fchw, depthwise_conv_2d_nchw_chw,
    conv_2d_ngchw_gfchw) on such buffers becomes

      pdcu_conv2d(site, x, w, y, n, c, h, w, k, r, s, oh, ow, stride_h,
                  stride_w, dilation_h, dilation_w, groups, pad_h, pad_w,
                  beta, tf32)

    run with cuDNN (cross-correlation, NCHW, filter [k, c / groups, r, s]),
    with the same zero-fill rule for beta. The input comes padded (a zero
    fill and a copy into a larger buffer); where the pads are symmetric and
    the copied buffer still holds its data at the convolution (an argument,
    a buffer nothing in between writes, or, after a plan, an arena view no
    buffer used in between overlaps), the call reads it with those pads and
    the fill and copy are erased.

    A public function pd_plan_library_calls() repeats each call's problem
    without its addresses (pdcu_plan_matmul, pdcu_plan_conv2d): the
    runtime runs it at instance creation to choose the algorithms and size
    the workspace it puts at the arena's end. The module gets a
    `pd.library_calls` array describing each call, for the manifest. fp32 math unless `allow-tf32` (cuBLASLt's
    CUBLAS_COMPUTE_32F_FAST_TF32, cuDNN's default math instead of
    CUDNN_FMA_MATH).
  }];
  let options = [
    Option<"allowTf32", "allow-tf32", "bool", "false",
           "Let cuBLASLt round the inputs of fp32 products to TF32 (tensor cores)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def PdGpuBlockReductionsPass : Pass<"pd-gpu-block-reductions", "::mlir::ModuleOp"> {
  let summary = "Reduce each output element of a row reduction with one CUDA thread block";
  let description = [{
    Runs before convert-linalg-to-parallel-loops in --pd-lower-to-gpu. A
    linalg.generic on static buffers whose innermost loops are reductions
    no output indexes (softmax's max and sum, layer_norm's mean and
    variance, reduce_*, pooling over whole planes, batch_norm statistics)
    becomes a gpu.launch with one block per output element and
    min(`threads`, the reduction length rounded up to 32) threads per
    block: thread t folds the elements t, t + T, t + 2T, ... of
    the reduction (consecutive threads read consecutive elements) into a
    partial value starting at the combiner's neutral element, gpu.all_reduce
    combines the block's partial values (convert-gpu-to-nvvm lowers it to
    warp shuffles, shared memory and barriers), and thread 0 combines the
    result with the output's initial value and stores it. pd-gpu-map-loops
    leaves these launches as they are (mapped scf.parallel loops would not
    survive the canonicalizer, which merges perfectly nested ones).

    An op qualifies when each output's yielded value is one combiner
    (addf, mulf, maximumf, minimumf, maxnumf, minnumf; addi, muli, max/min
    si/ui, andi, ori, xori on i32) of the output's value and a value that
    does not depend on any output; outputs are f32 or i32; the reduction
    has at least `min-length` elements; and every input that the reduction
    loops index is indexed by all the other loops too (no reuse across
    outputs, so matrix products and convolutions are not reductions here)
    with the innermost loop as its last index (consecutive in memory).
    Anything else keeps one thread per output element (pd-gpu-map-loops).
  }];
  let options = [
    Option<"threads", "threads", "int64_t", "256", "Most threads per block">,
    Option<"minLength", "min-length", "int64_t", "32",
           "Fewest reduced elements per output for a block reduction">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::affine::AffineDialect"];
}

def PdGpuEmulateBlockReductionsPass : Pass<"pd-gpu-emulate-block-reductions",
                                           "::mlir::ModuleOp"> {
  let summary = "Test only: run pd-gpu-block-reductions' nests on the host";
  let description = [{
    For tests without a GPU. Each gpu.launch holding gpu.all_reduce ops (a
    1-D grid of 1-D blocks) becomes a loop over its blocks; in each, the
    code that does not depend on the thread runs once, then three loops over
    the threads: the code before the reductions (each thread's partial
    values stored in a stack buffer), the reductions folded over that
    buffer in thread order, and the code after them with the reduced
    values. The result can be
    lowered for the host and run, so the partial ranges, the indices and
    the final combination are checked against an oracle; what is left to
    the GPU is gpu.all_reduce's own lowering. Code after the reductions may
    not use per-thread values computed before them.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def PdGpuEmulateLaunchesPass : Pass<"pd-gpu-emulate-launches", "::mlir::ModuleOp"> {
  let summary = "Test only: run every gpu.launch on the host (--cuda-emulate)";
  let description = [{
    For checking whole cuda artifacts on a machine without a GPU. Launches
    holding gpu.all_reduce ops run as pd-gpu-emulate-block-reductions runs
    them; every other launch becomes loops over its blocks and, in each,
    its threads (z, y, x), each running the launch body. The launch bodies
    of the CUDA pipeline synchronize only through gpu.all_reduce, so this
    order computes what the GPU computes; a launch with a barrier, a
    shuffle or workgroup memory is refused. The host code then reads and
    writes device buffers directly: the artifact runs only on a driver whose
    device memory is host memory (the tests' stand-in), which the runtime
    checks at load.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def PdGpuKernelSourcesPass : Pass<"pd-gpu-kernel-sources", "::mlir::ModuleOp"> {
  let summary = "Record the Paddle ops each outlined CUDA kernel computes";
  let description = [{
    Runs after gpu-kernel-outlining in --pd-lower-to-gpu. The module gets
    `pd.kernel_sources`, a dictionary from each gpu.module (one kernel) to
    the Paddle ops its body came from: the importer's op locations
    ("relu #12 -> relu_3.tmp_0") on the kernel's ops, in program order
    (the index after '#'), without repeats (a fused elementwise chain names each op of the chain). The
    artifact's manifest lists them as `target.kernel_ops`.
  }];
}

def PdGpuMapLoopsPass : Pass<"pd-gpu-map-loops", "::mlir::ModuleOp"> {
  let summary = "Give each top-level loop nest a 1-D grid of CUDA thread blocks";
  let description = [{
    Runs after convert-linalg-to-parallel-loops in --pd-lower-to-gpu. Each
    top-level scf.parallel becomes a block_x-mapped loop over
    ceildiv(iterations, threads) blocks around a thread_x-mapped loop of
    `threads` threads; thread (b, t) runs the iteration b * threads + t
    (delinearized innermost-fastest, guarded by scf.if), so consecutive
    threads touch consecutive elements. A top-level scf.for nest (an op with
    no parallel dimension) runs as one thread. Buffer allocations, views and
    index arithmetic stay on the host; any other host op is reported as not
    yet supported by the cuda target. @main's inputs must have static
    shapes for now (dynamic ones are reported by name). A constant tensor
    a nest reads (memref.get_global, through views) is read from a copy
    made inside the nest, so the kernel module gets the global.

    Where a nest's body is elementwise (memref loads and stores, arith and
    math ops), its innermost loop runs from 0 to a multiple of
    `vector-width` and is the last index of every access that depends on
    it, and those buffers are static, row-major and aligned for it (@main's
    arguments, arena views at aligned offsets, reshapes of these), each
    thread takes `vector-width` consecutive elements with vector.load and
    vector.store carrying that alignment (ld.global.v4.f32 for f32).

    Thread indices are delinearized with unsigned division (they are never
    negative). With `index-bitwidth=32` (what --pd-lower-to-gpu passes by
    default, with convert-gpu-to-nvvm computing indices in 32 bits), every
    buffer a nest accesses must span fewer than 2^31 elements.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", "256", "Threads per block">,
    Option<"vectorWidthOption", "vector-width", "int64_t", "4",
           "Elements per thread in elementwise nests (1: no vector accesses)">,
    Option<"indexBitwidth", "index-bitwidth", "int64_t", "64",
           "Index width the kernels will compute in: with 32, a buffer spanning "
           "2^31 elements or more is an error naming it">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect", "::mlir::vector::VectorDialect"];
}

def PdLowerKernelCallsPass : Pass<"pd-lower-kernel-calls", "::mlir::ModuleOp"> {
  let summary = "Turn bufferized pd.kernel_call ops into calls of the kernels' C functions";
  let description = [{
    Each `pd.kernel_call` on memrefs becomes `func.call @callee(ptrs, ints,
    floats)` with three i64 addresses of stack arrays filled right before
    the call: the data pointers of the slots (0 for an absent one) and of
    the destination, the op's integer parameters followed by rank and dims
    of every present operand and of the destination, and the float
    parameters. Non-contiguous buffers are passed through contiguous copies.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // PADDLEMLIR_CODEGEN_PASSES_TD

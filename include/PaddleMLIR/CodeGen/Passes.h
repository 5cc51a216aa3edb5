//===- Passes.h - lowering passes and the CPU pipeline ---------*- C++ -*-===//
#ifndef PADDLEMLIR_CODEGEN_PASSES_H
#define PADDLEMLIR_CODEGEN_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::pd {
#define GEN_PASS_DECL
#include "PaddleMLIR/CodeGen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "PaddleMLIR/CodeGen/Passes.h.inc"

/// pd -> linalg/tensor/arith/math patterns, one populate function per op family.
void populatePdElementwiseToLinalgPatterns(RewritePatternSet &patterns);
void populatePdNNToLinalgPatterns(RewritePatternSet &patterns);
void populatePdReductionToLinalgPatterns(RewritePatternSet &patterns);
void populatePdMatMulToLinalgPatterns(RewritePatternSet &patterns);
void populatePdShapeToTensorPatterns(RewritePatternSet &patterns);
void populatePdGatherToLinalgPatterns(RewritePatternSet &patterns);
void populatePdGenerateToLinalgPatterns(RewritePatternSet &patterns);
void populatePdDetectionToLinalgPatterns(RewritePatternSet &patterns);
void populatePdInterpToLinalgPatterns(RewritePatternSet &patterns);
void populatePdQuantToLinalgPatterns(RewritePatternSet &patterns);
void populatePdMetricsToLinalgPatterns(RewritePatternSet &patterns);
void populatePdSamplingToLinalgPatterns(RewritePatternSet &patterns);
void populatePdSequenceToLinalgPatterns(RewritePatternSet &patterns);
/// pd.while / pd.conditional_block -> scf (their bodies lowered by the other
/// patterns), select_input, and the tensor array ops.
void populatePdControlFlowToScfPatterns(RewritePatternSet &patterns);
void populatePdRecurrentToLinalgPatterns(RewritePatternSet &patterns);
/// The collective and point-to-point ops -> pdk_collective kernel calls
/// (PdToLinalg/Collective.cpp).
void populatePdCollectiveToKernelCallPatterns(RewritePatternSet &patterns);
/// Numbers the collective ops under `root` in program order (attribute
/// pd.comm_seq), which their kernel calls report in errors.
void numberCollectives(Operation *root);
/// one_hot_v2, sgd, softmax_with_cross_entropy (PdToLinalg/Train.cpp);
/// `parallelGradients`: pool2d_grad and lookup_table_v2_grad as parallel
/// gathers.
void populatePdTrainToLinalgPatterns(RewritePatternSet &patterns, bool parallelGradients = false);
/// pd ops on bf16 / f16 tensors (other than copies) computed in f32
/// between casts.
void populatePdLowPrecisionToF32Patterns(RewritePatternSet &patterns);
/// pd conv / fc / matmul_v2 -> pd.kernel_call of the oneDNN kernels
/// (higher benefit than the linalg patterns; forms they do not cover are left
/// to those).
void populatePdToOneDNNPatterns(RewritePatternSet &patterns);

struct LowerToCPUOptions : public PassPipelineOptions<LowerToCPUOptions> {
  Option<bool> memoryPlan{
      *this, "memory-plan",
      llvm::cl::desc("Place intermediate buffers in one arena (pd-plan-memory)"),
      llvm::cl::init(true)};
  Option<std::string> kernels{
      *this, "kernels",
      llvm::cl::desc("Library kernels for conv/matmul: 'onednn' (default) or 'none'"),
      llvm::cl::init("onednn")};
  Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Split generated loops over the runtime's threads (pd-parallelize-ops)"),
      llvm::cl::init(true)};
};

struct LowerToGPUOptions : public PassPipelineOptions<LowerToGPUOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("CUDA architecture of the kernels (default sm_90)"),
                           llvm::cl::init("sm_90")};
  Option<std::string> ptx{*this, "ptx",
                          llvm::cl::desc("PTX ISA version of the kernels, as NVVM's target "
                                         "feature (default: +ptx80, CUDA 12.0 or newer, or the "
                                         "first version that has `chip` if that is later)"),
                          llvm::cl::init("")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What the kernels become: 'bin' (cubin, by the toolkit's ptxas; "
                     "default), 'isa' (PTX text) or 'llvm' (NVVM IR)"),
      llvm::cl::init("bin")};
  Option<std::string> toolkit{
      *this, "toolkit", llvm::cl::desc("CUDA toolkit holding ptxas (default /usr/local/cuda)"),
      llvm::cl::init("/usr/local/cuda")};
  Option<int64_t> threads{*this, "threads", llvm::cl::desc("Threads per block (default 256)"),
                          llvm::cl::init(256)};
  Option<int64_t> indexBitwidth{
      *this, "index-bitwidth",
      llvm::cl::desc("Width of the kernels' index arithmetic: 32 (default; every buffer must span "
                     "fewer than 2^31 elements) or 64"),
      llvm::cl::init(32)};
  Option<bool> allowTf32{*this, "allow-tf32",
                         llvm::cl::desc("Let cuBLASLt round fp32 matrix products' inputs to TF32 "
                                        "(default false: fp32 math)"),
                         llvm::cl::init(false)};
  Option<bool> emulate{*this, "emulate",
                       llvm::cl::desc("Test only: run the launches' bodies as host loops "
                                      "(pd-gpu-emulate-launches) instead of building kernels, "
                                      "for the tests' host-memory CUDA driver"),
                       llvm::cl::init(false)};
};

/// pd (after --pd-optimize) -> CUDA kernels and library calls
/// (docs/GPU.md): pd -> linalg (generated) -> buffers -> matrix products as
/// cuBLASLt calls (pd-gpu-library-calls), row reductions one block per
/// output (pd-gpu-block-reductions) -> parallel loops -> one grid per other
/// op (pd-gpu-map-loops) -> gpu.launch_func
/// of outlined kernels -> NVVM -> PTX or cubin in a gpu.binary. The host
/// side stays in func/memref/gpu form (the CUDA target's addCUDAHostPasses
/// lowers it for an artifact).
void buildLowerToGPUPipeline(OpPassManager &pm, const LowerToGPUOptions &options);

/// The PTX ISA version (as 10 * major + minor, e.g. 78 for 7.8) that first
/// supports CUDA architecture `chip` (sm_NN or sm_NNa), or 0 for a chip
/// this compiler does not know.
int minimumPtxVersion(llvm::StringRef chip);

/// The Paddle ops a location names: the importer's op locations ("relu #12
/// -> relu_3.tmp_0") inside it, in program order (the index after '#'),
/// without repeats.
llvm::SmallVector<llvm::StringRef> sourceOpsOf(Location loc);

/// The part of the GPU pipeline after the graph passes (what the CUDA
/// target's lower runs).
void addGPUCodegenPasses(OpPassManager &pm, const LowerToGPUOptions &options);

/// After addGPUCodegenPasses: the host code (launches, views) to the LLVM
/// dialect, launches as MLIR's mgpu* runtime calls.
void addCUDAHostPasses(OpPassManager &pm, bool emulated = false);

/// pd (after --pd-optimize) -> LLVM dialect for the host CPU: externalize
/// weights, pd -> linalg, one-shot bufferization with function boundaries,
/// buffer deallocation, loops, and the LLVM conversions, with C interfaces
/// on @main for the runtime.
void buildLowerToCPUPipeline(OpPassManager &pm, const LowerToCPUOptions &options);

/// The part of the CPU pipeline after the graph passes (weights
/// externalization through the LLVM conversions).
/// With `memoryPlan`, intermediate buffers go into one arena (otherwise
/// they stay malloc'ed per run); with `memoryReport`, pd-plan-memory prints
/// its plan to stderr.
/// `kernels` is "onednn" (conv/matmul through the runtime's oneDNN kernels)
/// or "none" (everything generated). With `parallel`, outlined ops run
/// split over the runtime's threads (pd-parallelize-ops). `convBlock` is
/// pd-kernel-layouts' layout between convolutions (0: automatic; with
/// `measureLibrary`, the kernel library, by timing), `winograd` its
/// choice of Winograd convolutions (auto: timed, never, always).
void addCPUCodegenPasses(OpPassManager &pm, bool memoryPlan = false, bool memoryReport = false,
                         StringRef kernels = "onednn", bool parallel = true, int64_t convBlock = 0,
                         StringRef measureLibrary = "", StringRef winograd = "auto");

/// Name prefix of the functions pd-outline-ops creates.
inline constexpr const char *kOutlinedPrefix = "__pd_op_";

/// On each memref.view pd-plan-memory makes: the index of its arena slot.
/// Views of different slots are disjoint wherever an op uses both.
inline constexpr const char *kArenaSlotAttr = "pd.arena_slot";

void registerCodeGenPassesAndPipelines();
} // namespace mlir::pd

#endif // PADDLEMLIR_CODEGEN_PASSES_H

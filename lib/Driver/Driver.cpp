//===- Artifact.cpp - AOT compilation: pd module -> artifact directory ---===//

#include "PaddleMLIR/Driver/Driver.h"
#include "DriverInternal.h"
#include "MixedPrecision.h"
#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/CodeGen/Target.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Calibration.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/CostModel.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"
#include "PaddleMLIR/Frontend/Paddle/PaddleExport.h"
#include "Validation.h"

#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>

using namespace mlir;
using namespace mlir::pd;

std::string mlir::pd::dtypeName(Type t) {
  if (t.isF32())
    return "float32";
  if (t.isF16())
    return "float16";
  if (t.isBF16())
    return "bfloat16";
  if (t.isF64())
    return "float64";
  if (auto i = dyn_cast<IntegerType>(t)) {
    if (i.getWidth() == 1)
      return "bool";
    return std::string(i.isUnsigned() ? "uint" : "int") + std::to_string(i.getWidth());
  }
  return "unknown";
}

namespace {
constexpr uint64_t kAlign = 64;

struct TensorInfo {
  std::string name, dtype;
  std::vector<int64_t> shape; // -1: dynamic
  uint64_t offset = 0, nbytes = 0;
  std::string updates;         // an output: the trained weight it holds the new value of
  bool trainable = false;      // a weight: updated by the train step
  bool optimizerState = false; // a trainable weight that is optimizer state, not the model's
  int64_t classes = -1, ignoreIndex = -100; // an input: a train step's labels
  bool dataDependent = false;               // an output whose size depends on the data (NMS)
};

std::vector<int64_t> shapeOf(Type t) {
  std::vector<int64_t> s;
  for (int64_t d : cast<RankedTensorType>(t).getShape())
    s.push_back(ShapedType::isDynamic(d) ? -1 : d);
  return s;
}

llvm::json::Array toJson(const std::vector<TensorInfo> &list, bool withOffsets) {
  llvm::json::Array arr;
  for (const TensorInfo &t : list) {
    llvm::json::Object o{
        {"name", t.name}, {"dtype", t.dtype}, {"shape", llvm::json::Array(t.shape)}};
    if (withOffsets) {
      o["offset"] = static_cast<int64_t>(t.offset);
      o["nbytes"] = static_cast<int64_t>(t.nbytes);
    }
    if (!t.updates.empty())
      o["updates"] = t.updates;
    if (t.trainable)
      o["trainable"] = true;
    if (t.optimizerState)
      o["optimizer_state"] = true;
    if (t.dataDependent)
      o["data_dependent"] = true;
    if (t.classes > 0) {
      o["classes"] = t.classes;
      o["ignore_index"] = t.ignoreIndex;
    }
    arr.push_back(std::move(o));
  }
  return arr;
}

std::string cIdent(StringRef s) {
  std::string out;
  for (char c : s)
    out += isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (out.empty() || isdigit(static_cast<unsigned char>(out[0])))
    out = "_" + out;
  return out;
}

std::string cType(StringRef dtype) {
  static const llvm::StringMap<std::string> m = {
      {"float32", "float"},     {"float64", "double"},  {"float16", "uint16_t"},
      {"bfloat16", "uint16_t"}, {"int8", "int8_t"},     {"uint8", "uint8_t"},
      {"int16", "int16_t"},     {"int32", "int32_t"},   {"int64", "int64_t"},
      {"bool", "uint8_t"},      {"uint32", "uint32_t"}, {"uint64", "uint64_t"},
      {"uint16", "uint16_t"}};
  auto it = m.find(dtype);
  return it == m.end() ? "void" : it->second;
}

LogicalResult fail(ModuleOp m, const Twine &msg) {
  m.emitError(msg);
  return failure();
}

/// Applies --input-shape: replaces argument types by the given static shapes.
LogicalResult applyInputShapes(func::FuncOp main, const CompileOptions &opts) {
  std::map<std::string, bool> used;
  for (unsigned i = 0; i < main.getNumArguments(); ++i) {
    auto nameAttr = main.getArgAttrOfType<StringAttr>(i, "pd.name");
    if (!nameAttr)
      continue;
    auto it = opts.inputShapes.find(nameAttr.getValue().str());
    if (it == opts.inputShapes.end())
      continue;
    used[it->first] = true;
    auto t = cast<RankedTensorType>(main.getArgument(i).getType());
    if ((int64_t)it->second.size() != t.getRank())
      return main.emitError() << "--input-shape " << it->first << " has " << it->second.size()
                              << " dims but the input has rank " << t.getRank();
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (!t.isDynamicDim(d) && t.getDimSize(d) != it->second[d])
        return main.emitError() << "--input-shape " << it->first << ": dim " << d << " is fixed to "
                                << t.getDimSize(d) << " by the model";
    auto nt = RankedTensorType::get(it->second, t.getElementType());
    main.getArgument(i).setType(nt);
  }
  for (const auto &[name, shape] : opts.inputShapes)
    if (!used.count(name))
      return main.emitError() << "--input-shape names '" << name << "', which is not an input";
  main.setFunctionType(FunctionType::get(main.getContext(), main.getBody().getArgumentTypes(),
                                         main.getResultTypes()));
  return success();
}

std::string header(StringRef name, const std::vector<TensorInfo> &inputs,
                   const std::vector<TensorInfo> &outputs) {
  std::string id = cIdent(name), up = StringRef(id).upper();
  std::string h;
  llvm::raw_string_ostream os(h);
  os << "/* " << name << ".h - generated by paddle-compile: the C interface of model '" << name
     << "'. */\n#ifndef PADDLE_MLIR_MODEL_" << up << "_H\n#define PADDLE_MLIR_MODEL_" << up
     << "_H\n\n#include \"pdrt.h\"\n\n#include <stdint.h>\n\n";
  auto list = [&](StringRef kind, const std::vector<TensorInfo> &ts) {
    std::string k = kind.upper(); // INPUT or OUTPUT
    os << "/* " << kind << "s */\n#define " << up << "_NUM_" << k << "S " << ts.size() << "\n";
    for (auto [i, t] : llvm::enumerate(ts)) {
      std::string pos = up + "_" + k + "_" + std::to_string(i);
      std::string dims, pretty;
      for (auto [j, d] : llvm::enumerate(t.shape)) {
        dims += (j ? ", " : "") + std::to_string(d);
        pretty += (j ? ", " : "") + (d < 0 ? std::string("?") : std::to_string(d));
      }
      os << "/* " << t.name << ": " << t.dtype << " [" << pretty << "], C type " << cType(t.dtype)
         << " */\n";
      os << "#define " << pos << "_NAME \"" << t.name << "\"\n";
      os << "#define " << pos << "_DTYPE PDRT_" << StringRef(t.dtype).upper() << "\n";
      os << "#define " << pos << "_RANK " << t.shape.size() << "\n";
      os << "#define " << pos << "_SHAPE {" << dims << "} /* -1: dynamic */\n";
      if (t.dataDependent)
        os << "/* Its size depends on the data: read it from pdrt_get_output after each run. */\n"
           << "#define " << pos << "_DATA_DEPENDENT 1\n";
      os << "#define " << up << "_" << k << "_" << StringRef(cIdent(t.name)).upper() << "_INDEX "
         << i << "\n";
    }
    os << "\n";
  };
  list("input", inputs);
  list("output", outputs);
  os << "/* Loads the artifact in `dir` (this header's directory). */\n"
     << "static inline pdrt_status " << id << "_load(const char *dir, pdrt_model **model) {\n"
     << "  return pdrt_model_load(dir, model);\n}\n\n#endif\n";
  return h;
}

/// pd-kernel-layouts' `block` option: 0 lets it choose, -1 is NHWC.
int64_t convBlock(ConvLayout layout) {
  switch (layout) {
  case ConvLayout::Auto:
    return 0;
  case ConvLayout::NHWC:
    return -1;
  case ConvLayout::NChw8c:
    return 8;
  case ConvLayout::NChw16c:
    return 16;
  }
  llvm_unreachable("unknown conv layout");
}

/// pd-kernel-layouts' `winograd` option.
StringRef winogradMode(ConvAlgorithm algorithm) {
  switch (algorithm) {
  case ConvAlgorithm::Auto:
    return "auto";
  case ConvAlgorithm::Direct:
    return "never";
  case ConvAlgorithm::WinogradF2:
    return "always";
  case ConvAlgorithm::WinogradF4:
    return "always4";
  }
  llvm_unreachable("unknown conv algorithm");
}

/// The code generation target of --target.
const CodegenTarget &codegenTarget(const CompileOptions &opts) {
  switch (opts.target) {
  case Target::CPU:
    return getCPUTarget();
  case Target::CUDA:
    return getCUDATarget();
  }
  llvm_unreachable("unknown target");
}

/// What the target's code generation reads of `opts`.
CodegenOptions codegenOptions(const CompileOptions &opts, bool measure) {
  CodegenOptions o;
  o.memoryPlan = opts.memoryPlan;
  o.memoryReport = opts.memoryReport;
  o.cpu = opts.cpu;
  o.kernels = stringify(opts.kernels).str();
  o.parallel = opts.parallel;
  o.convBlock = convBlock(opts.convLayout);
  o.winograd = winogradMode(opts.convAlgorithm).str();
  o.measure = measure;
  o.unrollLoops = !opts.train;
  o.cudaArch = opts.cudaArch;
  o.allowTf32 = opts.allowTf32;
  o.cudaEmulate = opts.cudaEmulate;
  o.cudaIndexBitwidth = opts.cudaIndexBitwidth;
  // The toolkit the lit tests also take from the environment.
  if (const char *toolkit = std::getenv("PADDLE_MLIR_CUDA_TOOLKIT"))
    o.cudaToolkit = toolkit;
  return o;
}

// The steps of compileToArtifact, in the order it runs them.

/// Refuses what this compiler cannot build yet and options that contradict
/// each other, before any work is done.
LogicalResult checkOptions(ModuleOp module, const CompileOptions &opts) {
  if (opts.target != Target::CPU) {
    if (opts.precision != Precision::FP32)
      return fail(module, "--target " + stringify(opts.target) +
                              " builds fp32 only (not --precision " + stringify(opts.precision) +
                              ")");
  }
  if (!opts.partition.empty()) {
    if (opts.devices < 2)
      return fail(module, "--partition " + opts.partition + " needs --devices N with N >= 2");
    if (opts.train && opts.partition == "pipeline" && opts.keepGradients)
      return fail(module, "--keep-gradients does not combine with --partition pipeline --train "
                          "(each rank holds the gradients of its stage)");
    if (opts.precision != Precision::FP32)
      return fail(module, "--partition builds fp32 only for now (not --precision " +
                              stringify(opts.precision) + ")");
  } else if (opts.devices != 1) {
    return fail(module, "--devices " + std::to_string(opts.devices) +
                            " needs --partition data or pipeline (how to split the program)");
  }
  bool dataTrain = opts.train && opts.partition == "data";
  if (opts.bucketMb != 32 && !dataTrain)
    return fail(module, "--bucket-mb applies to --partition data --train only");
  if (opts.reduceStrategy != "allreduce" && !dataTrain)
    return fail(module, "--reduce-strategy applies to --partition data --train only");
  if (opts.syncBatchNorm && !dataTrain)
    return fail(module, "--sync-batch-norm applies to --partition data --train only");
  if (opts.overlapBuckets && opts.reduceStrategy == "reduce")
    return fail(module, "--overlap-buckets applies to --reduce-strategy allreduce only (the "
                        "reduce strategy's reduce-scatters block)");
  if (opts.microBatches != 0 && opts.partition != "pipeline")
    return fail(module, "--micro-batches applies to --partition pipeline only");
  if (opts.stageMemoryMb != 0 && opts.partition != "pipeline")
    return fail(module, "--stage-memory-mb applies to --partition pipeline only");
  if (opts.allowTf32 && opts.target != Target::CUDA)
    return fail(module, "--allow-tf32 applies to --target cuda only (the CPU target has no TF32)");
  if (opts.cudaEmulate && opts.target != Target::CUDA)
    return fail(module, "--cuda-emulate applies to --target cuda only");
  if (opts.cudaIndexBitwidth != 32 && opts.target != Target::CUDA)
    return fail(module, "--cuda-index-bitwidth applies to --target cuda only");
  if (failed(codegenTarget(opts).checkOptions(module, codegenOptions(opts, false))))
    return failure();
  if (failed(checkMixedPrecisionOptions(module, opts)))
    return failure();
  if (opts.precision == Precision::INT8 && opts.kernels != KernelLibrary::OneDNN)
    return fail(module, "--precision int8 needs --kernels onednn (the int8 convolutions and "
                        "matrix products are oneDNN kernels; generated code has none)");
  bool forcesWinograd = opts.convAlgorithm == ConvAlgorithm::WinogradF2 ||
                        opts.convAlgorithm == ConvAlgorithm::WinogradF4;
  if (forcesWinograd && opts.convLayout == ConvLayout::NChw16c)
    return fail(module, "--conv-algorithm=" + stringify(opts.convAlgorithm) +
                            " needs --conv-layout auto, nhwc or nchw8c (its kernel reads and "
                            "writes those), not 'nchw16c'");
  return success();
}

/// @main, with --input-shape applied to its arguments.
FailureOr<func::FuncOp> prepareMain(ModuleOp module, const CompileOptions &opts) {
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main)
    return fail(module, "the module has no @main function");
  if (failed(applyInputShapes(main, opts)))
    return failure();
  return main;
}

/// The pd -> pd pipeline (shapes always; fusions and folding with
/// `optimize`).
/// --train: the loss (--loss-op), the backward pass and the optimizer,
/// on static shapes, before the graph pipeline (docs/Training.md).
LogicalResult runTrainPipeline(ModuleOp module, const CompileOptions &opts) {
  if (opts.precision != Precision::FP32)
    return fail(module, "--train builds fp32 train steps only (--precision " +
                            stringify(opts.precision).str() + " is not supported for training)");
  if (!opts.calibrationData.empty() || opts.precisionCheck)
    return fail(module, "--train does not combine with calibration or --precision-check");
  PassManager pm(module.getContext());
  pm.addPass(createPdInferShapesPass());
  if (!opts.lossOp.empty()) {
    PdAppendLossPassOptions loss;
    loss.lossOp = opts.lossOp;
    loss.label = opts.label;
    pm.addPass(createPdAppendLossPass(loss));
  }
  // Data-parallel training: each rank's part of the batch through the
  // forward program and the loss; pd-append-optimizer averages the
  // gradients and the loss over the ranks. Pipeline training: the forward
  // program is cut into stages and sized for one micro-batch, backward
  // follows the stages, then every micro-batch runs (pd-partition-devices'
  // train phases).
  auto pipelinePhase = [&](StringRef phase) {
    PdPartitionDevicesPassOptions p;
    p.mode = "pipeline";
    p.devices = opts.devices;
    p.microBatches = opts.microBatches;
    p.trainPhase = phase.str();
    p.stageMemoryMb = opts.stageMemoryMb;
    // Each trainable parameter with its optimizer's moments.
    p.paramCopies = opts.optimizer == "sgd" ? 1 : opts.optimizer == "momentum" ? 2 : 3;
    pm.addPass(createPdPartitionDevicesPass(p));
  };
  if (opts.partition == "data") {
    PdPartitionDevicesPassOptions p;
    p.mode = "data";
    p.devices = opts.devices;
    p.gatherOutputs = false;
    pm.addPass(createPdPartitionDevicesPass(p));
  }
  if (opts.partition == "pipeline")
    pipelinePhase("forward");
  PdAppendBackwardPassOptions backward;
  backward.loss = opts.loss.empty() ? "loss" : opts.loss;
  if (opts.partition == "data" && opts.syncBatchNorm)
    backward.syncBatchNormRanks = opts.devices;
  pm.addPass(createPdAppendBackwardPass(backward));
  if (opts.partition == "pipeline")
    pipelinePhase("micro");
  PdAppendOptimizerPassOptions optimizer;
  optimizer.optimizer = opts.optimizer;
  optimizer.learningRate = opts.learningRate;
  optimizer.momentum = opts.momentum;
  optimizer.nesterov = opts.nesterov;
  optimizer.beta1 = opts.beta1;
  optimizer.beta2 = opts.beta2;
  optimizer.epsilon = opts.epsilon;
  optimizer.weightDecay = opts.weightDecay;
  optimizer.clipNorm = opts.clipNorm;
  optimizer.schedule = opts.schedule;
  optimizer.stepSize = opts.stepSize;
  optimizer.gamma = opts.gamma;
  optimizer.totalSteps = opts.totalSteps;
  optimizer.minLr = opts.minLr;
  optimizer.warmupSteps = opts.warmupSteps;
  optimizer.keepGradients = opts.keepGradients;
  if (opts.partition == "data") {
    optimizer.ranks = opts.devices;
    optimizer.bucketMb = opts.bucketMb;
    optimizer.overlap = opts.overlapBuckets;
    optimizer.strategy = opts.reduceStrategy;
  }
  pm.addPass(createPdAppendOptimizerPass(optimizer));
  if (opts.partition == "pipeline")
    pipelinePhase("stages");
  return pm.run(module);
}

LogicalResult runGraphPipeline(ModuleOp module, const CompileOptions &opts) {
  if (opts.train && failed(runTrainPipeline(module, opts)))
    return failure();
  PassManager graph(module.getContext());
  if (opts.optimize) {
    OptimizePipelineOptions o;
    // int8: pd.multihead_matmul has no int8 form, and its QKV projection
    // was half of int8 BERT-base's time in fp32; unfused, the three
    // projections are fc ops with int8 kernels (docs/Quantization.md).
    o.fuseAttention = opts.precision != Precision::INT8;
    o.int8Attributes = opts.precision == Precision::INT8;
    buildOptimizePipeline(graph, o);
  } else {
    graph.addPass(createPdInferShapesPass());
  }
  if (!opts.partition.empty() && !opts.train) {
    PdPartitionDevicesPassOptions p;
    p.mode = opts.partition;
    p.devices = opts.devices;
    p.microBatches = opts.microBatches;
    p.stageMemoryMb = opts.stageMemoryMb;
    graph.addPass(createPdPartitionDevicesPass(p));
  }
  return graph.run(module);
}

/// The ops whose precision the manifest reports, one record each.
bool isComputeOp(Operation *op) {
  return isa<Conv2dOp, DepthwiseConv2dOp, FusedConv2dOp, Conv2dTransposeOp, FcOp, MulOp, MatmulOp,
             MatmulV2Op, MultiheadMatmulOp, QuantizedConv2dOp, QuantizedFcOp, QuantizedMatmulOp>(
      op);
}

/// The Paddle variable an op writes (from the importer's location
/// "conv2d #7 -> conv2d_1.tmp_0"), else its op name and position.
std::string computeOpName(Operation *op, int64_t index) {
  std::string name = paddleVariableOf(op);
  return name.empty() ? (op->getName().stripDialect() + " #" + Twine(index)).str() : name;
}

llvm::json::Object scalesSummary(ArrayRef<float> s) {
  auto [lo, hi] = std::minmax_element(s.begin(), s.end());
  return llvm::json::Object{{"count", static_cast<int64_t>(s.size())},
                            {"min", s.empty() ? 0.0 : *lo},
                            {"max", s.empty() ? 0.0 : *hi}};
}

/// What oneDNN's int8 kernels run on on this machine (pdk_int8_isa of the
/// kernel library), or why that is unknown.
std::string int8Isa() {
  std::string lib = kernelsLibraryPath();
  void *h = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h)
    return "unknown (cannot load " + lib + ")";
  auto fn = reinterpret_cast<const char *(*)()>(dlsym(h, "pdk_int8_isa"));
  std::string r = fn ? std::string(fn()) : std::string("unknown");
  dlclose(h);
  return r;
}

/// The precision of every compute op after the graph pipeline (and
/// pd-quantize under --precision int8), for manifest.json.
struct PrecisionReport {
  llvm::json::Array ops;
  int64_t int8Ops = 0, bf16Ops = 0;
  /// Compute ops behind a fake quantizer with no int8 form, and the first
  /// of them ("name: reason").
  int64_t unrecognised = 0;
  std::string firstUnrecognised;
};

PrecisionReport precisionReport(ModuleOp module, const CompileOptions &opts) {
  PrecisionReport r;
  int64_t index = 0;
  std::string isa;
  module.walk([&](Operation *op) {
    if (!isComputeOp(op))
      return;
    llvm::json::Object rec{{"name", computeOpName(op, index++)}};
    auto output = [](StringRef dtype, float scale) -> llvm::json::Value {
      if (dtype == "float32")
        return llvm::json::Object{{"dtype", "float32"}};
      return llvm::json::Object{{"dtype", dtype}, {"scale", scale}};
    };
    auto quantized = [&](StringRef from, StringRef inDtype, float inScale, ArrayRef<float> ws,
                         StringRef outDtype, float outScale) {
      rec["op"] = from.str();
      rec["precision"] = "int8";
      rec["input"] = llvm::json::Object{{"dtype", inDtype}, {"scale", inScale}};
      if (!ws.empty()) // a product of two activations has none
        rec["weight_scales"] = scalesSummary(ws);
      rec["output"] = output(outDtype, outScale);
      // oneDNN picks its implementation when the artifact loads; this is
      // the ISA it has on the compiling machine.
      if (isa.empty())
        isa = int8Isa();
      rec["isa"] = isa;
      ++r.int8Ops;
    };
    auto fromOf = [&](StringRef fallback) {
      auto a = op->getAttrOfType<StringAttr>("pd.quantized_from");
      return a ? a.getValue() : fallback;
    };
    auto inDtype = [](Value v) {
      return cast<RankedTensorType>(v.getType()).getElementType().isUnsignedInteger() ? "uint8"
                                                                                      : "int8";
    };
    if (auto c = dyn_cast<QuantizedConv2dOp>(op)) {
      quantized(fromOf("conv2d"), inDtype(c.getInput()), c.getInputScale().convertToFloat(),
                c.getFilterScales(), c.getOutDtype(), c.getOutputScale().convertToFloat());
      if (Value res = c.getResidualData())
        rec["residual"] = cast<RankedTensorType>(res.getType()).getElementType().isF32()
                              ? output("float32", 1.f)
                              : output(inDtype(res), c.getResidualScale().convertToFloat());
    } else if (auto f = dyn_cast<QuantizedFcOp>(op)) {
      quantized(fromOf("fc"), inDtype(f.getInput()), f.getInputScale().convertToFloat(),
                f.getWeightScales(), f.getOutDtype(), f.getOutputScale().convertToFloat());
    } else if (auto m = dyn_cast<QuantizedMatmulOp>(op)) {
      // Two activations: Y has a per-tensor scale, no weight scales.
      quantized(fromOf("matmul_v2"), inDtype(m.getX()), m.getXScale().convertToFloat(), {},
                "float32", 1.f);
      rec["y"] = llvm::json::Object{{"dtype", "int8"}, {"scale", m.getYScale().convertToFloat()}};
    } else if (mixedPrecisionRecord(op, rec)) {
      rec["op"] = op->getName().stripDialect().str();
      r.bf16Ops += rec.getString("precision") == "bf16";
    } else {
      rec["op"] = op->getName().stripDialect().str();
      rec["precision"] = "fp32";
      auto why = op->getAttrOfType<StringAttr>("pd.fp32_reason");
      rec["reason"] = why ? why.getValue().str()
                      : opts.precision == Precision::FP32
                          ? std::string("--precision fp32")
                          : std::string("no int8 form of this op yet");
      if (why && op->hasAttr("pd.quant_unrecognised") && r.unrecognised++ == 0)
        r.firstUnrecognised = rec.getString("name")->str() + " (" + rec.getString("op")->str() +
                              "): " + why.getValue().str();
    }
    r.ops.push_back(std::move(rec));
  });
  return r;
}

/// --precision int8: pd-quantize, then the precision report; warns when
/// nothing could be quantized (the artifact is then fp32) unless `quiet`.
LogicalResult runQuantizePipeline(ModuleOp module, const CompileOptions &opts,
                                  PrecisionReport &report, bool quiet) {
  if (failed(runMixedPrecisionPipeline(module, opts)))
    return failure();
  if (opts.precision == Precision::INT8) {
    PassManager pm(module.getContext());
    driver::addQuantizePasses(pm, opts);
    if (failed(pm.run(module)))
      return failure();
  }
  report = precisionReport(module, opts);
  if (opts.precision == Precision::INT8 && report.int8Ops == 0 && report.unrecognised && !quiet)
    module.emitWarning("--precision int8: the program has fake quantizers, but none in a form "
                       "with an int8 kernel, so the artifact computes in fp32; " +
                       report.firstUnrecognised +
                       (report.unrecognised > 1
                            ? " (and " + std::to_string(report.unrecognised - 1) +
                                  " more; compute_ops in manifest.json says why for each)"
                            : std::string()));
  else if (opts.precision == Precision::INT8 && report.int8Ops == 0 && !quiet)
    module.emitWarning(opts.calibrationData.empty()
                           ? "--precision int8: nothing to quantize (no convolution or matrix "
                             "product has a fake-quantized input, and no --calibration-data was "
                             "given to calibrate a float model), so the artifact computes in fp32"
                           : "--precision int8: no convolution or matrix product could be "
                             "quantized (see compute_ops in manifest.json for why), so the "
                             "artifact computes in fp32");
  module.walk([](Operation *op) {
    for (StringRef a : {"pd.fp32_reason", "pd.quantized_from", "pd.layer", "pd.quant_fallback",
                        "pd.calibrated", "pd.precision_reason", "pd.quant_unrecognised"})
      op->removeAttr(a);
  });
  return success();
}

/// What the header and manifest describe, and the weights blob.
struct Interface {
  std::vector<TensorInfo> inputs, outputs, weights; // weights: in blob order
  std::string blob;
};

/// Whether the size of `v` (a graph-level value) depends on the data, not
/// only on the input shapes: a result pd::isDataSized names (NMS boxes,
/// where_index, masked_select) and what is computed from one with a
/// dynamic dim.
bool dataDependentSize(Value v, DenseMap<Value, bool> &memo) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || type.hasStaticShape())
    return false;
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  memo[v] = false; // (no cycles at the graph level; this only bounds the walk)
  bool dependent;
  if (pd::isDataSized(cast<OpResult>(v)))
    dependent = true;
  else
    dependent = llvm::any_of(def->getOperands(),
                             [&](Value operand) { return dataDependentSize(operand, memo); });
  return memo[v] = dependent;
}

/// Reads the interface of the graph-level module: @main's named arguments
/// and results, and the ml_program globals' data in the order
/// pd-externalize-weights appends them as arguments.
FailureOr<Interface> collectInterface(ModuleOp module, func::FuncOp main) {
  Interface io;
  DenseMap<Value, bool> sizeMemo;
  for (unsigned i = 0; i < main.getNumArguments(); ++i) {
    auto nameAttr = main.getArgAttrOfType<StringAttr>(i, "pd.name");
    Type t = main.getArgument(i).getType();
    io.inputs.push_back({nameAttr ? nameAttr.getValue().str() : "input_" + std::to_string(i),
                         dtypeName(cast<RankedTensorType>(t).getElementType()), shapeOf(t)});
    if (auto classes = main.getArgAttrOfType<IntegerAttr>(i, "pd.label_classes")) {
      io.inputs.back().classes = classes.getInt();
      if (auto ignore = main.getArgAttrOfType<IntegerAttr>(i, "pd.ignore_index"))
        io.inputs.back().ignoreIndex = ignore.getInt();
    }
  }
  for (unsigned i = 0; i < main.getNumResults(); ++i) {
    auto nameAttr = main.getResultAttrOfType<StringAttr>(i, "pd.name");
    Type t = main.getResultTypes()[i];
    io.outputs.push_back({nameAttr ? nameAttr.getValue().str() : "output_" + std::to_string(i),
                          dtypeName(cast<RankedTensorType>(t).getElementType()), shapeOf(t)});
    io.outputs.back().dataDependent =
        dataDependentSize(main.getBody().front().getTerminator()->getOperand(i), sizeMemo);
  }
  // A train step's parameter updates, which pd-externalize-weights appends
  // as results in this order.
  main.walk([&](ml_program::GlobalStoreOp store) {
    Type t = store.getValue().getType();
    std::string name = store.getGlobal().getLeafReference().str();
    TensorInfo out{name, dtypeName(cast<RankedTensorType>(t).getElementType()), shapeOf(t)};
    out.updates = name;
    io.outputs.push_back(out);
  });
  for (auto global : module.getOps<ml_program::GlobalOp>()) {
    auto res = dyn_cast_or_null<DenseResourceElementsAttr>(global.getValueAttr());
    AsmResourceBlob *data = res ? res.getRawHandle().getBlob() : nullptr;
    if (!data)
      return fail(module, "weight '" + global.getSymName() + "' has no data");
    io.blob.resize((io.blob.size() + kAlign - 1) / kAlign * kAlign, '\0');
    TensorInfo w{global.getSymName().str(),
                 dtypeName(cast<RankedTensorType>(global.getType()).getElementType()),
                 shapeOf(global.getType()), io.blob.size(), data->getData().size()};
    io.blob.append(data->getData().data(), data->getData().size());
    w.trainable = global.getIsMutable();
    w.optimizerState = global->hasAttr("pd.optimizer_state");
    io.weights.push_back(w);
  }
  return io;
}

/// pd -> linalg -> buffers in one arena -> the target's lowered form.
/// `measure`: whether pd-kernel-layouts may time convolutions with the
/// kernel library (with oneDNN kernels).
LogicalResult runCodegenPipeline(ModuleOp module, const CompileOptions &opts, bool measure) {
  return codegenTarget(opts).lower(module, codegenOptions(opts, measure));
}

/// What the codegen passes decided, for the manifest.
struct CodegenReport {
  llvm::json::Object kernelCalls; // "<pd op> -> <kernel>": count
  int64_t parallelOps = 0;
  llvm::json::Value convLayout = nullptr;
  llvm::json::Value trainLayout = nullptr;
  llvm::json::Object memoryPlan;
  int64_t arenaBytes = -1; // -1: depends on dynamic dims
  /// Whether the model needs libpdrt_kernels.so (kernels or its threads).
  bool usesKernels() const { return !kernelCalls.empty() || parallelOps > 0; }
  /// Collective and point-to-point ops (pdk_collective calls).
  int64_t collectives() const {
    int64_t n = 0;
    for (const auto &[key, count] : kernelCalls)
      if (StringRef(key).ends_with("-> pdk_collective"))
        n += count.getAsInteger().value_or(0);
    return n;
  }
  PrecisionReport precision;
  /// The cost model's FLOPs and bytes of the graph-level program.
  llvm::json::Object cost;
  /// pd-partition-devices' record (null: one process).
  llvm::json::Value partition = nullptr;
};

/// Moves the passes' pd.* report attributes off the module into a report.
FailureOr<CodegenReport> takeCodegenReport(ModuleOp module) {
  CodegenReport r;
  // Which ops went to library kernels (pd-lower-kernel-calls counts them).
  if (auto k = module->getAttrOfType<DictionaryAttr>("pd.kernel_calls")) {
    for (NamedAttribute a : k)
      r.kernelCalls[a.getName().getValue()] = cast<IntegerAttr>(a.getValue()).getInt();
    module->removeAttr("pd.kernel_calls");
  }
  // How many generated ops run split over threads (pd-parallelize-ops).
  if (auto p = module->getAttrOfType<IntegerAttr>("pd.parallel_ops")) {
    r.parallelOps = p.getInt();
    module->removeAttr("pd.parallel_ops");
  }
  // pd-kernel-layouts' choice of the layout between convolutions.
  if (Operation *mainFn = module.lookupSymbol("main"))
    if (auto d = mainFn->getAttrOfType<DictionaryAttr>("pd.conv_layout")) {
      llvm::json::Object o;
      for (NamedAttribute a : d) {
        if (auto str = dyn_cast<StringAttr>(a.getValue()))
          o[a.getName().getValue()] = str.getValue().str();
        else if (auto f = dyn_cast<FloatAttr>(a.getValue()))
          o[a.getName().getValue()] = f.getValueAsDouble();
        else if (auto i = dyn_cast<IntegerAttr>(a.getValue()))
          o[a.getName().getValue()] = i.getInt();
      }
      r.convLayout = std::move(o);
      mainFn->removeAttr("pd.conv_layout");
    }
  // pd-train-layouts: a train step's activations kept channel-blocked.
  if (Operation *mainFn = module.lookupSymbol("main"))
    if (auto t = mainFn->getAttrOfType<DictionaryAttr>("pd.train_layout")) {
      r.trainLayout =
          llvm::json::Object{{"layout", cast<StringAttr>(t.get("layout")).getValue().str()},
                             {"ops", cast<IntegerAttr>(t.get("ops")).getInt()}};
      mainFn->removeAttr("pd.train_layout");
    }
  auto plan = module->getAttrOfType<DictionaryAttr>("pd.memory_plan");
  if (!plan)
    return fail(module, "the CPU pipeline produced no memory plan");
  module->removeAttr("pd.memory_plan");
  r.memoryPlan = llvm::json::Object{{"arena_size_function", "pd_arena_bytes"}};
  for (NamedAttribute a : plan)
    if (auto i = dyn_cast<IntegerAttr>(a.getValue()))
      r.memoryPlan[a.getName().getValue()] = i.getInt();
  r.arenaBytes = cast<IntegerAttr>(plan.get("arena_bytes")).getInt();
  return r;
}

/// Drops our argument and result annotations (pd.name, pd.weight,
/// pd.lod_of, ...), which mean nothing to LLVM IR translation; it warns on
/// each one it does not know.
void stripArgumentAnnotations(ModuleOp module) {
  module.walk([](FunctionOpInterface fn) {
    auto ours = [](ArrayRef<NamedAttribute> attrs) {
      SmallVector<StringAttr> names;
      for (NamedAttribute a : attrs)
        if (a.getName().getValue().starts_with("pd."))
          names.push_back(a.getName());
      return names;
    };
    for (unsigned i = 0; i < fn.getNumArguments(); ++i)
      for (StringAttr name : ours(fn.getArgAttrs(i)))
        fn.removeArgAttr(i, name);
    for (unsigned i = 0; i < fn.getNumResults(); ++i)
      for (StringAttr name : ours(fn.getResultAttrs(i)))
        fn.removeResultAttr(i, name);
  });
}

/// 16 hex digits of `value`.
std::string hex64(uint64_t value) {
  char s[17];
  snprintf(s, sizeof(s), "%016llx", static_cast<unsigned long long>(value));
  return s;
}

/// The model's identity, shared by the library and the manifest so the
/// runtime refuses a library built for another model: a hash of the
/// lowered module and the artifact name.
std::string fingerprintOf(ModuleOp lowered, StringRef name) {
  std::string text;
  llvm::raw_string_ostream os(text);
  lowered.print(os, OpPrintingFlags().elideLargeResourceString(0));
  return hex64(llvm::xxh3_64bits(text + name.str()));
}

/// FNV-1a of the weights; the runtime checks it at load.
/// FNV-1a over `bytes`, continuing from `sum`.
uint64_t fnv1a(StringRef bytes, uint64_t sum = 1469598103934665603ull) {
  for (unsigned char c : bytes)
    sum = (sum ^ c) * 1099511628211ull;
  return sum;
}

std::string weightsChecksum(StringRef blob) { return hex64(fnv1a(blob)); }

/// A pipeline's stages (pd-partition-devices' record) each get the checksum
/// of the weights they read, over their bytes in the stage's order: a rank
/// checks and reads only its stage's weights (Runtime.cpp).
void addStageChecksums(llvm::json::Value &partition, const Interface &io) {
  llvm::json::Object *p = partition.getAsObject();
  llvm::json::Array *stages = p ? p->getArray("stages") : nullptr;
  if (!stages)
    return;
  for (llvm::json::Value &stage : *stages) {
    llvm::json::Object *s = stage.getAsObject();
    llvm::json::Array *names = s ? s->getArray("weights") : nullptr;
    if (!names)
      continue;
    uint64_t sum = fnv1a("");
    for (const llvm::json::Value &name : *names)
      for (const TensorInfo &w : io.weights)
        if (name.getAsString() && w.name == *name.getAsString())
          sum = fnv1a(StringRef(io.blob).substr(w.offset, w.nbytes), sum);
    (*s)["weights_checksum"] = hex64(sum);
  }
}

/// Writes `data` to a temporary file renamed onto `path`: a process that has
/// the old file open or mapped (the runtime maps weights files) keeps
/// reading the old contents, and a failed write leaves no partial file.
LogicalResult writeFile(ModuleOp module, const std::string &path, StringRef data) {
  if (llvm::Error err = llvm::writeToOutput(path, [&](raw_ostream &os) {
        os << data;
        return llvm::Error::success();
      }))
    return fail(module, "cannot write '" + path + "': " + llvm::toString(std::move(err)));
  return success();
}

/// `dir`/`file`.
std::string pathIn(StringRef dir, const Twine &file) {
  SmallString<256> p(dir);
  llvm::sys::path::append(p, file);
  return p.str().str();
}

/// manifest.json: what the runtime needs to load the artifact, and what the
/// compiler chose, for people and tools.
std::string manifestJson(const CompileOptions &opts, Interface &io, CodegenReport &report,
                         StringRef fingerprint, llvm::json::Object target) {
  llvm::json::Object precision{{"requested", stringify(opts.precision)},
                               {"int8_ops", report.precision.int8Ops},
                               {"bf16_ops", report.precision.bf16Ops},
                               {"ops", std::move(report.precision.ops)}};
  if (opts.precision == Precision::BF16)
    precision["bf16"] = mixedPrecisionSummary(opts, report.precision.bf16Ops);
  // A cuda artifact's calls (collectives) run in libpdrt_cuda.
  bool usesKernels = report.usesKernels() && opts.target == Target::CPU;
  int64_t collectives = report.collectives(); // before kernelCalls moves
  addStageChecksums(report.partition, io);
  llvm::json::Object manifest{
      {"format", "paddle-mlir-artifact"},
      {"format_version", 1},
      {"name", opts.name},
      {"library", "lib" + opts.name + ".so"},
      {"header", opts.name + ".h"},
      {"weights_file", opts.name + ".weights"},
      {"weights_bytes", static_cast<int64_t>(io.blob.size())},
      {"weights_checksum", weightsChecksum(io.blob)},
      {"fingerprint", fingerprint},
      // The target's kind and what its code was built for (cpu or arch).
      {"target", std::move(target)},
      {"precision", stringify(opts.precision)},
      {"compiler_version", "paddle-mlir 0.1.0 (MLIR " LLVM_VERSION_STRING ")"},
      // null when it depends on dynamic input dims (pd_arena_bytes computes it).
      {"arena_bytes",
       report.arenaBytes >= 0 ? llvm::json::Value(report.arenaBytes) : llvm::json::Value(nullptr)},
      {"memory_plan", std::move(report.memoryPlan)},
      // Heavy ops computed by library kernels ("<pd op> -> <kernel>": count);
      // every other op is generated code.
      {"kernels",
       llvm::json::Object{{"requested", stringify(opts.kernels)},
                          {"library", usesKernels ? llvm::json::Value("libpdrt_kernels.so")
                                                  : llvm::json::Value(nullptr)},
                          {"calls", std::move(report.kernelCalls)},
                          {"conv_layout", std::move(report.convLayout)},
                          {"train_layout", std::move(report.trainLayout)}}},
      // Collective / point-to-point ops, which run on the communicator of
      // the job (docs/MultiDevice.md); the MPI backend beside the library.
      {"communication",
       llvm::json::Object{{"collectives", collectives},
                          {"backend", collectives ? llvm::json::Value("libpdrt_mpi.so")
                                                  : llvm::json::Value(nullptr)}}},
      // The cost model: FLOPs and bytes per graph-level op (docs/MultiDevice.md).
      {"cost", std::move(report.cost)},
      // How the program is split among the ranks of a job (null: one process).
      // (pipeline: micro_batches and per stage its ops, cost, weights and
      // the bytes it sends per run).
      {"partition", std::move(report.partition)},
      // Generated ops split over the kernel library's OpenMP threads.
      {"parallel", llvm::json::Object{{"enabled", opts.parallel}, {"ops", report.parallelOps}}},
      // One record per convolution / matrix product: the precision it
      // computes in, with its scales (int8) or why it stayed fp32.
      {"compute_ops", std::move(precision)},
      {"inputs", toJson(io.inputs, false)},
      {"outputs", toJson(io.outputs, false)},
      {"weights", toJson(io.weights, true)},
  };
  std::string json;
  llvm::raw_string_ostream js(json);
  js << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest))) << "\n";
  return json;
}

/// The first steps of compileToArtifact: option checks, --input-shape and
/// the graph pipeline.
LogicalResult prepareGraph(ModuleOp module, const CompileOptions &opts) {
  if (failed(checkOptions(module, opts)))
    return failure();
  FailureOr<func::FuncOp> main = prepareMain(module, opts);
  return success(succeeded(main) && succeeded(runGraphPipeline(module, opts)));
}

/// From a graph-level module to the lowered (LLVM dialect) one: pd-quantize
/// (int8) and the codegen pipeline, with what the manifest reports.
LogicalResult lowerGraph(ModuleOp module, const CompileOptions &opts, bool measure, bool quiet,
                         Interface &io, CodegenReport &report) {
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main)
    return fail(module, "the module has no @main function");
  PrecisionReport precision;
  if (failed(runQuantizePipeline(module, opts, precision, quiet)))
    return failure();
  FailureOr<Interface> collected = collectInterface(module, main);
  if (failed(collected) || failed(runCodegenPipeline(module, opts, measure)))
    return failure();
  io = std::move(*collected);
  FailureOr<CodegenReport> taken = takeCodegenReport(module);
  if (failed(taken))
    return failure();
  report = std::move(*taken);
  report.precision = std::move(precision);
  stripArgumentAnnotations(module);
  return success();
}
} // namespace

void mlir::pd::driver::addQuantizePasses(OpPassManager &pm, const CompileOptions &opts) {
  PdQuantizePassOptions o;
  o.exclude.assign(opts.quantizeExclude.begin(), opts.quantizeExclude.end());
  pm.addPass(createPdQuantizePass(o));
  pm.addPass(createCanonicalizerPass());
}

/// The cost model (CostModel.h) over @main's graph-level ops: totals and
/// one record per op that computes or moves data.
static llvm::json::Object costSummary(ModuleOp module) {
  int64_t flops = 0, bytes = 0, index = 0;
  llvm::json::Array ops;
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    main.walk([&](Operation *op) {
      // Pipeline stages' blocks and their terminators compute nothing.
      if (!op->getDialect() || !isa<PdDialect>(op->getDialect()) || op->getNumRegions() ||
          isa<YieldOp>(op))
        return;
      OpCost c = estimateCost(op);
      flops += c.flops;
      bytes += c.bytes;
      llvm::json::Object record{{"name", computeOpName(op, index++)},
                                {"type", op->getName().stripDialect()},
                                {"flops", c.flops},
                                {"bytes", c.bytes}};
      // The pipeline stage that runs it (pd-partition-devices puts each
      // stage's ops in a conditional_block on its pd.is_stage).
      for (auto block = op->getParentOfType<ConditionalBlockOp>(); block;
           block = block->getParentOfType<ConditionalBlockOp>())
        if (block.getConds().size() == 1)
          if (auto stage = block.getConds()[0].getDefiningOp<IsStageOp>()) {
            record["stage"] = static_cast<int64_t>(stage.getStage());
            break;
          }
      ops.push_back(std::move(record));
    });
  return llvm::json::Object{
      {"flops", flops}, {"bytes", bytes}, {"dynamic_dims_as", 1}, {"ops", std::move(ops)}};
}

/// An attribute of pd-partition-devices' record as JSON.
static llvm::json::Value attrToJson(Attribute a) {
  if (auto d = dyn_cast<DictionaryAttr>(a)) {
    llvm::json::Object o;
    for (NamedAttribute n : d)
      o[n.getName().getValue()] = attrToJson(n.getValue());
    return o;
  }
  if (auto arr = dyn_cast<ArrayAttr>(a)) {
    llvm::json::Array out;
    for (Attribute e : arr)
      out.push_back(attrToJson(e));
    return out;
  }
  if (auto i = dyn_cast<IntegerAttr>(a))
    return i.getInt();
  if (auto s = dyn_cast<StringAttr>(a))
    return s.getValue();
  return nullptr;
}

LogicalResult mlir::pd::driver::writeArtifact(ModuleOp module, const CompileOptions &opts,
                                              StringRef outDir, bool measure, bool quiet) {
  Interface io;
  CodegenReport report;
  llvm::json::Object cost = costSummary(module);
  llvm::json::Value partition = nullptr;
  if (auto p = module->getAttrOfType<DictionaryAttr>("pd.partition"))
    partition = attrToJson(p);
  if (failed(lowerGraph(module, opts, measure, quiet, io, report)))
    return failure();
  // Each pipeline stage lists its ops by name, as the cost records say.
  if (auto *stages =
          partition.getAsObject() ? partition.getAsObject()->getArray("stages") : nullptr)
    for (llvm::json::Value &stage : *stages) {
      llvm::json::Object *record = stage.getAsObject();
      std::optional<int64_t> k = record ? record->getInteger("stage") : std::nullopt;
      if (!k)
        continue;
      // (Once each: the ops of every micro-batch have the same names.)
      llvm::json::Array names;
      llvm::StringSet<> seen;
      for (const llvm::json::Value &op : *cost.getArray("ops"))
        if (op.getAsObject()->getInteger("stage") == k)
          if (StringRef name = *op.getAsObject()->getString("name"); seen.insert(name).second)
            names.push_back(name);
      (*record)["op_names"] = std::move(names);
    }
  report.cost = std::move(cost);
  report.partition = std::move(partition);
  std::string fingerprint = fingerprintOf(module, opts.name);

  if (std::error_code ec = llvm::sys::fs::create_directories(outDir))
    return fail(module, "cannot create '" + outDir + "': " + ec.message());
  llvm::json::Object target;
  if (failed(codegenTarget(opts).writeLibrary(module, codegenOptions(opts, measure), outDir,
                                              opts.name, fingerprint, report.usesKernels(),
                                              target)))
    return failure();
  if (report.collectives() > 0) {
    // Multi-rank jobs load the MPI backend from beside the kernel library.
    std::string mpi = mpiBackendLibraryPath();
    if (mpi.empty())
      return fail(module, "the program has collective ops, but this build of paddle-mlir has no "
                          "MPI backend (libpdrt_mpi.so; Open MPI was not found when it was built)");
    if (std::error_code ec = llvm::sys::fs::copy_file(mpi, pathIn(outDir, "libpdrt_mpi.so")))
      return fail(module,
                  "cannot copy the MPI backend '" + mpi + "' into the artifact: " + ec.message());
    // And the NCCL backend (PADDLE_MLIR_COMM_BACKEND=nccl), built with it.
    if (std::string nccl = ncclBackendLibraryPath(); !nccl.empty())
      if (std::error_code ec = llvm::sys::fs::copy_file(nccl, pathIn(outDir, "libpdrt_nccl.so")))
        return fail(module, "cannot copy the NCCL backend '" + nccl +
                                "' into the artifact: " + ec.message());
  }
  std::string manifest = manifestJson(opts, io, report, fingerprint, std::move(target));
  if (failed(writeFile(module, pathIn(outDir, opts.name + ".weights"), io.blob)) ||
      failed(writeFile(module, pathIn(outDir, opts.name + ".h"),
                       header(opts.name, io.inputs, io.outputs))) ||
      failed(writeFile(module, pathIn(outDir, "manifest.json"), manifest)))
    return failure();
  return success();
}

std::unique_ptr<llvm::Module> mlir::pd::compileToLLVMIR(ModuleOp module, const CompileOptions &opts,
                                                        llvm::LLVMContext &llvmCtx) {
  Interface io;
  CodegenReport report;
  if (failed(prepareGraph(module, opts)) ||
      failed(lowerGraph(module, opts, /*measure=*/false, /*quiet=*/false, io, report)))
    return nullptr;
  return codegenTarget(opts).translate(module, fingerprintOf(module, opts.name), llvmCtx);
}

namespace {
/// Reads `outDir`/manifest.json, lets `edit` change it, and writes it back.
LogicalResult editManifest(ModuleOp module, StringRef outDir,
                           function_ref<void(llvm::json::Object &)> edit) {
  std::string path = pathIn(outDir, "manifest.json");
  auto buffer = llvm::MemoryBuffer::getFile(path);
  llvm::Expected<llvm::json::Value> manifest =
      buffer ? llvm::json::parse((*buffer)->getBuffer())
             : llvm::Expected<llvm::json::Value>(llvm::createStringError("unreadable"));
  if (!manifest || !manifest->getAsObject()) {
    if (!manifest)
      llvm::consumeError(manifest.takeError());
    return fail(module, "cannot read back '" + path + "'");
  }
  edit(*manifest->getAsObject());
  std::string json;
  llvm::raw_string_ostream js(json);
  js << llvm::formatv("{0:2}", *manifest) << "\n";
  return writeFile(module, path, json);
}

/// --train: the forward program (as given, before the train passes) as a
/// Paddle inference model, <outDir>/inference/model.pdmodel + .pdiparams
/// with the initial parameters, and in the manifest where each parameter's
/// data lies in the .pdiparams, so pdrt_save_params can write the trained
/// values into a copy. A forward the exporter cannot express is a warning:
/// the train step works, it cannot be saved as a Paddle model.
LogicalResult writeInferenceModel(ModuleOp forward, ModuleOp module, StringRef outDir) {
  std::vector<ExportedParameter> params;
  std::string why;
  LogicalResult exported = failure();
  {
    ScopedDiagnosticHandler capture(forward.getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error && why.empty())
        why = d.str();
      return success();
    });
    exported = exportPaddleModel(forward, pathIn(outDir, "inference"), "model", &params);
  }
  if (failed(exported)) {
    llvm::sys::fs::remove_directories(pathIn(outDir, "inference"));
    module.emitWarning() << "the train step cannot be saved as a Paddle inference model "
                            "(pdrt_save_params): its forward program does not export: "
                         << why;
    return success();
  }
  return editManifest(module, outDir, [&](llvm::json::Object &m) {
    llvm::json::Array list;
    for (const ExportedParameter &p : params)
      list.push_back(llvm::json::Object{{"name", p.name},
                                        {"offset", static_cast<int64_t>(p.offset)},
                                        {"nbytes", static_cast<int64_t>(p.nbytes)}});
    m["inference_model"] = llvm::json::Object{{"program", "inference/model.pdmodel"},
                                              {"params", "inference/model.pdiparams"},
                                              {"weights", std::move(list)}};
  });
}
} // namespace

LogicalResult mlir::pd::compileToArtifact(ModuleOp module, const CompileOptions &opts,
                                          StringRef outDir) {
  // A train step keeps the forward program as given, to save it later.
  OwningOpRef<ModuleOp> forward;
  if (opts.train)
    forward = module.clone();
  if (failed(prepareGraph(module, opts)))
    return failure();
  if (opts.train)
    return success(succeeded(driver::writeArtifact(module, opts, outDir, /*measure=*/true)) &&
                   succeeded(writeInferenceModel(*forward, module, outDir)));
  if (opts.precision == Precision::INT8 && !opts.calibrationData.empty() &&
      failed(driver::calibrate(module, opts, outDir)))
    return failure();
  bool check =
      opts.precision == Precision::BF16 && (opts.precisionCheck || !opts.checkData.empty() ||
                                            opts.accuracyTarget.kind != AccuracyTarget::None);
  if (!check)
    return driver::writeArtifact(module, opts, outDir, /*measure=*/true);
  // --precision bf16 with the numerics check: the ops it moves back are
  // denied bf16, and the manifest gets the measurement.
  if (failed(checkMixedPrecisionOptions(module, opts)))
    return failure();
  std::vector<std::string> moved;
  llvm::json::Object measured;
  if (failed(driver::checkMixedPrecision(module, opts, moved, measured)))
    return failure();
  CompileOptions final = opts;
  final.precisionDeny.insert(final.precisionDeny.end(), moved.begin(), moved.end());
  if (failed(driver::writeArtifact(module, final, outDir, /*measure=*/true)))
    return failure();
  return editManifest(module, outDir, [&](llvm::json::Object &m) {
    llvm::json::Object *compute = m.getObject("compute_ops");
    if (llvm::json::Array *ops = compute ? compute->getArray("ops") : nullptr)
      for (llvm::json::Value &rec : *ops) {
        llvm::json::Object *o = rec.getAsObject();
        std::optional<StringRef> name = o ? o->getString("name") : std::nullopt;
        if (name && llvm::is_contained(moved, name->str()))
          (*o)["reason"] = "precision check: moved back to fp32 for --accuracy-target " +
                           driver::targetText(opts.accuracyTarget);
      }
    if (compute)
      (*compute)["precision_check"] = std::move(measured);
  });
}

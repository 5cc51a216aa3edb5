//===- Pipelines.cpp - the pipeline start the targets share, registration ===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PipelineText.h"

#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

std::string mlir::pd::bufferizedLinalgPipeline(StringRef kernels, StringRef perFunction, bool place,
                                               bool report, StringRef beforePlan,
                                               bool parallelGradients) {
  std::string text = "pd-externalize-weights,convert-pd-to-linalg{kernels=" + kernels.str() +
                     (parallelGradients ? " parallel-gradients=true" : "") +
                     "},canonicalize,resolve-ranked-shaped-type-result-dims,canonicalize,cse,"
                     "func.func(";
  if (!perFunction.empty())
    text += perFunction.str() + ",";
  text += "pd-fuse-elementwise,pd-split-init-tensors),"
          "one-shot-bufferize{bufferize-function-boundaries allow-return-allocs-from-loops "
          "function-boundary-type-conversion=identity-layout-map},"
          "canonicalize,cse,";
  if (!beforePlan.empty())
    text += beforePlan.str() + ",";
  text += "pd-plan-memory{place=";
  text += place ? "true" : "false";
  text += " report=";
  text += report ? "true" : "false";
  return text + "},cse";
}

void mlir::pd::addPipelineText(OpPassManager &pm, StringRef what, std::string text,
                               ArrayRef<std::pair<StringRef, std::string>> values) {
  for (const auto &[key, value] : values) {
    size_t at = text.find(key.str());
    if (at == std::string::npos)
      llvm::report_fatal_error("paddle-mlir: the built-in " + what + " pipeline has no " + key);
    text.replace(at, key.size(), value);
  }
  if (failed(parsePassPipeline(text, pm)))
    llvm::report_fatal_error("paddle-mlir: the built-in " + what + " pipeline does not parse");
}

void mlir::pd::registerCodeGenPassesAndPipelines() {
  registerAllPasses();
  registerPdCodeGenPasses();
  PassPipelineRegistration<LowerToCPUOptions>(
      "pd-lower-to-cpu",
      "Lower a pd module to the LLVM dialect for the host CPU (what paddle-compile runs)",
      buildLowerToCPUPipeline);
  PassPipelineRegistration<LowerToGPUOptions>(
      "pd-lower-to-gpu",
      "Lower a pd module to generated CUDA kernels (PTX or cubin in gpu.binary ops) launched by "
      "a host function in func/memref/gpu form (paddle-compile --target cuda lowers that host "
      "code too; docs/GPU.md)",
      buildLowerToGPUPipeline);
}

//===- Target.cpp - the CPU target ----------------------------------------===//
//
// Generated code and oneDNN kernel calls compiled for one x86 CPU: the
// lowered module is host code through and through.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Target.h"
#include "../HostLibrary.h"
#include "PaddleMLIR/CodeGen/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/IR/Module.h"

using namespace mlir;
using namespace mlir::pd;

mlir::pd::CodegenTarget::~CodegenTarget() = default;

namespace {
class CPUTarget final : public CodegenTarget {
public:
  StringRef kind() const override { return "cpu"; }

  LogicalResult checkOptions(ModuleOp where, const CodegenOptions &options) const override {
    std::string cpu, features;
    return host::resolveCpu(where, options.cpu, cpu, features);
  }

  LogicalResult lower(ModuleOp module, const CodegenOptions &options) const override {
    PassManager pm(module.getContext());
    // Timing kernels to choose layouts needs the kernel library.
    bool measure = options.measure && options.kernels == "onednn";
    addCPUCodegenPasses(pm, options.memoryPlan || options.memoryReport, options.memoryReport,
                        options.kernels, options.parallel, options.convBlock,
                        measure ? kernelsLibraryPath() : "", options.winograd);
    return pm.run(module);
  }

  std::unique_ptr<llvm::Module> translate(ModuleOp lowered, StringRef fingerprint,
                                          llvm::LLVMContext &llvmCtx) const override {
    return host::translate(lowered, fingerprint, llvmCtx);
  }

  LogicalResult writeLibrary(ModuleOp lowered, const CodegenOptions &options, StringRef outDir,
                             StringRef name, StringRef fingerprint, bool linkKernels,
                             llvm::json::Object &record) const override {
    std::string cpu;
    if (failed(host::buildLibrary(lowered, outDir, name, fingerprint, options.cpu,
                                  linkKernels ? std::vector<std::string>{kernelsLibraryPath()}
                                              : std::vector<std::string>{},
                                  cpu, options.unrollLoops)))
      return failure();
    record = llvm::json::Object{{"kind", kind()}, {"cpu", cpu}};
    return success();
  }
};
} // namespace

const CodegenTarget &mlir::pd::getCPUTarget() {
  static const CPUTarget target;
  return target;
}

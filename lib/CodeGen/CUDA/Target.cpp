//===- Target.cpp - the CUDA target ---------------------------------------===//
//
// Kernels generated for one GPU architecture (Pipeline.cpp) and host code
// that launches them. The kernels compile today (paddle-opt
// --pd-lower-to-gpu); artifacts wait for the CUDA runtime that loads and
// launches them (docs/GPU.md), so checkOptions refuses --target cuda after
// checking what it can.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Target.h"
#include "PaddleMLIR/CodeGen/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::pd;

namespace {
/// Why no cuda artifact can be written yet, at `where`.
LogicalResult notYet(ModuleOp where) {
  where.emitError("--target cuda: artifacts are not built yet (the CUDA runtime that loads and "
                  "launches the kernels is planned, docs/GPU.md); `paddle-opt "
                  "--pd-lower-to-gpu=chip=<arch>` compiles the model's kernels today");
  return failure();
}

class CUDATarget final : public CodegenTarget {
public:
  StringRef kind() const override { return "cuda"; }

  LogicalResult checkOptions(ModuleOp where, const CodegenOptions &options) const override {
    llvm::SmallString<128> ptxas(options.cudaToolkit);
    llvm::sys::path::append(ptxas, "bin", "ptxas");
    if (!llvm::sys::fs::can_execute(ptxas))
      return where.emitError() << "--target cuda needs the CUDA toolkit's ptxas to assemble "
                                  "the kernels; there is none at '"
                               << ptxas << "'";
    return notYet(where);
  }

  LogicalResult lower(ModuleOp module, const CodegenOptions &options) const override {
    PassManager pm(module.getContext());
    LowerToGPUOptions gpu;
    gpu.chip = options.cudaArch;
    gpu.toolkit = options.cudaToolkit;
    addGPUCodegenPasses(pm, gpu);
    return pm.run(module);
  }

  std::unique_ptr<llvm::Module> translate(ModuleOp lowered, StringRef,
                                          llvm::LLVMContext &) const override {
    (void)notYet(lowered);
    return nullptr;
  }

  LogicalResult writeLibrary(ModuleOp lowered, const CodegenOptions &, StringRef, StringRef,
                             StringRef, bool, llvm::json::Object &) const override {
    return notYet(lowered);
  }
};
} // namespace

const CodegenTarget &mlir::pd::getCUDATarget() {
  static const CUDATarget target;
  return target;
}

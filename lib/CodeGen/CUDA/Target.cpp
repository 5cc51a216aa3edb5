//===- Target.cpp - the CUDA target ---------------------------------------===//
//
// Kernels generated for one GPU architecture (Pipeline.cpp), embedded as
// cubins in the artifact's library, whose host code launches them through
// MLIR's mgpu* calls; libpdrt_cuda.so (lib/Runtime/Cuda), copied into the
// artifact, implements those over the CUDA driver.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Target.h"
#include "../HostLibrary.h"
#include "PaddleMLIR/CodeGen/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace mlir::pd;

namespace {
/// The CUDA release of the toolkit's ptxas ("13.0" from "Cuda compilation
/// tools, release 13.0, V13.0.48"), or "" when it cannot be told. A driver
/// runs the cubins of its own CUDA major version or an older one only.
std::string ptxasRelease(StringRef toolkit) {
  llvm::SmallString<128> ptxas(toolkit);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  llvm::SmallString<128> out;
  if (llvm::sys::fs::createTemporaryFile("ptxas-version", "txt", out))
    return "";
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(out), StringRef(out)};
  int rc = llvm::sys::ExecuteAndWait(ptxas, {ptxas, "--version"}, std::nullopt, redirects);
  auto text = llvm::MemoryBuffer::getFile(out);
  llvm::sys::fs::remove(out);
  SmallVector<StringRef> match;
  if (rc != 0 || !text ||
      !llvm::Regex("release ([0-9]+\\.[0-9]+)").match((*text)->getBuffer(), &match))
    return "";
  return match[1].str();
}

class CUDATarget final : public CodegenTarget {
public:
  StringRef kind() const override { return "cuda"; }

  LogicalResult checkOptions(ModuleOp where, const CodegenOptions &options) const override {
    if (minimumPtxVersion(options.cudaArch) == 0)
      return where.emitError() << "--cuda-arch " << options.cudaArch
                               << " is not an architecture this compiler knows (sm_50 to sm_90a, "
                                  "sm_100, sm_101, sm_120 and their 'a' forms)";
    llvm::SmallString<128> ptxas(options.cudaToolkit);
    llvm::sys::path::append(ptxas, "bin", "ptxas");
    if (!llvm::sys::fs::can_execute(ptxas))
      return where.emitError() << "--target cuda needs the CUDA toolkit's ptxas to assemble "
                                  "the kernels; there is none at '"
                               << ptxas << "'";
    return success();
  }

  /// The kernels (cubins in gpu.binary ops), then the host code that
  /// launches them as LLVM dialect.
  LogicalResult lower(ModuleOp module, const CodegenOptions &options) const override {
    PassManager pm(module.getContext());
    LowerToGPUOptions gpu;
    gpu.chip = options.cudaArch;
    gpu.toolkit = options.cudaToolkit;
    gpu.allowTf32 = options.allowTf32;
    gpu.emulate = options.cudaEmulate;
    gpu.indexBitwidth = options.cudaIndexBitwidth;
    addGPUCodegenPasses(pm, gpu);
    addCUDAHostPasses(pm, options.cudaEmulate);
    return pm.run(module);
  }

  std::unique_ptr<llvm::Module> translate(ModuleOp lowered, StringRef fingerprint,
                                          llvm::LLVMContext &llvmCtx) const override {
    return host::translate(lowered, fingerprint, llvmCtx);
  }

  LogicalResult writeLibrary(ModuleOp lowered, const CodegenOptions &options, StringRef outDir,
                             StringRef name, StringRef fingerprint, bool,
                             llvm::json::Object &record) const override {
    // The kernels, by the name of the gpu.binary that holds each.
    llvm::json::Array kernels;
    lowered.walk([&](gpu::BinaryOp b) { kernels.push_back(b.getSymName().str()); });
    std::string cpu;
    // libpdrt_cuda runs the collectives too (its communicator is built in).
    if (failed(host::buildLibrary(lowered, outDir, name, fingerprint, options.cpu,
                                  {cudaRuntimeLibraryPath()}, cpu)))
      return failure();
    // The library call per matrix product and convolution
    // (pd-gpu-library-calls' record).
    llvm::json::Array calls;
    if (auto records = lowered->getAttrOfType<ArrayAttr>("pd.library_calls"))
      for (auto record : records.getAsRange<DictionaryAttr>()) {
        llvm::json::Object call;
        for (NamedAttribute field : record) {
          if (auto b = dyn_cast<BoolAttr>(field.getValue())) // before IntegerAttr: i1
            call[field.getName().strref()] = b.getValue();
          else if (auto i = dyn_cast<IntegerAttr>(field.getValue()))
            call[field.getName().strref()] = i.getInt();
          else if (auto s = dyn_cast<StringAttr>(field.getValue()))
            call[field.getName().strref()] = s.getValue().str();
          else if (auto list = dyn_cast<ArrayAttr>(field.getValue())) {
            llvm::json::Array strings;
            for (auto item : list.getAsRange<StringAttr>())
              strings.push_back(item.getValue().str());
            call[field.getName().strref()] = std::move(strings);
          }
        }
        calls.push_back(std::move(call));
      }
    // The Paddle ops each kernel computes (pd-gpu-kernel-sources).
    llvm::json::Object kernelOps;
    if (auto sources = lowered->getAttrOfType<DictionaryAttr>("pd.kernel_sources"))
      for (NamedAttribute kernel : sources) {
        llvm::json::Array ops;
        for (auto name : cast<ArrayAttr>(kernel.getValue()).getAsRange<StringAttr>())
          ops.push_back(name.getValue().str());
        kernelOps[kernel.getName().strref()] = std::move(ops);
      }
    record = llvm::json::Object{{"kind", kind()},
                                {"arch", options.cudaArch},
                                {"host_cpu", cpu},
                                {"kernels", std::move(kernels)},
                                {"kernel_ops", std::move(kernelOps)},
                                {"library_calls", std::move(calls)}};
    // Kernels run by the host code: the runtime loads such an artifact on
    // the tests' host-memory driver only.
    if (options.cudaEmulate)
      record["emulated"] = true;
    // The release whose ptxas assembled the cubins: the runtime refuses a
    // driver of an older CUDA major version by name.
    else if (std::string release = ptxasRelease(options.cudaToolkit); !release.empty())
      record["cuda_version"] = release;
    return success();
  }
};
} // namespace

const CodegenTarget &mlir::pd::getCUDATarget() {
  static const CUDATarget target;
  return target;
}

//===- MixedPrecision.cpp - --precision bf16 steps of compileToArtifact ---===//
//
// See MixedPrecision.h. The CPU check asks LLVM what the target CPU has:
// the host's features (cpuid, through llvm::sys::getHostCPUFeatures) or
// those of the CPU named by --cpu.
//
//===----------------------------------------------------------------------===//

#include "MixedPrecision.h"

#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::pd;

namespace {
LogicalResult fail(ModuleOp m, const Twine &msg) {
  m.emitError(msg);
  return failure();
}

bool isLow(Type t) {
  auto r = dyn_cast<RankedTensorType>(t);
  return r && (r.getElementType().isBF16() || r.getElementType().isF16());
}
} // namespace

bool mlir::pd::targetHasBf16(const CompileOptions &opts) {
  if (const char *no = std::getenv("PADDLE_MLIR_ASSUME_NO_BF16"); no && *no && *no != '0')
    return false;
  if (opts.cpu == "host") {
    llvm::StringMap<bool> f = llvm::sys::getHostCPUFeatures();
    return f.lookup("avx512bf16") || f.lookup("amx-bf16");
  }
  llvm::InitializeNativeTarget();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return false;
  std::unique_ptr<llvm::MCSubtargetInfo> sti(target->createMCSubtargetInfo(triple, opts.cpu, ""));
  return sti && (sti->checkFeatures("+avx512bf16") || sti->checkFeatures("+amx-bf16"));
}

LogicalResult mlir::pd::checkMixedPrecisionOptions(ModuleOp module, const CompileOptions &opts) {
  if (opts.precision == Precision::FP16)
    return fail(module, "--precision fp16 is not supported on the CPU target: x86 CPUs have no "
                        "fast fp16 arithmetic (use --precision bf16 on CPUs with AVX512_BF16 or "
                        "AMX; fp16 is for the GPU target)");
  if (opts.precision != Precision::BF16) {
    if (opts.allowEmulatedBf16)
      return fail(module, "--allow-emulated-bf16 only applies to --precision bf16");
    if (!opts.precisionAllow.empty() || !opts.precisionDeny.empty())
      return fail(module, "--precision-allow and --precision-deny only apply to --precision bf16");
    return success();
  }
  if (opts.kernels != KernelLibrary::OneDNN)
    return fail(module, "--precision bf16 needs --kernels onednn (the bf16 convolutions and "
                        "matrix products are oneDNN kernels; generated code has none)");
  if (!targetHasBf16(opts) && !opts.allowEmulatedBf16)
    return fail(module, "--precision bf16: the target CPU (" + opts.cpu +
                            ") has no bf16 arithmetic (neither AVX512_BF16 nor AMX-BF16), so bf16 "
                            "would be emulated in f32 and slower than fp32; pass "
                            "--allow-emulated-bf16 to build it anyway (e.g. to check accuracy)");
  return success();
}

LogicalResult mlir::pd::runMixedPrecisionPipeline(ModuleOp module, const CompileOptions &opts) {
  if (opts.precision != Precision::BF16)
    return success();
  PassManager pm(module.getContext());
  PdAutoMixedPrecisionPassOptions o;
  o.dtype = "bf16";
  o.allow.assign(opts.precisionAllow.begin(), opts.precisionAllow.end());
  o.deny.assign(opts.precisionDeny.begin(), opts.precisionDeny.end());
  pm.addPass(createPdAutoMixedPrecisionPass(o));
  // The oneDNN bf16 kernels convert f32 activations themselves.
  pm.addNestedPass<func::FuncOp>(createPdFoldCastsIntoKernelsPass());
  pm.addPass(createCanonicalizerPass());
  return pm.run(module);
}

bool mlir::pd::mixedPrecisionRecord(Operation *op, llvm::json::Object &rec) {
  auto why = op->getAttrOfType<StringAttr>("pd.precision_reason");
  if (!why)
    return false;
  bool low =
      llvm::any_of(op->getResultTypes(), isLow) || llvm::any_of(op->getOperandTypes(), isLow);
  rec["precision"] = low ? "bf16" : "fp32";
  rec["reason"] = why.getValue().str();
  return true;
}

llvm::json::Object mlir::pd::mixedPrecisionSummary(const CompileOptions &opts, int64_t bf16Ops) {
  bool native = targetHasBf16(opts);
  return llvm::json::Object{
      {"bf16_ops", bf16Ops},
      {"emulated", !native},
      {"note", native ? "bf16 products with f32 accumulation (oneDNN)"
                      : "--allow-emulated-bf16: the target CPU has no AVX512_BF16 or AMX-BF16; "
                        "bf16 values are computed in f32 (same results, slower than fp32)"}};
}

//===- HostLibrary.cpp - the host side of every artifact's library -------===//
//
// Whatever the target, an artifact's lib<name>.so is host code the runtime
// calls through `pd_entry` and `pd_arena_bytes`: these steps translate the
// lowered module to LLVM IR with those entry points, compile it for a CPU
// and link it with the support routines (and the kernel library).
//
//===----------------------------------------------------------------------===//

#include "HostLibrary.h"
#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/CodeGen/Target.h"
#include "PaddleMLIR/Runtime/KernelABI.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>
#include <dlfcn.h>

using namespace mlir;
using namespace mlir::pd;

namespace {
LogicalResult fail(ModuleOp m, const Twine &msg) {
  m.emitError(msg);
  return failure();
}

/// `void pd_entry(void **args)`: calls the C interface of @main with
/// args[0] the result descriptor(s) and args[1..] the argument descriptors.
LogicalResult addEntryPoint(llvm::Module &m, StringRef fingerprint) {
  llvm::Function *ciface = m.getFunction("_mlir_ciface_main");
  if (!ciface)
    return failure();
  llvm::LLVMContext &ctx = m.getContext();
  auto *ptr = llvm::PointerType::getUnqual(ctx);
  auto *fn =
      llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false),
                             llvm::GlobalValue::ExternalLinkage, "pd_entry", m);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
  SmallVector<llvm::Value *> args;
  for (unsigned i = 0; i < ciface->arg_size(); ++i) {
    llvm::Value *slot = b.CreateConstGEP1_64(ptr, fn->getArg(0), i);
    args.push_back(b.CreateLoad(ptr, slot));
  }
  b.CreateCall(ciface, args);
  b.CreateRetVoid();

  // `int64_t pd_arena_bytes(void **args)`: same argument array (the arena
  // slot is not read), returns the activation arena size for these inputs.
  llvm::Function *arena = m.getFunction("_mlir_ciface_main_arena_bytes");
  if (!arena)
    return failure();
  auto *i64 = llvm::Type::getInt64Ty(ctx);
  auto *sizeFn = llvm::Function::Create(llvm::FunctionType::get(i64, {ptr}, false),
                                        llvm::GlobalValue::ExternalLinkage, "pd_arena_bytes", m);
  llvm::IRBuilder<> sb(llvm::BasicBlock::Create(ctx, "entry", sizeFn));
  SmallVector<llvm::Value *> sizeArgs;
  for (unsigned i = 0; i < arena->arg_size(); ++i) {
    llvm::Value *slot = sb.CreateConstGEP1_64(ptr, sizeFn->getArg(0), i + 1);
    sizeArgs.push_back(sb.CreateLoad(ptr, slot));
  }
  sb.CreateRet(sb.CreateCall(arena, sizeArgs));
  auto *fp = llvm::ConstantDataArray::getString(ctx, fingerprint);
  new llvm::GlobalVariable(m, fp->getType(), /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, fp, "pd_model_fingerprint");
  // The kernel operand layout the calls were compiled for (the runtime
  // checks it against the kernel library's).
  new llvm::GlobalVariable(m, i64, /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage,
                           llvm::ConstantInt::get(i64, pdk::kKernelAbiVersion), "pd_kernel_abi");
  return success();
}

/// The code's heap buffers go through pointers the runtime sets
/// (lib/Runtime/Heap.h), so it can hold a run to a memory budget: each
/// call of malloc and free (what finalize-memref-to-llvm emits) goes
/// through the exported global pd_heap_<name>, which holds the libc
/// function until the runtime replaces it. Code that also calls another
/// allocator keeps libc's (those blocks would reach the replaced free).
void hookHeap(llvm::Module &m) {
  for (StringRef other : {"aligned_alloc", "realloc", "calloc", "posix_memalign"})
    if (m.getFunction(other))
      return;
  llvm::LLVMContext &ctx = m.getContext();
  auto *ptr = llvm::PointerType::getUnqual(ctx);
  for (StringRef name : {"malloc", "free"}) {
    llvm::Function *f = m.getFunction(name);
    if (!f || !f->isDeclaration() || f->use_empty())
      continue;
    auto *slot = new llvm::GlobalVariable(m, ptr, /*isConstant=*/false,
                                          llvm::GlobalValue::ExternalLinkage, f, "pd_heap_" + name);
    auto *hook = llvm::Function::Create(f->getFunctionType(), llvm::GlobalValue::InternalLinkage,
                                        "pd_heap_call_" + name, m);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", hook));
    SmallVector<llvm::Value *> args;
    for (llvm::Argument &a : hook->args())
      args.push_back(&a);
    llvm::CallInst *call = b.CreateCall(f->getFunctionType(), b.CreateLoad(ptr, slot), args);
    if (f->getReturnType()->isVoidTy())
      b.CreateRetVoid();
    else
      b.CreateRet(call);
    f->replaceUsesWithIf(hook, [](llvm::Use &u) { return isa<llvm::CallBase>(u.getUser()); });
  }
}

} // namespace

LogicalResult mlir::pd::host::resolveCpu(ModuleOp where, StringRef requested, std::string &cpu,
                                         std::string &features) {
  llvm::InitializeNativeTarget();
  features.clear();
  if (requested == "host") {
    cpu = llvm::sys::getHostCPUName().str();
    for (const auto &f : llvm::sys::getHostCPUFeatures())
      features +=
          (features.empty() ? "" : ",") + std::string(f.second ? "+" : "-") + f.first().str();
    return success();
  }
  cpu = requested.str();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  // Asked of a generic subtarget: one made for an unknown CPU would warn.
  std::unique_ptr<llvm::MCSubtargetInfo> sti(target ? target->createMCSubtargetInfo(triple, "", "")
                                                    : nullptr);
  if (sti && sti->isCPUStringValid(cpu))
    return success();
  return fail(where, "--cpu '" + cpu + "' is not a CPU LLVM knows for " + triple.str() +
                         " (use host, x86-64-v2, x86-64-v3, x86-64-v4 or a name such as "
                         "skylake-avx512 or znver4)");
}

std::unique_ptr<llvm::Module> mlir::pd::host::translate(ModuleOp lowered, StringRef fingerprint,
                                                        llvm::LLVMContext &llvmCtx) {
  registerBuiltinDialectTranslation(*lowered.getContext());
  registerLLVMDialectTranslation(*lowered.getContext());
  // A cuda artifact's kernels (gpu.binary) and their launches.
  registerGPUDialectTranslation(*lowered.getContext());
  registerNVVMDialectTranslation(*lowered.getContext());
  std::unique_ptr<llvm::Module> m = translateModuleToLLVMIR(lowered, llvmCtx, "paddle_mlir_model");
  if (!m) {
    (void)fail(lowered, "cannot translate the lowered module to LLVM IR");
    return nullptr;
  }
  // With dynamic dims @main reads its arena offsets from a table this
  // function fills; inlined, the offset arithmetic would land in @main's
  // entry block and make LLVM's loop analyses crawl (pd-plan-memory).
  if (llvm::Function *offsets = m->getFunction("main_arena_offsets"))
    offsets->addFnAttr(llvm::Attribute::NoInline);
  // The same for the op functions pd-outline-ops made: inlined back, @main
  // would be one giant function again.
  for (llvm::Function &f : *m)
    if (f.getName().starts_with(kOutlinedPrefix))
      f.addFnAttr(llvm::Attribute::NoInline);
  if (failed(addEntryPoint(*m, fingerprint))) {
    (void)fail(lowered, "the lowered module has no C interface for @main or @main_arena_bytes");
    return nullptr;
  }
  hookHeap(*m);
  return m;
}

LogicalResult mlir::pd::host::emitObject(ModuleOp lowered, StringRef fingerprint, StringRef objPath,
                                         StringRef requestedCpu, std::string &cpu,
                                         bool unrollLoops) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::LLVMContext llvmCtx;
  std::unique_ptr<llvm::Module> m = translate(lowered, fingerprint, llvmCtx);
  if (!m)
    return failure();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return fail(lowered, "no LLVM target for " + triple.str() + ": " + error);
  std::string features;
  if (failed(resolveCpu(lowered, requestedCpu, cpu, features)))
    return failure();
  llvm::TargetOptions topts;
  std::unique_ptr<llvm::TargetMachine> tm(
      target->createTargetMachine(triple, cpu, features, topts, llvm::Reloc::PIC_, std::nullopt,
                                  llvm::CodeGenOptLevel::Aggressive));
  if (!tm)
    return fail(lowered, "cannot create a target machine for " + cpu);
  m->setTargetTriple(triple);
  m->setDataLayout(tm->createDataLayout());
  // LLVM -O3 (the tuning MLIR's makeOptimizingTransformer uses), with the
  // loop unroller optional: a train step's generated loops run faster
  // without it, as fully unrolled short inner loops (a channel block's 16
  // lanes, a 7-wide row) leave LLVM vectorizing the loop around them with
  // gathers (docs/CodeGen.md).
  {
    llvm::PipelineTuningOptions pto;
    pto.LoopUnrolling = unrollLoops;
    pto.LoopInterleaving = true;
    pto.LoopVectorization = true;
    pto.SLPVectorization = true;
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(tm.get(), pto);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    mpm.run(*m, mam);
  }
  std::error_code ec;
  llvm::ToolOutputFile out(objPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return fail(lowered, "cannot write '" + objPath + "': " + ec.message());
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, out.os(), nullptr, llvm::CodeGenFileType::ObjectFile))
    return fail(lowered, "the target cannot emit object files");
  pm.run(*m);
  out.keep();
  return success();
}

namespace {
/// Support routines the lowered code may call, linked into every model
/// library so artifacts need nothing but libc and libm at run time.
const char *kSupportSource = R"c(
#include <stdint.h>
#include <string.h>
typedef struct { int64_t rank; void *descriptor; } UnrankedMemRef;
/* Strided copy between two memrefs of the same shape (MLIR's memrefCopy). */
void memrefCopy(int64_t elemSize, UnrankedMemRef *src, UnrankedMemRef *dst) {
  int64_t rank = src->rank;
  int64_t *s = (int64_t *)src->descriptor, *d = (int64_t *)dst->descriptor;
  char *sp = (char *)(intptr_t)s[1] + s[2] * elemSize;
  char *dp = (char *)(intptr_t)d[1] + d[2] * elemSize;
  int64_t *sizes = s + 3, *sstr = s + 3 + rank, *dstr = d + 3 + rank;
  int64_t n = 1, k;
  for (k = 0; k < rank; ++k)
    n *= sizes[k];
  int64_t idx[rank > 0 ? rank : 1];
  memset(idx, 0, sizeof(idx));
  for (int64_t e = 0; e < n; ++e) {
    int64_t so = 0, doff = 0;
    for (k = 0; k < rank; ++k) {
      so += idx[k] * sstr[k];
      doff += idx[k] * dstr[k];
    }
    memcpy(dp + doff * elemSize, sp + so * elemSize, elemSize);
    for (k = rank - 1; k >= 0; --k) {
      if (++idx[k] < sizes[k])
        break;
      idx[k] = 0;
    }
  }
}
)c";
} // namespace

namespace {
/// A runtime library artifacts link: $<env>, else one beside the binary
/// holding this code (the Python package installs it there), else
/// <bin>/../lib of the compiler, else the build tree's `built`.
std::string runtimeLibrary(StringRef file, const char *env, StringRef built) {
  if (const char *path = std::getenv(env))
    return path;
  SmallVector<std::string> dirs;
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&runtimeLibrary), &info) && info.dli_fname)
    dirs.push_back(llvm::sys::path::parent_path(info.dli_fname).str());
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, (void *)&runtimeLibrary);
  if (!exe.empty())
    dirs.push_back(
        (llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)) + "/lib").str());
  for (const std::string &d : dirs) {
    SmallString<256> p(d);
    llvm::sys::path::append(p, file);
    if (llvm::sys::fs::exists(p))
      return p.str().str();
  }
  return built.str();
}
} // namespace

std::string mlir::pd::kernelsLibraryPath() {
  return runtimeLibrary("libpdrt_kernels.so", "PADDLE_MLIR_KERNELS_LIB", PADDLE_MLIR_KERNELS_LIB);
}

std::string mlir::pd::cudaRuntimeLibraryPath() {
  return runtimeLibrary("libpdrt_cuda.so", "PADDLE_MLIR_CUDA_RUNTIME_LIB",
                        PADDLE_MLIR_CUDA_RUNTIME_LIB);
}

std::string mlir::pd::mpiBackendLibraryPath() {
  std::string path = runtimeLibrary("libpdrt_mpi.so", "PADDLE_MLIR_MPI_LIB", PADDLE_MLIR_MPI_LIB);
  return llvm::sys::fs::exists(path) ? path : std::string();
}

std::string mlir::pd::ncclBackendLibraryPath() {
  std::string path =
      runtimeLibrary("libpdrt_nccl.so", "PADDLE_MLIR_NCCL_LIB", PADDLE_MLIR_NCCL_LIB);
  return llvm::sys::fs::exists(path) ? path : std::string();
}

namespace {
/// `runtimes`: the runtime libraries to link (copied into the artifact and
/// found there through $ORIGIN), if any.
LogicalResult linkShared(ModuleOp m, StringRef obj, StringRef so, StringRef support,
                         ArrayRef<std::string> runtimes) {
  auto cc = llvm::sys::findProgramByName("cc");
  if (!cc)
    return fail(m, "cannot find the system C compiler 'cc' to link the shared library");
  std::string err;
  SmallVector<StringRef> args = {*cc, "-shared", "-fPIC", "-O2", "-o", so, obj, support, "-lm"};
  SmallVector<std::string> libs;
  for (const std::string &runtime : runtimes) {
    libs.push_back(
        (llvm::sys::path::parent_path(so) + "/" + llvm::sys::path::filename(runtime)).str());
    if (std::error_code ec = llvm::sys::fs::copy_file(runtime, libs.back()))
      return fail(m, "cannot copy the runtime library '" + runtime +
                         "' into the artifact: " + ec.message());
  }
  // Kept even where the code calls none of a library's functions (a cuda
  // artifact's collectives reach the kernel library through the runtime).
  if (!libs.empty())
    args.push_back("-Wl,--no-as-needed");
  for (const std::string &lib : libs)
    args.push_back(lib);
  if (!libs.empty())
    args.push_back("-Wl,-rpath,$ORIGIN");
  int rc = llvm::sys::ExecuteAndWait(*cc, args, std::nullopt, {}, 0, 0, &err);
  if (rc != 0)
    return fail(m, "linking '" + so + "' failed (" + Twine(rc) + ") " + err);
  return success();
}

/// `dir`/`file`.
std::string pathIn(StringRef dir, const Twine &file) {
  SmallString<256> p(dir);
  llvm::sys::path::append(p, file);
  return p.str().str();
}
} // namespace

LogicalResult mlir::pd::host::buildLibrary(ModuleOp lowered, StringRef outDir, StringRef name,
                                           StringRef fingerprint, StringRef requestedCpu,
                                           ArrayRef<std::string> runtimes, std::string &cpu,
                                           bool unrollLoops) {
  std::string obj = pathIn(outDir, name + ".o"), so = pathIn(outDir, "lib" + name + ".so");
  std::string support = pathIn(outDir, name + "_support.c");
  if (llvm::Error err = llvm::writeToOutput(support, [&](raw_ostream &os) {
        os << kSupportSource;
        return llvm::Error::success();
      }))
    return fail(lowered, "cannot write '" + support + "': " + llvm::toString(std::move(err)));
  LogicalResult built =
      success(succeeded(emitObject(lowered, fingerprint, obj, requestedCpu, cpu, unrollLoops)) &&
              succeeded(linkShared(lowered, obj, so, support, runtimes)));
  llvm::sys::fs::remove(obj);
  llvm::sys::fs::remove(support);
  return built;
}

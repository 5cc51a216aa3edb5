//===- fuzz_compile.cpp - libFuzzer target: small programs -> LLVM IR ----===//
//
// The structured generator (ProgramGen.h) turns the input into a small
// Paddle program with parameters; it is imported (shape inference and the
// pd verifiers reject what is invalid) and what imports goes through
// compileToLLVMIR: the same option checks, graph and codegen pipelines and
// LLVM IR translation paddle-compile runs, without the object file and the
// link. The first byte chooses compile options (graph optimizations,
// memory plan, kernels, threads, and binding the dynamic input dims). Any
// crash, sanitizer report or invalid LLVM module is a bug; a diagnostic is
// a fine answer.

#include "ProgramGen.h"

#include "PaddleMLIR/Driver/Driver.h"
#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Frontend/Paddle/PaddleImport.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace fz = paddle_mlir::fuzz;
using namespace mlir;

namespace {
const DialectRegistry &registry() {
  static const DialectRegistry *r = [] {
    auto *reg = new DialectRegistry;
    registerAllDialects(*reg);
    registerAllExtensions(*reg);
    registerAllToLLVMIRTranslations(*reg);
    pd::registerPaddleImportDialects(*reg);
    pd::registerCodeGenPassesAndPipelines();
    return reg;
  }();
  return *r;
}

const std::string &scratchDir() {
  static const std::string dir = [] {
    std::string d = "/tmp/paddle-mlir-fuzz-compile-" + std::to_string(getpid());
    mkdir(d.c_str(), 0700);
    return d;
  }();
  return dir;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  uint8_t flags = data[0];
  fz::FuzzInput in(data + 1, size - 1);
  fz::GeneratedModel model = fz::ProgramGenerator(in).generate();
  const std::string &dir = scratchDir();
  fz::writeBytes(dir + "/m.pdmodel", model.program);
  fz::writeBytes(dir + "/m.pdiparams", model.params);

  MLIRContext ctx(registry());
  ctx.disableMultithreading();
  // PADDLE_MLIR_FUZZ_TRACE=1: say how far each input got, with the first
  // diagnostic (to see what the generator reaches).
  static const bool trace = getenv("PADDLE_MLIR_FUZZ_TRACE");
  std::string firstError;
  ctx.getDiagEngine().registerHandler([&](Diagnostic &d) {
    if (trace && firstError.empty())
      firstError = d.str();
  });
  OwningOpRef<ModuleOp> module = pd::importPaddleModel(&ctx, dir + "/m.pdmodel");
  if (!module) {
    if (trace)
      fprintf(stderr, "fuzz_compile: import failed: %s\n", firstError.c_str());
    return 0;
  }

  pd::CompileOptions opts;
  opts.optimize = !(flags & 1);
  opts.memoryPlan = !(flags & 2);
  opts.kernels = flags & 4 ? pd::KernelLibrary::None : pd::KernelLibrary::OneDNN;
  opts.parallel = flags & 8;
  opts.convLayout = static_cast<pd::ConvLayout>((flags >> 4) & 3);
  opts.cpu = "x86-64"; // the same code on every fuzzing machine
  if (flags & 64) {    // bind every dynamic input dim, as --input-shape does
    auto main = module->lookupSymbol<func::FuncOp>("main");
    for (unsigned i = 0; main && i < main.getNumArguments(); ++i) {
      auto name = main.getArgAttrOfType<StringAttr>(i, "pd.name");
      auto type = dyn_cast<RankedTensorType>(main.getArgument(i).getType());
      if (!name || !type)
        continue;
      std::vector<int64_t> dims;
      for (int64_t d : type.getShape())
        dims.push_back(ShapedType::isDynamic(d) ? 1 + (flags >> 7) : d);
      opts.inputShapes[name.getValue().str()] = dims;
    }
  }
  llvm::LLVMContext llvmCtx;
  std::unique_ptr<llvm::Module> ir = pd::compileToLLVMIR(*module, opts, llvmCtx);
  if (trace)
    fprintf(stderr, "fuzz_compile: %s%s\n",
            ir ? "compiled" : "compile failed: ", firstError.c_str());
  if (ir && llvm::verifyModule(*ir, &llvm::errs())) {
    fprintf(stderr, "fuzz_compile: the compiler produced an invalid LLVM module\n");
    abort();
  }
  return 0;
}

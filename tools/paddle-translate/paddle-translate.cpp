//===- paddle-translate.cpp - import/export of model formats -------------===//
//
//   paddle-translate --import-paddle MODEL [--params FILE] [--emit-bytecode] [-o OUT.mlir]
//   paddle-translate --import-onnx FILE [-o OUT.mlir]
//   paddle-translate --export-paddle IN.mlir -o DIR
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Dialect/Pd/IR/PdDialect.h"
#include "PaddleMLIR/Frontend/ONNX/OnnxImport.h"
#include "PaddleMLIR/Frontend/Paddle/PaddleExport.h"
#include "PaddleMLIR/Frontend/Paddle/PaddleImport.h"
#include "PaddleMLIR/Support/Diagnostics.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("paddle-translate options");
static cl::opt<std::string> importPaddle("import-paddle",
                                         cl::desc("Import a Paddle model (__model__, *.pdmodel, "
                                                  "or a directory holding either)"),
                                         cl::value_desc("MODEL"), cl::cat(category));
static cl::opt<std::string> paramsFile("params", cl::desc("Combined parameter file of the model"),
                                       cl::value_desc("FILE"), cl::cat(category));
static cl::opt<std::string> importOnnx("import-onnx", cl::desc("Import an ONNX model"),
                                       cl::value_desc("FILE"), cl::cat(category));
static cl::opt<std::string> exportPaddle("export-paddle",
                                         cl::desc("Export a pd module (.mlir) as a Paddle 2.x "
                                                  "model into the -o directory"),
                                         cl::value_desc("IN.mlir"), cl::cat(category));
static cl::opt<bool> emitBytecode("emit-bytecode",
                                  cl::desc("Write MLIR bytecode (weights stay binary; faster "
                                           "for large models)"),
                                  cl::cat(category));
static cl::opt<std::string> output("o", cl::desc("Output file (import) or directory (export)"),
                                   cl::value_desc("PATH"), cl::init("-"), cl::cat(category));

static int fail(const Twine &msg) {
  llvm::errs() << "paddle-translate: error: " << msg << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "paddle-mlir model import/export\n");

  int modes = !importPaddle.empty() + !importOnnx.empty() + !exportPaddle.empty();
  if (modes != 1)
    return fail("give exactly one of --import-paddle, --import-onnx, --export-paddle");

  DialectRegistry registry;
  registry.insert<pd::PdDialect, func::FuncDialect, ml_program::MLProgramDialect,
                  arith::ArithDialect>();
  MLIRContext ctx(registry);
  llvm::SourceMgr sourceMgr;
  pd::ToolDiagnosticHandler handler(&ctx);

  if (!importPaddle.empty() || !importOnnx.empty()) {
    if (!importOnnx.empty() && !paramsFile.empty())
      return fail("--params is for Paddle models, not --import-onnx");
    OwningOpRef<ModuleOp> module = importOnnx.empty()
                                       ? pd::importPaddleModel(&ctx, importPaddle, paramsFile)
                                       : pd::importOnnxModel(&ctx, importOnnx);
    if (!module)
      return 1;
    std::string error;
    auto out = openOutputFile(output, &error);
    if (!out)
      return fail(error);
    if (emitBytecode) {
      if (failed(writeBytecodeToFile(*module, out->os())))
        return fail("cannot write bytecode");
    } else {
      module->print(out->os());
      out->os() << "\n";
    }
    out->keep();
    return 0;
  }

  if (output == "-")
    return fail("--export-paddle needs -o DIR");
  std::string error;
  // Bytecode (--emit-bytecode) keeps the weights 64-byte aligned in the
  // file and is only read from a buffer aligned as much.
  auto file = openInputFile(exportPaddle, llvm::Align(64), &error);
  if (!file)
    return fail(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module)
    return 1;
  return failed(pd::exportPaddleModel(*module, output)) ? 1 : 0;
}

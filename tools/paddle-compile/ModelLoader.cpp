//===- ModelLoader.cpp - model loading shared by the compiler tools ------===//

#include "ModelLoader.h"

#include "PaddleMLIR/Frontend/ONNX/OnnxImport.h"
#include "PaddleMLIR/Frontend/Paddle/PaddleImport.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::pd::tool {
DialectRegistry compilerRegistry() {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerPaddleImportDialects(registry);
  registerOnnxImportDialects(registry);
  return registry;
}

OwningOpRef<ModuleOp> loadModel(MLIRContext *ctx, const std::string &path,
                                const std::string &params) {
  llvm::StringRef p(path);
  if (p.ends_with(".mlir") || p.ends_with(".mlirbc")) {
    llvm::SourceMgr sm;
    std::string error;
    // Bytecode keeps the weights 64-byte aligned: read it into a buffer
    // aligned as much.
    auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/true,
                                            /*IsVolatile=*/false, llvm::Align(64));
    if (!file) {
      emitError(UnknownLoc::get(ctx)) << "cannot read '" << path << "'";
      return nullptr;
    }
    sm.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
    return parseSourceFile<ModuleOp>(sm, ctx);
  }
  if (isOnnxPath(p)) {
    if (!params.empty()) {
      emitError(UnknownLoc::get(ctx))
          << "--params is for Paddle models; '" << path << "' is an ONNX model";
      return nullptr;
    }
    return importOnnxModel(ctx, path);
  }
  return importPaddleModel(ctx, path, params);
}

bool parseShapeSpec(const std::string &spec, std::string &name, std::vector<int64_t> &dims,
                    std::string &error) {
  auto [n, rest] = llvm::StringRef(spec).split('=');
  if (n.empty() || rest.empty()) {
    error = "expected NAME=DIMS, e.g. image=1x3x224x224";
    return false;
  }
  name = n.str();
  llvm::SmallVector<llvm::StringRef> parts;
  rest.split(parts, 'x');
  for (llvm::StringRef part : parts) {
    int64_t d;
    if (part.getAsInteger(10, d) || d <= 0) {
      error = "'" + part.str() + "' is not a positive dim";
      return false;
    }
    dims.push_back(d);
  }
  return true;
}
} // namespace mlir::pd::tool

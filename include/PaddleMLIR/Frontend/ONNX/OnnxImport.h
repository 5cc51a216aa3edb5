//===- OnnxImport.h - ONNX model -> pd dialect ------------------*- C++ -*-===//
#ifndef PADDLEMLIR_FRONTEND_ONNX_ONNXIMPORT_H
#define PADDLEMLIR_FRONTEND_ONNX_ONNXIMPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::pd {
/// Imports an ONNX model file (opsets 7 to 17) into a pd module with @main:
/// initializers become ml_program globals, graph inputs that are not
/// initializers become arguments (symbolic dims -> ?), outputs results.
/// Unsupported ops or attribute values are reported on the node (name, op
/// type, opset) and the import fails.
OwningOpRef<ModuleOp> importOnnxModel(MLIRContext *ctx, llvm::StringRef path);

/// True when `path` looks like an ONNX model (by its .onnx extension).
bool isOnnxPath(llvm::StringRef path);

void registerOnnxImportDialects(DialectRegistry &registry);
} // namespace mlir::pd

#endif // PADDLEMLIR_FRONTEND_ONNX_ONNXIMPORT_H

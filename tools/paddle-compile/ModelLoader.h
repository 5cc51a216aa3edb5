//===- ModelLoader.h - shared by paddle-compile and paddle-run -*- C++ -*-===//
#ifndef PADDLEMLIR_TOOLS_MODELLOADER_H
#define PADDLEMLIR_TOOLS_MODELLOADER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace mlir::pd::tool {
/// The dialects and interface models the compiler needs.
DialectRegistry compilerRegistry();
/// Loads a Paddle model (path or directory) or a .mlir/.mlirbc pd module.
OwningOpRef<ModuleOp> loadModel(MLIRContext *ctx, const std::string &path,
                                const std::string &params);
/// Parses "NAME=1x3x224x224" into the name and dims.
bool parseShapeSpec(const std::string &spec, std::string &name, std::vector<int64_t> &dims,
                    std::string &error);
} // namespace mlir::pd::tool

#endif

//===- Constants.h - parameter data shared by the fusion passes -*- C++ -*-===//
//
// Reading the data of parameters (ml_program globals holding dense_resource
// or dense attributes) and writing folded data back as new globals.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_LIB_DIALECT_PD_TRANSFORMS_CONSTANTS_H
#define PADDLEMLIR_LIB_DIALECT_PD_TRANSFORMS_CONSTANTS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::pd {
/// The raw little-endian bytes of the static-shaped constant global read by
/// `v` (through ml_program.global_load_const), if any.
std::optional<std::vector<char>> constantBytes(Value v);

/// The f32 data of a constant global read by `v`, if any.
std::optional<std::vector<float>> constantData(Value v);

/// A new private global named after `base` (made unique) holding `bytes`
/// as a dense_resource, loaded right before `before`.
Value newConstantBytes(OpBuilder &builder, Operation *before, StringRef base, RankedTensorType type,
                       ArrayRef<char> bytes);

/// Same, for f32 data.
Value newConstant(OpBuilder &builder, Operation *before, StringRef base, RankedTensorType type,
                  ArrayRef<float> data);

/// Erases the globals nothing reads any more (weights a fusion replaced).
void eraseUnusedGlobals(ModuleOp module);

/// The name of the global `v` loads, or `fallback`.
std::string globalName(Value v, StringRef fallback);
} // namespace mlir::pd

#endif // PADDLEMLIR_LIB_DIALECT_PD_TRANSFORMS_CONSTANTS_H

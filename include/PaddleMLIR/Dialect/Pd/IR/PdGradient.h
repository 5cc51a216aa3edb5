//===- PdGradient.h - gradient rules of pd ops -------------------*- C++ -*-===//
//
// The PdGradient op interface and the GradientBuilder its rules write
// through: the incoming gradients of one op, which operands need a
// gradient, the gradients the rule produced, and helpers that build pd ops
// with inferred result types (docs/Training.md).
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_DIALECT_PD_IR_PDGRADIENT_H
#define PADDLEMLIR_DIALECT_PD_IR_PDGRADIENT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::pd {
class GradientBuilder;
} // namespace mlir::pd

#include "PaddleMLIR/Dialect/Pd/IR/PdGradient.h.inc"

namespace mlir::pd {
class GradientBuilder {
public:
  /// `resultGrads` has one entry per result of `op` (null: no gradient
  /// reaches it); `needed` one per operand.
  GradientBuilder(OpBuilder &builder, Operation *op, ArrayRef<Value> resultGrads,
                  ArrayRef<bool> needed);

  Operation *getOp() const { return op; }
  OpBuilder &getBuilder() { return b; }
  Location getLoc() const { return loc; }

  /// The gradient of result `i`, or null when none reaches it.
  Value resultGrad(unsigned i) const { return resultGrads[i]; }
  /// Whether operand `i` needs a gradient (it depends on a parameter).
  bool needs(unsigned i) const { return needed[i]; }
  /// Records the gradient of operand `i` (summed with one recorded before).
  void setGrad(unsigned i, Value grad);
  ArrayRef<Value> operandGrads() const { return grads; }

  /// An error on the op, for uses its rule does not cover.
  InFlightDiagnostic emitError();

  /// Creates OpT from its builder arguments after the result types, with
  /// placeholder result types that are then inferred (PdShapeInference).
  template <typename OpT, typename... Args> Value make(Args &&...args) {
    return infer(OpT::create(b, loc, placeholder(), std::forward<Args>(args)...).getOperation());
  }
  /// Infers the result types of a pd op built with placeholders; returns
  /// result 0.
  Value infer(Operation *created);

  // Elementwise arithmetic. `axis` is Paddle's: where y's dims start in x's
  // (-1: trailing).
  Value add(Value x, Value y, int32_t axis = -1);
  Value sub(Value x, Value y, int32_t axis = -1);
  Value mul(Value x, Value y, int32_t axis = -1);
  Value div(Value x, Value y, int32_t axis = -1);
  /// scale * x + bias.
  Value scale(Value x, double scale, double bias = 0.0);
  /// A tensor of x's type filled with `value`.
  Value full(Value like, double value);
  Value select(Value cond, Value x, Value y);
  Value greater(Value x, Value y);
  Value less(Value x, Value y);
  /// Sum over `dims`, keeping them as size 1.
  Value sumKeep(Value x, ArrayRef<int32_t> dims);
  Value reshape(Value x, ArrayRef<int64_t> shape);
  Value transpose(Value x, ArrayRef<int32_t> perm);
  Value matmul(Value x, Value y, bool transX, bool transY);
  /// The gradient `grad` of a broadcast result summed back to `operand`'s
  /// shape: `operand`'s dims sit in `grad`'s from dim `offset`; dims it
  /// lacks or has as 1 where `grad` does not are summed.
  Value sumToShape(Value grad, Value operand, int64_t offset);

private:
  Type placeholder();

  OpBuilder &b;
  Operation *op;
  Location loc;
  SmallVector<Value> resultGrads;
  SmallVector<bool> needed;
  SmallVector<Value> grads;
};

/// Where operand y of a Paddle elementwise op with operand ranks `xRank`,
/// `yRank` and attribute `axis` starts in the result's dims (and x's, which
/// starts at 0 unless y has the higher rank).
int64_t elementwiseOffset(int64_t bigRank, int64_t smallRank, int32_t axis);

/// Attaches the gradient rules to the pd ops (PdDialect::initialize).
void attachGradientRules(MLIRContext *ctx);
} // namespace mlir::pd

#endif // PADDLEMLIR_DIALECT_PD_IR_PDGRADIENT_H

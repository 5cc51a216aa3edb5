//===- Calibration.h - the IR side of int8 calibration ----------*- C++ -*-===//
//
// Post-training quantization (docs/Quantization.md, "Calibration"): the
// layers pd-quantize can run in int8, the activation tensors they read
// (named so calibration statistics and caches can refer to them), and the
// per-tensor quantizers calibration inserts in front of them, which
// pd-quantize then turns into int8 kernels like a QAT program's own.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_DIALECT_PD_TRANSFORMS_CALIBRATION_H
#define PADDLEMLIR_DIALECT_PD_TRANSFORMS_CALIBRATION_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <set>
#include <string>

namespace mlir::pd {
/// A convolution or matrix product of @main (conv2d, depthwise_conv2d,
/// fused_conv2d, fc, mul, matmul_v2) that may compute in int8, with the
/// float activation it reads (its first operand), for a product of two
/// activations (a matmul whose Y is no model constant) the second one, for
/// a fused convolution the float residual it adds, and its number
/// (attribute `pd.layer`, program order from 0).
struct QuantLayer {
  Operation *op;
  int64_t id;
  Value activation;
  Value second = {};
  Value residual = {};

  /// The float tensors calibration observes for this layer, in that order
  /// (the ones it has).
  SmallVector<Value, 3> tensors() const {
    SmallVector<Value, 3> r{activation};
    for (Value v : {second, residual})
      if (v)
        r.push_back(v);
    return r;
  }
};

/// Numbers the candidate ops of @main (overwriting any `pd.layer`).
SmallVector<QuantLayer> assignQuantLayers(ModuleOp module);
/// The numbered candidate ops of @main, in program order.
SmallVector<QuantLayer> collectQuantLayers(ModuleOp module);

/// A name for every activation the layers read: the Paddle variable (from
/// the location of the op that writes it, or @main's argument name), made
/// unique with "#2", "#3", ... Stable for a given module.
llvm::DenseMap<Value, std::string> activationNames(ArrayRef<QuantLayer> layers);

/// The first Paddle variable in an op's location (the importer's
/// "conv2d #7 -> conv2d_1.tmp_0"; a fused op carries several), or "".
std::string paddleVariableOf(Operation *op);

/// Whether the program quantizes `activation` itself (a QAT fake quantizer
/// or a quantize/dequantize pair writes it): calibration leaves it alone.
bool hasProgramQuantizer(Value activation);

/// A pd.quantize -> pd.dequantize pair on `v` (zero point 0, `step`,
/// uint8 or int8), right after `v` is defined; returns the float value it
/// gives back.
Value quantizeDequantize(OpBuilder &b, Value v, float step, bool isUnsigned);

/// The quantizer calibration chose for one activation tensor.
struct ActivationRange {
  double threshold = 0;    ///< clipping threshold T (> 0)
  bool isUnsigned = false; ///< never negative: uint8 with step T/255, else int8 with T/127
};

/// Inserts pd.quantize -> pd.dequantize (tagged `pd.calibrated`) in front
/// of every layer whose activation has a range in `ranges` (and of a
/// product's second activation, always int8, and of a fused conv's
/// residual), except the
/// layers numbered in `fp32Layers`, which get `pd.quant_fallback` = the
/// reason given there. Returns how many layers got a quantizer.
int64_t insertActivationQuantizers(ModuleOp module,
                                   const std::map<std::string, ActivationRange> &ranges,
                                   const std::map<int64_t, std::string> &fp32Layers);

/// Whether `op` matches one of `patterns` (--quantize-exclude/-include):
/// each a glob (`*`, `?`, `[...]`) over the op type (conv2d, fc, ...) or a
/// Paddle variable the op writes (from its location). A pattern that is not
/// a valid glob matches literally.
bool matchesOpPattern(Operation *op, ArrayRef<std::string> patterns);

/// Whether `op` is the model's final classifier (or another last layer): no
/// convolution, matrix product or attention block is downstream of it.
bool isFinalComputeOp(Operation *op);

/// Appends `values` to @main's results, named (pd.name) `names`.
void appendMainResults(ModuleOp module, ArrayRef<Value> values, ArrayRef<std::string> names);
} // namespace mlir::pd

#endif // PADDLEMLIR_DIALECT_PD_TRANSFORMS_CALIBRATION_H

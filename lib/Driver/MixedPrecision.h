//===- MixedPrecision.h - --precision bf16 steps of compileToArtifact -*- C++ -*-===//
//
// The option checks, the pd-auto-mixed-precision run and the manifest
// records of `--precision bf16` (docs/MixedPrecision.md), kept apart from
// Artifact.cpp, which calls them from its named steps.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_LIB_DRIVER_MIXEDPRECISION_H
#define PADDLEMLIR_LIB_DRIVER_MIXEDPRECISION_H

#include "PaddleMLIR/Driver/CompileOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

namespace mlir::pd {
/// Whether the CPU the artifact is built for (`opts.cpu`: the host, or an
/// LLVM CPU name) has bf16 arithmetic: AVX512_BF16 or AMX-BF16. The
/// environment variable PADDLE_MLIR_ASSUME_NO_BF16=1 says no (tests).
bool targetHasBf16(const CompileOptions &opts);

/// Refuses what --precision bf16 / fp16 cannot build: fp16 on the CPU
/// target, bf16 without oneDNN kernels, bf16 for a CPU without bf16
/// arithmetic unless --allow-emulated-bf16.
LogicalResult checkMixedPrecisionOptions(ModuleOp module, const CompileOptions &opts);

/// --precision bf16: pd-auto-mixed-precision with the user's allow / deny
/// lists (nothing otherwise).
LogicalResult runMixedPrecisionPipeline(ModuleOp module, const CompileOptions &opts);

/// Fills `rec` (one compute op's manifest record) when pd-auto-mixed-
/// precision decided the op: its "precision" (bf16, or fp32) and "reason".
/// False when it did not (then the caller's record stands).
bool mixedPrecisionRecord(Operation *op, llvm::json::Object &rec);

/// The manifest's summary of --precision bf16: whether the bf16 arithmetic
/// is emulated in f32 (no AVX512_BF16 / AMX on the target CPU).
llvm::json::Object mixedPrecisionSummary(const CompileOptions &opts, int64_t bf16Ops);
} // namespace mlir::pd

#endif // PADDLEMLIR_LIB_DRIVER_MIXEDPRECISION_H

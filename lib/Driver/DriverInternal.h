//===- ArtifactInternal.h - steps of compileToArtifact shared by files -*- C++ -*-===//
//
// Artifact.cpp writes artifacts; Calibrate.cpp compiles and runs helper
// artifacts (calibration, per-layer probes, accuracy trials) on the way to
// the int8 one, through writeArtifact.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_LIB_DRIVER_DRIVERINTERNAL_H
#define PADDLEMLIR_LIB_DRIVER_DRIVERINTERNAL_H

#include "PaddleMLIR/Driver/CompileOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/JSON.h"

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace mlir::pd::driver {
/// Writes the artifact of `graph`, a module the graph pipeline already ran
/// on (and, for a calibrated int8 compile, with its quantizers inserted),
/// to `outDir`: pd-quantize under --precision int8, the codegen pipeline,
/// the library, header, weights and manifest. Lowers `graph` in place.
/// `measure`: codegen may time kernels to choose layouts. `quiet`: no
/// warning when nothing was quantized (helper artifacts).
LogicalResult writeArtifact(ModuleOp graph, const CompileOptions &opts, StringRef outDir,
                            bool measure, bool quiet = false);

/// Post-training int8 quantization of the float model `graph` (after the
/// graph pipeline) with the samples of opts.calibrationData: calibrates,
/// measures, applies the accuracy target and inserts the quantizers;
/// writes quant_report.json to `outDir`. Calibrate.cpp.
LogicalResult calibrate(ModuleOp graph, const CompileOptions &opts, StringRef outDir);

/// The numerics check of --precision bf16 (PrecisionCheck.cpp) on the
/// float model `graph` (after the graph pipeline): the names of the ops
/// to keep fp32 so --accuracy-target holds go to `fallbackDeny`, the
/// measured check to `report` (for the manifest).
LogicalResult checkMixedPrecision(ModuleOp graph, const CompileOptions &opts,
                                  std::vector<std::string> &fallbackDeny,
                                  llvm::json::Object &report);

/// The pd-quantize options of `opts` (--quantize-exclude).
void addQuantizePasses(OpPassManager &pm, const CompileOptions &opts);
} // namespace mlir::pd::driver

#endif // PADDLEMLIR_LIB_DRIVER_DRIVERINTERNAL_H

//===- PipelineText.h - pipelines written as pass-pipeline text -*- C++ -*-===//
//
// The targets' pipelines are upstream and pd passes by their registered
// names, so each reads like the mlir-opt command that reproduces a step.
// The text has %-keys for options; fillPipeline substitutes them.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_LIB_CODEGEN_PIPELINETEXT_H
#define PADDLEMLIR_LIB_CODEGEN_PIPELINETEXT_H

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>

namespace mlir::pd {
/// The start every target shares: weights become @main's arguments, pd ->
/// linalg (`kernels`: "onednn" or "none"), `perFunction` (passes on each
/// function, before the elementwise fusion), one-shot bufferization across
/// function boundaries, the passes of `beforePlan` (a target's) and the
/// memory plan (`place`: buffers into the arena; `report`: print the
/// plan). `parallelGradients`: convert-pd-to-linalg's option.
std::string bufferizedLinalgPipeline(llvm::StringRef kernels, llvm::StringRef perFunction,
                                     bool place, bool report, llvm::StringRef beforePlan = "",
                                     bool parallelGradients = false);

/// Parses `text` with each key of `values` replaced by its value into `pm`.
/// A key that is not in the text, or text that does not parse, is a bug of
/// the built-in pipeline `what`: a fatal error.
void addPipelineText(OpPassManager &pm, llvm::StringRef what, std::string text,
                     llvm::ArrayRef<std::pair<llvm::StringRef, std::string>> values);
} // namespace mlir::pd

#endif // PADDLEMLIR_LIB_CODEGEN_PIPELINETEXT_H

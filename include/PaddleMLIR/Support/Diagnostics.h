//===- Diagnostics.h - one-line diagnostics for the command-line tools -*- C++ -*-===//
#ifndef PADDLEMLIR_SUPPORT_DIAGNOSTICS_H
#define PADDLEMLIR_SUPPORT_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::pd {
/// Prints each error/warning as one line, "<file>: <paddle op>: error: <msg>",
/// where the importer's locations name the model file and the Paddle op
/// ("conv2d #3 -> conv2d_0.tmp_0"). Notes (such as the generic form of the
/// failing op) are dropped: users see what and where, not compiler state.
class ToolDiagnosticHandler : public ScopedDiagnosticHandler {
public:
  ToolDiagnosticHandler(MLIRContext *ctx, llvm::raw_ostream &os = llvm::errs());
};
} // namespace mlir::pd

#endif // PADDLEMLIR_SUPPORT_DIAGNOSTICS_H

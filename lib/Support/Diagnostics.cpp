//===- Diagnostics.cpp - one-line diagnostics for the command-line tools -===//

#include "PaddleMLIR/Support/Diagnostics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

using namespace mlir;

static void describe(Location loc, llvm::raw_ostream &os) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    describe(name.getChildLoc(), os);
    os << name.getName().getValue() << ": ";
  } else if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    os << file.getFilename().getValue();
    if (file.getLine() > 0)
      os << ":" << file.getLine() << ":" << file.getColumn();
    os << ": ";
  } else if (auto fused = dyn_cast<FusedLoc>(loc)) {
    if (!fused.getLocations().empty())
      describe(fused.getLocations().front(), os);
  } else if (auto callsite = dyn_cast<CallSiteLoc>(loc)) {
    describe(callsite.getCallee(), os);
  }
}

pd::ToolDiagnosticHandler::ToolDiagnosticHandler(MLIRContext *ctx, llvm::raw_ostream &os)
    : ScopedDiagnosticHandler(ctx) {
  setHandler([&os](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Note ||
        diag.getSeverity() == DiagnosticSeverity::Remark)
      return success();
    describe(diag.getLocation(), os);
    os << (diag.getSeverity() == DiagnosticSeverity::Error ? "error: " : "warning: ") << diag
       << "\n";
    os.flush();
    return success();
  });
}

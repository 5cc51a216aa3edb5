//===- PdToLinalg.cpp - the convert-pd-to-linalg pass ---------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdDialect.h"

#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir::pd {
#define GEN_PASS_DEF_CONVERTPDTOLINALGPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"

namespace {
struct ConvertPdToLinalgPass : impl::ConvertPdToLinalgPassBase<ConvertPdToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addIllegalDialect<PdDialect>();
    target.addLegalDialect<linalg::LinalgDialect, tensor::TensorDialect, arith::ArithDialect,
                           math::MathDialect, func::FuncDialect, ml_program::MLProgramDialect>();
    RewritePatternSet patterns(ctx);
    populatePdElementwiseToLinalgPatterns(patterns);
    populatePdNNToLinalgPatterns(patterns);
    populatePdMatMulToLinalgPatterns(patterns);
    populatePdShapeToTensorPatterns(patterns);
    populatePdGatherToLinalgPatterns(patterns);
    // Name every op that stays illegal, with its own location, so users see
    // which Paddle op the CPU backend cannot compile yet.
    ConversionConfig config;
    // The framework's generic "failed to legalize" is replaced by the
    // per-op error below.
    ScopedDiagnosticHandler filter(ctx, [](Diagnostic &diag) {
      return success(diag.getSeverity() == DiagnosticSeverity::Error &&
                     StringRef(diag.str()).starts_with("failed to legalize"));
    });
    LogicalResult converted =
        applyPartialConversion(getOperation(), target, std::move(patterns), config);
    if (failed(converted)) {
      getOperation().walk([&](Operation *op) {
        if (op->getDialect() && isa<PdDialect>(op->getDialect()))
          op->emitError() << "the CPU backend cannot compile '" << op->getName()
                          << "' with these operand types or attributes yet";
      });
      signalPassFailure();
    }
  }
};
} // namespace
} // namespace mlir::pd

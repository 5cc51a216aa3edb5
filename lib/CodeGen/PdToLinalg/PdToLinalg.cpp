//===- PdToLinalg.cpp - the convert-pd-to-linalg pass ---------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdDialect.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir::pd {
#define GEN_PASS_DEF_CONVERTPDTOLINALGPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"

namespace {
struct ConvertPdToLinalgPass : impl::ConvertPdToLinalgPassBase<ConvertPdToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    if (kernels != "none" && kernels != "onednn") {
      getOperation().emitError("convert-pd-to-linalg: unknown kernels '")
          << kernels << "' (expected none or onednn)";
      return signalPassFailure();
    }
    bool onednn = kernels == "onednn";
    target.addIllegalDialect<PdDialect>();
    target.addLegalOp<KernelCallOp>();
    // Reinterpretations of unsigned (uint8) values as signless in casts.
    target.addLegalOp<UnrealizedConversionCastOp>();
    target.addLegalDialect<linalg::LinalgDialect, tensor::TensorDialect, arith::ArithDialect,
                           math::MathDialect, func::FuncDialect, ml_program::MLProgramDialect,
                           scf::SCFDialect>();
    // Copies that scatter loops update in place (freshCopy).
    target.addLegalOp<bufferization::AllocTensorOp>();
    auto populate = [&](RewritePatternSet &patterns) {
      populatePdElementwiseToLinalgPatterns(patterns);
      populatePdNNToLinalgPatterns(patterns);
      populatePdReductionToLinalgPatterns(patterns);
      populatePdMatMulToLinalgPatterns(patterns);
      populatePdShapeToTensorPatterns(patterns);
      populatePdGatherToLinalgPatterns(patterns);
      populatePdGenerateToLinalgPatterns(patterns);
      populatePdDetectionToLinalgPatterns(patterns);
      populatePdInterpToLinalgPatterns(patterns);
      populatePdQuantToLinalgPatterns(patterns);
      populatePdMetricsToLinalgPatterns(patterns);
      populatePdSamplingToLinalgPatterns(patterns);
      populatePdSequenceToLinalgPatterns(patterns);
      populatePdRecurrentToLinalgPatterns(patterns);
      populatePdTrainToLinalgPatterns(patterns, parallelGradients);
      populatePdControlFlowToScfPatterns(patterns);
      populatePdCollectiveToKernelCallPatterns(patterns);
      populatePdLowPrecisionToF32Patterns(patterns);
      if (onednn)
        populatePdToOneDNNPatterns(patterns);
    };
    numberCollectives(getOperation());
    RewritePatternSet patterns(ctx);
    populate(patterns);
    // The framework's generic "failed to legalize" is replaced by the
    // per-op error below.
    ScopedDiagnosticHandler filter(ctx, [](Diagnostic &diag) {
      return success(diag.getSeverity() == DiagnosticSeverity::Error &&
                     StringRef(diag.str()).starts_with("failed to legalize"));
    });
    LogicalResult converted = applyPartialConversion(getOperation(), target, std::move(patterns));
    if (failed(converted)) {
      // The conversion rolled back; find the ops no pattern can convert and
      // name only those, each with its own (Paddle or ONNX) location.
      DenseSet<Operation *> legalizable;
      ConversionConfig config;
      config.legalizableOps = &legalizable;
      RewritePatternSet again(ctx);
      populate(again);
      {
        // The patterns' own errors were reported by the first attempt.
        ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
        (void)applyAnalysisConversion(getOperation(), target, std::move(again), config);
      }
      bool named = false;
      getOperation().walk([&](Operation *op) {
        if (op->getDialect() && isa<PdDialect>(op->getDialect()) && !isa<KernelCallOp>(op) &&
            !legalizable.contains(op)) {
          op->emitError() << "code generation cannot compile '" << op->getName()
                          << "' with these operand types or attributes yet";
          named = true;
        }
      });
      if (!named)
        getOperation().emitError("convert-pd-to-linalg failed");
      signalPassFailure();
    }
  }
};
} // namespace
} // namespace mlir::pd

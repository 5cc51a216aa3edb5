//===- InferShapes.cpp - the pd-infer-shapes pass ------------------------===//

#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::pd {
#define GEN_PASS_DEF_PDINFERSHAPESPASS
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h.inc"

namespace {
/// The join of two compatible ranked tensor types: each dim static if
/// either is; null when they are incompatible.
Type mostPrecise(Type declared, Type inferred) {
  auto d = dyn_cast<RankedTensorType>(declared);
  auto i = dyn_cast<RankedTensorType>(inferred);
  if (!d || !i || d.getRank() != i.getRank() || d.getElementType() != i.getElementType())
    return nullptr;
  SmallVector<int64_t> dims;
  for (auto [a, b] : llvm::zip(d.getShape(), i.getShape())) {
    if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b)
      return nullptr;
    dims.push_back(ShapedType::isDynamic(a) ? b : a);
  }
  return RankedTensorType::get(dims, d.getElementType(), d.getEncoding());
}

struct PdInferShapesPass : impl::PdInferShapesPassBase<PdInferShapesPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      func.walk([](PdShapeInference op) {
        SmallVector<Type> inferred;
        if (failed(op.inferResultTypes(inferred, /*emitErrors=*/false)) ||
            inferred.size() != op->getNumResults())
          return;
        for (auto [result, type] : llvm::zip(op->getResults(), inferred))
          if (Type refined = mostPrecise(result.getType(), type))
            result.setType(refined);
      });
      // Function results follow what is returned.
      for (Block &block : func.getBody())
        if (auto ret = dyn_cast<func::ReturnOp>(block.getTerminator()))
          func.setFunctionType(
              FunctionType::get(func.getContext(), func.getArgumentTypes(), ret.getOperandTypes()));
    }
  }
};
} // namespace
} // namespace mlir::pd

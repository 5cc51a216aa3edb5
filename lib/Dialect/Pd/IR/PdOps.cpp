//===- PdOps.cpp - pd op definitions and shared shape helpers ------------===//
//
// Includes the generated op classes and holds the pieces every op shares: the
// PdShapeInference verifier, Paddle elementwise broadcasting and the Paddle
// dtype-code mapping.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::pd;

#include "PaddleMLIR/Dialect/Pd/IR/PdInterfaces.cpp.inc"

static bool dimsConflict(int64_t a, int64_t b) {
  return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
}

LogicalResult mlir::pd::verifyInferredTypes(Operation *op) {
  SmallVector<Type> inferred;
  if (failed(cast<PdShapeInference>(op).inferResultTypes(inferred, /*emitErrors=*/true)))
    return failure();
  if (inferred.size() != op->getNumResults())
    return op->emitOpError() << "has " << op->getNumResults() << " results but " << inferred.size()
                             << " were inferred";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(op->getResultTypes(), inferred))) {
    auto [actual, expected] = pair;
    auto a = dyn_cast<RankedTensorType>(actual);
    auto e = dyn_cast<RankedTensorType>(expected);
    // A convolution or matrix product computing in bf16 / f16 may read or
    // write f32 activations (pd-fold-casts-into-kernels): its kernel
    // converts them.
    bool mixed = isa<Conv2dOp, DepthwiseConv2dOp, FusedConv2dOp, FcOp, MatmulV2Op>(op) && a && e &&
                 isa<FloatType>(a.getElementType()) && isa<FloatType>(e.getElementType()) &&
                 (a.getElementType().isF32() || e.getElementType().isF32());
    bool ok =
        a && e && (a.getElementType() == e.getElementType() || mixed) && a.getRank() == e.getRank();
    if (ok)
      for (auto [da, de] : llvm::zip(a.getShape(), e.getShape()))
        ok &= !dimsConflict(da, de);
    if (!ok)
      return op->emitOpError() << "result #" << i << " has type " << actual
                               << " but the inferred type is " << expected;
  }
  return success();
}

LogicalResult mlir::pd::inferBroadcastTypes(Operation *op, Type x, Type y, int64_t axis,
                                            bool boolResult, SmallVectorImpl<Type> &types,
                                            bool emitErrors) {
  auto fail = [&](const Twine &msg) {
    if (emitErrors)
      op->emitOpError(msg);
    return failure();
  };
  auto xt = cast<RankedTensorType>(x), yt = cast<RankedTensorType>(y);
  if (xt.getElementType() != yt.getElementType())
    return fail("operands must have the same element type");
  bool xIsBig = xt.getRank() >= yt.getRank();
  auto big = xIsBig ? xt : yt, small = xIsBig ? yt : xt;
  int64_t rb = big.getRank(), rs = small.getRank();
  int64_t off = axis == -1 ? rb - rs : axis;
  if (off < 0 || off + rs > rb)
    return fail("axis " + Twine(axis) + " cannot align a rank-" + Twine(rs) +
                " operand with a rank-" + Twine(rb) + " operand");
  SmallVector<int64_t> out(big.getShape());
  for (int64_t j = 0; j < rs; ++j) {
    int64_t a = big.getDimSize(off + j), b = small.getDimSize(j);
    if (a == 1)
      out[off + j] = b;
    else if (b == 1)
      out[off + j] = a;
    else if (dimsConflict(a, b))
      return fail("operand shapes are not broadcastable: dim " + Twine(off + j) + " is " +
                  Twine(a) + " vs " + Twine(b));
    else
      out[off + j] = ShapedType::isDynamic(a) ? b : a;
  }
  Type elem = boolResult ? IntegerType::get(op->getContext(), 1) : big.getElementType();
  types.push_back(RankedTensorType::get(out, elem));
  return success();
}

Type mlir::pd::elementTypeFromPaddleDtype(MLIRContext *ctx, int64_t code) {
  Builder b(ctx);
  switch (code) {
  case 0:
    return b.getI1Type();
  case 1:
    return b.getI16Type();
  case 2:
    return b.getI32Type();
  case 3:
    return b.getI64Type();
  case 4:
    return b.getF16Type();
  case 5:
    return b.getF32Type();
  case 6:
    return b.getF64Type();
  case 20:
    return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  case 21:
    return b.getI8Type();
  case 22:
    return b.getBF16Type();
  // paddle-mlir's own codes for the ONNX-only unsigned types (Paddle has
  // no VarType for them; the Paddle exporter refuses them).
  case kUInt16Dtype:
    return IntegerType::get(ctx, 16, IntegerType::Unsigned);
  case kUInt32Dtype:
    return IntegerType::get(ctx, 32, IntegerType::Unsigned);
  case kUInt64Dtype:
    return IntegerType::get(ctx, 64, IntegerType::Unsigned);
  default:
    return nullptr;
  }
}

int64_t mlir::pd::paddleDtypeOf(Type t) {
  // The codes elementTypeFromPaddleDtype maps, each to its type.
  for (int64_t code : {0, 1, 2, 3, 4, 5, 6, 20, 21, 22})
    if (elementTypeFromPaddleDtype(t.getContext(), code) == t)
      return code;
  for (int64_t code : {kUInt16Dtype, kUInt32Dtype, kUInt64Dtype})
    if (elementTypeFromPaddleDtype(t.getContext(), code) == t)
      return code;
  return -1;
}

#define GET_OP_CLASSES
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.cpp.inc"

//===- Utils.cpp - helpers shared by the pd -> linalg patterns -----------===//

#include "Utils.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;

namespace mlir::pd::lowering {

Value idx(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value scalar(OpBuilder &b, Location loc, Type elem, double v) {
  if (auto f = dyn_cast<FloatType>(elem))
    return arith::ConstantOp::create(b, loc, elem, b.getFloatAttr(f, v));
  // Integers saturate to the type's signed range (so +-inf make the
  // identities of max/min reductions).
  unsigned w = elem.getIntOrFloatBitWidth();
  if (w > 1 && w <= 64) {
    APInt lo = APInt::getSignedMinValue(w), hi = APInt::getSignedMaxValue(w);
    if (v <= double(lo.getSExtValue()))
      return arith::ConstantOp::create(b, loc, elem, b.getIntegerAttr(elem, lo));
    if (v >= double(hi.getSExtValue()))
      return arith::ConstantOp::create(b, loc, elem, b.getIntegerAttr(elem, hi));
  }
  return arith::ConstantOp::create(b, loc, elem, b.getIntegerAttr(elem, static_cast<int64_t>(v)));
}

// Converts between element types with arith casts. Unsigned integers
// (uint8 of quantized data) are reinterpreted as signless of the same
// width around the arith ops, which only take signless integers.
Value convertScalar(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  auto reinterpret = [&](Value x, Type t) {
    return UnrealizedConversionCastOp::create(b, loc, t, x).getResult(0);
  };
  if (from.isUnsignedInteger()) {
    Type signless = b.getIntegerType(from.getIntOrFloatBitWidth());
    v = reinterpret(v, signless);
    if (isa<FloatType>(to))
      return arith::UIToFPOp::create(b, loc, to, v);
    if (to.isUnsignedInteger())
      return reinterpret(convertScalar(b, loc, v, b.getIntegerType(to.getIntOrFloatBitWidth())),
                         to);
    if (to.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth())
      return arith::ExtUIOp::create(b, loc, to, v);
    return convertScalar(b, loc, v, to);
  }
  if (to.isUnsignedInteger()) {
    Type signless = b.getIntegerType(to.getIntOrFloatBitWidth());
    Value r = isa<FloatType>(from) ? arith::FPToUIOp::create(b, loc, signless, v).getResult()
                                   : convertScalar(b, loc, v, signless);
    return reinterpret(r, to);
  }
  auto fi = dyn_cast<FloatType>(from), ft = dyn_cast<FloatType>(to);
  if (fi && ft)
    return fi.getWidth() < ft.getWidth() ? arith::ExtFOp::create(b, loc, to, v).getResult()
                                         : arith::TruncFOp::create(b, loc, to, v).getResult();
  auto ii = dyn_cast<IntegerType>(from), it = dyn_cast<IntegerType>(to);
  if (ii && ft)
    return ii.isUnsigned() || ii.getWidth() == 1
               ? arith::UIToFPOp::create(b, loc, to, v).getResult()
               : arith::SIToFPOp::create(b, loc, to, v).getResult();
  if (fi && it) {
    if (it.getWidth() == 1)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v, scalar(b, loc, from, 0));
    return arith::FPToSIOp::create(b, loc, to, v);
  }
  if (it.getWidth() == 1)
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, scalar(b, loc, from, 0));
  if (ii.getWidth() < it.getWidth())
    return ii.isUnsigned() || ii.getWidth() == 1
               ? arith::ExtUIOp::create(b, loc, to, v).getResult()
               : arith::ExtSIOp::create(b, loc, to, v).getResult();
  return arith::TruncIOp::create(b, loc, to, v);
}

Value extractScalar(OpBuilder &b, Location loc, Value t) {
  auto type = cast<RankedTensorType>(t.getType());
  SmallVector<Value> zeros(type.getRank(), arith::ConstantIndexOp::create(b, loc, 0));
  return tensor::ExtractOp::create(b, loc, t, zeros);
}

Value elementCount(OpBuilder &b, Location loc, Value t) {
  Value n = arith::ConstantIndexOp::create(b, loc, 1);
  for (OpFoldResult d : tensor::getMixedSizes(b, loc, t))
    n = arith::MulIOp::create(b, loc, n, getValueOrCreateConstantIndexOp(b, loc, d));
  return n;
}

int64_t valueBytes(Type t) {
  return std::max<int64_t>(1, static_cast<int64_t>(t.getIntOrFloatBitWidth()) / 8);
}

SmallVector<Value> indexElements(OpBuilder &b, Location loc, Value t) {
  auto type = cast<RankedTensorType>(t.getType());
  SmallVector<Value> out;
  if (type.getRank() != 1 || type.isDynamicDim(0))
    return out;
  for (int64_t i = 0; i < type.getDimSize(0); ++i) {
    Value e =
        tensor::ExtractOp::create(b, loc, t, ValueRange{arith::ConstantIndexOp::create(b, loc, i)});
    out.push_back(arith::IndexCastOp::create(b, loc, b.getIndexType(), e));
  }
  return out;
}

SmallVector<Value> dynSizesFrom(OpBuilder &b, Location loc, Value src, RankedTensorType type) {
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      sizes.push_back(tensor::DimOp::create(b, loc, src, i));
  return sizes;
}

FailureOr<SmallVector<Value>> elementwiseDynSizes(OpBuilder &b, Location loc, RankedTensorType type,
                                                  ValueRange inputs, ArrayRef<int64_t> offsets) {
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (!type.isDynamicDim(i))
      continue;
    Value found;
    for (auto [in, off] : llvm::zip(inputs, offsets)) {
      auto t = cast<RankedTensorType>(in.getType());
      int64_t j = i - off;
      if (j >= 0 && j < t.getRank() && t.isDynamicDim(j)) {
        found = tensor::DimOp::create(b, loc, in, j);
        break;
      }
    }
    if (!found)
      return failure();
    sizes.push_back(found);
  }
  return sizes;
}

Value filled(OpBuilder &b, Location loc, RankedTensorType type, ValueRange dynSizes, double value) {
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(), dynSizes);
  Value v = scalar(b, loc, type.getElementType(), value);
  return linalg::FillOp::create(b, loc, ValueRange{v}, ValueRange{empty}).getResult(0);
}

AffineMap broadcastMap(RankedTensorType in, RankedTensorType out, int64_t offset) {
  MLIRContext *ctx = in.getContext();
  SmallVector<AffineExpr> exprs;
  for (int64_t j = 0; j < in.getRank(); ++j) {
    int64_t i = offset + j;
    bool broadcast = in.getDimSize(j) == 1 && out.getDimSize(i) != 1;
    exprs.push_back(broadcast ? getAffineConstantExpr(0, ctx) : getAffineDimExpr(i, ctx));
  }
  return AffineMap::get(out.getRank(), 0, exprs, ctx);
}

FailureOr<Value> elementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                             ValueRange inputs, ArrayRef<int64_t> offsets,
                             function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  auto sizes = elementwiseDynSizes(b, loc, resultType, inputs, offsets);
  if (failed(sizes))
    return failure();
  Value init =
      tensor::EmptyOp::create(b, loc, resultType.getShape(), resultType.getElementType(), *sizes);
  SmallVector<AffineMap> maps;
  for (auto [in, off] : llvm::zip(inputs, offsets))
    maps.push_back(broadcastMap(cast<RankedTensorType>(in.getType()), resultType, off));
  maps.push_back(b.getMultiDimIdentityMap(resultType.getRank()));
  SmallVector<utils::IteratorType> iters(resultType.getRank(), utils::IteratorType::parallel);
  auto generic =
      linalg::GenericOp::create(b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
                                iters, [&](OpBuilder &nb, Location nl, ValueRange args) {
                                  Value r = body(nb, nl, args.drop_back());
                                  linalg::YieldOp::create(nb, nl, r);
                                });
  return generic.getResult(0);
}

Value clampedIndex(OpBuilder &b, Location loc, Value id, Value t, int64_t dim, bool wrapNegative) {
  Value i = arith::IndexCastOp::create(b, loc, b.getIndexType(), id);
  Value n = tensor::DimOp::create(b, loc, t, dim);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  if (wrapNegative) {
    Value neg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, zero);
    i = arith::SelectOp::create(b, loc, neg, arith::AddIOp::create(b, loc, i, n), i);
  }
  Value last = arith::SubIOp::create(b, loc, n, arith::ConstantIndexOp::create(b, loc, 1));
  return arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, i, zero), last);
}

std::pair<Value, Value> adaptiveBin(OpBuilder &b, Location loc, Value i, Value in, Value out) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value lo = arith::DivUIOp::create(b, loc, arith::MulIOp::create(b, loc, i, in), out);
  Value hiNum = arith::MulIOp::create(b, loc, arith::AddIOp::create(b, loc, i, one), in);
  return {lo, arith::CeilDivUIOp::create(b, loc, hiNum, out)};
}

Value freshCopy(OpBuilder &b, Location loc, Value t) {
  // With `copy`, the sizes come from the copied tensor (no dynamic sizes).
  auto type = cast<RankedTensorType>(t.getType());
  return bufferization::AllocTensorOp::create(b, loc, type, ValueRange{}, /*copy=*/t).getResult();
}

Value sigmoid(OpBuilder &b, Location l, Value x) {
  Value one = scalar(b, l, x.getType(), 1.0);
  Value e = math::ExpOp::create(b, l, arith::NegFOp::create(b, l, x));
  return arith::DivFOp::create(b, l, one, arith::AddFOp::create(b, l, one, e));
}

Value applyActivation(OpBuilder &b, Location l, Value x, StringRef act, double alpha) {
  Type e = x.getType();
  auto c = [&](double d) { return scalar(b, l, e, d); };
  if (act.empty() || act == "identity")
    return x;
  if (act == "relu")
    return arith::MaximumFOp::create(b, l, x, c(0));
  if (act == "relu6")
    return arith::MinimumFOp::create(b, l, arith::MaximumFOp::create(b, l, x, c(0)),
                                     c(alpha ? alpha : 6.0));
  if (act == "leaky_relu") {
    Value pos = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, x, c(0));
    return arith::SelectOp::create(b, l, pos, x, arith::MulFOp::create(b, l, x, c(alpha)));
  }
  if (act == "sigmoid")
    return sigmoid(b, l, x);
  if (act == "swish")
    return arith::MulFOp::create(b, l, x, sigmoid(b, l, x));
  if (act == "hard_swish") {
    Value t = arith::MinimumFOp::create(
        b, l, arith::MaximumFOp::create(b, l, arith::AddFOp::create(b, l, x, c(3)), c(0)), c(6));
    return arith::DivFOp::create(b, l, arith::MulFOp::create(b, l, x, t), c(6));
  }
  if (act == "tanh")
    return math::TanhOp::create(b, l, x);
  if (act == "gelu") {
    Value erf = math::ErfOp::create(b, l, arith::MulFOp::create(b, l, x, c(0.7071067811865476)));
    return arith::MulFOp::create(b, l, arith::MulFOp::create(b, l, x, c(0.5)),
                                 arith::AddFOp::create(b, l, c(1), erf));
  }
  return nullptr;
}

std::array<int64_t, 4> pads4(ArrayRef<int32_t> p) {
  if (p.size() == 4)
    return {p[0], p[1], p[2], p[3]};
  return {p[0], p[0], p[1], p[1]};
}

Value permute(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> perm) {
  auto t = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape;
  SmallVector<Value> dyn;
  for (int64_t p : perm) {
    shape.push_back(t.getDimSize(p));
    if (t.isDynamicDim(p))
      dyn.push_back(tensor::DimOp::create(b, loc, v, p));
  }
  Value init = tensor::EmptyOp::create(b, loc, shape, t.getElementType(), dyn);
  return linalg::TransposeOp::create(b, loc, v, init, perm).getResult()[0];
}

std::array<int64_t, 4> resolvePads(RankedTensorType in, ArrayRef<int64_t> k, ArrayRef<int32_t> s,
                                   ArrayRef<int32_t> d, ArrayRef<int32_t> paddings,
                                   StringRef algo) {
  return pd::windowPads({in.getDimSize(2), in.getDimSize(3)}, k, s, d, paddings, algo);
}

Value reshapeTo(OpBuilder &b, Location loc, Value x, RankedTensorType type, ArrayRef<Value> sizes) {
  if (x.getType() == type)
    return x;
  auto shapeType = RankedTensorType::get({(int64_t)sizes.size()}, b.getIndexType());
  Value shape = tensor::FromElementsOp::create(b, loc, shapeType, sizes);
  return tensor::ReshapeOp::create(b, loc, type, x, shape);
}

Value generateTensor(OpBuilder &b, Location loc, RankedTensorType type, ValueRange dynSizes,
                     function_ref<Value(OpBuilder &, Location)> body) {
  int64_t rank = type.getRank();
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(), dynSizes);
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  return linalg::GenericOp::create(b, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
                                   SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank)}, iters,
                                   [&](OpBuilder &nb, Location l, ValueRange) {
                                     linalg::YieldOp::create(nb, l, body(nb, l));
                                   })
      .getResult(0);
}

Value reduceDims(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> dims, double init,
                 function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  auto t = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> keptShape;
  SmallVector<AffineExpr> keptExprs;
  SmallVector<Value> dyn;
  SmallVector<utils::IteratorType> iters;
  for (int64_t i = 0; i < t.getRank(); ++i) {
    bool red = llvm::is_contained(dims, i);
    iters.push_back(red ? utils::IteratorType::reduction : utils::IteratorType::parallel);
    if (red)
      continue;
    keptShape.push_back(t.getDimSize(i));
    keptExprs.push_back(b.getAffineDimExpr(i));
    if (t.isDynamicDim(i))
      dyn.push_back(tensor::DimOp::create(b, loc, x, i));
  }
  auto outType = RankedTensorType::get(keptShape, t.getElementType());
  Value acc = filled(b, loc, outType, dyn, init);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(t.getRank()),
                                 AffineMap::get(t.getRank(), 0, keptExprs, b.getContext())};
  return linalg::GenericOp::create(
             b, loc, TypeRange{outType}, ValueRange{x}, ValueRange{acc}, maps, iters,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl, combine(nb, nl, args[1], args[0]));
             })
      .getResult(0);
}

FailureOr<Value> restoreReducedDims(OpBuilder &b, Location loc, Value y, RankedTensorType rt,
                                    ArrayRef<int64_t> dims, int64_t rank) {
  auto yt = cast<RankedTensorType>(y.getType());
  if (yt.getShape() == rt.getShape())
    return y;
  SmallVector<ReassociationIndices> groups;
  if (rt.getRank() == rank) {
    ReassociationIndices pending;
    for (int64_t i = 0; i < rank; ++i) {
      if (!llvm::is_contained(dims, i)) {
        pending.push_back(i);
        groups.push_back(pending);
        pending.clear();
      } else if (groups.empty()) {
        pending.push_back(i);
      } else {
        groups.back().push_back(i);
      }
    }
  } else if (yt.getRank() != 0 || rt.getNumElements() != 1) {
    return failure();
  }
  return tensor::ExpandShapeOp::create(b, loc, rt, y, groups).getResult();
}

Value selectionCall(OpBuilder &r, Location loc, StringRef callee, Operation *from, ValueRange ins,
                    Value words, ArrayRef<int64_t> ints, ArrayRef<float> floats,
                    ArrayRef<int64_t> slotMap) {
  SmallVector<Value> dynWords;
  std::optional<int64_t> staticWords = getConstantIntValue(words);
  if (!staticWords)
    dynWords.push_back(words);
  Value empty = tensor::EmptyOp::create(
      r, loc, SmallVector<int64_t>{staticWords ? *staticWords : ShapedType::kDynamic},
      r.getI32Type(), dynWords);
  SmallVector<int64_t> slots(slotMap);
  if (slots.empty())
    for (size_t i = 0; i < ins.size(); ++i)
      slots.push_back(static_cast<int64_t>(i));
  auto call = KernelCallOp::create(r, loc, empty.getType(), callee, ins, empty,
                                   r.getDenseI64ArrayAttr(slots), r.getDenseI64ArrayAttr(ints),
                                   r.getDenseF32ArrayAttr(floats));
  call->setAttr("pd.from", r.getStringAttr(from->getName().stripDialect()));
  return call.getResult();
}

Value selectionWords(OpBuilder &r, Location loc, Value sel, Value base, RankedTensorType type,
                     Value size) {
  SmallVector<Value> dyn;
  if (type.isDynamicDim(0))
    dyn.push_back(size);
  return generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
    Value i = arith::AddIOp::create(b, l, base, linalg::IndexOp::create(b, l, 0));
    return tensor::ExtractOp::create(b, l, sel, ValueRange{i});
  });
}

LogicalResult checkSequenceOperands(Operation *op, ValueRange data, Value lengths) {
  auto elem = [](Value v) { return cast<RankedTensorType>(v.getType()).getElementType(); };
  if (!lengths)
    return op->emitOpError("needs the sequence lengths of a LoD input; its input carries no LoD "
                           "(its rows are not sequences of a LoD feed)");
  if (elem(lengths).isInteger(64) && llvm::all_of(data, [&](Value v) { return elem(v).isF32(); }))
    return success();
  return op->emitOpError("is computed in fp32 with int64 sequence lengths, got ")
         << data.front().getType() << " and " << lengths.getType();
}

void replaceWithDeclaredTypes(ConversionPatternRewriter &r, Operation *op,
                              SmallVector<Value> results) {
  for (size_t i = 0; i < results.size(); ++i) {
    Type declared = op->getResult(i).getType();
    if (results[i].getType() != declared)
      results[i] = tensor::CastOp::create(r, op->getLoc(), declared, results[i]);
  }
  r.replaceOp(op, results);
}

Value counterHash(OpBuilder &b, Location loc, Value z) {
  Type i64 = b.getI64Type();
  auto c64 = [&](uint64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i64, static_cast<int64_t>(v));
  };
  auto mix = [&](Value z, unsigned shift, uint64_t mul) -> Value {
    Value x = arith::XOrIOp::create(b, loc, z, arith::ShRUIOp::create(b, loc, z, c64(shift)));
    return mul ? arith::MulIOp::create(b, loc, x, c64(mul)).getResult() : x;
  };
  z = arith::AddIOp::create(b, loc, z, c64(0x9E3779B97F4A7C15ull));
  z = mix(z, 30, 0xBF58476D1CE4E5B9ull);
  z = mix(z, 27, 0x94D049BB133111EBull);
  return mix(z, 31, 0);
}

} // namespace mlir::pd::lowering

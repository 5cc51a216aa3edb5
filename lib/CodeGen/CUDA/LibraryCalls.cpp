//===- LibraryCalls.cpp - the CUDA target's matrix products on cuBLASLt ---===//
//
// A generated kernel computes a matrix product with one thread per output
// element and no reuse of the inputs through shared memory or tensor
// cores; cuBLASLt's kernels are tuned per architecture. This pass turns
// each matrix product on buffers into a host call into libpdrt_cuda
// (pdcu_matmul), which runs cuBLASLt on the instance's stream between the
// generated kernels. The call takes the buffers' device addresses and the
// row-major problem; the runtime maps it onto cuBLASLt's column-major
// convention and chooses the algorithm once per call site.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace mlir::pd {
#define GEN_PASS_DEF_PDGPULIBRARYCALLSPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"

namespace {
constexpr StringLiteral kMatmul = "pdcu_matmul";

/// A row-major matrix product C[batch, m, n] (+)= op(A) op(B).
struct Product {
  linalg::GenericOp op;
  Value a, b, c;
  bool transA = false, transB = false;
  int64_t batch = 1, m = 1, n = 1, k = 1;
};

/// Whether `v` is a static row-major f32 buffer in device memory: @main's
/// argument (inputs and weights, copied to the device by the runtime) or a
/// view of the arena, not a constant (constants stay in host memory).
bool deviceRowMajorF32(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
      !type.getElementType().isF32())
    return false;
  for (;;) {
    if (isa<BlockArgument>(v))
      return true;
    Operation *def = v.getDefiningOp();
    if (isa_and_nonnull<memref::ViewOp>(def))
      return true; // of the arena
    if (!isa_and_nonnull<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::ReshapeOp,
                         memref::CastOp>(def))
      return false;
    auto source = dyn_cast<MemRefType>(def->getOperand(0).getType());
    if (!source || !source.getLayout().isIdentity())
      return false;
    v = def->getOperand(0);
  }
}

/// The loop dims that `map` reads, in result order (none if a result is
/// not a plain dim).
std::optional<SmallVector<unsigned>> dimsOf(AffineMap map) {
  SmallVector<unsigned> dims;
  for (AffineExpr e : map.getResults()) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d)
      return std::nullopt;
    dims.push_back(d.getPosition());
  }
  return dims;
}

std::optional<Product> analyze(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return std::nullopt;
  auto linalgOp = cast<linalg::LinalgOp>(op.getOperation());
  if (!linalg::isaContractionOpInterface(linalgOp))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(linalgOp);
  if (failed(dims) || dims->k.size() != 1)
    return std::nullopt;
  Product p;
  p.op = op;
  p.c = op.getDpsInitOperand(0)->get();
  for (Value v : {op.getDpsInputOperand(0)->get(), op.getDpsInputOperand(1)->get(), p.c})
    if (!deviceRowMajorF32(v))
      return std::nullopt;
  if (p.c == op.getDpsInputOperand(0)->get() || p.c == op.getDpsInputOperand(1)->get())
    return std::nullopt;
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  unsigned k = dims->k[0];
  std::optional<SmallVector<unsigned>> cDims =
      dimsOf(op.getMatchingIndexingMap(op.getDpsInitOperand(0)));
  size_t nb = dims->batch.size(), nm = dims->m.size(), nn = dims->n.size();
  if (!cDims || cDims->size() != nb + nm + nn)
    return std::nullopt;
  // C: batch dims, then the m dims, then the n dims; their order there is
  // the order the inputs must have too.
  ArrayRef<unsigned> cd(*cDims);
  ArrayRef<unsigned> batch = cd.take_front(nb), mOrder = cd.slice(nb, nm),
                     nOrder = cd.drop_front(nb + nm);
  auto all = [](ArrayRef<unsigned> got, ArrayRef<unsigned> want) {
    return llvm::all_of(got, [&](unsigned d) { return llvm::is_contained(want, d); });
  };
  if (!all(batch, dims->batch) || !all(mOrder, dims->m) || !all(nOrder, dims->n))
    return std::nullopt;
  // An input: the batch dims as in C, then its matrix dims: `inner` then k
  // for the left input and k then `inner` for the right one when not
  // transposed, the other way round when transposed.
  auto layout = [&](OpOperand *in, ArrayRef<unsigned> inner, bool left, bool &trans) {
    std::optional<SmallVector<unsigned>> d = dimsOf(op.getMatchingIndexingMap(in));
    if (!d || d->size() != nb + inner.size() + 1 || ArrayRef<unsigned>(*d).take_front(nb) != batch)
      return false;
    SmallVector<unsigned> innerFirst(inner), kFirst{k};
    innerFirst.push_back(k);
    kFirst.append(inner.begin(), inner.end());
    ArrayRef<unsigned> rest = ArrayRef<unsigned>(*d).drop_front(nb);
    if (rest == ArrayRef<unsigned>(innerFirst))
      trans = !left;
    else if (rest == ArrayRef<unsigned>(kFirst))
      trans = left;
    else
      return false;
    return true;
  };
  OpOperand *lhs = op.getDpsInputOperand(0), *rhs = op.getDpsInputOperand(1);
  // The left input is the one that reads the m dims.
  if (!op.getMatchingIndexingMap(lhs).isFunctionOfDim(mOrder.front()))
    std::swap(lhs, rhs);
  if (!layout(lhs, mOrder, /*left=*/true, p.transA) ||
      !layout(rhs, nOrder, /*left=*/false, p.transB))
    return std::nullopt;
  p.a = lhs->get();
  p.b = rhs->get();
  for (unsigned d : batch)
    p.batch *= sizes[d];
  for (unsigned d : mOrder)
    p.m *= sizes[d];
  for (unsigned d : nOrder)
    p.n *= sizes[d];
  p.k = sizes[k];
  return p;
}

/// The zero fill of `c` that runs just before `op` (nothing with memory
/// effects in between), if any.
linalg::FillOp zeroFillBefore(Operation *op, Value c) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev)) {
      auto value = fill.value().getDefiningOp<arith::ConstantOp>();
      auto zero = value ? dyn_cast<FloatAttr>(value.getValue()) : nullptr;
      if (fill.getOutputs()[0] == c && zero && zero.getValue().isPosZero())
        return fill;
      return {};
    }
    if (!isMemoryEffectFree(prev))
      return {};
  }
  return {};
}

struct PdGpuLibraryCallsPass : impl::PdGpuLibraryCallsPassBase<PdGpuLibraryCallsPass> {
  using PdGpuLibraryCallsPassBase::PdGpuLibraryCallsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    std::vector<Product> found;
    module.walk([&](linalg::GenericOp op) {
      if (std::optional<Product> p = analyze(op))
        found.push_back(*p);
    });
    if (found.empty())
      return;
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    Type i64 = mb.getI64Type(), i32 = mb.getI32Type(), f32 = mb.getF32Type();
    if (!module.lookupSymbol<func::FuncOp>(kMatmul)) {
      auto type = mb.getFunctionType(
          {i64, i64, i64, i64, i64, i64, i64, i64, i32, i32, i64, i64, i64, f32, i32}, {});
      auto decl = func::FuncOp::create(mb, module.getLoc(), kMatmul, type);
      decl.setPrivate();
    }
    SmallVector<Attribute> records;
    for (auto [site, p] : llvm::enumerate(found)) {
      OpBuilder b(p.op);
      Location loc = p.op.getLoc();
      auto int64 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 64); };
      auto int32 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); };
      auto address = [&](Value memref) {
        Value index = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
        return arith::IndexCastOp::create(b, loc, i64, index).getResult();
      };
      linalg::FillOp fill = zeroFillBefore(p.op, p.c);
      float beta = fill ? 0.0f : 1.0f;
      if (fill)
        fill.erase();
      SmallVector<Value> args = {
          int64(site),
          address(p.a),
          address(p.b),
          address(p.c),
          int64(p.batch),
          int64(p.m),
          int64(p.n),
          int64(p.k),
          int32(p.transA),
          int32(p.transB),
          int64(p.batch > 1 ? p.m * p.k : 0),
          int64(p.batch > 1 ? p.k * p.n : 0),
          int64(p.batch > 1 ? p.m * p.n : 0),
          arith::ConstantFloatOp::create(b, loc, cast<FloatType>(f32), APFloat(beta)),
          int32(allowTf32 ? 1 : 0)};
      func::CallOp::create(b, loc, kMatmul, TypeRange{}, args);
      NamedAttrList record;
      record.append("site", b.getI64IntegerAttr(site));
      record.append("library", b.getStringAttr("cublasLt"));
      record.append("batch", b.getI64IntegerAttr(p.batch));
      record.append("m", b.getI64IntegerAttr(p.m));
      record.append("n", b.getI64IntegerAttr(p.n));
      record.append("k", b.getI64IntegerAttr(p.k));
      record.append("trans_a", b.getBoolAttr(p.transA));
      record.append("trans_b", b.getBoolAttr(p.transB));
      record.append("accumulate", b.getBoolAttr(!fill));
      record.append("tf32", b.getBoolAttr(allowTf32));
      records.push_back(DictionaryAttr::get(ctx, record));
      p.op.erase();
    }
    module->setAttr("pd.library_calls", ArrayAttr::get(ctx, records));
  }
};
} // namespace
} // namespace mlir::pd

//===- LibraryCalls.cpp - the CUDA target's matrix products on cuBLASLt ---===//
//
// A generated kernel computes a matrix product with one thread per output
// element and no reuse of the inputs through shared memory or tensor
// cores; cuBLASLt's kernels are tuned per architecture. This pass turns
// each matrix product on buffers into a host call into libpdrt_cuda
// (pdcu_matmul), which runs cuBLASLt on the instance's stream between the
// generated kernels. The call takes the buffers' device addresses and the
// row-major problem; the runtime maps it onto cuBLASLt's column-major
// convention and chooses the algorithm once per call site. Collective ops
// become host calls too (pdcu_collective), run on the job's communicator.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Runtime/KernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <map>

using namespace mlir;

namespace mlir::pd {
#define GEN_PASS_DEF_PDGPULIBRARYCALLSPASS
#define GEN_PASS_DEF_PDGPUCOLLECTIVESPASS
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

/// Whether `v` is a static row-major buffer in device memory: @main's
/// argument (inputs and weights, copied to the device by the runtime), a
/// view of the arena, or (before the memory plan) a static buffer that
/// @main's entry block allocates, which the plan puts in the arena; not a
/// constant (constants stay in host memory).
bool deviceRowMajor(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
    return false;
  for (;;) {
    if (isa<BlockArgument>(v))
      return true;
    Operation *def = v.getDefiningOp();
    if (isa_and_nonnull<memref::ViewOp>(def))
      return true; // of the arena
    if (auto alloc = dyn_cast_or_null<memref::AllocOp>(def))
      return alloc.getDynamicSizes().empty() && alloc->getParentOp() &&
             isa<func::FuncOp>(alloc->getParentOp());
    if (!isa_and_nonnull<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::ReshapeOp,
                         memref::CastOp>(def))
      return false;
    auto source = dyn_cast<MemRefType>(def->getOperand(0).getType());
    if (!source || !source.getLayout().isIdentity())
      return false;
    v = def->getOperand(0);
  }
}

bool deviceRowMajorF32(Value v) {
  return deviceRowMajor(v) && cast<MemRefType>(v.getType()).getElementType().isF32();
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

/// The buffer `v` is a view of (through reshapes).
Value rootBuffer(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::ReshapeOp, memref::CastOp>(
            def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// Whether `op` fills `buffer` (or the buffer it reshapes) whole with +0.0:
/// linalg.fill, or a linalg.map with no input yielding that constant.
bool zeroFills(Operation *op, Value buffer) {
  Value value;
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    if (rootBuffer(fill.getOutputs()[0]) != rootBuffer(buffer))
      return false;
    value = fill.value();
  } else if (auto map = dyn_cast<linalg::MapOp>(op)) {
    if (!map.getInputs().empty() || rootBuffer(map.getInit()) != rootBuffer(buffer))
      return false;
    auto yield = cast<linalg::YieldOp>(map.getMapper().front().getTerminator());
    value = yield.getValues()[0];
  } else {
    return false;
  }
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  auto zero = constant ? dyn_cast<FloatAttr>(constant.getValue()) : nullptr;
  return zero && zero.getValue().isPosZero();
}

/// The zero fill (linalg.fill) of `c` (or of the buffer it reshapes) that
/// runs just before `op` (nothing with memory effects in between), if any.
linalg::FillOp zeroFillBefore(Operation *op, Value c) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev))
      return zeroFills(fill, c) ? fill : linalg::FillOp();
    if (!isMemoryEffectFree(prev))
      return {};
  }
  return {};
}

/// A 2-D convolution (cross-correlation) of NCHW f32 buffers in device
/// memory, in cuDNN's terms: x [n, c, h, w], filter [k, c / groups, r, s],
/// y [n, k, oh, ow]. The input is already padded (pd -> linalg pads it).
struct Convolution {
  Operation *op;
  Value x, w, y;
  int64_t n, c, h, wd, k, r, s, oh, ow, strideH, strideW, dilH, dilW, groups;
  // Where the padded input is only a zero-padded copy of another buffer
  // (see unpadded()): that buffer, the pads cuDNN adds instead, and the
  // copy, subview and fill that made it, in the order they can be erased.
  int64_t padH = 0, padW = 0;
  SmallVector<Operation *> padOps;
};

/// The arena bytes [first, last) that `v` (a view of the arena, through
/// reshapes) occupies, if known.
std::optional<std::pair<int64_t, int64_t>> arenaRange(Value v) {
  auto view = rootBuffer(v).getDefiningOp<memref::ViewOp>();
  if (!view)
    return std::nullopt;
  std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
  auto type = cast<MemRefType>(view.getType());
  if (!shift || !type.hasStaticShape())
    return std::nullopt;
  return std::make_pair(*shift, *shift + type.getNumElements() * type.getElementTypeBitWidth() / 8);
}

/// Whether `source`, last read by `copy` in the memory plan, still holds
/// its data when `conv` runs: an argument, or an arena view that no buffer
/// used from just after `copy` to `conv` (its output included) overlaps.
bool stillHolds(Value source, Operation *copy, Operation *conv) {
  Value root = rootBuffer(source);
  if (isa<BlockArgument>(root))
    return true;
  if (root.getDefiningOp<memref::AllocOp>()) {
    // Before the plan a buffer is its own memory: it holds its data unless
    // an op in between writes it (conservatively: uses it other than as a
    // linalg input).
    if (copy->getBlock() != conv->getBlock() || !copy->isBeforeInBlock(conv))
      return false;
    for (Operation *op = copy->getNextNode(); op && op != conv; op = op->getNextNode()) {
      WalkResult writes = op->walk([&](Operation *inner) {
        for (OpOperand &use : inner->getOpOperands()) {
          if (rootBuffer(use.get()) != root)
            continue;
          auto linalgOp = dyn_cast<linalg::LinalgOp>(inner);
          if (!linalgOp || !linalgOp.isDpsInput(&use))
            return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (writes.wasInterrupted())
        return false;
    }
    return true;
  }
  std::optional<std::pair<int64_t, int64_t>> mine = arenaRange(source);
  if (!mine || copy->getBlock() != conv->getBlock() || !copy->isBeforeInBlock(conv))
    return false;
  for (Operation *op = copy->getNextNode(); op; op = op->getNextNode()) {
    WalkResult clash = op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands()) {
        if (rootBuffer(v) == rootBuffer(source))
          continue;
        std::optional<std::pair<int64_t, int64_t>> other = arenaRange(v);
        if (other && other->first < mine->second && mine->first < other->second)
          return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (clash.wasInterrupted())
      return false;
    if (op == conv)
      return true;
  }
  return false;
}

/// cuDNN pads the input itself (the same amount on both sides of each
/// dim): where the convolution reads a buffer that is only a zero fill
/// plus a copy of `source` into its interior at symmetric offsets, the
/// call reads `source` with those pads, and the fill and the copy go.
void unpadded(Convolution &cv) {
  Value padded = rootBuffer(cv.x);
  auto type = cast<MemRefType>(padded.getType());
  if (type.getRank() != 4 ||
      !isa_and_nonnull<memref::ViewOp, memref::AllocOp>(padded.getDefiningOp()))
    return;
  Operation *fill = nullptr;
  memref::SubViewOp interior;
  memref::CopyOp copy;
  // Its readers and writers: the zero fill, the interior view the copy
  // writes, and the convolution (directly, or through the one reshape of
  // the grouped form that only the convolution reads).
  Operation *reshape = cv.x == padded ? nullptr : cv.x.getDefiningOp();
  if (reshape && (reshape->getOperand(0) != padded || !cv.x.hasOneUse()))
    return;
  for (Operation *user : padded.getUsers()) {
    if (user == cv.op || user == reshape)
      continue;
    if (!fill && zeroFills(user, padded))
      fill = user;
    else if (auto sub = dyn_cast<memref::SubViewOp>(user); sub && !interior)
      interior = sub;
    else
      return;
  }
  if (!fill || !interior || !interior->hasOneUse())
    return;
  copy = dyn_cast<memref::CopyOp>(*interior->getUsers().begin());
  if (!copy || copy.getTarget() != interior.getResult() || !deviceRowMajorF32(copy.getSource()))
    return;
  // The interior: [N, C, H, W] at (0, 0, top, left), unit strides.
  if (!interior.hasUnitStride() || interior.getStaticOffsets().size() != 4)
    return;
  ArrayRef<int64_t> off = interior.getStaticOffsets(), size = interior.getStaticSizes();
  ArrayRef<int64_t> full = type.getShape();
  if (off[0] != 0 || off[1] != 0 || ShapedType::isDynamic(off[2]) ||
      ShapedType::isDynamic(off[3]) || size[0] != full[0] || size[1] != full[1])
    return;
  int64_t top = off[2], left = off[3], bottom = full[2] - size[2] - top,
          right = full[3] - size[3] - left;
  if (top != bottom || left != right)
    return;
  // The plan let the source's memory go after the copy; reading it later
  // is right only if nothing took it over in between.
  if (!stillHolds(copy.getSource(), copy, cv.op))
    return;
  cv.x = copy.getSource();
  cv.h = size[2];
  cv.wd = size[3];
  cv.padH = top;
  cv.padW = left;
  cv.padOps = {copy, interior, fill};
}

std::optional<Convolution> analyzeConv(Operation *op) {
  if (!isa<linalg::Conv2DNchwFchwOp, linalg::DepthwiseConv2DNchwChwOp, linalg::Conv2DNgchwGfchwOp>(
          op))
    return std::nullopt;
  auto linalgOp = cast<linalg::LinalgOp>(op);
  if (!linalgOp.hasPureBufferSemantics())
    return std::nullopt;
  Convolution cv;
  cv.op = op;
  cv.x = linalgOp.getDpsInputOperand(0)->get();
  cv.w = linalgOp.getDpsInputOperand(1)->get();
  cv.y = linalgOp.getDpsInitOperand(0)->get();
  for (Value v : {cv.x, cv.w, cv.y})
    if (!deviceRowMajorF32(v))
      return std::nullopt;
  auto strides = op->getAttrOfType<DenseIntElementsAttr>("strides");
  auto dilations = op->getAttrOfType<DenseIntElementsAttr>("dilations");
  if (!strides || !dilations || strides.getNumElements() != 2 || dilations.getNumElements() != 2)
    return std::nullopt;
  SmallVector<int64_t> st(strides.getValues<int64_t>()), dl(dilations.getValues<int64_t>());
  cv.strideH = st[0];
  cv.strideW = st[1];
  cv.dilH = dl[0];
  cv.dilW = dl[1];
  ArrayRef<int64_t> x = cast<MemRefType>(cv.x.getType()).getShape();
  ArrayRef<int64_t> w = cast<MemRefType>(cv.w.getType()).getShape();
  ArrayRef<int64_t> y = cast<MemRefType>(cv.y.getType()).getShape();
  if (isa<linalg::Conv2DNchwFchwOp>(op)) {
    cv.n = x[0], cv.c = x[1], cv.h = x[2], cv.wd = x[3];
    cv.k = w[0], cv.r = w[2], cv.s = w[3], cv.groups = 1;
    cv.oh = y[2], cv.ow = y[3];
  } else if (isa<linalg::DepthwiseConv2DNchwChwOp>(op)) {
    cv.n = x[0], cv.c = x[1], cv.h = x[2], cv.wd = x[3];
    cv.k = w[0], cv.r = w[1], cv.s = w[2], cv.groups = x[1];
    cv.oh = y[2], cv.ow = y[3];
  } else { // [n, g, c/g, h, w] * [g, k/g, c/g, r, s] -> [n, g, k/g, oh, ow]
    cv.n = x[0], cv.c = x[1] * x[2], cv.h = x[3], cv.wd = x[4];
    cv.k = w[0] * w[1], cv.r = w[3], cv.s = w[4], cv.groups = x[1];
    cv.oh = y[3], cv.ow = y[4];
  }
  unpadded(cv);
  // The output size cuDNN derives from these must be the buffer's.
  auto outSize = [](int64_t in, int64_t pad, int64_t window, int64_t stride, int64_t dil) {
    return (in + 2 * pad - dil * (window - 1) - 1) / stride + 1;
  };
  if (outSize(cv.h, cv.padH, cv.r, cv.strideH, cv.dilH) != cv.oh ||
      outSize(cv.wd, cv.padW, cv.s, cv.strideW, cv.dilW) != cv.ow)
    return std::nullopt;
  return cv;
}

constexpr StringLiteral kConv2d = "pdcu_conv2d";
constexpr StringLiteral kPlanMatmul = "pdcu_plan_matmul", kPlanConv2d = "pdcu_plan_conv2d";
constexpr StringLiteral kPlanAll = "pd_plan_library_calls";

struct PdGpuLibraryCallsPass : impl::PdGpuLibraryCallsPassBase<PdGpuLibraryCallsPass> {
  using PdGpuLibraryCallsPassBase::PdGpuLibraryCallsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    // In program order, so that sites number the calls as they run.
    SmallVector<Operation *> found;
    module.walk([&](Operation *op) {
      if (auto g = dyn_cast<linalg::GenericOp>(op); g && analyze(g))
        found.push_back(op);
      else if (analyzeConv(op))
        found.push_back(op);
    });
    if (found.empty())
      return;
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    Type i64 = mb.getI64Type(), i32 = mb.getI32Type(), f32 = mb.getF32Type();
    auto declare = [&](StringRef name, ArrayRef<Type> args) {
      if (!module.lookupSymbol<func::FuncOp>(name))
        func::FuncOp::create(mb, module.getLoc(), name, mb.getFunctionType(args, {})).setPrivate();
    };
    // pd_plan_library_calls(): each call's plan (its problem without the
    // addresses), which the runtime runs at instance creation.
    auto plans = func::FuncOp::create(mb, module.getLoc(), kPlanAll, mb.getFunctionType({}, {}));
    OpBuilder pb = OpBuilder::atBlockBegin(plans.addEntryBlock());
    func::ReturnOp::create(pb, module.getLoc());
    pb.setInsertionPointToStart(&plans.getBody().front());
    auto plan = [&](StringRef callee, ArrayRef<Value> args, Location loc) {
      // The plan takes the call's arguments but its three addresses (after
      // the site) and beta (before tf32).
      SmallVector<Value> kept;
      SmallVector<Type> types;
      for (auto [i, v] : llvm::enumerate(args)) {
        if ((i >= 1 && i <= 3) || i + 2 == args.size())
          continue;
        auto c = v.getDefiningOp<arith::ConstantOp>();
        kept.push_back(arith::ConstantOp::create(pb, loc, c.getValue()));
        types.push_back(v.getType());
      }
      declare(callee, types);
      func::CallOp::create(pb, loc, callee, TypeRange{}, kept);
    };
    SmallVector<Attribute> records;
    for (auto [site, op] : llvm::enumerate(found)) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      auto int64 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 64); };
      auto int32 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); };
      auto address = [&](Value memref) {
        Value index = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
        return arith::IndexCastOp::create(b, loc, i64, index).getResult();
      };
      auto beta = [&](linalg::FillOp fill) {
        return arith::ConstantFloatOp::create(b, loc, cast<FloatType>(f32),
                                              APFloat(fill ? 0.0f : 1.0f));
      };
      NamedAttrList record;
      auto field = [&](StringRef name, int64_t v) { record.append(name, b.getI64IntegerAttr(v)); };
      field("site", site);
      // The Paddle ops the call computes (a product and the bias add fused
      // into it name both; none for IR written by hand).
      if (SmallVector<StringRef> from = sourceOpsOf(op->getLoc()); !from.empty())
        record.append("from", b.getStrArrayAttr(from));
      if (auto g = dyn_cast<linalg::GenericOp>(op)) {
        Product p = *analyze(g);
        declare(kMatmul,
                {i64, i64, i64, i64, i64, i64, i64, i64, i32, i32, i64, i64, i64, f32, i32});
        linalg::FillOp fill = zeroFillBefore(op, p.c);
        SmallVector<Value> args = {int64(site),
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
                                   beta(fill),
                                   int32(allowTf32 ? 1 : 0)};
        func::CallOp::create(b, loc, kMatmul, TypeRange{}, args);
        plan(kPlanMatmul, args, loc);
        record.append("op", b.getStringAttr("matmul"));
        record.append("library", b.getStringAttr("cublasLt"));
        field("batch", p.batch);
        field("m", p.m);
        field("n", p.n);
        field("k", p.k);
        record.append("trans_a", b.getBoolAttr(p.transA));
        record.append("trans_b", b.getBoolAttr(p.transB));
        record.append("accumulate", b.getBoolAttr(!fill));
        if (fill)
          fill.erase();
      } else {
        Convolution cv = *analyzeConv(op);
        SmallVector<Type> types(20, i64);
        types.push_back(f32);
        types.push_back(i32);
        declare(kConv2d, types);
        linalg::FillOp fill = zeroFillBefore(op, cv.y);
        SmallVector<Value> args = {int64(site),       address(cv.x),
                                   address(cv.w),     address(cv.y),
                                   int64(cv.n),       int64(cv.c),
                                   int64(cv.h),       int64(cv.wd),
                                   int64(cv.k),       int64(cv.r),
                                   int64(cv.s),       int64(cv.oh),
                                   int64(cv.ow),      int64(cv.strideH),
                                   int64(cv.strideW), int64(cv.dilH),
                                   int64(cv.dilW),    int64(cv.groups),
                                   int64(cv.padH),    int64(cv.padW),
                                   beta(fill),        int32(allowTf32 ? 1 : 0)};
        func::CallOp::create(b, loc, kConv2d, TypeRange{}, args);
        plan(kPlanConv2d, args, loc);
        record.append("op", b.getStringAttr("conv2d"));
        record.append("library", b.getStringAttr("cuDNN"));
        field("n", cv.n);
        field("c", cv.c);
        field("h", cv.h);
        field("w", cv.wd);
        field("k", cv.k);
        field("r", cv.r);
        field("s", cv.s);
        field("groups", cv.groups);
        field("stride_h", cv.strideH);
        field("stride_w", cv.strideW);
        field("dilation_h", cv.dilH);
        field("dilation_w", cv.dilW);
        field("pad_h", cv.padH);
        field("pad_w", cv.padW);
        record.append("accumulate", b.getBoolAttr(!fill));
        if (fill)
          fill.erase();
        // The padded copy cuDNN no longer reads (the convolution, its last
        // reader, goes below).
        for (Operation *dead : cv.padOps)
          dead->erase();
      }
      record.append("tf32", b.getBoolAttr(allowTf32));
      records.push_back(DictionaryAttr::get(ctx, record));
      op->erase();
    }
    module->setAttr("pd.library_calls", ArrayAttr::get(ctx, records));
  }
};

constexpr StringLiteral kCollective = "pdcu_collective", kStageRank = "pdcu_comm_rank";

/// pdk_collective calls (pd collectives, send/recv, shard_batch) as host
/// calls into libpdrt_cuda on the buffers' device addresses.
struct PdGpuCollectivesPass : impl::PdGpuCollectivesPassBase<PdGpuCollectivesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<KernelCallOp> calls;
    module.walk([&](KernelCallOp k) {
      if (k->hasAttr(kCommAttr))
        calls.push_back(k);
    });
    if (calls.empty())
      return;
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    Type i64 = mb.getI64Type();
    func::FuncOp::create(mb, module.getLoc(), kCollective,
                         mb.getFunctionType(SmallVector<Type>(12, i64), {}))
        .setPrivate();
    std::map<std::string, int64_t> counts;
    for (KernelCallOp k : calls) {
      auto from = k->getAttrOfType<StringAttr>("pd.from");
      StringRef name = from ? from.getValue() : StringRef("collective");
      ArrayRef<int64_t> ints = k.getInts();
      int64_t kind = ints[pdk::comm::Kind];
      if (kind == pdk::comm::Rank) { // libpdrt_cuda's own query
        k.emitError("the cuda target cannot run '") << name << "' (a rank query)";
        return signalPassFailure();
      }
      if (kind == pdk::comm::Stage) {
        // The host compares the rank with the stage: a call that returns it,
        // read where the CPU code loads it from the destination.
        Value rankBuffer = k.getInit();
        for (Operation *user : rankBuffer.getUsers())
          if (user != k && !isa<memref::LoadOp>(user)) {
            k.emitError("the rank of 'is_stage' is read by '")
                << user->getName() << "', not only loaded";
            return signalPassFailure();
          }
        OpBuilder b(k);
        Location loc = k.getLoc();
        if (!module.lookupSymbol<func::FuncOp>(kStageRank))
          func::FuncOp::create(mb, module.getLoc(), kStageRank,
                               mb.getFunctionType({i64, i64}, {i64}))
              .setPrivate();
        Value rank =
            func::CallOp::create(
                b, loc, kStageRank, TypeRange{i64},
                ValueRange{arith::ConstantIntOp::create(b, loc, ints[pdk::comm::Peer], 64),
                           arith::ConstantIntOp::create(b, loc, ints[pdk::comm::Nranks], 64)})
                .getResult(0);
        for (Operation *user : llvm::make_early_inc_range(rankBuffer.getUsers()))
          if (auto load = dyn_cast<memref::LoadOp>(user)) {
            load.replaceAllUsesWith(rank);
            load.erase();
          }
        ++counts[(name + " -> pdk_collective").str()];
        k.erase();
        continue;
      }
      Value in = k.getSlots()[0] >= 0 ? k.getInputs()[k.getSlots()[0]] : Value();
      Value out = k.getInit();
      for (Value v : {in, out})
        if (v && !deviceRowMajor(v)) {
          k.emitError("the cuda target runs '")
              << name << "' on static contiguous device buffers only, not on " << v.getType();
          return signalPassFailure();
        }
      OpBuilder b(k);
      Location loc = k.getLoc();
      auto int64 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 64); };
      auto address = [&](Value memref) -> Value {
        if (!memref)
          return int64(0);
        Value index = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
        return arith::IndexCastOp::create(b, loc, i64, index);
      };
      auto numElements = [](Value v) {
        return v ? cast<MemRefType>(v.getType()).getNumElements() : 0;
      };
      int64_t rows = 0;
      if (in)
        rows = cast<MemRefType>(in.getType()).getRank()
                   ? cast<MemRefType>(in.getType()).getDimSize(0)
                   : 1;
      SmallVector<Value> args;
      for (int64_t f : {pdk::comm::Kind, pdk::comm::RingId, pdk::comm::ReduceOp, pdk::comm::Peer,
                        pdk::comm::Nranks, pdk::comm::Dtype, pdk::comm::Seq})
        args.push_back(int64(ints[f]));
      args.append({address(in), address(out), int64(numElements(in)), int64(numElements(out)),
                   int64(rows)});
      func::CallOp::create(b, loc, kCollective, TypeRange{}, args);
      ++counts[(name + " -> pdk_collective").str()];
      k.erase();
    }
    NamedAttrList record;
    if (auto previous = module->getAttrOfType<DictionaryAttr>("pd.kernel_calls"))
      record.append(previous.getValue());
    for (const auto &[key, n] : counts)
      record.set(key, mb.getI64IntegerAttr(n));
    module->setAttr("pd.kernel_calls", record.getDictionary(module.getContext()));
  }
};
} // namespace
} // namespace mlir::pd

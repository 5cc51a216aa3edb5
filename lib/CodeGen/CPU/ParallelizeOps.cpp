//===- ParallelizeOps.cpp - split outlined linalg ops across threads ------===//
//
// After pd-outline-ops every linalg op on buffers sits alone in a function
// `__pd_op_<N>(buffers...)`. This pass turns such a function into
//
//   __pd_op_<N>(buffers...)            packs its arguments into a stack
//                                      record and calls
//                                      pdk_parallel_for(task, record, n, work)
//   __pd_op_<N>_task(record, lo, hi)   unpacks them and calls
//   __pd_op_<N>_range(buffers..., lo, hi)
//                                      the op restricted to iterations
//                                      [lo, hi) of one parallel loop (the
//                                      op tiled by its TilingInterface)
//
// The kernel library (lib/Runtime/Kernels/Threads.cpp) splits [0, n) over
// the threads of the OpenMP pool oneDNN uses too, or calls the task once on
// the calling thread when `work` (the op's iteration count) is too small to
// pay for it. Buffers cross the record as their LLVM descriptors
// (builtin.unrealized_conversion_cast pairs that reconcile-unrealized-casts
// removes after the LLVM conversions), index values as i64.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/TilingInterface.h"

using namespace mlir;

namespace mlir::pd {
#define GEN_PASS_DEF_PDPARALLELIZEOPSPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"

namespace {
constexpr const char *kParallelFor = "pdk_parallel_for";

/// The loop to split: the first parallel loop with a static trip count of
/// at least 4; else the first dynamic one; else the largest of 2 or more.
/// A static loop goes first because a dynamic one is usually the batch,
/// which is 1 for latency-bound inference. -1: none.
int64_t pickLoop(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> kinds = op.getIteratorTypesArray();
  int64_t dynamic = -1, best = -1;
  for (auto [i, size] : llvm::enumerate(ranges)) {
    if (kinds[i] != utils::IteratorType::parallel)
      continue;
    if (ShapedType::isDynamic(size)) {
      if (dynamic < 0)
        dynamic = i;
    } else if (size >= 4) {
      return i;
    } else if (size >= 2 && (best < 0 || size > ranges[best])) {
      best = i;
    }
  }
  return dynamic >= 0 ? dynamic : best;
}

struct PdParallelizeOpsPass : impl::PdParallelizeOpsPassBase<PdParallelizeOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<func::FuncOp, linalg::LinalgOp>> work;
    for (func::FuncOp fn : module.getOps<func::FuncOp>()) {
      if (fn.isExternal() || !fn.getSymName().starts_with(kOutlinedPrefix))
        continue;
      auto ops = fn.getBody().getOps<linalg::LinalgOp>();
      if (!llvm::hasSingleElement(ops))
        continue;
      linalg::LinalgOp op = *ops.begin();
      if (!op.hasPureBufferSemantics() || !isa<TilingInterface>(op.getOperation()) ||
          pickLoop(op) < 0)
        continue;
      // Statically small ops stay serial without a runtime call.
      int64_t iterations = 1;
      for (int64_t size : op.getStaticLoopRanges())
        if (ShapedType::isDynamic(size) || iterations > INT64_MAX / std::max<int64_t>(size, 1))
          iterations = INT64_MAX; // unknown or huge: the runtime decides
        else
          iterations *= size;
      if (iterations < minWork)
        continue;
      work.emplace_back(fn, op);
    }
    if (work.empty())
      return;
    LLVMTypeConverter types(module.getContext());
    for (auto [fn, op] : work)
      if (failed(parallelize(module, fn, op, types)))
        return signalPassFailure();
    // Counted in the artifact's manifest.
    module->setAttr("pd.parallel_ops",
                    IntegerAttr::get(IntegerType::get(module.getContext(), 64), work.size()));
  }

  LogicalResult parallelize(ModuleOp module, func::FuncOp fn, linalg::LinalgOp op,
                            LLVMTypeConverter &types);
};

LogicalResult PdParallelizeOpsPass::parallelize(ModuleOp module, func::FuncOp fn,
                                                linalg::LinalgOp op, LLVMTypeConverter &types) {
  MLIRContext *ctx = module.getContext();
  Location loc = fn.getLoc();
  OpBuilder b(ctx);
  int64_t loop = pickLoop(op);
  Type index = b.getIndexType(), i64 = b.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(ctx);

  // @<fn>_range(args..., lo, hi): a copy of fn whose op is tiled to [lo, hi).
  b.setInsertionPoint(fn);
  SmallVector<Type> rangeInputs(fn.getArgumentTypes());
  rangeInputs.append({index, index});
  auto range = func::FuncOp::create(b, loc, (fn.getSymName() + "_range").str(),
                                    b.getFunctionType(rangeInputs, {}));
  range.setPrivate();
  for (unsigned i = 0; i < fn.getNumArguments(); ++i)
    range.setArgAttrs(i, fn.getArgAttrDict(i));
  {
    Block *body = range.addEntryBlock();
    IRMapping map;
    for (auto [from, to] : llvm::zip(fn.getArguments(), body->getArguments()))
      map.map(from, to);
    OpBuilder rb = OpBuilder::atBlockBegin(body);
    for (Operation &o : fn.getBody().front())
      rb.clone(o, map);
    auto whole = cast<TilingInterface>(map.lookup(op.getOperation()));
    rb.setInsertionPoint(whole);
    SmallVector<Range> domain = whole.getIterationDomain(rb);
    SmallVector<OpFoldResult> offsets, sizes;
    for (const Range &r : domain) {
      offsets.push_back(r.offset);
      sizes.push_back(r.size);
    }
    Value lo = body->getArgument(fn.getNumArguments());
    Value hi = body->getArgument(fn.getNumArguments() + 1);
    offsets[loop] = lo;
    sizes[loop] = arith::SubIOp::create(rb, loc, hi, lo).getResult();
    FailureOr<TilingResult> tiled = whole.getTiledImplementation(rb, offsets, sizes);
    if (failed(tiled))
      return op.emitOpError("cannot be restricted to a range of loop ") << loop;
    whole->erase();
  }

  // The record: one field per argument (descriptors for buffers).
  SmallVector<Type> fields;
  for (Type t : fn.getArgumentTypes()) {
    Type field = isa<IndexType>(t) ? i64 : types.convertType(t);
    if (!field || !LLVM::isCompatibleType(field))
      return fn.emitOpError("cannot pass an argument of type ") << t << " to a parallel task";
    fields.push_back(field);
  }
  auto record = LLVM::LLVMStructType::getLiteral(ctx, fields);

  // @<fn>_task(record, lo, hi): unpacks the record and calls the range.
  auto taskType = b.getFunctionType({ptr, i64, i64}, {});
  auto task = func::FuncOp::create(b, loc, (fn.getSymName() + "_task").str(), taskType);
  task.setPrivate();
  {
    Block *body = task.addEntryBlock();
    OpBuilder tb = OpBuilder::atBlockBegin(body);
    SmallVector<Value> args;
    for (auto [i, t] : llvm::enumerate(fn.getArgumentTypes())) {
      Value at = LLVM::GEPOp::create(tb, loc, ptr, record, body->getArgument(0),
                                     ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      Value v = LLVM::LoadOp::create(tb, loc, fields[i], at);
      if (isa<IndexType>(t))
        v = arith::IndexCastOp::create(tb, loc, index, v);
      else if (v.getType() != t)
        v = UnrealizedConversionCastOp::create(tb, loc, t, v).getResult(0);
      args.push_back(v);
    }
    args.push_back(arith::IndexCastOp::create(tb, loc, index, body->getArgument(1)));
    args.push_back(arith::IndexCastOp::create(tb, loc, index, body->getArgument(2)));
    func::CallOp::create(tb, loc, range, args);
    func::ReturnOp::create(tb, loc);
  }

  // fn: n = iterations of the split loop, work = iterations of the op; the
  // record on the stack; the runtime call.
  Block &entry = fn.getBody().front();
  OpBuilder fb(op);
  SmallVector<Range> domain = cast<TilingInterface>(op.getOperation()).getIterationDomain(fb);
  auto value = [&](OpFoldResult r) { return getValueOrCreateConstantIndexOp(fb, loc, r); };
  Value n = value(domain[loop].size);
  Value total = arith::ConstantIndexOp::create(fb, loc, 1);
  for (const Range &r : domain)
    total = arith::MulIOp::create(fb, loc, total, value(r.size));
  Value one = LLVM::ConstantOp::create(fb, loc, i64, 1);
  Value rec = LLVM::AllocaOp::create(fb, loc, ptr, record, one);
  for (auto [i, arg] : llvm::enumerate(fn.getArguments())) {
    Value v = arg;
    if (isa<IndexType>(v.getType()))
      v = arith::IndexCastOp::create(fb, loc, i64, v);
    else if (v.getType() != fields[i])
      v = UnrealizedConversionCastOp::create(fb, loc, fields[i], v).getResult(0);
    Value at = LLVM::GEPOp::create(fb, loc, ptr, record, rec,
                                   ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    LLVM::StoreOp::create(fb, loc, v, at);
  }
  auto runtime = module.lookupSymbol<func::FuncOp>(kParallelFor);
  if (!runtime) {
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    runtime = func::FuncOp::create(mb, loc, kParallelFor,
                                   b.getFunctionType({taskType, ptr, i64, i64}, {}));
    runtime.setPrivate();
  }
  Value fnPtr = func::ConstantOp::create(fb, loc, taskType, task.getSymName());
  func::CallOp::create(fb, loc, runtime,
                       ValueRange{fnPtr, rec, arith::IndexCastOp::create(fb, loc, i64, n),
                                  arith::IndexCastOp::create(fb, loc, i64, total)});
  op->erase();
  // Constants only the op used.
  SmallVector<Operation *> unused;
  for (Operation &o : entry.without_terminator())
    if (o.use_empty() && o.hasTrait<OpTrait::ConstantLike>())
      unused.push_back(&o);
  for (Operation *o : unused)
    o->erase();
  return success();
}
} // namespace
} // namespace mlir::pd

//===- TrainLayouts.cpp - blocked activations through a train step -------===//
//
// pd-train-layouts (docs/CodeGen.md). In a train step the convolution
// kernels (pdk_conv2d, pdk_conv2d_backward_data/_weights) sit between
// generated loops (batch norm in training mode and its gradient, relu and
// its mask, residual adds, the fan-out sums), so inference's trick of
// keeping a kernel-only tensor in oneDNN's layout does not apply: every
// kernel call reordered its activations from NCHW and back (ResNet-50,
// batch 8: ~90 ms of ~870 ms per step). Here the activations themselves
// change layout: a 4-D tensor [N, C, H, W] with C a multiple of 16 becomes
// a 5-D tensor [N, C/16, H, W, 16] (oneDNN's nChw16c, row-major), which
// the kernels take as is, and the elementwise and per-channel loops run on
// it with the channel loop split in two (channel block, lane).
//
// The rewrite goes through the function's top-level ops in order:
//  - a conv kernel call takes its activation operands blocked and, when
//    its result has such a shape, writes it blocked (the layout fields say
//    nChw16c);
//  - a linalg.generic whose 4-D operands all have identity maps (and such
//    a shape) and whose other operands index the channel last or not at
//    all, with at least one blocked 4-D input or only an init of that
//    shape, is rebuilt over 5 loops: 4-D operands blocked, a [.., C]
//    operand viewed as [.., C/16, 16] (a free reshape), the body unchanged;
//  - conversions are made where a blocked value meets a plain reader or
//    the other way round, once per value: fp32 ones by the kernel
//    library's pdk_reorder (oneDNN), others (a relu's mask) by a transpose
//    loop; unused ones are erased at the end.
// Functions without convolution gradient calls are left alone.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Runtime/KernelABI.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::pd {
#define GEN_PASS_DEF_PDTRAINLAYOUTSPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"
} // namespace mlir::pd

using namespace mlir;
using namespace mlir::pd;

namespace {
constexpr int64_t kBlock = pdk::layout::NChw16c;

/// A static 4-D tensor type whose dim 1 (channels) splits into blocks.
bool blockable(Type t) {
  auto r = dyn_cast<RankedTensorType>(t);
  return r && r.getRank() == 4 && r.hasStaticShape() && r.getDimSize(1) % kBlock == 0;
}

RankedTensorType blockedType(Type t) {
  auto r = cast<RankedTensorType>(t);
  return RankedTensorType::get(
      {r.getDimSize(0), r.getDimSize(1) / kBlock, r.getDimSize(2), r.getDimSize(3), kBlock},
      r.getElementType());
}

bool isConvKernel(KernelCallOp call) {
  StringRef c = call.getCallee();
  return c == "pdk_conv2d" || c == "pdk_conv2d_backward_data" || c == "pdk_conv2d_backward_weights";
}

/// The reassociation that splits the last dim of a rank-`rank` tensor in
/// two ([.., C] <-> [.., C/16, 16]).
SmallVector<ReassociationIndices> splitLast(int64_t rank) {
  SmallVector<ReassociationIndices> re;
  for (int64_t i = 0; i + 1 < rank; ++i)
    re.push_back({i});
  re.push_back({rank - 1, rank});
  return re;
}

/// A transpose between [N, C/16, 16, H, W] and [N, C/16, H, W, 16] (in
/// either direction, by `perm`), as a generic loop nest.
Value transpose(OpBuilder &b, Location loc, Value src, ArrayRef<int64_t> shape,
                ArrayRef<int64_t> perm) {
  auto srcType = cast<RankedTensorType>(src.getType());
  Value init = tensor::EmptyOp::create(b, loc, shape, srcType.getElementType());
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> exprs;
  for (int64_t p : perm)
    exprs.push_back(getAffineDimExpr(p, ctx));
  // out[i] = src[perm applied]: the input map picks the source index of each
  // output loop.
  AffineMap in = AffineMap::get(5, 0, exprs, ctx);
  AffineMap out = AffineMap::getMultiDimIdentityMap(5, ctx);
  SmallVector<utils::IteratorType> its(5, utils::IteratorType::parallel);
  auto g = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{src}, ValueRange{init},
      ArrayRef<AffineMap>{in, out}, its,
      [](OpBuilder &nb, Location l, ValueRange args) { linalg::YieldOp::create(nb, l, args[0]); });
  return g.getResult(0);
}

struct Rewriter {
  /// The blocked form of a plain 4-D value (and of the plain conversions
  /// made from a blocked one: their source).
  DenseMap<Value, Value> blocked;
  /// The plain form made of a blocked value.
  DenseMap<Value, Value> plain;
  OpBuilder b;
  int64_t converted = 0;

  explicit Rewriter(MLIRContext *ctx) : b(ctx) {}

  void setAfterDef(Value v) {
    if (Operation *def = v.getDefiningOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
  }

  /// The fill of a new tensor that defines `v`, if so (blocked for free).
  static linalg::FillOp filled(Value v) {
    auto fill = v.getDefiningOp<linalg::FillOp>();
    return fill && fill.hasPureTensorSemantics() &&
                   fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>()
               ? fill
               : linalg::FillOp();
  }

  /// An fp32 layout conversion by the kernel library (oneDNN's reorders
  /// are several times faster than a generated transpose loop).
  Value reorderCall(Location loc, Value src, RankedTensorType type, int64_t from, int64_t to) {
    Value init = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    SmallVector<int64_t> ints(pdk::reorder::NumInts);
    ints[pdk::reorder::SrcLayout] = from;
    ints[pdk::reorder::DstLayout] = to;
    auto call = KernelCallOp::create(b, loc, TypeRange{type}, b.getStringAttr("pdk_reorder"),
                                     ValueRange{src}, init, b.getDenseI64ArrayAttr({0}),
                                     b.getDenseI64ArrayAttr(ints), b.getDenseF32ArrayAttr({}));
    call->setAttr("pd.from", b.getStringAttr("layout conversion"));
    return call.getResult();
  }

  /// `v` ([N, C, H, W]) as [N, C/16, H, W, 16].
  Value toBlocked(Value v) {
    if (Value bv = blocked.lookup(v))
      return bv;
    OpBuilder::InsertionGuard guard(b);
    setAfterDef(v);
    Location loc = v.getLoc();
    RankedTensorType bt = blockedType(v.getType());
    Value result;
    if (v.getDefiningOp<tensor::EmptyOp>()) {
      result = tensor::EmptyOp::create(b, loc, bt.getShape(), bt.getElementType());
    } else if (auto fill = filled(v)) {
      Value e = tensor::EmptyOp::create(b, loc, bt.getShape(), bt.getElementType());
      result = linalg::FillOp::create(b, loc, fill.getInputs()[0], e).getResult(0);
    } else if (cast<RankedTensorType>(v.getType()).getElementType().isF32()) {
      result = reorderCall(loc, v, bt, pdk::layout::NCHW, kBlock);
    } else {
      auto t = cast<RankedTensorType>(v.getType());
      SmallVector<int64_t> split = {t.getDimSize(0), bt.getDimSize(1), kBlock, t.getDimSize(2),
                                    t.getDimSize(3)};
      Value e =
          tensor::ExpandShapeOp::create(b, loc, RankedTensorType::get(split, t.getElementType()), v,
                                        SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
      // blocked[n, cb, h, w, c] = split[n, cb, c, h, w]
      result = transpose(b, loc, e, bt.getShape(), {0, 1, 4, 2, 3});
    }
    blocked[v] = result;
    return result;
  }

  /// Blocked `bv` ([N, C/16, H, W, 16]) as [N, C, H, W].
  Value toPlain(Value bv) {
    if (Value p = plain.lookup(bv))
      return p;
    OpBuilder::InsertionGuard guard(b);
    setAfterDef(bv);
    Location loc = bv.getLoc();
    auto bt = cast<RankedTensorType>(bv.getType());
    SmallVector<int64_t> split = {bt.getDimSize(0), bt.getDimSize(1), kBlock, bt.getDimSize(2),
                                  bt.getDimSize(3)};
    auto pt = RankedTensorType::get({split[0], split[1] * kBlock, split[3], split[4]},
                                    bt.getElementType());
    Value p;
    if (bt.getElementType().isF32()) {
      p = reorderCall(loc, bv, pt, kBlock, pdk::layout::NCHW);
    } else {
      // split[n, cb, c, h, w] = blocked[n, cb, h, w, c]
      Value t = transpose(b, loc, bv, split, {0, 1, 3, 4, 2});
      p = tensor::CollapseShapeOp::create(b, loc, pt, t,
                                          SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    }
    plain[bv] = p;
    blocked[p] = bv;
    return p;
  }

  /// Replaces the uses of plain `old` (whose op goes) by the plain form of
  /// blocked `bv`, made only if something reads it. (`old` is not
  /// recorded: a later value may reuse its storage.)
  void replacePlain(Value old, Value bv) {
    if (!old.use_empty())
      old.replaceAllUsesWith(toPlain(bv));
  }

  /// A conv kernel call with its activation sides blocked where they have
  /// such a shape.
  void rewriteKernel(KernelCallOp call) {
    namespace cg = pdk::convgrad;
    StringRef callee = call.getCallee();
    bool fwd = callee == "pdk_conv2d", data = callee == "pdk_conv2d_backward_data";
    ArrayRef<int64_t> slots = call.getSlots();
    SmallVector<int64_t> ints(call.getInts());
    if (static_cast<int64_t>(ints.size()) !=
        (fwd ? static_cast<int64_t>(pdk::conv::NumInts) : static_cast<int64_t>(cg::NumInts)))
      return;
    SmallVector<Value> inputs(call.getInputs());
    // The activation slot(s) read and the layout field of each.
    SmallVector<std::pair<int64_t, int64_t>> reads;
    int64_t dstField = -1;
    if (fwd) {
      if (slots[pdk::conv::Residual] >= 0)
        return;
      reads.push_back({pdk::conv::Input, pdk::conv::SrcLayout});
      dstField = pdk::conv::DstLayout;
    } else {
      reads.push_back({cg::OutputGrad, cg::DyLayout});
      if (data)
        dstField = cg::XLayout;
      else
        reads.push_back({cg::Input, cg::XLayout});
    }
    bool changed = false;
    for (auto [slot, field] : reads) {
      Value &v = inputs[slots[slot]];
      if (!blockable(v.getType()) || ints[field] != pdk::layout::NCHW)
        continue;
      v = toBlocked(v);
      ints[field] = kBlock;
      changed = true;
    }
    Value result = call.getResult();
    if (!result)
      return;
    bool blockResult =
        dstField >= 0 && blockable(result.getType()) && ints[dstField] == pdk::layout::NCHW;
    if (!changed && !blockResult)
      return;
    b.setInsertionPoint(call);
    Value init = call.getInit();
    Type resultType = result.getType();
    if (blockResult) {
      ints[dstField] = kBlock;
      RankedTensorType bt = blockedType(result.getType());
      init = tensor::EmptyOp::create(b, call.getLoc(), bt.getShape(), bt.getElementType());
      resultType = bt;
    }
    auto next = KernelCallOp::create(b, call.getLoc(), TypeRange{resultType},
                                     b.getStringAttr(callee), inputs, init, call.getSlotsAttr(),
                                     b.getDenseI64ArrayAttr(ints), call.getFloatsAttr());
    next->setDiscardableAttrs(call->getDiscardableAttrDictionary());
    if (blockResult)
      replacePlain(result, next.getResult());
    else
      result.replaceAllUsesWith(next.getResult());
    call.erase();
    ++converted;
  }

  /// Whether generic `g` is rewritten: see the file comment.
  bool wantsBlocked(linalg::GenericOp g) {
    if (g.getNumLoops() != 4 || !g.hasPureTensorSemantics())
      return false;
    if (!g.getBody()->getOps<linalg::IndexOp>().empty())
      return false;
    bool found = false;
    for (OpOperand &o : g->getOpOperands()) {
      auto t = dyn_cast<RankedTensorType>(o.get().getType());
      if (!t || !t.hasStaticShape())
        return false;
      AffineMap m = g.getMatchingIndexingMap(&o);
      if (t.getRank() == 4 && m.isIdentity()) {
        if (!blockable(t))
          return false;
        found = true;
        continue;
      }
      // Any other operand: pure dims and constants; the channel loop, if
      // used, last (linalg then makes that dim the channel count).
      for (auto [i, e] : llvm::enumerate(m.getResults())) {
        if (isa<AffineConstantExpr>(e))
          continue;
        auto d = dyn_cast<AffineDimExpr>(e);
        if (!d)
          return false;
        if (d.getPosition() == 1 && i + 1 != m.getNumResults())
          return false;
      }
    }
    if (!found)
      return false;
    // Worth it when a 4-D input is blocked already, or when all are free to
    // block (none, or fills: a broadcast of smaller operands).
    bool blockedInput = false, allFree = true;
    for (OpOperand *in : g.getDpsInputOperands()) {
      if (cast<RankedTensorType>(in->get().getType()).getRank() == 4 &&
          g.getMatchingIndexingMap(in).isIdentity()) {
        blockedInput |= blocked.count(in->get()) > 0;
        allFree &= static_cast<bool>(filled(in->get()));
      }
    }
    return blockedInput || allFree;
  }

  void rewriteGeneric(linalg::GenericOp g) {
    MLIRContext *ctx = g.getContext();
    Location loc = g.getLoc();
    b.setInsertionPoint(g);
    AffineExpr lane = getAffineDimExpr(4, ctx);
    SmallVector<Value> ins, outs;
    SmallVector<AffineMap> maps;
    // For each result: 0 plain (unchanged type), 1 blocked 4-D, 2 a
    // channel-last operand viewed as [.., C/16, 16].
    SmallVector<int> resultKind;
    auto convert = [&](OpOperand &o, bool isInit) -> Value {
      Value v = o.get();
      auto t = cast<RankedTensorType>(v.getType());
      AffineMap m = g.getMatchingIndexingMap(&o);
      if (t.getRank() == 4 && m.isIdentity()) {
        maps.push_back(AffineMap::getMultiDimIdentityMap(5, ctx));
        if (isInit)
          resultKind.push_back(1);
        return toBlocked(v);
      }
      SmallVector<AffineExpr> exprs(m.getResults());
      bool channel = !exprs.empty() && isa<AffineDimExpr>(exprs.back()) &&
                     cast<AffineDimExpr>(exprs.back()).getPosition() == 1;
      if (!channel) {
        maps.push_back(AffineMap::get(5, 0, exprs, ctx));
        if (isInit)
          resultKind.push_back(0);
        return v;
      }
      exprs.push_back(lane);
      maps.push_back(AffineMap::get(5, 0, exprs, ctx));
      if (isInit)
        resultKind.push_back(2);
      SmallVector<int64_t> shape(t.getShape());
      shape.back() /= kBlock;
      shape.push_back(kBlock);
      return tensor::ExpandShapeOp::create(b, loc, RankedTensorType::get(shape, t.getElementType()),
                                           v, splitLast(t.getRank()));
    };
    for (OpOperand *in : g.getDpsInputOperands())
      ins.push_back(convert(*in, false));
    for (OpOperand &init : g.getDpsInitsMutable())
      outs.push_back(convert(init, true));
    SmallVector<utils::IteratorType> its = g.getIteratorTypesArray();
    its.push_back(its[1]);
    SmallVector<Type> types;
    for (Value o : outs)
      types.push_back(o.getType());
    auto next = linalg::GenericOp::create(b, loc, types, ins, outs, maps, its, nullptr);
    IRMapping map;
    g.getRegion().cloneInto(&next.getRegion(), map);
    next->setDiscardableAttrs(g->getDiscardableAttrDictionary());
    b.setInsertionPointAfter(next);
    for (auto [i, r] : llvm::enumerate(g->getResults())) {
      Value nr = next->getResult(i);
      if (resultKind[i] == 1) {
        replacePlain(r, nr);
      } else if (resultKind[i] == 2) {
        auto t = cast<RankedTensorType>(r.getType());
        r.replaceAllUsesWith(
            tensor::CollapseShapeOp::create(b, loc, t, nr, splitLast(t.getRank())).getResult());
      } else {
        r.replaceAllUsesWith(nr);
      }
    }
    g.erase();
    ++converted;
  }
};

struct PdTrainLayoutsPass : mlir::pd::impl::PdTrainLayoutsPassBase<PdTrainLayoutsPass> {
  using PdTrainLayoutsPassBase::PdTrainLayoutsPassBase;

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.isExternal())
      return;
    bool train = false;
    fn.walk([&](KernelCallOp c) {
      train |= c.getCallee() == "pdk_conv2d_backward_data" ||
               c.getCallee() == "pdk_conv2d_backward_weights";
    });
    if (!train)
      return;
    Rewriter rw(&getContext());
    SmallVector<Operation *> ops;
    for (Operation &op : fn.getBody().front())
      ops.push_back(&op);
    for (Operation *op : ops) {
      if (auto call = dyn_cast<KernelCallOp>(op)) {
        if (isConvKernel(call))
          rw.rewriteKernel(call);
      } else if (auto g = dyn_cast<linalg::GenericOp>(op)) {
        if (rw.wantsBlocked(g))
          rw.rewriteGeneric(g);
      }
    }
    // Conversions and views nothing reads (made eagerly for plain readers
    // that were rewritten later), innermost first.
    bool erased = true;
    while (erased) {
      erased = false;
      for (Operation &op : llvm::make_early_inc_range(llvm::reverse(fn.getBody().front()))) {
        if (!op.use_empty() || op.getNumResults() == 0)
          continue;
        auto call = dyn_cast<KernelCallOp>(op);
        if (isa<tensor::EmptyOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op) ||
            (call && call.getCallee() == "pdk_reorder") ||
            (isa<linalg::GenericOp>(op) && cast<linalg::GenericOp>(op).hasPureTensorSemantics())) {
          op.erase();
          erased = true;
        }
      }
    }
    // For the artifact's manifest (kernels.train_layout).
    if (rw.converted) {
      Builder b(&getContext());
      fn->setAttr("pd.train_layout",
                  b.getDictionaryAttr({b.getNamedAttr("layout", b.getStringAttr("nChw16c")),
                                       b.getNamedAttr("ops", b.getI64IntegerAttr(rw.converted))}));
    }
  }
};
} // namespace

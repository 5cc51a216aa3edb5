//===- MemoryPlan.cpp - static memory planning of @main's buffers --------===//
//
// pd-split-init-tensors (before bufferization) undoes CSE of destination
// tensors so every op gets its own buffer; pd-plan-memory (after
// bufferization) places those buffers in one arena by liveness.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Runtime/KernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::pd {
#define GEN_PASS_DEF_PDSPLITINITTENSORSPASS
#define GEN_PASS_DEF_PDPLANMEMORYPASS
#define GEN_PASS_DEF_PDFORWARDARENARESULTSPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"

namespace {

//===----------------------------------------------------------------------===//
// pd-split-init-tensors
//===----------------------------------------------------------------------===//

/// Clones `op` (and a tensor.empty it fills) right before `use`'s owner and
/// redirects that use to the clone.
void cloneForUse(Operation *op, OpOperand &use) {
  OpBuilder b(use.getOwner());
  IRMapping map;
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    if (auto empty = fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
      map.map(empty.getResult(), b.clone(*empty)->getResult(0));
  use.set(b.clone(*op, map)->getResult(0));
}

struct PdSplitInitTensorsPass : impl::PdSplitInitTensorsPassBase<PdSplitInitTensorsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> shared;
    getOperation().walk([&](Operation *op) {
      bool isFill = isa<linalg::FillOp>(op) && op->getNumResults() == 1;
      if ((isFill || isa<tensor::EmptyOp>(op)) && !op->getResult(0).hasOneUse() &&
          !op->getResult(0).use_empty())
        shared.push_back(op);
    });
    // Fills first: their clones take their own tensor.empty along, which
    // may leave the original empty with a single use.
    llvm::stable_sort(shared, [](Operation *a, Operation *b) {
      return isa<linalg::FillOp>(a) && !isa<linalg::FillOp>(b);
    });
    for (Operation *op : shared) {
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : op->getResult(0).getUses())
        uses.push_back(&use);
      // The first user in program order keeps the original.
      Block *block = op->getBlock();
      llvm::stable_sort(uses, [&](OpOperand *x, OpOperand *y) {
        Operation *ax = block->findAncestorOpInBlock(*x->getOwner());
        Operation *ay = block->findAncestorOpInBlock(*y->getOwner());
        return ax && ay && ax != ay && ax->isBeforeInBlock(ay);
      });
      for (OpOperand *use : llvm::drop_begin(uses))
        cloneForUse(op, *use);
    }
    // A value materialized into an argument (a train step's parameter
    // update, see pd-externalize-weights) is computed in the argument: the
    // tensor.empty its producer writes into becomes the argument, so
    // bufferization writes the update in place (or, where a later read
    // still needs the old value, into a copy, as for any conflict).
    SmallVector<std::pair<OpOperand *, BlockArgument>> redirect;
    getOperation().walk([&](bufferization::MaterializeInDestinationOp m) {
      auto dest = dyn_cast<BlockArgument>(m.getDest());
      auto res = dyn_cast<OpResult>(m.getSource());
      if (!dest || !res || !isa<linalg::LinalgOp>(res.getOwner()))
        return;
      OpOperand *init = cast<DestinationStyleOpInterface>(res.getOwner()).getTiedOpOperand(res);
      auto empty = init->get().getDefiningOp<tensor::EmptyOp>();
      if (empty && empty->hasOneUse() && empty.getType() == dest.getType())
        redirect.push_back({init, dest});
    });
    for (auto [init, dest] : redirect) {
      Operation *empty = init->get().getDefiningOp();
      init->set(dest);
      empty->erase();
    }
  }
};

//===----------------------------------------------------------------------===//
// pd-plan-memory
//===----------------------------------------------------------------------===//

constexpr int64_t kAlign = 64;
int64_t alignUp(int64_t x) { return (x + kAlign - 1) / kAlign * kAlign; }

struct UseSite {
  int64_t pos;     // position of the top-level op containing the use
  Operation *user; // the op that uses the buffer (may be nested)
  Value value;     // the buffer or a view of it
};

struct Buffer {
  memref::AllocOp alloc;
  int64_t start = INT64_MAX, end = -1;
  SmallVector<UseSite> uses;
  bool result = false;                // returned by @main
  std::optional<int64_t> staticBytes; // aligned
  int64_t hintBytes = 0;              // aligned, dynamic dims at the hint
  Value bytes;                        // aligned size, defined in the prologue
  int slot = -1;
};

/// Buffers that share one region of the arena: an in-place chain.
struct Slot {
  SmallVector<unsigned> members;
  int64_t start = 0, end = 0;
  unsigned sizeOf = 0; // the buffer whose size the slot has
  Value offset;
  int64_t hintOffset = 0;
};

class Planner {
public:
  Planner(func::FuncOp main, int64_t hint, bool enabled)
      : main(main), entry(main.front()), hint(hint), enabled(enabled) {}

  LogicalResult run(bool report);

private:
  bool collectHoistable(Value v, llvm::SetVector<Operation *> &ops);
  void hoistSizes();
  std::optional<int64_t> evalAtHint(Value v);
  std::optional<int64_t> evalAtHintUncached(Value v);
  void analyze();
  bool canContinueSlot(Buffer &a, Buffer &b);
  bool canRunInPlace(Buffer &a, Buffer &b, linalg::GenericOp g, OpOperand &in);
  std::optional<unsigned> residualInPlace(KernelCallOp call, Buffer &b);
  void formSlots();
  Value constant(int64_t v) {
    Value &c = constants[v];
    if (!c)
      c = arith::ConstantIndexOp::create(prologue, main.getLoc(), v);
    return c;
  }
  void place(bool allStatic);
  void rewrite();
  func::FuncOp emitPrologueFunction(ModuleOp module, StringRef name, bool table);
  void loadOffsetsFromTable(ModuleOp module);
  void printReport(llvm::raw_ostream &os);
  int64_t numResults() const {
    return llvm::count_if(buffers, [](const Buffer &b) { return b.result; });
  }

  func::FuncOp main;
  Block &entry;
  int64_t hint;
  bool enabled; // false: every buffer stays on the heap
  OpBuilder prologue{main.getContext()};
  Operation *firstBodyOp = nullptr;
  SmallVector<Operation *> prologueOps; // what @main_arena_bytes replays
  DenseMap<int64_t, Value> constants;
  DenseMap<Operation *, int64_t> position;
  SmallVector<Operation *> opAt;
  std::vector<Buffer> buffers;
  DenseMap<Value, unsigned> bufferOf;
  std::vector<Slot> slots;
  unsigned unplanned = 0, escaping = 0;
  std::optional<int64_t> staticTotal;
  int64_t hintTotal = 0;
  Value total;
  BlockArgument arena;
  llvm::SmallPtrSet<Operation *, 32> hoisted;
  // evalAtHint's results: sizes share their subexpressions (a dynamic
  // image size flows through every layer), so without it the walk is
  // exponential in the depth (HarDNet with dynamic H, W: > 10 minutes).
  DenseMap<Value, std::optional<int64_t>> atHint;
};

/// True when `v` can be computed at the top of @main: it depends only on
/// @main's arguments through side-effect-free ops.
bool Planner::collectHoistable(Value v, llvm::SetVector<Operation *> &ops) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() == &entry;
  Operation *def = v.getDefiningOp();
  if (ops.contains(def))
    return true;
  if (def->getBlock() != &entry || def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  if (auto dim = dyn_cast<memref::DimOp>(def))
    if (!isa<BlockArgument>(dim.getSource()))
      return false;
  for (Value operand : def->getOperands())
    if (!collectHoistable(operand, ops))
      return false;
  ops.insert(def);
  return true;
}

/// Moves the computations of hoistable dynamic alloc sizes to the top of the
/// block, so every offset can be computed before the first op runs.
void Planner::hoistSizes() {
  llvm::SetVector<Operation *> ops;
  for (auto alloc : entry.getOps<memref::AllocOp>()) {
    llvm::SetVector<Operation *> mine = ops;
    bool ok =
        llvm::all_of(alloc.getDynamicSizes(), [&](Value v) { return collectHoistable(v, mine); });
    if (ok)
      ops = std::move(mine);
  }
  DenseMap<Operation *, int64_t> order;
  int64_t i = 0;
  for (Operation &op : entry)
    order[&op] = i++;
  SmallVector<Operation *> sorted(ops.begin(), ops.end());
  llvm::sort(sorted, [&](Operation *a, Operation *b) { return order[a] < order[b]; });
  Operation *anchor = nullptr;
  for (Operation *op : sorted) {
    if (!anchor) {
      if (op != &entry.front())
        op->moveBefore(&entry.front());
    } else if (anchor->getNextNode() != op) {
      op->moveAfter(anchor);
    }
    anchor = op;
    hoisted.insert(op);
  }
  firstBodyOp = anchor ? anchor->getNextNode() : &entry.front();
  prologue.setInsertionPoint(firstBodyOp);
}

/// Evaluates an index value with every dynamic input dim set to the hint.
std::optional<int64_t> Planner::evalAtHint(Value v) {
  auto it = atHint.find(v);
  if (it != atHint.end())
    return it->second;
  std::optional<int64_t> r = evalAtHintUncached(v);
  atHint[v] = r;
  return r;
}

std::optional<int64_t> Planner::evalAtHintUncached(Value v) {
  IntegerAttr attr;
  if (matchPattern(v, m_Constant(&attr)))
    return attr.getInt();
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto dim = dyn_cast<memref::DimOp>(def)) {
    std::optional<int64_t> index = evalAtHint(dim.getIndex());
    auto type = cast<MemRefType>(dim.getSource().getType());
    if (!index || *index < 0 || *index >= type.getRank())
      return std::nullopt;
    return type.isDynamicDim(*index) ? hint : type.getDimSize(*index);
  }
  SmallVector<Attribute> operands;
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> x = evalAtHint(operand);
    if (!x)
      return std::nullopt;
    operands.push_back(IntegerAttr::get(operand.getType(), *x));
  }
  SmallVector<OpFoldResult> folded;
  if (failed(def->fold(operands, folded)) || folded.size() != 1)
    return std::nullopt;
  if (auto value = dyn_cast<Value>(folded[0]))
    return value == v ? std::nullopt : evalAtHint(value);
  if (auto i = dyn_cast_if_present<IntegerAttr>(dyn_cast<Attribute>(folded[0])))
    return i.getInt();
  return std::nullopt;
}

void Planner::analyze() {
  int64_t i = 0;
  for (Operation &op : entry) {
    position[&op] = i++;
    opAt.push_back(&op);
  }
  DataLayout layout = DataLayout::closest(main);
  for (auto alloc : llvm::make_early_inc_range(entry.getOps<memref::AllocOp>())) {
    MemRefType type = alloc.getType();
    bool sizesReady = llvm::all_of(alloc.getDynamicSizes(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      return def && hoisted.contains(def);
    });
    if (!type.getLayout().isIdentity() || !alloc.getSymbolOperands().empty() || !sizesReady) {
      ++unplanned;
      continue;
    }
    Buffer buf;
    buf.alloc = alloc;
    bool escapes = false;
    llvm::SetVector<Value> values;
    values.insert(alloc.getResult());
    for (unsigned k = 0; k < values.size(); ++k) {
      for (OpOperand &use : values[k].getUses()) {
        Operation *user = use.getOwner();
        Operation *top = entry.findAncestorOpInBlock(*user);
        if (!top) {
          escapes = true;
          break;
        }
        // A result lives in the arena until @main returns; the runtime
        // copies it out before the next run (pd-forward-arena-results drops
        // the copy the deallocation pipeline makes of it).
        if (isa<func::ReturnOp>(top))
          buf.result = true;
        buf.uses.push_back({position[top], user, values[k]});
        buf.start = std::min(buf.start, position[top]);
        buf.end = std::max(buf.end, position[top]);
        // The buffer's address (a library call's argument, on the cuda
        // target) keeps it alive until the last op that takes the address.
        if (isa<memref::ExtractAlignedPointerAsIndexOp>(user)) {
          SmallVector<Value> addresses = {user->getResult(0)};
          while (!addresses.empty()) {
            Value a = addresses.pop_back_val();
            for (Operation *reader : a.getUsers()) {
              if (Operation *at = entry.findAncestorOpInBlock(*reader))
                buf.end = std::max(buf.end, position[at]);
              if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(reader))
                addresses.push_back(reader->getResult(0));
            }
          }
        }
        // Anything producing a memref from the buffer may alias it.
        for (Value r : user->getResults())
          if (isa<BaseMemRefType>(r.getType()))
            values.insert(r);
      }
      if (escapes)
        break;
    }
    if (escapes) {
      ++escaping;
      continue;
    }
    if (buf.uses.empty())
      continue;
    int64_t elemBytes = layout.getTypeSize(type.getElementType());
    int64_t staticNumel = 1;
    for (int64_t d : type.getShape())
      if (!ShapedType::isDynamic(d))
        staticNumel *= d;
    int64_t hintBytes = staticNumel * elemBytes;
    Value bytes = nullptr;
    for (Value d : alloc.getDynamicSizes()) {
      std::optional<int64_t> at = evalAtHint(d);
      hintBytes = at ? hintBytes * *at : int64_t(1) << 40;
      bytes = bytes ? arith::MulIOp::create(prologue, alloc.getLoc(), bytes, d).getResult() : d;
    }
    buf.hintBytes = alignUp(hintBytes);
    if (!bytes) {
      buf.staticBytes = buf.hintBytes;
      buf.bytes = constant(*buf.staticBytes);
    } else {
      // ((numel * elemBytes + 63) / 64) * 64
      Location loc = alloc.getLoc();
      bytes = arith::MulIOp::create(prologue, loc, bytes, constant(staticNumel * elemBytes));
      bytes = arith::AddIOp::create(prologue, loc, bytes, constant(kAlign - 1));
      bytes = arith::DivUIOp::create(prologue, loc, bytes, constant(kAlign));
      buf.bytes = arith::MulIOp::create(prologue, loc, bytes, constant(kAlign));
    }
    bufferOf[alloc.getResult()] = buffers.size();
    buffers.push_back(std::move(buf));
  }
}

/// Whether `b`, born where `a` dies, may continue `a`'s slot: `a` ends its
/// in-place chain and both have the same byte size.
bool Planner::canContinueSlot(Buffer &a, Buffer &b) {
  if (a.slot < 0 || a.end != b.start ||
      slots[a.slot].members.back() != bufferOf.lookup(a.alloc.getResult()))
    return false;
  MemRefType ta = a.alloc.getType(), tb = b.alloc.getType();
  return a.staticBytes ? (b.staticBytes && *a.staticBytes == *b.staticBytes)
                       : (ta.getShape() == tb.getShape() &&
                          a.alloc.getDynamicSizes() == b.alloc.getDynamicSizes());
}

/// Whether generic `g`, the last use of buffer `a` (through operand `in`),
/// may write its result `b` over `a`.
bool Planner::canRunInPlace(Buffer &a, Buffer &b, linalg::GenericOp g, OpOperand &in) {
  if (!canContinueSlot(a, b) || !g.getMatchingIndexingMap(&in).isIdentity() ||
      a.alloc.getType().getElementTypeBitWidth() != b.alloc.getType().getElementTypeBitWidth())
    return false;
  // `a` must be read by `g` through this one operand only.
  for (const UseSite &u : a.uses)
    if (u.pos == a.end && (u.user != g.getOperation() || u.value != in.get()))
      return false;
  return llvm::count_if(g->getOpOperands(), [&](OpOperand &o) { return o.get() == in.get(); }) == 1;
}

/// A convolution kernel with a residual accumulates into its destination
/// (oneDNN's sum post-op), so the residual is first copied there (2% of
/// ResNet-50). When this call is the residual's last use, the residual and
/// the destination `b` have one layout and one size, and `b` is written
/// only here, `b` can take the residual's slot: the kernel then finds the
/// residual already in place. Returns the residual's buffer.
std::optional<unsigned> Planner::residualInPlace(KernelCallOp call, Buffer &b) {
  namespace conv = pdk::conv;
  ArrayRef<int64_t> slotsOf = call.getSlots(), ints = call.getInts();
  // pdk_conv2d and its Winograd variants (pdk_conv2d_winograd[4]) share
  // the operands and parameters.
  if (!call.getCallee().starts_with("pdk_conv2d") || call.getInit() != b.alloc.getResult() ||
      slotsOf.size() <= conv::Residual || slotsOf[conv::Residual] < 0 ||
      ints.size() <= conv::DstLayout || ints[conv::ResLayout] != ints[conv::DstLayout])
    return std::nullopt;
  Value res = call.getInputs()[slotsOf[conv::Residual]];
  // pdk_conv2d_bf16 may read an f32 residual into a bf16 destination.
  if (cast<ShapedType>(res.getType()).getElementType() !=
      cast<ShapedType>(call.getInit().getType()).getElementType())
    return std::nullopt;
  auto it = bufferOf.find(res);
  if (it == bufferOf.end())
    return std::nullopt;
  Buffer &a = buffers[it->second];
  if (!canContinueSlot(a, b))
    return std::nullopt;
  // The call reads `a` through the residual operand only, and nothing else
  // touches `b` at the call.
  for (const UseSite &u : a.uses)
    if (u.pos == a.end && (u.user != call.getOperation() || u.value != res))
      return std::nullopt;
  for (const UseSite &u : b.uses)
    if (u.pos == b.start && (u.user != call.getOperation() || u.value != b.alloc.getResult()))
      return std::nullopt;
  if (llvm::count(call->getOperands(), res) != 1 ||
      llvm::count(call->getOperands(), b.alloc.getResult()) != 1)
    return std::nullopt;
  return it->second;
}

void Planner::formSlots() {
  SmallVector<unsigned> byStart(buffers.size());
  for (unsigned i = 0; i < buffers.size(); ++i)
    byStart[i] = i;
  llvm::stable_sort(byStart,
                    [&](unsigned x, unsigned y) { return buffers[x].start < buffers[y].start; });
  for (unsigned bi : byStart) {
    Buffer &b = buffers[bi];
    auto g = dyn_cast<linalg::GenericOp>(opAt[b.start]);
    bool written =
        g && g.getNumLoops() == g.getNumParallelLoops() &&
        llvm::all_of(b.uses, [&](const UseSite &u) {
          return u.pos != b.start || (u.user == g.getOperation() && u.value == b.alloc.getResult());
        });
    OpOperand *init = nullptr;
    if (written)
      for (OpOperand &o : g.getDpsInitsMutable())
        if (o.get() == b.alloc.getResult() && g.getMatchingIndexingMap(&o).isIdentity())
          init = &o;
    if (init && llvm::count_if(g->getOpOperands(),
                               [&](OpOperand &o) { return o.get() == b.alloc.getResult(); }) == 1) {
      for (OpOperand *in : g.getDpsInputOperands()) {
        auto it = bufferOf.find(in->get());
        if (it == bufferOf.end() || !canRunInPlace(buffers[it->second], b, g, *in))
          continue;
        Slot &s = slots[buffers[it->second].slot];
        s.members.push_back(bi);
        s.end = b.end;
        b.slot = buffers[it->second].slot;
        break;
      }
    }
    if (b.slot < 0)
      if (auto call = dyn_cast<KernelCallOp>(opAt[b.start]))
        if (std::optional<unsigned> a = residualInPlace(call, b)) {
          Slot &s = slots[buffers[*a].slot];
          s.members.push_back(bi);
          s.end = b.end;
          b.slot = buffers[*a].slot;
        }
    if (b.slot >= 0)
      continue;
    b.slot = slots.size();
    Slot s;
    s.members.push_back(bi);
    s.start = b.start;
    s.end = b.end;
    s.sizeOf = bi;
    slots.push_back(s);
  }
}

/// Greedy by size: largest slots first. Static sizes: the best-fitting gap
/// among slots whose lifetimes overlap. Dynamic sizes: on top of them.
void Planner::place(bool allStatic) {
  SmallVector<unsigned> order(slots.size());
  for (unsigned i = 0; i < slots.size(); ++i)
    order[i] = i;
  llvm::stable_sort(order, [&](unsigned x, unsigned y) {
    const Buffer &bx = buffers[slots[x].sizeOf], &by = buffers[slots[y].sizeOf];
    return bx.hintBytes != by.hintBytes ? bx.hintBytes > by.hintBytes
                                        : slots[x].start < slots[y].start;
  });
  SmallVector<unsigned> placed;
  std::vector<llvm::BitVector> under(slots.size());
  int64_t top = 0;
  Value dynTop = nullptr;
  for (unsigned si : order) {
    Slot &s = slots[si];
    const Buffer &sb = buffers[s.sizeOf];
    SmallVector<unsigned> overlapping;
    for (unsigned pi : placed)
      if (!(slots[pi].end < s.start || s.end < slots[pi].start))
        overlapping.push_back(pi);
    if (allStatic) {
      llvm::sort(overlapping,
                 [&](unsigned x, unsigned y) { return slots[x].hintOffset < slots[y].hintOffset; });
      int64_t cursor = 0, best = -1, bestGap = INT64_MAX;
      for (unsigned pi : overlapping) {
        int64_t gap = slots[pi].hintOffset - cursor;
        if (gap >= sb.hintBytes && gap < bestGap) {
          best = cursor;
          bestGap = gap;
        }
        cursor = std::max(cursor, slots[pi].hintOffset + buffers[slots[pi].sizeOf].hintBytes);
      }
      s.hintOffset = best >= 0 ? best : cursor;
      s.offset = constant(s.hintOffset);
    } else {
      // A slot placed on top of another always ends above it, so only the
      // overlapping slots not already under another one need a max term.
      llvm::BitVector &mine = under[si];
      mine.resize(slots.size());
      for (unsigned pi : overlapping) {
        mine.set(pi);
        mine |= under[pi];
      }
      llvm::erase_if(overlapping, [&](unsigned pi) {
        return llvm::any_of(overlapping,
                            [&](unsigned qi) { return qi != pi && under[qi].test(pi); });
      });
      s.hintOffset = 0;
      s.offset = constant(0);
      for (unsigned pi : overlapping) {
        const Slot &p = slots[pi];
        const Buffer &pb = buffers[p.sizeOf];
        s.hintOffset = std::max(s.hintOffset, p.hintOffset + pb.hintBytes);
        Value end = arith::AddIOp::create(prologue, main.getLoc(), p.offset, pb.bytes);
        s.offset = arith::MaxUIOp::create(prologue, main.getLoc(), s.offset, end);
      }
      Value end = arith::AddIOp::create(prologue, main.getLoc(), s.offset, sb.bytes);
      dynTop =
          dynTop ? arith::MaxUIOp::create(prologue, main.getLoc(), dynTop, end).getResult() : end;
    }
    top = std::max(top, s.hintOffset + sb.hintBytes);
    placed.push_back(si);
  }
  hintTotal = top;
  if (allStatic)
    staticTotal = top;
  total = allStatic || !dynTop ? constant(top) : dynTop;
}

void Planner::rewrite() {
  MLIRContext *ctx = main.getContext();
  auto arenaType = MemRefType::get({ShapedType::kDynamic}, IntegerType::get(ctx, 8));
  unsigned index = main.getNumArguments();
  (void)main.insertArgument(
      index, arenaType,
      DictionaryAttr::get(ctx,
                          {NamedAttribute(StringAttr::get(ctx, "pd.arena"), UnitAttr::get(ctx))}),
      main.getLoc());
  arena = main.getArgument(index);
  for (Buffer &b : buffers) {
    OpBuilder builder(b.alloc);
    auto view = memref::ViewOp::create(builder, b.alloc.getLoc(), b.alloc.getType(), arena,
                                       slots[b.slot].offset, b.alloc.getDynamicSizes());
    // Buffers of different slots never overlap while both are live, so an
    // op using two of them reads and writes disjoint memory (pd-outline-ops
    // turns that into llvm.noalias, also when offsets are dynamic).
    view->setAttr(kArenaSlotAttr, builder.getI64IntegerAttr(b.slot));
    b.alloc.getResult().replaceAllUsesWith(view.getResult());
    b.alloc.erase();
  }
}

/// Replays the prologue of @main in a new public function `name` taking the
/// arguments of @main (and, with `table`, a memref<N x index> receiving every
/// slot's offset); it returns the arena size.
func::FuncOp Planner::emitPrologueFunction(ModuleOp module, StringRef name, bool table) {
  MLIRContext *ctx = main.getContext();
  if (auto old = module.lookupSymbol<func::FuncOp>(name))
    old.erase();
  SmallVector<Type> args(main.getArgumentTypes());
  if (table)
    args.push_back(MemRefType::get({int64_t(slots.size())}, IndexType::get(ctx)));
  OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
  auto fn = func::FuncOp::create(mb, main.getLoc(), name,
                                 FunctionType::get(ctx, args, {IndexType::get(ctx)}));
  Block *body = fn.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockEnd(body);
  IRMapping map;
  for (unsigned i = 0; i < main.getNumArguments(); ++i)
    map.map(main.getArgument(i), body->getArgument(i));
  for (Operation *op : prologueOps)
    b.clone(*op, map);
  auto lookup = [&](Value v) {
    Value m = map.lookupOrNull(v);
    return m ? m : b.clone(*v.getDefiningOp(), map)->getResult(0);
  };
  if (table)
    for (auto [k, slot] : llvm::enumerate(slots))
      memref::StoreOp::create(b, main.getLoc(), lookup(slot.offset), body->getArguments().back(),
                              ValueRange{arith::ConstantIndexOp::create(b, main.getLoc(), k)});
  func::ReturnOp::create(b, main.getLoc(), lookup(total));
  return fn;
}

/// With dynamic dims, @main reads the offsets from a table filled by an
/// out-of-line call instead of computing them inline: thousands of max/add
/// ops in the entry block make LLVM's loop analyses (SCEV) very slow on
/// every loop that addresses the arena. The artifact marks the callee
/// noinline.
void Planner::loadOffsetsFromTable(ModuleOp module) {
  func::FuncOp fn = emitPrologueFunction(module, "main_arena_offsets", /*table=*/true);
  fn.setPrivate();
  OpBuilder b(firstBodyOp);
  Location loc = main.getLoc();
  auto tableType = cast<MemRefType>(fn.getArgumentTypes().back());
  Value table = memref::AllocaOp::create(b, loc, tableType);
  SmallVector<Value> args(main.getArguments());
  args.push_back(table);
  func::CallOp::create(b, loc, fn, args);
  for (auto [k, slot] : llvm::enumerate(slots))
    slot.offset = memref::LoadOp::create(b, loc, table,
                                         ValueRange{arith::ConstantIndexOp::create(b, loc, k)});
  // The inline offset arithmetic is dead now.
  for (Operation *op : llvm::reverse(prologueOps))
    if (op->use_empty() && isMemoryEffectFree(op))
      op->erase();
  prologueOps.clear();
}

void Planner::printReport(llvm::raw_ostream &os) {
  int64_t noReuse = 0, inPlace = 0;
  for (const Buffer &b : buffers)
    noReuse += b.hintBytes;
  for (const Slot &s : slots)
    inPlace += s.members.size() - 1;
  bool dynamic = !staticTotal;
  os << "pd-plan-memory: @main: " << buffers.size() << " buffers in " << slots.size() << " slots ("
     << inPlace << " in place, " << numResults() << " returned), " << unplanned + escaping
     << " left to the heap (" << unplanned << " data-dependent)\n";
  os << "pd-plan-memory: arena " << hintTotal << " bytes, without reuse " << noReuse
     << " bytes, saved "
     << llvm::formatv("{0:F1}", noReuse ? 100.0 * (noReuse - hintTotal) / noReuse : 0.0) << "%";
  if (dynamic)
    os << " (dynamic dims taken as " << hint << ")";
  os << "\n";
  for (const Slot &s : slots)
    for (unsigned k = 0; k < s.members.size(); ++k) {
      unsigned m = s.members[k];
      const Buffer &b = buffers[m];
      os << "  buffer " << m << ": " << b.hintBytes << " bytes, live " << b.start << ".." << b.end
         << ", offset " << s.hintOffset;
      if (k > 0)
        os << ", in place of buffer " << s.members[k - 1];
      os << "\n";
    }
}

LogicalResult Planner::run(bool report) {
  hoistSizes();
  analyze();
  if (!enabled) {
    unplanned += buffers.size();
    buffers.clear();
  }
  formSlots();
  bool allStatic = llvm::all_of(buffers, [](const Buffer &b) { return b.staticBytes; });
  place(allStatic);
  for (Operation &op : entry) {
    if (&op == firstBodyOp)
      break;
    prologueOps.push_back(&op);
  }
  ModuleOp module = main->getParentOfType<ModuleOp>();
  func::FuncOp sizeFn = emitPrologueFunction(module, "main_arena_bytes", /*table=*/false);
  sizeFn->setAttr("llvm.emit_c_interface", UnitAttr::get(main.getContext()));
  if (!allStatic && !slots.empty())
    loadOffsetsFromTable(module);
  rewrite();
  if (report)
    printReport(llvm::errs());

  int64_t noReuse = 0, inPlace = 0;
  for (const Buffer &b : buffers)
    noReuse += b.hintBytes;
  for (const Slot &s : slots)
    inPlace += s.members.size() - 1;
  MLIRContext *ctx = main.getContext();
  auto i64 = [&](int64_t v) { return IntegerAttr::get(IntegerType::get(ctx, 64), v); };
  SmallVector<NamedAttribute> plan = {
      {StringAttr::get(ctx, "arena_bytes"), i64(staticTotal ? *staticTotal : -1)},
      {StringAttr::get(ctx, "arena_bytes_at_hint"), i64(hintTotal)},
      {StringAttr::get(ctx, "no_reuse_bytes_at_hint"), i64(noReuse)},
      {StringAttr::get(ctx, "dynamic_dim_hint"), i64(hint)},
      {StringAttr::get(ctx, "buffers"), i64(buffers.size())},
      {StringAttr::get(ctx, "in_place"), i64(inPlace)},
      {StringAttr::get(ctx, "heap_buffers"), i64(unplanned + escaping)},
      {StringAttr::get(ctx, "results"), i64(numResults())},
  };
  main->getParentOp()->setAttr("pd.memory_plan", DictionaryAttr::get(ctx, plan));
  return success();
}

struct PdPlanMemoryPass : impl::PdPlanMemoryPassBase<PdPlanMemoryPass> {
  using Base::Base;
  void runOnOperation() override {
    auto main = getOperation().lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal()) {
      getOperation().emitError("pd-plan-memory: the module has no @main body");
      return signalPassFailure();
    }
    if (!llvm::hasSingleElement(main.getBody())) {
      main.emitError("pd-plan-memory: @main must be a single block (run before control flow "
                     "lowering)");
      return signalPassFailure();
    }
    if (llvm::any_of(main.getArguments(),
                     [](BlockArgument a) { return isa<TensorType>(a.getType()); })) {
      main.emitError("pd-plan-memory: @main still has tensor arguments (run after bufferization)");
      return signalPassFailure();
    }
    if (dimHint < 1) {
      main.emitError("pd-plan-memory: dynamic-dim-hint must be positive");
      return signalPassFailure();
    }
    Planner planner(main, dimHint, place);
    if (failed(planner.run(report)))
      signalPassFailure();
  }
};
//===----------------------------------------------------------------------===//
// pd-forward-arena-results
//===----------------------------------------------------------------------===//

struct PdForwardArenaResultsPass : impl::PdForwardArenaResultsPassBase<PdForwardArenaResultsPass> {
  void runOnOperation() override {
    auto main = getOperation().lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    auto isArena = [&](Value v) {
      while (auto like = dyn_cast_or_null<ViewLikeOpInterface>(v.getDefiningOp()))
        v = like.getViewSource();
      auto arg = dyn_cast<BlockArgument>(v);
      return arg && arg.getOwner()->getParentOp() == main &&
             main.getArgAttr(arg.getArgNumber(), "pd.arena");
    };
    // A train step's update written in place into its parameter (see
    // pd-externalize-weights): result `i` is the parameter argument it
    // updates, which the runtime owns and reads back without a copy.
    auto isUpdatedParam = [&](Value v, unsigned i) {
      auto arg = dyn_cast<BlockArgument>(v);
      if (!arg || arg.getOwner()->getParentOp() != main)
        return false;
      auto param = main.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "pd.param");
      auto update = main.getResultAttrOfType<StringAttr>(i, "pd.update");
      return param && update && param == update;
    };
    main.walk([&](func::ReturnOp ret) {
      for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
        auto clone = v.getDefiningOp<bufferization::CloneOp>();
        // A clone that also changes the layout (a strided view of the
        // arena returned as a dense result) stays: it is the copy.
        if (!clone || !(isArena(clone.getInput()) || isUpdatedParam(clone.getInput(), i)) ||
            clone.getInput().getType() != clone.getOutput().getType())
          continue;
        clone.getOutput().replaceAllUsesWith(clone.getInput());
        clone.erase();
      }
    });
  }
};
} // namespace
} // namespace mlir::pd

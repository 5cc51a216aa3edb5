//===- AutoMixedPrecision.cpp - the pd-auto-mixed-precision pass ----------===//
//
// Paddle's AMP lists applied to an inference program (see the pass
// description in Passes.td and docs/MixedPrecision.md). One walk over each
// function in program order decides every op from its type, the user's
// overrides and (gray ops) the precision its inputs already have, and
// rewrites it at once: operands are cast (or, for model constants,
// converted into new constants) to the op's precision and its float results
// retyped. Casts are made once per value and direction, right after the
// value is defined; exact cast chains are folded at the end.
//
//===----------------------------------------------------------------------===//

#include "Constants.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <cstring>

namespace mlir::pd {
#define GEN_PASS_DEF_PDAUTOMIXEDPRECISIONPASS
#define GEN_PASS_DEF_PDFOLDCASTSINTOKERNELSPASS
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h.inc"

namespace {
/// Paddle's VarType codes of the float types (pd.cast's in_dtype/out_dtype).
int32_t varTypeOf(Type t) {
  if (t.isF32())
    return 5;
  if (t.isBF16())
    return 22;
  if (t.isF16())
    return 4;
  return 6; // f64
}

/// Low precision by default: Paddle's white list (the fused forms too).
const llvm::StringSet<> &whiteList() {
  static const llvm::StringSet<> s = {"conv2d", "depthwise_conv2d", "fused_conv2d",
                                      "matmul", "matmul_v2",        "mul",
                                      "fc",     "multihead_matmul"};
  return s;
}

/// Float32 always: large dynamic range, statistics, accumulations, losses.
const llvm::StringSet<> &blackList() {
  static const llvm::StringSet<> s = {"exp",
                                      "log",
                                      "mean",
                                      "sum",
                                      "reduce_sum",
                                      "reduce_mean",
                                      "reduce_max",
                                      "reduce_min",
                                      "reduce_prod",
                                      "softmax",
                                      "log_softmax",
                                      "layer_norm",
                                      "skip_layernorm",
                                      "fused_embedding_eltwise_layernorm",
                                      "batch_norm",
                                      "group_norm",
                                      "instance_norm",
                                      "cumsum",
                                      "cross_entropy2",
                                      "pow",
                                      "elementwise_pow",
                                      "square",
                                      "sqrt",
                                      "rsqrt",
                                      "reciprocal",
                                      "erf",
                                      "softplus"};
  return s;
}

/// Follow their inputs: elementwise arithmetic, activations, pooling and
/// data movement.
const llvm::StringSet<> &grayList() {
  static const llvm::StringSet<> s = {"elementwise_add",
                                      "elementwise_sub",
                                      "elementwise_mul",
                                      "elementwise_div",
                                      "elementwise_max",
                                      "elementwise_min",
                                      "relu",
                                      "relu6",
                                      "leaky_relu",
                                      "sigmoid",
                                      "tanh",
                                      "gelu",
                                      "swish",
                                      "silu",
                                      "hard_swish",
                                      "hard_sigmoid",
                                      "elu",
                                      "selu",
                                      "celu",
                                      "prelu",
                                      "clip",
                                      "abs",
                                      "scale",
                                      "dropout",
                                      "pool2d",
                                      "reshape2",
                                      "transpose2",
                                      "flatten2",
                                      "flatten_contiguous_range",
                                      "squeeze2",
                                      "unsqueeze2",
                                      "concat",
                                      "split",
                                      "slice",
                                      "strided_slice",
                                      "stack",
                                      "unstack",
                                      "assign",
                                      "expand_v2",
                                      "tile",
                                      "pad3d",
                                      "nearest_interp",
                                      "nearest_interp_v2",
                                      "bilinear_interp",
                                      "bilinear_interp_v2",
                                      "affine_channel",
                                      "flip",
                                      "gather"};
  return s;
}

/// The Paddle variables named in an op's location (the importer's
/// "conv2d #7 -> conv2d_1.tmp_0"; a fused op carries those of the ops it
/// replaced). Same reading as pd-quantize's `exclude`.
SmallVector<std::string> variableNames(Operation *op) {
  SmallVector<std::string> names;
  op->getLoc()->walk([&](Location l) {
    if (auto n = dyn_cast<NameLoc>(l)) {
      StringRef s = n.getName().getValue();
      size_t arrow = s.find(" -> ");
      if (arrow != StringRef::npos)
        names.push_back(s.substr(arrow + 4).str());
    }
    return WalkResult::advance();
  });
  return names;
}

bool isFloatTensor(Type t, Type elem) {
  auto r = dyn_cast<RankedTensorType>(t);
  return r && r.getElementType() == elem;
}

RankedTensorType withElement(Type t, Type elem) { return cast<RankedTensorType>(t).clone(elem); }

/// Operands that stay float32 in a low-precision op: the kernels add the
/// bias (and the attention mask) in their float32 accumulators.
bool keepsF32(Operation *op, OpOperand &use) {
  Value v = use.get();
  if (auto c = dyn_cast<FusedConv2dOp>(op))
    return v == c.getBias();
  if (auto f = dyn_cast<FcOp>(op))
    return v == f.getBias();
  if (auto m = dyn_cast<MultiheadMatmulOp>(op))
    return v == m.getBias() || v == m.getBiasQK();
  return false;
}

/// Rounds float32 data to bf16 (round to nearest even; NaN stays NaN).
std::vector<uint16_t> toBf16(ArrayRef<float> data) {
  std::vector<uint16_t> out(data.size());
  for (size_t i = 0; i < data.size(); ++i) {
    uint32_t u;
    std::memcpy(&u, &data[i], 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
      out[i] = static_cast<uint16_t>((u >> 16) | 0x40);
    else
      out[i] = static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
  }
  return out;
}

/// Rounds float32 data to IEEE half (round to nearest even).
std::vector<uint16_t> toF16(ArrayRef<float> data) {
  std::vector<uint16_t> out(data.size());
  for (size_t i = 0; i < data.size(); ++i) {
    llvm::APFloat f(data[i]);
    bool lost;
    f.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven, &lost);
    out[i] = static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue());
  }
  return out;
}

struct PdAutoMixedPrecisionPass : impl::PdAutoMixedPrecisionPassBase<PdAutoMixedPrecisionPass> {
  using PdAutoMixedPrecisionPassBase::PdAutoMixedPrecisionPassBase;

  Type low, f32;
  /// (value, element type) -> the value cast to that type.
  DenseMap<std::pair<Value, Type>, Value> casts;
  /// The casts made by this pass.
  DenseSet<Operation *> ours;
  /// float32 global -> its low-precision copy.
  DenseMap<StringAttr, ml_program::GlobalOp> converted;

  bool listed(ArrayRef<std::string> list, Operation *op) const {
    StringRef type = op->getName().stripDialect();
    SmallVector<std::string> names = variableNames(op);
    return llvm::any_of(
        list, [&](const std::string &e) { return e == type || llvm::is_contained(names, e); });
  }

  static bool isConstant(Value v) { return v.getDefiningOp<ml_program::GlobalLoadConstOp>(); }

  /// `v` (a float tensor) cast to element type `to`, made once per value.
  Value castTo(OpBuilder &b, Value v, Type to) {
    Type from = cast<RankedTensorType>(v.getType()).getElementType();
    if (from == to)
      return v;
    // A value this pass cast for another reader: the value it cast.
    if (auto c = v.getDefiningOp<CastOp>())
      if (ours.contains(c) && cast<RankedTensorType>(c.getX().getType()).getElementType() == to)
        return c.getX();
    auto key = std::make_pair(v, to);
    if (Value done = casts.lookup(key))
      return done;
    OpBuilder::InsertionGuard guard(b);
    if (Operation *def = v.getDefiningOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
    Value c =
        CastOp::create(b, v.getLoc(), withElement(v.getType(), to), v,
                       b.getI32IntegerAttr(varTypeOf(from)), b.getI32IntegerAttr(varTypeOf(to)));
    casts[key] = c;
    ours.insert(c.getDefiningOp());
    return c;
  }

  /// A model constant `v` (float32) as a constant of the low type, loaded
  /// right before `user`; the data are converted once per global.
  Value convertConstant(OpBuilder &b, Value v, Operation *user) {
    auto load = v.getDefiningOp<ml_program::GlobalLoadConstOp>();
    std::optional<std::vector<float>> data = constantData(v);
    if (!data)
      return castTo(b, v, low);
    StringAttr sym = load.getGlobalAttr().getLeafReference();
    auto type = withElement(v.getType(), low);
    auto it = converted.find(sym);
    if (it == converted.end()) {
      std::vector<uint16_t> bits = low.isBF16() ? toBf16(*data) : toF16(*data);
      Value nv = newConstantBytes(
          b, user, globalName(v, "weight") + (low.isBF16() ? ".bf16" : ".fp16"), type,
          ArrayRef<char>(reinterpret_cast<const char *>(bits.data()), bits.size() * 2));
      converted[sym] = SymbolTable::lookupNearestSymbolFrom<ml_program::GlobalOp>(
          user, nv.getDefiningOp<ml_program::GlobalLoadConstOp>().getGlobalAttr());
      return nv;
    }
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(user);
    return ml_program::GlobalLoadConstOp::create(b, user->getLoc(), type,
                                                 SymbolRefAttr::get(it->second));
  }

  /// The precision of `op` and why; false for float32.
  bool decide(Operation *op, std::string &why) {
    StringRef type = op->getName().stripDialect();
    if (listed(deny, op)) {
      why = "user deny";
      return false;
    }
    if (listed(allow, op)) {
      why = "user allow";
      return true;
    }
    if (whiteList().contains(type)) {
      why = "white list";
      return true;
    }
    if (blackList().contains(type)) {
      why = "black list";
      return false;
    }
    if (!grayList().contains(type)) {
      why = "not in any list";
      return false;
    }
    bool anyLow = false, allLow = true;
    for (Value v : op->getOperands()) {
      if (isFloatTensor(v.getType(), low))
        anyLow = true;
      else if (isFloatTensor(v.getType(), f32) && !isConstant(v))
        allLow = false;
    }
    if (anyLow && allLow) {
      why = "gray: follows inputs";
      return true;
    }
    why = "gray: float32 input";
    return false;
  }

  /// Decides and rewrites one op.
  void visit(OpBuilder &b, Operation *op) {
    if (!isa<PdDialect>(op->getDialect()) || isa<CastOp>(op))
      return;
    auto isFloat = [&](Type t) { return isFloatTensor(t, f32) || isFloatTensor(t, low); };
    if (llvm::none_of(op->getOperandTypes(), isFloat) &&
        llvm::none_of(op->getResultTypes(), isFloat))
      return;
    std::string why;
    bool toLow = decide(op, why);
    op->setAttr("pd.precision_reason", b.getStringAttr(why));
    for (OpOperand &use : op->getOpOperands()) {
      Value v = use.get();
      if (toLow && isFloatTensor(v.getType(), f32) && !keepsF32(op, use)) {
        use.set(isConstant(v) ? convertConstant(b, v, op) : castTo(b, v, low));
      } else if ((!toLow || keepsF32(op, use)) && isFloatTensor(v.getType(), low)) {
        use.set(castTo(b, v, f32));
      }
    }
    if (toLow)
      for (Value r : op->getResults())
        if (isFloatTensor(r.getType(), f32))
          r.setType(withElement(r.getType(), low));
  }

  /// Casts back to float32 at the function's results (keep-io-types), or
  /// low-precision arguments and results.
  void fixBoundary(OpBuilder &b, func::FuncOp fn) {
    if (fn.isExternal())
      return;
    Block &entry = fn.getBody().front();
    if (!keepIoTypes) {
      for (BlockArgument arg : entry.getArguments()) {
        if (!isFloatTensor(arg.getType(), f32))
          continue;
        // Uses read float32: give them the argument widened again (folded
        // with the narrowing casts that follow).
        SmallVector<OpOperand *> uses;
        for (OpOperand &u : arg.getUses())
          uses.push_back(&u);
        arg.setType(withElement(arg.getType(), low));
        b.setInsertionPointToStart(&entry);
        Value wide = CastOp::create(b, arg.getLoc(), withElement(arg.getType(), f32), arg,
                                    b.getI32IntegerAttr(varTypeOf(low)),
                                    b.getI32IntegerAttr(varTypeOf(f32)));
        for (OpOperand *u : uses)
          u->set(wide);
      }
    }
    // Each result keeps its declared type, or (without keep-io-types) a
    // float32 one becomes the low type.
    SmallVector<Type> results;
    for (Type t : fn.getResultTypes())
      results.push_back(!keepIoTypes && isFloatTensor(t, f32) ? withElement(t, low) : t);
    fn.walk([&](func::ReturnOp ret) {
      for (auto [use, t] : llvm::zip(ret->getOpOperands(), results)) {
        Value v = use.get();
        auto want = dyn_cast<RankedTensorType>(t);
        if (want && (isFloatTensor(v.getType(), f32) || isFloatTensor(v.getType(), low)))
          use.set(castTo(b, v, want.getElementType()));
      }
    });
    fn.setType(FunctionType::get(fn.getContext(), entry.getArgumentTypes(), results));
  }

  /// Folds the exact cast chains: low -> f32 -> low, casts to the same
  /// type, and casts nothing reads.
  static void foldCasts(func::FuncOp fn) {
    SmallVector<CastOp> all;
    fn.walk([&](CastOp c) { all.push_back(c); });
    for (CastOp c : all) {
      Value x = c.getX();
      if (x.getType() == c.getType()) {
        c.getOut().replaceAllUsesWith(x);
        continue;
      }
      auto inner = x.getDefiningOp<CastOp>();
      if (!inner)
        continue;
      Type a = cast<RankedTensorType>(inner.getX().getType()).getElementType();
      Type mid = cast<RankedTensorType>(x.getType()).getElementType();
      Type z = c.getType().getElementType();
      // Widening then narrowing back is exact; narrowing then widening is not.
      if (a == z && (a.isBF16() || a.isF16()) && mid.isF32())
        c.getOut().replaceAllUsesWith(inner.getX());
    }
    for (CastOp c : llvm::reverse(all))
      if (c->use_empty())
        c->erase();
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    if (dtype == "bf16") {
      low = BFloat16Type::get(ctx);
    } else if (dtype == "fp16") {
      low = Float16Type::get(ctx);
    } else {
      mlir::emitError(getOperation().getLoc(),
                      "pd-auto-mixed-precision: dtype must be bf16 or fp16, not '")
          << dtype << "'";
      return signalPassFailure();
    }
    f32 = Float32Type::get(ctx);
    OpBuilder b(ctx);
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      casts.clear();
      ours.clear();
      SmallVector<Operation *> ops;
      fn.walk([&](Operation *op) { ops.push_back(op); });
      for (Operation *op : ops)
        visit(b, op);
      fixBoundary(b, fn);
      foldCasts(fn);
      // The float32 loads of converted weights.
      for (Block &block : fn.getBody())
        for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
          if (isa<ml_program::GlobalLoadConstOp>(op) && op.use_empty())
            op.erase();
    }
    eraseUnusedGlobals(getOperation());
  }
};

/// The f32 value a pd.cast narrows to bf16 for `v`, if `v` is one.
Value narrowedFrom(Value v) {
  auto c = v.getDefiningOp<CastOp>();
  if (!c || !isFloatTensor(v.getType(), BFloat16Type::get(v.getContext())) ||
      !isFloatTensor(c.getX().getType(), Float32Type::get(v.getContext())))
    return Value();
  return c.getX();
}

struct PdFoldCastsIntoKernelsPass
    : impl::PdFoldCastsIntoKernelsPassBase<PdFoldCastsIntoKernelsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    Type bf16 = BFloat16Type::get(ctx), f32 = Float32Type::get(ctx);
    llvm::SetVector<Operation *> dead;
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) { ops.push_back(op); });
    for (Operation *op : ops) {
      // The activation operands each op may read in f32.
      SmallVector<OpOperand *> inputs;
      if (auto c = dyn_cast<FusedConv2dOp>(op)) {
        if (!isFloatTensor(c.getFilter().getType(), bf16))
          continue;
        inputs.push_back(&c.getInputMutable());
        if (c.getResidualData())
          inputs.push_back(&c.getResidualDataMutable()[0]);
      } else if (isa<Conv2dOp, DepthwiseConv2dOp>(op)) {
        if (!isFloatTensor(op->getOperand(1).getType(), bf16))
          continue;
        inputs.push_back(&op->getOpOperand(0));
      } else if (auto f = dyn_cast<FcOp>(op)) {
        if (!isFloatTensor(f.getW().getType(), bf16))
          continue;
        inputs.push_back(&f.getInputMutable());
      } else if (auto m = dyn_cast<MatmulV2Op>(op)) {
        // One side stays bf16: X is read in f32 only while Y is bf16.
        if (!isFloatTensor(m.getY().getType(), bf16) || narrowedFrom(m.getY()))
          continue;
        inputs.push_back(&m.getXMutable());
      } else {
        continue;
      }
      for (OpOperand *use : inputs)
        if (Value wide = narrowedFrom(use->get())) {
          dead.insert(use->get().getDefiningOp());
          use->set(wide);
        }
      Value r = op->getResult(0);
      if (!isFloatTensor(r.getType(), bf16) || r.use_empty() ||
          !llvm::all_of(r.getUsers(), [&](Operation *u) {
            auto c = dyn_cast<CastOp>(u);
            return c && isFloatTensor(c.getType(), f32);
          }))
        continue;
      r.setType(withElement(r.getType(), f32));
      for (Operation *u : llvm::make_early_inc_range(r.getUsers())) {
        u->getResult(0).replaceAllUsesWith(r);
        dead.insert(u);
      }
    }
    for (Operation *c : dead)
      if (c->use_empty())
        c->erase();
  }
};
} // namespace
} // namespace mlir::pd

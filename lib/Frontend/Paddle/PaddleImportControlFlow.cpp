//===- PaddleImportControlFlow.cpp - while, conditional_block, select_output -===//
//
// The Paddle ops with sub-blocks, imported as scf regions; the LoD lengths
// they carry (see docs/PaddleFrontend.md).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::pd;

namespace mlir::pd::paddle_import {
/// The type a region op gives a variable that is `was` before it and
/// `now` after its body: dims that differ become dynamic. Null where the
/// dtype or rank differs.
static Type joinCarried(Type was, Type now) {
  auto a = cast<RankedTensorType>(was), b = cast<RankedTensorType>(now);
  if (a.getElementType() != b.getElementType() || a.getRank() != b.getRank())
    return nullptr;
  SmallVector<int64_t> dims;
  for (auto [x, y] : llvm::zip(a.getShape(), b.getShape()))
    dims.push_back(x == y ? x : ShapedType::kDynamic);
  return RankedTensorType::get(dims, a.getElementType());
}

/// The values a while or conditional_block starts its variables `names`
/// from: each one's value, or an empty placeholder; unless `what` is empty,
/// LoD values are refused (`what` names the kind of op in the error).
LogicalResult Importer::startValues(ArrayRef<std::string> names, const pdp::OpDesc &op, int index,
                                    StringRef what, SmallVectorImpl<Value> &values) {
  for (const std::string &name : names) {
    auto v = valueOrPlaceholder(name, op, index);
    if (failed(v))
      return failure();
    if (!what.empty() && lodOf(*v))
      return fail(opLoc(op, index), "op '" + op.type() + "' #" + Twine(index) + " of block " +
                                        Twine(currentBlock) + ": '" + name +
                                        "' is a LoD (sequence) variable, which " + what +
                                        " do not support yet");
    values.push_back(*v);
  }
  return success();
}

/// Forgets what the importer recorded about the values of `op` and its
/// nested ops (before erasing it).
void Importer::forgetValues(Operation *op) {
  auto forget = [&](Value v) {
    dataSized.erase(v);
    lodLengths.erase(v);
    arrayLengths.erase(v);
    lodLevels.erase(v);
    emptyArrays.erase(v);
  };
  op->walk([&](Operation *nested) {
    for (Value r : nested->getResults())
      forget(r);
    for (Region &region : nested->getRegions())
      for (Block &block : region)
        for (Value arg : block.getArguments())
          forget(arg);
  });
}

/// A Paddle `while`: its sub-block runs while `Condition` holds; the
/// variables it writes that exist before it (its `Out`, the condition
/// among them) are carried from one iteration to the next. Imported as a
/// pd.while carrying the condition first, then those variables; a carried
/// value whose shape changes between iterations is carried with those
/// dims dynamic (the body is imported again with the wider types).
LogicalResult Importer::importWhile(const pdp::OpDesc &op, int index) {
  Location loc = opLoc(op, index);
  auto bad = [&](const Twine &msg) {
    return fail(loc,
                "op 'while' #" + Twine(index) + " of block " + Twine(currentBlock) + ": " + msg);
  };
  FailureOr<int> sub = subBlock(op, index);
  if (failed(sub))
    return failure();
  int bodyIdx = *sub;
  const pdp::OpDesc::Var *condSlot = findSlot(op.inputs(), "Condition");
  if (!condSlot || condSlot->arguments_size() != 1)
    return bad("needs exactly one variable in input slot 'Condition'");
  std::string condName = condSlot->arguments(0);
  SmallVector<std::string> names{condName};
  bool condWritten = false;
  if (const pdp::OpDesc::Var *out = findSlot(op.outputs(), "Out"))
    for (const std::string &name : out->arguments()) {
      if (name == condName) {
        condWritten = true;
        continue;
      }
      // Variables the body creates are its own; those that exist before
      // the loop are carried, and so is a tensor array that the body
      // writes first (Fluid's create_array declares it without a value):
      // from an empty array.
      if ((env.count(name) || globals.count(name) || isArrayVar(name)) &&
          !llvm::is_contained(names, name))
        names.push_back(name);
    }
  if (!condWritten)
    return bad("its body never writes the condition '" + condName +
               "' (it is not among the op's Out variables), so the loop would not end");
  SmallVector<Value> inits;
  if (failed(startValues(names, op, index, "", inits)))
    return failure();
  if (!isOneBool(inits[0].getType()))
    return bad("the condition '" + condName + "' must be a bool tensor of one element, got " +
               llvm::formatv("{0}", inits[0].getType()).str());
  // The lengths of the carried LoD values (and tensor arrays of LoD
  // batches) are carried too, after the variables (pd.lod_carried counts
  // them): `lodVar[j]` is the variable whose lengths hidden value j holds.
  SmallVector<unsigned> lodVar;
  SmallVector<int> lodLevelOf;
  for (auto [i, v] : llvm::enumerate(inits))
    if (Value lens = lodOf(v)) {
      lodVar.push_back(i);
      lodLevelOf.push_back(lodLevel(v));
      inits.push_back(lens);
    }
  SmallVector<Type> types(ValueRange(inits).getTypes());
  size_t numVars = names.size();

  llvm::StringMap<Value> outerEnv = env;
  OpBuilder::InsertPoint after = b.saveInsertionPoint();
  // Import the body with the current carried types; where a yielded value
  // is wider (a dim that changes between iterations), widen and again; so
  // too where the body first gives a declared array LoD batches.
  for (int attempt = 0;; ++attempt) {
    b.restoreInsertionPoint(after);
    auto loop = WhileOp::create(b, loc, types, inits);
    if (!lodVar.empty())
      loop->setAttr("pd.lod_carried", b.getI32IntegerAttr(static_cast<int32_t>(lodVar.size())));
    Block &body = loop.getBodyBlock();
    auto giveLod = [&](Value v, size_t j, Value lens) {
      (isArrayVar(names[lodVar[j]]) ? arrayLengths : lodLengths)[v] = lens;
      if (lodLevelOf[j] > 1)
        lodLevels[v] = lodLevelOf[j];
    };
    // A dim that changes between iterations is the data's to decide: what
    // is computed from it takes its sizes from shape inference, not from
    // the VarDescs' compile-time guesses (Fluid writes [-1, 2] for a concat
    // that grows by a column per iteration).
    auto widenedDim = [&](size_t i) { return types[i] != inits[i].getType(); };
    for (auto [name, arg] : llvm::zip(names, body.getArguments()))
      env[name] = arg;
    for (size_t i = 0; i < numVars; ++i) {
      if (widenedDim(i) || dataSized.contains(inits[i]))
        dataSized.insert(body.getArgument(i));
      auto fill = inits[i].getDefiningOp<FillConstantOp>();
      if (isArrayVar(names[i]) && fill && cast<RankedTensorType>(fill.getType()).getDimSize(0) == 0)
        emptyArrays.insert(body.getArgument(i));
    }
    for (auto [j, var] : llvm::enumerate(lodVar))
      giveLod(body.getArgument(var), j, body.getArgument(numVars + j));
    b.setInsertionPointToEnd(&body);
    auto drop = [&] {
      forgetValues(loop);
      loop.erase();
    };
    if (failed(importBlock(bodyIdx))) {
      drop();
      return failure();
    }
    SmallVector<Value> next;
    for (const std::string &name : names)
      next.push_back(env.lookup(name));
    bool widened = false;
    for (size_t i = 0; i < numVars; ++i) {
      auto at = llvm::find(lodVar, i);
      bool carried = at != lodVar.end();
      Value lens = lodOf(next[i]);
      if (carried && (!lens || lodLevel(next[i]) != lodLevelOf[at - lodVar.begin()])) {
        drop();
        return bad("the body " + Twine(lens ? "changes the LoD level of '" : "drops the LoD of '") +
                   names[i] + "', which it carries (a carried variable keeps its LoD)");
      }
      if (carried || !lens)
        continue;
      // A declared array first written with LoD batches inside the loop:
      // carried again with an empty lengths array.
      auto fill = inits[i].getDefiningOp<FillConstantOp>();
      if (!isArrayVar(names[i]) || !fill ||
          cast<RankedTensorType>(inits[i].getType()).getDimSize(0) != 0) {
        drop();
        return bad("'" + names[i] + "' becomes a LoD batch in the body but has no LoD before " +
                   "the loop (carried variables keep their LoD)");
      }
      b.restoreInsertionPoint(after);
      Value empty = emptyLengths(/*array=*/true, loc);
      after = b.saveInsertionPoint();
      lodVar.push_back(i);
      lodLevelOf.push_back(lodLevel(next[i]));
      inits.push_back(empty);
      types.push_back(empty.getType());
      widened = true;
    }
    if (!widened) {
      for (unsigned var : lodVar)
        next.push_back(lodOf(next[var]));
      b.setInsertionPointToEnd(&body);
      YieldOp::create(b, loc, next);
      for (auto [i, v] : llvm::enumerate(next)) {
        Type joined = joinCarried(types[i], v.getType());
        if (!joined) {
          std::string what = i < numVars ? "'" + names[i] + "'"
                                         : "the LoD of '" + names[lodVar[i - numVars]] + "'";
          drop();
          return bad("the body changes " + what + " from " + llvm::formatv("{0}", types[i]).str() +
                     " to " + llvm::formatv("{0}", v.getType()).str() +
                     " (a carried variable keeps its dtype and rank)");
        }
        widened |= joined != types[i];
        types[i] = joined;
      }
    }
    env = outerEnv;
    if (!widened) {
      b.setInsertionPointAfter(loop);
      for (auto [i, result] : llvm::enumerate(loop.getResults().take_front(numVars))) {
        env[names[i]] = result;
        if (dataSized.contains(loop.getBodyBlock().getArgument(i)) ||
            dataSized.contains(loop.getBodyBlock().getTerminator()->getOperand(i)))
          dataSized.insert(result);
      }
      for (auto [j, var] : llvm::enumerate(lodVar))
        giveLod(loop.getResult(var), j, loop.getResult(numVars + j));
      return success();
    }
    drop();
    if (attempt == 3)
      return bad("the carried shapes do not settle");
  }
}

FailureOr<int> Importer::subBlock(const pdp::OpDesc &op, int index) {
  Location loc = opLoc(op, index);
  auto bad = [&](const Twine &msg) {
    return fail(loc, "op '" + op.type() + "' #" + Twine(index) + " of block " +
                         Twine(currentBlock) + ": " + msg);
  };
  const pdp::OpDesc::Attr *sub = findAttr(op, "sub_block");
  if (!sub || !sub->has_block_idx())
    return bad("has no sub_block attribute");
  int idx = sub->block_idx();
  if (idx <= 0 || idx >= program.blocks_size() || idx == currentBlock)
    return bad("sub_block " + Twine(idx) + " is not a sub-block of this program (it has " +
               Twine(program.blocks_size()) + " blocks)");
  return idx;
}

/// The value of variable `name`, or, where it has none yet, an empty
/// tensor of its declared dtype and rank (the value of a variable that a
/// conditional_block or select_output may leave unwritten; Paddle leaves it
/// uninitialized). The placeholder is named after the variable, so the
/// exporter writes it into that variable.
FailureOr<Value> Importer::valueOrPlaceholder(const std::string &name, const pdp::OpDesc &op,
                                              int index) {
  if (env.count(name) || globals.count(name))
    return lookup(name, opLoc(op, index), op, index);
  Location loc = opLoc(op, index);
  auto it = vars.find(name);
  if (it == vars.end())
    return fail(loc, "output variable '" + name + "' of op '" + op.type() + "' #" + Twine(index) +
                         " has no VarDesc");
  auto type = varType(*it->second, loc);
  if (failed(type))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d : type->getShape())
    shape.push_back(ShapedType::isDynamic(d) ? 0 : d);
  const auto &vt = it->second->type();
  int dtype = vt.type() == pdp::VarType::LOD_TENSOR_ARRAY ? vt.tensor_array().tensor().data_type()
                                                          : tensorDesc(*it->second).data_type();
  Location at = NameLoc::get(StringAttr::get(ctx, "fill_constant #" + Twine(index) + " -> " + name),
                             fileLoc());
  return createPd("fill_constant", {},
                  {b.getNamedAttr("operandSegmentSizes", b.getDenseI32ArrayAttr({0, 0, 0})),
                   b.getNamedAttr("dtype", b.getI32IntegerAttr(dtype)),
                   b.getNamedAttr("shape", b.getDenseI64ArrayAttr(shape))},
                  at);
}

/// A Paddle conditional_block: its sub-block runs when Cond holds (the one
/// bool element, or, without is_scalar_condition, when every Cond tensor
/// has an element); the variables it writes keep their values when it does
/// not. Imported as a pd.conditional_block whose results are those
/// variables, defaulting to their values from before.
LogicalResult Importer::importConditionalBlock(const pdp::OpDesc &op, int index) {
  Location loc = opLoc(op, index);
  auto bad = [&](const Twine &msg) {
    return fail(loc, "op 'conditional_block' #" + Twine(index) + " of block " +
                         Twine(currentBlock) + ": " + msg);
  };
  FailureOr<int> sub = subBlock(op, index);
  if (failed(sub))
    return failure();
  const pdp::OpDesc::Var *condSlot = findSlot(op.inputs(), "Cond");
  if (!condSlot || condSlot->arguments_size() == 0)
    return bad("needs a variable in input slot 'Cond'");
  const pdp::OpDesc::Attr *scalarAttr = findAttr(op, "is_scalar_condition");
  bool scalar = scalarAttr && scalarAttr->b();
  SmallVector<Value> conds;
  for (const std::string &name : condSlot->arguments()) {
    auto v = lookup(name, loc, op, index);
    if (failed(v))
      return failure();
    conds.push_back(*v);
  }
  if (scalar) {
    if (conds.size() != 1 || !isOneBool(conds[0].getType()))
      return bad("with is_scalar_condition its condition '" + condSlot->arguments(0) +
                 "' must be one bool tensor of one element, got " + Twine(conds.size()) +
                 " of type " + llvm::formatv("{0}", conds[0].getType()).str());
  }
  SmallVector<std::string> names;
  if (const pdp::OpDesc::Var *out = findSlot(op.outputs(), "Out"))
    for (const std::string &name : out->arguments())
      if (!llvm::is_contained(names, name))
        names.push_back(name);
  SmallVector<Value> defaults;
  if (failed(startValues(names, op, index, "", defaults)))
    return failure();
  SmallVector<Type> types(ValueRange(defaults).getTypes());
  auto cb = ConditionalBlockOp::create(b, loc, types, conds, defaults, scalar);
  llvm::StringMap<Value> outerEnv = env;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(&cb.getBodyBlock());
  if (failed(importBlock(*sub)))
    return failure();
  SmallVector<Value> next;
  for (const std::string &name : names)
    next.push_back(env.lookup(name));
  // LoD: a variable that is a LoD batch (or an array of them) on both paths
  // gets its lengths as one more result after the variables (pd.lod_carried
  // counts them); one that exists only in the body starts from empty
  // lengths. LoD on one path only is refused.
  SmallVector<unsigned> lodVar;
  SmallVector<Value> lodDefaults, lodNext;
  for (size_t i = 0; i < names.size(); ++i) {
    Value was = lodOf(defaults[i]), now = lodOf(next[i]);
    if (!was && !now)
      continue;
    // An empty value before (the placeholder of a variable the block
    // creates, or the empty fill the exporter writes for it) is an empty
    // batch: no sequences.
    auto fill = defaults[i].getDefiningOp<FillConstantOp>();
    auto filled = fill ? cast<RankedTensorType>(fill.getType()) : RankedTensorType();
    bool placeholder = fill && filled.hasStaticShape() && filled.getNumElements() == 0;
    if (!was && now && placeholder) {
      OpBuilder::InsertionGuard at(b);
      b.setInsertionPoint(cb);
      was = emptyLengths(isArrayVar(names[i]), loc);
    } else if (!was || !now || lodLevel(defaults[i]) != lodLevel(next[i])) {
      forgetValues(cb);
      cb.erase();
      env = outerEnv;
      return bad("'" + names[i] + "' is a LoD batch " +
                 Twine(was && now ? "of another LoD level" : "on one path only") +
                 " (when the block runs and when it does not); a variable keeps its LoD");
    }
    lodVar.push_back(i);
    lodDefaults.push_back(was);
    lodNext.push_back(now);
  }
  YieldOp::create(b, loc, next);
  env = outerEnv;
  if (!lodVar.empty()) {
    // The op again with the lengths after the variables, the body moved.
    SmallVector<Value> allDefaults(defaults);
    allDefaults.append(lodDefaults);
    SmallVector<Type> allTypes(types);
    for (auto [d, n] : llvm::zip(lodDefaults, lodNext))
      allTypes.push_back(joinCarried(d.getType(), n.getType()));
    OpBuilder::InsertionGuard at(b);
    b.setInsertionPoint(cb);
    auto withLod = ConditionalBlockOp::create(b, loc, allTypes, conds, allDefaults, scalar);
    withLod->setAttr("pd.lod_carried", b.getI32IntegerAttr(static_cast<int32_t>(lodVar.size())));
    Block &body = withLod.getBodyBlock();
    body.getOperations().splice(body.end(), cb.getBodyBlock().getOperations());
    SmallVector<Value> yielded(next);
    yielded.append(lodNext);
    body.getTerminator()->setOperands(yielded);
    forgetValues(cb);
    cb.erase();
    cb = withLod;
  }
  for (auto [i, v] : llvm::enumerate(next)) {
    Type joined = joinCarried(types[i], v.getType());
    if (!joined)
      return bad(
          "the body writes '" + names[i] + "' as " + llvm::formatv("{0}", v.getType()).str() +
          ", which does not fit its value from before, " + llvm::formatv("{0}", types[i]).str());
    cb.getResult(i).setType(joined);
    env[names[i]] = cb.getResult(i);
  }
  for (auto [j, var] : llvm::enumerate(lodVar)) {
    Value r = cb.getResult(names.size() + j);
    (isArrayVar(names[var]) ? arrayLengths : lodLengths)[cb.getResult(var)] = r;
    if (int level = lodLevel(next[var]); level > 1)
      lodLevels[cb.getResult(var)] = level;
  }
  return success();
}

/// select_output writes X into Out[Mask] and leaves the other Out
/// variables as they were: each becomes select_input([old, X], Mask == k).
LogicalResult Importer::importSelectOutput(const pdp::OpDesc &op, int index) {
  Location loc = opLoc(op, index);
  const pdp::OpDesc::Var *xSlot = findSlot(op.inputs(), "X");
  const pdp::OpDesc::Var *maskSlot = findSlot(op.inputs(), "Mask");
  const pdp::OpDesc::Var *outSlot = findSlot(op.outputs(), "Out");
  if (!xSlot || xSlot->arguments_size() != 1 || !maskSlot || maskSlot->arguments_size() != 1 ||
      !outSlot || outSlot->arguments_size() == 0)
    return fail(loc, "op 'select_output' #" + Twine(index) +
                         " needs one variable in X and in Mask and at least one in Out");
  auto x = lookup(xSlot->arguments(0), loc, op, index);
  auto mask = lookup(maskSlot->arguments(0), loc, op, index);
  if (failed(x) || failed(mask))
    return failure();
  auto maskType = cast<RankedTensorType>(mask->getType());
  if (!maskType.getElementType().isInteger(32) || !maskType.hasStaticShape() ||
      maskType.getNumElements() != 1)
    return fail(loc, "op 'select_output' #" + Twine(index) + ": Mask '" + maskSlot->arguments(0) +
                         "' must be an int32 tensor of one element");
  for (auto [k, name] : llvm::enumerate(outSlot->arguments())) {
    auto old = valueOrPlaceholder(name, op, index);
    if (failed(old))
      return failure();
    Value key = createPd("fill_constant", {},
                         {b.getNamedAttr("operandSegmentSizes", b.getDenseI32ArrayAttr({0, 0, 0})),
                          b.getNamedAttr("dtype", b.getI32IntegerAttr(2)),
                          b.getNamedAttr("shape", b.getDenseI64ArrayAttr(maskType.getShape())),
                          b.getNamedAttr("value", b.getF32FloatAttr(static_cast<float>(k)))},
                         loc);
    Value is = createPd("equal", {*mask, key}, {}, loc);
    Value pick = createPd("cast", {is},
                          {b.getNamedAttr("in_dtype", b.getI32IntegerAttr(0)),
                           b.getNamedAttr("out_dtype", b.getI32IntegerAttr(2))},
                          loc);
    env[name] = createPd("select_input", {*old, *x, pick}, {}, loc);
  }
  return success();
}
} // namespace mlir::pd::paddle_import

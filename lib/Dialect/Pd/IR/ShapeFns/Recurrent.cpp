//===- Recurrent.cpp - pd recurrent op types ------------------------------===//
//
// Hand-written PdShapeInference of Paddle 2.x's `rnn` op: the checks of
// its InferShape (input rank, state shapes, weight count) plus each
// weight's shape, which Paddle only checks when the kernel runs.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::shapefns;

/// The gate count of an rnn mode: LSTM 4, GRU 3, simple RNN 1.
static int64_t rnnGates(StringRef mode) { return mode == "LSTM" ? 4 : mode == "GRU" ? 3 : 1; }

LogicalResult RnnOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getInput(), "Input", 3, 3)))
    return failure();
  auto x = rt(getInput());
  int64_t layers = getNumLayers(), dirs = getIsBidirec() ? 2 : 1, h = getHiddenSize(),
          g = rnnGates(getMode()) * h, cells = layers * dirs;
  size_t states = getMode() == "LSTM" ? 2 : 1;
  if (getPreState().size() != states)
    return c.fail("mode " + getMode() + " needs " + Twine(states) + " PreState tensors, got " +
                  Twine(getPreState().size()));
  SmallVector<int64_t> state{cells, x.getDimSize(1), h};
  for (Value s : getPreState()) {
    if (failed(c.rank(s, "PreState", 3, 3)))
      return failure();
    for (int64_t i = 0; i < 3; ++i)
      if (conflict(rt(s).getDimSize(i), state[i]))
        return c.fail("PreState must be [num_layers * directions, N, hidden_size] = " +
                      shapeStr(state) + ", got " + shapeStr(rt(s).getShape()));
  }
  if (static_cast<int64_t>(getWeightList().size()) != 4 * cells)
    return c.fail("WeightList must hold 4 tensors per layer and direction (" + Twine(4 * cells) +
                  "), got " + Twine(getWeightList().size()));
  for (int64_t cell = 0; cell < cells; ++cell) {
    int64_t in = cell < dirs ? x.getDimSize(2) : dirs * h;
    SmallVector<std::pair<Value, SmallVector<int64_t>>> want{
        {getWeightList()[2 * cell], {g, in}},
        {getWeightList()[2 * cell + 1], {g, h}},
        {getWeightList()[2 * cells + 2 * cell], {g}},
        {getWeightList()[2 * cells + 2 * cell + 1], {g}}};
    for (auto &[w, dims] : want) {
      auto t = rt(w);
      bool bad = t.getRank() != static_cast<int64_t>(dims.size());
      for (int64_t i = 0; !bad && i < t.getRank(); ++i)
        bad = conflict(t.getDimSize(i), dims[i]);
      if (bad)
        return c.fail("WeightList entry of layer " + Twine(cell / dirs) + ", direction " +
                      Twine(cell % dirs) + " must be " + shapeStr(dims) + ", got " +
                      shapeStr(t.getShape()));
    }
  }
  if (Value len = getSequenceLength()) {
    if (failed(c.rank(len, "SequenceLength", 1, 1)))
      return failure();
    if (conflict(rt(len).getDimSize(0), x.getDimSize(1)))
      return c.fail("SequenceLength must have N = " + Twine(x.getDimSize(1)) + " elements, got " +
                    shapeStr(rt(len).getShape()));
  }
  Type f = x.getElementType();
  types.push_back(tensor({x.getDimSize(0), x.getDimSize(1), dirs * h}, f));
  for (size_t i = 0; i < states; ++i)
    types.push_back(tensor(state, f));
  // Training-only outputs (dropout mask state, cuDNN reserve): empty.
  Type u8 = IntegerType::get(getContext(), 8, IntegerType::Unsigned);
  if (getDropoutState())
    types.push_back(tensor({0}, u8));
  if (getReserve())
    types.push_back(tensor({0}, u8));
  return success();
}

/// The checks Fluid's gru and lstm share: Input [T, G*H] and Weight
/// [H, G*H] (H from Weight), the initial states [N, H] for the N sequences
/// of Input's LoD. Returns H.
static FailureOr<int64_t> lodRecurrence(const Checker &c, Value input, Value weight, Value lengths,
                                        ArrayRef<Value> states, int64_t gates) {
  FailureOr<int64_t> n = sequenceCount(c, input, lengths, "Input");
  if (failed(n) || failed(c.rank(input, "Input", 2, 2)) || failed(c.rank(weight, "Weight", 2, 2)))
    return failure();
  int64_t h = rt(weight).getDimSize(0), g = isDyn(h) ? kDyn : gates * h;
  if (conflict(rt(weight).getDimSize(1), g) || conflict(rt(input).getDimSize(1), g)) {
    (void)c.fail("Input must be [T, " + Twine(gates) + " * H] and Weight [H, " + Twine(gates) +
                 " * H], got " + shapeStr(rt(input).getShape()) + " and " +
                 shapeStr(rt(weight).getShape()));
    return failure();
  }
  for (Value s : states) {
    if (!s)
      continue;
    auto t = rt(s);
    if (t.getRank() != 2 || conflict(t.getDimSize(0), *n) || conflict(t.getDimSize(1), h)) {
      (void)c.fail("H0 and C0 must be [N, H] = " + shapeStr({*n, h}) +
                   " (a row per sequence), got " + shapeStr(t.getShape()));
      return failure();
    }
  }
  return h;
}

/// A [1, width] bias (width static when H is).
static LogicalResult rowBias(const Checker &c, Value bias, int64_t width, StringRef what) {
  if (!bias)
    return success();
  auto t = rt(bias);
  if (t.getRank() != 2 || conflict(t.getDimSize(0), 1) || conflict(t.getDimSize(1), width))
    return c.fail("Bias must be [1, " + (isDyn(width) ? Twine("?") : Twine(width)) + "]" + what +
                  ", got " + shapeStr(t.getShape()));
  return success();
}

LogicalResult GruOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  FailureOr<int64_t> h = lodRecurrence(c, getInput(), getWeight(), getLengths(), {getH0()}, 3);
  if (failed(h) || failed(rowBias(c, getBias(), isDyn(*h) ? kDyn : 3 * *h, "")))
    return failure();
  Type f = rt(getInput()).getElementType();
  int64_t t = rt(getInput()).getDimSize(0);
  types.push_back(tensor({t, *h}, f));
  // Intermediates of Paddle's batched kernel, for training: empty here.
  if (getBatchGate())
    types.push_back(tensor({0, isDyn(*h) ? kDyn : 3 * *h}, f));
  if (getBatchResetHiddenPrev())
    types.push_back(tensor({0, *h}, f));
  if (getBatchHidden())
    types.push_back(tensor({0, *h}, f));
  return success();
}

LogicalResult LstmOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  FailureOr<int64_t> h =
      lodRecurrence(c, getInput(), getWeight(), getLengths(), {getH0(), getC0()}, 4);
  if (failed(h))
    return failure();
  bool peep = getUsePeepholes();
  int64_t width = isDyn(*h) ? kDyn : (peep ? 7 : 4) * *h;
  if (failed(rowBias(c, getBias(), width,
                     peep ? " (4H gate biases, then 3H peephole weights: use_peepholes)" : "")))
    return failure();
  Type f = rt(getInput()).getElementType();
  int64_t t = rt(getInput()).getDimSize(0);
  types.push_back(tensor({t, *h}, f));
  types.push_back(tensor({t, *h}, f));
  if (getBatchGate())
    types.push_back(tensor({0, isDyn(*h) ? kDyn : 4 * *h}, f));
  if (getBatchCellPreAct())
    types.push_back(tensor({0, *h}, f));
  return success();
}

LogicalResult LstmpOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  FailureOr<int64_t> n = sequenceCount(c, getInput(), getLengths(), "Input");
  if (failed(n) || failed(c.rank(getInput(), "Input", 2, 2)) ||
      failed(c.rank(getWeight(), "Weight", 2, 2)) ||
      failed(c.rank(getProjWeight(), "ProjWeight", 2, 2)))
    return failure();
  // D from ProjWeight [D, P]; Weight [P, 4D]; Input [T, 4D].
  int64_t d = rt(getProjWeight()).getDimSize(0), p = rt(getProjWeight()).getDimSize(1);
  int64_t g = isDyn(d) ? kDyn : 4 * d;
  if (conflict(rt(getWeight()).getDimSize(0), p) || conflict(rt(getWeight()).getDimSize(1), g) ||
      conflict(rt(getInput()).getDimSize(1), g))
    return c.fail("Input must be [T, 4D], Weight [P, 4D] and ProjWeight [D, P], got " +
                  shapeStr(rt(getInput()).getShape()) + ", " +
                  shapeStr(rt(getWeight()).getShape()) + " and " +
                  shapeStr(rt(getProjWeight()).getShape()));
  for (Value s : {getH0(), getC0()}) {
    if (!s)
      continue;
    auto t = rt(s);
    if (t.getRank() != 2 || conflict(t.getDimSize(0), *n) || conflict(t.getDimSize(1), d))
      return c.fail("H0 and C0 must be [N, D] = " + shapeStr({*n, d}) +
                    " (a row per sequence), got " + shapeStr(t.getShape()));
  }
  bool peep = getUsePeepholes();
  if (failed(rowBias(c, getBias(), isDyn(d) ? kDyn : (peep ? 7 : 4) * d,
                     peep ? " (4D gate biases, then 3D peephole weights: use_peepholes)" : "")))
    return failure();
  if (getCellClip().convertToDouble() < 0 || getProjClip().convertToDouble() < 0)
    return c.fail("cell_clip and proj_clip must not be negative (0: no clipping)");
  Type f = rt(getInput()).getElementType();
  int64_t t = rt(getInput()).getDimSize(0);
  types.push_back(tensor({t, p}, f));
  types.push_back(tensor({t, d}, f));
  // Intermediates of Paddle's batched kernel, for training: empty here.
  if (getBatchGate())
    types.push_back(tensor({0, g}, f));
  if (getBatchCellPreAct())
    types.push_back(tensor({0, d}, f));
  if (getBatchHidden())
    types.push_back(tensor({0, d}, f));
  if (getOrderedP0())
    types.push_back(tensor({0, p}, f));
  return success();
}

LogicalResult GruUnitOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  for (auto [name, act] : {std::pair<StringRef, int32_t>{"activation", getActivation()},
                           {"gate_activation", getGateActivation()}})
    if (act > 3)
      return c.fail(name + " " + Twine(act) +
                    " is not one of Paddle's 0 identity, 1 sigmoid, 2 tanh, 3 relu");
  if (failed(c.rank(getInput(), "Input", 2, 2)) ||
      failed(c.rank(getHiddenPrev(), "HiddenPrev", 2, 2)) ||
      failed(c.rank(getWeight(), "Weight", 2, 2)))
    return failure();
  auto x = rt(getInput()), h0 = rt(getHiddenPrev()), w = rt(getWeight());
  int64_t d = !isDyn(w.getDimSize(0)) ? w.getDimSize(0) : h0.getDimSize(1);
  int64_t three = isDyn(d) ? kDyn : 3 * d;
  if (conflict(w.getDimSize(0), d) || conflict(w.getDimSize(1), three))
    return c.fail(
        "Weight must be [D, 3D] for D = " + (isDyn(d) ? std::string("?") : std::to_string(d)) +
        ", got " + shapeStr(w.getShape()));
  if (conflict(h0.getDimSize(1), d) || conflict(x.getDimSize(1), three))
    return c.fail("Input must be [N, 3D] and HiddenPrev [N, D] for D = " +
                  (isDyn(d) ? std::string("?") : std::to_string(d)) + ", got " +
                  shapeStr(x.getShape()) + " and " + shapeStr(h0.getShape()));
  if (conflict(x.getDimSize(0), h0.getDimSize(0)))
    return c.fail("Input and HiddenPrev must have the same rows, got " + shapeStr(x.getShape()) +
                  " and " + shapeStr(h0.getShape()));
  if (failed(rowBias(c, getBias(), three, "")))
    return failure();
  int64_t n = isDyn(x.getDimSize(0)) ? h0.getDimSize(0) : x.getDimSize(0);
  Type f = x.getElementType();
  types.push_back(tensor({n, three}, f));
  types.push_back(tensor({n, d}, f));
  types.push_back(tensor({n, d}, f));
  return success();
}

LogicalResult LstmUnitOp::inferResultTypes(SmallVectorImpl<Type> &types, bool emit) {
  Checker c{*this, emit};
  if (failed(c.rank(getX(), "X", 2, 2)) || failed(c.rank(getCPrev(), "C_prev", 2, 2)))
    return failure();
  auto x = rt(getX()), c0 = rt(getCPrev());
  int64_t d = c0.getDimSize(1);
  if (conflict(x.getDimSize(1), isDyn(d) ? kDyn : 4 * d) ||
      (isDyn(d) && !isDyn(x.getDimSize(1)) && x.getDimSize(1) % 4 != 0))
    return c.fail("X must be [N, 4D] for C_prev [N, D], got " + shapeStr(x.getShape()) + " and " +
                  shapeStr(c0.getShape()));
  if (conflict(x.getDimSize(0), c0.getDimSize(0)))
    return c.fail("X and C_prev must have the same rows, got " + shapeStr(x.getShape()) + " and " +
                  shapeStr(c0.getShape()));
  if (isDyn(d) && !isDyn(x.getDimSize(1)))
    d = x.getDimSize(1) / 4;
  int64_t n = isDyn(x.getDimSize(0)) ? c0.getDimSize(0) : x.getDimSize(0);
  types.push_back(tensor({n, d}, x.getElementType()));
  types.push_back(tensor({n, d}, x.getElementType()));
  return success();
}

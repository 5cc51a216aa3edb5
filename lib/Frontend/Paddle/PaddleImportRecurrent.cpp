//===- PaddleImportRecurrent.cpp - cudnn_lstm as pd.rnn ------------------===//
//
// Fluid's cudnn_lstm (fluid.layers.lstm: a multi-layer, optionally
// bidirectional LSTM over a time-major Input [T, N, I]) is Paddle 2.x's rnn
// op in mode LSTM with its weights packed into one parameter W. W holds,
// for each layer and direction in turn, W_ih [4H, I_l] then W_hh [4H, H],
// and after all of them, in the same order, b_ih [4H] then b_hh [4H]
// (I_0 = input_size, I_l = D * H after the first layer; gates i, f, c, o).
// The importer slices W into rnn's WeightList; the constant folder turns the
// slices into weights of their own.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::paddle_import;

FailureOr<bool> Importer::importCudnnLstm(const pdp::OpDesc &op, int index) {
  if (op.type() != "cudnn_lstm")
    return false;
  Location loc = opLoc(op, index);
  auto where = [&] { return "op 'cudnn_lstm' #" + std::to_string(index); };
  auto intAttr = [&](StringRef name, int64_t def) -> int64_t {
    const pdp::OpDesc::Attr *a = findAttr(op, name);
    return a ? a->i() : def;
  };
  const pdp::OpDesc::Attr *bidirec = findAttr(op, "is_bidirec");
  int64_t hidden = intAttr("hidden_size", 100), layers = intAttr("num_layers", 1);
  int64_t dirs = bidirec && bidirec->b() ? 2 : 1;
  if (hidden < 1 || layers < 1)
    return fail(loc, where() + ": hidden_size and num_layers must be positive, got " +
                         Twine(hidden) + " and " + Twine(layers));
  const pdp::OpDesc::Var *input = findSlot(op.inputs(), "Input");
  if (!input || input->arguments_size() != 1)
    return fail(loc, where() + " needs one Input");
  auto x = lookup(input->arguments(0), loc, op, index);
  if (failed(x))
    return failure();
  auto xt = cast<RankedTensorType>(x->getType());
  if (xt.getRank() != 3 || xt.isDynamicDim(2))
    return fail(loc, where() + ": Input must be [T, N, I] with a static I");
  int64_t inSize = xt.getDimSize(2);

  pdp::OpDesc d;
  d.set_type("rnn");
  auto addIn = [&](StringRef slot, ArrayRef<std::string> names) {
    pdp::OpDesc::Var *v = d.add_inputs();
    v->set_parameter(slot.str());
    for (const std::string &n : names)
      v->add_arguments(n);
  };
  addIn("Input", {input->arguments(0)});
  SmallVector<std::string> pre;
  for (StringRef slot : {"InitH", "InitC"}) {
    const pdp::OpDesc::Var *v = findSlot(op.inputs(), slot);
    if (!v || v->arguments_size() != 1)
      return fail(loc, where() + " needs one " + slot);
    pre.push_back(v->arguments(0));
  }
  addIn("PreState", pre);

  // The weight list: Paddle 2.x writes it as WeightList beside (or instead
  // of) W, in rnn's order already.
  SmallVector<std::string> weights;
  const pdp::OpDesc::Var *list = findSlot(op.inputs(), "WeightList");
  if (list && list->arguments_size() > 0) {
    for (const std::string &n : list->arguments())
      weights.push_back(n);
  } else {
    const pdp::OpDesc::Var *w = findSlot(op.inputs(), "W");
    if (!w || w->arguments_size() != 1)
      return fail(loc, where() + " needs the packed weights W (or a WeightList)");
    auto packed = lookup(w->arguments(0), loc, op, index);
    if (failed(packed))
      return failure();
    auto wt = cast<RankedTensorType>(packed->getType());
    int64_t gates = 4 * hidden, want = 0;
    SmallVector<std::pair<int64_t, int64_t>> pieces; // (rows, cols) of each slice
    for (int64_t l = 0; l < layers; ++l)
      for (int64_t k = 0; k < dirs; ++k) {
        pieces.push_back({gates, l == 0 ? inSize : dirs * hidden});
        pieces.push_back({gates, hidden});
      }
    for (int64_t i = 0; i < 2 * layers * dirs; ++i)
      pieces.push_back({gates, 0}); // a bias: [4H]
    for (auto [rows, cols] : pieces)
      want += rows * std::max<int64_t>(cols, 1);
    if (!wt.hasStaticShape() || wt.getNumElements() != want)
      return fail(loc, where() + ": W has " +
                           (wt.hasStaticShape() ? Twine(wt.getNumElements()) : Twine("a dynamic")) +
                           " values, but " + Twine(layers) + " layer(s) x " + Twine(dirs) +
                           " direction(s) of hidden size " + Twine(hidden) + " over " +
                           Twine(inSize) + " inputs need " + Twine(want));
    // reshape2 and slice take optional tensor operands: none here.
    auto segments = [&](ArrayRef<int32_t> sizes) {
      return b.getNamedAttr("operandSegmentSizes", b.getDenseI32ArrayAttr(sizes));
    };
    Value flat = *packed;
    if (wt.getRank() != 1)
      flat = createPd("reshape2", flat,
                      {b.getNamedAttr("shape", b.getDenseI32ArrayAttr({-1})), segments({1, 0, 0})},
                      loc);
    int64_t offset = 0;
    for (auto [i, piece] : llvm::enumerate(pieces)) {
      auto [rows, cols] = piece;
      int64_t n = rows * std::max<int64_t>(cols, 1);
      Value s = createPd(
          "slice", flat,
          {b.getNamedAttr("axes", b.getDenseI32ArrayAttr({0})),
           b.getNamedAttr("starts", b.getDenseI32ArrayAttr({static_cast<int32_t>(offset)})),
           b.getNamedAttr("ends", b.getDenseI32ArrayAttr({static_cast<int32_t>(offset + n)})),
           segments({1, 0, 0, 0, 0})},
          loc);
      if (cols > 0)
        s = createPd("reshape2", s,
                     {b.getNamedAttr("shape", b.getDenseI32ArrayAttr({static_cast<int32_t>(rows),
                                                                      static_cast<int32_t>(cols)})),
                      segments({1, 0, 0})},
                     loc);
      offset += n;
      std::string name = w->arguments(0) + "@cudnn_lstm_" + std::to_string(i);
      env[name] = s;
      weights.push_back(name);
    }
  }
  addIn("WeightList", weights);
  if (const pdp::OpDesc::Var *len = findSlot(op.inputs(), "SequenceLength");
      len && len->arguments_size() == 1)
    addIn("SequenceLength", {len->arguments(0)});

  const pdp::OpDesc::Var *out = findSlot(op.outputs(), "Out");
  if (!out || out->arguments_size() != 1)
    return fail(loc, where() + " needs one Out");
  *d.add_outputs() = *out;
  // LastH and LastC are rnn's State; Reserve and StateOut (cuDNN's
  // workspace and dropout state) are not computed for inference.
  pdp::OpDesc::Var *state = d.add_outputs();
  state->set_parameter("State");
  for (StringRef slot : {"LastH", "LastC"}) {
    const pdp::OpDesc::Var *v = findSlot(op.outputs(), slot);
    if (!v || v->arguments_size() != 1)
      return fail(loc, where() + " needs one " + slot);
    state->add_arguments(v->arguments(0));
  }
  for (const pdp::OpDesc::Attr &a : op.attrs())
    if (llvm::is_contained(
            {"num_layers", "is_bidirec", "hidden_size", "dropout_prob", "is_test", "seed"},
            a.name()))
      *d.add_attrs() = a;
  auto add = [&](StringRef name) {
    pdp::OpDesc::Attr *a = d.add_attrs();
    a->set_name(name.str());
    return a;
  };
  pdp::OpDesc::Attr *mode = add("mode");
  mode->set_type(pdp::STRING);
  mode->set_s("LSTM");
  pdp::OpDesc::Attr *in = add("input_size");
  in->set_type(pdp::INT);
  in->set_i(static_cast<int32_t>(inSize));
  if (failed(importOp(d, index)))
    return failure();
  return true;
}

//===- Recurrent.cpp - pd rnn, gru, lstm -> pdk_rnn, pdk_lod_rnn ----------===//
//
// Paddle 2.x's `rnn` op calls the runtime's pdk_rnn (lib/Runtime/Kernels/
// Rnn.cpp): one matrix product per layer and direction for the input
// projection of every step, then the sequential recurrence. The kernel
// writes Out and the final states into one f32 buffer, which generated
// copies unpack into the op's results. Fluid's gru and lstm over LoD
// sequences call pdk_lod_rnn the same way.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Runtime/KernelABI.h"
#include "Utils.h"

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::pd::lowering;

namespace {
/// The row-major block of the flat buffer `flat` that starts at `base`, as
/// a tensor of `type` whose dims are `dims` (the dynamic ones size it).
Value unpackBlock(OpBuilder &r, Location loc, Value flat, Value base, RankedTensorType type,
                  ArrayRef<Value> dims) {
  SmallVector<Value> dyn;
  for (auto [i, d] : llvm::enumerate(dims))
    if (type.isDynamicDim(i))
      dyn.push_back(d);
  return generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
    Value p = linalg::IndexOp::create(b, l, 0);
    for (size_t i = 1; i < dims.size(); ++i)
      p = arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, p, dims[i]),
                                linalg::IndexOp::create(b, l, i));
    return tensor::ExtractOp::create(b, l, flat, ValueRange{arith::AddIOp::create(b, l, base, p)});
  });
}

struct RnnLowering : OpConversionPattern<RnnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(RnnOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getInput(), lengths = a.getSequenceLength();
    auto f32 = [](Value v) { return cast<RankedTensorType>(v.getType()).getElementType().isF32(); };
    bool allF32 =
        f32(x) && llvm::all_of(a.getPreState(), f32) && llvm::all_of(a.getWeightList(), f32);
    Type lenElem = lengths ? cast<RankedTensorType>(lengths.getType()).getElementType() : Type();
    if (!allF32 || (lengths && !lenElem.isInteger(32) && !lenElem.isInteger(64)))
      return op.emitOpError("is computed in fp32 with i32 or i64 sequence lengths");
    int64_t mode = llvm::StringSwitch<int64_t>(op.getMode())
                       .Case("LSTM", pdk::rnn::Lstm)
                       .Case("GRU", pdk::rnn::Gru)
                       .Case("RNN_RELU", pdk::rnn::RnnRelu)
                       .Default(pdk::rnn::RnnTanh);
    int64_t layers = op.getNumLayers(), dirs = op.getIsBidirec() ? 2 : 1, h = op.getHiddenSize();
    int64_t cells = layers * dirs, nStates = a.getPreState().size();
    // Inputs in slot order; a slot's entry in `slots` is its input index.
    SmallVector<Value> ins{x};
    SmallVector<int64_t> slots(pdk::rnn::numSlots(layers, dirs), -1);
    slots[pdk::rnn::Input] = 0;
    auto add = [&](int64_t slot, Value v) {
      slots[slot] = ins.size();
      ins.push_back(v);
    };
    add(pdk::rnn::H0, a.getPreState()[0]);
    if (nStates == 2)
      add(pdk::rnn::C0, a.getPreState()[1]);
    if (lengths)
      add(pdk::rnn::Lengths, lengths);
    for (auto [i, w] : llvm::enumerate(a.getWeightList()))
      add(pdk::rnn::FirstWeight + i, w);
    // Destination: Out [T*N*D*H], then each final state [L*D*N*H].
    Value steps = r.createOrFold<tensor::DimOp>(loc, x, 0);
    Value batch = r.createOrFold<tensor::DimOp>(loc, x, 1);
    auto mul = [&](Value p, int64_t k) {
      return r.createOrFold<arith::MulIOp>(loc, p, idx(r, loc, k));
    };
    Value rows = r.createOrFold<arith::MulIOp>(loc, steps, batch);
    Value outSize = mul(rows, dirs * h), stateSize = mul(batch, cells * h);
    Value total = r.createOrFold<arith::AddIOp>(loc, outSize, mul(stateSize, nStates));
    auto flatType = RankedTensorType::get({ShapedType::kDynamic}, r.getF32Type());
    Value init =
        tensor::EmptyOp::create(r, loc, flatType.getShape(), r.getF32Type(), ValueRange{total});
    SmallVector<int64_t> ints(pdk::rnn::NumInts);
    ints[pdk::rnn::Mode] = mode;
    ints[pdk::rnn::Layers] = layers;
    ints[pdk::rnn::Directions] = dirs;
    ints[pdk::rnn::Hidden] = h;
    ints[pdk::rnn::LengthsI64] = lengths && lenElem.isInteger(64);
    auto call =
        KernelCallOp::create(r, loc, flatType, "pdk_rnn", ins, init, r.getDenseI64ArrayAttr(slots),
                             r.getDenseI64ArrayAttr(ints), r.getDenseF32ArrayAttr({}));
    call->setAttr("pd.from", r.getStringAttr("rnn"));
    Value flat = call.getResult();
    // Result k of shape [d0, d1, d2] is flat[base + (i0 * d1 + i1) * d2 + i2].
    auto unpack = [&](Value result, Value base, ArrayRef<Value> dims) {
      return unpackBlock(r, loc, flat, base, cast<RankedTensorType>(result.getType()), dims);
    };
    SmallVector<Value> results{
        unpack(op.getOut(), idx(r, loc, 0), {steps, batch, idx(r, loc, dirs * h)})};
    Value base = outSize;
    for (Value s : op.getState()) {
      results.push_back(unpack(s, base, {idx(r, loc, cells), batch, idx(r, loc, h)}));
      base = r.createOrFold<arith::AddIOp>(loc, base, stateSize);
    }
    // Training-only outputs: empty at inference.
    for (Value extra : {op.getDropoutState(), op.getReserve()})
      if (extra) {
        auto t = cast<RankedTensorType>(extra.getType());
        results.push_back(tensor::EmptyOp::create(r, loc, t.getShape(), t.getElementType()));
      }
    r.replaceOp(op, results);
    return success();
  }
};

int64_t lodAct(StringRef name) {
  return llvm::StringSwitch<int64_t>(name)
      .Case("sigmoid", pdk::lodrnn::Sigmoid)
      .Case("tanh", pdk::lodrnn::Tanh)
      .Case("relu", pdk::lodrnn::Relu)
      .Default(pdk::lodrnn::Identity);
}

/// Fluid's gru, lstm and lstmp over LoD sequences -> pdk_lod_rnn, whose f32
/// destination holds Hidden [T, H] (lstmp: Projection [T, P]) then, for the
/// LSTMs, Cell [T, H] (lstmp: [T, D]); generated copies unpack it, and the
/// training intermediates are empty.
template <typename OpT> struct LodRecurrenceLowering : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  using Adaptor = typename OpConversionPattern<OpT>::OpAdaptor;
  LogicalResult matchAndRewrite(OpT op, Adaptor a, ConversionPatternRewriter &r) const override {
    namespace lr = pdk::lodrnn;
    constexpr bool lstmp = std::is_same_v<OpT, LstmpOp>;
    constexpr bool lstm = std::is_same_v<OpT, LstmOp> || lstmp;
    Location loc = op.getLoc();
    Value x = a.getInput(), lengths = a.getLengths();
    if (failed(checkSequenceOperands(op, ValueRange{x, a.getWeight()}, lengths)))
      return failure();
    SmallVector<Value> ins;
    SmallVector<int64_t> slots(lr::NumSlots, -1);
    auto add = [&](int64_t slot, Value v) {
      if (!v)
        return;
      slots[slot] = ins.size();
      ins.push_back(v);
    };
    SmallVector<int64_t> ints(lr::NumInts);
    SmallVector<float> floats(lr::NumFloats, 0.f);
    add(lr::Input, x);
    add(lr::H0, a.getH0());
    if constexpr (lstm) {
      add(lr::C0, a.getC0());
      ints[lr::Mode] = lstmp ? lr::Lstmp : lr::Lstm;
      ints[lr::Peepholes] = op.getUsePeepholes();
      ints[lr::GateAct] = lodAct(op.getGateActivation());
      ints[lr::CellAct] = lodAct(op.getCellActivation());
      ints[lr::CandidateAct] = lodAct(op.getCandidateActivation());
    } else {
      ints[lr::Mode] = lr::Gru;
      ints[lr::OriginMode] = op.getOriginMode();
      ints[lr::GateAct] = lodAct(op.getGateActivation());
      ints[lr::CandidateAct] = lodAct(op.getActivation());
    }
    if constexpr (lstmp) {
      ints[lr::ProjAct] = lodAct(op.getProjActivation());
      floats[lr::CellClip] = op.getCellClip().convertToFloat();
      floats[lr::ProjClip] = op.getProjClip().convertToFloat();
    }
    ints[lr::Reverse] = op.getIsReverse();
    add(lr::Weight, a.getWeight());
    add(lr::Bias, a.getBias());
    add(lr::Lengths, lengths);
    Value rows = r.createOrFold<tensor::DimOp>(loc, x, 0);
    // The recurrent state's width (Weight's rows: H, or P for lstmp) and
    // the cell's (H, or ProjWeight's rows D).
    Value h = r.createOrFold<tensor::DimOp>(loc, a.getWeight(), 0), cellWidth = h;
    if constexpr (lstmp) {
      add(lr::ProjWeight, a.getProjWeight());
      cellWidth = r.createOrFold<tensor::DimOp>(loc, a.getProjWeight(), 0);
    }
    Value plane = r.createOrFold<arith::MulIOp>(loc, rows, h);
    Value total = lstm ? r.createOrFold<arith::AddIOp>(
                             loc, plane, r.createOrFold<arith::MulIOp>(loc, rows, cellWidth))
                       : plane;
    auto flatType = RankedTensorType::get({ShapedType::kDynamic}, r.getF32Type());
    Value init =
        tensor::EmptyOp::create(r, loc, flatType.getShape(), r.getF32Type(), ValueRange{total});
    auto call = KernelCallOp::create(r, loc, flatType, "pdk_lod_rnn", ins, init,
                                     r.getDenseI64ArrayAttr(slots), r.getDenseI64ArrayAttr(ints),
                                     r.getDenseF32ArrayAttr(floats));
    call->setAttr("pd.from", r.getStringAttr(lstmp ? "lstmp" : lstm ? "lstm" : "gru"));
    Value flat = call.getResult();
    SmallVector<Value> results{unpackBlock(r, loc, flat, idx(r, loc, 0),
                                           cast<RankedTensorType>(op->getResult(0).getType()),
                                           {rows, h})};
    if constexpr (lstm)
      results.push_back(unpackBlock(r, loc, flat, plane,
                                    cast<RankedTensorType>(op->getResult(1).getType()),
                                    {rows, cellWidth}));
    for (Value extra : op->getResults().drop_front(lstm ? 2 : 1)) {
      auto t = cast<RankedTensorType>(extra.getType());
      SmallVector<Value> dyn;
      bool projected = false; // lstmp's OrderedP0 is [0, P]
      if constexpr (lstmp)
        projected = extra == op.getOrderedP0();
      if (t.isDynamicDim(1)) // the gates' width for BatchGate, else the state's
        dyn.push_back(extra == op.getBatchGate() ? r.createOrFold<tensor::DimOp>(loc, x, 1)
                      : projected                ? h
                                                 : cellWidth);
      results.push_back(tensor::EmptyOp::create(r, loc, t.getShape(), t.getElementType(), dyn));
    }
    r.replaceOp(op, results);
    return success();
  }
};
} // namespace

namespace {
/// gru_unit: one GRU step as two matrix products and generated elementwise
/// tensors (update and reset gates, the candidate, the new hidden state).
struct GruUnitLowering : OpConversionPattern<GruUnitOp> {
  using OpConversionPattern::OpConversionPattern;
  static StringRef actName(int32_t a) {
    return a == 0 ? "identity" : a == 1 ? "sigmoid" : a == 2 ? "tanh" : "relu";
  }
  LogicalResult matchAndRewrite(GruUnitOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getInput(), hp = a.getHiddenPrev(), w = a.getWeight(), bias = a.getBias();
    auto hType = cast<RankedTensorType>(op.getHidden().getType());
    Type f = hType.getElementType();
    if (!f.isF32())
      return op.emitOpError("supports float32 only");
    Value n = r.createOrFold<tensor::DimOp>(loc, hp, 0),
          d = r.createOrFold<tensor::DimOp>(loc, hp, 1);
    Value d2 = r.createOrFold<arith::MulIOp>(loc, d, idx(r, loc, 2));
    Value d3 = r.createOrFold<arith::MulIOp>(loc, d, idx(r, loc, 3));
    int64_t ds = hType.getDimSize(1), ns = hType.getDimSize(0);
    auto mul = [](int64_t v, int64_t m) { return ShapedType::isDynamic(v) ? v : v * m; };
    auto make = [&](int64_t cols, Value colsV) {
      SmallVector<Value> dyn;
      if (ShapedType::isDynamic(ns))
        dyn.push_back(n);
      if (ShapedType::isDynamic(cols))
        dyn.push_back(colsV);
      return std::make_pair(RankedTensorType::get({ns, cols}, f), dyn);
    };
    // Weight's values in order: [D, 2D] (update, reset), then [D, D].
    auto weights = [&](int64_t cols, Value colsV, Value base) {
      SmallVector<Value> dyn;
      if (ShapedType::isDynamic(ds))
        dyn.push_back(d);
      if (ShapedType::isDynamic(cols))
        dyn.push_back(colsV);
      auto t = RankedTensorType::get({ds, cols}, f);
      return generateTensor(r, loc, t, dyn, [&](OpBuilder &b, Location l) -> Value {
        Value flat = arith::AddIOp::create(
            b, l, base,
            arith::AddIOp::create(
                b, l, arith::MulIOp::create(b, l, linalg::IndexOp::create(b, l, 0), colsV),
                linalg::IndexOp::create(b, l, 1)));
        Value row = arith::DivUIOp::create(b, l, flat, d3),
              col = arith::RemUIOp::create(b, l, flat, d3);
        return tensor::ExtractOp::create(b, l, w, ValueRange{row, col});
      });
    };
    auto product = [&](Value lhs, Value rhs, int64_t cols, Value colsV) {
      auto [t, dyn] = make(cols, colsV);
      Value zero = filled(r, loc, t, dyn, 0.0);
      return linalg::MatmulOp::create(r, loc, ValueRange{lhs, rhs}, ValueRange{zero}).getResult(0);
    };
    // Input + Bias at (i, col).
    auto gateIn = [&](OpBuilder &b, Location l, Value i, Value col) -> Value {
      Value v = tensor::ExtractOp::create(b, l, x, ValueRange{i, col});
      if (!bias)
        return v;
      Value bv = tensor::ExtractOp::create(b, l, bias, ValueRange{idx(b, l, 0), col});
      return arith::AddFOp::create(b, l, v, bv);
    };
    StringRef gateAct = actName(op.getGateActivation()), act = actName(op.getActivation());
    Value ur = product(hp, weights(mul(ds, 2), d2, idx(r, loc, 0)), mul(ds, 2), d2);
    auto [urType, urDyn] = make(mul(ds, 2), d2);
    Value gates = generateTensor(r, loc, urType, urDyn, [&](OpBuilder &b, Location l) -> Value {
      Value i = linalg::IndexOp::create(b, l, 0), j = linalg::IndexOp::create(b, l, 1);
      Value v = arith::AddFOp::create(b, l, gateIn(b, l, i, j),
                                      tensor::ExtractOp::create(b, l, ur, ValueRange{i, j}));
      return applyActivation(b, l, v, gateAct, 0.0);
    });
    auto [hT, hDyn] = make(ds, d);
    Value resetPrev = generateTensor(r, loc, hT, hDyn, [&](OpBuilder &b, Location l) -> Value {
      Value i = linalg::IndexOp::create(b, l, 0), j = linalg::IndexOp::create(b, l, 1);
      Value rg =
          tensor::ExtractOp::create(b, l, gates, ValueRange{i, arith::AddIOp::create(b, l, j, d)});
      return arith::MulFOp::create(b, l, rg, tensor::ExtractOp::create(b, l, hp, ValueRange{i, j}));
    });
    Value cc = product(resetPrev, weights(ds, d, r.createOrFold<arith::MulIOp>(loc, d2, d)), ds, d);
    Value cand = generateTensor(r, loc, hT, hDyn, [&](OpBuilder &b, Location l) -> Value {
      Value i = linalg::IndexOp::create(b, l, 0), j = linalg::IndexOp::create(b, l, 1);
      Value v = arith::AddFOp::create(b, l, gateIn(b, l, i, arith::AddIOp::create(b, l, j, d2)),
                                      tensor::ExtractOp::create(b, l, cc, ValueRange{i, j}));
      return applyActivation(b, l, v, act, 0.0);
    });
    bool origin = op.getOriginMode();
    Value hidden = generateTensor(r, loc, hT, hDyn, [&](OpBuilder &b, Location l) -> Value {
      Value i = linalg::IndexOp::create(b, l, 0), j = linalg::IndexOp::create(b, l, 1);
      Value u = tensor::ExtractOp::create(b, l, gates, ValueRange{i, j});
      Value c = tensor::ExtractOp::create(b, l, cand, ValueRange{i, j});
      Value h = tensor::ExtractOp::create(b, l, hp, ValueRange{i, j});
      // origin_mode: u * h_prev + (1 - u) * c; else u * c + (1 - u) * h_prev.
      Value keep = origin ? h : c, other = origin ? c : h;
      return arith::AddFOp::create(
          b, l, other, arith::MulFOp::create(b, l, u, arith::SubFOp::create(b, l, keep, other)));
    });
    auto [gT, gDyn] = make(mul(ds, 3), d3);
    Value gate = generateTensor(r, loc, gT, gDyn, [&](OpBuilder &b, Location l) -> Value {
      Value i = linalg::IndexOp::create(b, l, 0), j = linalg::IndexOp::create(b, l, 1);
      Value first = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, j, d2);
      Value jg = arith::SelectOp::create(b, l, first, j, idx(b, l, 0));
      Value jc =
          arith::SelectOp::create(b, l, first, idx(b, l, 0), arith::SubIOp::create(b, l, j, d2));
      return arith::SelectOp::create(b, l, first,
                                     tensor::ExtractOp::create(b, l, gates, ValueRange{i, jg}),
                                     tensor::ExtractOp::create(b, l, cand, ValueRange{i, jc}));
    });
    replaceWithDeclaredTypes(r, op, {gate, resetPrev, hidden});
    return success();
  }
};

/// lstm_unit: C and H generated elementwise from X's four gate blocks
/// (input, forget, output, candidate) and C_prev.
struct LstmUnitLowering : OpConversionPattern<LstmUnitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LstmUnitOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX(), c0 = a.getCPrev();
    auto type = cast<RankedTensorType>(op.getC().getType());
    if (!type.getElementType().isF32())
      return op.emitOpError("supports float32 only");
    Value d = r.createOrFold<tensor::DimOp>(loc, c0, 1);
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < 2; ++i)
      if (type.isDynamicDim(i))
        dyn.push_back(r.createOrFold<tensor::DimOp>(loc, c0, i));
    float forgetBias = op.getForgetBias().convertToFloat();
    // Gate k of row i at column j: X[i, k * D + j].
    auto gate = [&](OpBuilder &b, Location l, int64_t k) -> Value {
      Value i = linalg::IndexOp::create(b, l, 0), j = linalg::IndexOp::create(b, l, 1);
      Value col = arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, d, idx(b, l, k)), j);
      return tensor::ExtractOp::create(b, l, x, ValueRange{i, col});
    };
    Value cell = generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
      Value in = sigmoid(b, l, gate(b, l, 0));
      Value f = sigmoid(
          b, l,
          arith::AddFOp::create(b, l, gate(b, l, 1), scalar(b, l, b.getF32Type(), forgetBias)));
      Value g = math::TanhOp::create(b, l, gate(b, l, 3));
      Value prev = tensor::ExtractOp::create(
          b, l, c0, ValueRange{linalg::IndexOp::create(b, l, 0), linalg::IndexOp::create(b, l, 1)});
      return arith::AddFOp::create(b, l, arith::MulFOp::create(b, l, f, prev),
                                   arith::MulFOp::create(b, l, in, g));
    });
    Value hidden = generateTensor(r, loc, type, dyn, [&](OpBuilder &b, Location l) -> Value {
      Value c = tensor::ExtractOp::create(
          b, l, cell,
          ValueRange{linalg::IndexOp::create(b, l, 0), linalg::IndexOp::create(b, l, 1)});
      return arith::MulFOp::create(b, l, sigmoid(b, l, gate(b, l, 2)),
                                   math::TanhOp::create(b, l, c));
    });
    replaceWithDeclaredTypes(r, op, {cell, hidden});
    return success();
  }
};
} // namespace

void mlir::pd::populatePdRecurrentToLinalgPatterns(RewritePatternSet &p) {
  p.add<RnnLowering, LodRecurrenceLowering<GruOp>, LodRecurrenceLowering<LstmOp>,
        LodRecurrenceLowering<LstmpOp>, GruUnitLowering, LstmUnitLowering>(p.getContext());
}

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

/// Fluid's gru and lstm over LoD sequences -> pdk_lod_rnn, whose f32
/// destination [S * T * H] holds Hidden (then Cell for LSTM); generated
/// copies unpack it, and the training intermediates are empty.
template <typename OpT> struct LodRecurrenceLowering : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  using Adaptor = typename OpConversionPattern<OpT>::OpAdaptor;
  LogicalResult matchAndRewrite(OpT op, Adaptor a, ConversionPatternRewriter &r) const override {
    namespace lr = pdk::lodrnn;
    constexpr bool lstm = std::is_same_v<OpT, LstmOp>;
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
    add(lr::Input, x);
    add(lr::H0, a.getH0());
    if constexpr (lstm) {
      add(lr::C0, a.getC0());
      ints[lr::Mode] = lr::Lstm;
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
    ints[lr::Reverse] = op.getIsReverse();
    add(lr::Weight, a.getWeight());
    add(lr::Bias, a.getBias());
    add(lr::Lengths, lengths);
    auto hidden = cast<RankedTensorType>(op.getHidden().getType());
    Value rows = r.createOrFold<tensor::DimOp>(loc, x, 0);
    Value h = r.createOrFold<tensor::DimOp>(loc, a.getWeight(), 0);
    Value plane = r.createOrFold<arith::MulIOp>(loc, rows, h);
    Value total = lstm ? r.createOrFold<arith::AddIOp>(loc, plane, plane) : plane;
    auto flatType = RankedTensorType::get({ShapedType::kDynamic}, r.getF32Type());
    Value init =
        tensor::EmptyOp::create(r, loc, flatType.getShape(), r.getF32Type(), ValueRange{total});
    auto call = KernelCallOp::create(r, loc, flatType, "pdk_lod_rnn", ins, init,
                                     r.getDenseI64ArrayAttr(slots), r.getDenseI64ArrayAttr(ints),
                                     r.getDenseF32ArrayAttr({}));
    call->setAttr("pd.from", r.getStringAttr(lstm ? "lstm" : "gru"));
    Value flat = call.getResult();
    auto unpack = [&](Value base) { return unpackBlock(r, loc, flat, base, hidden, {rows, h}); };
    SmallVector<Value> results{unpack(idx(r, loc, 0))};
    if constexpr (lstm)
      results.push_back(unpack(plane));
    for (Value extra : op->getResults().drop_front(lstm ? 2 : 1)) {
      auto t = cast<RankedTensorType>(extra.getType());
      SmallVector<Value> dyn;
      if (t.isDynamicDim(1)) // the gates' width for BatchGate, else H
        dyn.push_back(extra == op.getBatchGate() ? r.createOrFold<tensor::DimOp>(loc, x, 1) : h);
      results.push_back(tensor::EmptyOp::create(r, loc, t.getShape(), t.getElementType(), dyn));
    }
    r.replaceOp(op, results);
    return success();
  }
};
} // namespace

void mlir::pd::populatePdRecurrentToLinalgPatterns(RewritePatternSet &p) {
  p.add<RnnLowering, LodRecurrenceLowering<GruOp>, LodRecurrenceLowering<LstmOp>>(p.getContext());
}

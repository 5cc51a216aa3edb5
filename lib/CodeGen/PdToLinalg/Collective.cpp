//===- Collective.cpp - collective and point-to-point ops -> pdk_collective -===//
//
// Each pd collective (c_allreduce_*, c_broadcast, c_allgather,
// c_reducescatter, send_v2, recv_v2, barrier) becomes one call of
// libpdrt_kernels' pdk_collective (comm:: in KernelABI.h), which runs it on
// the process's communicator. The call carries `pd.comm`, which gives it
// the op's side effects after lowering too: it is never erased, merged or
// moved across another collective. pd.shard_batch has it copy this rank's
// part of the batch; pd.is_stage asks it for the rank.
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
/// comm::Dtype of an element type, or -1.
int64_t commDtype(Type t) {
  if (t.isF32())
    return pdk::comm::F32;
  if (t.isF64())
    return pdk::comm::F64;
  if (t.isF16())
    return pdk::comm::F16;
  if (t.isBF16())
    return pdk::comm::BF16;
  if (t.isInteger(1))
    return pdk::comm::Bool;
  if (t.isUnsignedInteger(8))
    return pdk::comm::U8;
  if (t.isInteger(8))
    return pdk::comm::I8;
  if (t.isInteger(32))
    return pdk::comm::I32;
  if (t.isInteger(64))
    return pdk::comm::I64;
  return -1;
}

struct CommSpec {
  int64_t kind, reduce = pdk::comm::Sum, peer = 0, nranks = 0, ringId = 0;
};

FailureOr<CommSpec> specOf(Operation *op) {
  CommSpec s;
  if (auto o = dyn_cast<CAllreduceSumOp>(op))
    s = {pdk::comm::AllReduce, pdk::comm::Sum, 0, 0, o.getRingId()};
  else if (auto o = dyn_cast<CAllreduceMaxOp>(op))
    s = {pdk::comm::AllReduce, pdk::comm::Max, 0, 0, o.getRingId()};
  else if (auto o = dyn_cast<CAllreduceMinOp>(op))
    s = {pdk::comm::AllReduce, pdk::comm::Min, 0, 0, o.getRingId()};
  else if (auto o = dyn_cast<CAllreduceProdOp>(op))
    s = {pdk::comm::AllReduce, pdk::comm::Prod, 0, 0, o.getRingId()};
  else if (auto o = dyn_cast<CBroadcastOp>(op))
    s = {pdk::comm::Broadcast, 0, o.getRoot(), 0, o.getRingId()};
  else if (auto o = dyn_cast<CAllgatherOp>(op))
    s = {pdk::comm::AllGather, 0, 0, o.getNranks(), o.getRingId()};
  else if (auto o = dyn_cast<CReducescatterOp>(op))
    s = {pdk::comm::ReduceScatter, pdk::comm::Sum, 0, o.getNranks(), o.getRingId()};
  else if (auto o = dyn_cast<SendV2Op>(op))
    s = {pdk::comm::Send, 0, o.getPeer(), 0, o.getRingId()};
  else if (auto o = dyn_cast<RecvV2Op>(op))
    s = {pdk::comm::Recv, 0, o.getPeer(), 0, o.getRingId()};
  else if (auto o = dyn_cast<BarrierOp>(op))
    s = {pdk::comm::Barrier, 0, 0, 0, o.getRingId()};
  else
    return failure();
  return s;
}

/// The pdk_collective call on `x` (null: none, recv_v2) into `init`, with
/// `ints` (comm::Int fields), named after `from` in the manifest and
/// marked as communicating.
KernelCallOp commCall(ConversionPatternRewriter &r, Location loc, Value x, Value init,
                      ArrayRef<int64_t> ints, StringRef from) {
  SmallVector<Value> ins;
  if (x)
    ins.push_back(x);
  auto k = KernelCallOp::create(r, loc, init.getType(), "pdk_collective", ins, init,
                                r.getDenseI64ArrayAttr({x ? 0 : -1}), r.getDenseI64ArrayAttr(ints),
                                r.getDenseF32ArrayAttr({}));
  k->setAttr("pd.from", r.getStringAttr(from));
  k->setAttr(kCommAttr, r.getUnitAttr());
  return k;
}

template <typename OpT> struct CollectiveLowering : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpT op, typename OpT::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Operation *raw = op.getOperation();
    CommSpec s = *specOf(raw);
    StringRef name = raw->getName().stripDialect();
    // The runtime has one communicator, every rank of the job (Paddle's
    // ring 0). Other rings (the groups Paddle's startup program makes with
    // c_comm_init) are refused here, so a program whose ops disagree on
    // the ring fails to compile instead of deadlocking at run time.
    if (s.ringId != 0)
      return op.emitOpError("uses ring_id ")
             << s.ringId
             << ", but only ring 0 (every rank of the job) exists: communicators "
                "over other groups of ranks are not supported";
    auto seq = raw->template getAttrOfType<IntegerAttr>("pd.comm_seq");
    Value x = raw->getNumOperands() ? a.getOperands()[0] : Value();
    Type elem = x ? cast<RankedTensorType>(x.getType()).getElementType()
                  : cast<RankedTensorType>(raw->getResult(0).getType()).getElementType();
    int64_t dtype = commDtype(elem);
    if (dtype < 0)
      return r.notifyMatchFailure(op, "element type has no communication dtype");
    // MPI reduces no 16-bit floats: the low-precision patterns
    // (LowPrecision.cpp) reduce those in f32 between casts.
    bool reduces = s.kind == pdk::comm::AllReduce || s.kind == pdk::comm::ReduceScatter;
    if (reduces && (dtype == pdk::comm::F16 || dtype == pdk::comm::BF16))
      return r.notifyMatchFailure(op, "16-bit floats are reduced in f32");

    // The destination: Out, or for send_v2 a one-element placeholder.
    Value init;
    RankedTensorType outType;
    if (raw->getNumResults()) {
      outType = cast<RankedTensorType>(raw->getResult(0).getType());
      if (!outType.hasStaticShape() && !x)
        return op.emitOpError("needs a static out_shape to receive into");
      SmallVector<Value> dyn;
      for (int64_t d = 0; d < outType.getRank(); ++d)
        if (outType.isDynamicDim(d)) {
          Value v = tensor::DimOp::create(r, loc, x, d);
          if (d == 0 && s.kind == pdk::comm::AllGather)
            v = arith::MulIOp::create(r, loc, v, idx(r, loc, s.nranks));
          if (d == 0 && s.kind == pdk::comm::ReduceScatter)
            v = arith::DivUIOp::create(r, loc, v, idx(r, loc, s.nranks));
          dyn.push_back(v);
        }
      init = tensor::EmptyOp::create(r, loc, outType.getShape(), outType.getElementType(), dyn);
    } else {
      outType = RankedTensorType::get({1}, r.getI64Type());
      init = tensor::EmptyOp::create(r, loc, outType.getShape(), outType.getElementType());
    }
    SmallVector<int64_t> ints(pdk::comm::NumInts, 0);
    ints[pdk::comm::Kind] = s.kind;
    ints[pdk::comm::RingId] = s.ringId;
    ints[pdk::comm::ReduceOp] = s.reduce;
    ints[pdk::comm::Peer] = s.peer;
    ints[pdk::comm::Nranks] = s.nranks;
    ints[pdk::comm::Dtype] = dtype;
    ints[pdk::comm::Seq] = seq ? seq.getInt() : -1;
    KernelCallOp k = commCall(r, loc, x, init, ints, name);
    if (raw->getNumResults())
      r.replaceOp(op, k.getResult());
    else
      r.eraseOp(op);
    return success();
  }
};
/// pd.shard_batch: pdk_collective copies this rank's rows rank * B/n ...
/// of X into a part of its own (it checks the job's size and the batch).
/// A copy rather than a view at a rank-dependent offset: the cuda target
/// passes its kernels bare pointers, which carry no run-time offset.
struct ShardBatchLowering : OpConversionPattern<ShardBatchOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ShardBatchOp op, OpAdaptor a,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value x = a.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    auto outType = cast<RankedTensorType>(op.getType());
    int64_t n = op.getDevices();
    int64_t dtype = commDtype(xt.getElementType());
    if (dtype < 0)
      return r.notifyMatchFailure(op, "element type has no communication dtype");
    SmallVector<Value> dyn;
    for (int64_t d = 0; d < xt.getRank(); ++d)
      if (outType.isDynamicDim(d)) {
        Value v = tensor::DimOp::create(r, loc, x, d);
        dyn.push_back(d == 0 ? arith::DivUIOp::create(r, loc, v, idx(r, loc, n)).getResult() : v);
      }
    Value init = tensor::EmptyOp::create(r, loc, outType.getShape(), outType.getElementType(), dyn);
    SmallVector<int64_t> ints(pdk::comm::NumInts, 0);
    ints[pdk::comm::Kind] = pdk::comm::Shard;
    ints[pdk::comm::Nranks] = n;
    ints[pdk::comm::Dtype] = dtype;
    ints[pdk::comm::Seq] = -1;
    r.replaceOp(op, commCall(r, loc, x, init, ints, "shard_batch").getResult());
    return success();
  }
};
/// pd.is_stage: the rank from pdk_collective (which checks the job's size)
/// compared with the stage.
struct IsStageLowering : OpConversionPattern<IsStageOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(IsStageOp op, OpAdaptor,
                                ConversionPatternRewriter &r) const override {
    Location loc = op.getLoc();
    Value init = tensor::EmptyOp::create(r, loc, ArrayRef<int64_t>{1}, r.getI64Type());
    SmallVector<int64_t> ints(pdk::comm::NumInts, 0);
    ints[pdk::comm::Kind] = pdk::comm::Stage;
    ints[pdk::comm::Peer] = op.getStage();
    ints[pdk::comm::Nranks] = op.getStages();
    ints[pdk::comm::Seq] = -1;
    KernelCallOp k = commCall(r, loc, Value(), init, ints, "is_stage");
    Value rank = tensor::ExtractOp::create(r, loc, k.getResult(), ValueRange{idx(r, loc, 0)});
    Value stage = arith::ConstantIntOp::create(r, loc, r.getI64Type(), op.getStage());
    Value is = arith::CmpIOp::create(r, loc, arith::CmpIPredicate::eq, rank, stage);
    r.replaceOpWithNewOp<tensor::FromElementsOp>(op, op.getType(), ValueRange{is});
    return success();
  }
};
/// pd.allreduce_start / pd.allreduce_wait: pdk_collective in place on X
/// (the destination is X itself, so the buffer being reduced is the one
/// the wait reads, live in between), the bucket as Peer.
template <typename OpT, int64_t Kind> struct BucketLowering : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpT op, typename OpT::Adaptor a,
                                ConversionPatternRewriter &r) const override {
    Value x = a.getX();
    int64_t dtype = commDtype(cast<RankedTensorType>(x.getType()).getElementType());
    if (dtype != pdk::comm::F32 && dtype != pdk::comm::F64)
      return op.emitOpError("averages float32 or float64 gradients only");
    SmallVector<int64_t> ints(pdk::comm::NumInts, 0);
    ints[pdk::comm::Kind] = Kind;
    ints[pdk::comm::ReduceOp] = pdk::comm::Sum;
    ints[pdk::comm::Peer] = op.getBucket();
    ints[pdk::comm::Dtype] = dtype;
    ints[pdk::comm::Seq] = -1;
    KernelCallOp k = commCall(r, op.getLoc(), Value(), x, ints, op->getName().stripDialect());
    r.replaceOp(op, k.getResult());
    return success();
  }
};
} // namespace

void mlir::pd::numberCollectives(Operation *root) {
  int64_t seq = 0;
  Builder b(root->getContext());
  root->walk([&](Operation *op) {
    if (succeeded(specOf(op)))
      op->setAttr("pd.comm_seq", b.getI64IntegerAttr(seq++));
  });
}

void mlir::pd::populatePdCollectiveToKernelCallPatterns(RewritePatternSet &p) {
  p.add<CollectiveLowering<CAllreduceSumOp>, CollectiveLowering<CAllreduceMaxOp>,
        CollectiveLowering<CAllreduceMinOp>, CollectiveLowering<CAllreduceProdOp>,
        CollectiveLowering<CBroadcastOp>, CollectiveLowering<CAllgatherOp>,
        CollectiveLowering<CReducescatterOp>, CollectiveLowering<SendV2Op>,
        CollectiveLowering<RecvV2Op>, CollectiveLowering<BarrierOp>, ShardBatchLowering,
        IsStageLowering, BucketLowering<AllreduceStartOp, pdk::comm::AllReduceStart>,
        BucketLowering<AllreduceWaitOp, pdk::comm::AllReduceWait>>(p.getContext());
}

//===- KernelCall.cpp - pd.kernel_call: verifier, effects, bufferization --===//
//
// pd.kernel_call is destination-passing: on tensors its result is the new
// value of `init`; on memrefs it writes `init` in place. Bufferization turns
// the first form into the second, reusing the destination's buffer.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::pd;
using namespace mlir::bufferization;

LogicalResult KernelCallOp::verify() {
  bool onTensors = isa<RankedTensorType>(getInit().getType());
  if (onTensors != bool(getResult()))
    return emitOpError("has a result exactly when its destination is a tensor");
  if (getResult() && getResult().getType() != getInit().getType())
    return emitOpError("result type must equal the destination type");
  for (Value v : getInputs())
    if (isa<TensorType>(v.getType()) != onTensors)
      return emitOpError("mixes tensor and memref operands");
  int64_t n = getInputs().size();
  for (int64_t s : getSlots())
    if (s < -1 || s >= n)
      return emitOpError("slot index ") << s << " is out of range for " << n << " inputs";
  return success();
}

void KernelCallOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if ((*this)->hasAttr(kCommAttr)) {
    // Talks to the other ranks: kept, and kept in order, on tensors too.
    effects.emplace_back(MemoryEffects::Read::get(), CommResource::get());
    effects.emplace_back(MemoryEffects::Write::get(), CommResource::get());
  }
  if (getResult())
    return; // value semantics
  for (OpOperand &in : getInputsMutable())
    effects.emplace_back(MemoryEffects::Read::get(), &in, SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &getInitMutable(),
                       SideEffects::DefaultResource::get());
}

bool KernelCallOp::bufferizesToMemoryRead(OpOperand &operand, const AnalysisState &) {
  return operand.getOperandNumber() < getInputs().size();
}

bool KernelCallOp::bufferizesToMemoryWrite(OpOperand &operand, const AnalysisState &) {
  return &operand == &getInitMutable();
}

AliasingValueList KernelCallOp::getAliasingValues(OpOperand &operand, const AnalysisState &) {
  if (&operand == &getInitMutable() && getResult())
    return {{getResult(), BufferRelation::Equivalent}};
  return {};
}

LogicalResult KernelCallOp::bufferize(RewriterBase &rewriter, const BufferizationOptions &options,
                                      BufferizationState &state) {
  if (!getResult())
    return success();
  SmallVector<Value> ins;
  for (Value v : getInputs()) {
    FailureOr<Value> buf = getBuffer(rewriter, v, options, state);
    if (failed(buf))
      return failure();
    ins.push_back(*buf);
  }
  FailureOr<Value> out = getBuffer(rewriter, getInit(), options, state);
  if (failed(out))
    return failure();
  rewriter.setInsertionPoint(*this);
  auto call = KernelCallOp::create(rewriter, getLoc(), TypeRange{}, getCalleeAttr(), ins, *out,
                                   getSlotsAttr(), getIntsAttr(), getFloatsAttr());
  call->setDiscardableAttrs(getOperation()->getDiscardableAttrDictionary());
  replaceOpWithBufferizedValues(rewriter, *this, *out);
  return success();
}

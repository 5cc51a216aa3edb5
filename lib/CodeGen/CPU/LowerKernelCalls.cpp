//===- LowerKernelCalls.cpp - memref pd.kernel_call -> func.call ----------===//
//
// After bufferization each pd.kernel_call becomes a call of its C function
// with three arrays built on the stack (see the op's description): operand
// pointers, integer parameters + operand dims, float parameters. The arrays
// are allocas at the function entry, filled right before the call.
//
//===----------------------------------------------------------------------===//

#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::pd {
#define GEN_PASS_DEF_PDLOWERKERNELCALLSPASS
#include "PaddleMLIR/CodeGen/Passes.h.inc"

namespace {
/// An i64 holding the address of the first element of `buf`.
Value elementAddress(OpBuilder &b, Location loc, Value buf) {
  auto type = cast<MemRefType>(buf.getType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, buf);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buf);
  int64_t elemBytes = type.getElementTypeBitWidth() / 8;
  Value off = arith::MulIOp::create(b, loc, meta.getOffset(),
                                    arith::ConstantIndexOp::create(b, loc, elemBytes));
  Value addr = arith::AddIOp::create(b, loc, base, off);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), addr);
}

/// A stack array of `n` elements of `elem` at the function entry.
Value entryAlloca(OpBuilder &b, func::FuncOp fn, Type elem, int64_t n) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&fn.getBody().front());
  return memref::AllocaOp::create(b, fn.getLoc(), MemRefType::get({std::max<int64_t>(n, 1)}, elem));
}

struct PdLowerKernelCallsPass : impl::PdLowerKernelCallsPassBase<PdLowerKernelCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<KernelCallOp> calls;
    module.walk([&](KernelCallOp op) { calls.push_back(op); });
    OpBuilder b(module.getContext());
    Type i64 = b.getI64Type();
    llvm::StringMap<int64_t> counts;
    for (KernelCallOp op : calls) {
      auto from = op->getAttrOfType<StringAttr>("pd.from");
      ++counts[(from ? from.getValue() : StringRef("?")).str() + " -> " + op.getCallee().str()];
      if (op.getResult()) {
        op.emitOpError("must be bufferized before pd-lower-kernel-calls");
        return signalPassFailure();
      }
      auto fn = op->getParentOfType<func::FuncOp>();
      Location loc = op.getLoc();
      // The C function, declared once.
      StringRef callee = op.getCallee();
      auto fnType = b.getFunctionType({i64, i64, i64}, {});
      if (auto existing = module.lookupSymbol<func::FuncOp>(callee)) {
        if (existing.getFunctionType() != fnType) {
          existing.emitOpError("clashes with kernel function '") << callee << "'";
          return signalPassFailure();
        }
      } else {
        b.setInsertionPointToStart(module.getBody());
        func::FuncOp::create(b, loc, callee, fnType).setPrivate();
      }

      b.setInsertionPoint(op);
      SmallVector<Value> temps;
      // Kernels read and write dense row-major buffers; anything else goes
      // through a contiguous copy.
      auto contiguous = [&](Value buf) -> Value {
        auto t = cast<MemRefType>(buf.getType());
        if (t.getLayout().isIdentity() || t.areTrailingDimsContiguous(t.getRank()))
          return buf;
        SmallVector<Value> dyn;
        for (int64_t i = 0; i < t.getRank(); ++i)
          if (t.isDynamicDim(i))
            dyn.push_back(memref::DimOp::create(b, loc, buf, i));
        Value tmp =
            memref::AllocOp::create(b, loc, MemRefType::get(t.getShape(), t.getElementType()), dyn,
                                    b.getI64IntegerAttr(64));
        temps.push_back(tmp);
        return tmp;
      };
      SmallVector<Value> ins;
      for (Value v : op.getInputs()) {
        Value c = contiguous(v);
        if (c != v)
          memref::CopyOp::create(b, loc, v, c);
        ins.push_back(c);
      }
      Value out = contiguous(op.getInit());

      ArrayRef<int64_t> slots = op.getSlots();
      Value ptrs = entryAlloca(b, fn, i64, slots.size() + 1);
      auto storeAt = [&](Value array, Value v, int64_t i) {
        memref::StoreOp::create(b, loc, v, array,
                                ValueRange{arith::ConstantIndexOp::create(b, loc, i)});
      };
      SmallVector<Value> dimsOf;
      for (auto [i, s] : llvm::enumerate(slots)) {
        if (s < 0) {
          storeAt(ptrs, arith::ConstantIntOp::create(b, loc, i64, 0), i);
          continue;
        }
        storeAt(ptrs, elementAddress(b, loc, ins[s]), i);
        dimsOf.push_back(ins[s]);
      }
      storeAt(ptrs, elementAddress(b, loc, out), slots.size());
      dimsOf.push_back(out);

      SmallVector<Value> ints;
      for (int64_t v : op.getInts())
        ints.push_back(arith::ConstantIntOp::create(b, loc, i64, v));
      for (Value buf : dimsOf) {
        auto t = cast<MemRefType>(buf.getType());
        ints.push_back(arith::ConstantIntOp::create(b, loc, i64, t.getRank()));
        for (int64_t d = 0; d < t.getRank(); ++d) {
          Value dim =
              t.isDynamicDim(d)
                  ? arith::IndexCastOp::create(b, loc, i64, memref::DimOp::create(b, loc, buf, d))
                        .getResult()
                  : arith::ConstantIntOp::create(b, loc, i64, t.getDimSize(d)).getResult();
          ints.push_back(dim);
        }
      }
      Value intArray = entryAlloca(b, fn, i64, ints.size());
      for (auto [i, v] : llvm::enumerate(ints))
        storeAt(intArray, v, i);
      ArrayRef<float> floats = op.getFloats();
      Value floatArray = entryAlloca(b, fn, b.getF32Type(), floats.size());
      for (auto [i, f] : llvm::enumerate(floats))
        storeAt(floatArray, arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(f)), i);

      auto address = [&](Value array) {
        Value p = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, array);
        return arith::IndexCastOp::create(b, loc, i64, p).getResult();
      };
      func::CallOp::create(b, loc, callee, TypeRange{},
                           ValueRange{address(ptrs), address(intArray), address(floatArray)});
      if (out != op.getInit())
        memref::CopyOp::create(b, loc, out, op.getInit());
      for (Value t : temps)
        memref::DeallocOp::create(b, loc, t);
      op.erase();
    }
    if (counts.empty())
      return;
    SmallVector<NamedAttribute> summary;
    for (auto &c : counts)
      summary.emplace_back(b.getStringAttr(c.getKey()), b.getI64IntegerAttr(c.getValue()));
    module->setAttr("pd.kernel_calls", b.getDictionaryAttr(summary));
  }
};
} // namespace
} // namespace mlir::pd

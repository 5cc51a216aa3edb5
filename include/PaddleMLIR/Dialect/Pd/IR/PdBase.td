//===- PdBase.td - pd dialect definition and shared constraints -*- tablegen -*-===//
//
// The dialect record, the tensor type constraints used by every op, attribute
// constraints for Paddle's attribute rules, and the base class of all pd ops.
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_DIALECT_PD_IR_PDBASE_TD
#define PADDLEMLIR_DIALECT_PD_IR_PDBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "PaddleMLIR/Dialect/Pd/IR/PdInterfaces.td"

def Pd_Dialect : Dialect {
  let name = "pd";
  let cppNamespace = "::mlir::pd";
  let summary = "PaddlePaddle operators with Paddle's names, slots and attributes";
  let description = [{
    The `pd` dialect holds one op per Paddle operator type, named as Paddle
    names it (`pd.conv2d`, `pd.batch_norm`, `pd.matmul_v2`, ...). Operands
    follow Paddle's input slots in order, attributes keep Paddle's names and
    defaults, and values are builtin ranked tensors with static or dynamic
    (`?`) dimensions. Outputs that exist only for training or bookkeeping
    (`XShape`, `MeanOut`, `Mask`, ...) are not modelled; the exporter recreates
    them. Fused and compiler-only ops (`pd.fc`, `pd.fused_conv2d`, ...) share
    the same conventions.
  }];
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// Element types a Paddle tensor may hold (VarType FP16..BOOL, INT8/UINT8,
// BF16), plus uint16/32/64 for ONNX models (no Paddle VarType holds them).
def Pd_ElementType : AnyTypeOf<[F16, BF16, F32, F64, I1, I8, UI8, I16, I32, I64, UI16, UI32,
                                UI64]>;
def Pd_FloatElement : AnyTypeOf<[F16, BF16, F32, F64]>;
def Pd_IntElement : AnyTypeOf<[I8, UI8, I16, I32, I64, UI16, UI32, UI64]>;
def Pd_IndexElement : AnyTypeOf<[I32, I64]>;

def Pd_Tensor : RankedTensorOf<[Pd_ElementType]>;
def Pd_FloatTensor : RankedTensorOf<[Pd_FloatElement]>;
def Pd_IntTensor : RankedTensorOf<[Pd_IntElement]>;
def Pd_IndexTensor : RankedTensorOf<[Pd_IndexElement]>;
def Pd_BoolTensor : RankedTensorOf<[I1]>;
// Numeric (non-bool) tensors, for arithmetic.
def Pd_NumTensor : RankedTensorOf<[Pd_FloatElement, Pd_IntElement]>;
// Integers or bools, for the bitwise ops.
def Pd_BitsTensor : RankedTensorOf<[I1, Pd_IntElement]>;
// Quantized storage (int8/uint8) or float fake-quant tensors.
def Pd_QuantTensor : RankedTensorOf<[Pd_FloatElement, I8, UI8]>;

//===----------------------------------------------------------------------===//
// Attributes and attribute constraints
//===----------------------------------------------------------------------===//

// Paddle's INT and LONG attributes are signed (-1 means "unset" or "last");
// upstream I32Attr/I64Attr return unsigned values from their getters.
def Pd_I32Attr : TypedSignlessIntegerAttrBase<I32, "int32_t", "32-bit signed integer attribute">;
def Pd_I64Attr : TypedSignlessIntegerAttrBase<I64, "int64_t", "64-bit signed integer attribute">;

// A string attribute restricted to a fixed set of spellings.
class Pd_StrIn<list<string> values> : AttrConstraint<
    CPred<"::llvm::is_contained(::llvm::ArrayRef<::llvm::StringRef>{\""
          # !interleave(values, "\", \"") # "\"}, "
          "::llvm::cast<::mlir::StringAttr>($_self).getValue())">,
    "whose value is one of {" # !interleave(values, ", ") # "}">;

// Every element of an i32 array attribute is >= `min`.
class Pd_I32ArrayMin<int min> : AttrConstraint<
    CPred<"::llvm::all_of(::llvm::cast<::mlir::DenseI32ArrayAttr>($_self).asArrayRef(), "
          "[](int32_t v) { return v >= " # min # "; })">,
    "whose elements are all >= " # min>;

// An i32 array attribute whose length is one of `sizes`.
class Pd_I32ArraySizeIn<list<int> sizes> : AttrConstraint<
    CPred<"::llvm::is_contained(::llvm::ArrayRef<int64_t>{"
          # !interleave(sizes, ", ") # "}, "
          "::llvm::cast<::mlir::DenseI32ArrayAttr>($_self).size())">,
    "with " # !interleave(sizes, " or ") # " elements">;

// A float attribute within [lo, hi].
// Bounds are compared in single precision: a file stores epsilon = 0.001 as
// the float nearest to it, which is above the double 0.001.
class Pd_F32Range<string lo, string hi> : AttrConstraint<
    CPred<"static_cast<float>(::llvm::cast<::mlir::FloatAttr>($_self).getValueAsDouble()) >= "
          # "static_cast<float>(" # lo # ") && "
          # "static_cast<float>(::llvm::cast<::mlir::FloatAttr>($_self).getValueAsDouble()) <= "
          # "static_cast<float>(" # hi # ")">,
    "whose value is in [" # lo # ", " # hi # "]">;

// A lower bound only (NaN fails it).
class Pd_F32Min<string lo> : AttrConstraint<
    CPred<"::llvm::cast<::mlir::FloatAttr>($_self).getValueAsDouble() >= " # lo>,
    "whose value is at least " # lo>;

//===----------------------------------------------------------------------===//
// Base op
//===----------------------------------------------------------------------===//

// Every pd op is pure (Paddle inference ops have no side effects on values)
// and infers its result types through PdShapeInference.
class Pd_Op<string mnemonic, list<Trait> traits = []>
    : Op<Pd_Dialect, mnemonic,
         !listconcat(traits, [Pure, DeclareOpInterfaceMethods<Pd_ShapeInferenceOpInterface>])>;

// A collective or point-to-point op: it reads and writes the communication
// state shared with the other ranks, so it is never erased when its result
// is unused, never merged with an equal op, and keeps its order against
// every other such op (all ranks must issue their collectives in the same
// order).
def Pd_CommResource : Resource<"::mlir::pd::CommResource">;
class Pd_CommOp<string mnemonic, list<Trait> traits = []>
    : Op<Pd_Dialect, mnemonic,
         !listconcat(traits, [MemoryEffects<[MemRead<Pd_CommResource>, MemWrite<Pd_CommResource>]>,
                              DeclareOpInterfaceMethods<Pd_ShapeInferenceOpInterface>])>;

#endif // PADDLEMLIR_DIALECT_PD_IR_PDBASE_TD

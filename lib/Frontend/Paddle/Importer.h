//===- Importer.h - the Paddle importer, shared by its source files -*- C++ -*-===//
//
// Internal to lib/Frontend/Paddle: PaddleImport.cpp holds the importer of
// plain ops and the driver, PaddleImportControlFlow.cpp the region ops
// (while, conditional_block, select_output), PaddleImportRecurrent.cpp
// cudnn_lstm (as rnn).
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_LIB_FRONTEND_PADDLE_IMPORTER_H
#define PADDLEMLIR_LIB_FRONTEND_PADDLE_IMPORTER_H

#include "PaddleMLIR/Dialect/Pd/IR/PdOpCatalog.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Frontend/Paddle/PaddleFormat.h"

#include "framework.pb.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringMap.h"

#include <map>

namespace mlir::pd::paddle_import {
namespace pdp = paddle::framework::proto;

/// Where the program and its parameters live.
struct ModelFiles {
  std::string program;
  std::string combinedParams; // empty: one file per variable in `dir`
  std::string dir;
};

const pdp::OpDesc::Attr *findAttr(const pdp::OpDesc &op, StringRef name);
const pdp::OpDesc::Var *findSlot(const google::protobuf::RepeatedPtrField<pdp::OpDesc::Var> &slots,
                                 StringRef name);
/// The tensor description of a variable: a LoD tensor's, or a SELECTED_ROWS
/// parameter's (the table of a sparse lookup_table, which an inference
/// program reads as a dense tensor).
const pdp::VarType::TensorDesc &tensorDesc(const pdp::VarDesc &var);

class Importer {
public:
  Importer(MLIRContext *ctx, const ModelFiles &files) : ctx(ctx), files(files), b(ctx) {}

  OwningOpRef<ModuleOp> run();

private:
  LogicalResult fail(Location loc, const Twine &msg) {
    emitError(loc) << msg;
    return failure();
  }
  Location fileLoc() { return FileLineColLoc::get(ctx, files.program, 0, 0); }
  Location opLoc(const pdp::OpDesc &op, int index);
  FailureOr<RankedTensorType> varType(const pdp::VarDesc &var, Location loc,
                                      bool parameter = false);
  LogicalResult loadParams(ArrayRef<const pdp::VarDesc *> params);
  LogicalResult importOp(const pdp::OpDesc &op, int index);
  LogicalResult importBlock(int blockIdx);
  LogicalResult importWhile(const pdp::OpDesc &op, int index);
  LogicalResult importConditionalBlock(const pdp::OpDesc &op, int index);
  LogicalResult importSelectOutput(const pdp::OpDesc &op, int index);
  FailureOr<int> subBlock(const pdp::OpDesc &op, int index);
  Value createPd(StringRef name, ValueRange operands, ArrayRef<NamedAttribute> attrs, Location loc);
  Value integerWeightAsFloat(const pdp::OpDesc &op, StringRef slot, Value v, Location loc);
  FailureOr<Value> int8AttrWeight(const pdp::OpDesc &op, int index, StringRef slot, Value stored,
                                  Value asFloat, Location loc);
  void recordInt8Attrs(const pdp::OpDesc &op, Operation *created);
  FailureOr<bool> importConvFusedParts(const pdp::OpDesc &op, int index);
  FailureOr<bool> importLegacyOp(const pdp::OpDesc &op, int index);
  FailureOr<bool> importCudnnLstm(const pdp::OpDesc &op, int index);
  FailureOr<Value> valueOrPlaceholder(const std::string &name, const pdp::OpDesc &op, int index);
  LogicalResult startValues(ArrayRef<std::string> names, const pdp::OpDesc &op, int index,
                            StringRef what, SmallVectorImpl<Value> &values);
  FailureOr<Value> lookup(const std::string &name, Location loc, const pdp::OpDesc &op, int index);
  FailureOr<Attribute> convertAttr(const pdp::OpDesc::Attr &attr, PdAttrKind kind, Location loc,
                                   const pdp::OpDesc &op);

  MLIRContext *ctx;
  const ModelFiles &files;
  OpBuilder b;
  pdp::ProgramDesc program;
  std::map<std::string, const pdp::VarDesc *> vars;
  llvm::StringMap<Value> env;
  /// Values whose size depends on the data (the boxes NMS keeps, and what
  /// is computed from them): Paddle's VarDescs hold compile-time guesses for
  /// them (Fluid writes [M, 6] for multiclass_nms's Out), never their size.
  llvm::DenseSet<Value> dataSized;
  /// The sequence lengths of each value that is a LoD batch (rows packed
  /// along dim 0): a LoD feed's extra argument, passed on as Paddle shares
  /// LoD (from an op's first LoD input to its results).
  llvm::DenseMap<Value, Value> lodLengths;
  /// The LoD level of the LoD values above that have more than one
  /// (lod_reset with `append`): pd keeps the lengths of the last level
  /// only, which is the level the ops accepted on them read.
  llvm::DenseMap<Value, int> lodLevels;
  /// The sequence lengths of the elements of each tensor array whose
  /// elements are LoD batches: an array of their lengths, written and read
  /// beside it by write_to_array / read_from_array ops the importer adds
  /// (marked pd.lod; the exporter leaves them out).
  llvm::DenseMap<Value, Value> arrayLengths;
  /// The lengths a LoD value, or a tensor array of LoD batches, carries.
  Value lodOf(Value v) const {
    if (Value l = lodLengths.lookup(v))
      return l;
    return arrayLengths.lookup(v);
  }
  int lodLevel(Value v) const {
    if (!lodOf(v))
      return 0;
    auto it = lodLevels.find(v);
    return it == lodLevels.end() ? 1 : it->second;
  }
  LogicalResult checkLodLevel(const pdp::OpDesc &op, int index, Location loc,
                              OperationState &state);
  LogicalResult checkRankTableOp(const pdp::OpDesc &op, int index, Location loc,
                                 OperationState &state);
  LogicalResult arrayLod(Operation *op, int index, Location loc);
  /// Whether variable `name` is a tensor array (LOD_TENSOR_ARRAY).
  bool isArrayVar(const std::string &name) const {
    auto var = vars.find(name);
    return var != vars.end() && var->second->type().type() == pdp::VarType::LOD_TENSOR_ARRAY;
  }
  Value emptyLengths(bool array, Location loc);
  void forgetValues(Operation *op);
  /// Loop block arguments that start as an empty declared array (Fluid's
  /// create_array), which may take LoD batches.
  llvm::DenseSet<Value> emptyArrays;
  llvm::StringMap<ml_program::GlobalOp> globals;
  /// The block whose ops are being imported (0, or a while's sub-block).
  int currentBlock = 0;
  ModuleOp module;
  func::FuncOp func;
};
} // namespace mlir::pd::paddle_import

#endif // PADDLEMLIR_LIB_FRONTEND_PADDLE_IMPORTER_H

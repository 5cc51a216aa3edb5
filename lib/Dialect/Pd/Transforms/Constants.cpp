//===- Constants.cpp - parameter data shared by the fusion passes --------===//

#include "Constants.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"

#include <cstring>

namespace mlir::pd {
/// The bytes of a pd.assign_value of float32, int32 or int64 elements, as
/// its static type lays them out.
static std::optional<std::vector<char>> assignValueBytes(AssignValueOp op) {
  auto type = dyn_cast<RankedTensorType>(op.getResult().getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  auto bytesOf = [&](auto values) -> std::optional<std::vector<char>> {
    if (static_cast<int64_t>(values.size()) != type.getNumElements() ||
        type.getElementTypeBitWidth() != sizeof(values[0]) * 8)
      return std::nullopt;
    std::vector<char> out(values.size() * sizeof(values[0]));
    std::memcpy(out.data(), values.data(), out.size());
    return out;
  };
  Type e = type.getElementType();
  if (e.isF32())
    return bytesOf(op.getFp32Values());
  if (e.isInteger(32) && op.getBoolValues().empty())
    return bytesOf(op.getInt32Values());
  if (e.isInteger(64))
    return bytesOf(op.getInt64Values());
  return std::nullopt;
}

std::optional<std::vector<char>> constantBytes(Value v) {
  if (auto assign = v.getDefiningOp<AssignValueOp>())
    return assignValueBytes(assign);
  auto load = v.getDefiningOp<ml_program::GlobalLoadConstOp>();
  if (!load)
    return std::nullopt;
  auto global =
      SymbolTable::lookupNearestSymbolFrom<ml_program::GlobalOp>(load, load.getGlobalAttr());
  if (!global || !global.getValueAttr())
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(global.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  unsigned bits = type.getElementTypeBitWidth();
  if (bits % 8 != 0)
    return std::nullopt;
  size_t size = size_t(type.getNumElements()) * bits / 8;
  Attribute value = *global.getValue();
  if (auto res = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = res.getRawHandle().getBlob();
    if (!blob || blob->getData().size() != size)
      return std::nullopt;
    return std::vector<char>(blob->getData().begin(), blob->getData().end());
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    std::vector<char> out(size);
    ArrayRef<char> raw = dense.getRawData();
    if (dense.isSplat()) {
      for (size_t i = 0; i < size; i += bits / 8)
        std::memcpy(out.data() + i, raw.data(), bits / 8);
    } else if (raw.size() == size) {
      std::memcpy(out.data(), raw.data(), size);
    } else {
      return std::nullopt;
    }
    return out;
  }
  return std::nullopt;
}

std::optional<std::vector<float>> constantData(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.getElementType().isF32())
    return std::nullopt;
  std::optional<std::vector<char>> bytes = constantBytes(v);
  if (!bytes)
    return std::nullopt;
  std::vector<float> out(bytes->size() / 4);
  std::memcpy(out.data(), bytes->data(), out.size() * 4);
  return out;
}

Value newConstantBytes(OpBuilder &builder, Operation *before, StringRef base, RankedTensorType type,
                       ArrayRef<char> bytes) {
  auto module = before->getParentOfType<ModuleOp>();
  std::string name = base.str();
  for (int i = 1; module.lookupSymbol(name); ++i)
    name = (base + "_" + Twine(i)).str();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  std::string key = name;
  for (char &c : key)
    if (!isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.')
      c = '_';
  auto blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, 64);
  auto global = ml_program::GlobalOp::create(
      builder, before->getLoc(), name, type, false,
      DenseResourceElementsAttr::get(type, key, std::move(blob)), builder.getStringAttr("private"));
  builder.setInsertionPoint(before);
  return ml_program::GlobalLoadConstOp::create(builder, before->getLoc(), type,
                                               SymbolRefAttr::get(global));
}

Value newConstant(OpBuilder &builder, Operation *before, StringRef base, RankedTensorType type,
                  ArrayRef<float> data) {
  return newConstantBytes(
      builder, before, base, type,
      ArrayRef<char>(reinterpret_cast<const char *>(data.data()), data.size() * 4));
}

void eraseUnusedGlobals(ModuleOp module) {
  for (auto global : llvm::make_early_inc_range(module.getOps<ml_program::GlobalOp>()))
    if (SymbolTable::symbolKnownUseEmpty(global, module))
      global.erase();
}

std::string globalName(Value v, StringRef fallback) {
  auto load = v.getDefiningOp<ml_program::GlobalLoadConstOp>();
  return load ? load.getGlobal().getLeafReference().str() : fallback.str();
}
} // namespace mlir::pd

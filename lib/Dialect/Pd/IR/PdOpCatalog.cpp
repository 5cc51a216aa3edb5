//===- PdOpCatalog.cpp - the generated slot/attribute table --------------===//

#include "PaddleMLIR/Dialect/Pd/IR/PdOpCatalog.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir::pd;

llvm::ArrayRef<PdOpSpec> mlir::pd::allPdOpSpecs() {
  static const std::vector<PdOpSpec> specs = {
#include "PaddleMLIR/Dialect/Pd/IR/PdOpCatalog.inc"
  };
  return specs;
}

const PdOpSpec *mlir::pd::lookupPdOpSpec(llvm::StringRef type) {
  static const llvm::StringMap<const PdOpSpec *> index = [] {
    llvm::StringMap<const PdOpSpec *> m;
    for (const PdOpSpec &s : allPdOpSpecs())
      m[s.name] = &s;
    return m;
  }();
  auto it = index.find(type);
  return it == index.end() ? nullptr : it->second;
}

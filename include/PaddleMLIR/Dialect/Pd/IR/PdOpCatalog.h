//===- PdOpCatalog.h - Paddle slot/attribute table of the pd ops -*- C++ -*-===//
//
// For each pd op: Paddle's input and output slot names in order with their
// arity, and the attributes with their Paddle kinds. Generated from
// utils/pd_ops/catalog.py; used by the importers and the exporter to map
// OpDesc slots and attributes onto operands and properties.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_DIALECT_PD_IR_PDOPCATALOG_H
#define PADDLEMLIR_DIALECT_PD_IR_PDOPCATALOG_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

namespace mlir::pd {
enum class PdSlotArity { Required, Optional, List };
enum class PdAttrKind { Int, Long, Float, Float64, Bool, String, Ints, Longs, Floats, Strings };

struct PdSlotSpec {
  const char *name;
  PdSlotArity arity;
};
struct PdAttrSpec {
  const char *name;
  PdAttrKind kind;
  /// Paddle's default as text (arrays comma-separated, bools 0/1); null for
  /// attributes Paddle requires.
  const char *defaultValue;
};
struct PdOpSpec {
  const char *name; // Paddle operator type, also the pd op mnemonic
  std::vector<PdSlotSpec> inputs;
  std::vector<PdSlotSpec> outputs;
  std::vector<PdAttrSpec> attrs;
};

/// Whether an input slot is one the compiler adds rather than Paddle
/// (catalog.py's LOD_SLOTS): the sequence lengths of the op's LoD input,
/// filled by the importer from the LoD feed they come from and left out by
/// the exporter.
inline bool isLodSlot(llvm::StringRef slot) { return slot == "Lengths"; }
/// Whether an output slot is one the compiler adds (LOD_RESULT_SLOTS): the
/// lengths of the LoD an op creates (im2sequence, lod_reset), which the
/// importer passes on with Out and the exporter leaves out.
/// It is always an op's last, required output slot (gen_ods.py checks).
inline bool isLodResultSlot(llvm::StringRef slot) { return slot == "OutLengths"; }

/// Every op of the catalogue (including the fused ops).
llvm::ArrayRef<PdOpSpec> allPdOpSpecs();
/// The entry for a Paddle operator type, or null when pd has no such op.
const PdOpSpec *lookupPdOpSpec(llvm::StringRef type);
} // namespace mlir::pd

#endif // PADDLEMLIR_DIALECT_PD_IR_PDOPCATALOG_H

//===- PaddleImportTest.cpp - parameter values and the op table ----------===//

#include "PaddleMLIR/Frontend/Paddle/PaddleImport.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOpCatalog.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

using namespace mlir;

namespace {
std::string modelsDir() {
  const char *root = std::getenv("PADDLE_MLIR_SRC_ROOT");
  return std::string(root ? root : ".") + "/../shared/models/paddle";
}

std::vector<char> readAll(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

/// A minimal, separate reader of one parameter record: skips the header
/// fields by their documented sizes and returns the offset of the data.
size_t recordDataOffset(const std::vector<char> &bytes, size_t offset) {
  offset += 4; // uint32 version
  uint64_t lod = 0;
  std::memcpy(&lod, &bytes[offset], 8);
  offset += 8;
  for (uint64_t i = 0; i < lod; ++i) {
    uint64_t n = 0;
    std::memcpy(&n, &bytes[offset], 8);
    offset += 8 + n;
  }
  offset += 4; // uint32 tensor version
  int32_t desc = 0;
  std::memcpy(&desc, &bytes[offset], 4);
  return offset + 4 + desc;
}

ArrayRef<char> globalData(ModuleOp module, StringRef name) {
  auto global = module.lookupSymbol<ml_program::GlobalOp>(name);
  if (!global)
    return {};
  auto attr = cast<DenseResourceElementsAttr>(global.getValueAttr());
  return attr.getRawHandle().getBlob()->getData();
}
} // namespace

// simple_model's combined params hold 5 records in sorted-name order; the
// first (conv1_bn_mean, 32 floats) and the last (conv1_weights,
// 32x3x3x3 floats) must hold exactly the bytes of the file.
TEST(PaddleImport, ParameterBytesMatchTheFile) {
  std::string dir = modelsDir() + "/simple_model";
  std::vector<char> file = readAll(dir + "/model.pdiparams");
  if (file.empty())
    GTEST_SKIP() << "../shared/models/paddle is absent";
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module = pd::importPaddleModel(&ctx, dir + "/model.pdmodel");
  ASSERT_TRUE(module);

  size_t first = recordDataOffset(file, 0);
  ArrayRef<char> mean = globalData(*module, "conv1_bn_mean");
  ASSERT_EQ(mean.size(), 32u * 4);
  EXPECT_EQ(0, std::memcmp(mean.data(), &file[first], mean.size()));

  size_t weights = file.size() - 32 * 3 * 3 * 3 * 4; // last record runs to EOF
  ArrayRef<char> w = globalData(*module, "conv1_weights");
  ASSERT_EQ(w.size(), 32u * 3 * 3 * 3 * 4);
  EXPECT_EQ(0, std::memcmp(w.data(), &file[weights], w.size()));
  float v0;
  std::memcpy(&v0, &file[weights], 4);
  EXPECT_TRUE(std::isfinite(v0));
}

// Fluid 1.x stores each parameter in its own file named after the variable.
TEST(PaddleImport, FluidPerVariableFiles) {
  std::string dir = modelsDir() + "/mobilenet_v1_fp32_224";
  std::vector<char> file = readAll(dir + "/fc7_offset");
  if (file.empty())
    GTEST_SKIP() << "../shared/models/paddle is absent";
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module = pd::importPaddleModel(&ctx, dir);
  ASSERT_TRUE(module);
  size_t data = recordDataOffset(file, 0);
  ArrayRef<char> bias = globalData(*module, "fc7_offset");
  ASSERT_EQ(bias.size(), file.size() - data);
  EXPECT_EQ(0, std::memcmp(bias.data(), &file[data], bias.size()));
}

// The generated slot/attribute table agrees with the registered ops: every
// pd op has an entry and every attribute it lists is an inherent attribute
// of the op (this catches drift between PdFusedOps.td and the catalogue).
TEST(PdOpCatalog, MatchesRegisteredOps) {
  MLIRContext ctx;
  ctx.loadDialect<pd::PdDialect>();
  std::set<std::string> registered;
  for (RegisteredOperationName name : ctx.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "pd")
      continue;
    StringRef op = name.getStringRef().drop_front(3);
    // Compiler-only ops are not Paddle operators and never reach import or
    // export: code generation's library call, and the int8 IR that
    // pd-quantize writes (PdQuantOps.td); the region ops (pd.while,
    // pd.conditional_block, pd.yield),
    // which the importer and exporter build from and into sub-blocks; and
    // pd-partition-devices' shard_batch and is_stage, and the gradient
    // buckets' allreduce_start / _wait (PdCommOps.td).
    if (llvm::is_contained({"kernel_call", "quantize", "dequantize", "quantized_conv2d",
                            "quantized_fc", "quantized_matmul", "while", "conditional_block",
                            "yield", "shard_batch", "is_stage", "allreduce_start",
                            "allreduce_wait"},
                           op))
      continue;
    registered.insert(op.str());
    const pd::PdOpSpec *spec = pd::lookupPdOpSpec(op);
    ASSERT_NE(spec, nullptr) << op.str() << " has no catalogue entry";
    std::set<std::string> inherent;
    for (StringAttr a : name.getAttributeNames())
      inherent.insert(a.str());
    for (const pd::PdAttrSpec &a : spec->attrs)
      EXPECT_TRUE(inherent.count(a.name)) << op.str() << " has no attribute " << a.name;
    size_t optionalOrList = 0;
    for (const pd::PdSlotSpec &s : spec->inputs)
      optionalOrList += s.arity != pd::PdSlotArity::Required;
    EXPECT_EQ(inherent.count("operandSegmentSizes") == 1, optionalOrList > 1) << op.str();
  }
  EXPECT_EQ(registered.size(), pd::allPdOpSpecs().size());
}

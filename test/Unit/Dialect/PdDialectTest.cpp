//===- PdDialectTest.cpp - unit tests of the pd dialect ------------------===//

#include "PaddleMLIR/Dialect/Pd/IR/PdDialect.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

using namespace mlir;

namespace {
std::string readSource(const std::string &rel) {
  const char *root = std::getenv("PADDLE_MLIR_SRC_ROOT");
  std::ifstream in(std::string(root ? root : ".") + "/" + rel);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct PdDialectTest : ::testing::Test {
  PdDialectTest() { ctx.loadDialect<pd::PdDialect, func::FuncDialect>(); }
  MLIRContext ctx;
};
} // namespace

// Every registered pd op has a round-trip case in test/Dialect/Pd/ops.mlir.
TEST_F(PdDialectTest, EveryOpHasRoundTripTest) {
  std::string ops = readSource("test/Dialect/Pd/ops.mlir");
  ASSERT_FALSE(ops.empty()) << "cannot read test/Dialect/Pd/ops.mlir";
  int count = 0;
  for (RegisteredOperationName name : ctx.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "pd")
      continue;
    ++count;
    // An op with results is checked where one is assigned; a terminator
    // (pd.yield) where it is applied to its operands.
    std::string op = name.getStringRef().str();
    bool found = ops.find(" = " + op + " ") != std::string::npos ||
                 ops.find(" " + op + " %") != std::string::npos;
    EXPECT_TRUE(found) << op << " has no case";
  }
  // The catalogue plus the five fused ops.
  EXPECT_GE(count, 100);
}

// Paddle VarType codes map to the documented element types (DESIGN.md section 5).
TEST_F(PdDialectTest, PaddleDtypeCodes) {
  auto is = [&](int code, Type t) { return pd::elementTypeFromPaddleDtype(&ctx, code) == t; };
  Builder b(&ctx);
  EXPECT_TRUE(is(0, b.getI1Type()));
  EXPECT_TRUE(is(1, b.getI16Type()));
  EXPECT_TRUE(is(2, b.getI32Type()));
  EXPECT_TRUE(is(3, b.getI64Type()));
  EXPECT_TRUE(is(4, b.getF16Type()));
  EXPECT_TRUE(is(5, b.getF32Type()));
  EXPECT_TRUE(is(6, b.getF64Type()));
  EXPECT_TRUE(is(20, IntegerType::get(&ctx, 8, IntegerType::Unsigned)));
  EXPECT_TRUE(is(21, b.getI8Type()));
  EXPECT_TRUE(is(22, b.getBF16Type()));
  EXPECT_FALSE(pd::elementTypeFromPaddleDtype(&ctx, 7));  // LOD_TENSOR is not an element type
  EXPECT_FALSE(pd::elementTypeFromPaddleDtype(&ctx, 23)); // COMPLEX64 unsupported
}

// The shape interface computes a conv output independently of declared types:
// 224 + 2*1 - 3 = 223, / 2 = 111, + 1 = 112.
TEST_F(PdDialectTest, ConvShapeInference) {
  const char *src = R"mlir(
    func.func @f(%x: tensor<?x3x224x224xf32>, %w: tensor<32x3x3x3xf32>) -> tensor<?x?x?x?xf32> {
      %y = pd.conv2d %x, %w {strides = array<i32: 2, 2>, paddings = array<i32: 1, 1>}
          : (tensor<?x3x224x224xf32>, tensor<32x3x3x3xf32>) -> tensor<?x?x?x?xf32>
      return %y : tensor<?x?x?x?xf32>
    })mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(src, &ctx);
  ASSERT_TRUE(module);
  pd::Conv2dOp conv;
  module->walk([&](pd::Conv2dOp op) { conv = op; });
  ASSERT_TRUE(conv);
  SmallVector<Type> types;
  ASSERT_TRUE(
      succeeded(cast<pd::PdShapeInference>(conv.getOperation()).inferResultTypes(types, false)));
  auto t = cast<RankedTensorType>(types.front());
  EXPECT_TRUE(ShapedType::isDynamic(t.getDimSize(0)));
  EXPECT_EQ(t.getDimSize(1), 32);
  EXPECT_EQ(t.getDimSize(2), 112);
  EXPECT_EQ(t.getDimSize(3), 112);
}

// Default-valued attributes read back Paddle's defaults when absent.
TEST_F(PdDialectTest, AttributeDefaults) {
  OpBuilder b(&ctx);
  auto loc = b.getUnknownLoc();
  auto t = RankedTensorType::get({1, 4, 8, 8}, b.getF32Type());
  auto v = RankedTensorType::get({4}, b.getF32Type());
  auto fn = func::FuncOp::create(b, loc, "f", b.getFunctionType({t, v}, {t}));
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value x = entry->getArgument(0), p = entry->getArgument(1);
  OperationState state(loc, pd::BatchNormOp::getOperationName());
  state.addOperands({x, p, p, p, p});
  state.addTypes(t);
  auto bn = cast<pd::BatchNormOp>(b.create(state));
  EXPECT_FLOAT_EQ(bn.getEpsilon().convertToFloat(), 1e-5f);
  EXPECT_FLOAT_EQ(bn.getMomentum().convertToFloat(), 0.9f);
  EXPECT_EQ(bn.getDataLayout(), "NCHW");
  EXPECT_FALSE(bn.getIsTest());
  EXPECT_TRUE(succeeded(verify(bn)));
  fn.erase();
}

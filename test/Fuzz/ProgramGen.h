//===- ProgramGen.h - fuzz bytes -> a small Paddle inference program ----===//
//
// A structured generator for the fuzz targets: the bytes choose feeds (dtype,
// rank, dims with -1), a few ops of the pd catalogue with operands drawn
// from the variables defined so far or from new parameters, attributes of
// the catalogue's kinds (sometimes of a wrong Paddle type) with edge values,
// and the fetched variables. The result is a serialized ProgramDesc and its
// combined parameter file, so mutations stay well-formed protobuf and reach
// the importer's checks, the verifiers and the compiler instead of the
// protobuf parser.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_TEST_FUZZ_PROGRAMGEN_H
#define PADDLEMLIR_TEST_FUZZ_PROGRAMGEN_H

#include "PaddleMLIR/Dialect/Pd/IR/PdOpCatalog.h"
#include "PaddleMLIR/Frontend/Paddle/PaddleFormat.h"

#include "framework.pb.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace paddle_mlir::fuzz {
namespace pdp = paddle::framework::proto;
using mlir::pd::PdAttrKind;
using mlir::pd::PdSlotArity;

/// Reads choices from the fuzz bytes (zeros once they run out), so every
/// input is some program and small mutations make small changes. (Like
/// libFuzzer's FuzzedDataProvider, which is not on the default build's
/// include path, where the regression replay compiles this.)
class FuzzInput {
public:
  FuzzInput(const uint8_t *data, size_t size) : data(data), size(size) {}
  size_t remaining_bytes() const { return size - pos; }
  uint64_t next(uint64_t range) {
    uint64_t v = 0;
    for (uint64_t r = range; r > 0 && pos < size; r >>= 8)
      v = (v << 8) | data[pos++];
    return range == 0 ? 0 : v % (range + 1);
  }
  template <typename T = int> T ConsumeIntegralInRange(T lo, T hi) {
    return static_cast<T>(static_cast<uint64_t>(lo) +
                          next(static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo)));
  }
  template <typename T> T ConsumeIntegral() {
    return ConsumeIntegralInRange<T>(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
  }
  bool ConsumeBool() { return next(1) != 0; }

private:
  const uint8_t *data;
  size_t size;
  size_t pos = 0;
};

struct GeneratedModel {
  std::string program; // serialized ProgramDesc
  std::string params;  // combined parameter file (records in name order)
};

class ProgramGenerator {
public:
  explicit ProgramGenerator(FuzzInput &in) : in(in) {}

  GeneratedModel generate() {
    block = program.add_blocks();
    block->set_idx(0);
    block->set_parent_idx(-1);
    addSpecialVar("feed", pdp::VarType::FEED_MINIBATCH);
    addSpecialVar("fetch", pdp::VarType::FETCH_LIST);
    int feeds = in.ConsumeIntegralInRange(1, 2);
    for (int i = 0; i < feeds; ++i) {
      Var v{"x" + std::to_string(i), pickDtype(), pickDims()};
      declare(v, /*persistable=*/false);
      addFeedFetch("feed", v.name, i);
      pool.push_back(v);
    }
    int ops = in.ConsumeIntegralInRange(1, 4);
    for (int i = 0; i < ops && in.remaining_bytes() > 0; ++i)
      addOp();
    // Fetch the newest variable, and sometimes an older one too.
    int fetches = 1 + (pool.size() > 1 && in.ConsumeBool());
    for (int i = 0; i < fetches; ++i) {
      const Var &v = i == 0 ? pool.back() : pick(pool);
      addFeedFetch("fetch", v.name, i);
    }
    GeneratedModel out;
    program.SerializeToString(&out.program);
    for (const auto &[name, record] : params)
      out.params += record;
    return out;
  }

private:
  struct Var {
    std::string name;
    int dtype;
    std::vector<int64_t> dims;
  };

  template <typename T> const T &pick(const std::vector<T> &v) {
    return v[in.ConsumeIntegralInRange<size_t>(0, v.size() - 1)];
  }

  int pickDtype() {
    static const std::vector<int> dtypes = {
        pdp::VarType::FP32,  pdp::VarType::FP32, pdp::VarType::FP32, pdp::VarType::INT64,
        pdp::VarType::INT32, pdp::VarType::BOOL, pdp::VarType::FP16, pdp::VarType::INT8,
        pdp::VarType::UINT8, pdp::VarType::FP64, pdp::VarType::BF16, pdp::VarType::INT16};
    return pick(dtypes);
  }

  int64_t pickDim() {
    static const std::vector<int64_t> dims = {1, 2, 3, 4, 8, -1, 1, 2, 5, 16, 0, -1};
    return pick(dims);
  }

  std::vector<int64_t> pickDims() {
    std::vector<int64_t> d(in.ConsumeIntegralInRange(0, 4));
    for (int64_t &x : d)
      x = pickDim();
    return d;
  }

  /// A shape related to an existing variable's (same, a broadcastable suffix,
  /// its last dim) or a fresh one, with dynamic dims made concrete.
  std::vector<int64_t> paramDims() {
    std::vector<int64_t> d;
    switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0:
      d = pick(pool).dims;
      break;
    case 1: {
      d = pick(pool).dims;
      size_t keep = in.ConsumeIntegralInRange<size_t>(0, d.size());
      d.erase(d.begin(), d.end() - keep);
      break;
    }
    case 2: {
      const std::vector<int64_t> &of = pick(pool).dims;
      if (!of.empty())
        d = {of.back()};
      break;
    }
    default:
      d = pickDims();
    }
    for (int64_t &x : d)
      if (x < 0)
        x = in.ConsumeIntegralInRange<int64_t>(1, 4);
    return d;
  }

  void addSpecialVar(const std::string &name, pdp::VarType::Type type) {
    auto *v = block->add_vars();
    v->set_name(name);
    v->set_persistable(true);
    v->mutable_type()->set_type(type);
  }

  void declare(const Var &v, bool persistable) {
    auto *vd = block->add_vars();
    vd->set_name(v.name);
    vd->set_persistable(persistable);
    vd->mutable_type()->set_type(pdp::VarType::LOD_TENSOR);
    auto *td = vd->mutable_type()->mutable_lod_tensor()->mutable_tensor();
    td->set_data_type(static_cast<pdp::VarType::Type>(v.dtype));
    for (int64_t d : v.dims)
      td->add_dims(d);
  }

  void addFeedFetch(const char *type, const std::string &var, int col) {
    bool feed = std::string(type) == "feed";
    auto *op = block->add_ops();
    op->set_type(type);
    auto *x = op->add_inputs();
    x->set_parameter("X");
    x->add_arguments(feed ? "feed" : var);
    auto *out = op->add_outputs();
    out->set_parameter("Out");
    out->add_arguments(feed ? var : "fetch");
    auto *a = op->add_attrs();
    a->set_name("col");
    a->set_type(pdp::INT);
    a->set_i(col);
  }

  /// A new persistable variable with fuzz-chosen edge-value contents.
  const Var &addParam(int dtype) {
    Var v{"p" + std::to_string(params.size()), dtype, paramDims()};
    size_t elem = format::elementSize(dtype);
    int64_t n = 1;
    for (int64_t d : v.dims)
      n *= d;
    std::string data(static_cast<size_t>(n) * elem, '\0');
    for (int64_t i = 0; i < n; ++i)
      fillElement(&data[i * elem], dtype);
    std::string record;
    format::appendTensorRecord(record, dtype, v.dims, data.data(), data.size());
    params[v.name] = record;
    declare(v, /*persistable=*/true);
    pool.push_back(v);
    return pool.back();
  }

  void fillElement(char *p, int dtype) {
    static const std::vector<double> floats = {0.0,
                                               1.0,
                                               -1.0,
                                               0.5,
                                               2.0,
                                               1e-7,
                                               1e30,
                                               -3.0,
                                               std::numeric_limits<double>::quiet_NaN(),
                                               std::numeric_limits<double>::infinity()};
    static const std::vector<int64_t> ints = {0, 1, -1, 2, 3, 4, -2, 127, INT32_MAX, INT64_MIN};
    switch (dtype) {
    case pdp::VarType::FP32: {
      float f = static_cast<float>(pick(floats));
      memcpy(p, &f, 4);
      return;
    }
    case pdp::VarType::FP64: {
      double d = pick(floats);
      memcpy(p, &d, 8);
      return;
    }
    case pdp::VarType::FP16:
    case pdp::VarType::BF16: {
      uint16_t h = in.ConsumeIntegral<uint16_t>();
      memcpy(p, &h, 2);
      return;
    }
    case pdp::VarType::BOOL:
      *p = in.ConsumeBool();
      return;
    default: {
      int64_t v = pick(ints);
      memcpy(p, &v, format::elementSize(dtype)); // little-endian: the low bytes
    }
    }
  }

  /// An operand for a slot: mostly an existing variable, sometimes a new
  /// parameter (of the first operand's dtype, so elementwise ops type-check).
  std::string operand(int dtypeHint) {
    if (in.ConsumeIntegralInRange(0, 3) == 0)
      return addParam(in.ConsumeIntegralInRange(0, 5) == 0 ? pickDtype() : dtypeHint).name;
    return pick(pool).name;
  }

  void addOp() {
    llvm::ArrayRef<mlir::pd::PdOpSpec> specs = mlir::pd::allPdOpSpecs();
    const mlir::pd::PdOpSpec &spec = specs[in.ConsumeIntegralInRange<size_t>(0, specs.size() - 1)];
    auto *op = block->add_ops();
    op->set_type(spec.name);
    Var first = pick(pool); // a copy: new parameters grow the pool
    Var out{"", first.dtype, first.dims};
    bool firstOperand = true;
    for (const mlir::pd::PdSlotSpec &slot : spec.inputs) {
      int n = 1;
      if (slot.arity == PdSlotArity::Optional)
        n = in.ConsumeIntegralInRange(0, 1);
      else if (slot.arity == PdSlotArity::List)
        n = in.ConsumeIntegralInRange(1, 3);
      if (n == 0 && in.ConsumeBool())
        continue; // the slot absent, not present and empty
      auto *v = op->add_inputs();
      v->set_parameter(slot.name);
      for (int i = 0; i < n; ++i) {
        v->add_arguments(firstOperand ? first.name : operand(first.dtype));
        firstOperand = false;
      }
    }
    // Outputs: new variables declared like the first operand (the importer
    // refines them by shape inference); sometimes in place, as Paddle does.
    for (const mlir::pd::PdSlotSpec &slot : spec.outputs) {
      int n = slot.arity == PdSlotArity::Required ? 1 : in.ConsumeIntegralInRange(0, 2);
      if (n == 0)
        continue;
      auto *v = op->add_outputs();
      v->set_parameter(slot.name);
      for (int i = 0; i < n; ++i) {
        if (in.ConsumeIntegralInRange(0, 15) == 0) {
          v->add_arguments(first.name);
          continue;
        }
        out.name = "t" + std::to_string(counter++);
        if (in.ConsumeIntegralInRange(0, 3) == 0)
          out.dims = pickDims();
        declare(out, /*persistable=*/false);
        v->add_arguments(out.name);
        pool.push_back(out);
      }
    }
    for (const mlir::pd::PdAttrSpec &as : spec.attrs)
      if (!as.defaultValue || in.ConsumeIntegralInRange(0, 2) != 0)
        addAttr(*op->add_attrs(), as, first);
  }

  int64_t pickInt(const Var &ref) {
    int64_t rank = static_cast<int64_t>(ref.dims.size());
    const std::vector<int64_t> ints = {0,     1,        2,         3,         -1,        -2, rank,
                                       -rank, rank - 1, INT32_MAX, INT32_MIN, INT64_MAX, 4,  8};
    return pick(ints);
  }

  double pickFloat() {
    static const std::vector<double> floats = {0.0,
                                               1.0,
                                               -1.0,
                                               0.5,
                                               1e-5,
                                               2.0,
                                               -0.0,
                                               1e38,
                                               3.0,
                                               0.9,
                                               std::numeric_limits<double>::quiet_NaN(),
                                               std::numeric_limits<double>::infinity(),
                                               -std::numeric_limits<double>::infinity()};
    return pick(floats);
  }

  std::string pickString(const char *deflt) {
    static const std::vector<std::string> strings = {
        "NCHW",    "NHWC",  "AnyLayout", "",        "SAME",  "VALID",     "EXPLICIT",
        "max",     "avg",   "relu",      "sigmoid", "tanh",  "nearest",   "bilinear",
        "float32", "int64", "identity",  "gelu",    "ii->i", "ij,jk->ik", "x"};
    if (deflt && in.ConsumeBool())
      return deflt;
    return pick(strings);
  }

  void addAttr(pdp::OpDesc::Attr &a, const mlir::pd::PdAttrSpec &as, const Var &ref) {
    a.set_name(as.name);
    // One in eight gets a Paddle type chosen at random, so kind mismatches
    // and the importer's conversions are exercised too.
    int kind = static_cast<int>(as.kind);
    if (in.ConsumeIntegralInRange(0, 7) == 0)
      kind = in.ConsumeIntegralInRange(0, 9);
    int n = in.ConsumeIntegralInRange(0, 4);
    switch (static_cast<PdAttrKind>(kind)) {
    case PdAttrKind::Int:
      a.set_type(pdp::INT);
      a.set_i(static_cast<int32_t>(pickInt(ref)));
      break;
    case PdAttrKind::Long:
      a.set_type(pdp::LONG);
      a.set_l(pickInt(ref));
      break;
    case PdAttrKind::Float:
      a.set_type(pdp::FLOAT);
      a.set_f(static_cast<float>(pickFloat()));
      break;
    case PdAttrKind::Float64:
      a.set_type(pdp::FLOAT64);
      a.set_float64(pickFloat());
      break;
    case PdAttrKind::Bool:
      a.set_type(pdp::BOOLEAN);
      a.set_b(in.ConsumeBool());
      break;
    case PdAttrKind::String:
      a.set_type(pdp::STRING);
      a.set_s(pickString(as.defaultValue));
      break;
    case PdAttrKind::Ints:
      a.set_type(pdp::INTS);
      for (int i = 0; i < n; ++i)
        a.add_ints(static_cast<int32_t>(pickInt(ref)));
      break;
    case PdAttrKind::Longs:
      a.set_type(pdp::LONGS);
      for (int i = 0; i < n; ++i)
        a.add_longs(pickInt(ref));
      break;
    case PdAttrKind::Floats:
      a.set_type(pdp::FLOATS);
      for (int i = 0; i < n; ++i)
        a.add_floats(static_cast<float>(pickFloat()));
      break;
    case PdAttrKind::Strings:
      a.set_type(pdp::STRINGS);
      for (int i = 0; i < n; ++i)
        a.add_strings(pickString(nullptr));
      break;
    }
  }

  FuzzInput &in;
  pdp::ProgramDesc program;
  pdp::BlockDesc *block = nullptr;
  std::vector<Var> pool;                     // variables an operand may name
  std::map<std::string, std::string> params; // name -> record, in name order
  int counter = 0;
};

/// Writes `data` to `path`.
inline void writeBytes(const std::string &path, const std::string &data) {
  std::ofstream(path, std::ios::binary)
      .write(data.data(), static_cast<std::streamsize>(data.size()));
}

} // namespace paddle_mlir::fuzz

#endif // PADDLEMLIR_TEST_FUZZ_PROGRAMGEN_H

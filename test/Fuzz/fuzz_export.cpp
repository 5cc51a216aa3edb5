//===- fuzz_export.cpp - libFuzzer target: import -> export -> import ----===//
//
// The first byte picks the mode. Odd: the rest is a program for the
// structured generator (ProgramGen.h). Even: the rest is a serialized
// ProgramDesc (seeds: the real programs of ../shared/corpus), and the
// harness writes a parameter file that fits its persistable variables, so
// mutated real programs get past the parameter checks. Whatever imports is
// exported with PaddleExport and the exported files are imported again;
// the exporter must never write a program its own importer refuses to
// parse. Any crash or sanitizer report is a bug; rejected inputs are fine.

#include "ProgramGen.h"

#include "PaddleMLIR/Frontend/Paddle/PaddleExport.h"
#include "PaddleMLIR/Frontend/Paddle/PaddleImport.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace pdp = paddle::framework::proto;
namespace fz = paddle_mlir::fuzz;

namespace {
/// Zero-filled records for the variables the importer reads as parameters
/// (persistable tensors that no feed writes, in name order); empty when
/// they would take more than 8 MiB.
std::string paramsFor(const pdp::ProgramDesc &program) {
  const pdp::BlockDesc &block = program.blocks(0);
  std::map<std::string, const pdp::VarDesc *> vars;
  for (const auto &v : block.vars())
    vars[v.name()] = &v;
  for (const auto &op : block.ops())
    if (op.type() == "feed")
      for (const auto &slot : op.outputs())
        for (const auto &name : slot.arguments())
          vars.erase(name);
  std::string out;
  for (const auto &[name, var] : vars) {
    if (!var->persistable() || var->type().type() != pdp::VarType::LOD_TENSOR)
      continue;
    const auto &desc = var->type().lod_tensor().tensor();
    size_t elem = paddle_mlir::format::elementSize(desc.data_type());
    std::vector<int64_t> dims;
    uint64_t n = 1;
    for (int64_t d : desc.dims()) {
      dims.push_back(d < 0 ? 1 : d);
      n = dims.back() == 0 ? 0 : n * static_cast<uint64_t>(dims.back());
      if (n > (8u << 20))
        return {};
    }
    if (elem == 0 || n * elem + out.size() > (8u << 20))
      return {};
    std::string zeros(n * elem, '\0');
    paddle_mlir::format::appendTensorRecord(out, desc.data_type(), dims, zeros.data(),
                                            zeros.size());
  }
  return out;
}

const std::string &scratchDir() {
  static const std::string dir = [] {
    std::string d = "/tmp/paddle-mlir-fuzz-export-" + std::to_string(getpid());
    mkdir(d.c_str(), 0700);
    return d;
  }();
  return dir;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  fz::GeneratedModel model;
  if (data[0] & 1) {
    fz::FuzzInput in(data + 1, size - 1);
    model = fz::ProgramGenerator(in).generate();
  } else {
    pdp::ProgramDesc program;
    std::string error;
    if (!paddle_mlir::format::parseProgram(data + 1, size - 1, program, error))
      return 0;
    model.program.assign(reinterpret_cast<const char *>(data + 1), size - 1);
    model.params = paramsFor(program);
  }
  const std::string &dir = scratchDir();
  fz::writeBytes(dir + "/m.pdmodel", model.program);
  fz::writeBytes(dir + "/m.pdiparams", model.params);

  mlir::MLIRContext ctx;
  ctx.disableMultithreading();
  ctx.getDiagEngine().registerHandler([](mlir::Diagnostic &) {});
  auto module = mlir::pd::importPaddleModel(&ctx, dir + "/m.pdmodel");
  if (!module)
    return 0;
  if (mlir::failed(mlir::pd::exportPaddleModel(*module, dir + "/out")))
    return 0;
  mlir::MLIRContext again;
  again.disableMultithreading();
  again.getDiagEngine().registerHandler([](mlir::Diagnostic &) {});
  auto reimported = mlir::pd::importPaddleModel(&again, dir + "/out/model.pdmodel");
  // What the exporter writes must at least parse as a program.
  std::string bytes, error;
  pdp::ProgramDesc exported;
  if (!paddle_mlir::format::readFile(dir + "/out/model.pdmodel", bytes, error) ||
      !paddle_mlir::format::parseProgram(bytes.data(), bytes.size(), exported, error)) {
    fprintf(stderr, "fuzz_export: the exported program does not parse: %s\n", error.c_str());
    abort();
  }
  return 0;
}

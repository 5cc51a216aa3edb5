//===- fuzz_program.cpp - libFuzzer target: ProgramDesc parsing ----------===//
//
// Feeds arbitrary bytes to the program parser and, when they parse, walks
// what the importer walks (vars, ops, attributes, sub-block references).

#include "PaddleMLIR/Frontend/Paddle/PaddleFormat.h"

#include "framework.pb.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  paddle::framework::proto::ProgramDesc program;
  std::string error;
  if (!paddle_mlir::format::parseProgram(data, size, program, error))
    return 0;
  size_t touched = 0;
  for (const auto &block : program.blocks())
    for (const auto &op : block.ops())
      for (const auto &attr : op.attrs())
        touched += attr.name().size() + paddle_mlir::format::typeName(attr.type()).size();
  return touched == SIZE_MAX;
}

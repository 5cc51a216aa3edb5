//===- fuzz_import.cpp - libFuzzer target: the whole Paddle importer -----===//
//
// Splits the input into a program and a params file (first byte chooses the
// split point), writes both beside each other and imports them, so every
// check of the importer and the verifier runs on mutated models. Any crash,
// hang or sanitizer report is a bug; rejected inputs are fine.

#include "PaddleMLIR/Frontend/Paddle/PaddleImport.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <cstdio>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2)
    return 0;
  size_t split = 1 + (size - 1) * data[0] / 256;
  static const std::string dir = [] {
    std::string d = "/tmp/paddle-mlir-fuzz-" + std::to_string(getpid());
    mkdir(d.c_str(), 0700);
    return d;
  }();
  {
    std::ofstream(dir + "/m.pdmodel", std::ios::binary)
        .write(reinterpret_cast<const char *>(data + 1), split - 1);
    std::ofstream(dir + "/m.pdiparams", std::ios::binary)
        .write(reinterpret_cast<const char *>(data + split), size - split);
  }
  mlir::MLIRContext ctx;
  ctx.getDiagEngine().registerHandler([](mlir::Diagnostic &) {});
  auto module = mlir::pd::importPaddleModel(&ctx, dir + "/m.pdmodel");
  return 0;
}

//===- FuzzRegressionTest.cpp - replays inputs the fuzzers found ---------===//
//
// Every file under test/Fuzz/regressions/<target>/ is an input that once
// crashed <target>; it is fed to the same entry point (compiled into this
// binary under another name) and must now be handled without a crash.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int fuzzProgramOne(const uint8_t *data, size_t size);
extern "C" int fuzzParamsOne(const uint8_t *data, size_t size);
extern "C" int fuzzImportOne(const uint8_t *data, size_t size);
extern "C" int fuzzExportOne(const uint8_t *data, size_t size);
extern "C" int fuzzCompileOne(const uint8_t *data, size_t size);

namespace {
size_t replay(const std::string &target, int (*entry)(const uint8_t *, size_t)) {
  const char *root = std::getenv("PADDLE_MLIR_SRC_ROOT");
  std::filesystem::path dir =
      std::filesystem::path(root ? root : ".") / "test" / "Fuzz" / "regressions" / target;
  size_t n = 0;
  if (!std::filesystem::is_directory(dir))
    return 0;
  for (const auto &entryFile : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entryFile.path(), std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
    entry(bytes.data(), bytes.size());
    ++n;
  }
  return n;
}
} // namespace

TEST(FuzzRegressions, Program) {
  std::vector<uint8_t> empty;
  fuzzProgramOne(empty.data(), 0);
  RecordProperty("inputs", std::to_string(replay("fuzz_program", fuzzProgramOne)));
}

TEST(FuzzRegressions, Params) {
  // A record that claims more data than it has must be rejected, not read.
  std::vector<uint8_t> lying(4 + 8 + 4 + 4, 0);
  lying[16] = 2;                           // TensorDesc of 2 bytes...
  lying.insert(lying.end(), {0x08, 0x05}); // ...data_type = FP32, no dims -> 1 element
  fuzzParamsOne(lying.data(), lying.size());
  RecordProperty("inputs", std::to_string(replay("fuzz_params", fuzzParamsOne)));
}

TEST(FuzzRegressions, Import) {
  RecordProperty("inputs", std::to_string(replay("fuzz_import", fuzzImportOne)));
}

TEST(FuzzRegressions, Export) {
  // The smallest structured input: one feed, one op, its fetch.
  std::vector<uint8_t> one = {1};
  fuzzExportOne(one.data(), one.size());
  RecordProperty("inputs", std::to_string(replay("fuzz_export", fuzzExportOne)));
}

TEST(FuzzRegressions, Compile) {
  std::vector<uint8_t> zeros(8, 0);
  fuzzCompileOne(zeros.data(), zeros.size());
  RecordProperty("inputs", std::to_string(replay("fuzz_compile", fuzzCompileOne)));
}

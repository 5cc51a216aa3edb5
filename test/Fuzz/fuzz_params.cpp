//===- fuzz_params.cpp - libFuzzer target: parameter record parsing ------===//
//
// Parses records back to back until the input is consumed or rejected, and
// reads every byte a record claims, so out-of-bounds claims are caught by
// AddressSanitizer.

#include "PaddleMLIR/Frontend/Paddle/PaddleFormat.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t offset = 0;
  std::string error;
  unsigned sum = 0;
  while (offset < size) {
    paddle_mlir::format::TensorRecord record;
    if (!paddle_mlir::format::parseTensorRecord(data, size, offset, record, error))
      break;
    for (size_t i = 0; i < record.nbytes; ++i)
      sum += record.data[i];
  }
  return sum == 0xFFFFFFFFu;
}

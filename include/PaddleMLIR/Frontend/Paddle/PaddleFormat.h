//===- PaddleFormat.h - Paddle program and parameter file parsing -*- C++ -*-===//
//
// The byte-level layer of the Paddle frontend: ProgramDesc parsing with
// structural checks, and the tensor record format of parameter files. Plain
// C++ and protobuf only (no MLIR), so the fuzz targets link it alone.
//
//===----------------------------------------------------------------------===//
#ifndef PADDLEMLIR_FRONTEND_PADDLE_PADDLEFORMAT_H
#define PADDLEMLIR_FRONTEND_PADDLE_PADDLEFORMAT_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace paddle::framework::proto {
class ProgramDesc;
} // namespace paddle::framework::proto

namespace paddle_mlir::format {

/// Parses a serialized ProgramDesc and checks what the importer relies on:
/// at least one block, block 0 with idx 0 and parent -1 (or absent), every
/// op with a type, every variable with a name and a type, and sub-block
/// references that exist. On failure returns false and sets `error`.
bool parseProgram(const void *data, size_t size, paddle::framework::proto::ProgramDesc &program,
                  std::string &error);

/// Bytes per element of a Paddle VarType code; 0 when it is not a tensor dtype.
size_t elementSize(int dtype);
/// Paddle's name of a VarType code ("FP32", "LOD_TENSOR", ...).
std::string typeName(int type);

/// One tensor record of a parameter file (DESIGN.md section 5).
struct TensorRecord {
  int dtype = 0;
  std::vector<int64_t> dims;
  const uint8_t *data = nullptr; // points into the parsed buffer
  size_t nbytes = 0;
};

/// Parses the record starting at `offset` of [data, data + size) and advances
/// `offset` past it. Rejects unknown versions, truncated data, negative dims
/// and non-tensor dtypes with a message naming the byte offset.
bool parseTensorRecord(const uint8_t *data, size_t size, size_t &offset, TensorRecord &record,
                       std::string &error);

/// Appends one record (version 0, no LoD) holding `nbytes` of row-major data.
void appendTensorRecord(std::string &out, int dtype, const std::vector<int64_t> &dims,
                        const void *data, size_t nbytes);

/// Reads a whole file; false with `error` set when it cannot be read.
bool readFile(const std::string &path, std::string &contents, std::string &error);

} // namespace paddle_mlir::format

#endif // PADDLEMLIR_FRONTEND_PADDLE_PADDLEFORMAT_H

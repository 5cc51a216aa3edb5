//===- PaddleFormat.cpp - Paddle program and parameter file parsing ------===//

#include "PaddleMLIR/Frontend/Paddle/PaddleFormat.h"

#include "framework.pb.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace pdp = paddle::framework::proto;

namespace paddle_mlir::format {

namespace {
bool fail(std::string &error, const std::string &msg) {
  error = msg;
  return false;
}

template <typename T> bool readPod(const uint8_t *data, size_t size, size_t &off, T &v) {
  if (size - off < sizeof(T) || off > size)
    return false;
  std::memcpy(&v, data + off, sizeof(T));
  off += sizeof(T);
  return true;
}
} // namespace

bool parseProgram(const void *data, size_t size, pdp::ProgramDesc &program, std::string &error) {
  if (size > static_cast<size_t>(INT32_MAX))
    return fail(error, "program is larger than 2 GiB");
  if (!program.ParseFromArray(data, static_cast<int>(size)))
    return fail(error, "not a Paddle ProgramDesc (protobuf parse failed; truncated or corrupted?)");
  if (program.blocks_size() == 0)
    return fail(error, "program has no blocks");
  for (int b = 0; b < program.blocks_size(); ++b) {
    const pdp::BlockDesc &block = program.blocks(b);
    if (block.idx() != b)
      return fail(error, "block #" + std::to_string(b) + " has idx " + std::to_string(block.idx()));
    if (b > 0 && (block.parent_idx() < 0 || block.parent_idx() >= program.blocks_size()))
      return fail(error, "block #" + std::to_string(b) + " has an invalid parent_idx " +
                             std::to_string(block.parent_idx()));
    for (int v = 0; v < block.vars_size(); ++v) {
      const pdp::VarDesc &var = block.vars(v);
      if (!var.has_name() || var.name().empty())
        return fail(error, "variable #" + std::to_string(v) + " of block " + std::to_string(b) +
                               " has no name");
      if (!var.has_type() || !var.type().has_type())
        return fail(error, "variable '" + var.name() + "' has no type");
    }
    for (int o = 0; o < block.ops_size(); ++o) {
      const pdp::OpDesc &op = block.ops(o);
      if (!op.has_type() || op.type().empty())
        return fail(error,
                    "op #" + std::to_string(o) + " of block " + std::to_string(b) + " has no type");
      for (const pdp::OpDesc::Attr &attr : op.attrs()) {
        if (!attr.has_name() || !attr.has_type())
          return fail(error, "op #" + std::to_string(o) + " ('" + op.type() +
                                 "') has an attribute without name or type");
        if (attr.type() == pdp::BLOCK &&
            (attr.block_idx() < 0 || attr.block_idx() >= program.blocks_size()))
          return fail(error, "op #" + std::to_string(o) + " ('" + op.type() +
                                 "') refers to missing block " + std::to_string(attr.block_idx()));
      }
    }
  }
  return true;
}

size_t elementSize(int dtype) {
  switch (dtype) {
  case pdp::VarType::BOOL:
  case pdp::VarType::UINT8:
  case pdp::VarType::INT8:
    return 1;
  case pdp::VarType::INT16:
  case pdp::VarType::FP16:
  case pdp::VarType::BF16:
    return 2;
  case pdp::VarType::INT32:
  case pdp::VarType::FP32:
    return 4;
  case pdp::VarType::INT64:
  case pdp::VarType::FP64:
    return 8;
  default:
    return 0;
  }
}

std::string typeName(int type) {
  if (pdp::VarType::Type_IsValid(type))
    return pdp::VarType::Type_Name(static_cast<pdp::VarType::Type>(type));
  return "type code " + std::to_string(type);
}

bool parseTensorRecord(const uint8_t *data, size_t size, size_t &offset, TensorRecord &record,
                       std::string &error) {
  const size_t start = offset;
  auto at = [&](const std::string &what) {
    return fail(error, what + " (record at byte " + std::to_string(start) + ")");
  };
  size_t off = offset;
  uint32_t version = 0;
  if (!readPod(data, size, off, version))
    return at("truncated tensor record: missing version");
  if (version != 0)
    return at("unsupported tensor record version " + std::to_string(version));
  uint64_t lodLevel = 0;
  if (!readPod(data, size, off, lodLevel))
    return at("truncated tensor record: missing LoD level");
  if (lodLevel > 16)
    return at("implausible LoD level " + std::to_string(lodLevel));
  for (uint64_t l = 0; l < lodLevel; ++l) {
    uint64_t nbytes = 0;
    if (!readPod(data, size, off, nbytes) || nbytes > size - off)
      return at("truncated tensor record: LoD level " + std::to_string(l));
    off += nbytes;
  }
  uint32_t tensorVersion = 0;
  if (!readPod(data, size, off, tensorVersion))
    return at("truncated tensor record: missing tensor version");
  if (tensorVersion != 0)
    return at("unsupported tensor version " + std::to_string(tensorVersion));
  int32_t descSize = 0;
  if (!readPod(data, size, off, descSize))
    return at("truncated tensor record: missing TensorDesc size");
  if (descSize < 0 || static_cast<size_t>(descSize) > size - off)
    return at("truncated tensor record: TensorDesc of " + std::to_string(descSize) + " bytes");
  pdp::VarType::TensorDesc desc;
  if (!desc.ParseFromArray(data + off, descSize))
    return at("corrupted TensorDesc");
  off += descSize;
  size_t elem = elementSize(desc.data_type());
  if (elem == 0)
    return at("tensor dtype " + typeName(desc.data_type()) + " is not supported");
  uint64_t numel = 1;
  record.dims.clear();
  for (int64_t d : desc.dims()) {
    if (d < 0)
      return at("negative dim " + std::to_string(d));
    if (d != 0 && numel > (UINT64_MAX / 16) / static_cast<uint64_t>(d))
      return at("tensor too large");
    numel *= static_cast<uint64_t>(d);
    record.dims.push_back(d);
  }
  uint64_t nbytes = numel * elem;
  if (nbytes > size - off)
    return at("truncated tensor data: needs " + std::to_string(nbytes) + " bytes, " +
              std::to_string(size - off) + " left");
  record.dtype = desc.data_type();
  record.data = data + off;
  record.nbytes = nbytes;
  offset = off + nbytes;
  return true;
}

void appendTensorRecord(std::string &out, int dtype, const std::vector<int64_t> &dims,
                        const void *data, size_t nbytes) {
  auto put = [&](const auto &v) { out.append(reinterpret_cast<const char *>(&v), sizeof(v)); };
  put(uint32_t(0)); // version
  put(uint64_t(0)); // LoD level
  put(uint32_t(0)); // tensor version
  pdp::VarType::TensorDesc desc;
  desc.set_data_type(static_cast<pdp::VarType::Type>(dtype));
  for (int64_t d : dims)
    desc.add_dims(d);
  std::string bytes = desc.SerializeAsString();
  put(int32_t(bytes.size()));
  out += bytes;
  out.append(static_cast<const char *>(data), nbytes);
}

bool readFile(const std::string &path, std::string &contents, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return fail(error, "cannot open '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad())
    return fail(error, "cannot read '" + path + "'");
  contents = ss.str();
  return true;
}

} // namespace paddle_mlir::format

//===- Npy.cpp - reading and writing NumPy .npy and .npz files -----------===//

#include "PaddleMLIR/Support/Npy.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace npy {
namespace {
struct Descr {
  const char *descr;
  pdrt_dtype dtype;
};
const Descr kDescrs[] = {{"<f4", PDRT_FLOAT32},
                         {"<f8", PDRT_FLOAT64},
                         {"<f2", PDRT_FLOAT16},
                         {"|i1", PDRT_INT8},
                         {"|u1", PDRT_UINT8},
                         {"<i2", PDRT_INT16},
                         {"<i4", PDRT_INT32},
                         {"<i8", PDRT_INT64},
                         {"|b1", PDRT_BOOL},
                         {"<u4", PDRT_UINT32},
                         {"<u8", PDRT_UINT64},
                         // uint16 writes as <u2; a <u2 file reads as bfloat16
                         // (below), and paddle-run retypes it for a uint16
                         // input.
                         {"<u2", PDRT_UINT16},
                         // NumPy has no bfloat16: its bit patterns travel as uint16.
                         {"<u2", PDRT_BFLOAT16}};

std::string field(const std::string &header, const std::string &key) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos)
    return "";
  size_t colon = header.find(':', k);
  if (colon == std::string::npos)
    return "";
  size_t start = header.find_first_not_of(' ', colon + 1);
  if (start == std::string::npos)
    return "";
  if (header[start] == '(') {
    size_t end = header.find(')', start);
    return end == std::string::npos ? "" : header.substr(start, end - start + 1);
  }
  size_t end = header.find_first_of(",}", start);
  return header.substr(start, end == std::string::npos ? std::string::npos : end - start);
}
} // namespace

namespace {
bool parse(const std::vector<char> &bytes, const std::string &what, Array &out,
           std::string &error) {
  auto bad = [&](const std::string &why) {
    error = what + " is not a valid .npy file: " + why;
    return false;
  };
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0)
    return bad("missing the \\x93NUMPY magic");
  int major = static_cast<unsigned char>(bytes[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return bad("truncated header");
    uint32_t len;
    std::memcpy(&len, &bytes[8], 4);
    headerLen = len;
    headerStart = 12;
  } else {
    return bad("unsupported format version " + std::to_string(major));
  }
  if (headerStart + headerLen > bytes.size())
    return bad("truncated header");
  std::string header(bytes.begin() + headerStart, bytes.begin() + headerStart + headerLen);
  std::string descr = field(header, "descr"), fortran = field(header, "fortran_order"),
              shape = field(header, "shape");
  if (descr.size() < 5 || shape.empty())
    return bad("header lacks descr or shape");
  descr = descr.substr(1, descr.size() - 2);
  if (descr == "=f4" || descr == "<f4")
    descr = "<f4";
  out.dtype = PDRT_DTYPE_INVALID;
  for (const Descr &d : kDescrs)
    if (descr == d.descr ||
        (descr.size() == 3 && descr[0] == '<' && std::string("|") + descr.substr(1) == d.descr))
      out.dtype = d.dtype;
  if (out.dtype == PDRT_DTYPE_INVALID)
    return bad("unsupported dtype '" + descr + "'");
  if (fortran.find("True") != std::string::npos)
    return bad("Fortran-order arrays are not supported");
  out.shape.clear();
  std::string dims = shape.substr(1, shape.size() - 2);
  size_t pos = 0;
  while (pos < dims.size()) {
    size_t comma = dims.find(',', pos);
    std::string tok =
        dims.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    size_t a = tok.find_first_not_of(' '), b = tok.find_last_not_of(' ');
    if (a != std::string::npos) {
      tok = tok.substr(a, b - a + 1);
      char *end = nullptr;
      long long v = std::strtoll(tok.c_str(), &end, 10);
      if (*end != '\0' || v < 0)
        return bad("bad shape '" + shape + "'");
      out.shape.push_back(v);
    }
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  size_t numel = 1;
  for (int64_t d : out.shape)
    numel *= static_cast<size_t>(d);
  size_t need = numel * pdrt_dtype_size(out.dtype), have = bytes.size() - headerStart - headerLen;
  if (have < need)
    return bad("truncated data (" + std::to_string(have) + " of " + std::to_string(need) +
               " bytes)");
  out.data.assign(bytes.begin() + headerStart + headerLen,
                  bytes.begin() + headerStart + headerLen + need);
  return true;
}

uint32_t le32(const char *p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
uint16_t le16(const char *p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}
uint64_t le64(const char *p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

bool slurp(const std::string &path, std::vector<char> &bytes, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return false;
  }
  bytes.assign(std::istreambuf_iterator<char>(in), {});
  return true;
}
} // namespace

bool read(const std::string &path, Array &out, std::string &error) {
  std::vector<char> bytes;
  return slurp(path, bytes, error) && parse(bytes, "'" + path + "'", out, error);
}

// An .npz is a zip archive of .npy members. np.savez stores them
// uncompressed; the central directory (found through the end record, with
// the zip64 records numpy writes for large members) gives each member's name
// and where its data starts.
bool readNpz(const std::string &path, std::vector<std::pair<std::string, Array>> &out,
             std::string &error) {
  std::vector<char> bytes;
  if (!slurp(path, bytes, error))
    return false;
  auto bad = [&](const std::string &why) {
    error = "'" + path + "' is not a valid .npz file: " + why;
    return false;
  };
  const size_t n = bytes.size();
  const char *b = bytes.data();
  // The end of central directory record: 22 bytes plus a comment of at most 64 KiB.
  size_t eocd = std::string::npos;
  for (size_t i = n >= 22 ? n - 22 : 0; n >= 22; --i) {
    if (le32(b + i) == 0x06054b50) {
      eocd = i;
      break;
    }
    if (i == 0 || n - i > 22 + 65535)
      break;
  }
  if (eocd == std::string::npos)
    return bad("no zip end record");
  uint64_t entries = le16(b + eocd + 10), dirOffset = le32(b + eocd + 16);
  if ((entries == 0xFFFF || dirOffset == 0xFFFFFFFF) && eocd >= 20 &&
      le32(b + eocd - 20) == 0x07064b50) {
    uint64_t z64 = le64(b + eocd - 20 + 8);
    if (z64 + 56 > n || le32(b + z64) != 0x06064b50)
      return bad("bad zip64 end record");
    entries = le64(b + z64 + 32);
    dirOffset = le64(b + z64 + 48);
  }
  out.clear();
  size_t at = dirOffset;
  for (uint64_t e = 0; e < entries; ++e) {
    if (at + 46 > n || le32(b + at) != 0x02014b50)
      return bad("truncated central directory");
    uint16_t method = le16(b + at + 10), nameLen = le16(b + at + 28), extraLen = le16(b + at + 30),
             commentLen = le16(b + at + 32);
    uint64_t csize = le32(b + at + 20), usize = le32(b + at + 24), local = le32(b + at + 42);
    if (at + 46 + nameLen + extraLen > n)
      return bad("truncated central directory");
    std::string name(b + at + 46, nameLen);
    // The zip64 extra field holds, in order, the fields saturated above.
    for (size_t x = at + 46 + nameLen; x + 4 <= at + 46 + nameLen + extraLen;) {
      uint16_t id = le16(b + x), len = le16(b + x + 2);
      if (id == 0x0001) {
        size_t f = x + 4, end = x + 4 + len;
        auto take = [&](uint64_t &v) {
          if (v == 0xFFFFFFFF && f + 8 <= end && f + 8 <= n) {
            v = le64(b + f);
            f += 8;
          }
        };
        take(usize);
        take(csize);
        take(local);
      }
      x += 4 + len;
    }
    at += 46 + nameLen + extraLen + commentLen;
    if (method != 0)
      return bad("member '" + name +
                 "' is compressed (np.savez_compressed); write the samples with np.savez");
    if (local + 30 > n || le32(b + local) != 0x04034b50)
      return bad("bad local header of member '" + name + "'");
    size_t data = local + 30 + le16(b + local + 26) + le16(b + local + 28);
    if (data + csize > n || csize != usize)
      return bad("truncated member '" + name + "'");
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".npy") == 0)
      name.resize(name.size() - 4);
    Array a;
    std::vector<char> member(b + data, b + data + csize);
    if (!parse(member, "member '" + name + "' of '" + path + "'", a, error))
      return false;
    out.emplace_back(std::move(name), std::move(a));
  }
  return true;
}

bool write(const std::string &path, pdrt_dtype dtype, const int64_t *shape, int64_t rank,
           const void *data, std::string &error) {
  const char *descr = nullptr;
  for (const Descr &d : kDescrs)
    if (d.dtype == dtype)
      descr = d.descr;
  if (!descr) {
    error = std::string("cannot write dtype ") + pdrt_dtype_name(dtype) + " as .npy";
    return false;
  }
  std::string dims;
  size_t numel = 1;
  for (int64_t i = 0; i < rank; ++i) {
    dims += std::to_string(shape[i]) + (rank == 1 ? "," : (i + 1 < rank ? ", " : ""));
    numel *= static_cast<size_t>(shape[i]);
  }
  std::string header =
      std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  while ((10 + header.size() + 1) % 64 != 0)
    header += ' ';
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  out.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = static_cast<uint16_t>(header.size());
  out.write(reinterpret_cast<const char *>(&len), 2);
  out << header;
  out.write(static_cast<const char *>(data),
            static_cast<std::streamsize>(numel * pdrt_dtype_size(dtype)));
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}
} // namespace npy

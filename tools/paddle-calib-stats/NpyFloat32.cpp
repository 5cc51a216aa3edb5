//===- NpyFloat32.cpp - a minimal reader of float32 .npy files ------------===//
//
// The format (numpy.lib.format): "\x93NUMPY", major and minor version bytes,
// the header length (2 bytes little-endian in 1.0, 4 in 2.0), then a Python
// dict literal such as {'descr': '<f4', 'fortran_order': False,
// 'shape': (3, 4), } padded with spaces and ended by '\n', then the data.
//
//===----------------------------------------------------------------------===//

#include "NpyFloat32.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

namespace {
/// The text after "'key':" up to the next ',' or '}' at the same level (a
/// tuple is taken whole); std::nullopt when the key is absent.
std::optional<std::string> field(const std::string &header, const std::string &key) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos)
    return std::nullopt;
  size_t colon = header.find(':', k + key.size() + 2);
  if (colon == std::string::npos)
    return std::nullopt;
  size_t start = header.find_first_not_of(' ', colon + 1);
  if (start == std::string::npos)
    return std::nullopt;
  size_t end =
      header[start] == '(' ? header.find(')', start) + 1 : header.find_first_of(",}", start);
  if (end == std::string::npos || end == 0)
    return std::nullopt;
  std::string value = header.substr(start, end - start);
  while (!value.empty() && value.back() == ' ')
    value.pop_back();
  return value;
}
} // namespace

std::optional<std::string> npyf32::read(const std::string &path, std::vector<float> &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return path + ": cannot open: " + std::strerror(errno);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  auto bad = [&](const std::string &why) { return path + ": not a float32 .npy file: " + why; };
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0)
    return bad("missing the \\x93NUMPY magic");
  int major = static_cast<unsigned char>(bytes[6]);
  uint64_t headerLen, headerStart;
  if (major == 1) {
    headerLen = static_cast<unsigned char>(bytes[8]) |
                (static_cast<uint64_t>(static_cast<unsigned char>(bytes[9])) << 8);
    headerStart = 10;
  } else if (major == 2) {
    if (bytes.size() < 12)
      return bad("truncated header");
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
    headerStart = 12;
  } else {
    return bad("format version " + std::to_string(major) + ".x (only 1.0 and 2.0 are read)");
  }
  if (headerStart + headerLen > bytes.size())
    return bad("truncated header");
  std::string header(bytes.data() + headerStart, headerLen);

  std::optional<std::string> descr = field(header, "descr");
  if (!descr)
    return bad("no 'descr' in the header");
  if (*descr != "'<f4'")
    return bad("dtype " + *descr + " (only little-endian float32, '<f4', is read)");
  std::optional<std::string> fortran = field(header, "fortran_order");
  if (!fortran || (*fortran != "False" && *fortran != "True"))
    return bad("no 'fortran_order' in the header");
  if (*fortran == "True")
    return bad("Fortran order (only C order is read)");
  std::optional<std::string> shape = field(header, "shape");
  if (!shape || shape->front() != '(' || shape->back() != ')')
    return bad("no 'shape' tuple in the header");

  uint64_t elements = 1;
  std::string dims = shape->substr(1, shape->size() - 2);
  size_t pos = 0;
  while (pos < dims.size()) {
    size_t comma = dims.find(',', pos);
    std::string dim =
        dims.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    pos = comma == std::string::npos ? dims.size() : comma + 1;
    size_t first = dim.find_first_not_of(' ');
    if (first == std::string::npos)
      continue; // The empty item after a trailing comma, as in "(5,)".
    dim = dim.substr(first, dim.find_last_not_of(' ') - first + 1);
    uint64_t d = 0;
    for (char c : dim) {
      if (c < '0' || c > '9' || d > (std::numeric_limits<uint64_t>::max() - 9) / 10)
        return bad("bad dimension '" + dim + "' in the shape");
      d = d * 10 + static_cast<uint64_t>(c - '0');
    }
    if (d != 0 && elements > std::numeric_limits<uint64_t>::max() / 4 / d)
      return bad("shape too large");
    elements *= d;
  }

  uint64_t dataStart = headerStart + headerLen;
  uint64_t have = bytes.size() - dataStart;
  if (have != elements * 4)
    return bad("shape " + *shape + " needs " + std::to_string(elements * 4) +
               " bytes of data, the file has " + std::to_string(have));
  out.resize(elements);
  // A little-endian host is assumed, as in the rest of the project.
  if (elements)
    std::memcpy(out.data(), bytes.data() + dataStart, elements * 4);
  return std::nullopt;
}

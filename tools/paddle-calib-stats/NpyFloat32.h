//===- NpyFloat32.h - a minimal reader of float32 .npy files -*- C++ -*-===//
#ifndef PADDLE_CALIB_STATS_NPYFLOAT32_H
#define PADDLE_CALIB_STATS_NPYFLOAT32_H

#include <optional>
#include <string>
#include <vector>

namespace npyf32 {
/// Reads a .npy file holding little-endian float32 in C order (format
/// version 1.0 or 2.0, any shape) into `out`, flattened. Anything else (no
/// magic, another dtype, Fortran order, a truncated or oversized body) is a
/// one-line error naming the file.
std::optional<std::string> read(const std::string &path, std::vector<float> &out);
} // namespace npyf32

#endif // PADDLE_CALIB_STATS_NPYFLOAT32_H

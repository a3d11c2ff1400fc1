// Random 16-bit matrices for the tests of the kernels that read 16-bit weights
// (test_linear_half.cpp, test_token_table.cpp): values drawn as bit patterns,
// their reference value computed from the format's definition (ldexp in
// double), not by the code under test; and the float32 error measure.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "float32.h"
#include "ops/gemm.h"

namespace attention::testing {

// The format's definition, in double (normal numbers only are drawn below).
inline double halfValue(std::uint16_t h, HalfFormat format) {
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (format == HalfFormat::kBF16) {
    return sign * std::ldexp(128 + (h & 0x7f), ((h >> 7) & 0xff) - 134);
  }
  return sign * std::ldexp(1024 + (h & 0x3ff), ((h >> 10) & 0x1f) - 25);
}

// A (rows x cols) 16-bit matrix of random normal numbers with magnitudes in
// [2^-6, 2^2), as stored, and its values in double.
struct HalfMatrix {
  std::vector<std::uint16_t> bits;
  Matrix d;
};

inline HalfMatrix randomHalves(Eigen::Index rows, Eigen::Index cols, HalfFormat format,
                               std::mt19937_64& rng) {
  std::uniform_int_distribution<int> sign(0, 1), exponent(-6, 1), fraction(0, 1023);
  HalfMatrix m{std::vector<std::uint16_t>(static_cast<std::size_t>(rows * cols)),
               Matrix(rows, cols)};
  for (std::size_t i = 0; i < m.bits.size(); ++i) {
    const int e = exponent(rng), f = fraction(rng);
    const std::uint16_t s = static_cast<std::uint16_t>(sign(rng) << 15);
    m.bits[i] = format == HalfFormat::kBF16
                    ? static_cast<std::uint16_t>(s | ((e + 127) << 7) | (f & 0x7f))
                    : static_cast<std::uint16_t>(s | ((e + 15) << 10) | f);
    m.d.data()[i] = halfValue(m.bits[i], format);
  }
  return m;
}

// Largest |got - want| / (gammaOf(k + 1) scale), entry by entry (1 is the bound).
inline double worstError(const Matrix32& got, const Matrix& want, const Matrix& scale,
                         Eigen::Index k) {
  const double bound = float32::gammaOf(static_cast<double>(k) + 1);
  double worst = 0;
  for (Eigen::Index i = 0; i < want.size(); ++i) {
    const double err = std::abs(double{got.data()[i]} - want.data()[i]);
    if (err > 0) worst = std::max(worst, err / (bound * scale.data()[i]));
  }
  return worst;
}

inline const char* nameOf(HalfFormat format) {
  return format == HalfFormat::kBF16 ? "BF16" : "F16";
}

}  // namespace attention::testing

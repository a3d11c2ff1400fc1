// Helpers shared by the float32 tests (test_float32_*.cpp): float32 inputs
// that are exactly representable, so the float64 kernels run on the very same
// numbers and serve as the reference, and the rounding-error constants of the
// bounds the tests check.
//
// u = 2^-24 is float32's unit roundoff; gammaOf(k) = k u / (1 - k u) bounds the
// relative error of k rounded operations in a row (Higham, "Accuracy and
// Stability of Numerical Algorithms", 2nd ed., Lemma 3.1): a sum of k products
// computed in float has |error| <= gamma(k) * sum |a_t| |b_t| (Eq. 3.5).
#pragma once

#include <cstdint>
#include <cstring>
#include <random>

#include "ops/tensor.h"

namespace float32 {

constexpr double kUnitRoundoff = 1.0 / (1 << 24);  // u = 2^-24

inline double gammaOf(double k) { return k * kUnitRoundoff / (1.0 - k * kUnitRoundoff); }

// A (rows x cols) float32 matrix of N(0, scale²) draws, and the same numbers in double.
struct Pair {
  attention::Matrix32 f;
  attention::Matrix d;
};

inline Pair randomPair(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng,
                       double scale = 1.0) {
  std::normal_distribution<double> normal(0.0, scale);
  Pair p{attention::Matrix32(rows, cols), attention::Matrix(rows, cols)};
  for (Eigen::Index i = 0; i < p.f.size(); ++i) {
    p.f.data()[i] = static_cast<float>(normal(rng));
    p.d.data()[i] = p.f.data()[i];
  }
  return p;
}

// Distance in units in the last place between two non-negative floats (the
// number of floats between them): also right across subnormals and zero.
inline std::int64_t ulpDistance(float a, float b) {
  std::int32_t ia, ib;
  std::memcpy(&ia, &a, sizeof ia);
  std::memcpy(&ib, &b, sizeof ib);
  return ia > ib ? std::int64_t{ia} - ib : std::int64_t{ib} - ia;
}

}  // namespace float32

// Finite-difference gradient checks shared by the model tests (test_seq2seq.cpp,
// test_transformer.cpp): double precision, central differences, h = 1e-5,
// error |analytic - numeric| / max(1e-3, |analytic| + |numeric|) < 1e-6.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <functional>

#include "ops/random_state.h"
#include "ops/tensor.h"

namespace gradient_check {

// Entries ~ U(-scale, scale) from `rng`.
inline attention::Matrix randomMatrix(attention::RandomState& rng, Eigen::Index rows,
                                      Eigen::Index cols, double scale = 1.0) {
  attention::Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.uniform(-scale, scale);
  return m;
}

// Largest |analytic - numeric| / max(1e-3, |analytic| + |numeric|) over `count`
// entries at `values`, with numeric = (f(x + eps) - f(x - eps)) / (2 eps).
inline double worstGradientError(const std::function<double()>& loss, double* values,
                                 const double* analytic, std::size_t count, double eps = 1e-5) {
  double worst = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const double saved = values[i];
    values[i] = saved + eps;
    const double up = loss();
    values[i] = saved - eps;
    const double down = loss();
    values[i] = saved;
    const double numeric = (up - down) / (2 * eps);
    const double error =
        std::abs(analytic[i] - numeric) / std::max(1e-3, std::abs(analytic[i]) + std::abs(numeric));
    worst = std::max(worst, error);
  }
  return worst;
}

}  // namespace gradient_check

#define CHECK_GRADIENT(label, loss, values, analytic, count)                               \
  do {                                                                                     \
    const double err_ = gradient_check::worstGradientError(loss, values, analytic, count); \
    INFO(label << ": worst relative gradient error " << err_ << " over " << (count)        \
               << " entries (tolerance 1e-6)");                                            \
    CHECK(err_ < 1e-6);                                                                    \
  } while (false)

#include "gelu.h"

#include <cmath>

namespace attention {

namespace {

template <typename T>
void geluOf(T* x, std::size_t n, GeluForm form) {
  if (form == GeluForm::kErf) {
    const T invSqrt2 = static_cast<T>(0.70710678118654752440);
    for (std::size_t i = 0; i < n; ++i) x[i] = T(0.5) * x[i] * (T(1) + std::erf(x[i] * invSqrt2));
    return;
  }
  const T sqrt2OverPi = static_cast<T>(0.79788456080286535588);
  for (std::size_t i = 0; i < n; ++i) {
    const T v = x[i];
    x[i] = T(0.5) * v * (T(1) + std::tanh(sqrt2OverPi * (v + T(0.044715) * v * v * v)));
  }
}

}  // namespace

void geluInPlace(double* x, std::size_t n, GeluForm form) { geluOf(x, n, form); }
void geluInPlace(float* x, std::size_t n, GeluForm form) { geluOf(x, n, form); }

}  // namespace attention

#include "gelu.h"

#include <cmath>

#include "softmax_exp.h"

namespace attention {

namespace {

constexpr double kSqrt2OverPi = 0.79788456080286535588;
constexpr double kCubic = 0.044715;

// The formulas of gelu.h, one value at a time.
template <typename T>
void geluReference(T* x, std::size_t n, GeluForm form) {
  if (form == GeluForm::kErf) {
    const T invSqrt2 = static_cast<T>(0.70710678118654752440);
    for (std::size_t i = 0; i < n; ++i) x[i] = T(0.5) * x[i] * (T(1) + std::erf(x[i] * invSqrt2));
    return;
  }
  const T sqrt2OverPi = static_cast<T>(kSqrt2OverPi);
  for (std::size_t i = 0; i < n; ++i) {
    const T v = x[i];
    x[i] = T(0.5) * v * (T(1) + std::tanh(sqrt2OverPi * (v + T(kCubic) * v * v * v)));
  }
}

// x sigmoid(z), z = 2 sqrt(2/pi) (x + 0.044715 x^3), lane by lane. With
// e = exp(-|z|) (an argument <= 0, what the softmax's exp takes; it clamps
// -inf and underflows to 0): sigmoid(z) = 1 / (1 + e) for z >= 0 and
// e / (1 + e) for z < 0, so neither form overflows or cancels.
using softmax_simd::Vec;
inline Vec<float> geluTanh(Vec<float> v, const softmax_simd::ExpConstants<float>& c,
                           Vec<float> twoA, Vec<float> twoAB) {
  using IVec = softmax_simd::Lanes<float>::IVec;
  const Vec<float> z = v * (twoA + twoAB * (v * v));
  const IVec signBit = IVec{} + static_cast<std::int32_t>(0x80000000u);
  const Vec<float> negAbs = (Vec<float>)((IVec)z | signBit);  // -|z|
  const Vec<float> e = softmax_simd::expNonPositive<true, float>(negAbs, c);
  const IVec negative = (IVec)(z < Vec<float>{});
  const Vec<float> numerator = (Vec<float>)((negative & (IVec)e) | (~negative & (IVec)c.one));
  return v * numerator / (c.one + e);
}

void geluTanhFloat(float* x, std::size_t n) {
  const softmax_simd::ExpConstants<float> c;
  const auto twoA = softmax_simd::splat(softmax_simd::opaque(static_cast<float>(2 * kSqrt2OverPi)));
  const auto twoAB =
      softmax_simd::splat(softmax_simd::opaque(static_cast<float>(2 * kSqrt2OverPi * kCubic)));
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4)
    softmax_simd::store(x + i, geluTanh(softmax_simd::load(x + i), c, twoA, twoAB));
  if (i < n) {  // the tail through one padded vector
    float tail[4] = {0, 0, 0, 0};
    for (std::size_t j = i; j < n; ++j) tail[j - i] = x[j];
    softmax_simd::store(tail, geluTanh(softmax_simd::load(tail), c, twoA, twoAB));
    for (std::size_t j = i; j < n; ++j) x[j] = tail[j - i];
  }
}

}  // namespace

void geluInPlace(double* x, std::size_t n, GeluForm form) { geluReference(x, n, form); }
void geluInPlace(float* x, std::size_t n, GeluForm form) {
  if (form == GeluForm::kTanh) {
    geluTanhFloat(x, n);
  } else {
    geluReference(x, n, form);
  }
}

void geluReferenceInPlace(double* x, std::size_t n, GeluForm form) { geluReference(x, n, form); }
void geluReferenceInPlace(float* x, std::size_t n, GeluForm form) { geluReference(x, n, form); }

}  // namespace attention

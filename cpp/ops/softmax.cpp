#include "softmax.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "softmax_exp.h"
#include "validate.h"

namespace attention {

namespace {

using Index = Eigen::Index;
constexpr double kInf = std::numeric_limits<double>::infinity();

Status checkScores(const VectorView& x) {
  RETURN_IF_ERROR(requireNonEmpty("x", x));
  return requireFiniteOrMasked("x", x);
}

}  // namespace

namespace {

// The row kernel for T = double or float, on 16-byte vectors (softmax_exp.h),
// two per step. Three passes over the row, which stays in L1:
//   1. the maximum and minimum of the scaled scores and, with kCheck, a
//      finiteness probe: the sum of x * 0 is NaN exactly when some x is ±inf
//      or NaN (scale is in (0, 1] in attention, so scaling keeps a finite score
//      finite). Unmasked rows are only read: rounding is monotone, so
//      max(x) * scale is the maximum of the scaled scores (the minimum for a
//      negative scale). Masked rows are written: masked entries -inf, the
//      others scale * x.
//   2. e = exp(scale * x - max) written back and summed; the row's smallest
//      argument says whether any result can be subnormal (almost never), and
//      otherwise the exp takes its one-multiplication form.
//   3. e * (1 / sum).
// The arguments of exp are the same numbers as in the scalar formulation.
// kCheck (the attention kernel): if the probe fails, the row is left scaled,
// masked entries -inf, and the function returns false before any exp.
template <typename T, bool kCheck>
bool softmaxRowImpl(T* s, Index n, Index computed, Index end, T scale, const T* mask) {
  namespace simd = softmax_simd;
  using V = simd::Vec<T>;
  using IV = typename simd::Lanes<T>::IVec;
  constexpr Index kLanes = simd::Lanes<T>::kCount;
  constexpr Index kStep = 2 * kLanes;
  constexpr T kInfinity = std::numeric_limits<T>::infinity();
  end = std::min(end, computed);
  const V zero = {}, scaleV = simd::splat(scale), negInf = simd::splat(-kInfinity);
  V max0 = negInf, max1 = negInf, min0 = simd::splat(kInfinity), min1 = min0, probe0 = {},
    probe1 = {};
  T max = -kInfinity, min = kInfinity, probe = 0;
  Index j = 0;
  if (mask) {
    for (; j + kStep <= end; j += kStep) {
      V a = simd::load(s + j), b = simd::load(s + j + kLanes);
      if (kCheck) {
        probe0 += a * zero;
        probe1 += b * zero;
      }
      const IV maskedA = (IV)(simd::load(mask + j) == zero);
      const IV maskedB = (IV)(simd::load(mask + j + kLanes) == zero);
      a = (V)((maskedA & (IV)negInf) | (~maskedA & (IV)(a * scaleV)));
      b = (V)((maskedB & (IV)negInf) | (~maskedB & (IV)(b * scaleV)));
      simd::store(s + j, a);
      simd::store(s + j + kLanes, b);
      max0 = simd::pmax<T>(max0, a);
      max1 = simd::pmax<T>(max1, b);
      min0 = simd::pmin<T>(min0, a);
      min1 = simd::pmin<T>(min1, b);
    }
    for (; j < end; ++j) {
      const T x = s[j];
      if (kCheck) probe += x * T(0);
      s[j] = mask[j] == T(0) ? -kInfinity : x * scale;
      max = std::max(max, s[j]);
      min = std::min(min, s[j]);
    }
  } else {
    for (; j + kStep <= end; j += kStep) {
      const V a = simd::load(s + j), b = simd::load(s + j + kLanes);
      if (kCheck) {
        probe0 += a * zero;
        probe1 += b * zero;
      }
      max0 = simd::pmax<T>(max0, a);
      max1 = simd::pmax<T>(max1, b);
      min0 = simd::pmin<T>(min0, a);
      min1 = simd::pmin<T>(min1, b);
    }
    for (; j < end; ++j) {
      if (kCheck) probe += s[j] * T(0);
      max = std::max(max, s[j]);
      min = std::min(min, s[j]);
    }
  }
  for (Index u = 0; u < kLanes; ++u) {
    max = std::max(max, std::max(max0[u], max1[u]));
    min = std::min(min, std::min(min0[u], min1[u]));
    if (kCheck) probe += probe0[u] + probe1[u];
  }
  if (kCheck && probe != probe) {
    if (!mask) {
      for (j = 0; j < end; ++j) s[j] *= scale;
    }
    return false;
  }
  const T argScale = mask ? T(1) : scale;  // masked rows are scaled already (1 * x is exact)
  if (!mask) {
    const T a = max * scale, b = min * scale;
    max = std::max(a, b);
    min = std::min(a, b);
  }
  std::fill(s + end, s + n, T(0));
  if (max == -kInfinity) {  // nothing may be attended to: zero weights
    std::fill(s, s + end, T(0));
    return true;
  }
  const simd::ExpConstants<T> c;
  const V argScaleV = simd::splat(argScale), maxV = simd::splat(max);
  V sum0 = {}, sum1 = {};
  j = 0;
  // The exp pass, in the exp's form for subnormal results or not (a compile-time flag).
  auto expPass = [&](auto subnormal) {
    constexpr bool kSubnormal = decltype(subnormal)::value;
    for (; j + kStep <= end; j += kStep) {
      const V a = simd::expNonPositive<kSubnormal, T>(simd::load(s + j) * argScaleV - maxV, c);
      const V b =
          simd::expNonPositive<kSubnormal, T>(simd::load(s + j + kLanes) * argScaleV - maxV, c);
      simd::store(s + j, a);
      simd::store(s + j + kLanes, b);
      sum0 += a;
      sum1 += b;
    }
  };
  // The smallest argument is min - max (rounding is monotone).
  if (min - max >= simd::kNormalFloor<T>) {
    expPass(std::false_type{});
  } else {
    expPass(std::true_type{});
  }
  for (; j < end; ++j) {
    s[j] = simd::expNonPositiveScalar<T>(s[j] * argScale - max, c);
    sum0[0] += s[j];
  }
  // Pairwise over the 2 kLanes partial sums, neighbours first; the total is
  // >= 1 (exp(0) is in it).
  T total;
  if constexpr (kLanes == 4) {
    total =
        ((sum0[0] + sum0[1]) + (sum0[2] + sum0[3])) + ((sum1[0] + sum1[1]) + (sum1[2] + sum1[3]));
  } else {
    total = (sum0[0] + sum0[1]) + (sum1[0] + sum1[1]);
  }
  const T inverse = T(1) / total;  // one division; the products are within 1 ulp
  const V inverseV = simd::splat(inverse);
  for (j = 0; j + kLanes <= end; j += kLanes) simd::store(s + j, simd::load(s + j) * inverseV);
  for (; j < end; ++j) s[j] *= inverse;
  return true;
}

// True if every x[0, n) is 0 or 1: |x (1 - x)| is 0 exactly for those, positive
// (or inf, NaN) for anything else, so the sum has no cancellation. A branch-free
// loop clang vectorises; a row that fails is scanned entry by entry for the message.
template <typename T>
bool rowIsZerosAndOnes(const T* x, Index n) {
  constexpr int kProbes = 32 / static_cast<int>(sizeof(T));  // partial sums, as allFinite
  T probe[kProbes] = {};
  Index j = 0;
  for (; j + kProbes <= n; j += kProbes) {
    for (int u = 0; u < kProbes; ++u) probe[u] += std::fabs(x[j + u] * (T(1) - x[j + u]));
  }
  for (; j < n; ++j) probe[0] += std::fabs(x[j] * (T(1) - x[j]));
  T sum = 0;
  for (int u = 0; u < kProbes; ++u) sum += probe[u];
  return sum == T(0);
}

template <typename T>
Status checkMaskOf(const AttentionMaskOf<T>& mask, Index rows, Index cols) {
  if (mask.window < 0) {
    return Status::invalidValue("window is " + std::to_string(mask.window) +
                                " but must be >= 0 (0: no sliding window)");
  }
  if (!(mask.scale >= 0 && mask.scale <= 1)) {
    return Status::invalidValue("scale is " + std::to_string(mask.scale) +
                                " but must be in (0, 1], or 0 for 1 / sqrt(d_k)");
  }
  if (!mask.mask) return Status::ok();
  const MatrixViewOf<T>& m = *mask.mask;
  RETURN_IF_ERROR(requireShape("mask", m, rows, cols, "queries x keys"));
  for (Index r = 0; r < m.rows(); ++r) {
    if (rowIsZerosAndOnes(m.data() + r * m.outerStride(), m.cols())) continue;
    for (Index c = 0; c < m.cols(); ++c) {
      const T x = m(r, c);
      if (x != T(0) && x != T(1)) {
        return Status::invalidValue("mask[" + std::to_string(r) + "][" + std::to_string(c) +
                                    "] is " + std::to_string(x) +
                                    "; mask entries must be 0 (may not attend) or 1 (may attend)");
      }
    }
  }
  return Status::ok();
}

}  // namespace

void softmaxRow(double* s, Index n, Index computed, Index end, double scale, const double* mask) {
  softmaxRowImpl<double, false>(s, n, computed, end, scale, mask);
}

void softmaxRow(float* s, Index n, Index computed, Index end, float scale, const float* mask) {
  softmaxRowImpl<float, false>(s, n, computed, end, scale, mask);
}

bool softmaxRowIfFinite(double* s, Index n, Index computed, Index end, double scale,
                        const double* mask) {
  return softmaxRowImpl<double, true>(s, n, computed, end, scale, mask);
}

bool softmaxRowIfFinite(float* s, Index n, Index computed, Index end, float scale,
                        const float* mask) {
  return softmaxRowImpl<float, true>(s, n, computed, end, scale, mask);
}

float expNonPositive(float x) {
  return softmax_simd::expNonPositiveScalar<float>(x, softmax_simd::ExpConstants<float>());
}

double expNonPositive(double x) {
  return softmax_simd::expNonPositiveScalar<double>(x, softmax_simd::ExpConstants<double>());
}

void softmaxRowsInPlace(MatrixOut s, double scale) {
  for (Index r = 0; r < s.rows(); ++r) {
    double* row = s.data() + r * s.outerStride();
    softmaxRow(row, s.cols(), s.cols(), s.cols(), scale, nullptr);
  }
}

Status checkMask(const AttentionMask& mask, Index rows, Index cols) {
  return checkMaskOf(mask, rows, cols);
}

Status checkMask(const AttentionMask32& mask, Index rows, Index cols) {
  return checkMaskOf(mask, rows, cols);
}

Status softmaxRows(const MatrixView& scores, const AttentionMask& mask, double scale,
                   Matrix& weights) {
  RETURN_IF_ERROR(requireNonEmpty("scores", scores));
  RETURN_IF_ERROR(requireFinite("scores", scores));
  RETURN_IF_ERROR(checkMask(mask, scores.rows(), scores.cols()));
  if (!std::isfinite(scale)) return Status::invalidValue("scale must be a finite number");
  weights = scores;
  const Index n = scores.cols();
  for (Index r = 0; r < scores.rows(); ++r) {
    // Columns before the window's start get weight 0; the row's softmax starts there.
    const Index begin = std::min(windowStart(r, mask.window), n);
    double* row = weights.data() + r * n;
    std::fill(row, row + begin, 0.0);
    const Index end = std::max(mask.causal ? std::min(r + 1, n) : n, begin);
    softmaxRow(row + begin, n - begin, n - begin, end - begin, scale,
               mask.mask ? mask.mask->data() + r * mask.mask->outerStride() + begin : nullptr);
  }
  return Status::ok();
}

Status softmax(const VectorView& x, Vector& out) {
  RETURN_IF_ERROR(checkScores(x));
  out = x;
  softmaxRow(out.data(), out.size(), out.size(), out.size(), 1.0, nullptr);
  return Status::ok();
}

Status logSoftmax(const VectorView& x, Vector& out) {
  RETURN_IF_ERROR(checkScores(x));
  const double max = x.maxCoeff();
  if (max == -kInf) {
    out = Vector::Constant(x.size(), -kInf);  // log(0) everywhere
    return Status::ok();
  }
  const softmax_simd::ExpConstants<double> c;
  double sum = 0;
  for (Index i = 0; i < x.size(); ++i) sum += softmax_simd::expNonPositiveScalar(x[i] - max, c);
  out = x.array() - max - std::log(sum);
  return Status::ok();
}

Status naiveSoftmax(const VectorView& x, Vector& out) {
  RETURN_IF_ERROR(checkScores(x));
  // libm's exp on purpose: exp(927) must overflow to Infinity, which is the lesson.
  out = x.unaryExpr([](double v) { return std::exp(v); });
  out /= out.sum();
  return Status::ok();
}

}  // namespace attention

#include "softmax.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "validate.h"

namespace attention {

namespace {

using Index = Eigen::Index;
constexpr double kInf = std::numeric_limits<double>::infinity();

// x, hidden from the optimiser. Inside the float32 softmax loop clang emits
// every SIMD constant of the exp at each use (v128.const), and V8 builds each
// one from immediates through a general register (several instructions per
// use). A constant that went through opaque() is a value computed once per
// row instead: it stays in a register or a stack slot. Measured with
// bench/sdpa-parts.mjs (n = 1024, d = 64, float32 softmax phase): 2.7 -> 2.5 ms.
// Not for the float64 exp: its constants (and 64-bit lane shifts) then spill
// in V8 and that phase became slower (5.9 -> 7.5 ms). Native builds keep plain
// constants either way.
template <typename T>
inline T opaque(T x) {
#if defined(__wasm__)
  __asm__("" : "+r"(x));
#endif
  return x;
}

// exp(x) for x <= 0 (a softmax argument x - max). Straight-line code without a
// libm call, so compilers vectorise the loops that call it (wasm SIMD128,
// SSE/AVX); std::exp is a scalar call in wasm and Eigen 3.4 has no wasm packet
// math. Accuracy: about 1 ulp. Unlike Eigen's vectorised exp, which clamps
// its argument near -709 (exp(-781) ~ 1e-308), this one underflows like libm:
// results between 2^-1074 and 2^-1022 are the right subnormals, x < -745.14
// and -Infinity give exactly 0.
// Its constants (plain literals: see opaque()).
struct ExpConstants {
  double lowest, log2e, ln2Hi, ln2Lo, shift, p0, p1, p2, q0, q1, q2, q3, one, two;
  std::int64_t shiftBits, bias;
  static ExpConstants make() {
    return {-746.0,  // exp(-746) rounds to 0; also maps -Infinity
            1.4426950408889634,
            6.93147180369123816490e-01,  // fdlibm's split of ln 2:
            1.90821492927058770002e-10,  // k * ln2Hi is exact
            6755399441055744.0,          // 1.5 * 2^52
            1.26177193074810590878e-4,
            3.02994407707441961300e-2,
            9.99999999999999999910e-1,
            3.00198505138664455042e-6,
            2.52448340349684104192e-3,
            2.27265548208155028766e-1,
            2.00000000000000000009e0,
            1.0,
            2.0,
            0x4338000000000000,
            1023};
  }
};

inline double expNonPositive(double x, const ExpConstants& c) {
  x = x < c.lowest ? c.lowest : x;
  // x = k ln2 + r with integer k and |r| <= ln2 / 2; adding shift rounds to k.
  const double kd = x * c.log2e + c.shift;
  const double k = kd - c.shift;
  const double r = (x - k * c.ln2Hi) - k * c.ln2Lo;
  // exp(r) by Cephes' rational approximation (S. L. Moshier's Cephes library,
  // exp.c): exp(r) = 1 + 2 r P(r²) / (Q(r²) - r P(r²)). One division instead
  // of a degree-13 polynomial; measured against long double expl over 2e7
  // arguments in [-760, 0]: at most 1.15 ulp, and zero exactly where expl rounds to 0.
  const double rr = r * r;
  const double px = r * ((c.p0 * rr + c.p1) * rr + c.p2);
  const double qx = ((c.q0 * rr + c.q1) * rr + c.q2) * rr + c.q3;
  const double p = c.one + c.two * (px / (qx - px));
  // 2^k as two normal powers of two (k >= -1076), so a subnormal result is
  // rounded once, in the last multiplication.
  std::int64_t bits;
  std::memcpy(&bits, &kd, sizeof bits);
  const std::int64_t ki = bits - c.shiftBits;
  const std::int64_t k1 = ki >> 1;  // floor(k / 2): an arithmetic shift, vectorisable
  const std::int64_t b1 = (k1 + c.bias) << 52;
  const std::int64_t b2 = (ki - k1 + c.bias) << 52;
  double s1, s2;
  std::memcpy(&s1, &b1, sizeof s1);
  std::memcpy(&s2, &b2, sizeof s2);
  return p * s1 * s2;
}

inline double expNonPositive(double x) { return expNonPositive(x, ExpConstants::make()); }

// The float32 twin of expNonPositive, for the float32 kernel: the same
// reduction x = k ln2 + r and the same two-factor scaling, in float and int32
// lanes (4 per wasm SIMD128 register). exp(r) on |r| <= ln2 / 2 by Cephes'
// expf polynomial (S. L. Moshier): 1 + r + r² P(r), degree 5. Measured in
// tests/cpp/test_float32_exp.cpp against double exp rounded to float over
// every float in [-110, -0.25] and every 61st float in (-0.25, 0]: at most 1 ulp;
// the subnormal results (x < -87.34) are rounded once, by the last
// multiplication; zero exactly where exp(x) rounds to 0 in float.
struct ExpConstantsF {
  float lowest, log2e, ln2Hi, ln2Lo, shift, p0, p1, p2, p3, p4, p5, one;
  std::int32_t shiftBits, bias;
  static ExpConstantsF make() {
    return {opaque(-104.0f),  // exp(-104) < 2^-150 rounds to 0; also maps -Infinity
            opaque(1.44269504088896341f),
            opaque(0.693359375f),     // Cephes' split of ln 2: k * ln2Hi is exact
            opaque(-2.12194440e-4f),  // ln 2 - ln2Hi
            opaque(12582912.0f),      // 1.5 * 2^23
            opaque(1.9875691500e-4f),
            opaque(1.3981999507e-3f),
            opaque(8.3334519073e-3f),
            opaque(4.1665795894e-2f),
            opaque(1.6666665459e-1f),
            opaque(5.0000001201e-1f),
            opaque(1.0f),
            opaque(std::int32_t{0x4B400000}),
            opaque(std::int32_t{127})};
  }
};

inline float expNonPositiveF(float x, const ExpConstantsF& c) {
  x = x < c.lowest ? c.lowest : x;
  const float kd = x * c.log2e + c.shift;  // adding shift rounds to the integer k
  const float k = kd - c.shift;
  const float r = (x - k * c.ln2Hi) - k * c.ln2Lo;
  const float rr = r * r;
  const float poly = ((((c.p0 * r + c.p1) * r + c.p2) * r + c.p3) * r + c.p4) * r + c.p5;
  const float p = poly * rr + r + c.one;
  // 2^k as two normal powers of two (k >= -150), so a subnormal result is
  // rounded once, in the last multiplication.
  std::int32_t bits;
  std::memcpy(&bits, &kd, sizeof bits);
  const std::int32_t ki = bits - c.shiftBits;
  const std::int32_t k1 = ki >> 1;  // floor(k / 2): an arithmetic shift, vectorisable
  const std::int32_t b1 = (k1 + c.bias) << 23;
  const std::int32_t b2 = (ki - k1 + c.bias) << 23;
  float s1, s2;
  std::memcpy(&s1, &b1, sizeof s1);
  std::memcpy(&s2, &b2, sizeof s2);
  return p * s1 * s2;
}

inline double expOf(double x, const ExpConstants& c) { return expNonPositive(x, c); }
inline float expOf(float x, const ExpConstantsF& c) { return expNonPositiveF(x, c); }

template <typename T>
struct ExpConstantsOf;
template <>
struct ExpConstantsOf<double> {
  using Type = ExpConstants;
};
template <>
struct ExpConstantsOf<float> {
  using Type = ExpConstantsF;
};

Status checkScores(const VectorView& x) {
  RETURN_IF_ERROR(requireNonEmpty("x", x));
  return requireFiniteOrMasked("x", x);
}

}  // namespace

namespace {

// The row kernel for T = double or float. kUnroll partial maxima and sums
// (two SIMD registers' worth) let the compiler vectorise without reassociating.
// kCheck (the attention kernel): also report, before any exp, whether some
// score in [0, end) is ±inf or NaN; the row is then left scaled, masked
// entries -inf, and the function returns false.
template <typename T, bool kCheck>
bool softmaxRowImpl(T* s, Index n, Index computed, Index end, T scale, const T* mask) {
  constexpr int kUnroll = 32 / static_cast<int>(sizeof(T));  // 4 doubles, 8 floats
  constexpr T kNegInf = -std::numeric_limits<T>::infinity();
  end = std::min(end, computed);
  // The unmasked row: one pass scales the scores, takes their maximum and,
  // with kCheck, sums x * 0 (NaN exactly when some x is ±inf or NaN; scale is
  // in (0, 1] in attention, so scaling keeps a finite score finite). Written
  // without branches, clang vectorises it (wasm f32x4 / f64x2); it replaces
  // three passes (probe, scale, max). The masked row: clang vectorises the
  // fused loop only without the maximum, so that is a second pass, and the
  // probe is an integer OR (x - x is 0 exactly for finite x).
  T maxes[kUnroll], probe[kUnroll] = {};
  for (int u = 0; u < kUnroll; ++u) maxes[u] = kNegInf;
  Index j = 0;
  if (mask) {
    int bad = 0;
    for (j = 0; j < end; ++j) {
      const T x = s[j];
      if (kCheck) bad |= !(x - x == T(0));
      s[j] = mask[j] == T(0) ? kNegInf : x * scale;
    }
    if (kCheck && bad) return false;
    for (j = 0; j + kUnroll <= end; j += kUnroll) {
      for (int u = 0; u < kUnroll; ++u) maxes[u] = s[j + u] > maxes[u] ? s[j + u] : maxes[u];
    }
    for (; j < end; ++j) maxes[0] = s[j] > maxes[0] ? s[j] : maxes[0];
  } else {
    for (; j + kUnroll <= end; j += kUnroll) {
      for (int u = 0; u < kUnroll; ++u) {
        const T x = s[j + u] * scale;
        if (kCheck) probe[u] += x * T(0);
        s[j + u] = x;
        maxes[u] = x > maxes[u] ? x : maxes[u];
      }
    }
    for (; j < end; ++j) {
      const T x = s[j] * scale;
      if (kCheck) probe[0] += x * T(0);
      s[j] = x;
      maxes[0] = x > maxes[0] ? x : maxes[0];
    }
    if (kCheck) {
      T total = 0;
      for (int u = 0; u < kUnroll; ++u) total += probe[u];
      if (total != total) return false;
    }
  }
  T max = maxes[0];
  for (int u = 1; u < kUnroll; ++u) max = std::max(max, maxes[u]);
  std::fill(s + end, s + n, T(0));
  if (max == kNegInf) {  // nothing may be attended to: zero weights
    std::fill(s, s + end, T(0));
    return true;
  }
  const auto c = ExpConstantsOf<T>::Type::make();
  T sum[kUnroll] = {};
  j = 0;
  for (; j + kUnroll <= end; j += kUnroll) {
    for (int u = 0; u < kUnroll; ++u) {
      const T e = expOf(s[j + u] - max, c);
      s[j + u] = e;
      sum[u] += e;
    }
  }
  for (; j < end; ++j) {
    const T e = expOf(s[j] - max, c);
    s[j] = e;
    sum[0] += e;
  }
  // Pairwise: ((s0 + s1) + (s2 + s3)) + ... ; the total is >= 1 (exp(0) is in it).
  for (int width = kUnroll / 2; width >= 1; width /= 2) {
    for (int u = 0; u < width; ++u) sum[u] = sum[2 * u] + sum[2 * u + 1];
  }
  const T inverse = T(1) / sum[0];  // one division; the products are within 1 ulp
  for (j = 0; j < end; ++j) s[j] *= inverse;
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

float expNonPositive(float x) { return expNonPositiveF(x, ExpConstantsF::make()); }

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
    softmaxRow(weights.data() + r * n, n, n, mask.causal ? r + 1 : n, scale,
               mask.mask ? mask.mask->data() + r * mask.mask->outerStride() : nullptr);
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
  const ExpConstants c = ExpConstants::make();
  double sum = 0;
  for (Index i = 0; i < x.size(); ++i) sum += expNonPositive(x[i] - max, c);
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

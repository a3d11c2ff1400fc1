// The exp of the softmax row kernel (softmax.cpp), on SIMD vectors: 4 floats
// or 2 doubles per 16-byte vector (one wasm SIMD128 register; SSE natively).
// Internal to softmax.cpp, gelu.cpp (GELU's sigmoid) and their tests; not part of the core's API.
//
// Written with the GCC/Clang vector extension, not left to the
// auto-vectoriser: clang vectorised the plain loops of the earlier kernel, but
// could not fuse the masked pass with the maximum, and its select for the
// clamp is two wasm operations (f32x4.gt, v128.bitselect) where wasm's pmax
// is one (a maxps in V8). Without a SIMD unit the compiler lowers the same
// code to scalars.
//
// exp(x) for x <= 0 (a softmax argument x - max), by range reduction
// x = k ln2 + r, |r| <= ln2 / 2, and exp(x) = exp(r) 2^k. It underflows like
// libm, not like Eigen's clamped exp: subnormal results are rounded once (by
// the last multiplication), exp(x) is exactly 0 where the true value rounds
// to 0, and exp(-inf) is 0. Accuracy is tested in tests/cpp/test_float32_exp.cpp
// (float, every float in [-110, -0.25]: <= 2 ulp; measured over every float in
// [-110, 0]: at most 1 ulp) and test_softmax.cpp (double, <= 2 ulp).
//
// kSubnormal = false is the form for arguments >= kNormalFloor<T>: there 2^k
// is a normal number and one multiplication by it rounds once; the row
// kernel takes it when the row's smallest argument allows (almost every
// row), saving the two-factor scaling below.
#pragma once

#include <cstdint>
#include <cstring>

namespace attention {
namespace softmax_simd {

template <typename T>
struct Lanes;
template <>
struct Lanes<float> {
  typedef float Vec __attribute__((vector_size(16)));
  typedef std::int32_t IVec __attribute__((vector_size(16)));
  using Int = std::int32_t;
  static constexpr int kCount = 4;
  static constexpr int kMantissaBits = 23;
};
template <>
struct Lanes<double> {
  typedef double Vec __attribute__((vector_size(16)));
  typedef std::int64_t IVec __attribute__((vector_size(16)));
  using Int = std::int64_t;
  static constexpr int kCount = 2;
  static constexpr int kMantissaBits = 52;
};

template <typename T>
using Vec = typename Lanes<T>::Vec;

// Arguments from which 2^k of the reduction is normal (k >= -126 / -1022):
// -87 log2(e) = -125.5, -708 log2(e) = -1021.4.
template <typename T>
constexpr T kNormalFloor = sizeof(T) == 4 ? T(-87) : T(-708);

// x, hidden from the optimiser. Inside the float loop clang emits every SIMD
// constant of the exp at each use (v128.const), and V8 builds each one from
// immediates through a general register (several instructions per use). A
// constant that went through opaque() is a value computed once per row: it
// stays in a register or a stack slot (float32 softmax phase 2.7 -> 2.5 ms,
// bench/sdpa-parts.mjs). Not for double: its constants then spilled in V8
// (5.9 -> 7.5 ms). Native builds keep plain constants either way.
template <typename T>
inline T opaque(T x) {
#if defined(__wasm__)
  if constexpr (sizeof(T) == 4) __asm__("" : "+r"(x));
#endif
  return x;
}

template <typename T>
inline Vec<T> splat(T x) {
  if constexpr (sizeof(T) == 4) {
    return Vec<T>{x, x, x, x};
  } else {
    return Vec<T>{x, x};
  }
}

template <typename T>
inline Vec<T> load(const T* p) {
  Vec<T> v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T>
inline void store(T* p, Vec<T> v) {
  std::memcpy(p, &v, sizeof v);
}

// a < b ? b : a, lane by lane (wasm pmax: one maxps / maxpd in V8).
template <typename T>
inline Vec<T> pmax(Vec<T> a, Vec<T> b) {
#if defined(__wasm_simd128__)
  if constexpr (sizeof(T) == 4) {
    return __builtin_wasm_pmax_f32x4(a, b);
  } else {
    return __builtin_wasm_pmax_f64x2(a, b);
  }
#else
  using IVec = typename Lanes<T>::IVec;
  const IVec less = (IVec)(a < b);
  return (Vec<T>)((less & (IVec)b) | (~less & (IVec)a));
#endif
}

// b < a ? b : a, lane by lane (pmin).
template <typename T>
inline Vec<T> pmin(Vec<T> a, Vec<T> b) {
#if defined(__wasm_simd128__)
  if constexpr (sizeof(T) == 4) {
    return __builtin_wasm_pmin_f32x4(a, b);
  } else {
    return __builtin_wasm_pmin_f64x2(a, b);
  }
#else
  using IVec = typename Lanes<T>::IVec;
  const IVec less = (IVec)(b < a);
  return (Vec<T>)((less & (IVec)b) | (~less & (IVec)a));
#endif
}

template <typename T>
struct ExpConstants;

// float: Cephes' expf (S. L. Moshier): exp(r) = 1 + r + r² P(r), P of degree
// 5, evaluated in Estrin's form (three independent pairs, then two levels)
// rather than Horner's: the dependency chain of the loop is what limits it in
// V8 (11 -> 6 dependent operations; float32 softmax 10% faster).
template <>
struct ExpConstants<float> {
  using V = Vec<float>;
  using IV = Lanes<float>::IVec;
  V lowest, log2e, ln2Hi, ln2Lo, shift, p0, p1, p2, p3, p4, p5, one;
  IV shiftBits, bias;
  ExpConstants()
      : lowest(splat(opaque(-104.0f))),  // exp(-104) < 2^-150 rounds to 0; also maps -inf
        log2e(splat(opaque(1.44269504088896341f))),
        ln2Hi(splat(opaque(0.693359375f))),     // Cephes' split of ln 2: k * ln2Hi is exact
        ln2Lo(splat(opaque(-2.12194440e-4f))),  // ln 2 - ln2Hi
        shift(splat(opaque(12582912.0f))),      // 1.5 * 2^23: adding it rounds to an integer
        p0(splat(opaque(1.9875691500e-4f))),
        p1(splat(opaque(1.3981999507e-3f))),
        p2(splat(opaque(8.3334519073e-3f))),
        p3(splat(opaque(4.1665795894e-2f))),
        p4(splat(opaque(1.6666665459e-1f))),
        p5(splat(opaque(5.0000001201e-1f))),
        one(splat(opaque(1.0f))),
        shiftBits(IV{} + opaque(std::int32_t{0x4B400000})),
        bias(IV{} + opaque(std::int32_t{127})) {}

  // exp(r) for |r| <= ln2 / 2.
  V expReduced(V r) const {
    const V rr = r * r;
    const V poly = (p0 * r + p1) * (rr * rr) + ((p2 * r + p3) * rr + (p4 * r + p5));
    return poly * rr + r + one;
  }
};

// double: Cephes' exp.c rational form, exp(r) = 1 + 2 r P(r²) / (Q(r²) - r P(r²)):
// one division instead of a degree-13 polynomial; measured against long double
// expl over 2e7 arguments in [-760, 0]: at most 1.15 ulp.
template <>
struct ExpConstants<double> {
  using V = Vec<double>;
  using IV = Lanes<double>::IVec;
  V lowest, log2e, ln2Hi, ln2Lo, shift, p0, p1, p2, q0, q1, q2, q3, one, two;
  IV shiftBits, bias;
  ExpConstants()
      : lowest(splat(-746.0)),  // exp(-746) rounds to 0; also maps -inf
        log2e(splat(1.4426950408889634)),
        ln2Hi(splat(6.93147180369123816490e-01)),  // fdlibm's split of ln 2:
        ln2Lo(splat(1.90821492927058770002e-10)),  // k * ln2Hi is exact
        shift(splat(6755399441055744.0)),          // 1.5 * 2^52
        p0(splat(1.26177193074810590878e-4)),
        p1(splat(3.02994407707441961300e-2)),
        p2(splat(9.99999999999999999910e-1)),
        q0(splat(3.00198505138664455042e-6)),
        q1(splat(2.52448340349684104192e-3)),
        q2(splat(2.27265548208155028766e-1)),
        q3(splat(2.00000000000000000009e0)),
        one(splat(1.0)),
        two(splat(2.0)),
        shiftBits(IV{} + std::int64_t{0x4338000000000000}),
        bias(IV{} + std::int64_t{1023}) {}

  V expReduced(V r) const {
    const V rr = r * r;
    const V px = r * ((p0 * rr + p1) * rr + p2);
    const V qx = ((q0 * rr + q1) * rr + q2) * rr + q3;
    return one + two * (px / (qx - px));
  }
};

// exp(x) lane by lane, x <= 0 (see the top of the file). With kSubnormal,
// 2^k is applied as two normal powers of two (k >= -150 / -1076), so a
// subnormal result is rounded once, in the last multiplication; without it,
// every lane must be >= kNormalFloor<T> (or the result is wrong).
template <bool kSubnormal, typename T>
inline Vec<T> expNonPositive(Vec<T> x, const ExpConstants<T>& c) {
  using IVec = typename Lanes<T>::IVec;
  constexpr int kBits = Lanes<T>::kMantissaBits;
  // Arguments below `lowest` (and -inf) give 0 through the clamp; the normal
  // form's arguments are >= kNormalFloor<T> already.
  if constexpr (kSubnormal) x = pmax<T>(x, c.lowest);
  const Vec<T> kd = x * c.log2e + c.shift;  // adding shift rounds to the integer k
  const Vec<T> k = kd - c.shift;
  const Vec<T> r = (x - k * c.ln2Hi) - k * c.ln2Lo;
  const Vec<T> p = c.expReduced(r);
  const IVec ki = (IVec)kd - c.shiftBits;
  if constexpr (kSubnormal) {
    const IVec k1 = ki >> 1;  // floor(k / 2): an arithmetic shift
    return p * (Vec<T>)((k1 + c.bias) << kBits) * (Vec<T>)((ki - k1 + c.bias) << kBits);
  } else {
    return p * (Vec<T>)((ki + c.bias) << kBits);
  }
}

// The scalar form (one lane), for logSoftmax, tails and the tests.
template <typename T>
inline T expNonPositiveScalar(T x, const ExpConstants<T>& c) {
  return x >= kNormalFloor<T> ? expNonPositive<false, T>(splat(x), c)[0]
                              : expNonPositive<true, T>(splat(x), c)[0];
}

}  // namespace softmax_simd
}  // namespace attention

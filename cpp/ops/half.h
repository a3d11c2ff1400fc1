// 16-bit floats as weights are stored (IEEE half, bfloat16) widened to float32,
// exactly (every value of both formats is a float): one value at a time, and 8
// bfloat16 values in SIMD registers. Shared by the kernels that read 16-bit
// weights where they multiply them (gemm.cpp's streamed weights, token_table.cpp).
#pragma once

#include <cstdint>
#include <cstring>

namespace attention::half {

// IEEE half bits -> float, exactly: normal numbers rebias the exponent (15 -> 127),
// subnormals are fraction * 2^-24 (exact in float), inf and NaN keep their class.
inline float halfToFloat(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu, fraction = h & 0x3ffu;
  std::uint32_t bits;
  if (exponent == 0) {
    const float magnitude = static_cast<float>(fraction) * 5.9604644775390625e-8f;  // 2^-24
    std::memcpy(&bits, &magnitude, sizeof bits);
    bits |= sign;
  } else if (exponent == 31) {
    bits = sign | 0x7f800000u | (fraction << 13);
  } else {
    bits = sign | ((exponent + 112) << 23) | (fraction << 13);
  }
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

// bfloat16 is a float's top 16 bits.
inline float bfloat16ToFloat(std::uint16_t h) {
  const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

// One SIMD128 register (wasm SIMD128, SSE) as 8 halves, 4 words or 4 floats.
typedef std::uint16_t Halves8 __attribute__((vector_size(16)));
typedef std::uint32_t Words4 __attribute__((vector_size(16)));
typedef float Floats4 __attribute__((vector_size(16)));

inline Halves8 loadHalves8(const std::uint16_t* p) {
  Halves8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline Floats4 loadFloats4(const float* p) {
  Floats4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// 8 bfloat16 values -> two float vectors, by integer operations: the even
// entries by a shift left, the odd ones by masking the low half away (a shuffle
// with zeros per half was 1.8x slower in V8 on the decoder's weights). The
// lanes come out as entries 0, 2, 4, 6 and 1, 3, 5, 7.
inline Floats4 evenBf16(Halves8 w) {
  Words4 u;
  std::memcpy(&u, &w, sizeof u);
  u <<= 16;
  Floats4 f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
inline Floats4 oddBf16(Halves8 w) {
  Words4 u;
  std::memcpy(&u, &w, sizeof u);
  u &= 0xffff0000u;
  Floats4 f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

}  // namespace attention::half

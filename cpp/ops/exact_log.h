// exactLog(x): the natural logarithm, bit-identical to the log() that NumPy
// calls on x86-64 Linux (glibc >= 2.28 on a CPU with FMA, i.e. glibc's
// "__log_fma" variant), on every platform, WebAssembly included.
//
// Why: NumPy's legacy randn (polar Box-Muller) computes sqrt(-2 log(r2) / r2)
// with the C library's log(). Emscripten links musl's log, which differs from
// glibc's by one ulp on a few inputs in 100,000, so some normals would differ
// from NumPy's in the last bit. RandomState uses exactLog instead.
//
// Algorithm and constants: ARM's optimized-routines (math/log.c and
// math/log_data.c), which glibc adopted for log() in 2.28:
//   Copyright (c) 2018, Arm Limited.
//   SPDX-License-Identifier: MIT OR Apache-2.0 WITH LLVM-exception
//   https://github.com/ARM-software/optimized-routines
// The table and polynomial coefficients in exact_log.cpp are theirs, unchanged;
// the code is our own C++ rendering of the HAVE_FAST_FMA variant (128-entry
// table, degree-6 polynomial, degree-12 polynomial near 1). glibc compiles that
// C with floating-point contraction, so its x86-64 FMA build fuses further
// multiply-adds; exact_log.cpp spells out exactly the same fusions with a
// correctly rounded fma (std::fma natively, emulatedFma in WebAssembly) and keeps
// every other operation unfused. tests/cpp/test_exact_log.cpp compares the
// result with the system log() bit for bit on over 10 million inputs.
//
// MIT licence of the original (the MIT option of its dual licence):
//   Permission is hereby granted, free of charge, to any person obtaining a copy
//   of this software and associated documentation files (the "Software"), to deal
//   in the Software without restriction, including without limitation the rights
//   to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
//   copies of the Software, and to permit persons to whom the Software is
//   furnished to do so, subject to the following conditions:
//   The above copyright notice and this permission notice shall be included in
//   all copies or substantial portions of the Software.
//   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
//   IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
//   FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
//   AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
//   LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
//   OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
//   SOFTWARE.
#pragma once

#include <cstdint>
#include <cstring>

namespace attention {

// The IEEE-754 bits of a double, and back (exactLog works on them; tests compare with them).
inline std::uint64_t bitsOf(double x) {
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

inline double fromBits(std::uint64_t u) {
  double x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// Two doubles in one register (WebAssembly SIMD128; SSE2 natively), their bits,
// and a lane comparison's result (all ones or zero per lane).
using Double2 = double __attribute__((vector_size(16)));
using Bits2 = std::uint64_t __attribute__((vector_size(16)));
using Mask2 = std::int64_t __attribute__((vector_size(16)));
inline Bits2 bitsOf(Double2 x) { return reinterpret_cast<Bits2>(x); }
inline Double2 fromBits(Bits2 u) { return reinterpret_cast<Double2>(u); }

// Natural logarithm in round-to-nearest, as glibc's FMA log():
// exactLog(1) = +0, exactLog(+-0) = -Infinity, exactLog(+Infinity) = +Infinity,
// NaN for negative x and NaN x (computed as (x - x) / (x - x), like glibc).
// Unlike log() it never sets errno or raises floating-point exception flags.
double exactLog(double x);

// y[i] = exactLog(x[i]) for i < n, the same bits, two at a time in two SIMD
// lanes where both inputs take the main path with an exact k ln2lo (x in
// [2^-15, 2^16), not within 2^-4 of 1: 88% of randn's pairs); n >= 0.
void exactLogs(const double* x, double* y, int n);

// RN(a b + c) with one rounding, computed without an fma instruction (exactLog
// uses it in WebAssembly, which has none). Exact when nothing overflows and
// the product's rounding error is not subnormal (|a|, |b| < 2^995 and a b == 0
// or |a b| >= 2^-968); exact_log.cpp says why and how.
double emulatedFma(double a, double b, double c);

}  // namespace attention

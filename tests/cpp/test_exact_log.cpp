// exactLog against the reference NumPy uses: glibc's log() on x86-64 with FMA
// (what std::log calls here). Every comparison is bit for bit (tolerance 0).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ops/exact_log.h"

using attention::bitsOf;
using attention::exactLog;
using attention::fromBits;

namespace {

// The reference is glibc's FMA variant of log(): only meaningful with glibc on
// an x86-64 CPU with FMA and AVX2 (glibc's ifunc picks its SSE2 build otherwise).
bool referenceAvailable(std::string& why) {
#if defined(__GLIBC__) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  if (__builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2")) return true;
  why = "this CPU lacks FMA/AVX2, so glibc's log() is not the variant NumPy uses on our target";
  return false;
#else
  why = "std::log is not glibc's x86-64 log() here";
  return false;
#endif
}

// Counts inputs whose exactLog differs in any bit from std::log; keeps the first.
struct Tally {
  long compared = 0;
  long different = 0;
  std::string first;

  void check(double x) {
    const double got = exactLog(x);
    const double want = std::log(x);
    ++compared;
    if (bitsOf(got) == bitsOf(want)) return;
    if (different++ == 0) {
      std::ostringstream s;
      s << std::hexfloat << "log(" << x << "): exactLog " << got << ", glibc " << want;
      first = s.str();
    }
  }
};

}  // namespace

TEST_CASE("exactLog is bit-identical to glibc's log() on over 10 million inputs", "[exact_log]") {
  std::string why;
  if (!referenceAvailable(why)) {
    WARN("skipped: " << why);
    return;
  }
  std::mt19937_64 bits(20261121);
  Tally uniform, nearOne, subnormal, powers, anyDouble, boxMuller;

  // randn's r2 = x1^2 + x2^2 lies in (0, 1): uniform in (0, 1] with 53 random bits...
  for (int i = 0; i < 4000000; ++i) {
    uniform.check(static_cast<double>((bits() >> 11) + 1) * 0x1p-53);
  }
  // ...and r2 itself, built exactly as RandomState does (polar method).
  for (int i = 0; i < 1000000; ++i) {
    const double x1 = 2.0 * (static_cast<double>(bits() >> 11) * 0x1p-53) - 1.0;
    const double x2 = 2.0 * (static_cast<double>(bits() >> 11) * 0x1p-53) - 1.0;
    const double r2 = x1 * x1 + x2 * x2;
    if (r2 < 1.0 && r2 != 0.0) boxMuller.check(r2);
  }
  // Near 1 (the separate degree-12 polynomial: 1 - 2^-4 <= x < 1 + 0x1.09p-4) and
  // its edges, plus the neighbours of 1 itself.
  for (int i = 0; i < 2000000; ++i) {
    const double t = static_cast<double>(bits() >> 11) * 0x1p-53;  // [0, 1)
    nearOne.check(0.9 + 0.2 * t);
  }
  for (int d = -2000; d <= 2000; ++d) {
    nearOne.check(fromBits(bitsOf(1.0) + static_cast<std::uint64_t>(d)));
    nearOne.check(fromBits(bitsOf(1.0 - 0x1p-4) + static_cast<std::uint64_t>(d)));
    nearOne.check(fromBits(bitsOf(1.0 + 0x1.09p-4) + static_cast<std::uint64_t>(d)));
  }
  // Subnormals: random mantissas, and the smallest and largest.
  for (int i = 0; i < 500000; ++i) subnormal.check(fromBits(bits() & ((1ULL << 52) - 1)));
  for (std::uint64_t m = 1; m <= 1000; ++m) {
    subnormal.check(fromBits(m));
    subnormal.check(fromBits((1ULL << 52) - m));
  }
  // Every power of two, 2^-1074 ... 2^1023, and its two neighbours.
  for (int e = -1074; e <= 1023; ++e) {
    const double p = std::ldexp(1.0, e);
    powers.check(p);
    powers.check(std::nextafter(p, 0.0));
    powers.check(std::nextafter(p, std::numeric_limits<double>::infinity()));
  }
  // Positive doubles across the whole exponent range (random bit patterns).
  for (int i = 0; i < 3000000; ++i) anyDouble.check(fromBits(bits() >> 1));

  const long total = uniform.compared + boxMuller.compared + nearOne.compared + subnormal.compared +
                     powers.compared + anyDouble.compared;
  INFO(total << " inputs compared with glibc's log()");
  REQUIRE(total >= 10000000);
  const Tally* groups[] = {&uniform, &boxMuller, &nearOne, &subnormal, &powers, &anyDouble};
  const char* names[] = {"uniform (0,1]", "polar r2",      "near 1",
                         "subnormal",     "powers of two", "any positive double"};
  for (int g = 0; g < 6; ++g) {
    INFO(names[g] << ": " << groups[g]->different << " of " << groups[g]->compared
                  << " differ (tolerance 0); first " << groups[g]->first);
    CHECK(groups[g]->different == 0);
  }
}

TEST_CASE("exactLog's special values are glibc's", "[exact_log]") {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // These hold on every platform (IEEE 754 log and glibc's choices).
  CHECK(bitsOf(exactLog(1.0)) == bitsOf(0.0));  // +0, not -0
  CHECK(exactLog(0.0) == -inf);
  CHECK(exactLog(-0.0) == -inf);
  CHECK(exactLog(inf) == inf);
  CHECK(std::isnan(exactLog(-inf)));
  CHECK(std::isnan(exactLog(-1.0)));
  CHECK(std::isnan(exactLog(-0x1p-1074)));
  CHECK(std::isnan(exactLog(nan)));
  CHECK(std::isnan(exactLog(-nan)));
  CHECK(exactLog(2.0) == 0x1.62e42fefa39efp-1);  // ln 2, correctly rounded
  CHECK(exactLog(0x1p-1074) == -0x1.74385446d71c3p+9);

  std::string why;
  if (!referenceAvailable(why)) {
    WARN("bitwise NaN comparison skipped: " << why);
    return;
  }
  // The same bits as glibc, NaN payloads and signs included.
  const double specials[] = {
      0.0,    -0.0,  inf,      -inf,       nan,
      -nan,   -1.0,  -1e-300,  -0x1p-1074, fromBits(0x7ff0000000000001ULL),
      1.0,    2.0,   0.5,      0x1p-1074,  std::numeric_limits<double>::max(),
      1e-310, 1e300, 0x1p-1022};
  for (double x : specials) {
    const double got = exactLog(x), want = std::log(x);
    INFO(std::hexfloat << "log(" << x << "): exactLog " << got << ", glibc " << want);
    CHECK(bitsOf(got) == bitsOf(want));
  }
}

// emulatedFma (what exactLog uses in WebAssembly) against std::fma, which is
// correctly rounded on every conforming platform (hardware FMA or glibc's
// software fma). Tolerance 0: every result must have the same bits.
TEST_CASE("emulatedFma is bit-identical to std::fma in its documented range", "[exact_log]") {
  using attention::emulatedFma;
  std::mt19937_64 rng(20261122);
  long compared = 0, different = 0;
  std::string first;
  auto check = [&](double a, double b, double c) {
    const double got = emulatedFma(a, b, c), want = std::fma(a, b, c);
    ++compared;
    if (bitsOf(got) != bitsOf(want) && !(std::isnan(got) && std::isnan(want))) {
      if (different++ == 0) {
        std::ostringstream text;
        text << std::hexfloat << "fma(" << a << ", " << b << ", " << c << "): " << got << " vs "
             << want;
        first = text.str();
      }
    }
  };
  std::uniform_int_distribution<int> exponent(-400, 400), shift(-60, 60), sign(0, 1);
  std::uniform_int_distribution<std::uint64_t> mantissa(0, (std::uint64_t{1} << 52) - 1);
  auto randomDouble = [&](int e) {
    return (sign(rng) ? -1.0 : 1.0) *
           std::ldexp(1.0 + std::ldexp(static_cast<double>(mantissa(rng)), -52), e);
  };
  for (int i = 0; i < 2000000; ++i) {
    // c near the product's magnitude: cancellation and carries.
    const int ea = exponent(rng), eb = exponent(rng);
    const double a = randomDouble(ea), b = randomDouble(eb);
    check(a, b, randomDouble(ea + eb + shift(rng)));
    check(a, b, -(a * b));  // the product's own rounding error, exactly
    check(a, b, 0.0);
  }
  // Short integers: many exact results, exact halfway cases (ties to even) and sums of 54-55 bits.
  std::uniform_int_distribution<std::int64_t> small(1 << 25, (1 << 27) - 1),
      wide(-(std::int64_t{1} << 54), std::int64_t{1} << 54);
  for (int i = 0; i < 2000000; ++i) {
    const double a = static_cast<double>(small(rng)), b = static_cast<double>(small(rng));
    check(a, b, static_cast<double>(wide(rng)));
    check(a, -b, std::ldexp(1.0, 53 + i % 3) + static_cast<double>(i % 7));
  }
  // The shapes of exactLog's calls: r in [2^-106, 2^-4] times coefficients, k ln2.
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> tiny(-106, -4), k(-1074, 1024);
  for (int i = 0; i < 1000000; ++i) {
    const double r = std::ldexp(unit(rng), tiny(rng));
    check(r, 0x1.555555551305bp-2, -0x1.0000000000001p-1);
    check(r * r * r, unit(rng), std::ldexp(unit(rng), tiny(rng)));
    check(static_cast<double>(k(rng)), 0x1.ef35793c76730p-45, std::ldexp(unit(rng), tiny(rng)));
    check(1.0 + std::ldexp(unit(rng), -2), 0x1.734f0c3e0de9fp+0, -1.0);
  }
  check(0.0, 5.0, -0.0);
  check(-0.0, 5.0, 0.0);
  check(0.0, -5.0, -0.0);
  INFO(compared << " triples compared; " << different << " differ; first " << first);
  CHECK(compared > 10000000);
  CHECK(different == 0);
}

// exactLogs (two lanes at a time, what randn calls) against exactLog, input by
// input: the same bits (tolerance 0) whichever lane an input lands in and
// whatever its neighbour is (main path, near 1, |k| >= 16, specials), for every
// n. exactLog itself is checked against glibc above; so is exactLogs when
// glibc's FMA log() is the reference here.
TEST_CASE("exactLogs gives exactLog's bits for every input, lane and neighbour", "[exact_log]") {
  using attention::exactLogs;
  std::mt19937_64 bits(20261123);
  std::vector<double> x;
  const double inf = std::numeric_limits<double>::infinity();
  const double specials[] = {
      0.0,       -0.0,   inf,          -inf,           std::numeric_limits<double>::quiet_NaN(),
      -1.0,      1.0,    0x1p-15,      0x1p16,         std::nextafter(0x1p-15, 0.0),
      0x1p-1074, 1e-310, 1.0 - 0x1p-4, 1.0 + 0x1.09p-4};
  for (int i = 0; i < 3000000; ++i) {
    const double u = static_cast<double>((bits() >> 11) + 1) * 0x1p-53;  // (0, 1]: randn's r2
    switch (bits() % 8) {
      case 0:
        x.push_back(0.9 + 0.2 * u);  // near 1 and its edges
        break;
      case 1:
        x.push_back(std::ldexp(u, -static_cast<int>(bits() % 40)));  // k beyond -16 too
        break;
      case 2:
        x.push_back(fromBits(bits() >> 1));  // any positive double
        break;
      case 3:
        x.push_back(specials[bits() % (sizeof specials / sizeof specials[0])]);
        break;
      default:
        x.push_back(u);
    }
  }
  std::vector<double> y(x.size());
  exactLogs(x.data(), y.data(), static_cast<int>(x.size()));
  std::string reference;
  const bool glibc = referenceAvailable(reference);
  long different = 0, fromGlibc = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double want = exactLog(x[i]);
    if (bitsOf(y[i]) != bitsOf(want) && different++ == 0) {
      INFO(std::hexfloat << "x[" << i << "] = " << x[i] << ": exactLogs " << y[i] << ", exactLog "
                         << want);
      CHECK(bitsOf(y[i]) == bitsOf(want));
    }
    if (glibc && bitsOf(y[i]) != bitsOf(std::log(x[i]))) ++fromGlibc;
  }
  CHECK(different == 0);
  CHECK(fromGlibc == 0);
  // Every length, odd ones included (the last input alone), and n = 0.
  for (int n = 0; n <= 9; ++n) {
    std::vector<double> out(10, -7.0);
    exactLogs(x.data() + 5, out.data(), n);
    for (int i = 0; i < n; ++i) CHECK(bitsOf(out[i]) == bitsOf(exactLog(x[5 + i])));
    for (int i = n; i < 10; ++i) CHECK(out[i] == -7.0);  // nothing written past n
  }
}

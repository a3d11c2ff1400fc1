// The float32 exp of the float32 softmax (expNonPositive(float), softmax.h)
// against the reference exp(x) computed in double (libm, < 1 double ulp) and
// rounded to float: every float in [-110, -0.25] (subnormal results start at
// x = -87.34, zero at x = -103.97) and every 61st float in (-0.25, 0).
// Tolerance: 2 ulp (counted as floats between the two results, so it is also
// meaningful for subnormals); zero exactly where the reference is zero.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "float32.h"
#include "ops/softmax.h"

using namespace attention;

namespace {

float fromBits(std::uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

std::uint32_t bitsOf(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

float referenceExp(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }

struct Sweep {
  std::int64_t worstUlp = 0;
  float worstX = 0;
  long checked = 0, zeroMismatches = 0, subnormals = 0, zeros = 0;

  void check(float x) {
    const float got = expNonPositive(x), want = referenceExp(x);
    ++checked;
    if ((got == 0.0f) != (want == 0.0f)) ++zeroMismatches;
    if (want == 0.0f) ++zeros;
    if (want != 0.0f && want < std::numeric_limits<float>::min()) ++subnormals;
    const std::int64_t ulp = float32::ulpDistance(got, want);
    if (ulp > worstUlp) {
      worstUlp = ulp;
      worstX = x;
    }
  }
};

}  // namespace

TEST_CASE("float32 exp: within 2 ulp of exp rounded to float, zero exactly where it rounds to 0",
          "[softmax][float32]") {
  Sweep sweep;
  // Negative floats: a larger bit pattern is a more negative number.
  for (std::uint32_t b = bitsOf(-0.25f); b <= bitsOf(-110.0f); ++b) sweep.check(fromBits(b));
  for (std::uint32_t b = bitsOf(-0.0f); b < bitsOf(-0.25f); b += 61) sweep.check(fromBits(b));
  INFO("checked " << sweep.checked << " floats, " << sweep.subnormals << " subnormal and "
                  << sweep.zeros << " zero results; worst " << sweep.worstUlp
                  << " ulp at x = " << sweep.worstX);
  CHECK(sweep.zeroMismatches == 0);
  CHECK(sweep.worstUlp <= 2);
  // The sweep did reach the subnormal and zero ranges.
  CHECK(sweep.subnormals > 1000000);
  CHECK(sweep.zeros > 500000);
}

TEST_CASE("float32 exp: exact points", "[softmax][float32]") {
  CHECK(expNonPositive(0.0f) == 1.0f);
  CHECK(expNonPositive(-0.0f) == 1.0f);
  CHECK(expNonPositive(-std::numeric_limits<float>::infinity()) == 0.0f);
  CHECK(expNonPositive(-std::numeric_limits<float>::max()) == 0.0f);
  CHECK(expNonPositive(-104.0f) == 0.0f);
  // The smallest subnormal, 2^-149, is exp(-103.28); exp(-87) is a normal float
  // (the smallest, 2^-126, is exp(-87.34)).
  CHECK(referenceExp(-103.28f) > 0.0f);
  CHECK(expNonPositive(-103.28f) > 0.0f);
  CHECK(expNonPositive(-87.0f) >= std::numeric_limits<float>::min());
  CHECK(expNonPositive(-88.0f) < std::numeric_limits<float>::min());
  CHECK(expNonPositive(-88.0f) > 0.0f);
}

// The float32 gemm (cpp/ops/gemm.h, the same template as float64) against the
// float64 product of the very same numbers (its naive reference is the plain
// Eigen product, as in test_gemm.cpp), at odd sizes and every transpose and
// update combination; matmulInto's float32 validation.
//
// Tolerance (derived, float32.h): the kernel sums k products in float, each
// accumulator in order, so |C32 - C| <= gammaOf(k + 1) (|C0| + |op(A)| |op(B)|)
// entry by entry (k products and sums, plus the final += for Update::kAdd);
// the float64 reference's own error (k 2^-53) is far below it.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "float32.h"
#include "ops/gemm.h"

using namespace attention;

TEST_CASE("float32 gemm equals the float64 product within gammaOf(k + 1): odd sizes, every case",
          "[gemm][float32]") {
  std::mt19937_64 rng(32);
  // Below, between and above the micro-kernel's 4 rows and the float panel
  // width (8 columns, 16 with AVX), and not multiples of either.
  const std::vector<int> sizes = {1, 3, 17, 129};
  int products = 0;
  for (int m : sizes) {
    for (int n : sizes) {
      for (int k : sizes) {
        for (Trans ta : {Trans::kNo, Trans::kYes}) {
          for (Trans tb : {Trans::kNo, Trans::kYes}) {
            for (Update update : {Update::kSet, Update::kAdd}) {
              const auto a = ta == Trans::kNo ? float32::randomPair(m, k, rng)
                                              : float32::randomPair(k, m, rng);
              const auto b = tb == Trans::kNo ? float32::randomPair(k, n, rng)
                                              : float32::randomPair(n, k, rng);
              const auto c0 = float32::randomPair(m, n, rng);
              Matrix32 c = c0.f;
              gemm(a.f, ta, b.f, tb, c, update);
              const Matrix opA = ta == Trans::kNo ? a.d : Matrix(a.d.transpose());
              const Matrix opB = tb == Trans::kNo ? b.d : Matrix(b.d.transpose());
              Matrix want = opA * opB;  // the reference, in double
              Matrix scale = opA.cwiseAbs() * opB.cwiseAbs();
              if (update == Update::kAdd) {
                want += c0.d;
                scale += c0.d.cwiseAbs();
              }
              const double bound = float32::gammaOf(k + 1);
              double worst = 0;  // largest |error| / (|C0| + |A||B|), in units of the bound
              for (Eigen::Index i = 0; i < want.size(); ++i) {
                const double err = std::abs(double{c.data()[i]} - want.data()[i]);
                worst = std::max(worst, err / (bound * scale.data()[i]));
              }
              INFO(m << "x" << k << " times " << k << "x" << n << ", transA " << (ta == Trans::kYes)
                     << ", transB " << (tb == Trans::kYes) << ", add " << (update == Update::kAdd)
                     << ": worst error " << worst << " x gammaOf(k + 1) (|C0| + |A||B|)");
              REQUIRE(worst <= 1.0);
              ++products;
            }
          }
        }
      }
    }
  }
  CHECK(products == 4 * 4 * 4 * 8);
}

// gemmStreamB (the GPT-2 linear layers' product: up to 64 rows of a per pass over
// the packed B, depth in blocks of 1024 added into c) against the same float64
// product and bound: row counts around the 64 of one pass, depths around one block.
TEST_CASE("float32 gemmStreamB equals the float64 product within gammaOf(k + 1)",
          "[gemm][float32]") {
  std::mt19937_64 rng(64);
  int products = 0;
  for (int m : {1, 5, 64, 67, 130}) {
    for (int k : {0, 3, 1024, 1030, 2100}) {
      for (int n : {1, 9, 20, 45}) {  // groups of 1, 2, 3 panels; 4 + 2
        for (Update update : {Update::kSet, Update::kAdd}) {
          const auto a = float32::randomPair(m, k, rng);
          const auto b = float32::randomPair(k, n, rng);
          const auto c0 = float32::randomPair(m, n, rng);
          std::vector<float> packed;
          packStreamB(Trans::kNo, b.f.data(), n, k, n, packed);
          Matrix32 c = c0.f;
          gemmStreamB(m, n, k, a.f.data(), k, packed.data(), k, c.data(), n, update);
          Matrix want = a.d * b.d;  // the reference, in double
          Matrix scale = a.d.cwiseAbs() * b.d.cwiseAbs();
          if (update == Update::kAdd) {
            want += c0.d;
            scale += c0.d.cwiseAbs();
          }
          const double bound = float32::gammaOf(k + 1);
          double worst = 0;
          for (Eigen::Index i = 0; i < want.size(); ++i) {
            const double err = std::abs(double{c.data()[i]} - want.data()[i]);
            if (err > 0) worst = std::max(worst, err / (bound * scale.data()[i]));
          }
          INFO(m << "x" << k << " times " << k << "x" << n << ", add " << (update == Update::kAdd)
                 << ": worst error " << worst << " x gammaOf(k + 1) (|C0| + |A||B|)");
          REQUIRE(worst <= 1.0);
          ++products;
        }
      }
    }
  }
  CHECK(products == 5 * 5 * 4 * 2);
}

TEST_CASE("float32 matmulInto validates like float64", "[gemm][float32]") {
  Matrix32 a = Matrix32::Ones(2, 3), b = Matrix32::Ones(4, 2), c(2, 2);
  Status s = matmulInto(a, b, c);
  CHECK(s.code == StatusCode::kShapeMismatch);
  CHECK(s.message == "a is 2x3 and b is 4x2; a's columns (3) must equal b's rows (4)");
  Matrix32 b2 = Matrix32::Ones(3, 2);
  b2(1, 1) = std::nanf("");
  s = matmulInto(a, b2, c);
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message == "b[1][1] is NaN; every entry must be a finite number");
  b2(1, 1) = 2;
  REQUIRE(matmulInto(a, b2, c).isOk());
  CHECK(c(0, 0) == 3.0f);
  CHECK(c(1, 1) == 4.0f);
}

// The one matrix product (cpp/ops/gemm.h): the packed SIMD kernel against the
// plain Eigen product as its naive twin (llm.c style) at odd sizes, with every
// transpose and accumulate combination; matmul against NumPy longdouble
// references (tests/fixtures/additive.txt); validation messages.
//
// Tolerance: |C - C_ref| <= 1e-13 * (|C0| + |op(A)| |op(B)|) entry by entry,
// i.e. 1e-13 relative to the magnitude of the terms summed (the standard
// bound is k * 2^-53 times that: 1.4e-14 for k = 129). A plain relative check
// would be meaningless where terms cancel.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "fixtures.h"
#include "ops/gemm.h"

using namespace attention;

namespace {

const fixtures::File& additive() {
  static const fixtures::File file("additive.txt");
  return file;
}

Matrix randomMatrix(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
  return m;
}

// Largest |got - want| / (|c0| + |op(a)| |op(b)|) over the entries.
double maxScaledError(const Matrix& got, const Matrix& want, const Matrix& scale) {
  double worst = 0;
  for (Eigen::Index i = 0; i < got.size(); ++i) {
    const double s = scale.data()[i] > 0 ? scale.data()[i] : 1.0;
    worst = std::max(worst, std::abs(got.data()[i] - want.data()[i]) / s);
  }
  return worst;
}

constexpr double kTolerance = 1e-13;

}  // namespace

TEST_CASE("gemm equals the plain Eigen product: odd sizes, every transpose and update",
          "[gemm][reference]") {
  std::mt19937_64 rng(2024);
  // 1, 3, 17, 129: below, between and above the micro-kernel's 4 rows and the
  // panel width (4 or 8 columns), and not multiples of either.
  const std::vector<int> sizes = {1, 3, 17, 129};
  int products = 0;
  for (int m : sizes) {
    for (int n : sizes) {
      for (int k : sizes) {
        for (Trans ta : {Trans::kNo, Trans::kYes}) {
          for (Trans tb : {Trans::kNo, Trans::kYes}) {
            for (Update update : {Update::kSet, Update::kAdd}) {
              const Matrix a = ta == Trans::kNo ? randomMatrix(m, k, rng) : randomMatrix(k, m, rng);
              const Matrix b = tb == Trans::kNo ? randomMatrix(k, n, rng) : randomMatrix(n, k, rng);
              const Matrix opA = ta == Trans::kNo ? a : Matrix(a.transpose());
              const Matrix opB = tb == Trans::kNo ? b : Matrix(b.transpose());
              const Matrix c0 = randomMatrix(m, n, rng);
              Matrix c = c0;
              gemm(a, ta, b, tb, c, update);
              // The reference: Eigen's plain product (kept only here).
              Matrix want = opA * opB;
              Matrix scale = opA.cwiseAbs() * opB.cwiseAbs();
              if (update == Update::kAdd) {
                want += c0;
                scale += c0.cwiseAbs();
              }
              const double err = maxScaledError(c, want, scale);
              INFO(m << "x" << k << " times " << k << "x" << n << ", transA " << (ta == Trans::kYes)
                     << ", transB " << (tb == Trans::kYes) << ", add " << (update == Update::kAdd)
                     << ": max scaled error " << err);
              CHECK(err <= kTolerance);
              ++products;
            }
          }
        }
      }
    }
  }
  CHECK(products == 512);
}

TEST_CASE("gemm reads strided blocks and writes only its block", "[gemm]") {
  std::mt19937_64 rng(5);
  const Matrix big = randomMatrix(40, 50, rng);
  Matrix out = Matrix::Constant(30, 30, 7.0);
  // (13 x 9) block of big times the transpose of a (11 x 9) block, into a (13 x 11) block.
  const auto a = big.block(2, 3, 13, 9);
  const auto b = big.block(20, 30, 11, 9);
  gemm(a, Trans::kNo, b, Trans::kYes, out.block(5, 6, 13, 11));
  const Matrix want = Matrix(a) * Matrix(b).transpose();
  CHECK(maxScaledError(out.block(5, 6, 13, 11), want,
                       Matrix(a).cwiseAbs() * Matrix(b).cwiseAbs().transpose()) <= kTolerance);
  Matrix untouched = out;
  untouched.block(5, 6, 13, 11).setConstant(7.0);
  CHECK(untouched == Matrix::Constant(30, 30, 7.0));
}

TEST_CASE("gemm with k = 0 sets C to zero or leaves it", "[gemm]") {
  Matrix a(3, 0), b(0, 2), c = Matrix::Ones(3, 2);
  gemm(a, Trans::kNo, b, Trans::kNo, c, Update::kAdd);
  CHECK(c == Matrix::Ones(3, 2));
  gemm(a, Trans::kNo, b, Trans::kNo, c);
  CHECK(c == Matrix::Zero(3, 2));
}

TEST_CASE("matmul matches NumPy longdouble references", "[gemm][fixtures]") {
  const int cases = static_cast<int>(additive().scalar("matmul_cases"));
  REQUIRE(cases == 7);  // make_additive.py writes 7: a loop over none would pass
  for (int i = 0; i < cases; ++i) {
    const std::string p = "matmul" + std::to_string(i) + ".";
    SECTION(p) {
      Matrix out;
      REQUIRE(matmul(additive().matrix(p + "a"), additive().matrix(p + "b"), out).isOk());
      CHECK_CLOSE(out, additive().matrix(p + "out"), 1e-13);
    }
  }
}

TEST_CASE("matmul validation", "[gemm][validation]") {
  Matrix out;
  Status s = matmul(Matrix::Ones(4, 3), Matrix::Ones(2, 3), out);
  CHECK(s.code == StatusCode::kShapeMismatch);
  CHECK(s.message == "a is 4x3 and b is 2x3; a's columns (3) must equal b's rows (2)");
  CHECK(matmul(Matrix(0, 3), Matrix::Ones(3, 3), out).message == "a is empty (0x3)");
  Matrix b = Matrix::Ones(3, 2);
  b(2, 1) = INFINITY;
  s = matmul(Matrix::Ones(4, 3), b, out);
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message == "b[2][1] is Infinity; every entry must be a finite number");
}

TEST_CASE("matmulInto matches Eigen's product for awkward shapes", "[gemm]") {
  std::mt19937_64 rng(11);
  for (const auto& [m, p, n] : std::vector<std::tuple<int, int, int>>{
           {1, 1, 1}, {3, 5, 7}, {4, 4, 4}, {9, 64, 13}, {33, 17, 65}}) {
    const Matrix a = randomMatrix(m, p, rng), b = randomMatrix(p, n, rng);
    Matrix c(m, n);
    REQUIRE(matmulInto(a, b, c).isOk());
    const Matrix want = a * b;
    INFO(m << "x" << p << " times " << p << "x" << n);
    CHECK_CLOSE(c, want, 1e-14);
  }
  Matrix a(2, 3), b(4, 2), c(2, 2);
  a.setOnes();
  b.setOnes();
  CHECK(matmulInto(a, b, c).message ==
        "a is 2x3 and b is 4x2; a's columns (3) must equal b's rows (4)");
  Matrix wrongOut(3, 3);
  CHECK(matmulInto(a, a.transpose(), wrongOut).message == "c is 3x3 but must be 2x2");
}

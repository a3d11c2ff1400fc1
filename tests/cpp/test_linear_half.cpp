// The decoder's kernel paths (cpp/ops/gemm.h, linear.h) against float64 products
// of the very same numbers, the naive reference being the plain Eigen product:
//   gemmStreamB with one row of a   (the one-row kernel over packed panels)
//   gemvHalf, BF16 and F16           (16-bit weights widened in the hot loop)
//   gemmStreamBHalf, BF16 and F16    (16-bit panels widened just before use; one
//                                     row of a widened in registers), also equal
//                                     bit for bit to gemmStreamB on the widened B
//   linearPackedHalfInto             (both layouts packed, and the bias)
// and one row through the one-row kernels equals the same row of a many-row
// product bit for bit (a decoded token gives the forward pass's numbers).
// 16-bit values are drawn as bit patterns and their reference value computed
// from the format's definition (ldexp in double), not by the code under test.
// Tolerance (derived, float32.h): a sum of k products in float, whatever the
// order of its partial sums, is within gammaOf(k + 1) (|C0| + |A| |B|) of the
// exact one, entry by entry (k products and k - 1 sums, plus the += of
// Update::kAdd or the bias).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "float32.h"
#include "ops/gemm.h"
#include "ops/linear.h"

using namespace attention;

namespace {

// The format's definition, in double (normal numbers only are drawn below).
double halfValue(std::uint16_t h, HalfFormat format) {
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (format == HalfFormat::kBF16) {
    return sign * std::ldexp(128 + (h & 0x7f), ((h >> 7) & 0xff) - 134);
  }
  return sign * std::ldexp(1024 + (h & 0x3ff), ((h >> 10) & 0x1f) - 25);
}

// A (rows x cols) 16-bit matrix of random normal numbers with magnitudes in
// [2^-6, 2^2), as stored, and its values in double.
struct HalfMatrix {
  std::vector<std::uint16_t> bits;
  Matrix d;
};

HalfMatrix randomHalves(Eigen::Index rows, Eigen::Index cols, HalfFormat format,
                        std::mt19937_64& rng) {
  std::uniform_int_distribution<int> sign(0, 1), exponent(-6, 1), fraction(0, 1023);
  HalfMatrix m{std::vector<std::uint16_t>(static_cast<std::size_t>(rows * cols)),
               Matrix(rows, cols)};
  for (std::size_t i = 0; i < m.bits.size(); ++i) {
    const int e = exponent(rng), f = fraction(rng);
    const std::uint16_t s = static_cast<std::uint16_t>(sign(rng) << 15);
    m.bits[i] = format == HalfFormat::kBF16
                    ? static_cast<std::uint16_t>(s | ((e + 127) << 7) | (f & 0x7f))
                    : static_cast<std::uint16_t>(s | ((e + 15) << 10) | f);
    m.d.data()[i] = halfValue(m.bits[i], format);
  }
  return m;
}

// Largest |got - want| / (gammaOf(k + 1) scale), entry by entry (1 is the bound).
double worstError(const Matrix32& got, const Matrix& want, const Matrix& scale, Eigen::Index k) {
  const double bound = float32::gammaOf(static_cast<double>(k) + 1);
  double worst = 0;
  for (Eigen::Index i = 0; i < want.size(); ++i) {
    const double err = std::abs(double{got.data()[i]} - want.data()[i]);
    if (err > 0) worst = std::max(worst, err / (bound * scale.data()[i]));
  }
  return worst;
}

const char* nameOf(HalfFormat format) { return format == HalfFormat::kBF16 ? "BF16" : "F16"; }

}  // namespace

TEST_CASE("gemmStreamB's one-row kernel equals the float64 product within gammaOf(k + 1)",
          "[gemm][float32][decode]") {
  std::mt19937_64 rng(1);
  int products = 0;
  for (int k : {0, 1, 2, 3, 7, 576, 1024, 1030, 2100}) {
    for (int n : {1, 8, 9, 20}) {
      for (Update update : {Update::kSet, Update::kAdd}) {
        const auto a = float32::randomPair(1, k, rng);
        const auto b = float32::randomPair(k, n, rng);
        const auto c0 = float32::randomPair(1, n, rng);
        std::vector<float> packed;
        packB(Trans::kNo, b.f.data(), n, k, n, packed);
        Matrix32 c = c0.f;
        gemmStreamB(1, n, k, a.f.data(), k, packed.data(), k, c.data(), n, update);
        Matrix want = a.d * b.d;
        Matrix scale = a.d.cwiseAbs() * b.d.cwiseAbs();
        if (update == Update::kAdd) {
          want += c0.d;
          scale += c0.d.cwiseAbs();
        }
        const double worst = worstError(c, want, scale, k);
        INFO("1x" << k << " times " << k << "x" << n << ", add " << (update == Update::kAdd)
                  << ": worst " << worst << " x gammaOf(k + 1)");
        REQUIRE(worst <= 1.0);
        if (k == 0 && update == Update::kSet) REQUIRE(c.isZero(0));
        ++products;
      }
    }
  }
  CHECK(products == 9 * 4 * 2);
}

TEST_CASE("gemvHalf equals the float64 product of the widened weights within gammaOf(k + 1)",
          "[gemm][half][decode]") {
  std::mt19937_64 rng(2);
  int products = 0;
  for (HalfFormat format : {HalfFormat::kBF16, HalfFormat::kF16}) {
    for (int m : {1, 5, 17, 40}) {
      // around the BF16 loop's 16 weights per step and the F16 path's 16-row blocks
      for (int k : {0, 1, 15, 16, 17, 33, 576, 1030}) {
        const HalfMatrix a = randomHalves(m, k, format, rng);
        const auto x = float32::randomPair(k, 1, rng);
        Matrix32 y = Matrix32::Constant(m, 1, 7.0f);  // overwritten
        gemvHalf(m, k, a.bits.data(), format, k, x.f.data(), y.data());
        const Matrix want = a.d * x.d, scale = a.d.cwiseAbs() * x.d.cwiseAbs();
        const double worst = worstError(y, want, scale, k);
        INFO(nameOf(format) << " " << m << "x" << k << ": worst " << worst << " x gammaOf(k + 1)");
        REQUIRE(worst <= 1.0);
        if (k == 0) REQUIRE(y.isZero(0));
        ++products;
      }
    }
  }
  CHECK(products == 2 * 4 * 8);
}

TEST_CASE("gemmStreamBHalf equals the float64 product within gammaOf(k + 1), and gemmStreamB",
          "[gemm][half][decode]") {
  std::mt19937_64 rng(3);
  int products = 0;
  for (HalfFormat format : {HalfFormat::kBF16, HalfFormat::kF16}) {
    for (Trans tb : {Trans::kNo, Trans::kYes}) {
      // rows: one (the one-row kernels), around one micro-kernel (4) and one pass
      // (64); depths: odd, even, and around one block (1024)
      for (int m : {1, 3, 5, 64, 67, 130}) {
        for (int k : {0, 1, 4, 1030}) {
          for (int n : {1, 9, 20}) {
            for (Update update : {Update::kSet, Update::kAdd}) {
              const auto a = float32::randomPair(m, k, rng);
              const HalfMatrix b = tb == Trans::kNo ? randomHalves(k, n, format, rng)
                                                    : randomHalves(n, k, format, rng);
              const Eigen::Index ldb = tb == Trans::kNo ? n : k;
              const Matrix opB = tb == Trans::kNo ? b.d : Matrix(b.d.transpose());
              const auto c0 = float32::randomPair(m, n, rng);
              std::vector<std::uint16_t> packed;
              packB(tb, b.bits.data(), ldb, k, n, packed);
              Matrix32 c = c0.f;
              gemmStreamBHalf(m, n, k, a.f.data(), k, packed.data(), format, k, c.data(), n,
                              update);
              Matrix want = a.d * opB;
              Matrix scale = a.d.cwiseAbs() * opB.cwiseAbs();
              if (update == Update::kAdd) {
                want += c0.d;
                scale += c0.d.cwiseAbs();
              }
              const double worst = worstError(c, want, scale, k);
              // The float32 path on the same values: packed widened, then gemmStreamB.
              std::vector<float> widened;
              packB(tb, b.bits.data(), format, ldb, k, n, widened);
              Matrix32 same = c0.f;
              gemmStreamB(m, n, k, a.f.data(), k, widened.data(), k, same.data(), n, update);
              INFO(nameOf(format) << " " << m << "x" << k << " times " << k << "x" << n
                                  << ", transB " << (tb == Trans::kYes) << ", add "
                                  << (update == Update::kAdd) << ": worst " << worst
                                  << " x gammaOf(k + 1)");
              REQUIRE(worst <= 1.0);
              REQUIRE(c == same);
              ++products;
            }
          }
        }
      }
    }
  }
  CHECK(products == 2 * 2 * 6 * 4 * 3 * 2);
}

TEST_CASE("gemvHalf gives gemv's result on the widened matrix, bit for bit", "[gemm][half]") {
  std::mt19937_64 rng(5);
  for (HalfFormat format : {HalfFormat::kBF16, HalfFormat::kF16}) {
    const HalfMatrix a = randomHalves(9, 583, format, rng);
    const auto x = float32::randomPair(583, 1, rng);
    std::vector<float> widened(a.bits.size());
    widenHalves(a.bits.data(), a.bits.size(), format, widened.data());
    Matrix32 y(9, 1), same(9, 1);
    gemvHalf(9, 583, a.bits.data(), format, 583, x.f.data(), y.data());
    gemv(9, 583, widened.data(), 583, x.f.data(), same.data());
    INFO(nameOf(format));
    REQUIRE(y == same);
  }
}

TEST_CASE("linearPackedHalfInto equals x W + b in float64, one row and many", "[linear][half]") {
  std::mt19937_64 rng(4);
  const Eigen::Index in = 37, out = 21;
  int products = 0;
  for (HalfFormat format : {HalfFormat::kBF16, HalfFormat::kF16}) {
    for (WeightLayout layout : {WeightLayout::kOutIn, WeightLayout::kInOut}) {
      for (int n : {1, 2, 64}) {
        const bool outIn = layout == WeightLayout::kOutIn;
        const HalfMatrix w =
            outIn ? randomHalves(out, in, format, rng) : randomHalves(in, out, format, rng);
        const Matrix wInOut = outIn ? Matrix(w.d.transpose()) : w.d;
        std::vector<std::uint16_t> packed;  // as a model packs it (checkpoint_model.cpp)
        if (outIn) {
          packB(Trans::kYes, w.bits.data(), in, in, out, packed);
        } else {
          packB(Trans::kNo, w.bits.data(), out, in, out, packed);
        }
        const auto x = float32::randomPair(n, in, rng);
        const auto bias = float32::randomPair(1, out, rng);
        Matrix32 y(n, out);
        linearPackedHalfInto(x.f, packed.data(), format, out, bias.f.data(), y);
        Matrix want = x.d * wInOut, scale = x.d.cwiseAbs() * wInOut.cwiseAbs();
        want.rowwise() += bias.d.row(0);
        scale.rowwise() += bias.d.row(0).cwiseAbs();
        const double worst = worstError(y, want, scale, in);
        INFO(nameOf(format) << ", out x in " << outIn << ", " << n << " rows: worst " << worst
                            << " x gammaOf(in + 1)");
        REQUIRE(worst <= 1.0);
        ++products;
      }
    }
  }
  CHECK(products == 2 * 2 * 3);
}

TEST_CASE("one row of a gives the same bits alone as inside a many-row product",
          "[gemm][half][decode]") {
  std::mt19937_64 rng(6);
  const Eigen::Index m = 6, n = 27;  // panels: 3 whole (one pair and one single) and a partial
  for (int k : {5, 576, 1536}) {     // one depth block, and two (1024 + 512)
    const auto a = float32::randomPair(m, k, rng);
    for (HalfFormat format : {HalfFormat::kBF16, HalfFormat::kF16}) {
      const HalfMatrix b = randomHalves(n, k, format, rng);  // (out x in), as PyTorch stores it
      std::vector<std::uint16_t> halves;
      std::vector<float> floats;
      packB(Trans::kYes, b.bits.data(), k, k, n, halves);
      packB(Trans::kYes, b.bits.data(), format, k, k, n, floats);
      Matrix32 all(m, n), allHalf(m, n);
      gemmStreamB(m, n, k, a.f.data(), k, floats.data(), k, all.data(), n);
      gemmStreamBHalf(m, n, k, a.f.data(), k, halves.data(), format, k, allHalf.data(), n);
      REQUIRE(all == allHalf);
      for (Eigen::Index i = 0; i < m; ++i) {
        Matrix32 row(1, n), rowHalf(1, n);
        gemmStreamB(1, n, k, a.f.data() + i * k, k, floats.data(), k, row.data(), n);
        gemmStreamBHalf(1, n, k, a.f.data() + i * k, k, halves.data(), format, k, rowHalf.data(),
                        n);
        INFO(nameOf(format) << ", k = " << k << ", row " << i);
        REQUIRE(row == all.row(i));
        REQUIRE(rowHalf == all.row(i));
      }
    }
  }
}

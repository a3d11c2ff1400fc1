// The decoder's kernel paths (cpp/ops/gemm.h, linear.h) against float64 products
// of the very same numbers, the naive reference being the plain Eigen product:
//   gemmStreamB with one row of a   (the one-row kernel over packed groups)
//   gemmStreamBHalf, BF16 and F16    (16-bit groups widened just before use; one
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
#include <utility>
#include <vector>

#include "float32.h"
#include "half_matrix.h"
#include "ops/gemm.h"
#include "ops/linear.h"

using namespace attention;
using namespace attention::testing;

namespace {

// The float32 path's packing of the same values: widened, then packStreamB.
void packWidened(Trans tb, const HalfMatrix& b, HalfFormat format, Eigen::Index ldb,
                 Eigen::Index rows, Eigen::Index cols, std::vector<float>& packed) {
  std::vector<float> wide(b.bits.size());
  widenHalves(b.bits.data(), b.bits.size(), format, wide.data());
  packStreamB(tb, wide.data(), ldb, rows, cols, packed);
}

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
        packStreamB(Trans::kNo, b.f.data(), n, k, n, packed);
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
          for (int n : {1, 9, 20, 45}) {  // groups of 1, 2, 3 panels; 4 + 2
            for (Update update : {Update::kSet, Update::kAdd}) {
              const auto a = float32::randomPair(m, k, rng);
              const HalfMatrix b = tb == Trans::kNo ? randomHalves(k, n, format, rng)
                                                    : randomHalves(n, k, format, rng);
              const Eigen::Index ldb = tb == Trans::kNo ? n : k;
              const Matrix opB = tb == Trans::kNo ? b.d : Matrix(b.d.transpose());
              const auto c0 = float32::randomPair(m, n, rng);
              std::vector<std::uint16_t> packed;
              packStreamB(tb, b.bits.data(), ldb, k, n, packed);
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
              packWidened(tb, b, format, ldb, k, n, widened);
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
  CHECK(products == 2 * 2 * 6 * 4 * 4 * 2);
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
          packStreamB(Trans::kYes, w.bits.data(), in, in, out, packed);
        } else {
          packStreamB(Trans::kNo, w.bits.data(), out, in, out, packed);
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
  const Eigen::Index m = 6;
  // panels: 3 whole and a partial (one group of 4); 9 whole and a partial (4 + 4 + 2)
  for (const auto& [k, n] : {std::pair{5, 27}, {576, 27}, {576, 75}, {1536, 75}}) {
    // k: one depth block, and two (1024 + 512)
    const auto a = float32::randomPair(m, k, rng);
    for (HalfFormat format : {HalfFormat::kBF16, HalfFormat::kF16}) {
      const HalfMatrix b = randomHalves(n, k, format, rng);  // (out x in), as PyTorch stores it
      std::vector<std::uint16_t> halves;
      std::vector<float> floats;
      packStreamB(Trans::kYes, b.bits.data(), k, k, n, halves);
      packWidened(Trans::kYes, b, format, k, k, n, floats);
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

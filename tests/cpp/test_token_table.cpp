// The token table (cpp/ops/token_table.h: a decoder's embeddings and tied
// output layer, in groups of 4 rows and chunks of 8 columns) against the table
// as stored: every row read back equals the stored row widened, and the table
// times a vector equals the float64 product of the very same numbers within
// gammaOf(cols + 1) (|W| |x|) entry by entry (half_matrix.h); BF16 and F16
// tables give the float32 table's product bit for bit, and 2 and 4 threads give
// one thread's. Shapes around the layout's edges: rows not a multiple of 4
// (groups of 1, 2, 3), columns not a multiple of 8 (a narrower last chunk).
#include <catch2/catch.hpp>
#include <random>
#include <utility>
#include <vector>

#include "half_matrix.h"
#include "ops/parallel.h"
#include "ops/token_table.h"

using namespace attention;
using namespace attention::testing;

namespace {

const std::pair<int, int> kShapes[] = {{1, 1}, {3, 8}, {5, 13}, {9, 16}, {42, 583}, {64, 576}};

}  // namespace

TEST_CASE("a token table's rows read back as stored, and its product with x is x's",
          "[token_table][half]") {
  std::mt19937_64 rng(11);
  int tables = 0;
  for (const auto& [rows, cols] : kShapes) {
    for (HalfFormat format : {HalfFormat::kBF16, HalfFormat::kF16}) {
      const HalfMatrix t = randomHalves(rows, cols, format, rng);
      std::vector<float> wide(t.bits.size());
      widenHalves(t.bits.data(), t.bits.size(), format, wide.data());
      std::vector<std::uint16_t> packedHalves = t.bits;
      std::vector<float> packedFloats = wide;
      layOutTokenTable(packedHalves.data(), format, rows, cols);
      layOutTokenTable(packedFloats.data(), rows, cols);
      INFO(nameOf(format) << " " << rows << "x" << cols);
      std::vector<float> row(static_cast<std::size_t>(cols)), rowHalf(row.size());
      for (int r = 0; r < rows; ++r) {
        tokenTableRow(packedFloats.data(), rows, cols, r, row.data());
        tokenTableRow(packedHalves.data(), format, rows, cols, r, rowHalf.data());
        const std::vector<float> want(wide.begin() + r * cols, wide.begin() + (r + 1) * cols);
        REQUIRE(row == want);
        REQUIRE(rowHalf == want);
      }
      const auto x = float32::randomPair(cols, 1, rng);
      Matrix32 y = Matrix32::Constant(rows, 1, 7.0f), yHalf = y;  // overwritten
      tokenTableTimes(packedFloats.data(), rows, cols, x.f.data(), y.data());
      tokenTableTimes(packedHalves.data(), format, rows, cols, x.f.data(), yHalf.data());
      const Matrix want = t.d * x.d, scale = t.d.cwiseAbs() * x.d.cwiseAbs();
      const double worst = worstError(y, want, scale, cols);
      INFO("worst " << worst << " x gammaOf(cols + 1)");
      REQUIRE(worst <= 1.0);
      REQUIRE(yHalf == y);
      ++tables;
    }
  }
  CHECK(tables == 6 * 2);
}

TEST_CASE("a token table's product on 2 and 4 threads equals 1 thread exactly",
          "[token_table][parallel]") {
  std::mt19937_64 rng(12);
  const int rows = 4093, cols = 131;  // enough work to split; a last group of 1 row
  const HalfMatrix t = randomHalves(rows, cols, HalfFormat::kBF16, rng);
  std::vector<std::uint16_t> packed = t.bits;
  layOutTokenTable(packed.data(), HalfFormat::kBF16, rows, cols);
  const auto x = float32::randomPair(cols, 1, rng);
  const auto run = [&] {
    std::vector<float> y(rows);
    tokenTableTimes(packed.data(), HalfFormat::kBF16, rows, cols, x.f.data(), y.data());
    return y;
  };
  REQUIRE(setThreadCount(1));
  const std::vector<float> one = run();
  for (int threads : {2, 4}) {
    REQUIRE(setThreadCount(threads));
    REQUIRE(piecesFor(static_cast<double>(rows) * cols, rows / 4) >= 2);
    REQUIRE(run() == one);
  }
  REQUIRE(setThreadCount(1));
}

// The thread pool (cpp/ops/parallel.h) and the kernels that split over it:
// gemm (packed, streamed, plain), gemv and scaled dot-product attention give
// bit-identical results on 2 and 4 threads and on 1 (tolerance 0: each output
// is computed by one thread with the serial kernel, in the serial order), and
// the 1-thread result is checked against the float64 product of the same
// numbers within gammaOf(k + 1) as in test_float32_gemm.cpp.
#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "float32.h"
#include "half_matrix.h"
#include "ops/attention.h"
#include "ops/gemm.h"
#include "ops/parallel.h"

using namespace attention;
using namespace attention::testing;

namespace {

// Runs f() with n threads, then puts the pool back to one.
template <typename F>
auto withThreads(int n, F f) {
  REQUIRE(setThreadCount(n));
  REQUIRE(threadCount() == n);
  auto result = f();
  REQUIRE(setThreadCount(1));
  return result;
}

}  // namespace

TEST_CASE("parallelFor runs every index once on 1, 2 and 4 threads, nested calls serially",
          "[parallel]") {
  REQUIRE(threadsSupported());
  for (int threads : {1, 2, 4}) {
    const auto counts = withThreads(threads, [] {
      std::vector<std::atomic<int>> hits(1000);
      parallelFor(3, 1000, [&](Eigen::Index i) {
        hits[static_cast<std::size_t>(i)]++;
        // A kernel inside a piece: serial, on this thread, and complete.
        std::vector<int> inner(5, 0);
        parallelFor(0, 5, [&](Eigen::Index j) { inner[static_cast<std::size_t>(j)]++; });
        for (int v : inner) REQUIRE(v == 1);
      });
      std::vector<int> out;
      for (auto& h : hits) out.push_back(h.load());
      return out;
    });
    for (int i = 0; i < 1000; ++i) REQUIRE(counts[static_cast<std::size_t>(i)] == (i >= 3 ? 1 : 0));
  }
}

TEST_CASE("parallelFor passes on an exception and setThreadCount refuses bad counts",
          "[parallel]") {
  REQUIRE(setThreadCount(2));
  REQUIRE_THROWS_AS(parallelFor(0, 64,
                                [](Eigen::Index i) {
                                  if (i == 40) throw std::runtime_error("piece 40");
                                }),
                    std::runtime_error);
  // The pool still works after it.
  std::atomic<int> sum{0};
  parallelFor(0, 100, [&](Eigen::Index i) { sum += static_cast<int>(i); });
  REQUIRE(sum == 4950);
  REQUIRE_FALSE(setThreadCount(0));
  REQUIRE_FALSE(setThreadCount(kMaxThreads + 1));
  REQUIRE(threadCount() == 2);
  REQUIRE(setThreadCount(1));
  REQUIRE(piecesFor(1e12, 100) == 1);  // one thread: never split
}

TEST_CASE("gemm, gemmStreamB and gemv on 2 and 4 threads equal 1 thread exactly",
          "[parallel][gemm]") {
  std::mt19937_64 rng(37);
  // A model's shapes, small: 64 tokens, widths not multiples of the panel.
  const Eigen::Index m = 64, k = 301, n = 517;
  const auto a = float32::randomPair(m, k, rng);
  const auto b = float32::randomPair(k, n, rng);
  const auto x = float32::randomPair(1, k, rng);
  const auto wide = float32::randomPair(n, k, rng);  // gemv: (n x k) times x
  std::vector<float> packed;
  packStreamB(Trans::kNo, b.f.data(), n, k, n, packed);

  struct Results {
    Matrix32 plain, transposed, streamed;
    std::vector<float> y;
  };
  const auto run = [&] {
    Results r{Matrix32(m, n), Matrix32(n, m), Matrix32(m, n), std::vector<float>(n)};
    gemm(a.f, Trans::kNo, b.f, Trans::kNo, r.plain);
    gemm(b.f, Trans::kYes, a.f, Trans::kYes, r.transposed);
    gemmStreamB(m, n, k, a.f.data(), k, packed.data(), k, r.streamed.data(), n);
    gemv(n, k, wide.f.data(), k, x.f.data(), r.y.data());
    return r;
  };
  const Results one = withThreads(1, run);
  // The one-thread product against float64 (as test_float32_gemm.cpp).
  const Matrix reference = a.d * b.d;
  const Matrix bound = float32::gammaOf(k + 1) * (a.d.cwiseAbs() * b.d.cwiseAbs());
  REQUIRE(((one.plain.cast<double>() - reference).cwiseAbs().array() <= bound.array()).all());
  REQUIRE(one.streamed == one.plain);
  for (int threads : {2, 4}) {
    // The products are large enough to be cut in a piece per thread or more.
    withThreads(threads, [&] {
      REQUIRE(piecesFor(static_cast<double>(m) * n * k, n) >= threads);
      return 0;
    });
    const Results many = withThreads(threads, run);
    REQUIRE(many.plain == one.plain);
    REQUIRE(many.transposed == one.transposed);
    REQUIRE(many.streamed == one.streamed);
    REQUIRE(many.y == one.y);
  }
}

TEST_CASE("gemmStreamBHalf on 2 and 4 threads equals 1 thread exactly, one row and many",
          "[parallel][gemm][half]") {
  // Pieces of panels that start inside packStreamB's groups of four (n = 517: 65
  // panels); depth in two blocks (1024 + 76).
  std::mt19937_64 rng(38);
  const Eigen::Index k = 1100, n = 517;
  for (HalfFormat format : {HalfFormat::kBF16, HalfFormat::kF16}) {
    const HalfMatrix b = randomHalves(n, k, format, rng);  // (out x in), as PyTorch stores it
    std::vector<std::uint16_t> packed;
    packStreamB(Trans::kYes, b.bits.data(), k, k, n, packed);
    for (Eigen::Index m : {1, 64}) {
      const auto a = float32::randomPair(m, k, rng);
      const auto run = [&] {
        Matrix32 c(m, n);
        gemmStreamBHalf(m, n, k, a.f.data(), k, packed.data(), format, k, c.data(), n);
        return c;
      };
      const Matrix32 one = withThreads(1, run);
      const Matrix want = a.d * b.d.transpose(),
                   scale = a.d.cwiseAbs() * b.d.cwiseAbs().transpose();
      REQUIRE(worstError(one, want, scale, k) <= 1.0);
      for (int threads : {2, 4}) {
        INFO((format == HalfFormat::kBF16 ? "BF16" : "F16")
             << ", " << m << " rows, " << threads << " threads");
        REQUIRE(withThreads(threads, run) == one);
      }
    }
  }
}

TEST_CASE("scaled dot-product attention on 2 and 4 threads equals 1 thread exactly",
          "[parallel][attention]") {
  std::mt19937_64 rng(38);
  const Eigen::Index t = 70, dk = 64;  // 5 row blocks, the last one short
  const auto q = float32::randomPair(t, dk, rng);
  const auto kk = float32::randomPair(t, dk, rng);
  const auto v = float32::randomPair(t, dk, rng);
  for (int window : {0, 9}) {
    AttentionMask32 mask;
    mask.causal = true;
    mask.window = window;
    const auto run = [&] {
      Matrix32 out(t, dk), weights(t, t);
      REQUIRE(
          scaledDotProductAttention(q.f, kk.f, v.f, mask, MatrixOut32(out), MatrixOut32(weights))
              .code == StatusCode::kOk);
      return std::make_pair(out, weights);
    };
    const auto one = withThreads(1, run);
    // Each weights row is a softmax: it sums to 1 (within float32 rounding of t terms).
    for (Eigen::Index i = 0; i < t; ++i)
      REQUIRE(std::abs(one.second.row(i).cast<double>().sum() - 1.0) < 1e-5);
    for (int threads : {2, 4}) {
      // Large enough for the row blocks to go to the pool (attention.cpp's test).
      withThreads(threads, [&] {
        REQUIRE(piecesFor(static_cast<double>(t) * t * (dk + dk), 5) > 1);
        return 0;
      });
      const auto many = withThreads(threads, run);
      REQUIRE(many.first == one.first);
      REQUIRE(many.second == one.second);
    }
  }
}

TEST_CASE("an overflowing score is reported at the same cell on 1 and 4 threads",
          "[parallel][attention]") {
  std::mt19937_64 rng(39);
  const Eigen::Index t = 64, dk = 8;
  auto q = float32::randomPair(t, dk, rng);
  const auto kk = float32::randomPair(t, dk, rng);
  const auto v = float32::randomPair(t, dk, rng);
  // Rows 20 and 50 overflow: the report names row 20 (the first), as serially.
  q.f.row(20).setConstant(3e38f);
  q.f.row(50).setConstant(3e38f);
  AttentionMask32 mask;
  mask.causal = true;
  const auto run = [&] {
    Matrix32 out(t, dk), weights(t, t);
    return scaledDotProductAttention(q.f, kk.f, v.f, mask, MatrixOut32(out), MatrixOut32(weights));
  };
  const Status one = withThreads(1, run);
  const Status four = withThreads(4, run);
  REQUIRE(one.code == StatusCode::kInvalidValue);
  REQUIRE(one.message.find("score (20, ") != std::string::npos);
  REQUIRE(four.code == one.code);
  REQUIRE(four.message == one.message);
}

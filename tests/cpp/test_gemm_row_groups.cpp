// Edge cases of the blocked gemm's row groups (cpp/ops/gemm.cpp: kGroups groups
// of kMicroRows rows packed together, each panel of B read once per pass) and
// of the attention kernel's finiteness probe (cpp/ops/attention.cpp, allFinite:
// a vectorised test before the exact scan), in float32 and float64.
//
// gemm reference: a naive triple loop in int64 over small integer inputs
// (|a|, |b| <= 8, |c0| <= 64, k <= 64): every product and partial sum is an
// integer below 2^24, exact in float and double, so the kernel must match it
// exactly (tolerance 0) whatever order it sums in.
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ops/attention.h"
#include "ops/gemm.h"

using namespace attention;

namespace {

template <typename T>
MatrixOf<T> smallIntegers(Eigen::Index rows, Eigen::Index cols, int limit, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> pick(-limit, limit);
  MatrixOf<T> m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<T>(pick(rng));
  return m;
}

// op(a) (m x k) op(b) (k x n) (+ c0), in int64.
template <typename T>
std::vector<std::int64_t> naiveProduct(const MatrixOf<T>& a, Trans ta, const MatrixOf<T>& b,
                                       Trans tb, const MatrixOf<T>* c0, Eigen::Index m,
                                       Eigen::Index n, Eigen::Index k) {
  std::vector<std::int64_t> c(static_cast<size_t>(m * n));
  for (Eigen::Index i = 0; i < m; ++i) {
    for (Eigen::Index j = 0; j < n; ++j) {
      std::int64_t sum = c0 ? static_cast<std::int64_t>((*c0)(i, j)) : 0;
      for (Eigen::Index t = 0; t < k; ++t) {
        const auto x = static_cast<std::int64_t>(ta == Trans::kNo ? a(i, t) : a(t, i));
        const auto y = static_cast<std::int64_t>(tb == Trans::kNo ? b(t, j) : b(j, t));
        sum += x * y;
      }
      c[static_cast<size_t>(i * n + j)] = sum;
    }
  }
  return c;
}

template <typename T>
void checkEveryRowCount() {
  std::mt19937_64 rng(17);
  // m = 1 .. 40: one partial group, whole passes of 16 rows (4 groups of 4),
  // and last passes with 1, 2 or 3 groups whose last group is partial.
  for (Eigen::Index m = 1; m <= 40; ++m) {
    for (Eigen::Index n : {1, 9}) {        // below and past one panel
      for (Eigen::Index k : {1, 5, 64}) {  // the depth, d = 64 as in the benchmark
        for (Trans ta : {Trans::kNo, Trans::kYes}) {
          for (Update update : {Update::kSet, Update::kAdd}) {
            const auto a =
                ta == Trans::kNo ? smallIntegers<T>(m, k, 8, rng) : smallIntegers<T>(k, m, 8, rng);
            const auto b = smallIntegers<T>(k, n, 8, rng);
            const auto c0 = smallIntegers<T>(m, n, 64, rng);
            MatrixOf<T> c = c0;
            gemm(a, ta, b, Trans::kNo, c, update);
            const auto want = naiveProduct<T>(a, ta, b, Trans::kNo,
                                              update == Update::kAdd ? &c0 : nullptr, m, n, k);
            INFO(m << "x" << k << " times " << k << "x" << n << ", transA " << (ta == Trans::kYes)
                   << ", add " << (update == Update::kAdd));
            for (Eigen::Index i = 0; i < m * n; ++i) {
              REQUIRE(static_cast<std::int64_t>(c.data()[i]) == want[static_cast<size_t>(i)]);
            }
          }
        }
      }
    }
  }
}

// gemmPacked over the first p rows of a B packed with more rows (the causal
// mask's shortened products), m spanning several row groups.
template <typename T>
void checkShortenedDepth() {
  std::mt19937_64 rng(18);
  const Eigen::Index m = 37, n = 11, rows = 20;
  const auto a = smallIntegers<T>(m, rows, 8, rng);
  const auto b = smallIntegers<T>(rows, n, 8, rng);
  std::vector<T> packed;
  packB(Trans::kNo, b.data(), n, rows, n, packed);
  for (Eigen::Index p : {0, 1, 7, 20}) {
    MatrixOf<T> c = MatrixOf<T>::Constant(m, n, T(5));
    gemmPacked(m, n, p, a.data(), rows, packed.data(), rows, c.data(), n);
    const MatrixOf<T> aP = a.leftCols(p), bP = b.topRows(p);
    const auto want = naiveProduct<T>(aP, Trans::kNo, bP, Trans::kNo, nullptr, m, n, p);
    INFO("depth " << p << " of " << rows);
    for (Eigen::Index i = 0; i < m * n; ++i) {
      REQUIRE(static_cast<std::int64_t>(c.data()[i]) == want[static_cast<size_t>(i)]);
    }
  }
}

// Scores of a 7 x 37 attention (37 keys: more than the probe's 8 floats or 4
// doubles per pass, and not a multiple of them), with one query row whose
// score against key `badKey` is ±inf or NaN and finite everywhere else.
template <typename T>
struct Poisoned {
  MatrixOf<T> q, k, v;
};

template <typename T>
Poisoned<T> poisoned(Eigen::Index badRow, Eigen::Index badKey, bool nan) {
  const Eigen::Index nq = 7, nk = 37, d = 2;
  // big * big overflows: float32 1e20 * 1e20 = 1e40 > 3.4e38, float64 1e200 * 1e200.
  T big = T(1e20);
  if constexpr (sizeof(T) == 8) big = T(1e200);
  Poisoned<T> p{MatrixOf<T>::Constant(nq, d, T(0.5)), MatrixOf<T>::Constant(nk, d, T(0.25)),
                MatrixOf<T>::Constant(nk, 3, T(1))};
  p.q.row(badRow) << big, big;
  p.k.row(badKey) << big, (nan ? -big : big);  // inf + (-inf) = NaN, or inf + inf = inf
  // Every other key times the big query row stays finite: big * 0.25 * 2.
  return p;
}

template <typename T>
void checkProbe(const char* type) {
  for (bool nan : {false, true}) {
    for (Eigen::Index badKey : {0, 29, 36}) {  // first, inside a full probe pass, in the tail
      const auto p = poisoned<T>(5, badKey, nan);
      MatrixOf<T> out, w;
      INFO(type << ", key " << badKey << (nan ? ", NaN" : ", inf"));
      const Status s = scaledDotProductAttention(p.q, p.k, p.v, AttentionMaskOf<T>{}, out, w);
      REQUIRE(s.code == StatusCode::kInvalidValue);
      CHECK(s.message.rfind("score (5, " + std::to_string(badKey) + ") of Q·Kᵀ overflows", 0) == 0);
      // Masked: the same score is not used and not an error; the row's other weights are right.
      MatrixOf<T> keep = MatrixOf<T>::Ones(7, 37);
      keep(5, badKey) = 0;
      AttentionMaskOf<T> mask;
      mask.mask.emplace(keep);
      REQUIRE(scaledDotProductAttention(p.q, p.k, p.v, mask, out, w).isOk());
      CHECK(w(5, badKey) == T(0));
      CHECK(w.allFinite());
      // Causal: row 5 uses keys 0 .. 5 only, so a bad key past 5 is ignored.
      AttentionMaskOf<T> causal;
      causal.causal = true;
      CHECK(scaledDotProductAttention(p.q, p.k, p.v, causal, out, w).isOk() == (badKey > 5));
    }
  }
}

}  // namespace

TEST_CASE("gemm row groups: every row count from 1 to 40 is exact on small integers",
          "[gemm][float32]") {
  checkEveryRowCount<float>();
  checkEveryRowCount<double>();
}

TEST_CASE("gemmPacked over a shortened depth and several row groups is exact on small integers",
          "[gemm][float32]") {
  checkShortenedDepth<float>();
  checkShortenedDepth<double>();
}

TEST_CASE("attention's finiteness probe finds inf and NaN scores anywhere in a long row",
          "[attention][overflow][float32]") {
  checkProbe<float>("float32");
  checkProbe<double>("float64");
}

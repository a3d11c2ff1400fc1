// softmaxRowIfFinite (softmax.h), the attention kernel's softmax row: its one
// fused pass scales, masks, takes the maximum and probes for ±inf/NaN. Checked
// against an independent reference (libm's exp in long double on the same
// numbers), in float and double, at sizes that hit every tail of the unrolled
// loops (1, 3, 17, 129 entries; 8 floats or 4 doubles per step), with no mask,
// a 0/1 mask, a causal limit, and a fully masked row; and its refusal of
// non-finite scores, which must leave the row scaled and masked, before any exp.
//
// Tolerance (relative, per weight), from the code: scale = 1/8 is a power of
// two, so scaled scores and their maximum are exact; x - max rounds once (u);
// the exp is within 2 ulp (<= 4u on the value); the sum of n weights
// gammaOf(n + 3) (partial sums, pairwise levels); the reciprocal and the final
// product 2u. For float, u = 2^-24; for double, u = 2^-53:
//   |w - w_ref| <= ((1 + u |x|_max + 4u)(1 + gammaOf(n + 3))(1 + u)^2 - 1) w_ref + 4 * tiny,
// with |x|_max the largest |x - max| of the row and tiny the smallest subnormal.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "ops/attention.h"
#include "ops/softmax.h"

using namespace attention;

namespace {

template <typename T>
struct Limits {
  static constexpr double u = std::numeric_limits<T>::epsilon() / 2;
  static constexpr double tiny = std::numeric_limits<T>::denorm_min();
};

double gammaOf(double k, double u) { return k * u / (1 - k * u); }

// weights of row s (scale applied, mask 0 = excluded, columns >= end excluded), long double libm.
std::vector<long double> reference(const std::vector<double>& s, const std::vector<double>* mask,
                                   std::size_t end, double scale) {
  std::vector<long double> w(s.size(), 0.0L);
  long double max = -INFINITY;
  for (std::size_t j = 0; j < end; ++j) {
    if (mask && (*mask)[j] == 0) continue;
    max = std::max(max, static_cast<long double>(scale * s[j]));
  }
  if (max == -INFINITY) return w;
  long double sum = 0;
  for (std::size_t j = 0; j < end; ++j) {
    if (mask && (*mask)[j] == 0) continue;
    w[j] = std::exp(static_cast<long double>(scale * s[j]) - max);
    sum += w[j];
  }
  for (auto& x : w) x /= sum;
  return w;
}

// Runs softmaxRowIfFinite on row sd (exact in T; mask md if `masked`, columns
// >= end excluded) and returns its worst error as a fraction of the bound
// above; counts weights that should be exactly 0 but are not.
template <typename T>
double rowError(const std::vector<double>& sd, const std::vector<double>& md, bool masked,
                std::size_t end, long& exactZeroMisses) {
  const double u = Limits<T>::u;
  const T scale = T(0.125);
  const std::size_t n = sd.size();
  std::vector<T> s(sd.begin(), sd.end()), m(md.begin(), md.end());
  REQUIRE(softmaxRowIfFinite(s.data(), static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n),
                             static_cast<Eigen::Index>(end), scale, masked ? m.data() : nullptr));
  const auto ref = reference(sd, masked ? &md : nullptr, end, scale);
  long double max = -INFINITY, maxArgument = 0;
  for (std::size_t j = 0; j < end; ++j) {
    if (!(masked && md[j] == 0)) max = std::max(max, static_cast<long double>(scale * sd[j]));
  }
  for (std::size_t j = 0; j < end; ++j) {
    if (!(masked && md[j] == 0)) {
      maxArgument = std::max(maxArgument, max - static_cast<long double>(scale * sd[j]));
    }
  }
  const double delta = (1 + u * static_cast<double>(maxArgument) + 4 * u) *
                           (1 + gammaOf(static_cast<double>(n) + 3, u)) * (1 + u) * (1 + u) -
                       1;
  double worst = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (ref[j] == 0 && (j >= end || (masked && md[j] == 0))) {
      exactZeroMisses += s[j] != T(0);
      continue;
    }
    const double err = std::abs(static_cast<double>(s[j] - ref[j]));
    worst = std::max(worst, err / (delta * static_cast<double>(ref[j]) + 4 * Limits<T>::tiny));
  }
  return worst;
}

template <typename T>
void checkFiniteRows() {
  std::mt19937_64 rng(15);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::bernoulli_distribution keep(0.7);
  double worst = 0;
  long exactZeroMisses = 0;
  for (std::size_t n : {1, 3, 17, 129, 1024}) {
    for (double spread : {1.0, 300.0}) {  // 300: arguments far below the underflow of exp
      for (int variant = 0; variant < 4; ++variant) {  // none, mask, causal limit, all masked
        std::vector<double> sd(n), md(n);
        for (std::size_t j = 0; j < n; ++j) {
          sd[j] = static_cast<double>(static_cast<T>(spread * normal(rng)));  // exact in T
          md[j] = variant == 3 ? 0.0 : keep(rng) || j == 0 ? 1.0 : 0.0;
        }
        const bool masked = variant == 1 || variant == 3;
        const std::size_t end = variant == 2 ? (n + 1) / 2 : n;
        worst = std::max(worst, rowError<T>(sd, md, masked, end, exactZeroMisses));
      }
    }
  }
  INFO("worst error: " << worst << " of the bound");
  CHECK(exactZeroMisses == 0);
  CHECK(worst <= 1.0);
}

// The kernel's exp has two forms (softmax_exp.h): one multiplication by 2^k
// when the row's smallest argument is >= -87 (float) / -708 (double), two
// (subnormal results rounded once) otherwise. Rows whose smallest argument
// sits just above, at and just below that switch, and far below it (subnormal
// and zero weights), at lengths with and without a scalar tail, unmasked and
// masked: both forms within the bound above.
template <typename T>
void checkExpSwitch() {
  const double floor = sizeof(T) == 4 ? -87.0 : -708.0;
  const T below = std::nextafter(static_cast<T>(floor), -std::numeric_limits<T>::infinity());
  const T above = std::nextafter(static_cast<T>(floor), T(0));
  std::mt19937_64 rng(87);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  double worst = 0;
  long exactZeroMisses = 0;
  for (std::size_t n : {16, 17, 129}) {
    for (double smallest : {floor + 0.5, static_cast<double>(above), floor,
                            static_cast<double>(below), floor - 0.5, floor - 16.0, floor - 40.0}) {
      for (bool masked : {false, true}) {
        // Scaled scores (scale 1/8): 0 (the maximum), `smallest`, the rest between.
        std::vector<double> sd(n), md(n, 1.0);
        for (std::size_t j = 0; j < n; ++j) {
          const double scaled = j == 0 ? 0.0 : j == n / 2 ? smallest : smallest * unit(rng);
          sd[j] = 8.0 * static_cast<double>(static_cast<T>(scaled));  // exact in T
          if (masked && j % 5 == 3 && j != n / 2) md[j] = 0.0;
        }
        INFO("n = " << n << ", smallest = " << smallest << ", masked = " << masked);
        worst = std::max(worst, rowError<T>(sd, md, masked, n, exactZeroMisses));
      }
    }
  }
  INFO("worst error: " << worst << " of the bound");
  CHECK(exactZeroMisses == 0);
  CHECK(worst <= 1.0);
}

// A non-finite score at `bad`: false, the row left as scale * s with masked entries -inf.
template <typename T>
void checkRefusal(std::size_t n, std::size_t bad, T value, bool withMask) {
  std::mt19937_64 rng(n * 31 + bad);
  std::normal_distribution<double> normal(0.0, 4.0);
  const T scale = T(0.125);
  std::vector<T> s(n), m(n, T(1));
  for (std::size_t j = 0; j < n; ++j) {
    s[j] = static_cast<T>(normal(rng));
    if (withMask && j % 3 == 1 && j != bad) m[j] = T(0);
  }
  s[bad] = value;
  const std::vector<T> original = s;
  CHECK_FALSE(softmaxRowIfFinite(s.data(), static_cast<Eigen::Index>(n),
                                 static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n), scale,
                                 withMask ? m.data() : nullptr));
  for (std::size_t j = 0; j < n; ++j) {
    INFO("n = " << n << ", j = " << j << ", bad = " << bad);
    if (j == bad) {
      CHECK_FALSE(std::isfinite(s[j]));
    } else if (m[j] == T(0)) {
      CHECK(s[j] == -std::numeric_limits<T>::infinity());
    } else {
      CHECK(s[j] == original[j] * scale);  // exact: scale is a power of two
    }
  }
}

}  // namespace

TEST_CASE("softmaxRowIfFinite equals the long double libm softmax, float and double",
          "[softmax][float32]") {
  checkFiniteRows<float>();
  checkFiniteRows<double>();
}

TEST_CASE("softmaxRowIfFinite: both forms of the exp, around the switch between them",
          "[softmax][float32]") {
  checkExpSwitch<float>();
  checkExpSwitch<double>();
}

TEST_CASE("softmaxRowIfFinite refuses ±inf and NaN before any exp, at every tail position",
          "[softmax][float32]") {
  const float inf32 = std::numeric_limits<float>::infinity();
  const double inf64 = std::numeric_limits<double>::infinity();
  for (std::size_t n : {1, 3, 17, 129}) {
    for (std::size_t bad : {std::size_t{0}, n / 2, n - 1}) {
      for (bool withMask : {false, true}) {
        checkRefusal<float>(n, bad, inf32, withMask);
        checkRefusal<float>(n, bad, -inf32, withMask);
        checkRefusal<float>(n, bad, std::numeric_limits<float>::quiet_NaN(), withMask);
        checkRefusal<double>(n, bad, inf64, withMask);
        checkRefusal<double>(n, bad, std::numeric_limits<double>::quiet_NaN(), withMask);
      }
    }
  }
}

TEST_CASE("softmaxRowIfFinite ignores scores past the causal limit", "[softmax][float32]") {
  // Columns >= end are never read: an overflowed score there is no refusal.
  std::vector<float> s = {1.0f, 2.0f, 3.0f, std::numeric_limits<float>::infinity(), 5.0f};
  REQUIRE(softmaxRowIfFinite(s.data(), 5, 5, 3, 0.125f, nullptr));
  const std::vector<double> sd = {1, 2, 3, 0, 0};
  const auto ref = reference(sd, nullptr, 3, 0.125);
  for (std::size_t j = 0; j < 5; ++j) {
    CHECK(std::abs(static_cast<double>(s[j] - ref[j])) <= 1e-6 * static_cast<double>(ref[j]));
  }
  CHECK(s[3] == 0.0f);
  CHECK(s[4] == 0.0f);
}

TEST_CASE("attention with a masked overflowing score equals attention with a finite one there",
          "[attention][overflow][float32]") {
  // The row whose masked score overflows takes softmaxRowIfFinite's refusal
  // path (the probe sees masked entries too) and is finished from its scaled
  // state; it must give bit for bit what the ordinary path gives when the
  // masked score is finite. 3 queries, 21 keys (tails of the 8-float probe).
  const Eigen::Index nq = 3, nk = 21, d = 2;
  std::mt19937_64 rng(21);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  Matrix32 q(nq, d), k(nk, d), v(nk, 5);
  for (Eigen::Index i = 0; i < q.size(); ++i) q.data()[i] = normal(rng);
  for (Eigen::Index i = 0; i < k.size(); ++i) k.data()[i] = normal(rng);
  for (Eigen::Index i = 0; i < v.size(); ++i) v.data()[i] = normal(rng);
  for (Eigen::Index badKey : {0, 9, 20}) {
    Matrix32 keep = Matrix32::Ones(nq, nk);
    keep(1, badKey) = 0;
    AttentionMask32 mask;
    mask.mask.emplace(keep);
    Matrix32 qBad = q, kBad = k;
    qBad.row(1) << 1e20f, 1e20f;  // row 1 . key badKey = 4e40 overflows float32
    kBad.row(badKey) << 2e20f, 2e20f;
    // The same queries and keys, but key badKey finite against row 1.
    Matrix32 kFinite = kBad;
    kFinite.row(badKey) << 0.0f, 0.0f;
    // Every other key against the big row: finite (|k| < 5, so < 1e21).
    Matrix32 outBad, wBad, outFinite, wFinite;
    INFO("bad key " << badKey);
    REQUIRE(scaledDotProductAttention(qBad, kBad, v, mask, outBad, wBad).isOk());
    REQUIRE(scaledDotProductAttention(qBad, kFinite, v, mask, outFinite, wFinite).isOk());
    CHECK(wBad(1, badKey) == 0.0f);
    CHECK((wBad.row(1).array() == wFinite.row(1).array()).all());
    CHECK((outBad.row(1).array() == outFinite.row(1).array()).all());
  }
}

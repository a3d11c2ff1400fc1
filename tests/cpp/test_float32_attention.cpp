// The float32 path of the one softmax row kernel and the one attention
// (softmax.h, attention.h): float32 results against the float64 kernels run on
// the very same numbers (float32 inputs are exact in double), at odd sizes
// (1, 3, 17, 129 queries/keys; d = 1, 3, 5, 63, 65, not multiples of the 4
// float lanes), with padding masks, causal, both, and fully masked rows.
//
// Tolerances are first-order rounding-error bounds derived from the code
// (u = 2^-24, gammaOf(k) = k u / (1 - k u), float32.h), checked entry by entry:
//  * scores s = scale q.k: |ds| <= E = scale gammaOf(d + 2) sum_t |q_t||k_t|
//    (d products and sums, the rounding of scale = 1/sqrt(d) and of the product);
//  * weights w_j = exp(x_j) / sum exp(x_l), x = s - max s: the argument of exp
//    is off by at most eta = 2 E_max + u |x|_max, the float32 exp adds 2 ulp
//    (<= 4u), the sum of the n exponentials gammaOf(n + 3) (8 partial sums, 3
//    pairwise levels), the reciprocal and the product 2u, so
//    |dw_j| <= delta w_j, 1 + delta = exp(eta + 4u)^2 (1 + gammaOf(n + 3)) (1 + u)^2,
//    plus 4 * 2^-149 absolute for weights in float32's subnormal range;
//  * output o = w V: |do_l| <= (delta + gammaOf(n) (1 + delta)) sum_j w_j |v_jl|.
// Masked weights must be exactly 0 in float32 as in float64.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "float32.h"
#include "ops/attention.h"

using namespace attention;
using float32::gammaOf;
using float32::kUnitRoundoff;

namespace {

constexpr double kSubnormalSlack = 4 * 1.4012984643248171e-45;  // 4 * 2^-149

// The bound's delta for one row (see the file comment).
double weightDelta(double maxScoreError, double maxAbsArgument, Eigen::Index n) {
  const double u = kUnitRoundoff;
  const double eta = 2 * maxScoreError + u * maxAbsArgument + 4 * u;
  return std::exp(2 * eta) * (1 + gammaOf(n + 3)) * (1 + u) * (1 + u) - 1;
}

struct Worst {
  double ratio = 0;  // largest |error| / bound
  void add(double err, double bound) { ratio = std::max(ratio, err / bound); }
};

// delta for row i of the scaled scores (masked entries -Infinity) given the
// bound scoreError on each score's error.
double rowDelta(const Matrix& scores64, const Matrix& scoreError, Eigen::Index i) {
  double maxScore = -std::numeric_limits<double>::infinity(), maxError = 0, maxArgument = 0;
  Eigen::Index allowed = 0;
  for (Eigen::Index j = 0; j < scores64.cols(); ++j) {
    if (!std::isfinite(scores64(i, j))) continue;  // masked
    ++allowed;
    maxScore = std::max(maxScore, scores64(i, j));
    maxError = std::max(maxError, scoreError(i, j));
  }
  for (Eigen::Index j = 0; j < scores64.cols(); ++j) {
    if (std::isfinite(scores64(i, j)))
      maxArgument = std::max(maxArgument, maxScore - scores64(i, j));
  }
  return weightDelta(maxError, maxArgument, std::max<Eigen::Index>(allowed, 1));
}

// Float32 weights w32 against float64 w64 of the same inputs: masked entries
// exactly 0 in both, the others within delta w64 (+ the subnormal slack).
void checkWeights(const Matrix32& w32, const Matrix& w64, const Matrix& scores64,
                  const Matrix& scoreError, Worst& weights, long& zeroMismatches) {
  for (Eigen::Index i = 0; i < w64.rows(); ++i) {
    const double delta = rowDelta(scores64, scoreError, i);
    for (Eigen::Index j = 0; j < w64.cols(); ++j) {
      if (!std::isfinite(scores64(i, j))) {
        if (w32(i, j) != 0.0f || w64(i, j) != 0.0) ++zeroMismatches;
        continue;
      }
      weights.add(std::abs(double{w32(i, j)} - w64(i, j)), delta * w64(i, j) + kSubnormalSlack);
    }
  }
}

// The bound on |o32 - o64| for o = w V, entry by entry: valueMagnitude is |V|
// (plus V's own error bound, for multi-head attention) and valueError an
// absolute error bound on V (zero for plain inputs).
Matrix outputBound(const Matrix& w64, const Matrix& scores64, const Matrix& scoreError,
                   const Matrix& valueMagnitude, const Matrix& valueError) {
  const Eigen::Index nk = w64.cols();
  Matrix bound(w64.rows(), valueMagnitude.cols());
  for (Eigen::Index i = 0; i < w64.rows(); ++i) {
    const double delta = rowDelta(scores64, scoreError, i);
    for (Eigen::Index l = 0; l < bound.cols(); ++l) {
      double magnitude = 0, fromValues = 0;
      for (Eigen::Index j = 0; j < nk; ++j) {
        magnitude += w64(i, j) * valueMagnitude(j, l);
        fromValues += w64(i, j) * valueError(j, l);
      }
      bound(i, l) =
          (delta + gammaOf(nk) * (1 + delta)) * magnitude + fromValues + nk * kSubnormalSlack;
    }
  }
  return bound;
}

// Largest |got - want| / bound over the entries.
double worstRatio(const Matrix32& got, const Matrix& want, const Matrix& bound) {
  return ((got.cast<double>() - want).cwiseAbs().array() / bound.array()).maxCoeff();
}

// Scaled scores in double with masked entries at -Infinity (the reference's view).
Matrix maskedScores(const Matrix& q, const Matrix& k, const Matrix* mask, bool causal) {
  Matrix s = q * k.transpose() / std::sqrt(static_cast<double>(q.cols()));
  for (Eigen::Index i = 0; i < s.rows(); ++i) {
    for (Eigen::Index j = 0; j < s.cols(); ++j) {
      if ((mask && (*mask)(i, j) == 0.0) || (causal && j > i)) {
        s(i, j) = -std::numeric_limits<double>::infinity();
      }
    }
  }
  return s;
}

// A 0/1 mask, about 70% ones; row 0 fully masked when there are several rows.
float32::Pair randomMask(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng) {
  std::bernoulli_distribution keep(0.7);
  float32::Pair m{Matrix32(rows, cols), Matrix(rows, cols)};
  for (Eigen::Index i = 0; i < rows; ++i) {
    for (Eigen::Index j = 0; j < cols; ++j) {
      const bool on = !(rows > 1 && i == 0) && keep(rng);
      m.f(i, j) = on ? 1.0f : 0.0f;
      m.d(i, j) = on ? 1.0 : 0.0;
    }
  }
  return m;
}

}  // namespace

TEST_CASE("float32 softmax row equals float64 within the derived bound, masks and causal limit",
          "[softmax][float32]") {
  std::mt19937_64 rng(7);
  Worst weights;
  long zeroMismatches = 0;
  for (int n : {1, 3, 7, 8, 9, 17, 129, 1000}) {
    for (double spread : {1.0, 30.0}) {  // 30: arguments down to -100s, float32 underflow
      for (int variant = 0; variant < 3; ++variant) {  // none, mask, causal limit
        auto s = float32::randomPair(1, n, rng, spread);
        auto m = randomMask(1, n, rng);
        const Eigen::Index end = variant == 2 ? (n + 1) / 2 : n;
        const float* mask32 = variant == 1 ? m.f.data() : nullptr;
        const double* mask64 = variant == 1 ? m.d.data() : nullptr;
        Matrix32 w32 = s.f;
        Matrix w64 = s.d;
        softmaxRow(w32.data(), n, n, end, 0.5f, mask32);
        softmaxRow(w64.data(), n, n, end, 0.5, mask64);
        double maxScore = -std::numeric_limits<double>::infinity(), maxArgument = 0;
        Eigen::Index allowed = 0;
        for (Eigen::Index j = 0; j < end; ++j) {
          if (mask64 && mask64[j] == 0.0) continue;
          ++allowed;
          maxScore = std::max(maxScore, 0.5 * s.d(0, j));
        }
        for (Eigen::Index j = 0; j < end; ++j) {
          if (!(mask64 && mask64[j] == 0.0)) {
            maxArgument = std::max(maxArgument, maxScore - 0.5 * s.d(0, j));
          }
        }
        // The scores are exact; scaling by 0.5 is exact too: E = 0.
        const double delta = weightDelta(0, maxArgument, std::max<Eigen::Index>(allowed, 1));
        for (Eigen::Index j = 0; j < n; ++j) {
          const bool masked = j >= end || (mask64 && mask64[j] == 0.0);
          if (masked) {
            if (w32(0, j) != 0.0f || w64(0, j) != 0.0) ++zeroMismatches;
          } else {
            weights.add(std::abs(double{w32(0, j)} - w64(0, j)),
                        delta * w64(0, j) + kSubnormalSlack);
          }
        }
      }
    }
  }
  INFO("worst weight error: " << weights.ratio << " of the bound");
  CHECK(zeroMismatches == 0);
  CHECK(weights.ratio <= 1.0);
}

TEST_CASE("float32 scaled dot-product attention equals float64 within the derived bound",
          "[transformer][float32]") {
  std::mt19937_64 rng(2026);
  Worst weights, outputs;
  long zeroMismatches = 0;
  int runs = 0;
  for (int nq : {1, 3, 17, 129}) {
    for (int nk : {1, 3, 17, 129}) {
      for (int d : {1, 3, 5, 63, 65}) {
        for (int variant = 0; variant < 4; ++variant) {    // none, mask, causal, both
          const double spread = variant == 3 ? 4.0 : 1.0;  // 4: peaked rows, tiny weights
          const int dv = d == 1 ? 3 : d + 2;
          auto q = float32::randomPair(nq, d, rng, spread);
          auto k = float32::randomPair(nk, d, rng, spread);
          auto v = float32::randomPair(nk, dv, rng);
          auto m = randomMask(nq, nk, rng);
          const bool useMask = variant == 1 || variant == 3, causal = variant >= 2;
          AttentionMask32 mask32;
          AttentionMask mask64;
          mask32.causal = mask64.causal = causal;
          if (useMask) {
            mask32.mask.emplace(m.f);
            mask64.mask.emplace(m.d);
          }
          Matrix32 o32, w32;
          Matrix o64, w64;
          REQUIRE(scaledDotProductAttention(q.f, k.f, v.f, mask32, o32, w32).isOk());
          REQUIRE(scaledDotProductAttention(q.d, k.d, v.d, mask64, o64, w64).isOk());
          const Matrix scores = maskedScores(q.d, k.d, useMask ? &m.d : nullptr, causal);
          const Matrix scoreError = gammaOf(d + 2) / std::sqrt(static_cast<double>(d)) *
                                    (q.d.cwiseAbs() * k.d.cwiseAbs().transpose());
          checkWeights(w32, w64, scores, scoreError, weights, zeroMismatches);
          outputs.ratio = std::max(outputs.ratio,
                                   worstRatio(o32, o64,
                                              outputBound(w64, scores, scoreError, v.d.cwiseAbs(),
                                                          Matrix::Zero(nk, dv))));
          ++runs;
        }
      }
    }
  }
  INFO(runs << " runs; worst weight error " << weights.ratio << ", worst output error "
            << outputs.ratio << " of the bound");
  CHECK(zeroMismatches == 0);
  CHECK(weights.ratio <= 1.0);
  CHECK(outputs.ratio <= 1.0);
  CHECK(runs == 4 * 4 * 5 * 4);
}

TEST_CASE("float32 attention scores equal float64 within gammaOf(d + 2) scale sum |q||k|",
          "[transformer][float32]") {
  std::mt19937_64 rng(5);
  for (int d : {1, 3, 5, 63, 65}) {
    auto q = float32::randomPair(17, d, rng);
    auto k = float32::randomPair(3, d, rng);
    for (bool scaled : {false, true}) {
      Matrix32 s32(17, 3);
      Matrix s64(17, 3);
      REQUIRE(attentionScores(q.f, k.f, scaled, s32).isOk());
      REQUIRE(attentionScores(q.d, k.d, scaled, s64).isOk());
      const double scale = scaled ? 1.0 / std::sqrt(static_cast<double>(d)) : 1.0;
      const Matrix bound = gammaOf(d + 2) * scale * (q.d.cwiseAbs() * k.d.cwiseAbs().transpose());
      const double worst =
          ((s32.cast<double>() - s64).cwiseAbs().array() / bound.array()).maxCoeff();
      INFO("d = " << d << ", scaled " << scaled << ": worst " << worst << " of the bound");
      CHECK(worst <= 1.0);
    }
  }
}

TEST_CASE("float32 multi-head attention equals float64 within the derived bound",
          "[transformer][float32]") {
  // The bound adds the projections' errors: |dX| <= gammaOf(d_model + 1) (|x||W| + |b|)
  // for X = Q, K, V; the scores' error gains scale (dQ |K|^T + |Q| dK^T + dQ dK^T);
  // the heads' outputs gain sum_j w_j dV_jl; the output projection adds
  // dConcat |Wo| + gammaOf(d_model + 1) ((|concat| + dConcat) |Wo| + |bo|).
  std::mt19937_64 rng(512);
  struct Case {
    int nq, nk, dModel, heads;
    bool causal, mask, bias;
  };
  const std::vector<Case> cases = {
      {1, 1, 4, 1, false, false, false},   {3, 17, 12, 3, false, true, true},
      {17, 17, 20, 4, true, false, true},  {17, 3, 10, 5, false, false, false},
      {129, 129, 24, 8, true, true, true}, {5, 9, 65, 13, false, true, true}};
  for (const Case& c : cases) {
    const double ws = 1.0 / std::sqrt(static_cast<double>(c.dModel));
    auto q = float32::randomPair(c.nq, c.dModel, rng), k = float32::randomPair(c.nk, c.dModel, rng),
         v = float32::randomPair(c.nk, c.dModel, rng);
    auto wq = float32::randomPair(c.dModel, c.dModel, rng, ws),
         wk = float32::randomPair(c.dModel, c.dModel, rng, ws),
         wv = float32::randomPair(c.dModel, c.dModel, rng, ws),
         wo = float32::randomPair(c.dModel, c.dModel, rng, ws);
    auto bq = float32::randomPair(c.dModel, 1, rng), bk = float32::randomPair(c.dModel, 1, rng),
         bv = float32::randomPair(c.dModel, 1, rng), bo = float32::randomPair(c.dModel, 1, rng);
    auto m = randomMask(c.nq, c.nk, rng);
    // Views straight into the biases' storage (a Ref over a strided column would own a copy).
    auto opt32 = [&](const float32::Pair& b) {
      return c.bias
                 ? std::optional<VectorView32>(Eigen::Map<const Vector32>(b.f.data(), b.f.size()))
                 : std::nullopt;
    };
    auto opt64 = [&](const float32::Pair& b) {
      return c.bias ? std::optional<VectorView>(Eigen::Map<const Vector>(b.d.data(), b.d.size()))
                    : std::nullopt;
    };
    const MultiHeadParams32 p32{c.heads,   wq.f,      wk.f,      wv.f,     wo.f,
                                opt32(bq), opt32(bk), opt32(bv), opt32(bo)};
    const MultiHeadParams p64{c.heads,   wq.d,      wk.d,      wv.d,     wo.d,
                              opt64(bq), opt64(bk), opt64(bv), opt64(bo)};
    AttentionMask32 mask32;
    AttentionMask mask64;
    mask32.causal = mask64.causal = c.causal;
    if (c.mask) {
      mask32.mask.emplace(m.f);
      mask64.mask.emplace(m.d);
    }
    Matrix32 o32, w32;
    Matrix o64, w64;
    REQUIRE(multiHeadAttention(q.f, k.f, v.f, p32, mask32, o32, w32).isOk());
    REQUIRE(multiHeadAttention(q.d, k.d, v.d, p64, mask64, o64, w64).isOk());

    // The float64 intermediates and the projections' error bounds.
    const double gp = gammaOf(c.dModel + 1);
    auto project = [&](const float32::Pair& x, const float32::Pair& w, const float32::Pair& b) {
      Matrix y = x.d * w.d;
      if (c.bias) y.rowwise() += b.d.col(0).transpose();
      return y;
    };
    auto projectionError = [&](const float32::Pair& x, const float32::Pair& w,
                               const float32::Pair& b) {
      Matrix e = x.d.cwiseAbs() * w.d.cwiseAbs();
      if (c.bias) e.rowwise() += b.d.col(0).cwiseAbs().transpose();
      return Matrix(gp * e);
    };
    const Matrix Q = project(q, wq, bq), K = project(k, wk, bk), V = project(v, wv, bv);
    const Matrix EQ = projectionError(q, wq, bq), EK = projectionError(k, wk, bk),
                 EV = projectionError(v, wv, bv);
    const Eigen::Index dk = c.dModel / c.heads;
    const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
    Worst weights;
    long zeroMismatches = 0;
    Matrix concat64(c.nq, c.dModel), concatError(c.nq, c.dModel);
    for (int h = 0; h < c.heads; ++h) {
      const Eigen::Index c0 = h * dk;
      const Matrix Qh = Q.middleCols(c0, dk), Kh = K.middleCols(c0, dk), Vh = V.middleCols(c0, dk);
      const Matrix EQh = EQ.middleCols(c0, dk), EKh = EK.middleCols(c0, dk),
                   EVh = EV.middleCols(c0, dk);
      const Matrix scores = maskedScores(Qh, Kh, c.mask ? &m.d : nullptr, c.causal);
      const Matrix scoreError =
          scale * (EQh * Kh.cwiseAbs().transpose() + Qh.cwiseAbs() * EKh.transpose() +
                   EQh * EKh.transpose() +
                   gammaOf(dk + 2) * (Qh.cwiseAbs() + EQh) * (Kh.cwiseAbs() + EKh).transpose());
      // Head h's float64 weights from the float64 kernel, and its output w V.
      const Matrix wh = w64.middleRows(h * c.nq, c.nq);
      const Matrix oh = wh * Vh;
      checkWeights(w32.middleRows(h * c.nq, c.nq), wh, scores, scoreError, weights, zeroMismatches);
      // The heads' float32 outputs are not returned: their bound enters the output's.
      concatError.middleCols(c0, dk) =
          outputBound(wh, scores, scoreError, Vh.cwiseAbs() + EVh, EVh);
      concat64.middleCols(c0, dk) = oh;
    }
    Matrix outBound = concatError * wo.d.cwiseAbs() +
                      gp * ((concat64.cwiseAbs() + concatError) * wo.d.cwiseAbs());
    if (c.bias) outBound.rowwise() += gp * bo.d.col(0).cwiseAbs().transpose();
    const double worstOut = worstRatio(o32, o64, outBound);
    INFO(c.nq << " queries, " << c.nk << " keys, d_model " << c.dModel << ", " << c.heads
              << " heads, causal " << c.causal << ", mask " << c.mask << ": worst weight error "
              << weights.ratio << ", worst output error " << worstOut << " of the bound");
    CHECK(zeroMismatches == 0);
    CHECK(weights.ratio <= 1.0);
    CHECK(worstOut <= 1.0);
  }
}

TEST_CASE("float32 attention validates like float64", "[transformer][float32]") {
  Matrix32 q = Matrix32::Ones(2, 3), k = Matrix32::Ones(4, 2), v = Matrix32::Ones(4, 2), o, w;
  Status s = scaledDotProductAttention(q, k, v, AttentionMask32{}, o, w);
  CHECK(s.code == StatusCode::kShapeMismatch);
  CHECK(
      s.message ==
      "Q has 3 columns but K has 2 (Q is 2x3, K is 4x2); queries and keys need the same size d_k");
  Matrix32 k3 = Matrix32::Ones(4, 3), mask = Matrix32::Ones(2, 4);
  mask(1, 2) = 2;
  AttentionMask32 m;
  m.mask.emplace(mask);
  s = scaledDotProductAttention(q, k3, v, m, o, w);
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message.rfind("mask[1][2] is 2", 0) == 0);
  v(3, 1) = std::numeric_limits<float>::infinity();
  s = scaledDotProductAttention(q, k3, v, AttentionMask32{}, o, w);
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message == "V[3][1] is Infinity; every entry must be a finite number");
}

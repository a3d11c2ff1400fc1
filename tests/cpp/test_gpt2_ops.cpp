// GPT-2's ops (cpp/ops/layer_norm.h, gelu.h, token_position_embedding.h)
// against NumPy (tests/fixtures/gpt2_ops.txt, make_gpt2_ops.py), in float64
// and in float32 on the same float32-representable inputs.
// Tolerances, |got - want| / max(1, |want|): float64 1e-13 (a few roundings of
// d <= 48 terms); float32 2e-6 (about 30 u, u = 2^-24: the rounded normalised
// value times gamma plus beta, and float tanh/erf within 2 ulp).
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "fixtures.h"
#include "float32.h"
#include "ops/gelu.h"
#include "ops/gemm.h"
#include "ops/layer_norm.h"
#include "ops/token_position_embedding.h"

using namespace attention;

namespace {

const fixtures::File& ref() {
  static const fixtures::File file("gpt2_ops.txt");
  return file;
}

Matrix32 toFloat(const Matrix& m) { return m.cast<float>(); }
Matrix toDouble(const Matrix32& m) { return m.cast<double>(); }

}  // namespace

TEST_CASE("layer norm matches NumPy in float64 and float32", "[gpt2][layer_norm][fixture]") {
  for (const std::string name : {"small", "wide", "eps"}) {
    INFO(name);
    const std::string p = "layer_norm." + name + ".";
    const Matrix& x = ref().matrix(p + "x");
    const Vector gamma = ref().vector(p + "gamma"), beta = ref().vector(p + "beta");
    const double eps = ref().scalar(p + "eps");
    Matrix y;
    REQUIRE(layerNorm(x, gamma, beta, eps, y).isOk());
    CHECK_CLOSE(y, ref().matrix(p + "y"), 1e-13);
    Matrix32 y32;
    const Vector32 g32 = gamma.cast<float>(), b32 = beta.cast<float>();
    REQUIRE(layerNorm(toFloat(x), g32, b32, static_cast<float>(eps), y32).isOk());
    CHECK_CLOSE(toDouble(y32), ref().matrix(p + "y"), 2e-6);
  }
}

TEST_CASE("layer norm: epsilon matters and validation names the arguments",
          "[gpt2][layer_norm][validation]") {
  const Matrix x = (Matrix(2, 3) << 1, 2, 3, -1, 0, 4).finished();
  Matrix small, large;
  REQUIRE(layerNorm(x, Vector::Ones(3), Vector::Zero(3), 1e-5, small).isOk());
  REQUIRE(layerNorm(x, Vector::Ones(3), Vector::Zero(3), 1.0, large).isOk());
  CHECK(std::abs(small(0, 0)) > std::abs(large(0, 0)) + 0.1);
  Matrix y;
  CHECK(layerNorm(x, Vector::Ones(4), Vector::Zero(3), 1e-5, y).message ==
        "gamma has 4 entries but x has 3 columns (x is 2x3)");
  CHECK(layerNorm(x, Vector::Ones(3), Vector::Zero(2), 1e-5, y).message ==
        "beta has 2 entries but x has 3 columns (x is 2x3)");
  CHECK(layerNorm(x, Vector::Ones(3), Vector::Zero(3), 0.0, y).code == StatusCode::kInvalidValue);
}

TEST_CASE("GELU, tanh and erf forms, match NumPy", "[gpt2][gelu][fixture]") {
  const Vector x = ref().vector("gelu.x");
  for (const auto& [form, key] : {std::pair<GeluForm, const char*>{GeluForm::kTanh, "gelu.tanh"},
                                  {GeluForm::kErf, "gelu.erf"}}) {
    INFO(key);
    Vector y = x;
    geluInPlace(y.data(), static_cast<std::size_t>(y.size()), form);
    CHECK_CLOSE(y, ref().vector(key), 1e-14);
    Vector32 y32 = x.cast<float>();
    geluInPlace(y32.data(), static_cast<std::size_t>(y32.size()), form);
    CHECK_CLOSE(Vector(y32.cast<double>()), ref().vector(key), 2e-6);
  }
  // The two forms differ (by up to ~1e-3 near |x| = 2): a test that swapped them would fail.
  CHECK_FALSE(fixtures::maxRelativeDifference(ref().vector("gelu.tanh"), ref().vector("gelu.erf")) <
              1e-4);
}

// The float tanh form runs on vectors (sigmoid and the softmax's exp, gelu.h); its
// reference is the formula in double (std::tanh) at the same float inputs, and the
// naive float kernel it replaced (geluReferenceInPlace). 20,483 inputs in [-10, 10]
// (steps of 2^-10, the tail of a length that is not a multiple of 4) and out to +-1e30.
TEST_CASE("GELU tanh form, vector kernel: within 3e-7 of the formula in double", "[gpt2][gelu]") {
  std::vector<float> x;
  for (int i = -10 * 1024; i <= 10 * 1024; ++i) x.push_back(static_cast<float>(i) / 1024.0f);
  for (float big : {1e3f, 1e6f, 1e15f, 1e30f, -1e3f, -1e6f, -1e15f, -1e30f}) x.push_back(big);
  x.push_back(-0.0f);
  x.push_back(0.1f);  // length 20,490: a tail of 2
  const Eigen::Index n = static_cast<Eigen::Index>(x.size());
  Vector exact = Eigen::Map<const Vector32>(x.data(), n).cast<double>();
  geluReferenceInPlace(exact.data(), static_cast<std::size_t>(n), GeluForm::kTanh);
  Vector32 fast = Eigen::Map<const Vector32>(x.data(), n);
  geluInPlace(fast.data(), static_cast<std::size_t>(n), GeluForm::kTanh);
  Vector32 naive = Eigen::Map<const Vector32>(x.data(), n);
  geluReferenceInPlace(naive.data(), static_cast<std::size_t>(n), GeluForm::kTanh);
  // |got - want| / max(1, |want|): relative above 1, absolute below.
  CHECK_CLOSE(Vector(fast.cast<double>()), exact, 3e-7);
  CHECK_CLOSE(Vector(naive.cast<double>()), exact, 1e-6);  // the kernel it replaced
  // Relative too, where the sigmoid factor gelu(x) / x is >= 1e-6 (below that the double
  // formula's own 1 + tanh(u) loses more than 1e-10): the sigmoid form does not cancel for
  // x << 0 as 1 + tanh(u) does in float.
  double worst = 0, worstNaive = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    if (x[i] == 0 || std::abs(exact[i]) < 1e-6 * std::abs(x[i])) continue;
    worst = std::max(worst, std::abs(fast[i] - exact[i]) / std::abs(exact[i]));
    worstNaive = std::max(worstNaive, std::abs(naive[i] - exact[i]) / std::abs(exact[i]));
  }
  INFO("max relative error: vector kernel " << worst << ", naive float " << worstNaive);
  CHECK(worst < 3e-6);       // measured 1.5e-6: the rounding of u in float, times |u|
  CHECK(worstNaive > 1e-3);  // (the naive form's cancellation: a test that compared it would fail)
  CHECK(std::signbit(fast[n - 2]));  // gelu(-0) = -0
  CHECK(fast[n - 3 - 4] == 1e30f);   // gelu(x) = x for large x
}

TEST_CASE("token + position embeddings match NumPy, ids are checked",
          "[gpt2][embedding][fixture]") {
  const Matrix& wte = ref().matrix("embedding.wte");
  const Matrix& wpe = ref().matrix("embedding.wpe");
  const Vector idsD = ref().vector("embedding.ids");
  std::vector<int> ids(idsD.data(), idsD.data() + idsD.size());
  Matrix x(ids.size(), 4);
  REQUIRE(tokenPositionEmbedding(wte, wpe, ids, x).isOk());
  CHECK(x == ref().matrix("embedding.x"));  // one addition each: exact
  Matrix32 x32(ids.size(), 4);
  REQUIRE(tokenPositionEmbedding(toFloat(wte), toFloat(wpe), ids, x32).isOk());
  CHECK_CLOSE(toDouble(x32), ref().matrix("embedding.x"), 1e-7);

  std::vector<int> bad = {1, 7};
  Matrix y(2, 4);
  CHECK(tokenPositionEmbedding(wte, wpe, bad, y).message == "ids[1] = 7 is not a row of wte (7x4)");
  std::vector<int> longIds(6, 0);
  Matrix z(6, 4);
  CHECK(tokenPositionEmbedding(wte, wpe, longIds, z).message ==
        "ids has 6 tokens, outside 1 .. the rows of wpe (5x4)");
}

TEST_CASE("gemv (the logits' matrix-vector product) matches a float64 product within gamma(k)",
          "[gpt2][gemv]") {
  std::mt19937_64 rng(25);
  // k = 77: not a multiple of the 16-float unrolled step, so the tail runs too.
  for (const Eigen::Index k : {Eigen::Index{77}, Eigen::Index{768}}) {
    const float32::Pair a = float32::randomPair(301, k, rng), x = float32::randomPair(1, k, rng);
    Vector32 y(301);
    gemv(301, k, a.f.data(), k, x.f.data(), y.data());
    const Vector want = a.d * x.d.transpose();
    const Vector bound = a.d.cwiseAbs() * x.d.transpose().cwiseAbs();
    for (Eigen::Index i = 0; i < 301; ++i) {
      INFO("row " << i << " k " << k);
      CHECK(std::abs(y[i] - want[i]) <= float32::gammaOf(static_cast<double>(k)) * bound[i]);
    }
    Vector yd(301);
    gemv(301, k, a.d.data(), k, x.d.data(), yd.data());
    CHECK_CLOSE(yd, want, 1e-13);
  }
}

// The concat score (Bahdanau's w2^T tanh(W1^T [h_i; s]), cpp/ops/attention.h):
// the article's printed numbers (seed 42) and NumPy longdouble references
// (tests/fixtures/additive.txt). matmul's cases in that file: test_gemm.cpp.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "fixtures.h"
#include "ops/attention.h"
#include "ops/random_state.h"

using namespace attention;

namespace {

const fixtures::File& additive() {
  static const fixtures::File file("additive.txt");
  return file;
}

// The article: np.random.seed(42), then its four randn draws in order.
struct ArticleDraws {
  Matrix encoderStates, decoderState, W1, w2;
};
ArticleDraws articleDraws(std::uint32_t seed, int n, int h, int a) {
  RandomState rs(seed);
  ArticleDraws d;
  REQUIRE(rs.randn(n, h, d.encoderStates).isOk());
  REQUIRE(rs.randn(1, h, d.decoderState).isOk());
  REQUIRE(rs.randn(2 * h, a, d.W1).isOk());
  REQUIRE(rs.randn(a, 1, d.w2).isOk());
  return d;
}

Vector asVector(const Matrix& m) { return Eigen::Map<const Vector>(m.data(), m.size()); }

}  // namespace

TEST_CASE("article: seed 42 scores [4.35790943 5.92373433 4.18673175 2.11437202 0.95767155]",
          "[additive][article]") {
  const ArticleDraws d = articleDraws(42, 5, 16, 10);
  Vector scores;
  REQUIRE(
      concatScores(d.encoderStates, asVector(d.decoderState), d.W1, asVector(d.w2), scores).isOk());
  const double printed[] = {4.35790943, 5.92373433, 4.18673175, 2.11437202, 0.95767155};
  REQUIRE(scores.size() == 5);
  for (int i = 0; i < 5; ++i) {
    INFO("score " << i << " = " << scores[i]);
    CHECK(std::abs(scores[i] - printed[i]) <= 5e-9);  // printed to 8 decimals
  }
}

TEST_CASE("article: seed 42 context vector matches the 16 printed numbers", "[additive][article]") {
  const ArticleDraws d = articleDraws(42, 5, 16, 10);
  ConcatAttentionSteps out;
  REQUIRE(
      concatAttention(d.encoderStates, asVector(d.decoderState), d.W1, asVector(d.w2), out).isOk());
  const double printed[] = {-0.63514569, 0.04917298,  -0.43930867, -0.9268003,
                            1.01903919,  -0.43181409, 0.13365099,  -0.84746874,
                            -0.37572203, 0.18279832,  -0.90452701, 0.17872958,
                            -0.58015282, -0.58294027, -0.75457577, 1.32985756};
  REQUIRE(out.context.size() == 16);
  for (int i = 0; i < 16; ++i) {
    INFO("context " << i << " = " << out.context[i]);
    CHECK(std::abs(out.context[i] - printed[i]) <= 5e-9);
  }
  CHECK(out.inputs.rows() == 5);
  CHECK(out.inputs.cols() == 32);
  CHECK(out.activations.rows() == 5);
  CHECK(out.activations.cols() == 10);
}

TEST_CASE("RandomState draws the fixture's inputs exactly", "[additive][random]") {
  const int cases = static_cast<int>(additive().scalar("cases"));
  REQUIRE(cases == 7);  // make_additive.py writes 7: a loop over none would pass
  for (int i = 0; i < cases; ++i) {
    const std::string p = "case" + std::to_string(i) + ".";
    const Vector config = additive().vector(p + "config");
    const ArticleDraws d =
        articleDraws(static_cast<std::uint32_t>(config[0]), static_cast<int>(config[1]),
                     static_cast<int>(config[2]), static_cast<int>(config[3]));
    INFO(p);
    CHECK(d.encoderStates == additive().matrix(p + "encoder_states"));
    CHECK(asVector(d.decoderState) == additive().vector(p + "decoder_state"));
    CHECK(d.W1 == additive().matrix(p + "W1"));
    CHECK(asVector(d.w2) == additive().vector(p + "w2"));
  }
}

TEST_CASE("every step matches NumPy longdouble references", "[additive][fixtures]") {
  const int cases = static_cast<int>(additive().scalar("cases"));
  REQUIRE(cases >= 5);
  for (int i = 0; i < cases; ++i) {
    const std::string p = "case" + std::to_string(i) + ".";
    SECTION(p) {
      const Matrix enc = additive().matrix(p + "encoder_states");
      const Vector dec = additive().vector(p + "decoder_state");
      const Matrix W1 = additive().matrix(p + "W1");
      const Vector w2 = additive().vector(p + "w2");
      ConcatAttentionSteps out;
      REQUIRE(concatAttention(enc, dec, W1, w2, out).isOk());
      CHECK(out.inputs == additive().matrix(p + "inputs"));  // a copy: exact
      CHECK_CLOSE(out.activations, additive().matrix(p + "activations"), 1e-13);
      CHECK_CLOSE(out.scores, additive().vector(p + "scores"), 1e-12);
      CHECK_RELATIVE(out.weights, additive().vector(p + "weights"), 1e-11);
      CHECK_CLOSE(out.weighted, additive().matrix(p + "weighted"), 1e-12);
      CHECK_CLOSE(out.context, additive().vector(p + "context"), 1e-12);
      Vector scores;
      REQUIRE(concatScores(enc, dec, W1, w2, scores).isOk());
      CHECK(scores == out.scores);
    }
  }
}

TEST_CASE("additive validation names the argument and the shapes", "[additive][validation]") {
  const ArticleDraws d = articleDraws(42, 5, 16, 10);
  const Vector dec = asVector(d.decoderState), w2 = asVector(d.w2);
  Vector scores;
  Status s = concatScores(d.encoderStates, dec.head(15), d.W1, w2, scores);
  CHECK(s.code == StatusCode::kShapeMismatch);
  CHECK(s.message ==
        "decoderState has 15 entries but encoderStates has 16 columns "
        "(encoderStates is 5x16)");
  s = concatScores(d.encoderStates, dec, d.W1.topRows(30), w2, scores);
  CHECK(s.message ==
        "W1 has 30 rows but needs 2 x hidden = 32 (W1 is 30x10, encoderStates is "
        "5x16)");
  s = concatScores(d.encoderStates, dec, d.W1, w2.head(9), scores);
  CHECK(s.message == "w2 has 9 entries but W1 has 10 columns (W1 is 32x10)");
  s = concatScores(Matrix(0, 16), dec, d.W1, w2, scores);
  CHECK(s.message == "encoderStates is empty (0x16)");
  Matrix bad = d.W1;
  bad(3, 4) = std::nan("");
  s = concatScores(d.encoderStates, dec, bad, w2, scores);
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message == "W1[3][4] is NaN; every entry must be a finite number");
}

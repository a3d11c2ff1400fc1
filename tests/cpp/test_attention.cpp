// Attention (cpp/ops/attention.h): scaled dot-product and multi-head attention
// against NumPy longdouble references (tests/fixtures/transformer.txt), against
// a textbook Eigen formulation on larger random inputs, the error paths; then
// each score function (pairwise additive against tests/fixtures/embeddings.txt,
// dot / scaled dot / general) and weights . V. The concat score:
// test_attention_concat.cpp.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "fixtures.h"
#include "ops/attention.h"

using namespace attention;

namespace {

const fixtures::File& ref() {
  static const fixtures::File file("transformer.txt");
  return file;
}

bool has(const std::string& key) {
  try {
    ref().matrix(key);
    return true;
  } catch (const std::runtime_error&) {
    return false;
  }
}

// Masked and underflowed weights must be exactly 0 and only those: checks the
// zero pattern and the relative error of every weight above 1e-300 (a plain
// |d| <= 1e-12 check would accept Eigen's clamped exp(-781) ~ 1e-308).
void checkWeightsExactly(const Matrix& got, const Matrix& want) {
  REQUIRE(got.rows() == want.rows());
  REQUIRE(got.cols() == want.cols());
  int zeroMismatch = 0;
  for (Eigen::Index i = 0; i < got.size(); ++i) {
    if ((got.data()[i] == 0.0) != (want.data()[i] == 0.0)) ++zeroMismatch;
  }
  INFO("entries where exactly one of got/want is 0: " << zeroMismatch);
  CHECK(zeroMismatch == 0);
  CHECK_CLOSE(got, want, 1e-12);
  CHECK_DIFF_(got, want, 1e-12, 1e-300);
}

const std::vector<std::string> kSdpaCases = {"small",
                                             "one",
                                             "rect",
                                             "tall",
                                             "wide",
                                             "padding",
                                             "causal",
                                             "causal_rect",
                                             "causal_long",
                                             "random_mask",
                                             "random_mask_causal",
                                             "all_masked",
                                             "saturated",
                                             "underflow",
                                             "saturated_masked"};

const std::vector<std::string> kMhaCases = {"small", "cross", "causal", "one_head", "large"};

AttentionMask maskOf(const std::string& prefix, Matrix& storage) {
  AttentionMask mask;
  mask.causal = ref().scalar(prefix + ".causal") != 0.0;
  if (has(prefix + ".mask")) {
    storage = ref().matrix(prefix + ".mask");
    mask.mask.emplace(storage);
  }
  return mask;
}

Matrix randomMatrix(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng, double scale = 1) {
  std::normal_distribution<double> normal(0.0, scale);
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
  return m;
}

// softmax(q k^T / sqrt(d_k)) v written out with Eigen and libm's exp.
void textbookAttention(const Matrix& q, const Matrix& k, const Matrix& v, bool causal, Matrix& out,
                       Matrix& w) {
  w = q * k.transpose() / std::sqrt(static_cast<double>(q.cols()));
  for (Eigen::Index i = 0; i < w.rows(); ++i) {
    const Eigen::Index end = causal ? std::min<Eigen::Index>(i + 1, w.cols()) : w.cols();
    const double max = w.row(i).head(end).maxCoeff();
    for (Eigen::Index j = 0; j < w.cols(); ++j) w(i, j) = j < end ? std::exp(w(i, j) - max) : 0.0;
    w.row(i) /= w.row(i).sum();
  }
  out = w * v;
}

}  // namespace

TEST_CASE("scaled dot-product attention matches the NumPy references", "[transformer][fixture]") {
  for (const std::string& name : kSdpaCases) {
    const std::string p = "sdpa." + name;
    SECTION(name) {
      Matrix maskStorage, out, weights;
      const AttentionMask mask = maskOf(p, maskStorage);
      REQUIRE(scaledDotProductAttention(ref().matrix(p + ".Q"), ref().matrix(p + ".K"),
                                        ref().matrix(p + ".V"), mask, out, weights)
                  .isOk());
      CHECK_CLOSE(out, ref().matrix(p + ".output"), 1e-12);
      checkWeightsExactly(weights, ref().matrix(p + ".weights"));
    }
  }
}

TEST_CASE("a query with nothing to attend gets zero weights and a zero output, not NaN",
          "[transformer]") {
  Matrix q(2, 2), k(3, 2), v(3, 2), mask(2, 3), out, weights;
  q << 1, 2, 3, 4;
  k << 1, 0, 0, 1, 1, 1;
  v << 1, 2, 3, 4, 5, 6;
  mask << 0, 0, 0, 1, 0, 1;
  AttentionMask m;
  m.mask.emplace(mask);
  REQUIRE(scaledDotProductAttention(q, k, v, m, out, weights).isOk());
  CHECK(weights.row(0).isZero(0));
  CHECK(out.row(0).isZero(0));
  CHECK(weights(1, 1) == 0.0);
  CHECK(weights(1, 0) + weights(1, 2) == Approx(1.0).epsilon(1e-15));
  CHECK(out.allFinite());
}

TEST_CASE("the causal flag alone equals an explicit lower-triangular mask", "[transformer]") {
  std::mt19937_64 rng(7);
  const Matrix q = randomMatrix(19, 6, rng), k = randomMatrix(23, 6, rng),
               v = randomMatrix(23, 5, rng);
  Matrix tril = Matrix::Zero(19, 23);
  for (int i = 0; i < 19; ++i) tril.row(i).head(i + 1).setOnes();
  AttentionMask causal, explicitMask;
  causal.causal = true;
  explicitMask.mask.emplace(tril);
  Matrix out1, w1, out2, w2;
  REQUIRE(scaledDotProductAttention(q, k, v, causal, out1, w1).isOk());
  REQUIRE(scaledDotProductAttention(q, k, v, explicitMask, out2, w2).isOk());
  CHECK_CLOSE(out1, out2, 1e-15);
  CHECK_CLOSE(w1, w2, 1e-15);
  CHECK(w1(0, 1) == 0.0);
  CHECK(w1(0, 0) == 1.0);
}

TEST_CASE("larger random inputs match the textbook Eigen formulation", "[transformer]") {
  std::mt19937_64 rng(1706);
  for (const auto& [nq, nk, d, causal] : std::vector<std::tuple<int, int, int, bool>>{
           {300, 300, 64, false}, {257, 130, 33, false}, {129, 129, 64, true}, {64, 1, 3, false}}) {
    const Matrix q = randomMatrix(nq, d, rng, 2), k = randomMatrix(nk, d, rng, 2),
                 v = randomMatrix(nk, d, rng);
    Matrix out, w, wantOut, wantW;
    AttentionMask mask;
    mask.causal = causal;
    REQUIRE(scaledDotProductAttention(q, k, v, mask, out, w).isOk());
    textbookAttention(q, k, v, causal, wantOut, wantW);
    INFO("n_q = " << nq << ", n_k = " << nk << ", d = " << d << ", causal = " << causal);
    CHECK_CLOSE(out, wantOut, 1e-12);
    CHECK_CLOSE(w, wantW, 1e-12);
    CHECK((w.rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-14);
  }
}

TEST_CASE("outputs are written in place into caller buffers (Eigen::Map)", "[transformer]") {
  std::mt19937_64 rng(3);
  const Matrix q = randomMatrix(5, 4, rng), k = randomMatrix(6, 4, rng),
               v = randomMatrix(6, 3, rng);
  std::vector<double> outBuffer(5 * 3, -1.0), weightBuffer(5 * 6, -1.0);
  AttentionMask none;
  REQUIRE(scaledDotProductAttention(q, k, v, none, MatrixMap(outBuffer.data(), 5, 3),
                                    MatrixMap(weightBuffer.data(), 5, 6))
              .isOk());
  Matrix out, w;
  REQUIRE(scaledDotProductAttention(q, k, v, none, out, w).isOk());
  CHECK(ConstMatrixMap(outBuffer.data(), 5, 3) == out);
  CHECK(ConstMatrixMap(weightBuffer.data(), 5, 6) == w);
  // A wrongly sized output is refused before anything is written.
  std::vector<double> small(4, -1.0);
  const Status s = scaledDotProductAttention(q, k, v, none, MatrixMap(small.data(), 2, 2),
                                             MatrixMap(weightBuffer.data(), 5, 6));
  CHECK(s.code == StatusCode::kShapeMismatch);
  CHECK(s.message == "output is 2x2 but must be 5x3");
  CHECK(small == std::vector<double>(4, -1.0));
}

TEST_CASE("scaled dot-product attention reports bad input by name and shape", "[transformer]") {
  Matrix q = Matrix::Ones(2, 3), k = Matrix::Ones(4, 3), v = Matrix::Ones(4, 2), out, w;
  AttentionMask none;
  SECTION("d_k disagrees") {
    const Status s = scaledDotProductAttention(q, Matrix::Ones(4, 2), v, none, out, w);
    CHECK(s.code == StatusCode::kShapeMismatch);
    CHECK(s.message ==
          "Q has 3 columns but K has 2 (Q is 2x3, K is 4x2); queries and keys need the same size "
          "d_k");
  }
  SECTION("keys and values disagree") {
    const Status s = scaledDotProductAttention(q, k, Matrix::Ones(5, 2), none, out, w);
    CHECK(s.code == StatusCode::kShapeMismatch);
    CHECK(s.message == "K has 4 rows but V has 5 (K is 4x3, V is 5x2); every key needs one value");
  }
  SECTION("empty") {
    const Status s = scaledDotProductAttention(Matrix(0, 3), k, v, none, out, w);
    CHECK(s.code == StatusCode::kShapeMismatch);
    CHECK(s.message == "Q is empty (0x3)");
  }
  SECTION("NaN") {
    k(1, 2) = std::numeric_limits<double>::quiet_NaN();
    const Status s = scaledDotProductAttention(q, k, v, none, out, w);
    CHECK(s.code == StatusCode::kInvalidValue);
    CHECK(s.message == "K[1][2] is NaN; every entry must be a finite number");
  }
  SECTION("mask shape") {
    const Matrix m = Matrix::Ones(4, 2);
    AttentionMask mask;
    mask.mask.emplace(m);
    const Status s = scaledDotProductAttention(q, k, v, mask, out, w);
    CHECK(s.code == StatusCode::kShapeMismatch);
    CHECK(s.message == "mask is 4x2 but must be 2x4 (queries x keys)");
  }
  SECTION("mask values") {
    Matrix m = Matrix::Ones(2, 4);
    m(1, 3) = 0.5;
    AttentionMask mask;
    mask.mask.emplace(m);
    const Status s = scaledDotProductAttention(q, k, v, mask, out, w);
    CHECK(s.code == StatusCode::kInvalidValue);
    CHECK(s.message ==
          "mask[1][3] is 0.500000; mask entries must be 0 (may not attend) or 1 (may attend)");
  }
}

TEST_CASE("multi-head attention matches the NumPy references", "[transformer][fixture]") {
  for (const std::string& name : kMhaCases) {
    const std::string p = "mha." + name;
    SECTION(name) {
      const auto bias = [&](const char* b) -> std::optional<VectorView> {
        if (!has(p + "." + b)) return std::nullopt;
        return VectorView(Eigen::Map<const Vector>(ref().matrix(p + "." + b).data(),
                                                   ref().matrix(p + "." + b).size()));
      };
      const int heads = static_cast<int>(ref().scalar(p + ".heads"));
      const MultiHeadParams params{heads,
                                   ref().matrix(p + ".Wq"),
                                   ref().matrix(p + ".Wk"),
                                   ref().matrix(p + ".Wv"),
                                   ref().matrix(p + ".Wo"),
                                   bias("bq"),
                                   bias("bk"),
                                   bias("bv"),
                                   bias("bo")};
      Matrix maskStorage, out, weights;
      const AttentionMask mask = maskOf(p, maskStorage);
      REQUIRE(multiHeadAttention(ref().matrix(p + ".Q"), ref().matrix(p + ".K"),
                                 ref().matrix(p + ".V"), params, mask, out, weights)
                  .isOk());
      CHECK_CLOSE(out, ref().matrix(p + ".output"), 1e-12);
      const Eigen::Index nq = ref().matrix(p + ".Q").rows();
      REQUIRE(weights.rows() == heads * nq);
      for (int h = 0; h < heads; ++h) {
        INFO("head " << h);
        checkWeightsExactly(weights.middleRows(h * nq, nq),
                            ref().matrix(p + ".weights." + std::to_string(h)));
      }
    }
  }
}

TEST_CASE("multi-head attention reports bad parameters", "[transformer]") {
  const Matrix x = Matrix::Ones(3, 6), w = Matrix::Identity(6, 6);
  Matrix out, weights;
  AttentionMask none;
  SECTION("heads does not divide d_model") {
    const MultiHeadParams p{4, w, w, w, w, {}, {}, {}, {}};
    const Status s = multiHeadAttention(x, x, x, p, none, out, weights);
    CHECK(s.code == StatusCode::kShapeMismatch);
    CHECK(s.message ==
          "heads = 4 does not divide d_model = 6 (Q is 3x6); each head needs d_model / heads "
          "columns");
  }
  SECTION("no heads") {
    const MultiHeadParams p{0, w, w, w, w, {}, {}, {}, {}};
    const Status s = multiHeadAttention(x, x, x, p, none, out, weights);
    CHECK(s.code == StatusCode::kInvalidValue);  // a value, not a type: RangeError in JS
    CHECK(s.message == "heads is 0 but must be at least 1");
  }
  SECTION("a projection of the wrong shape") {
    const Matrix wk = Matrix::Ones(6, 5);
    const MultiHeadParams p{2, w, wk, w, w, {}, {}, {}, {}};
    CHECK(multiHeadAttention(x, x, x, p, none, out, weights).message ==
          "Wk is 6x5 but must be 6x6 (d_model x d_model)");
  }
  SECTION("a bias of the wrong size") {
    const Vector b = Vector::Ones(5);
    const MultiHeadParams p{2, w, w, w, w, {}, {}, {}, VectorView(b)};
    CHECK(multiHeadAttention(x, x, x, p, none, out, weights).message ==
          "bo has 5 entries but must have d_model = 6");
  }
  SECTION("Q, K, V of different widths") {
    const MultiHeadParams p{2, w, w, w, w, {}, {}, {}, {}};
    CHECK(multiHeadAttention(x, Matrix::Ones(3, 4), x, p, none, out, weights).message ==
          "Q, K and V must have the same number of columns d_model, but Q is 3x6, K is 3x4 and V "
          "is 3x6");
  }
}

// ---- score functions, one by one ------------------------------------------------------------

namespace {

const fixtures::File& embeddingsRef() {
  static const fixtures::File file("embeddings.txt");
  return file;
}

}  // namespace

TEST_CASE("pairwise additive scores match the NumPy references, with their tanhs",
          "[attention][scores][fixture]") {
  for (const std::string p : {"random0", "random1", "random2"}) {
    INFO(p);
    const Matrix qp = embeddingsRef().matrix(p + ".additive.qp");
    const Matrix kp = embeddingsRef().matrix(p + ".additive.kp");
    const Vector ws = embeddingsRef().vector(p + ".additive.ws");
    const double bs = embeddingsRef().scalar(p + ".additive.bs");
    Matrix scores(qp.rows(), kp.rows()), tanhs;
    pairwiseAdditiveScoresInto(qp, kp, ws, bs, scores, &tanhs);
    CHECK_CLOSE(scores, embeddingsRef().matrix(p + ".additive.scores"), 1e-12);
    REQUIRE(tanhs.rows() == qp.rows() * kp.rows());
    for (Eigen::Index i = 0; i < qp.rows(); ++i) {
      for (Eigen::Index j = 0; j < kp.rows(); ++j) {
        for (Eigen::Index c = 0; c < qp.cols(); ++c) {
          CHECK(tanhs(i * kp.rows() + j, c) == std::tanh(qp(i, c) + kp(j, c)));
        }
      }
    }
  }
}

TEST_CASE("dot, scaled dot and general scores against the Eigen formulas", "[attention][scores]") {
  std::mt19937_64 rng(3);
  const Matrix q = randomMatrix(7, 5, rng), k = randomMatrix(9, 5, rng),
               w = randomMatrix(5, 5, rng);
  Matrix scores(7, 9), projected(7, 5);
  dotScoresInto(q, k, scores);
  CHECK_CLOSE(scores, Matrix(q * k.transpose()), 1e-14);
  REQUIRE(attentionScores(q, k, true, scores).isOk());
  CHECK_CLOSE(scores, Matrix(q * k.transpose() / std::sqrt(5.0)), 1e-14);
  generalScoresInto(q, w, k, projected, scores);
  CHECK_CLOSE(projected, Matrix(q * w), 1e-14);
  CHECK_CLOSE(scores, Matrix(q * w * k.transpose()), 1e-13);
  // General with the identity is the dot score, bit for bit.
  Matrix dot(7, 9);
  dotScoresInto(q, k, dot);
  generalScoresInto(q, Matrix::Identity(5, 5), k, projected, scores);
  CHECK(scores == dot);
}

TEST_CASE("weightsTimesValues is weights . V, the one-query forms agree with it",
          "[attention][weights]") {
  std::mt19937_64 rng(8);
  const Matrix weights = randomMatrix(4, 6, rng), values = randomMatrix(6, 3, rng);
  Matrix out(4, 3);
  weightsTimesValues(weights, values, out);
  CHECK_CLOSE(out, Matrix(weights * values), 1e-14);
  Vector context;
  REQUIRE(weightedSum(weights.row(2).transpose(), values, context).isOk());
  for (int c = 0; c < 3; ++c) CHECK(context[c] == out(2, c));
}

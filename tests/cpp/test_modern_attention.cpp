// Online-softmax attention (cpp/ops/online_softmax_attention.h) and grouped-
// query multi-head attention (cpp/ops/attention.h, kvHeads) against the NumPy
// float64 references of tests/fixtures/modern_attention.txt
// (make_modern_attention.py), their error paths, and online == one-pass; the
// rotary embedding (cpp/ops/rope.h) and the sliding window against the same file.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "fixtures.h"
#include "ops/attention.h"
#include "ops/online_softmax_attention.h"
#include "ops/rope.h"

using namespace attention;

namespace {

const fixtures::File& ref() {
  static const fixtures::File file("modern_attention.txt");
  return file;
}

VectorView vectorOf(const std::string& key) {
  const Matrix& m = ref().matrix(key);
  return VectorView(Eigen::Map<const Vector>(m.data(), m.size()));
}

Matrix randomMatrix(std::mt19937_64& gen, Eigen::Index rows, Eigen::Index cols) {
  std::normal_distribution<double> normal;
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = normal(gen);
  return m;
}

}  // namespace

TEST_CASE("online softmax attention matches NumPy: output, m and l after each block",
          "[online_softmax]") {
  const Matrix &q = ref().matrix("online.Q"), &k = ref().matrix("online.K"),
               &v = ref().matrix("online.V");
  for (const int block : {1, 3, 7, 10}) {
    for (const bool causal : {false, true}) {
      const std::string p = "online.b" + std::to_string(block) + (causal ? "c" : "n");
      SECTION(p) {
        const Eigen::Index blocks = onlineSoftmaxBlocks(k.rows(), block);
        Matrix out(q.rows(), v.cols()), m(q.rows(), blocks), l(q.rows(), blocks);
        REQUIRE(onlineSoftmaxAttention(q, k, v, block, causal, out, m, l).isOk());
        CHECK_RELATIVE(m, ref().matrix(p + ".max"), 1e-13);  // -inf must match exactly
        CHECK_RELATIVE(l, ref().matrix(p + ".sum"), 1e-13);
        CHECK_CLOSE(out, ref().matrix(p + ".output"), 1e-13);
      }
    }
  }
}

TEST_CASE("online softmax attention equals scaled dot-product attention", "[online_softmax]") {
  std::mt19937_64 gen(33);
  for (const bool causal : {false, true}) {
    const Matrix q = randomMatrix(gen, 40, 16), k = randomMatrix(gen, 40, 16),
                 v = randomMatrix(gen, 40, 8);
    Matrix want, weights;
    AttentionMask mask;
    mask.causal = causal;
    REQUIRE(scaledDotProductAttention(q, k, v, mask, want, weights).isOk());
    for (const int block : {1, 5, 16, 64}) {
      const Eigen::Index blocks = onlineSoftmaxBlocks(k.rows(), block);
      Matrix out(q.rows(), v.cols()), m(q.rows(), blocks), l(q.rows(), blocks);
      REQUIRE(onlineSoftmaxAttention(q, k, v, block, causal, out, m, l).isOk());
      const double diff = (out - want).cwiseAbs().maxCoeff();
      INFO("causal " << causal << ", block " << block << ": max |online - sdpa| = " << diff);
      CHECK(diff <= 1e-14);
    }
  }
}

TEST_CASE("online softmax attention in float32 stays near float64", "[online_softmax]") {
  const Matrix &q = ref().matrix("online.Q"), &k = ref().matrix("online.K"),
               &v = ref().matrix("online.V");
  const Matrix32 q32 = q.cast<float>(), k32 = k.cast<float>(), v32 = v.cast<float>();
  Matrix32 out(5, 3), m(5, 3), l(5, 3);
  REQUIRE(onlineSoftmaxAttention(q32, k32, v32, 3, true, out, m, l).isOk());
  CHECK_CLOSE(Matrix(out.cast<double>()), ref().matrix("online.b3c.output"), 1e-5);
  CHECK_RELATIVE(Matrix(m.cast<double>()), ref().matrix("online.b3c.max"), 1e-5);
  CHECK_RELATIVE(Matrix(l.cast<double>()), ref().matrix("online.b3c.sum"), 1e-5);
}

TEST_CASE("online softmax attention reports bad arguments", "[online_softmax]") {
  const Matrix x = Matrix::Ones(3, 4);
  Matrix out(3, 4), m(3, 3), l(3, 3);
  SECTION("a block size of 0") {
    const Status s = onlineSoftmaxAttention(x, x, x, 0, false, out, m, l);
    CHECK(s.code == StatusCode::kInvalidValue);
    CHECK(s.message == "blockSize is 0 but must be at least 1 (keys per block)");
  }
  SECTION("K and V of different lengths") {
    const Status s = onlineSoftmaxAttention(x, x, Matrix::Ones(2, 4), 1, false, out, m, l);
    CHECK(s.code == StatusCode::kShapeMismatch);
  }
  SECTION("outputs of the wrong shape") {
    Matrix small(3, 2);
    CHECK(onlineSoftmaxAttention(x, x, x, 1, false, out, small, l).message ==
          "max is 3x2 but must be 3x3");
  }
  SECTION("a score that overflows") {
    const Matrix big = Matrix::Constant(3, 4, 1e160);
    const Status s = onlineSoftmaxAttention(big, big, x, 1, false, out, m, l);
    CHECK(s.code == StatusCode::kInvalidValue);
    CHECK(s.message.rfind("score (0, 0) of Q·Kᵀ overflows float64", 0) == 0);
  }
}

TEST_CASE("grouped-query attention matches NumPy", "[gqa]") {
  for (const char* name : {"gqa", "mqa", "gqac", "mha"}) {
    const std::string p = name;
    SECTION(p) {
      MultiHeadParams params{static_cast<int>(ref().scalar(p + ".heads")),
                             ref().matrix(p + ".Wq"),
                             ref().matrix(p + ".Wk"),
                             ref().matrix(p + ".Wv"),
                             ref().matrix(p + ".Wo"),
                             vectorOf(p + ".bq"),
                             vectorOf(p + ".bk"),
                             vectorOf(p + ".bv"),
                             vectorOf(p + ".bo")};
      params.kvHeads = static_cast<int>(ref().scalar(p + ".kvHeads"));
      AttentionMask mask;
      mask.causal = ref().scalar(p + ".causal") != 0;
      Matrix out, weights;
      REQUIRE(multiHeadAttention(ref().matrix(p + ".Q"), ref().matrix(p + ".K"),
                                 ref().matrix(p + ".V"), params, mask, out, weights)
                  .isOk());
      CHECK_CLOSE(out, ref().matrix(p + ".output"), 1e-12);
      CHECK_CLOSE(weights, ref().matrix(p + ".weights"), 1e-13);
    }
  }
}

TEST_CASE("grouped-query attention reports a bad kvHeads", "[gqa]") {
  const Matrix x = Matrix::Ones(3, 8), w = Matrix::Identity(8, 8), wkv = Matrix::Ones(8, 4);
  Matrix out, weights;
  const AttentionMask none;
  SECTION("kvHeads does not divide heads") {
    MultiHeadParams p{4, w, w, w, w, {}, {}, {}, {}};
    p.kvHeads = 3;
    const Status s = multiHeadAttention(x, x, x, p, none, out, weights);
    CHECK(s.code == StatusCode::kInvalidValue);
    CHECK(s.message ==
          "kvHeads is 3 but must divide heads = 4 (each key/value head serves heads / kvHeads "
          "query heads)");
  }
  SECTION("negative kvHeads") {
    MultiHeadParams p{4, w, w, w, w, {}, {}, {}, {}};
    p.kvHeads = -2;
    CHECK(multiHeadAttention(x, x, x, p, none, out, weights).code == StatusCode::kInvalidValue);
  }
  SECTION("Wk sized for every head when kvHeads = 2") {
    MultiHeadParams p{4, w, w, wkv, w, {}, {}, {}, {}};
    p.kvHeads = 2;
    CHECK(multiHeadAttention(x, x, x, p, none, out, weights).message ==
          "Wk is 8x8 but must be 8x4 (d_model x kvHeads * d_k)");
  }
}

TEST_CASE("the rotary embedding matches NumPy's", "[rope]") {
  for (const char* name : {"half", "interleaved", "positions", "linear", "llama3", "llama3i"}) {
    const std::string p = std::string("rope.") + name;
    SECTION(p) {
      RopeScaling scaling;
      if (p == "rope.linear") {
        scaling.type = RopeScaling::Type::kLinear;
        scaling.factor = ref().scalar(p + ".factor");
      } else if (p.rfind("rope.llama3", 0) == 0) {
        scaling = {RopeScaling::Type::kLlama3, ref().scalar(p + ".factor"),
                   ref().scalar(p + ".low_freq_factor"), ref().scalar(p + ".high_freq_factor"),
                   static_cast<int>(ref().scalar(p + ".original_max_position_embeddings"))};
      }
      Matrix x = ref().matrix(p + ".x");
      const int d = static_cast<int>(x.cols());
      std::vector<double> invFreq;
      REQUIRE(ropeInverseFrequencies(d, ref().scalar(p + ".base"), scaling, invFreq).isOk());
      CHECK_RELATIVE(Eigen::Map<const Vector>(invFreq.data(), d / 2), vectorOf(p + ".invFreq"),
                     1e-15);
      std::vector<int> positions;
      for (const double t : vectorOf(p + ".positions")) positions.push_back(static_cast<int>(t));
      const auto pairing =
          ref().scalar(p + ".interleaved") != 0 ? RopePairing::kInterleaved : RopePairing::kHalf;
      REQUIRE(applyRope(x, positions, invFreq, d, pairing).isOk());
      // Angles up to 5000 rad: their rounding, 5000 * 2^-53 = 6e-13, bounds the difference.
      CHECK_CLOSE(x, ref().matrix(p + ".out"), 1e-12);
    }
  }
}

TEST_CASE("the sliding window matches NumPy's", "[window]") {
  const Matrix &q = ref().matrix("window.Q"), &k = ref().matrix("window.K"),
               &v = ref().matrix("window.V");
  for (const auto& [window, causal] : std::vector<std::pair<int, bool>>{
           {1, true}, {2, true}, {3, true}, {6, true}, {10, true}, {2, false}}) {
    const std::string p = "window.w" + std::to_string(window) + (causal ? "c" : "n");
    SECTION(p) {
      AttentionMask mask;
      mask.causal = causal;
      mask.window = window;
      Matrix out, weights;
      REQUIRE(scaledDotProductAttention(q, k, v, mask, out, weights).isOk());
      CHECK_CLOSE(weights, ref().matrix(p + ".weights"), 1e-13);
      CHECK_CLOSE(out, ref().matrix(p + ".output"), 1e-13);
    }
  }
}

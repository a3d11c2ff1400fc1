// Scores that overflow (issue: hostile input): finite inputs whose dot products
// pass the largest float, or become NaN through inf − inf. Every attention
// function reports the first such score as a value error naming it and the
// inputs to scale down, the same way in float64 and float32; an overflowing
// score that the mask removes is not an error (its weight is 0 either way).
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "ops/attention.h"

using namespace attention;

namespace {

Matrix rows2(std::initializer_list<std::initializer_list<double>> values) {
  Matrix m(static_cast<Eigen::Index>(values.size()),
           static_cast<Eigen::Index>(values.begin()->size()));
  Eigen::Index r = 0;
  for (const auto& row : values) {
    Eigen::Index c = 0;
    for (double x : row) m(r, c++) = x;
    ++r;
  }
  return m;
}

}  // namespace

TEST_CASE("overflowing scores are value errors naming the score, float64",
          "[attention][overflow]") {
  // The reproduction: q·k1 = 2e400 (inf), q·k2 = 0 (finite).
  const Matrix q = rows2({{1e200, 1e200}});
  const Matrix k = rows2({{1e200, 1e200}, {-1e200, 1e200}});
  const Matrix v = rows2({{1, 2}, {3, 4}});
  Matrix out, w;
  Status s = scaledDotProductAttention(q, k, v, AttentionMask{}, out, w);
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message ==
        "score (0, 0) of Q·Kᵀ overflows float64 (|score| > 1.8e308); scale Q or K down");

  Matrix scores(1, 2);
  s = attentionScores(q, k, false, scores);
  CHECK(s.message ==
        "score (0, 0) of Q·Kᵀ overflows float64 (|score| > 1.8e308); scale Q or K down");

  double d = 0;
  CHECK(dot(Vector::Constant(2, 1e200), Vector::Constant(2, 1e200), d).message ==
        "a · b overflows float64 (|score| > 1.8e308); scale a or b down");
  Vector sc;
  CHECK(dotScores(Vector::Constant(2, 1e200), k, sc).message ==
        "score 0 (query · keys row 0) overflows float64 (|score| > 1.8e308); scale query or keys "
        "down");

  // inf − inf inside one score gives NaN: reported the same way.
  const Matrix kNan = rows2({{1e200, -1e200}});
  Matrix outNan, wNan;
  s = scaledDotProductAttention(rows2({{1e200, 1e200}}), kNan, rows2({{1}}), AttentionMask{},
                                outNan, wNan);
  CHECK(s.message ==
        "score (0, 0) of Q·Kᵀ overflows float64 (|score| > 1.8e308); scale Q or K down");
}

TEST_CASE("a masked overflowing score is not an error, causal rows check only their keys",
          "[attention][overflow]") {
  const Matrix q = rows2({{1e200, 1e200}, {1, 1}});
  const Matrix k = rows2({{1, 1}, {1e200, 1e200}});
  const Matrix v = rows2({{1, 2}, {3, 4}});
  Matrix out, w;
  AttentionMask causal;
  causal.causal = true;
  // Row 0 sees key 0 only (q0·k0 = 2e200, finite); row 1 sees both (q1·k1 = 2e200, finite):
  // the overflowing q0·k1 is above the diagonal.
  REQUIRE(scaledDotProductAttention(q, k, v, causal, out, w).isOk());
  CHECK(w(0, 0) == 1.0);
  CHECK(w(0, 1) == 0.0);
  const Matrix keep = rows2({{1, 0}, {1, 1}});
  AttentionMask padding;
  padding.mask.emplace(keep);
  REQUIRE(scaledDotProductAttention(q, k, v, padding, out, w).isOk());
  CHECK(w(0, 1) == 0.0);
  AttentionMask none;
  CHECK(scaledDotProductAttention(q, k, v, none, out, w).message ==
        "score (0, 1) of Q·Kᵀ overflows float64 (|score| > 1.8e308); scale Q or K down");
}

TEST_CASE("overflow in float32, multi-head attention, concat and pairwise additive scores",
          "[attention][overflow]") {
  // float32: 1e20 · 1e20 = 1e40 > 3.4e38.
  Matrix32 q32(1, 2), k32(2, 2), v32(2, 1), out32, w32;
  q32 << 1e20f, 1e20f;
  k32 << 1e20f, 1e20f, 1, 1;
  v32 << 1, 2;
  CHECK(scaledDotProductAttention(q32, k32, v32, AttentionMask32{}, out32, w32).message ==
        "score (0, 0) of Q·Kᵀ overflows float32 (|score| > 3.4e38); scale Q or K down");

  // Multi-head: the projections are fine, head 1's score overflows.
  const Matrix eye = Matrix::Identity(2, 2);
  const Matrix huge = Matrix::Constant(2, 2, 1e300);
  const MultiHeadParams p{2, eye, eye, eye, eye, {}, {}, {}, {}};
  Matrix out, w;
  CHECK(multiHeadAttention(rows2({{1, 1e200}}), rows2({{1, 1e200}}), rows2({{1, 1}}), p,
                           AttentionMask{}, out, w)
            .message ==
        "head 1: score (0, 0) of (Q·Wq)·(K·Wk)ᵀ overflows float64 (|score| > 1.8e308); scale "
        "Q, K, Wq or Wk down");
  // A projection that overflows is named too.
  const MultiHeadParams big{2, huge, eye, eye, eye, {}, {}, {}, {}};
  CHECK(multiHeadAttention(rows2({{1e10, 1}}), rows2({{1, 1}}), rows2({{1, 1}}), big,
                           AttentionMask{}, out, w)
            .message ==
        "the projection Q·Wq + bq overflows float64; scale the inputs or the weights down");

  // Bahdanau: W1ᵀ [h; s] = 1e308 + 1e308 = inf, tanh(inf) = 1; with −1e308 + 1e308 … fine; w2 huge
  // overflows.
  Vector scores;
  const Matrix enc = rows2({{1e308}});
  const Vector dec = Vector::Constant(1, 1e308);
  const Matrix w1 = rows2({{1}, {1}});
  CHECK(concatScores(enc, dec, w1, Vector::Constant(1, 1.0), scores)
            .isOk());  // tanh saturates: score 1
  CHECK(scores(0) == 1.0);
  const Matrix w1Nan = rows2({{1e10}, {-1e10}});  // 1e318 − 1e318: inf − inf = NaN
  CHECK(concatScores(enc, dec, w1Nan, Vector::Constant(1, 1.0), scores).message ==
        "score 0 (w2 · tanh(W1ᵀ [h_0; s])) overflows float64 (|score| > 1.8e308); scale "
        "encoderStates, "
        "decoderState, W1 or w2 down");

  Matrix sc, wt, o;
  CHECK(pairwiseAdditiveAttention(rows2({{1}}), rows2({{1}}), Vector::Constant(1, 1e308), 1e308,
                                  rows2({{1}}), sc, wt, o)
            .message ==
        "score (0, 0) overflows float64 (|score| > 1.8e308); scale projectedQueries, projectedKeys "
        "or ws down");
}

TEST_CASE("results that overflow: matmul, scaled rows, weighted sums, multi-head output",
          "[attention][overflow]") {
  Matrix c;
  CHECK(matmul(Matrix::Constant(1, 2, 1e200), Matrix::Constant(2, 1, 1e200), c).message ==
        "entry (0, 0) of a·b overflows float64 (|x| > 1.8e308); scale a or b down");
  Matrix32 c32(1, 1);
  CHECK(matmulInto(Matrix32::Constant(1, 1, 1e20f), Matrix32::Constant(1, 1, 1e20f), c32).message ==
        "entry (0, 0) of a·b overflows float32 (|x| > 3.4e38); scale a or b down");
  Matrix scaled;
  CHECK(scaleRows(Vector::Constant(1, 8), Matrix::Constant(1, 1, 1e308), scaled).message ==
        "entry (0, 0) of the scaled rows overflows float64 (|x| > 1.8e308); scale weights or "
        "values down");
  Vector sum;
  CHECK(weightedSum(Vector::Constant(2, 1), Matrix::Constant(2, 1, 1e308), sum).message ==
        "entry 0 of weights · values overflows float64 (|x| > 1.8e308); scale weights or values "
        "down");
  const Matrix eye = Matrix::Identity(1, 1);
  const Matrix wo = Matrix::Constant(1, 1, 1e300);
  const MultiHeadParams p{1, eye, eye, eye, wo, {}, {}, {}, {}};
  Matrix out, w;
  CHECK(multiHeadAttention(Matrix::Constant(1, 1, 1), Matrix::Constant(1, 1, 1),
                           Matrix::Constant(1, 1, 1e10), p, AttentionMask{}, out, w)
            .message ==
        "entry (0, 0) of the output (concat·Wo + bo) overflows float64 (|x| > 1.8e308); scale "
        "V, Wv or Wo down");
  // Large but representable results are results.
  CHECK(matmul(Matrix::Constant(1, 1, 1e154), Matrix::Constant(1, 1, 1e154), c).isOk());
}

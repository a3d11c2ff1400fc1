// Attention, by operation: score functions, the one masked softmax
// (softmax.h) over them, and the one weights . V product (through gemm.h).
//
//   score functions        dot            q k^T              dotScoresInto / attentionScores
//                          scaled dot     q k^T / sqrt(d_k)  attentionScores(scaled = true)
//                          general        (q W) k^T          generalScoresInto
//                          concat         w2^T tanh(W1^T [h_i; s])   concatScores
//                          pairwise add.  ws . tanh(qp_i + kp_j) + bs  pairwiseAdditiveScoresInto
//   weights . V            weightsTimesValues
//   built from them        scaledDotProductAttention, multiHeadAttention (one
//                          single-head attention per head, as in The Annotated
//                          Transformer), concatAttention, pairwiseAdditiveAttention
//   one query (teaching)   dot, dotScores, scaleRows, weightedSum
//
// Shapes: n_q queries, n_k keys/values, d_k = query/key size, d_v = value
// size, d_model = model size, h = number of heads. All matrices are row-major
// (one row per token). Functions ending in Into are unchecked and write into
// caller-sized views (Eigen::Ref), so callers can hand in strided blocks or
// Eigen::Maps over foreign memory; the others validate and return a Status
// whose message names the argument and the shapes.
//
// Float32 path: attentionScores, scaledDotProductAttention and
// multiHeadAttention also take float32 matrices (MatrixView32, the *32 types);
// the same code (a template over the element type) runs with the float32 gemm
// and softmax row kernels: 4 lanes per wasm SIMD128 register instead of 2.
#pragma once

#include <optional>

#include "gemm.h"
#include "softmax.h"
#include "status.h"
#include "tensor.h"

namespace attention {

// ---- one query (the first chapter's building blocks) ------------------------

// a: (d), b: (d) -> out: a . b
Status dot(const VectorView& a, const VectorView& b, double& out);

// query: (d), keys: (n x d) -> scores: (n), scores[i] = query . keys[i]
Status dotScores(const VectorView& query, const MatrixView& keys, Vector& scores);

// weights: (n), values: (n x d) -> out: (n x d), out[i] = weights[i] * values[i]
Status scaleRows(const VectorView& weights, const MatrixView& values, Matrix& out);

// weights: (n), values: (n x d) -> out: (d), the context vector sum_i weights[i] * values[i]
Status weightedSum(const VectorView& weights, const MatrixView& values, Vector& out);

// ---- score functions ---------------------------------------------------------

// q: (n_q x d_k), k: (n_k x d_k) -> scores: (n_q x n_k) = q k^T (unchecked).
void dotScoresInto(const MatrixView& q, const MatrixView& k, MatrixOut scores);

// The raw scores before the softmax: q: (n_q x d_k), k: (n_k x d_k)
//   -> scores: (n_q x n_k) = q k^T, divided by sqrt(d_k) if `scaled`.
Status attentionScores(const MatrixView& q, const MatrixView& k, bool scaled, MatrixOut scores);
Status attentionScores(const MatrixView32& q, const MatrixView32& k, bool scaled,
                       MatrixOut32 scores);

// General (bilinear, Luong) score: q: (n_q x d_q), w: (d_q x d_k), k: (n_k x d_k)
//   -> projected: (n_q x d_k) = q w, scores: (n_q x n_k) = projected k^T (unchecked).
void generalScoresInto(const MatrixView& q, const MatrixView& w, const MatrixView& k,
                       MatrixOut projected, MatrixOut scores);

// Pairwise additive score over every query-key pair, on projected inputs
// qp: (n x h), kp: (m x h), ws: (h), scalar bs -> scores: (n x m),
//   scores(i, j) = ws . tanh(qp[i] + kp[j]) + bs      (unchecked).
// If `tanhs` is not null it receives the (n * m x h) activations, row i * m + j
// for the pair (i, j) (what a backward pass needs).
void pairwiseAdditiveScoresInto(const MatrixView& qp, const MatrixView& kp, const VectorView& ws,
                                double bs, MatrixOut scores, Matrix* tanhs = nullptr);

// Concat (Bahdanau) score with every intermediate step, laid out like the
// article that introduces it: each encoder state h_i is concatenated with the
// decoder state s, passed through one tanh layer and projected to one score.
//   score_i = w2^T tanh(W1^T [h_i; s])
// Shapes: n = encoder steps, h = hidden size, a = attention size.
//   encoderStates (n x h), decoderState (h), W1 (2h x a), w2 (a).
struct ConcatAttentionSteps {
  Matrix inputs;       // (n x 2h): row i is [h_i ; s] (s repeated on every row)
  Matrix activations;  // (n x a): tanh(inputs . W1)
  Vector scores;       // (n): activations . w2, the alignment scores
  Vector weights;      // (n): softmax(scores)
  Matrix weighted;     // (n x h): row i is weights[i] * h_i
  Vector context;      // (h): sum over i of weighted[i], the context vector
};

// scores: (n), the concat score of every encoder step.
Status concatScores(const MatrixView& encoderStates, const VectorView& decoderState,
                    const MatrixView& W1, const VectorView& w2, Vector& scores);

// The whole computation: scores, softmax weights and the context vector.
Status concatAttention(const MatrixView& encoderStates, const VectorView& decoderState,
                       const MatrixView& W1, const VectorView& w2, ConcatAttentionSteps& out);

// ---- weights . V ----------------------------------------------------------------

// weights: (n_q x n_k), values: (n_k x d_v) -> out: (n_q x d_v) = weights values (unchecked).
void weightsTimesValues(const MatrixView& weights, const MatrixView& values, MatrixOut out);

// ---- attention built from the pieces ----------------------------------------------

// q: (n_q x d_k), k: (n_k x d_k), v: (n_k x d_v)
//   -> output: (n_q x d_v), weights: (n_q x n_k)
// weights = softmax(q k^T / sqrt(d_k)) row by row, masked keys get weight 0
// exactly; output = weights v. A query whose keys are all masked gets an
// all-zero row of weights and an all-zero output row, never NaN.
// `output` and `weights` must already have the shapes above.
Status scaledDotProductAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                                 const AttentionMask& mask, MatrixOut output, MatrixOut weights);
Status scaledDotProductAttention(const MatrixView32& q, const MatrixView32& k,
                                 const MatrixView32& v, const AttentionMask32& mask,
                                 MatrixOut32 output, MatrixOut32 weights);

// Convenience overload that sizes `output` and `weights` itself.
Status scaledDotProductAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                                 const AttentionMask& mask, Matrix& output, Matrix& weights);
Status scaledDotProductAttention(const MatrixView32& q, const MatrixView32& k,
                                 const MatrixView32& v, const AttentionMask32& mask,
                                 Matrix32& output, Matrix32& weights);

// Parameters of multi-head attention. Wq and Wo are (d_model x d_model), Wk
// and Wv (d_model x kvHeads * d_k); each b has as many entries as its W has
// columns, or is empty (no bias). Projections are X W + b (X one token a row).
// kvHeads < heads is grouped-query attention (Ainslie et al. 2023), kvHeads = 1
// multi-query attention (Shazeer 2019): query head i reads key/value head
// floor(i * kvHeads / heads). 0 means kvHeads = heads (classic multi-head).
template <typename T>
struct MultiHeadParamsOf {
  int heads;
  MatrixViewOf<T> wq, wk, wv, wo;                 // see above
  std::optional<VectorViewOf<T>> bq, bk, bv, bo;  // (columns of the W) each, or none
  int kvHeads = 0;
};
using MultiHeadParams = MultiHeadParamsOf<double>;
using MultiHeadParams32 = MultiHeadParamsOf<float>;

// q: (n_q x d_model), k: (n_k x d_model), v: (n_k x d_model)
//   -> output: (n_q x d_model), weights: h blocks of (n_q x n_k), stacked as
//      an (h * n_q x n_k) matrix (head i is rows i*n_q .. (i+1)*n_q - 1).
// Head i attends with columns i*d_k .. (i+1)*d_k - 1 of Q = q Wq + bq and
// columns g*d_k .. (g+1)*d_k - 1 of K = k Wk + bk, V = v Wv + bv, where
// d_k = d_model / h and g = floor(i * kvHeads / h) (g = i without kvHeads); the
// heads' outputs (n_q x d_k each) are concatenated in head order to
// (n_q x d_model) and output = concat Wo + bo. `mask` applies to every head.
// Fails if h does not divide d_model or kvHeads does not divide h.
// `output`, `weights` must be sized.
Status multiHeadAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                          const MultiHeadParams& params, const AttentionMask& mask,
                          MatrixOut output, MatrixOut weights);
Status multiHeadAttention(const MatrixView32& q, const MatrixView32& k, const MatrixView32& v,
                          const MultiHeadParams32& params, const AttentionMask32& mask,
                          MatrixOut32 output, MatrixOut32 weights);

// Convenience overload that sizes `output` (n_q x d_model) and `weights`
// (h * n_q x n_k) itself.
Status multiHeadAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                          const MultiHeadParams& params, const AttentionMask& mask, Matrix& output,
                          Matrix& weights);
Status multiHeadAttention(const MatrixView32& q, const MatrixView32& k, const MatrixView32& v,
                          const MultiHeadParams32& params, const AttentionMask32& mask,
                          Matrix32& output, Matrix32& weights);

// Pairwise additive attention, validated: projected queries qp: (n x h) and
// keys kp: (m x h), ws: (h), bs, values: (m x dv) -> scores: (n x m) (see
// pairwiseAdditiveScoresInto), weights: (n x m) = softmax of each row,
// output: (n x dv) = weights values.
Status pairwiseAdditiveAttention(const MatrixView& projectedQueries,
                                 const MatrixView& projectedKeys, const VectorView& ws, double bs,
                                 const MatrixView& values, Matrix& scores, Matrix& weights,
                                 Matrix& output);

}  // namespace attention

// Transformer attention ("Attention Is All You Need", Vaswani et al. 2017):
// scaled dot-product attention with padding and causal masks, and multi-head
// attention built from it.
//
// Shapes: n_q queries, n_k keys/values, d_k = query/key size, d_v = value size,
// d_model = model size, h = number of heads. All matrices are row-major
// (one row per token). Outputs are written into caller-sized matrices
// (Eigen::Ref), so the wasm bindings can hand in Eigen::Maps over the JS
// caller's heap buffers and nothing is copied on the way out.
#pragma once

#include <optional>

#include "status.h"
#include "tensor.h"

namespace attention {

// Writable view of a row-major matrix whose shape is already right.
using MatrixOut = Eigen::Ref<Matrix>;

// Which keys each query may attend to.
struct AttentionMask {
  // (n_q x n_k) of 0/1, or empty for "everything allowed".
  // mask(i, j) == 0 means query i may not attend to key j.
  std::optional<MatrixView> mask;
  // Query i may not attend to keys j > i (keys "after" its own position).
  bool causal = false;
};

// q: (n_q x d_k), k: (n_k x d_k), v: (n_k x d_v)
//   -> output: (n_q x d_v), weights: (n_q x n_k)
// weights = softmax(q k^T / sqrt(d_k)) row by row, masked keys get weight 0
// exactly; output = weights v. A query whose keys are all masked gets an
// all-zero row of weights and an all-zero output row, never NaN.
// `output` and `weights` must already have the shapes above.
Status scaledDotProductAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                                 const AttentionMask& mask, MatrixOut output, MatrixOut weights);

// Convenience overload that sizes `output` and `weights` itself.
Status scaledDotProductAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                                 const AttentionMask& mask, Matrix& output, Matrix& weights);

// Parameters of multi-head attention. Every W is (d_model x d_model), every b
// is (d_model) or empty (no bias). Projections are X W + b (X one token a row).
struct MultiHeadParams {
  int heads;
  MatrixView wq, wk, wv, wo;                 // (d_model x d_model) each
  std::optional<VectorView> bq, bk, bv, bo;  // (d_model) each, or none
};

// q: (n_q x d_model), k: (n_k x d_model), v: (n_k x d_model)
//   -> output: (n_q x d_model), weights: h blocks of (n_q x n_k), stacked as
//      an (h * n_q x n_k) matrix (head i is rows i*n_q .. (i+1)*n_q - 1).
// Head i attends with columns i*d_k .. (i+1)*d_k - 1 of the projections
// Q = q Wq + bq, K = k Wk + bk, V = v Wv + bv, where d_k = d_model / h; the
// heads' outputs (n_q x d_k each) are concatenated in head order to
// (n_q x d_model) and output = concat Wo + bo. `mask` applies to every head.
// Fails if h does not divide d_model. `output`, `weights` must be sized.
Status multiHeadAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                          const MultiHeadParams& params, const AttentionMask& mask,
                          MatrixOut output, MatrixOut weights);

// Convenience overload that sizes `output` (n_q x d_model) and `weights`
// (h * n_q x n_k) itself.
Status multiHeadAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                          const MultiHeadParams& params, const AttentionMask& mask, Matrix& output,
                          Matrix& weights);

// Dense product c = a b, the blocked kernel behind the functions above.
// a: (m x p), b: (p x n) -> c: (m x n).
Status matmulInto(const MatrixView& a, const MatrixView& b, MatrixOut c);

// The raw scores before the softmax: q: (n_q x d_k), k: (n_k x d_k)
//   -> scores: (n_q x n_k) = q k^T, divided by sqrt(d_k) if `scaled`.
Status attentionScores(const MatrixView& q, const MatrixView& k, bool scaled, MatrixOut scores);

}  // namespace attention

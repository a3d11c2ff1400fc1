// Attention between two sentences, as in the GloVe chapter: plain dot-product
// attention, the trainable variant with learned projections, and additive
// attention over every query-key pair. Kept in their own namespace so that
// other chapters' general kernels (scaled dot-product, Bahdanau) never clash.
// Shapes: n = query tokens, m = key tokens, d = embedding size, h = projection
// size, dv = value size.
#pragma once

#include "status.h"
#include "tensor.h"

namespace attention {
namespace glove {

// PyTorch nn.Linear: x: (n x in), weight: (out x in), bias: (out) -> y: (n x out),
// y = x weightᵀ + bias.
Status linear(const MatrixView& x, const MatrixView& weight, const VectorView& bias, Matrix& y);

// Dot-product attention, the notebook's DotProductAttention:
// queries: (n x d), keys: (m x d), values: (m x dv) ->
// weights: (n x m) = softmax(queries keysᵀ / sqrt(d)) row by row, output: (n x dv) = weights
// values.
Status dotProductAttention(const MatrixView& queries, const MatrixView& keys,
                           const MatrixView& values, Matrix& weights, Matrix& output);

// Additive attention done right: projected queries qp: (n x h) = Wq q + bq and
// projected keys kp: (m x h) = Wk k + bk, ws: (h), bs a scalar ->
// scores: (n x m), scores(i, j) = ws . tanh(qp[i] + kp[j]) + bs, over every pair;
// weights: (n x m) = softmax of each row; output: (n x dv) = weights values, values: (m x dv).
Status additiveAttention(const MatrixView& projectedQueries, const MatrixView& projectedKeys,
                         const VectorView& ws, double bs, const MatrixView& values, Matrix& scores,
                         Matrix& weights, Matrix& output);

// Softmax of every row of scores: (n x m) -> weights: (n x m), exact exp (no clamping).
Status rowSoftmax(const MatrixView& scores, Matrix& weights);

}  // namespace glove
}  // namespace attention

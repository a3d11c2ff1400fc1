// Layers of the Transformer (transformer_model.h) with hand-written backward
// passes: token embedding + sinusoidal positional encoding, layer norm, the
// position-wise feed-forward network, multi-head attention over a batch of
// sequences, and the output projection with (label-smoothed) softmax
// cross-entropy. Every matrix product goes through the one gemm (ops/gemm.h,
// ops/linear.h); attention scores and weights . V through ops/attention.h and
// the softmax through the one masked row kernel (ops/softmax.h).
//
// Shapes: D = d_model, F = d_ff, h = heads, d_k = D / h, N = rows of a batch.
// A batch of sequences is PACKED: example b's tokens are the contiguous rows
// [offset[b], offset[b] + length[b]) of every (N x D) activation, with no
// padding rows, so the position-wise layers (linear, layer norm, FFN) run as
// one product over all N = sum(length) real tokens. Attention is per example:
// its queries see only their own example's keys, which is exactly what the
// padding mask of a padded layout does (softmaxRow's `end` cuts each row at the
// example's key length), plus the causal limit in the decoder.
//
// Backward functions ADD into parameter gradients and overwrite their dInput
// outputs.
#pragma once

#include <vector>

#include "ops/tensor.h"
#include "seq2seq_layers.h"  // rebind()

namespace attention {

// Where each example's rows are in a packed batch.
struct PackedLayout {
  std::vector<int> offset;  // (B) first row of example b
  std::vector<int> length;  // (B) its number of rows (tokens), >= 1
  int rows = 0;             // N = sum of lengths

  int examples() const { return static_cast<int>(length.size()); }
  void add(int length);  // appends one example of `length` rows
};

// ---- embedding + positional encoding ----

// pe: (T x D), PE(t, 2i) = sin(t / 10000^(2i/D)), PE(t, 2i+1) = cos(t / 10000^(2i/D)).
Matrix positionalEncoding(int steps, int dModel);

// table: (V x D), ids: (N) in layout order, pe: (>= max length x D)
//   -> x: (N x D), x[r] = table[ids[r]] * sqrt(D) + pe[position of r in its example].
void embedForward(const MatrixView& table, const std::vector<int>& ids, const PackedLayout& layout,
                  const MatrixView& pe, Matrix& x);
// dx: (N x D) -> gradTable[ids[r]] += dx[r] * sqrt(D).
void embedBackward(const std::vector<int>& ids, const MatrixView& dx, MatrixMap& gradTable);

// ---- layer norm: y = gamma * (x - mean) / sqrt(var + eps) + beta, row by row ----

constexpr double kLayerNormEps = 1e-5;

struct LayerNormWeights {
  MatrixMap gamma{nullptr, 0, 0};  // (1 x D)
  MatrixMap beta{nullptr, 0, 0};   // (1 x D)
};
struct LayerNormCache {
  Matrix normalized;  // (N x D): (x - mean) / sqrt(var + eps)
  Vector rstd;        // (N): 1 / sqrt(var + eps)
};

// x: (N x D) -> y: (N x D)
void layerNormForward(const LayerNormWeights& w, const MatrixView& x, LayerNormCache& cache,
                      Matrix& y);
// dy: (N x D) -> dx: (N x D); adds dgamma, dbeta.
void layerNormBackward(const LayerNormWeights& w, const LayerNormCache& cache, const MatrixView& dy,
                       Matrix& dx, LayerNormWeights& grad);

// ---- position-wise feed-forward: y = relu(x W1 + b1) W2 + b2 ----

struct FeedForwardWeights {
  MatrixMap W1{nullptr, 0, 0};  // (D x F)
  MatrixMap b1{nullptr, 0, 0};  // (1 x F)
  MatrixMap W2{nullptr, 0, 0};  // (F x D)
  MatrixMap b2{nullptr, 0, 0};  // (1 x D)
};
struct FeedForwardCache {
  Matrix hidden;  // (N x F): relu(x W1 + b1)
};

void feedForwardForward(const FeedForwardWeights& w, const MatrixView& x, FeedForwardCache& cache,
                        Matrix& y);
// dy: (N x D) -> dx: (N x D); adds dW1, db1, dW2, db2.
void feedForwardBackward(const FeedForwardWeights& w, const MatrixView& x,
                         const FeedForwardCache& cache, const MatrixView& dy, Matrix& dx,
                         FeedForwardWeights& grad);

// ---- multi-head attention over a packed batch ----
// Q = xq Wq + bq, K = xkv Wk + bk, V = xkv Wv + bv (one product each over all
// rows); for example b and head i: A = softmax(Q_bi K_bi^T / sqrt(d_k)) with
// each query row cut at the example's key length (and at its own position if
// causal), head_bi = A V_bi into columns [i d_k, (i+1) d_k) of concat;
// output = concat Wo + bo.

struct MultiHeadWeights {
  MatrixMap Wq{nullptr, 0, 0}, Wk{nullptr, 0, 0}, Wv{nullptr, 0, 0}, Wo{nullptr, 0, 0};  // (D x D)
  MatrixMap bq{nullptr, 0, 0}, bk{nullptr, 0, 0}, bv{nullptr, 0, 0}, bo{nullptr, 0, 0};  // (1 x D)
};

struct MultiHeadCache {
  int heads = 0;
  bool causal = false;
  PackedLayout queries, keys;  // keys.length[b] = example b's number of keys
  Matrix q, k, v;              // (Nq x D), (Nk x D), (Nk x D) projections
  Matrix concat;               // (Nq x D): the heads' outputs side by side
  // Attention weights: for example b, head i, a row-major (Tq_b x Tk_b) block
  // at weightOffset[b] + i * Tq_b * Tk_b. Rows sum to 1.
  std::vector<double> weights;
  std::vector<std::size_t> weightOffset;  // (B)

  // Example b, head i: (Tq_b x Tk_b).
  ConstMatrixMap headWeights(int b, int head) const;
};

// xq: (Nq x D) laid out by `queries`, xkv: (Nk x D) laid out by `keys` (same
// number of examples) -> out: (Nq x D).
void multiHeadForward(const MultiHeadWeights& w, int heads, bool causal, const MatrixView& xq,
                      const PackedLayout& queries, const MatrixView& xkv, const PackedLayout& keys,
                      MultiHeadCache& cache, Matrix& out);
// dOut: (Nq x D) -> dxq: (Nq x D), dxkv: (Nk x D); adds the parameter gradients.
void multiHeadBackward(const MultiHeadWeights& w, const MatrixView& xq, const MatrixView& xkv,
                       const MultiHeadCache& cache, const MatrixView& dOut, Matrix& dxq,
                       Matrix& dxkv, MultiHeadWeights& grad);

// ---- output projection and cross-entropy with label smoothing ----
// logits = x Wo + bo, p = softmax(logits) per row; with smoothing e the target
// distribution of a row with label y is q = (1 - e) onehot(y) + e / W, and
// loss = mean over rows of -sum_j q_j log p_j.

// x: (N x D), Wo: (D x W), bo: (1 x W), targets: (N) -> probs: (N x W); returns the loss.
double outputLossForward(const MatrixView& Wo, const MatrixView& bo, const MatrixView& x,
                         const std::vector<int>& targets, double smoothing, Matrix& probs);
// -> dx: (N x D); adds dWo, dbo.
void outputLossBackward(const MatrixView& Wo, const MatrixView& x, const MatrixView& probs,
                        const std::vector<int>& targets, double smoothing, Matrix& dx,
                        MatrixMap& gradWo, MatrixMap& gradBo);

}  // namespace attention

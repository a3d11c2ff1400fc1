#include "transformer_layers.h"

#include <algorithm>
#include <cmath>

#include "ops/attention.h"
#include "ops/gemm.h"
#include "ops/linear.h"
#include "ops/softmax.h"

namespace attention {

namespace {

using Index = Eigen::Index;

// grad (1 x cols) += column sums of d (n x cols)
void addColumnSums(const MatrixView& d, MatrixMap& grad) { grad += d.colwise().sum(); }

}  // namespace

void PackedLayout::add(int n) {
  offset.push_back(rows);
  length.push_back(n);
  rows += n;
}

// ---- embedding + positional encoding ----

Matrix positionalEncoding(int steps, int dModel) {
  Matrix pe(steps, dModel);
  for (int t = 0; t < steps; ++t) {
    for (int i = 0; i < dModel; i += 2) {
      const double angle = t / std::pow(10000.0, static_cast<double>(i) / dModel);
      pe(t, i) = std::sin(angle);
      if (i + 1 < dModel) pe(t, i + 1) = std::cos(angle);
    }
  }
  return pe;
}

void embedForward(const MatrixView& table, const std::vector<int>& ids, const PackedLayout& layout,
                  const MatrixView& pe, Matrix& x) {
  const double scale = std::sqrt(static_cast<double>(table.cols()));
  x.resize(layout.rows, table.cols());
  for (int b = 0; b < layout.examples(); ++b) {
    for (int t = 0; t < layout.length[b]; ++t) {
      const int r = layout.offset[b] + t;
      x.row(r) = table.row(ids[r]) * scale + pe.row(t);
    }
  }
}

void embedBackward(const std::vector<int>& ids, const MatrixView& dx, MatrixMap& gradTable) {
  const double scale = std::sqrt(static_cast<double>(gradTable.cols()));
  for (std::size_t r = 0; r < ids.size(); ++r) {
    gradTable.row(ids[r]) += dx.row(static_cast<Index>(r)) * scale;
  }
}

// ---- layer norm ----

void layerNormForward(const LayerNormWeights& w, const MatrixView& x, LayerNormCache& cache,
                      Matrix& y) {
  const Index n = x.rows(), d = x.cols();
  cache.normalized.resize(n, d);
  cache.rstd.resize(n);
  y.resize(n, d);
  for (Index r = 0; r < n; ++r) {
    const double mean = x.row(r).mean();
    const double var = (x.row(r).array() - mean).square().mean();
    const double rstd = 1.0 / std::sqrt(var + kLayerNormEps);
    cache.rstd[r] = rstd;
    cache.normalized.row(r) = (x.row(r).array() - mean) * rstd;
    y.row(r) = cache.normalized.row(r).cwiseProduct(w.gamma.row(0)) + w.beta.row(0);
  }
}

void layerNormBackward(const LayerNormWeights& w, const LayerNormCache& cache, const MatrixView& dy,
                       Matrix& dx, LayerNormWeights& grad) {
  const Index n = dy.rows(), d = dy.cols();
  dx.resize(n, d);
  grad.gamma += dy.cwiseProduct(cache.normalized).colwise().sum();
  grad.beta += dy.colwise().sum();
  for (Index r = 0; r < n; ++r) {
    // dxhat = dy * gamma; dx = rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat))
    const Eigen::RowVectorXd dxhat = dy.row(r).cwiseProduct(w.gamma.row(0));
    const double meanD = dxhat.mean();
    const double meanDX = dxhat.cwiseProduct(cache.normalized.row(r)).mean();
    dx.row(r) =
        cache.rstd[r] * (dxhat.array() - meanD - cache.normalized.row(r).array() * meanDX).matrix();
  }
}

// ---- feed-forward ----

void feedForwardForward(const FeedForwardWeights& w, const MatrixView& x, FeedForwardCache& cache,
                        Matrix& y) {
  cache.hidden.resize(x.rows(), w.W1.cols());
  linearInto(x, w.W1, w.b1.data(), WeightLayout::kInOut, cache.hidden);
  cache.hidden = cache.hidden.cwiseMax(0.0);
  y.resize(x.rows(), w.W2.cols());
  linearInto(cache.hidden, w.W2, w.b2.data(), WeightLayout::kInOut, y);
}

void feedForwardBackward(const FeedForwardWeights& w, const MatrixView& x,
                         const FeedForwardCache& cache, const MatrixView& dy, Matrix& dx,
                         FeedForwardWeights& grad) {
  // dW2 (F x D) += hidden^T dy; dhidden (N x F) = dy W2^T, zero where relu was off.
  gemm(cache.hidden, Trans::kYes, dy, Trans::kNo, grad.W2, Update::kAdd);
  addColumnSums(dy, grad.b2);
  Matrix dh(dy.rows(), w.W2.rows());
  gemm(dy, Trans::kNo, w.W2, Trans::kYes, dh);
  dh = (cache.hidden.array() > 0.0).select(dh, 0.0);
  gemm(x, Trans::kYes, dh, Trans::kNo, grad.W1, Update::kAdd);
  addColumnSums(dh, grad.b1);
  dx.resize(x.rows(), x.cols());
  gemm(dh, Trans::kNo, w.W1, Trans::kYes, dx);
}

// ---- multi-head attention ----

ConstMatrixMap MultiHeadCache::headWeights(int b, int head) const {
  const Index tq = queries.length[b], tk = keys.length[b];
  return ConstMatrixMap(weights.data() + weightOffset[b] + static_cast<std::size_t>(head * tq * tk),
                        tq, tk);
}

void multiHeadForward(const MultiHeadWeights& w, int heads, bool causal, const MatrixView& xq,
                      const PackedLayout& queries, const MatrixView& xkv, const PackedLayout& keys,
                      MultiHeadCache& c, Matrix& out) {
  const Index D = w.Wq.cols(), dk = D / heads;
  c.heads = heads;
  c.causal = causal;
  c.queries = queries;
  c.keys = keys;
  c.q.resize(xq.rows(), D);
  c.k.resize(xkv.rows(), D);
  c.v.resize(xkv.rows(), D);
  linearInto(xq, w.Wq, w.bq.data(), WeightLayout::kInOut, c.q);
  linearInto(xkv, w.Wk, w.bk.data(), WeightLayout::kInOut, c.k);
  linearInto(xkv, w.Wv, w.bv.data(), WeightLayout::kInOut, c.v);
  c.concat.resize(xq.rows(), D);
  const int B = queries.examples();
  c.weightOffset.resize(static_cast<std::size_t>(B));
  std::size_t total = 0;
  for (int b = 0; b < B; ++b) {
    c.weightOffset[b] = total;
    total += static_cast<std::size_t>(heads) * queries.length[b] * keys.length[b];
  }
  c.weights.resize(total);
  const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
  for (int b = 0; b < B; ++b) {
    const Index q0 = queries.offset[b], tq = queries.length[b];
    const Index k0 = keys.offset[b], tk = keys.length[b];
    for (int i = 0; i < heads; ++i) {
      MatrixMap a(c.weights.data() + c.weightOffset[b] + static_cast<std::size_t>(i * tq * tk), tq,
                  tk);
      // scores (tq x tk) = Q_bi K_bi^T, then the one softmax row kernel:
      // scale, cut at the example's keys (and causally at the query's position).
      dotScoresInto(c.q.block(q0, i * dk, tq, dk), c.k.block(k0, i * dk, tk, dk), a);
      for (Index r = 0; r < tq; ++r) {
        softmaxRow(a.data() + r * tk, tk, tk, causal ? std::min(tk, r + 1) : tk, scale, nullptr);
      }
      weightsTimesValues(a, c.v.block(k0, i * dk, tk, dk), c.concat.block(q0, i * dk, tq, dk));
    }
  }
  out.resize(xq.rows(), D);
  linearInto(c.concat, w.Wo, w.bo.data(), WeightLayout::kInOut, out);
}

void multiHeadBackward(const MultiHeadWeights& w, const MatrixView& xq, const MatrixView& xkv,
                       const MultiHeadCache& c, const MatrixView& dOut, Matrix& dxq, Matrix& dxkv,
                       MultiHeadWeights& grad) {
  const Index D = w.Wq.cols(), dk = D / c.heads;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
  // out = concat Wo + bo
  gemm(c.concat, Trans::kYes, dOut, Trans::kNo, grad.Wo, Update::kAdd);
  addColumnSums(dOut, grad.bo);
  Matrix dConcat(dOut.rows(), D);
  gemm(dOut, Trans::kNo, w.Wo, Trans::kYes, dConcat);
  Matrix dq(c.q.rows(), D), dk_(c.k.rows(), D), dv(c.v.rows(), D);
  Matrix dA, dS;
  for (int b = 0; b < c.queries.examples(); ++b) {
    const Index q0 = c.queries.offset[b], tq = c.queries.length[b];
    const Index k0 = c.keys.offset[b], tk = c.keys.length[b];
    dA.resize(tq, tk);
    dS.resize(tq, tk);
    for (int i = 0; i < c.heads; ++i) {
      const ConstMatrixMap a = c.headWeights(b, i);
      const auto dHead = dConcat.block(q0, i * dk, tq, dk);
      // head = A V: dA (tq x tk) = dHead V^T, dV (tk x dk) = A^T dHead
      gemm(dHead, Trans::kNo, c.v.block(k0, i * dk, tk, dk), Trans::kYes, dA);
      gemm(a, Trans::kYes, dHead, Trans::kNo, dv.block(k0, i * dk, tk, dk));
      // softmax of scale * S: dS = scale * A * (dA - rowsum(dA * A)); masked entries have A = 0.
      for (Index r = 0; r < tq; ++r) {
        const double dot = a.row(r).dot(dA.row(r));
        dS.row(r) = scale * a.row(r).cwiseProduct((dA.row(r).array() - dot).matrix());
      }
      // S = Q K^T: dQ = dS K, dK = dS^T Q
      gemm(dS, Trans::kNo, c.k.block(k0, i * dk, tk, dk), Trans::kNo, dq.block(q0, i * dk, tq, dk));
      gemm(dS, Trans::kYes, c.q.block(q0, i * dk, tq, dk), Trans::kNo,
           dk_.block(k0, i * dk, tk, dk));
    }
  }
  // The projections: dW += x^T dProj, db += column sums, dx = dProj W^T.
  gemm(xq, Trans::kYes, dq, Trans::kNo, grad.Wq, Update::kAdd);
  addColumnSums(dq, grad.bq);
  gemm(xkv, Trans::kYes, dk_, Trans::kNo, grad.Wk, Update::kAdd);
  addColumnSums(dk_, grad.bk);
  gemm(xkv, Trans::kYes, dv, Trans::kNo, grad.Wv, Update::kAdd);
  addColumnSums(dv, grad.bv);
  dxq.resize(xq.rows(), D);
  gemm(dq, Trans::kNo, w.Wq, Trans::kYes, dxq);
  dxkv.resize(xkv.rows(), D);
  gemm(dk_, Trans::kNo, w.Wk, Trans::kYes, dxkv);
  gemm(dv, Trans::kNo, w.Wv, Trans::kYes, dxkv, Update::kAdd);
}

// ---- output projection and loss ----

double outputLossForward(const MatrixView& Wo, const MatrixView& bo, const MatrixView& x,
                         const std::vector<int>& targets, double smoothing, Matrix& probs) {
  const Index n = x.rows(), W = Wo.cols();
  Matrix logits(n, W);
  linearInto(x, Wo, bo.data(), WeightLayout::kInOut, logits);
  probs = logits;
  softmaxRowsInPlace(probs);
  double total = 0;
  for (Index r = 0; r < n; ++r) {
    // log p_j = (l_j - max l) + log p_max: exact and finite even where p_j underflows to 0.
    Index best = 0;
    const double maxLogit = logits.row(r).maxCoeff(&best);
    const double logPMax = std::log(probs(r, best));
    const auto logP = [&](Index j) { return logits(r, j) - maxLogit + logPMax; };
    double loss = -(1.0 - smoothing) * logP(targets[r]);
    if (smoothing > 0) {
      double sumLog = 0;
      for (Index j = 0; j < W; ++j) sumLog += logP(j);
      loss -= smoothing / W * sumLog;
    }
    total += loss;
  }
  return n == 0 ? 0.0 : total / n;
}

void outputLossBackward(const MatrixView& Wo, const MatrixView& x, const MatrixView& probs,
                        const std::vector<int>& targets, double smoothing, Matrix& dx,
                        MatrixMap& gradWo, MatrixMap& gradBo) {
  const Index n = x.rows(), W = Wo.cols();
  // dlogits = (p - q) / n
  Matrix dLogits = probs.array() - smoothing / W;
  for (Index r = 0; r < n; ++r) dLogits(r, targets[r]) -= 1.0 - smoothing;
  dLogits /= static_cast<double>(std::max<Index>(n, 1));
  gemm(x, Trans::kYes, dLogits, Trans::kNo, gradWo, Update::kAdd);
  gradBo += dLogits.colwise().sum();
  dx.resize(n, x.cols());
  gemm(dLogits, Trans::kNo, Wo, Trans::kYes, dx);
}

}  // namespace attention

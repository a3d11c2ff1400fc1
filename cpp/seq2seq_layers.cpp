#include "seq2seq_layers.h"

#include <cmath>

namespace attention {

namespace {

using Index = Eigen::Index;
using Stride = Eigen::OuterStride<>;
// The rows of one example inside a time-major matrix: (T x H) with stride B*H.
using ExampleRows = Eigen::Map<Matrix, 0, Stride>;
using ConstExampleRows = Eigen::Map<const Matrix, 0, Stride>;

ConstExampleRows exampleRows(const MatrixView& m, int b, int batch, int rows) {
  return ConstExampleRows(m.data() + static_cast<Index>(b) * m.outerStride(), rows, m.cols(),
                          Stride(m.outerStride() * batch));
}
ExampleRows exampleRows(Matrix& m, int b, int batch, int rows) {
  return ExampleRows(m.data() + static_cast<Index>(b) * m.cols(), rows, m.cols(),
                     Stride(m.cols() * batch));
}

template <typename Derived>
auto sigmoid(const Eigen::ArrayBase<Derived>& x) {
  return 1.0 / (1.0 + (-x).exp());
}

}  // namespace

// ---- GRU ----

void gruForward(const GruWeights& w, const MatrixView& x, const MatrixView& h0, int steps,
                GruCache& c, const std::vector<int>* active) {
  const Index B = h0.rows(), H = h0.cols();
  c.steps = steps;
  c.batch = static_cast<int>(B);
  if (active) {
    c.active = *active;
  } else {
    c.active.assign(static_cast<std::size_t>(steps), static_cast<int>(B));
  }
  c.gx.noalias() = x * w.W;  // (T*B x 3H), all steps in one product
  c.gx.rowwise() += w.b.row(0);
  c.h = Matrix::Zero((steps + 1) * B, H);
  c.h.topRows(B) = h0;
  c.r = Matrix::Zero(steps * B, H);
  c.z = Matrix::Zero(steps * B, H);
  c.n = Matrix::Zero(steps * B, H);
  c.ghn = Matrix::Zero(steps * B, H);
  Matrix gh(B, 3 * H);
  for (int t = 0; t < steps; ++t) {
    const Index row = t * B, k = c.active[t];  // rows [row, row + k) take this step
    if (k == 0) continue;
    gh.topRows(k).noalias() = c.h.middleRows(row, k) * w.U;  // (k x 3H)
    auto gx = c.gx.middleRows(row, k);
    auto r = c.r.middleRows(row, k);
    auto z = c.z.middleRows(row, k);
    auto n = c.n.middleRows(row, k);
    const auto ghk = gh.topRows(k);
    r = sigmoid(gx.leftCols(H).array() + ghk.leftCols(H).array()).matrix();
    z = sigmoid(gx.middleCols(H, H).array() + ghk.middleCols(H, H).array()).matrix();
    c.ghn.middleRows(row, k) = ghk.rightCols(H);
    n = (gx.rightCols(H).array() + r.array() * ghk.rightCols(H).array()).tanh().matrix();
    c.h.middleRows(row + B, k) =
        ((1.0 - z.array()) * n.array() + z.array() * c.h.middleRows(row, k).array()).matrix();
  }
}

void gruStep(const GruWeights& w, const MatrixView& x, Matrix& h) {
  const Index H = h.cols();
  Matrix gx = x * w.W;  // (B x 3H)
  gx.rowwise() += w.b.row(0);
  const Matrix gh = h * w.U;  // (B x 3H)
  const Eigen::ArrayXXd r = sigmoid(gx.leftCols(H).array() + gh.leftCols(H).array());
  const Eigen::ArrayXXd z = sigmoid(gx.middleCols(H, H).array() + gh.middleCols(H, H).array());
  const Eigen::ArrayXXd n = (gx.rightCols(H).array() + r * gh.rightCols(H).array()).tanh();
  h = ((1.0 - z) * n + z * h.array()).matrix();
}

void gruBackward(const GruWeights& w, const GruCache& c, const MatrixView& x,
                 const MatrixView& dOut, Matrix& dh0, Matrix& dx, GruWeights& grad) {
  const Index B = c.batch, H = c.h.cols(), T = c.steps;
  Matrix dgx = Matrix::Zero(T * B, 3 * H);
  Matrix dgh(B, 3 * H);
  Matrix carry = Matrix::Zero(B, H);  // gradient flowing into h_t from step t+1
  Matrix dh(B, H);
  for (Index t = T - 1; t >= 0; --t) {
    const Index row = t * B, k = c.active[t];
    // Rows that skip step t have a constant (zero) output there: nothing flows back.
    carry.bottomRows(B - k).setZero();
    if (k == 0) continue;
    dh.topRows(k) = dOut.middleRows(row, k) + carry.topRows(k);
    const auto dhk = dh.topRows(k).array();
    const auto r = c.r.middleRows(row, k).array();
    const auto z = c.z.middleRows(row, k).array();
    const auto n = c.n.middleRows(row, k).array();
    const auto hPrev = c.h.middleRows(row, k).array();
    const Eigen::ArrayXXd dn = dhk * (1.0 - z);
    const Eigen::ArrayXXd dan = dn * (1.0 - n * n);
    const Eigen::ArrayXXd dar = dan * c.ghn.middleRows(row, k).array() * r * (1.0 - r);
    const Eigen::ArrayXXd daz = dhk * (hPrev - n) * z * (1.0 - z);
    auto gx = dgx.middleRows(row, k);
    gx.leftCols(H) = dar.matrix();
    gx.middleCols(H, H) = daz.matrix();
    gx.rightCols(H) = dan.matrix();
    auto dghk = dgh.topRows(k);
    dghk.leftCols(H) = dar.matrix();
    dghk.middleCols(H, H) = daz.matrix();
    dghk.rightCols(H) = (dan * r).matrix();
    grad.U.noalias() += c.h.middleRows(row, k).transpose() * dghk;
    carry.topRows(k) = (dhk * z).matrix();
    carry.topRows(k).noalias() += dghk * w.U.transpose();
  }
  dh0 = carry;
  grad.W.noalias() += x.transpose() * dgx;
  grad.b += dgx.colwise().sum();
  dx.noalias() = dgx * w.W.transpose();
}

// ---- attention ----

bool parseScoreKind(const std::string& name, ScoreKind& kind) {
  if (name == "bahdanau") {
    kind = ScoreKind::kBahdanau;
  } else if (name == "luong-dot") {
    kind = ScoreKind::kDot;
  } else if (name == "luong-general") {
    kind = ScoreKind::kGeneral;
  } else if (name == "luong-concat") {
    kind = ScoreKind::kConcat;
  } else {
    return false;
  }
  return true;
}

const char* scoreKindName(ScoreKind kind) {
  switch (kind) {
    case ScoreKind::kBahdanau:
      return "bahdanau";
    case ScoreKind::kDot:
      return "luong-dot";
    case ScoreKind::kGeneral:
      return "luong-general";
    default:
      return "luong-concat";
  }
}

namespace {

bool additive(ScoreKind kind) { return kind == ScoreKind::kBahdanau || kind == ScoreKind::kConcat; }

}  // namespace

void attentionForward(const AttentionWeights& w, const MatrixView& q, const MatrixView& k,
                      const std::vector<int>& lengths, AttentionCache& c, Matrix& context) {
  const int B = static_cast<int>(lengths.size());
  const int Tq = static_cast<int>(q.rows() / B), Tk = static_cast<int>(k.rows() / B);
  const Index H = q.cols();
  c.queries = Tq;
  c.keys = Tk;
  c.batch = B;
  c.lengths = lengths;
  c.weights = Matrix::Zero(static_cast<Index>(Tq) * B, Tk);
  context.resize(static_cast<Index>(Tq) * B, H);
  if (w.kind == ScoreKind::kGeneral) {
    c.projectedQuery.noalias() = q * w.W;
  } else if (additive(w.kind)) {
    c.projectedQuery.noalias() = q * w.Wq;
    if (w.kind == ScoreKind::kBahdanau) c.projectedQuery.rowwise() += w.bias.row(0);
    c.projectedKeys.noalias() = k * w.Wk;
    c.tanhs.resize(static_cast<Index>(Tq) * B * Tk, H);
  }
  // The query the scores use directly: q (dot) or q W (general).
  const MatrixView scoreQuery = w.kind == ScoreKind::kDot ? q : MatrixView(c.projectedQuery);
  Matrix scores;
  for (int b = 0; b < B; ++b) {
    const int len = lengths[b];
    const auto keys = exampleRows(k, b, B, len);  // (len x H)
    if (additive(w.kind)) {
      scores.resize(Tq, len);
      const auto pk = exampleRows(c.projectedKeys, b, B, len);  // (len x H)
      for (int t = 0; t < Tq; ++t) {
        const Index row = static_cast<Index>(t) * B + b;
        auto th = c.tanhs.middleRows(row * Tk, len);  // (len x H)
        th = (pk.rowwise() + c.projectedQuery.row(row)).array().tanh().matrix();
        scores.row(t).noalias() = w.v.row(0) * th.transpose();
      }
    } else {
      scores.noalias() = exampleRows(scoreQuery, b, B, Tq) * keys.transpose();  // (Tq x len)
    }
    // Row-wise softmax over the valid keys.
    auto weights = exampleRows(c.weights, b, B, Tq).leftCols(len);
    for (int t = 0; t < Tq; ++t) {
      const double max = scores.row(t).maxCoeff();
      weights.row(t) = (scores.row(t).array() - max).exp().matrix();
      weights.row(t) /= weights.row(t).sum();
    }
    exampleRows(context, b, B, Tq).noalias() = weights * keys;  // (Tq x H)
  }
}

void attentionBackward(const AttentionWeights& w, const AttentionCache& c, const MatrixView& q,
                       const MatrixView& k, const MatrixView& dContext, Matrix& dq, Matrix& dk,
                       AttentionWeights& grad) {
  const int B = c.batch, Tq = c.queries, Tk = c.keys;
  const Index H = q.cols();
  dq = Matrix::Zero(q.rows(), H);
  dk = Matrix::Zero(k.rows(), H);
  // Gradient w.r.t. the projected query (general, additive) and projected keys (additive).
  Matrix dpq, dpk;
  if (w.kind != ScoreKind::kDot) dpq = Matrix::Zero(q.rows(), H);
  if (additive(w.kind)) dpk = Matrix::Zero(k.rows(), H);
  const MatrixView scoreQuery = w.kind == ScoreKind::kDot ? q : MatrixView(c.projectedQuery);
  Matrix dWeights, dScores, dPre;
  for (int b = 0; b < B; ++b) {
    const int len = c.lengths[b];
    const auto keys = exampleRows(k, b, B, len);                          // (len x H)
    const auto weights = exampleRows(c.weights, b, B, Tq).leftCols(len);  // (Tq x len)
    const auto dCtx = exampleRows(dContext, b, B, Tq);                    // (Tq x H)
    auto dKeys = exampleRows(dk, b, B, len);                              // (len x H)
    // context = weights keys
    dWeights.noalias() = dCtx * keys.transpose();  // (Tq x len)
    dKeys.noalias() += weights.transpose() * dCtx;
    // softmax: dS = A * (dA - sum(dA * A))
    dScores = weights.array() *
              (dWeights.array().colwise() - (dWeights.array() * weights.array()).rowwise().sum());
    if (additive(w.kind)) {
      auto dpkRows = exampleRows(dpk, b, B, len);
      for (int t = 0; t < Tq; ++t) {
        const Index row = static_cast<Index>(t) * B + b;
        const auto th = c.tanhs.middleRows(row * Tk, len);  // (len x H)
        grad.v.row(0).noalias() += dScores.row(t) * th;
        dPre = ((dScores.row(t).transpose() * w.v.row(0)).array() * (1.0 - th.array().square()))
                   .matrix();  // (len x H)
        dpq.row(row) += dPre.colwise().sum();
        dpkRows += dPre;
      }
    } else {
      const auto sq = exampleRows(scoreQuery, b, B, Tq);  // (Tq x H)
      dKeys.noalias() += dScores.transpose() * sq;
      if (w.kind == ScoreKind::kDot) {
        exampleRows(dq, b, B, Tq).noalias() += dScores * keys;
      } else {
        exampleRows(dpq, b, B, Tq).noalias() += dScores * keys;
      }
    }
  }
  if (w.kind == ScoreKind::kGeneral) {
    grad.W.noalias() += q.transpose() * dpq;
    dq.noalias() += dpq * w.W.transpose();
  } else if (additive(w.kind)) {
    grad.Wq.noalias() += q.transpose() * dpq;
    dq.noalias() += dpq * w.Wq.transpose();
    if (w.kind == ScoreKind::kBahdanau) grad.bias += dpq.colwise().sum();
    grad.Wk.noalias() += k.transpose() * dpk;
    dk.noalias() += dpk * w.Wk.transpose();
  }
}

// ---- combination and output ----

void combineForward(const MatrixView& Wc, const MatrixView& c, const MatrixView& h, Matrix& a) {
  const Index H = c.cols();
  a.noalias() = c * Wc.topRows(H);
  a.noalias() += h * Wc.bottomRows(H);
  a = a.array().tanh().matrix();
}

void combineBackward(const MatrixView& Wc, const MatrixView& c, const MatrixView& h,
                     const MatrixView& a, const MatrixView& da, Matrix& dc, Matrix& dh,
                     MatrixMap& gradWc) {
  const Index H = c.cols();
  const Matrix dPre = (da.array() * (1.0 - a.array().square())).matrix();  // (N x H)
  gradWc.topRows(H).noalias() += c.transpose() * dPre;
  gradWc.bottomRows(H).noalias() += h.transpose() * dPre;
  dc.noalias() = dPre * Wc.topRows(H).transpose();
  dh.noalias() = dPre * Wc.bottomRows(H).transpose();
}

double outputForward(const MatrixView& Wo, const MatrixView& bo, const MatrixView& a,
                     const std::vector<int>& targets, const std::vector<double>& mask,
                     Matrix& probs) {
  probs.noalias() = a * Wo;
  probs.rowwise() += bo.row(0);
  for (Index r = 0; r < probs.rows(); ++r) {  // row-wise softmax
    const double max = probs.row(r).maxCoeff();
    probs.row(r) = (probs.row(r).array() - max).exp().matrix();
    probs.row(r) /= probs.row(r).sum();
  }
  double loss = 0, tokens = 0;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (mask[i] == 0) continue;
    loss -= mask[i] * std::log(probs(static_cast<Index>(i), targets[i]));
    tokens += mask[i];
  }
  return tokens > 0 ? loss / tokens : 0.0;
}

void outputBackward(const MatrixView& Wo, const MatrixView& a, const MatrixView& probs,
                    const std::vector<int>& targets, const std::vector<double>& mask, Matrix& da,
                    MatrixMap& gradWo, MatrixMap& gradBo) {
  double tokens = 0;
  for (double m : mask) tokens += m;
  // d logits = (p - onehot(target)) * mask / tokens
  Matrix dLogits = probs;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const Index r = static_cast<Index>(i);
    dLogits(r, targets[i]) -= 1.0;
    dLogits.row(r) *= tokens > 0 ? mask[i] / tokens : 0.0;
  }
  gradWo.noalias() += a.transpose() * dLogits;
  gradBo += dLogits.colwise().sum();
  da.noalias() = dLogits * Wo.transpose();
}

}  // namespace attention

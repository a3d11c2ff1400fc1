#include "seq2seq_layers.h"

#include <cmath>

#include "ops/attention.h"
#include "ops/gemm.h"
#include "ops/linear.h"
#include "ops/softmax.h"

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
  c.gx.resize(x.rows(), 3 * H);  // (T*B x 3H) = x W + b, all steps in one product
  linearInto(x, w.W, w.b.data(), WeightLayout::kInOut, c.gx);
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
    gemm(c.h.middleRows(row, k), Trans::kNo, w.U, Trans::kNo, gh.topRows(k));  // (k x 3H)
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
  Matrix gx(x.rows(), 3 * H), gh(h.rows(), 3 * H);  // (B x 3H) each
  linearInto(x, w.W, w.b.data(), WeightLayout::kInOut, gx);
  gemm(h, Trans::kNo, w.U, Trans::kNo, gh);
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
    gemm(c.h.middleRows(row, k), Trans::kYes, dghk, Trans::kNo, grad.U, Update::kAdd);
    carry.topRows(k) = (dhk * z).matrix();
    gemm(dghk, Trans::kNo, w.U, Trans::kYes, carry.topRows(k), Update::kAdd);
  }
  dh0 = carry;
  gemm(x, Trans::kYes, dgx, Trans::kNo, grad.W, Update::kAdd);
  grad.b += dgx.colwise().sum();
  dx.resize(dgx.rows(), w.W.rows());
  gemm(dgx, Trans::kNo, w.W, Trans::kYes, dx);
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
  c.scores = Matrix::Zero(static_cast<Index>(Tq) * B, Tk);
  c.weights = Matrix::Zero(static_cast<Index>(Tq) * B, Tk);
  context.resize(static_cast<Index>(Tq) * B, H);
  if (w.kind == ScoreKind::kGeneral) {
    c.projectedQuery.resize(q.rows(), H);  // filled example by example below
  } else if (additive(w.kind)) {
    // The pairwise additive score on projected inputs: qp = q Wq (+ b), kp = k Wk.
    c.projectedQuery.resize(q.rows(), H);
    linearInto(q, w.Wq, w.kind == ScoreKind::kBahdanau ? w.bias.data() : nullptr,
               WeightLayout::kInOut, c.projectedQuery);
    c.projectedKeys.resize(k.rows(), H);
    linearInto(k, w.Wk, nullptr, WeightLayout::kInOut, c.projectedKeys);
    c.tanhs.resize(static_cast<std::size_t>(B));
  }
  Matrix scores;
  for (int b = 0; b < B; ++b) {
    const int len = lengths[b];
    const auto keys = exampleRows(k, b, B, len);    // (len x H)
    const auto queries = exampleRows(q, b, B, Tq);  // (Tq x H)
    scores.resize(Tq, len);
    switch (w.kind) {
      case ScoreKind::kDot:
        dotScoresInto(queries, keys, scores);
        break;
      case ScoreKind::kGeneral:
        generalScoresInto(queries, w.W, keys, exampleRows(c.projectedQuery, b, B, Tq), scores);
        break;
      default:  // the tanhs of query t are rows [t*len, (t+1)*len) of c.tanhs[b]
        pairwiseAdditiveScoresInto(exampleRows(c.projectedQuery, b, B, Tq),
                                   exampleRows(c.projectedKeys, b, B, len), w.v.row(0).transpose(),
                                   0.0, scores, &c.tanhs[b]);
    }
    exampleRows(c.scores, b, B, Tq).leftCols(len) = scores;  // kept for the readouts
    softmaxRowsInPlace(scores);                              // over the valid keys
    exampleRows(c.weights, b, B, Tq).leftCols(len) = scores;
    weightsTimesValues(scores, keys, exampleRows(context, b, B, Tq));  // (Tq x H)
  }
}

void attentionBackward(const AttentionWeights& w, const AttentionCache& c, const MatrixView& q,
                       const MatrixView& k, const MatrixView& dContext, Matrix& dq, Matrix& dk,
                       AttentionWeights& grad) {
  const int B = c.batch, Tq = c.queries;
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
    dWeights.resize(Tq, len);
    gemm(dCtx, Trans::kNo, keys, Trans::kYes, dWeights);  // (Tq x len)
    gemm(weights, Trans::kYes, dCtx, Trans::kNo, dKeys, Update::kAdd);
    // softmax: dS = A * (dA - sum(dA * A))
    dScores = weights.array() *
              (dWeights.array().colwise() - (dWeights.array() * weights.array()).rowwise().sum());
    if (additive(w.kind)) {
      auto dpkRows = exampleRows(dpk, b, B, len);
      for (int t = 0; t < Tq; ++t) {
        const Index row = static_cast<Index>(t) * B + b;
        const auto th = c.tanhs[b].middleRows(static_cast<Index>(t) * len, len);  // (len x H)
        // (1 x len) . (len x H)
        gemm(Trans::kNo, Trans::kNo, 1, H, len, dScores.data() + static_cast<Index>(t) * len, len,
             th.data(), H, grad.v.data(), H, Update::kAdd);
        dPre = ((dScores.row(t).transpose() * w.v.row(0)).array() * (1.0 - th.array().square()))
                   .matrix();  // (len x H)
        dpq.row(row) += dPre.colwise().sum();
        dpkRows += dPre;
      }
    } else {
      const auto sq = exampleRows(scoreQuery, b, B, Tq);  // (Tq x H)
      gemm(dScores, Trans::kYes, sq, Trans::kNo, dKeys, Update::kAdd);
      gemm(dScores, Trans::kNo, keys, Trans::kNo,
           exampleRows(w.kind == ScoreKind::kDot ? dq : dpq, b, B, Tq), Update::kAdd);
    }
  }
  if (w.kind == ScoreKind::kGeneral) {
    gemm(q, Trans::kYes, dpq, Trans::kNo, grad.W, Update::kAdd);
    gemm(dpq, Trans::kNo, w.W, Trans::kYes, dq, Update::kAdd);
  } else if (additive(w.kind)) {
    gemm(q, Trans::kYes, dpq, Trans::kNo, grad.Wq, Update::kAdd);
    gemm(dpq, Trans::kNo, w.Wq, Trans::kYes, dq, Update::kAdd);
    if (w.kind == ScoreKind::kBahdanau) grad.bias += dpq.colwise().sum();
    gemm(k, Trans::kYes, dpk, Trans::kNo, grad.Wk, Update::kAdd);
    gemm(dpk, Trans::kNo, w.Wk, Trans::kYes, dk, Update::kAdd);
  }
}

// ---- combination and output ----

void combineForward(const MatrixView& Wc, const MatrixView& c, const MatrixView& h, Matrix& a) {
  const Index H = c.cols();
  a.resize(c.rows(), H);
  gemm(c, Trans::kNo, Wc.topRows(H), Trans::kNo, a);
  gemm(h, Trans::kNo, Wc.bottomRows(H), Trans::kNo, a, Update::kAdd);
  a = a.array().tanh().matrix();
}

void combineBackward(const MatrixView& Wc, const MatrixView& c, const MatrixView& h,
                     const MatrixView& a, const MatrixView& da, Matrix& dc, Matrix& dh,
                     MatrixMap& gradWc) {
  const Index H = c.cols();
  const Matrix dPre = (da.array() * (1.0 - a.array().square())).matrix();  // (N x H)
  gemm(c, Trans::kYes, dPre, Trans::kNo, gradWc.topRows(H), Update::kAdd);
  gemm(h, Trans::kYes, dPre, Trans::kNo, gradWc.bottomRows(H), Update::kAdd);
  dc.resize(dPre.rows(), H);
  dh.resize(dPre.rows(), H);
  gemm(dPre, Trans::kNo, Wc.topRows(H), Trans::kYes, dc);
  gemm(dPre, Trans::kNo, Wc.bottomRows(H), Trans::kYes, dh);
}

double outputForward(const MatrixView& Wo, const MatrixView& bo, const MatrixView& a,
                     const std::vector<int>& targets, const std::vector<double>& mask,
                     Matrix& probs) {
  probs.resize(a.rows(), Wo.cols());
  linearInto(a, Wo, bo.data(), WeightLayout::kInOut, probs);
  softmaxRowsInPlace(probs);
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
  gemm(a, Trans::kYes, dLogits, Trans::kNo, gradWo, Update::kAdd);
  gradBo += dLogits.colwise().sum();
  da.resize(dLogits.rows(), Wo.rows());
  gemm(dLogits, Trans::kNo, Wo, Trans::kYes, da);
}

}  // namespace attention

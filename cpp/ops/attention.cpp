#include "attention.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "linear.h"
#include "parallel.h"
#include "validate.h"

namespace attention {

namespace {

using Index = Eigen::Index;

std::string count(Index n, const char* what) { return std::to_string(n) + " " + what; }

Status checkWeightsAgainstValues(const VectorView& weights, const MatrixView& values) {
  RETURN_IF_ERROR(requireNonEmpty("weights", weights));
  RETURN_IF_ERROR(requireNonEmpty("values", values));
  if (weights.size() != values.rows()) {
    return Status::shapeMismatch("weights has " + std::to_string(weights.size()) +
                                 " entries but values has " + std::to_string(values.rows()) +
                                 " rows (values is " + shapeOf(values) + ")");
  }
  RETURN_IF_ERROR(requireFinite("weights", weights));
  return requireFinite("values", values);
}

Status checkMatrix(const char* name, const MatrixView& m) {
  RETURN_IF_ERROR(requireNonEmpty(name, m));
  return requireFinite(name, m);
}

template <typename M>
Status checkQueriesKeys(const M& q, const M& k) {
  RETURN_IF_ERROR(requireNonEmpty("Q", q));
  RETURN_IF_ERROR(requireNonEmpty("K", k));
  if (q.cols() != k.cols()) {
    return Status::shapeMismatch("Q has " + std::to_string(q.cols()) + " columns but K has " +
                                 std::to_string(k.cols()) + " (Q is " + shapeOf(q) + ", K is " +
                                 shapeOf(k) + "); queries and keys need the same size d_k");
  }
  return Status::ok();
}

template <typename M>
Status checkKeysValues(const M& k, const M& v) {
  if (k.rows() != v.rows()) {
    return Status::shapeMismatch("K has " + std::to_string(k.rows()) + " rows but V has " +
                                 std::to_string(v.rows()) + " (K is " + shapeOf(k) + ", V is " +
                                 shapeOf(v) + "); every key needs one value");
  }
  return Status::ok();
}

// ---- scores that overflow ----------------------------------------------------------
//
// Scores are sums of products of finite inputs, yet they can overflow: to ±inf
// when |score| passes the type's largest number (1.8e308 in float64, 3.4e38 in
// float32), or to NaN through inf − inf. Softmax cannot recover such a row (it
// subtracts the row's maximum: inf − inf again), so every attention function
// reports the first such score the same way, as a value error naming the score
// and the inputs to scale down, instead of returning NaN weights.

template <typename T>
const char* typeName() {
  return sizeof(T) == 4 ? "float32 (|score| > 3.4e38)" : "float64 (|score| > 1.8e308)";
}

template <typename T>
Status scoreOverflow(const std::string& score, const char* inputs) {
  return Status::invalidValue(score + " overflows " + typeName<T>() + "; scale " + inputs +
                              " down");
}

}  // namespace

// ---- one query -------------------------------------------------------------------

Status dot(const VectorView& a, const VectorView& b, double& out) {
  RETURN_IF_ERROR(requireNonEmpty("a", a));
  RETURN_IF_ERROR(requireNonEmpty("b", b));
  if (a.size() != b.size()) {
    return Status::shapeMismatch("a has " + std::to_string(a.size()) + " entries but b has " +
                                 std::to_string(b.size()));
  }
  RETURN_IF_ERROR(requireFinite("a", a));
  RETURN_IF_ERROR(requireFinite("b", b));
  out = a.dot(b);
  if (!std::isfinite(out)) return scoreOverflow<double>("a · b", "a or b");
  return Status::ok();
}

Status dotScores(const VectorView& query, const MatrixView& keys, Vector& scores) {
  RETURN_IF_ERROR(requireNonEmpty("query", query));
  RETURN_IF_ERROR(requireNonEmpty("keys", keys));
  if (query.size() != keys.cols()) {
    return Status::shapeMismatch("query has " + std::to_string(query.size()) +
                                 " entries but keys have " + std::to_string(keys.cols()) +
                                 " columns (keys is " + shapeOf(keys) + ")");
  }
  RETURN_IF_ERROR(requireFinite("query", query));
  RETURN_IF_ERROR(requireFinite("keys", keys));
  scores.resize(keys.rows());
  // The dot score with one query row: (1 x d) . (d x n).
  dotScoresInto(ConstMatrixMap(query.data(), 1, query.size()), keys,
                MatrixMap(scores.data(), 1, scores.size()));
  for (Index i = 0; i < scores.size(); ++i) {
    if (!std::isfinite(scores[i])) {
      return scoreOverflow<double>(
          "score " + std::to_string(i) + " (query · keys row " + std::to_string(i) + ")",
          "query or keys");
    }
  }
  return Status::ok();
}

Status scaleRows(const VectorView& weights, const MatrixView& values, Matrix& out) {
  RETURN_IF_ERROR(checkWeightsAgainstValues(weights, values));
  out = weights.asDiagonal() * values;
  return requireFiniteResult("the scaled rows", out, "weights or values");
}

Status weightedSum(const VectorView& weights, const MatrixView& values, Vector& out) {
  RETURN_IF_ERROR(checkWeightsAgainstValues(weights, values));
  out.resize(values.cols());
  // weights . V with one row of weights: (1 x n) . (n x d) -> (1 x d).
  weightsTimesValues(ConstMatrixMap(weights.data(), 1, weights.size()), values,
                     MatrixMap(out.data(), 1, out.size()));
  return requireFiniteVectorResult("weights · values", out, "weights or values");
}

// ---- score functions ---------------------------------------------------------------

void dotScoresInto(const MatrixView& q, const MatrixView& k, MatrixOut scores) {
  gemm(q, Trans::kNo, k, Trans::kYes, scores);
}

void generalScoresInto(const MatrixView& q, const MatrixView& w, const MatrixView& k,
                       MatrixOut projected, MatrixOut scores) {
  linearInto(q, w, nullptr, WeightLayout::kInOut, projected);
  dotScoresInto(projected, k, scores);
}

void pairwiseAdditiveScoresInto(const MatrixView& qp, const MatrixView& kp, const VectorView& ws,
                                double bs, MatrixOut scores, Matrix* tanhs) {
  const Index n = qp.rows(), m = kp.rows(), h = kp.cols();
  Matrix local;
  Matrix& th = tanhs ? *tanhs : local;
  th.resize(tanhs ? n * m : m, h);
  for (Index i = 0; i < n; ++i) {
    // (m x h): query row i plus every key row; every pair, not row i with row i.
    auto block = th.middleRows(tanhs ? i * m : 0, m);
    // libm's tanh (Eigen has no vectorised double tanh): the chapters print 8 digits.
    block = (kp.rowwise() + qp.row(i)).array().tanh().matrix();
    for (Index j = 0; j < m; ++j) scores(i, j) = block.row(j).dot(ws.transpose()) + bs;
  }
}

namespace {

Status checkConcat(const MatrixView& encoderStates, const VectorView& decoderState,
                   const MatrixView& W1, const VectorView& w2) {
  RETURN_IF_ERROR(requireNonEmpty("encoderStates", encoderStates));
  RETURN_IF_ERROR(requireNonEmpty("decoderState", decoderState));
  RETURN_IF_ERROR(requireNonEmpty("W1", W1));
  RETURN_IF_ERROR(requireNonEmpty("w2", w2));
  const Index hidden = encoderStates.cols();
  if (decoderState.size() != hidden) {
    return Status::shapeMismatch("decoderState has " + std::to_string(decoderState.size()) +
                                 " entries but encoderStates has " + std::to_string(hidden) +
                                 " columns (encoderStates is " + shapeOf(encoderStates) + ")");
  }
  if (W1.rows() != 2 * hidden) {
    return Status::shapeMismatch("W1 has " + std::to_string(W1.rows()) +
                                 " rows but needs 2 x hidden = " + std::to_string(2 * hidden) +
                                 " (W1 is " + shapeOf(W1) + ", encoderStates is " +
                                 shapeOf(encoderStates) + ")");
  }
  if (w2.size() != W1.cols()) {
    return Status::shapeMismatch("w2 has " + std::to_string(w2.size()) + " entries but W1 has " +
                                 std::to_string(W1.cols()) + " columns (W1 is " + shapeOf(W1) +
                                 ")");
  }
  RETURN_IF_ERROR(requireFinite("encoderStates", encoderStates));
  RETURN_IF_ERROR(requireFinite("decoderState", decoderState));
  RETURN_IF_ERROR(requireFinite("W1", W1));
  return requireFinite("w2", w2);
}

// Fills inputs (n x 2h), activations (n x a) and scores (n); shapes are checked.
void concatSteps(const MatrixView& encoderStates, const VectorView& decoderState,
                 const MatrixView& W1, const VectorView& w2, ConcatAttentionSteps& out) {
  const Index n = encoderStates.rows(), hidden = encoderStates.cols(), a = W1.cols();
  out.inputs.resize(n, 2 * hidden);
  out.inputs.leftCols(hidden) = encoderStates;
  out.inputs.rightCols(hidden) = decoderState.transpose().replicate(n, 1);
  out.activations.resize(n, a);
  gemm(out.inputs, Trans::kNo, W1, Trans::kNo, out.activations);
  // libm's tanh, not a vectorised approximation: the chapter prints 8 digits.
  out.activations = out.activations.unaryExpr([](double x) { return std::tanh(x); });
  out.scores.resize(n);
  // (n x a) . (a x 1) -> (n x 1)
  gemm(Trans::kNo, Trans::kNo, n, 1, a, out.activations.data(), a, w2.data(), 1, out.scores.data(),
       1);
}

// A concat score is w2 · tanh(W1ᵀ x_i): tanh saturates an overflow to ±1, but
// inf − inf inside W1ᵀ x_i is NaN, and w2 · a_i can overflow too.
Status checkConcatScores(const ConcatAttentionSteps& steps) {
  for (Index i = 0; i < steps.scores.size(); ++i) {
    if (!std::isfinite(steps.scores[i])) {
      return scoreOverflow<double>(
          "score " + std::to_string(i) + " (w2 · tanh(W1ᵀ [h_" + std::to_string(i) + "; s]))",
          "encoderStates, decoderState, W1 or w2");
    }
  }
  return Status::ok();
}

}  // namespace

Status concatScores(const MatrixView& encoderStates, const VectorView& decoderState,
                    const MatrixView& W1, const VectorView& w2, Vector& scores) {
  RETURN_IF_ERROR(checkConcat(encoderStates, decoderState, W1, w2));
  ConcatAttentionSteps steps;
  concatSteps(encoderStates, decoderState, W1, w2, steps);
  RETURN_IF_ERROR(checkConcatScores(steps));
  scores = std::move(steps.scores);
  return Status::ok();
}

Status concatAttention(const MatrixView& encoderStates, const VectorView& decoderState,
                       const MatrixView& W1, const VectorView& w2, ConcatAttentionSteps& out) {
  RETURN_IF_ERROR(checkConcat(encoderStates, decoderState, W1, w2));
  concatSteps(encoderStates, decoderState, W1, w2, out);
  RETURN_IF_ERROR(checkConcatScores(out));
  RETURN_IF_ERROR(softmax(out.scores, out.weights));
  RETURN_IF_ERROR(scaleRows(out.weights, encoderStates, out.weighted));
  return weightedSum(out.weights, encoderStates, out.context);  // (h): weights . V
}

// ---- weights . V ---------------------------------------------------------------------

void weightsTimesValues(const MatrixView& weights, const MatrixView& values, MatrixOut out) {
  gemm(weights, Trans::kNo, values, Trans::kNo, out);
}

namespace {

// The float64 and float32 paths below are one template over the element type
// T; the public functions are thin overloads.

// Strided row-major view of a (rows x cols) block: entry (r, c) is data[r * stride + c].
template <typename T>
struct Block {
  const T* data;
  Index rows, cols, stride;
};

template <typename T>
Block<T> blockOf(const MatrixViewOf<T>& m) {
  return {m.data(), m.rows(), m.cols(), m.outerStride()};
}

// Rows per pass: their scores (kRowBlock x n_k) stay in cache between the
// score product, the softmax and the weights-times-values product.
// (-DATTENTION_ROW_BLOCK=... for measuring other sizes.)
#ifndef ATTENTION_ROW_BLOCK
#define ATTENTION_ROW_BLOCK 16
#endif
constexpr Index kRowBlock = ATTENTION_ROW_BLOCK;

// q: (n_q x d_k), k: (n_k x d_k), v: (n_k x d_v), mask: (n_q x n_k) or null
//   -> out: (n_q x d_v) at stride ldo, w: (n_q x n_k) at stride ldw.
// Inputs are already validated. kt, vp are scratch for packed k^T and v.
// Returns true, with the cell in (badRow, badCol), when an unmasked score
// overflows (see "scores that overflow"); out and w are then unspecified.
// window > 0: row i uses no key j <= i - window; scoreScale 0: 1 / sqrt(d_k).
template <typename T>
bool singleHeadAttention(const Block<T>& q, const Block<T>& k, const Block<T>& v,
                         const Block<T>* mask, bool causal, T* out, Index ldo, T* w, Index ldw,
                         std::vector<T>& kt, std::vector<T>& vp, Index& badRow, Index& badCol,
                         int window = 0, double scoreScale = 0) {
  const Index nq = q.rows, nk = k.rows, dk = k.cols, dv = v.cols;
  // Scores are q k^T: with k^T packed, each score row is a sum of contiguous
  // rows (the SIMD-friendly form) and no horizontal sums are needed.
  packB(Trans::kYes, k.data, k.stride, dk, nk, kt);
  packB(Trans::kNo, v.data, v.stride, nk, dv, vp);
  // 1 / sqrt(d_k) in double, rounded once to T.
  const T scale =
      static_cast<T>(scoreScale > 0 ? scoreScale : 1.0 / std::sqrt(static_cast<double>(dk)));
  // One block of kRowBlock query rows; true (with the cell) if a score overflowed.
  const auto rowBlock = [&](Index i0, Index& blockBadRow, Index& blockBadCol) {
    const Index rows = std::min(kRowBlock, nq - i0);
    // With the causal mask no query of this block looks past key i0 + rows - 1.
    const Index active = causal ? std::min(nk, i0 + rows) : nk;
    T* wBlock = w + i0 * ldw;
    gemmPacked(rows, active, dk, q.data + i0 * q.stride, q.stride, kt.data(), dk, wBlock, ldw);
    for (Index r = 0; r < rows; ++r) {
      const Index i = i0 + r;
      // The sliding window's first key b: the keys before it get weight 0 and
      // the row's softmax runs on [b, nk) (b <= i < active when causal).
      const Index b = std::min(windowStart(i, window), active);
      std::fill(wBlock + r * ldw, wBlock + r * ldw + b, T(0));
      T* row = wBlock + r * ldw + b;
      const T* m = mask ? mask->data + i * mask->stride + b : nullptr;
      // Every score the softmax uses must be finite. The softmax checks its
      // row in the pass that scales it (a sum of x * 0 is NaN exactly when
      // some x is ±inf or NaN) and stops before any exp if not; only such a
      // row is scanned entry by entry, skipping masked scores.
      const Index limit = (causal ? i + 1 : nk) - b;
      if (!softmaxRowIfFinite(row, nk - b, active - b, limit, scale, m)) {
        const Index end = causal ? std::min(i + 1, active) - b : nk - b;
        for (Index j = 0; j < end; ++j) {
          if (!std::isfinite(row[j]) && !(m && m[j] == T(0))) {
            blockBadRow = i;
            blockBadCol = b + j;
            return true;
          }
        }
        // Only masked scores were not finite: the row is scaled, masked
        // entries -inf (weight exactly 0); finish it with scale 1, no mask.
        softmaxRow(row, nk - b, active - b, limit, T(1), static_cast<const T*>(nullptr));
      }
    }
    gemmPacked(rows, dv, active, wBlock, ldw, vp.data(), nk, out + i0 * ldo, ldo);
    return false;
  };
  const Index blocks = (nq + kRowBlock - 1) / kRowBlock;
  if (piecesFor(static_cast<double>(nq) * nk * (dk + dv), blocks) == 1) {
    for (Index i0 = 0; i0 < nq; i0 += kRowBlock)
      if (rowBlock(i0, badRow, badCol)) return true;
    return false;
  }
  // Blocks on threads (parallel.h), the last first: under the causal mask they
  // are the longest. The overflow reported is the first in row order, as above.
  std::vector<Index> bad(static_cast<std::size_t>(2 * blocks), -1);
  parallelFor(0, blocks, [&](Index t) {
    const Index block = blocks - 1 - t;
    rowBlock(block * kRowBlock, bad[2 * block], bad[2 * block + 1]);
  });
  for (Index block = 0; block < blocks; ++block) {
    if (bad[2 * block] >= 0) {
      badRow = bad[2 * block];
      badCol = bad[2 * block + 1];
      return true;
    }
  }
  return false;
}

// ---- validation ---------------------------------------------------------------

template <typename Out>
Status checkOutputs(Index rows, Index cols, Index wRows, Index wCols, const Out& output,
                    const Out& weights) {
  if (output.rows() != rows || output.cols() != cols) {
    return Status::shapeMismatch("output is " + dims(output.rows(), output.cols()) +
                                 " but must be " + dims(rows, cols));
  }
  if (weights.rows() != wRows || weights.cols() != wCols) {
    return Status::shapeMismatch("weights is " + dims(weights.rows(), weights.cols()) +
                                 " but must be " + dims(wRows, wCols));
  }
  return Status::ok();
}

template <typename M>
Status checkAttentionInputs(const M& q, const M& k, const M& v) {
  RETURN_IF_ERROR(requireNonEmpty("Q", q));
  RETURN_IF_ERROR(requireNonEmpty("K", k));
  RETURN_IF_ERROR(requireNonEmpty("V", v));
  RETURN_IF_ERROR(checkQueriesKeys(q, k));
  RETURN_IF_ERROR(checkKeysValues(k, v));
  RETURN_IF_ERROR(requireFinite("Q", q));
  RETURN_IF_ERROR(requireFinite("K", k));
  return requireFinite("V", v);
}

template <typename T>
Status attentionScoresOf(const MatrixViewOf<T>& q, const MatrixViewOf<T>& k, bool scaled,
                         MatrixOutOf<T> scores) {
  RETURN_IF_ERROR(checkQueriesKeys(q, k));
  RETURN_IF_ERROR(requireFinite("Q", q));
  RETURN_IF_ERROR(requireFinite("K", k));
  if (scores.rows() != q.rows() || scores.cols() != k.rows()) {
    return Status::shapeMismatch("scores is " + dims(scores.rows(), scores.cols()) +
                                 " but must be " + dims(q.rows(), k.rows()));
  }
  gemm(q, Trans::kNo, k, Trans::kYes, scores);  // the dot score q k^T
  if (scaled) scores /= static_cast<T>(std::sqrt(static_cast<double>(q.cols())));
  for (Index i = 0; i < scores.rows(); ++i) {
    if (rowKnownFinite(scores, i)) continue;
    for (Index j = 0; j < scores.cols(); ++j) {
      if (!std::isfinite(scores(i, j))) {
        return scoreOverflow<T>(
            "score (" + std::to_string(i) + ", " + std::to_string(j) + ") of Q·Kᵀ", "Q or K");
      }
    }
  }
  return Status::ok();
}

template <typename T>
Status scaledDotProductAttentionOf(const MatrixViewOf<T>& q, const MatrixViewOf<T>& k,
                                   const MatrixViewOf<T>& v, const AttentionMaskOf<T>& mask,
                                   MatrixOutOf<T> output, MatrixOutOf<T> weights) {
  RETURN_IF_ERROR(checkAttentionInputs(q, k, v));
  RETURN_IF_ERROR(checkMask(mask, q.rows(), k.rows()));
  RETURN_IF_ERROR(checkOutputs(q.rows(), v.cols(), q.rows(), k.rows(), output, weights));
  thread_local std::vector<T> kt, vp;  // packing buffers, their capacity kept between calls
  const Block<T> maskBlock = mask.mask ? blockOf<T>(*mask.mask) : Block<T>{nullptr, 0, 0, 0};
  Index i = 0, j = 0;
  if (singleHeadAttention(blockOf<T>(q), blockOf<T>(k), blockOf<T>(v),
                          mask.mask ? &maskBlock : nullptr, mask.causal, output.data(),
                          output.outerStride(), weights.data(), weights.outerStride(), kt, vp, i, j,
                          mask.window, mask.scale)) {
    return scoreOverflow<T>("score (" + std::to_string(i) + ", " + std::to_string(j) + ") of Q·Kᵀ",
                            "Q or K");
  }
  return Status::ok();
}

// out (n x d_model) = x (n x d_model) w (d_model x d_model) + b (d_model), through linear.
template <typename T>
void project(const MatrixViewOf<T>& x, const MatrixViewOf<T>& w,
             const std::optional<VectorViewOf<T>>& b, MatrixOutOf<T> out) {
  linearInto(x, w, b ? b->data() : nullptr, WeightLayout::kInOut, out);
}

// w: (d_model x cols), b: (cols) or none.
template <typename T>
Status checkProjection(const char* wName, const MatrixViewOf<T>& w, const char* bName,
                       const std::optional<VectorViewOf<T>>& b, Index dModel, Index cols,
                       const char* colsName) {
  RETURN_IF_ERROR(requireShape(wName, w, dModel, cols, std::string("d_model x ") + colsName));
  RETURN_IF_ERROR(requireFinite(wName, w));
  if (!b) return Status::ok();
  if (b->size() != cols) {
    return Status::shapeMismatch(std::string(bName) + " has " + std::to_string(b->size()) +
                                 " entries but must have " + colsName + " = " +
                                 std::to_string(cols));
  }
  return requireFinite(bName, *b);
}

template <typename T>
Status multiHeadAttentionOf(const MatrixViewOf<T>& q, const MatrixViewOf<T>& k,
                            const MatrixViewOf<T>& v, const MultiHeadParamsOf<T>& params,
                            const AttentionMaskOf<T>& mask, MatrixOutOf<T> output,
                            MatrixOutOf<T> weights) {
  RETURN_IF_ERROR(requireNonEmpty("Q", q));
  RETURN_IF_ERROR(requireNonEmpty("K", k));
  RETURN_IF_ERROR(requireNonEmpty("V", v));
  const Index dModel = q.cols();
  if (k.cols() != dModel || v.cols() != dModel) {
    return Status::shapeMismatch(
        "Q, K and V must have the same number of columns d_model, but Q is " + shapeOf(q) +
        ", K is " + shapeOf(k) + " and V is " + shapeOf(v));
  }
  RETURN_IF_ERROR(checkKeysValues(k, v));
  const int h = params.heads;
  if (h < 1) {
    return Status::invalidValue("heads is " + std::to_string(h) + " but must be at least 1");
  }
  if (dModel % h != 0) {
    return Status::shapeMismatch(
        "heads = " + std::to_string(h) + " does not divide d_model = " + std::to_string(dModel) +
        " (Q is " + shapeOf(q) + "); each head needs d_model / heads columns");
  }
  const int kvh = params.kvHeads == 0 ? h : params.kvHeads;
  if (kvh < 1 || kvh > h || h % kvh != 0) {
    return Status::invalidValue("kvHeads is " + std::to_string(params.kvHeads) +
                                " but must divide heads = " + std::to_string(h) +
                                " (each key/value head serves heads / kvHeads query heads)");
  }
  RETURN_IF_ERROR(requireFinite("Q", q));
  RETURN_IF_ERROR(requireFinite("K", k));
  RETURN_IF_ERROR(requireFinite("V", v));
  const Index nq = q.rows(), nk = k.rows(), dk = dModel / h, dKv = kvh * dk;
  const char* kvCols = kvh == h ? "d_model" : "kvHeads * d_k";
  RETURN_IF_ERROR(checkProjection<T>("Wq", params.wq, "bq", params.bq, dModel, dModel, "d_model"));
  RETURN_IF_ERROR(checkProjection<T>("Wk", params.wk, "bk", params.bk, dModel, dKv, kvCols));
  RETURN_IF_ERROR(checkProjection<T>("Wv", params.wv, "bv", params.bv, dModel, dKv, kvCols));
  RETURN_IF_ERROR(checkProjection<T>("Wo", params.wo, "bo", params.bo, dModel, dModel, "d_model"));
  RETURN_IF_ERROR(checkMask(mask, q.rows(), k.rows()));
  RETURN_IF_ERROR(checkOutputs(nq, dModel, h * nq, nk, output, weights));

  // Projections, one token a row: qProj (n_q x d_model), kProj and vProj
  // (n_k x kvHeads * d_k): each key/value head is computed once, whatever
  // number of query heads share it.
  MatrixOf<T> qProj(nq, dModel), kProj(nk, dKv), vProj(nk, dKv), concat(nq, dModel);
  project<T>(q, params.wq, params.bq, qProj);
  project<T>(k, params.wk, params.bk, kProj);
  project<T>(v, params.wv, params.bv, vProj);
  for (const auto& [name, m] : {std::pair<const char*, const MatrixOf<T>*>{"Q·Wq + bq", &qProj},
                                {"K·Wk + bk", &kProj},
                                {"V·Wv + bv", &vProj}}) {
    if (!m->allFinite()) {
      return Status::invalidValue(std::string("the projection ") + name + " overflows " +
                                  (sizeof(T) == 4 ? "float32" : "float64") +
                                  "; scale the inputs or the weights down");
    }
  }
  const Block<T> maskBlock = mask.mask ? blockOf<T>(*mask.mask) : Block<T>{nullptr, 0, 0, 0};
  thread_local std::vector<T> kt, vp;  // packing buffers, their capacity kept between calls
  for (int head = 0; head < h; ++head) {
    // Head `head` reads columns [head * d_k, (head + 1) * d_k) of qProj, those
    // of its key/value head g in kProj and vProj, and writes its columns of
    // concat (n_q x d_model): strided views, no copies.
    const Index c0 = head * dk;
    const Index g0 = static_cast<Index>(head) * kvh / h * dk;
    Index i = 0, j = 0;
    if (singleHeadAttention(
            Block<T>{qProj.data() + c0, nq, dk, dModel}, Block<T>{kProj.data() + g0, nk, dk, dKv},
            Block<T>{vProj.data() + g0, nk, dk, dKv}, mask.mask ? &maskBlock : nullptr, mask.causal,
            concat.data() + c0, dModel, weights.data() + head * nq * weights.outerStride(),
            weights.outerStride(), kt, vp, i, j, mask.window, mask.scale)) {
      return scoreOverflow<T>("head " + std::to_string(head) + ": score (" + std::to_string(i) +
                                  ", " + std::to_string(j) + ") of (Q·Wq)·(K·Wk)ᵀ",
                              "Q, K, Wq or Wk");
    }
  }
  project<T>(concat, params.wo, params.bo, output);
  return requireFiniteResult("the output (concat·Wo + bo)", output, "V, Wv or Wo");
}

}  // namespace

// ---- public kernels (float64, and the float32 path) ------------------------------

Status attentionScores(const MatrixView& q, const MatrixView& k, bool scaled, MatrixOut scores) {
  return attentionScoresOf<double>(q, k, scaled, scores);
}

Status attentionScores(const MatrixView32& q, const MatrixView32& k, bool scaled,
                       MatrixOut32 scores) {
  return attentionScoresOf<float>(q, k, scaled, scores);
}

Status scaledDotProductAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                                 const AttentionMask& mask, MatrixOut output, MatrixOut weights) {
  return scaledDotProductAttentionOf<double>(q, k, v, mask, output, weights);
}

Status scaledDotProductAttention(const MatrixView32& q, const MatrixView32& k,
                                 const MatrixView32& v, const AttentionMask32& mask,
                                 MatrixOut32 output, MatrixOut32 weights) {
  return scaledDotProductAttentionOf<float>(q, k, v, mask, output, weights);
}

Status scaledDotProductAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                                 const AttentionMask& mask, Matrix& output, Matrix& weights) {
  output.resize(q.rows(), v.cols());
  weights.resize(q.rows(), k.rows());
  return scaledDotProductAttention(q, k, v, mask, MatrixOut(output), MatrixOut(weights));
}

Status scaledDotProductAttention(const MatrixView32& q, const MatrixView32& k,
                                 const MatrixView32& v, const AttentionMask32& mask,
                                 Matrix32& output, Matrix32& weights) {
  output.resize(q.rows(), v.cols());
  weights.resize(q.rows(), k.rows());
  return scaledDotProductAttention(q, k, v, mask, MatrixOut32(output), MatrixOut32(weights));
}

Status multiHeadAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                          const MultiHeadParams& params, const AttentionMask& mask,
                          MatrixOut output, MatrixOut weights) {
  return multiHeadAttentionOf<double>(q, k, v, params, mask, output, weights);
}

Status multiHeadAttention(const MatrixView32& q, const MatrixView32& k, const MatrixView32& v,
                          const MultiHeadParams32& params, const AttentionMask32& mask,
                          MatrixOut32 output, MatrixOut32 weights) {
  return multiHeadAttentionOf<float>(q, k, v, params, mask, output, weights);
}

Status multiHeadAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                          const MultiHeadParams& params, const AttentionMask& mask, Matrix& output,
                          Matrix& weights) {
  output.resize(q.rows(), q.cols());
  weights.resize(static_cast<Index>(std::max(params.heads, 1)) * q.rows(), k.rows());
  return multiHeadAttention(q, k, v, params, mask, MatrixOut(output), MatrixOut(weights));
}

Status multiHeadAttention(const MatrixView32& q, const MatrixView32& k, const MatrixView32& v,
                          const MultiHeadParams32& params, const AttentionMask32& mask,
                          Matrix32& output, Matrix32& weights) {
  output.resize(q.rows(), q.cols());
  weights.resize(static_cast<Index>(std::max(params.heads, 1)) * q.rows(), k.rows());
  return multiHeadAttention(q, k, v, params, mask, MatrixOut32(output), MatrixOut32(weights));
}

Status pairwiseAdditiveAttention(const MatrixView& projectedQueries,
                                 const MatrixView& projectedKeys, const VectorView& ws, double bs,
                                 const MatrixView& values, Matrix& scores, Matrix& weights,
                                 Matrix& output) {
  RETURN_IF_ERROR(checkMatrix("projectedQueries", projectedQueries));
  RETURN_IF_ERROR(checkMatrix("projectedKeys", projectedKeys));
  RETURN_IF_ERROR(requireNonEmpty("ws", ws));
  if (projectedQueries.cols() != projectedKeys.cols()) {
    return Status::shapeMismatch(
        "projectedQueries have " + count(projectedQueries.cols(), "columns") +
        " but projectedKeys have " + count(projectedKeys.cols(), "columns") +
        " (projectedQueries is " + shapeOf(projectedQueries) + ", projectedKeys is " +
        shapeOf(projectedKeys) + ")");
  }
  if (ws.size() != projectedKeys.cols()) {
    return Status::shapeMismatch("ws has " + count(ws.size(), "entries") +
                                 " but the projections have " +
                                 count(projectedKeys.cols(), "columns") + " (projectedKeys is " +
                                 shapeOf(projectedKeys) + ")");
  }
  RETURN_IF_ERROR(requireFinite("ws", ws));
  if (!std::isfinite(bs)) return Status::invalidValue("bs must be a finite number");
  RETURN_IF_ERROR(checkMatrix("values", values));
  if (values.rows() != projectedKeys.rows()) {
    return Status::shapeMismatch("values has " + count(values.rows(), "rows") +
                                 " but projectedKeys has " + count(projectedKeys.rows(), "rows") +
                                 " (values is " + shapeOf(values) + ", projectedKeys is " +
                                 shapeOf(projectedKeys) + ")");
  }
  scores.resize(projectedQueries.rows(), projectedKeys.rows());
  pairwiseAdditiveScoresInto(projectedQueries, projectedKeys, ws, bs, scores);
  for (Index i = 0; i < scores.rows(); ++i) {
    for (Index j = 0; j < scores.cols(); ++j) {
      if (!std::isfinite(scores(i, j))) {
        return scoreOverflow<double>("score (" + std::to_string(i) + ", " + std::to_string(j) + ")",
                                     "projectedQueries, projectedKeys or ws");
      }
    }
  }
  RETURN_IF_ERROR(softmaxRows(scores, AttentionMask{}, 1.0, weights));
  output.resize(weights.rows(), values.cols());
  weightsTimesValues(weights, values, output);
  return Status::ok();
}

}  // namespace attention

// The only file that knows about Emscripten. Every raw binding takes pointers
// into the wasm heap (as integers) plus explicit sizes, writes its result into a
// caller-allocated output buffer, and returns a StatusCode; the message of the
// last failure is read with _lastError(). The JS layer (web/src/api/) owns all
// allocation, copying and Error construction; users never see these functions.
#include <emscripten/bind.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "basics.h"
#include "status.h"
#include "tensor.h"
#include "transformer.h"

namespace attention {
namespace {

using Ptr = std::uintptr_t;

std::string lastError;

int report(const Status& status) {
  lastError = status.message;
  return static_cast<int>(status.code);
}

ConstVectorMap vectorAt(Ptr p, int n) {
  return ConstVectorMap(reinterpret_cast<const double*>(p), n);
}
ConstMatrixMap matrixAt(Ptr p, int rows, int cols) {
  return ConstMatrixMap(reinterpret_cast<const double*>(p), rows, cols);
}
template <typename Dense>
void copyOut(const Dense& result, Ptr out) {
  std::copy(result.data(), result.data() + result.size(), reinterpret_cast<double*>(out));
}

std::string lastErrorMessage() { return lastError; }

// ---- Attention Basics -------------------------------------------------------

int rawDot(Ptr a, int na, Ptr b, int nb, Ptr out) {
  double result = 0;
  const Status s = dot(vectorAt(a, na), vectorAt(b, nb), result);
  if (s.isOk()) *reinterpret_cast<double*>(out) = result;
  return report(s);
}

// query: (d), keys: (n x d) -> out: (n)
int rawDotScores(Ptr query, int d, Ptr keys, int n, int keyCols, Ptr out) {
  Vector scores;
  const Status s = dotScores(vectorAt(query, d), matrixAt(keys, n, keyCols), scores);
  if (s.isOk()) copyOut(scores, out);
  return report(s);
}

template <Status (*Kernel)(const VectorView&, Vector&)>
int rawVectorToVector(Ptr x, int n, Ptr out) {
  Vector result;
  const Status s = Kernel(vectorAt(x, n), result);
  if (s.isOk()) copyOut(result, out);
  return report(s);
}

// weights: (n), values: (rows x cols) -> out: (rows x cols)
int rawScaleRows(Ptr weights, int n, Ptr values, int rows, int cols, Ptr out) {
  Matrix result;
  const Status s = scaleRows(vectorAt(weights, n), matrixAt(values, rows, cols), result);
  if (s.isOk()) copyOut(result, out);
  return report(s);
}

// weights: (n), values: (rows x cols) -> out: (cols)
int rawWeightedSum(Ptr weights, int n, Ptr values, int rows, int cols, Ptr out) {
  Vector result;
  const Status s = weightedSum(vectorAt(weights, n), matrixAt(values, rows, cols), result);
  if (s.isOk()) copyOut(result, out);
  return report(s);
}

// ---- RandomState (NumPy-exact) ----

// ---- Additive (Bahdanau) attention ----

// ---- Transformer attention ----

MatrixMap outputAt(Ptr p, int rows, int cols) {
  return MatrixMap(reinterpret_cast<double*>(p), rows, cols);
}

// 0 / 0 x 0 means "no mask"; otherwise (rows x cols) of 0/1.
AttentionMask maskAt(Ptr mask, int rows, int cols, bool causal) {
  AttentionMask m;
  if (mask != 0) m.mask.emplace(matrixAt(mask, rows, cols));
  m.causal = causal;
  return m;
}

std::optional<VectorView> biasAt(Ptr b, int n) {
  if (b == 0) return std::nullopt;
  return VectorView(vectorAt(b, n));
}

// q: (nq x dq), k: (nk x dk), v: (nv x dv), mask: (maskRows x maskCols) or 0
//   -> out: (nq x dv) and weights: (nq x nk), written in place (no copy)
int rawScaledDotProductAttention(Ptr q, int nq, int dq, Ptr k, int nk, int dk, Ptr v, int nv,
                                 int dv, Ptr mask, int maskRows, int maskCols, bool causal, Ptr out,
                                 Ptr weights) {
  return report(scaledDotProductAttention(
      matrixAt(q, nq, dq), matrixAt(k, nk, dk), matrixAt(v, nv, dv),
      maskAt(mask, maskRows, maskCols, causal), outputAt(out, nq, dv), outputAt(weights, nq, nk)));
}

// a: (m x p), b: (rows x n) -> out: (m x n)
int rawMatmul(Ptr a, int m, int p, Ptr b, int rows, int n, Ptr out) {
  return report(matmul(matrixAt(a, m, p), matrixAt(b, rows, n), outputAt(out, m, n)));
}

// q: (nq x dq), k: (nk x dk) -> out: (nq x nk)
int rawAttentionScores(Ptr q, int nq, int dq, Ptr k, int nk, int dk, bool scaled, Ptr out) {
  return report(
      attentionScores(matrixAt(q, nq, dq), matrixAt(k, nk, dk), scaled, outputAt(out, nq, nk)));
}

// Embind passes at most a few dozen arguments comfortably, so multi-head
// attention reads its shapes from an int32 array `dims` in the heap:
//   [nq, dq, nk, dk, nv, dv, heads, wqRows, wqCols, wkRows, wkCols, wvRows,
//    wvCols, woRows, woCols, nbq, nbk, nbv, nbo, maskRows, maskCols, causal]
// and its pointers from `ptrs`: [q, k, v, wq, wk, wv, wo, bq, bk, bv, bo, mask]
// (0 for an absent bias or mask).
// -> out: (nq x dq), weights: (heads * nq x nk), written in place.
int rawMultiHeadAttention(Ptr dimsPtr, Ptr ptrsPtr, Ptr out, Ptr weights) {
  const auto* dims = reinterpret_cast<const std::int32_t*>(dimsPtr);
  const auto* ptrs = reinterpret_cast<const std::uint32_t*>(ptrsPtr);
  const int nq = dims[0], dq = dims[1], nk = dims[2], heads = dims[6];
  const MultiHeadParams params{heads,
                               matrixAt(ptrs[3], dims[7], dims[8]),
                               matrixAt(ptrs[4], dims[9], dims[10]),
                               matrixAt(ptrs[5], dims[11], dims[12]),
                               matrixAt(ptrs[6], dims[13], dims[14]),
                               biasAt(ptrs[7], dims[15]),
                               biasAt(ptrs[8], dims[16]),
                               biasAt(ptrs[9], dims[17]),
                               biasAt(ptrs[10], dims[18])};
  const int weightRows = heads > 0 ? heads * nq : 0;
  return report(multiHeadAttention(matrixAt(ptrs[0], nq, dq), matrixAt(ptrs[1], nk, dims[3]),
                                   matrixAt(ptrs[2], dims[4], dims[5]), params,
                                   maskAt(ptrs[11], dims[19], dims[20], dims[21] != 0),
                                   outputAt(out, nq, dq), outputAt(weights, weightRows, nk)));
}

// ---- Embeddings ----

// ---- Seq2seq trainer ----

}  // namespace
}  // namespace attention

EMSCRIPTEN_BINDINGS(attention_core) {
  using namespace attention;
  emscripten::function("_lastError", &lastErrorMessage);

  // ---- Attention Basics ----
  emscripten::function("_dot", &rawDot);
  emscripten::function("_dotScores", &rawDotScores);
  emscripten::function("_softmax", &rawVectorToVector<softmax>);
  emscripten::function("_logSoftmax", &rawVectorToVector<logSoftmax>);
  emscripten::function("_naiveSoftmax", &rawVectorToVector<naiveSoftmax>);
  emscripten::function("_scaleRows", &rawScaleRows);
  emscripten::function("_weightedSum", &rawWeightedSum);

  // ---- RandomState (NumPy-exact) ----

  // ---- Additive (Bahdanau) attention ----

  // ---- Transformer attention ----
  emscripten::function("_scaledDotProductAttention", &rawScaledDotProductAttention);
  emscripten::function("_multiHeadAttention", &rawMultiHeadAttention);
  emscripten::function("_matmul", &rawMatmul);
  emscripten::function("_attentionScores", &rawAttentionScores);

  // ---- Embeddings ----

  // ---- Seq2seq trainer ----
}

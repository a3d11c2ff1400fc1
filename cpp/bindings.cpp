// The only file that knows about Emscripten. Every raw binding takes pointers
// into the wasm heap (as integers) plus explicit sizes, writes its result into a
// caller-allocated output buffer, and returns a StatusCode; the message of the
// last failure is read with _lastError(). The JS layer (web/src/api/) owns all
// allocation, copying and Error construction; users never see these functions.
#include <emscripten/bind.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "additive.h"
#include "basics.h"
#include "linalg.h"
#include "random_state.h"
#include "status.h"
#include "tensor.h"

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

int rawValidateSeed(double seed) { return report(validateSeed(seed)); }

// Methods of the bound _RandomState class: out has room for rows * cols doubles.
int rawRandn(RandomState& rs, int rows, int cols, Ptr out) {
  Matrix result;
  const Status s = rs.randn(rows, cols, result);
  if (s.isOk()) copyOut(result, out);
  return report(s);
}
int rawRand(RandomState& rs, int rows, int cols, Ptr out) {
  Matrix result;
  const Status s = rs.rand(rows, cols, result);
  if (s.isOk()) copyOut(result, out);
  return report(s);
}
int rawRandint(RandomState& rs, double low, double high, int rows, int cols, Ptr out) {
  Matrix result;
  const Status s = rs.randint(low, high, rows, cols, result);
  if (s.isOk()) copyOut(result, out);
  return report(s);
}

// ---- Additive (Bahdanau) attention ----

// encoderStates: (n x h), decoderState: (hd), W1: (w1Rows x a), w2: (a2) -> scores: (n)
int rawAdditiveScores(Ptr enc, int n, int h, Ptr dec, int hd, Ptr W1, int w1Rows, int a, Ptr w2,
                      int a2, Ptr scoresOut) {
  Vector scores;
  const Status s = additiveScores(matrixAt(enc, n, h), vectorAt(dec, hd), matrixAt(W1, w1Rows, a),
                                  vectorAt(w2, a2), scores);
  if (s.isOk()) copyOut(scores, scoresOut);
  return report(s);
}

// Same inputs; outputs inputs (n x 2h), activations (n x a), scores (n),
// weights (n), weighted (n x h), context (h).
int rawAdditiveAttention(Ptr enc, int n, int h, Ptr dec, int hd, Ptr W1, int w1Rows, int a, Ptr w2,
                         int a2, Ptr inputsOut, Ptr activationsOut, Ptr scoresOut, Ptr weightsOut,
                         Ptr weightedOut, Ptr contextOut) {
  AdditiveAttention result;
  const Status s = additiveAttention(matrixAt(enc, n, h), vectorAt(dec, hd),
                                     matrixAt(W1, w1Rows, a), vectorAt(w2, a2), result);
  if (s.isOk()) {
    copyOut(result.inputs, inputsOut);
    copyOut(result.activations, activationsOut);
    copyOut(result.scores, scoresOut);
    copyOut(result.weights, weightsOut);
    copyOut(result.weighted, weightedOut);
    copyOut(result.context, contextOut);
  }
  return report(s);
}

// matmul (cpp/linalg.h), used by the Bahdanau and Q/K/V chapters:
// a: (m x k), b: (k2 x n) -> out: (m x n)
int rawMatmul(Ptr a, int m, int k, Ptr b, int k2, int n, Ptr out) {
  Matrix result;
  const Status s = matmul(matrixAt(a, m, k), matrixAt(b, k2, n), result);
  if (s.isOk()) copyOut(result, out);
  return report(s);
}

// ---- Transformer attention ----

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
  emscripten::function("_validateSeed", &rawValidateSeed);
  emscripten::class_<RandomState>("_RandomState")
      .constructor<std::uint32_t>()
      .function("randn", &rawRandn)
      .function("rand", &rawRand)
      .function("randint", &rawRandint);

  // ---- Additive (Bahdanau) attention ----
  emscripten::function("_additiveScores", &rawAdditiveScores);
  emscripten::function("_additiveAttention", &rawAdditiveAttention);
  emscripten::function("_matmul", &rawMatmul);

  // ---- Transformer attention ----

  // ---- Embeddings ----

  // ---- Seq2seq trainer ----
}

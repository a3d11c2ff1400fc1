// The building blocks of attention, as in the "Attention Basics" chapter:
// scoring by dot product, softmax in three flavours, and the context vector.
// Shapes: d = hidden size, n = number of encoder steps (rows of `keys`/`values`).
#pragma once

#include "status.h"
#include "tensor.h"

namespace attention {

// a: (d), b: (d) -> out: a . b
Status dot(const VectorView& a, const VectorView& b, double& out);

// query: (d), keys: (n x d) -> scores: (n), scores[i] = query . keys[i]
Status dotScores(const VectorView& query, const MatrixView& keys, Vector& scores);

// x: (n) -> out: (n). Subtracts max(x) first, so it never overflows.
// -Infinity marks a masked position (weight 0); if every entry is masked the
// result is all zeros rather than NaN.
Status softmax(const VectorView& x, Vector& out);

// x: (n) -> out: (n), log(softmax(x)) computed without leaving log space, so
// weights far below the smallest double (e.g. exp(-781)) keep their value.
Status logSoftmax(const VectorView& x, Vector& out);

// x: (n) -> out: (n), exp(x) / sum(exp(x)) exactly as written. Kept for
// teaching: exp(927) overflows to Infinity in float64 and the result is NaN.
Status naiveSoftmax(const VectorView& x, Vector& out);

// weights: (n), values: (n x d) -> out: (n x d), out[i] = weights[i] * values[i]
Status scaleRows(const VectorView& weights, const MatrixView& values, Matrix& out);

// weights: (n), values: (n x d) -> out: (d), the context vector sum_i weights[i] * values[i]
Status weightedSum(const VectorView& weights, const MatrixView& values, Vector& out);

}  // namespace attention

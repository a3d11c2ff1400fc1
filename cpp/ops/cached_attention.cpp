#include "cached_attention.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "gemm.h"
#include "softmax.h"
#include "validate.h"

namespace attention {

Status cachedAttentionRow(const MatrixView32& q, const MatrixView32& keys,
                          const MatrixView32& values, int window, double scale, MatrixOut32 output,
                          MatrixOut32 weights) {
  using Index = Eigen::Index;
  const Index n = keys.rows(), dk = keys.cols(), dv = values.cols();
  if (q.rows() != 1 || q.cols() != dk || n < 1 || values.rows() != n) {
    return Status::shapeMismatch("cachedAttentionRow: q is " + shapeOf(q) + ", keys " +
                                 shapeOf(keys) + ", values " + shapeOf(values) +
                                 "; q must be 1 x d_k and keys, values the same n >= 1 rows");
  }
  if (output.rows() != 1 || output.cols() != dv || weights.rows() != 1 || weights.cols() != n) {
    return Status::shapeMismatch("cachedAttentionRow: output is " +
                                 dims(output.rows(), output.cols()) + " and weights " +
                                 dims(weights.rows(), weights.cols()) + " but must be " +
                                 dims(1, dv) + " and " + dims(1, n));
  }
  if (window < 0 || !(scale >= 0 && scale <= 1)) {
    return Status::invalidValue("cachedAttentionRow: window must be >= 0 and scale in [0, 1]");
  }
  RETURN_IF_ERROR(requireFinite("q", q));
  // The query is row n - 1 of the causal mask: it sees keys [first, n).
  const Index first = windowStart(n - 1, window), seen = n - first;
  float* w = weights.data();
  std::fill(w, w + first, 0.0f);
  // Scores: one dot product per cached key row (the matrix-vector product).
  gemv(seen, dk, keys.data() + first * keys.outerStride(), keys.outerStride(), q.data(), w + first);
  const float s = static_cast<float>(scale > 0 ? scale : 1.0 / std::sqrt(static_cast<double>(dk)));
  if (!softmaxRowIfFinite(w + first, seen, seen, seen, s, static_cast<const float*>(nullptr))) {
    return Status::invalidValue(
        "cachedAttentionRow: a score of q·Kᵀ overflows float32 (|score| > "
        "3.4e38); scale q or K down");
  }
  // output = sum_j w_j values_j, in key order.
  output.setZero();
  for (Index j = first; j < n; ++j) output += w[j] * values.row(j);
  return Status::ok();
}

}  // namespace attention

// The one softmax of the core, and its teaching relatives.
//
// softmaxRows turns row-major scores into weights, row by row, with an
// optional 0/1 mask, an optional causal limit and a scale factor applied
// before the exponential. Its exp underflows exactly like libm (exp(-781) is 0,
// not Eigen's clamped 1e-308), and a row whose every entry is masked becomes
// all zeros, never NaN. Attention, the seq2seq attention layer and the
// seq2seq output softmax all use it; softmax() on a vector is one such row.
// The row kernel and the mask also exist in float32 (the float32 attention
// path), with a float32 exp that underflows the same way (see softmax.cpp).
// Shapes: n = entries of a vector; scores/weights (rows x cols).
#pragma once

#include <optional>

#include "gemm.h"
#include "status.h"
#include "tensor.h"

namespace attention {

// Which entries each row may use (T: the element type of the scores).
template <typename T>
struct AttentionMaskOf {
  // (rows x cols) of 0/1, or empty for "everything allowed".
  // mask(i, j) == 0 means row (query) i may not attend to column (key) j.
  std::optional<MatrixViewOf<T>> mask;
  // Row i may not use columns j > i (keys "after" its own position).
  bool causal = false;
  // Sliding window (Gemma 3's local layers): W > 0 hides columns j <= i - W
  // from row i, so with `causal` it sees the W keys i - W < j <= i. 0: none.
  int window = 0;
  // Attention's score scale; 0: 1 / sqrt(d_k). Gemma 3 scales by
  // query_pre_attn_scalar^-0.5. In (0, 1], so a finite score stays finite.
  double scale = 0;
};
using AttentionMask = AttentionMaskOf<double>;
using AttentionMask32 = AttentionMaskOf<float>;

// The kernel: one row of scores s[0, n) -> softmax weights of scale * s in
// place. Columns j >= end and columns with mask[j] == 0 (mask may be null) get
// weight exactly 0; s[j] for j >= computed was never computed and is only
// overwritten (end is capped at computed).
void softmaxRow(double* s, Eigen::Index n, Eigen::Index computed, Eigen::Index end, double scale,
                const double* mask);
// The same in float32 (exp below: expNonPositive).
void softmaxRow(float* s, Eigen::Index n, Eigen::Index computed, Eigen::Index end, float scale,
                const float* mask);

// The attention kernel's form: the same, unless some score in [0, end) (masked
// or not) is ±inf or NaN; then it stops before any exp, leaves s[0, end) as
// scale * s with masked entries -inf, and returns false. scale must be in
// (0, 1] (1 / sqrt(d_k)), so a score is finite exactly when its scaled value is.
bool softmaxRowIfFinite(double* s, Eigen::Index n, Eigen::Index computed, Eigen::Index end,
                        double scale, const double* mask);
bool softmaxRowIfFinite(float* s, Eigen::Index n, Eigen::Index computed, Eigen::Index end,
                        float scale, const float* mask);

// The float32 exp of the float32 kernel, for x <= 0 (a softmax argument
// x - max): within 2 ulp of exp(x) correctly rounded to float, subnormal
// results (exp(x) < 2^-126, x < -87.34) rounded once to the subnormal grid,
// exactly 0 where exp(x) rounds to 0 (x < -103.97) and for -Infinity.
// Exposed for its test; the kernel inlines the same code (softmax_exp.h).
float expNonPositive(float x);
// The float64 exp of the kernel, for x <= 0: about 1 ulp, subnormal results
// rounded once, exactly 0 below -745.13 and for -Infinity.
double expNonPositive(double x);

// Row `row`'s first column under a sliding window (0 for window 0).
inline Eigen::Index windowStart(Eigen::Index row, int window) {
  return window > 0 && row >= window ? row - window + 1 : 0;
}

// Every row of s (unchecked): s <- softmax(scale * s) row by row, no mask.
void softmaxRowsInPlace(MatrixOut s, double scale = 1.0);

// mask.mask must be (rows x cols) of 0/1 entries, window >= 0, scale 0 or in (0, 1].
Status checkMask(const AttentionMask& mask, Eigen::Index rows, Eigen::Index cols);
Status checkMask(const AttentionMask32& mask, Eigen::Index rows, Eigen::Index cols);

// scores: (rows x cols), finite -> weights: (rows x cols), resized.
// weights[i] = softmax(scale * scores[i]) over the columns mask allows
// (mask.mask, causal and window; mask.scale is attention's and unused here).
Status softmaxRows(const MatrixView& scores, const AttentionMask& mask, double scale,
                   Matrix& weights);

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

}  // namespace attention

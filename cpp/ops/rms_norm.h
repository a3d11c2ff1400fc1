// RMS norm (Zhang & Sennrich 2019, "Root Mean Square Layer Normalization"):
// layer norm without the mean and the bias, over each `width`-wide block of a
// row (the whole row; or each head, for the QK-norm of Qwen3 and Gemma 3):
//   y = x / sqrt(mean(x^2) + eps) * w          (Llama, Qwen)
//   y = x / sqrt(mean(x^2) + eps) * (1 + w)    (Gemma: weights stored as offsets from 1)
// The mean of squares is accumulated in double for both element types.
// Shapes: x (n x blocks * width), w (width) -> y (n x blocks * width).
#pragma once

#include "gemm.h"
#include "status.h"
#include "tensor.h"

namespace attention {

enum class RmsNormWeight { kPlain, kOffsetByOne };

// Unchecked, into a caller-sized y (may alias x); w points at width values.
void rmsNormInto(const MatrixView& x, const double* w, Eigen::Index width, double eps,
                 RmsNormWeight form, MatrixOut y);
void rmsNormInto(const MatrixView32& x, const float* w, Eigen::Index width, float eps,
                 RmsNormWeight form, MatrixOut32 y);

// Validated; the blocks are w.size() wide; y is resized. Messages name x, w and eps.
Status rmsNorm(const MatrixView& x, const VectorView& w, double eps, RmsNormWeight form, Matrix& y);
Status rmsNorm(const MatrixView32& x, const VectorView32& w, float eps, RmsNormWeight form,
               Matrix32& y);

}  // namespace attention

// Layer norm over the last dimension, row by row (Ba, Kiros, Hinton 2016):
//   y[r] = gamma * (x[r] - mean(x[r])) / sqrt(var(x[r]) + eps) + beta
// var is the biased (population) variance, as in PyTorch's nn.LayerNorm and
// GPT-2 (eps = layer_norm_epsilon, 1e-5). The row's mean and variance are
// accumulated in double for both element types, so a float32 row of 768
// entries loses no more than its final roundings.
// Shapes: x (n x d), gamma (d), beta (d) -> y (n x d).
#pragma once

#include "gemm.h"
#include "status.h"
#include "tensor.h"

namespace attention {

// Unchecked, into a caller-sized y (may alias x). gamma and beta point at d
// contiguous values.
void layerNormInto(const MatrixView& x, const double* gamma, const double* beta, double eps,
                   MatrixOut y);
void layerNormInto(const MatrixView32& x, const float* gamma, const float* beta, float eps,
                   MatrixOut32 y);

// Validated; y is resized. Messages name x, gamma, beta and eps.
Status layerNorm(const MatrixView& x, const VectorView& gamma, const VectorView& beta, double eps,
                 Matrix& y);
Status layerNorm(const MatrixView32& x, const VectorView32& gamma, const VectorView32& beta,
                 float eps, Matrix32& y);

}  // namespace attention

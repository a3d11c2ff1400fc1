// Scaled dot-product attention computed the way FlashAttention does it: the
// keys are read in blocks, and each query keeps a running maximum m, a running
// sum l of exp(score - m) and an unnormalised output O, rescaled by
// exp(m_old - m_new) whenever a block raises the maximum (online softmax:
// Milakov & Gimelshein 2018; FlashAttention: Dao et al. 2022). After the last
// block, output = O / l, the same numbers scaledDotProductAttention gives
// without ever holding a whole row of scores.
//
// Shapes: q (n_q x d_k), k (n_k x d_k), v (n_k x d_v), B = blockSize,
// nb = ceil(n_k / B) key blocks.
#pragma once

#include "gemm.h"
#include "status.h"
#include "tensor.h"

namespace attention {

// Key blocks of `blockSize` keys: ceil(keys / blockSize); blockSize >= 1.
Eigen::Index onlineSoftmaxBlocks(Eigen::Index keys, Eigen::Index blockSize);

// output (n_q x d_v) = softmax(q k^T / sqrt(d_k)) v, with key j hidden from
// query i when causal and j > i. maxAfter and sumAfter (n_q x nb): m and l of
// each query after each block, -Infinity and 0 while no key was visible yet.
// A query that sees no key at all gets an all-zero output row. The outputs
// must already have these shapes.
Status onlineSoftmaxAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                              Eigen::Index blockSize, bool causal, MatrixOut output,
                              MatrixOut maxAfter, MatrixOut sumAfter);
Status onlineSoftmaxAttention(const MatrixView32& q, const MatrixView32& k, const MatrixView32& v,
                              Eigen::Index blockSize, bool causal, MatrixOut32 output,
                              MatrixOut32 maxAfter, MatrixOut32 sumAfter);

}  // namespace attention

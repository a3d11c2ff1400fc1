// Attention of one new query over a cache of keys and values: the step of
// decoding with a KV cache (each layer keeps the keys and values of every
// position so far; a new token computes only its own row). Causal by
// construction: the cache holds the query's own position and the ones before.
//
// Shapes: n = cached positions (the query's is n - 1), d_k = key size,
// d_v = value size. keys and values may be strided views (one kv head's
// columns of a layer's cache, shared by the query heads of its group).
#pragma once

#include "gemm.h"  // MatrixOut32
#include "status.h"
#include "tensor.h"

namespace attention {

// q: (1 x d_k), keys: (n x d_k), values: (n x d_v)
//   -> weights: (1 x n) = softmax(scale * q keys^T), output: (1 x d_v) = weights values.
// window > 0 (a sliding-window layer): keys j <= n - 1 - window get weight 0
// exactly, as row n - 1 of the windowed causal mask (softmax.h's AttentionMask).
// scale 0: 1 / sqrt(d_k); else in (0, 1]. `output` and `weights` must be sized.
// Fails for mismatched shapes, a q that is not finite, or a score that overflows
// float32 (a value error, as scaledDotProductAttention reports it).
Status cachedAttentionRow(const MatrixView32& q, const MatrixView32& keys,
                          const MatrixView32& values, int window, double scale, MatrixOut32 output,
                          MatrixOut32 weights);

}  // namespace attention

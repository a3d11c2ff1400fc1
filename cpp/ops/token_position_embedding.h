// Token + learned position embeddings (GPT-2's input layer):
//   x[t] = wte[ids[t]] + wpe[t]
// Shapes: wte (V x D) token table, wpe (P x D) position table, ids (T) with
// 0 <= ids[t] < V and 1 <= T <= P -> x (T x D).
#pragma once

#include <vector>

#include "gemm.h"
#include "status.h"
#include "tensor.h"

namespace attention {

// Validated (messages name ids and the tables' shapes); x must already be
// (T x D) (not checked: the caller sizes it).
Status tokenPositionEmbedding(const MatrixView& wte, const MatrixView& wpe,
                              const std::vector<int>& ids, MatrixOut x);
Status tokenPositionEmbedding(const MatrixView32& wte, const MatrixView32& wpe,
                              const std::vector<int>& ids, MatrixOut32 x);

}  // namespace attention

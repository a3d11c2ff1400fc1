// General linear algebra the chapters need beside their own kernels.
#pragma once

#include "status.h"
#include "tensor.h"

namespace attention {

// a: (m x k), b: (k x n) -> out: (m x n), the matrix product a . b
// (e.g. Q = words . W_Q in the Q/K/V chapter).
Status matmul(const MatrixView& a, const MatrixView& b, Matrix& out);

}  // namespace attention

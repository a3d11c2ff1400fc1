// The one matrix product of the core, BLAS-like:
//   C = op(A) op(B)   or   C += op(A) op(B),   op(X) = X or X^T.
// Every product in the core goes through it: attention scores and weights . V,
// the linear layers, the seq2seq layers' forward and backward passes, and the
// bindings' matmul. The kernel packs B into panels and runs a SIMD micro-kernel
// (wasm SIMD128 in the browser, SSE2/AVX natively); see gemm.cpp.
//
// Shapes: op(A) is (m x k), op(B) is (k x n), C is (m x n). All matrices are
// row-major with a leading dimension (the distance between two rows).
//
// Two element types, one kernel: double, and float for the float32 path. The
// kernel is a template over the element type; a SIMD register holds 2 doubles
// or 4 floats (wasm SIMD128), so the float kernel does twice the work per
// instruction with the same packing and register blocking.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "status.h"
#include "tensor.h"

namespace attention {

// Writable view of a row-major matrix whose shape is already right.
template <typename T>
using MatrixOutOf = Eigen::Ref<MatrixOf<T>>;
using MatrixOut = MatrixOutOf<double>;
using MatrixOut32 = MatrixOutOf<float>;

enum class Trans { kNo, kYes };    // op(X) = X or X^T
enum class Update { kSet, kAdd };  // C = ... or C += ...

// Raw form: op(a) (m x k), op(b) (k x n) -> c (m x n). No checks; k may be 0
// (then C is set to 0 or left as is).
void gemm(Trans ta, Trans tb, Eigen::Index m, Eigen::Index n, Eigen::Index k, const double* a,
          Eigen::Index lda, const double* b, Eigen::Index ldb, double* c, Eigen::Index ldc,
          Update update = Update::kSet);
void gemm(Trans ta, Trans tb, Eigen::Index m, Eigen::Index n, Eigen::Index k, const float* a,
          Eigen::Index lda, const float* b, Eigen::Index ldb, float* c, Eigen::Index ldc,
          Update update = Update::kSet);

// The same over Eigen views; shapes must agree (asserted only by the caller).
void gemm(const MatrixView& a, Trans ta, const MatrixView& b, Trans tb, MatrixOut c,
          Update update = Update::kSet);
void gemm(const MatrixView32& a, Trans ta, const MatrixView32& b, Trans tb, MatrixOut32 c,
          Update update = Update::kSet);

// The validated product for the API: a: (m x k), b: (k x n), both finite
// -> c: (m x n) = a b, written into a caller-sized c.
Status matmulInto(const MatrixView& a, const MatrixView& b, MatrixOut c);
Status matmulInto(const MatrixView32& a, const MatrixView32& b, MatrixOut32 c);
// The same, sizing out itself.
Status matmul(const MatrixView& a, const MatrixView& b, Matrix& out);

// ---- the matrix-vector case ----------------------------------------------------
// y (m) = a (m x k, row-major) x (k): one dot product per row of a, read once in
// order, nothing packed. For a product with one column (a language model's
// logits for its last position: the (V x D) output table times one hidden
// state), where the packed kernel would pack all of a and use one column of a
// panel of 8. No checks.
void gemv(Eigen::Index m, Eigen::Index k, const double* a, Eigen::Index lda, const double* x,
          double* y);
void gemv(Eigen::Index m, Eigen::Index k, const float* a, Eigen::Index lda, const float* x,
          float* y);

// ---- packed form, for callers that reuse one packed B over many products ------
// (scaled dot-product attention packs K^T and V once per call.)

// b: op(b) is (rows x cols) -> panels of a packed B.
void packB(Trans tb, const double* b, Eigen::Index ldb, Eigen::Index rows, Eigen::Index cols,
           std::vector<double>& packed);
void packB(Trans tb, const float* b, Eigen::Index ldb, Eigen::Index rows, Eigen::Index cols,
           std::vector<float>& packed);

// 16-bit weights kept as stored (IEEE half, or bfloat16: a float's top 16 bits)
// and widened to float, exactly (every value of both is a float), where they
// are read (gemmStreamBHalf, token_table.h), so a model's 16-bit matrices take
// half the memory of float32 ones and give the same products.
enum class HalfFormat { kF16, kBF16 };
void widenHalves(const std::uint16_t* in, std::size_t n, HalfFormat format, float* out);
// True if no value of in[0, n) is ±inf or NaN (exponent bits all set).
bool halvesFinite(const std::uint16_t* in, std::size_t n, HalfFormat format);

// c (m x n) = a (m x k) . packedB, where packedB was packed with panelRows >= k
// rows (only the first k are used).
void gemmPacked(Eigen::Index m, Eigen::Index n, Eigen::Index k, const double* a, Eigen::Index lda,
                const double* packed, Eigen::Index panelRows, double* c, Eigen::Index ldc,
                Update update = Update::kSet);
void gemmPacked(Eigen::Index m, Eigen::Index n, Eigen::Index k, const float* a, Eigen::Index lda,
                const float* packed, Eigen::Index panelRows, float* c, Eigen::Index ldc,
                Update update = Update::kSet);

// ---- weights: a packed B much larger than the caches, used once a pass --------
// packStreamB: packB's panels in groups of four stored depth row after depth
// row (a group's four panel rows side by side), so that one row of a reads the
// weights as one sequential stream (gemm.cpp). 16-bit values are kept as stored.
void packStreamB(Trans tb, const double* b, Eigen::Index ldb, Eigen::Index rows, Eigen::Index cols,
                 std::vector<double>& packed);
void packStreamB(Trans tb, const float* b, Eigen::Index ldb, Eigen::Index rows, Eigen::Index cols,
                 std::vector<float>& packed);
void packStreamB(Trans tb, const std::uint16_t* b, Eigen::Index ldb, Eigen::Index rows,
                 Eigen::Index cols, std::vector<std::uint16_t>& packed);

// c (m x n) = a (m x k) . B packed by packStreamB with panelRows >= k rows: B
// streams from memory once per 64 rows of a, in depth blocks that keep packed a
// in L2 (gemm.cpp). One row of a (a decoder's new token) takes a one-row kernel
// over each group of panels: no zero rows computed.
void gemmStreamB(Eigen::Index m, Eigen::Index n, Eigen::Index k, const double* a, Eigen::Index lda,
                 const double* packed, Eigen::Index panelRows, double* c, Eigen::Index ldc,
                 Update update = Update::kSet);
void gemmStreamB(Eigen::Index m, Eigen::Index n, Eigen::Index k, const float* a, Eigen::Index lda,
                 const float* packed, Eigen::Index panelRows, float* c, Eigen::Index ldc,
                 Update update = Update::kSet);
// The same on 16-bit groups (packStreamB's 16-bit form): each panel's
// depth block widened just before use, so weights stream at half the bytes,
// with gemmStreamB's sums in gemmStreamB's order (the same results as on the
// widened panels); one row of a widens BF16 in registers.
void gemmStreamBHalf(Eigen::Index m, Eigen::Index n, Eigen::Index k, const float* a,
                     Eigen::Index lda, const std::uint16_t* packed, HalfFormat format,
                     Eigen::Index panelRows, float* c, Eigen::Index ldc,
                     Update update = Update::kSet);

}  // namespace attention

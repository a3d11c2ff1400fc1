#include "gemm.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "validate.h"

namespace attention {

namespace {

using Index = Eigen::Index;

// ---- blocked matrix product ---------------------------------------------------
//
// c = op(a) op(b) with op(b) "packed": cut into panels of kPanel columns, each
// panel stored row after row contiguously (panelRows x kPanel, zero-padded on
// the right). The micro-kernel then reads b sequentially, whatever the
// original stride or transpose: reading a column panel of a 1024-wide
// row-major matrix directly touches one cache line per 8 KiB, all in the same
// L1 set, and was 3x slower natively.

// SIMD through the GCC/Clang vector extension: one Vec is a wasm SIMD128
// register (2 doubles) in the browser, an AVX register natively when the
// compiler may use AVX. Plain loops were not enough: both GCC and Clang chose
// to vectorise the reduction loop with shuffles, 3-4x slower.
#if defined(__AVX__)
constexpr int kLanes = 4;
#else
constexpr int kLanes = 2;  // SSE2, wasm SIMD128
#endif
typedef double Vec __attribute__((vector_size(kLanes * sizeof(double))));

#ifndef ATTENTION_MICRO_ROWS
#define ATTENTION_MICRO_ROWS 4
#endif
#ifndef ATTENTION_PANEL_VECS
#define ATTENTION_PANEL_VECS 2
#endif
constexpr int kMicroRows = ATTENTION_MICRO_ROWS;  // rows of c per micro-kernel
constexpr int kPanelVecs = ATTENTION_PANEL_VECS;  // Vecs per row of a panel
constexpr int kPanel = kPanelVecs * kLanes;       // columns per panel

inline Vec broadcast(double x) {
  Vec v;
  for (int i = 0; i < kLanes; ++i) v[i] = x;  // one splat (not x + 0, which is not exact)
  return v;
}

inline Vec loadVec(const double* p) {
  Vec v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

Index panelCount(Index cols) { return (cols + kPanel - 1) / kPanel; }

// c[rows x cols] (+)= a[rows x p] panel[p x kPanel], with a packed as p groups
// of R values (a[0][t] .. a[R-1][t], zero-padded). kMicroRows * kPanelVecs
// accumulators stay in registers; each step loads one panel row and R
// broadcasts of a, then does R * kPanelVecs vector multiply-adds. Two pointers
// move through memory contiguously, so wasm needs almost no address arithmetic.
inline void microKernel(const double* ap, const double* panel, Index p, double* c, Index ldc,
                        Index rows, Index cols, Update update) {
  constexpr int R = kMicroRows;
  Vec acc[R][kPanelVecs];
  for (int r = 0; r < R; ++r) {
    for (int v = 0; v < kPanelVecs; ++v) acc[r][v] = Vec{};
  }
  for (Index t = 0; t < p; ++t, ap += R, panel += kPanel) {
    Vec b[kPanelVecs];
    for (int v = 0; v < kPanelVecs; ++v) b[v] = loadVec(panel + v * kLanes);
    for (int r = 0; r < R; ++r) {
      const Vec ar = broadcast(ap[r]);
      for (int v = 0; v < kPanelVecs; ++v) acc[r][v] += ar * b[v];
    }
  }
  for (int r = 0; r < R; ++r) {
    if (r == rows) break;
    double* out = c + r * ldc;
    if (update == Update::kAdd) {
      double row[kPanel];
      std::memcpy(row, acc[r], sizeof row);
      for (Index j = 0; j < cols; ++j) out[j] += row[j];
    } else if (cols == kPanel) {
      std::memcpy(out, acc[r], sizeof acc[r]);
    } else {
      double row[kPanel];
      std::memcpy(row, acc[r], sizeof row);
      std::memcpy(out, row, static_cast<size_t>(cols) * sizeof(double));
    }
  }
}

// c (m x n) (+)= op(a) (m x p) . packed (p x n); packed has panelRows >= p rows
// per panel (only the first p are used: the causal mask shortens the
// products). For each kMicroRows rows of op(a) (packed once, then in L1) the
// panels stream by.
void gemmPackedImpl(Trans ta, Index m, Index n, Index p, const double* a, Index lda,
                    const double* packed, Index panelRows, double* c, Index ldc, Update update) {
  thread_local std::vector<double> ap;
  ap.resize(static_cast<size_t>(std::max<Index>(p, 1) * kMicroRows));
  for (Index i0 = 0; i0 < m; i0 += kMicroRows) {
    const Index rows = std::min<Index>(kMicroRows, m - i0);
    for (Index t = 0; t < p; ++t) {
      for (Index r = 0; r < kMicroRows; ++r) {
        const Index i = i0 + r;
        ap[t * kMicroRows + r] = r >= rows          ? 0.0
                                 : ta == Trans::kNo ? a[i * lda + t]
                                                    : a[t * lda + i];
      }
    }
    for (Index jp = 0; jp < panelCount(n); ++jp) {
      const Index j0 = jp * kPanel;
      microKernel(ap.data(), packed + jp * panelRows * kPanel, p, c + i0 * ldc + j0, ldc, rows,
                  std::min<Index>(kPanel, n - j0), update);
    }
  }
}

Status checkProduct(const MatrixView& a, const MatrixView& b) {
  RETURN_IF_ERROR(requireNonEmpty("a", a));
  RETURN_IF_ERROR(requireNonEmpty("b", b));
  if (a.cols() != b.rows()) {
    return Status::shapeMismatch("a is " + shapeOf(a) + " and b is " + shapeOf(b) +
                                 "; a's columns (" + std::to_string(a.cols()) +
                                 ") must equal b's rows (" + std::to_string(b.rows()) + ")");
  }
  return Status::ok();
}

}  // namespace

void packB(Trans tb, const double* b, Index ldb, Index rows, Index cols,
           std::vector<double>& packed) {
  packed.assign(static_cast<size_t>(panelCount(cols) * rows * kPanel), 0.0);
  if (tb == Trans::kNo) {
    for (Index jp = 0; jp < panelCount(cols); ++jp) {
      const Index j0 = jp * kPanel, width = std::min<Index>(kPanel, cols - j0);
      double* out = packed.data() + jp * rows * kPanel;
      for (Index t = 0; t < rows; ++t) {
        for (Index j = 0; j < width; ++j) out[t * kPanel + j] = b[t * ldb + j0 + j];
      }
    }
  } else {  // op(b) = b^T: b is (cols x rows); its row j is column j of op(b)
    for (Index j = 0; j < cols; ++j) {
      double* out = packed.data() + (j / kPanel) * rows * kPanel + j % kPanel;
      for (Index t = 0; t < rows; ++t) out[t * kPanel] = b[j * ldb + t];
    }
  }
}

void gemmPacked(Index m, Index n, Index k, const double* a, Index lda, const double* packed,
                Index panelRows, double* c, Index ldc, Update update) {
  gemmPackedImpl(Trans::kNo, m, n, k, a, lda, packed, panelRows, c, ldc, update);
}

void gemm(Trans ta, Trans tb, Index m, Index n, Index k, const double* a, Index lda,
          const double* b, Index ldb, double* c, Index ldc, Update update) {
  if (m == 0 || n == 0) return;
  thread_local std::vector<double> packed;
  packB(tb, b, ldb, k, n, packed);
  gemmPackedImpl(ta, m, n, k, a, lda, packed.data(), k, c, ldc, update);
}

void gemm(const MatrixView& a, Trans ta, const MatrixView& b, Trans tb, MatrixOut c,
          Update update) {
  const Index k = ta == Trans::kNo ? a.cols() : a.rows();
  gemm(ta, tb, c.rows(), c.cols(), k, a.data(), a.outerStride(), b.data(), b.outerStride(),
       c.data(), c.outerStride(), update);
}

Status matmulInto(const MatrixView& a, const MatrixView& b, MatrixOut c) {
  RETURN_IF_ERROR(checkProduct(a, b));
  RETURN_IF_ERROR(requireFinite("a", a));
  RETURN_IF_ERROR(requireFinite("b", b));
  if (c.rows() != a.rows() || c.cols() != b.cols()) {
    return Status::shapeMismatch("c is " + dims(c.rows(), c.cols()) + " but must be " +
                                 dims(a.rows(), b.cols()));
  }
  gemm(a, Trans::kNo, b, Trans::kNo, c);
  return Status::ok();
}

Status matmul(const MatrixView& a, const MatrixView& b, Matrix& out) {
  out.resize(a.rows(), b.cols());
  return matmulInto(a, b, out);
}

}  // namespace attention

#include "transformer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "validate.h"

namespace attention {

namespace {

using Index = Eigen::Index;
constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- exp ----------------------------------------------------------------------

// exp(x) for x <= 0 (a softmax argument x - max). Straight-line code without a
// libm call, so compilers vectorise the loops that call it (wasm SIMD128,
// SSE/AVX); std::exp is a scalar call in wasm and Eigen 3.4 has no wasm packet
// math. Accuracy: about 1 ulp. Unlike Eigen's vectorised exp, which clamps
// its argument near -709 (exp(-781) ~ 1e-308), this one underflows like libm:
// results between 2^-1074 and 2^-1022 are the right subnormals, x < -745.14
// and -Infinity give exactly 0.
inline double expNonPositive(double x) {
  constexpr double kLog2e = 1.4426950408889634;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // fdlibm's split of ln 2:
  constexpr double kLn2Lo = 1.90821492927058770002e-10;  // k * kLn2Hi is exact
  constexpr double kShift = 6755399441055744.0;          // 1.5 * 2^52
  constexpr std::int64_t kShiftBits = 0x4338000000000000;
  x = x < -746.0 ? -746.0 : x;  // exp(-746) rounds to 0; also maps -Infinity
  // x = k ln2 + r with integer k and |r| <= ln2 / 2; adding kShift rounds to k.
  const double kd = x * kLog2e + kShift;
  const double k = kd - kShift;
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  // exp(r) by Cephes' rational approximation (S. L. Moshier's Cephes library,
  // exp.c): exp(r) = 1 + 2 r P(r²) / (Q(r²) - r P(r²)). One division instead
  // of a degree-13 polynomial; measured against long double expl over 2e7
  // arguments in [-760, 0]: at most 1.15 ulp, and zero exactly where expl rounds to 0.
  const double rr = r * r;
  const double px = r * ((1.26177193074810590878e-4 * rr + 3.02994407707441961300e-2) * rr +
                         9.99999999999999999910e-1);
  const double qx = ((3.00198505138664455042e-6 * rr + 2.52448340349684104192e-3) * rr +
                     2.27265548208155028766e-1) *
                        rr +
                    2.00000000000000000009e0;
  const double p = 1.0 + 2.0 * (px / (qx - px));
  // 2^k as two normal powers of two (k >= -1076), so a subnormal result is
  // rounded once, in the last multiplication.
  std::int64_t bits;
  std::memcpy(&bits, &kd, sizeof bits);
  const std::int64_t ki = bits - kShiftBits;
  const std::int64_t k1 = ki >> 1;  // floor(k / 2): an arithmetic shift, vectorisable
  const std::int64_t b1 = (k1 + 1023) << 52;
  const std::int64_t b2 = (ki - k1 + 1023) << 52;
  double s1, s2;
  std::memcpy(&s1, &b1, sizeof s1);
  std::memcpy(&s2, &b2, sizeof s2);
  return p * s1 * s2;
}

// ---- blocked matrix product ---------------------------------------------------
//
// c = a b with b "packed": cut into panels of kPanel columns, each panel stored
// row after row contiguously (panelRows x kPanel, zero-padded on the right).
// The micro-kernel then reads b sequentially, whatever the original stride:
// reading a column panel of a 1024-wide row-major matrix directly touches one
// cache line per 8 KiB, all in the same L1 set, and was 3x slower natively.

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

// b (rows x cols, leading dimension ldb) -> packed panels.
void packPanels(const double* b, Index ldb, Index rows, Index cols, std::vector<double>& packed) {
  packed.assign(static_cast<size_t>(panelCount(cols) * rows * kPanel), 0.0);
  for (Index jp = 0; jp < panelCount(cols); ++jp) {
    const Index j0 = jp * kPanel, width = std::min<Index>(kPanel, cols - j0);
    double* out = packed.data() + jp * rows * kPanel;
    for (Index t = 0; t < rows; ++t) {
      for (Index j = 0; j < width; ++j) out[t * kPanel + j] = b[t * ldb + j0 + j];
    }
  }
}

// The transpose of k (n x d, leading dimension ldk), i.e. k^T (d x n), packed.
void packTransposed(const double* k, Index ldk, Index n, Index d, std::vector<double>& packed) {
  packed.assign(static_cast<size_t>(panelCount(n) * d * kPanel), 0.0);
  for (Index j = 0; j < n; ++j) {
    double* out = packed.data() + (j / kPanel) * d * kPanel + j % kPanel;
    for (Index t = 0; t < d; ++t) out[t * kPanel] = k[j * ldk + t];
  }
}

// c[rows x cols] = a[rows x p] panel[p x kPanel], with a packed as p groups of
// R values (a[0][t] .. a[R-1][t], zero-padded). kMicroRows * kPanelVecs
// accumulators stay in registers; each step loads one panel row and R
// broadcasts of a, then does R * kPanelVecs vector multiply-adds. Two pointers
// move through memory contiguously, so wasm needs almost no address arithmetic.
inline void microKernel(const double* ap, const double* panel, Index p, double* c, Index ldc,
                        Index rows, Index cols) {
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
    if (cols == kPanel) {
      std::memcpy(c + r * ldc, acc[r], sizeof acc[r]);
    } else {
      double row[kPanel];
      std::memcpy(row, acc[r], sizeof row);
      std::memcpy(c + r * ldc, row, static_cast<size_t>(cols) * sizeof(double));
    }
  }
}

// c (m x n) = a (m x p) b (p x n); b packed with panelRows >= p rows per panel
// (only the first p are used: the causal mask shortens the products).
// For each kMicroRows rows of a (packed once, then in L1) the panels stream by.
void gemmPacked(Index m, Index n, Index p, const double* a, Index lda, const double* packed,
                Index panelRows, double* c, Index ldc) {
  std::vector<double> ap(static_cast<size_t>(p * kMicroRows));
  for (Index i0 = 0; i0 < m; i0 += kMicroRows) {
    const Index rows = std::min<Index>(kMicroRows, m - i0);
    for (Index t = 0; t < p; ++t) {
      for (Index r = 0; r < kMicroRows; ++r) {
        ap[t * kMicroRows + r] = r < rows ? a[(i0 + r) * lda + t] : 0.0;
      }
    }
    for (Index jp = 0; jp < panelCount(n); ++jp) {
      const Index j0 = jp * kPanel;
      microKernel(ap.data(), packed + jp * panelRows * kPanel, p, c + i0 * ldc + j0, ldc, rows,
                  std::min<Index>(kPanel, n - j0));
    }
  }
}

// c (m x n) = a (m x p) b (p x n), all row-major with leading dimensions.
void gemm(Index m, Index n, Index p, const double* a, Index lda, const double* b, Index ldb,
          double* c, Index ldc) {
  std::vector<double> packed;
  packPanels(b, ldb, p, n, packed);
  gemmPacked(m, n, p, a, lda, packed.data(), p, c, ldc);
}

// ---- scaled dot-product attention ---------------------------------------------

// Strided row-major view of a (rows x cols) block: entry (r, c) is data[r * stride + c].
struct Block {
  const double* data;
  Index rows, cols, stride;
};

Block blockOf(const MatrixView& m) { return {m.data(), m.rows(), m.cols(), m.outerStride()}; }

// One row of scores s[0, n) -> softmax weights in place. Keys j >= end (the
// causal limit) and keys with mask[j] == 0 get weight exactly 0; s[j] for
// j >= computed was never computed and is only overwritten.
void softmaxRow(double* s, Index n, Index computed, Index end, double scale, const double* mask) {
  end = std::min(end, computed);
  // Scale (and mask) the scores and find their maximum; four partial maxima
  // let the compiler use SIMD max instructions.
  double maxes[4] = {-kInf, -kInf, -kInf, -kInf};
  Index j = 0;
  if (mask) {
    for (; j + 4 <= end; j += 4) {
      for (int u = 0; u < 4; ++u) {
        const double x = mask[j + u] == 0.0 ? -kInf : s[j + u] * scale;
        s[j + u] = x;
        maxes[u] = x > maxes[u] ? x : maxes[u];
      }
    }
  } else {
    for (; j + 4 <= end; j += 4) {
      for (int u = 0; u < 4; ++u) {
        const double x = s[j + u] * scale;
        s[j + u] = x;
        maxes[u] = x > maxes[u] ? x : maxes[u];
      }
    }
  }
  for (; j < end; ++j) {
    const double x = (mask && mask[j] == 0.0) ? -kInf : s[j] * scale;
    s[j] = x;
    maxes[0] = x > maxes[0] ? x : maxes[0];
  }
  const double max = std::max(std::max(maxes[0], maxes[1]), std::max(maxes[2], maxes[3]));
  std::fill(s + end, s + n, 0.0);
  if (max == -kInf) {  // nothing may be attended to: zero weights, zero output
    std::fill(s, s + end, 0.0);
    return;
  }
  // Four partial sums: lets the compiler vectorise without reassociating.
  double sum[4] = {0, 0, 0, 0};
  j = 0;
  for (; j + 4 <= end; j += 4) {
    for (int u = 0; u < 4; ++u) {
      const double e = expNonPositive(s[j + u] - max);
      s[j + u] = e;
      sum[u] += e;
    }
  }
  for (; j < end; ++j) {
    const double e = expNonPositive(s[j] - max);
    s[j] = e;
    sum[0] += e;
  }
  const double total = (sum[0] + sum[1]) + (sum[2] + sum[3]);  // >= 1: exp(0) is in it
  for (j = 0; j < end; ++j) s[j] /= total;
}

// Rows per pass: their scores (kRowBlock x n_k) stay in cache between the
// score product, the softmax and the weights-times-values product.
constexpr Index kRowBlock = 16;

// q: (n_q x d_k), k: (n_k x d_k), v: (n_k x d_v), mask: (n_q x n_k) or null
//   -> out: (n_q x d_v) at stride ldo, w: (n_q x n_k) at stride ldw.
// Inputs are already validated. kt, vp are scratch for packed k^T and v.
void attend(const Block& q, const Block& k, const Block& v, const Block* mask, bool causal,
            double* out, Index ldo, double* w, Index ldw, std::vector<double>& kt,
            std::vector<double>& vp) {
  const Index nq = q.rows, nk = k.rows, dk = k.cols, dv = v.cols;
  // Scores are q k^T: with k^T packed, each score row is a sum of contiguous
  // rows (the SIMD-friendly form) and no horizontal sums are needed.
  packTransposed(k.data, k.stride, nk, dk, kt);
  packPanels(v.data, v.stride, nk, dv, vp);
  const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
  for (Index i0 = 0; i0 < nq; i0 += kRowBlock) {
    const Index rows = std::min(kRowBlock, nq - i0);
    // With the causal mask no query of this block looks past key i0 + rows - 1.
    const Index active = causal ? std::min(nk, i0 + rows) : nk;
    double* wBlock = w + i0 * ldw;
    gemmPacked(rows, active, dk, q.data + i0 * q.stride, q.stride, kt.data(), dk, wBlock, ldw);
    for (Index r = 0; r < rows; ++r) {
      const Index i = i0 + r;
      softmaxRow(wBlock + r * ldw, nk, active, causal ? i + 1 : nk, scale,
                 mask ? mask->data + i * mask->stride : nullptr);
    }
    gemmPacked(rows, dv, active, wBlock, ldw, vp.data(), nk, out + i0 * ldo, ldo);
  }
}

// ---- validation ---------------------------------------------------------------

std::string dims(Index rows, Index cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

Status requireShape(const char* name, const MatrixView& m, Index rows, Index cols,
                    const std::string& why) {
  if (m.rows() != rows || m.cols() != cols) {
    return Status::shapeMismatch(std::string(name) + " is " + shapeOf(m) + " but must be " +
                                 dims(rows, cols) + " (" + why + ")");
  }
  return Status::ok();
}

Status checkMask(const AttentionMask& mask, Index nq, Index nk) {
  if (!mask.mask) return Status::ok();
  const MatrixView& m = *mask.mask;
  RETURN_IF_ERROR(requireShape("mask", m, nq, nk, "queries x keys"));
  for (Index r = 0; r < m.rows(); ++r) {
    for (Index c = 0; c < m.cols(); ++c) {
      const double x = m(r, c);
      if (x != 0.0 && x != 1.0) {
        return Status::invalidValue("mask[" + std::to_string(r) + "][" + std::to_string(c) +
                                    "] is " + std::to_string(x) +
                                    "; mask entries must be 0 (may not attend) or 1 (may attend)");
      }
    }
  }
  return Status::ok();
}

Status checkOutputs(Index rows, Index cols, Index wRows, Index wCols, const MatrixOut& output,
                    const MatrixOut& weights) {
  if (output.rows() != rows || output.cols() != cols) {
    return Status::shapeMismatch("output is " + dims(output.rows(), output.cols()) +
                                 " but must be " + dims(rows, cols));
  }
  if (weights.rows() != wRows || weights.cols() != wCols) {
    return Status::shapeMismatch("weights is " + dims(weights.rows(), weights.cols()) +
                                 " but must be " + dims(wRows, wCols));
  }
  return Status::ok();
}

Status checkAttentionInputs(const MatrixView& q, const MatrixView& k, const MatrixView& v) {
  RETURN_IF_ERROR(requireNonEmpty("Q", q));
  RETURN_IF_ERROR(requireNonEmpty("K", k));
  RETURN_IF_ERROR(requireNonEmpty("V", v));
  if (q.cols() != k.cols()) {
    return Status::shapeMismatch("Q has " + std::to_string(q.cols()) + " columns but K has " +
                                 std::to_string(k.cols()) + " (Q is " + shapeOf(q) + ", K is " +
                                 shapeOf(k) + "); queries and keys need the same size d_k");
  }
  if (k.rows() != v.rows()) {
    return Status::shapeMismatch("K has " + std::to_string(k.rows()) + " rows but V has " +
                                 std::to_string(v.rows()) + " (K is " + shapeOf(k) + ", V is " +
                                 shapeOf(v) + "); every key needs one value");
  }
  RETURN_IF_ERROR(requireFinite("Q", q));
  RETURN_IF_ERROR(requireFinite("K", k));
  return requireFinite("V", v);
}

}  // namespace

// ---- public kernels -----------------------------------------------------------

Status matmulInto(const MatrixView& a, const MatrixView& b, MatrixOut c) {
  RETURN_IF_ERROR(requireNonEmpty("a", a));
  RETURN_IF_ERROR(requireNonEmpty("b", b));
  if (a.cols() != b.rows()) {
    return Status::shapeMismatch("a has " + std::to_string(a.cols()) + " columns but b has " +
                                 std::to_string(b.rows()) + " rows (a is " + shapeOf(a) +
                                 ", b is " + shapeOf(b) + ")");
  }
  if (c.rows() != a.rows() || c.cols() != b.cols()) {
    return Status::shapeMismatch("c is " + dims(c.rows(), c.cols()) + " but must be " +
                                 dims(a.rows(), b.cols()));
  }
  gemm(a.rows(), b.cols(), a.cols(), a.data(), a.outerStride(), b.data(), b.outerStride(), c.data(),
       c.outerStride());
  return Status::ok();
}

Status attentionScores(const MatrixView& q, const MatrixView& k, bool scaled, MatrixOut scores) {
  RETURN_IF_ERROR(requireNonEmpty("Q", q));
  RETURN_IF_ERROR(requireNonEmpty("K", k));
  if (q.cols() != k.cols()) {
    return Status::shapeMismatch("Q has " + std::to_string(q.cols()) + " columns but K has " +
                                 std::to_string(k.cols()) + " (Q is " + shapeOf(q) + ", K is " +
                                 shapeOf(k) + "); queries and keys need the same size d_k");
  }
  RETURN_IF_ERROR(requireFinite("Q", q));
  RETURN_IF_ERROR(requireFinite("K", k));
  if (scores.rows() != q.rows() || scores.cols() != k.rows()) {
    return Status::shapeMismatch("scores is " + dims(scores.rows(), scores.cols()) +
                                 " but must be " + dims(q.rows(), k.rows()));
  }
  std::vector<double> kt;
  packTransposed(k.data(), k.outerStride(), k.rows(), k.cols(), kt);
  gemmPacked(q.rows(), k.rows(), k.cols(), q.data(), q.outerStride(), kt.data(), k.cols(),
             scores.data(), scores.outerStride());
  if (scaled) scores /= std::sqrt(static_cast<double>(q.cols()));
  return Status::ok();
}

Status scaledDotProductAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                                 const AttentionMask& mask, MatrixOut output, MatrixOut weights) {
  RETURN_IF_ERROR(checkAttentionInputs(q, k, v));
  RETURN_IF_ERROR(checkMask(mask, q.rows(), k.rows()));
  RETURN_IF_ERROR(checkOutputs(q.rows(), v.cols(), q.rows(), k.rows(), output, weights));
  std::vector<double> kt, vp;
  const Block maskBlock = mask.mask ? blockOf(*mask.mask) : Block{nullptr, 0, 0, 0};
  attend(blockOf(q), blockOf(k), blockOf(v), mask.mask ? &maskBlock : nullptr, mask.causal,
         output.data(), output.outerStride(), weights.data(), weights.outerStride(), kt, vp);
  return Status::ok();
}

Status scaledDotProductAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                                 const AttentionMask& mask, Matrix& output, Matrix& weights) {
  output.resize(q.rows(), v.cols());
  weights.resize(q.rows(), k.rows());
  return scaledDotProductAttention(q, k, v, mask, MatrixOut(output), MatrixOut(weights));
}

namespace {

Status checkProjection(const char* wName, const MatrixView& w, const char* bName,
                       const std::optional<VectorView>& b, Index dModel) {
  RETURN_IF_ERROR(requireShape(wName, w, dModel, dModel, "d_model x d_model"));
  RETURN_IF_ERROR(requireFinite(wName, w));
  if (!b) return Status::ok();
  if (b->size() != dModel) {
    return Status::shapeMismatch(std::string(bName) + " has " + std::to_string(b->size()) +
                                 " entries but must have d_model = " + std::to_string(dModel));
  }
  return requireFinite(bName, *b);
}

// out (n x d_model) = x (n x d_model) w (d_model x d_model) + b (d_model)
void project(const MatrixView& x, const MatrixView& w, const std::optional<VectorView>& b,
             double* out, Index ldo) {
  gemm(x.rows(), w.cols(), x.cols(), x.data(), x.outerStride(), w.data(), w.outerStride(), out,
       ldo);
  if (!b) return;
  for (Index r = 0; r < x.rows(); ++r) {
    double* row = out + r * ldo;
    for (Index c = 0; c < w.cols(); ++c) row[c] += (*b)[c];
  }
}

}  // namespace

Status multiHeadAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                          const MultiHeadParams& params, const AttentionMask& mask,
                          MatrixOut output, MatrixOut weights) {
  RETURN_IF_ERROR(requireNonEmpty("Q", q));
  RETURN_IF_ERROR(requireNonEmpty("K", k));
  RETURN_IF_ERROR(requireNonEmpty("V", v));
  const Index dModel = q.cols();
  if (k.cols() != dModel || v.cols() != dModel) {
    return Status::shapeMismatch(
        "Q, K and V must have the same number of columns d_model, but Q is " + shapeOf(q) +
        ", K is " + shapeOf(k) + " and V is " + shapeOf(v));
  }
  if (k.rows() != v.rows()) {
    return Status::shapeMismatch("K has " + std::to_string(k.rows()) + " rows but V has " +
                                 std::to_string(v.rows()) + " (K is " + shapeOf(k) + ", V is " +
                                 shapeOf(v) + "); every key needs one value");
  }
  const int h = params.heads;
  if (h < 1) {
    return Status::invalidArgument("heads is " + std::to_string(h) + " but must be at least 1");
  }
  if (dModel % h != 0) {
    return Status::shapeMismatch(
        "heads = " + std::to_string(h) + " does not divide d_model = " + std::to_string(dModel) +
        " (Q is " + shapeOf(q) + "); each head needs d_model / heads columns");
  }
  RETURN_IF_ERROR(requireFinite("Q", q));
  RETURN_IF_ERROR(requireFinite("K", k));
  RETURN_IF_ERROR(requireFinite("V", v));
  RETURN_IF_ERROR(checkProjection("Wq", params.wq, "bq", params.bq, dModel));
  RETURN_IF_ERROR(checkProjection("Wk", params.wk, "bk", params.bk, dModel));
  RETURN_IF_ERROR(checkProjection("Wv", params.wv, "bv", params.bv, dModel));
  RETURN_IF_ERROR(checkProjection("Wo", params.wo, "bo", params.bo, dModel));
  RETURN_IF_ERROR(checkMask(mask, q.rows(), k.rows()));
  const Index nq = q.rows(), nk = k.rows(), dk = dModel / h;
  RETURN_IF_ERROR(checkOutputs(nq, dModel, h * nq, nk, output, weights));

  // Projections, one token a row: qProj (n_q x d_model), kProj and vProj (n_k x d_model).
  Matrix qProj(nq, dModel), kProj(nk, dModel), vProj(nk, dModel), concat(nq, dModel);
  project(q, params.wq, params.bq, qProj.data(), dModel);
  project(k, params.wk, params.bk, kProj.data(), dModel);
  project(v, params.wv, params.bv, vProj.data(), dModel);
  const Block maskBlock = mask.mask ? blockOf(*mask.mask) : Block{nullptr, 0, 0, 0};
  std::vector<double> kt, vp;
  for (int head = 0; head < h; ++head) {
    // Head `head` reads columns [head * d_k, (head + 1) * d_k) of the projections
    // and writes the same columns of concat (n_q x d_model): no copies.
    const Index c0 = head * dk;
    attend(Block{qProj.data() + c0, nq, dk, dModel}, Block{kProj.data() + c0, nk, dk, dModel},
           Block{vProj.data() + c0, nk, dk, dModel}, mask.mask ? &maskBlock : nullptr, mask.causal,
           concat.data() + c0, dModel, weights.data() + head * nq * weights.outerStride(),
           weights.outerStride(), kt, vp);
  }
  project(concat, params.wo, params.bo, output.data(), output.outerStride());
  return Status::ok();
}

Status multiHeadAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                          const MultiHeadParams& params, const AttentionMask& mask, Matrix& output,
                          Matrix& weights) {
  output.resize(q.rows(), q.cols());
  weights.resize(static_cast<Index>(std::max(params.heads, 1)) * q.rows(), k.rows());
  return multiHeadAttention(q, k, v, params, mask, MatrixOut(output), MatrixOut(weights));
}

}  // namespace attention

#include "gemm.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "parallel.h"
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
//
// One template over the element type T (double, or float for the float32
// path): everything below is counted in elements of T.

// SIMD through the GCC/Clang vector extension: one Vec is a wasm SIMD128
// register (2 doubles or 4 floats: f64x2 / f32x4) in the browser, an AVX
// register natively when the compiler may use AVX. Plain loops were not
// enough: both GCC and Clang chose to vectorise the reduction loop with
// shuffles, 3-4x slower. Without any SIMD unit the compiler lowers the same
// Vec code to scalar operations, so there is no separate fallback path.
#if defined(__AVX__)
constexpr int kVecBytes = 32;
#else
constexpr int kVecBytes = 16;  // SSE2, wasm SIMD128
#endif

template <typename T>
struct Simd;
template <>
struct Simd<double> {
  typedef double Vec __attribute__((vector_size(kVecBytes)));
};
template <>
struct Simd<float> {
  typedef float Vec __attribute__((vector_size(kVecBytes)));
};

#ifndef ATTENTION_MICRO_ROWS
#define ATTENTION_MICRO_ROWS 4
#endif
#ifndef ATTENTION_PANEL_VECS
#define ATTENTION_PANEL_VECS 2
#endif

// Lane count and blocking for element type T: kMicroRows x kPanel of c stay
// in kMicroRows * kPanelVecs registers (8 of them), whatever T is.
template <typename T>
struct Blocking {
  using Vec = typename Simd<T>::Vec;
  static constexpr int kLanes = kVecBytes / static_cast<int>(sizeof(T));  // 2/4 doubles, 4/8 floats
  static constexpr int kMicroRows = ATTENTION_MICRO_ROWS;  // rows of c per micro-kernel
  static constexpr int kPanelVecs = ATTENTION_PANEL_VECS;  // Vecs per row of a panel
  static constexpr int kPanel = kPanelVecs * kLanes;       // columns per panel
};

// x in every lane, written as an initializer list {x, x, ...} so that clang
// emits one splat (f64x2.splat / f32x4.splat); a loop of lane stores was
// compiled into lane-by-lane code for floats and made the kernel 20x slower.
// (Not Vec{} + x: adding 0 is not exact for -0.)
template <typename Vec, typename T, std::size_t... Lane>
inline Vec splat(T x, std::index_sequence<Lane...>) {
  return Vec{((void)Lane, x)...};
}

template <typename T>
inline typename Simd<T>::Vec broadcast(T x) {
  return splat<typename Simd<T>::Vec>(x, std::make_index_sequence<Blocking<T>::kLanes>{});
}

template <typename T, typename Vec = typename Simd<T>::Vec>
inline Vec loadVec(const T* p) {
  Vec v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T>
Index panelCount(Index cols) {
  return (cols + Blocking<T>::kPanel - 1) / Blocking<T>::kPanel;
}

// c[rows x cols] (+)= a[rows x p] panel[p x kPanel], with a packed as p groups
// of R values (a[0][t] .. a[R-1][t], zero-padded). kMicroRows * kPanelVecs
// accumulators stay in registers; each step loads one panel row and R
// broadcasts of a, then does R * kPanelVecs vector multiply-adds. Two pointers
// move through memory contiguously, so wasm needs almost no address arithmetic.
// The tile stays 4 x 2 vectors for floats too: 4 x 3, 6 x 2, 8 x 2, 4 x 4 and
// 3 x 3 were 12-38% slower in V8 (float32 attention, n = 1024, d = 64, via
// bench/sdpa-parts.mjs; README "Tuning the float32 path"): with 16 SIMD
// registers on x86-64, one of them V8's scratch register, their accumulators
// spill. Unrolling the depth loop spills too.
template <typename T>
inline void microKernel(const T* ap, const T* panel, Index p, T* c, Index ldc, Index rows,
                        Index cols, Update update) {
  using B = Blocking<T>;
  using Vec = typename B::Vec;
  constexpr int R = B::kMicroRows;
  Vec acc[R][B::kPanelVecs];
  for (int r = 0; r < R; ++r) {
    for (int v = 0; v < B::kPanelVecs; ++v) acc[r][v] = Vec{};
  }
  for (Index t = 0; t < p; ++t, ap += R, panel += B::kPanel) {
    Vec b[B::kPanelVecs];
    for (int v = 0; v < B::kPanelVecs; ++v) b[v] = loadVec(panel + v * B::kLanes);
    for (int r = 0; r < R; ++r) {
      const Vec ar = broadcast(ap[r]);
      for (int v = 0; v < B::kPanelVecs; ++v) acc[r][v] += ar * b[v];
    }
  }
  for (int r = 0; r < R; ++r) {
    if (r == rows) break;
    T* out = c + r * ldc;
    if (update == Update::kAdd) {
      T row[B::kPanel];
      std::memcpy(row, acc[r], sizeof row);
      for (Index j = 0; j < cols; ++j) out[j] += row[j];
    } else if (cols == B::kPanel) {
      std::memcpy(out, acc[r], sizeof acc[r]);
    } else {
      T row[B::kPanel];
      std::memcpy(row, acc[r], sizeof row);
      std::memcpy(out, row, static_cast<size_t>(cols) * sizeof(T));
    }
  }
}

// ap (p x 4, row t = a0[t], a0[lda + t], a0[2 lda + t], a0[3 lda + t]) <- four
// rows of a, a block of columns at a time: vector loads, a transpose in
// shuffles (wasm i8x16.shuffle, SSE shufps/unpck), vector stores. The scalar
// loop it replaces moved one entry per load and store; for weights . V (16
// rows x n_k per row block, float32, n = 1024, d = 64) the product took 4.17
// ms with it, 3.61 ms with this (bench/sdpa-parts.mjs). Returns how many
// columns it packed; the caller packs the rest.
inline Index packFourRows(const float* a0, Index lda, Index p, float* ap) {
  typedef float F4 __attribute__((vector_size(16)));
  Index t = 0;
  for (; t + 4 <= p; t += 4) {
    F4 r0, r1, r2, r3;
    std::memcpy(&r0, a0 + t, sizeof r0);
    std::memcpy(&r1, a0 + lda + t, sizeof r1);
    std::memcpy(&r2, a0 + 2 * lda + t, sizeof r2);
    std::memcpy(&r3, a0 + 3 * lda + t, sizeof r3);
    const F4 lo01 = __builtin_shufflevector(r0, r1, 0, 4, 1, 5);  // r0[0] r1[0] r0[1] r1[1]
    const F4 hi01 = __builtin_shufflevector(r0, r1, 2, 6, 3, 7);
    const F4 lo23 = __builtin_shufflevector(r2, r3, 0, 4, 1, 5);
    const F4 hi23 = __builtin_shufflevector(r2, r3, 2, 6, 3, 7);
    const F4 c0 = __builtin_shufflevector(lo01, lo23, 0, 1, 4, 5);  // column t of the 4 rows
    const F4 c1 = __builtin_shufflevector(lo01, lo23, 2, 3, 6, 7);
    const F4 c2 = __builtin_shufflevector(hi01, hi23, 0, 1, 4, 5);
    const F4 c3 = __builtin_shufflevector(hi01, hi23, 2, 3, 6, 7);
    std::memcpy(ap + t * 4, &c0, sizeof c0);
    std::memcpy(ap + t * 4 + 4, &c1, sizeof c1);
    std::memcpy(ap + t * 4 + 8, &c2, sizeof c2);
    std::memcpy(ap + t * 4 + 12, &c3, sizeof c3);
  }
  return t;
}

inline Index packFourRows(const double* a0, Index lda, Index p, double* ap) {
  typedef double D2 __attribute__((vector_size(16)));
  Index t = 0;
  for (; t + 2 <= p; t += 2) {
    D2 r0, r1, r2, r3;
    std::memcpy(&r0, a0 + t, sizeof r0);
    std::memcpy(&r1, a0 + lda + t, sizeof r1);
    std::memcpy(&r2, a0 + 2 * lda + t, sizeof r2);
    std::memcpy(&r3, a0 + 3 * lda + t, sizeof r3);
    const D2 c01 = __builtin_shufflevector(r0, r1, 0, 2);  // column t: rows 0, 1
    const D2 c23 = __builtin_shufflevector(r2, r3, 0, 2);  // column t: rows 2, 3
    const D2 d01 = __builtin_shufflevector(r0, r1, 1, 3);  // column t + 1
    const D2 d23 = __builtin_shufflevector(r2, r3, 1, 3);
    std::memcpy(ap + t * 4, &c01, sizeof c01);
    std::memcpy(ap + t * 4 + 2, &c23, sizeof c23);
    std::memcpy(ap + t * 4 + 4, &d01, sizeof d01);
    std::memcpy(ap + t * 4 + 6, &d23, sizeof d23);
  }
  return t;
}

// ap (p x R, row t = a[0][t] .. a[R-1][t]) <- rows [i0, i0 + rows) of op(a),
// zero-padded to R rows. Always inlined: with two callers (gemmPackedImpl,
// gemmStreamBImpl) clang made it a call, which changed the attention's code.
template <typename T>
__attribute__((always_inline)) inline void packA(Trans ta, const T* a, Index lda, Index i0,
                                                 Index rows, Index p, T* ap) {
  constexpr Index R = Blocking<T>::kMicroRows;
  if (ta == Trans::kNo && rows == R) {  // the common case, without a branch per entry
    const T* a0 = a + i0 * lda;
    Index t = 0;
    if constexpr (R == 4) t = packFourRows(a0, lda, p, ap);
    for (; t < p; ++t) {
      for (Index r = 0; r < R; ++r) ap[t * R + r] = a0[r * lda + t];
    }
    return;
  }
  for (Index t = 0; t < p; ++t) {
    for (Index r = 0; r < R; ++r) {
      const Index i = i0 + r;
      ap[t * R + r] = r >= rows ? T(0) : ta == Trans::kNo ? a[i * lda + t] : a[t * lda + i];
    }
  }
}

// Groups of kMicroRows rows per pass: kGroups groups of op(a) are packed
// together, then each panel of B is read once for all of them (from L1 after
// the first) instead of once per group: for the attention scores (K^T packed,
// 256 KiB at n = 1024, d = 64, float32) a quarter of the L2 traffic.
constexpr Index kGroups = 4;

// c (m x n) (+)= op(a) (m x p) . packed (p x n); packed has panelRows >= p rows
// per panel (only the first p are used: the causal mask shortens the
// products). For each kGroups * kMicroRows rows of op(a) (packed once, then in
// L1 or L2) the panels stream by.
template <typename T>
void gemmPackedImpl(Trans ta, Index m, Index n, Index p, const T* a, Index lda, const T* packed,
                    Index panelRows, T* c, Index ldc, Update update) {
  using B = Blocking<T>;
  constexpr Index R = B::kMicroRows;
  const Index depth = std::max<Index>(p, 1);
  thread_local std::vector<T> ap;
  ap.resize(static_cast<size_t>(depth * R * kGroups));
  for (Index g0 = 0; g0 < m; g0 += R * kGroups) {
    const Index groups = std::min<Index>(kGroups, (m - g0 + R - 1) / R);
    for (Index g = 0; g < groups; ++g) {
      const Index i0 = g0 + g * R;
      packA(ta, a, lda, i0, std::min<Index>(R, m - i0), p, ap.data() + g * depth * R);
    }
    for (Index jp = 0; jp < panelCount<T>(n); ++jp) {
      const Index j0 = jp * B::kPanel;
      const T* panel = packed + jp * panelRows * B::kPanel;
      for (Index g = 0; g < groups; ++g) {
        const Index i0 = g0 + g * R;
        microKernel(ap.data() + g * depth * R, panel, p, c + i0 * ldc + j0, ldc,
                    std::min<Index>(R, m - i0), std::min<Index>(B::kPanel, n - j0), update);
      }
    }
  }
}

// The same product for a packed B far larger than the caches and used once
// per pass (a language model's weights: GPT-2 small reads 340 MB of them a
// forward pass). gemmPackedImpl streams B once per kGroups * kMicroRows rows
// of a, so 4 times for 64 tokens: from DRAM each time. Here up to
// kStreamGroups groups (64 rows) are packed together, so B streams by once
// per 64 rows, and the depth is cut into blocks of at most kStreamDepth so that
// packed a (64 x 1024 floats: 256 KiB) stays in L2; each panel slice (1024 x 8
// floats, 32 KiB) is read from memory once and reused by the 16 groups from
// L1. The later depth blocks add to c. In wasm, the 48 products of a GPT-2
// small pass on 64 tokens: 330 -> 287 ms (best of 12, /tmp micro-benchmark
// with 12 layers of weights, README "Open a real model").
constexpr Index kStreamGroups = 16;
constexpr Index kStreamDepth = 1024;

// c[0, cols) (+)= a[0, p) . (Panels panels side by side, the second `stride`
// after the first): the product of ONE row of a (a decoder's new token) without
// the micro-kernel's three zero rows (4x the multiply-adds for one useful row).
// Each column sums over t in order, as the micro-kernel does, so a token gives
// the same numbers decoded as in a whole forward pass; two panels at once keep
// four independent sums in flight instead.
template <int Panels, typename T>
inline void oneRowKernel(const T* a, const T* panel, Index stride, Index p, T* c, Index cols,
                         Update update) {
  using B = Blocking<T>;
  using Vec = typename B::Vec;
  Vec acc[Panels][B::kPanelVecs] = {};
  for (Index t = 0; t < p; ++t, panel += B::kPanel) {
    const Vec at = broadcast(a[t]);
    for (int q = 0; q < Panels; ++q) {
      for (int v = 0; v < B::kPanelVecs; ++v) {
        acc[q][v] += at * loadVec(panel + q * stride + v * B::kLanes);
      }
    }
  }
  T row[Panels * B::kPanel];
  std::memcpy(row, acc, sizeof row);
  for (Index j = 0; j < cols; ++j) c[j] = update == Update::kAdd ? c[j] + row[j] : row[j];
}

// Runs `kernel(panels, k0, depth, c0, cols, blockUpdate)` over one row of c: two
// panels at a time, in gemmStreamB's depth blocks (later blocks add to c, as there).
template <typename T, typename Kernel>
inline void forOneRow(Index n, Index p, Update update, Kernel kernel) {
  constexpr Index kPanel = Blocking<T>::kPanel;
  for (Index k0 = 0; k0 < p; k0 += kStreamDepth) {
    const Index depth = std::min(kStreamDepth, p - k0);
    const Update blockUpdate = k0 == 0 ? update : Update::kAdd;
    Index jp = 0;
    for (; (jp + 2) * kPanel <= n; jp += 2) kernel(2, jp, k0, depth, 2 * kPanel, blockUpdate);
    for (; jp * kPanel < n; ++jp) {
      kernel(1, jp, k0, depth, std::min(kPanel, n - jp * kPanel), blockUpdate);
    }
  }
}

template <typename T>
void gemmStreamBImpl(Index m, Index n, Index p, const T* a, Index lda, const T* packed,
                     Index panelRows, T* c, Index ldc, Update update) {
  using B = Blocking<T>;
  constexpr Index R = B::kMicroRows;
  if (p == 0) {  // an empty sum: c = 0 (or unchanged)
    gemmPackedImpl(Trans::kNo, m, n, p, a, lda, packed, panelRows, c, ldc, update);
    return;
  }
  if (m == 1) {  // one token: each panel once, no packing of a
    forOneRow<T>(n, p, update,
                 [&](int panels, Index jp, Index k0, Index depth, Index cols, Update blockUpdate) {
                   const T* from = packed + jp * panelRows * B::kPanel + k0 * B::kPanel;
                   T* out = c + jp * B::kPanel;
                   if (panels == 2) {
                     oneRowKernel<2>(a + k0, from, panelRows * B::kPanel, depth, out, cols,
                                     blockUpdate);
                   } else {
                     oneRowKernel<1>(a + k0, from, 0, depth, out, cols, blockUpdate);
                   }
                 });
    return;
  }
  thread_local std::vector<T> ap;
  const Index blockDepth = std::min(p, kStreamDepth);
  ap.resize(static_cast<size_t>(blockDepth * R * kStreamGroups));
  for (Index g0 = 0; g0 < m; g0 += R * kStreamGroups) {
    const Index groups = std::min<Index>(kStreamGroups, (m - g0 + R - 1) / R);
    for (Index k0 = 0; k0 < p; k0 += kStreamDepth) {
      const Index depth = std::min(kStreamDepth, p - k0);
      const Update blockUpdate = k0 == 0 ? update : Update::kAdd;
      for (Index g = 0; g < groups; ++g) {
        const Index i0 = g0 + g * R;
        packA(Trans::kNo, a + k0, lda, i0, std::min<Index>(R, m - i0), depth,
              ap.data() + g * depth * R);
      }
      for (Index jp = 0; jp < panelCount<T>(n); ++jp) {
        const Index j0 = jp * B::kPanel;
        const T* panel = packed + jp * panelRows * B::kPanel + k0 * B::kPanel;
        for (Index g = 0; g < groups; ++g) {
          const Index i0 = g0 + g * R;
          microKernel(ap.data() + g * depth * R, panel, depth, c + i0 * ldc + j0, ldc,
                      std::min<Index>(R, m - i0), std::min<Index>(B::kPanel, n - j0), blockUpdate);
        }
      }
    }
  }
}

// Entry i of a stored B as T: `load(b, i)` (a copy, or a 16-bit value widened).
template <typename T, Index kPanel = Blocking<T>::kPanel, typename S, typename Load>
void packBFrom(Trans tb, const S* b, Index ldb, Index rows, Index cols, std::vector<T>& packed,
               Load load) {
  // Every entry is written below (values, or zero padding in the last panel), so
  // a buffer kept from the last call is not cleared first.
  packed.resize(static_cast<size_t>((cols + kPanel - 1) / kPanel * rows * kPanel));
  if (const Index width = cols % kPanel; width != 0) {
    T* last = packed.data() + (cols / kPanel) * rows * kPanel;
    for (Index t = 0; t < rows; ++t)
      std::fill(last + t * kPanel + width, last + (t + 1) * kPanel, T(0));
  }
  if (tb == Trans::kNo) {
    for (Index jp = 0; jp < (cols + kPanel - 1) / kPanel; ++jp) {
      const Index j0 = jp * kPanel, width = std::min<Index>(kPanel, cols - j0);
      T* out = packed.data() + jp * rows * kPanel;
      for (Index t = 0; t < rows; ++t) {
        for (Index j = 0; j < width; ++j) out[t * kPanel + j] = load(b, t * ldb + j0 + j);
      }
    }
  } else {  // op(b) = b^T: b is (cols x rows); its row j is column j of op(b)
    for (Index j = 0; j < cols; ++j) {
      T* out = packed.data() + (j / kPanel) * rows * kPanel + j % kPanel;
      for (Index t = 0; t < rows; ++t) out[t * kPanel] = load(b, j * ldb + t);
    }
  }
}

template <typename T>
void packBImpl(Trans tb, const T* b, Index ldb, Index rows, Index cols, std::vector<T>& packed) {
  packBFrom(tb, b, ldb, rows, cols, packed, [](const T* x, Index i) { return x[i]; });
}

// IEEE half bits -> float, exactly: normal numbers rebias the exponent (15 -> 127),
// subnormals are fraction * 2^-24 (exact in float), inf and NaN keep their class.
inline float halfToFloat(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu, fraction = h & 0x3ffu;
  std::uint32_t bits;
  if (exponent == 0) {
    const float magnitude = static_cast<float>(fraction) * 5.9604644775390625e-8f;  // 2^-24
    std::memcpy(&bits, &magnitude, sizeof bits);
    bits |= sign;
  } else if (exponent == 31) {
    bits = sign | 0x7f800000u | (fraction << 13);
  } else {
    bits = sign | ((exponent + 112) << 23) | (fraction << 13);
  }
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

inline float bfloat16ToFloat(std::uint16_t h) {
  const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

// y[i] = a[i] . x with kAccumulators Vec partial sums per row (independent
// additions, so they pipeline), then the lanes and the tail.
template <typename T>
void gemvImpl(Index m, Index k, const T* a, Index lda, const T* x, T* y) {
  using Vec = typename Simd<T>::Vec;
  constexpr Index L = Blocking<T>::kLanes;
  constexpr int kAccumulators = 4;
  for (Index i = 0; i < m; ++i) {
    const T* row = a + i * lda;
    Vec acc[kAccumulators] = {};
    Index t = 0;
    for (; t + kAccumulators * L <= k; t += kAccumulators * L) {
      for (int u = 0; u < kAccumulators; ++u)
        acc[u] += loadVec(row + t + u * L) * loadVec(x + t + u * L);
    }
    const Vec total = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    T sum = 0;
    for (Index lane = 0; lane < L; ++lane) sum += total[lane];
    for (; t < k; ++t) sum += row[t] * x[t];
    y[i] = sum;
  }
}

// ---- the split over threads (parallel.h) ------------------------------------
// Each piece computes whole panels of columns (or whole rows of a gemv) with
// the serial kernel, so every output is the same sum in the same order on any
// number of threads. Panels, not rows: a model's 64-token products have few
// row groups and many panels, and each thread then reads its own part of B.

// Calls run(jp0, j0, cols) for contiguous runs of panels of an n-column product.
template <typename T, typename Run>
void splitPanels(Index n, double work, const Run& run) {
  const Index panels = panelCount<T>(n), pieces = piecesFor(work, panels);
  if (pieces == 1) {
    run(Index(0), Index(0), n);
    return;
  }
  parallelFor(0, pieces, [&](Index t) {
    const Index jp0 = panels * t / pieces, jp1 = panels * (t + 1) / pieces;
    const Index j0 = jp0 * Blocking<T>::kPanel, j1 = std::min(n, jp1 * Blocking<T>::kPanel);
    if (j1 > j0) run(jp0, j0, j1 - j0);
  });
}

template <typename T>
void gemmPackedSplit(Trans ta, Index m, Index n, Index p, const T* a, Index lda, const T* packed,
                     Index panelRows, T* c, Index ldc, Update update) {
  splitPanels<T>(n, static_cast<double>(m) * n * p, [&](Index jp0, Index j0, Index cols) {
    gemmPackedImpl(ta, m, cols, p, a, lda, packed + jp0 * panelRows * Blocking<T>::kPanel,
                   panelRows, c + j0, ldc, update);
  });
}

template <typename T>
void gemmStreamBSplit(Index m, Index n, Index p, const T* a, Index lda, const T* packed,
                      Index panelRows, T* c, Index ldc, Update update) {
  splitPanels<T>(n, static_cast<double>(m) * n * p, [&](Index jp0, Index j0, Index cols) {
    gemmStreamBImpl(m, cols, p, a, lda, packed + jp0 * panelRows * Blocking<T>::kPanel, panelRows,
                    c + j0, ldc, update);
  });
}

template <typename T>
void gemvSplit(Index m, Index k, const T* a, Index lda, const T* x, T* y) {
  const Index pieces = piecesFor(static_cast<double>(m) * k, m);
  if (pieces == 1) {
    gemvImpl(m, k, a, lda, x, y);
    return;
  }
  parallelFor(0, pieces, [&](Index t) {
    const Index r0 = m * t / pieces, r1 = m * (t + 1) / pieces;
    gemvImpl(r1 - r0, k, a + r0 * lda, lda, x, y + r0);
  });
}

template <typename T>
void gemmImpl(Trans ta, Trans tb, Index m, Index n, Index k, const T* a, Index lda, const T* b,
              Index ldb, T* c, Index ldc, Update update) {
  if (m == 0 || n == 0) return;
  thread_local std::vector<T> packed;
  packBImpl(tb, b, ldb, k, n, packed);
  gemmPackedSplit(ta, m, n, k, a, lda, packed.data(), k, c, ldc, update);
}

// Float lanes from 16-bit ones in the top halves: bfloat16 widened (a float's top 16 bits).
typedef std::uint16_t Halves8 __attribute__((vector_size(16)));
typedef float Floats4 __attribute__((vector_size(16)));
inline Floats4 floatsOf(Halves8 v) {
  Floats4 f;
  std::memcpy(&f, &v, sizeof f);
  return f;
}
inline Floats4 lowBf16(Halves8 w) {
  return floatsOf(__builtin_shufflevector(Halves8{}, w, 0, 8, 1, 9, 2, 10, 3, 11));
}
inline Floats4 highBf16(Halves8 w) {
  return floatsOf(__builtin_shufflevector(Halves8{}, w, 4, 12, 5, 13, 6, 14, 7, 15));
}

// y[i] = a[i] . x for a bfloat16 a: 8 weights are one 16-byte load, widened to
// two float vectors by a shuffle with zeros that puts each 16-bit value in the
// top half of a float (bfloat16 is a float's top 16 bits). A decoder's token
// then reads half the bytes of float32 weights, and memory is what bounds it.
void gemvBf16(Index m, Index k, const std::uint16_t* a, Index lda, const float* x, float* y) {
  for (Index i = 0; i < m; ++i) {
    const std::uint16_t* row = a + i * lda;
    Floats4 acc[4] = {};
    Index t = 0;
    for (; t + 16 <= k; t += 16) {
      Halves8 w0, w1;
      std::memcpy(&w0, row + t, sizeof w0);
      std::memcpy(&w1, row + t + 8, sizeof w1);
      acc[0] += lowBf16(w0) * loadVec<float, Floats4>(x + t);
      acc[1] += highBf16(w0) * loadVec<float, Floats4>(x + t + 4);
      acc[2] += lowBf16(w1) * loadVec<float, Floats4>(x + t + 8);
      acc[3] += highBf16(w1) * loadVec<float, Floats4>(x + t + 12);
    }
    const Floats4 total = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    float sum = 0;  // gemvImpl's order, so a widened copy would give the same y
    for (int lane = 0; lane < 4; ++lane) sum += total[lane];
    for (; t < k; ++t) sum += bfloat16ToFloat(row[t]) * x[t];
    y[i] = sum;
  }
}

// oneRowKernel on bfloat16 panels (kPanel = 8 floats: wasm SIMD128, SSE): each
// panel row is one 16-byte load widened in registers, so a decoder's token reads
// half the bytes; the same sums in the same order as on the widened panels.
template <int Panels>
inline void oneRowKernelBf16(const float* a, const std::uint16_t* panel, Index stride, Index p,
                             float* c, Index cols, Update update) {
  static_assert(Blocking<float>::kPanel == 8, "two float vectors per panel row");
  Floats4 acc[Panels][2] = {};
  for (Index t = 0; t < p; ++t, panel += 8) {
    const Floats4 at = broadcast(a[t]);
    for (int q = 0; q < Panels; ++q) {
      Halves8 w;
      std::memcpy(&w, panel + q * stride, sizeof w);
      acc[q][0] += at * lowBf16(w);
      acc[q][1] += at * highBf16(w);
    }
  }
  float row[Panels * 8];
  std::memcpy(row, acc, sizeof row);
  for (Index j = 0; j < cols; ++j) c[j] = update == Update::kAdd ? c[j] + row[j] : row[j];
}

// gemmStreamBImpl on panels packed 16-bit: each panel's depth block is widened
// (at most 1024 x 8 floats, 32 KiB: L1) just before the up to 64 rows of a use
// it, so the weights are read from memory at half the bytes, and the sums are
// gemmStreamB's on the widened panels, in the same order (the same results).
void gemmStreamBHalfImpl(Index m, Index n, Index p, const float* a, Index lda,
                         const std::uint16_t* packed, HalfFormat format, Index panelRows, float* c,
                         Index ldc, Update update) {
  using B = Blocking<float>;
  constexpr Index R = B::kMicroRows;
  if (m == 0 || n == 0) return;
  if (p == 0) {  // an empty sum
    if (update == Update::kSet) {
      for (Index i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, 0.0f);
    }
    return;
  }
  thread_local std::vector<float> ap, panel;
  const auto widen = [&](const std::uint16_t* from, Index count) {
    panel.resize(static_cast<size_t>(count));
    widenHalves(from, static_cast<size_t>(count), format, panel.data());
  };
  if (m == 1) {  // one token: each panel once
    forOneRow<float>(
        n, p, update,
        [&](int panels, Index jp, Index k0, Index depth, Index cols, Update blockUpdate) {
          const std::uint16_t* from = packed + jp * panelRows * B::kPanel + k0 * B::kPanel;
          float* out = c + jp * B::kPanel;
          const Index stride = panelRows * B::kPanel;
          if constexpr (B::kPanel == 8) {
            if (format == HalfFormat::kBF16) {
              if (panels == 2) {
                oneRowKernelBf16<2>(a + k0, from, stride, depth, out, cols, blockUpdate);
              } else {
                oneRowKernelBf16<1>(a + k0, from, 0, depth, out, cols, blockUpdate);
              }
              return;
            }
          }
          // F16 (or wider vectors): each panel's block widened, then the float kernel.
          for (int q = 0; q < panels; ++q) {
            widen(from + q * stride, depth * B::kPanel);
            oneRowKernel<1>(a + k0, panel.data(), 0, depth, out + q * B::kPanel,
                            std::min<Index>(B::kPanel, cols - q * B::kPanel), blockUpdate);
          }
        });
    return;
  }
  const Index blockDepth = std::min(p, kStreamDepth);
  ap.resize(static_cast<size_t>(blockDepth * R * kStreamGroups));
  for (Index g0 = 0; g0 < m; g0 += R * kStreamGroups) {
    const Index groups = std::min<Index>(kStreamGroups, (m - g0 + R - 1) / R);
    for (Index k0 = 0; k0 < p; k0 += kStreamDepth) {
      const Index depth = std::min(kStreamDepth, p - k0);
      const Update blockUpdate = k0 == 0 ? update : Update::kAdd;
      for (Index g = 0; g < groups; ++g) {
        const Index i0 = g0 + g * R;
        packA(Trans::kNo, a + k0, lda, i0, std::min<Index>(R, m - i0), depth,
              ap.data() + g * depth * R);
      }
      for (Index jp = 0; jp < panelCount<float>(n); ++jp) {
        const Index j0 = jp * B::kPanel;
        widen(packed + jp * panelRows * B::kPanel + k0 * B::kPanel, depth * B::kPanel);
        for (Index g = 0; g < groups; ++g) {
          const Index i0 = g0 + g * R;
          microKernel(ap.data() + g * depth * R, panel.data(), depth, c + i0 * ldc + j0, ldc,
                      std::min<Index>(R, m - i0), std::min<Index>(B::kPanel, n - j0), blockUpdate);
        }
      }
    }
  }
}

template <typename T>
void gemmViews(const MatrixViewOf<T>& a, Trans ta, const MatrixViewOf<T>& b, Trans tb,
               MatrixOutOf<T> c, Update update) {
  const Index k = ta == Trans::kNo ? a.cols() : a.rows();
  gemmImpl(ta, tb, c.rows(), c.cols(), k, a.data(), a.outerStride(), b.data(), b.outerStride(),
           c.data(), c.outerStride(), update);
}

template <typename T>
Status matmulChecked(const MatrixViewOf<T>& a, const MatrixViewOf<T>& b, MatrixOutOf<T> c) {
  RETURN_IF_ERROR(requireNonEmpty("a", a));
  RETURN_IF_ERROR(requireNonEmpty("b", b));
  if (a.cols() != b.rows()) {
    return Status::shapeMismatch("a is " + shapeOf(a) + " and b is " + shapeOf(b) +
                                 "; a's columns (" + std::to_string(a.cols()) +
                                 ") must equal b's rows (" + std::to_string(b.rows()) + ")");
  }
  RETURN_IF_ERROR(requireFinite("a", a));
  RETURN_IF_ERROR(requireFinite("b", b));
  if (c.rows() != a.rows() || c.cols() != b.cols()) {
    return Status::shapeMismatch("c is " + dims(c.rows(), c.cols()) + " but must be " +
                                 dims(a.rows(), b.cols()));
  }
  gemmViews<T>(a, Trans::kNo, b, Trans::kNo, c, Update::kSet);
  return requireFiniteResult("a·b", c, "a or b");
}

}  // namespace

void packB(Trans tb, const double* b, Index ldb, Index rows, Index cols,
           std::vector<double>& packed) {
  packBImpl(tb, b, ldb, rows, cols, packed);
}
void widenHalves(const std::uint16_t* in, std::size_t n, HalfFormat format, float* out) {
  if (format == HalfFormat::kBF16) {
    for (std::size_t i = 0; i < n; ++i) out[i] = bfloat16ToFloat(in[i]);
  } else {
    for (std::size_t i = 0; i < n; ++i) out[i] = halfToFloat(in[i]);
  }
}

bool halvesFinite(const std::uint16_t* in, std::size_t n, HalfFormat format) {
  const std::uint16_t exponent = format == HalfFormat::kBF16 ? 0x7f80u : 0x7c00u;
  bool finite = true;
  for (std::size_t i = 0; i < n; ++i) finite &= (in[i] & exponent) != exponent;
  return finite;
}

void packB(Trans tb, const std::uint16_t* b, HalfFormat format, Index ldb, Index rows, Index cols,
           std::vector<float>& packed) {
  if (format == HalfFormat::kBF16) {
    packBFrom(tb, b, ldb, rows, cols, packed,
              [](const std::uint16_t* x, Index i) { return bfloat16ToFloat(x[i]); });
  } else {
    packBFrom(tb, b, ldb, rows, cols, packed,
              [](const std::uint16_t* x, Index i) { return halfToFloat(x[i]); });
  }
}

void packB(Trans tb, const float* b, Index ldb, Index rows, Index cols,
           std::vector<float>& packed) {
  packBImpl(tb, b, ldb, rows, cols, packed);
}

void gemmPacked(Index m, Index n, Index k, const double* a, Index lda, const double* packed,
                Index panelRows, double* c, Index ldc, Update update) {
  gemmPackedSplit(Trans::kNo, m, n, k, a, lda, packed, panelRows, c, ldc, update);
}
void gemmPacked(Index m, Index n, Index k, const float* a, Index lda, const float* packed,
                Index panelRows, float* c, Index ldc, Update update) {
  gemmPackedSplit(Trans::kNo, m, n, k, a, lda, packed, panelRows, c, ldc, update);
}

void gemmStreamB(Index m, Index n, Index k, const double* a, Index lda, const double* packed,
                 Index panelRows, double* c, Index ldc, Update update) {
  gemmStreamBSplit(m, n, k, a, lda, packed, panelRows, c, ldc, update);
}
void gemmStreamB(Index m, Index n, Index k, const float* a, Index lda, const float* packed,
                 Index panelRows, float* c, Index ldc, Update update) {
  gemmStreamBSplit(m, n, k, a, lda, packed, panelRows, c, ldc, update);
}

// The serial gemvHalf on rows [0, m) (each row's sum is computed the same on any split).
static void gemvHalfRows(Index m, Index k, const std::uint16_t* a, HalfFormat format, Index lda,
                         const float* x, float* y) {
  if (format == HalfFormat::kBF16) {
    gemvBf16(m, k, a, lda, x, y);
    return;
  }
  // F16 (no shift widens it): a block of rows at a time widened into a buffer in cache.
  constexpr Index kBlockRows = 16;
  thread_local std::vector<float> block;
  block.resize(static_cast<std::size_t>(kBlockRows * k));
  for (Index r0 = 0; r0 < m; r0 += kBlockRows) {
    const Index rows = std::min<Index>(kBlockRows, m - r0);
    for (Index r = 0; r < rows; ++r) {
      widenHalves(a + (r0 + r) * lda, static_cast<std::size_t>(k), format, block.data() + r * k);
    }
    gemvImpl(rows, k, block.data(), k, x, y + r0);
  }
}

void gemvHalf(Index m, Index k, const std::uint16_t* a, HalfFormat format, Index lda,
              const float* x, float* y) {
  const Index pieces = piecesFor(static_cast<double>(m) * k, m);
  if (pieces == 1) {
    gemvHalfRows(m, k, a, format, lda, x, y);
    return;
  }
  parallelFor(0, pieces, [&](Index t) {
    const Index r0 = m * t / pieces, r1 = m * (t + 1) / pieces;
    gemvHalfRows(r1 - r0, k, a + r0 * lda, format, lda, x, y + r0);
  });
}

void packB(Trans tb, const std::uint16_t* b, Index ldb, Index rows, Index cols,
           std::vector<std::uint16_t>& packed) {
  packBFrom<std::uint16_t, Blocking<float>::kPanel>(
      tb, b, ldb, rows, cols, packed, [](const std::uint16_t* x, Index i) { return x[i]; });
}

void gemmStreamBHalf(Index m, Index n, Index k, const float* a, Index lda,
                     const std::uint16_t* packed, HalfFormat format, Index panelRows, float* c,
                     Index ldc, Update update) {
  // Split over column panels like gemmStreamB: each column's sum is the serial one.
  splitPanels<float>(n, static_cast<double>(m) * n * k, [&](Index jp0, Index j0, Index cols) {
    gemmStreamBHalfImpl(m, cols, k, a, lda, packed + jp0 * panelRows * Blocking<float>::kPanel,
                        format, panelRows, c + j0, ldc, update);
  });
}

void gemv(Index m, Index k, const double* a, Index lda, const double* x, double* y) {
  gemvSplit(m, k, a, lda, x, y);
}
void gemv(Index m, Index k, const float* a, Index lda, const float* x, float* y) {
  gemvSplit(m, k, a, lda, x, y);
}

void gemm(Trans ta, Trans tb, Index m, Index n, Index k, const double* a, Index lda,
          const double* b, Index ldb, double* c, Index ldc, Update update) {
  gemmImpl(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, update);
}
void gemm(Trans ta, Trans tb, Index m, Index n, Index k, const float* a, Index lda, const float* b,
          Index ldb, float* c, Index ldc, Update update) {
  gemmImpl(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, update);
}

void gemm(const MatrixView& a, Trans ta, const MatrixView& b, Trans tb, MatrixOut c,
          Update update) {
  gemmViews<double>(a, ta, b, tb, c, update);
}
void gemm(const MatrixView32& a, Trans ta, const MatrixView32& b, Trans tb, MatrixOut32 c,
          Update update) {
  gemmViews<float>(a, ta, b, tb, c, update);
}

Status matmulInto(const MatrixView& a, const MatrixView& b, MatrixOut c) {
  return matmulChecked<double>(a, b, c);
}
Status matmulInto(const MatrixView32& a, const MatrixView32& b, MatrixOut32 c) {
  return matmulChecked<float>(a, b, c);
}

Status matmul(const MatrixView& a, const MatrixView& b, Matrix& out) {
  out.resize(a.rows(), b.cols());
  return matmulInto(a, b, out);
}

}  // namespace attention

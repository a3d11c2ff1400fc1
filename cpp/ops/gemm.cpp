#include "gemm.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "half.h"
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

// ---- weights streamed by the rows of a ---------------------------------------
// packStreamB's layout: packB's panels in groups of kGroupPanels (the last group
// of a matrix may be narrower), each group stored depth row after depth row with
// its panels' rows side by side: row t of panel jp0 + q of the group starting at
// panel jp0 (width w) is at jp0 * panelRows * kPanel + t * w * kPanel + q * kPanel.
// One row of a (a decoded token) then reads a group as one sequential stream
// (128 bytes a depth row in float32, 64 in 16-bit) with w * kPanelVecs sums in
// flight. The 210 one-row products of a SmolLM2-135M-shaped token in wasm (a
// micro-benchmark in V8 on the 2.6 GHz EPYC): panels two at a time, F32 33 ms
// and BF16 34 ms; groups of 4, two depth rows a loop, F32 15 ms and BF16 11 ms
// (BF16 reads 14 GB/s, F32 25 GB/s: the float32 weights are memory-bound).
// Groups of 8 spill.
constexpr Index kGroupPanels = 4;

// The width (panels) of the group starting at panel jp0 of `panels`.
inline Index groupWidth(Index jp0, Index panels) { return std::min(kGroupPanels, panels - jp0); }

using half::bfloat16ToFloat;
using half::evenBf16;
using half::Floats4;
using half::halfToFloat;
using half::Halves8;
using half::oddBf16;

// Stores a row of a group's sums (acc[q][v], kPanel columns a panel) into c[0, cols).
template <typename T, typename Acc>
inline void storeRow(const Acc& acc, T* c, Index cols, Update update) {
  T row[sizeof(Acc) / sizeof(T)];
  std::memcpy(row, &acc, sizeof row);
  for (Index j = 0; j < cols; ++j) c[j] = update == Update::kAdd ? c[j] + row[j] : row[j];
}

// c[0, cols) (+)= a[0, p) . W panels side by side in a group (from `first`,
// depth rows `stride` entries apart): the product of ONE row of a without the
// micro-kernel's three zero rows (4x the multiply-adds for one useful row). Each
// column sums over t in order, as the micro-kernel does, so a token gives the
// same numbers decoded as in a whole forward pass.
template <int W, typename T>
inline void oneRowGroup(const T* a, const T* first, Index stride, Index p, T* c, Index cols,
                        Update update) {
  using B = Blocking<T>;
  using Vec = typename B::Vec;
  const T* group = first;
  Vec acc[W][B::kPanelVecs] = {};
  const auto step = [&](T x, const T* row) {
    const Vec at = broadcast(x);
    for (int q = 0; q < W; ++q) {
      for (int v = 0; v < B::kPanelVecs; ++v) {
        acc[q][v] += at * loadVec(row + q * B::kPanel + v * B::kLanes);
      }
    }
  };
  // Two depth rows a loop: 11% faster in V8 (loop overhead), the same sums.
  Index t = 0;
  for (; t + 2 <= p; t += 2, group += 2 * stride) {
    step(a[t], group);
    step(a[t + 1], group + stride);
  }
  if (t < p) step(a[t], group);
  storeRow(acc, c, cols, update);
}

// The same on a bfloat16 group (kPanel = 8 floats: wasm SIMD128, SSE): each
// panel row is one 16-byte load widened in registers, the same sums in the same
// order as on the widened group.
template <int W>
inline void oneRowGroupBf16(const float* a, const std::uint16_t* first, Index stride, Index p,
                            float* c, Index cols, Update update) {
  static_assert(Blocking<float>::kPanel == 8, "two float vectors per panel row");
  const std::uint16_t* group = first;
  Floats4 acc[W][2] = {};
  const auto step = [&](float x, const std::uint16_t* row) {
    const Floats4 at = broadcast(x);
    for (int q = 0; q < W; ++q) {
      const Halves8 w = half::loadHalves8(row + q * 8);
      acc[q][0] += at * evenBf16(w);
      acc[q][1] += at * oddBf16(w);
    }
  };
  // Two depth rows a loop: 1.3x faster in V8 (SmolLM2's decode products 14.4 ->
  // 11.1 ms; four rows: 11.7 ms), the same sums.
  Index t = 0;
  for (; t + 2 <= p; t += 2, group += 2 * stride) {
    step(a[t], group);
    step(a[t + 1], group + stride);
  }
  if (t < p) step(a[t], group);
  Floats4 inOrder[W][2];  // columns 0, 2, 4, 6 | 1, 3, 5, 7 -> 0 .. 7
  for (int q = 0; q < W; ++q) {
    const Floats4 even = acc[q][0], odd = acc[q][1];
    inOrder[q][0] = __builtin_shufflevector(even, odd, 0, 4, 1, 5);
    inOrder[q][1] = __builtin_shufflevector(even, odd, 2, 6, 3, 7);
  }
  storeRow(inOrder, c, cols, update);
}

// kernel.template operator()<W>(...) for the group's width W in [1, kGroupPanels].
template <typename Kernel>
inline void forWidth(Index w, const Kernel& kernel) {
  static_assert(kGroupPanels == 4, "one case a width");
  switch (w) {
    case 4:
      kernel(std::integral_constant<int, 4>{});
      break;
    case 3:
      kernel(std::integral_constant<int, 3>{});
      break;
    case 2:
      kernel(std::integral_constant<int, 2>{});
      break;
    default:
      kernel(std::integral_constant<int, 1>{});
  }
}

// Panel q of a group of width w (of stored type S) -> panel (depth x kPanel of
// T, contiguous), a depth row at a time by `fetchRow(from, to)` (a copy, or the
// 16-bit values widened): the micro-kernel then reads a 32 KiB slice from L1 for
// its 16 row groups.
template <typename T, typename S, typename FetchRow>
inline void fetchPanel(const S* group, Index w, Index q, Index depth, T* panel, FetchRow fetchRow) {
  constexpr Index kPanel = Blocking<T>::kPanel;
  const S* from = group + q * kPanel;
  for (Index t = 0; t < depth; ++t, from += w * kPanel, panel += kPanel) fetchRow(from, panel);
}

// One panel row fetched (passed as lambdas, each its own type, so that it is
// inlined): copied whole, or 8 bfloat16 values widened in registers and put
// back in column order, or 8 halves one by one.
template <typename T>
inline void copyPanelRow(const T* from, T* to) {
  std::memcpy(to, from, sizeof(T) * Blocking<T>::kPanel);
}
inline void widenBf16Row(const std::uint16_t* from, float* to) {
  const Halves8 w = half::loadHalves8(from);
  const Floats4 even = evenBf16(w), odd = oddBf16(w);
  const Floats4 low = __builtin_shufflevector(even, odd, 0, 4, 1, 5);
  const Floats4 high = __builtin_shufflevector(even, odd, 2, 6, 3, 7);
  std::memcpy(to, &low, sizeof low);
  std::memcpy(to + 4, &high, sizeof high);
}
inline void widenF16Row(const std::uint16_t* from, float* to) {
  for (int j = 0; j < 8; ++j) to[j] = halfToFloat(from[j]);
}

// c (m x n) (+)= a (m x p) . B in packStreamB's layout, B stored as S and its
// panel rows read as T through `fetchRow`; `oneRow(w, a, group, depth, c, cols, update)` is the
// product of one row of a with a group. Up to kStreamGroups groups of rows (64
// rows) are packed together, so B streams by once per 64 rows (gemmPackedImpl
// reads it once per 16, from DRAM each time for a model's weights), and the
// depth is cut into blocks of at most kStreamDepth so that packed a (64 x 1024
// floats: 256 KiB) stays in L2; each panel's slice of a depth block (1024 x 8
// floats, 32 KiB) is fetched once into L1 and reused by the 16 row groups. The
// later depth blocks add to c. In wasm, the 48 products of a GPT-2 small pass
// on 64 tokens: 330 -> 287 ms (best of 12, README "Open a real model").
constexpr Index kStreamGroups = 16;
constexpr Index kStreamDepth = 1024;

template <typename T, typename S, typename FetchRow, typename OneRow>
void streamBImpl(Index m, Index jpBegin, Index jpEnd, Index n, Index p, const T* a, Index lda,
                 const S* packed, Index panelRows, T* c, Index ldc, Update update,
                 FetchRow fetchRow, OneRow oneRow) {
  using B = Blocking<T>;
  constexpr Index R = B::kMicroRows;
  const Index panels = panelCount<T>(n);
  jpEnd = std::min(jpEnd, panels);
  if (m == 0 || jpBegin >= jpEnd) return;
  const Index jBegin = jpBegin * B::kPanel, jEnd = std::min(n, jpEnd * B::kPanel);
  if (p == 0) {  // an empty sum
    if (update == Update::kSet) {
      for (Index i = 0; i < m; ++i) std::fill(c + i * ldc + jBegin, c + i * ldc + jEnd, T(0));
    }
    return;
  }
  // The groups meeting [jpBegin, jpEnd): run(g0, w, q0, q1) for their panels g0 + [q0, q1).
  const auto forGroups = [&](const auto& run) {
    for (Index g0 = jpBegin - jpBegin % kGroupPanels; g0 < jpEnd; g0 += kGroupPanels) {
      const Index w = groupWidth(g0, panels);
      run(g0, w, std::max(jpBegin, g0) - g0, std::min(jpEnd, g0 + w) - g0);
    }
  };
  const auto groupAt = [&](Index g0, Index k0, Index w) {
    return packed + g0 * panelRows * B::kPanel + k0 * w * B::kPanel;
  };
  if (m == 1) {  // one token: each group once, no packing of a
    for (Index k0 = 0; k0 < p; k0 += kStreamDepth) {
      const Index depth = std::min(kStreamDepth, p - k0);
      const Update blockUpdate = k0 == 0 ? update : Update::kAdd;
      forGroups([&](Index g0, Index w, Index q0, Index q1) {
        const Index j0 = (g0 + q0) * B::kPanel;
        oneRow(q1 - q0, a + k0, groupAt(g0, k0, w) + q0 * B::kPanel, w * B::kPanel, depth, c + j0,
               std::min((g0 + q1) * B::kPanel, n) - j0, blockUpdate);
      });
    }
    return;
  }
  thread_local std::vector<T> ap, panel;
  const Index blockDepth = std::min(p, kStreamDepth);
  ap.resize(static_cast<size_t>(blockDepth * R * kStreamGroups));
  panel.resize(static_cast<size_t>(blockDepth * B::kPanel));
  for (Index r0 = 0; r0 < m; r0 += R * kStreamGroups) {
    const Index rowGroups = std::min<Index>(kStreamGroups, (m - r0 + R - 1) / R);
    for (Index k0 = 0; k0 < p; k0 += kStreamDepth) {
      const Index depth = std::min(kStreamDepth, p - k0);
      const Update blockUpdate = k0 == 0 ? update : Update::kAdd;
      for (Index g = 0; g < rowGroups; ++g) {
        const Index i0 = r0 + g * R;
        packA(Trans::kNo, a + k0, lda, i0, std::min<Index>(R, m - i0), depth,
              ap.data() + g * depth * R);
      }
      forGroups([&](Index g0, Index w, Index q0, Index q1) {
        for (Index q = q0; q < q1; ++q) {
          const Index j0 = (g0 + q) * B::kPanel;
          fetchPanel(groupAt(g0, k0, w), w, q, depth, panel.data(), fetchRow);
          for (Index g = 0; g < rowGroups; ++g) {
            const Index i0 = r0 + g * R;
            microKernel(ap.data() + g * depth * R, panel.data(), depth, c + i0 * ldc + j0, ldc,
                        std::min<Index>(R, m - i0), std::min<Index>(B::kPanel, n - j0),
                        blockUpdate);
          }
        }
      });
    }
  }
}

// gemmStreamB's columns of panels [jpBegin, jpEnd).
template <typename T>
void gemmStreamBImpl(Index m, Index jpBegin, Index jpEnd, Index n, Index p, const T* a, Index lda,
                     const T* packed, Index panelRows, T* c, Index ldc, Update update) {
  streamBImpl(
      m, jpBegin, jpEnd, n, p, a, lda, packed, panelRows, c, ldc, update,
      [](const T* from, T* to) { copyPanelRow(from, to); },
      [](Index count, const T* a, const T* first, Index stride, Index depth, T* c, Index cols,
         Update u) {
        forWidth(count,
                 [&](auto width) { oneRowGroup<width()>(a, first, stride, depth, c, cols, u); });
      });
}

// Entry i of a stored B as T: `load(b, i)` (a copy, or a 16-bit value widened),
// into panels of kPanel columns, in groups of `groupPanels` panels stored depth
// row after depth row (1: packB's layout; kGroupPanels: packStreamB's).
template <typename T, Index kPanel = Blocking<T>::kPanel, typename S, typename Load>
void packBFrom(Trans tb, const S* b, Index ldb, Index rows, Index cols, std::vector<T>& packed,
               Load load, Index groupPanels = 1) {
  const Index panels = (cols + kPanel - 1) / kPanel;
  // Where entry (t, j) of op(b) goes.
  const auto at = [&](Index t, Index j) {
    const Index jp = j / kPanel, jp0 = jp - jp % groupPanels;
    const Index w = std::min(groupPanels, panels - jp0);
    return jp0 * rows * kPanel + t * w * kPanel + (jp - jp0) * kPanel + j % kPanel;
  };
  // Every entry is written below (values, or zero padding in the last panel), so
  // a buffer kept from the last call is not cleared first.
  packed.resize(static_cast<size_t>(panels * rows * kPanel));
  if (const Index width = cols % kPanel; width != 0) {
    for (Index t = 0; t < rows; ++t) {
      T* last = packed.data() + at(t, cols - width);
      std::fill(last + width, last + kPanel, T(0));
    }
  }
  if (tb == Trans::kNo) {
    for (Index t = 0; t < rows; ++t) {
      for (Index j0 = 0; j0 < cols; j0 += kPanel) {
        T* out = packed.data() + at(t, j0);
        for (Index j = j0; j < std::min(cols, j0 + kPanel); ++j) out[j - j0] = load(b, t * ldb + j);
      }
    }
  } else {  // op(b) = b^T: b is (cols x rows); its row j is column j of op(b)
    for (Index j = 0; j < cols; ++j) {
      T* out = packed.data() + at(0, j);
      const Index step = at(1, j) - at(0, j);
      for (Index t = 0; t < rows; ++t) out[t * step] = load(b, j * ldb + t);
    }
  }
}

template <typename T>
void packBImpl(Trans tb, const T* b, Index ldb, Index rows, Index cols, std::vector<T>& packed) {
  packBFrom(tb, b, ldb, rows, cols, packed, [](const T* x, Index i) { return x[i]; });
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
  // Any run of panels (a piece may start inside a group): the same sums.
  splitPanels<T>(n, static_cast<double>(m) * n * p, [&](Index jp0, Index, Index cols) {
    gemmStreamBImpl(m, jp0, jp0 + panelCount<T>(cols), n, p, a, lda, packed, panelRows, c, ldc,
                    update);
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

// streamBImpl on 16-bit groups, the same sums in the same order as on the
// widened groups (the same results): with many rows of a, each panel's depth
// block is widened (at most 1024 x 8 floats, 32 KiB: L1) just before the up to
// 64 rows use it; one row of a widens BF16 in registers and F16 (no shift
// widens it) a group's depth block at a time. The weights stream at half the
// bytes of float32.
void gemmStreamBHalfImpl(Index m, Index jpBegin, Index jpEnd, Index n, Index p, const float* a,
                         Index lda, const std::uint16_t* packed, HalfFormat format, Index panelRows,
                         float* c, Index ldc, Update update) {
  static_assert(Blocking<float>::kPanel == 8, "the bfloat16 one-row kernel reads 8 columns");
  if (format == HalfFormat::kBF16) {
    streamBImpl(
        m, jpBegin, jpEnd, n, p, a, lda, packed, panelRows, c, ldc, update,
        [](const std::uint16_t* from, float* to) { widenBf16Row(from, to); },
        [](Index count, const float* a, const std::uint16_t* first, Index stride, Index depth,
           float* c, Index cols, Update u) {
          forWidth(count, [&](auto width) {
            oneRowGroupBf16<width()>(a, first, stride, depth, c, cols, u);
          });
        });
    return;
  }
  thread_local std::vector<float> wide;
  streamBImpl(
      m, jpBegin, jpEnd, n, p, a, lda, packed, panelRows, c, ldc, update,
      [](const std::uint16_t* from, float* to) { widenF16Row(from, to); },
      [](Index count, const float* a, const std::uint16_t* first, Index stride, Index depth,
         float* c, Index cols, Update u) {
        // The used panels' depth rows widened side by side (count * 8 floats a row).
        constexpr Index kPanel = Blocking<float>::kPanel;
        wide.resize(static_cast<std::size_t>(depth * count * kPanel));
        for (Index t = 0; t < depth; ++t) {
          widenHalves(first + t * stride, static_cast<std::size_t>(count * kPanel),
                      HalfFormat::kF16, wide.data() + t * count * kPanel);
        }
        forWidth(count, [&](auto width) {
          oneRowGroup<width()>(a, wide.data(), count * kPanel, depth, c, cols, u);
        });
      });
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

void packStreamB(Trans tb, const double* b, Index ldb, Index rows, Index cols,
                 std::vector<double>& packed) {
  packBFrom(
      tb, b, ldb, rows, cols, packed, [](const double* x, Index i) { return x[i]; }, kGroupPanels);
}
void packStreamB(Trans tb, const float* b, Index ldb, Index rows, Index cols,
                 std::vector<float>& packed) {
  packBFrom(
      tb, b, ldb, rows, cols, packed, [](const float* x, Index i) { return x[i]; }, kGroupPanels);
}
void packStreamB(Trans tb, const std::uint16_t* b, Index ldb, Index rows, Index cols,
                 std::vector<std::uint16_t>& packed) {
  packBFrom<std::uint16_t, Blocking<float>::kPanel>(
      tb, b, ldb, rows, cols, packed, [](const std::uint16_t* x, Index i) { return x[i]; },
      kGroupPanels);
}

void gemmStreamBHalf(Index m, Index n, Index k, const float* a, Index lda,
                     const std::uint16_t* packed, HalfFormat format, Index panelRows, float* c,
                     Index ldc, Update update) {
  // Split over column panels like gemmStreamB: each column's sum is the serial one.
  splitPanels<float>(n, static_cast<double>(m) * n * k, [&](Index jp0, Index, Index cols) {
    gemmStreamBHalfImpl(m, jp0, jp0 + panelCount<float>(cols), n, k, a, lda, packed, format,
                        panelRows, c, ldc, update);
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

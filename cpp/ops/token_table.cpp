#include "token_table.h"

#include <algorithm>

#include "half.h"
#include "parallel.h"

namespace attention {

namespace {

using Index = Eigen::Index;
using half::Floats4;
using half::Halves8;

constexpr Index kChunk = 8;

// Where entry (r, c) of a (rows x cols) table goes, and the stored slot of
// column j of a whole reordered BF16 chunk (order 0 4 1 5 2 6 3 7).
Index positionOf(Index rows, Index cols, Index r, Index c) {
  const Index g = r - r % kTableGroupRows, n = std::min(kTableGroupRows, rows - g);
  const Index c0 = c - c % kChunk, w = std::min(kChunk, cols - c0);
  return g * cols + c0 * n + (r - g) * w + (c - c0);
}
constexpr Index reorderedSlot(Index j) { return j < 4 ? 2 * j : 2 * (j - 4) + 1; }

bool reordered(HalfFormat format, Index cols, Index c) {
  return format == HalfFormat::kBF16 && c - c % kChunk + kChunk <= cols;
}

// In place, a group at a time: a group's n rows are the same n * cols entries in
// both layouts, so one group's copy is all the extra memory (a model's table is
// laid out where it was loaded, with no second table beside it).
template <typename T, typename Slot>
void layOutTable(T* table, Index rows, Index cols, Slot slot) {
  std::vector<T> group;
  for (Index g = 0; g < rows; g += kTableGroupRows) {
    const Index n = std::min(kTableGroupRows, rows - g);
    group.assign(table + g * cols, table + (g + n) * cols);
    for (Index r = 0; r < n; ++r) {
      for (Index c = 0; c < cols; ++c) {
        table[positionOf(rows, cols, g + r, c - c % kChunk) + slot(c)] = group[r * cols + c];
      }
    }
  }
}

// y[0, N) for one group of N rows starting at `group`; `chunk(p, lo, hi)` reads
// one row's whole chunk at p as columns 0-3 and 4-7, `value(p)` one entry.
template <int N, typename T, typename Chunk, typename Value>
void groupTimes(const T* group, Index cols, const float* x, float* y, Chunk chunk, Value value) {
  Floats4 acc[N][2] = {};
  const auto step = [&](const T* chunks, Index c0) {
    const Floats4 xl = half::loadFloats4(x + c0), xh = half::loadFloats4(x + c0 + 4);
    for (int i = 0; i < N; ++i) {
      Floats4 lo, hi;
      chunk(chunks + i * kChunk, lo, hi);
      acc[i][0] += lo * xl;
      acc[i][1] += hi * xh;
    }
  };
  // Two chunks a loop: 4.4 -> 3.5 ms for SmolLM2's table in V8, the same sums.
  Index c0 = 0;
  for (; c0 + 2 * kChunk <= cols; c0 += 2 * kChunk, group += 2 * N * kChunk) {
    step(group, c0);
    step(group + N * kChunk, c0 + kChunk);
  }
  if (c0 + kChunk <= cols) {
    step(group, c0);
    c0 += kChunk;
    group += N * kChunk;
  }
  const Index w = cols - c0;  // the last chunk, narrower: stored N x w
  for (int i = 0; i < N; ++i) {
    const Floats4 s = acc[i][0] + acc[i][1];
    float sum = (s[0] + s[1]) + (s[2] + s[3]);
    for (Index j = 0; j < w; ++j) sum += value(group + i * w + j) * x[c0 + j];
    y[i] = sum;
  }
}

// groupTimes on the group of n rows at `group`.
template <typename T, typename Chunk, typename Value>
void timesGroup(const T* group, Index n, Index cols, const float* x, float* y, Chunk chunk,
                Value value) {
  static_assert(kTableGroupRows == 4, "one case a group size");
  switch (n) {
    case 4:
      groupTimes<4>(group, cols, x, y, chunk, value);
      break;
    case 3:
      groupTimes<3>(group, cols, x, y, chunk, value);
      break;
    case 2:
      groupTimes<2>(group, cols, x, y, chunk, value);
      break;
    default:
      groupTimes<1>(group, cols, x, y, chunk, value);
  }
}

// timesGroup over the groups of rows [r0, r1) (r0 a multiple of 4).
template <typename T, typename Chunk, typename Value>
void rowsTimes(const T* packed, Index rows, Index cols, Index r0, Index r1, const float* x,
               float* y, Chunk chunk, Value value) {
  for (Index g = r0; g < r1; g += kTableGroupRows) {
    timesGroup(packed + g * cols, std::min(kTableGroupRows, rows - g), cols, x, y + g, chunk,
               value);
  }
}

// Calls run(r0, r1) over whole groups of rows, split over the threads.
template <typename Run>
void splitGroups(Index rows, Index cols, const Run& run) {
  const Index groups = (rows + kTableGroupRows - 1) / kTableGroupRows;
  const Index pieces = piecesFor(static_cast<double>(rows) * cols, groups);
  if (pieces == 1) {
    run(Index(0), rows);
    return;
  }
  parallelFor(0, pieces, [&](Index t) {
    const Index r0 = groups * t / pieces * kTableGroupRows;
    const Index r1 = std::min(rows, groups * (t + 1) / pieces * kTableGroupRows);
    if (r1 > r0) run(r0, r1);
  });
}

const auto floatChunk = [](const float* p, Floats4& lo, Floats4& hi) {
  lo = half::loadFloats4(p);
  hi = half::loadFloats4(p + 4);
};
const auto floatValue = [](const float* p) { return *p; };
const auto bf16Chunk = [](const std::uint16_t* p, Floats4& lo, Floats4& hi) {
  const Halves8 w = half::loadHalves8(p);  // stored 0 4 1 5 2 6 3 7
  lo = half::evenBf16(w);
  hi = half::oddBf16(w);
};
const auto bf16Value = [](const std::uint16_t* p) { return half::bfloat16ToFloat(*p); };

}  // namespace

void layOutTokenTable(float* table, Index rows, Index cols) {
  layOutTable(table, rows, cols, [](Index c) { return c % kChunk; });
}

void layOutTokenTable(std::uint16_t* table, HalfFormat format, Index rows, Index cols) {
  layOutTable(table, rows, cols, [&](Index c) {
    return reordered(format, cols, c) ? reorderedSlot(c % kChunk) : c % kChunk;
  });
}

void tokenTableRow(const float* packed, Index rows, Index cols, Index row, float* out) {
  for (Index c0 = 0; c0 < cols; c0 += kChunk) {
    const float* from = packed + positionOf(rows, cols, row, c0);
    std::copy(from, from + std::min(kChunk, cols - c0), out + c0);
  }
}

void tokenTableRow(const std::uint16_t* packed, HalfFormat format, Index rows, Index cols,
                   Index row, float* out) {
  for (Index c = 0; c < cols; ++c) {
    const Index slot = reordered(format, cols, c) ? reorderedSlot(c % kChunk) : c % kChunk;
    const std::uint16_t bits = packed[positionOf(rows, cols, row, c - c % kChunk) + slot];
    out[c] = format == HalfFormat::kBF16 ? half::bfloat16ToFloat(bits) : half::halfToFloat(bits);
  }
}

void tokenTableTimes(const float* packed, Index rows, Index cols, const float* x, float* y) {
  splitGroups(rows, cols, [&](Index r0, Index r1) {
    rowsTimes(packed, rows, cols, r0, r1, x, y, floatChunk, floatValue);
  });
}

void tokenTableTimes(const std::uint16_t* packed, HalfFormat format, Index rows, Index cols,
                     const float* x, float* y) {
  if (format == HalfFormat::kBF16) {
    splitGroups(rows, cols, [&](Index r0, Index r1) {
      rowsTimes(packed, rows, cols, r0, r1, x, y, bf16Chunk, bf16Value);
    });
    return;
  }
  // F16 (no shift widens it): a group at a time widened into float32, then the float kernel.
  splitGroups(rows, cols, [&](Index r0, Index r1) {
    thread_local std::vector<float> wide;
    wide.resize(static_cast<std::size_t>(kTableGroupRows * cols));
    for (Index g = r0; g < r1; g += kTableGroupRows) {
      const Index n = std::min(kTableGroupRows, rows - g);
      widenHalves(packed + g * cols, static_cast<std::size_t>(n * cols), format, wide.data());
      timesGroup(wide.data(), n, cols, x, y + g, floatChunk, floatValue);
    }
  });
}

}  // namespace attention

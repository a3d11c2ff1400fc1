// A language model's token table (V x D: the token embeddings, which a tied
// model also uses as its output layer), laid out for the two ways a decoder
// reads it: one row (a token's embedding) and the whole table times one vector
// (the logits of the last position: a decoded token reads all of it).
//
// Layout (layOutTokenTable): groups of kTableGroupRows = 4 rows (the last group
// may have fewer, n), each stored chunk after chunk of 8 columns, the chunk's
// n rows side by side: entry (r, c) of the group starting at row g is at
//   g D + c0 n + (r - g) w + (c - c0),  c0 = c - c % 8,  w = min(8, D - c0).
// The product then reads the table as one sequential stream with 4 rows' sums
// in flight (row-major and a row at a time, SmolLM2-135M's 49152 x 576 BF16
// table took 8.3 ms a token in V8; in groups 4.4 ms). The 8 values of a whole
// BF16 chunk are stored in the order 0 4 1 5 2 6 3 7, so that the widening by
// shift and mask (half.h) gives columns 0-3 and 4-7: the product of a 16-bit
// table is the float32 table's, bit for bit.
//
// Shapes: table (V x D) -> packed (V D entries); row -> out (D); x (D) -> y (V).
#pragma once

#include <cstdint>
#include <vector>

#include "gemm.h"  // HalfFormat
#include "tensor.h"

namespace attention {

constexpr Eigen::Index kTableGroupRows = 4;

// table (rows x cols, row-major) rearranged in place into the layout above
// (16-bit values kept as stored; `format` says which chunks to reorder): each
// group of rows stays where it was, so only one group is copied aside.
void layOutTokenTable(float* table, Eigen::Index rows, Eigen::Index cols);
void layOutTokenTable(std::uint16_t* table, HalfFormat format, Eigen::Index rows,
                      Eigen::Index cols);

// out (cols) = row `row` of a packed table, as float32. No checks.
void tokenTableRow(const float* packed, Eigen::Index rows, Eigen::Index cols, Eigen::Index row,
                   float* out);
void tokenTableRow(const std::uint16_t* packed, HalfFormat format, Eigen::Index rows,
                   Eigen::Index cols, Eigen::Index row, float* out);

// y (rows) = packed table (rows x cols) times x (cols): each row's sum is 8
// partial sums (two vectors over a chunk's columns 0-3 and 4-7), added in a
// fixed order, then the last chunk's columns one by one; the same on any number
// of threads (groups of rows are split). No checks.
void tokenTableTimes(const float* packed, Eigen::Index rows, Eigen::Index cols, const float* x,
                     float* y);
void tokenTableTimes(const std::uint16_t* packed, HalfFormat format, Eigen::Index rows,
                     Eigen::Index cols, const float* x, float* y);

}  // namespace attention

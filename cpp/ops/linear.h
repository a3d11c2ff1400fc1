// The one linear (fully connected) layer of the core: y = x W + b, one row of
// x per token. Two weight layouts, both through gemm (no copy or transpose):
//   kInOut   W: (in x out), y = x W + b        (the chapters' and seq2seq's layout)
//   kOutIn   W: (out x in), y = x W^T + b      (PyTorch's nn.Linear)
// Shapes: x (n x in), b (out) or none -> y (n x out).
#pragma once

#include <cstdint>
#include <optional>

#include "gemm.h"
#include "status.h"
#include "tensor.h"

namespace attention {

enum class WeightLayout { kInOut, kOutIn };

// Validated; y is resized. Messages name x, weight and bias.
Status linear(const MatrixView& x, const MatrixView& weight, const std::optional<VectorView>& bias,
              WeightLayout layout, Matrix& y);

// PyTorch nn.Linear: x: (n x in), weight: (out x in), bias: (out) -> y: (n x out).
inline Status linear(const MatrixView& x, const MatrixView& weight, const VectorView& bias,
                     Matrix& y) {
  return linear(x, weight, std::optional<VectorView>(bias), WeightLayout::kOutIn, y);
}

// Unchecked, into a caller-sized y (n x out); bias is null or points at `out`
// contiguous values.
void linearInto(const MatrixView& x, const MatrixView& weight, const double* bias,
                WeightLayout layout, MatrixOut y);
// The same in float32 (the float32 multi-head attention's projections).
void linearInto(const MatrixView32& x, const MatrixView32& weight, const float* bias,
                WeightLayout layout, MatrixOut32 y);

// The same with W (in x out, kInOut) already packed by packStreamB(Trans::kNo, W,
// out, in, out, packed) (gemm.h): a model that runs one W many times packs it once.
// x (n x in) -> y (n x out), unchecked; bias null or `out` values. Through
// gemmStreamB: W is read from memory once per 64 rows of x.
void linearPackedInto(const MatrixView32& x, const float* packedWeight, Eigen::Index out,
                      const float* bias, MatrixOut32 y);

// The same with W packed 16-bit, as stored (packStreamB's 16-bit form, gemm.h):
// gemmStreamBHalf, the same y as linearPackedInto on the widened W.
void linearPackedHalfInto(const MatrixView32& x, const std::uint16_t* packedWeight,
                          HalfFormat format, Eigen::Index out, const float* bias, MatrixOut32 y);

}  // namespace attention

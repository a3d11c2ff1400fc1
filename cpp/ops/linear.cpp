#include "linear.h"

#include <string>

#include "validate.h"

namespace attention {

namespace {

std::string count(Eigen::Index n, const char* what) { return std::to_string(n) + " " + what; }

template <typename T>
void addBias(const T* bias, MatrixOutOf<T>& y) {
  if (!bias) return;
  for (Eigen::Index r = 0; r < y.rows(); ++r) {
    T* row = y.data() + r * y.outerStride();
    for (Eigen::Index c = 0; c < y.cols(); ++c) row[c] += bias[c];
  }
}

template <typename T>
void linearIntoOf(const MatrixViewOf<T>& x, const MatrixViewOf<T>& weight, const T* bias,
                  WeightLayout layout, MatrixOutOf<T> y) {
  gemm(x, Trans::kNo, weight, layout == WeightLayout::kInOut ? Trans::kNo : Trans::kYes, y);
  addBias(bias, y);
}

}  // namespace

void linearInto(const MatrixView& x, const MatrixView& weight, const double* bias,
                WeightLayout layout, MatrixOut y) {
  linearIntoOf<double>(x, weight, bias, layout, y);
}

void linearInto(const MatrixView32& x, const MatrixView32& weight, const float* bias,
                WeightLayout layout, MatrixOut32 y) {
  linearIntoOf<float>(x, weight, bias, layout, y);
}

void linearPackedInto(const MatrixView32& x, const float* packedWeight, Eigen::Index out,
                      const float* bias, MatrixOut32 y) {
  gemmStreamB(x.rows(), out, x.cols(), x.data(), x.outerStride(), packedWeight, x.cols(), y.data(),
              y.outerStride());
  addBias(bias, y);
}

void linearPackedHalfInto(const MatrixView32& x, const std::uint16_t* packedWeight,
                          HalfFormat format, Eigen::Index out, const float* bias, MatrixOut32 y) {
  gemmStreamBHalf(x.rows(), out, x.cols(), x.data(), x.outerStride(), packedWeight, format,
                  x.cols(), y.data(), y.outerStride());
  addBias(bias, y);
}

Status linear(const MatrixView& x, const MatrixView& weight, const std::optional<VectorView>& bias,
              WeightLayout layout, Matrix& y) {
  RETURN_IF_ERROR(requireNonEmpty("x", x));
  RETURN_IF_ERROR(requireFinite("x", x));
  RETURN_IF_ERROR(requireNonEmpty("weight", weight));
  RETURN_IF_ERROR(requireFinite("weight", weight));
  const bool outIn = layout == WeightLayout::kOutIn;
  const Eigen::Index in = outIn ? weight.cols() : weight.rows();
  const Eigen::Index out = outIn ? weight.rows() : weight.cols();
  if (bias) RETURN_IF_ERROR(requireNonEmpty("bias", *bias));
  if (in != x.cols()) {
    return Status::shapeMismatch("x has " + count(x.cols(), "columns") + " but weight has " +
                                 count(in, outIn ? "columns" : "rows") + " (x is " + shapeOf(x) +
                                 ", weight is " + shapeOf(weight) + ")");
  }
  if (bias) {
    if (bias->size() != out) {
      return Status::shapeMismatch("bias has " + count(bias->size(), "entries") +
                                   " but weight has " + count(out, outIn ? "rows" : "columns") +
                                   " (weight is " + shapeOf(weight) + ")");
    }
    RETURN_IF_ERROR(requireFinite("bias", *bias));
  }
  y.resize(x.rows(), out);
  const Vector b = bias ? Vector(*bias) : Vector();
  linearInto(x, weight, bias ? b.data() : nullptr, layout, y);
  return Status::ok();
}

}  // namespace attention

// Eigen types used across the core. Matrices are row-major so that one row is
// one time step / token, matching the JS side's row-major `data` arrays.
// Everything is float64 except the float32 path of the gemm, the softmax row
// kernel and attention, which are templates over the element type T (double or
// float); the *Of<T> names below are their types, the plain names are T = double.
#pragma once

#include <Eigen/Core>

namespace attention {

template <typename T>
using VectorOf = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <typename T>
using MatrixOf = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
// Read-only views: accept matrices and Eigen::Map over foreign memory without copying.
template <typename T>
using VectorViewOf = Eigen::Ref<const VectorOf<T>>;
template <typename T>
using MatrixViewOf = Eigen::Ref<const MatrixOf<T>>;

using Vector = VectorOf<double>;
using Matrix = MatrixOf<double>;
using VectorView = VectorViewOf<double>;
using MatrixView = MatrixViewOf<double>;

using VectorMap = Eigen::Map<Vector>;
using MatrixMap = Eigen::Map<Matrix>;
using ConstVectorMap = Eigen::Map<const Vector>;
using ConstMatrixMap = Eigen::Map<const Matrix>;

// The float32 path.
using Vector32 = VectorOf<float>;
using Matrix32 = MatrixOf<float>;
using VectorView32 = VectorViewOf<float>;
using MatrixView32 = MatrixViewOf<float>;

}  // namespace attention

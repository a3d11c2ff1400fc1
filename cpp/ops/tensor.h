// Eigen types used across the core. Matrices are row-major so that one row is
// one time step / token, matching the JS side's row-major `data` arrays.
#pragma once

#include <Eigen/Core>

namespace attention {

using Vector = Eigen::VectorXd;
using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Read-only views: accept Vector/Matrix and Eigen::Map over foreign memory without copying.
using VectorView = Eigen::Ref<const Vector>;
using MatrixView = Eigen::Ref<const Matrix>;

using VectorMap = Eigen::Map<Vector>;
using MatrixMap = Eigen::Map<Matrix>;
using ConstVectorMap = Eigen::Map<const Vector>;
using ConstMatrixMap = Eigen::Map<const Matrix>;

}  // namespace attention

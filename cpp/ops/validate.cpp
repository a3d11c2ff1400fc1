#include "validate.h"

#include <cmath>
#include <limits>

namespace attention {

std::string shapeOf(const VectorView& v) { return std::to_string(v.size()); }

std::string shapeOf(const MatrixView& m) { return dims(m.rows(), m.cols()); }

std::string dims(Eigen::Index rows, Eigen::Index cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

namespace {

std::string describe(double x) {
  if (std::isnan(x)) return "NaN";
  return x > 0 ? "Infinity" : "-Infinity";
}

}  // namespace

Status requireFinite(const char* name, const VectorView& v) {
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) {
      return Status::invalidValue(std::string(name) + "[" + std::to_string(i) + "] is " +
                                  describe(v[i]) + "; every entry must be a finite number");
    }
  }
  return Status::ok();
}

Status requireFinite(const char* name, const MatrixView& m) {
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      if (!std::isfinite(m(r, c))) {
        return Status::invalidValue(std::string(name) + "[" + std::to_string(r) + "][" +
                                    std::to_string(c) + "] is " + describe(m(r, c)) +
                                    "; every entry must be a finite number");
      }
    }
  }
  return Status::ok();
}

Status requireFiniteOrMasked(const char* name, const VectorView& v) {
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const bool masked = v[i] == -std::numeric_limits<double>::infinity();
    if (!std::isfinite(v[i]) && !masked) {
      return Status::invalidValue(std::string(name) + "[" + std::to_string(i) + "] is " +
                                  describe(v[i]) +
                                  "; entries must be finite or -Infinity (a masked position)");
    }
  }
  return Status::ok();
}

Status requireNonEmpty(const char* name, const VectorView& v) {
  if (v.size() == 0) return Status::shapeMismatch(std::string(name) + " is empty");
  return Status::ok();
}

Status requireNonEmpty(const char* name, const MatrixView& m) {
  if (m.rows() == 0 || m.cols() == 0) {
    return Status::shapeMismatch(std::string(name) + " is empty (" + shapeOf(m) + ")");
  }
  return Status::ok();
}

Status requireShape(const char* name, const MatrixView& m, Eigen::Index rows, Eigen::Index cols,
                    const std::string& why) {
  if (m.rows() != rows || m.cols() != cols) {
    return Status::shapeMismatch(std::string(name) + " is " + shapeOf(m) + " but must be " +
                                 dims(rows, cols) + " (" + why + ")");
  }
  return Status::ok();
}

}  // namespace attention

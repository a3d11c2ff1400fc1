#include "validate.h"

#include <cmath>
#include <limits>

namespace attention {

std::string shapeOf(const VectorView& v) { return std::to_string(v.size()); }

std::string shapeOf(const MatrixView& m) { return dims(m.rows(), m.cols()); }

std::string shapeOf(const MatrixView32& m) { return dims(m.rows(), m.cols()); }

std::string dims(Eigen::Index rows, Eigen::Index cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

namespace {

std::string describe(double x) {
  if (std::isnan(x)) return "NaN";
  return x > 0 ? "Infinity" : "-Infinity";
}

template <typename V>
Status requireFiniteVector(const char* name, const V& v) {
  if (allFinite(v.data(), v.size())) return Status::ok();
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) {
      return Status::invalidValue(std::string(name) + "[" + std::to_string(i) + "] is " +
                                  describe(v[i]) + "; every entry must be a finite number");
    }
  }
  return Status::ok();
}

template <typename M>
Status requireFiniteMatrix(const char* name, const M& m) {
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    if (rowKnownFinite(m, r)) continue;
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

template <typename M>
Status requireNonEmptyMatrix(const char* name, const M& m) {
  if (m.rows() == 0 || m.cols() == 0) {
    return Status::shapeMismatch(std::string(name) + " is empty (" + dims(m.rows(), m.cols()) +
                                 ")");
  }
  return Status::ok();
}

template <typename M>
Status requireShapeOf(const char* name, const M& m, Eigen::Index rows, Eigen::Index cols,
                      const std::string& why) {
  if (m.rows() != rows || m.cols() != cols) {
    return Status::shapeMismatch(std::string(name) + " is " + dims(m.rows(), m.cols()) +
                                 " but must be " + dims(rows, cols) + " (" + why + ")");
  }
  return Status::ok();
}

}  // namespace

Status requireFinite(const char* name, const VectorView& v) { return requireFiniteVector(name, v); }
Status requireFinite(const char* name, const VectorView32& v) {
  return requireFiniteVector(name, v);
}
Status requireFinite(const char* name, const MatrixView& m) { return requireFiniteMatrix(name, m); }
Status requireFinite(const char* name, const MatrixView32& m) {
  return requireFiniteMatrix(name, m);
}

Status requireFiniteVectorResult(const std::string& what, const VectorView& v, const char* inputs) {
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) {
      return Status::invalidValue("entry " + std::to_string(i) + " of " + what +
                                  " overflows float64 (|x| > 1.8e308); scale " + inputs + " down");
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
  return requireNonEmptyMatrix(name, m);
}
Status requireNonEmpty(const char* name, const MatrixView32& m) {
  return requireNonEmptyMatrix(name, m);
}

Status requireShape(const char* name, const MatrixView& m, Eigen::Index rows, Eigen::Index cols,
                    const std::string& why) {
  return requireShapeOf(name, m, rows, cols, why);
}
Status requireShape(const char* name, const MatrixView32& m, Eigen::Index rows, Eigen::Index cols,
                    const std::string& why) {
  return requireShapeOf(name, m, rows, cols, why);
}

}  // namespace attention

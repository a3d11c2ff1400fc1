// Small checks shared by every kernel; each returns a Status naming the argument.
// Matrix checks exist for float64 and the float32 path (MatrixView32).
#pragma once

#include <cmath>
#include <string>

#include "status.h"
#include "tensor.h"

namespace attention {

// "3" for vectors, "4x3" for matrices: the shape notation used in every message.
std::string shapeOf(const VectorView& v);
std::string shapeOf(const MatrixView& m);
std::string shapeOf(const MatrixView32& m);
// "4x3" from a row and a column count.
std::string dims(Eigen::Index rows, Eigen::Index cols);

// Every entry finite.
Status requireFinite(const char* name, const VectorView& v);
Status requireFinite(const char* name, const MatrixView& m);
Status requireFinite(const char* name, const VectorView32& v);
Status requireFinite(const char* name, const MatrixView32& m);
// A result computed from finite inputs that overflowed (±inf, or NaN from
// inf − inf): "entry (i, j) of <what> overflows float64 (|x| > 1.8e308); scale
// <inputs> down". Every function reports such results the same way, never as NaN.
template <typename M>  // any Eigen matrix of double or float
Status requireFiniteResult(const std::string& what, const M& m, const char* inputs) {
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      if (std::isfinite(m(i, j))) continue;
      const bool single = sizeof(typename M::Scalar) == 4;
      return Status::invalidValue("entry (" + std::to_string(i) + ", " + std::to_string(j) +
                                  ") of " + what + " overflows " +
                                  (single ? "float32 (|x| > 3.4e38)" : "float64 (|x| > 1.8e308)") +
                                  "; scale " + inputs + " down");
    }
  }
  return Status::ok();
}
Status requireFiniteVectorResult(const std::string& what, const VectorView& v, const char* inputs);
// Every entry finite or -Infinity (a masked position).
Status requireFiniteOrMasked(const char* name, const VectorView& v);
Status requireNonEmpty(const char* name, const VectorView& v);
Status requireNonEmpty(const char* name, const MatrixView& m);
Status requireNonEmpty(const char* name, const MatrixView32& m);
// m is (rows x cols); `why` names the dimensions, e.g. "queries x keys".
Status requireShape(const char* name, const MatrixView& m, Eigen::Index rows, Eigen::Index cols,
                    const std::string& why);
Status requireShape(const char* name, const MatrixView32& m, Eigen::Index rows, Eigen::Index cols,
                    const std::string& why);

}  // namespace attention

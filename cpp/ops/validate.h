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

// True if x[0, n) holds no ±inf and no NaN. x * 0 is NaN exactly for x = ±inf
// or NaN, so a sum of such probes flags any (kProbes partial sums: clang
// vectorises this loop, not an exact scan with an early exit). Every argument of
// every call is checked, so the checks scan with this and look entry by entry
// only at a row that fails.
template <typename T>
bool allFinite(const T* x, Eigen::Index n) {
  constexpr int kProbes = 32 / static_cast<int>(sizeof(T));  // two SIMD registers
  T probe[kProbes] = {};
  Eigen::Index j = 0;
  for (; j + kProbes <= n; j += kProbes) {
    for (int u = 0; u < kProbes; ++u) probe[u] += x[j + u] * T(0);
  }
  for (; j < n; ++j) probe[0] += x[j] * T(0);
  T sum = 0;
  for (int u = 0; u < kProbes; ++u) sum += probe[u];
  return sum == sum;
}

// Row i of a row-major matrix with contiguous rows is finite (else: unknown, scan it).
template <typename M>
bool rowKnownFinite(const M& m, Eigen::Index i) {
  if constexpr (M::IsRowMajor) {
    if (m.innerStride() == 1) return allFinite(m.data() + i * m.outerStride(), m.cols());
  }
  return false;
}

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
    if (rowKnownFinite(m, i)) continue;
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

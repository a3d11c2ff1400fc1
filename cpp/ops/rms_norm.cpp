#include "rms_norm.h"

#include <cmath>
#include <string>

#include "validate.h"

namespace attention {

namespace {

template <typename T>
void rmsNormOf(const MatrixViewOf<T>& x, const T* w, Eigen::Index width, T eps, RmsNormWeight form,
               MatrixOutOf<T>& y) {
  const T offset = form == RmsNormWeight::kOffsetByOne ? T(1) : T(0);
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    const T* in = x.data() + r * x.outerStride();
    T* out = y.data() + r * y.outerStride();
    for (Eigen::Index b = 0; b + width <= x.cols(); b += width) {
      double squares = 0;
      for (Eigen::Index j = 0; j < width; ++j) squares += double(in[b + j]) * double(in[b + j]);
      const double inverse = 1.0 / std::sqrt(squares / double(width) + double(eps));
      for (Eigen::Index j = 0; j < width; ++j) {
        out[b + j] = static_cast<T>(double(in[b + j]) * inverse) * (offset + w[j]);
      }
    }
  }
}

template <typename T>
Status rmsNormChecked(const MatrixViewOf<T>& x, const VectorViewOf<T>& w, T eps, RmsNormWeight form,
                      MatrixOf<T>& y) {
  RETURN_IF_ERROR(requireNonEmpty("x", x));
  RETURN_IF_ERROR(requireFinite("x", x));
  RETURN_IF_ERROR(requireFinite("w", w));
  if (w.size() < 1 || x.cols() % w.size() != 0) {
    return Status::shapeMismatch("w has " + std::to_string(w.size()) +
                                 " entries but x's columns must be a multiple of them (x is " +
                                 dims(x.rows(), x.cols()) + ")");
  }
  if (!(eps > 0) || !std::isfinite(eps)) {
    return Status::invalidValue("eps is " + std::to_string(eps) +
                                " but must be a finite number > 0");
  }
  y.resize(x.rows(), x.cols());
  MatrixOutOf<T> out(y);
  rmsNormOf<T>(x, w.data(), w.size(), eps, form, out);
  return requireFiniteResult("the RMS norm", y, "x or w");
}

}  // namespace

void rmsNormInto(const MatrixView& x, const double* w, Eigen::Index width, double eps,
                 RmsNormWeight form, MatrixOut y) {
  rmsNormOf<double>(x, w, width, eps, form, y);
}

void rmsNormInto(const MatrixView32& x, const float* w, Eigen::Index width, float eps,
                 RmsNormWeight form, MatrixOut32 y) {
  rmsNormOf<float>(x, w, width, eps, form, y);
}

Status rmsNorm(const MatrixView& x, const VectorView& w, double eps, RmsNormWeight form,
               Matrix& y) {
  return rmsNormChecked<double>(x, w, eps, form, y);
}

Status rmsNorm(const MatrixView32& x, const VectorView32& w, float eps, RmsNormWeight form,
               Matrix32& y) {
  return rmsNormChecked<float>(x, w, eps, form, y);
}

}  // namespace attention

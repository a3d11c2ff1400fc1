#include "layer_norm.h"

#include <cmath>
#include <string>
#include <utility>

#include "validate.h"

namespace attention {

namespace {

template <typename T>
void layerNormIntoOf(const MatrixViewOf<T>& x, const T* gamma, const T* beta, T eps,
                     MatrixOutOf<T> y) {
  const Eigen::Index n = x.rows(), d = x.cols();
  for (Eigen::Index r = 0; r < n; ++r) {
    const T* in = x.data() + r * x.outerStride();
    T* out = y.data() + r * y.outerStride();
    double sum = 0;
    for (Eigen::Index c = 0; c < d; ++c) sum += in[c];
    const double mean = sum / static_cast<double>(d);
    double squares = 0;
    for (Eigen::Index c = 0; c < d; ++c) {
      const double centred = in[c] - mean;
      squares += centred * centred;
    }
    const double rstd = 1.0 / std::sqrt(squares / static_cast<double>(d) + eps);
    for (Eigen::Index c = 0; c < d; ++c) {
      out[c] = static_cast<T>((in[c] - mean) * rstd) * gamma[c] + beta[c];
    }
  }
}

template <typename T>
Status layerNormOf(const MatrixViewOf<T>& x, const VectorViewOf<T>& gamma,
                   const VectorViewOf<T>& beta, T eps, MatrixOf<T>& y) {
  RETURN_IF_ERROR(requireNonEmpty("x", x));
  RETURN_IF_ERROR(requireFinite("x", x));
  for (const auto& [name, v] :
       {std::pair<const char*, const VectorViewOf<T>*>{"gamma", &gamma}, {"beta", &beta}}) {
    if (v->size() != x.cols()) {
      return Status::shapeMismatch(std::string(name) + " has " + std::to_string(v->size()) +
                                   " entries but x has " + std::to_string(x.cols()) +
                                   " columns (x is " + shapeOf(x) + ")");
    }
    RETURN_IF_ERROR(requireFinite(name, *v));
  }
  if (!(eps > 0) || !std::isfinite(eps)) {
    return Status::invalidValue("eps is " + std::to_string(eps) +
                                " but must be a finite number > 0");
  }
  // Contiguous copies: gamma and beta may be strided views.
  const VectorOf<T> g = gamma, b = beta;
  y.resize(x.rows(), x.cols());
  layerNormIntoOf<T>(x, g.data(), b.data(), eps, y);
  return Status::ok();
}

}  // namespace

void layerNormInto(const MatrixView& x, const double* gamma, const double* beta, double eps,
                   MatrixOut y) {
  layerNormIntoOf<double>(x, gamma, beta, eps, y);
}

void layerNormInto(const MatrixView32& x, const float* gamma, const float* beta, float eps,
                   MatrixOut32 y) {
  layerNormIntoOf<float>(x, gamma, beta, eps, y);
}

Status layerNorm(const MatrixView& x, const VectorView& gamma, const VectorView& beta, double eps,
                 Matrix& y) {
  return layerNormOf<double>(x, gamma, beta, eps, y);
}

Status layerNorm(const MatrixView32& x, const VectorView32& gamma, const VectorView32& beta,
                 float eps, Matrix32& y) {
  return layerNormOf<float>(x, gamma, beta, eps, y);
}

}  // namespace attention

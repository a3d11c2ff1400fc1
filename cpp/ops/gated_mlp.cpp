#include "gated_mlp.h"

#include <cmath>
#include <string>

#include "gelu.h"
#include "linear.h"
#include "validate.h"

namespace attention {

namespace {

// x sigmoid(x) with e = exp(-|x|) <= 1, so neither branch overflows.
template <typename T>
T silu(T x) {
  const T e = std::exp(-std::fabs(x));
  return x >= 0 ? x / (T(1) + e) : x * e / (T(1) + e);
}

template <typename T>
void gateOf(T* gate, const T* up, std::size_t n, GateActivation act) {
  if (act == GateActivation::kGeluTanh) {
    geluInPlace(gate, n, GeluForm::kTanh);
  } else {
    for (std::size_t i = 0; i < n; ++i) gate[i] = silu(gate[i]);
  }
  for (std::size_t i = 0; i < n; ++i) gate[i] *= up[i];
}

template <typename T>
Status gatedMlpOf(const MatrixViewOf<T>& x, const MatrixViewOf<T>& wGate,
                  const MatrixViewOf<T>& wUp, const MatrixViewOf<T>& wDown, GateActivation act,
                  MatrixOf<T>& y) {
  RETURN_IF_ERROR(requireNonEmpty("x", x));
  const Eigen::Index D = x.cols(), F = wGate.cols();
  RETURN_IF_ERROR(requireShape("Wgate", wGate, D, F, "x's columns x hidden size"));
  RETURN_IF_ERROR(requireShape("Wup", wUp, D, F, "x's columns x hidden size (Wgate's)"));
  RETURN_IF_ERROR(requireShape("Wdown", wDown, F, D, "hidden size x x's columns"));
  RETURN_IF_ERROR(requireFinite("x", x));
  RETURN_IF_ERROR(requireFinite("Wgate", wGate));
  RETURN_IF_ERROR(requireFinite("Wup", wUp));
  RETURN_IF_ERROR(requireFinite("Wdown", wDown));
  MatrixOf<T> gate(x.rows(), F), up(x.rows(), F);
  linearInto(x, wGate, static_cast<const T*>(nullptr), WeightLayout::kInOut, gate);
  linearInto(x, wUp, static_cast<const T*>(nullptr), WeightLayout::kInOut, up);
  gateOf<T>(gate.data(), up.data(), static_cast<std::size_t>(gate.size()), act);
  y.resize(x.rows(), D);
  linearInto(gate, wDown, static_cast<const T*>(nullptr), WeightLayout::kInOut, y);
  return requireFiniteResult("the gated MLP's output", y, "x or the weights");
}

}  // namespace

void gateInPlace(double* gate, const double* up, std::size_t n, GateActivation act) {
  gateOf<double>(gate, up, n, act);
}

void gateInPlace(float* gate, const float* up, std::size_t n, GateActivation act) {
  gateOf<float>(gate, up, n, act);
}

Status gatedMlp(const MatrixView& x, const MatrixView& wGate, const MatrixView& wUp,
                const MatrixView& wDown, GateActivation act, Matrix& y) {
  return gatedMlpOf<double>(x, wGate, wUp, wDown, act, y);
}

Status gatedMlp(const MatrixView32& x, const MatrixView32& wGate, const MatrixView32& wUp,
                const MatrixView32& wDown, GateActivation act, Matrix32& y) {
  return gatedMlpOf<float>(x, wGate, wUp, wDown, act, y);
}

}  // namespace attention

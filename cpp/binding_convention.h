// The binding convention every wasm module of the core shares (cpp/bindings.cpp,
// the main module; cpp/model_bindings.cpp, the model module loaded on the first
// openModel call): arrays cross as a Tensor { data, rows, cols } (a byte address
// in the module's heap), each call returns a StatusCode, the message of the last
// failure is _lastError() and the JS Error class for a code _errorClass(code).
// See cpp/bindings.cpp for the whole convention. Included once per module.
#pragma once

#include <emscripten/bind.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>

#include "ops/status.h"
#include "ops/tensor.h"

namespace attention {

using Ptr = std::uint32_t;

struct Tensor {
  Ptr data = 0;  // byte address of row-major doubles; 0 = absent
  int rows = 0;
  int cols = 0;

  bool present() const { return data != 0; }
  double* doubles() const { return reinterpret_cast<double*>(static_cast<std::uintptr_t>(data)); }
  ConstMatrixMap matrix() const { return ConstMatrixMap(doubles(), rows, cols); }
  ConstVectorMap vector() const { return ConstVectorMap(doubles(), Eigen::Index{rows} * cols); }
  MatrixMap output() const { return MatrixMap(doubles(), rows, cols); }
  std::optional<VectorView> optionalVector() const {
    if (!present()) return std::nullopt;
    return VectorView(vector());
  }

  // The same views for a Tensor of element type T (double, or float for the *32 functions).
  template <typename T>
  T* elements() const {
    return reinterpret_cast<T*>(static_cast<std::uintptr_t>(data));
  }
  template <typename T>
  Eigen::Map<const MatrixOf<T>> matrixOf() const {
    return Eigen::Map<const MatrixOf<T>>(elements<T>(), rows, cols);
  }
  template <typename T>
  Eigen::Map<MatrixOf<T>> outputOf() const {
    return Eigen::Map<MatrixOf<T>>(elements<T>(), rows, cols);
  }
  template <typename T>
  std::optional<VectorViewOf<T>> optionalVectorOf() const {
    if (!present()) return std::nullopt;
    return VectorViewOf<T>(Eigen::Map<const VectorOf<T>>(elements<T>(), Eigen::Index{rows} * cols));
  }
};

inline std::string lastError;  // the message of the last failed call

inline StatusCode report(const Status& status) {
  lastError = status.message;
  return status.code;
}

// Runs `body` (which returns a Status) and reports it; a thrown exception
// becomes a status instead of reaching JS as a bare number.
template <typename Body>
StatusCode guarded(Body&& body) {
  try {
    return report(body());
  } catch (const std::bad_alloc&) {
    return report(Status::outOfMemory("the result does not fit in the wasm memory"));
  } catch (const std::exception& e) {
    return report(Status::invalidArgument(e.what()));
  }
}

template <typename Dense>
void copyOut(const Dense& result, const Tensor& out) {
  std::copy(result.data(), result.data() + result.size(), out.doubles());
}

inline std::string lastErrorMessage() { return lastError; }
inline std::string errorClass(StatusCode code) { return errorClassOf(code); }

// Registers the convention's types and functions (inside EMSCRIPTEN_BINDINGS).
inline void bindConvention() {
  emscripten::enum_<StatusCode>("StatusCode")
      .value("Ok", StatusCode::kOk)
      .value("ShapeMismatch", StatusCode::kShapeMismatch)
      .value("InvalidValue", StatusCode::kInvalidValue)
      .value("InvalidArgument", StatusCode::kInvalidArgument)
      .value("OutOfMemory", StatusCode::kOutOfMemory);
  emscripten::function("_lastError", &lastErrorMessage);
  emscripten::function("_errorClass", &errorClass);
  emscripten::value_object<Tensor>("Tensor")
      .field("data", &Tensor::data)
      .field("rows", &Tensor::rows)
      .field("cols", &Tensor::cols);
}

}  // namespace attention

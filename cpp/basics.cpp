#include "basics.h"

#include <cmath>
#include <limits>
#include <string>

#include "validate.h"

namespace attention {

namespace {

constexpr double kMasked = -std::numeric_limits<double>::infinity();

// Eigen's vectorised exp clamps its argument at about -709, so exp(-781) comes
// out near 1e-308 instead of 0; libm's exp underflows correctly, which is the
// very effect the chapter teaches.
template <typename Expr>
auto exactExp(const Expr& x) {
  return x.unaryExpr([](double v) { return std::exp(v); });
}

Status checkWeightsAgainstValues(const VectorView& weights, const MatrixView& values) {
  RETURN_IF_ERROR(requireNonEmpty("weights", weights));
  RETURN_IF_ERROR(requireNonEmpty("values", values));
  if (weights.size() != values.rows()) {
    return Status::shapeMismatch("weights has " + std::to_string(weights.size()) +
                                 " entries but values has " + std::to_string(values.rows()) +
                                 " rows (values is " + shapeOf(values) + ")");
  }
  RETURN_IF_ERROR(requireFinite("weights", weights));
  return requireFinite("values", values);
}

Status checkScores(const VectorView& x) {
  RETURN_IF_ERROR(requireNonEmpty("x", x));
  return requireFiniteOrMasked("x", x);
}

}  // namespace

Status dot(const VectorView& a, const VectorView& b, double& out) {
  RETURN_IF_ERROR(requireNonEmpty("a", a));
  RETURN_IF_ERROR(requireNonEmpty("b", b));
  if (a.size() != b.size()) {
    return Status::shapeMismatch("a has " + std::to_string(a.size()) + " entries but b has " +
                                 std::to_string(b.size()));
  }
  RETURN_IF_ERROR(requireFinite("a", a));
  RETURN_IF_ERROR(requireFinite("b", b));
  out = a.dot(b);
  return Status::ok();
}

Status dotScores(const VectorView& query, const MatrixView& keys, Vector& scores) {
  RETURN_IF_ERROR(requireNonEmpty("query", query));
  RETURN_IF_ERROR(requireNonEmpty("keys", keys));
  if (query.size() != keys.cols()) {
    return Status::shapeMismatch("query has " + std::to_string(query.size()) +
                                 " entries but keys have " + std::to_string(keys.cols()) +
                                 " columns (keys is " + shapeOf(keys) + ")");
  }
  RETURN_IF_ERROR(requireFinite("query", query));
  RETURN_IF_ERROR(requireFinite("keys", keys));
  scores = keys * query;  // (n x d) . (d) -> (n)
  return Status::ok();
}

Status softmax(const VectorView& x, Vector& out) {
  RETURN_IF_ERROR(checkScores(x));
  const double max = x.maxCoeff();
  if (max == kMasked) {
    out = Vector::Zero(x.size());  // nothing may be attended to
    return Status::ok();
  }
  out = exactExp(x.array() - max);  // largest term is exp(0) = 1: no overflow
  out /= out.sum();
  return Status::ok();
}

Status logSoftmax(const VectorView& x, Vector& out) {
  RETURN_IF_ERROR(checkScores(x));
  const double max = x.maxCoeff();
  if (max == kMasked) {
    out = Vector::Constant(x.size(), kMasked);  // log(0) everywhere
    return Status::ok();
  }
  const double logSum = std::log(exactExp(x.array() - max).sum());
  out = x.array() - max - logSum;
  return Status::ok();
}

Status naiveSoftmax(const VectorView& x, Vector& out) {
  RETURN_IF_ERROR(checkScores(x));
  out = exactExp(x.array());
  out /= out.sum();
  return Status::ok();
}

Status scaleRows(const VectorView& weights, const MatrixView& values, Matrix& out) {
  RETURN_IF_ERROR(checkWeightsAgainstValues(weights, values));
  out = weights.asDiagonal() * values;
  return Status::ok();
}

Status weightedSum(const VectorView& weights, const MatrixView& values, Vector& out) {
  RETURN_IF_ERROR(checkWeightsAgainstValues(weights, values));
  out = values.transpose() * weights;  // (d x n) . (n) -> (d)
  return Status::ok();
}

}  // namespace attention

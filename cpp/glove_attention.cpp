#include "glove_attention.h"

#include <cmath>
#include <string>

#include "validate.h"

namespace attention {
namespace glove {

namespace {

std::string count(Eigen::Index n, const char* what) { return std::to_string(n) + " " + what; }

Status checkMatrix(const char* name, const MatrixView& m) {
  RETURN_IF_ERROR(requireNonEmpty(name, m));
  return requireFinite(name, m);
}

Status checkValues(const MatrixView& keys, const char* keysName, const MatrixView& values) {
  RETURN_IF_ERROR(checkMatrix("values", values));
  if (values.rows() != keys.rows()) {
    return Status::shapeMismatch("values has " + count(values.rows(), "rows") + " but " + keysName +
                                 " has " + count(keys.rows(), "rows") + " (values is " +
                                 shapeOf(values) + ", " + keysName + " is " + shapeOf(keys) + ")");
  }
  return Status::ok();
}

}  // namespace

Status linear(const MatrixView& x, const MatrixView& weight, const VectorView& bias, Matrix& y) {
  RETURN_IF_ERROR(checkMatrix("x", x));
  RETURN_IF_ERROR(checkMatrix("weight", weight));
  RETURN_IF_ERROR(requireNonEmpty("bias", bias));
  if (weight.cols() != x.cols()) {
    return Status::shapeMismatch("x has " + count(x.cols(), "columns") + " but weight has " +
                                 count(weight.cols(), "columns") + " (x is " + shapeOf(x) +
                                 ", weight is " + shapeOf(weight) + ")");
  }
  if (bias.size() != weight.rows()) {
    return Status::shapeMismatch("bias has " + count(bias.size(), "entries") + " but weight has " +
                                 count(weight.rows(), "rows") + " (weight is " + shapeOf(weight) +
                                 ")");
  }
  RETURN_IF_ERROR(requireFinite("bias", bias));
  y = x * weight.transpose();  // (n x in) (in x out) -> (n x out)
  y.rowwise() += bias.transpose();
  return Status::ok();
}

Status rowSoftmax(const MatrixView& scores, Matrix& weights) {
  RETURN_IF_ERROR(checkMatrix("scores", scores));
  weights.resize(scores.rows(), scores.cols());
  for (Eigen::Index r = 0; r < scores.rows(); ++r) {
    const double max = scores.row(r).maxCoeff();
    double sum = 0;
    for (Eigen::Index c = 0; c < scores.cols(); ++c) {
      weights(r, c) = std::exp(scores(r, c) - max);  // libm exp: no clamping near -709
      sum += weights(r, c);
    }
    weights.row(r) /= sum;
  }
  return Status::ok();
}

Status dotProductAttention(const MatrixView& queries, const MatrixView& keys,
                           const MatrixView& values, Matrix& weights, Matrix& output) {
  RETURN_IF_ERROR(checkMatrix("queries", queries));
  RETURN_IF_ERROR(checkMatrix("keys", keys));
  if (queries.cols() != keys.cols()) {
    return Status::shapeMismatch("queries have " + count(queries.cols(), "columns") +
                                 " but keys have " + count(keys.cols(), "columns") +
                                 " (queries is " + shapeOf(queries) + ", keys is " + shapeOf(keys) +
                                 ")");
  }
  RETURN_IF_ERROR(checkValues(keys, "keys", values));
  // (n x d) (d x m) -> (n x m), scaled by 1 / sqrt(d) as in the notebook.
  const Matrix scores = (queries * keys.transpose()) / std::sqrt(static_cast<double>(keys.cols()));
  RETURN_IF_ERROR(rowSoftmax(scores, weights));
  output = weights * values;  // (n x m) (m x dv) -> (n x dv)
  return Status::ok();
}

Status additiveAttention(const MatrixView& projectedQueries, const MatrixView& projectedKeys,
                         const VectorView& ws, double bs, const MatrixView& values, Matrix& scores,
                         Matrix& weights, Matrix& output) {
  RETURN_IF_ERROR(checkMatrix("projectedQueries", projectedQueries));
  RETURN_IF_ERROR(checkMatrix("projectedKeys", projectedKeys));
  RETURN_IF_ERROR(requireNonEmpty("ws", ws));
  if (projectedQueries.cols() != projectedKeys.cols()) {
    return Status::shapeMismatch(
        "projectedQueries have " + count(projectedQueries.cols(), "columns") +
        " but projectedKeys have " + count(projectedKeys.cols(), "columns") +
        " (projectedQueries is " + shapeOf(projectedQueries) + ", projectedKeys is " +
        shapeOf(projectedKeys) + ")");
  }
  if (ws.size() != projectedKeys.cols()) {
    return Status::shapeMismatch("ws has " + count(ws.size(), "entries") +
                                 " but the projections have " +
                                 count(projectedKeys.cols(), "columns") + " (projectedKeys is " +
                                 shapeOf(projectedKeys) + ")");
  }
  RETURN_IF_ERROR(requireFinite("ws", ws));
  if (!std::isfinite(bs)) return Status::invalidValue("bs must be a finite number");
  RETURN_IF_ERROR(checkValues(projectedKeys, "projectedKeys", values));
  const Eigen::Index n = projectedQueries.rows();
  const Eigen::Index m = projectedKeys.rows();
  scores.resize(n, m);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < m; ++j) {
      // (h): one query row plus one key row; every pair, not row i with row i.
      scores(i, j) = (projectedQueries.row(i) + projectedKeys.row(j))
                         .unaryExpr([](double v) { return std::tanh(v); })
                         .dot(ws.transpose()) +
                     bs;
    }
  }
  RETURN_IF_ERROR(rowSoftmax(scores, weights));
  output = weights * values;  // (n x m) (m x dv) -> (n x dv)
  return Status::ok();
}

}  // namespace glove
}  // namespace attention

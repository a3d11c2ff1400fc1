#include "additive.h"

#include <cmath>
#include <string>
#include <utility>

#include "basics.h"
#include "validate.h"

namespace attention {

namespace {

Status checkShapes(const MatrixView& encoderStates, const VectorView& decoderState,
                   const MatrixView& W1, const VectorView& w2) {
  RETURN_IF_ERROR(requireNonEmpty("encoderStates", encoderStates));
  RETURN_IF_ERROR(requireNonEmpty("decoderState", decoderState));
  RETURN_IF_ERROR(requireNonEmpty("W1", W1));
  RETURN_IF_ERROR(requireNonEmpty("w2", w2));
  const Eigen::Index hidden = encoderStates.cols();
  if (decoderState.size() != hidden) {
    return Status::shapeMismatch("decoderState has " + std::to_string(decoderState.size()) +
                                 " entries but encoderStates has " + std::to_string(hidden) +
                                 " columns (encoderStates is " + shapeOf(encoderStates) + ")");
  }
  if (W1.rows() != 2 * hidden) {
    return Status::shapeMismatch("W1 has " + std::to_string(W1.rows()) +
                                 " rows but needs 2 x hidden = " + std::to_string(2 * hidden) +
                                 " (W1 is " + shapeOf(W1) + ", encoderStates is " +
                                 shapeOf(encoderStates) + ")");
  }
  if (w2.size() != W1.cols()) {
    return Status::shapeMismatch("w2 has " + std::to_string(w2.size()) + " entries but W1 has " +
                                 std::to_string(W1.cols()) + " columns (W1 is " + shapeOf(W1) +
                                 ")");
  }
  RETURN_IF_ERROR(requireFinite("encoderStates", encoderStates));
  RETURN_IF_ERROR(requireFinite("decoderState", decoderState));
  RETURN_IF_ERROR(requireFinite("W1", W1));
  return requireFinite("w2", w2);
}

// Fills inputs (n x 2h), activations (n x a) and scores (n); shapes are checked.
void alignment(const MatrixView& encoderStates, const VectorView& decoderState,
               const MatrixView& W1, const VectorView& w2, AdditiveAttention& out) {
  const Eigen::Index n = encoderStates.rows(), hidden = encoderStates.cols();
  out.inputs.resize(n, 2 * hidden);
  out.inputs.leftCols(hidden) = encoderStates;
  out.inputs.rightCols(hidden) = decoderState.transpose().replicate(n, 1);
  // libm's tanh, not a vectorised approximation: the chapter prints 8 digits.
  out.activations = (out.inputs * W1).unaryExpr([](double x) { return std::tanh(x); });
  out.scores = out.activations * w2;  // (n x a) . (a) -> (n)
}

}  // namespace

Status additiveScores(const MatrixView& encoderStates, const VectorView& decoderState,
                      const MatrixView& W1, const VectorView& w2, Vector& scores) {
  RETURN_IF_ERROR(checkShapes(encoderStates, decoderState, W1, w2));
  AdditiveAttention steps;
  alignment(encoderStates, decoderState, W1, w2, steps);
  scores = std::move(steps.scores);
  return Status::ok();
}

Status additiveAttention(const MatrixView& encoderStates, const VectorView& decoderState,
                         const MatrixView& W1, const VectorView& w2, AdditiveAttention& out) {
  RETURN_IF_ERROR(checkShapes(encoderStates, decoderState, W1, w2));
  alignment(encoderStates, decoderState, W1, w2, out);
  RETURN_IF_ERROR(softmax(out.scores, out.weights));
  RETURN_IF_ERROR(scaleRows(out.weights, encoderStates, out.weighted));
  out.context = out.weighted.colwise().sum().transpose();  // (h)
  return Status::ok();
}

}  // namespace attention

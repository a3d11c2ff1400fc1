#include "linalg.h"

#include <string>

#include "validate.h"

namespace attention {

Status matmul(const MatrixView& a, const MatrixView& b, Matrix& out) {
  RETURN_IF_ERROR(requireNonEmpty("a", a));
  RETURN_IF_ERROR(requireNonEmpty("b", b));
  if (a.cols() != b.rows()) {
    return Status::shapeMismatch("a is " + shapeOf(a) + " and b is " + shapeOf(b) +
                                 "; a's columns (" + std::to_string(a.cols()) +
                                 ") must equal b's rows (" + std::to_string(b.rows()) + ")");
  }
  RETURN_IF_ERROR(requireFinite("a", a));
  RETURN_IF_ERROR(requireFinite("b", b));
  out.noalias() = a * b;
  return Status::ok();
}

}  // namespace attention

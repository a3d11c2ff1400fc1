// Small checks shared by every kernel; each returns a Status naming the argument.
// Matrix checks exist for float64 and the float32 path (MatrixView32).
#pragma once

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

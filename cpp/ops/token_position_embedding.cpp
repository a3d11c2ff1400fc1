#include "token_position_embedding.h"

#include <string>

#include "validate.h"

namespace attention {

namespace {

template <typename T>
Status tokenPositionEmbeddingOf(const MatrixViewOf<T>& wte, const MatrixViewOf<T>& wpe,
                                const std::vector<int>& ids, MatrixOutOf<T> x) {
  const Eigen::Index count = static_cast<Eigen::Index>(ids.size());
  if (wte.cols() != wpe.cols()) {
    return Status::shapeMismatch("wte and wpe must have the same number of columns (D)");
  }
  // Messages name the table that limits the value: wpe's rows (positions), wte's (vocabulary).
  if (count < 1 || count > wpe.rows()) {
    return Status::shapeMismatch("ids has " + std::to_string(count) +
                                 " tokens, outside 1 .. the rows of wpe (" + shapeOf(wpe) + ")");
  }
  for (Eigen::Index t = 0; t < count; ++t) {
    if (ids[t] < 0 || ids[t] >= wte.rows()) {
      return Status::shapeMismatch("ids[" + std::to_string(t) + "] = " + std::to_string(ids[t]) +
                                   " is not a row of wte (" + shapeOf(wte) + ")");
    }
  }
  for (Eigen::Index t = 0; t < count; ++t) x.row(t) = wte.row(ids[t]) + wpe.row(t);
  return Status::ok();
}

}  // namespace

Status tokenPositionEmbedding(const MatrixView& wte, const MatrixView& wpe,
                              const std::vector<int>& ids, MatrixOut x) {
  return tokenPositionEmbeddingOf<double>(wte, wpe, ids, x);
}

Status tokenPositionEmbedding(const MatrixView32& wte, const MatrixView32& wpe,
                              const std::vector<int>& ids, MatrixOut32 x) {
  return tokenPositionEmbeddingOf<float>(wte, wpe, ids, x);
}

}  // namespace attention

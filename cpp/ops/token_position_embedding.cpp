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
    return Status::shapeMismatch("wte is " + dims(wte.rows(), wte.cols()) + " but wpe is " +
                                 dims(wpe.rows(), wpe.cols()) + ": both need D columns");
  }
  if (count < 1 || count > wpe.rows()) {
    return Status::shapeMismatch("ids has " + std::to_string(count) +
                                 " tokens but must have 1 to " + std::to_string(wpe.rows()) +
                                 " (the model's positions, wpe is " + dims(wpe.rows(), wpe.cols()) +
                                 ")");
  }
  if (x.rows() != count || x.cols() != wte.cols()) {
    return Status::shapeMismatch("x is " + dims(x.rows(), x.cols()) + " but must be " +
                                 dims(count, wte.cols()));
  }
  for (Eigen::Index t = 0; t < count; ++t) {
    if (ids[t] < 0 || ids[t] >= wte.rows()) {
      return Status::shapeMismatch("ids[" + std::to_string(t) + "] is " + std::to_string(ids[t]) +
                                   " but must be in [0, " + std::to_string(wte.rows() - 1) +
                                   "] (wte is " + dims(wte.rows(), wte.cols()) + ")");
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

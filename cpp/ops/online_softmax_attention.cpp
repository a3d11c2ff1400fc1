#include "online_softmax_attention.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "softmax.h"
#include "validate.h"

namespace attention {

namespace {

using Index = Eigen::Index;

template <typename T>
Status checkInputs(const MatrixViewOf<T>& q, const MatrixViewOf<T>& k, const MatrixViewOf<T>& v,
                   Index blockSize) {
  RETURN_IF_ERROR(requireNonEmpty("Q", q));
  RETURN_IF_ERROR(requireNonEmpty("K", k));
  RETURN_IF_ERROR(requireNonEmpty("V", v));
  if (q.cols() != k.cols()) {
    return Status::shapeMismatch("Q has " + std::to_string(q.cols()) + " columns but K has " +
                                 std::to_string(k.cols()) + " (Q is " + shapeOf(q) + ", K is " +
                                 shapeOf(k) + "); queries and keys need the same size d_k");
  }
  if (k.rows() != v.rows()) {
    return Status::shapeMismatch("K has " + std::to_string(k.rows()) + " rows but V has " +
                                 std::to_string(v.rows()) + " (K is " + shapeOf(k) + ", V is " +
                                 shapeOf(v) + "); every key needs one value");
  }
  if (blockSize < 1) {
    return Status::invalidValue("blockSize is " + std::to_string(blockSize) +
                                " but must be at least 1 (keys per block)");
  }
  RETURN_IF_ERROR(requireFinite("Q", q));
  RETURN_IF_ERROR(requireFinite("K", k));
  return requireFinite("V", v);
}

template <typename T>
Status requireOutShape(const char* name, const MatrixOutOf<T>& m, Index rows, Index cols) {
  if (m.rows() == rows && m.cols() == cols) return Status::ok();
  return Status::shapeMismatch(std::string(name) + " is " + dims(m.rows(), m.cols()) +
                               " but must be " + dims(rows, cols));
}

template <typename T>
Status onlineSoftmaxAttentionOf(const MatrixViewOf<T>& q, const MatrixViewOf<T>& k,
                                const MatrixViewOf<T>& v, Index blockSize, bool causal,
                                MatrixOutOf<T> output, MatrixOutOf<T> maxAfter,
                                MatrixOutOf<T> sumAfter) {
  RETURN_IF_ERROR(checkInputs<T>(q, k, v, blockSize));
  const Index nq = q.rows(), nk = k.rows(), dv = v.cols();
  const Index blocks = onlineSoftmaxBlocks(nk, blockSize);
  RETURN_IF_ERROR(requireOutShape<T>("output", output, nq, dv));
  RETURN_IF_ERROR(requireOutShape<T>("max", maxAfter, nq, blocks));
  RETURN_IF_ERROR(requireOutShape<T>("sum", sumAfter, nq, blocks));
  // 1 / sqrt(d_k) in double, rounded once to T, applied as the softmax kernel does.
  const T scale = static_cast<T>(1.0 / std::sqrt(static_cast<double>(q.cols())));
  const T minusInf = -std::numeric_limits<T>::infinity();
  const Index dk = q.cols();
  // Plain loops over the rows (contiguous: views are row-major with inner stride 1):
  // this op shows the algorithm; they also keep it small in the wasm core.
  std::vector<T> scores(static_cast<std::size_t>(std::min(blockSize, nk)));
  std::vector<T> o(static_cast<std::size_t>(dv));  // the unnormalised output of one query
  for (Index i = 0; i < nq; ++i) {
    const T* qi = q.data() + i * q.outerStride();
    T m = minusInf, l = 0;
    std::fill(o.begin(), o.end(), T(0));
    const Index visible = causal ? std::min(nk, i + 1) : nk;  // keys [0, visible)
    for (Index b = 0; b < blocks; ++b) {
      const Index j0 = b * blockSize, end = std::min(visible, std::min(nk, j0 + blockSize));
      if (end > j0) {
        T blockMax = minusInf;
        for (Index j = j0; j < end; ++j) {
          const T* kj = k.data() + j * k.outerStride();
          T dot = 0;
          for (Index c = 0; c < dk; ++c) dot += qi[c] * kj[c];
          const T s = dot * scale;
          if (!std::isfinite(s)) {
            return Status::invalidValue(
                "score (" + std::to_string(i) + ", " + std::to_string(j) + ") of Q·Kᵀ overflows " +
                (sizeof(T) == 4 ? "float32 (|score| > 3.4e38)" : "float64 (|score| > 1.8e308)") +
                "; scale Q or K down");
          }
          scores[static_cast<std::size_t>(j - j0)] = s;
          blockMax = std::max(blockMax, s);
        }
        // A larger maximum shrinks what was summed so far by exp(m - mNew);
        // before the first visible key m is -inf and the factor is exactly 0.
        const T mNew = std::max(m, blockMax);
        const T rescale = expNonPositive(m - mNew);
        l *= rescale;
        for (T& x : o) x *= rescale;
        for (Index j = j0; j < end; ++j) {
          const T p = expNonPositive(scores[static_cast<std::size_t>(j - j0)] - mNew);
          const T* vj = v.data() + j * v.outerStride();
          l += p;
          for (Index c = 0; c < dv; ++c) o[static_cast<std::size_t>(c)] += p * vj[c];
        }
        m = mNew;
      }
      maxAfter(i, b) = m;
      sumAfter(i, b) = l;
    }
    for (Index c = 0; c < dv; ++c) output(i, c) = l > 0 ? o[static_cast<std::size_t>(c)] / l : T(0);
  }
  return Status::ok();
}

}  // namespace

Index onlineSoftmaxBlocks(Index keys, Index blockSize) {
  return blockSize < 1 ? 0 : (keys + blockSize - 1) / blockSize;
}

Status onlineSoftmaxAttention(const MatrixView& q, const MatrixView& k, const MatrixView& v,
                              Index blockSize, bool causal, MatrixOut output, MatrixOut maxAfter,
                              MatrixOut sumAfter) {
  return onlineSoftmaxAttentionOf<double>(q, k, v, blockSize, causal, output, maxAfter, sumAfter);
}

Status onlineSoftmaxAttention(const MatrixView32& q, const MatrixView32& k, const MatrixView32& v,
                              Index blockSize, bool causal, MatrixOut32 output,
                              MatrixOut32 maxAfter, MatrixOut32 sumAfter) {
  return onlineSoftmaxAttentionOf<float>(q, k, v, blockSize, causal, output, maxAfter, sumAfter);
}

}  // namespace attention

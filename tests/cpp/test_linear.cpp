// The one linear layer (cpp/ops/linear.h): both weight layouts against the
// NumPy references of the GloVe projections (tests/fixtures/embeddings.txt),
// against each other, and the validation messages.
#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "fixtures.h"
#include "ops/linear.h"

using namespace attention;

namespace {

const fixtures::File& ref() {
  static const fixtures::File file("embeddings.txt");
  return file;
}

}  // namespace

TEST_CASE("linear: PyTorch layout matches the NumPy references", "[linear][fixture]") {
  for (int i = 0; i < 3; ++i) {
    const std::string p = "random" + std::to_string(i) + ".linear.";
    INFO(p);
    Matrix y;
    REQUIRE(linear(ref().matrix("random" + std::to_string(i) + ".queries"),
                   ref().matrix(p + "weight"), ref().vector(p + "bias"), y)
                .isOk());
    CHECK_CLOSE(y, ref().matrix(p + "output"), 1e-12);
  }
  Matrix qp;
  REQUIRE(linear(ref().matrix("sentences.queries"), ref().matrix("sentences.trainable.Wq.weight"),
                 ref().vector("sentences.trainable.Wq.bias"), qp)
              .isOk());
  CHECK_CLOSE(qp, ref().matrix("sentences.trainable.projected_queries"), 1e-12);
}

TEST_CASE("linear: x W + b equals x (W^T)^T + b bit for bit, no bias is bias 0", "[linear]") {
  Matrix x(5, 3), w(3, 4);
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = 0.1 * i - 0.7;
  for (Eigen::Index i = 0; i < w.size(); ++i) w.data()[i] = 0.3 * i - 1.1;
  const Vector b = Vector::LinSpaced(4, -1, 2);
  Matrix inOut, outIn, noBias;
  REQUIRE(linear(x, w, std::optional<VectorView>(b), WeightLayout::kInOut, inOut).isOk());
  REQUIRE(linear(x, Matrix(w.transpose()), b, outIn).isOk());
  CHECK(inOut == outIn);
  CHECK_CLOSE(inOut, Matrix((x * w).rowwise() + b.transpose()), 1e-14);
  REQUIRE(linear(x, w, std::nullopt, WeightLayout::kInOut, noBias).isOk());
  CHECK_CLOSE(noBias, Matrix(x * w), 1e-14);
  Matrix into(5, 4);
  linearInto(x, w, b.data(), WeightLayout::kInOut, into);
  CHECK(into == inOut);
}

TEST_CASE("linear: validation names the arguments and shapes", "[linear][validation]") {
  Matrix y;
  const Matrix x = Matrix::Ones(8, 4);
  CHECK(linear(x, Matrix::Ones(5, 3), Vector::Ones(5), y).message ==
        "x has 4 columns but weight has 3 columns (x is 8x4, weight is 5x3)");
  CHECK(linear(x, Matrix::Ones(5, 4), Vector::Ones(4), y).message ==
        "bias has 4 entries but weight has 5 rows (weight is 5x4)");
  CHECK(linear(x, Matrix::Ones(3, 5), std::nullopt, WeightLayout::kInOut, y).message ==
        "x has 4 columns but weight has 3 rows (x is 8x4, weight is 3x5)");
  Matrix bad = x;
  bad(1, 2) = NAN;
  CHECK(linear(bad, Matrix::Ones(5, 4), Vector::Ones(5), y).code == StatusCode::kInvalidValue);
}

// The checkpoint-model base every family builds on (cpp/models/checkpoint_model.h),
// through a one-layer family of its own: the 2 GiB refusal, the loading protocol
// (parameterData only between allocate() and finishLoading()), the finite check
// naming the tensor, and the packed linear layer in both weight layouts against
// Eigen's x W + b. Tolerance 1e-6 (|got - want| / max(1, |want|)): float32 sums of
// 5 products of values below 1, against the same sums in double.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "fixtures.h"
#include "models/checkpoint_model.h"

using namespace attention;

namespace {

// y = x W + b with W (in x out) stored as `layout` says: parameters "w", "b".
class TinyModel : public CheckpointModel {
 public:
  Status configure(int in, int out, WeightLayout layout) {
    const bool inOut = layout == WeightLayout::kInOut;
    return lay({{"w", inOut ? in : out, inOut ? out : in}, {"b", 1, out}}, {0}, layout, 1);
  }
  Matrix32 forward(const Matrix32& x, int out) {
    Matrix32 y(x.rows(), out);
    linear(x, 0, 1, y);
    beginForward(static_cast<int>(x.rows()), 2);
    return y;
  }
};

void write(TinyModel& model, int index, const Matrix32& value) {
  float* at = model.parameterData(index);
  REQUIRE(at != nullptr);
  Eigen::Map<Matrix32>(at, value.rows(), value.cols()) = value;
}

}  // namespace

TEST_CASE("checkpoint model: the loading protocol and the 2 GiB refusal", "[checkpoint]") {
  TinyModel model;
  REQUIRE(model.configure(5, 3, WeightLayout::kInOut).isOk());
  CHECK(model.weightCount() == 5 * 3 + 3);
  CHECK(model.parameters()[0].name == "w");
  CHECK(model.parameterData(0) == nullptr);  // before allocate()
  CHECK(model.finishLoading().message == "the weights are not loaded");
  REQUIRE(model.allocate().isOk());
  CHECK(model.parameterData(0) != nullptr);
  CHECK(model.parameterData(2) == nullptr);  // outside the list
  CHECK(model.parameterData(-1) == nullptr);
  REQUIRE(model.finishLoading().isOk());
  CHECK(model.loaded());
  CHECK(model.parameterData(0) == nullptr);  // after finishLoading(): packed, not writable
  CHECK(model.finishLoading().isOk());       // idempotent

  // 2^16 x 2^15 floats are 8 GiB (4 GiB and b in 16 bits): refused before anything changes.
  TinyModel huge;
  const Status refused = huge.configure(65536, 32768, WeightLayout::kInOut);
  CHECK(refused.code == StatusCode::kOutOfMemory);
  CHECK(refused.message ==
        "the model needs 8192 MiB for its float32 weights, more than the 4096 MiB of the wasm "
        "memory (4096 MiB in 16 bits)");
  CHECK(huge.parameters().empty());
}

TEST_CASE("checkpoint model: a weight that is not finite is named", "[checkpoint]") {
  TinyModel model;
  REQUIRE(model.configure(2, 2, WeightLayout::kOutIn).isOk());
  REQUIRE(model.allocate().isOk());
  model.parameterData(1)[1] = std::numeric_limits<float>::quiet_NaN();
  CHECK(model.finishLoading().message == "tensor b holds NaN or ±Infinity");
  CHECK_FALSE(model.loaded());
}

TEST_CASE("checkpoint model: the packed linear layer in both layouts equals x W + b",
          "[checkpoint]") {
  const Matrix32 x = Matrix32::Random(4, 5), w = Matrix32::Random(5, 3), b = Matrix32::Random(1, 3);
  const Matrix want = (x.cast<double>() * w.cast<double>()).rowwise() + b.cast<double>().row(0);
  for (const WeightLayout layout : {WeightLayout::kInOut, WeightLayout::kOutIn}) {
    INFO((layout == WeightLayout::kInOut ? "in x out" : "out x in"));
    TinyModel model;
    REQUIRE(model.configure(5, 3, layout).isOk());
    REQUIRE(model.allocate().isOk());
    write(model, 0, layout == WeightLayout::kInOut ? w : Matrix32(w.transpose()));
    write(model, 1, b);
    REQUIRE(model.finishLoading().isOk());
    CHECK_CLOSE(Matrix(model.forward(x, 3).cast<double>()), want, 1e-6);
    CHECK(model.tokens() == 4);
    CHECK(model.attentionLayers() == 1);
    CHECK(model.attention(0).rows() == 2 * 4);
    CHECK(model.attention(0).cols() == 4);
  }
}

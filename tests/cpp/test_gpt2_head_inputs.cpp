// Gpt2Model::headInputs, what GPT-2's explainHead reads: the layer's ln_1 rows
// x (T x D), then x W + b, against the same formulas written out here in double
// (the JS test checks both against NumPy: tests/js/gpt2-explain.test.mjs).
// Tolerance 1e-5 absolute (float32 against double on entries of size ~1).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "models/families/gpt2/gpt2_model.h"

using namespace attention;

namespace {

constexpr int kD = 4;
constexpr int kColumns = 6;  // one head's q | k | v columns, d_k = 2

// A small GPT-2 with every parameter sin-seeded (gains near 1): distinct rows everywhere.
void openModel(Gpt2Model& model) {
  Gpt2Config c;
  c.layers = 2;
  c.heads = 2;
  c.dModel = kD;
  c.positions = 8;
  c.vocab = 10;
  REQUIRE(model.configure(c).isOk());
  REQUIRE(model.allocate().isOk());
  const auto& params = model.parameters();
  for (int i = 0; i < static_cast<int>(params.size()); ++i) {
    const CheckpointParameter& p = params[i];
    const bool gain =
        p.name.find("ln_") != std::string::npos && p.name.find(".weight") != std::string::npos;
    float* out = model.parameterData(i);
    for (int j = 0; j < p.rows * p.cols; ++j)
      out[j] = (gain ? 1.0f : 0.0f) + 0.3f * static_cast<float>(std::sin(1.3 * j + 0.7 * i));
  }
  REQUIRE(model.finishLoading().isOk());
}

Matrix32 seeded(int rows, int cols, double phase) {
  Matrix32 m(rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      m(r, c) = static_cast<float>(std::cos(phase + 0.9 * r + 0.4 * c));
  return m;
}

}  // namespace

TEST_CASE("gpt2 headInputs: x is ln_1 of the residual stream, then x W + b", "[gpt2][explain]") {
  Gpt2Model model;
  openModel(model);
  const Matrix32 gamma = seeded(1, kD, 0.1), beta = seeded(1, kD, 0.2);
  const Matrix32 weight = seeded(kD, kColumns, 0.3), bias = seeded(1, kColumns, 0.4);
  Matrix32 out(3, kD + kColumns);
  CHECK(model.headInputs(1, gamma, beta, weight, bias, out).code == StatusCode::kInvalidArgument);
  REQUIRE(model.forward({1, 2, 3}).isOk());
  REQUIRE(model.headInputs(1, gamma, beta, weight, bias, out).isOk());
  const Matrix32& residual = model.residual(1);
  double worst = 0;
  for (int t = 0; t < 3; ++t) {
    double mean = 0, square = 0;
    for (int j = 0; j < kD; ++j) mean += residual(t, j) / static_cast<double>(kD);
    for (int j = 0; j < kD; ++j) square += std::pow(residual(t, j) - mean, 2) / kD;
    double x[kD];
    for (int j = 0; j < kD; ++j) {
      x[j] = (residual(t, j) - mean) / std::sqrt(square + 1e-5) * gamma(0, j) + beta(0, j);
      worst = std::max(worst, std::abs(out(t, j) - x[j]));
    }
    for (int c = 0; c < kColumns; ++c) {
      double y = bias(0, c);
      for (int j = 0; j < kD; ++j) y += x[j] * weight(j, c);
      worst = std::max(worst, std::abs(out(t, kD + c) - y));
    }
  }
  CHECK(worst < 1e-5);
  // An out without room for x is refused, named.
  Matrix32 narrow(3, kColumns);
  const Status s = model.headInputs(1, gamma, beta, weight, bias, narrow);
  CHECK(s.code == StatusCode::kShapeMismatch);
  CHECK(s.message.find("headInputs") != std::string::npos);
}

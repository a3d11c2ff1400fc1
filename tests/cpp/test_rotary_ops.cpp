// The ops of the rotary decoder families (cpp/ops/rope.h, rms_norm.h,
// gated_mlp.h, and attention's sliding window and score scale) against NumPy
// (tests/fixtures/rotary_ops.txt, make_rotary_ops.py), in float64 and float32
// on the same float32-representable inputs.
// Tolerances, |got - want| / max(1, |want|): float64 1e-12 (a few roundings,
// cos/sin of angles up to 40 rad within an ulp each); float32 2e-6 (tens of
// u = 2^-24 over sums of <= 16 terms, and exp within 2 ulp).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "fixtures.h"
#include "ops/attention.h"
#include "ops/gated_mlp.h"
#include "ops/rms_norm.h"
#include "ops/rope.h"

using namespace attention;

namespace {

const fixtures::File& ref() {
  static const fixtures::File file("rotary_ops.txt");
  return file;
}

Matrix32 toFloat(const Matrix& m) { return m.cast<float>(); }
Matrix toDouble(const Matrix32& m) { return m.cast<double>(); }
Matrix rowOf(const std::vector<double>& v) {
  return Eigen::Map<const Matrix>(v.data(), 1, static_cast<Eigen::Index>(v.size()));
}

std::vector<int> positionsOf(const Matrix& m) {
  std::vector<int> p;
  for (Eigen::Index i = 0; i < m.size(); ++i) p.push_back(static_cast<int>(m.data()[i]));
  return p;
}

}  // namespace

TEST_CASE("RoPE inverse frequencies: default, linear and llama3 scaling match NumPy",
          "[rotary][rope][fixture]") {
  std::vector<double> inv;
  REQUIRE(ropeInverseFrequencies(16, 10000, RopeScaling{}, inv).isOk());
  CHECK_RELATIVE(rowOf(inv), ref().matrix("rope.inv.default"), 1e-14);
  RopeScaling linear;
  linear.type = RopeScaling::Type::kLinear;
  linear.factor = 4;
  REQUIRE(ropeInverseFrequencies(16, 10000, linear, inv).isOk());
  CHECK_RELATIVE(rowOf(inv), ref().matrix("rope.inv.linear"), 1e-14);
  RopeScaling llama3;
  llama3.type = RopeScaling::Type::kLlama3;
  llama3.factor = 8;
  llama3.lowFreqFactor = 1;
  llama3.highFreqFactor = 4;
  llama3.originalMaxPositions = 64;
  REQUIRE(ropeInverseFrequencies(16, 500000, llama3, inv).isOk());
  CHECK_RELATIVE(rowOf(inv), ref().matrix("rope.inv.llama3"), 1e-13);
}

TEST_CASE("RoPE rotation: Hugging Face's half pairing and the interleaved one match NumPy",
          "[rotary][rope][fixture]") {
  const Matrix& x = ref().matrix("rope.x");
  const std::vector<int> positions = positionsOf(ref().matrix("rope.positions"));
  std::vector<double> inv;
  REQUIRE(ropeInverseFrequencies(8, 100, RopeScaling{}, inv).isOk());
  for (const auto& [name, pairing] : {std::pair{"rope.half", RopePairing::kHalf},
                                      std::pair{"rope.interleaved", RopePairing::kInterleaved}}) {
    INFO(name);
    Matrix y = x;
    REQUIRE(applyRope(y, positions, inv, 8, pairing).isOk());
    CHECK_CLOSE(y, ref().matrix(name), 1e-12);
    Matrix32 y32 = toFloat(x);
    REQUIRE(applyRope(y32, positions, inv, 8, pairing).isOk());
    CHECK_CLOSE(toDouble(y32), ref().matrix(name), 2e-6);
    // Position 0 is the identity; the pairings differ elsewhere.
    CHECK(y.row(0) == x.row(0));
  }
}

TEST_CASE("RoPE validation names the argument", "[rotary][rope][validation]") {
  std::vector<double> inv;
  CHECK(ropeInverseFrequencies(7, 10000, RopeScaling{}, inv).message ==
        "headDim is 7 but must be even and at least 2 (coordinates turn in pairs)");
  CHECK(ropeInverseFrequencies(8, 1, RopeScaling{}, inv).message ==
        "base is 1.000000 but must be a finite number > 1");
  RopeScaling bad;
  bad.type = RopeScaling::Type::kLinear;
  bad.factor = 0.5;
  CHECK(ropeInverseFrequencies(8, 10000, bad, inv).message ==
        "scaling.factor is 0.500000 but must be a finite number >= 1");
  REQUIRE(ropeInverseFrequencies(4, 10000, RopeScaling{}, inv).isOk());
  Matrix x = Matrix::Ones(2, 6);
  CHECK(applyRope(x, {0, 1}, inv, 4, RopePairing::kHalf).message ==
        "x is 2x6; its columns must be a multiple of headDim = 4");
  Matrix y = Matrix::Ones(2, 8);
  CHECK(applyRope(y, {0}, inv, 4, RopePairing::kHalf).message ==
        "positions has 1 entries but x has 2 rows");
  CHECK(applyRope(y, {0, -1}, inv, 4, RopePairing::kHalf).message ==
        "positions[1] is -1 but must be >= 0");
  CHECK(applyRope(y, {0, 1}, inv, 8, RopePairing::kHalf).message ==
        "invFreq has 2 entries but must have headDim / 2 = 4");
  CHECK(y == Matrix::Ones(2, 8));  // refused calls change nothing
}

TEST_CASE("RMS norm: x w, Gemma's x (1 + w) and per-head blocks match NumPy",
          "[rotary][rms_norm][fixture]") {
  for (const auto& [name, form] :
       {std::pair{"row", RmsNormWeight::kPlain}, std::pair{"offset", RmsNormWeight::kOffsetByOne},
        std::pair{"head", RmsNormWeight::kPlain}}) {
    INFO(name);
    const std::string p = std::string("rms.") + name + ".";
    const Matrix& x = ref().matrix(p + "x");
    const Vector w = ref().vector(p + "w");
    Matrix y;
    REQUIRE(rmsNorm(x, w, 1e-6, form, y).isOk());
    CHECK_CLOSE(y, ref().matrix(p + "y"), 1e-13);
    Matrix32 y32;
    const Vector32 w32 = w.cast<float>();
    REQUIRE(rmsNorm(toFloat(x), w32, 1e-6f, form, y32).isOk());
    CHECK_CLOSE(toDouble(y32), ref().matrix(p + "y"), 2e-6);
  }
  Matrix y;
  CHECK(rmsNorm(Matrix::Ones(2, 6), Vector::Ones(4), 1e-6, RmsNormWeight::kPlain, y).message ==
        "w has 4 entries but x's columns must be a multiple of them (x is 2x6)");
  CHECK(rmsNorm(Matrix::Ones(2, 4), Vector::Ones(4), 0, RmsNormWeight::kPlain, y).message ==
        "eps is 0.000000 but must be a finite number > 0");
}

TEST_CASE("gated MLP: SwiGLU and GeGLU match NumPy", "[rotary][gated_mlp][fixture]") {
  const Matrix &x = ref().matrix("mlp.x"), &gate = ref().matrix("mlp.gate"),
               &up = ref().matrix("mlp.up"), &down = ref().matrix("mlp.down");
  for (const auto& [name, act] : {std::pair{"mlp.silu", GateActivation::kSilu},
                                  std::pair{"mlp.gelu_tanh", GateActivation::kGeluTanh}}) {
    INFO(name);
    Matrix y;
    REQUIRE(gatedMlp(x, gate, up, down, act, y).isOk());
    CHECK_CLOSE(y, ref().matrix(name), 1e-12);
    Matrix32 y32;
    REQUIRE(gatedMlp(toFloat(x), toFloat(gate), toFloat(up), toFloat(down), act, y32).isOk());
    CHECK_CLOSE(toDouble(y32), ref().matrix(name), 2e-6);
  }
  Matrix y;
  CHECK(gatedMlp(x, gate, up.leftCols(9), down, GateActivation::kSilu, y).message.rfind("Wup", 0) ==
        0);
}

TEST_CASE("attention with a sliding window and a score scale matches NumPy",
          "[rotary][attention][window][fixture]") {
  const Matrix &q = ref().matrix("window.q"), &k = ref().matrix("window.k"),
               &v = ref().matrix("window.v");
  struct Case {
    const char* name;
    int window;
    bool causal;
    double scale;
  };
  for (const Case& c : {Case{"causal3", 3, true, 0.3}, Case{"plain2", 2, false, 0.5},
                        Case{"wide", 20, true, 0.0}}) {
    INFO(c.name);
    const std::string p = std::string("window.") + c.name + ".";
    AttentionMask mask;
    mask.causal = c.causal;
    mask.window = c.window;
    mask.scale = c.scale;
    Matrix out, weights;
    REQUIRE(scaledDotProductAttention(q, k, v, mask, out, weights).isOk());
    CHECK_CLOSE(out, ref().matrix(p + "out"), 1e-13);
    CHECK_CLOSE(weights, ref().matrix(p + "weights"), 1e-13);
    // outside the window the weights are exactly 0
    for (Eigen::Index i = 0; i < weights.rows(); ++i) {
      for (Eigen::Index j = 0; j <= i - c.window; ++j) CHECK(weights(i, j) == 0.0);
    }
    AttentionMask32 mask32;
    mask32.causal = c.causal;
    mask32.window = c.window;
    mask32.scale = c.scale;
    Matrix32 out32, weights32;
    REQUIRE(scaledDotProductAttention(toFloat(q), toFloat(k), toFloat(v), mask32, out32, weights32)
                .isOk());
    CHECK_CLOSE(toDouble(out32), ref().matrix(p + "out"), 2e-6);
    CHECK_CLOSE(toDouble(weights32), ref().matrix(p + "weights"), 2e-6);
    // softmaxRows honours the same window on the scaled scores
    Matrix sw;
    AttentionMask rowsMask;
    rowsMask.causal = c.causal;
    rowsMask.window = c.window;
    REQUIRE(softmaxRows(q * k.transpose(), rowsMask, c.scale > 0 ? c.scale : 0.5, sw).isOk());
    CHECK_CLOSE(sw, ref().matrix(p + "weights"), 1e-13);
  }
  AttentionMask bad;
  bad.window = -1;
  Matrix out, weights;
  CHECK(scaledDotProductAttention(q, k, v, bad, out, weights).message ==
        "window is -1 but must be >= 0 (0: no sliding window)");
  bad.window = 0;
  bad.scale = 2;
  CHECK(scaledDotProductAttention(q, k, v, bad, out, weights).message ==
        "scale is 2.000000 but must be in (0, 1], or 0 for 1 / sqrt(d_k)");
}

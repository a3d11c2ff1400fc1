// 16-bit weights kept as stored (cpp/ops/gemm.h widenHalves / packB's 16-bit
// form, cpp/models/checkpoint_model.h storeAs): every F16 and BF16 bit pattern
// widens to the float its format defines (checked against ldexp in double),
// packing widens to exactly the float packing of the widened matrix, and the
// rotary families' fixtures (tests/fixtures/<family>/expected.txt, weights on
// the bfloat16 grid) run with every weight that may stay 16-bit kept in BF16 or
// F16 and give the float32-stored model's maps and logits: the same numbers
// meet the same kernel, so the tolerance is 1e-6 and the measured difference 0.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "fixtures.h"
#include "models/families/llama/llama_model.h"
#include "ops/gemm.h"
#include "rotary_fixture.h"

using namespace attention;
using rotary_fixture::configOf;

namespace {

// The format's definition, in double: sign, exponent bits, fraction bits.
double halfValue(std::uint16_t h) {
  const int exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exponent == 0) return sign * std::ldexp(fraction, -24);
  if (exponent == 31) return fraction ? NAN : sign * INFINITY;
  return sign * std::ldexp(1024 + fraction, exponent - 25);
}
double bfloat16Value(std::uint16_t h) {
  const int exponent = (h >> 7) & 0xff, fraction = h & 0x7f;
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exponent == 0) return sign * std::ldexp(fraction, -133);
  if (exponent == 255) return fraction ? NAN : sign * INFINITY;
  return sign * std::ldexp(128 + fraction, exponent - 134);
}

std::uint16_t bfloat16Bits(float x) {  // exact for values on the bfloat16 grid
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  REQUIRE((bits & 0xffffu) == 0);
  return static_cast<std::uint16_t>(bits >> 16);
}

// The F16 pattern of x, found among all 65536 (every fixture value is one:
// bfloat16-grid values in float16's normal range, or 0).
std::uint16_t f16Bits(float x) {
  static const std::map<float, std::uint16_t> patterns = [] {
    std::map<float, std::uint16_t> m;
    for (int i = 0; i < 65536; ++i) {
      const double v = halfValue(static_cast<std::uint16_t>(i));
      if (std::isfinite(v) && !(v == 0 && std::signbit(v))) m.emplace(static_cast<float>(v), i);
    }
    return m;
  }();
  const auto it = patterns.find(x);
  REQUIRE(it != patterns.end());
  return it->second;
}

// The fixture's weights, every one that may stay 16-bit kept as `storage`.
void load(LlamaModel& model, const fixtures::File& ref, WeightStorage storage) {
  int halves = 0;
  for (int p = 0; p < static_cast<int>(model.parameters().size()); ++p) {
    if (storage == WeightStorage::kFloat32 || !model.canStoreHalf(p)) continue;
    REQUIRE(model.storeAs(p, storage).isOk());
    ++halves;
  }
  CHECK((storage == WeightStorage::kFloat32) == (halves == 0));
  REQUIRE(model.allocate().isOk());
  for (int p = 0; p < static_cast<int>(model.parameters().size()); ++p) {
    const Matrix& w = ref.matrix("w." + model.parameters()[p].name);
    if (std::uint16_t* h = model.halfParameterData(p)) {
      for (Eigen::Index e = 0; e < w.size(); ++e) {
        const float x = static_cast<float>(w.data()[e]);
        h[e] = storage == WeightStorage::kBF16 ? bfloat16Bits(x) : f16Bits(x);
      }
    } else {
      Eigen::Map<Matrix32>(model.parameterData(p), w.rows(), w.cols()) = w.cast<float>();
    }
  }
  REQUIRE(model.finishLoading().isOk());
}

}  // namespace

TEST_CASE("16-bit weights widen exactly: every F16 and BF16 pattern", "[half]") {
  std::vector<std::uint16_t> all(65536);
  for (int i = 0; i < 65536; ++i) all[i] = static_cast<std::uint16_t>(i);
  std::vector<float> f16(65536), bf16(65536);
  widenHalves(all.data(), all.size(), HalfFormat::kF16, f16.data());
  widenHalves(all.data(), all.size(), HalfFormat::kBF16, bf16.data());
  int wrong = 0;
  for (int i = 0; i < 65536; ++i) {
    const double a = halfValue(all[i]), b = bfloat16Value(all[i]);
    wrong += std::isnan(a) ? !std::isnan(f16[i])
                           : f16[i] != a || std::signbit(f16[i]) != std::signbit(a);
    wrong += std::isnan(b) ? !std::isnan(bf16[i])
                           : bf16[i] != b || std::signbit(bf16[i]) != std::signbit(b);
  }
  CHECK(wrong == 0);
  const std::uint16_t finite[] = {0x0001, 0x7bff, 0xfbff}, infF16[] = {0x3c00, 0x7c00};
  CHECK(halvesFinite(finite, 3, HalfFormat::kF16));
  CHECK_FALSE(halvesFinite(infF16, 2, HalfFormat::kF16));
  const std::uint16_t nanBF16[] = {0x3f80, 0x7fc0};
  CHECK_FALSE(halvesFinite(nanBF16, 2, HalfFormat::kBF16));
  CHECK(halvesFinite(infF16, 2, HalfFormat::kBF16));  // 0x7c00 is a finite bfloat16
}

TEST_CASE("packStreamB's 16-bit form holds the values where it puts the widened floats",
          "[half][gemm]") {
  for (const HalfFormat format : {HalfFormat::kF16, HalfFormat::kBF16}) {
    for (const Trans t : {Trans::kNo, Trans::kYes}) {
      // op(b): 13 x 45 (panels of 8: a group of 4 and one of 2, the last panel
      // partial), stored as 13 x 45 or 45 x 13
      const Eigen::Index rows = 13, cols = 45;
      const Eigen::Index storedCols = t == Trans::kNo ? cols : rows;
      std::vector<std::uint16_t> b(static_cast<std::size_t>(rows * cols)), packed;
      for (std::size_t i = 0; i < b.size(); ++i)
        b[i] = static_cast<std::uint16_t>(0x3000 + 37 * i % 0x3000);  // finite in both
      std::vector<float> wide(b.size()), expected;
      widenHalves(b.data(), b.size(), format, wide.data());
      packStreamB(t, wide.data(), storedCols, rows, cols, expected);
      packStreamB(t, b.data(), storedCols, rows, cols, packed);
      std::vector<float> got(packed.size());
      widenHalves(packed.data(), packed.size(), format, got.data());
      CHECK(got == expected);
    }
  }
}

TEST_CASE("rotary families with 16-bit weights give the float32 model's maps and logits",
          "[half][rotary][families][fixture]") {
  for (const char* family : {"llama", "qwen2", "qwen3", "gemma3"}) {
    for (const WeightStorage storage : {WeightStorage::kBF16, WeightStorage::kF16}) {
      INFO(family << (storage == WeightStorage::kBF16 ? " BF16" : " F16"));
      const fixtures::File ref(std::string(family) + "/expected.txt");
      LlamaModel wide, half;
      REQUIRE(wide.configure(configOf(ref)).isOk());
      REQUIRE(half.configure(configOf(ref)).isOk());
      load(wide, ref, WeightStorage::kFloat32);
      load(half, ref, storage);
      CHECK(half.weightBytes() < 0.6 * wide.weightBytes());
      std::vector<int> ids;
      const Vector v = ref.vector("seq2.ids");
      for (Eigen::Index i = 0; i < v.size(); ++i) ids.push_back(static_cast<int>(v[i]));
      REQUIRE(wide.forward(ids).isOk());
      REQUIRE(half.forward(ids).isOk());
      for (int l = 0; l < wide.config().layers; ++l) {
        CHECK_CLOSE(Matrix(half.attention(l).cast<double>()),
                    Matrix(wide.attention(l).cast<double>()), 1e-6);
      }
      CHECK_CLOSE(Matrix(half.logits().cast<double>()), Matrix(wide.logits().cast<double>()), 1e-6);
      CHECK_CLOSE(Matrix(half.logits().cast<double>()), ref.matrix("seq2.logits"), 2e-5);
    }
  }
}

TEST_CASE("16-bit storage: only where it may stay so, before allocating, sizes as stored",
          "[half][checkpoint]") {
  const fixtures::File ref("qwen2/expected.txt");
  LlamaModel model;
  REQUIRE(model.configure(configOf(ref)).isOk());
  // parameter 1 is layers.0.input_layernorm.weight, read as float32
  CHECK(model.parameters()[1].name == "layers.0.input_layernorm.weight");
  CHECK_FALSE(model.canStoreHalf(1));
  CHECK(model.storeAs(1, WeightStorage::kBF16).message ==
        "storeAs: layers.0.input_layernorm.weight is read as float32 and cannot stay 16-bit");
  CHECK(model.canStoreHalf(0));  // embed_tokens: read through readRow
  REQUIRE(model.storeAs(0, WeightStorage::kBF16).isOk());
  const double bytes = 4.0 * static_cast<double>(model.weightCount()) -
                       2.0 * model.parameters()[0].rows * model.parameters()[0].cols;
  CHECK(model.weightBytes() == bytes);
  REQUIRE(model.allocate().isOk());
  CHECK(model.parameterData(0) == nullptr);
  CHECK(model.halfParameterData(0) != nullptr);
  CHECK(model.halfParameterData(1) == nullptr);
  CHECK(model.storeAs(2, WeightStorage::kBF16).code == StatusCode::kInvalidArgument);  // allocated
  // A NaN among 16-bit weights is named like a float32 one.
  model.halfParameterData(0)[5] = 0x7fc0;
  for (int p = 1; p < static_cast<int>(model.parameters().size()); ++p) {
    if (float* f = model.parameterData(p)) {
      std::fill(f, f + model.parameters()[p].rows * model.parameters()[p].cols, 0.5f);
    }
  }
  CHECK(model.finishLoading().message == "tensor embed_tokens.weight holds NaN or ±Infinity");
}

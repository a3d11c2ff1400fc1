// Decoding with the KV cache (cpp/ops/cached_attention.h and each decoder's
// decode(id)) against full recomputation: prefill k tokens, then decode the rest
// one by one; after each step the logits equal a full forward pass over the
// whole prefix (|d| / max(1, |want|) <= 1e-5) and every layer's and head's new
// attention row equals the last row of that pass's map (1e-6 absolute). The
// reference forward pass is itself checked against NumPy (test_rotary_families,
// the GPT-2 tests). GPT-2 runs on sin-seeded weights, the rotary families on their
// fixtures' (tests/fixtures/<family>/expected.txt), Gemma 3's with a sliding
// window of 4 over 16 tokens. Then the refusals.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "fixtures.h"
#include "models/families/gpt2/gpt2_model.h"
#include "models/families/llama/llama_model.h"
#include "ops/attention.h"
#include "ops/cached_attention.h"
#include "rotary_fixture.h"

using namespace attention;

namespace {

// A fixture's weights, written where the model asks for each parameter by name.
void loadFixture(LlamaModel& model, const fixtures::File& ref) {
  REQUIRE(model.configure(rotary_fixture::configOf(ref)).isOk());
  REQUIRE(model.allocate().isOk());
  const auto& params = model.parameters();
  for (int p = 0; p < static_cast<int>(params.size()); ++p) {
    const Matrix& w = ref.matrix("w." + params[p].name);
    REQUIRE(w.size() == Eigen::Index{params[p].rows} * params[p].cols);
    Eigen::Map<Matrix32>(model.parameterData(p), w.rows(), w.cols()) = w.cast<float>();
  }
  REQUIRE(model.finishLoading().isOk());
}

// GPT-2 with 3 layers, 2 heads, every parameter sin-seeded (layer-norm gains near 1).
Gpt2Config smallGpt2() {
  Gpt2Config c;
  c.layers = 3;
  c.heads = 2;
  c.dModel = 8;
  c.positions = 12;
  c.vocab = 20;
  return c;
}

void loadSeeded(Gpt2Model& model) {
  REQUIRE(model.configure(smallGpt2()).isOk());
  REQUIRE(model.allocate().isOk());
  const auto& params = model.parameters();
  for (int i = 0; i < static_cast<int>(params.size()); ++i) {
    const bool gain = params[i].name.find("ln_") != std::string::npos &&
                      params[i].name.find(".weight") != std::string::npos;
    float* out = model.parameterData(i);
    for (int j = 0; j < params[i].rows * params[i].cols; ++j)
      out[j] = (gain ? 1.0f : 0.0f) + 0.4f * static_cast<float>(std::sin(1.3 * j + 0.7 * i));
  }
  REQUIRE(model.finishLoading().isOk());
}

std::vector<int> tokens(int count, int vocab) {
  std::vector<int> ids(count);
  for (int i = 0; i < count; ++i) ids[i] = (37 * i + 5) % vocab;
  return ids;
}

// Prefill `prompt` tokens of `ids` in `cached`, decode the rest, and compare each
// step with `full`'s forward pass over the same prefix.
template <typename Model>
void checkDecoding(Model& cached, Model& full, const std::vector<int>& ids, int prompt, int heads) {
  const int n = static_cast<int>(ids.size());
  REQUIRE(cached.reserveCache(n).isOk());
  REQUIRE(cached.forward(std::vector<int>(ids.begin(), ids.begin() + prompt)).isOk());
  CHECK(cached.cachedPositions() == prompt);
  for (int t = prompt; t < n; ++t) {
    INFO("position " << t);
    REQUIRE(cached.decode(ids[t]).isOk());
    CHECK(cached.cachedPositions() == t + 1);
    REQUIRE(full.forward(std::vector<int>(ids.begin(), ids.begin() + t + 1)).isOk());
    CHECK_CLOSE(Matrix(cached.logits().template cast<double>()),
                Matrix(full.logits().template cast<double>()), 1e-5);
    CHECK_CLOSE(Matrix(cached.probabilities().template cast<double>()),
                Matrix(full.probabilities().template cast<double>()), 1e-6);
    for (int l = 0; l < full.attentionLayers(); ++l) {
      INFO("layer " << l);
      const Matrix32& step = cached.stepAttention(l);
      REQUIRE(step.rows() == heads);
      REQUIRE(step.cols() == t + 1);
      Matrix32 last(heads, t + 1);
      for (int h = 0; h < heads; ++h) last.row(h) = full.attention(l).row(h * (t + 1) + t);
      CHECK_CLOSE(Matrix(step.cast<double>()), Matrix(last.cast<double>()), 1e-6);
    }
  }
}

}  // namespace

TEST_CASE("kv cache: one cached row equals the last row of windowed causal attention",
          "[kv-cache][ops]") {
  const Eigen::Index n = 7, dk = 4, dv = 3;
  Matrix32 q(n, dk), k(n, dk), v(n, dv);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < dk; ++j) {
      q(i, j) = static_cast<float>(std::sin(0.9 * i + 1.7 * j));
      k(i, j) = static_cast<float>(std::cos(1.1 * i + 0.3 * j));
    }
    for (Eigen::Index j = 0; j < dv; ++j) v(i, j) = static_cast<float>(std::sin(0.5 * i - j));
  }
  for (int window : {0, 3}) {
    for (double scale : {0.0, 0.25}) {
      INFO("window " << window << ", scale " << scale);
      AttentionMask32 mask;
      mask.causal = true;
      mask.window = window;
      mask.scale = scale;
      Matrix32 out(n, dv), weights(n, n), row(1, dv), rowWeights(1, n);
      REQUIRE(scaledDotProductAttention(q, k, v, mask, out, weights).isOk());
      REQUIRE(cachedAttentionRow(q.bottomRows(1), k, v, window, scale, row, rowWeights).isOk());
      CHECK_CLOSE(Matrix(rowWeights.cast<double>()), Matrix(weights.bottomRows(1).cast<double>()),
                  1e-6);
      CHECK_CLOSE(Matrix(row.cast<double>()), Matrix(out.bottomRows(1).cast<double>()), 1e-6);
      if (window > 0) CHECK(rowWeights(0, n - 1 - window) == 0.0f);
    }
  }
  Matrix32 row(1, dv), rowWeights(1, n);
  CHECK(cachedAttentionRow(q.topRows(2), k, v, 0, 0, row, rowWeights).code ==
        StatusCode::kShapeMismatch);
  Matrix32 huge = q.bottomRows(1) * 1e30f;
  CHECK(cachedAttentionRow(huge, k * 1e30f, v, 0, 0, row, rowWeights).code ==
        StatusCode::kInvalidValue);
}

TEST_CASE("kv cache: GPT-2 decoding equals full recomputation", "[kv-cache][gpt2]") {
  Gpt2Model cached, full;
  loadSeeded(cached);
  loadSeeded(full);
  const Gpt2Config c = smallGpt2();
  checkDecoding(cached, full, tokens(c.positions, c.vocab), 3, c.heads);
}

TEST_CASE("kv cache: rotary families' decoding equals full recomputation",
          "[kv-cache][rotary][fixture]") {
  for (const char* family : {"llama", "qwen2", "qwen3", "gemma3"}) {
    INFO(family);
    const fixtures::File ref(std::string(family) + "/expected.txt");
    LlamaModel cached, full;
    loadFixture(cached, ref);
    loadFixture(full, ref);
    const LlamaConfig& c = cached.config();
    checkDecoding(cached, full, tokens(c.positions, c.vocab), 3, c.heads);
    if (std::string(family) == "gemma3") {
      // The window of 4 on layer 0 (sliding): the last step saw only positions 12..15.
      REQUIRE(cached.sliding(0));
      REQUIRE(c.slidingWindow == 4);
      const Matrix32& row = cached.stepAttention(0);
      CHECK(row.leftCols(c.positions - 4).isZero(0));
      CHECK(row.rightCols(4).minCoeff() > 0);
      CHECK(cached.stepAttention(1).minCoeff() > 0);  // full attention
    }
  }
}

TEST_CASE("kv cache: decode refuses without a prefill, past the room or the positions, a bad id",
          "[kv-cache][gpt2]") {
  Gpt2Model model;
  loadSeeded(model);
  const Gpt2Config c = smallGpt2();
  Status s = model.decode(1);
  CHECK(s.code == StatusCode::kInvalidArgument);
  CHECK(s.message == "decode needs a forward pass over the prompt first (the KV cache is empty)");
  CHECK(model.reserveCache(c.positions + 1).message ==
        "the KV cache's positions must be in [0, n_positions = 12], got 13");
  CHECK(model.reserveCache(-1).code == StatusCode::kShapeMismatch);
  // Without a reservation the cache has the forward pass's room only.
  REQUIRE(model.reserveCache(0).isOk());
  REQUIRE(model.forward({1, 2}).isOk());
  CHECK(model.decode(3).message ==
        "the KV cache is full: it has room for 2 positions (reserveCache sets how many)");
  REQUIRE(model.reserveCache(c.positions).isOk());
  CHECK(model.cachedPositions() == 0);  // a new reservation empties the cache
  REQUIRE(model.forward({1, 2}).isOk());
  CHECK(model.decode(c.vocab).message == "id = 20 is outside [0, vocab_size = 20)");
  CHECK(model.decode(-1).code == StatusCode::kInvalidValue);
  CHECK(model.cachedPositions() == 2);  // a refused step changes nothing
  for (int t = 2; t < c.positions; ++t) REQUIRE(model.decode(t % c.vocab).isOk());
  CHECK(model.decode(0).message == "decode at position 12 is beyond the model's n_positions = 12");
  // A failed forward pass empties the cache.
  CHECK_FALSE(model.forward({c.vocab}).isOk());
  CHECK(model.decode(0).code == StatusCode::kInvalidArgument);
}

TEST_CASE("kv cache: a cache that cannot fit is refused before allocating", "[kv-cache][llama]") {
  LlamaConfig c;
  c.layers = 64;
  c.heads = 8;
  c.kvHeads = 8;
  c.headDim = 64;
  c.dModel = 512;
  c.inner = 512;
  c.vocab = 100;
  c.positions = 1 << 20;
  LlamaModel model;
  REQUIRE(model.configure(c).isOk());  // lays the parameters out, allocates nothing
  const Status s = model.reserveCache(c.positions);
  CHECK(s.code == StatusCode::kOutOfMemory);
  CHECK(s.message.find("the KV cache of 1048576 positions needs 262144 MiB") == 0);
  CHECK(model.cacheCapacity() == 0);
}

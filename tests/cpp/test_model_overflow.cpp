// Finite weights that overflow float32 in a checkpoint model's forward pass are
// named by layer and step (issue 34, item 6), not with the core ops' advice to
// scale Q or K down, which a model's caller cannot follow. The core API keeps
// its own messages (test_attention_overflow.cpp).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "models/families/bert/bert_model.h"
#include "models/families/gpt2/gpt2_model.h"
#include "ops/attention.h"

using namespace attention;

namespace {

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Loads every parameter with fill(name, index in the tensor) (layer norms' gamma 1
// unless fill says otherwise).
template <typename Model, typename Fill>
void load(Model& model, Fill fill) {
  REQUIRE(model.allocate().isOk());
  const auto& params = model.parameters();
  for (int i = 0; i < static_cast<int>(params.size()); ++i) {
    const CheckpointParameter& p = params[i];
    float* out = model.parameterData(i);
    for (int j = 0; j < p.rows * p.cols; ++j) {
      const bool gamma = endsWith(p.name, "ln_1.weight") || endsWith(p.name, "ln_2.weight") ||
                         endsWith(p.name, "ln_f.weight") || endsWith(p.name, "LayerNorm.weight");
      // Small distinct embeddings: every layer norm sees a row that is not constant.
      const bool embedding =
          p.name == "wte.weight" || p.name == "embeddings.word_embeddings.weight";
      out[j] = fill(p.name, j, gamma ? 1.0f : embedding ? 0.01f * static_cast<float>(j % 7) : 0.0f);
    }
  }
  REQUIRE(model.finishLoading().isOk());
}

Gpt2Config gpt2Config() {
  Gpt2Config c;
  c.layers = 3;
  c.heads = 2;
  c.dModel = 4;
  c.positions = 8;
  c.vocab = 10;
  return c;
}

}  // namespace

TEST_CASE("GPT-2: scores that overflow float32 name the layer, the head and c_attn",
          "[checkpoint][overflow]") {
  Gpt2Model model;
  REQUIRE(model.configure(gpt2Config()).isOk());
  // Layer 2's q and k biases 1e20: q and k are finite, their products (1e40) are not.
  load(model, [](const std::string& name, int j, float base) {
    return name == "h.2.attn.c_attn.bias" && j < 8 ? 1e20f : base;
  });
  const Status s = model.forward({1, 2, 3});
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message.rfind("layer 2's attention scores (head 0, q k^T / sqrt(d_k) of h.2.attn.c_attn)"
                        " overflowed float32",
                        0) == 0);
  CHECK(s.message.find("scale Q or K") == std::string::npos);
}

TEST_CASE("GPT-2: an MLP that overflows float32 names the layer and the tensor",
          "[checkpoint][overflow]") {
  Gpt2Model model;
  REQUIRE(model.configure(gpt2Config()).isOk());
  // Layer 1's c_fc bias 3e38 (finite, and GELU keeps it); c_proj sums 16 of them times 10.
  load(model, [](const std::string& name, int, float base) {
    if (name == "h.1.mlp.c_fc.bias") return 3e38f;
    if (name == "h.1.mlp.c_proj.weight") return 10.0f;
    return base;
  });
  const Status s = model.forward({1, 2});
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message.rfind("layer 1's MLP output (h.1.mlp.c_proj) overflowed float32", 0) == 0);
  // q, k, v of a layer that overflows there are named too.
  Gpt2Model qkv;
  REQUIRE(qkv.configure(gpt2Config()).isOk());
  // Row 3 of c_attn 3e38: token 2's ln_1 output there is 1.3, and 1.3 * 3e38 is not finite.
  load(qkv, [](const std::string& name, int j, float base) {
    return name == "h.0.attn.c_attn.weight" && j >= 36 ? 3e38f : base;
  });
  const Status t = qkv.forward({1, 2});
  CHECK(t.code == StatusCode::kInvalidValue);
  CHECK(t.message.rfind("layer 0's q, k, v (h.0.attn.c_attn) overflowed float32", 0) == 0);
  // The same weights finite in range: a forward pass with finite results.
  Gpt2Model fine;
  REQUIRE(fine.configure(gpt2Config()).isOk());
  load(fine, [](const std::string& name, int j, float base) {
    return name == "h.2.attn.c_attn.bias" && j < 8 ? 1e3f : base;
  });
  REQUIRE(fine.forward({1, 2, 3}).isOk());
  CHECK(fine.probabilities().allFinite());
}

TEST_CASE("BERT: scores that overflow float32 name the layer and the head",
          "[checkpoint][overflow]") {
  BertConfig c;
  c.layers = 2;
  c.heads = 2;
  c.dModel = 4;
  c.inner = 8;
  c.positions = 8;
  c.types = 2;
  c.vocab = 10;
  BertModel model;
  REQUIRE(model.configure(c).isOk());
  load(model, [](const std::string& name, int, float base) {
    return name == "encoder.layer.1.attention.self.query.bias" ||
                   name == "encoder.layer.1.attention.self.key.bias"
               ? 1e20f
               : base;
  });
  const Status s = model.forward({1, 2, 3}, {0, 0, 0});
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message.rfind("layer 1's attention scores (head 0, q k^T / sqrt(d_k) of "
                        "encoder.layer.1.attention.self) overflowed float32",
                        0) == 0);
}

TEST_CASE("the core API keeps its advice for its own callers", "[checkpoint][overflow]") {
  Matrix32 q = Matrix32::Constant(2, 2, 1e20f), k = q, v = Matrix32::Zero(2, 2), out(2, 2), w(2, 2);
  const Status s = scaledDotProductAttention(q, k, v, AttentionMask32{}, out, w);
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message.find("scale Q or K down") != std::string::npos);
}

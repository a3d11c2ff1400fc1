// The rotary decoder families (cpp/models/families/llama/: Llama, Qwen2, Qwen3,
// Gemma 3) against a float64 NumPy forward pass of a tiny random checkpoint of
// each (tests/fixtures/<family>/expected.txt, written by <family>/make.py with
// the shared reference in llama/make.py): every layer x query-head attention
// map, the last position's logits and one head's q, k, v before and after RoPE.
// The configuration comes from the fixture's core.* entries, the weights from
// its w.* entries. Tolerances, |got - want| / max(1, |want|): maps and head
// inputs 1e-5, logits 2e-5 (float32 through 2-3 pre-norm layers; GPT-2's and
// BERT's tests use the same). Then hostile configurations, refused by name.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "fixtures.h"
#include "models/families/llama/llama_model.h"
#include "rotary_fixture.h"

using namespace attention;
using rotary_fixture::configOf;

namespace {

const char* const kFamilies[] = {"llama", "qwen2", "qwen3", "gemma3"};

// The fixture's weights, written where the model asks for each parameter by name.
void load(LlamaModel& model, const fixtures::File& ref) {
  REQUIRE(model.allocate().isOk());
  const auto& params = model.parameters();
  for (int p = 0; p < static_cast<int>(params.size()); ++p) {
    INFO(params[p].name);
    const Matrix& w = ref.matrix("w." + params[p].name);
    REQUIRE(w.rows() == params[p].rows);
    REQUIRE(w.cols() == params[p].cols);
    Eigen::Map<Matrix32>(model.parameterData(p), w.rows(), w.cols()) = w.cast<float>();
  }
  REQUIRE(model.finishLoading().isOk());
}

std::vector<int> ints(const fixtures::File& ref, const std::string& key) {
  const Vector v = ref.vector(key);
  return std::vector<int>(v.data(), v.data() + v.size());
}

LlamaConfig tiny() {
  LlamaConfig c;
  c.layers = 1;
  c.heads = 4;
  c.kvHeads = 2;
  c.headDim = 4;
  c.dModel = 8;
  c.inner = 8;
  c.vocab = 10;
  c.positions = 8;
  return c;
}

}  // namespace

TEST_CASE("rotary families match NumPy: every map, the logits, one head's q, k, v",
          "[rotary][families][fixture]") {
  for (const char* family : kFamilies) {
    INFO(family);
    const fixtures::File ref(std::string(family) + "/expected.txt");
    LlamaModel model;
    REQUIRE(model.configure(configOf(ref)).isOk());
    load(model, ref);
    for (int s = 0; s < 3; ++s) {
      const std::string seq = "seq" + std::to_string(s) + ".";
      INFO(seq);
      const std::vector<int> ids = ints(ref, seq + "ids");
      REQUIRE(model.forward(ids).isOk());
      for (int l = 0; l < model.config().layers; ++l) {
        INFO("layer " << l);
        CHECK_CLOSE(Matrix(model.attention(l).cast<double>()),
                    ref.matrix(seq + "attention" + std::to_string(l)), 1e-5);
      }
      CHECK_CLOSE(Matrix(model.logits().cast<double>()), ref.matrix(seq + "logits"), 2e-5);
    }
    // seq1 last: layer 1, head 1's inputs
    REQUIRE(model.forward(ints(ref, "seq1.ids")).isOk());
    const int hd = model.config().headDim;
    Matrix32 out(5, 5 * hd);
    REQUIRE(model.headInputs(1, 1, out).isOk());
    const char* parts[] = {"q", "k", "v", "qRotated", "kRotated"};
    for (int p = 0; p < 5; ++p) {
      INFO(parts[p]);
      CHECK_CLOSE(Matrix(out.middleCols(p * hd, hd).cast<double>()),
                  ref.matrix(std::string("seq1.L1H1.") + parts[p]), 1e-5);
    }
    CHECK(model.headInputs(9, 0, out).code == StatusCode::kInvalidArgument);
    Matrix32 wrong(5, hd);
    CHECK(model.headInputs(0, 0, wrong).code == StatusCode::kShapeMismatch);
  }
}

TEST_CASE("rotary families: hostile configurations are refused by name",
          "[rotary][families][validation]") {
  LlamaModel model;
  LlamaConfig c = tiny();
  c.kvHeads = 3;
  CHECK(model.configure(c).message ==
        "num_key_value_heads = 3 does not divide num_attention_heads = 4");
  c = tiny();
  c.headDim = 5;
  CHECK(model.configure(c).message ==
        "head_dim = 5 must be even (RoPE turns coordinates in pairs)");
  c = tiny();
  c.ropeTheta = 1;
  CHECK(model.configure(c).message ==
        "rope_theta / rope_scaling: base is 1.000000 but must be a finite number > 1");
  c = tiny();
  c.ropeScaling.type = RopeScaling::Type::kLinear;
  c.ropeScaling.factor = 0.5;
  CHECK(model.configure(c).message ==
        "rope_theta / rope_scaling: scaling.factor is 0.500000 but must be a finite number >= 1");
  c = tiny();
  c.slidingLayers = "10";
  CHECK(model.configure(c).message == "layer_types has 2 entries but num_hidden_layers = 1");
  c = tiny();
  c.queryPreAttnScalar = 0.5;
  CHECK(model.configure(c).message.rfind("query_pre_attn_scalar must be", 0) == 0);
  c = tiny();
  c.layers = 5000;
  CHECK(model.configure(c).message == "num_hidden_layers must be in [1, 4096], got 5000");
  CHECK(model.parameters().empty());  // nothing laid out by a refused configuration
  // Weights that cannot fit are refused before anything is allocated.
  c = tiny();
  c.vocab = 1 << 25;  // 8 GiB of embeddings: past the 4 GiB the model module may grow to
  c.dModel = 64;
  CHECK(model.configure(c).code == StatusCode::kOutOfMemory);

  // A good model refuses bad ids by name and keeps working.
  REQUIRE(model.configure(tiny()).isOk());
  REQUIRE(model.allocate().isOk());
  for (int p = 0; p < static_cast<int>(model.parameters().size()); ++p) {
    const auto& param = model.parameters()[p];
    Eigen::Map<Matrix32>(model.parameterData(p), param.rows, param.cols).setConstant(0.1f);
  }
  REQUIRE(model.finishLoading().isOk());
  CHECK(model.forward({1, 10}).message == "ids[1] = 10 is outside [0, vocab_size = 10)");
  CHECK(model.forward(std::vector<int>(9, 0)).message ==
        "ids has 9 tokens but must have 1 to max_position_embeddings = 8");
  CHECK(model.forward({1, 2, 3}).isOk());
  CHECK(model.probabilities().sum() == Approx(1.0f));

  // Finite weights that overflow float32 in the pass name the layer and the tensor.
  LlamaModel huge;
  REQUIRE(huge.configure(tiny()).isOk());
  REQUIRE(huge.allocate().isOk());
  for (int p = 0; p < static_cast<int>(huge.parameters().size()); ++p) {
    const auto& param = huge.parameters()[p];
    Eigen::Map<Matrix32>(huge.parameterData(p), param.rows, param.cols).setConstant(1e20f);
  }
  REQUIRE(huge.finishLoading().isOk());
  CHECK(huge.forward({1, 2}).message ==
        "layer 0's queries (layers.0.self_attn.q_proj) overflowed float32 (|x| > 3.4e38): the "
        "model's weights are too large for float32 at that step");
}

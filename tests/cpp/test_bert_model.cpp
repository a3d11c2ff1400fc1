// BERT's forward pass (cpp/models/families/bert/) against a float64 NumPy forward
// pass of a tiny random BertForMaskedLM (tests/fixtures/bert/expected.txt, bert/make.py):
// every layer x head attention map, the last hidden state and the masked-LM
// logits of every position, for one sentence and one pair (token types 0, 1).
// Tolerances, |got - want| / max(1, |want|): maps 1e-5, hidden states and
// logits 2e-5 (float32 through two post-LN layers; GPT-2's test uses the same).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "fixtures.h"
#include "models/families/bert/bert_model.h"

using namespace attention;

namespace {

const fixtures::File& ref() {
  static const fixtures::File file("bert/expected.txt");
  return file;
}

std::vector<int> ints(const std::string& key) {
  const Vector v = ref().vector(key);
  return std::vector<int>(v.data(), v.data() + v.size());
}

BertConfig tinyConfig() {
  BertConfig c;
  c.layers = 2;
  c.heads = 2;
  c.dModel = 8;
  c.inner = 16;
  c.positions = 12;
  c.types = 2;
  c.vocab = 40;
  c.epsilon = 1e-12;
  c.maskedLm = true;
  return c;
}

// The fixture's weights, written where the model asks for each parameter by name.
void load(BertModel& model) {
  REQUIRE(model.allocate().isOk());
  const auto& params = model.parameters();
  for (int i = 0; i < static_cast<int>(params.size()); ++i) {
    INFO(params[i].name);
    const Matrix& w = ref().matrix("w." + params[i].name);
    REQUIRE(w.rows() == params[i].rows);
    REQUIRE(w.cols() == params[i].cols);
    float* out = model.parameterData(i);
    for (Eigen::Index r = 0; r < w.rows(); ++r)
      for (Eigen::Index col = 0; col < w.cols(); ++col)
        out[r * w.cols() + col] = static_cast<float>(w(r, col));
  }
  REQUIRE(model.finishLoading().isOk());
}

}  // namespace

TEST_CASE("BERT matches NumPy: attention maps, hidden states, masked-LM logits",
          "[bert][fixture]") {
  BertModel model;
  REQUIRE(model.configure(tinyConfig()).isOk());
  CHECK(model.parameters().size() == 5 + 2 * 16 + 5);
  load(model);
  for (const std::string s : {"seq0", "seq1"}) {
    INFO(s);
    const std::vector<int> ids = ints(s + ".ids"), types = ints(s + ".types");
    REQUIRE(model.forward(ids, types).isOk());
    for (int l = 0; l < 2; ++l) {
      INFO("layer " << l);
      CHECK_CLOSE(model.attention(l).cast<double>().eval(),
                  ref().matrix(s + ".attention" + std::to_string(l)), 1e-5);
    }
    CHECK_CLOSE(model.hidden(2).cast<double>().eval(), ref().matrix(s + ".hidden"), 2e-5);
    std::vector<int> all(ids.size());
    for (std::size_t t = 0; t < all.size(); ++t) all[t] = static_cast<int>(t);
    Matrix32 logits;
    REQUIRE(model.predict(all, logits).isOk());
    CHECK_CLOSE(logits.cast<double>().eval(), ref().matrix(s + ".logits"), 2e-5);
  }
}

TEST_CASE("BERT: bidirectional maps, and bad input named before anything runs",
          "[bert][validation]") {
  BertModel model;
  REQUIRE(model.configure(tinyConfig()).isOk());
  CHECK(model.forward({3, 4}, {0, 0}).message == "the weights are not loaded");
  load(model);
  const std::vector<int> ids = ints("seq0.ids"), types = ints("seq0.types");
  REQUIRE(model.forward(ids, types).isOk());
  // Unlike GPT-2, the first query attends to later keys too.
  CHECK(model.attention(0).block(0, 1, 1, ids.size() - 1).sum() > 0.01f);
  CHECK(model.forward({3, 4}, {0}).message == "types has 1 entries but ids has 2");
  CHECK(model.forward({3, 4}, {0, 2}).message == "types[1] = 2 is outside [0, 2)");
  CHECK_FALSE(model.forward(std::vector<int>(13, 3), std::vector<int>(13, 0)).isOk());
  CHECK_FALSE(model.forward({40}, {0}).isOk());
  Matrix32 logits;
  REQUIRE(model.forward(ids, types).isOk());
  CHECK(model.predict({9}, logits).message == "positions[0] = 9 is outside [0, 9)");
  BertConfig odd = tinyConfig();
  odd.heads = 3;
  CHECK(BertModel().configure(odd).message ==
        "num_attention_heads = 3 does not divide hidden_size = 8");
  BertConfig encoderOnly = tinyConfig();
  encoderOnly.maskedLm = false;
  BertModel bare;
  REQUIRE(bare.configure(encoderOnly).isOk());
  CHECK(bare.parameters().size() == 5 + 2 * 16);
}

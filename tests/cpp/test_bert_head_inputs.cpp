// BertModel::headInputs, what BERT's explainHead reads: the layer's input x
// (T x D) and x W + b for a head's query | key | value columns, against the
// float64 NumPy forward pass of tests/fixtures/bert (expected.txt: seq1.L1H1.x,
// q, k, v of layer 1, head 1 on the sentence pair, written by bert/make.py), W
// and b taken from the fixture's own weights the way the JS reader takes them
// (the head's rows of the out x in weights, as columns). Tolerance
// |got - want| / max(1, |want|) 1e-5 (float32 through one post-LN layer against
// float64; BERT's model test uses the same for its maps).
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

void open(BertModel& model) {
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
  REQUIRE(model.configure(c).isOk());
  REQUIRE(model.allocate().isOk());
  const auto& params = model.parameters();
  for (int i = 0; i < static_cast<int>(params.size()); ++i) {
    const Matrix& w = ref().matrix("w." + params[i].name);
    REQUIRE(w.size() == static_cast<Eigen::Index>(params[i].rows) * params[i].cols);
    Eigen::Map<Matrix32>(model.parameterData(i), params[i].rows, params[i].cols) =
        Eigen::Map<const Matrix>(w.data(), params[i].rows, params[i].cols).cast<float>();
  }
  REQUIRE(model.finishLoading().isOk());
}

}  // namespace

TEST_CASE("bert headInputs: x is the layer's input, then x W + b, matching NumPy",
          "[bert][explain][fixture]") {
  BertModel model;
  open(model);
  constexpr int kD = 8, kDk = 4, kHead = 1;
  // The head's rows of query, key, value (out x in) as columns: W (D x 3 d_k), b (3 d_k).
  Matrix32 weight(kD, 3 * kDk), bias(1, 3 * kDk);
  const char* parts[] = {"query", "key", "value"};
  for (int p = 0; p < 3; ++p) {
    const std::string name = std::string("w.encoder.layer.1.attention.self.") + parts[p];
    const Matrix W = ref().matrix(name + ".weight");
    const Vector b = ref().vector(name + ".bias");
    for (int j = 0; j < kDk; ++j) {
      for (int i = 0; i < kD; ++i)
        weight(i, p * kDk + j) = static_cast<float>(W(kHead * kDk + j, i));
      bias(0, p * kDk + j) = static_cast<float>(b(kHead * kDk + j));
    }
  }
  const std::vector<int> ids = ints("seq1.ids");
  const Eigen::Index T = static_cast<Eigen::Index>(ids.size());
  Matrix32 out(T, kD + 3 * kDk);
  CHECK(model.headInputs(1, weight, bias, out).code == StatusCode::kInvalidArgument);
  REQUIRE(model.forward(ids, ints("seq1.types")).isOk());
  REQUIRE(model.headInputs(1, weight, bias, out).isOk());
  CHECK_CLOSE(Matrix(out.leftCols(kD).cast<double>()), ref().matrix("seq1.L1H1.x"), 1e-5);
  for (int p = 0; p < 3; ++p) {
    INFO(parts[p]);
    CHECK_CLOSE(Matrix(out.middleCols(kD + p * kDk, kDk).cast<double>()),
                ref().matrix(std::string("seq1.L1H1.") + "qkv"[p]), 1e-5);
  }
  // x is hidden(1), the layer's input, exactly.
  CHECK(out.leftCols(kD) == model.hidden(1));
  // Weights that do not fit hidden_size, and a layer out of range, are refused.
  Matrix32 narrow(T, kD);
  CHECK(model.headInputs(1, weight, bias, narrow).message ==
        "headInputs: the weights do not fit hidden_size");
  CHECK(model.headInputs(2, weight, bias, out).code == StatusCode::kInvalidArgument);
}

// LlamaModel::headSources, what the rotary families' explainHead reads besides
// headInputs: layer 1's input after input_layernorm (x) and query head 1's and
// its kv head's projections before the QK-norm (qPre, kPre), against the float64
// NumPy forward pass of each family's fixture (tests/fixtures/<family>/
// expected.txt, seq1.L1H1.*, written by llama/make.py). Then x wq^T + b computed
// here in double from the fixture's weights against qPre: the explanation the
// chapter prints adds up. Tolerance |got - want| / max(1, |want|) 1e-5 (float32
// through one layer against float64; the family test's head inputs use the same).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "fixtures.h"
#include "models/families/llama/llama_model.h"
#include "rotary_fixture.h"

using namespace attention;
using rotary_fixture::configOf;

namespace {

void load(LlamaModel& model, const fixtures::File& ref) {
  REQUIRE(model.allocate().isOk());
  const auto& params = model.parameters();
  for (int p = 0; p < static_cast<int>(params.size()); ++p) {
    const Matrix& w = ref.matrix("w." + params[p].name);
    REQUIRE(w.rows() == params[p].rows);
    REQUIRE(w.cols() == params[p].cols);
    Eigen::Map<Matrix32>(model.parameterData(p), w.rows(), w.cols()) = w.cast<float>();
  }
  REQUIRE(model.finishLoading().isOk());
}

}  // namespace

TEST_CASE("rotary headSources: x after input_layernorm and q, k before the QK-norm match NumPy",
          "[rotary][explain][fixture]") {
  for (const char* family : {"llama", "qwen2", "qwen3", "gemma3"}) {
    INFO(family);
    const fixtures::File ref(std::string(family) + "/expected.txt");
    LlamaModel model;
    REQUIRE(model.configure(configOf(ref)).isOk());
    load(model, ref);
    const LlamaConfig& c = model.config();
    const int D = c.dModel, hd = c.headDim, T = 5;
    Matrix32 out(T, D + 2 * hd);
    CHECK(model.headSources(1, 1, out).code == StatusCode::kInvalidArgument);  // no forward yet
    const Vector ids = ref.vector("seq1.ids");
    REQUIRE(ids.size() == T);
    REQUIRE(model.forward(std::vector<int>(ids.data(), ids.data() + T)).isOk());
    REQUIRE(model.headSources(1, 1, out).isOk());
    CHECK_CLOSE(Matrix(out.leftCols(D).cast<double>()), ref.matrix("seq1.L1H1.x"), 1e-5);
    CHECK_CLOSE(Matrix(out.middleCols(D, hd).cast<double>()), ref.matrix("seq1.L1H1.qPre"), 1e-5);
    CHECK_CLOSE(Matrix(out.middleCols(D + hd, hd).cast<double>()), ref.matrix("seq1.L1H1.kPre"),
                1e-5);
    // qPre = x Wq^T + b over the head's rows of q_proj, in double from the fixture's own numbers.
    const Matrix x = ref.matrix("seq1.L1H1.x");
    const Matrix Wq = ref.matrix("w.layers.1.self_attn.q_proj.weight").middleRows(hd, hd);
    Matrix want = x * Wq.transpose();
    if (c.attentionBias) {
      const Vector b = ref.vector("w.layers.1.self_attn.q_proj.bias");
      want.rowwise() += b.segment(hd, hd).transpose();
    }
    CHECK_CLOSE(want, ref.matrix("seq1.L1H1.qPre"), 1e-9);
    if (!c.qkNorm) CHECK_CLOSE(ref.matrix("seq1.L1H1.qPre"), ref.matrix("seq1.L1H1.q"), 0.0);
    // Wrong shapes and heads are refused by name.
    Matrix32 narrow(T, D);
    const Status s = model.headSources(1, 1, narrow);
    CHECK(s.code == StatusCode::kShapeMismatch);
    CHECK(s.message.rfind("headSources: out is 5x", 0) == 0);
    CHECK(model.headSources(1, c.heads, out).code == StatusCode::kInvalidArgument);
  }
}

// The trained Transformer (cpp/models/transformer_*): finite-difference
// gradient checks of every layer and of the whole model (double precision,
// central differences, h = 1e-5; error |analytic - numeric| / max(1e-3,
// |analytic| + |numeric|) < 1e-6), the forward pass against the NumPy
// reference of tests/fixtures/make_transformer_forward.py (1e-12), masks
// (causal zeros, an example's keys only), rows summing to 1, determinism and
// checkpoints.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "fixtures.h"
#include "gradient_check.h"
#include "models/transformer_layers.h"
#include "models/transformer_model.h"
#include "models/transformer_trainer.h"
#include "ops/linear.h"

using namespace attention;

namespace {

using gradient_check::randomMatrix;

// Parameters of one layer in a flat vector, bound by a list of (map, rows, cols).
struct Flat {
  Vector values, grads;
  std::vector<std::pair<MatrixMap*, MatrixMap*>> maps;
  std::vector<std::pair<int, int>> shapes;
  void add(MatrixMap& w, MatrixMap& g, int rows, int cols) {
    maps.push_back({&w, &g});
    shapes.push_back({rows, cols});
  }
  // Allocates, binds and fills every entry from rng in [-scale, scale] (plus `shift`).
  void bind(RandomState& rng, double scale) {
    std::size_t total = 0;
    for (auto& s : shapes) total += static_cast<std::size_t>(s.first) * s.second;
    values.resize(static_cast<Eigen::Index>(total));
    grads = Vector::Zero(values.size());
    for (Eigen::Index i = 0; i < values.size(); ++i) values[i] = rng.uniform(-scale, scale);
    std::size_t offset = 0;
    for (std::size_t i = 0; i < maps.size(); ++i) {
      rebind(*maps[i].first, values.data() + offset, shapes[i].first, shapes[i].second);
      rebind(*maps[i].second, grads.data() + offset, shapes[i].first, shapes[i].second);
      offset += static_cast<std::size_t>(shapes[i].first) * shapes[i].second;
    }
  }
};

void addAttention(Flat& f, MultiHeadWeights& w, MultiHeadWeights& g, int D) {
  for (auto pair : {std::make_pair(&w.Wq, &g.Wq), std::make_pair(&w.Wk, &g.Wk),
                    std::make_pair(&w.Wv, &g.Wv), std::make_pair(&w.Wo, &g.Wo)}) {
    f.add(*pair.first, *pair.second, D, D);
  }
  for (auto pair : {std::make_pair(&w.bq, &g.bq), std::make_pair(&w.bk, &g.bk),
                    std::make_pair(&w.bv, &g.bv), std::make_pair(&w.bo, &g.bo)}) {
    f.add(*pair.first, *pair.second, 1, D);
  }
}

PackedLayout layoutOf(const std::vector<int>& lengths) {
  PackedLayout p;
  for (int n : lengths) p.add(n);
  return p;
}

TransformerOptions tinyOptions() {
  TransformerOptions o;
  o.layers = 2;
  o.heads = 2;
  o.dModel = 8;
  o.dFF = 12;
  o.batch = 4;
  return o;
}

}  // namespace

// ---- gradient checks: layers ----

TEST_CASE("transformer gradient check: layer norm", "[transformer][gradcheck]") {
  RandomState rng(1);
  const int N = 5, D = 6;
  LayerNormWeights w, g;
  Flat f;
  f.add(w.gamma, g.gamma, 1, D);
  f.add(w.beta, g.beta, 1, D);
  f.bind(rng, 1.5);
  Matrix x = randomMatrix(rng, N, D, 2.0);
  const Matrix probe = randomMatrix(rng, N, D);
  LayerNormCache cache;
  Matrix y, dx;
  auto loss = [&] {
    layerNormForward(w, x, cache, y);
    return (y.array() * probe.array()).sum();
  };
  loss();
  layerNormBackward(w, cache, probe, dx, g);
  CHECK_GRADIENT("layer norm gamma, beta", loss, f.values.data(), f.grads.data(), f.values.size());
  CHECK_GRADIENT("layer norm x", loss, x.data(), dx.data(), x.size());
  // Without the affine part each row has mean 0 and variance 1 / (1 + eps / var).
  CHECK(std::abs(cache.normalized.row(0).mean()) < 1e-15);
}

TEST_CASE("transformer gradient check: position-wise feed-forward", "[transformer][gradcheck]") {
  RandomState rng(2);
  const int N = 4, D = 5, F = 7;
  FeedForwardWeights w, g;
  Flat f;
  f.add(w.W1, g.W1, D, F);
  f.add(w.b1, g.b1, 1, F);
  f.add(w.W2, g.W2, F, D);
  f.add(w.b2, g.b2, 1, D);
  f.bind(rng, 0.8);
  Matrix x = randomMatrix(rng, N, D);
  const Matrix probe = randomMatrix(rng, N, D);
  FeedForwardCache cache;
  Matrix y, dx;
  auto loss = [&] {
    feedForwardForward(w, x, cache, y);
    return (y.array() * probe.array()).sum();
  };
  loss();
  CHECK((cache.hidden.array() == 0.0).count() > 0);  // some ReLUs are off
  CHECK((cache.hidden.array() > 0.0).count() > 0);
  feedForwardBackward(w, x, cache, probe, dx, g);
  CHECK_GRADIENT("FFN W1, b1, W2, b2", loss, f.values.data(), f.grads.data(), f.values.size());
  CHECK_GRADIENT("FFN x", loss, x.data(), dx.data(), x.size());
}

TEST_CASE("transformer gradient check: multi-head attention with masks",
          "[transformer][gradcheck]") {
  RandomState rng(3);
  const int D = 6, heads = 3;
  MultiHeadWeights w, g;
  Flat f;
  addAttention(f, w, g, D);
  f.bind(rng, 0.9);
  SECTION("cross-attention: each query sees only its own example's keys") {
    const PackedLayout queries = layoutOf({3, 2, 1}), keys = layoutOf({4, 1, 3});
    Matrix xq = randomMatrix(rng, queries.rows, D), xkv = randomMatrix(rng, keys.rows, D);
    const Matrix probe = randomMatrix(rng, queries.rows, D);
    MultiHeadCache cache;
    Matrix out, dxq, dxkv;
    auto loss = [&] {
      multiHeadForward(w, heads, false, xq, queries, xkv, keys, cache, out);
      return (out.array() * probe.array()).sum();
    };
    loss();
    multiHeadBackward(w, xq, xkv, cache, probe, dxq, dxkv, g);
    CHECK_GRADIENT("attention parameters", loss, f.values.data(), f.grads.data(), f.values.size());
    CHECK_GRADIENT("attention queries", loss, xq.data(), dxq.data(), xq.size());
    CHECK_GRADIENT("attention keys/values", loss, xkv.data(), dxkv.data(), xkv.size());
    // Padding mask: example 1's output does not move when another example's keys do.
    const Matrix before = out.middleRows(3, 2);
    xkv.topRows(4).array() += 1.0;
    xkv.bottomRows(3).array() -= 1.0;
    loss();
    CHECK((out.middleRows(3, 2) - before).cwiseAbs().maxCoeff() == 0.0);
    for (int b = 0; b < 3; ++b) {
      for (int i = 0; i < heads; ++i) {
        const ConstMatrixMap a = cache.headWeights(b, i);
        CHECK(a.rows() == queries.length[b]);
        CHECK(a.cols() == keys.length[b]);
        CHECK((a.rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-15);
      }
    }
  }
  SECTION("causal self-attention: zeros above the diagonal") {
    const PackedLayout layout = layoutOf({4, 2});
    Matrix x = randomMatrix(rng, layout.rows, D);
    const Matrix probe = randomMatrix(rng, layout.rows, D);
    MultiHeadCache cache;
    Matrix out, dxq, dxkv;
    auto loss = [&] {
      multiHeadForward(w, heads, true, x, layout, x, layout, cache, out);
      return (out.array() * probe.array()).sum();
    };
    loss();
    multiHeadBackward(w, x, x, cache, probe, dxq, dxkv, g);
    const Matrix dx = dxq + dxkv;
    CHECK_GRADIENT("causal attention parameters", loss, f.values.data(), f.grads.data(),
                   f.values.size());
    CHECK_GRADIENT("causal attention x", loss, x.data(), dx.data(), x.size());
    for (int i = 0; i < heads; ++i) {
      const ConstMatrixMap a = cache.headWeights(0, i);
      for (int r = 0; r < 4; ++r) {
        for (int c = r + 1; c < 4; ++c) CHECK(a(r, c) == 0.0);
        CHECK(std::abs(a.row(r).sum() - 1.0) < 1e-15);
      }
      CHECK(a(0, 0) == 1.0);  // the first position sees only itself
    }
    // A later position never changes an earlier output.
    const Matrix before = out.topRows(2);
    x.row(3).array() += 1.0;
    loss();
    CHECK((out.topRows(2) - before).cwiseAbs().maxCoeff() == 0.0);
  }
}

TEST_CASE("transformer gradient check: embedding + positional encoding",
          "[transformer][gradcheck]") {
  RandomState rng(4);
  const int V = 5, D = 6;
  Matrix table = randomMatrix(rng, V, D);
  Matrix gradTable = Matrix::Zero(V, D);
  MatrixMap gradMap(gradTable.data(), V, D);
  const PackedLayout layout = layoutOf({3, 2});
  const std::vector<int> ids = {1, 4, 1, 0, 2};
  const Matrix pe = positionalEncoding(4, D);
  const Matrix probe = randomMatrix(rng, layout.rows, D);
  Matrix x;
  auto loss = [&] {
    embedForward(table, ids, layout, pe, x);
    return (x.array() * probe.array()).sum();
  };
  loss();
  embedBackward(ids, probe, gradMap);
  CHECK_GRADIENT("embedding table", loss, table.data(), gradTable.data(), table.size());
  // Example 1's first token sits at position 0: sqrt(D) * table[0] + PE(0) = (..., 0, 1, 0, 1).
  CHECK((x.row(3) - table.row(0) * std::sqrt(6.0) - pe.row(0)).cwiseAbs().maxCoeff() < 1e-15);
  CHECK(pe(0, 1) == 1.0);
  CHECK(pe(3, 0) == std::sin(3.0));
  CHECK(pe(3, 3) == std::cos(3.0 / std::pow(10000.0, 2.0 / 6)));
}

TEST_CASE("transformer gradient check: output layer and label-smoothed cross-entropy",
          "[transformer][gradcheck]") {
  RandomState rng(5);
  const int N = 4, D = 5, W = 6;
  Matrix Wo = randomMatrix(rng, D, W), bo = randomMatrix(rng, 1, W);
  Matrix x = randomMatrix(rng, N, D);
  const std::vector<int> targets = {0, 5, 2, 2};
  for (double smoothing : {0.0, 0.1}) {
    Matrix gWo = Matrix::Zero(D, W), gBo = Matrix::Zero(1, W), probs, dx;
    MatrixMap gWoMap(gWo.data(), D, W), gBoMap(gBo.data(), 1, W);
    auto loss = [&] { return outputLossForward(Wo, bo, x, targets, smoothing, probs); };
    const double value = loss();
    // Against the definition: -sum_j q_j log p_j with q = (1 - e) onehot + e / W.
    Matrix logits(N, W);
    linearInto(x, Wo, bo.data(), WeightLayout::kInOut, logits);
    double want = 0;
    for (int r = 0; r < N; ++r) {
      const double lse = std::log((logits.row(r).array() - logits.row(r).maxCoeff()).exp().sum()) +
                         logits.row(r).maxCoeff();
      for (int j = 0; j < W; ++j) {
        const double q = (j == targets[r] ? 1 - smoothing : 0.0) + smoothing / W;
        want -= q * (logits(r, j) - lse);
      }
    }
    CHECK(std::abs(value - want / N) < 1e-14);
    outputLossBackward(Wo, x, probs, targets, smoothing, dx, gWoMap, gBoMap);
    INFO("smoothing " << smoothing);
    CHECK_GRADIENT("output W", loss, Wo.data(), gWo.data(), Wo.size());
    CHECK_GRADIENT("output b", loss, bo.data(), gBo.data(), bo.size());
    CHECK_GRADIENT("output x", loss, x.data(), dx.data(), x.size());
  }
}

// ---- the whole model ----

TEST_CASE("transformer gradient check: whole model", "[transformer][gradcheck]") {
  for (double smoothing : {0.0, 0.1}) {
    TransformerOptions o = tinyOptions();
    o.labelSmoothing = smoothing;
    TransformerTrainer t;
    REQUIRE(t.init(o).isOk());
    Vector& params = t.parameters();
    RandomState rng(6);
    // Move layer-norm gains and biases off their initial 1 / 0 so every path matters.
    for (Eigen::Index i = 0; i < params.size(); ++i) params[i] += rng.uniform(-0.1, 0.1);
    const TransformerBatch batch =
        t.makeBatch({{"21 Nov 2026", "2026-11-21"}, {"1/2/99", "1999-02-01"}, {"x", "2000"}});
    Vector grad;
    t.lossAndGradient(batch, grad);
    CHECK(grad.cwiseAbs().minCoeff() >= 0.0);
    Vector scratch;
    auto loss = [&] { return t.lossAndGradient(batch, scratch); };
    INFO("smoothing " << smoothing << ", " << params.size() << " parameters");
    CHECK_GRADIENT("every parameter", loss, params.data(), grad.data(),
                   static_cast<std::size_t>(params.size()));
  }
}

TEST_CASE("transformer forward: NumPy reference (make_transformer_forward.py)", "[transformer]") {
  const fixtures::File ref("transformer_forward.txt");
  TransformerConfig config;
  config.inputVocab = 7;
  config.outputVocab = 5;
  config.layers = 2;
  config.heads = 2;
  config.dModel = 8;
  config.dFF = 12;
  config.maxLength = 8;
  Vector params(static_cast<Eigen::Index>(transformerParamCount(config)));
  for (const ParamSpec& s : transformerLayout(config)) {
    const Matrix& m = ref.matrix("param." + s.name);
    REQUIRE(m.rows() == s.rows);
    REQUIRE(m.cols() == s.cols);
    std::copy(m.data(), m.data() + m.size(), params.data() + s.offset);
  }
  const TransformerWeights w = bindTransformerWeights(config, params.data());
  TransformerBatch batch;
  std::vector<int> rowsOf;
  for (int b = 0; b < 2; ++b) {
    const std::string p = "ex" + std::to_string(b);
    const Vector src = ref.vector(p + ".source"), dec = ref.vector(p + ".decoderInput"),
                 tgt = ref.vector(p + ".targets");
    batch.source.add(static_cast<int>(src.size()));
    batch.target.add(static_cast<int>(dec.size()));
    for (double id : src) batch.sourceIds.push_back(static_cast<int>(id));
    for (double id : dec) batch.decoderInput.push_back(static_cast<int>(id));
    for (double id : tgt) batch.targetIds.push_back(static_cast<int>(id));
  }
  TransformerCache cache;
  const double loss0 = transformerForward(config, w, batch, 0.0, cache);
  CHECK(std::abs(loss0 - ref.scalar("loss.smoothing0")) <= 1e-12 * ref.scalar("loss.smoothing0"));
  const double loss1 = transformerForward(config, w, batch, 0.1, cache);
  CHECK(std::abs(loss1 - ref.scalar("loss.smoothing0.1")) <=
        1e-12 * ref.scalar("loss.smoothing0.1"));
  Matrix logits(cache.decoderOut.rows(), config.outputVocab);
  linearInto(cache.decoderOut, w.outW, w.outB.data(), WeightLayout::kInOut, logits);
  for (int b = 0; b < 2; ++b) {
    const std::string p = "ex" + std::to_string(b);
    const Matrix mine = logits.middleRows(batch.target.offset[b], batch.target.length[b]);
    CHECK_RELATIVE(mine, ref.matrix(p + ".logits"), 1e-12);
    for (int l = 0; l < 2; ++l) {
      for (int i = 0; i < 2; ++i) {
        const std::string h = ".h" + std::to_string(i), layer = std::to_string(l);
        const Matrix encSelf = cache.encoder[l].self.headWeights(b, i);
        const Matrix decSelf = cache.decoder[l].self.headWeights(b, i);
        const Matrix cross = cache.decoder[l].cross.headWeights(b, i);
        CHECK_RELATIVE(encSelf, ref.matrix(p + ".enc" + layer + ".self" + h), 1e-12);
        CHECK_RELATIVE(decSelf, ref.matrix(p + ".dec" + layer + ".self" + h), 1e-12);
        CHECK_RELATIVE(cross, ref.matrix(p + ".dec" + layer + ".cross" + h), 1e-12);
      }
    }
  }
}

TEST_CASE("transformer model: an example's result does not depend on its batch", "[transformer]") {
  TransformerTrainer t;
  REQUIRE(t.init(tinyOptions()).isOk());
  const TransformerWeights w = bindTransformerWeights(t.config(), t.parameters().data());
  const Seq2SeqExample a{"Saturday 21st November 2026", "2026-11-21"}, b{"1/2/99", "1999-02-01"};
  TransformerCache alone, both;
  transformerForward(t.config(), w, t.makeBatch({b}), 0.0, alone);
  transformerForward(t.config(), w, t.makeBatch({a, b}), 0.0, both);
  const Matrix probsAlone = alone.probs;
  const Matrix probsBoth = both.probs.bottomRows(probsAlone.rows());
  CHECK((probsAlone - probsBoth).cwiseAbs().maxCoeff() < 1e-14);
  const Matrix crossAlone = alone.decoder[1].cross.headWeights(0, 1);
  const Matrix crossBoth = both.decoder[1].cross.headWeights(1, 1);
  CHECK(crossBoth.cols() == 6);  // b's 6 characters, not a's 27
  CHECK((crossAlone - crossBoth).cwiseAbs().maxCoeff() < 1e-14);
}

// ---- trainer ----

TEST_CASE("transformer trainer: options are validated", "[transformer]") {
  const auto message = [](const TransformerOptions& o) {
    return validateTransformerOptions(o).message;
  };
  CHECK(validateTransformerOptions(TransformerOptions{}).isOk());
  TransformerOptions o;
  o.heads = 3;
  CHECK(message(o).find("heads = 3 must divide dModel = 32") != std::string::npos);
  o = {};
  o.dModel = 7;
  CHECK(message(o).find("dModel must be even") != std::string::npos);
  o = {};
  o.layers = 0;
  CHECK(message(o).find("layers must be an integer in [1, 6], got 0") != std::string::npos);
  o = {};
  o.schedule = "cosine";
  CHECK(message(o).find("schedule must be one of 'warmup', 'constant'") != std::string::npos);
  o = {};
  o.labelSmoothing = 1;
  CHECK(message(o).find("labelSmoothing must be in [0, 1), got 1") != std::string::npos);
  o = {};
  o.learningRate = std::nan("");
  CHECK(message(o).find("learningRate must be in (0, 10], got NaN") != std::string::npos);
  o = {};
  o.task = "shuffle";
  CHECK(validateTransformerOptions(o).code == StatusCode::kInvalidValue);
  CHECK(message(o).find("task must be one of 'dates', 'reverse', 'sort', got 'shuffle'") !=
        std::string::npos);
  o.task = "sort";
  CHECK(validateTransformerOptions(o).isOk());
}

TEST_CASE("transformer trainer: warm-up schedule", "[transformer]") {
  TransformerTrainer t;
  TransformerOptions o;
  o.dModel = 64;
  o.warmup = 400;
  REQUIRE(t.init(o).isOk());
  // lrate = d_model^-0.5 min(step^-0.5, step warmup^-1.5): rising, peak at warmup, then falling.
  CHECK(t.rateAt(1) == Approx(0.125 * std::pow(400.0, -1.5)).epsilon(1e-15));
  CHECK(t.rateAt(400) == Approx(0.125 / 20).epsilon(1e-15));
  CHECK(t.rateAt(1600) == Approx(0.125 / 40).epsilon(1e-15));
  o.schedule = "constant";
  o.learningRate = 0.003;
  REQUIRE(t.init(o).isOk());
  CHECK(t.rateAt(7) == 0.003);
}

TEST_CASE("transformer trainer: deterministic for a seed, loss falls", "[transformer]") {
  TransformerOptions o = tinyOptions();
  o.batch = 8;
  TransformerTrainer a, b, c;
  REQUIRE(a.init(o).isOk());
  REQUIRE(b.init(o).isOk());
  o.seed = 1;
  REQUIRE(c.init(o).isOk());
  std::vector<double> la, lb, lc;
  REQUIRE(a.train(40, la).isOk());
  REQUIRE(b.train(40, lb).isOk());
  REQUIRE(c.train(40, lc).isOk());
  CHECK(la == lb);  // bit for bit
  CHECK(la != lc);
  CHECK(la.back() < la.front());
}

TEST_CASE("transformer trainer: translate keeps every map, checkpoint round trip",
          "[transformer]") {
  TransformerOptions o = tinyOptions();
  TransformerTrainer t;
  REQUIRE(t.init(o).isOk());
  std::vector<double> losses;
  REQUIRE(t.train(5, losses).isOk());
  std::string output;
  TransformerDecoded d;
  REQUIRE(t.translate("21 Nov 2026", output, d).isOk());
  const int n = 11, m = static_cast<int>(output.size()) + 1;
  REQUIRE(d.encoderSelf.size() == 2);
  REQUIRE(d.cross[1].size() == 2);
  for (int l = 0; l < 2; ++l) {
    for (int i = 0; i < 2; ++i) {
      CHECK(d.encoderSelf[l][i].rows() == n);
      CHECK(d.encoderSelf[l][i].cols() == n);
      CHECK(d.decoderSelf[l][i].rows() == m);
      CHECK(d.decoderSelf[l][i].cols() == m);
      CHECK(d.cross[l][i].rows() == m);
      CHECK(d.cross[l][i].cols() == n);
      for (const Matrix* a : {&d.encoderSelf[l][i], &d.decoderSelf[l][i], &d.cross[l][i]}) {
        CHECK((a->rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-14);
      }
      for (int r = 0; r < m; ++r) {
        for (int c = r + 1; c < m; ++c) CHECK(d.decoderSelf[l][i](r, c) == 0.0);
      }
    }
  }
  // What each projection read and applied: q = x Wq + bq, k = x Wk + bk, summed
  // here term by term (1e-12), with Wq the model's own weights.
  const TransformerWeights w = bindTransformerWeights(t.config(), t.parameters().data());
  REQUIRE(d.queryInputs.size() == 3);
  for (int use = 0; use < 3; ++use) {
    REQUIRE(d.queryInputs[use].size() == 2);
    for (int l = 0; l < 2; ++l) {
      const auto check = [&](const Matrix& x, const Matrix& W, const Matrix& b, const Matrix& y) {
        REQUIRE(x.rows() == y.rows());
        REQUIRE(W.rows() == x.cols());
        REQUIRE(b.cols() == W.cols());
        double worst = 0;
        for (Eigen::Index r = 0; r < x.rows(); ++r) {
          for (Eigen::Index c = 0; c < W.cols(); ++c) {
            double sum = b(0, c);
            for (Eigen::Index k = 0; k < x.cols(); ++k) sum += x(r, k) * W(k, c);
            worst = std::max(worst, std::abs(sum - y(r, c)));
          }
        }
        CHECK(worst < 1e-12);
      };
      check(d.queryInputs[use][l], d.queryWeights[use][l], d.queryBiases[use][l],
            d.queries[use][l]);
      check(d.keyInputs[use][l], d.keyWeights[use][l], d.keyBiases[use][l], d.keys[use][l]);
    }
  }
  const MultiHeadWeights& cross1 = w.decoder[1].cross;
  CHECK(d.queryWeights[2][1] == Matrix(cross1.Wq));
  CHECK(d.keyBiases[2][1] == Matrix(cross1.bk));
  CHECK(d.queryInputs[0][0].rows() == n);
  CHECK(d.queryInputs[2][0].rows() == m);
  CHECK(d.keyInputs[2][0].rows() == n);  // cross-attention's keys read the encoder's output
  CHECK(t.translate("21 Nov 2026 ~", output, d).code == StatusCode::kInvalidValue);

  const std::vector<std::uint8_t> bytes = t.save();
  TransformerTrainer loaded;
  REQUIRE(loaded.load(bytes.data(), bytes.size()).isOk());
  CHECK(loaded.steps() == 5);
  CHECK(loaded.save() == bytes);  // float32 weights: stable after one round
  for (Eigen::Index i = 0; i < t.parameters().size(); ++i) {
    CHECK(loaded.parameters()[i] == static_cast<double>(static_cast<float>(t.parameters()[i])));
  }
  // Both continue with the same stream of training examples.
  std::vector<double> l1, l2;
  TransformerTrainer again;
  REQUIRE(again.load(bytes.data(), bytes.size()).isOk());
  REQUIRE(loaded.train(3, l1).isOk());
  REQUIRE(again.train(3, l2).isOk());
  CHECK(l1 == l2);

  const auto reason = [&](std::vector<std::uint8_t> b) {
    TransformerTrainer x;
    const Status s = x.load(b.data(), b.size());
    CHECK(s.code == StatusCode::kInvalidValue);
    return s.message;
  };
  auto bad = bytes;
  bad[0] = 'X';
  CHECK(reason(bad).find("wrong magic number") != std::string::npos);
  bad = bytes;
  bad[4] = 9;
  CHECK(reason(bad).find("version 9 is not supported") != std::string::npos);
  bad = bytes;
  bad[bytes.size() / 2] ^= 1;
  CHECK(reason(bad).find("checksum mismatch") != std::string::npos);
  bad.assign(bytes.begin(), bytes.begin() + 100);
  CHECK(reason(bad).find("checksum mismatch") != std::string::npos);
  CHECK(reason({'A', '2'}).find("only 2 bytes") != std::string::npos);
  // A failed load leaves the trainer as it was.
  bad = bytes;
  bad[0] = 'X';
  CHECK(!loaded.load(bad.data(), bad.size()).isOk());
  CHECK(loaded.steps() == 8);
}

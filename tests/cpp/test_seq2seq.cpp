// Seq2seq with attention: finite-difference gradient checks of every layer and
// of the whole model (double precision, central differences), plus the
// generator, tasks, trainer determinism and checkpoints.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "fixtures.h"
#include "gradient_check.h"
#include "models/seq2seq_layers.h"
#include "models/seq2seq_model.h"
#include "models/seq2seq_tasks.h"
#include "models/seq2seq_trainer.h"

using namespace attention;

namespace {

// max |a - b| (0 for empty matrices, where Eigen's maxCoeff is undefined).
double maxAbsDiff(const Matrix& a, const Matrix& b) {
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  return a.size() == 0 ? 0.0 : (a - b).cwiseAbs().maxCoeff();
}

using gradient_check::randomMatrix;

}  // namespace

// ---- generator and tasks ----

TEST_CASE("seq2seq random: mt19937 stream and hand-written distributions", "[seq2seq]") {
  RandomState rng(5489u);
  // The C++ standard fixes mt19937's 10000th output for the default seed 5489.
  for (int i = 0; i < 9999; ++i) rng.nextUint32();
  CHECK(rng.nextUint32() == 4123659995u);
  RandomState a(7), b(7);
  for (int i = 0; i < 1000; ++i) {
    const double u = a.uniform();
    CHECK(u == b.uniform());
    CHECK(u >= 0.0);
    CHECK(u < 1.0);
    const std::uint32_t k = a.below(13);
    CHECK(k == b.below(13));
    CHECK(k < 13u);
  }
  // below(n) is uniform: each of 10 values about 1000 times in 10000 draws.
  std::vector<int> counts(10, 0);
  for (int i = 0; i < 10000; ++i) ++counts[a.below(10)];
  for (int c : counts) CHECK(std::abs(c - 1000) < 150);
  // State round trip.
  const std::string state = a.state();
  const std::uint32_t next = a.nextUint32();
  REQUIRE(b.setState(state));
  CHECK(b.nextUint32() == next);
  CHECK_FALSE(b.setState("not a state"));
}

TEST_CASE("seq2seq dates: calendar helpers", "[seq2seq]") {
  CHECK(daysFromCivil(1970, 1, 1) == 0);
  CHECK(daysFromCivil(2000, 3, 1) == 11017);
  CHECK(weekday(2026, 11, 21) == 5);  // a Saturday
  CHECK(weekday(1969, 7, 20) == 6);   // a Sunday
  CHECK(weekday(2000, 2, 29) == 1);   // a Tuesday
  for (long d = -7000; d < 30000; d += 37) {
    int y = 0, m = 0, day = 0;
    civilFromDays(d, y, m, day);
    CHECK(daysFromCivil(y, m, day) == d);
  }
}

TEST_CASE("seq2seq dates: the formats of the issue", "[seq2seq]") {
  CHECK(formatDate(0, 2026, 11, 21, 1, false) == "21 November 2026");
  CHECK(formatDate(2, 2026, 11, 21, 0, false) == "nov 21, 2026");
  CHECK(formatDate(4, 2026, 11, 21, 1, false) == "Saturday 21/11/26");
  CHECK(formatDate(5, 2026, 11, 21, 1, false) == "2026 Nov 21st");
  CHECK(formatDate(13, 2026, 11, 2, 0, false) == "the 2nd of november 2026");
  CHECK(formatDate(14, 2026, 11, 13, 2, false) == "13TH NOVEMBER 2026");
  CHECK(formatDate(6, 2026, 1, 5, 0, true) == "05/01/2026");
  CHECK(formatDate(17, 1999, 1, 5, 0, true) == "19990105");
}

TEST_CASE("seq2seq tasks: held-out set fixed, disjoint from training, inputs valid", "[seq2seq]") {
  for (const char* name : {"dates", "reverse", "sort"}) {
    std::unique_ptr<Seq2SeqTask> task, again;
    REQUIRE(makeSeq2SeqTask(name, task).isOk());
    REQUIRE(makeSeq2SeqTask(name, again).isOk());
    REQUIRE(task->heldOut().size() == static_cast<std::size_t>(kHeldOutSize));
    std::set<std::string> heldInputs, heldTargets;
    for (std::size_t i = 0; i < task->heldOut().size(); ++i) {
      const Seq2SeqExample& e = task->heldOut()[i];
      CHECK(e.input == again->heldOut()[i].input);  // same for every construction
      CHECK(task->validateInput(e.input, "input").isOk());
      heldInputs.insert(e.input);
      heldTargets.insert(e.target);
    }
    RandomState rng(3);
    for (int i = 0; i < 20000; ++i) {
      const Seq2SeqExample e = task->draw(rng);
      REQUIRE(task->validateInput(e.input, "input").isOk());
      CHECK(static_cast<int>(e.target.size()) <= task->maxOutputLength());
      CHECK(heldInputs.count(e.input) == 0);
      // dates: no held-out calendar day in training, in any format; sort: no
      // held-out multiset of digits, in any order
      if (task->name() != "reverse") CHECK(heldTargets.count(e.target) == 0);
    }
  }
  std::unique_ptr<Seq2SeqTask> task;
  const Status bad = makeSeq2SeqTask("french", task);
  CHECK(bad.code == StatusCode::kInvalidValue);
  CHECK(bad.message == "task must be one of 'dates', 'reverse', 'sort', got 'french'");
}

namespace {

// How often each digit occurs: the reference for "the same digits".
std::vector<int> digitCounts(const std::string& s) {
  std::vector<int> counts(10, 0);
  for (char c : s) ++counts[static_cast<std::size_t>(c - '0')];
  return counts;
}

bool nonDecreasing(const std::string& s) {
  for (std::size_t i = 1; i < s.size(); ++i)
    if (s[i - 1] > s[i]) return false;
  return true;
}

}  // namespace

TEST_CASE("seq2seq sort task: 5-10 digits, the same digits in ascending order", "[seq2seq]") {
  std::unique_ptr<Seq2SeqTask> task;
  REQUIRE(makeSeq2SeqTask("sort", task).isOk());
  CHECK(task->name() == "sort");
  CHECK(task->inputAlphabet() == "0123456789");
  CHECK(task->outputAlphabet() == "0123456789");
  CHECK(task->maxInputLength() == 10);
  CHECK(task->maxOutputLength() == 10);
  std::set<std::string> heldTargets;
  for (const Seq2SeqExample& e : task->heldOut()) heldTargets.insert(e.target);
  CHECK(heldTargets.size() == task->heldOut().size());  // distinct multisets
  std::vector<int> lengthsSeen(11, 0);
  auto checkExample = [&](const Seq2SeqExample& e) {
    const int n = static_cast<int>(e.input.size());
    REQUIRE(n >= 5);
    REQUIRE(n <= 10);
    ++lengthsSeen[static_cast<std::size_t>(n)];
    CHECK(e.target.size() == e.input.size());
    CHECK(nonDecreasing(e.target));
    CHECK(digitCounts(e.target) == digitCounts(e.input));
  };
  for (const Seq2SeqExample& e : task->heldOut()) checkExample(e);
  RandomState rng(11);
  for (int i = 0; i < 5000; ++i) checkExample(task->draw(rng));
  for (int n = 5; n <= 10; ++n)
    CHECK(lengthsSeen[static_cast<std::size_t>(n)] > 500);  // every length drawn
  // Inputs come in random order: already sorted only by chance (about 4 in
  // 1000: C(14,5)/10^5 of the length-5 ones, C(15,6)/10^6 of the length-6 ones).
  int alreadySorted = 0;
  for (const Seq2SeqExample& e : task->heldOut()) alreadySorted += e.input == e.target ? 1 : 0;
  CHECK(alreadySorted < 10);
}

TEST_CASE("seq2seq tasks: input validation messages", "[seq2seq]") {
  std::unique_ptr<Seq2SeqTask> task;
  REQUIRE(makeSeq2SeqTask("dates", task).isOk());
  CHECK(task->validateInput("", "input").message == "input is empty");
  CHECK(task->validateInput(std::string(41, '1'), "input").code == StatusCode::kShapeMismatch);
  const Status s = task->validateInput("21 nov; 2026", "input");
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message.find("';' at position 6") != std::string::npos);
  CHECK(
      task->validateInput("21 n\xc3\xa9v 2026", "input").message.find("byte 0xC3 at position 4") !=
      std::string::npos);
}

// ---- gradient checks: layers ----

TEST_CASE("seq2seq gradient check: GRU over a sequence", "[seq2seq][gradcheck]") {
  RandomState rng(11);
  const int T = 4, B = 3, E = 2, H = 5;
  Vector params(E * 3 * H + H * 3 * H + 3 * H);
  for (Eigen::Index i = 0; i < params.size(); ++i) params[i] = rng.uniform(-0.8, 0.8);
  Vector grads = Vector::Zero(params.size());
  GruWeights w, g;
  rebind(w.W, params.data(), E, 3 * H);
  rebind(w.U, params.data() + E * 3 * H, H, 3 * H);
  rebind(w.b, params.data() + E * 3 * H + H * 3 * H, 1, 3 * H);
  rebind(g.W, grads.data(), E, 3 * H);
  rebind(g.U, grads.data() + E * 3 * H, H, 3 * H);
  rebind(g.b, grads.data() + E * 3 * H + H * 3 * H, 1, 3 * H);
  Matrix x = randomMatrix(rng, T * B, E);
  Matrix h0 = randomMatrix(rng, B, H);
  const Matrix probe = randomMatrix(rng, T * B, H);  // loss = sum(outputs * probe)
  GruCache cache;
  auto loss = [&] {
    gruForward(w, x, h0, T, cache);
    return (cache.outputs().array() * probe.array()).sum();
  };
  loss();
  Matrix dh0, dx;
  gruBackward(w, cache, x, probe, dh0, dx, g);
  CHECK_GRADIENT("GRU W, U, b", loss, params.data(), grads.data(), params.size());
  CHECK_GRADIENT("GRU x", loss, x.data(), dx.data(), x.size());
  CHECK_GRADIENT("GRU h0", loss, h0.data(), dh0.data(), h0.size());
  // Packed: only the first active[t] examples take step t (lengths 4, 3, 1).
  const std::vector<int> active = {3, 2, 2, 1};
  auto packedLoss = [&] {
    gruForward(w, x, h0, T, cache, &active);
    return (cache.outputs().array() * probe.array()).sum();
  };
  packedLoss();
  CHECK(cache.output(1).row(2).cwiseAbs().sum() == 0.0);  // example 2 stopped after step 0
  grads.setZero();
  gruBackward(w, cache, x, probe, dh0, dx, g);
  CHECK_GRADIENT("packed GRU W, U, b", packedLoss, params.data(), grads.data(), params.size());
  CHECK_GRADIENT("packed GRU x", packedLoss, x.data(), dx.data(), x.size());
  CHECK_GRADIENT("packed GRU h0", packedLoss, h0.data(), dh0.data(), h0.size());
  CHECK(dx.row(1 * B + 2).cwiseAbs().sum() == 0.0);  // a skipped step gets no gradient
  // gruStep agrees with one step of gruForward.
  grads.setZero();
  Matrix h = h0;
  gruStep(w, x.topRows(B), h);
  gruForward(w, x, h0, T, cache);
  CHECK((h - cache.output(0)).cwiseAbs().maxCoeff() < 1e-14);
}

TEST_CASE("seq2seq gradient check: attention, every score function", "[seq2seq][gradcheck]") {
  for (const char* name : {"bahdanau", "luong-dot", "luong-general", "luong-concat"}) {
    ScoreKind kind;
    REQUIRE(parseScoreKind(name, kind));
    CHECK(std::string(scoreKindName(kind)) == name);
    RandomState rng(21);
    const int Tq = 3, Tk = 5, B = 3, H = 4;
    const std::vector<int> lengths = {5, 2, 4};
    Vector params(H * H * 3 + 2 * H);
    for (Eigen::Index i = 0; i < params.size(); ++i) params[i] = rng.uniform(-0.9, 0.9);
    Vector grads = Vector::Zero(params.size());
    AttentionWeights w, g;
    w.kind = g.kind = kind;
    double* p = params.data();
    double* d = grads.data();
    rebind(w.W, p, H, H), rebind(g.W, d, H, H);
    rebind(w.Wq, p + H * H, H, H), rebind(g.Wq, d + H * H, H, H);
    rebind(w.Wk, p + 2 * H * H, H, H), rebind(g.Wk, d + 2 * H * H, H, H);
    rebind(w.bias, p + 3 * H * H, 1, H), rebind(g.bias, d + 3 * H * H, 1, H);
    rebind(w.v, p + 3 * H * H + H, 1, H), rebind(g.v, d + 3 * H * H + H, 1, H);
    Matrix q = randomMatrix(rng, Tq * B, H), k = randomMatrix(rng, Tk * B, H);
    const Matrix probe = randomMatrix(rng, Tq * B, H);
    AttentionCache cache;
    Matrix context;
    auto loss = [&] {
      attentionForward(w, q, k, lengths, cache, context);
      return (context.array() * probe.array()).sum();
    };
    loss();
    // Weights: rows sum to 1 over the valid keys, 0 beyond.
    for (int t = 0; t < Tq; ++t) {
      for (int b = 0; b < B; ++b) {
        const auto row = cache.weights.row(t * B + b);
        CHECK(std::abs(row.leftCols(lengths[b]).sum() - 1) < 1e-12);
        CHECK(row.rightCols(Tk - lengths[b]).cwiseAbs().sum() == 0.0);
      }
    }
    Matrix dq, dk;
    attentionBackward(w, cache, q, k, probe, dq, dk, g);
    CHECK_GRADIENT(name << " parameters", loss, params.data(), grads.data(), params.size());
    CHECK_GRADIENT(name << " queries", loss, q.data(), dq.data(), q.size());
    CHECK_GRADIENT(name << " keys", loss, k.data(), dk.data(), k.size());
    // Padded key rows (beyond each length) get no gradient and do not matter.
    CHECK(dk.row(4 * B + 1).cwiseAbs().sum() == 0.0);
  }
}

TEST_CASE("seq2seq gradient check: Luong combination a = tanh([c, h] Wc)", "[seq2seq][gradcheck]") {
  RandomState rng(31);
  const int N = 5, H = 4;
  Matrix Wc = randomMatrix(rng, 2 * H, H), c = randomMatrix(rng, N, H), h = randomMatrix(rng, N, H);
  const Matrix probe = randomMatrix(rng, N, H);
  Matrix a;
  auto loss = [&] {
    combineForward(Wc, c, h, a);
    return (a.array() * probe.array()).sum();
  };
  loss();
  // a = tanh(c Wc_top + h Wc_bottom), written out entry by entry.
  for (int i = 0; i < N; ++i) {
    for (int k = 0; k < H; ++k) {
      double pre = 0;
      for (int j = 0; j < H; ++j) pre += c(i, j) * Wc(j, k) + h(i, j) * Wc(H + j, k);
      CHECK(std::abs(a(i, k) - std::tanh(pre)) < 1e-14);
    }
  }
  Matrix gradWc = Matrix::Zero(2 * H, H), dc, dh;
  MatrixMap gradMap(gradWc.data(), 2 * H, H);
  combineBackward(Wc, c, h, a, probe, dc, dh, gradMap);
  CHECK_GRADIENT("combination Wc", loss, Wc.data(), gradWc.data(), Wc.size());
  CHECK_GRADIENT("combination c", loss, c.data(), dc.data(), c.size());
  CHECK_GRADIENT("combination h", loss, h.data(), dh.data(), h.size());
}

TEST_CASE("seq2seq gradient check: output projection and masked cross-entropy",
          "[seq2seq][gradcheck]") {
  RandomState rng(41);
  const int N = 6, H = 4, W = 5;
  Matrix Wo = randomMatrix(rng, H, W), bo = randomMatrix(rng, 1, W), a = randomMatrix(rng, N, H);
  const std::vector<int> targets = {0, 3, 4, 1, 2, 2};
  const std::vector<double> mask = {1, 1, 0, 1, 1, 0};  // two padded positions
  Matrix probs;
  auto loss = [&] { return outputForward(Wo, bo, a, targets, mask, probs); };
  const double l = loss();
  // The mean of -log softmax over the four real positions, computed directly.
  double want = 0;
  for (int i = 0; i < N; ++i) {
    if (mask[i] == 0) continue;
    const Eigen::RowVectorXd logits = a.row(i) * Wo + bo.row(0);
    want -= logits(targets[i]) - std::log(logits.array().exp().sum());
  }
  CHECK(std::abs(l - want / 4) < 1e-13);
  Matrix gradWo = Matrix::Zero(H, W), gradBo = Matrix::Zero(1, W), da;
  MatrixMap gWo(gradWo.data(), H, W), gBo(gradBo.data(), 1, W);
  outputBackward(Wo, a, probs, targets, mask, da, gWo, gBo);
  CHECK_GRADIENT("output Wo", loss, Wo.data(), gradWo.data(), Wo.size());
  CHECK_GRADIENT("output bo", loss, bo.data(), gradBo.data(), bo.size());
  CHECK_GRADIENT("output a", loss, a.data(), da.data(), a.size());
  CHECK(da.row(2).cwiseAbs().sum() == 0.0);  // padded positions get no gradient
}

// ---- gradient check: the whole model ----

TEST_CASE("seq2seq gradient check: whole model, every score function", "[seq2seq][gradcheck]") {
  for (const char* name : {"bahdanau", "luong-dot", "luong-general", "luong-concat"}) {
    for (const char* taskName : {"dates", "reverse"}) {
      Seq2SeqTrainer trainer;
      Seq2SeqOptions o;
      o.task = taskName;
      o.attention = name;
      o.hidden = 4;
      o.embedding = 3;
      o.seed = 9;
      REQUIRE(trainer.init(o).isOk());
      // Three examples of different input and output lengths.
      std::vector<Seq2SeqExample> examples;
      RandomState rng(4);
      for (int i = 0; i < 3; ++i) examples.push_back(trainer.task().draw(rng));
      if (std::string(taskName) == "reverse") examples[1] = {"123", "321"};
      const Seq2SeqBatch batch = trainer.makeBatch(examples);
      Vector gradient;
      const double loss0 = trainer.lossAndGradient(batch, gradient);
      CHECK(std::isfinite(loss0));
      Vector scratch;
      auto loss = [&] { return trainer.lossAndGradient(batch, scratch); };
      Vector& params = trainer.parameters();
      CHECK_GRADIENT(name << " / " << taskName << " all " << params.size() << " parameters", loss,
                     params.data(), gradient.data(), params.size());
    }
  }
}

// ---- model behaviour ----

TEST_CASE("seq2seq model: batching and padding do not change an example's result", "[seq2seq]") {
  Seq2SeqTrainer trainer;
  Seq2SeqOptions o;
  o.hidden = 6;
  o.embedding = 5;
  o.attention = "bahdanau";
  REQUIRE(trainer.init(o).isOk());
  const std::vector<Seq2SeqExample> examples = {
      {"21 November 2026", "2026-11-21"}, {"1/2/99", "1999-02-01"}, {"nov 21, 2026", "2026-11-21"}};
  Vector g;
  const double together = trainer.lossAndGradient(trainer.makeBatch(examples), g);
  double sum = 0, tokens = 0;
  for (const auto& e : examples) {
    sum += trainer.lossAndGradient(trainer.makeBatch({e}), g) * (e.target.size() + 1);
    tokens += e.target.size() + 1;
  }
  CHECK(std::abs(together - sum / tokens) < 1e-12);
  // Greedy decoding in a batch equals decoding one at a time (after a little
  // training, so that the outputs are not empty).
  double trainLoss = 0;
  REQUIRE(trainer.train(20, trainLoss).isOk());
  const Seq2SeqWeights w = bindSeq2SeqWeights(trainer.config(), trainer.parameters().data());
  const Seq2SeqBatch batch = trainer.makeBatch(examples);
  CHECK(batch.order == std::vector<int>{0, 2, 1});  // longest input first
  CHECK(batch.active.front() == 3);
  CHECK(batch.active.back() == 1);
  const auto batchDecoded = seq2seqGreedy(trainer.config(), w, batch, 10, true);
  for (std::size_t slot = 0; slot < examples.size(); ++slot) {
    const Seq2SeqExample& e = examples[static_cast<std::size_t>(batch.order[slot])];
    const auto one = seq2seqGreedy(trainer.config(), w, trainer.makeBatch({e}), 10, true);
    const Seq2SeqDecoded& d = batchDecoded[slot];
    CHECK(one[0].tokens == d.tokens);
    CHECK(!d.tokens.empty());
    CHECK(one[0].attention.rows() == d.attention.rows());
    CHECK(one[0].attention.cols() == static_cast<Eigen::Index>(e.input.size()));
    CHECK(maxAbsDiff(one[0].attention, d.attention) < 1e-12);
    CHECK(maxAbsDiff(one[0].encoderOutputs, d.encoderOutputs) < 1e-12);
    CHECK(maxAbsDiff(one[0].decoderStates, d.decoderStates) < 1e-12);
  }
}

TEST_CASE("seq2seq trainer: options are validated", "[seq2seq]") {
  Seq2SeqTrainer t;
  Seq2SeqOptions o;
  o.attention = "luong";
  CHECK(t.init(o).message ==
        "attention must be one of 'bahdanau', 'luong-dot', 'luong-general', 'luong-concat', got "
        "'luong'");
  o = Seq2SeqOptions();
  o.hidden = 0;
  CHECK(t.init(o).code == StatusCode::kInvalidValue);
  o = Seq2SeqOptions();
  o.learningRate = 0;
  CHECK(t.init(o).code == StatusCode::kInvalidValue);
  o = Seq2SeqOptions();
  o.batch = 513;
  CHECK(t.init(o).code == StatusCode::kInvalidValue);
  double x = 0;
  CHECK(t.train(1, x).message == "the trainer is not initialised");
}

TEST_CASE("seq2seq trainer: deterministic for a seed, loss falls", "[seq2seq]") {
  Seq2SeqOptions o;
  o.task = "reverse";
  o.hidden = 16;
  o.embedding = 8;
  o.batch = 16;
  o.learningRate = 0.01;
  o.seed = 3;
  Seq2SeqTrainer a, b, c;
  REQUIRE(a.init(o).isOk());
  REQUIRE(b.init(o).isOk());
  o.seed = 4;
  REQUIRE(c.init(o).isOk());
  double la = 0, lb = 0, lc = 0, first = 0;
  REQUIRE(a.train(5, first).isOk());
  REQUIRE(b.train(5, lb).isOk());
  REQUIRE(c.train(5, lc).isOk());
  CHECK(first == lb);  // bit for bit
  CHECK(first != lc);
  REQUIRE(a.train(150, la).isOk());
  REQUIRE(b.train(150, lb).isOk());
  CHECK(la == lb);
  CHECK(a.parameters() == b.parameters());
  CHECK(la < 0.7 * first);
  CHECK(a.steps() == 155u);
}

TEST_CASE("seq2seq trainer: checkpoint round trip and corruption", "[seq2seq]") {
  Seq2SeqOptions o;
  o.hidden = 8;
  o.embedding = 4;
  o.attention = "luong-concat";
  o.seed = 1;
  Seq2SeqTrainer t;
  REQUIRE(t.init(o).isOk());
  double loss = 0;
  REQUIRE(t.train(3, loss).isOk());
  const std::vector<std::uint8_t> bytes = t.save();
  CHECK(std::string(bytes.begin(), bytes.begin() + 4) == "A2S2");
  Seq2SeqTrainer u;
  REQUIRE(u.load(bytes.data(), bytes.size()).isOk());
  CHECK(u.save() == bytes);  // float32 weights round-trip exactly
  CHECK(u.steps() == 3u);
  CHECK(u.options().attention == "luong-concat");
  for (Eigen::Index i = 0; i < t.parameters().size(); ++i) {
    CHECK(u.parameters()[i] == static_cast<double>(static_cast<float>(t.parameters()[i])));
  }
  // Same data stream after loading: the next batches are the same examples, so
  // training continues from the same generator state.
  std::string out1, out2;
  Seq2SeqDecoded d1, d2;
  REQUIRE(u.translate("21 nov 2026", out1, d1).isOk());
  CHECK(d1.attention.rows() == static_cast<Eigen::Index>(out1.size()));
  // Corruptions.
  std::vector<std::uint8_t> bad = bytes;
  bad[0] = 'X';
  CHECK(u.load(bad.data(), bad.size()).message.find("magic") != std::string::npos);
  bad = bytes;
  bad[bad.size() / 2] ^= 1;
  CHECK(u.load(bad.data(), bad.size()).message.find("checksum") != std::string::npos);
  bad = bytes;
  bad.resize(bytes.size() - 10);
  CHECK(u.load(bad.data(), bad.size()).code == StatusCode::kInvalidValue);
  CHECK(u.load(bytes.data(), 3).code == StatusCode::kInvalidValue);
  bad = bytes;
  bad[4] = 9;
  CHECK(u.load(bad.data(), bad.size()).message.find("version 9") != std::string::npos);
  // The failed loads left u as it was.
  REQUIRE(u.translate("21 nov 2026", out2, d2).isOk());
  CHECK(out1 == out2);
}

// ---- the forward pass against an independent NumPy reference ----

TEST_CASE(
    "seq2seq model: forward pass and greedy decoding match NumPy (tests/fixtures/seq2seq.txt)",
    "[seq2seq][fixtures]") {
  static const fixtures::File file("seq2seq.txt");
  const std::vector<Seq2SeqExample> examples = {{"21 November 2026", "2026-11-21"},
                                                {"1/2/99", "1999-02-01"},
                                                {"Sat 3 Jan 1970", "1970-01-03"}};
  for (const char* name : {"bahdanau", "luong-dot", "luong-general", "luong-concat"}) {
    const std::string kind = name;
    Seq2SeqTrainer trainer;
    Seq2SeqOptions o;
    o.attention = kind;
    o.hidden = 4;
    o.embedding = 3;
    REQUIRE(trainer.init(o).isOk());
    for (const ParamSpec& s : seq2seqLayout(trainer.config())) {
      const Matrix& m = file.matrix(kind + ".param." + s.name);
      REQUIRE(m.rows() == s.rows);
      REQUIRE(m.cols() == s.cols);
      std::copy(m.data(), m.data() + m.size(), trainer.parameters().data() + s.offset);
    }
    // Loss of the batch (padded, packed, sorted) vs NumPy's one example at a time.
    Vector gradient;
    const double loss = trainer.lossAndGradient(trainer.makeBatch(examples), gradient);
    Matrix got(1, 1);
    got(0, 0) = loss;
    CHECK_RELATIVE(got, file.matrix(kind + ".loss"), 1e-12);
    // Greedy decoding with details, one example at a time and as a batch.
    const Seq2SeqWeights w = bindSeq2SeqWeights(trainer.config(), trainer.parameters().data());
    const Seq2SeqBatch batch = trainer.makeBatch(examples);
    const auto decoded = seq2seqGreedy(trainer.config(), w, batch, 10, true);
    for (std::size_t slot = 0; slot < examples.size(); ++slot) {
      const int i = batch.order[slot];
      const std::string key = kind + ".example" + std::to_string(i) + ".";
      const Seq2SeqDecoded& d = decoded[slot];
      const int length = static_cast<int>(file.scalar(key + "greedy_length"));
      REQUIRE(static_cast<int>(d.tokens.size()) == length);
      if (length > 0) {
        const Matrix& want = file.matrix(key + "greedy");
        for (int t = 0; t < length; ++t) CHECK(d.tokens[t] == static_cast<int>(want(0, t)));
        // The numbers behind the chapter's readouts: scores before the softmax, p(y_t).
        CHECK_CLOSE(d.scores, file.matrix(key + "greedy_scores"), 1e-12);
        CHECK_CLOSE(d.probabilities, file.matrix(key + "greedy_probabilities"), 1e-12);
      }
      CHECK_CLOSE(d.encoderOutputs, file.matrix(key + "encoder_outputs"), 1e-12);
      // Teacher-forced attention weights and decoder states of a one-example batch.
      Seq2SeqCache cache;
      const Seq2SeqExample& e = examples[static_cast<std::size_t>(i)];
      seq2seqForward(trainer.config(), w, trainer.makeBatch({e}), cache);
      Matrix weights = cache.attention.weights.leftCols(static_cast<Eigen::Index>(e.input.size()));
      CHECK_CLOSE(weights, file.matrix(key + "attention"), 1e-12);
      CHECK_CLOSE(cache.decOut, file.matrix(key + "decoder_states"), 1e-12);
    }
  }
}

namespace {

std::vector<std::uint8_t> base64File(const std::string& name) {
  std::ifstream in(std::string(ATTENTION_FIXTURES_DIR) + "/" + name);
  REQUIRE(in);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<std::uint8_t> bytes;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (char ch : text) {
    const std::size_t v = alphabet.find(ch);
    if (v == std::string::npos) continue;  // '=', newline
    buffer = buffer << 6 | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push_back(static_cast<std::uint8_t>(buffer >> bits & 0xFF));
    }
  }
  return bytes;
}

}  // namespace

// tests/fixtures/seq2seq-v1-mt19937.b64.txt was written by the wasm build
// before the generators were merged (Seq2SeqRandom: std::mt19937, whose state
// libc++ writes as 624 words): new Seq2SeqTrainer({seed: 3, hidden: 8,
// embedding: 8, batch: 4, attention: 'bahdanau'}), train(7), save().
TEST_CASE("seq2seq checkpoint: a version-1 checkpoint of the former generator loads unchanged",
          "[seq2seq][checkpoint]") {
  const std::vector<std::uint8_t> old = base64File("seq2seq-v1-mt19937.b64.txt");
  REQUIRE(old.size() == 22539u);
  Seq2SeqTrainer t;
  REQUIRE(t.load(old.data(), old.size()).isOk());
  CHECK(t.steps() == 7u);
  CHECK(t.options().attention == "bahdanau");
  CHECK(t.options().seed == 3u);
  // Same weights, same generator states, same format: the bytes come back identical.
  CHECK(t.save() == old);
  std::string output;
  Seq2SeqDecoded details;
  REQUIRE(t.translate("21 nov 2026", output, details).isOk());
  CHECK(output == "101-10-10-");  // what the former build printed for this checkpoint
  double loss = 0;
  REQUIRE(t.train(2, loss).isOk());
  CHECK(std::isfinite(loss));
}

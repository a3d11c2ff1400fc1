#include "seq2seq_trainer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "checkpoint_io.h"

namespace attention {

namespace {

constexpr char kMagic[4] = {'A', '2', 'S', '2'};
const checkpoint::Frame kFrame("seq2seq", kMagic, kSeq2SeqCheckpointVersion);
constexpr double kClipNorm = 5.0;
constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kAdamEps = 1e-8;
constexpr int kMaxTrainSteps = 100000;
// One train() call does at most this much work, counted in examples of the
// default size (hidden 64, embedding 32): 6,250 default steps, about three
// minutes at the ~35 steps/s measured in Node here, with any options, so no
// call can block a thread for hours. Longer training is a loop of calls,
// which also lets a page stay responsive and stop between them.
constexpr double kMaxTrainWork = 2e5;

double workPerExample(const Seq2SeqOptions& o) {
  return static_cast<double>(o.hidden) * (o.hidden + o.embedding) / (64.0 * (64 + 32));
}
constexpr int kEvalChunk = 100;

using checkpoint::Reader;
using checkpoint::Writer;

void initialise(const Seq2SeqConfig& config, Vector& params, RandomState& rng) {
  params = Vector::Zero(static_cast<Eigen::Index>(seq2seqParamCount(config)));
  for (const ParamSpec& s : seq2seqLayout(config)) {
    const bool bias = s.rows == 1 && s.name != "att.v";
    if (bias) continue;  // biases start at 0
    const bool embedding = s.name == "enc.embed" || s.name == "dec.embed";
    // Embeddings ~ U(-1, 1); weight matrices ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
    const double scale = embedding ? 1.0 : 1.0 / std::sqrt(static_cast<double>(s.rows));
    for (std::size_t i = 0; i < static_cast<std::size_t>(s.rows) * s.cols; ++i) {
      params[static_cast<Eigen::Index>(s.offset + i)] = rng.uniform(-scale, scale);
    }
  }
}

}  // namespace

Status validateSeq2SeqOptions(const Seq2SeqOptions& o) {
  ScoreKind kind;
  // Unknown names are values out of range (RangeError in JS), like the sizes below.
  RETURN_IF_ERROR(checkSeq2SeqTaskName(o.task));
  if (!parseScoreKind(o.attention, kind)) {
    return Status::invalidValue(
        "attention must be one of 'bahdanau', 'luong-dot', 'luong-general', 'luong-concat', got '" +
        o.attention + "'");
  }
  if (o.hidden < 1 || o.hidden > 256) {
    return Status::invalidValue("hidden must be an integer in [1, 256], got " +
                                std::to_string(o.hidden));
  }
  if (o.embedding < 1 || o.embedding > 256) {
    return Status::invalidValue("embedding must be an integer in [1, 256], got " +
                                std::to_string(o.embedding));
  }
  if (o.batch < 1 || o.batch > 512) {
    return Status::invalidValue("batch must be an integer in [1, 512], got " +
                                std::to_string(o.batch));
  }
  if (!(o.learningRate > 0 && o.learningRate <= 1)) {
    char shown[32];
    std::snprintf(shown, sizeof shown, "%g", o.learningRate);
    if (std::isnan(o.learningRate)) std::snprintf(shown, sizeof shown, "NaN");  // as JS says it
    return Status::invalidValue(std::string("learningRate must be in (0, 1], got ") + shown);
  }
  return Status::ok();
}

Status Seq2SeqTrainer::init(const Seq2SeqOptions& options) {
  RETURN_IF_ERROR(validateSeq2SeqOptions(options));
  std::unique_ptr<Seq2SeqTask> task;
  RETURN_IF_ERROR(makeSeq2SeqTask(options.task, task));
  options_ = options;
  task_ = std::move(task);
  config_.inputVocab = 1 + static_cast<int>(task_->inputAlphabet().size());
  config_.outputVocab = 2 + static_cast<int>(task_->outputAlphabet().size());
  config_.embedding = options.embedding;
  config_.hidden = options.hidden;
  parseScoreKind(options.attention, config_.score);
  rng_ = RandomState(options.seed);
  sampler_ = RandomState(options.seed ^ 0x9E3779B9u);
  initialise(config_, params_, rng_);
  grad_ = Vector::Zero(params_.size());
  adamM_ = Vector::Zero(params_.size());
  adamV_ = Vector::Zero(params_.size());
  adamT_ = 0;
  steps_ = 0;
  return Status::ok();
}

Seq2SeqBatch Seq2SeqTrainer::makeBatch(const std::vector<Seq2SeqExample>& examples) const {
  Seq2SeqBatch batch;
  const int B = static_cast<int>(examples.size());
  batch.batch = B;
  // Longest input first (stable), so the examples still reading at step j are a prefix.
  batch.order.resize(static_cast<std::size_t>(B));
  for (int b = 0; b < B; ++b) batch.order[b] = b;
  std::stable_sort(batch.order.begin(), batch.order.end(), [&](int x, int y) {
    return examples[static_cast<std::size_t>(x)].input.size() >
           examples[static_cast<std::size_t>(y)].input.size();
  });
  for (const Seq2SeqExample& e : examples) {
    batch.inSteps = std::max(batch.inSteps, static_cast<int>(e.input.size()));
    batch.outSteps = std::max(batch.outSteps, static_cast<int>(e.target.size()) + 1);
  }
  const std::size_t inSize = static_cast<std::size_t>(batch.inSteps) * B;
  const std::size_t outSize = static_cast<std::size_t>(batch.outSteps) * B;
  batch.source.assign(inSize, 0);
  batch.reversed.assign(inSize, 0);
  batch.sourceLength.assign(static_cast<std::size_t>(B), 0);
  batch.active.assign(static_cast<std::size_t>(batch.inSteps), 0);
  batch.decoderInput.assign(outSize, kEndToken);
  batch.target.assign(outSize, kEndToken);
  batch.mask.assign(outSize, 0.0);
  const std::string& in = task_->inputAlphabet();
  const std::string& out = task_->outputAlphabet();
  for (int b = 0; b < B; ++b) {
    const Seq2SeqExample& e = examples[static_cast<std::size_t>(batch.order[b])];
    const std::size_t n = e.input.size();
    batch.sourceLength[b] = static_cast<int>(n);
    for (std::size_t t = 0; t < n; ++t) {
      const int id = 1 + static_cast<int>(in.find(e.input[t]));
      batch.source[t * B + b] = id;
      batch.reversed[(n - 1 - t) * B + b] = id;
      ++batch.active[t];
    }
    const std::size_t m = e.target.size();
    for (std::size_t t = 0; t <= m; ++t) {
      const int previous = t == 0 ? kStartToken : 2 + static_cast<int>(out.find(e.target[t - 1]));
      batch.decoderInput[t * B + b] = previous;
      batch.target[t * B + b] = t == m ? kEndToken : 2 + static_cast<int>(out.find(e.target[t]));
      batch.mask[t * B + b] = 1.0;
    }
  }
  return batch;
}

double Seq2SeqTrainer::lossAndGradient(const Seq2SeqBatch& batch, Vector& gradient) {
  Seq2SeqWeights w = bindSeq2SeqWeights(config_, params_.data());
  const double loss = seq2seqForward(config_, w, batch, cache_);
  gradient = Vector::Zero(params_.size());
  Seq2SeqWeights g = bindSeq2SeqWeights(config_, gradient.data());
  seq2seqBackward(config_, w, batch, cache_, g);
  return loss;
}

void Seq2SeqTrainer::adamStep() {
  const double norm = grad_.norm();
  if (norm > kClipNorm) grad_ *= kClipNorm / norm;
  ++adamT_;
  adamM_ = kBeta1 * adamM_ + (1 - kBeta1) * grad_;
  adamV_ = kBeta2 * adamV_ + (1 - kBeta2) * grad_.cwiseAbs2();
  const double c1 = 1 - std::pow(kBeta1, static_cast<double>(adamT_));
  const double c2 = 1 - std::pow(kBeta2, static_cast<double>(adamT_));
  params_.array() -=
      options_.learningRate * (adamM_.array() / c1) / ((adamV_.array() / c2).sqrt() + kAdamEps);
}

Status Seq2SeqTrainer::train(int steps, double& meanLoss) {
  if (!ready()) return Status::invalidArgument("the trainer is not initialised");
  if (steps < 1 || steps > kMaxTrainSteps) {
    return Status::invalidValue("steps must be an integer in [1, " +
                                std::to_string(kMaxTrainSteps) + "], got " + std::to_string(steps));
  }
  const double perStep = options_.batch * workPerExample(options_);
  if (steps * perStep > kMaxTrainWork) {
    const int most = std::max(1, static_cast<int>(kMaxTrainWork / perStep));
    return Status::invalidValue(
        "steps = " + std::to_string(steps) + " with batch " + std::to_string(options_.batch) +
        ", hidden " + std::to_string(options_.hidden) + " and embedding " +
        std::to_string(options_.embedding) + " is more work than one call may do (at most " +
        std::to_string(most) + " steps with these options); train in a loop of shorter calls");
  }
  std::vector<Seq2SeqExample> examples(static_cast<std::size_t>(options_.batch));
  double total = 0;
  for (int s = 0; s < steps; ++s) {
    for (Seq2SeqExample& e : examples) e = task_->draw(rng_);
    total += lossAndGradient(makeBatch(examples), grad_);
    adamStep();
    ++steps_;
  }
  meanLoss = total / steps;
  return Status::ok();
}

Status Seq2SeqTrainer::evaluate(int n, double& accuracy) {
  if (!ready()) return Status::invalidArgument("the trainer is not initialised");
  const auto& held = task_->heldOut();
  if (n < 1 || n > static_cast<int>(held.size())) {
    return Status::invalidValue("n must be an integer in [1, " + std::to_string(held.size()) +
                                "] (the held-out set's size), got " + std::to_string(n));
  }
  const Seq2SeqWeights w = bindSeq2SeqWeights(config_, params_.data());
  const std::string& alphabet = task_->outputAlphabet();
  int correct = 0;
  for (int start = 0; start < n; start += kEvalChunk) {
    const int end = std::min(n, start + kEvalChunk);
    const std::vector<Seq2SeqExample> chunk(held.begin() + start, held.begin() + end);
    const Seq2SeqBatch batch = makeBatch(chunk);
    const auto decoded = seq2seqGreedy(config_, w, batch, task_->maxOutputLength(), false);
    for (std::size_t i = 0; i < chunk.size(); ++i) {
      std::string text;
      for (int id : decoded[i].tokens) text += id >= 2 ? alphabet[id - 2] : '?';
      if (text == chunk[static_cast<std::size_t>(batch.order[i])].target) ++correct;
    }
  }
  accuracy = static_cast<double>(correct) / n;
  return Status::ok();
}

Status Seq2SeqTrainer::translate(const std::string& input, std::string& output,
                                 Seq2SeqDecoded& details) {
  if (!ready()) return Status::invalidArgument("the trainer is not initialised");
  RETURN_IF_ERROR(task_->validateInput(input, "input"));
  const Seq2SeqWeights w = bindSeq2SeqWeights(config_, params_.data());
  auto decoded =
      seq2seqGreedy(config_, w, makeBatch({{input, ""}}), task_->maxOutputLength(), true);
  details = std::move(decoded[0]);
  output.clear();
  for (int id : details.tokens) output += id >= 2 ? task_->outputAlphabet()[id - 2] : '?';
  return Status::ok();
}

const Seq2SeqExample& Seq2SeqTrainer::sample() {
  const auto& held = task_->heldOut();
  return held[sampler_.below(static_cast<std::uint32_t>(held.size()))];
}

std::vector<std::uint8_t> Seq2SeqTrainer::save() const {
  Writer w = kFrame.begin();
  w.str(options_.task);
  w.str(options_.attention);
  w.u32(static_cast<std::uint32_t>(options_.hidden));
  w.u32(static_cast<std::uint32_t>(options_.embedding));
  w.u32(static_cast<std::uint32_t>(options_.batch));
  w.f64(options_.learningRate);
  w.u32(options_.seed);
  return kFrame.finish(w, steps_, rng_.state(), sampler_.state(), params_);
}

Status Seq2SeqTrainer::load(const std::uint8_t* bytes, std::size_t size) {
  Reader r;
  RETURN_IF_ERROR(kFrame.open(bytes, size, r));
  Seq2SeqOptions o;
  checkpoint::Tail tail;
  if (!r.str(o.task, 64) || !r.str(o.attention, 64) || !r.i32(o.hidden) || !r.i32(o.embedding) ||
      !r.i32(o.batch) || !r.f64(o.learningRate) || !r.u32(o.seed) ||
      !checkpoint::Frame::readTail(r, tail)) {
    return kFrame.corrupt("truncated header");
  }
  const Status valid = validateSeq2SeqOptions(o);
  if (!valid.isOk()) return kFrame.corrupt(valid.message);
  Seq2SeqTrainer fresh;
  RETURN_IF_ERROR(fresh.init(o));
  RETURN_IF_ERROR(kFrame.readParams(r, size, tail, fresh.params_));
  if (!fresh.rng_.setState(tail.generator) || !fresh.sampler_.setState(tail.sampler)) {
    return kFrame.corrupt("bad generator state");
  }
  fresh.steps_ = tail.steps;
  *this = std::move(fresh);
  return Status::ok();
}

}  // namespace attention

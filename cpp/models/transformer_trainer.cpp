#include "transformer_trainer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "checkpoint_io.h"

namespace attention {

namespace {

using checkpoint::Reader;
using checkpoint::Writer;

constexpr char kMagic[4] = {'A', '2', 'T', 'F'};
const checkpoint::Frame kFrame("transformer", kMagic, kTransformerCheckpointVersion);
// Adam as in the paper: beta1 0.9, beta2 0.98, epsilon 1e-9.
constexpr double kBeta1 = 0.9, kBeta2 = 0.98, kAdamEps = 1e-9;
constexpr int kMaxTrainSteps = 100000;
// One train() call does at most this much work, counted in examples of the
// default size (2 + 2 layers, d_model 32, d_ff 64): 7,812 default steps, a few
// minutes in Node, with any options; longer training is a loop of calls (which
// also lets a page stay responsive and stop between them).
constexpr double kMaxTrainWork = 2.5e5;

// Multiply-adds per token, relative to the defaults: attention projections and
// products ~12·d², feed-forward ~4·d·d_ff, per layer pair.
double workPerExample(const TransformerOptions& o) {
  const auto perLayer = [](double d, double ff) { return 12 * d * d + 4 * d * ff; };
  return o.layers * perLayer(o.dModel, o.dFF) / (2 * perLayer(32, 64));
}
constexpr int kEvalChunk = 100;

bool endsWith(const std::string& s, const char* suffix) {
  const std::size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// Embeddings ~ N(0, 1/D) (so embedding * sqrt(D) has unit scale, like the
// positional encoding); weight matrices ~ Glorot uniform U(-a, a),
// a = sqrt(6 / (fan_in + fan_out)); layer-norm gains 1; biases and shifts 0.
// Every draw from `rng` (RandomState, NumPy's stream), in layout order.
void initialise(const TransformerConfig& config, Vector& params, RandomState& rng) {
  params = Vector::Zero(static_cast<Eigen::Index>(transformerParamCount(config)));
  for (const ParamSpec& s : transformerLayout(config)) {
    const std::size_t n = static_cast<std::size_t>(s.rows) * s.cols;
    double* p = params.data() + s.offset;
    if (endsWith(s.name, ".embed")) {
      const double scale = 1.0 / std::sqrt(static_cast<double>(config.dModel));
      for (std::size_t i = 0; i < n; ++i) p[i] = rng.nextGauss() * scale;
    } else if (endsWith(s.name, ".gamma")) {
      std::fill(p, p + n, 1.0);
    } else if (s.rows > 1) {
      const double a = std::sqrt(6.0 / (s.rows + s.cols));
      for (std::size_t i = 0; i < n; ++i) p[i] = rng.uniform(-a, a);
    }
  }
}

std::string shown(double x) {
  if (std::isnan(x)) return "NaN";  // as JS says it
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

Status intInRange(const char* name, int value, int lo, int hi) {
  if (value < lo || value > hi) {
    return Status::invalidValue(std::string(name) + " must be an integer in [" +
                                std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
                                std::to_string(value));
  }
  return Status::ok();
}

}  // namespace

Status validateTransformerOptions(const TransformerOptions& o) {
  RETURN_IF_ERROR(checkSeq2SeqTaskName(o.task));
  RETURN_IF_ERROR(intInRange("layers", o.layers, 1, 6));
  RETURN_IF_ERROR(intInRange("heads", o.heads, 1, 16));
  RETURN_IF_ERROR(intInRange("dModel", o.dModel, 2, 256));
  if (o.dModel % 2 != 0) {
    return Status::invalidValue("dModel must be even (sine and cosine pairs), got " +
                                std::to_string(o.dModel));
  }
  if (o.dModel % o.heads != 0) {
    return Status::invalidValue("heads = " + std::to_string(o.heads) +
                                " must divide dModel = " + std::to_string(o.dModel));
  }
  RETURN_IF_ERROR(intInRange("dFF", o.dFF, 1, 1024));
  RETURN_IF_ERROR(intInRange("batch", o.batch, 1, 512));
  if (o.schedule != "warmup" && o.schedule != "constant") {
    return Status::invalidValue("schedule must be one of 'warmup', 'constant', got '" + o.schedule +
                                "'");
  }
  if (!(o.learningRate > 0 && o.learningRate <= 10)) {
    return Status::invalidValue("learningRate must be in (0, 10], got " + shown(o.learningRate));
  }
  RETURN_IF_ERROR(intInRange("warmup", o.warmup, 1, 100000));
  if (!(o.labelSmoothing >= 0 && o.labelSmoothing < 1)) {
    return Status::invalidValue("labelSmoothing must be in [0, 1), got " + shown(o.labelSmoothing));
  }
  return Status::ok();
}

void appendSourceIds(const Seq2SeqTask& task, const std::string& input, std::vector<int>& ids) {
  for (char ch : input) ids.push_back(1 + static_cast<int>(task.inputAlphabet().find(ch)));
}

Status TransformerTrainer::init(const TransformerOptions& options) {
  RETURN_IF_ERROR(validateTransformerOptions(options));
  std::unique_ptr<Seq2SeqTask> task;
  RETURN_IF_ERROR(makeSeq2SeqTask(options.task, task));
  options_ = options;
  task_ = std::move(task);
  config_.inputVocab = 1 + static_cast<int>(task_->inputAlphabet().size());
  config_.outputVocab = 2 + static_cast<int>(task_->outputAlphabet().size());
  config_.layers = options.layers;
  config_.heads = options.heads;
  config_.dModel = options.dModel;
  config_.dFF = options.dFF;
  config_.maxLength = std::max(task_->maxInputLength(), task_->maxOutputLength() + 1);
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

TransformerBatch TransformerTrainer::makeBatch(const std::vector<Seq2SeqExample>& examples) const {
  TransformerBatch batch;
  const std::string& out = task_->outputAlphabet();
  for (const Seq2SeqExample& e : examples) {
    batch.source.add(static_cast<int>(e.input.size()));
    appendSourceIds(*task_, e.input, batch.sourceIds);
    batch.target.add(static_cast<int>(e.target.size()) + 1);
    batch.decoderInput.push_back(kStartToken);
    for (char ch : e.target) {
      const int id = 2 + static_cast<int>(out.find(ch));
      batch.decoderInput.push_back(id);
      batch.targetIds.push_back(id);
    }
    batch.targetIds.push_back(kEndToken);
  }
  return batch;
}

double TransformerTrainer::lossAndGradient(const TransformerBatch& batch, Vector& gradient) {
  const TransformerWeights w = bindTransformerWeights(config_, params_.data());
  const double loss = transformerForward(config_, w, batch, options_.labelSmoothing, cache_);
  gradient = Vector::Zero(params_.size());
  TransformerWeights g = bindTransformerWeights(config_, gradient.data());
  transformerBackward(config_, w, batch, options_.labelSmoothing, cache_, g);
  return loss;
}

double TransformerTrainer::rateAt(std::uint64_t step) const {
  if (options_.schedule == "constant") return options_.learningRate;
  const double s = static_cast<double>(std::max<std::uint64_t>(step, 1));
  const double w = options_.warmup;
  return options_.learningRate / std::sqrt(static_cast<double>(options_.dModel)) *
         std::min(1.0 / std::sqrt(s), s * std::pow(w, -1.5));
}

void TransformerTrainer::adamStep() {
  ++adamT_;
  const double rate = rateAt(steps_ + 1);
  adamM_ = kBeta1 * adamM_ + (1 - kBeta1) * grad_;
  adamV_ = kBeta2 * adamV_ + (1 - kBeta2) * grad_.cwiseAbs2();
  const double c1 = 1 - std::pow(kBeta1, static_cast<double>(adamT_));
  const double c2 = 1 - std::pow(kBeta2, static_cast<double>(adamT_));
  params_.array() -= rate * (adamM_.array() / c1) / ((adamV_.array() / c2).sqrt() + kAdamEps);
}

Status TransformerTrainer::train(int steps, std::vector<double>& losses) {
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
        ", layers " + std::to_string(options_.layers) + ", dModel " +
        std::to_string(options_.dModel) + " and dFF " + std::to_string(options_.dFF) +
        " is more work than one call may do (at most " + std::to_string(most) +
        " steps with these options); train in a loop of shorter calls");
  }
  std::vector<Seq2SeqExample> examples(static_cast<std::size_t>(options_.batch));
  losses.clear();
  for (int s = 0; s < steps; ++s) {
    for (Seq2SeqExample& e : examples) e = task_->draw(rng_);
    losses.push_back(lossAndGradient(makeBatch(examples), grad_));
    adamStep();
    ++steps_;
  }
  return Status::ok();
}

Status TransformerTrainer::evaluate(int n, double& accuracy) {
  if (!ready()) return Status::invalidArgument("the trainer is not initialised");
  const auto& held = task_->heldOut();
  if (n < 1 || n > static_cast<int>(held.size())) {
    return Status::invalidValue("n must be an integer in [1, " + std::to_string(held.size()) +
                                "] (the held-out set's size), got " + std::to_string(n));
  }
  const TransformerWeights w = bindTransformerWeights(config_, params_.data());
  const std::string& alphabet = task_->outputAlphabet();
  int correct = 0;
  for (int start = 0; start < n; start += kEvalChunk) {
    const int end = std::min(n, start + kEvalChunk);
    PackedLayout source;
    std::vector<int> ids;
    for (int i = start; i < end; ++i) {
      source.add(static_cast<int>(held[i].input.size()));
      appendSourceIds(*task_, held[i].input, ids);
    }
    const auto decoded =
        transformerGreedy(config_, w, source, ids, task_->maxOutputLength(), false);
    for (int i = start; i < end; ++i) {
      std::string text;
      for (int id : decoded[i - start].tokens) text += id >= 2 ? alphabet[id - 2] : '?';
      if (text == held[i].target) ++correct;
    }
  }
  accuracy = static_cast<double>(correct) / n;
  return Status::ok();
}

Status TransformerTrainer::translate(const std::string& input, std::string& output,
                                     TransformerDecoded& details) {
  if (!ready()) return Status::invalidArgument("the trainer is not initialised");
  RETURN_IF_ERROR(task_->validateInput(input, "input"));
  const TransformerWeights w = bindTransformerWeights(config_, params_.data());
  PackedLayout source;
  source.add(static_cast<int>(input.size()));
  std::vector<int> ids;
  appendSourceIds(*task_, input, ids);
  auto decoded = transformerGreedy(config_, w, source, ids, task_->maxOutputLength(), true);
  details = std::move(decoded[0]);
  output.clear();
  for (int id : details.tokens) output += id >= 2 ? task_->outputAlphabet()[id - 2] : '?';
  return Status::ok();
}

const Seq2SeqExample& TransformerTrainer::sample() {
  const auto& held = task_->heldOut();
  return held[sampler_.below(static_cast<std::uint32_t>(held.size()))];
}

std::vector<std::uint8_t> TransformerTrainer::save() const {
  Writer w = kFrame.begin();
  w.str(options_.task);
  w.str(options_.schedule);
  for (int x : {options_.layers, options_.heads, options_.dModel, options_.dFF, options_.batch,
                options_.warmup}) {
    w.u32(static_cast<std::uint32_t>(x));
  }
  w.f64(options_.learningRate);
  w.f64(options_.labelSmoothing);
  w.u32(options_.seed);
  return kFrame.finish(w, steps_, rng_.state(), sampler_.state(), params_);
}

Status TransformerTrainer::load(const std::uint8_t* bytes, std::size_t size) {
  Reader r;
  RETURN_IF_ERROR(kFrame.open(bytes, size, r));
  TransformerOptions o;
  checkpoint::Tail tail;
  if (!r.str(o.task, 64) || !r.str(o.schedule, 64) || !r.i32(o.layers) || !r.i32(o.heads) ||
      !r.i32(o.dModel) || !r.i32(o.dFF) || !r.i32(o.batch) || !r.i32(o.warmup) ||
      !r.f64(o.learningRate) || !r.f64(o.labelSmoothing) || !r.u32(o.seed) ||
      !checkpoint::Frame::readTail(r, tail)) {
    return kFrame.corrupt("truncated header");
  }
  const Status valid = validateTransformerOptions(o);
  if (!valid.isOk()) return kFrame.corrupt(valid.message);
  TransformerTrainer fresh;
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

// Trainer<Model>'s member functions (trainer.h). Included only by the model
// trainers' .cpp files, which instantiate Trainer<Model> once each.
#pragma once

#include <utility>

#include "checkpoint_io.h"
#include "trainer.h"

namespace attention {

namespace training {
template <class Model>
const checkpoint::Frame& frame() {
  static const checkpoint::Frame f(Model::kKind, Model::kMagic, Model::kVersion);
  return f;
}
constexpr int kEvalChunk = 100;  // held-out examples decoded together

template <class Model>
Status checkStepSize(const typename Model::Options& o) {
  return checkStepSize(o.batch, model::workPerExample<Model>(o), Model::kMaxStepWork,
                       model::bytesPerExample<Model>(o), Model::kMaxStepBytes,
                       model::describeSizes<Model>(o));
}
}  // namespace training

template <class Model>
double Trainer<Model>::rateAt(std::uint64_t step) const {
  return model::rateAt<Model>(options_, step);
}

template <class Model>
typename Model::Batch Trainer<Model>::makeBatch(const std::vector<Seq2SeqExample>& examples) const {
  return model::makeBatch<Model>(*task_, examples);
}

template <class Model>
double Trainer<Model>::lossAndGradient(const Batch& batch, Vector& gradient) {
  return model::lossAndGradient<Model>(config_, options_, params_, batch, cache_, gradient);
}

template <class Model>
Status Trainer<Model>::init(const Options& options) {
  RETURN_IF_ERROR(model::validate<Model>(options));
  RETURN_IF_ERROR(training::checkStepSize<Model>(options));
  std::unique_ptr<Seq2SeqTask> task;
  RETURN_IF_ERROR(makeSeq2SeqTask(options.task, task));
  options_ = options;
  task_ = std::move(task);
  config_ = model::configure<Model>(options_, *task_);
  // Every model's ids: inputs 0 = padding, 1 + k = character k of the input
  // alphabet; outputs 0 = <end>, 1 = <start>, 2 + k = character k (tokensToText).
  config_.inputVocab = 1 + static_cast<int>(task_->inputAlphabet().size());
  config_.outputVocab = 2 + static_cast<int>(task_->outputAlphabet().size());
  rng_ = RandomState(options.seed);
  sampler_ = RandomState(options.seed ^ 0x9E3779B9u);
  model::initialise<Model>(config_, params_, rng_);
  grad_ = Vector::Zero(params_.size());
  adam_.reset(params_.size());
  steps_ = 0;
  return Status::ok();
}

template <class Model>
Status Trainer<Model>::train(int steps, std::vector<double>& losses) {
  if (!ready()) return training::notInitialised();
  RETURN_IF_ERROR(training::checkSteps(
      steps, options_.batch, options_.batch * model::workPerExample<Model>(options_),
      Model::kMaxTrainWork, model::describeSizes<Model>(options_)));
  if (steps_ > training::kMaxStepCount - static_cast<std::uint64_t>(steps)) {
    return Status::invalidValue("the step count " + std::to_string(steps_) +
                                " cannot grow past 2^53 - 1");
  }
  std::vector<Seq2SeqExample> examples(static_cast<std::size_t>(options_.batch));
  losses.clear();
  try {
    for (int s = 0; s < steps; ++s) {
      for (Seq2SeqExample& e : examples) e = task_->draw(rng_);
      losses.push_back(lossAndGradient(makeBatch(examples), grad_));
      adam_.step(Model::kAdam, rateAt(steps_ + 1), grad_, params_);
      ++steps_;
    }
  } catch (...) {
    // A step that ran out of memory must not keep what it got: other calls need it.
    cache_ = typename Model::Cache();
    throw;
  }
  return Status::ok();
}

template <class Model>
Status Trainer<Model>::train(int steps, double& meanLoss) {
  std::vector<double> losses;
  RETURN_IF_ERROR(train(steps, losses));
  double total = 0;
  for (double loss : losses) total += loss;
  meanLoss = total / steps;
  return Status::ok();
}

template <class Model>
Status Trainer<Model>::evaluate(int n, double& accuracy) {
  if (!ready()) return training::notInitialised();
  const auto& held = task_->heldOut();
  RETURN_IF_ERROR(
      training::checkEvaluateCount(n, held.size(), model::workPerExample<Model>(options_),
                                   Model::kMaxEvaluateWork, model::describeSizes<Model>(options_)));
  int correct = 0;
  for (int start = 0; start < n; start += training::kEvalChunk) {
    const int end = std::min(n, start + training::kEvalChunk);
    const std::vector<Seq2SeqExample> chunk(held.begin() + start, held.begin() + end);
    const auto decoded = model::decode<Model>(config_, params_, *task_, chunk, false);
    for (std::size_t i = 0; i < chunk.size(); ++i) {
      if (training::tokensToText(decoded[i].tokens, task_->outputAlphabet()) == chunk[i].target) {
        ++correct;
      }
    }
  }
  accuracy = static_cast<double>(correct) / n;
  return Status::ok();
}

template <class Model>
Status Trainer<Model>::translate(const std::string& input, std::string& output, Decoded& details) {
  if (!ready()) return training::notInitialised();
  RETURN_IF_ERROR(task_->validateInput(input, "input"));
  auto decoded = model::decode<Model>(config_, params_, *task_, {{input, ""}}, true);
  details = std::move(decoded[0]);
  output = training::tokensToText(details.tokens, task_->outputAlphabet());
  return Status::ok();
}

template <class Model>
const Seq2SeqExample& Trainer<Model>::sample() {
  const auto& held = task_->heldOut();
  return held[sampler_.below(static_cast<std::uint32_t>(held.size()))];
}

template <class Model>
std::vector<std::uint8_t> Trainer<Model>::save() const {
  const checkpoint::Frame& frame = training::frame<Model>();
  checkpoint::Writer w = frame.begin();
  model::writeOptions<Model>(w, options_);
  return frame.finish(w, steps_, rng_.state(), sampler_.state(), params_);
}

template <class Model>
Status Trainer<Model>::load(const std::uint8_t* bytes, std::size_t size) {
  const checkpoint::Frame& frame = training::frame<Model>();
  checkpoint::Reader r;
  RETURN_IF_ERROR(frame.open(bytes, size, r));
  Options o;
  checkpoint::Tail tail;
  if (!model::readOptions<Model>(r, o) || !checkpoint::Frame::readTail(r, tail)) {
    return frame.corrupt("truncated header");
  }
  const Status valid = model::validate<Model>(o);
  if (!valid.isOk()) return frame.corrupt(valid.message);
  if (tail.steps > training::kMaxStepCount) {
    return frame.corrupt("step count " + std::to_string(tail.steps) + " is more than 2^53 - 1");
  }
  Trainer fresh;
  RETURN_IF_ERROR(fresh.init(o));
  RETURN_IF_ERROR(frame.readParams(r, size, tail, fresh.params_));
  if (!fresh.rng_.setState(tail.generator) || !fresh.sampler_.setState(tail.sampler)) {
    return frame.corrupt("bad generator state");
  }
  fresh.steps_ = tail.steps;
  *this = std::move(fresh);
  return Status::ok();
}

}  // namespace attention

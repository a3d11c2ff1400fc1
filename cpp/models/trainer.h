// The one trainer of a model on a task of seq2seq_tasks.h: options checked and
// the task built in init(), mini-batches drawn by a seeded generator, teacher
// forcing, Adam, greedy evaluation on the task's held-out set, translation with
// the model's details, a seeded sampler of held-out examples, and checkpoints.
// Single-threaded and deterministic: the same options give the same losses bit
// for bit on one build.
//
// What differs between models is a `Model` (Seq2SeqTraining in
// seq2seq_trainer.h, TransformerTraining in transformer_trainer.h): its types
// (ModelTypes), its constants (kKind, kMagic[4], kVersion of the checkpoint
// frame; kAdam; kMaxTrainWork, one train() call's work in default-size
// examples) and the functions declared in `model` below, which its trainer .cpp
// specialises. That .cpp also instantiates Trainer<Model> (trainer_impl.h)
// once, compiled -O3; no other file does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ops/random_state.h"
#include "ops/status.h"
#include "ops/tensor.h"
#include "seq2seq_tasks.h"

namespace attention {

namespace checkpoint {
class Reader;
class Writer;
}  // namespace checkpoint

// Adam's constants; clipNorm > 0 rescales the gradient to that global norm first.
struct AdamSettings {
  double beta1, beta2, epsilon, clipNorm;
};

// Adam's moment estimates over one parameter vector.
class Adam {
 public:
  void reset(Eigen::Index size);
  // One step of size `rate`; `gradient` is clipped in place when the settings say so.
  void step(const AdamSettings& settings, double rate, Vector& gradient, Vector& params);

 private:
  Vector m_, v_;
  std::uint64_t t_ = 0;
};

// The types a model trains with.
template <class OptionsT, class ConfigT, class BatchT, class CacheT, class DecodedT>
struct ModelTypes {
  using Options = OptionsT;
  using Config = ConfigT;
  using Batch = BatchT;
  using Cache = CacheT;
  using Decoded = DecodedT;  // has `tokens`, the emitted ids without the final <end>
};

// What each model defines (explicit specialisations in its trainer .cpp).
namespace model {
template <class M>
Status validate(const typename M::Options& options);
// The model's sizes from the options (Trainer sets the vocabularies from the task).
template <class M>
typename M::Config configure(const typename M::Options& options, const Seq2SeqTask& task);
// The parameters, sized by the config, drawn from `rng`.
template <class M>
void initialise(const typename M::Config& config, Vector& params, RandomState& rng);
// One example's work relative to the default options (for kMaxTrainWork, kMaxStepWork and
// kMaxEvaluateWork): measured CPU time, not only multiply-adds, so tiny sizes with a large
// batch are not taken for free.
template <class M>
double workPerExample(const typename M::Options& options);
// A training step's workspace per example, in bytes, an upper estimate (for kMaxStepBytes).
template <class M>
double bytesPerExample(const typename M::Options& options);
// The options that set that work, for messages: ", hidden 64 and embedding 32".
template <class M>
std::string describeSizes(const typename M::Options& options);
// Adam's rate at `step` (1-based).
template <class M>
double rateAt(const typename M::Options& options, std::uint64_t step);
template <class M>
typename M::Batch makeBatch(const Seq2SeqTask& task, const std::vector<Seq2SeqExample>& examples);
template <class M>
double lossAndGradient(const typename M::Config& config, const typename M::Options& options,
                       Vector& params, const typename M::Batch& batch, typename M::Cache& cache,
                       Vector& gradient);
// Greedy decoding, one result per example in the examples' order.
template <class M>
std::vector<typename M::Decoded> decode(const typename M::Config& config, Vector& params,
                                        const Seq2SeqTask& task,
                                        const std::vector<Seq2SeqExample>& examples, bool details);
// The options' part of the checkpoint.
template <class M>
void writeOptions(checkpoint::Writer& w, const typename M::Options& options);
template <class M>
bool readOptions(checkpoint::Reader& r, typename M::Options& options);
}  // namespace model

template <class Model>
class Trainer {
 public:
  using Options = typename Model::Options;
  using Config = typename Model::Config;
  using Batch = typename Model::Batch;
  using Decoded = typename Model::Decoded;

  // Validates the options, builds the task, initialises the weights from the seed.
  Status init(const Options& options);
  // Rebuilds a trainer from save()'s bytes; on failure the trainer is unchanged.
  Status load(const std::uint8_t* bytes, std::size_t size);
  std::vector<std::uint8_t> save() const;

  // Runs `steps` (1..100000) mini-batches; losses receives each one's loss. If a step fails
  // (std::bad_alloc), its workspace is freed before the exception leaves.
  Status train(int steps, std::vector<double>& losses);
  // The same; meanLoss = the mean of their losses.
  Status train(int steps, double& meanLoss);
  // Exact-match accuracy of greedy decoding on the first n (1..held-out size) held-out examples.
  Status evaluate(int n, double& accuracy);
  // Greedy translation of one input, with the details the chapter plots.
  Status translate(const std::string& input, std::string& output, Decoded& details);
  // A held-out example chosen by the trainer's sampler (its own seeded stream).
  const Seq2SeqExample& sample();
  // The learning rate of step `step` (1-based) under the options.
  double rateAt(std::uint64_t step) const;

  bool ready() const { return task_ != nullptr; }
  const Options& options() const { return options_; }
  const Seq2SeqTask& task() const { return *task_; }
  const Config& config() const { return config_; }
  std::uint64_t steps() const { return steps_; }

  // For tests: the parameters, a batch made of given examples, and a loss with its gradient.
  Vector& parameters() { return params_; }
  const Vector& parameters() const { return params_; }
  Batch makeBatch(const std::vector<Seq2SeqExample>& examples) const;
  double lossAndGradient(const Batch& batch, Vector& gradient);

 private:
  Options options_;
  std::unique_ptr<Seq2SeqTask> task_;
  Config config_;
  Vector params_, grad_;
  Adam adam_;
  std::uint64_t steps_ = 0;
  RandomState rng_, sampler_;
  typename Model::Cache cache_;
};

// The checks and text every trainer shares (trainer.cpp).
namespace training {
Status notInitialised();
// "<name> must be an integer in [lo, hi], got <value>" unless lo <= value <= hi.
Status intInRange(const char* name, int value, int lo, int hi);
// A number as messages show it: printf's %g, NaN as JS writes it.
std::string shown(double x);
// The checks the generated options headers (seq2seq_options.h, transformer_options.h) call.
// "<name> must be one of 'a', 'b', got '<value>'" unless value is one of allowed[0..count).
Status oneOf(const char* name, const std::string& value, const char* const* allowed,
             std::size_t count);
// "<name> must be in (lo, hi], got <value>" (brackets as the ends are open or closed); NaN fails.
Status numberInRange(const char* name, double value, double lo, bool loOpen, double hi,
                     bool hiOpen);
// "<name> must be even (<why>), got <value>".
Status even(const char* name, int value, const char* why);
// "<name> = <value> must divide <otherName> = <other>" (value > 0: checked before).
Status divides(const char* name, int value, const char* otherName, int other);
// steps in [1, 100000] and steps * perStep within maxWork; `sizes` names the options that set
// perStep.
Status checkSteps(int steps, int batch, double perStep, double maxWork, const std::string& sizes);
// One mini-batch within maxWork (default-size examples) and maxBytes of workspace: options
// whose single step cannot run are refused when the trainer is made, not mid-training.
Status checkStepSize(int batch, double perExample, double maxWork, double bytesPerExample,
                     double maxBytes, const std::string& sizes);
// n in [1, heldOut] and n * perExample within maxWork.
Status checkEvaluateCount(int n, std::size_t heldOut, double perExample, double maxWork,
                          const std::string& sizes);
// Largest step count a trainer keeps: 2^53 - 1, exact in a JS number and far from wrapping.
constexpr std::uint64_t kMaxStepCount = (std::uint64_t{1} << 53) - 1;
// Output ids (0 = end, 1 = start, 2 + k = alphabet[k]) as text; '?' for the two symbols.
std::string tokensToText(const std::vector<int>& tokens, const std::string& alphabet);
}  // namespace training

}  // namespace attention

// Trains the Transformer of transformer_model.h on a task of seq2seq_tasks.h
// (the same tasks and held-out sets as the seq2seq trainer): mini-batches
// drawn by a seeded generator, teacher forcing, Adam with the paper's warm-up
// schedule or a constant rate, optional label smoothing; greedy evaluation on
// the task's held-out set; checkpoints. Single-threaded and deterministic: the
// same options give the same losses bit for bit on one build.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ops/random_state.h"
#include "ops/status.h"
#include "seq2seq_tasks.h"
#include "transformer_model.h"

namespace attention {

struct TransformerOptions {
  std::string task = "dates";
  int layers = 2;   // L encoder + L decoder layers, 1..6
  int heads = 4;    // h, 1..16, divides dModel
  int dModel = 32;  // D, 2..256, even
  int dFF = 64;     // F, 1..1024
  int batch = 32;   // B, 1..512
  // "warmup": rate(step) = learningRate * D^-0.5 * min(step^-0.5, step * warmup^-1.5)
  //           (the paper's schedule times a factor; 1 = the paper);
  // "constant": rate = learningRate.
  std::string schedule = "warmup";
  double learningRate = 1.0;    // (0, 10]
  int warmup = 200;             // 1..100000 steps (warmup schedule)
  double labelSmoothing = 0.0;  // [0, 1)
  std::uint32_t seed = 0;
};

// Checkpoint layout (all integers little-endian):
//   "A2TF" magic, u32 version (= kTransformerCheckpointVersion),
//   str task, str schedule (u32 length + bytes), i32 layers, heads, dModel, dFF, batch, warmup,
//   f64 learningRate, f64 labelSmoothing, u32 seed, u64 steps, str generator state,
//   str sampler state (RandomState::state()), u64 parameter count,
//   f32 parameters (the layout of transformerLayout), u32 FNV-1a of all before.
// Adam's moment estimates are not stored: a loaded trainer restarts them (the
// step count, and so the warm-up schedule's position, is kept).
constexpr std::uint32_t kTransformerCheckpointVersion = 1;

class TransformerTrainer {
 public:
  // Validates the options, builds the task, initialises the weights from the seed.
  Status init(const TransformerOptions& options);
  // Rebuilds a trainer from save()'s bytes; on failure the trainer is unchanged.
  Status load(const std::uint8_t* bytes, std::size_t size);
  std::vector<std::uint8_t> save() const;

  // Runs `steps` (1..100000) mini-batches; losses receives each one's loss.
  Status train(int steps, std::vector<double>& losses);
  // Exact-match accuracy of greedy decoding on the first n (1..held-out size) held-out examples.
  Status evaluate(int n, double& accuracy);
  // Greedy translation of one input, with every attention map.
  Status translate(const std::string& input, std::string& output, TransformerDecoded& details);
  // A held-out example chosen by the trainer's sampler (its own seeded stream).
  const Seq2SeqExample& sample();
  // The learning rate of step `step` (1-based) under the options' schedule.
  double rateAt(std::uint64_t step) const;

  bool ready() const { return task_ != nullptr; }
  const TransformerOptions& options() const { return options_; }
  const Seq2SeqTask& task() const { return *task_; }
  const TransformerConfig& config() const { return config_; }
  std::uint64_t steps() const { return steps_; }

  // For tests: the parameters, a batch made of given examples, and a loss with its gradient.
  Vector& parameters() { return params_; }
  TransformerBatch makeBatch(const std::vector<Seq2SeqExample>& examples) const;
  double lossAndGradient(const TransformerBatch& batch, Vector& gradient);

 private:
  void adamStep();

  TransformerOptions options_;
  std::unique_ptr<Seq2SeqTask> task_;
  TransformerConfig config_;
  Vector params_, grad_, adamM_, adamV_;
  std::uint64_t adamT_ = 0, steps_ = 0;
  RandomState rng_, sampler_;
  TransformerCache cache_;
};

Status validateTransformerOptions(const TransformerOptions& options);

// Source ids of an input (1 + its position in the alphabet) for the packed batch.
void appendSourceIds(const Seq2SeqTask& task, const std::string& input, std::vector<int>& ids);

}  // namespace attention

// Trains the seq2seq model of seq2seq_model.h on a task of seq2seq_tasks.h:
// mini-batches drawn by a seeded generator, teacher forcing, Adam, gradient
// clipping by global norm; greedy evaluation on the task's held-out set; and
// checkpoints. Single-threaded and deterministic: the same options give the
// same losses bit for bit on one build.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ops/random_state.h"
#include "ops/status.h"
#include "seq2seq_model.h"
#include "seq2seq_tasks.h"

namespace attention {

struct Seq2SeqOptions {
  std::string task = "dates";
  std::string attention = "luong-general";
  int hidden = 64;              // H, 1..256
  int embedding = 32;           // E, 1..256
  int batch = 32;               // B, 1..512
  double learningRate = 0.005;  // Adam's step size, in (0, 1]
  std::uint32_t seed = 0;
};

// Checkpoint layout (all integers little-endian):
//   "A2S2" magic, u32 version (= kSeq2SeqCheckpointVersion),
//   str task, str attention (u32 length + bytes), i32 hidden, i32 embedding, i32 batch,
//   f64 learningRate, u32 seed, u64 steps, str generator state, str sampler state
//   (RandomState::state(): std::mt19937's standard text, 624 words, the form
//   version 1 has always had in wasm; libstdc++'s 625-number form also loads),
//   u64 parameter count, f32 parameters (the layout of seq2seqLayout), u32 FNV-1a of all before.
// Adam's moment estimates are not stored: a loaded trainer restarts them.
constexpr std::uint32_t kSeq2SeqCheckpointVersion = 1;

class Seq2SeqTrainer {
 public:
  // Validates the options, builds the task, initialises the weights from the seed.
  Status init(const Seq2SeqOptions& options);
  // Rebuilds a trainer from save()'s bytes; on failure the trainer is unchanged.
  Status load(const std::uint8_t* bytes, std::size_t size);
  std::vector<std::uint8_t> save() const;

  // Runs `steps` (1..100000) mini-batches; meanLoss = mean of their losses.
  Status train(int steps, double& meanLoss);
  // Exact-match accuracy of greedy decoding on the first n (1..held-out size) held-out examples.
  Status evaluate(int n, double& accuracy);
  // Greedy translation of one input, with the details the chapter plots.
  Status translate(const std::string& input, std::string& output, Seq2SeqDecoded& details);
  // A held-out example chosen by the trainer's sampler (its own seeded stream).
  const Seq2SeqExample& sample();

  bool ready() const { return task_ != nullptr; }
  const Seq2SeqOptions& options() const { return options_; }
  const Seq2SeqTask& task() const { return *task_; }
  const Seq2SeqConfig& config() const { return config_; }
  std::uint64_t steps() const { return steps_; }

  // For tests: the parameters, a batch made of given examples, and a loss with its gradient.
  Vector& parameters() { return params_; }
  Seq2SeqBatch makeBatch(const std::vector<Seq2SeqExample>& examples) const;
  double lossAndGradient(const Seq2SeqBatch& batch, Vector& gradient);

 private:
  void adamStep();

  Seq2SeqOptions options_;
  std::unique_ptr<Seq2SeqTask> task_;
  Seq2SeqConfig config_;
  Vector params_, grad_, adamM_, adamV_;
  std::uint64_t adamT_ = 0, steps_ = 0;
  RandomState rng_, sampler_;
  Seq2SeqCache cache_;
};

Status validateSeq2SeqOptions(const Seq2SeqOptions& options);

}  // namespace attention

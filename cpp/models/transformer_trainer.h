// Trains the Transformer of transformer_model.h on a task of seq2seq_tasks.h
// (the same tasks and held-out sets as the seq2seq trainer) with the one
// trainer of trainer.h: mini-batches
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
#include "trainer.h"
#include "transformer_model.h"
#include "transformer_options.h"

namespace attention {

// TransformerOptions and validateTransformerOptions are generated from the options table
// (web/src/api/trainer-options.js) into transformer_options.h.

// Checkpoint layout (all integers little-endian):
//   "A2TF" magic, u32 version (= kTransformerCheckpointVersion),
//   str task, str schedule (u32 length + bytes), i32 layers, heads, dModel, dFF, batch, warmup,
//   f64 learningRate, f64 labelSmoothing, u32 seed, u64 steps, str generator state,
//   str sampler state (RandomState::state()), u64 parameter count,
//   f32 parameters (the layout of transformerLayout), u32 FNV-1a of all before.
// Adam's moment estimates are not stored: a loaded trainer restarts them (the
// step count, and so the warm-up schedule's position, is kept).
constexpr std::uint32_t kTransformerCheckpointVersion = 1;

// What Trainer<Model> (trainer.h) needs to know about the Transformer: Adam as
// in the paper (beta2 0.98, epsilon 1e-9), no clipping, the options' schedule.
struct TransformerTraining : ModelTypes<TransformerOptions, TransformerConfig, TransformerBatch,
                                        TransformerCache, TransformerDecoded> {
  static constexpr const char* kKind = "transformer";
  static constexpr char kMagic[4] = {'A', '2', 'T', 'F'};
  static constexpr std::uint32_t kVersion = kTransformerCheckpointVersion;
  static constexpr AdamSettings kAdam = {0.9, 0.98, 1e-9, 0.0};
  // One train() call does at most this much work, counted in examples of the
  // default size (2 + 2 layers, d_model 32, d_ff 64): 7,812 default steps, a
  // few minutes in Node.
  static constexpr double kMaxTrainWork = 2.5e5;
  // One step: at most 64 default batches' work and an estimated 1 GiB of workspace, so the
  // largest sizes (layers 6, heads 16, dModel 256, dFF 1024) train with batch <= 10 and a
  // step that cannot fit in the 2 GiB wasm memory is refused when the trainer is made.
  static constexpr double kMaxStepWork = 2048;
  static constexpr double kMaxStepBytes = 1 << 30;
  // One evaluate(): 10,000 default-size examples (the defaults' 1000 held-out dates ten times).
  static constexpr double kMaxEvaluateWork = 1e4;
};

using TransformerTrainer = Trainer<TransformerTraining>;
extern template class Trainer<TransformerTraining>;

// Source ids of an input (1 + its position in the alphabet) for the packed batch.
void appendSourceIds(const Seq2SeqTask& task, const std::string& input, std::vector<int>& ids);

}  // namespace attention

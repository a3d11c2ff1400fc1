// Trains the seq2seq model of seq2seq_model.h on a task of seq2seq_tasks.h
// with the one trainer of trainer.h: mini-batches drawn by a seeded generator,
// teacher forcing, Adam, gradient clipping by global norm; greedy evaluation
// on the task's held-out set; and checkpoints. Single-threaded and
// deterministic: the same options give the same losses bit for bit on one build.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ops/random_state.h"
#include "ops/status.h"
#include "seq2seq_model.h"
#include "seq2seq_options.h"
#include "seq2seq_tasks.h"
#include "trainer.h"

namespace attention {

// Seq2SeqOptions and validateSeq2SeqOptions are generated from the options table
// (web/src/api/trainer-options.js) into seq2seq_options.h.

// Checkpoint layout (all integers little-endian):
//   "A2S2" magic, u32 version (= kSeq2SeqCheckpointVersion),
//   str task, str attention (u32 length + bytes), i32 hidden, i32 embedding, i32 batch,
//   f64 learningRate, u32 seed, u64 steps, str generator state, str sampler state
//   (RandomState::state(): std::mt19937's standard text, 624 words, the form
//   version 1 has always had in wasm; libstdc++'s 625-number form also loads),
//   u64 parameter count, f32 parameters (the layout of seq2seqLayout), u32 FNV-1a of all before.
// Adam's moment estimates are not stored: a loaded trainer restarts them.
constexpr std::uint32_t kSeq2SeqCheckpointVersion = 1;

// What Trainer<Model> (trainer.h) needs to know about the seq2seq model: Adam
// (beta2 0.999, epsilon 1e-8) at a constant rate, the gradient clipped to
// global norm 5.
struct Seq2SeqTraining
    : ModelTypes<Seq2SeqOptions, Seq2SeqConfig, Seq2SeqBatch, Seq2SeqCache, Seq2SeqDecoded> {
  static constexpr const char* kKind = "seq2seq";
  static constexpr char kMagic[4] = {'A', '2', 'S', '2'};
  static constexpr std::uint32_t kVersion = kSeq2SeqCheckpointVersion;
  static constexpr AdamSettings kAdam = {0.9, 0.999, 1e-8, 5.0};
  // One train() call does at most this much work, counted in examples of the
  // default size (hidden 64, embedding 32): 6,250 default steps, about three
  // minutes at the ~35 steps/s measured in Node here.
  static constexpr double kMaxTrainWork = 2e5;
  // One step: at most 64 default batches' work (hidden 256, embedding 256: batch <= 99; at
  // batch 512 one step took a minute and 1.2 GB).
  static constexpr double kMaxStepWork = 2048;
  static constexpr double kMaxStepBytes = 1 << 30;
  // One evaluate(): every held-out example even at the largest sizes.
  static constexpr double kMaxEvaluateWork = 2.5e4;
};

using Seq2SeqTrainer = Trainer<Seq2SeqTraining>;
extern template class Trainer<Seq2SeqTraining>;

}  // namespace attention

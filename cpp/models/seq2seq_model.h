// The encoder-decoder with attention, as a function of one flat parameter
// vector: forward loss with teacher forcing, its hand-written backward pass,
// and greedy decoding.
//
//   encoder:  e_j = embedIn[x_j], a bidirectional GRU whose two directions are summed:
//             f_j = GRU_f(e_j, f_{j-1}), b_j = GRU_b(e_j, b_{j+1}), s_j = f_j + b_j
//             (f_0 = b_{n+1} = 0), so each s_j knows the characters on both sides of j
//   decoder:  h_0 = f_n + b_1 (both directions' final states), and for each output step t
//     1. d_t = embedOut[y_{t-1}]  (y_0 = <start>; teacher forcing in training)
//     2. h_t = GRU(d_t, h_{t-1})                    the RNN keeps track of the output so far
//     3. alpha_t = softmax_j score(h_t, s_j),  c_t = sum_j alpha_tj s_j     (context vector)
//     4. a_t = tanh(Wc [c_t; h_t])                  Luong's attention vector
//     5. p_t = softmax(a_t Wo + bo)                 the next-token distribution
//   loss: mean over real target tokens (and the final <end>) of -log p_t[y_t].
//
// Shapes: V = input vocabulary, W = output vocabulary, E = embedding size,
// H = hidden size, B = batch, Tin / Tout = longest input / output in the batch.
#pragma once

#include <string>
#include <vector>

#include "ops/tensor.h"
#include "seq2seq_layers.h"

namespace attention {

struct Seq2SeqConfig {
  int inputVocab = 0;   // V, including id 0 = padding
  int outputVocab = 0;  // W, including id 0 = <end> and id 1 = <start>
  int embedding = 0;    // E
  int hidden = 0;       // H
  ScoreKind score = ScoreKind::kGeneral;
};

constexpr int kEndToken = 0;
constexpr int kStartToken = 1;

// One named parameter inside the flat vector: (rows x cols) row-major at `offset`.
struct ParamSpec {
  std::string name;
  int rows = 0, cols = 0;
  std::size_t offset = 0;
};

// Every parameter in storage order:
//   enc.embed (V x E), enc.W (E x 3H), enc.U (H x 3H), enc.b (1 x 3H)   (forward GRU),
//   encb.W, encb.U, encb.b   (backward GRU),
//   dec.embed (W x E), dec.W, dec.U, dec.b,
//   att.W (H x H)                      for luong-general,
//   att.Wq, att.Wk (H x H), att.v (1 x H)   for luong-concat, plus att.b (1 x H) for bahdanau,
//   comb.Wc (2H x H: rows 0..H-1 multiply c_t, rows H..2H-1 multiply h_t),
//   out.W (H x W), out.b (1 x W).
std::vector<ParamSpec> seq2seqLayout(const Seq2SeqConfig& config);
std::size_t seq2seqParamCount(const Seq2SeqConfig& config);

struct Seq2SeqWeights {
  MatrixMap encEmbed{nullptr, 0, 0}, decEmbed{nullptr, 0, 0};
  GruWeights encoder, encoderBack, decoder;
  AttentionWeights attention;
  MatrixMap Wc{nullptr, 0, 0}, Wo{nullptr, 0, 0}, bo{nullptr, 0, 0};
};

// Views into `data` (seq2seqParamCount doubles), laid out as seq2seqLayout says.
Seq2SeqWeights bindSeq2SeqWeights(const Seq2SeqConfig& config, double* data);

// A padded batch of token ids, time-major (index t*B + b), sorted by input
// length, longest first (so the examples still running at step j are a prefix).
struct Seq2SeqBatch {
  int batch = 0, inSteps = 0, outSteps = 0;
  std::vector<int> order;         // (B): slot b holds example order[b] of the caller's list
  std::vector<int> source;        // (Tin*B) input ids, 0 beyond the length
  std::vector<int> reversed;      // (Tin*B) each input reversed, 0 beyond the length
  std::vector<int> sourceLength;  // (B), each >= 1, non-increasing
  std::vector<int> active;        // (Tin): examples whose input is longer than j
  std::vector<int> decoderInput;  // (Tout*B): <start>, y_1, ..., y_{m}
  std::vector<int> target;        // (Tout*B): y_1, ..., y_m, <end>
  std::vector<double> mask;       // (Tout*B): 1 for real targets, 0 for padding
};

struct Seq2SeqCache {
  Matrix encInput, encInputBack;  // (Tin*B x E): embedded inputs, forward and reversed
  GruCache encoder, encoderBack;  // f_1..f_n and b_n..b_1 (time-major in reading order)
  Matrix encOut;                  // (Tin*B x H): s_j = f_j + b_j, zero beyond each length
  Matrix decInput;                // (Tout*B x E)
  Matrix h0;                      // (B x H) decoder start = last valid encoder state
  GruCache decoder;               // outputs h_1..h_m: (Tout*B x H)
  Matrix decOut;                  // (Tout*B x H)
  AttentionCache attention;
  Matrix context;     // (Tout*B x H)
  Matrix combined;    // (Tout*B x H): a_t
  Matrix probs;       // (Tout*B x W)
  double tokens = 0;  // number of real target tokens
};

// Mean cross-entropy per real target token (teacher forcing).
double seq2seqForward(const Seq2SeqConfig& config, const Seq2SeqWeights& w,
                      const Seq2SeqBatch& batch, Seq2SeqCache& cache);

// Adds d(loss)/d(parameters) into `grad` (views into a gradient vector of the same layout).
void seq2seqBackward(const Seq2SeqConfig& config, const Seq2SeqWeights& w,
                     const Seq2SeqBatch& batch, const Seq2SeqCache& cache, Seq2SeqWeights& grad);

struct Seq2SeqDecoded {
  std::vector<int> tokens;  // emitted ids, without the final <end>
  // Filled when keepDetails: one row per emitted token (the <end> step excluded).
  Matrix attention;       // (tokens.size() x input length): weights over the input characters
  Matrix encoderOutputs;  // (input length x H): s_1..s_n
  Matrix decoderStates;   // (tokens.size() x H): h_1..h_m
  Matrix scores;  // (tokens.size() x input length): the scores those weights are the softmax of
  Matrix probabilities;  // (tokens.size() x vocabulary): p(y_t) over <end>, <start>, the output
                         // alphabet
};

// Greedy decoding of every example of `batch` (in the batch's slot order; see
// Seq2SeqBatch::order), at most `maxSteps` tokens each.
std::vector<Seq2SeqDecoded> seq2seqGreedy(const Seq2SeqConfig& config, const Seq2SeqWeights& w,
                                          const Seq2SeqBatch& batch, int maxSteps,
                                          bool keepDetails);

}  // namespace attention

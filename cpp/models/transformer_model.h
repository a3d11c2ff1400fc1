// The encoder-decoder Transformer of "Attention is all you need" as a function
// of one flat parameter vector: forward loss with teacher forcing, its
// hand-written backward pass, and greedy decoding that keeps the attention
// weights of every layer and head for the three uses of attention.
//
//   encoder:  x = embedSrc[x_j] sqrt(D) + PE(j); N layers of
//               x = x + SelfAttention(LN1(x))      (padding mask: own example's keys only)
//               x = x + FFN(LN2(x))
//             memory = LN_enc(x)
//   decoder:  y = embedTgt[y_{t-1}] sqrt(D) + PE(t)  (y_0 = <start>; teacher forcing); N layers of
//               y = y + MaskedSelfAttention(LN1(y))  (causal: position t sees 0..t)
//               y = y + CrossAttention(LN2(y), memory) (encoder-decoder attention, padding mask)
//               y = y + FFN(LN3(y))
//             p_t = softmax(LN_dec(y) Wout + bout)
//   loss:     mean over target tokens (each output character and the final <end>)
//             of the label-smoothed cross-entropy (transformer_layers.h).
//
// Choices, and why:
//   * Pre-LN (layer norm at the start of every sublayer, inside the residual
//     branch, plus one final norm per stack) instead of the paper's post-LN
//     (norm after the residual sum). The residual path stays an identity from
//     the embedding to the output, so gradients reach the first layers
//     unscaled. Pre-LN (Xiong et al., 2020, "On layer normalization in the
//     Transformer architecture") trains without depending on a carefully
//     tuned warm-up, so both schedules of the trainer (the paper's warm-up and
//     a constant rate) work with the same model; that matters when a reader
//     presses "train" in a browser tab and cannot babysit a diverging run. The
//     attention maps keep their meaning: each sublayer still attends over the
//     same residual stream.
//   * Separate source and target embeddings, and an output layer of its own.
//     The two vocabularies barely overlap (dates: 67 input characters -
//     letters, digits, punctuation - against 11 output ones; reverse shares
//     digits but not <start>/<end>), so a shared table would be mostly rows one
//     side never uses, and the paper's sharing across languages saves little at
//     this size. Separate tables also let each side learn its own geometry.
//
// Shapes: V = input vocabulary (id 0 unused, 1.. the input alphabet), W =
// output vocabulary (id 0 = <end>, 1 = <start>, 2.. the output alphabet, as in
// seq2seq), D = d_model, F = d_ff, h = heads, L = layers per stack. Batches
// are packed (transformer_layers.h): no padding rows.
#pragma once

#include <string>
#include <vector>

#include "ops/tensor.h"
#include "seq2seq_model.h"  // ParamSpec, kEndToken, kStartToken
#include "transformer_layers.h"

namespace attention {

struct TransformerConfig {
  int inputVocab = 0;   // V
  int outputVocab = 0;  // W
  int layers = 0;       // L encoder layers and L decoder layers
  int heads = 0;        // h, divides D
  int dModel = 0;       // D
  int dFF = 0;          // F
  int maxLength = 0;    // longest sequence the positional encoding covers
};

struct EncoderLayerWeights {
  LayerNormWeights ln1;
  MultiHeadWeights self;
  LayerNormWeights ln2;
  FeedForwardWeights ff;
};

struct DecoderLayerWeights {
  LayerNormWeights ln1;
  MultiHeadWeights self;
  LayerNormWeights ln2;
  MultiHeadWeights cross;
  LayerNormWeights ln3;
  FeedForwardWeights ff;
};

struct TransformerWeights {
  MatrixMap srcEmbed{nullptr, 0, 0};  // (V x D)
  MatrixMap tgtEmbed{nullptr, 0, 0};  // (W x D)
  std::vector<EncoderLayerWeights> encoder;
  LayerNormWeights encoderNorm;
  std::vector<DecoderLayerWeights> decoder;
  LayerNormWeights decoderNorm;
  MatrixMap outW{nullptr, 0, 0};  // (D x W)
  MatrixMap outB{nullptr, 0, 0};  // (1 x W)
};

// Every parameter in storage order:
//   src.embed (V x D), tgt.embed (W x D),
//   per encoder layer l: enc<l>.ln1.gamma, enc<l>.ln1.beta (1 x D),
//     enc<l>.self.Wq, .Wk, .Wv, .Wo (D x D), enc<l>.self.bq, .bk, .bv, .bo (1 x D),
//     enc<l>.ln2.gamma, .beta, enc<l>.ff.W1 (D x F), .b1 (1 x F), .W2 (F x D), .b2 (1 x D);
//   enc.norm.gamma, enc.norm.beta;
//   per decoder layer l: dec<l>.ln1.*, dec<l>.self.*, dec<l>.ln2.*, dec<l>.cross.*,
//     dec<l>.ln3.*, dec<l>.ff.*   (same shapes and order within each block);
//   dec.norm.gamma, dec.norm.beta, out.W (D x W), out.b (1 x W).
std::vector<ParamSpec> transformerLayout(const TransformerConfig& config);
std::size_t transformerParamCount(const TransformerConfig& config);

// Views into `data` (transformerParamCount doubles), laid out as transformerLayout says.
TransformerWeights bindTransformerWeights(const TransformerConfig& config, double* data);

// A packed batch: example b's source ids are sourceIds[source.offset[b] ..],
// its decoder inputs (<start>, y_1 .. y_m) and targets (y_1 .. y_m, <end>) the
// rows of `target` (length m + 1).
struct TransformerBatch {
  PackedLayout source, target;
  std::vector<int> sourceIds, decoderInput, targetIds;
};

struct EncoderLayerCache {
  Matrix x;  // (Ns x D) the layer's input
  LayerNormCache ln1, ln2;
  Matrix n1, h, n2;  // LN1(x), h = x + attention, LN2(h)
  MultiHeadCache self;
  FeedForwardCache ff;
};

struct DecoderLayerCache {
  Matrix x;  // (Nt x D)
  LayerNormCache ln1, ln2, ln3;
  Matrix n1, h1, n2, h2, n3;
  MultiHeadCache self, cross;
  FeedForwardCache ff;
};

struct TransformerCache {
  std::vector<EncoderLayerCache> encoder;
  Matrix encoderLast;  // (Ns x D) the last layer's output
  LayerNormCache encoderNorm;
  Matrix memory;  // (Ns x D) = LN_enc(encoderLast)
  std::vector<DecoderLayerCache> decoder;
  Matrix decoderLast;
  LayerNormCache decoderNorm;
  Matrix decoderOut;  // (Nt x D)
  Matrix probs;       // (Nt x W)
};

// Encoder only: fills cache.encoder and cache.memory.
void transformerEncode(const TransformerConfig& config, const TransformerWeights& w,
                       const PackedLayout& source, const std::vector<int>& sourceIds,
                       TransformerCache& cache);
// Decoder only, over an encoded batch: fills cache.decoder and cache.decoderOut.
void transformerDecode(const TransformerConfig& config, const TransformerWeights& w,
                       const PackedLayout& source, const PackedLayout& target,
                       const std::vector<int>& decoderInput, TransformerCache& cache);

// Mean label-smoothed cross-entropy per target token (teacher forcing).
double transformerForward(const TransformerConfig& config, const TransformerWeights& w,
                          const TransformerBatch& batch, double smoothing, TransformerCache& cache);

// Adds d(loss)/d(parameters) into `grad` (views into a gradient vector of the same layout).
void transformerBackward(const TransformerConfig& config, const TransformerWeights& w,
                         const TransformerBatch& batch, double smoothing,
                         const TransformerCache& cache, TransformerWeights& grad);

// One decoded example. The attention maps come from the decoder pass over
// <start>, y_1 .. y_m (the pass that emitted <end>): query row t is the step
// that produced y_{t+1} (row m produced <end>).
struct TransformerDecoded {
  std::vector<int> tokens;  // emitted ids, without the final <end>
  // [layer][head]: encoderSelf (n x n), decoderSelf (m+1 x m+1, zero above the
  // diagonal), cross (m+1 x n); n = input length. Filled when keepDetails.
  std::vector<std::vector<Matrix>> encoderSelf, decoderSelf, cross;
  // [use][layer] (use 0 encoderSelf, 1 decoderSelf, 2 cross): the projected
  // queries x Wq + bq and keys x Wk + bk (rows x dModel; head i is columns
  // i*dk .. (i+1)*dk - 1) the maps were computed from, so a page can show
  // q·k/√dk for any cell. Filled when keepDetails.
  std::vector<std::vector<Matrix>> queries, keys;
  // [use][layer], likewise: what each projection read and applied, copied at
  // decoding time so a page can show q = x Wq + bq for any cell. The rows the
  // queries and the keys were projected from (the layer's normed input; for
  // cross-attention the keys read the encoder's output), and Wq, Wk (dModel x
  // dModel, in x out), bq, bk (1 x dModel). Filled when keepDetails.
  std::vector<std::vector<Matrix>> queryInputs, keyInputs, queryWeights, keyWeights, queryBiases,
      keyBiases;
};

// Greedy decoding of every example (source layout and ids), at most maxSteps tokens each.
std::vector<TransformerDecoded> transformerGreedy(const TransformerConfig& config,
                                                  const TransformerWeights& w,
                                                  const PackedLayout& source,
                                                  const std::vector<int>& sourceIds, int maxSteps,
                                                  bool keepDetails);

}  // namespace attention

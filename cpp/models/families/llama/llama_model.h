// The rotary decoder families of Hugging Face's Llama line, forward pass only,
// in float32: Llama 2/3 (Touvron et al. 2023; Meta 2024), Qwen2/2.5 (with q, k,
// v biases), Qwen3 (with QK-norm) and Gemma 3 text (Gemma Team 2025: scaled
// embeddings, four norms a layer, QK-norm, RMS weights offset by 1, GeGLU,
// local sliding-window layers with their own RoPE base). One decoder; the
// flags of LlamaConfig say what each family adds. Built from the core's ops,
// one call each: RMS norm (ops/rms_norm.h), rotary embeddings (ops/rope.h),
// grouped-query attention as one scaledDotProductAttention per query head on
// strided views of its kv head's columns (never copied per query head), the
// gated MLP's activation (ops/gated_mlp.h) between packed linear layers in
// PyTorch's (out x in) layout, the output projection and softmax.
//
// Shape legend (llm.c's):
//   L = num_hidden_layers, H = num_attention_heads, KV = num_key_value_heads
//   (H / KV query heads share one kv head: query head h reads kv head
//   floor(h KV / H)), hd = head_dim, D = hidden_size, F = intermediate_size,
//   V = vocab_size, P = max_position_embeddings, T = tokens (1 <= T <= P).
//
// Parameters, in Hugging Face's names (without the "model." prefix):
//   embed_tokens.weight (V x D)
//   layers.<l>.input_layernorm.weight (D)
//   layers.<l>.self_attn.q_proj.weight (H hd x D)    [.bias (H hd) with attention_bias]
//   layers.<l>.self_attn.k_proj.weight (KV hd x D)   [.bias (KV hd)]
//   layers.<l>.self_attn.v_proj.weight (KV hd x D)   [.bias (KV hd)]
//   layers.<l>.self_attn.o_proj.weight (D x H hd)    [.bias (D) with output_bias]
//   layers.<l>.self_attn.q_norm.weight, k_norm.weight (hd)          with qk_norm
//   layers.<l>.post_attention_layernorm.weight (D)   (Llama, Qwen: the MLP's norm;
//                                                     Gemma: on the attention's output)
//   layers.<l>.pre_feedforward_layernorm.weight,
//   layers.<l>.post_feedforward_layernorm.weight (D)                 with sandwich_norms
//   layers.<l>.mlp.gate_proj.weight, up_proj.weight (F x D), down_proj.weight (D x F)
//                                                    [.bias with mlp_bias]
//   norm.weight (D)
//   lm_head.weight (V x D), only when stored (else tied to embed_tokens).
#pragma once

#include <string>
#include <vector>

#include "models/checkpoint_model.h"
#include "ops/gated_mlp.h"
#include "ops/rms_norm.h"
#include "ops/rope.h"
#include "ops/status.h"
#include "ops/tensor.h"

namespace attention {

struct LlamaConfig {
  int layers = 0;     // L
  int heads = 0;      // H
  int kvHeads = 0;    // KV (divides H)
  int dModel = 0;     // D
  int headDim = 0;    // hd (even)
  int inner = 0;      // F
  int vocab = 0;      // V
  int positions = 0;  // P
  double epsilon = 1e-6;
  double ropeTheta = 10000;
  RopeScaling ropeScaling;        // of the global (non-sliding) layers
  double ropeLocalBase = 0;       // sliding layers' RoPE base (0: ropeTheta), no scaling
  int slidingWindow = 0;          // W of the sliding layers
  std::string slidingLayers;      // L characters: '1' sliding, '0' full attention ("": none)
  double queryPreAttnScalar = 0;  // scores scaled by its ^-0.5 (0: hd, i.e. 1 / sqrt(hd))
  double finalLogitSoftcap = 0;   // logits = cap tanh(logits / cap) (0: none)
  bool attentionBias = false;     // q, k, v biases
  bool outputBias = false;        // o_proj bias
  bool mlpBias = false;           // gate, up, down biases
  bool qkNorm = false;            // RMS norm of each q and k head before RoPE
  bool normOffset = false;        // RMS weights stored as w - 1 (Gemma)
  bool sandwichNorms = false;     // Gemma's four norms a layer
  bool embedScale = false;        // embeddings times sqrt(D) (Gemma)
  GateActivation activation = GateActivation::kSilu;
  bool separateHead = false;  // lm_head.weight stored
};

class LlamaModel : public CheckpointModel {
 public:
  // Checks the sizes (each >= 1, KV divides H, hd even, L bounded, the
  // buffer's floats fit), the RoPE and norm numbers, and lays the parameters
  // out; allocates nothing. Messages name config.json's fields.
  Status configure(const LlamaConfig& config);
  const LlamaConfig& config() const { return config_; }

  // ids: (T) -> the results below. Fails (naming ids) for T outside [1, P] or
  // an id outside [0, V).
  // Also keeps every layer's keys (after RoPE) and values in the KV cache (the
  // base's), one column block of hd per kv head.
  Status forward(const std::vector<int>& ids);

  // Decoding with the KV cache: room for `positions` positions in [0, P],
  // allocated now (0 frees it; kOutOfMemory before allocating when it cannot fit).
  Status reserveCache(int positions);
  // One more token after the cached ones (a forward pass first): id at position
  // t = cachedPositions(), its rotated keys and values appended, each query
  // head's row of attention over the t + 1 cached positions (zero left of the
  // window on sliding layers) in every layer (stepAttention), and logits() /
  // probabilities() of the position after it. Fails without a forward pass, at
  // t = P or t = cacheCapacity(), or for an id outside [0, V).
  Status decode(int id);

  // (T x D) residual stream entering layer l (l = 0: the embeddings); l = L
  // (1 x D): after the last layer, at the last position only.
  const Matrix32& residual(int l) const { return residual_[l]; }
  // (1 x V) logits of the last position (after the soft cap), and their softmax.
  const Matrix32& logits() const { return logits_; }
  const Matrix32& probabilities() const { return probabilities_; }
  // attention(l) (the base's): causal, and zero left of the window on sliding layers.

  bool sliding(int l) const;
  // Query head h's kv head.
  int kvHeadOf(int h) const { return h * config_.kvHeads / config_.heads; }

  // Explaining one head of the last forward pass: out (T x 5 hd) = q | k | v |
  // qRotated | kRotated of query head h in layer l (q, k after the QK-norm,
  // before RoPE; k, v of its kv head), recomputed from the layer's input with
  // the very ops and weights of forward(). Fails before a forward pass, for l
  // or h out of range, or for an out of another shape.
  Status headInputs(int l, int h, MatrixOut32 out) const;

 private:
  Status projectHeads(int l, const Matrix32& x, Matrix32& q, Matrix32& k, Matrix32& v) const;
  void rmsNorm(const MatrixView32& x, int weight, Eigen::Index width, MatrixOut32 y) const;
  // The layer after its attention: o_proj and its residual, then the MLP and
  // its residual, for the rows of heads (T' x H hd) and x (T' x D) -> next.
  Status blockTail(int l, const MatrixView32& heads, const MatrixView32& x, Matrix32& next) const;
  // The final norm of the last position's row -> logits_ (soft-capped), probabilities_.
  void finish(const Matrix32& lastRow);
  // Scores' scale of the attention (0: 1 / sqrt(hd)).
  double scoreScale() const;
  static Status finiteIn(const MatrixView32& values, int l, const char* what, const char* tensor);

  LlamaConfig config_;
  std::vector<int> index_;  // kPerLayer entries a layer (-1: absent), see llama_model.cpp
  int embed_ = 0, finalNorm_ = 0, head_ = 0;
  std::vector<double> globalFreq_, localFreq_;
  std::vector<int> positions_;
  std::vector<Matrix32> residual_;  // L + 1
  Matrix32 logits_, probabilities_;
};

}  // namespace attention

// GPT-2 (Radford et al. 2019, "Language Models are Unsupervised Multitask
// Learners"), forward pass only, in float32, with the weights of a Hugging Face
// checkpoint. Built from the core's ops, one call each: token + position
// embedding, layer norm, causal attention per head (ops/attention.h
// scaledDotProductAttention, its float32 path, on each head's columns of one
// q | k | v product), linear layers in GPT-2's Conv1D layout (W stored in x out,
// y = x W + b: ops/linear.h, W packed once), GELU, the tied output projection
// (logits = h wte^T: ops/gemm.h) and the softmax over the vocabulary.
//
// Shape legend (llm.c's):
//   L = n_layer, H = n_head, D = n_embd, d_k = D / H, F = n_inner (4 D),
//   V = vocab_size, P = n_positions, T = tokens of this run (1 <= T <= P).
//
// Parameters, in Hugging Face's names (without the "transformer." prefix):
//   wte.weight (V x D)  wpe.weight (P x D)
//   h.<l>.ln_1.weight, h.<l>.ln_1.bias (D)
//   h.<l>.attn.c_attn.weight (D x 3D), h.<l>.attn.c_attn.bias (3D)   [q | k | v]
//   h.<l>.attn.c_proj.weight (D x D), h.<l>.attn.c_proj.bias (D)
//   h.<l>.ln_2.weight, h.<l>.ln_2.bias (D)
//   h.<l>.mlp.c_fc.weight (D x F), h.<l>.mlp.c_fc.bias (F)
//   h.<l>.mlp.c_proj.weight (F x D), h.<l>.mlp.c_proj.bias (D)
//   ln_f.weight, ln_f.bias (D)
//   lm_head.weight (V x D), only for a model whose output layer is not tied to wte.
// The base (models/checkpoint_model.h) owns each of them in a float32 buffer the
// loader writes, checks them and packs the four linear weights of every block
// once, so a forward pass never repacks 85 M weights (GPT-2 small: about 20% of
// its time).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "models/checkpoint_model.h"
#include "ops/gelu.h"
#include "ops/status.h"
#include "ops/tensor.h"

namespace attention {

struct Gpt2Config {
  int layers = 0;     // L
  int heads = 0;      // H
  int dModel = 0;     // D
  int positions = 0;  // P
  int vocab = 0;      // V
  int inner = 0;      // F (0: 4 D)
  double epsilon = 1e-5;
  GeluForm gelu = GeluForm::kTanh;
  bool separateHead = false;  // lm_head.weight stored (else tied to wte)
};

class Gpt2Model : public CheckpointModel {
 public:
  // Checks the sizes (every one >= 1, H divides D, the buffer's floats fit in
  // 2^31 bytes) and lays the parameters out; allocates nothing.
  Status configure(const Gpt2Config& config);
  const Gpt2Config& config() const { return config_; }

  // ids: (T) -> the results below. Fails (naming ids) for T outside [1, P] or
  // an id outside [0, V).
  // Also keeps every layer's keys and values in the KV cache (the base's).
  Status forward(const std::vector<int>& ids);

  // Decoding with the KV cache: room for `positions` positions in [0, P],
  // allocated now (0 frees it; kOutOfMemory before allocating when it cannot fit).
  Status reserveCache(int positions);
  // One more token after the cached ones (a forward pass first): id at position
  // t = cachedPositions(), its keys and values appended, its row of attention
  // over the t + 1 cached positions in every layer (stepAttention), and
  // logits() / probabilities() of the position after it. Fails (changing
  // nothing the next step reads) without a forward pass, at t = P or t =
  // cacheCapacity(), or for an id outside [0, V).
  Status decode(int id);

  // (T x D) residual stream: l = 0 the embeddings, l = 1..L - 1 after block l;
  // l = L (1 x D): after the last block, at the last position only (the only
  // row the logits use; the last block computes no other after its attention).
  const Matrix32& residual(int l) const { return residual_[l]; }
  // (1 x D) ln_f of the last position (the last row of Hugging Face's last hidden state).
  const Matrix32& finalHidden() const { return final_; }
  // attention(l) (the base's): zero above the diagonal (causal).
  // (1 x V) logits of the last position, and their softmax.
  const Matrix32& logits() const { return logits_; }
  const Matrix32& probabilities() const { return probabilities_; }

  // Explaining one head: layer l's ln_1 of the last forward pass's residual
  // stream x, and x times `weight` (D x n: the head's q | k | v columns of c_attn,
  // which the caller reads again from its file) plus `bias` (n) -> out
  // (T x (D + n)): x's D columns, then the n projected ones.
  // gamma, beta: ln_1's D values. Fails before a forward pass, for l out of
  // range, or when the shapes do not fit n_embd.
  Status headInputs(int l, const MatrixView32& gamma, const MatrixView32& beta,
                    const MatrixView32& weight, const MatrixView32& bias, MatrixOut32 out) const;

 private:
  // The block after its attention: x + heads c_proj, then the MLP and its
  // residual, for the rows of heads (T' x D) and x (T' x D) -> next.
  Status blockTail(int l, const MatrixView32& heads, const MatrixView32& x, Matrix32& next) const;
  // ln_f of the last position's row -> final_, logits_, probabilities_.
  void finish(const Matrix32& lastRow);

  Gpt2Config config_;
  std::vector<Matrix32> residual_;  // L + 1 of (T x D)
  Matrix32 final_, logits_, probabilities_;
};

}  // namespace attention

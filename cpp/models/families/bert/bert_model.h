// BERT (Devlin et al. 2018, "BERT: Pre-training of Deep Bidirectional
// Transformers for Language Understanding"), forward pass only, in float32,
// with the weights of a Hugging Face checkpoint. Built from the core's ops:
// token + position embeddings (ops/token_position_embedding.h) plus the token
// type row, layer norm, bidirectional attention per head (ops/attention.h
// scaledDotProductAttention, float32 path, no mask: one unpadded sequence),
// linear layers in PyTorch's layout (W stored out x in, y = x W^T + b: ops/linear.h,
// W packed once), GELU (the exact erf form BERT uses), and the masked-language-
// model head (transform, then the word embeddings as the output layer, tied).
// Unlike GPT-2, each sub-layer's layer norm comes after its residual sum (post-LN).
//
// Shape legend (llm.c's):
//   L = num_hidden_layers, H = num_attention_heads, D = hidden_size, d_k = D / H,
//   F = intermediate_size, V = vocab_size, P = max_position_embeddings,
//   Y = type_vocab_size, T = tokens of this run (1 <= T <= P).
//
// Parameters, in Hugging Face's names without the "bert." prefix:
//   embeddings.word_embeddings.weight (V x D), .position_embeddings.weight (P x D),
//   embeddings.token_type_embeddings.weight (Y x D), embeddings.LayerNorm.{weight,bias} (D)
//   encoder.layer.<l>.attention.self.{query,key,value}.weight (D x D), .bias (D)
//   encoder.layer.<l>.attention.output.dense.weight (D x D), .bias (D)
//   encoder.layer.<l>.attention.output.LayerNorm.{weight,bias} (D)
//   encoder.layer.<l>.intermediate.dense.weight (F x D), .bias (F)
//   encoder.layer.<l>.output.dense.weight (D x F), .bias (D)
//   encoder.layer.<l>.output.LayerNorm.{weight,bias} (D)
// and, for a masked-LM checkpoint (BertForMaskedLM):
//   cls.predictions.transform.dense.weight (D x D), .bias (D),
//   cls.predictions.transform.LayerNorm.{weight,bias} (D), cls.predictions.bias (V)
// The base (models/checkpoint_model.h) owns them: the loader writes each one's
// row-major entries, the base checks them and packs the linear weights once.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "models/checkpoint_model.h"
#include "ops/gelu.h"
#include "ops/status.h"
#include "ops/tensor.h"

namespace attention {

struct BertConfig {
  int layers = 0;     // L
  int heads = 0;      // H
  int dModel = 0;     // D
  int inner = 0;      // F
  int positions = 0;  // P
  int types = 0;      // Y
  int vocab = 0;      // V
  double epsilon = 1e-12;
  GeluForm gelu = GeluForm::kErf;
  bool maskedLm = false;  // the cls.predictions head is loaded
};

class BertModel : public CheckpointModel {
 public:
  // Checks the sizes (every one >= 1, H divides D, the weights fit in 2 GiB)
  // and lays the parameters out; allocates nothing.
  Status configure(const BertConfig& config);
  const BertConfig& config() const { return config_; }

  // ids, types: (T) each -> the results below. Fails (naming ids or types) for T
  // outside [1, P], lengths that differ, an id outside [0, V) or a type outside [0, Y).
  Status forward(const std::vector<int>& ids, const std::vector<int>& types);

  // (T x D) hidden states: l = 0 the embeddings (after their layer norm), l = 1..L after layer l.
  const Matrix32& hidden(int l) const { return hidden_[l]; }
  // attention(l) (the base's): no mask, every token sees every token.
  // (n x V) masked-LM logits of the given positions of the last forward pass
  // (a masked-LM checkpoint only; each position in [0, T)).
  Status predict(const std::vector<int>& positions, Matrix32& logits) const;

  // Explaining a head of the last forward pass: out (T x (D + n)) = x | x W + b,
  // x = hidden(l), the layer's input (what its query, key and value read), W
  // (D x n, in x out: a head's columns of query | key | value, read again from
  // the file) and b (n). Fails before a forward pass, for l out of range, or
  // when the shapes do not fit hidden_size.
  Status headInputs(int l, const MatrixView32& weight, const MatrixView32& bias,
                    MatrixOut32 out) const;

 private:
  // y = x W^T + b, the bias stored right after its weight.
  void linear(const Matrix32& x, int index, Matrix32& y) const {
    CheckpointModel::linear(x, index, index + 1, y);
  }

  BertConfig config_;
  std::vector<Matrix32> hidden_;  // L + 1 of (T x D)
};

}  // namespace attention

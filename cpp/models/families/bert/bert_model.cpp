#include "models/families/bert/bert_model.h"

#include <cmath>

#include "ops/attention.h"
#include "ops/gemm.h"
#include "ops/layer_norm.h"
#include "ops/linear.h"
#include "ops/token_position_embedding.h"
#include "ops/validate.h"

namespace attention {

namespace {

// Parameter order: the embeddings' kEmbeddings, then kPerLayer per layer in this
// order, then the masked-LM head's kHead. Each weight is followed by its bias.
enum EmbeddingParam { kWord, kPosition, kType, kEmbLnWeight, kEmbLnBias, kEmbeddings };
enum LayerParam {
  kQuery,
  kQueryBias,
  kKey,
  kKeyBias,
  kValue,
  kValueBias,
  kAttnOut,
  kAttnOutBias,
  kAttnLnWeight,
  kAttnLnBias,
  kInter,
  kInterBias,
  kOut,
  kOutBias,
  kOutLnWeight,
  kOutLnBias,
  kPerLayer
};
enum HeadParam { kTransform, kTransformBias, kHeadLnWeight, kHeadLnBias, kVocabBias, kHead };
constexpr int kMaxLayers = 4096;

// Name suffix and shape of each layer parameter: 'D' = hidden, 'F' = intermediate, '1' = 1.
struct Shape {
  const char* suffix;
  char rows, cols;
};
constexpr Shape kLayerShapes[kPerLayer] = {{"attention.self.query.weight", 'D', 'D'},
                                           {"attention.self.query.bias", '1', 'D'},
                                           {"attention.self.key.weight", 'D', 'D'},
                                           {"attention.self.key.bias", '1', 'D'},
                                           {"attention.self.value.weight", 'D', 'D'},
                                           {"attention.self.value.bias", '1', 'D'},
                                           {"attention.output.dense.weight", 'D', 'D'},
                                           {"attention.output.dense.bias", '1', 'D'},
                                           {"attention.output.LayerNorm.weight", '1', 'D'},
                                           {"attention.output.LayerNorm.bias", '1', 'D'},
                                           {"intermediate.dense.weight", 'F', 'D'},
                                           {"intermediate.dense.bias", '1', 'F'},
                                           {"output.dense.weight", 'D', 'F'},
                                           {"output.dense.bias", '1', 'D'},
                                           {"output.LayerNorm.weight", '1', 'D'},
                                           {"output.LayerNorm.bias", '1', 'D'}};
constexpr LayerParam kLinears[] = {kQuery, kKey, kValue, kAttnOut, kInter, kOut};

int layerParam(int l, LayerParam p) { return kEmbeddings + l * kPerLayer + p; }

}  // namespace

Status BertModel::configure(const BertConfig& c) {
  if (c.layers < 1 || c.heads < 1 || c.dModel < 1 || c.inner < 1 || c.positions < 1 ||
      c.types < 1 || c.vocab < 1 || c.layers > kMaxLayers) {
    return Status::invalidValue("a size in config.json is out of range");
  }
  if (c.dModel % c.heads != 0) {
    return Status::shapeMismatch("num_attention_heads = " + std::to_string(c.heads) +
                                 " does not divide hidden_size = " + std::to_string(c.dModel));
  }
  if (!(c.epsilon > 0) || !std::isfinite(c.epsilon)) {
    return Status::invalidValue("layer_norm_eps must be a finite number > 0");
  }
  const long long D = c.dModel, F = c.inner;
  std::vector<CheckpointParameter> params;
  const auto add = [&](std::string name, long long rows, long long cols) {
    params.push_back({std::move(name), static_cast<int>(rows), static_cast<int>(cols)});
  };
  add("embeddings.word_embeddings.weight", c.vocab, D);
  add("embeddings.position_embeddings.weight", c.positions, D);
  add("embeddings.token_type_embeddings.weight", c.types, D);
  add("embeddings.LayerNorm.weight", 1, D);
  add("embeddings.LayerNorm.bias", 1, D);
  for (int l = 0; l < c.layers; ++l) {
    const std::string p = "encoder.layer." + std::to_string(l) + ".";
    for (const Shape& shape : kLayerShapes) {
      const auto size = [&](char d) { return d == 'D' ? D : d == 'F' ? F : 1; };
      add(p + shape.suffix, size(shape.rows), size(shape.cols));
    }
  }
  if (c.maskedLm) {
    add("cls.predictions.transform.dense.weight", D, D);
    add("cls.predictions.transform.dense.bias", 1, D);
    add("cls.predictions.transform.LayerNorm.weight", 1, D);
    add("cls.predictions.transform.LayerNorm.bias", 1, D);
    add("cls.predictions.bias", 1, c.vocab);
  }
  std::vector<int> linears;
  for (int l = 0; l < c.layers; ++l)
    for (LayerParam w : kLinears) linears.push_back(layerParam(l, w));
  if (c.maskedLm) linears.push_back(layerParam(c.layers, LayerParam(0)) + kTransform);
  // PyTorch's Linear: W stored out x in
  RETURN_IF_ERROR(lay(std::move(params), std::move(linears), WeightLayout::kOutIn, c.layers));
  config_ = c;
  return Status::ok();
}

Status BertModel::forward(const std::vector<int>& ids, const std::vector<int>& types) {
  if (!loaded()) return Status::invalidArgument("the weights are not loaded");
  const BertConfig& c = config_;
  if (types.size() != ids.size()) {
    return Status::shapeMismatch("types has " + std::to_string(types.size()) +
                                 " entries but ids has " + std::to_string(ids.size()));
  }
  for (std::size_t t = 0; t < types.size(); ++t) {
    if (types[t] < 0 || types[t] >= c.types) {
      return Status::invalidValue("types[" + std::to_string(t) + "] = " + std::to_string(types[t]) +
                                  " is outside [0, " + std::to_string(c.types) + ")");
    }
  }
  const Eigen::Index T = static_cast<Eigen::Index>(ids.size()), D = c.dModel, H = c.heads,
                     F = c.inner, dk = D / H;
  hidden_.resize(c.layers + 1);
  // e = word[ids] + position[0..T) + type[types]; x = LayerNorm(e)   (T x D)
  // (The embedding checks 1 <= T <= P and every id.)
  Matrix32 sum(T, D);
  RETURN_IF_ERROR(tokenPositionEmbedding(param(kWord), param(kPosition), ids, sum));
  for (Eigen::Index t = 0; t < T; ++t) sum.row(t) += param(kType).row(types[t]);
  beginForward(static_cast<int>(T), c.heads);
  const float eps = static_cast<float>(c.epsilon);
  hidden_[0].resize(T, D);
  RETURN_IF_ERROR(requireFiniteIn(sum, -1, "word + position + type embeddings"));
  layerNormInto(sum, paramData(kEmbLnWeight), paramData(kEmbLnBias), eps, hidden_[0]);
  RETURN_IF_ERROR(requireFiniteIn(hidden_[0], -1, "embeddings' layer norm (embeddings.LayerNorm)"));

  Matrix32 q(T, D), k(T, D), v(T, D), heads(T, D), projected(T, D), a(T, D), inter(T, F);
  const AttentionMask32 none;  // one unpadded sequence: every token sees every token
  for (int l = 0; l < c.layers; ++l) {
    const auto P = [&](LayerParam p) { return layerParam(l, p); };
    const Matrix32& x = hidden_[l];
    // q, k, v = x W^T + b                                        (T x D) each
    const std::string p = "encoder.layer." + std::to_string(l) + ".";  // for errors
    linear(x, P(kQuery), q);
    linear(x, P(kKey), k);
    linear(x, P(kValue), v);
    RETURN_IF_ERROR(requireFiniteIn(q, l, "q (" + p + "attention.self.query)"));
    RETURN_IF_ERROR(requireFiniteIn(k, l, "k (" + p + "attention.self.key)"));
    RETURN_IF_ERROR(requireFiniteIn(v, l, "v (" + p + "attention.self.value)"));
    // Per head: weights = softmax(q_h k_h^T / sqrt(d_k)) (T x T); heads_h = weights v_h (T x d_k)
    for (Eigen::Index h = 0; h < H; ++h) {
      // q, k, v are finite here: a value error can only be a score that overflowed.
      const Status s = scaledDotProductAttention(
          q.middleCols(h * dk, dk), k.middleCols(h * dk, dk), v.middleCols(h * dk, dk), none,
          heads.middleCols(h * dk, dk), attentionOut(l).middleRows(h * T, T));
      if (s.code == StatusCode::kInvalidValue) {
        return overflowIn(l, "attention scores (head " + std::to_string(h) +
                                 ", q k^T / sqrt(d_k) of " + p + "attention.self)");
      }
      RETURN_IF_ERROR(s);
    }
    // a = LayerNorm(x + heads W_o^T + b_o)                       (T x D)   (post-LN)
    linear(heads, P(kAttnOut), projected);
    projected += x;
    RETURN_IF_ERROR(
        requireFiniteIn(projected, l, "attention output (" + p + "attention.output.dense)"));
    layerNormInto(projected, paramData(P(kAttnLnWeight)), paramData(P(kAttnLnBias)), eps, a);
    RETURN_IF_ERROR(
        requireFiniteIn(a, l, "attention layer norm (" + p + "attention.output.LayerNorm)"));
    // x' = LayerNorm(a + gelu(a W_i^T + b_i) W_out^T + b_out)    (T x F), then (T x D)
    linear(a, P(kInter), inter);
    RETURN_IF_ERROR(requireFiniteIn(inter, l, "intermediate layer (" + p + "intermediate.dense)"));
    geluInPlace(inter.data(), static_cast<std::size_t>(inter.size()), c.gelu);
    linear(inter, P(kOut), projected);
    projected += a;
    RETURN_IF_ERROR(requireFiniteIn(projected, l, "output (" + p + "output.dense)"));
    hidden_[l + 1].resize(T, D);
    layerNormInto(projected, paramData(P(kOutLnWeight)), paramData(P(kOutLnBias)), eps,
                  hidden_[l + 1]);
    RETURN_IF_ERROR(
        requireFiniteIn(hidden_[l + 1], l, "output layer norm (" + p + "output.LayerNorm)"));
  }
  return Status::ok();
}

Status BertModel::predict(const std::vector<int>& positions, Matrix32& logits) const {
  if (!config_.maskedLm) {
    return Status::invalidArgument("the checkpoint has no masked-LM head (cls.predictions.*)");
  }
  if (tokens() == 0) return Status::invalidArgument("no forward pass to predict from");
  const Eigen::Index n = static_cast<Eigen::Index>(positions.size()), D = config_.dModel,
                     V = config_.vocab;
  Matrix32 rows(n, D);
  for (Eigen::Index i = 0; i < n; ++i) {
    const int p = positions[i];
    if (p < 0 || p >= tokens()) {
      return Status::invalidValue("positions[" + std::to_string(i) + "] = " + std::to_string(p) +
                                  " is outside [0, " + std::to_string(tokens()) + ")");
    }
    rows.row(i) = hidden_[config_.layers].row(p);
  }
  // m = LayerNorm(gelu(h W_t^T + b_t))                           (n x D)
  const int head = layerParam(config_.layers, LayerParam(0));
  Matrix32 transformed(n, D), normed(n, D);
  linear(rows, head + kTransform, transformed);
  geluInPlace(transformed.data(), static_cast<std::size_t>(transformed.size()), config_.gelu);
  layerNormInto(transformed, paramData(head + kHeadLnWeight), paramData(head + kHeadLnBias),
                static_cast<float>(config_.epsilon), normed);
  // logits = m word^T + b (the word embeddings as the output layer, tied), one gemv per row  (n x
  // V)
  logits.resize(n, V);
  Matrix32 row(1, V);
  for (Eigen::Index i = 0; i < n; ++i) {
    gemv(V, D, paramData(kWord), D, normed.data() + i * D, row.data());
    logits.row(i) = row + param(head + kVocabBias);
  }
  return Status::ok();
}

Status BertModel::headInputs(int l, const MatrixView32& weight, const MatrixView32& bias,
                             MatrixOut32 out) const {
  const BertConfig& c = config_;
  if (tokens() < 1 || l < 0 || l >= c.layers || static_cast<int>(hidden_.size()) <= l) {
    return Status::invalidArgument("no forward pass, or layer " + std::to_string(l) +
                                   " out of range");
  }
  const Matrix32& x = hidden_[l];
  if (weight.rows() != c.dModel || bias.size() != weight.cols() || out.rows() != x.rows() ||
      out.cols() != c.dModel + weight.cols()) {
    return Status::shapeMismatch("headInputs: the weights do not fit hidden_size");
  }
  // The layer's input rows first: a reader's explanation of q = x W + b needs them.
  Matrix32 projected(x.rows(), weight.cols());
  linearInto(x, weight, bias.data(), WeightLayout::kInOut, projected);
  out.leftCols(c.dModel) = x;
  out.rightCols(weight.cols()) = projected;
  return Status::ok();
}

}  // namespace attention

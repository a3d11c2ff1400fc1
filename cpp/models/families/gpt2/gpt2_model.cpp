#include "models/families/gpt2/gpt2_model.h"

#include <cmath>
#include <limits>

#include "ops/attention.h"
#include "ops/cached_attention.h"
#include "ops/gemm.h"
#include "ops/layer_norm.h"
#include "ops/linear.h"
#include "ops/softmax.h"
#include "ops/token_position_embedding.h"
#include "ops/validate.h"

namespace attention {

namespace {

// Parameter order: wte, wpe, then kPerLayer per block in this order, then ln_f, lm_head.
enum LayerParam {
  kLn1Weight,
  kLn1Bias,
  kAttnWeight,
  kAttnBias,
  kAttnProjWeight,
  kAttnProjBias,
  kLn2Weight,
  kLn2Bias,
  kFcWeight,
  kFcBias,
  kMlpProjWeight,
  kMlpProjBias,
  kPerLayer
};
constexpr int kWte = 0, kWpe = 1, kFirstLayer = 2;
constexpr int kMaxLayers = 4096;  // GPT-2 XL has 48; bounds the parameter list

int layerParam(int l, LayerParam p) { return kFirstLayer + l * kPerLayer + p; }

// Each block's parameters in LayerParam order: name suffix and shape, with
// 'D' = n_embd, '3' = 3 n_embd, 'F' = n_inner, '1' = 1 (a vector is 1 x n).
struct LayerShape {
  const char* suffix;
  char rows, cols;
};
constexpr LayerShape kLayerShapes[kPerLayer] = {
    {"ln_1.weight", '1', 'D'},        {"ln_1.bias", '1', 'D'},
    {"attn.c_attn.weight", 'D', '3'}, {"attn.c_attn.bias", '1', '3'},
    {"attn.c_proj.weight", 'D', 'D'}, {"attn.c_proj.bias", '1', 'D'},
    {"ln_2.weight", '1', 'D'},        {"ln_2.bias", '1', 'D'},
    {"mlp.c_fc.weight", 'D', 'F'},    {"mlp.c_fc.bias", '1', 'F'},
    {"mlp.c_proj.weight", 'F', 'D'},  {"mlp.c_proj.bias", '1', 'D'}};

}  // namespace

Status Gpt2Model::configure(const Gpt2Config& c) {
  if (c.layers < 1 || c.heads < 1 || c.dModel < 1 || c.positions < 1 || c.vocab < 1 ||
      c.inner < 0 || c.layers > kMaxLayers) {
    // (families/gpt2/config.js in web/src/api/model/ names the field first; this guards the core.)
    return Status::invalidValue("a size in config.json is out of range");
  }
  if (c.dModel % c.heads != 0) {
    return Status::shapeMismatch("n_head = " + std::to_string(c.heads) +
                                 " does not divide n_embd = " + std::to_string(c.dModel));
  }
  if (!(c.epsilon > 0) || !std::isfinite(c.epsilon)) {
    return Status::invalidValue("layer_norm_epsilon must be a finite number > 0");
  }
  Gpt2Config config = c;
  if (config.inner == 0) config.inner = 4 * config.dModel;  // GPT2Config's n_inner = None
  const long long D = config.dModel, F = config.inner;
  std::vector<CheckpointParameter> params(4 + static_cast<std::size_t>(kPerLayer) * config.layers +
                                          (config.separateHead ? 1 : 0));
  std::size_t next = 0;
  const auto add = [&](std::string name, long long rows, long long cols) {
    params[next++] = {std::move(name), static_cast<int>(rows), static_cast<int>(cols)};
  };
  // Each dimension below 2^31 (checked for D, V, P above as ints; 3D and F here).
  if (3.0 * D > std::numeric_limits<int>::max()) {
    return Status::outOfMemory("n_embd is too large");
  }
  add("wte.weight", config.vocab, D);
  add("wpe.weight", config.positions, D);
  for (int l = 0; l < config.layers; ++l) {
    const std::string p = "h." + std::to_string(l) + ".";
    for (const LayerShape& shape : kLayerShapes) {
      const auto size = [&](char d) { return d == 'D' ? D : d == '3' ? 3 * D : d == 'F' ? F : 1; };
      add(p + shape.suffix, size(shape.rows), size(shape.cols));
    }
  }
  add("ln_f.weight", 1, D);
  add("ln_f.bias", 1, D);
  if (config.separateHead) add("lm_head.weight", config.vocab, D);
  std::vector<int> linears;
  for (int l = 0; l < config.layers; ++l) {
    for (LayerParam w : {kAttnWeight, kAttnProjWeight, kFcWeight, kMlpProjWeight}) {
      linears.push_back(layerParam(l, w));
    }
  }
  // Conv1D: W stored in x out
  RETURN_IF_ERROR(lay(std::move(params), std::move(linears), WeightLayout::kInOut, config.layers));
  config_ = config;
  return Status::ok();
}

Status Gpt2Model::forward(const std::vector<int>& ids) {
  if (!loaded()) return Status::invalidArgument("the weights are not loaded");
  const Gpt2Config& c = config_;
  const Eigen::Index T = static_cast<Eigen::Index>(ids.size()), D = c.dModel, H = c.heads;
  endCache(0);  // the cache holds nothing until this pass succeeds
  residual_.resize(c.layers + 1);
  // x = wte[ids] + wpe[0..T)                                     (T x D)
  // (The embedding checks 1 <= T <= P and every id.)
  residual_[0].resize(T, D);
  RETURN_IF_ERROR(tokenPositionEmbedding(param(kWte), param(kWpe), ids, residual_[0]));
  RETURN_IF_ERROR(requireFiniteIn(residual_[0], -1, "token + position embeddings (wte + wpe)"));
  beginForward(static_cast<int>(T), c.heads);
  beginCache(static_cast<int>(T), D);

  const Eigen::Index dk = D / H;
  Matrix32 normed(T, D), qkv(T, 3 * D), heads(T, D);
  AttentionMask32 causal;
  causal.causal = true;
  const float eps = static_cast<float>(c.epsilon);
  for (int l = 0; l < c.layers; ++l) {
    const auto P = [&](LayerParam p) { return layerParam(l, p); };
    const Matrix32& x = residual_[l];
    // a = ln_1(x)                                                (T x D)
    const std::string p = "h." + std::to_string(l) + ".";  // the tensors' names, for errors
    layerNormInto(x, paramData(P(kLn1Weight)), paramData(P(kLn1Bias)), eps, normed);
    RETURN_IF_ERROR(requireFiniteIn(normed, l, "first layer norm (" + p + "ln_1)"));
    // qkv = a c_attn + b                                        (T x 3D)
    // Columns: q | k | v, head h's d_k columns at h d_k inside each.
    linear(normed, P(kAttnWeight), P(kAttnBias), qkv);
    RETURN_IF_ERROR(requireFiniteIn(qkv, l, "q, k, v (" + p + "attn.c_attn)"));
    // The KV cache keeps k and v for decoding.
    cachedKeys(l).topRows(T) = qkv.middleCols(D, D);
    cachedValues(l).topRows(T) = qkv.middleCols(2 * D, D);
    // Per head, the existing attention op (float32 path, causal):
    //   weights = softmax(q_h k_h^T / sqrt(d_k))                 (T x T)
    //   heads[:, h d_k .. (h+1) d_k) = weights v_h               (T x d_k)
    for (Eigen::Index h = 0; h < H; ++h) {
      // q, k, v are finite here: a value error can only be a score that overflowed.
      const Status s = scaledDotProductAttention(
          qkv.middleCols(h * dk, dk), qkv.middleCols(D + h * dk, dk),
          qkv.middleCols(2 * D + h * dk, dk), causal, heads.middleCols(h * dk, dk),
          attentionOut(l).middleRows(h * T, T));
      if (s.code == StatusCode::kInvalidValue) {
        return overflowIn(l, "attention scores (head " + std::to_string(h) +
                                 ", q k^T / sqrt(d_k) of " + p + "attn.c_attn)");
      }
      RETURN_IF_ERROR(s);
    }
    // The last block's output counts only at the last position (the logits are
    // the next token's), so from its attention output on it runs on that row
    // alone: 3/4 of a block's products, 6% of the pass for 64 tokens.
    const Eigen::Index first = l + 1 == c.layers ? T - 1 : 0, rows = T - first;
    RETURN_IF_ERROR(
        blockTail(l, heads.middleRows(first, rows), x.middleRows(first, rows), residual_[l + 1]));
  }
  finish(residual_[c.layers]);
  endCache(static_cast<int>(T));
  return Status::ok();
}

Status Gpt2Model::blockTail(int l, const MatrixView32& heads, const MatrixView32& x,
                            Matrix32& next) const {
  const Gpt2Config& c = config_;
  const auto P = [&](LayerParam p) { return layerParam(l, p); };
  const std::string p = "h." + std::to_string(l) + ".";
  const Eigen::Index rows = x.rows();
  const float eps = static_cast<float>(c.epsilon);
  // x = x + heads c_proj + b; m = ln_2(x)                      (rows x D)
  Matrix32 attnOut(rows, c.dModel), normed(rows, c.dModel), hidden(rows, c.inner),
      mlpOut(rows, c.dModel);
  linear(heads, P(kAttnProjWeight), P(kAttnProjBias), attnOut);
  next = x + attnOut;
  RETURN_IF_ERROR(requireFiniteIn(next, l, "attention output (" + p + "attn.c_proj)"));
  layerNormInto(next, paramData(P(kLn2Weight)), paramData(P(kLn2Bias)), eps, normed);
  RETURN_IF_ERROR(requireFiniteIn(normed, l, "second layer norm (" + p + "ln_2)"));
  // hidden = gelu(m c_fc + b)                                  (rows x F)
  linear(normed, P(kFcWeight), P(kFcBias), hidden);
  RETURN_IF_ERROR(requireFiniteIn(hidden, l, "MLP hidden layer (" + p + "mlp.c_fc)"));
  geluInPlace(hidden.data(), static_cast<std::size_t>(hidden.size()), c.gelu);
  // x = x + hidden c_proj + b                                  (rows x D)
  linear(hidden, P(kMlpProjWeight), P(kMlpProjBias), mlpOut);
  next += mlpOut;
  return requireFiniteIn(next, l, "MLP output (" + p + "mlp.c_proj)");
}

void Gpt2Model::finish(const Matrix32& lastRow) {
  const Gpt2Config& c = config_;
  const Eigen::Index D = c.dModel;
  // h = ln_f(x), the last position                              (1 x D)
  const int lnF = kFirstLayer + c.layers * kPerLayer;
  final_.resize(1, D);
  layerNormInto(lastRow, paramData(lnF), paramData(lnF + 1), static_cast<float>(c.epsilon), final_);
  // logits = W h (V), W = wte (tied) or lm_head (V x D): the gemm's
  // matrix-vector case, W read once in place (never packed or copied).
  logits_.resize(1, c.vocab);
  gemv(c.vocab, D, paramData(c.separateHead ? lnF + 2 : kWte), D, final_.data(), logits_.data());
  // Finite weights can still overflow float32 here (|logit| > 3.4e38): then a
  // probability is NaN, which the JS side reports (web/src/api/model/base_model.js).
  // p = softmax(logits)                                          (V)
  probabilities_ = logits_;
  softmaxRow(probabilities_.data(), c.vocab, c.vocab, c.vocab, 1.0f,
             static_cast<const float*>(nullptr));
}

Status Gpt2Model::reserveCache(int positions) {
  if (positions < 0 || positions > config_.positions) {
    return Status::shapeMismatch("the KV cache's positions must be in [0, n_positions = " +
                                 std::to_string(config_.positions) + "], got " +
                                 std::to_string(positions));
  }
  return reserveKeysValues(positions, config_.dModel);
}

Status Gpt2Model::decode(int id) {
  const Gpt2Config& c = config_;
  const int t = cachedPositions();
  RETURN_IF_ERROR(decodeAllowed(c.positions, "n_positions"));
  if (id < 0 || id >= c.vocab) {
    return Status::invalidValue("id = " + std::to_string(id) +
                                " is outside [0, vocab_size = " + std::to_string(c.vocab) + ")");
  }
  const Eigen::Index D = c.dModel, H = c.heads, dk = D / H, n = t + 1;
  // x = wte[id] + wpe[t]                                         (1 x D)
  Matrix32 x(1, D), next, normed(1, D), qkv(1, 3 * D), heads(1, D);
  readRow(kWte, id, x.data());
  x += param(kWpe).row(t);
  RETURN_IF_ERROR(requireFiniteIn(x, -1, "token + position embeddings (wte + wpe)"));
  beginStep(c.heads);
  for (int l = 0; l < c.layers; ++l) {
    const auto P = [&](LayerParam p) { return layerParam(l, p); };
    const std::string p = "h." + std::to_string(l) + ".";
    layerNormInto(x, paramData(P(kLn1Weight)), paramData(P(kLn1Bias)),
                  static_cast<float>(c.epsilon), normed);
    RETURN_IF_ERROR(requireFiniteIn(normed, l, "first layer norm (" + p + "ln_1)"));
    linear(normed, P(kAttnWeight), P(kAttnBias), qkv);
    RETURN_IF_ERROR(requireFiniteIn(qkv, l, "q, k, v (" + p + "attn.c_attn)"));
    // Append this position's k and v; attend over positions 0..t.
    Matrix32& keys = cachedKeys(l);
    Matrix32& values = cachedValues(l);
    keys.row(t) = qkv.middleCols(D, D);
    values.row(t) = qkv.middleCols(2 * D, D);
    for (Eigen::Index h = 0; h < H; ++h) {
      const Status s =
          cachedAttentionRow(qkv.middleCols(h * dk, dk), keys.topRows(n).middleCols(h * dk, dk),
                             values.topRows(n).middleCols(h * dk, dk), 0, 0.0,
                             heads.middleCols(h * dk, dk), stepAttentionOut(l).row(h));
      if (s.code == StatusCode::kInvalidValue) {
        return overflowIn(l, "attention scores (head " + std::to_string(h) +
                                 ", q k^T / sqrt(d_k) of " + p + "attn.c_attn)");
      }
      RETURN_IF_ERROR(s);
    }
    RETURN_IF_ERROR(blockTail(l, heads, x, next));
    x.swap(next);
  }
  finish(x);
  endCache(t + 1);
  return Status::ok();
}

Status Gpt2Model::headInputs(int l, const MatrixView32& gamma, const MatrixView32& beta,
                             const MatrixView32& weight, const MatrixView32& bias,
                             MatrixOut32 out) const {
  const Gpt2Config& c = config_;
  if (tokens() < 1 || l < 0 || l >= c.layers) {
    return Status::invalidArgument("no forward pass, or layer " + std::to_string(l) +
                                   " out of range");
  }
  const Matrix32& x = residual_[l];
  if (gamma.size() != c.dModel || beta.size() != c.dModel || weight.rows() != c.dModel ||
      bias.size() != weight.cols() || out.rows() != x.rows() ||
      out.cols() != c.dModel + weight.cols()) {
    return Status::shapeMismatch("headInputs: the weights do not fit n_embd");
  }
  Matrix32 normed(x.rows(), x.cols());
  layerNormInto(x, gamma.data(), beta.data(), static_cast<float>(c.epsilon), normed);
  Matrix32 projected(x.rows(), weight.cols());
  linearInto(normed, weight, bias.data(), WeightLayout::kInOut, projected);
  // The head's input rows first: a reader's explanation of q = x W + b needs them.
  out.leftCols(c.dModel) = normed;
  out.rightCols(weight.cols()) = projected;
  return Status::ok();
}

}  // namespace attention

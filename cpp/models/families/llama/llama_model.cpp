#include "models/families/llama/llama_model.h"

#include <cmath>
#include <limits>

#include "ops/attention.h"
#include "ops/cached_attention.h"
#include "ops/gemm.h"
#include "ops/linear.h"
#include "ops/softmax.h"
#include "ops/validate.h"

namespace attention {

namespace {

// A layer's parameters, in this order (absent ones -1 in index_).
enum LayerParam {
  kInputNorm,
  kQ,
  kQBias,
  kK,
  kKBias,
  kV,
  kVBias,
  kO,
  kOBias,
  kQNorm,
  kKNorm,
  kPostAttentionNorm,
  kPreFeedforwardNorm,
  kPostFeedforwardNorm,
  kGate,
  kGateBias,
  kUp,
  kUpBias,
  kDown,
  kDownBias,
  kPerLayer
};
constexpr int kMaxLayers = 4096;  // bounds the parameter list

std::string num(double x) {
  std::string s = std::to_string(x);
  return s;
}

}  // namespace

bool LlamaModel::sliding(int l) const {
  return l < static_cast<int>(config_.slidingLayers.size()) && config_.slidingLayers[l] == '1';
}

Status LlamaModel::configure(const LlamaConfig& c) {
  if (c.layers < 1 || c.layers > kMaxLayers) {
    return Status::invalidValue("num_hidden_layers must be in [1, " + std::to_string(kMaxLayers) +
                                "], got " + std::to_string(c.layers));
  }
  if (c.heads < 1 || c.kvHeads < 1 || c.dModel < 1 || c.headDim < 1 || c.inner < 1 || c.vocab < 1 ||
      c.positions < 1) {
    // (families/llama/config.js in web/src/api/model/ names the field first; this guards the core.)
    return Status::invalidValue("a size in config.json is out of range");
  }
  if (c.heads % c.kvHeads != 0) {
    return Status::shapeMismatch(
        "num_key_value_heads = " + std::to_string(c.kvHeads) +
        " does not divide num_attention_heads = " + std::to_string(c.heads));
  }
  if (c.headDim % 2 != 0) {
    return Status::invalidValue("head_dim = " + std::to_string(c.headDim) +
                                " must be even (RoPE turns coordinates in pairs)");
  }
  if (!(c.epsilon > 0) || !std::isfinite(c.epsilon)) {
    return Status::invalidValue("rms_norm_eps must be a finite number > 0");
  }
  if (!c.slidingLayers.empty() && static_cast<int>(c.slidingLayers.size()) != c.layers) {
    return Status::shapeMismatch("layer_types has " + std::to_string(c.slidingLayers.size()) +
                                 " entries but num_hidden_layers = " + std::to_string(c.layers));
  }
  if (c.slidingWindow < 0) {
    return Status::invalidValue("sliding_window must be >= 0, got " +
                                std::to_string(c.slidingWindow));
  }
  if (c.queryPreAttnScalar != 0 &&
      !(c.queryPreAttnScalar >= 1 && std::isfinite(c.queryPreAttnScalar))) {
    return Status::invalidValue("query_pre_attn_scalar must be a finite number >= 1, got " +
                                num(c.queryPreAttnScalar));
  }
  if (!(c.finalLogitSoftcap >= 0) || !std::isfinite(c.finalLogitSoftcap)) {
    return Status::invalidValue("final_logit_softcapping must be a finite number > 0 or null");
  }
  std::vector<double> globalFreq, localFreq;
  Status s = ropeInverseFrequencies(c.headDim, c.ropeTheta, c.ropeScaling, globalFreq);
  if (!s.isOk()) return Status::invalidValue("rope_theta / rope_scaling: " + s.message);
  s = ropeInverseFrequencies(c.headDim, c.ropeLocalBase > 0 ? c.ropeLocalBase : c.ropeTheta,
                             RopeScaling{}, localFreq);
  if (!s.isOk()) return Status::invalidValue("rope_local_base_freq: " + s.message);
  // Each dimension below 2^31.
  const long long D = c.dModel, F = c.inner, hd = c.headDim, Q = hd * c.heads, KVD = hd * c.kvHeads;
  if (Q > std::numeric_limits<int>::max()) {
    return Status::outOfMemory("num_attention_heads x head_dim is too large");
  }

  std::vector<CheckpointParameter> params;
  std::vector<int> linears, index(static_cast<std::size_t>(kPerLayer) * c.layers, -1);
  const auto add = [&](std::string name, long long rows, long long cols) {
    params.push_back({std::move(name), static_cast<int>(rows), static_cast<int>(cols)});
    return static_cast<int>(params.size()) - 1;
  };
  const int embed = add("embed_tokens.weight", c.vocab, D);
  for (int l = 0; l < c.layers; ++l) {
    const std::string p = "layers." + std::to_string(l) + ".";
    int* at = index.data() + static_cast<std::size_t>(l) * kPerLayer;
    const auto linear = [&](LayerParam w, LayerParam b, const std::string& name, long long out,
                            long long in, bool bias) {
      at[w] = add(p + name + ".weight", out, in);
      linears.push_back(at[w]);
      if (bias) at[b] = add(p + name + ".bias", 1, out);
    };
    at[kInputNorm] = add(p + "input_layernorm.weight", 1, D);
    linear(kQ, kQBias, "self_attn.q_proj", Q, D, c.attentionBias);
    linear(kK, kKBias, "self_attn.k_proj", KVD, D, c.attentionBias);
    linear(kV, kVBias, "self_attn.v_proj", KVD, D, c.attentionBias);
    linear(kO, kOBias, "self_attn.o_proj", D, Q, c.outputBias);
    if (c.qkNorm) {
      at[kQNorm] = add(p + "self_attn.q_norm.weight", 1, hd);
      at[kKNorm] = add(p + "self_attn.k_norm.weight", 1, hd);
    }
    at[kPostAttentionNorm] = add(p + "post_attention_layernorm.weight", 1, D);
    if (c.sandwichNorms) {
      at[kPreFeedforwardNorm] = add(p + "pre_feedforward_layernorm.weight", 1, D);
      at[kPostFeedforwardNorm] = add(p + "post_feedforward_layernorm.weight", 1, D);
    }
    linear(kGate, kGateBias, "mlp.gate_proj", F, D, c.mlpBias);
    linear(kUp, kUpBias, "mlp.up_proj", F, D, c.mlpBias);
    linear(kDown, kDownBias, "mlp.down_proj", D, F, c.mlpBias);
  }
  const int finalNorm = add("norm.weight", 1, D);
  const int head = c.separateHead ? add("lm_head.weight", c.vocab, D) : embed;
  // PyTorch's nn.Linear: W stored out x in
  // The embedding and output tables are read through readRow / timesVector: they may stay 16-bit.
  std::vector<int> tables = {embed};
  if (head != embed) tables.push_back(head);
  RETURN_IF_ERROR(lay(std::move(params), std::move(linears), WeightLayout::kOutIn, c.layers,
                      std::move(tables)));
  config_ = c;
  index_ = std::move(index);
  embed_ = embed;
  finalNorm_ = finalNorm;
  head_ = head;
  globalFreq_ = std::move(globalFreq);
  localFreq_ = std::move(localFreq);
  residual_.clear();
  return Status::ok();
}

void LlamaModel::rmsNorm(const MatrixView32& x, int weight, Eigen::Index width,
                         MatrixOut32 y) const {
  rmsNormInto(x, paramData(weight), width, static_cast<float>(config_.epsilon),
              config_.normOffset ? RmsNormWeight::kOffsetByOne : RmsNormWeight::kPlain, y);
}

// q (T x H hd), k, v (T x KV hd) of layer l from its input x, QK-normed, not rotated.
Status LlamaModel::projectHeads(int l, const Matrix32& x, Matrix32& q, Matrix32& k,
                                Matrix32& v) const {
  const LlamaConfig& c = config_;
  const int* at = index_.data() + static_cast<std::size_t>(l) * kPerLayer;
  const Eigen::Index T = x.rows(), hd = c.headDim;
  Matrix32 normed(T, c.dModel);
  rmsNorm(x, at[kInputNorm], c.dModel, normed);
  RETURN_IF_ERROR(finiteIn(normed, l, "input norm", "input_layernorm"));
  q.resize(T, hd * c.heads);
  k.resize(T, hd * c.kvHeads);
  v.resize(T, hd * c.kvHeads);
  linear(normed, at[kQ], at[kQBias], q);
  linear(normed, at[kK], at[kKBias], k);
  linear(normed, at[kV], at[kVBias], v);
  RETURN_IF_ERROR(finiteIn(q, l, "queries", "self_attn.q_proj"));
  RETURN_IF_ERROR(finiteIn(k, l, "keys", "self_attn.k_proj"));
  RETURN_IF_ERROR(finiteIn(v, l, "values", "self_attn.v_proj"));
  if (c.qkNorm) {
    rmsNorm(q, at[kQNorm], hd, q);
    rmsNorm(k, at[kKNorm], hd, k);
    RETURN_IF_ERROR(finiteIn(q, l, "QK-norm", "self_attn.q_norm"));
    RETURN_IF_ERROR(finiteIn(k, l, "QK-norm", "self_attn.k_norm"));
  }
  return Status::ok();
}

// requireFiniteIn's check, its message ("<what> (layers.<l>.<tensor>)") built only on failure.
Status LlamaModel::finiteIn(const MatrixView32& values, int l, const char* what,
                            const char* tensor) {
  for (Eigen::Index i = 0; i < values.rows(); ++i) {
    if (!allFinite(values.data() + i * values.outerStride(), values.cols())) {
      return overflowIn(l,
                        std::string(what) + " (layers." + std::to_string(l) + "." + tensor + ")");
    }
  }
  return Status::ok();
}

Status LlamaModel::forward(const std::vector<int>& ids) {
  if (!loaded()) return Status::invalidArgument("the weights are not loaded");
  const LlamaConfig& c = config_;
  const Eigen::Index T = static_cast<Eigen::Index>(ids.size()), D = c.dModel, hd = c.headDim;
  endCache(0);  // the cache holds nothing until this pass succeeds
  if (T < 1 || T > c.positions) {
    return Status::shapeMismatch(
        "ids has " + std::to_string(T) +
        " tokens but must have 1 to max_position_embeddings = " + std::to_string(c.positions));
  }
  for (std::size_t t = 0; t < ids.size(); ++t) {
    if (ids[t] < 0 || ids[t] >= c.vocab) {
      return Status::invalidValue("ids[" + std::to_string(t) + "] = " + std::to_string(ids[t]) +
                                  " is outside [0, vocab_size = " + std::to_string(c.vocab) + ")");
    }
  }
  residual_.assign(c.layers + 1, Matrix32());
  // x = embed_tokens[ids] (times sqrt(D), rounded to float, for Gemma)     (T x D)
  const float scale = c.embedScale ? static_cast<float>(std::sqrt(static_cast<double>(D))) : 1.0f;
  residual_[0].resize(T, D);
  for (Eigen::Index t = 0; t < T; ++t) {
    readRow(embed_, ids[t], residual_[0].row(t).data());
    residual_[0].row(t) *= scale;
  }
  RETURN_IF_ERROR(requireFiniteIn(residual_[0], -1, "token embeddings (embed_tokens)"));
  beginForward(static_cast<int>(T), c.heads);
  beginCache(static_cast<int>(T), hd * c.kvHeads);
  positions_.resize(T);
  for (Eigen::Index t = 0; t < T; ++t) positions_[t] = static_cast<int>(t);

  Matrix32 q, k, v, heads(T, hd * c.heads);
  for (int l = 0; l < c.layers; ++l) {
    const Matrix32& x = residual_[l];
    RETURN_IF_ERROR(projectHeads(l, x, q, k, v));
    // RoPE of q and k at positions 0..T-1, with the layer's base
    const std::vector<double>& freq = sliding(l) ? localFreq_ : globalFreq_;
    RETURN_IF_ERROR(applyRope(q, positions_, freq, c.headDim, RopePairing::kHalf));
    RETURN_IF_ERROR(applyRope(k, positions_, freq, c.headDim, RopePairing::kHalf));
    // The KV cache keeps the rotated keys and the values for decoding.
    cachedKeys(l).topRows(T) = k;
    cachedValues(l).topRows(T) = v;
    // Per query head h, attention on its columns of q and its kv head's of k, v:
    //   weights = softmax(q_h k_g^T * scale), causal (and windowed)   (T x T)
    //   heads[:, h hd .. (h+1) hd) = weights v_g                      (T x hd)
    AttentionMask32 mask;
    mask.causal = true;
    mask.window = sliding(l) ? c.slidingWindow : 0;
    mask.scale = scoreScale();
    for (int h = 0; h < c.heads; ++h) {
      const Eigen::Index g = kvHeadOf(h);
      const Status s = scaledDotProductAttention(
          q.middleCols(h * hd, hd), k.middleCols(g * hd, hd), v.middleCols(g * hd, hd), mask,
          heads.middleCols(h * hd, hd), attentionOut(l).middleRows(h * T, T));
      if (s.code == StatusCode::kInvalidValue) {
        return overflowIn(l, "attention scores (head " + std::to_string(h) + " of layers." +
                                 std::to_string(l) + ".self_attn)");
      }
      RETURN_IF_ERROR(s);
    }
    // The last layer's output counts only at the last position (the logits are
    // the next token's): from its attention output on it runs on that row alone.
    const Eigen::Index first = l + 1 == c.layers ? T - 1 : 0, rows = T - first;
    RETURN_IF_ERROR(
        blockTail(l, heads.middleRows(first, rows), x.middleRows(first, rows), residual_[l + 1]));
  }
  finish(residual_[c.layers]);
  endCache(static_cast<int>(T));
  return Status::ok();
}

double LlamaModel::scoreScale() const {
  return config_.queryPreAttnScalar > 0 ? 1.0 / std::sqrt(config_.queryPreAttnScalar) : 0.0;
}

Status LlamaModel::blockTail(int l, const MatrixView32& heads, const MatrixView32& x,
                             Matrix32& next) const {
  const LlamaConfig& c = config_;
  const int* at = index_.data() + static_cast<std::size_t>(l) * kPerLayer;
  const Eigen::Index rows = x.rows(), D = c.dModel, F = c.inner;
  Matrix32 attn(rows, D), m(rows, D), gate(rows, F), up(rows, F), down(rows, D);
  linear(heads, at[kO], at[kOBias], attn);
  if (c.sandwichNorms) rmsNorm(attn, at[kPostAttentionNorm], D, attn);
  next = x + attn;
  RETURN_IF_ERROR(finiteIn(next, l, "attention output", "self_attn.o_proj"));
  // MLP: down(act(gate(m)) * up(m)), m the normed stream               (rows x D)
  rmsNorm(next, at[c.sandwichNorms ? kPreFeedforwardNorm : kPostAttentionNorm], D, m);
  linear(m, at[kGate], at[kGateBias], gate);
  linear(m, at[kUp], at[kUpBias], up);
  RETURN_IF_ERROR(finiteIn(gate, l, "MLP gate", "mlp.gate_proj"));
  RETURN_IF_ERROR(finiteIn(up, l, "MLP up", "mlp.up_proj"));
  gateInPlace(gate.data(), up.data(), static_cast<std::size_t>(rows * F), c.activation);
  linear(gate, at[kDown], at[kDownBias], down);
  if (c.sandwichNorms) rmsNorm(down, at[kPostFeedforwardNorm], D, down);
  next += down;
  return finiteIn(next, l, "MLP output", "mlp.down_proj");
}

void LlamaModel::finish(const Matrix32& lastRow) {
  const LlamaConfig& c = config_;
  // h = norm(x) at the last position; logits = W h (V), W = lm_head or embed_tokens
  Matrix32 last(1, c.dModel);
  rmsNorm(lastRow, finalNorm_, c.dModel, last);
  logits_.resize(1, c.vocab);
  timesVector(head_, last.data(), logits_.data());
  if (c.finalLogitSoftcap > 0) {
    const float cap = static_cast<float>(c.finalLogitSoftcap);
    for (Eigen::Index i = 0; i < c.vocab; ++i) logits_(0, i) = cap * std::tanh(logits_(0, i) / cap);
  }
  // Finite weights can still overflow float32 here: then a probability is NaN,
  // which the JS side reports (web/src/api/model/base_model.js).
  probabilities_ = logits_;
  softmaxRow(probabilities_.data(), c.vocab, c.vocab, c.vocab, 1.0f,
             static_cast<const float*>(nullptr));
}

Status LlamaModel::reserveCache(int positions) {
  if (positions < 0 || positions > config_.positions) {
    return Status::shapeMismatch(
        "the KV cache's positions must be in [0, max_position_embeddings = " +
        std::to_string(config_.positions) + "], got " + std::to_string(positions));
  }
  return reserveKeysValues(positions, Eigen::Index{config_.headDim} * config_.kvHeads);
}

Status LlamaModel::decode(int id) {
  const LlamaConfig& c = config_;
  const int t = cachedPositions();
  RETURN_IF_ERROR(decodeAllowed(c.positions, "max_position_embeddings"));
  if (id < 0 || id >= c.vocab) {
    return Status::invalidValue("id = " + std::to_string(id) +
                                " is outside [0, vocab_size = " + std::to_string(c.vocab) + ")");
  }
  const Eigen::Index D = c.dModel, hd = c.headDim, n = t + 1;
  Matrix32 x(1, D), next, q, k, v, heads(1, hd * c.heads);
  readRow(embed_, id, x.data());
  if (c.embedScale) x *= static_cast<float>(std::sqrt(static_cast<double>(D)));
  RETURN_IF_ERROR(requireFiniteIn(x, -1, "token embeddings (embed_tokens)"));
  const std::vector<int> position = {t};
  beginStep(c.heads);
  for (int l = 0; l < c.layers; ++l) {
    RETURN_IF_ERROR(projectHeads(l, x, q, k, v));
    const std::vector<double>& freq = sliding(l) ? localFreq_ : globalFreq_;
    RETURN_IF_ERROR(applyRope(q, position, freq, c.headDim, RopePairing::kHalf));
    RETURN_IF_ERROR(applyRope(k, position, freq, c.headDim, RopePairing::kHalf));
    // Append this position's key and value; each query head attends over 0..t
    // through its kv head's columns of the cache.
    Matrix32& keys = cachedKeys(l);
    Matrix32& values = cachedValues(l);
    keys.row(t) = k;
    values.row(t) = v;
    const int window = sliding(l) ? c.slidingWindow : 0;
    for (int h = 0; h < c.heads; ++h) {
      const Eigen::Index g = kvHeadOf(h);
      const Status s =
          cachedAttentionRow(q.middleCols(h * hd, hd), keys.topRows(n).middleCols(g * hd, hd),
                             values.topRows(n).middleCols(g * hd, hd), window, scoreScale(),
                             heads.middleCols(h * hd, hd), stepAttentionOut(l).row(h));
      if (s.code == StatusCode::kInvalidValue) {
        return overflowIn(l, "attention scores (head " + std::to_string(h) + " of layers." +
                                 std::to_string(l) + ".self_attn)");
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

Status LlamaModel::headInputs(int l, int h, MatrixOut32 out) const {
  const LlamaConfig& c = config_;
  if (tokens() < 1 || residual_.empty() || l < 0 || l >= c.layers || h < 0 || h >= c.heads) {
    return Status::invalidArgument("no forward pass, or layer " + std::to_string(l) + " or head " +
                                   std::to_string(h) + " out of range");
  }
  const Eigen::Index T = tokens(), hd = c.headDim, g = kvHeadOf(h);
  if (out.rows() != T || out.cols() != 5 * hd) {
    return Status::shapeMismatch("headInputs: out is " + std::to_string(out.rows()) + "x" +
                                 std::to_string(out.cols()) + " but must be " + std::to_string(T) +
                                 "x" + std::to_string(5 * hd));
  }
  Matrix32 q, k, v;
  RETURN_IF_ERROR(projectHeads(l, residual_[l], q, k, v));
  out.middleCols(0, hd) = q.middleCols(h * hd, hd);
  out.middleCols(hd, hd) = k.middleCols(g * hd, hd);
  out.middleCols(2 * hd, hd) = v.middleCols(g * hd, hd);
  out.middleCols(3 * hd, hd) = q.middleCols(h * hd, hd);
  out.middleCols(4 * hd, hd) = k.middleCols(g * hd, hd);
  const std::vector<double>& freq = sliding(l) ? localFreq_ : globalFreq_;
  RETURN_IF_ERROR(
      applyRope(out.middleCols(3 * hd, 2 * hd), positions_, freq, c.headDim, RopePairing::kHalf));
  return Status::ok();
}

}  // namespace attention

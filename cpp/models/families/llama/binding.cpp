// The rotary decoder families' class in the model module (cpp/model_bindings.h):
// `_LlamaModel`, a decoder (causalModelClass), configured by a value_object in
// config.json's names plus the flags each family's registry row decides
// (web/src/api/model/families/llama/index.js and its siblings: qk_norm,
// norm_offset, sandwich_norms, embed_scale, gelu_tanh, the biases, lm_head, the
// sliding layers as a string of '0'/'1', the RoPE scaling flattened), and
// explainHead's headInputs and headSources.
#include <emscripten/bind.h>

#include "model_bindings.h"
#include "models/families/llama/llama_model.h"

namespace attention {
namespace {

// out: (T x 5 hd) float32, q | k | v | qRotated | kRotated of head h in layer l.
StatusCode headInputs(const LlamaModel& model, int l, int h, const Tensor& out) {
  return guarded([&] { return model.headInputs(l, h, out.outputOf<float>()); });
}
// out: (T x (D + 2 hd)) float32, x | qPre | kPre: what headInputs' q, k are computed from.
StatusCode headSources(const LlamaModel& model, int l, int h, const Tensor& out) {
  return guarded([&] { return model.headSources(l, h, out.outputOf<float>()); });
}

// RopeScaling's fields, flattened into the config object.
int ropeType(const LlamaConfig& c) { return static_cast<int>(c.ropeScaling.type); }
void setRopeType(LlamaConfig& c, int type) {
  c.ropeScaling.type = type == 1   ? RopeScaling::Type::kLinear
                       : type == 2 ? RopeScaling::Type::kLlama3
                                   : RopeScaling::Type::kNone;
}
double ropeFactor(const LlamaConfig& c) { return c.ropeScaling.factor; }
void setRopeFactor(LlamaConfig& c, double x) { c.ropeScaling.factor = x; }
double lowFreq(const LlamaConfig& c) { return c.ropeScaling.lowFreqFactor; }
void setLowFreq(LlamaConfig& c, double x) { c.ropeScaling.lowFreqFactor = x; }
double highFreq(const LlamaConfig& c) { return c.ropeScaling.highFreqFactor; }
void setHighFreq(LlamaConfig& c, double x) { c.ropeScaling.highFreqFactor = x; }
int originalPositions(const LlamaConfig& c) { return c.ropeScaling.originalMaxPositions; }
void setOriginalPositions(LlamaConfig& c, int x) { c.ropeScaling.originalMaxPositions = x; }
bool geluTanh(const LlamaConfig& c) { return c.activation == GateActivation::kGeluTanh; }
void setGeluTanh(LlamaConfig& c, bool gelu) {
  c.activation = gelu ? GateActivation::kGeluTanh : GateActivation::kSilu;
}

}  // namespace
}  // namespace attention

EMSCRIPTEN_BINDINGS(llama_family) {
  using namespace attention;
  emscripten::value_object<LlamaConfig>("LlamaConfig")
      .field("num_hidden_layers", &LlamaConfig::layers)
      .field("num_attention_heads", &LlamaConfig::heads)
      .field("num_key_value_heads", &LlamaConfig::kvHeads)
      .field("hidden_size", &LlamaConfig::dModel)
      .field("head_dim", &LlamaConfig::headDim)
      .field("intermediate_size", &LlamaConfig::inner)
      .field("vocab_size", &LlamaConfig::vocab)
      .field("max_position_embeddings", &LlamaConfig::positions)
      .field("rms_norm_eps", &LlamaConfig::epsilon)
      .field("rope_theta", &LlamaConfig::ropeTheta)
      .field("rope_scaling_type", &ropeType, &setRopeType)
      .field("rope_scaling_factor", &ropeFactor, &setRopeFactor)
      .field("low_freq_factor", &lowFreq, &setLowFreq)
      .field("high_freq_factor", &highFreq, &setHighFreq)
      .field("original_max_position_embeddings", &originalPositions, &setOriginalPositions)
      .field("rope_local_base_freq", &LlamaConfig::ropeLocalBase)
      .field("sliding_window", &LlamaConfig::slidingWindow)
      .field("sliding_layers", &LlamaConfig::slidingLayers)
      .field("query_pre_attn_scalar", &LlamaConfig::queryPreAttnScalar)
      .field("final_logit_softcapping", &LlamaConfig::finalLogitSoftcap)
      .field("attention_bias", &LlamaConfig::attentionBias)
      .field("output_bias", &LlamaConfig::outputBias)
      .field("mlp_bias", &LlamaConfig::mlpBias)
      .field("qk_norm", &LlamaConfig::qkNorm)
      .field("norm_offset", &LlamaConfig::normOffset)
      .field("sandwich_norms", &LlamaConfig::sandwichNorms)
      .field("embed_scale", &LlamaConfig::embedScale)
      .field("gelu_tanh", &geluTanh, &setGeluTanh)
      .field("lm_head", &LlamaConfig::separateHead);
  causalModelClass<LlamaModel, LlamaConfig>("_LlamaModel")
      .function("headInputs", &headInputs)
      .function("headSources", &headSources);
}

// The GPT-2 module's bindings (a wasm module of its own, build/wasm/gpt2_core.mjs:
// web/src/api/model/open.js instantiates it on the first openModel call, so no
// lesson's first load carries the model or the ops only it uses: layer norm,
// GELU, the token + position embedding, gemv). Same convention as the main
// module (cpp/binding_convention.h).
#include <emscripten/bind.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "binding_convention.h"
#include "models/bert_model.h"
#include "models/gpt2_model.h"
#include "ops/layer_norm.h"
#include "ops/linear.h"

namespace attention {
namespace {

// ---- GPT-2 (web/src/api/model/) ------------------------------------------------------------
// The model owns its float32 weights; the JS reader writes each parameter's
// entries straight to parameterData(i) (a byte address) after configure() and
// allocate(). forward() takes the ids as int32 at a heap address; results are
// copied out into caller-allocated float32 Tensors.

// erf: the exact GELU (activation_function "gelu"), else the tanh form;
// separateHead: lm_head.weight stored. (Positional, not a value_object: smaller wasm.)
StatusCode rawGpt2Configure(Gpt2Model& model, int layers, int heads, int dModel, int positions,
                            int vocab, int inner, double epsilon, bool erf, bool separateHead) {
  return guarded([&] {
    Gpt2Config c;
    c.layers = layers;
    c.heads = heads;
    c.dModel = dModel;
    c.positions = positions;
    c.vocab = vocab;
    c.inner = inner;
    c.epsilon = epsilon;
    c.gelu = erf ? GeluForm::kErf : GeluForm::kTanh;
    c.separateHead = separateHead;
    return model.configure(c);
  });
}
// The loading protocol both models share (models/checkpoint_weights.h):
// step 0: allocate() the weights (zeros); step 1: finishLoading() once they are written.
template <typename Model>
StatusCode rawLoad(Model& model, int step) {
  return guarded([&] { return step == 0 ? model.allocate() : model.finishLoading(); });
}
template <typename Model>
int rawParameterCount(const Model& model) {
  return static_cast<int>(model.parameters().size());
}
// "name rows cols" of parameter i ("" outside the list).
template <typename Model>
std::string rawParameter(const Model& model, int i) {
  if (i < 0 || i >= rawParameterCount(model)) return std::string();
  const CheckpointParameter& p = model.parameters()[i];
  return p.name + " " + std::to_string(p.rows) + " " + std::to_string(p.cols);
}
// Byte address of parameter i's entries (0 before allocate() and after finishLoading()).
template <typename Model>
double rawParameterData(Model& model, int i) {
  return static_cast<double>(reinterpret_cast<std::uintptr_t>(model.parameterData(i)));
}
// `count` int32 at a heap address (ids, token types, positions).
std::vector<int> intsAt(Ptr at, int count) {
  const auto* first = reinterpret_cast<const std::int32_t*>(static_cast<std::uintptr_t>(at));
  return std::vector<int>(first, first + std::max(count, 0));
}
StatusCode rawGpt2Forward(Gpt2Model& model, Ptr ids, int count) {
  return guarded([&] { return model.forward(intsAt(ids, count)); });
}
template <typename Dense>
void copyOutFloats(const Dense& result, const Tensor& out) {
  std::copy(result.data(), result.data() + result.size(), out.elements<float>());
}
// out: (H T x T) float32, layer l's attention weights (head h: rows h T .. (h + 1) T - 1).
template <typename Model>
void rawCopyAttention(const Model& model, int l, const Tensor& out) {
  if (l >= 0 && l < model.config().layers) copyOutFloats(model.attention(l), out);
}
// out: (1 x V) float32, the last position's probabilities (which = 0) or logits (1).
void rawGpt2CopyLast(const Gpt2Model& model, int which, const Tensor& out) {
  copyOutFloats(which == 0 ? model.probabilities() : model.logits(), out);
}

// Explaining a head (web/src/api/model/gpt2.js explainHead): layer l's ln_1 of the
// last forward()'s residual stream, times `weight` (D x n, float32, row-major: one
// head's q | k | v columns of c_attn, which the reader reads again from its file on
// demand) plus `bias` (1 x n) -> out (T x n). The core's own layer norm and linear ops.
StatusCode rawGpt2HeadInputs(const Gpt2Model& model, int l, const Tensor& gamma, const Tensor& beta,
                             const Tensor& weight, const Tensor& bias, const Tensor& out) {
  return guarded([&] {
    const Gpt2Config& c = model.config();
    if (model.tokens() < 1 || l < 0 || l >= c.layers) {
      return Status::invalidArgument("no forward pass, or layer " + std::to_string(l) +
                                     " out of range");
    }
    const Matrix32& x = model.residual(l);
    if (gamma.rows * gamma.cols != c.dModel || beta.rows * beta.cols != c.dModel ||
        weight.rows != c.dModel || bias.rows * bias.cols != weight.cols || out.rows != x.rows() ||
        out.cols != weight.cols) {
      return Status::shapeMismatch("headInputs: the weights do not fit n_embd");
    }
    Matrix32 normed(x.rows(), x.cols());
    layerNormInto(x, gamma.elements<float>(), beta.elements<float>(), static_cast<float>(c.epsilon),
                  normed);
    linearInto(normed, weight.matrixOf<float>(), bias.elements<float>(), WeightLayout::kInOut,
               out.outputOf<float>());
    return Status::ok();
  });
}

// ---- BERT (web/src/api/model/bert.js) -------------------------------------------------------
// The same loading protocol as GPT-2's; forward() takes ids and token types as
// int32 at heap addresses, predict() the positions to give masked-LM logits for.

StatusCode rawBertConfigure(BertModel& model, int layers, int heads, int dModel, int inner,
                            int positions, int types, int vocab, double epsilon, bool erf,
                            bool maskedLm) {
  return guarded([&] {
    BertConfig c;
    c.layers = layers;
    c.heads = heads;
    c.dModel = dModel;
    c.inner = inner;
    c.positions = positions;
    c.types = types;
    c.vocab = vocab;
    c.epsilon = epsilon;
    c.gelu = erf ? GeluForm::kErf : GeluForm::kTanh;
    c.maskedLm = maskedLm;
    return model.configure(c);
  });
}
StatusCode rawBertForward(BertModel& model, Ptr ids, Ptr types, int count) {
  return guarded([&] { return model.forward(intsAt(ids, count), intsAt(types, count)); });
}
// out: (count x V) float32 logits of the positions at `positions` (int32).
StatusCode rawBertPredict(const BertModel& model, Ptr positions, int count, const Tensor& out) {
  return guarded([&] {
    Matrix32 logits;
    RETURN_IF_ERROR(model.predict(intsAt(positions, count), logits));
    copyOutFloats(logits, out);
    return Status::ok();
  });
}

}  // namespace
}  // namespace attention

EMSCRIPTEN_BINDINGS(gpt2_core) {
  using namespace attention;
  bindConvention();
  emscripten::class_<Gpt2Model>("_Gpt2Model")
      .constructor<>()
      .function("configure", &rawGpt2Configure)
      .function("load", &rawLoad<Gpt2Model>)
      .function("parameterCount", &rawParameterCount<Gpt2Model>)
      .function("parameter", &rawParameter<Gpt2Model>)
      .function("parameterData", &rawParameterData<Gpt2Model>)
      .function("forward", &rawGpt2Forward)
      .function("copyAttention", &rawCopyAttention<Gpt2Model>)
      .function("copyLast", &rawGpt2CopyLast)
      .function("headInputs", &rawGpt2HeadInputs);
  emscripten::class_<BertModel>("_BertModel")
      .constructor<>()
      .function("configure", &rawBertConfigure)
      .function("load", &rawLoad<BertModel>)
      .function("parameterCount", &rawParameterCount<BertModel>)
      .function("parameter", &rawParameter<BertModel>)
      .function("parameterData", &rawParameterData<BertModel>)
      .function("forward", &rawBertForward)
      .function("copyAttention", &rawCopyAttention<BertModel>)
      .function("predict", &rawBertPredict);
}

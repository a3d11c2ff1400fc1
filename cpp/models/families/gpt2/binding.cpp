// GPT-2's class in the model module (cpp/model_bindings.h): `_Gpt2Model`, its
// configure(config) taking config.json's fields by name (the reader's row,
// web/src/api/model/families/gpt2/index.js, adds the two the files decide:
// gelu_erf from activation_function, lm_head when lm_head.weight is stored),
// its forward pass over int32 ids at a heap address, its last-position results
// and explainHead's headInputs.
#include <emscripten/bind.h>

#include "model_bindings.h"
#include "models/families/gpt2/gpt2_model.h"

namespace attention {
namespace {

using model_bindings::copyOutFloats;
using model_bindings::floatsOf;
using model_bindings::intsAt;

bool geluErf(const Gpt2Config& c) { return c.gelu == GeluForm::kErf; }
void setGeluErf(Gpt2Config& c, bool erf) { c.gelu = erf ? GeluForm::kErf : GeluForm::kTanh; }

StatusCode forward(Gpt2Model& model, Ptr ids, int count) {
  return guarded([&] { return model.forward(intsAt(ids, count)); });
}
// out: (1 x V) float32, the last position's probabilities (which = 0) or logits (1).
void copyLast(const Gpt2Model& model, int which, const Tensor& out) {
  copyOutFloats(which == 0 ? model.probabilities() : model.logits(), out);
}
// Gpt2Model::headInputs on float32 Tensors (gamma, beta, bias: 1 x n vectors).
StatusCode headInputs(const Gpt2Model& model, int l, const Tensor& gamma, const Tensor& beta,
                      const Tensor& weight, const Tensor& bias, const Tensor& out) {
  return guarded([&] {
    return model.headInputs(l, floatsOf(gamma), floatsOf(beta), floatsOf(weight), floatsOf(bias),
                            out.outputOf<float>());
  });
}

}  // namespace
}  // namespace attention

EMSCRIPTEN_BINDINGS(gpt2_family) {
  using namespace attention;
  emscripten::value_object<Gpt2Config>("Gpt2Config")
      .field("n_layer", &Gpt2Config::layers)
      .field("n_head", &Gpt2Config::heads)
      .field("n_embd", &Gpt2Config::dModel)
      .field("n_positions", &Gpt2Config::positions)
      .field("vocab_size", &Gpt2Config::vocab)
      .field("n_inner", &Gpt2Config::inner)
      .field("layer_norm_epsilon", &Gpt2Config::epsilon)
      .field("gelu_erf", &geluErf, &setGeluErf)
      .field("lm_head", &Gpt2Config::separateHead);
  checkpointModelClass<Gpt2Model, Gpt2Config>("_Gpt2Model")
      .function("forward", &forward)
      .function("copyLast", &copyLast)
      .function("headInputs", &headInputs);
}

// GPT-2's class in the model module (cpp/model_bindings.h): `_Gpt2Model`, a
// decoder (causalModelClass: forward over int32 ids at a heap address, the last
// position's results), its configure(config) taking config.json's fields by name
// (the reader's row, web/src/api/model/families/gpt2/index.js, adds the two the
// files decide: gelu_erf from activation_function, lm_head when lm_head.weight
// is stored), and explainHead's headInputs.
#include <emscripten/bind.h>

#include "model_bindings.h"
#include "models/families/gpt2/gpt2_model.h"

namespace attention {
namespace {

using model_bindings::floatsOf;

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
      .field("gelu_erf", &model_bindings::geluErf<Gpt2Config>,
             &model_bindings::setGeluErf<Gpt2Config>)
      .field("lm_head", &Gpt2Config::separateHead);
  causalModelClass<Gpt2Model, Gpt2Config>("_Gpt2Model").function("headInputs", &headInputs);
}

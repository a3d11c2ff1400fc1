// BERT's class in the model module (cpp/model_bindings.h): `_BertModel`, its
// configure(config) taking config.json's fields by name (the reader's row,
// web/src/api/model/families/bert/index.js, adds the two the files decide:
// gelu_erf from hidden_act, masked_lm when cls.predictions.* is stored), its
// forward pass over int32 ids and token types at heap addresses, and predict()
// for the masked-LM logits of given positions, and explainHead's headInputs.
#include <emscripten/bind.h>

#include "model_bindings.h"
#include "models/families/bert/bert_model.h"

namespace attention {
namespace {

using model_bindings::copyOutFloats;
using model_bindings::intsAt;

StatusCode forward(BertModel& model, Ptr ids, Ptr types, int count) {
  return guarded([&] { return model.forward(intsAt(ids, count), intsAt(types, count)); });
}
// out: (count x V) float32 logits of the positions at `positions` (int32).
StatusCode predict(const BertModel& model, Ptr positions, int count, const Tensor& out) {
  return guarded([&] {
    Matrix32 logits;
    RETURN_IF_ERROR(model.predict(intsAt(positions, count), logits));
    copyOutFloats(logits, out);
    return Status::ok();
  });
}

// BertModel::headInputs on float32 Tensors (bias: a 1 x n vector).
StatusCode headInputs(const BertModel& model, int l, const Tensor& weight, const Tensor& bias,
                      const Tensor& out) {
  return guarded([&] {
    return model.headInputs(l, model_bindings::floatsOf(weight), model_bindings::floatsOf(bias),
                            out.outputOf<float>());
  });
}

}  // namespace
}  // namespace attention

EMSCRIPTEN_BINDINGS(bert_family) {
  using namespace attention;
  emscripten::value_object<BertConfig>("BertConfig")
      .field("num_hidden_layers", &BertConfig::layers)
      .field("num_attention_heads", &BertConfig::heads)
      .field("hidden_size", &BertConfig::dModel)
      .field("intermediate_size", &BertConfig::inner)
      .field("max_position_embeddings", &BertConfig::positions)
      .field("type_vocab_size", &BertConfig::types)
      .field("vocab_size", &BertConfig::vocab)
      .field("layer_norm_eps", &BertConfig::epsilon)
      .field("gelu_erf", &model_bindings::geluErf<BertConfig>,
             &model_bindings::setGeluErf<BertConfig>)
      .field("masked_lm", &BertConfig::maskedLm);
  checkpointModelClass<BertModel, BertConfig>("_BertModel")
      .function("forward", &forward)
      .function("predict", &predict)
      .function("headInputs", &headInputs);
}

// The trainers' wasm module (build/wasm/trainer_core.mjs): Seq2SeqTrainer and
// TransformerTrainer (web/src/api/trainers.js instantiates it on the first
// loadTrainers call), so that a lesson's first load, which trains nothing on the
// main thread, carries neither the models nor their training code. Same
// convention as the main module (cpp/binding_convention.h, cpp/bindings.cpp).
#include <emscripten/bind.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "binding_convention.h"
#include "models/seq2seq_trainer.h"
#include "models/transformer_trainer.h"

namespace attention {
namespace {

const std::uint8_t* bytesAt(Ptr p) {
  return reinterpret_cast<const std::uint8_t*>(static_cast<std::uintptr_t>(p));
}

// ---- trainers ---------------------------------------------------------------------------

// The trainer behind web/src/api/trainer.js (Seq2SeqTrainer, TransformerTrainer):
// one Trainer<Model> of models/trainer.h. Methods that can fail return a
// StatusCode (message in _lastError()) and write numbers into caller-allocated
// heap buffers; strings and the options come back as values. What one model
// alone shows (its translation details) are free functions below, taking the
// wrapper first.
template <class Model>
class RawTrainer {
 public:
  using Options = typename Model::Options;
  using Decoded = typename Model::Decoded;

  StatusCode init(const Options& options) {
    return guarded([&] { return trainer_.init(options); });
  }
  Options options() const { return trainer_.options(); }
  // out: (1 x steps), the loss of each step
  StatusCode train(int steps, const Tensor& out) {
    return guarded([&] {
      std::vector<double> losses;
      const Status s = trainer_.train(steps, losses);
      if (s.isOk()) std::copy(losses.begin(), losses.end(), out.doubles());
      return s;
    });
  }
  // out: (1 x 1), the exact-match accuracy
  StatusCode evaluate(int n, const Tensor& out) {
    return guarded([&] {
      double accuracy = 0;
      const Status s = trainer_.evaluate(n, accuracy);
      if (s.isOk()) *out.doubles() = accuracy;
      return s;
    });
  }
  // Picks a held-out example; read it with sampleInput()/sampleTarget().
  void sample() { sample_ = trainer_.sample(); }
  std::string sampleInput() const { return sample_.input; }
  std::string sampleTarget() const { return sample_.target; }
  // Translates; read the result with output() and the model's detail functions.
  StatusCode translate(const std::string& input) {
    return guarded([&] {
      std::string output;
      Decoded details;
      const Status s = trainer_.translate(input, output, details);
      if (s.isOk()) {
        output_ = output;
        details_ = std::move(details);
      }
      return s;
    });
  }
  std::string output() const { return output_; }
  // save(): serialises into an internal buffer (read with savedData/savedSize).
  StatusCode save() {
    return guarded([&] {
      saved_ = trainer_.save();
      return Status::ok();
    });
  }
  double savedData() const {
    return static_cast<double>(reinterpret_cast<std::uintptr_t>(saved_.data()));
  }
  double savedSize() const { return static_cast<double>(saved_.size()); }
  void releaseSaved() { std::vector<std::uint8_t>().swap(saved_); }
  StatusCode load(Ptr bytes, double size) {
    return guarded([&] { return trainer_.load(bytesAt(bytes), static_cast<std::size_t>(size)); });
  }
  double steps() const { return static_cast<double>(trainer_.steps()); }
  double rateAt(double step) const { return trainer_.rateAt(static_cast<std::uint64_t>(step)); }
  std::string inputAlphabet() const { return trainer_.task().inputAlphabet(); }
  std::string outputAlphabet() const { return trainer_.task().outputAlphabet(); }
  int maxInputLength() const { return trainer_.task().maxInputLength(); }
  int heldOutSize() const { return static_cast<int>(trainer_.task().heldOut().size()); }
  int parameterCount() const { return static_cast<int>(trainer_.parameters().size()); }

  const Trainer<Model>& trainer() const { return trainer_; }
  const Decoded& details() const { return details_; }

 private:
  Trainer<Model> trainer_;
  Seq2SeqExample sample_;
  std::string output_;
  Decoded details_;
  std::vector<std::uint8_t> saved_;
};

// The methods every trainer class has, registered once.
template <class Raw>
const emscripten::class_<Raw>& bindTrainer(const emscripten::class_<Raw>& c) {
  return c.template constructor<>()
      .function("init", &Raw::init)
      .function("options", &Raw::options)
      .function("train", &Raw::train)
      .function("evaluate", &Raw::evaluate)
      .function("sample", &Raw::sample)
      .function("sampleInput", &Raw::sampleInput)
      .function("sampleTarget", &Raw::sampleTarget)
      .function("translate", &Raw::translate)
      .function("output", &Raw::output)
      .function("save", &Raw::save)
      .function("savedData", &Raw::savedData)
      .function("savedSize", &Raw::savedSize)
      .function("releaseSaved", &Raw::releaseSaved)
      .function("load", &Raw::load)
      .function("steps", &Raw::steps)
      .function("rateAt", &Raw::rateAt)
      .function("inputAlphabet", &Raw::inputAlphabet)
      .function("outputAlphabet", &Raw::outputAlphabet)
      .function("maxInputLength", &Raw::maxInputLength)
      .function("heldOutSize", &Raw::heldOutSize)
      .function("parameterCount", &Raw::parameterCount);
}

using RawSeq2SeqTrainer = RawTrainer<Seq2SeqTraining>;
using RawTransformerTrainer = RawTrainer<TransformerTraining>;

// Seq2seq translation details. which: 0 = attention (m x n), 1 = encoder outputs
// (n x H), 2 = decoder states (m x H), 3 = attention scores (m x n),
// 4 = output probabilities (m x vocabulary)
const Matrix& seq2seqDetail(const RawSeq2SeqTrainer& raw, int which) {
  const Seq2SeqDecoded& d = raw.details();
  switch (which) {
    case 0:
      return d.attention;
    case 1:
      return d.encoderOutputs;
    case 3:
      return d.scores;
    case 4:
      return d.probabilities;
    default:
      return d.decoderStates;
  }
}
int seq2seqDetailRows(const RawSeq2SeqTrainer& raw, int which) {
  return static_cast<int>(seq2seqDetail(raw, which).rows());
}
int seq2seqDetailCols(const RawSeq2SeqTrainer& raw, int which) {
  return static_cast<int>(seq2seqDetail(raw, which).cols());
}
void seq2seqCopyDetail(const RawSeq2SeqTrainer& raw, int which, const Tensor& out) {
  copyOut(seq2seqDetail(raw, which), out);
}

// Transformer attention maps. use: 0 = encoder self-attention, 1 = decoder
// self-attention, 2 = cross-attention; an empty matrix outside the model.
const Matrix& transformerMap(const RawTransformerTrainer& raw, int use, int layer, int head) {
  static const Matrix empty;
  const TransformerDecoded& d = raw.details();
  const auto& maps = use == 0 ? d.encoderSelf : (use == 1 ? d.decoderSelf : d.cross);
  if (layer < 0 || layer >= static_cast<int>(maps.size())) return empty;
  if (head < 0 || head >= static_cast<int>(maps[layer].size())) return empty;
  return maps[layer][head];
}
int transformerMapRows(const RawTransformerTrainer& raw, int use, int layer, int head) {
  return static_cast<int>(transformerMap(raw, use, layer, head).rows());
}
int transformerMapCols(const RawTransformerTrainer& raw, int use, int layer, int head) {
  return static_cast<int>(transformerMap(raw, use, layer, head).cols());
}
void transformerCopyMap(const RawTransformerTrainer& raw, int use, int layer, int head,
                        const Tensor& out) {
  copyOut(transformerMap(raw, use, layer, head), out);
}
// The projected queries (which = 0) or keys (1) of one use and layer of the
// last translation; an empty matrix outside the model.
const Matrix& transformerProjection(const RawTransformerTrainer& raw, int use, int layer,
                                    int which) {
  static const Matrix empty;
  const TransformerDecoded& d = raw.details();
  const auto& all = which == 0 ? d.queries : d.keys;
  if (use < 0 || use >= static_cast<int>(all.size())) return empty;
  if (layer < 0 || layer >= static_cast<int>(all[use].size())) return empty;
  return all[use][layer];
}
int transformerProjectionRows(const RawTransformerTrainer& raw, int use, int layer, int which) {
  return static_cast<int>(transformerProjection(raw, use, layer, which).rows());
}
int transformerProjectionCols(const RawTransformerTrainer& raw, int use, int layer, int which) {
  return static_cast<int>(transformerProjection(raw, use, layer, which).cols());
}
void transformerCopyProjection(const RawTransformerTrainer& raw, int use, int layer, int which,
                               const Tensor& out) {
  copyOut(transformerProjection(raw, use, layer, which), out);
}
// What the projected queries (which = 0) or keys (1) of one use and layer were
// computed from: part 0 the rows read, 1 the weight (D x D), 2 the bias (1 x D);
// an empty matrix outside the model.
const Matrix& transformerSource(const RawTransformerTrainer& raw, int use, int layer, int which,
                                int part) {
  static const Matrix empty;
  const TransformerDecoded& d = raw.details();
  const auto& all = part == 0   ? (which == 0 ? d.queryInputs : d.keyInputs)
                    : part == 1 ? (which == 0 ? d.queryWeights : d.keyWeights)
                                : (which == 0 ? d.queryBiases : d.keyBiases);
  if (part < 0 || part > 2 || use < 0 || use >= static_cast<int>(all.size())) return empty;
  if (layer < 0 || layer >= static_cast<int>(all[use].size())) return empty;
  return all[use][layer];
}
int transformerSourceRows(const RawTransformerTrainer& raw, int use, int layer, int which,
                          int part) {
  return static_cast<int>(transformerSource(raw, use, layer, which, part).rows());
}
int transformerSourceCols(const RawTransformerTrainer& raw, int use, int layer, int which,
                          int part) {
  return static_cast<int>(transformerSource(raw, use, layer, which, part).cols());
}
void transformerCopySource(const RawTransformerTrainer& raw, int use, int layer, int which,
                           int part, const Tensor& out) {
  copyOut(transformerSource(raw, use, layer, which, part), out);
}
// The sinusoidal positional encoding the model adds: (maxLength x dModel).
int transformerPositionRows(const RawTransformerTrainer& raw) {
  return raw.trainer().config().maxLength;
}
void transformerCopyPositionalEncoding(const RawTransformerTrainer& raw, const Tensor& out) {
  const TransformerConfig& config = raw.trainer().config();
  copyOut(positionalEncoding(config.maxLength, config.dModel), out);
}

}  // namespace
}  // namespace attention

EMSCRIPTEN_BINDINGS(trainer_core) {
  using namespace attention;
  using emscripten::class_;
  using emscripten::value_object;

  bindConvention();  // StatusCode, _lastError, _errorClass, Tensor
  // The fields in the order of the options table (web/src/api/trainer-options.js), from the
  // generated headers: Seq2SeqTrainer.options and TransformerTrainer.options list them so.
  {
    value_object<Seq2SeqOptions> fields("Seq2SeqOptions");
    visitSeq2SeqOptionsFields([&](const char* name, auto member) { fields.field(name, member); });
  }
  {
    value_object<TransformerOptions> fields("TransformerOptions");
    visitTransformerOptionsFields(
        [&](const char* name, auto member) { fields.field(name, member); });
  }

  // ---- trainers ----
  bindTrainer(class_<RawSeq2SeqTrainer>("_Seq2SeqTrainer"))
      .function("detailRows", &seq2seqDetailRows)
      .function("detailCols", &seq2seqDetailCols)
      .function("copyDetail", &seq2seqCopyDetail);
  bindTrainer(class_<RawTransformerTrainer>("_TransformerTrainer"))
      .function("mapRows", &transformerMapRows)
      .function("mapCols", &transformerMapCols)
      .function("copyMap", &transformerCopyMap)
      .function("projectionRows", &transformerProjectionRows)
      .function("projectionCols", &transformerProjectionCols)
      .function("copyProjection", &transformerCopyProjection)
      .function("sourceRows", &transformerSourceRows)
      .function("sourceCols", &transformerSourceCols)
      .function("copySource", &transformerCopySource)
      .function("positionRows", &transformerPositionRows)
      .function("copyPositionalEncoding", &transformerCopyPositionalEncoding);
}

// The only file that knows about Emscripten. Every raw binding takes pointers
// into the wasm heap (as integers) plus explicit sizes, writes its result into a
// caller-allocated output buffer, and returns a StatusCode; the message of the
// last failure is read with _lastError(). The JS layer (web/src/api/) owns all
// allocation, copying and Error construction; users never see these functions.
#include <emscripten/bind.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "basics.h"
#include "seq2seq_trainer.h"
#include "status.h"
#include "tensor.h"

namespace attention {
namespace {

using Ptr = std::uintptr_t;

std::string lastError;

int report(const Status& status) {
  lastError = status.message;
  return static_cast<int>(status.code);
}

ConstVectorMap vectorAt(Ptr p, int n) {
  return ConstVectorMap(reinterpret_cast<const double*>(p), n);
}
ConstMatrixMap matrixAt(Ptr p, int rows, int cols) {
  return ConstMatrixMap(reinterpret_cast<const double*>(p), rows, cols);
}
template <typename Dense>
void copyOut(const Dense& result, Ptr out) {
  std::copy(result.data(), result.data() + result.size(), reinterpret_cast<double*>(out));
}

std::string lastErrorMessage() { return lastError; }

// ---- Attention Basics -------------------------------------------------------

int rawDot(Ptr a, int na, Ptr b, int nb, Ptr out) {
  double result = 0;
  const Status s = dot(vectorAt(a, na), vectorAt(b, nb), result);
  if (s.isOk()) *reinterpret_cast<double*>(out) = result;
  return report(s);
}

// query: (d), keys: (n x d) -> out: (n)
int rawDotScores(Ptr query, int d, Ptr keys, int n, int keyCols, Ptr out) {
  Vector scores;
  const Status s = dotScores(vectorAt(query, d), matrixAt(keys, n, keyCols), scores);
  if (s.isOk()) copyOut(scores, out);
  return report(s);
}

template <Status (*Kernel)(const VectorView&, Vector&)>
int rawVectorToVector(Ptr x, int n, Ptr out) {
  Vector result;
  const Status s = Kernel(vectorAt(x, n), result);
  if (s.isOk()) copyOut(result, out);
  return report(s);
}

// weights: (n), values: (rows x cols) -> out: (rows x cols)
int rawScaleRows(Ptr weights, int n, Ptr values, int rows, int cols, Ptr out) {
  Matrix result;
  const Status s = scaleRows(vectorAt(weights, n), matrixAt(values, rows, cols), result);
  if (s.isOk()) copyOut(result, out);
  return report(s);
}

// weights: (n), values: (rows x cols) -> out: (cols)
int rawWeightedSum(Ptr weights, int n, Ptr values, int rows, int cols, Ptr out) {
  Vector result;
  const Status s = weightedSum(vectorAt(weights, n), matrixAt(values, rows, cols), result);
  if (s.isOk()) copyOut(result, out);
  return report(s);
}

// ---- RandomState (NumPy-exact) ----

// ---- Additive (Bahdanau) attention ----

// ---- Transformer attention ----

// ---- Embeddings ----

// ---- Seq2seq trainer ----

// The trainer behind web/src/api/seq2seq.js's Seq2SeqTrainer. Every method
// returns a StatusCode (message in _lastError()) and writes numbers into
// caller-allocated heap buffers; strings come back as std::string.
class RawSeq2SeqTrainer {
 public:
  int init(std::string task, std::string attention, int hidden, int embedding, int batch,
           double learningRate, double seed) {
    Seq2SeqOptions o;
    o.task = std::move(task);
    o.attention = std::move(attention);
    o.hidden = hidden;
    o.embedding = embedding;
    o.batch = batch;
    o.learningRate = learningRate;
    o.seed = static_cast<std::uint32_t>(seed);
    return report(trainer_.init(o));
  }
  int train(int steps, Ptr out) {
    double loss = 0;
    const Status s = trainer_.train(steps, loss);
    if (s.isOk()) *reinterpret_cast<double*>(out) = loss;
    return report(s);
  }
  int evaluate(int n, Ptr out) {
    double accuracy = 0;
    const Status s = trainer_.evaluate(n, accuracy);
    if (s.isOk()) *reinterpret_cast<double*>(out) = accuracy;
    return report(s);
  }
  // Picks a held-out example; read it with sampleInput()/sampleTarget().
  void sample() { sample_ = trainer_.sample(); }
  std::string sampleInput() const { return sample_.input; }
  std::string sampleTarget() const { return sample_.target; }
  // Translates; read the result with output() and the shapes/copy functions.
  int translate(std::string input) {
    std::string output;
    Seq2SeqDecoded details;
    const Status s = trainer_.translate(input, output, details);
    if (s.isOk()) {
      output_ = output;
      details_ = std::move(details);
    }
    return report(s);
  }
  std::string output() const { return output_; }
  // which: 0 = attention (m x n), 1 = encoder outputs (n x H), 2 = decoder states (m x H)
  int detailRows(int which) const { return static_cast<int>(detail(which).rows()); }
  int detailCols(int which) const { return static_cast<int>(detail(which).cols()); }
  void copyDetail(int which, Ptr out) const { copyOut(detail(which), out); }
  // save(): serialises into an internal buffer and returns its size; copySaved() copies it.
  int save() {
    saved_ = trainer_.save();
    return static_cast<int>(saved_.size());
  }
  void copySaved(Ptr out) const {
    std::copy(saved_.begin(), saved_.end(), reinterpret_cast<std::uint8_t*>(out));
  }
  void releaseSaved() { std::vector<std::uint8_t>().swap(saved_); }
  int load(Ptr bytes, int size) {
    return report(trainer_.load(reinterpret_cast<const std::uint8_t*>(bytes),
                                static_cast<std::size_t>(size)));
  }
  double steps() const { return static_cast<double>(trainer_.steps()); }
  std::string task() const { return trainer_.options().task; }
  std::string attention() const { return trainer_.options().attention; }
  int hidden() const { return trainer_.options().hidden; }
  int embedding() const { return trainer_.options().embedding; }
  int batch() const { return trainer_.options().batch; }
  double learningRate() const { return trainer_.options().learningRate; }
  double seed() const { return trainer_.options().seed; }
  std::string inputAlphabet() const { return trainer_.task().inputAlphabet(); }
  int maxInputLength() const { return trainer_.task().maxInputLength(); }
  int heldOutSize() const { return static_cast<int>(trainer_.task().heldOut().size()); }
  int parameterCount() const { return static_cast<int>(trainer_.parameters().size()); }

 private:
  const Matrix& detail(int which) const {
    return which == 0 ? details_.attention
                      : (which == 1 ? details_.encoderOutputs : details_.decoderStates);
  }
  mutable Seq2SeqTrainer trainer_;
  Seq2SeqExample sample_;
  std::string output_;
  Seq2SeqDecoded details_;
  std::vector<std::uint8_t> saved_;
};

}  // namespace
}  // namespace attention

EMSCRIPTEN_BINDINGS(attention_core) {
  using namespace attention;
  emscripten::function("_lastError", &lastErrorMessage);

  // ---- Attention Basics ----
  emscripten::function("_dot", &rawDot);
  emscripten::function("_dotScores", &rawDotScores);
  emscripten::function("_softmax", &rawVectorToVector<softmax>);
  emscripten::function("_logSoftmax", &rawVectorToVector<logSoftmax>);
  emscripten::function("_naiveSoftmax", &rawVectorToVector<naiveSoftmax>);
  emscripten::function("_scaleRows", &rawScaleRows);
  emscripten::function("_weightedSum", &rawWeightedSum);

  // ---- RandomState (NumPy-exact) ----

  // ---- Additive (Bahdanau) attention ----

  // ---- Transformer attention ----

  // ---- Embeddings ----

  // ---- Seq2seq trainer ----
  emscripten::class_<RawSeq2SeqTrainer>("_Seq2SeqTrainer")
      .constructor<>()
      .function("init", &RawSeq2SeqTrainer::init)
      .function("train", &RawSeq2SeqTrainer::train)
      .function("evaluate", &RawSeq2SeqTrainer::evaluate)
      .function("sample", &RawSeq2SeqTrainer::sample)
      .function("sampleInput", &RawSeq2SeqTrainer::sampleInput)
      .function("sampleTarget", &RawSeq2SeqTrainer::sampleTarget)
      .function("translate", &RawSeq2SeqTrainer::translate)
      .function("output", &RawSeq2SeqTrainer::output)
      .function("detailRows", &RawSeq2SeqTrainer::detailRows)
      .function("detailCols", &RawSeq2SeqTrainer::detailCols)
      .function("copyDetail", &RawSeq2SeqTrainer::copyDetail)
      .function("save", &RawSeq2SeqTrainer::save)
      .function("copySaved", &RawSeq2SeqTrainer::copySaved)
      .function("releaseSaved", &RawSeq2SeqTrainer::releaseSaved)
      .function("load", &RawSeq2SeqTrainer::load)
      .function("steps", &RawSeq2SeqTrainer::steps)
      .function("task", &RawSeq2SeqTrainer::task)
      .function("attention", &RawSeq2SeqTrainer::attention)
      .function("hidden", &RawSeq2SeqTrainer::hidden)
      .function("embedding", &RawSeq2SeqTrainer::embedding)
      .function("batch", &RawSeq2SeqTrainer::batch)
      .function("learningRate", &RawSeq2SeqTrainer::learningRate)
      .function("seed", &RawSeq2SeqTrainer::seed)
      .function("inputAlphabet", &RawSeq2SeqTrainer::inputAlphabet)
      .function("maxInputLength", &RawSeq2SeqTrainer::maxInputLength)
      .function("heldOutSize", &RawSeq2SeqTrainer::heldOutSize)
      .function("parameterCount", &RawSeq2SeqTrainer::parameterCount);
}

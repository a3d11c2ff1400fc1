// The only file that knows about Emscripten. Every raw binding takes pointers
// into the wasm heap (as integers) plus explicit sizes, writes its result into a
// caller-allocated output buffer, and returns a StatusCode; the message of the
// last failure is read with _lastError(). The JS layer (web/src/api/) owns all
// allocation, copying and Error construction; users never see these functions.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/embeddings.h"
#include "models/seq2seq_trainer.h"
#include "ops/attention.h"
#include "ops/gemm.h"
#include "ops/linear.h"
#include "ops/random_state.h"
#include "ops/softmax.h"
#include "ops/status.h"
#include "ops/tensor.h"

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

int rawValidateSeed(double seed) { return report(validateSeed(seed)); }

// Methods of the bound _RandomState class: out has room for rows * cols doubles.
int rawRandn(RandomState& rs, int rows, int cols, Ptr out) {
  Matrix result;
  const Status s = rs.randn(rows, cols, result);
  if (s.isOk()) copyOut(result, out);
  return report(s);
}
int rawRand(RandomState& rs, int rows, int cols, Ptr out) {
  Matrix result;
  const Status s = rs.rand(rows, cols, result);
  if (s.isOk()) copyOut(result, out);
  return report(s);
}
int rawRandint(RandomState& rs, double low, double high, int rows, int cols, Ptr out) {
  Matrix result;
  const Status s = rs.randint(low, high, rows, cols, result);
  if (s.isOk()) copyOut(result, out);
  return report(s);
}

// ---- Additive (Bahdanau) attention ----

// encoderStates: (n x h), decoderState: (hd), W1: (w1Rows x a), w2: (a2) -> scores: (n)
int rawAdditiveScores(Ptr enc, int n, int h, Ptr dec, int hd, Ptr W1, int w1Rows, int a, Ptr w2,
                      int a2, Ptr scoresOut) {
  Vector scores;
  const Status s = concatScores(matrixAt(enc, n, h), vectorAt(dec, hd), matrixAt(W1, w1Rows, a),
                                vectorAt(w2, a2), scores);
  if (s.isOk()) copyOut(scores, scoresOut);
  return report(s);
}

// Same inputs; outputs inputs (n x 2h), activations (n x a), scores (n),
// weights (n), weighted (n x h), context (h).
int rawAdditiveAttention(Ptr enc, int n, int h, Ptr dec, int hd, Ptr W1, int w1Rows, int a, Ptr w2,
                         int a2, Ptr inputsOut, Ptr activationsOut, Ptr scoresOut, Ptr weightsOut,
                         Ptr weightedOut, Ptr contextOut) {
  ConcatAttentionSteps result;
  const Status s = concatAttention(matrixAt(enc, n, h), vectorAt(dec, hd), matrixAt(W1, w1Rows, a),
                                   vectorAt(w2, a2), result);
  if (s.isOk()) {
    copyOut(result.inputs, inputsOut);
    copyOut(result.activations, activationsOut);
    copyOut(result.scores, scoresOut);
    copyOut(result.weights, weightsOut);
    copyOut(result.weighted, weightedOut);
    copyOut(result.context, contextOut);
  }
  return report(s);
}

// matmul (cpp/ops/gemm.h, the packed SIMD kernel), used by the Bahdanau and Q/K/V chapters:
// a: (m x k), b: (k2 x n) -> out: (m x n)
int rawMatmul(Ptr a, int m, int k, Ptr b, int k2, int n, Ptr out) {
  Matrix result;
  const Status s = matmul(matrixAt(a, m, k), matrixAt(b, k2, n), result);
  if (s.isOk()) copyOut(result, out);
  return report(s);
}

// ---- Transformer attention ----

MatrixMap outputAt(Ptr p, int rows, int cols) {
  return MatrixMap(reinterpret_cast<double*>(p), rows, cols);
}

// 0 / 0 x 0 means "no mask"; otherwise (rows x cols) of 0/1.
AttentionMask maskAt(Ptr mask, int rows, int cols, bool causal) {
  AttentionMask m;
  if (mask != 0) m.mask.emplace(matrixAt(mask, rows, cols));
  m.causal = causal;
  return m;
}

std::optional<VectorView> biasAt(Ptr b, int n) {
  if (b == 0) return std::nullopt;
  return VectorView(vectorAt(b, n));
}

// q: (nq x dq), k: (nk x dk), v: (nv x dv), mask: (maskRows x maskCols) or 0
//   -> out: (nq x dv) and weights: (nq x nk), written in place (no copy)
int rawScaledDotProductAttention(Ptr q, int nq, int dq, Ptr k, int nk, int dk, Ptr v, int nv,
                                 int dv, Ptr mask, int maskRows, int maskCols, bool causal, Ptr out,
                                 Ptr weights) {
  return report(scaledDotProductAttention(
      matrixAt(q, nq, dq), matrixAt(k, nk, dk), matrixAt(v, nv, dv),
      maskAt(mask, maskRows, maskCols, causal), outputAt(out, nq, dv), outputAt(weights, nq, nk)));
}

// q: (nq x dq), k: (nk x dk) -> out: (nq x nk)
int rawAttentionScores(Ptr q, int nq, int dq, Ptr k, int nk, int dk, bool scaled, Ptr out) {
  return report(
      attentionScores(matrixAt(q, nq, dq), matrixAt(k, nk, dk), scaled, outputAt(out, nq, nk)));
}

// Embind passes at most a few dozen arguments comfortably, so multi-head
// attention reads its shapes from an int32 array `dims` in the heap:
//   [nq, dq, nk, dk, nv, dv, heads, wqRows, wqCols, wkRows, wkCols, wvRows,
//    wvCols, woRows, woCols, nbq, nbk, nbv, nbo, maskRows, maskCols, causal]
// and its pointers from `ptrs`: [q, k, v, wq, wk, wv, wo, bq, bk, bv, bo, mask]
// (0 for an absent bias or mask).
// -> out: (nq x dq), weights: (heads * nq x nk), written in place.
int rawMultiHeadAttention(Ptr dimsPtr, Ptr ptrsPtr, Ptr out, Ptr weights) {
  const auto* dims = reinterpret_cast<const std::int32_t*>(dimsPtr);
  const auto* ptrs = reinterpret_cast<const std::uint32_t*>(ptrsPtr);
  const int nq = dims[0], dq = dims[1], nk = dims[2], heads = dims[6];
  const MultiHeadParams params{heads,
                               matrixAt(ptrs[3], dims[7], dims[8]),
                               matrixAt(ptrs[4], dims[9], dims[10]),
                               matrixAt(ptrs[5], dims[11], dims[12]),
                               matrixAt(ptrs[6], dims[13], dims[14]),
                               biasAt(ptrs[7], dims[15]),
                               biasAt(ptrs[8], dims[16]),
                               biasAt(ptrs[9], dims[17]),
                               biasAt(ptrs[10], dims[18])};
  const int weightRows = heads > 0 ? heads * nq : 0;
  return report(multiHeadAttention(matrixAt(ptrs[0], nq, dq), matrixAt(ptrs[1], nk, dims[3]),
                                   matrixAt(ptrs[2], dims[4], dims[5]), params,
                                   maskAt(ptrs[11], dims[19], dims[20], dims[21] != 0),
                                   outputAt(out, nq, dq), outputAt(weights, weightRows, nk)));
}

// ---- Embeddings ----

const std::uint8_t* bytesAt(Ptr p) { return reinterpret_cast<const std::uint8_t*>(p); }

// chunk: (size) bytes of GloVe text
int rawParserFeed(GloveParser& parser, Ptr chunk, int size) {
  return report(parser.feed(reinterpret_cast<const char*>(chunk), static_cast<std::size_t>(size)));
}
int rawParserFinish(GloveParser& parser) { return report(parser.finish()); }
void rawParserSetLimit(GloveParser& parser, double count) {
  parser.setLimit(static_cast<long long>(count));
}
double rawParserBytes(const GloveParser& parser) { return static_cast<double>(parser.bytesRead()); }
double rawParserLines(const GloveParser& parser) { return static_cast<double>(parser.linesRead()); }
int rawParserSize(const GloveParser& parser) { return parser.table().size(); }
EmbeddingTable rawParserTakeTable(GloveParser& parser) { return parser.takeTable(); }

// out: (dim) doubles
int rawTableCopyRow(const EmbeddingTable& table, int row, Ptr out) {
  if (row < 0 || row >= table.size()) {
    return report(Status::shapeMismatch("row " + std::to_string(row) + " is outside 0.." +
                                        std::to_string(table.size() - 1)));
  }
  const float* v = table.rowData(row);
  std::copy(v, v + table.dim(), reinterpret_cast<double*>(out));
  return report(Status::ok());
}
std::string rawTableWordAt(const EmbeddingTable& table, int row) {
  return row >= 0 && row < table.size() ? table.wordAt(row) : std::string();
}
// data: (size) bytes of the binary form
int rawTableLoadBinary(EmbeddingTable& table, Ptr data, int size) {
  return report(EmbeddingTable::fromBinary(bytesAt(data), static_cast<std::size_t>(size), table));
}
// Serialises into a buffer kept by the table wrapper; read with binaryData/binarySize.
std::vector<std::uint8_t> binaryBuffer;
int rawTableToBinary(const EmbeddingTable& table, int encoding) {
  return report(table.toBinary(static_cast<BinaryEncoding>(encoding), binaryBuffer));
}
double rawBinaryData() { return static_cast<double>(reinterpret_cast<Ptr>(binaryBuffer.data())); }
int rawBinarySize() { return static_cast<int>(binaryBuffer.size()); }
void rawBinaryRelease() { std::vector<std::uint8_t>().swap(binaryBuffer); }

emscripten::val rawTokenize(const std::string& sentence) {
  emscripten::val tokens = emscripten::val::array();
  for (const std::string& token : tokenize(sentence)) tokens.call<void>("push", token);
  return tokens;
}

// x: (n x in), weight: (out x in), bias: (out) -> y: (n x out)
int rawGloveLinear(Ptr x, int n, int in, Ptr weight, int out, int weightCols, Ptr bias,
                   int biasSize, Ptr y) {
  Matrix result;
  const Status s = linear(matrixAt(x, n, in), matrixAt(weight, out, weightCols),
                          vectorAt(bias, biasSize), result);
  if (s.isOk()) copyOut(result, y);
  return report(s);
}

// queries: (n x d), keys: (m x dk), values: (mv x dv) -> weights: (n x m), output: (n x dv)
int rawGloveDotAttention(Ptr queries, int n, int d, Ptr keys, int m, int dk, Ptr values, int mv,
                         int dv, Ptr weightsOut, Ptr outputOut) {
  Matrix weights, output;
  const Status s =
      scaledDotProductAttention(matrixAt(queries, n, d), matrixAt(keys, m, dk),
                                matrixAt(values, mv, dv), AttentionMask{}, output, weights);
  if (s.isOk()) {
    copyOut(weights, weightsOut);
    copyOut(output, outputOut);
  }
  return report(s);
}

// qp: (n x h), kp: (m x hk), ws: (hw), values: (mv x dv) ->
// scores: (n x m), weights: (n x m), output: (n x dv)
int rawGloveAdditiveAttention(Ptr qp, int n, int h, Ptr kp, int m, int hk, Ptr ws, int hw,
                              double bs, Ptr values, int mv, int dv, Ptr scoresOut, Ptr weightsOut,
                              Ptr outputOut) {
  Matrix scores, weights, output;
  const Status s =
      pairwiseAdditiveAttention(matrixAt(qp, n, h), matrixAt(kp, m, hk), vectorAt(ws, hw), bs,
                                matrixAt(values, mv, dv), scores, weights, output);
  if (s.isOk()) {
    copyOut(scores, scoresOut);
    copyOut(weights, weightsOut);
    copyOut(output, outputOut);
  }
  return report(s);
}

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
  emscripten::function("_validateSeed", &rawValidateSeed);
  emscripten::class_<RandomState>("_RandomState")
      .constructor<std::uint32_t>()
      .function("randn", &rawRandn)
      .function("rand", &rawRand)
      .function("randint", &rawRandint);

  // ---- Additive (Bahdanau) attention ----
  emscripten::function("_additiveScores", &rawAdditiveScores);
  emscripten::function("_additiveAttention", &rawAdditiveAttention);
  emscripten::function("_matmul", &rawMatmul);

  // ---- Transformer attention ----
  emscripten::function("_scaledDotProductAttention", &rawScaledDotProductAttention);
  emscripten::function("_multiHeadAttention", &rawMultiHeadAttention);
  emscripten::function("_attentionScores", &rawAttentionScores);

  // ---- Embeddings ----
  emscripten::class_<GloveParser>("_GloveParser")
      .constructor<>()
      .function("keepWord", &GloveParser::keepWord)
      .function("setLimit", &rawParserSetLimit)
      .function("feed", &rawParserFeed)
      .function("finish", &rawParserFinish)
      .function("bytesRead", &rawParserBytes)
      .function("linesRead", &rawParserLines)
      .function("dim", &GloveParser::dim)
      .function("size", &rawParserSize)
      .function("takeTable", &rawParserTakeTable);
  emscripten::class_<EmbeddingTable>("_EmbeddingTable")
      .constructor<>()
      .function("dim", &EmbeddingTable::dim)
      .function("size", &EmbeddingTable::size)
      .function("indexOf", &EmbeddingTable::indexOf)
      .function("find", &EmbeddingTable::find)
      .function("wordAt", &rawTableWordAt)
      .function("info", &EmbeddingTable::info)
      .function("setInfo", &EmbeddingTable::setInfo)
      .function("copyRow", &rawTableCopyRow)
      .function("loadBinary", &rawTableLoadBinary)
      .function("toBinary", &rawTableToBinary);
  emscripten::function("_embeddingsBinaryData", &rawBinaryData);
  emscripten::function("_embeddingsBinarySize", &rawBinarySize);
  emscripten::function("_embeddingsBinaryRelease", &rawBinaryRelease);
  emscripten::function("_tokenize", &rawTokenize);
  emscripten::function("_lowerCase", &lowerCase);
  emscripten::function("_gloveLinear", &rawGloveLinear);
  emscripten::function("_gloveDotAttention", &rawGloveDotAttention);
  emscripten::function("_gloveAdditiveAttention", &rawGloveAdditiveAttention);

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

// The only file that knows about Emscripten.
//
// Convention (the JS layer in web/src/api/ owns allocation, copying and Error
// construction; users never see these functions):
//   * every array crosses as a `Tensor` value object { data, rows, cols }:
//     `data` is a byte address in the wasm heap (0 = argument absent), the
//     array is row-major; a vector of n entries is 1 x n;
//   * each operation takes ONE value object naming its arguments (`PairArgs`,
//     `AttentionArgs`, ...) instead of a positional list;
//   * results are written into output Tensors the caller allocated;
//   * a Tensor holds doubles, except for the float32 path: the functions whose
//     name ends in 32 (_matmul32, _attention32, _multiHeadAttention32) take the
//     same argument objects with every Tensor holding row-major floats;
//   * every call returns a `StatusCode` (bound below from cpp/status.h); the
//     message of the last failure is `_lastError()` and the JS Error class for a
//     code is `_errorClass(code)`;
//   * no C++ exception crosses this file: `guarded` turns std::bad_alloc (and
//     anything else thrown) into a status, so the module keeps working.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "models/embeddings.h"
#include "models/seq2seq_trainer.h"
#include "models/transformer_trainer.h"
#include "ops/attention.h"
#include "ops/gemm.h"
#include "ops/linear.h"
#include "ops/random_state.h"
#include "ops/softmax.h"
#include "ops/status.h"
#include "ops/tensor.h"

namespace attention {
namespace {

using Ptr = std::uint32_t;

// ---- the argument convention -------------------------------------------------

struct Tensor {
  Ptr data = 0;  // byte address of row-major doubles; 0 = absent
  int rows = 0;
  int cols = 0;

  bool present() const { return data != 0; }
  double* doubles() const { return reinterpret_cast<double*>(static_cast<std::uintptr_t>(data)); }
  ConstMatrixMap matrix() const { return ConstMatrixMap(doubles(), rows, cols); }
  ConstVectorMap vector() const { return ConstVectorMap(doubles(), Eigen::Index{rows} * cols); }
  MatrixMap output() const { return MatrixMap(doubles(), rows, cols); }
  std::optional<VectorView> optionalVector() const {
    if (!present()) return std::nullopt;
    return VectorView(vector());
  }

  // The same views for a Tensor of element type T (double, or float for the *32 functions).
  template <typename T>
  T* elements() const {
    return reinterpret_cast<T*>(static_cast<std::uintptr_t>(data));
  }
  template <typename T>
  Eigen::Map<const MatrixOf<T>> matrixOf() const {
    return Eigen::Map<const MatrixOf<T>>(elements<T>(), rows, cols);
  }
  template <typename T>
  Eigen::Map<MatrixOf<T>> outputOf() const {
    return Eigen::Map<MatrixOf<T>>(elements<T>(), rows, cols);
  }
  template <typename T>
  std::optional<VectorViewOf<T>> optionalVectorOf() const {
    if (!present()) return std::nullopt;
    return VectorViewOf<T>(Eigen::Map<const VectorOf<T>>(elements<T>(), Eigen::Index{rows} * cols));
  }
};

// One input and one output (softmax and friends).
struct UnaryArgs {
  Tensor x, out;
};
// Two inputs and one output (dot, dotScores, scaleRows, weightedSum, matmul).
struct PairArgs {
  Tensor a, b, out;
};
// Bahdanau's concat score. Outputs other than `scores` may be absent.
struct ConcatArgs {
  Tensor encoderStates, decoderState, W1, w2;
  Tensor inputs, activations, scores, weights, weighted, context;
};
// Scores, or scaled dot-product attention when `v` and `output` are present.
struct AttentionArgs {
  Tensor q, k, v, mask;
  bool causal = false;
  bool scaled = true;
  Tensor output, weights;
};
struct MultiHeadArgs {
  Tensor q, k, v;
  int heads = 0;
  Tensor wq, wk, wv, wo, bq, bk, bv, bo, mask;
  bool causal = false;
  Tensor output, weights;
};
// PyTorch's nn.Linear: y = x weightᵀ + bias.
struct LinearArgs {
  Tensor x, weight, bias, y;
};
// scores(i, j) = ws · tanh(queries[i] + keys[j]) + bs over every pair.
struct PairwiseAdditiveArgs {
  Tensor queries, keys, ws;
  double bs = 0;
  Tensor values, scores, weights, output;
};

std::string lastError;

StatusCode report(const Status& status) {
  lastError = status.message;
  return status.code;
}

// Runs `body` (which returns a Status) and reports it; a thrown exception
// becomes a status instead of reaching JS as a bare number.
template <typename Body>
StatusCode guarded(Body&& body) {
  try {
    return report(body());
  } catch (const std::bad_alloc&) {
    return report(Status::outOfMemory("the result does not fit in the wasm memory"));
  } catch (const std::exception& e) {
    return report(Status::invalidArgument(e.what()));
  }
}

template <typename Dense>
void copyOut(const Dense& result, const Tensor& out) {
  std::copy(result.data(), result.data() + result.size(), out.doubles());
}

std::string lastErrorMessage() { return lastError; }
std::string errorClass(StatusCode code) { return errorClassOf(code); }

// ---- scores, softmax and the context vector -------------------------------------

StatusCode rawDot(const PairArgs& x) {
  return guarded([&] {
    double result = 0;
    const Status s = dot(x.a.vector(), x.b.vector(), result);
    if (s.isOk()) *x.out.doubles() = result;
    return s;
  });
}

// a: query (d), b: keys (n x d) -> out: (n)
StatusCode rawDotScores(const PairArgs& x) {
  return guarded([&] {
    Vector scores;
    const Status s = dotScores(x.a.vector(), x.b.matrix(), scores);
    if (s.isOk()) copyOut(scores, x.out);
    return s;
  });
}

template <Status (*Kernel)(const VectorView&, Vector&)>
StatusCode rawVectorToVector(const UnaryArgs& x) {
  return guarded([&] {
    Vector result;
    const Status s = Kernel(x.x.vector(), result);
    if (s.isOk()) copyOut(result, x.out);
    return s;
  });
}

// a: weights (n), b: values (n x d) -> out: (n x d)
StatusCode rawScaleRows(const PairArgs& x) {
  return guarded([&] {
    Matrix result;
    const Status s = scaleRows(x.a.vector(), x.b.matrix(), result);
    if (s.isOk()) copyOut(result, x.out);
    return s;
  });
}

// a: weights (n), b: values (n x d) -> out: (d)
StatusCode rawWeightedSum(const PairArgs& x) {
  return guarded([&] {
    Vector result;
    const Status s = weightedSum(x.a.vector(), x.b.matrix(), result);
    if (s.isOk()) copyOut(result, x.out);
    return s;
  });
}

// a: (m x k), b: (k x n) -> out: (m x n), through the packed gemm kernel (T = double or float)
template <typename T>
StatusCode rawMatmul(const PairArgs& x) {
  // Straight into the caller's output: no temporary, no second copy.
  return guarded([&] {
    return matmulInto(x.a.matrixOf<T>(), x.b.matrixOf<T>(), MatrixOutOf<T>(x.out.outputOf<T>()));
  });
}

// ---- RandomState (NumPy-exact) ----------------------------------------------------

StatusCode rawRandn(RandomState& rs, const Tensor& out) {
  return guarded([&] {
    Matrix result;
    const Status s = rs.randn(out.rows, out.cols, result);
    if (s.isOk()) copyOut(result, out);
    return s;
  });
}
StatusCode rawRand(RandomState& rs, const Tensor& out) {
  return guarded([&] {
    Matrix result;
    const Status s = rs.rand(out.rows, out.cols, result);
    if (s.isOk()) copyOut(result, out);
    return s;
  });
}
StatusCode rawRandint(RandomState& rs, double low, double high, const Tensor& out) {
  return guarded([&] {
    Matrix result;
    const Status s = rs.randint(low, high, out.rows, out.cols, result);
    if (s.isOk()) copyOut(result, out);
    return s;
  });
}

// ---- concat (Bahdanau) scores ------------------------------------------------------

StatusCode rawConcatAttention(const ConcatArgs& x) {
  return guarded([&] {
    if (!x.inputs.present()) {
      Vector scores;
      const Status s = concatScores(x.encoderStates.matrix(), x.decoderState.vector(),
                                    x.W1.matrix(), x.w2.vector(), scores);
      if (s.isOk()) copyOut(scores, x.scores);
      return s;
    }
    ConcatAttentionSteps result;
    const Status s = concatAttention(x.encoderStates.matrix(), x.decoderState.vector(),
                                     x.W1.matrix(), x.w2.vector(), result);
    if (s.isOk()) {
      copyOut(result.inputs, x.inputs);
      copyOut(result.activations, x.activations);
      copyOut(result.scores, x.scores);
      copyOut(result.weights, x.weights);
      copyOut(result.weighted, x.weighted);
      copyOut(result.context, x.context);
    }
    return s;
  });
}

// ---- scaled dot-product and multi-head attention -------------------------------------

template <typename T>
AttentionMaskOf<T> maskOf(const Tensor& mask, bool causal) {
  AttentionMaskOf<T> m;
  if (mask.present()) m.mask.emplace(mask.matrixOf<T>());
  m.causal = causal;
  return m;
}

// Without `v`: the raw scores q kᵀ (scaled by 1/sqrt(d_k) if `scaled`) into `weights`.
// With `v`: weights = softmax(q kᵀ / sqrt(d_k)) with the masks, output = weights v.
// T = double, or float for _attention32.
template <typename T>
StatusCode rawAttention(const AttentionArgs& x) {
  return guarded([&] {
    if (!x.v.present()) {
      return attentionScores(x.q.matrixOf<T>(), x.k.matrixOf<T>(), x.scaled,
                             MatrixOutOf<T>(x.weights.outputOf<T>()));
    }
    return scaledDotProductAttention(
        x.q.matrixOf<T>(), x.k.matrixOf<T>(), x.v.matrixOf<T>(), maskOf<T>(x.mask, x.causal),
        MatrixOutOf<T>(x.output.outputOf<T>()), MatrixOutOf<T>(x.weights.outputOf<T>()));
  });
}

// weights: heads blocks of (n_q x n_k) stacked as (heads * n_q x n_k).
template <typename T>
StatusCode rawMultiHeadAttention(const MultiHeadArgs& x) {
  return guarded([&] {
    const MultiHeadParamsOf<T> params{x.heads,
                                      x.wq.matrixOf<T>(),
                                      x.wk.matrixOf<T>(),
                                      x.wv.matrixOf<T>(),
                                      x.wo.matrixOf<T>(),
                                      x.bq.optionalVectorOf<T>(),
                                      x.bk.optionalVectorOf<T>(),
                                      x.bv.optionalVectorOf<T>(),
                                      x.bo.optionalVectorOf<T>()};
    return multiHeadAttention(x.q.matrixOf<T>(), x.k.matrixOf<T>(), x.v.matrixOf<T>(), params,
                              maskOf<T>(x.mask, x.causal), MatrixOutOf<T>(x.output.outputOf<T>()),
                              MatrixOutOf<T>(x.weights.outputOf<T>()));
  });
}

// ---- linear layer and pairwise additive attention -------------------------------------

StatusCode rawLinear(const LinearArgs& x) {
  return guarded([&] {
    Matrix result;
    const Status s = linear(x.x.matrix(), x.weight.matrix(), x.bias.vector(), result);
    if (s.isOk()) copyOut(result, x.y);
    return s;
  });
}

StatusCode rawPairwiseAdditiveAttention(const PairwiseAdditiveArgs& x) {
  return guarded([&] {
    Matrix scores, weights, output;
    const Status s = pairwiseAdditiveAttention(x.queries.matrix(), x.keys.matrix(), x.ws.vector(),
                                               x.bs, x.values.matrix(), scores, weights, output);
    if (s.isOk()) {
      copyOut(scores, x.scores);
      copyOut(weights, x.weights);
      copyOut(output, x.output);
    }
    return s;
  });
}

// ---- embeddings -----------------------------------------------------------------------

const char* charsAt(Ptr p) { return reinterpret_cast<const char*>(static_cast<std::uintptr_t>(p)); }
const std::uint8_t* bytesAt(Ptr p) {
  return reinterpret_cast<const std::uint8_t*>(static_cast<std::uintptr_t>(p));
}

// chunk: `size` bytes of GloVe text
StatusCode rawParserFeed(GloveParser& parser, Ptr chunk, double size) {
  return guarded([&] { return parser.feed(charsAt(chunk), static_cast<std::size_t>(size)); });
}
StatusCode rawParserFinish(GloveParser& parser) {
  return guarded([&] { return parser.finish(); });
}
StatusCode rawParserKeepWord(GloveParser& parser, const std::string& word) {
  return guarded([&] {
    parser.keepWord(word);
    return Status::ok();
  });
}
void rawParserSetLimit(GloveParser& parser, double count) {
  parser.setLimit(static_cast<long long>(count));
}
double rawParserBytes(const GloveParser& parser) { return static_cast<double>(parser.bytesRead()); }
double rawParserLines(const GloveParser& parser) { return static_cast<double>(parser.linesRead()); }
int rawParserSize(const GloveParser& parser) { return parser.table().size(); }
// Moves the parsed table into `table`.
StatusCode rawParserTakeTable(GloveParser& parser, EmbeddingTable& table) {
  return guarded([&] {
    table = parser.takeTable();
    return Status::ok();
  });
}

// out: (1 x dim)
StatusCode rawTableCopyRow(const EmbeddingTable& table, int row, const Tensor& out) {
  if (row < 0 || row >= table.size()) {
    return report(Status::shapeMismatch("row " + std::to_string(row) + " is outside 0.." +
                                        std::to_string(table.size() - 1)));
  }
  const float* v = table.rowData(row);
  std::copy(v, v + table.dim(), out.doubles());
  return report(Status::ok());
}
std::string rawTableWordAt(const EmbeddingTable& table, int row) {
  return row >= 0 && row < table.size() ? table.wordAt(row) : std::string();
}
// data: `size` bytes of the binary form
StatusCode rawTableLoadBinary(EmbeddingTable& table, Ptr data, double size) {
  return guarded([&] {
    return EmbeddingTable::fromBinary(bytesAt(data), static_cast<std::size_t>(size), table);
  });
}
// Serialises into a buffer read with _binaryData/_binarySize and freed by _binaryRelease.
std::vector<std::uint8_t> binaryBuffer;
StatusCode rawTableToBinary(const EmbeddingTable& table, int encoding) {
  return guarded(
      [&] { return table.toBinary(static_cast<BinaryEncoding>(encoding), binaryBuffer); });
}
double rawBinaryData() {
  return static_cast<double>(reinterpret_cast<std::uintptr_t>(binaryBuffer.data()));
}
double rawBinarySize() { return static_cast<double>(binaryBuffer.size()); }
void rawBinaryRelease() { std::vector<std::uint8_t>().swap(binaryBuffer); }

// Tokens of the last _tokenize call, read with _tokens(); the call itself may
// fail with kOutOfMemory instead of aborting.
std::vector<std::string> lastTokens;
StatusCode rawTokenize(const std::string& sentence) {
  return guarded([&] {
    lastTokens = tokenize(sentence);
    return Status::ok();
  });
}
emscripten::val rawTokens() {
  emscripten::val tokens = emscripten::val::array();
  for (const std::string& token : lastTokens) tokens.call<void>("push", token);
  std::vector<std::string>().swap(lastTokens);
  return tokens;
}

// ---- seq2seq trainer --------------------------------------------------------------------

// Options of a new trainer, as one value object.
struct Seq2SeqInit {
  std::string task, attention;
  int hidden = 0, embedding = 0, batch = 0;
  double learningRate = 0, seed = 0;
};

// The trainer behind web/src/api/seq2seq.js's Seq2SeqTrainer. Methods that can
// fail return a StatusCode (message in _lastError()) and write numbers into
// caller-allocated heap buffers; strings come back as std::string.
class RawSeq2SeqTrainer {
 public:
  StatusCode init(const Seq2SeqInit& init) {
    return guarded([&] {
      Seq2SeqOptions o;
      o.task = init.task;
      o.attention = init.attention;
      o.hidden = init.hidden;
      o.embedding = init.embedding;
      o.batch = init.batch;
      o.learningRate = init.learningRate;
      o.seed = static_cast<std::uint32_t>(init.seed);
      return trainer_.init(o);
    });
  }
  // out: (1 x 1), the mean loss
  StatusCode train(int steps, const Tensor& out) {
    return guarded([&] {
      double loss = 0;
      const Status s = trainer_.train(steps, loss);
      if (s.isOk()) *out.doubles() = loss;
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
  // Translates; read the result with output() and the shapes/copy functions.
  StatusCode translate(const std::string& input) {
    return guarded([&] {
      std::string output;
      Seq2SeqDecoded details;
      const Status s = trainer_.translate(input, output, details);
      if (s.isOk()) {
        output_ = output;
        details_ = std::move(details);
      }
      return s;
    });
  }
  std::string output() const { return output_; }
  // which: 0 = attention (m x n), 1 = encoder outputs (n x H), 2 = decoder states (m x H),
  // 3 = attention scores (m x n), 4 = output probabilities (m x vocabulary)
  int detailRows(int which) const { return static_cast<int>(detail(which).rows()); }
  int detailCols(int which) const { return static_cast<int>(detail(which).cols()); }
  void copyDetail(int which, const Tensor& out) const { copyOut(detail(which), out); }
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
  std::string task() const { return trainer_.options().task; }
  std::string attention() const { return trainer_.options().attention; }
  int hidden() const { return trainer_.options().hidden; }
  int embedding() const { return trainer_.options().embedding; }
  int batch() const { return trainer_.options().batch; }
  double learningRate() const { return trainer_.options().learningRate; }
  double seed() const { return trainer_.options().seed; }
  std::string inputAlphabet() const { return trainer_.task().inputAlphabet(); }
  std::string outputAlphabet() const { return trainer_.task().outputAlphabet(); }
  int maxInputLength() const { return trainer_.task().maxInputLength(); }
  int heldOutSize() const { return static_cast<int>(trainer_.task().heldOut().size()); }
  int parameterCount() const { return static_cast<int>(trainer_.parameters().size()); }

 private:
  const Matrix& detail(int which) const {
    switch (which) {
      case 0:
        return details_.attention;
      case 1:
        return details_.encoderOutputs;
      case 3:
        return details_.scores;
      case 4:
        return details_.probabilities;
      default:
        return details_.decoderStates;
    }
  }
  mutable Seq2SeqTrainer trainer_;
  Seq2SeqExample sample_;
  std::string output_;
  Seq2SeqDecoded details_;
  std::vector<std::uint8_t> saved_;
};

// ---- transformer trainer ------------------------------------------------------------------

// Options of a new Transformer trainer, as one value object.
struct TransformerInit {
  std::string task, schedule;
  int layers = 0, heads = 0, dModel = 0, dFF = 0, batch = 0, warmup = 0;
  double learningRate = 0, labelSmoothing = 0, seed = 0;
};

// The trainer behind web/src/api/transformer_trainer.js's TransformerTrainer.
// Same convention as RawSeq2SeqTrainer; train() writes one loss per step into
// a (1 x steps) output, translate() keeps the maps for mapRows/mapCols/copyMap.
class RawTransformerTrainer {
 public:
  StatusCode init(const TransformerInit& init) {
    return guarded([&] {
      TransformerOptions o;
      o.task = init.task;
      o.schedule = init.schedule;
      o.layers = init.layers;
      o.heads = init.heads;
      o.dModel = init.dModel;
      o.dFF = init.dFF;
      o.batch = init.batch;
      o.warmup = init.warmup;
      o.learningRate = init.learningRate;
      o.labelSmoothing = init.labelSmoothing;
      o.seed = static_cast<std::uint32_t>(init.seed);
      return trainer_.init(o);
    });
  }
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
  void sample() { sample_ = trainer_.sample(); }
  std::string sampleInput() const { return sample_.input; }
  std::string sampleTarget() const { return sample_.target; }
  StatusCode translate(const std::string& input) {
    return guarded([&] {
      std::string output;
      TransformerDecoded details;
      const Status s = trainer_.translate(input, output, details);
      if (s.isOk()) {
        output_ = output;
        details_ = std::move(details);
      }
      return s;
    });
  }
  std::string output() const { return output_; }
  // use: 0 = encoder self-attention, 1 = decoder self-attention, 2 = cross-attention
  int mapRows(int use, int layer, int head) const {
    return static_cast<int>(map(use, layer, head).rows());
  }
  int mapCols(int use, int layer, int head) const {
    return static_cast<int>(map(use, layer, head).cols());
  }
  void copyMap(int use, int layer, int head, const Tensor& out) const {
    copyOut(map(use, layer, head), out);
  }
  // The sinusoidal positional encoding the model adds: (maxLength x dModel).
  int positionRows() const { return trainer_.config().maxLength; }
  void copyPositionalEncoding(const Tensor& out) const {
    copyOut(positionalEncoding(trainer_.config().maxLength, trainer_.config().dModel), out);
  }
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
  std::string task() const { return trainer_.options().task; }
  std::string schedule() const { return trainer_.options().schedule; }
  int layers() const { return trainer_.options().layers; }
  int heads() const { return trainer_.options().heads; }
  int dModel() const { return trainer_.options().dModel; }
  int dFF() const { return trainer_.options().dFF; }
  int batch() const { return trainer_.options().batch; }
  int warmup() const { return trainer_.options().warmup; }
  double learningRate() const { return trainer_.options().learningRate; }
  double labelSmoothing() const { return trainer_.options().labelSmoothing; }
  double seed() const { return trainer_.options().seed; }
  std::string inputAlphabet() const { return trainer_.task().inputAlphabet(); }
  int maxInputLength() const { return trainer_.task().maxInputLength(); }
  int heldOutSize() const { return static_cast<int>(trainer_.task().heldOut().size()); }
  int parameterCount() const { return static_cast<int>(trainer_.parameters().size()); }

 private:
  const Matrix& map(int use, int layer, int head) const {
    static const Matrix empty;
    const auto& maps =
        use == 0 ? details_.encoderSelf : (use == 1 ? details_.decoderSelf : details_.cross);
    if (layer < 0 || layer >= static_cast<int>(maps.size())) return empty;
    if (head < 0 || head >= static_cast<int>(maps[layer].size())) return empty;
    return maps[layer][head];
  }
  mutable TransformerTrainer trainer_;
  Seq2SeqExample sample_;
  std::string output_;
  TransformerDecoded details_;
  std::vector<std::uint8_t> saved_;
};

}  // namespace
}  // namespace attention

EMSCRIPTEN_BINDINGS(attention_core) {
  using namespace attention;
  using emscripten::class_;
  using emscripten::function;
  using emscripten::value_object;

  emscripten::enum_<StatusCode>("StatusCode")
      .value("Ok", StatusCode::kOk)
      .value("ShapeMismatch", StatusCode::kShapeMismatch)
      .value("InvalidValue", StatusCode::kInvalidValue)
      .value("InvalidArgument", StatusCode::kInvalidArgument)
      .value("OutOfMemory", StatusCode::kOutOfMemory);
  function("_lastError", &lastErrorMessage);
  function("_errorClass", &errorClass);

  value_object<Tensor>("Tensor")
      .field("data", &Tensor::data)
      .field("rows", &Tensor::rows)
      .field("cols", &Tensor::cols);
  value_object<UnaryArgs>("UnaryArgs").field("x", &UnaryArgs::x).field("out", &UnaryArgs::out);
  value_object<PairArgs>("PairArgs")
      .field("a", &PairArgs::a)
      .field("b", &PairArgs::b)
      .field("out", &PairArgs::out);
  value_object<ConcatArgs>("ConcatArgs")
      .field("encoderStates", &ConcatArgs::encoderStates)
      .field("decoderState", &ConcatArgs::decoderState)
      .field("W1", &ConcatArgs::W1)
      .field("w2", &ConcatArgs::w2)
      .field("inputs", &ConcatArgs::inputs)
      .field("activations", &ConcatArgs::activations)
      .field("scores", &ConcatArgs::scores)
      .field("weights", &ConcatArgs::weights)
      .field("weighted", &ConcatArgs::weighted)
      .field("context", &ConcatArgs::context);
  value_object<AttentionArgs>("AttentionArgs")
      .field("q", &AttentionArgs::q)
      .field("k", &AttentionArgs::k)
      .field("v", &AttentionArgs::v)
      .field("mask", &AttentionArgs::mask)
      .field("causal", &AttentionArgs::causal)
      .field("scaled", &AttentionArgs::scaled)
      .field("output", &AttentionArgs::output)
      .field("weights", &AttentionArgs::weights);
  value_object<MultiHeadArgs>("MultiHeadArgs")
      .field("q", &MultiHeadArgs::q)
      .field("k", &MultiHeadArgs::k)
      .field("v", &MultiHeadArgs::v)
      .field("heads", &MultiHeadArgs::heads)
      .field("wq", &MultiHeadArgs::wq)
      .field("wk", &MultiHeadArgs::wk)
      .field("wv", &MultiHeadArgs::wv)
      .field("wo", &MultiHeadArgs::wo)
      .field("bq", &MultiHeadArgs::bq)
      .field("bk", &MultiHeadArgs::bk)
      .field("bv", &MultiHeadArgs::bv)
      .field("bo", &MultiHeadArgs::bo)
      .field("mask", &MultiHeadArgs::mask)
      .field("causal", &MultiHeadArgs::causal)
      .field("output", &MultiHeadArgs::output)
      .field("weights", &MultiHeadArgs::weights);
  value_object<LinearArgs>("LinearArgs")
      .field("x", &LinearArgs::x)
      .field("weight", &LinearArgs::weight)
      .field("bias", &LinearArgs::bias)
      .field("y", &LinearArgs::y);
  value_object<PairwiseAdditiveArgs>("PairwiseAdditiveArgs")
      .field("queries", &PairwiseAdditiveArgs::queries)
      .field("keys", &PairwiseAdditiveArgs::keys)
      .field("ws", &PairwiseAdditiveArgs::ws)
      .field("bs", &PairwiseAdditiveArgs::bs)
      .field("values", &PairwiseAdditiveArgs::values)
      .field("scores", &PairwiseAdditiveArgs::scores)
      .field("weights", &PairwiseAdditiveArgs::weights)
      .field("output", &PairwiseAdditiveArgs::output);
  value_object<Seq2SeqInit>("Seq2SeqInit")
      .field("task", &Seq2SeqInit::task)
      .field("attention", &Seq2SeqInit::attention)
      .field("hidden", &Seq2SeqInit::hidden)
      .field("embedding", &Seq2SeqInit::embedding)
      .field("batch", &Seq2SeqInit::batch)
      .field("learningRate", &Seq2SeqInit::learningRate)
      .field("seed", &Seq2SeqInit::seed);

  value_object<TransformerInit>("TransformerInit")
      .field("task", &TransformerInit::task)
      .field("schedule", &TransformerInit::schedule)
      .field("layers", &TransformerInit::layers)
      .field("heads", &TransformerInit::heads)
      .field("dModel", &TransformerInit::dModel)
      .field("dFF", &TransformerInit::dFF)
      .field("batch", &TransformerInit::batch)
      .field("warmup", &TransformerInit::warmup)
      .field("learningRate", &TransformerInit::learningRate)
      .field("labelSmoothing", &TransformerInit::labelSmoothing)
      .field("seed", &TransformerInit::seed);

  // ---- scores, softmax, context, products ----
  function("_dot", &rawDot);
  function("_dotScores", &rawDotScores);
  function("_softmax", &rawVectorToVector<softmax>);
  function("_logSoftmax", &rawVectorToVector<logSoftmax>);
  function("_naiveSoftmax", &rawVectorToVector<naiveSoftmax>);
  function("_scaleRows", &rawScaleRows);
  function("_weightedSum", &rawWeightedSum);
  function("_matmul", &rawMatmul<double>);
  function("_matmul32", &rawMatmul<float>);
  function("_concatAttention", &rawConcatAttention);
  function("_attention", &rawAttention<double>);
  function("_attention32", &rawAttention<float>);
  function("_multiHeadAttention", &rawMultiHeadAttention<double>);
  function("_multiHeadAttention32", &rawMultiHeadAttention<float>);
  function("_linear", &rawLinear);
  function("_pairwiseAdditiveAttention", &rawPairwiseAdditiveAttention);

  // ---- RandomState (NumPy-exact) ----
  class_<RandomState>("_RandomState")
      .constructor<std::uint32_t>()
      .function("randn", &rawRandn)
      .function("rand", &rawRand)
      .function("randint", &rawRandint);

  // ---- embeddings ----
  class_<GloveParser>("_GloveParser")
      .constructor<>()
      .function("keepWord", &rawParserKeepWord)
      .function("setLimit", &rawParserSetLimit)
      .function("feed", &rawParserFeed)
      .function("finish", &rawParserFinish)
      .function("bytesRead", &rawParserBytes)
      .function("linesRead", &rawParserLines)
      .function("dim", &GloveParser::dim)
      .function("size", &rawParserSize)
      .function("takeTable", &rawParserTakeTable);
  class_<EmbeddingTable>("_EmbeddingTable")
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
  function("_binaryData", &rawBinaryData);
  function("_binarySize", &rawBinarySize);
  function("_binaryRelease", &rawBinaryRelease);
  function("_tokenize", &rawTokenize);
  function("_tokens", &rawTokens);
  function("_lowerCase", &lowerCase);

  // ---- seq2seq trainer ----
  class_<RawSeq2SeqTrainer>("_Seq2SeqTrainer")
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
      .function("savedData", &RawSeq2SeqTrainer::savedData)
      .function("savedSize", &RawSeq2SeqTrainer::savedSize)
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
      .function("outputAlphabet", &RawSeq2SeqTrainer::outputAlphabet)
      .function("maxInputLength", &RawSeq2SeqTrainer::maxInputLength)
      .function("heldOutSize", &RawSeq2SeqTrainer::heldOutSize)
      .function("parameterCount", &RawSeq2SeqTrainer::parameterCount);

  // ---- transformer trainer ----
  class_<RawTransformerTrainer>("_TransformerTrainer")
      .constructor<>()
      .function("init", &RawTransformerTrainer::init)
      .function("train", &RawTransformerTrainer::train)
      .function("evaluate", &RawTransformerTrainer::evaluate)
      .function("sample", &RawTransformerTrainer::sample)
      .function("sampleInput", &RawTransformerTrainer::sampleInput)
      .function("sampleTarget", &RawTransformerTrainer::sampleTarget)
      .function("translate", &RawTransformerTrainer::translate)
      .function("output", &RawTransformerTrainer::output)
      .function("mapRows", &RawTransformerTrainer::mapRows)
      .function("mapCols", &RawTransformerTrainer::mapCols)
      .function("copyMap", &RawTransformerTrainer::copyMap)
      .function("positionRows", &RawTransformerTrainer::positionRows)
      .function("copyPositionalEncoding", &RawTransformerTrainer::copyPositionalEncoding)
      .function("save", &RawTransformerTrainer::save)
      .function("savedData", &RawTransformerTrainer::savedData)
      .function("savedSize", &RawTransformerTrainer::savedSize)
      .function("releaseSaved", &RawTransformerTrainer::releaseSaved)
      .function("load", &RawTransformerTrainer::load)
      .function("steps", &RawTransformerTrainer::steps)
      .function("rateAt", &RawTransformerTrainer::rateAt)
      .function("task", &RawTransformerTrainer::task)
      .function("schedule", &RawTransformerTrainer::schedule)
      .function("layers", &RawTransformerTrainer::layers)
      .function("heads", &RawTransformerTrainer::heads)
      .function("dModel", &RawTransformerTrainer::dModel)
      .function("dFF", &RawTransformerTrainer::dFF)
      .function("batch", &RawTransformerTrainer::batch)
      .function("warmup", &RawTransformerTrainer::warmup)
      .function("learningRate", &RawTransformerTrainer::learningRate)
      .function("labelSmoothing", &RawTransformerTrainer::labelSmoothing)
      .function("seed", &RawTransformerTrainer::seed)
      .function("inputAlphabet", &RawTransformerTrainer::inputAlphabet)
      .function("maxInputLength", &RawTransformerTrainer::maxInputLength)
      .function("heldOutSize", &RawTransformerTrainer::heldOutSize)
      .function("parameterCount", &RawTransformerTrainer::parameterCount);
}

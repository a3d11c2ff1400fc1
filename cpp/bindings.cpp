// The main wasm module's bindings (with binding_convention.h, the model module's
// model_bindings.{h,cpp} and families' binding.cpp files, and trainer_bindings.cpp,
// the trainers', the only files that know about Emscripten).
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
//     name ends in 32 (_matmul32, _attention32, _multiHeadAttention32, ...) take the
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
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "binding_convention.h"
#include "models/embeddings.h"
#include "ops/attention.h"
#include "ops/gemm.h"
#include "ops/linear.h"
#include "ops/online_softmax_attention.h"
#include "ops/random_state.h"
#include "ops/rope.h"
#include "ops/softmax.h"
#include "ops/status.h"
#include "ops/tensor.h"
#include "ops/validate.h"

namespace attention {
namespace {

// ---- the argument convention (Tensor, guarded: binding_convention.h) ------------

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
  int window = 0;  // sliding window: keys j <= i - window hidden; 0: none
  bool scaled = true;
  Tensor output, weights;
};
struct MultiHeadArgs {
  Tensor q, k, v;
  int heads = 0;
  int kvHeads = 0;  // 0: as many as heads
  Tensor wq, wk, wv, wo, bq, bk, bv, bo, mask;
  bool causal = false;
  Tensor output, weights;
};
// Online-softmax attention over key blocks: output, and m and l after each block.
struct OnlineSoftmaxArgs {
  Tensor q, k, v;
  int blockSize = 0;
  bool causal = false;
  Tensor output, max, sum;
};
// The rotary embedding of x (T x d) into out; pairing and scaling by name
// (ropePairingOf, ropeScalingOf), positions (1 x T) integers held as doubles.
// Float64 only: a float32 path would add as many bytes again to the core.
struct RopeArgs {
  Tensor x, positions;
  double base = 10000;
  std::string pairing, scaling;
  double factor = 1, lowFreqFactor = 1, highFreqFactor = 4;
  int originalMaxPositions = 8192;
  Tensor out;
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
AttentionMaskOf<T> maskOf(const Tensor& mask, bool causal, int window = 0) {
  AttentionMaskOf<T> m;
  if (mask.present()) m.mask.emplace(mask.matrixOf<T>());
  m.causal = causal;
  m.window = window;
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
    return scaledDotProductAttention(x.q.matrixOf<T>(), x.k.matrixOf<T>(), x.v.matrixOf<T>(),
                                     maskOf<T>(x.mask, x.causal, x.window),
                                     MatrixOutOf<T>(x.output.outputOf<T>()),
                                     MatrixOutOf<T>(x.weights.outputOf<T>()));
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
                                      x.bo.optionalVectorOf<T>(),
                                      x.kvHeads};
    return multiHeadAttention(x.q.matrixOf<T>(), x.k.matrixOf<T>(), x.v.matrixOf<T>(), params,
                              maskOf<T>(x.mask, x.causal), MatrixOutOf<T>(x.output.outputOf<T>()),
                              MatrixOutOf<T>(x.weights.outputOf<T>()));
  });
}

// Float64 only, like the rotary embedding (the float32 op is the native tests').
StatusCode rawOnlineSoftmaxAttention(const OnlineSoftmaxArgs& x) {
  return guarded([&] {
    return onlineSoftmaxAttention(x.q.matrix(), x.k.matrix(), x.v.matrix(), x.blockSize, x.causal,
                                  MatrixOut(x.output.outputOf<double>()),
                                  MatrixOut(x.max.outputOf<double>()),
                                  MatrixOut(x.sum.outputOf<double>()));
  });
}

// ---- rotary position embedding -----------------------------------------------------

// The one table of names the JS options use (web/src/api/rotary.js lists the same).
std::optional<RopePairing> ropePairingOf(const std::string& name) {
  if (name == "half") return RopePairing::kHalf;
  if (name == "interleaved") return RopePairing::kInterleaved;
  return std::nullopt;
}
std::optional<RopeScaling::Type> ropeScalingOf(const std::string& name) {
  if (name == "none") return RopeScaling::Type::kNone;
  if (name == "linear") return RopeScaling::Type::kLinear;
  if (name == "llama3") return RopeScaling::Type::kLlama3;
  return std::nullopt;
}

StatusCode rawRotaryEmbedding(const RopeArgs& x) {
  return guarded([&] {
    const auto pairing = ropePairingOf(x.pairing);
    if (!pairing) return Status::invalidArgument("pairing '" + x.pairing + "' is unknown");
    const auto type = ropeScalingOf(x.scaling);
    if (!type) return Status::invalidArgument("scaling '" + x.scaling + "' is unknown");
    const RopeScaling scaling{*type, x.factor, x.lowFreqFactor, x.highFreqFactor,
                              x.originalMaxPositions};
    const MatrixView in = x.x.matrix();
    if (in.cols() > std::numeric_limits<int>::max()) {
      return Status::shapeMismatch("X has too many columns for one head");
    }
    // applyRope rotates whatever it is given: NaN and ±Infinity are refused here,
    // and a rotation that overflows below.
    RETURN_IF_ERROR(requireFinite("X", in));
    std::vector<double> invFreq;
    RETURN_IF_ERROR(ropeInverseFrequencies(static_cast<int>(in.cols()), x.base, scaling, invFreq));
    const VectorView given = x.positions.vector();  // integers in [0, 2^31): checked in JS
    std::vector<int> positions(static_cast<std::size_t>(given.size()));
    for (Eigen::Index t = 0; t < given.size(); ++t) positions[t] = static_cast<int>(given[t]);
    MatrixOut out = x.out.outputOf<double>();
    out = in;
    RETURN_IF_ERROR(applyRope(out, positions, invFreq, static_cast<int>(in.cols()), *pairing));
    return requireFiniteResult("the rotated X", out, "X");
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

}  // namespace
}  // namespace attention

EMSCRIPTEN_BINDINGS(attention_core) {
  using namespace attention;
  using emscripten::class_;
  using emscripten::function;
  using emscripten::value_object;

  bindConvention();  // StatusCode, _lastError, _errorClass, Tensor
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
      .field("window", &AttentionArgs::window)
      .field("scaled", &AttentionArgs::scaled)
      .field("output", &AttentionArgs::output)
      .field("weights", &AttentionArgs::weights);
  value_object<MultiHeadArgs>("MultiHeadArgs")
      .field("q", &MultiHeadArgs::q)
      .field("k", &MultiHeadArgs::k)
      .field("v", &MultiHeadArgs::v)
      .field("heads", &MultiHeadArgs::heads)
      .field("kvHeads", &MultiHeadArgs::kvHeads)
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
  value_object<OnlineSoftmaxArgs>("OnlineSoftmaxArgs")
      .field("q", &OnlineSoftmaxArgs::q)
      .field("k", &OnlineSoftmaxArgs::k)
      .field("v", &OnlineSoftmaxArgs::v)
      .field("blockSize", &OnlineSoftmaxArgs::blockSize)
      .field("causal", &OnlineSoftmaxArgs::causal)
      .field("output", &OnlineSoftmaxArgs::output)
      .field("max", &OnlineSoftmaxArgs::max)
      .field("sum", &OnlineSoftmaxArgs::sum);
  value_object<RopeArgs>("RopeArgs")
      .field("x", &RopeArgs::x)
      .field("positions", &RopeArgs::positions)
      .field("base", &RopeArgs::base)
      .field("pairing", &RopeArgs::pairing)
      .field("scaling", &RopeArgs::scaling)
      .field("factor", &RopeArgs::factor)
      .field("lowFreqFactor", &RopeArgs::lowFreqFactor)
      .field("highFreqFactor", &RopeArgs::highFreqFactor)
      .field("originalMaxPositions", &RopeArgs::originalMaxPositions)
      .field("out", &RopeArgs::out);
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
  function("_onlineSoftmaxAttention", &rawOnlineSoftmaxAttention);
  function("_rotaryEmbedding", &rawRotaryEmbedding);
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
}

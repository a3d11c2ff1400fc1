#include "transformer_trainer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "checkpoint_io.h"
#include "trainer_impl.h"

namespace attention {

namespace {

bool endsWith(const std::string& s, const char* suffix) {
  const std::size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

}  // namespace

void appendSourceIds(const Seq2SeqTask& task, const std::string& input, std::vector<int>& ids) {
  for (char ch : input) ids.push_back(1 + static_cast<int>(task.inputAlphabet().find(ch)));
}

namespace model {

// Embeddings ~ N(0, 1/D) (so embedding * sqrt(D) has unit scale, like the
// positional encoding); weight matrices ~ Glorot uniform U(-a, a),
// a = sqrt(6 / (fan_in + fan_out)); layer-norm gains 1; biases and shifts 0.
// Every draw from `rng` (RandomState, NumPy's stream), in layout order.
template <>
void initialise<TransformerTraining>(const TransformerConfig& config, Vector& params,
                                     RandomState& rng) {
  params = Vector::Zero(static_cast<Eigen::Index>(transformerParamCount(config)));
  for (const ParamSpec& s : transformerLayout(config)) {
    const std::size_t n = static_cast<std::size_t>(s.rows) * s.cols;
    double* p = params.data() + s.offset;
    if (endsWith(s.name, ".embed")) {
      const double scale = 1.0 / std::sqrt(static_cast<double>(config.dModel));
      for (std::size_t i = 0; i < n; ++i) p[i] = rng.nextGauss() * scale;
    } else if (endsWith(s.name, ".gamma")) {
      std::fill(p, p + n, 1.0);
    } else if (s.rows > 1) {
      const double a = std::sqrt(6.0 / (s.rows + s.cols));
      for (std::size_t i = 0; i < n; ++i) p[i] = rng.uniform(-a, a);
    }
  }
}

template <>
Status validate<TransformerTraining>(const TransformerOptions& options) {
  return validateTransformerOptions(options);
}

template <>
TransformerConfig configure<TransformerTraining>(const TransformerOptions& options,
                                                 const Seq2SeqTask& task) {
  TransformerConfig config;
  config.layers = options.layers;
  config.heads = options.heads;
  config.dModel = options.dModel;
  config.dFF = options.dFF;
  config.maxLength = std::max(task.maxInputLength(), task.maxOutputLength() + 1);
  return config;
}

// Work per example, relative to the defaults: multiply-adds per layer pair (attention
// projections and products ~12·d², feed-forward ~4·d·d_ff) plus what costs time whatever d is
// (per hidden unit 48, per model unit 32, per head 1000, per layer 1000, per example 1000 —
// fitted to CPU times in Node: layers 1, d_model 2, d_ff 1 took 0.047 default examples' time
// where multiply-adds alone said 0.0014, layers 6, d_model 2, d_ff 1024 took 4.4, heads 16 at
// d_model 16 0.35; the terms make those 0.053, 5.9 and 0.36).
template <>
double workPerExample<TransformerTraining>(const TransformerOptions& o) {
  const auto perExample = [](double layers, double d, double ff, double heads) {
    return 1000 + layers * (12 * d * d + 4 * d * ff + 48 * ff + 32 * d + 1000 * heads + 1000);
  };
  return perExample(o.layers, o.dModel, o.dFF, o.heads) / perExample(2, 32, 64, 4);
}

// The forward pass keeps per token and layer about 12 d_model + d_ff values and heads x keys
// attention weights; 64 tokens and 48 keys bound every task's examples (measured: 1.7 MiB per
// example at layers 6, d_model 2, d_ff 1024, batch 64 to 290, where this says 3.7 MB).
template <>
double bytesPerExample<TransformerTraining>(const TransformerOptions& o) {
  return o.layers * 64.0 * (12.0 * o.dModel + o.dFF + 3.0 * o.heads * 48) * sizeof(double);
}

template <>
std::string describeSizes<TransformerTraining>(const TransformerOptions& o) {
  return ", layers " + std::to_string(o.layers) + ", heads " + std::to_string(o.heads) +
         ", dModel " + std::to_string(o.dModel) + " and dFF " + std::to_string(o.dFF);
}

template <>
TransformerBatch makeBatch<TransformerTraining>(const Seq2SeqTask& task,
                                                const std::vector<Seq2SeqExample>& examples) {
  TransformerBatch batch;
  const std::string& out = task.outputAlphabet();
  for (const Seq2SeqExample& e : examples) {
    batch.source.add(static_cast<int>(e.input.size()));
    appendSourceIds(task, e.input, batch.sourceIds);
    batch.target.add(static_cast<int>(e.target.size()) + 1);
    batch.decoderInput.push_back(kStartToken);
    for (char ch : e.target) {
      const int id = 2 + static_cast<int>(out.find(ch));
      batch.decoderInput.push_back(id);
      batch.targetIds.push_back(id);
    }
    batch.targetIds.push_back(kEndToken);
  }
  return batch;
}

template <>
double lossAndGradient<TransformerTraining>(const TransformerConfig& config,
                                            const TransformerOptions& options, Vector& params,
                                            const TransformerBatch& batch, TransformerCache& cache,
                                            Vector& gradient) {
  const TransformerWeights w = bindTransformerWeights(config, params.data());
  const double loss = transformerForward(config, w, batch, options.labelSmoothing, cache);
  gradient = Vector::Zero(params.size());
  TransformerWeights g = bindTransformerWeights(config, gradient.data());
  transformerBackward(config, w, batch, options.labelSmoothing, cache, g);
  return loss;
}

template <>
double rateAt<TransformerTraining>(const TransformerOptions& options, std::uint64_t step) {
  if (options.schedule == "constant") return options.learningRate;
  const double s = static_cast<double>(std::max<std::uint64_t>(step, 1));
  const double w = options.warmup;
  return options.learningRate / std::sqrt(static_cast<double>(options.dModel)) *
         std::min(1.0 / std::sqrt(s), s * std::pow(w, -1.5));
}

template <>
std::vector<TransformerDecoded> decode<TransformerTraining>(
    const TransformerConfig& config, Vector& params, const Seq2SeqTask& task,
    const std::vector<Seq2SeqExample>& examples, bool details) {
  const TransformerWeights w = bindTransformerWeights(config, params.data());
  PackedLayout source;
  std::vector<int> ids;
  for (const Seq2SeqExample& e : examples) {
    source.add(static_cast<int>(e.input.size()));
    appendSourceIds(task, e.input, ids);
  }
  return transformerGreedy(config, w, source, ids, task.maxOutputLength(), details);
}

template <>
void writeOptions<TransformerTraining>(checkpoint::Writer& w, const TransformerOptions& o) {
  w.str(o.task);
  w.str(o.schedule);
  for (int x : {o.layers, o.heads, o.dModel, o.dFF, o.batch, o.warmup}) {
    w.u32(static_cast<std::uint32_t>(x));
  }
  w.f64(o.learningRate);
  w.f64(o.labelSmoothing);
  w.u32(o.seed);
}

template <>
bool readOptions<TransformerTraining>(checkpoint::Reader& r, TransformerOptions& o) {
  return r.str(o.task, 64) && r.str(o.schedule, 64) && r.i32(o.layers) && r.i32(o.heads) &&
         r.i32(o.dModel) && r.i32(o.dFF) && r.i32(o.batch) && r.i32(o.warmup) &&
         r.f64(o.learningRate) && r.f64(o.labelSmoothing) && r.u32(o.seed);
}

}  // namespace model

template class Trainer<TransformerTraining>;

}  // namespace attention

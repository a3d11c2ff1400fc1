#include "seq2seq_trainer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "checkpoint_io.h"
#include "trainer_impl.h"

namespace attention {

namespace model {

template <>
void initialise<Seq2SeqTraining>(const Seq2SeqConfig& config, Vector& params, RandomState& rng) {
  params = Vector::Zero(static_cast<Eigen::Index>(seq2seqParamCount(config)));
  for (const ParamSpec& s : seq2seqLayout(config)) {
    const bool bias = s.rows == 1 && s.name != "att.v";
    if (bias) continue;  // biases start at 0
    const bool embedding = s.name == "enc.embed" || s.name == "dec.embed";
    // Embeddings ~ U(-1, 1); weight matrices ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
    const double scale = embedding ? 1.0 : 1.0 / std::sqrt(static_cast<double>(s.rows));
    for (std::size_t i = 0; i < static_cast<std::size_t>(s.rows) * s.cols; ++i) {
      params[static_cast<Eigen::Index>(s.offset + i)] = rng.uniform(-scale, scale);
    }
  }
}

template <>
Status validate<Seq2SeqTraining>(const Seq2SeqOptions& options) {
  return validateSeq2SeqOptions(options);
}

template <>
Seq2SeqConfig configure<Seq2SeqTraining>(const Seq2SeqOptions& options, const Seq2SeqTask&) {
  Seq2SeqConfig config;
  config.embedding = options.embedding;
  config.hidden = options.hidden;
  parseScoreKind(options.attention, config.score);
  return config;
}

// hidden·(hidden + embedding) multiply-adds per step, plus 256 for what costs time whatever the
// sizes (fitted to CPU times in Node: hidden 1, embedding 1 took 0.021 default examples' time,
// where multiply-adds alone said 0.0003; this says 0.04).
template <>
double workPerExample<Seq2SeqTraining>(const Seq2SeqOptions& o) {
  return (static_cast<double>(o.hidden) * (o.hidden + o.embedding) + 256) /
         (64.0 * (64 + 32) + 256);
}

// The work bound keeps a step's workspace small (at most ~300 MB at hidden 256, batch 99).
template <>
double bytesPerExample<Seq2SeqTraining>(const Seq2SeqOptions&) {
  return 0;
}

template <>
double rateAt<Seq2SeqTraining>(const Seq2SeqOptions& options, std::uint64_t) {
  return options.learningRate;  // constant
}

template <>
std::string describeSizes<Seq2SeqTraining>(const Seq2SeqOptions& o) {
  return ", hidden " + std::to_string(o.hidden) + " and embedding " + std::to_string(o.embedding);
}

template <>
Seq2SeqBatch makeBatch<Seq2SeqTraining>(const Seq2SeqTask& task,
                                        const std::vector<Seq2SeqExample>& examples) {
  Seq2SeqBatch batch;
  const int B = static_cast<int>(examples.size());
  batch.batch = B;
  // Longest input first (stable), so the examples still reading at step j are a prefix.
  batch.order.resize(static_cast<std::size_t>(B));
  for (int b = 0; b < B; ++b) batch.order[b] = b;
  std::stable_sort(batch.order.begin(), batch.order.end(), [&](int x, int y) {
    return examples[static_cast<std::size_t>(x)].input.size() >
           examples[static_cast<std::size_t>(y)].input.size();
  });
  for (const Seq2SeqExample& e : examples) {
    batch.inSteps = std::max(batch.inSteps, static_cast<int>(e.input.size()));
    batch.outSteps = std::max(batch.outSteps, static_cast<int>(e.target.size()) + 1);
  }
  const std::size_t inSize = static_cast<std::size_t>(batch.inSteps) * B;
  const std::size_t outSize = static_cast<std::size_t>(batch.outSteps) * B;
  batch.source.assign(inSize, 0);
  batch.reversed.assign(inSize, 0);
  batch.sourceLength.assign(static_cast<std::size_t>(B), 0);
  batch.active.assign(static_cast<std::size_t>(batch.inSteps), 0);
  batch.decoderInput.assign(outSize, kEndToken);
  batch.target.assign(outSize, kEndToken);
  batch.mask.assign(outSize, 0.0);
  const std::string& in = task.inputAlphabet();
  const std::string& out = task.outputAlphabet();
  for (int b = 0; b < B; ++b) {
    const Seq2SeqExample& e = examples[static_cast<std::size_t>(batch.order[b])];
    const std::size_t n = e.input.size();
    batch.sourceLength[b] = static_cast<int>(n);
    for (std::size_t t = 0; t < n; ++t) {
      const int id = 1 + static_cast<int>(in.find(e.input[t]));
      batch.source[t * B + b] = id;
      batch.reversed[(n - 1 - t) * B + b] = id;
      ++batch.active[t];
    }
    const std::size_t m = e.target.size();
    for (std::size_t t = 0; t <= m; ++t) {
      const int previous = t == 0 ? kStartToken : 2 + static_cast<int>(out.find(e.target[t - 1]));
      batch.decoderInput[t * B + b] = previous;
      batch.target[t * B + b] = t == m ? kEndToken : 2 + static_cast<int>(out.find(e.target[t]));
      batch.mask[t * B + b] = 1.0;
    }
  }
  return batch;
}

template <>
double lossAndGradient<Seq2SeqTraining>(const Seq2SeqConfig& config, const Seq2SeqOptions&,
                                        Vector& params, const Seq2SeqBatch& batch,
                                        Seq2SeqCache& cache, Vector& gradient) {
  Seq2SeqWeights w = bindSeq2SeqWeights(config, params.data());
  const double loss = seq2seqForward(config, w, batch, cache);
  gradient = Vector::Zero(params.size());
  Seq2SeqWeights g = bindSeq2SeqWeights(config, gradient.data());
  seq2seqBackward(config, w, batch, cache, g);
  return loss;
}

template <>
std::vector<Seq2SeqDecoded> decode<Seq2SeqTraining>(const Seq2SeqConfig& config, Vector& params,
                                                    const Seq2SeqTask& task,
                                                    const std::vector<Seq2SeqExample>& examples,
                                                    bool details) {
  const Seq2SeqWeights w = bindSeq2SeqWeights(config, params.data());
  const Seq2SeqBatch batch = makeBatch<Seq2SeqTraining>(task, examples);
  auto decoded = seq2seqGreedy(config, w, batch, task.maxOutputLength(), details);
  // Back from the batch's slot order (longest input first) to the examples' order.
  std::vector<Seq2SeqDecoded> inOrder(decoded.size());
  for (std::size_t i = 0; i < decoded.size(); ++i) {
    inOrder[static_cast<std::size_t>(batch.order[i])] = std::move(decoded[i]);
  }
  return inOrder;
}

template <>
void writeOptions<Seq2SeqTraining>(checkpoint::Writer& w, const Seq2SeqOptions& o) {
  w.str(o.task);
  w.str(o.attention);
  w.u32(static_cast<std::uint32_t>(o.hidden));
  w.u32(static_cast<std::uint32_t>(o.embedding));
  w.u32(static_cast<std::uint32_t>(o.batch));
  w.f64(o.learningRate);
  w.u32(o.seed);
}

template <>
bool readOptions<Seq2SeqTraining>(checkpoint::Reader& r, Seq2SeqOptions& o) {
  return r.str(o.task, 64) && r.str(o.attention, 64) && r.i32(o.hidden) && r.i32(o.embedding) &&
         r.i32(o.batch) && r.f64(o.learningRate) && r.u32(o.seed);
}

}  // namespace model

template class Trainer<Seq2SeqTraining>;

}  // namespace attention

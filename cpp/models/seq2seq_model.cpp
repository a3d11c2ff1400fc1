#include "seq2seq_model.h"

#include <algorithm>
#include <cmath>

#include "ops/linear.h"
#include "ops/softmax.h"

namespace attention {

namespace {

using Index = Eigen::Index;

// Rows of `table` picked by ids: (ids.size() x cols).
Matrix gatherRows(const MatrixMap& table, const std::vector<int>& ids) {
  Matrix out(static_cast<Index>(ids.size()), table.cols());
  for (std::size_t i = 0; i < ids.size(); ++i) out.row(static_cast<Index>(i)) = table.row(ids[i]);
  return out;
}

// table[ids[i]] += rows[i]
void scatterAddRows(MatrixMap& table, const std::vector<int>& ids, const Matrix& rows) {
  for (std::size_t i = 0; i < ids.size(); ++i) table.row(ids[i]) += rows.row(static_cast<Index>(i));
}

// Row of the backward GRU's output that belongs to input position j of example b.
Index backRow(const Seq2SeqBatch& batch, int j, int b) {
  return static_cast<Index>(batch.sourceLength[b] - 1 - j) * batch.batch + b;
}

// Bidirectional encoder: fills the encoder caches, encOut (Tin*B x H) and the
// decoder's start state h0 (B x H).
void encode(const Seq2SeqConfig& config, const Seq2SeqWeights& w, const Seq2SeqBatch& batch,
            Seq2SeqCache& c) {
  const int B = batch.batch, H = config.hidden;
  c.encInput = gatherRows(w.encEmbed, batch.source);
  c.encInputBack = gatherRows(w.encEmbed, batch.reversed);
  const Matrix zero = Matrix::Zero(B, H);
  gruForward(w.encoder, c.encInput, zero, batch.inSteps, c.encoder, &batch.active);
  gruForward(w.encoderBack, c.encInputBack, zero, batch.inSteps, c.encoderBack, &batch.active);
  const auto forward = c.encoder.outputs();
  const auto backward = c.encoderBack.outputs();
  c.encOut = Matrix::Zero(static_cast<Index>(batch.inSteps) * B, H);
  c.h0.resize(B, H);
  for (int b = 0; b < B; ++b) {
    const int len = batch.sourceLength[b];
    for (int j = 0; j < len; ++j) {
      c.encOut.row(static_cast<Index>(j) * B + b) =
          forward.row(static_cast<Index>(j) * B + b) + backward.row(backRow(batch, j, b));
    }
    const Index last = static_cast<Index>(len - 1) * B + b;
    c.h0.row(b) = forward.row(last) + backward.row(last);
  }
}

}  // namespace

std::vector<ParamSpec> seq2seqLayout(const Seq2SeqConfig& c) {
  const int E = c.embedding, H = c.hidden;
  std::vector<ParamSpec> specs = {
      {"enc.embed", c.inputVocab, E},
      {"enc.W", E, 3 * H},
      {"enc.U", H, 3 * H},
      {"enc.b", 1, 3 * H},
      {"encb.W", E, 3 * H},
      {"encb.U", H, 3 * H},
      {"encb.b", 1, 3 * H},
      {"dec.embed", c.outputVocab, E},
      {"dec.W", E, 3 * H},
      {"dec.U", H, 3 * H},
      {"dec.b", 1, 3 * H},
  };
  switch (c.score) {
    case ScoreKind::kGeneral:
      specs.push_back({"att.W", H, H});
      break;
    case ScoreKind::kBahdanau:
      specs.push_back({"att.b", 1, H});
      [[fallthrough]];
    case ScoreKind::kConcat:
      specs.push_back({"att.Wq", H, H});
      specs.push_back({"att.Wk", H, H});
      specs.push_back({"att.v", 1, H});
      break;
    case ScoreKind::kDot:
      break;
  }
  specs.push_back({"comb.Wc", 2 * H, H});
  specs.push_back({"out.W", H, c.outputVocab});
  specs.push_back({"out.b", 1, c.outputVocab});
  std::size_t offset = 0;
  for (ParamSpec& s : specs) {
    s.offset = offset;
    offset += static_cast<std::size_t>(s.rows) * s.cols;
  }
  return specs;
}

std::size_t seq2seqParamCount(const Seq2SeqConfig& config) {
  const ParamSpec last = seq2seqLayout(config).back();
  return last.offset + static_cast<std::size_t>(last.rows) * last.cols;
}

Seq2SeqWeights bindSeq2SeqWeights(const Seq2SeqConfig& config, double* data) {
  Seq2SeqWeights w;
  w.attention.kind = config.score;
  for (const ParamSpec& s : seq2seqLayout(config)) {
    MatrixMap* target = nullptr;
    if (s.name == "enc.embed") target = &w.encEmbed;
    if (s.name == "enc.W") target = &w.encoder.W;
    if (s.name == "enc.U") target = &w.encoder.U;
    if (s.name == "enc.b") target = &w.encoder.b;
    if (s.name == "encb.W") target = &w.encoderBack.W;
    if (s.name == "encb.U") target = &w.encoderBack.U;
    if (s.name == "encb.b") target = &w.encoderBack.b;
    if (s.name == "dec.embed") target = &w.decEmbed;
    if (s.name == "dec.W") target = &w.decoder.W;
    if (s.name == "dec.U") target = &w.decoder.U;
    if (s.name == "dec.b") target = &w.decoder.b;
    if (s.name == "att.W") target = &w.attention.W;
    if (s.name == "att.Wq") target = &w.attention.Wq;
    if (s.name == "att.Wk") target = &w.attention.Wk;
    if (s.name == "att.b") target = &w.attention.bias;
    if (s.name == "att.v") target = &w.attention.v;
    if (s.name == "comb.Wc") target = &w.Wc;
    if (s.name == "out.W") target = &w.Wo;
    if (s.name == "out.b") target = &w.bo;
    rebind(*target, data + s.offset, s.rows, s.cols);
  }
  return w;
}

double seq2seqForward(const Seq2SeqConfig& config, const Seq2SeqWeights& w,
                      const Seq2SeqBatch& batch, Seq2SeqCache& c) {
  encode(config, w, batch, c);
  c.decInput = gatherRows(w.decEmbed, batch.decoderInput);
  gruForward(w.decoder, c.decInput, c.h0, batch.outSteps, c.decoder);
  c.decOut = c.decoder.outputs();
  // Steps 3-5 for every (t, b) at once.
  attentionForward(w.attention, c.decOut, c.encOut, batch.sourceLength, c.attention, c.context);
  combineForward(w.Wc, c.context, c.decOut, c.combined);
  const double loss = outputForward(w.Wo, w.bo, c.combined, batch.target, batch.mask, c.probs);
  c.tokens = 0;
  for (double m : batch.mask) c.tokens += m;
  return loss;
}

void seq2seqBackward(const Seq2SeqConfig& config, const Seq2SeqWeights& w,
                     const Seq2SeqBatch& batch, const Seq2SeqCache& c, Seq2SeqWeights& g) {
  const int B = batch.batch, H = config.hidden;
  if (c.tokens <= 0) return;
  // 5. output projection and cross-entropy
  Matrix dCombined;
  outputBackward(w.Wo, c.combined, c.probs, batch.target, batch.mask, dCombined, g.Wo, g.bo);
  // 4. a = tanh([c; h] Wc)
  Matrix dContext, dDecOut;
  combineBackward(w.Wc, c.context, c.decOut, c.combined, dCombined, dContext, dDecOut, g.Wc);
  // 3. attention
  Matrix dqAtt, dEncOut;
  attentionBackward(w.attention, c.attention, c.decOut, c.encOut, dContext, dqAtt, dEncOut,
                    g.attention);
  dDecOut += dqAtt;
  // 2. decoder GRU, 1. its embeddings
  Matrix dh0, dDecInput;
  gruBackward(w.decoder, c.decoder, c.decInput, dDecOut, dh0, dDecInput, g.decoder);
  scatterAddRows(g.decEmbed, batch.decoderInput, dDecInput);
  // s_j = f_j + b_j feeds both directions; h0 = f_n + b_1 too.
  Matrix dBack = Matrix::Zero(dEncOut.rows(), H);
  for (int b = 0; b < B; ++b) {
    const int len = batch.sourceLength[b];
    for (int j = 0; j < len; ++j)
      dBack.row(backRow(batch, j, b)) = dEncOut.row(static_cast<Index>(j) * B + b);
    const Index last = static_cast<Index>(len - 1) * B + b;
    dEncOut.row(last) += dh0.row(b);
    dBack.row(last) += dh0.row(b);
  }
  Matrix dEncH0, dEncInput;
  gruBackward(w.encoder, c.encoder, c.encInput, dEncOut, dEncH0, dEncInput, g.encoder);
  scatterAddRows(g.encEmbed, batch.source, dEncInput);
  gruBackward(w.encoderBack, c.encoderBack, c.encInputBack, dBack, dEncH0, dEncInput,
              g.encoderBack);
  scatterAddRows(g.encEmbed, batch.reversed, dEncInput);
}

std::vector<Seq2SeqDecoded> seq2seqGreedy(const Seq2SeqConfig& config, const Seq2SeqWeights& w,
                                          const Seq2SeqBatch& batch, int maxSteps,
                                          bool keepDetails) {
  const int B = batch.batch, H = config.hidden;
  Seq2SeqCache c;
  encode(config, w, batch, c);
  const Matrix& encOut = c.encOut;
  Matrix h = c.h0;
  std::vector<Seq2SeqDecoded> out(static_cast<std::size_t>(B));
  std::vector<int> previous(static_cast<std::size_t>(B), kStartToken);
  std::vector<bool> done(static_cast<std::size_t>(B), false);
  AttentionCache cache;
  Matrix context, combined, logits;
  for (int step = 0; step <= maxSteps; ++step) {
    gruStep(w.decoder, gatherRows(w.decEmbed, previous), h);
    attentionForward(w.attention, h, encOut, batch.sourceLength, cache, context);
    combineForward(w.Wc, context, h, combined);
    logits.resize(combined.rows(), w.Wo.cols());
    linearInto(combined, w.Wo, w.bo.data(), WeightLayout::kInOut, logits);
    bool allDone = true;
    for (int b = 0; b < B; ++b) {
      Index best = 0;
      logits.row(b).maxCoeff(&best);
      previous[b] = static_cast<int>(best);
      if (done[b]) continue;
      if (best == kEndToken || step == maxSteps) {
        done[b] = true;
        continue;
      }
      Seq2SeqDecoded& d = out[b];
      d.tokens.push_back(static_cast<int>(best));
      if (keepDetails) {
        const int len = batch.sourceLength[b];
        d.attention.conservativeResize(static_cast<Index>(d.tokens.size()), len);
        d.attention.bottomRows(1) = cache.weights.row(b).leftCols(len);
        d.decoderStates.conservativeResize(static_cast<Index>(d.tokens.size()), H);
        d.decoderStates.bottomRows(1) = h.row(b);
        d.scores.conservativeResize(static_cast<Index>(d.tokens.size()), len);
        d.scores.bottomRows(1) = cache.scores.row(b).leftCols(len);
        d.probabilities.conservativeResize(static_cast<Index>(d.tokens.size()), logits.cols());
        d.probabilities.bottomRows(1) = logits.row(b);
        softmaxRowsInPlace(d.probabilities.bottomRows(1));
      }
      allDone = false;
    }
    if (allDone) break;
  }
  if (keepDetails) {
    for (int b = 0; b < B; ++b) {
      const int len = batch.sourceLength[b];
      out[b].encoderOutputs.resize(len, H);
      for (int j = 0; j < len; ++j)
        out[b].encoderOutputs.row(j) = encOut.row(static_cast<Index>(j) * B + b);
      if (out[b].tokens.empty()) {
        out[b].attention.resize(0, len);
        out[b].decoderStates.resize(0, H);
        out[b].scores.resize(0, len);
        out[b].probabilities.resize(0, logits.cols());
      }
    }
  }
  return out;
}

}  // namespace attention

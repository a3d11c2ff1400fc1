#include "transformer_model.h"

#include <algorithm>
#include <cmath>

#include "ops/linear.h"

namespace attention {

namespace {

using Index = Eigen::Index;

// Visits every parameter of `w` in storage order (the one definition of the
// layout): f(name, rows, cols, map).
template <typename F>
void forEachParam(const TransformerConfig& c, TransformerWeights& w, F&& f) {
  const int D = c.dModel, F_ = c.dFF;
  const auto norm = [&](const std::string& p, LayerNormWeights& n) {
    f(p + ".gamma", 1, D, n.gamma);
    f(p + ".beta", 1, D, n.beta);
  };
  const auto attention = [&](const std::string& p, MultiHeadWeights& a) {
    f(p + ".Wq", D, D, a.Wq);
    f(p + ".Wk", D, D, a.Wk);
    f(p + ".Wv", D, D, a.Wv);
    f(p + ".Wo", D, D, a.Wo);
    f(p + ".bq", 1, D, a.bq);
    f(p + ".bk", 1, D, a.bk);
    f(p + ".bv", 1, D, a.bv);
    f(p + ".bo", 1, D, a.bo);
  };
  const auto feedForward = [&](const std::string& p, FeedForwardWeights& ff) {
    f(p + ".W1", D, F_, ff.W1);
    f(p + ".b1", 1, F_, ff.b1);
    f(p + ".W2", F_, D, ff.W2);
    f(p + ".b2", 1, D, ff.b2);
  };
  f("src.embed", c.inputVocab, D, w.srcEmbed);
  f("tgt.embed", c.outputVocab, D, w.tgtEmbed);
  w.encoder.resize(static_cast<std::size_t>(c.layers));
  for (int l = 0; l < c.layers; ++l) {
    const std::string p = "enc" + std::to_string(l);
    EncoderLayerWeights& e = w.encoder[l];
    norm(p + ".ln1", e.ln1);
    attention(p + ".self", e.self);
    norm(p + ".ln2", e.ln2);
    feedForward(p + ".ff", e.ff);
  }
  norm("enc.norm", w.encoderNorm);
  w.decoder.resize(static_cast<std::size_t>(c.layers));
  for (int l = 0; l < c.layers; ++l) {
    const std::string p = "dec" + std::to_string(l);
    DecoderLayerWeights& d = w.decoder[l];
    norm(p + ".ln1", d.ln1);
    attention(p + ".self", d.self);
    norm(p + ".ln2", d.ln2);
    attention(p + ".cross", d.cross);
    norm(p + ".ln3", d.ln3);
    feedForward(p + ".ff", d.ff);
  }
  norm("dec.norm", w.decoderNorm);
  f("out.W", D, c.outputVocab, w.outW);
  f("out.b", 1, c.outputVocab, w.outB);
}

// a += b, resizing a first if it is empty.
void addInto(Matrix& a, const Matrix& b) {
  if (a.size() == 0) {
    a = b;
  } else {
    a += b;
  }
}

}  // namespace

std::vector<ParamSpec> transformerLayout(const TransformerConfig& config) {
  std::vector<ParamSpec> specs;
  std::size_t offset = 0;
  TransformerWeights w;
  forEachParam(config, w, [&](const std::string& name, int rows, int cols, MatrixMap&) {
    specs.push_back({name, rows, cols, offset});
    offset += static_cast<std::size_t>(rows) * cols;
  });
  return specs;
}

std::size_t transformerParamCount(const TransformerConfig& config) {
  const ParamSpec last = transformerLayout(config).back();
  return last.offset + static_cast<std::size_t>(last.rows) * last.cols;
}

TransformerWeights bindTransformerWeights(const TransformerConfig& config, double* data) {
  TransformerWeights w;
  double* cursor = data;
  forEachParam(config, w, [&](const std::string&, int rows, int cols, MatrixMap& map) {
    rebind(map, cursor, rows, cols);
    cursor += static_cast<std::size_t>(rows) * cols;
  });
  return w;
}

void transformerEncode(const TransformerConfig& config, const TransformerWeights& w,
                       const PackedLayout& source, const std::vector<int>& sourceIds,
                       TransformerCache& c) {
  const Matrix pe = positionalEncoding(config.maxLength, config.dModel);
  c.encoder.resize(static_cast<std::size_t>(config.layers));
  Matrix x, sub;
  embedForward(w.srcEmbed, sourceIds, source, pe, x);
  for (int l = 0; l < config.layers; ++l) {
    const EncoderLayerWeights& lw = w.encoder[l];
    EncoderLayerCache& lc = c.encoder[l];
    lc.x = std::move(x);
    layerNormForward(lw.ln1, lc.x, lc.ln1, lc.n1);
    multiHeadForward(lw.self, config.heads, false, lc.n1, source, lc.n1, source, lc.self, sub);
    lc.h = lc.x + sub;
    layerNormForward(lw.ln2, lc.h, lc.ln2, lc.n2);
    feedForwardForward(lw.ff, lc.n2, lc.ff, sub);
    x = lc.h + sub;
  }
  c.encoderLast = std::move(x);
  layerNormForward(w.encoderNorm, c.encoderLast, c.encoderNorm, c.memory);
}

void transformerDecode(const TransformerConfig& config, const TransformerWeights& w,
                       const PackedLayout& source, const PackedLayout& target,
                       const std::vector<int>& decoderInput, TransformerCache& c) {
  const Matrix pe = positionalEncoding(config.maxLength, config.dModel);
  c.decoder.resize(static_cast<std::size_t>(config.layers));
  Matrix y, sub;
  embedForward(w.tgtEmbed, decoderInput, target, pe, y);
  for (int l = 0; l < config.layers; ++l) {
    const DecoderLayerWeights& lw = w.decoder[l];
    DecoderLayerCache& lc = c.decoder[l];
    lc.x = std::move(y);
    layerNormForward(lw.ln1, lc.x, lc.ln1, lc.n1);
    multiHeadForward(lw.self, config.heads, true, lc.n1, target, lc.n1, target, lc.self, sub);
    lc.h1 = lc.x + sub;
    layerNormForward(lw.ln2, lc.h1, lc.ln2, lc.n2);
    multiHeadForward(lw.cross, config.heads, false, lc.n2, target, c.memory, source, lc.cross, sub);
    lc.h2 = lc.h1 + sub;
    layerNormForward(lw.ln3, lc.h2, lc.ln3, lc.n3);
    feedForwardForward(lw.ff, lc.n3, lc.ff, sub);
    y = lc.h2 + sub;
  }
  c.decoderLast = std::move(y);
  layerNormForward(w.decoderNorm, c.decoderLast, c.decoderNorm, c.decoderOut);
}

double transformerForward(const TransformerConfig& config, const TransformerWeights& w,
                          const TransformerBatch& batch, double smoothing, TransformerCache& c) {
  transformerEncode(config, w, batch.source, batch.sourceIds, c);
  transformerDecode(config, w, batch.source, batch.target, batch.decoderInput, c);
  return outputLossForward(w.outW, w.outB, c.decoderOut, batch.targetIds, smoothing, c.probs);
}

void transformerBackward(const TransformerConfig& config, const TransformerWeights& w,
                         const TransformerBatch& batch, double smoothing, const TransformerCache& c,
                         TransformerWeights& g) {
  Matrix dOut, dy, dSub, dNorm, dq, dkv, dMemory;
  outputLossBackward(w.outW, c.decoderOut, c.probs, batch.targetIds, smoothing, dOut, g.outW,
                     g.outB);
  layerNormBackward(w.decoderNorm, c.decoderNorm, dOut, dy, g.decoderNorm);
  // Each residual sublayer x' = x + f(LN(x)): dx = dx' + LN'(f'(dx')).
  for (int l = config.layers - 1; l >= 0; --l) {
    const DecoderLayerWeights& lw = w.decoder[l];
    DecoderLayerWeights& lg = g.decoder[l];
    const DecoderLayerCache& lc = c.decoder[l];
    feedForwardBackward(lw.ff, lc.n3, lc.ff, dy, dSub, lg.ff);
    layerNormBackward(lw.ln3, lc.ln3, dSub, dNorm, lg.ln3);
    dy += dNorm;
    multiHeadBackward(lw.cross, lc.n2, c.memory, lc.cross, dy, dq, dkv, lg.cross);
    addInto(dMemory, dkv);
    layerNormBackward(lw.ln2, lc.ln2, dq, dNorm, lg.ln2);
    dy += dNorm;
    multiHeadBackward(lw.self, lc.n1, lc.n1, lc.self, dy, dq, dkv, lg.self);
    dq += dkv;
    layerNormBackward(lw.ln1, lc.ln1, dq, dNorm, lg.ln1);
    dy += dNorm;
  }
  embedBackward(batch.decoderInput, dy, g.tgtEmbed);
  Matrix dx;
  layerNormBackward(w.encoderNorm, c.encoderNorm, dMemory, dx, g.encoderNorm);
  for (int l = config.layers - 1; l >= 0; --l) {
    const EncoderLayerWeights& lw = w.encoder[l];
    EncoderLayerWeights& lg = g.encoder[l];
    const EncoderLayerCache& lc = c.encoder[l];
    feedForwardBackward(lw.ff, lc.n2, lc.ff, dx, dSub, lg.ff);
    layerNormBackward(lw.ln2, lc.ln2, dSub, dNorm, lg.ln2);
    dx += dNorm;
    multiHeadBackward(lw.self, lc.n1, lc.n1, lc.self, dx, dq, dkv, lg.self);
    dq += dkv;
    layerNormBackward(lw.ln1, lc.ln1, dq, dNorm, lg.ln1);
    dx += dNorm;
  }
  embedBackward(batch.sourceIds, dx, g.srcEmbed);
}

namespace {

// [layer][head] maps of example b from per-layer attention caches.
template <typename LayerCaches, typename Pick>
std::vector<std::vector<Matrix>> mapsOf(const LayerCaches& layers, int heads, int b, Pick pick) {
  std::vector<std::vector<Matrix>> maps;
  for (const auto& layer : layers) {
    const MultiHeadCache& mc = pick(layer);
    std::vector<Matrix> perHead;
    for (int i = 0; i < heads; ++i) perHead.emplace_back(mc.headWeights(b, i));
    maps.push_back(std::move(perHead));
  }
  return maps;
}

// Per layer, example b's rows of the projected queries (which = 0) or keys (1).
template <typename LayerCaches, typename Pick>
std::vector<Matrix> projectionsOf(const LayerCaches& layers, int b, Pick pick, int which) {
  std::vector<Matrix> out;
  for (const auto& layer : layers) {
    const MultiHeadCache& mc = pick(layer);
    const PackedLayout& rows = which == 0 ? mc.queries : mc.keys;
    const Matrix& m = which == 0 ? mc.q : mc.k;
    out.emplace_back(m.middleRows(rows.offset[b], rows.length[b]));
  }
  return out;
}

// Per layer, example b's rows of the input its projection read.
template <typename LayerCaches, typename Pick>
std::vector<Matrix> inputsOf(const LayerCaches& layers, const PackedLayout& rows, int b,
                             Pick pick) {
  std::vector<Matrix> out;
  for (const auto& layer : layers) {
    out.emplace_back(pick(layer).middleRows(rows.offset[b], rows.length[b]));
  }
  return out;
}

// [use][layer] copies of one attention weight (Wq, bq, ...) of every layer.
std::vector<std::vector<Matrix>> attentionWeights(const TransformerWeights& w,
                                                  MatrixMap MultiHeadWeights::*part) {
  std::vector<std::vector<Matrix>> out(3);
  for (const EncoderLayerWeights& l : w.encoder) out[0].emplace_back(l.self.*part);
  for (const DecoderLayerWeights& l : w.decoder) {
    out[1].emplace_back(l.self.*part);
    out[2].emplace_back(l.cross.*part);
  }
  return out;
}

}  // namespace

std::vector<TransformerDecoded> transformerGreedy(const TransformerConfig& config,
                                                  const TransformerWeights& w,
                                                  const PackedLayout& source,
                                                  const std::vector<int>& sourceIds, int maxSteps,
                                                  bool keepDetails) {
  const int B = source.examples();
  TransformerCache c;
  transformerEncode(config, w, source, sourceIds, c);
  std::vector<TransformerDecoded> out(static_cast<std::size_t>(B));
  std::vector<bool> done(static_cast<std::size_t>(B), false);
  // Every example gets the same number of decoder inputs each step (finished
  // ones keep being fed their <end>s); the whole prefix is re-run each step.
  std::vector<std::vector<int>> inputs(static_cast<std::size_t>(B), std::vector<int>{kStartToken});
  Matrix logits;
  for (int step = 0; step <= maxSteps; ++step) {
    PackedLayout target;
    std::vector<int> ids;
    for (int b = 0; b < B; ++b) {
      target.add(step + 1);
      ids.insert(ids.end(), inputs[b].begin(), inputs[b].end());
    }
    transformerDecode(config, w, source, target, ids, c);
    Matrix last(B, config.dModel);
    for (int b = 0; b < B; ++b) last.row(b) = c.decoderOut.row(target.offset[b] + step);
    logits.resize(B, config.outputVocab);
    linearInto(last, w.outW, w.outB.data(), WeightLayout::kInOut, logits);
    bool allDone = true;
    for (int b = 0; b < B; ++b) {
      Index best = 0;
      logits.row(b).maxCoeff(&best);
      inputs[b].push_back(static_cast<int>(best));
      if (done[b]) continue;
      if (best == kEndToken || step == maxSteps) {
        done[b] = true;
        continue;
      }
      out[b].tokens.push_back(static_cast<int>(best));
      allDone = false;
    }
    if (allDone) break;
  }
  if (keepDetails) {
    // Re-run the decoder over each example's own <start>, y_1 .. y_m.
    PackedLayout target;
    std::vector<int> ids;
    for (int b = 0; b < B; ++b) {
      target.add(static_cast<int>(out[b].tokens.size()) + 1);
      ids.push_back(kStartToken);
      ids.insert(ids.end(), out[b].tokens.begin(), out[b].tokens.end());
    }
    transformerDecode(config, w, source, target, ids, c);
    for (int b = 0; b < B; ++b) {
      const int h = config.heads;
      out[b].encoderSelf =
          mapsOf(c.encoder, h, b,
                 [](const EncoderLayerCache& l) -> const MultiHeadCache& { return l.self; });
      out[b].decoderSelf =
          mapsOf(c.decoder, h, b,
                 [](const DecoderLayerCache& l) -> const MultiHeadCache& { return l.self; });
      out[b].cross =
          mapsOf(c.decoder, h, b,
                 [](const DecoderLayerCache& l) -> const MultiHeadCache& { return l.cross; });
      const auto encSelf = [](const EncoderLayerCache& l) -> const MultiHeadCache& {
        return l.self;
      };
      const auto decSelf = [](const DecoderLayerCache& l) -> const MultiHeadCache& {
        return l.self;
      };
      const auto cross = [](const DecoderLayerCache& l) -> const MultiHeadCache& {
        return l.cross;
      };
      out[b].queries = {projectionsOf(c.encoder, b, encSelf, 0),
                        projectionsOf(c.decoder, b, decSelf, 0),
                        projectionsOf(c.decoder, b, cross, 0)};
      out[b].keys = {projectionsOf(c.encoder, b, encSelf, 1),
                     projectionsOf(c.decoder, b, decSelf, 1),
                     projectionsOf(c.decoder, b, cross, 1)};
      const auto encN1 = [](const EncoderLayerCache& l) -> const Matrix& { return l.n1; };
      const auto decN1 = [](const DecoderLayerCache& l) -> const Matrix& { return l.n1; };
      const auto decN2 = [](const DecoderLayerCache& l) -> const Matrix& { return l.n2; };
      const Matrix memory = c.memory.middleRows(source.offset[b], source.length[b]);
      out[b].queryInputs = {inputsOf(c.encoder, source, b, encN1),
                            inputsOf(c.decoder, target, b, decN1),
                            inputsOf(c.decoder, target, b, decN2)};
      out[b].keyInputs = {out[b].queryInputs[0], out[b].queryInputs[1],
                          std::vector<Matrix>(c.decoder.size(), memory)};
    }
    // The weights are the model's, the same for every example.
    const auto Wq = attentionWeights(w, &MultiHeadWeights::Wq);
    const auto Wk = attentionWeights(w, &MultiHeadWeights::Wk);
    const auto bq = attentionWeights(w, &MultiHeadWeights::bq);
    const auto bk = attentionWeights(w, &MultiHeadWeights::bk);
    for (int b = 0; b < B; ++b) {
      out[b].queryWeights = Wq;
      out[b].keyWeights = Wk;
      out[b].queryBiases = bq;
      out[b].keyBiases = bk;
    }
  }
  return out;
}

}  // namespace attention

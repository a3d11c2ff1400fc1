// The rotary families' fixture configurations (tests/fixtures/<family>/expected.txt's
// core.* entries, written by llama/make.py) as the core's LlamaConfig, for the
// family tests (test_rotary_families.cpp, test_half_weights.cpp).
#pragma once

#include <string>

#include "fixtures.h"
#include "models/families/llama/llama_model.h"

namespace rotary_fixture {

using attention::GateActivation;
using attention::LlamaConfig;
using attention::RopeScaling;
using attention::Vector;

inline LlamaConfig configOf(const fixtures::File& ref) {
  const auto i = [&](const char* key) {
    return static_cast<int>(ref.scalar(std::string("core.") + key));
  };
  const auto d = [&](const char* key) { return ref.scalar(std::string("core.") + key); };
  LlamaConfig c;
  c.layers = i("layers");
  c.heads = i("heads");
  c.kvHeads = i("kvHeads");
  c.headDim = i("headDim");
  c.dModel = i("dModel");
  c.inner = i("inner");
  c.vocab = i("vocab");
  c.positions = i("positions");
  c.epsilon = d("epsilon");
  c.ropeTheta = d("ropeTheta");
  c.ropeScaling.type = static_cast<RopeScaling::Type>(i("ropeType"));
  c.ropeScaling.factor = d("ropeFactor");
  c.ropeScaling.lowFreqFactor = d("ropeLow");
  c.ropeScaling.highFreqFactor = d("ropeHigh");
  c.ropeScaling.originalMaxPositions = i("ropeOriginal");
  c.ropeLocalBase = d("ropeLocalBase");
  c.slidingWindow = i("slidingWindow");
  const Vector sliding = ref.vector("core.sliding");
  for (Eigen::Index l = 0; l < sliding.size(); ++l) c.slidingLayers += sliding[l] != 0 ? '1' : '0';
  c.queryPreAttnScalar = d("queryPreAttnScalar");
  c.finalLogitSoftcap = d("softcap");
  c.attentionBias = i("attentionBias") != 0;
  c.outputBias = i("outputBias") != 0;
  c.qkNorm = i("qkNorm") != 0;
  c.normOffset = i("normOffset") != 0;
  c.sandwichNorms = i("sandwichNorms") != 0;
  c.embedScale = i("embedScale") != 0;
  c.activation = i("geluTanh") != 0 ? GateActivation::kGeluTanh : GateActivation::kSilu;
  c.separateHead = i("separateHead") != 0;
  return c;
}

}  // namespace rotary_fixture

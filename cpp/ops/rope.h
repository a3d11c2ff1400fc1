// Rotary position embeddings (Su et al. 2021, "RoFormer: Enhanced Transformer
// with Rotary Position Embedding"): each pair of a head's coordinates is turned
// by the angle position * theta_i, so q . k depends on the distance between
// the two positions. theta_i = base^(-2i/d) for i < d/2 (d = the head's size),
// optionally rescaled for longer contexts:
//   linear  theta_i / factor (position interpolation, Chen et al. 2023)
//   llama3  Meta's Llama 3.1 schedule (Hugging Face's _compute_llama3_parameters):
//           wavelengths 2 pi / theta_i above originalMaxPositions / lowFreqFactor
//           are divided by factor, those below originalMaxPositions /
//           highFreqFactor kept, the ones between blended linearly in
//           originalMaxPositions / wavelength.
// Pairing: which coordinates turn together.
//   kHalf         i with i + d/2 (Hugging Face's rotate_half: Llama, Qwen, Gemma)
//   kInterleaved  2i with 2i + 1 (the paper's and RoFormer's)
// Shapes: x (T x blocks * d), one row per token, every d-wide block one head.
#pragma once

#include <vector>

#include "gemm.h"
#include "status.h"
#include "tensor.h"

namespace attention {

enum class RopePairing { kHalf, kInterleaved };

struct RopeScaling {
  enum class Type { kNone, kLinear, kLlama3 };
  Type type = Type::kNone;
  double factor = 1;
  double lowFreqFactor = 1, highFreqFactor = 4;  // llama3 only
  int originalMaxPositions = 8192;               // llama3 only
};

// out: the d/2 angles per position unit, theta_i as above. Checks headDim even
// and >= 2, base > 1 and finite, factor >= 1 and finite (and for llama3
// highFreqFactor > lowFreqFactor > 0, originalMaxPositions >= 1).
Status ropeInverseFrequencies(int headDim, double base, const RopeScaling& scaling,
                              std::vector<double>& out);

// Rotates in place every headDim-wide block of row t of x by positions[t] *
// invFreq[i]. Checks headDim even and >= 2, x's columns a multiple of headDim,
// one position >= 0 per row, invFreq.size() == headDim / 2 and finite.
// Angles, cosines and sines in double; the float32 form rounds them once.
Status applyRope(MatrixOut x, const std::vector<int>& positions, const std::vector<double>& invFreq,
                 int headDim, RopePairing pairing);
Status applyRope(MatrixOut32 x, const std::vector<int>& positions,
                 const std::vector<double>& invFreq, int headDim, RopePairing pairing);

}  // namespace attention

// The gated MLP of Llama, Qwen and Gemma (Shazeer 2020, "GLU Variants Improve
// Transformer"): two projections of x, one through an activation, multiplied
// entry by entry, then projected back:
//   y = (act(x Wgate) * (x Wup)) Wdown
//   act = SiLU, x sigmoid(x)                 (SwiGLU: Llama, Qwen; hidden_act "silu")
//   act = GELU, tanh form (ops/gelu.h)       (GeGLU: Gemma; "gelu_pytorch_tanh")
// Shapes: x (T x D), Wgate and Wup (D x F), Wdown (F x D) in x out -> y (T x D).
#pragma once

#include <cstddef>

#include "gemm.h"
#include "status.h"
#include "tensor.h"

namespace attention {

enum class GateActivation { kSilu, kGeluTanh };

// gate[i] = act(gate[i]) * up[i] for i < n (the step between the projections).
void gateInPlace(double* gate, const double* up, std::size_t n, GateActivation act);
void gateInPlace(float* gate, const float* up, std::size_t n, GateActivation act);

// The whole MLP, validated (names x, Wgate, Wup, Wdown); y is resized.
Status gatedMlp(const MatrixView& x, const MatrixView& wGate, const MatrixView& wUp,
                const MatrixView& wDown, GateActivation act, Matrix& y);
Status gatedMlp(const MatrixView32& x, const MatrixView32& wGate, const MatrixView32& wUp,
                const MatrixView32& wDown, GateActivation act, Matrix32& y);

}  // namespace attention

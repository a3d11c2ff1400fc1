// Bahdanau (additive) attention, laid out like the article that introduces it
// with NumPy: each encoder state h_i is concatenated with the decoder state s,
// passed through one tanh layer and projected to a single alignment score.
//   score_i = w2^T tanh(W1^T [h_i; s])
// Shapes: n = encoder steps, h = hidden size, a = attention size.
//   encoderStates (n x h), decoderState (h), W1 (2h x a), w2 (a).
#pragma once

#include "status.h"
#include "tensor.h"

namespace attention {

// Every intermediate step, for the chapter that shows them one by one.
struct AdditiveAttention {
  Matrix inputs;       // (n x 2h): row i is [h_i ; s] (s repeated on every row)
  Matrix activations;  // (n x a): tanh(inputs . W1)
  Vector scores;       // (n): activations . w2, the alignment scores
  Vector weights;      // (n): softmax(scores)
  Matrix weighted;     // (n x h): row i is weights[i] * h_i
  Vector context;      // (h): sum over i of weighted[i], the context vector
};

// scores: (n), the alignment score of every encoder step.
Status additiveScores(const MatrixView& encoderStates, const VectorView& decoderState,
                      const MatrixView& W1, const VectorView& w2, Vector& scores);

// The whole computation: scores, softmax weights and the context vector.
Status additiveAttention(const MatrixView& encoderStates, const VectorView& decoderState,
                         const MatrixView& W1, const VectorView& w2, AdditiveAttention& out);

}  // namespace attention

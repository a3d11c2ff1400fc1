// Layers of the seq2seq model with hand-written backward passes: a GRU over a
// whole (padded) batch of sequences, and attention of every decoder state over
// the encoder outputs with four score functions.
//
// Shapes: B = batch size, T = sequence length (longest in the batch), H = hidden
// size, E = input size of a GRU. Sequences are stored time-major, one row per
// (step, example): row t*B + b holds step t of example b, so one step of the
// whole batch is the contiguous block of rows [t*B, t*B + B) and every
// per-step computation is one Eigen matrix product.
//
// Backward functions ADD into the gradient views (so one gradient vector can
// collect several contributions) and overwrite their dInput outputs.
#pragma once

#include <new>
#include <string>
#include <vector>

#include "ops/tensor.h"

namespace attention {

// Rebinds a Map to other memory (Eigen Maps cannot be reassigned).
inline void rebind(MatrixMap& map, double* data, Eigen::Index rows, Eigen::Index cols) {
  map.~MatrixMap();
  new (&map) MatrixMap(data, rows, cols);
}

// ---- GRU ----
// r = sigmoid(x Wr + h Ur + br), z = sigmoid(x Wz + h Uz + bz),
// n = tanh(x Wn + bn + r * (h Un)), h' = (1 - z) * n + z * h.
struct GruWeights {
  MatrixMap W{nullptr, 0, 0};  // (E x 3H): column blocks r | z | n
  MatrixMap U{nullptr, 0, 0};  // (H x 3H)
  MatrixMap b{nullptr, 0, 0};  // (1 x 3H)
};

struct GruCache {
  int steps = 0, batch = 0;
  std::vector<int> active;  // (T) examples taking each step
  Matrix gx;                // (T*B x 3H): x W + b
  Matrix h;                 // ((T+1)*B x H): block 0 is h0, block t+1 is the output of step t
  Matrix r, z, n;           // (T*B x H) gate values
  Matrix ghn;               // (T*B x H): h Un before the reset gate

  // Output of step t for every example: (B x H).
  auto output(int t) const { return h.middleRows(static_cast<Eigen::Index>(t + 1) * batch, batch); }
  // All outputs h_1..h_T: (T*B x H).
  auto outputs() const { return h.bottomRows(static_cast<Eigen::Index>(steps) * batch); }
};

// x: (T*B x E), h0: (B x H) -> cache (outputs in cache.outputs()).
// `active` (optional, T entries, non-increasing): only the first active[t] examples
// take step t (the batch is sorted by length, longest first, as in a packed
// sequence); the other rows of step t are left at zero and cost nothing.
void gruForward(const GruWeights& w, const MatrixView& x, const MatrixView& h0, int steps,
                GruCache& cache, const std::vector<int>* active = nullptr);

// One step without caches (for greedy decoding). x: (B x E), h: (B x H) updated in place.
void gruStep(const GruWeights& w, const MatrixView& x, Matrix& h);

// dOut: (T*B x H) gradient of the loss w.r.t. every output h_1..h_T.
// -> dh0: (B x H), dx: (T*B x E); adds dW, dU, db into `grad`.
void gruBackward(const GruWeights& w, const GruCache& cache, const MatrixView& x,
                 const MatrixView& dOut, Matrix& dh0, Matrix& dx, GruWeights& grad);

// ---- attention ----
enum class ScoreKind {
  kBahdanau,  // v . tanh(q Wq + k Wk + b)   (additive, with a bias)
  kDot,       // q . k
  kGeneral,   // q Wa k^T
  kConcat     // v . tanh([q; k] Wa) = v . tanh(q Wq + k Wk)   (Luong's concat)
};

// "bahdanau", "luong-dot", "luong-general", "luong-concat"; false if unknown.
bool parseScoreKind(const std::string& name, ScoreKind& kind);
const char* scoreKindName(ScoreKind kind);

struct AttentionWeights {
  ScoreKind kind = ScoreKind::kDot;
  MatrixMap W{nullptr, 0, 0};     // general: (H x H)
  MatrixMap Wq{nullptr, 0, 0};    // additive: (H x H)
  MatrixMap Wk{nullptr, 0, 0};    // additive: (H x H)
  MatrixMap bias{nullptr, 0, 0};  // bahdanau: (1 x H)
  MatrixMap v{nullptr, 0, 0};     // additive: (1 x H)
  // Forward formulas live in ops/attention.h: dot -> dotScoresInto, general ->
  // generalScoresInto, bahdanau and concat -> pairwiseAdditiveScoresInto on
  // q Wq (+ b) and k Wk (linear.h); only the backward passes are here.
};

struct AttentionCache {
  int queries = 0, keys = 0, batch = 0;  // Tq, Tk, B
  std::vector<int> lengths;              // (B): valid keys of each example
  Matrix projectedQuery;                 // general: q W; additive: q Wq (+ b)   (Tq*B x H)
  Matrix projectedKeys;                  // additive: k Wk   (Tk*B x H)
  std::vector<Matrix> tanhs;  // additive: (B) of (Tq*len_b x H), rows t*len_b.. for query t
  Matrix scores;              // (Tq*B x Tk): the scores the softmax read; 0 beyond lengths[b]
  Matrix weights;             // (Tq*B x Tk): softmax weights; 0 beyond lengths[b]
};

// q: (Tq*B x H) queries, k: (Tk*B x H) keys (= values), lengths: (B), each in [1, Tk].
// -> context: (Tq*B x H), cache.weights: (Tq*B x Tk), rows sum to 1 over valid keys.
void attentionForward(const AttentionWeights& w, const MatrixView& q, const MatrixView& k,
                      const std::vector<int>& lengths, AttentionCache& cache, Matrix& context);

// dContext: (Tq*B x H) -> dq: (Tq*B x H), dk: (Tk*B x H); adds parameter gradients into `grad`.
void attentionBackward(const AttentionWeights& w, const AttentionCache& cache, const MatrixView& q,
                       const MatrixView& k, const MatrixView& dContext, Matrix& dq, Matrix& dk,
                       AttentionWeights& grad);

// ---- Luong's combination: a = tanh([c; h] Wc) ----
// Wc: (2H x H), rows 0..H-1 multiply c and rows H..2H-1 multiply h; c, h: (N x H) -> a: (N x H).
void combineForward(const MatrixView& Wc, const MatrixView& c, const MatrixView& h, Matrix& a);

// da: (N x H) -> dc, dh: (N x H); adds dWc into gradWc (2H x H).
void combineBackward(const MatrixView& Wc, const MatrixView& c, const MatrixView& h,
                     const MatrixView& a, const MatrixView& da, Matrix& dc, Matrix& dh,
                     MatrixMap& gradWc);

// ---- output projection and softmax cross-entropy ----
// a: (N x H), Wo: (H x W), bo: (1 x W), targets/mask: (N) -> probs: (N x W).
// Returns sum_i mask[i] * -log probs[i][targets[i]] / sum_i mask[i] (0 if the mask is all 0).
double outputForward(const MatrixView& Wo, const MatrixView& bo, const MatrixView& a,
                     const std::vector<int>& targets, const std::vector<double>& mask,
                     Matrix& probs);

// -> da: (N x H); adds dWo, dbo into gradWo, gradBo.
void outputBackward(const MatrixView& Wo, const MatrixView& a, const MatrixView& probs,
                    const std::vector<int>& targets, const std::vector<double>& mask, Matrix& da,
                    MatrixMap& gradWo, MatrixMap& gradBo);

}  // namespace attention

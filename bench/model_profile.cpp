// Where a SmolLM2-135M-shaped forward pass spends its time (bench/models.mjs's
// shapes: 30 layers, hidden 576, 9 query / 3 kv heads of 64, MLP 1536, vocab
// 49152, tied): the core ops of cpp/ops/ called in the order the rotary decoder
// (cpp/models/families/llama/) calls them, each kind timed on its own, for
//   prefill  64 tokens, every map (the last layer's o_proj and MLP on one row)
//   decode   one new token after 64 cached ones (keys, values of 3 kv heads)
// with the linear weights packed in float32 and packed 16-bit (BF16), random
// values. Built natively with the wasm build's vector width (no -march: SSE, 4
// floats, as SIMD128), from the repository's root:
//   c++ -O3 -DNDEBUG -std=c++17 -Icpp -isystem /usr/include/eigen3 \
//       bench/model_profile.cpp cpp/ops/*.cpp -o model_profile && ./model_profile
// Prints one JSON line per case: milliseconds per part (median of the runs),
// and the packed gemm's GFLOP/s on the MLP's up projection (64 x 576 x 1536).
#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "ops/attention.h"
#include "ops/cached_attention.h"
#include "ops/gated_mlp.h"
#include "ops/gemm.h"
#include "ops/linear.h"
#include "ops/rms_norm.h"
#include "ops/rope.h"
#include "ops/token_table.h"

using namespace attention;
using Index = Eigen::Index;
using Clock = std::chrono::steady_clock;

namespace {

constexpr Index kLayers = 30, kD = 576, kHeads = 9, kKv = 3, kHd = 64, kF = 1536, kV = 49152;

// One linear weight (out x in, PyTorch's layout) packed as a model packs it.
struct Weight {
  Index out = 0;
  std::vector<float> f32;
  std::vector<std::uint16_t> bf16;
};

Weight makeWeight(Index out, Index in, std::mt19937& rng) {
  std::normal_distribution<float> normal(0.0f, 0.04f);
  std::vector<std::uint16_t> bits(static_cast<std::size_t>(out * in));
  for (auto& b : bits) {
    const float x = normal(rng);
    std::uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    b = static_cast<std::uint16_t>(u >> 16);
  }
  std::vector<float> values(bits.size());
  widenHalves(bits.data(), bits.size(), HalfFormat::kBF16, values.data());
  Weight w;
  w.out = out;
  packStreamB(Trans::kYes, values.data(), in, in, out, w.f32);
  packStreamB(Trans::kYes, bits.data(), in, in, out, w.bf16);
  return w;
}

struct Layer {
  Weight q, k, v, o, gate, up, down;
  std::vector<float> inputNorm, postNorm;
};

struct Timer {
  std::map<std::string, double> ms;
  template <typename F>
  void time(const char* part, F&& body) {
    const auto t0 = Clock::now();
    body();
    ms[part] += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  }
};

void linearOf(const Weight& w, bool half, const MatrixView32& x, MatrixOut32 y) {
  if (half) {
    linearPackedHalfInto(x, w.bf16.data(), HalfFormat::kBF16, w.out, nullptr, y);
  } else {
    linearPackedInto(x, w.f32.data(), w.out, nullptr, y);
  }
}

// One pass of T new tokens after `past` cached ones (prefill: past = 0, T = 64;
// decode: T = 1), timed by part.
void pass(const std::vector<Layer>& layers, const std::vector<std::uint16_t>& table,
          const std::vector<float>& finalNorm, const std::vector<double>& freq, bool half, Index T,
          Index past, Timer& timer) {
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  Matrix32 x(T, kD), normed(T, kD), q(T, kHeads * kHd), k(T, kKv * kHd), v(T, kKv * kHd),
      heads(T, kHeads * kHd), attnOut(T, kD), gate(T, kF), up(T, kF), down(T, kD);
  for (Index i = 0; i < x.size(); ++i) x.data()[i] = normal(rng);
  const Index n = past + T;
  Matrix32 keys(n, kKv * kHd), values(n, kKv * kHd), maps(kHeads * T, n);
  for (Index i = 0; i < keys.size(); ++i) keys.data()[i] = values.data()[i] = normal(rng) * 0.1f;
  std::vector<int> positions(T);
  for (Index t = 0; t < T; ++t) positions[t] = static_cast<int>(past + t);
  const float eps = 1e-5f;
  for (Index l = 0; l < kLayers; ++l) {
    const Layer& L = layers[l];
    timer.time("rms_norm",
               [&] { rmsNormInto(x, L.inputNorm.data(), kD, eps, RmsNormWeight::kPlain, normed); });
    timer.time("qkv_proj", [&] {
      linearOf(L.q, half, normed, q);
      linearOf(L.k, half, normed, k);
      linearOf(L.v, half, normed, v);
    });
    timer.time("rope", [&] {
      (void)applyRope(q, positions, freq, kHd, RopePairing::kHalf);
      (void)applyRope(k, positions, freq, kHd, RopePairing::kHalf);
    });
    timer.time("attention", [&] {
      keys.bottomRows(T) = k;
      values.bottomRows(T) = v;
      for (Index h = 0; h < kHeads; ++h) {
        const Index g = h / (kHeads / kKv);
        if (T == 1) {
          (void)cachedAttentionRow(q.middleCols(h * kHd, kHd), keys.middleCols(g * kHd, kHd),
                                   values.middleCols(g * kHd, kHd), 0, 0.0,
                                   heads.middleCols(h * kHd, kHd), maps.middleRows(h, 1));
        } else {
          AttentionMask32 mask;
          mask.causal = true;
          (void)scaledDotProductAttention(q.middleCols(h * kHd, kHd), keys.middleCols(g * kHd, kHd),
                                          values.middleCols(g * kHd, kHd), mask,
                                          heads.middleCols(h * kHd, kHd),
                                          maps.middleRows(h * T, T));
        }
      }
    });
    const Index first = l + 1 == kLayers ? T - 1 : 0, rows = T - first;
    timer.time("o_proj",
               [&] { linearOf(L.o, half, heads.middleRows(first, rows), attnOut.topRows(rows)); });
    Matrix32 next = x.middleRows(first, rows) + attnOut.topRows(rows);
    timer.time("rms_norm", [&] {
      rmsNormInto(next, L.postNorm.data(), kD, eps, RmsNormWeight::kPlain, normed.topRows(rows));
    });
    timer.time("mlp", [&] {
      linearOf(L.gate, half, normed.topRows(rows), gate.topRows(rows));
      linearOf(L.up, half, normed.topRows(rows), up.topRows(rows));
      gateInPlace(gate.data(), up.data(), static_cast<std::size_t>(rows * kF),
                  GateActivation::kSilu);
      linearOf(L.down, half, gate.topRows(rows), down.topRows(rows));
    });
    next += down.topRows(rows);
    if (rows == T) x = next;
  }
  Matrix32 last(1, kD);
  std::vector<float> logits(kV);
  timer.time("rms_norm", [&] {
    rmsNormInto(x.bottomRows(1), finalNorm.data(), kD, eps, RmsNormWeight::kPlain, last);
  });
  timer.time("logits", [&] {
    tokenTableTimes(table.data(), HalfFormat::kBF16, kV, kD, last.data(), logits.data());
  });
}

double median(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  return xs[xs.size() / 2];
}

}  // namespace

int main() {
  std::mt19937 rng(2026);
  std::vector<Layer> layers(kLayers);
  for (Layer& L : layers) {
    L.q = makeWeight(kHeads * kHd, kD, rng);
    L.k = makeWeight(kKv * kHd, kD, rng);
    L.v = makeWeight(kKv * kHd, kD, rng);
    L.o = makeWeight(kD, kHeads * kHd, rng);
    L.gate = makeWeight(kF, kD, rng);
    L.up = makeWeight(kF, kD, rng);
    L.down = makeWeight(kD, kF, rng);
    L.inputNorm.assign(kD, 1.0f);
    L.postNorm.assign(kD, 1.0f);
  }
  // The tied output table as a model lays it out (bf16 0.0078).
  std::vector<std::uint16_t> table(static_cast<std::size_t>(kV * kD), 0x3c00);
  layOutTokenTable(table.data(), HalfFormat::kBF16, kV, kD);
  std::vector<float> finalNorm(kD, 1.0f);
  std::vector<double> freq;
  (void)ropeInverseFrequencies(kHd, 100000.0, RopeScaling{}, freq);

  for (const bool half : {false, true}) {
    for (const Index T : {Index{64}, Index{1}}) {
      const int runs = T == 1 ? 15 : 5;
      std::map<std::string, std::vector<double>> parts;
      std::vector<double> totals;
      for (int r = 0; r <= runs; ++r) {
        Timer timer;
        const auto t0 = Clock::now();
        pass(layers, table, finalNorm, freq, half, T, T == 1 ? 64 : 0, timer);
        const double total = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        if (r == 0) continue;  // warm-up
        totals.push_back(total);
        for (const auto& [part, ms] : timer.ms) parts[part].push_back(ms);
      }
      std::printf("{\"case\":\"%s\",\"weights\":\"%s\",\"total_ms\":%.2f",
                  T == 1 ? "decode" : "prefill", half ? "bf16" : "f32", median(totals));
      for (const auto& [part, ms] : parts) std::printf(",\"%s\":%.2f", part.c_str(), median(ms));
      std::printf("}\n");
    }
  }
  // The packed gemm alone: the MLP's up projection of 64 tokens (2 x 64 x 576 x 1536 flops).
  Matrix32 x = Matrix32::Random(64, kD), y(64, kF);
  std::vector<double> ms;
  for (int r = 0; r < 20; ++r) {
    const auto t0 = Clock::now();
    linearPackedInto(x, layers[r % kLayers].up.f32.data(), kF, nullptr, y);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  const double flops = 2.0 * 64 * kD * kF;
  std::printf("{\"case\":\"gemm 64x576x1536\",\"ms\":%.3f,\"gflops\":%.1f}\n", median(ms),
              flops / (median(ms) * 1e6));
  return 0;
}

// Where scaled dot-product attention spends its time inside wasm (bench/sdpa-parts.mjs
// builds this file as the wasm target sdpa_parts and runs it in Node).
//
// It runs the phases of the core's single-head attention (cpp/ops/attention.cpp,
// singleHeadAttention) one after the other through the public kernels of
// cpp/ops (packB, gemmPacked, softmaxRow), with a clock around each phase:
//   pack      K^T and V packed into panels (once per call)
//   scores    Q K^T, one block of kRowBlock query rows at a time
//   softmax   the masked softmax of each row with its overflow check
//             (softmaxRowIfFinite: scale, max and finiteness probe in one
//             pass, then exp and sum, then normalise)
//   wv        weights V for the block
// and, for comparison, the whole scaledDotProductAttention call of the core.
// Shapes: Q, K, V (n x d); weights (n x n); output (n x d).
// Usage: node build/wasm/sdpa_parts.cjs [n] [d] [runs]; prints one JSON line per
// element type, ms per phase: the sum over row blocks of each block's fastest
// time over `runs` repetitions (on a loaded, shared machine the fastest of many
// short intervals is the one least disturbed), and the fastest whole call.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "ops/attention.h"

using attention::Trans;
using Index = Eigen::Index;
using Clock = std::chrono::steady_clock;

namespace {

#ifndef ATTENTION_ROW_BLOCK
#define ATTENTION_ROW_BLOCK 16
#endif
constexpr Index kRowBlock = ATTENTION_ROW_BLOCK;  // as in attention.cpp

double ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// Fastest time of each block so far, per phase.
struct Phase {
  std::vector<double> best;
  void add(std::size_t block, double t) {
    if (best.size() <= block) best.resize(block + 1, 1e300);
    best[block] = std::min(best[block], t);
  }
  double sum() const {
    double s = 0;
    for (double t : best) s += t;
    return s;
  }
};

template <typename T>
attention::MatrixOf<T> randomMatrix(Index rows, Index cols, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  attention::MatrixOf<T> m(rows, cols);
  for (Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<T>(normal(rng));
  return m;
}

template <typename T>
void run(const char* type, Index n, Index d, int runs) {
  std::mt19937_64 rng(7);
  const auto q = randomMatrix<T>(n, d, rng), k = randomMatrix<T>(n, d, rng),
             v = randomMatrix<T>(n, d, rng);
  attention::MatrixOf<T> w(n, n), out(n, d);
  std::vector<T> kt, vp;
  const T scale = static_cast<T>(1.0 / std::sqrt(static_cast<double>(d)));
  Phase pack, scores, softmax, wv, call;
  int bad = 0;
  for (int run = 0; run < runs; ++run) {
    const auto t0 = Clock::now();
    attention::packB(Trans::kYes, k.data(), d, d, n, kt);
    attention::packB(Trans::kNo, v.data(), d, n, d, vp);
    pack.add(0, ms(t0, Clock::now()));
    for (Index i0 = 0; i0 < n; i0 += kRowBlock) {
      const Index rows = std::min(kRowBlock, n - i0);
      const auto block = static_cast<std::size_t>(i0 / kRowBlock);
      T* wBlock = w.data() + i0 * n;
      const auto a = Clock::now();
      attention::gemmPacked(rows, n, d, q.data() + i0 * d, d, kt.data(), d, wBlock, n);
      const auto b = Clock::now();
      for (Index r = 0; r < rows; ++r) {
        bad += !attention::softmaxRowIfFinite(wBlock + r * n, n, n, n, scale,
                                              static_cast<const T*>(nullptr));
      }
      const auto e = Clock::now();
      attention::gemmPacked(rows, d, n, wBlock, n, vp.data(), n, out.data() + i0 * d, d);
      const auto f = Clock::now();
      scores.add(block, ms(a, b));
      softmax.add(block, ms(b, e));
      wv.add(block, ms(e, f));
    }
    const auto t2 = Clock::now();
    attention::scaledDotProductAttention(q, k, v, attention::AttentionMaskOf<T>{}, out, w);
    call.add(0, ms(t2, Clock::now()));
  }
  if (bad) std::printf("unexpected overflow\n");
  const double sum = pack.sum() + scores.sum() + softmax.sum() + wv.sum();
  std::printf(
      "{\"type\": \"%s\", \"n\": %ld, \"d\": %ld, \"runs\": %d, \"pack\": %.3f, "
      "\"scores\": %.3f, \"softmax\": %.3f, \"wv\": %.3f, \"sum\": %.3f, "
      "\"call\": %.3f}\n",
      type, static_cast<long>(n), static_cast<long>(d), runs, pack.sum(), scores.sum(),
      softmax.sum(), wv.sum(), sum, call.sum());
}

}  // namespace

int main(int argc, char** argv) {
  const Index n = argc > 1 ? std::atol(argv[1]) : 1024;
  const Index d = argc > 2 ? std::atol(argv[2]) : 64;
  const int runs = argc > 3 ? std::atoi(argv[3]) : 15;
  run<float>("float32", n, d, runs);
  run<double>("float64", n, d, runs);
  return 0;
}

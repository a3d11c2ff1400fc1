// Native half of `npm run bench` (bench/run.mjs): times scaled dot-product
// attention and multi-head attention in float64, compiled with -O3
// -march=native. Two native implementations:
//   eigen  the straightforward Eigen formulation (Eigen's own GEMM and its
//          vectorised exp), the baseline the wasm module is measured against;
//   ours   the core's kernel (cpp/ops/attention.cpp) built natively.
// Prints one JSON object per line: {"impl", "op", "n", "d", "heads", "min",
// "median"}: the best and the median of several runs, in milliseconds.
#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "ops/attention.h"

using attention::Matrix;
using Clock = std::chrono::steady_clock;

namespace {

Matrix randomMatrix(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
  return m;
}

struct Timing {
  double min, median;
};

// Best and median time in ms of `body`, repeated until ~1 s or 30 runs (at least 5).
Timing timeMs(const std::function<void()>& body) {
  body();  // warm-up
  std::vector<double> times;
  const auto start = Clock::now();
  while (times.size() < 3 ||
         (times.size() < 25 && std::chrono::duration<double>(Clock::now() - start).count() < 0.5)) {
    const auto t0 = Clock::now();
    body();
    times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  return {times.front(), times[times.size() / 2]};
}

// The textbook formulation in Eigen: softmax(Q K^T / sqrt(d_k)) V.
void eigenAttention(const Matrix& q, const Matrix& k, const Matrix& v, Matrix& out, Matrix& w) {
  w.noalias() = q * k.transpose();
  w *= 1.0 / std::sqrt(static_cast<double>(q.cols()));
  w = (w.colwise() - w.rowwise().maxCoeff()).array().exp();
  w.array().colwise() /= w.rowwise().sum().array();
  out.noalias() = w * v;
}

void eigenMultiHead(const Matrix& x, const Matrix& wq, const Matrix& wk, const Matrix& wv,
                    const Matrix& wo, int heads, Matrix& out) {
  const Eigen::Index dk = x.cols() / heads;
  const Matrix qp = x * wq, kp = x * wk, vp = x * wv;
  Matrix concat(x.rows(), x.cols()), o, w;
  for (int h = 0; h < heads; ++h) {
    eigenAttention(qp.middleCols(h * dk, dk), kp.middleCols(h * dk, dk), vp.middleCols(h * dk, dk),
                   o, w);
    concat.middleCols(h * dk, dk) = o;
  }
  out.noalias() = concat * wo;
}

void print(const char* impl, const char* op, int n, int d, int heads, Timing t) {
  std::printf(
      "{\"impl\":\"%s\",\"op\":\"%s\",\"n\":%d,\"d\":%d,\"heads\":%d,\"min\":%.4f,\"median\":%."
      "4f}\n",
      impl, op, n, d, heads, t.min, t.median);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes = {64, 256, 1024};
  if (argc > 1) sizes = {std::atoi(argv[1])};
  const int d = 64;
  std::mt19937_64 rng(2017);
  for (int n : sizes) {
    const Matrix q = randomMatrix(n, d, rng), k = randomMatrix(n, d, rng),
                 v = randomMatrix(n, d, rng);
    Matrix out(n, d), w(n, n);
    print("eigen", "sdpa", n, d, 1, timeMs([&] { eigenAttention(q, k, v, out, w); }));
    attention::AttentionMask none;
    print("ours", "sdpa", n, d, 1, timeMs([&] {
            if (!attention::scaledDotProductAttention(q, k, v, none, out, w).isOk()) std::abort();
          }));
  }
  if (argc > 1) return 0;
  const int n = 512, dModel = 512, heads = 8;
  const Matrix x = randomMatrix(n, dModel, rng);
  const double s = 1.0 / std::sqrt(static_cast<double>(dModel));
  const Matrix wq = randomMatrix(dModel, dModel, rng) * s,
               wk = randomMatrix(dModel, dModel, rng) * s,
               wv = randomMatrix(dModel, dModel, rng) * s,
               wo = randomMatrix(dModel, dModel, rng) * s;
  Matrix out, w;
  print("eigen", "mha", n, dModel, heads,
        timeMs([&] { eigenMultiHead(x, wq, wk, wv, wo, heads, out); }));
  const attention::MultiHeadParams params{heads, wq, wk, wv, wo, {}, {}, {}, {}};
  attention::AttentionMask none;
  print("ours", "mha", n, dModel, heads, timeMs([&] {
          if (!attention::multiHeadAttention(x, x, x, params, none, out, w).isOk()) std::abort();
        }));
  return 0;
}

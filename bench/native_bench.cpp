// Native half of `npm run bench` (bench/run.mjs): times scaled dot-product
// attention and multi-head attention in float64, compiled with -O3
// -march=native. Two native implementations:
//   eigen  the straightforward Eigen formulation (Eigen's own GEMM and its
//          vectorised exp), the baseline the wasm module is measured against;
//   ours   the core's kernel (cpp/ops/attention.cpp) built natively.
// Prints one JSON object per line: {"impl", "op", "n", "d", "heads", "min",
// "median"}: the best and the median of several runs, in milliseconds.
//
// File mode, for bench/peers.mjs: Eigen on the very inputs the wasm peers get,
// in float64 and in float32, so their outputs can be compared:
//   native_bench sdpa <n> <d> <runs> <in> <out>         in: Q, K, V (n x d each)
//   native_bench mha <n> <d_model> <heads> <runs> <in> <out>
//                                                        in: X, Wq, Wk, Wv, Wo
// <in> holds the matrices row-major as raw little-endian float64, one after the
// other; <out> receives the float64 output then the float32 output (as float64).
// Prints {"impl": "eigen-float64" | "eigen-float32", "op", "samples": [ms...]}
// per line: every timed run after one warm-up.
#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "ops/attention.h"

using attention::Matrix;
using MatrixF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
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

// The textbook formulation in Eigen: softmax(Q K^T / sqrt(d_k)) V, in the
// scalar type of M (double or float).
template <typename M, typename In>
void eigenAttention(const In& q, const In& k, const In& v, M& out, M& w) {
  using Scalar = typename M::Scalar;
  w.noalias() = q * k.transpose();
  w *= Scalar(1) / std::sqrt(static_cast<Scalar>(q.cols()));
  w = (w.colwise() - w.rowwise().maxCoeff()).array().exp();
  w.array().colwise() /= w.rowwise().sum().array();
  out.noalias() = w * v;
}

template <typename M>
void eigenMultiHead(const M& x, const M& wq, const M& wk, const M& wv, const M& wo, int heads,
                    M& out) {
  const Eigen::Index dk = x.cols() / heads;
  const M qp = x * wq, kp = x * wk, vp = x * wv;
  M concat(x.rows(), x.cols()), o, w;
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

// ---- file mode (bench/peers.mjs) ----------------------------------------------

std::vector<Matrix> readMatrices(const char* path, const std::vector<std::pair<int, int>>& shapes) {
  std::ifstream in(path, std::ios::binary);
  std::vector<Matrix> out;
  for (auto [rows, cols] : shapes) {
    Matrix m(rows, cols);
    in.read(reinterpret_cast<char*>(m.data()), static_cast<std::streamsize>(m.size() * 8));
    out.push_back(std::move(m));
  }
  if (!in) {
    std::fprintf(stderr, "native_bench: %s is shorter than the shapes given\n", path);
    std::exit(2);
  }
  return out;
}

std::vector<double> samplesMs(int runs, const std::function<void()>& body) {
  body();  // warm-up
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = Clock::now();
    body();
    times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return times;
}

void printSamples(const char* impl, const char* op, const std::vector<double>& times) {
  std::printf("{\"impl\":\"%s\",\"op\":\"%s\",\"samples\":[", impl, op);
  for (size_t i = 0; i < times.size(); ++i) std::printf(i ? ",%.4f" : "%.4f", times[i]);
  std::printf("]}\n");
  std::fflush(stdout);
}

// Times `run` on the inputs in float64 then in float32; writes both outputs to outPath.
template <typename Run64, typename Run32>
int fileMode(const char* op, int runs, const std::vector<Matrix>& in, const char* outPath,
             Run64 run64, Run32 run32) {
  std::vector<MatrixF> in32;
  for (const Matrix& m : in) in32.push_back(m.cast<float>());
  Matrix out64;
  MatrixF out32;
  printSamples("eigen-float64", op, samplesMs(runs, [&] { run64(in, out64); }));
  printSamples("eigen-float32", op, samplesMs(runs, [&] { run32(in32, out32); }));
  const Matrix widened = out32.cast<double>();
  std::ofstream out(outPath, std::ios::binary);
  out.write(reinterpret_cast<const char*>(out64.data()),
            static_cast<std::streamsize>(out64.size() * 8));
  out.write(reinterpret_cast<const char*>(widened.data()),
            static_cast<std::streamsize>(widened.size() * 8));
  return out ? 0 : 2;
}

int fileMain(int argc, char** argv) {
  const std::string op = argv[1];
  if (op == "sdpa" && argc == 7) {
    const int n = std::atoi(argv[2]), d = std::atoi(argv[3]), runs = std::atoi(argv[4]);
    const auto in = readMatrices(argv[5], {{n, d}, {n, d}, {n, d}});
    auto run = [](const auto& m, auto& out) {
      std::decay_t<decltype(out)> w;
      eigenAttention(m[0], m[1], m[2], out, w);
    };
    return fileMode("sdpa", runs, in, argv[6], run, run);
  }
  if (op == "mha" && argc == 8) {
    const int n = std::atoi(argv[2]), dm = std::atoi(argv[3]), heads = std::atoi(argv[4]),
              runs = std::atoi(argv[5]);
    const auto in = readMatrices(argv[6], {{n, dm}, {dm, dm}, {dm, dm}, {dm, dm}, {dm, dm}});
    auto run = [heads](const auto& m, auto& out) {
      eigenMultiHead(m[0], m[1], m[2], m[3], m[4], heads, out);
    };
    return fileMode("mha", runs, in, argv[7], run, run);
  }
  std::fprintf(
      stderr, "usage: native_bench [n] | sdpa n d runs in out | mha n d_model heads runs in out\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2) return fileMain(argc, argv);
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

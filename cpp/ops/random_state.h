// NumPy's legacy RandomState (np.random.seed / np.random.randn / ...), bit for
// bit: the same MT19937 stream, the same 53-bit doubles, the same polar
// Box-Muller normals (with the cached second value) and the same masked
// rejection sampling for integers. Interleaved calls leave the generator
// exactly where NumPy leaves it, so the articles' printed numbers come out.
// Only the standard library and exact_log.h are used.
//
// It is also the seq2seq trainer's generator (below(), uniform()): NumPy's
// init_genrand(s) and std::mt19937(s) give the same 32-bit stream, and the
// state text (state()/setState()) is std::mt19937's standard textual form, so
// checkpoints written with the former std::mt19937-based generator load as is.
//
// That includes randn's last bits on every platform: the polar method needs
// log(), and NumPy (on x86-64 Linux) gets it from glibc, whose result differs
// in the last bit from other libms' (Emscripten's musl: about 4 inputs in
// 100,000). nextGauss therefore calls exactLog (exact_log.h), a portable port of
// glibc's log() that is bit-identical to it, natively and in WebAssembly.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "status.h"
#include "tensor.h"

namespace attention {

class RandomState {
 public:
  // Like np.random.seed(seed): MT19937 init_genrand, no cached normal.
  explicit RandomState(std::uint32_t seed = 0) { reseed(seed); }
  void reseed(std::uint32_t seed);

  // Raw draws, in NumPy's order.
  std::uint32_t nextUint32();  // one MT19937 output
  std::uint64_t nextUint64();  // two outputs: high word first
  double nextDouble();         // [0, 1) with 53 random bits (random_sample)
  double nextGauss();          // standard normal, legacy polar method (randn)
  // randint(low, high) for one value: off + masked rejection sample of [0, range].
  std::int64_t nextInt(std::int64_t low, std::int64_t highInclusive);

  // Matrices filled in row-major (C) order, like NumPy's size=(rows, cols).
  // rows, cols >= 0; an empty size draws nothing.
  Status randn(int rows, int cols, Matrix& out);  // out: (rows x cols)
  Status rand(int rows, int cols, Matrix& out);   // out: (rows x cols)
  // Integers in [low, high) as doubles; low and high must be integers with
  // -2^53 <= low < high <= 2^53, so every result is exact in a double.
  // Ranges up to 2^32 consume one 32-bit draw per attempt, wider ones one
  // 64-bit draw, exactly like RandomState.randint with the default int64 dtype.
  Status randint(double low, double high, int rows, int cols, Matrix& out);

  // Uniform integer in [0, n), n >= 1, by masked rejection (no modulo bias):
  // nextInt(0, n - 1), one 32-bit draw per attempt; 0 without a draw if n <= 1.
  std::uint32_t below(std::uint32_t n);
  // Uniform double in [0, 1) with 53 random bits: nextDouble().
  double uniform() { return nextDouble(); }
  // Uniform double in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * nextDouble(); }

  // The full state as text: the 624 most recent MT19937 words, oldest first
  // (std::mt19937's standard operator<< form, as libc++ and thus Emscripten
  // write it), then " gauss <bits>" if a normal is cached (bits: the double's
  // IEEE-754 bits as an unsigned integer). setState() reads that form back and
  // continues the identical stream; it also accepts libstdc++'s form (the
  // current 624-word block, then the position in it). False (state unchanged)
  // if the text is not a state.
  std::string state() const;
  bool setState(const std::string& text);

 private:
  // The last kN = 624 words of the MT19937 sequence in a ring; pos_ is the
  // oldest, which the next draw replaces (the "lazy" form of the twist: one
  // word per draw, the same stream as NumPy's block-wise twist).
  std::array<std::uint32_t, 624> key_{};
  int pos_ = 0;
  bool hasGauss_ = false;
  double gauss_ = 0.0;
};

// Seeds are integers in [0, 2^32 - 1], as np.random.seed requires.
Status validateSeed(double seed);

// Largest rows * cols a single draw may produce (512 MiB of doubles).
constexpr std::int64_t kMaxRandomEntries = std::int64_t{1} << 26;

}  // namespace attention

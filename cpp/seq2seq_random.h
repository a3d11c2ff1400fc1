// The seq2seq trainer's own seeded generator. std::mt19937's 32-bit output
// stream is fixed by the C++ standard, but the standard distributions are not
// (libstdc++, libc++ and Emscripten may differ), so every distribution here is
// written out by hand: the same seed gives the same numbers on every platform.
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace attention {

class Seq2SeqRandom {
 public:
  explicit Seq2SeqRandom(std::uint32_t seed = 0) : engine_(seed) {}

  std::uint32_t next32() { return static_cast<std::uint32_t>(engine_()); }

  // Uniform integer in [0, n), n >= 1, by rejection (no modulo bias).
  std::uint32_t below(std::uint32_t n);

  // Uniform double in [0, 1) with 53 random bits.
  double uniform();

  // Uniform double in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

  // The engine's full state as text (std::mt19937's operator<< format, which
  // the standard fixes) and back; used by checkpoints.
  std::string state() const;
  bool setState(const std::string& text);

 private:
  std::mt19937 engine_;
};

}  // namespace attention

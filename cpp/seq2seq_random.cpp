#include "seq2seq_random.h"

#include <sstream>

namespace attention {

std::uint32_t Seq2SeqRandom::below(std::uint32_t n) {
  if (n <= 1) return 0;
  // Smallest all-ones mask covering n - 1; redraw until the masked value fits.
  std::uint32_t mask = n - 1;
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  mask |= mask >> 16;
  for (;;) {
    const std::uint32_t x = next32() & mask;
    if (x < n) return x;
  }
}

double Seq2SeqRandom::uniform() {
  const std::uint32_t a = next32() >> 5;  // 27 bits
  const std::uint32_t b = next32() >> 6;  // 26 bits
  return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

std::string Seq2SeqRandom::state() const {
  std::ostringstream out;
  out << engine_;
  return out.str();
}

bool Seq2SeqRandom::setState(const std::string& text) {
  std::istringstream in(text);
  std::mt19937 engine;
  in >> engine;
  if (in.fail()) return false;
  engine_ = engine;
  return true;
}

}  // namespace attention

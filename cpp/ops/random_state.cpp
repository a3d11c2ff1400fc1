#include "random_state.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "exact_log.h"

namespace attention {

namespace {

constexpr int kN = 624;
constexpr int kM = 397;
constexpr std::uint32_t kMatrixA = 0x9908b0dfU;
constexpr std::uint32_t kUpperMask = 0x80000000U;
constexpr std::uint32_t kLowerMask = 0x7fffffffU;
constexpr double kTwoTo53 = 9007199254740992.0;

// Smallest 2^k - 1 that is >= range (NumPy's gen_mask).
std::uint64_t maskFor(std::uint64_t range) {
  std::uint64_t mask = range;
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  mask |= mask >> 16;
  mask |= mask >> 32;
  return mask;
}

// x as a message shows it: "0.5", "1e+20", "NaN", "Infinity".
std::string number(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  char text[32];  // what an ostream with precision(17) writes, without <sstream>
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

Status checkSize(int rows, int cols) {
  if (rows < 0 || cols < 0) {
    return Status::shapeMismatch("size " + std::to_string(rows) + "x" + std::to_string(cols) +
                                 " is negative; rows and cols must be >= 0");
  }
  if (static_cast<std::int64_t>(rows) * cols > kMaxRandomEntries) {
    return Status::shapeMismatch("size " + std::to_string(rows) + "x" + std::to_string(cols) +
                                 " has more than " + std::to_string(kMaxRandomEntries) +
                                 " entries");
  }
  return Status::ok();
}

Status checkBound(const char* name, double x) {
  if (!std::isfinite(x) || std::floor(x) != x) {
    return Status::invalidValue(std::string(name) + " is " + number(x) + "; it must be an integer");
  }
  if (std::abs(x) > kTwoTo53) {
    return Status::invalidValue(std::string(name) + " is " + number(x) +
                                "; it must lie in [-2^53, 2^53] so results are exact doubles");
  }
  return Status::ok();
}

// One accepted point of the polar method: (x1, x2) uniform in the unit disc, not 0.
void polarPoint(RandomState& rs, double& x1, double& x2, double& r2) {
  do {
    x1 = 2.0 * rs.nextDouble() - 1.0;
    x2 = 2.0 * rs.nextDouble() - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
}

// The polar method's factor: the pair's normals are f x2, then f x1. exactLog is
// glibc's log() (which NumPy calls) on every platform; musl's log() in
// WebAssembly would change the last bit of a few normals in 100,000.
double polarFactor(double r2, double logR2) { return std::sqrt(-2.0 * logR2 / r2); }
double polarFactor(double r2) { return polarFactor(r2, exactLog(r2)); }

}  // namespace

Status validateSeed(double seed) {
  if (!std::isfinite(seed) || std::floor(seed) != seed || seed < 0 || seed > 4294967295.0) {
    return Status::invalidValue("seed is " + number(seed) +
                                "; it must be an integer in [0, 4294967295] (like np.random.seed)");
  }
  return Status::ok();
}

void RandomState::reseed(std::uint32_t seed) {
  // init_genrand, which is what NumPy's mt19937_seed does for an integer seed.
  key_[0] = seed;
  for (int i = 1; i < kN; ++i) {
    const std::uint32_t prev = key_[i - 1];
    key_[i] = 1812433253U * (prev ^ (prev >> 30)) + static_cast<std::uint32_t>(i);
  }
  pos_ = 0;
  hasGauss_ = false;
  gauss_ = 0.0;
}

std::uint32_t RandomState::nextUint32() {
  // x[i + n] = x[i + m] ^ twist(upper bit of x[i], lower 31 bits of x[i + 1]);
  // key_[pos_] holds x[i] and becomes x[i + n].
  const int i = pos_;
  const int next = i + 1 == kN ? 0 : i + 1;
  const int far = i + kM >= kN ? i + kM - kN : i + kM;
  const std::uint32_t y = (key_[i] & kUpperMask) | (key_[next] & kLowerMask);
  key_[i] = key_[far] ^ (y >> 1) ^ ((y & 1U) ? kMatrixA : 0U);
  std::uint32_t z = key_[i];
  pos_ = next;
  z ^= z >> 11;
  z ^= (z << 7) & 0x9d2c5680U;
  z ^= (z << 15) & 0xefc60000U;
  z ^= z >> 18;
  return z;
}

std::uint64_t RandomState::nextUint64() {
  const std::uint64_t high = nextUint32();
  const std::uint64_t low = nextUint32();
  return (high << 32) | low;
}

double RandomState::nextDouble() {
  const std::uint32_t a = nextUint32() >> 5;  // 27 bits
  const std::uint32_t b = nextUint32() >> 6;  // 26 bits
  return (a * 67108864.0 + b) / kTwoTo53;
}

double RandomState::nextGauss() {
  if (hasGauss_) {
    hasGauss_ = false;
    const double cached = gauss_;
    gauss_ = 0.0;
    return cached;
  }
  double x1, x2, r2;
  polarPoint(*this, x1, x2, r2);
  const double f = polarFactor(r2);
  gauss_ = f * x1;  // kept for the next call
  hasGauss_ = true;
  return f * x2;
}

std::int64_t RandomState::nextInt(std::int64_t low, std::int64_t highInclusive) {
  const std::uint64_t range =
      static_cast<std::uint64_t>(highInclusive) - static_cast<std::uint64_t>(low);
  const std::uint64_t off = static_cast<std::uint64_t>(low);
  std::uint64_t value = 0;
  if (range == 0) {
    value = 0;  // NumPy draws nothing
  } else if (range <= 0xFFFFFFFFULL) {
    if (range == 0xFFFFFFFFULL) {
      value = nextUint32();
    } else {
      const std::uint32_t mask = static_cast<std::uint32_t>(maskFor(range));
      std::uint32_t v;
      while ((v = nextUint32() & mask) > range) {
      }
      value = v;
    }
  } else if (range == 0xFFFFFFFFFFFFFFFFULL) {
    value = nextUint64();
  } else {
    const std::uint64_t mask = maskFor(range);
    while ((value = nextUint64() & mask) > range) {
    }
  }
  return static_cast<std::int64_t>(off + value);  // wraps like NumPy's uint64 arithmetic
}

std::uint32_t RandomState::below(std::uint32_t n) {
  if (n <= 1) return 0;
  return static_cast<std::uint32_t>(nextInt(0, static_cast<std::int64_t>(n) - 1));
}

// The state text is read and written by hand rather than with <sstream>:
// libc++'s streams and locales were a sixth of the wasm core's bytes.
namespace {

void appendDecimal(std::string& text, std::uint64_t x) {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + x % 10);
    x /= 10;
  } while (x);
  while (n) text += digits[--n];
}

// A cursor over the text that reads what `istream >> word` and
// `istream >> unsigned long long` read: leading white space is skipped, a
// number is an optional sign and decimal digits and ends at the first other
// character (a minus negates modulo 2^64, as strtoull does), a word ends at
// white space.
class StateReader {
 public:
  explicit StateReader(const std::string& text) : at_(text.c_str()), end_(at_ + text.size()) {}

  bool number(std::uint64_t& out) {
    skipSpace();
    const char* p = at_;
    const bool negative = p < end_ && *p == '-';
    if (p < end_ && (*p == '+' || *p == '-')) ++p;
    if (p == end_ || !isDigit(*p)) return false;
    std::uint64_t value = 0;
    for (; p < end_ && isDigit(*p); ++p) {
      const unsigned digit = static_cast<unsigned>(*p - '0');
      if (value > (UINT64_MAX - digit) / 10) return false;  // overflow fails the read
      value = value * 10 + digit;
    }
    at_ = p;
    out = negative ? 0 - value : value;
    return true;
  }

  bool word(std::string& out) {
    skipSpace();
    const char* start = at_;
    while (at_ < end_ && !isSpace(*at_)) ++at_;
    out.assign(start, at_);
    return at_ != start;
  }

 private:
  static bool isDigit(char c) { return c >= '0' && c <= '9'; }
  static bool isSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
  void skipSpace() {
    while (at_ < end_ && isSpace(*at_)) ++at_;
  }

  const char* at_;
  const char* end_;
};

// The whole of `text` as one number (a libstdc++ block position).
bool wholeNumber(const std::string& text, std::uint64_t& out) {
  StateReader reader(text);
  std::string rest;
  return reader.number(out) && !reader.word(rest);
}

}  // namespace

std::string RandomState::state() const {
  std::string text;
  text.reserve(kN * 11 + 32);
  for (int j = 0; j < kN; ++j) {
    if (j) text += ' ';
    appendDecimal(text, key_[(pos_ + j) % kN]);
  }
  if (hasGauss_) {
    std::uint64_t bits;
    std::memcpy(&bits, &gauss_, sizeof bits);
    text += " gauss ";
    appendDecimal(text, bits);
  }
  return text;
}

namespace {

// libstdc++ writes its block-wise state: the current block b[0..n) and the
// position p in it. The standard form is the last n words, x[p - n .. p), of
// which b[0..p) are known and the previous block's tail x[p - n .. 0) must be
// recovered by running the twist backwards: b[i] = x[i + m - n] ^ twist(y_i)
// gives y_i = (upper bit of x[i - n]) | (lower 31 bits of x[i + 1 - n]).
bool fromBlock(const std::array<std::uint32_t, kN>& block, std::uint32_t p,
               std::array<std::uint32_t, kN>& last) {
  if (p < 1 || p > kN) return false;
  // prev[i] = x[i - n] for i in [p - 1, n); prev[n] = b[0].
  std::array<std::uint32_t, kN + 1> prev{};
  prev[kN] = block[0];
  std::uint32_t upper[kN + 1] = {}, lower[kN + 1] = {};
  for (int i = kN - 1; i >= static_cast<int>(p) - 1; --i) {
    const std::uint32_t far = i + kM >= kN ? block[i + kM - kN] : prev[i + kM];
    std::uint32_t t = block[i] ^ far;  // (y >> 1) ^ (y odd ? A : 0)
    const bool odd = (t & kUpperMask) != 0;
    if (odd) t ^= kMatrixA;
    const std::uint32_t y = (t << 1) | (odd ? 1U : 0U);
    upper[i] = y & kUpperMask;      // of x[i - n]
    lower[i + 1] = y & kLowerMask;  // of x[i + 1 - n]
    if (i + 1 < kN) prev[i + 1] = upper[i + 1] | lower[i + 1];
  }
  for (std::uint32_t j = 0; j < kN; ++j) {
    const std::uint32_t i = p + j;  // x[p - n + j]
    last[j] = i < kN ? prev[i] : block[i - kN];
  }
  return true;
}

}  // namespace

bool RandomState::setState(const std::string& text) {
  StateReader in(text);
  std::array<std::uint32_t, kN> words{};
  for (auto& w : words) {
    std::uint64_t x = 0;
    if (!in.number(x) || x > 0xFFFFFFFFULL) return false;
    w = static_cast<std::uint32_t>(x);
  }
  std::string tag;
  bool hasGauss = false;
  double gauss = 0.0;
  std::uint64_t extra = 0;
  if (in.word(tag)) {
    if (tag == "gauss") {
      if (!in.number(extra)) return false;
      std::memcpy(&gauss, &extra, sizeof gauss);
      hasGauss = true;
    } else {  // libstdc++: the position in the block
      if (!wholeNumber(tag, extra) || extra > static_cast<unsigned>(kN)) return false;
      std::array<std::uint32_t, kN> last{};
      if (!fromBlock(words, static_cast<std::uint32_t>(extra), last)) return false;
      words = last;
    }
    if (in.word(tag)) return false;  // trailing text
  }
  key_ = words;
  pos_ = 0;
  hasGauss_ = hasGauss;
  gauss_ = gauss;
  return true;
}

Status RandomState::randn(int rows, int cols, Matrix& out) {
  RETURN_IF_ERROR(checkSize(rows, cols));
  out.resize(rows, cols);
  // nextGauss() per entry, reordered: a block of points is drawn first (the
  // generator's sequence is the same: the logarithms draw nothing), then their
  // factors, whose iterations are independent, so the CPU overlaps them (in
  // WebAssembly each exactLog is a long dependent chain of emulated fmas).
  double* y = out.data();
  const Eigen::Index n = out.size();
  Eigen::Index i = 0;
  if (n > 0 && hasGauss_) y[i++] = nextGauss();  // the one kept by the last call
  constexpr int kBlock = 64;
  double x1[kBlock], x2[kBlock], r2[kBlock], logR2[kBlock];
  while (i < n) {
    const int points = static_cast<int>(std::min<Eigen::Index>(kBlock, (n - i + 1) / 2));
    for (int p = 0; p < points; ++p) polarPoint(*this, x1[p], x2[p], r2[p]);
    exactLogs(r2, logR2, points);  // two at a time in SIMD lanes
    for (int p = 0; p < points; ++p) {
      const double f = polarFactor(r2[p], logR2[p]);
      y[i++] = f * x2[p];
      if (i < n) {
        y[i++] = f * x1[p];
      } else {
        gauss_ = f * x1[p];  // an odd count: kept for the next call, as nextGauss does
        hasGauss_ = true;
      }
    }
  }
  return Status::ok();
}

Status RandomState::rand(int rows, int cols, Matrix& out) {
  RETURN_IF_ERROR(checkSize(rows, cols));
  out.resize(rows, cols);
  for (Eigen::Index i = 0; i < out.size(); ++i) out.data()[i] = nextDouble();
  return Status::ok();
}

Status RandomState::randint(double low, double high, int rows, int cols, Matrix& out) {
  RETURN_IF_ERROR(checkBound("low", low));
  RETURN_IF_ERROR(checkBound("high", high));
  if (!(low < high)) {
    return Status::invalidValue("low is " + number(low) + " and high is " + number(high) +
                                "; high must be greater than low (the range [low, high) is empty)");
  }
  RETURN_IF_ERROR(checkSize(rows, cols));
  const auto lo = static_cast<std::int64_t>(low);
  const auto hiInclusive = static_cast<std::int64_t>(high) - 1;
  out.resize(rows, cols);
  for (Eigen::Index i = 0; i < out.size(); ++i) {
    out.data()[i] = static_cast<double>(nextInt(lo, hiInclusive));
  }
  return Status::ok();
}

}  // namespace attention

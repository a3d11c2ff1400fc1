// NumPy's legacy RandomState, bit for bit: every stream in
// tests/fixtures/random.txt (made by NumPy) must be reproduced EXACTLY.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>

#include "fixtures.h"
#include "ops/random_state.h"

using namespace attention;

namespace {

const fixtures::File& streams() {
  static const fixtures::File file("random.txt");
  return file;
}

// Number of entries that differ in any bit (NaN never equals anything).
long countDifferent(const Matrix& got, const Matrix& want) {
  if (got.rows() != want.rows() || got.cols() != want.cols()) return -1;
  long different = 0;
  for (Eigen::Index i = 0; i < got.size(); ++i) different += got.data()[i] != want.data()[i];
  return different;
}

// Replays case `i` of the fixture; returns the number of mismatching values.
void replay(int i) {
  const std::string p = "case" + std::to_string(i) + ".";
  RandomState rs(static_cast<std::uint32_t>(streams().scalar(p + "seed")));
  const int ops = static_cast<int>(streams().scalar(p + "ops"));
  for (int j = 0; j < ops; ++j) {
    const Vector op = streams().vector(p + "op" + std::to_string(j));
    const int kind = static_cast<int>(op[0]), rows = static_cast<int>(op[1]),
              cols = static_cast<int>(op[2]);
    Matrix got;
    Status s;
    if (kind == 0) s = rs.rand(rows, cols, got);
    if (kind == 1) s = rs.randn(rows, cols, got);
    if (kind == 2) s = rs.randint(op[3], op[4], rows, cols, got);
    REQUIRE(s.isOk());
    const Matrix& want = streams().matrix(p + "out" + std::to_string(j));
    const long different = countDifferent(got, want);
    INFO(p << "op" << j << " kind " << kind << " size " << rows << "x" << cols << " ["
           << static_cast<long long>(op[3]) << ", " << static_cast<long long>(op[4])
           << "): " << different << " values differ from NumPy (tolerance 0)");
    CHECK(different == 0);
  }
}

}  // namespace

TEST_CASE("seeding is init_genrand: seed 0 starts 0.5488135039273248, 0.7151893663724195",
          "[random]") {
  RandomState rs(0);
  CHECK(rs.nextDouble() == 0.5488135039273248);  // np.random.RandomState(0).rand(2)
  CHECK(rs.nextDouble() == 0.7151893663724195);
  // The first raw MT19937 word for seed 5489 is the reference implementation's 3499211612.
  RandomState reference(5489);
  CHECK(reference.nextUint32() == 3499211612U);
}

TEST_CASE("every fixture stream is reproduced exactly", "[random][fixtures]") {
  const int cases = static_cast<int>(streams().scalar("cases"));
  REQUIRE(cases > 50);
  for (int i = 0; i < cases; ++i) {
    SECTION("case " + std::to_string(i)) { replay(i); }
  }
}

TEST_CASE("the cached normal survives rand and randint, and reseeding drops it", "[random]") {
  RandomState a(42), b(42);
  Matrix first, skipped, rest;
  REQUIRE(a.randn(1, 3, first).isOk());  // odd: one normal is cached
  REQUIRE(a.rand(2, 2, skipped).isOk());
  REQUIRE(a.randn(1, 1, rest).isOk());
  Matrix four;
  REQUIRE(b.randn(1, 4, four).isOk());
  // a's fourth normal is the cached one, although rand() ran in between: it is
  // b's fourth normal because both came from the same Box-Muller pair.
  CHECK(rest(0, 0) == four(0, 3));
  a.reseed(42);
  Matrix again;
  REQUIRE(a.randn(1, 4, again).isOk());
  CHECK(countDifferent(again, four) == 0);
}

TEST_CASE("randint(0, 1) and empty sizes draw nothing", "[random]") {
  RandomState a(9), b(9);
  Matrix zeros, empty, x, y;
  REQUIRE(a.randint(0, 1, 4, 4, zeros).isOk());
  CHECK(zeros.isZero(0));
  REQUIRE(a.randn(0, 5, empty).isOk());
  CHECK(empty.size() == 0);
  REQUIRE(a.rand(3, 3, x).isOk());
  REQUIRE(b.rand(3, 3, y).isOk());
  CHECK(countDifferent(x, y) == 0);
}

TEST_CASE("validation names the argument", "[random][validation]") {
  Status s = validateSeed(-1);
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message == "seed is -1; it must be an integer in [0, 4294967295] (like np.random.seed)");
  CHECK(validateSeed(4294967296.0).code == StatusCode::kInvalidValue);
  CHECK(validateSeed(1.5).code == StatusCode::kInvalidValue);
  CHECK(validateSeed(std::nan("")).code == StatusCode::kInvalidValue);
  CHECK(validateSeed(0).isOk());
  CHECK(validateSeed(4294967295.0).isOk());

  RandomState rs(1);
  Matrix out;
  s = rs.randn(-1, 3, out);
  CHECK(s.code == StatusCode::kShapeMismatch);
  CHECK(s.message == "size -1x3 is negative; rows and cols must be >= 0");
  CHECK(rs.rand(1 << 14, 1 << 13, out).code == StatusCode::kShapeMismatch);
  s = rs.randint(3, 3, 1, 1, out);
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message ==
        "low is 3 and high is 3; high must be greater than low (the range [low, high) is empty)");
  s = rs.randint(0.5, 3, 1, 1, out);
  CHECK(s.message == "low is 0.5; it must be an integer");
  s = rs.randint(0, 1e17, 1, 1, out);
  CHECK(s.message == "high is 1e+17; it must lie in [-2^53, 2^53] so results are exact doubles");
  // Failed calls draw nothing: the stream continues where it was.
  RandomState fresh(1);
  Matrix a, b;
  REQUIRE(rs.rand(1, 2, a).isOk());
  REQUIRE(fresh.rand(1, 2, b).isOk());
  CHECK(countDifferent(a, b) == 0);
}

namespace {

// FNV-1a (32-bit) over the little-endian 32-bit words of the doubles, low word
// first: the checksum make_random.py stores for each long stream.
std::uint32_t fnv1a(const Matrix& m) {
  std::uint32_t h = 2166136261U;
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    std::uint64_t bits;
    std::memcpy(&bits, m.data() + i, sizeof bits);
    for (const std::uint32_t word :
         {static_cast<std::uint32_t>(bits), static_cast<std::uint32_t>(bits >> 32)}) {
      h = (h ^ word) * 16777619U;
    }
  }
  return h;
}

}  // namespace

TEST_CASE("a long stream is exact, even where musl's log() would differ from glibc's",
          "[random][long]") {
  RandomState rs(0);
  Matrix normals;
  REQUIRE(rs.randn(1, 10281, normals).isOk());
  const int start = static_cast<int>(streams().scalar("long.window_start"));
  const Matrix& window = streams().matrix("long.randn_window");
  // Normals 10276 and 10277 need glibc's last bit of log(): exactLog gives it.
  CHECK(countDifferent(normals.rightCols(window.cols()), window) == 0);
  Matrix uniforms, more, ints;
  REQUIRE(rs.rand(1, 3, uniforms).isOk());
  REQUIRE(rs.randn(1, 3, more).isOk());
  REQUIRE(rs.randint(-5, 5, 1, 4, ints).isOk());
  CHECK(countDifferent(uniforms, streams().matrix("long.rand_after")) == 0);
  CHECK(countDifferent(more, streams().matrix("long.randn_after")) == 0);
  CHECK(countDifferent(ints, streams().matrix("long.randint_after")) == 0);
}

TEST_CASE("200,001-normal streams of three seeds are bit-identical to NumPy", "[random][long]") {
  const int count = static_cast<int>(streams().scalar("streams"));
  REQUIRE(count == 3);
  for (int k = 0; k < count; ++k) {
    const std::string p = "stream" + std::to_string(k) + ".";
    RandomState rs(static_cast<std::uint32_t>(streams().scalar(p + "seed")));
    Matrix normals;
    REQUIRE(rs.randn(1, static_cast<int>(streams().scalar(p + "count")), normals).isOk());
    const Vector indices = streams().vector(p + "indices");
    const Vector values = streams().vector(p + "values");
    long different = 0;
    for (Eigen::Index i = 0; i < indices.size(); ++i) {
      different += normals(0, static_cast<Eigen::Index>(indices[i])) != values[i];
    }
    INFO(p << " " << different << " of " << indices.size()
           << " stored normals differ (tolerance 0)");
    CHECK(different == 0);
    CHECK(fnv1a(normals) == static_cast<std::uint32_t>(streams().scalar(p + "hash")));
    Matrix more, uniforms;
    REQUIRE(rs.randn(1, 3, more).isOk());
    REQUIRE(rs.rand(1, 2, uniforms).isOk());
    const Vector after = streams().vector(p + "after");
    for (int i = 0; i < 3; ++i) CHECK(more(0, i) == after[i]);
    for (int i = 0; i < 2; ++i) CHECK(uniforms(0, i) == after[3 + i]);
  }
}

// ---- serialisable state and the seq2seq draws ---------------------------------------------

namespace {

// The seq2seq trainer's former generator, written out as it was
// (std::mt19937 with hand-written below/uniform): the naive twin that shows
// RandomState's below()/uniform() keep its trajectories identical.
struct FormerSeq2SeqRandom {
  std::mt19937 engine;
  explicit FormerSeq2SeqRandom(std::uint32_t seed) : engine(seed) {}
  std::uint32_t next32() { return static_cast<std::uint32_t>(engine()); }
  std::uint32_t below(std::uint32_t n) {
    if (n <= 1) return 0;
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
  double uniform() {
    const std::uint32_t a = next32() >> 5;
    const std::uint32_t b = next32() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
  }
};

std::string textOf(const std::mt19937& engine) {
  std::ostringstream out;
  out << engine;
  return out.str();
}

}  // namespace

TEST_CASE("below() and uniform() reproduce the former std::mt19937 generator exactly",
          "[random][seq2seq]") {
  for (std::uint32_t seed : {0u, 7u, 20261121u, 0x9E3779B9u}) {
    RandomState now(seed);
    FormerSeq2SeqRandom before(seed);
    for (int i = 0; i < 20000; ++i) {
      const std::uint32_t n = 1 + static_cast<std::uint32_t>(i % 37) * 1000003u % 5000u;
      REQUIRE(now.below(n) == before.below(n));
      REQUIRE(now.uniform() == before.uniform());
      REQUIRE(now.uniform(-0.08, 0.08) == -0.08 + 0.16 * before.uniform());
    }
    CHECK(now.below(0) == 0u);
    CHECK(now.below(1) == 0u);
    CHECK(now.nextUint32() == before.next32());  // neither drew for n <= 1
  }
}

TEST_CASE("state() / setState() round trip continues the identical stream", "[random][state]") {
  for (int draws : {0, 1, 226, 227, 396, 397, 623, 624, 625, 5000}) {
    RandomState a(42);
    for (int i = 0; i < draws; ++i) a.nextUint32();
    if (draws % 2) a.nextGauss();  // leaves a cached normal behind
    const std::string saved = a.state();
    RandomState b(7);
    REQUIRE(b.setState(saved));
    CHECK(b.state() == saved);
    for (int i = 0; i < 3000; ++i) {
      INFO("after " << draws << " draws, value " << i);
      REQUIRE(a.nextGauss() == b.nextGauss());
      REQUIRE(a.nextUint32() == b.nextUint32());
    }
  }
}

TEST_CASE("the state text is std::mt19937's standard form, libstdc++'s block form also loads",
          "[random][state]") {
  for (int draws : {0, 1, 2, 226, 227, 228, 396, 397, 398, 623, 624, 625, 1000, 1247, 1248}) {
    std::mt19937 engine(5489u);
    RandomState rs(5489u);
    for (int i = 0; i < draws; ++i) REQUIRE(rs.nextUint32() == engine());
    // Whatever the standard library writes (libstdc++: block + position;
    // libc++, hence Emscripten and every shipped checkpoint: the last 624
    // words), it loads and continues the same stream.
    RandomState loaded(1);
    INFO("after " << draws << " draws");
    REQUIRE(loaded.setState(textOf(engine)));
    CHECK(loaded.state() == rs.state());
    for (int i = 0; i < 2000; ++i) REQUIRE(loaded.nextUint32() == engine());
  }
  // The standard form after seeding is init_genrand's 624 words.
  std::istringstream words(RandomState(5489u).state());
  std::uint64_t first = 0, count = 0, w = 0;
  words >> first;
  for (count = 1; words >> w; ++count) {
  }
  CHECK(first == 5489u);
  CHECK(count == 624u);
}

TEST_CASE("setState rejects what is not a state and leaves the generator unchanged",
          "[random][state]") {
  RandomState rs(3);
  const std::string before = rs.state();
  CHECK_FALSE(rs.setState(""));
  CHECK_FALSE(rs.setState("not a state"));
  CHECK_FALSE(rs.setState("1 2 3"));
  CHECK_FALSE(rs.setState(before + " gauss"));
  CHECK_FALSE(rs.setState(before + " 625"));
  CHECK_FALSE(rs.setState(before + " 0"));
  CHECK_FALSE(rs.setState(before + " gauss 1 extra"));
  CHECK(rs.state() == before);
}

// setState reads the text by hand (no <sstream> in the core); it must accept
// and refuse what `istream >> unsigned long long` / `>> std::string` did.
TEST_CASE("setState reads the state text as an istream would", "[random][state]") {
  RandomState a(11);
  for (int i = 0; i < 700; ++i) a.nextUint32();
  a.nextGauss();
  const std::string saved = a.state();

  // The same words, separated and surrounded by any white space, load alike.
  std::string spaced = "\n\t " + saved + " \r\n";
  for (char& c : spaced) {
    if (&c - spaced.data() > 3 && c == ' ') c = (&c - spaced.data()) % 2 ? '\t' : '\n';
  }
  RandomState b(1);
  REQUIRE(b.setState(spaced));
  CHECK(b.state() == saved);

  // Each word read back with std::istringstream gives the same numbers.
  std::istringstream in(saved);
  std::uint64_t first = 0;
  in >> first;
  CHECK(saved.substr(0, saved.find(' ')) == std::to_string(first));

  RandomState c(2);
  const std::string rest = saved.substr(saved.find(' '));
  CHECK(c.setState("+" + saved));  // a leading plus sign is a number, as strtoull reads it
  CHECK(c.state() == saved);
  const std::string cBefore = c.state();
  CHECK_FALSE(c.setState("4294967296" + rest));            // word above 2^32 - 1
  CHECK_FALSE(c.setState("18446744073709551616" + rest));  // above 2^64 - 1: the read fails
  CHECK_FALSE(c.setState("-1" + rest));                    // wraps to 2^64 - 1
  CHECK_FALSE(c.setState("12x" + rest));                   // the next read meets "x"
  CHECK_FALSE(c.setState(saved + " x"));                   // trailing word
  CHECK(c.state() == cBefore);

  // The cached normal's bits are a full 64-bit word, written and read exactly.
  RandomState d(5);
  d.nextGauss();
  RandomState e(6);
  REQUIRE(e.setState(d.state()));
  CHECK(e.nextGauss() == d.nextGauss());
}

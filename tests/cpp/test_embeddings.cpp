// GloVe chapter: the streaming GloVe parser (every tricky case of real
// releases), lookup, tokenizer, binary form, and the attention kernels against
// NumPy references (tests/fixtures/embeddings.txt).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "fixtures.h"
#include "models/embeddings.h"
#include "ops/attention.h"
#include "ops/linear.h"

using namespace attention;

namespace {

const fixtures::File& ref() {
  static const fixtures::File file("embeddings.txt");
  return file;
}

// Parses `text` fed in chunks of `chunk` bytes; returns the status of the first failure.
Status parse(const std::string& text, GloveParser& parser, std::size_t chunk = 1 << 20) {
  for (std::size_t i = 0; i < text.size(); i += chunk) {
    RETURN_IF_ERROR(parser.feed(text.data() + i, std::min(chunk, text.size() - i)));
  }
  return parser.finish();
}

EmbeddingTable parseOk(const std::string& text, std::size_t chunk = 1 << 20) {
  GloveParser parser;
  const Status s = parse(text, parser, chunk);
  INFO(s.message);
  REQUIRE(s.isOk());
  return parser.takeTable();
}

std::string parseError(const std::string& text, std::size_t chunk = 1 << 20) {
  GloveParser parser;
  const Status s = parse(text, parser, chunk);
  REQUIRE_FALSE(s.isOk());
  return s.message;
}

std::vector<float> rowOf(const EmbeddingTable& t, const std::string& word) {
  const int row = t.find(word);
  REQUIRE(row >= 0);
  return std::vector<float>(t.rowData(row), t.rowData(row) + t.dim());
}

using Floats = std::vector<float>;

}  // namespace

// ---- tokenize / lowerCase ----------------------------------------------------------

TEST_CASE("tokenize: the notebook's sentences give 8 and 9 tokens", "[embeddings][tokenize]") {
  CHECK(tokenize("The teacher praised a student because she improved") ==
        std::vector<std::string>{"The", "teacher", "praised", "a", "student", "because", "she",
                                 "improved"});
  CHECK(tokenize("A student asked the teacher to help her improving").size() == 9);
}

TEST_CASE("tokenize: splits like Python's str.split() on every Unicode space",
          "[embeddings][tokenize]") {
  CHECK(tokenize("").empty());
  CHECK(tokenize(" \t\n ").empty());
  CHECK(tokenize("  a  b\t\tc\r\nd  ") == std::vector<std::string>{"a", "b", "c", "d"});
  // U+00A0, U+3000, U+2028, U+0085, \x1c and \v are spaces for Python.
  CHECK(tokenize("a\xC2\xA0"
                 "b\xE3\x80\x80"
                 "c\xE2\x80\xA8"
                 "d\xC2\x85"
                 "e\x1C"
                 "f\vg") == std::vector<std::string>{"a", "b", "c", "d", "e", "f", "g"});
  // U+200B (zero width space) and U+FEFF are not.
  CHECK(tokenize("a\xE2\x80\x8B"
                 "b \xEF\xBB\xBF"
                 "c") == std::vector<std::string>{"a\xE2\x80\x8B"
                                                  "b",
                                                  "\xEF\xBB\xBF"
                                                  "c"});
  // Invalid UTF-8 stays inside its token.
  CHECK(tokenize("caf\xE9 x\xC2") == std::vector<std::string>{"caf\xE9", "x\xC2"});
  CHECK(tokenize("<img src=x onerror=alert(1)>") ==
        std::vector<std::string>{"<img", "src=x", "onerror=alert(1)>"});
}

TEST_CASE("lowerCase: ASCII, Latin, Greek and Cyrillic capitals", "[embeddings][lookup]") {
  CHECK(lowerCase("The TEACHER 42") == "the teacher 42");
  CHECK(lowerCase("\xC3\x80\xC3\x89\xC3\x97\xC3\x9E") ==
        "\xC3\xA0\xC3\xA9\xC3\x97\xC3\xBE");                                   // ÀÉ×Þ
  CHECK(lowerCase("\xC5\xB8\xC5\x81\xC4\x80") == "\xC3\xBF\xC5\x82\xC4\x81");  // ŸŁĀ -> ÿłā
  CHECK(lowerCase("\xCE\xA3\xCE\x86") == "\xCF\x83\xCE\xAC");                  // ΣΆ -> σά
  CHECK(lowerCase("\xD0\x96\xD0\x81") == "\xD0\xB6\xD1\x91");                  // ЖЁ -> жё
  CHECK(lowerCase("\xC4\xB0") == "\xC4\xB0");  // İ: kept (Python makes it two code points)
  CHECK(lowerCase("A\xFF"
                  "B") ==
        "a\xFF"
        "b");  // invalid byte kept
}

// ---- parseDecimal ---------------------------------------------------------------------

TEST_CASE("parseDecimal: the same double as strtod for 200,000 random decimals",
          "[embeddings][parser]") {
  std::mt19937_64 rng(11);
  const auto digitsOf = [&](int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += static_cast<char>('0' + rng() % 10);
    return s;
  };
  int mismatches = 0;
  std::string first;
  for (int i = 0; i < 200000; ++i) {
    std::string s = (rng() % 3 == 0) ? "-" : (rng() % 7 == 0 ? "+" : "");
    const int intDigits = static_cast<int>(rng() % 8), fracDigits = static_cast<int>(rng() % 10);
    s += digitsOf(i % 50 == 0 ? 22 : intDigits);  // some mantissas longer than 19 digits
    if (fracDigits > 0 || intDigits == 0) s += "." + digitsOf(std::max(1, fracDigits));
    if (rng() % 4 == 0) {
      s += (rng() % 2 ? "e" : "E");
      s += std::to_string(static_cast<int>(rng() % 81) - 40);
    }
    double got = 0;
    REQUIRE(parseDecimal(s.data(), s.data() + s.size(), got));
    const double want = std::strtod(s.c_str(), nullptr);
    if (std::memcmp(&got, &want, sizeof got) != 0) {
      if (mismatches++ == 0) first = s;
    }
  }
  INFO("first mismatch: " << first);
  CHECK(mismatches == 0);
}

TEST_CASE("parseDecimal: rejects what is not a plain decimal", "[embeddings][parser]") {
  for (const std::string s : {"", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "0x10", "inf", "nan",
                              "1,5", "1 ", " 1", "--1", "1e5.5", "١"}) {
    double v = 0;
    INFO("'" << s << "'");
    CHECK_FALSE(parseDecimal(s.data(), s.data() + s.size(), v));
  }
  double v = 1;
  const std::string negativeZero = "-0.000";
  REQUIRE(parseDecimal(negativeZero.data(), negativeZero.data() + negativeZero.size(), v));
  CHECK((v == 0 && std::signbit(v)));
}

// ---- parser: the basics --------------------------------------------------------------

TEST_CASE("parser: words, dimension and float32 values", "[embeddings][parser]") {
  const EmbeddingTable t = parseOk("the 0.418 0.24968 -0.41242\n, 0.013441 0.23682 -0.16899\n");
  CHECK(t.dim() == 3);
  CHECK(t.size() == 2);
  CHECK(t.wordAt(0) == "the");
  CHECK(t.wordAt(1) == ",");
  CHECK(rowOf(t, "the") == Floats{0.418f, 0.24968f, -0.41242f});
  CHECK(rowOf(t, ",") == Floats{0.013441f, 0.23682f, -0.16899f});
}

TEST_CASE("parser: BOM, CRLF, trailing spaces, tabs, blank lines, no final newline",
          "[embeddings][parser]") {
  const EmbeddingTable t =
      parseOk("\xEF\xBB\xBFthe 1 2\r\n\r\nof 3 4  \r\n\n  and\t5 6\t \nto 7 8");
  CHECK(t.size() == 4);
  CHECK(t.dim() == 2);
  CHECK(t.find("the") == 0);  // the BOM is not part of the first word
  CHECK(rowOf(t, "of") == Floats{3, 4});
  CHECK(rowOf(t, "and") == Floats{5, 6});
  CHECK(rowOf(t, "to") == Floats{7, 8});
}

TEST_CASE("parser: exponents and signs", "[embeddings][parser]") {
  const EmbeddingTable t = parseOk("x 1e-05 -2.5E+3 +0.5 .25 -0 3e2\n");
  CHECK(rowOf(t, "x") == Floats{1e-05f, -2500.0f, 0.5f, 0.25f, -0.0f, 300.0f});
}

TEST_CASE("parser: words containing spaces keep everything before the last dim fields",
          "[embeddings][parser]") {
  const EmbeddingTable t = parseOk("the 1 2\n. . . 3 4\nat name@domain.com 5 6\n\xC2\xA0 7 8\n");
  CHECK(t.size() == 4);
  CHECK(rowOf(t, ". . .") == Floats{3, 4});
  CHECK(rowOf(t, "at name@domain.com") == Floats{5, 6});
  CHECK(rowOf(t, "\xC2\xA0") == Floats{7, 8});  // a non-breaking space is a word here
}

TEST_CASE("parser: the first occurrence of a duplicate word wins", "[embeddings][parser]") {
  const EmbeddingTable t = parseOk("the 1 2\ncat 3 4\nthe 5 6\n");
  CHECK(t.size() == 2);
  CHECK(rowOf(t, "the") == Floats{1, 2});
}

TEST_CASE("parser: a word2vec-style header line is skipped", "[embeddings][parser]") {
  const EmbeddingTable t = parseOk("2 3\nthe 1 2 3\nof 4 5 6\n");
  CHECK(t.dim() == 3);
  CHECK(t.size() == 2);
}

// ---- parser: malformed input -----------------------------------------------------------

TEST_CASE("parser: wrong number of values names the line", "[embeddings][parser][errors]") {
  CHECK(parseError("the 1 2 3\nof 4 5\n") ==
        "line 2: expected a word and 3 values, found 3 fields");
  CHECK(parseError("the 1 2 3\n\nof 4 5 6\nand 7\n") ==
        "line 4: expected a word and 3 values, found 2 fields");
  CHECK(parseError("the 1 2 3\r\n4 5 6\r\n") ==
        "line 2: expected a word and 3 values, found only 3 numbers (no word)");
  CHECK(parseError("the 1 2\nof 3 4\nin 5 6 oops\n") ==
        "line 3: value 2 of 2 'oops' is not a number");  // read from the right
}

TEST_CASE("parser: non-numbers name the line and the value", "[embeddings][parser][errors]") {
  CHECK(parseError("the 1 2 3\nof 4 abc 6\n") == "line 2: value 2 of 3 'abc' is not a number");
  CHECK(parseError("the 1 2\nof 1.2.3 4\n") == "line 2: value 1 of 2 '1.2.3' is not a number");
  CHECK(parseError("the 1 2\nof 4 -\n") == "line 2: value 2 of 2 '-' is not a number");
  CHECK(parseError("the 1 nan\n") == "line 1: value 2 of 2 'nan' is not a number");
  CHECK(parseError("the 1 2\nof inf 2\n") == "line 2: value 1 of 2 'inf' is not a number");
  CHECK(parseError("the 1 2\nof 0x10 2\n") == "line 2: value 1 of 2 '0x10' is not a number");
  CHECK(parseError("the 1 2\nof 1e39 2\n") == "line 2: value 1 '1e39' is out of range for float32");
}

TEST_CASE("parser: float32's range is the one NumPy prints", "[embeddings][parser]") {
  // float32's maximum is printed by NumPy as 3.4028235e38 (above FLT_MAX as a
  // decimal, yet rounding to it); the first double that rounds to infinity
  // is FLT_MAX + half an ulp = 0x1.ffffffp127 = 3.4028235677973366e38.
  const EmbeddingTable table = parseOk("big 3.4028235e38 -3.4028235e38\n");
  REQUIRE(table.size() == 1);
  CHECK(table.rowData(0)[0] == std::numeric_limits<float>::max());
  CHECK(table.rowData(0)[1] == -std::numeric_limits<float>::max());
  CHECK(parseOk("x 3.40282356e38 1\n").rowData(0)[0] == std::numeric_limits<float>::max());
  CHECK(parseError("x 3.4028235677973366e38 1\n") ==
        "line 1: value 1 '3.4028235677973366e38' is out of range for float32");
}

TEST_CASE("parser: vectors and lines have a maximum size", "[embeddings][parser][errors]") {
  std::string wide = "w";
  for (int k = 0; k < kMaxEmbeddingDim; ++k) wide += " 1";
  CHECK(parseOk(wide + "\n").dim() == kMaxEmbeddingDim);
  CHECK(parseError(wide + " 1\n") ==
        "line 1: more than 4096 values after the word; vectors have at most 4096");
  CHECK(parseError("2 5000\n") ==
        "line 1: header gives an implausible dimension 5000 (at most 4096)");
  // A runaway line later in the file, whole in one chunk or carried across chunks.
  const std::string runaway = "the 1 2\n" + std::string(std::size_t{1} << 21, 'x') + " 1 2\n";
  CHECK(parseError(runaway, std::size_t{4} << 20) ==
        "line 2 is longer than 1 MiB: not a GloVe text file?");
  CHECK(parseError(runaway, 4096) == "line 2 is longer than 1 MiB: not a GloVe text file?");
  EmbeddingTable t;
  CHECK(t.setDim(kMaxEmbeddingDim + 1).message ==
        "vectors of 4097 values are more than the 4096 a table takes");
}

TEST_CASE("parser: empty input and lone words fail", "[embeddings][parser][errors]") {
  CHECK(parseError("") == "the file holds no word vectors");
  CHECK(parseError("\n\r\n  \n") == "the file holds no word vectors");
  CHECK(parseError("\n\nhello\n") ==
        "line 3: expected a word followed by its values, found 1 field");
}

TEST_CASE("parser: after an error every call returns it", "[embeddings][parser][errors]") {
  GloveParser parser;
  REQUIRE_FALSE(parser.feed("the 1 2\nof x 2\n", 15).isOk());
  const Status again = parser.feed("in 1 2\n", 7);
  CHECK(again.message == "line 2: value 1 of 2 'x' is not a number");
  CHECK(parser.finish().message == again.message);
}

TEST_CASE("parser: skipped words are still checked for non-number characters",
          "[embeddings][parser][errors]") {
  GloveParser parser;
  parser.keepWord("the");
  const Status s = parse("the 1 2\nof 3 x4\n", parser);
  CHECK(s.message == "line 2: value 2 of 2 'x4' is not a number");
}

// ---- parser: chunking, filtering, streaming -------------------------------------------

TEST_CASE("parser: any chunking gives the same table, even one byte at a time",
          "[embeddings][parser][stream]") {
  const std::string text =
      "\xEF\xBB\xBFthe 0.1 -2e-3\r\ncaf\xC3\xA9 1.5 2\r\n. . . 3 4   \r\nthe 9 9\r\nend 5 6";
  const EmbeddingTable whole = parseOk(text);
  for (std::size_t chunk : {1, 2, 3, 5, 7, 64}) {
    const EmbeddingTable t = parseOk(text, chunk);
    INFO("chunk " << chunk);
    REQUIRE(t.size() == whole.size());
    for (int r = 0; r < t.size(); ++r) {
      CHECK(t.wordAt(r) == whole.wordAt(r));
      CHECK(Floats(t.rowData(r), t.rowData(r) + 2) ==
            Floats(whole.rowData(r), whole.rowData(r) + 2));
    }
  }
  CHECK(whole.size() == 4);
  CHECK(whole.find("caf\xC3\xA9") == 1);
  // The line number survives chunking too.
  CHECK(parseError("a 1 2\r\nb 3 4\r\nc 5\r\n", 1) ==
        "line 3: expected a word and 2 values, found 2 fields");
}

TEST_CASE("parser: a vocabulary keeps only its words, a limit keeps the first words",
          "[embeddings][parser]") {
  const std::string text = "the 1 1\nof 2 2\nteacher 3 3\nand 4 4\nstudent 5 5\n";
  {
    GloveParser parser;
    parser.keepWord("student");
    parser.keepWord("teacher");
    parser.keepWord("unicorn");
    REQUIRE(parse(text, parser).isOk());
    const EmbeddingTable t = parser.takeTable();
    CHECK(t.size() == 2);
    CHECK(t.wordAt(0) == "teacher");
    CHECK(t.wordAt(1) == "student");
  }
  {
    GloveParser parser;
    parser.setLimit(2);
    REQUIRE(parse(text, parser).isOk());
    CHECK(parser.table().size() == 2);
    CHECK(parser.table().wordAt(1) == "of");
  }
  {
    GloveParser parser;  // union: the first 1 word plus the vocabulary
    parser.setLimit(1);
    parser.keepWord("student");
    REQUIRE(parse(text, parser).isOk());
    CHECK(parser.table().size() == 2);
    CHECK(parser.table().find("the") == 0);
    CHECK(parser.table().find("student") == 1);
  }
  {
    GloveParser parser;  // nothing matches: an empty table of the right dimension
    parser.keepWord("unicorn");
    REQUIRE(parse(text, parser).isOk());
    CHECK(parser.table().size() == 0);
    CHECK(parser.dim() == 2);
  }
}

TEST_CASE("parser: a streamed multi-megabyte file", "[embeddings][parser][stream]") {
  // 6,000 words x 96 values, each value q / 1024 with |q| < 2^20: exactly
  // representable in float32 and printed exactly, so the expected floats do not
  // depend on any decimal conversion.
  const int words = 6000, dim = 96;
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> quotient(-(1 << 20) + 1, (1 << 20) - 1);
  std::vector<int> q(static_cast<std::size_t>(words) * dim);
  std::string text;
  char number[32];
  for (int w = 0; w < words; ++w) {
    text += "w" + std::to_string(w);
    for (int c = 0; c < dim; ++c) {
      const int v = quotient(rng);
      q[static_cast<std::size_t>(w) * dim + c] = v;
      std::snprintf(number, sizeof number, c % 3 == 0 ? " %.10f" : " %.10e", v / 1024.0);
      text += number;
    }
    text += w % 2 ? "\r\n" : "\n";
  }
  REQUIRE(text.size() > 6'000'000);
  GloveParser parser;
  parser.keepWord("w17");
  parser.keepWord("w5999");
  parser.setLimit(1000);
  REQUIRE(parse(text, parser, 65'537).isOk());  // chunks end mid-line and mid-number
  CHECK(parser.bytesRead() == static_cast<long long>(text.size()));
  CHECK(parser.linesRead() == words);
  const EmbeddingTable t = parser.takeTable();
  CHECK(t.size() == 1001);
  for (int w : {0, 17, 999, 5999}) {
    const int row = t.find("w" + std::to_string(w));
    REQUIRE(row >= 0);
    int mismatches = 0;
    for (int c = 0; c < dim; ++c) {
      const float want = static_cast<float>(q[static_cast<std::size_t>(w) * dim + c]) / 1024.0f;
      if (t.rowData(row)[c] != want) ++mismatches;
    }
    CHECK(mismatches == 0);
  }
  CHECK(t.find("w1000") < 0);
}

// ---- lookup -------------------------------------------------------------------------------

TEST_CASE("lookup: exact word first, then lower case, missing words are zero rows",
          "[embeddings][lookup]") {
  const EmbeddingTable t = parseOk("the 1 2\nThe 3 4\nteacher 5 6\n");
  CHECK(t.indexOf("The") == 1);  // the exact word wins over its lower-case form
  CHECK(t.indexOf("TEACHER") == 2);
  CHECK(t.indexOf("a") == -1);
  CHECK_FALSE(t.has("A"));
  Matrix m;
  std::vector<std::string> missing;
  REQUIRE(t.lookup({"THE", "a", "Teacher", "A", "a"}, m, missing).isOk());
  CHECK(m.rows() == 5);
  CHECK(m.cols() == 2);
  CHECK(m(0, 0) == 1);  // THE -> the
  CHECK(m.row(1).isZero());
  CHECK(m(2, 1) == 6);
  CHECK(m.row(3).isZero());
  CHECK(missing == std::vector<std::string>{"a", "A"});
}

// ---- binary form ----------------------------------------------------------------------

TEST_CASE("binary: float32 round trip is exact, int16 within scale / 2", "[embeddings][binary]") {
  EmbeddingTable t = parseOk("the -0.038194 -0.24487 0.72812\ncaf\xC3\xA9 1e-30 0 -3.5\nz 0 0 0\n");
  t.setInfo("test vectors");
  std::vector<std::uint8_t> bytes;
  REQUIRE(t.toBinary(BinaryEncoding::kFloat32, bytes).isOk());
  EmbeddingTable back;
  REQUIRE(EmbeddingTable::fromBinary(bytes.data(), bytes.size(), back).isOk());
  CHECK(back.info() == "test vectors");
  REQUIRE(back.size() == 3);
  for (int r = 0; r < 3; ++r) {
    CHECK(back.wordAt(r) == t.wordAt(r));
    CHECK(Floats(back.rowData(r), back.rowData(r) + 3) == Floats(t.rowData(r), t.rowData(r) + 3));
  }
  REQUIRE(t.toBinary(BinaryEncoding::kInt16, bytes).isOk());
  REQUIRE(EmbeddingTable::fromBinary(bytes.data(), bytes.size(), back).isOk());
  for (int r = 0; r < 3; ++r) {
    float maxAbs = 0;
    for (int c = 0; c < 3; ++c) maxAbs = std::max(maxAbs, std::abs(t.rowData(r)[c]));
    for (int c = 0; c < 3; ++c) {
      CHECK(std::abs(back.rowData(r)[c] - t.rowData(r)[c]) <= maxAbs / 65534.0 * (1 + 1e-6));
    }
  }
  CHECK(back.rowData(2)[0] == 0);  // an all-zero vector stays zero
}

TEST_CASE("binary: int12 packs two values in three bytes, within max|v| / 4094",
          "[embeddings][binary]") {
  // Odd dim and an odd number of values (3 x 3 = 9): the last value takes two bytes.
  EmbeddingTable t = parseOk("the -0.038194 -0.24487 0.72812\ncaf\xC3\xA9 1e-30 0 -3.5\nz 0 0 0\n");
  std::vector<std::uint8_t> bytes;
  REQUIRE(t.toBinary(BinaryEncoding::kInt12, bytes).isOk());
  // header, "the\ncaf\xC3\xA9\nz\n" (12 bytes, no pad), 3 scales, 9 values in 4 * 3 + 2 bytes
  REQUIRE(bytes.size() == 28 + 12 + 3 * 4 + 14);
  CHECK(bytes[8] == 2);  // encoding code
  // Word "the": scale 0.72812 / 2047; quotients round(v / scale) written by hand.
  const float scale = 0.72812f / 2047.0f;
  const std::int32_t q0 = static_cast<std::int32_t>(std::lround(-0.038194 / scale));  // -107
  const std::int32_t q1 = static_cast<std::int32_t>(std::lround(-0.24487 / scale));   // -688
  REQUIRE(q0 == -107);
  REQUIRE(q1 == -688);
  const std::size_t v = 28 + 12 + 3 * 4;
  const auto a = static_cast<std::uint32_t>(q0) & 0xFFF, b = static_cast<std::uint32_t>(q1) & 0xFFF;
  CHECK(bytes[v] == (a & 0xFF));
  CHECK(bytes[v + 1] == ((a >> 8) | ((b & 0xF) << 4)));
  CHECK(bytes[v + 2] == (b >> 4));
  CHECK(bytes[v + 3] == (2047 & 0xFF));  // 0.72812 is the row's max: quotient 2047
  EmbeddingTable back;
  REQUIRE(EmbeddingTable::fromBinary(bytes.data(), bytes.size(), back).isOk());
  REQUIRE(back.size() == 3);
  for (int r = 0; r < 3; ++r) {
    CHECK(back.wordAt(r) == t.wordAt(r));
    float maxAbs = 0;
    for (int c = 0; c < 3; ++c) maxAbs = std::max(maxAbs, std::abs(t.rowData(r)[c]));
    for (int c = 0; c < 3; ++c) {
      CHECK(std::abs(back.rowData(r)[c] - t.rowData(r)[c]) <= maxAbs / 4094.0 * (1 + 1e-6));
    }
  }
  CHECK(back.rowData(1)[2] ==
        Approx(-3.5).epsilon(1e-6));  // -2047 * scale: the high half of a pair
  CHECK(back.rowData(2)[2] == 0);     // the odd last value, zero
  // An even count of values takes exactly 1.5 bytes each.
  EmbeddingTable even = parseOk("ab 1 -2\nac 3 4\n");
  REQUIRE(even.toBinary(BinaryEncoding::kInt12, bytes).isOk());
  CHECK(bytes.size() == 28 + 8 + 2 * 4 + 6);
  REQUIRE(EmbeddingTable::fromBinary(bytes.data(), bytes.size(), back).isOk());
  CHECK(back.rowData(0)[1] == -2);
  CHECK(back.rowData(1)[1] == Approx(4).epsilon(1e-6));  // the row's max: exact up to rounding
  CHECK(std::abs(back.rowData(1)[0] - 3) <= 4 / 4094.0 * 1.0001);  // 1535 * 4 / 2047 = 2.99951
}

TEST_CASE("binary: int12 decodes every 12-bit pattern, -2048 included", "[embeddings][binary]") {
  // One word of dim 4096: quotients -2048 ... 2047 in order, scale 1.
  const int dim = 4096;
  std::vector<std::uint8_t> bytes = {'A', 'T', 'L', 'E', 'M', 'B', '0', '1'};
  const auto put = [&](std::uint32_t x) {
    for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<std::uint8_t>(x >> (8 * k)));
  };
  for (std::uint32_t x : {2u, 1u, static_cast<std::uint32_t>(dim), 4u, 0u}) put(x);
  for (char c : std::string("all\n")) bytes.push_back(static_cast<std::uint8_t>(c));
  put(0x3F800000u);  // 1.0f
  for (int i = 0; i < dim; i += 2) {
    const auto a = static_cast<std::uint32_t>(i - 2048) & 0xFFF;
    const auto b = static_cast<std::uint32_t>(i + 1 - 2048) & 0xFFF;
    bytes.push_back(static_cast<std::uint8_t>(a & 0xFF));
    bytes.push_back(static_cast<std::uint8_t>((a >> 8) | ((b & 0xF) << 4)));
    bytes.push_back(static_cast<std::uint8_t>(b >> 4));
  }
  EmbeddingTable back;
  REQUIRE(EmbeddingTable::fromBinary(bytes.data(), bytes.size(), back).isOk());
  int wrong = 0;
  for (int i = 0; i < dim; ++i) wrong += back.rowData(0)[i] != static_cast<float>(i - 2048);
  CHECK(wrong == 0);
}

TEST_CASE("binary: corrupt input is rejected", "[embeddings][binary][errors]") {
  EmbeddingTable t = parseOk("ab 1 2\nac 3 4\n");
  std::vector<std::uint8_t> bytes;
  REQUIRE(t.toBinary(BinaryEncoding::kInt16, bytes).isOk());
  REQUIRE(bytes.size() ==
          28 + 8 + 2 * 4 + 2 * 2 * 2);  // header, "ab\nac\n" + 2 pad, scales, values
  EmbeddingTable out;
  CHECK(EmbeddingTable::fromBinary(bytes.data(), bytes.size() - 1, out).message ==
        "the file has 51 bytes but its header (2 words of size 2, int16) needs 52");
  std::vector<std::uint8_t> bad = bytes;
  bad[0] = 'X';
  CHECK(EmbeddingTable::fromBinary(bad.data(), bad.size(), out).message ==
        "not an attention-lab embeddings file (no ATLEMB01 header)");
  bad = bytes;
  bad[32] = 'b';  // "ab\nac\n" -> "ab\nab\n"
  CHECK(EmbeddingTable::fromBinary(bad.data(), bad.size(), out).message ==
        "word 'ab' appears twice");
  bad = bytes;
  bad[30] = 'x';  // "ab\nac\n" -> "abxac\n": one word short
  CHECK(EmbeddingTable::fromBinary(bad.data(), bad.size(), out).message ==
        "the word list ends after 1 of 2 words");
  CHECK(out.size() == 0);  // untouched on failure
  REQUIRE(EmbeddingTable::fromBinary(bytes.data(), bytes.size(), out).isOk());
  CHECK(out.size() == 2);
  // int12: the header's sizes are checked against the file (1.5 bytes per value).
  REQUIRE(t.toBinary(BinaryEncoding::kInt12, bytes).isOk());
  REQUIRE(bytes.size() == 28 + 8 + 2 * 4 + 6);
  CHECK(EmbeddingTable::fromBinary(bytes.data(), bytes.size() - 1, out).message ==
        "the file has 49 bytes but its header (2 words of size 2, int12) needs 50");
  bad = bytes;
  bad[16] = 0xFF;  // dim 255 + ...: 2 words of size 0x000000FF... is refused before allocating
  bad[17] = 0x0F;
  CHECK(EmbeddingTable::fromBinary(bad.data(), bad.size(), out).message ==
        "the file has 50 bytes but its header (2 words of size 4095, int12) needs 12329");
  bad = bytes;
  bad[12] = 0xFF;  // 2^32 - 1 words: the 64-bit size arithmetic does not wrap
  bad[13] = 0xFF;
  bad[14] = 0xFF;
  bad[15] = 0xFF;
  CHECK(
      EmbeddingTable::fromBinary(bad.data(), bad.size(), out).message ==
      "the file has 50 bytes but its header (4294967295 words of size 2, int12) needs 30064771101");
  bad = bytes;
  bad[8] = 3;
  CHECK(EmbeddingTable::fromBinary(bad.data(), bad.size(), out).message == "unknown encoding 3");
  CHECK(out.size() == 2);  // still the last good table
  CHECK(t.toBinary(static_cast<BinaryEncoding>(3), bytes).message == "unknown encoding 3");
}

// ---- attention kernels against NumPy -----------------------------------------------------

TEST_CASE("attention: the notebook's sentences, dot-product attention 8 x 9",
          "[embeddings][attention][notebook]") {
  const Matrix q = ref().matrix("sentences.queries"), k = ref().matrix("sentences.keys");
  REQUIRE(q.rows() == 8);
  REQUIRE(k.rows() == 9);
  Matrix weights, output;
  REQUIRE(scaledDotProductAttention(q, k, k, AttentionMask{}, output, weights).isOk());
  CHECK_CLOSE(weights, ref().matrix("sentences.dot.weights"), 1e-12);
  CHECK_CLOSE(output, ref().matrix("sentences.dot.output"), 1e-12);
  // "a" has no vector: its zero query row gives equal weights 1/9.
  for (int j = 0; j < 9; ++j) CHECK(weights(3, j) == Approx(1.0 / 9).epsilon(1e-14));
}

TEST_CASE("attention: trainable and additive attention with given weights",
          "[embeddings][attention][notebook]") {
  const Matrix q = ref().matrix("sentences.queries"), k = ref().matrix("sentences.keys");
  const auto layer = [](const std::string& p, Matrix& y, const Matrix& x) {
    return linear(x, ref().matrix(p + ".weight"), ref().vector(p + ".bias"), y);
  };
  Matrix qp, kp, vp, weights, output, scores;
  REQUIRE(layer("sentences.trainable.Wq", qp, q).isOk());
  REQUIRE(layer("sentences.trainable.Wk", kp, k).isOk());
  REQUIRE(layer("sentences.trainable.Wv", vp, k).isOk());
  CHECK_CLOSE(qp, ref().matrix("sentences.trainable.projected_queries"), 1e-12);
  REQUIRE(scaledDotProductAttention(qp, kp, vp, AttentionMask{}, output, weights).isOk());
  CHECK_CLOSE(weights, ref().matrix("sentences.trainable.weights"), 1e-12);
  CHECK_CLOSE(output, ref().matrix("sentences.trainable.output"), 1e-12);

  REQUIRE(layer("sentences.additive.Wq", qp, q).isOk());
  REQUIRE(layer("sentences.additive.Wk", kp, k).isOk());
  REQUIRE(pairwiseAdditiveAttention(qp, kp, ref().vector("sentences.additive.Ws.weight"),
                                    ref().scalar("sentences.additive.Ws.bias"), k, scores, weights,
                                    output)
              .isOk());
  CHECK(scores.rows() == 8);
  CHECK(scores.cols() == 9);
  CHECK_CLOSE(scores, ref().matrix("sentences.additive.scores"), 1e-12);
  CHECK_CLOSE(weights, ref().matrix("sentences.additive.weights"), 1e-12);
  CHECK_CLOSE(output, ref().matrix("sentences.additive.output"), 1e-12);
}

TEST_CASE("attention: random cases against NumPy", "[embeddings][attention]") {
  for (int i = 0; i < 3; ++i) {
    const std::string p = "random" + std::to_string(i);
    INFO(p);
    const Matrix q = ref().matrix(p + ".queries"), k = ref().matrix(p + ".keys"),
                 v = ref().matrix(p + ".values");
    Matrix weights, output, scores, y;
    REQUIRE(scaledDotProductAttention(q, k, v, AttentionMask{}, output, weights).isOk());
    CHECK_CLOSE(weights, ref().matrix(p + ".dot.weights"), 1e-12);
    CHECK_CLOSE(output, ref().matrix(p + ".dot.output"), 1e-12);
    REQUIRE(
        linear(q, ref().matrix(p + ".linear.weight"), ref().vector(p + ".linear.bias"), y).isOk());
    CHECK_CLOSE(y, ref().matrix(p + ".linear.output"), 1e-12);
    REQUIRE(pairwiseAdditiveAttention(ref().matrix(p + ".additive.qp"),
                                      ref().matrix(p + ".additive.kp"),
                                      ref().vector(p + ".additive.ws"),
                                      ref().scalar(p + ".additive.bs"), v, scores, weights, output)
                .isOk());
    CHECK_CLOSE(scores, ref().matrix(p + ".additive.scores"), 1e-12);
    CHECK_CLOSE(weights, ref().matrix(p + ".additive.weights"), 1e-12);
    CHECK_CLOSE(output, ref().matrix(p + ".additive.output"), 1e-12);
  }
}

TEST_CASE("attention: shape errors name the arguments and shapes",
          "[embeddings][attention][errors]") {
  Matrix weights, output, scores, y;
  const Matrix q = Matrix::Ones(8, 4), k = Matrix::Ones(9, 4), v = Matrix::Ones(7, 2);
  CHECK(
      scaledDotProductAttention(q, Matrix::Ones(9, 3), k, AttentionMask{}, output, weights)
          .message ==
      "Q has 4 columns but K has 3 (Q is 8x4, K is 9x3); queries and keys need the same size d_k");
  CHECK(scaledDotProductAttention(q, k, v, AttentionMask{}, output, weights).message ==
        "K has 9 rows but V has 7 (K is 9x4, V is 7x2); every key needs one value");
  CHECK(linear(q, Matrix::Ones(5, 3), Vector::Ones(5), y).message ==
        "x has 4 columns but weight has 3 columns (x is 8x4, weight is 5x3)");
  CHECK(linear(q, Matrix::Ones(5, 4), Vector::Ones(4), y).message ==
        "bias has 4 entries but weight has 5 rows (weight is 5x4)");
  CHECK(pairwiseAdditiveAttention(q, k, Vector::Ones(3), 0, k, scores, weights, output).message ==
        "ws has 3 entries but the projections have 4 columns (projectedKeys is 9x4)");
  Matrix bad = q;
  bad(2, 1) = NAN;
  CHECK(scaledDotProductAttention(bad, k, k, AttentionMask{}, output, weights).code ==
        StatusCode::kInvalidValue);
}

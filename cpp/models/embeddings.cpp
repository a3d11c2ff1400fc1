#include "embeddings.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

namespace attention {

namespace {

// ---- UTF-8 -------------------------------------------------------------------

// Decodes the code point at s[i] (advancing i). Invalid or truncated sequences
// yield -1 and advance by one byte, so callers can keep such bytes unchanged.
long decodeUtf8(const std::string& s, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  int length = 0;
  long cp = 0;
  if (b0 < 0x80) {
    ++i;
    return b0;
  } else if ((b0 & 0xE0) == 0xC0) {
    length = 2;
    cp = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    length = 3;
    cp = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    length = 4;
    cp = b0 & 0x07;
  } else {
    ++i;
    return -1;
  }
  if (i + length > s.size()) {
    ++i;
    return -1;
  }
  for (int k = 1; k < length; ++k) {
    const unsigned char b = byte(i + k);
    if ((b & 0xC0) != 0x80) {
      ++i;
      return -1;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  static const long kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;  // overlong, out of range or a surrogate
    return -1;
  }
  i += length;
  return cp;
}

void appendUtf8(std::string& out, long cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Python's str.isspace(), which is what str.split() splits on.
bool isPythonSpace(long cp) {
  return (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x20) || cp == 0x85 || cp == 0xA0 ||
         cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 ||
         cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

long lowerCodePoint(long cp) {
  if (cp >= 'A' && cp <= 'Z') return cp + 32;
  if (cp < 0xC0) return cp;
  // Latin-1 Supplement: À-Þ except the multiplication sign.
  if (cp <= 0xDE) return cp == 0xD7 ? cp : cp + 32;
  // Latin Extended-A: capitals at even code points, except 0x139-0x148 and
  // 0x179-0x17E where they are odd; İ (0x130) lowers to two code points in
  // Python, ı/ĸ/ŉ/ſ have no capital, Ÿ lowers into Latin-1.
  if (cp >= 0x100 && cp <= 0x17F) {
    if (cp == 0x130 || cp == 0x131 || cp == 0x138 || cp == 0x149 || cp == 0x17F) return cp;
    if (cp == 0x178) return 0xFF;
    const bool oddCapitals = (cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E);
    const bool isCapital = oddCapitals ? (cp % 2 == 1) : (cp % 2 == 0);
    return isCapital ? cp + 1 : cp;
  }
  // Greek.
  if (cp == 0x386) return 0x3AC;
  if (cp >= 0x388 && cp <= 0x38A) return cp + 37;
  if (cp == 0x38C) return 0x3CC;
  if (cp == 0x38E || cp == 0x38F) return cp + 63;
  if (cp >= 0x391 && cp <= 0x3AB && cp != 0x3A2) return cp + 32;
  // Cyrillic.
  if (cp >= 0x400 && cp <= 0x40F) return cp + 80;
  if (cp >= 0x410 && cp <= 0x42F) return cp + 32;
  return cp;
}

// ---- little-endian byte I/O -------------------------------------------------

const char kMagic[8] = {'A', 'T', 'L', 'E', 'M', 'B', '0', '1'};
constexpr std::size_t kHeaderBytes = 8 + 5 * 4;

void putU32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) out.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
}
std::uint32_t getU32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}
void putF32(std::vector<std::uint8_t>& out, float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  putU32(out, bits);
}
float getF32(const std::uint8_t* p) {
  const std::uint32_t bits = getU32(p);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// ---- binary form: encodings ---------------------------------------------------

bool isKnownEncoding(std::uint32_t code) {
  return code == static_cast<std::uint32_t>(BinaryEncoding::kFloat32) ||
         code == static_cast<std::uint32_t>(BinaryEncoding::kInt16) ||
         code == static_cast<std::uint32_t>(BinaryEncoding::kInt12);
}
const char* encodingName(BinaryEncoding encoding) {
  switch (encoding) {
    case BinaryEncoding::kInt16:
      return "int16";
    case BinaryEncoding::kInt12:
      return "int12";
    default:
      return "float32";
  }
}
// Largest |quotient| of the scaled encodings (value = quotient * scale).
long maxQuotient(BinaryEncoding encoding) {
  return encoding == BinaryEncoding::kInt12 ? 2047 : 32767;
}
// Bytes of the per-word scales of `words` words.
std::uint64_t scaleBytesOf(BinaryEncoding encoding, std::uint64_t words) {
  return encoding == BinaryEncoding::kFloat32 ? 0 : 4 * words;
}
// Bytes of `n` values (n <= 2^32 * kMaxEmbeddingDim, so nothing overflows).
std::uint64_t valueBytesOf(BinaryEncoding encoding, std::uint64_t n) {
  switch (encoding) {
    case BinaryEncoding::kInt16:
      return 2 * n;
    case BinaryEncoding::kInt12:
      return (3 * n + 1) / 2;  // 3 bytes per pair, 2 for an odd last value
    default:
      return 4 * n;
  }
}
// Value i of a kInt12 block: the low or high 12 bits of its 3-byte pair, sign-extended.
std::int32_t int12At(const std::uint8_t* values, std::uint64_t i) {
  const std::uint8_t* p = values + 3 * (i / 2);
  const std::uint32_t bits = i % 2 == 0 ? p[0] | ((p[1] & 0xFu) << 8) : (p[1] >> 4) | (p[2] << 4);
  return bits >= 0x800 ? static_cast<std::int32_t>(bits) - 0x1000 : static_cast<std::int32_t>(bits);
}

// ---- GloVe line scanning ----------------------------------------------------

bool isSeparator(char c) { return c == ' ' || c == '\t'; }
bool isNumberChar(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}
bool isDigits(const char* b, const char* e) {
  if (b == e) return false;
  for (; b != e; ++b) {
    if (*b < '0' || *b > '9') return false;
  }
  return true;
}

struct Span {
  const char* begin;
  const char* end;
};

// Fields of [begin, end) split on runs of spaces/tabs.
std::vector<Span> splitFields(const char* begin, const char* end) {
  std::vector<Span> fields;
  const char* p = begin;
  while (p != end) {
    while (p != end && isSeparator(*p)) ++p;
    if (p == end) break;
    const char* start = p;
    while (p != end && !isSeparator(*p)) ++p;
    fields.push_back({start, p});
  }
  return fields;
}

std::string quoted(const char* b, const char* e) {
  std::string text(b, static_cast<std::size_t>(std::min<std::ptrdiff_t>(e - b, 24)));
  if (e - b > 24) text += "...";
  return "'" + text + "'";
}

// Longest line taken: 4096 values of up to ~30 characters, plus a long word.
constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

Status lineTooLong(long long line) {
  return Status::invalidValue("line " + std::to_string(line) +
                              " is longer than 1 MiB: not a GloVe text file?");
}

// Fields of the line, counting no further than `limit`.
std::size_t countFieldsUpTo(const char* begin, const char* end, std::size_t limit) {
  std::size_t count = 0;
  for (const char* p = begin; p != end && count < limit;) {
    while (p != end && isSeparator(*p)) ++p;
    if (p == end) break;
    ++count;
    while (p != end && !isSeparator(*p)) ++p;
  }
  return count;
}

// Doubles below this in magnitude round to a finite float32 (FLT_MAX plus half
// its ulp): "3.4028235e38", float32's maximum as NumPy prints it, is accepted.
constexpr double kFloat32RoundsToInfinity = 0x1.ffffffp127;

}  // namespace

// ---- parseDecimal -------------------------------------------------------------------

bool parseDecimal(const char* begin, const char* end, double& out) {
  // Grammar: [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?
  const char* p = begin;
  bool negative = false;
  if (p != end && (*p == '+' || *p == '-')) negative = *p++ == '-';
  std::uint64_t mantissa = 0;
  int digits = 0;     // significant digits accumulated in mantissa
  int dropped = 0;    // integer digits that did not fit (each a factor 10)
  long exponent = 0;  // decimal exponent applied to mantissa
  bool sawDigit = false;
  bool exact = true;  // mantissa holds every significant digit
  for (; p != end && *p >= '0' && *p <= '9'; ++p) {
    sawDigit = true;
    if (mantissa == 0 && *p == '0') continue;
    if (digits < 19) {
      mantissa = mantissa * 10 + static_cast<std::uint64_t>(*p - '0');
      ++digits;
    } else {
      ++dropped;
      exact = exact && *p == '0';
    }
  }
  if (p != end && *p == '.') {
    ++p;
    for (; p != end && *p >= '0' && *p <= '9'; ++p) {
      sawDigit = true;
      if (mantissa == 0 && *p == '0') {
        --exponent;
        continue;
      }
      if (digits < 19) {
        mantissa = mantissa * 10 + static_cast<std::uint64_t>(*p - '0');
        ++digits;
        --exponent;
      } else {
        exact = exact && *p == '0';
      }
    }
  }
  if (!sawDigit) return false;
  if (p != end && (*p == 'e' || *p == 'E')) {
    ++p;
    bool negativeExponent = false;
    if (p != end && (*p == '+' || *p == '-')) negativeExponent = *p++ == '-';
    if (p == end || *p < '0' || *p > '9') return false;
    long e = 0;
    for (; p != end && *p >= '0' && *p <= '9'; ++p) {
      if (e < 100000) e = e * 10 + (*p - '0');
    }
    exponent += negativeExponent ? -e : e;
  }
  if (p != end) return false;
  exponent += dropped;
  // Clinger's fast path: an integer below 2^53 times or divided by an exact power
  // of ten is one correctly rounded operation, the same double strtod returns.
  static const double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (exact && mantissa <= (std::uint64_t{1} << 53) && exponent >= -22 && exponent <= 22) {
    double v = static_cast<double>(mantissa);
    v = exponent < 0 ? v / kPowers[-exponent] : v * kPowers[exponent];
    out = negative ? -v : v;
    return true;
  }
  // Anything else (long mantissas, large exponents): the C library, which is
  // correctly rounded but slow under WebAssembly (software long double).
  const std::string text(begin, end);
  char* parsedEnd = nullptr;
  out = std::strtod(text.c_str(), &parsedEnd);
  return parsedEnd == text.c_str() + text.size();
}

// ---- tokenize / lowerCase -----------------------------------------------------

std::vector<std::string> tokenize(const std::string& sentence) {
  std::vector<std::string> tokens;
  std::string current;
  bool inToken = false;
  std::size_t i = 0;
  while (i < sentence.size()) {
    const std::size_t start = i;
    const long cp = decodeUtf8(sentence, i);
    if (cp >= 0 && isPythonSpace(cp)) {
      if (inToken) tokens.push_back(std::move(current));
      current.clear();
      inToken = false;
    } else {
      current.append(sentence, start, i - start);
      inToken = true;
    }
  }
  if (inToken) tokens.push_back(std::move(current));
  return tokens;
}

std::string lowerCase(const std::string& word) {
  std::string out;
  out.reserve(word.size());
  std::size_t i = 0;
  while (i < word.size()) {
    const std::size_t start = i;
    const long cp = decodeUtf8(word, i);
    if (cp < 0) {
      out.append(word, start, i - start);
    } else {
      appendUtf8(out, lowerCodePoint(cp));
    }
  }
  return out;
}

// ---- EmbeddingTable -----------------------------------------------------------

Status EmbeddingTable::setDim(int dim) {
  if (dim <= 0) return Status::shapeMismatch("dim must be positive, got " + std::to_string(dim));
  if (dim > kMaxEmbeddingDim) {
    return Status::invalidValue("vectors of " + std::to_string(dim) + " values are more than the " +
                                std::to_string(kMaxEmbeddingDim) + " a table takes");
  }
  if (!words_.empty() && dim != dim_) {
    return Status::shapeMismatch("the table holds " + std::to_string(size()) + " words of size " +
                                 std::to_string(dim_) + "; cannot change dim to " +
                                 std::to_string(dim));
  }
  dim_ = dim;
  return Status::ok();
}

bool EmbeddingTable::add(const std::string& word, const float* values) {
  const auto inserted = rows_.emplace(word, size());
  if (!inserted.second) return false;
  words_.push_back(word);
  values_.insert(values_.end(), values, values + dim_);
  return true;
}

int EmbeddingTable::find(const std::string& word) const {
  const auto it = rows_.find(word);
  return it == rows_.end() ? -1 : it->second;
}

int EmbeddingTable::indexOf(const std::string& word) const {
  const int exact = find(word);
  if (exact >= 0) return exact;
  const std::string lower = lowerCase(word);
  return lower == word ? -1 : find(lower);
}

Status EmbeddingTable::lookup(const std::vector<std::string>& tokens, Matrix& out,
                              std::vector<std::string>& missing) const {
  if (dim_ <= 0) return Status::shapeMismatch("the table is empty (no dimension yet)");
  out = Matrix::Zero(static_cast<Eigen::Index>(tokens.size()), dim_);
  missing.clear();
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    const int row = indexOf(tokens[t]);
    if (row < 0) {
      if (std::find(missing.begin(), missing.end(), tokens[t]) == missing.end()) {
        missing.push_back(tokens[t]);
      }
      continue;
    }
    const float* v = rowData(row);
    for (int c = 0; c < dim_; ++c) out(static_cast<Eigen::Index>(t), c) = v[c];
  }
  return Status::ok();
}

Status EmbeddingTable::toBinary(BinaryEncoding encoding, std::vector<std::uint8_t>& out) const {
  if (!isKnownEncoding(static_cast<std::uint32_t>(encoding))) {
    return Status::invalidArgument("unknown encoding " +
                                   std::to_string(static_cast<std::uint32_t>(encoding)));
  }
  if (dim_ <= 0) return Status::shapeMismatch("the table is empty (no dimension yet)");
  std::size_t wordBytes = 0;
  for (const std::string& w : words_) {
    if (w.find('\n') != std::string::npos) {
      return Status::invalidValue("word " + quoted(w.data(), w.data() + w.size()) +
                                  " contains a line break and cannot be stored");
    }
    wordBytes += w.size() + 1;
  }
  const std::size_t count = values_.size();
  const std::size_t valueBytes =
      scaleBytesOf(encoding, words_.size()) + valueBytesOf(encoding, count);
  out.clear();
  out.reserve(kHeaderBytes + info_.size() + wordBytes + 3 + valueBytes);
  for (char c : kMagic) out.push_back(static_cast<std::uint8_t>(c));
  putU32(out, static_cast<std::uint32_t>(encoding));
  putU32(out, static_cast<std::uint32_t>(size()));
  putU32(out, static_cast<std::uint32_t>(dim_));
  putU32(out, static_cast<std::uint32_t>(wordBytes));
  putU32(out, static_cast<std::uint32_t>(info_.size()));
  out.insert(out.end(), info_.begin(), info_.end());
  for (const std::string& w : words_) {
    out.insert(out.end(), w.begin(), w.end());
    out.push_back('\n');
  }
  while (out.size() % 4 != 0) out.push_back(0);
  if (encoding == BinaryEncoding::kFloat32) {
    for (float v : values_) putF32(out, v);
    return Status::ok();
  }
  // kInt16 / kInt12: one float32 scale per word, then the rounded quotients.
  const long qMax = maxQuotient(encoding);
  std::vector<std::int32_t> quotients(count);
  for (std::size_t r = 0; r < words_.size(); ++r) {
    const float* v = values_.data() + r * dim_;
    float maxAbs = 0;
    for (int c = 0; c < dim_; ++c) maxAbs = std::max(maxAbs, std::abs(v[c]));
    const float scale = maxAbs / static_cast<float>(qMax);
    putF32(out, scale);
    for (int c = 0; c < dim_; ++c) {
      const long q = scale == 0 ? 0 : std::lround(static_cast<double>(v[c]) / scale);
      quotients[r * dim_ + c] = static_cast<std::int32_t>(std::max(-qMax, std::min(qMax, q)));
    }
  }
  if (encoding == BinaryEncoding::kInt16) {
    for (std::int32_t q : quotients) {
      const auto bits = static_cast<std::uint16_t>(static_cast<std::int16_t>(q));
      out.push_back(static_cast<std::uint8_t>(bits & 0xFF));
      out.push_back(static_cast<std::uint8_t>(bits >> 8));
    }
    return Status::ok();
  }
  // kInt12: two values a, b (12-bit two's complement) in three bytes:
  //   a & 0xFF | (a >> 8) + ((b & 0xF) << 4) | b >> 4; an odd last value takes two.
  for (std::size_t i = 0; i < count; i += 2) {
    const auto a = static_cast<std::uint32_t>(quotients[i]) & 0xFFF;
    const auto b = i + 1 < count ? static_cast<std::uint32_t>(quotients[i + 1]) & 0xFFF : 0;
    out.push_back(static_cast<std::uint8_t>(a & 0xFF));
    out.push_back(static_cast<std::uint8_t>((a >> 8) | ((b & 0xF) << 4)));
    if (i + 1 < count) out.push_back(static_cast<std::uint8_t>(b >> 4));
  }
  return Status::ok();
}

Status EmbeddingTable::fromBinary(const std::uint8_t* data, std::size_t size, EmbeddingTable& out) {
  if (size < kHeaderBytes || std::memcmp(data, kMagic, 8) != 0) {
    return Status::invalidValue("not an attention-lab embeddings file (no ATLEMB01 header)");
  }
  const std::uint32_t code = getU32(data + 8);
  const std::uint64_t count = getU32(data + 12);
  const std::uint64_t dim = getU32(data + 16);
  const std::uint64_t wordBytes = getU32(data + 20);
  const std::uint64_t infoBytes = getU32(data + 24);
  if (!isKnownEncoding(code))
    return Status::invalidValue("unknown encoding " + std::to_string(code));
  const auto encoding = static_cast<BinaryEncoding>(code);
  if (dim == 0 || dim > static_cast<std::uint64_t>(kMaxEmbeddingDim)) {
    return Status::invalidValue("implausible dim " + std::to_string(dim) + " (at most " +
                                std::to_string(kMaxEmbeddingDim) + ")");
  }
  // Every size is checked against the file before anything is allocated.
  std::uint64_t offset = kHeaderBytes + infoBytes + wordBytes;
  offset = (offset + 3) / 4 * 4;
  const std::uint64_t scaleBytes = scaleBytesOf(encoding, count);
  const std::uint64_t valueBytes = valueBytesOf(encoding, count * dim);
  const std::uint64_t expected = offset + scaleBytes + valueBytes;
  if (expected != size) {
    return Status::invalidValue("the file has " + std::to_string(size) + " bytes but its header (" +
                                std::to_string(count) + " words of size " + std::to_string(dim) +
                                ", " + encodingName(encoding) + ") needs " +
                                std::to_string(expected));
  }
  EmbeddingTable table;
  table.dim_ = static_cast<int>(dim);
  const char* info = reinterpret_cast<const char*>(data + kHeaderBytes);
  table.info_.assign(info, infoBytes);
  const char* words = info + infoBytes;
  const char* wordsEnd = words + wordBytes;
  table.words_.reserve(count);
  table.values_.reserve(count * dim);
  const std::uint8_t* scales = data + offset;
  const std::uint8_t* values = scales + scaleBytes;
  std::vector<float> row(dim);
  for (std::uint64_t r = 0; r < count; ++r) {
    const char* nl = static_cast<const char*>(std::memchr(words, '\n', wordsEnd - words));
    if (nl == nullptr) {
      return Status::invalidValue("the word list ends after " + std::to_string(r) + " of " +
                                  std::to_string(count) + " words");
    }
    const std::string word(words, nl);
    words = nl + 1;
    const float scale = scaleBytes != 0 ? getF32(scales + 4 * r) : 1.0f;
    for (std::uint64_t c = 0; c < dim; ++c) {
      const std::uint64_t i = r * dim + c;
      float v;
      if (encoding == BinaryEncoding::kInt16) {
        const std::uint8_t* p = values + 2 * i;
        const auto q = static_cast<std::int16_t>(static_cast<std::uint16_t>(p[0] | (p[1] << 8)));
        v = static_cast<float>(q) * scale;
      } else if (encoding == BinaryEncoding::kInt12) {
        v = static_cast<float>(int12At(values, i)) * scale;
      } else {
        v = getF32(values + 4 * i);
      }
      if (!std::isfinite(v)) {
        return Status::invalidValue("value " + std::to_string(c) + " of word " +
                                    quoted(word.data(), word.data() + word.size()) +
                                    " is not finite");
      }
      row[c] = v;
    }
    if (!table.add(word, row.data())) {
      return Status::invalidValue("word " + quoted(word.data(), word.data() + word.size()) +
                                  " appears twice");
    }
  }
  if (words != wordsEnd)
    return Status::invalidValue("the word list is longer than its header says");
  out = std::move(table);
  return Status::ok();
}

// ---- GloveParser ----------------------------------------------------------------

void GloveParser::keepWord(const std::string& word) {
  filter_ = true;
  vocabulary_.insert(word);
}

bool GloveParser::wanted(const std::string& word) const {
  if (filter_ && vocabulary_.count(word) != 0) return true;
  if (limit_ >= 0) return vectorLines_ <= limit_;
  return !filter_;
}

Status GloveParser::fail(Status status) {
  error_ = status;
  return status;
}

Status GloveParser::feed(const char* data, std::size_t size) {
  if (!error_.isOk()) return error_;
  if (finished_) return fail(Status::invalidArgument("feed() after finish()"));
  bytes_ += static_cast<long long>(size);
  const char* p = data;
  const char* end = data + size;
  while (p != end) {
    const char* nl =
        static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    if (nl == nullptr) {
      carry_.append(p, end);
      if (carry_.size() > kMaxLineBytes) {
        return fail(lineTooLong(line_ + 1));
      }
      break;
    }
    Status s;
    if (carry_.empty()) {
      s = processLine(p, nl);
    } else {
      carry_.append(p, nl);
      s = processLine(carry_.data(), carry_.data() + carry_.size());
      carry_.clear();
    }
    if (!s.isOk()) return fail(s);
    p = nl + 1;
  }
  return Status::ok();
}

Status GloveParser::finish() {
  if (!error_.isOk()) return error_;
  if (!finished_ && !carry_.empty()) {
    const std::string last = std::move(carry_);
    carry_.clear();
    const Status s = processLine(last.data(), last.data() + last.size());
    if (!s.isOk()) return fail(s);
  }
  finished_ = true;
  if (!sawVector_) return fail(Status::invalidValue("the file holds no word vectors"));
  return Status::ok();
}

Status GloveParser::processLine(const char* begin, const char* end) {
  const long long lineNumber = ++line_;
  if (static_cast<std::size_t>(end - begin) > kMaxLineBytes) return lineTooLong(lineNumber);
  const auto where = [lineNumber] { return "line " + std::to_string(lineNumber) + ": "; };
  if (lineNumber == 1 && end - begin >= 3 && std::memcmp(begin, "\xEF\xBB\xBF", 3) == 0) {
    begin += 3;  // UTF-8 byte order mark
  }
  while (end != begin && (isSeparator(end[-1]) || end[-1] == '\r')) --end;
  while (begin != end && isSeparator(*begin)) ++begin;
  if (begin == end) return Status::ok();  // blank line

  if (table_.dim() == 0) {
    // Count before splitting: a runaway first line must not become millions of spans.
    const std::size_t count = countFieldsUpTo(begin, end, kMaxEmbeddingDim + 2);
    if (count > static_cast<std::size_t>(kMaxEmbeddingDim) + 1) {
      return Status::invalidValue(where() + "more than " + std::to_string(kMaxEmbeddingDim) +
                                  " values after the word; vectors have at most " +
                                  std::to_string(kMaxEmbeddingDim));
    }
    const std::vector<Span> fields = splitFields(begin, end);
    if (fields.size() == 2 && isDigits(fields[0].begin, fields[0].end) &&
        isDigits(fields[1].begin, fields[1].end)) {
      // word2vec-style header "<count> <dim>".
      const long dim =
          std::strtol(std::string(fields[1].begin, fields[1].end).c_str(), nullptr, 10);
      if (dim <= 0 || dim > kMaxEmbeddingDim) {
        return Status::invalidValue(where() + "header gives an implausible dimension " +
                                    std::to_string(dim) + " (at most " +
                                    std::to_string(kMaxEmbeddingDim) + ")");
      }
      RETURN_IF_ERROR(table_.setDim(static_cast<int>(dim)));
      values_.resize(static_cast<std::size_t>(dim));
      return Status::ok();
    }
    if (fields.size() < 2) {
      return Status::invalidValue(where() + "expected a word followed by its values, found " +
                                  std::to_string(fields.size()) + " field");
    }
    RETURN_IF_ERROR(table_.setDim(static_cast<int>(fields.size() - 1)));
    values_.resize(fields.size() - 1);
  }
  const int dim = table_.dim();

  // The vector is the last `dim` fields, scanned from the right.
  std::vector<Field>& vector = fields_;
  vector.resize(static_cast<std::size_t>(dim));
  const char* p = end;
  for (int k = dim - 1; k >= 0; --k) {
    const char* fieldEnd = p;
    while (p != begin && !isSeparator(p[-1])) --p;
    const char* fieldBegin = p;
    for (const char* c = fieldBegin; c != fieldEnd; ++c) {
      if (!isNumberChar(*c)) {
        // Fewer fields than needed shows up here as a word in the value columns.
        const std::size_t found = splitFields(begin, end).size();
        if (found < static_cast<std::size_t>(dim) + 1) {
          return Status::invalidValue(where() + "expected a word and " + std::to_string(dim) +
                                      " values, found " + std::to_string(found) + " fields");
        }
        return Status::invalidValue(where() + "value " + std::to_string(k + 1) + " of " +
                                    std::to_string(dim) + " " + quoted(fieldBegin, fieldEnd) +
                                    " is not a number");
      }
    }
    vector[static_cast<std::size_t>(k)] = {fieldBegin, fieldEnd};
    while (p != begin && isSeparator(p[-1])) --p;
    if (p == begin && k > 0) {
      return Status::invalidValue(where() + "expected a word and " + std::to_string(dim) +
                                  " values, found " + std::to_string(dim - k) + " fields");
    }
  }
  if (p == begin) {
    return Status::invalidValue(where() + "expected a word and " + std::to_string(dim) +
                                " values, found only " + std::to_string(dim) +
                                " numbers (no word)");
  }
  const std::string word(begin, p);
  sawVector_ = true;
  ++vectorLines_;
  if (table_.find(word) >= 0 || !wanted(word)) return Status::ok();

  for (int k = 0; k < dim; ++k) {
    const Field& f = vector[static_cast<std::size_t>(k)];
    double value = 0;
    if (!parseDecimal(f.begin, f.end, value)) {
      return Status::invalidValue(where() + "value " + std::to_string(k + 1) + " of " +
                                  std::to_string(dim) + " " + quoted(f.begin, f.end) +
                                  " is not a number");
    }
    if (!std::isfinite(value) || std::abs(value) >= kFloat32RoundsToInfinity) {
      return Status::invalidValue(where() + "value " + std::to_string(k + 1) + " " +
                                  quoted(f.begin, f.end) + " is out of range for float32");
    }
    values_[static_cast<std::size_t>(k)] = static_cast<float>(value);
  }
  table_.add(word, values_.data());
  return Status::ok();
}

}  // namespace attention

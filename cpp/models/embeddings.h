// Word embeddings for the "attention between two sentences" chapter: a table of
// float32 word vectors, a streaming parser for GloVe text files of any release
// (6B, 42B, 840B, Twitter), the notebook's white-space tokenizer and a compact
// binary form used to ship a vocabulary with the site.
// Shapes: d = embedding size (dim), n = number of tokens looked up.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ops/status.h"
#include "ops/tensor.h"

namespace attention {

// Splits on white space exactly like Python's str.split() without arguments:
// runs of the characters for which Python's str.isspace() is true (ASCII
// \t \n \v \f \r, \x1c-\x1f, space, U+0085, U+00A0, U+1680, U+2000-U+200A,
// U+2028, U+2029, U+202F, U+205F, U+3000), no empty tokens. Input is UTF-8;
// bytes that are not valid UTF-8 are kept inside tokens unchanged.
std::vector<std::string> tokenize(const std::string& sentence);

// Lower-case form of a UTF-8 word, for the notebook's fallback lookup
// (`glove.get(token.lower())`). Maps ASCII, Latin-1 Supplement, Latin
// Extended-A, basic Greek and basic Cyrillic capitals to their lower-case
// letters (one code point to one, as Python's str.lower() does for them);
// every other code point is kept.
std::string lowerCase(const std::string& word);

// Parses a decimal number ([+-]digits[.digits][e[+-]digits], no hex, inf or
// nan) spanning exactly [begin, end) into the correctly rounded double, the
// value strtod gives. Common GloVe values (at most 19 significant digits,
// exponent within +-22) take an exact fast path; others fall back to strtod.
bool parseDecimal(const char* begin, const char* end, double& out);

// How a table is stored in the binary form (see EmbeddingTable::toBinary).
enum class BinaryEncoding : std::uint32_t {
  kFloat32 = 0,  // exact: 4 bytes per value
  kInt16 = 1,    // per-word scale: value = q * scale, scale = max|v| / 32767, |error| <= scale / 2
  kInt12 = 2     // the same with scale = max|v| / 2047, q packed in 12 bits (1.5 bytes per value)
};

// Largest vector size a table takes (GloVe and fastText use at most 300; this
// leaves room for any published embedding while refusing a runaway line).
constexpr int kMaxEmbeddingDim = 4096;

// Words and their float32 vectors (float32 like the notebook's
// np.asarray(values, dtype='float32')). Row i of the table is word i, in the
// order the words were added.
class EmbeddingTable {
 public:
  EmbeddingTable() = default;

  int dim() const { return dim_; }
  int size() const { return static_cast<int>(words_.size()); }
  // Fixes the dimension of an empty table; fails if words of another size are in it.
  Status setDim(int dim);

  // Adds `word` with values: (dim). Returns false and keeps the existing vector
  // when the word is already present (the first occurrence wins).
  bool add(const std::string& word, const float* values);

  // Row of `word` itself, or -1.
  int find(const std::string& word) const;
  // Row of `word`, else of lowerCase(word) (as the notebook looks words up), or -1.
  int indexOf(const std::string& word) const;
  bool has(const std::string& word) const { return indexOf(word) >= 0; }

  const std::string& wordAt(int row) const { return words_[static_cast<std::size_t>(row)]; }
  // Pointer to the (dim) float32 values of `row`.
  const float* rowData(int row) const {
    return values_.data() + static_cast<std::size_t>(row) * static_cast<std::size_t>(dim_);
  }

  // tokens: (n) -> out: (n x dim). A token found by indexOf() gives its vector;
  // any other token gives a zero row and is listed once in `missing`, in order.
  Status lookup(const std::vector<std::string>& tokens, Matrix& out,
                std::vector<std::string>& missing) const;

  // Free-form text describing where the vectors come from (kept in the binary form).
  const std::string& info() const { return info_; }
  void setInfo(std::string info) { info_ = std::move(info); }

  // The compact binary form (little-endian):
  //   "ATLEMB01" | u32 encoding | u32 size | u32 dim | u32 wordBytes | u32 infoBytes
  //   | info (UTF-8) | words (UTF-8, each followed by '\n') | zero padding to 4 bytes
  //   | kInt16/kInt12 only: float32 scale per word | values row-major: float32, int16, or
  //   int12 (two values a, b in three bytes: a & 0xFF, (a >> 8) | (b & 0xF) << 4, b >> 4;
  //   an odd last value in two bytes)
  Status toBinary(BinaryEncoding encoding, std::vector<std::uint8_t>& out) const;
  // Reads the binary form, validating every size; `out` is replaced on success.
  static Status fromBinary(const std::uint8_t* data, std::size_t size, EmbeddingTable& out);

 private:
  int dim_ = 0;
  std::vector<std::string> words_;
  std::vector<float> values_;  // (size x dim) row-major
  std::unordered_map<std::string, int> rows_;
  std::string info_;
};

// Streaming parser for GloVe text: one word per line followed by its values,
// separated by spaces. Feed it chunks of any size (a chunk may end in the
// middle of a line, or of a UTF-8 character); it keeps only the unfinished
// line between calls, so a 5 GB file never sits in memory.
//
//  - the dimension is the number of fields on the first line minus one (a
//    word2vec-style first line "<count> <dim>" is accepted and skipped);
//  - a UTF-8 byte order mark, CRLF line ends, trailing spaces/tabs and blank
//    lines are accepted; numbers may have exponents (1e-05);
//  - the vector is the last `dim` fields, the word is everything before them,
//    so words containing spaces (glove.840B has some) are kept whole;
//  - the first occurrence of a duplicate word wins;
//  - a line with fewer than dim + 1 fields, or a value that is not a finite
//    number representable in float32, fails with a Status naming the line
//    number (1-based, counting every line of the file). Values of words that
//    are skipped (not in the vocabulary, duplicates) are checked for their
//    characters (digits, sign, '.', 'e') but not converted.
class GloveParser {
 public:
  // Keep only these words (call once per word; the first call turns the filter on).
  void keepWord(const std::string& word);
  // Keep the words of the first `count` vector lines of the file (GloVe files
  // are sorted by frequency), plus keepWord() words wherever they are.
  // Negative: no limit.
  void setLimit(long long count) { limit_ = count; }

  Status feed(const char* data, std::size_t size);
  // Parses a last line that has no line end; fails if the file held no vector at all.
  Status finish();

  long long bytesRead() const { return bytes_; }
  long long linesRead() const { return line_; }
  int dim() const { return table_.dim(); }
  const EmbeddingTable& table() const { return table_; }
  // Moves the table out (the parser is left empty).
  EmbeddingTable takeTable() { return std::move(table_); }

 private:
  Status processLine(const char* begin, const char* end);
  Status fail(Status status);
  bool wanted(const std::string& word) const;

  EmbeddingTable table_;
  std::string carry_;  // an unfinished line from the previous chunk
  std::unordered_set<std::string> vocabulary_;
  bool filter_ = false;
  long long limit_ = -1;
  long long vectorLines_ = 0;  // lines that held a word and its vector
  long long bytes_ = 0;
  long long line_ = 0;  // lines completed so far
  bool sawVector_ = false;
  bool finished_ = false;
  Status error_;
  std::vector<float> values_;  // scratch: (dim)
  struct Field {
    const char* begin;
    const char* end;
  };
  std::vector<Field> fields_;  // scratch: the (dim) value fields of the current line
};

}  // namespace attention

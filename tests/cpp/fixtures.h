// Reads the plain-text reference files in tests/fixtures (format described in
// tests/fixtures/fixture_io.py) and compares results with a stated tolerance,
// printing the largest difference like llm.c's tests do.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

#include "ops/tensor.h"

namespace fixtures {

class File {
 public:
  explicit File(const std::string& name) {
    const std::string path = std::string(ATTENTION_FIXTURES_DIR) + "/" + name;
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open fixture " + path);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      std::string key;
      long rows = 0, cols = 0;
      fields >> key >> rows >> cols;
      attention::Matrix m(rows, cols);
      for (long i = 0; i < rows * cols; ++i) {
        std::string token;
        fields >> token;
        m.data()[i] = std::strtod(token.c_str(), nullptr);  // handles inf, -inf, nan
      }
      entries_[key] = m;
    }
  }

  const attention::Matrix& matrix(const std::string& key) const {
    auto it = entries_.find(key);
    if (it == entries_.end()) throw std::runtime_error("fixture has no entry " + key);
    return it->second;
  }
  attention::Vector vector(const std::string& key) const {
    const attention::Matrix& m = matrix(key);
    return Eigen::Map<const attention::Vector>(m.data(), m.size());
  }
  double scalar(const std::string& key) const { return matrix(key)(0, 0); }

 private:
  std::map<std::string, attention::Matrix> entries_;
};

// Largest |got - want| / max(floor, |want|) over all entries; equal infinities
// count as 0. floor = 1 mixes absolute (small values) and relative (large)
// error; floor = DBL_MIN is a strict relative error, for tiny softmax weights.
template <typename A, typename B>
double maxRelativeDifference(const A& got, const B& want, double floor = 1.0) {
  REQUIRE(got.size() == want.size());
  double worst = 0;
  for (Eigen::Index i = 0; i < got.size(); ++i) {
    const double g = got.data()[i], w = want.data()[i];
    if (g == w) continue;  // includes matching infinities
    if (std::isnan(g) || std::isnan(w) || std::isinf(g) || std::isinf(w)) return INFINITY;
    worst = std::max(worst, std::abs(g - w) / std::max(floor, std::abs(w)));
  }
  return worst;
}

// Prints the max difference and checks it against `tolerance`:
// CHECK_CLOSE with |d| / max(1, |want|), CHECK_RELATIVE with |d| / |want|.
#define CHECK_DIFF_(got, want, tolerance, floor)                                            \
  do {                                                                                      \
    const double diff_ = ::fixtures::maxRelativeDifference(got, want, floor);               \
    INFO(#got << " vs reference: max difference " << diff_ << " (tolerance " << (tolerance) \
              << ")");                                                                      \
    CHECK(diff_ <= (tolerance));                                                            \
  } while (false)
#define CHECK_CLOSE(got, want, tolerance) CHECK_DIFF_(got, want, tolerance, 1.0)
#define CHECK_RELATIVE(got, want, tolerance) \
  CHECK_DIFF_(got, want, tolerance, std::numeric_limits<double>::min())

}  // namespace fixtures

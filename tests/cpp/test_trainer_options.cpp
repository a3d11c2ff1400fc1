// The checks the generated options headers (cpp/models/*_options.h) call, at
// and beside each bound, and the generated validators' first failure. The
// per-option cases made from the table run through the built package in
// tests/js/trainer-options.test.mjs.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "models/seq2seq_options.h"
#include "models/transformer_options.h"

using namespace attention;

TEST_CASE("trainer options: oneOf lists the allowed names and the value", "[trainer]") {
  static const char* const kAllowed[] = {"warmup", "constant"};
  CHECK(training::oneOf("schedule", "constant", kAllowed, 2).isOk());
  const Status s = training::oneOf("schedule", "Warmup", kAllowed, 2);
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message == "schedule must be one of 'warmup', 'constant', got 'Warmup'");
  CHECK(!training::oneOf("schedule", "", kAllowed, 2).isOk());
}

TEST_CASE("trainer options: numberInRange keeps open ends open and refuses NaN", "[trainer]") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(training::numberInRange("x", 1, 0, true, 1, false).isOk());
  CHECK(training::numberInRange("x", 1e-300, 0, true, 1, false).isOk());
  CHECK(training::numberInRange("x", 0, 0, true, 1, false).message == "x must be in (0, 1], got 0");
  CHECK(training::numberInRange("x", 0, 0, false, 1, true).isOk());
  CHECK(training::numberInRange("x", 1, 0, false, 1, true).message == "x must be in [0, 1), got 1");
  CHECK(training::numberInRange("x", std::nan(""), 0, false, 1, false).message ==
        "x must be in [0, 1], got NaN");
  CHECK(!training::numberInRange("x", inf, 0, true, 10, false).isOk());
  CHECK(!training::numberInRange("x", -inf, 0, false, 10, false).isOk());
}

TEST_CASE("trainer options: even and divides", "[trainer]") {
  CHECK(training::even("dModel", 2, "pairs").isOk());
  CHECK(training::even("dModel", 3, "pairs").message == "dModel must be even (pairs), got 3");
  CHECK(training::even("dModel", -3, "pairs").code == StatusCode::kInvalidValue);
  CHECK(training::divides("heads", 16, "dModel", 32).isOk());
  CHECK(training::divides("heads", 3, "dModel", 32).message == "heads = 3 must divide dModel = 32");
}

TEST_CASE("trainer options: the generated defaults pass, the first bad option is named",
          "[trainer]") {
  CHECK(validateSeq2SeqOptions(Seq2SeqOptions{}).isOk());
  CHECK(validateTransformerOptions(TransformerOptions{}).isOk());
  Seq2SeqOptions s;
  s.hidden = 257;
  s.learningRate = 2;  // also bad, but hidden comes first in the table
  CHECK(validateSeq2SeqOptions(s).message == "hidden must be an integer in [1, 256], got 257");
  s = {};
  s.attention = "luong";
  CHECK(validateSeq2SeqOptions(s).message ==
        "attention must be one of 'bahdanau', 'luong-dot', 'luong-general', 'luong-concat', got "
        "'luong'");
  TransformerOptions t;
  t.heads = 3;  // does not divide 32, but dFF's range is checked first
  t.dFF = 0;
  CHECK(validateTransformerOptions(t).message == "dFF must be an integer in [1, 1024], got 0");
  t.dFF = 64;
  CHECK(validateTransformerOptions(t).message == "heads = 3 must divide dModel = 32");
}

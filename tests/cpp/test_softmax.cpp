// The one softmax (cpp/ops/softmax.h) with its teaching relatives logSoftmax
// and naiveSoftmax, and the one-query attention forms around it (dot,
// dotScores, scaleRows, weightedSum): the first notebook's printed numbers and
// NumPy (longdouble) references from tests/fixtures/basics.txt; then the row
// softmax's mask, causal limit, scale and underflow.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "fixtures.h"
#include "ops/attention.h"
#include "ops/softmax.h"

using namespace attention;

namespace {

const fixtures::File& basics() {
  static const fixtures::File file("basics.txt");
  return file;
}

Vector vec(std::initializer_list<double> values) {
  Vector v(values.size());
  Eigen::Index i = 0;
  for (double x : values) v[i++] = x;
  return v;
}

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

const Vector kDecoderState = vec({5, 1, 20});
Matrix notebookAnnotations() {
  Matrix m(4, 3);
  m << 3, 12, 45, 59, 2, 5, 1, 43, 5, 4, 3, 45.3;  // one annotation per row
  return m;
}

}  // namespace

TEST_CASE("notebook: dot score of one annotation is 927", "[basics][notebook]") {
  double score = 0;
  REQUIRE(dot(kDecoderState, vec({3, 12, 45}), score).isOk());
  CHECK(score == 927.0);  // integers: exact
}

TEST_CASE("notebook: scores of all annotations are [927, 397, 148, 929]", "[basics][notebook]") {
  Vector scores;
  REQUIRE(dotScores(kDecoderState, notebookAnnotations(), scores).isOk());
  CHECK(scores == vec({927, 397, 148, 929}));  // exact: small integers and 45.3 * 20 = 906
}

TEST_CASE("notebook: softmax weights match the printed 0.11920292 ... 0.88079708",
          "[basics][notebook]") {
  Vector weights;
  REQUIRE(softmax(vec({927, 397, 148, 929}), weights).isOk());
  // The notebook prints 8 significant digits (float128).
  CHECK(weights[0] == Approx(0.11920292).epsilon(1e-7));
  CHECK(weights[1] == Approx(7.9471515e-232).epsilon(1e-7));
  CHECK(weights[2] == 0.0);  // 5.77e-340 is below the smallest double
  CHECK(weights[3] == Approx(0.88079708).epsilon(1e-7));
  CHECK_RELATIVE(weights, basics().vector("notebook.softmax"), 1e-12);
}

TEST_CASE("notebook: the underflowed weight survives in log space as 5.7661442e-340",
          "[basics][notebook]") {
  Vector logWeights;
  REQUIRE(logSoftmax(vec({927, 397, 148, 929}), logWeights).isOk());
  const double log10Weight = logWeights[2] / std::log(10.0);
  CHECK(log10Weight == Approx(basics().scalar("notebook.third_weight_log10")).epsilon(1e-12));
  const double exponent = std::floor(log10Weight);
  const double mantissa = std::pow(10.0, log10Weight - exponent);
  CHECK(exponent == -340);
  CHECK(mantissa == Approx(5.7661442).epsilon(1e-7));  // the notebook's float128 digits
  CHECK_CLOSE(logWeights, basics().vector("notebook.log_softmax"), 1e-12);
}

TEST_CASE("notebook: the naive formula overflows to NaN in float64", "[basics][notebook]") {
  Vector weights;
  REQUIRE(naiveSoftmax(vec({927, 397, 148, 929}), weights).isOk());
  CHECK(std::isnan(weights[0]));  // exp(927) = inf, inf / inf = NaN
  CHECK(std::isnan(weights[3]));
  Vector stable;  // for small scores both formulas agree
  REQUIRE(naiveSoftmax(vec({1, 2, 3}), weights).isOk());
  REQUIRE(softmax(vec({1, 2, 3}), stable).isOk());
  CHECK_RELATIVE(weights, stable, 1e-15);
}

TEST_CASE("notebook: weighted annotations and context vector [3.8807971, 4.0728263, 45.264239]",
          "[basics][notebook]") {
  const Vector weights = basics().vector("notebook.softmax");
  Matrix applied;
  REQUIRE(scaleRows(weights, notebookAnnotations(), applied).isOk());
  CHECK_CLOSE(applied, basics().matrix("notebook.scaled_rows"), 1e-12);
  Vector context;
  REQUIRE(weightedSum(weights, notebookAnnotations(), context).isOk());
  CHECK(context[0] == Approx(3.8807971).epsilon(1e-7));
  CHECK(context[1] == Approx(4.0728263).epsilon(1e-7));
  CHECK(context[2] == Approx(45.264239).epsilon(1e-7));
  CHECK_CLOSE(context, basics().vector("notebook.context"), 1e-9);
}

TEST_CASE("random cases match NumPy longdouble references", "[basics][fixtures]") {
  for (int i = 0; i < 6; ++i) {
    const std::string p = "random" + std::to_string(i) + ".";
    SECTION(p) {
      const Vector query = basics().vector(p + "query");
      const Matrix keys = basics().matrix(p + "keys");
      Vector scores, weights, logWeights, context;
      Matrix applied;
      REQUIRE(dotScores(query, keys, scores).isOk());
      CHECK_CLOSE(scores, basics().vector(p + "scores"), 1e-12);
      REQUIRE(softmax(scores, weights).isOk());
      CHECK_RELATIVE(weights, basics().vector(p + "softmax"), 1e-12);
      REQUIRE(logSoftmax(scores, logWeights).isOk());
      CHECK_CLOSE(logWeights, basics().vector(p + "log_softmax"), 1e-12);
      REQUIRE(scaleRows(weights, keys, applied).isOk());
      CHECK_CLOSE(applied, basics().matrix(p + "scaled_rows"), 1e-12);
      REQUIRE(weightedSum(weights, keys, context).isOk());
      CHECK_CLOSE(context, basics().vector(p + "context"), 1e-12);
    }
  }
}

TEST_CASE("softmax edge cases: huge values, masks, ties, one entry", "[basics][edge]") {
  for (const char* name : {"huge", "masked", "all_equal", "single", "tiny_gaps", "wide"}) {
    const std::string p = std::string("edge.") + name + ".";
    SECTION(p) {
      Vector weights, logWeights;
      REQUIRE(softmax(basics().vector(p + "x"), weights).isOk());
      CHECK_RELATIVE(weights, basics().vector(p + "softmax"), 1e-12);
      CHECK(weights.sum() == Approx(1.0).epsilon(1e-15));
      REQUIRE(logSoftmax(basics().vector(p + "x"), logWeights).isOk());
      CHECK_CLOSE(logWeights, basics().vector(p + "log_softmax"), 1e-12);
    }
  }
}

TEST_CASE("softmax: a fully masked row gives zero weights, not NaN", "[basics][edge]") {
  Vector weights, logWeights;
  REQUIRE(softmax(vec({-kInf, -kInf}), weights).isOk());
  CHECK(weights == vec({0, 0}));
  REQUIRE(logSoftmax(vec({-kInf, -kInf}), logWeights).isOk());
  CHECK(logWeights == vec({-kInf, -kInf}));
}

TEST_CASE("validation: shapes and values are reported, naming the argument",
          "[basics][validation]") {
  double score = 0;
  Vector out;
  Matrix applied;

  Status s = dot(vec({1, 2}), vec({1, 2, 3}), score);
  CHECK(s.code == StatusCode::kShapeMismatch);
  CHECK(s.message == "a has 2 entries but b has 3");

  s = dotScores(vec({1, 2}), notebookAnnotations(), out);
  CHECK(s.code == StatusCode::kShapeMismatch);
  CHECK(s.message == "query has 2 entries but keys have 3 columns (keys is 4x3)");

  s = dotScores(Vector(), notebookAnnotations(), out);
  CHECK(s.code == StatusCode::kShapeMismatch);
  CHECK(s.message == "query is empty");

  s = softmax(Vector(), out);
  CHECK(s.code == StatusCode::kShapeMismatch);

  s = softmax(vec({1, kNaN}), out);
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message == "x[1] is NaN; entries must be finite or -Infinity (a masked position)");

  s = softmax(vec({kInf, 1}), out);
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message.find("x[0] is Infinity") == 0);

  s = weightedSum(vec({0.5, 0.5}), notebookAnnotations(), out);
  CHECK(s.code == StatusCode::kShapeMismatch);
  CHECK(s.message == "weights has 2 entries but values has 4 rows (values is 4x3)");

  s = scaleRows(vec({1, 0, 0, -kInf}), notebookAnnotations(), applied);
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message.find("weights[3] is -Infinity") == 0);

  Matrix withNaN = notebookAnnotations();
  withNaN(2, 1) = kNaN;
  s = dotScores(kDecoderState, withNaN, out);
  CHECK(s.code == StatusCode::kInvalidValue);
  CHECK(s.message == "keys[2][1] is NaN; every entry must be a finite number");
}

// ---- the one row softmax: mask, causal, scale, underflow -------------------------------

namespace {

// softmax(scale * x) over the allowed entries, written out with libm's exp.
Matrix referenceRows(const Matrix& x, const Matrix* mask, bool causal, double scale) {
  Matrix w = Matrix::Zero(x.rows(), x.cols());
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    double max = -kInf;
    const auto allowed = [&](Eigen::Index j) {
      return (!causal || j <= i) && (!mask || (*mask)(i, j) != 0.0);
    };
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      if (allowed(j)) max = std::max(max, scale * x(i, j));
    }
    if (max == -kInf) continue;
    double sum = 0;
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      if (allowed(j)) sum += w(i, j) = std::exp(scale * x(i, j) - max);
    }
    w.row(i) /= sum;
  }
  return w;
}

}  // namespace

TEST_CASE("softmaxRows: mask, causal and scale against libm's exp to 1e-14 relative", "[softmax]") {
  Matrix x(5, 7);
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = std::sin(1.7 * i) * 30.0;
  Matrix mask = Matrix::Ones(5, 7);
  mask(0, 0) = mask(1, 3) = mask(2, 6) = mask(4, 0) = mask(4, 1) = 0;
  for (int j = 0; j < 7; ++j) mask(3, j) = 0;  // row 3: nothing to attend
  for (bool causal : {false, true}) {
    for (bool masked : {false, true}) {
      for (double scale : {1.0, 0.125, 3.0}) {
        AttentionMask m;
        if (masked) m.mask.emplace(mask);
        m.causal = causal;
        Matrix w;
        REQUIRE(softmaxRows(x, m, scale, w).isOk());
        const Matrix want = referenceRows(x, masked ? &mask : nullptr, causal, scale);
        INFO("causal " << causal << ", masked " << masked << ", scale " << scale);
        CHECK_RELATIVE(w, want, 1e-14);
        // Masked and causal entries are exactly 0; a row with nothing allowed is all 0.
        for (Eigen::Index i = 0; i < w.rows(); ++i) {
          for (Eigen::Index j = 0; j < w.cols(); ++j) {
            if ((causal && j > i) || (masked && mask(i, j) == 0)) CHECK(w(i, j) == 0.0);
          }
        }
        if (masked) CHECK(w.row(3).isZero(0));
        CHECK_FALSE(w.hasNaN());
      }
    }
  }
}

TEST_CASE("softmax underflows like libm: exp(-781) is 0, subnormals are right", "[softmax]") {
  Vector w;
  REQUIRE(softmax(vec({0, -781, -740, -1e300}), w).isOk());
  CHECK(w[1] == 0.0);  // Eigen's vectorised exp would give ~1e-308 here
  CHECK(w[3] == 0.0);
  CHECK(w[2] == std::exp(-740.0));  // a subnormal: 4.2e-322, correctly rounded
  CHECK(w[0] == 1.0);
  // The vector softmax is one row of softmaxRows.
  const Vector x = vec({927, 397, 148, 929});
  Matrix row(1, 4), rows;
  row.row(0) = x.transpose();
  REQUIRE(softmax(x, w).isOk());
  REQUIRE(softmaxRows(row, AttentionMask{}, 1.0, rows).isOk());
  for (int j = 0; j < 4; ++j) CHECK(rows(0, j) == w[j]);
}

TEST_CASE("float64 exp: within 2 ulp of expl rounded to double, zero exactly where it rounds to 0",
          "[softmax]") {
  // expNonPositive(double), the softmax kernel's exp (both of its forms:
  // arguments >= -708 and below), against long double expl rounded once to
  // double: 2e6 random arguments in [-760, 0] plus the ends of its ranges.
  // Tolerance: 2 ulp, counted as doubles between the two results (so also
  // meaningful for subnormals).
  const auto ulps = [](double a, double b) {
    std::int64_t ia, ib;
    std::memcpy(&ia, &a, sizeof ia);
    std::memcpy(&ib, &b, sizeof ib);
    return ia > ib ? ia - ib : ib - ia;  // both >= 0: bit patterns order like values
  };
  std::mt19937_64 rng(708);
  std::uniform_real_distribution<double> argument(-760.0, 0.0);
  std::int64_t worst = 0;
  double worstX = 0;
  long zeroMismatches = 0, subnormals = 0;
  const auto check = [&](double x) {
    const double got = expNonPositive(x);
    const double want = static_cast<double>(std::exp(static_cast<long double>(x)));
    if ((got == 0.0) != (want == 0.0)) ++zeroMismatches;
    if (want != 0.0 && want < std::numeric_limits<double>::min()) ++subnormals;
    if (ulps(got, want) > worst) {
      worst = ulps(got, want);
      worstX = x;
    }
  };
  for (int i = 0; i < 2000000; ++i) check(argument(rng));
  for (double x : {0.0, -0.0, -708.0, std::nextafter(-708.0, 0.0), std::nextafter(-708.0, -1.0),
                   -745.13, -745.14, -746.0, -1e300}) {
    check(x);
  }
  INFO("worst " << worst << " ulp at x = " << worstX);
  CHECK(worst <= 2);
  CHECK(zeroMismatches == 0);
  CHECK(subnormals > 1000);  // the subnormal range was exercised
  CHECK(expNonPositive(-kInf) == 0.0);
  CHECK(expNonPositive(0.0) == 1.0);
}

TEST_CASE("softmaxRows validation", "[softmax][validation]") {
  Matrix w;
  Matrix x = Matrix::Ones(2, 3);
  CHECK(softmaxRows(Matrix(0, 3), AttentionMask{}, 1.0, w).message == "scores is empty (0x3)");
  AttentionMask m;
  const Matrix badShape = Matrix::Ones(3, 3);
  m.mask.emplace(badShape);
  CHECK(softmaxRows(x, m, 1.0, w).message == "mask is 3x3 but must be 2x3 (queries x keys)");
  Matrix notBinary = Matrix::Ones(2, 3);
  notBinary(1, 2) = 0.5;
  m.mask.reset();
  m.mask.emplace(notBinary);
  CHECK(softmaxRows(x, m, 1.0, w).code == StatusCode::kInvalidValue);
  x(0, 1) = NAN;
  CHECK(softmaxRows(x, AttentionMask{}, 1.0, w).message ==
        "scores[0][1] is NaN; every entry must be a finite number");
}

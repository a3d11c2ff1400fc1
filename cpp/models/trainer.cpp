#include "trainer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attention {

void Adam::reset(Eigen::Index size) {
  m_ = Vector::Zero(size);
  v_ = Vector::Zero(size);
  t_ = 0;
}

void Adam::step(const AdamSettings& s, double rate, Vector& gradient, Vector& params) {
  if (s.clipNorm > 0) {
    const double norm = gradient.norm();
    if (norm > s.clipNorm) gradient *= s.clipNorm / norm;
  }
  ++t_;
  m_ = s.beta1 * m_ + (1 - s.beta1) * gradient;
  v_ = s.beta2 * v_ + (1 - s.beta2) * gradient.cwiseAbs2();
  const double c1 = 1 - std::pow(s.beta1, static_cast<double>(t_));
  const double c2 = 1 - std::pow(s.beta2, static_cast<double>(t_));
  params.array() -= rate * (m_.array() / c1) / ((v_.array() / c2).sqrt() + s.epsilon);
}

namespace training {

namespace {
constexpr int kMaxTrainSteps = 100000;
}

Status notInitialised() { return Status::invalidArgument("the trainer is not initialised"); }

Status intInRange(const char* name, int value, int lo, int hi) {
  if (value < lo || value > hi) {
    return Status::invalidValue(std::string(name) + " must be an integer in [" +
                                std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
                                std::to_string(value));
  }
  return Status::ok();
}

std::string shown(double x) {
  if (std::isnan(x)) return "NaN";  // as JS says it
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

Status oneOf(const char* name, const std::string& value, const char* const* allowed,
             std::size_t count) {
  std::string list;
  for (std::size_t i = 0; i < count; ++i) {
    if (value == allowed[i]) return Status::ok();
    list += (i ? ", '" : "'") + std::string(allowed[i]) + "'";
  }
  return Status::invalidValue(std::string(name) + " must be one of " + list + ", got '" + value +
                              "'");
}

Status numberInRange(const char* name, double value, double lo, bool loOpen, double hi,
                     bool hiOpen) {
  const bool above = loOpen ? value > lo : value >= lo;
  const bool below = hiOpen ? value < hi : value <= hi;
  if (above && below) return Status::ok();  // NaN is neither
  return Status::invalidValue(std::string(name) + " must be in " + (loOpen ? "(" : "[") +
                              shown(lo) + ", " + shown(hi) + (hiOpen ? ")" : "]") + ", got " +
                              shown(value));
}

Status even(const char* name, int value, const char* why) {
  if (value % 2 == 0) return Status::ok();
  return Status::invalidValue(std::string(name) + " must be even (" + why + "), got " +
                              std::to_string(value));
}

Status divides(const char* name, int value, const char* otherName, int other) {
  if (other % value == 0) return Status::ok();
  return Status::invalidValue(std::string(name) + " = " + std::to_string(value) + " must divide " +
                              otherName + " = " + std::to_string(other));
}

Status checkSteps(int steps, int batch, double perStep, double maxWork, const std::string& sizes) {
  if (steps < 1 || steps > kMaxTrainSteps) {
    return Status::invalidValue("steps must be an integer in [1, " +
                                std::to_string(kMaxTrainSteps) + "], got " + std::to_string(steps));
  }
  // No call may block a thread for hours; longer training is a loop of calls,
  // which also lets a page stay responsive and stop between them.
  if (steps * perStep > maxWork) {
    const int most = std::max(1, static_cast<int>(maxWork / perStep));
    return Status::invalidValue(
        "steps = " + std::to_string(steps) + " with batch " + std::to_string(batch) + sizes +
        " is more work than one call may do (at most " + std::to_string(most) +
        " steps with these options); train in a loop of shorter calls");
  }
  return Status::ok();
}

Status checkStepSize(int batch, double perExample, double maxWork, double bytesPerExample,
                     double maxBytes, const std::string& sizes) {
  const double work = batch * perExample;
  const double bytes = batch * bytesPerExample;
  if (work <= maxWork && bytes <= maxBytes) return Status::ok();
  const int most = std::max(
      1, static_cast<int>(std::min(maxWork / perExample,
                                   bytesPerExample > 0 ? maxBytes / bytesPerExample : maxWork)));
  return Status::invalidValue("batch " + std::to_string(batch) + sizes +
                              " is more than one training step may do (at most batch " +
                              std::to_string(most) + " with these sizes)");
}

Status checkEvaluateCount(int n, std::size_t heldOut, double perExample, double maxWork,
                          const std::string& sizes) {
  if (n < 1 || n > static_cast<int>(heldOut)) {
    return Status::invalidValue("n must be an integer in [1, " + std::to_string(heldOut) +
                                "] (the held-out set's size), got " + std::to_string(n));
  }
  if (n * perExample > maxWork) {
    const int most = std::max(1, static_cast<int>(maxWork / perExample));
    return Status::invalidValue(
        "n = " + std::to_string(n) + " with" + sizes.substr(1) +
        " is more work than one call may do (at most " + std::to_string(most) +
        " examples with these options); evaluate in a loop of shorter calls");
  }
  return Status::ok();
}

std::string tokensToText(const std::vector<int>& tokens, const std::string& alphabet) {
  std::string text;
  for (int id : tokens) text += id >= 2 ? alphabet[id - 2] : '?';
  return text;
}

}  // namespace training
}  // namespace attention

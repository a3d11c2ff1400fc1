// Status codes shared by the core and the binding layer. The JS wrapper maps
// each code to an Error class (see web/src/api/errors.js), so keep the two in step.
#pragma once

#include <string>
#include <utility>

namespace attention {

enum class StatusCode : int {
  kOk = 0,
  kShapeMismatch = 1,    // sizes that disagree or are empty     -> RangeError
  kInvalidValue = 2,     // NaN, +/-Infinity where not allowed    -> RangeError
  kInvalidArgument = 3,  // anything else the caller got wrong    -> TypeError
  kOutOfMemory = 4       // the result does not fit in memory     -> RangeError
};

// The JS Error class each code becomes (the binding layer exports this, so the
// JS side copies no table by hand).
inline const char* errorClassOf(StatusCode code) {
  return code == StatusCode::kInvalidArgument ? "TypeError" : "RangeError";
}

struct Status {
  StatusCode code = StatusCode::kOk;
  std::string message;

  static Status ok() { return {}; }
  static Status shapeMismatch(std::string m) { return {StatusCode::kShapeMismatch, std::move(m)}; }
  static Status invalidValue(std::string m) { return {StatusCode::kInvalidValue, std::move(m)}; }
  static Status invalidArgument(std::string m) {
    return {StatusCode::kInvalidArgument, std::move(m)};
  }
  static Status outOfMemory(std::string m) { return {StatusCode::kOutOfMemory, std::move(m)}; }
  bool isOk() const { return code == StatusCode::kOk; }
};

}  // namespace attention

// Propagates a non-OK Status to the caller.
#define RETURN_IF_ERROR(expr)             \
  do {                                    \
    ::attention::Status status_ = (expr); \
    if (!status_.isOk()) return status_;  \
  } while (false)

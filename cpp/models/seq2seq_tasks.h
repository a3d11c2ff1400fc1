// Character-level translation tasks for the seq2seq trainer.
//
//   dates:    human-written dates in many formats ("21 November 2026",
//             "nov 21, 2026", "Saturday 21/11/26", "2026 Nov 21st", ...) to ISO
//             "2026-11-21"; dates from 1950-01-01 to 2049-12-31.
//   reverse:  a string of 3 to 12 digits to the same digits reversed.
//   sort:     a string of 5 to 10 digits to the same digits in ascending order
//             (each output character must be found by its value, wherever it
//             is in the input: content-based attention, where reverse needs
//             only positions).
//
// Each task owns a fixed held-out set (drawn with a fixed seed, the same for
// every trainer) and draws training examples with the trainer's generator,
// never producing a held-out example: for dates no held-out *calendar day*
// ever appears in training, in any format; for reverse no held-out string does;
// for sort no held-out target does (so no reordering of a held-out input either).
#pragma once

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "ops/random_state.h"
#include "ops/status.h"

namespace attention {

struct Seq2SeqExample {
  std::string input;
  std::string target;
};

class Seq2SeqTask {
 public:
  virtual ~Seq2SeqTask() = default;

  const std::string& name() const { return name_; }
  // Every character an input may contain (printable ASCII only).
  const std::string& inputAlphabet() const { return inputAlphabet_; }
  // Every character an output may contain.
  const std::string& outputAlphabet() const { return outputAlphabet_; }
  int maxInputLength() const { return maxInputLength_; }
  int maxOutputLength() const { return maxOutputLength_; }
  const std::vector<Seq2SeqExample>& heldOut() const { return heldOut_; }

  // A training example; never one of the held-out set.
  virtual Seq2SeqExample draw(RandomState& rng) const = 0;

  // Checks that `input` is 1..maxInputLength characters from inputAlphabet;
  // the message names `what`, the position and the character.
  Status validateInput(const std::string& input, const char* what) const;

 protected:
  std::string name_, inputAlphabet_, outputAlphabet_;
  int maxInputLength_ = 0, maxOutputLength_ = 0;
  std::vector<Seq2SeqExample> heldOut_;
};

// Ok for "dates", "reverse" or "sort"; anything else is an invalidValue status naming them.
Status checkSeq2SeqTaskName(const std::string& name);

// The task called `name` (checked by checkSeq2SeqTaskName).
Status makeSeq2SeqTask(const std::string& name, std::unique_ptr<Seq2SeqTask>& out);

constexpr int kHeldOutSize = 1000;

// ---- date helpers, exposed for tests ----

// Days since 1970-01-01 of a proleptic Gregorian date, and back.
long daysFromCivil(int year, int month, int day);
void civilFromDays(long days, int& year, int& month, int& day);
// 0 = Monday ... 6 = Sunday.
int weekday(int year, int month, int day);

// Number of date formats, and format `f` (0 <= f < count) of a date with a
// given letter case (0 = lower, 1 = Title, 2 = UPPER) and zero-padding choice.
int dateFormatCount();
std::string formatDate(int format, int year, int month, int day, int letterCase, bool padDay);

}  // namespace attention

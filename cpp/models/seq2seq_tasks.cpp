#include "seq2seq_tasks.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace attention {

namespace {

const char* const kMonths[12] = {"january",   "february", "march",    "april",
                                 "may",       "june",     "july",     "august",
                                 "september", "october",  "november", "december"};
const char* const kDays[7] = {"monday", "tuesday",  "wednesday", "thursday",
                              "friday", "saturday", "sunday"};

std::string applyCase(std::string word, int letterCase) {
  if (letterCase == 2) {
    for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  } else if (letterCase == 1 && !word.empty()) {
    word[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(word[0])));
  }
  return word;
}

std::string two(int x) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02d", x % 100);
  return buf;
}

std::string ordinal(int day) {
  const int lastTwo = day % 100, last = day % 10;
  const char* suffix = "th";
  if (lastTwo < 11 || lastTwo > 13) {
    if (last == 1) suffix = "st";
    if (last == 2) suffix = "nd";
    if (last == 3) suffix = "rd";
  }
  return std::to_string(day) + suffix;
}

constexpr int kFormats = 22;

constexpr int kFirstYear = 1950, kLastYear = 2049;

std::string iso(int year, int month, int day) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", year, month, day);
  return buf;
}

class DatesTask : public Seq2SeqTask {
 public:
  DatesTask() {
    name_ = "dates";
    for (char c = 'a'; c <= 'z'; ++c) inputAlphabet_ += c;
    for (char c = 'A'; c <= 'Z'; ++c) inputAlphabet_ += c;
    inputAlphabet_ += "0123456789 ,./-";
    outputAlphabet_ = "0123456789-";
    maxInputLength_ = 40;
    maxOutputLength_ = 10;
    first_ = daysFromCivil(kFirstYear, 1, 1);
    count_ = daysFromCivil(kLastYear, 12, 31) - first_ + 1;
    heldOutDay_.assign(static_cast<std::size_t>(count_), false);
    RandomState rng(20261121u);  // fixed: the same held-out set for every trainer
    while (static_cast<int>(heldOut_.size()) < kHeldOutSize) {
      const long d = rng.below(static_cast<std::uint32_t>(count_));
      if (heldOutDay_[static_cast<std::size_t>(d)]) continue;
      heldOutDay_[static_cast<std::size_t>(d)] = true;
      heldOut_.push_back(render(first_ + d, rng));
    }
  }

  Seq2SeqExample draw(RandomState& rng) const override {
    for (;;) {
      const long d = rng.below(static_cast<std::uint32_t>(count_));
      if (!heldOutDay_[static_cast<std::size_t>(d)]) return render(first_ + d, rng);
    }
  }

 private:
  static Seq2SeqExample render(long days, RandomState& rng) {
    int y = 0, m = 0, d = 0;
    civilFromDays(days, y, m, d);
    const int format = static_cast<int>(rng.below(kFormats));
    const std::uint32_t c = rng.below(5);  // lower 2/5, Title 2/5, UPPER 1/5
    const int letterCase = c < 2 ? 0 : (c < 4 ? 1 : 2);
    const bool padDay = rng.below(2) == 1;
    return {formatDate(format, y, m, d, letterCase, padDay), iso(y, m, d)};
  }

  long first_ = 0, count_ = 0;
  std::vector<bool> heldOutDay_;
};

class ReverseTask : public Seq2SeqTask {
 public:
  ReverseTask() {
    name_ = "reverse";
    inputAlphabet_ = outputAlphabet_ = "0123456789";
    maxInputLength_ = maxOutputLength_ = 12;
    RandomState rng(12345u);  // fixed held-out set
    while (static_cast<int>(heldOut_.size()) < kHeldOutSize) {
      Seq2SeqExample e = make(rng);
      if (held_.insert(e.input).second) heldOut_.push_back(std::move(e));
    }
  }

  Seq2SeqExample draw(RandomState& rng) const override {
    for (;;) {
      Seq2SeqExample e = make(rng);
      if (held_.count(e.input) == 0) return e;
    }
  }

 private:
  static Seq2SeqExample make(RandomState& rng) {
    const int length = 3 + static_cast<int>(rng.below(10));  // 3..12
    Seq2SeqExample e;
    for (int i = 0; i < length; ++i) e.input += static_cast<char>('0' + rng.below(10));
    e.target.assign(e.input.rbegin(), e.input.rend());
    return e;
  }

  std::unordered_set<std::string> held_;
};

class SortTask : public Seq2SeqTask {
 public:
  SortTask() {
    name_ = "sort";
    inputAlphabet_ = outputAlphabet_ = "0123456789";
    maxInputLength_ = maxOutputLength_ = 10;
    RandomState rng(20261122u);  // fixed held-out set
    while (static_cast<int>(heldOut_.size()) < kHeldOutSize) {
      Seq2SeqExample e = make(rng);
      if (heldTargets_.insert(e.target).second) heldOut_.push_back(std::move(e));
    }
  }

  // Rejects by target: the answer depends only on which digits occur, so no
  // arrangement of a held-out input's digits is ever trained on.
  Seq2SeqExample draw(RandomState& rng) const override {
    for (;;) {
      Seq2SeqExample e = make(rng);
      if (heldTargets_.count(e.target) == 0) return e;
    }
  }

 private:
  static Seq2SeqExample make(RandomState& rng) {
    const int length = 5 + static_cast<int>(rng.below(6));  // 5..10
    Seq2SeqExample e;
    for (int i = 0; i < length; ++i) e.input += static_cast<char>('0' + rng.below(10));
    e.target = e.input;
    std::sort(e.target.begin(), e.target.end());
    return e;
  }

  std::unordered_set<std::string> heldTargets_;
};

std::string describeChar(unsigned char c) {
  if (c >= 32 && c < 127) return std::string("'") + static_cast<char>(c) + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02X", c);
  return buf;
}

}  // namespace

Status Seq2SeqTask::validateInput(const std::string& input, const char* what) const {
  if (input.empty()) return Status::shapeMismatch(std::string(what) + " is empty");
  if (static_cast<int>(input.size()) > maxInputLength_) {
    return Status::shapeMismatch(std::string(what) + " has " + std::to_string(input.size()) +
                                 " characters but the " + name_ + " task allows at most " +
                                 std::to_string(maxInputLength_));
  }
  for (std::size_t i = 0; i < input.size(); ++i) {
    if (inputAlphabet_.find(input[i]) == std::string::npos) {
      return Status::invalidValue(std::string(what) + " has " +
                                  describeChar(static_cast<unsigned char>(input[i])) +
                                  " at position " + std::to_string(i) + ", which the " + name_ +
                                  " task does not know (allowed: " + inputAlphabet_ + ")");
    }
  }
  return Status::ok();
}

Status checkSeq2SeqTaskName(const std::string& name) {
  if (name == "dates" || name == "reverse" || name == "sort") return Status::ok();
  return Status::invalidValue("task must be one of 'dates', 'reverse', 'sort', got '" + name + "'");
}

Status makeSeq2SeqTask(const std::string& name, std::unique_ptr<Seq2SeqTask>& out) {
  RETURN_IF_ERROR(checkSeq2SeqTaskName(name));
  if (name == "dates") {
    out = std::make_unique<DatesTask>();
  } else if (name == "reverse") {
    out = std::make_unique<ReverseTask>();
  } else {
    out = std::make_unique<SortTask>();
  }
  return Status::ok();
}

// Howard Hinnant's days_from_civil / civil_from_days.
long daysFromCivil(int year, int month, int day) {
  const long y = year - (month <= 2 ? 1 : 0);
  const long era = (y >= 0 ? y : y - 399) / 400;
  const long yoe = y - era * 400;
  const long doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

void civilFromDays(long days, int& year, int& month, int& day) {
  days += 719468;
  const long era = (days >= 0 ? days : days - 146096) / 146097;
  const long doe = days - era * 146097;
  const long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const long mp = (5 * doy + 2) / 153;
  day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  year = static_cast<int>(yoe + era * 400 + (month <= 2 ? 1 : 0));
}

int weekday(int year, int month, int day) {
  const long d = daysFromCivil(year, month, day);  // 1970-01-01 was a Thursday (3)
  return static_cast<int>(((d % 7) + 7 + 3) % 7);
}

int dateFormatCount() { return kFormats; }

std::string formatDate(int format, int y, int m, int d, int letterCase, bool padDay) {
  const std::string month = applyCase(kMonths[m - 1], letterCase);
  const std::string mon = month.substr(0, 3);
  const std::string wday = applyCase(kDays[weekday(y, m, d)], letterCase);
  const std::string wd = wday.substr(0, 3);
  const std::string dd = padDay ? two(d) : std::to_string(d);
  const std::string mm = two(m);
  const std::string yyyy = std::to_string(y);
  const std::string yy = two(y);
  const std::string th = applyCase(ordinal(d), letterCase == 2 ? 2 : 0);
  const std::string the = applyCase("the", letterCase), of = applyCase("of", letterCase);
  switch (format) {
    case 0:
      return dd + " " + month + " " + yyyy;  // 21 November 2026
    case 1:
      return dd + " " + mon + " " + yyyy;  // 21 Nov 2026
    case 2:
      return mon + " " + dd + ", " + yyyy;  // nov 21, 2026
    case 3:
      return month + " " + dd + ", " + yyyy;  // November 21, 2026
    case 4:
      return wday + " " + two(d) + "/" + mm + "/" + yy;  // Saturday 21/11/26
    case 5:
      return yyyy + " " + mon + " " + th;  // 2026 Nov 21st
    case 6:
      return dd + "/" + mm + "/" + yyyy;  // 21/11/2026
    case 7:
      return dd + "." + mm + "." + yyyy;  // 21.11.2026
    case 8:
      return dd + "-" + mm + "-" + yyyy;  // 21-11-2026
    case 9:
      return yyyy + "-" + mm + "-" + two(d);  // 2026-11-21
    case 10:
      return yyyy + "/" + mm + "/" + two(d);  // 2026/11/21
    case 11:
      return wd + ", " + dd + " " + mon + " " + yyyy;  // Sat, 21 Nov 2026
    case 12:
      return wday + ", " + month + " " + dd + ", " + yyyy;  // saturday, november 21, 2026
    case 13:
      return the + " " + th + " " + of + " " + month + " " + yyyy;  // the 21st of november 2026
    case 14:
      return th + " " + month + " " + yyyy;  // 21st November 2026
    case 15:
      return mon + " " + dd + " " + yyyy;  // Nov 21 2026
    case 16:
      return dd + " " + mon + " " + yy;  // 21 nov 26
    case 17:
      return yyyy + mm + two(d);  // 20261121
    case 18:
      return wd + " " + dd + " " + mon + " " + yyyy;  // Sat 21 Nov 2026
    case 19:
      return two(d) + "/" + mm + "/" + yy;  // 21/11/26
    case 20:
      return month + " " + th + ", " + yyyy;  // November 21st, 2026
    default:
      return wday + " " + th + " " + month + " " + yyyy;  // Saturday 21st November 2026
  }
}

}  // namespace attention

#include "common/time_format.h"

#include <chrono>
#include <cstdio>

namespace pagesieve {
namespace {

using std::chrono::days;
using std::chrono::sys_days;

class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  // Reads exactly `digits` decimal digits.
  bool Number(int digits, int* out) {
    int value = 0;
    for (int k = 0; k < digits; ++k, ++pos_) {
      if (pos_ >= text_.size() || text_[pos_] < '0' || text_[pos_] > '9') return false;
      value = value * 10 + (text_[pos_] - '0');
    }
    *out = value;
    return true;
  }
  bool Literal(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool AnyOf(std::string_view chars) {
    if (pos_ < text_.size() && chars.find(text_[pos_]) != std::string_view::npos) {
      ++pos_;
      return true;
    }
    return false;
  }
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool Done() const { return pos_ == text_.size(); }

  // Reads the digits of a fraction of a second; returns milliseconds.
  int Fraction() {
    int millis = 0;
    int scale = 100;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      millis += (text_[pos_] - '0') * scale;
      scale /= 10;
      ++pos_;
    }
    return millis;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

Status BadTime(std::string_view text) {
  return Status::InvalidArgument("invalid RFC 3339 time '" + std::string(text) +
                                 "' (expected e.g. 2026-11-20T10:00:00Z)");
}

}  // namespace

StatusOr<EventTime> ParseRfc3339(std::string_view text) {
  Cursor c(text);
  int year, month, day, hour, minute, second;
  if (!c.Number(4, &year) || !c.Literal('-') || !c.Number(2, &month) || !c.Literal('-') ||
      !c.Number(2, &day) || !c.AnyOf("Tt ") || !c.Number(2, &hour) || !c.Literal(':') ||
      !c.Number(2, &minute) || !c.Literal(':') || !c.Number(2, &second)) {
    return BadTime(text);
  }
  int millis = 0;
  if (c.Literal('.')) {
    if (c.Peek() < '0' || c.Peek() > '9') return BadTime(text);
    millis = c.Fraction();
  }
  int offset_minutes = 0;
  if (!c.AnyOf("Zz")) {
    int sign = c.Peek() == '-' ? -1 : 1;
    int off_h, off_m;
    if (!c.AnyOf("+-") || !c.Number(2, &off_h) || !c.Literal(':') || !c.Number(2, &off_m) ||
        off_h > 23 || off_m > 59) {
      return BadTime(text);
    }
    offset_minutes = sign * (off_h * 60 + off_m);
  }
  if (!c.Done()) return BadTime(text);

  std::chrono::year_month_day ymd{std::chrono::year(year), std::chrono::month(month),
                                  std::chrono::day(day)};
  // Second 60 is a leap second; it is folded into the next second, as
  // most systems without leap-second tables do.
  if (!ymd.ok() || hour > 23 || minute > 59 || second > 60) return BadTime(text);
  auto t = sys_days(ymd) + std::chrono::hours(hour) + std::chrono::minutes(minute) +
           std::chrono::seconds(second) + Duration(millis) - std::chrono::minutes(offset_minutes);
  return EventTime::FromWallClock(std::chrono::time_point_cast<Duration>(t));
}

std::string FormatRfc3339(EventTime event_time) {
  const WallTime t = event_time.AsTimePoint();
  sys_days day = std::chrono::floor<days>(t);
  std::chrono::year_month_day ymd(day);
  std::chrono::hh_mm_ss<Duration> tod(t - day);
  char buf[48];
  int n = std::snprintf(buf, sizeof(buf), "%04d-%02u-%02uT%02d:%02d:%02d", int(ymd.year()),
                        unsigned(ymd.month()), unsigned(ymd.day()), int(tod.hours().count()),
                        int(tod.minutes().count()), int(tod.seconds().count()));
  std::string out(buf, n);
  if (auto ms = tod.subseconds().count(); ms != 0) {
    std::snprintf(buf, sizeof(buf), ".%03d", int(ms));
    out += buf;
  }
  out += 'Z';
  return out;
}

}  // namespace pagesieve

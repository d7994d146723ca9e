#include "common/duration.h"

#include <array>
#include <cstdint>
#include <limits>

namespace pagesieve {
namespace {

struct Unit {
  std::string_view name;
  int64_t millis;
};

// Longest names first so "ms" is not read as "m" followed by garbage.
constexpr std::array<Unit, 6> kUnits = {{{"ms", 1},
                                         {"s", 1000},
                                         {"m", 60 * 1000},
                                         {"h", 3600 * 1000},
                                         {"d", 24 * 3600 * 1000},
                                         {"w", 7 * 24 * 3600 * 1000}}};

const Unit* MatchUnit(std::string_view rest) {
  for (const Unit& u : kUnits) {
    if (rest.substr(0, u.name.size()) != u.name) continue;
    // "m" must not swallow the "m" of "ms".
    if (u.name == "m" && rest.size() > 1 && rest[1] == 's') continue;
    return &u;
  }
  return nullptr;
}

Status BadDuration(std::string_view text, std::string_view why) {
  return Status::InvalidArgument("invalid duration '" + std::string(text) + "': " +
                                 std::string(why) +
                                 " (write e.g. 500ms, 30s, 15m, 12h, 7d, 2w or 1h30m)");
}

}  // namespace

StatusOr<Duration> ParseDuration(std::string_view text) {
  if (text.empty()) return BadDuration(text, "empty");
  int64_t total = 0;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] < '0' || text[i] > '9') return BadDuration(text, "expected a number");
    int64_t number = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      if (number > (std::numeric_limits<int64_t>::max() - 9) / 10) {
        return BadDuration(text, "too large");
      }
      number = number * 10 + (text[i] - '0');
    }
    const Unit* unit = MatchUnit(text.substr(i));
    if (unit == nullptr) return BadDuration(text, "expected a unit (ms, s, m, h, d, w)");
    i += unit->name.size();
    if (number > (std::numeric_limits<int64_t>::max() - total) / unit->millis) {
      return BadDuration(text, "too large");
    }
    total += number * unit->millis;
  }
  return Duration(total);
}

std::string FormatDuration(Duration d) {
  int64_t ms = d.count();
  if (ms == 0) return "0s";
  std::string out;
  if (ms < 0) {
    out += '-';
    ms = -ms;
  }
  for (auto it = kUnits.rbegin(); it != kUnits.rend(); ++it) {
    if (ms >= it->millis) {
      out += std::to_string(ms / it->millis);
      out += it->name;
      ms %= it->millis;
    }
  }
  return out;
}

}  // namespace pagesieve

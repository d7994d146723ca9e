#include "url/param_matcher.h"

#include "url/percent_encoding.h"

namespace pagesieve::url {

using internal::AsciiLower;

ParamMatcher::ParamMatcher(const std::vector<std::string>& patterns) {
  patterns_.reserve(patterns.size());
  for (const std::string& pattern : patterns) {
    std::string lower(pattern);
    for (char& c : lower) c = AsciiLower(c);
    const auto index = static_cast<uint32_t>(patterns_.size());
    patterns_.push_back(std::move(lower));
    const std::string& p = patterns_.back();
    if (p.empty()) {
      buckets_[0].push_back(index);  // only the empty name starts with "no byte"
    } else if (p[0] == '*' || p[0] == '?') {
      for (auto& bucket : buckets_) bucket.push_back(index);
    } else {
      buckets_[static_cast<unsigned char>(p[0])].push_back(index);
    }
  }
}

bool ParamMatcher::Matches(std::string_view name) const {
  // The empty name shares bucket 0 with names starting with NUL; both are
  // checked in full below, so sharing is harmless.
  const unsigned char first = name.empty() ? 0 : static_cast<unsigned char>(AsciiLower(name[0]));
  for (uint32_t index : buckets_[first]) {
    if (GlobMatches(patterns_[index], name)) return true;
  }
  return false;
}

bool GlobMatches(std::string_view pattern, std::string_view name) {
  // Greedy matching with backtracking to the last '*': linear in practice and
  // O(|pattern| * |name|) at worst, never exponential.
  size_t p = 0;
  size_t n = 0;
  size_t star = std::string_view::npos;  // position after the last '*' seen
  size_t star_n = 0;                     // where that '*' started matching
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == AsciiLower(name[n]))) {
      ++p;
      ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = ++p;
      star_n = n;
    } else if (star != std::string_view::npos) {
      p = star;
      n = ++star_n;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace pagesieve::url

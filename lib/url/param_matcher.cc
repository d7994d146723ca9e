#include "url/param_matcher.h"

#include "url/percent_encoding.h"

namespace pagesieve::url {

using internal::AsciiLower;

namespace {

bool EqualsIgnoringCase(std::string_view lower, std::string_view name) {
  if (lower.size() != name.size()) return false;
  for (size_t i = 0; i < lower.size(); ++i) {
    if (lower[i] != AsciiLower(name[i])) return false;
  }
  return true;
}

}  // namespace

ParamMatcher::ParamMatcher(const std::vector<std::string>& patterns) {
  patterns_.reserve(patterns.size());
  for (const std::string& pattern : patterns) {
    Pattern compiled{pattern, Kind::kGlob};
    for (char& c : compiled.text) c = AsciiLower(c);
    const size_t wildcard = compiled.text.find_first_of("*?");
    if (wildcard == std::string::npos) {
      compiled.kind = Kind::kExact;
    } else if (wildcard + 1 == compiled.text.size() && compiled.text.back() == '*') {
      compiled.kind = Kind::kPrefix;
      compiled.text.pop_back();
    }
    const auto index = static_cast<uint32_t>(patterns_.size());
    const std::string& text = compiled.text;
    if (text.empty() && compiled.kind == Kind::kExact) {
      buckets_[0].push_back(index);  // only the empty name starts with "no byte"
    } else if (text.empty() || text[0] == '*' || text[0] == '?') {
      for (auto& bucket : buckets_) bucket.push_back(index);
    } else {
      buckets_[static_cast<unsigned char>(text[0])].push_back(index);
    }
    patterns_.push_back(std::move(compiled));
  }
}

bool ParamMatcher::Matches(std::string_view name) const {
  // The empty name shares bucket 0 with names starting with NUL; both are
  // checked in full below, so sharing is harmless.
  const unsigned char first = name.empty() ? 0 : static_cast<unsigned char>(AsciiLower(name[0]));
  for (uint32_t index : buckets_[first]) {
    if (Matches(patterns_[index], name)) return true;
  }
  return false;
}

bool ParamMatcher::Matches(const Pattern& pattern, std::string_view name) const {
  switch (pattern.kind) {
    case Kind::kExact:
      return EqualsIgnoringCase(pattern.text, name);
    case Kind::kPrefix:
      return name.size() >= pattern.text.size() &&
             EqualsIgnoringCase(pattern.text, name.substr(0, pattern.text.size()));
    case Kind::kGlob:
      break;
  }
  return GlobMatches(pattern.text, name);
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

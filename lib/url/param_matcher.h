#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pagesieve::url {

// Matches parameter names against a denylist of glob patterns ('*' any run
// of bytes, '?' one byte), ASCII case-insensitively, without allocating.
//
// Patterns are bucketed by their first byte, so a name is only compared with
// the few patterns that can match it (plus those that start with a
// wildcard); with the default list that is 0 to 4 comparisons per name.
// Exact names and "prefix*" patterns (all of the defaults) are compared
// directly; only other globs run the general matcher.
//
// Immutable after construction; Matches may be called from any thread.
class ParamMatcher {
 public:
  explicit ParamMatcher(const std::vector<std::string>& patterns);

  bool Matches(std::string_view name) const;

 private:
  enum class Kind { kExact, kPrefix, kGlob };
  struct Pattern {
    std::string text;  // lowercased; for kPrefix without the final '*'
    Kind kind;
  };
  bool Matches(const Pattern& pattern, std::string_view name) const;

  std::vector<Pattern> patterns_;
  // Indexes into patterns_ for each lowercase first byte of a name.
  std::array<std::vector<uint32_t>, 256> buckets_;
};

// Whether `name` matches the glob `pattern` (lowercase), ignoring ASCII case
// in `name`. Exposed for tests.
bool GlobMatches(std::string_view pattern, std::string_view name);

}  // namespace pagesieve::url

#pragma once

// What the words of a class or id attribute say about an element
// ("site-footer", "mainNav", "article-body"). Internal.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace pagesieve::content {

enum ClassHint : uint8_t {
  kHintBoilerplate = 1 << 0,  // navigation, ads, sharing...: removed with its subtree
  kHintProtect = 1 << 1,      // article, content, main...: never removed for its class
  kHintPositive = 1 << 2,     // scores up (readability's positive classes)
  kHintNegative = 1 << 3,     // scores down (readability's negative classes)
  kHintComments = 1 << 4,     // a comment section
};

struct ClassVerdict {
  uint8_t hints = 0;  // ClassHint bits
  int weight = 0;     // +25 when some word is positive, -25 when some is negative
};

// Splits `value` into words (at anything but a letter, and at lower→upper
// case changes) and looks each up; long unknown words are also tried as
// compounds of a known word ("topnav", "sharebar"). Linear in the value.
ClassVerdict ClassifyClassValue(std::string_view value);

// ClassifyClassValue behind a small direct-mapped cache: a page repeats its
// class names (and a site its templates), so most lookups are one hash and
// one compare. Not thread-safe: one per tree builder.
class ClassVerdictCache {
 public:
  ClassVerdict Classify(std::string_view value);

 private:
  static constexpr size_t kSlots = 1024;
  static constexpr size_t kMaxCachedLength = 160;
  struct Slot {
    std::string value;
    ClassVerdict verdict;
    bool used = false;
  };
  std::unique_ptr<Slot[]> slots_ = std::make_unique<Slot[]>(kSlots);
};

}  // namespace pagesieve::content

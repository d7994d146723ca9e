#include "content/class_hints.h"

#include <array>

#include "content/media_type.h"

namespace pagesieve::content {
namespace {

// An extra bit, private to this file: the word may also be part of a
// compound word (as prefix or suffix).
constexpr uint8_t kCompound = 1 << 7;
constexpr uint8_t kB = kHintBoilerplate | kHintNegative;
constexpr uint8_t kBC = kB | kCompound;
constexpr uint8_t kPos = kHintPositive;
constexpr uint8_t kProt = kHintPositive | kHintProtect;
constexpr uint8_t kProtC = kProt | kCompound;
constexpr uint8_t kNeg = kHintNegative;

struct Word {
  std::string_view word;
  uint8_t bits;
};

// Boilerplate words follow the extraction spec; positive, negative and
// protecting words follow Mozilla Readability's class heuristics.
// clang-format off
constexpr Word kWords[] = {
    {"nav", kBC}, {"navbar", kB}, {"navigation", kBC}, {"navi", kB}, {"menu", kBC},
    {"menubar", kB}, {"submenu", kB}, {"megamenu", kB}, {"sidebar", kBC}, {"sidenav", kB},
    {"footer", kBC}, {"header", kBC}, {"masthead", kB}, {"breadcrumb", kBC},
    {"breadcrumbs", kBC}, {"ad", kB}, {"ads", kB}, {"advert", kBC}, {"adverts", kB},
    {"advertisement", kBC}, {"advertising", kBC}, {"advertisements", kB}, {"adsense", kB},
    {"adslot", kB}, {"adunit", kB}, {"adbox", kB}, {"social", kBC}, {"share", kBC},
    {"sharing", kBC}, {"shares", kB}, {"sharer", kB}, {"sharebar", kB}, {"cookie", kBC},
    {"cookies", kBC}, {"consent", kB}, {"gdpr", kB}, {"popup", kBC}, {"modal", kBC},
    {"related", kBC}, {"promo", kBC}, {"promotion", kB}, {"promotions", kB},
    {"newsletter", kBC}, {"banner", kBC}, {"sponsor", kBC}, {"sponsored", kB},
    {"outbrain", kB}, {"taboola", kB}, {"pagination", kB}, {"pager", kB}, {"toolbar", kB},
    {"disqus", kB}, {"comments", kB | kHintComments}, {"commentlist", kB | kHintComments},
    {"respond", kB | kHintComments}, {"replies", kB}, {"skyscraper", kB}, {"shoutbox", kB},
    {"subscribe", kB}, {"login", kB}, {"signup", kB},
    {"caption", kBC}, {"captions", kB}, {"credit", kBC}, {"credits", kB}, {"copyright", kBC},
    {"disclaimer", kBC}, {"authorbox", kB}, {"bio", kB}, {"legend", kB},
    {"article", kProtC}, {"body", kProt}, {"content", kProtC}, {"main", kProt},
    {"column", kHintProtect}, {"entry", kPos}, {"hentry", kPos}, {"page", kPos}, {"post", kPos},
    {"text", kPos}, {"blog", kPos}, {"story", kPos}, {"articlebody", kProt},
    {"hidden", kNeg}, {"hid", kNeg}, {"combx", kNeg}, {"comment", kNeg | kCompound},
    {"contact", kNeg}, {"foot", kNeg}, {"footnote", kNeg}, {"media", kNeg}, {"meta", kNeg},
    {"scroll", kNeg}, {"shopping", kNeg}, {"tags", kNeg}, {"tool", kNeg}, {"tools", kNeg},
    {"widget", kNeg | kCompound}, {"byline", kNeg}, {"author", kNeg}, {"date", kNeg},
};
// clang-format on

constexpr size_t kSlots = 512;
constexpr size_t kMaxWord = 24;

constexpr uint32_t Hash(std::string_view w) {
  uint32_t h = 2166136261u;
  for (char c : w) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h;
}

constexpr std::array<int16_t, kSlots> MakeSlots() {
  std::array<int16_t, kSlots> slots{};
  for (auto& s : slots) s = -1;
  for (size_t w = 0; w < std::size(kWords); ++w) {
    size_t i = Hash(kWords[w].word) % kSlots;
    while (slots[i] >= 0) i = (i + 1) % kSlots;
    slots[i] = static_cast<int16_t>(w);
  }
  return slots;
}
constexpr std::array<int16_t, kSlots> kSlotTable = MakeSlots();

uint8_t Lookup(std::string_view lower) {
  for (size_t i = Hash(lower) % kSlots;; i = (i + 1) % kSlots) {
    const int16_t w = kSlotTable[i];
    if (w < 0) return 0;
    if (kWords[w].word == lower) return kWords[w].bits;
  }
}

uint8_t LookupWord(std::string_view lower) {
  const uint8_t bits = Lookup(lower);
  if (bits != 0 || lower.size() < 6) return bits & ~kCompound;
  // "topnav", "sharebar", "maincontent": a known word at either end.
  for (size_t k = 3; k + 3 <= lower.size(); ++k) {
    const uint8_t head = Lookup(lower.substr(0, k));
    const uint8_t tail = Lookup(lower.substr(k));
    const uint8_t found = ((head & kCompound) ? head : 0) | ((tail & kCompound) ? tail : 0);
    if (found != 0) return found & ~kCompound;
  }
  return 0;
}

bool IsAsciiLetter(char c) { return static_cast<unsigned char>((c | 0x20) - 'a') < 26; }
bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }

}  // namespace

ClassVerdict ClassifyClassValue(std::string_view value) {
  uint8_t bits = 0;
  char word[kMaxWord];
  size_t i = 0;
  const size_t n = value.size();
  while (i < n) {
    if (!IsAsciiLetter(value[i])) {
      ++i;
      continue;
    }
    size_t len = 0;
    bool too_long = false;
    do {
      if (len < kMaxWord) {
        word[len++] = AsciiLower(value[i]);
      } else {
        too_long = true;
      }
      ++i;
    } while (i < n && IsAsciiLetter(value[i]) && !(IsUpper(value[i]) && !IsUpper(value[i - 1])));
    if (!too_long) bits |= LookupWord(std::string_view(word, len));
  }
  ClassVerdict verdict;
  verdict.hints = bits;
  if (bits & kHintPositive) verdict.weight += 25;
  if (bits & kHintNegative) verdict.weight -= 25;
  return verdict;
}

ClassVerdict ClassVerdictCache::Classify(std::string_view value) {
  if (value.size() > kMaxCachedLength) return ClassifyClassValue(value);
  Slot& slot = slots_[Hash(value) % kSlots];
  if (slot.used && slot.value == value) return slot.verdict;
  slot.value.assign(value);
  slot.verdict = ClassifyClassValue(value);
  slot.used = true;
  return slot.verdict;
}

}  // namespace pagesieve::content

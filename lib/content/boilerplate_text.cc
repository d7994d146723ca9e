#include "content/boilerplate_text.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "content/boilerplate_phrases.h"

namespace pagesieve::content {
namespace {

constexpr size_t kMaxSlots = 12;
constexpr size_t kMaxWordsKept = 160;
constexpr size_t kMaxShareBarWords = 12;

bool IsAsciiAlnum(unsigned char c) {
  return (c >= '0' && c <= '9') || static_cast<unsigned char>((c | 0x20) - 'a') < 26;
}

// The words of a block, lowercased (ASCII and Latin-1 capitals), each
// remembering whether a ':' follows it.
class Words {
 public:
  explicit Words(std::string_view text) {
    for (size_t i = 0; i < text.size();) i += Step(text, i);
    EndWord();
  }

  size_t size() const { return total_; }
  std::string_view operator[](size_t i) const {
    return std::string_view(buffer_.data() + begin_[i], size_[i]);
  }
  bool ColonAfter(size_t i) const { return colon_[i]; }
  bool Kept() const { return total_ <= kMaxWordsKept; }

 private:
  // Consumes the character at `i`; returns its length in bytes.
  size_t Step(std::string_view text, size_t i) {
    const unsigned char c = text[i];
    if (c < 0x80) {
      if (IsAsciiAlnum(c)) {
        Append(static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c));
      } else {
        EndWord();
        if (c == ':' && total_ > 0 && total_ <= kMaxWordsKept) colon_[total_ - 1] = true;
      }
      return 1;
    }
    const unsigned char next = i + 1 < text.size() ? text[i + 1] : 0;
    if (c == 0xC2) {  // NBSP, «, », ·, ¡, ¿ separate words; © is a word
      EndWord();
      if (next == 0xA9) {
        Append('\xC2');
        Append('\xA9');
        EndWord();
      }
      return 2;
    }
    if (c == 0xC3 && next >= 0x80 && next <= 0x9E && next != 0x97) {  // À..Þ → à..þ
      Append('\xC3');
      Append(static_cast<char>(next + 0x20));
      return 2;
    }
    if (c == 0xE2 && (next == 0x80 || next == 0x81)) {  // dashes, quotes, ellipsis...
      EndWord();
      return 3;
    }
    Append(static_cast<char>(c));
    return 1;
  }

  void Append(char c) {
    if (!in_word_) {
      in_word_ = true;
      start_ = length_;
    }
    buffer_[length_++] = c;
  }

  void EndWord() {
    if (!in_word_) return;
    in_word_ = false;
    if (total_ < kMaxWordsKept) {
      begin_[total_] = static_cast<uint16_t>(start_);
      size_[total_] = static_cast<uint16_t>(length_ - start_);
      colon_[total_] = false;
    }
    ++total_;
  }

  std::array<char, kMaxBoilerplateBytes> buffer_;
  std::array<uint16_t, kMaxWordsKept> begin_;
  std::array<uint16_t, kMaxWordsKept> size_;
  std::array<bool, kMaxWordsKept> colon_;
  size_t length_ = 0;
  size_t start_ = 0;
  size_t total_ = 0;
  bool in_word_ = false;
};

bool IsNumber(std::string_view word) { return !word.empty() && word[0] >= '0' && word[0] <= '9'; }

bool OneOf(std::string_view alternatives, std::string_view word) {
  while (!alternatives.empty()) {
    const size_t bar = alternatives.find('|');
    const std::string_view alt = alternatives.substr(0, bar);
    if (alt == word || alt == "*" || (alt == "#" && IsNumber(word))) return true;
    if (bar == std::string_view::npos) break;
    alternatives.remove_prefix(bar + 1);
  }
  return false;
}

struct Slots {
  std::array<std::string_view, kMaxSlots> slot;
  size_t count = 0;
};

Slots SplitSlots(std::string_view words) {
  Slots slots;
  while (!words.empty() && slots.count < kMaxSlots) {
    const size_t space = words.find(' ');
    slots.slot[slots.count++] = words.substr(0, space);
    if (space == std::string_view::npos) break;
    words.remove_prefix(space + 1);
  }
  return slots;
}

// Matches slots [s, count) against words from `w`; an optional slot is
// tried both taken and skipped. Sets *end past the last matched word.
bool MatchSlots(const Words& words, const Slots& slots, size_t s, size_t w, size_t* end) {
  if (s == slots.count) {
    *end = w;
    return true;
  }
  std::string_view slot = slots.slot[s];
  const bool optional = slot.front() == '?';
  if (optional) slot.remove_prefix(1);
  if (w < words.size() && w < kMaxWordsKept && OneOf(slot, words[w]) &&
      MatchSlots(words, slots, s + 1, w + 1, end)) {
    return true;
  }
  return optional && MatchSlots(words, slots, s + 1, w, end);
}

bool HasWord(const Words& words, std::string_view alternatives) {
  for (size_t i = 0; i < words.size() && i < kMaxWordsKept; ++i) {
    if (OneOf(alternatives, words[i])) return true;
  }
  return false;
}

bool Matches(const Phrase& phrase, const Words& words, size_t bytes) {
  if (bytes > phrase.max_bytes) return false;
  size_t end = 0;
  if (!MatchSlots(words, SplitSlots(phrase.words), 0, 0, &end)) return false;
  if (words.size() - end > phrase.extra_words) return false;
  if (phrase.colon && (end == 0 || !words.ColonAfter(end - 1))) return false;
  return phrase.needs.empty() || HasWord(words, phrase.needs);
}

// First words of the phrases → phrase numbers, sorted by word.
using Index = std::vector<std::pair<std::string_view, uint16_t>>;

const Index& FirstWordIndex() {
  static const Index index = [] {
    Index built;
    const std::span<const Phrase> phrases = BoilerplatePhrases();
    for (size_t p = 0; p < phrases.size(); ++p) {
      std::string_view first = SplitSlots(phrases[p].words).slot[0];
      while (!first.empty()) {
        const size_t bar = first.find('|');
        built.emplace_back(first.substr(0, bar), static_cast<uint16_t>(p));
        if (bar == std::string_view::npos) break;
        first.remove_prefix(bar + 1);
      }
    }
    std::sort(built.begin(), built.end());
    return built;
  }();
  return index;
}

std::pair<Index::const_iterator, Index::const_iterator> PhrasesStartingWith(std::string_view word) {
  const Index& index = FirstWordIndex();
  return std::equal_range(index.begin(), index.end(), std::make_pair(word, uint16_t{0}),
                          [](const auto& a, const auto& b) { return a.first < b.first; });
}

// "Share 1.2k Tweet 340 Email": share words and counts only.
bool IsShareBar(const Words& words) {
  if (words.size() > kMaxShareBarWords) return false;
  bool any_verb = false;
  for (size_t i = 0; i < words.size(); ++i) {
    bool verb = false;
    if (IsNumber(words[i])) continue;
    if (!IsShareBarWord(words[i], &verb)) return false;
    any_verb = any_verb || verb;
  }
  return any_verb;
}

}  // namespace

TextRole ClassifyBlockText(std::string_view text) {
  if (text.size() > kMaxBoilerplateBytes) return TextRole::kContent;
  const Words words(text);
  if (words.size() == 0) return TextRole::kContent;
  // Candidate phrases in table order: those starting with the first word,
  // and with a number when the block starts with one.
  std::array<uint16_t, 64> candidates;
  size_t count = 0;
  for (std::string_view key : {words[0], std::string_view(IsNumber(words[0]) ? "#" : "")}) {
    if (key.empty()) continue;
    auto [begin, end] = PhrasesStartingWith(key);
    for (auto it = begin; it != end && count < candidates.size(); ++it) {
      candidates[count++] = it->second;
    }
  }
  std::sort(candidates.begin(), candidates.begin() + count);
  const std::span<const Phrase> phrases = BoilerplatePhrases();
  for (size_t i = 0; i < count; ++i) {
    const Phrase& phrase = phrases[candidates[i]];
    if (Matches(phrase, words, text.size())) return phrase.role;
  }
  return IsShareBar(words) ? TextRole::kBoilerplate : TextRole::kContent;
}

bool MayBeBoilerplateText(std::string_view text) {
  // The first word is all that is looked at: 64 bytes hold any phrase's.
  const Words words(text.substr(0, 64));
  if (words.size() == 0) return false;
  const std::string_view first = words[0];
  bool verb = false;
  if (IsNumber(first) || IsShareBarWord(first, &verb)) return true;
  auto [begin, end] = PhrasesStartingWith(first);
  return begin != end;
}

}  // namespace pagesieve::content

#include "content/boilerplate_text.h"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <utility>
#include <vector>

#include "content/boilerplate_phrases.h"

namespace pagesieve::content {
namespace {

constexpr size_t kMaxWords = kMaxBoilerplateBytes / 2;  // one letter and a separator each
constexpr size_t kMaxShareBarWords = 12;

bool IsAsciiAlnum(unsigned char c) {
  return (c >= '0' && c <= '9') || static_cast<unsigned char>((c | 0x20) - 'a') < 26;
}

// The words of a block, lowercased (ASCII and Latin-1 capitals), each
// remembering whether a ':' follows it. Folded lazily, as far as asked:
// most blocks are rejected on their first word or two.
class Words {
 public:
  explicit Words(std::string_view text) : text_(text.substr(0, kMaxBoilerplateBytes)) {}

  // Whether the block has a word `i` (folding up to it).
  bool Has(size_t i) {
    while (total_ <= i && pos_ < text_.size()) pos_ += Step(pos_);
    if (total_ <= i && pos_ == text_.size()) EndWord();
    return total_ > i;
  }
  size_t Count() {
    Has(kMaxWords);
    return total_;
  }
  std::string_view operator[](size_t i) const {
    return std::string_view(buffer_.data() + begin_[i], size_[i]);
  }
  bool ColonAfter(size_t i) {
    Has(i + 1);  // reads past the separators after word i
    return colon_[i];
  }

 private:
  // Consumes the character at `i`; returns its length in bytes.
  size_t Step(size_t i) {
    const unsigned char c = text_[i];
    if (c < 0x80) {
      if (IsAsciiAlnum(c)) {
        Append(static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c));
      } else {
        EndWord();
        if (c == ':' && total_ > 0) colon_[total_ - 1] = true;
      }
      return 1;
    }
    const unsigned char next = i + 1 < text_.size() ? text_[i + 1] : 0;
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
    if (!in_word_ || total_ == kMaxWords) return;
    in_word_ = false;
    begin_[total_] = static_cast<uint16_t>(start_);
    size_[total_] = static_cast<uint16_t>(length_ - start_);
    colon_[total_] = false;
    ++total_;
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::array<char, kMaxBoilerplateBytes> buffer_;
  std::array<uint16_t, kMaxWords> begin_;
  std::array<uint16_t, kMaxWords> size_;
  std::array<bool, kMaxWords> colon_;
  size_t length_ = 0;
  size_t start_ = 0;
  size_t total_ = 0;
  bool in_word_ = false;
};

bool IsNumber(std::string_view word) { return !word.empty() && word[0] >= '0' && word[0] <= '9'; }

// A phrase split once into its slots and their alternatives.
struct Slot {
  std::vector<std::string_view> alternatives;
  bool optional = false;
  bool any = false;     // '*' is an alternative
  bool number = false;  // '#' is an alternative

  bool Accepts(std::string_view word) const {
    if (any || (number && IsNumber(word))) return true;
    for (std::string_view alt : alternatives) {
      if (alt == word) return true;
    }
    return false;
  }
};

struct CompiledPhrase {
  std::vector<Slot> slots;
  Slot needs;
};

Slot SplitAlternatives(std::string_view alternatives) {
  Slot slot;
  if (!alternatives.empty() && alternatives.front() == '?') {
    slot.optional = true;
    alternatives.remove_prefix(1);
  }
  while (!alternatives.empty()) {
    const size_t bar = alternatives.find('|');
    const std::string_view alt = alternatives.substr(0, bar);
    slot.any = slot.any || alt == "*";
    slot.number = slot.number || alt == "#";
    slot.alternatives.push_back(alt);
    if (bar == std::string_view::npos) break;
    alternatives.remove_prefix(bar + 1);
  }
  return slot;
}

CompiledPhrase Compile(const Phrase& phrase) {
  CompiledPhrase compiled;
  std::string_view words = phrase.words;
  while (!words.empty()) {
    const size_t space = words.find(' ');
    compiled.slots.push_back(SplitAlternatives(words.substr(0, space)));
    if (space == std::string_view::npos) break;
    words.remove_prefix(space + 1);
  }
  compiled.needs = SplitAlternatives(phrase.needs);
  return compiled;
}

// Matches slots [s, end) against words from `w`; an optional slot is
// tried both taken and skipped. Sets *matched past the last matched word.
bool MatchSlots(Words& words, const std::vector<Slot>& slots, size_t s, size_t w, size_t* matched) {
  if (s == slots.size()) {
    *matched = w;
    return true;
  }
  if (words.Has(w) && slots[s].Accepts(words[w]) &&
      MatchSlots(words, slots, s + 1, w + 1, matched)) {
    return true;
  }
  return slots[s].optional && MatchSlots(words, slots, s + 1, w, matched);
}

bool HasWord(Words& words, const Slot& wanted) {
  for (size_t i = 0; words.Has(i); ++i) {
    if (wanted.Accepts(words[i])) return true;
  }
  return false;
}

// First word → the phrases starting with it, in table order.
using FirstWords = std::unordered_map<std::string_view, std::vector<uint16_t>>;

// The phrase table compiled, and indexed by first word.
struct Table {
  std::vector<CompiledPhrase> phrases;
  FirstWords first_words;
};

const Table& CompiledTable() {
  static const Table table = [] {
    Table built;
    const std::span<const Phrase> phrases = BoilerplatePhrases();
    for (size_t p = 0; p < phrases.size(); ++p) {
      built.phrases.push_back(Compile(phrases[p]));
      for (std::string_view first : built.phrases.back().slots.front().alternatives) {
        built.first_words[first].push_back(static_cast<uint16_t>(p));
      }
    }
    return built;
  }();
  return table;
}

bool Matches(const Phrase& phrase, const CompiledPhrase& compiled, Words& words, size_t bytes) {
  if (bytes > phrase.max_bytes) return false;
  size_t end = 0;
  if (!MatchSlots(words, compiled.slots, 0, 0, &end)) return false;
  if (phrase.extra_words != kAnyWords && words.Has(end + phrase.extra_words)) return false;
  if (phrase.colon && (end == 0 || !words.ColonAfter(end - 1))) return false;
  return compiled.needs.alternatives.empty() || HasWord(words, compiled.needs);
}

const std::vector<uint16_t>* PhrasesStartingWith(std::string_view word) {
  const FirstWords& index = CompiledTable().first_words;
  const auto it = index.find(word);
  return it == index.end() ? nullptr : &it->second;
}

// For each hash bucket of the words phrases and share bars start with, the
// longest block one of them applies to: most blocks are tested, so the test
// folds the first word on the fly and reads one table entry. A block longer
// than its bucket's entry (most paragraphs) is content without a look at
// the phrases.
class FirstWordFilter {
 public:
  FirstWordFilter() {
    const std::span<const Phrase> phrases = BoilerplatePhrases();
    for (const auto& [word, numbers] : CompiledTable().first_words) {
      for (uint16_t p : numbers) Add(word, phrases[p].max_bytes);
    }
    for (std::string_view word : ShareBarWords()) Add(word, kShareBarBytes);
  }

  // 0 when no phrase starts with the first word of `text`.
  size_t LongestBlock(std::string_view text) const {
    size_t i = 0;
    while (i < text.size() && static_cast<unsigned char>(text[i]) < 0x80 &&
           !IsAsciiAlnum(text[i])) {
      ++i;
    }
    if (i == text.size()) return 0;
    if (text[i] >= '0' && text[i] <= '9') return numbers_;  // "12 comments"
    uint32_t hash = kHashSeed;
    size_t length = 0;
    for (; i < text.size() && length <= kMaxFirstWord; ++i, ++length) {
      unsigned char c = text[i];
      if (c < 0x80) {
        if (!IsAsciiAlnum(c)) break;
        if (c >= 'A' && c <= 'Z') c += 32;
      } else if (c == 0xC2 || c == 0xE2) {  // separators, and © (a word of its own)
        if (length == 0 && c == 0xC2 && i + 1 < text.size() && text[i + 1] == '\xA9') {
          return copyright_;
        }
        break;
      } else if (c == 0xC3 && i + 1 < text.size()) {
        const unsigned char next = text[i + 1];
        hash = Mix(hash, c);
        c = next >= 0x80 && next <= 0x9E && next != 0x97 ? next + 0x20 : next;
        ++i;
      }
      hash = Mix(hash, c);
    }
    if (length == 0 || length > kMaxFirstWord) return 0;
    return longest_[hash % kBuckets];
  }

 private:
  static constexpr uint32_t kHashSeed = 2166136261u;
  static constexpr size_t kBuckets = 4096;  // 8 KB; most buckets hold no word
  static constexpr size_t kMaxFirstWord = 24;
  static constexpr uint16_t kShareBarBytes = 200;
  static uint32_t Mix(uint32_t hash, unsigned char c) { return (hash ^ c) * 16777619u; }

  void Add(std::string_view word, uint16_t max_bytes) {
    if (word == "#") {
      numbers_ = std::max(numbers_, max_bytes);
      return;
    }
    if (word == "\xC2\xA9") copyright_ = std::max(copyright_, max_bytes);
    uint32_t hash = kHashSeed;
    for (char c : word) hash = Mix(hash, static_cast<unsigned char>(c));
    uint16_t& longest = longest_[hash % kBuckets];
    longest = std::max(longest, max_bytes);
  }

  std::array<uint16_t, kBuckets> longest_{};
  uint16_t numbers_ = 0;    // phrases starting with a number
  uint16_t copyright_ = 0;  // phrases starting with ©
};

// "Share 1.2k Tweet 340 Email": share words and counts only.
bool IsShareBar(Words& words) {
  bool any_verb = false;
  for (size_t i = 0; words.Has(i); ++i) {
    if (i == kMaxShareBarWords) return false;
    bool verb = false;
    if (IsNumber(words[i])) continue;
    if (!IsShareBarWord(words[i], &verb)) return false;
    any_verb = any_verb || verb;
  }
  return any_verb;
}

}  // namespace

TextRole ClassifyBlockText(std::string_view text) {
  if (!MayBeBoilerplateText(text)) return TextRole::kContent;
  Words words(text);
  if (!words.Has(0)) return TextRole::kContent;
  // Phrases starting with the first word, then those starting with a
  // number when the block does ("12 comments").
  const bool number = IsNumber(words[0]);
  const std::span<const Phrase> phrases = BoilerplatePhrases();
  const Table& table = CompiledTable();
  for (std::string_view key : {words[0], std::string_view(number ? "#" : "")}) {
    const std::vector<uint16_t>* candidates = key.empty() ? nullptr : PhrasesStartingWith(key);
    if (candidates == nullptr) continue;
    for (uint16_t p : *candidates) {
      if (Matches(phrases[p], table.phrases[p], words, text.size())) return phrases[p].role;
    }
  }
  bool verb = false;
  const bool may_be_bar = number || IsShareBarWord(words[0], &verb);
  return may_be_bar && IsShareBar(words) ? TextRole::kBoilerplate : TextRole::kContent;
}

bool MayBeBoilerplateText(std::string_view text) {
  static const FirstWordFilter filter;
  return text.size() <= kMaxBoilerplateBytes && text.size() <= filter.LongestBlock(text);
}

}  // namespace pagesieve::content

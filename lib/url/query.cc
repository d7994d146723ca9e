#include "url/query.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "url/param_matcher.h"
#include "url/percent_encoding.h"

namespace pagesieve::url::internal {
namespace {

// One pair's place in the output: [begin, begin + length), its name the
// first name_length bytes (no '=' at all when name_length == length).
struct Pair {
  uint32_t begin;
  uint32_t length;
  uint32_t name_length;
};

// The pairs of one query: inline up to 64, on the heap past that, so the
// common query costs no allocation.
class PairList {
 public:
  void push_back(const Pair& pair) {
    if (size_ == kInline && heap_.empty()) heap_.assign(inline_, inline_ + kInline);
    if (size_ >= kInline) {
      heap_.push_back(pair);
    } else {
      inline_[size_] = pair;
    }
    ++size_;
  }
  size_t size() const { return size_; }
  Pair* begin() { return size_ > kInline ? heap_.data() : inline_; }
  Pair* end() { return begin() + size_; }

 private:
  static constexpr size_t kInline = 64;
  Pair inline_[kInline];
  std::vector<Pair> heap_;
  size_t size_ = 0;
};

// A scratch copy of the query bytes for reordering: on the stack when small.
class Scratch {
 public:
  explicit Scratch(size_t size) {
    if (size > sizeof(stack_)) heap_ = std::make_unique<char[]>(size);
    data_ = heap_ ? heap_.get() : stack_;
  }
  char* data() { return data_; }

 private:
  char stack_[2048];
  std::unique_ptr<char[]> heap_;
  char* data_;
};

bool PairLess(std::string_view query, const Pair& a, const Pair& b) {
  const std::string_view a_name = query.substr(a.begin, a.name_length);
  const std::string_view b_name = query.substr(b.begin, b.name_length);
  if (const int c = a_name.compare(b_name); c != 0) return c < 0;
  const bool a_has_value = a.name_length < a.length;
  const bool b_has_value = b.name_length < b.length;
  if (a_has_value != b_has_value) return b_has_value;
  return query.substr(a.begin + a.name_length, a.length - a.name_length) <
         query.substr(b.begin + b.name_length, b.length - b.name_length);
}

// Rewrites the pairs in `out` (which start at `first` and are separated by
// '&') in sorted order.
void SortPairs(size_t first, PairList* pairs, std::string* out) {
  const std::string_view query(*out);
  auto less = [query](const Pair& a, const Pair& b) { return PairLess(query, a, b); };
  if (std::is_sorted(pairs->begin(), pairs->end(), less)) return;
  std::sort(pairs->begin(), pairs->end(), less);
  const size_t size = out->size() - first;
  Scratch scratch(size);
  char* w = scratch.data();
  for (const Pair& pair : *pairs) {
    if (w != scratch.data()) *w++ = '&';
    std::memcpy(w, out->data() + pair.begin, pair.length);
    w += pair.length;
  }
  std::memcpy(out->data() + first, scratch.data(), size);
}

}  // namespace

void AppendCanonicalQuery(std::string_view raw, const QueryOptions& options, std::string* out) {
  const size_t question = out->size();
  out->push_back('?');
  PairList pairs;
  size_t i = 0;
  while (i < raw.size()) {
    // Normalize one pair in one pass, noting where its first '=' lands.
    const size_t begin = out->size();
    size_t name_end = std::string::npos;
    while (true) {
      i += AppendNormalizedQueryPiece(raw.substr(i), out);
      if (i == raw.size() || raw[i] != '=') break;
      if (name_end == std::string::npos) name_end = out->size();
      out->push_back('=');
      ++i;
    }
    ++i;                                 // the '&'
    if (out->size() == begin) continue;  // an empty pair
    const size_t name_length = std::min(name_end, out->size()) - begin;
    if (options.strip_params != nullptr &&
        options.strip_params->Matches(std::string_view(*out).substr(begin, name_length))) {
      out->resize(begin);
      continue;
    }
    pairs.push_back({static_cast<uint32_t>(begin), static_cast<uint32_t>(out->size() - begin),
                     static_cast<uint32_t>(name_length)});
    out->push_back('&');
  }
  if (pairs.size() == 0) {
    out->resize(question);
    return;
  }
  out->pop_back();  // the last '&'
  if (options.sort && pairs.size() > 1) SortPairs(question + 1, &pairs, out);
}

}  // namespace pagesieve::url::internal

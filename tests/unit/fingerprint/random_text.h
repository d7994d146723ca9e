#pragma once

// Seeded random texts for statistical tests of shingling and SimHash.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace pagesieve::fingerprint::testing {

// Words of 2-9 random lowercase letters drawn from a fixed vocabulary, so
// texts share words (as real texts do) but rarely share 3-word shingles.
class RandomText {
 public:
  explicit RandomText(uint64_t seed, size_t vocabulary = 5000) : rng_(seed) {
    std::uniform_int_distribution<int> length(2, 9);
    std::uniform_int_distribution<int> letter('a', 'z');
    for (size_t i = 0; i < vocabulary; ++i) {
      std::string word(static_cast<size_t>(length(rng_)), 'a');
      for (char& c : word) c = static_cast<char>(letter(rng_));
      vocabulary_.push_back(std::move(word));
    }
  }

  std::vector<std::string> WordList(size_t count) {
    std::vector<std::string> words;
    for (size_t i = 0; i < count; ++i) words.push_back(Word());
    return words;
  }

  std::string Word() {
    std::uniform_int_distribution<size_t> pick(0, vocabulary_.size() - 1);
    return vocabulary_[pick(rng_)];
  }

  std::string Text(size_t words) { return Join(WordList(words)); }

  size_t Index(size_t size) { return std::uniform_int_distribution<size_t>(0, size - 1)(rng_); }

  static std::string Join(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) {
      if (!out.empty()) out += ' ';
      out += w;
    }
    return out;
  }

 private:
  std::mt19937_64 rng_;
  std::vector<std::string> vocabulary_;
};

}  // namespace pagesieve::fingerprint::testing

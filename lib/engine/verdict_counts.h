#pragma once

#include <cstdint>
#include <string>

#include "engine/verdict.h"

namespace pagesieve::engine {

// Running totals of what a run decided, for progress lines and summaries.
struct VerdictCounts {
  int64_t records = 0;  // every input record: verdicts + dead letters
  int64_t unique = 0;
  int64_t duplicate_url = 0;
  int64_t duplicate_exact = 0;
  int64_t duplicate_near = 0;
  int64_t skipped = 0;
  int64_t dead_letters = 0;
  int64_t truncated = 0;
  int64_t rekeyed = 0;  // republished by the re-keying stage (docs/rekey.md), not decided

  int64_t duplicates() const { return duplicate_url + duplicate_exact + duplicate_near; }
  void Add(const Verdict& v);
  void AddDeadLetter() {
    ++records;
    ++dead_letters;
  }
  void AddRekeyed() {
    ++records;
    ++rekeyed;
  }
  // "700 unique, 250 duplicate (url 100, exact 80, near 70), 40 skipped, 10 dead letters"
  std::string Summary() const;
};

}  // namespace pagesieve::engine

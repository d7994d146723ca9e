#pragma once

// Small fetched-page events for tests that run pagesieve over JSONL.

#include <cstdint>
#include <string>

namespace pagesieve::testing {

// 2026-10-01T00:00:00Z in epoch milliseconds: in the past, so
// event.max_future never bites.
inline constexpr int64_t kT0 = 1'790'812'800'000;

// 300 words of deterministic text; different seeds give texts far apart in
// SimHash, so each seed is its own article.
std::string ArticleText(int seed);

// One JSONL line (with its newline): an event carrying pre-extracted `text`.
std::string TextEvent(const std::string& url, int64_t fetched_at_ms, const std::string& text,
                      const std::string& event_id);

}  // namespace pagesieve::testing

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pagesieve::demo {

// What the engine should say about a sample event: its verdict, and for a
// duplicate its tier. The names are the summary's row names.
enum class Expected { kUnique, kUrl, kExact, kNear, kSkipped, kDeadLetter };
inline constexpr Expected kAllExpected[] = {Expected::kUnique,  Expected::kUrl,
                                            Expected::kExact,   Expected::kNear,
                                            Expected::kSkipped, Expected::kDeadLetter};

// "unique", "url", "exact", "near", "skipped", "dead_letter".
std::string_view ExpectedName(Expected expected);

struct Label {
  Expected expected = Expected::kUnique;
  std::string of;       // duplicates: the event id of the page it duplicates
  std::string variant;  // how the event was made (see sample_crawl.cc)
};

// One fetched-page event of the sample crawl, with its label.
struct SampleEvent {
  std::string event_id;  // "demo-00042": ids sort in production order
  std::string key;       // the site's domain: the Kafka key, so a site stays in one partition
  std::string url;
  int64_t fetched_at_ms = 0;
  std::string json;  // the event as produced (the label is included, the engine ignores it)
  Label label;
};

struct SampleOptions {
  uint64_t seed = 1;
  int events = 480;
};

inline constexpr int kMaxSampleEvents = 10000;

// The labelled sample crawl: synthetic news sites whose articles are fetched
// again with tracking parameters and session ids, mirrored on m. and amp.
// hosts, corrected, edited, followed up, replaced, and sometimes answered
// with an error page; a few events are malformed. Events come in fetch-time
// order, and every duplicate comes after what it duplicates. Deterministic
// for a seed; `events` (1..kMaxSampleEvents) is the exact count.
std::vector<SampleEvent> GenerateSampleCrawl(const SampleOptions& options);

}  // namespace pagesieve::demo

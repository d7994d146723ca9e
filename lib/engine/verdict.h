#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/digest.h"
#include "common/types.h"

namespace pagesieve::engine {

enum class VerdictKind { kUnique, kDuplicate, kSkipped };
// Which rule found the duplicate: the first of url, exact, near that matched.
enum class Tier { kUrl, kExact, kNear };

std::string_view VerdictKindName(VerdictKind kind);  // "unique", "duplicate", "skipped"
std::string_view TierName(Tier tier);                // "url", "exact", "near"

// Where an input record sits in Kafka.
struct SourcePosition {
  std::string topic;
  PartitionId partition{};
  Offset offset{};

  friend bool operator==(const SourcePosition&, const SourcePosition&) = default;
};

// The earlier record a duplicate repeats.
struct DuplicateOf {
  std::string event_id;
  std::string url;
  EventTime event_time{};

  friend bool operator==(const DuplicateOf&, const DuplicateOf&) = default;
};

struct VerdictFingerprints {
  Digest128 url;
  Digest128 content;
  std::string payload;              // "sha1:<base32>"
  std::optional<uint64_t> simhash;  // absent below near.min_tokens

  friend bool operator==(const VerdictFingerprints&, const VerdictFingerprints&) = default;
};

// The answer for one input record; exactly one per record, in input order.
struct Verdict {
  std::string event_id;
  std::string url;            // as the event gave it
  std::string canonical_url;
  std::string scope;
  VerdictKind kind = VerdictKind::kUnique;
  std::optional<Tier> tier;                  // duplicates only
  std::optional<DuplicateOf> duplicate_of;   // duplicates, except url.mode = bloom
  std::optional<int> distance;               // exact: 0, near: Hamming distance
  std::optional<VerdictFingerprints> fingerprints;  // absent for skipped records
  EventTime event_time{};
  int status = 200;
  bool truncated = false;                    // body longer than max_body_bytes
  std::optional<SourcePosition> source;      // Kafka mode only

  friend bool operator==(const Verdict&, const Verdict&) = default;
};

// One JSON object on one line, no trailing newline. Field order is fixed, so
// equal verdicts encode to equal bytes (tests compare runs byte for byte).
std::string EncodeVerdictJson(const Verdict& verdict);

}  // namespace pagesieve::engine

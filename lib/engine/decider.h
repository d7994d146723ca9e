#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "common/digest.h"
#include "common/status_or.h"
#include "engine/verdict.h"
#include "store/origin.h"
#include "store/shard.h"
#include "store/shard_options.h"

namespace pagesieve::engine {

// What happens when a URL comes back: kCheckContent treats a revisit whose
// content digest changed as a new page (it goes on to the content tiers);
// kDuplicate calls every revisit within url.ttl a URL duplicate.
enum class RevisitPolicy { kCheckContent, kDuplicate };

struct DeciderOptions {
  store::UrlMode url_mode = store::UrlMode::kExact;
  RevisitPolicy on_revisit = RevisitPolicy::kCheckContent;
};

// What the rules need to know of one accepted record.
struct Candidate {
  std::string_view scope;
  Digest128 url;
  Digest128 content;
  std::optional<uint64_t> simhash;
  int near_max_distance = 3;  // after per-site overrides
  store::Origin self;         // this record: event id, canonical URL, time, position
};

struct Decision {
  VerdictKind kind = VerdictKind::kUnique;  // unique or duplicate
  std::optional<Tier> tier;
  std::optional<store::Origin> duplicate_of;
  std::optional<int> distance;
};

// The dedup rules, applied to one record against its partition's shard:
// url, then exact, then near; otherwise unique and inserted. Stateless apart
// from the shard it is given; decisions for one shard must be made in input
// order (docs/engine.md).
class Decider {
 public:
  explicit Decider(DeciderOptions options) : options_(options) {}

  StatusOr<Decision> Decide(const Candidate& record, store::Shard& shard) const;

 private:
  // Each tier returns a decision when it settles the record.
  StatusOr<std::optional<Decision>> UrlTier(const Candidate& record, store::Shard& shard) const;
  StatusOr<std::optional<Decision>> ExactTier(const Candidate& record, store::Shard& shard) const;
  StatusOr<std::optional<Decision>> NearTier(const Candidate& record, store::Shard& shard) const;

  DeciderOptions options_;
};

}  // namespace pagesieve::engine

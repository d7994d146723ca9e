#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "common/status_or.h"
#include "engine/decider.h"
#include "state/lookup_key.h"
#include "state/report_format.h"
#include "store/shard_inspector.h"

namespace pagesieve::state {

// What a lookup is judged with besides its key.
struct LookupContext {
  LookupKey key;
  store::UrlMode url_mode = store::UrlMode::kExact;
  engine::RevisitPolicy on_revisit = engine::RevisitPolicy::kCheckContent;
  size_t limit = 20;  // SimHash entries kept per shard
};

// What one shard holds for a lookup key.
struct ShardLookup {
  std::string name;
  std::string dir;
  EventTime watermark{};
  std::optional<Offset> checkpointed_offset;
  int64_t fingerprint_version = 0;
  int near_tables_distance = 0;  // the shard's near.max_distance

  std::optional<store::UrlInspection> url;  // kind kUrl
  // The exact entry of the given digest, or of the URL entry's last content.
  std::optional<Digest128> content_digest;
  std::optional<store::Inspected<store::ContentEntry>> content;
  // kind kSimHash: closest first, at most `limit`, of near_total.
  std::vector<store::Inspected<store::NearCandidate>> near;
  size_t near_total = 0;

  // Whether the shard holds anything for the key (a Bloom "maybe" counts
  // only in url.mode = bloom, where it is the whole answer).
  bool Found(store::UrlMode mode) const;
};

StatusOr<ShardLookup> LookupInShard(const std::string& name, store::ShardInspector& inspector,
                                    const LookupContext& context);

// The key, then one block per shard that holds something, or "not found".
std::string LookupText(const LookupContext& context, const std::vector<ShardLookup>& found,
                       size_t shards_searched, const std::string& state_dir);
Json LookupJson(const LookupContext& context, const std::vector<ShardLookup>& found,
                size_t shards_searched, const std::string& state_dir);

}  // namespace pagesieve::state

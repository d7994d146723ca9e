// Gathering what one shard holds for a lookup key (lookup_render.cc prints it).
#include "state/lookup_report.h"

namespace pagesieve::state {

bool ShardLookup::Found(store::UrlMode mode) const {
  const bool by_url =
      url && (url->entry || (mode == store::UrlMode::kBloom && url->bloom_may_contain == true));
  return by_url || content.has_value() || !near.empty();
}

StatusOr<ShardLookup> LookupInShard(const std::string& name, store::ShardInspector& inspector,
                                    const LookupContext& context) {
  const LookupKey& key = context.key;
  ShardLookup out;
  out.name = name;
  out.dir = inspector.dir();
  out.watermark = inspector.watermark();
  out.checkpointed_offset = inspector.checkpointed_offset();
  out.fingerprint_version = inspector.identity().fingerprint_version;
  out.near_tables_distance = inspector.identity().near_max_distance;
  switch (key.kind) {
    case LookupKey::Kind::kUrl: {
      PS_ASSIGN_OR_RETURN(out.url, inspector.InspectUrl(key.scope, key.url_digest));
      // The last content seen at the URL: its exact entry says where that
      // content was first seen, which may be another URL.
      if (out.url->entry) out.content_digest = out.url->entry->entry.content;
      break;
    }
    case LookupKey::Kind::kContent:
      out.content_digest = key.content;
      break;
    case LookupKey::Kind::kSimHash: {
      PS_ASSIGN_OR_RETURN(out.near,
                          inspector.InspectNear(key.scope, key.simhash, key.max_distance));
      out.near_total = out.near.size();
      if (out.near.size() > context.limit) out.near.resize(context.limit);
      break;
    }
  }
  if (out.content_digest) {
    PS_ASSIGN_OR_RETURN(out.content, inspector.InspectContent(key.scope, *out.content_digest));
  }
  return out;
}

}  // namespace pagesieve::state

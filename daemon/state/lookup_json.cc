// `state lookup --json`: the same ShardLookup values as LookupText.
#include "common/hex.h"
#include "state/lookup_report.h"
#include "store/lsh_bands.h"

namespace pagesieve::state {
namespace {

const char* KindName(LookupKey::Kind kind) {
  switch (kind) {
    case LookupKey::Kind::kUrl:
      return "url";
    case LookupKey::Kind::kSimHash:
      return "simhash";
    case LookupKey::Kind::kContent:
      return "content";
  }
  return "?";
}

Json KeyJson(const LookupKey& k) {
  Json j{{"kind", KindName(k.kind)}};
  if (!k.canonical_url.empty()) {
    j["url"] = k.url;
    j["canonical_url"] = k.canonical_url;
    j["url_digest"] = k.url_digest.Hex();
  }
  if (k.kind == LookupKey::Kind::kSimHash) {
    j["simhash"] = Hex64(k.simhash);
    j["max_distance"] = k.max_distance;
  }
  if (k.kind == LookupKey::Kind::kContent) j["content"] = k.content.Hex();
  j["scope"] = k.scope;
  j["scope_from"] = k.scope_from;
  return j;
}

// The origin a record would now be called a duplicate of, or null.
template <typename Entry>
Json WouldMatch(const std::optional<store::Inspected<Entry>>& e) {
  return e && e->live ? OriginJson(e->entry.origin) : Json(nullptr);
}

Json UrlJson(const store::UrlInspection& u) {
  Json j{{"bloom_may_contain", u.bloom_may_contain ? Json(*u.bloom_may_contain) : Json(nullptr)}};
  if (u.entry) {
    Json entry = EntryJson(*u.entry);
    entry["last_content"] = u.entry->entry.content.Hex();
    j["entry"] = std::move(entry);
  } else {
    j["entry"] = nullptr;
  }
  j["would_match"] = WouldMatch(u.entry);
  return j;
}

Json NearJson(const ShardLookup& s, const LookupKey& key) {
  Json matches = Json::array();
  bool answered = false;
  for (const auto& m : s.near) {
    Json j{{"simhash", Hex64(m.entry.simhash)}, {"distance", m.entry.distance}};
    j.update(EntryJson(m));
    // The sketch's size, or null: the page had none (too short to sketch).
    j["sketch_bytes"] = m.entry.sketch.empty() ? Json(nullptr) : Json(m.entry.sketch.size());
    // The size of the set it sketches (the containment rule's), or null.
    StatusOr<store::SketchHeader> header = store::ParseSketchHeader(m.entry.sketch);
    j["sketch_features"] = header.ok() ? Json(header->set_size) : Json(nullptr);
    j["engine_answer"] = m.live && !answered;
    answered = answered || m.live;
    matches.push_back(std::move(j));
  }
  return Json{{"max_distance", key.max_distance},
              {"indexed", key.max_distance <= s.near_tables_distance},
              {"total", s.near_total},
              {"matches", std::move(matches)}};
}

Json ShardJson(const LookupContext& c, const ShardLookup& s) {
  Json j{{"name", s.name}, {"dir", s.dir}};
  j["watermark"] = s.checkpointed_offset ? Json(FormatTime(s.watermark)) : Json(nullptr);
  j["fingerprint_version"] = s.fingerprint_version;
  if (s.url) j["url"] = UrlJson(*s.url);
  if (s.content_digest) {
    j["content"] = {{"digest", s.content_digest->Hex()},
                    {"entry", s.content ? EntryJson(*s.content) : Json(nullptr)},
                    {"would_match", WouldMatch(s.content)}};
  }
  if (c.key.kind == LookupKey::Kind::kSimHash) j["near"] = NearJson(s, c.key);
  return j;
}

}  // namespace

Json LookupJson(const LookupContext& context, const std::vector<ShardLookup>& found,
                size_t shards_searched, const std::string& state_dir) {
  Json shards = Json::array();
  for (const ShardLookup& s : found) shards.push_back(ShardJson(context, s));
  return Json{{"state_dir", state_dir},
              {"key", KeyJson(context.key)},
              {"shards_searched", shards_searched},
              {"found", !found.empty()},
              {"shards", std::move(shards)}};
}

}  // namespace pagesieve::state

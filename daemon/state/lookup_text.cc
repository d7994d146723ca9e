// `state lookup` for people: the key, then what each shard holds for it.
#include <cstdio>

#include "common/hex.h"
#include "fingerprint/version.h"
#include "state/lookup_report.h"
#include "store/lsh_bands.h"

namespace pagesieve::state {
namespace {

// Values line up in one column whatever the indent of their name.
std::string Field(int indent, const char* name, const std::string& value) {
  constexpr int kValueColumn = 18;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%*s%-*s", indent, "", kValueColumn - indent, name);
  return buf + value + "\n";
}

// The first live entry is what the engine's lookup returns.
template <typename Entry>
const Entry* FirstLive(const std::vector<store::Inspected<Entry>>& entries) {
  for (const auto& e : entries) {
    if (e.live) return &e.entry;
  }
  return nullptr;
}

// "264 bytes (256 slots of 8 bits, 812 features)", or "none" for a page too
// short to sketch (or written with near.minhash_slots = 0). The features are
// the set's size, which the containment rule compares.
std::string SketchText(const std::string& sketch) {
  if (sketch.empty()) return "none";
  std::string text = std::to_string(sketch.size()) + " bytes";
  StatusOr<store::SketchHeader> h = store::ParseSketchHeader(sketch);
  if (h.ok()) {
    text += " (" + std::to_string(h->slots) + " slots of " + std::to_string(h->bits) + " bits, " +
            std::to_string(h->set_size) + " features)";
  }
  return text;
}

std::string KeyText(const LookupContext& c) {
  const LookupKey& k = c.key;
  std::string text;
  switch (k.kind) {
    case LookupKey::Kind::kUrl:
      text = "lookup url " + k.url + "\n";
      break;
    case LookupKey::Kind::kSimHash:
      text = "lookup simhash " + Hex64(k.simhash) + " within " + std::to_string(k.max_distance) +
             " bits\n";
      break;
    case LookupKey::Kind::kContent:
      text = "lookup content " + k.content.Hex() + "\n";
      break;
  }
  if (!k.canonical_url.empty()) {
    if (k.kind != LookupKey::Kind::kUrl) text += Field(2, "url", k.url);
    text += Field(2, "canonical", k.canonical_url);
    text += Field(2, "url digest", k.url_digest.Hex());
  }
  return text + Field(2, "scope", k.scope + "  (" + k.scope_from + ")");
}

std::string UrlMatchText(const LookupContext& c, const store::UrlEntry& e) {
  std::string text = "a record of this URL now is a URL duplicate of event " + e.origin.event_id;
  if (c.on_revisit == engine::RevisitPolicy::kCheckContent) {
    text += " if its content digest is still " + e.content.Hex() +
            " (url.on_revisit: a changed page goes on to the content tiers)";
  }
  return text;
}

std::string UrlText(const LookupContext& c, const ShardLookup& s) {
  if (!s.url) return "";
  const store::UrlInspection& u = *s.url;
  if (!u.entry) {
    if (c.url_mode == store::UrlMode::kBloom && u.bloom_may_contain == true) {
      return Field(2, "url bloom",
                   "may contain: seen within url.ttl, or a false positive "
                   "(url.mode = bloom keeps no entries or origins)");
    }
    return Field(2, "url entry", "none");
  }
  const auto& e = *u.entry;
  std::string text = Field(2, "url entry", LivenessText(e.live, e.live_until));
  text += Field(4, "origin", OriginText(e.entry.origin));
  text += Field(4, "last seen", FormatTime(e.entry.last_seen));
  text += Field(4, "last content", e.entry.content.Hex());
  if (e.live) text += Field(4, "matches", UrlMatchText(c, e.entry));
  return text;
}

std::string ContentText(const ShardLookup& s) {
  if (!s.content_digest) return "";
  const std::string head = "content " + s.content_digest->Hex();
  if (!s.content) {
    // Only a record found unique inserts its content; the last record at a
    // URL that has none here was a URL or near duplicate (or it expired and
    // was compacted away).
    const char* hint = s.url ? " (the record that left it was a URL or near duplicate, or it "
                               "expired: look up its SimHash)"
                             : "";
    return "  " + head + ": no entry" + hint + "\n";
  }
  const auto& e = *s.content;
  std::string text = "  " + head + ": " + LivenessText(e.live, e.live_until) + "\n";
  text += Field(4, "origin", OriginText(e.entry.origin));
  text += Field(4, "last seen", FormatTime(e.entry.last_seen));
  if (e.live) {
    text += Field(
        4, "matches",
        "a record with this content now is an exact duplicate of event " + e.entry.origin.event_id);
  }
  return text;
}

std::string NearText(const LookupContext& c, const ShardLookup& s) {
  if (c.key.kind != LookupKey::Kind::kSimHash) return "";
  std::string text;
  if (c.key.max_distance > s.near_tables_distance) {
    text += "  (beyond the shard's near.max_distance, " + std::to_string(s.near_tables_distance) +
            ": the engine never looks this far)\n";
  }
  if (s.near.empty())
    return text + "  no SimHash within " + std::to_string(c.key.max_distance) + " bits\n";
  const store::NearCandidate* answer = FirstLive(s.near);
  for (const auto& m : s.near) {
    text += "  distance " + std::to_string(m.entry.distance) + "  simhash " +
            Hex64(m.entry.simhash) + "  " + LivenessText(m.live, m.live_until) + "\n";
    text += Field(4, "origin", OriginText(m.entry.origin));
    text += Field(4, "last seen", FormatTime(m.entry.last_seen));
    text += Field(4, "sketch", SketchText(m.entry.sketch));
    if (&m.entry == answer) {
      text += Field(4, "matches",
                    "the engine's answer: a record with this SimHash now is a near "
                    "duplicate of event " +
                        m.entry.origin.event_id);
    }
  }
  if (s.near_total > s.near.size()) {
    text += "  ... and " + std::to_string(s.near_total - s.near.size()) + " more (--limit)\n";
  }
  return text;
}

std::string ShardHeader(const ShardLookup& s) {
  std::string text = "shard " + s.name + "  (" + s.dir + ")\n";
  text += Field(2, "watermark", s.checkpointed_offset ? FormatTime(s.watermark) : "none");
  if (s.fingerprint_version != fingerprint::kFingerprintVersion) {
    text += Field(2, "note",
                  "written with fingerprint version " + std::to_string(s.fingerprint_version) +
                      ", this build computes " + std::to_string(fingerprint::kFingerprintVersion) +
                      ": its digests and SimHashes may differ from this build's");
  }
  return text;
}

}  // namespace

std::string LookupText(const LookupContext& context, const std::vector<ShardLookup>& found,
                       size_t shards_searched, const std::string& state_dir) {
  std::string text = KeyText(context);
  for (const ShardLookup& s : found) {
    text += "\n" + ShardHeader(s) + UrlText(context, s) + ContentText(s) + NearText(context, s);
  }
  if (found.empty()) {
    text += "\nnot found in " + std::to_string(shards_searched) + " shard" +
            (shards_searched == 1 ? "" : "s") + " under " + state_dir + "\n";
  }
  return text;
}

}  // namespace pagesieve::state

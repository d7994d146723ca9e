#include <cmath>
#include <nlohmann/json.hpp>

#include "common/hex.h"
#include "common/time_format.h"
#include "engine/verdict.h"

namespace pagesieve::engine {

std::string_view VerdictKindName(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::kUnique:
      return "unique";
    case VerdictKind::kDuplicate:
      return "duplicate";
    case VerdictKind::kSkipped:
      return "skipped";
  }
  return "unknown";
}

std::string_view TierName(Tier tier) {
  switch (tier) {
    case Tier::kUrl:
      return "url";
    case Tier::kExact:
      return "exact";
    case Tier::kNear:
      return "near";
  }
  return "unknown";
}

namespace {

using Json = nlohmann::ordered_json;

Json FingerprintsJson(const std::optional<Fingerprints>& f) {
  if (!f) return nullptr;
  Json j;
  j["url"] = f->url.Hex();
  j["content"] = f->content.Hex();
  j["payload"] = f->payload;
  j["simhash"] = f->simhash ? Json(Hex64(*f->simhash)) : Json(nullptr);
  return j;
}

}  // namespace

std::string EncodeVerdictJson(const Verdict& verdict) {
  const PreparedRecord& r = verdict.record;
  const Decision& d = verdict.decision;
  Json j;
  j["event_id"] = r.event_id;
  j["url"] = r.url;
  j["canonical_url"] = r.canonical_url;
  j["scope"] = r.scope;
  j["verdict"] = VerdictKindName(d.kind);
  j["tier"] = d.tier ? Json(TierName(*d.tier)) : Json(nullptr);
  if (d.duplicate_of) {
    j["duplicate_of"] = {{"event_id", d.duplicate_of->event_id},
                         {"url", d.duplicate_of->url},
                         {"event_time", FormatRfc3339(d.duplicate_of->event_time)}};
  } else {
    j["duplicate_of"] = nullptr;
  }
  j["distance"] = d.distance ? Json(*d.distance) : Json(nullptr);
  // Three decimals: more would claim a precision the estimate has not.
  j["similarity"] = d.similarity ? Json(std::round(*d.similarity * 1000) / 1000) : Json(nullptr);
  j["method"] = d.method ? Json(NearMethodName(*d.method)) : Json(nullptr);
  j["containment"] =
      d.containment ? Json(std::round(*d.containment * 1000) / 1000) : Json(nullptr);
  j["fingerprints"] = FingerprintsJson(r.fingerprints);
  j["event_time"] = FormatRfc3339(r.event_time);
  if (d.kind == VerdictKind::kSkipped) j["status"] = r.status;
  if (r.truncated) j["truncated"] = true;
  if (verdict.late) j["late"] = true;
  if (r.source) {
    j["source"] = {{"topic", r.source->topic},
                   {"partition", r.source->partition.value()},
                   {"offset", r.source->offset.value()}};
  }
  // Event ids and URLs come from valid JSON, but file names in default ids
  // need not be UTF-8: replace rather than throw.
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace pagesieve::engine

#include "engine/engine_options.h"

#include <algorithm>

#include "fingerprint/version.h"

namespace pagesieve::engine {
namespace {

// url.on_revisit: "auto" checks content where the store keeps it (exact
// mode) and cannot in bloom mode, which stores no digests.
StatusOr<RevisitPolicy> ReadRevisitPolicy(const Config& config, store::UrlMode mode) {
  PS_ASSIGN_OR_RETURN(std::string name, config.GetString("url.on_revisit"));
  if (name == "duplicate") return RevisitPolicy::kDuplicate;
  if (name == "auto") {
    return mode == store::UrlMode::kExact ? RevisitPolicy::kCheckContent
                                          : RevisitPolicy::kDuplicate;
  }
  if (name == "check_content") {
    if (mode == store::UrlMode::kBloom) {
      return Status::InvalidArgument(
          "url.on_revisit = check_content needs url.mode = exact: the Bloom filter stores no "
          "content digests");
    }
    return RevisitPolicy::kCheckContent;
  }
  return Status::InvalidArgument("url.on_revisit must be auto, check_content or duplicate, not '" +
                                 name + "'");
}

Status CheckJaccard(std::string_view key, double jaccard) {
  if (jaccard > 0 && jaccard <= 1) return Status::Ok();
  return Status::InvalidArgument(std::string(key) + " must be within (0, 1], not " +
                                 std::to_string(jaccard));
}

// near.containment: 0 (off) or a share in (0, 1].
Status CheckContainment(std::string_view key, double containment) {
  if (containment >= 0 && containment <= 1) return Status::Ok();
  return Status::InvalidArgument(std::string(key) + " must be within [0, 1] (0: off), not " +
                                 std::to_string(containment));
}

// The value of an optional key of an override table: nothing when absent,
// an error naming it when present and wrong.
template <typename T, typename Get>
StatusOr<std::optional<T>> Optional(const std::string& where, Get get) {
  auto v = get();
  if (v.ok()) return std::optional<T>(*v);
  if (v.status().code() == StatusCode::kNotFound) return std::optional<T>();
  return v.status().WithContext(where);
}

StatusOr<NearOverride> ReadNearOverride(const Config& table, const std::string& where) {
  NearOverride o;
  StatusOr<std::string> pattern = table.GetString("pattern");
  if (!pattern.ok() || pattern->empty()) {
    return Status::InvalidArgument(where + " needs pattern = \"<host glob>\"");
  }
  o.pattern = *pattern;
  PS_ASSIGN_OR_RETURN(std::optional<int64_t> distance,
                      Optional<int64_t>(where, [&] { return table.GetInt("max_distance"); }));
  PS_ASSIGN_OR_RETURN(o.jaccard,
                      Optional<double>(where, [&] { return table.GetDouble("jaccard"); }));
  PS_ASSIGN_OR_RETURN(std::optional<std::string> method,
                      Optional<std::string>(where, [&] { return table.GetString("method"); }));
  PS_ASSIGN_OR_RETURN(o.containment,
                      Optional<double>(where, [&] { return table.GetDouble("containment"); }));
  PS_ASSIGN_OR_RETURN(o.containment_jaccard, Optional<double>(where, [&] {
                        return table.GetDouble("containment_jaccard");
                      }));
  if (!distance && !o.jaccard && !method && !o.containment && !o.containment_jaccard) {
    return Status::InvalidArgument(
        where + " sets none of max_distance, jaccard, method, containment, containment_jaccard");
  }
  if (distance) {
    if (*distance < 0 || *distance > 64) {
      return Status::InvalidArgument(where + ".max_distance must be within 0..64");
    }
    o.max_distance = static_cast<int>(*distance);
  }
  if (o.jaccard) PS_RETURN_IF_ERROR(CheckJaccard(where + ".jaccard", *o.jaccard));
  if (o.containment) {
    PS_RETURN_IF_ERROR(CheckContainment(where + ".containment", *o.containment));
  }
  if (o.containment_jaccard) {
    PS_RETURN_IF_ERROR(
        CheckJaccard(where + ".containment_jaccard", *o.containment_jaccard));
  }
  if (method) {
    StatusOr<NearMethod> parsed = ParseNearMethod(*method);
    if (!parsed.ok()) return Status::InvalidArgument(where + ".method " + parsed.status().message());
    o.method = *parsed;
  }
  return o;
}

StatusOr<std::vector<NearOverride>> ReadNearOverrides(const Config& config) {
  PS_ASSIGN_OR_RETURN(std::vector<Config> tables, config.GetTableList("near.overrides"));
  std::vector<NearOverride> overrides;
  for (size_t i = 0; i < tables.size(); ++i) {
    PS_ASSIGN_OR_RETURN(NearOverride o,
                        ReadNearOverride(tables[i], "near.overrides[" + std::to_string(i) + "]"));
    overrides.push_back(std::move(o));
  }
  return overrides;
}

StatusOr<NearRule> ReadNearRule(const Config& config) {
  NearRule rule;
  PS_ASSIGN_OR_RETURN(int64_t distance, config.GetInt("near.max_distance"));
  rule.max_distance = static_cast<int>(distance);  // the shard options check its range
  PS_ASSIGN_OR_RETURN(rule.jaccard, config.GetDouble("near.jaccard"));
  PS_RETURN_IF_ERROR(CheckJaccard("near.jaccard", rule.jaccard));
  PS_ASSIGN_OR_RETURN(rule.containment, config.GetDouble("near.containment"));
  PS_RETURN_IF_ERROR(CheckContainment("near.containment", rule.containment));
  PS_ASSIGN_OR_RETURN(rule.containment_jaccard, config.GetDouble("near.containment_jaccard"));
  PS_RETURN_IF_ERROR(CheckJaccard("near.containment_jaccard", rule.containment_jaccard));
  PS_ASSIGN_OR_RETURN(std::string method, config.GetString("near.method"));
  StatusOr<NearMethod> parsed = ParseNearMethod(method);
  if (!parsed.ok()) return Status::InvalidArgument("near.method " + parsed.status().message());
  rule.method = *parsed;
  return rule;
}

StatusOr<std::vector<int>> ReadAcceptStatus(const Config& config) {
  PS_ASSIGN_OR_RETURN(std::vector<int64_t> raw, config.GetIntList("accept_status"));
  std::vector<int> statuses;
  for (int64_t s : raw) {
    if (s < 100 || s > 999) {
      return Status::InvalidArgument("accept_status holds " + std::to_string(s) +
                                     ", which is not an HTTP status");
    }
    statuses.push_back(static_cast<int>(s));
  }
  return statuses;
}

}  // namespace

StatusOr<EngineOptions> EngineOptionsFromConfig(const Config& config) {
  EngineOptions options;
  PS_ASSIGN_OR_RETURN(options.fields, EventFieldNamesFromConfig(config));
  PS_ASSIGN_OR_RETURN(options.accept_status, ReadAcceptStatus(config));
  PS_ASSIGN_OR_RETURN(options.max_future, config.GetDuration("event.max_future"));
  PS_ASSIGN_OR_RETURN(std::string scope_name, config.GetString("scope.key"));
  PS_ASSIGN_OR_RETURN(options.scope_key, ParseScopeKey(scope_name));
  PS_ASSIGN_OR_RETURN(options.fingerprint, fingerprint::FingerprintOptionsFromConfig(config));
  PS_ASSIGN_OR_RETURN(options.shard, store::ShardOptionsFromConfig(config));
  PS_ASSIGN_OR_RETURN(options.near, ReadNearRule(config));
  PS_ASSIGN_OR_RETURN(options.near_overrides, ReadNearOverrides(config));
  options.decider.url_mode = options.shard.url_mode;
  PS_ASSIGN_OR_RETURN(options.decider.on_revisit,
                      ReadRevisitPolicy(config, options.shard.url_mode));

  // The SimHash tables must serve the widest per-site distance, the LSH
  // bands the lowest Jaccard any site accepts (containment included).
  const NearPolicy policy(options.near, options.near_overrides);
  options.shard.near_max_distance = policy.MaxDistance();
  options.shard.near_lsh_threshold = policy.MinJaccard();
  options.shard.minhash_slots = options.fingerprint.minhash.slots;
  options.shard.minhash_bits = options.fingerprint.minhash.bits;
  options.decider.near_table_distance = options.shard.near_max_distance;
  options.shard.fingerprint_version = fingerprint::kFingerprintVersion;
  PS_RETURN_IF_ERROR(store::ValidateShardOptions(options.shard));
  return options;
}

}  // namespace pagesieve::engine

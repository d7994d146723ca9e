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

StatusOr<std::vector<NearOverride>> ReadNearOverrides(const Config& config) {
  PS_ASSIGN_OR_RETURN(std::vector<Config> tables, config.GetTableList("near.overrides"));
  std::vector<NearOverride> overrides;
  for (size_t i = 0; i < tables.size(); ++i) {
    const std::string where = "near.overrides[" + std::to_string(i) + "]";
    StatusOr<std::string> pattern = tables[i].GetString("pattern");
    StatusOr<int64_t> distance = tables[i].GetInt("max_distance");
    if (!pattern.ok() || !distance.ok() || pattern->empty()) {
      return Status::InvalidArgument(where +
                                     " needs pattern = \"<host glob>\" and "
                                     "max_distance = <0..64>");
    }
    if (*distance < 0 || *distance > 64) {
      return Status::InvalidArgument(where + ".max_distance must be within 0..64");
    }
    overrides.push_back({*pattern, static_cast<int>(*distance)});
  }
  return overrides;
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
  PS_ASSIGN_OR_RETURN(options.near_overrides, ReadNearOverrides(config));
  options.near_max_distance = options.shard.near_max_distance;
  options.decider.url_mode = options.shard.url_mode;
  PS_ASSIGN_OR_RETURN(options.decider.on_revisit,
                      ReadRevisitPolicy(config, options.shard.url_mode));

  // The SimHash tables must serve the widest per-site distance.
  for (const NearOverride& o : options.near_overrides) {
    options.shard.near_max_distance = std::max(options.shard.near_max_distance, o.max_distance);
  }
  options.shard.fingerprint_version = fingerprint::kFingerprintVersion;
  PS_RETURN_IF_ERROR(store::ValidateShardOptions(options.shard));
  return options;
}

}  // namespace pagesieve::engine

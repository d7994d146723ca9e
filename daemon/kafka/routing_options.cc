// scope.routing and [routing]: the options of global dedup routed by
// fingerprint (docs/global-routing.md).
#include <algorithm>

#include "kafka/kafka_options.h"

namespace pagesieve::kafka {

Status ReadRoutingOptions(const Config& config, KafkaOptions& o) {
  PS_ASSIGN_OR_RETURN(std::string routing, config.GetString("scope.routing"));
  if (routing != "scope" && routing != "fingerprint") {
    return Status::InvalidArgument("scope.routing must be \"scope\" or \"fingerprint\", not '" +
                                   routing + "'");
  }
  RoutingOptions& r = o.routing;
  r.enabled = routing == "fingerprint";
  PS_ASSIGN_OR_RETURN(int64_t partitions, config.GetInt("routing.partitions"));
  if (partitions < 1 || partitions > 100000) {
    return Status::InvalidArgument("routing.partitions must be between 1 and 100000");
  }
  r.partitions = static_cast<int32_t>(partitions);
  PS_ASSIGN_OR_RETURN(r.max_lateness, config.GetDuration("routing.max_lateness"));
  PS_ASSIGN_OR_RETURN(r.idle_timeout, config.GetDuration("routing.idle_timeout"));
  PS_ASSIGN_OR_RETURN(r.checkpoint_interval, config.GetDuration("routing.checkpoint_interval"));
  if (r.checkpoint_interval < std::chrono::milliseconds(10)) {
    return Status::InvalidArgument("routing.checkpoint_interval must be at least 10ms");
  }
  PS_ASSIGN_OR_RETURN(r.retention, config.GetDuration("routing.retention"));
  r.input_topic = o.input_topic;
  r.url_topic = o.group_id + "-routed-url";
  r.content_topic = o.group_id + "-routed-content";
  r.near_topic = o.group_id + "-routed-near";
  if (!r.enabled) return Status::Ok();
  if (!o.processing.exactly_once) {
    // A message sent twice would be a probe answered twice or an outcome
    // applied twice: the owners' protocol counts on each exactly once.
    return Status::InvalidArgument(
        "scope.routing = \"fingerprint\" needs processing.guarantee = \"exactly_once\"");
  }
  // The route stage reads the input however it is partitioned.
  o.rekey.enabled = false;
  std::vector<std::string> taken = o.output.All();
  taken.push_back(o.input_topic);
  if (o.changelog.enabled) taken.push_back(o.changelog.topic);
  for (const std::string& topic : r.Topics()) {
    if (std::find(taken.begin(), taken.end(), topic) != taken.end()) {
      return Status::InvalidArgument("topic '" + topic +
                                     "' is routed dedup's internal topic (scope.routing = "
                                     "\"fingerprint\"); choose another input, output or "
                                     "changelog topic");
    }
  }
  return Status::Ok();
}

}  // namespace pagesieve::kafka

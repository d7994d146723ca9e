#include "kafka/kafka_options.h"

#include <librdkafka/rdkafkacpp.h>

#include <algorithm>
#include <cstdlib>

namespace pagesieve::kafka {
namespace {

// What pagesieve's delivery guarantee rests on. A pass-through value that
// differs is refused rather than silently overridden.
const std::map<std::string, std::string>& FixedConsumerProperties() {
  static const std::map<std::string, std::string> kFixed = {
      {"enable.auto.commit", "false"},
      {"enable.auto.offset.store", "false"},
      {"partition.assignment.strategy", "cooperative-sticky"},
  };
  return kFixed;
}

const std::map<std::string, std::string>& FixedProducerProperties() {
  static const std::map<std::string, std::string> kFixed = {
      {"enable.idempotence", "true"},
      {"acks", "all"},
  };
  return kFixed;
}

// Defaults pagesieve prefers, which users may change.
const std::map<std::string, std::string>& DefaultProducerProperties() {
  static const std::map<std::string, std::string> kDefaults = {
      {"linger.ms", "5"},
      // Wait for a broker that is away rather than drop verdicts: an
      // undelivered verdict is never committed, so waiting loses nothing.
      {"message.timeout.ms", "0"},
      {"compression.type", "lz4"},
  };
  return kDefaults;
}

StatusOr<std::map<std::string, std::string>> ReadTable(const Config& config, const char* key) {
  PS_ASSIGN_OR_RETURN(auto entries, config.GetStringMap(key));
  return std::map<std::string, std::string>(entries.begin(), entries.end());
}

Status CheckNotOverridden(const std::map<std::string, std::string>& given,
                          const std::map<std::string, std::string>& fixed, const char* table) {
  for (const auto& [name, value] : fixed) {
    auto it = given.find(name);
    if (it != given.end() && it->second != value) {
      return Status::InvalidArgument(std::string(table) + "." + name + " = " + it->second +
                                     " is not allowed: pagesieve needs " + name + " = " + value +
                                     " to guarantee that no record is lost");
    }
  }
  return Status::Ok();
}

StatusOr<std::unique_ptr<RdKafka::Conf>> BuildConf(
    const std::vector<const std::map<std::string, std::string>*>& layers) {
  std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
  std::string err;
  for (const auto* layer : layers) {
    for (const auto& [name, value] : *layer) {
      if (conf->set(name, value, err) != RdKafka::Conf::CONF_OK) {
        return Status::InvalidArgument("librdkafka property " + name + " = " + value + ": " + err);
      }
    }
  }
  return conf;
}

}  // namespace

std::vector<std::string> OutputTopics::All() const {
  std::vector<std::string> all = {unique, duplicate, skipped, dead_letter};
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

StatusOr<KafkaOptions> KafkaOptionsFromConfig(const Config& config) {
  KafkaOptions o;
  PS_ASSIGN_OR_RETURN(o.bootstrap_servers, config.GetString("kafka.bootstrap_servers"));
  PS_ASSIGN_OR_RETURN(o.group_id, config.GetString("kafka.group_id"));
  PS_ASSIGN_OR_RETURN(o.instance_id, config.GetString("kafka.instance_id"));
  PS_ASSIGN_OR_RETURN(o.input_topic, config.GetString("kafka.input_topic"));
  PS_ASSIGN_OR_RETURN(o.startup_timeout, config.GetDuration("kafka.startup_timeout"));
  PS_ASSIGN_OR_RETURN(o.common, ReadTable(config, "kafka.common"));
  PS_ASSIGN_OR_RETURN(o.consumer, ReadTable(config, "kafka.consumer"));
  PS_ASSIGN_OR_RETURN(o.producer, ReadTable(config, "kafka.producer"));
  PS_ASSIGN_OR_RETURN(o.output.unique, config.GetString("output.unique"));
  PS_ASSIGN_OR_RETURN(o.output.duplicate, config.GetString("output.duplicate"));
  PS_ASSIGN_OR_RETURN(o.output.skipped, config.GetString("output.skipped"));
  PS_ASSIGN_OR_RETURN(o.output.dead_letter, config.GetString("output.dead_letter"));
  PS_ASSIGN_OR_RETURN(o.output.include_body, config.GetBool("output.include_body"));
  for (const auto* table : {&o.common, &o.producer}) {  // the producer's wins
    auto it = table->find("message.max.bytes");
    if (it != table->end()) o.output.max_message_bytes = std::strtoll(it->second.c_str(), nullptr, 10);
  }
  PS_ASSIGN_OR_RETURN(int64_t max_message_bytes, config.GetInt("output.max_message_bytes"));
  if (max_message_bytes < 0 || (max_message_bytes > 0 && max_message_bytes < 1000)) {
    return Status::InvalidArgument(
        "output.max_message_bytes must be 0 (learnt from the topics) or at least 1000");
  }
  if (max_message_bytes > 0) {
    o.output.max_message_bytes = std::min(o.output.max_message_bytes, max_message_bytes);
    o.output.learn_topic_limits = false;
  }
  PS_ASSIGN_OR_RETURN(o.changelog.enabled, config.GetBool("changelog.enabled"));
  PS_ASSIGN_OR_RETURN(o.changelog.topic, config.GetString("changelog.topic"));
  if (o.changelog.topic.empty()) o.changelog.topic = o.group_id + "-state-changelog";
  PS_ASSIGN_OR_RETURN(o.changelog.revoked_shard_grace,
                      config.GetDuration("changelog.revoked_shard_grace"));
  PS_ASSIGN_OR_RETURN(std::string partitioned_by, config.GetString("input.partitioned_by"));
  if (partitioned_by.empty()) {
    return Status::InvalidArgument(
        "input.partitioned_by must not be empty: \"scope\" when the input is partitioned by "
        "scope, else what it is partitioned by (\"url\", \"none\")");
  }
  o.rekey.enabled = partitioned_by != "scope";
  PS_ASSIGN_OR_RETURN(o.rekey.topic, config.GetString("input.repartition_topic"));
  if (o.rekey.topic.empty()) o.rekey.topic = o.group_id + "-repartition";
  PS_ASSIGN_OR_RETURN(int64_t partitions, config.GetInt("input.repartition_partitions"));
  if (partitions < 0 || partitions > 100000) {
    return Status::InvalidArgument("input.repartition_partitions must be between 0 and 100000");
  }
  o.rekey.partitions = static_cast<int32_t>(partitions);
  PS_ASSIGN_OR_RETURN(o.rekey.retention, config.GetDuration("input.repartition_retention"));
  o.rekey.group_id = o.group_id + "-rekey";
  PS_ASSIGN_OR_RETURN(std::string guarantee, config.GetString("processing.guarantee"));
  if (guarantee != "exactly_once" && guarantee != "at_least_once") {
    return Status::InvalidArgument(
        "processing.guarantee must be exactly_once or at_least_once, not '" + guarantee + "'");
  }
  o.processing.exactly_once = guarantee == "exactly_once";
  PS_ASSIGN_OR_RETURN(o.processing.transactional_id,
                      config.GetString("processing.transactional_id"));
  PS_ASSIGN_OR_RETURN(o.processing.transaction_timeout,
                      config.GetDuration("processing.transaction_timeout"));
  if (o.processing.transaction_timeout < std::chrono::seconds(1) ||
      o.processing.transaction_timeout > std::chrono::minutes(15)) {
    // The broker's transaction.max.timeout.ms is 15 minutes by default.
    return Status::InvalidArgument("processing.transaction_timeout must be between 1s and 15m");
  }

  const std::pair<const char*, const std::string*> required[] = {
      {"kafka.bootstrap_servers", &o.bootstrap_servers},
      {"kafka.group_id", &o.group_id},
      {"kafka.input_topic", &o.input_topic},
      {"output.unique", &o.output.unique},
      {"output.duplicate", &o.output.duplicate},
      {"output.skipped", &o.output.skipped},
      {"output.dead_letter", &o.output.dead_letter}};
  for (const auto& [key, value] : required) {
    if (value->empty()) return Status::InvalidArgument(std::string(key) + " must not be empty");
  }
  for (const std::string& topic : o.output.All()) {
    if (topic == o.input_topic) {
      return Status::InvalidArgument("output topic '" + topic +
                                     "' is the input topic: verdicts would be read back as pages");
    }
    if (o.changelog.enabled && topic == o.changelog.topic) {
      return Status::InvalidArgument("changelog.topic '" + topic + "' is also an output topic");
    }
  }
  if (o.changelog.enabled && o.changelog.topic == o.input_topic) {
    return Status::InvalidArgument("changelog.topic '" + o.input_topic + "' is the input topic");
  }
  if (o.rekey.enabled) {
    std::vector<std::string> others = o.output.All();
    others.push_back(o.input_topic);
    if (o.changelog.enabled) others.push_back(o.changelog.topic);
    for (const std::string& topic : others) {
      if (topic == o.rekey.topic) {
        return Status::InvalidArgument("input.repartition_topic '" + topic +
                                       "' is also the input, an output or the changelog topic");
      }
    }
  }
  PS_RETURN_IF_ERROR(ReadRoutingOptions(config, o));
  PS_RETURN_IF_ERROR(CheckNotOverridden(o.common, FixedConsumerProperties(), "kafka.common"));
  PS_RETURN_IF_ERROR(CheckNotOverridden(o.common, FixedProducerProperties(), "kafka.common"));
  PS_RETURN_IF_ERROR(CheckNotOverridden(o.consumer, FixedConsumerProperties(), "kafka.consumer"));
  PS_RETURN_IF_ERROR(CheckNotOverridden(o.producer, FixedProducerProperties(), "kafka.producer"));
  return o;
}

StatusOr<std::unique_ptr<RdKafka::Conf>> ConsumerConf(const KafkaOptions& o) {
  std::map<std::string, std::string> base = {
      {"bootstrap.servers", o.bootstrap_servers},
      {"group.id", o.group_id},
      // Where a partition without a checkpoint or committed offset starts.
      {"auto.offset.reset", "earliest"},
      // A backfill's end may be a transaction marker, which is never
      // delivered: the end of the log says the end is reached.
      {"enable.partition.eof", "true"},
      // Only committed records: what an aborted transaction held (a zombie's,
      // a crashed re-keying stage's) is never decided.
      {"isolation.level", "read_committed"},
  };
  if (!o.instance_id.empty()) base["group.instance.id"] = o.instance_id;
  return BuildConf({&base, &o.common, &o.consumer, &FixedConsumerProperties()});
}

StatusOr<std::unique_ptr<RdKafka::Conf>> RestoreConsumerConf(const KafkaOptions& o) {
  std::map<std::string, std::string> consumer = o.consumer;
  consumer.erase("group.instance.id");  // never a member: the id belongs to the main consumer
  const std::map<std::string, std::string> base = {
      {"bootstrap.servers", o.bootstrap_servers},
      {"group.id", o.group_id + "-restore"},  // required by the client; never joined
      {"auto.offset.reset", "earliest"},
      {"enable.partition.eof", "true"},  // the end of a partition ends its restore
      // A restore applies committed changelog records only, and ends at the
      // last stable offset.
      {"isolation.level", "read_committed"},
  };
  static const std::map<std::string, std::string> kFixed = {{"enable.auto.commit", "false"},
                                                            {"enable.auto.offset.store", "false"}};
  return BuildConf({&base, &o.common, &consumer, &kFixed});
}

StatusOr<std::unique_ptr<RdKafka::Conf>> ProducerConf(const KafkaOptions& o) {
  const std::map<std::string, std::string> base = {{"bootstrap.servers", o.bootstrap_servers}};
  // A batch of small messages must fit the smallest topic as one message
  // must (librdkafka's floor for both is 1000 bytes).
  const int64_t limit = std::max<int64_t>(o.output.max_message_bytes, 1000);
  std::map<std::string, std::string> sized = {{"message.max.bytes", std::to_string(limit)}};
  for (const auto* table : {&o.common, &o.producer}) {
    auto it = table->find("batch.size");
    if (it != table->end()) sized["batch.size"] = it->second;
  }
  auto batch = sized.find("batch.size");
  if (batch == sized.end() || std::strtoll(batch->second.c_str(), nullptr, 10) > limit) {
    sized["batch.size"] = std::to_string(limit);
  }
  std::map<std::string, std::string> transactional;
  if (o.processing.exactly_once && !o.processing.transactional_id.empty()) {
    const std::string timeout_ms = std::to_string(
        std::chrono::duration_cast<std::chrono::milliseconds>(o.processing.transaction_timeout)
            .count());
    transactional = {{"transactional.id", o.processing.transactional_id},
                     {"transaction.timeout.ms", timeout_ms},
                     // librdkafka requires it within the transaction timeout; a
                     // message that times out aborts its transaction, and the
                     // records are decided again: nothing is lost.
                     {"message.timeout.ms", timeout_ms}};
  }
  return BuildConf({&base, &DefaultProducerProperties(), &o.common, &o.producer, &sized,
                    &transactional, &FixedProducerProperties()});
}

Status CheckClientConfs(const KafkaOptions& options) {
  PS_RETURN_IF_ERROR(ConsumerConf(options).status());
  return ProducerConf(options).status();
}

}  // namespace pagesieve::kafka

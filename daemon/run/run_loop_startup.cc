// Start-up of the run loop: every check that can fail fails here, with one
// clear message, before any record is consumed.
#include <librdkafka/rdkafkacpp.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "common/duration.h"
#include "engine/repartition_record.h"
#include "run/run_loop.h"

namespace pagesieve::run {
namespace {

// Routes librdkafka's rebalance events to the loop.
class RebalanceHandler final : public RdKafka::RebalanceCb {
 public:
  explicit RebalanceHandler(RunLoop* loop) : loop_(loop) {}
  void rebalance_cb(RdKafka::KafkaConsumer* consumer, RdKafka::ErrorCode err,
                    std::vector<RdKafka::TopicPartition*>& partitions) override {
    if (err == RdKafka::ERR__ASSIGN_PARTITIONS) {
      loop_->OnAssign(partitions);
    } else if (err == RdKafka::ERR__REVOKE_PARTITIONS) {
      if (consumer->assignment_lost()) {
        loop_->OnLost(partitions);
      } else {
        loop_->OnRevoke(partitions);
      }
    } else {
      spdlog::error("rebalance: {}", RdKafka::err2str(err));
    }
  }

 private:
  RunLoop* loop_;
};

// Counts failed deliveries, then hands every report to the sink's callback.
class CountedDeliveryReports final : public RdKafka::DeliveryReportCb {
 public:
  CountedDeliveryReports(RdKafka::DeliveryReportCb& inner, metrics::Counter& errors)
      : inner_(inner), errors_(errors) {}
  void dr_cb(RdKafka::Message& message) override {
    if (message.err() != RdKafka::ERR_NO_ERROR) errors_.Inc();
    inner_.dr_cb(message);
  }

 private:
  RdKafka::DeliveryReportCb& inner_;
  metrics::Counter& errors_;
};

// librdkafka's own log lines and client errors, through spdlog: in the
// configured format (one JSON object per line with log.format = json)
// instead of librdkafka's private one on stderr. Called from librdkafka's
// threads; spdlog's default logger is thread-safe.
class KafkaLogEvents final : public RdKafka::EventCb {
 public:
  void event_cb(RdKafka::Event& event) override {
    switch (event.type()) {
      case RdKafka::Event::EVENT_LOG:
        spdlog::log(Level(event.severity()), "librdkafka {}: {}", event.fac(), event.str());
        break;
      case RdKafka::Event::EVENT_ERROR:
        // Brokers going away and coming back land here; the client retries.
        spdlog::warn("librdkafka: {}: {}", RdKafka::err2str(event.err()), event.str());
        break;
      default:
        break;
    }
  }

 private:
  static spdlog::level::level_enum Level(RdKafka::Event::Severity s) {
    if (s <= RdKafka::Event::EVENT_SEVERITY_ERROR) return spdlog::level::err;
    if (s == RdKafka::Event::EVENT_SEVERITY_WARNING) return spdlog::level::warn;
    if (s <= RdKafka::Event::EVENT_SEVERITY_INFO) return spdlog::level::info;
    return spdlog::level::debug;
  }
};

Status CheckWritable(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string probe = dir + "/.pagesieve-write-probe";
  {
    std::ofstream out(probe);
    out << "ok";
    if (!out) {
      return Status::FailedPrecondition("state directory '" + dir +
                                        "' is not writable: " + std::strerror(errno));
    }
  }
  std::filesystem::remove(probe, ec);
  return Status::Ok();
}

}  // namespace

Status RunLoop::Start() {
  if (stateful()) {
    PS_RETURN_IF_ERROR(CheckWritable(state_options_.dir));
    PS_ASSIGN_OR_RETURN(state_, store::StateEnv::Create(state_options_));
  }

  std::string err;
  PS_ASSIGN_OR_RETURN(auto producer_conf, kafka::ProducerConf(kafka_));
  kafka_events_ = std::make_unique<KafkaLogEvents>();
  if (producer_conf->set("event_cb", kafka_events_.get(), err) != RdKafka::Conf::CONF_OK) {
    return Status::Internal(err);
  }
  counted_reports_ =
      std::make_unique<CountedDeliveryReports>(delivery_reports_, metrics_->delivery_errors);
  if (producer_conf->set("dr_cb", counted_reports_.get(), err) != RdKafka::Conf::CONF_OK) {
    return Status::Internal(err);
  }
  producer_.reset(RdKafka::Producer::create(producer_conf.get(), err));
  if (!producer_) return Status::InvalidArgument("cannot create the Kafka producer: " + err);
  sink_ = std::make_unique<kafka::KafkaSink>(producer_.get());
  delivery_reports_.set_sink(sink_.get());

  PS_ASSIGN_OR_RETURN(auto consumer_conf, kafka::ConsumerConf(kafka_));
  if (consumer_conf->set("event_cb", kafka_events_.get(), err) != RdKafka::Conf::CONF_OK) {
    return Status::Internal(err);
  }
  rebalance_cb_ = std::make_unique<RebalanceHandler>(this);
  if (consumer_conf->set("rebalance_cb", rebalance_cb_.get(), err) != RdKafka::Conf::CONF_OK) {
    return Status::Internal(err);
  }
  consumer_.reset(RdKafka::KafkaConsumer::create(consumer_conf.get(), err));
  if (!consumer_) return Status::InvalidArgument("cannot create the Kafka consumer: " + err);

  PS_RETURN_IF_ERROR(CheckBrokerAndTopics());
  // The stage reading the repartition topic learns its ends once the
  // re-keying stage is done (CheckBackfillProgress).
  if (run_.stage != Stage::kDecideRekeyed) PS_RETURN_IF_ERROR(ComputeBackfillEnds());
  if (kafka_.changelog.enabled && stateful()) {
    restorer_ = std::make_unique<ChangelogRestorer>(kafka_, *state_, sieve_options_.shard, clock_,
                                                    *metrics_);
    PS_RETURN_IF_ERROR(restorer_->Init());
    PS_RETURN_IF_ERROR(NoteUnownedShards());
  }
  if (run_.stage == Stage::kDecideRekeyed) {
    // Fingerprinting was done by the re-keying stage: decoding is all.
    pool_ = std::make_unique<engine::PreparePool>(
        []() -> engine::PreparePool::PrepareFn {
          return [](const engine::InputRecord& r) {
            return engine::DecodeRepartitionRecord(r.value);
          };
        },
        clock_, 1);
  } else {
    pool_ = std::make_unique<engine::PreparePool>(sieve_options_, clock_, run_.threads);
  }
  const RdKafka::ErrorCode sub = consumer_->subscribe({kafka_.input_topic});
  if (sub != RdKafka::ERR_NO_ERROR) {
    return Status::Unavailable("cannot subscribe to " + kafka_.input_topic + ": " +
                               RdKafka::err2str(sub));
  }
  spdlog::info("{}consuming {} as group {} ({} partitions), {} {} threads",
               run_.stage == Stage::kRekey ? "re-keying stage: " : "", kafka_.input_topic,
               kafka_.group_id, input_partitions_, pool_->threads(),
               run_.stage == Stage::kDecideRekeyed ? "decoding" : "fingerprinting");
  started_ = true;
  return Status::Ok();
}

Status RunLoop::CheckBrokerAndTopics() {
  const auto deadline = clock_.SteadyNow() + kafka_.startup_timeout;
  std::unique_ptr<RdKafka::Metadata> metadata;
  RdKafka::ErrorCode err = RdKafka::ERR_NO_ERROR;
  for (;;) {
    RdKafka::Metadata* raw = nullptr;
    err = consumer_->metadata(/*all_topics=*/true, nullptr, &raw, 2000);
    metadata.reset(raw);
    if (err == RdKafka::ERR_NO_ERROR) break;
    if (stop_requested_.load()) return Status::Aborted("stopped while waiting for Kafka");
    if (clock_.SteadyNow() >= deadline) {
      return Status::Unavailable("cannot reach Kafka at " + kafka_.bootstrap_servers +
                                 " within " + FormatDuration(kafka_.startup_timeout) + " (" +
                                 RdKafka::err2str(err) + "; kafka.startup_timeout)");
    }
  }
  auto find = [&](const std::string& name) -> const RdKafka::TopicMetadata* {
    for (const RdKafka::TopicMetadata* t : *metadata->topics()) {
      if (t->topic() == name && t->err() == RdKafka::ERR_NO_ERROR) return t;
    }
    return nullptr;
  };
  const RdKafka::TopicMetadata* input = find(kafka_.input_topic);
  if (input == nullptr) {
    return Status::FailedPrecondition("input topic '" + kafka_.input_topic +
                                      "' does not exist (kafka.input_topic)");
  }
  input_partitions_ = static_cast<int32_t>(input->partitions()->size());
  const std::pair<const char*, const std::string*> outputs[] = {
      {"output.unique", &kafka_.output.unique},
      {"output.duplicate", &kafka_.output.duplicate},
      {"output.skipped", &kafka_.output.skipped},
      {"output.dead_letter", &kafka_.output.dead_letter}};
  for (const auto& [key, topic] : outputs) {
    if (find(*topic) == nullptr) {
      return Status::FailedPrecondition("output topic '" + *topic + "' does not exist (" + key +
                                        ")");
    }
  }
  if (run_.stage == Stage::kRekey) {
    const RdKafka::TopicMetadata* repartition = find(kafka_.rekey.topic);
    PS_RETURN_IF_ERROR(EnsureRepartitionTopic(
        repartition ? static_cast<int32_t>(repartition->partitions()->size()) : 0));
  }
  if (kafka_.changelog.enabled && stateful()) {
    const RdKafka::TopicMetadata* changelog = find(kafka_.changelog.topic);
    PS_RETURN_IF_ERROR(EnsureChangelogTopic(
        changelog ? static_cast<int32_t>(changelog->partitions()->size()) : 0));
  }
  return Status::Ok();
}

Status RunLoop::ComputeBackfillEnds() {
  backfill_ends_known_ = true;
  if (run_.until.kind == EndPosition::Kind::kForever) return Status::Ok();
  for (int32_t i = 0; i < input_partitions_; ++i) {
    const PartitionId p(i);
    PS_ASSIGN_OR_RETURN(auto marks, Watermarks(p));
    int64_t end = marks.second;
    if (run_.until.kind == EndPosition::Kind::kTime) {
      std::vector<RdKafka::TopicPartition*> parts = {
          RdKafka::TopicPartition::create(kafka_.input_topic, i, ToMillis(run_.until.time))};
      const RdKafka::ErrorCode err = consumer_->offsetsForTimes(parts, 10000);
      if (err == RdKafka::ERR_NO_ERROR && parts[0]->offset() >= 0) end = parts[0]->offset();
      RdKafka::TopicPartition::destroy(parts);
    }
    backfill_end_[p] = Offset(end);
  }
  return Status::Ok();
}

}  // namespace pagesieve::run

#include "demo/demo_runner.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <thread>

#include "demo/kafka_io.h"
#include "demo/mock_cluster.h"
#include "engine/engine_options.h"
#include "kafka/kafka_options.h"
#include "kafka/topic_admin.h"
#include "run/kafka_stage.h"
#include "run/run_options.h"
#include "store/shard_options.h"

namespace pagesieve::demo {
namespace {

// A private state directory, removed with everything in it.
class TempStateDir {
 public:
  static StatusOr<std::unique_ptr<TempStateDir>> Create() {
    std::error_code ec;
    std::string pattern =
        (std::filesystem::temp_directory_path(ec) / "pagesieve-demo-XXXXXX").string();
    if (ec || ::mkdtemp(pattern.data()) == nullptr) {
      return Status::IoError("cannot create a temporary state directory under " + pattern);
    }
    return std::make_unique<TempStateDir>(pattern);
  }
  explicit TempStateDir(std::string path) : path_(std::move(path)) {}
  ~TempStateDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Everything the run needs, read from the configuration.
struct Setup {
  kafka::KafkaOptions kafka;
  engine::EngineOptions sieve;
  store::StateEnvOptions state;
  run::RunOptions run;
};

StatusOr<Setup> ReadSetup(const Config& config) {
  Setup s;
  PS_ASSIGN_OR_RETURN(s.kafka, kafka::KafkaOptionsFromConfig(config));
  PS_ASSIGN_OR_RETURN(s.sieve, engine::EngineOptionsFromConfig(config));
  PS_ASSIGN_OR_RETURN(s.state, store::StateEnvOptionsFromConfig(config));
  PS_ASSIGN_OR_RETURN(s.run, run::RunOptionsFromConfig(config));
  s.run.from.kind = run::StartPosition::Kind::kEarliest;
  s.run.until.kind = run::EndPosition::Kind::kEnd;
  return s;
}

// Names that no earlier demo on the same broker used.
std::string UniqueId(const Clock& clock) {
  char id[40];
  std::snprintf(id, sizeof id, "%llx-%d",
                static_cast<unsigned long long>(clock.Now().time_since_epoch().count()),
                static_cast<int>(::getpid()));
  return id;
}

std::vector<std::string> DemoOverrides(const std::string& bootstrap, const std::string& prefix,
                                       const std::string& group) {
  return {"kafka.bootstrap_servers=" + bootstrap, "kafka.group_id=" + group,
          "kafka.input_topic=" + prefix + "pages", "output.unique=" + prefix + "unique",
          "output.duplicate=" + prefix + "duplicate", "output.skipped=" + prefix + "skipped",
          "output.dead_letter=" + prefix + "dead-letter",
          "changelog.topic=" + prefix + "state-changelog",
          // The sample's timestamps are fixed (it replays identically);
          // the future-clock guard is about live crawlers.
          "event.max_future=0s", "log.level=warn",
          // librdkafka's mock cluster does not answer DescribeConfigs.
          "output.max_message_bytes=1000000"};
}

std::vector<std::string> AllTopics(const kafka::KafkaOptions& kafka) {
  std::vector<std::string> topics = kafka.output.All();
  topics.insert(topics.begin(), kafka.input_topic);
  // The mock cluster cannot create topics through the admin API: the run
  // loop would wait for it in vain.
  if (kafka.changelog.enabled) topics.push_back(kafka.changelog.topic);
  return topics;
}

// Topic metadata reaches every broker a moment after CreateTopics returns.
StatusOr<TopicRanges> WaitForTopics(const kafka::KafkaOptions& kafka,
                                    const std::vector<std::string>& topics, Duration timeout) {
  const auto deadline = Clock::System().SteadyNow() + timeout;
  for (;;) {
    StatusOr<TopicRanges> ranges = Watermarks(kafka, topics, timeout);
    if (ranges.ok() || ranges.status().code() != StatusCode::kNotFound ||
        Clock::System().SteadyNow() >= deadline) {
      return ranges;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

// The mock keeps only a few MiB per partition: a sample that does not fit
// would silently lose its oldest events.
Status CheckAllKept(const TopicRanges& before, const TopicRanges& after, const std::string& topic,
                    size_t produced) {
  int64_t added = 0;
  for (const auto& [tp, range] : after) {
    if (tp.first != topic) continue;
    auto old = before.find(tp);
    const int64_t start = old == before.end() ? 0 : old->second.high;
    if (range.low > start) {
      return Status::ResourceExhausted(
          "the broker dropped sample events from " + topic + "-" + std::to_string(tp.second) +
          " (its retention, or the mock cluster's per-partition limit): use fewer --events");
    }
    added += range.high - start;
  }
  if (added != static_cast<int64_t>(produced)) {
    return Status::FailedPrecondition("produced " + std::to_string(produced) + " events but " +
                                      topic + " grew by " + std::to_string(added) +
                                      ": another producer is writing to it");
  }
  return Status::Ok();
}

Status CreateTopics(MockCluster* mock, const std::optional<std::string>& bootstrap,
                    const kafka::KafkaOptions& kafka, const DemoOptions& options) {
  const std::vector<std::string> topics = AllTopics(kafka);
  if (mock != nullptr) {
    for (const std::string& t : topics)
      PS_RETURN_IF_ERROR(mock->CreateTopic(t, options.partitions));
    return Status::Ok();
  }
  return kafka::TopicAdmin(*bootstrap, kafka.common, options.timeout)
      .Create(topics, options.partitions);
}

// Deletes the topics this demo named and created on a real broker.
void DeleteOwnTopics(const kafka::KafkaOptions& kafka, const std::string& prefix,
                     Duration timeout) {
  std::vector<std::string> own;
  for (const std::string& t : AllTopics(kafka)) {
    if (t.rfind(prefix, 0) == 0) own.push_back(t);
  }
  const Status s = kafka::TopicAdmin(kafka.bootstrap_servers, kafka.common, timeout).Delete(own);
  if (!s.ok())
    std::fprintf(stderr, "pagesieve demo: could not delete its topics: %s\n", s.message().c_str());
}

StatusOr<DemoResult> RunOnCluster(const DemoOptions& options, Setup setup, MockCluster* mock,
                                  const std::vector<SampleEvent>& events, const Clock& clock,
                                  const std::atomic<bool>& stop) {
  const kafka::KafkaOptions& kafka = setup.kafka;
  PS_ASSIGN_OR_RETURN(TopicRanges before, WaitForTopics(kafka, AllTopics(kafka), options.timeout));
  PS_RETURN_IF_ERROR(ProduceSample(kafka, kafka.input_topic, events, options.timeout));
  PS_ASSIGN_OR_RETURN(TopicRanges after, Watermarks(kafka, {kafka.input_topic}, options.timeout));
  PS_RETURN_IF_ERROR(CheckAllKept(before, after, kafka.input_topic, events.size()));

  PS_ASSIGN_OR_RETURN(auto state_dir, TempStateDir::Create());
  setup.state.dir = state_dir->path();
  const auto started = clock.SteadyNow();
  run::KafkaStage stage(kafka, std::move(setup.sieve), setup.state, setup.run, clock, stop);
  PS_ASSIGN_OR_RETURN(run::RunSummary run, stage.Run());
  DemoResult result;
  result.context.run_seconds = std::chrono::duration<double>(clock.SteadyNow() - started).count();
  result.run_complete = run.backfill_complete;

  PS_ASSIGN_OR_RETURN(std::vector<OutputRecord> outputs,
                      ReadOutputs(kafka, kafka.output.All(), Ends(before), options.timeout));
  result.summary = Summarize(events, outputs);
  result.context.seed = options.sample.seed;
  result.context.input_topic = kafka.input_topic;
  result.context.partitions = options.partitions;
  result.context.kafka = mock ? "librdkafka's in-process mock cluster at " + kafka.bootstrap_servers
                              : "the broker at " + kafka.bootstrap_servers;
  return result;
}

}  // namespace

StatusOr<DemoResult> RunDemo(const DemoOptions& options, const ConfigLoader& load,
                             const Clock& clock, const std::atomic<bool>& stop) {
  std::unique_ptr<MockCluster> mock;
  std::string bootstrap, prefix = "demo-", group = "pagesieve-demo";
  if (options.bootstrap) {
    bootstrap = *options.bootstrap;
    const std::string id = UniqueId(clock);
    prefix = "pagesieve-demo-" + id + "-";
    group = "pagesieve-demo-" + id;
  } else {
    PS_ASSIGN_OR_RETURN(mock, MockCluster::Start(1));
    bootstrap = mock->bootstrap_servers();
  }
  PS_ASSIGN_OR_RETURN(Config config, load(DemoOverrides(bootstrap, prefix, group)));
  PS_ASSIGN_OR_RETURN(Setup setup, ReadSetup(config));
  const kafka::KafkaOptions kafka = setup.kafka;
  PS_RETURN_IF_ERROR(CreateTopics(mock.get(), options.bootstrap, kafka, options));
  const std::vector<SampleEvent> events = GenerateSampleCrawl(options.sample);
  StatusOr<DemoResult> result =
      RunOnCluster(options, std::move(setup), mock.get(), events, clock, stop);
  if (options.bootstrap) DeleteOwnTopics(kafka, prefix, options.timeout);
  return result;
}

StatusOr<int64_t> ProduceDemoSample(const DemoOptions& options, const ConfigLoader& load) {
  std::vector<std::string> overrides;
  if (options.bootstrap) overrides.push_back("kafka.bootstrap_servers=" + *options.bootstrap);
  PS_ASSIGN_OR_RETURN(Config config, load(overrides));
  PS_ASSIGN_OR_RETURN(kafka::KafkaOptions kafka, kafka::KafkaOptionsFromConfig(config));
  const std::vector<SampleEvent> events = GenerateSampleCrawl(options.sample);
  PS_RETURN_IF_ERROR(ProduceSample(kafka, kafka.input_topic, events, options.timeout));
  return static_cast<int64_t>(events.size());
}

}  // namespace pagesieve::demo

// pagesieve run: consume fetched-page events in a consumer group, publish
// verdicts.
#include "commands/run_command.h"

#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>

#include "cli/command.h"
#include "cli/logging.h"
#include "common/clock.h"
#include "engine/engine_options.h"
#include "http/metrics_options.h"
#include "http/metrics_server.h"
#include "kafka/kafka_options.h"
#include "run/kafka_stage.h"
#include "run/stage_chain.h"
#include "run/run_options.h"
#include "store/shard_options.h"

namespace pagesieve::commands {
namespace {

std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void OnStopSignal(int) { g_stop.store(true); }

struct RunFlags {
  cli::ConfigFlags config;
  std::string from;
  std::string until;
};

// Everything a run needs from the configuration and flags; a failure is a
// usage error (exit 2).
struct RunSetup {
  kafka::KafkaOptions kafka;
  engine::EngineOptions sieve;
  store::StateEnvOptions state;
  run::RunOptions run;
  http::MetricsOptions metrics;
};

StatusOr<RunSetup> Setup(const RunFlags& flags) {
  PS_ASSIGN_OR_RETURN(Config config, flags.config.Load());
  PS_RETURN_IF_ERROR(cli::ConfigureLogging(config));
  RunSetup s;
  PS_ASSIGN_OR_RETURN(s.kafka, kafka::KafkaOptionsFromConfig(config));
  PS_ASSIGN_OR_RETURN(s.sieve, engine::EngineOptionsFromConfig(config));
  PS_ASSIGN_OR_RETURN(s.state, store::StateEnvOptionsFromConfig(config));
  PS_ASSIGN_OR_RETURN(s.run, run::RunOptionsFromConfig(config));
  PS_ASSIGN_OR_RETURN(s.metrics, http::MetricsOptionsFromConfig(config));
  if (!flags.from.empty()) {
    PS_ASSIGN_OR_RETURN(s.run.from, run::ParseStartPosition(flags.from));
  }
  if (!flags.until.empty()) {
    PS_ASSIGN_OR_RETURN(s.run.until, run::ParseEndPosition(flags.until));
  }
  // Validate the librdkafka properties now, not at the first connection.
  PS_RETURN_IF_ERROR(kafka::CheckClientConfs(s.kafka));
  return s;
}

// The input is partitioned by scope: one loop decides it.
StatusOr<run::RunSummary> RunOneStage(const RunSetup& setup, run::RunMetrics& metrics) {
  run::KafkaStage stage(setup.kafka, setup.sieve, setup.state, setup.run, Clock::System(), g_stop,
                        &metrics);
  return stage.Run();
}

// The first error of a chain's stages, naming the stage.
Status FirstError(const std::vector<StatusOr<run::RunSummary>>& results,
                  const std::vector<const char*>& names) {
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i].ok()) return results[i].status().WithContext(std::string(names[i]) + " stage");
  }
  return Status::Ok();
}

// A stage after the first of a chain: its own group, its input the topic
// the stage before writes, its own changelog. --from positions the input,
// not an internal topic; with --until it ends once the stage before it is
// done and it has decided everything that came.
void Downstream(kafka::KafkaOptions& kafka, run::RunOptions& run, const std::string& group,
                const std::string& input, const std::atomic<bool>* upstream_done) {
  kafka.group_id = group;
  kafka.input_topic = input;
  run.from = {};
  if (run.until.kind != run::EndPosition::Kind::kForever) {
    run.until.kind = run::EndPosition::Kind::kEnd;
  }
  run.upstream_done = upstream_done;
}

// input.partitioned_by is not "scope" (docs/rekey.md): the re-keying stage
// republishes the input to the repartition topic, keyed by scope, and the
// deciding stage reads that; each is a run loop with its own consumer group
// and thread (run::StageChain).
StatusOr<run::RunSummary> RunTwoStages(const RunSetup& setup, run::RunMetrics& rekey_metrics,
                                       run::RunMetrics& metrics) {
  run::StageChain chain(g_stop);
  kafka::KafkaOptions rekey_kafka = setup.kafka;
  rekey_kafka.group_id = setup.kafka.rekey.group_id;
  rekey_kafka.changelog.enabled = false;
  run::RunOptions rekey_run = setup.run;
  rekey_run.stage = run::StageKind::kRekey;
  const std::atomic<bool>& stop_rekey = chain.NextStopFlag();
  chain.Add(std::make_unique<run::KafkaStage>(std::move(rekey_kafka), setup.sieve, setup.state,
                                              rekey_run, Clock::System(), stop_rekey,
                                              &rekey_metrics),
            "re-keying");

  kafka::KafkaOptions decide_kafka = setup.kafka;
  run::RunOptions decide_run = setup.run;
  decide_run.stage = run::StageKind::kDecideRekeyed;
  Downstream(decide_kafka, decide_run, setup.kafka.group_id, setup.kafka.rekey.topic,
             chain.upstream_done(0));
  const std::atomic<bool>& stop_decide = chain.NextStopFlag();
  chain.Add(std::make_unique<run::KafkaStage>(std::move(decide_kafka), setup.sieve, setup.state,
                                              decide_run, Clock::System(), stop_decide, &metrics),
            "deciding");

  PS_ASSIGN_OR_RETURN(std::vector<StatusOr<run::RunSummary>> results, chain.Run());
  PS_RETURN_IF_ERROR(FirstError(results, {"re-keying", "deciding"}));
  run::RunSummary summary = *results[1];
  if (results[0]->counts.dead_letters > 0) {
    summary.counts.dead_letters += results[0]->counts.dead_letters;
    summary.counts.records += results[0]->counts.dead_letters;
  }
  return summary;
}

// The metrics of routed dedup's stages: the route stage's under the usual
// names (it counts every input record), each owner stage's under its own.
struct RoutedMetrics {
  explicit RoutedMetrics(metrics::Registry& registry)
      : url(registry, "pagesieve_url_owners_"),
        content(registry, "pagesieve_content_owners_"),
        near(registry, "pagesieve_near_owners_") {}
  run::RunMetrics url;
  run::RunMetrics content;
  run::RunMetrics near;
  bool ready() const { return url.ready.load() && content.ready.load() && near.ready.load(); }
};

// scope.routing = "fingerprint" (docs/global-routing.md): the route stage
// reads the events, the URL, content and near owners read their internal
// topics; four run loops in a chain.
StatusOr<run::RunSummary> RunRouted(const RunSetup& setup, run::RunMetrics& metrics,
                                    RoutedMetrics& owners) {
  const kafka::RoutingOptions& r = setup.kafka.routing;
  run::StageChain chain(g_stop);
  run::RunOptions route_run = setup.run;
  route_run.stage = run::StageKind::kRoute;
  route_run.checkpoint_interval = r.checkpoint_interval;
  const std::atomic<bool>& stop_route = chain.NextStopFlag();
  chain.Add(std::make_unique<run::KafkaStage>(setup.kafka, setup.sieve, setup.state, route_run,
                                              Clock::System(), stop_route, &metrics),
            "route");
  struct Owners {
    run::StageKind kind;
    const char* name;
    const std::string& topic;
    run::RunMetrics& metrics;
  };
  const Owners stages[] = {{run::StageKind::kUrlOwners, "url", r.url_topic, owners.url},
                           {run::StageKind::kContentOwners, "content", r.content_topic, owners.content},
                           {run::StageKind::kNearOwners, "near", r.near_topic, owners.near}};
  size_t upstream = 0;
  for (const Owners& o : stages) {
    kafka::KafkaOptions kafka = setup.kafka;
    run::RunOptions run = setup.run;
    run.stage = o.kind;
    run.checkpoint_interval = r.checkpoint_interval;
    Downstream(kafka, run, setup.kafka.group_id + "-" + o.name, o.topic,
               chain.upstream_done(upstream++));
    kafka.changelog.topic = kafka.group_id + "-state-changelog";
    const std::atomic<bool>& stop = chain.NextStopFlag();
    chain.Add(std::make_unique<run::KafkaStage>(std::move(kafka), setup.sieve, setup.state, run,
                                                Clock::System(), stop, &o.metrics),
              o.name);
  }
  PS_ASSIGN_OR_RETURN(std::vector<StatusOr<run::RunSummary>> results, chain.Run());
  PS_RETURN_IF_ERROR(FirstError(results, {"route", "url", "content", "near"}));
  // The route stage counts every input record (skipped verdicts and dead
  // letters are its own); the owners count the verdicts they decide.
  run::RunSummary summary = *results[0];
  summary.counts.rekeyed = 0;
  for (size_t i = 1; i < results.size(); ++i) {
    const engine::VerdictCounts& c = results[i]->counts;
    summary.counts.unique += c.unique;
    summary.counts.duplicate_url += c.duplicate_url;
    summary.counts.duplicate_exact += c.duplicate_exact;
    summary.counts.duplicate_near += c.duplicate_near;
    summary.backfill_complete = summary.backfill_complete && results[i]->backfill_complete;
  }
  return summary;
}

int Run(const RunFlags& flags) {
  StatusOr<RunSetup> setup = Setup(flags);
  if (!setup.ok()) {
    cli::PrintError(setup.status());
    return cli::kExitUsage;
  }
  std::signal(SIGTERM, OnStopSignal);
  std::signal(SIGINT, OnStopSignal);
  metrics::Registry registry;
  run::RunMetrics metrics(registry);
  // Two stages: the re-keying one reports under its own prefix, and the
  // daemon is ready when both are.
  std::optional<run::RunMetrics> rekey_metrics;
  if (setup->kafka.rekey.enabled) rekey_metrics.emplace(registry, run::kRekeyMetricsPrefix);
  std::optional<RoutedMetrics> routed_metrics;
  if (setup->kafka.routing.enabled) routed_metrics.emplace(registry);
  // Listening before Kafka is reached: /healthz answers during start-up, and
  // a busy port fails the start at once.
  http::MetricsServer server(registry, [&metrics, &rekey_metrics, &routed_metrics] {
    return metrics.ready.load() && (!rekey_metrics || rekey_metrics->ready.load()) &&
           (!routed_metrics || routed_metrics->ready());
  });
  if (setup->metrics.listen) {
    Status listening = server.Start(*setup->metrics.listen);
    if (!listening.ok()) {
      cli::PrintError(listening);
      return cli::kExitFailure;
    }
    http::ListenAddress bound = *setup->metrics.listen;
    bound.port = server.port();
    spdlog::info("serving /metrics, /healthz and /readyz on http://{}", bound.ToString());
  }
  StatusOr<run::RunSummary> summary =
      routed_metrics  ? RunRouted(*setup, metrics, *routed_metrics)
      : rekey_metrics ? RunTwoStages(*setup, *rekey_metrics, metrics)
                      : RunOneStage(*setup, metrics);
  if (!summary.ok()) {
    cli::PrintError(summary.status());
    return cli::kExitFailure;
  }
  if (summary->backfill_complete) {
    std::fprintf(stderr, "backfill complete: %lld records: %s\n",
                 static_cast<long long>(summary->counts.records),
                 summary->counts.Summary().c_str());
  }
  return cli::kExitOk;
}

}  // namespace

Command RegisterRunCommand(CLI::App& app) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* cmd = app.add_subcommand(
      "run", "Consume fetched-page events in a Kafka consumer group and publish verdicts");
  flags->config.AddTo(*cmd);
  cmd->add_option("--from", flags->from,
                  "Backfill: start each partition at earliest, latest or an RFC 3339 time "
                  "(default: where its state left off)");
  cmd->add_option("--until", flags->until,
                  "Backfill: stop at the end each partition had at start (end) or at an RFC 3339 "
                  "time, then exit (default: run until stopped)");
  return Command{cmd, [flags] { return Run(*flags); }};
}

}  // namespace pagesieve::commands

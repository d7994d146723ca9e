// pagesieve run: consume fetched-page events in a consumer group, publish
// verdicts.
#include "commands/run_command.h"

#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <thread>

#include "cli/command.h"
#include "cli/logging.h"
#include "common/clock.h"
#include "engine/engine_options.h"
#include "http/metrics_options.h"
#include "http/metrics_server.h"
#include "kafka/kafka_options.h"
#include "run/kafka_stage.h"
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

// input.partitioned_by is not "scope" (docs/rekey.md): the re-keying stage
// republishes the input to the repartition topic, keyed by scope, and the
// deciding stage reads that; each is a run loop with its own consumer group
// and thread. This thread supervises: a signal stops both, a failure of
// either stops the other, and with --until the deciding stage stops once
// it has read everything the re-keying stage published.
StatusOr<run::RunSummary> RunTwoStages(const RunSetup& setup, run::RunMetrics& rekey_metrics,
                                       run::RunMetrics& metrics) {
  kafka::KafkaOptions rekey_kafka = setup.kafka;
  rekey_kafka.group_id = setup.kafka.rekey.group_id;
  rekey_kafka.changelog.enabled = false;
  run::RunOptions rekey_run = setup.run;
  rekey_run.stage = run::StageKind::kRekey;

  std::atomic<bool> upstream_done{false};
  kafka::KafkaOptions decide_kafka = setup.kafka;
  decide_kafka.input_topic = setup.kafka.rekey.topic;
  run::RunOptions decide_run = setup.run;
  decide_run.stage = run::StageKind::kDecideRekeyed;
  decide_run.from = {};  // --from positions the input, not the repartition topic
  if (decide_run.until.kind != run::EndPosition::Kind::kForever) {
    decide_run.until.kind = run::EndPosition::Kind::kEnd;
  }
  decide_run.upstream_done = &upstream_done;

  std::atomic<bool> stop_rekey{false}, stop_decide{false};
  run::KafkaStage rekey(std::move(rekey_kafka), setup.sieve, setup.state, rekey_run,
                        Clock::System(), stop_rekey, &rekey_metrics);
  run::KafkaStage decide(std::move(decide_kafka), setup.sieve, setup.state, decide_run,
                         Clock::System(), stop_decide, &metrics);
  // In this order: the re-keying stage creates the repartition topic.
  PS_RETURN_IF_ERROR(rekey.Start().WithContext("re-keying stage"));
  PS_RETURN_IF_ERROR(decide.Start());

  StatusOr<run::RunSummary> rekey_result = Status::Aborted("not run");
  StatusOr<run::RunSummary> decide_result = Status::Aborted("not run");
  std::atomic<bool> rekey_finished{false}, decide_finished{false};
  std::thread rekey_thread([&] {
    rekey_result = rekey.Run();
    rekey_finished.store(true);
  });
  std::thread decide_thread([&] {
    decide_result = decide.Run();
    decide_finished.store(true);
  });
  bool rekey_seen = false;
  while (!decide_finished.load() || !rekey_finished.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (g_stop.load()) {
      stop_rekey.store(true);
      stop_decide.store(true);
    }
    if (rekey_finished.load() && !rekey_seen) {
      rekey_seen = true;
      if (rekey_result.ok() && rekey_result->backfill_complete) {
        upstream_done.store(true);
      } else {
        stop_decide.store(true);  // failed, or stopped by a signal
      }
    }
    if (decide_finished.load()) stop_rekey.store(true);
  }
  rekey_thread.join();
  decide_thread.join();
  if (!rekey_result.ok()) return rekey_result.status().WithContext("re-keying stage");
  if (rekey_result->counts.dead_letters > 0 && decide_result.ok()) {
    decide_result->counts.dead_letters += rekey_result->counts.dead_letters;
    decide_result->counts.records += rekey_result->counts.dead_letters;
  }
  return decide_result;
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
  // Listening before Kafka is reached: /healthz answers during start-up, and
  // a busy port fails the start at once.
  http::MetricsServer server(registry, [&metrics, &rekey_metrics] {
    return metrics.ready.load() && (!rekey_metrics || rekey_metrics->ready.load());
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
      rekey_metrics ? RunTwoStages(*setup, *rekey_metrics, metrics) : RunOneStage(*setup, metrics);
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

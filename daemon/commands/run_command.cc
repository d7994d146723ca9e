// pagesieve run: consume fetched-page events in a consumer group, publish
// verdicts.
#include "commands/run_command.h"

#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdio>
#include <memory>

#include "cli/command.h"
#include "cli/logging.h"
#include "common/clock.h"
#include "engine/sieve_options.h"
#include "http/metrics_options.h"
#include "http/metrics_server.h"
#include "kafka/kafka_options.h"
#include "run/run_loop.h"
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
  engine::SieveOptions sieve;
  store::StateEnvOptions state;
  run::RunOptions run;
  http::MetricsOptions metrics;
};

StatusOr<RunSetup> Setup(const RunFlags& flags) {
  PS_ASSIGN_OR_RETURN(Config config, flags.config.Load());
  PS_RETURN_IF_ERROR(cli::ConfigureLogging(config));
  RunSetup s;
  PS_ASSIGN_OR_RETURN(s.kafka, kafka::KafkaOptionsFromConfig(config));
  PS_ASSIGN_OR_RETURN(s.sieve, engine::SieveOptionsFromConfig(config));
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
  PS_RETURN_IF_ERROR(kafka::ConsumerConf(s.kafka).status());
  PS_RETURN_IF_ERROR(kafka::ProducerConf(s.kafka).status());
  return s;
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
  // Listening before Kafka is reached: /healthz answers during start-up, and
  // a busy port fails the start at once.
  http::MetricsServer server(registry, [&metrics] { return metrics.ready.load(); });
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
  run::RunLoop loop(std::move(setup->kafka), std::move(setup->sieve), std::move(setup->state),
                    setup->run, Clock::System(), g_stop, &metrics);
  StatusOr<run::RunSummary> summary = loop.Run();
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

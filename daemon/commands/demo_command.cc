// pagesieve demo: the whole daemon on a bundled, labelled sample crawl.
#include "commands/demo_command.h"

#include <csignal>
#include <cstdio>
#include <fstream>
#include <memory>

#include "cli/command.h"
#include "cli/logging.h"
#include "common/clock.h"
#include "common/duration.h"
#include "demo/demo_runner.h"
#include "demo/sample_crawl.h"

namespace pagesieve::commands {
namespace {

std::atomic<bool> g_stop{false};

extern "C" void OnDemoStopSignal(int) { g_stop.store(true); }

struct DemoFlags {
  cli::ConfigFlags config;
  std::string bootstrap;
  int events = demo::SampleOptions{}.events;
  uint64_t seed = demo::SampleOptions{}.seed;
  int partitions = 4;
  bool json = false;
  bool produce_only = false;
  std::string write_sample;
  std::string timeout = "60s";
};

StatusOr<demo::DemoOptions> Options(const DemoFlags& flags) {
  demo::DemoOptions o;
  PS_ASSIGN_OR_RETURN(o.timeout, ParseDuration(flags.timeout));
  if (o.timeout <= Duration(0)) return Status::InvalidArgument("--timeout must be positive");
  if (!flags.bootstrap.empty()) o.bootstrap = flags.bootstrap;
  o.sample.events = flags.events;
  o.sample.seed = flags.seed;
  o.partitions = flags.partitions;
  return o;
}

// The demo's settings come first, then the user's --set (those given before
// the subcommand, then its own), so the user has the last word.
demo::ConfigLoader Loader(const DemoFlags& flags) {
  return [&flags](const std::vector<std::string>& demo_overrides) -> StatusOr<Config> {
    const cli::ConfigFlags& global = cli::ConfigFlags::Global();
    std::vector<std::string> all = demo_overrides;
    all.insert(all.end(), global.overrides.begin(), global.overrides.end());
    all.insert(all.end(), flags.config.overrides.begin(), flags.config.overrides.end());
    PS_ASSIGN_OR_RETURN(Config config,
                        Config::Load(flags.config.file ? flags.config.file : global.file, all));
    PS_RETURN_IF_ERROR(cli::ConfigureLogging(config));
    return config;
  };
}

// A configuration the demo could not use (an unknown key, a bad value, a
// property librdkafka refuses) is a usage error, like everywhere else.
int Fail(const Status& status) {
  cli::PrintError(status);
  return status.code() == StatusCode::kInvalidArgument ? cli::kExitUsage : cli::kExitFailure;
}

int WriteSample(const DemoFlags& flags, const demo::DemoOptions& options) {
  std::ofstream out(flags.write_sample, std::ios::binary);
  for (const demo::SampleEvent& e : demo::GenerateSampleCrawl(options.sample)) {
    out << e.json << '\n';
  }
  out.flush();
  if (!out) {
    cli::PrintError(Status::IoError("cannot write " + flags.write_sample));
    return cli::kExitFailure;
  }
  return cli::kExitOk;
}

int ProduceOnly(const DemoFlags& flags, const demo::DemoOptions& options) {
  StatusOr<int64_t> produced = demo::ProduceDemoSample(options, Loader(flags));
  if (!produced.ok()) return Fail(produced.status());
  std::fprintf(stderr, "pagesieve demo: produced %lld sample events\n",
               static_cast<long long>(*produced));
  return cli::kExitOk;
}

int Run(const DemoFlags& flags) {
  StatusOr<demo::DemoOptions> options = Options(flags);
  if (!options.ok()) {
    cli::PrintError(options.status());
    return cli::kExitUsage;
  }
  if (!flags.write_sample.empty()) return WriteSample(flags, *options);
  if (flags.produce_only) return ProduceOnly(flags, *options);
  std::signal(SIGTERM, OnDemoStopSignal);
  std::signal(SIGINT, OnDemoStopSignal);
  StatusOr<demo::DemoResult> result =
      demo::RunDemo(*options, Loader(flags), Clock::System(), g_stop);
  if (!result.ok()) return Fail(result.status());
  const std::string text = flags.json ? demo::RenderJson(result->summary, result->context)
                                      : demo::RenderText(result->summary, result->context);
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
  if (!result->run_complete) {
    cli::PrintError(Status::Aborted("demo: stopped before every event was decided"));
    return cli::kExitFailure;
  }
  if (result->summary.missing > 0) {
    cli::PrintError(Status::Internal("demo: " + std::to_string(result->summary.missing) +
                                     " events got no verdict"));
    return cli::kExitFailure;
  }
  return cli::kExitOk;
}

}  // namespace

Command RegisterDemoCommand(CLI::App& app) {
  auto flags = std::make_shared<DemoFlags>();
  CLI::App* cmd = app.add_subcommand(
      "demo", "Run a labelled sample crawl through pagesieve on an in-process Kafka and summarize");
  flags->config.AddTo(*cmd);
  cmd->add_option("--bootstrap", flags->bootstrap,
                  "Use the Kafka broker at host:port instead of the in-process mock cluster "
                  "(topics of its own, deleted afterwards)");
  cmd->add_option("--events", flags->events, "Sample size")
      ->check(CLI::Range(1, demo::kMaxSampleEvents));
  cmd->add_option("--seed", flags->seed, "Seed of the sample crawl");
  cmd->add_option("--partitions", flags->partitions, "Partitions of the demo's topics")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--timeout", flags->timeout,
                  "How long producing the sample, creating topics and reading the verdicts "
                  "back may take (a duration: 60s, 2m)");
  cmd->add_flag("--json", flags->json, "Print the summary as one JSON object");
  cmd->add_flag("--produce-only", flags->produce_only,
                "Only produce the sample to kafka.input_topic (needs --bootstrap or the "
                "configured kafka.bootstrap_servers); for docker/compose.yaml");
  cmd->add_option("--write-sample", flags->write_sample,
                  "Write the sample as JSONL events (with labels) to FILE and exit, for "
                  "pagesieve dedup");
  return Command{cmd, [flags] { return Run(*flags); }};
}

}  // namespace pagesieve::commands

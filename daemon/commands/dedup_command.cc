// pagesieve dedup: the engine over JSONL files.
#include <cstdio>
#include <memory>
#include <thread>

#include "cli/command.h"
#include "commands/commands.h"
#include "common/clock.h"
#include "engine/engine_options.h"
#include "files/dedup_runner.h"
#include "store/shard_options.h"

namespace pagesieve::commands {
namespace {

struct DedupFlags {
  cli::ConfigFlags config;
  files::DedupRunOptions run;
  std::vector<std::string> inputs;
  bool quiet = false;
};

int RunDedup(const DedupFlags& flags) {
  StatusOr<Config> config = flags.config.Load();
  if (!config.ok()) {
    cli::PrintError(config.status());
    return cli::kExitUsage;
  }
  StatusOr<engine::EngineOptions> sieve = engine::EngineOptionsFromConfig(*config);
  StatusOr<store::StateEnvOptions> state = store::StateEnvOptionsFromConfig(*config);
  for (const Status& s : {sieve.status(), state.status()}) {
    if (!s.ok()) {
      cli::PrintError(s);
      return cli::kExitUsage;
    }
  }
  files::DedupRunOptions run = flags.run;
  if (!flags.inputs.empty()) run.inputs = flags.inputs;
  run.progress = !flags.quiet;

  const auto start = Clock::System().SteadyNow();
  files::DedupRunner runner(std::move(sieve).value(), std::move(state).value(), run,
                            Clock::System());
  StatusOr<engine::VerdictCounts> counts = runner.Run();
  if (!counts.ok()) {
    cli::PrintError(counts.status());
    return cli::kExitFailure;
  }
  const double secs = std::chrono::duration<double>(Clock::System().SteadyNow() - start).count();
  std::fprintf(stderr, "dedup: %lld records in %.1fs (%.0f/s): %s\n",
               static_cast<long long>(counts->records), secs,
               secs > 0 ? counts->records / secs : 0.0, counts->Summary().c_str());
  return cli::kExitOk;
}

}  // namespace

Command RegisterDedupCommand(CLI::App& app) {
  auto flags = std::make_shared<DedupFlags>();
  flags->run.threads = std::max(1u, std::thread::hardware_concurrency());
  CLI::App* cmd = app.add_subcommand(
      "dedup", "Decide unique/duplicate for fetched-page events in JSONL files, in order");
  flags->config.AddTo(*cmd);
  cmd->add_option("--input,-i", flags->inputs,
                  "JSONL input file(s), one event per line; - is stdin (default)");
  cmd->add_option("--output,-o", flags->run.output, "Verdicts, one JSON per line (default: -)");
  cmd->add_option("--dlq", flags->run.dead_letters,
                  "Write bad records here as JSONL (default: report them on stderr)");
  cmd->add_option("--state-dir", flags->run.state_dir,
                  "Keep state here so later runs continue from it (default: a temporary "
                  "directory, removed at the end)");
  cmd->add_option("--threads", flags->run.threads, "Fingerprinting threads (default: one per core)")
      ->check(CLI::Range(1, 1024));
  cmd->add_flag("--quiet,-q", flags->quiet, "No progress lines, only the summary");
  return Command{cmd, [flags] { return RunDedup(*flags); }};
}

}  // namespace pagesieve::commands

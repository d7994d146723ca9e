// pagesieve dedup: the engine over JSONL and WARC files.
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
  std::string input_format = "auto";
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
  StatusOr<files::InputFormatChoice> format = files::ParseInputFormatChoice(flags.input_format);
  StatusOr<int64_t> max_record = config->GetInt("warc.max_record_bytes");
  for (const Status& s : {format.status(), max_record.status()}) {
    if (!s.ok()) {
      cli::PrintError(s);
      return cli::kExitUsage;
    }
  }
  if (*max_record < 1024) {
    cli::PrintError(Status::OutOfRange("warc.max_record_bytes must be at least 1024"));
    return cli::kExitUsage;
  }
  run.input = {*format, *max_record};

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
  if (const std::string warc = runner.warc_counts().Summary(); !warc.empty()) {
    std::fprintf(stderr, "dedup: %s\n", warc.c_str());
  }
  // Every record refused means the input is not what pagesieve reads (a
  // wrong format, a wrong field mapping): that is a failed run, not a
  // successful one with an empty result.
  if (counts->records > 0 && counts->dead_letters == counts->records) {
    std::fprintf(stderr,
                 "pagesieve: nothing in the input could be read: all %lld records are dead "
                 "letters (the first reasons are above or in the --dlq file)\n",
                 static_cast<long long>(counts->records));
    return cli::kExitFailure;
  }
  return cli::kExitOk;
}

}  // namespace

Command RegisterDedupCommand(CLI::App& app) {
  auto flags = std::make_shared<DedupFlags>();
  flags->run.threads = std::max(1u, std::thread::hardware_concurrency());
  CLI::App* cmd = app.add_subcommand(
      "dedup", "Decide unique/duplicate for fetched-page events in JSONL or WARC files, in order");
  flags->config.AddTo(*cmd);
  cmd->add_option("--input,-i", flags->inputs,
                  "Input file(s): JSONL (one event per line) or WARC (.warc, .warc.gz); - is "
                  "stdin (default)");
  cmd->add_option("--input-format", flags->input_format,
                  "auto (default: from each file's content), jsonl or warc")
      ->check(CLI::IsMember({"auto", "jsonl", "warc"}));
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

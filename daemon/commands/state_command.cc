// pagesieve state: inspect shards without changing them.
#include "commands/state_command.h"

#include <memory>

#include "cli/command.h"
#include "state/state_runner.h"

namespace pagesieve::commands {
namespace {

struct StateCommandFlags {
  state::StateFlags common;
  state::StatsFlags stats;
  state::LookupFlags lookup;
};

void AddCommonFlags(CLI::App& app, state::StateFlags& flags) {
  flags.config.AddTo(app);
  app.add_option("--state-dir", flags.state_dir,
                 "Directory of the shards: a daemon's state.dir (<topic>-<partition>/) or the "
                 "--state-dir of pagesieve dedup (default: state.dir)");
  app.add_option("--shard", flags.shard, "Only this shard (its directory name, e.g. pages-3)");
  app.add_flag("--json", flags.json, "Machine-readable output");
}

CLI::App* AddStats(CLI::App& parent, StateCommandFlags& flags) {
  CLI::App* stats = parent.add_subcommand(
      "stats",
      "Per shard: entries per store, disk size, watermark, checkpointed offset, "
      "fingerprint version, Bloom filter fill");
  stats->fallthrough();  // --state-dir and the others may follow the subcommand too
  stats->add_flag("--count", flags.stats.count,
                  "Count stored and live entries exactly by scanning every key (slower)");
  return stats;
}

CLI::App* AddLookup(CLI::App& parent, StateCommandFlags& flags) {
  state::LookupFlags& f = flags.lookup;
  CLI::App* lookup = parent.add_subcommand(
      "lookup",
      "What the stores hold for a URL, a SimHash or a content digest, and what a "
      "record with it would match");
  lookup->fallthrough();
  lookup->add_option("--url", f.url,
                     "A URL (canonicalized with the configured rules); with --simhash or "
                     "--content it only gives the scope");
  lookup->add_option("--simhash", f.simhash, "A SimHash, 16 hex digits as verdicts print it");
  lookup->add_option("--content", f.content, "A content digest, 32 hex digits");
  lookup->add_option("--scope", f.scope,
                     "The scope to look in (needed for scope.key = record_key; default: from "
                     "--url)");
  lookup->add_option("--max-distance", f.max_distance,
                     "SimHash distance (default: near.max_distance, or the site's override)");
  lookup->add_option("--limit", f.limit, "SimHash entries shown per shard (default: 20)");
  return lookup;
}

}  // namespace

Command RegisterStateCommand(CLI::App& app) {
  auto flags = std::make_shared<StateCommandFlags>();
  CLI::App* cmd =
      app.add_subcommand("state", "Inspect shards read-only (safe while a pagesieve runs on them)");
  AddCommonFlags(*cmd, flags->common);
  cmd->require_subcommand(1);
  CLI::App* stats = AddStats(*cmd, *flags);
  CLI::App* lookup = AddLookup(*cmd, *flags);
  return Command{cmd, [flags, stats, lookup]() {
                   if (stats->parsed()) return state::RunStats(flags->common, flags->stats);
                   if (lookup->parsed()) return state::RunLookup(flags->common, flags->lookup);
                   return cli::kExitUsage;
                 }};
}

}  // namespace pagesieve::commands

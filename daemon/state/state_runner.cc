#include "state/state_runner.h"

#include <cstdio>
#include <functional>

#include "cli/command.h"
#include "state/lookup_key.h"
#include "state/lookup_report.h"
#include "state/stats_report.h"
#include "store/shard_inspector.h"

namespace pagesieve::state {
namespace {

// The shards to look at: all under the state directory, or the one --shard
// names. An unknown name is a usage error that lists the names there are.
StatusOr<std::vector<store::ShardDirEntry>> SelectShards(const std::string& state_dir,
                                                         const std::optional<std::string>& name) {
  StatusOr<std::vector<store::ShardDirEntry>> all = store::FindShards(state_dir);
  if (!all.ok()) {
    return all.status().code() == StatusCode::kNotFound
               ? Status::InvalidArgument(all.status().message() + " (--state-dir, state.dir)")
               : all.status();
  }
  if (all->empty()) return Status::NotFound("no shards under " + state_dir);
  if (!name) return all;
  std::string names;
  for (const store::ShardDirEntry& s : *all) {
    if (s.name == *name) return std::vector<store::ShardDirEntry>{s};
    names += (names.empty() ? "" : ", ") + s.name;
  }
  return Status::InvalidArgument("--shard: no shard named '" + *name + "' under " + state_dir +
                                 " (there are: " + names + ")");
}

bool Print(const std::string& text) {
  return std::fwrite(text.data(), 1, text.size(), stdout) == text.size() &&
         std::fflush(stdout) == 0;
}

// Opens each shard in turn and hands it to `visit`. A shard that cannot be
// opened or read is reported on stderr and skipped; returns how many failed.
using Visit = std::function<Status(const store::ShardDirEntry&, store::ShardInspector&)>;
size_t ForEachShard(const std::vector<store::ShardDirEntry>& shards,
                    const store::ShardOptions& options, const Visit& visit) {
  size_t failed = 0;
  for (const store::ShardDirEntry& shard : shards) {
    StatusOr<std::unique_ptr<store::ShardInspector>> inspector =
        store::ShardInspector::Open(shard.path, options);
    const Status s = inspector.ok() ? visit(shard, **inspector) : inspector.status();
    if (!s.ok()) {
      cli::PrintError(s.WithContext("shard " + shard.name));
      ++failed;
    }
  }
  return failed;
}

// Settings and shards, or the exit code of why not.
struct Prepared {
  StateSettings settings;
  std::vector<store::ShardDirEntry> shards;
};
StatusOr<Prepared> Prepare(const StateFlags& flags, int* exit_code) {
  *exit_code = cli::kExitUsage;
  PS_ASSIGN_OR_RETURN(StateSettings settings, LoadStateSettings(flags));
  StatusOr<std::vector<store::ShardDirEntry>> shards =
      SelectShards(settings.state_dir, flags.shard);
  if (!shards.ok()) {
    if (shards.status().code() == StatusCode::kNotFound) *exit_code = cli::kExitFailure;
    return shards.status();
  }
  return Prepared{std::move(settings), std::move(shards).value()};
}

}  // namespace

int RunStats(const StateFlags& flags, const StatsFlags& stats) {
  int code = cli::kExitOk;
  StatusOr<Prepared> prepared = Prepare(flags, &code);
  if (!prepared.ok()) {
    cli::PrintError(prepared.status());
    return code;
  }
  std::vector<NamedReport> reports;
  const size_t failed = ForEachShard(
      prepared->shards, prepared->settings.sieve.shard,
      [&](const store::ShardDirEntry& shard, store::ShardInspector& inspector) -> Status {
        PS_ASSIGN_OR_RETURN(store::ShardReport report, inspector.Report());
        if (stats.count) PS_RETURN_IF_ERROR(inspector.CountEntries(&report));
        reports.push_back({shard.name, std::move(report)});
        return Status::Ok();
      });
  const std::string out = flags.json
                              ? StatsJson(prepared->settings.state_dir, reports).dump(2) + "\n"
                              : StatsText(reports);
  if (!Print(out)) return cli::kExitFailure;
  return failed ? cli::kExitFailure : cli::kExitOk;
}

int RunLookup(const StateFlags& flags, const LookupFlags& lookup) {
  int code = cli::kExitOk;
  StatusOr<Prepared> prepared = Prepare(flags, &code);
  if (!prepared.ok()) {
    cli::PrintError(prepared.status());
    return code;
  }
  const engine::EngineOptions& sieve = prepared->settings.sieve;
  StatusOr<LookupKey> key = ResolveLookupKey(lookup, sieve);
  if (!key.ok()) {
    cli::PrintError(key.status());
    return cli::kExitUsage;
  }
  const LookupContext context{std::move(key).value(), sieve.decider.url_mode,
                              sieve.decider.on_revisit, static_cast<size_t>(lookup.limit)};
  std::vector<ShardLookup> found;
  const size_t failed = ForEachShard(
      prepared->shards, sieve.shard,
      [&](const store::ShardDirEntry& shard, store::ShardInspector& inspector) -> Status {
        PS_ASSIGN_OR_RETURN(ShardLookup result, LookupInShard(shard.name, inspector, context));
        if (result.Found(context.url_mode)) found.push_back(std::move(result));
        return Status::Ok();
      });
  const std::string& dir = prepared->settings.state_dir;
  const size_t searched = prepared->shards.size();
  const std::string out = flags.json ? LookupJson(context, found, searched, dir).dump(2) + "\n"
                                     : LookupText(context, found, searched, dir);
  if (!Print(out)) return cli::kExitFailure;
  return failed ? cli::kExitFailure : cli::kExitOk;
}

}  // namespace pagesieve::state

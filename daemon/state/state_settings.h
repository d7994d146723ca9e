#pragma once

#include <optional>
#include <string>

#include "cli/command.h"
#include "common/status_or.h"
#include "engine/engine_options.h"

namespace pagesieve::state {

// The flags every `pagesieve state` subcommand shares.
struct StateFlags {
  cli::ConfigFlags config;
  std::optional<std::string> state_dir;  // default: state.dir
  std::optional<std::string> shard;      // one shard by directory name
  bool json = false;
};

// `state stats` flags.
struct StatsFlags {
  bool count = false;  // scan every key for exact stored and live counts
};

// `state lookup` flags: exactly one key (--url, --simhash or --content);
// --url also gives the scope of the other two.
struct LookupFlags {
  std::optional<std::string> url;
  std::optional<std::string> simhash;
  std::optional<std::string> content;
  std::optional<std::string> scope;
  std::optional<int> max_distance;
  int limit = 20;  // SimHash matches shown per shard
};

// What the subcommands take from the configuration: the engine's view of it
// (canonicalization, scope, TTLs, SimHash distances) and where shards are.
struct StateSettings {
  engine::EngineOptions sieve;
  std::string state_dir;
};

// Loads the configuration; an error names the key or flag at fault.
StatusOr<StateSettings> LoadStateSettings(const StateFlags& flags);

}  // namespace pagesieve::state

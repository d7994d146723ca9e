#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/status_or.h"
#include "config/config.h"

namespace pagesieve::cli {

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // the job ran and failed
inline constexpr int kExitUsage = 2;    // bad flags or configuration: nothing was done

// The --config/--set pair that every configurable subcommand takes.
// `pagesieve --config A --set x=1 dedup --set y=2` works too: the flags given
// before the subcommand (Global()) come first, the subcommand's own after, and
// a --config after the subcommand replaces one before it.
struct ConfigFlags {
  std::optional<std::string> file;
  std::vector<std::string> overrides;

  void AddTo(CLI::App& app);
  StatusOr<Config> Load() const;

  // The flags of the top-level command.
  static ConfigFlags& Global();
};

// Prints "pagesieve: <message>" on stderr; the single clear line a failing
// command ends with.
void PrintError(const Status& status);

}  // namespace pagesieve::cli

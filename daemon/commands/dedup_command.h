#pragma once

#include <CLI/CLI.hpp>

#include "commands/commands.h"

namespace pagesieve::commands {

// `pagesieve dedup`: verdicts for the fetched-page events of JSONL files.
Command RegisterDedupCommand(CLI::App& app);

}  // namespace pagesieve::commands

#pragma once

#include <CLI/CLI.hpp>

#include "commands/commands.h"

namespace pagesieve::commands {

// `pagesieve state stats|lookup`: read-only inspection of shards, to answer
// "why was this page called a duplicate?" (docs/state-inspection.md).
Command RegisterStateCommand(CLI::App& app);

}  // namespace pagesieve::commands

#pragma once

#include <CLI/CLI.hpp>

#include "commands/commands.h"

namespace pagesieve::commands {

// `pagesieve run`: the Kafka daemon.
Command RegisterRunCommand(CLI::App& app);

}  // namespace pagesieve::commands

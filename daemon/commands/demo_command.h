#pragma once

#include <CLI/CLI.hpp>

#include "commands/commands.h"

namespace pagesieve::commands {

// `pagesieve demo`: a labelled sample crawl through the real daemon on
// librdkafka's mock cluster (or a real broker), with a readable summary.
Command RegisterDemoCommand(CLI::App& app);

}  // namespace pagesieve::commands
